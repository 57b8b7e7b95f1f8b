"""A run into an output folder: checks, lock, manifest and resume around the batch API.

``run(study, out)`` checks everything first (folder, backend, scheduler; a RunError leaves
``out`` untouched), then creates or resumes ``out``: it reads which games are on disk, plays
the missing ones with ``batch.play`` and writes each finished batch's shards as it lands.
Rerunning the same study into the same folder plays only what is missing.

>>> study = Study.create(games=12, seed=7)                        # doctest: +SKIP
>>> report = run(study, Path("runs/demo"), jobs=2)                # doctest: +SKIP
>>> report.played                                                 # doctest: +SKIP
12
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.games import get as get_game
from simulate.study import dataset, records
from simulate.study import manifest as manifest_mod
from simulate.study.backends import Backend, default_jobs, open_backend
from simulate.study.batch import MIN_CHUNK, Batch, BatchResult, plan_chunks, play
from simulate.study.bot_versions import resolved, resumable
from simulate.study.errors import RunError
from simulate.study.errors import one_line as _one_line
from simulate.study.specs import Study

_LOCK = ".vsim.lock"


def default_out(now: float | None = None) -> Path:
    """``runs/<timestamp>``."""
    return Path("runs") / time.strftime("%Y%m%d-%H%M%S", time.localtime(now))


def check_out_dir(out: Path, study: Study, force: bool) -> dict[str, Any] | None:
    """Check, without changing anything, that ``out`` can take this study.

    Returns the existing manifest when the run is a resume, None for a new run (or one that
    ``force`` will replace). Raises RunError for an unusable directory or, without ``force``,
    for one that holds a different run.
    """
    out = Path(out)
    tables = records.tables_of(get_game(getattr(study, "game", None)))
    if out.exists() and not out.is_dir():
        raise RunError(f"output {out} exists and is not a directory")
    if not out.exists():
        parent = out
        while not parent.exists():
            if parent.parent == parent:
                break
            parent = parent.parent
        if not parent.is_dir():
            raise RunError(f"cannot create output {out}: {parent} is not a directory")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise RunError(f"cannot create output {out}: {parent} is not writable")
        return None
    if not os.access(out, os.W_OK | os.X_OK):
        raise RunError(f"output {out} is not writable")
    for table in tables:
        folder = out / table
        if folder.exists() and not folder.is_dir():
            raise RunError(f"output {out}: {folder} exists and is not a directory")
    try:
        old = manifest_mod.read(out)
    except ValueError as exc:
        if force:
            return None
        raise RunError(f"{_one_line(exc)}; use --force to replace it") from None
    if old is None:
        if any(dataset.shards(out, t) for t in tables) and not force:
            raise RunError(f"{out} holds data without a manifest; use --force to replace it")
        others = _other_files(out, tables)
        if others and not force:
            raise RunError(
                f"{out} is not empty and holds no vsim run ({others}); use --force to write "
                "the run there anyway or choose another --out"
            )
        return None
    diff = _config_diff(old.get("config"), study.config())
    if not diff:
        return old
    if _extends(old.get("config"), study.config()):
        return old  # the same study with more games: play only the new ones (issue 19)
    if force:
        return None
    raise RunError(
        f"{out} holds a different run ({diff}); use --force to replace it or choose another --out"
    )


def _other_files(out: Path, tables: Sequence[str] = records.TABLES) -> str:
    """What a folder without a run's manifest holds besides the run's own empty folders
    (``tables``) and lock, in a few words ("" when nothing)."""
    found = sorted(
        p.name
        for p in out.iterdir()
        if p.name != _LOCK and not (p.name in tables and p.is_dir() and not any(p.iterdir()))
    )
    if not found:
        return ""
    if "search.json" in found:
        return "a vsim tune folder"
    if "tune.json" in found:
        return "a vsim tune-bots folder"
    shown = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
    return f"other files: {shown}"


def _extends(old: Any, new: dict[str, Any]) -> bool:
    """Whether ``new`` is the run of ``old`` with more games on the same seeds."""
    if not isinstance(old, dict) or old.get("kind") != new.get("kind"):
        return False
    games = old.get("games")
    if not isinstance(games, int) or not isinstance(new.get("games"), int):
        return False
    return games < new["games"] and not _config_diff(old | {"games": new["games"]}, new)


def _config_diff(old: Any, new: dict[str, Any]) -> str:
    """What differs between the config of the run in a folder and this one, in words."""
    if not isinstance(old, dict):
        return "no config in its manifest"
    if old.get("kind") != new.get("kind"):
        return f"{_kind(old)} there, {_kind(new)} now"
    parts = []
    for key, value in new.items():
        if old.get(key) != value:
            parts.append(_setting_diff(key, old.get(key), value))
    return "; ".join(parts)


def _kind(config: dict[str, Any]) -> str:
    return f"a {config['kind']}" if config.get("kind") else "a run"


def _words(value: Any) -> str:
    """A setting's value as a person writes it (no quotes, no braces)."""
    if value is None:
        return "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        names = [v.get("name", _words(v)) if isinstance(v, dict) else _words(v) for v in value]
        return ", ".join(str(n) for n in names) or "none"
    return str(value)


def _setting_diff(key: str, old: Any, new: Any) -> str:
    """One setting that differs, in words: ``games 100 there, 200 now``."""
    if key == "data_digest":
        return "data files changed"
    if isinstance(old, dict) and isinstance(new, dict):
        keys = list(dict.fromkeys([*new, *old]))
        return "; ".join(
            f"{key} of {k}: {_words(old.get(k))} there, {_words(new.get(k))} now"
            for k in keys
            if old.get(k) != new.get(k)
        )
    if _words(old) == _words(new):  # the same names, other contents (a variant file edited)
        return f"{key}: the same names with other contents"
    return f"{key} {_words(old)} there, {_words(new)} now"


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # Windows: no advisory lock
        yield
        return
    fh = open(out / _LOCK, "a+")  # noqa: SIM115 - held for the whole run
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise RunError(f"{out} is being written by another vsim run") from None
        yield
    finally:
        fh.close()


def wipe(out: Path, tables: Sequence[str] = ()) -> None:
    """Remove a run from ``out``: the generic tables, those its manifest lists (a game's own)
    and ``tables``, then the manifest."""
    import shutil

    for table in dict.fromkeys([*records.TABLES, *_listed_tables(out), *tables]):
        shutil.rmtree(out / table, ignore_errors=True)
    (out / manifest_mod.MANIFEST).unlink(missing_ok=True)


def _listed_tables(out: Path) -> list[str]:
    """The tables the manifest in ``out`` lists (none when it cannot be read)."""
    import json

    try:
        listed = json.loads((out / manifest_mod.MANIFEST).read_text()).get("tables")
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(listed, dict):
        return []
    return [t for t in listed if isinstance(t, str) and t.isidentifier()]


# ---------------------------------------------------------------------------------------------
# Backends


@dataclass
class RunReport:
    """What a run did and where its data is."""

    out: Path
    run_id: str
    played: int  # games played by this invocation
    already: int  # games found on disk at the start (resume)
    total: int  # games in the study (all variants)
    failures: list[tuple[str, int, str]]  # every errored game of the dataset
    outcomes: dict[str, list[Any]]  # the games table's outcome columns (complete runs)
    seconds: float
    backend: str
    chunk_size: int
    manifest: dict[str, Any]

    @property
    def exit_code(self) -> int:
        return 3 if self.failures else 0


class Progress:
    """Callbacks a runner reports to (the CLI draws a bar with them)."""

    def start(self, total: int, already: int) -> None:  # noqa: B027 - optional hooks
        pass

    def advance(self, games: int) -> None:  # noqa: B027
        pass


def run(
    study: Study,
    out: Path,
    *,
    jobs: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    force: bool = False,
    chunk: int | None = None,
    progress: Progress | None = None,
    command: Sequence[str] | None = None,
    decision_timeout: float | None = None,
) -> RunReport:
    """Play every game of ``study`` missing from ``out`` and write the dataset there.

    ``decision_timeout`` (seconds) turns a strategy that hangs on one decision into a failed
    game (DecisionTimeout) instead of a stuck run.

    Everything is checked first (directory, backend, scheduler): a RunError leaves ``out``
    untouched. Then ``out`` is created (or resumed; with ``force`` a different run in it is
    replaced), the manifest written, the missing games played in chunks, each chunk's shards
    written atomically as it finishes, and the manifest completed.
    """
    out = Path(out)
    progress = progress or Progress()
    jobs = default_jobs() if jobs is None else jobs
    if chunk is not None and chunk < 1:
        raise RunError(f"--chunk-size must be a positive integer, got {chunk}")
    with out_folder(out, study, force, backend, jobs, scheduler) as (be, old):
        return _run_locked(study, out, be, old, chunk, progress, command, decision_timeout)


@contextlib.contextmanager
def out_folder(
    out: Path,
    spec: Any,
    force: bool,
    backend: str,
    jobs: int,
    scheduler: str | None,
    check: Callable[[Path, Any, bool], dict[str, Any] | None] = check_out_dir,
) -> Iterator[tuple[Backend, dict[str, Any] | None]]:
    """Check ``out`` for ``spec`` (a study or ladder: anything with ``config()``), open the
    backend, create and lock the folder, and yield (backend, the manifest of the run being
    resumed, or None for a new one). A RunError before the yield leaves ``out`` untouched.
    ``check`` (``check_out_dir`` by default) says which manifest, if any, is resumed; a
    study begun by other bot versions is refused, or replaced with ``force`` (``bot_versions``)."""
    resumable(out, check(out, spec, force), force)
    with open_backend(backend, jobs, scheduler) as be:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunError(f"cannot create output {out}: {exc.strerror}") from None
        with locked(out):
            old = resumable(out, check(out, spec, force), force)  # again, holding the lock
            if old is None:  # nothing, or a different run that --force replaces
                wipe(out, records.tables_of(get_game(getattr(spec, "game", None))))
            dataset.clean(out)
            yield be, old


def play_into(
    out: Path,
    work: list[Batch],
    be: Backend,
    progress: Progress,
    decision_timeout: float | None = None,
) -> Iterator[BatchResult]:
    """Play ``work`` on ``be``, writing each finished batch's shards into ``out`` as it lands
    (and yielding it); the tables' folders are fsynced however it ends."""
    tables = {t: None for b in work[:1] for t in records.tables_of(get_game(b.game))}
    try:
        for result in play(work, backend=be, decision_timeout=decision_timeout):
            commit(out, result)
            progress.advance(len(result.chunk))
            yield result
    finally:
        for name in tables or records.TABLES:
            if (out / name).is_dir():
                dataset.fsync_dir(out / name)


def _run_locked(
    study: Study,
    out: Path,
    be: Backend,
    old: dict[str, Any] | None,
    chunk: int | None,
    progress: Progress,
    command: Sequence[str] | None,
    decision_timeout: float | None = None,
) -> RunReport:
    started = time.perf_counter()
    done = done_cells(out, study)
    cells = {
        key: (variant, strategies, lineup) for key, variant, lineup, strategies in study.cells()
    }
    total = study.games * len(cells)
    already = sum(len(done.get(key, ())) for key in cells)
    chunks = plan_chunks(study, done, chunk, be.workers)
    size = max((len(c) for c in chunks), default=chunk or MIN_CHUNK)  # the largest chunk

    session = {
        "start_time": manifest_mod.now(),
        "end_time": None,
        "backend": be.name,
        "jobs": be.workers,
        "chunk_size": size,
        "games_played": 0,
        "command": list(command) if command is not None else None,
    }
    man = new_manifest(study, out) if old is None else old
    if old is not None and old["config"]["games"] != study.games:
        man.setdefault("extended", []).append(
            {
                "from_games": old["config"]["games"],
                "to_games": study.games,
                "at": session["start_time"],
            }
        )
        man["config"] = study.config()
    man.setdefault("sessions", []).append(session)
    man["status"] = "running"
    man["execution"] = {"backend": be.description, "jobs": be.workers, "chunk_size": size}
    manifest_mod.write(out, man)

    progress.start(total, already)
    work = [
        Batch(
            c,
            variant,
            strategies,
            study.seed,
            study.run_id,
            study.trace,
            lineup or None,
            game=study.game,
        )
        for c in chunks
        for variant, strategies, lineup in (cells[c.variant],)
    ]
    played = 0
    fails: list[tuple[str, int, str]] = []
    outcome: dict[str, list[Any]] = {}
    status = "incomplete"
    try:
        for result in play_into(out, work, be, progress, decision_timeout):
            played += len(result.chunk)
        status = "complete"
    finally:
        session["end_time"] = manifest_mod.now()
        session["games_played"] = played
        man["status"] = status
        man["end_time"] = session["end_time"]
        if status == "complete":
            outcome = dataset.outcomes(out)
            fails = dataset.failures(outcome)
            man["games_done"] = total
            man["failures"] = {
                "count": len(fails),
                "games": [{"variant": v, "game_index": k, "error": e} for v, k, e in fails[:100]],
            }
        manifest_mod.write(out, man)

    return RunReport(
        out=out,
        run_id=study.run_id,
        played=played,
        already=already,
        total=total,
        failures=fails,
        outcomes=outcome,
        seconds=time.perf_counter() - started,
        backend=be.description,
        chunk_size=size,
        manifest=man,
    )


def done_cells(out: Path, study: Study) -> dict[str, set[int]]:
    """The game indices each cell (a variant, or a variant x lineup) of ``study`` has in
    ``out``."""
    if not study.lineups:
        return dataset.done_games(out)
    return dataset.done_games(out, lineups=True)


def commit(out: Path, result: BatchResult) -> None:
    """Write a finished chunk: ``actions``, ``turns`` and the game's own tables first,
    ``games`` (the mark) last."""
    name = result.chunk.shard_name()
    own = [t for t in result.tables if t not in records.TABLES]
    for table in ("actions", "turns", *own, "games"):
        if table in result.tables:
            dataset.write_shard(out / table, name, result.tables[table].to_table())


def strategy_params(strategies: dict[str, str], game: str | None = None) -> dict[str, Any]:
    """Each seat's strategy parameters as the strategy resolved them (weights file digests
    included), so that a run's bots can be traced, not only their spec strings."""
    out: dict[str, Any] = {}
    for f in strategies:
        try:
            out[f] = resolved(strategies[f], game)
        except Exception as exc:  # already validated by Study.create; never fail a run here
            out[f] = {"error": _one_line(exc)}
    return out


def bots(strategies: dict[str, str], game: str | None = None) -> dict[str, Any]:
    """A lineup's manifest entries: each seat's strategy parameters and, for a lineup a
    ladder measured (the game's exploitability file), how exploitable it was found."""
    from strategies.exploitability import measured

    params = strategy_params(strategies, game)
    path = get_game(game).lineup_files().get("exploitability")
    if path is None or not Path(path).exists():  # a game whose default no ladder measured
        return {"strategy_params": params, "exploitability": None}
    try:
        known = measured(strategies, params, path, get_game(game).seats())
    except ValueError as exc:
        raise RunError(str(exc)) from None
    return {"strategy_params": params, "exploitability": known}


def play_session(
    out: Path,
    man: dict[str, Any],
    batches: list[Batch],
    be: Any,
    progress: Progress,
    games: tuple[int, int],
    command: Sequence[str] | None,
) -> tuple[int, str]:
    """One session of a resumable study (a ladder, a strength curve): recorded in ``man``
    before any game, ``batches`` played into ``out`` with progress over ``games`` (total,
    already done), and the session closed in ``man`` however it ends. (played, status)."""
    man["status"] = "running"
    man.setdefault("sessions", []).append(
        {"start_time": manifest_mod.now(), "backend": be.description, "command": command}
    )
    manifest_mod.write(out, man)
    progress.start(*games)
    played = 0
    status = "incomplete"
    try:
        for result in play_into(out, batches, be, progress):
            played += len(result.chunk)
        status = "complete"
    finally:
        man["status"] = status
        man["end_time"] = manifest_mod.now()
        man["sessions"][-1]["games_played"] = played
        manifest_mod.write(out, man)
    return played, status


def shipped_strength(game: str | None = None) -> dict[str, Any] | None:
    """The base game's shipped strength curve (the game's strength file), recorded in every
    run's manifest so that its report can say where the answer stands as every seat plays
    stronger; None for a game that ships none."""
    from strategies.exploitability import shipped_strength as read

    path = get_game(game).lineup_files().get("strength")
    if path is None:
        return None
    try:
        return read(path)
    except ValueError as exc:
        raise RunError(str(exc)) from None


def new_manifest(study: Study, out: Path) -> dict[str, Any]:
    """The manifest of a new run of ``study`` into ``out``."""
    return (
        manifest_mod.provenance(study.data_files, get_game(study.game))
        | {
            "run_id": study.run_id,
            "config": study.config(),
            "master_seed": study.seed,
            "seats": list(study.seats),
            "strategies": {f: study.strategies[f] for f in study.seats},
            **bots(study.strategies, study.game),
            "lineups": [
                {"name": n, "strategies": s, **bots(s, study.game)} for n, s in study.lineups
            ],
            "variants": [manifest_mod.variant_entry(v, out, study.game) for v in study.variants],
            "tables": {
                t: f"{t}/part-<variant>-<first>-<last>.parquet"
                for t in records.tables_of(get_game(study.game))
            },
            "strength": shipped_strength(study.game),
        }
        | ({"sweep": {"key": study.sweep}} if study.sweep else {})
    )
