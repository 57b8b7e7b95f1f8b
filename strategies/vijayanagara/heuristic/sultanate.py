"""The Delhi Sultanate heuristic bot.

Priority scheme (each Command, Decree and space is valued in VP equivalents; the best wins):

1. Keep the Tributaries (5.1): where a Deccan faction's pieces are (nearly) the majority, add
   Sultanate pieces (Conscript, March, Campaign) or Govern: place a Governor, then remove up
   to two Obedient Units (3.2.3), the cheapest way to break a big Amir or Raja stack.
2. Answer Rebels: Attack Rebelling Units where the dice favour us (3.2.4), March in to take
   Control, place a Governor, and Demand Obedience (4.2.3) wherever it is possible.
3. Collect Tribute when Resources run short (4.2.1); Pass when nothing is worth a Resource.
4. Prepare for Timur (2.6, 5.1): as the deck runs down, Conscript in Delhi (five Troops a
   Resource) and March or Campaign Units into Delhi, Punjab and the Mountain Passes until
   they are twice the Invaders expected; Attack Mongols in Punjab and Delhi when that wins
   the exchange (each Invader left there costs Troops at every Plunder, 3.5.3).
Cavalry is spent only where it turns a miss into a hit or screens a hit (1.10). Events
(2.3.4) are taken when the Event table says the better side beats the planned Command.
"""

from __future__ import annotations

from simulate.vijayanagara.rules.commands import govern
from simulate.vijayanagara.rules.decisions import DONE
from simulate.vijayanagara.rules.pieces import (
    AMIR_OB,
    AMIR_REB,
    BK,
    DS,
    FORT,
    GOVERNOR,
    MI,
    MONGOL,
    NK,
    PT_GOVERNOR,
    PT_MONGOL,
    PT_QASBAH,
    PT_TROOP,
    QASBAH,
    RAJA_OB,
    RAJA_REB,
    TEMPLE,
    TROOP,
    VE,
)
from simulate.vijayanagara.rules.summation import ordered_sum

from .evaluation import delhi_projection
from .faction_bot import FactionBot, hit_chance

STOP = "stop"


class SultanateBot(FactionBot):
    """Delhi Sultanate: keep Tributaries, answer Rebels, fortify Delhi before Timur."""

    DATA = {
        "faction": DS,
        "commands": ("conscript", "march", "govern", "attack"),
        "local_commands": frozenset({"conscript", "govern"}),
        "decrees": ("collect_tribute", "campaign", "demand_obedience"),
        "timing_first": frozenset({"collect_tribute", "campaign"}),
    }

    def __init__(self, *args) -> None:
        super().__init__(*args)
        w = self.play["DS"]
        self.w_delhi = float(w["delhi_unit"])
        self.late = float(w["delhi_zone_late"])
        self.tribute_below = int(w["tribute_below"])
        self.kill_rebel = float(w["kill_rebel"])
        self.kill_mongol = float(w["kill_mongol"])
        self.attack_margin = float(w["attack_margin"])
        self.w_bonus = float(self.W["eval"]["DS"]["delhi_bonus"])
        self.conscript = self.rules.factions["DS"]["conscript"]
        self.conscript_cap = max(self.conscript.values())
        self.dist = dist = self.rules.board.distance
        # the destinations a Campaign can reach from each origin (4.2.2), in id order
        reach = self.rules.decrees["campaign_range"]
        self.within = tuple(
            [
                tuple([d for d in range(self.n) if d != o and dist[o][d] <= reach])
                for o in range(self.n)
            ]
        )
        self.zone_hood = frozenset(self.zone).union(*(self.adj[z] for z in self.zone))

    # -- the Delhi zone (2.6, 5.1) --------------------------------------------------------

    def zone_mt(self, obs) -> tuple[float, float]:
        """Invaders expected and Sultanate Units in the Delhi zone (2.6), for this position."""
        mt = self._spaces.get("zone_mt")
        if mt is None:
            mt = self._spaces["zone_mt"] = self._zone_mt(obs)
        return mt

    def _zone_mt(self, obs) -> tuple[float, float]:
        p = self.pieces
        m = 0.0
        t = 0.5 * self.cavalry[DS]
        for z in self.zone:
            b = z * NK
            m += p[b + MONGOL]
            t += p[b + TROOP] + p[b + GOVERNOR]
        if obs.timurid_drawn == 0:
            m += self.available[PT_MONGOL] // 2
        return m + 1.5, t  # a margin for Invaders still to come (2.4)

    def urgency(self) -> float:
        """How much the Delhi zone matters now: a quarter early, in full from ``late`` on."""
        u = 0.25 + 0.75 * min(1.0, self.progress / self.late)
        return u * (1.3 if self.progress >= self.late else 1.0)

    def zone_gain(self, obs, k: int) -> float:
        """Worth of ``k`` more (or fewer) Sultanate Units in Delhi, Punjab and the Mountain
        Passes: ``delhi_unit`` each while short of twice the Invaders expected (plus two),
        the slope of the 5.1 bonus in Timur's assault (2.6), and a reservoir for Campaigns."""
        key = ("zone_gain", k)
        v = self._spaces.get(key)
        if v is None:
            m, t = self.zone_mt(obs)
            need = 2 * m + 2
            v = self.w_delhi * self.urgency() * (min(t + k, need) - min(t, need))
            v = self._spaces[key] = v + 0.05 * (1.0 - self.progress) * k
        return v

    def _add_value(self, obs, s: int, k: int) -> float:
        """Worth of ``k`` more Sultanate pieces in ``s`` (negative ``k``: fewer)."""
        if not self.is_prov[s]:
            return self.zone_gain(obs, k) if s in self.zone else 0.0
        return FactionBot._add_value(self, obs, s, k) + 0.03 * k

    # -- Command spaces (3.2) ---------------------------------------------------------------

    def candidates(self, obs, name: str) -> list[int]:
        p = self.pieces
        trib = self.tributary
        n = self.n
        if name == "conscript":
            if not self.available[PT_TROOP]:
                return []
            return [s for s in range(n) if s == self.delhi or trib[s] or p[s * NK + QASBAH]]
        if name == "govern":
            spare = self.available[PT_GOVERNOR] > 0
            out = []
            for s in range(n):
                if self.is_prov[s] and not (trib[s] or self.control[s] == DS):
                    continue
                if spare or p[s * NK + GOVERNOR]:
                    out.append(s)
            return out
        if name == "attack":
            out = []
            for s in range(n):
                b = s * NK
                if (p[b + TROOP] + p[b + GOVERNOR] or self._support(obs, s)) and self._targets(
                    obs, s
                ):
                    out.append(s)
            return out
        if name == "march":
            have = [s for s in range(n) if p[s * NK + TROOP] or p[s * NK + GOVERNOR]]
            seen = set()
            for s in have:
                seen.update(self.adj[s])
            return sorted(seen)
        return []

    def space_key(self, obs, name: str, s: int):
        # a value that adds or removes Units in the Delhi zone reads the zone and the urgency
        # (zone_gain): in the zone, or next to it for March; so does an Attack on Mongols
        zone = None
        if (
            s in self.zone
            or (name == "march" and s in self.zone_hood)
            or (name == "attack" and self.pieces[s * NK + MONGOL])
        ):
            zone = (self.progress, self.zone_mt(obs))
        # of the Available pieces, only what changes the outcome: as many Troops as a
        # Conscript can place, whether a Governor or a Qasbah is left (govern.options)
        if name == "conscript":
            return min(self.available[PT_TROOP], self.conscript_cap), zone
        if name == "govern":
            return self.available[PT_GOVERNOR] > 0, self.available[PT_QASBAH] > 0, zone
        return zone

    def space_value(self, obs, name: str, s: int) -> float:
        if name == "conscript":
            return self.conscript_value(obs, s)
        if name == "govern":
            return self.govern_best(obs, s)[0]
        if name == "attack":
            return self.attack_best(obs, s)[0]
        if name == "march":
            return self.march_plan(obs, s)[0]
        return 0.0

    def conscript_value(self, obs, s: int) -> float:
        p = self.pieces
        if s == self.delhi:
            n = self.conscript["delhi"]
        elif p[s * NK + QASBAH]:
            n = self.conscript["qasbah"]
        else:
            n = self.conscript["tributary"]
        n = min(n, self.available[PT_TROOP])
        return self.add_value(obs, s, n) if n > 0 else 0.0

    def govern_options(self, obs, s: int) -> list:
        return govern.options(self.rules, self.pieces, self.available, s)

    def govern_value(self, obs, s: int, o) -> float:
        p = self.pieces
        b = s * NK
        if o == "governor":
            if not self.is_prov[s]:
                return self.zone_gain(obs, 1) if s in self.zone else 0.0
            v = self.delta(obs, s, dds=1, dbk=0, dve=0, trib=None, dgov=1) + 0.03
            if self.tributary[s]:
                ob = p[b + AMIR_OB] + p[b + RAJA_OB]
                if ob and not p[b + GOVERNOR]:
                    # a Governor lets the next Govern remove Obedient Units (3.2.3)
                    v += 0.1 * min(ob, 2) * self.P[s] + 0.05
            return v
        a, r, q = o
        v = self.delta(obs, s, dds=q, dbk=-a, dve=-r) + 0.04 * (a + r)
        if q:
            v += 0.12  # more Troops from Conscript, support for Attacks (3.2.1, 3.2.4)
        return v

    def govern_best(self, obs, s: int):
        best, best_v = None, -1e9
        for o in self.govern_options(obs, s):
            v = self.govern_value(obs, s, o)
            if v > best_v:
                best, best_v = o, v
        return best_v, best

    def _targets(self, obs, s: int) -> list[int]:
        p = self.pieces
        b = s * NK
        out = []
        if self.is_prov[s]:
            if p[b + AMIR_REB] or (p[b + FORT] and not (p[b + AMIR_OB] + p[b + AMIR_REB])):
                out.append(BK)
            if p[b + RAJA_REB] or (p[b + TEMPLE] and not (p[b + RAJA_OB] + p[b + RAJA_REB])):
                out.append(VE)
        if p[b + MONGOL]:
            out.append(MI)
        return out

    def _support(self, obs, s: int) -> int:
        p = self.pieces
        best = 0
        for a in self.adj[s]:
            b = a * NK
            if p[b + QASBAH]:
                t, gov = p[b + TROOP], p[b + GOVERNOR]
                best = max(best, min(2, t + gov))
        return best

    def attack_value(self, obs, s: int, g: int) -> tuple[float, tuple[int, int, int]]:
        p = self.pieces
        b = s * NK
        here = p[b + TROOP] + p[b + GOVERNOR]
        u = here + self._support(obs, s)
        if u == 0:
            return -1.0, (0, 0, 0)
        combat = self.rules.combat
        dice = combat["attack_dice"]
        if g == MI:
            units = p[b + MONGOL]
            pieces = units
        elif g == BK:
            units = p[b + AMIR_OB] + p[b + AMIR_REB]
            pieces = units + p[b + FORT]
            if p[b + FORT]:
                dice -= combat["fort_penalty"]
        else:
            units = p[b + RAJA_OB] + p[b + RAJA_REB]
            pieces = units + p[b + TEMPLE]
        hits = min(max(dice, 0) * hit_chance(u), pieces, combat["max_hits"])
        loss = min(combat["defend_dice"] * hit_chance(units), u)
        kh, kl = int(hits + 0.5), int(loss + 0.5)
        if g == MI:
            m, t = self.zone_mt(obs)
            urgency = 0.4 + 0.6 * self.progress
            v = (
                self.w_bonus
                * urgency
                * (delhi_projection(m - hits, t - loss) - delhi_projection(m, t))
            )
            v += self.kill_mongol * hits - 0.08 * loss
        else:
            dd = [-min(kl, here), 0, 0]
            dd[g] = -kh
            v = self.delta(obs, s, dd[0], dd[1], dd[2]) + self.kill_rebel * hits - 0.08 * loss
        v = v * (0.5 + self.aggr) - (0.5 - self.aggr) * 0.3 - self.attack_margin
        return v, (u, units, pieces)

    def attack_best(self, obs, s: int):
        best, best_v, info = None, -1e9, (0, 0, 0)
        for g in self._targets(obs, s):
            v, i = self.attack_value(obs, s, g)
            if v > best_v:
                best, best_v, info = g, v, i
        return best_v, best, info

    def march_plan(self, obs, s: int) -> tuple[float, dict]:
        """Best Troops (and a Governor) to move into ``s`` from adjacent spaces (3.2.2):
        unit by unit, from the source that misses it least, while the move gains."""
        p = self.pieces
        if self.add_value(obs, s, 1) <= 0.02 and not (
            self.is_prov[s] and not p[s * NK + GOVERNOR] and not self.tributary[s]
        ):
            return 0.0, {}
        sources = []  # (space, Troops, Governors)
        for a in self.adj[s]:
            t, g = p[a * NK + TROOP], p[a * NK + GOVERNOR]
            if t or g:
                sources.append((a, t, g))
        if not sources:
            return 0.0, {}
        total, taken = self.move_plan(obs, s, [(a, t) for a, t, _g in sources], 10)
        plan = {a: (n, 0) for a, n in taken.items()}
        moved = sum(taken.values())
        # a Governor where it enables Govern removals or Demand Obedience (3.2.3, 4.2.3)
        if self.is_prov[s] and not p[s * NK + GOVERNOR]:
            b = s * NK
            want = 0.0
            if self.tributary[s] and p[b + AMIR_OB] + p[b + RAJA_OB]:
                want = 0.1 * self.P[s] * min(2, p[b + AMIR_OB] + p[b + RAJA_OB])
            elif not self.tributary[s]:
                want = 0.3 * self.P[s]
            if want > 0:
                for a, _t, g in sources:
                    if g and (g > 1 or not self.is_prov[a] or not self.tributary[a]):
                        plan[a] = (plan.get(a, (0, 0))[0], 1)
                        total += (
                            want
                            + self.delta(obs, s, dds=moved + 1, dbk=0, dve=0, trib=None, dgov=1)
                            - self.delta(obs, s, dds=moved)
                        )
                        break
        return total, plan

    # -- Decrees (4.2) ----------------------------------------------------------------------

    def decree_value(self, obs, name: str) -> float | None:
        r = self.resources[DS]
        if name == "collect_tribute":
            pr = sum([self.P[s] for s in self.provinces if self.tributary[s]])
            v = self.gain_value(r, pr // 2) + 2 * self.cav_value()
            if r < self.tribute_below:
                v += 0.3
            return v
        if name == "demand_obedience":
            targets = self._do_targets(obs)
            if not targets:
                return None
            return ordered_sum([self._do_value(obs, s) for s in targets])
        if name == "campaign":
            v, plan = self.campaign_plan(obs, None)
            return v if plan else None
        return None

    def _do_targets(self, obs) -> list[int]:
        p = self.pieces
        return [s for s in self.provinces if self.control[s] == DS and p[s * NK + GOVERNOR]]

    def _do_value(self, obs, s: int) -> float:
        return self.delta(obs, s, dds=0, dbk=0, dve=0, trib=True) + self.gain_value(
            self.resources[DS], self.P[s]
        )

    def campaign_plan(self, obs, origins) -> tuple[float, dict | None]:
        """``_campaign_plan``, cached for the position."""
        key = None if origins is None else tuple(origins)
        return self.cached_plan(obs, "campaign", key, lambda: self._campaign_plan(obs, origins))

    def _campaign_plan(self, obs, origins) -> tuple[float, dict | None]:
        """The best single route (4.2.2): the origin that spares Units most cheaply, the
        destination within three steps that needs them most; Units are dropped at the end."""
        p = self.pieces
        n = self.n
        reach = self.rules.decrees["campaign_range"]
        allowed = None
        restricted = False
        if origins is not None:
            allowed = set(origins)
            restricted = self.mp not in allowed and self.pj not in allowed
        # marginal losses at possible origins, gains at possible destinations
        loss_tab: dict[int, list[float]] = {}
        for o in range(n):
            if allowed is not None and o not in allowed:
                continue
            if restricted and o in (self.mp, self.pj):
                continue
            t = p[o * NK + TROOP]
            if not t:
                continue
            out, prev = [], 0.0
            for k in range(1, min(t, 6) + 1):
                cur = -self.add_value(obs, o, -k)
                step = cur - prev
                if step > 0.25:
                    break
                out.append(step)
                prev = cur
            if out:
                loss_tab[o] = out
        if not loss_tab:
            return 0.0, None
        if len(loss_tab) > 3:  # the three origins that spare the most Units cheaply
            ranked = sorted(
                [(-len(losses), ordered_sum(losses), o) for o, losses in loss_tab.items()]
            )
            loss_tab = {o: loss_tab[o] for o in sorted([o for _n, _sum, o in ranked[:3]])}
        gain_tab: dict[int, list[float]] = {}
        best_v, best = 0.05, None
        within = self.within
        min_loss, longest = 1e9, 0  # the cheapest first Unit; the gains needed at most
        for losses in loss_tab.values():
            min_loss = min(min_loss, losses[0])
            longest = max(longest, len(losses))
        min_loss += 0.02
        for o, losses in loss_tab.items():
            for d in within[o]:
                if restricted and d in (self.mp, self.pj):
                    continue
                gains = gain_tab.get(d)
                if gains is None:
                    gains, prev = [], 0.0
                    if self.add_value(obs, d, 1) > min_loss:  # else no Unit is worth moving
                        for k in range(1, longest + 1):
                            cur = self.add_value(obs, d, k)
                            gains.append(cur - prev)
                            prev = cur
                    gain_tab[d] = gains
                if not gains:
                    continue
                total, best_k, acc = 0.0, 0, 0.0
                for k in range(len(losses)):
                    acc += gains[k] - losses[k]
                    if acc > total:
                        total, best_k = acc, k + 1
                if total > best_v:
                    best_v, best = total, (o, d, best_k)
        if best is None:
            return 0.0, None
        o, d, k = best
        path = _path(self.rules.board, o, d, {self.mp, self.pj} if restricted else set())
        if path is None or len(path) > reach + 1:
            return 0.0, None
        return best_v, {"origin": o, "dest": d, "troops": k, "path": path}

    # -- decisions --------------------------------------------------------------------------

    def casualty_order(self, obs, s) -> tuple[int, ...]:
        return (TROOP, QASBAH, GOVERNOR)

    def k_conscript_count(self, obs, d):
        return d.options[0]

    def k_govern(self, obs, d):
        s = d.context
        best, best_v = d.options[0], -1e9
        for o in d.options:
            v = self.govern_value(obs, s, o)
            if v > best_v:
                best, best_v = o, v
        return best

    def k_attack_support(self, obs, d):
        best = max(d.options, key=lambda o: (0, 0) if o == "none" else (o[1] + o[2], -o[2]))
        return self.with_support(best)

    def k_march_from(self, obs, d):
        a, s = d.context
        plans = self.plan.setdefault("march", {})
        if s not in plans:
            plans[s] = self.march_plan(obs, s)[1]
        t, g = plans[s].get(a, (0, 0))
        opts = d.options
        best = min(opts, key=lambda o: (abs(o[0] - t) + 2 * abs(o[1] - g), o))
        return best

    def k_demand_obedience(self, obs, d):
        best, best_v = d.options[0], -1e9
        for s in d.options:
            if s == DONE:
                continue
            v = self._do_value(obs, s)
            if v > best_v:
                best, best_v = s, v
        if DONE in d.options and best_v <= 0:
            return DONE
        return best

    def k_succession_campaign(self, obs, d):
        v, plan = self.campaign_plan(obs, [s for s in range(self.n) if s not in (self.mp, self.pj)])
        return plan is not None and v > 0.2

    def k_campaign_origin(self, obs, d):
        v, plan = self.campaign_plan(obs, d.options)
        if plan is None or plan["origin"] not in d.options:
            self.plan["campaign"] = None
            p = self.pieces
            return max(d.options, key=lambda o: (p[o * NK + TROOP], -o))
        self.plan["campaign"] = plan
        return plan["origin"]

    def k_campaign_pickup(self, obs, d):
        plan = self.plan.get("campaign")
        here = d.context
        if plan is None:
            return max(d.options, key=lambda o: (o[0], -o[1]))
        if here == plan["origin"]:
            want = plan["troops"]
            return min(d.options, key=lambda o: (abs(o[0] - want) + 3 * o[1], o))
        return (0, 0) if (0, 0) in d.options else d.options[0]

    def k_campaign_drop(self, obs, d):
        return (0, 0) if (0, 0) in d.options else d.options[0]

    def k_campaign_step(self, obs, d):
        plan = self.plan.get("campaign")
        here = d.context
        if plan is None:
            return STOP if STOP in d.options else d.options[0]
        dest = plan["dest"]
        if here == dest and STOP in d.options:
            return STOP
        path = plan["path"]
        if here in path:
            i = path.index(here)
            if i + 1 < len(path) and path[i + 1] in d.options:
                return path[i + 1]
        steps = [o for o in d.options if o != STOP]
        if not steps:
            return STOP
        return min(steps, key=lambda o: (self.dist[o][dest], o))

    def k_plunder_troop(self, obs, d):
        return max(d.options, key=lambda s: (self.add_value(obs, s, -1), -s))

    def k_influence_refill(self, obs, d):
        return d.options[0]

    def k_compromising_gifts(self, obs, d):
        return False if False in d.options else d.options[0]


def _path(board, o: int, d: int, banned: set) -> list[int] | None:
    """A shortest route from ``o`` to ``d`` avoiding ``banned`` spaces (lowest ids first)."""
    prev = {o: -1}
    frontier = [o]
    while frontier and d not in prev:
        nxt = []
        for a in frontier:
            for b in board.adjacent[a]:
                if b not in prev and b not in banned:
                    prev[b] = a
                    nxt.append(b)
        frontier = nxt
    if d not in prev:
        return None
    path = [d]
    while prev[path[-1]] != -1:
        path.append(prev[path[-1]])
    return path[::-1]
