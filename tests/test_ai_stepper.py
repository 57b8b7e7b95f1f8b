"""A game driven step by step from outside (simulate/ai/stepper.py) and its chance (issue 44)."""

from __future__ import annotations

import pytest

pytest.importorskip("greenlet")

from simulate.vijayanagara.ai.chance import card_outcomes, stacks, with_drawn  # noqa: E402
from simulate.vijayanagara.ai.stepper import CARD, DECIDE, DIE, Stepper  # noqa: E402
from simulate.vijayanagara.game import play_game  # noqa: E402
from simulate.vijayanagara.rules.dice import BattleDice  # noqa: E402
from simulate.vijayanagara.rules.ruleset import EVENT, MONGOL_CARD, load_rules  # noqa: E402
from simulate.vijayanagara.rules.setup import new_state  # noqa: E402
from simulate.vijayanagara.seeds import streams  # noqa: E402

AGENTS = ("DS", "BK", "VE")


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def as_random(stepper: Stepper, seed: int) -> Stepper:
    """Answer every Decision as the ``random`` strategy of game ``seed`` would."""
    rngs = streams(seed)
    while not stepper.over:
        _, faction, decision = stepper.pending
        stepper.answer(int(rngs[AGENTS[faction]].random() * len(decision.options)))
    return stepper


def public(st) -> str:
    c = st.copy()
    c.deck = c.deck[: c.pos]
    return c.digest()


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_a_seeded_stepper_plays_the_game_play_game_plays(rules, seed):
    stepper = as_random(Stepper.seeded(rules, seed), seed)
    assert stepper.state.digest() == play_game(seed, "random").state_digest


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_chance_fed_from_the_seed_plays_the_same_game(rules, seed):
    rngs = streams(seed)
    deck = new_state(rules, rngs["deck"]).deck
    dice = BattleDice(rngs["dice"])
    battles: dict = {}
    s = Stepper.with_chance(rules)
    while not s.over:
        kind, faction, payload = s.pending
        if kind == DECIDE:
            s.answer(int(rngs[AGENTS[faction]].random() * len(payload.options)))
        elif kind == CARD:
            s.answer(deck[s.state.pos])
        else:
            stream = battles.get(payload) or battles.setdefault(payload, dice.battle(payload[:4]))
            s.answer(int(stream.random() * 6))
    seeded = as_random(Stepper.seeded(rules, seed), seed)
    assert public(s.state) == public(seeded.state)


def test_a_copy_stands_where_the_original_stands_and_goes_its_own_way(rules):
    s = Stepper.seeded(rules, 9)
    for _ in range(40):
        s.answer(0)
    c = s.copy()
    assert c.state.digest() == s.state.digest()
    assert c.pending[2].options == s.pending[2].options
    before = s.state.digest()
    as_random(c, 9)
    assert s.state.digest() == before and not s.over


def test_an_answer_outside_the_options_is_refused(rules):
    s = Stepper.seeded(rules, 2)
    n = len(s.pending[2].options)
    with pytest.raises(ValueError, match=f"{n} does not answer the pending decide"):
        s.answer(n)


def test_the_next_card_probabilities_sum_to_one_over_unseen_cards(rules):
    deck = new_state(rules, streams(5)["deck"]).deck
    for pos in (0, 3, 7):
        outcomes = card_outcomes(rules, deck, pos)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert not {c for c, _ in outcomes} & set(deck[:pos])


def test_a_kind_comes_next_in_proportion_to_its_count_left_in_the_stack(rules):
    deck = new_state(rules, streams(5)["deck"]).deck
    start, end, _ = stacks(rules)[0]
    outcomes = card_outcomes(rules, deck, start)
    kinds = {rules.cards[c].kind for c in deck[start:end]}
    assert kinds == {EVENT, MONGOL_CARD}
    events = sum(p for c, p in outcomes if rules.cards[c].kind == EVENT)
    assert events == pytest.approx(rules.events_per_stack / (end - start))


def test_a_succession_card_is_certain_where_it_lies(rules):
    deck = new_state(rules, streams(5)["deck"]).deck
    _, end, then = stacks(rules)[0]
    assert card_outcomes(rules, deck, end) == ((rules.succession_cards[then], 1.0),)


def test_a_drawn_card_takes_its_place_and_the_deck_keeps_its_cards(rules):
    deck = new_state(rules, streams(5)["deck"]).deck
    undealt = next(i for i in rules.event_cards if i not in deck)
    swapped = with_drawn(deck, 2, deck[10])
    assert swapped[2] == deck[10] and sorted(swapped) == sorted(deck)
    replaced = with_drawn(deck, 2, undealt)
    assert replaced[2] == undealt and len(set(replaced)) == len(deck)


def test_dice_are_chance_nodes_of_six_faces_named_by_battle(rules):
    s = Stepper.with_chance(rules)
    seen = set()
    rng = streams(1)["DS"]
    while not s.over and DIE not in seen:
        kind, _, payload = s.pending
        seen.add(kind)
        if kind == DECIDE:
            s.answer(int(rng.random() * len(payload.options)))
        elif kind == CARD:
            s.answer(payload[0][0])
    assert s.pending[0] == DIE and len(s.pending[2]) == 5
    with pytest.raises(ValueError, match="a face 0..5"):
        s.answer(6)
