"""The one batch API: play lists of games, in parallel and reproducibly, and return their rows.

A :class:`Batch` is a run of consecutive game indices of one variant under one lineup (the
strategy spec of each Faction); game ``k`` plays with ``seeds.game_seed(master_seed, k)``
whatever the variant, the lineup, the worker or the backend (common random numbers).
:func:`play` plays batches on a backend (``simulate.study.backends``) and yields each
batch's rows as it finishes. Every command that plays games goes through it: ``vsim run``
adds an output folder, a manifest and resume on top (``simulate.study.runs``).

>>> from simulate.games import get; BASE = get().base_variant()       # doctest: +SKIP
>>> work = batches(BASE, {"P1": "greedy", "P2": "random", "P3": "random"},
...                master_seed=7, games=range(100), size=25)            # doctest: +SKIP
>>> wins = sum(r.games()["winner"].count("P1") for r in play(work, jobs=2))  # doctest: +SKIP
"""

from __future__ import annotations

import gc
import math
import os
import re
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from simulate.games import DEFAULT, Game
from simulate.games import get as get_game
from simulate.seeds import game_seed
from simulate.study import records
from simulate.study.backends import Backend, default_jobs, execute, open_backend
from simulate.study.errors import one_line

MIN_CHUNK = 8
MAX_CHUNK = 200
GUIDED_SHARE = 4  # see chunk_size
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def safe_name(name: str) -> str:
    """``name`` with every character a file name should not hold replaced by ``_``."""
    return _UNSAFE.sub("_", name) or "_"


@dataclass(frozen=True)
class Chunk:
    """Consecutive game indices ``first..last`` of one variant."""

    variant: str  # the shard key: the variant's name in a run, a lineup's key in a ladder
    first: int
    last: int

    @property
    def indices(self) -> range:
        return range(self.first, self.last + 1)

    def __len__(self) -> int:
        return self.last - self.first + 1

    def shard_name(self) -> str:
        return f"part-{safe_name(self.variant)}-{self.first:06d}-{self.last:06d}.parquet"


@dataclass(frozen=True)
class Batch:
    """What a worker plays: the games of ``chunk`` under ``variant`` with ``strategies``."""

    chunk: Chunk
    variant: Any  # simulate.variant_format.Variant
    strategies: Mapping[str, str]
    master_seed: int
    run_id: str = ""
    trace: bool = False
    lineup: str | None = None  # the lineup's name (rows' ``lineup`` column); None: the only one
    # called with the game's Context after every action (a check: ``vsim soak``'s invariants);
    # a module-level function, so that a worker process can be handed it
    on_action: Callable[[Any], None] | None = None
    game: str = DEFAULT  # the game's reference (simulate.games.registry), resolved in workers

    def __len__(self) -> int:
        return len(self.chunk)


@dataclass
class BatchResult:
    """The rows of a played batch (numpy columns; ``rows``/``games`` build Python rows)."""

    batch: Batch
    tables: dict[str, records.Packed]
    failures: list[tuple[int, str]]  # (game_index, error)
    seconds: float
    raised: dict[int, str] = field(default_factory=dict)  # game_index -> what, and where

    @property
    def chunk(self) -> Chunk:
        return self.batch.chunk

    def rows(self, table: str = "games") -> list[dict[str, Any]]:
        """The rows of ``table`` as dicts, in game order."""
        return self.tables[table].to_table().to_pylist()

    def games(self) -> dict[str, list[Any]]:
        """The ``games`` table by column."""
        return self.tables["games"].to_table().to_pydict()


def error_text(exc: BaseException, game_index: int, variant: str, lineup: str | None = None) -> str:
    """The ``error`` column of a game that raised: one line, with its repro command (naming
    the lineup in a run of several: a ladder's or a strength curve's)."""
    message = one_line(exc) or "(no message)"
    which = "" if lineup is None else f" --lineup {lineup}"
    return (
        f"{type(exc).__name__}: {message}; "
        f"repro: vsim replay <DIR> --game {game_index} --variant {variant}{which}"
    )


def raised_at(exc: BaseException) -> str:
    """What an exception says and the file and line it was raised at, on one line."""
    where = traceback.extract_tb(exc.__traceback__)[-1]
    message = one_line(f"{type(exc).__name__}: {exc}")
    return f"{message} (at {os.path.basename(where.filename)}:{where.lineno})"


def play_batch(
    batch: Batch, decision_timeout: float | None = None, settle_heap: bool = False
) -> BatchResult:
    """Play the games of ``batch`` and return their rows (runs in workers).

    A game whose strategy or the engine raises becomes an error row; the batch goes on.
    ``settle_heap`` (worker processes only): see ``_settle_heap``.
    """
    from strategies.registry import make

    started = time.perf_counter()
    chunk, strategies, name = batch.chunk, dict(batch.strategies), batch.variant.name
    game = get_game(batch.game)
    try:
        rules: Any = compiled_rules(batch.variant, game)
        compile_error = None
    except Exception as exc:  # every game will raise it again, and record it
        rules, compile_error = None, exc
    seats = tuple(strategies) if rules is None else game.seats(rules)
    layout = records.layout(game, seats)
    games = layout.columns_of("games")
    turns = layout.columns_of("turns")
    actions = layout.columns_of("actions") if batch.trace else None
    own = {name: layout.columns_of(name) for name in game.tables}  # the game's own tables
    failures: list[tuple[int, str]] = []
    raised: dict[int, str] = {}
    for k in chunk.indices:
        seed = game_seed(batch.master_seed, k)
        t0 = time.perf_counter()
        try:
            if compile_error is not None:
                raise compile_error
            agents = [make(strategies[s], batch.game) for s in seats]
            result = game.play(
                seed,
                agents,
                rules,
                trace=batch.trace,
                on_action=batch.on_action,
                decision_timeout=decision_timeout,
            )
            row = layout.game_row(
                result,
                run_id=batch.run_id,
                variant=name,
                game_index=k,
                strategies=strategies,
                seconds=time.perf_counter() - t0,
                lineup=batch.lineup,
            )
            if result.seed != seed:
                raise RuntimeError(f"the game returned seed {result.seed}, expected {seed}")
        except Exception as exc:
            error = error_text(exc, k, name, batch.lineup)
            failures.append((k, error))
            raised[k] = raised_at(exc)
            games.add_row(
                layout.error_row(
                    run_id=batch.run_id,
                    variant=name,
                    game_index=k,
                    seed=seed,
                    strategies=strategies,
                    error=error,
                    seconds=time.perf_counter() - t0,
                    lineup=batch.lineup,
                )
            )
            continue
        games.add_row(row)
        if settle_heap:
            _settle_heap()
        turns.add_turns(result, k, name, batch.lineup)
        for table in own.values():
            table.add_records(result, k, name, batch.lineup)
        if actions is not None:
            actions.add_actions(result, k, name, batch.lineup)
    tables = {"games": games.pack(), "turns": turns.pack()}
    tables.update((table, cols.pack()) for table, cols in own.items())
    if actions is not None:
        tables["actions"] = actions.pack()
    return BatchResult(batch, tables, failures, time.perf_counter() - started, raised)


_RULES: dict[tuple[str, str, str], Any] = {}
_HEAP_SETTLED: list[bool] = []  # non-empty once this process has frozen its heap (_settle_heap)


def compiled_rules(variant: Any, game: Game | None = None) -> Any:
    """The compiled rules of a variant, compiled once per process (compiling costs far more
    than playing a game)."""
    game = game or get_game()
    key = (game.ref or game.name, variant.name, variant.digest)
    rules = _RULES.get(key)
    if rules is None:
        rules = _RULES[key] = game.compile(variant)
    return rules


def _settle_heap() -> None:
    """Once per worker process, after its first game: collect, then freeze what is alive
    (compiled rules, modules) out of the cyclic collector's way, so that its later passes scan
    only what games create (about 3% faster; nothing played changes). Not in the calling
    process (``--jobs 1``), whose heap is the user's."""
    if not _HEAP_SETTLED:
        gc.collect()
        gc.freeze()
        _HEAP_SETTLED.append(True)


@dataclass(frozen=True)
class _Task:
    batch: Batch
    decision_timeout: float | None = field(default=None)


def _in_process(task: _Task) -> BatchResult:
    return play_batch(task.batch, task.decision_timeout)


def _in_worker(task: _Task) -> BatchResult:
    return play_batch(task.batch, task.decision_timeout, settle_heap=True)


def play(
    work: Iterable[Batch],
    *,
    backend: str | Backend = "loky",
    jobs: int | None = None,
    scheduler: str | None = None,
    decision_timeout: float | None = None,
) -> Iterator[BatchResult]:
    """Play every batch of ``work`` and yield its result as it finishes (completion order).

    ``backend`` is a name (``loky``, ``dask``, ``ray``: opened for this call, with ``jobs``
    workers and the optional ``scheduler`` address) or a :class:`Backend` already opened with
    ``open_backend`` (reused across calls, e.g. by a tuner). ``decision_timeout`` (seconds)
    turns a strategy that hangs on one decision into a failed game. The rows of a game do not
    depend on the backend, the number of workers or the order of completion.
    """
    tasks = [_Task(b, decision_timeout) for b in work]
    if isinstance(backend, Backend):
        yield from execute(backend, tasks, _in_process, _in_worker)
        return
    with open_backend(backend, default_jobs() if jobs is None else jobs, scheduler) as be:
        yield from execute(be, tasks, _in_process, _in_worker)


def chunk_size(remaining: int, workers: int) -> int:
    """Games in the next chunk when ``remaining`` games are left to hand out (guided
    self-scheduling): a 1/(4 x workers) share of them, between MIN_CHUNK and MAX_CHUNK.

    Early chunks are big, which hides the dispatch and per-shard costs; the last ones are
    small, so the workers finish together. Bounded so that an interrupted run loses little.
    """
    share = math.ceil(remaining / max(1, workers * GUIDED_SHARE))
    return max(MIN_CHUNK, min(MAX_CHUNK, share))


def consecutive_runs(indices: Iterable[int]) -> list[tuple[int, int]]:
    """The runs ``(first, last)`` of consecutive values among ``indices``, in order."""
    runs: list[tuple[int, int]] = []
    for k in sorted(set(indices)):
        if runs and runs[-1][1] == k - 1:
            runs[-1] = (runs[-1][0], k)
        else:
            runs.append((k, k))
    return runs


def missing_runs(games: int, have: Iterable[int]) -> list[tuple[int, int]]:
    """The runs ``(first, last)`` of consecutive indices in ``0..games-1`` not in ``have``."""
    runs = []
    start = 0
    for k in sorted(i for i in set(have) if 0 <= i < games):
        if k > start:
            runs.append((start, k - 1))
        start = k + 1
    if start < games:
        runs.append((start, games - 1))
    return runs


def plan(
    todo: Mapping[str, Sequence[tuple[int, int]]], size: int | None = None, workers: int = 1
) -> list[Chunk]:
    """Chunks over the runs ``(first, last)`` of game indices still to play per key (a
    variant, or a variant and lineup), in dispatch order: ``size`` games at most (or guided
    sizes, see ``chunk_size``), the keys taking turns so that an interrupted study stays
    paired."""
    runs = {key: list(rs) for key, rs in todo.items()}
    remaining = sum(last - first + 1 for rs in runs.values() for first, last in rs)
    at = dict.fromkeys(runs, 0)  # the next run of each key
    out: list[Chunk] = []
    while remaining:
        for key, rs in runs.items():
            if at[key] >= len(rs):
                continue
            first, last = rs[at[key]]
            n = size or chunk_size(remaining, workers)
            end = min(last, first + n - 1)
            out.append(Chunk(key, first, end))
            remaining -= end - first + 1
            if end == last:
                at[key] += 1
            else:
                rs[at[key]] = (end + 1, last)
    return out


def plan_chunks(
    study: Any, done: Mapping[str, set[int]], size: int | None = None, workers: int = 1
) -> list[Chunk]:
    """The chunks a study (``simulate.study.specs.Study``) still has to play, given the game
    indices ``done`` per cell (a variant, or a variant x lineup: see ``Study.cells``)."""
    return plan(
        {key: missing_runs(study.games, done.get(key, set())) for key, *_ in study.cells()},
        size,
        workers,
    )


def batches(
    variant: Any,
    strategies: Mapping[str, str],
    master_seed: int,
    games: Sequence[int] | range,
    *,
    size: int | None = None,
    workers: int | None = None,
    run_id: str = "",
    trace: bool = False,
    game: str = DEFAULT,
) -> list[Batch]:
    """The batches that play game indices ``games`` of ``variant`` with ``strategies``."""
    chunks = plan({variant.name: consecutive_runs(games)}, size, workers or default_jobs())
    return [
        Batch(c, variant, dict(strategies), master_seed, run_id, trace, game=game) for c in chunks
    ]
