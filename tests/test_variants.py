"""Variant files overlay the base data (simulate/vijayanagara/variants.py): each test one behaviour."""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from pathlib import Path

import pytest

from simulate.vijayanagara.rules.datafiles import DataError, load_raw
from simulate.vijayanagara.variants import (
    BASE_DESCRIPTION,
    VARIANTS_DIR,
    Variant,
    apply_variant,
    list_variants,
    load_variant,
)

HEADER = 'name = "my"\ndescription = "a test variant"\n'


@pytest.fixture(scope="module")
def base_raw() -> dict:
    return load_raw()


@pytest.fixture
def raw(base_raw: dict) -> dict:
    return copy.deepcopy(base_raw)


def write(tmp_path: Path, body: str, header: str = HEADER, name: str = "my.toml") -> Path:
    path = tmp_path / name
    path.write_text(header + body, encoding="utf-8")
    return path


def applied(tmp_path: Path, raw: dict, body: str) -> dict:
    return apply_variant(raw, load_variant(write(tmp_path, body)))


def error_of(tmp_path: Path, raw: dict, body: str, header: str = HEADER) -> str:
    """The one-line message of the DataError raised on loading and applying ``body``."""
    with pytest.raises(DataError) as info:
        apply_variant(raw, load_variant(write(tmp_path, body, header)))
    message = str(info.value)
    assert "\n" not in message
    return message


# --- loading --------------------------------------------------------------------------------


def test_none_and_base_name_give_the_implicit_base():
    assert load_variant(None) == load_variant("base")
    base = load_variant(None)
    assert base.path is None
    assert base.description == BASE_DESCRIPTION


def test_base_digest_is_sha256_of_canonical_json_of_its_content():
    base = load_variant(None)
    text = json.dumps(base.content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert base.digest == hashlib.sha256(text.encode()).hexdigest()


def test_base_toml_parses_to_the_implicit_base_content():
    base_file = load_variant(str(VARIANTS_DIR / "base.toml"))
    assert base_file == load_variant(None)
    assert tomllib.loads((VARIANTS_DIR / "base.toml").read_text()) == load_variant(None).content


def test_file_variant_digest_is_sha256_of_its_bytes(tmp_path):
    path = write(tmp_path, "[combat]\nattack_dice = 3\n")
    variant = load_variant(path)
    assert variant.digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert variant.path == path.resolve()
    assert variant.content == {
        "name": "my",
        "description": "a test variant",
        "combat": {"attack_dice": 3},
    }


def test_bare_name_loads_the_builtin_file():
    variant = load_variant("fort-penalty-2")
    assert variant.path == (VARIANTS_DIR / "fort-penalty-2.toml").resolve()


def test_string_ending_in_toml_is_a_path(tmp_path, monkeypatch):
    write(tmp_path, "")
    monkeypatch.chdir(tmp_path)
    assert load_variant("my.toml").name == "my"


def test_list_variants_gives_the_builtins_sorted_by_name():
    names = [v.name for v in list_variants()]
    assert names == sorted(names)
    assert {"base", "timurs-shadow", "deccan-head-start", "fort-penalty-2"} <= set(names)


@pytest.mark.parametrize("variant", list_variants(), ids=lambda v: v.name)
def test_every_builtin_loads_and_applies_to_the_base_data(variant, base_raw):
    assert variant.description and "\n" not in variant.description
    out = apply_variant(base_raw, variant)
    assert set(out) == set(base_raw)


def test_builtin_name_equals_file_stem():
    for path in sorted(VARIANTS_DIR.glob("*.toml")):
        assert load_variant(path.stem).name == path.stem


def test_variant_is_hashable_despite_dict_content():
    assert len({load_variant("timurs-shadow"), load_variant("timurs-shadow")}) == 1


# --- applying -------------------------------------------------------------------------------


def test_base_is_a_no_op(base_raw):
    assert apply_variant(base_raw, load_variant(None)) == base_raw


def test_timurs_shadow_sets_the_flag(base_raw):
    """Optional rule at the end of 5.5: single-space Commands after the first Timurid card."""
    assert base_raw["rules"]["flags"]["timurs_shadow"] is False
    out = apply_variant(base_raw, load_variant("timurs-shadow"))
    assert out["rules"]["flags"]["timurs_shadow"] is True


def test_deccan_head_start_gives_bk_and_ve_two_more_resources(base_raw):
    """2.1: the base setup gives DS 12, BK 6, VE 7 Resources."""
    out = apply_variant(base_raw, load_variant("deccan-head-start"))
    before, after = base_raw["setup"]["resources"], out["setup"]["resources"]
    assert after == {"DS": before["DS"], "BK": before["BK"] + 2, "VE": before["VE"] + 2}


def test_fort_penalty_2_makes_forts_cost_two_dice(base_raw):
    """3.2.4: the attacker rolls one die fewer at a Fort; the variant makes it two."""
    out = apply_variant(base_raw, load_variant("fort-penalty-2"))
    assert out["rules"]["combat"]["fort_penalty"] == 2
    assert out["rules"]["combat"]["attack_dice"] == base_raw["rules"]["combat"]["attack_dice"]


def test_apply_does_not_mutate_its_input(tmp_path, raw):
    before = copy.deepcopy(raw)
    body = (
        "[rules]\ntimurs_shadow = true\n"
        "[setup]\nresources = {DS = 14}\n"
        '[setup.map."Maharashtra"]\namir = 5\n'
        "[setup.available.BK]\namir = 5\n"
        "[map]\nprosperity = {Gujarat = 1}\nremove_adjacent = [['Andhra', 'Tamilakam']]\n"
        "add_adjacent = [['Sindh', 'Malwa']]\n"
        "[deck]\nremove = [3]\nmongol_per_stack = [1, 2, 3]\n"
        "[combat]\nattack_dice = 3\n[decrees]\ntrade_cavalry = [0, 0, 0, 0, 0]\n"
    )
    out = applied(tmp_path, raw, body)
    assert raw == before
    assert out != before


def test_setup_resources_cavalry_influence_merge_partially(tmp_path, raw):
    out = applied(
        tmp_path, raw, "[setup]\nresources = {DS = 14}\ncavalry = {BK = 1}\ninfluence = {BK = 1}\n"
    )
    assert out["setup"]["resources"] == {**raw["setup"]["resources"], "DS": 14}
    assert out["setup"]["cavalry"] == {**raw["setup"]["cavalry"], "BK": 1}
    assert out["setup"]["influence"] == {**raw["setup"]["influence"], "BK": 1}


def test_setup_map_space_is_replaced_entirely(tmp_path, raw):
    out = applied(tmp_path, raw, '[setup.map."Andhra"]\nraja = 3\n')
    assert out["setup"]["map"]["Andhra"] == {"raja": 3}  # troop and qasbah gone
    assert out["setup"]["map"]["Karnataka"] == raw["setup"]["map"]["Karnataka"]


def test_setup_map_empty_table_empties_the_space(tmp_path, raw):
    out = applied(tmp_path, raw, '[setup.map."Gondwana"]\n')
    assert "Gondwana" not in out["setup"]["map"]


def test_setup_available_merges_piece_by_piece(tmp_path, raw):
    out = applied(tmp_path, raw, "[setup.available.BK]\namir = 4\n")
    assert out["setup"]["available"]["BK"] == {**raw["setup"]["available"]["BK"], "amir": 4}


def test_map_prosperity_edits_land_on_the_space_marked_variant(tmp_path, raw):
    out = applied(
        tmp_path, raw, "[map]\nprosperity = {Gujarat = 1, Sindh = 2}\nprosperity_total = 18\n"
    )
    spaces = {s["name"]: s for s in out["map"]["spaces"]}
    assert spaces["Gujarat"]["prosperity"] == 1 and spaces["Sindh"]["prosperity"] == 2
    assert spaces["Gujarat"]["confidence"] == "variant"
    assert out["map"]["prosperity_total"] == 18


def test_map_adjacency_add_and_remove(tmp_path, raw):
    out = applied(
        tmp_path,
        raw,
        "[map]\nadd_adjacent = [['Sindh', 'Malwa']]\nremove_adjacent = [['Tamilakam', 'Andhra']]\n",
    )
    pairs = {frozenset(e["pair"]) for e in out["map"]["adjacent"]}
    assert frozenset({"Sindh", "Malwa"}) in pairs
    assert frozenset({"Andhra", "Tamilakam"}) not in pairs
    assert len(out["map"]["adjacent"]) == len(raw["map"]["adjacent"])


def test_deck_overlay_lands_in_setup_deck(tmp_path, raw):
    out = applied(
        tmp_path,
        raw,
        "[deck]\nremove = [17, 3]\nevents_per_stack = 5\nmongol_per_stack = [1, 2, 3]\n",
    )
    deck = out["setup"]["deck"]
    assert deck["remove"] == [3, 17]
    assert deck["events_per_stack"] == 5
    assert [s["mongol_invasions"] for s in deck["stacks"]] == [1, 2, 3, 0]
    assert deck["stacks"][3]["timurid"] == raw["setup"]["deck"]["stacks"][3]["timurid"]


def test_deck_events_file_becomes_events_path(tmp_path, raw):
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "mine.yaml").write_text("events: []\n")
    out = applied(tmp_path, raw, '[deck]\nevents_file = "decks/mine.yaml"\n')
    assert out["events_path"] == (tmp_path / "decks" / "mine.yaml").resolve()


def test_combat_sequence_decrees_mongols_land_in_rules(tmp_path, raw):
    out = applied(
        tmp_path,
        raw,
        "[combat]\nattack_dice = 3\nalways_miss = 7\n"
        "[sequence]\npass_income = {BK = 2}\n"
        "[decrees]\ntrade_cavalry = [0, 1, 1, 2, 2]\ncampaign_range = 2\n"
        "[mongols]\namass = 4\n",
    )
    rules = out["rules"]
    assert rules["combat"] == {**raw["rules"]["combat"], "attack_dice": 3, "always_miss": 7}
    assert rules["sequence"]["pass_income"] == {**raw["rules"]["sequence"]["pass_income"], "BK": 2}
    assert rules["decrees"]["trade_cavalry"] == [0, 1, 1, 2, 2]
    assert rules["decrees"]["campaign_range"] == 2
    assert rules["mongols"] == {**raw["rules"]["mongols"], "amass": 4}


# --- errors: one line, naming the file and the exact path -----------------------------------


def test_unknown_top_level_key(tmp_path, raw):
    assert "my.toml: frobnicate: unknown key" in error_of(tmp_path, raw, "frobnicate = 1\n")


def test_unknown_nested_key(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[combat]\nattack_die = 3\n")
    assert "my.toml: combat.attack_die: unknown key" in msg


def test_unknown_rule_flag(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[rules]\ntimurs_shadw = true\n")
    assert "my.toml: rules.timurs_shadw: unknown key" in msg


def test_out_of_range_value(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[combat]\nattack_dice = 7\n")
    assert msg.endswith("my.toml: combat.attack_dice: must be 1..6")


def test_out_of_range_resources(tmp_path, raw):
    """1.8: Resources run 0..24."""
    msg = error_of(tmp_path, raw, "[setup]\nresources = {VE = 25}\n")
    assert msg.endswith("my.toml: setup.resources.VE: must be 0..24")


def test_wrong_type_value(tmp_path, raw):
    msg = error_of(tmp_path, raw, '[combat]\nattack_dice = "four"\n')
    assert "my.toml: combat.attack_dice: must be an integer" in msg


def test_boolean_is_not_an_integer(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[mongols]\namass = true\n")
    assert "my.toml: mongols.amass: must be an integer" in msg


def test_wrong_type_section(tmp_path, raw):
    assert "my.toml: combat: must be a table" in error_of(tmp_path, raw, "combat = 3\n")


def test_wrong_length_list(tmp_path, raw):
    """4.3.1: Trade Cavalry is given for each Bahmani Influence 0..4, five values."""
    msg = error_of(tmp_path, raw, "[decrees]\ntrade_cavalry = [1, 2]\n")
    assert "my.toml: decrees.trade_cavalry: must have exactly 5 values" in msg


def test_bad_list_item_is_named_by_index(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[deck]\nremove = [3, 37]\n")
    assert "my.toml: deck.remove[1]: must be 1..36" in msg


def test_duplicate_removed_event(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[deck]\nremove = [3, 3]\n")
    assert "my.toml: deck.remove[1]: 3 is listed twice" in msg


def test_unknown_space(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[map]\nprosperity = {Atlantis = 1}\n")
    assert msg.endswith("my.toml: map.prosperity.Atlantis: unknown space")


def test_unknown_space_in_setup_map(tmp_path, raw):
    msg = error_of(tmp_path, raw, '[setup.map."Atlantis"]\ntroop = 1\n')
    assert msg.endswith("my.toml: setup.map.Atlantis: unknown space")


def test_unknown_space_in_adjacency_pair(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[map]\nadd_adjacent = [['Sindh', 'Atlantis']]\n")
    assert msg.endswith("my.toml: map.add_adjacent[0][1]: unknown space")


def test_prosperity_only_on_provinces(tmp_path, raw):
    """1.3.1: only Provinces have Prosperity."""
    msg = error_of(tmp_path, raw, "[map]\nprosperity = {Delhi = 1}\n")
    assert "my.toml: map.prosperity.Delhi: not a Province" in msg


def test_confirmed_non_adjacency_cannot_be_added(tmp_path, raw):
    """1.3.5: Jaunpur and Punjab are not adjacent."""
    msg = error_of(tmp_path, raw, "[map]\nadd_adjacent = [['Jaunpur', 'Punjab']]\n")
    assert "my.toml: map.add_adjacent[0]: Jaunpur and Punjab are confirmed not adjacent" in msg


def test_removing_a_pair_that_is_not_adjacent(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[map]\nremove_adjacent = [['Sindh', 'Tamilakam']]\n")
    assert "my.toml: map.remove_adjacent[0]: Sindh and Tamilakam are not adjacent" in msg


def test_unknown_faction(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[setup]\nresources = {XX = 3}\n")
    assert "my.toml: setup.resources.XX: unknown faction" in msg


def test_sultanate_has_no_influence(tmp_path, raw):
    """1.9: the Deccan Influence track holds BK and VE only."""
    msg = error_of(tmp_path, raw, "[setup]\ninfluence = {DS = 1}\n")
    assert "my.toml: setup.influence.DS: unknown faction" in msg


def test_unknown_piece(tmp_path, raw):
    msg = error_of(tmp_path, raw, '[setup.map."Delhi"]\nelephant = 2\n')
    assert "my.toml: setup.map.Delhi.elephant: unknown piece" in msg


def test_available_piece_must_belong_to_the_box(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[setup.available.BK]\nraja = 2\n")
    assert "my.toml: setup.available.BK.raja: a VE piece, not BK's" in msg


def test_events_file_escaping_the_folder(tmp_path, raw):
    (tmp_path / "outside.yaml").write_text("events: []\n")
    inner = tmp_path / "inner"
    inner.mkdir()
    path = inner / "my.toml"
    path.write_text(HEADER + '[deck]\nevents_file = "../outside.yaml"\n')
    with pytest.raises(DataError) as info:
        load_variant(path)
    assert str(info.value).endswith(
        "my.toml: deck.events_file: data files cannot read outside their own folder"
    )


def test_absolute_events_file(tmp_path, raw):
    target = (tmp_path / "deck.yaml").resolve()
    target.write_text("events: []\n")
    msg = error_of(tmp_path, raw, f"[deck]\nevents_file = '{target}'\n")
    assert msg.endswith(
        "my.toml: deck.events_file: data files cannot read outside their own folder"
    )


def test_missing_events_file(tmp_path, raw):
    msg = error_of(tmp_path, raw, '[deck]\nevents_file = "nope.yaml"\n')
    assert "my.toml: deck.events_file: no such file" in msg


def test_toml_syntax_error(tmp_path, raw):
    msg = error_of(tmp_path, raw, "[combat\nattack_dice = 3\n")
    assert "my.toml: invalid TOML" in msg


def test_unknown_variant_name_lists_the_builtins():
    with pytest.raises(DataError) as info:
        load_variant("no-such-variant")
    message = str(info.value)
    assert "\n" not in message
    assert "'no-such-variant'" in message
    assert "deccan-head-start, fort-penalty-2, timurs-shadow" in message


def test_missing_file_path(tmp_path):
    with pytest.raises(DataError, match="cannot read"):
        load_variant(tmp_path / "absent.toml")


def test_missing_name(tmp_path, raw):
    msg = error_of(tmp_path, raw, "", header='description = "x"\n')
    assert msg.endswith("my.toml: name: required")


def test_missing_description(tmp_path, raw):
    msg = error_of(tmp_path, raw, "", header='name = "x"\n')
    assert msg.endswith("my.toml: description: required")


def test_multiline_description(tmp_path, raw):
    msg = error_of(tmp_path, raw, "", header='name = "x"\ndescription = """a\nb"""\n')
    assert msg.endswith("my.toml: description: must be one line")


def test_builtin_name_must_equal_its_file_name(tmp_path, monkeypatch):
    import simulate.vijayanagara.variants as variants

    monkeypatch.setattr(variants, "VARIANTS_DIR", tmp_path)
    write(tmp_path, "", header='name = "other"\ndescription = "x"\n', name="mine.toml")
    with pytest.raises(DataError, match="mine.toml: name: must equal the file name 'mine'"):
        variants.load_variant("mine")


def test_hand_made_variant_is_checked_on_apply(raw):
    """apply_variant re-checks content, so a Variant built without a file is checked too."""
    bogus = Variant("x", "x", None, {"name": "x", "description": "x", "oops": 1}, "0")
    with pytest.raises(DataError, match="^variant 'x': oops: unknown key"):
        apply_variant(raw, bogus)


def test_a_user_variant_name_must_equal_its_file_name(tmp_path):
    write(tmp_path, "", header='name = "other"\ndescription = "x"\n', name="mine.toml")
    with pytest.raises(DataError, match="mine.toml: name: must equal the file name 'mine'"):
        load_variant(tmp_path / "mine.toml")


def test_a_map_error_from_a_variant_names_the_variant_file(tmp_path):
    from simulate.vijayanagara.rules.ruleset import load_rules

    path = write(tmp_path, "[map]\nprosperity = {Gujarat = 1}\n")  # the total no longer holds
    with pytest.raises(DataError, match=r"my\.toml \(\[map\] over map\.yaml\): prosperity_total"):
        load_rules(load_variant(path))


def test_the_prosperity_example_in_base_toml_is_valid_and_changes_the_map(tmp_path):
    # 1.3.1: a Province's Prosperity is 1 or 2; base.toml documents what the checker allows
    from simulate.vijayanagara.rules.ruleset import load_rules

    base = (VARIANTS_DIR / "base.toml").read_text(encoding="utf-8")
    line = next(x for x in base.splitlines() if x.startswith("# prosperity = "))
    assert "1 or 2" in line
    example = line[2:].split("#")[0].strip()
    rules = load_rules(load_variant(write(tmp_path, f"[map]\n{example}\n")))
    assert rules.board.prosperity != load_rules(None).board.prosperity
