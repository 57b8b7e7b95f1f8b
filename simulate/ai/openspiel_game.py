"""Any game with an encoder as an OpenSpiel game: ``register(game)`` registers
``python_<name>``; importing this module registers the default game's.

>>> import pyspiel
>>> import simulate.ai.openspiel_game
>>> game = pyspiel.load_game("python_vijayanagara")
>>> game.num_players()
3

Player ``i`` is seat ``i`` of the game's rules; its action ``i`` is the ``i``-th option of
its Decision (``encoding``). Chance is the stepper's: a game's own chance nodes with their
probabilities, or, for a game whose chance stays inside its engine, one chance node at the
root that draws the game's seed (uniform over the encoder's ``seeds``). Every state is
public (perfect information with explicit chance). ``returns()`` give 1 to the winner, 0 to
the others. The observation and information-state tensors are the encoder's vector; the
information-state string is the history. Parameter ``variant``: a rule variant name or file
("" for the base game).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pyspiel

from .encoding import DECIDE, OVER, GameEncoder, adapted

_CLASSES: dict[str, type] = {}  # short name -> its registered game class


def short_name(game: Any) -> str:
    return f"python_{game.name}"


def game_type(game: Any, encoder: GameEncoder) -> pyspiel.GameType:
    n = len(encoder.seats)
    low, high = encoder.seat_range or (n, n)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Python {game.title or game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"variant": ""},
    )


def register(game: Any = None) -> str:
    """Register ``game`` (a Game, a name or ``module:OBJECT``; None: the default) with
    pyspiel, once; its short name. NoEncoder (one line) for a game without an encoder."""
    game, _, encoder = adapted(game)
    name = short_name(game)
    if name not in _CLASSES:
        cls = type(f"Game_{game.name}", (AdapterGame,), {"game": game, "__module__": __name__})
        globals()[cls.__name__] = cls  # pickle finds the class here
        pyspiel.register_game(game_type(game, encoder), cls)
        _CLASSES[name] = cls
    return name


def load(game: Any = None, variant: str = "") -> pyspiel.Game:
    """The OpenSpiel game of ``game`` under ``variant`` (registered first if need be)."""
    return pyspiel.load_game(register(game), {"variant": str(variant or "")})


def for_rules(rules: Any, game: Any = None) -> AdapterGame:
    """The OpenSpiel game over compiled ``rules`` (a strategy gets them, not their variant)."""
    out = _CLASSES[register(game)]()
    out.shared = Shared(out.game, "", rules)
    return out


class Shared:
    """The game, rules and encoder of an OpenSpiel game, shared by its states (never copied)."""

    def __init__(self, game: Any, variant: str, rules: Any = None) -> None:
        self.variant = variant
        self.given = rules is not None  # rules given, not loaded from the variant
        self.game, self.rules, self.encoder = adapted(game, variant or None, rules)

    def __deepcopy__(self, memo: dict) -> Shared:
        return self

    def __reduce__(self) -> tuple:
        ref = self.game.ref or self.game
        if self.given:
            return (_shared_with, (ref, self.variant, self.rules))
        return (shared, (ref, self.variant))


def _shared_with(game: Any, variant: str, rules: Any) -> Shared:
    return Shared(game, variant, rules)


@functools.lru_cache(maxsize=16)
def shared(game: Any, variant: str) -> Shared:
    """The one Shared of a game's variant in this process."""
    return Shared(game, variant)


class AdapterGame(pyspiel.Game):
    """The OpenSpiel game of one toolkit game (a subclass per game: ``register``)."""

    game: Any = None

    def __init__(self, params: dict | None = None) -> None:
        params = dict(params or {})
        self.shared = shared(self.game, str(params.get("variant") or ""))
        encoder = self.shared.encoder
        info = pyspiel.GameInfo(
            num_distinct_actions=encoder.actions,
            max_chance_outcomes=encoder.max_chance_outcomes,
            num_players=len(encoder.seats),
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=encoder.max_game_length,
        )
        super().__init__(game_type(self.game, encoder), info, params)

    def new_initial_state(self) -> AdapterState:
        return AdapterState(self)

    def state_at(self, stepper: Any) -> AdapterState:
        """A state over a stepper (a game's own, in chance mode, for a game in progress)."""
        return AdapterState(self, stepper)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.shared.encoder, perfect_recall)


class AdapterState(pyspiel.State):
    """A game in progress (its engine waits in a stepper)."""

    def __init__(self, game: AdapterGame, stepper: Any = None) -> None:
        super().__init__(game)
        self.shared = game.shared
        self._stepper = stepper  # made when first needed: a clone replaces it at once

    @property
    def stepper(self) -> Any:
        if self._stepper is None:
            self._stepper = self.shared.encoder.initial()
        return self._stepper

    def current_player(self) -> int:
        kind, seat, _ = self.stepper.pending
        if kind == DECIDE:
            return seat
        if kind == OVER:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        kind, seat, decision = self.stepper.pending
        if kind != DECIDE or player != seat:
            return []
        return list(range(self.shared.encoder.check(decision)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pending = self.stepper.pending
        if pending[0] in (DECIDE, OVER):
            return []
        return self.shared.encoder.chance_outcomes(pending)

    def _apply_action(self, action: int) -> None:
        self.stepper.answer(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        encoder = self.shared.encoder
        pending = self.stepper.pending
        if player == pyspiel.PlayerId.CHANCE:
            return encoder.chance_string(pending, action)
        kind, _, decision = pending
        if kind == DECIDE and 0 <= action < len(decision.options):
            return encoder.action_string(player, decision, action)
        return f"{encoder.seats[player]} action {action}"

    def is_terminal(self) -> bool:
        return self.stepper.pending[0] == OVER

    def returns(self) -> list[float]:
        return self.shared.encoder.returns(self.stepper)

    def public_digest(self) -> str:
        """A digest of the public position (the encoder's ``digest``)."""
        return self.shared.encoder.digest(self.stepper)

    def __str__(self) -> str:
        return self.shared.encoder.position(self.stepper)


class Observer:
    """The encoder's vector for a player (``observation`` and ``information_state``)."""

    def __init__(self, encoder: GameEncoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: AdapterState, player: int) -> None:
        stepper = state.stepper
        kind, _, decision = stepper.pending
        vector = self.encoder.encode(stepper.view, player, decision if kind == DECIDE else None)
        self.tensor[:] = vector

    def string_from(self, state: AdapterState, player: int) -> str:
        seat = self.encoder.seats[player]
        if self.perfect_recall:
            return f"{seat}: " + " ".join(str(a) for a in state.history())
        return f"{seat}: {state}"


register()
