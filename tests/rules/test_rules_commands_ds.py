"""Delhi Sultanate Commands (3.2.1-3.2.3) and Commands in general (3.1)."""

from __future__ import annotations

from conftest import empty_state, make_ctx, put, sid
from rules_support import asked, plan

from simulate.vijayanagara.rules import commands, invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.control import set_independent

# --- Conscript (3.2.1)


def test_conscript_places_up_to_five_troops_in_delhi(rules):
    # 3.2.1 "Place up to five Troops in Delhi"
    ds = plan(space=[rules.delhi])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    ctx.state.resources[P.DS] = 3
    commands.execute(ctx, P.DS, "conscript")
    assert asked(ds, "conscript_count")[0].options == (5, 4, 3, 2, 1)
    assert ctx.state.count(rules.delhi, P.TROOP) == 5
    assert ctx.state.resources[P.DS] == 2
    invariants.check(ctx.state, rules)


def test_conscript_places_two_troops_in_a_space_with_a_qasbah(rules):
    # 3.2.1 "or two Troops in a space with a Qasbah"
    andhra = sid(rules, "Andhra")
    ctx = make_ctx(rules, empty_state(rules), DS=plan(space=[andhra]))
    put(ctx, "Andhra", qasbah=1)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "conscript")
    assert ctx.state.count(andhra, P.TROOP) == 2


def test_conscript_places_one_troop_in_a_tributary_without_a_qasbah(rules):
    # 3.2.1 "or one Troop in a Tributary Province without a Qasbah"
    sindh = sid(rules, "Sindh")
    ds = plan(space=[sindh])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "conscript")
    assert ctx.state.count(sindh, P.TROOP) == 1
    assert asked(ds, "conscript_count") == []  # a single Troop is not a choice


def test_conscript_selects_tributaries_qasbah_spaces_and_delhi_only(rules):
    # 3.2.1 "Select any Tributary Provinces, spaces with a Qasbah, and/or Delhi"
    ctx = make_ctx(rules, empty_state(rules))
    set_independent(ctx.state, sid(rules, "Gujarat"))
    set_independent(ctx.state, sid(rules, "Andhra"))
    put(ctx, "Andhra", qasbah=1)
    run = commands.CommandRun("conscript", rules.board.n, False, False, None)
    got = set(commands.MODULES["conscript"].spaces(ctx, P.DS, run))
    assert sid(rules, "Gujarat") not in got
    assert sid(rules, "Andhra") in got
    assert rules.delhi in got
    assert rules.punjab not in got and rules.mountain_passes not in got
    assert sid(rules, "Sindh") in got


def test_conscript_costs_one_resource_per_space(rules):
    # 3.2.1 "Spend 1 Resource for each selected space"
    ds = plan(space=[sid(rules, "Sindh"), sid(rules, "Gujarat"), rules.delhi], conscript_count=2)
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    ctx.state.resources[P.DS] = 10
    assert commands.execute(ctx, P.DS, "conscript") == 3
    assert ctx.state.resources[P.DS] == 7
    assert ctx.state.count(rules.delhi, P.TROOP) == 2


def test_commands_stop_when_resources_run_out(rules):
    # 3.1 / 1.8: each space costs 1 Resource and Resources never go below 0
    ds = plan(space=[sid(rules, "Sindh"), sid(rules, "Gujarat"), rules.delhi])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    ctx.state.resources[P.DS] = 2
    assert commands.execute(ctx, P.DS, "conscript") == 2
    assert ctx.state.resources[P.DS] == 0


def test_free_commands_cost_no_resources(rules):
    # 3.1.3 "free Commands that cost no Resources"
    ds = plan(space=[sid(rules, "Sindh"), sid(rules, "Gujarat")])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    ctx.state.resources[P.DS] = 0
    assert commands.execute(ctx, P.DS, "conscript", free=True) == 2
    assert ctx.state.resources[P.DS] == 0
    assert ctx.state.count(sid(rules, "Sindh"), P.TROOP) == 1


def test_conscript_is_limited_by_available_troops(rules):
    # 1.4.3: only Available Troops are placed
    ds = plan(space=[rules.delhi])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Punjab", troop=rules.totals[P.PT_TROOP] - 3)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "conscript")
    assert asked(ds, "conscript_count")[0].options == (3, 2, 1)
    assert ctx.state.count(rules.delhi, P.TROOP) == 3


def test_a_space_is_selected_only_once_per_command(rules):
    # 3.1.1 "Spaces may only be selected once for any Command in one Faction's turn"
    ds = plan(space=[rules.delhi])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    ctx.state.resources[P.DS] = 5
    commands.execute(ctx, P.DS, "conscript")
    assert rules.delhi not in asked(ds, "space")[1].options


# --- March (3.2.2)


def test_march_moves_troops_and_governors_from_adjacent_spaces(rules):
    # 3.2.2 "Move any number of Troops and Governors from adjacent spaces into destination
    # spaces"; Units may come from several adjacent spaces
    malwa, delhi, gujarat = sid(rules, "Malwa"), rules.delhi, sid(rules, "Gujarat")

    def march_from(d):
        src, _ = d.context
        return {delhi: (3, 1), gujarat: (1, 0)}.get(src, (0, 0))

    ctx = make_ctx(rules, empty_state(rules), DS=plan(space=[malwa], march_from=march_from))
    put(ctx, "Delhi", troop=4, governor=1)
    put(ctx, "Gujarat", troop=2)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "march")
    assert (ctx.state.count(malwa, P.TROOP), ctx.state.count(malwa, P.GOVERNOR)) == (4, 1)
    assert ctx.state.count(delhi, P.TROOP) == 1
    assert ctx.state.count(gujarat, P.TROOP) == 1
    assert ctx.state.resources[P.DS] == 0
    invariants.check(ctx.state, rules)


def test_marched_units_cannot_move_again_in_the_same_command(rules):
    # 3.1.2, 3.2.2 PLAY NOTE "Units may only ever be moved once during a single March"
    malwa, delhi = sid(rules, "Malwa"), rules.delhi
    ds = plan(
        space=[malwa, sid(rules, "Maharashtra")],
        march_from=lambda d: (2, 0) if d.context == (delhi, malwa) else (0, 0),
    )
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Delhi", troop=2)
    ctx.state.resources[P.DS] = 5
    commands.execute(ctx, P.DS, "march")
    # after the Troops reached Malwa, no space was left to march them on to
    assert len(asked(ds, "space")) == 1
    assert ctx.state.count(malwa, P.TROOP) == 2
    assert ctx.state.resources[P.DS] == 4


def test_march_costs_one_resource_per_destination(rules):
    # 3.2.2 "Spend 1 Resource for each selected destination space"
    malwa, jaunpur, delhi = sid(rules, "Malwa"), sid(rules, "Jaunpur"), rules.delhi
    ds = plan(
        space=[malwa, jaunpur], march_from=lambda d: (1, 0) if d.context[0] == delhi else (0, 0)
    )
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Delhi", troop=4)
    ctx.state.resources[P.DS] = 5
    commands.execute(ctx, P.DS, "march")
    assert ctx.state.count(malwa, P.TROOP) == 1 and ctx.state.count(jaunpur, P.TROOP) == 1
    assert ctx.state.resources[P.DS] == 3


# --- Govern (3.2.3)


def test_govern_places_a_governor(rules):
    # 3.2.3 "In each selected space either place a Governor"
    sindh = sid(rules, "Sindh")
    ctx = make_ctx(rules, empty_state(rules), DS=plan(space=[sindh], govern="governor"))
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "govern")
    assert ctx.state.count(sindh, P.GOVERNOR) == 1
    assert ctx.state.resources[P.DS] == 0


def test_govern_with_a_governor_removes_up_to_two_obedient_units_and_places_a_qasbah(rules):
    # 3.2.3 "if the space already contains a Governor remove up to two Obedient Units and/or
    # place a Qasbah"
    andhra = sid(rules, "Andhra")
    ds = plan(space=[andhra], govern=(1, 1, 1))
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Andhra", governor=1, amir=2, raja=3)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "govern")
    options = asked(ds, "govern")[0].options
    assert max(a + r for o in options if o != "governor" for a, r, _ in [o]) == 2
    assert (ctx.state.count(andhra, P.AMIR_OB), ctx.state.count(andhra, P.RAJA_OB)) == (1, 2)
    assert ctx.state.count(andhra, P.QASBAH) == 1
    invariants.check(ctx.state, rules)


def test_govern_never_removes_rebelling_units(rules):
    # 3.2.3 "remove up to two Obedient Units"
    madhyadesh = sid(rules, "Madhyadesh")
    ds = plan(space=[madhyadesh])
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Madhyadesh", governor=1, amir_rebelling=2, raja=1)
    ctx.state.resources[P.DS] = 1
    commands.execute(ctx, P.DS, "govern")
    removals = [o for o in asked(ds, "govern")[0].options if o != "governor"]
    assert {a for a, _, _ in removals} == {0}
    assert ctx.state.count(madhyadesh, P.AMIR_REB) == 2


def test_govern_cannot_select_an_independent_province_it_does_not_control(rules):
    # 3.2.3 "Select any number of Tributaries, Sultanate Controlled Provinces, Mongol Invasion
    # Regions, and/or Delhi"
    ctx = make_ctx(rules, empty_state(rules))
    gujarat, malwa = sid(rules, "Gujarat"), sid(rules, "Malwa")
    set_independent(ctx.state, gujarat)
    set_independent(ctx.state, malwa)
    put(ctx, "Gujarat", amir=2)
    put(ctx, "Malwa", troop=2, governor=1)
    run = commands.CommandRun("govern", rules.board.n, False, False, None)
    got = set(commands.MODULES["govern"].spaces(ctx, P.DS, run))
    assert gujarat not in got
    assert malwa in got  # Sultanate Controlled
    assert {rules.delhi, rules.punjab, rules.mountain_passes} <= got


def test_a_limited_march_may_gather_units_from_several_adjacent_spaces(rules):
    # 2.3.5 "It can still involve pieces from multiple spaces, as per the Command's instructions"
    malwa, delhi, gujarat = sid(rules, "Malwa"), rules.delhi, sid(rules, "Gujarat")
    ds = plan(
        space=[malwa], march_from=lambda d: (1, 0) if d.context[0] in (delhi, gujarat) else (0, 0)
    )
    ctx = make_ctx(rules, empty_state(rules), DS=ds)
    put(ctx, "Delhi", troop=2)
    put(ctx, "Gujarat", troop=2)
    ctx.state.resources[P.DS] = 5
    assert commands.execute(ctx, P.DS, "march", limited=True) == 1
    assert ctx.state.count(malwa, P.TROOP) == 2
    assert ctx.state.resources[P.DS] == 4
    invariants.check(ctx.state, rules)
