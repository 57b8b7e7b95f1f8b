"""vijayanagara-sim: a Monte Carlo balance-analysis toolkit for board games; its first game is
Vijayanagara (GMT Games, 2023), whose one-game API is here for notebooks and scripts
(``simulate.games`` lists every installed game):

>>> from simulate import play_game
>>> play_game(1).winner in ("DS", "BK", "VE", None)
True

Importing this package loads no game: the names below come from the default game's folder
when first used.
"""

from typing import Any

from . import native

native.install()  # before any game's modules load: their compiled copies only if current

_DEFAULT_GAME_API = {
    "play_game": "simulate.vijayanagara.game",
    "ActionRecord": "simulate.vijayanagara.result",
    "GameResult": "simulate.vijayanagara.result",
    "TurnRecord": "simulate.vijayanagara.result",
    "Rules": "simulate.vijayanagara.rules.ruleset",
    "load_rules": "simulate.vijayanagara.rules.ruleset",
}

__all__ = sorted(_DEFAULT_GAME_API)
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """The default game's one-game API, imported when first asked for."""
    module = _DEFAULT_GAME_API.get(name)
    if module is None:
        raise AttributeError(f"module 'simulate' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
