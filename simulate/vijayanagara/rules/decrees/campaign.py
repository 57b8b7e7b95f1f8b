"""Campaign (4.2.2): move Sultanate Units from one origin along a route of up to three spaces,
picking up and dropping off on the way, to one destination."""

from __future__ import annotations

from ..board import MONGOL_REGION
from ..context import Context
from ..control import settle
from ..pieces import GOVERNOR, NK, TROOP

STOP = "stop"


def _allowed(ctx: Context, provinces_only: bool) -> list[bool]:
    """Succession Campaigns use only Delhi and Provinces (2.5.1, 2.5.2)."""
    kinds = ctx.rules.board.kinds
    return [not (provinces_only and k == MONGOL_REGION) for k in kinds]


def _units(ctx: Context, s: int) -> tuple[int, int]:
    st = ctx.state
    return st.count(s, TROOP), st.count(s, GOVERNOR)


def possible(ctx: Context, f: int, provinces_only: bool = False) -> bool:
    p = ctx.state.pieces
    adj = ctx.rules.board.adjacent
    ok = _allowed(ctx, provinces_only)
    for s in range(ctx.rules.board.n):
        b = s * NK
        if (p[b + TROOP] or p[b + GOVERNOR]) and ok[s] and any(ok[a] for a in adj[s]):
            return True
    return False


def _pairs(t: int, g: int, at_least_one: bool) -> tuple:
    return tuple([(a, b) for a in range(t + 1) for b in range(g + 1) if a or b or not at_least_one])


def _take(ctx: Context, s: int, t: int, g: int) -> None:
    p = ctx.state.pieces
    p[s * NK + TROOP] -= t
    p[s * NK + GOVERNOR] -= g
    settle(ctx.state, s, ctx.rules.board.kinds[s] == "province")


def _drop(ctx: Context, s: int, t: int, g: int) -> None:
    p = ctx.state.pieces
    p[s * NK + TROOP] += t
    p[s * NK + GOVERNOR] += g
    settle(ctx.state, s, ctx.rules.board.kinds[s] == "province")


def execute(ctx: Context, f: int, provinces_only: bool = False) -> None:
    ok = _allowed(ctx, provinces_only)
    adj = ctx.rules.board.adjacent
    reach = ctx.rules.decrees["campaign_range"]
    origins = tuple(
        [
            s
            for s in range(ctx.rules.board.n)
            if ok[s] and sum(_units(ctx, s)) and any(ok[a] for a in adj[s])
        ]
    )
    if not origins:
        return
    here = ctx.ask(f, "campaign_origin", origins)
    t, g = ctx.ask(f, "campaign_pickup", _pairs(*_units(ctx, here), True), here)
    _take(ctx, here, t, g)
    carried = [t, g]
    visited = {here}
    steps = 0
    while steps < reach and (carried[0] or carried[1]):
        nexts = tuple([a for a in adj[here] if ok[a] and a not in visited])
        options = nexts + ((STOP,) if steps else ())
        if not options:
            break
        step = ctx.ask(f, "campaign_step", options, here)
        if step == STOP:
            break
        here = step
        visited.add(here)
        steps += 1
        if steps == reach:
            break
        present = _units(ctx, here)
        dt, dg = ctx.ask(f, "campaign_drop", _pairs(carried[0], carried[1], False), here)
        _drop(ctx, here, dt, dg)
        carried[0] -= dt
        carried[1] -= dg
        pt, pg = ctx.ask(f, "campaign_pickup", _pairs(*present, False), here)
        _take(ctx, here, pt, pg)
        carried[0] += pt
        carried[1] += pg
    _drop(ctx, here, carried[0], carried[1])
