"""``openspiel-mcts``: a seat played by OpenSpiel's MCTSBot (simulate/ai/challenger.py)."""

from __future__ import annotations

import pytest

from strategies import registry

pytest.importorskip("pyspiel")
pytest.importorskip("greenlet")

from simulate.ai.challenger import OpenSpielMCTSStrategy  # noqa: E402
from simulate.vijayanagara.game import play_game  # noqa: E402


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openspiel-mcts:evaluator=minimax", "evaluator must be one of ours, random"),
        ("openspiel-mcts:simulations=0", "simulations must be a positive integer"),
        ("openspiel-mcts:uct_c=-1", "uct_c must be a positive number"),
        ("openspiel-mcts:search=game", "search must be one of turn, action"),
        ("openspiel-mcts:fallback=nobody", "unknown strategy 'nobody'"),
    ],
)
def test_bad_parameters_are_refused_in_one_line(spec, message):
    with pytest.raises(ValueError, match=message):
        registry.make(spec)


def _game(seat: str, **params) -> tuple:
    bot = OpenSpielMCTSStrategy(simulations=4, **params)
    lineup = {"DS": "heuristic", "BK": "heuristic", "VE": "heuristic", seat: bot}
    return play_game(5, lineup), bot


def test_it_plays_a_whole_game_searching_its_own_turns():
    result, bot = _game("BK")
    assert result.winner in ("DS", "BK", "VE", None)
    assert bot.searched > 0 and bot.fell_back > 0


def test_the_same_seed_plays_the_same_game():
    first, _ = _game("VE")
    again, _ = _game("VE")
    assert first.state_digest == again.state_digest


def test_search_action_searches_only_the_turns_first_decision():
    _, turn = _game("DS")
    _, action = _game("DS", search="action")
    assert 0 < action.searched < turn.searched


def test_the_random_rollout_evaluator_plays_a_game():
    bot = OpenSpielMCTSStrategy(evaluator="random", simulations=2, search="action")
    result = play_game(6, {"DS": bot, "BK": "heuristic", "VE": "heuristic"})
    assert result.cards_played > 0 and bot.searched > 0
