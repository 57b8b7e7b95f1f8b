"""Conspire (4.3.3): in up to two Provinces with a Bahmani piece, replace a Governor with an
Amir; Influential (Influence >= 2): Governors or Rajas, in or adjacent to such Provinces."""

from __future__ import annotations

from ..context import Context
from ..decisions import DONE
from ..pieces import AMIR_OB, AMIR_REB, GOVERNOR, NK, PIECES_OF, PT_AMIR, RAJA_OB, RAJA_REB
from ..placement import place, remove


def _targets(ctx: Context, f: int) -> list[tuple[int, int]]:
    st = ctx.state
    p = st.pieces
    board = ctx.rules.board
    mine = [s for s in board.provinces if any(p[s * NK + c] for c in PIECES_OF[f])]
    influential = st.influence[f] >= ctx.rules.decrees["conspire_influential"]
    area = set(mine)
    if influential:
        for s in mine:
            area.update(a for a in board.adjacent[s] if board.kinds[a] == "province")
    counters = (GOVERNOR, RAJA_OB, RAJA_REB) if influential else (GOVERNOR,)
    return [(s, c) for s in sorted(area) for c in counters if p[s * NK + c]]


def possible(ctx: Context, f: int) -> bool:
    return bool(_targets(ctx, f))


def execute(ctx: Context, f: int) -> None:
    done: list[int] = []
    while len(done) < 2:
        targets = [t for t in _targets(ctx, f) if t[0] not in done]
        if not targets:
            return
        choice = ctx.ask(f, "conspire_target", tuple(targets) + ((DONE,) if done else ()))
        if choice == DONE:
            return
        s, c = choice
        if ctx.state.avail[PT_AMIR]:
            # Rebelling Rajas become Rebelling Amirs; otherwise either state (1.4.6: or none)
            states = ("rebelling", "none") if c == RAJA_REB else ("obedient", "rebelling", "none")
        else:
            states = ("none",)
        state = ctx.ask(f, "conspire_amir", states, s)
        remove(ctx, s, c, 1)
        if state != "none":
            place(ctx, s, AMIR_REB if state == "rebelling" else AMIR_OB, 1)
        done.append(s)
