"""The Timurid Empire cards and Timur Invades Delhi (2.6)."""

from __future__ import annotations

from conftest import empty_state, make_ctx, put, sid
from rules_support import readings_rules

from simulate.vijayanagara.rules import invariants, invasion, sequence, victory
from simulate.vijayanagara.rules import pieces as P


def _timurid(rules, which):
    return rules.timurid_cards[which]


def test_first_timurid_card_sends_half_the_available_invaders_to_the_passes(rules):
    # 2.6 "place half the Available Mongol Invaders (rounded down) in the Mountain Passes"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Delhi", mongol=5)  # 7 Available
    invasion.timurid(ctx)
    assert ctx.state.count(rules.mountain_passes, P.MONGOL) == 3
    assert ctx.state.avail[P.PT_MONGOL] == 4
    assert ctx.state.timurid == 1 and not ctx.state.over
    invariants.check(ctx.state, rules)


def test_first_timurid_card_leaves_eligibility_unchanged(rules):
    # 2.6 "draw the next Event card and continue play without adjusting Eligibility"
    ctx = make_ctx(rules, empty_state(rules))
    ctx.state.eligible = [False, True, False]
    ctx.state.deck = (_timurid(rules, 0),)
    ctx.state.pos = 0
    sequence.next_card(ctx)
    assert ctx.state.eligible == [False, True, False]
    assert ctx.state.count(rules.mountain_passes, P.MONGOL) == 6


def test_second_timurid_card_ends_the_game(rules):
    # 2.2 "the game immediately ends after the second Timurid Empire card is executed"
    ctx = make_ctx(rules, empty_state(rules))
    ctx.state.deck = (_timurid(rules, 0), _timurid(rules, 1))
    ctx.state.pos = 0
    sequence.next_card(ctx)
    assert not ctx.state.over
    sequence.next_card(ctx)
    assert ctx.state.over
    invariants.check(ctx.state, rules)


def test_timur_fights_through_the_passes_and_punjab_without_plunder(rules):
    # 2.6 step 1: attack in the Mountain Passes ignoring the Resource consequences, then all
    # Units move on to Punjab; step 2: attack there ignoring Resource and Province
    # consequences, then all move on to Delhi. Both battles miss on every die; in Delhi the
    # Sultanate's [1, 1] then [1, 6] destroy the three Invaders.
    faces = [6] * 6 + [6] * 6 + [6, 6, 6, 1, 1] + [6, 6, 6, 1, 6]
    ctx = make_ctx(rules, empty_state(rules), dice=faces)
    put(ctx, "Mountain Passes", mongol=3, troop=1)
    put(ctx, "Delhi", troop=1)
    put(ctx, "Malwa", troop=3)
    ctx.state.resources[P.DS] = 10
    ctx.state.timurid = 1
    invasion.timurid(ctx)
    st = ctx.state
    assert st.over
    assert ctx.dice.faces == []
    for s in (rules.mountain_passes, rules.punjab):
        assert st.count(s, P.MONGOL) == 0 and st.count(s, P.TROOP) == 0
    assert st.count(rules.delhi, P.TROOP) == 2  # the Passes' Troop marched along to Delhi
    assert st.count(rules.delhi, P.MONGOL) == 0
    assert st.resources[P.DS] == 10 - 1  # only the one Invader left after Delhi's first round
    assert st.count(sid(rules, "Malwa"), P.TROOP) == 3  # no Province consequences
    invariants.check(st, rules)


def test_timur_in_delhi_plunders_resources_but_not_provinces(rules):
    # 2.6 step 3 "Attack in Delhi, ignoring the Province-related consequences"; Mongols roll
    # three dice in Delhi: [1, 6, 6] kills the lone Troop, Sultanate [6, 6] misses
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 6, 6, 6, 6])
    put(ctx, "Mountain Passes", mongol=4)
    put(ctx, "Delhi", troop=1)
    put(ctx, "Malwa", troop=3)
    ctx.state.resources[P.DS] = 10
    ctx.state.timurid = 1
    invasion.timurid(ctx)
    st = ctx.state
    assert st.count(rules.delhi, P.TROOP) == 0
    assert st.resources[P.DS] == 10 - 4
    assert st.count(sid(rules, "Malwa"), P.TROOP) == 3
    invariants.check(st, rules)


def test_timur_invaders_beyond_three_stay_in_delhi(rules):
    # 2.6 step 3 with 5.1 "loses 3 VP if six or more Invaders remain in Delhi": the return of
    # Invaders beyond three (3.5.3) is a consequence Timur's sequence does not apply
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Punjab", mongol=7)
    ctx.state.resources[P.DS] = 12
    ctx.state.timurid = 1
    invasion.timurid(ctx)
    assert ctx.state.count(rules.delhi, P.MONGOL) == 7
    assert ctx.state.resources[P.DS] == 12 - 7
    assert victory.delhi_bonus(rules, ctx.state) == -3


def test_timur_attacks_in_delhi_until_one_side_is_gone(rules):
    # 2.6 step 3 "They continue to Attack in this way until either no Mongol Invaders or no
    # Delhi Sultanate Units remain in Delhi": three rounds of [6,6,6] vs [1,6] / [6,6] / [1,6]
    faces = [6, 6, 6, 1, 6] + [6, 6, 6, 6, 6] + [6, 6, 6, 1, 6]
    ctx = make_ctx(rules, empty_state(rules), dice=faces)
    put(ctx, "Punjab", mongol=2)
    put(ctx, "Delhi", troop=4)
    ctx.state.resources[P.DS] = 20
    ctx.state.timurid = 1
    invasion.timurid(ctx)
    st = ctx.state
    assert ctx.dice.faces == []  # exactly three rounds were fought
    assert st.count(rules.delhi, P.MONGOL) == 0
    assert st.count(rules.delhi, P.TROOP) == 4
    assert st.resources[P.DS] == 20 - 1 - 1  # one survivor plundered after rounds 1 and 2
    invariants.check(st, rules)


def test_timur_attacks_a_qasbah_left_alone_in_delhi(rules):
    # 2.6 step 3 reuses 3.5.3's attack "if any Sultanate pieces are present": a Qasbah alone
    # in Delhi is attacked (the Mongols' [1, 6, 6] hits; the Sultanate's [1, 1] cannot, with no
    # Unit), then no Sultanate Unit remains and the assault stops after one round
    ctx = make_ctx(rules, empty_state(rules), dice=[1, 6, 6, 1, 1])
    put(ctx, "Punjab", mongol=2)
    put(ctx, "Delhi", qasbah=1)
    ctx.state.resources[P.DS] = 10
    ctx.state.timurid = 1
    invasion.timurid(ctx)
    st = ctx.state
    assert ctx.dice.faces == []
    assert st.count(rules.delhi, P.QASBAH) == 0 and st.qasbah_kills == 1
    assert st.count(rules.delhi, P.MONGOL) == 2
    assert st.resources[P.DS] == 10 - 2  # one round's Resource loss
    invariants.check(st, rules)


def test_timur_without_a_sultanate_unit_in_delhi_plunders_once(rules):
    # 2.6 step 3 with 3.5.3: the Resource loss comes "regardless of whether any attack
    # actually occurred", and the Attacks stop when "no Delhi Sultanate Units remain"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Punjab", mongol=2)
    ctx.state.resources[P.DS] = 10
    ctx.state.timurid = 1
    invasion.timurid(ctx)
    assert ctx.state.resources[P.DS] == 8
    # the other reading (readings.timur_delhi_needs_units): no Sultanate Unit, no Attack
    other = readings_rules(timur_delhi_needs_units=True)
    ctx = make_ctx(other, empty_state(other))
    put(ctx, "Punjab", mongol=2)
    ctx.state.resources[P.DS] = 10
    ctx.state.timurid = 1
    invasion.timurid(ctx)
    assert ctx.state.resources[P.DS] == 10


def test_timur_returning_invaders_beyond_three_is_a_reading_a_variant_can_take(rules):
    # readings.timur_return_excess: 3.5.3's "return any Mongol Invaders in excess of three"
    # after each of Timur's Attacks (the literal 2.6 keeps them, see the test above)
    other = readings_rules(timur_return_excess=True)
    ctx = make_ctx(other, empty_state(other))
    put(ctx, "Punjab", mongol=7)
    ctx.state.resources[P.DS] = 12
    ctx.state.timurid = 1
    invasion.timurid(ctx)
    assert ctx.state.count(other.delhi, P.MONGOL) == 3
    assert victory.delhi_bonus(other, ctx.state) == 0
