"""Collect Tribute (4.2.1): Resources equal to half the Tributary Prosperity, and two Cavalry."""

from __future__ import annotations

from ..context import Context
from ..tracks import add_resources, gain_cavalry


def tributary_prosperity(ctx: Context) -> int:
    st = ctx.state
    pr = ctx.rules.board.prosperity
    return sum([pr[s] for s in ctx.rules.board.provinces if st.tributary[s]])


def possible(ctx: Context, f: int) -> bool:
    return True


def execute(ctx: Context, f: int) -> None:
    add_resources(ctx, f, tributary_prosperity(ctx) // 2)
    gain_cavalry(ctx, f, ctx.rules.decrees["collect_tribute_cavalry"])
