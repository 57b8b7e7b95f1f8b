"""``openspiel-mcts``: one seat played by OpenSpiel's own search (``MCTSBot``) over the
``python_vijayanagara`` game, a challenger we did not write (DESIGN: bots as a measured
quantity). Needs the ``ai`` extra, imported only when the strategy is made (the registry
lists it without).

The search starts where the engine can be resumed without its call stack: the Faction's turn
on an Event card (its ``action`` Decision, 2.3.3). It goes on searching the turn's later
Decisions while the position can be rebuilt exactly from the turn's start and the seat's own
answers (checked: same Decision, same public state); after a die or another Faction's
choice in the turn, and for Decisions outside its turns (Invasion, Succession, another
Faction's battle), the ``fallback`` strategy decides. Chance is sampled from the game's
public probabilities (``chance``): the search never sees the deck.

Parameters: ``evaluator`` ``ours`` (default: each leaf's card played out at random, then the
default heuristic's evaluation turned into win chances, a softmax of each Faction's margin
over ``temperature`` VP) or ``random`` (OpenSpiel's ``RandomRolloutEvaluator``: ``rollouts``
random games to the end); ``simulations`` (default 48), ``uct_c`` (default 1.4),
``temperature`` (default 3.0), ``rollouts`` (default 1), ``search`` (``turn``, default,
or ``action``: the top-level Decision alone), ``fallback`` (a strategy spec, default
``heuristic``).
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from simulate.vijayanagara.rules.pieces import INDEX
from simulate.vijayanagara.rules.state import GameState
from simulate.vijayanagara.rules.summation import ordered_sum

EVALUATORS = ("ours", "random")
SEARCHES = ("turn", "action")


class OpenSpielMCTSStrategy:
    """OpenSpiel's MCTSBot plays this seat's turns over python_vijayanagara (module docstring)."""

    name = "openspiel-mcts"
    description = "OpenSpiel's MCTSBot over python_vijayanagara (chance nodes, no deck peeking)"

    def __init__(
        self,
        evaluator: str = "ours",
        simulations: int = 48,
        uct_c: float = 1.4,
        temperature: float = 3.0,
        rollouts: int = 1,
        search: str = "turn",
        fallback: str = "heuristic",
    ) -> None:
        if evaluator not in EVALUATORS:
            raise ValueError(f"evaluator must be one of {', '.join(EVALUATORS)}, got {evaluator!r}")
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, got {search!r}")
        for key, value in (("simulations", simulations), ("rollouts", rollouts)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{key} must be a positive integer, got {value!r}")
        for key, value in (("uct_c", uct_c), ("temperature", temperature)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"{key} must be a positive number, got {value!r}")
        try:
            from open_spiel.python.algorithms import mcts  # noqa: F401
        except ImportError:
            raise ValueError("openspiel-mcts needs the ai extra: pip install -e '.[ai]'") from None
        from strategies.registry import make

        self.params = {
            "evaluator": evaluator,
            "simulations": simulations,
            "uct_c": float(uct_c),
            "temperature": float(temperature),
            "rollouts": rollouts,
            "search": search,
            "fallback": fallback,
        }
        self.fallback = make(fallback)
        self.searched = 0  # Decisions the search chose, and those the fallback chose
        self.fell_back = 0

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        from open_spiel.python.algorithms import mcts

        from strategies.registry import make

        from .openspiel_game import VijayanagaraGame

        self.faction = INDEX[faction]
        self.rules = rules
        self.rng = rng
        self.fallback.new_game(faction, random.Random(rng.getrandbits(64)), rules)
        self.game = VijayanagaraGame.with_rules(rules)
        p = self.params
        search_rng = np.random.RandomState(rng.getrandbits(32))
        if p["evaluator"] == "random":
            evaluator = mcts.RandomRolloutEvaluator(
                p["rollouts"], np.random.RandomState(rng.getrandbits(32))
            )
        else:
            judge = make("heuristic")
            judge.new_game(faction, random.Random(0), rules)
            evaluator = CardEndEvaluator(_evaluation(judge), p["temperature"], rng.getrandbits(64))
        self.bot = mcts.MCTSBot(
            self.game,
            p["uct_c"],
            p["simulations"],
            evaluator,
            solve=False,
            random_state=search_rng,
        )
        self.turn = None  # the state at the start of this seat's turn, and its answers since
        self.line: list[int] = []

    def choose(self, observation: Any, decision: Any) -> Any:
        state = self._rebuilt(observation, decision)
        if state is None:
            self.fell_back += 1
            return self.fallback.choose(observation, decision)
        self.searched += 1
        action = self.bot.step(state)
        self.line.append(action)
        return decision.options[action]

    def _rebuilt(self, observation: Any, decision: Any) -> Any:
        """The OpenSpiel state at this Decision, or None where it cannot be rebuilt exactly."""
        from .stepper import DECIDE, Stepper

        if decision.kind == "action":
            self.turn = observation.determinise(self.rng)  # only what is public is read
            self.line = []
        elif self.turn is None or self.params["search"] == "action":
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
        return self.game.state_at(stepper)


def _evaluation(strategy: Any) -> Any:
    """The evaluation a strategy plays by (``strategies/search/protocol.py``: ``margin``)."""
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
        from .stepper import DECIDE, DIE

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
