"""Decision requests: what the engine asks a Faction, with engine-generated legal options.

Every choice in the game (2.3.3 options, spaces, pieces, Cavalry, casualties, Succession
choices, Mongol Commands) is a Decision asked of the Faction that makes it. A strategy
returns one element of ``options``; anything else is an error of the strategy.
"""

from __future__ import annotations

from typing import Any

DONE = "done"  # the option that ends a repeated choice (no more spaces, no more Cavalry)


class Decision:
    """One request: ``kind`` names the choice, ``options`` are the legal answers.

    ``context`` carries what the choice is about (the space, the Command, the battle),
    as plain values; it never contains the undrawn deck.
    """

    __slots__ = ("kind", "faction", "options", "context")

    def __init__(self, kind: str, faction: str, options: tuple, context: Any = None) -> None:
        self.kind = kind
        self.faction = faction
        self.options = options
        self.context = context

    def __repr__(self) -> str:
        return f"Decision({self.kind!r}, {self.faction}, {len(self.options)} options, {self.context!r})"


class IllegalChoice(Exception):
    """A strategy returned something that is not one of the offered options."""


def render(option: object) -> str:
    """A stable text form of an option, for traces and logs."""
    if isinstance(option, tuple):
        return ",".join(render(o) for o in option)
    return str(option)
