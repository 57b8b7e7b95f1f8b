"""GameState: the whole game in flat arrays of integers, cheap to copy, with a stable digest.

Nothing here decides anything; rule modules read and change a state through the Context.
"""

from __future__ import annotations

import hashlib

from . import pieces as P

KHALJI, TUGHLAQ = 0, 1  # 2.7


# Every field of a GameState, in the order of its digest (never reorder: it would change
# every digest); state.pxd gives the compiled copy their C types.
FIELDS = (
    "pieces",  # flat bytearray, one byte a counter: space * NK + counter (pieces.py)
    "avail",  # holding boxes, by piece type (1.4.3)
    "tributary",  # by space: True for a Tributary Province (1.6)
    "control",  # by space: controlling Faction or -1 (1.7)
    "resources",  # by Faction (1.8)
    "cavalry",  # tokens held, by Faction (1.10)
    "pool",  # tokens in the shared pool (1.10)
    "influence",  # by Faction; DS stays 0 (1.9)
    "slots",  # Units on each Influence level, by Faction (1.9)
    "eligible",  # by Faction (2.3.1)
    "dynasty",  # KHALJI or TUGHLAQ (2.7)
    "deck",  # tuple of card indices, top first; only deck[:pos] is public (2.3)
    "pos",  # cards drawn so far
    "card",  # index of the card in play, or -1
    "acted",  # bitmask of Factions done with the current Event card
    "fork_cd",  # Faction that took Command + Decree on this card, or -1 (2.3.3)
    "fork_ec",  # Faction that took Event or Command on this card, or -1
    "elig_next",  # per Faction: -1 normal, 0 Ineligible, 1 Eligible at 2.3.7 (Events)
    "stay",  # bitmask of Factions that took a Stay Eligible Event (2.3.7)
    "timurid",  # Timurid cards drawn (2.6)
    "lasting",  # tuple of (modifier, faction, until) in force (Events)
    "over",  # True once the Timur sequence is done (2.6)
    "mongol_kills",  # Sultanate Units lost to Mongol attacks and plunder
    "qasbah_kills",  # Qasbahs lost to Mongol attacks (3.5.3)
)


class GameState:
    """Board counters, holding boxes, tracks, deck position and the turn in progress."""

    __slots__ = FIELDS

    def copy(self) -> GameState:
        """An independent copy (lists copied, immutable parts shared)."""
        c = GameState.__new__(GameState)
        c.pieces = self.pieces.copy()
        c.avail = self.avail.copy()
        c.tributary = self.tributary.copy()
        c.control = self.control.copy()
        c.resources = self.resources.copy()
        c.cavalry = self.cavalry.copy()
        c.pool = self.pool
        c.influence = self.influence.copy()
        c.slots = [s.copy() for s in self.slots]
        c.eligible = self.eligible.copy()
        c.dynasty = self.dynasty
        c.deck = self.deck
        c.pos = self.pos
        c.card = self.card
        c.acted = self.acted
        c.fork_cd = self.fork_cd
        c.fork_ec = self.fork_ec
        c.elig_next = self.elig_next.copy()
        c.stay = self.stay
        c.timurid = self.timurid
        c.lasting = self.lasting
        c.over = self.over
        c.mongol_kills = self.mongol_kills
        c.qasbah_kills = self.qasbah_kills
        return c

    def as_tuple(self) -> tuple:
        """Every field, in a fixed order, as plain immutable values."""
        return tuple(
            [
                tuple([tuple(x) for x in v])
                if name == "slots"
                else tuple(v)
                if isinstance(v, (list, bytearray))
                else v
                for name, v in ((n, getattr(self, n)) for n in FIELDS)
            ]
        )

    def digest(self) -> str:
        """A stable hash of the whole state (same on every platform and hash seed)."""
        return hashlib.blake2b(repr(self.as_tuple()).encode(), digest_size=16).hexdigest()

    def count(self, space: int, counter: int) -> int:
        return self.pieces[space * P.NK + counter]

    def cards_left(self) -> int:
        """Cards still to draw (2.3): public, unlike their order."""
        return len(self.deck) - self.pos

    def has_lasting(self, modifier: str, faction: int) -> bool:
        """Whether an Event's lasting modifier is in force for a Faction (EVENTS_SCHEMA 6.16)."""
        return any(m == modifier and (f == faction or f == -1) for m, f, _ in self.lasting)
