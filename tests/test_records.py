"""A batch's rows as columns (the Parquet tables of every study): each game's per-card records
become the turns table's rows, and a null stays a null in every kind of column."""

from __future__ import annotations

import pyarrow as pa
import pytest

from simulate import play_game
from simulate.study.records import _pack, _unpack, default_layout
from simulate.vijayanagara.declaration import outcome
from simulate.vijayanagara.result import TurnRecord


def test_the_turns_table_holds_each_turn_record_as_a_row():
    result = outcome(play_game(5, "random"))
    cols = default_layout().columns_of("turns")
    cols.add_turns(result, 7, "base", None)
    cols.add_turns(result, 8, "base", "field")
    rows = cols.to_table().to_pylist()
    assert len(rows) == 2 * len(result.steps)
    for row, rec in zip(rows, result.steps * 2, strict=True):
        assert {name: row[name] for name in TurnRecord._fields} == rec._asdict()
    assert {r["game_index"] for r in rows} == {7, 8}
    assert rows[0]["lineup"] is None and rows[-1]["lineup"] == "field"


@pytest.mark.parametrize(
    "kind, typ, values",
    [
        ("string", pa.string(), ["b", None, "a", "b", None]),
        ("string", pa.string(), [None, None]),
        ("int32", pa.int32(), [3, None, 1]),
        ("int64", pa.int64(), [None, 2**40]),
        ("float64", pa.float64(), [1.5, None, 0.0]),
        ("int32", pa.int32(), []),
    ],
)
def test_a_column_packs_and_unpacks_to_its_values_nulls_included(kind, typ, values):
    assert _unpack(_pack(values, kind), typ).to_pylist() == values


def test_string_codes_follow_first_appearance():
    tag, codes, vocab = _pack(["b", None, "a", "b"], "string")
    assert (tag, codes.tolist(), vocab) == ("dict", [0, -1, 1, 0], ["b", "a"])
