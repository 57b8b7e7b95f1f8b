"""Mongol Invader Commands (3.5) and the Mongol Invasion cards (2.4)."""

from __future__ import annotations

from conftest import empty_state, make_ctx, put, sid
from rules_support import asked, kinds, plan, readings_rules

from simulate.vijayanagara.rules import invariants, invasion
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.commands import mongol

MISS = [6] * 8


def _invasion_card(rules, faction):
    return next(c for c in rules.cards if c.kind == "mongol" and c.faction == faction)


# --- Amass (3.5.1)


def test_amass_places_three_invaders_in_the_mountain_passes(rules):
    # 3.5.1 "Place three Mongol Invaders from Available into Mountain Passes"
    ctx = make_ctx(rules, empty_state(rules))
    mongol.amass(ctx, P.BK)
    assert ctx.state.count(rules.mountain_passes, P.MONGOL) == 3
    assert ctx.state.avail[P.PT_MONGOL] == 12 - 3


def test_amass_overflow_beyond_four_moves_on_to_punjab_then_delhi(rules):
    # 3.5.1 "Move any now there beyond four into Punjab, then any now in Punjab beyond four
    # into Delhi"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Mountain Passes", mongol=3)
    put(ctx, "Punjab", mongol=3)
    mongol.amass(ctx, P.VE)
    st = ctx.state
    assert [st.count(s, P.MONGOL) for s in (rules.mountain_passes, rules.punjab, rules.delhi)] == [
        4,
        4,
        1,
    ]
    invariants.check(st, rules)


def test_amass_needs_an_available_invader_and_places_what_there_is(rules):
    # 3.5.1 "This Command may only be chosen if there is at least one Available Mongol Invader"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Delhi", mongol=12)
    assert "amass" not in mongol.available(ctx)
    ctx2 = make_ctx(rules, empty_state(rules))
    put(ctx2, "Delhi", mongol=10)
    assert "amass" in mongol.available(ctx2)
    mongol.amass(ctx2, P.BK)
    assert ctx2.state.count(rules.mountain_passes, P.MONGOL) == 2


# --- Advance (3.5.2)


def test_advance_moves_invaders_one_region_towards_delhi(rules):
    # 3.5.2 "Move one or more Mongol Invaders from Mountain Passes into Punjab, or from Punjab
    # into Delhi"
    bk = plan(mongol_advance=lambda d: (rules.punjab, rules.delhi, 2))
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    put(ctx, "Mountain Passes", mongol=1)
    put(ctx, "Punjab", mongol=3)
    mongol.advance(ctx, P.BK)
    options = asked(bk, "mongol_advance")[0].options
    assert set(options) == {
        (rules.mountain_passes, rules.punjab, 1),
        (rules.punjab, rules.delhi, 1),
        (rules.punjab, rules.delhi, 2),
        (rules.punjab, rules.delhi, 3),
    }  # at least one Invader moves; never both regions at once
    assert ctx.state.count(rules.punjab, P.MONGOL) == 1
    assert ctx.state.count(rules.delhi, P.MONGOL) == 2


def test_advance_needs_invaders_in_the_passes_or_punjab(rules):
    # 3.5.2 "only if there is at least one Mongol Invader in Mountain Passes or Punjab"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Delhi", mongol=2)
    assert mongol.available(ctx) == ["amass", "attack_plunder"]


# --- Attack and Plunder (3.5.3)


def test_plunder_in_the_passes_costs_a_resource_per_invader_down_to_three(rules):
    # 3.5.3 "For each Mongol Invader remaining there, reduce Sultanate Resources by 1 (down to
    # a minimum of 3)"; "regardless of whether any attack actually occurred"
    ctx = make_ctx(rules, empty_state(rules), BK=plan(mongol_attack_space=rules.mountain_passes))
    put(ctx, "Mountain Passes", mongol=4)
    ctx.state.resources[P.DS] = 5
    mongol.attack_plunder(ctx, P.BK)
    assert ctx.state.resources[P.DS] == 3


def test_plunder_never_raises_resources_below_three(rules):
    # 3.5.3 "(down to a minimum of 3)": a Sultanate already below 3 loses nothing more
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Mountain Passes", mongol=2)
    ctx.state.resources[P.DS] = 2
    mongol.attack_plunder(ctx, P.BK)
    assert ctx.state.resources[P.DS] == 2


def test_plunder_in_punjab_removes_one_province_troop_per_invader(rules):
    # 3.5.3 Punjab: "the Sultanate player must remove one Troop from any Province on the map"
    sindh, malwa = sid(rules, "Sindh"), sid(rules, "Malwa")
    ds = plan(plunder_troop=[sindh, malwa])
    ctx = make_ctx(rules, empty_state(rules), DS=ds, BK=plan(mongol_attack_space=rules.punjab))
    put(ctx, "Punjab", mongol=2)
    put(ctx, "Sindh", troop=1)
    put(ctx, "Malwa", troop=2)
    put(ctx, "Delhi", troop=5)
    ctx.state.resources[P.DS] = 10
    mongol.attack_plunder(ctx, P.BK)
    assert ctx.state.count(sindh, P.TROOP) == 0 and ctx.state.count(malwa, P.TROOP) == 1
    assert ctx.state.count(rules.delhi, P.TROOP) == 5  # Delhi is not a Province
    assert rules.delhi not in asked(ds, "plunder_troop")[0].options
    assert ctx.state.resources[P.DS] == 8
    invariants.check(ctx.state, rules)


def test_plunder_in_delhi_removes_two_province_troops_per_invader(rules):
    # 3.5.3 Delhi: "must remove two Troops from any Provinces on the map (if possible)"
    ctx = make_ctx(rules, empty_state(rules), BK=plan(mongol_attack_space=rules.delhi))
    put(ctx, "Delhi", mongol=2)
    put(ctx, "Malwa", troop=5)
    ctx.state.resources[P.DS] = 10
    mongol.attack_plunder(ctx, P.BK)
    assert ctx.state.count(sid(rules, "Malwa"), P.TROOP) == 5 - 4
    assert ctx.state.resources[P.DS] == 8


def test_plunder_removes_only_the_troops_there_are(rules):
    # 3.5.3 "(if possible)"
    ctx = make_ctx(rules, empty_state(rules), BK=plan(mongol_attack_space=rules.delhi))
    put(ctx, "Delhi", mongol=3)
    put(ctx, "Malwa", troop=1, governor=1)
    ctx.state.resources[P.DS] = 10
    mongol.attack_plunder(ctx, P.BK)
    assert ctx.state.count(sid(rules, "Malwa"), P.TROOP) == 0
    assert ctx.state.count(sid(rules, "Malwa"), P.GOVERNOR) == 1  # Troops only
    assert ctx.state.resources[P.DS] == 7


def test_invaders_beyond_three_return_to_the_box_after_plunder(rules):
    # 3.5.3 "Finally, return any Mongol Invaders in excess of three in the selected space"
    ctx = make_ctx(rules, empty_state(rules), BK=plan(mongol_attack_space=rules.punjab))
    put(ctx, "Punjab", mongol=5)
    put(ctx, "Mountain Passes", mongol=4)
    mongol.attack_plunder(ctx, P.BK)
    assert ctx.state.count(rules.punjab, P.MONGOL) == 3
    assert ctx.state.count(rules.mountain_passes, P.MONGOL) == 4  # not the selected space
    assert ctx.state.avail[P.PT_MONGOL] == 12 - 9 + 2


def test_mongol_attack_all_invaders_attack_and_the_sultanate_chooses_casualties(rules):
    # 3.5.3 "All Mongol Invaders in that space are attacking"; Mongols [2, 3, 6, 6] with 3
    # Invaders score 2; the Sultanate [1, 6] scores 1 and removes its own pieces
    ds = plan(casualty=[P.GOVERNOR, P.TROOP])
    ctx = make_ctx(
        rules,
        empty_state(rules),
        dice=[2, 3, 6, 6, 1, 6],
        DS=ds,
        BK=plan(mongol_attack_space=rules.punjab),
    )
    put(ctx, "Punjab", mongol=3, troop=2, governor=1)
    ctx.state.resources[P.DS] = 10
    mongol.attack_plunder(ctx, P.BK)
    assert ctx.state.count(rules.punjab, P.GOVERNOR) == 0
    assert ctx.state.count(rules.punjab, P.TROOP) == 1
    assert ctx.state.count(rules.punjab, P.MONGOL) == 2
    assert ctx.state.resources[P.DS] == 10 - 2  # plunder by the two survivors
    invariants.check(ctx.state, rules)


# --- Mongol Invasion cards (2.4)


def test_invasion_card_faction_carries_out_two_mongol_commands(rules):
    # 2.4.1 "carries out any two Mongol Invader Commands (3.5), possibly the same Command twice"
    ve = plan(mongol_command=["amass", "amass"])
    ctx = make_ctx(rules, empty_state(rules), VE=ve)
    invasion.mongol_invasion(ctx, _invasion_card(rules, P.VE))
    # on an empty board Amass is the only first Command, taken without asking
    assert len(asked(ve, "mongol_command")) == 1
    st = ctx.state
    assert st.count(rules.mountain_passes, P.MONGOL) == 4
    assert st.count(rules.punjab, P.MONGOL) == 2
    invariants.check(st, rules)


def test_compromising_gifts_trade_one_influence_for_two_resources_and_two_cavalry(rules):
    # 2.4.2 "the selected Faction may optionally reduce its Deccan Influence by one to gain
    # 2 Resources and 2 Cavalry tokens"
    bk = plan(mongol_command="amass", compromising_gifts=True)
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    ctx.state.influence[P.BK] = 1
    ctx.state.resources[P.BK] = 4
    invasion.mongol_invasion(ctx, _invasion_card(rules, P.BK))
    assert ctx.state.influence[P.BK] == 0
    assert ctx.state.resources[P.BK] == 6
    assert ctx.state.cavalry[P.BK] == 2 and ctx.state.pool == 8
    invariants.check(ctx.state, rules)


def test_compromising_gifts_need_influence(rules):
    # 2.4.2: with Influence 0 there is nothing to reduce
    bk = plan(mongol_command="amass", compromising_gifts=True)
    ctx = make_ctx(rules, empty_state(rules), BK=bk)
    ctx.state.resources[P.BK] = 4
    invasion.mongol_invasion(ctx, _invasion_card(rules, P.BK))
    assert "compromising_gifts" not in kinds(bk)
    assert ctx.state.resources[P.BK] == 4 and ctx.state.cavalry[P.BK] == 0


def test_only_the_named_faction_decides_the_invasion(rules):
    # 2.4.1 "either the Bahmani Kingdom or Vijayanagara Empire (whichever is indicated on the
    # card)"
    ds, bk, ve = plan(), plan(mongol_command="amass"), plan(mongol_command="amass")
    ctx = make_ctx(rules, empty_state(rules), DS=ds, BK=bk, VE=ve)
    put(ctx, "Mountain Passes", mongol=1)
    invasion.mongol_invasion(ctx, _invasion_card(rules, P.BK))
    assert len(asked(bk, "mongol_command")) == 2
    assert ve.asked == [] and ds.asked == []


# --- Mongol attacks meet Qasbahs (3.5.3, Key Terms: "Piece: All Units and Structures")


def test_a_qasbah_alone_is_attacked_by_the_mongols_and_can_be_lost(rules):
    # 3.5.3 "carries out a Mongol attack (if any Sultanate pieces are present)"; a Qasbah is a
    # piece. The Mongols' [1, 1, 6, 6] hits twice; the Sultanate rolls [1, 1] and, with no
    # Unit involved, scores nothing ("equal to or less than the number of their Units").
    ds = plan()
    ctx = make_ctx(
        rules,
        empty_state(rules),
        dice=[1, 1, 6, 6, 1, 1],
        DS=ds,
        BK=plan(mongol_attack_space=rules.punjab),
    )
    put(ctx, "Punjab", mongol=3, qasbah=1)
    ctx.state.resources[P.DS] = 10
    mongol.attack_plunder(ctx, P.BK)
    st = ctx.state
    assert ctx.dice.faces == []  # both sides rolled
    assert st.count(rules.punjab, P.QASBAH) == 0
    assert st.count(rules.punjab, P.MONGOL) == 3  # no Sultanate hit
    assert st.qasbah_kills == 1 and st.mongol_kills == 0
    invariants.check(st, rules)


def test_a_qasbah_is_a_mongol_casualty_option_beside_the_units(rules):
    # 3.5.3 "Each Faction removes its own pieces equal to the number of the opponent's hits"
    ds = plan(casualty=[P.QASBAH])
    ctx = make_ctx(
        rules,
        empty_state(rules),
        dice=[1, 6, 6, 6, 6, 6],
        DS=ds,
        BK=plan(mongol_attack_space=rules.punjab),
    )
    put(ctx, "Punjab", mongol=3, troop=1, qasbah=1)
    ctx.state.resources[P.DS] = 10
    mongol.attack_plunder(ctx, P.BK)
    assert set(asked(ds, "casualty")[0].options) == {P.TROOP, P.QASBAH}
    assert ctx.state.count(rules.punjab, P.QASBAH) == 0
    assert ctx.state.count(rules.punjab, P.TROOP) == 1
    invariants.check(ctx.state, rules)


def test_declining_a_mongol_command_is_a_reading_a_variant_can_take(rules):
    # 2.4.1 "carries out any two Mongol Invader Commands": compulsory where possible; the
    # variant key readings.mongol_commands_optional offers "none" instead
    assert "none" not in mongol.available(make_ctx(rules, empty_state(rules)))
    other = readings_rules(mongol_commands_optional=True)
    bk = plan(mongol_command=["none", "none"])
    ctx = make_ctx(other, empty_state(other), BK=bk)
    invasion.mongol_invasion(ctx, _invasion_card(other, P.BK))
    assert [d.options for d in asked(bk, "mongol_command")] == [("amass", "none")] * 2
    assert ctx.state.count(other.mountain_passes, P.MONGOL) == 0


def test_compromising_gifts_at_influence_zero_is_a_reading_a_variant_can_take(rules):
    # 2.4.2 "may optionally reduce its Deccan Influence by one": readings.gifts_at_zero_influence
    # offers it at 0, the move off the track ignored (1.9)
    other = readings_rules(gifts_at_zero_influence=True)
    bk = plan(mongol_command="amass", compromising_gifts=True)
    ctx = make_ctx(other, empty_state(other), BK=bk)
    ctx.state.resources[P.BK] = 4
    invasion.mongol_invasion(ctx, _invasion_card(other, P.BK))
    assert ctx.state.influence[P.BK] == 0
    assert ctx.state.resources[P.BK] == 6 and ctx.state.cavalry[P.BK] == 2
    invariants.check(ctx.state, other)
