"""Pax Pamir on one core (issue 66 targets: random 4-player games at least 500/s, the
heuristic in every seat at least 50/s), medians of several runs, with decisions per second,
a state copy and a determinisation in microseconds.

python benchmarks/bench_pax_pamir.py [--players 4] [--games 200] [--runs 5]
    [--strategy random|heuristic|both] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
import timeit

from simulate import native
from simulate.overrides import with_settings
from simulate.pax_pamir.engine import Observation
from simulate.pax_pamir.game import GAME, run
from strategies.registry import make


def rules_for(players: int):
    return GAME.compile(with_settings(GAME.base_variant(), [("setup.players", players)]))


def one_run(rules, games: int, first: int, spec: str) -> tuple[float, float, float, int]:
    """(games per wall second, per CPU second, decisions per CPU second, failures)."""
    decisions = failures = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(first, first + games):
        agents = [make(spec, "pax-pamir") for _ in rules.seats]
        try:
            decisions += run(seed, agents, rules).decisions
        except Exception:
            failures += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return games / wall, games / cpu, decisions / cpu, failures


def micro(rules) -> tuple[float, float]:
    """Microseconds of a state copy and of a determinisation, mid-game (median of 7)."""
    ctx = run(1, [make("random", "pax-pamir") for _ in rules.seats], rules)
    state, rng = ctx.state, random.Random(0)
    obs = Observation(rules, 0, state)
    copy = min(timeit.repeat(state.copy, number=2000, repeat=7)) / 2000 * 1e6
    det = min(timeit.repeat(lambda: obs.determinise(rng), number=2000, repeat=7)) / 2000 * 1e6
    return copy, det


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--strategy", default="both")
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile instead")
    args = ap.parse_args()
    rules = rules_for(args.players)
    specs = ["random", "heuristic"] if args.strategy == "both" else [args.strategy]
    print(f"modules: {native.summary()}")
    for spec in specs:
        one_run(rules, 5, 10**6, spec)  # warm imports and caches
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            one_run(rules, args.games, 0, spec)
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(20)
            continue
        runs = [one_run(rules, args.games, i * args.games, spec) for i in range(args.runs)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        per = statistics.median(r[2] for r in runs)
        fails = sum(r[3] for r in runs)
        print(
            f"{spec} in every seat, {args.players} players: median {wall:.1f} games/s wall,"
            f" {cpu:.1f} CPU; {per:,.0f} decisions/s ({1e6 / per:.1f} us each);"
            f" runs (wall): {', '.join(f'{r[0]:.1f}' for r in runs)}; failures {fails}"
        )
    copy, det = micro(rules)
    print(f"state copy {copy:.2f} us, determinisation {det:.2f} us")


if __name__ == "__main__":
    main()
