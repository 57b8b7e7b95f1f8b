"""Rally (3.3.1, 3.4.1): BK and VE place Available Units; one implementation, Faction data
(home Province, Structure and Control bonuses) from factions.yaml."""

from __future__ import annotations

from ..context import Context
from ..pieces import NK, OB, PIECES_OF, STRUCTURE_OF, UNIT_TYPE
from ..placement import place


def spaces(ctx: Context, f: int, run) -> list[int]:
    """Provinces with a piece of the Faction, and its home Province (3.3.1, 3.4.1)."""
    st = ctx.state
    out = []
    if not st.avail[UNIT_TYPE[f]]:
        return out
    p = st.pieces
    home = ctx.rules.rally_home[f]
    a, b, c = PIECES_OF[f]
    for s in ctx.rules.board.province_ids:
        i = s * NK
        if s == home or p[i + a] or p[i + b] or p[i + c]:
            out.append(s)
    return out


def resolve(ctx: Context, f: int, s: int, run) -> None:
    """Place one Unit, plus one more for each bonus that applies; Obedient unless the Province
    is Controlled by the Faction (placement then makes them Rebelling, 1.4.5)."""
    st = ctx.state
    bonus = ctx.rules.factions["BK" if f == 1 else "VE"]["rally"]
    n = 1
    if s == ctx.rules.rally_home[f]:
        n += bonus["home_bonus"]
    if st.pieces[s * NK + STRUCTURE_OF[f]]:
        n += bonus["structure_bonus"]
    if st.control[s] == f:
        n += bonus["control_bonus"]
    n = min(n, st.avail[UNIT_TYPE[f]])
    if n > 1:
        n = ctx.ask(f, "rally_count", tuple(range(n, 0, -1)), s)
    place(ctx, s, OB[f], n)
