"""The tiny game's encoder for the AI adapters (``simulate.ai.encoding``'s protocol): scores,
the turn's points, the turn, the observer and the decider in one vector; actions 0 roll,
1 bank. Its chance stays in its engine: the generic stepper plays it from the seed."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.ai.encoding import GameEncoder

from . import rules as R


class PigEncoder(GameEncoder):
    """One float32 vector: scores (n), pending, turn, observer (n one-hot), decider (n)."""

    actions = 2  # the options of rule 2, in the engine's order: roll, bank
    seat_range = (2, 5)

    def __init__(self, game: Any, rules: R.Rules) -> None:
        super().__init__(game, rules)
        self.n = n = rules.players
        self.size = 3 * n + 2
        self.max_game_length = 1 + 64 * rules.turn_limit  # a bound, not a rule: rolls are free

    def encode(self, view: Any, seat: int, decision: Any) -> np.ndarray:
        n, out = self.n, np.zeros(self.size, np.float32)
        if view is not None:
            st = view.state
            out[:n] = st.scores
            out[n : n + 2] = (st.pending, st.turn)
        out[n + 2 + seat] = 1.0
        if decision is not None:
            out[2 * n + 2 + self.seats.index(decision.faction)] = 1.0
        return out

    def render(self, stepper: Any) -> str:
        view = stepper.view
        scores = "" if view is None else " ".join(map(str, view.state.scores)) + "; "
        return f"{scores}{self.now(stepper)}"
