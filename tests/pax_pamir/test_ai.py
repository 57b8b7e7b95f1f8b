"""Pax Pamir through the AI adapters (issue 67): the PettingZoo environment and the OpenSpiel
game at 2 and 5 seats pass their libraries' checks on ``PaxEncoder``
(simulate/pax_pamir/encoding.py); an observation never shows another hand's cards nor the
deck's order; every offered option has its own code index, and back."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("greenlet")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from simulate.ai import openspiel_game, pettingzoo_env  # noqa: E402
from simulate.ai.encoding import encoder_for  # noqa: E402
from simulate.pax_pamir.encoding import (  # noqa: E402
    FAMILIES,
    KINDS,
    PaxEncoder,
    family,
    option_bounds,
)
from simulate.pax_pamir.game import GAME  # noqa: E402
from simulate.pax_pamir.view import Observation  # noqa: E402

PAX = "pax-pamir"
ADVICE = (  # PettingZoo's advice for envs with an action mask, not failures
    "Observation space for each agent probably should be",
    "We recommend agents to be named",
    "Observation is not a NumPy array",
)


@pytest.fixture(scope="module", autouse=True)
def answers_encoder():
    """The game answers ``encoder`` (until game.py declares it: docs/ai.md)."""
    with pytest.MonkeyPatch.context() as mp:
        if GAME.encoder(GAME.compile(GAME.load_variant(None))) is None:
            mp.setattr(type(GAME), "encoder", lambda self, rules: PaxEncoder(self, rules))
        yield


@pytest.fixture(scope="module", params=["players-2", "players-5"], ids=["2-seats", "5-seats"])
def variant(request) -> str:
    return request.param


def _rules(variant: str):
    return GAME.compile(GAME.load_variant(variant))


def _random_pending(encoder: PaxEncoder, seeds: range):
    """Each Decision of random games through the seeded stepper, with the stepper."""
    for seed in seeds:
        rng = random.Random(seed)
        stepper = encoder.seeded(seed)
        while not stepper.over:
            yield stepper
            stepper.answer(rng.randrange(len(stepper.pending[2].options)))


def test_pettingzoo_api_test_passes(variant, capsys):
    env = pettingzoo_env.env(game=PAX, variant=variant)
    n = len(_rules(variant).seats)
    assert env.possible_agents == [f"P{i + 1}" for i in range(n)]
    with warnings.catch_warnings():
        for text in ADVICE:
            warnings.filterwarnings("ignore", message=text)
        api_test(env, num_cycles=200)  # raises on a failed check
    assert "Passed API test" in capsys.readouterr().out
    seed_test(lambda: pettingzoo_env.env(game=PAX, variant=variant), num_cycles=30)


def test_openspiel_random_sim_test_passes(variant):
    game = openspiel_game.load(PAX, variant)
    assert game.num_players() == len(_rules(variant).seats)
    assert game.get_type().min_num_players == 2 and game.get_type().max_num_players == 5
    assert game.num_distinct_actions() == max(option_bounds(_rules(variant).data, 5).values())
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)  # raises on failure


def test_an_observation_never_shows_another_hand_nor_the_deck(variant):
    rules = _rules(variant)
    encoder = encoder_for(GAME, rules)
    rng = random.Random(5)
    for k, stepper in enumerate(_random_pending(encoder, range(3))):
        if k % 7:
            continue
        decision, full = stepper.pending[2], stepper.view._state
        decider = rules.seats.index(decision.faction)
        for seat in range(rules.players):
            vector = encoder.encode(stepper.view, seat, decision)
            dealt = Observation(rules, seat, full).determinise(rng)  # the unseen cards again
            assert dealt.hand[seat] == full.hand[seat]
            again = encoder.encode(Observation(rules, seat, dealt), seat, decision)
            assert np.array_equal(vector, again), (seat, decision.kind)
            if seat != decider:  # nor the decider's options (they may name its hand)
                other = decision._replace(options=decision.options[::-1], context=None)
                assert np.array_equal(vector, encoder.encode(stepper.view, seat, other))
            cards = vector[encoder.layout["cards"]].reshape(encoder.cards, encoder.places)
            assert sorted(np.flatnonzero(cards[:, 0])) == sorted(full.hand[seat])


def test_every_offered_option_has_its_own_code_index_and_back(variant):
    rules = _rules(variant)
    encoder = encoder_for(GAME, rules)
    codes, seen_kinds = encoder.codes, set()
    for stepper in _random_pending(encoder, range(40)):
        decision = stepper.pending[2]
        seen_kinds.add(decision.kind)
        assert decision.kind in KINDS
        assert encoder.check(decision) <= encoder.actions
        indices = encoder.code_indices(decision)
        assert len(set(indices)) == len(indices), decision
        for action, (option, index) in enumerate(zip(decision.options, indices, strict=True)):
            assert 0 <= index < codes.size
            assert codes.option(decision.kind, index) == option
            assert encoder.action_of(decision, index) == action
        mask = encoder.code_mask(decision)
        assert mask.sum() == len(decision.options) and mask[indices].all()
    assert {"action", "loyalty", "side", "road", "hand_discard", "move"} <= seen_kinds
    assert set(FAMILIES) == {"stop", *(family(k) for k in KINDS)}


def test_the_code_ranges_tile_the_code_space():
    codes = encoder_for(GAME, _rules("players-5")).codes
    at = 0
    for name in FAMILIES:
        assert codes.offset[name] == at
        at += codes.sizes[name]
    assert at == codes.size
    for kind in KINDS:  # every index of a kind's family decodes to a code that maps back
        name = family(kind)
        for index in range(codes.offset[name], codes.offset[name] + codes.sizes[name]):
            assert codes.index(kind, codes.option(kind, index)) == index


def test_the_layout_tiles_the_vector_and_the_text_reads(variant):
    rules = _rules(variant)
    encoder = encoder_for(GAME, rules)
    spans = sorted(encoder.layout.values(), key=lambda s: s.start)
    assert spans[0].start == 0 and spans[-1].stop == encoder.size
    assert all(a.stop == b.start for a, b in zip(spans, spans[1:], strict=False))
    assert encoder.seat_range == (2, 5) and encoder.max_game_length > rules.max_turns
    stepper = encoder.seeded(3)
    seat, decision = stepper.pending[1:]
    assert encoder.action_string(seat, decision, 0).startswith(f"{decision.faction} loyalty")
    text = encoder.render(stepper)
    assert "\n" not in text and "P1" in text and "decides" in text
    vector = encoder.encode(stepper.view, seat, decision)
    assert vector.dtype == np.float32 and np.abs(vector).max() <= encoder.bound
