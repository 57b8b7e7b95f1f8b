"""How well common seeds pair each built-in variant with the base game (issue 19).

    python benchmarks/bench_pairing.py [--games 1000] [--seed 19] [--strategy all=heuristic]

For every built-in variant, plays ``--games`` games of the base game and of the variant on
the same seeds and prints, per Faction, the per-game correlation (phi) of "this Faction won"
between the two, and their mean. A paired study needs (1 - rho) times the games of an
unpaired one, so a higher figure is cheaper comparisons. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulate.analysis.stats import pairing_correlation  # noqa: E402
from simulate.study import dataset, runs, specs  # noqa: E402
from simulate.vijayanagara.variants import list_variants  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--strategy", default="all=heuristic")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    variants = [v.name for v in list_variants() if v.name != "base"]
    study = specs.Study.create(
        games=args.games, seed=args.seed, strategies=[args.strategy], variants=["base", *variants]
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        runs.run(study, out, jobs=args.jobs)
        games = dataset.outcomes(out)
    winners: dict[str, dict[int, str | None]] = {}
    for v, g, w in zip(games["variant"], games["game_index"], games["winner"], strict=True):
        winners.setdefault(v, {})[g] = w
    print(f"{args.games} games per variant, seed {args.seed}, {args.strategy}")
    print(f"{'variant':24} {'DS':>6} {'BK':>6} {'VE':>6} {'mean':>6}")
    for v in variants:
        common = sorted(set(winners["base"]) & set(winners[v]))
        a = [winners["base"][g] for g in common]
        b = [winners[v][g] for g in common]
        rho = pairing_correlation(a, b)
        cells = " ".join(f"{rho[f]:6.3f}" for f in ("DS", "BK", "VE"))
        print(f"{v:24} {cells} {rho['mean']:6.3f}")


if __name__ == "__main__":
    main()
