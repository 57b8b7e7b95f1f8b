"""What the Pax Pamir tests share: a card and a region by their printed names, cards put
in a court."""

from __future__ import annotations

from simulate.pax_pamir.cards import PaxData
from simulate.pax_pamir.state import State


def card(data: PaxData, name: str) -> int:
    """The id of the court card printed ``name``."""
    return next(c.id for c in data.court if c.name == name)


def region(data: PaxData, name: str) -> int:
    """The id of the region ``name``."""
    return data.regions.index(name)


def in_court(data: PaxData, state: State, player: int, *names: str) -> list[int]:
    """Put the court cards printed ``names`` at the right end of ``player``'s court."""
    ids = [card(data, n) for n in names]
    state.court[player] += ids
    return ids
