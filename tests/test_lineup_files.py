"""Lineups as data (``strategies/vijayanagara/lineups/``, issue 41): a tier is a file composing a policy, its
weight layers and each seat's search, the registry makes it by name or by path, a bad file is
refused in one line, and seats meant to play as another tier's are its very composition."""

from __future__ import annotations

import random

import pytest
from cli_support import edit, invoke

from simulate import play_game
from simulate.vijayanagara.rules.ruleset import load_rules
from strategies import registry
from strategies.vijayanagara import lineup
from strategies.vijayanagara.value_model import load_value

SHIPPED = ("heuristic", "heuristic-fast", "heuristic-strong", "heuristic-v1")
OTHERS = {"BK": "heuristic-fast", "VE": "heuristic-fast"}


def _write(tmp_path, text: str, name: str = "mine.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_shipped_tiers_are_lineup_files_the_registry_knows_by_name():
    assert set(SHIPPED) <= set(lineup.names())
    for name in SHIPPED:
        assert registry.known()[name] == f"strategies/vijayanagara/lineups/{name}.toml"
        assert registry.describe(name) == lineup.shipped(name).description
        assert registry.params_of(registry.make(name)) == {"version": lineup.shipped(name).version}


def test_vsim_strategies_says_what_the_default_is():
    result = invoke("strategies")
    line = next(x for x in result.output.splitlines() if x.startswith("heuristic "))
    assert "the default lineup: tuned heuristic + greedy lookahead + end-game mcts" in line
    assert "(default)" in line and "[strategies/vijayanagara/lineups/heuristic.toml]" in line


def test_a_new_tier_is_a_file_and_a_copy_of_the_default_plays_as_the_default(tmp_path):
    shipped = lineup.LINEUPS / "heuristic.toml"
    text = shipped.read_text()
    for fitted in ("priors/heuristic-ds.toml", "values/value.toml"):  # files beside the lineup
        text = text.replace(fitted, str(shipped.parent / fitted))
    copy = _write(tmp_path, text)
    for seed in (3, 4):
        mine = play_game(seed, {"DS": str(copy), "BK": "heuristic", "VE": "heuristic"})
        default = play_game(seed, "heuristic")
        assert mine.state_digest == default.state_digest


def test_a_lineups_search_settings_choose_where_its_file_says(tmp_path):
    path = _write(
        tmp_path,
        'description = "a test tier"\nversion = "t1"\npolicy = "heuristic"\n'
        'layers = ["tuned.toml"]\n[seat.BK.search]\nmcts_cards = 3\nmcts_rollouts = 1\n',
    )
    bot = registry.make(f"{path}:aggression=0.6")
    params = registry.params_of(bot)
    assert params.pop("lineup_sha256") == lineup.load(path).fingerprint()  # not a shipped tier
    assert params == {"aggression": 0.6, "version": "t1"}
    bot.new_game("BK", random.Random(0), load_rules())
    assert bot.end_game is not None and bot.seat.mcts_cards == 3
    assert bot.policy.weights["play"]["aggression"] == 0.6
    assert bot.policy.weights["play"]["choice"]["fitted"] is False  # no choice.toml layer
    bot.new_game("VE", random.Random(0), load_rules())
    assert bot.end_game is None


def test_a_lineup_files_fingerprint_is_its_play_not_its_comments(tmp_path):
    # what a resumed study checks (simulate/study/bot_versions.py): the version alone would let
    # an edited file extend the games of the file before the edit
    head = 'description = "a test tier"\nversion = "t1"\npolicy = "heuristic"\n'
    one = lineup.load(_write(tmp_path, head + "[seat.BK.search]\nmcts_cards = 3\n", "a.toml"))
    same = _write(tmp_path, head + "# why 3\n[seat.BK.search]\nmcts_cards = 3 # cards\n", "b.toml")
    other = _write(tmp_path, head + "[seat.BK.search]\nmcts_cards = 4\n", "c.toml")
    layer = _write(tmp_path, "[seat.BK.play]\naggression = 0.4\n", "layer.toml")
    layered = _write(tmp_path, head + 'layers = ["./layer.toml"]\n', "d.toml")
    assert one.fingerprint() == lineup.load(same).fingerprint()
    assert one.fingerprint() != lineup.load(other).fingerprint()
    before = lineup.load(layered).fingerprint()
    layer.write_text("[seat.BK.play]\naggression = 0.5\n")  # a layer it reads is its play too
    assert lineup.load(layered).fingerprint() != before


def test_a_lineup_file_edited_in_the_same_process_plays_its_edit(tmp_path):
    # a notebook's edit: read again when the file changes, as its layers and weights are
    head = 'description = "a test tier"\nversion = "t1"\npolicy = "heuristic"\n'
    path = _write(tmp_path, head + "[seat.BK.search]\nmcts_cards = 3\n")
    bot = registry.make(str(path))
    bot.new_game("BK", random.Random(0), load_rules())
    assert bot.seat.mcts_cards == 3
    edit(path, head + "[seat.BK.search]\nmcts_cards = 4\n")
    bot = registry.make(str(path))
    bot.new_game("BK", random.Random(0), load_rules())
    assert bot.seat.mcts_cards == 4


def test_a_spec_overrides_a_search_setting_in_every_seat():
    bot = registry.make("heuristic:play.mcts_cards=0,lookahead=none")
    for seat in ("DS", "BK", "VE"):
        assert bot.searches[seat].mcts_cards == 0 and bot.searches[seat].lookahead is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('version = "x"\npolicy = "heuristic"\n', "description must be a non-empty string"),
        ('description = "d"\nversion = "x"\npolicy = "minimax"\n', "unknown policy 'minimax'"),
        (
            'description = "d"\nversion = "x"\npolicy = "heuristic"\nlayers = ["nope.toml"]\n',
            "layer 'nope.toml' not found",
        ),
        (
            'description = "d"\nversion = "x"\npolicy = "heuristic"\ncolour = "red"\n',
            "unknown key 'colour'",
        ),
        (
            'description = "d"\nversion = "x"\npolicy = "heuristic"\n[seat.XX.search]\n',
            "[seat] tables must be DS, BK or VE",
        ),
        (
            'description = "d"\nversion = "x"\npolicy = "heuristic"\n[seat.DS.search]\n'
            "mcts_card = 3\n",
            "seat.DS.search: unknown 'mcts_card'",
        ),
        ('description = "d"\nversion = "x"\npolicy = "heuristic"\n[seat', "lineup 'bad.toml'"),
    ],
)
def test_a_bad_lineup_file_is_refused_in_one_line(tmp_path, text, message):
    path = _write(tmp_path, text, "bad.toml")
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")) as err:
        registry.make(str(path))
    assert "\n" not in str(err.value)


def test_a_bad_search_setting_in_a_file_names_its_seat(tmp_path):
    path = _write(
        tmp_path,
        'description = "d"\nversion = "x"\npolicy = "heuristic"\n'
        "[seat.VE.search]\nmcts_cards = -1\n",
    )
    with pytest.raises(ValueError, match="in the VE seat: mcts_cards must be a non-negative"):
        registry.make(str(path))


def test_the_fast_tiers_bahmani_and_vijayanagara_are_the_defaults_policy():
    # the fast tier's own values (fast.toml) are its Sultanate's only: its other seats play,
    # and model the other seats, as the default's do (their search aside)
    fast, default = lineup.shipped("heuristic-fast"), lineup.shipped("heuristic")
    assert fast.layers["BK"] == default.layers["BK"] and fast.layers["VE"] == default.layers["VE"]
    assert fast.layers["DS"][-1].name == "fast.toml"
    made = registry.make("heuristic-fast")
    assert made.policy_of("BK") is made.policy_of("VE") is not made.policy_of("DS")


def test_the_strong_tier_is_the_default_with_bigger_end_game_searches():
    """v22-strong (issue 43): every seat's layers, cards searched, prior and value model are
    the default's; only the end-game searches' budgets differ."""
    strong, default = lineup.shipped("heuristic-strong"), lineup.shipped("heuristic")
    mine, its = strong.searches({}), default.searches({})
    for seat in ("DS", "BK", "VE"):
        assert strong.layers[seat] == default.layers[seat]
        assert mine[seat].mcts_cards == its[seat].mcts_cards
        assert mine[seat].value.info["sha256"] == its[seat].value.info["sha256"]
        assert mine[seat] != its[seat]


def test_the_defaults_end_game_searches_score_their_leaves_with_the_shipped_value_model():
    """heuristic v20 (issue 43): the Sultanate's and Vijayanagara's end-game mcts score each
    playout's leaf with lineups/values/value.toml; v21: the Bahmani seat's too."""
    searches = lineup.shipped("heuristic").searches({})
    shipped = load_value(lineup.LINEUPS / "values" / "value.toml").info["sha256"]
    for seat in ("DS", "BK", "VE"):
        assert searches[seat].value is not None
        assert searches[seat].value.info["sha256"] == shipped


def test_the_defaults_bahmani_end_game_search_is_vijayanagaras_over_its_last_14_cards():
    """heuristic v21 (issue 43): a small value-model mcts over the Bahmani bot's last 14
    cards, at Vijayanagara's budget (2 playouts of 3, 2 cards deep, a screen of 2)."""
    searches = lineup.shipped("heuristic").searches({})
    assert (searches["BK"].mcts_cards, searches["VE"].mcts_cards) == (14, 6)
    assert searches["BK"].mcts_budget == searches["VE"].mcts_budget


HEAD = 'description = "d"\nversion = "x"\npolicy = "heuristic"\n'


def test_a_seat_as_another_lineups_plays_that_seats_layers_and_search(tmp_path):
    _write(tmp_path, HEAD + 'layers = ["tuned.toml"]\n[seat.VE.search]\nmcts_cards = 4\n', "a.toml")
    b = _write(tmp_path, HEAD + '[seat.VE]\nas = "a.toml"\n', "b.toml")
    made = lineup.load(b)
    assert [p.name for p in made.layers["VE"]] == ["tuned.toml"] and made.layers["DS"] == ()
    assert made.searches({})["VE"].mcts_cards == 4 and made.searches({})["DS"].mcts_cards == 0


def test_a_search_beside_as_is_set_over_that_seats_search(tmp_path):
    _write(tmp_path, HEAD + "[seat.VE.search]\nmcts_cards = 4\nmcts_top = 2\n", "a.toml")
    b = _write(
        tmp_path, HEAD + '[seat.VE]\nas = "a.toml"\n[seat.VE.search]\nmcts_top = 5\n', "b.toml"
    )
    search = lineup.load(b).searches({})["VE"]
    assert search.mcts_cards == 4 and search.mcts_budget[2] == 5  # (rollouts, horizon, top...)


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        ('as = "a.toml"', "'as' leads back to 'b.toml'"),  # a.toml's BK is b.toml's
        ('as = "heuristic"\nlayers = []', "'as' takes no other key beside it"),
        ("as = 3", "'as' must name a lineup"),
    ],
)
def test_a_bad_as_is_refused_in_one_line(tmp_path, seat, message):
    _write(tmp_path, HEAD + '[seat.BK]\nas = "b.toml"\n', "a.toml")
    b = _write(tmp_path, HEAD + f"[seat.BK]\n{seat}\n", "b.toml")
    with pytest.raises(ValueError, match=message):
        lineup.load(b)


def test_a_lineup_without_a_layer_or_setting_leaves_the_rest():
    default = lineup.shipped("heuristic")
    bare = default.without("choice.toml", "mcts_prior")
    assert [p.name for p in bare.layers["DS"]] == ["tuned.toml"]
    assert bare.searches({})["DS"].prior is None
    assert bare.searches({})["DS"].mcts_cards == default.searches({})["DS"].mcts_cards
