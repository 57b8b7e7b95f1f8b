"""The Bahmani Kingdom heuristic bot: the shared Deccan logic (``deccan.py``) with the
Bahmani data.

Priority scheme (on top of the shared Deccan scheme, see ``deccan.py``):

1. Build Forts where Amirs gather (4.3.2): each is 1 VP and blunts attacks on it (3.2.4).
2. Rebel where Amirs are the majority once Tughlaq (3.3.3); Rally in Maharashtra (+1 Amir)
   and where a Unit or two gives the majority (3.3.1).
3. Migrate for Influence against Vijayanagara (3.3.2): Influence is VP and frees Amirs (1.9).
4. Trade when short of Resources: one per Province with an Amir, Cavalry by Influence
   (4.3.1); Conspire to turn Governors (and Rajas once Influential) into Amirs (4.3.3).
"""

from __future__ import annotations

from simulate.vijayanagara.rules.decisions import DONE
from simulate.vijayanagara.rules.pieces import (
    AMIR_OB,
    AMIR_REB,
    BK,
    FORT,
    GOVERNOR,
    NK,
    PT_AMIR,
    PT_FORT,
    RAJA_OB,
    RAJA_REB,
    VE,
)

from .counters import counts
from .deccan import DeccanBot


class BahmaniBot(DeccanBot):
    """Bahmani Kingdom: Forts, Rebels, Influence by Migrate, Trade and Conspire."""

    DATA = DeccanBot.DECCAN | {
        "faction": BK,
        "rival": VE,
        "ob": AMIR_OB,
        "reb": AMIR_REB,
        "struct": FORT,
        "unit_pt": PT_AMIR,
        "struct_pt": PT_FORT,
        "econ": "trade",
        "special": "conspire",
        "name_": "BK",
    }

    def econ_value(self, obs) -> float:
        p = self.pieces
        r = self.resources[BK]
        n = sum([1 for s in self.provinces if counts(p, s)[BK]])
        cav = self.rules.decrees["trade_cavalry"][self.influence[BK]]
        return self.gain_value(r, n) + cav * self.cav_value() + (0.3 if r < 3 else 0.0)

    def conspire_targets(self, obs) -> list[tuple[int, int]]:
        p = self.pieces
        mine = [s for s in self.provinces if counts(p, s)[BK]]
        influential = self.influence[BK] >= self.rules.decrees["conspire_influential"]
        area = set(mine)
        if influential:
            for s in mine:
                area.update(a for a in self.adj[s] if self.is_prov[a])
        kinds = (GOVERNOR, RAJA_OB, RAJA_REB) if influential else (GOVERNOR,)
        return [(s, c) for s in sorted(area) for c in kinds if p[s * NK + c]]

    def conspire_value(self, obs, s: int, c: int) -> float:
        add = 1 if self.available[PT_AMIR] else 0
        if c == GOVERNOR:
            return (
                self.delta(obs, s, dds=-1, dbk=add, dve=0, trib=None, dgov=-1) + 0.25 + 0.04 * add
            )
        return self.delta(obs, s, dds=0, dbk=add, dve=-1) + self.kill_rival + 0.04 * add

    def special_value(self, obs) -> float | None:
        targets = self.conspire_targets(obs)
        if not targets:
            return None
        best: dict[int, float] = {}
        for s, c in targets:
            v = self.conspire_value(obs, s, c)
            if v > best.get(s, -1e9):
                best[s] = v
        top = sorted(best.values(), reverse=True)[:2]
        return top[0] + max(0.0, top[1] if len(top) > 1 else 0.0)

    def k_conspire_target(self, obs, d):
        best, best_v = None, -1e9
        for o in d.options:
            if o == DONE:
                continue
            v = self.conspire_value(obs, *o)
            if v > best_v:
                best, best_v = o, v
        if DONE in d.options and (best is None or best_v <= 0):
            return DONE
        return best
