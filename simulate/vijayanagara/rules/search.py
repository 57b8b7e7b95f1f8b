"""Branching a game for search bots (greedy, MCTS): copy a state, force a top-level action,
and play on with given policies and a dice stream the bot owns (never the game's)."""

from __future__ import annotations

import random

from . import sequence
from .context import Context
from .dice import SeededDice
from .observation import Observation
from .ruleset import Rules
from .state import GameState


def branch(
    rules: Rules, state: GameState, agents: tuple, dice: random.Random | SeededDice
) -> Context:
    """A Context over a private copy of ``state``; ``agents`` decide for DS, BK and VE; its
    battles roll ``dice`` (anything with a ``random``: ``dice.SeededDice`` in searches)."""
    st = state.copy()
    return Context(rules, st, dice, agents, Observation(rules, st))


def apply_action(ctx: Context, faction: int, action: str) -> None:
    """Play ``faction``'s turn on the current Event card with the top-level ``action`` forced
    (the rest of its turn decided by its agent), and mark it as having acted."""
    sequence.faction_turn(ctx, faction, forced=action)
    ctx.state.acted |= 1 << faction


def finish_card(ctx: Context) -> None:
    """Let the remaining Eligible Factions act on the current card and adjust Eligibility."""
    sequence.resume_card(ctx)


def play_out(ctx: Context, max_cards: int | None = None) -> None:
    """Draw and resolve cards until the game ends (or ``max_cards`` more have been played)."""
    st = ctx.state
    n = 0
    while not st.over and (max_cards is None or n < max_cards):
        sequence.next_card(ctx)
        n += 1
