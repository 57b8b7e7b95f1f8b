"""Any game as a sequence of steps that a caller drives (PettingZoo's ``step``, OpenSpiel's
``apply_action``): the game's own ``play`` runs in a greenlet with one caller seat per seat,
and every Decision switches to the driver until it answers (docs/ai.md).

Chance stays inside the engine, drawn from the seed's streams, so a seeded stepper plays the
very game ``play`` plays with the same answers. A greenlet cannot be copied: a copy replays
the game from its seed through the answers given so far. A stepper made without a seed waits
first at a chance node, the seed (OpenSpiel's root).
"""

from __future__ import annotations

from typing import Any

import greenlet

from .pending import DECIDE, OVER, SEED


class Engine:
    """The engine's side, run in its greenlet: it never refers back to the stepper, so a
    dropped stepper frees its greenlet (greenlets are outside the cycle collector)."""

    __slots__ = ("game", "rules", "seed", "driver", "view", "outcome", "answers")

    def __init__(self, game: Any, rules: Any, seed: int) -> None:
        self.game = game
        self.rules = rules
        self.seed = seed
        self.driver = greenlet.getcurrent()
        self.view: Any = None  # the last observation the engine gave
        self.outcome: Any = None
        self.answers: list[int] = []

    def play(self) -> tuple:
        seats = tuple(Caller(self, i) for i in range(len(self.game.seats(self.rules))))
        self.outcome = self.game.play(self.seed, seats, self.rules)
        return (OVER, -1, None)


class Caller:
    """The strategy of one seat: it hands each Decision to the driver and plays its answer."""

    __slots__ = ("engine", "seat", "name")

    def __init__(self, engine: Engine, seat: int) -> None:
        self.engine = engine
        self.seat = seat
        self.name = "caller"

    def new_game(self, faction: str, rng: Any, rules: Any) -> None:
        pass

    def choose(self, observation: Any, decision: Any) -> Any:
        engine = self.engine
        engine.view = observation
        return decision.options[engine.driver.switch((DECIDE, self.seat, decision))]


class GenericStepper:
    """A game waiting at ``pending`` (``encoding``'s module docstring); ``seed`` None starts
    at the seed's chance node, over ``seeds`` outcomes."""

    __slots__ = ("game", "rules", "seeds", "engine", "green", "pending")

    def __init__(self, game: Any, rules: Any, seed: int | None, seeds: int = 0) -> None:
        self.game = game
        self.rules = rules
        self.seeds = seeds
        self.engine: Engine | None = None
        self.green: Any = None
        if seed is None:
            self.pending: tuple = (SEED, -1, seeds)
        else:
            self._start(seed)

    @property
    def seed(self) -> int | None:
        return None if self.engine is None else self.engine.seed

    @property
    def answers(self) -> tuple[int, ...]:
        return () if self.engine is None else tuple(self.engine.answers)

    @property
    def view(self) -> Any:
        return None if self.engine is None else self.engine.view

    @property
    def outcome(self) -> Any:
        """The game's Outcome once it is over (None before)."""
        return None if self.engine is None else self.engine.outcome

    @property
    def over(self) -> bool:
        return self.pending[0] == OVER

    def answer(self, value: int) -> None:
        """Answer the pending Decision with an option's index, or the seed node with a seed.
        ValueError (one line) for anything else."""
        kind, _, payload = self.pending
        if kind == OVER:
            raise ValueError("the game is over: nothing to answer")
        limit = len(payload.options) if kind == DECIDE else payload
        if isinstance(value, bool) or not 0 <= value < limit:
            what = f"{payload.kind}, {limit} options" if kind == DECIDE else f"0..{limit - 1}"
            raise ValueError(f"{value!r} does not answer the pending {kind} ({what})")
        if kind == SEED:
            self._start(int(value))
            return
        engine = self.engine
        engine.answers.append(int(value))
        engine.driver = greenlet.getcurrent()
        self.pending = self.green.switch(int(value))

    def copy(self) -> GenericStepper:
        """An independent stepper at the same point (replayed from the seed)."""
        return _restored(self.game, self.rules, self.seeds, self.seed, self.answers)

    def __deepcopy__(self, memo: dict) -> GenericStepper:
        return self.copy()  # OpenSpiel's clone deep-copies a state's attributes

    def __reduce__(self) -> tuple:
        parts = (self.rules, self.seeds, self.seed, self.answers)
        ref = getattr(self.game, "ref", "")
        return (_by_ref, (ref, *parts)) if ref else (_restored, (self.game, *parts))

    def _start(self, seed: int) -> None:
        self.engine = engine = Engine(self.game, self.rules, seed)
        self.green = greenlet.greenlet(engine.play)
        self.pending = self.green.switch()


def _restored(
    game: Any, rules: Any, seeds: int, seed: int | None, answers: tuple[int, ...]
) -> GenericStepper:
    """A stepper from its parts: the seed and the answers replayed."""
    out = GenericStepper(game, rules, seed, seeds)
    for value in answers:
        out.answer(value)
    return out


def _by_ref(ref: str, rules: Any, seeds: int, seed: int | None, answers: tuple) -> GenericStepper:
    """A pickled stepper whose game is found again by its registry reference."""
    from simulate.games import registry

    return _restored(registry.get(ref), rules, seeds, seed, answers)
