"""The installed games: the entry-point group ``vijayanagara_sim.games`` (a third game is a
package that declares one entry point, not a patch), or ``package.module:OBJECT`` for a game
that is not installed (a test's game)."""

from __future__ import annotations

import difflib
import functools
import importlib
import os
import sys
from importlib.metadata import entry_points

from simulate.games.protocol import Game

GROUP = "vijayanagara_sim.games"
DEFAULT = "vijayanagara"


class UnknownGame(ValueError):
    """A game reference that names no installed game (its message is one line)."""


@functools.cache
def _installed() -> dict[str, str]:
    """Registered name -> ``module:attr``, from the installed distributions' entry points."""
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def names() -> list[str]:
    """The installed games' names, sorted."""
    return sorted(_installed())


@functools.cache
def get(ref: str | None = None) -> Game:
    """The game ``ref`` names: a registered name, ``package.module:OBJECT``, or None (the
    default). A game object's class or a factory is called once."""
    ref = ref or DEFAULT
    target = _installed().get(ref)
    if target is None and ":" not in ref:
        near = difflib.get_close_matches(ref, names(), n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise UnknownGame(
            f"unknown game {ref!r}{hint}; installed games: {', '.join(names()) or 'none'}"
        )
    module_name, _, attr = (target or ref).partition(":")
    try:
        obj = getattr(_imported(module_name, from_folder=target is None), attr)
    except (ImportError, AttributeError) as exc:
        raise UnknownGame(f"game {ref!r} does not load: {exc}") from None
    game = obj() if callable(obj) and not isinstance(obj, Game) else obj
    if not isinstance(game, Game):
        raise UnknownGame(f"game {ref!r} is not a simulate.games.Game ({type(game).__name__})")
    if not game.ref:
        game.ref = ref  # the name it is found by again, in a worker process
    return game


def _imported(module_name: str, from_folder: bool) -> object:
    """The module, from the installed packages or, for a ``module:OBJECT`` reference, from
    the working folder too (as ``python -m`` finds it: ``--game tests.tiny_game:GAME`` from a
    checkout); worker processes inherit the path."""
    try:
        return importlib.import_module(module_name)
    except ImportError:
        here = os.getcwd()
        if not from_folder or here in sys.path:
            raise
        sys.path.insert(0, here)
        return importlib.import_module(module_name)
