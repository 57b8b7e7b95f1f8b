"""Soak testing: play many games checking every invariant after every action (issue 8).

The games go through the one batch API (``simulate.study.batch``), as every study's do, with
the invariant check as each batch's per-action hook (``Batch.on_action``). The strategies
share the games: each plays its share on the seeds of game indices 0, 1, ... (common random
numbers, as the cells of a study). Each failure is reported with a one-line repro command;
which games fail does not depend on the number of workers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from simulate.games import DEFAULT
from simulate.games import get as get_game
from simulate.seeds import game_seed
from simulate.study.backends import default_jobs
from simulate.study.batch import Batch, compiled_rules, plan, play, safe_name


@dataclass(frozen=True)
class SoakFailure:
    game_index: int
    seed: int
    strategy: str
    error: str  # one line
    repro: str


def check(ctx, game: str = DEFAULT) -> None:
    """The per-action hook: every invariant of the position (the game's check)."""
    get_game(game).check_invariants(ctx)


def replay_checked(
    seed: int, strategy: str = "random", variant: str | None = None, game: str = DEFAULT
) -> None:
    """Replay one soak game with the invariant checks, raising where it first fails."""
    from strategies.registry import make

    the_game = get_game(game)
    rules = compiled_rules(the_game.load_variant(variant), the_game)
    agents = [make(strategy, game) for _ in the_game.seats(rules)]
    the_game.play(seed, agents, rules, on_action=functools.partial(check, game=game))


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
    game: str = DEFAULT,
) -> Iterator[SoakFailure]:
    """Play ``games`` games shared by ``strategies`` with every invariant checked after every
    action, on ``jobs`` worker processes (0: every core), yielding each failure as its batch
    finishes; ``chunk`` games a batch (None: sizes the batch API chooses)."""
    the_game = get_game(game)
    rules_ref = the_game.load_variant(variant)
    seats = the_game.seats(compiled_rules(rules_ref, the_game))
    hook = functools.partial(check, game=game)
    workers = jobs or default_jobs()
    todo = {}
    for j, count in enumerate(shares(games, strategies)):
        if count:
            todo[f"{j}~{safe_name(strategies[j])}"] = [(0, count - 1)]
    work = []
    for c in plan(todo, chunk, workers):
        lineup = dict.fromkeys(seats, _strategy(c.variant, strategies))
        work.append(Batch(c, rules_ref, lineup, master, "soak", on_action=hook, game=game))
    variant_arg = f", variant={variant!r}" if variant else ""
    variant_arg += f", game={game!r}" if game != DEFAULT else ""
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
