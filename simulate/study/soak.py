"""Soak testing: play many games checking every invariant after every action (issue 8).

Each failure is reported with a one-line repro command. Games are spread over worker
processes; the outcome does not depend on their number.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from simulate.game import play_game
from simulate.rules import invariants
from simulate.seeds import game_seed


@dataclass(frozen=True)
class SoakFailure:
    game_index: int
    seed: int
    strategy: str
    error: str  # one line
    repro: str


def _check(ctx) -> None:
    invariants.check(ctx.state, ctx.rules)


def _strategy_for(index: int, strategies: tuple[str, ...]) -> str:
    return strategies[index % len(strategies)]


def _play_chunk(
    args: tuple[int, int, int, tuple[str, ...], str | None],
) -> tuple[int, list[SoakFailure]]:
    master, first, last, strategies, variant = args
    failures = []
    for k in range(first, last):
        seed = game_seed(master, k)
        strategy = _strategy_for(k, strategies)
        try:
            play_game(seed, strategies=strategy, variant=variant, on_action=_check)
        except Exception as exc:  # noqa: BLE001 - every failure is reported, none stops the soak
            where = traceback.extract_tb(exc.__traceback__)[-1]
            message = " ".join(f"{type(exc).__name__}: {exc}".split())
            variant_arg = f", variant={variant!r}" if variant else ""
            failures.append(
                SoakFailure(
                    k,
                    seed,
                    strategy,
                    f"{message} (at {os.path.basename(where.filename)}:{where.lineno})",
                    f'python -c "from simulate.study.soak import replay_checked; replay_checked({seed}, {strategy!r}{variant_arg})"',
                )
            )
    return last - first, failures


def replay_checked(seed: int, strategy: str = "random", variant: str | None = None) -> None:
    """Replay one soak game with the invariant checks, raising where it first fails."""
    play_game(seed, strategies=strategy, variant=variant, on_action=_check)


def soak(
    games: int,
    master: int = 0,
    strategies: tuple[str, ...] = ("random", "heuristic"),
    variant: str | None = None,
    jobs: int = 0,
    chunk: int = 200,
    progress: Callable[[int], None] | None = None,
) -> Iterator[SoakFailure]:
    """Play ``games`` games (strategies alternating by game index), yielding each failure."""
    jobs = jobs or os.cpu_count() or 1
    tasks = [
        (master, a, min(games, a + chunk), strategies, variant) for a in range(0, games, chunk)
    ]
    if jobs == 1:
        results = map(_play_chunk, tasks)
        for done, failures in results:
            yield from failures
            if progress:
                progress(done)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, failures in pool.map(_play_chunk, tasks):
            yield from failures
            if progress:
                progress(done)
