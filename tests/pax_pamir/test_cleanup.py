"""Cleanup after a turn, step by step as RB p9 Cleanup lists them (limits from RB p6)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import cleanup as C
from simulate.pax_pamir.cards import PaxData
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import EMPTY, State
from tests.pax_pamir.support import card

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2


@pytest.fixture
def state(data) -> State:
    return new_state(data, 3, random.Random(4), loyalty=[AFGHAN, BRITISH, RUSSIAN])


def cards(data: PaxData, *names: str) -> list[int]:
    return [card(data, n) for n in names]


ECONOMIC = ("Sikh Merchants in Lahore", "Money Lenders", "Ghilzai Nomads", "Kabul Bazaar")


# --- RB p6, p9: the limits -------------------------------------------------------------------


def test_court_limit_is_three_plus_political_stars(data, state):
    """RB p9: "three plus the sum of the purple stars on cards in your court"."""
    assert C.court_limit(data, state, 0) == 3
    state.court[0] += cards(data, "Ranjit Singh", "Mohan Lal")  # political 2, intelligence 3
    assert C.court_limit(data, state, 0) == 5


def test_hand_limit_is_two_plus_intelligence_stars(data, state):
    """RB p9: "two plus the sum of the blue stars on cards in your court"."""
    assert C.hand_limit(data, state, 0) == 2
    state.court[0] += cards(data, "Ranjit Singh", "Mohan Lal")
    assert C.hand_limit(data, state, 0) == 5


# --- RB p9 Cleanup, first step ----------------------------------------------------------------


def test_court_over_the_limit_discards_the_chosen_cards(data, state):
    """RB p9: "discard cards in your court until you are within your limit"."""
    state.court[0] += cards(data, *ECONOMIC)
    C.discard_court_to_limit(data, state, 0, [card(data, "Money Lenders")])
    assert state.court[0] == cards(
        data, "Sikh Merchants in Lahore", "Ghilzai Nomads", "Kabul Bazaar"
    )
    assert state.discard[-1] == card(data, "Money Lenders")


def test_losing_a_political_card_lowers_the_court_limit(data, state):
    """RB p9 "until you are within your limit": the limit is counted again after a discard."""
    state.court[0] += cards(data, "Ranjit Singh", *ECONOMIC)  # 5 cards, limit 5
    state.court[0].append(card(data, "Akali Sikhs"))  # 6 cards
    with pytest.raises(ValueError):  # limit now 3, four cards still to go
        C.discard_court_to_limit(data, state, 0, [card(data, "Ranjit Singh")])
    assert len(state.court[0]) == 6  # as it was
    C.discard_court_to_limit(data, state, 0, [card(data, "Akali Sikhs")])
    assert len(state.court[0]) == 5


def test_no_discard_within_the_limit(data, state):
    """RB p9: only "if you have more cards than" the limit; naming one more is refused."""
    state.court[0] += cards(data, *ECONOMIC[:3])
    with pytest.raises(ValueError):
        C.discard_court_to_limit(data, state, 0, [card(data, "Money Lenders")])
    assert len(state.court[0]) == 3


def test_court_discard_sends_spies_home(data, state):
    """RB p9 first step is a court discard, so RB p8 holds: "Any spies on the card are lost"."""
    state.court[0] += cards(data, *ECONOMIC)
    lenders = card(data, "Money Lenders")
    state.spies[state.spy_at(lenders, 1)] = 1
    cylinders = state.cylinders[1]
    C.discard_court_to_limit(data, state, 0, [lenders])
    assert state.spies[state.spy_at(lenders, 1)] == 0 and state.cylinders[1] == cylinders + 1


# --- RB p9 Cleanup, second step ---------------------------------------------------------------


def test_hand_over_the_limit_discards_the_chosen_cards(data, state):
    """RB p9: "discard cards in your hand until you are within your limit"."""
    state.hand[0] += cards(data, *ECONOMIC[:3])
    C.discard_hand_to_limit(data, state, 0, [card(data, "Ghilzai Nomads")])
    assert state.hand[0] == cards(data, *ECONOMIC[:2])
    assert state.discard[-1] == card(data, "Ghilzai Nomads")


def test_hand_discard_must_be_exactly_the_excess(data, state):
    """RB p9: discard "until you are within your limit", no fewer, and no more."""
    state.hand[0] += cards(data, *ECONOMIC[:3])
    for wrong in ([], cards(data, *ECONOMIC[:2])):
        with pytest.raises(ValueError):
            C.discard_hand_to_limit(data, state, 0, wrong)
    assert len(state.hand[0]) == 3


def test_hand_limit_is_counted_after_the_court_discards(data, state):
    """RB p9: the second step follows the first: a discarded intelligence card lowers it."""
    state.court[0] += cards(data, "Mohan Lal", *ECONOMIC)  # 5 cards, limit 3; hand limit 5
    state.hand[0] += cards(data, "Ranjit Singh", "Akali Sikhs", "Fath-Ali Shah")
    mohan, lenders = card(data, "Mohan Lal"), card(data, "Money Lenders")
    result = C.cleanup(data, state, 0, [mohan, lenders], [card(data, "Akali Sikhs")])
    assert len(state.court[0]) == 3 and len(state.hand[0]) == 2
    assert isinstance(result, C.Cleanup)


def test_cleanup_that_raises_changes_nothing(data, state):
    """A refused cleanup (too few hand discards, RB p9) leaves the state as it was."""
    state.court[0] += cards(data, *ECONOMIC)
    state.hand[0] += cards(data, "Ranjit Singh", "Akali Sikhs", "Fath-Ali Shah")
    before = state.copy()
    with pytest.raises(ValueError):
        C.cleanup(data, state, 0, [card(data, "Money Lenders")], [])
    assert state == before


# --- RB p9 Cleanup, third and fourth steps ----------------------------------------------------


def leftmost(state: State, top: int, bottom: int) -> None:
    state.market[state.space(0, 0)] = top
    state.market[state.space(1, 0)] = bottom


def test_leftmost_events_discarded_top_row_first(data, state):
    """RB p9: "discard any event cards that are in the leftmost column of the market ... The
    top row is always discarded first, followed by the bottom row."""
    first, second = data.events[0].id, data.events[1].id
    leftmost(state, first, second)
    assert C.discard_events(data, state) == [first, second]
    assert state.discard[-2:] == [first, second]
    assert state.market[state.space(0, 0)] == state.market[state.space(1, 0)] == EMPTY


def test_court_cards_in_the_leftmost_column_stay(data, state):
    """RB p9: only "event cards" in the leftmost column are discarded."""
    court_card = state.market[state.space(0, 0)]
    event = data.events[0].id
    leftmost(state, court_card, event)
    assert C.discard_events(data, state) == [event]
    assert state.market[state.space(0, 0)] == court_card


def test_an_events_rupees_pass_to_the_card_sliding_in(data, state):
    """RB p9: "Any rupees on the discarded event will remain in their position" and "those
    rupees are placed on the new card taking that position"."""
    event = data.events[0].id
    state.market[state.space(0, 0)] = event
    state.market_rupees[state.space(0, 0)] = 2
    nxt = state.market[state.space(0, 1)]
    result = C.cleanup(data, state, 0)
    assert result.events == (event,)
    assert state.market[state.space(0, 0)] == nxt and state.market_rupees[state.space(0, 0)] == 2


def test_cleanup_refills_the_market(data, state):
    """RB p9 fourth step: "draw new cards to fill in any empty spaces ... returning the market
    to its normal size"."""
    leftmost(state, data.events[0].id, data.events[1].id)
    deck = len(state.deck)
    result = C.cleanup(data, state, 0)
    assert result.instability == EMPTY
    assert EMPTY not in state.market and len(state.deck) == deck - 2


def test_instability_is_handed_to_the_caller(data, state):
    """RB p9 Instability: "If a Dominance Check card is revealed and there is already a
    Dominance Check card in the market, immediately perform a Dominance Check"."""
    first, second = data.dominance_checks[:2]
    state.market[state.space(0, 3)] = first
    state.market[state.space(1, 0)] = data.events[0].id
    state.deck.append(second)
    result = C.cleanup(data, state, 0)
    assert result.events == (data.events[0].id,) and result.instability == second
