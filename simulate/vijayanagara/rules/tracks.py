"""Resources (1.8) and Cavalry tokens (1.10)."""

from __future__ import annotations

from .context import Context
from .pieces import FACTIONS


def add_resources(ctx: Context, f: int, amount: int, floor: int = 0) -> None:
    """Change a Faction's Resources, kept within ``floor``..24 (1.8); a loss never raises them."""
    st = ctx.state
    value = st.resources[f] + amount
    if amount < 0:
        value = max(value, min(floor, st.resources[f]))
    st.resources[f] = max(0, min(ctx.rules.resources_max, value))


def gain_cavalry(ctx: Context, f: int, n: int, chooser: int | None = None) -> int:
    """Take ``n`` tokens from the pool, or from other Factions when it is empty (1.10).
    ``chooser`` (default the gaining Faction) picks whom to take from. Returns the gain."""
    st = ctx.state
    got = 0
    for _ in range(n):
        if st.pool > 0:
            st.pool -= 1
        else:
            holders = tuple([g for g in FACTIONS if g != f and st.cavalry[g] > 0])
            if not holders:
                break
            # 1.10: a token "may be taken" from another Faction; taking none is allowed
            victim = ctx.ask(
                f if chooser is None else chooser, "cavalry_from", (*holders, "none"), "1.10"
            )
            if victim == "none":
                break
            st.cavalry[victim] -= 1
        st.cavalry[f] += 1
        got += 1
    return got


def lose_cavalry(ctx: Context, f: int, n: int) -> None:
    """Return up to ``n`` of a Faction's tokens to the pool (1.10)."""
    st = ctx.state
    k = min(n, st.cavalry[f])
    st.cavalry[f] -= k
    st.pool += k
