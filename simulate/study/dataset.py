"""A dataset on disk: Parquet shards per table, written atomically, read back sorted.

Each finished batch is written as one shard per table (``games``, ``turns``, ``actions``,
and the game's own tables, ``records.tables_of``) under a temporary name, fsynced and renamed; the ``games`` shard last, so a ``games`` shard
on disk means its chunk is complete. ``clean`` removes what an interrupted run left, and
``done_games`` says which games exist (resume).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulate.games import get as get_game
from simulate.study import manifest as manifest_mod
from simulate.study import records

if TYPE_CHECKING:
    import pyarrow as pa

ROW_GROUP_ROWS = 128 * 1024
_SHARD = re.compile(r"^part-(?P<variant>.+)-(?P<first>\d+)-(?P<last>\d+)\.parquet$")
_STATISTICS = ("variant", "game_index")
_NO_DICTIONARY = ("seed", "state_digest", "error", "seconds")  # (nearly) unique per row


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


def fsync_dir(folder: Path) -> None:
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
    """Remove what an interrupted run left behind: temporary files, and the other tables'
    shards whose ``games`` shard was never written (their chunk will be played again)."""
    directory = Path(directory)
    for p in directory.glob(f".{manifest_mod.MANIFEST}.*.tmp"):
        p.unlink(missing_ok=True)
    committed = {p.name for p in shards(directory, "games")}
    for table in _tables(directory):
        folder = directory / table
        if not folder.is_dir():
            continue
        for p in folder.iterdir():
            temporary = p.name.startswith(".") and p.name.endswith(".tmp")
            orphan = table != "games" and _SHARD.match(p.name) and p.name not in committed
            if temporary or orphan:
                p.unlink(missing_ok=True)


def cell_key(variant: str, lineup: str | None) -> str:
    """The key of a variant x lineup cell (a variant's name alone when there is one lineup)."""
    return variant if not lineup else f"{variant}~{lineup}"


def cell_label(variant: str, lineup: str | None) -> str:
    """How tables and reports name a variant under one lineup of a multi-lineup study."""
    return variant if not lineup else f"{variant} / {lineup}"


def done_games(directory: Path, lineups: bool = False) -> dict[str, set[int]]:
    """The game indices each variant (with ``lineups``: each ``cell_key``) already has in
    ``directory``'s ``games`` table.

    A ``games`` shard that cannot be read is deleted with its siblings (replayed later).
    """
    import pyarrow.parquet as pq

    out: dict[str, set[int]] = {}
    for path in shards(directory, "games"):
        try:
            t = pq.read_table(path, columns=["variant", "lineup", "game_index"])
        except Exception:
            for table in _tables(directory):
                (Path(directory) / table / path.name).unlink(missing_ok=True)
            continue
        keys = t.column("variant").to_pylist()
        if lineups:
            keys = [
                cell_key(v, x) for v, x in zip(keys, t.column("lineup").to_pylist(), strict=True)
            ]
        for key, k in zip(keys, t.column("game_index").to_pylist(), strict=True):
            out.setdefault(key, set()).add(k)
    return out


def layout_of(directory: Path) -> records.Layout:
    """The table layout of the run in ``directory``: its manifest's game and seats (a folder
    written before runs named their game is the default game's, at its seats)."""
    try:
        man = json.loads((Path(directory) / manifest_mod.MANIFEST).read_text())
    except (OSError, ValueError):
        man = {}
    game = get_game(man.get("game") if isinstance(man, dict) else None)
    seats = man.get("seats") if isinstance(man, dict) else None
    return records.layout(game, tuple(seats) if seats else game.seats())


def _tables(directory: Path) -> tuple[str, ...]:
    """The tables of the run in ``directory`` (the generic three when its game is unknown)."""
    try:
        return layout_of(directory).tables
    except Exception:  # an unknown game: its own tables are not known either
        return records.TABLES


def read_table(directory: Path, table: str, columns: Sequence[str] | None = None) -> pa.Table:
    """Every row of ``table`` in ``directory``, sorted by its layout's sort keys."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    found = layout_of(directory)
    schema = found.schema(table)
    parts = [pq.read_table(p, columns=columns, schema=schema) for p in shards(directory, table)]
    if columns is not None:
        schema = pa.schema([schema.field(c) for c in columns])
    if not parts:
        return schema.empty_table()
    t = pa.concat_tables(parts)
    keys = [k for k in found.sort_keys[table] if k in t.column_names]
    if keys:
        t = t.sort_by([(k, "ascending") for k in keys])
    return t


def dataset_digest(directory: Path, tables: Sequence[str] | None = None) -> str:
    """A sha256 of the dataset's content (``tables``; None: every table of its layout), rows
    sorted, non-deterministic columns (``records.NONDETERMINISTIC``: the wall time) left
    out. Equal for equal studies."""
    h = hashlib.sha256()
    for table in layout_of(directory).tables if tables is None else tables:
        t = read_table(directory, table)
        skip = set(records.NONDETERMINISTIC.get(table, ()))
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


_OUTCOME_COLUMNS = ["variant", "lineup", "game_index", "winner", "error"]


def outcomes(directory: Path) -> dict[str, list[Any]]:
    """The columns of the ``games`` table that summaries and ``failures`` read (the scores
    as ``<score>_<seat>``)."""
    found = layout_of(directory)
    scores = [found.game.score_column(s) for s in found.seats]
    return read_table(directory, "games", [*_OUTCOME_COLUMNS, *scores]).to_pydict()


def failures(directory: Path | dict[str, list[Any]]) -> list[tuple[str, int, str]]:
    """(variant, game_index, error) of every errored game, sorted."""
    t = directory if isinstance(directory, dict) else outcomes(directory)
    return [
        (v, k, e)
        for v, k, e in zip(t["variant"], t["game_index"], t["error"], strict=True)
        if e is not None
    ]
