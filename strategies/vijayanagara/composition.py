"""One seat of a lineup at play: its policy decides every decision, except each turn's action
(2.3.3) where the seat's search settings let a search choose it instead:

- ``lookahead`` ("none", "greedy": greedy over the policy's own plans, "greedy-full": over
  every Command and Decree too) with its ``screen`` (finish the card for only this many of
  the other Commands and Decrees, the best after the own turn; 0: all), while at most
  ``lookahead_cards`` cards remain (0: always);
- ``mcts_cards`` (0: never): mcts chooses while at most this many cards and more than
  ``mcts_stop`` remain, with its budget ``mcts_rollouts``, ``mcts_horizon``, ``mcts_top``,
  ``mcts_expand`` and ``mcts_screen`` (mcts's own parameters), the fitted prior of the
  file ``mcts_prior`` (none when empty; ``strategies/vijayanagara/search/prior.py``) and the value model
  of the file ``mcts_value`` scoring its playouts' leaves (none when empty: the evaluation;
  ``strategies/vijayanagara/value_model.py``).

A lineup file gives them per seat (``[seat.DS.search]``); a spec overrides any of them for
every seat as ``play.NAME=value`` (``heuristic:play.mcts_cards=0``), the names of the
weights they were before lineups were files.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, NamedTuple

from ..params import checked_count, checked_flag
from .search.greedy import GreedySearch
from .search.mcts import MCTSSearch
from .search.prior import Prior, load_prior
from .value_model import ValueModel, load_value

DEFAULTS: dict[str, Any] = {
    "lookahead": "none",
    "screen": 0,
    "lookahead_cards": 0,
    "mcts_cards": 0,
    "mcts_stop": 0,
    "mcts_rollouts": 8,  # mcts's own budget
    "mcts_horizon": 4,
    "mcts_top": 4,
    "mcts_expand": True,
    "mcts_screen": 0,
    "mcts_prior": "",
    "mcts_value": "",
}
LOOKAHEADS = {"none": None, "greedy": False, "greedy-full": True}  # greedy's ``expand``
COUNTS = (  # (setting, lowest value)
    ("screen", 0),
    ("lookahead_cards", 0),
    ("mcts_cards", 0),
    ("mcts_stop", 0),
    ("mcts_rollouts", 1),
    ("mcts_horizon", 0),
    ("mcts_top", 1),
    ("mcts_screen", 0),
)


class SeatSearch(NamedTuple):
    """A seat's checked search settings."""

    lookahead: bool | None  # greedy's expand, None: no lookahead
    screen: int
    lookahead_cards: int
    mcts_cards: int
    mcts_stop: int
    mcts_budget: tuple[int, int, int, bool, int]  # rollouts, horizon, top, expand, screen
    prior: Prior | None
    value: ValueModel | None


def search_key(key: str) -> str | None:
    """The search setting a spec parameter names (``play.mcts_cards`` or ``mcts_cards``), or
    None for a policy parameter."""
    name = key.removeprefix("play.")
    return name if name in DEFAULTS else None


def seat_search(settings: dict[str, Any]) -> SeatSearch:
    """``settings`` (every key of ``DEFAULTS``) checked, a bad one refused in one line."""
    ahead = settings["lookahead"]
    if ahead not in LOOKAHEADS:
        raise ValueError(f"lookahead must be one of {', '.join(LOOKAHEADS)}, got {ahead!r}")
    counts = {key: checked_count(key, settings[key], low) for key, low in COUNTS}
    if counts["mcts_cards"] and counts["mcts_stop"] >= counts["mcts_cards"]:
        raise ValueError(
            f"mcts_stop must be below mcts_cards ({counts['mcts_cards']}), "
            f"got {counts['mcts_stop']}"
        )
    expand = checked_flag("mcts_expand", settings["mcts_expand"])
    files = {key: settings[key] for key in ("mcts_prior", "mcts_value")}
    for key, name in files.items():
        if not isinstance(name, str):
            raise ValueError(f"{key} must be a file name, got {name!r}")
    return SeatSearch(
        LOOKAHEADS[ahead],
        counts["screen"],
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
        load_prior(files["mcts_prior"]) if files["mcts_prior"] else None,
        load_value(files["mcts_value"]) if files["mcts_value"] else None,
    )


class Composition:
    """A lineup's bot for one seat: the seat's policy, and the searches its settings give,
    each over a plain copy of that policy (one that never weighs the Event itself)."""

    def __init__(
        self,
        lineup: Any,
        weights: str | None,
        policy_params: dict[str, Any],
        searches: dict[str, SeatSearch],
        params: dict[str, Any],
    ) -> None:
        self.name = lineup.name
        self.description = lineup.description
        self.version = lineup.version
        self.lineup = lineup
        self.weights_file = weights
        self.policy_params = policy_params
        self.searches = searches  # by Faction
        self.params = params
        self._policies: dict[tuple, Any] = {}  # by the layers they play: made when needed
        self._policy: Any = None  # the seat's, from new_game
        self.seat = searches["DS"]
        self.lookahead: GreedySearch | None = None
        self.end_game: MCTSSearch | None = None

    @property
    def policy(self) -> Any:
        """The policy of the seat this bot plays (the Sultanate's before a game)."""
        return self._policy if self._policy is not None else self.policy_of("DS")

    def policy_of(self, faction: str) -> Any:
        """The policy ``faction``'s seat plays: one per set of layers, made when first
        needed (the lineup checked every seat's when this bot was made)."""
        layers = self.lineup.layers[faction]
        policy = self._policies.get(layers)
        if policy is None:
            policy = self.lineup.policy_for(self.weights_file, self.policy_params, faction)
            self._policies[layers] = policy
        return policy

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self._policy = policy = self.policy_of(faction)
        self.seat = seat = self.searches[faction]
        policy.new_game(faction, rng, rules)
        self.lookahead = None
        if seat.lookahead is not None:
            self.lookahead = GreedySearch(
                policy.planner(), expand=seat.lookahead, screen=seat.screen
            )
            self.lookahead.new_game(faction, rng, rules)
        self.end_game = None
        if seat.mcts_cards:
            rollouts, horizon, top, expand, screen = seat.mcts_budget
            self.end_game = MCTSSearch(
                policy.planner(),
                rollouts,
                horizon,
                top,
                expand=expand,
                screen=screen,
                prior=seat.prior,
                window=seat.mcts_cards,
                value=seat.value,
            )
            self.end_game.new_game(faction, random.Random(rng.getrandbits(32)), rules)

    def choose(self, observation: Any, decision: Any) -> Any:
        # mcts chooses while at most mcts_cards cards (and more than mcts_stop) remain; else
        # the lookahead, while at most lookahead_cards remain (0: always); the count holds
        # through a turn, so one bot plans and plays each turn (2.3)
        left = observation.cards_remaining
        seat = self.seat
        if self.end_game is not None and seat.mcts_stop < left <= seat.mcts_cards:
            return self.end_game.choose(observation, decision)
        if self.lookahead is not None and (
            not seat.lookahead_cards or left <= seat.lookahead_cards
        ):
            return self.lookahead.choose(observation, decision)
        return self._policy.choose(observation, decision)


def prior_path(value: Any, folder: Path) -> Any:
    """A lineup file's ``mcts_prior`` or ``mcts_value`` as a path from ``folder`` (the
    file's); other values as they are (``seat_search`` refuses them)."""
    return str(folder / value) if isinstance(value, str) and value else value
