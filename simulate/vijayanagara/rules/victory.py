"""Victory points (5.1-5.3) and the winner with its Resources tiebreak (5.0)."""

from __future__ import annotations

from .pieces import BK, DS, MONGOL, NK, STRUCTURE_OF, VE
from .ruleset import Rules
from .state import GameState


def tributary_prosperity(rules: Rules, st: GameState) -> int:
    """The Prosperity of all Tributary Provinces (5.1, 1.3.1)."""
    pr = rules.board.prosperity
    trib = st.tributary
    total = 0
    for s in rules.board.provinces:
        if trib[s]:
            total += pr[s]
    return total


def delhi_bonus(rules: Rules, st: GameState) -> int:
    """3 minus the Invaders left in Delhi, at least -3 (5.1)."""
    v = rules.victory
    return max(v["delhi_bonus_floor"], v["delhi_bonus_base"] - st.pieces[rules.delhi * NK + MONGOL])


def vp(rules: Rules, st: GameState, f: int, final: bool = False) -> int:
    """DS: Tributary Prosperity (+ the Delhi bonus at the end); BK/VE: Prosperity of Controlled
    Provinces + their Structures on the map + Influence (5.1-5.3)."""
    if f == DS:
        return tributary_prosperity(rules, st) + (delhi_bonus(rules, st) if final else 0)
    pr = rules.board.prosperity
    p = st.pieces
    control = st.control
    struct = STRUCTURE_OF[f]
    total = st.influence[f]
    for s in rules.board.provinces:
        if control[s] == f:
            total += pr[s]
        total += p[s * NK + struct]
    return total


def winner(rules: Rules, st: GameState) -> tuple[int | None, str]:
    """The Faction with most VP, ties broken by Resources (5.0); (None, "unresolved") if both tie."""
    scores = {f: vp(rules, st, f, final=True) for f in (DS, BK, VE)}
    best = max(scores.values())
    top = [f for f in (DS, BK, VE) if scores[f] == best]
    if len(top) == 1:
        return top[0], "none"
    most = max([st.resources[f] for f in top])
    rich = [f for f in top if st.resources[f] == most]
    if len(rich) == 1:
        return rich[0], "resources"
    return None, "unresolved"
