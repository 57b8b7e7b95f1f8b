"""Battles (3.2.4, 3.3.4, 3.4.4, 3.5.3): dice, hits, support from adjacent Structures,
casualties, and the Influence shift between Bahmanis and Vijayanagara."""

from __future__ import annotations

from conftest import empty_state, make_ctx, put, sid
from rules_support import asked, plan

from simulate.vijayanagara.rules import combat, commands, invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.commands import attack
from simulate.vijayanagara.rules.commands import mongol as mongol_cmds
from simulate.vijayanagara.rules.control import set_independent

MISS = [6] * 8


# --- hits (3.2.4)


def test_a_roll_at_or_below_the_units_involved_is_a_hit():
    # 3.2.4 "one hit for each of their modified rolls that is equal to or less than the number
    # of their Units involved"
    assert combat.hits([1, 3, 4, 5], units=3, max_hits=5, always_miss=6) == 2


def test_a_six_always_misses():
    # 3.2.4 "rolls of 6 always miss", however many Units
    assert combat.hits([6, 6, 1], units=12, max_hits=5, always_miss=6) == 1


def test_hits_are_capped_at_five():
    # 3.2.4 "up to a maximum of five"
    assert combat.hits([1, 1, 1, 1, 1, 1], units=6, max_hits=5, always_miss=6) == 5


# --- dice


def _ds_attack_ctx(rules, fort, faces):
    ctx = make_ctx(rules, empty_state(rules), dice=faces, DS=plan(), BK=plan())
    put(ctx, "Gujarat", troop=2, amir_rebelling=1, fort=1 if fort else 0)
    ctx.state.resources = [5, 5, 5]
    return ctx


def test_attacker_rolls_four_dice_and_defender_two(rules):
    # 3.2.4 "The attacker rolls four dice ... and the defender rolls two dice"
    ctx = _ds_attack_ctx(rules, fort=False, faces=MISS)
    commands.execute(ctx, P.DS, "attack")
    assert len(ctx.dice.faces) == 8 - 6


def test_attacking_the_bahmanis_with_a_fort_present_rolls_three_dice(rules):
    # 3.2.4 "(or three if attacking the Bahmani Kingdom and a Fort is in the space)"
    ctx = _ds_attack_ctx(rules, fort=True, faces=MISS)
    commands.execute(ctx, P.DS, "attack")
    assert len(ctx.dice.faces) == 8 - 5


def test_vijayanagara_attacking_a_fort_rolls_three_dice(rules):
    # 3.4.4 "(or three if attacking the Bahmani Kingdom and a Fort is in the Province)"
    ctx = make_ctx(rules, empty_state(rules), dice=MISS, VE=plan(attack_target=P.BK))
    put(ctx, "Maharashtra", raja=2, amir=1, fort=1)
    ctx.state.resources = [5, 5, 5]
    commands.execute(ctx, P.VE, "attack")
    assert len(ctx.dice.faces) == 8 - 5


def test_mongols_roll_three_dice_in_delhi(rules):
    # 3.5.3 "rolls four dice (three if attacking in Delhi)"
    ctx = make_ctx(rules, empty_state(rules), dice=MISS, BK=plan(mongol_attack_space=rules.delhi))
    put(ctx, "Delhi", troop=2, mongol=2)
    mongol_cmds.attack_plunder(ctx, P.BK)
    assert len(ctx.dice.faces) == 8 - 5


def test_mongols_roll_four_dice_in_punjab(rules):
    # 3.5.3
    ctx = make_ctx(rules, empty_state(rules), dice=MISS, BK=plan(mongol_attack_space=rules.punjab))
    put(ctx, "Punjab", troop=2, mongol=2)
    mongol_cmds.attack_plunder(ctx, P.BK)
    assert len(ctx.dice.faces) == 8 - 6


# --- support from one adjacent Structure


def test_up_to_two_troops_join_from_one_adjacent_qasbah_in_a_pure_raid(rules):
    # 3.2.4 "Up to two (total) Troops and/or Governors may join the attack from one adjacent
    # space with a Qasbah"; PLAY NOTE: a pure raid by supporting Units alone is allowed
    andhra = sid(rules, "Andhra")
    ds = plan(
        attack_support=lambda d: max(
            (o for o in d.options if o != "none"), key=lambda o: o[1] + o[2]
        )
    )
    ctx = make_ctx(rules, empty_state(rules), dice=[2, 2, 3, 3, 6, 6], DS=ds)
    put(ctx, "Gondwana", amir_rebelling=3)
    put(ctx, "Andhra", troop=3, governor=1, qasbah=1)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "attack")
    support = asked(ds, "attack_support")[0].options
    assert max(o[1] + o[2] for o in support if o != "none") == 2
    assert {o[0] for o in support if o != "none"} == {andhra}
    gondwana = sid(rules, "Gondwana")
    assert ctx.state.count(gondwana, P.AMIR_REB) == 3 - 2  # two rolls <= 2 Units
    assert ctx.state.count(andhra, P.TROOP) + ctx.state.count(andhra, P.GOVERNOR) == 4
    assert ctx.state.resources[P.DS] == 0
    invariants.check(ctx.state, rules)


def test_up_to_two_amirs_join_from_one_adjacent_fort(rules):
    # 3.3.4 "Up to two Amirs may join the attack from one adjacent Province with a Fort"
    maharashtra = sid(rules, "Maharashtra")
    bk = plan(attack_support=(maharashtra, 2, 0))
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 2, 6, 6, 6, 6], BK=bk)
    put(ctx, "Andhra", raja=2)
    put(ctx, "Maharashtra", amir=3, fort=1)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "attack")
    assert max(o[1] + o[2] for o in asked(bk, "attack_support")[0].options if o != "none") == 2
    assert ctx.state.count(sid(rules, "Andhra"), P.RAJA_OB) == 0
    assert ctx.state.count(maharashtra, P.AMIR_OB) == 3
    invariants.check(ctx.state, rules)


def test_only_one_raja_joins_from_an_adjacent_temple(rules):
    # 3.4.4 "Up to one Raja may join the attack from one adjacent Province with a Temple"
    karnataka = sid(rules, "Karnataka")
    ve = plan(attack_support=(karnataka, 1, 0))
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 2, 6, 6, 6, 6], VE=ve)
    put(ctx, "Maharashtra", amir=2)
    put(ctx, "Karnataka", raja=3, temple=1)
    ctx.state.resources[P.VE] = 1
    commands.execute(ctx, P.VE, "attack")
    assert asked(ve, "attack_support")[0].options == ("none", (karnataka, 1, 0))
    assert ctx.state.count(sid(rules, "Maharashtra"), P.AMIR_OB) == 2 - 1  # only the 1 hits
    invariants.check(ctx.state, rules)


# --- targets and casualties


def test_sultanate_attack_sets_all_defending_units_rebelling(rules):
    # 3.2.4 "Set all Units of that Faction in the space to Rebelling"
    ctx = make_ctx(rules, empty_state(rules), dice=MISS)
    put(ctx, "Madhyadesh", troop=2, amir=2, amir_rebelling=1)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "attack")
    s = sid(rules, "Madhyadesh")
    assert (ctx.state.count(s, P.AMIR_OB), ctx.state.count(s, P.AMIR_REB)) == (0, 3)
    invariants.check(ctx.state, rules)


def test_sultanate_cannot_attack_only_obedient_units(rules):
    # 3.2.4 "Select any spaces containing Rebelling Units, or an opposing Structure without any
    # pieces of the same Faction present"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Madhyadesh", troop=3, amir=2)
    put(ctx, "Karnataka", troop=3, raja=1, temple=1)
    ctx.state.resources[P.DS] = 5
    assert "attack" not in commands.available_commands(ctx, P.DS)


def test_sultanate_may_attack_a_lone_structure(rules):
    # 3.2.4 "... or an opposing Structure without any pieces of the same Faction present"
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 6, 6, 6, 6, 6])
    put(ctx, "Karnataka", troop=1, temple=1)
    ctx.state.resources[P.DS] = 1
    s = sid(rules, "Karnataka")
    assert attack.defenders(ctx, P.DS, s) == [P.VE]
    commands.execute(ctx, P.DS, "attack")
    assert ctx.state.count(s, P.TEMPLE) == 0
    invariants.check(ctx.state, rules)


def test_bahmanis_may_attack_obedient_units_in_a_province(rules):
    # 3.3.4 "Select any Provinces containing opposing pieces"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Karnataka", amir=1, raja=2)
    assert attack.defenders(ctx, P.BK, sid(rules, "Karnataka")) == [P.VE]


def test_the_defender_chooses_its_own_casualties(rules):
    # 3.2.4 "Each Faction removes its own pieces equal to the number of the opponent's hits"
    ds = plan(casualty=[P.GOVERNOR, P.QASBAH])
    ctx = make_ctx(
        rules, empty_state(rules), dice=[1, 1, 6, 6, 6, 6], DS=ds, BK=plan(attack_target=P.DS)
    )
    put(ctx, "Malwa", troop=1, governor=1, qasbah=1, amir=3)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "attack")
    s = sid(rules, "Malwa")
    assert asked(ds, "casualty")[0].options == (P.TROOP, P.GOVERNOR, P.QASBAH)
    assert [ctx.state.count(s, c) for c in (P.TROOP, P.GOVERNOR, P.QASBAH)] == [1, 0, 0]
    assert ctx.state.count(s, P.AMIR_OB) == 3
    invariants.check(ctx.state, rules)


def test_both_sides_remove_pieces_for_the_opponents_hits(rules):
    # 3.2.4: attacker [1, 2, 6, 6] with 2 Units scores 2; defender [1, 6] with 3 Units scores 1
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 2, 6, 6, 1, 6])
    put(ctx, "Gondwana", troop=2, amir_rebelling=3)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "attack")
    s = sid(rules, "Gondwana")
    assert ctx.state.count(s, P.AMIR_REB) == 1
    assert ctx.state.count(s, P.TROOP) == 1
    invariants.check(ctx.state, rules)


def test_attacker_charges_before_the_defender_uses_cavalry(rules):
    # 1.10 "the attacker first and then the defender may use any number of Cavalry tokens"
    order: list[str] = []

    def note(name, answer):
        def pick(d):
            order.append(name)
            return answer(d)

        return pick

    ds = plan(cavalry=note("DS", lambda d: ("charge", 3) if ("charge", 3) in d.options else "done"))
    bk = plan(cavalry=note("BK", lambda d: "done"))
    ctx = make_ctx(rules, empty_state(rules), dice=[3, 6, 6, 6, 6, 6], DS=ds, BK=bk)
    put(ctx, "Gondwana", troop=2, amir_rebelling=1)
    ctx.state.cavalry = [1, 1, 0]
    ctx.state.pool = 8
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "attack")
    assert order[:2] == ["DS", "BK"]
    assert ctx.state.count(sid(rules, "Gondwana"), P.AMIR_REB) == 0  # the charged 3 -> 2 hits
    assert ctx.state.cavalry == [0, 1, 0] and ctx.state.pool == 9
    invariants.check(ctx.state, rules)


# --- Influence shift between the Deccan powers (3.3.4, 3.4.4)


def test_bahmani_vijayanagara_battle_shifts_influence_to_the_side_losing_fewer(rules):
    # 3.3.4 "the winning Faction (the Faction that loses the fewest pieces) increases its
    # Influence by one ... while the other Faction decreases its Influence by one (if possible)"
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 2, 6, 6, 6, 6])
    put(ctx, "Andhra", amir=2, raja=2)
    ctx.state.influence = [0, 0, 1]
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "attack")
    assert ctx.state.influence[P.BK] == 1
    assert ctx.state.influence[P.VE] == 0


def test_bahmani_vijayanagara_battle_with_equal_losses_shifts_nothing(rules):
    # 3.4.4 "If the two Factions remove the same number of pieces there is no adjustment"
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 6, 6, 6, 1, 6])
    put(ctx, "Andhra", amir=2, raja=2)
    ctx.state.resources[P.VE] = 1
    commands.execute(ctx, P.VE, "attack")
    s = sid(rules, "Andhra")
    assert ctx.state.count(s, P.AMIR_OB) == 1 and ctx.state.count(s, P.RAJA_OB) == 1
    assert ctx.state.influence == [0, 0, 0]


def test_sultanate_battles_shift_no_influence(rules):
    # 3.3.4: the shift is only for battles between the Bahmani Kingdom and Vijayanagara
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 1, 6, 6, 6, 6], BK=plan(attack_target=P.DS))
    put(ctx, "Andhra", amir=2, troop=2, raja=1)
    ctx.state.resources[P.BK] = 1
    commands.execute(ctx, P.BK, "attack")
    assert ctx.state.count(sid(rules, "Andhra"), P.TROOP) == 0
    assert ctx.state.influence == [0, 0, 0]


def test_units_join_only_one_attack_per_command(rules):
    # 3.1.2, 3.2.4 "unless they were already involved in an attack in an adjacent space"
    andhra, gondwana = sid(rules, "Andhra"), sid(rules, "Gondwana")
    ds = plan(space=[gondwana, andhra], attack_support=(andhra, 2, 0))
    ctx = make_ctx(rules, empty_state(rules), dice=MISS + MISS, DS=ds)
    put(ctx, "Gondwana", amir_rebelling=1)
    put(ctx, "Andhra", troop=2, qasbah=1, raja_rebelling=1)
    ctx.state.resources[P.DS] = 5
    commands.execute(ctx, P.DS, "attack")
    # Andhra's two Troops supported the raid on Gondwana, so Andhra could not be attacked
    assert len(asked(ds, "space")) == 1
    assert ctx.state.resources[P.DS] == 4


def test_sultanate_may_attack_mongols_who_charge_in_defence(rules):
    # 3.2.4 Mongol Invaders are always Rebelling; 1.10 they Charge when defending
    ctx = make_ctx(rules, empty_state(rules), dice=[6, 6, 6, 6, 3, 6])
    put(ctx, "Punjab", troop=1, mongol=2)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "attack")
    assert ctx.state.count(rules.punjab, P.TROOP) == 0  # the Mongols' 3 charged to a 2
    assert ctx.state.count(rules.punjab, P.MONGOL) == 2
    invariants.check(ctx.state, rules)


def test_bahmani_attack_targets_only_provinces(rules):
    # 3.1.1 Delhi and the Mongol Invasion Regions are not selectable by BK and VE
    ctx = make_ctx(rules, empty_state(rules))
    set_independent(ctx.state, sid(rules, "Gujarat"))
    put(ctx, "Punjab", troop=2)
    put(ctx, "Sindh", amir=2)
    ctx.state.resources[P.BK] = 5
    run = commands.CommandRun("attack", rules.board.n, False, False, None)
    assert list(attack.spaces(ctx, P.BK, run)) == []
