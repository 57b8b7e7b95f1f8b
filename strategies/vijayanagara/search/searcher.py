"""What the searches (``greedy``, ``mcts``) share: the candidate top-level moves of a turn,
and playing one of them out on a private copy of the position, over the policy they are given
(``protocol.Policy``).

A candidate is an ``action`` option (2.3.3) with the plan the policy would follow under it
(its Command and Decree), the Event split into its two sides (2.3.4), and optionally each
other Command the faction could pick. Every copy comes from ``Observation.determinise``: the
unseen cards are redrawn, so no bot ever sees the real deck order (DESIGN: Decisions).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from simulate.vijayanagara.rules import search
from simulate.vijayanagara.rules.dice import SeededDice
from simulate.vijayanagara.rules.events import SIDES  # an Event's two texts (2.3.4)
from simulate.vijayanagara.rules.pieces import INDEX
from simulate.vijayanagara.rules.sequence import COMMAND, EVENT_OPTION, LIMITED, PASS
from simulate.vijayanagara.rules.sequence import COMMAND_DECREE as CD

from .protocol import Policy

ACTIONS = (CD, COMMAND, LIMITED, PASS, EVENT_OPTION)  # the turn's options (2.3.3)
COMMANDS = (CD, COMMAND, LIMITED)  # the actions that carry a Command (2.3.3)
NAMES = ("DS", "BK", "VE")


def excluded(spec: str) -> frozenset[str]:
    """The moves named by a search bot's ``exclude`` (actions, 2.3.3, and Commands, 3.2-3.4,
    joined by ``+``), which it never considers: an ablation that shows how much of a
    search's gain comes from, say, its Events (``exclude=event``). ValueError on a bad name."""
    from simulate.vijayanagara.rules.ruleset import load_rules

    names = frozenset(x for x in str(spec).split("+") if x)
    commands = {c for f in load_rules().factions.values() for c in f["commands"]}
    bad = sorted(names - set(ACTIONS) - commands)
    if bad:
        known = ", ".join((*ACTIONS, *sorted(commands)))
        raise ValueError(f"exclude: unknown move {bad[0]!r} (known: {known})")
    return names


class Candidate:
    """One top-level move: the forced ``action`` and the plan its faction bot follows."""

    __slots__ = ("action", "plan", "label")

    def __init__(self, action: str, plan: dict, label: str) -> None:
        self.action = action
        self.plan = plan
        self.label = label

    def __repr__(self) -> str:
        return f"Candidate({self.label})"


class Searcher:
    """The policy a search bot falls back on, its playout team, and its candidates."""

    def __init__(
        self,
        policy: Policy,
        rollout: Callable[[], Any] | None = None,
        exclude: str = "",
    ) -> None:
        """A searcher over ``policy``'s plans (a policy that never weighs the Event itself:
        the search does); ``rollout`` makes the bots of fast playouts (e.g. random: ``mcts``
        with ``policy=random``; None: the policy's plain copies play them too)."""
        self.policy = policy
        self.rollout = rollout
        self.exclude = excluded(exclude) if exclude else frozenset()  # moves never considered
        self.own: tuple = ()  # the policy's own pick at the last choice (``candidates``)
        self.default: str | None = None  # the action it valued best there
        self.faction = -1
        self.rules: Any = None
        self.rng = random.Random(0)

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.faction = INDEX[faction]
        self.rules = rules
        self.rng = rng
        self.policy.new_game(faction, rng, rules)
        self.ev = self.policy.evaluation  # this seat's (2.3.3 eligibility value included)
        self.elig = self.policy.eligibility
        self.team = self.policy.team(rng)
        self.fast = self.team if self.rollout is None else self._fast_team()

    def _fast_team(self) -> tuple:
        """The bots ``rollout`` makes, one per Faction, each with its own generator."""
        out = []
        for name in NAMES:
            rng = random.Random(self.rng.getrandbits(32))
            bot = self.rollout()
            bot.new_game(name, rng, self.rules)
            out.append(bot)
        return tuple(out)

    def candidates(self, obs, decision, expand: bool = False) -> list[Candidate]:
        """The policy's plan for each offered action; the Event by side; with ``expand``
        every other Command with a space to select (and each Decree under Command + Decree).
        What the policy itself would play (its learned choice, when it has one) is kept in
        ``own`` as (action, Command, Decree): ``is_own`` finds its candidate; the action it
        valued best, in ``default``."""
        plans = self.policy.turn_plans(obs, decision, expand)
        self.own = plans.own
        self.default = plans.valued_best
        cmd, lim, dec = plans.command, plans.limited, plans.decree
        # a Command with no space to select now (3.1.1) would only repeat another candidate
        commands = plans.commands
        out: list[Candidate] = []
        for a in decision.options:
            if a == EVENT_OPTION:
                for side in SIDES:
                    out.append(Candidate(a, {"action": a, "side": side}, f"event:{side}"))
            elif a == PASS:
                out.append(Candidate(a, {"action": a}, a))
            elif a == LIMITED:
                out.append(
                    Candidate(a, {"action": a, "command": lim, "decree": None}, f"{a}:{lim}")
                )
                if expand:
                    for c in commands:
                        if c != lim:
                            out.append(
                                Candidate(a, {"action": a, "command": c, "force": True}, f"{a}:{c}")
                            )
            else:
                label = f"{a}:{cmd}" + (f"+{dec}" if a == CD else "")
                out.append(Candidate(a, {"action": a, "command": cmd, "decree": dec}, label))
                if expand:
                    decs = plans.decrees if a == CD else (None,)
                    for c in commands:
                        for d in decs:
                            if c == cmd and d == dec:
                                continue
                            plan = {"action": a, "command": c, "decree": d, "force": True}
                            out.append(Candidate(a, plan, f"{a}:{c}" + (f"+{d}" if d else "")))
        if self.exclude:  # (never every move: a turn must be played)
            ex = self.exclude
            kept = [c for c in out if c.action not in ex and c.plan.get("command") not in ex]
            return kept or out
        return out

    def play(
        self,
        state,
        cand: Candidate,
        dice_seed: int,
        finish: bool = True,
        horizon: int | None = 0,
        fast: bool = False,
    ) -> Any:
        """Play ``cand`` on a copy of ``state``: the faction's turn (its policy following the
        candidate's plan), the rest of the card if ``finish`` (the policy's copies playing
        the others), then ``horizon`` more cards (None: to the end) by the playout team
        (``fast``: the bots ``rollout`` makes)."""
        ctx = self.start(state, cand, dice_seed)
        if finish and not ctx.state.over:
            search.finish_card(ctx)
        if (horizon is None or horizon > 0) and not ctx.state.over:
            if fast:
                ctx.agents = self.fast
            search.play_out(ctx, horizon)
        return ctx.state

    def start(self, state, cand: Candidate, dice_seed: int) -> Any:
        """A copy of ``state`` after ``cand``'s turn alone (its faction's policy following
        the candidate's plan), as a Context the card can be finished on."""
        team = self.team
        for f, member in enumerate(team):
            if f == self.faction:
                # ranking spaces as the policy did when it planned this turn (its k_action on
                # this position): its own turn refreshes the best of them, as in a real game
                member.follow(cand.plan, like=self.policy)
            else:
                member.follow({})
        # every candidate of a choice plays on the same dice (common random numbers)
        ctx = search.branch(self.rules, state, team, SeededDice(dice_seed))
        search.apply_action(ctx, self.faction, cand.action)
        return ctx

    def pause(self) -> tuple:
        """What the team's bots carry from one turn to the next on a card (their plans and
        battles), so that a started copy can be finished after others were played."""
        return tuple(member.pending() for member in self.team)

    def finish(self, ctx: Any, paused: tuple) -> Any:
        """Finish the card on a copy ``start`` made, the team's bots as ``pause`` saw them."""
        for member, pending in zip(self.team, paused, strict=True):
            member.resume(pending)
        if not ctx.state.over:
            search.finish_card(ctx)
        return ctx.state

    def screened(
        self, cands: list[Candidate], worlds: list[tuple], default: str | None, keep: int
    ) -> list[float]:
        """Each candidate's mean margin after the card on ``worlds`` (copies and dice), but
        the Command candidates other than the policy's own choice (3.0: every other
        Command and Decree) are screened by the position after the faction's own turn (plus
        the worth of staying Eligible after a Limited Command, 2.3.7): only the ``keep``
        best of them are played to the end of the card, the rest score -1e18. The Event
        sides, Pass, the action the policy valued best (``default``) and what it would
        play (``own``: its learned choice may pick another Command) are always finished."""
        n = len(worlds)
        started: dict[tuple[int, int], tuple] = {}  # (candidate, world) -> its copy, paused
        screened: dict[int, float] = {}
        for i, cand in enumerate(cands):
            if self.screens(cand, default):
                total = 0.0
                for w, (state, dice) in enumerate(worlds):
                    ctx = self.start(state, cand, dice)
                    started[i, w] = (ctx, self.pause())
                    total += self.ev.margin(ctx.state, self.faction)
                screened[i] = total / n + (self.elig if cand.action == LIMITED else 0.0)
        kept = set(sorted(screened, key=lambda i: -screened[i])[:keep])
        scores = [-1e18] * len(cands)
        for i, cand in enumerate(cands):
            if i in screened and i not in kept:
                continue
            total = 0.0
            for w, (state, dice) in enumerate(worlds):
                if (i, w) in started:
                    total += self.margin(self.finish(*started[i, w]))
                else:
                    total += self.margin(self.play(state, cand, dice, True))
            scores[i] = total / n
        return scores

    def screens(self, cand: Candidate, default: str | None) -> bool:
        """Whether the screen ranks ``cand`` by the position after its own turn: a Command
        or Decree (3.0) other than what the policy would play (``own``) and than the
        action it valued best (``default``); every other candidate finishes its card."""
        if self.is_own(cand) or cand.action not in COMMANDS:
            return False
        return bool(cand.plan.get("force")) or cand.action != default

    def is_own(self, cand: Candidate) -> bool:
        """Whether ``cand`` is what the policy itself would play (``own``)."""
        plan = cand.plan
        return (cand.action, plan.get("command"), plan.get("decree")) == self.own

    def margin(self, state) -> float:
        """The evaluation's margin for this faction, plus the worth of being Eligible for
        the next card (2.3.7) while the game goes on."""
        m = self.ev.margin(state, self.faction)
        if not state.over and state.eligible[self.faction]:
            m += self.elig
        return m


class SearchStrategy(ABC):
    """What the search bots share: their policy decides every choice except the top-level
    action of a turn (2.3.3), which the subclass searches in ``decide``. A fixed generator
    (seed 0) serves until ``new_game`` hands out the game's."""

    search: Searcher
    params: dict[str, Any]
    rng: random.Random

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.rng = rng
        self.search.new_game(faction, rng, rules)

    def choose(self, observation: Any, decision: Any) -> Any:
        if decision.kind == "action" and len(decision.options) > 1:
            return self.decide(observation, decision)
        return self.search.policy.choose(observation, decision)

    @abstractmethod
    def decide(self, observation: Any, decision: Any) -> str:
        """The searched top-level action."""
