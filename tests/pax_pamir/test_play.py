"""Playing a court card as the rulebook describes it (RB p11 Play, RB p7 Loyalty, RB p8)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import market
from simulate.pax_pamir import play as P
from simulate.pax_pamir.cards import PaxData
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import State
from tests.pax_pamir.support import card, region

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2


@pytest.fixture
def state(data) -> State:
    return new_state(data, 3, random.Random(4), loyalty=[AFGHAN, BRITISH, RUSSIAN])


def in_hand(data: PaxData, state: State, player: int, *names: str) -> list[int]:
    ids = [card(data, n) for n in names]
    state.hand[player] += ids
    return ids


# --- RB p11 Play: the card joins the court -----------------------------------------------


def test_card_goes_to_the_right_end(data, state):
    """RB p11: "The played card may be added to either the left or right end of your court."""
    old, new = in_hand(data, state, 0, "Durrani Royal Guard", "Bala Hissar")
    P.play(data, state, 0, old, P.RIGHT)
    P.play(data, state, 0, new, P.RIGHT)
    assert state.court[0] == [old, new] and state.hand[0] == []


def test_card_goes_to_the_left_end(data, state):
    """RB p11: either end of the court; the left end puts it first."""
    old, new = in_hand(data, state, 0, "Durrani Royal Guard", "Bala Hissar")
    P.play(data, state, 0, old, P.RIGHT)
    P.play(data, state, 0, new, P.LEFT)
    assert state.court[0] == [new, old]


def test_only_a_card_in_the_hand_can_be_played(data, state):
    """RB p11: "Play any card from your hand to your court."""
    with pytest.raises(ValueError):
        P.play(data, state, 0, card(data, "Bala Hissar"), P.RIGHT)


# --- RB p11 Impact icons --------------------------------------------------------------------


def test_army_icon_places_a_block_of_your_loyalty_in_the_region(data, state):
    """RB p11: "Place one coalition block of your loyalty in this region."""
    (guard,) = in_hand(data, state, 1, "Durrani Royal Guard")  # Kabul, [army]
    P.play(data, state, 1, guard, P.RIGHT)
    assert state.armies[state.army_at(region(data, "kabul"), BRITISH)] == 1
    assert state.blocks[BRITISH] == data.numbers.blocks_per_coalition - 1


def test_road_icon_places_a_block_on_the_chosen_border(data, state):
    """RB p11: "Place one coalition block of your loyalty on any border of this region."""
    (crafts,) = in_hand(data, state, 2, "Afghan Handicrafts")  # Kabul, [road]
    border = P.road_options(data, crafts)[-1]
    P.play(data, state, 2, crafts, P.RIGHT, roads=[border])
    assert state.roads[state.road_at(border, RUSSIAN)] == 1
    assert sum(state.roads) == 1


def test_road_options_are_the_borders_of_the_card_region(data):
    """RB p11: "any border of this region": Kabul has four (RB p2 map)."""
    kabul = region(data, "kabul")
    borders = P.road_options(data, card(data, "Afghan Handicrafts"))
    assert len(borders) == 4 and all(kabul in data.borders[b] for b in borders)


def test_a_road_on_another_region_border_is_refused(data, state):
    """RB p11: the road goes on a border "of this region"; nothing moves on a refusal."""
    (crafts,) = in_hand(data, state, 0, "Afghan Handicrafts")
    elsewhere = next(b for b in range(len(data.borders)) if b not in P.road_options(data, crafts))
    before = state.copy()
    with pytest.raises(ValueError):
        P.play(data, state, 0, crafts, P.RIGHT, roads=[elsewhere])
    assert state == before


def test_tribe_icon_places_one_of_your_cylinders_in_the_region(data, state):
    """RB p11: "Place one of your cylinders in this region. This piece is now a tribe."""
    (shah,) = in_hand(data, state, 0, "Shah Shujah Durrani")  # Kabul, [tribe]
    P.play(data, state, 0, shah, P.RIGHT)
    assert state.tribes[state.tribe_at(region(data, "kabul"), 0)] == 1
    assert state.cylinders[0] == data.numbers.usable_cylinders - 1


def test_leverage_icon_takes_two_rupees_from_the_bank(data, state):
    """RB p11: "Take two rupees from the bank. This card is leveraged."""
    (maqpon,) = in_hand(data, state, 0, "Maqpon Dynasty")  # Punjab, [tribe, leverage]
    P.play(data, state, 0, maqpon, P.RIGHT)
    assert state.rupees[0] == data.numbers.starting_rupees + 2


def test_suit_icon_moves_the_favored_suit(data, state):
    """RB p11: "Move the favored suit marker to the suit indicated." (RB p6 The Favored Suit)"""
    assert data.suits[state.favored] == "political"
    (mine,) = in_hand(data, state, 0, "Balkh Arsenic Mine")  # Kabul, [road, suit_military]
    P.play(data, state, 0, mine, P.RIGHT, roads=[P.road_options(data, mine)[0]])
    assert data.suits[state.favored] == "military"


def test_icons_resolve_in_printed_order(data, state):
    """RB p11: "resolve each impact icon ... from top to bottom": City of Ghazni's three roads,
    then its army, take the chosen borders in order."""
    (ghazni,) = in_hand(data, state, 0, "City of Ghazni")  # [road, road, road, army]
    a, b, c, _ = P.road_options(data, ghazni)
    P.play(data, state, 0, ghazni, P.RIGHT, roads=[a, c, a])
    assert [state.roads[state.road_at(x, AFGHAN)] for x in (a, b, c)] == [2, 0, 1]
    assert state.armies[state.army_at(region(data, "kabul"), AFGHAN)] == 1


def test_a_card_needs_one_border_per_road_icon(data, state):
    """RB p11: each road icon places one road, so each needs a border."""
    (ghazni,) = in_hand(data, state, 0, "City of Ghazni")
    with pytest.raises(ValueError):
        P.play(data, state, 0, ghazni, P.RIGHT, roads=[P.road_options(data, ghazni)[0]])


def test_spy_targets_are_court_cards_of_the_region(data, state):
    """RB p11: a spy goes "on a card in any player's court that matches the played card's
    region"."""
    lahore, kabul = card(data, "Sikh Merchants in Lahore"), card(data, "Bala Hissar")
    state.court[1] += [lahore, kabul]
    assert P.spy_options(data, state, region(data, "punjab")) == [lahore]


def test_a_spy_icon_places_a_cylinder_on_the_chosen_court_card(data, state):
    """RB p11: "Place one of your cylinders on a card in any player's court that matches the
    played card's region. This piece is now a spy." The played card itself is one such card."""
    (lal,) = in_hand(data, state, 0, "Mohan Lal")  # [spy, spy, spy]
    mine = data.court[lal].region
    other = next(c for c in range(len(data.court)) if data.court[c].region == mine and c != lal)
    state.court[1].append(other)
    cylinders = state.cylinders[0]
    P.play(data, state, 0, lal, P.RIGHT, spies=[other, other, lal])
    assert state.spies[state.spy_at(other, 0)] == 2 and state.spies[state.spy_at(lal, 0)] == 1
    assert state.cylinders[0] == cylinders - 3


def test_a_spy_must_go_on_a_court_card_of_the_region_and_one_per_icon(data, state):
    """RB p11: a spy goes on a card "that matches the played card's region"; nothing moves
    when a target is wrong or one is missing."""
    (lal,) = in_hand(data, state, 0, "Mohan Lal")
    elsewhere = next(
        c for c in range(len(data.court)) if data.court[c].region != data.court[lal].region
    )
    state.court[1].append(elsewhere)
    before = state.copy()
    with pytest.raises(ValueError, match="region"):
        P.play(data, state, 0, lal, P.RIGHT, spies=[lal, lal, elsewhere])
    with pytest.raises(ValueError, match="3 spy icons, 2"):
        P.play(data, state, 0, lal, P.RIGHT, spies=[lal, lal])
    assert state == before


def test_spies_on_a_discarded_court_card_go_back_to_their_owners(data, state):
    """RB p8 Discarding a Card in Your Court: "Any spies on the card are lost and returned to
    their owner's supply"."""
    target = card(data, "Bala Hissar")
    state.court[1].append(target)
    state.spies[state.spy_at(target, 0)] = 2
    state.cylinders[0] -= 2
    cylinders = state.cylinders[0]
    P.discard_from_court(data, state, 1, target, [])
    assert state.spies[state.spy_at(target, 0)] == 0 and state.cylinders[0] == cylinders + 2


def test_an_empty_supply_takes_blocks_from_play_rb_p8(data, state):
    """RB p8 Component Limits: "If asked to place a unit and none remain in the supply, you must
    take a piece of the required shape/color from anywhere in play, excluding any pieces
    placed this turn."""
    (ghazni,) = in_hand(data, state, 0, "City of Ghazni")  # road, road, road, army (Kabul)
    p = region(data, "punjab")
    state.blocks[AFGHAN] = 2
    state.armies[state.army_at(p, AFGHAN)] = 2
    P.play(data, state, 0, ghazni, P.RIGHT, roads=list(P.road_options(data, ghazni)[:3]))
    k = region(data, "kabul")
    assert state.armies[state.army_at(k, AFGHAN)] == 1
    assert state.armies[state.army_at(p, AFGHAN)] == 0 and state.blocks[AFGHAN] == 0
    assert len(state.placed_units) == 4


def test_no_unit_to_take_places_nothing_rb_p8(data, state):
    """RB p8 Component Limits, reading: with no unit in the supply nor in play but those placed
    this turn, the placement does not happen."""
    (ghazni,) = in_hand(data, state, 0, "City of Ghazni")
    state.blocks[AFGHAN] = 2
    P.play(data, state, 0, ghazni, P.RIGHT, roads=list(P.road_options(data, ghazni)[:3]))
    k = region(data, "kabul")
    placed = [state.roads[state.road_at(b, AFGHAN)] for b in P.road_options(data, ghazni)[:3]]
    assert placed == [1, 1, 0] and state.armies[state.army_at(k, AFGHAN)] == 0


def test_take_from_chooses_the_unit_and_may_convert_it_rb_p8(data, state):
    """RB p8: "In taking and placing a piece this way, you may convert one type of unit to
    another": the player's tribe becomes the spy (the rulebook's example)."""
    (charles,) = in_hand(data, state, 0, "Charles Stoddart")  # spy, Kabul
    h = region(data, "herat")
    state.cylinders[0] = 0
    state.tribes[state.tribe_at(h, 0)] = 1
    state.gifts[0] = 1
    tribe_code = P.location(state, P.TRIBE_UNIT, state.tribe_at(h, 0))
    gift_code = P.location(state, P.GIFT_UNIT, 0)
    offered = []

    def pick(sources: tuple[int, ...]) -> int:
        offered.append(sources)
        return tribe_code

    P.play(data, state, 0, charles, P.RIGHT, spies=[charles], take_from=pick)
    assert offered == [(tribe_code, gift_code)]
    assert state.tribes[state.tribe_at(h, 0)] == 0 and state.gifts[0] == 1
    assert state.spies[state.spy_at(charles, 0)] == 1


def test_units_placed_this_turn_are_no_source_until_the_turn_ends_rb_p8(data, state):
    """RB p8: "excluding any pieces placed this turn"; ``market.end_turn`` ends the turn."""
    k = region(data, "kabul")
    state.blocks[AFGHAN] = 1
    at = state.army_at(k, AFGHAN)
    assert P.place_unit(data, state, P.ARMY_UNIT, AFGHAN, at)
    road = state.road_at(0, AFGHAN)
    assert P.unit_sources(state, P.ROAD_UNIT, AFGHAN) == ()
    assert not P.place_unit(data, state, P.ROAD_UNIT, AFGHAN, road)
    market.end_turn(state)
    assert P.unit_sources(state, P.ROAD_UNIT, AFGHAN) == (P.location(state, P.ARMY_UNIT, at),)
    assert P.place_unit(data, state, P.ROAD_UNIT, AFGHAN, road)
    assert state.roads[road] == 1 and state.armies[at] == 0


def test_a_tribe_taken_from_play_brings_the_overthrow_rule_rb_p8(data, state):
    """RB p8 The Overthrow Rule: "if you lose your last tribe in a region, you must immediately
    discard all political cards associated with that region from your court"."""
    h = region(data, "herat")
    state.court[0].append(card(data, "Hazara Chiefs"))  # Herat, political
    state.cylinders[0] = 0
    state.tribes[state.tribe_at(h, 0)] = 1
    (charles,) = in_hand(data, state, 0, "Charles Stoddart")
    P.play(data, state, 0, charles, P.RIGHT, spies=[charles])
    assert card(data, "Hazara Chiefs") in state.discard


# --- RB p11 patriots, RB p7 Loyalty ---------------------------------------------------------


def test_a_foreign_patriot_changes_loyalty(data, state):
    """RB p11: "adjust your loyalty dial to match that of the patriot"; its army is then of the
    new loyalty."""
    (keane,) = in_hand(data, state, 0, "Sir John Keane")  # British patriot, Kandahar, [army]
    P.play(data, state, 0, keane, P.RIGHT)
    assert state.loyalty[0] == BRITISH
    assert state.armies[state.army_at(region(data, "kandahar"), BRITISH)] == 1
    assert state.court[0] == [keane]


def test_a_patriot_of_your_loyalty_changes_nothing(data, state):
    """RB p11: only a patriot "that does not match your loyalty" discards anything."""
    old = card(data, "Josiah Harlan")  # Afghan patriot
    state.court[0].append(old)
    state.gifts[0], state.cylinders[0] = 1, state.cylinders[0] - 1
    (lapis,) = in_hand(data, state, 0, "Lapis Lazuli Mine")  # Afghan patriot, [road, road]
    P.play(data, state, 0, lapis, P.RIGHT, roads=list(P.road_options(data, lapis)[:2]))
    assert state.loyalty[0] == AFGHAN and state.court[0] == [old, lapis] and state.gifts[0] == 1


def test_loyalty_change_returns_gifts_to_the_supply(data, state):
    """RB p7: "return your gifts to your supply"."""
    state.gifts[0], state.cylinders[0] = 2, state.cylinders[0] - 2
    (keane,) = in_hand(data, state, 0, "Sir John Keane")
    P.play(data, state, 0, keane, P.RIGHT)
    assert state.gifts[0] == 0 and state.cylinders[0] == data.numbers.usable_cylinders


def test_leveraged_patriot_discarded_repays_two_rupees(data, state):
    """RB p8: "If the card had the leveraged icon, you must return two rupees"."""
    state.court[0].append(card(data, "Barakzai Sadars"))  # Afghan patriot, leveraged
    (keane,) = in_hand(data, state, 0, "Sir John Keane")
    P.play(data, state, 0, keane, P.RIGHT)
    assert state.rupees[0] == data.numbers.starting_rupees - 2


def test_unpaid_leverage_costs_a_card_per_rupee(data, state):
    """RB p8: "For each rupee you cannot return, you must discard one card from your hand or
    court"."""
    state.court[0].append(card(data, "Barakzai Sadars"))
    state.rupees[0] = 1
    spare, keane = in_hand(data, state, 0, "Bala Hissar", "Sir John Keane")
    with pytest.raises(ValueError):
        P.play(data, state, 0, keane, P.RIGHT)
    P.play(data, state, 0, keane, P.RIGHT, pay_with=[spare])
    assert state.rupees[0] == 0 and state.hand[0] == [] and spare in state.discard


def test_losing_the_last_political_card_of_a_region_removes_its_tribes(data, state):
    """RB p8 The Overthrow Rule: a political patriot discarded on a loyalty change takes the
    player's tribes in its region with it."""
    punjab = region(data, "punjab")
    state.court[0].append(card(data, "Josiah Harlan"))  # Afghan patriot, Punjab, political
    state.tribes[state.tribe_at(punjab, 0)], state.cylinders[0] = 2, state.cylinders[0] - 2
    (keane,) = in_hand(data, state, 0, "Sir John Keane")
    P.play(data, state, 0, keane, P.RIGHT)
    assert state.tribes[state.tribe_at(punjab, 0)] == 0
    assert state.cylinders[0] == data.numbers.usable_cylinders


def test_rb_p7_loyalty_change_example(data, state):
    """RB p7 LOYALTY CHANGE EXAMPLE: "Blake is loyal to the Afghan coalition. He has one gift,
    one prize, and one patriot. ... He plays the patriot 'Sir John Keane.' At this moment, he
    loses his gift, his prize, and his patriot."""
    blake = 0
    patriot, prize = card(data, "Lapis Lazuli Mine"), card(data, "Charles Stoddart")
    state.court[blake] = [patriot]
    state.prizes[blake] = [prize]
    state.gifts[blake], state.cylinders[blake] = 1, state.cylinders[blake] - 1
    (keane,) = in_hand(data, state, blake, "Sir John Keane")
    P.play(data, state, blake, keane, P.RIGHT)
    assert state.loyalty[blake] == BRITISH
    assert state.gifts[blake] == 0 and state.prizes[blake] == []
    assert state.court[blake] == [keane]
    assert patriot in state.discard and prize in state.discard


def test_rb_p11_play_example_choices(data, state):
    """RB p11 PLAY EXAMPLE: Cati plays "Sikh Merchants in Lahore": "a road on either of the
    connections adjacent to Punjab", then "a spy on any court card associated with Punjab" (one
    of Hope's), then two rupees. (The bribe before it waits for ruling, RB p7.)"""
    cati, hope = 1, 2
    hope_card = card(data, "Josiah Harlan")  # a Punjab card in Hope's court
    state.court[hope].append(hope_card)
    (lahore,) = in_hand(data, state, cati, "Sikh Merchants in Lahore")
    assert len(P.road_options(data, lahore)) == 2
    assert P.spy_options(data, state, region(data, "punjab")) == [hope_card]
    border = P.road_options(data, lahore)[0]
    rupees = state.rupees[cati]
    P.play(data, state, cati, lahore, P.RIGHT, roads=[border], spies=[hope_card])
    assert state.roads[state.road_at(border, state.loyalty[cati])] == 1
    assert state.spies[state.spy_at(hope_card, cati)] == 1
    assert state.rupees[cati] == rupees + 2 and state.court[cati][-1] == lahore
