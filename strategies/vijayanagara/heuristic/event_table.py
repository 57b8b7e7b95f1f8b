"""The Event table: for each Event card and faction, the side worth taking and its average
gain over the Command the heuristic would play instead, measured in advance by one-turn
simulations (2.3.4) in heuristic games. The heuristic looks the gain up instead of
simulating every time (``events = "table"`` in ``weights.toml``), which keeps it fast.

The table belongs to one Event deck: it records the deck's digest, and a deck it does not
match (a designer's new ``events.yaml``) is simply not used (the heuristic then simulates).
Rebuild it after changing the deck (``strategies/vijayanagara/fitting/event_table.py``):

    python -m strategies.vijayanagara.fitting.event_table --games 300 --seed 1

Format of ``events_table.toml``::

    deck_digest = "<sha256 of events.yaml>"
    games = 300
    seed = 1
    [cards."12"]
    DS = ["shaded", 0.42, 31]     # best side, mean gain in VP, positions measured
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

TABLE_FILE = Path(__file__).with_name("events_table.toml")
NAMES = ("DS", "BK", "VE")


@lru_cache(maxsize=4)
def _load(path: str) -> dict:
    p = Path(path)
    if not p.is_file():
        return {}
    with open(p, "rb") as fh:
        return tomllib.load(fh)


@lru_cache(maxsize=8)
def _table_for(digest: str, path: str) -> dict:
    data = _load(path)
    if data.get("deck_digest") != digest:
        return {}
    out = {}
    for card, row in data.get("cards", {}).items():
        for f, name in enumerate(NAMES):
            if name in row:
                side, gain = row[name][0], float(row[name][1])
                out[(card, f)] = (side, gain)
    return out


def rows_for(rules, path: Path = TABLE_FILE) -> dict:
    """(side, mean gain) by (card, faction) for these rules' deck: empty when the table was
    built for another deck (a bot reads it once per game)."""
    deck = getattr(rules, "deck", None)
    if deck is None:
        return {}
    return _table_for(deck.digest, str(path))


def forget() -> None:
    """Drop the tables read so far (after a rebuild wrote the file anew)."""
    _load.cache_clear()
    _table_for.cache_clear()
