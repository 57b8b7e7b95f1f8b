"""The OpenSpiel game ``python_vijayanagara`` (simulate/ai/openspiel_game.py, issue 44)."""

from __future__ import annotations

import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("greenlet")

import simulate.ai.openspiel_game  # noqa: E402, F401 (registers the game)
from simulate.vijayanagara.ai.encoding import Encoder, K  # noqa: E402
from simulate.vijayanagara.game import play_game  # noqa: E402
from simulate.vijayanagara.rules.dice import BattleDice  # noqa: E402
from simulate.vijayanagara.rules.ruleset import load_rules  # noqa: E402
from simulate.vijayanagara.rules.setup import new_state  # noqa: E402
from simulate.vijayanagara.seeds import streams  # noqa: E402

AGREEMENT_GAMES = 200


@pytest.fixture(scope="module")
def game():
    return pyspiel.load_game("python_vijayanagara")


def fed_from_seed(game, seed: int):
    """Game ``seed`` through OpenSpiel's API: chance outcomes from the seed's deck and dice,
    each player's actions as the ``random`` strategy of that game would choose."""
    rngs = streams(seed)
    deck = new_state(load_rules(), rngs["deck"]).deck
    dice = BattleDice(rngs["dice"])
    battles: dict = {}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            kind, _, payload = state.stepper.pending
            if kind == "card":
                state.apply_action(deck[state.stepper.state.pos])
            else:
                stream = battles.get(payload) or battles.setdefault(
                    payload, dice.battle(payload[:4])
                )
                state.apply_action(int(stream.random() * 6))
        else:
            player = state.current_player()
            n = len(state.legal_actions())
            state.apply_action(int(rngs[("DS", "BK", "VE")[player]].random() * n))
    return state


def public_digest(result_digest_state) -> str:
    st = result_digest_state.copy()
    st.deck = st.deck[: st.pos]
    return st.digest()


def test_it_passes_openspiels_random_simulation_test_with_serialisation(game):
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)  # raises on failure
    state = fed_from_seed(game, 8)
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and again.returns() == state.returns()
    assert again.is_terminal() and sum(again.returns()) == 1.0  # one winner, as game 8 had


def test_random_games_agree_with_play_game_when_fed_the_games_chance(game):
    from simulate.vijayanagara.ai.stepper import Stepper

    rules = load_rules()
    for seed in range(AGREEMENT_GAMES):
        state = fed_from_seed(game, seed)
        result = play_game(seed, "random")
        assert state.returns() == [float(f == result.winner) for f in ("DS", "BK", "VE")]
        seeded = Stepper.seeded(rules, seed)
        rngs = streams(seed)
        while not seeded.over:
            _, f, d = seeded.pending
            seeded.answer(int(rngs[("DS", "BK", "VE")[f]].random() * len(d.options)))
        assert seeded.state.digest() == result.state_digest
        assert state.public_digest() == public_digest(seeded.state), seed


def test_chance_nodes_carry_the_real_probabilities(game):
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert len(outcomes) == len(load_rules().event_cards) + len(load_rules().mongol_cards)


def test_a_clone_goes_its_own_way(game):
    state = fed_from_seed(game, 1)
    assert state.is_terminal()
    start = game.new_initial_state()
    start.apply_action(start.chance_outcomes()[0][0])
    clone = start.clone()
    while not clone.is_chance_node():
        clone.apply_action(clone.legal_actions()[0])
    assert str(start) != str(clone) and start.history() != clone.history()


def test_serialisation_restores_the_state(game):
    state = game.new_initial_state()
    for _ in range(30):
        state.apply_action(
            state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1]
        )
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_the_tensors_are_the_encodings_vector(game):
    size = Encoder(load_rules()).size
    assert game.observation_tensor_size() == size == game.information_state_tensor_size()
    assert game.num_distinct_actions() == K and game.num_players() == 3
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    assert len(state.observation_tensor(player)) == size
    assert state.information_state_string(player).startswith(("DS:", "BK:", "VE:"))


def test_returns_are_zero_until_the_end(game):
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.returns() == [0.0, 0.0, 0.0]
