"""The game for OpenSpiel: importing this module registers ``python_vijayanagara``.

>>> import pyspiel
>>> import simulate.ai.openspiel_game
>>> game = pyspiel.load_game("python_vijayanagara")
>>> game.num_players()
3

Players 0 DS, 1 BK, 2 VE; a player's action ``i`` is the ``i``-th option of its Decision
(``encoding``). Card draws and dice are chance nodes with their real probabilities: a card's
outcome is its index in the rules' card list, drawn from what is public alone (``chance``), a
die's outcome 0..5 is a face 1..6; no deck order exists, so a search sees chance, never the
deck, and every state is public (perfect information with chance). ``returns()`` give 1 to
the winner, 0 to the others. The observation and information-state tensors are the
encoding's vector; the information-state string is the history.
Parameter ``variant``: a rule variant name or file ("" for the base game).
"""

from __future__ import annotations

import functools
import random

import numpy as np
import pyspiel

from simulate.vijayanagara.rules import victory
from simulate.vijayanagara.rules.decisions import render
from simulate.vijayanagara.rules.pieces import FACTIONS, NAMES
from simulate.vijayanagara.rules.ruleset import Rules, load_rules
from simulate.vijayanagara.rules.setup import new_state

from .chance import FACES
from .encoding import Encoder, K
from .stepper import CARD, DECIDE, DIE, OVER, Stepper

SHORT_NAME = "python_vijayanagara"
MAX_GAME_LENGTH = 20_000  # moves and chance outcomes: 491 at most over 200 random games (bench_ai)


def game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Vijayanagara: The Deccan Empires of Medieval India",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=3,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"variant": ""},
    )


class Shared:
    """The rules and encoder of a game, shared by its states (never copied with them)."""

    def __init__(self, variant: str, rules: Rules | None = None) -> None:
        self.variant = variant
        self.given = rules is not None  # rules given, not loaded from the variant
        self.rules = load_rules(variant or None) if rules is None else rules
        self.encoder = Encoder(self.rules)
        self.initial = new_state(self.rules, random.Random(0))  # its deck is never read

    def __deepcopy__(self, memo: dict) -> Shared:
        return self

    def __reduce__(self) -> tuple:
        if self.given:
            return (Shared, (self.variant, self.rules))
        return (shared, (self.variant,))


@functools.lru_cache(maxsize=8)
def shared(variant: str) -> Shared:
    """The one Shared of a variant in this process."""
    return Shared(variant)


class VijayanagaraGame(pyspiel.Game):
    """The OpenSpiel game (``pyspiel.load_game("python_vijayanagara")``)."""

    def __init__(self, params: dict | None = None) -> None:
        params = dict(params or {})
        self.shared = shared(str(params.get("variant") or ""))
        info = pyspiel.GameInfo(
            num_distinct_actions=K,
            max_chance_outcomes=max(len(self.shared.rules.cards), FACES),
            num_players=3,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(), info, params)

    @classmethod
    def with_rules(cls, rules: Rules) -> VijayanagaraGame:
        """The game over compiled ``rules`` (a strategy gets them, not their variant's name)."""
        game = cls()
        game.shared = Shared("", rules)
        return game

    def new_initial_state(self) -> VijayanagaraState:
        return VijayanagaraState(self)

    def state_at(self, stepper: Stepper) -> VijayanagaraState:
        """A state over a stepper in chance mode (``Stepper.at_turn`` for a game in progress)."""
        return VijayanagaraState(self, stepper)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.shared.encoder, perfect_recall)


class VijayanagaraState(pyspiel.State):
    """A game in progress (its engine waits in a ``Stepper``)."""

    def __init__(self, game: VijayanagaraGame, stepper: Stepper | None = None) -> None:
        super().__init__(game)
        self.shared = game.shared
        self._stepper = stepper  # made when first needed: a clone replaces it at once

    @property
    def stepper(self) -> Stepper:
        if self._stepper is None:
            self._stepper = Stepper(self.shared.rules, self.shared.initial, None)
        return self._stepper

    def current_player(self) -> int:
        kind, faction, _ = self.stepper.pending
        if kind == DECIDE:
            return faction
        if kind == OVER:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        kind, faction, decision = self.stepper.pending
        if kind != DECIDE or player != faction:
            return []
        return list(range(self.shared.encoder.check(decision)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kind, _, payload = self.stepper.pending
        if kind == CARD:
            return list(payload)
        if kind == DIE:
            return [(face, 1.0 / FACES) for face in range(FACES)]
        return []

    def _apply_action(self, action: int) -> None:
        self.stepper.answer(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.stepper.pending[0] == CARD:
                return f"card {self.shared.rules.cards[action].id}"
            return f"die {action + 1}"
        kind, _, decision = self.stepper.pending
        if kind == DECIDE and 0 <= action < len(decision.options):
            return f"{NAMES[player]} {decision.kind} {render(decision.options[action])}"
        return f"{NAMES[player]} action {action}"

    def is_terminal(self) -> bool:
        return self.stepper.pending[0] == OVER

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0, 0.0]
        win, _ = victory.winner(self.shared.rules, self.stepper.state)
        return [1.0 if win == f else 0.0 for f in FACTIONS]

    def public_digest(self) -> str:
        """The state digest with the deck cut to the cards drawn (the rest is never fixed)."""
        st = self.stepper.state.copy()
        st.deck = st.deck[: st.pos]
        return st.digest()

    def __str__(self) -> str:
        kind, faction, payload = self.stepper.pending
        if kind == DECIDE:
            now = f"{NAMES[faction]} decides {payload.kind} ({len(payload.options)} options)"
        else:
            now = {CARD: "a card is drawn", DIE: "a die is rolled", OVER: "game over"}[kind]
        return f"card {self.stepper.state.pos}, state {self.public_digest()}: {now}"


class Observer:
    """The encoding's vector for a player (``observation`` and ``information_state``)."""

    def __init__(self, encoder: Encoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: VijayanagaraState, player: int) -> None:
        kind, _, decision = state.stepper.pending
        vector = self.encoder.encode(
            state.stepper.state, player, decision if kind == DECIDE else None
        )
        self.tensor[:] = vector

    def string_from(self, state: VijayanagaraState, player: int) -> str:
        if self.perfect_recall:
            return f"{NAMES[player]}: " + " ".join(str(a) for a in state.history())
        return f"{NAMES[player]}: {state}"


pyspiel.register_game(game_type(), VijayanagaraGame)
