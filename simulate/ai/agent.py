"""A policy trained on the encoding, as a strategy ``vsim ladder`` can seat (docs/ai.md).

A subclass gives ``act(vector, mask) -> action``: the same observation vector and action mask
the PettingZoo environment gives, so an agent trained there plays here unchanged.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from simulate.vijayanagara.rules.pieces import INDEX

from .encoding import Encoder


class PolicyStrategy(ABC):
    """Encodes each Decision as the environment does and plays ``act``'s choice."""

    name = "policy"

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.encoder = Encoder(rules)
        self.me = INDEX[faction]
        self.rng = rng
        self.np_rng = np.random.default_rng(rng.getrandbits(64))

    def choose(self, observation: Any, decision: Any) -> Any:
        state = observation.determinise(self.rng)  # the encoder reads only what is public
        vector = self.encoder.encode(state, self.me, decision)
        return decision.options[self.act(vector, self.encoder.mask(decision))]

    @abstractmethod
    def act(self, vector: np.ndarray, mask: np.ndarray) -> int:
        """The index of the option to play (a legal action of ``mask``)."""
