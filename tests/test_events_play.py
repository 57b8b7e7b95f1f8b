"""The Event option in the Sequence of Play (2.3.3, 2.3.4, 2.3.7): when it is offered, which
sides, Stay Eligible, ``eligibility`` ops, a free Rebel under the Khalji Dynasty (2.7.1),
lasting modifiers expiring at the next Succession card, and random games with the board
invariants checked after every action."""

from __future__ import annotations

import dataclasses
from collections import Counter

from conftest import Scripted, empty_state, make_ctx, put, sid

from simulate import play_game
from simulate.vijayanagara.rules import commands, events, invariants, sequence
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.state import KHALJI

DS, BK, VE = P.DS, P.BK, P.VE


def by_kind(**answers) -> Scripted:
    """Answers by Decision kind (lists in order, else a constant), else the first option."""
    queues = {k: list(v) for k, v in answers.items() if isinstance(v, list)}

    def pick(d):
        if d.kind in queues and queues[d.kind]:
            return queues[d.kind].pop(0)
        if d.kind in answers and not isinstance(answers[d.kind], list):
            return answers[d.kind]
        return d.options[0]

    return Scripted(pick)


def card_index(rules, card_id: str) -> int:
    return next(i for i, c in enumerate(rules.cards) if c.id == card_id)


def on_card(ctx, card_id: str) -> None:
    """Make ``card_id`` the Event card in play, nobody having acted yet (2.3)."""
    st = ctx.state
    st.card = card_index(ctx.rules, card_id)
    st.acted = 0
    st.fork_cd = st.fork_ec = -1
    st.elig_next = [-1, -1, -1]
    st.stay = 0


def play_card(ctx, card_id: str) -> None:
    """Every Eligible Faction acts in the card's order, then Eligibility is adjusted (2.3)."""
    on_card(ctx, card_id)
    sequence.resume_card(ctx)
    invariants.check(ctx.state, ctx.rules)


# --- the option --------------------------------------------------------------------------


def test_the_event_option_is_offered_while_the_event_fork_is_free(rules):
    # 2.3.3: "Execute either the Event shown on the current card or a Command"
    ctx = make_ctx(rules)
    on_card(ctx, "1")
    assert events.enabled(ctx)
    for f in (DS, BK, VE):
        assert sequence.EVENT_OPTION in sequence.action_options(ctx, f)
    ctx.state.fork_ec = DS  # taken by a first Faction: gone for the others (2.3.3)
    assert sequence.EVENT_OPTION not in sequence.action_options(ctx, BK)


def test_no_deck_no_event_option(rules):
    ctx = make_ctx(dataclasses.replace(rules, deck=None))
    on_card(ctx, "1")
    assert not events.enabled(ctx)
    assert sequence.EVENT_OPTION not in sequence.action_options(ctx, DS)


def test_executing_the_event_takes_the_fork_and_logs_the_side(rules):
    # 2.3.3, 2.3.4: the executor picks the side; the first Faction's Event blocks the fork
    ds = by_kind(action="event", event_side="shaded")
    bk, ve = by_kind(action="pass"), by_kind(action="pass")
    ctx = make_ctx(rules, DS=ds, BK=bk, VE=ve)
    play_card(ctx, "14")  # order DS, VE, BK
    assert ctx.log[DS][0] == "event_shaded"
    assert ctx.state.count(sid(ctx, "Rajput Kingdoms"), P.RAJA_OB) == 2
    assert [d.kind for d in ds.asked[:2]] == ["action", "event_side"]
    assert all(
        sequence.EVENT_OPTION not in d.options for d in ve.asked + bk.asked if d.kind == "action"
    )
    assert ctx.state.eligible == [False, True, True]  # 2.3.7: the executor goes Ineligible


def test_both_sides_are_offered_even_when_one_can_do_nothing(rules):
    # 2.3.4 "The executing Faction may select either the unshaded or shaded text to carry out"
    ctx = make_ctx(rules)
    card = rules.deck.event(21)
    assert not events.effects_possible(ctx, card.shaded.effects, BK)  # no Amir, already Tributary
    assert events.side_options(ctx, card, BK) == ("unshaded", "shaded")


def test_an_event_taken_for_no_effect_closes_the_fork_to_the_factions_after_it(rules):
    # 2.3.3 "Once an Eligible Faction has selected one of the two forked options, it is no
    # longer available"; 2.3.4: either side, even one that does nothing (card 21, order DS
    # first in its Faction order; BK's shaded side has no effect on the set-up board)
    card = rules.deck.event(21)
    first = P.INDEX[card.order[0]]
    agents = {n: by_kind(action="pass") for n in ("DS", "BK", "VE")}
    side = next(
        s
        for s in events.SIDES
        if not events.effects_possible(make_ctx(rules), getattr(card, s).effects, first)
    )
    agents[P.NAMES[first]] = by_kind(action="event", event_side=side)
    ctx = make_ctx(rules, **agents)
    before = ctx.state.pieces.copy()
    play_card(ctx, "21")
    assert ctx.log[first][0] == f"event_{side}"
    later = [agents[P.NAMES[f]] for f in (P.INDEX[n] for n in card.order[1:])]
    for agent in later:
        offered = [d.options for d in agent.asked if d.kind == "action"]
        assert offered and all(sequence.EVENT_OPTION not in o for o in offered)
    assert ctx.state.pieces == before  # the side did nothing on the board
    assert ctx.state.eligible[first] is card.stay_eligible


def test_a_stay_eligible_event_taken_for_no_effect_keeps_the_executor_eligible(rules):
    # 2.3.4 "A Faction that chooses to execute either Event option on such a card returns to
    # the Eligible box": card 9 is Stay Eligible; an empty board leaves its sides little to do
    ve = by_kind(action="event", event_side="shaded")
    ctx = make_ctx(rules, empty_state(rules), VE=ve, DS=by_kind(action="pass"))
    ctx.state.resources = [0, 0, 0]
    play_card(ctx, "9")
    assert ctx.log[VE][0] == "event_shaded"
    assert ctx.state.eligible[VE] is True


# --- eligibility (2.3.7) -----------------------------------------------------------------


def test_stay_eligible_keeps_the_executor_eligible(rules):
    # 2.3.4, 2.3.7: card 9 is Stay Eligible, card 8 is not
    for card_id, stays in (("9", True), ("8", False)):
        ve = by_kind(action="event", event_side="shaded")
        ctx = make_ctx(rules, DS=by_kind(action="pass"), BK=by_kind(action="pass"), VE=ve)
        play_card(ctx, card_id)
        assert ctx.log[VE][0] == "event_shaded"
        assert ctx.state.eligible[VE] is stays


def test_an_eligibility_op_overrides_the_normal_adjustment(rules):
    # schema 6.13: card 20 shaded makes DS Eligible although DS took a forked option;
    # card 30 shaded makes VE Ineligible although VE passed
    bk = by_kind(action="event", event_side="shaded")
    ds = by_kind(action="command_decree", command="none", decree="collect_tribute")
    ctx = make_ctx(rules, DS=ds, BK=bk, VE=by_kind(action="pass"))
    play_card(ctx, "20")  # order BK, DS, VE
    assert ctx.log[DS][0] == "command_decree"
    assert ctx.state.eligible == [True, False, True]
    ds = by_kind(action="event", event_side="shaded")
    ctx = make_ctx(rules, DS=ds, BK=by_kind(action="pass"), VE=by_kind(action="pass"))
    play_card(ctx, "30")  # order VE, BK, DS: VE passes first, DS executes the Event last
    assert ctx.log[VE][0] == "pass"
    assert ctx.state.eligible == [False, True, False]


# --- free Commands (3.1.3, 2.7.1) --------------------------------------------------------


def test_a_free_rebel_granted_by_an_event_works_under_khalji(rules):
    # card 22 unshaded: "may then Rebel for free in one Province, even under the Khalji Dynasty"
    ve = by_kind(action="event", event_side="unshaded")
    ctx = make_ctx(rules, VE=ve, DS=by_kind(action="pass"), BK=by_kind(action="pass"))
    assert ctx.state.dynasty == KHALJI
    assert "rebel" not in commands.available_commands(ctx, VE)  # 2.7.1: no Rebel Command
    resources = ctx.state.resources[VE]
    play_card(ctx, "22")
    s = sid(ctx, "Karnataka")
    assert not ctx.state.tributary[s] and ctx.state.control[s] == VE
    assert ctx.state.resources[VE] == resources  # free (3.1.3)


def test_a_free_rebel_is_refused_under_no_rebel(rules):
    # schema 6.16 no_rebel: card 32 unshaded, then card 22 unshaded grants nothing
    ctx = make_ctx(
        rules,
        BK=by_kind(action="event", event_side="unshaded"),
        VE=by_kind(action=["pass", "event"], event_side="unshaded"),
        DS=by_kind(action="pass"),
    )
    play_card(ctx, "32")
    play_card(ctx, "22")
    assert ctx.state.tributary[sid(ctx, "Karnataka")]
    assert ctx.state.count(sid(ctx, "Karnataka"), P.RAJA_OB) == 4  # the Raja was placed


# --- lasting modifiers (schema 6.16) -----------------------------------------------------


def test_a_lasting_modifier_expires_at_the_next_succession_card(rules):
    ve = by_kind(action="event", event_side="unshaded")
    ctx = make_ctx(rules, VE=ve, DS=by_kind(action="pass"), BK=by_kind(action="pass"))
    play_card(ctx, "6")  # A New Calculus: VE Attacks roll an extra die
    assert ctx.state.has_lasting("attack_extra_die", VE)
    st = ctx.state
    st.deck = st.deck[: st.pos] + (card_index(rules, "zenith"),) + st.deck[st.pos :]
    sequence.next_card(ctx)  # the Succession card is revealed (2.5)
    assert rules.cards[st.card].id == "zenith"
    assert not st.has_lasting("attack_extra_die", VE)


def test_attack_extra_die_is_rolled_by_the_attacker(rules):
    # schema 6.16 attack_extra_die: 5 dice instead of 4
    rolled = []

    class CountingDice:
        def random(self):
            rolled.append(1)
            return 0.99  # sixes: every die misses

    ve = by_kind(space=[sid(rules, "Karnataka"), "done"], cavalry="done")
    ctx = make_ctx(rules, empty_state(rules), VE=ve, DS=by_kind(cavalry="done"))
    ctx.dice = CountingDice()
    put(ctx, "Karnataka", raja=2, troop=1)
    ctx.state.lasting = (("attack_extra_die", VE, "game_end"),)
    commands.execute(ctx, VE, "attack", limited=True, free=True)
    assert len(rolled) == 5 + rules.combat["defend_dice"]


# --- random games ------------------------------------------------------------------------


def test_random_games_keep_the_invariants_and_execute_events():
    actions: Counter = Counter()

    def check(ctx):
        invariants.check(ctx.state, ctx.rules)

    for seed in range(50):
        result = play_game(seed, on_action=check)
        for turn in result.turns:
            actions[turn.action] += 1
    assert actions["event_unshaded"] > 20 and actions["event_shaded"] > 20, actions
