"""The bots (issue 6): each returns only offered options, each is reproducible from its seed,
parameters and weight files work, and a bot that raises fails its game, not the process."""

from __future__ import annotations

import random

import pytest

from simulate import play_game
from simulate.vijayanagara.rules.context import StrategyError
from simulate.vijayanagara.rules.ruleset import load_rules
from strategies import registry
from strategies.vijayanagara.heuristic import HeuristicStrategy
from strategies.vijayanagara.heuristic.evaluation import Evaluator, delhi_projection
from strategies.vijayanagara.heuristic.weights import default_weights

TINY_MCTS = "mcts:rollouts=1,horizon=1"


class Checked:
    """Wraps a strategy: every answer must be one of the options offered; counts decisions."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "checked")
        self.kinds: dict[str, int] = {}

    def new_game(self, faction, rng, rules) -> None:
        self.inner.new_game(faction, rng, rules)

    def choose(self, observation, decision):
        choice = self.inner.choose(observation, decision)
        assert choice in decision.options, (decision.kind, choice, decision.options)
        self.kinds[decision.kind] = self.kinds.get(decision.kind, 0) + 1
        return choice


@pytest.mark.parametrize("spec", ["heuristic", "greedy"])
def test_bots_answer_only_offered_options(spec):
    for seed in (3, 4):
        team = tuple(Checked(registry.make(spec)) for _ in range(3))
        result = play_game(seed, team)
        assert result.cards_played > 0
        for bot in team:
            assert bot.kinds.get("action", 0) > 0


def test_mcts_answers_only_offered_options():
    team = (Checked(registry.make(TINY_MCTS)), registry.make("heuristic"), registry.make("random"))
    play_game(5, team)
    assert team[0].kinds["action"] > 0


def test_heuristic_plays_every_faction_sensibly_against_random():
    """A smoke test of sense: in its own seat the heuristic beats random opponents."""
    wins = 0
    for seed in range(6):
        for seat in ("DS", "BK", "VE"):
            team = {f: ("heuristic" if f == seat else "random") for f in ("DS", "BK", "VE")}
            wins += play_game(seed, team).winner == seat
    assert wins >= 14  # of 18; random in a seat wins about a third of that


@pytest.mark.parametrize("spec", ["heuristic", "greedy", TINY_MCTS, "random"])
def test_bots_are_reproducible_from_their_seed(spec):
    team = {"DS": spec, "BK": "heuristic", "VE": spec}
    a = play_game(11, team)
    b = play_game(11, team)
    assert a.state_digest == b.state_digest
    assert a.vp == b.vp


def test_different_seeds_give_different_games():
    assert play_game(1, "heuristic").state_digest != play_game(2, "heuristic").state_digest


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_heuristic_caches_never_change_a_choice(seed, monkeypatch):
    """Values kept across decisions (per space, per neighbourhood) must be exactly what a
    fresh computation gives: the same game with every value recomputed at every decision."""
    team = {"DS": "heuristic", "BK": "heuristic:aggression=0.8", "VE": "heuristic"}
    cached = play_game(seed, team)
    monkeypatch.setattr(HeuristicStrategy, "keep_caches", False)
    fresh = play_game(seed, team)
    assert fresh.state_digest == cached.state_digest
    assert fresh.vp == cached.vp


def test_bots_made_from_the_same_files_share_their_weights_until_a_file_changes(tmp_path):
    # a game makes 3 to 12 heuristic bots: their weights are merged once per process, and
    # read again when a file changes (its size or modification time)
    a, b = registry.make("heuristic").policy, registry.make("heuristic").policy
    assert a.shared is b.shared and a.weights is b.weights
    rules = load_rules()
    a.new_game("DS", random.Random(0), rules)
    b.new_game("BK", random.Random(0), rules)
    assert a.weights is not b.weights  # each seat plays its own values (tuned.toml)
    c = registry.make("heuristic").policy
    c.new_game("DS", random.Random(1), rules)
    assert c.weights is a.weights and c.terms is a.terms  # its choice terms compiled once
    w = tmp_path / "w.toml"
    w.write_text("[play]\naggression = 0.2\n")
    first = registry.make(f"heuristic:weights={w}").policy
    assert first.weights["play"]["aggression"] == 0.2
    w.write_text("[play]\naggression = 0.85\n")
    again = registry.make(f"heuristic:weights={w}").policy
    assert again.shared is not first.shared and again.weights["play"]["aggression"] == 0.85


def test_parameters_parse_are_recorded_and_change_the_weights():
    name, params = registry.parse_spec("heuristic:aggression=0.7,events=never")
    assert name == "heuristic" and params == {"aggression": 0.7, "events": "never"}
    bot = registry.make("heuristic:aggression=0.7")
    assert bot.params == {"aggression": 0.7, "version": "v21"}  # the bot version, for manifests
    assert bot.policy.weights["play"]["aggression"] == 0.7
    assert registry.params_of(bot) == {"aggression": 0.7, "version": "v21"}
    assert registry.make("heuristic").policy.weights["play"]["aggression"] == 0.5
    dotted = registry.make("heuristic:eval.DS.resources=0.3")
    assert dotted.policy.weights["eval"]["DS"]["resources"] == 0.3
    mcts = registry.make("mcts:rollouts=3,horizon=2,policy=random")
    assert mcts.params["rollouts"] == 3 and mcts.params["policy"] == "random"


def test_aggression_changes_play():
    """The priority scheme's willingness to Attack (heuristic-fast: no lookahead over it)."""
    others = {"BK": "heuristic-fast", "VE": "heuristic-fast"}
    calm = play_game(8, {"DS": "heuristic-fast:aggression=0.0", **others})
    bold = play_game(8, {"DS": "heuristic-fast:aggression=1.0", **others})
    assert calm.state_digest != bold.state_digest


@pytest.mark.parametrize(
    "spec, message",
    [
        ("heuristic:aggression=2", "aggression must be between 0 and 1"),
        ("heuristic:nonsense=1", "heuristic has no parameter 'nonsense'"),
        ("heuristic:eval.XX.vp=1", "unknown weight"),
        ("greedy:samples=0", "samples must be a positive integer"),
        ("mcts:rollouts=0", "rollouts must be a positive integer"),
        ("mcts:policy=magic", "rollout must be 'heuristic' or 'random'"),
        ("heuristic:weights=/no/such/file.toml", "not found"),
    ],
)
def test_bad_parameters_are_one_line_errors(spec, message):
    with pytest.raises(ValueError, match=message) as info:
        registry.make(spec)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("key", ["mcts_rolouts", "play.mcts_rolouts"])
def test_a_misspelled_search_setting_of_a_lineup_is_named_with_the_lineups_own(key):
    # issue 64: heuristic:mcts_rolouts=3 listed only the policy's weights, not its settings
    with pytest.raises(ValueError) as info:
        registry.make(f"heuristic-fast:{key}=3")
    text = str(info.value)
    assert f"heuristic-fast has no parameter {key!r} (did you mean mcts_rollouts?)" in text
    assert "its parameters: weights, aggression," in text
    assert "its search settings (NAME or play.NAME): lookahead, screen," in text
    assert "\n" not in text


def test_a_misspelled_dotted_weight_of_a_search_bot_lists_the_weights_where_it_points():
    # a weight's path is the policy's to refuse, with the weights of the table it names
    with pytest.raises(ValueError) as info:
        registry.make("mcts:eval.DS.rsources=1")
    assert "no 'rsources' in eval.DS (known: cavalry," in str(info.value)
    assert "did you mean" not in str(info.value)


def test_a_misspelled_parameter_of_a_strategy_naming_all_it_takes_lists_its_own():
    # a class without **params (openspiel-mcts): its parameters, not a TypeError's words
    with pytest.raises(ValueError) as info:
        registry.make("openspiel-mcts:simulatons=3")
    assert str(info.value) == (
        "strategy 'openspiel-mcts': openspiel-mcts has no parameter 'simulatons' (did you "
        "mean simulations?); its parameters: evaluator, simulations, uct_c, temperature, "
        "rollouts, search, fallback"
    )


def test_unknown_strategy_lists_the_known_ones():
    with pytest.raises(registry.UnknownStrategy) as info:
        registry.make("nosuchbot")
    text = str(info.value)
    assert "\n" not in text
    for name in ("greedy", "heuristic", "mcts", "random"):
        assert name in text


def test_registry_knows_lineups_builtins_entry_points_and_module_paths():
    known = registry.known()
    for name in ("random", "heuristic", "greedy", "mcts"):
        assert name in known
        assert registry.describe(name)
    cls = registry.resolve("strategies.vijayanagara.heuristic:HeuristicStrategy")
    assert cls is HeuristicStrategy
    assert registry.describe("heuristic").startswith("the default lineup: tuned heuristic")


def test_weights_toml_file_loads_and_merges(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[play]\naggression = 0.9\n\n[eval.BK]\ncavalry = 0.5\n")
    bot = registry.make(f"heuristic:weights={path}")
    policy = bot.policy
    assert policy.weights["play"]["aggression"] == 0.9
    assert policy.weights["eval"]["BK"]["cavalry"] == 0.5
    assert policy.weights["eval"]["VE"]["cavalry"] == default_weights()["eval"]["VE"]["cavalry"]
    assert bot.params["weights"] == str(path)
    assert len(bot.params["weights_sha256"]) == 64
    play_game(2, {"DS": "heuristic", "BK": f"heuristic:weights={path}", "VE": "heuristic"})
    bad = tmp_path / "bad.toml"
    bad.write_text("[play]\nsurprise = 1\n")
    with pytest.raises(ValueError, match="unknown weight"):
        registry.make(f"heuristic:weights={bad}")


class Boom:
    name = "boom"

    def new_game(self, faction, rng, rules) -> None:
        self.rng = rng

    def choose(self, observation, decision):
        if decision.kind == "action":
            raise RuntimeError("boom")
        return decision.options[0]


def test_a_raising_strategy_fails_the_game_with_a_strategy_error():
    with pytest.raises(StrategyError, match="boom"):
        play_game(1, (Boom(), registry.make("heuristic"), registry.make("heuristic")))


def test_a_strategy_answering_nonsense_fails_the_game():
    class Liar(Boom):
        def choose(self, observation, decision):
            return "not an option"

    with pytest.raises(StrategyError, match="not an offered option"):
        play_game(1, (registry.make("heuristic"), Liar(), registry.make("heuristic")))


def test_unknown_decisions_fall_back_to_an_offered_option():
    from simulate.vijayanagara.rules.decisions import Decision

    bot = HeuristicStrategy()
    rules = load_rules()
    bot.new_game("VE", random.Random(3), rules)

    class Obs:  # a bare board: the fallback does not depend on it
        pieces = bytearray(rules.board.n * 10)
        tributary = [True] * rules.board.n
        control = [-1] * rules.board.n
        resources = cavalry = influence = [0, 0, 0]
        available = [0] * 8
        dynasty = 0
        cards_remaining = 10
        timurid_drawn = 0

    d = Decision("brand_new_kind", "VE", ("a", "b", "c"))
    assert bot.choose(Obs(), d) in d.options


def test_the_heuristic_values_the_position_of_each_decision():
    """The bot reads the Observation afresh at every decision (2.3.3), even when the state's
    lists were replaced in between: with no Resources left it can only Pass (2.3.6)."""
    from simulate.vijayanagara.rules.decisions import Decision
    from simulate.vijayanagara.rules.observation import Observation
    from simulate.vijayanagara.rules.ruleset import load_rules
    from simulate.vijayanagara.rules.setup import new_state

    rules = load_rules()
    st = new_state(rules, random.Random(0))
    obs = Observation(rules, st)
    bot = HeuristicStrategy(events="never")
    bot.new_game("VE", random.Random(3), rules)
    d = Decision("action", "VE", ("command", "limited", "pass"), "1")
    st.resources = [10, 10, 12]
    assert bot.choose(obs, d) != "pass"
    st.resources = [10, 10, 0]
    assert bot.choose(obs, d) == "pass"


def test_evaluation_scores_and_projection():
    from simulate.vijayanagara.rules.ruleset import load_rules
    from simulate.vijayanagara.rules.setup import new_state

    rules = load_rules()
    st = new_state(rules, random.Random(0))
    ev = Evaluator(rules, default_weights())
    s = ev.scores(st)
    assert s[0] > s[1] and s[0] > s[2]  # the Sultanate starts with all 18 VP (2.1)
    assert delhi_projection(0, 20) > 2.9 and delhi_projection(12, 0) < -2.9
    assert delhi_projection(6, 4) < delhi_projection(6, 10)


def test_the_fast_tier_plays_its_own_sultanate_choice_biases_and_the_default_bk_and_ve():
    # fast.toml: v10's Sultanate biases were tuned with its lookahead, which the fast tier
    # does not play (README, "Tuning the bots", step 11)
    from strategies.vijayanagara.heuristic.weights import FAST_FILE, read_weights_file

    own = read_weights_file(FAST_FILE)["seat"]["DS"]["play"]["choice"]
    rules = load_rules()
    fast, default = registry.make("heuristic-fast"), registry.make("heuristic")
    fast.new_game("DS", random.Random(0), rules)
    default.new_game("DS", random.Random(0), rules)
    mine, theirs = fast.policy.weights["play"]["choice"], default.policy.weights["play"]["choice"]
    assert mine["scale"] == own["scale"] and mine["action"] == own["action"]
    assert mine["action"] != theirs["action"]
    for seat in ("BK", "VE"):
        fast.new_game(seat, random.Random(0), rules)
        default.new_game(seat, random.Random(0), rules)
        # the default's very policy: its values, and its model of the other seats
        assert fast.policy.base_weights == default.policy.base_weights
