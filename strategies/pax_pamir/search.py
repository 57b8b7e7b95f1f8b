"""Pax Pamir's search bots over the heuristic (issue 66): ``greedy`` and ``mcts``. Both search
the turn's main choice (the "action" decision) on determinisations of what the seat cannot
see (``Observation.determinise``: other hands and the deck dealt again), resuming the engine
there (``engine.actions``) with heuristic bots in every seat; every other decision is the
heuristic's.

- ``greedy:samples=4``: each option played on ``samples`` determinisations, the rest of the
  turn by the heuristic; the option whose position is best on average (``evaluate``) wins.
- ``mcts:playouts=64,turns=0,c=0.7``: flat UCB1 over the options, each playout a
  determinisation played to the end of the game (or ``turns`` more turns, then ``evaluate``)
  by the heuristic; the most visited option wins. Against Wakhan, playouts play her seat by
  the heuristic too (her AI deck is hidden from the other seats).
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from typing import Any

from simulate.pax_pamir import actions as A
from simulate.pax_pamir import dominance
from simulate.pax_pamir import engine as E
from simulate.pax_pamir import options as O

from .heuristic import Heuristic


def evaluate(data: Any, state: Any, me: int) -> float:
    """A position's worth to ``me``: its points after a Dominance Check resolved now, less the
    best other player's (RB p15: the check's awards are what a position is worth)."""
    awarded = dominance.check(data, state).awarded
    mine = state.points[me] + awarded[me]
    best = max(state.points[p] + awarded[p] for p in range(state.players) if p != me)
    return mine - best


def outcome_value(ctx: E.Context, me: int) -> float:
    """A finished playout's value to ``me``: 1 for a win, 0 for a loss, a share of a tie; an
    unfinished one ``evaluate``d and squashed to (0, 1)."""
    if ctx.over:
        if ctx.winner is not None:
            return 1.0 if ctx.winner == me else 0.0
        return 1.0 / len(ctx.tied) if me in ctx.tied else 0.0
    return 1.0 / (1.0 + math.exp(-evaluate(ctx.data, ctx.state, me) / 3.0))


class _Search(ABC):
    """What both searches share: the heuristic for every decision but the main one, and a
    team of heuristic bots (one per seat) for the playouts."""

    name = "search"

    def __init__(self, **params: Any) -> None:
        self.base = Heuristic()
        self.rng = random.Random(0)

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.rng, self.rules, self.me = rng, rules, rules.seats.index(faction)
        self.base.new_game(faction, rng, rules)
        self.team = [Heuristic() for _ in rules.seats]
        for seat, bot in zip(rules.seats, self.team, strict=True):
            bot.new_game(seat, random.Random(rng.random()), rules)

    def choose(self, observation: Any, decision: Any) -> Any:
        if decision.kind != "action" or len(decision.options) < 2:
            return self.base.choose(observation, decision)
        return self.search(observation, decision)

    @abstractmethod
    def search(self, observation: Any, decision: Any) -> int:
        """The main choice's pick (each search's own)."""

    def resume(self, observation: Any, decision: Any, option: int) -> E.Context:
        """A determinisation with ``option`` taken and the rest of the turn played."""
        state = observation.determinise(self.rng)
        ctx = E.Context(self.rules, state, self.team)
        left, used, refused = decision.context
        ctx.turn = A.Turn(left)
        ctx.turn.used = list(used)
        if option != O.PASS:
            refused = set(refused)
            if not E.do(ctx, self.me, option):
                refused.add(option)
            E.actions(ctx, self.me, refused)
        E.finish_turn(ctx, self.me)
        return ctx


class Greedy(_Search):
    """The option whose turn ends best on average (``evaluate``) over ``samples``."""

    name = "greedy"

    tiebreak = 0.1  # the heuristic's value of an option, per sample, added to its evaluation

    def __init__(self, samples: int = 4, **params: Any) -> None:
        super().__init__(**params)
        if not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be a positive integer, got {samples!r}")
        self.samples = samples

    def search(self, observation: Any, decision: Any) -> int:
        best, value = decision.options[0], -math.inf
        st = observation.state
        self.base.position(st)
        for option in decision.options:
            # ties (most turns change no check's result) go to the heuristic's preference
            prior = 0.0 if option == O.PASS else self.base.value(st, option)
            total = self.tiebreak * self.samples * prior
            for _ in range(self.samples):
                ctx = self.resume(observation, decision, option)
                total += (
                    outcome_value(ctx, self.me)
                    if ctx.over
                    else evaluate(ctx.data, ctx.state, self.me)
                )
            if total > value:
                best, value = option, total
        return best


class MCTS(_Search):
    """Flat UCB1 over the main options, playouts by the heuristic (see the module)."""

    name = "mcts"

    def __init__(self, playouts: int = 64, turns: int = 0, c: float = 0.7, **params: Any) -> None:
        super().__init__(**params)
        for key, value in (("playouts", playouts), ("turns", turns)):
            if not isinstance(value, int) or value < (1 if key == "playouts" else 0):
                raise ValueError(
                    f"{key} must be a {'positive' if key == 'playouts' else 'non-negative'} integer, got {value!r}"
                )
        self.playouts, self.turns, self.c = playouts, turns, float(c)

    def search(self, observation: Any, decision: Any) -> int:
        options = decision.options
        visits = [0] * len(options)
        wins = [0.0] * len(options)
        for k in range(max(self.playouts, len(options))):
            if k < len(options):
                i = k
            else:
                log = math.log(k)
                i = max(
                    range(len(options)),
                    key=lambda j: wins[j] / visits[j] + self.c * math.sqrt(log / visits[j]),
                )
            ctx = self.resume(observation, decision, options[i])
            self.play_out(ctx)
            visits[i] += 1
            wins[i] += outcome_value(ctx, self.me)
        return options[max(range(len(options)), key=lambda j: (visits[j], wins[j]))]

    def play_out(self, ctx: E.Context) -> None:
        """Turns after the searched one, to the end or ``turns`` of them (the engine's loop)."""
        state, played = ctx.state, 0
        while not ctx.over and (self.turns == 0 or played < self.turns):
            state.turn = (state.turn + 1) % state.players
            E.take_turn(ctx)
            played += 1
            if played >= ctx.rules.max_turns:
                break
