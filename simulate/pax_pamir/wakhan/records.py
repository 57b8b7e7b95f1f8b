"""The record of her turn, for traces: (action word, detail) pairs naming cards."""

from __future__ import annotations

from .. import market as M
from ..cards import PaxData

Record = tuple[str, str]  # (action word, detail) for traces


def card_name(data: PaxData, card: int) -> str:
    """A card's printed name (events by their purchased effect)."""
    if card < len(data.court):
        return data.court[card].name
    if M.is_dominance_check(data, card):
        return "Dominance Check"
    return next(e.purchased.name for e in data.events if e.id == card)
