"""The market: costs, purchase payments and the cleanup refill, as pure functions over ``State``.

RB p10 Purchase and RB p9 Cleanup (steps three and four, Instability). Rupees lie on market
*spaces* (``State.market_rupees``): a card sliding left carries its rupees, and rupees left
by a discarded event stay on their space for the next card to take it.
"""

from __future__ import annotations

from . import ledger
from .cards import NONE, PaxData
from .state import EMPTY, State


def is_event(data: PaxData, card: int) -> bool:
    """Event cards, Dominance Checks included, follow the court cards' ids (RB p3, p10)."""
    return card >= len(data.court)


def is_dominance_check(data: PaxData, card: int) -> bool:
    """A Dominance Check event card (RB p15)."""
    return card in data.check_ids


def rupees_per_card(data: PaxData, state: State) -> int:
    """Rupees placed on each card to the left: one, or "two rupees on each card to the left of
    the purchased card" while military cards are favored (RB p10)."""
    if state.favored == data.military:
        return data.numbers.military_cost_multiplier
    return 1


def is_free(data: PaxData, state: State, player: int, card: int) -> bool:
    """Whether ``player`` pays nothing for ``card`` (RB p8 Card Precedence, cards.yaml
    special_abilities): Herat Influence "you pay nothing to purchase Herat cards", Persian
    Influence "... Persia cards", Russian Influence "... Russian patriots"; court cards only."""
    if player < 0 or card == EMPTY or card >= len(data.court):
        return False
    court = state.court[player]
    return any(c in court for c in data.free_by[card])  # compiled in ``PaxData``


def cost(data: PaxData, state: State, column: int, row: int = -1, player: int = NONE) -> int:
    """A card's cost by its column: "The leftmost column is free, the next column costs one
    rupee, then two, etc.", doubled when military is favored (RB p10 Purchase); nothing for
    ``player`` where a card of their court makes the card at ``row``, ``column`` free
    (``is_free``; without ``row`` and ``player`` the column's price)."""
    if row >= 0 and is_free(data, state, player, state.market[state.space(row, column)]):
        return 0
    return column * rupees_per_card(data, state)


def keeps_rupees(data: PaxData, card: int) -> bool:
    """Whether rupees placed on ``card`` in the market stay there: not on Public Withdrawal,
    whose "rupees placed on it in the market leave the game" (cards.yaml event_cards)."""
    return card == EMPTY or not _is_withdrawal(data, card)


def _is_withdrawal(data: PaxData, card: int) -> bool:
    return card == data.withdrawal


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
    not placed a rupee on it this turn ("you may not purchase that card this turn", RB p10);
    Public Withdrawal "cannot be purchased" (cards.yaml event_cards)."""
    card = state.market[state.space(row, column)]
    return (
        card != EMPTY
        and card not in state.placed
        and not _is_withdrawal(data, card)
        and state.rupees[player] >= cost(data, state, column, row, player)
    )


def purchasable(data: PaxData, state: State, player: int) -> list[int]:
    """The market spaces ``player`` may buy from, in space order (RB p10 Purchase): those
    ``can_buy`` allows, computed in one pass."""
    per, rupees, placed = rupees_per_card(data, state), state.rupees[player], state.placed
    court, free_by, n = state.court[player], data.free_by, len(data.court)
    out = []
    for space, card in enumerate(state.market):
        if card == EMPTY or card in placed or card == data.withdrawal:
            continue
        price = (space % state.columns) * per
        if price > rupees and not (card < n and any(c in court for c in free_by[card])):
            continue
        out.append(space)
    return out


def buy(data: PaxData, state: State, player: int, row: int, column: int) -> int:
    """Purchase the card at ``row``, ``column`` for ``player`` and return its id (RB p10).

    Pays the cost onto the cards to the left (nothing for a free card, ``is_free``; a rupee
    paid to Public Withdrawal leaves the game), marks them for this turn, takes the rupees on
    the card, and adds a court card to the hand; events "never enter a player's hand" and are
    left to the caller to resolve (``events.resolve``, which puts the card where it goes).
    """
    if not can_buy(data, state, player, row, column):
        raise ValueError(f"player {player} may not purchase the card at ({row}, {column})")
    each = rupees_per_card(data, state)
    free = is_free(data, state, player, state.market[state.space(row, column)])
    for space in [] if free else payment_spaces(state, row, column):
        state.rupees[player] -= each
        ledger.record(state, player, ledger.PURCHASE, paid=each)
        card = state.market[space]
        if keeps_rupees(data, card):
            state.market_rupees[space] += each
        if card != EMPTY and card not in state.placed:
            state.placed.append(card)
    space = state.space(row, column)
    card = state.market[space]
    # "If you purchase a card that has rupees on it, you receive them along with the card."
    state.rupees[player] += state.market_rupees[space]
    ledger.record(state, player, ledger.MARKET, gained=state.market_rupees[space])
    state.market_rupees[space] = 0
    state.market[space] = EMPTY
    if not is_event(data, card):
        state.hand[player].append(card)
    return card


def end_turn(state: State) -> None:
    """Forget which cards took the active player's rupees: the ban lasts "this turn" (RB p10);
    and which units were placed "this turn" (RB p8 Component Limits)."""
    state.placed.clear()
    state.placed_units.clear()


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


def slide_left(state: State, data: PaxData | None = None) -> None:
    """Move "all cards in that market row (along with their rupees) to their leftmost position.
    If a card moves into a space with rupees from a previously-discarded event card, those
    rupees are placed on the new card taking that position" (RB p9 Cleanup, fourth step).
    With ``data``, rupees so placed on Public Withdrawal leave the game (``keeps_rupees``)."""
    withdrawal = NONE if data is None else data.withdrawal
    for row in range(state.rows):
        first = state.space(row, 0)
        cards = state.market[first : first + state.columns]
        if EMPTY not in cards:
            continue  # a full row does not move
        rupees = state.market_rupees[first : first + state.columns]
        kept = [(card, rupees[c]) for c, card in enumerate(cards) if card != EMPTY]
        left = [0 if card != EMPTY else rupees[c] for c, card in enumerate(cards)]
        for c in range(state.columns):
            card, carried = kept[c] if c < len(kept) else (EMPTY, 0)
            state.market[first + c] = card
            state.market_rupees[first + c] = left[c] + carried
            if card == withdrawal and card != EMPTY:  # ``keeps_rupees``
                state.market_rupees[first + c] = carried


def refill(data: PaxData, state: State) -> int:
    """Slide the rows left, then draw into the empty spaces "starting with the leftmost ...
    In each empty column, fill the top row first" while the deck lasts (RB p9 Cleanup).

    Returns ``EMPTY`` when done, or the id of a Dominance Check just drawn while another one
    is in the market (RB p9 Instability): the caller performs the check, discards both and
    calls ``refill`` again.
    """
    slide_left(state, data)
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
