"""``random``: uniform over the offered options at every decision (a policy, and the
playouts of ``mcts:policy=random``)."""

from __future__ import annotations

import random
from typing import Any


class RandomStrategy:
    """Picks each option with equal probability, from its own generator."""

    name = "random"

    def __init__(self, **params: Any) -> None:
        if params:
            raise ValueError(f"strategy 'random' takes no parameters, got {sorted(params)}")
        self.rng = random.Random(0)

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.rng = rng

    def choose(self, observation: Any, decision: Any) -> Any:
        options = decision.options
        return options[int(self.rng.random() * len(options))]
