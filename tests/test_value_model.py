"""The value model of mcts's playout leaves (``strategies/vijayanagara/value_model.py``) and its fit
(``strategies/vijayanagara/fitting/value_fit.py``, issue 43 part 3): public features only, a model file
checked in one line, a fit that recovers what it is fitted to, and mcts games with it that
replay from their seed."""

from __future__ import annotations

import random

import numpy as np
import pytest

from simulate import play_game
from simulate.vijayanagara.rules.observation import Observation
from simulate.vijayanagara.rules.ruleset import load_rules
from simulate.vijayanagara.rules.setup import new_state
from strategies.registry import make
from strategies.vijayanagara.fitting import value_fit
from strategies.vijayanagara.value_model import (
    NAMES,
    VALUE_FILE,
    BadValueModel,
    Features,
    load_value,
)


@pytest.fixture(scope="module")
def position():
    """A game's position after a few cards of default play."""
    rules = load_rules()
    seen = []

    def grab(ctx):
        if ctx.state.pos == 8 and not seen:
            seen.append(ctx.state.copy())

    play_game(11, "heuristic-fast", on_action=grab)
    return rules, seen[0]


def test_the_features_are_public_so_every_redeal_of_the_unseen_deck_reads_the_same(position):
    # 2.3: a determinised copy differs only in the order of the undrawn cards
    rules, st = position
    obs = Observation(rules, st)
    feats = Features(rules)
    seen = {tuple(feats(obs.determinise(random.Random(k)))) for k in range(5)}
    assert len(seen) == 1
    assert len(next(iter(seen))) == len(NAMES)


def test_the_features_count_the_victory_points_of_5_1_to_5_3(position):
    from simulate.vijayanagara.rules.pieces import BK, DS, VE
    from simulate.vijayanagara.rules.victory import vp

    rules, st = position
    x = Features(rules)(st)
    for f, name in ((DS, "vp_DS"), (BK, "vp_BK"), (VE, "vp_VE")):
        assert x[NAMES.index(name)] == vp(rules, st, f)


def test_a_missing_or_malformed_value_model_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("features = [1, 2")
    other = tmp_path / "other.toml"
    other.write_text('features = ["vp_DS"]\n')
    for path, words in (
        (tmp_path / "none.toml", "no such file"),
        (bad, "not TOML"),
        (other, "refit it"),
    ):
        with pytest.raises(BadValueModel) as err:
            load_value(path)
        assert words in str(err.value) and "\n" not in str(err.value)


def test_mcts_refuses_a_value_model_it_cannot_load_in_one_line(tmp_path):
    with pytest.raises(ValueError) as err:
        make(f"mcts:value={tmp_path / 'none.toml'}")
    assert "no such file" in str(err.value) and "\n" not in str(err.value)


def _synthetic(n: int = 3000, seed: int = 1):
    """Features with a known link to final Victory Points and the winner."""
    g = np.random.default_rng(seed)
    x = g.normal(size=(n, len(NAMES)))
    vp = np.stack([2.0 * x[:, 0] + 10, -1.0 * x[:, 1] + 5, 0.5 * x[:, 2] + 7], axis=1)
    win = np.argmax(3.0 * x[:, :3] + g.gumbel(size=(n, 3)), axis=1)
    return x, vp, win


def test_the_fit_recovers_the_victory_points_and_the_winner_it_is_fitted_to():
    x, vp, win = _synthetic()
    tables = value_fit.fit(x, vp, win)
    rmse, logloss = value_fit.scores(x, vp, win, tables)
    assert rmse < 0.05  # the Victory Points are linear in the features
    assert logloss < 0.8 * np.log(3)  # far better than knowing nothing of the winner


def test_a_written_model_predicts_as_the_fit_does(tmp_path, position):
    rules, st = position
    x, vp, win = _synthetic(600)
    tables = value_fit.fit(x, vp, win)
    path = tmp_path / "value.toml"
    value_fit.write(tables, ["a test"], {"command": "test", "games": 0}, path)
    model = load_value(path)
    row = np.array([Features(rules)(st)])
    z = (row - tables["mean"]) / tables["scale"]
    want_vp, want_win = value_fit._predict(z, tables["vp"], tables["win"])
    got_vp, got_win = model.predict(rules, st)
    assert got_vp == pytest.approx(list(want_vp[0]), rel=1e-4, abs=1e-3)
    assert got_win == pytest.approx(list(want_win[0]), rel=1e-4, abs=1e-4)
    assert sum(got_win) == pytest.approx(1.0)


def test_mcts_with_the_value_model_replays_its_games_from_the_seed():
    spec = "mcts:value=1,rollouts=2,horizon=1,top=2"
    games = [
        play_game(4, (make(spec), make("heuristic-fast"), make("heuristic-fast"))) for _ in "ab"
    ]
    assert games[0].state_digest == games[1].state_digest
    bot = make(spec)
    assert bot.params["value"] == "shipped"
    assert bot.params["value_sha256"] == load_value().info["sha256"]


def test_the_shipped_value_model_names_its_command_and_data():
    model = load_value()
    # the command as it was run: the file keeps its bytes (its digest is the bot's identity)
    # though the fitting module has since moved into strategies/vijayanagara/ (issue 65)
    assert model.info["command"].startswith("python -m strategies.fitting.value_fit")
    assert len(model.info["data_sha256"]) == 64


def test_a_new_state_is_scored_near_the_middle_of_the_winner_odds():
    # the model's chances are a distribution over DS, BK and VE (5.0)
    rules = load_rules()
    st = new_state(rules, random.Random(3))
    vps, wins = load_value().predict(rules, st)
    assert len(vps) == 3 and all(0.0 < p < 1.0 for p in wins)
    assert sum(wins) == pytest.approx(1.0)


def test_a_lineup_seat_names_its_value_model_from_the_lineup_files_folder(tmp_path):
    folder = tmp_path / "values"
    folder.mkdir()
    (folder / "mine.toml").write_bytes(VALUE_FILE.read_bytes())
    path = tmp_path / "tier.toml"
    path.write_text(
        'description = "a test tier"\nversion = "t1"\npolicy = "heuristic"\n'
        'layers = ["tuned.toml"]\n[seat.VE.search]\nmcts_cards = 3\nmcts_rollouts = 1\n'
        'mcts_value = "values/mine.toml"\n'
    )
    bot = make(str(path))
    bot.new_game("VE", random.Random(0), load_rules())
    assert bot.end_game is not None and bot.end_game.value is not None
    assert bot.end_game.value.info["sha256"] == load_value().info["sha256"]
    bot.new_game("BK", random.Random(0), load_rules())
    assert bot.end_game is None


def test_a_lineup_setting_naming_no_value_model_is_refused_in_one_line(tmp_path):
    with pytest.raises(ValueError) as err:
        make(f"heuristic:play.mcts_value={tmp_path / 'none.toml'}")
    assert "no such file" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ValueError, match="mcts_value must be a file name"):
        make("heuristic:play.mcts_value=3")
