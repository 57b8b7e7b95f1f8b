"""The rupee ledger: every rupee a player gains or pays, by source, kept on the state
(``State.flow``) as the rules move it, so a game's record tells where its rupees came from and
went (the ``rupees`` table, ``game.RUPEE_COLUMNS``).

``State.flow`` is flat: two ints, gained then paid, per player and source, indexed
``(player * len(SOURCES) + source) * 2``. A player's rupees are always the starting rupees
(RB p4 Take Player Pieces) plus every source's gained less its paid (``invariants.check``).
Recording only adds to ``flow``: it changes no play, and ``State.canonical`` leaves the ledger
out, so a state's digest is the position's, whatever the history that led to it.

>>> from simulate.pax_pamir.state import State
>>> st = State(2, 2, 6, 1, 1, 3)
>>> record(st, 0, TAX, gained=2)
>>> record(st, 1, TAX, paid=2)
>>> gained(st, 0, TAX), paid(st, 1, TAX), net(st, 0) + net(st, 1)
(2, 2, 0)
"""

from __future__ import annotations

from typing import Any

State = Any  # a ``state.State``, which imports this module (for ``WIDTH``): no import back

# The sources, in the order of ``State.flow`` and of the ``rupees`` table's rows.
SOURCES = (
    "purchase",  # paid onto the market cards to the left of the card bought (RB p10)
    "market",  # taken from the card bought: "you receive them along with the card" (RB p10)
    "tax",  # taken by the taxer, from players or market cards; lost by the taxed (RB p13)
    "bribe",  # to a ruler to play a card (RB p11), to a hostage holder to act (RB p12)
    "gift",  # the gift's marked price, onto the market (RB p13 Gift, Action Costs p12)
    "build",  # two per unit placed, onto the market (RB p13 Build)
    "betray",  # "This action always costs two", onto the market (RB p14 Betray)
    "leverage",  # two from the bank on play (RB p11), returned on discard (RB p8)
    "event",  # an event's rupees: Backing of Persian Aristocracy's three (cards.yaml)
    "other",  # an action cost paid for no named action (none in a game the engine plays)
)
PURCHASE = 0
MARKET = 1
TAX = 2
BRIBE = 3
GIFT = 4
BUILD = 5
BETRAY = 6
LEVERAGE = 7
EVENT = 8
OTHER = 9
GAINED, PAID = 0, 1  # the two ints of a player's source
WIDTH = 2 * len(SOURCES)  # ints per player in ``State.flow``


def at(player: int, source: int, side: int = GAINED) -> int:
    """The index in ``State.flow`` of ``player``'s ``source`` (``GAINED`` or ``PAID``)."""
    return (player * len(SOURCES) + source) * 2 + side


def record(state: State, player: int, source: int, gained: int = 0, paid: int = 0) -> None:
    """Add ``gained`` and ``paid`` rupees of ``player`` to ``source`` in ``state.flow``."""
    i = (player * len(SOURCES) + source) * 2
    state.flow[i] += gained
    state.flow[i + 1] += paid


def gained(state: State, player: int, source: int) -> int:
    """The rupees ``player`` has gained from ``source`` so far."""
    return state.flow[at(player, source, GAINED)]


def paid(state: State, player: int, source: int) -> int:
    """The rupees ``player`` has paid to ``source`` so far."""
    return state.flow[at(player, source, PAID)]


def net(state: State, player: int) -> int:
    """Every source's gained less its paid for ``player``: the change in their rupees since
    the start (RB p4)."""
    total = 0
    first = player * WIDTH
    for i in range(first, first + WIDTH, 2):
        total += state.flow[i] - state.flow[i + 1]
    return total


def rows(state: State) -> list[tuple[int, str, int, int]]:
    """``(player, source, gained, paid)`` for every player and source, in ``flow`` order."""
    return [
        (p, name, state.flow[at(p, s, GAINED)], state.flow[at(p, s, PAID)])
        for p in range(state.players)
        for s, name in enumerate(SOURCES)
    ]
