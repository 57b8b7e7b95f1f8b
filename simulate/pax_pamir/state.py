"""Pax Pamir's flat state: lists of small integers, copied in microseconds (RB p2 Components).

Ids: cards as in ``cards.py`` (court 0..99, Dominance Checks, events), players 0..n-1 in
clockwise seating order (turn order, RB p9), regions/coalitions/suits/borders as the
``PaxData`` name tables. ``EMPTY`` (-1) marks a vacant market space. Flat per-place tables
are indexed ``place * width + who`` (see the ``*_at`` helpers).
"""

from __future__ import annotations

import hashlib

from .ledger import WIDTH

EMPTY = -1  # a vacant market space (RB p10 Purchase "vacant market spot")
INACTIVE = -1  # a lasting event not in effect (``State.lasting``)
ALL = -2  # a lasting event in effect for every player (``State.lasting``)


class State:
    """Everything on the table as lists of small ints; pure functions act on it (RB p2-p4)."""

    __slots__ = (
        "players",
        "rows",
        "columns",
        "rupees",
        "loyalty",
        "hand",
        "court",
        "gifts",
        "prizes",
        "cylinders",
        "points",
        "market",
        "market_rupees",
        "deck",
        "discard",
        "favored",
        "armies",
        "tribes",
        "roads",
        "blocks",
        "checks_done",
        "turn",
        "placed",
        "spies",
        "lasting",
        "placed_units",
        "wakhan",
        "flow",
    )

    def __init__(
        self,
        players: int,
        rows: int,
        columns: int,
        regions: int,
        borders: int,
        coalitions: int,
        cards: int = 0,
        events: int = 0,
    ) -> None:
        """An empty table for ``players``; ``setup.new_state`` deals the game (RB p4 Setup)."""
        self.players = players
        self.rows = rows  # market rows (RB p4 Create the Market: two)
        self.columns = columns  # market columns (six)
        self.rupees = [0] * players  # by player (RB p4 Take Player Pieces)
        self.loyalty = [0] * players  # coalition id by player (RB p4 Starting Loyalty, p7)
        self.hand: list[list[int]] = [[] for _ in range(players)]  # card ids (RB p6 Your Hand)
        self.court: list[list[int]] = [[] for _ in range(players)]  # left to right (RB p6, p11)
        self.gifts = [0] * players  # cylinders on gift spaces (RB p13 Gift, p7 Influence)
        self.prizes: list[list[int]] = [[] for _ in range(players)]  # card ids (RB p7, p14)
        self.cylinders = [0] * players  # usable cylinders on the player board (RB p2, p4)
        self.points = [0] * players  # victory points (RB p4, p15)
        # The market, row-major: space ``row * columns + column``; top row 0, leftmost 0 (RB p4).
        self.market = [EMPTY] * (rows * columns)
        # Rupees lie on a market *space*: they move with a card sliding left, stay where a
        # discarded event lay and go to the card that takes that space (RB p9 Cleanup).
        self.market_rupees = [0] * (rows * columns)
        self.deck: list[int] = []  # the draw deck; its TOP is the END of the list (RB p4 step 5)
        self.discard: list[int] = []  # the discard pile, last discarded at the end
        self.favored = 0  # the favored suit id (RB p4 Starting Favored Suit, p6)
        self.armies = [0] * (regions * coalitions)  # by region, coalition (RB p2 Blocks)
        self.tribes = [0] * (regions * players)  # by region, player (RB p2 Cylinders)
        self.roads = [0] * (borders * coalitions)  # by border, coalition (RB p2 Blocks)
        self.blocks = [0] * coalitions  # coalition blocks in the supply (RB p2: twelve each)
        self.checks_done = 0  # Dominance Checks resolved (RB p15, p9 Instability)
        self.turn = 0  # the active player (RB p4: the last to choose loyalty starts)
        # Card ids the active player placed a rupee on this turn: not purchasable (RB p10).
        self.placed: list[int] = []
        # cylinders on court cards, by card id and player: "If a cylinder is placed on a card
        # in a player's court, the cylinder is called a spy" (RB p2); ``cards``: court cards
        self.spies = [0] * (cards * players)
        # Events that last "until the next Dominance Check is resolved" (RB p10): two entries
        # per event card (``events``), its purchased side then its discarded side, by event
        # index; each the player it concerns, ``ALL`` for every player, ``NONE`` when inactive
        # (``lasting.py``). A purchased card active here lies below its buyer's court or near
        # the map, in no other list.
        self.lasting = [INACTIVE] * (2 * events)
        # Location codes (``play.location``) of the units placed this turn, one per unit: RB p8
        # Component Limits takes a unit from play "excluding any pieces placed this turn".
        self.placed_units: list[int] = []
        # The seat Wakhan, the automated opponent, plays (RB p16 Playing with Wakhan), -1 when
        # none: ``ruling`` and ``dominance`` then apply her rules (RB p16 ruling, RB p18 scoring).
        self.wakhan = -1
        # The rupee ledger (``ledger.py``): gained and paid by player and source, a record of
        # the game, not part of the position (``canonical`` leaves it out).
        self.flow = [0] * (players * WIDTH)

    def copy(self) -> State:
        """An independent copy: list copies only (issue 66: a copy in microseconds)."""
        new = State.__new__(State)
        new.players, new.rows, new.columns = self.players, self.rows, self.columns
        new.rupees = self.rupees[:]
        new.loyalty = self.loyalty[:]
        new.hand = [h[:] for h in self.hand]
        new.court = [c[:] for c in self.court]
        new.gifts = self.gifts[:]
        new.prizes = [p[:] for p in self.prizes]
        new.cylinders = self.cylinders[:]
        new.points = self.points[:]
        new.market = self.market[:]
        new.market_rupees = self.market_rupees[:]
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.favored = self.favored
        new.armies = self.armies[:]
        new.tribes = self.tribes[:]
        new.roads = self.roads[:]
        new.blocks = self.blocks[:]
        new.checks_done = self.checks_done
        new.turn = self.turn
        new.placed = self.placed[:]
        new.spies = self.spies[:]
        new.lasting = self.lasting[:]
        new.placed_units = self.placed_units[:]
        new.wakhan = self.wakhan
        new.flow = self.flow[:]
        return new

    def canonical(self) -> tuple:
        """Every field of the position as nested tuples of ints, in ``__slots__`` order: all
        but the rupee ledger ``flow``, a record of how the rupees moved (``ledger.py``)."""
        out = []
        for name in State.__slots__:
            if name == "flow":
                continue
            value = getattr(self, name)
            if isinstance(value, list):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            out.append(value)
        return tuple(out)

    def digest(self) -> str:
        """The sha256 of the canonical tuple: equal states, equal digests."""
        return hashlib.sha256(repr(self.canonical()).encode()).hexdigest()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.canonical() == other.canonical()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def space(self, row: int, column: int) -> int:
        """The market space index of ``row``, ``column`` (top row 0, leftmost column 0)."""
        return row * self.columns + column

    def army_at(self, region: int, coalition: int) -> int:
        """Index into ``armies`` for a region and coalition."""
        return region * len(self.blocks) + coalition

    def spy_at(self, card: int, player: int) -> int:
        """The index in ``spies`` of ``player``'s spies on court card ``card``."""
        return card * self.players + player

    def tribe_at(self, region: int, player: int) -> int:
        """Index into ``tribes`` for a region and player."""
        return region * self.players + player

    def road_at(self, border: int, coalition: int) -> int:
        """Index into ``roads`` for a border and coalition."""
        return border * len(self.blocks) + coalition
