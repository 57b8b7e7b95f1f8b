"""The market: costs, purchase payments and the cleanup refill, as pure functions over ``State``.

RB p10 Purchase and RB p9 Cleanup (steps three and four, Instability). Rupees lie on market
*spaces* (``State.market_rupees``): a card sliding left carries its rupees, and rupees left
by a discarded event stay on their space for the next card to take it.
"""

from __future__ import annotations

from .cards import PaxData
from .state import EMPTY, State


def is_event(data: PaxData, card: int) -> bool:
    """Event cards, Dominance Checks included, follow the court cards' ids (RB p3, p10)."""
    return card >= len(data.court)


def is_dominance_check(data: PaxData, card: int) -> bool:
    """A Dominance Check event card (RB p15)."""
    return card in data.dominance_checks


def rupees_per_card(data: PaxData, state: State) -> int:
    """Rupees placed on each card to the left: one, or "two rupees on each card to the left of
    the purchased card" while military cards are favored (RB p10)."""
    if data.suits[state.favored] == "military":
        return data.numbers.military_cost_multiplier
    return 1


def cost(data: PaxData, state: State, column: int) -> int:
    """A card's cost by its column: "The leftmost column is free, the next column costs one
    rupee, then two, etc.", doubled when military is favored (RB p10 Purchase)."""
    return column * rupees_per_card(data, state)


def payment_spaces(state: State, row: int, column: int) -> list[int]:
    """The spaces that take the buyer's rupees, one per column to the left (RB p10): "placing
    one rupee on each card in the same row to the left ... If you are ever required to place a
    rupee on a vacant market spot, pay the cost to the card in the same column in the other
    market row." Reading where both spaces of a column are vacant (the RB is silent): the rupee
    lies on the vacant space of the buyer's row, as a discarded event's rupees do (RB p9)."""
    other = state.rows - 1 - row  # two rows: the other one
    spaces = []
    for c in range(column):
        space = state.space(row, c)
        if state.market[space] == EMPTY and state.market[state.space(other, c)] != EMPTY:
            space = state.space(other, c)
        spaces.append(space)
    return spaces


def can_buy(data: PaxData, state: State, player: int, row: int, column: int) -> bool:
    """A card is purchasable if it is there, the player can pay its cost, and the player has
    not placed a rupee on it this turn ("you may not purchase that card this turn", RB p10)."""
    card = state.market[state.space(row, column)]
    return (
        card != EMPTY
        and card not in state.placed
        and state.rupees[player] >= cost(data, state, column)
    )


def purchasable(data: PaxData, state: State, player: int) -> list[int]:
    """The market spaces ``player`` may buy from, in space order (RB p10 Purchase)."""
    return [
        state.space(r, c)
        for r in range(state.rows)
        for c in range(state.columns)
        if can_buy(data, state, player, r, c)
    ]


def buy(data: PaxData, state: State, player: int, row: int, column: int) -> int:
    """Purchase the card at ``row``, ``column`` for ``player`` and return its id (RB p10).

    Pays the cost onto the cards to the left, marks them for this turn, takes the rupees on the
    card, and adds a court card to the hand; events "never enter a player's hand" and are left
    to the caller to resolve.
    """
    if not can_buy(data, state, player, row, column):
        raise ValueError(f"player {player} may not purchase the card at ({row}, {column})")
    each = rupees_per_card(data, state)
    for space in payment_spaces(state, row, column):
        state.rupees[player] -= each
        state.market_rupees[space] += each
        card = state.market[space]
        if card != EMPTY and card not in state.placed:
            state.placed.append(card)
    space = state.space(row, column)
    card = state.market[space]
    # "If you purchase a card that has rupees on it, you receive them along with the card."
    state.rupees[player] += state.market_rupees[space]
    state.market_rupees[space] = 0
    state.market[space] = EMPTY
    if not is_event(data, card):
        state.hand[player].append(card)
    return card


def end_turn(state: State) -> None:
    """Forget which cards took the active player's rupees: the ban lasts "this turn" (RB p10)."""
    state.placed.clear()


def leftmost_events(data: PaxData, state: State) -> list[int]:
    """Spaces of event cards in the leftmost column, in discard order: "The top row is always
    discarded first, followed by the bottom row" (RB p9 Cleanup, third step)."""
    spaces = (state.space(r, 0) for r in range(state.rows))
    return [s for s in spaces if state.market[s] != EMPTY and is_event(data, state.market[s])]


def discard_space(state: State, space: int) -> int:
    """Discard the card on ``space`` and return it: "Any rupees on the discarded event will
    remain in their position" (RB p9 Cleanup, third step)."""
    card = state.market[space]
    state.market[space] = EMPTY
    state.discard.append(card)
    return card


def slide_left(state: State) -> None:
    """Move "all cards in that market row (along with their rupees) to their leftmost position.
    If a card moves into a space with rupees from a previously-discarded event card, those
    rupees are placed on the new card taking that position" (RB p9 Cleanup, fourth step)."""
    for row in range(state.rows):
        first = state.space(row, 0)
        cards = state.market[first : first + state.columns]
        rupees = state.market_rupees[first : first + state.columns]
        kept = [(card, rupees[c]) for c, card in enumerate(cards) if card != EMPTY]
        left = [0 if card != EMPTY else rupees[c] for c, card in enumerate(cards)]
        for c in range(state.columns):
            card, carried = kept[c] if c < len(kept) else (EMPTY, 0)
            state.market[first + c] = card
            state.market_rupees[first + c] = left[c] + carried


def refill(data: PaxData, state: State) -> int:
    """Slide the rows left, then draw into the empty spaces "starting with the leftmost ...
    In each empty column, fill the top row first" while the deck lasts (RB p9 Cleanup).

    Returns ``EMPTY`` when done, or the id of a Dominance Check just drawn while another one
    is in the market (RB p9 Instability): the caller performs the check, discards both and
    calls ``refill`` again.
    """
    slide_left(state)
    for column in range(state.columns):
        for row in range(state.rows):
            space = state.space(row, column)
            if state.market[space] != EMPTY:
                continue
            if not state.deck:
                return EMPTY
            card = state.deck.pop()
            unstable = is_dominance_check(data, card) and any(
                is_dominance_check(data, other) for other in state.market if other != EMPTY
            )
            state.market[space] = card
            if unstable:
                return card
    return EMPTY
