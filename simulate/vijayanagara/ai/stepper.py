"""Vijayanagara as a sequence of steps that a caller drives (PettingZoo's ``step``,
OpenSpiel's ``apply_action``), the game's own stepper in place of ``simulate.ai.stepper``'s:
the engine, which asks its strategies synchronously (``ctx.ask``), runs in a greenlet and
stops at every Decision, and in chance mode at every card draw and die, until the caller
answers.

Why a greenlet: a round trip costs 0.4 us, against 12 us for a worker thread handing over
through locks; on the same random games, the engine in a greenlet runs at x1.15 the time of
``play_game``, in a worker thread at x2.8 to x3.6, and replaying the card from its
start at every step at x12 to x14 (``benchmarks/bench_ai.py speed``).

A copy (OpenSpiel's ``clone``) cannot copy a running greenlet: it replays instead, from a
snapshot of the state taken where nothing is in progress (before each card is drawn, or
where the stepper was started) and the answers given since.
"""

from __future__ import annotations

import random
from typing import Any

import greenlet

from simulate.ai.pending import DECIDE, OVER
from simulate.vijayanagara.rules import sequence
from simulate.vijayanagara.rules.context import Context
from simulate.vijayanagara.rules.decisions import Decision
from simulate.vijayanagara.rules.dice import BattleDice
from simulate.vijayanagara.rules.observation import Observation
from simulate.vijayanagara.rules.pieces import INDEX
from simulate.vijayanagara.rules.ruleset import Rules
from simulate.vijayanagara.rules.setup import new_state
from simulate.vijayanagara.rules.state import GameState
from simulate.vijayanagara.seeds import streams

from .chance import FACES, ChanceContext, card_outcomes, with_drawn

CARD, DIE = "card", "die"  # its chance nodes (DECIDE and OVER: simulate.ai.pending)


class Engine:
    """The engine's side of a stepper, run in its greenlet: it never refers back to the
    Stepper, so a dropped Stepper frees its greenlet (greenlets are outside the cycle
    collector: a Stepper -> greenlet -> frame -> Stepper cycle would leak)."""

    __slots__ = ("rules", "chance", "ctx", "driver", "base", "answers")

    def __init__(self, rules: Rules, chance: bool, base: tuple) -> None:
        self.rules = rules
        self.chance = chance
        self.base = base  # (state, dice, resume) where nothing is in progress
        self.answers: list[int] = []  # given since ``base``
        state, dice, resume = base
        st = state.copy()
        seats = (Seat(self), Seat(self), Seat(self))
        if chance:
            ctx = ChanceContext(rules, st, None, seats, Observation(rules, st))
            ctx.roll_die = self.die
            ctx.fought = {}
        else:
            ctx = Context(rules, st, _copied(dice), seats, Observation(rules, st))
        self.ctx = ctx
        self.driver = greenlet.getcurrent()

    def play(self, resume: bool) -> tuple:
        """The engine's loop (``play_game``'s), drawing from chance nodes in chance mode."""
        ctx = self.ctx
        st = ctx.state
        if resume:
            sequence.resume_card(ctx)
        while not st.over:
            self.base = (st.copy(), _copied(ctx.dice), False)
            self.answers = []
            if self.chance:
                ctx.fought = {}
                outcomes = card_outcomes(self.rules, st.deck, st.pos)
                card = outcomes[0][0]
                if len(outcomes) > 1:
                    card = self.driver.switch((CARD, -1, outcomes))
                st.deck = with_drawn(st.deck, st.pos, card)
            sequence.next_card(ctx)
        return (OVER, -1, None)

    def die(self, battle: Any) -> int:
        return self.driver.switch((DIE, -1, battle)) + 1


class Seat:
    """The strategy the engine asks for a Faction: it hands the Decision to the caller."""

    __slots__ = ("engine", "name")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = "caller"

    def choose(self, observation: Any, decision: Decision) -> Any:
        ask = (DECIDE, INDEX[decision.faction], decision)
        return decision.options[self.engine.driver.switch(ask)]


class Stepper:
    """A game waiting at ``pending``: ``(DECIDE, faction, Decision)``, ``(CARD, -1, ((card,
    probability), ...))``, ``(DIE, -1, battle)`` or ``(OVER, -1, None)``; ``answer`` moves it
    on. ``chance`` False plays the seed's deck and dice exactly as ``play_game`` does."""

    __slots__ = ("engine", "green", "pending")

    def __init__(
        self, rules: Rules, state: GameState, dice: BattleDice | None, resume: bool = False
    ) -> None:
        self._start(rules, dice is None, (state.copy(), _copied(dice), resume), ())

    @classmethod
    def seeded(cls, rules: Rules, seed: int) -> Stepper:
        """Game ``seed`` with its own deck and dice (the streams ``play_game`` uses)."""
        rngs = streams(seed)
        state = new_state(rules, rngs["deck"])
        return cls(rules, state, BattleDice(rngs["dice"]))

    @classmethod
    def with_chance(cls, rules: Rules) -> Stepper:
        """A new game whose cards and dice are chance nodes (no deck order exists)."""
        return cls(rules, new_state(rules, random.Random(0)), None)

    @classmethod
    def at_turn(cls, rules: Rules, state: GameState) -> Stepper:
        """A game with chance nodes resumed at ``state``: a Faction's turn on the Event card
        in play (the acted mask says who is done, 2.3.2)."""
        return cls(rules, state, None, resume=True)

    @property
    def state(self) -> GameState:
        return self.engine.ctx.state

    @property
    def view(self) -> GameState:
        """What the encoder reads: the state (it reads only what is public)."""
        return self.engine.ctx.state

    @property
    def rules(self) -> Rules:
        return self.engine.rules

    @property
    def over(self) -> bool:
        return self.pending[0] == OVER

    def answer(self, value: int) -> None:
        """Answer what the stepper waits for: an option's index, a card index or a die face
        0..5. ValueError (one line) for anything else."""
        kind, _, payload = self.pending
        if kind == DECIDE:
            ok = 0 <= value < len(payload.options)
        elif kind == CARD:
            ok = any(value == c for c, _ in payload)
        elif kind == DIE:
            ok = 0 <= value < FACES
        else:
            raise ValueError("the game is over: nothing to answer")
        if not ok or isinstance(value, bool):
            raise ValueError(
                f"{value!r} does not answer the pending {kind} ({_what(self.pending)})"
            )
        engine = self.engine
        engine.answers.append(value)
        engine.driver = greenlet.getcurrent()
        self.pending = self.green.switch(value)

    def copy(self) -> Stepper:
        """An independent stepper at the same point (replayed from the last snapshot)."""
        e = self.engine
        return _restored(e.rules, e.chance, e.base, e.answers)

    def __deepcopy__(self, memo: dict) -> Stepper:
        return self.copy()  # OpenSpiel's clone deep-copies a state's attributes

    def __reduce__(self) -> tuple:
        e = self.engine
        return (_restored, (e.rules, e.chance, e.base, list(e.answers)))

    def _start(self, rules: Rules, chance: bool, base: tuple, answers) -> None:
        """Start the engine from ``base`` and give it ``answers``."""
        self.engine = engine = Engine(rules, chance, base)
        self.green = greenlet.greenlet(engine.play)
        self.pending = self.green.switch(base[2])
        for value in answers:
            self.answer(value)


def _restored(rules: Rules, chance: bool, base: tuple, answers: list[int]) -> Stepper:
    """A stepper from its pickled parts (OpenSpiel serialises a state's attributes)."""
    out = Stepper.__new__(Stepper)
    out._start(rules, chance, base, tuple(answers))
    return out


def _copied(dice: BattleDice | None) -> BattleDice | None:
    """An independent copy of the game's dice (its key and the battles fought so far)."""
    if dice is None:
        return None
    out = BattleDice.__new__(BattleDice)
    out.key = dice.key
    out.fought = dict(dice.fought)
    return out


def _what(pending: tuple) -> str:
    kind, faction, payload = pending
    if kind == DECIDE:
        return f"{payload.kind} of {payload.faction}, {len(payload.options)} options"
    if kind == CARD:
        return f"one of {len(payload)} cards"
    return "a face 0..5"
