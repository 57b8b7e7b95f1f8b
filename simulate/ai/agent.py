"""A policy trained on a game's encoding, as a strategy ``vsim ladder`` can seat (docs/ai.md).

A subclass gives ``act(vector, mask) -> action``: the same observation vector and action mask
the PettingZoo environment gives, so an agent trained there plays here unchanged. It plays the
default game; a subclass for another sets ``game`` (a registered name or ``module:OBJECT``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from .encoding import encoder_for


class PolicyStrategy(ABC):
    """Encodes each Decision as the environment does and plays ``act``'s choice."""

    name = "policy"
    game: str | None = None  # the game it plays (None: the default)

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        from simulate.games import registry

        self.encoder = encoder_for(registry.get(self.game), rules)
        self.me = self.encoder.seats.index(faction)
        self.rng = rng
        self.np_rng = np.random.default_rng(rng.getrandbits(64))

    def choose(self, observation: Any, decision: Any) -> Any:
        view = self.encoder.view_of(observation, self.rng)  # it reads only what is public
        vector = self.encoder.encode(view, self.me, decision)
        return decision.options[self.act(vector, self.encoder.mask(decision))]

    @abstractmethod
    def act(self, vector: np.ndarray, mask: np.ndarray) -> int:
        """The index of the option to play (a legal action of ``mask``)."""
