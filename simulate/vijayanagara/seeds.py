"""Vijayanagara's seeded streams: the deck shuffle, the dice, one per Faction's strategy."""

from __future__ import annotations

import random

from simulate import seeds

STREAMS = ("deck", "dice", "DS", "BK", "VE")


def streams(seed: int) -> dict[str, random.Random]:
    """The game's generators from its seed (``simulate.seeds.streams`` over ``STREAMS``)."""
    return seeds.streams(seed, STREAMS)
