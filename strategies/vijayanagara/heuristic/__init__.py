"""The ``heuristic`` policy: a sensible human-like bot for each faction (DS, BK, VE).

The strategy picks the faction's bot in ``new_game``: ``sultanate.SultanateBot``,
``bahmani.BahmaniBot`` or ``vijayanagara.VijayanagaraBot`` (the last two share
``deccan.DeccanBot``). Each module's docstring states its priority scheme. The values behind
every choice come from ``weights.toml`` and the layers a lineup lays over it (``weights.py``);
the bots are built in layers (``valuation.py``, ``turn.py``, ``faction_bot.py``).

Parameters (``--strategy DS=heuristic:aggression=0.7,weights=mine.toml``):

- ``aggression``: 0..1, willingness to Attack and to spend Cavalry (default 0.5);
- ``weights``: a TOML file merged over the shipped ``weights.toml`` and the lineup's layers;
- ``events``: how the Event option is weighed against the planned Command (2.3.3):
  ``table`` (default: the average gain of each side for each faction and card, simulated
  in advance, ``events_table.toml``; cards it lacks are simulated), ``simulate`` (a
  one-turn simulation of both sides and the Command on a copy of this position) or
  ``never``;
- any weight by its dotted name, e.g. ``eval.DS.resources=0.1`` or ``reserve=3``;
  ``play.choice`` is the learned choice of each turn's option (``choice.toml``, fitted by
  ``strategies/vijayanagara/fitting/choice_fit.py``).

The policy decides every decision itself. A lineup (``strategies/vijayanagara/lineups/``) may let search
choose some turns' actions over it: it gives the searches what they need of a policy
(``strategies/vijayanagara/search/protocol.py``): its plan under each offered action (``turn_plans``),
following a plan (``follow``), plain copies of itself for the playouts (``team``) and its
evaluation.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any, NamedTuple

from simulate.vijayanagara.rules.events import SIDES  # an Event's two texts (2.3.4)
from simulate.vijayanagara.rules.pieces import INDEX

from . import event_table
from .bahmani import BahmaniBot
from .choice import ChoiceTerms, compile_terms
from .evaluation import Evaluator
from .sultanate import SultanateBot
from .vijayanagara import VijayanagaraBot
from .weights import FOLDER, SharedWeights, shared_weights

BOTS = (SultanateBot, BahmaniBot, VijayanagaraBot)
NAMES = ("DS", "BK", "VE")
EVENT_MODES = ("table", "simulate", "never")


class SeatPlay(NamedTuple):
    """A seat's weights and its checked play parameters (2.3.3, 2.3.4; ``weights.toml``)."""

    weights: dict
    events: str
    event_margin: float
    terms: ChoiceTerms


def seat_play(weights: dict) -> SeatPlay:
    """``weights``' play parameters, checked (a bad one is refused in one line), and its
    ``play.choice.terms`` compiled."""
    play = weights["play"]
    mode = play["events"]
    if mode not in EVENT_MODES:
        raise ValueError(f"events must be one of {', '.join(EVENT_MODES)}, got {mode!r}")
    return SeatPlay(
        weights, mode, float(play["event_margin"]), compile_terms(play["choice"]["terms"])
    )


class TurnPlans(NamedTuple):
    """What the policy would play at a turn's choice (2.3.3) and its plan under each action."""

    own: tuple  # its pick: (action, Command, Decree)
    command: str | None  # its Command under Command and Command + Decree
    limited: str | None  # its Command under Limited Command
    decree: str | None  # its Decree under Command + Decree
    commands: tuple  # every Command with a space to select now (3.1.1), when asked
    decrees: tuple  # every Decree it may take
    valued_best: str | None  # the action it valued best (before any learned choice)


class HeuristicStrategy:
    """Rule-based bot per faction with a documented priority scheme; weights in TOML, tuned
    per seat by ``vsim tune-bots`` (a lineup's layers, e.g. ``tuned.toml``)."""

    name = "heuristic"
    description = "rule-based bot per faction, weights in TOML (the policy of the lineups)"
    keep_caches = True  # False: the bots recompute every value at every decision (a test)
    folder = FOLDER  # its shipped weight files: the layers a lineup names

    def __init__(
        self, weights: str | None = None, layers: tuple[Path, ...] = (), **params: Any
    ) -> None:
        overrides: dict[str, Any] = {}
        for key, value in params.items():
            if key == "aggression":
                value = float(value)
                if not 0.0 <= value <= 1.0:
                    raise ValueError(f"aggression must be between 0 and 1, got {value}")
            overrides[key] = value
        self.shared = shared_weights(weights, tuple(layers))  # read-only, shared with bots
        self.base_weights = self.shared.tree
        self.overrides = overrides
        self.params: dict[str, Any] = dict(sorted(params.items()))
        if weights:
            # the file's content, not only its name, goes into a run's manifest
            self.params["weights"] = weights
            self.params["weights_sha256"] = hashlib.sha256(Path(weights).read_bytes()).hexdigest()
        self.weighs_events = True  # False: never weigh the Event (the bots a search plays with)
        self._use(None)  # checks every override
        for seat in self.base_weights.get("seat") or {}:
            try:
                self._use(seat)  # and every seat's (a spec's parameter applies to each)
            except ValueError as exc:
                raise ValueError(f"in the {seat} seat: {exc}") from None
        self._use(None)
        self._unplayed()

    @classmethod
    def plain(
        cls, base_weights: dict | SharedWeights, overrides: dict | None = None
    ) -> HeuristicStrategy:
        """A bot on ``base_weights`` (a bot's ``shared``, or a weights tree) that never weighs
        the Event (2.3.4): the team a search or an Event simulation plays with (no recursion)."""
        bot = cls.__new__(cls)
        shared = base_weights
        if not isinstance(shared, SharedWeights):
            shared = SharedWeights(base_weights)
        bot.shared = shared
        bot.base_weights = shared.tree
        bot.overrides = dict(overrides or {})
        bot.params = {}
        bot.weighs_events = False
        bot._use(None)
        bot._unplayed()
        return bot

    def _unplayed(self) -> None:
        """What a game sets (``new_game``), before one."""
        self.recorder = None  # called with (card, faction, gains) when the bot simulates
        self.bot = None
        self.faction = -1
        self.rng: random.Random | None = None  # the game's, from new_game
        self.rules = None
        self.ev = None
        self.event_rows: dict = {}  # event_table.rows_for the game's rules (new_game)
        self._shadows: tuple | None = None

    def _use(self, faction: str | None) -> None:
        """Play with the weights of ``faction``'s seat (None: the top level) and this bot's
        overrides, checked once per process (``seat_play``)."""
        play = self.shared.derived(faction, self.overrides, seat_play)
        self.weights = play.weights
        self.event_mode = play.events if self.weighs_events else "never"
        self.event_margin = play.event_margin
        self.terms = play.terms

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.faction = INDEX[faction]
        self.rng = rng
        self.rules = rules
        if "seat" in self.base_weights:
            self._use(faction)
        self.event_rows = event_table.rows_for(rules)  # the Event table, read once a game
        self.ev = Evaluator(rules, self.weights)
        self.bot = BOTS[self.faction](self, rng, rules, self.weights, self.ev)
        self.bot.keep_caches = self.keep_caches
        self._shadows = None

    def choose(self, observation: Any, decision: Any) -> Any:
        return self.bot.choose(observation, decision)

    # -- what a search over this policy needs (strategies/vijayanagara/search/protocol.py) ---------------

    @property
    def evaluation(self) -> Evaluator:
        """The evaluation of positions this seat plays by (its seat's weights)."""
        return self.ev

    @property
    def eligibility(self) -> float:
        """The worth of staying Eligible for the next card (2.3.7), in VP."""
        return float(self.weights["play"]["eligibility"])

    def planner(self) -> HeuristicStrategy:
        """A copy of this bot that never weighs the Event: the plans a search tries."""
        return type(self).plain(self.shared, self.overrides)

    def turn_plans(self, obs: Any, decision: Any, expand: bool) -> TurnPlans:
        """This turn's choice (2.3.3) as the bot plans it: its pick, its plan under each
        action, and with ``expand`` every Command it could pick instead."""
        bot = self.bot
        chosen = bot.choose(obs, decision)  # fills bot.last with the plan of each option
        own = (chosen, bot.plan.get("command"), bot.plan.get("decree"))
        last = bot.last
        commands = tuple([c for c in bot.commands if bot.spaces_for(obs, c)]) if expand else ()
        return TurnPlans(
            own,
            last.get("command"),
            last.get("limited"),
            last.get("decree"),
            commands,
            bot.decrees,
            last.get("choice"),
        )

    def follow(self, plan: dict, like: HeuristicStrategy | None = None) -> None:
        """Play ``plan`` from the next decision on (``{}``: plan afresh), no battle under way;
        with ``like``, ranking spaces as ``like`` did when it planned this turn (its
        ``k_action`` on this position: its own turn refreshes the best of them)."""
        bot = self.bot
        bot.plan = dict(plan)
        bot.battle = None
        if like is not None:
            bot.ranked = dict(like.bot.ranked)

    def pending(self) -> tuple:
        """What the bot carries from one turn to the next on a card (its plan and battle)."""
        return dict(self.bot.plan), self.bot.battle

    def resume(self, pending: tuple) -> None:
        """Carry ``pending`` (from ``pending``) on, as if no other copy had played since."""
        plan, battle = pending
        self.bot.plan = dict(plan)
        self.bot.battle = battle

    def team(self, rng: random.Random) -> tuple:
        """Plain copies for DS, BK and VE (this seat's with its overrides), each started on a
        game with its own generator from ``rng``: the bots a search's playouts play."""
        out = []
        for name in NAMES:
            member_rng = random.Random(rng.getrandbits(32))
            own = self.overrides if INDEX[name] == self.faction else None
            member = type(self).plain(self.shared, own)
            member.new_game(name, member_rng, self.rules)
            out.append(member)
        return tuple(out)

    # -- Events (2.3.4): a one-turn simulation of each side against the Command ------------

    def shadows(self) -> tuple:
        """Heuristic bots for the three factions without Event lookahead (no recursion)."""
        if self._shadows is None:
            team = []
            for f, name in enumerate(NAMES):
                own = self.overrides if f == self.faction else None
                bot = HeuristicStrategy.plain(self.shared, own)
                bot.new_game(name, random.Random(self.rng.getrandbits(32)), self.rules)
                team.append(bot)
            self._shadows = tuple(team)
        return self._shadows

    def simulate(self, obs, action: str, state, dice: int, plan: dict) -> float:
        """Margin for this faction after its turn with ``action`` forced and its bot following
        ``plan``, on a copy of ``state`` (a determinised copy: never the real deck)."""
        from simulate.vijayanagara.rules import search
        from simulate.vijayanagara.rules.dice import SeededDice

        team = self.shadows()
        for bot in team:
            bot.bot.plan = {}
            bot.bot.battle = None
        team[self.faction].bot.plan = dict(plan)
        ctx = search.branch(self.rules, state, team, SeededDice(dice))
        search.apply_action(ctx, self.faction, action)
        return self.ev.margin(ctx.state, self.faction)

    def event_gains(self, obs, default: str) -> dict[str, float]:
        """For each Event side, how much more the evaluation's margin is after taking it than
        after the planned option, by a one-turn simulation of each on the same copy of the
        position and the same dice (2.3.4)."""
        state = obs.determinise(self.rng)
        dice = self.rng.getrandbits(32)
        base = self.simulate(obs, default, state, dice, self.bot.plan)
        return {
            side: self.simulate(obs, "event", state, dice, {"action": "event", "side": side}) - base
            for side in SIDES
        }

    def event_entry(self, obs, decision, default: str) -> tuple[str, float] | None:
        """The better Event side and its gain over the planned option ``default`` (2.3.4): by
        the precomputed table of average gains (``events = "table"``), or by simulating this
        position (``"simulate"``, also used for a card the table does not know); None for a
        bot that never weighs the Event."""
        mode = self.event_mode
        if mode == "never":
            return None
        card = decision.context
        if mode == "table":
            entry = self.event_rows.get((str(card), self.faction))
            if entry is not None:
                return entry
        gains = self.event_gains(obs, default)
        if self.recorder is not None:
            self.recorder(str(card), self.faction, gains)
        side = max(SIDES, key=lambda s: (gains[s], s == SIDES[0]))
        return side, gains[side]

    def consider_event(self, obs, decision, default: str, default_value: float) -> str:
        """Take the Event when its better side beats the planned option by ``event_margin``
        (2.3.3)."""
        entry = self.event_entry(obs, decision, default)
        if entry is None:
            return default
        side, gain = entry
        if gain > self.event_margin:
            self.bot.plan["side"] = side
            return "event"
        return default

    def pick_event_side(self, obs, decision) -> Any:
        """Without a planned side: the shaded text for the Sultanate, unshaded otherwise
        (2.3.4: the shaded side is often the Sultanate's)."""
        want = "shaded" if self.faction == 0 else "unshaded"
        return want if want in decision.options else decision.options[0]
