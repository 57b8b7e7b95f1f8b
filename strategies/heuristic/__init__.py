"""``heuristic``: a sensible human-like bot for each faction (DS, BK, VE).

The strategy picks the faction's bot in ``new_game``: ``sultanate.SultanateBot``,
``bahmani.BahmaniBot`` or ``vijayanagara.VijayanagaraBot`` (the last two share
``deccan.DeccanBot``). Each module's docstring states its priority scheme. The values behind
every choice come from ``weights.toml`` (see ``evaluation.py``).

Parameters (``--strategy DS=heuristic:aggression=0.7,weights=mine.toml``):

- ``aggression``: 0..1, willingness to Attack and to spend Cavalry (default 0.5);
- ``weights``: a TOML file merged over the shipped ``weights.toml``;
- ``events``: how the Event option is weighed against the planned Command (2.3.3):
  ``table`` (default: the average gain of each side for each faction and card, simulated
  in advance, ``events_table.toml``; cards it lacks are simulated), ``simulate`` (a
  one-turn simulation of both sides and the Command on a copy of this position) or
  ``never``;
- any weight by its dotted name, e.g. ``eval.DS.resources=0.1`` or ``reserve=3``; the
  lookaheads are ``play.lookahead``, ``play.screen``, ``play.lookahead_cards`` and
  ``play.mcts_cards`` (see ``weights.toml``); ``play.choice`` is the learned choice of each
  turn's option (``choice_fit.py``, ``choice.toml``).
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any, NamedTuple

from simulate.rules.pieces import INDEX
from strategies.prior import compile_prior

from . import event_table
from .bahmani import BahmaniBot
from .common import SIDES, ChoiceTerms, compile_terms
from .evaluation import (
    CHOICE_FILE,
    FAST_FILE,
    PRIOR_FILE,
    STRONG_FILE,
    TUNED_FILE,
    Evaluator,
    SharedWeights,
    shared_weights,
)
from .sultanate import SultanateBot
from .vijayanagara import VijayanagaraBot

BOTS = (SultanateBot, BahmaniBot, VijayanagaraBot)
EVENT_MODES = ("table", "simulate", "never")
# play.lookahead: the greedy expansion each value plays with (strategies/greedy.py)
LOOKAHEADS = {"none": None, "greedy": False, "greedy-full": True}


class SeatPlay(NamedTuple):
    """A seat's weights and its checked play parameters (2.3.3, 2.3.4; ``weights.toml``)."""

    weights: dict
    events: str
    event_margin: float
    lookahead_cards: int
    mcts_cards: int
    mcts_stop: int
    # its end-game mcts's rollouts, horizon, top, expand and screen
    mcts_budget: tuple[int, int, int, bool, int]
    terms: ChoiceTerms
    mcts_prior: Any  # its end-game mcts's fitted prior (strategies/prior.py), or None


def checked_count(key: str, value: Any, low: int = 0) -> int:
    """``value``, an integer of at least ``low`` (0 or 1), or ValueError in one line: the
    counts of a seat's play and of the search bots' budgets."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        kind = "positive" if low else "non-negative"
        raise ValueError(f"{key} must be a {kind} integer, got {value!r}")
    return value


def checked_flag(key: str, value: Any) -> bool:
    """``value``, true or false, or ValueError in one line."""
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, got {value!r}")
    return value


def seat_play(weights: dict) -> SeatPlay:
    """``weights``' play parameters, checked (a bad one is refused in one line), and its
    ``play.choice.terms`` compiled."""
    play = weights["play"]
    mode = play["events"]
    if mode not in EVENT_MODES:
        raise ValueError(f"events must be one of {', '.join(EVENT_MODES)}, got {mode!r}")
    ahead = play.get("lookahead", "none")
    if ahead not in LOOKAHEADS:
        raise ValueError(f"lookahead must be one of {', '.join(LOOKAHEADS)}, got {ahead!r}")
    counts = {  # every count is in weights.toml, under which any weights file is merged
        key: checked_count(key, play[key], low)
        for key, low in (
            ("screen", 0),
            ("lookahead_cards", 0),
            ("mcts_cards", 0),
            ("mcts_stop", 0),
            ("mcts_rollouts", 1),
            ("mcts_horizon", 0),
            ("mcts_top", 1),
            ("mcts_screen", 0),
        )
    }
    if counts["mcts_cards"] and counts["mcts_stop"] >= counts["mcts_cards"]:
        raise ValueError(
            f"mcts_stop must be below mcts_cards ({counts['mcts_cards']}), "
            f"got {counts['mcts_stop']}"
        )
    expand = checked_flag("mcts_expand", play["mcts_expand"])
    return SeatPlay(
        weights,
        mode,
        float(play["event_margin"]),
        counts["lookahead_cards"],
        counts["mcts_cards"],
        counts["mcts_stop"],
        (
            counts["mcts_rollouts"],
            counts["mcts_horizon"],
            counts["mcts_top"],
            expand,
            counts["mcts_screen"],
        ),
        compile_terms(play["choice"]["terms"]),
        compile_prior(play["mcts_rank"], play["mcts_pick"]),
    )


class HeuristicStrategy:
    """Rule-based bot per faction with a documented priority scheme; weights in TOML, tuned
    per seat by ``vsim tune-bots`` (``tuned.toml``)."""

    name = "heuristic"
    version = "v19"  # v1: weights.toml alone; v2: with the tuned seat values of tuned.toml;
    # v3: and the Sultanate's lookahead over every Command and Decree (screened, issue 18);
    # v4: the Sultanate's over the last 24 cards only, the Bahmani bot's over the last 8;
    # v5: and the choice of each turn's option learned from search values (choice.toml);
    # v6: Vijayanagara's choice refitted on the positions of the v5 bots (a second round);
    # v7: the Bahmani choice refitted with terms crossed with the position, without lookahead;
    # v8: the Sultanate's choice refitted so on v7 positions, then the Bahmani one (DAgger);
    # v9: every seat's tuned.toml values tuned again over the v8 lineup (tune-bots --base);
    # v10: the Sultanate's choice scale and biases (choice.toml) tuned so over v9;
    # v11: Vijayanagara's, tuned against the v10 field alone (tune-bots --pool none);
    # v12: the Sultanate's tuned.toml values, then its choice scale and biases, so over v11;
    # v13: the Sultanate's tuned.toml values tuned so again, over v12;
    # v14: the Sultanate's choice scale and biases tuned so again, over v13;
    # v15: Vijayanagara's end game played by a small mcts (the last 6 cards, tuned.toml);
    # v16: the Sultanate's lookahead finishes every candidate's card, Vijayanagara's mcts
    # plays 2 cards deep with a screen (cheaper);
    # v17: the Sultanate's last 20 cards played by a small mcts, Vijayanagara's with half the
    # playouts; v18: Vijayanagara's with half again (1 playout of each of its 2 candidates);
    # v19: the Sultanate's small mcts ranks and picks with a prior fitted to mcts's own
    # budget's values (prior.toml, strategies/prior.py)
    layers: tuple[Path, ...] = (TUNED_FILE, CHOICE_FILE, PRIOR_FILE)
    description = "rule-based bot per faction, weights tuned by self-play (tuned.toml)"
    keep_caches = True  # False: the bots recompute every value at every decision (a test)

    def __init__(self, weights: str | None = None, **params: Any) -> None:
        overrides: dict[str, Any] = {}
        for key, value in params.items():
            if key == "aggression":
                value = float(value)
                if not 0.0 <= value <= 1.0:
                    raise ValueError(f"aggression must be between 0 and 1, got {value}")
            overrides[key] = value
        self.shared = shared_weights(weights, self.layers)  # read-only, shared with other bots
        self.base_weights = self.shared.tree
        self.overrides = overrides
        self.params: dict[str, Any] = dict(sorted(params.items()))
        self.params["version"] = self.version
        if weights:
            # the file's content, not only its name, goes into a run's manifest
            self.params["weights"] = weights
            self.params["weights_sha256"] = hashlib.sha256(Path(weights).read_bytes()).hexdigest()
        self.lookahead = True  # False: never weigh the Event (the bots a search plays with)
        self._use(None)  # checks every override
        for seat in self.base_weights.get("seat") or {}:
            try:
                self._use(seat)  # and every seat's (a spec's parameter applies to each)
            except ValueError as exc:
                raise ValueError(f"in the {seat} seat: {exc}") from None
        self._use(None)
        self.recorder = None  # called with (card, faction, gains) when the bot simulates
        self.bot = None
        self.faction = -1
        self.rng: random.Random | None = None  # the game's, from new_game
        self.rules = None
        self.ev = None
        self.event_rows: dict = {}  # event_table.rows_for the game's rules (new_game)
        self._shadows: tuple | None = None
        self._greedy: Any = None
        self._mcts: Any = None

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
        bot.lookahead = False
        bot._use(None)
        bot.recorder = None
        bot.bot = None
        bot.faction = -1
        bot.rng = None
        bot.rules = None
        bot.ev = None
        bot.event_rows = {}
        bot._shadows = None
        bot._greedy = None
        bot._mcts = None
        return bot

    def _use(self, faction: str | None) -> None:
        """Play with the weights of ``faction``'s seat (None: the top level) and this bot's
        overrides, checked once per process (``seat_play``)."""
        play = self.shared.derived(faction, self.overrides, seat_play)
        self.weights = play.weights
        self.event_mode = play.events if self.lookahead else "never"
        self.event_margin = play.event_margin
        self.terms = play.terms
        self.lookahead_cards = play.lookahead_cards
        self.mcts_cards = play.mcts_cards
        self.mcts_stop = play.mcts_stop
        self.mcts_budget = play.mcts_budget
        self.mcts_prior = play.mcts_prior

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
        self._greedy = self._lookahead(faction, rng, rules)
        self._mcts = self._end_game_search(faction, rng, rules)

    def _lookahead(self, faction: str, rng: random.Random, rules: Any) -> Any:
        """With ``play.lookahead`` other than "none" (a seat's weights), the greedy bot that
        chooses this seat's action each turn (2.3.3) over plans of a copy of this bot (and,
        for "greedy-full", its other Commands and Decrees, ``play.screen`` of them played to
        the end of the card when not 0); else None."""
        expand = LOOKAHEADS[self.weights["play"].get("lookahead", "none")]
        if not self.lookahead or expand is None:
            return None
        from strategies.greedy import GreedyStrategy

        base = self._planner()
        screen = self.weights["play"].get("screen", 0)
        greedy = GreedyStrategy.around(base, expand=expand, screen=screen)
        greedy.new_game(faction, rng, rules)
        return greedy

    def _planner(self) -> HeuristicStrategy:
        """A copy of this bot without lookahead or Event weighing: the plans a search tries."""
        return type(self).plain(self.shared, self.overrides | {"play.lookahead": "none"})

    def _end_game_search(self, faction: str, rng: random.Random, rules: Any) -> Any:
        """With ``play.mcts_cards = N`` (not 0), the mcts bot (with the budget of
        ``play.mcts_rollouts``, ``mcts_horizon``, ``mcts_top``, ``mcts_expand`` and
        ``mcts_screen``, over plans of a copy of this bot) that chooses this seat's action
        each turn while at most N cards and more than ``play.mcts_stop`` remain; else None."""
        if not self.lookahead or not self.mcts_cards:
            return None
        from strategies.mcts import MCTSStrategy

        base = self._planner()
        search = MCTSStrategy.around(
            base, *self.mcts_budget, prior=self.mcts_prior, window=self.mcts_cards
        )
        search.new_game(faction, random.Random(rng.getrandbits(32)), rules)
        return search

    def choose(self, observation: Any, decision: Any) -> Any:
        # play.mcts_cards = N: mcts chooses while at most N cards (and more than
        # play.mcts_stop) remain; else, with play.lookahead_cards = N, the lookahead only
        # while at most N cards remain (the end game); the count holds through a turn, so
        # one bot plans and plays each turn (2.3)
        left = observation.cards_remaining
        if self._mcts is not None and self.mcts_stop < left <= self.mcts_cards:
            return self._mcts.choose(observation, decision)
        if self._greedy is not None and (not self.lookahead_cards or left <= self.lookahead_cards):
            return self._greedy.choose(observation, decision)
        return self.bot.choose(observation, decision)

    # -- Events (2.3.4): a one-turn simulation of each side against the Command ------------

    def shadows(self) -> tuple:
        """Heuristic bots for the three factions without Event lookahead (no recursion)."""
        if self._shadows is None:
            team = []
            for f, name in enumerate(("DS", "BK", "VE")):
                own = self.overrides if f == self.faction else None
                bot = HeuristicStrategy.plain(self.shared, own)
                bot.new_game(name, random.Random(self.rng.getrandbits(32)), self.rules)
                team.append(bot)
            self._shadows = tuple(team)
        return self._shadows

    def simulate(self, obs, action: str, state, dice: int, plan: dict) -> float:
        """Margin for this faction after its turn with ``action`` forced and its bot following
        ``plan``, on a copy of ``state`` (a determinised copy: never the real deck)."""
        from simulate.rules import search

        team = self.shadows()
        for bot in team:
            bot.bot.plan = {}
            bot.bot.battle = None
        team[self.faction].bot.plan = dict(plan)
        ctx = search.branch(self.rules, state, team, random.Random(dice))
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


class HeuristicV1Strategy(HeuristicStrategy):
    """The heuristic bot before tuning (``weights.toml`` alone, as shipped up to 0.x): kept
    so that studies made with it can be repeated and compared."""

    name = "heuristic-v1"
    version = "v1"
    layers: tuple[Path, ...] = ()
    description = "rule-based bot per faction with the hand-set weights of weights.toml"


class HeuristicFastStrategy(HeuristicStrategy):
    """The tuned bots without the lookaheads (``play.lookahead = "none"`` and
    ``play.mcts_cards = 0`` in every seat) and
    with the Sultanate's choice biases tuned for this tier over its v12 values (``fast.toml``:
    the default's were tuned with its lookahead): the fast tier, about 2.7 times faster than
    ``heuristic``."""

    name = "heuristic-fast"
    version = "v19-fast"
    layers: tuple[Path, ...] = (TUNED_FILE, CHOICE_FILE, FAST_FILE)
    description = "the tuned heuristic without the one-card lookaheads (fast tier)"

    def __init__(self, weights: str | None = None, **params: Any) -> None:
        params.setdefault("play.lookahead", "none")
        params.setdefault("play.mcts_cards", 0)  # nor Vijayanagara's end-game search
        super().__init__(weights, **params)


class HeuristicStrongStrategy(HeuristicStrategy):
    """The default lineup with mcts choosing the Sultanate's and the Bahmani bot's actions in
    their end games (``strong.toml``): a slower tier to check that a conclusion holds under
    a stronger field."""

    name = "heuristic-strong"
    version = "v19-strong"
    layers: tuple[Path, ...] = (TUNED_FILE, CHOICE_FILE, STRONG_FILE)
    description = "the default with mcts in the DS and BK end games (slower, stronger tier)"
