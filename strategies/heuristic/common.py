"""What the three heuristic faction bots share: decision dispatch, the turn plan (which
option, Command and Decree), Cavalry, casualties, Succession and housekeeping choices.

A faction bot subclasses ``FactionBot`` and provides, for each of its Commands, a value per
selectable space (``space_value``), and a value per Decree (``decree_value``); the base class
turns these into the top-level choice (2.3.3) and the space-by-space execution (3.1.1).
Values are in victory-point equivalents and come from the local Province values of
``evaluation.Evaluator`` plus the weights in ``weights.toml``. Decisions a bot has no handler
for (new Event kinds, say) fall back to a random offered option from the bot's generator.

Speed: values are cached for as long as what they read stays the same, never longer. At each
decision the bot compares the position with the last one it saw and finds the spaces that
changed; a Province's worth changes and add-values (``_local``) live until that Province
changes, a space value until the space (or, for Commands that move Units in, a neighbour)
changes or what ``space_key`` names does (Available pieces, the Delhi zone). The opponent
to hold back is judged once per card. ``HeuristicStrategy.keep_caches = False`` recomputes
everything at every decision; a test plays the same games both ways and compares them.

Compiled (``setup.py``), ``common.pxd`` makes ``FactionBot`` an extension type with C
attributes and typed hot methods, and every bot class is one too (its own ``.pxd``).
Declare there every attribute a bot sets: the bots have no ``__dict__``, so an undeclared
one fails only compiled, which ``tests/test_native.py`` catches. For the same reason a bot
class gives its faction data in ``DATA`` (copied into C fields at start), never as class
attributes, and reads the decision's position as ``self.pieces``... (the Observation's
lists, set by ``choose``). A bot calls a base method as ``FactionBot.method(self, ...)``:
``super()`` fails in a typed (``cpdef``) method, and a call of one by keywords names every
argument up to the last it gives (``delta(obs, s, dds=1, dbk=0, dve=0, trib=None, dgov=1)``).
"""

from __future__ import annotations

import weakref
from functools import cache
from operator import itemgetter

from simulate.rules.decisions import DONE
from simulate.rules.events import SIDES  # an Event's two texts (2.3.4)
from simulate.rules.pieces import (
    BK,
    COUNTER_OWNER,
    DS,
    GOVERNOR,
    MI,
    MONGOL,
    NK,
    PIECES_OF,
    STRUCTURES,
    UNITS_OF,
    VE,
)
from simulate.rules.state import TUGHLAQ

CD, EVENT, COMMAND, LIMITED, PASS = "command_decree", "event", "command", "limited", "pass"
NONE = "none"
UNDOABLE = -1e6  # an option valued below this is one the bot would never take
BATTLE_KINDS = frozenset({"attack_target", "attack_support", "cavalry", "casualty"})
SPACE_REFRESH = 3  # spaces whose values are refreshed at each selection (k_space)
VALUES_MAX = 50_000  # space values kept at most (then dropped: they are recomputed)
# play.choice.terms: the features of the position an option's terms are crossed with
CHOICE_CONTEXT = ("late", "late2", "resources", "margin")


def choice_context(progress: float, resources: int, margin: float) -> tuple:
    """The position's features for ``play.choice.terms`` (2.3.3): how far through the deck
    (and its square), own Resources and the evaluation's margin (both / 10)."""
    return (progress, progress * progress, resources / 10.0, margin / 10.0)


def option_features(v: float, plan: dict) -> list:
    """An option's features for ``play.choice.terms``, as (name, value): its value to the bot
    (``v``), its action (``a:``), Command (``c:``) and Decree (``d:``), the action's own
    scale on ``v`` (``va:``), and the pairs action-Command (``ac:``) and Command-Decree
    (``cd:``)."""
    names = feature_names(plan["action"], plan.get("command"), plan.get("decree"))
    return [(name, v if on_v else 1.0) for name, on_v in names]


def feature_names(a: str, c: str | None, d: str | None) -> list:
    """``option_features`` of action ``a``, Command ``c`` and Decree ``d`` as (name, whether
    its value is the option's value ``v``, else 1), in that order."""
    out = [("v", True), ("a:" + a, False), ("va:" + a, True)]
    if c and c != NONE:
        out.append(("c:" + c, False))
        out.append(("ac:" + a + ":" + c, False))
        if d:
            out.append(("cd:" + c + ":" + d, False))
    if d:
        out.append(("d:" + d, False))
    return out


class ChoiceTerms(tuple):
    """``play.choice.terms`` compiled: (context index, {feature: weight}) per table (-1: the
    option's own terms), and, found once per (action, Command, Decree), the weights of its
    features in each table (``coefficients``): the bots score thousands of options a game."""

    def __new__(cls, tables) -> ChoiceTerms:
        self = tuple.__new__(cls, tables)
        self.memo = {}
        return self

    def coefficients(self, a: str, c: str | None, d: str | None) -> tuple:
        """Per table with a weight on one of this option's features: (context index,
        ((weight, whether it multiplies ``v``), ...)) in ``option_features`` order."""
        key = (a, c, d)
        got = self.memo.get(key)
        if got is None:
            names = feature_names(a, c, d)
            got = []
            for k, table in self:
                pairs = tuple((table[n], on_v) for n, on_v in names if n in table)
                if pairs:
                    got.append((k, pairs))
            got = self.memo[key] = tuple(got)
        return got


def plan_of(row: tuple) -> dict:
    """The turn plan of an ``option_rows`` row (value, action, Command, Decree, force, side),
    as ``options_here`` gives it."""
    a = row[1]
    if a == PASS:
        return {"action": a}
    if a == EVENT:
        return {"action": a, "side": row[5]}
    return {"action": a, "command": row[2], "decree": row[3], "force": row[4]}


def compile_terms(terms: dict) -> ChoiceTerms:
    """``play.choice.terms`` ({"late*c:rally": w, "ac:limited:rally": w, ...}) as one table
    of weights per context feature (-1: the option's own terms), checked once (a bot's
    ``SharedWeights.derived`` keeps them for every bot of the process)."""
    tables: dict[int, dict] = {}
    for key, w in terms.items():
        if not isinstance(w, (int, float)) or isinstance(w, bool):
            raise ValueError(f"play.choice.terms.{key} must be a number, got {w!r}")
        z, star, name = key.partition("*")
        if not star:
            z, name = "", key
        elif z not in CHOICE_CONTEXT:
            raise ValueError(
                f"play.choice.terms.{key}: no context {z!r} (known: {', '.join(CHOICE_CONTEXT)})"
            )
        k = CHOICE_CONTEXT.index(z) if z else -1
        tables.setdefault(k, {})[name] = float(w)
    return ChoiceTerms(sorted(tables.items()))


def counts(p: list[int], s: int) -> tuple[int, int, int]:
    """Pieces of DS, BK and VE in space ``s``."""
    b = s * NK
    return (
        p[b] + p[b + 1] + p[b + 2],
        p[b + 3] + p[b + 4] + p[b + 5],
        p[b + 6] + p[b + 7] + p[b + 8],
    )


def changed_spaces(new: list[int], old: list[int], nk: int) -> list[int]:
    """The spaces whose ``nk`` piece counters differ between two piece lists."""
    out = []
    for s in range(len(new) // nk):
        for i in range(s * nk, s * nk + nk):
            if new[i] != old[i]:
                out.append(s)
                break
    return out


def hit_chance(units: int) -> float:
    """Chance one die hits with ``units`` Units involved: rolls <= units, a 6 misses (3.2.4)."""
    return (units if units < 5 else 5) / 6.0


@cache
def handlers(cls: type) -> dict:
    """A bot class's decision handlers by decision kind: its ``k_<kind>`` methods."""
    return {name[2:]: getattr(cls, name) for name in dir(cls) if name[:2] == "k_"}


class FactionBot:
    """Base of the DS, BK and VE heuristic bots. A bot class gives its faction's data in
    ``DATA``; each bot copies it at start (C fields when compiled, not class lookups)."""

    DATA = {
        "faction": -1,
        "commands": (),
        "decrees": (),  # (a Deccan bot's are its econ, build and special Decrees)
        "timing_first": frozenset(),  # Decrees taken before the Command (4.1)
        "local_commands": frozenset(),  # Commands whose space values read only that space
    }

    def __init__(self, owner, rng, rules, weights: dict, evaluator) -> None:
        data = type(self).DATA
        self.faction = data["faction"]
        self.commands = data["commands"]
        self.decrees = data.get("decrees", ())
        self.timing_first = data.get("timing_first", frozenset())
        self.local_commands = data["local_commands"]
        # a weak reference: the strategy holds its bot, so a strong one back would be a cycle
        # that only the garbage collector frees, with everything the bot holds (a game's worth)
        self.owner = weakref.proxy(owner)
        self.rng = rng
        self.rules = rules
        board = rules.board
        self.board = board
        self.P = board.prosperity
        self.adj = board.adjacent
        self.provinces = board.province_ids
        self.is_prov = board.is_province
        self.n = board.n
        self.delhi, self.mp, self.pj = rules.delhi, rules.mountain_passes, rules.punjab
        self.zone = (rules.delhi, rules.punjab, rules.mountain_passes)
        self.W = weights
        self.play = weights["play"]
        self.ev = evaluator
        self.aggr = float(self.play["aggression"])
        self.reserve = int(self.play["reserve"])
        # how much another faction's local losses count as own gains: most for the leader
        self.rival_leader = float(self.play["rival_leader"])
        self.rival_other = float(self.play["rival_other"])
        choice = self.play["choice"]
        self.choice = choice if choice["fitted"] else None  # play.choice: fitted_choice
        self.terms = owner.terms  # play.choice.terms, compiled by the strategy (compile_terms)
        self.rw = [0.0, 0.0, 0.0]
        self.lead = -1
        self.plan: dict = {}
        self.last: dict = {}
        self.ranked: dict = {}  # space values by Command when the turn was planned
        self.battle: tuple[int, int, int] | None = None  # (my units, their units, their pieces)
        self.progress = 0.0
        self.tughlaq = False
        # Caches, by lifetime. ``_local[(lead + 1) * n + s]``: worth changes and add-values of
        # Province ``s`` with that opponent leading, kept while ``s`` (its pieces and
        # Tributary marker) and the Dynasty stay the same. ``_values``: space values keyed by
        # the last change of the space (Commands in ``local_commands``) or around it
        # (``_hood_clock``), the leader and what else they read (``space_key``). ``_spaces``:
        # anything else, for one position only.
        n = self.n
        self._local: list[dict] = [{} for _ in range(4 * n)]
        self._values: dict = {}
        self._spaces: dict = {}
        # the spaces whose neighbourhood (the space and its neighbours) holds each space
        touches: list[list[int]] = [[s] for s in range(n)]
        for a in range(n):
            for s in board.adjacent[a]:
                touches[s].append(a)
        self._touches = tuple(tuple(t) for t in touches)
        self._space_clock = [0] * n
        self._hood_clock = [0] * n
        self._clock = 0
        # the position of the decision in progress: the Observation's lists (set by choose)
        self.pieces = self.tributary = self.available = self.control = None
        self.resources = self.cavalry = self.influence = None
        # the position the caches above belong to (copies of the Observation's lists)
        self._pl: list | None = None
        self._tl: list | None = None
        self._al: list | None = None
        self._cl: list | None = None
        self._il: list | None = None
        self._dyn = -1
        self._left = -1
        self.keep_caches = True  # False: every value recomputed at every decision (a test)
        self._handlers = handlers(type(self))

    # -- dispatch -------------------------------------------------------------------------

    def choose(self, obs, d):
        # this decision's position: the Observation's live lists, read (never written) by the
        # bot's methods as ``self.pieces``... (one attribute read here, not one per use)
        self.pieces, self.tributary, self.available = obs.pieces, obs.tributary, obs.available
        self.control, self.resources = obs.control, obs.resources
        self.cavalry, self.influence = obs.cavalry, obs.influence
        # a new position (pieces, markers, tracks, Dynasty, card) makes some values stale
        if (
            self.pieces != self._pl
            or self.tributary != self._tl
            or self.available != self._al
            or self.cavalry != self._cl
            or self.influence != self._il
            or obs.dynasty != self._dyn
            or obs.cards_remaining != self._left
        ):
            self._moved(obs)
        if not self.keep_caches:
            self._forget()
            self._spaces = {}
        if d.kind not in BATTLE_KINDS:
            self.battle = None  # our own Attack is over: a later battle is someone else's
        h = self._handlers.get(d.kind)
        if h is not None:
            choice = h(self, obs, d)
            if choice in d.options:
                return choice
        return self.fallback(obs, d)

    def _moved(self, obs) -> None:
        """The position changed since the last decision: forget what it made stale."""
        p, trib = self.pieces, self.tributary
        old_p, old_t = self._pl, self._tl
        new_card = obs.cards_remaining != self._left
        self._pl, self._tl = p[:], trib[:]
        self._al, self._cl, self._il = self.available[:], self.cavalry[:], self.influence[:]
        self._dyn, self._left = obs.dynasty, obs.cards_remaining
        self.progress = self.ev.progress(obs)
        tughlaq = obs.dynasty == TUGHLAQ
        self._spaces = {}
        if len(self._values) > VALUES_MAX:
            self._values = {}
        if old_p is None or tughlaq != self.tughlaq:
            self.tughlaq = tughlaq
            self._forget()
        else:
            changed = changed_spaces(p, old_p, NK) if p != old_p else []
            if trib != old_t:
                changed.extend(s for s, was in enumerate(old_t) if trib[s] != was)
            if changed:
                self._changed(changed)
        if new_card:
            self.set_leader(obs)  # a new card: who leads now, for the whole card

    def _changed(self, spaces: list[int]) -> None:
        """Forget the values of changed spaces, and mark them and their neighbours."""
        n = self.n
        local, hood, touches, clock = self._local, self._hood_clock, self._touches, self._clock
        for s in spaces:
            local[s] = {}
            local[n + s] = {}
            local[2 * n + s] = {}
            local[3 * n + s] = {}
            clock += 1
            self._space_clock[s] = clock
            for a in touches[s]:
                hood[a] = clock
        self._clock = clock

    def _forget(self) -> None:
        """Drop every cached value (a new Dynasty changes every Province's worth)."""
        self._local = [{} for _ in range(4 * self.n)]
        self._values = {}

    def fallback(self, obs, d):
        opts = d.options
        return opts[int(self.rng.random() * len(opts))]

    # -- values shared by the bots ----------------------------------------------------------

    def res_value(self, r: int) -> float:
        """Worth of one more Resource when holding ``r`` (1.8): dear when poor, cheap late."""
        base = (
            0.5
            if r <= 1
            else 0.32
            if r <= 3
            else 0.2
            if r <= 6
            else 0.12
            if r <= 10
            else 0.06
            if r <= 16
            else 0.02
        )
        return base * (0.35 + 0.65 * (1.0 - self.progress))

    def gain_value(self, r: int, gain: int) -> float:
        cap = self.rules.resources_max
        total = 0.0
        for i in range(max(0, min(gain, cap - r))):
            total += self.res_value(r + i)
        return total

    def cost(self, r: int, k: int = 1) -> float:
        """Worth of spending ``k`` Resources out of ``r`` (more when it eats the reserve)."""
        total = 0.0
        for i in range(k):
            left = r - i - 1
            total += self.res_value(left) * (1.6 if left < self.reserve else 1.0)
        return total

    def cav_value(self) -> float:
        return 0.25 * (0.3 + 0.7 * (1.0 - self.progress))

    def worth(
        self,
        obs,
        s: int,
        dds: int = 0,
        dbk: int = 0,
        dve: int = 0,
        trib: bool | None = None,
        dgov: int = 0,
    ) -> float:
        """This faction's worth of Province ``s`` with its piece counts changed by (dds, dbk,
        dve) and its Tributary status ``trib``: own local value less a share of the others'
        (``rival_leader`` for the leading opponent, ``rival_other`` for the other)."""
        if self.lead < 0:
            self.set_leader(obs)
        p = self.pieces
        b = s * NK
        loc = self.ev.locals(
            s,
            p[b] + p[b + 1] + p[b + 2] + dds,
            p[b + 3] + p[b + 4] + p[b + 5] + dbk,
            p[b + 6] + p[b + 7] + p[b + 8] + dve,
            self.tributary[s] if trib is None else trib,
            p[b + 1] + dgov,
            self.tughlaq,
        )
        rw = self.rw
        return loc[self.faction] - rw[0] * loc[0] - rw[1] * loc[1] - rw[2] * loc[2]

    def delta(
        self,
        obs,
        s: int,
        dds: int = 0,
        dbk: int = 0,
        dve: int = 0,
        trib: bool | None = None,
        dgov: int = 0,
    ) -> float:
        """Change of this faction's worth of Province ``s`` (see ``worth``), memoised while
        ``s`` stays the same."""
        memo = self._local[(self.lead + 1) * self.n + s]
        key = (dds, dbk, dve, trib, dgov)
        v = memo.get(key)
        if v is None:
            base = memo.get(None)
            if base is None:
                base = memo[None] = self.worth(obs, s)
            v = memo[key] = self.worth(obs, s, dds, dbk, dve, trib, dgov) - base
        return v

    def add_value(self, obs, s: int, k: int) -> float:
        """Worth of ``k`` more (negative: fewer) pieces of this faction in ``s``, memoised
        (``_add_value`` computes it; in a Province it must read only that Province, as the
        value is kept while the Province stays the same; elsewhere, for this position)."""
        if self.is_prov[s]:
            memo, key = self._local[(self.lead + 1) * self.n + s], k
        else:
            memo, key = self._spaces, ("add", s, k)
        v = memo.get(key)
        if v is None:
            v = memo[key] = self._add_value(obs, s, k)
        return v

    def _add_value(self, obs, s: int, k: int) -> float:
        """Worth of ``k`` more (negative: fewer) own pieces in ``s``: the change of this
        faction's worth of a Province; nothing elsewhere. Bots add their own terms."""
        if not self.is_prov[s]:
            return 0.0
        dd = [0, 0, 0]
        dd[self.faction] = k
        return self.delta(obs, s, dd[0], dd[1], dd[2])

    def move_plan(
        self, obs, s: int, sources: list[tuple[int, int]], limit: int
    ) -> tuple[float, dict]:
        """Move Units into ``s`` one at a time, each from the source ``(space, available)``
        that misses it least, while the gain beats the loss (March 3.2.2, Migrate 3.3.2).
        Returns the net gain and the Units taken from each source."""
        if limit <= 0:
            return 0.0, {}
        add = self.add_value
        # what the next Unit taken from each source costs (None: the source is spent)
        nexts = [-add(obs, a, -1) - 0.0 if k > 0 else None for a, k in sources]
        gained = add(obs, s, 1)
        best, best_loss = -1, 1e9
        for i, loss in enumerate(nexts):
            if loss is not None and loss < best_loss:
                best, best_loss = i, loss
        if best < 0 or gained - best_loss <= 0.02:
            return 0.0, {}  # the usual outcome: no Unit is worth moving
        taken = [0] * len(sources)
        lost = [0.0] * len(sources)
        moved, total = 0, 0.0
        gain = gained
        while True:
            taken[best] += 1
            lost[best] += best_loss
            moved += 1
            total += gain - best_loss
            a, k = sources[best]
            t = taken[best]
            nexts[best] = -add(obs, a, -(t + 1)) - lost[best] if t < k else None
            if moved >= limit:
                break
            nxt = add(obs, s, moved + 1)
            gain = nxt - gained
            best, best_loss = -1, 1e9
            for i, loss in enumerate(nexts):
                if loss is not None and loss < best_loss:
                    best, best_loss = i, loss
            if best < 0 or gain - best_loss <= 0.02:
                break
            gained = nxt
        return total, {sources[i][0]: n for i, n in enumerate(taken) if n}

    def cached_plan(self, obs, name: str, args, compute):
        """A plan computed once per position (the caches are reset when it changes)."""
        key = (name, args)
        hit = self._spaces.get(key)
        if hit is None:
            hit = self._spaces[key] = compute()
        return hit

    def scores_now(self, obs) -> list[float]:
        """The evaluation's scores of the three factions, once per position and Resources."""
        key = ("scores", *self.resources)
        sc = self._spaces.get(key)
        if sc is None:
            sc = self._spaces[key] = self.ev.scores_obs(obs)
        return sc

    def set_leader(self, obs) -> None:
        """The opponent with the best evaluation is the one to hold back (5.0)."""
        sc = self.scores_now(obs)
        best, who = -1e18, -1
        for g in (DS, BK, VE):
            if g != self.faction and sc[g] > best:
                best, who = sc[g], g
        self.lead = who
        self.rw = [
            0.0 if g == self.faction else self.rival_leader if g == who else self.rival_other
            for g in (DS, BK, VE)
        ]

    def against(self, g: int, obs=None) -> float:
        """1 for the leading opponent, less for the other: how much hurting ``g`` helps."""
        if self.lead < 0 and obs is not None:
            self.set_leader(obs)
        return 1.0 if g == self.lead else 0.4

    # -- the turn (2.3.3) -------------------------------------------------------------------

    def command_value(self, obs, name: str, limited: bool, free: bool = False) -> tuple[float, int]:
        """Net worth of a Command and its best first space (see ``command_values``)."""
        full, lim, first = self.command_values(obs, name, free)
        return (lim if limited else full), first

    def command_values(self, obs, name: str, free: bool = False) -> tuple[float, float, int]:
        """(full, limited, first space): the space values, best first, each less the
        Resource it costs (3.1.3), summed while that stays positive; the best one alone.
        Computed once per position (and Resources, and Migrate's Influence shift plan)."""
        r = self.resources[self.faction]
        key = ("command", name, free, r, bool(self.plan.get("shifted")))
        hit = self._spaces.get(key)
        if hit is None:
            hit = self._spaces[key] = self._command_values(obs, name, free, r)
        full, lim, first, ranked = hit
        if ranked is not None:
            self.ranked[name] = ranked  # for the spaces chosen next (k_space)
        return full, lim, first

    def _command_values(self, obs, name: str, free: bool, r: int):
        values = self.space_values(obs, name)
        if not values:
            return 0.0, 0.0, -1, None
        values.sort(key=itemgetter(0), reverse=True)  # best first; ties keep their order
        ranked = {s: v for v, s in values}
        total = 0.0
        first_net = 0.0
        for i, (v, _s) in enumerate(values):
            if not free and i >= r:
                break
            net = v if free else v - self.cost(r - i)
            if i == 0:
                first_net = net
            elif net <= 0:
                break
            total += net
        return total, first_net, values[0][1], ranked

    def space_values(self, obs, name: str) -> list[tuple[float, int]]:
        """(value, space) for each space the Command could select now."""
        return [(self.cached_space_value(obs, name, s), s) for s in self.spaces_for(obs, name)]

    def spaces_for(self, obs, name: str) -> list[int]:
        """``candidates``, computed once per position."""
        key = ("candidates", name)
        out = self._spaces.get(key)
        if out is None:
            out = self._spaces[key] = self.candidates(obs, name)
        return out

    def cached_space_value(self, obs, name: str, s: int) -> float:
        """``space_value``, kept while ``s`` (and its neighbours, unless ``name`` is in
        ``local_commands``), the Dynasty, the leader and ``space_key`` stay the same: a space
        value reads no further than the neighbours."""
        clock = self._space_clock if name in self.local_commands else self._hood_clock
        key = (name, s, clock[s], self.lead, self.space_key(obs, name, s))
        v = self._values.get(key)
        if v is None:
            v = self._values[key] = self.space_value(obs, name, s)
        return v

    def space_value(self, obs, name: str, s: int) -> float:
        """Worth of selecting ``s`` for Command ``name`` now (3.1.1). Each bot values its own
        Commands; one it does not value is worth nothing (never picked over a gain)."""
        return 0.0

    def space_key(self, obs, name: str, s: int):
        """What else than the board around ``s`` its ``space_value`` for Command ``name``
        reads (Available pieces, the Delhi zone...): part of the cache key."""
        return None

    def k_action(self, obs, d):
        self.battle = None
        self.ranked = {}
        self.plan = {}  # a new turn: nothing of the last one's plan (Migrate's shift) holds
        opts = d.options
        f = self.faction
        best_cmd, cmd_val, lim_cmd, lim_val = NONE, 0.0, NONE, -1e9
        cvals = {}  # (full, limited) by Command, for option_rows
        if self.resources[f] > 0 and (COMMAND in opts or LIMITED in opts or CD in opts):
            for name in self.commands:
                full, lim, _ = self.command_values(obs, name)
                cvals[name] = (full, lim)
                if full > cmd_val:
                    best_cmd, cmd_val = name, full
                if lim > lim_val:
                    lim_cmd, lim_val = name, lim
        best_dec, dec_val = None, -1e9
        dec_values = []
        if CD in opts:
            for name in self.decrees:
                v = self.decree_value(obs, name)
                dec_values.append((name, v))
                if v is not None and v > dec_val:
                    best_dec, dec_val = name, v
        elig = float(self.play["eligibility"])
        r = self.resources[f]
        values = {PASS: self.gain_value(r, self.rules.pass_income[f]) + elig}
        if CD in opts and best_dec is not None:
            values[CD] = dec_val + max(0.0, cmd_val)
        if COMMAND in opts and best_cmd != NONE:
            values[COMMAND] = cmd_val
        if LIMITED in opts and lim_cmd != NONE:
            values[LIMITED] = lim_val + elig
        choice = max((o for o in opts if o in values), key=lambda o: values[o], default=PASS)
        self.plan = {
            "action": choice,
            "command": lim_cmd if choice == LIMITED else best_cmd,
            "decree": best_dec,
        }
        # for the search bots: what each option would do, and what it is worth
        self.last = {
            "values": values,
            "command": best_cmd,
            "limited": lim_cmd,
            "decree": best_dec,
            "decrees": dec_values,
            "command_values": cvals,
            "choice": choice,
        }
        if self.choice is not None:
            return self.fitted_choice(obs, d)
        if EVENT in opts:
            choice = self.owner.consider_event(obs, d, choice, values.get(choice, 0.0))
        return choice

    def options_here(self, obs, d) -> list:
        """Every option of this turn (2.3.3) as (the bot's own value of it, its plan): each
        offered action with each Command that has a space to select (3.1.1), Command +
        Decree with each Decree it may take (4.0), both Event sides (2.3.4), Pass (2.3.6).
        The values are ``k_action``'s (after it ran on this position); a plan that is not
        the bot's own for its action is forced (``force``)."""
        return [(row[0], plan_of(row)) for row in self.option_rows(obs, d)]

    def option_rows(self, obs, d) -> list:
        """``options_here`` as (value, action, Command, Decree, force, Event side) rows, what
        ``fitted_choice`` scores: the plan is made for the chosen option only."""
        last = self.last
        values = last["values"]
        cmd, lim, dec = last["command"], last["limited"], last["decree"]
        elig = float(self.play["eligibility"])
        usable = []  # as k_action: no Command without Resources to pay for a space (3.2-3.4)
        if self.resources[self.faction] > 0:
            usable = [c for c in self.commands if self.spaces_for(obs, c)]
        decs = last["decrees"]
        cvals = last["command_values"]  # as k_action found them on this position
        out = []
        for a in d.options:
            if a == PASS:
                out.append((values[PASS], a, None, None, False, None))
            elif a == EVENT:
                entry = self.owner.event_entry(obs, d, last["choice"])
                if entry is None:
                    continue  # a bot that never weighs the Event (2.3.4)
                side, gain = entry
                here = values.get(last["choice"], 0.0)
                for s in SIDES:
                    out.append((here + (gain if s == side else -1.0), a, None, None, False, s))
            elif a == LIMITED:
                for c in ([lim] if lim != NONE else []) + [c for c in usable if c != lim]:
                    v = cvals[c][1] + elig
                    out.append((v, a, c, None, c != lim, None))
            elif a == COMMAND:
                for c in ([cmd] if cmd != NONE else []) + [c for c in usable if c != cmd]:
                    v = cvals[c][0]
                    out.append((v, a, c, None, c != cmd, None))
            elif a == CD:
                for c in [cmd] + [c for c in usable if c != cmd]:
                    full = cvals[c][0] if c != NONE else 0.0
                    for x, dv in decs:
                        if dv is None or (c == NONE and x != dec):
                            continue  # a Decree it may not take; no Command: only its own
                        own = c == cmd and x == dec
                        out.append((dv + max(0.0, full), a, c, x, not own, None))
        return [o for o in out if o[0] > UNDOABLE]  # a space valued -1e9 is never chosen

    def fitted_choice(self, obs, d):
        """``play.choice``: the option of ``options_here`` with the best fitted score, scale x
        the bot's own value plus the biases of its action, Command and Decree, learned from
        search values of the same options (``choice_fit.py``)."""
        ch = self.choice
        scale, ab, cb, db = ch["scale"], ch["action"], ch["command"], ch["decree"]
        terms = self.terms
        ctx = ()
        if terms:
            f = self.faction
            margin = self.ev.margin_of(self.scores_now(obs), f)  # once per position
            ctx = choice_context(self.progress, self.resources[f], margin)  # _moved: current
        best_v, best = -1e18, None
        for row in self.option_rows(obs, d):
            x, a, c, dec = row[0], row[1], row[2], row[3]
            v = scale * x + ab[a]
            v += cb.get(c, 0.0) + db.get(dec, 0.0)
            if terms:
                v += self.terms_value(terms.coefficients(a, c, dec), x, ctx)
            if v > best_v:
                best_v, best = v, row
        if best is None:  # nothing it would do: its own choice
            return self.last["choice"]
        self.plan = plan_of(best)
        return best[1]

    def terms_value(self, coef: tuple, x: float, ctx: tuple) -> float:
        """``terms_score`` of an option valued ``x`` from its ``ChoiceTerms.coefficients``:
        the same sums in the same order, without building or looking up its features."""
        total = 0.0
        for k, pairs in coef:
            acc = 0.0
            for w, on_v in pairs:
                acc += w * x if on_v else w
            total += acc if k < 0 else acc * ctx[k]
        return total

    def terms_score(self, feats: list, ctx: tuple) -> float:
        """``play.choice.terms`` of one option: each table's weights on its features, times
        its context feature (1 for the option's own terms)."""
        total = 0.0
        for k, table in self.terms:
            acc = 0.0
            for name, x in feats:
                w = table.get(name)
                if w is not None:
                    acc += w * x
            total += acc if k < 0 else acc * ctx[k]
        return total

    def k_decree_timing(self, obs, d):
        dec = self.plan.get("decree")
        return "decree_first" if dec in self.timing_first else "command_first"

    def k_command(self, obs, d):
        opts = d.options
        planned = self.plan.get("command")
        limited = self.plan.get("action") == LIMITED
        if planned in opts and planned != NONE:
            if self.plan.get("force"):
                return planned
            v, _ = self.command_value(obs, planned, limited)
            if v > 0 or NONE not in opts:
                return planned
        best, best_v = None, -1e9
        for o in opts:
            if o == NONE:
                continue
            v, _ = self.command_value(obs, o, limited)
            if v > best_v:
                best, best_v = o, v
        if NONE in opts and (best is None or best_v <= 0):
            return NONE
        return best

    def k_decree(self, obs, d):
        planned = self.plan.get("decree")
        if self.plan.get("force") and planned in d.options:
            return planned
        best, best_v = d.options[0], -1e9
        for o in d.options:
            v = self.decree_value(obs, o)
            if v is not None and v > best_v:
                best, best_v = o, v
        return best

    def k_space(self, obs, d):
        """The best offered space. Values are refreshed for the few spaces that ranked best
        when the Command was planned (and any space new since), not for all of them: each
        selection changes the board only around the space just resolved (3.1.1)."""
        name = d.context
        r = self.resources[self.faction]
        ranked = self.ranked.get(name)
        opts = [s for s in d.options if s != DONE]
        if ranked is not None and len(opts) > SPACE_REFRESH:
            old = [s for s in opts if s in ranked]
            old.sort(key=lambda s: -ranked[s])
            opts = old[:SPACE_REFRESH] + [s for s in opts if s not in ranked]
        best, best_v = None, -1e9
        for s in opts:
            v = self.cached_space_value(obs, name, s)
            if v > best_v:
                best, best_v = s, v
        if DONE in d.options and (best is None or best_v - self.cost(r) <= 0):
            return DONE
        return best

    # -- battles (1.10, 3.2.4, 3.3.4, 3.4.4) -------------------------------------------------

    def _guess_battle(self, obs) -> tuple[int, int, int]:
        """As defender the bot is not told where the battle is: the space where it meets the
        most opposing Units (1.10 needs the Units involved to tell a hit from a miss)."""
        p = self.pieces
        f = self.faction
        u1, u2 = UNITS_OF[f]
        best = (0, 0, 0)
        best_key = -1
        for s in range(self.n):
            b = s * NK
            mine = p[b + u1] + p[b + u2]
            if not mine:
                continue
            theirs = 0
            pieces = 0
            for g in (DS, BK, VE, MI):
                if g == f:
                    continue
                a, c = UNITS_OF[g] if g != MI else (MONGOL, MONGOL)
                n = p[b + a] + (p[b + c] if c != a else 0)
                theirs = max(theirs, n)
                pieces = max(pieces, n + (p[b + PIECES_OF[g][2]] if g != MI else 0))
            if theirs > best_key:
                best_key = theirs
                best = (mine, theirs, pieces)
        return best

    def with_support(self, choice):
        """Count the Units lent by an ``attack_support`` choice into the battle's odds."""
        if choice != "none" and self.battle is not None:
            u, units, pieces = self.battle
            self.battle = (u + choice[1] + choice[2], units, pieces)
        return choice

    def k_attack_target(self, obs, d):
        """The defender whose attack is worth most (``attack_value`` of the Faction's bot),
        remembering the battle's odds for the Cavalry decisions that follow (3.2.4, 3.3.4)."""
        s = d.context
        best, best_v, info = d.options[0], -1e9, None
        for g in d.options:
            v, i = self.attack_value(obs, s, g)
            if v > best_v:
                best, best_v, info = g, v, i
        if info is not None:
            self.battle = info
        return best

    def k_cavalry(self, obs, d):
        ctx = d.context
        own, opp = ctx[0], ctx[1]
        if len(ctx) >= 4:
            my_u, opp_u = ctx[2], ctx[3]
            opp_pieces = ctx[4] if len(ctx) >= 5 else opp_u
        elif self.battle is not None:
            my_u, opp_u, opp_pieces = self.battle
        else:
            my_u, opp_u, opp_pieces = self._guess_battle(obs)
        miss = self.rules.combat["always_miss"]
        cap = self.rules.combat["max_hits"]
        my_hits = sum(1 for v in own if v <= my_u and v < miss)
        opp_hits = sum(1 for v in opp if v <= opp_u and v < miss)
        token = self.cav_value() * (1.5 - self.aggr)
        kill = 0.45 if self.battle is not None else 0.3
        save = 0.4
        best, best_v = DONE, token
        for o in d.options:
            if o == DONE:
                continue
            use, v = o
            if use == "charge":
                if v <= my_u and v < miss:
                    continue  # already a hit
                useful = v - 1 <= my_u and v - 1 < miss
                if useful and my_hits < min(cap, max(1, opp_pieces)) and kill > best_v:
                    best, best_v = o, kill
            elif v <= opp_u and v < miss and opp_hits <= cap and save > best_v:
                best, best_v = o, save
        return best

    def k_casualty(self, obs, d):
        opts = d.options
        p = self.pieces
        if isinstance(opts[0], tuple):  # attacker: (space, counter)
            self.battle = None
            f = self.faction
            best, best_v = opts[0], -1e9
            for o in opts:
                s, c = o
                dd = [0, 0, 0]
                dd[f] = -1
                v = self.delta(obs, s, dd[0], dd[1], dd[2]) if self.is_prov[s] else -0.05
                if c == GOVERNOR:
                    v -= 0.3
                if v > best_v:
                    best, best_v = o, v
            return best
        # defender: own counters in one space
        return self.defender_casualty(obs, d.context, opts, p)

    def defender_casualty(self, obs, s, opts, p):
        order = self.casualty_order(obs, s)
        for c in order:
            if c in opts:
                return c
        return opts[0]

    def casualty_order(self, obs, s) -> tuple[int, ...]:
        return ()

    def k_cavalry_from(self, obs, d):
        sc = self.scores_now(obs)
        holders = [g for g in d.options if isinstance(g, int) and 0 <= g < 3 and g != self.faction]
        if not holders:
            return "none" if "none" in d.options else d.options[0]
        return max(holders, key=lambda g: (sc[g], self.cavalry[g], -g))

    # -- Succession (2.5) ---------------------------------------------------------------------

    def k_lords_shift(self, obs, d):
        f = self.faction
        r = self.resources[f]
        cost = self.rules.succession["lords_cost"]
        if r - cost < self.reserve:
            return DONE
        sc = self.scores_now(obs)
        best, best_v = DONE, self.gain_value(r - cost, cost) * 1.2
        for o in d.options:
            if o == DONE:
                continue
            g, step = o
            if g == f:
                v = 1.15 * step
            else:
                # lowering a rival helps as much as it is the leader
                lead = max(sc[h] for h in (DS, BK, VE) if h != f)
                v = -step * (0.9 if sc[g] >= lead - 0.5 else 0.35)
            if v > best_v:
                best, best_v = o, v
        return best

    # -- Events (2.3.4) -----------------------------------------------------------------------

    def piece_worth(self, c: int) -> float:
        """Rough worth of one piece of counter ``c`` to this faction (negative: an enemy's)."""
        owner = COUNTER_OWNER[c]
        v = 2.0 if c in STRUCTURES and owner in (BK, VE) else 1.0
        if owner == MI:
            return -0.3 if self.faction == DS else 0.2
        return v if owner == self.faction else -v

    def k_event_pieces(self, obs, d):
        """Which pieces an Event takes from a space: the fewest of ours and the most of
        theirs when removing; as many as allowed when moving (the Event's intent)."""
        ctx = d.context
        moving = isinstance(ctx, tuple) and len(ctx) > 1 and isinstance(ctx[1], int)
        best, best_v = d.options[0], -1e9
        for o in d.options:
            if moving:
                v = sum(n for _c, n in o)
            else:
                v = -sum(n * self.piece_worth(c) for c, n in o)
            if v > best_v:
                best, best_v = o, v
        return best

    def k_event_count(self, obs, d):
        return d.options[0]

    def k_event_space(self, obs, d):
        """A space for an Event op: ours to gain where pieces go, the richest Province for
        the Sultanate's Tributary markers, the opponents' strongholds where pieces leave."""
        label = d.context
        p = self.pieces
        f = self.faction
        spaces = [s for s in d.options if s != DONE]
        if not spaces:
            return d.options[0]

        def score(s: int) -> float:
            pr = self.P[s]
            if label == "set_tributary":
                return pr if f == DS else -pr + (3 if self.control[s] not in (f, -1) else 0)
            if label == "set_independent":
                if f == DS:
                    return -pr
                c = counts(p, s)
                return pr + (3 if 2 * c[f] > sum(c) else 0)
            if label in ("remove", "replace", "move_from", "flip"):
                c = counts(p, s)
                return sum(c) - 2 * c[f] if f != DS else c[1] + c[2] - c[0] + p[s * NK + MONGOL]
            if self.is_prov[s]:
                return self.add_value(obs, s, 1)
            return 0.0

        return -max([(score(s), -s) for s in spaces])[1]  # no lambda: no cycle through score

    def k_event_side(self, obs, d):
        side = self.plan.pop("side", None)
        if side in d.options:
            return side
        return self.owner.pick_event_side(obs, d)
