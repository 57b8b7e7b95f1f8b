"""The Strategy protocol: how a bot plugs into the engine (see ../DESIGN.md, Decisions)."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Strategy(Protocol):
    """A bot for one Faction in one game.

    ``new_game`` is called once before play with the Faction it plays, its own random
    generator (never the game's), and the compiled rules. ``choose`` returns one of
    ``decision.options``.
    """

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None: ...

    def choose(self, observation: Any, decision: Any) -> Any: ...
