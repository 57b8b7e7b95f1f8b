"""The heuristic faction bot's answers outside its turn plan: battles (1.10, 3.2.4, 3.3.4,
3.4.4: the defender, Cavalry, casualties), Succession (2.5) and the choices inside an Event
(2.3.4: its side, spaces and pieces). ``FactionBot`` is the base each Faction's bot extends
(``sultanate.SultanateBot``, ``deccan.DeccanBot``); the position's values are
``valuation.py``'s, the turn ``turn.py``'s.
"""

from __future__ import annotations

from simulate.vijayanagara.rules.decisions import DONE
from simulate.vijayanagara.rules.pieces import (
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
from simulate.vijayanagara.rules.summation import ordered_sum

from .counters import counts
from .turn import TurnPlanner


def hit_chance(units: int) -> float:
    """Chance one die hits with ``units`` Units involved: rolls <= units, a 6 misses (3.2.4)."""
    return (units if units < 5 else 5) / 6.0


class FactionBot(TurnPlanner):
    """Base of the DS, BK and VE heuristic bots (see ``valuation.py`` for what a bot class
    gives and how it is compiled)."""

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
        my_hits = sum([1 for v in own if v <= my_u and v < miss])
        opp_hits = sum([1 for v in opp if v <= opp_u and v < miss])
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
                lead = max([sc[h] for h in (DS, BK, VE) if h != f])
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
                v = sum([n for _c, n in o])
            else:
                v = -ordered_sum([n * self.piece_worth(c) for c, n in o])
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
