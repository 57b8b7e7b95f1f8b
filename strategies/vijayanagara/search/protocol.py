"""What a search needs of the policy it searches over and of the evaluation it scores by.

The searches (``greedy``, ``mcts``) choose each turn's action (2.3.3) and leave every other
decision to a policy they are given; they import no particular bot. A policy gives its plan
under each offered action, follows a plan it is handed, and makes plain copies of itself
for the playouts (a team, one per Faction); an evaluation scores a position for a Faction.
``strategies/vijayanagara/heuristic`` is such a policy.
"""

from __future__ import annotations

import random
from typing import Any, Protocol


class Evaluation(Protocol):
    """Scores positions: what a search maximises."""

    def margin(self, state: Any, faction: int) -> float:
        """``faction``'s score in ``state`` less the best opponent's (VP equivalents)."""
        ...


class LeafValue(Protocol):
    """A learned guess at how a game ends (``strategies/vijayanagara/value_model.py``): mcts's ``value``."""

    def predict(self, rules: Any, state: Any) -> tuple[list[float], list[float]]:
        """Each Faction's predicted final Victory Points and chance to win (DS, BK, VE)."""
        ...


class Plans(Protocol):
    """A policy's turn at one choice (``TurnPlans`` of the heuristic): its own pick, its plan
    under each action, the Commands and Decrees it could pick instead."""

    own: tuple  # (action, Command, Decree) it would play
    command: str | None  # its Command under Command and Command + Decree
    limited: str | None  # its Command under Limited Command
    decree: str | None  # its Decree under Command + Decree
    commands: tuple  # every Command with a space to select now (3.1.1), when asked
    decrees: tuple  # every Decree it may take
    valued_best: str | None  # the action it valued best


class Policy(Protocol):
    """A bot a search can plan with, follow, and copy for its playouts."""

    evaluation: Evaluation
    eligibility: float  # the worth of staying Eligible for the next card (2.3.7)

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None: ...

    def choose(self, observation: Any, decision: Any) -> Any: ...

    def turn_plans(self, obs: Any, decision: Any, expand: bool) -> Plans:
        """Its plans at this turn's action choice (with ``expand``, every Command too)."""
        ...

    def follow(self, plan: dict, like: Any = None) -> None:
        """Play ``plan`` from the next decision on (``{}``: its own), no battle under way;
        with ``like`` (a policy), ranking spaces as ``like`` did when it planned the turn."""
        ...

    def pending(self) -> tuple:
        """What it carries from one turn to the next on a card."""
        ...

    def resume(self, pending: tuple) -> None:
        """Carry ``pending`` on, as if no other copy had played since."""
        ...

    def team(self, rng: random.Random) -> tuple:
        """Plain copies of itself for DS, BK and VE, started on this game (the playouts')."""
        ...
