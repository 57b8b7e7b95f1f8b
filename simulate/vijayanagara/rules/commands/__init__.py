"""Commands (3.0): the shared driver that selects spaces, pays, and resolves each space.

Each Command module provides ``spaces(ctx, f, run)`` (where it could act now) and
``resolve(ctx, f, s, run)`` (what it does in one selected space).
"""

from __future__ import annotations

from ..context import Context
from ..decisions import DONE
from ..pieces import AMIR_OB, NAMES, NK, RAJA_OB
from ..state import TUGHLAQ
from . import attack, conscript, govern, march, migrate, rally, rebel

_OB = (AMIR_OB, RAJA_OB)

MODULES = {
    "conscript": conscript,
    "march": march,
    "govern": govern,
    "attack": attack,
    "rally": rally,
    "migrate": migrate,
    "rebel": rebel,
}


class CommandRun:
    """Bookkeeping of one Command: spaces selected once (3.1.1), pieces used once (3.1.2)."""

    __slots__ = ("name", "free", "limited", "selected", "used", "n", "shifted", "where", "masks")

    def __init__(
        self, name: str, n_spaces: int, free: bool, limited: bool, where: frozenset | None
    ) -> None:
        self.name = name
        self.free = free
        self.limited = limited
        self.selected: list[int] = []
        self.used: list[int] | None = None  # Units moved or in an attack, by space x counter
        self.n = n_spaces
        self.masks: dict = {}  # ready_mask results while nothing is used (the board is unchanged)
        self.shifted = False  # Migrate's one Influence shift (3.3.2, 3.4.2)
        self.where = where  # spaces an Event allows, or None

    def use(self, s: int, counter: int, n: int) -> None:
        """Mark ``n`` Units as used by this Command (3.1.2); a negative ``n`` releases them."""
        self.masks.clear()
        if self.used is None:
            self.used = [0] * (self.n * NK)
        i = s * NK + counter
        self.used[i] = max(0, self.used[i] + n)

    def ready_mask(self, st, spaces, c1: int, c2: int, struct: int = -1) -> int:
        """Bitmask of ``spaces`` holding an unused Unit of counter c1 or c2 (and, if given, the
        Structure ``struct``): where Units can still move or fight."""
        p = st.pieces
        mask = 0
        if self.used is None:  # nothing used yet: a plain scan of the board, shared by Commands
            key = (len(spaces), c1, struct)
            cached = self.masks.get(key)
            if cached is not None:
                return cached
            for s in spaces:
                b = s * NK
                if (p[b + c1] or p[b + c2]) and (struct < 0 or p[b + struct]):
                    mask |= 1 << s
            self.masks[key] = mask
            return mask
        for s in spaces:
            if (struct < 0 or p[s * NK + struct]) and (
                self.movable(st, s, c1) or self.movable(st, s, c2)
            ):
                mask |= 1 << s
        return mask

    def movable(self, st, s: int, counter: int) -> int:
        """Units of that counter in ``s`` not yet used by this Command."""
        i = s * NK + counter
        used = self.used
        if used is None:
            return st.pieces[i]
        if counter >= AMIR_OB:
            ob = i if counter in _OB else i - 1
            if used[ob] and not st.pieces[ob]:
                # every Obedient Unit here flipped to Rebelling (1.4.5): their use went with them
                used[ob + 1] += used[ob]
                used[ob] = 0
        v = st.pieces[i] - used[i]
        return v if v > 0 else 0


def rebel_allowed(ctx: Context, f: int, granted: bool = False) -> bool:
    """Rebel only under the Tughlaq Dynasty (2.7) unless an Event grants it, never under no_rebel."""
    st = ctx.state
    if st.has_lasting("no_rebel", f):
        return False
    return granted or st.dynasty == TUGHLAQ


def candidate_spaces(ctx: Context, f: int, run: CommandRun) -> list[int]:
    """Spaces the Command could still select now (3.1.1)."""
    selected, where = run.selected, run.where
    found = MODULES[run.name].spaces(ctx, f, run)
    if not selected and where is None:
        return found
    return [s for s in found if s not in selected and (where is None or s in where)]


def max_spaces(ctx: Context, limited: bool) -> int:
    """One space for a Limited Command (2.3.5), or under Timur's Shadow after the first
    Timurid card (5.5 optional rule); otherwise any number."""
    if limited or (ctx.rules.timurs_shadow and ctx.state.timurid >= 1):
        return 1
    return 99


def available_commands(
    ctx: Context,
    f: int,
    free: bool = False,
    granted_rebel: bool = False,
    where: frozenset | None = None,
    first: bool = False,
) -> list[str]:
    """The Faction's Commands that could select at least one space now (with ``first``: only
    the first found, enough to know whether any Command is possible)."""
    if not free and ctx.state.resources[f] < 1:
        return []
    out = []
    run = CommandRun("", ctx.rules.board.n, free, False, where)
    for name in ctx.rules.factions[NAMES[f]]["commands"]:
        if name == "rebel" and not rebel_allowed(ctx, f, granted_rebel):
            continue
        run.name = name
        found = (
            MODULES[name].spaces(ctx, f, run) if where is None else candidate_spaces(ctx, f, run)
        )
        if found:
            out.append(name)
            if first:
                break
    return out


def execute(
    ctx: Context,
    f: int,
    name: str,
    limited: bool = False,
    free: bool = False,
    where: frozenset | None = None,
    optional: bool = False,
    granted_rebel: bool = False,
) -> int:
    """Carry out Command ``name``: select spaces one at a time, paying 1 Resource each unless
    free (3.1.3), and resolve each. Returns the number of spaces selected."""
    st = ctx.state
    if name == "rebel" and not rebel_allowed(ctx, f, granted_rebel):
        return 0  # 2.7.1: no Rebel under the Khalji Dynasty unless an Event grants it
    run = CommandRun(name, ctx.rules.board.n, free, limited, where)
    cap = max_spaces(ctx, limited)
    module = MODULES[name]
    while len(run.selected) < cap:
        if not free and st.resources[f] < 1:
            break
        spaces = candidate_spaces(ctx, f, run)
        if not spaces:
            break
        options = tuple(spaces) + ((DONE,) if run.selected or optional else ())
        s = ctx.ask(f, "space", options, name)
        if s == DONE:
            break
        run.selected.append(s)
        if not free:
            st.resources[f] -= 1
        module.resolve(ctx, f, s, run)
        run.masks.clear()  # the board has changed
    return len(run.selected)
