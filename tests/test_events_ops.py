"""The event-language interpreter, op by op, on small boards (``shared/data/EVENTS_SCHEMA.md``,
cited as "schema N"; rule numbers are the Rules of Play).

Each test builds a cleared board (``empty_state`` + ``put``), runs one op (or a short effects
list) with ``event_ops.run_op`` and checks the result, the Decisions asked, and the board
invariants (schema 4.7 housekeeping is done by the primitives after every op)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from conftest import Scripted, empty_state, make_ctx, put, sid
from pydantic import TypeAdapter

from simulate.vijayanagara.rules import event_ops, event_select, events, invariants, succession
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.control import set_independent
from simulate.vijayanagara.rules.datafiles import DataError
from simulate.vijayanagara.rules.event_cards import Filter, Op
from simulate.vijayanagara.rules.event_deck import validate_deck_dict
from simulate.vijayanagara.rules.state import TUGHLAQ

DS, BK, VE = P.DS, P.BK, P.VE
EVENTS_YAML = (
    Path(__file__).resolve().parent.parent / "simulate" / "vijayanagara" / "data" / "events.yaml"
)
_OP = TypeAdapter(Op)


# --- helpers -----------------------------------------------------------------------------


def spaces_of(rules) -> dict[str, str]:
    return dict(zip(rules.board.names, rules.board.kinds, strict=True))


def op(rules, text: str):
    """One op from its YAML text, as the deck loader types it."""
    return _OP.validate_python(yaml.safe_load(text), context={"spaces": spaces_of(rules)})


def plan(**by_kind) -> Scripted:
    """A strategy answering by Decision kind: a list (in order), a callable, or a constant;
    the first option otherwise."""
    queues = {k: list(v) for k, v in by_kind.items() if isinstance(v, list)}

    def pick(d):
        if d.kind in queues and queues[d.kind]:
            return queues[d.kind].pop(0)
        answer = by_kind.get(d.kind)
        if callable(answer):
            return answer(d)
        if answer is not None and not isinstance(answer, list):
            return answer
        return d.options[0]

    return Scripted(pick)


def asked(agent: Scripted, kind: str) -> list:
    return [d for d in agent.asked if d.kind == kind]


def count(ctx, space: str, counter: str) -> int:
    return ctx.state.count(sid(ctx, space), P.COUNTER_NAMES.index(counter))


def board(rules, **agents):
    """A cleared board (all Provinces Tributary, everything Available) and its Context."""
    return make_ctx(rules, empty_state(rules), **agents)


def independent(ctx, *names: str) -> None:
    for name in names:
        set_independent(ctx.state, sid(ctx, name))


def run(ctx, text: str, executor: int = DS) -> None:
    event_ops.run_op(ctx, op(ctx.rules, text), executor)
    invariants.check(ctx.state, ctx.rules)


# --- selectors (schema 5) ----------------------------------------------------------------


def test_space_selector_yields_that_one_space(rules):
    # schema 5 {space: NAME}; schema 6.4 count per space
    ctx = board(rules)
    run(ctx, "{op: place, faction: DS, piece: troop, count: 2, where: {space: Malwa}}")
    assert count(ctx, "Malwa", "troop") == 2
    assert sum(ctx.state.pieces[P.TROOP :: P.NK]) == 2


def test_spaces_selector_yields_each_listed_space(rules):
    # schema 5 {spaces: [...]}
    ctx = board(rules)
    run(
        ctx,
        "{op: place, faction: VE, piece: raja, count: 1, where: {spaces: [Karnataka, Tamilakam]}}",
        VE,
    )
    assert count(ctx, "Karnataka", "raja") == count(ctx, "Tamilakam", "raja") == 1


def test_choose_picks_exactly_n_among_spaces_where_the_op_takes_effect(rules):
    # schema 5: with up_to false the chooser picks N spaces where the op can do something
    ds = plan(event_space=lambda d: d.options[-1])
    ctx = board(rules, DS=ds)
    for name in ("Sindh", "Gujarat", "Malwa"):
        put(ctx, name, troop=1)
    run(ctx, "{op: remove, faction: DS, piece: troop, count: 1, where: {choose: 2}}")
    first, second = asked(ds, "event_space")
    assert first.options == (sid(ctx, "Sindh"), sid(ctx, "Gujarat"), sid(ctx, "Malwa"))
    assert second.options == (sid(ctx, "Sindh"), sid(ctx, "Gujarat"))
    assert [count(ctx, n, "troop") for n in ("Sindh", "Gujarat", "Malwa")] == [1, 0, 0]


def test_choose_with_fewer_useful_candidates_than_n_takes_them_all_without_asking(rules):
    # schema 5 "pick exactly N, or every candidate if there are fewer"
    ds = plan()
    ctx = board(rules, DS=ds)
    put(ctx, "Gujarat", troop=2)
    run(ctx, "{op: remove, faction: DS, piece: troop, count: 1, where: {choose: 3}}")
    assert count(ctx, "Gujarat", "troop") == 1
    assert not asked(ds, "event_space")


def test_choose_up_to_may_pick_no_space(rules):
    # schema 5 up_to: any number from 0 to N ("done" ends the picking)
    bk = plan(event_space="done")
    ctx = board(rules, BK=bk)
    run(ctx, "{op: place, faction: BK, piece: amir, count: 1, where: {choose: 2, up_to: true}}", BK)
    assert asked(bk, "event_space")[0].options[-1] == "done"
    assert ctx.state.avail[P.PT_AMIR] == rules.totals[P.PT_AMIR]


def test_choose_kind_space_offers_non_provinces(rules):
    # schema 5 kind: space covers all 15 map spaces, province only the 12 Provinces
    ds = plan(event_space=lambda d: d.options[0])
    ctx = board(rules, DS=ds)
    put(ctx, "Delhi", troop=2)
    put(ctx, "Sindh", troop=2)
    run(ctx, "{op: remove, faction: DS, piece: troop, count: 2, where: {choose: 1, kind: space}}")
    assert asked(ds, "event_space")[0].options == (sid(ctx, "Delhi"), sid(ctx, "Sindh"))
    assert count(ctx, "Delhi", "troop") == 0
    ctx2 = board(rules)
    put(ctx2, "Delhi", troop=2)
    run(ctx2, "{op: remove, faction: DS, piece: troop, count: 2, where: {choose: 1}}")
    assert count(ctx2, "Delhi", "troop") == 2  # kind province: Delhi is no candidate


def test_candidates_exclude_spaces_where_the_piece_can_never_be(rules):
    # schema 5 + 4.5: Mongol Invaders only in Delhi, Mountain Passes, Punjab (1.3.2)
    ds = plan()
    ctx = board(rules, DS=ds)
    run(ctx, "{op: place, faction: MI, piece: mongol, count: 1, where: {choose: 1, kind: space}}")
    names = [rules.board.names[s] for s in asked(ds, "event_space")[0].options]
    assert names == ["Delhi", "Mountain Passes", "Punjab"]
    assert count(ctx, "Delhi", "mongol") == 1


def test_a_named_chooser_picks_the_spaces_and_every_decision_there(rules):
    # schema 4.4: the chooser of a choose selector decides the spaces and the pieces
    ds, bk = plan(), plan()
    ctx = board(rules, DS=ds, BK=bk)
    put(ctx, "Malwa", troop=1, governor=1)
    put(ctx, "Jaunpur", troop=1)
    run(
        ctx, "{op: remove, faction: DS, piece: unit, count: 1, where: {choose: 1, chooser: DS}}", BK
    )
    assert asked(ds, "event_space") and asked(ds, "event_pieces")
    assert not bk.asked


def test_no_qualifying_space_means_the_op_does_nothing(rules):
    # schema 5 "If no space qualifies, the op does nothing"
    bk = plan()
    ctx = board(rules, BK=bk)
    put(ctx, "Andhra", raja=2)
    run(
        ctx,
        "{op: remove, faction: BK, piece: fort, count: 1, where: {choose: 1, filter: {has: {faction: VE, piece: raja}}}}",
        BK,
    )
    assert not bk.asked
    assert ctx.state.avail[P.PT_FORT] == rules.totals[P.PT_FORT]


# --- filters (schema 5.1) ----------------------------------------------------------------


def flt(rules, **keys) -> Filter:
    return Filter.model_validate(keys, context={"spaces": spaces_of(rules)})


def matching(ctx, f: Filter, executor: int = DS) -> list[str]:
    return [
        ctx.rules.board.names[s]
        for s in range(ctx.rules.board.n)
        if event_select.matches(ctx, s, f, executor)
    ]


def test_filter_names(rules):
    # schema 5.1 names
    ctx = board(rules)
    assert matching(ctx, flt(rules, names=["Orissa", "Delhi"])) == ["Delhi", "Orissa"]


def test_filter_adjacent_to_excludes_the_space_itself(rules):
    # schema 5.1 adjacent_to (1.3.5)
    ctx = board(rules)
    assert matching(ctx, flt(rules, adjacent_to="Karnataka")) == [
        "Maharashtra",
        "Andhra",
        "Tamilakam",
    ]


def test_filter_has_and_lacks_with_executor(rules):
    # schema 5.1 has / lacks, faction executor resolved when the op runs (4.3)
    ctx = board(rules)
    put(ctx, "Gujarat", amir=1)
    put(ctx, "Malwa", fort=1)
    has_unit = flt(rules, has={"faction": "executor", "piece": "unit"})
    assert matching(ctx, has_unit, BK) == ["Gujarat"]
    assert matching(ctx, has_unit, VE) == []
    assert matching(ctx, flt(rules, has={"faction": "BK", "piece": "any"})) == ["Gujarat", "Malwa"]
    lacks = matching(ctx, flt(rules, lacks={"faction": "BK", "piece": "fort"}))
    assert "Malwa" not in lacks and "Gujarat" in lacks and "Delhi" in lacks


def test_filter_controlled_by(rules):
    # schema 5.1 controlled_by: Independent Provinces only; none = Uncontrolled (1.7)
    ctx = board(rules)
    independent(ctx, "Gujarat", "Malwa", "Orissa")
    put(ctx, "Gujarat", amir=2)
    put(ctx, "Malwa", troop=2)
    put(ctx, "Sindh", troop=3)  # Tributary: never Controlled
    assert matching(ctx, flt(rules, controlled_by="BK")) == ["Gujarat"]
    assert matching(ctx, flt(rules, controlled_by="executor"), DS) == ["Malwa"]
    assert matching(ctx, flt(rules, controlled_by="none")) == ["Orissa"]


def test_filter_tributary(rules):
    # schema 5.1 tributary: non-Provinces never match (1.6)
    ctx = board(rules)
    independent(ctx, "Orissa")
    assert matching(ctx, flt(rules, tributary=False)) == ["Orissa"]
    assert len(matching(ctx, flt(rules, tributary=True))) == 11


def test_filter_prosperity(rules):
    # schema 5.1 prosperity (1.3.1), per the map data
    ctx = board(rules)
    two = matching(ctx, flt(rules, prosperity=2))
    assert all(rules.board.prosperity[sid(ctx, n)] == 2 for n in two)
    assert len(two) + len(matching(ctx, flt(rules, prosperity=1))) == 12


def test_filter_keys_combine(rules):
    # schema 5.1 "all given keys must hold", through a real op
    ctx = board(rules)
    put(ctx, "Andhra", raja=1)
    put(ctx, "Orissa", raja=1)
    put(ctx, "Tamilakam", raja=1)
    run(
        ctx,
        "{op: remove, faction: VE, piece: raja, count: 1, where: {choose: 3, filter: {adjacent_to: Karnataka, has: {faction: VE, piece: raja}}}}",
        VE,
    )
    assert [count(ctx, n, "raja") for n in ("Andhra", "Orissa", "Tamilakam")] == [0, 1, 0]


# --- resources, cavalry, influence (schema 6.1-6.3) --------------------------------------


def test_resources_change_within_0_and_24(rules):
    # schema 6.1, rule 1.8
    ctx = board(rules)
    ctx.state.resources[:] = [1, 23, 5]
    run(ctx, "{op: resources, faction: DS, amount: -3}")
    run(ctx, "{op: resources, faction: BK, amount: 4}")
    run(ctx, "{op: resources, faction: executor, amount: 2}", VE)
    assert ctx.state.resources == [0, 24, 7]


def test_cavalry_gain_from_pool_and_loss_back_to_pool(rules):
    # schema 6.2, rule 1.10
    ctx = board(rules)
    run(ctx, "{op: cavalry, faction: BK, amount: 2}")
    assert ctx.state.cavalry[BK] == 2 and ctx.state.pool == rules.cavalry_pool - 2
    run(ctx, "{op: cavalry, faction: BK, amount: -5}")
    assert ctx.state.cavalry[BK] == 0 and ctx.state.pool == rules.cavalry_pool


def test_cavalry_from_others_when_the_pool_is_empty_the_executor_picks(rules):
    # schema 6.2: pool empty -> taken from other Factions, the executor choosing whom
    bk, ve = plan(), plan(cavalry_from=P.DS)
    ctx = board(rules, BK=bk, VE=ve)
    st = ctx.state
    st.pool, st.cavalry = 0, [5, 0, 5]
    run(ctx, "{op: cavalry, faction: BK, amount: 1}", VE)
    assert asked(ve, "cavalry_from") and not asked(bk, "cavalry_from")
    assert st.cavalry == [4, 1, 5]


def test_influence_shift_releases_slots_and_ignores_the_ends(rules):
    # schema 6.3, rule 1.9: reaching a slot sends its Units to Available
    ctx = make_ctx(rules)  # setup: two Rajas on each VE slot
    before = ctx.state.avail[P.PT_RAJA]
    run(ctx, "{op: influence, faction: VE, shift: 1}", VE)
    assert ctx.state.influence[VE] == 1 and ctx.state.avail[P.PT_RAJA] == before + 2
    run(ctx, "{op: influence, faction: BK, shift: -1}")
    assert ctx.state.influence[BK] == 0  # past 0: ignored
    ctx.state.influence[BK] = 4
    ctx.state.avail[P.PT_AMIR] += sum(ctx.state.slots[BK])
    ctx.state.slots[BK] = [0, 0, 0, 0, 0]
    run(ctx, "{op: influence, faction: BK, shift: 2}")
    assert ctx.state.influence[BK] == 4


def test_influence_drop_below_an_emptied_slot_is_refilled_by_the_owner(rules):
    # schema 4.4 last point, 6.3, rule 1.9: the owner chooses where the Units come from
    ve = plan()
    ctx = make_ctx(rules, VE=ve)
    run(ctx, "{op: influence, faction: VE, shift: 1}", DS)
    run(ctx, "{op: influence, faction: VE, shift: -1}", DS)
    assert len(asked(ve, "influence_refill")) == 2
    assert ctx.state.slots[VE][1] == 2


# --- place (schema 6.4) ------------------------------------------------------------------


def test_place_is_limited_by_available_pieces(rules):
    # schema 6.4, 4.5, rule 1.4.6: only from Available; as many as there are
    ctx = board(rules)
    ctx.state.avail[P.PT_GOVERNOR] = 1
    ctx.state.pieces[sid(ctx, "Delhi") * P.NK + P.GOVERNOR] = rules.totals[P.PT_GOVERNOR] - 1
    run(ctx, "{op: place, faction: DS, piece: governor, count: 3, where: {space: Malwa}}")
    assert count(ctx, "Malwa", "governor") == 1 and ctx.state.avail[P.PT_GOVERNOR] == 0


def test_place_short_of_pieces_the_decider_picks_which_space_is_served(rules):
    # 2.3.4 the executor decides; schema 6.4 "or as many as are Available"
    ve = plan(event_space=lambda d: d.options[-1])
    ctx = board(rules, VE=ve)
    ctx.state.avail[P.PT_RAJA] = 1
    ctx.state.pieces[sid(ctx, "Andhra") * P.NK + P.RAJA_OB] = rules.totals[P.PT_RAJA] - 1
    run(
        ctx,
        "{op: place, faction: VE, piece: raja, count: 1, where: {spaces: [Karnataka, Tamilakam]}}",
        VE,
    )
    assert count(ctx, "Tamilakam", "raja") == 1 and count(ctx, "Karnataka", "raja") == 0


def test_place_structure_never_breaks_stacking(rules):
    # schema 4.5, 6.4, rule 1.4.4: at most one Qasbah per Province
    ctx = board(rules)
    put(ctx, "Andhra", qasbah=1)
    run(ctx, "{op: place, faction: DS, piece: qasbah, count: 2, where: {spaces: [Andhra, Orissa]}}")
    assert count(ctx, "Andhra", "qasbah") == 1 and count(ctx, "Orissa", "qasbah") == 1


def test_place_up_to_lets_the_decider_place_fewer(rules):
    # schema 6.4 up_to
    ds = plan(event_count=1)
    ctx = board(rules, DS=ds)
    run(ctx, "{op: place, faction: DS, piece: troop, count: 3, up_to: true, where: {space: Delhi}}")
    assert asked(ds, "event_count")[0].options == (3, 2, 1, 0)
    assert count(ctx, "Delhi", "troop") == 1


def test_place_state_rebelling_and_the_control_override(rules):
    # schema 6.4 state; 1.4.5/1.4.6: placed into its own Controlled Province -> Rebelling
    ctx = board(rules)
    run(
        ctx,
        "{op: place, faction: BK, piece: amir, count: 2, where: {space: Karnataka}, state: rebelling}",
    )
    assert count(ctx, "Karnataka", "amir_rebelling") == 2
    independent(ctx, "Gujarat")
    run(ctx, "{op: place, faction: BK, piece: amir, count: 2, where: {space: Gujarat}}")
    assert count(ctx, "Gujarat", "amir_rebelling") == 2 and count(ctx, "Gujarat", "amir") == 0
    assert ctx.state.control[sid(ctx, "Gujarat")] == BK  # schema 4.7: Control recomputed


# --- remove (schema 6.5) -----------------------------------------------------------------


def test_remove_count_per_space_or_all_there_are(rules):
    # schema 6.5, 4.2 "remove 3 Rajas in a space with 1 Raja removes that 1 Raja"
    ctx = board(rules)
    put(ctx, "Andhra", raja=1)
    put(ctx, "Karnataka", raja=4)
    run(
        ctx,
        "{op: remove, faction: VE, piece: raja, count: 3, where: {spaces: [Andhra, Karnataka]}}",
    )
    assert count(ctx, "Andhra", "raja") == 0 and count(ctx, "Karnataka", "raja") == 1
    assert ctx.state.avail[P.PT_RAJA] == rules.totals[P.PT_RAJA] - 1  # back to Available (1.4.3)


def test_remove_generic_word_the_decider_picks_the_pieces(rules):
    # schema 6.5 "When the piece word covers several kinds, the decider picks which pieces"
    ds = plan(event_pieces=((P.GOVERNOR, 1), (P.QASBAH, 1)))
    ctx = board(rules, DS=ds)
    put(ctx, "Andhra", troop=2, governor=1, qasbah=1)
    run(ctx, "{op: remove, faction: DS, piece: any, count: 2, where: {space: Andhra}}")
    options = asked(ds, "event_pieces")[0].options
    assert all(sum(n for _, n in o) == 2 for o in options)  # exactly 2: up_to false
    assert ((P.TROOP, 2),) in options and ((P.GOVERNOR, 1), (P.QASBAH, 1)) in options
    assert (
        count(ctx, "Andhra", "troop"),
        count(ctx, "Andhra", "governor"),
        count(ctx, "Andhra", "qasbah"),
    ) == (2, 0, 0)


def test_remove_up_to_may_remove_fewer(rules):
    # schema 6.5 up_to
    ds = plan(event_pieces=())
    ctx = board(rules, DS=ds)
    put(ctx, "Sindh", troop=3)
    run(
        ctx, "{op: remove, faction: DS, piece: troop, count: 2, up_to: true, where: {space: Sindh}}"
    )
    assert asked(ds, "event_pieces")[0].options == (((P.TROOP, 2),), ((P.TROOP, 1),), ())
    assert count(ctx, "Sindh", "troop") == 3


def test_remove_amirs_in_either_state(rules):
    # schema 6.5: "amir" covers Obedient and Rebelling Amirs (1.4.5)
    ctx = board(rules)
    put(ctx, "Gujarat", amir=1, amir_rebelling=2)
    run(ctx, "{op: remove, faction: BK, piece: amir, count: 3, where: {space: Gujarat}}")
    assert count(ctx, "Gujarat", "amir") + count(ctx, "Gujarat", "amir_rebelling") == 0


def test_remove_mongols_go_back_to_their_box(rules):
    # schema 4.5: removed Mongol Invaders go to the Mongol box
    ctx = board(rules)
    put(ctx, "Punjab", mongol=3)
    run(ctx, "{op: remove, faction: MI, piece: mongol, count: 2, where: {space: Punjab}}")
    assert (
        count(ctx, "Punjab", "mongol") == 1
        and ctx.state.avail[P.PT_MONGOL] == rules.totals[P.PT_MONGOL] - 1
    )


def test_remove_executor_generic_pieces(rules):
    # schema 5.2: faction executor with a generic word, resolved when the op runs
    ctx = board(rules)
    put(ctx, "Orissa", raja=1, temple=1, amir=1)
    run(
        ctx,
        "{op: remove, faction: executor, piece: structure, count: 1, where: {space: Orissa}}",
        VE,
    )
    assert count(ctx, "Orissa", "temple") == 0 and count(ctx, "Orissa", "amir") == 1


# --- replace (schema 6.6) ----------------------------------------------------------------


def test_replace_removes_and_puts_one_in_the_stead_of_each(rules):
    # schema 6.6, rule 1.4.6
    ctx = board(rules)
    put(ctx, "Tamilakam", troop=3)
    run(
        ctx,
        "{op: replace, count: 2, where: {space: Tamilakam}, remove: {faction: DS, piece: troop}, place: {faction: BK, piece: amir, state: rebelling}}",
        BK,
    )
    assert count(ctx, "Tamilakam", "troop") == 1 and count(ctx, "Tamilakam", "amir_rebelling") == 2


def test_replace_may_be_declined_and_the_removal_still_happens(rules):
    # schema 6.6 / 1.4.6 "A piece can simply be removed without being replaced"
    bk = plan(event_count=0)
    ctx = board(rules, BK=bk)
    put(ctx, "Tamilakam", troop=2)
    run(
        ctx,
        "{op: replace, count: 2, where: {space: Tamilakam}, remove: {faction: DS, piece: troop}, place: {faction: BK, piece: amir}}",
        BK,
    )
    assert asked(bk, "event_count")[0].options == (2, 1, 0)
    assert count(ctx, "Tamilakam", "troop") == 0 and count(ctx, "Tamilakam", "amir") == 0


def test_replace_without_available_pieces_only_removes(rules):
    # schema 6.6 "A replacement that is not Available ... is simply not placed"
    ctx = board(rules)
    put(ctx, "Karnataka", raja=2)
    ctx.state.avail[P.PT_GOVERNOR] = 0
    ctx.state.pieces[sid(ctx, "Delhi") * P.NK + P.GOVERNOR] = rules.totals[P.PT_GOVERNOR]
    run(
        ctx,
        "{op: replace, count: 1, where: {space: Karnataka}, remove: {faction: VE, piece: raja}, place: {faction: DS, piece: governor}}",
    )
    assert count(ctx, "Karnataka", "raja") == 1 and count(ctx, "Karnataka", "governor") == 0


def test_replace_with_a_structure_respects_stacking(rules):
    # schema 6.6 "or would break stacking ... is simply not placed" (1.4.4)
    ctx = board(rules)
    put(ctx, "Andhra", amir=2, qasbah=1)
    run(
        ctx,
        "{op: replace, count: 2, where: {space: Andhra}, remove: {faction: BK, piece: amir}, place: {faction: DS, piece: qasbah}}",
    )
    assert count(ctx, "Andhra", "amir") == 0 and count(ctx, "Andhra", "qasbah") == 1


# --- move (schema 6.7) -------------------------------------------------------------------


def test_move_count_units_into_the_one_destination(rules):
    # schema 6.7; adjacency ignored
    ctx = board(rules)
    put(ctx, "Delhi", troop=5, governor=1)
    run(
        ctx,
        "{op: move, faction: DS, piece: troop, count: 3, from: {space: Delhi}, to: {space: Tamilakam}}",
    )
    assert count(ctx, "Delhi", "troop") == 2 and count(ctx, "Tamilakam", "troop") == 3


def test_move_up_to_and_generic_units(rules):
    # schema 6.7 up_to; piece unit: the decider picks Troops and/or Governors
    ds = plan(event_pieces=((P.GOVERNOR, 1),))
    ctx = board(rules, DS=ds)
    put(ctx, "Delhi", troop=2, governor=1)
    run(
        ctx,
        "{op: move, faction: DS, piece: unit, count: 2, up_to: true, from: {space: Delhi}, to: {space: Maharashtra}}",
    )
    assert () in asked(ds, "event_pieces")[0].options
    assert count(ctx, "Maharashtra", "governor") == 1 and count(ctx, "Maharashtra", "troop") == 0


def test_move_from_several_sources_must_reach_the_count(rules):
    # schema 6.7 "move count, or as many as there are": no option leaves too few for the rest
    ve = plan(event_pieces=[((P.RAJA_OB, 1),)])
    ctx = board(rules, VE=ve)
    put(ctx, "Andhra", raja=2)
    put(ctx, "Orissa", raja=1)
    run(
        ctx,
        "{op: move, faction: VE, piece: raja, count: 2, from: {spaces: [Andhra, Orissa]}, to: {space: Karnataka}}",
        VE,
    )
    first = asked(ve, "event_pieces")[0]
    assert first.options == (((P.RAJA_OB, 2),), ((P.RAJA_OB, 1),))  # at least 1: Orissa has 1
    assert len(asked(ve, "event_pieces")) == 1  # then Orissa's one Raja is forced
    assert [count(ctx, n, "raja") for n in ("Karnataka", "Andhra", "Orissa")] == [2, 1, 0]


def test_moved_units_become_obedient_in_a_tributary_and_rebel_in_own_control(rules):
    # schema 6.7: Obedient entering a Tributary Province (3.3.2); Rebelling in own Control (1.4.5)
    ctx = board(rules)
    put(ctx, "Gujarat", amir_rebelling=2)
    run(
        ctx,
        "{op: move, faction: BK, piece: amir, count: 2, from: {space: Gujarat}, to: {space: Malwa}}",
        BK,
    )
    assert count(ctx, "Malwa", "amir") == 2 and count(ctx, "Malwa", "amir_rebelling") == 0
    independent(ctx, "Orissa")
    run(
        ctx,
        "{op: move, faction: BK, piece: amir, count: 2, from: {space: Malwa}, to: {space: Orissa}}",
        BK,
    )
    assert (
        count(ctx, "Orissa", "amir_rebelling") == 2 and ctx.state.control[sid(ctx, "Orissa")] == BK
    )


def test_move_destination_choice_only_where_units_may_go(rules):
    # schema 6.7 "Units that may not enter the destination (1.3.2, 1.3.3) are not moved"
    ds = plan()
    ctx = board(rules, DS=ds)
    put(ctx, "Punjab", mongol=2)
    run(
        ctx,
        "{op: move, faction: MI, piece: mongol, count: 2, from: {space: Punjab}, to: {choose: 1, kind: space}}",
    )
    names = [rules.board.names[s] for s in asked(ds, "event_space")[0].options]
    assert names == ["Delhi", "Mountain Passes"]
    assert count(ctx, "Delhi", "mongol") == 2


# --- flip, set_tributary, set_independent (schema 6.8-6.10) ------------------------------


def test_flip_to_rebelling_and_to_obedient(rules):
    # schema 6.8
    ctx = board(rules)
    put(ctx, "Andhra", raja=2, raja_rebelling=1)
    run(ctx, "{op: flip, faction: VE, to: rebelling, where: {space: Andhra}}")
    assert count(ctx, "Andhra", "raja_rebelling") == 3
    run(ctx, "{op: flip, faction: VE, to: obedient, where: {space: Andhra}}")
    assert count(ctx, "Andhra", "raja") == 3


def test_flip_to_obedient_cannot_override_own_control(rules):
    # schema 6.8, rule 1.4.5: always Rebelling where their own Faction Controls
    ctx = board(rules)
    independent(ctx, "Karnataka")
    put(ctx, "Karnataka", raja_rebelling=3)
    run(ctx, "{op: flip, faction: VE, to: obedient, where: {space: Karnataka}}")
    assert count(ctx, "Karnataka", "raja_rebelling") == 3
    assert not event_ops.op_possible(
        ctx, op(rules, "{op: flip, faction: VE, to: obedient, where: {space: Karnataka}}"), DS
    )


def test_set_tributary_removes_control_and_flips_rebels(rules):
    # schema 6.9, rule 1.6
    ctx = board(rules)
    independent(ctx, "Gujarat")
    put(ctx, "Gujarat", amir=3, raja_rebelling=1)
    assert ctx.state.control[sid(ctx, "Gujarat")] == BK
    run(ctx, "{op: set_tributary, where: {spaces: [Gujarat, Sindh]}}")
    s = sid(ctx, "Gujarat")
    assert ctx.state.tributary[s] and ctx.state.control[s] == -1
    assert count(ctx, "Gujarat", "amir") == 3 and count(ctx, "Gujarat", "raja") == 1


def test_set_independent_recomputes_control_even_under_khalji_and_no_rebel(rules):
    # schema 6.10, rules 1.7, 2.7.1: not a Rebel Command, so no_rebel does not stop it
    ctx = board(rules)
    assert ctx.state.dynasty != TUGHLAQ
    ctx.state.lasting = (("no_rebel", BK, "next_succession"), ("no_rebel", VE, "next_succession"))
    put(ctx, "Maharashtra", amir=3, troop=1)
    run(ctx, "{op: set_independent, where: {space: Maharashtra}}")
    s = sid(ctx, "Maharashtra")
    assert not ctx.state.tributary[s] and ctx.state.control[s] == BK
    assert count(ctx, "Maharashtra", "amir_rebelling") == 3


# --- free_command, free_decree (schema 6.11, 6.12) ---------------------------------------


def test_free_rebel_is_granted_under_khalji(rules):
    # schema 6.11, rules 2.7.1, 3.1.3: a Rebel granted by an Event, free, even under Khalji
    ve = plan()
    ctx = board(rules, VE=ve)
    put(ctx, "Karnataka", raja=3, troop=1)
    ctx.state.resources[VE] = 0
    run(ctx, "{op: free_command, faction: VE, command: rebel, limited: true}", DS)
    s = sid(ctx, "Karnataka")
    assert not ctx.state.tributary[s] and ctx.state.control[s] == VE
    assert count(ctx, "Karnataka", "raja_rebelling") == 3 and ctx.state.resources[VE] == 0


def test_free_rebel_is_stopped_by_no_rebel(rules):
    # schema 6.16 no_rebel: "including a Rebel granted by an Event"
    ve = plan()
    ctx = board(rules, VE=ve)
    put(ctx, "Karnataka", raja=3)
    run(ctx, "{op: lasting, modifier: no_rebel, until: next_succession}")
    run(ctx, "{op: free_command, faction: VE, command: rebel, limited: true}")
    assert ctx.state.tributary[sid(ctx, "Karnataka")] and not ve.asked


def test_free_command_where_restricts_the_spaces_and_may_select_none(rules):
    # schema 6.11 where; "Like any Command, it may select zero spaces"
    ds = plan(space=lambda d: d.options[0])
    ctx = board(rules, DS=ds)
    for name in ("Karnataka", "Andhra"):
        put(ctx, name, troop=2, raja_rebelling=1)
    ctx.state.resources[DS] = 5
    run(
        ctx,
        "{op: free_command, faction: DS, command: attack, limited: true, where: {space: Karnataka}}",
    )
    first = asked(ds, "space")[0]
    assert first.options == (sid(ctx, "Karnataka"), "done")
    assert len(asked(ds, "space")) == 1  # limited: one space (2.3.5)
    assert ctx.state.resources[DS] == 5  # free (3.1.3)


def test_free_command_where_choose_is_resolved_first_by_its_chooser(rules):
    # schema 6.11 "A choose selector is resolved first, by its chooser"
    bk, ve = plan(space="done"), plan()
    ctx = board(rules, BK=bk, VE=ve)
    put(ctx, "Andhra", raja=1, amir=2)
    put(ctx, "Orissa", raja=1, amir=1)
    put(ctx, "Tamilakam", raja=1)
    run(
        ctx,
        "{op: free_command, faction: BK, command: attack, limited: true, where: {choose: 1, filter: {has: {faction: VE, piece: raja}}, chooser: BK}}",
        VE,
    )
    choice = asked(bk, "event_space")[0]
    assert choice.options == (sid(ctx, "Orissa"), sid(ctx, "Andhra"))  # BK can attack only there
    assert asked(bk, "space")[0].options == (sid(ctx, "Orissa"), "done")
    assert not ve.asked


def test_free_migrate_still_pays_for_the_shift_unless_migrate_free_shift(rules):
    # schema 6.11, rule 3.1.3; schema 6.16 migrate_free_shift
    for lasting, cost in ((False, 1), (True, 0)):
        ve = plan(space=[sid(rules, "Andhra"), "done"], migrate_from=(1, 0), migrate_shift=True)
        ctx = board(rules, VE=ve)
        put(ctx, "Karnataka", raja=2)
        put(ctx, "Andhra", amir=1)
        ctx.state.resources[VE] = 3
        if lasting:
            run(ctx, "{op: lasting, modifier: migrate_free_shift, until: game_end, faction: VE}")
        run(ctx, "{op: free_command, faction: VE, command: migrate}")
        assert count(ctx, "Andhra", "raja") == 1
        assert ctx.state.influence[VE] == 1
        assert ctx.state.resources[VE] == 3 - cost


def test_free_decree_runs_the_decree_and_does_nothing_when_impossible(rules):
    # schema 6.12: Collect Tribute (4.2.1); Build with no Fort Available does nothing
    ctx = board(rules)
    ctx.state.resources[DS] = 0
    run(ctx, "{op: free_decree, faction: DS, decree: collect_tribute}")
    assert ctx.state.resources[DS] == sum(rules.board.prosperity) // 2
    assert ctx.state.cavalry[DS] == rules.decrees["collect_tribute_cavalry"]
    bk = plan()
    ctx = board(rules, BK=bk)
    put(ctx, "Gujarat", amir=1)
    for name in ("Sindh", "Malwa", "Jaunpur", "Orissa", "Andhra"):
        put(ctx, name, fort=1)
    run(ctx, "{op: free_decree, faction: BK, decree: build}")
    assert count(ctx, "Gujarat", "fort") == 0 and not bk.asked


# --- eligibility, mongol (schema 6.13, 6.14) ---------------------------------------------


def test_eligibility_sets_the_box_at_adjust_eligibility_last_wins(rules):
    # schema 6.13
    ctx = board(rules)
    run(ctx, "{op: eligibility, faction: executor, set: ineligible}", BK)
    run(ctx, "{op: eligibility, faction: DS, set: eligible}", BK)
    assert ctx.state.elig_next == [1, 0, -1]
    run(ctx, "{op: eligibility, faction: BK, set: eligible}", BK)
    assert ctx.state.elig_next == [1, 1, -1]


def test_mongol_amass_and_advance_decided_by_the_chooser(rules):
    # schema 6.14, rules 3.5.1, 3.5.2
    bk, ds = plan(mongol_advance=lambda d: d.options[-1]), plan()
    ctx = board(rules, BK=bk, DS=ds)
    run(ctx, "{op: mongol, command: amass, chooser: executor}", BK)
    assert count(ctx, "Mountain Passes", "mongol") == rules.mongols["amass"]
    run(ctx, "{op: mongol, command: advance, chooser: BK}", DS)
    assert asked(bk, "mongol_advance") and not ds.asked
    assert count(ctx, "Punjab", "mongol") == rules.mongols["amass"]


def test_mongol_command_without_its_precondition_does_nothing(rules):
    # schema 6.14: Advance with no Invader in the Mountain Passes or Punjab
    ctx = board(rules)
    put(ctx, "Delhi", mongol=1)
    run(ctx, "{op: mongol, command: advance, chooser: VE}")
    assert count(ctx, "Delhi", "mongol") == 1
    assert not event_ops.op_possible(
        ctx, op(rules, "{op: mongol, command: advance, chooser: VE}"), DS
    )


def test_mongol_attack_and_plunder_with_executor_ds(rules):
    # schema 6.14: executor resolving to DS; 3.5.3 plunder and the return beyond three
    ds = plan()
    ctx = make_ctx(rules, empty_state(rules), dice=[6, 6, 6, 6, 6, 6], DS=ds)
    put(ctx, "Punjab", mongol=5)
    ctx.state.resources[DS] = 10
    run(ctx, "{op: mongol, command: attack_plunder, chooser: executor}", DS)
    assert ctx.state.resources[DS] == 5
    assert count(ctx, "Punjab", "mongol") == rules.mongols["keep_after_plunder"]


# --- choose, lasting (schema 6.15, 6.16) -------------------------------------------------

CHOOSE = """
op: choose
chooser: DS
options:
  - [{op: resources, faction: DS, amount: -3}]
  - [{op: remove, faction: DS, piece: troop, count: 1, where: {space: Sindh}}]
"""


def test_choose_op_the_chooser_picks_one_option(rules):
    # schema 6.15
    ds, bk = plan(event_choose=1), plan()
    ctx = board(rules, DS=ds, BK=bk)
    put(ctx, "Sindh", troop=2)
    ctx.state.resources[DS] = 5
    run(ctx, CHOOSE, BK)
    assert asked(ds, "event_choose")[0].options == (0, 1) and not bk.asked
    assert ctx.state.resources[DS] == 5 and count(ctx, "Sindh", "troop") == 1


def test_choose_op_offers_only_options_that_take_effect(rules):
    # schema 6.15 "If at least one option could take some effect, the chooser must pick one"
    ds = plan()
    ctx = board(rules, DS=ds)
    put(ctx, "Sindh", troop=2)
    ctx.state.resources[DS] = 0
    run(ctx, CHOOSE, DS)
    assert count(ctx, "Sindh", "troop") == 1 and not asked(ds, "event_choose")  # lone option
    ctx2 = board(rules, DS=plan())
    ctx2.state.resources[DS] = 0
    run(ctx2, CHOOSE, DS)
    assert ctx2.agents[DS].asked[0].options == (0, 1)  # neither can: both offered


def test_lasting_adds_per_faction_without_stacking_and_extends(rules):
    # schema 6.16: omitted faction = both BK and VE for no_rebel; a second copy only extends
    ctx = board(rules)
    run(ctx, "{op: lasting, modifier: no_rebel, until: next_succession}")
    assert ctx.state.lasting == (
        ("no_rebel", BK, "next_succession"),
        ("no_rebel", VE, "next_succession"),
    )
    run(ctx, "{op: lasting, modifier: no_rebel, until: next_succession, faction: VE}")
    assert len(ctx.state.lasting) == 2
    run(ctx, "{op: lasting, modifier: no_rebel, until: game_end, faction: VE}")
    assert ctx.state.lasting == (("no_rebel", BK, "next_succession"), ("no_rebel", VE, "game_end"))
    run(ctx, "{op: lasting, modifier: no_rebel, until: next_succession, faction: VE}")
    assert ctx.state.lasting[1] == ("no_rebel", VE, "game_end")  # never shortened
    run(ctx, "{op: lasting, modifier: conscript_plus_one, until: game_end}")
    assert ctx.state.has_lasting("conscript_plus_one", DS)


def test_lasting_next_succession_ends_at_the_succession_card_game_end_stays(rules):
    # schema 6.16 expiry, done in succession.resolve before the card's instructions
    ctx = board(rules)
    run(ctx, "{op: lasting, modifier: attack_extra_die, until: next_succession, faction: VE}")
    run(ctx, "{op: lasting, modifier: attack_extra_die, until: game_end, faction: DS}")
    card = next(c for c in rules.cards if c.id == "lords")
    succession.resolve(ctx, card)
    assert not ctx.state.has_lasting("attack_extra_die", VE)
    assert ctx.state.has_lasting("attack_extra_die", DS)


def test_conscript_plus_one_is_honoured_by_a_free_conscript(rules):
    # schema 6.16 conscript_plus_one, "free Conscripts included"
    ctx = board(rules, DS=plan(space=[sid(rules, "Delhi"), "done"]))
    run(ctx, "{op: lasting, modifier: conscript_plus_one, until: game_end}")
    run(ctx, "{op: free_command, faction: DS, command: conscript}")
    assert count(ctx, "Delhi", "troop") == rules.factions["DS"]["conscript"]["delhi"] + 1


# --- as much as possible, housekeeping (schema 4.2, 4.7) ---------------------------------


def test_an_op_that_cannot_act_never_cancels_the_others(rules):
    # schema 4.2, rule 2.3.4
    ctx = board(rules)
    ops = (
        op(
            rules,
            "{op: remove, faction: DS, piece: governor, count: 1, where: {space: Maharashtra}}",
        ),
        op(rules, "{op: place, faction: BK, piece: amir, count: 2, where: {space: Maharashtra}}"),
    )
    event_ops.run_effects(ctx, ops, BK)
    assert count(ctx, "Maharashtra", "amir") == 2


def test_housekeeping_after_every_op(rules):
    # schema 4.7: Control recomputed, the Rebelling rule applied, slots settled, after each op
    ctx = make_ctx(rules)
    texts = [
        "{op: set_independent, where: {space: Orissa}}",
        "{op: place, faction: VE, piece: raja, count: 2, where: {space: Orissa}}",
        "{op: place, faction: DS, piece: troop, count: 3, where: {space: Orissa}}",
        "{op: remove, faction: DS, piece: troop, count: 3, where: {space: Orissa}}",
        "{op: influence, faction: VE, shift: 3}",
        "{op: influence, faction: VE, shift: -2}",
        "{op: replace, count: 2, where: {space: Orissa}, remove: {faction: VE, piece: raja}, place: {faction: BK, piece: amir}}",
    ]
    controls = []
    for text in texts:
        run(ctx, text, VE)  # invariants.check after each op: Control, 1.4.5, slots, totals
        controls.append(ctx.state.control[sid(ctx, "Orissa")])
    assert controls == [-1, VE, DS, VE, VE, VE, BK]
    assert count(ctx, "Orissa", "amir_rebelling") == 2


def test_op_possible_drives_which_side_is_offered(rules):
    # 2.3.4 as much as possible; the Event side offered only if it can take some effect
    ctx = board(rules)
    ctx.state.resources[DS] = 0
    assert not event_ops.op_possible(
        ctx,
        op(rules, "{op: remove, faction: BK, piece: amir, count: 2, where: {space: Tamilakam}}"),
        DS,
    )
    assert not event_ops.op_possible(
        ctx, op(rules, "{op: set_tributary, where: {space: Tamilakam}}"), DS
    )
    assert event_ops.op_possible(
        ctx, op(rules, "{op: set_independent, where: {space: Tamilakam}}"), DS
    )
    assert not event_ops.op_possible(ctx, op(rules, "{op: resources, faction: DS, amount: -1}"), DS)
    assert event_ops.op_possible(
        ctx, op(rules, "{op: eligibility, faction: DS, set: eligible}"), DS
    )
    assert not event_ops.op_possible(
        ctx,
        op(
            rules,
            "{op: move, faction: DS, piece: troop, count: 1, from: {space: Delhi}, to: {space: Sindh}}",
        ),
        DS,
    )


# --- the python escape hatch -------------------------------------------------------------


def _double_resources(ctx, executor, params):
    """A test effect: the executor gains as many Resources as it has, up to params['cap']."""
    from simulate.vijayanagara.rules.tracks import add_resources

    add_resources(ctx, executor, min(ctx.state.resources[executor], params.get("cap", 24)))


def test_python_effect_registered_without_entry_points_runs(rules):
    # event_cards module doc: {op: python, effect: NAME, params: {...}}
    event_ops.register_effect("tests.double_resources", _double_resources)
    try:
        ctx = board(rules)
        ctx.state.resources[BK] = 5
        run(ctx, "{op: python, effect: tests.double_resources, params: {cap: 3}}", BK)
        assert ctx.state.resources[BK] == 8
    finally:
        event_ops.unregister_effect("tests.double_resources")


def _deck_with_python(rules, effect: str):
    raw = yaml.safe_load(EVENTS_YAML.read_text(encoding="utf-8"))
    raw = copy.deepcopy(raw)
    card = next(c for c in raw["events"] if c["id"] == 9)
    card["shaded"]["effects"][0] = {"op": "python", "effect": effect, "params": {"cap": 2}}
    return validate_deck_dict(raw, "events.yaml", spaces_of(rules))


def test_a_missing_python_effect_is_a_one_line_error_naming_the_card(rules):
    deck = _deck_with_python(rules, "tests.nowhere")
    with pytest.raises(DataError) as info:
        events.verify_deck(deck)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("events.yaml: card 9: shaded.effects[0].effect: ")
    assert "'tests.nowhere'" in message


def test_python_effects_resolve_through_the_entry_point_group(rules, monkeypatch):
    # resolved by entry point (group vijayanagara_sim.events) at first use of the deck
    class FakeEntryPoint:
        name = "tests.ep_effect"

        def load(self):
            return _double_resources

    monkeypatch.setattr(event_ops, "_entry_points", lambda: {"tests.ep_effect": FakeEntryPoint()})
    try:
        deck = _deck_with_python(rules, "tests.ep_effect")
        cards = events.verify_deck(deck)
        ctx = board(rules)
        ctx.state.resources[VE] = 4
        event_ops.run_effects(ctx, cards["9"].shaded.effects, VE)
        assert ctx.state.resources[VE] == 6 - 2  # +min(4, 2), then VE loses 2 (the next op)
    finally:
        event_ops.unregister_effect("tests.ep_effect")


def test_the_worked_example_in_docs_events_md_runs(rules):
    # docs/events.md: the one worked example of a python effect, executed as documented
    text = (Path(__file__).resolve().parent.parent / "docs" / "events.md").read_text(
        encoding="utf-8"
    )
    block = text.split("```python\n# my_events/effects.py\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(block, "docs/events.md", "exec"), namespace)
    event_ops.register_effect("purge_one_province", namespace["purge_one_province"])
    try:
        ve = plan()
        ctx = board(rules, VE=ve)
        put(ctx, "Andhra", raja=1)
        put(ctx, "Karnataka", raja=3)
        run(ctx, "{op: python, effect: purge_one_province, params: {victim: VE, count: 2, min: 2}}")
        assert count(ctx, "Karnataka", "raja") == 1 and count(ctx, "Andhra", "raja") == 1
        assert len(asked(ve, "casualty")) == 0  # one kind of Raja there: nothing to ask
    finally:
        event_ops.unregister_effect("purge_one_province")
