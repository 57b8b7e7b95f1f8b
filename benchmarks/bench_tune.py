"""Does ``vsim tune`` report its winner honestly (issue 40)?

Each repetition runs the real search (``simulate.study.variant_search.run_search``: Optuna's
TPE, racing, the budget) with the games replaced by synthetic ones whose win rates are known
for every candidate: the searched Pass incomes move each Faction's win rate (a softmax of
0.12, 0.03 or 0 per Resource: a search with much, little or nothing to find; the base game
gives DS 50%, BK and VE 25%). Game k of a candidate draws its winner from a uniform number
of (seed, k) shared by every candidate half of the time (else its own), so candidates share
some of their luck, as on common seeds. It prints, over the repetitions, how far the
reported distance of the winner lies from its true distance (bias), how often the reported
interval covers the truth, the reported gain over the base game against the true gain, how
often the winner is said to beat the base game, and the most games played against the
budget. Nothing is asserted.

    python benchmarks/bench_tune.py [--reps 200] [--budget 1500] [--first 50]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulate.study import variant_search as vs  # noqa: E402

FACTIONS = ("DS", "BK", "VE")
BASE_INCOME = {"DS": 3, "BK": 1, "VE": 1}
INCOMES = range(5)
SEARCH = """name = "bench-tune"
description = "the Pass income of each Faction (synthetic games)"

[search]
"sequence.pass_income.DS" = [0, 1, 2, 3, 4]
"sequence.pass_income.BK" = [0, 1, 2, 3, 4]
"sequence.pass_income.VE" = [0, 1, 2, 3, 4]
"""


@dataclass(frozen=True)
class Truth:
    """Known win rates: a softmax of ``per_resource`` per Resource of Pass income, leaning so
    that the base game gives DS 50%, BK and VE 25%."""

    per_resource: float
    pairing: float = 0.5

    def rates(self, income: dict[str, int]) -> np.ndarray:
        lean = {"DS": math.log(2) - 2 * self.per_resource, "BK": 0.0, "VE": 0.0}
        w = np.array([lean[f] + self.per_resource * income[f] for f in FACTIONS])
        e = np.exp(w - w.max())
        return e / e.sum()

    def distance(self, income: dict[str, int]) -> float:
        return 100 * math.sqrt(sum((r - 1 / 3) ** 2 for r in self.rates(income)) / 3)

    def best(self) -> float:
        return min(
            self.distance(dict(zip(FACTIONS, c, strict=True)))
            for c in itertools.product(INCOMES, repeat=3)
        )

    def draw(self, seed: int, k: int, key: int) -> float:
        """Game k's uniform number: shared by every candidate with probability ``pairing``
        (common random numbers), else the candidate's own."""
        own = np.random.default_rng([seed, k, key])
        if own.random() < self.pairing:
            return float(np.random.default_rng([seed, k]).random())
        return float(own.random())

    def play(self, work, backend=None, **_):
        """Synthetic games for ``variant_search``'s ``play``: the rows it reads, per batch."""
        for batch in work:
            income = income_of(batch.variant)
            cum = np.cumsum(self.rates(income))
            key = 1 + 25 * income["DS"] + 5 * income["BK"] + income["VE"]
            indices = list(batch.chunk.indices)
            u = [self.draw(batch.master_seed, k, key) for k in indices]
            winners = [FACTIONS[min(2, int(np.searchsorted(cum, x, side="right")))] for x in u]
            rows = {"game_index": indices, "winner": winners, "error": [None] * len(indices)}
            yield SimpleNamespace(batch=batch, chunk=batch.chunk, games=lambda rows=rows: rows)


def income_of(variant) -> dict[str, int]:
    found = ((variant.content.get("sequence") or {}).get("pass_income")) or {}
    return {f: int(found.get(f, BASE_INCOME[f])) for f in FACTIONS}


def one_search(truth: Truth, path: Path, budget: int, first: int, seed: int) -> dict[str, float]:
    """The reported and true figures of one search."""
    vs.play = truth.play
    search = vs.Search.create(path, budget=budget, first=first, seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        found = vs.run_search(search, Path(tmp) / "out", jobs=1)
    best, ref = found.best, found.reference
    income = BASE_INCOME | {k.rsplit(".", 1)[1]: v for k, v in json.loads(best["params"]).items()}
    true = truth.distance(income)
    return {
        "reported": best["distance"],
        "truth": true,
        "covered": best["distance_low"] <= true <= best["distance_high"],
        "reported_gain": ref["distance"] - best["distance"],
        "true_gain": truth.distance(BASE_INCOME) - true,
        "played": found.played,
        "said_better": bool(getattr(found, "beats_base", True)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--budget", type=int, default=1500)
    ap.add_argument("--first", type=int, default=50)
    ap.add_argument("--per-resource", type=float, nargs="+", default=[0.12, 0.03, 0.0])
    args = ap.parse_args()
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "search.toml"
        path.write_text(SEARCH, "utf-8")
        for per in args.per_resource:
            truth = Truth(per)
            found = [
                one_search(truth, path, args.budget, args.first, seed) for seed in range(args.reps)
            ]
            report(truth, found, args)


def report(truth: Truth, found: list[dict[str, float]], args: argparse.Namespace) -> None:
    bias = np.mean([r["reported"] - r["truth"] for r in found])
    cover = np.mean([r["covered"] for r in found])
    gain = np.mean([r["reported_gain"] for r in found])
    true_gain = np.mean([r["true_gain"] for r in found])
    said = np.mean([r["said_better"] for r in found])
    print(
        f"{args.reps} searches, budget {args.budget}, first {args.first}, "
        f"{truth.per_resource} per Resource: the base game "
        f"{truth.distance(BASE_INCOME):.1f} points from an even split, the best {truth.best():.1f}"
    )
    print(f"  winner's reported distance minus its true distance (mean): {bias:+.2f} points")
    print(f"  winner's reported interval covers its true distance: {cover:.3f}")
    print(f"  gain over the base game: reported {gain:.2f}, true {true_gain:.2f} points (mean)")
    print(f"  said the winner beats the base game: {said:.3f}")
    print(f"  games played: at most {max(r['played'] for r in found)} on a budget of {args.budget}")


if __name__ == "__main__":
    main()
