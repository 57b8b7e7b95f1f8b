"""Random-vs-random games per second on one core (issue 3 target: 200), median of 5 runs.

python benchmarks/bench_engine.py [--games 300] [--runs 5] [--strategy random] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from simulate import native, play_game
from simulate.vijayanagara.rules.ruleset import load_rules


def one_run(games: int, first_seed: int, strategy: str) -> tuple[float, float]:
    """(games per wall second, games per CPU second of this process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(first_seed, first_seed + games):
        play_game(seed, strategies=strategy)
    return games / (time.perf_counter() - wall), games / (time.process_time() - cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile instead")
    args = ap.parse_args()
    load_rules()
    play_game(0, strategies=args.strategy)  # warm caches and imports
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        one_run(args.games, 0, args.strategy)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return
    runs = [one_run(args.games, i * args.games, args.strategy) for i in range(args.runs)]
    wall = [w for w, _ in runs]
    cpu = [c for _, c in runs]
    print(f"strategy={args.strategy} games/run={args.games} runs={args.runs}")
    print(f"modules: {native.summary()}")
    print("games/s per run (wall): " + ", ".join(f"{r:.1f}" for r in wall))
    print("games/s per run (CPU):  " + ", ".join(f"{r:.1f}" for r in cpu))
    print(
        f"median games/s, one core: {statistics.median(wall):.1f} wall, {statistics.median(cpu):.1f} CPU"
    )
    print("(CPU time is less sensitive to other load on a shared machine; quote both)")


if __name__ == "__main__":
    main()
