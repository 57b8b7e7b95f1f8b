"""What the Pax Pamir tests share: a card and a region by their printed names."""

from __future__ import annotations

from simulate.pax_pamir.cards import PaxData


def card(data: PaxData, name: str) -> int:
    """The id of the court card printed ``name``."""
    return next(c.id for c in data.court if c.name == name)


def region(data: PaxData, name: str) -> int:
    """The id of the region ``name``."""
    return data.regions.index(name)
