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

from collections.abc import Iterable, Mapping
from typing import Any

import pyarrow as pa

from simulate.result import FACTIONS, GameResult

TABLES = ("games", "turns", "actions")

# Columns whose values are not reproducible (wall time); left out of dataset comparisons.
NONDETERMINISTIC = {"games": ("seconds",), "turns": (), "actions": ()}

# The order rows are compared and presented in (each key is unique within its table).
SORT_KEYS = {
    "games": ("variant", "game_index"),
    "turns": ("variant", "game_index", "turn", "faction"),
    "actions": ("variant", "game_index", "step"),
}

_i32 = pa.int32()
_str = pa.string()

GAMES_SCHEMA = pa.schema(
    [
        pa.field("run_id", _str, nullable=False),  # stable id from the run's config digest
        pa.field("variant", _str, nullable=False),  # the variant's name
        pa.field("game_index", _i32, nullable=False),  # k in 0..games-1
        pa.field("seed", pa.int64(), nullable=False),  # seeds.game_seed(master, k)
        *[pa.field(f"strategy_{f}", _str, nullable=False) for f in FACTIONS],  # full specs
        pa.field("winner", _str),  # DS | BK | VE; null for an unresolved tie or an error
        *[pa.field(f"vp_{f}", _i32) for f in FACTIONS],
        *[pa.field(f"resources_{f}", _i32) for f in FACTIONS],
        *[pa.field(f"cavalry_{f}", _i32) for f in FACTIONS],
        pa.field("influence_BK", _i32),
        pa.field("influence_VE", _i32),
        pa.field("mongols_in_delhi_end", _i32),
        pa.field("delhi_timur_bonus", _i32),
        pa.field("tributary_provinces_end", _i32),
        pa.field("controlled_BK_end", _i32),
        pa.field("controlled_VE_end", _i32),
        pa.field("forts_end", _i32),
        pa.field("temples_end", _i32),
        pa.field("troops_lost_to_mongols", _i32),
        pa.field("cards_played", _i32),
        pa.field("tiebreak", _str),  # none | resources | unresolved
        pa.field("error", _str),  # null, or one line with a repro command
        pa.field("state_digest", _str),  # digest of the final state, checked by `vsim replay`
        pa.field("seconds", pa.float64()),  # wall time: NOT deterministic, see module doc
    ]
)

TURNS_SCHEMA = pa.schema(
    [
        pa.field("game_index", _i32, nullable=False),
        pa.field("variant", _str, nullable=False),
        pa.field("turn", _i32, nullable=False),  # 1-based position of the card in the deck
        pa.field("card_id", _str, nullable=False),
        pa.field("card_kind", _str, nullable=False),  # event | mongol | succession | timurid
        pa.field("faction", _str, nullable=False),
        # event_unshaded | event_shaded | command_decree | command | limited | pass | none
        pa.field("action", _str, nullable=False),
        pa.field("command", _str),
        pa.field("decree", _str),
        pa.field("vp", _i32),
        pa.field("resources", _i32),
        pa.field("cavalry", _i32),
        pa.field("influence", _i32),  # null for DS
        pa.field("tributary_provinces", _i32),
        pa.field("controlled_provinces", _i32),
        pa.field("units_on_map", _i32),
        pa.field("mongols_mountain_passes", _i32),
        pa.field("mongols_punjab", _i32),
        pa.field("mongols_delhi", _i32),
    ]
)

ACTIONS_SCHEMA = pa.schema(
    [
        pa.field("game_index", _i32, nullable=False),
        pa.field("variant", _str, nullable=False),
        pa.field("step", _i32, nullable=False),  # 0-based position of the decision in the game
        pa.field("turn", _i32, nullable=False),
        pa.field("faction", _str, nullable=False),
        pa.field("kind", _str, nullable=False),  # the Decision kind
        pa.field("option", _str, nullable=False),  # the chosen option, as text
    ]
)

SCHEMAS: dict[str, pa.Schema] = {
    "games": GAMES_SCHEMA,
    "turns": TURNS_SCHEMA,
    "actions": ACTIONS_SCHEMA,
}

_TURN_FIELDS = tuple(name for name in TURNS_SCHEMA.names if name not in ("game_index", "variant"))


def game_row(
    result: GameResult,
    *,
    run_id: str,
    variant: str,
    game_index: int,
    strategies: Mapping[str, str],
    seconds: float,
) -> dict[str, Any]:
    """The ``games`` row of a finished game."""
    row = _identity(run_id, variant, game_index, result.seed, strategies)
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
) -> dict[str, Any]:
    """The ``games`` row of a game that raised: ``error`` filled, the outcome null."""
    row = dict.fromkeys(GAMES_SCHEMA.names)
    row.update(_identity(run_id, variant, game_index, seed, strategies))
    row["error"] = error
    row["seconds"] = seconds
    return row


def _identity(
    run_id: str, variant: str, game_index: int, seed: int, strategies: Mapping[str, str]
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "run_id": run_id,
        "variant": variant,
        "game_index": game_index,
        "seed": seed,
    }
    for f in FACTIONS:
        row[f"strategy_{f}"] = strategies[f]
    return row


class Columns:
    """Rows of one table gathered column by column, then turned into an Arrow table."""

    def __init__(self, table: str) -> None:
        self.schema = SCHEMAS[table]
        self.data: dict[str, list[Any]] = {name: [] for name in self.schema.names}

    def __len__(self) -> int:
        return len(self.data[self.schema.names[0]])

    def add_row(self, row: Mapping[str, Any]) -> None:
        for name, values in self.data.items():
            values.append(row[name])

    def add_turns(self, result: GameResult, game_index: int, variant: str) -> None:
        """One row per TurnRecord of the game."""
        n = len(result.turns)
        self.data["game_index"].extend([game_index] * n)
        self.data["variant"].extend([variant] * n)
        for name in _TURN_FIELDS:
            self.data[name].extend([getattr(t, name) for t in result.turns])

    def add_actions(self, result: GameResult, game_index: int, variant: str) -> None:
        """One row per ActionRecord of a traced game (none when it was not traced)."""
        actions = result.actions or ()
        n = len(actions)
        self.data["game_index"].extend([game_index] * n)
        self.data["variant"].extend([variant] * n)
        self.data["step"].extend(range(n))
        self.data["turn"].extend([a.turn for a in actions])
        self.data["faction"].extend([a.faction for a in actions])
        self.data["kind"].extend([a.kind for a in actions])
        self.data["option"].extend([a.option for a in actions])

    def to_table(self) -> pa.Table:
        return pa.Table.from_pydict(self.data, schema=self.schema)


def table_from_rows(table: str, rows: Iterable[Mapping[str, Any]]) -> pa.Table:
    """An Arrow table of ``table``'s schema from row dicts."""
    cols = Columns(table)
    for row in rows:
        cols.add_row(row)
    return cols.to_table()


def empty(table: str) -> pa.Table:
    """An empty table with ``table``'s schema."""
    return SCHEMAS[table].empty_table()
