"""Demand Obedience (4.2.3): Sultanate-Controlled Provinces with a Governor become Tributary;
Rebelling Units there flip Obedient; gain their Prosperity in Resources."""

from __future__ import annotations

from ..context import Context
from ..control import set_tributary
from ..decisions import DONE
from ..pieces import DS, GOVERNOR
from ..tracks import add_resources


def _targets(ctx: Context) -> list[int]:
    st = ctx.state
    return [s for s in ctx.rules.board.provinces if st.control[s] == DS and st.count(s, GOVERNOR)]


def possible(ctx: Context, f: int) -> bool:
    return bool(_targets(ctx))


def execute(ctx: Context, f: int) -> None:
    chosen = 0
    while True:
        targets = _targets(ctx)
        if not targets:
            return
        s = ctx.ask(f, "demand_obedience", tuple(targets) + ((DONE,) if chosen else ()))
        if s == DONE:
            return
        set_tributary(ctx.state, s)
        add_resources(ctx, f, ctx.rules.board.prosperity[s])
        chosen += 1
