"""Cavalry tokens (1.10): gaining them, Charge and Screen, and the Mongols' one Charge."""

from __future__ import annotations

from conftest import empty_state, make_ctx
from rules_support import asked, plan

from simulate.vijayanagara.rules import combat, invariants
from simulate.vijayanagara.rules.pieces import BK, DS, MI, VE
from simulate.vijayanagara.rules.tracks import gain_cavalry, lose_cavalry


def test_cavalry_is_gained_from_the_pool(rules):
    # 1.10 "When each Cavalry token is earned it is taken from the pool"
    ctx = make_ctx(rules)  # DS holds 2, the pool 8 (2.1)
    assert gain_cavalry(ctx, BK, 3) == 3
    assert ctx.state.cavalry == [2, 3, 0]
    assert ctx.state.pool == 5
    invariants.check(ctx.state, rules)


def test_with_the_pool_empty_cavalry_is_taken_from_another_faction(rules):
    # 1.10 "if there are none available in the pool it may be taken from any other Faction"
    bk = plan(cavalry_from=VE)
    ctx = make_ctx(rules, BK=bk)
    ctx.state.cavalry = [6, 0, 4]
    ctx.state.pool = 0
    assert gain_cavalry(ctx, BK, 2) == 2
    assert ctx.state.cavalry == [6, 2, 2]
    assert [d.options for d in asked(bk, "cavalry_from")] == [(DS, VE, "none"), (DS, VE, "none")]
    invariants.check(ctx.state, rules)


def test_taking_cavalry_from_another_faction_may_be_declined(rules):
    # 1.10 "it may be taken": the gainer may take none
    bk = plan(cavalry_from="none")
    ctx = make_ctx(rules, BK=bk)
    ctx.state.cavalry = [6, 0, 4]
    ctx.state.pool = 0
    assert gain_cavalry(ctx, BK, 2) == 0
    assert ctx.state.cavalry == [6, 0, 4]
    invariants.check(ctx.state, rules)


def test_cavalry_cannot_be_gained_when_the_gainer_holds_every_token(rules):
    # 1.10: ten tokens in all; none in the pool and none held by others
    ctx = make_ctx(rules)
    ctx.state.cavalry = [0, 10, 0]
    ctx.state.pool = 0
    assert gain_cavalry(ctx, BK, 2) == 0
    assert ctx.state.cavalry == [0, 10, 0]


def test_lost_cavalry_returns_to_the_pool(rules):
    # 1.10 "Used Cavalry tokens are then returned to the shared pool"
    ctx = make_ctx(rules)
    lose_cavalry(ctx, DS, 5)
    assert ctx.state.cavalry == [0, 0, 0]
    assert ctx.state.pool == 10


def test_charge_lowers_own_die_by_one_down_to_one(rules):
    # 1.10 Charge: "decrease any of the spending Faction's die rolls by one to a minimum of 1";
    # the same die may be affected multiple times
    ctx = make_ctx(rules, empty_state(rules), DS=plan(cavalry=[("charge", 3), ("charge", 2)]))
    ctx.state.cavalry[DS] = 3
    ctx.state.pool -= 3
    own, opp = [3, 6], [5]
    combat.use_cavalry(ctx, DS, own, opp)
    assert own == [1, 6]
    assert ctx.state.cavalry[DS] == 1
    assert ctx.state.pool == 10 - 1  # spent tokens went back to the pool
    invariants.check(ctx.state, rules)


def test_charge_is_not_offered_on_a_die_showing_one(rules):
    # 1.10 "to a minimum of 1"
    ds = plan()
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    ctx.state.cavalry[DS] = 1
    ctx.state.pool -= 1
    combat.use_cavalry(ctx, DS, [1, 4], [1])
    options = asked(ds, "cavalry")[0].options
    assert ("charge", 1) not in options and ("charge", 4) in options
    assert not any(o[0] == "screen" for o in options if o != "done")


def test_screen_removes_an_opposing_die_not_showing_one(rules):
    # 1.10 Screen: "remove an opponent's die from the battle unless it is showing a 1"
    bk = plan(cavalry=[("screen", 4)])
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    ctx.state.cavalry[BK] = 1
    ctx.state.pool -= 1
    own, opp = [6, 6], [1, 4, 1]
    combat.use_cavalry(ctx, BK, own, opp)
    assert opp == [1, 1]
    assert ("screen", 1) not in asked(bk, "cavalry")[0].options
    assert ctx.state.cavalry[BK] == 0 and ctx.state.pool == 10


def test_mongol_charge_turns_a_miss_into_a_hit(rules):
    # 1.10 "The Charge must be used to convert a miss into a hit ... if possible"
    dice = [5, 6, 2]
    combat.mongol_charge(dice, units=4, always_miss=6)
    assert dice == [4, 6, 2]


def test_mongol_charge_otherwise_turns_a_two_into_a_one(rules):
    # 1.10 "... or to convert a 2 into a 1, if possible"; a 6 - 1 = 5 is still a miss for 4 Units
    dice = [6, 2, 3]
    combat.mongol_charge(dice, units=4, always_miss=6)
    assert dice == [6, 1, 3]


def test_mongols_never_spend_pool_cavalry(rules):
    # 1.10: the red Mongol Cavalry token "should never be returned to the shared pool"
    ctx = make_ctx(rules, empty_state(rules), dice=[5, 5, 5, 5, 6, 6])
    before = (list(ctx.state.cavalry), ctx.state.pool)
    mongol_hits, ds_hits = combat.battle(ctx, 0, MI, DS, 4, 1, 4, 2)
    assert (mongol_hits, ds_hits) == (1, 0)  # one 5 charged to a 4
    assert (ctx.state.cavalry, ctx.state.pool) == before
