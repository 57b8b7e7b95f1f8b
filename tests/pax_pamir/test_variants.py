"""Pax Pamir's variant files (issue 67 part 2): the player count, the rule numbers, the deck
(cards left out or always dealt, the piles) and the Wakhan seat, each refused in one line
naming its key when it is wrong."""

from __future__ import annotations

import pytest

from simulate.errors import DataError
from simulate.overrides import with_settings
from simulate.pax_pamir.engine import new_game
from simulate.pax_pamir.game import GAME
from simulate.seeds import streams
from strategies.policies.random import RandomStrategy


def rules(*settings):
    return GAME.compile(with_settings(GAME.base_variant(), list(settings)))


def dealt(r, seed: int) -> set[int]:
    rngs = streams(seed, GAME.streams)
    agents = [RandomStrategy() for _ in r.seats]
    for seat, agent in zip(r.seats, agents, strict=True):
        agent.new_game(seat, rngs[seat], r)
    return set(new_game(r, rngs, agents).dealt)


def number(r, card: int) -> int:
    d = r.data
    return d.court[card].number if card < len(d.court) else card + 1


def test_a_removed_card_is_never_dealt():
    """``deck.remove``: a court card or an event left out of deck building (RB p4)."""
    r = rules(("deck.remove", [1, 105]))
    for seed in range(30):
        assert not {number(r, c) for c in dealt(r, seed)} & {1, 105}


def test_an_included_court_card_is_always_dealt():
    """``deck.include``: a court card in every game's deck ("swapping" one in)."""
    r = rules(("deck.include", [42]), ("deck.remove", [41]))
    for seed in range(30):
        numbers = {number(r, c) for c in dealt(r, seed)}
        assert 42 in numbers and 41 not in numbers


def test_the_piles_follow_the_deck_keys():
    """RB p4: 6 piles of 5 + players court cards; ``court_base`` changes the 5."""
    assert len(dealt(rules(), 1)) == 64
    assert len(dealt(rules(("deck.court_base", 4)), 1)) == 58
    assert len(dealt(rules(("deck.events_by_pile", [0, 0, 0, 0, 0, 0])), 1)) == 58


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (("deck.remove", [101]), "deck.remove: card 101 is a Dominance Check"),
        (("deck.remove", [200]), r"deck.remove\[0\]: must be 1..116"),
        (("deck.include", [105]), "deck.include: only court cards"),
        (("deck.checks_by_pile", [0, 0, 0, 1, 1, 1]), "deck.checks_by_pile: must place the 4"),
        (("deck.court_base", 12), None),
        (("deck.court_base", 20), "deck.court_base: 4 players need 144 court cards, 100 left"),
        (("numbers.early_end_lead", 0), "numbers.early_end_lead: must be 1..100"),
        (("setup.players", 6), "setup.players: must be 2..5"),
    ],
)
def test_a_bad_deck_or_number_is_refused_in_one_line(settings, message):
    if message is None:
        rules(settings)
        return
    with pytest.raises(DataError, match=message):
        rules(settings)


def test_the_rule_numbers_change_the_rules():
    """``[numbers]``: e.g. the early-end lead (RB p15) and the starting rupees (RB p4)."""
    r = rules(("numbers.early_end_lead", 7), ("numbers.starting_rupees", 6))
    assert r.data.numbers.early_end_lead == 7 and r.data.numbers.starting_rupees == 6
