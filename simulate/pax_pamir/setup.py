"""A new game of Pax Pamir from seeded streams (RB p4 Setup, p5 Deck Construction at a Glance).

Randomness comes only from the ``random.Random`` streams handed in: ``deck_rng`` builds the
deck; ``order_rng`` (optional) picks who chooses loyalty first and, when no ``loyalty`` is
given, stands in for the players' choices.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import PaxData
from .state import EMPTY, State


def build_deck(
    data: PaxData,
    players: int,
    rng: random.Random,
    removed: frozenset[int] = frozenset(),
    included: Sequence[int] = (),
) -> list[int]:
    """The draw deck, top at the END of the list (RB p4 Build the Draw Deck, steps 1-5).

    Piles are built left to right as ``deck_plan`` lists them; pile 1 goes on top and pile 6 at
    the bottom, so the four piles holding a Dominance Check are "on the bottom of the deck".
    A variant's ``removed`` cards (court cards or events) are never dealt, its ``included``
    court cards always are, each in a random pile (``variants.py``: ``[deck]``).
    """
    plan = data.deck_plan(players)
    # Step 2: "Shuffle the court cards. Create six face-down piles ..., each consisting of
    # five cards, plus one card per player. The remaining court cards will not be used."
    court = [card.id for card in data.court if card.id not in removed]
    rng.shuffle(court)
    if included:  # the last ``used`` cards are dealt: the included ones among them
        used = sum(plan.court_by_pile) - len(included)
        rest = [c for c in court if c not in included]
        tail = rest[len(rest) - used :] + list(included)
        rng.shuffle(tail)
        court = rest[: len(rest) - used] + tail
    # Step 3: one Dominance Check in each of the four rightmost piles (as the plan counts).
    checks = list(data.dominance_checks)
    # Step 4: "Shuffle the remaining event cards. Place two in the second pile from the left
    # and one in each of the remaining four piles to its right."
    events = [event.id for event in data.events if event.id not in removed]
    rng.shuffle(events)
    piles: list[list[int]] = []
    for n_court, n_events, n_checks in zip(
        plan.court_by_pile, plan.events_by_pile, plan.dominance_checks_by_pile, strict=True
    ):
        pile = [court.pop() for _ in range(n_court)]
        pile += [checks.pop(0) for _ in range(n_checks)]
        pile += [events.pop() for _ in range(n_events)]
        rng.shuffle(pile)  # step 5: "separately shuffle each of the six piles"
        piles.append(pile)
    # Step 5: "stack the piles one on top of the other ... Do not shuffle this combined deck."
    deck: list[int] = []
    for pile in reversed(piles):  # pile 6 first (the bottom), pile 1 last (the top)
        deck += pile
    return deck


def deal_market(state: State) -> None:
    """Fill the market from the deck: "filling each market column (top row first), starting
    with the leftmost column" (RB p4 Create the Market)."""
    for column in range(state.columns):
        for row in range(state.rows):
            space = state.space(row, column)
            if state.market[space] == EMPTY and state.deck:
                state.market[space] = state.deck.pop()


def loyalty_order(players: int, first_chooser: int) -> list[int]:
    """Who chooses loyalty when: "Starting with a random player and proceeding clockwise"
    (RB p4 Starting Loyalty); the last of them takes the first turn."""
    return [(first_chooser + k) % players for k in range(players)]


def new_state(
    data: PaxData,
    players: int,
    deck_rng: random.Random,
    order_rng: random.Random | None = None,
    loyalty: Sequence[int] | None = None,
    removed: frozenset[int] = frozenset(),
    included: Sequence[int] = (),
) -> State:
    """A game ready for its first turn (RB p4 Setup), with player ids in clockwise seating order.

    Starting loyalty, RB p4: "Starting with a random player and proceeding clockwise, each
    player adjusts their loyalty dial to indicate the loyalty they have chosen. After the last
    player has chosen their starting loyalty, that player will take the first turn."
    Reading: without ``order_rng`` the seats are already in turn order (P1 = player 0 takes the
    first turn), so the random first chooser is player 1 (player 0 in a 1-seat table). With
    ``order_rng`` the first chooser is ``order_rng.randrange(players)`` and the player before
    them clockwise takes the first turn. ``loyalty`` (coalition id by player) is the players'
    choice; without it each player, in choosing order, takes a uniformly random coalition from
    ``order_rng`` (a stand-in for a choice, which the rulebook leaves free; required then).
    """
    n = data.numbers
    state = State(
        players,
        data.market_rows,
        data.market_columns,
        len(data.regions),
        len(data.borders),
        len(data.coalitions),
        len(data.court),
        len(data.events),
    )
    state.favored = n.favored_suit  # "place the favored suit marker ... next to the political suit"
    state.deck = build_deck(data, players, deck_rng, removed, included)
    deal_market(state)
    # RB p4 Take Player Pieces: "eleven cylinders ... and four rupees. Place one cylinder from
    # each player on the zero space of the victory point track and the rest on [the] board".
    state.rupees = [n.starting_rupees] * players
    state.cylinders = [n.usable_cylinders] * players
    state.points = [0] * players
    # RB p4 Bank and Coalition Blocks; RB p2: "Each coalition has twelve blocks".
    state.blocks = [n.blocks_per_coalition] * len(data.coalitions)
    # RB p4 Starting Loyalty.
    first_chooser = 1 % players if order_rng is None else order_rng.randrange(players)
    order = loyalty_order(players, first_chooser)
    if loyalty is None:
        if order_rng is None:
            raise ValueError("pass loyalty (the players' choices) or an order_rng to draw them")
        chosen = [0] * players
        for player in order:
            chosen[player] = order_rng.randrange(len(data.coalitions))
        loyalty = chosen
    if len(loyalty) != players or not all(0 <= c < len(data.coalitions) for c in loyalty):
        top = len(data.coalitions) - 1
        raise ValueError(f"loyalty must give a coalition id 0..{top} for each of {players} players")
    state.loyalty = list(loyalty)
    state.turn = order[-1]
    return state
