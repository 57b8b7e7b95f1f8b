"""The AI adapters work for any game that gives an encoder, with its number of seats: the tiny
game (tests/tiny_game) at 2 and at 5 seats through PettingZoo's and OpenSpiel's own checks,
on the generic stepper (simulate/ai/stepper.py); issue 65."""

from __future__ import annotations

import ast
import pickle
import re
import warnings
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("greenlet")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from tiny_game import GAME, Cautious, Pig  # noqa: E402

from simulate.ai import openspiel_game, pettingzoo_env  # noqa: E402
from simulate.ai.encoding import SEEDS, NoEncoder, encoder_for  # noqa: E402
from simulate.ai.stepper import GenericStepper  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = "tiny_game:GAME"
ADVICE = (  # PettingZoo's advice for envs with an action mask, not failures
    "Observation space for each agent probably should be",
    "We recommend agents to be named",
    "Observation is not a NumPy array",
)
GAME_NAMES = r"\b(DS|BK|VE)\b|Mongol|mongol|Influence|influence|Qasbah|qasbah"


class Silent(Pig):
    """The tiny game without an encoder."""

    name = "silent"

    def encoder(self, rules):
        return None


@pytest.fixture(scope="module", params=[2, 5], ids=["2-seats", "5-seats"])
def variant(request, tmp_path_factory) -> str:
    """A variant file of the tiny game with that many seats."""
    n = request.param
    path = tmp_path_factory.mktemp("tiny") / f"players-{n}.toml"
    path.write_text(f'name = "players-{n}"\ndescription = "{n} seats"\n[setup]\nplayers = {n}\n')
    return str(path)


def _rules(variant: str):
    return GAME.compile(GAME.load_variant(variant))


def _cautious(stepper: GenericStepper) -> GenericStepper:
    """Answer every Decision as ``Cautious`` would (bank at 8 points or more)."""
    while not stepper.over:
        decision = stepper.pending[2]
        stepper.answer(decision.options.index(Cautious().choose(None, decision)))
    return stepper


def test_pettingzoo_api_test_passes(variant, capsys):
    env = pettingzoo_env.env(game=TINY, variant=variant)
    n = len(_rules(variant).seats)
    assert env.possible_agents == [f"P{i + 1}" for i in range(n)]
    with warnings.catch_warnings():
        for text in ADVICE:
            warnings.filterwarnings("ignore", message=text)
        api_test(env, num_cycles=300)  # raises on a failed check
    assert "Passed API test" in capsys.readouterr().out
    seed_test(lambda: pettingzoo_env.env(game=TINY, variant=variant), num_cycles=50)


def test_openspiel_random_sim_test_passes(variant):
    game = openspiel_game.load(TINY, variant)
    assert game.num_players() == len(_rules(variant).seats)
    assert game.get_type().short_name == "python_tiny"
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)  # raises on failure


def test_a_seeded_stepper_plays_the_game_play_plays(variant):
    rules = _rules(variant)
    encoder = encoder_for(GAME, rules)
    for seed in range(5):
        stepper = _cautious(encoder.seeded(seed))
        played = GAME.play(seed, [Cautious() for _ in rules.seats], rules)
        assert stepper.outcome.state_digest == played.state_digest
        assert stepper.outcome.winner == played.winner


def test_the_environment_rewards_the_winner_and_reports_the_scores(variant):
    rules = _rules(variant)
    env = pettingzoo_env.env(game=TINY, variant=variant)
    env.reset(seed=4)
    rewards = dict.fromkeys(env.possible_agents, 0)
    infos = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            infos[agent] = info
            env.step(None)
        else:
            decision = env.unwrapped.stepper.pending[2]
            env.step(decision.options.index(Cautious().choose(None, decision)))
    played = GAME.play(4, [Cautious() for _ in rules.seats], rules)
    assert rewards == {a: int(a == played.winner) for a in env.possible_agents}
    for agent, info in infos.items():
        best = max(v for a, v in played.scores.items() if a != agent)
        assert info["score"] == played.scores[agent]
        assert info["score_margin"] == played.scores[agent] - best
        assert info["winner"] == played.winner


def test_a_copy_and_a_pickle_stand_where_the_original_stands(variant):
    stepper = encoder_for(GAME, _rules(variant)).seeded(9)
    for _ in range(6):
        if not stepper.over:
            stepper.answer(0)  # roll on
    before = (stepper.answers, stepper.pending[:2], stepper.view.state.digest())
    for other in (stepper.copy(), pickle.loads(pickle.dumps(stepper))):
        assert (other.answers, other.pending[:2], other.view.state.digest()) == before
        assert _cautious(other).over
    assert (stepper.answers, stepper.pending[:2], stepper.view.state.digest()) == before


def test_the_openspiel_root_draws_the_seed_and_then_plays_that_game(variant):
    game = openspiel_game.load(TINY, variant)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert state.is_chance_node() and len(outcomes) == SEEDS
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(17)
    while not state.is_terminal():
        decision = state.stepper.pending[2]
        state.apply_action(decision.options.index(Cautious().choose(None, decision)))
    rules = _rules(variant)
    played = GAME.play(17, [Cautious() for _ in rules.seats], rules)
    assert state.returns() == [float(s == played.winner) for s in rules.seats]
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)


def test_a_game_without_an_encoder_is_refused_in_one_line():
    silent = Silent()
    message = "game 'silent' gives no encoder: the AI adapters need its encoder"
    with pytest.raises(NoEncoder, match=message) as caught:
        pettingzoo_env.env(game=silent)
    assert "\n" not in str(caught.value)
    with pytest.raises(NoEncoder, match=message):
        openspiel_game.register(silent)


def test_the_generic_layer_names_no_game():
    ai = ROOT / "simulate" / "ai"
    for path in sorted(ai.glob("*.py")):
        text = path.read_text()
        for n, line in enumerate(text.splitlines(), 1):
            assert not re.search(GAME_NAMES, line), f"{path.name}:{n}: {line.strip()}"
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
                for name in names:
                    assert not name.startswith(
                        ("simulate.vijayanagara", "strategies.vijayanagara")
                    ), f"{path.name} imports {name}"
