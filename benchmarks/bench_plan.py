"""Does ``vsim plan`` give the power it promises for the test the report runs (issue 40)?

For each case, the paired games per variant ``vsim plan`` gives (``planning.plan_rows``, or
the command itself with ``--pilot`` on a synthetic pilot run) are played as synthetic paired
games (``simulate.analysis.sequential.paired_winners``: DS's win rate moved by delta, taken
from VE, a game of B repeating A's winner with probability rho); each repetition is judged
by the report's verdict (``verdict.changes``: a paired interval per outcome, simultaneous
over the outcomes of the report, a change when it excludes 0). It prints how often the verdict finds the planted change (the power, planned
at 80%) and, with no change, how often it claims one (the size, at most alpha). Nothing is
asserted.

    python benchmarks/bench_plan.py [--reps 1000]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulate.analysis import stats, verdict  # noqa: E402
from simulate.analysis.planning import plan_rows  # noqa: E402
from simulate.analysis.sequential import paired_winners  # noqa: E402

OUTCOMES = ("DS", "BK", "VE", "tie")


def comparison(a: np.ndarray, b: np.ndarray) -> SimpleNamespace:
    """What the report's verdict reads of a paired comparison of winners ``a`` and ``b``."""
    wins = [stats.paired_win_comparison(list(a), list(b), o, 0.95) for o in OUTCOMES]
    side = SimpleNamespace(label="x")
    return SimpleNamespace(wins=wins, a=side, b=side, n=len(a), overall={}, confounded=[])


def verdict_rates(n: int, rates, rho: float, delta: float, reps: int, seed: int):
    """(power for DS, size) of the verdict over ``reps`` repetitions of ``n`` paired games."""
    rng = np.random.default_rng(seed)
    found = claimed = 0
    for _ in range(reps):
        a, b = paired_winners(rng, n, delta, rho, rates)
        rows = verdict.changes([comparison(a, b)], delta, 0.05)[0]["factions"]
        found += next(r for r in rows if r["faction"] == "DS")["verdict"] == "change"
        a, b = paired_winners(rng, n, 0.0, rho, rates)
        rows = verdict.changes([comparison(a, b)], delta, 0.05)[0]["factions"]
        claimed += any(r["verdict"] == "change" for r in rows)
    return found / reps, claimed / reps


def pilot_plan(rates, rho: float, delta: float, games: int = 4000) -> int:
    """The paired games ``vsim plan --pilot`` gives for a synthetic pilot run of two variants
    with these win rates and pairing."""
    from click.testing import CliRunner

    from simulate.cli.analysis import plan
    from simulate.seeds import game_seed
    from simulate.study import dataset, manifest, records

    rng = np.random.default_rng(7)
    a, b = paired_winners(rng, games, 0.0, rho, rates)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        rows = []
        for name, winners in (("base", a), ("other", b)):
            for k, w in enumerate(winners):
                row = dict.fromkeys(records.NAMES["games"])
                row |= {"run_id": "pilot", "variant": name, "game_index": k}
                row |= {"seed": game_seed(0, k), "winner": w}
                row |= {f"strategy_{f}": "random" for f in ("DS", "BK", "VE")}
                rows.append(row)
        dataset.write_shard(
            out / "games",
            "part-pilot-000000-999999.parquet",
            records.table_from_rows("games", rows),
        )
        manifest.write(
            out,
            {"master_seed": 0, "config": {"seed": 0}, "variants": [
                {"name": "base"}, {"name": "other"}
            ]},
        )  # fmt: skip
        result = CliRunner(env={"COLUMNS": "200"}).invoke(
            plan, ["--delta", str(delta), "--pilot", str(out)]
        )
    if result.exit_code != 0:
        raise SystemExit(result.output)
    chosen = next(line for line in result.output.splitlines() if "◀" in line)
    return int(re.findall(r"[\d,]+", chosen)[-1].replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--delta", type=float, default=0.03)
    args = ap.parse_args()
    d = args.delta
    even = (1 / 3, 1 / 3, 1 / 3)
    print(f"delta {d}, alpha 0.05, power 0.8 planned; {args.reps} repetitions per case")
    print(f"{'case':<52} {'games':>6} {'power':>6} {'size':>6}")
    cases = []
    for rho in (0.3, 0.8):
        n = next(r for r in plan_rows(d, 1 / 3, 0.05, 0.8, rho) if r["chosen"])["paired"]
        cases.append((f"vsim plan --paired-rho {rho}, rates 1/3", n, even, rho))
    skewed = (0.7, 0.1, 0.2)
    n = pilot_plan(skewed, 0.5, d)
    cases.append(("vsim plan --pilot, rates DS 70 BK 10 VE 20, rho 0.5", n, skewed, 0.5))
    for i, (name, n, rates, rho) in enumerate(cases):
        power, size = verdict_rates(n, rates, rho, d, args.reps, seed=40 + i)
        print(f"{name:<52} {n:6d} {power:6.3f} {size:6.3f}")


if __name__ == "__main__":
    main()
