"""vijayanagara-sim: a Monte Carlo balance-analysis toolkit for Vijayanagara (GMT Games, 2023).

>>> from simulate import play_game
>>> play_game(1).winner in ('DS', 'BK', 'VE', None)
True
"""

from . import native

native.install()  # before the game's modules load: their compiled copies only if current

from .vijayanagara.game import play_game
from .vijayanagara.result import ActionRecord, GameResult, TurnRecord
from .vijayanagara.rules.ruleset import Rules, load_rules

__all__ = ["ActionRecord", "GameResult", "Rules", "TurnRecord", "load_rules", "play_game"]
__version__ = "0.1.0"
