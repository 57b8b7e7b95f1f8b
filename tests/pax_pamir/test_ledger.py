"""The rupee ledger (``ledger.py``): every rupee a player gains or pays recorded by source as
the rules move it (RB p8, p10-p14, p16), so that the rupees held are always the starting
rupees plus what was gained less what was paid, and the game's ``rupees`` table says so."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import actions as A
from simulate.pax_pamir import invariants
from simulate.pax_pamir import ledger as L
from simulate.pax_pamir import market as M
from simulate.pax_pamir import play as P
from simulate.pax_pamir import ruling as R
from simulate.pax_pamir import wakhan as W
from simulate.pax_pamir.game import GAME, RUPEE_COLUMNS, TABLES, outcome, run
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import State
from strategies.registry import make
from tests.pax_pamir.support import card, in_court, region

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2
CATI, BROOKE, HOPE = 0, 1, 2
TOP = 0


@pytest.fixture
def state(data) -> State:
    return new_state(data, 3, random.Random(4), loyalty=[BRITISH, AFGHAN, RUSSIAN])


def flows(state: State, player: int) -> dict[str, tuple[int, int]]:
    """``player``'s non-zero sources: name -> (gained, paid)."""
    return {
        s: (L.gained(state, player, k), L.paid(state, player, k))
        for k, s in enumerate(L.SOURCES)
        if L.gained(state, player, k) or L.paid(state, player, k)
    }


def test_a_new_game_has_an_empty_ledger(data, state):
    """RB p4 Take Player Pieces: each player starts with four rupees, none moved yet."""
    assert len(state.flow) == state.players * len(L.SOURCES) * 2
    assert not any(state.flow)
    assert state.rupees == [data.numbers.starting_rupees] * 3


def test_a_tax_records_what_the_taxer_takes_and_the_taxed_loses_rb_p13(data, state):
    """RB p13 TAX EXAMPLE: Cati takes one rupee from Brooke and one from the market."""
    (bazaar,) = in_court(data, state, CATI, "Kabul Bazaar")
    in_court(data, state, BROOKE, "Money Lenders")
    space = state.space(0, 3)
    state.market_rupees[space] = 1
    kabul = [region(data, "kabul")]
    turn = A.new_turn(data)
    A.tax(data, state, turn, CATI, bazaar, kabul, from_market={space: 1}, from_players={BROOKE: 1})
    assert flows(state, CATI) == {"tax": (2, 0)}
    assert flows(state, BROOKE) == {"tax": (0, 1)}


def test_a_bribe_to_play_records_paid_and_received_rb_p11(data, state):
    """RB p11: "you must pay a bribe of rupees to them"; two of an asked two."""
    R.pay_bribe(state, CATI, HOPE, 2, 2)
    assert flows(state, CATI) == {"bribe": (0, 2)}
    assert flows(state, HOPE) == {"bribe": (2, 0)}


def test_a_hostage_bribe_records_paid_and_received_rb_p12(data, state):
    """RB p12 HOSTAGE ACTION EXAMPLE: Hope pays Cati, who holds two spies, a bribe of two."""
    (mine,) = in_court(data, state, HOPE, "Lapis Lazuli Mine")
    state.spies[state.spy_at(mine, CATI)] = 2
    state.spies[state.spy_at(mine, HOPE)] = 1
    A.tax(data, state, A.new_turn(data), HOPE, mine, [])
    assert flows(state, HOPE) == {"bribe": (0, 2)}
    assert flows(state, CATI) == {"bribe": (2, 0)}


def test_a_purchase_records_the_rupees_paid_onto_the_cards_to_the_left_rb_p10(data, state):
    """RB p10: "placing one rupee on each card in the same row to the left of the card"."""
    M.buy(data, state, CATI, TOP, 3)
    assert flows(state, CATI) == {"purchase": (0, 3)}


def test_the_rupees_on_the_card_bought_are_recorded_taken_from_the_market_rb_p10(data, state):
    """RB p10: "If you purchase a card that has rupees on it, you receive them"."""
    state.market_rupees[state.space(TOP, 0)] = 3
    M.buy(data, state, HOPE, TOP, 0)
    assert flows(state, HOPE) == {"market": (3, 0)}


def test_leverage_records_two_taken_on_play_and_two_returned_on_discard_rb_p8(data, state):
    """RB p11: "Take two rupees from the bank"; RB p8: "you must return two rupees"."""
    maqpon = card(data, "Maqpon Dynasty")  # Punjab, [tribe, leverage]
    state.hand[CATI].append(maqpon)
    P.play(data, state, CATI, maqpon, P.RIGHT)
    assert flows(state, CATI) == {"leverage": (2, 0)}
    P.discard_from_court(data, state, CATI, maqpon, [])
    assert flows(state, CATI) == {"leverage": (2, 2)}


def test_unpaid_leverage_records_only_the_rupees_returned_rb_p8(data, state):
    """RB p8: "For each rupee you cannot return, you must discard one card": one rupee paid,
    one card discarded for the other."""
    barakzai = card(data, "Barakzai Sadars")  # leveraged
    spare = card(data, "Bala Hissar")
    state.court[CATI].append(barakzai)
    state.hand[CATI].append(spare)
    state.rupees[CATI] = 1
    P.discard_from_court(data, state, CATI, barakzai, [spare])
    assert flows(state, CATI) == {"leverage": (0, 1)}


def test_a_gift_records_its_cost_as_gift_rb_p13(data, state):
    """RB p13 Gift: "The cost of this action is equal to the marked price of the gift"."""
    (mine,) = in_court(data, state, CATI, "Lapis Lazuli Mine")  # tax and gift
    A.gift(data, state, A.new_turn(data), CATI, mine)
    assert flows(state, CATI) == {"gift": (0, 2)}


def test_wakhans_leverage_grace_is_not_recorded_as_paid_rb_p16(data):
    """RB p16: "If Wakhan must discard a Leveraged card and has no coins, Wakhan does not need
    to discard cards": with one rupee she returns that one, and the ledger says one."""
    state, _ = W.new_game(data, 2, random.Random(1), random.Random(2), loyalty=[BRITISH, RUSSIAN])
    (lenders,) = in_court(data, state, 0, "Money Lenders")  # leveraged
    state.rupees[0] = 1
    W.discard_wakhan_card(data, state, 0, lenders)
    assert state.rupees[0] == 0
    assert flows(state, 0) == {"leverage": (0, 1)}


def test_the_ledger_is_copied_and_is_no_part_of_the_position(data, state):
    """A copy keeps its own ledger; the digest and equality are the position's (the board and
    the rupees held), not the history of how the rupees moved."""
    twin = state.copy()
    L.record(twin, CATI, L.TAX, gained=1)
    assert not any(state.flow) and L.gained(twin, CATI, L.TAX) == 1
    assert twin == state and twin.digest() == state.digest()


@pytest.mark.parametrize(
    ("variant", "spec"),
    [("players-2", "random"), (None, "heuristic"), ("players-5", "random"),
     ("wakhan-2", "heuristic"), ("wakhan-3", "random")],
)  # fmt: skip
def test_every_rupee_held_is_the_start_plus_gained_less_paid_after_every_action(variant, spec):
    """RB p4: four rupees each at the start; after every action of a few whole games each
    player's rupees are that plus the ledger's gained less its paid (``invariants.check``)."""
    rules = GAME.compile(GAME.load_variant(variant))
    for seed in range(3):
        ctx = run(seed, [make(spec, "pax-pamir") for _ in rules.seats], rules,
                  on_action=invariants.check)  # fmt: skip
        start = rules.data.numbers.starting_rupees
        assert [start + L.net(ctx.state, p) for p in range(rules.players)] == ctx.state.rupees


def test_a_missed_rupee_breaks_the_invariant(data):
    """A rupee that moves with no source recorded is caught (RB p4 + the ledger)."""
    rules = GAME.compile(GAME.base_variant())
    ctx = run(0, [make("random", "pax-pamir") for _ in rules.seats], rules)
    ctx.state.rupees[0] += 1
    with pytest.raises(AssertionError, match="gained"):
        invariants.check(ctx)


def test_the_rupees_table_has_each_seat_and_source_of_the_game_s_ledger():
    """The game's ``rupees`` table: one row per seat and source, in seat then source order,
    adding up to each seat's rupees at the end."""
    assert TABLES["rupees"] == RUPEE_COLUMNS
    assert [c.name for c in RUPEE_COLUMNS] == ["seat", "source", "gained", "paid"]
    assert GAME.table_keys["rupees"] == ("seat", "source")
    rules = GAME.compile(GAME.load_variant("wakhan-3"))
    ctx = run(4, [make("heuristic", "pax-pamir") for _ in rules.seats], rules)
    rows = outcome(4, ctx).tables["rupees"]
    assert [(r[0], r[1]) for r in rows] == [(s, x) for s in rules.seats for x in L.SOURCES]
    for p, seat in enumerate(rules.seats):
        mine = [r for r in rows if r[0] == seat]
        held = rules.data.numbers.starting_rupees + sum(r[2] - r[3] for r in mine)
        assert held == ctx.state.rupees[p]
