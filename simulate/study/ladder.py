"""A bot ladder: how much each Faction gains by leaving the field's bot for a challenger.

The *field* is a lineup (one strategy spec per Faction). For every seat and every
*challenger* spec, the ladder plays games with the challenger in that seat and the field in
the other two, on the same game seeds as the field-only games (common random numbers):
game ``k`` of every lineup plays with ``seeds.game_seed(master, k)``. The rows go into an
output folder like a run's (Parquet shards, manifest, resume); the lineup of each row is in
its ``lineup`` column (``field`` or ``SEAT~CHALLENGER``) and its strategy columns. The gains are computed by
``simulate.analysis.ladder``.

>>> ladder = Ladder.create(["all=heuristic"], ["greedy"], ["300"], seed=21)  # doctest: +SKIP
>>> play_ladder(ladder, Path("runs/ladder"), jobs=2)                         # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulate.games import DEFAULT as DEFAULT_GAME
from simulate.games import get as get_game
from simulate.study import dataset, records
from simulate.study import manifest as manifest_mod
from simulate.study.backends import default_jobs
from simulate.study.batch import Batch, missing_runs, plan, safe_name
from simulate.study.budgets import parse_factors, scaled
from simulate.study.errors import RunError
from simulate.study.runs import Progress, out_folder, play_session, strategy_params
from simulate.study.specs import (
    check_strategies,
    default_strategy,
    games_per_name,
    load_variants,
    parse_strategies,
    seats_of,
)

FIELD = "field"
DEFAULT_LADDER_GAMES = 400


@dataclass(frozen=True)
class Rung:
    """One lineup of the ladder: the field alone, or a challenger in one seat."""

    key: str  # shard key: "field" or "<seat>~greedy"
    seat: str | None
    challenger: str | None
    strategies: dict[str, str]
    games: int


@dataclass(frozen=True)
class Ladder:
    """A checked ladder: field, challengers, games per challenger, master seed, variant."""

    field: dict[str, str]
    challengers: tuple[str, ...]
    games: dict[str, int]  # per challenger
    seed: int
    variant: Any
    data_files: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False)
    seats: tuple[str, ...] = ()  # the seats a challenger takes in turn (--seat; () all)
    # --budgets: each scaled challenger as (its spec, the challenger given, the factor)
    budgets: tuple[tuple[str, str, float], ...] = ()
    game: str = DEFAULT_GAME  # the game's reference (simulate.games)
    every_seat: tuple[str, ...] = ()  # the game's seats, in turn order

    @classmethod
    def create(
        cls,
        field_specs: Sequence[str] | None,
        challengers: Sequence[str],
        games: Sequence[str] = (),
        seed: int = 0,
        variant: str | None = None,
        seats: Sequence[str] = (),
        budgets: str | None = None,
        game: str | None = None,
    ) -> Ladder:
        """A checked ladder, or RunError (one line): unknown spec or seat, a challenger equal
        to the field in every seat it takes, a bad game count. ``seats``: only these seats
        take each challenger (default: all), e.g. to test one seat's new bot.
        ``budgets`` (``1,2,4``): each challenger at these multiples of its search budget
        (``simulate.study.budgets``), one challenger per budget."""
        try:
            the_game = get_game(game)
        except ValueError as exc:
            raise RunError(str(exc)) from None
        (loaded,) = load_variants([variant] if variant else None, game=the_game)
        every = seats_of(the_game, [loaded])
        word = the_game.seat_word
        lineup = parse_strategies(field_specs, every, default_strategy(the_game), word)
        check_strategies(lineup, game=the_game.ref)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise RunError(f"--seed must be a non-negative integer, got {seed!r}")
        given = tuple(dict.fromkeys(c.strip() for c in challengers))
        if not given:
            raise RunError("give at least one --challenger (a strategy spec, e.g. greedy)")
        factors = parse_factors(budgets) if budgets is not None else ()
        try:
            scaled_from = tuple((scaled(c, x, the_game.ref), c, x) for c in given for x in factors)
        except RunError as exc:
            raise RunError(f"--budgets {budgets}: {exc}") from None
        chosen = tuple(dict.fromkeys(s for s, _, _ in scaled_from)) or given
        unknown = [f for f in seats if f not in every]
        if unknown:
            raise RunError(f"--seat {unknown[0]!r}: a seat is one of {', '.join(every)}")
        taken = tuple(f for f in every if f in seats) or every
        for c in chosen:
            check_strategies(dict.fromkeys(every, c), game=the_game.ref)
            if all(lineup[f] == c for f in taken):
                where = "every seat" if taken == every else f"seat {', '.join(taken)}"
                raise RunError(f"--challenger {c!r} is the field's bot in {where}")
        counts = _game_counts(games, chosen, {s: c for s, c, _ in scaled_from})
        files = manifest_mod.data_files(the_game.data_dir())
        ref = the_game.ref or the_game.name
        return cls(lineup, chosen, counts, seed, loaded, files, taken, scaled_from, ref, every)

    def rungs(self) -> list[Rung]:
        """The field, then each (seat, challenger) whose challenger differs from the field's
        bot in that seat (where it is the same, the gain is 0 by construction)."""
        out = [Rung(FIELD, None, None, dict(self.field), max(self.games.values()))]
        for c in self.challengers:
            for f in self.seats:
                if self.field[f] != c:
                    out.append(
                        Rung(f"{f}~{safe_name(c)}", f, c, self.field | {f: c}, self.games[c])
                    )
        return out

    def config(self) -> dict[str, Any]:
        """What decides the data (recorded in the manifest, compared on resume)."""
        out = {
            "kind": "ladder",
            "field": {f: self.field[f] for f in self.every_seat},
            "challengers": list(self.challengers),
            "games": dict(self.games),
            "seed": self.seed,
            "variants": [{"name": self.variant.name, "digest": self.variant.digest}],
            "data_digest": manifest_mod.data_digest(self.data_files),
        }
        if self.seats != self.every_seat:  # (a ladder of all seats keeps its config as it was)
            out["seats"] = list(self.seats)
        if self.game != DEFAULT_GAME:
            out["game"] = self.game
        if self.budgets:
            out["budgets"] = [{"challenger": s, "of": c, "factor": x} for s, c, x in self.budgets]
        return out

    @property
    def run_id(self) -> str:
        return manifest_mod.canonical_digest(self.config())[:16]


def _game_counts(
    values: Sequence[str], challengers: Sequence[str], scaled_from: dict[str, str] | None = None
) -> dict[str, int]:
    """``--games N`` (every challenger) and ``--games SPEC=N`` (one challenger; with
    ``--budgets``, the challenger as given sets every budget of it, ``scaled_from``)."""
    scaled_from = scaled_from or {}
    default, own = games_per_name(
        values,
        DEFAULT_LADDER_GAMES,
        "SPEC",
        lambda spec: spec in challengers or spec in scaled_from.values(),
        lambda spec: f"{spec!r} is not a --challenger",
    )
    return {c: own.get(c, own.get(scaled_from.get(c, c), default)) for c in challengers}


@dataclass
class LadderRun:
    """What a ladder run did: where its data is, games played now and before."""

    out: Path
    run_id: str
    played: int
    already: int
    total: int
    failures: list[tuple[str, int, str]]
    seconds: float
    backend: str


def done_by_rung(out: Path, ladder: Ladder) -> dict[str, set[int]]:
    """The game indices each rung already has in ``out`` (its rows' ``lineup`` column)."""
    done = dataset.done_games(out, lineups=True)
    return {
        r.key: done[cell]
        for r in ladder.rungs()
        if (cell := dataset.cell_key(ladder.variant.name, r.key)) in done
    }


def play_ladder(
    ladder: Ladder,
    out: Path,
    *,
    jobs: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    force: bool = False,
    progress: Progress | None = None,
    command: Sequence[str] | None = None,
) -> LadderRun:
    """Play every game of the ladder missing from ``out`` (resumable, like ``vsim run``)."""
    out = Path(out)
    progress = progress or Progress()
    jobs = default_jobs() if jobs is None else jobs
    with out_folder(out, ladder, force, backend, jobs, scheduler) as (be, old):
        started = time.perf_counter()
        done = done_by_rung(out, ladder)
        rungs = {r.key: r for r in ladder.rungs()}
        total = sum(r.games for r in rungs.values())
        already = sum(len(done.get(k, ())) for k in rungs)
        todo = {k: missing_runs(r.games, done.get(k, set())) for k, r in rungs.items()}
        rung = {k: r.strategies for k, r in rungs.items()}
        work = [  # each row's lineup column names its rung
            Batch(
                c,
                ladder.variant,
                rung[c.variant],
                ladder.seed,
                ladder.run_id,
                lineup=c.variant,
                game=ladder.game,
            )
            for c in plan(todo, None, be.workers)
        ]
        man = old or _new_manifest(ladder, out)
        played, status = play_session(out, man, work, be, progress, (total, already), command)
    fails = dataset.failures(out) if status == "complete" else []
    return LadderRun(
        out, ladder.run_id, played, already, total, fails, time.perf_counter() - started,
        be.description,
    )  # fmt: skip


def _new_manifest(ladder: Ladder, out: Path) -> dict[str, Any]:
    every = ladder.every_seat
    return manifest_mod.provenance(ladder.data_files, get_game(ladder.game)) | {
        "run_id": ladder.run_id,
        "kind": "ladder",
        "config": ladder.config(),
        "master_seed": ladder.seed,
        "seats": list(every),
        "strategies": {f: ladder.field[f] for f in every},
        "strategy_params": strategy_params(ladder.field, ladder.game),
        "challengers": {
            c: strategy_params(dict.fromkeys(every, c), ladder.game) for c in ladder.challengers
        },
        "variants": [manifest_mod.variant_entry(ladder.variant, out, ladder.game)],
        "lineups": [
            {"key": r.key, "seat": r.seat, "challenger": r.challenger, "games": r.games}
            | {"strategies": r.strategies}
            for r in ladder.rungs()
        ],
        "tables": {t: f"{t}/part-<lineup>-<first>-<last>.parquet" for t in records.TABLES},
    }
