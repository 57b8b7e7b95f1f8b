"""The data files are validated on load with one-line errors naming file and field."""

from __future__ import annotations

import copy

import pytest
import yaml

from simulate.vijayanagara.rules.datafiles import DATA_DIR, DataError, load_raw, read_yaml
from simulate.vijayanagara.rules.ruleset import compile_rules


@pytest.fixture(scope="module")
def raw():
    return load_raw()


def _error(raw_data) -> str:
    with pytest.raises(DataError) as exc:
        compile_rules(raw_data)
    message = str(exc.value)
    assert "\n" not in message
    return message


def test_shipped_data_compiles(raw):
    rules = compile_rules(raw)
    assert rules.board.n == 15
    assert sum(rules.board.prosperity) == 18  # 2.1, 5.1
    assert len(rules.event_cards) == 36 and len(rules.mongol_cards) == 8


def test_shipped_data_is_marked_provisional(raw):
    rules = compile_rules(raw)
    assert rules.provisional == {"map_prosperity": True, "map_adjacency": True, "event_deck": True}


def test_adjacency_is_symmetric(raw):
    """1.3.5: adjacency is symmetric."""
    board = compile_rules(raw).board
    for a in range(board.n):
        for b in board.adjacent[a]:
            assert a in board.adjacent[b]


def test_distances_count_adjacency_steps(raw):
    """1.3.5: the compiled distance is 0 to itself, 1 to a neighbour, symmetric, and one more
    than the nearest neighbour's beyond that (Jaunpur-Punjab: not adjacent, so 2 or more)."""
    b = compile_rules(raw).board
    for a in range(b.n):
        assert b.distance[a][a] == 0
        for c in range(b.n):
            assert b.distance[a][c] == b.distance[c][a]
            if c != a:
                assert b.distance[a][c] == 1 + min(b.distance[n][c] for n in b.adjacent[a])
    assert b.distance[b.id("Jaunpur")][b.id("Punjab")] >= 2


def test_confirmed_adjacencies_hold(raw):
    """1.3.5: Gondwana-Andhra and Madhyadesh-Orissa are adjacent; Jaunpur-Punjab are not;
    1.3.6: the Vindhya Range separates Malwa-Gondwana and Madhyadesh-Jaunpur."""
    b = compile_rules(raw).board
    assert b.is_adjacent(b.id("Gondwana"), b.id("Andhra"))
    assert b.is_adjacent(b.id("Madhyadesh"), b.id("Orissa"))
    assert not b.is_adjacent(b.id("Jaunpur"), b.id("Punjab"))
    assert not b.is_adjacent(b.id("Malwa"), b.id("Gondwana"))
    assert not b.is_adjacent(b.id("Madhyadesh"), b.id("Jaunpur"))


def test_wrong_prosperity_total_is_rejected(raw):
    bad = copy.deepcopy(raw)
    bad["map"]["spaces"][3]["prosperity"] = 2
    assert _error(bad).startswith("map.yaml: prosperity_total:")


def test_joining_a_confirmed_non_adjacency_is_rejected(raw):
    bad = copy.deepcopy(raw)
    bad["map"]["adjacent"].append({"pair": ["Jaunpur", "Punjab"], "confidence": "provisional"})
    assert "Jaunpur and Punjab are joined" in _error(bad)


def test_unknown_space_in_adjacency_is_rejected(raw):
    bad = copy.deepcopy(raw)
    bad["map"]["adjacent"][0]["pair"] = ["Gondwana", "Atlantis"]
    assert _error(bad) == "map.yaml: adjacent[0].pair: unknown space 'Atlantis'"


def test_setup_pieces_must_match_totals(raw):
    """1.4, 2.1: map + Influence track + Available = the piece totals."""
    bad = copy.deepcopy(raw)
    bad["setup"]["map"]["Delhi"]["troop"] = 5
    message = _error(bad)
    assert message.startswith("setup.yaml: available.DS.troop:")
    assert "pieces.yaml has 32" in message


def test_a_piece_total_above_one_byte_is_refused(raw):
    """1.4: a space's counter is one byte of the state (state.py), so no total may exceed
    255, whatever a variant asks."""
    bad = copy.deepcopy(raw)
    bad["pieces"]["pieces"]["troop"]["total"] = 256
    assert _error(bad) == (
        "pieces.yaml: pieces.troop.total: missing or not an integer from 0 to 255"
    )


def test_bk_pieces_outside_provinces_are_rejected(raw):
    bad = copy.deepcopy(raw)
    bad["setup"]["map"]["Delhi"]["amir"] = 1
    assert _error(bad).startswith("setup.yaml: map.Delhi.amir:")


def test_second_structure_in_a_province_is_rejected(raw):
    """1.4.4 stacking."""
    bad = copy.deepcopy(raw)
    bad["setup"]["map"]["Andhra"]["qasbah"] = 2
    assert _error(bad).startswith("setup.yaml: map.Andhra.qasbah:")


def test_unknown_space_key_is_rejected(raw):
    bad = copy.deepcopy(raw)
    bad["map"]["spaces"][0]["colour"] = "red"
    assert _error(bad) == "map.yaml: spaces[0].colour: unknown key"


def test_resources_out_of_range_are_rejected(raw):
    bad = copy.deepcopy(raw)
    bad["setup"]["resources"]["DS"] = 30
    assert _error(bad) == "setup.yaml: resources.DS: must be an integer 0..24"


def test_a_map_with_more_spaces_than_the_engine_takes_is_rejected(raw):
    """The compiled engine holds a set of spaces in one 64-bit integer: at most 62 spaces."""
    bad = copy.deepcopy(raw)
    province = next(sp for sp in bad["map"]["spaces"] if sp["kind"] == "province")
    extra = [dict(province, name=f"Extra {i}") for i in range(62 - len(bad["map"]["spaces"]) + 1)]
    bad["map"]["spaces"].extend(extra)
    assert _error(bad) == "map.yaml: spaces: 63 spaces: the engine takes at most 62"


def test_the_fast_loader_reads_every_data_file_as_the_pure_one(tmp_path):
    # read_yaml uses libyaml's safe loader when PyYAML has it: it must give the same data
    for path in sorted(DATA_DIR.glob("*.yaml")):
        with open(path, encoding="utf-8") as fh:
            assert read_yaml(path) == yaml.load(fh, Loader=yaml.SafeLoader), path.name


def test_invalid_yaml_is_one_line_naming_file_and_line(tmp_path):
    bad = tmp_path / "map.yaml"
    bad.write_text("spaces:\n  - name: Delhi\n   bad: [1, 2\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_yaml(bad)
    message = str(exc.value)
    assert "\n" not in message
    assert message.startswith(f"{bad}: line ") and "invalid YAML" in message
