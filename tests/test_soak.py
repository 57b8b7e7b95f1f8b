"""``vsim soak`` on the batch API (issue 41): a per-action check hook on a batch, the same
parallel path as every study, failures that do not depend on the number of workers, each
with a repro that raises again."""

from __future__ import annotations

import pytest
from cli_support import ROOT

from simulate.study.batch import Batch, Chunk, play_batch
from simulate.study.soak import check, replay_checked, shares, soak
from simulate.vijayanagara.rules import invariants
from simulate.vijayanagara.variants import load_variant

BOOM = "tests.fault_strategies:Boom"  # raises at its fourth decision in about half the games


def test_the_games_are_shared_among_the_strategies_the_first_taking_any_extra():
    assert shares(5, ("random", "heuristic")) == [3, 2]
    assert shares(1, ("random", "heuristic", "greedy")) == [1, 0, 0]


def test_a_batch_calls_its_hook_after_every_action_and_a_raise_fails_the_game(monkeypatch):
    def broken(state, rules):
        raise invariants.InvariantError("planted")

    monkeypatch.setattr(invariants, "check", broken)
    lineup = dict.fromkeys(("DS", "BK", "VE"), "random")
    batch = Batch(Chunk("base", 0, 1), load_variant(None), lineup, 7, on_action=check)
    result = play_batch(batch)
    assert [k for k, _ in result.failures] == [0, 1]
    for text in result.raised.values():
        assert text.startswith("InvariantError: planted (at test_soak.py:")


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_failures_of_a_soak_do_not_depend_on_the_workers(jobs, monkeypatch):
    monkeypatch.chdir(ROOT)  # the workers import the faulty strategy from the checkout
    found = [(f.game_index, f.seed, f.error) for f in soak(8, 3, (BOOM, "random"), jobs=jobs)]
    again = [(f.game_index, f.seed, f.error) for f in soak(8, 3, (BOOM, "random"), jobs=1)]
    assert sorted(found) == sorted(again)
    assert found and all("ZeroDivisionError: boom second line" in e for _, _, e in found)
    assert all(k < 4 for k, _, _ in found)  # the faulty strategy's share: games 0 to 3


def test_a_failures_repro_raises_it_again(monkeypatch):
    monkeypatch.chdir(ROOT)
    failure = next(iter(soak(6, 3, (BOOM,), jobs=1)))
    assert "replay_checked(" in failure.repro and repr(BOOM) in failure.repro
    with pytest.raises(Exception, match="boom"):
        replay_checked(failure.seed, BOOM)
