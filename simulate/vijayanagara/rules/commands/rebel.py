"""Rebel (3.3.3, 3.4.3): in Tributary Provinces where the Faction's pieces are the majority,
flip its Units to Rebelling and remove the Tributary marker; the Faction now Controls it."""

from __future__ import annotations

from ..context import Context
from ..control import set_independent
from ..pieces import NK, OB, PIECES_OF
from ..placement import flip


def spaces(ctx: Context, f: int, run) -> list[int]:
    """Tributary Provinces where the Faction's pieces outnumber all others combined."""
    st = ctx.state
    p = st.pieces
    trib = st.tributary
    a, b, c = PIECES_OF[f]
    out = []
    for s in ctx.rules.board.province_ids:
        if not trib[s]:
            continue
        i = s * NK
        mine = p[i + a] + p[i + b] + p[i + c]
        if mine:
            total = 0
            for k in range(i, i + NK):
                total += p[k]
            if mine * 2 > total:
                out.append(s)
    return out


def resolve(ctx: Context, f: int, s: int, run) -> None:
    set_independent(ctx.state, s)
    flip(ctx, s, OB[f], OB[f] + 1)
