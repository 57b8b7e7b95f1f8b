"""Pig, the tiny test game: 2-5 seats race to a goal by rolling a die; a 1 loses the turn's
points. Its rules, in full:

1. Seats P1..Pn (n = ``setup.players``, 2-5) play in turn order, from P1.
2. On its turn a seat decides ``roll`` or ``bank`` (``bank`` only once it has rolled). A roll
   of 2-6 adds to the turn's points; a 1 ends the turn with none (a bust). ``bank`` adds the
   turn's points to the seat's score and ends the turn.
3. The first seat whose score reaches ``scoring.goal`` wins at once. After
   ``scoring.turn_limit`` turns the highest score wins; equal highest scores are a tie.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

ROLL, BANK = "roll", "bank"


@dataclass(frozen=True)
class Rules:
    players: int
    goal: int
    turn_limit: int

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(f"P{i + 1}" for i in range(self.players))


@dataclass
class State:
    scores: list[int]
    seat: int = 0
    turn: int = 1
    pending: int = 0  # the turn's points, not yet banked
    over: bool = False
    winner: int | None = None
    lead_changes: int = 0
    leader: int | None = None

    def copy(self) -> State:
        return State(
            list(self.scores),
            self.seat,
            self.turn,
            self.pending,
            self.over,
            self.winner,
            self.lead_changes,
            self.leader,
        )

    def digest(self) -> str:
        text = f"{self.scores}|{self.seat}|{self.turn}|{self.pending}|{self.winner}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Decision:
    """What a seat is asked: ``kind`` and its legal ``options`` (rule 2)."""

    kind: str
    faction: str  # the seat deciding (the name strategies and adapters read)
    options: tuple[str, ...]
    context: Any = None


@dataclass(frozen=True)
class Observation:
    """What every seat sees: the whole state (the game hides nothing)."""

    state: State
    rules: Rules
    seats: tuple[str, ...] = field(default=())


@dataclass
class Context:
    """One game in play: rules, state, dice, the seats' strategies and the records."""

    rules: Rules
    state: State
    dice: Any
    agents: tuple
    steps: list = field(default_factory=list)
    log: list | None = None
    on_action: Any = None


def new_state(rules: Rules) -> State:
    return State([0] * rules.players)


def play_turn(ctx: Context) -> None:
    """Rule 2: one seat's turn, to its bank or its bust; rule 3 checked after it."""
    rules, st = ctx.rules, ctx.state
    name = rules.seats[st.seat]
    agent = ctx.agents[st.seat]
    rolled = False
    action = BANK
    while True:
        options = (ROLL, BANK) if rolled else (ROLL,)
        choice = ROLL
        if len(options) > 1:
            decision = Decision("roll_or_bank", name, options, st.pending)
            choice = agent.choose(Observation(st, rules, rules.seats), decision)
            if choice not in options:
                raise ValueError(f"{name} chose {choice!r}, not one of {options}")
            if ctx.log is not None:
                ctx.log.append((st.turn, name, decision.kind, str(choice)))
        if choice == BANK:
            st.scores[st.seat] += st.pending
            break
        rolled = True
        face = 1 + int(ctx.dice.random() * 6)
        if face == 1:
            st.pending, action = 0, "bust"
            break
        st.pending += face
        if ctx.on_action is not None:
            ctx.on_action(ctx)
    ctx.steps.append((st.turn, name, action, st.pending, st.scores[st.seat]))
    st.pending = 0
    _after_turn(rules, st)
    if ctx.on_action is not None:
        ctx.on_action(ctx)


def _after_turn(rules: Rules, st: State) -> None:
    best = max(st.scores)
    leaders = [i for i, s in enumerate(st.scores) if s == best]
    if len(leaders) == 1 and best > 0 and leaders[0] != st.leader:
        if st.leader is not None:
            st.lead_changes += 1
        st.leader = leaders[0]
    if st.scores[st.seat] >= rules.goal:  # rule 3: at once
        st.over, st.winner = True, st.seat
        return
    if st.turn >= rules.turn_limit:
        st.over = True
        st.winner = leaders[0] if len(leaders) == 1 else None
        return
    st.turn += 1
    st.seat = (st.seat + 1) % rules.players


def check(ctx: Context) -> None:
    """The invariants: scores within 0..goal+6, the seat in range, no points after a bust."""
    st, rules = ctx.state, ctx.rules
    if not 0 <= st.seat < rules.players:
        raise AssertionError(f"seat {st.seat} out of range")
    for s in st.scores:
        if not 0 <= s < rules.goal + 6 * rules.goal:
            raise AssertionError(f"score {s} out of range")
