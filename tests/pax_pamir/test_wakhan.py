"""Wakhan, the automated opponent, as the rulebook describes her (RB p16-18)."""

from __future__ import annotations

import random

import pytest

from simulate.pax_pamir import ruling
from simulate.pax_pamir import wakhan as W
from simulate.pax_pamir.cards import PaxData
from simulate.pax_pamir.state import EMPTY, State
from tests.pax_pamir.support import card, in_court, region

AFGHAN, BRITISH, RUSSIAN = 0, 1, 2
WAKHAN, HOPE, CATI = 0, 1, 2  # seats: Wakhan first, then the player who chose loyalty last

# AI cards by index (printed number - 1), wakhan.yaml.
C1, C2, C7, C9 = 0, 1, 6, 8
# Harmless court cards for a known market: roads and armies only, no patriots, no suit icons.
FILLER = (
    "Afghan Handicrafts",
    "Ghilzai Nomads",
    "Khyber Pass",
    "Karakul Sheep",
    "Farah Road",
    "Wheat Fields",
    "Panjdeh Oasis",
    "Bala Hissar",
    "Tajik Warband",
    "Nomadic Warlord",
    "Zorawar Singh Kahluria",
    "Akali Sikhs",
)


@pytest.fixture
def game(data) -> tuple[State, W.WakhanState]:
    """Wakhan against Hope (British) and Cati (Russian); her pragmatic loyalty: Afghan."""
    state, ws = W.new_game(data, 2, random.Random(1), random.Random(2), loyalty=[BRITISH, RUSSIAN])
    state.favored = data.suits.index("political")
    return state, ws


def fill_market(data: PaxData, state: State) -> list[int]:
    """The market holds FILLER, space by space (top row first), no rupees on it."""
    ids = [card(data, n) for n in FILLER]
    state.market[:] = ids
    state.market_rupees[:] = [0] * len(ids)
    return ids


def revealed_as(ws: W.WakhanState, current: int, upcoming: int) -> None:
    """``current`` face up, ``upcoming`` on top of the deck (the back the arrows read)."""
    ws.deck, ws.discard = [upcoming], [current]


def to_draw(ws: W.WakhanState, current: int, upcoming: int) -> None:
    """``take_turn`` will draw ``current`` and read ``upcoming``'s back."""
    ws.deck, ws.discard = [upcoming, current], []


def tribe(state: State, where: int, player: int, n: int = 1) -> None:
    state.tribes[state.tribe_at(where, player)] += n
    state.cylinders[player] -= n


def spy(state: State, player: int, target: int, n: int = 1) -> None:
    state.spies[state.spy_at(target, player)] += n
    state.cylinders[player] -= n


def army(state: State, where: int, coalition: int, n: int = 1) -> None:
    state.armies[state.army_at(where, coalition)] += n
    state.blocks[coalition] -= n


def actions_of(records: list[tuple[str, str]]) -> list[str]:
    return [a for a, _ in records]


# --- RB p16 Setting Up --------------------------------------------------------------------


def test_new_wakhan_shuffles_the_24_ai_cards_with_the_given_stream(data):
    """RB p16: "Shuffle the deck of 24 AI cards": every card once, from the seeded stream."""
    before = random.getstate()
    a, b = W.new_wakhan(data, random.Random(9)), W.new_wakhan(data, random.Random(9))
    assert a == b and sorted(a.deck) == list(range(24)) and a.discard == []
    assert random.getstate() == before


@pytest.mark.parametrize("humans, size", [(1, 52), (2, 58)])
def test_setup_counts_wakhan_for_the_deck_and_she_goes_first(data, humans, size):
    """RB p16: "Include Wakhan as a player when determining the size of the deck" ... "Wakhan
    will take the first turn of the game"; her pieces as any player's (RB p4)."""
    state, ws = W.new_game(
        data, humans, random.Random(3), random.Random(4), order_rng=random.Random(5)
    )
    assert state.players == humans + 1
    assert len(state.deck) + sum(c != EMPTY for c in state.market) == size
    assert state.turn == W.WAKHAN
    assert state.rupees == [4] * (humans + 1)
    assert state.cylinders[W.WAKHAN] == data.numbers.usable_cylinders
    assert state.loyalty[W.WAKHAN] not in state.loyalty[1:]


def test_setup_seats_her_in_the_state_for_the_shared_rules_rb_p16(data, game):
    """RB p16 Playing with Wakhan: ``new_game`` names her seat in ``State.wakhan``, so that
    ``ruling`` and ``dominance`` count her as RB p16 and p18 say for every caller (her copy
    too); ``take_turn`` refuses a seat the state does not name."""
    state, ws = game
    assert state.wakhan == W.WAKHAN and state.copy().wakhan == W.WAKHAN
    kabul = region(data, "kabul")
    tribe(state, kabul, WAKHAN)
    army(state, kabul, RUSSIAN, 2)  # Cati's coalition: two pieces of hers, three of Wakhan's
    assert ruling.ruler(state, kabul) == WAKHAN == W.ruler_with_wakhan(state, kabul, WAKHAN)
    state.wakhan = -1  # the former names still answer for a state that does not seat her
    assert ruling.ruler(state, kabul) == -1
    assert W.ruler_with_wakhan(state, kabul, WAKHAN) == WAKHAN and state.wakhan == -1
    with pytest.raises(ValueError, match="state.wakhan"):
        W.take_turn(data, state, ws, WAKHAN, random.Random(0))


def test_setup_refuses_three_humans(data):
    """RB p16: "Wakhan can be faced by one or two human players"."""
    with pytest.raises(ValueError, match="one or two"):
        W.new_game(data, 3, random.Random(1), random.Random(2), loyalty=[0, 1, 2])


# --- RB p16 Wakhan's Turn: the AI card ------------------------------------------------------


def test_draw_reshuffles_with_the_card_just_drawn_rb_p16(data):
    """RB p16: "If the draw deck is empty, reshuffle the entire discard pile (including the
    card just drawn) to create a new draw deck and draw again"."""
    ws = W.WakhanState(deck=[5], discard=[1, 2])
    W.draw(ws, random.Random(0))
    assert len(ws.discard) == 1 and len(ws.deck) == 2
    assert sorted(ws.deck + ws.discard) == [1, 2, 5]


def test_arrows_read_the_back_of_the_next_card_rb_p17(data, game):
    """RB p17: the red arrow picks "Top" or "Bottom" and the black arrow a column "on the back
    of the top card of the draw deck". Card 1: red arrow 1, black arrow 2; card 9's back:
    rows (top, bottom), columns 0..5."""
    _, ws = game
    revealed_as(ws, C1, C9)
    assert W.red_row(data, ws) == W.BOTTOM and W.black_column(data, ws) == 2


@pytest.mark.parametrize(
    "humans, pragmatic", [((BRITISH, RUSSIAN), AFGHAN), ((BRITISH, AFGHAN), RUSSIAN)]
)
def test_pragmatic_loyalty_is_the_leftmost_not_shared_rb_p16(data, game, humans, pragmatic):
    """RB p16: "the leftmost loyalty on the AI card that is not shared by any other player"
    (card 1: Russian, Afghan, British)."""
    state, ws = game
    state.loyalty[HOPE], state.loyalty[CATI] = humans
    revealed_as(ws, C1, C9)
    assert W.sync_loyalty(data, state, ws, WAKHAN) == pragmatic == state.loyalty[WAKHAN]


def test_choose_suit_is_the_favored_suit_rb_p16(data, game):
    """RB p16: "If Wakhan needs to choose a suit, Wakhan will always select the current
    favored suit"."""
    state, _ = game
    state.favored = data.suits.index("military")
    assert W.choose_suit(state) == state.favored


# --- RB p16 ruling --------------------------------------------------------------------------


def test_ruling_pieces_count_her_tribes_and_one_coalitions_armies_rb_p16(data, game):
    """RB p16: "count her tribes and only the most numerous Armies of a single coalition in
    that region towards the number of her ruling pieces"."""
    state, _ = game
    kabul = region(data, "kabul")
    tribe(state, kabul, WAKHAN)
    army(state, kabul, AFGHAN, 2)
    army(state, kabul, RUSSIAN, 1)
    tribe(state, kabul, HOPE)
    army(state, kabul, BRITISH, 1)
    assert W.wakhan_ruling_pieces(state, kabul, WAKHAN) == 3
    assert W.ruler_with_wakhan(state, kabul, WAKHAN) == WAKHAN


def test_she_needs_a_tribe_to_rule_rb_p7(data, game):
    """RB p7: "you must have at least one tribe and a plurality of ruling pieces"."""
    state, _ = game
    kabul = region(data, "kabul")
    army(state, kabul, AFGHAN, 3)
    assert W.ruler_with_wakhan(state, kabul, WAKHAN) == -1


def test_a_players_armies_count_for_her_too_rb_p16(data, game):
    """RB p16: her ruling pieces count the most numerous armies "of a single coalition", the
    coalition of a player included: a British tribe and army tie her tribe and that army."""
    state, _ = game
    kabul = region(data, "kabul")
    tribe(state, kabul, WAKHAN)
    tribe(state, kabul, HOPE)
    army(state, kabul, BRITISH, 1)
    assert W.ruler_with_wakhan(state, kabul, WAKHAN) == -1


# --- RB p16 Card Priority -------------------------------------------------------------------


def test_betray_priority_example_rb_p16(data, game):
    """RB p16 Example: "Wakhan will first look for cards with her spies on her opponent's
    courts. If there is more than one option, she will prioritize those that match the
    favored suit. If there is still more than one option, she will look for patriots of the
    dominant coalition etc." (betray: cards with a prize, RB p18)."""
    state, _ = game
    (own,) = in_court(data, state, WAKHAN, "Ghilzai Nomads")  # her own, prize
    (other,) = in_court(data, state, HOPE, "Bolan Pass")  # opponent's, economic
    favored, patriot = in_court(data, state, CATI, "Baluchi Chiefs", "Josiah Harlan")
    army(state, region(data, "punjab"), AFGHAN, 4)  # Afghan dominant; Harlan its patriot
    for target in (own, other, favored, patriot):
        spy(state, WAKHAN, target)
    order = []
    for _ in range(4):
        choice = W.betray_choice(data, state, WAKHAN)
        order.append(choice)
        state.spies[state.spy_at(choice, WAKHAN)] = 0
    assert order == [patriot, favored, other, own]


def test_betray_takes_the_prize_and_keeps_her_patriots_rb_p16_p18(data, game):
    """RB p18: "She will always take the loyalty prize"; RB p16: "Wakhan can hold loyalty
    prizes and patriots belonging to different coalitions"."""
    state, _ = game
    turn = W.A.new_turn(data)
    mine, patriot = in_court(data, state, WAKHAN, "Balkh Arsenic Mine", "Lapis Lazuli Mine")
    (target,) = in_court(data, state, HOPE, "Ghilzai Nomads")  # a Russian prize
    spy(state, WAKHAN, target)
    state.gifts[WAKHAN] = 1
    W.wakhan_betray(data, state, turn, WAKHAN, mine, target)
    assert state.prizes[WAKHAN] == [target] and target not in state.discard
    assert patriot in state.court[WAKHAN] and state.gifts[WAKHAN] == 1
    assert state.loyalty[WAKHAN] == AFGHAN


# --- RB p17 Radicalize ----------------------------------------------------------------------


def test_radicalize_takes_the_next_valid_card_to_the_left_rb_p17(data, game):
    """RB p17: "If that card is not a valid choice, pick the next valid card to its left" ...
    "Wakhan cannot purchase a card she has paid a rupee to this turn!"."""
    state, ws = game
    fill_market(data, state)
    revealed_as(ws, C1, C9)  # bottom row, column 2
    state.placed.append(state.market[state.space(1, 2)])
    assert W.radicalize_choice(data, state, ws, WAKHAN, "radicalize") == state.space(1, 1)


def test_radicalize_switches_rows_at_the_original_column_rb_p17(data, game):
    """RB p17: "if Wakhan exhausts that row then switch to the original position in the other
    market row"."""
    state, ws = game
    fill_market(data, state)
    revealed_as(ws, C1, C9)
    for column in range(3):
        state.placed.append(state.market[state.space(1, column)])
    assert W.radicalize_choice(data, state, ws, WAKHAN, "radicalize") == state.space(0, 2)


@pytest.mark.parametrize("upcoming, left", [(C9, False), (C2, True)])
def test_radicalize_plays_to_the_side_the_red_arrow_names_rb_p17(data, game, upcoming, left):
    """RB p17: "play the card to the left side of her court if the red arrow is pointing to
    top or the right side of her court if the red arrow is pointing to bottom" (card 7's red
    arrow 1: card 9's back says bottom, card 2's top)."""
    state, ws = game
    fill_market(data, state)
    (old,) = in_court(data, state, WAKHAN, "Money Lenders")
    to_draw(ws, C7, upcoming)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert "play" in actions_of(records)
    assert (state.court[WAKHAN][-1] == old) is left


def test_radicalize_discards_a_card_she_cannot_bribe_for_rb_p17(data, game):
    """RB p17: "If she cannot pay the bribe, she will discard the card." Card 7 with card 9's
    back: bottom row, column 4 (cost 4, all her rupees); Hope rules Punjab with two tribes."""
    state, ws = game
    fill_market(data, state)
    punjab = region(data, "punjab")
    state.market[state.space(1, 4)] = card(data, "Khyber Pass")
    state.market[state.space(0, 2)] = card(data, "Wheat Fields")
    tribe(state, punjab, HOPE, 2)
    to_draw(ws, C7, C9)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert ("discard", "Khyber Pass: cannot pay a bribe of 2") in records
    assert card(data, "Khyber Pass") in state.discard


def test_dominance_check_in_market_buys_the_cheapest_dominant_patriot_rb_p17(data, game):
    """RB p17: "when a Dominance Check is in the market, Wakhan will choose the cheapest
    Patriot loyal to the dominant coalition"."""
    state, ws = game
    fill_market(data, state)
    revealed_as(ws, C1, C9)
    state.market[state.space(0, 5)] = data.dominance_checks[0]
    state.market[state.space(0, 3)] = card(data, "Eldred Pottinger")  # British patriot
    state.market[state.space(1, 2)] = card(data, "Henry Rawlinson")  # British patriot, cheaper
    army(state, region(data, "punjab"), BRITISH, 4)
    assert W.radicalize_choice(data, state, ws, WAKHAN, "radicalize") == state.space(1, 2)


def test_dominance_check_in_market_without_dominance_most_spies_tribes_rb_p17(data, game):
    """RB p17: "if no coalition is dominant, she will chose the cheapest card with the most spy
    and/or tribe impact icons"."""
    state, ws = game
    fill_market(data, state)
    revealed_as(ws, C1, C9)
    state.market[state.space(0, 5)] = data.dominance_checks[0]
    state.market[state.space(1, 4)] = card(data, "Mohan Lal")  # three spies
    state.market[state.space(0, 1)] = card(data, "Charles Stoddart")  # one spy
    assert W.radicalize_choice(data, state, ws, WAKHAN, "radicalize") == state.space(1, 4)


def test_specific_instructions_tie_on_cost_then_highest_number_rb_p17(data, game):
    """RB p17: "Ties are decided by the cheapest card in the market with the highest card
    number breaking any further ties" (card 2: "highest-ranked political card")."""
    state, ws = game
    fill_market(data, state)
    revealed_as(ws, C2, C9)
    state.market[state.space(0, 3)] = card(data, "Dost Mohammad")  # rank 2, number 7
    state.market[state.space(1, 3)] = card(data, "Ranjit Singh")  # rank 2, number 24
    state.market[state.space(0, 0)] = card(data, "Shah Shujah Durrani")  # rank 1, free
    got = W.radicalize_choice(data, state, ws, WAKHAN, "rad_top_political")
    assert got == state.space(1, 3)


def test_a_condition_not_met_skips_the_action_rb_p18(data, game):
    """RB p18: "If these conditions cannot be met, the action is skipped" (military is not
    favored)."""
    state, ws = game
    fill_market(data, state)
    revealed_as(ws, C1, C9)
    key = "rad_if_military_favored_top_military"
    assert W.radicalize_choice(data, state, ws, WAKHAN, key) is None


# --- RB p17 playing a card ------------------------------------------------------------------


def test_spies_go_where_she_does_not_have_the_most_rb_p17(data, game):
    """RB p17 Wakhan's Spies: "Place spies on the highest priority cards associated with the
    played card's region where Wakhan does not have the most spies"."""
    state, _ = game
    (bazaar,) = in_court(data, state, HOPE, "Kabul Bazaar")  # rank 2
    (lal,) = in_court(data, state, CATI, "Mohan Lal")  # rank 3: higher priority
    stoddart = card(data, "Charles Stoddart")  # one spy icon, Kabul
    assert W.spy_choices(data, state, WAKHAN, stoddart) == [lal]
    spy(state, WAKHAN, lal)
    assert W.spy_choices(data, state, WAKHAN, stoddart) == [bazaar]


def test_roads_follow_the_region_priority_rb_p17(data, game):
    """RB p17 Wakhan's Roads: "Place roads on consecutive borders following the region
    priority on the AI card (leftmost first)" (card 1: Transcaspia, Kabul, Kandahar, ...)."""
    _, ws = game
    revealed_as(ws, C1, C9)
    herat = region(data, "herat")
    expected = [
        W.X.border_between(data, herat, region(data, r))
        for r in ("transcaspia", "kabul", "kandahar")
    ]
    assert W.road_choices(data, ws, card(data, "Farah Road")) == expected


def test_a_foreign_patriot_places_her_pragmatic_blocks_rb_p17(data, game):
    """RB p17 Wakhan's Patriots: "Wakhan always places blocks based on pragmatic loyalty.
    Ignore the colour of the Patriot Impact Icons"; RB p16: she keeps her other patriots,
    prizes and gifts."""
    state, ws = game
    revealed_as(ws, C1, C9)
    indus = card(data, "Army of the Indus")  # British patriot, three armies in Punjab
    (lapis,) = in_court(data, state, WAKHAN, "Lapis Lazuli Mine")  # an Afghan patriot
    state.prizes[WAKHAN] = [card(data, "Ghilzai Nomads")]
    state.gifts[WAKHAN] = 1
    state.hand[WAKHAN].append(indus)
    W.wakhan_play(data, state, ws, WAKHAN, indus, W.P.RIGHT)
    punjab = region(data, "punjab")
    assert state.armies[state.army_at(punjab, AFGHAN)] == 3
    assert state.armies[state.army_at(punjab, BRITISH)] == 0
    assert state.court[WAKHAN] == [lapis, indus] and state.gifts[WAKHAN] == 1
    assert state.prizes[WAKHAN] and state.loyalty[WAKHAN] == AFGHAN


# --- RB p17 the two actions -----------------------------------------------------------------


def test_two_actions_starting_again_at_the_top_rb_p17(data, game):
    """RB p17: "If Wakhan still has an action left after performing the bottom action, start
    again at the top" (card 7: build and move are not valid, radicalize twice)."""
    state, ws = game
    fill_market(data, state)
    to_draw(ws, C7, C9)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert actions_of(records).count("radicalize") == 2


def test_a_favored_card_action_is_a_bonus_rb_p17(data, game):
    """RB p17: "actions taken with cards in the favored suit are bonus actions and do not count
    against her two-action limit" (card 1: tax with a favored economic card, then two
    radicalizes)."""
    state, ws = game
    fill_market(data, state)
    state.favored = data.suits.index("economic")
    in_court(data, state, WAKHAN, "Afghan Handicrafts")
    state.market_rupees[state.space(0, 3)] = 1
    to_draw(ws, C1, C9)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert records[1][0] == "tax" and records[1][1].endswith("(bonus)")
    assert actions_of(records).count("radicalize") == 2


def test_ambition_buys_the_dominance_check_she_wins_rb_p17(data, game):
    """RB p17 Wakhan's Ambition: "If Wakhan is able to purchase the Dominance Check and score
    the most victory points and/or win the game, she will use her action to do that" (no
    dominance: the most cylinders in play score three)."""
    state, ws = game
    fill_market(data, state)
    state.market[state.space(0, 1)] = data.dominance_checks[0]
    tribe(state, region(data, "kabul"), WAKHAN, 2)
    to_draw(ws, C7, C9)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert actions_of(records)[1] == "ambition"
    assert state.checks_done == 1 and state.points == [3, 0, 0]


def test_no_ambition_for_a_check_others_win_rb_p17(data, game):
    """RB p17: "Wakhan only purchases a Dominance Check event card if she will score the most
    points from the check (and/or wins)"."""
    state, _ = game
    fill_market(data, state)
    state.market[state.space(0, 1)] = data.dominance_checks[0]
    tribe(state, region(data, "kabul"), HOPE, 2)
    assert W.ambition(data, state, WAKHAN) is None


# --- RB p18 card-based actions --------------------------------------------------------------


def test_build_in_the_leftmost_ruled_region_spending_most_rb_p18(data, game):
    """RB p18 Build: "Wakhan will build armies in the leftmost region as listed on the AI card
    that she rules. She will spend as much of her money as possible" (card 7: Punjab,
    Transcaspia, Kabul, ...; five rupees buy two armies)."""
    state, ws = game
    fill_market(data, state)
    in_court(data, state, WAKHAN, "Shah Shujah Durrani")  # build
    tribe(state, region(data, "kabul"), WAKHAN)
    tribe(state, region(data, "herat"), WAKHAN)
    state.rupees[WAKHAN] = 5
    to_draw(ws, C7, C9)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert records[1] == ("build", "Shah Shujah Durrani: 2 armies in kabul (bonus)")


def test_tax_takes_from_the_richest_player_first_rb_p18(data, game):
    """RB p18 Tax: "Wakhan will always tax players instead of market cards if able. She will
    always tax from players with the most rupees first"."""
    state, ws = game
    fill_market(data, state)
    kabul = region(data, "kabul")
    in_court(data, state, WAKHAN, "Kabul Bazaar")  # tax, rank 2
    in_court(data, state, HOPE, "Charles Stoddart")
    in_court(data, state, CATI, "Jan-Fishan Khan")
    tribe(state, kabul, WAKHAN)
    state.rupees[HOPE], state.rupees[CATI] = 3, 5
    state.market_rupees[state.space(0, 0)] = 2
    to_draw(ws, C1, C9)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert records[1][0] == "tax"
    assert (state.rupees[HOPE], state.rupees[CATI]) == (3, 3)


def test_tax_from_the_leftmost_market_cards_when_no_player_can_be_taxed_rb_p18(data, game):
    """RB p18 Tax: "If no players can be taxed, she will tax from the market, taking rupees
    from the leftmost market cards"."""
    state, ws = game
    fill_market(data, state)
    in_court(data, state, WAKHAN, "Kabul Bazaar")
    state.market_rupees[state.space(0, 4)] = 2
    state.market_rupees[state.space(1, 1)] = 1
    to_draw(ws, C1, C9)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert records[1] == (
        "tax",
        "Kabul Bazaar: 2 rupees, players {}, market {7: 1, 4: 1}",
    )


def test_move_takes_armies_without_roads_to_other_tribes_rb_p18(data, game):
    """RB p18 Move: "Wakhan only moves armies and does not require any roads ... only move her
    armies to adjacent regions where other players have tribes ... only as many armies as
    there are tribes in that region"."""
    state, ws = game
    revealed_as(ws, C1, C9)
    kabul, punjab = region(data, "kabul"), region(data, "punjab")
    army(state, kabul, AFGHAN, 2)
    tribe(state, punjab, HOPE)
    assert W.move_steps(data, state, ws, WAKHAN, 2) == [(kabul, punjab)]


def test_move_keeps_her_ruler_token_rb_p18(data, game):
    """RB p18 Move: "Wakhan will not move Armies if doing so would cause her to lose a ruler
    token"."""
    state, ws = game
    revealed_as(ws, C1, C9)
    kabul, punjab = region(data, "kabul"), region(data, "punjab")
    tribe(state, kabul, WAKHAN)
    army(state, kabul, AFGHAN, 2)
    tribe(state, kabul, HOPE)
    army(state, kabul, BRITISH)  # Hope 2 pieces, Wakhan 3: one army fewer is a tie
    tribe(state, punjab, HOPE)
    assert W.ruler_with_wakhan(state, kabul, WAKHAN) == WAKHAN
    assert W.move_steps(data, state, ws, WAKHAN, 1) == []


def test_battle_removes_tribes_then_armies_rb_p18(data, game):
    """RB p18 Battle: "battle in the region where another player has pieces ... and she has at
    least one army ... she will try to destroy tribes, armies, and roads in that order"."""
    state, ws = game
    revealed_as(ws, C1, C9)
    kabul = region(data, "kabul")
    army(state, kabul, AFGHAN, 2)
    tribe(state, kabul, HOPE)
    army(state, kabul, BRITISH, 2)
    plan = W.battle_plan(data, state, ws, WAKHAN, 2)
    assert plan == (kabul, {BRITISH: 1}, {}, {HOPE: 1})


def test_battle_falls_back_to_a_court_card_rb_p18(data, game):
    """RB p18 Battle: "If no region is chosen, she will battle on the highest priority court
    card where she and another player have spies"."""
    state, ws = game
    revealed_as(ws, C1, C9)
    (target,) = in_court(data, state, HOPE, "Mohan Lal")
    spy(state, WAKHAN, target)
    spy(state, CATI, target)
    assert W.battle_plan(data, state, ws, WAKHAN, 2) is None
    assert W.card_battle_targets(data, state, WAKHAN) == [target]


# --- RB p18 Cleanup, RB p16 leverage ----------------------------------------------------------


def test_cleanup_discards_in_her_order_rb_p18(data, game):
    """RB p18 Cleanup: "discard non-political cards first, then non-patriots, then
    non-leveraged cards, then ... lowest rank": the rank-one military card goes."""
    state, _ = game
    names = (
        "Shah Shujah Durrani",  # political: court limit 4
        "Karakul Sheep",  # economic, rank 2
        "Bala Hissar",  # military, rank 1
        "Money Lenders",  # leveraged
        "Lapis Lazuli Mine",  # patriot
    )
    in_court(data, state, WAKHAN, *names)
    assert W.cleanup_discards(data, state, WAKHAN) == ([card(data, "Bala Hissar")], [])
    W.wakhan_cleanup(data, state, WAKHAN)
    assert card(data, "Bala Hissar") not in state.court[WAKHAN]


def test_a_leveraged_discard_without_coins_costs_no_cards_rb_p16(data, game):
    """RB p16: "If Wakhan must discard a Leveraged card and has no coins, Wakhan does not need
    to discard cards"."""
    state, _ = game
    lenders, other = in_court(data, state, WAKHAN, "Money Lenders", "Karakul Sheep")
    state.rupees[WAKHAN] = 0
    W.discard_wakhan_card(data, state, WAKHAN, lenders)
    assert state.court[WAKHAN] == [other] and state.rupees[WAKHAN] == 0


# --- RB p18 Dominance Checks and Victory ------------------------------------------------------


def test_she_scores_in_whichever_coalition_dominates_rb_p18(data, game):
    """RB p18: "Wakhan is loyal to all coalitions so she will be in the running no matter which
    coalition is dominant"; her gift counts "in all three coalitions" (RB p18 Gift), her
    prizes in their own."""
    state, _ = game
    army(state, region(data, "punjab"), BRITISH, 4)
    state.gifts[WAKHAN] = 1
    state.cylinders[WAKHAN] -= 1
    state.prizes[WAKHAN] = [card(data, "Josiah Harlan"), card(data, "Ghilzai Nomads")]
    assert W.wakhan_influence(data, state, WAKHAN, BRITISH) == 3
    result = W.dominance_check(data, state, WAKHAN)
    assert result.dominant == BRITISH and result.awarded == (5, 3, 0)


def test_she_asks_the_full_bribe_rb_p16(data):
    """RB p16: "Wakhan must pay all costs, including bribes, just like a regular player"; the
    reading: she waives nothing either."""
    assert W.wakhan_demand(3) == 3


def test_a_turn_with_nothing_to_do_passes_rb_p17(data, game):
    """RB p17: "if there are no valid choices available": an empty market, no card in court."""
    state, ws = game
    state.market[:] = [EMPTY] * len(state.market)
    to_draw(ws, C7, C9)
    records = W.take_turn(data, state, ws, WAKHAN, random.Random(0))
    assert records[-1] == ("pass", "no valid action")


def test_wakhan_in_a_larger_game_takes_her_cards_leftmost_loyalty_when_all_are_held(data):
    """RB p16 pragmatic loyalty, "not shared by any other player"; with three others holding
    the three coalitions (a variant), the reading takes the card's leftmost loyalty."""
    import random as _random

    from simulate.pax_pamir import wakhan
    from simulate.pax_pamir.setup import new_state

    state = new_state(data, 4, _random.Random(1), loyalty=[0, 0, 1, 2])
    ws = wakhan.new_wakhan(data, _random.Random(2))
    wakhan.draw(ws, _random.Random(3))
    card = wakhan.revealed(data, ws)
    assert wakhan.pragmatic_loyalty(data, state, ws, 0) == card.loyalty[0]
