"""invariants.check rejects states no legal play reaches (1.3-1.10)."""

from __future__ import annotations

import pytest
from conftest import empty_state, make_ctx, put, sid

from simulate.vijayanagara.rules import invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.control import set_independent
from simulate.vijayanagara.rules.invariants import InvariantError


@pytest.fixture
def ctx(rules):
    return make_ctx(rules)  # the 2.1 setup


def test_the_setup_and_the_empty_board_pass(rules, ctx):
    invariants.check(ctx.state, rules)
    invariants.check(empty_state(rules), rules)


def test_an_extra_troop_is_caught(rules, ctx):
    # 1.4: 32 Troops in all, on the map or Available
    ctx.state.pieces[rules.delhi * P.NK + P.TROOP] += 1
    with pytest.raises(InvariantError, match="troop"):
        invariants.check(ctx.state, rules)


def test_a_missing_raja_is_caught(rules, ctx):
    # 1.4: 22 Rajas on the map, on the track or Available
    ctx.state.avail[P.PT_RAJA] -= 1
    with pytest.raises(InvariantError, match="raja"):
        invariants.check(ctx.state, rules)


def test_an_obedient_amir_in_a_bahmani_controlled_province_is_caught(rules, ctx):
    # 1.4.5 "Every Amir in a Bahmani Controlled Province is always Rebelling"
    m = sid(rules, "Maharashtra")
    set_independent(ctx.state, m)
    assert ctx.state.control[m] == P.BK
    ctx.state.pieces[m * P.NK + P.AMIR_REB] -= 1
    ctx.state.pieces[m * P.NK + P.AMIR_OB] += 1
    with pytest.raises(InvariantError, match="Obedient Amir"):
        invariants.check(ctx.state, rules)


def test_cavalry_not_summing_to_ten_is_caught(rules, ctx):
    # 1.10 "there should always be a pool of ten Cavalry tokens shared between the three
    # player Factions"
    ctx.state.cavalry[P.VE] += 1
    with pytest.raises(InvariantError, match="Cavalry"):
        invariants.check(ctx.state, rules)


def test_a_second_structure_of_a_kind_in_a_province_is_caught(rules, ctx):
    # 1.4.4
    a = sid(rules, "Andhra")
    ctx.state.pieces[a * P.NK + P.QASBAH] += 1
    ctx.state.avail[P.PT_QASBAH] -= 1
    with pytest.raises(InvariantError, match="stacking"):
        invariants.check(ctx.state, rules)


def test_a_mongol_in_a_province_is_caught(rules, ctx):
    # 1.3.1 "Pieces of all three player Factions (excluding Mongol Invaders)" enter Provinces
    put(ctx, "Sindh", mongol=1)
    with pytest.raises(InvariantError, match="Mongol"):
        invariants.check(ctx.state, rules)


def test_an_amir_in_delhi_is_caught(rules, ctx):
    # 1.3.3 "Only Mongol Invaders and Delhi Sultanate pieces may enter or be placed into Delhi"
    put(ctx, "Delhi", amir=1)
    with pytest.raises(InvariantError, match="BK/VE"):
        invariants.check(ctx.state, rules)


def test_stale_control_is_caught(rules, ctx):
    # 1.7: Control follows the pieces at every moment
    g = sid(rules, "Gujarat")
    set_independent(ctx.state, g)
    ctx.state.control[g] = P.BK  # 1 Troop, 1 Amir: nobody has the majority
    with pytest.raises(InvariantError, match="Control"):
        invariants.check(ctx.state, rules)


def test_a_controlled_tributary_is_caught(rules, ctx):
    # 1.7 "Tributary Provinces are never Controlled"
    ctx.state.control[sid(rules, "Maharashtra")] = P.BK
    with pytest.raises(InvariantError, match="Control"):
        invariants.check(ctx.state, rules)


def test_resources_above_twenty_four_are_caught(rules, ctx):
    # 1.8 "up to a maximum of 24 Resources"
    ctx.state.resources[P.DS] = 25
    with pytest.raises(InvariantError, match="Resources"):
        invariants.check(ctx.state, rules)


def test_units_left_on_a_reached_influence_slot_are_caught(rules, ctx):
    # 1.9 "When a Faction's Influence marker moves on or past these Units they are immediately
    # placed in their Faction's holding box"
    ctx.state.influence[P.VE] = 1
    with pytest.raises(InvariantError, match="Influence slot"):
        invariants.check(ctx.state, rules)
