"""Soak testing: play many games checking every invariant after every action (issue 8).

The games go through the one batch API (``simulate.study.batch``), as every study's do, with
the invariant check as each batch's per-action hook (``Batch.on_action``). The strategies
share the games: each plays its share on the seeds of game indices 0, 1, ... (common random
numbers, as the cells of a study). Each failure is reported with a one-line repro command;
which games fail does not depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from simulate.seeds import game_seed
from simulate.study.backends import default_jobs
from simulate.study.batch import Batch, plan, play, safe_name
from simulate.vijayanagara.result import FACTIONS
from simulate.vijayanagara.rules import invariants


@dataclass(frozen=True)
class SoakFailure:
    game_index: int
    seed: int
    strategy: str
    error: str  # one line
    repro: str


def check(ctx) -> None:
    """The per-action hook: every invariant of the position (``rules.invariants``)."""
    invariants.check(ctx.state, ctx.rules)


def replay_checked(seed: int, strategy: str = "random", variant: str | None = None) -> None:
    """Replay one soak game with the invariant checks, raising where it first fails."""
    from simulate.vijayanagara.game import play_game

    play_game(seed, strategies=strategy, variant=variant, on_action=check)


def shares(games: int, strategies: tuple[str, ...]) -> list[int]:
    """How many of ``games`` each strategy plays (the first ones one more, when uneven)."""
    n = len(strategies)
    return [games // n + (1 if j < games % n else 0) for j in range(n)]


def soak(
    games: int,
    master: int = 0,
    strategies: tuple[str, ...] = ("random", "heuristic"),
    variant: str | None = None,
    jobs: int = 0,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[SoakFailure]:
    """Play ``games`` games shared by ``strategies`` with every invariant checked after every
    action, on ``jobs`` worker processes (0: every core), yielding each failure as its batch
    finishes; ``chunk`` games a batch (None: sizes the batch API chooses)."""
    from simulate.variants import load_variant

    rules_ref = load_variant(variant)
    workers = jobs or default_jobs()
    todo = {}
    for j, count in enumerate(shares(games, strategies)):
        if count:
            todo[f"{j}~{safe_name(strategies[j])}"] = [(0, count - 1)]
    work = []
    for c in plan(todo, chunk, workers):
        lineup = dict.fromkeys(FACTIONS, _strategy(c.variant, strategies))
        work.append(Batch(c, rules_ref, lineup, master, "soak", on_action=check))
    variant_arg = f", variant={variant!r}" if variant else ""
    for result in play(work, jobs=workers):
        strategy = _strategy(result.chunk.variant, strategies)
        for k, _error in sorted(result.failures):
            seed = game_seed(master, k)
            yield SoakFailure(
                k,
                seed,
                strategy,
                result.raised[k],
                'python -c "from simulate.study.soak import replay_checked; '
                f'replay_checked({seed}, {strategy!r}{variant_arg})"',
            )
        if progress:
            progress(len(result.batch))


def _strategy(key: str, strategies: tuple[str, ...]) -> str:
    """The strategy of a batch's key (``j~name``: the j-th strategy)."""
    return strategies[int(key.split("~", 1)[0])]
