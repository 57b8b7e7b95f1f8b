"""Betray, move and battle as the rulebook describes them (RB p13 Move, RB p14 Betray, Battle)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import military as M
from simulate.pax_pamir.actions import new_turn
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import State
from tests.pax_pamir.support import card, in_court, region

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2
CATI, BROOKE, HOPE = 0, 1, 2


@pytest.fixture
def state(data) -> State:
    s = new_state(data, 3, random.Random(4), loyalty=[BRITISH, AFGHAN, RUSSIAN])
    s.favored = data.suits.index("political")
    return s


def spy(state: State, player: int, target: int, n: int = 1) -> None:
    state.cylinders[player] -= n
    state.spies[state.spy_at(target, player)] += n


# --- RB p14 Betray ------------------------------------------------------------------------


@pytest.fixture
def mine(data, state) -> int:
    """Cati's betray card: Balkh Arsenic Mine (Kabul, economic, rank 1: build, betray)."""
    (c,) = in_court(data, state, CATI, "Balkh Arsenic Mine")
    state.rupees[CATI] = 4
    return c


def test_betray_discards_spied_card_for_two_rb_p14(data, state, mine):
    """RB p14: "Discard one card where you have a Spy ... Any spies on the betrayed card are
    lost and returned to their owner's supply. This action always costs two.\""""
    (target,) = in_court(data, state, BROOKE, "Harry Flashman")
    spy(state, CATI, target)
    spy(state, HOPE, target, 2)
    hope = state.cylinders[HOPE]
    turn = new_turn(data)
    M.betray(data, state, turn, CATI, mine, target)
    assert target not in state.court[BROOKE] and state.discard[-1] == target
    assert state.spies[state.spy_at(target, HOPE)] == 0 and state.cylinders[HOPE] == hope + 2
    assert state.rupees[CATI] == 2 and sum(state.market_rupees) == 2
    assert turn.actions_left == 1 and turn.used == [mine]


def test_betray_needs_a_spy_rb_p14(data, state, mine):
    """RB p14: only a card "where you have a Spy"; nothing moves otherwise."""
    (target,) = in_court(data, state, BROOKE, "Harry Flashman")
    spy(state, HOPE, target)
    before, turn = state.copy(), new_turn(data)
    with pytest.raises(ValueError, match="spy"):
        M.betray(data, state, turn, CATI, mine, target)
    assert state == before and turn.used == [] and turn.actions_left == 2


def test_betray_own_court_card_rb_p14(data, state, mine):
    """RB p14: "(including cards in your own court)"."""
    (target,) = in_court(data, state, CATI, "Harry Flashman")
    spy(state, CATI, target)
    M.betray(data, state, new_turn(data), CATI, mine, target)
    assert target not in state.court[CATI]


def test_betray_costs_two_rb_p14(data, state, mine):
    """RB p14 "always costs two": a player with one rupee cannot betray."""
    (target,) = in_court(data, state, BROOKE, "Harry Flashman")
    spy(state, CATI, target)
    state.rupees[CATI] = 1
    before = state.copy()
    with pytest.raises(ValueError, match="cannot pay"):
        M.betray(data, state, new_turn(data), CATI, mine, target)
    assert state == before


def test_betray_prize_of_own_loyalty_rb_p14(data, state, mine):
    """RB p14: "you may accept it as a prize, tucking it partially behind your loyalty dial"."""
    state.loyalty[CATI] = RUSSIAN
    (target,) = in_court(data, state, BROOKE, "Eldred Pottinger")  # prize: Russian
    spy(state, CATI, target)
    M.betray(data, state, new_turn(data), CATI, mine, target, take_prize=True)
    assert state.prizes[CATI] == [target] and target not in state.discard
    assert state.loyalty[CATI] == RUSSIAN


def test_betray_prize_declined_rb_p14(data, state, mine):
    """RB p14 "you may accept it": declined, the card stays in the discard pile."""
    (target,) = in_court(data, state, BROOKE, "Eldred Pottinger")
    spy(state, CATI, target)
    M.betray(data, state, new_turn(data), CATI, mine, target)
    assert state.prizes[CATI] == [] and state.loyalty[CATI] == BRITISH


def test_betray_prize_of_other_coalition_changes_loyalty_rb_p14(data, state, mine):
    """RB p14: "If this prize is different from your current loyalty, first remove all gifts,
    prizes, and patriots in your court matching your previous loyalty, and rotate your loyalty
    dial to match the prize taken.\""""
    (patriot,) = in_court(data, state, CATI, "Henry Rawlinson")  # British patriot
    state.gifts[CATI], state.cylinders[CATI] = 1, state.cylinders[CATI] - 1
    old = card(data, "Charles Stoddart")
    state.prizes[CATI] = [old]
    (target,) = in_court(data, state, BROOKE, "Eldred Pottinger")  # prize: Russian
    spy(state, CATI, target)
    cylinders = state.cylinders[CATI]
    M.betray(data, state, new_turn(data), CATI, mine, target, take_prize=True)
    assert state.loyalty[CATI] == RUSSIAN and state.prizes[CATI] == [target]
    assert patriot not in state.court[CATI] and {patriot, old} <= set(state.discard)
    assert state.gifts[CATI] == 0 and state.cylinders[CATI] == cylinders + 2  # gift and spy


def test_betray_prize_needs_a_prize(data, state, mine):
    """RB p14 "accept it as a prize": a card without a prize cannot be taken as one."""
    (target,) = in_court(data, state, BROOKE, "Harry Flashman")  # no prize
    spy(state, CATI, target)
    before = state.copy()
    with pytest.raises(ValueError, match="no prize"):
        M.betray(data, state, new_turn(data), CATI, mine, target, take_prize=True)
    assert state == before


def test_betray_triggers_overthrow_rb_p14_p8(data, state, mine):
    """RB p14 "Betrayals may trigger ... The Overthrow Rule (page 8)": the owner's last
    political card of a region goes, and their tribes there with it."""
    (target,) = in_court(data, state, BROOKE, "Paolo Avitabile")  # Punjab political
    punjab = region(data, "punjab")
    state.tribes[state.tribe_at(punjab, BROOKE)] = 2
    spy(state, CATI, target)
    M.betray(data, state, new_turn(data), CATI, mine, target)
    assert state.tribes[state.tribe_at(punjab, BROOKE)] == 0


def test_betray_leveraged_card_unpaid_restores_rb_p14_p8(data, state, mine):
    """RB p14 "Betrayals may trigger leveraged icons": the owner repays two rupees or names
    cards (RB p8); a betrayal the owner cannot settle leaves state and turn as they were."""
    (target,) = in_court(data, state, BROOKE, "Money Lenders")  # leveraged
    hand = card(data, "Khyber Pass")
    state.hand[BROOKE] = [hand]
    state.rupees[BROOKE] = 0
    spy(state, CATI, target)
    before, turn = state.copy(), new_turn(data)
    with pytest.raises(ValueError, match="leveraged"):
        M.betray(data, state, turn, CATI, mine, target)
    assert state == before and turn.used == [] and turn.actions_left == 2
    M.betray(data, state, turn, CATI, mine, target, owner_pay_with=[hand])
    assert state.hand[BROOKE] == [] and hand in state.discard


def test_betray_bodyguards(data, state, mine):
    """Bodyguards (cards.yaml): "your political cards cannot be chosen as betray targets"."""
    (target,) = in_court(data, state, BROOKE, "Paolo Avitabile", "Durrani Royal Guard")[:1]
    spy(state, CATI, target)
    with pytest.raises(ValueError, match="may not betray"):
        M.betray(data, state, new_turn(data), CATI, mine, target)


# --- RB p13 Move --------------------------------------------------------------------------


def test_move_example_rb_p13(data, state):
    """RB p14 MOVE EXAMPLE: "Blake (red) takes a rank three move action. He is loyal to the
    Russian coalition. With his first two moves, he moves his spy two cards counter-clockwise.
    Then, with his final move, he moves his army to an adjacent region using a yellow road."
    Blake is Hope here (Russian); the picture's regions: Herat to Kabul."""
    (lal,) = in_court(data, state, HOPE, "Mohan Lal")  # rank 3, move
    a, b = in_court(data, state, CATI, "Harry Flashman", "Henry Rawlinson")
    start = a
    spy(state, HOPE, start)
    track = M.court_track(state)
    i = track.index(start)
    two = track[(i - 2) % len(track)]
    one = track[(i - 1) % len(track)]
    herat, kabul = region(data, "herat"), region(data, "kabul")
    border = M.border_between(data, herat, kabul)
    state.roads[state.road_at(border, RUSSIAN)] = 1
    state.armies[state.army_at(herat, RUSSIAN)] = 1
    moves = [(M.SPY, start, one), (M.SPY, one, two), (M.ARMY, herat, kabul)]
    M.move(data, state, new_turn(data), HOPE, lal, moves)
    assert state.spies[state.spy_at(two, HOPE)] == 1 and state.spies[state.spy_at(a, HOPE)] == 0
    assert state.armies[state.army_at(kabul, RUSSIAN)] == 1
    assert state.armies[state.army_at(herat, RUSSIAN)] == 0
    assert b in track


def test_move_army_needs_road_of_its_loyalty_rb_p13(data, state):
    """RB p13: "there must be a road matching the loyalty of the moving army on the border"."""
    (lal,) = in_court(data, state, HOPE, "Mohan Lal")
    herat, kabul = region(data, "herat"), region(data, "kabul")
    state.armies[state.army_at(herat, RUSSIAN)] = 1
    state.roads[state.road_at(M.border_between(data, herat, kabul), BRITISH)] = 1
    before = state.copy()
    with pytest.raises(ValueError, match="no road"):
        M.move(data, state, new_turn(data), HOPE, lal, [(M.ARMY, herat, kabul)])
    assert state == before


def test_move_army_only_to_adjacent_region_rb_p13(data, state):
    """RB p13: "from one region to an adjacent region"."""
    (lal,) = in_court(data, state, HOPE, "Mohan Lal")
    persia, punjab = region(data, "persia"), region(data, "punjab")
    state.armies[state.army_at(persia, RUSSIAN)] = 1
    with pytest.raises(ValueError, match="not adjacent"):
        M.move(data, state, new_turn(data), HOPE, lal, [(M.ARMY, persia, punjab)])


def test_move_only_loyal_armies_rb_p13(data, state):
    """RB p13 "move one loyal army": an army of another coalition does not follow."""
    (lal,) = in_court(data, state, HOPE, "Mohan Lal")
    herat, kabul = region(data, "herat"), region(data, "kabul")
    state.armies[state.army_at(herat, BRITISH)] = 1
    state.roads[state.road_at(M.border_between(data, herat, kabul), RUSSIAN)] = 1
    with pytest.raises(ValueError, match="no loyal army"):
        M.move(data, state, new_turn(data), HOPE, lal, [(M.ARMY, herat, kabul)])


def test_move_same_unit_several_times_rb_p13(data, state):
    """RB p13: "The same unit can be moved multiple times on a single turn"."""
    (lal,) = in_court(data, state, HOPE, "Mohan Lal")
    herat, kabul, punjab = region(data, "herat"), region(data, "kabul"), region(data, "punjab")
    for x, y in ((herat, kabul), (kabul, punjab)):
        state.roads[state.road_at(M.border_between(data, x, y), RUSSIAN)] = 1
    state.armies[state.army_at(herat, RUSSIAN)] = 1
    M.move(
        data, state, new_turn(data), HOPE, lal, [(M.ARMY, herat, kabul), (M.ARMY, kabul, punjab)]
    )
    assert state.armies[state.army_at(punjab, RUSSIAN)] == 1


def test_move_at_most_rank_steps_rb_p13(data, state):
    """RB p13: "For each rank of the acting card you may move one loyal army or spy"."""
    (wade,) = in_court(data, state, HOPE, "Claude Wade")  # rank 2
    a, b = in_court(data, state, CATI, "Harry Flashman", "Henry Rawlinson")
    spy(state, HOPE, a)
    steps = [(M.SPY, a, b), (M.SPY, b, a), (M.SPY, a, b)]
    with pytest.raises(ValueError, match="rank"):
        M.move(data, state, new_turn(data), HOPE, wade, steps)


def test_spy_track_joins_courts_rb_p13(data, state):
    """RB p13: spies move "as if they formed a single continuous track around the area of
    play": past the end of one court to the next, and round from the last to the first."""
    (a,) = in_court(data, state, CATI, "Harry Flashman")
    (b,) = in_court(data, state, BROOKE, "Henry Rawlinson")
    (c,) = in_court(data, state, HOPE, "Claude Wade")
    assert M.spy_steps(data, state, CATI, a) == {b, c}


def test_spy_moves_one_card_a_step_rb_p13(data, state):
    """RB p13: each move takes a spy one card along the track, either way."""
    (lal,) = in_court(data, state, HOPE, "Mohan Lal")
    cards = in_court(data, state, CATI, "Harry Flashman", "Henry Rawlinson", "Claude Wade")
    spy(state, HOPE, cards[0])
    with pytest.raises(ValueError, match="not next"):
        M.move(data, state, new_turn(data), HOPE, lal, [(M.SPY, cards[0], cards[2])])


# --- RB p14 Battle ------------------------------------------------------------------------


@pytest.fixture
def sikhs(data, state) -> int:
    """Cati's battle card: Akali Sikhs (Punjab, military, rank 2: battle)."""
    (c,) = in_court(data, state, CATI, "Akali Sikhs")
    return c


def test_battle_region_example_rb_p14(data, state, sikhs):
    """RB p14 BATTLE EXAMPLES: "Cati is loyal to the British coalition and uses a rank two
    battle action ... Cati selects a region. In this region she only has one loyal army, and so
    can only remove a single unit. She cannot remove Hope's tribe (gray) because they share a
    loyalty. Instead, she may eliminate the enemy road or the enemy army.\""""
    state.loyalty[HOPE] = BRITISH
    kabul = region(data, "kabul")
    border = data.region_borders[kabul][0]
    state.armies[state.army_at(kabul, BRITISH)] = 1
    state.armies[state.army_at(kabul, RUSSIAN)] = 1
    state.roads[state.road_at(border, RUSSIAN)] = 1
    state.tribes[state.tribe_at(kabul, HOPE)] = 1
    before = state.copy()
    both = {RUSSIAN: 1}, {(border, RUSSIAN): 1}
    with pytest.raises(ValueError, match="1 to 1"):
        M.battle_region(data, state, new_turn(data), CATI, sikhs, kabul, *both)
    with pytest.raises(ValueError, match="sharing your loyalty"):
        M.battle_region(data, state, new_turn(data), CATI, sikhs, kabul, tribes={HOPE: 1})
    assert state == before
    M.battle_region(data, state, new_turn(data), CATI, sikhs, kabul, roads=both[1])
    assert state.roads[state.road_at(border, RUSSIAN)] == 0
    assert state.blocks[RUSSIAN] == before.blocks[RUSSIAN] + 1
    other = state.copy()
    M.battle_region(data, other, new_turn(data), CATI, sikhs, kabul, armies=both[0])
    assert other.armies[other.army_at(kabul, RUSSIAN)] == 0


def test_battle_card_example_rb_p14(data, state, sikhs):
    """RB p14 BATTLE EXAMPLES: "Cati (blue) selects a card on Hope's court. She removes two of
    Hope's spies, despite the fact that they share the same loyalty! Cati now holds the actions
    on this card hostage." Reading of the picture: Cati has two spies there, Hope three."""
    from simulate.pax_pamir.actions import hostage_holder

    state.loyalty[HOPE] = BRITISH
    (target,) = in_court(data, state, HOPE, "Claude Wade")
    spy(state, CATI, target, 2)
    spy(state, HOPE, target, 3)
    M.battle_card(data, state, new_turn(data), CATI, sikhs, target, {HOPE: 2})
    assert state.spies[state.spy_at(target, HOPE)] == 1
    assert hostage_holder(state, target, HOPE) == CATI


def test_battle_no_more_than_own_units_rb_p14(data, state, sikhs):
    """RB p14: "You cannot remove more units than you yourself have armies or spies in that
    battle": no spy of one's own on the card, no battle there."""
    (target,) = in_court(data, state, HOPE, "Claude Wade")
    spy(state, HOPE, target, 2)
    with pytest.raises(ValueError, match="1 to 0"):
        M.battle_card(data, state, new_turn(data), CATI, sikhs, target, {HOPE: 1})


def test_battle_not_own_loyalty_blocks_rb_p14(data, state, sikhs):
    """RB p14: "You cannot remove armies or roads that are of your loyalty"."""
    kabul = region(data, "kabul")
    state.armies[state.army_at(kabul, BRITISH)] = 2
    with pytest.raises(ValueError, match="armies of your loyalty"):
        M.battle_region(data, state, new_turn(data), CATI, sikhs, kabul, armies={BRITISH: 1})


def test_battle_enemy_tribes_rb_p14(data, state, sikhs):
    """RB p14: tribes of players not sharing your loyalty may be removed; to their supply."""
    kabul = region(data, "kabul")
    state.armies[state.army_at(kabul, BRITISH)] = 2
    state.tribes[state.tribe_at(kabul, HOPE)] = 2
    state.cylinders[HOPE] -= 2
    M.battle_region(data, state, new_turn(data), CATI, sikhs, kabul, tribes={HOPE: 2})
    assert state.tribes[state.tribe_at(kabul, HOPE)] == 0 and state.cylinders[HOPE] == 10


def test_battle_at_most_rank_rb_p14(data, state, sikhs):
    """RB p14: units "equal to the acting card's rank" at most (rank 2, three armies)."""
    kabul = region(data, "kabul")
    state.armies[state.army_at(kabul, BRITISH)] = 3
    state.armies[state.army_at(kabul, RUSSIAN)] = 3
    with pytest.raises(ValueError, match="1 to 2"):
        M.battle_region(data, state, new_turn(data), CATI, sikhs, kabul, armies={RUSSIAN: 3})


def test_battle_road_must_border_region_rb_p14(data, state, sikhs):
    """Reading of RB p14 (the example's road): the roads on the battle region's borders."""
    kabul, persia = region(data, "kabul"), region(data, "persia")
    far = next(b for b in data.region_borders[persia] if b not in data.region_borders[kabul])
    state.armies[state.army_at(kabul, BRITISH)] = 1
    state.roads[state.road_at(far, RUSSIAN)] = 1
    with pytest.raises(ValueError, match="not a border"):
        M.battle_region(data, state, new_turn(data), CATI, sikhs, kabul, roads={(far, RUSSIAN): 1})


def test_battle_citadel(data, state, sikhs):
    """Citadel (cards.yaml): "your tribes in the card's region ... cannot be removed"."""
    kabul = region(data, "kabul")
    in_court(data, state, HOPE, "Citadel of Ghazni")
    state.armies[state.army_at(kabul, BRITISH)] = 1
    state.tribes[state.tribe_at(kabul, HOPE)] = 1
    with pytest.raises(ValueError, match="Citadel"):
        M.battle_region(data, state, new_turn(data), CATI, sikhs, kabul, tribes={HOPE: 1})


def test_battle_indispensable_advisors(data, state, sikhs):
    """Indispensable Advisors (cards.yaml): "your spies cannot be removed by battles on court
    cards"."""
    (target,) = in_court(data, state, HOPE, "Mohan Lal")
    spy(state, CATI, target)
    spy(state, HOPE, target)
    with pytest.raises(ValueError, match="Indispensable"):
        M.battle_card(data, state, new_turn(data), CATI, sikhs, target, {HOPE: 1})
