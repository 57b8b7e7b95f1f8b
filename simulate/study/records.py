"""The Parquet schemas of a run's dataset, in one place, and the rows a game turns into.

A run directory holds three tables, each a folder of Parquet shards::

    DIR/games/part-<variant>-<first>-<last>.parquet     one row per game
    DIR/turns/part-<variant>-<first>-<last>.parquet     one row per step (the game declares it)
    DIR/actions/part-<variant>-<first>-<last>.parquet   one row per decision (--trace only)

and one more folder per extra table its game declares (``Game.tables``: e.g. a
``cards``), keyed as ``turns`` is (game_index, variant, lineup) and written, resumed and read
back as it is; a game that declares none writes only the three.

Every column is deterministic given the run's command (master seed, games, strategies,
variants, trace) **except ``games.seconds``**, the wall time of the game, which varies from
machine to machine and run to run. Comparisons of datasets (``runner.dataset_digest``)
leave it out, and so should any test of reproducibility.

Read a table with polars or pyarrow::

    >>> import polars as pl                                  # doctest: +SKIP
    >>> pl.scan_parquet("runs/x/games/*.parquet").collect()  # doctest: +SKIP

An errored game (its strategy or the engine raised) is a ``games`` row whose ``error`` holds
one line, ``ExcType: message; repro: vsim replay <DIR> --game K --variant V``, and whose
outcome columns are null; it has no ``turns`` or ``actions`` rows.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from simulate.games import Game, Outcome

if TYPE_CHECKING:
    import pyarrow as pa

TABLES = ("games", "turns", "actions")

# Columns whose values are not reproducible (wall time); left out of dataset comparisons.
NONDETERMINISTIC = {"games": ("seconds",), "turns": (), "actions": ()}  # a game's own: none

_REQ, _OPT = False, True
_KEYS = (("game_index", "int32", _REQ), ("variant", "string", _REQ), ("lineup", "string", _OPT))
_RESERVED = {*TABLES, "manifest", "figures"}


def tables_of(game: Game) -> tuple[str, ...]:
    """The tables of a run of ``game``: the three generic ones, then the game's own."""
    return (*TABLES, *game.tables)


class Layout:
    """The columns of a run's three tables, built from its game's declaration around the
    generic core: (name, type, nullable) per column; types "string", "int32", "int64",
    "float64". ``turns`` is the game's per-step table (one row per card per Faction in
    Vijayanagara); ``actions`` one row per decision of a traced game; then the game's own
    tables (``Game.tables``), the same keys first."""

    def __init__(self, game: Game, seats: tuple[str, ...]) -> None:
        self.game, self.seats = game, tuple(seats)
        for name in game.tables:
            if name in _RESERVED or not name.isidentifier():
                raise ValueError(f"game {game.name!r}: a table cannot be named {name!r}")
        self.tables = tables_of(game)
        seat = game.seat_word
        self.columns: dict[str, tuple[tuple[str, str, bool], ...]] = {
            "games": (
                ("run_id", "string", _REQ),  # stable id from the run's config digest
                ("variant", "string", _REQ),  # the variant's name
                ("lineup", "string", _OPT),  # the lineup's name (--lineup, a rung); null: one
                ("game_index", "int32", _REQ),  # k in 0..games-1
                ("seed", "int64", _REQ),  # seeds.game_seed(master, k)
                *((f"strategy_{s}", "string", _REQ) for s in self.seats),  # full specs
                ("winner", "string", _OPT),  # a seat; null for an unresolved tie or an error
                *((game.score_column(s), "int32", _OPT) for s in self.seats),
                *((c.name, c.type, c.nullable) for c in game.game_columns),
                (game.length, "int32", _OPT),  # the game's length in its own unit
                ("tiebreak", "string", _OPT),  # none | the tiebreak that decided | unresolved
                ("error", "string", _OPT),  # null, or one line with a repro command
                ("state_digest", "string", _OPT),  # the final state's, checked by vsim replay
                ("seconds", "float64", _OPT),  # wall time: NOT deterministic, see the module doc
            ),
            "turns": (*_KEYS, *((c.name, c.type, c.nullable) for c in game.step_columns)),
            "actions": (
                *_KEYS,
                ("step", "int32", _REQ),  # 0-based position of the decision in the game
                ("turn", "int32", _REQ),
                (seat, "string", _REQ),
                ("kind", "string", _REQ),  # the Decision kind
                ("option", "string", _REQ),  # the chosen option, as text
            ),
            **{
                name: (*_KEYS, *((c.name, c.type, c.nullable) for c in columns))
                for name, columns in game.tables.items()
            },
        }
        self.names = {t: tuple(c[0] for c in cols) for t, cols in self.columns.items()}
        # the order rows are compared and presented in (each key is unique within its table)
        self.sort_keys = {
            "games": ("variant", "lineup", "game_index"),
            "turns": ("variant", "lineup", "game_index", *game.step_key),
            "actions": ("variant", "lineup", "game_index", "step"),
            **{
                name: ("variant", "lineup", "game_index", *game.table_keys.get(name, ()))
                for name in game.tables
            },
        }
        self._fields = {"turns": tuple(c.name for c in game.step_columns)} | {
            name: tuple(c.name for c in columns) for name, columns in game.tables.items()
        }
        self._schemas: dict[str, pa.Schema] = {}

    def schema(self, table: str) -> pa.Schema:
        """The pyarrow schema of ``table`` (built on first use: a worker never imports it)."""
        if table not in self._schemas:
            import pyarrow as pa

            types = {
                "string": pa.string(),
                "int32": pa.int32(),
                "int64": pa.int64(),
                "float64": pa.float64(),
            }
            self._schemas[table] = pa.schema(
                [pa.field(n, types[k], nullable=null) for n, k, null in self.columns[table]]
            )
        return self._schemas[table]

    def game_row(
        self,
        result: Outcome,
        *,
        run_id: str,
        variant: str,
        game_index: int,
        strategies: Mapping[str, str],
        seconds: float,
        lineup: str | None = None,
    ) -> dict[str, Any]:
        """The ``games`` row of a finished game."""
        game = self.game
        row = self._identity(run_id, variant, game_index, result.seed, strategies, lineup)
        row["winner"] = result.winner
        for s in self.seats:
            row[game.score_column(s)] = result.scores.get(s)
        for c in game.game_columns:
            row[c.name] = result.extra.get(c.name)
        row[game.length] = result.length
        row["tiebreak"] = result.tiebreak
        row["error"] = None
        row["state_digest"] = result.state_digest
        row["seconds"] = seconds
        return row

    def error_row(
        self,
        *,
        run_id: str,
        variant: str,
        game_index: int,
        seed: int,
        strategies: Mapping[str, str],
        error: str,
        seconds: float,
        lineup: str | None = None,
    ) -> dict[str, Any]:
        """The ``games`` row of a game that raised: ``error`` filled, the outcome null."""
        row = dict.fromkeys(self.names["games"])
        row.update(self._identity(run_id, variant, game_index, seed, strategies, lineup))
        row["error"] = error
        row["seconds"] = seconds
        return row

    def _identity(
        self,
        run_id: str,
        variant: str,
        game_index: int,
        seed: int,
        strategies: Mapping[str, str],
        lineup: str | None,
    ) -> dict[str, Any]:
        row: dict[str, Any] = {
            "run_id": run_id,
            "variant": variant,
            "lineup": lineup,
            "game_index": game_index,
            "seed": seed,
        }
        for s in self.seats:
            row[f"strategy_{s}"] = strategies[s]
        return row

    def columns_of(self, table: str) -> Columns:
        """An empty gatherer of ``table``'s rows."""
        return Columns(self, table)

    def table_from_rows(self, table: str, rows: Iterable[Mapping[str, Any]]) -> pa.Table:
        """An Arrow table of ``table``'s schema from row dicts."""
        cols = Columns(self, table)
        for row in rows:
            cols.add_row(row)
        return cols.to_table()

    def empty(self, table: str) -> pa.Table:
        """An empty table with ``table``'s schema."""
        return self.schema(table).empty_table()


@functools.cache
def layout(game: Game, seats: tuple[str, ...]) -> Layout:
    """The layout of ``game``'s tables at ``seats`` (one per process and seating)."""
    return Layout(game, seats)


def default_layout() -> Layout:
    """The default game's layout at its base seats (the tables of a run that names none)."""
    from simulate.games import get

    game = get()
    return layout(game, game.seats())


class Columns:
    """Rows of one table gathered column by column in plain Python lists.

    ``pack()`` turns them into a compact form made of numpy arrays (cheap to pickle from a
    worker, which never imports pyarrow); ``to_table()`` (here, or on the packed form in the
    parent) builds the Arrow table.
    """

    def __init__(self, layout: Layout, table: str) -> None:
        self.layout = layout
        self.table = table
        self.data: dict[str, list[Any]] = {name: [] for name in layout.names[table]}

    def __len__(self) -> int:
        return len(self.data[self.layout.names[self.table][0]])

    def add_row(self, row: Mapping[str, Any]) -> None:
        for name, values in self.data.items():
            values.append(row[name])

    def add_turns(
        self, result: Outcome, game_index: int, variant: str, lineup: str | None = None
    ) -> None:
        """One row per step record of the game: the records transposed into columns at once
        (one pass in C, not a Python loop per field: 6% of a random game's time)."""
        self._add_records(result.steps, game_index, variant, lineup)

    def add_records(
        self, result: Outcome, game_index: int, variant: str, lineup: str | None = None
    ) -> None:
        """One row per record of the game's own table (``Outcome.tables[self.table]``)."""
        self._add_records(result.tables.get(self.table, ()), game_index, variant, lineup)

    def _add_records(
        self, records: Sequence[tuple], game_index: int, variant: str, lineup: str | None
    ) -> None:
        n = len(records)
        self.data["game_index"].extend([game_index] * n)
        self.data["variant"].extend([variant] * n)
        self.data["lineup"].extend([lineup] * n)
        if not n:
            return
        fields = self.layout._fields[self.table]
        for name, values in zip(fields, zip(*records, strict=True), strict=True):
            self.data[name].extend(values)

    def add_actions(
        self, result: Outcome, game_index: int, variant: str, lineup: str | None = None
    ) -> None:
        """One row per action record ``(turn, seat, kind, option)`` of a traced game."""
        actions = result.actions or ()
        n = len(actions)
        self.data["game_index"].extend([game_index] * n)
        self.data["variant"].extend([variant] * n)
        self.data["lineup"].extend([lineup] * n)
        self.data["step"].extend(range(n))
        seat = self.layout.game.seat_word
        for name, i in (("turn", 0), (seat, 1), ("kind", 2), ("option", 3)):
            self.data[name].extend([a[i] for a in actions])

    def pack(self) -> Packed:
        """The columns as numpy arrays: strings dictionary-encoded, nulls as a mask."""
        return Packed(
            self.layout,
            self.table,
            {
                name: _pack(self.data[name], kind)
                for name, kind, _ in self.layout.columns[self.table]
            },
        )

    def to_table(self) -> pa.Table:
        return self.pack().to_table()


class Packed:
    """One table's rows in compact columnar form (see ``Columns.pack``); picklable."""

    __slots__ = ("layout", "table", "columns")

    def __init__(
        self, layout: Layout, table: str, columns: dict[str, tuple[str, Any, Any]]
    ) -> None:
        self.layout = layout
        self.table = table
        self.columns = columns

    def __getstate__(self) -> tuple:  # the layout travels as its game's reference and seats
        return (self.layout.game.ref, self.layout.seats), self.table, self.columns

    def __setstate__(self, state: tuple) -> None:
        (game, seats), self.table, self.columns = state
        from simulate.games import get

        self.layout = layout(get(game), seats)

    def __len__(self) -> int:
        return len(self.columns[self.layout.names[self.table][0]][1])

    def to_table(self) -> pa.Table:
        """The Arrow table, with its layout's schema."""
        import pyarrow as pa

        sch = self.layout.schema(self.table)
        arrays = [_unpack(self.columns[f.name], f.type) for f in sch]
        return pa.Table.from_arrays(arrays, schema=sch)


_NUMPY_TYPES = {"int32": "int32", "int64": "int64", "float64": "float64"}


def _pack(values: list[Any], kind: str) -> tuple[str, Any, Any]:
    import numpy as np

    if kind == "string":
        # the values in order of first appearance (as Arrow's dictionary keeps them), coded
        # by C-level passes; a null is coded -1
        order = dict.fromkeys(values)
        order.pop(None, None)
        index = {v: i for i, v in enumerate(order)}
        index[None] = -1
        codes = np.fromiter(map(index.__getitem__, values), dtype=np.int32, count=len(values))
        return "dict", codes, list(order)
    dtype = _NUMPY_TYPES[kind]
    if dtype != "float64":
        try:
            return "plain", np.array(values, dtype=dtype), None
        except TypeError:  # a null among them: numpy refuses None as an integer
            pass
    elif None not in values:  # (as a float, numpy would take None for NaN)
        return "plain", np.array(values, dtype=dtype), None
    mask = np.array([v is None for v in values], dtype=bool)
    data = np.array([0 if v is None else v for v in values], dtype=dtype)
    return "masked", data, mask


def _unpack(packed: tuple[str, Any, Any], typ: Any) -> Any:
    import pyarrow as pa

    tag, data, extra = packed
    if tag == "dict":
        nulls = data < 0
        indices = pa.array(data, type=pa.int32(), mask=nulls if nulls.any() else None)
        dictionary = pa.array(extra, type=pa.string())
        return pa.DictionaryArray.from_arrays(indices, dictionary).cast(typ)
    return pa.array(data, type=typ, mask=extra)


def schema(table: str) -> pa.Schema:
    """The pyarrow schema of ``table`` in the default game's layout."""
    return default_layout().schema(table)


def table_from_rows(table: str, rows: Iterable[Mapping[str, Any]]) -> pa.Table:
    """An Arrow table of ``table``'s schema (the default game's layout) from row dicts."""
    return default_layout().table_from_rows(table, rows)


def empty(table: str) -> pa.Table:
    """An empty table with ``table``'s schema (the default game's layout)."""
    return default_layout().empty(table)


_SCHEMA_NAMES = {"GAMES_SCHEMA": "games", "TURNS_SCHEMA": "turns", "ACTIONS_SCHEMA": "actions"}


def __getattr__(name: str) -> Any:
    """``GAMES_SCHEMA``, ``SCHEMAS``, ``NAMES``, ``COLUMNS``, ``SORT_KEYS``: the default
    game's, built lazily (a run's own are ``layout(game, seats)``'s)."""
    if name in _SCHEMA_NAMES:
        return schema(_SCHEMA_NAMES[name])
    if name == "SCHEMAS":
        return {table: schema(table) for table in TABLES}
    if name in ("NAMES", "COLUMNS", "SORT_KEYS"):
        found = default_layout()
        return {"NAMES": found.names, "COLUMNS": found.columns, "SORT_KEYS": found.sort_keys}[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
