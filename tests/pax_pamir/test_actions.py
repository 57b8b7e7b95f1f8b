"""Tax, gift and build as the rulebook describes them (RB p12 Card-Based Actions, RB p13)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import actions as A
from simulate.pax_pamir.cards import PaxData
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import EMPTY, State
from tests.pax_pamir.support import card, in_court, region

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2
CATI, BROOKE, HOPE = 0, 1, 2


@pytest.fixture
def state(data) -> State:
    return new_state(data, 3, random.Random(4), loyalty=[BRITISH, AFGHAN, RUSSIAN])


def kabul(data: PaxData) -> list[int]:
    return [region(data, "kabul")]


# --- RB p13 Tax -----------------------------------------------------------------------------


def test_tax_example_rb_p13(data, state):
    """RB p13 TAX EXAMPLE: "Cati takes a tax action with a rank two card. She rules Kabul ...
    she can take one rupee from Brooke who has a court card in that region. Brooke's other
    rupees are protected by her Money Lender's Tax Shelter. Cati takes the other rupee from
    the market." Reading of the picture: Brooke holds three rupees."""
    (bazaar,) = in_court(data, state, CATI, "Kabul Bazaar")  # Kabul, economic, rank 2, tax
    in_court(data, state, BROOKE, "Money Lenders")  # Kabul, economic, rank 2
    state.rupees[CATI], state.rupees[BROOKE] = 0, 3
    space = state.space(0, 3)
    state.market_rupees[space] = 1
    with pytest.raises(ValueError, match="sheltered"):
        A.tax(data, state, A.new_turn(data), CATI, bazaar, kabul(data), from_players={BROOKE: 2})
    A.tax(
        data,
        state,
        A.new_turn(data),
        CATI,
        bazaar,
        kabul(data),
        from_market={space: 1},
        from_players={BROOKE: 1},
    )
    assert state.rupees[CATI] == 2
    assert state.rupees[BROOKE] == 2
    assert state.market_rupees[space] == 0


def test_tax_up_to_the_rank(data, state):
    """RB p13: "so long as the total taken does not exceed the rank of the acting card"."""
    (bazaar,) = in_court(data, state, CATI, "Kabul Bazaar")
    state.market_rupees[state.space(0, 1)] = 3
    with pytest.raises(ValueError, match="rank"):
        A.tax(data, state, A.new_turn(data), CATI, bazaar, [], {state.space(0, 1): 3})


def test_tax_market_regardless_of_region(data, state):
    """RB p13: "or any card(s) in the market (regardless of their region)": ruling nothing."""
    (bazaar,) = in_court(data, state, CATI, "Kabul Bazaar")
    state.market_rupees[state.space(1, 5)] = 2
    A.tax(data, state, A.new_turn(data), CATI, bazaar, [], {state.space(1, 5): 2})
    assert state.rupees[CATI] == 4 + 2


def test_tax_not_a_vacant_market_space(data, state):
    """RB p13: rupees are taken from "card(s) in the market": not from a vacant space."""
    (bazaar,) = in_court(data, state, CATI, "Kabul Bazaar")
    space = state.space(0, 0)
    state.market[space], state.market_rupees[space] = EMPTY, 1
    with pytest.raises(ValueError, match="no card"):
        A.tax(data, state, A.new_turn(data), CATI, bazaar, [], {space: 1})


def test_tax_only_players_with_a_card_of_a_ruled_region(data, state):
    """RB p13: "from players with at least one court card associated with a region you rule"."""
    (bazaar,) = in_court(data, state, CATI, "Kabul Bazaar")
    in_court(data, state, BROOKE, "Ranjit Singh")  # Punjab
    with pytest.raises(ValueError, match="no court card"):
        A.tax(data, state, A.new_turn(data), CATI, bazaar, kabul(data), from_players={BROOKE: 1})
    A.tax(data, state, A.new_turn(data), CATI, bazaar, [region(data, "punjab")], {}, {BROOKE: 1})
    assert state.rupees == [5, 3, 4]


def test_tax_shelter_is_economic_stars(data, state):
    """RB p13 Tax Shelter: "The total number of gold stars in your court indicates the amount
    of rupees you can shelter"; RB p6: a card's rank adds to its suit's stars."""
    in_court(data, state, BROOKE, "Money Lenders", "Balkh Arsenic Mine", "Shah Shujah Durrani")
    assert A.tax_shelter(data, state, BROOKE) == 2 + 1  # the political card shelters nothing
    state.rupees[BROOKE] = 5
    assert A.vulnerable(data, state, BROOKE) == 2


def test_claim_of_ancient_lineage_taxes_every_region(data, state):
    """cards.yaml claim_of_ancient_lineage: "when taxing, treat yourself as ruler of every
    region" (RB p8: special abilities take precedence over the rules)."""
    (bazaar,) = in_court(data, state, CATI, "Kabul Bazaar", "Shah Shujah Durrani")[:1]
    in_court(data, state, BROOKE, "Ranjit Singh")  # Punjab; Cati rules nothing
    assert A.taxable(data, state, CATI, []) == [BROOKE]
    A.tax(data, state, A.new_turn(data), CATI, bazaar, [], from_players={BROOKE: 2})
    assert state.rupees[:2] == [6, 2]


# --- RB p13 Gift ----------------------------------------------------------------------------


def test_gift_costs_2_4_6(data, state):
    """RB p13 Gift: "The cost of this action is equal to the marked price of the gift placed
    (2, 4, or 6)": paid to the market (RB p12 Action Costs); the cylinder leaves the supply."""
    mines = in_court(data, state, CATI, "Lapis Lazuli Mine", "Money Lenders")
    state.rupees[CATI] = 20
    turn = A.new_turn(data)
    for mine, (paid, left) in zip(mines, [(2, 18), (4, 14)], strict=True):
        before = sum(state.market_rupees)
        A.gift(data, state, turn, CATI, mine)
        assert state.rupees[CATI] == left
        assert sum(state.market_rupees) - before == paid
    assert state.gifts[CATI] == 2 and state.cylinders[CATI] == 10 - 2
    assert A.gift_cost(data, state, CATI) == 6


def test_gift_needs_an_empty_gift_space(data, state):
    """RB p13: "one of your empty gift spaces": three spaces, then none."""
    (mine,) = in_court(data, state, CATI, "Lapis Lazuli Mine")
    state.gifts[CATI], state.rupees[CATI] = 3, 20
    with pytest.raises(ValueError, match="no empty gift space"):
        A.gift(data, state, A.new_turn(data), CATI, mine)


# --- RB p13 Build ---------------------------------------------------------------------------


def test_build_example_rb_p13(data, state):
    """RB p13 BUILD EXAMPLE: "Cati takes a build action. She rules Kabul and is loyal to the
    British coalition ... decides to only place two armies. This costs a total of four rupees
    which she pays to the market." Reading: the rightmost two cards of both rows (RB p12)."""
    (lenders,) = in_court(data, state, CATI, "Money Lenders")
    state.rupees[CATI] = 4
    k = region(data, "kabul")
    A.build(data, state, A.new_turn(data), CATI, lenders, [k], armies=[k, k])
    assert state.armies[state.army_at(k, BRITISH)] == 2
    assert state.blocks[BRITISH] == 12 - 2
    assert state.rupees[CATI] == 0
    paid = [state.space(r, c) for r in (0, 1) for c in (4, 5)]
    assert [state.market_rupees[s] for s in paid] == [1, 1, 1, 1]
    assert sorted(state.placed) == sorted(state.market[s] for s in paid)


def test_build_roads_on_borders_of_ruled_regions(data, state):
    """RB p13: "she can build armies in Kabul or roads on any of its four borders"."""
    (lenders,) = in_court(data, state, CATI, "Money Lenders")
    borders = A.build_borders(data, kabul(data))
    assert len(borders) == 4
    A.build(data, state, A.new_turn(data), CATI, lenders, kabul(data), roads=borders[:2])
    assert all(state.roads[state.road_at(b, BRITISH)] == 1 for b in borders[:2])
    outside = next(b for b in range(len(data.borders)) if b not in borders)
    with pytest.raises(ValueError, match="border"):
        A.build(data, state, A.new_turn(data), CATI, lenders, kabul(data), roads=[outside])


def test_build_only_in_ruled_regions_up_to_three(data, state):
    """RB p13: "Place up to three armies and/or roads among any regions that you rule"."""
    (lenders,) = in_court(data, state, CATI, "Money Lenders")
    state.rupees[CATI] = 20
    k, p = region(data, "kabul"), region(data, "punjab")
    with pytest.raises(ValueError, match="does not rule"):
        A.build(data, state, A.new_turn(data), CATI, lenders, [k], armies=[p])
    with pytest.raises(ValueError, match="1 to 3"):
        A.build(data, state, A.new_turn(data), CATI, lenders, [k], armies=[k] * 4)


def test_build_costs_two_per_unit(data, state):
    """RB p13: "two rupees per unit placed": three blocks need six rupees."""
    (lenders,) = in_court(data, state, CATI, "Money Lenders")
    k = region(data, "kabul")
    before = state.copy()
    with pytest.raises(ValueError, match="cannot pay"):
        A.build(data, state, A.new_turn(data), CATI, lenders, [k], armies=[k, k, k])
    assert state == before


# --- RB p12 Card-Based Actions: the frame ---------------------------------------------------


def test_card_must_be_in_court_and_show_the_action(data, state):
    """RB p12: actions "can only be taken if you have a card in your court which displays that
    action"."""
    bazaar = card(data, "Kabul Bazaar")
    state.hand[CATI].append(bazaar)
    with pytest.raises(ValueError, match="not in player"):
        A.tax(data, state, A.new_turn(data), CATI, bazaar, [])
    in_court(data, state, CATI, "Kabul Bazaar")
    with pytest.raises(ValueError, match="no gift action"):
        A.gift(data, state, A.new_turn(data), CATI, bazaar)


def test_one_action_per_card_per_turn(data, state):
    """RB p12: "Each card can only be used for one action once per turn, regardless of the
    number of actions icons on that card"."""
    (mine,) = in_court(data, state, CATI, "Lapis Lazuli Mine")  # tax, gift
    turn = A.new_turn(data)
    A.tax(data, state, turn, CATI, mine, [])
    with pytest.raises(ValueError, match="already used"):
        A.gift(data, state, turn, CATI, mine)


def test_two_actions_a_turn(data, state):
    """RB p9: "the active player performs up to two actions"."""
    cards = in_court(data, state, CATI, "Kabul Bazaar", "Lapis Lazuli Mine", "Ghilzai Nomads")
    turn = A.new_turn(data)
    for c in cards[:2]:
        A.tax(data, state, turn, CATI, c, [])
    assert turn.actions_left == 0
    with pytest.raises(ValueError, match="no action left"):
        A.tax(data, state, turn, CATI, cards[2], [])


def test_favored_suit_bonus_action(data, state):
    """RB p12 Bonus Actions: "Actions on cards matching the favored suit do not count against
    your turn's two-action limit. ... each of these cards can still only be used for a single
    action per turn"."""
    cards = in_court(data, state, CATI, "Kabul Bazaar", "Lapis Lazuli Mine", "Ghilzai Nomads")
    state.favored = data.suits.index("economic")
    turn = A.new_turn(data)
    turn.actions_left = 0
    for c in cards:
        A.tax(data, state, turn, CATI, c, [])
    assert turn.actions_left == 0 and turn.used == cards


def test_savvy_operator_counts_as_favored(data, state):
    """cards.yaml savvy_operator: "this card always counts as the favored suit"."""
    savvy = data.ability_cards[data.abilities.index("savvy_operator")][0]
    state.favored = data.suits.index("military")
    assert A.is_bonus(data, state, savvy)
    assert not A.is_bonus(data, state, card(data, "Kabul Bazaar"))


def test_action_cost_skips_vacancies_and_marks_cards(data, state):
    """RB p12 Action Costs: "If a market slot is vacant, skip that vacancy and pay the next
    market card(s) in the row. Reminder: if you place a rupee on a market card for any reason,
    you may not purchase that card this turn"."""
    state.market[state.space(0, 5)] = EMPTY
    A.pay_action_cost(state, CATI, 3)
    assert A.cost_spaces(state, 3) == [state.space(0, 4), state.space(1, 5), state.space(0, 3)]
    assert state.market_rupees[state.space(0, 4)] == 1
    assert state.market_rupees[state.space(0, 5)] == 0
    assert state.market[state.space(1, 5)] in state.placed


def test_action_cost_excess_leaves_the_game(data, state):
    """RB p12: "If the market does not contain enough cards to take the spent rupees, any excess
    rupees are taken out of the game"."""
    for s in range(len(state.market)):
        if s != state.space(1, 2):
            state.market[s] = EMPTY
    A.pay_action_cost(state, CATI, 4)
    assert state.rupees[CATI] == 0
    assert sum(state.market_rupees) == 1


def test_hostage_bribe(data, state):
    """RB p12 HOSTAGE ACTION EXAMPLE: "Cati (blue) has two spies on the card. Hope only has
    one ... To take either of this card's two actions, Hope must pay a bribe of two rupees to
    Cati. Cati may reduce or waive this bribe outright"."""
    (mine,) = in_court(data, state, HOPE, "Lapis Lazuli Mine")
    state.spies[state.spy_at(mine, CATI)] = 2
    state.spies[state.spy_at(mine, HOPE)] = 1
    assert A.hostage_holder(state, mine, HOPE) == CATI
    A.tax(data, state, A.new_turn(data), HOPE, mine, [])
    assert state.rupees[HOPE] == 2 and state.rupees[CATI] == 6
    A.tax(data, state, A.new_turn(data), HOPE, mine, [], waived=2)
    assert state.rupees[HOPE] == 2


def test_no_hostage_on_a_tie(data, state):
    """RB p12: "a single enemy player must have more spies on the card than each other
    player"."""
    (mine,) = in_court(data, state, HOPE, "Lapis Lazuli Mine")
    state.spies[state.spy_at(mine, CATI)] = 1
    state.spies[state.spy_at(mine, BROOKE)] = 1
    assert A.hostage_holder(state, mine, HOPE) == -1


def test_civil_service_reforms_pays_no_hostage_bribe(data, state):
    """cards.yaml civil_service_reforms: "you never pay hostage bribes"."""
    mine, _ = in_court(data, state, HOPE, "Lapis Lazuli Mine", "Ranjit Singh")
    state.spies[state.spy_at(mine, CATI)] = 2
    assert A.hostage_bribe(data, state, HOPE, mine) == 0


# --- RB p8 Component Limits in gift and build ---------------------------------------------


def test_gift_takes_a_cylinder_from_play_rb_p8(data, state):
    """RB p8 Component Limits: a gift with no cylinder on the board takes one from play."""
    (bank,) = in_court(data, state, CATI, "Bank")  # gift
    state.rupees[CATI] = 2
    state.cylinders[CATI] = 0
    h = region(data, "herat")
    state.tribes[state.tribe_at(h, CATI)] = 1
    A.gift(data, state, A.new_turn(data), CATI, bank)
    assert state.gifts[CATI] == 1 and state.tribes[state.tribe_at(h, CATI)] == 0


def test_gift_without_any_cylinder_is_refused_rb_p8(data, state):
    """RB p8 Component Limits, reading: no cylinder to take anywhere, no gift."""
    (bank,) = in_court(data, state, CATI, "Bank")
    state.rupees[CATI] = 2
    state.cylinders[CATI] = 0
    before = state.copy()
    with pytest.raises(ValueError, match="Component Limits"):
        A.gift(data, state, A.new_turn(data), CATI, bank)
    assert state == before


def test_build_takes_blocks_from_play_rb_p8(data, state):
    """RB p8 Component Limits: a build's blocks the supply lacks come from play, not from the
    blocks this build placed; more than can be placed is refused."""
    (lenders,) = in_court(data, state, CATI, "Money Lenders")
    state.rupees[CATI] = 20
    k, p = region(data, "kabul"), region(data, "punjab")
    state.blocks[BRITISH] = 1
    state.armies[state.army_at(p, BRITISH)] = 1
    before = state.copy()
    with pytest.raises(ValueError, match="fewer than 3"):
        A.build(data, state, A.new_turn(data), CATI, lenders, [k], armies=[k, k, k])
    assert state == before
    A.build(data, state, A.new_turn(data), CATI, lenders, [k], armies=[k, k])
    assert state.armies[state.army_at(k, BRITISH)] == 2
    assert state.armies[state.army_at(p, BRITISH)] == 0
