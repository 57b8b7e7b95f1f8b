"""What the Bahmani and Vijayanagara heuristic bots share: the two factions are near twins
(3.3 and 3.4 differ only in data), so one class holds the logic and each faction module
(``bahmani.py``, ``vijayanagara.py``) sets the differences as class data.

Priority scheme (each choice valued in VP equivalents; the best wins):

1. Build a Fort / Temple whenever possible (4.3.2, 4.4.2): 1 VP and a piece for majority.
2. Rebel in every Tributary where our pieces are the majority, once the Tughlaq Dynasty
   allows it (2.7, 3.3.3): Control is worth the Province's Prosperity.
3. Rally in the heartland and where a few more Units give the majority (3.3.1); Migrate
   Units toward Provinces we can take, and shift Influence (+1 own, -1 rival) whenever a
   destination holds a rival piece (3.3.2).
4. Attack only when clearly worth it (``attack_margin``): the rival when the dice favour us
   and the Influence shift follows (3.3.4), the Sultanate where its pieces block a Rebel,
   any lone Structure. Losses of the leading opponent count more than the other's.
5. Trade / Tax when Resources run short; Conspire / Compel to turn Governors, Troops or rival
   Units into our own (4.3.3, 4.4.3).
6. On a Mongol Invasion card naming us (2.4): Plunder where it costs the Sultanate most
   Troops, else Amass toward Timur's assault on Delhi (2.6); do the least harm when the
   Sultanate is far behind the rival. Compromising Gifts only when Resources are desperate.
7. Events (2.3.4): taken when the Event table says the better side beats the planned Command.
"""

from __future__ import annotations

from functools import lru_cache

from simulate.vijayanagara.rules.pieces import (
    AMIR_OB,
    AMIR_REB,
    BK,
    DS,
    FORT,
    GOVERNOR,
    MONGOL,
    NK,
    PIECES_OF,
    PT_MONGOL,
    RAJA_OB,
    RAJA_REB,
    TEMPLE,
    TROOP,
)
from simulate.vijayanagara.rules.summation import ordered_sum

from .counters import counts
from .evaluation import delhi_projection
from .faction_bot import FactionBot, hit_chance


@lru_cache(maxsize=256)
def _binom(n: int, q: float) -> tuple[float, ...]:
    out = [0.0] * (n + 1)
    out[0] = 1.0
    for _ in range(n):
        nxt = [0.0] * (n + 1)
        for k, pk in enumerate(out):
            if pk:
                nxt[k] += pk * (1 - q)
                nxt[k + 1] += pk * q
        out = nxt
    return tuple(out)


@lru_cache(maxsize=4096)
def _battle(dice: int, defend: int, cap: int, u: int, units: int, pieces: int):
    """Expected hits and losses of an Attack with ``u`` Units on ``units`` defending Units
    among ``pieces`` (3.3.4), and the chances that it kills more than it loses (win) and
    fewer (lose), for the Influence shift."""
    hits_d = _binom(dice, hit_chance(u))
    loss_d = _binom(defend, hit_chance(units)) if units else (1.0,)
    e_hits = ordered_sum([min(k, pieces, cap) * q for k, q in enumerate(hits_d)])
    e_loss = ordered_sum([min(k, u) * q for k, q in enumerate(loss_d)])
    win = lose = 0.0
    for k, qk in enumerate(hits_d):
        dl = min(k, pieces, cap)
        for j, qj in enumerate(loss_d):
            al = min(j, u)
            if al < dl:
                win += qk * qj
            elif al > dl:
                lose += qk * qj
    return e_hits, e_loss, win, lose


class DeccanBot(FactionBot):
    """Shared Bahmani / Vijayanagara logic. Subclasses give their faction data in ``DATA``
    (``DECCAN`` plus the keys below) and value their own Decrees: ``econ_value`` (Trade or
    Tax, now) and ``special_value`` (Conspire or Compel, now; None when it cannot be done)."""

    DATA = DECCAN = {
        "commands": ("rally", "migrate", "rebel", "attack"),
        "local_commands": frozenset({"rally", "rebel"}),
        # and, by faction: "faction", "rival", the counters "ob", "reb", "struct", the piece
        # types "unit_pt", "struct_pt", the Decrees "econ" (trade or tax) and "special"
        # (conspire or compel), the faction's name in factions.yaml "name_"
    }

    def __init__(self, *args) -> None:
        mine = type(self).DATA
        self.rival = mine["rival"]
        self.ob, self.reb, self.struct = mine["ob"], mine["reb"], mine["struct"]
        self.unit_pt, self.struct_pt = mine["unit_pt"], mine["struct_pt"]
        self.econ, self.special, self.name_ = mine["econ"], mine["special"], mine["name_"]
        super().__init__(*args)
        data = self.rules.factions[self.name_]
        self.rally = data["rally"]
        self.migrate_max = data["migrate"]["max_units"]
        self.shift_cost = data["migrate"]["shift_cost"]
        self.support_units = data["attack"]["support_units"]
        self.home = self.rules.rally_home[self.faction]
        self.rival_base = PIECES_OF[self.rival][0]  # the rival's first counter (pieces.py)
        r = self.rally
        self.rally_cap = 1 + r["home_bonus"] + r["structure_bonus"] + r["control_bonus"]
        w = self.play["deccan"]
        self.w_shift = float(w["influence_shift"])
        self.w_struct = float(w["structure"])
        self.kill_troop = float(w["kill_troop"])
        self.kill_rival = float(w["kill_rival"])
        self.mongol_harm = float(w["mongol_harm"])
        self.attack_margin = float(w["attack_margin"])
        self.decrees = (self.econ, "build", self.special)
        self.timing_first = frozenset({self.econ, self.special})

    def own(self, p, s: int) -> int:
        b = s * NK
        ob, reb = p[b + self.ob], p[b + self.reb]
        return ob + reb

    def _add_value(self, obs, s: int, k: int) -> float:
        return FactionBot._add_value(self, obs, s, k) + 0.04 * k

    # -- Command spaces (3.3, 3.4) ------------------------------------------------------------

    def candidates(self, obs, name: str) -> list[int]:
        p = self.pieces
        f = self.faction
        if name == "rally":
            if not self.available[self.unit_pt]:
                return []
            return [s for s in self.provinces if s == self.home or counts(p, s)[f]]
        if name == "rebel":
            if not self.tughlaq:
                return []
            out = []
            for s in self.provinces:
                if self.tributary[s]:
                    c = counts(p, s)
                    if c[f] and 2 * c[f] > c[0] + c[1] + c[2]:
                        out.append(s)
            return out
        if name == "migrate":
            have = [s for s in self.provinces if self.own(p, s)]
            seen = set()
            for s in have:
                seen.update(a for a in self.adj[s] if self.is_prov[a])
            return sorted(seen)
        if name == "attack":
            out = []
            for s in self.provinces:
                c = counts(p, s)
                if c[0] + c[1] + c[2] - c[f] <= 0:
                    continue
                u = self.own(p, s)
                # one or two Units rarely win a battle: only raids on lone pieces (3.3.4)
                if u >= 2 or ((u or self._support(obs, s)) and self._lone(p, s)):
                    out.append(s)
            return out
        return []

    def space_values(self, obs, name: str) -> list[tuple[float, int]]:
        if name != "migrate":
            return FactionBot.space_values(self, obs, name)
        # the Influence shift happens once per Migrate (3.3.2): count it in one space only
        out = []
        best_shift, best_i = 0.0, -1
        for s in self.spaces_for(obs, name):
            v = FactionBot.cached_space_value(self, obs, name, s)
            sh = self.shift_value(obs, s)
            if sh > 0 and v + sh > best_shift:
                best_shift, best_i = v + sh, len(out)
            out.append([v, s])
        if best_i >= 0:
            out[best_i][0] = best_shift
        return [(v, s) for v, s in out]

    def cached_space_value(self, obs, name: str, s: int) -> float:
        v = FactionBot.cached_space_value(self, obs, name, s)
        if name == "migrate" and not self.plan.get("shifted"):
            v += self.shift_value(obs, s)  # depends on Resources: never cached
        return v

    def space_key(self, obs, name: str, s: int):
        # Rally reads the Available Units only up to the most it can place (rally_value)
        return min(self.available[self.unit_pt], self.rally_cap) if name == "rally" else None

    def space_value(self, obs, name: str, s: int) -> float:
        if name == "rally":
            return self.rally_value(obs, s)
        if name == "rebel":
            return self.delta(obs, s, dds=0, dbk=0, dve=0, trib=False) + 0.1
        if name == "migrate":
            return self.migrate_plan(obs, s)[0]
        if name == "attack":
            return self.attack_best(obs, s)[0]
        return 0.0

    def rally_value(self, obs, s: int) -> float:
        p = self.pieces
        n = 1
        if s == self.home:
            n += self.rally["home_bonus"]
        if p[s * NK + self.struct]:
            n += self.rally["structure_bonus"]
        if self.control[s] == self.faction:
            n += self.rally["control_bonus"]
        n = min(n, self.available[self.unit_pt])
        if n <= 0:
            return 0.0
        v = self.add_value(obs, s, n)
        if self.faction == BK and not counts(p, s)[BK]:
            v += 0.15  # one more Province for Trade (4.3.1)
        return v

    def shift_value(self, obs, s: int) -> float:
        """Worth of the Migrate Influence shift in destination ``s`` (3.3.2), or 0: the
        same wherever the rival has a piece."""
        b = s * NK + self.rival_base
        p = self.pieces
        x, y, z = p[b], p[b + 1], p[b + 2]
        if not (x + y + z):
            return 0.0
        key = ("shift", self.resources[self.faction])
        v = self._spaces.get(key)
        if v is None:
            v = self._spaces[key] = self._shift_value(obs)
        return v

    def _shift_value(self, obs) -> float:
        f, g = self.faction, self.rival
        imax = self.rules.influence_max
        if self.influence[f] >= imax and self.influence[g] <= 0:
            return 0.0
        if self.resources[f] < 1 + self.shift_cost:
            return 0.0
        v = 0.0
        if self.influence[f] < imax:
            v += 0.5 * self.w_shift
        if self.influence[g] > 0:
            v += 0.5 * self.w_shift * self.against(g, obs)
        return v - self.cost(self.resources[f] - 1, self.shift_cost)

    def migrate_plan(self, obs, s: int) -> tuple[float, dict]:
        """Units to move into ``s`` (up to three, 3.3.2), one by one from the adjacent
        Province that misses them least, while the move gains."""
        p = self.pieces
        if self.add_value(obs, s, 1) <= 0.02:
            return 0.0, {}
        sources = []
        for a in self.adj[s]:
            if self.is_prov[a]:
                k = self.own(p, a)
                if k:
                    sources.append((a, k))
        return self.move_plan(obs, s, sources, self.migrate_max)

    def _lone(self, p, s: int) -> bool:
        """Whether an opponent has pieces in ``s`` but no Units to roll defence dice."""
        b = s * NK
        t, gov, q = p[b + TROOP], p[b + GOVERNOR], p[b + 2]
        if q and not (t + gov):
            return True
        if self.rival == BK:
            st, ob, rb = p[b + FORT], p[b + AMIR_OB], p[b + AMIR_REB]
        else:
            st, ob, rb = p[b + TEMPLE], p[b + RAJA_OB], p[b + RAJA_REB]
        return bool(st and not (ob + rb))

    def _support(self, obs, s: int) -> int:
        p = self.pieces
        best = 0
        for a in self.adj[s]:
            if self.is_prov[a] and p[a * NK + self.struct]:
                best = max(best, min(self.support_units, self.own(p, a)))
        return best

    def attack_value(self, obs, s: int, g: int) -> tuple[float, tuple[int, int, int]]:
        p = self.pieces
        b = s * NK
        f = self.faction
        here = self.own(p, s)
        u = here + self._support(obs, s)
        if u == 0:
            return -1.0, (0, 0, 0)
        combat = self.rules.combat
        dice = combat["attack_dice"]
        if g == DS:
            units = p[b + TROOP] + p[b + GOVERNOR]
            pieces = units + p[b + 2]
        elif g == BK:
            units = p[b + AMIR_OB] + p[b + AMIR_REB]
            pieces = units + p[b + FORT]
            if p[b + FORT]:
                dice -= combat["fort_penalty"]
        else:
            units = p[b + RAJA_OB] + p[b + RAJA_REB]
            pieces = units + p[b + TEMPLE]
        e_hits, e_loss, win, lose = _battle(
            max(0, dice), combat["defend_dice"], combat["max_hits"], u, units, pieces
        )
        kh, kl = int(e_hits + 0.5), int(e_loss + 0.5)
        dd = [0, 0, 0]
        dd[g] = -min(kh, units)
        dd[f] = -min(kl, here)
        v = self.delta(obs, s, dd[0], dd[1], dd[2]) - 0.05 * e_loss
        if g == DS:
            v += self.kill_troop * e_hits * self.against(DS, obs)
        else:
            v += self.kill_rival * e_hits * self.against(g, obs)
            if kh > units:  # the rival's Structure falls too: 1 VP (5.2, 5.3)
                v += 0.8 * self.against(g, obs)
            v += 0.5 * self.w_shift * (1.0 + self.against(g, obs)) * (win - lose)
        v = v * (0.5 + self.aggr) - (0.5 - self.aggr) * 0.3 - self.attack_margin
        return v, (u, units, pieces)

    def attack_best(self, obs, s: int):
        p = self.pieces
        best, best_v, info = None, -1e9, (0, 0, 0)
        c = counts(p, s)
        for g in (DS, self.rival):
            if not c[g]:
                continue
            v, i = self.attack_value(obs, s, g)
            if v > best_v:
                best, best_v, info = g, v, i
        return best_v, best, info

    # -- Decrees (4.3, 4.4) ---------------------------------------------------------------

    def decree_value(self, obs, name: str) -> float | None:
        if name == "build":
            best = self.build_best(obs)
            return None if best is None else best[0]
        if name == self.econ:
            return self.econ_value(obs)
        if name == self.special:
            return self.special_value(obs)
        return None

    def build_targets(self, obs) -> list[int]:
        if not self.available[self.struct_pt]:
            return []
        p = self.pieces
        return [s for s in self.provinces if self.own(p, s) and not p[s * NK + self.struct]]

    def build_value(self, obs, s: int) -> float:
        p = self.pieces
        c = counts(p, s)
        own = self.own(p, s)
        v = self.w_struct + self.add_value(obs, s, 1)
        if self.rally["structure_bonus"]:
            v += 0.15
        if own >= 2:
            v += 0.1
        if c[self.rival] > own or (self.control[s] == self.faction and p[s * NK + TROOP] > own):
            v -= 0.3
        return v

    def build_best(self, obs):
        best = None
        for s in self.build_targets(obs):
            v = self.build_value(obs, s)
            if best is None or v > best[0]:
                best = (v, s)
        return best

    # -- decisions ----------------------------------------------------------------------------

    def casualty_order(self, obs, s) -> tuple[int, ...]:
        if isinstance(s, int) and 0 <= s < self.n and self.tributary[s]:
            return (self.reb, self.ob, self.struct)
        return (self.ob, self.reb, self.struct)

    def k_rally_count(self, obs, d):
        return d.options[0]

    def k_attack_support(self, obs, d):
        best = max(d.options, key=lambda o: (0,) if o == "none" else (o[1] + o[2],))
        return self.with_support(best)

    def k_migrate_from(self, obs, d):
        a, s = d.context
        plans = self.plan.setdefault("migrate", {})
        if s not in plans:
            plans[s] = self.migrate_plan(obs, s)[1]
        want = plans[s].get(a, 0)
        return min(d.options, key=lambda o: (abs(o[0] + o[1] - want), -o[0], o))

    def k_migrate_shift(self, obs, d):
        v = self.shift_value(obs, d.context) if isinstance(d.context, int) else 1.0
        if v > 0 and True in d.options:
            self.plan["shifted"] = True
            return True
        return False

    def k_build(self, obs, d):
        return max(d.options, key=lambda s: (self.build_value(obs, s), -s))

    def k_influence_refill(self, obs, d):
        if "available" in d.options:
            return "available"
        return max(d.options, key=lambda o: (self.add_value(obs, o[0], -1), o[1] == self.ob, -o[0]))

    def k_compromising_gifts(self, obs, d):
        f = self.faction
        r = self.resources[f]
        gain = self.gain_value(r, 2) + 2 * self.cav_value()
        level = self.influence[f]
        slot = self.rules.setup_slots[f][level] if level < len(self.rules.setup_slots[f]) else 0
        loss = 1.0 + 0.15 + 0.15 * slot
        return gain > loss

    def k_succession_command(self, obs, d):
        best, best_v = "decline", 0.0
        for o in d.options:
            if o == "decline":
                continue
            v, _ = self.command_value(obs, o, limited=True, free=True)
            if v > best_v:
                best, best_v = o, v
        self.plan = {"action": "limited", "command": best, "decree": None}
        return best

    def k_succession_gain(self, obs, d):
        r = self.resources[self.faction]
        want = max(0, 8 - r)
        return min(d.options, key=lambda x: (abs(x - want), -x))

    # -- the Mongols (2.4, 3.5) ---------------------------------------------------------------

    def harm_weight(self, obs) -> float:
        """How much hurting the Sultanate helps us: full while it leads or keeps the
        Tributaries we want, less once a rival is ahead of it."""
        sc = self.scores_now(obs)
        w = self.mongol_harm
        if sc[DS] + 2 < sc[self.rival]:
            w *= 0.5
        return w

    def _zone(self, obs) -> tuple[float, float]:
        p = self.pieces
        m = t = 0.0
        for z in self.zone:
            m += p[z * NK + MONGOL]
            t += p[z * NK + TROOP] + p[z * NK + GOVERNOR]
        if obs.timurid_drawn == 0:
            m += self.available[PT_MONGOL] // 2
        return m, t + 0.5 * self.cavalry[DS]

    def plunder_value(self, obs, z: int) -> float:
        p = self.pieces
        m = p[z * NK + MONGOL]
        if not m:
            return -1.0
        ds_u = p[z * NK + TROOP] + p[z * NK + GOVERNOR]
        combat = self.rules.combat
        dice = combat["mongol_dice_in_delhi"] if z == self.delhi else combat["attack_dice"]
        hits = min(dice * hit_chance(m) + 0.4, ds_u, combat["max_hits"]) if ds_u else 0.0
        lost = min(combat["defend_dice"] * hit_chance(ds_u), m) if ds_u else 0.0
        left = m - lost
        mongols = self.rules.mongols
        res = min(left, max(0, self.resources[DS] - mongols["plunder_floor"]))
        per = mongols["plunder_troops"].get(self.board.names[z], 0)
        prov_troops = sum([p[s * NK + TROOP] for s in self.provinces])
        troops = min(left * per, prov_troops)
        back = max(0.0, left - mongols["keep_after_plunder"])
        zm, zt = self._zone(obs)
        urg = 0.4 + 0.6 * self.progress
        end = urg * (delhi_projection(zm, zt) - delhi_projection(zm - lost - back, zt - hits))
        return 0.1 * res + 0.35 * troops + end

    def amass_value(self, obs) -> float:
        n = min(self.rules.mongols["amass"], self.available[PT_MONGOL])
        zm, zt = self._zone(obs)
        if obs.timurid_drawn == 0:
            zm -= n / 2  # half of them would have come with the first Timurid card anyway
        urg = 0.4 + 0.6 * self.progress
        return urg * (delhi_projection(zm, zt) - delhi_projection(zm + n, zt)) + 0.1 * n

    def advance_value(self, obs, o) -> float:
        src, dst, n = o
        return (0.15 if dst == self.delhi else 0.08) * n

    def k_mongol_command(self, obs, d):
        hw = self.harm_weight(obs)
        vals = {}
        if "attack_plunder" in d.options:
            vals["attack_plunder"] = max([self.plunder_value(obs, z) for z in self.zone])
        if "amass" in d.options:
            vals["amass"] = self.amass_value(obs)
        if "advance" in d.options:
            p = self.pieces
            opts = [
                (self.mp, self.pj, p[self.mp * NK + MONGOL]),
                (self.pj, self.delhi, p[self.pj * NK + MONGOL]),
            ]
            vals["advance"] = max([self.advance_value(obs, o) for o in opts if o[2]])
        if "none" in d.options:  # readings.mongol_commands_optional: declining changes nothing
            vals["none"] = 0.0
        if hw <= 0.3:  # the Sultanate is no threat: do the least harm
            return min(d.options, key=lambda o: (vals.get(o, 0.0), o))
        return max(d.options, key=lambda o: (vals.get(o, -1.0), o))

    def k_mongol_advance(self, obs, d):
        return max(d.options, key=lambda o: (self.advance_value(obs, o), o[2]))

    def k_mongol_attack_space(self, obs, d):
        return max(d.options, key=lambda z: (self.plunder_value(obs, z), -z))

    def k_conspire_amir(self, obs, d):
        s = d.context
        want = "obedient" if self.tributary[s] else "rebelling"
        if want in d.options:
            return want
        return "rebelling" if "rebelling" in d.options else d.options[0]
