"""Pax Pamir's encoder for the AI adapters (``simulate.ai.encoding``'s protocol, docs/ai.md):
a fixed-size float32 vector of what one seat may see, the action space, and a text summary.

**Actions.** The adapters' action ``i`` is the ``i``-th option of the pending Decision (the
protocol's order: the mask marks the first ``len(options)``). ``actions`` bounds every
Decision from the data (``option_bounds``): the main choice at most pass + the market's spaces
+ one option per court card in hand or its printed actions in court (1 + 12 + 168 = 181 with
the shipped cards); a move's steps at most two per region border for armies and for tribes
(36) and, per card holding one of the player's spies (at most its cylinders, 10), its
neighbours on the court track (4 with Well-Connected) and the other cards of its region
(Strange Bedfellows, 20), plus STOP: 277 in all. Every other kind offers fewer.

**Codes.** Besides, every option code any Decision can offer has a fixed *code index*
(``Codes``: ``index(kind, option)``, ``option(kind, index)``, dense ``0..codes.size-1``),
by family ranges: the main choice (pass, buy a space, play a card, card x action), STOP,
yes/no, court side, coalition, suit, region, player, border, bribe amount, court card, tax
source, build spot, battle site, battle unit, move step and unit location (``FAMILIES``;
11,686 codes with the shipped data, 10,000 of them spy steps). The observation names each
offered option by its code index and family, so a policy can give actions a fixed meaning;
``code_mask`` is the legal set in code indices.

**Observation** (``PaxEncoder.layout``, five seat slots whatever the count): the observer,
the decider, the active player, the seats present and Wakhan's; each seat's rupees, hand
size, points, gifts, cylinders in supply, court size and loyalty; the favored suit, checks
done and the deck's and discard's sizes; where each card lies (the observer's hand, a court,
a seat's prizes, a market space, the discard: the deck and the other hands are sizes only);
the spies on each court card; armies, tribes, roads, blocks in supply, each region's ruler;
the market's rupees; the lasting events by seat; the Decision's kind; and for the decider
only (another seat's options may name its hand) the context and each option.
"""

from __future__ import annotations

import bisect
from typing import Any

import numpy as np

from simulate.ai.encoding import GameEncoder

from . import options as O
from . import ruling
from .cards import PaxData
from .state import ALL, EMPTY, INACTIVE, State
from .view import Decision, mask

SLOTS = 5  # seat slots: the most seats (seat_range)
TURN_DECISIONS = 200  # one turn's decisions, at most (a bound: 30 in 900 random games)

KINDS = (  # every Decision kind (engine, card_actions, events, the Wakhan seat's asks)
    "action",
    "loyalty",
    "side",
    "road",
    "spy",
    "tax",
    "build",
    "infrastructure",
    "move",
    "betray",
    "prize",
    "battle_site",
    "battle",
    "safe_house",
    "blackmail",
    "bribe_ask",
    "bribe_pay",
    "hostage_ask",
    "hostage_pay",
    "court_discard",
    "hand_discard",
    "discard",
    "repay",
    "take_from",
    "rumor_target",
    "swap_with",
    "favored_suit",
    "region",
)
FAMILY_OF = {  # Decision kind -> the family of its option codes (STOP aside)
    "action": "main",
    "loyalty": "coalition",
    "side": "side",
    "road": "border",
    "spy": "card",
    "tax": "tax",
    "build": "build",
    "infrastructure": "build",
    "move": "move",
    "betray": "card",
    "prize": "yes_no",
    "battle_site": "site",
    "battle": "unit",
    "safe_house": "card",
    "blackmail": "card",
    "bribe_ask": "amount",
    "bribe_pay": "yes_no",
    "hostage_ask": "amount",
    "hostage_pay": "yes_no",
    "court_discard": "card",
    "hand_discard": "card",
    "discard": "card",
    "repay": "card",
    "take_from": "location",
    "rumor_target": "player",
    "swap_with": "player",
    "favored_suit": "suit",
    "region": "region",
}
FAMILIES = tuple(dict.fromkeys(("stop", *FAMILY_OF.values())))  # in code-index order


def family(kind: str) -> str:
    """The code family of a Decision kind (a ``*_ask`` or ``*_pay`` of any word included)."""
    if kind in FAMILY_OF:
        return FAMILY_OF[kind]
    if kind.endswith("_ask"):
        return "amount"
    if kind.endswith("_pay"):
        return "yes_no"
    raise ValueError(f"no option codes known for decision kind {kind!r}")


class Codes:
    """Every option code of every Decision kind as a dense index ``0..size-1``, by family
    ranges (``offset[family]``, ``sizes[family]``); players and location codes as at five
    seats, so the indices are the same at every seat count."""

    def __init__(self, data: PaxData, players: int) -> None:
        self.n = players
        self.M = data.market_rows * data.market_columns
        self.C = len(data.court)
        self.R, self.B, self.K = len(data.regions), len(data.borders), len(data.coalitions)
        self.V = len(data.actions)  # the card-based actions (verbs 3..)
        M, C, R, B, K, P = self.M, self.C, self.R, self.B, self.K, SLOTS
        self.amounts = data.numbers.usable_cylinders + 1  # a bribe: tribes or spies, 0..10
        self.sizes = {
            "stop": 1,
            "main": 1 + M + C + self.V * C,
            "coalition": K,
            "side": 2,
            "border": B,
            "card": C,
            "tax": M + P,
            "build": R + B,
            "move": 2 * R * R + C * C,
            "yes_no": 2,
            "site": R + C,
            "unit": K + B * K + 2 * P,
            "amount": self.amounts,
            "location": R * K + B * K + R * P + C * P + P,
            "player": P,
            "suit": len(data.suits),
            "region": R,
        }
        self.offset: dict[str, int] = {}
        at = 0
        for name in FAMILIES:
            self.offset[name] = at
            at += self.sizes[name]
        self.size = at
        # location codes at this seat count (``play.location``): tables end to end
        self.tables = (R * K, B * K, R * players, C * players, players)

    def index(self, kind: str, option: int) -> int:
        """The code index of ``option`` of a ``kind`` Decision (ValueError if none)."""
        name = "stop" if option == O.STOP else family(kind)
        forth = getattr(self, "_" + name, None)
        local = 0 if name == "stop" else option if forth is None else forth(option)
        if not 0 <= local < self.sizes[name]:
            raise ValueError(f"option {option} of {kind!r} is outside its codes ({name})")
        return self.offset[name] + local

    def option(self, kind: str, index: int) -> int:
        """The option code a ``kind`` Decision gives code index ``index`` (``index``'s inverse)."""
        name = family(kind)
        if index == self.offset["stop"]:
            return O.STOP
        local = index - self.offset[name]
        if not 0 <= local < self.sizes[name]:
            raise ValueError(f"code index {index} is no {name} option of {kind!r}")
        back = getattr(self, "_" + name + "_back", None)
        return local if back is None else back(local)

    # -- the families whose codes are not their own index ----------------------------------
    def _main(self, o: int) -> int:
        verb, arg = O.verb_of(o), O.arg_of(o)
        if verb == O.PASS:
            return 0 if arg == 0 else -1
        if verb == O.BUY:
            return 1 + arg if arg < self.M else -1
        if arg >= self.C or verb - O.FIRST_ACTION >= self.V:
            return -1
        return 1 + self.M + (verb - O.PLAY) * self.C + arg

    def _main_back(self, i: int) -> int:
        if i == 0:
            return O.PASS
        if i <= self.M:
            return O.encode(O.BUY, i - 1)
        verb, card = divmod(i - 1 - self.M, self.C)
        return O.encode(O.PLAY + verb, card)

    def _tax(self, o: int) -> int:
        return o if o < O.PLAYER_CODE and o < self.M else self.M + o - O.PLAYER_CODE

    def _tax_back(self, i: int) -> int:
        return i if i < self.M else O.PLAYER_CODE + i - self.M

    def _build(self, o: int) -> int:
        return o if o < self.R else self.R + o - O.ROAD_CODE if o >= O.ROAD_CODE else -1

    def _build_back(self, i: int) -> int:
        return i if i < self.R else O.ROAD_CODE + i - self.R

    def _site(self, o: int) -> int:
        return o if o < self.R else self.R + o - O.CARD_SITE if o >= O.CARD_SITE else -1

    def _site_back(self, i: int) -> int:
        return i if i < self.R else O.CARD_SITE + i - self.R

    def _unit(self, o: int) -> int:
        K, B = self.K, self.B
        if o < O.ROAD_UNIT:
            return o if o < K else -1
        if o < O.TRIBE_UNIT:
            border, c = divmod(o - O.ROAD_UNIT, 4)
            return K + border * K + c if c < K and border < B else -1
        if o < O.SPY_UNIT:
            return K + B * K + o - O.TRIBE_UNIT
        return K + B * K + SLOTS + o - O.SPY_UNIT

    def _unit_back(self, i: int) -> int:
        K, B = self.K, self.B
        if i < K:
            return i
        if i < K + B * K:
            border, c = divmod(i - K, K)
            return O.ROAD_UNIT + border * 4 + c
        if i < K + B * K + SLOTS:
            return O.TRIBE_UNIT + i - K - B * K
        return O.SPY_UNIT + i - K - B * K - SLOTS

    def _move(self, o: int) -> int:
        R, C = self.R, self.C
        if o >= O.SPY_MOVE:
            src, dst = divmod(o - O.SPY_MOVE, 128)
            return 2 * R * R + src * C + dst if dst < C else -1
        base = R * R if o >= O.TRIBE_MOVE else 0
        src, dst = divmod(o - (O.TRIBE_MOVE if base else 0), 16)
        return base + src * R + dst if src < R and dst < R else -1

    def _move_back(self, i: int) -> int:
        R, C = self.R, self.C
        if i >= 2 * R * R:
            src, dst = divmod(i - 2 * R * R, C)
            return O.SPY_MOVE + src * 128 + dst
        base = O.TRIBE_MOVE if i >= R * R else 0
        src, dst = divmod(i % (R * R), R)
        return base + src * 16 + dst

    def _location(self, o: int) -> int:
        """A ``play.location`` code at this seat count, re-indexed as at five seats."""
        n, rest, out = self.n, o, 0
        for kind, length in enumerate(self.tables):
            wide = self._wide(kind)
            if rest < length:
                if kind < 2:
                    return out + rest
                place, who = divmod(rest, n) if kind < 4 else (0, rest)
                return out + place * SLOTS + who
            rest -= length
            out += wide
        return -1

    def _location_back(self, i: int) -> int:
        n, rest, out = self.n, i, 0
        for kind, length in enumerate(self.tables):
            wide = self._wide(kind)
            if rest < wide:
                if kind < 2:
                    return out + rest
                place, who = divmod(rest, SLOTS) if kind < 4 else (0, rest)
                if who >= n:
                    raise ValueError(f"code index {i}: no seat {who} at {n} seats")
                return out + place * n + who
            rest -= wide
            out += length
        raise ValueError(f"code index {i} is no location")

    def _wide(self, kind: int) -> int:
        """The length of location table ``kind`` at five seats."""
        R, B, K, C = self.R, self.B, self.K, self.C
        return (R * K, B * K, R * SLOTS, C * SLOTS, SLOTS)[kind]


def option_bounds(data: PaxData, players: int) -> dict[str, int]:
    """The most options a Decision of each family may offer (module docstring), from the
    data: the action space is their maximum."""
    R, B, K = len(data.regions), len(data.borders), len(data.coalitions)
    M, C = data.market_rows * data.market_columns, len(data.court)
    cylinders, blocks = data.numbers.usable_cylinders, data.numbers.blocks_per_coalition
    per_region = max(sum(c.region == r for c in data.court) for r in range(R))
    steps = sum(len(a) for a in data.adjacency)  # an army (or tribe) across each border, each way
    spy_reach = min(C - 1, 4 + per_region - 1)  # Well-Connected's 4, Strange Bedfellows' region
    return {
        "main": 1 + M + sum(max(1, len(c.actions)) for c in data.court),
        "move": 2 * steps + min(cylinders, C) * spy_reach + 1,
        "card": C + 1,
        "tax": M + players - 1 + 1,
        "build": R + B + 1,
        "site": R + min(cylinders, C),
        "unit": K + B * K + 2 * players + 1,
        "amount": cylinders + 1,
        "location": max(blocks, cylinders),
        "coalition": K,
        "suit": len(data.suits),
        "region": R,
        "border": max(len(b) for b in data.region_borders),
        "player": players - 1,
        "side": 2,
        "yes_no": 2,
    }


class PaxEncoder(GameEncoder):
    """One float32 vector per seat (module docstring; ``layout``); actions are the pending
    Decision's options in order, at most ``actions``."""

    seat_range = (2, 5)

    def __init__(self, game: Any, rules: Any) -> None:
        super().__init__(game, rules)
        self.data = data = rules.data
        self.n = rules.players
        self.codes = Codes(data, self.n)
        self.starts = [self.codes.offset[name] for name in FAMILIES]
        self.actions = max(option_bounds(data, SLOTS).values())
        self.max_game_length = 1 + TURN_DECISIONS * rules.max_turns  # the seed, then decisions
        self.bound = float(max(1.0e4, self.codes.size + 1))
        self.cards = len(data.court) + len(data.dominance_checks) + len(data.events)
        c = self.codes
        self.places = 1 + 2 * SLOTS + c.M + 1  # hand, court and prizes by seat, market, discard
        blocks = (
            ("observer", SLOTS),
            ("decider", SLOTS),
            ("active", SLOTS),
            ("present", SLOTS),
            ("wakhan", SLOTS),
            ("seats", SLOTS * 7),  # rupees, hand size, points, gifts, cylinders, court, prizes
            ("loyalty", SLOTS * c.K),
            ("favored", len(data.suits)),
            ("table", 3),  # checks done, deck size, discard size
            ("cards", self.cards * self.places),
            ("spies", c.C * SLOTS),
            ("armies", c.R * c.K),
            ("tribes", c.R * SLOTS),
            ("roads", c.B * c.K),
            ("blocks", c.K),
            ("ruler", c.R * (SLOTS + 1)),  # a seat, or none
            ("market_rupees", c.M),
            ("lasting", len(data.events) * 2 * SLOTS),
            ("kind", len(KINDS) + 1),  # the last: a kind not in KINDS
            ("context", 3 + self.cards),  # actions left, cards used, refused; the card concerned
            ("options", self.actions * 2),  # code index + 1, family + 1
        )
        self.layout: dict[str, slice] = {}
        at = 0
        for name, width in blocks:
            self.layout[name] = slice(at, at + width)
            at += width
        self.size = at

    # -- the observation ---------------------------------------------------------------------
    def encode(self, view: Any, seat: int, decision: Any) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        at = {name: s.start for name, s in self.layout.items()}
        out[at["observer"] + seat] = 1.0
        if view is not None:
            self._table(out, at, seen(view, seat), seat)
        if decision is None:
            return out
        decider = self.seats.index(decision.faction)
        out[at["decider"] + decider] = 1.0
        kind = KINDS.index(decision.kind) if decision.kind in KINDS else len(KINDS)
        out[at["kind"] + kind] = 1.0
        if decider == seat:  # another seat's options and context may name its hand
            self._decision(out, at, decision)
        return out

    def _table(self, out: np.ndarray, at: dict[str, int], st: State, seat: int) -> None:
        """Everything on the table ``seat`` sees (``st`` masked for it)."""
        n, c = st.players, self.codes
        K = c.K
        out[at["active"] + st.turn] = 1.0
        out[at["present"] : at["present"] + n] = 1.0
        if st.wakhan >= 0:
            out[at["wakhan"] + st.wakhan] = 1.0
        seats = out[at["seats"] : at["seats"] + SLOTS * 7].reshape(7, SLOTS)
        seats[0, :n] = st.rupees
        seats[1, :n] = [len(h) for h in st.hand]
        seats[2, :n] = st.points
        seats[3, :n] = st.gifts
        seats[4, :n] = st.cylinders
        seats[5, :n] = [len(x) for x in st.court]
        seats[6, :n] = [len(x) for x in st.prizes]
        for p, coalition in enumerate(st.loyalty):
            if 0 <= coalition < K:
                out[at["loyalty"] + p * K + coalition] = 1.0
        out[at["favored"] + st.favored] = 1.0
        out[at["table"] : at["table"] + 3] = (st.checks_done, len(st.deck), len(st.discard))
        base, width = at["cards"], self.places
        for card in st.hand[seat]:
            out[base + card * width] = 1.0
        for p in range(n):
            for card in st.court[p]:
                out[base + card * width + 1 + p] = 1.0
            for card in st.prizes[p]:
                out[base + card * width + 1 + SLOTS + p] = 1.0
        for space, card in enumerate(st.market):
            if card != EMPTY:
                out[base + card * width + 1 + 2 * SLOTS + space] = 1.0
        for card in st.discard:
            out[base + card * width + width - 1] = 1.0
        spies = out[at["spies"] : at["spies"] + c.C * SLOTS].reshape(c.C, SLOTS)
        spies[:, :n] = np.asarray(st.spies, np.float32).reshape(c.C, n)
        out[at["armies"] : at["armies"] + c.R * K] = st.armies
        tribes = out[at["tribes"] : at["tribes"] + c.R * SLOTS].reshape(c.R, SLOTS)
        tribes[:, :n] = np.asarray(st.tribes, np.float32).reshape(c.R, n)
        out[at["roads"] : at["roads"] + c.B * K] = st.roads
        out[at["blocks"] : at["blocks"] + K] = st.blocks
        for region in range(c.R):
            who = ruling.ruler(st, region)
            out[at["ruler"] + region * (SLOTS + 1) + (who if who >= 0 else SLOTS)] = 1.0
        out[at["market_rupees"] : at["market_rupees"] + c.M] = st.market_rupees
        for i, who in enumerate(st.lasting):
            if who == INACTIVE:
                continue
            row = at["lasting"] + i * SLOTS
            if who == ALL:
                out[row : row + n] = 1.0
            elif 0 <= who < n:
                out[row + who] = 1.0

    def _decision(self, out: np.ndarray, at: dict[str, int], decision: Decision) -> None:
        """The decider's own: the context and each option's code index and family."""
        context = decision.context
        if decision.kind == "action" and isinstance(context, tuple):
            left, used, refused = context
            out[at["context"] : at["context"] + 3] = (left, len(used), len(refused))
        elif isinstance(context, int) and 0 <= context < self.cards:
            out[at["context"] + 3 + context] = 1.0
        base = at["options"]
        for i, option in enumerate(decision.options[: self.actions]):
            index = self.codes.index(decision.kind, option)
            out[base + 2 * i] = index + 1
            out[base + 2 * i + 1] = FAMILIES.index(self._family_at(index)) + 1

    def _family_at(self, index: int) -> str:
        """The family whose range holds code index ``index``."""
        return FAMILIES[bisect.bisect_right(self.starts, index) - 1]

    # -- the code indices --------------------------------------------------------------------
    def code_indices(self, decision: Decision) -> list[int]:
        """The code index of each option, in the Decision's order."""
        return [self.codes.index(decision.kind, o) for o in decision.options]

    def code_mask(self, decision: Decision | None) -> np.ndarray:
        """1 at the code index of each legal option (``codes.size`` long), int8."""
        out = np.zeros(self.codes.size, np.int8)
        if decision is not None:
            out[self.code_indices(decision)] = 1
        return out

    def action_of(self, decision: Decision, index: int) -> int:
        """The action (option position) of a code index (ValueError if not offered)."""
        option = self.codes.option(decision.kind, index)
        if option not in decision.options:
            raise ValueError(f"code index {index} is not an option of this {decision.kind}")
        return decision.options.index(option)

    # -- text --------------------------------------------------------------------------------
    def action_string(self, seat: int, decision: Any, action: int) -> str:
        return f"{self.seats[seat]} {decision.kind} {self.describe(decision, action)}"

    def describe(self, decision: Decision, action: int) -> str:
        """An option in words: its family and arguments (cards by name)."""
        option = decision.options[action]
        if option == O.STOP:
            return "stop"
        name = family(decision.kind)
        if name == "main":
            verb, arg = O.verb_of(option), O.arg_of(option)
            if verb == O.PASS:
                return "pass"
            if verb == O.BUY:
                return f"buy space {arg}"
            word = "play" if verb == O.PLAY else self.data.actions[verb - O.FIRST_ACTION]
            return f"{word} {self.data.court[arg].name}"
        if name == "card" and 0 <= option < len(self.data.court):
            return self.data.court[option].name
        if name == "yes_no":
            return "yes" if option else "no"
        return f"{name} {option}"

    def render(self, stepper: Any) -> str:
        """Each seat's points, rupees and loyalty, the checks done, and what the game waits
        for, in one line (the board as any seat sees it: no hand shows)."""
        view = stepper.view
        if view is None:
            return self.now(stepper)
        st = seen(view, -1)
        coalitions = self.data.coalitions
        parts = [
            f"{name} {st.points[p]}vp {st.rupees[p]}r {coalitions[st.loyalty[p]]}"
            for p, name in enumerate(self.seats)
        ]
        favored = self.data.suits[st.favored]
        return f"{'; '.join(parts)} | checks {st.checks_done}, {favored} | {self.now(stepper)}"


def seen(view: Any, seat: int) -> State:
    """The state ``seat`` sees (-1: no seat's hand), from any seat's observation: the other
    hands and the deck hidden (``view.mask``)."""
    if getattr(view, "player", None) == seat:
        return view.state
    full = getattr(view, "_state", None)
    return mask(full if full is not None else view.state, seat)
