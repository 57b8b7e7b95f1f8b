"""The invariant soak (issue 66): random and heuristic games at every player count and with
Wakhan, every card, block and cylinder accounted for after every action. CI plays a short
version; ``pytest --full`` the issue's 10,000 random games per player count and 1,000 with
Wakhan (at 2 and 3 players)."""

from __future__ import annotations

import pytest

from simulate.study.soak import soak

VARIANTS = {2: "players-2", 3: "players-3", 4: None, 5: "players-5"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_games_keep_every_invariant_at_each_player_count(request, players):
    games = 10_000 if request.config.getoption("--full") else 40
    strategies = ("random",) if games > 1000 else ("random", "heuristic")
    failures = list(
        soak(games, 66, strategies, variant=VARIANTS[players], jobs=2, game="pax-pamir")
    )
    assert failures == []


@pytest.mark.parametrize("variant", ["wakhan-2", "wakhan-3"])
def test_games_against_wakhan_keep_every_invariant(request, variant):
    """RB pp. 16-18: Wakhan faced by one or two players."""
    games = 1000 if request.config.getoption("--full") else 30
    assert (
        list(soak(games, 67, ("random", "heuristic"), variant=variant, jobs=2, game="pax-pamir"))
        == []
    )


@pytest.mark.parametrize(("players", "seat"), [(4, "P2"), (5, "P3")])
def test_games_with_wakhan_in_a_larger_game_keep_every_invariant(request, tmp_path, players, seat):
    """Issue 66: Wakhan, "as a variant, in any seat of larger games" (``setup.wakhan``)."""
    variant = tmp_path / "wakhan.toml"
    variant.write_text(
        f'name = "wakhan"\ndescription = "Wakhan in {seat}"\n'
        f'[setup]\nplayers = {players}\nwakhan = "{seat}"\n'
    )
    games = 500 if request.config.getoption("--full") else 20
    found = soak(games, 69, ("random", "heuristic"), variant=str(variant), jobs=2, game="pax-pamir")
    assert list(found) == []
