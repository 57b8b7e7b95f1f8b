"""Wakhan's AI deck and what its face-up card says (RB p16 Setting Up, Wakhan's Turn; RB
p17-18): the draw, the red and black arrows, her region priority, her pragmatic loyalty and the
player the red arrow targets."""

from __future__ import annotations

import random

from ..cards import PaxData, WakhanCard
from ..state import State

TOP, BOTTOM = 0, 1  # market rows, as the red arrow names them (RB p17)


class WakhanState:
    """Wakhan's AI cards (RB p16): ``deck`` (indexes into ``PaxData.wakhan``, top at the END of
    the list) and ``discard`` (face up "to the immediate right of the AI card draw deck", the
    card drawn this turn last)."""

    __slots__ = ("deck", "discard")

    def __init__(self, deck: list[int], discard: list[int] | None = None) -> None:
        self.deck = deck
        self.discard = [] if discard is None else discard

    def copy(self) -> WakhanState:
        """An independent copy (list copies only)."""
        return WakhanState(self.deck[:], self.discard[:])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WakhanState) and (self.deck, self.discard) == (
            other.deck,
            other.discard,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable


def new_wakhan(data: PaxData, rng: random.Random) -> WakhanState:
    """RB p16 Setting Up: "Shuffle the deck of 24 AI cards and place them in a stack face
    down", shuffled by ``rng`` only."""
    deck = list(range(len(data.wakhan)))
    rng.shuffle(deck)
    return WakhanState(deck)


def draw(wakhan: WakhanState, rng: random.Random) -> int:
    """Reveal her AI card for the turn and return it (RB p16 Wakhan's Turn): "draw an AI card
    and place it face up ... in a discard pile. You will use this face-up card and the back of
    the card now on top of the draw deck ... If the draw deck is empty, reshuffle the entire
    discard pile (including the card just drawn) to create a new draw deck and draw again."
    Reading: the deck counts as empty when no card is left to show its back."""
    if not wakhan.deck:  # only for a hand-made state: the reshuffle below keeps one
        wakhan.deck, wakhan.discard = wakhan.discard, []
        rng.shuffle(wakhan.deck)
    wakhan.discard.append(wakhan.deck.pop())
    if not wakhan.deck:
        wakhan.deck, wakhan.discard = wakhan.discard, []
        rng.shuffle(wakhan.deck)
        wakhan.discard.append(wakhan.deck.pop())
    return wakhan.discard[-1]


def revealed(data: PaxData, wakhan: WakhanState) -> WakhanCard | None:
    """The face-up AI card (None before her first turn)."""
    return data.wakhan[wakhan.discard[-1]] if wakhan.discard else None


def upcoming(data: PaxData, wakhan: WakhanState) -> WakhanCard:
    """The card on top of her draw deck, whose back the arrows point at (RB p16)."""
    return data.wakhan[wakhan.deck[-1]]


def red_row(data: PaxData, wakhan: WakhanState) -> int:
    """RB p17: "The red arrow will point to either 'Top' or 'Bottom' on the back of the top
    card of the draw deck and determines which market row to purchase from"."""
    card = revealed(data, wakhan)
    assert card is not None, "no AI card is face up"
    return upcoming(data, wakhan).back_rows[card.red_arrow]


def black_column(data: PaxData, wakhan: WakhanState) -> int:
    """RB p17: "The black arrow will point to a number between 0 and 5 on the back of the top
    card of the draw deck. This tells you which column to purchase from"."""
    card = revealed(data, wakhan)
    assert card is not None, "no AI card is face up"
    return upcoming(data, wakhan).back_columns[card.black_arrow]


def region_priority(data: PaxData, wakhan: WakhanState) -> tuple[int, ...]:
    """The face-up card's regions, leftmost first (RB p17-18 "the region priority on the AI
    card"); the map's order before her first card."""
    card = revealed(data, wakhan)
    return tuple(range(len(data.regions))) if card is None else card.regions


def pragmatic_loyalty(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int:
    """RB p16: "Wakhan's Pragmatic Loyalty is always the leftmost loyalty on the AI card that
    is not shared by any other player." Before her first card: the coalitions' own order.
    Reading, for a game of four or more (a variant: RB p16 has her face one or two players):
    when the others hold every coalition, the card's leftmost loyalty."""
    card = revealed(data, wakhan)
    order = tuple(range(len(data.coalitions))) if card is None else card.loyalty
    held = {state.loyalty[p] for p in range(state.players) if p != player}
    return next((c for c in order if c not in held), order[0])


def sync_loyalty(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int:
    """Set ``state.loyalty[player]`` to her pragmatic loyalty and return it. The engine calls
    this after her draw and after any other player's loyalty changes ("always ... not shared
    by any other player")."""
    state.loyalty[player] = pragmatic_loyalty(data, state, wakhan, player)
    return state.loyalty[player]


def red_targets(data: PaxData, state: State, wakhan: WakhanState, player: int) -> list[int]:
    """The other players, the one the red arrow targets first (RB p18 Battle: "If multiple
    players can be targeted ..., use the red arrow to determine which player is targeted";
    Tax: "If both players are tied, use the red arrow"). Reading: "Top" targets the player
    after her in turn order (at her left), "Bottom" the one before her."""
    others = [(player + k) % state.players for k in range(1, state.players)]
    if revealed(data, wakhan) is not None and red_row(data, wakhan) == BOTTOM:
        others.reverse()
    return others
