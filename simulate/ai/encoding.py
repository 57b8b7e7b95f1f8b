"""The encoder protocol: what the AI adapters need from a game (docs/ai.md).

A game that opens itself to the adapters returns a :class:`GameEncoder` from its
``encoder(rules)``: the seats, the action count and the observation vector's size, the vector
itself (``encode``), the legal actions of a Decision (``check``, ``mask``: action ``i`` is the
``i``-th option), and how a game is stepped, and ends. The defaults step the game's own
``play`` in a greenlet (``stepper.GenericStepper``): chance stays inside the engine, drawn
from the seed, and OpenSpiel sees one chance node, the seed. A game with a faster stepper or
with chance nodes of its own overrides ``seeded``, ``initial``, the chance hooks and the
results.

A stepper waits at ``pending``: ``(DECIDE, seat, Decision)``, ``(OVER, -1, None)`` or a chance
node ``(kind, -1, payload)`` of any other kind (``SEED`` here; a game's stepper names its own);
``answer(i)`` moves it on, ``copy()`` gives an independent one, ``view`` is what ``encode``
reads (for the generic stepper: the last observation the engine gave, None before any).
"""

from __future__ import annotations

import functools
import hashlib
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from .pending import DECIDE, OVER, SEED

SEEDS = 1000  # the OpenSpiel root's seeds, for a game whose chance is inside its engine


class TooManyOptions(ValueError):
    """A Decision offers more options than the action space holds."""


class NoEncoder(ValueError):
    """A game that gives the AI adapters no encoder (its message is one line)."""


class GameEncoder(ABC):
    """The base of a game's encoder: ``encode`` is required, the rest has defaults that read a
    ``GenericStepper`` (a game with its own stepper overrides them)."""

    seats: tuple[str, ...] = ()  # in turn order: seat ``i`` is agent ``seats[i]``, player ``i``
    actions: int = 0  # the action space: no Decision offers more options
    size: int = 0  # the observation vector's length (float32)
    bound: float = 1.0e4  # every encoded value lies within +-bound
    seat_range: tuple[int, int] | None = None  # the game's fewest and most seats (None: these)
    chance_nodes: bool = False  # True: its stepper has chance nodes; False: only the seed
    max_chance_outcomes: int = SEEDS
    max_game_length: int = 10_000  # moves and chance outcomes, at most
    seeds: int = SEEDS

    def __init__(self, game: Any, rules: Any) -> None:
        self.game = game
        self.rules = rules
        self.seats = tuple(game.seats(rules))

    @abstractmethod
    def encode(self, view: Any, seat: int, decision: Any) -> np.ndarray:
        """The observation vector of ``seat`` at the pending ``decision`` (None: nothing is
        pending, the game is over)."""

    def check(self, decision: Any) -> int:
        """The Decision's option count, or TooManyOptions past ``actions``."""
        n = len(decision.options)
        if n > self.actions:
            raise TooManyOptions(
                f"decision {decision.kind} of {decision.faction} offers {n} options, more than "
                f"the {self.actions} actions of the {self.game.name} encoder"
            )
        return n

    def mask(self, decision: Any) -> np.ndarray:
        """1 for each legal action (the first ``len(options)``), int8; all 0 with no Decision."""
        out = np.zeros(self.actions, np.int8)
        if decision is not None:
            out[: self.check(decision)] = 1
        return out

    def view_of(self, observation: Any, rng: Any) -> Any:
        """What ``encode`` reads, from a strategy's observation (``agent.PolicyStrategy``)."""
        return observation

    # -- steppers ------------------------------------------------------------------------
    def seeded(self, seed: int) -> Any:
        """Game ``seed`` as ``play`` plays it (PettingZoo's ``reset(seed=)``)."""
        from .stepper import GenericStepper

        return GenericStepper(self.game, self.rules, seed)

    def initial(self) -> Any:
        """A new game for OpenSpiel: here a chance node draws its seed among ``seeds``."""
        from .stepper import GenericStepper

        return GenericStepper(self.game, self.rules, None, self.seeds)

    # -- chance hooks --------------------------------------------------------------------
    def chance_outcomes(self, pending: tuple) -> list[tuple[int, float]]:
        """The pending chance node's (outcome, probability) pairs."""
        kind, _, payload = pending
        if kind != SEED:
            raise ValueError(f"{self.game.name}: no chance outcomes for a {kind} node")
        return [(s, 1.0 / payload) for s in range(payload)]

    def chance_string(self, pending: tuple, outcome: int) -> str:
        return f"{pending[0]} {outcome}"

    # -- text ----------------------------------------------------------------------------
    def action_string(self, seat: int, decision: Any, action: int) -> str:
        return f"{self.seats[seat]} {decision.kind} {decision.options[action]}"

    def now(self, stepper: Any) -> str:
        """What the game waits for, in words."""
        kind, seat, payload = stepper.pending
        if kind == DECIDE:
            return f"{self.seats[seat]} decides {payload.kind} ({len(payload.options)} options)"
        if kind == OVER:
            win = self.winner(stepper)
            return "game over: " + ("a tie" if win is None else f"{self.seats[win]} wins")
        return f"a {kind} is drawn"

    def render(self, stepper: Any) -> str:
        """A one-line summary (PettingZoo's ``render_mode="ansi"``)."""
        return self.now(stepper)

    def position(self, stepper: Any) -> str:
        """The position in one line (OpenSpiel's ``str(state)``): a digest and ``now``."""
        return f"state {self.digest(stepper)}: {self.now(stepper)}"

    def digest(self, stepper: Any) -> str:
        """A digest of everything public: here the seed and the answers given since."""
        text = f"{stepper.seed}|{','.join(map(str, stepper.answers))}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # -- results -------------------------------------------------------------------------
    def scores(self, stepper: Any) -> list[float]:
        """Each seat's score at the end."""
        scores = stepper.outcome.scores
        return [scores[s] for s in self.seats]

    def winner(self, stepper: Any) -> int | None:
        """The winning seat's index at the end, None for a tie."""
        win = stepper.outcome.winner
        return None if win is None else self.seats.index(win)

    def returns(self, stepper: Any) -> list[float]:
        """Each seat's return: 1 for the winner, 0 for the others (0s until the end)."""
        win = self.winner(stepper) if stepper.over else None
        return [float(i == win) for i in range(len(self.seats))]

    # -- search (``openspiel-mcts``) -------------------------------------------------------
    def search_root(self, seat: int, rng: Any, search: str) -> Any:
        """Where a search may start: an object with ``at(observation, decision)`` (a stepper
        in chance mode at that Decision, or None) and ``played(action)``; None: no search."""
        return None

    def evaluator(self, seat: int, temperature: float, seed: int) -> Any:
        """An MCTS leaf evaluator of the game's own (``evaluator=ours``); None: none."""
        return None


def encoder_for(game: Any, rules: Any) -> GameEncoder:
    """The game's encoder over ``rules``, or NoEncoder (one line)."""
    made = game.encoder(rules)
    if made is None:
        raise NoEncoder(
            f"game {game.name!r} gives no encoder: the AI adapters need its encoder(rules)"
        )
    return made


def adapted(game: Any = None, variant: Any = None, rules: Any = None) -> tuple:
    """(game, rules, encoder) for the adapters: ``game`` a Game, a registered name or
    ``module:OBJECT`` (None: the default); ``variant`` a name, a file or a Variant (None:
    the base), unless compiled ``rules`` are given."""
    from simulate.games import Game, registry

    game = game if isinstance(game, Game) else registry.get(game or None)
    if rules is None:
        rules = _compiled(game, variant) if isinstance(variant, str | None) else None
    if rules is None:
        loaded = variant if hasattr(variant, "content") else game.load_variant(variant)
        rules = game.compile(loaded)
    return game, rules, encoder_for(game, rules)


@functools.lru_cache(maxsize=16)
def _compiled(game: Any, variant: str | None) -> Any:
    """A variant's rules by name or file, compiled once per process."""
    return game.compile(game.load_variant(variant or None))
