"""Setup and deck construction (2.1), read against the rulebook."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from simulate.vijayanagara.rules import invariants, victory
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.ruleset import EVENT, MONGOL_CARD, SUCCESSION, TIMURID
from simulate.vijayanagara.rules.setup import new_state
from simulate.vijayanagara.rules.state import KHALJI

# 2.1: the pieces printed for each space (counter name -> number); everything else is empty
SETUP_MAP = {
    "Delhi": {"troop": 4},
    "Mountain Passes": {"troop": 2},
    "Punjab": {"troop": 4},
    "Malwa": {"troop": 3, "governor": 1},
    "Jaunpur": {"troop": 2},
    "Madhyadesh": {"troop": 2, "amir": 2},
    "Sindh": {"troop": 1},
    "Rajput Kingdoms": {"troop": 1},
    "Gujarat": {"troop": 1, "amir": 1},
    "Maharashtra": {"amir": 4},
    "Gondwana": {"amir": 1},
    "Andhra": {"troop": 1, "qasbah": 1, "raja": 2},
    "Karnataka": {"raja": 3},
    "Tamilakam": {"troop": 1, "raja": 1},
}


@pytest.fixture
def start(rules):
    return new_state(rules, random.Random(1))


@pytest.mark.parametrize("space", sorted(SETUP_MAP) + ["Orissa"])
def test_setup_places_the_printed_pieces_in_each_space(rules, start, space):
    # 2.1 "place the following wooden pieces on the map"; Orissa starts empty
    s = rules.board.id(space)
    want = SETUP_MAP.get(space, {})
    got = {P.COUNTER_NAMES[c]: start.count(s, c) for c in range(P.NK) if start.count(s, c)}
    assert got == want


def test_setup_holding_boxes_hold_the_remaining_pieces(rules, start):
    # 2.1: DS 10 Troops, 4 Governors, 4 Qasbahs; BK 6 Amirs, 5 Forts; VE 8 Rajas, 5 Temples;
    # Mongols 12
    av = dict(zip(P.PIECE_TYPES, start.avail, strict=True))
    assert av == {
        "troop": 10,
        "governor": 4,
        "qasbah": 4,
        "amir": 6,
        "fort": 5,
        "raja": 8,
        "temple": 5,
        "mongol": 12,
    }


def test_setup_puts_four_amirs_and_eight_rajas_on_the_influence_track(rules, start):
    # 2.1, 1.9: two Amirs on each of the two marked BK levels, two Rajas on each VE level
    assert start.slots[P.BK] == [0, 0, 2, 0, 2]
    assert start.slots[P.VE] == [0, 2, 2, 2, 2]
    assert start.influence == [0, 0, 0]


def test_setup_resources_are_twelve_six_seven(start):
    # 2.1: DS 12, BK 6, VE 7
    assert start.resources == [12, 6, 7]


def test_setup_sultanate_holds_two_cavalry_and_eight_form_the_pool(start):
    # 2.1, 1.10
    assert start.cavalry == [2, 0, 0]
    assert start.pool == 8


def test_setup_every_province_is_tributary_and_every_unit_obedient(rules, start):
    # 2.1 "Place a Tributary marker ... in each Province"; 1.4.6 Units are placed Obedient
    for s in range(rules.board.n):
        assert start.tributary[s] == rules.board.is_province[s]
        assert start.control[s] == -1
        assert start.count(s, P.AMIR_REB) == 0
        assert start.count(s, P.RAJA_REB) == 0


def test_setup_sultanate_starts_on_eighteen_victory_points(rules, start):
    # 2.1 "Delhi Sultanate Victory: 18", BK and VE 0; 5.1
    assert victory.vp(rules, start, P.DS) == 18
    assert victory.vp(rules, start, P.BK) == 0
    assert victory.vp(rules, start, P.VE) == 0


def test_setup_all_factions_eligible_under_the_khalji_dynasty(start):
    # 2.1 cylinders in the Eligible box; Khalji Dynasty card face up (2.7)
    assert start.eligible == [True, True, True]
    assert start.dynasty == KHALJI
    assert start.timurid == 0 and not start.over


def test_setup_state_satisfies_the_invariants(rules, start):
    # 1.4: every piece on the map, on the track or Available; 1.10: ten Cavalry tokens
    invariants.check(start, rules)


# --- Deck construction (2.1 steps 1-7)


def _decks(rules, n=5):
    return [new_state(rules, random.Random(seed)).deck for seed in range(n)]


def test_deck_has_thirty_five_cards(rules):
    # 2.1: 4 x 6 Events + 3 x 2 Mongol Invasion + 2 Timurid + 3 Succession
    for deck in _decks(rules):
        assert len(deck) == 35
        assert len(set(deck)) == 35


def test_deck_succession_cards_at_nine_eighteen_twenty_seven_in_order(rules):
    # 2.1 steps 4-7: Zenith atop the second stack, Rise atop the third, Lords atop the fourth
    for deck in _decks(rules):
        kinds = [rules.cards[c].kind for c in deck]
        positions = [i + 1 for i, k in enumerate(kinds) if k == SUCCESSION]
        assert positions == [9, 18, 27]
        assert [rules.cards[deck[i - 1]].id for i in positions] == ["zenith", "rise", "lords"]


def test_deck_first_three_stacks_hold_six_events_and_two_mongol_cards(rules):
    # 2.1 steps 2-3
    for deck in _decks(rules):
        for start in (0, 9, 18):
            stack = Counter(rules.cards[c].kind for c in deck[start : start + 8])
            assert stack == {EVENT: 6, MONGOL_CARD: 2}


def test_deck_fourth_stack_holds_six_events_and_both_timurid_cards(rules):
    # 2.1 step 3 "Shuffle both Timurid Empire cards into the fourth stack"
    for deck in _decks(rules):
        stack = Counter(rules.cards[c].kind for c in deck[27:])
        assert stack == {EVENT: 6, TIMURID: 2}


def test_deck_deals_twenty_four_distinct_events_of_the_thirty_six(rules):
    # 2.1 step 2: 24 of the 36 Event cards, the other 12 unused
    assert len(rules.event_cards) == 36
    for deck in _decks(rules):
        events = [c for c in deck if rules.cards[c].kind == EVENT]
        assert len(events) == 24 == len(set(events))


def test_deck_order_varies_with_the_shuffle(rules):
    # 2.1 step 1: the Event and Mongol Invasion cards are shuffled
    assert len(set(_decks(rules, 6))) > 1
