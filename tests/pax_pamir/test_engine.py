"""The game loop (RB p4 Setup, p9 Sequence of Play, Cleanup, Game End): seats, turns of up
to two actions, bonus actions, bribes settled or declined, what a seat sees, whole games."""

from __future__ import annotations

import random

import pytest

from simulate.overrides import with_settings
from simulate.pax_pamir import actions as A
from simulate.pax_pamir import engine as E
from simulate.pax_pamir import options as O
from simulate.pax_pamir.game import GAME, run
from simulate.pax_pamir.invariants import check
from simulate.pax_pamir.market import is_dominance_check
from simulate.pax_pamir.setup import new_state
from strategies.policies.random import RandomStrategy
from tests.pax_pamir.support import card, in_court


def rules_for(players: int) -> E.Rules:
    return GAME.compile(with_settings(GAME.base_variant(), [("setup.players", players)]))


class Recorder(RandomStrategy):
    """Random play that keeps every (observation, decision) it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[E.Observation, E.Decision]] = []

    def choose(self, observation, decision):
        self.asked.append((observation, decision))
        return super().choose(observation, decision)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_by_the_rules_and_keep_every_invariant(players):
    """RB p9 Game End: a game ends early on a four-point lead or after the final check; every
    card, block and cylinder accounted for after every action (``invariants.check``)."""
    rules = rules_for(players)
    for seed in range(6):
        ctx = run(seed, [RandomStrategy() for _ in range(players)], rules, on_action=check)
        assert ctx.over and ctx.ending in ("early", "final")
        assert 1 <= len(ctx.checks) <= 4


def test_seats_are_named_in_turn_order_and_p1_plays_first():
    """Issue 66: seats P1..Pn in turn order; RB p4: the last to choose loyalty starts."""
    rules = rules_for(3)
    assert rules.seats == ("P1", "P2", "P3")
    agents = [Recorder() for _ in range(3)]
    ctx = run(1, agents, rules, trace=True)
    loyalty = [a[1] for a in ctx.log if a[2] == "loyalty"]
    assert loyalty == ["P2", "P3", "P1"]  # "Starting with a random player ... clockwise"
    first_action = next(a for a in ctx.log if a[2] == "action")
    assert first_action[1] == "P1"


def test_the_same_seed_plays_the_same_game():
    """DESIGN: Randomness: the deck and each seat's stream come from the game's seed."""
    rules = rules_for(4)
    a = run(7, [RandomStrategy() for _ in range(4)], rules)
    b = run(7, [RandomStrategy() for _ in range(4)], rules)
    assert a.state.digest() == b.state.digest() and a.turns == b.turns


def test_a_seat_never_sees_another_hand_or_the_deck():
    """Issue 66, hidden information: the board, market, courts, rupees and hand sizes, never
    another player's hand cards or the deck's order."""
    rules = rules_for(3)
    agents = [Recorder() for _ in range(3)]
    run(3, agents, rules)
    seen = 0
    for player, agent in enumerate(agents):
        for obs, _ in agent.asked[:40]:
            st = obs.state
            assert all(c == E.HIDDEN for c in st.deck)
            for p in range(3):
                if p == player:
                    assert E.HIDDEN not in st.hand[p]
                else:
                    assert set(st.hand[p]) <= {E.HIDDEN}
            seen += 1
    assert seen > 0


def test_a_determinisation_keeps_what_the_seat_sees(data):
    """Search bots deal the unseen cards again: own hand, courts, market and hand sizes kept;
    Dominance Checks "never enter a player's hand" (RB p10)."""
    state = new_state(data, 4, random.Random(2), loyalty=[0, 1, 2, 0])
    for p in range(4):
        state.hand[p] = [state.deck.pop() for _ in range(2)]
        state.hand[p] = [c for c in state.hand[p] if not is_dominance_check(data, c)]
    rules = rules_for(4)
    obs = E.Observation(rules, 0, state)
    other = obs.determinise(random.Random(5))
    assert other.hand[0] == state.hand[0] and other.market == state.market
    assert [len(h) for h in other.hand] == [len(h) for h in state.hand]
    unseen = sorted([*state.deck, *(c for h in state.hand[1:] for c in h)])
    assert sorted([*other.deck, *(c for h in other.hand[1:] for c in h)]) == unseen
    assert not any(is_dominance_check(data, c) for h in other.hand for c in h)


def test_with_no_action_left_only_bonus_actions_and_pass_are_offered(data):
    """RB p9: "up to two actions"; RB p12 Bonus Actions: favored-suit cards "do not count
    against your turn's two-action limit"."""
    state = new_state(data, 3, random.Random(4), loyalty=[1, 0, 2])
    political = card(data, "Kabul Bazaar")  # economic: not favored (political is, RB p4)
    state.court[0] = [political]
    state.market_rupees[0] = 2
    turn = A.new_turn(data)
    assert O.encode(O.FIRST_ACTION, political) in O.main_options(data, state, turn, 0)
    turn.actions_left = 0
    assert O.main_options(data, state, turn, 0) == [O.PASS]
    state.favored = data.court[political].suit
    assert O.main_options(data, state, turn, 0) == [O.PASS, O.encode(O.FIRST_ACTION, political)]


class Refuser(RandomStrategy):
    """Asks for every bribe and never pays one; otherwise tries to play its hand."""

    def choose(self, observation, decision):
        if decision.kind.endswith("_ask"):
            return max(decision.options)
        if decision.kind.endswith("_pay"):
            return 0
        return super().choose(observation, decision)


def test_an_unpaid_bribe_plays_as_if_the_action_had_never_been_taken(data):
    """RB p11 Play: "If the bribe is not paid (or waived), play continues as if the action had
    never been taken": the card stays in hand, no action is spent, and it is not offered again
    this turn (the reading of docs/pax-pamir-readings.md)."""
    rules = rules_for(2)
    state = new_state(data, 2, random.Random(1), loyalty=[0, 1])
    kandahar = card(data, "Giljee Nobles")
    state.tribes[state.tribe_at(data.court[kandahar].region, 1)] = 2
    state.court[1] = [card(data, "Baluchi Chiefs")]  # Kandahar, political: P2 rules it
    state.hand[0] = [kandahar]
    ctx = E.Context(rules, state, [Refuser(), Refuser()])
    ctx.turn = A.new_turn(data)
    option = O.encode(O.PLAY, kandahar)
    assert E.do(ctx, 0, option) is False
    assert state.hand[0] == [kandahar] and ctx.turn.actions_left == 2
    assert option not in O.main_options(data, state, ctx.turn, 0, {option})


def test_a_purchased_dominance_check_is_resolved_at_once(data):
    """RB p10: "Event cards (including Dominance Checks) ... are resolved the moment they are
    bought from the market"."""
    rules = rules_for(3)
    state = new_state(data, 3, random.Random(3), loyalty=[0, 1, 2])
    check_card = data.dominance_checks[0]
    state.market[0] = check_card
    ctx = E.Context(rules, state, [RandomStrategy() for _ in range(3)])
    ctx.turn = A.new_turn(data)
    E.do(ctx, 0, O.encode(O.BUY, 0))
    assert state.checks_done == 1 and ctx.checks == ["none"]
    assert check_card in state.discard


def test_the_heuristic_plays_whole_games_at_every_player_count():
    """Issue 66: one parametrised heuristic bot for every seat."""
    from strategies.pax_pamir.heuristic import Heuristic

    for players in (2, 3, 4, 5):
        rules = rules_for(players)
        ctx = run(players, [Heuristic() for _ in range(players)], rules, on_action=check)
        assert ctx.over


def test_wakhan_takes_the_first_turn_and_the_player_after_her_chooses_last():
    """RB p16: "Place Wakhan's pieces to the right of the player who chooses their loyalty
    last. Wakhan will take the first turn"; she "does not take a loyalty dial"."""
    rules = GAME.compile(GAME.load_variant("wakhan-3"))
    assert rules.wakhan == 0
    agents = [RandomStrategy() for _ in range(3)]
    ctx = run(5, agents, rules, trace=True)
    loyalty = [a[1] for a in ctx.log if a[2] == "loyalty"]
    assert loyalty == ["P3", "P2"]
    assert ctx.log[len(loyalty)][1] == "P1" and ctx.log[len(loyalty)][2].startswith("wakhan")
    assert ctx.over


def test_a_seat_given_the_wakhan_strategy_plays_by_her_rules():
    """Issue 66: Wakhan named like a strategy (``--strategy P1=wakhan``)."""
    from strategies.registry import make

    rules = rules_for(2)
    agents = [make("wakhan", "pax-pamir"), RandomStrategy()]
    ctx = run(2, agents, rules, trace=True, on_action=check)
    assert ctx.wakhan == 0 and ctx.over
    assert any(kind.startswith("wakhan") for _, seat, kind, _ in ctx.log if seat == "P1")
    assert not any(kind == "action" for _, seat, kind, _ in ctx.log if seat == "P1")


def test_the_wakhan_seat_must_be_a_seat_of_the_game():
    """``setup.wakhan`` names one of the variant's seats (a one-line error otherwise)."""
    from simulate.errors import DataError

    variant = with_settings(GAME.base_variant(), [("setup.players", 2), ("setup.wakhan", "P3")])
    with pytest.raises(DataError, match="setup.wakhan: must be one of P1, P2"):
        GAME.compile(variant)


def test_a_trace_says_each_pick_in_words():
    """``vsim replay --trace``: card and region names, not option codes."""
    from simulate.pax_pamir.cards import load

    rules = rules_for(3)
    ctx = run(4, [RandomStrategy() for _ in range(3)], rules, trace=True)
    names = {c.name for c in load().court}
    buys = [said for _, _, kind, said in ctx.log if kind == "action" and said.startswith("buy ")]
    assert buys and all(said.split(" (")[0][4:] in names or "/" in said or "Dominance" in said
                        for said in buys)  # fmt: skip
    untraced = run(4, [RandomStrategy() for _ in range(3)], rules)
    assert untraced.state.digest() == ctx.state.digest()  # a trace changes no play


class Builder(RandomStrategy):
    """Always a block more when asked where to build; random otherwise."""

    def choose(self, observation, decision):
        if decision.kind == "build":
            return decision.options[0]
        return super().choose(observation, decision)


def test_a_build_asks_for_no_more_blocks_than_the_coalition_can_place(data):
    """RB p8 Component Limits: a unit comes from the supply or "from anywhere in play,
    excluding any pieces placed this turn"; with two British blocks left to place, a build
    of up to three (RB p13) stops at two rather than asking for a third it cannot place."""
    rules = rules_for(2)
    state = new_state(data, 2, random.Random(5), loyalty=[1, 0])  # P1 British
    (lenders,) = in_court(data, state, 0, "Money Lenders")  # Kabul, build
    kabul = data.court[lenders].region
    state.tribes[state.tribe_at(kabul, 0)] = 1  # P1 rules Kabul (RB p8)
    state.rupees[0] = 20
    state.blocks[1] = 2  # the other ten already placed this turn
    ctx = E.Context(rules, state, [Builder(), Builder()])
    ctx.turn = A.new_turn(data)
    assert E.do(ctx, 0, O.encode(O.FIRST_ACTION + data.actions.index("build"), lenders))
    assert state.blocks[1] == 0 and state.armies[state.army_at(kabul, 1)] == 2
