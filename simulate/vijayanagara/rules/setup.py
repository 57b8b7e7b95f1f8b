"""Setup and deck construction (2.1)."""

from __future__ import annotations

import random

from .pieces import UNIT_TYPE
from .ruleset import Rules
from .shuffle import shuffle
from .state import GameState


def build_deck(rules: Rules, rng: random.Random) -> tuple[int, ...]:
    """Shuffle Events and Mongol Invasion cards separately, deal four stacks, shuffle two
    Invasion cards into each of the first three and both Timurid cards into the fourth, and
    put the Succession cards between the stacks (2.1 steps 1-7). Top of the deck first."""
    events = list(rules.event_cards)
    mongols = list(rules.mongol_cards)
    shuffle(events, rng)
    shuffle(mongols, rng)
    eps = rules.events_per_stack
    deck: list[int] = []
    timurid = list(rules.timurid_cards)
    for i, spec in enumerate(rules.stacks):
        stack = events[i * eps : (i + 1) * eps]
        m = spec.get("mongol_invasions", 0)
        stack += mongols[:m]
        del mongols[:m]
        t = spec.get("timurid", 0)
        stack += timurid[:t]
        del timurid[:t]
        shuffle(stack, rng)
        deck += stack
        then = spec.get("then")
        if then:
            deck.append(rules.succession_cards[then])
    return tuple(deck)


def new_state(rules: Rules, deck_rng: random.Random) -> GameState:
    """The state at the start of play (2.1, 2.2): every Province Tributary, pieces as set up."""
    st = GameState.__new__(GameState)
    board = rules.board
    st.pieces = bytearray(rules.setup_pieces)  # one byte a counter (state.py)
    st.avail = list(rules.setup_available)
    st.tributary = [k == "province" for k in board.kinds]
    st.control = [-1] * board.n
    st.resources = list(rules.setup_resources)
    st.cavalry = list(rules.setup_cavalry)
    st.pool = rules.cavalry_pool - sum(rules.setup_cavalry)
    st.influence = list(rules.setup_influence)
    st.slots = [list(s) for s in rules.setup_slots]
    st.eligible = list(rules.setup_eligible)
    st.dynasty = rules.setup_dynasty
    st.deck = build_deck(rules, deck_rng)
    st.pos = 0
    st.card = -1
    st.acted = 0
    st.fork_cd = -1
    st.fork_ec = -1
    st.elig_next = [-1, -1, -1]
    st.stay = 0
    st.timurid = 0
    st.lasting = ()
    st.over = False
    st.mongol_kills = 0
    st.qasbah_kills = 0
    # Influence set above zero by a variant releases the slots it reaches (1.9)
    for f in (1, 2):
        for level in range(1, st.influence[f] + 1):
            st.avail[UNIT_TYPE[f]] += st.slots[f][level]
            st.slots[f][level] = 0
    return st
