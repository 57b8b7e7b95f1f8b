"""``greedy`` and ``mcts`` by name: the searches of ``strategies/vijayanagara/search/`` over the default
lineup's heuristic policy (its weight layers, without its own search), deciding every turn's
action (2.3.3) in every seat they play. Any other parameter of a spec is the policy's
(``mcts:aggression=0.7``), and ``weights`` a weights file laid over its layers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..params import no_such_parameter, own_parameters, unknown_bare_weight
from ..policies.random import RandomStrategy
from .lineup import default_lineup
from .search.greedy import GreedySearch
from .search.mcts import MCTSSearch
from .value_model import ValueModel, load_value

ROLLOUTS = ("heuristic", "random")  # who plays mcts's playouts (its ``policy``)


def _policy(bot: type, weights: str | None, params: dict[str, Any]) -> Any:
    """The default lineup's policy (its seats share their layers) that a search plans with:
    it never weighs the Event (the search does). A bare parameter that is neither the
    search's own nor a parameter of the policy is refused naming the search's own (issue 64:
    a misspelled ``rolouts`` listed the heuristic's weights); a dotted one is a weight's
    path, refused by the policy with the weights where it points."""
    lineup = default_lineup()
    try:
        return lineup.policy_for(weights, dict(params) | {"events": "never"})
    except ValueError as exc:
        key = unknown_bare_weight(exc, params)
        if key is None:
            raise
        raise ValueError(_unknown(bot, key, lineup.policy_parameters())) from None


def _unknown(bot: type, key: str, policy: Sequence[str]) -> str:
    """The refusal of ``bot``'s parameter ``key``: its own parameters, then its policy's."""
    found = own_parameters(bot)
    groups = {"its parameters": found[0] if found else [], "its heuristic policy's": policy}
    text = no_such_parameter(bot.name, key, groups, "nor a weight of the policy it plans with")
    return f"{text}; or any weight of that policy by its dotted name (see docs/bots.md)"


def _recorded(
    bot: Any, params: dict[str, Any], own: dict[str, Any], exclude: str, weights: str | None
) -> None:
    """A search bot's ``params`` for manifests: the policy's parameters, then its ``own``,
    the excluded moves, and a weights file with its digest."""
    bot.params = dict(sorted(params.items())) | own
    if exclude:
        bot.params["exclude"] = exclude
    if weights:
        bot.params["weights"] = weights
        bot.params["weights_sha256"] = bot.search.policy.params["weights_sha256"]


def _value(value: str | bool) -> ValueModel | None:
    """``value``: false or 0 (the evaluation scores the leaves), true or 1 (the shipped
    value model) or a value model file."""
    if value is False or value == 0 or value == "":
        return None
    return load_value(None if value is True or value == 1 else str(value))


class GreedyStrategy(GreedySearch):
    """One-step lookahead: plays each top-level option on a copy, keeps the best."""

    name = "greedy"
    description = "one-step lookahead on the evaluation (each top-level option on a copy)"

    def __init__(
        self,
        weights: str | None = None,
        samples: int = 1,
        expand: bool = True,
        finish: bool = True,
        screen: int = 0,
        exclude: str = "",
        **params: Any,
    ) -> None:
        super().__init__(
            _policy(GreedyStrategy, weights, params), samples, expand, finish, screen, exclude
        )
        _recorded(self, params, self.params, exclude, weights)


class MCTSStrategy(MCTSSearch):
    """Flat UCB1 Monte Carlo search over the top-level options on determinised copies."""

    name = "mcts"
    description = "budgeted Monte Carlo search (UCB1, determinised rollouts, no deck peeking)"

    def __init__(
        self,
        weights: str | None = None,
        rollouts: int = 8,
        horizon: int = 4,
        top: int = 4,
        policy: str = "heuristic",
        c: float = 1.0,
        win_bonus: float = 2.0,
        expand: bool = True,
        screen: int = 0,
        exclude: str = "",
        value: str | bool = False,
        **params: Any,
    ) -> None:
        if policy not in ROLLOUTS:
            raise ValueError(f"rollout must be 'heuristic' or 'random', got {policy!r}")
        rollout = RandomStrategy if policy == "random" else None
        super().__init__(
            _policy(MCTSStrategy, weights, params),
            rollouts,
            horizon,
            top,
            c,
            win_bonus,
            expand,
            screen,
            exclude,
            rollout,
            value=_value(value),
        )
        own = {"rollouts": rollouts, "horizon": horizon, "top": top, "policy": policy}
        own |= {"c": self.c, "win_bonus": self.win_bonus, "expand": expand}
        if screen:
            own["screen"] = screen
        if self.value is not None:
            own["value"] = value if isinstance(value, str) else "shipped"
            own["value_sha256"] = self.value.info["sha256"]
        _recorded(self, params, own, exclude, weights)
