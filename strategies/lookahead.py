"""What the search bots (``greedy``, ``mcts``) share: the candidate top-level moves of a
turn, and playing one of them out on a private copy of the position.

A candidate is an ``action`` option (2.3.3) with the plan the heuristic would follow under
it (its Command and Decree), the Event split into its two sides (2.3.4), and optionally each
other Command the faction could pick. Every copy comes from ``Observation.determinise``: the
unseen cards are redrawn, so no bot ever sees the real deck order (DESIGN: Decisions).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from simulate.rules import search
from simulate.rules.pieces import INDEX

from .heuristic import HeuristicStrategy
from .heuristic.common import CD, COMMAND, EVENT, LIMITED, PASS

SIDES = ("unshaded", "shaded")
ACTIONS = (CD, COMMAND, LIMITED, PASS, EVENT)  # the turn's options (2.3.3)
COMMANDS = (CD, COMMAND, LIMITED)  # the actions that carry a Command (2.3.3)


def excluded(spec: str) -> frozenset[str]:
    """The moves named by a search bot's ``exclude`` (actions, 2.3.3, and Commands, 3.2-3.4,
    joined by ``+``), which it never considers: an ablation that shows how much of a
    search's gain comes from, say, its Events (``exclude=event``). ValueError on a bad name."""
    from simulate.rules.ruleset import load_rules

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
    """The heuristic a search bot falls back on, its rollout team, and its candidates."""

    def __init__(
        self,
        weights: str | None,
        heuristic_params: dict,
        rollout: str = "heuristic",
        exclude: str = "",
    ) -> None:
        if rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout must be 'heuristic' or 'random', got {rollout!r}")
        self.rollout = rollout
        self.exclude = excluded(exclude)  # moves never considered
        self.own: tuple = ()  # the heuristic's own pick at the last choice (``candidates``)
        params = dict(heuristic_params)
        params["events"] = "never"  # the search itself weighs the Event
        params["play.lookahead"] = "none"  # and chooses the action: no lookahead inside,
        params["play.mcts_cards"] = 0  # nor an end-game search
        self.base = HeuristicStrategy(weights=weights, **params)
        self.weights = self.base.weights
        self.faction = -1
        self.rules: Any = None
        self.rng = random.Random(0)
        self._dice_seed: int | None = None
        self._dice_state: tuple = ()

    @classmethod
    def around(cls, base: HeuristicStrategy) -> Searcher:
        """A searcher over ``base``'s plans (a heuristic bot that never weighs the Event)."""
        searcher = cls.__new__(cls)
        searcher.rollout = "heuristic"
        searcher.exclude = frozenset()
        searcher.own = ()
        searcher.base = base
        searcher.weights = base.weights
        searcher.faction = -1
        searcher.rules = None
        searcher.rng = random.Random(0)
        searcher._dice_seed = None
        searcher._dice_state = ()
        return searcher

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.faction = INDEX[faction]
        self.rules = rules
        self.rng = rng
        self.base.new_game(faction, rng, rules)
        self.weights = self.base.weights  # this seat's (2.3.3 eligibility value included)
        self.ev = self.base.ev
        self.elig = float(self.weights["play"]["eligibility"])
        self.team = self._team(heuristic=True)
        self.fast = self.team if self.rollout == "heuristic" else self._team(heuristic=False)

    def _team(self, heuristic: bool) -> tuple:
        from .random_bot import RandomStrategy

        out = []
        for name in ("DS", "BK", "VE"):
            rng = random.Random(self.rng.getrandbits(32))
            if heuristic:
                own = self.base.overrides if INDEX[name] == self.faction else None
                bot = type(self.base).plain(self.base.shared, own)
                bot.new_game(name, rng, self.rules)
            else:
                bot = RandomStrategy()
                bot.new_game(name, rng, self.rules)
            out.append(bot)
        return tuple(out)

    def candidates(self, obs, decision, expand: bool = False) -> list[Candidate]:
        """The heuristic's plan for each offered action; the Event by side; with ``expand``
        every other Command with a space to select (and each Decree under Command + Decree).
        What the heuristic itself would play (its learned choice, when it has one) is kept
        in ``own`` as (action, Command, Decree): ``is_own`` finds its candidate."""
        bot = self.base.bot
        chosen = bot.choose(obs, decision)  # fills bot.last with the plan of each option
        self.own = (chosen, bot.plan.get("command"), bot.plan.get("decree"))
        last = bot.last
        cmd, lim, dec = last.get("command"), last.get("limited"), last.get("decree")
        out: list[Candidate] = []
        # a Command with no space to select now (3.1.1) would only repeat another candidate
        commands = [c for c in bot.commands if bot.spaces_for(obs, c)] if expand else ()
        for a in decision.options:
            if a == "event":
                for side in SIDES:
                    out.append(Candidate(a, {"action": a, "side": side}, f"event:{side}"))
            elif a == "pass":
                out.append(Candidate(a, {"action": a}, a))
            elif a == "limited":
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
                label = f"{a}:{cmd}" + (f"+{dec}" if a == "command_decree" else "")
                out.append(Candidate(a, {"action": a, "command": cmd, "decree": dec}, label))
                if expand:
                    decs = bot.decrees if a == "command_decree" else (None,)
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
        """Play ``cand`` on a copy of ``state``: the faction's turn (its heuristic following
        the candidate's plan), the rest of the card if ``finish`` (heuristic opponents), then
        ``horizon`` more cards (None: to the end) by the rollout team (``fast``: random)."""
        ctx = self.start(state, cand, dice_seed)
        if finish and not ctx.state.over:
            search.finish_card(ctx)
        if (horizon is None or horizon > 0) and not ctx.state.over:
            if fast:
                ctx.agents = self.fast
            search.play_out(ctx, horizon)
        return ctx.state

    def start(self, state, cand: Candidate, dice_seed: int) -> Any:
        """A copy of ``state`` after ``cand``'s turn alone (its faction's heuristic following
        the candidate's plan), as a Context the card can be finished on."""
        team = self.team
        for member in team:
            member.bot.plan = {}
            member.bot.battle = None
        own = team[self.faction].bot
        own.plan = dict(cand.plan)
        # the space values the heuristic ranked when it planned this turn (its k_action on
        # this position): its own turn refreshes the best of them, as in a real game
        own.ranked = dict(self.base.bot.ranked)
        ctx = search.branch(self.rules, state, team, self._dice(dice_seed))
        search.apply_action(ctx, self.faction, cand.action)
        return ctx

    def _dice(self, seed: int) -> random.Random:
        """``random.Random(seed)``, from the state of the last seed asked for: every
        candidate of a choice plays on the same dice (common random numbers)."""
        if seed != self._dice_seed:
            self._dice_seed = seed
            self._dice_state = random.Random(seed).getstate()
        dice = random.Random.__new__(random.Random)
        dice.setstate(self._dice_state)
        return dice

    def pause(self) -> tuple:
        """What the team's bots carry from one turn to the next on a card (their plans and
        battles), so that a started copy can be finished after others were played."""
        return tuple((dict(m.bot.plan), m.bot.battle) for m in self.team)

    def finish(self, ctx: Any, paused: tuple) -> Any:
        """Finish the card on a copy ``start`` made, the team's bots as ``pause`` saw them."""
        for member, (plan, battle) in zip(self.team, paused, strict=True):
            member.bot.plan = dict(plan)
            member.bot.battle = battle
        if not ctx.state.over:
            search.finish_card(ctx)
        return ctx.state

    def screened(
        self, cands: list[Candidate], worlds: list[tuple], default: str | None, keep: int
    ) -> list[float]:
        """Each candidate's mean margin after the card on ``worlds`` (copies and dice), but
        the Command candidates other than the heuristic's own choice (3.0: every other
        Command and Decree) are screened by the position after the faction's own turn (plus
        the worth of staying Eligible after a Limited Command, 2.3.7): only the ``keep``
        best of them are played to the end of the card, the rest score -1e18. The Event
        sides, Pass, the action the heuristic valued best (``default``) and what it would
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
        or Decree (3.0) other than what the heuristic would play (``own``) and than the
        action it valued best (``default``); every other candidate finishes its card."""
        if self.is_own(cand) or cand.action not in COMMANDS:
            return False
        return bool(cand.plan.get("force")) or cand.action != default

    def is_own(self, cand: Candidate) -> bool:
        """Whether ``cand`` is what the heuristic itself would play (``own``)."""
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
    """What the search bots share: the heuristic decides every choice except the top-level
    action of a turn (2.3.3), which the subclass searches in ``decide``."""

    search: Searcher
    params: dict[str, Any]

    def _finish_init(self, weights: str | None, exclude: str = "") -> None:
        """End of ``__init__``: the excluded moves, a weights file and its digest go in
        ``params`` (for manifests); a fixed generator (seed 0) serves until ``new_game`` hands
        out the game's."""
        if exclude:
            self.params["exclude"] = exclude
        if weights:
            self.params["weights"] = weights
            self.params["weights_sha256"] = self.search.base.params["weights_sha256"]
        self.rng = random.Random(0)

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.rng = rng
        self.search.new_game(faction, rng, rules)

    def choose(self, observation: Any, decision: Any) -> Any:
        if decision.kind == "action" and len(decision.options) > 1:
            return self.decide(observation, decision)
        return self.search.base.choose(observation, decision)

    @abstractmethod
    def decide(self, observation: Any, decision: Any) -> str:
        """The searched top-level action."""
