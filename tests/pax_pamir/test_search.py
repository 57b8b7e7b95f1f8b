"""The search bots over the heuristic (issue 66): they play whole games on determinisations,
never seeing another hand, and their budgets scale as the game declares them."""

from __future__ import annotations

from simulate.pax_pamir.game import GAME, run
from simulate.pax_pamir.invariants import check
from simulate.study.budgets import budget_of, scaled
from strategies.registry import make


def test_greedy_and_mcts_play_whole_games_keeping_every_invariant():
    rules = GAME.compile(GAME.load_variant("players-2"))
    for spec in ("greedy:samples=1", "mcts:playouts=3,turns=2"):
        agents = [make(spec, "pax-pamir"), make("heuristic", "pax-pamir")]
        assert run(3, agents, rules, on_action=check).over


def test_a_search_bots_game_is_reproducible_from_its_seed():
    """DESIGN: Randomness: a search draws its determinisations from the seat's own stream,
    so the same seed plays the same game."""
    rules = GAME.compile(GAME.load_variant("players-2"))
    a = run(5, [make("greedy:samples=1", "pax-pamir"), make("random", "pax-pamir")], rules)
    b = run(5, [make("greedy:samples=1", "pax-pamir"), make("random", "pax-pamir")], rules)
    assert a.state.digest() == b.state.digest()


def test_search_budgets_scale_the_games_own_parameters():
    """``vsim ladder --budgets``: Pax Pamir's mcts counts playouts (64), greedy samples (4)."""
    assert budget_of("mcts", "pax-pamir") == ("mcts", 64)
    assert scaled("mcts", 2, "pax-pamir") == "mcts:playouts=128"
    assert scaled("greedy", 2, "pax-pamir") == "greedy:samples=8"
    assert scaled("mcts", 2) == "mcts:rollouts=16"  # Vijayanagara's, unchanged
