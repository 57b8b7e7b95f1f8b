"""Vijayanagara's encoder (``simulate.ai.encoding``'s protocol): the fixed-size encoding of
what a Faction sees, and the action order, for the PettingZoo environment and the OpenSpiel
game (docs/ai.md).

Action ``i`` is the ``i``-th option of the pending Decision, in the order the engine offers
them (``Decision.options``); the action space has ``K`` actions and the mask marks the first
``len(options)``. ``K`` bounds every Decision of the base game: the largest option lists are
a move's (troops, governors) pairs (``march_from``, ``campaign_pickup``, ``campaign_drop``),
at most (32 + 1) x (5 + 1) = 198 with the 32 Troops and 5 Governors of the set-up (1.4);
every other kind offers a space, a counter, a count or a named choice, at most 16 seen in
5,000 random and 300 default games (benchmarks/bench_ai.py). A Decision past ``K`` (a variant
with more pieces) is refused with ``TooManyOptions``.

The observation is one float32 vector of named sections (``Encoder.layout``): the public
board and tracks, the turn in progress, the current card and the cards played (never the order
of the undrawn deck, 2.3; the next card is not public in these rules), the Decision's kind,
its context and each option, each a few leaves of two numbers (type, value): type 1 an
integer (a space, a count, a Faction), 2 a word (its code, 1 + its index in ``words``),
3 a truth value, 0 no leaf.
"""

from __future__ import annotations

import numpy as np

from simulate.ai.encoding import GameEncoder, TooManyOptions
from simulate.vijayanagara.rules.decisions import Decision
from simulate.vijayanagara.rules.pieces import NAMES, NK
from simulate.vijayanagara.rules.ruleset import EVENT, MONGOL_CARD, TIMURID, Rules
from simulate.vijayanagara.rules.state import GameState

from .chance import stacks

K = 256  # actions: the options of the largest Decision, with room (module docstring)
CONTEXT_LEAVES = 12  # a Decision's context, flattened (a battle's dice take the most)
OPTION_LEAVES = 8  # one option, flattened (an Event's piece split takes the most)

KINDS = (  # every Decision kind, in the order of simulate/vijayanagara/rules/decisions.py
    "action",
    "decree_timing",
    "command",
    "space",
    "conscript_count",
    "march_from",
    "govern",
    "attack_target",
    "attack_support",
    "cavalry",
    "casualty",
    "rally_count",
    "migrate_from",
    "migrate_shift",
    "decree",
    "demand_obedience",
    "campaign_origin",
    "campaign_pickup",
    "campaign_step",
    "campaign_drop",
    "build",
    "conspire_target",
    "conspire_amir",
    "compel_space",
    "compel_place",
    "compel_move",
    "compel_remove",
    "cavalry_from",
    "influence_refill",
    "mongol_command",
    "mongol_advance",
    "mongol_attack_space",
    "plunder_troop",
    "compromising_gifts",
    "succession_campaign",
    "succession_command",
    "succession_gain",
    "lords_shift",
    "event_side",
    "event_space",
    "event_count",
    "event_pieces",
    "event_choose",
)
ENGINE_WORDS = (  # the words options and contexts use besides the rules' own names
    "command_decree",
    "event",
    "command",
    "limited",
    "pass",
    "decree_first",
    "command_first",
    "done",
    "none",
    "stop",
    "charge",
    "screen",
    "governor",
    "obedient",
    "rebelling",
    "available",
    "decline",
    "amass",
    "advance",
    "attack_plunder",
    "unshaded",
    "shaded",
    "1.10",
)
LASTING = ("attack_extra_die", "no_rebel", "conscript_plus_one", "migrate_free_shift")
OP_NAMES = (
    "resources",
    "cavalry",
    "influence",
    "place",
    "remove",
    "replace",
    "move",
    "flip",
    "set_tributary",
    "set_independent",
    "free_command",
    "free_decree",
    "eligibility",
    "mongol",
    "choose",
    "lasting",
    "python",
)
_INT, _WORD, _BOOL = 1.0, 2.0, 3.0
CACHE = 4096  # encoded Decisions kept (most recur: the same options in the same context)


class UnknownDecision(ValueError):
    """A Decision the encoding has no place for (a kind or word it does not know)."""


def words(rules: Rules) -> tuple[str, ...]:
    """Every word a leaf can hold, in code order: the engine's, then the rules' Commands and
    Decrees, Event op names, lasting modifiers and card ids."""
    names: list[str] = list(ENGINE_WORDS)
    for faction in ("DS", "BK", "VE"):
        spec = rules.factions[faction]
        names += spec["commands"]
        names += spec["decrees"]
    names += OP_NAMES
    names += LASTING
    names += [card.id for card in rules.cards]
    return tuple(dict.fromkeys(names))


class Encoder(GameEncoder):
    """Encodes a game in progress for one observer: ``encode`` the vector, ``mask`` the
    legal actions. Built once per rules."""

    actions = K
    seats = tuple(NAMES[:3])

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n_spaces = n = rules.board.n
        self.n_cards = len(rules.cards)
        self.slot_sizes = tuple(len(s) for s in rules.setup_slots)
        self.codes = {w: i + 1 for i, w in enumerate(words(rules))}
        self.kinds = {k: i for i, k in enumerate(KINDS)}
        self.stacks = stacks(rules)
        self.cache: dict[tuple, np.ndarray] = {}  # the options' leaves, by kind and options
        self.deck: tuple = ()  # the deck, position and card the cards sections were made for
        self.pos = self.card = -1
        self.cards_array = np.zeros(0, np.float32)
        self.kind_of = tuple(card.kind for card in rules.cards)
        self.leaf_cache: dict = {}  # an option or context's (type, value) pairs by value
        self.onehots: dict[tuple, bytes] = {}  # the control and turn sections, by their values
        self.masks = np.tril(np.ones((K + 1, K), np.int8), -1)  # row n: the first n actions
        sections = (
            ("pieces", n * NK),
            ("tributary", n),
            ("control", n * 4),
            ("available", 8),
            ("tracks", 10),  # resources x3, cavalry x3, pool, influence x3
            ("influence_slots", sum(self.slot_sizes)),
            ("sequence", 6),  # eligible x3, dynasty, Timurid cards drawn, game over
            ("turn", 18),  # acted x3, fork_cd x3, fork_ec x3, ineligible/eligible next x6, stay x3
            ("lasting", len(LASTING) * 3),
            ("deck", 5),  # cards drawn, cards left, this stack's Events, Invasions, Timurid left
            ("current_card", self.n_cards),
            ("played", self.n_cards),
            ("observer", 3),
            ("decider", 3),
            ("kind", len(KINDS)),
            ("n_options", 1),
            ("context", CONTEXT_LEAVES * 2),
            ("options", K * OPTION_LEAVES * 2),
        )
        self.layout: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size in sections:
            self.layout[name] = (at, at + size)
            at += size
        self.size = at

    def mask(self, decision: Decision | None) -> np.ndarray:
        """1 for each legal action (the first ``len(options)``), int8; all 0 with no Decision."""
        return self.masks[0 if decision is None else self.check(decision)].copy()

    def check(self, decision: Decision) -> int:
        """The option count, or TooManyOptions when it is past ``K``."""
        n = len(decision.options)
        if n > K:
            raise TooManyOptions(
                f"decision {decision.kind} of {decision.faction} offers {n} options, more than "
                f"the {K} actions of the encoding (simulate/vijayanagara/ai/encoding.py)"
            )
        return n

    def encode(self, st: GameState, observer: int, decision: Decision | None) -> np.ndarray:
        """The observation vector of ``observer`` (0 DS, 1 BK, 2 VE) at a pending ``decision``
        (None: no Decision pending, at the end of the game)."""
        out = np.zeros(self.size, np.float32)
        lay = self.layout
        control = tuple(st.control)
        control_b = self.onehots.get(control)
        if control_b is None:
            if len(self.onehots) >= CACHE:
                self.onehots.clear()
            control_b = self.onehots[control] = _control_bytes(control)
        turn = (st.acted, st.stay, st.fork_cd, st.fork_ec, *st.elig_next, st.lasting)
        turn_b = self.onehots.get(turn)
        if turn_b is None:
            turn_b = self.onehots[turn] = _turn_bytes(st)
        try:  # every value is a small count: through bytes is 3x faster than np.array
            head = b"".join(
                (
                    bytes(st.pieces),
                    bytes(st.tributary),
                    control_b,
                    bytes(st.avail),
                    bytes(st.resources),
                    bytes(st.cavalry),
                    bytes((st.pool, *st.influence)),
                    *[bytes(slots) for slots in st.slots],
                    bytes(st.eligible),
                    bytes((st.dynasty, st.timurid, st.over)),
                    turn_b,
                )
            )
            out[: len(head)] = np.frombuffer(head, np.uint8)
        except ValueError:  # a value past a byte (a variant's large track)
            values = [
                *st.pieces,
                *st.tributary,
                *control_b,
                *st.avail,
                *st.resources,
                *st.cavalry,
                st.pool,
                *st.influence,
                *[x for slots in st.slots for x in slots],
                *st.eligible,
                st.dynasty,
                st.timurid,
                st.over,
                *turn_b,
            ]
            out[: len(values)] = values
        a, b = lay["deck"][0], lay["observer"][0]
        out[a:b] = self._cards(st)
        out[b + observer] = 1.0
        if decision is not None:
            self._decision(out, decision)
        return out

    def _cards(self, st: GameState) -> np.ndarray:
        """The deck, current card and played sections, kept while the deck stays put."""
        if st.deck is self.deck and st.pos == self.pos and st.card == self.card:
            return self.cards_array
        lay = self.layout
        at = lay["deck"][0]
        out = np.zeros(lay["observer"][0] - at, np.float32)
        out[:5] = (st.pos, st.cards_left(), *self._stack_left(st))
        if st.card >= 0:
            out[lay["current_card"][0] - at + st.card] = 1.0
        played = lay["played"][0] - at
        for i in st.deck[: st.pos]:
            out[played + i] = 1.0
        self.deck, self.pos, self.card, self.cards_array = st.deck, st.pos, st.card, out
        return out

    def _stack_left(self, st: GameState) -> tuple[int, int, int]:
        """Events, Invasion and Timurid cards still to come in the stack being drawn (2.1)."""
        cards = self.kind_of
        for (start, end, _), spec in zip(self.stacks, self.rules.stacks, strict=True):
            if st.pos < end:
                shown = [cards[i] for i in st.deck[start : max(start, st.pos)]]
                return (
                    self.rules.events_per_stack - shown.count(EVENT),
                    spec.get("mongol_invasions", 0) - shown.count(MONGOL_CARD),
                    spec.get("timurid", 0) - shown.count(TIMURID),
                )
        return (0, 0, 0)

    def _decision(self, out: np.ndarray, decision: Decision) -> None:
        """Write the Decision's sections (decider to options) into ``out``, which holds 0s
        there; its options' leaves are cached by the options."""
        n = self.check(decision)
        lay = self.layout
        out[lay["decider"][0] + NAMES.index(decision.faction)] = 1.0
        kind = self.kinds.get(decision.kind)
        if kind is None:
            raise UnknownDecision(f"decision kind {decision.kind!r} is not in encoding.KINDS")
        out[lay["kind"][0] + kind] = 1.0
        out[lay["n_options"][0]] = n
        if decision.context is not None:
            a = lay["context"][0]
            out[a : a + 2 * CONTEXT_LEAVES] = self._row(decision.context, CONTEXT_LEAVES, decision)
        key = (decision.kind, decision.options)  # one kind's options read alike in any context
        rows = self.cache.get(key)
        if rows is None:
            rows = np.concatenate(
                [self._row(option, OPTION_LEAVES, decision) for option in decision.options]
            )
            if len(self.cache) >= CACHE:
                self.cache.clear()
            self.cache[key] = rows
        a = lay["options"][0]
        out[a : a + len(rows)] = rows

    def _row(self, value, room: int, decision: Decision) -> np.ndarray:
        """``value``'s leaves, depth first, as ``room`` (type, value) pairs (cached by value)."""
        key = (type(value), value, room)  # True == 1 but is another leaf (none nests)
        row = self.leaf_cache.get(key)
        if row is not None:
            return row
        flat: list = []
        _flatten(value, flat)
        if len(flat) > room:
            raise UnknownDecision(
                f"decision {decision.kind}: {value!r} has {len(flat)} leaves, more than {room}"
            )
        pairs = []
        for leaf in flat:
            if isinstance(leaf, bool):
                pairs += (_BOOL, float(leaf))
            elif isinstance(leaf, int):
                pairs += (_INT, float(leaf))
            else:
                code = self.codes.get(leaf)
                if code is None:
                    raise UnknownDecision(
                        f"decision {decision.kind}: word {leaf!r} is not in encoding.words"
                    )
                pairs += (_WORD, float(code))
        row = np.zeros(2 * room, np.float32)
        row[: len(pairs)] = pairs
        if len(self.leaf_cache) >= CACHE:
            self.leaf_cache.clear()
        self.leaf_cache[key] = row
        return row


def _control_bytes(control: tuple) -> bytes:
    """Each space's controlling Faction, one-hot over DS, BK, VE and the Mongols."""
    out = bytearray(4 * len(control))
    for s, c in enumerate(control):
        if c >= 0:
            out[4 * s + c] = 1
    return bytes(out)


def _turn_bytes(st: GameState) -> bytes:
    """The turn and lasting sections: who acted, the forks taken, Eligibility set for the
    next card, Stay Eligible, and each lasting modifier for each Faction it binds."""
    out = bytearray(18 + 3 * len(LASTING))
    for f in range(3):
        out[f] = st.acted >> f & 1
        out[15 + f] = st.stay >> f & 1
        nxt = st.elig_next[f]
        if nxt >= 0:
            out[9 + 2 * f + nxt] = 1
    if st.fork_cd >= 0:
        out[3 + st.fork_cd] = 1
    if st.fork_ec >= 0:
        out[6 + st.fork_ec] = 1
    for modifier, faction, _ in st.lasting:
        m = LASTING.index(modifier)
        for f in range(3) if faction < 0 else (faction,):
            out[18 + 3 * m + f] = 1
    return bytes(out)


def _flatten(value, into: list) -> None:
    if isinstance(value, tuple):
        for v in value:
            _flatten(v, into)
    elif value is not None:
        into.append(value)
