"""Speed of the bots: complete games per second on one core, the same bot in all three seats,
median of several runs (CPU time, so other load on the machine matters little).

    python benchmarks/bench_strategies.py                     # random and heuristic
    python benchmarks/bench_strategies.py --bots random,heuristic,greedy --games 10

Target (issue 6): ``heuristic`` at 50 games/s per core where ``random`` plays 150-200; the
ratio heuristic/random printed last is the machine-independent figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def games_per_second(spec: str, games: int, first_seed: int) -> float:
    from simulate import play_game

    t = time.process_time()
    for i in range(games):
        play_game(first_seed + i, spec)
    return games / (time.process_time() - t)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="random,heuristic")
    ap.add_argument("--games", type=int, default=20, help="games per run (default 20)")
    ap.add_argument("--runs", type=int, default=5, help="runs per bot; the median is shown")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    from simulate import native, play_game

    play_game(0, "random")  # load and compile the rules once, outside the timing
    print(f"modules: {native.summary()}")
    medians = {}
    for spec in [b.strip() for b in args.bots.split(",") if b.strip()]:
        rates = [
            games_per_second(spec, args.games, args.seed + r * args.games) for r in range(args.runs)
        ]
        medians[spec] = statistics.median(rates)
        spread = f"{min(rates):.1f}-{max(rates):.1f}"
        print(f"{spec:<24} {medians[spec]:8.2f} games/s per core (median of {args.runs}; {spread})")
    if "random" in medians and "heuristic" in medians:
        print(f"heuristic / random speed ratio: {medians['heuristic'] / medians['random']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
