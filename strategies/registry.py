"""Strategies by name, for a game: the game's own (``Game.named_strategy``: Vijayanagara's
lineups, ``strategies/vijayanagara/lineups/NAME.toml``, its greedy and mcts; a ``.toml`` spec
is a lineup file the game reads), the bots every game can play (``random``), entry points
(group ``vijayanagara_sim.strategies``) and ``package.module:Class`` references. Specs may
carry parameters: ``name:key=value,...``. Without a game: the default game's.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from simulate.games import get as get_game

from .params import no_such_parameter, own_parameters

ENTRY_POINT_GROUP = "vijayanagara_sim.strategies"

BUILTINS = {"random": "strategies.policies.random:RandomStrategy"}  # every game plays these


def __getattr__(name: str) -> Any:
    """``DEFAULT``: the strategy a first-time user gets for every seat of the default game."""
    if name == "DEFAULT":
        return get_game().lineups()["default"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class UnknownStrategy(ValueError):
    """A strategy name nobody registered."""


@lru_cache(maxsize=1)
def _entry_points() -> tuple[tuple[str, str], ...]:
    return tuple((ep.name, ep.value) for ep in entry_points(group=ENTRY_POINT_GROUP))


def known(game: str | None = None) -> dict[str, str]:
    """Every strategy name a game's seats may play and what it is (a lineup file, or
    ``module:Class``), sorted by name."""
    found = dict(get_game(game).strategy_names())
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


def resolve(name: str, game: str | None = None) -> Any:
    """What ``name`` makes strategies with in ``game`` (None: the default): the game's own (a
    shipped lineup by its name, or a lineup file by its path, read again when it changes),
    or the class registered under ``name`` or named by ``package.module:Class``. Calling it
    with a spec's parameters makes one."""
    the_game = get_game(game)
    if name.endswith(".toml"):
        try:
            found = the_game.strategy_file(name)
        except ValueError as exc:
            raise UnknownStrategy(f"cannot load strategy {name!r}: {exc}") from None
        if found is None:
            raise UnknownStrategy(
                f"cannot load strategy {name!r}: {the_game.name} reads no lineup files"
            )
        return found
    found = the_game.named_strategy(name)
    return found if found is not None else _resolved(name, game)


@lru_cache(maxsize=64)
def _resolved(name: str, game: str | None = None) -> Any:
    target = known(game).get(name)
    if target is None:
        if ":" not in name:
            raise UnknownStrategy(f"unknown strategy {name!r}; known: {', '.join(known(game))}")
        target = name
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        raise UnknownStrategy(f"cannot load strategy {name!r}: {exc}") from None


def describe(name: str, game: str | None = None) -> str:
    """A one-line description of a registered strategy (its ``description``, else the first
    line of its docstring)."""
    made = resolve(name, game)
    text = getattr(made, "description", None) or (made.__doc__ or "").strip()
    return text.splitlines()[0] if text else ""


def params_of(strategy: Any) -> dict[str, Any]:
    """The parameters a strategy instance was made with (its ``params`` attribute), for
    manifests; ``{}`` when it has none."""
    return dict(getattr(strategy, "params", None) or {})


def make(spec: str, game: str | None = None) -> Any:
    """A new strategy instance from a spec string, for a seat of ``game`` (None: default)."""
    name, params = parse_spec(spec)
    made = resolve(name, game)
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
