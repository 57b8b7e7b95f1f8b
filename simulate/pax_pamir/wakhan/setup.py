"""Setting up a game against Wakhan (RB p16 Setting Up)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import PaxData
from ..setup import new_state
from ..state import State
from .deck import WakhanState, new_wakhan, sync_loyalty

WAKHAN = 0  # her seat in the games ``new_game`` deals: she "will take the first turn" (RB p16)


def setup_changes(data: PaxData, state: State, wakhan: WakhanState, player: int) -> None:
    """RB p16 Setting Up, on a ``setup.new_state`` dealt for the humans plus one ("Include
    Wakhan as a player when determining the size of the deck"): she "does not take a loyalty
    dial" (her pragmatic loyalty fills ``state.loyalty``), uses "a spare set of player
    cylinders" and four rupees like anyone (RB p4), and "will take the first turn"."""
    state.wakhan = player
    sync_loyalty(data, state, wakhan, player)
    state.turn = player


def new_game(
    data: PaxData,
    humans: int,
    deck_rng: random.Random,
    wakhan_rng: random.Random,
    loyalty: Sequence[int] | None = None,
    order_rng: random.Random | None = None,
) -> tuple[State, WakhanState]:
    """A game of one or two players against Wakhan (RB p16: "Wakhan can be faced by one or two
    human players"), ready for her first turn.

    Seats in turn order: Wakhan ``WAKHAN`` (0), then the humans. RB p16: "Place Wakhan's
    pieces to the right of the player who chooses their loyalty last. Wakhan will take the
    first turn": the player after her (seat 1) chose last; with two humans seat 2 chose first
    (RB p4 "Starting with a random player and proceeding clockwise"). ``loyalty``: the humans'
    coalitions by seat 1.. ; without it each is drawn from ``order_rng`` in choosing order.
    """
    if humans not in (1, 2):
        raise ValueError("Wakhan can be faced by one or two human players (RB p16)")
    if loyalty is None:
        if order_rng is None:
            raise ValueError("pass loyalty (the humans' choices) or an order_rng to draw them")
        chosen = [0] * humans
        for seat in reversed(range(humans)):  # the first chooser is the last seat
            chosen[seat] = order_rng.randrange(len(data.coalitions))
        loyalty = chosen
    if len(loyalty) != humans:
        raise ValueError(f"loyalty must give a coalition for each of {humans} humans")
    ws = new_wakhan(data, wakhan_rng)
    free = next(c for c in range(len(data.coalitions)) if c not in loyalty)
    state = new_state(data, humans + 1, deck_rng, loyalty=[free, *loyalty])
    setup_changes(data, state, ws, WAKHAN)
    return state, ws
