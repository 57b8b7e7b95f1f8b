"""Control (1.7), Obedient/Rebelling (1.4.5) and Tributary status (1.6)."""

from __future__ import annotations

from .pieces import AMIR_OB, AMIR_REB, BK, DS, NK, RAJA_OB, RAJA_REB, VE
from .state import GameState


def controller(st: GameState, s: int) -> int:
    """The Faction whose pieces outnumber all others combined in Independent Province ``s``, or -1 (1.7)."""
    p = st.pieces
    b = s * NK
    ds = p[b] + p[b + 1] + p[b + 2]
    bk = p[b + 3] + p[b + 4] + p[b + 5]
    ve = p[b + 6] + p[b + 7] + p[b + 8]
    total = ds + bk + ve + p[b + 9]
    if ds * 2 > total:
        return DS
    if bk * 2 > total:
        return BK
    if ve * 2 > total:
        return VE
    return -1


def settle(st: GameState, s: int, is_province: bool) -> None:
    """Recompute Control of a space and flip its controller's Units to Rebelling (1.7, 1.4.5)."""
    if not is_province or st.tributary[s]:
        st.control[s] = -1
        return
    c = controller(st, s)
    st.control[s] = c
    if c in (BK, VE):
        p = st.pieces
        ob = s * NK + (AMIR_OB if c == BK else RAJA_OB)
        if p[ob]:
            p[ob + 1] += p[ob]
            p[ob] = 0


def set_tributary(st: GameState, s: int) -> None:
    """Place a Tributary marker: no Control; Rebelling Amirs and Rajas flip Obedient (1.6)."""
    p = st.pieces
    b = s * NK
    st.tributary[s] = True
    st.control[s] = -1
    p[b + AMIR_OB] += p[b + AMIR_REB]
    p[b + AMIR_REB] = 0
    p[b + RAJA_OB] += p[b + RAJA_REB]
    p[b + RAJA_REB] = 0


def set_independent(st: GameState, s: int) -> None:
    """Remove a Tributary marker; Control is recomputed (1.6, 1.7)."""
    st.tributary[s] = False
    settle(st, s, True)
