"""The learned choice of the turn's option (``play.choice``, 2.3.3; issue 18, part 4): the
options a bot weighs, the fitted choice among them, and the fit that learns it."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate import play_game
from simulate.vijayanagara.bot_space import base_value, load_space
from simulate.vijayanagara.rules.ruleset import load_rules
from simulate.vijayanagara.rules.state import KHALJI, TUGHLAQ
from strategies.registry import make
from strategies.vijayanagara.fitting import choice_fit
from strategies.vijayanagara.heuristic import HeuristicStrategy
from strategies.vijayanagara.heuristic.choice import (
    CHOICE_CONTEXT,
    choice_context,
    compile_terms,
    feature_names,
    option_features,
)
from strategies.vijayanagara.heuristic.weights import set_dotted
from strategies.vijayanagara.lineup import default_lineup

LAYERS = default_lineup().layers["VE"]  # the default's policy: its values and learned choice
PLAIN = {"play.choice.fitted": False}


class Spy(HeuristicStrategy):
    """A seat of the default's policy (no search choosing for it) that keeps, at each
    top-level decision, its offered actions, its ``options_here``, what it chose and its
    plan."""

    def __init__(self, **params) -> None:
        super().__init__(layers=LAYERS, **params)
        self.seen: list[tuple] = []
        self.options: list[list] = []
        self.resources: list[int] = []

    def choose(self, obs, decision):
        out = super().choose(obs, decision)
        if decision.kind == "action" and len(decision.options) > 1:
            bot = self.bot
            options = bot.options_here(obs, decision)
            self.seen.append((tuple(decision.options), options, out, dict(bot.plan)))
            self.options.append(options)
            self.resources.append(bot.resources[bot.faction])
        return out


def _seen(seat: str = "VE", seed: int = 3, **params) -> list[tuple]:
    spy = Spy(**params)
    play_game(
        seed, {"DS": "heuristic-fast", "BK": "heuristic-fast", "VE": "heuristic-fast"} | {seat: spy}
    )
    assert spy.seen
    return spy.seen


@pytest.mark.parametrize("seat", ["DS", "BK", "VE"])
def test_every_offered_action_is_among_the_options_weighed(seat):
    # 2.3.3: each offered action (the Event by either side, 2.3.4) is an option, with every
    # Command that has a space to select (3.1.1)
    for offered, options, _, _ in _seen(seat, **PLAIN):
        actions = {plan["action"] for _, plan in options}
        assert actions <= set(offered)
        assert "pass" in actions or "pass" not in offered
        if "event" in offered:
            sides = {plan["side"] for _, plan in options if plan["action"] == "event"}
            assert sides == {"unshaded", "shaded"}


def test_only_the_bots_own_plan_is_unforced():
    # a forced plan is followed whatever the Command's value when it is played (k_command)
    for _, options, _, _ in _seen(**PLAIN):
        for action in ("command_decree", "command", "limited"):
            own = [p for _, p in options if p["action"] == action and not p.get("force")]
            assert len(own) <= 1


def test_a_decree_the_bot_may_not_take_is_not_an_option():
    # 4.0: only a Decree the bot values (decree_value is None when it cannot be done)
    for _, options, _, _ in _seen("BK", **PLAIN):
        assert all(
            p.get("decree") is not None for _, p in options if p["action"] == "command_decree"
        )


def test_the_fitted_choice_takes_the_option_of_best_score():
    # play.choice: a large bias on Pass (2.3.6) makes it the choice wherever it is offered
    params = {"play.choice.fitted": True, "play.choice.action.pass": 50.0}
    seen = [(offered, chosen) for offered, _, chosen, _ in _seen(**params) if "pass" in offered]
    assert seen and all(chosen == "pass" for _, chosen in seen)


def test_a_command_bias_steers_the_fitted_choice_to_that_command():
    params = {
        "play.choice.fitted": True,
        "play.choice.scale": 0.0,
        "play.choice.command.rally": 50.0,
    }
    plans = [
        plan
        for _, options, _, plan in _seen(**params)
        if any(p.get("command") == "rally" for _, p in options)
    ]
    assert plans and all(plan["command"] == "rally" for plan in plans)


OPTIONS = [
    ("limited", "rally", None),
    ("limited", "migrate", None),
    ("command_decree", "rally", "build"),
    ("command_decree", "migrate", "tax"),
    ("command_decree", "rally", "tax"),
    ("command", "migrate", None),
    ("pass", None, None),
    ("event", None, None),
]


def _rows(value, seed: int = 4) -> list[tuple]:
    """Decisions of VE over ``OPTIONS`` (own values at random, at a random point of the
    deck), their search values ``value(v, action, command, late)`` + a constant."""
    rng = random.Random(seed)
    rows = []
    for game in range(20):
        for _ in range(5):
            late = rng.random()
            ctx = list(
                choice_context(late, rng.randrange(10), rng.uniform(-5, 5), rng.randrange(2))
            )
            feats = [(rng.uniform(-2, 2), a, c, d) for a, c, d in OPTIONS]
            q = [value(v, a, c, late) + 7.0 for v, a, c, _ in feats]
            rows.append((game, 2, feats, q, ctx, [(0.0, 0.0)] * len(feats)))
    return rows


def _score(model: dict, v: float, a: str, c: str | None, d: str | None, ctx: list) -> float:
    """An option's fitted score: scale, biases and every term (as ``fitted_choice``)."""
    out = model["scale"] * v + model["action"][a]
    out += model["command"].get(c, 0.0) + model["decree"].get(d, 0.0)
    for k, x in option_features(v, {"action": a, "command": c, "decree": d}):
        out += model["terms"].get(k, 0.0) * x
        for z, zv in zip(CHOICE_CONTEXT, ctx, strict=True):
            out += model["terms"].get(f"{z}*{k}", 0.0) * x * zv
    return out


def test_the_fit_recovers_the_differences_search_values_follow():
    # q = 0.5 x own value + 1.0 for a Limited Command + 0.3 for Rally, within each decision
    truth = {"limited": 1.0, "rally": 0.3}
    rows = _rows(lambda v, a, c, late: 0.5 * v + truth.get(a, 0.0) + truth.get(c, 0.0))
    model = choice_fit.fit(rows, 2, lam=0.0)
    ctx = rows[0][4]
    limited_rally = _score(model, 1.0, "limited", "rally", None, ctx)
    assert limited_rally - _score(model, 0.0, "pass", None, None, ctx) == pytest.approx(
        1.8, abs=1e-3
    )
    limited_migrate = _score(model, 1.0, "limited", "migrate", None, ctx)
    assert limited_rally - limited_migrate == pytest.approx(0.3, abs=1e-3)
    assert choice_fit.cross_validated_gain(rows, 2, lam=0.0) > 0


def test_the_fit_learns_an_option_worth_more_late_in_the_deck():
    # Pass (2.3.6) worth 2 VP more at the end of the deck than at its start: the fitted
    # choice passes late and not early, where the option's own terms alone cannot
    rows = _rows(lambda v, a, c, late: 0.5 * v + (2.0 * late - 1.0 if a == "pass" else 0.0))
    model = choice_fit.fit(rows, 2, lam=0.0)
    early, late = choice_context(0.0, 3, 0.0, 1), choice_context(1.0, 3, 0.0, 1)
    for ctx, want in ((early, -1.0), (late, 1.0)):
        gap = _score(model, 0.0, "pass", None, None, ctx) - _score(
            model, 0.0, "event", None, None, ctx
        )
        assert gap == pytest.approx(want, abs=1e-3)
    by = choice_fit.gains(rows, 2)["fitted"]  # per quarter: Pass avoided early, taken late
    assert by[0] > 0 and by[3] > 0


def test_fitted_terms_cross_the_options_features_with_the_position():
    # play.choice.terms: "late*a:pass" counts with the game's progress, "a:pass" alone does
    bot = HeuristicStrategy(layers=LAYERS)
    bot.new_game("BK", random.Random(0), load_rules())
    fb = bot.bot
    fb.terms = compile_terms({"late*a:pass": 2.0, "ac:limited:rally": 0.5})
    feats = option_features(1.0, {"action": "pass"})
    assert fb.terms_score(feats, (0.25, 0.0625, 0.0, 0.0, 1.0)) == pytest.approx(0.5)
    rally = option_features(1.0, {"action": "limited", "command": "rally", "decree": None})
    assert fb.terms_score(rally, (0.25, 0.0625, 0.0, 0.0, 1.0)) == pytest.approx(0.5)


def test_a_khalji_term_counts_only_while_the_khalji_dynasty_rules():
    # 2.7: the Khalji Dynasty rules until the first Succession card makes it Tughlaq (2.7.2);
    # "khalji*c:conscript" weighs Conscript before it and not after
    bot = HeuristicStrategy(layers=LAYERS)
    bot.new_game("DS", random.Random(0), load_rules())
    fb = bot.bot
    fb.terms = compile_terms({"khalji*c:conscript": 1.5})
    conscript = option_features(1.0, {"action": "limited", "command": "conscript"})
    khalji, tughlaq = choice_context(0.2, 5, 0.0, KHALJI), choice_context(0.2, 5, 0.0, TUGHLAQ)
    assert fb.terms_score(conscript, khalji) == pytest.approx(1.5)
    assert fb.terms_score(conscript, tughlaq) == 0.0


def test_a_spec_sets_a_fitted_term_the_shipped_weights_leave_empty():
    # play.choice.terms is empty in weights.toml: a spec (or tune-bots) may name any term in
    # it, which starts from 0 (absent); a value outside such a table is still refused
    weights = {"play": {"choice": {"terms": {"late*a:pass": 1.0}}, "aggression": 0.5}}
    set_dotted(weights, "play.choice.terms.khalji*c:conscript", 0.25)
    assert weights["play"]["choice"]["terms"] == {"late*a:pass": 1.0, "khalji*c:conscript": 0.25}
    with pytest.raises(ValueError, match="unknown weight"):
        set_dotted(weights, "play.choice.nonsense", 1.0)
    assert base_value("play.choice.terms.khalji*c:conscript") == 0.0
    seat = make("heuristic:play.choice.terms.khalji*c:conscript=0.25")
    seat.new_game("DS", random.Random(0), load_rules())
    khalji = CHOICE_CONTEXT.index("khalji")
    assert (khalji, {"c:conscript": 0.25}) in seat.policy.bot.terms


EXAMPLES = Path(__file__).parents[1] / "examples"


def _example_terms(seat: str) -> dict:
    """The learned choice's tables (context index: weights) of ``seat``'s bot under
    examples/ve-dynasty-terms.toml."""
    bot = make(f"heuristic:weights={EXAMPLES / 've-dynasty-terms.toml'}")
    bot.new_game(seat, random.Random(0), load_rules())
    return dict(bot.policy.bot.terms)


def test_the_example_dynasty_terms_weigh_vijayanagaras_choice_alone():
    # examples/ve-dynasty-terms.toml (made from examples/tune-dynasty-ve.toml by tune-bots):
    # Vijayanagara's options crossed with the Khalji Dynasty (2.7); the other seats unchanged
    space = load_space(EXAMPLES / "tune-dynasty-ve.toml")
    assert len(space.params["VE"]) == 11 and not space.params["DS"] and not space.params["BK"]
    khalji = CHOICE_CONTEXT.index("khalji")
    assert _example_terms("VE")[khalji]["a:event"] == pytest.approx(-0.8698)
    assert khalji not in _example_terms("DS") and khalji not in _example_terms("BK")


@settings(max_examples=60, deadline=None)
@given(
    weights=st.lists(st.floats(-3, 3, allow_nan=False), min_size=40, max_size=40),
    v=st.floats(-50, 50, allow_nan=False),
    late=st.floats(0, 1),
    margin=st.floats(-20, 20, allow_nan=False),
    pick=st.integers(0, 39),
)
def test_an_options_compiled_terms_score_it_exactly_as_its_features_do(
    weights, v, late, margin, pick
):
    # fitted_choice scores each option from ChoiceTerms.coefficients (2.3.3): the very sums
    # of terms_score over option_features, to the bit, so the games are the same
    names = sorted({n for a, c, d in OPTIONS for n, _ in feature_names(a, c, d)})
    terms = {}
    for i, w in enumerate(weights):  # own terms and terms crossed with each context feature
        name, z = (
            names[(i * 7 + pick) % len(names)],
            ("", *CHOICE_CONTEXT)[i % (len(CHOICE_CONTEXT) + 1)],
        )
        terms[f"{z}*{name}" if z else name] = w
    bot = HeuristicStrategy(layers=LAYERS)
    bot.new_game("DS", random.Random(0), load_rules())
    fb = bot.bot
    fb.terms = compiled = compile_terms(terms)
    ctx = choice_context(late, 4, margin, 0)
    for a, c, d in OPTIONS:
        plan = {"action": a, "command": c, "decree": d}
        want = fb.terms_score(option_features(v, plan), ctx)
        assert fb.terms_value(compiled.coefficients(a, c, d), v, ctx) == want


def test_a_term_crossed_with_an_unknown_feature_of_the_position_is_refused_in_one_line(tmp_path):
    path = tmp_path / "terms.toml"
    path.write_text('[seat.BK.play.choice.terms]\n"turn*a:pass" = 1.0\n')
    with pytest.raises(ValueError, match="no context 'turn'") as err:
        HeuristicStrategy(weights=str(path))
    assert "\n" not in str(err.value)


def test_a_weights_file_may_add_fitted_terms_but_no_other_unknown_weight(tmp_path):
    # play.choice.terms is empty in weights.toml: a fit's terms go there by name
    good = tmp_path / "good.toml"
    good.write_text('[seat.BK.play.choice.terms]\n"late*a:pass" = 1.5\n')
    bot = HeuristicStrategy(weights=str(good))
    bot.new_game("BK", random.Random(0), load_rules())
    assert bot.weights["play"]["choice"]["terms"]["late*a:pass"] == 1.5
    bad = tmp_path / "bad.toml"
    bad.write_text("[seat.BK.play.choice]\nbias = 1.0\n")
    with pytest.raises(ValueError, match="unknown weight"):
        HeuristicStrategy(weights=str(bad))


def test_collected_search_values_do_not_depend_on_the_number_of_workers():
    one = choice_fit.collect(2, 9, jobs=1, spec="heuristic-fast", rollouts=1, horizon=1)
    two = choice_fit.collect(2, 9, jobs=2, spec="heuristic-fast", rollouts=1, horizon=1)
    assert one == two
    assert {row[1] for row in one} == {0, 1, 2}


def test_search_values_by_the_lineups_playouts_are_those_the_default_mcts_scores(tmp_path):
    """``--playouts lineup``: the same positions and options, other playouts (the lineup's
    bots, as ``mcts`` plays them), cached apart from the unfitted ones."""
    args = dict(spec="heuristic", rollouts=1, horizon=1, cache=tmp_path, seats=(0,))
    plain = choice_fit.collect(1, 9, **args)
    lineup = choice_fit.collect(1, 9, by=choice_fit.LINEUP, **args)
    assert [r[:3] for r in plain] == [r[:3] for r in lineup]
    assert [r[3] for r in plain] != [r[3] for r in lineup]
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_search_values_with_value_model_leaves_score_the_same_options_otherwise(tmp_path):
    """``--value``: the same positions and options, their playouts' leaves scored by the
    learned value model (as ``mcts:value=1``), cached apart from the evaluation's."""
    args = dict(spec="heuristic-fast", rollouts=1, horizon=1, cache=tmp_path, seats=(0,))
    plain = choice_fit.collect(1, 9, **args)
    valued = choice_fit.collect(1, 9, value=choice_fit.SHIPPED, **args)
    assert [r[:3] for r in plain] == [r[:3] for r in valued]
    assert [r[3] for r in plain] != [r[3] for r in valued]
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_a_fit_with_a_bad_value_model_is_refused_before_it_plays(tmp_path, capsys):
    out = tmp_path / "choice.toml"
    argv = ["--games", "5", "--value", str(tmp_path / "none.toml"), "--out", str(out)]
    assert choice_fit.main(argv) == 2
    assert "--value: value model" in capsys.readouterr().err and not out.exists()


def test_a_fit_run_again_with_its_cache_plays_only_the_chunks_it_had_not_finished(
    tmp_path, monkeypatch
):
    import simulate

    monkeypatch.setattr(choice_fit, "CHUNK", 1)
    args = dict(spec="heuristic-fast", rollouts=1, horizon=1, cache=tmp_path)
    whole = choice_fit.collect(2, 9, **args)
    chunks = sorted(tmp_path.glob("*.json"))
    assert len(chunks) == 2
    chunks[1].unlink()  # as if stopped after the first game
    played, real = [], simulate.play_game
    monkeypatch.setattr(simulate, "play_game", lambda *a, **k: played.append(a) or real(*a, **k))
    assert choice_fit.collect(2, 9, **args) == whole
    assert len(played) == 1


def test_a_fit_of_one_seat_records_that_seat_in_the_same_games():
    args = dict(spec="heuristic-fast", rollouts=1, horizon=1)
    every = choice_fit.collect(2, 9, **args)
    ve = choice_fit.collect(2, 9, seats=(2,), **args)
    assert ve == [row for row in every if row[1] == 2]


def test_a_refit_of_one_seat_keeps_the_other_seats_and_needs_a_file_to_keep_them_from(
    tmp_path, capsys
):
    missing = tmp_path / "none.toml"
    assert choice_fit.main(["--seat", "VE", "--games", "5", "--out", str(missing)]) == 2
    assert "cannot be read" in capsys.readouterr().err and not missing.exists()
    out = tmp_path / "choice.toml"
    out.write_text(choice_fit.CHOICE_FILE.read_text())
    argv = ["--seat", "VE", "--games", "5", "--rollouts", "1", "--horizon", "0"]
    assert choice_fit.main([*argv, "--lineup", "heuristic-fast", "--out", str(out)]) == 0
    old, new = (tomllib.loads(p.read_text())["seat"] for p in (choice_fit.CHOICE_FILE, out))
    assert new["DS"] == old["DS"] and new["BK"] == old["BK"]
    assert new["VE"]["play"]["choice"]["fitted"] is True
    header = [line for line in out.read_text().splitlines() if line.startswith("# Then VE by:")]
    assert header[-1].endswith("--lineup heuristic-fast --seat VE")  # after the shipped file's


def test_the_default_lineup_plays_its_fitted_choice():
    # choice.toml is a layer of the default; heuristic-v1 plays without it
    bot = make("heuristic")
    play_game(1, {"DS": bot, "BK": "heuristic", "VE": "heuristic"})
    assert bot.policy.weights["play"]["choice"]["fitted"] is True
    old = make("heuristic-v1")
    play_game(1, {"DS": old, "BK": "heuristic", "VE": "heuristic"})
    assert old.policy.weights["play"]["choice"]["fitted"] is False


def test_a_fit_reads_positions_and_playouts_without_a_learned_choice():
    # so that rerunning the recorded command gives the shipped choice.toml, whatever it holds
    bot = choice_fit.unfitted()()
    play_game(2, {"DS": bot, "BK": "heuristic-fast", "VE": "heuristic-fast"})
    assert bot.policy.weights["play"]["choice"]["fitted"] is False
    assert "choice" not in (bot.policy.base_weights.get("seat", {}).get("DS", {}).get("play", {}))
    assert bot.seat.prior is None  # nor the prior fitted on the lineup's own games


def test_no_command_is_an_option_without_resources():
    # each Command spends 1 Resource per selected space (3.2-3.4), as k_action reads it
    broke: list = []
    for seed in range(1, 30):  # until a game where BK runs dry (seed 7 under v8)
        spy = Spy(**PLAIN)
        play_game(seed, {"DS": "heuristic-fast", "BK": spy, "VE": "heuristic-fast"})
        broke += [
            options
            for options, resources in zip(spy.options, spy.resources, strict=True)
            if resources <= 0
        ]
        if broke:
            break
    assert broke
    for options in broke:
        assert all(p.get("command") in (None, "none") for _, p in options)
