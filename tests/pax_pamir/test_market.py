"""The market as the rulebook describes it (RB p10 Purchase, RB p9 Cleanup and Instability)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import market as M
from simulate.pax_pamir.cards import PaxData
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import EMPTY, State

TOP, BOTTOM = 0, 1


@pytest.fixture
def state(data) -> State:
    return new_state(data, 3, random.Random(4), loyalty=[0, 1, 2])


def favor(data: PaxData, state: State, suit: str) -> None:
    state.favored = data.suits.index(suit)


def card_at(state: State, row: int, column: int) -> int:
    return state.market[state.space(row, column)]


def rupees_at(state: State, row: int, column: int) -> int:
    return state.market_rupees[state.space(row, column)]


# --- RB p10 Purchase: cost -------------------------------------------------------------------


def test_the_leftmost_column_is_free_and_each_column_costs_one_more(data, state):
    # RB p10: "The leftmost column is free, the next column costs one rupee, then two, etc."
    assert [M.cost(data, state, c) for c in range(6)] == [0, 1, 2, 3, 4, 5]


def test_costs_double_while_military_is_favored(data, state):
    # RB p10 Purchasing Cards when Military Cards are Favored: "the cost ... is doubled"
    favor(data, state, "military")
    assert [M.cost(data, state, c) for c in range(6)] == [0, 2, 4, 6, 8, 10]


@pytest.mark.parametrize("suit", ["political", "intelligence", "economic"])
def test_other_favored_suits_leave_the_cost_alone(data, state, suit):
    favor(data, state, suit)
    assert M.cost(data, state, 4) == 4


# --- RB p10 Purchase: payment ----------------------------------------------------------------


def test_buying_places_one_rupee_on_each_card_to_the_left_in_the_same_row(data, state):
    # RB p10: "placing one rupee on each card in the same row to the left of the card"
    card = card_at(state, BOTTOM, 3)
    assert M.buy(data, state, 0, BOTTOM, 3) == card
    assert [rupees_at(state, BOTTOM, c) for c in range(6)] == [1, 1, 1, 0, 0, 0]
    assert [rupees_at(state, TOP, c) for c in range(6)] == [0] * 6
    assert state.rupees[0] == 4 - 3
    assert state.hand[0] == [card] and card_at(state, BOTTOM, 3) == EMPTY


def test_buying_with_military_favored_places_two_rupees_on_each_card_to_the_left(data, state):
    # RB p10: "place two rupees on each card to the left of the purchased card instead of one"
    favor(data, state, "military")
    M.buy(data, state, 1, TOP, 2)
    assert [rupees_at(state, TOP, c) for c in range(3)] == [2, 2, 0]
    assert state.rupees[1] == 0


def test_the_buyer_receives_the_rupees_on_the_purchased_card(data, state):
    # RB p10: "If you purchase a card that has rupees on it, you receive them along with it"
    state.market_rupees[state.space(TOP, 0)] = 3
    M.buy(data, state, 2, TOP, 0)
    assert state.rupees[2] == 7 and rupees_at(state, TOP, 0) == 0


def test_a_card_you_placed_a_rupee_on_this_turn_cannot_be_bought(data, state):
    # RB p10: "If you place a rupee on a market card for any reason, you may not purchase that
    # card this turn."
    M.buy(data, state, 0, TOP, 2)
    assert not M.can_buy(data, state, 0, TOP, 0)
    assert not M.can_buy(data, state, 0, TOP, 1)
    assert M.can_buy(data, state, 0, BOTTOM, 0)
    with pytest.raises(ValueError):
        M.buy(data, state, 0, TOP, 1)
    M.end_turn(state)  # the ban lasts "this turn"
    assert M.can_buy(data, state, 1, TOP, 1)


def test_a_player_needs_the_rupees_to_pay_the_cost(data, state):
    # RB p10: "In order to purchase a card, you must be able to pay the card's cost"
    assert M.can_buy(data, state, 0, TOP, 4)
    assert not M.can_buy(data, state, 0, TOP, 5)
    state.rupees[0] = 0
    assert M.purchasable(data, state, 0) == [state.space(TOP, 0), state.space(BOTTOM, 0)]


def test_an_empty_space_cannot_be_bought(data, state):
    state.market[state.space(TOP, 0)] = EMPTY
    assert not M.can_buy(data, state, 0, TOP, 0)


def test_a_rupee_due_on_a_vacant_spot_goes_to_the_card_in_the_other_row(data, state):
    # RB p10: "If you are ever required to place a rupee on a vacant market spot, pay the cost
    # to the card in the same column in the other market row."
    state.market[state.space(TOP, 1)] = EMPTY
    other = card_at(state, BOTTOM, 1)
    M.buy(data, state, 0, TOP, 2)
    assert rupees_at(state, BOTTOM, 1) == 1 and rupees_at(state, TOP, 1) == 0
    assert other in state.placed and not M.can_buy(data, state, 0, BOTTOM, 1)


def test_with_both_spaces_of_a_column_vacant_the_rupee_lies_on_the_buyers_row(data, state):
    # Reading (RB silent): the rupee stays on the vacant space, as discarded events' rupees do
    state.market[state.space(TOP, 0)] = EMPTY
    state.market[state.space(BOTTOM, 0)] = EMPTY
    M.buy(data, state, 0, BOTTOM, 1)
    assert rupees_at(state, BOTTOM, 0) == 1 and state.rupees[0] == 3


def test_a_purchased_event_never_enters_the_hand(data, state):
    # RB p10 Event Cards: "never enter a player's hand and are resolved the moment they are bought"
    event = data.events[0].id
    state.market[state.space(TOP, 0)] = event
    assert M.buy(data, state, 0, TOP, 0) == event
    assert state.hand[0] == []


def test_the_rulebook_purchase_example(data, state):
    # RB p10 PURCHASE EXAMPLE: Chas buys the third card in the top row, cannot then buy the first
    # two, buys "Arthur Conolly" paying the first two top cards and, the third slot being
    # vacant, the opposite row; he takes the two rupees that lay on Arthur Conolly.
    chas = 0
    conolly = next(card.id for card in data.court if card.name == "Arthur Conolly")
    state.market[state.space(TOP, 3)] = conolly
    state.market_rupees[state.space(TOP, 3)] = 2
    state.rupees[chas] = 5
    M.buy(data, state, chas, TOP, 2)
    assert state.rupees[chas] == 3
    assert not M.can_buy(data, state, chas, TOP, 0) and not M.can_buy(data, state, chas, TOP, 1)
    assert M.buy(data, state, chas, TOP, 3) == conolly
    assert [rupees_at(state, TOP, c) for c in range(4)] == [2, 2, 0, 0]
    assert rupees_at(state, BOTTOM, 2) == 1
    assert state.rupees[chas] == 3 - 3 + 2
    assert state.hand[chas][-1] == conolly and len(state.hand[chas]) == 2


# --- RB p9 Cleanup: events in the leftmost column, refill ---------------------------------------


def test_events_in_the_leftmost_column_are_discarded_top_row_first(data, state):
    # RB p9 Cleanup, third step: "The top row is always discarded first, followed by the bottom"
    a, b = data.events[0].id, data.dominance_checks[0]
    state.market[state.space(TOP, 0)] = a
    state.market[state.space(BOTTOM, 0)] = b
    state.market[state.space(TOP, 1)] = data.events[1].id  # not in the leftmost column
    assert M.leftmost_events(data, state) == [state.space(TOP, 0), state.space(BOTTOM, 0)]


def test_a_discarded_events_rupees_stay_in_their_position(data, state):
    # RB p9 Cleanup: "Any rupees on the discarded event will remain in their position."
    state.market_rupees[state.space(TOP, 0)] = 2
    card = M.discard_space(state, state.space(TOP, 0))
    assert state.discard == [card] and card_at(state, TOP, 0) == EMPTY
    assert rupees_at(state, TOP, 0) == 2


def test_refill_slides_cards_left_with_their_rupees_and_deals_from_the_deck(data, state):
    # RB p9 Cleanup, fourth step: cards move "(along with their rupees) to their leftmost
    # position"; then "draw new cards ... starting with the leftmost ... fill the top row first"
    row = [card_at(state, TOP, c) for c in range(6)]
    state.market[state.space(TOP, 1)] = EMPTY
    state.market[state.space(TOP, 3)] = EMPTY
    state.market[state.space(BOTTOM, 4)] = EMPTY
    state.market_rupees[state.space(TOP, 2)] = 1
    state.market_rupees[state.space(TOP, 5)] = 3
    top_of_deck = state.deck[-3:][::-1]
    assert M.refill(data, state) == EMPTY
    assert [card_at(state, TOP, c) for c in range(4)] == [row[0], row[2], row[4], row[5]]
    assert [rupees_at(state, TOP, c) for c in range(6)] == [0, 1, 0, 3, 0, 0]
    # The bottom row's gap slid to column 5; column 4 then column 5, top row first.
    assert card_at(state, TOP, 4) == top_of_deck[0]
    assert card_at(state, TOP, 5) == top_of_deck[1]
    assert card_at(state, BOTTOM, 5) == top_of_deck[2]
    assert EMPTY not in state.market


def test_rupees_left_by_a_discarded_event_go_to_the_card_sliding_onto_their_space(data, state):
    # RB p9: "If a card moves into a space with rupees from a previously-discarded event card,
    # those rupees are placed on the new card taking that position."
    state.market_rupees[state.space(BOTTOM, 0)] = 2
    M.discard_space(state, state.space(BOTTOM, 0))
    next_card = card_at(state, BOTTOM, 1)
    state.market_rupees[state.space(BOTTOM, 1)] = 1
    M.refill(data, state)
    assert card_at(state, BOTTOM, 0) == next_card and rupees_at(state, BOTTOM, 0) == 3


def test_refill_stops_when_the_deck_runs_out(data, state):
    # RB p9: "returning the market to its normal size, if possible"
    state.deck = [state.deck[-1]]
    state.market[state.space(TOP, 0)] = EMPTY
    state.market[state.space(BOTTOM, 0)] = EMPTY
    assert M.refill(data, state) == EMPTY
    assert state.market.count(EMPTY) == 1 and state.deck == []


def test_a_second_dominance_check_revealed_stops_the_refill_for_instability(data, state):
    # RB p9 Instability: "If a Dominance Check card is revealed and there is already a Dominance
    # Check card in the market, immediately perform a Dominance Check"
    first, second = data.dominance_checks[:2]
    state.market[state.space(TOP, 5)] = first
    state.market[state.space(TOP, 0)] = EMPTY
    state.market[state.space(BOTTOM, 0)] = EMPTY
    state.deck += [data.court[0].id, second]  # ``second`` on top
    assert M.refill(data, state) == second
    assert second in state.market and state.deck[-1] == data.court[0].id
    assert state.market.count(EMPTY) == 1


def test_a_single_dominance_check_revealed_is_no_instability(data, state):
    state.market[state.space(TOP, 0)] = EMPTY
    state.deck.append(data.dominance_checks[0])
    assert M.refill(data, state) == EMPTY and EMPTY not in state.market
