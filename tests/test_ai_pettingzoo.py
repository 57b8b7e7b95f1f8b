"""The PettingZoo AEC environment (simulate/ai/pettingzoo_env.py, issue 44)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("greenlet")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from simulate.ai import pettingzoo_env  # noqa: E402
from simulate.vijayanagara.ai.encoding import K  # noqa: E402
from simulate.vijayanagara.game import play_game  # noqa: E402
from simulate.vijayanagara.seeds import streams  # noqa: E402

ADVICE = (  # PettingZoo's advice for envs with an action mask, not failures
    "Observation space for each agent probably should be",
    "We recommend agents to be named",
    "Observation is not a NumPy array",
)


def play_as_random(env, seed: int) -> None:
    """Play game ``seed`` through the environment, choosing as ``random`` would."""
    rngs = streams(seed)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rngs[agent].random() * int(obs["action_mask"].sum())))


def test_it_passes_pettingzoos_api_test(capsys):
    with warnings.catch_warnings():
        for text in ADVICE:
            warnings.filterwarnings("ignore", message=text)
        api_test(pettingzoo_env.env(), num_cycles=1000)  # raises on a failed check
    assert "Passed API test" in capsys.readouterr().out


def _first_observation(seed: int) -> np.ndarray:
    env = pettingzoo_env.env()
    env.reset(seed=seed)
    return env.observe(env.agent_selection)["observation"]


def test_it_passes_pettingzoos_seed_test():
    seed_test(pettingzoo_env.env, num_cycles=100)  # raises when one seed plays two games
    assert np.array_equal(_first_observation(5), _first_observation(5))
    assert not np.array_equal(_first_observation(5), _first_observation(6))  # another deck


@pytest.mark.parametrize("seed", [3, 11])
def test_reset_with_a_seed_plays_the_game_play_game_plays(seed):
    env = pettingzoo_env.env()
    play_as_random(env, seed)
    assert env.unwrapped.stepper.state.digest() == play_game(seed, "random").state_digest


def test_the_winner_alone_is_rewarded_and_infos_carry_the_vp_margin():
    env = pettingzoo_env.env()
    env.reset(seed=4)
    rewards = dict.fromkeys(env.possible_agents, 0)
    infos = {}
    rngs = streams(4)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            infos[agent] = info
            env.step(None)
        else:
            env.step(int(rngs[agent].random() * int(obs["action_mask"].sum())))
    result = play_game(4, "random")
    assert rewards == {a: int(a == result.winner) for a in env.possible_agents}
    for agent, info in infos.items():
        best = max(v for a, v in result.vp.items() if a != agent)
        assert info["vp"] == result.vp[agent] and info["vp_margin"] == result.vp[agent] - best
        assert info["winner"] == result.winner


def test_only_the_deciding_agent_has_legal_actions():
    env = pettingzoo_env.env()
    env.reset(seed=1)
    decider = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.shape == (K,)
        assert mask.any() == (agent == decider)


def test_max_cycles_truncates_after_that_many_steps():
    env = pettingzoo_env.env(max_cycles=5)
    env.reset(seed=2)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
        else:
            env.step(0)
            steps += 1
    assert steps == 5


def test_an_illegal_action_is_refused_with_a_clear_error():
    env = pettingzoo_env.env()
    env.reset(seed=2)
    n = int(env.observe(env.agent_selection)["action_mask"].sum())
    with pytest.raises(ValueError, match=f"{n} does not answer the pending decide"):
        env.step(n)


def test_reset_without_a_seed_plays_the_next_seed():
    env = pettingzoo_env.env()
    env.reset(seed=20)
    env.reset()
    first = env.observe(env.agent_selection)["observation"]
    env.reset(seed=21)
    assert np.array_equal(first, env.observe(env.agent_selection)["observation"])


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="max_cycles must be a positive integer"):
        pettingzoo_env.env(max_cycles=0)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        pettingzoo_env.env().reset(seed=-1)


def test_render_says_where_the_game_stands():
    env = pettingzoo_env.env(render_mode="ansi")
    env.reset(seed=1)
    assert env.render().startswith("card 1: DS ")


def test_a_step_before_reset_is_refused():
    with pytest.raises(RuntimeError, match="call reset"):
        pettingzoo_env.env().step(0)


def test_a_variant_plays_its_own_rules():
    env = pettingzoo_env.env(variant="deccan-head-start")
    play_as_random(env, 6)
    result = play_game(6, "random", variant="deccan-head-start")
    assert env.unwrapped.stepper.state.digest() == result.state_digest
