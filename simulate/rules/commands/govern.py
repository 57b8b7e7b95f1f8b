"""Govern (3.2.3): place a Governor, or with a Governor present remove up to two Obedient
Units and/or place a Qasbah."""

from __future__ import annotations

from collections.abc import Iterator

from ..board import PROVINCE
from ..context import Context
from ..pieces import AMIR_OB, DS, GOVERNOR, NK, PT_GOVERNOR, PT_QASBAH, QASBAH, RAJA_OB
from ..placement import place, remove


def _options(ctx: Context, s: int) -> list:
    st = ctx.state
    p = st.pieces
    b = s * NK
    out: list = []
    if st.avail[PT_GOVERNOR]:
        out.append("governor")
    if p[b + GOVERNOR]:
        cap = ctx.rules.factions["DS"]["govern_removes"]
        can_q = ctx.rules.board.kinds[s] == PROVINCE and not p[b + QASBAH] and st.avail[PT_QASBAH]
        for a in range(min(cap, p[b + AMIR_OB]) + 1):
            for r in range(min(cap - a, p[b + RAJA_OB]) + 1):
                for q in (0, 1) if can_q else (0,):
                    if a or r or q:
                        out.append((a, r, q))
    return out


def spaces(ctx: Context, f: int, run) -> Iterator[int]:
    """Tributaries, Sultanate-Controlled Provinces, Mongol Invasion Regions and Delhi (3.2.3)."""
    st = ctx.state
    p = st.pieces
    is_province = ctx.rules.board.is_province
    spare = st.avail[PT_GOVERNOR] > 0
    for s in range(ctx.rules.board.n):
        if is_province[s] and not (st.tributary[s] or st.control[s] == DS):
            continue
        if spare or (p[s * NK + GOVERNOR] and _options(ctx, s)):
            yield s


def resolve(ctx: Context, f: int, s: int, run) -> None:
    choice = ctx.ask(f, "govern", tuple(_options(ctx, s)), s)
    if choice == "governor":
        place(ctx, s, GOVERNOR, 1)
        return
    a, r, q = choice
    remove(ctx, s, AMIR_OB, a)
    remove(ctx, s, RAJA_OB, r)
    if q:
        place(ctx, s, QASBAH, 1)
