"""Control (1.7), Tributary status (1.6), the Rebelling rule (1.4.5), stacking (1.4.4) and
availability (1.4.3, 1.4.6)."""

from __future__ import annotations

from conftest import empty_state, make_ctx, put, sid

from simulate.vijayanagara.rules import invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.control import set_independent, set_tributary
from simulate.vijayanagara.rules.placement import move, place, remove


def _independent(ctx, name):
    s = sid(ctx, name)
    set_independent(ctx.state, s)
    return s


def test_a_faction_outnumbering_all_others_combined_controls_an_independent_province(rules):
    # 1.7: 3 Amirs against 1 Troop + 1 Raja
    ctx = make_ctx(rules, empty_state(rules))
    s = _independent(ctx, "Gondwana")
    put(ctx, "Gondwana", amir=3, troop=1, raja=1)
    assert ctx.state.control[s] == P.BK
    invariants.check(ctx.state, rules)


def test_equal_to_all_others_combined_is_not_control(rules):
    # 1.7 "outnumber those of all opposing Factions combined": 2 Amirs vs 1 Troop + 1 Raja
    ctx = make_ctx(rules, empty_state(rules))
    s = _independent(ctx, "Gondwana")
    put(ctx, "Gondwana", amir=2, troop=1, raja=1)
    assert ctx.state.control[s] == -1


def test_structures_count_towards_control(rules):
    # 1.7 "its own pieces there": 1 Raja + 1 Temple outnumber 1 Amir
    ctx = make_ctx(rules, empty_state(rules))
    s = _independent(ctx, "Karnataka")
    put(ctx, "Karnataka", raja=1, temple=1, amir=1)
    assert ctx.state.control[s] == P.VE


def test_a_tributary_province_is_never_controlled(rules):
    # 1.7 IMPORTANT: "Tributary Provinces are never Controlled, even if a Faction has the majority"
    ctx = make_ctx(rules, empty_state(rules))
    s = sid(ctx, "Maharashtra")
    put(ctx, "Maharashtra", amir=5)
    assert ctx.state.tributary[s]
    assert ctx.state.control[s] == -1
    assert ctx.state.count(s, P.AMIR_OB) == 5


def test_delhi_and_the_mongol_regions_are_never_controlled(rules):
    # 1.7: Delhi, Punjab and the Mountain Passes are not Provinces
    ctx = make_ctx(rules, empty_state(rules))
    for name in ("Delhi", "Punjab", "Mountain Passes"):
        put(ctx, name, troop=3)
        s = sid(ctx, name)
        assert not ctx.state.tributary[s]
        assert ctx.state.control[s] == -1


def test_units_placed_into_their_own_controlled_province_become_rebelling(rules):
    # 1.4.6 "If they are placed into a Province Controlled by their own Faction they will
    # immediately become Rebelling"
    ctx = make_ctx(rules, empty_state(rules))
    s = _independent(ctx, "Gondwana")
    put(ctx, "Gondwana", amir_rebelling=2)
    assert ctx.state.control[s] == P.BK
    assert place(ctx, s, P.AMIR_OB, 2) == 2
    assert ctx.state.count(s, P.AMIR_OB) == 0
    assert ctx.state.count(s, P.AMIR_REB) == 4
    invariants.check(ctx.state, rules)


def test_gaining_control_flips_every_unit_of_the_faction_to_rebelling(rules):
    # 1.4.5 IMPORTANT: "If a Province becomes Controlled ... immediately flip all their Units
    # in the Province to Rebelling"
    ctx = make_ctx(rules, empty_state(rules))
    s = _independent(ctx, "Andhra")
    put(ctx, "Andhra", raja=1, troop=1)
    assert ctx.state.control[s] == -1
    put(ctx, "Karnataka", raja=2)
    move(ctx, sid(ctx, "Karnataka"), s, P.RAJA_OB, 2)
    assert ctx.state.control[s] == P.VE
    assert ctx.state.count(s, P.RAJA_REB) == 3
    assert ctx.state.count(s, P.RAJA_OB) == 0
    invariants.check(ctx.state, rules)


def test_losing_control_leaves_units_rebelling(rules):
    # 1.4.5 "may also continue to be Rebelling if they lose Control of a Province"
    ctx = make_ctx(rules, empty_state(rules))
    s = _independent(ctx, "Gondwana")
    put(ctx, "Gondwana", amir_rebelling=2)
    put(ctx, "Gondwana", troop=3)
    assert ctx.state.control[s] == P.DS
    assert ctx.state.count(s, P.AMIR_REB) == 2


def test_a_tributary_marker_flips_rebelling_units_to_obedient(rules):
    # 1.6 "all Rebelling Amirs and Rajas in that Province are flipped to their Obedient states"
    ctx = make_ctx(rules, empty_state(rules))
    s = _independent(ctx, "Madhyadesh")
    put(ctx, "Madhyadesh", amir_rebelling=3, raja_rebelling=1)
    set_tributary(ctx.state, s)
    assert ctx.state.control[s] == -1
    assert (ctx.state.count(s, P.AMIR_OB), ctx.state.count(s, P.AMIR_REB)) == (3, 0)
    assert (ctx.state.count(s, P.RAJA_OB), ctx.state.count(s, P.RAJA_REB)) == (1, 0)
    invariants.check(ctx.state, rules)


def test_a_second_fort_is_not_placed_in_a_province(rules):
    # 1.4.4: at most one of each Faction's Structure per Province
    ctx = make_ctx(rules, empty_state(rules))
    s = sid(ctx, "Gujarat")
    assert place(ctx, s, P.FORT, 1) == 1
    assert place(ctx, s, P.FORT, 1) == 0
    assert ctx.state.count(s, P.FORT) == 1
    assert ctx.state.avail[P.PT_FORT] == rules.totals[P.PT_FORT] - 1
    invariants.check(ctx.state, rules)


def test_structures_of_different_factions_share_a_province(rules):
    # 1.4.4 "up to one Qasbah, one Fort, and one Temple"
    ctx = make_ctx(rules, empty_state(rules))
    s = sid(ctx, "Andhra")
    for counter in (P.QASBAH, P.FORT, P.TEMPLE):
        assert place(ctx, s, counter, 1) == 1
    invariants.check(ctx.state, rules)


def test_only_available_pieces_can_be_placed(rules):
    # 1.4.3, 1.4.6 "if there are none in the box they may not be placed"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Delhi", troop=rules.totals[P.PT_TROOP])
    assert ctx.state.avail[P.PT_TROOP] == 0
    assert place(ctx, sid(ctx, "Sindh"), P.TROOP, 1) == 0
    assert remove(ctx, sid(ctx, "Delhi"), P.TROOP, 2) == 2
    assert place(ctx, sid(ctx, "Sindh"), P.TROOP, 5) == 2
    assert ctx.state.avail[P.PT_TROOP] == 0
    invariants.check(ctx.state, rules)
