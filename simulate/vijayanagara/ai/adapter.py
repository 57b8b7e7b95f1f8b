"""Vijayanagara's side of the AI adapters (``simulate.ai.encoding``'s protocol): its encoder
with its own stepper, its chance nodes (card draws from what is public, dice), its results
and its text, as the PettingZoo environment and the OpenSpiel game read them (docs/ai.md)."""

from __future__ import annotations

import random
from typing import Any

from simulate.ai.pending import DECIDE, OVER
from simulate.vijayanagara.rules import victory
from simulate.vijayanagara.rules.decisions import Decision, render
from simulate.vijayanagara.rules.pieces import FACTIONS, NAMES
from simulate.vijayanagara.rules.ruleset import Rules
from simulate.vijayanagara.rules.setup import new_state

from .chance import FACES
from .encoding import Encoder
from .stepper import CARD, DIE, Stepper

MAX_GAME_LENGTH = 20_000  # moves and chance outcomes: 491 at most over 200 random games (bench_ai)


class Adapter(Encoder):
    """The encoder the game gives the adapters (``simulate.vijayanagara.ai.encoder``)."""

    seat_range = (3, 3)
    chance_nodes = True
    max_game_length = MAX_GAME_LENGTH

    def __init__(self, rules: Rules, game: Any) -> None:
        super().__init__(rules)
        self.game = game  # the declaration that made it
        self.max_chance_outcomes = max(len(rules.cards), FACES)
        self._initial = None

    def view_of(self, observation: Any, rng: random.Random) -> Any:
        return observation.determinise(rng)  # the encoder reads only what is public

    # -- steppers ------------------------------------------------------------------------
    def seeded(self, seed: int) -> Stepper:
        return Stepper.seeded(self.rules, seed)

    def initial(self) -> Stepper:
        """A new game whose cards and dice are chance nodes (no deck order exists)."""
        if self._initial is None:
            self._initial = new_state(self.rules, random.Random(0))  # its deck is never read
        return Stepper(self.rules, self._initial, None)

    # -- chance --------------------------------------------------------------------------
    def chance_outcomes(self, pending: tuple) -> list[tuple[int, float]]:
        kind, _, payload = pending
        if kind == CARD:
            return list(payload)
        return [(face, 1.0 / FACES) for face in range(FACES)]

    def chance_string(self, pending: tuple, outcome: int) -> str:
        if pending[0] == CARD:
            return f"card {self.rules.cards[outcome].id}"
        return f"die {outcome + 1}"

    # -- text ----------------------------------------------------------------------------
    def action_string(self, seat: int, decision: Decision, action: int) -> str:
        return f"{NAMES[seat]} {decision.kind} {render(decision.options[action])}"

    def render(self, stepper: Stepper) -> str:
        st = stepper.state
        kind, faction, decision = stepper.pending
        vps = " ".join(f"{NAMES[f]} {victory.vp(self.rules, st, f)} VP" for f in FACTIONS)
        now = "game over" if kind != DECIDE else f"{NAMES[faction]} decides {decision.kind}"
        return f"card {st.pos}: {vps}; {now}"

    def position(self, stepper: Stepper) -> str:
        kind, faction, payload = stepper.pending
        if kind == DECIDE:
            now = f"{NAMES[faction]} decides {payload.kind} ({len(payload.options)} options)"
        else:
            now = {CARD: "a card is drawn", DIE: "a die is rolled", OVER: "game over"}[kind]
        return f"card {stepper.state.pos}, state {self.digest(stepper)}: {now}"

    def digest(self, stepper: Stepper) -> str:
        """The state digest with the deck cut to the cards drawn (the rest is never fixed)."""
        st = stepper.state.copy()
        st.deck = st.deck[: st.pos]
        return st.digest()

    # -- results -------------------------------------------------------------------------
    def scores(self, stepper: Stepper) -> list[int]:
        return [victory.vp(self.rules, stepper.state, f, final=True) for f in FACTIONS]

    def winner(self, stepper: Stepper) -> int | None:
        return victory.winner(self.rules, stepper.state)[0]

    # -- search --------------------------------------------------------------------------
    def search_root(self, seat: int, rng: random.Random, search: str) -> Any:
        from .search import TurnRoot

        return TurnRoot(self.rules, seat, rng, search)

    def evaluator(self, seat: int, temperature: float, seed: int) -> Any:
        from .search import card_end_evaluator

        return card_end_evaluator(self.rules, seat, temperature, seed)
