"""Cleanup after a turn (RB p9 Cleanup, its four steps), as pure functions over ``State``.

The discards are the player's choice, so they are arguments (the strategy decides later); the
events discarded from the market's leftmost column are returned for the caller to resolve
(their effects are not here), and the refill is ``market.refill``. A step that raises leaves
the state as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import PaxData
from .market import discard_space, leftmost_events, refill
from .play import Repay, discard_from_court, payer
from .state import EMPTY, State


def stars(data: PaxData, state: State, player: int, suit: str) -> int:
    """The sum of ranks of ``suit`` cards in ``player``'s court: "a card's rank is also added to
    your total stars in a specific suit" (RB p6 Rank and Privilege)."""
    s = data.suits.index(suit)
    return sum(data.court[c].rank for c in state.court[player] if data.court[c].suit == s)


def court_limit(data: PaxData, state: State, player: int) -> int:
    """ "three plus the sum of the purple stars on cards in your court" (RB p9 Cleanup, p6 Your
    Court); purple is the political suit (RB p6 "Political Stars enable you to maintain a
    larger court")."""
    return data.numbers.court_limit_base + stars(data, state, player, "political")


def hand_limit(data: PaxData, state: State, player: int) -> int:
    """ "two plus the sum of the blue stars on cards in your court" (RB p9 Cleanup, p6 Your
    Hand); blue is the intelligence suit ("Intelligence Stars allow you to hold more cards in
    your hand")."""
    return data.numbers.hand_limit_base + stars(data, state, player, "intelligence")


def _restore(state: State, backup: State) -> None:
    for name in State.__slots__:
        setattr(state, name, getattr(backup, name))


def discard_court_to_limit(
    data: PaxData,
    state: State,
    player: int,
    discards: Sequence[int],
    pay_with: Sequence[int] | Repay = (),
) -> None:
    """RB p9 Cleanup, first step: "if you have more cards than three plus the sum of the purple
    stars on cards in your court, discard cards in your court until you are within your limit."

    ``discards`` are court cards in the order discarded; the limit is counted again after each
    one (a discarded political card lowers it), and the list must end exactly when the court is
    within the limit. Each discard is a court discard with all RB p8 says
    (``play.discard_from_court``: spies home, leverage repaid from ``pay_with``, overthrow).
    """
    backup = state.copy()
    pay = payer(pay_with)
    try:
        todo = list(discards)
        while len(state.court[player]) > court_limit(data, state, player):
            if not todo:
                raise ValueError(f"player {player} is over the court limit: name a card")
            card = todo.pop(0)
            if card not in state.court[player]:
                raise ValueError(f"card {card} is not in the court of player {player}")
            discard_from_court(data, state, player, card, pay)
        if todo:
            raise ValueError(f"player {player} is within the court limit: {todo} not discarded")
    except ValueError:
        _restore(state, backup)
        raise


def discard_hand_to_limit(
    data: PaxData, state: State, player: int, discards: Sequence[int]
) -> None:
    """RB p9 Cleanup, second step: "if you have more cards than two plus the sum of the blue
    stars on cards in your court, discard cards in your hand until you are within your limit."

    ``discards``: exactly the excess, hand cards, to the discard pile in that order.
    """
    excess = len(state.hand[player]) - hand_limit(data, state, player)
    cards = list(discards)
    if len(cards) != max(0, excess):
        raise ValueError(f"player {player} must discard {max(0, excess)} hand cards, not {cards}")
    hand = list(state.hand[player])
    for card in cards:
        if card not in hand:
            raise ValueError(f"card {card} is not in the hand of player {player}")
        hand.remove(card)
    state.hand[player] = hand
    state.discard += cards


def discard_events(data: PaxData, state: State) -> list[int]:
    """RB p9 Cleanup, third step: "discard any event cards that are in the leftmost column of
    the market ... The top row is always discarded first, followed by the bottom row." Returns
    their ids in that order: "all players are affected by the text or impact icon at the top of
    the card", and a Dominance Check is resolved "when triggered during cleanup" (RB p15); both
    are the caller's."""
    return [discard_space(state, space) for space in leftmost_events(data, state)]


@dataclass(frozen=True, slots=True)
class Cleanup:
    """What ``cleanup`` leaves to the caller, in rule order: resolve ``events`` (step three),
    then, if ``instability`` is not ``EMPTY``, the Dominance Check it names (RB p9 Instability),
    discard both checks and call ``market.refill`` again."""

    events: tuple[int, ...]
    instability: int = EMPTY


def cleanup(
    data: PaxData,
    state: State,
    player: int,
    court_discards: Sequence[int] = (),
    hand_discards: Sequence[int] = (),
    pay_with: Sequence[int] | Repay = (),
) -> Cleanup:
    """The four steps of RB p9 Cleanup for ``player``, whose turn it was.

    Steps one and two take the chosen discards (the hand limit is counted after step one, as
    the court's intelligence stars stand then); step three discards the leftmost column's
    events; step four refills the market (``market.refill``). The events' effects touch no
    market card, so resolving them after the refill stops keeps the rule's order; a refill
    stopped by instability waits for the caller. If a step raises, the state is as it was.
    """
    backup = state.copy()
    try:
        discard_court_to_limit(data, state, player, court_discards, pay_with)
        discard_hand_to_limit(data, state, player, hand_discards)
    except ValueError:
        _restore(state, backup)
        raise
    events = tuple(discard_events(data, state))
    return Cleanup(events, refill(data, state))
