"""The Vijayanagara Empire heuristic bot: the shared Deccan logic (``deccan.py``) with the
Vijayanagara data.

Priority scheme (on top of the shared Deccan scheme, see ``deccan.py``):

1. Build Temples where Rajas gather (4.4.2): 1 VP each, and +1 Raja on every Rally there.
2. Rebel where Rajas are the majority once Tughlaq (3.4.3); Rally in Karnataka (+1 Raja),
   at Temples and where a Unit or two gives the majority (3.4.1).
3. Migrate for Influence against the Bahmanis (3.4.2): Influence is VP and frees Rajas (1.9).
4. Tax when short of Resources (4.4.1); Compel to place Rajas where they tip a Province and,
   once Influential, to remove a Troop, Governor or Amir there (4.4.3).
"""

from __future__ import annotations

from simulate.vijayanagara.rules.pieces import (
    AMIR_OB,
    AMIR_REB,
    BK,
    GOVERNOR,
    NK,
    PT_RAJA,
    PT_TEMPLE,
    RAJA_OB,
    RAJA_REB,
    TEMPLE,
    TROOP,
    VE,
)

from .counters import counts
from .deccan import DeccanBot


class VijayanagaraBot(DeccanBot):
    """Vijayanagara Empire: Temples, Rebels, Influence by Migrate, Tax and Compel."""

    DATA = DeccanBot.DECCAN | {
        "faction": VE,
        "rival": BK,
        "ob": RAJA_OB,
        "reb": RAJA_REB,
        "struct": TEMPLE,
        "unit_pt": PT_RAJA,
        "struct_pt": PT_TEMPLE,
        "econ": "tax",
        "special": "compel",
        "name_": "VE",
    }

    def econ_value(self, obs) -> float:
        p = self.pieces
        r = self.resources[VE]
        gain = sum([self.P[s] for s in self.provinces if self.control[s] == VE])
        gain += sum([p[s * NK + TEMPLE] for s in self.provinces])
        return self.gain_value(r, gain) + (0.3 if r < 3 else 0.0)

    def compel_targets(self, obs) -> list[int]:
        p = self.pieces
        mine = {s for s in self.provinces if counts(p, s)[VE]}
        return [s for s in self.provinces if s in mine or any(a in mine for a in self.adj[s])]

    def influential(self, obs) -> bool:
        return self.influence[VE] >= self.rules.decrees["compel_influential"]

    def removal_value(self, obs, s: int, c: int, placed: int) -> float:
        if c in (TROOP, GOVERNOR):
            v = self.delta(
                obs, s, dds=-1, dbk=0, dve=placed, trib=None, dgov=-1 if c == GOVERNOR else 0
            )
            v -= self.delta(obs, s, dds=0, dbk=0, dve=placed) if placed else 0.0
            v += self.kill_troop + (0.2 if c == GOVERNOR else 0.0)
            if placed and self.tributary[s]:
                v -= 0.1  # the Rajas just placed turn Rebelling (4.4.3): open to Attack
            return v
        if c in (AMIR_OB, AMIR_REB):
            v = self.delta(obs, s, dds=0, dbk=-1, dve=placed)
            v -= self.delta(obs, s, dds=0, dbk=0, dve=placed) if placed else 0.0
            return v + self.kill_rival
        return -1.0

    def compel_value(self, obs, s: int) -> float:
        n = min(2, self.available[PT_RAJA])
        v = self.add_value(obs, s, n) if n else 0.0
        if self.influential(obs):
            v += self.cav_value()
            p = self.pieces
            best = 0.0
            for c in (TROOP, GOVERNOR, AMIR_OB, AMIR_REB):
                if p[s * NK + c]:
                    best = max(best, self.removal_value(obs, s, c, n))
            v += best
        return v

    def special_value(self, obs) -> float | None:
        targets = self.compel_targets(obs)
        if not targets:
            return None
        return max([self.compel_value(obs, s) for s in targets])

    def k_compel_space(self, obs, d):
        return max(d.options, key=lambda s: (self.compel_value(obs, s), -s))

    def k_compel_place(self, obs, d):
        return d.options[0]

    def k_compel_move(self, obs, d):
        s = d.context
        best, best_v = "none", 0.0
        for o in d.options:
            if o == "none":
                continue
            a, ob, rb = o
            k = ob + rb
            v = self.add_value(obs, s, k) + self.add_value(obs, a, -k)
            if v > best_v:
                best, best_v = o, v
        return best

    def k_compel_remove(self, obs, d):
        s = d.context
        best, best_v = "none", 0.0
        for c in d.options:
            if c == "none":
                continue
            v = self.removal_value(obs, s, c, 0)
            if v > best_v:
                best, best_v = c, v
        return best
