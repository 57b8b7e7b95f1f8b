"""``openspiel-mcts``: one seat played by OpenSpiel's own search (``MCTSBot``) over the game's
OpenSpiel adapter (``openspiel_game``), a challenger we did not write (DESIGN: bots as a
measured quantity). Needs the ``ai`` extra, imported only when the strategy is made (the
registry lists it without).

Where the search may start is the game's to say (its encoder's ``search_root``: a stepper
with chance nodes rebuilt at the Decision from what the seat saw, so the search sees chance,
never the hidden part of the game); elsewhere the ``fallback`` strategy decides. A game
without a search root is refused in one line. Vijayanagara searches a Faction's turn on an
Event card (docs/ai.md).

Parameters: ``evaluator`` ``ours`` (default: the game's own leaf evaluator, its encoder's
``evaluator``; for Vijayanagara each leaf's card played out at random, then the default
heuristic's evaluation turned into win chances, a softmax of each Faction's margin over
``temperature`` VP) or ``random`` (OpenSpiel's ``RandomRolloutEvaluator``: ``rollouts``
random games to the end); ``simulations`` (default 48), ``uct_c`` (default 1.4),
``temperature`` (default 3.0), ``rollouts`` (default 1), ``search`` (``turn``, default,
or ``action``: the top-level Decision alone), ``fallback`` (a strategy spec, default
``heuristic``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

EVALUATORS = ("ours", "random")
SEARCHES = ("turn", "action")


class OpenSpielMCTSStrategy:
    """OpenSpiel's MCTSBot plays this seat where the game lets a search start (module
    docstring). It plays the default game; a subclass for another sets ``game``."""

    name = "openspiel-mcts"
    description = "OpenSpiel's MCTSBot over the game's chance nodes (no peeking at hidden chance)"
    game: str | None = None  # the game it plays (None: the default)

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

        from simulate.games import registry

        from .encoding import encoder_for
        from .openspiel_game import for_rules

        game = registry.get(self.game)
        encoder = encoder_for(game, rules)
        seat = encoder.seats.index(faction)
        p = self.params
        self.root = encoder.search_root(seat, rng, p["search"])
        if self.root is None:
            raise ValueError(f"openspiel-mcts: game {game.name!r} gives no search root")
        self.fallback.new_game(faction, random.Random(rng.getrandbits(64)), rules)
        self.spiel = for_rules(rules, game)
        search_rng = np.random.RandomState(rng.getrandbits(32))
        if p["evaluator"] == "random":
            evaluator = mcts.RandomRolloutEvaluator(
                p["rollouts"], np.random.RandomState(rng.getrandbits(32))
            )
        else:
            evaluator = encoder.evaluator(seat, p["temperature"], rng.getrandbits(64))
            if evaluator is None:
                raise ValueError(f"openspiel-mcts: game {game.name!r} has no evaluator 'ours'")
        self.bot = mcts.MCTSBot(
            self.spiel,
            p["uct_c"],
            p["simulations"],
            evaluator,
            solve=False,
            random_state=search_rng,
        )

    def choose(self, observation: Any, decision: Any) -> Any:
        stepper = self.root.at(observation, decision)
        if stepper is None:
            self.fell_back += 1
            return self.fallback.choose(observation, decision)
        self.searched += 1
        action = self.bot.step(self.spiel.state_at(stepper))
        self.root.played(action)
        return decision.options[action]
