"""Ruling a region and the bribe to play a card, as the rulebook says (RB p7, RB p11 Play)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import ruling as R
from simulate.pax_pamir.cards import NONE
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import State
from tests.pax_pamir.support import card, region

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2


@pytest.fixture
def state(data) -> State:
    return new_state(data, 3, random.Random(4), loyalty=[AFGHAN, BRITISH, RUSSIAN])


def put(state: State, where: int, tribes: dict[int, int], armies: dict[int, int]) -> None:
    for player, n in tribes.items():
        state.tribes[state.tribe_at(where, player)] = n
    for coalition, n in armies.items():
        state.armies[state.army_at(where, coalition)] = n


# --- RB p7 Ruling a Region ------------------------------------------------------------------


def test_rulebook_example_kandahar(data, state):
    """RB p7 example: "You have three ruling pieces in Kandahar (one tribe and two Afghan armies
    loyal to you). There are also four additional armies not loyal to you (two British, two
    Russian) ... you take the ruler token."""
    kandahar = region(data, "kandahar")
    put(state, kandahar, {0: 1}, {AFGHAN: 2, BRITISH: 2, RUSSIAN: 2})
    assert R.ruling_pieces(state, kandahar, 0) == 3
    assert R.ruler(state, kandahar) == 0


def test_no_tribe_no_ruler(data, state):
    """RB p7: "you must have at least one tribe": the most loyal armies alone do not rule."""
    kabul = region(data, "kabul")
    put(state, kabul, {}, {BRITISH: 3})
    assert R.ruler(state, kabul) == NONE


def test_a_tie_rules_nobody(data, state):
    """RB p7: "If there is a tie, no player rules the region."""
    herat = region(data, "herat")
    put(state, herat, {0: 1, 1: 2}, {AFGHAN: 1})
    assert R.ruler(state, herat) == NONE


def test_plurality_is_more_than_each_other_player(data, state):
    """RB p7: "a plurality of ruling pieces (more than all others individually)": two tribes
    beat one and one, though not their sum."""
    persia = region(data, "persia")
    put(state, persia, {0: 2, 1: 1, 2: 1}, {})
    assert R.ruler(state, persia) == 0


def test_enemy_armies_block_without_enemy_tribes(data, state):
    """RB p7: "Armies belonging to enemy coalitions can prevent you from taking a ruler token,
    even if there are no enemy tribes."""
    punjab = region(data, "punjab")
    put(state, punjab, {0: 1}, {RUSSIAN: 1})
    assert R.ruler(state, punjab) == NONE


def test_armies_of_a_coalition_nobody_serves_still_block(data):
    """RB p7 "Armies belonging to enemy coalitions can prevent you": the reading taken counts
    a coalition's armies even when no player is loyal to it (two players, both Afghan)."""
    state = new_state(data, 2, random.Random(1), loyalty=[AFGHAN, AFGHAN])
    kabul = region(data, "kabul")
    put(state, kabul, {0: 2}, {BRITISH: 2})
    assert R.ruler(state, kabul) == NONE
    assert R.ruler(state, kabul, unclaimed_armies=False) == 0


def test_players_of_one_coalition_both_count_its_armies(data):
    """RB p7 "Tribes and loyal armies are considered ruling pieces": the armies are loyal to
    both Afghan players, so their tribes decide."""
    state = new_state(data, 2, random.Random(1), loyalty=[AFGHAN, AFGHAN])
    kabul = region(data, "kabul")
    put(state, kabul, {0: 2, 1: 1}, {AFGHAN: 3})
    assert R.ruling_pieces(state, kabul, 1) == 4
    assert R.ruler(state, kabul) == 0


def test_rulers_by_region(data, state):
    """RB p7: each of the six regions has its ruler token, on the board when nobody rules."""
    put(state, region(data, "kabul"), {2: 1}, {})
    expected = [NONE] * len(data.regions)
    expected[region(data, "kabul")] = 2
    assert R.rulers(state) == expected


# --- RB p11 Play: the bribe -----------------------------------------------------------------


def test_rulebook_play_example_bribe(data, state):
    """RB p11 example: "Sikh Merchants in Lahore" is based in Punjab; "Since Hope has two
    tribes in the region, she can command a bribe of up to two rupees, which she does."""
    cati, hope = 1, 2
    put(state, region(data, "punjab"), {hope: 2}, {})
    merchants = card(data, "Sikh Merchants in Lahore")
    assert R.bribe(data, state, cati, merchants) == (hope, 2)
    before = state.rupees[:]
    R.pay_bribe(state, cati, hope, 2, 2)
    assert state.rupees[cati] == before[cati] - 2 and state.rupees[hope] == before[hope] + 2


def test_no_bribe_to_yourself_or_to_nobody(data, state):
    """RB p11: "If you are the ruler of that card's region or if no one rules the region, you
    can freely play the card."""
    merchants = card(data, "Sikh Merchants in Lahore")
    assert R.bribe(data, state, 0, merchants) == (NONE, 0)
    put(state, region(data, "punjab"), {0: 1}, {})
    assert R.bribe(data, state, 0, merchants) == (NONE, 0)


def test_bribe_counts_the_rulers_tribes_only(data, state):
    """RB p11: "a bribe of rupees ... equal to the number of the ruler's tribes in that region"
    (not their armies)."""
    put(state, region(data, "punjab"), {2: 1}, {RUSSIAN: 3})
    assert R.bribe(data, state, 0, card(data, "Sikh Merchants in Lahore")) == (2, 1)


def test_charismatic_courtiers_pay_no_bribe(data, state):
    """cards.yaml charismatic_courtiers "you never pay bribes to play cards"; RB p8 Card
    Precedence: it takes precedence over the rules while in your court."""
    put(state, region(data, "punjab"), {2: 2}, {})
    state.court[0].append(card(data, "Barakzai Sadars"))
    assert R.bribe(data, state, 0, card(data, "Sikh Merchants in Lahore")) == (2, 0)


def test_disregard_for_customs_flag(data, state):
    """cards.yaml Disregard for Customs: "no bribes are paid by anyone" (the caller's flag)."""
    put(state, region(data, "punjab"), {2: 2}, {})
    merchants = card(data, "Sikh Merchants in Lahore")
    assert R.bribe(data, state, 0, merchants, no_bribes=True) == (2, 0)


def test_a_bribe_may_be_waived_in_part_not_raised(data, state):
    """RB p11: "Any portion of this cost can be waived with the permission of the ruler"."""
    before = state.rupees[:]
    R.pay_bribe(state, 0, 2, 1, 2)
    assert state.rupees[0] == before[0] - 1
    with pytest.raises(ValueError):
        R.pay_bribe(state, 0, 2, 3, 2)


# --- RB p16 Playing with Wakhan: her ruling pieces (``State.wakhan``) -----------------------


def test_with_wakhan_she_counts_the_most_numerous_armies_rb_p16(data, state):
    """RB p16: "Do not use Wakhan's pragmatic loyalty to determine who rules in a region;
    instead, when assessing whether Wakhan is competing for control of a region, count her
    tribes and only the most numerous Armies of a single coalition in that region towards the
    number of her ruling pieces": with seat 0 hers, the two Russian armies count for her."""
    kabul = region(data, "kabul")
    put(state, kabul, {0: 1, 1: 1}, {BRITISH: 1, RUSSIAN: 2})
    assert R.ruling_pieces(state, kabul, 0) == 1 and R.ruler(state, kabul) == NONE
    state.wakhan = 0
    assert R.ruling_pieces(state, kabul, 0) == 3
    assert R.ruler(state, kabul) == 0 and R.rulers(state)[kabul] == 0
    assert R.ruled_by(state, 0) == [kabul]
    assert R.ruling_pieces(state, kabul, 1) == 2  # the others count as RB p7 says


def test_with_wakhan_she_still_needs_a_tribe_rb_p16_p7(data, state):
    """RB p7: "you must have at least one tribe", Wakhan too (RB p16 counts her pieces, it
    gives her no ruler without a tribe)."""
    kabul = region(data, "kabul")
    put(state, kabul, {}, {AFGHAN: 3})
    state.wakhan = 0
    assert R.ruling_pieces(state, kabul, 0) == 3 and R.ruler(state, kabul) == NONE


def test_a_player_bribes_wakhan_where_she_rules_rb_p16_p11(data, state):
    """RB p16 "Wakhan must pay all costs, including bribes, just like a regular player", and she
    is paid as any ruler: "a bribe of rupees ... equal to the number of the ruler's tribes in
    that region" (RB p11), where her RB p16 count makes her the ruler."""
    punjab = region(data, "punjab")
    merchants = card(data, "Sikh Merchants in Lahore")
    put(state, punjab, {2: 2}, {AFGHAN: 3})
    assert R.bribe(data, state, 0, merchants) == (NONE, 0)
    state.wakhan = 2
    assert R.bribe(data, state, 0, merchants) == (2, 2)
