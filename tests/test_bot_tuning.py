"""``vsim tune-bots`` (issue 18): the tuner improves a bad bot, resumes to the same result,
and refuses bad parameter files in one line."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from cli_support import cut_after, invoke, listing, stops

from simulate.study import bot_tuning as bt
from simulate.study import tunable
from simulate.study.errors import RunError
from simulate.vijayanagara import bot_space

# A Sultanate bot that never Attacks and values no kill: it wins about 2% of its games
# against heuristic-v1 (30% with the shipped values).
BAD_DS = """
[seat.DS.play]
aggression = 0.0
[seat.DS.play.DS]
kill_rebel = 0.0
kill_mongol = 0.0
delhi_unit = 0.0
"""

SPACE = """
[DS]
"play.aggression" = [0.0, 1.0]
"play.DS.kill_rebel" = [0.0, 1.0]
"play.DS.kill_mongol" = [0.0, 1.0]
"play.DS.delhi_unit" = [0.0, 1.0]
"""


def _files(tmp_path):
    (tmp_path / "bad.toml").write_text(BAD_DS)
    (tmp_path / "space.toml").write_text(SPACE)
    return tmp_path / "bad.toml", tmp_path / "space.toml"


def _tuning(tmp_path, rounds=1, **kw):
    start, space = _files(tmp_path)
    opts = dict(
        seed=3, rounds=rounds, generations=2, popsize=4, games=24, validation_games=24,
        factions=["DS"], space=space, start=start,
    )  # fmt: skip
    return bt.Tuning.create(**(opts | kw))


def _rows(out):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in bt.evaluations(out)]


def test_the_tuner_improves_a_deliberately_bad_weight_vector(tmp_path):
    run = bt.tune_bots(_tuning(tmp_path), tmp_path / "t", jobs=1)
    (phase,) = run.phases
    assert phase.accepted and phase.validated[1] > phase.validated[0]
    assert phase.best > phase.incumbent
    assert run.field["DS"] != bot_space.start_values(bot_space.load_space(tmp_path / "space.toml"),
                                              tmp_path / "bad.toml")["DS"]  # fmt: skip
    weights = (tmp_path / "t" / "weights.toml").read_text()
    assert "[seat.DS.play]" in weights


def test_the_tuner_is_deterministic_for_a_seed(tmp_path):
    bt.tune_bots(_tuning(tmp_path), tmp_path / "a", jobs=1)
    bt.tune_bots(_tuning(tmp_path), tmp_path / "b", jobs=2)
    assert _rows(tmp_path / "a") == _rows(tmp_path / "b")


@pytest.mark.parametrize("probe", [0, 4])
def test_resume_gives_the_same_result_as_an_uninterrupted_tune(tmp_path, probe):
    bt.tune_bots(_tuning(tmp_path, rounds=2, probe_games=probe), tmp_path / "whole", jobs=2)
    first = bt.tune_bots(
        _tuning(tmp_path, rounds=1, probe_games=probe), tmp_path / "resumed", jobs=2
    )
    shard = sorted((tmp_path / "resumed" / "evaluations").glob("part-*.parquet"))[-1]
    shard.unlink()  # as if killed before the last evaluation of round 1 was written
    again = bt.tune_bots(
        _tuning(tmp_path, rounds=2, probe_games=probe), tmp_path / "resumed", jobs=2
    )
    assert again.replayed > 0 and first.replayed == 0
    assert _rows(tmp_path / "resumed") == _rows(tmp_path / "whole")
    assert (tmp_path / "resumed" / "weights.toml").read_text() == (
        tmp_path / "whole" / "weights.toml"
    ).read_text()


def test_a_tuned_weights_file_plays_each_seat_with_its_own_values(tmp_path):
    import random

    from simulate.vijayanagara.rules.ruleset import load_rules
    from strategies import registry

    run = bt.tune_bots(_tuning(tmp_path), tmp_path / "t", jobs=1)
    bot = registry.make(f"heuristic-v1:weights={tmp_path / 't' / 'weights.toml'}")
    bot.new_game("DS", random.Random(0), load_rules())
    assert bot.policy.weights["play"]["aggression"] == pytest.approx(
        run.field["DS"]["play.aggression"], abs=1e-4
    )
    bot.new_game("BK", random.Random(0), load_rules())
    assert bot.policy.weights["play"]["aggression"] == 0.5  # weights.toml: BK is untouched


@pytest.mark.parametrize(
    ("space", "message"),
    [
        ('[DS]\n"play.agression" = [0.0, 1.0]\n', "unknown weight 'play.agression'"),
        ('[DS]\n"play.aggression" = [1.0, 1.0]\n', "empty range"),
        ('[DS]\n"play.aggression" = 0.5\n', "must be [low, high]"),
        ('[XX]\n"play.aggression" = [0.0, 1.0]\n', "unknown table [XX]"),
        ("[DS\n", "--space"),
    ],
)
def test_bad_search_space_files_are_refused_in_one_line(tmp_path, space, message):
    (tmp_path / "space.toml").write_text(space)
    before = listing(tmp_path)
    result = invoke(
        "tune-bots", "--out", str(tmp_path / "t"), "--space", str(tmp_path / "space.toml"),
        "--faction", "DS",
    )  # fmt: skip
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert listing(tmp_path) == before


def test_a_bad_start_file_is_refused_in_one_line(tmp_path):
    (tmp_path / "start.toml").write_text("[seat.XX.play]\naggression = 1.0\n")
    result = invoke(
        "tune-bots", "--out", str(tmp_path / "t"), "--start", str(tmp_path / "start.toml")
    )
    assert result.exit_code == 2 and "unknown seat 'XX'" in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--popsize", "2"], "--popsize must be an integer >= 4"),
        (["--games", "0"], "--games must be an integer >= 1"),
        (["--faction", "XY"], "--faction 'XY'"),
        (["--pool", "nosuchbot"], "unknown strategy 'nosuchbot'"),
        (["--vp-weight", "-1"], "--vp-weight"),
        (["--probe-games", "-1"], "--probe-games must be an integer >= 0"),
    ],
)
def test_bad_tuning_options_are_refused_in_one_line(tmp_path, args, message):
    result = invoke("tune-bots", "--out", str(tmp_path / "t"), *args)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "t").exists()


def test_a_folder_holding_another_tuning_is_not_overwritten(tmp_path):
    bt.tune_bots(_tuning(tmp_path), tmp_path / "t", jobs=1)
    with pytest.raises(RunError, match="a different tune-bots"):
        bt.tune_bots(_tuning(tmp_path, seed=4), tmp_path / "t", jobs=1)


def test_more_rounds_continue_a_tuning_but_fewer_are_refused(tmp_path):
    bt.tune_bots(_tuning(tmp_path, rounds=1), tmp_path / "t", jobs=1)
    more = bt.tune_bots(_tuning(tmp_path, rounds=2), tmp_path / "t", jobs=1)
    assert len(more.phases) == 2 and more.replayed > 0
    with pytest.raises(RunError, match="with more --rounds"):
        bt.tune_bots(_tuning(tmp_path, rounds=1), tmp_path / "t", jobs=1)


def test_the_cli_writes_weights_a_report_and_the_state(tmp_path):
    start, space = _files(tmp_path)
    result = invoke(
        "tune-bots", "--out", str(tmp_path / "t"), "--faction", "DS", "--space", str(space),
        "--start", str(start), "--rounds", "1", "--generations", "1", "--popsize", "4",
        "--games", "8", "--validation-games", "8", "--ladder-games", "6",
        "--challenger", "random", "--jobs", "1", "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    state = json.loads((tmp_path / "t" / "tune.json").read_text())
    assert state["status"] == "complete" and state["config"]["factions"] == ["DS"]
    assert (tmp_path / "t" / "report" / "tune-bots.html").is_file()
    assert (tmp_path / "t" / "ladder" / "ladder.json").is_file()
    assert "round 1 DS" in result.output


def test_a_seat_with_the_greedy_lookahead_plays_as_greedy_over_its_plans():
    # issue 18, part 4: play.lookahead = "greedy" chooses each turn's action (2.3.3) by
    # greedy's one-step lookahead over the bot's own plans, as greedy:expand=false does
    # (without the v17 end-game mcts, which would choose in the last 20 cards)
    from simulate import play_game

    others = {"BK": "heuristic", "VE": "heuristic"}
    spec = "heuristic:play.lookahead=greedy,play.lookahead_cards=0,play.mcts_cards=0"
    for seed in (3, 4):
        inside = play_game(seed, others | {"DS": spec})
        greedy = play_game(seed, others | {"DS": "greedy:expand=false"})
        assert inside.state_digest == greedy.state_digest


def test_the_default_sultanate_bot_looks_ahead_and_the_fast_tier_does_not():
    import random

    from simulate.vijayanagara.rules.ruleset import load_rules
    from strategies import registry

    rules = load_rules()
    default, fast = registry.make("heuristic"), registry.make("heuristic-fast")
    for bot in (default, fast):
        bot.new_game("DS", random.Random(0), rules)
    assert default.lookahead is not None and fast.lookahead is None
    for faction, looks in (("BK", False), ("VE", False)):  # the default lineup's seats (v7)
        default.new_game(faction, random.Random(0), rules)
        fast.new_game(faction, random.Random(0), rules)
        assert (default.lookahead is not None) == looks and fast.lookahead is None


def test_an_unknown_lookahead_is_refused_in_one_line(tmp_path):
    result = invoke(
        "run", "--games", "1", "--strategy", "DS=heuristic:play.lookahead=deep",
        "--out", str(tmp_path / "r"),
    )  # fmt: skip
    assert result.exit_code == 2 and "lookahead must be one of none, greedy" in result.output


def _cli_tuning(tmp_path, out):
    start, space = _files(tmp_path)
    return invoke(
        "tune-bots", "--out", str(out), "--faction", "DS", "--space", str(space),
        "--start", str(start), "--rounds", "1", "--generations", "2", "--popsize", "4",
        "--games", "8", "--validation-games", "8", "--ladder-games", "0", "--probe-games", "2",
        "--jobs", "1", "--quiet",
    )  # fmt: skip


@pytest.mark.parametrize(("exc", "code", "message"), stops("tuning"))
def test_a_stopped_tuning_says_so_in_one_line_keeps_its_evaluations_and_resumes(
    tmp_path, monkeypatch, exc, code, message
):
    assert _cli_tuning(tmp_path, tmp_path / "whole").exit_code == 0
    with monkeypatch.context() as m:
        cut_after(m, bt, 3, exc)  # the probe, the incumbent and the first generation are played
        stopped = _cli_tuning(tmp_path, tmp_path / "cut")
    assert stopped.exit_code == code and message in stopped.output
    assert len(_rows(tmp_path / "cut")) == 5  # kept: 1 incumbent + 4 candidates
    again = _cli_tuning(tmp_path, tmp_path / "cut")
    assert again.exit_code == 0 and "(40 replayed from the log)" in again.output
    assert _rows(tmp_path / "cut") == _rows(tmp_path / "whole")


def test_over_the_default_every_seat_value_is_laid_over_its_layers():
    # --base heuristic: the field and each candidate are the default lineup (its tuned.toml,
    # choice.toml and lookaheads) with the seat's values given in full
    values = {"play.aggression": 0.4, "play.reserve": 2}
    assert bot_space.spec_of(values, "heuristic") == "heuristic:play.aggression=0.4,play.reserve=2"
    assert bot_space.spec_of(values).startswith("heuristic-v1:")
    assert bot_space.spec_of({}, "heuristic") == "heuristic"  # a seat with nothing searched
    tuning = _tuning_over_default()
    field = {f: {"play.aggression": 0.5} for f in ("DS", "BK", "VE")}
    lineups = bt.opponents_of(tuning, "DS", field, field)
    assert lineups[0][1] == {
        "BK": "heuristic:play.aggression=0.5",
        "VE": "heuristic:play.aggression=0.5",
    }
    assert bt.lineup_spec(Path("w.toml"), "heuristic") == ["all=heuristic:weights=w.toml"]


def test_over_a_lineup_each_searched_value_starts_where_its_seat_plays_it(tmp_path):
    # without --start, a tuning over the default starts from each seat's own values, all its
    # layers merged: a choice table's value is choice.toml's (weights.toml's would be 0), the
    # fast tier's Sultanate its own fast.toml's; over heuristic-v1, tuned.toml as before
    (tmp_path / "space.toml").write_text(
        '[DS]\n"play.choice.action.pass" = [-3.0, 3.0]\n"play.aggression" = [0.0, 1.0]\n'
        '[VE]\n"play.choice.scale" = [0.0, 1.0]\n'
    )
    space = bot_space.load_space(tmp_path / "space.toml")
    folder = Path(__file__).parents[1] / "strategies" / "vijayanagara" / "heuristic"

    def seat(name, faction):
        return tomllib.loads((folder / name).read_text())["seat"][faction]

    start = bot_space.start_values(space, None, "heuristic")
    assert (
        start["DS"]["play.choice.action.pass"]
        == seat("choice.toml", "DS")["play"]["choice"]["action"]["pass"]
    )
    assert start["VE"]["play.choice.scale"] == seat("choice.toml", "VE")["play"]["choice"]["scale"]
    assert start["DS"]["play.aggression"] == seat("tuned.toml", "DS")["play"]["aggression"]
    fast = bot_space.start_values(space, None, "heuristic-fast")["DS"]["play.choice.action.pass"]
    assert fast == seat("fast.toml", "DS")["play"]["choice"]["action"]["pass"]
    assert bot_space.start_values(space, None)["DS"]["play.choice.action.pass"] == 0.0
    (tmp_path / "start.toml").write_text("[seat.DS.play]\naggression = 0.25\n")
    given = bot_space.start_values(space, tmp_path / "start.toml", "heuristic")["DS"]
    assert given == {"play.aggression": 0.25} | {
        "play.choice.action.pass": start["DS"]["play.choice.action.pass"]
    }


def test_over_the_fast_tier_its_field_and_candidates_are_fast_tier_bots():
    # --base heuristic-fast: the fast tier tuned for its own field (fast.toml's origin)
    values = {"play.choice.scale": 0.3}
    assert bot_space.spec_of(values, "heuristic-fast") == "heuristic-fast:play.choice.scale=0.3"
    assert bot_space.spec_of({}, "heuristic-fast") == "heuristic-fast"
    tuning = bt.Tuning.create(
        seed=3, rounds=1, generations=1, popsize=4, games=8, validation_games=8,
        factions=["DS"], base="heuristic-fast",
    )  # fmt: skip
    field = {f: {"play.aggression": 0.5} for f in ("DS", "BK", "VE")}
    assert set(bt.opponents_of(tuning, "DS", field, field)[0][1].values()) == {
        "heuristic-fast:play.aggression=0.5"
    }
    assert tuning.config()["base"] == "heuristic-fast"


def _tuning_over_default(**kw):
    opts = dict(
        seed=3, rounds=1, generations=1, popsize=4, games=8, validation_games=8,
        factions=["DS"], base="heuristic",
    )  # fmt: skip
    return bt.Tuning.create(**(opts | kw))


def test_a_tuning_over_the_default_is_another_tuning(tmp_path):
    # the base decides every evaluation: a folder of a tuning over heuristic-v1 is not resumed
    start, space = _files(tmp_path)
    over_v1 = bt.Tuning.create(
        seed=3, rounds=1, generations=1, popsize=4, games=8, validation_games=8,
        factions=["DS"], space=space, start=start,
    )  # fmt: skip
    assert "base" not in over_v1.config()  # a tuning over heuristic-v1 keeps its old config
    assert _tuning_over_default(space=space, start=start).config()["base"] == "heuristic"
    bt.tune_bots(over_v1, tmp_path / "t", jobs=1)
    with pytest.raises(RunError, match="a different tune-bots"):
        bt.tune_bots(_tuning_over_default(space=space, start=start), tmp_path / "t", jobs=1)


def test_a_value_the_seat_never_reads_is_not_searched(tmp_path):
    # under a learned choice (play.choice.fitted, 2.3.3) the Event is weighed by its table
    # bias, never by play.event_margin: the probe finds that it changes no game, so the
    # search keeps the incumbent's value and spends no dimension on it
    space = tmp_path / "space.toml"
    space.write_text('[DS]\n"play.event_margin" = [-1.0, 1.5]\n"play.aggression" = [0.0, 1.0]\n')
    tuning = _tuning_over_default(space=space, probe_games=3, games=4, validation_games=4)
    assert tuning.config()["probe_games"] == 3
    run = bt.tune_bots(tuning, tmp_path / "t", jobs=1)
    (phase,) = run.phases
    assert phase.inert == ("play.event_margin",)
    start = tuning.start["DS"]["play.event_margin"]
    searched = [json.loads(r["params"]) for r in bt.evaluations(tmp_path / "t")]
    assert {v["play.event_margin"] for v in searched} == {start}
    assert len({v["play.aggression"] for v in searched}) > 2
    from simulate.analysis import bot_tuning as report

    markdown = report.write(tmp_path / "t").markdown.read_text()
    assert "not searched (changed no game)" in markdown and "`play.event_margin`" in markdown


def test_a_tuning_without_the_probe_keeps_its_config_as_it_was(tmp_path):
    _, space = _files(tmp_path)
    assert "probe_games" not in _tuning_over_default(space=space).config()


def test_the_cli_tunes_over_the_default_and_says_how_to_play_the_result(tmp_path):
    _, space = _files(tmp_path)
    result = invoke(
        "tune-bots", "--out", str(tmp_path / "t"), "--faction", "DS", "--space", str(space),
        "--base", "heuristic", "--rounds", "1", "--generations", "1", "--popsize", "4",
        "--games", "6", "--validation-games", "6", "--ladder-games", "0", "--probe-games", "0",
        "--jobs", "1", "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"all=heuristic:weights={tmp_path / 't' / 'weights.toml'}" in result.output
    rows = bt.evaluations(tmp_path / "t")
    assert rows and all(r["faction"] == "DS" for r in rows)
    # its report lists the values the tuning changed from where it started, not from v1's
    state = json.loads((tmp_path / "t" / "tune.json").read_text())
    start, tuned = state["config"]["start"]["DS"], state["field"]["DS"]
    changed = [k for k in tuned if bot_space.fmt_value(tuned[k]) != bot_space.fmt_value(start[k])]
    report = (tmp_path / "t" / "report" / "tune-bots.md").read_text()
    assert "| seat | weight | start | tuned |" in report
    assert all(f"`{k}`" in report for k in changed)
    assert changed or "no value changed" in report


def test_an_unknown_base_is_refused_in_one_line(tmp_path):
    with pytest.raises(
        RunError, match="--base must be one of heuristic-v1, heuristic, heuristic-fast"
    ):
        bt.Tuning.create(base="greedy")
    result = invoke("tune-bots", "--out", str(tmp_path / "t"), "--base", "greedy")
    assert result.exit_code == 2 and "--base" in result.output
    assert not (tmp_path / "t").exists()


def test_a_weights_file_tuned_over_the_default_says_how_to_play_it(tmp_path):

    tuning = _tuning_over_default()
    path = tmp_path / "weights.toml"
    bot_space.write_weights(path, {f: {"play.reserve": 2} for f in ("DS", "BK", "VE")}, tuning, 8)
    assert "--strategy all=heuristic:weights=weights.toml" in path.read_text()


def test_a_tuned_fitted_term_is_written_as_a_quoted_toml_key(tmp_path):
    # a term of play.choice.terms ("khalji*c:attack") is no bare TOML key: the file must
    # still parse, and give the term its value

    tuning = _tuning_over_default()
    path = tmp_path / "weights.toml"
    values = {"play.choice.terms.khalji*c:attack": 0.5, "play.reserve": 2}
    bot_space.write_weights(path, {"DS": values, "BK": {}, "VE": {}}, tuning, 8)
    got = tomllib.loads(path.read_text())["seat"]["DS"]["play"]
    assert got["choice"]["terms"] == {"khalji*c:attack": 0.5} and got["reserve"] == 2


def test_a_game_that_raises_stops_the_tuning_in_one_line(tmp_path):
    # a lineup whose games raise is broken, not weak: counted as losses, it would steer the
    # search without a word (how a field spec "heuristic:" once went unnoticed)
    _, space = _files(tmp_path)
    result = invoke(
        "tune-bots", "--out", str(tmp_path / "t"), "--faction", "DS", "--space", str(space),
        "--pool", "tests.fault_strategies:Boom", "--rounds", "1", "--generations", "1",
        "--popsize", "4", "--games", "6", "--validation-games", "6", "--ladder-games", "0",
        "--jobs", "1", "--quiet",
    )  # fmt: skip
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if x.startswith("Error: the tuning"))
    assert "GamesFailed: StrategyError: strategy 'boom' for VE raised ZeroDivisionError" in line
    assert "rerun the same command to resume" in line


def test_a_tuning_against_the_fields_alone_plays_no_fixed_lineup(tmp_path):
    # --pool none: every candidate is scored against the current field only (a search over
    # the default otherwise learns mostly from the much weaker heuristic-v1 lineup)
    _, space = _files(tmp_path)
    args = (
        "tune-bots", "--out", str(tmp_path / "t"), "--faction", "DS", "--space", str(space),
        "--base", "heuristic", "--rounds", "1", "--generations", "1", "--popsize", "4",
        "--games", "4", "--validation-games", "4", "--ladder-games", "0", "--probe-games", "0",
        "--jobs", "1", "--quiet",
    )  # fmt: skip
    result = invoke(*args, "--pool", "none")
    assert result.exit_code == 0, result.output
    rows = bt.evaluations(tmp_path / "t")
    assert rows and all(json.loads(r["by_opponent"]).keys() == {"field"} for r in rows)
    assert json.loads((tmp_path / "t" / "tune.json").read_text())["config"]["pool"] == []
    mixed = invoke(*args, "--pool", "none", "--pool", "greedy")
    assert mixed.exit_code == 2 and "--pool none (the fields alone) takes no other" in mixed.output


def test_cma_es_starts_from_the_incumbent_with_a_step_of_a_share_of_the_range():
    # CmaEsSampler starts at the middle of each range, a sixth of it wide (no x0, sigma0):
    # each searched range is centred on the incumbent, 6 x STEP of the searched range wide
    share = tunable.Param("play.aggression", 0.0, 1.0, False).around(0.8)
    assert (share.low + share.high) / 2 == pytest.approx(0.8)
    assert (share.high - share.low) / 6 == pytest.approx(tunable.STEP)
    count = tunable.Param("play.reserve", 0, 6, True).around(1)
    assert (count.low, count.high) == (-2, 4)  # whole numbers, centred on the incumbent


def test_every_candidate_plays_values_inside_the_searched_range(tmp_path):
    # the bad start sits on the low end of its ranges (0.0): half of each centred range lies
    # outside, and a value proposed there plays clipped to the end
    bt.tune_bots(_tuning(tmp_path), tmp_path / "t", jobs=1)
    space = {p.key: p for p in bot_space.load_space(tmp_path / "space.toml").params["DS"]}
    rows = [r for r in bt.evaluations(tmp_path / "t") if r["kind"] == "candidate"]
    values = [(space[k], v) for r in rows for k, v in json.loads(r["params"]).items()]
    assert values and all(p.low <= v <= p.high for p, v in values)
    assert any(v == p.low for p, v in values)
