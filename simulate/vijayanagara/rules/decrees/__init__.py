"""Decrees (4.0): one module per Decree, each with ``possible(ctx, f)`` and ``execute(ctx, f)``."""

from __future__ import annotations

from ..context import Context
from ..pieces import NAMES
from . import build, campaign, compel, conspire, demand_obedience, tax, trade, tribute

MODULES = {
    "collect_tribute": tribute,
    "campaign": campaign,
    "demand_obedience": demand_obedience,
    "trade": trade,
    "build": build,
    "conspire": conspire,
    "tax": tax,
    "compel": compel,
}


def available_decrees(ctx: Context, f: int) -> list[str]:
    """The Faction's Decrees that can do something now (4.1)."""
    return [d for d in ctx.rules.factions[NAMES[f]]["decrees"] if MODULES[d].possible(ctx, f)]


def execute(ctx: Context, f: int, name: str) -> None:
    MODULES[name].execute(ctx, f)
