"""What a seat is asked and what it sees (issue 66, hidden information): a ``Decision`` of
small-integer options, and an ``Observation`` that shows the board, the market, every court,
every player's rupees and hand size and the seat's own hand, never another's hand cards or
the deck's order; search bots deal the unseen cards again (``determinise``)."""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from . import market
from .cards import PaxData
from .state import State

HIDDEN = -1  # a card the observer cannot see (another's hand, the deck)


class Decision(NamedTuple):
    """What a seat is asked: ``kind``, its legal ``options`` (small ints), the deciding seat's
    name (``faction``, the field strategies read) and a ``context`` (the card concerned)."""

    kind: str
    faction: str
    options: tuple[int, ...]
    context: Any = None


class Observation:
    """What one seat sees (issue 66, hidden information): the board, the market, every court,
    every player's rupees and hand size, its own hand; never another's hand cards or the
    deck's order. ``state`` is a copy with those cards ``HIDDEN``, made when first read."""

    __slots__ = ("data", "rules", "player", "seats", "_state", "_masked")

    def __init__(self, rules: Any, player: int, state: State) -> None:
        self.data = rules.data
        self.rules = rules
        self.player = player
        self.seats = rules.seats
        self._state = state
        self._masked: State | None = None

    @property
    def state(self) -> State:
        if self._masked is None:
            self._masked = mask(self._state, self.player)
        return self._masked

    def determinise(self, rng: random.Random) -> State:
        """A full state consistent with what this seat sees: the unseen cards dealt at random
        into the other hands and the deck (search bots, issue 66)."""
        return determinise(self.data, self._state, self.player, rng)


def mask(state: State, player: int) -> State:
    """A copy of ``state`` with other hands and the deck ``HIDDEN`` (their sizes kept)."""
    out = state.copy()
    for p in range(state.players):
        if p != player:
            out.hand[p] = [HIDDEN] * len(out.hand[p])
    out.deck = [HIDDEN] * len(out.deck)
    return out


def determinise(data: PaxData, state: State, player: int, rng: random.Random) -> State:
    """Deal the cards ``player`` cannot see (other hands and the deck) again at random: a
    Dominance Check never into a hand (they "never enter a player's hand", RB p10)."""
    out = state.copy()
    unseen = [c for p in range(state.players) if p != player for c in state.hand[p]]
    unseen += state.deck
    court = [c for c in unseen if not market.is_event(data, c)]
    rng.shuffle(court)
    for p in range(state.players):
        if p != player:
            k = len(state.hand[p])
            out.hand[p], court = court[:k], court[k:]
    rest = court + [c for c in unseen if market.is_event(data, c)]
    rng.shuffle(rest)
    out.deck = rest
    return out
