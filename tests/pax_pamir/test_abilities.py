"""The special abilities the court cards give (RB p8 Card Precedence: they "always take
precedence over the rules"; cards.yaml special_abilities)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import actions as A
from simulate.pax_pamir import dominance as D
from simulate.pax_pamir import market, military
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


def to_market(state: State, name_id: int, row: int, column: int) -> None:
    state.market[state.space(row, column)] = name_id


def test_insurrection_places_two_afghan_armies_in_kabul_rb_p8(data, state):
    """Prince Akbar Khan, Insurrection: "after each Dominance Check (if the game goes on),
    place 2 Afghan armies in Kabul"."""
    k = region(data, "kabul")
    assert D.insurrection(data, state) == 0
    in_court(data, state, HOPE, "Prince Akbar Khan")
    assert D.insurrection_holder(data, state) == HOPE
    assert D.insurrection(data, state) == 2
    assert state.armies[state.army_at(k, AFGHAN)] == 2 and state.blocks[AFGHAN] == 12 - 2


def test_blackmail_spies_on_an_unspied_card_of_its_region_rb_p8(data, state):
    """Giljee Nobles, Blackmail: "at the start of your turn you may place a spy on any court
    card of the card's region (43: Kandahar, ...) that has no spy"."""
    in_court(data, state, CATI, "Giljee Nobles")
    bank, masson = in_court(data, state, BROOKE, "Bank", "Charles Masson")  # Kandahar both
    in_court(data, state, HOPE, "Bala Hissar")  # Kabul
    state.spies[state.spy_at(masson, HOPE)] = 1
    giljee = card(data, "Giljee Nobles")
    assert military.blackmail_targets(data, state, CATI) == [giljee, bank]
    assert military.blackmail_targets(data, state, BROOKE) == []
    cylinders = state.cylinders[CATI]
    assert military.blackmail(data, state, CATI, bank)
    assert state.spies[state.spy_at(bank, CATI)] == 1 and state.cylinders[CATI] == cylinders - 1
    with pytest.raises(ValueError):
        military.blackmail(data, state, CATI, masson)


def test_herat_influence_buys_herat_cards_free_rb_p8(data, state):
    """Baluchi Smugglers, Herat Influence: "you pay nothing to purchase Herat cards"."""
    to_market(state, card(data, "Karakul Sheep"), 0, 3)  # Herat
    assert market.cost(data, state, 3, 0, CATI) == 3
    in_court(data, state, CATI, "Baluchi Smugglers")
    assert market.cost(data, state, 3, 0, CATI) == 0 and market.cost(data, state, 3) == 3
    state.rupees[CATI] = 0
    market.buy(data, state, CATI, 0, 3)
    assert card(data, "Karakul Sheep") in state.hand[CATI]
    assert state.market_rupees[:3] == [0, 0, 0] and state.placed == []


def test_persian_influence_buys_persia_cards_free_rb_p8(data, state):
    """Ghaem Magham Farahani, Persian Influence: "you pay nothing to purchase Persia cards"."""
    to_market(state, card(data, "Persian Army"), 1, 2)
    in_court(data, state, CATI, "Ghaem Magham Farahani")
    assert market.cost(data, state, 2, 1, CATI) == 0
    assert market.cost(data, state, 2, 1, BROOKE) == 2


def test_russian_influence_buys_russian_patriots_free_rb_p8(data, state):
    """Alexander Griboyedov, Russian Influence: "you pay nothing to purchase Russian
    patriots"."""
    to_market(state, card(data, "Cossacks"), 0, 4)  # a Russian patriot
    to_market(state, card(data, "European Cannons"), 1, 4)  # no patriot
    in_court(data, state, CATI, "Alexander Griboyedov")
    assert market.cost(data, state, 4, 0, CATI) == 0
    assert market.cost(data, state, 4, 1, CATI) == 4


def test_infrastructure_places_one_extra_block_free_rb_p8(data, state):
    """Civic Improvements, Infrastructure: "after a build action, place one extra block in a
    legal space, free"."""
    (civic,) = in_court(data, state, CATI, "Civic Improvements")  # build, Persia
    ps = region(data, "persia")
    state.rupees[CATI] = 2
    A.build(data, state, A.new_turn(data), CATI, civic, [ps], armies=[ps], extra_army=ps)
    assert state.armies[state.army_at(ps, BRITISH)] == 2 and state.rupees[CATI] == 0
    (lenders,) = in_court(data, state, BROOKE, "Money Lenders")
    with pytest.raises(ValueError, match="Infrastructure"):
        A.build(data, state, A.new_turn(data), BROOKE, lenders, [ps], armies=[ps], extra_army=ps)


def test_safe_house_keeps_a_spy_removed_in_battle_rb_p8(data, state):
    """Charles Masson, Safe House: "when another player's battle removes your spy, you may put it
    on this card instead of your supply"."""
    (masson,) = in_court(data, state, BROOKE, "Charles Masson")
    (target,) = in_court(data, state, HOPE, "Bala Hissar")
    (moorcroft,) = in_court(data, state, CATI, "William Moorcroft")  # battle, rank 1
    state.spies[state.spy_at(target, CATI)] = 1
    state.spies[state.spy_at(target, BROOKE)] = 1
    state.cylinders[CATI] -= 1
    state.cylinders[BROOKE] -= 1
    cylinders = state.cylinders[BROOKE]
    turn = A.new_turn(data)
    military.battle_card(data, state, turn, CATI, moorcroft, target, {BROOKE: 1}, saved=[masson])
    assert state.spies[state.spy_at(target, BROOKE)] == 0
    assert state.spies[state.spy_at(masson, BROOKE)] == 1 and state.cylinders[BROOKE] == cylinders


def test_safe_house_keeps_only_spies_the_battle_removed_rb_p8(data, state):
    """Safe House saves "your spy" that "another player's battle removes": no more."""
    (masson,) = in_court(data, state, BROOKE, "Charles Masson")
    (target,) = in_court(data, state, HOPE, "Bala Hissar")
    (moorcroft,) = in_court(data, state, CATI, "William Moorcroft")
    state.spies[state.spy_at(target, CATI)] = 1
    state.spies[state.spy_at(target, HOPE)] = 1
    before = state.copy()
    with pytest.raises(ValueError, match="more spies"):
        military.battle_card(
            data, state, A.new_turn(data), CATI, moorcroft, target, {HOPE: 1}, saved=[masson]
        )
    assert state == before
