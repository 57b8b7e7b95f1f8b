"""The Deccan Influence track (1.9): slots released on reaching them, refilled on falling
below them, and shifts off either end ignored."""

from __future__ import annotations

from conftest import make_ctx, put, sid
from rules_support import asked, plan

from simulate.vijayanagara.rules import invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.influence import shift


def test_reaching_a_slot_releases_its_units_to_available(rules):
    # 1.9.2 level 1: "The two Rajas on the track are immediately moved to the ... holding box"
    ctx = make_ctx(rules)  # 2.1 setup: 8 Rajas Available, 2 on each VE level
    shift(ctx, P.VE, 1)
    assert ctx.state.influence[P.VE] == 1
    assert ctx.state.slots[P.VE][1] == 0
    assert ctx.state.avail[P.PT_RAJA] == 8 + 2
    invariants.check(ctx.state, rules)


def test_moving_past_slots_releases_every_slot_passed(rules):
    # 1.9 "When a Faction's Influence marker moves on or past these Units"
    ctx = make_ctx(rules)
    shift(ctx, P.BK, 4)
    assert ctx.state.influence[P.BK] == 4
    assert ctx.state.slots[P.BK] == [0, 0, 0, 0, 0]
    assert ctx.state.avail[P.PT_AMIR] == 6 + 4
    invariants.check(ctx.state, rules)


def test_bahmani_level_one_has_no_units_to_release(rules):
    # 1.9.1 level 1 gives the Trade bonus only; Amirs sit on levels 2 and 4
    ctx = make_ctx(rules)
    shift(ctx, P.BK, 1)
    assert ctx.state.avail[P.PT_AMIR] == 6
    assert ctx.state.slots[P.BK] == [0, 0, 2, 0, 2]


def test_dropping_below_an_emptied_slot_refills_it_from_available(rules):
    # 1.9 "must place Amirs/Rajas in the empty spaces from either their holding box or
    # anywhere on the map"
    ve = plan(influence_refill="available")
    ctx = make_ctx(rules, VE=ve)
    shift(ctx, P.VE, 2)
    assert ctx.state.avail[P.PT_RAJA] == 12
    shift(ctx, P.VE, -1)
    assert ctx.state.influence[P.VE] == 1
    assert ctx.state.slots[P.VE][2] == 2
    assert ctx.state.avail[P.PT_RAJA] == 10
    assert [d.context for d in asked(ve, "influence_refill")] == [2, 2]
    invariants.check(ctx.state, rules)


def test_refill_may_take_units_from_the_map(rules):
    # 1.9 "... or anywhere on the map"
    karnataka = sid(rules, "Karnataka")
    ve = plan(influence_refill=(karnataka, P.RAJA_OB))
    ctx = make_ctx(rules, VE=ve)
    shift(ctx, P.VE, 1)
    shift(ctx, P.VE, -1)
    assert ctx.state.slots[P.VE][1] == 2
    assert ctx.state.count(karnataka, P.RAJA_OB) == 3 - 2
    assert ctx.state.avail[P.PT_RAJA] == 8 + 2  # the released pair stays Available
    invariants.check(ctx.state, rules)


def test_refill_with_none_available_must_come_from_the_map(rules):
    # 1.9: with the holding box empty, the Units come off the map
    maharashtra = sid(rules, "Maharashtra")
    bk = plan(influence_refill=lambda d: (maharashtra, P.AMIR_OB))
    ctx = make_ctx(rules, BK=bk)
    shift(ctx, P.BK, 2)
    put(ctx, "Maharashtra", amir=ctx.state.avail[P.PT_AMIR])
    before = ctx.state.count(maharashtra, P.AMIR_OB)
    shift(ctx, P.BK, -1)
    assert "available" not in asked(bk, "influence_refill")[0].options
    assert ctx.state.slots[P.BK][2] == 2
    assert ctx.state.count(maharashtra, P.AMIR_OB) == before - 2
    assert ctx.state.avail[P.PT_AMIR] == 0
    invariants.check(ctx.state, rules)


def test_shifts_off_either_end_of_the_track_are_ignored(rules):
    # 1.9 "Any increase or decrease that would move the marker off either end ... is ignored"
    ctx = make_ctx(rules)
    shift(ctx, P.BK, -1)
    assert ctx.state.influence[P.BK] == 0
    shift(ctx, P.VE, 3)
    shift(ctx, P.VE, 3)
    assert ctx.state.influence[P.VE] == 4
    assert ctx.state.avail[P.PT_RAJA] == 8 + 8
    invariants.check(ctx.state, rules)
