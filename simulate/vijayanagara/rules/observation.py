"""What a strategy sees (2.3): the whole public board, the played cards and the count left,
never the order of the undrawn deck. Search bots get a *determinised* copy instead: the
unseen cards redrawn at random, consistent with what is public (DESIGN: Decisions)."""

from __future__ import annotations

import random

from . import victory
from .ruleset import EVENT, MONGOL_CARD, TIMURID, Card, Rules
from .shuffle import shuffle
from .state import GameState


class Observation:
    """A read-only view of a game in progress. The lists it returns are the live ones: read,
    never write. The undrawn deck is not reachable from here except through ``determinise``."""

    __slots__ = ("rules", "_st")

    def __init__(self, rules: Rules, state: GameState) -> None:
        self.rules = rules
        self._st = state

    # the board (1.3-1.7)
    @property
    def pieces(self) -> bytearray:
        return self._st.pieces

    def count(self, space: int, counter: int) -> int:
        return self._st.count(space, counter)

    @property
    def available(self) -> list[int]:
        return self._st.avail

    @property
    def tributary(self) -> list[bool]:
        return self._st.tributary

    @property
    def control(self) -> list[int]:
        return self._st.control

    # tracks (1.8-1.10)
    @property
    def resources(self) -> list[int]:
        return self._st.resources

    @property
    def cavalry(self) -> list[int]:
        return self._st.cavalry

    @property
    def pool(self) -> int:
        return self._st.pool

    @property
    def influence(self) -> list[int]:
        return self._st.influence

    # sequence of play (2.3-2.7)
    @property
    def eligible(self) -> list[bool]:
        return self._st.eligible

    @property
    def dynasty(self) -> int:
        return self._st.dynasty

    @property
    def timurid_drawn(self) -> int:
        return self._st.timurid

    @property
    def lasting(self) -> tuple:
        return self._st.lasting

    @property
    def current_card(self) -> Card | None:
        return self.rules.cards[self._st.card] if self._st.card >= 0 else None

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card revealed so far, in order (public, 2.3)."""
        return tuple([self.rules.cards[i] for i in self._st.deck[: self._st.pos]])

    @property
    def cards_remaining(self) -> int:
        return self._st.cards_left()

    @property
    def forks_taken(self) -> tuple[int, int]:
        """Factions that took Command+Decree and Event-or-Command on this card (-1: free)."""
        return self._st.fork_cd, self._st.fork_ec

    def vp(self, faction: int, final: bool = False) -> int:
        return victory.vp(self.rules, self._st, faction, final)

    def determinise(self, rng: random.Random) -> GameState:
        """A full state equal to this one, except that the undrawn cards are redrawn from
        those not yet seen, stack by stack as deck construction allows (2.1)."""
        st = self._st.copy()
        st.deck = redeal(self.rules, self._st.deck, self._st.pos, rng)
        return st


def position(obs) -> tuple:
    """The public position a bot reads at every decision, in one call: (pieces, tributary,
    available, control, resources, cavalry, influence, dynasty, cards remaining), the live
    lists as the properties give them. An Observation's are C reads when compiled; any other
    object with those attributes (a test's bare board) is read by its attributes."""
    if type(obs) is Observation:
        o = obs
        st = o._st
        return (
            st.pieces,
            st.tributary,
            st.avail,
            st.control,
            st.resources,
            st.cavalry,
            st.influence,
            st.dynasty,
            st.cards_left(),
        )
    return (
        obs.pieces,
        obs.tributary,
        obs.available,
        obs.control,
        obs.resources,
        obs.cavalry,
        obs.influence,
        obs.dynasty,
        obs.cards_remaining,
    )


def _stack_bounds(rules: Rules) -> list[tuple[int, int, dict]]:
    bounds = []
    at = 0
    for spec in rules.stacks:
        size = rules.events_per_stack + spec.get("mongol_invasions", 0) + spec.get("timurid", 0)
        bounds.append((at, at + size, spec))
        at += size + (1 if spec.get("then") else 0)
    return bounds


def redeal(rules: Rules, deck: tuple[int, ...], pos: int, rng: random.Random) -> tuple[int, ...]:
    """The deck with every card from ``pos`` on replaced by a random one consistent with the
    public information: the cards played, the stack structure (2.1), the count left."""
    cards = rules.cards
    seen = set(deck[:pos])
    unseen_events = [i for i in rules.event_cards if i not in seen]
    unseen_mongols = [i for i in rules.mongol_cards if i not in seen]
    unseen_timurid = [i for i in rules.timurid_cards if i not in seen]
    shuffle(unseen_events, rng)
    shuffle(unseen_mongols, rng)
    out = list(deck)
    for start, end, spec in _stack_bounds(rules):
        lo = max(start, pos)
        if lo >= end:
            continue
        shown = [cards[i].kind for i in deck[start:lo]]
        need_e = rules.events_per_stack - shown.count(EVENT)
        need_m = spec.get("mongol_invasions", 0) - shown.count(MONGOL_CARD)
        need_t = spec.get("timurid", 0) - shown.count(TIMURID)
        part = unseen_events[:need_e] + unseen_mongols[:need_m] + unseen_timurid[:need_t]
        del unseen_events[:need_e], unseen_mongols[:need_m], unseen_timurid[:need_t]
        shuffle(part, rng)
        out[lo:end] = part
    return tuple(out)
