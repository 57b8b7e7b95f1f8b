"""Event cards, both sides of the twelve, as the data words them (RB p10 Event Cards, RB p9
Cleanup, RB p3; cards.yaml event_cards)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import actions as A
from simulate.pax_pamir import dominance as D
from simulate.pax_pamir import events as E
from simulate.pax_pamir import lasting, market, military, ruling
from simulate.pax_pamir import play as P
from simulate.pax_pamir.cards import PaxData
from simulate.pax_pamir.setup import new_state
from simulate.pax_pamir.state import ALL, EMPTY, State
from tests.pax_pamir.support import card, in_court, region

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2
CATI, BROOKE, HOPE = 0, 1, 2


@pytest.fixture
def state(data) -> State:
    s = new_state(data, 3, random.Random(4), loyalty=[BRITISH, AFGHAN, RUSSIAN])
    s.favored = data.suits.index("economic")
    return s


def event_of(data: PaxData, key: str) -> tuple[int, bool]:
    """The card and side (purchased?) of the event side keyed ``key``."""
    for e in data.events:
        if e.purchased.key == key:
            return e.id, True
        if e.discarded.key == key:
            return e.id, False
    raise KeyError(key)


def all_cards(data: PaxData, state: State) -> list[int]:
    """Every card of the game: deck, market, hands, courts, prizes, discard, lasting events."""
    out = state.deck + [c for c in state.market if c != EMPTY] + state.discard
    for p in range(state.players):
        out += state.hand[p] + state.court[p] + state.prizes[p]
    return sorted(out + lasting.cards_held(data, state))


def to_market(state: State, ev: int, space: int = 1) -> None:
    """Put event ``ev`` on market ``space``, the card there where the event was."""
    old = state.market[space]
    if old == ev:
        return
    for pile in (state.deck, state.discard):
        if ev in pile:
            pile[pile.index(ev)] = old
            break
    else:
        if ev in state.market:
            state.market[state.market.index(ev)] = old
        else:
            state.discard.append(old)
    state.market[space] = ev


def buy(data: PaxData, state: State, key: str, picks=(), player: int = CATI) -> int:
    ev, purchased = event_of(data, key)
    assert purchased
    to_market(state, ev, 0)
    assert market.buy(data, state, player, 0, 0) == ev
    E.resolve(data, state, player, ev, True, picks)
    return ev


def discard(data: PaxData, state: State, key: str, picks=(), active: int = CATI) -> int:
    ev, purchased = event_of(data, key)
    assert not purchased
    to_market(state, ev, 0)
    assert E.choices(data, state, active, ev, False) is not None
    market.discard_space(state, 0)
    E.resolve(data, state, active, ev, False, picks)
    return ev


def tribe(state: State, player: int, where: int, n: int = 1) -> None:
    state.cylinders[player] -= n
    state.tribes[state.tribe_at(where, player)] += n


def army(state: State, coalition: int, where: int, n: int = 1) -> None:
    state.blocks[coalition] -= n
    state.armies[state.army_at(where, coalition)] += n


# --- RB p10: where the card goes ---------------------------------------------------------


def test_a_lasting_purchase_is_held_until_the_next_check_rb_p10(data, state):
    """RB p10: "Many event cards have a persistent effect that lasts until the next Dominance
    Check is resolved. Players who take these event cards should place them below their
    court": held, counted, then discarded when the check resolves."""
    to_market(state, event_of(data, "new_tactics")[0], 0)
    before = all_cards(data, state)
    ev = buy(data, state, "new_tactics")
    assert ev in lasting.cards_held(data, state) and ev not in state.discard
    assert all_cards(data, state) == before
    D.resolve(data, state)
    assert ev in state.discard and not lasting.cards_held(data, state)
    assert all_cards(data, state) == before
    assert not lasting.active(data, state, "new_tactics")


def test_an_instant_purchase_goes_to_the_discard_pile_rb_p10(data, state):
    """RB p10: events "are resolved the moment they are bought": an effect at once, then the
    discard pile (Backing of Persian Aristocracy)."""
    to_market(state, event_of(data, "backing_of_persian_aristocracy")[0], 0)
    before = all_cards(data, state)
    ev = buy(data, state, "backing_of_persian_aristocracy")
    assert state.discard[-1] == ev and all_cards(data, state) == before


def test_a_dominance_check_is_not_resolved_here_rb_p15(data, state):
    """RB p15: Dominance Checks are resolved by ``dominance.resolve``; no choices here."""
    check = data.dominance_checks[0]
    assert E.choices(data, state, CATI, check, True) == []
    with pytest.raises(ValueError, match="dominance.resolve"):
        E.resolve(data, state, CATI, check, True, ())


def test_wrong_picks_leave_the_state_unchanged_rb_p10(data, state):
    """A resolve whose picks are not the legal ones raises and changes nothing."""
    ev, _ = event_of(data, "rumor")
    to_market(state, ev, 0)
    market.buy(data, state, CATI, 0, 0)
    before = state.copy()
    with pytest.raises(ValueError):
        E.resolve(data, state, CATI, ev, True, (CATI,))
    assert state == before


# --- card 105: New Tactics / Military ----------------------------------------------------


def test_new_tactics_makes_the_buyers_military_cards_favored(data, state):
    """New Tactics: "your military court cards count as favored (bonus actions)"."""
    (guard,) = in_court(data, state, CATI, "Bala Hissar")
    (other,) = in_court(data, state, BROOKE, "Durrani Royal Guard")
    assert not A.is_bonus(data, state, guard)
    buy(data, state, "new_tactics")
    assert A.is_bonus(data, state, guard) and not A.is_bonus(data, state, other)


def test_military_discarded_favors_military(data, state):
    """Military: "favored suit becomes military"."""
    discard(data, state, "military")
    assert state.favored == data.suits.index("military")


# --- card 106: Koh-i-noor Recovered / Embarrassment of Riches ---------------------------


def test_koh_i_noor_recovered_doubles_the_buyers_gifts(data, state):
    """Koh-i-noor Recovered: "each of your gifts is worth 2 influence instead of 1"."""
    state.gifts[CATI] = state.gifts[BROOKE] = 2
    buy(data, state, "koh_i_noor_recovered")
    assert D.influence(data, state, CATI) == 1 + 4
    assert D.influence(data, state, BROOKE) == 1 + 2


def test_embarrassment_of_riches_makes_gifts_worthless(data, state):
    """Embarrassment of Riches: "gifts are worth no influence", until the next check."""
    state.gifts[CATI] = 2
    discard(data, state, "embarrassment_of_riches")
    assert lasting.holder(data, state, "embarrassment_of_riches") == ALL
    assert D.influence(data, state, CATI) == 1
    D.resolve(data, state)
    assert D.influence(data, state, CATI) == 3


# --- card 107: Courtly Manners / Disregard for Customs ----------------------------------


def test_courtly_manners_lets_the_buyer_refuse_bribes(data, state):
    """Courtly Manners: "you may refuse to pay any bribe (to play a card or to use a hostage
    card) and act anyway"."""
    k = region(data, "kabul")
    tribe(state, BROOKE, k, 2)
    (mine,) = in_court(data, state, CATI, "Money Lenders")
    state.spies[state.spy_at(mine, HOPE)] = 1
    kabul_card = card(data, "Bala Hissar")
    assert ruling.bribe(data, state, CATI, kabul_card) == (BROOKE, 2)
    assert A.hostage_bribe(data, state, CATI, mine) == 1
    buy(data, state, "courtly_manners")
    assert ruling.bribe(data, state, CATI, kabul_card) == (BROOKE, 0)
    assert A.hostage_bribe(data, state, CATI, mine) == 0
    assert ruling.bribe(data, state, HOPE, kabul_card) == (BROOKE, 2)


def test_disregard_for_customs_stops_every_bribe(data, state):
    """Disregard for Customs: "no bribes are paid by anyone"."""
    k = region(data, "kabul")
    tribe(state, BROOKE, k, 2)
    discard(data, state, "disregard_for_customs")
    kabul_card = card(data, "Bala Hissar")
    assert ruling.bribe(data, state, CATI, kabul_card) == (BROOKE, 0)
    assert ruling.bribe(data, state, HOPE, kabul_card) == (BROOKE, 0)


# --- card 108: Rumor / Failure to Impress ------------------------------------------------


def test_rumor_takes_the_influence_of_the_chosen_players_patriots(data, state):
    """Rumor: "one other player, chosen by the buyer: that player's patriots give no
    influence"."""
    in_court(data, state, HOPE, "Count Ivan Simonich")  # a Russian patriot
    ev, _ = event_of(data, "rumor")
    assert E.choices(data, state, CATI, ev, True) == [(CATI, "rumor_target", (BROOKE, HOPE))]
    assert D.influence(data, state, HOPE) == 2
    buy(data, state, "rumor", (HOPE,))
    assert D.influence(data, state, HOPE) == 1
    assert lasting.holder(data, state, "rumor") == HOPE


def test_failure_to_impress_discards_every_prize(data, state):
    """Failure to Impress: "every player discards all loyalty prizes"."""
    state.prizes[CATI] = [card(data, "Harry Flashman")]
    state.prizes[HOPE] = [card(data, "Bala Hissar")]
    to_market(state, event_of(data, "failure_to_impress")[0], 0)
    before = all_cards(data, state)
    discard(data, state, "failure_to_impress")
    assert state.prizes == [[], [], []]
    assert card(data, "Harry Flashman") in state.discard
    assert all_cards(data, state) == before


# --- card 109: Conflict Fatigue / Riots in Punjab ----------------------------------------


def test_conflict_fatigue_needs_a_lead_of_two(data, state):
    """Conflict Fatigue: "the next Dominance Check needs a lead of 2 blocks, not 4"."""
    army(state, BRITISH, region(data, "punjab"), 3)
    army(state, AFGHAN, region(data, "kabul"), 1)
    assert D.dominant_coalition(data, state) is None
    buy(data, state, "conflict_fatigue")
    assert D.dominant_coalition(data, state) == BRITISH
    D.resolve(data, state)
    army(state, BRITISH, region(data, "punjab"), 3)
    army(state, AFGHAN, region(data, "kabul"), 1)
    assert D.dominant_coalition(data, state) is None


def test_riots_in_punjab_remove_tribes_and_armies_with_the_overthrow_rule(data, state):
    """Riots in Punjab: "remove all tribes and armies in Punjab (overthrow rule applies)"; RB
    p8: "if you lose your last tribe in a region, you must immediately discard all political
    cards associated with that region from your court"."""
    p = region(data, "punjab")
    tribe(state, BROOKE, p, 2)
    army(state, BRITISH, p, 3)
    (harlan,) = in_court(data, state, BROOKE, "Josiah Harlan")  # Punjab, political
    cylinders, blocks = state.cylinders[BROOKE], state.blocks[BRITISH]
    discard(data, state, "riots_in_punjab")
    assert state.tribes[state.tribe_at(p, BROOKE)] == 0 and state.cylinders[BROOKE] == cylinders + 2
    assert state.armies[state.army_at(p, BRITISH)] == 0 and state.blocks[BRITISH] == blocks + 3
    assert harlan not in state.court[BROOKE] and harlan in state.discard


def test_riots_ask_for_cards_a_leveraged_political_card_cannot_repay(data, state):
    """RB p8: "For each rupee you cannot return, you must discard one card from your hand or
    court": the riot's overthrow discards Maqpon Dynasty (leveraged) from a penniless court."""
    p = region(data, "punjab")
    tribe(state, BROOKE, p)
    (maqpon,) = in_court(data, state, BROOKE, "Maqpon Dynasty")
    state.rupees[BROOKE] = 1
    state.hand[BROOKE] = [card(data, "Harry Flashman")]
    ev, _ = event_of(data, "riots_in_punjab")
    to_market(state, ev, 0)
    market.discard_space(state, 0)
    want = [(BROOKE, "repay", (card(data, "Harry Flashman"),))]
    assert E.choices(data, state, CATI, ev, False) == want
    E.resolve(data, state, CATI, ev, False, (card(data, "Harry Flashman"),))
    assert state.hand[BROOKE] == [] and maqpon in state.discard and state.rupees[BROOKE] == 0


# --- card 110: Nationalism / Riots in Herat ----------------------------------------------


def test_nationalism_moves_tribes_as_armies(data, state):
    """Nationalism: "your tribes may move (by your coalition's roads) ... as if they were your
    armies"."""
    k, p = region(data, "kabul"), region(data, "punjab")
    border = military.border_between(data, k, p)
    state.roads[state.road_at(border, BRITISH)] = 1
    tribe(state, CATI, k)
    (mover,) = in_court(data, state, CATI, "Afghan Handicrafts")  # move
    with pytest.raises(ValueError, match="Nationalism"):
        military.move(data, state, A.new_turn(data), CATI, mover, [(military.TRIBE, k, p)])
    buy(data, state, "nationalism")
    military.move(data, state, A.new_turn(data), CATI, mover, [(military.TRIBE, k, p)])
    assert state.tribes[state.tribe_at(p, CATI)] == 1 and state.tribes[state.tribe_at(k, CATI)] == 0


def test_nationalism_tribes_battle_as_armies(data, state):
    """Nationalism: tribes "battle as if they were your armies": they count in the limit of
    RB p14 "You cannot remove more units than you yourself have armies"."""
    h = region(data, "herat")
    tribe(state, CATI, h)
    army(state, AFGHAN, h)
    (warlord,) = in_court(data, state, CATI, "Nomadic Warlord")  # battle, rank 1
    with pytest.raises(ValueError):
        military.battle_region(data, state, A.new_turn(data), CATI, warlord, h, {AFGHAN: 1})
    buy(data, state, "nationalism")
    military.battle_region(data, state, A.new_turn(data), CATI, warlord, h, {AFGHAN: 1})
    assert state.armies[state.army_at(h, AFGHAN)] == 0


def test_riots_in_herat_remove_tribes_and_armies(data, state):
    """Riots in Herat: "remove all tribes and armies in Herat"."""
    h = region(data, "herat")
    tribe(state, HOPE, h)
    army(state, RUSSIAN, h, 2)
    discard(data, state, "riots_in_herat")
    assert state.tribes[state.tribe_at(h, HOPE)] == 0
    assert state.armies[state.army_at(h, RUSSIAN)] == 0


# --- card 111: Public Withdrawal / No effect ---------------------------------------------


def test_public_withdrawal_cannot_be_purchased(data, state):
    """Public Withdrawal: "cannot be purchased"."""
    ev, _ = event_of(data, "public_withdrawal")
    to_market(state, ev, 0)
    assert not market.can_buy(data, state, CATI, 0, 0)
    with pytest.raises(ValueError, match="cannot be purchased"):
        E.resolve(data, state, CATI, ev, True, ())


def test_public_withdrawal_takes_rupees_out_of_the_game(data, state):
    """Public Withdrawal: "rupees placed on it in the market leave the game"."""
    ev, _ = event_of(data, "public_withdrawal")
    to_market(state, ev, state.space(0, 0))
    total = sum(state.rupees) + sum(state.market_rupees)
    market.buy(data, state, CATI, 0, 1)
    assert state.market_rupees[state.space(0, 0)] == 0
    assert sum(state.rupees) + sum(state.market_rupees) == total - 1


def test_no_effect_changes_nothing(data, state):
    """No effect: "nothing"."""
    ev, _ = event_of(data, "no_effect")
    to_market(state, ev, 0)
    market.discard_space(state, 0)
    before = state.copy()
    assert E.choices(data, state, CATI, ev, False) == []
    E.resolve(data, state, CATI, ev, False, ())
    assert state == before


# --- card 112: Nation Building / Riots in Kabul ------------------------------------------


def test_nation_building_doubles_the_blocks_a_build_places(data, state):
    """Nation Building: "build actions place twice as many blocks for the same cost"."""
    k = region(data, "kabul")
    tribe(state, CATI, k)
    (lenders,) = in_court(data, state, CATI, "Money Lenders")  # build
    buy(data, state, "nation_building")
    state.rupees[CATI] = 6
    A.build(data, state, A.new_turn(data), CATI, lenders, [k], armies=[k] * 6)
    assert state.armies[state.army_at(k, BRITISH)] == 6 and state.rupees[CATI] == 0


def test_riots_in_kabul_remove_tribes_and_armies(data, state):
    """Riots in Kabul: "remove all tribes and armies in Kabul"."""
    k = region(data, "kabul")
    tribe(state, CATI, k, 2)
    army(state, AFGHAN, k, 2)
    discard(data, state, "riots_in_kabul")
    assert state.tribes[state.tribe_at(k, CATI)] == 0
    assert state.armies[state.army_at(k, AFGHAN)] == 0


# --- card 113: Backing of Persian Aristocracy / Riots in Persia --------------------------


def test_backing_of_persian_aristocracy_pays_three(data, state):
    """Backing of Persian Aristocracy: "take 3 rupees from the bank"."""
    rupees = state.rupees[CATI]
    buy(data, state, "backing_of_persian_aristocracy")
    assert state.rupees[CATI] == rupees + 3


def test_riots_in_persia_remove_tribes_and_armies(data, state):
    """Riots in Persia: "remove all tribes and armies in Persia"."""
    ps = region(data, "persia")
    tribe(state, HOPE, ps)
    army(state, BRITISH, ps)
    discard(data, state, "riots_in_persia")
    assert state.tribes[state.tribe_at(ps, HOPE)] == 0
    assert state.armies[state.army_at(ps, BRITISH)] == 0


# --- card 114: Other Persuasive Methods / Confidence Failure -----------------------------


def test_other_persuasive_methods_swaps_hands(data, state):
    """Other Persuasive Methods: "the buyer and one other player swap whole hands (either may
    be empty)"."""
    flashman = card(data, "Harry Flashman")
    state.hand[BROOKE] = [flashman]
    ev, _ = event_of(data, "other_persuasive_methods")
    assert E.choices(data, state, CATI, ev, True) == [(CATI, "swap_with", (BROOKE, HOPE))]
    buy(data, state, "other_persuasive_methods", (BROOKE,))
    assert state.hand[CATI] == [flashman] and state.hand[BROOKE] == []


def test_confidence_failure_each_hand_discards_one_in_turn_order(data, state):
    """Confidence Failure: "every player with cards in hand discards one", clockwise from the
    active player."""
    a, b, c = card(data, "Harry Flashman"), card(data, "Bala Hissar"), card(data, "Bank")
    state.hand[CATI], state.hand[HOPE] = [a], [b, c]
    ev, _ = event_of(data, "confidence_failure")
    assert E.choices(data, state, HOPE, ev, False) == [
        (HOPE, "discard", (b, c)),
        (CATI, "discard", (a,)),
    ]
    discard(data, state, "confidence_failure", (c, a), active=HOPE)
    assert state.hand == [[], [], [b]] and state.discard[-2:] == [c, a]


# --- card 115: Pashtunwali Values / Intelligence -----------------------------------------


def test_pashtunwali_values_fixes_the_favored_suit(data, state):
    """Pashtunwali Values: "buyer picks the favored suit; no card icon or event changes it until
    the next check"."""
    military_suit = data.suits.index("military")
    ev, _ = event_of(data, "pashtunwali_values")
    assert E.choices(data, state, CATI, ev, True) == [(CATI, "favored_suit", (0, 1, 2, 3))]
    buy(data, state, "pashtunwali_values", (military_suit,))
    assert state.favored == military_suit
    (bazaar,) = [card(data, "Kabul Bazaar")]  # icons: road, road, spy, suit_political
    state.hand[CATI].append(bazaar)
    spy = P.spy_options(data, state, region(data, "kabul"))[:1] or [bazaar]
    borders = P.road_options(data, bazaar)[:2]
    P.play(data, state, CATI, bazaar, P.RIGHT, roads=borders, spies=spy)
    assert state.favored == military_suit
    discard(data, state, "intelligence")
    assert state.favored == military_suit
    D.resolve(data, state)
    discard(data, state, "political")
    assert state.favored == data.suits.index("political")


def test_intelligence_discarded_favors_intelligence(data, state):
    """Intelligence: "favored suit becomes intelligence"."""
    discard(data, state, "intelligence")
    assert state.favored == data.suits.index("intelligence")


# --- card 116: Rebuke / Political ----------------------------------------------------------


def test_rebuke_clears_the_region_the_buyer_names(data, state):
    """Rebuke: "remove all tribes and armies in one region of the buyer's choice"; reading (the
    data's open point): any region, even an empty one."""
    t = region(data, "transcaspia")
    tribe(state, HOPE, t)
    army(state, RUSSIAN, t, 2)
    ev, _ = event_of(data, "rebuke")
    regions = tuple(range(len(data.regions)))
    assert E.choices(data, state, CATI, ev, True) == [(CATI, "region", regions)]
    buy(data, state, "rebuke", (t,))
    assert state.tribes[state.tribe_at(t, HOPE)] == 0
    assert state.armies[state.army_at(t, RUSSIAN)] == 0


def test_political_discarded_favors_political(data, state):
    """Political: "favored suit becomes political"."""
    discard(data, state, "political")
    assert state.favored == data.suits.index("political")
