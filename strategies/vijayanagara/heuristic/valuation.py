"""What a heuristic faction bot reads before it decides: the decision's position, the values
of Resources, pieces and spaces drawn from it, and the caches that keep those values.

``Valuation`` is the base of every faction bot (``turn.TurnPlanner``, then
``faction_bot.FactionBot``, then the bot of each Faction): it dispatches each decision to the
bot's ``k_<kind>`` handler. A bot values, for each of its Commands, each selectable space
(``space_value``); values are in victory-point equivalents and come from the local Province
values of ``evaluation.Evaluator`` plus the weights in ``weights.toml``. Decisions a bot has
no handler for (new Event kinds, say) fall back to a random offered option from the bot's
generator.

Speed: values are cached by the content they read, so they are never stale and a position
seen again finds them (a search's copies keep returning to the position they started from).
At each decision the bot compares the position with the last one it saw and names the
content of each space that changed (``content_id``); a Province's worth changes and
add-values (``_local``) are kept by the content of that Province, a space value by the
content of the space (or, for Commands that move Units in, of its neighbourhood) and what
``space_key`` names (Available pieces, the Delhi zone). The opponent to hold back is judged
once per card. ``HeuristicStrategy.keep_caches = False`` recomputes
everything at every decision; a test plays the same games both ways and compares them.

Compiled (``setup.py``), ``valuation.pxd`` makes ``Valuation`` an extension type with C
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

from simulate.vijayanagara.rules.observation import position
from simulate.vijayanagara.rules.pieces import BK, DS, NK, VE
from simulate.vijayanagara.rules.state import TUGHLAQ

from .counters import counts, sync_spaces

BATTLE_KINDS = frozenset({"attack_target", "attack_support", "cavalry", "casualty"})
VALUES_MAX = 50_000  # space values kept at most (then dropped: they are recomputed)
STASH_MAX = 1_000  # Province memos kept for contents not in play, at most
PACKED = 1 << 62  # content ids of spaces packed from their counters start here (content_id)
DELTA_KEYS = 1 << 40  # worth changes packed into one int start here (delta)


@cache
def handlers(cls: type) -> dict:
    """A bot class's decision handlers by decision kind: its ``k_<kind>`` methods."""
    return {name[2:]: getattr(cls, name) for name in dir(cls) if name[:2] == "k_"}


class Valuation:
    """Base of the DS, BK and VE heuristic bots: the position, its values and their caches. A
    bot class gives its faction's data in ``DATA``; each bot copies it at start (C fields
    when compiled, not class lookups)."""

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
        # Caches, by lifetime, each keyed by the content it reads (so a position seen again,
        # as a search's copies return to the position they started from, finds its values).
        # ``_local[(lead + 1) * n + s]``: worth changes and add-values of Province ``s`` with
        # that opponent leading, for the content of ``s`` (its pieces and Tributary marker)
        # under this Dynasty (``_stash`` keeps those of contents seen before). ``_values``:
        # space values keyed by the content of the space (Commands in ``local_commands``) or
        # of its neighbourhood (``_hood``), the leader and what else they read
        # (``space_key``). ``_spaces``: anything else, for one position only.
        n = self.n
        self._local: list[dict] = [{} for _ in range(4 * n)]
        self._values: dict = {}
        self._spaces: dict = {}
        # each space's neighbourhood (the space and its neighbours); adjacency is symmetric
        # (1.3.5, board.py), so these are also the neighbourhoods each space is part of
        self._hoods = tuple([(a, *board.adjacent[a]) for a in range(n)])
        # content ids: of each space (``_sig``, -1: not yet seen) and of each neighbourhood
        # (``_hood``, None: to be found again), interned in ``_ids``
        self._ids: dict = {}
        self._stash: list[dict] = [{} for _ in range(n)]  # by space: content -> 4 memos
        self._stashed = 0
        self._sig = [-1] * n
        self._hood: list = [None] * n
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
        # bot's methods as ``self.pieces``... (read once here, in one call, not once per use)
        (
            self.pieces,
            self.tributary,
            self.available,
            self.control,
            self.resources,
            self.cavalry,
            self.influence,
            dynasty,
            left,
        ) = position(obs)
        # a new position (pieces, markers, tracks, Dynasty, card) makes some values stale
        if (
            self.pieces != self._pl
            or self.tributary != self._tl
            or self.available != self._al
            or self.cavalry != self._cl
            or self.influence != self._il
            or dynasty != self._dyn
            or left != self._left
        ):
            self._moved(obs, dynasty, left)
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

    def _moved(self, obs, dynasty: int, left: int) -> None:
        """The position changed since the last decision (now under ``dynasty`` with ``left``
        cards to draw): forget what it made stale."""
        p, trib = self.pieces, self.tributary
        old_p, old_t = self._pl, self._tl
        new_card = left != self._left
        self._al, self._cl, self._il = self.available[:], self.cavalry[:], self.influence[:]
        self._dyn, self._left = dynasty, left
        self.progress = self.ev.progress_at(left)
        tughlaq = dynasty == TUGHLAQ
        self._spaces = {}
        if len(self._values) > VALUES_MAX:
            self._values = {}
        if old_p is None or tughlaq != self.tughlaq or len(self._ids) > VALUES_MAX:
            self._pl, self._tl = p[:], trib[:]
            self.tughlaq = tughlaq
            self._forget()
        else:
            changed = sync_spaces(p, old_p)  # (and ``_pl`` made equal to ``p``)
            if trib != old_t:
                for s in range(len(trib)):
                    if trib[s] != old_t[s]:
                        changed.append(s)
                        old_t[s] = trib[s]
            if changed:
                self._changed(changed)
        if new_card:
            self.set_leader(obs)  # a new card: who leads now, for the whole card

    def _changed(self, spaces) -> None:
        """Key the caches of changed spaces by their new content: each one's ``_local`` memos
        (those of that content seen before, or new ones); the neighbourhoods holding it are
        keyed again when next read (``hood_id``)."""
        n = self.n
        p, trib = self.pieces, self.tributary
        sig, stash, local = self._sig, self._stash, self._local
        hood, hoods = self._hood, self._hoods
        for s in spaces:
            i = self.content_id(p, trib, s)
            if i == sig[s]:
                continue
            sig[s] = i
            memos = stash[s].get(i)
            if memos is None:
                memos = stash[s][i] = ({}, {}, {}, {})
                self._stashed += 1
            local[s] = memos[0]
            local[n + s] = memos[1]
            local[2 * n + s] = memos[2]
            local[3 * n + s] = memos[3]
            for a in hoods[s]:
                hood[a] = None
        if self._stashed > STASH_MAX:  # keep the memos of the contents in play only
            self._stash = [
                {sig[s]: (local[s], local[n + s], local[2 * n + s], local[3 * n + s])}
                for s in range(n)
            ]
            self._stashed = n

    def content_id(self, p: bytearray, trib: list, s: int) -> int:
        """A number naming the content of space ``s`` (its counters and Tributary marker):
        the counters packed 6 bits each when they fit (every real count), else an interned
        id (below ``PACKED``, so the two never meet)."""
        key = trib[s]
        if key == 0 or key == 1:
            b = s * NK
            for k in range(b, b + NK):
                c = p[k]
                if c < 0 or c >= 64:
                    break
                key = key * 64 + c
            else:
                return key + PACKED
        return self._ids.setdefault((trib[s], *p[s * NK : s * NK + NK]), len(self._ids))

    def hood_id(self, s: int) -> int:
        """The content id of the neighbourhood of ``s`` (the space and its neighbours)."""
        h = self._hood[s]
        if h is None:
            sig = self._sig
            ids = []
            for t in self._hoods[s]:
                ids.append(sig[t])
            h = self._hood[s] = self._ids.setdefault(tuple(ids), len(self._ids))
        return h

    def _forget(self) -> None:
        """Drop every cached value (a new Dynasty changes every Province's worth)."""
        n = self.n
        self._local = [{} for _ in range(4 * n)]
        self._values = {}
        self._ids = {}
        self._stash = [{} for _ in range(n)]
        self._stashed = 0
        self._sig = [-1] * n
        self._changed(range(n))

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
        ds, bk, ve = counts(p, s)
        gov = p[b + 1]
        loc = self.ev.locals(
            s,
            ds + dds,
            bk + dbk,
            ve + dve,
            self.tributary[s] if trib is None else trib,
            gov + dgov,
            self.tughlaq,
        )
        rw = self.rw
        # by name, in the same order (C doubles in the compiled copy: the same sums)
        own, l0, l1, l2 = loc[self.faction], loc[0], loc[1], loc[2]
        w0, w1, w2 = rw[0], rw[1], rw[2]
        return own - w0 * l0 - w1 * l1 - w2 * l2

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
        if -64 <= dds < 64 and -64 <= dbk < 64 and -64 <= dve < 64 and -64 <= dgov < 64:
            # the change packed into one int above DELTA_KEYS (add_value's keys in this memo
            # are piece counts, far below): no tuple to build, hash and free
            t = 0 if trib is None else 2 if trib else 1
            key = (
                DELTA_KEYS
                + ((((dds + 64) * 128 + dbk + 64) * 128 + dve + 64) * 128 + dgov + 64) * 4
                + t
            )
        else:
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

    # -- the values of spaces (3.1.1) ----------------------------------------------------

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
        """``space_value``, kept by the content of ``s`` (and of its neighbours, unless
        ``name`` is in ``local_commands``), the leader and ``space_key`` under this Dynasty: a
        space value reads no further than the neighbours."""
        content = self._sig[s] if name in self.local_commands else self.hood_id(s)
        key = (name, s, content, self.lead, self.space_key(obs, name, s))
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
