"""The ops of the event language (``shared/data/EVENTS_SCHEMA.md``, "schema" below), each
carried out "as much as possible" (2.3.4, schema 4.2); selectors and filters are in
``event_select``.

Every op acts through the engine primitives (``placement``, ``control``, ``tracks``,
``influence``, ``commands``, ``decrees``, ``commands.mongol``), which keep Control, the
Rebelling rule and the Influence slots settled after every change (schema 4.7). Every choice
is a Decision asked of the Faction that makes it (schema 4 "Who decides"), with options the
engine generated:

- ``event_space``: a space id (or ``"done"`` under ``up_to``) for a ``choose`` selector, or
  the next space to serve when too few pieces are Available for every listed space;
- ``event_count``: how many pieces to place under ``up_to``, or how many replacements to put
  in (``replace`` may decline them, 1.4.6); from the most to 0;
- ``event_pieces``: which pieces to remove or move from one space, as a tuple of
  ``(counter, n)`` pairs (n > 0), the largest totals first;
- ``event_choose``: the index of a ``choose`` op's option.

``op_possible`` answers "could this op take some effect now?"; it steers ``choose``
selectors (schema 5), ``choose`` ops (6.15) and the Event side offered (2.3.4).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from . import commands, decrees
from .commands import mongol as mongol_commands
from .context import Context
from .control import set_independent, set_tributary
from .datafiles import DataError
from .event_cards import (
    PYTHON_EFFECT_GROUP,
    CavalryOp,
    ChooseOp,
    ChooseSelector,
    EligibilityOp,
    FlipOp,
    FreeCommandOp,
    FreeDecreeOp,
    InfluenceOp,
    LastingOp,
    MongolOp,
    MoveOp,
    PlaceOp,
    PythonOp,
    RemoveOp,
    ReplaceOp,
    ResourcesOp,
    SetIndependentOp,
    SetTributaryOp,
)
from .event_select import (
    SpaceTest,
    can_hold,
    candidates,
    counters,
    decider,
    faction,
    has_any,
    place_counter,
    present_pieces,
    select,
    splits,
    take,
)
from .influence import shift
from .pieces import (
    AMIR_REB,
    COUNTER_OWNER,
    COUNTER_TYPE,
    FACTIONS,
    INDEX,
    NK,
    OB,
    RAJA_REB,
    REB,
    STRUCTURES,
)
from .placement import flip, move, place, remove
from .tracks import add_resources, gain_cavalry, lose_cavalry

Effect = Callable[[Context, int, dict], None]

# --- ops ---------------------------------------------------------------------------------


def _resources(ctx: Context, op: ResourcesOp, ex: int) -> None:
    """schema 6.1, rule 1.8."""
    add_resources(ctx, faction(op.faction, ex), op.amount)


def _resources_possible(ctx: Context, op: ResourcesOp, ex: int) -> bool:
    r = ctx.state.resources[faction(op.faction, ex)]
    return r < ctx.rules.resources_max if op.amount > 0 else r > 0


def _cavalry(ctx: Context, op: CavalryOp, ex: int) -> None:
    """schema 6.2, rule 1.10: gains from the pool, then from others (the executor picks)."""
    f = faction(op.faction, ex)
    if op.amount > 0:
        gain_cavalry(ctx, f, op.amount, chooser=ex)
    else:
        lose_cavalry(ctx, f, -op.amount)


def _cavalry_possible(ctx: Context, op: CavalryOp, ex: int) -> bool:
    st = ctx.state
    f = faction(op.faction, ex)
    if op.amount < 0:
        return st.cavalry[f] > 0
    return st.pool > 0 or any(st.cavalry[g] for g in FACTIONS if g != f)


def _influence(ctx: Context, op: InfluenceOp, ex: int) -> None:
    """schema 6.3, rule 1.9 (slots released or refilled by ``influence.shift``)."""
    shift(ctx, INDEX[op.faction], op.shift)


def _influence_possible(ctx: Context, op: InfluenceOp, ex: int) -> bool:
    v = ctx.state.influence[INDEX[op.faction]]
    return v < ctx.rules.influence_max if op.shift > 0 else v > 0


def _place_tests(ctx: Context, op: PlaceOp, ex: int) -> tuple[SpaceTest, SpaceTest]:
    f = faction(op.faction, ex)
    c = place_counter(f, op.piece, op.state)
    pt = COUNTER_TYPE[c]
    st = ctx.state
    structure = c in STRUCTURES

    def allowed(s: int) -> bool:
        return can_hold(ctx, s, c)

    def useful(s: int) -> bool:
        return st.avail[pt] > 0 and not (structure and st.pieces[s * NK + c])

    return allowed, useful


def _place(ctx: Context, op: PlaceOp, ex: int) -> None:
    """schema 6.4, rules 1.4.3, 1.4.4, 1.4.6: ``count`` in each space, from Available only."""
    f = faction(op.faction, ex)
    c = place_counter(f, op.piece, op.state)
    pt = COUNTER_TYPE[c]
    st = ctx.state
    allowed, useful = _place_tests(ctx, op, ex)
    spaces = select(ctx, op.where, ex, allowed, useful, "place")
    who = decider(op.where, ex)

    def room(s: int) -> int:
        return min(op.count, 1 - st.pieces[s * NK + c]) if c in STRUCTURES else op.count

    left = [s for s in spaces if room(s) > 0]
    while left and st.avail[pt] > 0:
        s = left[0]
        if len(left) > 1 and st.avail[pt] < sum([room(x) for x in left]):
            s = ctx.ask(who, "event_space", tuple(left), "place")  # too few for all: which first
        left.remove(s)
        n = min(room(s), st.avail[pt])
        if op.up_to:
            n = ctx.ask(who, "event_count", tuple(range(n, -1, -1)), (s, "place"))
        place(ctx, s, c, n)


def _remove_tests(ctx: Context, op: RemoveOp, ex: int) -> tuple[SpaceTest, SpaceTest]:
    cs = counters(faction(op.faction, ex), op.piece)

    def allowed(s: int) -> bool:
        return any(can_hold(ctx, s, c) for c in cs)

    def useful(s: int) -> bool:
        return has_any(ctx, s, cs)

    return allowed, useful


def _remove(ctx: Context, op: RemoveOp, ex: int) -> None:
    """schema 6.5, rule 1.4.3: up to ``count`` from each space, back to Available."""
    cs = counters(faction(op.faction, ex), op.piece)
    allowed, useful = _remove_tests(ctx, op, ex)
    who = decider(op.where, ex)
    for s in select(ctx, op.where, ex, allowed, useful, "remove"):
        for c, n in take(ctx, who, s, cs, op.count, op.up_to, "remove"):
            remove(ctx, s, c, n)


def _replace_tests(ctx: Context, op: ReplaceOp, ex: int) -> tuple[SpaceTest, SpaceTest]:
    cs = counters(faction(op.remove.faction, ex), op.remove.piece)

    def allowed(s: int) -> bool:
        return any(can_hold(ctx, s, c) for c in cs)

    def useful(s: int) -> bool:
        return has_any(ctx, s, cs)

    return allowed, useful


def _replace(ctx: Context, op: ReplaceOp, ex: int) -> None:
    """schema 6.6, rule 1.4.6: remove up to ``count`` (as many as are there), then put in one
    replacement per piece removed, Available, stacking and location permitting; the decider
    may decline replacements."""
    st = ctx.state
    cs = counters(faction(op.remove.faction, ex), op.remove.piece)
    pc = place_counter(faction(op.place.faction, ex), op.place.piece, op.place.state)
    pt = COUNTER_TYPE[pc]
    allowed, useful = _replace_tests(ctx, op, ex)
    who = decider(op.where, ex)
    for s in select(ctx, op.where, ex, allowed, useful, "replace"):
        taken = take(ctx, who, s, cs, op.count, False, "replace")
        k = sum([remove(ctx, s, c, n) for c, n in taken])
        if not can_hold(ctx, s, pc):
            continue
        if pc in STRUCTURES:
            k = min(k, 1 - st.pieces[s * NK + pc])
        k = min(k, st.avail[pt])
        if k > 0:
            k = ctx.ask(who, "event_count", tuple(range(k, -1, -1)), (s, "replace"))
            place(ctx, s, pc, k)


def _move_tests(ctx: Context, op: MoveOp, ex: int) -> tuple[SpaceTest, SpaceTest]:
    """allowed (either end) and useful source."""
    cs = counters(faction(op.faction, ex), op.piece)

    def allowed(s: int) -> bool:
        return can_hold(ctx, s, cs[0])

    def source(s: int) -> bool:
        return has_any(ctx, s, cs)

    return allowed, source


def _move(ctx: Context, op: MoveOp, ex: int) -> None:
    """schema 6.7: a total of ``count`` Units from the ``from`` spaces into the one ``to``
    space; entering a Tributary Province makes Amirs and Rajas Obedient (3.3.2, 3.4.2), their
    own Controlled Province Rebelling (1.4.5, by ``placement``). A ``from`` chooser decides
    the whole move, the destination too unless ``to`` names its own chooser."""
    st = ctx.state
    cs = counters(faction(op.faction, ex), op.piece)
    allowed, source = _move_tests(ctx, op, ex)
    who = decider(op.from_, ex)
    srcs = select(ctx, op.from_, ex, allowed, source, "move_from")
    to_sel = op.to
    to_who = None
    if isinstance(to_sel, ChooseSelector) and "chooser" not in to_sel.model_fields_set:
        to_who = who

    def reaches(t: int) -> bool:
        return any(s != t and source(s) for s in srcs)

    dsts = select(ctx, to_sel, ex, allowed, reaches, "move_to", chooser=to_who)
    if not dsts:
        return
    dst = dsts[0]
    movable = tuple([c for c in cs if can_hold(ctx, dst, c)])
    srcs = [s for s in srcs if s != dst and has_any(ctx, s, movable)]
    present = [sum([n for _, n in present_pieces(ctx, s, movable)]) for s in srcs]
    left = min(op.count, sum(present))
    for i, s in enumerate(srcs):
        if left <= 0:
            break
        have = present_pieces(ctx, s, movable)
        hi = min(left, present[i])
        lo = 0 if op.up_to else max(0, left - sum(present[i + 1 :]))
        taken = ctx.ask(who, "event_pieces", splits(have, lo, hi), (s, dst))
        for c, n in taken:
            to_c = OB[COUNTER_OWNER[c]] if c in (AMIR_REB, RAJA_REB) and st.tributary[dst] else None
            left -= move(ctx, s, dst, c, n, to_c)


def _flip_counters(op: FlipOp) -> tuple[int, int, int]:
    f = INDEX[op.faction]
    return (f, OB[f], REB[f]) if op.to == "rebelling" else (f, REB[f], OB[f])


def _flip_tests(ctx: Context, op: FlipOp, ex: int) -> tuple[SpaceTest, SpaceTest]:
    f, src, _ = _flip_counters(op)
    st = ctx.state
    board = ctx.rules.board

    def allowed(s: int) -> bool:
        return board.is_province[s]

    def useful(s: int) -> bool:
        # Units in their own Faction's Controlled Province cannot become Obedient (1.4.5)
        return st.pieces[s * NK + src] > 0 and (op.to == "rebelling" or st.control[s] != f)

    return allowed, useful


def _flip(ctx: Context, op: FlipOp, ex: int) -> None:
    """schema 6.8, rule 1.4.5: every Amir or Raja there to the given side."""
    _, src, dst = _flip_counters(op)
    allowed, useful = _flip_tests(ctx, op, ex)
    for s in select(ctx, op.where, ex, allowed, useful, "flip"):
        flip(ctx, s, src, dst)


def _tributary_tests(ctx: Context, want: bool) -> tuple[SpaceTest, SpaceTest]:
    st = ctx.state
    board = ctx.rules.board

    def allowed(s: int) -> bool:
        return board.is_province[s]

    def useful(s: int) -> bool:
        return st.tributary[s] == want

    return allowed, useful


def _set_tributary(ctx: Context, op: SetTributaryOp, ex: int) -> None:
    """schema 6.9, rule 1.6: Independent Provinces become Tributary; Rebels turn Obedient."""
    allowed, useful = _tributary_tests(ctx, False)
    for s in select(ctx, op.where, ex, allowed, useful, "set_tributary"):
        if not ctx.state.tributary[s]:
            set_tributary(ctx.state, s)


def _set_independent(ctx: Context, op: SetIndependentOp, ex: int) -> None:
    """schema 6.10, rules 1.6, 1.7, 2.7.1: remove the Tributary marker (even under Khalji,
    even under ``no_rebel``); Control is recomputed and its Units flip to Rebelling."""
    allowed, useful = _tributary_tests(ctx, True)
    for s in select(ctx, op.where, ex, allowed, useful, "set_independent"):
        if ctx.state.tributary[s]:
            set_independent(ctx.state, s)


def _command_spaces(ctx: Context, f: int, name: str, limited: bool) -> set[int]:
    """Spaces the Command could select now (3.1.1), for a ``where`` choice."""
    run = commands.CommandRun(name, ctx.rules.board.n, True, limited, None)
    return set(commands.MODULES[name].spaces(ctx, f, run))


def _command_tests(ctx: Context, op: FreeCommandOp) -> tuple[SpaceTest, SpaceTest]:
    f = INDEX[op.faction]
    board = ctx.rules.board
    can = _command_spaces(ctx, f, op.command, op.limited)

    def allowed(s: int) -> bool:
        return f == INDEX["DS"] or board.is_province[s]  # 3.1.1

    def useful(s: int) -> bool:
        return s in can

    return allowed, useful


def _free_command(ctx: Context, op: FreeCommandOp, ex: int) -> None:
    """schema 6.11, rules 3.1.3, 2.3.5, 2.7.1: the named Faction executes the Command, free,
    deciding all its details; it may select zero spaces. A Rebel granted here is allowed under
    the Khalji Dynasty, never under ``no_rebel``."""
    f = INDEX[op.faction]
    if op.command == "rebel" and not commands.rebel_allowed(ctx, f, granted=True):
        return
    where = None
    if op.where is not None:
        allowed, useful = _command_tests(ctx, op)
        where = frozenset(select(ctx, op.where, ex, allowed, useful, op.command))
        if not where:
            return
    commands.execute(
        ctx,
        f,
        op.command,
        limited=op.limited,
        free=True,
        where=where,
        optional=True,
        granted_rebel=True,
    )


def _free_command_possible(ctx: Context, op: FreeCommandOp, ex: int) -> bool:
    f = INDEX[op.faction]
    if op.command == "rebel" and not commands.rebel_allowed(ctx, f, granted=True):
        return False
    allowed, useful = _command_tests(ctx, op)
    if op.where is None:
        return any(useful(s) for s in range(ctx.rules.board.n))
    return any(useful(s) for s in candidates(ctx, op.where, ex, allowed))


def _free_decree(ctx: Context, op: FreeDecreeOp, ex: int) -> None:
    """schema 6.12, rule 4.x: one Decree by the named Faction; nothing if it is not possible."""
    f = INDEX[op.faction]
    module = decrees.MODULES[op.decree]
    if module.possible(ctx, f):
        module.execute(ctx, f)


def _free_decree_possible(ctx: Context, op: FreeDecreeOp, ex: int) -> bool:
    return decrees.MODULES[op.decree].possible(ctx, INDEX[op.faction])


def _eligibility(ctx: Context, op: EligibilityOp, ex: int) -> None:
    """schema 6.13, rule 2.3.7: the Faction's box at this card's Adjust Eligibility; last wins."""
    ctx.state.elig_next[faction(op.faction, ex)] = 1 if op.set == "eligible" else 0


def _mongol(ctx: Context, op: MongolOp, ex: int) -> None:
    """schema 6.14, rule 3.5: one Mongol Command, the chooser deciding; no Compromising Gifts."""
    if op.command in mongol_commands.available(ctx):
        mongol_commands.execute(ctx, faction(op.chooser, ex), op.command)


def _mongol_possible(ctx: Context, op: MongolOp, ex: int) -> bool:
    return op.command in mongol_commands.available(ctx)


def _choose(ctx: Context, op: ChooseOp, ex: int) -> None:
    """schema 6.15: the chooser picks one option (one that can take effect, if any can); its
    ops then run with the usual deciders."""
    offered = tuple([i for i, ops in enumerate(op.options) if effects_possible(ctx, ops, ex)])
    i = ctx.ask(
        faction(op.chooser, ex), "event_choose", offered or tuple(range(len(op.options))), "choose"
    )
    run_effects(ctx, op.options[i], ex)


def _choose_possible(ctx: Context, op: ChooseOp, ex: int) -> bool:
    return any(effects_possible(ctx, ops, ex) for ops in op.options)


def _lasting(ctx: Context, op: LastingOp, ex: int) -> None:
    """schema 6.16: start a modifier per Faction; a second copy does not stack, it only
    extends ``next_succession`` to ``game_end``."""
    st = ctx.state
    entries = list(st.lasting)
    for name in op.factions:
        f = INDEX[name]
        for i, (m, g, until) in enumerate(entries):
            if m == op.modifier and g == f:
                if until != "game_end" and op.until == "game_end":
                    entries[i] = (m, g, "game_end")
                break
        else:
            entries.append((op.modifier, f, op.until))
    st.lasting = tuple(entries)


def _lasting_possible(ctx: Context, op: LastingOp, ex: int) -> bool:
    in_force = {(m, g): until for m, g, until in ctx.state.lasting if m == op.modifier}
    for name in op.factions:
        until = in_force.get((op.modifier, INDEX[name]))
        if until is None or (until != "game_end" and op.until == "game_end"):
            return True
    return False


def _python(ctx: Context, op: PythonOp, ex: int) -> None:
    """The escape hatch: a registered effect ``(ctx, executor, params) -> None``."""
    resolve_effect(op.effect)(ctx, ex, dict(op.params))


def _with_selector(tests: Callable, attr: str = "where") -> Callable[[Context, Any, int], bool]:
    def possible(ctx: Context, op: Any, ex: int) -> bool:
        allowed, useful = tests(ctx, op, ex)[:2]
        return any(useful(s) for s in candidates(ctx, getattr(op, attr), ex, allowed))

    return possible


def _move_possible(ctx: Context, op: MoveOp, ex: int) -> bool:
    allowed, source = _move_tests(ctx, op, ex)
    srcs = [s for s in candidates(ctx, op.from_, ex, allowed) if source(s)]
    return any(s != t for t in candidates(ctx, op.to, ex, allowed) for s in srcs)


_RUN: dict[type, Callable[[Context, Any, int], None]] = {
    ResourcesOp: _resources,
    CavalryOp: _cavalry,
    InfluenceOp: _influence,
    PlaceOp: _place,
    RemoveOp: _remove,
    ReplaceOp: _replace,
    MoveOp: _move,
    FlipOp: _flip,
    SetTributaryOp: _set_tributary,
    SetIndependentOp: _set_independent,
    FreeCommandOp: _free_command,
    FreeDecreeOp: _free_decree,
    EligibilityOp: _eligibility,
    MongolOp: _mongol,
    ChooseOp: _choose,
    LastingOp: _lasting,
    PythonOp: _python,
}

_POSSIBLE: dict[type, Callable[[Context, Any, int], bool]] = {
    ResourcesOp: _resources_possible,
    CavalryOp: _cavalry_possible,
    InfluenceOp: _influence_possible,
    PlaceOp: _with_selector(_place_tests),
    RemoveOp: _with_selector(_remove_tests),
    ReplaceOp: _with_selector(_replace_tests),
    MoveOp: _move_possible,
    FlipOp: _with_selector(_flip_tests),
    SetTributaryOp: _with_selector(lambda ctx, op, ex: _tributary_tests(ctx, False)),
    SetIndependentOp: _with_selector(lambda ctx, op, ex: _tributary_tests(ctx, True)),
    FreeCommandOp: _free_command_possible,
    FreeDecreeOp: _free_decree_possible,
    EligibilityOp: lambda ctx, op, ex: True,
    MongolOp: _mongol_possible,
    ChooseOp: _choose_possible,
    LastingOp: _lasting_possible,
    PythonOp: lambda ctx, op, ex: True,  # opaque: assumed able to act
}


def run_op(ctx: Context, op: Any, executor: int) -> None:
    """Carry out one op, as much as possible (2.3.4, schema 4.2)."""
    _RUN[type(op)](ctx, op, executor)


def run_effects(ctx: Context, ops: tuple, executor: int) -> None:
    """Carry out an effects list in order; each op finishes, housekeeping included, before the
    next starts (schema 4.1, 4.7)."""
    for op in ops:
        _RUN[type(op)](ctx, op, executor)


def op_possible(ctx: Context, op: Any, executor: int) -> bool:
    """Whether the op could take some effect in the current state."""
    return _POSSIBLE[type(op)](ctx, op, executor)


def effects_possible(ctx: Context, ops: tuple, executor: int) -> bool:
    """Whether at least one op of the list could take some effect now."""
    return any(_POSSIBLE[type(op)](ctx, op, executor) for op in ops)


# --- the python escape hatch ---------------------------------------------------------------

_REGISTRY: dict[str, Effect] = {}


def register_effect(name: str, fn: Effect) -> None:
    """Register a Python effect under ``name`` without an entry point (tests, notebooks)."""
    _REGISTRY[name] = fn


def unregister_effect(name: str) -> None:
    """Forget an effect registered with ``register_effect``."""
    _REGISTRY.pop(name, None)


@cache
def _entry_points() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=PYTHON_EFFECT_GROUP)}


def resolve_effect(name: str, where: str = "") -> Effect:
    """The callable registered as ``name`` (``register_effect`` first, then the entry-point
    group ``vijayanagara_sim.events``); a one-line DataError if there is none."""
    fn = _REGISTRY.get(name)
    if fn is None:
        ep = _entry_points().get(name)
        if ep is not None:
            fn = ep.load()
            _REGISTRY[name] = fn
    if fn is None or not callable(fn):
        prefix = f"{where}: " if where else ""
        raise DataError(
            f"{prefix}python effect {name!r} is not registered "
            f"(entry-point group {PYTHON_EFFECT_GROUP!r})"
        )
    return fn
