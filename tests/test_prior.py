"""The end-game search's fitted prior (``strategies/vijayanagara/search/prior.py``: a prior file's
``mcts_rank`` and ``mcts_pick``; issue 18, part 4) and its fit
(``strategies/vijayanagara/fitting/prior_fit.py``): terms are checked in one line, a term steers which kind
of move (2.3.3) the search plays, the default lineup plays its prior and its tiers do not,
and the fit is deterministic."""

from __future__ import annotations

import random

import pytest

from simulate import play_game
from simulate.vijayanagara.rules.ruleset import load_rules
from strategies.registry import make
from strategies.vijayanagara.fitting import prior_fit
from strategies.vijayanagara.search.prior import compile_prior, features

OTHERS = {"BK": "heuristic-fast", "VE": "heuristic-fast"}


def test_an_empty_prior_is_no_prior():
    assert compile_prior({}, {}) is None


@pytest.mark.parametrize(
    "rank, pick, match",
    [
        ({"c:fly": 1.0}, {}, r"^mcts_rank: unknown term 'c:fly'"),
        ({}, {"d:conscript*late": 1.0}, r"^mcts_pick: unknown term 'd:conscript\*late'"),
        ({"own": "high"}, {}, r"^mcts_rank\.own must be a number, got 'high'"),
        ({}, {"card": True}, r"^mcts_pick\.card must be a number, got True"),
    ],
)
def test_a_bad_prior_term_is_refused_in_one_line(rank, pick, match):
    with pytest.raises(ValueError, match=match) as err:
        compile_prior(rank, pick)
    assert "\n" not in str(err.value)


def test_a_bad_prior_file_is_refused_in_one_line_naming_it(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[mcts_pick]\n"c:fly" = 1.0\n')
    with pytest.raises(ValueError, match="prior file 'bad.toml': mcts_pick: unknown term"):
        make(f"heuristic:play.mcts_prior={bad}")
    bad.write_text("[mcts_bias]\n")
    with pytest.raises(ValueError, match="unknown table 'mcts_bias'"):
        make(f"heuristic:play.mcts_prior={bad}")
    with pytest.raises(ValueError, match="prior file .* not found"):
        make(f"heuristic:play.mcts_prior={tmp_path / 'none.toml'}")


def test_the_pick_weighs_the_card_and_the_playouts_and_adds_its_terms():
    prior = compile_prior({}, {"card": 0.3, "playouts": 0.4, "c:march": 1.0, "c:march*late": -2.0})
    assert (prior.card, prior.playouts, prior.picks) == (0.3, 0.4, True)
    march = features("command", {"command": "march"}, own=False)
    assert prior.bias(prior.pick, march, 0.0) == 1.0
    assert prior.bias(prior.pick, march, 0.5) == 0.0  # 1.0 - 0.5 * 2.0


def test_a_candidate_is_described_by_its_action_command_decree_side_and_ownership():
    # 2.3.3: the action and its Command and Decree; 2.3.4: the Event by side
    assert features("command_decree", {"command": "govern", "decree": "campaign"}, own=True) == (
        "a:command_decree",
        "c:govern",
        "d:campaign",
        "own",
    )
    assert features("event", {"side": "shaded"}, own=False) == ("a:event", "s:shaded")


class Spy:
    """A seat's bot whose top-level choices in its end-game search's window are recorded."""

    def __init__(self, spec: str) -> None:
        self.bot = make(spec)
        self.passes: list[bool] = []

    def new_game(self, faction, rng, rules) -> None:
        self.bot.new_game(faction, rng, rules)

    def choose(self, obs, decision):
        choice = self.bot.choose(obs, decision)
        searched = 0 < obs.cards_remaining <= self.bot.seat.mcts_cards
        offered = "pass" in decision.options and len(decision.options) > 1
        if decision.kind == "action" and searched and offered:
            self.passes.append(choice == "pass")
        return choice


def _passes(spec: str) -> list[bool]:
    spy = Spy(spec)
    for seed in (3, 4):
        play_game(seed, OTHERS | {"DS": spy})
    return spy.passes


def test_a_prior_term_steers_the_end_game_search_to_that_move(tmp_path):
    # a huge bias for Pass (2.3.3) in both the ranking and the pick: the Sultanate's
    # end-game search passes whenever it may; without the prior it does not
    steer = tmp_path / "steer.toml"
    steer.write_text('[mcts_rank]\n"a:pass" = 100.0\n[mcts_pick]\n"a:pass" = 100.0\n')
    steered = _passes(f"heuristic:play.mcts_prior={steer}")
    plain = _passes("heuristic:play.mcts_prior=,play.mcts_top=2")
    assert steered and all(steered)
    assert len(plain) >= len(steered) // 2 and not all(plain)


def test_the_default_lineup_and_the_strong_tier_play_the_prior_and_the_other_tiers_do_not():
    rules = load_rules()

    def prior(spec: str):
        bot = make(spec)
        bot.new_game("DS", random.Random(1), rules)
        return None if bot.end_game is None else bot.end_game.prior

    assert prior("heuristic") is not None
    assert prior("heuristic-strong") is not None  # the default's, over a bigger search (v22)
    assert prior("heuristic-fast") is None and prior("heuristic-v1") is None


def test_the_prior_fit_is_deterministic_and_writes_a_prior_the_bot_plays(tmp_path):
    outs = []
    for name in ("a.toml", "b.toml"):
        out = tmp_path / name
        args = ["--games", "5", "--seed", "3", "--rollouts", "1", "--horizon", "1"]
        assert prior_fit.main([*args, "--out", str(out)]) == 0
        outs.append(out)
    body = [p.read_text().split("\n\n", 1)[1] for p in outs]  # past the header (its timing)
    assert body[0] == body[1]
    bot = make(f"heuristic:play.mcts_prior={outs[0]}")
    bot.new_game("DS", random.Random(1), load_rules())
    assert bot.end_game.prior.picks and bot.end_game.prior.rank[0]


def test_the_prior_fit_refuses_a_bad_budget_in_one_line(capsys):
    assert prior_fit.main(["--games", "2"]) == 2
    assert capsys.readouterr().out.count("\n") == 1


@pytest.mark.parametrize("valued", [False, True])
def test_the_fit_scores_the_playout_as_the_seats_small_search_scores_it(valued):
    """Its playout by the small search's own score (its value model's leaves, issue 43), its
    values by mcts's unless ``--value`` asks for the same value model."""
    from simulate.seeds import game_seed
    from simulate.vijayanagara.result import FACTIONS

    class Marked(prior_fit.Recorder):
        def new_game(self, faction, rng, rules):
            super().new_game(faction, rng, rules)
            self.small.score = lambda state: 123.0

    rec = Marked("heuristic", rollouts=1, horizon=1, value=valued)
    team = tuple(rec if f == "DS" else make(OTHERS[f]) for f in FACTIONS)
    play_game(game_seed(3, 0), team)
    cands = [c for r in rec.rows for c in r["cands"]]
    assert cands and all(c["playout"] == 123.0 for c in cands)
    assert all(c["value"] == 123.0 for c in cands) is valued


def test_a_prior_given_by_the_spec_is_recorded_by_its_digest(tmp_path):
    # a study resumed after the file changed is refused (simulate/study/bot_versions.py)
    import hashlib

    from strategies.registry import params_of

    mine = tmp_path / "prior.toml"
    mine.write_text('[mcts_rank]\n"c:march" = 0.5\n')
    params = params_of(make(f"heuristic:play.mcts_prior={mine}"))
    assert params["play.mcts_prior_sha256"] == hashlib.sha256(mine.read_bytes()).hexdigest()
