"""Migrate (3.3.2, 3.4.2): BK and VE move up to three Units from adjacent Provinces into each
destination, and may once pay to shift Influence; one implementation for both Factions."""

from __future__ import annotations

from ..board import PROVINCE
from ..context import Context
from ..influence import shift
from ..pieces import BK, NK, OB, PIECES_OF, REB, VE
from ..placement import move


def _sources(ctx: Context, f: int, s: int, run) -> list[int]:
    st = ctx.state
    kinds = ctx.rules.board.kinds
    return [
        a
        for a in ctx.rules.board.adjacent[s]
        if kinds[a] == PROVINCE and (run.movable(st, a, OB[f]) or run.movable(st, a, REB[f]))
    ]


def spaces(ctx: Context, f: int, run) -> list[int]:
    """Provinces next to a Province with the Faction's unmoved Units (3.3.2, 3.4.2)."""
    st = ctx.state
    board = ctx.rules.board
    out = []
    mask = run.ready_mask(st, board.province_ids, OB[f], REB[f])
    if not mask:
        return out
    adjacent_mask = board.adjacent_mask
    for s in board.province_ids:
        if adjacent_mask[s] & mask:
            out.append(s)
    return out


def resolve(ctx: Context, f: int, s: int, run) -> None:
    """Units entering a Tributary become Obedient; entering the Faction's own Controlled
    Province, Rebelling (via placement); otherwise they keep their state (3.3.2)."""
    st = ctx.state
    params = ctx.rules.factions["BK" if f == BK else "VE"]["migrate"]
    room = params["max_units"]
    moved_ob = moved_reb = 0
    for a in _sources(ctx, f, s, run):
        if room <= 0:
            break
        mo, mr = run.movable(st, a, OB[f]), run.movable(st, a, REB[f])
        options = tuple(
            [(o, r) for o in range(min(mo, room) + 1) for r in range(min(mr, room - o) + 1)]
        )
        o, r = ctx.ask(f, "migrate_from", options, (a, s))
        if o:
            move(ctx, a, s, OB[f], o)
        if r:
            move(ctx, a, s, REB[f], r, OB[f] if st.tributary[s] else None)
        room -= o + r
        moved_ob += o
        moved_reb += r
    # the arrivals are spent for this Command (3.1.2), in the state they now have
    if st.control[s] == f:
        run.use(s, REB[f], moved_ob + moved_reb)
    elif st.tributary[s]:
        run.use(s, OB[f], moved_ob + moved_reb)
    else:
        run.use(s, OB[f], moved_ob)
        run.use(s, REB[f], moved_reb)
    _maybe_shift(ctx, f, s, run, params["shift_cost"])


def _maybe_shift(ctx: Context, f: int, s: int, run, cost: int) -> None:
    """Once per Migrate, in a destination with an opposing Deccan piece: pay to shift
    Influence +1 for the Faction and -1 for the other (3.3.2, 3.4.2, 3.1.3)."""
    st = ctx.state
    if run.shifted:
        return
    other = VE if f == BK else BK
    if not any(st.pieces[s * NK + c] for c in PIECES_OF[other]):
        return
    if st.has_lasting("migrate_free_shift", f):
        cost = 0
    if st.resources[f] < cost:
        return
    imax = ctx.rules.influence_max
    if st.influence[f] >= imax and st.influence[other] <= 0:
        return  # the shift could change nothing
    if ctx.ask(f, "migrate_shift", (True, False), s):
        st.resources[f] -= cost
        run.shifted = True
        shift(ctx, f, 1)
        shift(ctx, other, -1)
