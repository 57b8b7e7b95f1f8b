"""Decrees (4.2-4.4): Collect Tribute, Campaign, Demand Obedience; Trade, Build, Conspire;
Tax, Build, Compel, with the Influential bonuses (1.9.1, 1.9.2)."""

from __future__ import annotations

import pytest
from conftest import empty_state, make_ctx, put, sid
from rules_support import asked, plan

from simulate.vijayanagara.rules import decrees, invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.control import set_independent


def _pr(rules, *names):
    return sum(rules.board.prosperity[sid(rules, n)] for n in names)


# --- Delhi Sultanate (4.2)


def test_collect_tribute_gains_half_the_tributary_prosperity_and_two_cavalry(rules):
    # 4.2.1 "Gain Resources equal to half the total Tributary Prosperity (rounded down), and
    # gain two Cavalry"
    ctx = make_ctx(rules, empty_state(rules))
    set_independent(ctx.state, sid(rules, "Sindh"))  # Prosperity 18 - Sindh's
    ctx.state.resources[P.DS] = 0
    decrees.execute(ctx, P.DS, "collect_tribute")
    assert ctx.state.resources[P.DS] == (18 - _pr(rules, "Sindh")) // 2
    assert ctx.state.cavalry[P.DS] == 2 and ctx.state.pool == 8
    invariants.check(ctx.state, rules)


def test_collect_tribute_rounds_down(rules):
    # 4.2.1 "(rounded down)": make the Tributary total odd
    ctx = make_ctx(rules, empty_state(rules))
    odd = next(s for s in rules.board.provinces if rules.board.prosperity[s] == 1)
    set_independent(ctx.state, odd)
    ctx.state.resources[P.DS] = 0
    decrees.execute(ctx, P.DS, "collect_tribute")
    assert ctx.state.resources[P.DS] == 17 // 2


def test_campaign_moves_units_along_a_route_of_up_to_three_spaces(rules):
    # 4.2.2 "from a single origin space to a single destination space up to three spaces away"
    delhi, malwa, madh, andhra = (
        rules.delhi,
        sid(rules, "Malwa"),
        sid(rules, "Madhyadesh"),
        sid(rules, "Andhra"),
    )
    ds = plan(campaign_origin=delhi, campaign_pickup=[(4, 1)], campaign_step=[malwa, madh, andhra])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Delhi", troop=4, governor=1)
    decrees.execute(ctx, P.DS, "campaign")
    assert len(asked(ds, "campaign_step")) == 3  # no fourth step is offered
    assert (ctx.state.count(andhra, P.TROOP), ctx.state.count(andhra, P.GOVERNOR)) == (4, 1)
    assert ctx.state.count(delhi, P.TROOP) == 0
    invariants.check(ctx.state, rules)


def test_campaign_picks_up_and_drops_off_along_the_way(rules):
    # 4.2.2 "Troops and Governors may be picked up and dropped off in any spaces along the way"
    delhi, malwa, maha = rules.delhi, sid(rules, "Malwa"), sid(rules, "Maharashtra")
    ds = plan(
        campaign_origin=delhi,
        campaign_pickup=[(3, 0), (0, 1)],  # 3 Troops in Delhi, then Malwa's Governor
        campaign_step=[malwa, maha],
        campaign_drop=[(1, 0)],  # leave one Troop in Malwa
    )
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Delhi", troop=3)
    put(ctx, "Malwa", governor=1)
    decrees.execute(ctx, P.DS, "campaign")
    assert (ctx.state.count(malwa, P.TROOP), ctx.state.count(malwa, P.GOVERNOR)) == (1, 0)
    assert (ctx.state.count(maha, P.TROOP), ctx.state.count(maha, P.GOVERNOR)) == (2, 1)
    invariants.check(ctx.state, rules)


def test_demand_obedience_makes_a_controlled_province_with_a_governor_tributary(rules):
    # 4.2.3 "replace the Sultanate Controlled marker with a Tributary marker and flip all
    # Rebelling Units there to Obedient. Increase Sultanate Resources by the combined
    # Prosperity of all affected Provinces"
    g, j = sid(rules, "Gujarat"), sid(rules, "Jaunpur")
    ctx = make_ctx(rules, empty_state(rules), DS=plan(demand_obedience=[g, j]))
    for s in (g, j):
        set_independent(ctx.state, s)
    put(ctx, "Gujarat", troop=2, governor=1, amir_rebelling=1, raja_rebelling=1)
    put(ctx, "Jaunpur", governor=1)
    ctx.state.resources[P.DS] = 0
    decrees.execute(ctx, P.DS, "demand_obedience")
    assert ctx.state.tributary[g] and ctx.state.tributary[j]
    assert ctx.state.count(g, P.AMIR_OB) == 1 and ctx.state.count(g, P.RAJA_OB) == 1
    assert ctx.state.resources[P.DS] == _pr(rules, "Gujarat", "Jaunpur")
    invariants.check(ctx.state, rules)


def test_demand_obedience_needs_a_governor(rules):
    # 4.2.3 "In any number of Sultanate Controlled Provinces with a Governor"
    ctx = make_ctx(rules, empty_state(rules))
    set_independent(ctx.state, sid(rules, "Gujarat"))
    put(ctx, "Gujarat", troop=3)
    assert ctx.state.control[sid(rules, "Gujarat")] == P.DS
    assert "demand_obedience" not in decrees.available_decrees(ctx, P.DS)


# --- Bahmani Kingdom (4.3)


@pytest.mark.parametrize("influence, cavalry", [(0, 1), (1, 2), (2, 2), (3, 3), (4, 3)])
def test_trade_gains_a_resource_per_bahmani_province_and_cavalry_by_influence(
    rules, influence, cavalry
):
    # 4.3.1 "Gain Resources equal to the number of Provinces containing a Bahmani piece, then
    # gain one Cavalry"; Influential: two at Influence 1-2, three at 3-4 (1.9.1)
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Gujarat", amir=2)
    put(ctx, "Maharashtra", fort=1)
    put(ctx, "Andhra", amir_rebelling=1)
    ctx.state.influence[P.BK] = influence
    ctx.state.resources[P.BK] = 0
    decrees.execute(ctx, P.BK, "trade")
    assert ctx.state.resources[P.BK] == 3
    assert ctx.state.cavalry[P.BK] == cavalry


def test_bahmani_build_places_a_fort_where_an_amir_is(rules):
    # 4.3.2 "Place a Fort in one Province that contains an Amir"
    g = sid(rules, "Gujarat")
    bk = plan(build=g)
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Gujarat", amir=1)
    put(ctx, "Maharashtra", amir=1, fort=1)  # already has its Fort (1.4.4)
    put(ctx, "Sindh", troop=1)
    decrees.execute(ctx, P.BK, "build")
    assert ctx.state.count(g, P.FORT) == 1
    assert ctx.state.avail[P.PT_FORT] == rules.totals[P.PT_FORT] - 2
    invariants.check(ctx.state, rules)


def test_build_is_impossible_without_an_available_structure(rules):
    # 4.3.2 "The Fort must come from the Bahmani Available box"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Gujarat", amir=1)
    ctx.state.avail[P.PT_FORT] = 0
    for name in ("Sindh", "Malwa", "Jaunpur", "Orissa", "Tamilakam"):
        ctx.state.pieces[sid(rules, name) * P.NK + P.FORT] = 1
    assert "build" not in decrees.available_decrees(ctx, P.BK)


def test_vijayanagara_build_places_a_temple_where_a_raja_is(rules):
    # 4.4.2 "Place a Temple in one Province that contains a Raja"
    k = sid(rules, "Karnataka")
    ve = plan()
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Karnataka", raja=1)
    put(ctx, "Andhra", amir=1)
    decrees.execute(ctx, P.VE, "build")
    assert ve.asked == []  # Karnataka is the only choice
    assert ctx.state.count(k, P.TEMPLE) == 1


def test_conspire_replaces_governors_with_amirs_in_up_to_two_provinces(rules):
    # 4.3.3 "In up to two different Provinces with a Bahmani piece, replace a Governor with an
    # Amir (either Obedient or Rebelling as desired)"
    g, m, s = sid(rules, "Gujarat"), sid(rules, "Malwa"), sid(rules, "Sindh")
    bk = plan(
        conspire_target=[(g, P.GOVERNOR), (m, P.GOVERNOR)], conspire_amir=["obedient", "rebelling"]
    )
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Gujarat", amir=1, governor=1)
    put(ctx, "Malwa", amir=1, governor=2)
    put(ctx, "Sindh", amir=1, governor=1)
    decrees.execute(ctx, P.BK, "conspire")
    assert len(asked(bk, "conspire_target")) == 2  # a third Province is not offered
    assert ctx.state.count(g, P.GOVERNOR) == 0 and ctx.state.count(g, P.AMIR_OB) == 2
    assert ctx.state.count(m, P.GOVERNOR) == 1 and ctx.state.count(m, P.AMIR_REB) == 1
    assert ctx.state.count(s, P.GOVERNOR) == 1
    invariants.check(ctx.state, rules)


def test_conspire_cannot_touch_rajas_below_influence_two(rules):
    # 4.3.3: only Governors, and only in Provinces with a Bahmani piece
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Andhra", amir=1, raja=2)
    put(ctx, "Karnataka", governor=1)
    ctx.state.influence[P.BK] = 1
    assert "conspire" not in decrees.available_decrees(ctx, P.BK)


def test_influential_conspire_replaces_rajas_in_adjacent_provinces(rules):
    # 4.3.3 Influential: "replace Governors or Rajas, in or adjacent to Provinces containing
    # Bahmani pieces. Rebelling Rajas must be replaced with Rebelling Amirs"
    a, k = sid(rules, "Andhra"), sid(rules, "Karnataka")
    bk = plan(conspire_target=[(k, P.RAJA_REB)], conspire_amir=["rebelling"])
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Andhra", amir=1)
    set_independent(ctx.state, k)
    put(ctx, "Karnataka", raja_rebelling=1, governor=1, troop=1)
    ctx.state.influence[P.BK] = 2
    decrees.execute(ctx, P.BK, "conspire")
    targets = asked(bk, "conspire_target")[0].options
    assert (k, P.GOVERNOR) in targets and (k, P.RAJA_REB) in targets
    assert asked(bk, "conspire_amir")[0].options == ("rebelling", "none")
    assert ctx.state.count(k, P.RAJA_REB) == 0 and ctx.state.count(k, P.AMIR_REB) == 1
    assert ctx.state.count(a, P.AMIR_OB) == 1
    invariants.check(ctx.state, rules)


# --- Vijayanagara Empire (4.4)


def test_tax_gains_controlled_prosperity_plus_temples(rules):
    # 4.4.1 "combined Prosperity of all Vijayanagara Controlled Provinces, plus the number of
    # Temples on the map"
    ctx = make_ctx(rules, empty_state(rules))
    for name in ("Karnataka", "Tamilakam"):
        set_independent(ctx.state, sid(rules, name))
    put(ctx, "Karnataka", raja_rebelling=2, temple=1)
    put(ctx, "Tamilakam", raja_rebelling=1)
    put(ctx, "Andhra", raja=1, temple=1)  # a Tributary: its Temple counts, its Prosperity not
    ctx.state.resources[P.VE] = 0
    decrees.execute(ctx, P.VE, "tax")
    assert ctx.state.resources[P.VE] == _pr(rules, "Karnataka", "Tamilakam") + 2


def test_compel_places_up_to_two_rajas_near_a_vijayanagara_piece(rules):
    # 4.4.3 "In one Province with or adjacent to a Vijayanagara piece, place up to two
    # Available Rajas"
    a = sid(rules, "Andhra")
    ve = plan(compel_space=a, compel_place=2)
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Karnataka", raja=1)
    decrees.execute(ctx, P.VE, "compel")
    assert set(asked(ve, "compel_space")[0].options) == {
        sid(rules, n) for n in ("Karnataka", "Maharashtra", "Andhra", "Tamilakam")
    }
    assert ctx.state.count(a, P.RAJA_OB) == 2
    assert ctx.state.cavalry[P.VE] == 0  # not Influential: no Cavalry
    invariants.check(ctx.state, rules)


def test_compel_may_place_one_raja_and_move_one_in(rules):
    # 4.4.3 "If desired, one new Raja can be placed and one existing Raja can be moved"
    a, k = sid(rules, "Andhra"), sid(rules, "Karnataka")
    ve = plan(compel_space=a, compel_place=1, compel_move=(k, 1, 0))
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Karnataka", raja=3)
    decrees.execute(ctx, P.VE, "compel")
    moves = asked(ve, "compel_move")[0].options
    assert all(o == "none" or o[1] + o[2] <= 1 for o in moves)
    assert ctx.state.count(a, P.RAJA_OB) == 2
    assert ctx.state.count(k, P.RAJA_OB) == 2
    invariants.check(ctx.state, rules)


def test_influential_compel_gains_cavalry_and_removes_a_troop_flipping_new_rajas(rules):
    # 4.4.3 Influential (>= 2): "also gain one Cavalry token and remove up to one Troop,
    # Governor, or Amir in the selected Province. If removing a Sultanate Unit, flip any Rajas
    # just placed or moved to Rebelling"
    a = sid(rules, "Andhra")
    ve = plan(compel_space=a, compel_place=2, compel_remove=P.TROOP)
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Andhra", raja=1, troop=2, amir=1)
    ctx.state.influence[P.VE] = 2
    decrees.execute(ctx, P.VE, "compel")
    assert set(asked(ve, "compel_remove")[0].options) == {"none", P.TROOP, P.AMIR_OB}
    assert ctx.state.cavalry[P.VE] == 1
    assert ctx.state.count(a, P.TROOP) == 1
    assert (ctx.state.count(a, P.RAJA_OB), ctx.state.count(a, P.RAJA_REB)) == (1, 2)
    invariants.check(ctx.state, rules)


def test_influential_compel_removing_an_amir_does_not_flip_rajas(rules):
    # 4.4.3: only removing a Sultanate Unit flips the Rajas
    a = sid(rules, "Andhra")
    ve = plan(compel_space=a, compel_place=1, compel_remove=P.AMIR_OB)
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Andhra", raja=1, troop=3, amir=1)
    ctx.state.influence[P.VE] = 3
    decrees.execute(ctx, P.VE, "compel")
    assert ctx.state.count(a, P.AMIR_OB) == 0
    assert (ctx.state.count(a, P.RAJA_OB), ctx.state.count(a, P.RAJA_REB)) == (2, 0)
    assert ctx.state.cavalry[P.VE] == 1


def test_compel_below_influence_two_removes_nothing(rules):
    # 4.4.3, 1.9.2: the removal and the Cavalry come with Influence 2
    a = sid(rules, "Andhra")
    ve = plan(compel_space=a, compel_place=2)
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Andhra", raja=1, troop=2)
    ctx.state.influence[P.VE] = 1
    decrees.execute(ctx, P.VE, "compel")
    assert asked(ve, "compel_remove") == []
    assert ctx.state.count(a, P.TROOP) == 2 and ctx.state.cavalry[P.VE] == 0


def test_influential_compel_flips_only_the_rajas_just_placed_or_moved(rules):
    # 4.4.3 "If removing a Sultanate Unit, flip any Rajas just placed or moved to Rebelling":
    # a Raja already there stays Obedient. One Rebelling Raja moves in from Vijayanagara
    # Controlled Karnataka; Andhra's own Obedient Raja was neither placed nor moved.
    a, k = sid(rules, "Andhra"), sid(rules, "Karnataka")
    ve = plan(compel_space=a, compel_place=0, compel_move=(k, 0, 1), compel_remove=P.TROOP)
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    set_independent(ctx.state, k)
    put(ctx, "Karnataka", raja_rebelling=2)
    put(ctx, "Andhra", raja=1, troop=2)
    ctx.state.influence[P.VE] = 2
    decrees.execute(ctx, P.VE, "compel")
    assert ctx.state.count(a, P.TROOP) == 1
    assert (ctx.state.count(a, P.RAJA_OB), ctx.state.count(a, P.RAJA_REB)) == (1, 1)


def test_compel_is_impossible_without_a_vijayanagara_piece_in_a_province(rules):
    # 4.4.3 "In one Province with or adjacent to a Vijayanagara piece"
    ctx = make_ctx(rules, empty_state(rules))
    assert not decrees.MODULES["compel"].possible(ctx, P.VE)
    put(ctx, "Karnataka", raja=1)
    assert decrees.MODULES["compel"].possible(ctx, P.VE)


def test_compel_is_possible_exactly_when_it_has_a_province_to_select(rules):
    # 4.1: a Decree is offered only where it can do something; over random games' positions
    from simulate import play_game

    compel = decrees.MODULES["compel"]
    seen = set()

    def agree(ctx):
        has = bool(compel._targets(ctx, P.VE))
        assert compel.possible(ctx, P.VE) == has
        seen.add(has)

    for seed in range(3):
        play_game(seed, "random", on_action=agree)
    assert True in seen  # the first test gives the other side
