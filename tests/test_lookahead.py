"""The searches' shared searcher (``strategies/vijayanagara/search/searcher.py``), greedy's screen (issue 18,
part 4) and a lineup seat's search windows (``strategies/vijayanagara/composition.py``): a paused copy
finishes as if played at once, no candidate repeats another, and the screen keeps the
policy's own choice."""

from __future__ import annotations

import random

import pytest

from simulate import play_game
from simulate.vijayanagara.rules.dice import SeededDice
from strategies.registry import make
from strategies.vijayanagara.lineup import shipped
from strategies.vijayanagara.search.greedy import GreedySearch
from strategies.vijayanagara.searchers import GreedyStrategy, MCTSStrategy

OTHERS = {"BK": "heuristic-fast", "VE": "heuristic-fast"}


class Probe(GreedyStrategy):
    """Greedy that hands each searched choice (its candidates and a copy) to ``check``."""

    def __init__(self, check, **params) -> None:
        super().__init__(**params)
        self.check = check
        self.calls = 0

    def decide(self, obs, decision) -> str:
        if self.calls < 4:
            cands = self.search.candidates(obs, decision, True)
            state, dice = obs.determinise(random.Random(self.calls)), 1000 + self.calls
            self.check(self.search, obs, cands, state, dice)
        self.calls += 1
        return super().decide(obs, decision)


def _probe(check, seed: int = 5) -> Probe:
    bot = Probe(check)
    play_game(seed, OTHERS | {"DS": bot})
    assert bot.calls >= 4
    return bot


def test_a_paused_copy_finishes_the_card_as_if_played_at_once():
    # 2.3.3-2.3.7: each candidate's own turn, then the rest of the card, even when other
    # candidates were played on the same searcher in between
    def check(search, obs, cands, state, dice):
        direct = [search.play(state, c, dice, True).digest() for c in cands]
        started = [(search.start(state, c, dice), search.pause()) for c in cands]
        later = [search.finish(ctx, paused).digest() for ctx, paused in reversed(started)]
        assert later[::-1] == direct

    _probe(check)


def test_no_expanded_command_lacks_a_space_to_select():
    # 3.1.1: a Command with no space to select would only repeat another candidate
    def check(search, obs, cands, state, dice):
        bot = search.policy.bot
        for c in cands:
            if c.plan.get("force"):
                assert bot.spaces_for(obs, c.plan["command"])

    _probe(check)


def test_the_dice_of_a_candidate_are_those_of_its_seed():
    # common random numbers: every candidate of a choice rolls the same dice
    def check(search, obs, cands, state, dice):
        for cand in cands[:3]:
            assert search.start(state, cand, dice).dice.seed == dice

    _probe(check)


def test_seeded_dice_roll_the_stream_of_their_seed_made_at_the_first_roll():
    # a search branch's dice: random.Random(seed) exactly, none made for a branch with no battle
    dice = SeededDice(7)
    assert dice._rng is None
    expected = random.Random(7)
    assert [dice.random() for _ in range(5)] == [expected.random() for _ in range(5)]


def test_a_screen_wider_than_the_candidates_finishes_every_one():
    # every Command candidate is finished: the scores are those of the unscreened search
    def check(search, obs, cands, state, dice):
        bot = GreedySearch(search.policy, expand=True)
        bot.search = search
        default = search.default
        screened = search.screened(cands, [(state, dice)], default, len(cands))
        plain = bot._scores(cands, [(state, dice)])
        assert screened == pytest.approx(plain)

    _probe(check)


def test_a_narrow_screen_finishes_the_heuristics_choice_and_the_events():
    # 2.3.3: the heuristic's own action, what its learned choice would play, both Event
    # sides (2.3.4) and Pass (2.3.6) are always played to the end of the card; of the other
    # Command candidates, `screen`
    def check(search, obs, cands, state, dice):
        default = search.default
        scores = search.screened(cands, [(state, dice)], default, 1)
        finished = [c for c, v in zip(cands, scores, strict=True) if v > -1e17]
        assert [c for c in finished if search.is_own(c)]
        others = [
            c
            for c in finished
            if c.action not in ("event", "pass") and c.action != default and not search.is_own(c)
        ]
        assert len(others) <= 1
        for c in cands:
            if c.action in ("event", "pass") or (c.action == default and not c.plan.get("force")):
                assert c in finished

    _probe(check)


class Excluding(GreedyStrategy):
    """Greedy that records the moves it considered at each searched choice."""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.seen: list[tuple[str, str | None]] = []
        self.offered: set[str] = set()

    def decide(self, obs, decision) -> str:
        self.offered |= set(decision.options)
        cands = self.search.candidates(obs, decision, True)
        self.seen += [(c.action, c.plan.get("command")) for c in cands]
        return super().decide(obs, decision)


def test_a_search_never_considers_an_excluded_move():
    # 2.3.3: the Event (2.3.4) and the Attack (3.2.4, 3.3.4) are offered, but a search with
    # exclude=event+attack plays neither: an ablation of where its gain comes from
    bot = Excluding(exclude="event+attack")
    play_game(5, OTHERS | {"DS": bot})
    assert "event" in bot.offered and bot.seen
    assert not [m for m in bot.seen if m[0] == "event" or m[1] == "attack"]
    assert make("mcts:exclude=event").params["exclude"] == "event"


def test_an_unknown_excluded_move_is_refused():
    with pytest.raises(ValueError, match="exclude: unknown move 'evnt'"):
        GreedyStrategy(exclude="evnt")


def test_a_search_bots_screen_is_recorded_for_its_manifest():
    # a screened search plays other games: the manifest must say so (unscreened: no key)
    assert MCTSStrategy(screen=2).params["screen"] == 2
    assert "screen" not in MCTSStrategy().params


@pytest.mark.parametrize("value", [-1, 1.5, "two", True])
def test_a_bad_screen_is_refused(value):
    with pytest.raises(ValueError, match="screen must be a non-negative integer"):
        GreedyStrategy(screen=value)
    with pytest.raises(ValueError, match="screen must be a non-negative integer"):
        MCTSStrategy(screen=value)
    with pytest.raises(ValueError, match="screen must be a non-negative integer"):
        shipped("heuristic")(**{"play.screen": value})


@pytest.mark.parametrize("key", ["lookahead_cards", "mcts_cards"])
@pytest.mark.parametrize("value", [-1, 2.5, "late"])
def test_a_bad_end_game_length_is_refused(key, value):
    with pytest.raises(ValueError, match=f"{key} must be a non-negative integer"):
        shipped("heuristic")(**{f"play.{key}": value})


class Recorder:
    """Stands in for a seat's lookahead: notes the cards left at each call, then delegates."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.left: list[int] = []

    def choose(self, obs, decision):
        self.left.append(obs.cards_remaining)
        return self.inner.choose(obs, decision)


def _cards_left_at(spec: str, searcher: str) -> list[int]:
    """The cards left at each call of the Bahmani seat's ``searcher`` (``lookahead``,
    ``end_game``) in one game of ``spec`` there."""
    bot = make(spec)
    new_game = bot.new_game

    def watched(faction, rng, rules):
        new_game(faction, rng, rules)
        setattr(bot, searcher, Recorder(getattr(bot, searcher)))

    bot.new_game = watched
    play_game(7, OTHERS | {"DS": "heuristic-fast", "BK": bot})
    return getattr(bot, searcher).left


def test_an_end_game_lookahead_decides_only_in_the_last_cards():
    # play.lookahead_cards = N: the lookahead chooses only while at most N cards remain
    spec = "heuristic-fast:play.lookahead=greedy-full,play.screen=2,play.lookahead_cards=6"
    left = _cards_left_at(spec, "lookahead")
    assert left and max(left) <= 6


def _seats(spec: str) -> dict:
    from simulate.vijayanagara.rules.ruleset import load_rules

    rules = load_rules()
    out = {}
    for faction in ("DS", "BK", "VE"):
        bot = make(spec)
        bot.new_game(faction, random.Random(0), rules)
        out[faction] = bot
    return out


def test_the_default_looks_ahead_late_in_the_sultanate_seat_only():
    # heuristic v7 (tuned.toml): DS over the last 16 cards (v16: every candidate finishes
    # the card, no screen); the Bahmani bot's learned choice replaced its lookahead. v17:
    # the Sultanate's end-game mcts chooses instead, the lookahead only without it
    seats = _seats("heuristic")
    assert (seats["DS"].seat.lookahead_cards, seats["DS"].lookahead.screen) == (16, 0)
    assert seats["BK"].lookahead is None and seats["VE"].lookahead is None
    assert _seats("heuristic:play.mcts_cards=0")["DS"].end_game is None


def test_the_default_plays_a_small_mcts_in_every_seats_end_game():
    # heuristic v15 (tuned.toml): VE's last 6 cards, 4 playouts of 2 candidates on average;
    # v16: 2 cards deep, 2 other Commands and Decrees finishing the card in the screen;
    # v17: 2 playouts of 2, and the Sultanate's last 20 cards: 1 playout of 2, 2 cards
    # deep, 6 other Commands and Decrees finishing the card; v18: VE's 1 playout of 2; v20:
    # both seats 2 playouts of 3, each leaf scored by the learned value model; v21: the
    # Bahmani seat's last 14 cards too, at Vijayanagara's budget
    default, fast = _seats("heuristic"), _seats("heuristic-fast")
    ds, ve = default["DS"].end_game, default["VE"].end_game
    assert (default["DS"].seat.mcts_cards, default["VE"].seat.mcts_cards) == (20, 6)
    assert (ds.rollouts, ds.top, ds.horizon, ds.screen) == (2, 3, 2, 6)
    assert (ve.rollouts, ve.top, ve.horizon, ve.screen) == (2, 3, 2, 2)
    assert ds.prior is not None and ve.prior is None  # the Sultanate's fitted prior (v19)
    bk = default["BK"].end_game
    assert default["BK"].seat.mcts_cards == 14
    assert (bk.rollouts, bk.top, bk.horizon, bk.screen) == (2, 3, 2, 2)
    assert all(fast[f].end_game is None for f in fast)  # the fast tier searches nothing


def test_the_strong_tier_searches_every_end_game_at_mctss_budget():
    # v22-strong: the default's windows, screens, prior and value model, with mcts's own
    # budget (8 playouts of 4 candidates, 4 cards deep) instead of the default's 2 of 3, 2 deep
    strong, default = _seats("heuristic-strong"), _seats("heuristic")
    for f in ("DS", "BK", "VE"):
        mine, its = strong[f].end_game, default[f].end_game
        assert strong[f].seat.mcts_cards == default[f].seat.mcts_cards
        assert (mine.rollouts, mine.top, mine.horizon) == (8, 4, 4)
        assert mine.screen == its.screen and (mine.prior is None) == (its.prior is None)
        assert strong[f].policy.weights == default[f].policy.weights


def test_an_end_game_search_decides_only_in_the_last_cards():
    # play.mcts_cards = N: mcts chooses the action only while at most N cards remain
    left = _cards_left_at("heuristic-fast:play.mcts_cards=3", "end_game")
    assert left and max(left) <= 3


def test_an_end_game_search_stops_when_play_mcts_stop_cards_remain():
    # play.mcts_stop = K: mcts chooses only while more than K (and at most mcts_cards) cards
    # remain; the seat's lookahead takes the last K
    spec = (
        "heuristic-fast:play.lookahead=greedy-full,play.screen=2,play.lookahead_cards=4,"
        "play.mcts_cards=8,play.mcts_stop=4"
    )
    searched = _cards_left_at(spec, "end_game")
    looked = _cards_left_at(spec, "lookahead")
    assert searched and all(4 < n <= 8 for n in searched)
    assert looked and max(looked) <= 4


def test_an_end_game_search_plays_with_its_seats_budget():
    # play.mcts_rollouts, mcts_horizon, mcts_top and mcts_screen: a cheaper end-game search
    # than mcts's default (8, 4, 4, no screen), which it keeps when they are not given
    spec = (
        "heuristic:play.mcts_cards=3,play.mcts_rollouts=2,play.mcts_top=2,"
        "play.mcts_expand=false,play.mcts_screen=3,play.mcts_horizon=3"
    )
    search = _seats(spec)["VE"].end_game
    budget = (search.rollouts, search.horizon, search.top, search.expand, search.screen)
    assert budget == (2, 3, 2, False, 3)
    default = _seats("heuristic-fast:play.mcts_cards=3")["VE"].end_game
    budget = (default.rollouts, default.horizon, default.top, default.expand, default.screen)
    assert budget == (8, 4, 4, True, 0)


def test_an_end_game_screen_wider_than_the_candidates_changes_no_game():
    # play.mcts_screen = k finishes the card for the k best other Commands and Decrees
    # only: with k above their number, every candidate is finished, as without a screen
    plain = "heuristic-fast:play.mcts_cards=4,play.mcts_top=2,play.mcts_rollouts=1"
    for seed in (3, 4):
        wide = play_game(seed, OTHERS | {"DS": plain + ",play.mcts_screen=99"})
        assert wide.state_digest == play_game(seed, OTHERS | {"DS": plain}).state_digest


def test_an_end_game_search_that_would_never_play_is_refused():
    with pytest.raises(ValueError, match=r"mcts_stop must be below mcts_cards \(6\), got 6"):
        shipped("heuristic")(**{"play.mcts_cards": 6, "play.mcts_stop": 6})


def test_a_parameter_refused_by_one_seats_values_names_that_seat():
    # a spec's play parameter applies to every seat's values (tuned.toml): the Bahmani
    # search covers its last 14 cards (v21) and Vijayanagara's its last 6, so a stop at 16 is
    # refused in the first of them, and the error says so
    with pytest.raises(ValueError, match=r"^in the BK seat: mcts_stop must be below mcts_cards"):
        shipped("heuristic")(**{"play.mcts_stop": 16})
    with pytest.raises(ValueError, match=r"^in the VE seat: mcts_stop must be below mcts_cards"):
        shipped("heuristic")(**{"play.mcts_stop": 10})


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("mcts_rollouts", 0, "mcts_rollouts must be a positive integer"),
        ("mcts_top", 1.5, "mcts_top must be a positive integer"),
        ("mcts_horizon", -1, "mcts_horizon must be a non-negative integer"),
        ("mcts_screen", -2, "mcts_screen must be a non-negative integer"),
        ("mcts_stop", 1.5, "mcts_stop must be a non-negative integer"),
        ("mcts_expand", 1, "mcts_expand must be true or false"),
    ],
)
def test_a_bad_end_game_budget_is_refused(key, value, message):
    with pytest.raises(ValueError, match=message):
        shipped("heuristic")(**{f"play.{key}": value})


def test_a_seat_with_the_full_lookahead_plays_as_screened_greedy():
    # issue 18, part 4: play.lookahead = "greedy-full" with play.screen = k is greedy:screen=k
    # (over the whole game: play.lookahead_cards = 0; without the v17 end-game mcts)
    # (the default's seat values: greedy's; the fast tier keeps v12's Sultanate values)
    spec = (
        "heuristic:play.lookahead=greedy-full,play.screen=2,play.lookahead_cards=0,"
        "play.mcts_cards=0"
    )
    for seed in (3, 4):
        inside = play_game(seed, OTHERS | {"DS": spec})
        greedy = play_game(seed, OTHERS | {"DS": "greedy:screen=2"})
        assert inside.state_digest == greedy.state_digest
