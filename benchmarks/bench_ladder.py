"""The ladder's overhead over plain games: ``vsim ladder`` against ``vsim run``, same games.

    python benchmarks/bench_ladder.py                  # 150 games per lineup, 5 repeats

The ladder's challenger is the field's own bot under another spec (the default lineup's
file, ``strategies/vijayanagara/lineups/heuristic.toml``, against ``heuristic``), so its 4 x N games cost
exactly what 4 x N default games cost in ``runs.run``; the two are timed alternately (the
machine is shared), and the ratio of their games/s is reported as a median (target: the
ladder within 5% of the run). Not a test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulate import native  # noqa: E402
from simulate.study import runs, specs  # noqa: E402
from simulate.study.ladder import Ladder, play_ladder  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="games per lineup")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"modules: {native.summary()}")
    same = str(ROOT / "strategies" / "lineups" / "heuristic.toml")  # heuristic, by its file
    ladder = Ladder.create(["all=heuristic"], [same], [str(args.games)], seed=1)
    study = specs.Study.create(games=4 * args.games, seed=1, strategies=["all=heuristic"])
    ratios, run_rates, ladder_rates = [], [], []
    for i in range(args.repeats + 1):  # the first pair warms the worker pool up
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            runs.run(study, Path(tmp) / "run", jobs=args.jobs)
            run_rate = 4 * args.games / (time.perf_counter() - t0)
            t0 = time.perf_counter()
            play_ladder(ladder, Path(tmp) / "ladder", jobs=args.jobs)
            ladder_rate = 4 * args.games / (time.perf_counter() - t0)
        if i == 0:
            continue
        run_rates.append(run_rate)
        ladder_rates.append(ladder_rate)
        ratios.append(ladder_rate / run_rate)
        print(f"  run {run_rate:6.1f} games/s   ladder {ladder_rate:6.1f} games/s")
    print(
        f"median: run {statistics.median(run_rates):.1f}, ladder "
        f"{statistics.median(ladder_rates):.1f} games/s; ladder / run = "
        f"{statistics.median(ratios):.3f} (target >= 0.95)"
    )


if __name__ == "__main__":
    main()
