"""The Sequence of Play (2.3): Faction order, the forked options, Limited Command, Pass and
Eligibility; the interrupting cards leave Eligibility alone (2.4, 2.5)."""

from __future__ import annotations

from conftest import Scripted, make_ctx
from rules_support import asked, plan, readings_rules

from simulate.vijayanagara.rules import invariants, sequence
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.pieces import BK, DS, VE


def _card(rules, card_id):
    return next(i for i, c in enumerate(rules.cards) if c.id == card_id)


def _play(ctx, *card_ids):
    """Put the given cards on top of the deck and play them in order."""
    st = ctx.state
    st.deck = tuple(_card(ctx.rules, c) for c in card_ids)
    st.pos = 0
    for _ in card_ids:
        sequence.next_card(ctx)


def _recorder(order, name, **by_kind):
    """A plan that also notes in ``order`` when its Faction is asked for its action."""
    agent = plan(**by_kind)
    inner = agent._pick

    def pick(d):
        if d.kind == "action":
            order.append(name)
        return inner(d)

    agent._pick = pick
    return agent


def _ds_tribute(**extra):
    """DS takes Command + Decree: Collect Tribute first, then no Command (4.1)."""
    return dict(
        action="command_decree",
        decree_timing="decree_first",
        decree="collect_tribute",
        command="none",
        **extra,
    )


def _bk_rally(rules):
    """BK takes Event-or-Command as a Command: Rally in Maharashtra (3.3.1)."""
    return dict(action="command", command="rally", space=[rules.board.id("Maharashtra")])


def test_factions_act_in_the_order_shown_on_the_card(rules):
    # 2.3.2: card 7 shows VE, DS, BK from left to right
    order: list[str] = []
    ctx = make_ctx(
        rules,
        DS=_recorder(order, "DS", action="pass"),
        BK=_recorder(order, "BK", action="pass"),
        VE=_recorder(order, "VE", action="pass"),
    )
    _play(ctx, "7")
    assert order == ["VE", "DS", "BK"]


def test_each_forked_option_is_taken_once_and_the_third_faction_gets_limited_or_pass(rules):
    # 2.3.3: once both forked options are taken, a third Eligible Faction may only take a
    # Limited Command or Pass
    ds = plan(**_ds_tribute())
    bk = plan(**_bk_rally(rules))
    ve = plan(action="pass")
    ctx = make_ctx(rules, DS=ds, BK=bk, VE=ve)
    _play(ctx, "1")  # order DS, BK, VE
    assert "command_decree" in asked(ds, "action")[0].options
    bk_options = asked(bk, "action")[0].options
    assert "command_decree" not in bk_options and "command" in bk_options
    assert asked(ve, "action")[0].options == ("limited", "pass")
    invariants.check(ctx.state, rules)


def test_forked_options_make_a_faction_ineligible_for_the_next_card(rules):
    # 2.3.7: cylinders in the two forked options go to the Ineligible box
    ctx = make_ctx(
        rules, DS=plan(**_ds_tribute()), BK=plan(**_bk_rally(rules)), VE=plan(action="pass")
    )
    _play(ctx, "1")
    assert ctx.state.eligible == [False, False, True]


def test_ineligible_factions_skip_a_card_then_return(rules):
    # 2.3.2 "Ineligible Factions are skipped"; 2.3.7 they return to the Eligible box
    ds = plan(
        action=["command_decree", "pass"],
        decree_timing="decree_first",
        decree="collect_tribute",
        command="none",
    )
    bk = plan(action=["command", "pass"], command="rally", space=[rules.board.id("Maharashtra")])
    ve = plan(action="pass")
    ctx = make_ctx(rules, DS=ds, BK=bk, VE=ve)
    _play(ctx, "1", "2")
    # on the second card only VE acted; DS and BK were not asked
    assert len(asked(ds, "action")) == 1
    assert len(asked(bk, "action")) == 1
    assert len(asked(ve, "action")) == 2
    assert ctx.state.eligible == [True, True, True]


def test_limited_command_and_pass_keep_eligibility(rules):
    # 2.3.5 Limited Command and 2.3.6 Pass: the Faction remains Eligible
    delhi = rules.board.id("Delhi")
    ds = plan(action="limited", command="conscript", space=[delhi])
    ctx = make_ctx(
        rules,
        DS=ds,
        BK=plan(action="pass"),
        VE=plan(action="limited", command="rally", space=[rules.board.id("Karnataka")]),
    )
    _play(ctx, "1")
    assert ctx.state.eligible == [True, True, True]


def test_limited_command_selects_a_single_space(rules):
    # 2.3.5 "A Limited Command is a Command used in just a single space"
    delhi = rules.board.id("Delhi")
    ds = plan(action="limited", command="conscript", space=[delhi], conscript_count=5)
    ctx = make_ctx(rules, DS=ds, BK=plan(action="pass"), VE=plan(action="pass"))
    _play(ctx, "1")
    assert len(asked(ds, "space")) == 1
    assert ctx.state.count(delhi, 0) == 4 + 5
    assert ctx.state.resources[DS] == 12 - 1


def test_the_decree_may_come_after_the_command(rules):
    # 4.1 "the Decree may be used either before or after the full Command is carried out"
    ds = plan(
        action="command_decree",
        decree_timing="command_first",
        command="conscript",
        space=[rules.delhi],
        decree="collect_tribute",
    )
    ctx = make_ctx(rules, DS=ds, BK=plan(action="pass"), VE=plan(action="pass"))
    _play(ctx, "1")
    steps = [d.kind for d in ds.asked]
    assert steps.index("command") < steps.index("decree")
    assert ctx.state.count(rules.delhi, 0) == 4 + 5
    assert ctx.state.resources[DS] == 12 - 1 + 18 // 2
    assert ctx.state.eligible == [False, True, True]


def test_pass_gives_three_resources_to_the_sultanate_and_one_to_the_others(rules):
    # 2.3.6
    ctx = make_ctx(rules, DS=plan(action="pass"), BK=plan(action="pass"), VE=plan(action="pass"))
    _play(ctx, "1")
    assert ctx.state.resources == [12 + 3, 6 + 1, 7 + 1]
    assert ctx.state.eligible == [True, True, True]


def test_resources_never_exceed_twenty_four(rules):
    # 1.8: at most 24 Resources
    ctx = make_ctx(rules, DS=plan(action="pass"), BK=plan(action="pass"), VE=plan(action="pass"))
    ctx.state.resources = [23, 24, 20]
    _play(ctx, "1")
    assert ctx.state.resources == [24, 24, 21]


def test_mongol_invasion_card_leaves_eligibility_unchanged(rules):
    # 2.4 "Play then continues without any adjustment of Eligibility"
    ctx = make_ctx(rules, BK=plan(mongol_command="amass"))
    ctx.state.eligible = [False, True, False]
    _play(ctx, "M1")
    assert ctx.state.eligible == [False, True, False]


def test_succession_card_leaves_eligibility_unchanged(rules):
    # 2.5 "then play continues without adjusting Eligibility"
    ctx = make_ctx(rules)
    ctx.state.eligible = [True, False, False]
    _play(ctx, "zenith")
    assert ctx.state.eligible == [True, False, False]


def test_a_faction_with_no_resources_may_still_pass(rules):
    # 2.3.6 "An Eligible Faction always has the option to Pass"
    bk = plan(action="pass")
    ctx = make_ctx(rules, DS=plan(action="pass"), BK=bk, VE=plan(action="pass"))
    ctx.state.resources[BK] = 0
    _play(ctx, "1")
    assert asked(bk, "action")[0].options[-1] == "pass"
    assert ctx.state.resources[BK] == 1
    assert ctx.state.resources[VE] == 8


def test_the_forks_view_is_cleared_while_another_kind_of_card_is_resolved(rules):
    # 2.3.3: the forked options belong to an Event card; while a Mongol Invasion card is
    # resolved (2.4) no fork is taken, whatever the previous Event card saw
    seen = []

    def pick(d):
        return d.options[0]

    class Watcher(Scripted):
        def choose(self, observation, decision):
            if decision.kind == "mongol_command":
                seen.append(observation.forks_taken)
            return super().choose(observation, decision)

    invasion_card = next(i for i, c in enumerate(rules.cards) if c.kind == "mongol")
    faction = rules.cards[invasion_card].faction
    agents = {n: Scripted(pick) for n in ("DS", "BK", "VE")}
    agents[P.NAMES[faction]] = Watcher(pick)
    ctx = make_ctx(rules, **agents)
    ctx.state.fork_cd, ctx.state.fork_ec = P.DS, P.VE  # left by the previous Event card
    ctx.state.deck = (invasion_card,)
    ctx.state.pos = 0
    sequence.next_card(ctx)
    assert seen and all(view == (-1, -1) for view in seen)


def test_a_command_in_no_space_under_the_event_or_command_fork_is_a_reading(rules):
    # 2.3.3: the first fork is a Command "in any number of spaces (possibly zero)", the second
    # "a Command (3.0) in any number of spaces": the engine asks at least one space there
    # unless readings.fork_command_zero_spaces, which lets a Faction with no Resources take it
    ctx = make_ctx(rules)
    ctx.state.resources[P.BK] = 0
    assert sequence.COMMAND not in sequence.action_options(ctx, P.BK)
    other = readings_rules(fork_command_zero_spaces=True)
    bk = Scripted(lambda d: "command" if d.kind == "action" else d.options[-1])
    ctx = make_ctx(other, BK=bk)
    ctx.state.resources[P.BK] = 0
    ctx.state.card = next(i for i, c in enumerate(other.cards) if c.kind == "event")
    assert sequence.COMMAND in sequence.action_options(ctx, P.BK)
    sequence.faction_turn(ctx, P.BK)
    assert ctx.state.fork_ec == P.BK and ctx.log[P.BK][1] is None
