"""The Context a rule function works in: the state, the compiled rules, the dice, and the
way to ask a Faction a Decision. Rule functions change ``ctx.state`` in place."""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from .decisions import Decision, IllegalChoice, render
from .pieces import NAMES
from .ruleset import Rules
from .state import GameState


class StrategyError(RuntimeError):
    """A strategy raised, or returned an option it was not offered."""


class DecisionTimeout(StrategyError):
    """A strategy took longer than the per-decision limit (``--decision-timeout``)."""


def _alarm(signum, frame):  # SIGALRM handler: interrupt a strategy stuck in one decision
    raise DecisionTimeout("decision timed out")


class Context:
    """One game in progress: ``ask`` routes each Decision to the deciding Faction's strategy."""

    __slots__ = (
        "rules",
        "state",
        "dice",
        "agents",
        "obs",
        "trace",
        "log",
        "on_action",
        "granted",
        "timeout",
    )

    def __init__(
        self,
        rules: Rules,
        state: GameState,
        dice: random.Random,
        agents: tuple,
        obs: Any = None,
        trace: list | None = None,
        on_action: Callable[[Context], None] | None = None,
    ) -> None:
        self.rules = rules
        self.state = state
        self.dice = dice
        self.agents = agents  # strategy per Faction (DS, BK, VE)
        self.obs = obs
        self.trace = trace  # list of (turn, faction, kind, option) when tracing
        self.log: list[list] = [
            ["none", None, None] for _ in range(3)
        ]  # per card: action, command, decree
        self.on_action = on_action  # called after every action (invariant checks in tests)
        self.granted: set[str] = set()  # Commands granted by an Event outside their normal timing
        self.timeout: float | None = None  # seconds a strategy may take per decision

    def ask(self, faction: int, kind: str, options: tuple | list, context: Any = None) -> Any:
        """The option chosen by ``faction``'s strategy; a lone option is taken without asking."""
        if len(options) == 1:
            choice = options[0]
        else:
            options = tuple(options)
            decision = Decision(kind, NAMES[faction], options, context)
            agent = self.agents[faction]
            try:
                if self.timeout is None:
                    choice = agent.choose(self.obs, decision)
                else:
                    choice = self._timed(agent, decision)
            except DecisionTimeout:
                raise DecisionTimeout(
                    f"strategy {getattr(agent, 'name', type(agent).__name__)!r} for {NAMES[faction]} "
                    f"took longer than {self.timeout:g} s on decision {kind}"
                ) from None
            except Exception as exc:
                raise StrategyError(
                    f"strategy {getattr(agent, 'name', type(agent).__name__)!r} for {NAMES[faction]} "
                    f"raised {type(exc).__name__}: {exc} (decision {kind})"
                ) from exc
            if choice not in options:
                raise StrategyError(
                    f"strategy for {NAMES[faction]} chose {choice!r}, not an offered option of {kind}"
                ) from IllegalChoice(kind)
        if self.trace is not None:
            self.trace.append((self.state.pos, NAMES[faction], kind, render(choice)))
        return choice

    def _timed(self, agent, decision: Decision):
        """Ask with a deadline: SIGALRM interrupts a hung strategy in the main thread; elsewhere
        (threads) the limit is checked when the strategy returns."""
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
            try:
                return agent.choose(self.obs, decision)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        start = time.monotonic()
        choice = agent.choose(self.obs, decision)
        if time.monotonic() - start > self.timeout:
            raise DecisionTimeout("decision timed out")
        return choice

    def battle_dice(self, space: int, attacker: int, defender: int) -> Any:
        """The dice of one battle in ``space`` (1.10): a stream of its own when the game's
        dice are ``dice.BattleDice`` (played games), else the one stream given (searches,
        loaded dice in tests)."""
        keyed = getattr(self.dice, "battle", None)
        if keyed is None:
            return self.dice
        return keyed((self.state.pos, space, attacker, defender))

    def roll(self, n: int, dice: Any = None) -> list[int]:
        """``n`` six-sided dice from ``dice`` (a battle's stream), else the game's dice."""
        r = (self.dice if dice is None else dice).random
        return [int(r() * 6) + 1 for _ in range(n)]

    def action_done(self) -> None:
        if self.on_action is not None:
            self.on_action(self)
