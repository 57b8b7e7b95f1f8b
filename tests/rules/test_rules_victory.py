"""Victory points (5.1-5.3) and the winner, with the Resources tiebreak (5.0)."""

from __future__ import annotations

import pytest
from conftest import empty_state, make_ctx, put, sid

from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules import victory
from simulate.vijayanagara.rules.control import set_independent


def _pr(rules, *names):
    return sum(rules.board.prosperity[sid(rules, n)] for n in names)


def test_sultanate_scores_the_prosperity_of_tributary_provinces(rules):
    # 5.1 "base victory points (VP) are given by the total Prosperity of all Tributary Provinces"
    ctx = make_ctx(rules, empty_state(rules))
    set_independent(ctx.state, sid(rules, "Malwa"))
    set_independent(ctx.state, sid(rules, "Orissa"))
    assert victory.vp(rules, ctx.state, P.DS) == 18 - _pr(rules, "Malwa", "Orissa")


@pytest.mark.parametrize("invaders, bonus", [(0, 3), (1, 2), (3, 0), (5, -2), (6, -3), (9, -3)])
def test_sultanate_end_bonus_is_three_minus_invaders_in_delhi_at_least_minus_three(
    rules, invaders, bonus
):
    # 5.1 "3 minus the number of Mongol Invaders left in Delhi (to a minimum of -3 VP)"
    ctx = make_ctx(rules, empty_state(rules))
    put(ctx, "Delhi", mongol=invaders)
    assert victory.delhi_bonus(rules, ctx.state) == bonus
    assert victory.vp(rules, ctx.state, P.DS, final=True) == 18 + bonus
    assert victory.vp(rules, ctx.state, P.DS) == 18  # only at the end of the game


def test_bahmani_score_controlled_prosperity_plus_forts_plus_influence(rules):
    # 5.2 "total Prosperity of Bahmani Controlled Provinces, plus the number of Forts on the
    # map, plus their Deccan Influence"
    ctx = make_ctx(rules, empty_state(rules))
    set_independent(ctx.state, sid(rules, "Maharashtra"))
    put(ctx, "Maharashtra", amir_rebelling=2, fort=1)
    put(ctx, "Gujarat", amir=3, fort=1)  # a Tributary: its Fort counts, its Prosperity not
    ctx.state.influence[P.BK] = 2
    assert victory.vp(rules, ctx.state, P.BK) == _pr(rules, "Maharashtra") + 2 + 2


def test_vijayanagara_score_controlled_prosperity_plus_temples_plus_influence(rules):
    # 5.3
    ctx = make_ctx(rules, empty_state(rules))
    for name in ("Karnataka", "Tamilakam", "Andhra"):
        set_independent(ctx.state, sid(rules, name))
    put(ctx, "Karnataka", raja_rebelling=1, temple=1)
    put(ctx, "Tamilakam", raja_rebelling=1)
    put(ctx, "Andhra", raja_rebelling=1, troop=1)  # Uncontrolled
    ctx.state.influence[P.VE] = 1
    assert victory.vp(rules, ctx.state, P.VE) == _pr(rules, "Karnataka", "Tamilakam") + 1 + 1


def test_the_faction_with_most_victory_points_wins(rules):
    # 5.0 "The winning Faction is the one with the greatest number of victory points"
    ctx = make_ctx(rules, empty_state(rules))
    ctx.state.influence = [0, 4, 0]
    ctx.state.resources = [0, 24, 0]
    assert victory.winner(rules, ctx.state) == (P.DS, "none")  # 18 + 3 against 4


def test_a_tie_is_broken_by_resources(rules):
    # 5.0 "Any ties are broken by the number of Resources held"
    ctx = make_ctx(rules, empty_state(rules))
    st = ctx.state
    for s in rules.board.provinces:
        set_independent(st, s)
    put(ctx, "Delhi", mongol=1)  # DS: 0 + (3 - 1) = 2 VP
    st.influence = [0, 2, 1]  # BK 2 VP, VE 1 VP
    st.resources = [5, 6, 9]
    assert victory.winner(rules, st) == (P.BK, "resources")
    st.resources = [7, 6, 9]
    assert victory.winner(rules, st) == (P.DS, "resources")


def test_a_tie_in_points_and_resources_has_no_winner(rules):
    # 5.0, 5.5: the Goat-Tiger game is optional; the engine leaves the tie unresolved
    ctx = make_ctx(rules, empty_state(rules))
    st = ctx.state
    for s in rules.board.provinces:
        set_independent(st, s)
    put(ctx, "Delhi", mongol=3)  # DS: 0 + (3 - 3) = 0 VP, like BK and VE
    st.resources = [4, 4, 4]
    assert [victory.vp(rules, st, f, final=True) for f in (P.DS, P.BK, P.VE)] == [0, 0, 0]
    assert victory.winner(rules, st) == (None, "unresolved")
