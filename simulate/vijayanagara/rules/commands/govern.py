"""Govern (3.2.3): place a Governor, or with a Governor present remove up to two Obedient
Units and/or place a Qasbah."""

from __future__ import annotations

from ..context import Context
from ..pieces import AMIR_OB, DS, GOVERNOR, NK, PT_GOVERNOR, PT_QASBAH, QASBAH, RAJA_OB
from ..placement import place, remove


def options(rules, pieces: bytearray, avail: list[int], s: int) -> list:
    """Govern's choices in ``s`` (3.2.3): "governor" (place one), or with a Governor present
    (Amirs, Rajas removed, Qasbah 0/1). Reads only the board, so bots can call it too."""
    b = s * NK
    out: list = []
    if avail[PT_GOVERNOR]:
        out.append("governor")
    if pieces[b + GOVERNOR]:
        cap = rules.factions["DS"]["govern_removes"]
        # 3.2.3: "In each selected space ... place a Qasbah" -- any selected space, Delhi and
        # the Mongol Invasion Regions included (1.4.4 limits Structures per Province; it does
        # not confine Qasbahs to Provinces). One Qasbah per space (Key Terms: Stacking).
        can_q = not pieces[b + QASBAH] and avail[PT_QASBAH]
        for a in range(min(cap, pieces[b + AMIR_OB]) + 1):
            for r in range(min(cap - a, pieces[b + RAJA_OB]) + 1):
                for q in range(2 if can_q else 1):  # Qasbah placed or not
                    if a or r or q:
                        out.append((a, r, q))
    return out


def _options(ctx: Context, s: int) -> list:
    return options(ctx.rules, ctx.state.pieces, ctx.state.avail, s)


def spaces(ctx: Context, f: int, run) -> list[int]:
    """Tributaries, Sultanate-Controlled Provinces, Mongol Invasion Regions and Delhi (3.2.3)."""
    st = ctx.state
    p = st.pieces
    trib = st.tributary
    control = st.control
    is_province = ctx.rules.board.is_province
    spare = st.avail[PT_GOVERNOR] > 0
    out = []
    for s in range(ctx.rules.board.n):
        if is_province[s] and not (trib[s] or control[s] == DS):
            continue
        if spare or (p[s * NK + GOVERNOR] and _options(ctx, s)):
            out.append(s)
    return out


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
