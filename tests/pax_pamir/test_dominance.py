"""Dominance Checks, their scoring and the game's end (RB p15, RB p9 Game End and Victory)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import dominance as D
from simulate.pax_pamir.cards import NONE, PaxData
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import State
from tests.pax_pamir.support import card

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2
CATI, BLAKE, HOPE = 0, 1, 2


@pytest.fixture
def state(data) -> State:
    s = new_state(data, 3, random.Random(4), loyalty=[RUSSIAN, RUSSIAN, BRITISH])
    s.court = [[], [], []]
    return s


def armies(state: State, coalition: int, n: int, region: int = 0) -> None:
    state.armies[state.army_at(region, coalition)] += n
    state.blocks[coalition] -= n


def roads(state: State, coalition: int, n: int, border: int = 0) -> None:
    state.roads[state.road_at(border, coalition)] += n
    state.blocks[coalition] -= n


def in_play(data: PaxData, state: State, player: int, n: int) -> None:
    state.cylinders[player] = data.numbers.usable_cylinders - n


def test_rb15_example_eight_to_four_dominates(data, state):
    # RB p15: "If the British coalition has eight blocks and the other two coalitions both
    # have four blocks, the British Coalition would be dominant."
    armies(state, BRITISH, 5)
    roads(state, BRITISH, 3)
    armies(state, RUSSIAN, 4, region=1)
    roads(state, AFGHAN, 4, border=2)
    assert D.dominant_coalition(data, state) == BRITISH


def test_rb15_a_lead_of_three_is_not_dominance(data, state):
    # RB p15: "at least four more than all other coalitions (uncombined)"
    armies(state, BRITISH, 7)
    armies(state, RUSSIAN, 4)
    assert D.dominant_coalition(data, state) is None


def test_rb15_uncombined_others(data, state):
    # RB p15: the others' blocks are not added together ("uncombined")
    armies(state, BRITISH, 6)
    armies(state, RUSSIAN, 2)
    armies(state, AFGHAN, 2)
    assert D.dominant_coalition(data, state) == BRITISH


def test_rb15_empty_board_is_unsuccessful(data, state):
    assert D.dominant_coalition(data, state) is None


def test_rb15_influence_is_one_plus_gifts_prizes_patriots(data, state):
    # RB p15: "one influence point plus the sum of their gifts, prizes, and the number of
    # patriots in their court"
    patriot = next(c.id for c in data.court if c.patriot == RUSSIAN)
    plain = next(c.id for c in data.court if c.patriot == NONE)
    state.court[CATI] = [patriot, plain]
    state.gifts[CATI] = 2
    state.prizes[CATI] = [plain]
    assert D.influence(data, state, CATI) == 1 + 2 + 1 + 1


def test_rb15_ties_split_rounding_down():
    # RB p15: "two players tied for first place will both score two points ((3+1)÷2)"
    assert D.place_points([(0, 5), (1, 5), (2, 1)], (3, 1)) == {0: 2, 1: 2, 2: 0}


def test_rb15_doubling_before_split():
    # RB p15: "This doubling occurs before any victory points are split": (1x2÷2)
    assert D.place_points([(0, 4), (1, 2), (2, 2)], (3, 1), 2) == {0: 6, 1: 1, 2: 1}


def test_rb15_successful_check_scores_only_loyal_players(data, state):
    armies(state, RUSSIAN, 6)
    state.gifts[CATI] = 1
    state.gifts[HOPE] = 3  # British: not loyal to the dominant coalition
    result = D.check(data, state, final=False)
    assert result.dominant == RUSSIAN
    assert result.awarded == (5, 3, 0)


def test_rb15_successful_check_removes_the_board_blocks(data, state):
    # RB p15: "Remove all coalition blocks from the board."
    armies(state, RUSSIAN, 6)
    roads(state, BRITISH, 1)
    D.resolve(data, state, final=False)
    assert not any(state.armies) and not any(state.roads)
    assert state.blocks == [data.numbers.blocks_per_coalition] * 3


def test_rb15_unsuccessful_check_keeps_the_board(data, state):
    armies(state, RUSSIAN, 3)
    D.resolve(data, state, final=False)
    assert sum(state.armies) == 3


def test_rb15_unsuccessful_check_counts_cylinders_in_play_even_zero(data, state):
    # RB p15: "based on the number of cylinders they have in play (even zero)"
    in_play(data, state, HOPE, 1)
    result = D.check(data, state, final=False)
    assert result.dominant is None
    assert result.awarded == (0, 0, 3)  # Cati and Blake tie for second: 1 // 2


def test_rb15_gift_is_a_cylinder_in_play(data, state):
    # RB p15: "in play if it is not on a player board"; a gift lies on the loyalty dial
    state.cylinders[BLAKE] -= 1
    state.gifts[BLAKE] += 1
    assert D.cylinders_in_play(data, state, BLAKE) == 1


def test_rb15_final_check_is_the_fourth_by_default(data, state):
    state.checks_done = 3
    assert D.check(data, state).final
    state.checks_done = 2
    assert not D.check(data, state).final


def test_rb15_resolve_counts_the_check(data, state):
    D.resolve(data, state, final=False)
    assert state.checks_done == 1


def test_rb15_early_end_on_a_lead_of_four(data, state):
    # RB p15 Early End: "at least four more victory points than the next highest"
    state.points = [4, 0, 1]
    in_play(data, state, CATI, 2)  # Cati scores 3: 7 against 0 and 1
    result = D.check(data, state, final=False)
    assert result.game_over and result.winner == CATI


def test_rb15_no_early_end_on_a_lead_of_three(data, state):
    state.points = [2, 0, 1]
    in_play(data, state, CATI, 2)
    in_play(data, state, HOPE, 1)  # 5 against 0 and 2
    result = D.check(data, state, final=False)
    assert result.awarded == (3, 0, 1)
    assert not result.game_over and result.winner is None


def test_rb9_final_check_ends_the_game_most_points_wins(data, state):
    state.points = [5, 4, 4]
    result = D.check(data, state, final=True)  # all tied at zero cylinders: 8 // 3 each
    assert result.awarded == (2, 2, 2)
    assert result.game_over and result.winner == CATI


def test_rb9_tiebreak_red_stars_then_rupees(data, state):
    # RB p9: "the most red stars in their court among the tied players wins. If there is
    # still a tie, the player with the most rupees among the tied players wins."
    military = data.suits.index("military")
    red = next(c for c in data.court if c.suit == military)
    state.points = [5, 5, 1]
    state.court[BLAKE] = [red.id]
    assert D.final_standing(data, state, state.points) == (BLAKE, ())
    state.court[BLAKE] = []
    state.rupees = [3, 4, 9]
    assert D.final_standing(data, state, state.points) == (BLAKE, ())
    state.rupees = [4, 4, 9]
    assert D.final_standing(data, state, state.points) == (None, (CATI, BLAKE))


def test_rb15_examples_replayed(data, state):
    # RB p15 Dominance Examples: the third check, "The Russian Coalition is dominant. Cati and
    # Blake are both loyal to that coalition. Cati has the most influence and scores five
    # points, Blake scores three." "all of the blocks are now cleared from the board."
    state.checks_done = 2
    armies(state, RUSSIAN, 6)
    roads(state, BRITISH, 2)
    state.gifts[CATI] = 1
    third = D.resolve(data, state)
    assert third.dominant == RUSSIAN and third.awarded == (5, 3, 0)
    assert not third.final and not any(state.armies) and not any(state.roads)
    # The fourth: "No Coalition is dominant. Blake has the most cylinders in play so he would
    # score six points (3 x 2 for the final dominance check) Cati and Hope would each score one
    # (1x2÷2)." ("no spies or gifts in play": tribes only)
    state.gifts[CATI] = 0
    in_play(data, state, BLAKE, 3)
    in_play(data, state, CATI, 1)
    in_play(data, state, HOPE, 1)
    fourth = D.resolve(data, state)
    assert fourth.final and fourth.dominant is None
    assert fourth.awarded == (1, 6, 1)
    assert fourth.game_over and fourth.winner == BLAKE  # 9 against 6 and 1


# --- RB p18 Dominance Checks and Victory, playing with Wakhan (``State.wakhan``) ------------


def test_rb18_wakhan_is_in_the_running_whichever_coalition_dominates(data, state):
    # RB p18: "Wakhan is loyal to all coalitions so she will be in the running no matter which
    # coalition is dominant." Hope (British) plays Wakhan: a Russian check ranks her with Cati
    # and Blake, her gifts counting ("this Gift will count as influence in all three
    # coalitions", RB p18 Gift).
    armies(state, RUSSIAN, 4)
    state.gifts[HOPE] = 2
    assert D.check(data, state).awarded == (4, 4, 0)  # Cati and Blake split 5 + 3
    state.wakhan = HOPE
    result = D.check(data, state)
    assert result.dominant == RUSSIAN and result.awarded == (2, 2, 5)  # then split 3 + 1
    assert D.resolve(data, state).awarded == (2, 2, 5) and state.points == [2, 2, 5]


def test_rb16_wakhan_influence_counts_the_coalitions_prizes_and_patriots(data, state):
    # RB p16: "Wakhan can hold loyalty prizes and patriots belonging to different coalitions":
    # her influence in a coalition counts its prizes and patriots, by default in her
    # pragmatic loyalty (Hope's British here).
    state.prizes[HOPE] = [card(data, "Ghilzai Nomads"), card(data, "Josiah Harlan")]
    state.court[HOPE] = [card(data, "Count Ivan Simonich")]  # a Russian patriot
    assert D.influence(data, state, HOPE) == 3  # no Wakhan: both prizes, no British patriot
    state.wakhan = HOPE
    assert D.influence(data, state, HOPE, RUSSIAN) == 3
    assert D.influence(data, state, HOPE, BRITISH) == 2
    assert D.influence(data, state, HOPE) == 2


def test_rb18_wakhan_scores_an_unsuccessful_check_like_anyone(data, state):
    # RB p18: "Wakhan will claim VPs and victory just like a regular player": with no dominant
    # coalition she ranks by her cylinders in play (RB p15).
    in_play(data, state, HOPE, 2)
    before = D.check(data, state)
    state.wakhan = HOPE
    assert D.check(data, state) == before and before.awarded == (0, 0, 3)
