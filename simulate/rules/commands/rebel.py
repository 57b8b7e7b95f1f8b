"""Rebel (3.3.3, 3.4.3): in Tributary Provinces where the Faction's pieces are the majority,
flip its Units to Rebelling and remove the Tributary marker; the Faction now Controls it."""

from __future__ import annotations

from ..context import Context
from ..control import set_independent
from ..pieces import NK, OB, PIECES_OF
from ..placement import flip


def spaces(ctx: Context, f: int, run) -> list[int]:
    st = ctx.state
    p = st.pieces
    out = []
    for s in ctx.rules.board.provinces:
        if not st.tributary[s]:
            continue
        b = s * NK
        mine = sum(p[b + c] for c in PIECES_OF[f])
        total = sum(p[b : b + NK])
        if mine * 2 > total:
            out.append(s)
    return out


def resolve(ctx: Context, f: int, s: int, run) -> None:
    set_independent(ctx.state, s)
    flip(ctx, s, OB[f], OB[f] + 1)
