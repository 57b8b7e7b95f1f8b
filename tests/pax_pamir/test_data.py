"""Pax Pamir's data files as the rulebook describes them, and bad files refused in one line."""

from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from pathlib import Path

import pytest

from simulate.errors import DataError
from simulate.pax_pamir.cards import NONE, PaxData, load, load_dir
from simulate.pax_pamir.datafiles import DATA_DIR


def by_name(data: PaxData, names: tuple[str, ...], ids) -> Counter:
    return Counter(names[i] for i in ids)


# --- cards: RB p3 ------------------------------------------------------------------------------


def test_there_are_100_court_cards_and_16_events_of_which_4_are_dominance_checks(data):
    # RB p3 Cards (142): event cards (16), court cards (100), Wakhan cards (24 AI and 2 aid)
    assert len(data.court) == 100
    assert len(data.events) + len(data.dominance_checks) == 16
    assert len(data.dominance_checks) == 4
    assert len(data.wakhan) == 24


def test_card_ids_are_small_integers_court_first_then_checks_then_events(data):
    assert [card.id for card in data.court] == list(range(100))
    assert data.dominance_checks == (100, 101, 102, 103)
    assert [e.id for e in data.events] == list(range(104, 116))
    assert data.card_count == 116


def test_court_cards_by_region(data):
    # RB p3 Advanced Anatomy: a court card's region
    assert by_name(data, data.regions, (c.region for c in data.court)) == {
        "punjab": 21,
        "kabul": 17,
        "persia": 17,
        "transcaspia": 16,
        "kandahar": 15,
        "herat": 14,
    }


def test_court_cards_by_suit(data):
    # RB p3 Core Anatomy: suit and rank
    assert by_name(data, data.suits, (c.suit for c in data.court)) == {
        "economic": 28,
        "intelligence": 25,
        "military": 24,
        "political": 23,
    }


def test_court_cards_by_rank(data):
    # RB p3 Core Anatomy: suit and rank
    assert Counter(c.rank for c in data.court) == {1: 56, 2: 39, 3: 5}


def test_30_patriots_and_52_prizes(data):
    # RB p3 Patriots (colored bar), Prize
    patriots = [c.patriot for c in data.court if c.patriot != NONE]
    prizes = [c.prize for c in data.court if c.prize != NONE]
    assert by_name(data, data.coalitions, patriots) == {"british": 13, "russian": 10, "afghan": 7}
    assert by_name(data, data.coalitions, prizes) == {"afghan": 18, "russian": 17, "british": 17}


def test_sikh_merchants_in_lahore_is_a_punjab_card_with_road_spy_and_leverage(data):
    # RB p11 Play Example: a road, then a spy, then the card is leveraged
    card = data.court[29]
    assert card.name == "Sikh Merchants in Lahore"
    assert data.regions[card.region] == "punjab"
    assert [data.icons[i] for i in card.icons] == ["road", "spy", "leverage"]


def test_sir_john_keane_is_a_british_patriot(data):
    # RB p7 Loyalty Change Example: Blake plays the patriot "Sir John Keane"
    card = data.court[50]
    assert card.name == "Sir John Keane"
    assert data.coalitions[card.patriot] == "british"


def test_money_lenders_is_a_kabul_economic_card(data):
    # RB p13 Tax Example: Brooke's rupees protected by her Money Lenders (a tax shelter)
    card = data.court[13]
    assert (data.regions[card.region], data.suits[card.suit]) == ("kabul", "economic")


def test_favored_suit_icons_name_the_suit_they_make_favored(data):
    # RB p11 Resolve Impact Icons: move the favored suit marker
    changes = {data.icons[i]: data.suits[s] for i, s in enumerate(data.icon_suit) if s != NONE}
    assert changes == {f"suit_{s}": s for s in data.suits}


def test_card_actions_are_listed_once_each_in_canonical_order(data):
    # RB p12 Card-Based Actions: tax, gift, build, move, betray, battle
    assert data.actions == ("tax", "gift", "build", "move", "betray", "battle")
    assert all(list(c.actions) == sorted(set(c.actions)) for c in data.court)


def test_each_special_ability_lists_exactly_the_cards_that_carry_it(data):
    # RB p8: a special ability is active while its card is in your court
    for ability, cards in enumerate(data.ability_cards):
        assert cards == tuple(c.id for c in data.court if c.ability == ability)
    assert sum(map(len, data.ability_cards)) == 22 and len(data.abilities) == 18


def test_every_event_has_a_purchased_and_a_discarded_effect(data):
    # RB p3: the bottom effect when purchased, the top effect when discarded in cleanup
    keys = [k for e in data.events for k in (e.purchased.key, e.discarded.key)]
    assert len(keys) == 24 == len(set(keys))
    assert data.events[0].discarded.key == "military"


# --- map: RB p2 --------------------------------------------------------------------------------


def test_the_map_has_six_regions(data):
    # RB p2 The Map: the map consists of six regions
    assert sorted(data.regions) == ["herat", "kabul", "kandahar", "persia", "punjab", "transcaspia"]


def test_the_map_has_nine_borders_each_between_two_regions(data):
    named = {frozenset((data.regions[a], data.regions[b])) for a, b in data.borders}
    assert named == {
        frozenset(pair)
        for pair in (
            ("persia", "transcaspia"),
            ("persia", "herat"),
            ("transcaspia", "herat"),
            ("transcaspia", "kabul"),
            ("herat", "kabul"),
            ("herat", "kandahar"),
            ("kabul", "kandahar"),
            ("kabul", "punjab"),
            ("kandahar", "punjab"),
        )
    }
    assert len(data.borders) == 9


def test_kabul_has_four_borders(data):
    # RB p13 Build Example: "roads on any of its four borders"
    assert len(data.region_borders[data.regions.index("kabul")]) == 4


def test_punjab_has_two_borders(data):
    # RB p11 Play Example: "either of the connections adjacent to Punjab"
    punjab = data.regions.index("punjab")
    assert [data.regions[r] for r in data.adjacency[punjab]] == ["kabul", "kandahar"]


def test_adjacency_is_symmetric(data):
    assert all(a in data.adjacency[b] for a, near in enumerate(data.adjacency) for b in near)


# --- setup and deck: RB p4 ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deck_is_six_piles_of_five_plus_players_and_ten_events(data, players):
    # RB p4 Build the Draw Deck: six piles of 5 + n court cards, 4 Dominance Checks, 6 events
    plan = data.deck_plan(players)
    assert plan.court_by_pile == (5 + players,) * 6
    assert plan.size == 6 * (5 + players) + 10 == {2: 52, 3: 58, 4: 64, 5: 70}[players]


def test_dominance_checks_go_in_the_four_rightmost_piles_and_two_events_in_the_second(data):
    # RB p4 steps 3-4
    plan = data.deck_plan(4)
    assert plan.dominance_checks_by_pile == (0, 0, 1, 1, 1, 1)
    assert plan.events_by_pile == (0, 2, 1, 1, 1, 1)


def test_there_is_no_deck_for_one_or_six_players(data):
    for players in (1, 6):
        with pytest.raises(ValueError, match="players must be 2..5"):
            data.deck_plan(players)


def test_the_market_is_two_rows_of_six_and_play_starts_political_with_four_rupees(data):
    # RB p4 Create the Market, Starting Favored Suit, Take Player Pieces
    assert (data.market_rows, data.market_columns) == (2, 6)
    assert data.suits[data.numbers.favored_suit] == "political"
    assert data.numbers.starting_rupees == 4


def test_dominance_check_scores(data):
    # RB p15: 5/3/1 by influence when successful, 3/1 by cylinders when not, final doubled
    n = data.numbers
    assert (n.success_points, n.failure_points, n.final_multiplier) == ((5, 3, 1), (3, 1), 2)
    assert n.dominance_lead == 4 == n.early_end_lead


def test_each_wakhan_card_orders_every_coalition_and_region(data):
    # RB p16 Pragmatic Loyalty: the leftmost loyalty on the AI card
    for card in data.wakhan:
        assert sorted(card.loyalty) == [0, 1, 2]
        assert sorted(card.regions) == list(range(6))
        assert sorted(card.back_columns) == list(range(6))


# --- loaded once, immutable, attributed --------------------------------------------------------


def test_the_data_is_loaded_once_and_cannot_be_changed(data):
    assert load() is data
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.court[0].rank = 2  # type: ignore[misc]


def test_the_data_keeps_its_confidence_marks_open_points_and_licence(data):
    assert ("wakhan.yaml: meta", "S") in data.confidence
    assert any(f == "court_cards.cards.icons" for _, f, _ in data.open_points)
    assert "CC BY-NC-SA 4.0" in (DATA_DIR / "LICENSE.md").read_text(encoding="utf-8")
    assert [name for name, _ in data.digests] == ["cards.yaml", "map.yaml", "wakhan.yaml"]


# --- bad files: one line naming file and field -------------------------------------------------


def refused(tmp_path: Path, file: str, old: str, new: str) -> str:
    """The one-line error of the data folder with ``old`` replaced by ``new`` in ``file``."""
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_dir(folder)
    message = str(exc.value)
    assert "\n" not in message
    return message


def test_an_unknown_field_is_refused(tmp_path):
    message = refused(
        tmp_path, "cards.yaml", "{n: 1, name: Mohan Lal,", "{n: 1, colour: red, name: Mohan Lal,"
    )
    assert message.startswith(
        "cards.yaml: court_cards.cards[0].colour: unknown field (expected: n,"
    )


def test_an_unknown_region_is_refused(tmp_path):
    message = refused(
        tmp_path,
        "cards.yaml",
        "Shah Shujah Durrani, region: kabul",
        "Shah Shujah Durrani, region: kabol",
    )
    assert message.startswith(
        "cards.yaml: court_cards.cards[4].region: unknown region 'kabol' (expected: persia,"
    )


def test_a_wrong_declared_count_is_refused(tmp_path):
    message = refused(tmp_path, "cards.yaml", "punjab: 21, kabul: 17,", "punjab: 21, kabul: 18,")
    assert message == "cards.yaml: counts.court_by_region.kabul: declared 18, the cards have 17"


def test_a_rank_out_of_range_is_refused(tmp_path):
    message = refused(
        tmp_path,
        "cards.yaml",
        "Mohan Lal, region: kabul, suit: intelligence, rank: 3",
        "Mohan Lal, region: kabul, suit: intelligence, rank: 4",
    )
    assert message == "cards.yaml: court_cards.cards[0].rank: must be 1..3"


def test_a_wrong_deck_size_is_refused(tmp_path):
    message = refused(tmp_path, "cards.yaml", "4: 64,", "4: 63,")
    assert (
        message
        == "cards.yaml: deck_construction.deck_size_by_players.4: declared 63, the piles make 64"
    )


def test_a_border_to_an_unknown_region_is_refused(tmp_path):
    message = refused(tmp_path, "map.yaml", "- [kabul, punjab]", "- [kabul, lahore]")
    assert message.startswith("map.yaml: borders.pairs[7]: unknown region 'lahore'")


def test_an_event_without_its_discarded_effect_is_refused(tmp_path):
    old = '\n      discarded: {key: no_effect, name: No effect, scope: all, effect: "nothing"}'
    message = refused(tmp_path, "cards.yaml", old, "")
    assert message == "cards.yaml: event_cards.cards[6].discarded: required"


def test_an_ability_on_a_card_its_list_omits_is_refused(tmp_path):
    message = refused(tmp_path, "cards.yaml", "{cards: [15, 83],", "{cards: [15],")
    assert message.startswith("cards.yaml: special_abilities.bodyguards.cards: lists [15]")


def test_a_wakhan_card_with_an_unknown_action_is_refused(tmp_path):
    old = "{n: 1, actions: [tax, "
    message = refused(tmp_path, "wakhan.yaml", old, "{n: 1, actions: [taxes, ")
    assert message.startswith("wakhan.yaml: cards[0].actions[0]: unknown action key 'taxes'")
