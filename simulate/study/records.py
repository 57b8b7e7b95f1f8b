"""The Parquet schemas of a run's dataset, in one place, and the rows a game turns into.

A run directory holds three tables, each a folder of Parquet shards::

    DIR/games/part-<variant>-<first>-<last>.parquet     one row per game
    DIR/turns/part-<variant>-<first>-<last>.parquet     one row per card per Faction
    DIR/actions/part-<variant>-<first>-<last>.parquet   one row per decision (--trace only)

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
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from simulate.vijayanagara.result import FACTIONS, GameResult, TurnRecord

if TYPE_CHECKING:
    import pyarrow as pa

TABLES = ("games", "turns", "actions")

# Columns whose values are not reproducible (wall time); left out of dataset comparisons.
NONDETERMINISTIC = {"games": ("seconds",), "turns": (), "actions": ()}

# The order rows are compared and presented in (each key is unique within its table).
SORT_KEYS = {
    "games": ("variant", "lineup", "game_index"),
    "turns": ("variant", "lineup", "game_index", "turn", "faction"),
    "actions": ("variant", "lineup", "game_index", "step"),
}

# The columns of each table: (name, type, nullable). Types: "string", "int32", "int64",
# "float64". The pyarrow schemas (GAMES_SCHEMA, ...) are built from these on first use, so
# that a worker playing games never imports pyarrow.
_REQ, _OPT = False, True
GAMES_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("run_id", "string", _REQ),  # stable id from the run's config digest (not a timestamp)
    ("variant", "string", _REQ),  # the variant's name
    ("lineup", "string", _OPT),  # the lineup's name (--lineup, a ladder's rung); null: one
    ("game_index", "int32", _REQ),  # k in 0..games-1
    ("seed", "int64", _REQ),  # seeds.game_seed(master, k)
    *((f"strategy_{f}", "string", _REQ) for f in FACTIONS),  # full strategy specs
    ("winner", "string", _OPT),  # DS | BK | VE; null for an unresolved tie or an error
    *((f"vp_{f}", "int32", _OPT) for f in FACTIONS),
    *((f"resources_{f}", "int32", _OPT) for f in FACTIONS),
    *((f"cavalry_{f}", "int32", _OPT) for f in FACTIONS),
    ("influence_BK", "int32", _OPT),
    ("influence_VE", "int32", _OPT),
    ("mongols_in_delhi_end", "int32", _OPT),
    ("delhi_timur_bonus", "int32", _OPT),
    ("tributary_provinces_end", "int32", _OPT),
    ("controlled_BK_end", "int32", _OPT),
    ("controlled_VE_end", "int32", _OPT),
    ("forts_end", "int32", _OPT),
    ("temples_end", "int32", _OPT),
    ("troops_lost_to_mongols", "int32", _OPT),
    ("qasbahs_end", "int32", _OPT),  # Qasbahs on the map at the end, every space
    ("qasbahs_lost_to_mongols", "int32", _OPT),  # removed by Mongol attacks (3.5.3, 2.6)
    ("cards_played", "int32", _OPT),
    ("tiebreak", "string", _OPT),  # none | resources | unresolved
    ("error", "string", _OPT),  # null, or one line with a repro command
    ("state_digest", "string", _OPT),  # digest of the final state, checked by `vsim replay`
    ("seconds", "float64", _OPT),  # wall time: NOT deterministic, see the module doc
)
TURNS_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("game_index", "int32", _REQ),
    ("variant", "string", _REQ),
    ("lineup", "string", _OPT),
    ("turn", "int32", _REQ),  # 1-based position of the card in the deck
    ("card_id", "string", _REQ),
    ("card_kind", "string", _REQ),  # event | mongol | succession | timurid
    ("faction", "string", _REQ),
    # event_unshaded | event_shaded | command_decree | command | limited | pass | none
    ("action", "string", _REQ),
    ("command", "string", _OPT),
    ("decree", "string", _OPT),
    ("vp", "int32", _OPT),
    ("resources", "int32", _OPT),
    ("cavalry", "int32", _OPT),
    ("influence", "int32", _OPT),  # null for DS
    ("tributary_provinces", "int32", _OPT),
    ("controlled_provinces", "int32", _OPT),
    ("units_on_map", "int32", _OPT),
    ("mongols_mountain_passes", "int32", _OPT),
    ("mongols_punjab", "int32", _OPT),
    ("mongols_delhi", "int32", _OPT),
    ("qasbahs", "int32", _OPT),  # the Sultanate's Qasbahs on the map after the card
)
ACTIONS_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("game_index", "int32", _REQ),
    ("variant", "string", _REQ),
    ("lineup", "string", _OPT),
    ("step", "int32", _REQ),  # 0-based position of the decision in the game
    ("turn", "int32", _REQ),
    ("faction", "string", _REQ),
    ("kind", "string", _REQ),  # the Decision kind
    ("option", "string", _REQ),  # the chosen option, as text
)
COLUMNS = {"games": GAMES_COLUMNS, "turns": TURNS_COLUMNS, "actions": ACTIONS_COLUMNS}
NAMES = {table: tuple(c[0] for c in cols) for table, cols in COLUMNS.items()}


@functools.cache
def schema(table: str) -> pa.Schema:
    """The pyarrow schema of ``table``."""
    import pyarrow as pa

    types = {
        "string": pa.string(),
        "int32": pa.int32(),
        "int64": pa.int64(),
        "float64": pa.float64(),
    }
    return pa.schema(
        [pa.field(name, types[kind], nullable=null) for name, kind, null in COLUMNS[table]]
    )


_SCHEMA_NAMES = {"GAMES_SCHEMA": "games", "TURNS_SCHEMA": "turns", "ACTIONS_SCHEMA": "actions"}


def __getattr__(name: str) -> Any:
    """``GAMES_SCHEMA``, ``TURNS_SCHEMA``, ``ACTIONS_SCHEMA`` and ``SCHEMAS``, built lazily."""
    if name in _SCHEMA_NAMES:
        return schema(_SCHEMA_NAMES[name])
    if name == "SCHEMAS":
        return {table: schema(table) for table in TABLES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_TURN_FIELDS = tuple(
    name for name in NAMES["turns"] if name not in ("game_index", "variant", "lineup")
)


def game_row(
    result: GameResult,
    *,
    run_id: str,
    variant: str,
    game_index: int,
    strategies: Mapping[str, str],
    seconds: float,
    lineup: str | None = None,
) -> dict[str, Any]:
    """The ``games`` row of a finished game."""
    row = _identity(run_id, variant, game_index, result.seed, strategies, lineup)
    row["winner"] = result.winner
    for f in FACTIONS:
        row[f"vp_{f}"] = result.vp.get(f)
        row[f"resources_{f}"] = result.resources.get(f)
        row[f"cavalry_{f}"] = result.cavalry.get(f)
    row["influence_BK"] = result.influence.get("BK")
    row["influence_VE"] = result.influence.get("VE")
    row["mongols_in_delhi_end"] = result.mongols_in_delhi_end
    row["delhi_timur_bonus"] = result.delhi_timur_bonus
    row["tributary_provinces_end"] = result.tributary_provinces_end
    row["controlled_BK_end"] = result.controlled_end.get("BK")
    row["controlled_VE_end"] = result.controlled_end.get("VE")
    row["forts_end"] = result.forts_end
    row["temples_end"] = result.temples_end
    row["troops_lost_to_mongols"] = result.troops_lost_to_mongols
    row["qasbahs_end"] = result.qasbahs_end
    row["qasbahs_lost_to_mongols"] = result.qasbahs_lost_to_mongols
    row["cards_played"] = result.cards_played
    row["tiebreak"] = result.tiebreak
    row["error"] = None
    row["state_digest"] = result.state_digest
    row["seconds"] = seconds
    return row


def error_row(
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
    row = dict.fromkeys(NAMES["games"])
    row.update(_identity(run_id, variant, game_index, seed, strategies, lineup))
    row["error"] = error
    row["seconds"] = seconds
    return row


def _identity(
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
    for f in FACTIONS:
        row[f"strategy_{f}"] = strategies[f]
    return row


class Columns:
    """Rows of one table gathered column by column in plain Python lists.

    ``pack()`` turns them into a compact form made of numpy arrays (cheap to pickle from a
    worker, which never imports pyarrow); ``to_table()`` (here, or on the packed form in the
    parent) builds the Arrow table.
    """

    def __init__(self, table: str) -> None:
        self.table = table
        self.data: dict[str, list[Any]] = {name: [] for name in NAMES[table]}

    def __len__(self) -> int:
        return len(self.data[NAMES[self.table][0]])

    def add_row(self, row: Mapping[str, Any]) -> None:
        for name, values in self.data.items():
            values.append(row[name])

    def add_turns(
        self, result: GameResult, game_index: int, variant: str, lineup: str | None = None
    ) -> None:
        """One row per TurnRecord of the game: the records transposed into columns at once
        (one pass in C, not a Python loop per field: 6% of a random game's time)."""
        turns = result.turns
        n = len(turns)
        self.data["game_index"].extend([game_index] * n)
        self.data["variant"].extend([variant] * n)
        self.data["lineup"].extend([lineup] * n)
        if not n:
            return
        columns = dict(zip(TurnRecord._fields, zip(*turns, strict=True), strict=True))
        for name in _TURN_FIELDS:
            self.data[name].extend(columns[name])

    def add_actions(
        self, result: GameResult, game_index: int, variant: str, lineup: str | None = None
    ) -> None:
        """One row per ActionRecord of a traced game (none when it was not traced)."""
        actions = result.actions or ()
        n = len(actions)
        self.data["game_index"].extend([game_index] * n)
        self.data["variant"].extend([variant] * n)
        self.data["lineup"].extend([lineup] * n)
        self.data["step"].extend(range(n))
        self.data["turn"].extend([a.turn for a in actions])
        self.data["faction"].extend([a.faction for a in actions])
        self.data["kind"].extend([a.kind for a in actions])
        self.data["option"].extend([a.option for a in actions])

    def pack(self) -> Packed:
        """The columns as numpy arrays: strings dictionary-encoded, nulls as a mask."""
        return Packed(
            self.table,
            {name: _pack(self.data[name], kind) for name, kind, _ in COLUMNS[self.table]},
        )

    def to_table(self) -> pa.Table:
        return self.pack().to_table()


class Packed:
    """One table's rows in compact columnar form (see ``Columns.pack``); picklable."""

    __slots__ = ("table", "columns")

    def __init__(self, table: str, columns: dict[str, tuple[str, Any, Any]]) -> None:
        self.table = table
        self.columns = columns

    def __getstate__(self) -> tuple:
        return self.table, self.columns

    def __setstate__(self, state: tuple) -> None:
        self.table, self.columns = state

    def __len__(self) -> int:
        return len(self.columns[NAMES[self.table][0]][1])

    def to_table(self) -> pa.Table:
        """The Arrow table, with ``schema(table)``."""
        import pyarrow as pa

        sch = schema(self.table)
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


def table_from_rows(table: str, rows: Iterable[Mapping[str, Any]]) -> pa.Table:
    """An Arrow table of ``table``'s schema from row dicts."""
    cols = Columns(table)
    for row in rows:
        cols.add_row(row)
    return cols.to_table()


def empty(table: str) -> pa.Table:
    """An empty table with ``table``'s schema."""
    return schema(table).empty_table()
