"""Bahmani Kingdom and Vijayanagara Empire Commands: Rally, Migrate, Rebel (3.3.1-3.3.3,
3.4.1-3.4.3)."""

from __future__ import annotations

from conftest import empty_state, make_ctx, put, sid
from rules_support import asked, plan

from simulate.vijayanagara.rules import commands, invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.control import set_independent
from simulate.vijayanagara.rules.state import TUGHLAQ


def _spaces(ctx, f, name):
    run = commands.CommandRun(name, ctx.rules.board.n, False, False, None)
    return set(commands.MODULES[name].spaces(ctx, f, run))


# --- Rally (3.3.1, 3.4.1)


def test_bahmani_rally_places_two_amirs_in_maharashtra(rules):
    # 3.3.1 "Place one Amir ..., plus up to one additional Amir if the Province is Maharashtra"
    m = sid(rules, "Maharashtra")
    bk = plan(space=[m])
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "rally")
    assert asked(bk, "rally_count")[0].options == (2, 1)
    assert ctx.state.count(m, P.AMIR_OB) == 2
    assert ctx.state.resources[P.BK] == 0


def test_rally_needs_an_own_piece_outside_the_home_province(rules):
    # 3.3.1 "Select any Provinces which already contain a Bahmani piece, and/or Maharashtra"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Gondwana", fort=1)
    put(ctx, "Sindh", raja=1)
    assert _spaces(ctx, P.BK, "rally") == {sid(rules, "Maharashtra"), sid(rules, "Gondwana")}
    assert _spaces(ctx, P.VE, "rally") == {sid(rules, "Karnataka"), sid(rules, "Sindh")}


def test_rally_in_a_bahmani_controlled_province_places_an_extra_rebelling_amir(rules):
    # 3.3.1 "plus up to one additional Amir if the Province is Bahmani Controlled ... placed
    # Rebelling"
    g = sid(rules, "Gondwana")
    ctx = make_ctx(rules, empty_state(rules), BK=plan(space=[g]))
    set_independent(ctx.state, g)
    put(ctx, "Gondwana", amir_rebelling=1)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "rally")
    assert (ctx.state.count(g, P.AMIR_OB), ctx.state.count(g, P.AMIR_REB)) == (0, 3)
    invariants.check(ctx.state, rules)


def test_rally_in_a_tributary_places_obedient_amirs(rules):
    # 3.3.1 "Placed Amirs are Obedient unless the selected Province is Bahmani Controlled"
    g = sid(rules, "Gondwana")
    ctx = make_ctx(rules, empty_state(rules), BK=plan(space=[g]))
    put(ctx, "Gondwana", amir=3)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "rally")
    assert (ctx.state.count(g, P.AMIR_OB), ctx.state.count(g, P.AMIR_REB)) == (4, 0)


def test_vijayanagara_rally_in_karnataka_with_a_temple_places_three_rajas(rules):
    # 3.4.1 "plus up to one additional Raja if the Province is Karnataka, plus up to one
    # additional Raja if there is a Temple present"
    k = sid(rules, "Karnataka")
    ve = plan(space=[k])
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Karnataka", temple=1)
    ctx.state.resources[P.VE] = 1
    commands.execute(ctx, P.VE, "rally")
    assert asked(ve, "rally_count")[0].options == (3, 2, 1)
    assert ctx.state.count(k, P.RAJA_OB) == 3


def test_vijayanagara_rally_in_its_controlled_temple_province_places_three_rebelling(rules):
    # 3.4.1 Temple +1, Vijayanagara Controlled +1, placed Rebelling
    a = sid(rules, "Andhra")
    ctx = make_ctx(rules, empty_state(rules), VE=plan(space=[a]))
    set_independent(ctx.state, a)
    put(ctx, "Andhra", raja_rebelling=1, temple=1)
    ctx.state.resources[P.VE] = 1
    commands.execute(ctx, P.VE, "rally")
    assert ctx.state.count(a, P.RAJA_REB) == 1 + 3
    invariants.check(ctx.state, rules)


def test_bahmani_rally_gets_no_bonus_from_a_fort(rules):
    # 3.3.1 lists no Structure bonus for the Bahmani Kingdom (unlike the Temple in 3.4.1)
    g = sid(rules, "Gondwana")
    bk = plan(space=[g])
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Gondwana", fort=1)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "rally")
    assert asked(bk, "rally_count") == []
    assert ctx.state.count(g, P.AMIR_OB) == 1


# --- Migrate (3.3.2, 3.4.2)


def test_migrate_moves_at_most_three_units_into_a_destination(rules):
    # 3.3.2 "Move up to three Amirs from any adjacent Provinces into the destination"
    g, m, j = sid(rules, "Madhyadesh"), sid(rules, "Maharashtra"), sid(rules, "Malwa")

    def migrate_from(d):
        return max(d.options, key=sum)

    bk = plan(space=[g], migrate_from=migrate_from)
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Maharashtra", amir=2)
    put(ctx, "Malwa", amir=4)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "migrate")
    arrived = ctx.state.count(g, P.AMIR_OB) + ctx.state.count(g, P.AMIR_REB)
    assert arrived == 3
    assert ctx.state.count(m, P.AMIR_OB) + ctx.state.count(j, P.AMIR_OB) == 6 - 3
    assert all(sum(o) <= 3 for d in asked(bk, "migrate_from") for o in d.options)
    invariants.check(ctx.state, rules)


def test_migrating_into_a_tributary_makes_units_obedient(rules):
    # 3.3.2 "... and Obedient if they enter a Tributary Province"
    src, dst = sid(rules, "Maharashtra"), sid(rules, "Gujarat")
    ctx = make_ctx(rules, empty_state(rules), BK=plan(space=[dst], migrate_from=(0, 2)))
    set_independent(ctx.state, src)
    put(ctx, "Maharashtra", amir_rebelling=3)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "migrate")
    assert (ctx.state.count(dst, P.AMIR_OB), ctx.state.count(dst, P.AMIR_REB)) == (2, 0)
    invariants.check(ctx.state, rules)


def test_migrating_into_an_own_controlled_province_makes_units_rebelling(rules):
    # 3.4.2 "They become Rebelling if they enter a Vijayanagara Controlled Province"
    src, dst = sid(rules, "Karnataka"), sid(rules, "Andhra")
    ctx = make_ctx(rules, empty_state(rules), VE=plan(space=[dst], migrate_from=(2, 0)))
    set_independent(ctx.state, dst)
    put(ctx, "Andhra", raja_rebelling=1)
    put(ctx, "Karnataka", raja=2)
    ctx.state.resources[P.VE] = 1
    commands.execute(ctx, P.VE, "migrate")
    assert ctx.state.count(src, P.RAJA_OB) == 0
    assert (ctx.state.count(dst, P.RAJA_OB), ctx.state.count(dst, P.RAJA_REB)) == (0, 3)
    invariants.check(ctx.state, rules)


def test_migrating_elsewhere_keeps_the_units_orientation(rules):
    # 3.3.2 "otherwise they retain their original orientation"
    src, dst = sid(rules, "Maharashtra"), sid(rules, "Gujarat")
    ctx = make_ctx(rules, empty_state(rules), BK=plan(space=[dst], migrate_from=(1, 1)))
    set_independent(ctx.state, src)
    set_independent(ctx.state, dst)
    put(ctx, "Maharashtra", amir=1, amir_rebelling=1, troop=3)
    put(ctx, "Gujarat", troop=3)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "migrate")
    assert (ctx.state.count(dst, P.AMIR_OB), ctx.state.count(dst, P.AMIR_REB)) == (1, 1)
    assert ctx.state.control[dst] == P.DS  # Independent, not Bahmani Controlled
    invariants.check(ctx.state, rules)


def test_migrated_units_cannot_move_again_in_the_same_command(rules):
    # 3.1.2, 3.3.2 PLAY NOTE "Amirs may only ever be moved once during a single Migrate"
    m, g, a = sid(rules, "Maharashtra"), sid(rules, "Gujarat"), sid(rules, "Andhra")
    bk = plan(space=[m, a], migrate_from=lambda d: max(d.options, key=sum))
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Gujarat", amir=2)
    put(ctx, "Tamilakam", amir=1)
    ctx.state.resources[P.BK] = 5
    commands.execute(ctx, P.BK, "migrate")
    assert ctx.state.count(g, P.AMIR_OB) == 0
    # the two Amirs now in Maharashtra could reach Madhyadesh, but are spent
    second = asked(bk, "space")[1].options
    assert sid(rules, "Madhyadesh") not in second
    assert a in second
    assert [d.context for d in asked(bk, "migrate_from")] == [(g, m), (sid(rules, "Tamilakam"), a)]
    assert ctx.state.count(m, P.AMIR_OB) == 2 and ctx.state.count(a, P.AMIR_OB) == 1
    assert ctx.state.resources[P.BK] == 3
    invariants.check(ctx.state, rules)


def test_migrate_influence_shift_costs_one_and_happens_once(rules):
    # 3.3.2 "In up to one destination which contains a Vijayanagara piece, the Bahmani
    # Kingdom may spend 1 Resource to increase their own Influence by one and decrease the
    # Vijayanagara Empire's Influence by one"
    a, t = sid(rules, "Andhra"), sid(rules, "Tamilakam")
    bk = plan(space=[a, t], migrate_from=(1, 0), migrate_shift=True)
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Andhra", raja=1)
    put(ctx, "Tamilakam", raja=1)
    put(ctx, "Karnataka", amir=2)
    ctx.state.influence = [0, 0, 2]
    ctx.state.resources[P.BK] = 5
    commands.execute(ctx, P.BK, "migrate")
    assert len(asked(bk, "migrate_shift")) == 1
    assert ctx.state.influence == [0, 1, 1]
    assert ctx.state.resources[P.BK] == 5 - 2 - 1
    invariants.check(ctx.state, rules)


def test_free_migrate_still_pays_one_resource_to_shift_influence(rules):
    # 3.1.3 "A Faction performing a free Migrate Command must still pay an additional
    # Resource to shift Influence"
    a = sid(rules, "Andhra")
    ctx = make_ctx(
        rules, empty_state(rules), VE=plan(space=[a], migrate_from=(1, 0), migrate_shift=True)
    )
    put(ctx, "Andhra", amir=1)
    put(ctx, "Karnataka", raja=2)
    ctx.state.influence = [0, 1, 0]
    ctx.state.resources[P.VE] = 1
    commands.execute(ctx, P.VE, "migrate", free=True)
    assert ctx.state.influence == [0, 0, 1]
    assert ctx.state.resources[P.VE] == 0


def test_free_migrate_without_resources_cannot_shift_influence(rules):
    # 3.1.3: the shift is paid even in a free Migrate
    a = sid(rules, "Andhra")
    ve = plan(space=[a], migrate_from=(1, 0), migrate_shift=True)
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Andhra", amir=1)
    put(ctx, "Karnataka", raja=2)
    ctx.state.resources[P.VE] = 0
    commands.execute(ctx, P.VE, "migrate", free=True)
    assert asked(ve, "migrate_shift") == []
    assert ctx.state.influence == [0, 0, 0]


def test_migrate_shift_needs_an_opposing_deccan_piece_in_the_destination(rules):
    # 3.3.2 "In up to one destination which contains a Vijayanagara piece"
    g = sid(rules, "Gujarat")
    bk = plan(space=[g], migrate_from=(1, 0), migrate_shift=True)
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Gujarat", troop=1)
    put(ctx, "Maharashtra", amir=1)
    ctx.state.resources[P.BK] = 3
    commands.execute(ctx, P.BK, "migrate")
    assert asked(bk, "migrate_shift") == []


# --- Rebel (3.3.3, 3.4.3)


def test_rebel_is_unavailable_under_the_khalji_dynasty(rules):
    # 2.7.1 "The Rebel Command may not be used during the Khalji Dynasty"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Maharashtra", amir=3)
    ctx.state.resources[P.BK] = 3
    assert "rebel" not in commands.available_commands(ctx, P.BK)
    ctx.state.dynasty = TUGHLAQ
    assert "rebel" in commands.available_commands(ctx, P.BK)


def test_rebel_makes_the_province_independent_and_controlled(rules):
    # 3.3.3 "Flip all Amirs in the targeted Province to Rebelling and remove the Tributary
    # marker. The Province will now be Bahmani Controlled"
    m = sid(rules, "Maharashtra")
    ctx = make_ctx(rules, empty_state(rules), BK=plan(space=[m]))
    ctx.state.dynasty = TUGHLAQ
    put(ctx, "Maharashtra", amir=3, troop=2)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "rebel")
    assert not ctx.state.tributary[m]
    assert ctx.state.control[m] == P.BK
    assert (ctx.state.count(m, P.AMIR_OB), ctx.state.count(m, P.AMIR_REB)) == (0, 3)
    assert ctx.state.resources[P.BK] == 0
    invariants.check(ctx.state, rules)


def test_rebel_needs_a_majority_in_a_tributary(rules):
    # 3.4.3 "Select any number of Tributary Provinces in which Vijayanagara pieces are in the
    # majority (i.e., outnumber all opposing pieces there combined)"
    ctx = make_ctx(rules, empty_state(rules))
    ctx.state.dynasty = TUGHLAQ
    put(ctx, "Karnataka", raja=2, temple=1, troop=2)  # 3 against 2: a majority
    put(ctx, "Andhra", raja=2, amir=1, troop=1)  # 2 against 2: none
    set_independent(ctx.state, sid(rules, "Tamilakam"))
    put(ctx, "Tamilakam", raja=3)  # not a Tributary
    assert _spaces(ctx, P.VE, "rebel") == {sid(rules, "Karnataka")}


def test_rebel_is_allowed_when_an_event_grants_it_under_the_khalji(rules):
    # 2.7.1 "Some Event cards may still allow a Rebel Command"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Karnataka", raja=2)
    ctx.state.resources[P.VE] = 1
    assert "rebel" in commands.available_commands(ctx, P.VE, granted_rebel=True)
