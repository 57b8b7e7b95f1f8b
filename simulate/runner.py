"""Batches of games: specs, seeds, parallel backends, Parquet shards and resume.

A *study* is the part of a command that decides the data: the number of games, the master
seed, the strategy of each Faction, the variants and whether decisions are traced. Game
``k`` of a study plays with ``seeds.game_seed(master, k)`` under every variant (common
random numbers), so the same study gives the same tables whatever the number of workers,
the backend or ``PYTHONHASHSEED``.

The work is cut into *chunks*, runs of consecutive game indices of one variant. A worker
plays a chunk and returns its rows; the parent writes them as one shard per table,
atomically (temporary name, fsync, rename), the ``games`` shard last, so a ``games`` shard
on disk means its chunk is complete. Rerunning the same study into the same directory
(*resume*) deletes what an interrupted run left half-written, reads which games exist and
plays only the missing ones.

>>> study = Study.create(games=12, seed=7)                        # doctest: +SKIP
>>> report = run(study, Path("runs/demo"), jobs=2)                # doctest: +SKIP
>>> report.summary[0].factions["DS"].win_rate                     # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import math
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulate import manifest as manifest_mod
from simulate import records
from simulate.result import FACTIONS
from simulate.rules.datafiles import DataError
from simulate.seeds import game_seed

if TYPE_CHECKING:  # pyarrow is imported where tables are built: workers never load it
    import pyarrow as pa

BACKENDS = ("loky", "dask", "ray")
DEFAULT_GAMES = 200
MAX_GAMES = 100_000_000  # game_index is an int32 column
MIN_CHUNK = 8
MAX_CHUNK = 200
GUIDED_SHARE = 4  # see chunk_size
ROW_GROUP_ROWS = 128 * 1024
SCHEDULER_TIMEOUT = 10  # seconds to reach a --scheduler before giving up
_SHARD = re.compile(r"^part-(?P<variant>.+)-(?P<first>\d+)-(?P<last>\d+)\.parquet$")
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_LOCK = ".vsim.lock"
_STATISTICS = ("variant", "game_index")
_NO_DICTIONARY = ("seed", "state_digest", "error", "seconds")  # (nearly) unique per row


class RunError(Exception):
    """A bad input or an unusable directory, found before any game is played (one line)."""


# ---------------------------------------------------------------------------------------------
# The study


def parse_strategies(values: Iterable[str] | None) -> dict[str, str]:
    """``--strategy`` values (``all=NAME``, ``DS=NAME``, ... or a bare ``NAME``) per Faction.

    ``all=`` applies first, then each Faction's own, the last one given winning. Factions
    not named get ``strategies.registry.DEFAULT``.

    >>> parse_strategies(["all=random", "VE=random"])["VE"]
    'random'
    """
    from strategies import registry

    chosen = dict.fromkeys(FACTIONS, registry.DEFAULT)
    general: list[str] = []
    specific: list[tuple[str, str]] = []
    for value in values or ():
        value = value.strip()
        target, spec = "all", value
        head, eq, rest = value.partition("=")
        if eq and re.fullmatch(r"[A-Za-z]+", head.strip()):
            target, spec = head.strip(), rest.strip()
        if not spec:
            raise RunError(f"--strategy {value!r}: no strategy name after '='")
        if target.lower() == "all":
            general.append(spec)
        elif target.upper() in FACTIONS:
            specific.append((target.upper(), spec))
        else:
            raise RunError(
                f"--strategy {value!r}: unknown faction {target!r} (expected all, DS, BK or VE)"
            )
    for spec in general:
        chosen = dict.fromkeys(FACTIONS, spec)
    for faction, spec in specific:
        chosen[faction] = spec
    return chosen


def check_strategies(strategies: dict[str, str]) -> None:
    """Instantiate each strategy once, so that a bad name or parameter fails before play."""
    from strategies import registry

    for faction in FACTIONS:
        spec = strategies[faction]
        try:
            registry.make(spec)
        except Exception as exc:  # UnknownStrategy, ValueError, or the class's own error
            raise RunError(f"strategy for {faction}: {_one_line(exc)}") from None


def load_variants(refs: Sequence[str] | None) -> tuple[Any, ...]:
    """The variants named by ``--variant`` (names or paths); the base when none is given."""
    from simulate.variants import load_variant

    out = []
    for ref in refs or (None,):
        try:
            variant = load_variant(ref)
        except DataError as exc:
            raise RunError(_one_line(exc)) from None
        try:
            compiled_rules(variant)  # checked against the data now, not in every game
        except DataError as exc:
            raise RunError(_one_line(exc)) from None
        except Exception as exc:
            raise RunError(
                f"variant {variant.name!r} cannot be compiled: {type(exc).__name__}: "
                f"{_one_line(exc)}"
            ) from None
        out.append(variant)
    names: dict[str, str] = {}
    for v in out:
        key = _safe(v.name)
        if key in names:
            raise RunError(
                f"variant {v.name!r} is given twice (or clashes with {names[key]!r}); "
                "variant names must differ"
            )
        names[key] = v.name
    return tuple(out)


@dataclass(frozen=True)
class Study:
    """What decides the data of a run; its ``config()`` is recorded and compared on resume."""

    games: int
    seed: int
    strategies: dict[str, str]
    variants: tuple[Any, ...]  # simulate.variants.Variant
    trace: bool = False
    data_files: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False)
    # sha256 of each file a variant reads besides itself (its deck.events_file), by name
    variant_files: dict[str, str] = field(default_factory=dict, compare=False)

    @classmethod
    def create(
        cls,
        games: int = DEFAULT_GAMES,
        seed: int = 0,
        strategies: Iterable[str] | dict[str, str] | None = None,
        variants: Sequence[str] | None = None,
        trace: bool = False,
    ) -> Study:
        """A checked study, or RunError (one line) on any bad input."""
        if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
            raise RunError(f"--games must be a positive integer, got {games!r}")
        if games > MAX_GAMES:
            raise RunError(f"--games must be at most {MAX_GAMES:,}, got {games:,}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise RunError(f"--seed must be a non-negative integer, got {seed!r}")
        if isinstance(strategies, dict):
            unknown = sorted(set(strategies) - set(FACTIONS))
            if unknown:
                raise RunError(f"unknown faction {unknown[0]!r} (expected DS, BK or VE)")
            chosen = parse_strategies(None)
            chosen.update({f: str(s) for f, s in strategies.items()})
        else:
            chosen = parse_strategies(strategies)
        check_strategies(chosen)
        loaded = load_variants(variants)
        files = manifest_mod.data_files()
        extra = {}
        for v in loaded:
            events = (v.content.get("deck") or {}).get("events_file")
            if events and v.path is not None:
                try:
                    extra[v.name] = manifest_mod.sha256_file(Path(v.path).parent / events)
                except OSError as exc:
                    raise RunError(f"{v.path}: deck.events_file: {exc.strerror}") from None
        return cls(games, seed, chosen, loaded, bool(trace), files, extra)

    def config(self) -> dict[str, Any]:
        """The JSON config of the study (recorded in the manifest, compared on resume)."""
        return {
            "games": self.games,
            "seed": self.seed,
            "strategies": {f: self.strategies[f] for f in FACTIONS},
            "variants": [
                {"name": v.name, "digest": v.digest}
                | (
                    {"events_sha256": self.variant_files[v.name]}
                    if v.name in self.variant_files
                    else {}
                )
                for v in self.variants
            ],
            "trace": self.trace,
            "data_digest": manifest_mod.data_digest(self.data_files),
        }

    @property
    def run_id(self) -> str:
        """A stable id of the study (a digest of its config, never a timestamp)."""
        return manifest_mod.canonical_digest(self.config())[:16]

    def variant(self, name: str) -> Any:
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(name)


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def default_out(now: float | None = None) -> Path:
    """``runs/<timestamp>``."""
    return Path("runs") / time.strftime("%Y%m%d-%H%M%S", time.localtime(now))


# ---------------------------------------------------------------------------------------------
# Playing a chunk (in a worker)


@dataclass(frozen=True)
class Chunk:
    """Consecutive game indices ``first..last`` of one variant."""

    variant: str
    first: int
    last: int

    @property
    def indices(self) -> range:
        return range(self.first, self.last + 1)

    def __len__(self) -> int:
        return self.last - self.first + 1

    def shard_name(self) -> str:
        return f"part-{_safe(self.variant)}-{self.first:06d}-{self.last:06d}.parquet"


@dataclass
class ChunkResult:
    chunk: Chunk
    tables: dict[str, records.Packed]  # numpy columns; the parent builds the Arrow tables
    failures: list[tuple[int, str]]  # (game_index, error)
    seconds: float


def _one_line(exc: BaseException | str, limit: int = 300) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def error_text(exc: BaseException, game_index: int, variant: str) -> str:
    """The ``error`` column of a game that raised: one line, with its repro command."""
    message = _one_line(exc) or "(no message)"
    return (
        f"{type(exc).__name__}: {message}; "
        f"repro: vsim replay <DIR> --game {game_index} --variant {variant}"
    )


def play_chunk(
    run_id: str,
    master_seed: int,
    variant: Any,
    chunk: Chunk,
    strategies: dict[str, str],
    trace: bool,
    decision_timeout: float | None = None,
    settle_heap: bool = False,
) -> ChunkResult:
    """Play the games of ``chunk`` and return their rows as Arrow tables (runs in workers).

    A game whose strategy or the engine raises becomes an error row; the chunk goes on.
    ``settle_heap`` (worker processes only): see ``_settle_heap``.
    """
    from simulate import play_game

    started = time.perf_counter()
    try:
        rules: Any = compiled_rules(variant)
    except Exception:  # every game will raise it again, and record it
        rules = variant
    games = records.Columns("games")
    turns = records.Columns("turns")
    actions = records.Columns("actions") if trace else None
    failures: list[tuple[int, str]] = []
    for k in chunk.indices:
        seed = game_seed(master_seed, k)
        t0 = time.perf_counter()
        try:
            result = play_game(
                seed, dict(strategies), rules, trace=trace, decision_timeout=decision_timeout
            )
            row = records.game_row(
                result,
                run_id=run_id,
                variant=chunk.variant,
                game_index=k,
                strategies=strategies,
                seconds=time.perf_counter() - t0,
            )
            if result.seed != seed:
                raise RuntimeError(f"play_game returned seed {result.seed}, expected {seed}")
        except Exception as exc:
            error = error_text(exc, k, chunk.variant)
            failures.append((k, error))
            games.add_row(
                records.error_row(
                    run_id=run_id,
                    variant=chunk.variant,
                    game_index=k,
                    seed=seed,
                    strategies=strategies,
                    error=error,
                    seconds=time.perf_counter() - t0,
                )
            )
            continue
        games.add_row(row)
        if settle_heap:
            _settle_heap()
        turns.add_turns(result, k, chunk.variant)
        if actions is not None:
            actions.add_actions(result, k, chunk.variant)
    tables = {"games": games.pack(), "turns": turns.pack()}
    if actions is not None:
        tables["actions"] = actions.pack()
    return ChunkResult(chunk, tables, failures, time.perf_counter() - started)


_RULES: dict[tuple[str, str], Any] = {}
_HEAP_SETTLED: list[bool] = []  # non-empty once this process has frozen its heap (_settle_heap)


def compiled_rules(variant: Any) -> Any:
    """The compiled Rules of a variant, compiled once per process (compiling costs far more
    than playing a game)."""
    key = (variant.name, variant.digest)
    rules = _RULES.get(key)
    if rules is None:
        from simulate.rules.ruleset import load_rules

        rules = _RULES[key] = load_rules(variant)
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


def _play_chunk_task(args: tuple) -> ChunkResult:
    return play_chunk(*args)


def _play_chunk_in_worker(args: tuple) -> ChunkResult:
    return play_chunk(*args, settle_heap=True)


# ---------------------------------------------------------------------------------------------
# Shards on disk


def _safe(name: str) -> str:
    return _SAFE.sub("_", name) or "_"


def write_shard(folder: Path, name: str, table: pa.Table) -> Path:
    """Write ``table`` to ``folder/name`` atomically: temporary name, fsync, rename."""
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    final = folder / name
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    with open(tmp, "wb") as fh:
        pq.write_table(
            table,
            fh,
            compression="snappy",  # zstd costs ~1.4 ms per small shard to set up
            row_group_size=ROW_GROUP_ROWS,
            # The footer dominates a small shard: statistics only where they prune reads,
            # and no serialized Arrow schema (the Parquet types carry it).
            write_statistics=[c for c in _STATISTICS if c in table.column_names],
            use_dictionary=[c for c in table.column_names if c not in _NO_DICTIONARY],
            store_schema=False,
        )
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, final)
    return final


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def shards(directory: Path, table: str) -> list[Path]:
    """The finished shards of ``table`` (temporary files excluded), sorted by name."""
    folder = Path(directory) / table
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if _SHARD.match(p.name))


def clean(directory: Path) -> None:
    """Remove what an interrupted run left behind: temporary files, and ``turns``/``actions``
    shards whose ``games`` shard was never written (their chunk will be played again)."""
    directory = Path(directory)
    for p in directory.glob(f".{manifest_mod.MANIFEST}.*.tmp"):
        p.unlink(missing_ok=True)
    committed = {p.name for p in shards(directory, "games")}
    for table in records.TABLES:
        folder = directory / table
        if not folder.is_dir():
            continue
        for p in folder.iterdir():
            temporary = p.name.startswith(".") and p.name.endswith(".tmp")
            orphan = table != "games" and _SHARD.match(p.name) and p.name not in committed
            if temporary or orphan:
                p.unlink(missing_ok=True)


def done_games(directory: Path) -> dict[str, set[int]]:
    """The game indices each variant already has in ``directory``'s ``games`` table.

    A ``games`` shard that cannot be read is deleted with its siblings (replayed later).
    """
    import pyarrow.parquet as pq

    out: dict[str, set[int]] = {}
    for path in shards(directory, "games"):
        try:
            t = pq.read_table(path, columns=["variant", "game_index"])
        except Exception:
            for table in records.TABLES:
                (Path(directory) / table / path.name).unlink(missing_ok=True)
            continue
        for v, k in zip(
            t.column("variant").to_pylist(), t.column("game_index").to_pylist(), strict=True
        ):
            out.setdefault(v, set()).add(k)
    return out


def chunk_size(remaining: int, workers: int) -> int:
    """Games in the next chunk when ``remaining`` games are left to hand out (guided
    self-scheduling): a 1/(4 x workers) share of them, between MIN_CHUNK and MAX_CHUNK.

    Early chunks are big, which hides the dispatch and per-shard costs; the last ones are
    small, so the workers finish together. Bounded so that an interrupted run loses little.
    """
    share = math.ceil(remaining / max(1, workers * GUIDED_SHARE))
    return max(MIN_CHUNK, min(MAX_CHUNK, share))


def _missing_runs(games: int, have: set[int]) -> list[tuple[int, int]]:
    """The runs ``(first, last)`` of consecutive indices in ``0..games-1`` not in ``have``."""
    runs = []
    start = 0
    for k in sorted(i for i in have if 0 <= i < games):
        if k > start:
            runs.append((start, k - 1))
        start = k + 1
    if start < games:
        runs.append((start, games - 1))
    return runs


def plan_chunks(
    study: Study, done: dict[str, set[int]], size: int | None = None, workers: int = 1
) -> list[Chunk]:
    """The chunks still to play, in dispatch order: runs of consecutive missing indices,
    ``size`` games at most (or guided sizes, see ``chunk_size``), the variants taking turns
    so that an interrupted multi-variant run stays paired."""
    runs = {v.name: _missing_runs(study.games, done.get(v.name, set())) for v in study.variants}
    remaining = sum(last - first + 1 for rs in runs.values() for first, last in rs)
    at = dict.fromkeys(runs, 0)  # the next run of each variant
    out: list[Chunk] = []
    while remaining:
        for v in study.variants:
            rs = runs[v.name]
            if at[v.name] >= len(rs):
                continue
            first, last = rs[at[v.name]]
            n = size or chunk_size(remaining, workers)
            end = min(last, first + n - 1)
            out.append(Chunk(v.name, first, end))
            remaining -= end - first + 1
            if end == last:
                at[v.name] += 1
            else:
                rs[at[v.name]] = (end + 1, last)
    return out


# ---------------------------------------------------------------------------------------------
# Reading a dataset


def read_table(directory: Path, table: str, columns: Sequence[str] | None = None) -> pa.Table:
    """Every row of ``table`` in ``directory``, sorted by ``records.SORT_KEYS``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = records.schema(table)
    parts = [pq.read_table(p, columns=columns, schema=schema) for p in shards(directory, table)]
    if columns is not None:
        schema = pa.schema([schema.field(c) for c in columns])
    if not parts:
        return schema.empty_table()
    t = pa.concat_tables(parts)
    keys = [k for k in records.SORT_KEYS[table] if k in t.column_names]
    if keys:
        t = t.sort_by([(k, "ascending") for k in keys])
    return t


def dataset_digest(directory: Path, tables: Sequence[str] = records.TABLES) -> str:
    """A sha256 of the dataset's content, rows sorted, non-deterministic columns
    (``records.NONDETERMINISTIC``: the wall time) left out. Equal for equal studies."""
    h = hashlib.sha256()
    for table in tables:
        t = read_table(directory, table)
        skip = set(records.NONDETERMINISTIC[table])
        h.update(f"<{table}:{t.num_rows}>".encode())
        for name in t.column_names:
            if name in skip:
                continue
            h.update(f"[{name}]".encode())
            column = t.column(name)
            for offset in range(0, t.num_rows, 65536):
                values = column.slice(offset, 65536).to_pylist()
                h.update(json.dumps(values, separators=(",", ":")).encode())
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------
# Summary


@dataclass(frozen=True)
class FactionSummary:
    wins: int
    win_rate: float
    low: float
    high: float
    mean_vp: float | None


@dataclass(frozen=True)
class VariantSummary:
    variant: str
    games: int  # rows, errors included
    failures: int
    ties: int
    factions: dict[str, FactionSummary]


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n trials (as ``stats.wilson_interval``,
    without importing scipy into every run)."""
    if n == 0:
        return 0.0, 1.0
    z = 1.959963984540054
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


_OUTCOME_COLUMNS = ["variant", "game_index", "winner", "error", *[f"vp_{f}" for f in FACTIONS]]


def outcomes(directory: Path) -> dict[str, list[Any]]:
    """The columns of the ``games`` table that ``summarize`` and ``failures`` read."""
    return read_table(directory, "games", _OUTCOME_COLUMNS).to_pydict()


def summarize(
    directory: Path | dict[str, list[Any]], variants: Sequence[str] | None = None
) -> list[VariantSummary]:
    """Win rate (95% Wilson interval), mean VP, ties and failures per variant and Faction.

    ``directory`` is a run directory, or what ``outcomes`` read from one.
    """
    t = directory if isinstance(directory, dict) else outcomes(directory)
    names = list(variants) if variants else sorted(set(t["variant"]))
    out = []
    for name in names:
        idx = [i for i, v in enumerate(t["variant"]) if v == name]
        ok = [i for i in idx if t["error"][i] is None]
        n = len(ok)
        factions = {}
        for f in FACTIONS:
            wins = sum(1 for i in ok if t["winner"][i] == f)
            vps = [t[f"vp_{f}"][i] for i in ok if t[f"vp_{f}"][i] is not None]
            lo, hi = wilson(wins, n) if n else (math.nan, math.nan)
            factions[f] = FactionSummary(
                wins, wins / n if n else math.nan, lo, hi, sum(vps) / len(vps) if vps else None
            )
        ties = sum(1 for i in ok if t["winner"][i] is None)
        out.append(VariantSummary(name, len(idx), len(idx) - n, ties, factions))
    return out


def failures(directory: Path | dict[str, list[Any]]) -> list[tuple[str, int, str]]:
    """(variant, game_index, error) of every errored game, sorted."""
    t = directory if isinstance(directory, dict) else outcomes(directory)
    return [
        (v, k, e)
        for v, k, e in zip(t["variant"], t["game_index"], t["error"], strict=True)
        if e is not None
    ]


# ---------------------------------------------------------------------------------------------
# The directory


def check_out_dir(out: Path, study: Study, force: bool) -> dict[str, Any] | None:
    """Check, without changing anything, that ``out`` can take this study.

    Returns the existing manifest when the run is a resume, None for a new run (or one that
    ``force`` will replace). Raises RunError for an unusable directory or, without ``force``,
    for one that holds a different run.
    """
    out = Path(out)
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
    for table in records.TABLES:
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
        if any(shards(out, t) for t in records.TABLES) and not force:
            raise RunError(f"{out} holds data without a manifest; use --force to replace it")
        return None
    diff = _config_diff(old.get("config"), study.config())
    if not diff:
        return old
    if force:
        return None
    raise RunError(
        f"{out} holds a different run ({diff}); use --force to replace it or choose another --out"
    )


def _config_diff(old: Any, new: dict[str, Any]) -> str:
    if not isinstance(old, dict):
        return "no config in its manifest"
    parts = []
    for key, value in new.items():
        if old.get(key) != value:
            if key in ("games", "seed", "trace"):
                parts.append(f"{key} {old.get(key)!r} there, {value!r} now")
            elif key == "data_digest":
                parts.append("data files changed")
            else:
                parts.append(f"{key} differ")
    return "; ".join(parts)


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[None]:
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


def _wipe(out: Path) -> None:
    import shutil

    for table in records.TABLES:
        shutil.rmtree(out / table, ignore_errors=True)
    (out / manifest_mod.MANIFEST).unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# Backends


@dataclass
class Backend:
    """An opened execution backend: its joblib config and how many workers it has."""

    name: str
    workers: int
    joblib_backend: str
    joblib_params: dict[str, Any] = field(default_factory=dict)
    n_jobs: int = 1
    generator: bool = True  # supports return_as="generator_unordered"
    description: str = ""


@contextlib.contextmanager
def open_backend(name: str, jobs: int, scheduler: str | None = None) -> Iterator[Backend]:
    """Connect to (or start) the backend; RunError (one line) if it cannot be used.

    ``loky``: local processes. ``dask``: joblib's Dask backend on the cluster whose scheduler
    is at ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``), or on a local cluster of ``jobs``
    worker processes. ``ray``: Ray's joblib backend on the cluster at ``scheduler`` (e.g.
    ``ray://head:10001`` or ``auto``), or a local Ray.
    """
    if name not in BACKENDS:
        raise RunError(f"unknown backend {name!r} (expected {', '.join(BACKENDS)})")
    if jobs < 1:
        raise RunError(f"--jobs must be a positive integer, got {jobs}")
    if name == "loky":
        if scheduler:
            raise RunError("--scheduler needs --backend dask or ray")
        yield Backend(
            "loky",
            jobs,
            "loky",
            n_jobs=jobs,
            description=f"loky, {jobs} process{'es' if jobs > 1 else ''}",
        )
    elif name == "dask":
        with _dask(jobs, scheduler) as backend:
            yield backend
    else:
        with _ray(jobs, scheduler) as backend:
            yield backend


@contextlib.contextmanager
def _dask(jobs: int, scheduler: str | None) -> Iterator[Backend]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RunError("the dask backend needs dask[distributed] installed") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT, set_as_default=False)
        else:
            cluster = LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=40,
            )
            client = Client(cluster, set_as_default=False)
    except Exception as exc:
        if cluster is not None:
            cluster.close()
        where = f"scheduler {scheduler}" if scheduler else "a local Dask cluster"
        raise RunError(f"cannot reach {where}: {_one_line(exc) or type(exc).__name__}") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        where = scheduler or "local cluster"
        yield Backend(
            "dask",
            workers,
            "dask",
            {"client": client},
            n_jobs=-1,
            description=f"dask ({where}), {workers} worker threads",
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextlib.contextmanager
def _ray(jobs: int, scheduler: str | None) -> Iterator[Backend]:
    try:
        import ray
        from ray.util.joblib import register_ray
    except ImportError:
        raise RunError("the ray backend needs Ray: pip install 'vijayanagara-sim[ray]'") from None
    try:
        if scheduler:
            ray.init(address=scheduler, ignore_reinit_error=True, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, ignore_reinit_error=True, log_to_driver=False)
    except Exception as exc:
        where = f"Ray cluster {scheduler}" if scheduler else "a local Ray"
        raise RunError(f"cannot start {where}: {_one_line(exc)}") from None
    try:
        register_ray()
        workers = max(1, int(ray.cluster_resources().get("CPU", jobs)))
        yield Backend(
            "ray",
            workers,
            "ray",
            n_jobs=workers if scheduler else jobs,
            generator=False,
            description=f"ray ({scheduler or 'local'}), {workers} CPUs",
        )
    finally:
        ray.shutdown()


def _execute(backend: Backend, tasks: list[tuple]) -> Iterator[ChunkResult]:
    """Run the chunk tasks on the backend, yielding results as they finish."""
    from joblib import Parallel, delayed, parallel_config

    if not tasks:
        return
    if backend.n_jobs == 1 and backend.name == "loky":
        for task in tasks:  # in-process: no pool to start for one worker
            yield _play_chunk_task(task)
        return
    with parallel_config(backend=backend.joblib_backend, **backend.joblib_params):
        if backend.generator:
            parallel = Parallel(
                n_jobs=backend.n_jobs,
                return_as="generator_unordered",
                batch_size=1,
                pre_dispatch="2*n_jobs",
            )
            yield from parallel(delayed(_play_chunk_in_worker)(t) for t in tasks)
        else:  # waves of a few chunks per worker, so that shards land as the run goes
            wave = max(1, 2 * backend.workers)
            for i in range(0, len(tasks), wave):
                parallel = Parallel(n_jobs=backend.n_jobs, batch_size=1)
                yield from parallel(delayed(_play_chunk_in_worker)(t) for t in tasks[i : i + wave])


# ---------------------------------------------------------------------------------------------
# A run


@dataclass
class RunReport:
    """What a run did and where its data is."""

    out: Path
    run_id: str
    played: int  # games played by this invocation
    already: int  # games found on disk at the start (resume)
    total: int  # games in the study (all variants)
    failures: list[tuple[str, int, str]]  # every errored game of the dataset
    summary: list[VariantSummary]
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
    old = check_out_dir(out, study, force)
    with open_backend(backend, jobs, scheduler) as be:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunError(f"cannot create output {out}: {exc.strerror}") from None
        with _locked(out):
            old = check_out_dir(out, study, force)  # again, now that we hold the lock
            if old is None:
                _wipe(out)  # nothing, or a different run that --force replaces
            return _run_locked(study, out, be, old, chunk, progress, command, decision_timeout)


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
    clean(out)
    done = done_games(out)
    total = study.games * len(study.variants)
    already = sum(len(done.get(v.name, ())) for v in study.variants)
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
    man = _new_manifest(study) if old is None else old
    man.setdefault("sessions", []).append(session)
    man["status"] = "running"
    man["execution"] = {"backend": be.description, "jobs": be.workers, "chunk_size": size}
    manifest_mod.write(out, man)

    progress.start(total, already)
    tasks = [
        (
            study.run_id,
            study.seed,
            study.variant(c.variant),
            c,
            study.strategies,
            study.trace,
            decision_timeout,
        )
        for c in chunks
    ]
    played = 0
    fails: list[tuple[str, int, str]] = []
    outcome: dict[str, list[Any]] = {}
    status = "incomplete"
    try:
        for result in _execute(be, tasks):
            _commit(out, result)
            played += len(result.chunk)
            progress.advance(len(result.chunk))
        status = "complete"
    finally:
        for name in records.TABLES:
            if (out / name).is_dir():
                _fsync_dir(out / name)
        session["end_time"] = manifest_mod.now()
        session["games_played"] = played
        man["status"] = status
        man["end_time"] = session["end_time"]
        if status == "complete":
            outcome = outcomes(out)
            fails = failures(outcome)
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
        summary=summarize(outcome, [v.name for v in study.variants]),
        seconds=time.perf_counter() - started,
        backend=be.description,
        chunk_size=size,
        manifest=man,
    )


def _commit(out: Path, result: ChunkResult) -> None:
    """Write a finished chunk: ``actions`` and ``turns`` first, ``games`` (the mark) last."""
    name = result.chunk.shard_name()
    for table in ("actions", "turns", "games"):
        if table in result.tables:
            write_shard(out / table, name, result.tables[table].to_table())


def _strategy_params(study: Study) -> dict[str, Any]:
    """Each Faction's strategy parameters as the strategy resolved them (weights file digests
    included), so that a run's bots can be traced, not only their spec strings."""
    from strategies import registry

    out: dict[str, Any] = {}
    for f in FACTIONS:
        try:
            out[f] = registry.params_of(registry.make(study.strategies[f]))
        except Exception as exc:  # already validated by Study.create; never fail a run here
            out[f] = {"error": _one_line(exc)}
    return out


def _new_manifest(study: Study) -> dict[str, Any]:
    files = study.data_files or manifest_mod.data_files()
    return {
        "format": manifest_mod.FORMAT,
        "run_id": study.run_id,
        "package": {"name": manifest_mod.PACKAGE, "version": manifest_mod.package_version()},
        "git_commit": manifest_mod.git_commit(),
        "config": study.config(),
        "master_seed": study.seed,
        "strategies": {f: study.strategies[f] for f in FACTIONS},
        "strategy_params": _strategy_params(study),
        "variants": [
            {
                "name": v.name,
                "description": v.description,
                "path": str(v.path) if v.path is not None else None,
                "digest": v.digest,
                "content": v.content,
            }
            for v in study.variants
        ],
        "data_files": files,
        "provisional": {
            "any": any(f["provisional"] for f in files.values()),
            "files": [name for name, f in files.items() if f["provisional"]],
            "note": manifest_mod.PROVISIONAL_NOTE,
        },
        "tables": {t: f"{t}/part-<variant>-<first>-<last>.parquet" for t in records.TABLES},
        "environment": manifest_mod.environment(),
        "argv": sys.argv,
        "start_time": manifest_mod.now(),
        "end_time": None,
        "status": "running",
    }


# ---------------------------------------------------------------------------------------------
# Replay


@dataclass
class Replay:
    """A game played again from its record: the record, the new result, and whether the
    final state digests agree (``result`` is None and ``error`` set if it raised)."""

    row: dict[str, Any]
    result: Any
    error: BaseException | None
    matches: bool


def study_from_manifest(directory: Path) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """(manifest, strategies, variants by name) of a run directory; RunError if unusable."""
    try:
        man = manifest_mod.read(Path(directory))
    except ValueError as exc:
        raise RunError(_one_line(exc)) from None
    if man is None:
        raise RunError(f"{directory} has no {manifest_mod.MANIFEST}: not a vsim run directory")
    from simulate.variants import BASE, Variant, load_variant

    variants = {}
    for entry in man.get("variants", []):
        v = None
        path = entry.get("path")
        if path is None:
            v = BASE
        elif Path(path).is_file():
            with contextlib.suppress(DataError):
                v = load_variant(Path(path))
            if v is not None and v.digest != entry.get("digest"):
                v = None
        if v is None:  # the file moved or changed: rebuild it from the recorded content
            v = Variant(
                name=entry["name"],
                description=entry.get("description", ""),
                path=Path(path) if path else None,
                content=entry.get("content", {}),
                digest=entry.get("digest", ""),
            )
        variants[entry["name"]] = v
    return man, dict(man.get("strategies", {})), variants


def replay(directory: Path, game: int, variant: str | None = None, trace: bool = True) -> Replay:
    """Play game ``game`` of the run in ``directory`` again and compare its final state."""
    man, strategies, variants = study_from_manifest(directory)
    if variant is None:
        if len(variants) != 1:
            raise RunError(
                f"the run has several variants; choose one with --variant ({', '.join(variants)})"
            )
        variant = next(iter(variants))
    if variant not in variants:
        raise RunError(f"no variant {variant!r} in this run (it has {', '.join(variants)})")
    import pyarrow.compute as pc

    games = read_table(directory, "games")
    rows = [
        r
        for r in games.filter(
            pc.and_(
                pc.equal(games.column("variant"), variant),
                pc.equal(games.column("game_index"), game),
            )
        ).to_pylist()
    ]
    if not rows:
        raise RunError(f"no game {game} of variant {variant!r} in {directory}")
    row = rows[0]
    expected = game_seed(int(man["master_seed"]), game)
    if row["seed"] != expected:
        raise RunError(f"game {game} has seed {row['seed']} but the master seed gives {expected}")
    from simulate import play_game

    try:
        result = play_game(row["seed"], strategies, variants[variant], trace=trace)
    except Exception as exc:
        return Replay(row, None, exc, matches=row["error"] is not None)
    return Replay(row, result, None, matches=result.state_digest == row["state_digest"])
