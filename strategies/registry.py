"""Strategies by name: the lineups (``strategies/vijayanagara/lineups/NAME.toml``, or the path of any
lineup file), built-in bots, entry points (group ``vijayanagara_sim.strategies``), and
``package.module:Class`` references. Specs may carry parameters: ``name:key=value,...``.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from . import lineup
from .params import no_such_parameter, own_parameters

ENTRY_POINT_GROUP = "vijayanagara_sim.strategies"

DEFAULT = lineup.DEFAULT  # the strategy a first-time user gets for every Faction

BUILTINS = {
    "greedy": "strategies.searchers:GreedyStrategy",
    "mcts": "strategies.searchers:MCTSStrategy",
    "random": "strategies.policies.random:RandomStrategy",
}


class UnknownStrategy(ValueError):
    """A strategy name nobody registered."""


@lru_cache(maxsize=1)
def _entry_points() -> tuple[tuple[str, str], ...]:
    return tuple((ep.name, ep.value) for ep in entry_points(group=ENTRY_POINT_GROUP))


def known() -> dict[str, str]:
    """Every registered strategy name and what it is (a lineup file, or ``module:Class``),
    sorted by name."""
    found = {name: f"strategies/vijayanagara/lineups/{name}.toml" for name in lineup.names()}
    for name, target in BUILTINS.items():
        found.setdefault(name, target)
    for name, value in _entry_points():
        found.setdefault(name, value)
    return dict(sorted(found.items()))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value,key=value`` into the name and typed parameters."""
    name, params = spec, {}
    if ":" in spec and "=" in spec.split(":", 1)[1]:
        name, rest = spec.split(":", 1)
        for item in rest.split(","):
            if "=" not in item:
                raise ValueError(f"strategy parameter {item!r} in {spec!r} is not key=value")
            key, value = item.split("=", 1)
            params[key.strip()] = _typed(value.strip())
    return name, params


def _typed(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def resolve(name: str) -> Any:
    """What ``name`` makes strategies with: a lineup (a shipped one by its name, or any
    lineup file by its path, read again when it changes), or the class registered under
    ``name`` or named by ``package.module:Class``. Calling it with a spec's parameters makes
    one."""
    if name.endswith(".toml"):
        try:
            return lineup.load(name)
        except ValueError as exc:
            raise UnknownStrategy(f"cannot load strategy {name!r}: {exc}") from None
    return _resolved(name)


@lru_cache(maxsize=64)
def _resolved(name: str) -> Any:
    if name in lineup.names():
        return lineup.shipped(name)
    target = known().get(name)
    if target is None:
        if ":" not in name:
            raise UnknownStrategy(f"unknown strategy {name!r}; known: {', '.join(known())}")
        target = name
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        raise UnknownStrategy(f"cannot load strategy {name!r}: {exc}") from None


def describe(name: str) -> str:
    """A one-line description of a registered strategy (its ``description``, else the first
    line of its docstring)."""
    made = resolve(name)
    text = getattr(made, "description", None) or (made.__doc__ or "").strip()
    return text.splitlines()[0] if text else ""


def params_of(strategy: Any) -> dict[str, Any]:
    """The parameters a strategy instance was made with (its ``params`` attribute), for
    manifests; ``{}`` when it has none."""
    return dict(getattr(strategy, "params", None) or {})


def make(spec: str) -> Any:
    """A new strategy instance from a spec string."""
    name, params = parse_spec(spec)
    made = resolve(name)
    found = own_parameters(made) if params else None
    if found is not None and not found[1]:  # a class naming all it takes: a stray one, by it
        stray = next((key for key in params if key not in found[0]), None)
        if stray is not None:
            none = "" if found[0] else "it takes none"
            text = no_such_parameter(
                getattr(made, "name", name), stray, {"its parameters": found[0]}, none
            )
            raise ValueError(f"strategy {name!r}: {text}")
    try:
        return made(**params)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"strategy {name!r}: {exc}") from None
