"""Pax Pamir setup as the rulebook describes it (RB p4 Setup, p5 Deck Construction)."""

from __future__ import annotations

import random
import timeit
from collections import Counter

import pytest

from simulate.pax_pamir.cards import PaxData
from simulate.pax_pamir.setup import build_deck, loyalty_order, new_state
from simulate.pax_pamir.state import EMPTY

PLAYERS = (2, 3, 4, 5)


def kinds(data: PaxData, cards) -> Counter:
    """Court cards, Dominance Checks and other events among ``cards``."""
    checks = set(data.dominance_checks)
    return Counter(
        "court" if c < len(data.court) else "check" if c in checks else "event" for c in cards
    )


# --- RB p4 Build the Draw Deck -----------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_the_deck_has_six_piles_of_five_plus_n_court_cards_four_checks_and_six_events(
    data, players
):
    # RB p4 steps 2-4: six piles of 5 + n court cards; 4 Dominance Checks; 2 + 4 other events
    deck = build_deck(data, players, random.Random(1))
    assert len(deck) == 6 * (5 + players) + 10 == data.deck_plan(players).size
    assert kinds(data, deck) == {"court": 6 * (5 + players), "check": 4, "event": 6}
    assert len(set(deck)) == len(deck)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_two_top_piles_hold_no_dominance_check_and_the_second_holds_two_events(data, players):
    # RB p4 step 5: "the four piles containing the Dominance Check event cards are on the
    # bottom of the deck"; pile 1 (top) is court cards only, pile 2 has two events (step 4)
    deck = build_deck(data, players, random.Random(players))[::-1]  # top first
    size = 5 + players
    pile1, pile2 = deck[:size], deck[size : 2 * size + 2]
    assert kinds(data, pile1) == {"court": size}
    assert kinds(data, pile2) == {"court": size, "event": 2}
    rest = deck[2 * size + 2 :]
    for k in range(4):
        pile = rest[k * (size + 2) : (k + 1) * (size + 2)]
        assert kinds(data, pile) == {"court": size, "check": 1, "event": 1}


def test_unused_court_cards_and_events_leave_the_game(data):
    # RB p4 step 2 "The remaining court cards will not be used"; step 4 "six remaining events"
    deck = build_deck(data, 2, random.Random(3))
    assert len(set(range(100)) - set(deck)) == 100 - 42
    assert len({e.id for e in data.events} - set(deck)) == 6


def test_each_pile_is_shuffled_so_the_draws_vary_with_the_seed(data):
    # RB p4 step 2 and 5: the court cards and each pile are shuffled
    tops = {tuple(build_deck(data, 4, random.Random(seed))[-5:]) for seed in range(20)}
    assert len(tops) == 20


# --- RB p4 Create the Market, Take Player Pieces, Favored Suit ---------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_the_market_is_full_after_setup_and_dealt_column_by_column_top_row_first(data, players):
    # RB p4 Create the Market: "filling each market column (top row first), starting with the
    # leftmost column"
    deck = build_deck(data, players, random.Random(7))
    state = new_state(data, players, random.Random(7), loyalty=[0] * players)
    assert EMPTY not in state.market and len(state.market) == 12
    top_first = deck[::-1]
    dealt = [state.market[state.space(r, c)] for c in range(6) for r in range(2)]
    assert dealt == top_first[:12]
    assert state.deck == deck[:-12]
    assert state.market_rupees == [0] * 12


def test_no_dominance_check_reaches_the_market_at_setup(data):
    # RB p4 step 5: the checks lie in the bottom four piles; the first 12 cards come from piles 1-2
    for seed in range(50):
        state = new_state(data, 2, random.Random(seed), loyalty=[0, 1])
        assert not set(state.market) & set(data.dominance_checks)


def test_players_start_with_four_rupees_ten_cylinders_and_no_cards(data):
    # RB p4 Take Player Pieces: eleven cylinders (one on the VP track) and four rupees
    state = new_state(data, 3, random.Random(0), loyalty=[0, 1, 2])
    assert state.rupees == [4, 4, 4]
    assert state.cylinders == [10, 10, 10]
    assert state.points == [0, 0, 0]
    assert state.hand == [[], [], []] and state.court == [[], [], []]


def test_the_favored_suit_starts_political_and_each_coalition_has_twelve_blocks(data):
    # RB p4 Starting Favored Suit: "next to the political suit"; RB p2 "twelve blocks"
    state = new_state(data, 2, random.Random(0), loyalty=[0, 0])
    assert data.suits[state.favored] == "political"
    assert state.blocks == [12, 12, 12]
    assert sum(state.armies) == sum(state.tribes) == sum(state.roads) == 0


# --- RB p4 Starting Loyalty --------------------------------------------------------------------


def test_the_last_player_to_choose_loyalty_takes_the_first_turn(data):
    # RB p4: "Starting with a random player and proceeding clockwise ... After the last player
    # has chosen their starting loyalty, that player will take the first turn."
    assert loyalty_order(4, 2) == [2, 3, 0, 1]
    for seed in range(10):
        rng = random.Random(seed)
        first = random.Random(seed).randrange(4)
        state = new_state(data, 4, random.Random(0), order_rng=rng)
        assert state.turn == (first - 1) % 4


def test_without_an_order_stream_seats_are_in_turn_order(data):
    # Reading: seats P1..Pn are named in turn order, so P1 (player 0) chose last and starts
    state = new_state(data, 3, random.Random(0), loyalty=[2, 1, 0])
    assert state.turn == 0 and state.loyalty == [2, 1, 0]


def test_loyalty_is_the_players_choice_or_drawn_from_the_order_stream(data):
    drawn = {
        tuple(new_state(data, 5, random.Random(0), random.Random(s)).loyalty) for s in range(9)
    }
    assert len(drawn) > 1 and all(0 <= c <= 2 for lo in drawn for c in lo)
    with pytest.raises(ValueError):
        new_state(data, 2, random.Random(0))
    with pytest.raises(ValueError):
        new_state(data, 2, random.Random(0), loyalty=[0, 3])


def test_player_counts_outside_2_to_5_are_refused(data):
    # RB p1: 2-5 players (Wakhan counts as one, RB p16)
    for players in (1, 6):
        with pytest.raises(ValueError):
            new_state(data, players, random.Random(0), loyalty=[0] * players)


# --- seeds and the flat state ------------------------------------------------------------------


def test_setup_is_reproducible_from_the_same_seeds_and_differs_with_others(data):
    a = new_state(data, 4, random.Random(11), random.Random(5))
    b = new_state(data, 4, random.Random(11), random.Random(5))
    c = new_state(data, 4, random.Random(12), random.Random(5))
    d = new_state(data, 4, random.Random(11), random.Random(6))
    assert a == b and a.digest() == b.digest()
    assert c.deck != a.deck and c.digest() != a.digest()
    assert (d.turn, d.loyalty) != (a.turn, a.loyalty) and d.deck == a.deck


def test_copy_is_independent_and_equal(data):
    state = new_state(data, 3, random.Random(1), loyalty=[0, 1, 2])
    before = state.digest()
    twin = state.copy()
    assert twin == state and twin.digest() == before
    twin.hand[0].append(5)
    twin.court[1].append(6)
    twin.prizes[2].append(7)
    twin.deck.pop()
    twin.market[0] = EMPTY
    twin.rupees[0] = 99
    twin.armies[0] = 1
    twin.placed.append(3)
    assert state.digest() == before and twin.digest() != before


def test_copy_takes_microseconds(data):
    # issue 66: "a state copy ... in microseconds" (a loose bound: not a benchmark)
    state = new_state(data, 5, random.Random(1), loyalty=[0] * 5)
    per_copy = min(timeit.repeat(state.copy, number=1000, repeat=3)) / 1000
    assert per_copy < 100e-6
