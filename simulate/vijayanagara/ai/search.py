"""Where OpenSpiel's search (``openspiel-mcts``, ``simulate.ai.challenger``) starts in
Vijayanagara, and its leaf evaluation (docs/ai.md).

The search starts where the engine can be resumed without its call stack: the Faction's turn
on an Event card (its ``action`` Decision, 2.3.3). It goes on searching the turn's later
Decisions while the position can be rebuilt exactly from the turn's start and the seat's own
answers (checked: same Decision, same public state); after a die or another Faction's
choice in the turn, and for Decisions outside its turns (Invasion, Succession, another
Faction's battle), the challenger's ``fallback`` decides. Chance is sampled from the game's
public probabilities (``chance``): the search never sees the deck.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from simulate.ai.pending import DECIDE
from simulate.vijayanagara.rules.pieces import NAMES
from simulate.vijayanagara.rules.ruleset import Rules
from simulate.vijayanagara.rules.state import GameState
from simulate.vijayanagara.rules.summation import ordered_sum

from .stepper import DIE, Stepper


class TurnRoot:
    """The stepper a search starts from at a Decision of ``seat``'s turn, or None."""

    def __init__(self, rules: Rules, seat: int, rng: random.Random, search: str) -> None:
        self.rules = rules
        self.faction = seat
        self.rng = rng
        self.search = search
        self.turn: GameState | None = None  # the state at the start of the seat's turn
        self.line: list[int] = []  # and its answers since

    def at(self, observation: Any, decision: Any) -> Stepper | None:
        """A stepper in chance mode at this Decision, or None where it cannot be rebuilt."""
        if decision.kind == "action":
            self.turn = observation.determinise(self.rng)  # only what is public is read
            self.line = []
        elif self.turn is None or self.search == "action":
            return None
        stepper = Stepper.at_turn(self.rules, self.turn)
        for answer in self.line:
            kind, faction, _ = stepper.pending
            if kind != DECIDE or faction != self.faction:
                self.turn = None  # a die or another Faction's choice came between
                return None
            stepper.answer(answer)
        kind, faction, pending = stepper.pending
        now = observation.determinise(self.rng)
        if not (
            kind == DECIDE
            and faction == self.faction
            and pending.kind == decision.kind
            and pending.options == decision.options
            and pending.context == decision.context
            and _public(stepper.state) == _public(now)
        ):
            self.turn = None
            return None
        return stepper

    def played(self, action: int) -> None:
        self.line.append(action)


def card_end_evaluator(rules: Rules, seat: int, temperature: float, seed: int) -> Any:
    """``evaluator=ours``: the default heuristic's evaluation at the end of the card."""
    from strategies.registry import make

    judge = make("heuristic")
    judge.new_game(NAMES[seat], random.Random(0), rules)
    return CardEndEvaluator(_evaluation(judge), temperature, seed)


def _evaluation(strategy: Any) -> Any:
    """The evaluation a strategy plays by (``strategies/vijayanagara/search/protocol.py``: ``margin``)."""
    for holder in (strategy, getattr(strategy, "policy", None)):
        evaluation = getattr(holder, "evaluation", None)
        if evaluation is not None:
            return evaluation
    raise ValueError(f"strategy {getattr(strategy, 'name', strategy)!r} has no evaluation")


class CardEndEvaluator:
    """MCTS leaf values: the card in play finished at random, then each Faction's margin by
    the heuristic's evaluation (its score less the best other's, in VP equivalents) as win
    chances, ``softmax(margins / temperature)``."""

    def __init__(self, evaluation: Any, temperature: float, seed: int) -> None:
        self.evaluation = evaluation
        self.temperature = temperature
        self.rng = random.Random(seed)

    def evaluate(self, state: Any) -> np.ndarray:
        stepper = state.stepper.copy()
        pos = stepper.state.pos
        rng = self.rng
        while stepper.state.pos == pos:
            kind, _, payload = stepper.pending
            if kind == DECIDE:
                stepper.answer(int(rng.random() * len(payload.options)))
            elif kind == DIE:
                stepper.answer(int(rng.random() * 6))
            else:
                break
        st = stepper.state
        margins = [self.evaluation.margin(st, f) for f in (0, 1, 2)]
        top = max(margins)
        weights = [math.exp((m - top) / self.temperature) for m in margins]
        total = ordered_sum(weights)
        return np.array([w / total for w in weights])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


_DECK = GameState.__slots__.index("deck")


def _public(st: GameState) -> tuple:
    """Every field of a state but the deck's undrawn cards."""
    values = st.as_tuple()
    return (*values[:_DECK], values[_DECK][: st.pos], *values[_DECK + 1 :])
