"""Qasbahs outside the Provinces (3.2.3, 3.2.1, 3.2.4, 1.4.4) and attacker casualties among
the Units that took part (3.3.4, 3.4.4)."""

from __future__ import annotations

import pytest
from conftest import empty_state, make_ctx, put, sid
from rules_support import asked, plan

from simulate.vijayanagara.rules import commands, invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.commands import govern
from simulate.vijayanagara.rules.invariants import InvariantError

MISS = [6] * 8


def _spaces(rules):
    return {"Delhi": rules.delhi, "Punjab": rules.punjab, "Mountain Passes": rules.mountain_passes}


@pytest.mark.parametrize("space", ["Delhi", "Punjab", "Mountain Passes"])
def test_govern_places_a_qasbah_in_delhi_and_the_mongol_invasion_regions(rules, space):
    # 3.2.3 "Select any number of Tributaries, Sultanate Controlled Provinces, Mongol Invasion
    # Regions, and/or Delhi ... In each selected space ... if the space already contains a
    # Governor ... place a Qasbah"
    s = _spaces(rules)[space]
    ds = plan(space=[s], govern=(0, 0, 1))
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, space, governor=1)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "govern")
    assert (0, 0, 1) in asked(ds, "govern")[0].options
    assert ctx.state.count(s, P.QASBAH) == 1
    invariants.check(ctx.state, rules)


def test_govern_offers_no_second_qasbah_in_a_space(rules):
    # Key Terms, Stacking: "each space can hold up to one of each Faction's Structures" (1.4.4)
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Delhi", governor=1, qasbah=1)
    options = govern.options(rules, ctx.state.pieces, ctx.state.avail, rules.delhi)
    assert all(o == "governor" or o[2] == 0 for o in options)


def test_conscript_places_two_troops_in_a_region_with_a_qasbah(rules):
    # 3.2.1 "Select any Tributary Provinces, spaces with a Qasbah, and/or Delhi ... two Troops
    # in a space with a Qasbah"
    ds = plan(space=[rules.punjab], conscript_count=2)
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Punjab", qasbah=1)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "conscript")
    assert asked(ds, "conscript_count")[0].options == (2, 1)
    assert ctx.state.count(rules.punjab, P.TROOP) == 2
    invariants.check(ctx.state, rules)


def test_a_qasbah_in_a_region_lends_two_troops_to_an_attack_on_mongols(rules):
    # 3.2.4 "Up to two (total) Troops and/or Governors may join the attack from one adjacent
    # space with a Qasbah": a space, not only a Province; Mongols may be attacked (3.2.4)
    passes = rules.mountain_passes
    ds = plan(space=[passes], attack_support=(rules.punjab, 2, 0))
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 2, 6, 6, 6, 6, 6, 6], DS=ds)
    put(ctx, "Punjab", troop=3, qasbah=1)
    put(ctx, "Mountain Passes", mongol=2)
    ctx.state.resources[P.DS] = 1
    assert commands.execute(ctx, P.DS, "attack") == 1  # a pure raid, by the lent Troops alone
    support = [o for o in asked(ds, "attack_support")[0].options if o != "none"]
    assert {o[0] for o in support} == {rules.punjab}
    assert max(o[1] + o[2] for o in support) == 2
    assert ctx.state.count(passes, P.MONGOL) == 0  # two rolls at or below 2 Units
    invariants.check(ctx.state, rules)


def test_a_qasbah_in_delhi_lends_to_an_attack_in_an_adjacent_province(rules):
    # 3.2.4 support from "one adjacent space with a Qasbah"; Delhi is adjacent to Malwa (1.3.5)
    malwa = sid(rules, "Malwa")
    ds = plan(space=[malwa], attack_support=(rules.delhi, 1, 1))
    ctx = make_ctx(rules, empty_state(rules), dice=MISS, DS=ds)
    put(ctx, "Delhi", troop=2, governor=1, qasbah=1)
    put(ctx, "Malwa", amir_rebelling=1)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "attack")
    assert (rules.delhi, 1, 1) in asked(ds, "attack_support")[0].options


def test_the_invariants_accept_one_qasbah_per_space_anywhere(rules):
    # 3.2.3 Qasbahs in spaces; Key Terms, Stacking: one of each Faction's Structures (1.4.4)
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Delhi", qasbah=1)
    put(ctx, "Punjab", qasbah=1)
    invariants.check(ctx.state, rules)
    put(ctx, "Punjab", qasbah=1)
    with pytest.raises(InvariantError, match="stacking"):
        invariants.check(ctx.state, rules)


@pytest.mark.parametrize(
    ("faction", "name", "units", "structure", "enemy"),
    [
        (P.BK, "BK", ("amir", "amir_rebelling"), "fort", "raja"),  # 3.3.4
        (P.VE, "VE", ("raja", "raja_rebelling"), "temple", "amir"),  # 3.4.4
    ],
)
def test_attackers_lose_only_units_that_took_part_across_a_multi_space_attack(
    rules, faction, name, units, structure, enemy
):
    # 3.3.4, 3.4.4 (as 3.2.4): the attacker removes its casualties among the Units involved.
    # Andhra lends only its Rebelling Unit to the attack on Gondwana: its Obedient Unit did
    # not fight, so it can be neither a casualty nor counted as used, and it may still join
    # the next attack of the same Command, on Madhyadesh.
    andhra, gondwana, madhyadesh = (sid(rules, n) for n in ("Andhra", "Gondwana", "Madhyadesh"))
    ob, reb = P.UNITS_OF[faction]
    agent = plan(space=[gondwana, madhyadesh], attack_support=[(andhra, 0, 1), (andhra, 1, 0)])
    # Gondwana: the attacker misses, the defender's 1 hits; Madhyadesh: everyone misses
    ctx = make_ctx(rules, empty_state(rules), dice=[6, 6, 6, 6, 1, 6, *MISS], **{name: agent})
    put(ctx, "Andhra", **{units[0]: 1, units[1]: 1, structure: 1})
    put(ctx, "Gondwana", **{enemy: 2})
    put(ctx, "Madhyadesh", **{enemy: 1})
    ctx.state.resources[faction] = 2
    assert commands.execute(ctx, faction, "attack") == 2
    # the one casualty could only be the lent Rebelling Unit (a single option is not asked;
    # with the Obedient Unit among the options the default answer would have taken it)
    assert all(d.options == ((andhra, reb),) for d in asked(agent, "casualty"))
    assert ctx.state.count(andhra, reb) == 0 and ctx.state.count(andhra, ob) == 1
    second = asked(agent, "attack_support")[1].options
    assert (andhra, 1, 0) in second  # the Obedient Unit never fought: it may still lend
    invariants.check(ctx.state, rules)


@pytest.mark.parametrize(
    ("faction", "name", "units", "enemy"),
    [
        (P.BK, "BK", ("amir", "amir_rebelling"), "raja"),  # 3.3.4
        (P.VE, "VE", ("raja", "raja_rebelling"), "amir"),  # 3.4.4
    ],
)
def test_attackers_that_flip_to_rebelling_after_the_defenders_losses_are_still_casualties(
    rules, faction, name, units, enemy
):
    # 3.2.4 "Each Faction removes its own pieces equal to the number of the opponent's hits";
    # 1.4.5 "If a Province becomes Controlled ... immediately flip all their Units in the
    # Province to Rebelling". Two Obedient attackers against two defenders: [1, 1, 6, 6] hits
    # twice, the defender's [1, 6] once. The defender's losses give the attacker Control, its
    # two Units flip, and they are the same pieces: one of them is still the casualty.
    gondwana = sid(rules, "Gondwana")
    ob, reb = P.UNITS_OF[faction]
    agent = plan(space=[gondwana])
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 1, 6, 6, 1, 6], **{name: agent})
    ctx.state.tributary[gondwana] = False  # an Independent Province (1.6)
    put(ctx, "Gondwana", **{units[0]: 2, enemy: 2})
    assert ctx.state.control[gondwana] == -1
    ctx.state.resources[faction] = 1
    assert commands.execute(ctx, faction, "attack", limited=True) == 1
    st = ctx.state
    assert st.control[gondwana] == faction
    assert st.count(gondwana, ob) == 0  # flipped (1.4.5)
    assert st.count(gondwana, reb) == 1  # two fought, one hit taken: one removed
    invariants.check(st, rules)
