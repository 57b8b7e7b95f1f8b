"""The Succession cards (2.5) and the Dynasty card (2.7)."""

from __future__ import annotations

from conftest import empty_state, make_ctx, put, sid
from rules_support import asked, plan

from simulate.vijayanagara.rules import commands, invariants, succession
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.control import set_independent
from simulate.vijayanagara.rules.state import KHALJI, TUGHLAQ

# --- Zenith of the Delhi Sultanate (2.5.1)


def test_zenith_flips_the_dynasty_and_opens_rebel(rules):
    # 2.5.1 step 1 "Flip the Dynasty Card to the Tughlaq side. The Rebel Command is now available"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Maharashtra", amir=3)
    assert ctx.state.dynasty == KHALJI
    assert "rebel" not in commands.available_commands(ctx, P.BK)
    succession.zenith(ctx)
    assert ctx.state.dynasty == TUGHLAQ
    assert "rebel" in commands.available_commands(ctx, P.BK)


def test_zenith_gives_bahmani_cavalry_equal_to_influence_plus_forts(rules):
    # 2.5.1 step 3 "gains Cavalry tokens equal to its Influence track value and Forts on the map"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Gujarat", amir=1, fort=1)
    put(ctx, "Maharashtra", fort=1)
    ctx.state.influence[P.BK] = 2
    succession.zenith(ctx)
    assert ctx.state.cavalry[P.BK] == 4
    assert ctx.state.pool == 10 - 4


def test_zenith_gives_vijayanagara_resources_equal_to_influence_plus_temples(rules):
    # 2.5.1 step 4 "gains Resources equal to its Influence track value and Temples on the map"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Karnataka", raja=1, temple=1)
    ctx.state.influence[P.VE] = 3
    ctx.state.resources[P.VE] = 5
    succession.zenith(ctx)
    assert ctx.state.resources[P.VE] == 5 + 3 + 1


def test_succession_campaign_uses_only_delhi_and_provinces(rules):
    # 2.5.1 step 2 "The Delhi Sultanate may Campaign, using only Delhi and Provinces (not
    # Mongol Invasion Regions)"
    ds = plan(
        succession_campaign=True,
        campaign_origin=rules.delhi,
        campaign_pickup=[(2, 0)],
        campaign_step=[sid(rules, "Malwa")],
    )
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Delhi", troop=2)
    put(ctx, "Punjab", troop=3)
    put(ctx, "Sindh", troop=1)
    succession.zenith(ctx)
    assert set(asked(ds, "campaign_origin")[0].options) == {rules.delhi, sid(rules, "Sindh")}
    assert rules.punjab not in asked(ds, "campaign_step")[0].options
    assert ctx.state.count(sid(rules, "Malwa"), P.TROOP) == 2
    invariants.check(ctx.state, rules)


def test_succession_campaign_is_optional(rules):
    # 2.5.1 "The Delhi Sultanate may Campaign"
    ctx = make_ctx(rules, empty_state(rules), DS=plan(succession_campaign=False))
    put(ctx, "Delhi", troop=2)
    succession.zenith(ctx)
    assert ctx.state.count(rules.delhi, P.TROOP) == 2


# --- Rise of the Rebel Sultans (2.5.2)


def test_rise_grants_a_free_limited_command(rules):
    # 2.5.2 step 2 "The Bahmani Kingdom may execute a free Limited Command"
    m = sid(rules, "Maharashtra")
    bk = plan(succession_command="rally", space=[m])
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Gujarat", amir=1)
    ctx.state.resources[P.BK] = 3
    succession.rise(ctx)
    assert ctx.state.count(m, P.AMIR_OB) == 2
    assert ctx.state.resources[P.BK] == 3  # free (3.1.3)
    assert len(asked(bk, "space")) == 1  # Limited: one space (2.3.5)


def test_rise_free_command_needs_no_resources(rules):
    # 3.1.3: a free Command is possible with no Resources at all
    ve = plan(succession_command="rally", space=[sid(rules, "Karnataka")])
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    ctx.state.resources[P.VE] = 0
    succession.rise(ctx)
    assert "rally" in asked(ve, "succession_command")[0].options
    assert ctx.state.count(sid(rules, "Karnataka"), P.RAJA_OB) == 2


def test_rise_gain_is_the_controlled_prosperity_capped_at_three_split_as_chosen(rules):
    # 2.5.2 "gains any combination of Resources and Cavalry tokens equal to the Prosperity of
    # all Bahmani-Controlled Independent Provinces (to a maximum of three)"
    bk = plan(succession_command="decline", succession_gain=1)
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    for name in ("Maharashtra", "Gujarat", "Sindh"):
        set_independent(ctx.state, sid(rules, name))
        put(ctx, name, amir_rebelling=1)
    total = sum(rules.board.prosperity[sid(rules, n)] for n in ("Maharashtra", "Gujarat", "Sindh"))
    assert total > 3
    ctx.state.resources[P.BK] = 0
    succession.rise(ctx)
    assert asked(bk, "succession_gain")[0].options == (3, 2, 1, 0)
    assert ctx.state.resources[P.BK] == 1
    assert ctx.state.cavalry[P.BK] == 2
    invariants.check(ctx.state, rules)


def test_rise_gives_nothing_without_controlled_provinces(rules):
    # 2.5.2: Prosperity of no Provinces is zero
    ve = plan(succession_command="decline")
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    put(ctx, "Karnataka", raja=3)  # a Tributary is never Controlled
    ctx.state.resources[P.VE] = 2
    succession.rise(ctx)
    assert asked(ve, "succession_gain") == []
    assert ctx.state.resources[P.VE] == 2 and ctx.state.cavalry[P.VE] == 0


# --- Lords of the Deccan (2.5.3)


def test_lords_shift_influence_for_three_resources_up_to_three_times(rules):
    # 2.5.3 "may spend 3 Resources to shift either the Bahmani or Vijayanagara Influence by one
    # in either direction. This action may be taken up to three times"
    ds = plan(lords_shift=[(P.VE, 1), (P.VE, 1), (P.BK, 1)])
    bk = plan(lords_shift=[(P.VE, -1)])
    ve = plan()
    ctx = make_ctx(rules, empty_state(rules), DS=ds, BK=bk, VE=ve)
    ctx.state.resources = [20, 4, 9]
    succession.lords(ctx)
    assert len(asked(ds, "lords_shift")) == 3  # a fourth shift is not offered
    assert len(asked(bk, "lords_shift")) == 1  # 4 - 3 = 1 left: no second shift
    assert ctx.state.resources == [20 - 9, 4 - 3, 9]
    assert ctx.state.influence == [0, 1, 1]
    invariants.check(ctx.state, rules)


def test_lords_shift_needs_three_resources(rules):
    # 2.5.3 "spend 3 Resources"
    ds = plan(lords_shift=[(P.BK, 1)])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    ctx.state.resources = [2, 0, 0]
    succession.lords(ctx)
    assert ds.asked == []
    assert ctx.state.influence == [0, 0, 0]


def test_succession_cards_come_in_the_fixed_order(rules):
    # 2.5 "always appear in the same order"; resolving a card carries out its own steps
    ctx = make_ctx(rules, empty_state(rules))
    succession.resolve(ctx, rules.cards[rules.succession_cards["zenith"]])
    assert ctx.state.dynasty == TUGHLAQ
    assert list(rules.succession_cards) == ["zenith", "rise", "lords"]
