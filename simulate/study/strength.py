"""A strength study: the same variants and seeds played under lineups of growing strength.

A *rung* is a lineup (one strategy spec per Faction), as with ``vsim run --lineup``: every
variant x rung is a cell of the study (``Study.cells``), game ``k`` of every cell plays with
``seeds.game_seed(master, k)`` (common random numbers: the rungs are paired game by game)
and each row's ``lineup`` column names its rung. Rungs are given weakest first; each plays
its own number of games (indices ``0..n-1``), so a costly search rung can play fewer. The
rows go into an output folder through the one batch API, with a manifest and resume, as a
run's do; ``simulate.analysis.strength`` reads them.

A folder written by ``vsim run`` (one lineup) can be extended into a strength study: its
games become the games of the rung that plays its bots (rows without a lineup), and its
game count that rung's unless ``--games NAME=N`` says otherwise. A strength study takes more
rungs the same way (``grown``): the same command with more ``--rung`` plays only theirs.

>>> spec = Strength.create(["fast=all=heuristic-fast", "default=all=heuristic"],
...                        ["40"], seed=7)                                # doctest: +SKIP
>>> play_strength(spec, Path("runs/strength"), jobs=2)                    # doctest: +SKIP
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from simulate.games import Game
from simulate.games import get as get_game
from simulate.study import dataset, records
from simulate.study import manifest as manifest_mod
from simulate.study.backends import default_jobs
from simulate.study.batch import Batch, Chunk, missing_runs, plan
from simulate.study.bot_versions import refuse_moved
from simulate.study.budgets import label, scaled
from simulate.study.errors import RunError
from simulate.study.runs import Progress, bots, check_out_dir, out_folder, play_session
from simulate.study.specs import (
    Study,
    check_strategies,
    default_strategy,
    games_per_name,
    load_variants,
    parse_strategies,
    seats_of,
)

KIND = "strength"
DEFAULT_STRENGTH_GAMES = 200
SEARCH_FACTORS = (1, 2, 4)  # the default search rungs: mcts at these multiples of its budget
_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def search_rungs(search: str = "mcts") -> list[tuple[str, str]]:
    """(name, spec) of ``search`` in every seat at 1x, 2x and 4x its default budget: the
    strength curve's search rungs, for a game whose default lineup it searches over."""
    return [(f"{search}-{label(f)}", scaled(search, f)) for f in SEARCH_FACTORS]


def default_rungs(game: Game | None = None) -> tuple[str, ...]:
    """``--rung`` values of the game's default ladder of strength (``Game.strength_rungs``:
    Vijayanagara's fast tier, the default, then ``mcts`` at 1x, 2x and 4x its budget)."""
    return tuple(f"{name}=all={spec}" for name, spec in (game or get_game()).strength_rungs())


def lineup_spec(strategies: dict[str, str]) -> str:
    """A lineup as one spec: ``all=SPEC`` when every seat plays it, else ``P1=.. P2=..``."""
    specs = set(strategies.values())
    if len(specs) == 1:
        return f"all={specs.pop()}"
    return " ".join(f"{f}={spec}" for f, spec in strategies.items())


@dataclass(frozen=True)
class Rung:
    """One lineup of the study and the number of games each variant plays under it."""

    name: str
    strategies: dict[str, str]
    games: int

    @property
    def spec(self) -> str:
        return lineup_spec(self.strategies)


@dataclass(frozen=True)
class Adoption:
    """A ``vsim run`` whose games a rung took over: the rung, the run's id and game count."""

    rung: str
    run_id: str
    games: int


def parse_rungs(
    values: Sequence[str], seats: Sequence[str] | None = None, game: Game | None = None
) -> tuple[tuple[str, dict[str, str]], ...]:
    """``--rung NAME=SPEC`` values as (name, strategies), in first-seen order. The values of
    one NAME build its lineup as ``--strategy`` values do (seats not named play the game's
    default). RunError (one line) for a bad name or spec, or two rungs of the same bots."""
    game = game or get_game()
    seats = tuple(seats or game.seats())
    default, word = default_strategy(game), game.seat_word
    given: dict[str, list[str]] = {}
    for value in values:
        name, eq, rest = str(value).partition("=")
        name = name.strip()
        if not eq or not rest.strip():
            raise RunError(
                f"--rung {value!r}: expected NAME=SPEC, e.g. mcts-2x=all=mcts:rollouts=16"
            )
        if not _NAME.fullmatch(name) or name.upper() in (*seats, "ALL"):
            raise RunError(
                f"--rung {value!r}: a rung's name is letters, digits and '_.-' (and not a {word})"
            )
        given.setdefault(name, []).append(rest.strip())
    out: list[tuple[str, dict[str, str]]] = []
    seen: dict[tuple[str, ...], str] = {}
    for name, specs in given.items():
        try:
            strategies = parse_strategies(specs, seats, default, word)
            check_strategies(strategies, game=game.ref)
        except RunError as exc:
            raise RunError(f"--rung {name!r}: {str(exc).removeprefix('--strategy ')}") from None
        key = tuple(strategies[f] for f in seats)
        if key in seen:
            raise RunError(f"--rung {name!r} plays the same bots as rung {seen[key]!r}")
        seen[key] = name
        out.append((name, strategies))
    if len(out) < 2:
        raise RunError("a strength study needs at least two rungs (give --rung twice or more)")
    return tuple(out)


def parse_games(values: Sequence[str], names: Sequence[str]) -> tuple[int, dict[str, int]]:
    """``--games N`` (every rung) and ``--games NAME=N`` (one rung): (the default count, the
    counts given per rung)."""
    return games_per_name(
        values,
        DEFAULT_STRENGTH_GAMES,
        "NAME",
        lambda name: name in names,
        lambda name: f"{name!r} is not a rung (rungs: {', '.join(names)})",
    )


@dataclass(frozen=True)
class Strength:
    """A checked strength study: its rungs (weakest first), and a study that holds the
    master seed, the variants and the data files, with the rungs as its lineups."""

    study: Study
    rungs: tuple[Rung, ...]
    counted: frozenset[str] = frozenset()  # rungs whose games --games NAME=N gave
    adopted: Adoption | None = field(default=None, compare=False)

    @classmethod
    def create(
        cls,
        rungs: Sequence[str] = (),
        games: Sequence[str] = (),
        seed: int = 0,
        variants: Sequence[str] | None = None,
        game: str | None = None,
    ) -> Strength:
        """A checked study, or RunError (one line): bad rungs, game counts, seed or variant.
        ``rungs``: ``--rung NAME=SPEC`` values (default: the game's ``default_rungs``)."""
        try:
            the_game = get_game(game)
        except ValueError as exc:
            raise RunError(str(exc)) from None
        seats = seats_of(the_game, load_variants(variants, game=the_game))
        named = parse_rungs(rungs or default_rungs(the_game), seats, the_game)
        default, own = parse_games(games, [n for n, _ in named])
        chosen = tuple(Rung(n, s, own.get(n, default)) for n, s in named)
        study = Study.create(
            max(r.games for r in chosen),
            seed,
            dict(named[0][1]),
            variants,
            lineups=None,
            game=game,
        )
        study = replace(study, lineups=tuple((r.name, dict(r.strategies)) for r in chosen))
        return cls(study, chosen, frozenset(own))

    @property
    def seed(self) -> int:
        return self.study.seed

    @property
    def variants(self) -> tuple[Any, ...]:
        return self.study.variants

    def config(self) -> dict[str, Any]:
        """What decides the data (recorded in the manifest, compared on resume). Game counts
        are left out: more games of a rung are more of the same seeds."""
        base = self.study.config()
        return {
            "kind": KIND,
            "seed": self.seed,
            "variants": base["variants"],
            "rungs": [{"name": r.name, "strategies": dict(r.strategies)} for r in self.rungs],
            "data_digest": base["data_digest"],
        } | ({"game": base["game"]} if "game" in base else {})

    @property
    def run_id(self) -> str:
        return manifest_mod.canonical_digest(self.config())[:16]

    def rung(self, name: str) -> Rung:
        for r in self.rungs:
            if r.name == name:
                return r
        raise KeyError(name)

    def lineup(self, rung: Rung) -> str | None:
        """The ``lineup`` column of a rung's rows: its name; none for an adopted run's rung."""
        return None if self.adopted is not None and self.adopted.rung == rung.name else rung.name

    def cells(self) -> list[tuple[str, Any, Rung]]:
        """(shard key, variant, rung) of every variant x rung, rung by rung."""
        return [
            (dataset.cell_key(v.name, self.lineup(r)), v, r)
            for r in self.rungs
            for v in self.variants
        ]

    def adopting(self, adoption: Adoption) -> Strength:
        """This study extending a ``vsim run``: the adopted rung plays the run's game count
        unless ``--games NAME=N`` gave its own."""
        rungs = tuple(
            replace(r, games=adoption.games)
            if r.name == adoption.rung and r.name not in self.counted
            else r
            for r in self.rungs
        )
        return replace(self, rungs=rungs, adopted=adoption)

    def games_total(self) -> int:
        return sum(r.games for r in self.rungs) * len(self.variants)


# ---------------------------------------------------------------------------------------------
# The output folder


def _one_lineup_run(out: Path) -> dict[str, Any] | None:
    """The manifest in ``out`` when it is a ``vsim run`` of one lineup, else None."""
    try:
        man = manifest_mod.read(out) if Path(out).is_dir() else None
    except ValueError:
        return None  # check_out_dir says what is wrong with it
    config = (man or {}).get("config")
    if not isinstance(config, dict) or "kind" in config or config.get("lineups"):
        return None
    if not isinstance(config.get("strategies"), dict) or not isinstance(config.get("games"), int):
        return None
    return man


def adoption(out: Path, man: dict[str, Any], spec: Strength) -> Adoption:
    """Which rung takes over the games of the ``vsim run`` in ``out`` (manifest ``man``);
    RunError (one line) when that run is not the same study under one of the rungs."""
    config = man["config"]
    seed = config.get("seed")
    if seed != spec.seed:
        raise RunError(
            f"{out} holds a vsim run of master seed {seed}: give --seed {seed} to extend it "
            "into a strength study, or --force to replace it"
        )
    names = ", ".join(str(v.get("name")) for v in config.get("variants") or [])
    if config.get("variants") != spec.config()["variants"]:
        raise RunError(
            f"{out} holds a vsim run of other rules (variants {names}): give the same "
            "--variant to extend it, or --force to replace it"
        )
    if config.get("data_digest") != spec.config()["data_digest"]:
        raise RunError(f"{out}: the data files changed since its run; use --force to replace it")
    played = {f: str(config["strategies"].get(f)) for f in spec.study.seats}
    for r in spec.rungs:
        if r.strategies == played:
            return Adoption(r.name, str(man.get("run_id") or ""), int(config["games"]))
    raise RunError(
        f"{out} holds a vsim run of {lineup_spec(played)}, which no rung plays: add "
        f"--rung NAME={lineup_spec(played)} to extend it, or --force to replace it"
    )


def grown(out: Path, spec: Strength) -> dict[str, Any] | None:
    """The manifest of the strength study in ``out`` when this one is it with more rungs
    (the same seed, variants and data; each of its rungs one of these, by name and bots),
    updated to this study's rungs; else None. Its games stay: only the new rungs play."""
    try:
        old = manifest_mod.read(out)
    except ValueError:
        return None
    config = (old or {}).get("config")
    new = spec.config()
    if not isinstance(config, dict) or config.get("kind") != KIND:
        return None
    if any(config.get(key) != value for key, value in new.items() if key != "rungs"):
        return None
    had = config.get("rungs")
    if not isinstance(had, list) or len(had) >= len(new["rungs"]):
        return None
    if any(r not in new["rungs"] for r in had) or not os.access(out, os.W_OK | os.X_OK):
        return None
    refuse_moved(out, old)  # its rungs' games must be the installed bots' (bot_versions)
    fresh = new_manifest(spec, out)
    keys = ("run_id", "config", "strategies", "lineups", "tables")
    return (
        old
        | {key: fresh[key] for key in keys}
        | {"grown_from": [*old.get("grown_from", []), old.get("run_id")]}
    )


def check_folder(out: Path, spec: Strength, force: bool) -> dict[str, Any] | None:
    """``runs.check_out_dir`` for a strength study, which may also extend a ``vsim run``
    or a strength study with fewer rungs (``grown``): the manifest to resume (for a run: the
    strength manifest it becomes), or None."""
    run = None if force else _one_lineup_run(out)
    if run is None:
        try:
            return check_out_dir(out, spec, force)
        except RunError:
            more = grown(out, spec)
            if more is None:
                raise
            return more
    refuse_moved(out, run)
    found = adoption(out, run, spec)
    return new_manifest(spec.adopting(found), out) | {
        "extends": {
            "run_id": found.run_id,
            "rung": found.rung,
            "games": found.games,
            "config": run["config"],
            "start_time": run.get("start_time"),
        },
        "sessions": list(run.get("sessions") or []),
    }


def new_manifest(spec: Strength, out: Path) -> dict[str, Any]:
    """The manifest of a new strength study in ``out``. Its ``lineups`` are the rungs, so
    ``vsim report`` reads the folder as a run of several lineups."""
    game = spec.study.game
    return manifest_mod.provenance(spec.study.data_files, get_game(game)) | {
        "run_id": spec.run_id,
        "kind": KIND,
        "config": spec.config(),
        "master_seed": spec.seed,
        "seats": list(spec.study.seats),
        "strategies": {f: spec.rungs[-1].strategies[f] for f in spec.study.seats},
        "variants": [manifest_mod.variant_entry(v, out, game) for v in spec.variants],
        "lineups": [
            {"name": r.name, "strategies": r.strategies, **bots(r.strategies, game)}
            for r in spec.rungs
        ],
        "tables": {t: f"{t}/part-<variant>_<rung>-<first>-<last>.parquet" for t in records.TABLES},
    }


def rung_entries(spec: Strength) -> list[dict[str, Any]]:
    """The manifest's ``rungs``: each rung's name, spec, strategies and games per variant
    (rewritten by every invocation: a rung's games are its indices ``0..games-1``)."""
    return [
        {"name": r.name, "spec": r.spec, "strategies": r.strategies, "games": r.games}
        for r in spec.rungs
    ]


@dataclass
class StrengthRun:
    """What an invocation did: where the data is, games played now and before."""

    out: Path
    run_id: str
    played: int
    already: int
    total: int
    failures: list[tuple[str, int, str]]
    seconds: float
    backend: str


def work(spec: Strength, done: dict[str, set[int]], workers: int) -> list[Batch]:
    """The batches still to play: each rung's chunks sized for its own games (a costly rung
    loses little when stopped), the rungs advancing together (each chunk dispatched at its
    share of its rung's list), so that games done measure the work done and the ETA holds."""
    run_id = spec.adopted.run_id if spec.adopted else spec.run_id
    queued: list[tuple[float, int, Chunk, Any, Rung]] = []
    for i, r in enumerate(spec.rungs):
        cells = {key: v for key, v, rung in spec.cells() if rung is r}
        todo = {key: missing_runs(r.games, done.get(key, set())) for key in cells}
        chunks = plan(todo, None, workers)
        queued += [
            ((k + 0.5) / len(chunks), i, c, cells[c.variant], r) for k, c in enumerate(chunks)
        ]
    out = []
    for _, _, chunk, variant, r in sorted(queued, key=lambda q: q[:2]):
        lineup = spec.lineup(r)
        rows_id = run_id if lineup is None else spec.run_id
        out.append(
            Batch(
                chunk,
                variant,
                r.strategies,
                spec.seed,
                rows_id,
                lineup=lineup,
                game=spec.study.game,
            )
        )
    return out


def play_strength(
    spec: Strength,
    out: Path,
    *,
    jobs: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    force: bool = False,
    progress: Progress | None = None,
    command: Sequence[str] | None = None,
) -> StrengthRun:
    """Play every game of the study missing from ``out`` (resumable, like ``vsim run``;
    a ``vsim run`` folder is extended). Everything is checked first: a RunError leaves
    ``out`` untouched."""
    out = Path(out)
    progress = progress or Progress()
    jobs = default_jobs() if jobs is None else jobs
    with out_folder(out, spec, force, backend, jobs, scheduler, check_folder) as (be, old):
        started = time.perf_counter()
        man = old if old is not None else new_manifest(spec, out)
        extends = man.get("extends")
        if extends:
            spec = spec.adopting(Adoption(extends["rung"], extends["run_id"], extends["games"]))
            man["extends"] = extends | {"rung_games": spec.rung(extends["rung"]).games}
        done = dataset.done_games(out, lineups=True)
        keys = [(key, r.games) for key, _, r in spec.cells()]
        total = spec.games_total()
        already = sum(len({k for k in done.get(key, ()) if k < n}) for key, n in keys)
        batches = work(spec, done, be.workers)
        man["rungs"] = rung_entries(spec)
        played, status = play_session(out, man, batches, be, progress, (total, already), command)
    fails = dataset.failures(out) if status == "complete" else []
    return StrengthRun(
        out, spec.run_id, played, already, total, fails, time.perf_counter() - started,
        be.description,
    )  # fmt: skip
