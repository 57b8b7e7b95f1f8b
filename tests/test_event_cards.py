"""The Event deck loader (simulate/vijayanagara/rules/event_cards.py, event_deck.py) against EVENTS_SCHEMA.md.

Each rejection test copies the shipped deck, breaks one field of one card and checks that
the one-line DataError names the file, the card and the exact field path.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pydantic
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulate.vijayanagara.rules.datafiles import DataError
from simulate.vijayanagara.rules.event_cards import (
    ChooseSelector,
    EventDeck,
    FreeCommandOp,
    LastingOp,
    MoveOp,
    PlaceOp,
    PythonOp,
    ReplaceOp,
    SpaceSelector,
)
from simulate.vijayanagara.rules.event_deck import load_deck, validate_deck_dict

DATA = Path(__file__).resolve().parent.parent / "simulate" / "vijayanagara" / "data"
EVENTS = DATA / "events.yaml"
SOURCE = "events.yaml"


@pytest.fixture(scope="module")
def spaces() -> dict[str, str]:
    """Space name -> kind, from map.yaml."""
    data = yaml.safe_load((DATA / "map.yaml").read_text(encoding="utf-8"))
    return {space["name"]: space["kind"] for space in data["spaces"]}


@pytest.fixture(scope="module")
def shipped_raw() -> dict:
    return yaml.safe_load(EVENTS.read_text(encoding="utf-8"))


@pytest.fixture
def raw(shipped_raw) -> dict:
    """A fresh, mutable copy of the shipped deck for one test."""
    return copy.deepcopy(shipped_raw)


@pytest.fixture(scope="module")
def deck(spaces) -> EventDeck:
    return load_deck(EVENTS, spaces)


def card(data: dict, card_id: int | str) -> dict:
    """The raw card with that id."""
    section = "mongol_invasions" if isinstance(card_id, str) else "events"
    return next(c for c in data[section] if c["id"] == card_id)


def effects(data: dict, card_id: int, side: str = "unshaded") -> list:
    """The raw effects list of one side of a card."""
    return card(data, card_id)[side]["effects"]


def rejection(data: dict, spaces: dict, label: str | None, path: str) -> str:
    """Validate, expect a one-line DataError starting `events.yaml: LABEL: PATH: `."""
    with pytest.raises(DataError) as info:
        validate_deck_dict(data, SOURCE, spaces)
    message = str(info.value)
    prefix = ": ".join([SOURCE] + ([label] if label else []) + [path]) + ": "
    assert "\n" not in message
    assert message.startswith(prefix), message
    return message


# --- the shipped deck (schema 1-3) -------------------------------------------------------


def test_shipped_deck_has_36_events_and_8_mongol_cards(deck):
    # schema 1
    assert len(deck.events) == 36
    assert [c.id for c in deck.mongol_invasions] == [f"M{i}" for i in range(1, 9)]


def test_shipped_events_are_in_file_order(deck, shipped_raw):
    # schema 1
    assert [c.id for c in deck.events] == [c["id"] for c in shipped_raw["events"]]


def test_shipped_deck_has_nine_title_known_cards(deck):
    # schema 2
    assert sum(c.provenance == "title-known" for c in deck.events) == 9


def test_shipped_deck_has_each_order_on_six_cards(deck):
    # schema 2
    counts = Counter(c.order for c in deck.events)
    assert len(counts) == 6 and set(counts.values()) == {6}


def test_shipped_mongol_cards_split_four_and_four(deck):
    # schema 3
    assert Counter(c.faction for c in deck.mongol_invasions) == {"BK": 4, "VE": 4}


def test_shipped_deck_is_provisional_with_file_digest(deck):
    # schema 1: meta.status
    import hashlib

    assert deck.provisional is True
    assert deck.path == EVENTS
    assert deck.digest == hashlib.sha256(EVENTS.read_bytes()).hexdigest()


def test_place_defaults_are_filled(deck):
    # schema 6.4: up_to false, state obedient
    op = deck.event(1).unshaded.effects[0]
    assert isinstance(op, PlaceOp)
    assert (op.up_to, op.state) == (False, "obedient")


def test_choose_selector_defaults_are_filled(deck):
    # schema 5: up_to false, kind province, chooser executor
    where = deck.event(10).unshaded.effects[0].where
    assert isinstance(where, ChooseSelector)
    assert (where.kind, where.chooser) == ("province", "executor")
    assert deck.event(5).unshaded.effects[0].where.up_to is False


def test_free_command_defaults_are_filled(deck):
    # schema 6.11: limited false, where none
    op = next(o for o in deck.event(26).shaded.effects if isinstance(o, FreeCommandOp))
    assert (op.limited, op.where) == (False, None)


def test_move_reads_from_key(deck):
    # schema 6.7: `from` is stored as from_
    op = deck.event(1).shaded.effects[0]
    assert isinstance(op, MoveOp)
    assert op.from_ == SpaceSelector(space="Delhi") and op.to.fixed == ("Maharashtra",)


def test_replace_place_state_is_kept(deck):
    # schema 6.6
    op = deck.event(2).unshaded.effects[0]
    assert isinstance(op, ReplaceOp) and op.place.state == "rebelling"


def test_lasting_omitted_faction_resolves_to_row_default(deck):
    # schema 6.16: no_rebel without faction is both BK and VE
    op = deck.event(32).unshaded.effects[0]
    assert isinstance(op, LastingOp) and op.factions == ("BK", "VE")


def test_cards_are_frozen(deck):
    # models are immutable
    with pytest.raises(pydantic.ValidationError):
        deck.event(1).title = "Other"


def test_validate_deck_dict_accepts_shipped_data(shipped_raw, spaces):
    # in-memory decks (variants) use the same checks; the digest is stable
    first = validate_deck_dict(shipped_raw, "variant", spaces)
    again = validate_deck_dict(copy.deepcopy(shipped_raw), "variant", spaces)
    assert first.path is None and first.digest == again.digest and len(first.events) == 36


def test_python_op_is_accepted(raw, spaces):
    # escape hatch: {op: python, effect, params}
    effects(raw, 4)[0] = {
        "op": "python",
        "effect": "plugins.hare-hounds_v1",
        "params": {"n": 2, "x": "a"},
    }
    effects(raw, 4)[1] = {"op": "python", "effect": "plain"}
    deck = validate_deck_dict(raw, SOURCE, spaces)
    first, second = deck.event(4).unshaded.effects
    assert isinstance(first, PythonOp) and first.params == {"n": 2, "x": "a"}
    assert second.params == {}


def test_mongol_card_may_carry_provenance(raw, spaces):
    # schema 3 (optional provenance)
    card(raw, "M1")["provenance"] = "provisional"
    assert validate_deck_dict(raw, SOURCE, spaces).mongol_invasion("M1").provenance == "provisional"


# --- file and card shape (schema 7, first two items) -------------------------------------


def test_rejects_non_mapping_file(spaces):
    with pytest.raises(DataError, match=r"^events.yaml: expected a mapping"):
        validate_deck_dict([], SOURCE, spaces)


def test_rejects_unknown_top_level_key(raw, spaces):
    # schema 1
    raw["extras"] = {}
    assert rejection(raw, spaces, None, "extras").endswith("unknown field")


def test_rejects_missing_top_level_key(raw, spaces):
    # schema 1
    del raw["mongol_invasions"]
    assert rejection(raw, spaces, None, "mongol_invasions")


def test_rejects_unknown_card_field(raw, spaces):
    # schema 2
    card(raw, 12)["colour"] = "red"
    assert rejection(raw, spaces, "card 12", "colour")


def test_rejects_missing_card_field(raw, spaces):
    # schema 2
    del card(raw, 12)["flavor"]
    assert rejection(raw, spaces, "card 12", "flavor").endswith("required field missing")


def test_rejects_unknown_mongol_card_field(raw, spaces):
    # schema 3
    card(raw, "M3")["effects"] = []
    assert rejection(raw, spaces, "card M3", "effects")


def test_rejects_35_events(raw, spaces):
    # schema 2, rule 2.1
    raw["events"].pop()
    message = rejection(raw, spaces, None, "events")
    assert message == "events.yaml: events: expected 36 cards, found 35"


def test_rejects_7_mongol_cards(raw, spaces):
    # schema 3, rule 2.1
    raw["mongol_invasions"].pop()
    assert rejection(raw, spaces, None, "mongol_invasions")


def test_rejects_repeated_event_id(raw, spaces):
    # schema 2
    raw["events"][1]["id"] = 1
    assert "repeated id" in rejection(raw, spaces, "card 1", "id")


def test_rejects_out_of_range_event_id(raw, spaces):
    # schema 2
    card(raw, 36)["id"] = 37
    assert rejection(raw, spaces, "card 37", "id")


def test_rejects_string_event_id(raw, spaces):
    # schema 2: id is an int
    card(raw, 36)["id"] = "36"
    assert rejection(raw, spaces, "card 36", "id")


def test_rejects_repeated_title(raw, spaces):
    # schema 2
    card(raw, 20)["title"] = card(raw, 3)["title"]
    assert "also card 3" in rejection(raw, spaces, "card 20", "title")


def test_rejects_order_that_is_not_a_permutation(raw, spaces):
    # schema 2, rule 2.3.2
    card(raw, 7)["order"] = ["DS", "DS", "VE"]
    assert "permutation" in rejection(raw, spaces, "card 7", "order")


def test_rejects_order_with_unknown_faction(raw, spaces):
    # schema 2
    card(raw, 7)["order"] = ["DS", "MI", "VE"]
    assert rejection(raw, spaces, "card 7", "order[1]")


def test_rejects_non_bool_stay_eligible(raw, spaces):
    # schema 2
    card(raw, 7)["stay_eligible"] = "yes"
    assert rejection(raw, spaces, "card 7", "stay_eligible")


def test_rejects_integer_stay_eligible(raw, spaces):
    # schema 2: no coercion of 1 to true
    card(raw, 7)["stay_eligible"] = 1
    assert rejection(raw, spaces, "card 7", "stay_eligible")


def test_rejects_unknown_provenance(raw, spaces):
    # schema 2
    card(raw, 7)["provenance"] = "printed"
    assert "got 'printed'" in rejection(raw, spaces, "card 7", "provenance")


def test_rejects_mongol_id_out_of_range(raw, spaces):
    # schema 3
    card(raw, "M8")["id"] = "M9"
    assert rejection(raw, spaces, "card M9", "id")


def test_rejects_repeated_mongol_id(raw, spaces):
    # schema 3
    raw["mongol_invasions"][7]["id"] = "M1"
    assert rejection(raw, spaces, "card M1", "id")


def test_rejects_mongol_faction_other_than_bk_or_ve(raw, spaces):
    # schema 3
    card(raw, "M3")["faction"] = "DS"
    assert "'BK' or 'VE'" in rejection(raw, spaces, "card M3", "faction")


# --- ops, fields and ranges (schema 6, 7 third item) -------------------------------------


def test_rejects_unknown_op(raw, spaces):
    # schema 6
    effects(raw, 12, "shaded")[1]["op"] = "teleport"
    assert "unknown op 'teleport'" in rejection(raw, spaces, "card 12", "shaded.effects[1].op")


def test_rejects_op_without_op_key(raw, spaces):
    # schema 6
    del effects(raw, 12, "shaded")[1]["op"]
    assert rejection(raw, spaces, "card 12", "shaded.effects[1].op")


def test_rejects_unknown_op_field(raw, spaces):
    # schema 6: only the listed fields
    effects(raw, 12, "shaded")[0]["colour"] = "red"
    assert rejection(raw, spaces, "card 12", "shaded.effects[0].colour")


def test_rejects_missing_op_field(raw, spaces):
    # schema 6.4: where is required
    del effects(raw, 12, "shaded")[0]["where"]
    assert rejection(raw, spaces, "card 12", "shaded.effects[0].where")


def test_rejects_count_above_five(raw, spaces):
    # schema 6
    effects(raw, 12, "shaded")[0]["count"] = 6
    assert rejection(raw, spaces, "card 12", "shaded.effects[0].count")


def test_rejects_count_zero(raw, spaces):
    # schema 6
    effects(raw, 12, "shaded")[0]["count"] = 0
    assert rejection(raw, spaces, "card 12", "shaded.effects[0].count")


def test_rejects_zero_resources_amount(raw, spaces):
    # schema 6.1
    effects(raw, 1)[2]["amount"] = 0
    assert "must not be 0" in rejection(raw, spaces, "card 1", "unshaded.effects[2].amount")


def test_rejects_zero_influence_shift(raw, spaces):
    # schema 6.3
    effects(raw, 1)[1]["shift"] = 0
    assert rejection(raw, spaces, "card 1", "unshaded.effects[1].shift")


def test_rejects_influence_for_ds(raw, spaces):
    # schema 6.3: BK or VE only
    effects(raw, 1)[1]["faction"] = "DS"
    assert rejection(raw, spaces, "card 1", "unshaded.effects[1].faction")


def test_rejects_mi_resources(raw, spaces):
    # schema 5.2: MI never has Resources
    effects(raw, 1)[2]["faction"] = "MI"
    assert rejection(raw, spaces, "card 1", "unshaded.effects[2].faction")


def test_rejects_empty_effects(raw, spaces):
    # schema 2: 1..4 ops
    card(raw, 1)["unshaded"]["effects"] = []
    assert rejection(raw, spaces, "card 1", "unshaded.effects")


def test_rejects_five_effects(raw, spaces):
    # schema 2: 1..4 ops
    effects(raw, 1).extend([{"op": "resources", "faction": "DS", "amount": 1}] * 2)
    assert rejection(raw, spaces, "card 1", "unshaded.effects")


def test_rejects_string_as_op(raw, spaces):
    # schema 6: each op is a mapping
    effects(raw, 1)[0] = "place"
    assert rejection(raw, spaces, "card 1", "unshaded.effects[0]")


def test_rejects_mongol_op_with_ds_chooser(raw, spaces):
    # schema 6.14: chooser BK, VE or executor
    effects(raw, 12)[0]["chooser"] = "DS"
    assert rejection(raw, spaces, "card 12", "unshaded.effects[0].chooser")


def test_rejects_bad_python_effect_name(raw, spaces):
    # escape hatch: NAME is [A-Za-z0-9_.-]+
    effects(raw, 4)[0] = {"op": "python", "effect": "bad name!"}
    assert rejection(raw, spaces, "card 4", "unshaded.effects[0].effect")


def test_rejects_python_params_with_non_scalar(raw, spaces):
    # escape hatch: params map str to scalar
    effects(raw, 4)[0] = {"op": "python", "effect": "ok", "params": {"spaces": ["Delhi"]}}
    assert rejection(raw, spaces, "card 4", "unshaded.effects[0].params.spaces")


# --- selectors and spaces (schema 5, 7 fourth item) --------------------------------------


def test_rejects_unknown_space(raw, spaces):
    # schema 5
    effects(raw, 12, "shaded")[0]["where"] = {"space": "Atlantis"}
    message = rejection(raw, spaces, "card 12", "shaded.effects[0].where.space")
    assert message.endswith("unknown space 'Atlantis'")


def test_rejects_unknown_space_in_spaces_list(raw, spaces):
    # schema 5
    effects(raw, 13)[0]["where"] = {"spaces": ["Punjab", "Atlantis"]}
    assert rejection(raw, spaces, "card 13", "unshaded.effects[0].where.spaces[1]")


def test_rejects_unknown_space_in_names_filter(raw, spaces):
    # schema 5.1
    effects(raw, 16, "shaded")[0]["where"]["filter"]["names"][1] = "Lanka"
    assert rejection(raw, spaces, "card 16", "shaded.effects[0].where.filter.names[1]")


def test_rejects_unknown_space_in_adjacent_to(raw, spaces):
    # schema 5.1
    effects(raw, 10)[0]["where"]["filter"]["adjacent_to"] = "Lanka"
    assert rejection(raw, spaces, "card 10", "unshaded.effects[0].where.filter.adjacent_to")


def test_rejects_repeated_space_in_spaces_list(raw, spaces):
    # schema 5: no repeats
    effects(raw, 13)[0]["where"] = {"spaces": ["Punjab", "Punjab"]}
    assert rejection(raw, spaces, "card 13", "unshaded.effects[0].where.spaces")


def test_rejects_selector_without_form(raw, spaces):
    # schema 5: space, spaces or choose
    effects(raw, 13)[0]["where"] = {"kind": "province"}
    assert rejection(raw, spaces, "card 13", "unshaded.effects[0].where")


def test_rejects_choose_zero(raw, spaces):
    # schema 5: N >= 1
    effects(raw, 10)[0]["where"]["choose"] = 0
    assert rejection(raw, spaces, "card 10", "unshaded.effects[0].where.choose")


def test_rejects_unknown_filter_key(raw, spaces):
    # schema 5.1
    effects(raw, 10)[0]["where"]["filter"]["rich"] = True
    assert rejection(raw, spaces, "card 10", "unshaded.effects[0].where.filter.rich")


def test_rejects_prosperity_three(raw, spaces):
    # schema 5.1: 1 or 2
    effects(raw, 10)[0]["where"]["filter"]["prosperity"] = 3
    assert rejection(raw, spaces, "card 10", "unshaded.effects[0].where.filter.prosperity")


# --- pieces (schema 5.2, 7 fifth item) ---------------------------------------------------


def test_rejects_piece_of_another_faction(raw, spaces):
    # schema 5.2
    effects(raw, 1)[0]["faction"] = "DS"
    message = rejection(raw, spaces, "card 1", "unshaded.effects[0].piece")
    assert "'amir' is not a DS piece" in message


def test_rejects_executor_with_specific_piece(raw, spaces):
    # schema 5.2
    effects(raw, 3, "shaded")[0]["faction"] = "executor"
    assert rejection(raw, spaces, "card 3", "shaded.effects[0].piece")


def test_rejects_generic_piece_in_place(raw, spaces):
    # schema 6.4: a specific piece
    effects(raw, 1)[0]["piece"] = "unit"
    assert rejection(raw, spaces, "card 1", "unshaded.effects[0].piece")


def test_rejects_foreign_piece_in_has_filter(raw, spaces):
    # schema 5.1, 5.2
    effects(raw, 29, "shaded")[0]["where"]["filter"]["has"]["faction"] = "BK"
    assert rejection(raw, spaces, "card 29", "shaded.effects[0].where.filter.has.piece")


def test_rejects_state_on_troop(raw, spaces):
    # schema 6.4: state only for amir and raja
    effects(raw, 12, "shaded")[0]["state"] = "obedient"
    assert rejection(raw, spaces, "card 12", "shaded.effects[0].state")


def test_rejects_state_on_replacement_governor(raw, spaces):
    # schema 6.6
    effects(raw, 22, "shaded")[0]["place"]["state"] = "rebelling"
    assert rejection(raw, spaces, "card 22", "shaded.effects[0].place.state")


def test_rejects_replace_within_one_faction(raw, spaces):
    # schema 6.6: the two factions differ
    effects(raw, 22, "shaded")[0]["place"] = {"faction": "VE", "piece": "temple"}
    assert rejection(raw, spaces, "card 22", "shaded.effects[0].place.faction")


# --- where pieces can be (schema 4.5, 7 sixth item) --------------------------------------


def test_rejects_amir_placed_in_delhi(raw, spaces):
    # schema 4.5, rule 1.3.3
    effects(raw, 1)[0]["where"] = {"space": "Delhi"}
    assert rejection(raw, spaces, "card 1", "unshaded.effects[0].where.space")


def test_rejects_mongol_removed_from_province(raw, spaces):
    # schema 4.5, rule 1.3.2
    effects(raw, 13)[0]["where"] = {"spaces": ["Punjab", "Sindh"]}
    assert rejection(raw, spaces, "card 13", "unshaded.effects[0].where.spaces[1]")


def test_rejects_qasbah_outside_a_province(raw, spaces):
    # schema 4.5, rule 1.4.2
    effects(raw, 1, "shaded")[1]["where"] = {"space": "Punjab"}
    assert rejection(raw, spaces, "card 1", "shaded.effects[1].where.space")


def test_accepts_ds_troops_in_mongol_region(raw, spaces):
    # schema 4.5: DS Units anywhere
    effects(raw, 12, "shaded")[0]["where"] = {"space": "Mountain Passes"}
    deck = validate_deck_dict(raw, SOURCE, spaces)
    assert deck.event(12).shaded.effects[0].where.fixed == ("Mountain Passes",)


def test_rejects_replacement_amir_in_delhi(raw, spaces):
    # schema 6.6, 4.5
    effects(raw, 33)[0]["where"] = {"space": "Delhi"}
    assert rejection(raw, spaces, "card 33", "unshaded.effects[0].where.space")


def test_rejects_flip_outside_a_province(raw, spaces):
    # schema 6.8
    effects(raw, 2)[1]["where"] = {"space": "Delhi"}
    assert rejection(raw, spaces, "card 2", "unshaded.effects[1].where.space")


def test_rejects_set_tributary_outside_a_province(raw, spaces):
    # schema 6.9
    effects(raw, 2, "shaded")[1]["where"] = {"space": "Punjab"}
    assert rejection(raw, spaces, "card 2", "shaded.effects[1].where.space")


def test_rejects_set_independent_outside_a_province(raw, spaces):
    # schema 6.10
    effects(raw, 2)[2]["where"] = {"spaces": ["Maharashtra", "Delhi"]}
    assert rejection(raw, spaces, "card 2", "unshaded.effects[2].where.spaces[1]")


def test_rejects_ve_free_command_outside_a_province(raw, spaces):
    # schema 6.11, rule 3.1.1
    effects(raw, 30)[1]["where"] = {"space": "Delhi"}
    assert rejection(raw, spaces, "card 30", "unshaded.effects[1].where.space")


def test_accepts_ds_free_command_in_delhi(raw, spaces):
    # schema 6.11: DS may select any space
    effects(raw, 18, "shaded")[2]["where"] = {"space": "Delhi"}
    deck = validate_deck_dict(raw, SOURCE, spaces)
    assert deck.event(18).shaded.effects[2].where.fixed == ("Delhi",)


# --- move (schema 6.7) -------------------------------------------------------------------


def test_rejects_move_to_two_spaces(raw, spaces):
    # schema 6.7
    effects(raw, 20, "shaded")[0]["to"] = {"spaces": ["Jaunpur", "Malwa"]}
    assert rejection(raw, spaces, "card 20", "shaded.effects[0].to.spaces")


def test_rejects_move_to_choose_two(raw, spaces):
    # schema 6.7
    effects(raw, 20, "shaded")[0]["to"] = {"choose": 2}
    assert rejection(raw, spaces, "card 20", "shaded.effects[0].to.choose")


def test_rejects_move_to_choose_up_to(raw, spaces):
    # schema 6.7
    effects(raw, 20, "shaded")[0]["to"] = {"choose": 1, "up_to": True}
    assert rejection(raw, spaces, "card 20", "shaded.effects[0].to.up_to")


def test_accepts_move_to_choose_one(raw, spaces):
    # schema 6.7
    effects(raw, 20, "shaded")[0]["to"] = {"choose": 1, "kind": "space"}
    deck = validate_deck_dict(raw, SOURCE, spaces)
    assert deck.event(20).shaded.effects[0].to.choose == 1


def test_rejects_move_of_structures(raw, spaces):
    # schema 6.7, rule 1.4.2
    effects(raw, 20, "shaded")[0]["piece"] = "qasbah"
    assert rejection(raw, spaces, "card 20", "shaded.effects[0].piece")


# --- Commands and Decrees (schema 6.11, 6.12) --------------------------------------------


def test_rejects_command_the_faction_lacks(raw, spaces):
    # schema 6.11
    effects(raw, 19, "shaded")[0]["command"] = "rally"
    assert rejection(raw, spaces, "card 19", "shaded.effects[0].command")


def test_rejects_decree_the_faction_lacks(raw, spaces):
    # schema 6.12
    effects(raw, 31)[0]["decree"] = "tax"
    assert "not a BK Decree" in rejection(raw, spaces, "card 31", "unshaded.effects[0].decree")


def test_rejects_free_command_for_executor(raw, spaces):
    # schema 6.11: explicit faction
    effects(raw, 19, "shaded")[0]["faction"] = "executor"
    assert rejection(raw, spaces, "card 19", "shaded.effects[0].faction")


# --- choose and lasting (schema 6.15, 6.16) ----------------------------------------------


def test_rejects_nested_choose(raw, spaces):
    # schema 6.15
    outer = effects(raw, 9)[0]
    outer["options"][1] = [copy.deepcopy(outer)]
    assert rejection(raw, spaces, "card 9", "unshaded.effects[0].options[1][0].op")


def test_rejects_lasting_inside_choose(raw, spaces):
    # schema 6.15
    effects(raw, 9)[0]["options"][0].append(
        {"op": "lasting", "modifier": "no_rebel", "until": "game_end"}
    )
    assert rejection(raw, spaces, "card 9", "unshaded.effects[0].options[0][1].op")


def test_rejects_unknown_space_inside_choose_option(raw, spaces):
    # schema 6.15: options are checked like effects lists
    effects(raw, 27, "shaded")[0]["options"][1][0]["where"] = {"space": "Atlantis"}
    assert rejection(raw, spaces, "card 27", "shaded.effects[0].options[1][0].where.space")


def test_rejects_choose_with_one_option(raw, spaces):
    # schema 6.15: at least two options
    effects(raw, 9)[0]["options"].pop()
    assert rejection(raw, spaces, "card 9", "unshaded.effects[0].options")


def test_rejects_fifth_card_with_lasting(raw, spaces):
    # schema 6.16: at most 4 cards (shipped: 6, 11, 32, 35)
    effects(raw, 1).append({"op": "lasting", "modifier": "no_rebel", "until": "game_end"})
    message = rejection(raw, spaces, "card 35", "unshaded.effects[1]")
    assert "cards 1, 6, 11, 32" in message


def test_rejects_attack_extra_die_without_faction(raw, spaces):
    # schema 6.16: faction required
    del effects(raw, 6)[0]["faction"]
    assert rejection(raw, spaces, "card 6", "unshaded.effects[0].faction")


def test_rejects_conscript_plus_one_for_bk(raw, spaces):
    # schema 6.16: omitted or DS
    effects(raw, 11)[0]["faction"] = "BK"
    assert rejection(raw, spaces, "card 11", "unshaded.effects[0].faction")


def test_rejects_unknown_modifier(raw, spaces):
    # schema 6.16: only four modifiers
    effects(raw, 32)[0]["modifier"] = "no_march"
    assert rejection(raw, spaces, "card 32", "unshaded.effects[0].modifier")


# --- messages ----------------------------------------------------------------------------


def test_error_names_file_path_when_loading(tmp_path, shipped_raw, spaces):
    # load_deck errors start with the file path, on one line, without pydantic dumps
    data = copy.deepcopy(shipped_raw)
    effects(data, 12, "shaded")[0]["where"] = {"space": "Atlantis"}
    path = tmp_path / "events.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_deck(path, spaces)
    message = str(info.value)
    assert message == f"{path}: card 12: shaded.effects[0].where.space: unknown space 'Atlantis'"
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_card_without_id_is_named_by_position(raw, spaces):
    # a card that lacks its id is named by its index
    del raw["events"][3]["id"]
    assert rejection(raw, spaces, "events[3]", "id")


def _leaves(node, path=()):
    """Every (path, value) inside a raw card, containers included."""
    yield path, node
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, value in items:
        yield from _leaves(value, (*path, key))


JUNK = st.sampled_from(
    [None, 0, -1, 6, 1.5, True, "", "x", "Delhi", "M9", [], {}, ["DS"], {"op": "x"}]
)


@settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(index=st.integers(0, 43), pick=st.integers(0, 10_000), junk=JUNK)
def test_any_corrupted_field_loads_or_gives_one_line_error(raw, spaces, index, pick, junk):
    # schema 7: no tracebacks and no multi-line dumps, whatever field is broken
    data = copy.deepcopy(raw)
    cards = data["events"] + data["mongol_invasions"]
    target = cards[index]
    paths = [p for p, _ in _leaves(target) if p]
    path = paths[pick % len(paths)]
    parent = target
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = junk
    try:
        validate_deck_dict(data, SOURCE, spaces)
    except DataError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith(f"{SOURCE}: ")
