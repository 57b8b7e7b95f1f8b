"""``vsim ladder``: deviation gains on common seeds, resumable, and one-line bad inputs."""

from __future__ import annotations

import json
import math

import numpy as np
import polars as pl
import pytest
from cli_support import invoke, listing, stops
from scipy import stats as scipy_stats
from statsmodels.stats.proportion import proportion_confint

from simulate.analysis import ladder as analysis
from simulate.analysis import ladder_cards, ladder_moves
from simulate.study import dataset
from simulate.study.errors import RunError
from simulate.study.ladder import Ladder, play_ladder

SAME_AS_RANDOM = "strategies.policies.random:RandomStrategy"  # another spec, the same bot


def _ladder(out, games=("16",), challengers=("heuristic",), jobs=1, field=("all=random",), seed=5):
    spec = Ladder.create(field, challengers, games, seed=seed)
    return play_ladder(spec, out, jobs=jobs)


def test_a_challenger_that_plays_like_the_field_gains_exactly_nothing(tmp_path):
    _ladder(tmp_path / "l", games=("12",), challengers=(SAME_AS_RANDOM,))
    _, found = analysis.gains(tmp_path / "l")
    assert {g.faction for g in found} == {"DS", "BK", "VE"}
    for g in found:  # same seeds, same play: every game won by the same Faction
        assert g.games == 12
        assert g.gain == 0.0 and g.vp_gain == 0.0 and g.win_field == g.win_challenger
        assert g.gain_lo <= 0.0 <= g.gain_hi


def test_a_seat_no_challenger_beats_is_said_in_plain_words(tmp_path):
    out = tmp_path / "l"
    result = invoke(
        "ladder", "--field", "all=random", "--challenger", SAME_AS_RANDOM, "--games", "8",
        "--seed", "5", "--jobs", "1", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (
        f"exploitability DS: no tested challenger beats the field in this seat (the closest, "
        f"{SAME_AS_RANDOM}: +0.0 percentage points" in result.output
    )
    worse = {"gain": -0.05, "lo": -0.09, "hi": -0.01, "challenger": "random"}
    assert analysis.seat_words(worse).startswith("no tested challenger beats the field")
    better = {"gain": 0.05, "lo": 0.02, "hi": 0.08, "challenger": "mcts"}
    assert analysis.seat_words(better).startswith("mcts beats the field in this seat by +5.0")
    assert "in words" in (out / "report" / "ladder.md").read_text(encoding="utf-8")
    # where each gain is made, a line per seat: nothing anywhere for the same bot
    assert f"VE {SAME_AS_RANDOM}: +0.00 VP of margin before card" in result.output


def test_a_ladder_folder_of_other_settings_is_refused_in_words(tmp_path):
    out = tmp_path / "l"
    args = ["ladder", "--field", "all=random", "--challenger", SAME_AS_RANDOM, "--seed", "5",
            "--jobs", "1", "--out", str(out), "--quiet"]  # fmt: skip
    assert invoke(*args, "--games", "4").exit_code == 0
    again = invoke(*args, "--games", "3")
    assert again.exit_code == 2
    line = again.output.strip().splitlines()[-1]
    assert f"games of {SAME_AS_RANDOM}: 4 there, 3 now" in line
    assert "{" not in line and "'" not in line


def _newcombe_method_10(n11: int, n10: int, n01: int, n00: int) -> tuple[float, float]:
    """Newcombe's paired interval written afresh from the paper, with statsmodels' Wilson."""
    n = n11 + n10 + n01 + n00
    p1, p2 = (n11 + n10) / n, (n11 + n01) / n
    l1, u1 = proportion_confint(n11 + n10, n, alpha=0.05, method="wilson")
    l2, u2 = proportion_confint(n11 + n01, n, alpha=0.05, method="wilson")
    a, b, c, d = n11, n10, n01, n00
    denom = (a + b) * (c + d) * (a + c) * (b + d)
    phi = 0.0
    if denom:
        num = a * d - b * c
        phi = (num - n / 2) / math.sqrt(denom) if num > n / 2 else min(num, 0) / math.sqrt(denom)
    delta = p2 - p1
    lo = delta - math.sqrt((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2)
    hi = delta + math.sqrt((u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2)
    return max(lo, -1.0), min(hi, 1.0)


def test_gains_and_intervals_agree_with_an_independent_computation(tmp_path):
    out = tmp_path / "l"
    _ladder(out, games=("24",), challengers=("heuristic",))
    _, found = analysis.gains(out)
    games = pl.read_parquet(out / "games" / "*.parquet")
    field = games.filter(pl.col("strategy_DS") == "random", pl.col("strategy_BK") == "random")
    field = field.filter(pl.col("strategy_VE") == "random")
    for g in found:
        others = [f for f in ("DS", "BK", "VE") if f != g.faction]
        mine = games.filter(
            pl.col(f"strategy_{g.faction}") == "heuristic",
            *[pl.col(f"strategy_{f}") == "random" for f in others],
        )
        pairs = mine.join(field, on="game_index", suffix="_f").sort("game_index")
        won = (pairs["winner"] == g.faction).fill_null(False).to_list()
        won_f = (pairs["winner_f"] == g.faction).fill_null(False).to_list()
        n11 = sum(x and y for x, y in zip(won_f, won, strict=True))
        n10 = sum(x and not y for x, y in zip(won_f, won, strict=True))
        n01 = sum(y and not x for x, y in zip(won_f, won, strict=True))
        n00 = len(won) - n11 - n10 - n01
        assert g.games == len(won) == 24
        assert g.gain == pytest.approx((n01 - n10) / 24)
        assert (g.gain_lo, g.gain_hi) == pytest.approx(_newcombe_method_10(n11, n10, n01, n00))
        vp = (pairs[f"vp_{g.faction}"] - pairs[f"vp_{g.faction}_f"]).mean()
        assert g.vp_gain == pytest.approx(vp)
        # 5.0: the margin is the seat's VP less the best other Faction's, per game
        change = [
            (row[f"vp_{g.faction}"] - max(row[f"vp_{f}"] for f in others))
            - (row[f"vp_{g.faction}_f"] - max(row[f"vp_{f}_f"] for f in others))
            for row in pairs.iter_rows(named=True)
        ]
        mean = sum(change) / len(change)
        half = (
            scipy_stats.t.ppf(0.975, len(change) - 1) * np.std(change, ddof=1) / len(change) ** 0.5
        )
        assert g.margin_gain == pytest.approx(mean)
        assert (g.margin_lo, g.margin_hi) == pytest.approx((mean - half, mean + half))


def test_jobs_and_resume_give_the_same_rows(tmp_path):
    _ladder(tmp_path / "one", jobs=1)
    _ladder(tmp_path / "two", jobs=2)
    digest = dataset.dataset_digest(tmp_path / "one")
    assert dataset.dataset_digest(tmp_path / "two") == digest
    # an interrupted ladder: drop some finished shards, then run the same ladder again
    shards = dataset.shards(tmp_path / "two", "games")
    for p in shards[::2]:
        for table in ("games", "turns"):
            (tmp_path / "two" / table / p.name).unlink(missing_ok=True)
    again = _ladder(tmp_path / "two", jobs=2)
    assert 0 < again.already < again.total and again.played == again.total - again.already
    assert dataset.dataset_digest(tmp_path / "two") == digest
    assert _ladder(tmp_path / "two", jobs=2).played == 0


def test_a_ladder_of_one_seat_plays_the_same_games_as_that_seat_of_the_full_ladder(tmp_path):
    # --seat DS: a new bot for one Faction against the field, on the same seeds
    full = Ladder.create(["all=random"], ["heuristic"], ["12"], seed=5)
    one = Ladder.create(["all=random"], ["heuristic"], ["12"], seed=5, seats=["DS"])
    assert "seats" not in full.config() and one.config()["seats"] == ["DS"]
    assert [r.key for r in one.rungs()] == ["field", "DS~heuristic"]
    play_ladder(full, tmp_path / "full", jobs=1)
    play_ladder(one, tmp_path / "one", jobs=1)
    _, gains_full = analysis.gains(tmp_path / "full")
    _, gains_one = analysis.gains(tmp_path / "one")
    assert [g.to_json() for g in gains_one] == [
        g.to_json() for g in gains_full if g.faction == "DS"
    ]
    with pytest.raises(RunError, match="a seat is one of DS, BK, VE"):
        Ladder.create(["all=random"], ["heuristic"], seats=["ds"])


def test_per_challenger_game_counts_and_the_ladder_json(tmp_path):
    out = tmp_path / "l"
    result = invoke(
        "ladder", "--field", "all=random", "--challenger", "heuristic", "--challenger",
        SAME_AS_RANDOM, "--games", "10", "--games", "heuristic=6", "--seed", "3", "--jobs", "1",
        "--out", str(out), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((out / "ladder.json").read_text())
    games = {(r["faction"], r["challenger"]): r["games"] for r in data["records"]}
    assert games[("DS", "heuristic")] == 6 and games[("VE", SAME_AS_RANDOM)] == 10
    keys = {"faction", "challenger", "games", "win_field", "win_challenger", "gain"}
    keys |= {"margin_gain", "margin_lo", "margin_hi"}
    assert keys | {"gain_lo", "gain_hi", "vp_gain"} <= set(data["records"][0])
    assert set(data["exploitability"]) == {"DS", "BK", "VE"}
    assert (out / "report" / "ladder.html").is_file() and (out / "report" / "ladder.png").is_file()
    assert "exploitability DS" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--challenger", "no-such-bot"], "no-such-bot"),
        (["--field", "all=random", "--challenger", "random"], "the field's bot in every seat"),
        (["--challenger", "random", "--games", "0"], "must be 1.."),
        (["--challenger", "random", "--games", "greedy=5"], "is not a --challenger"),
        (
            [
                "--field",
                "all=random",
                "--field",
                "DS=heuristic",
                "--challenger",
                "heuristic",
                "--seat",
                "DS",
            ],
            "the field's bot in seat DS",
        ),
        (["--challenger", "random", "--seat", "XX"], "a seat is one of DS, BK, VE"),
    ],
)
def test_bad_ladder_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    before = listing(tmp_path)
    result = invoke("ladder", *args, "--out", str(tmp_path / "l"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert listing(tmp_path) == before


@pytest.mark.parametrize(("exc", "code", "message"), stops("ladder"))
def test_a_stopped_ladder_says_so_in_one_line_keeps_its_games_and_resumes(
    tmp_path, monkeypatch, exc, code, message
):
    from simulate.study import runs as runs_mod  # a ladder's session plays through runs

    def cli(out):
        return invoke(
            "ladder", "--field", "all=random", "--challenger", SAME_AS_RANDOM, "--games", "16",
            "--seed", "5", "--jobs", "1", "--quiet", "--out", str(out),
        )  # fmt: skip

    assert cli(tmp_path / "whole").exit_code == 0
    real = runs_mod.play_into

    def play_into(*args, **kw):  # 3 batches are written (each before it is yielded), then stop
        for i, result in enumerate(real(*args, **kw)):
            if i == 2:
                raise exc
            yield result

    with monkeypatch.context() as m:
        m.setattr(runs_mod, "play_into", play_into)
        stopped = cli(tmp_path / "cut")
    assert stopped.exit_code == code and message in stopped.output
    kept = len(dataset.shards(tmp_path / "cut", "games"))
    assert kept == 3 < len(dataset.shards(tmp_path / "whole", "games"))
    again = cli(tmp_path / "cut")
    assert again.exit_code == 0, again.output
    assert dataset.dataset_digest(tmp_path / "cut") == dataset.dataset_digest(tmp_path / "whole")


def test_pooled_ladders_count_every_paired_game_of_each_cell(tmp_path):
    # a second seed for a cell near its bound: its paired games add up, gain by gain
    _ladder(tmp_path / "a", games=("12",), seed=5)
    _ladder(tmp_path / "b", games=("12",), seed=6)
    _, one = analysis.gains(tmp_path / "a")
    _, two = analysis.gains(tmp_path / "b")
    pooled = analysis.pooled_gains([tmp_path / "a", tmp_path / "b"])
    assert [(g.faction, g.challenger) for g in pooled] == [(g.faction, g.challenger) for g in one]
    for p, a, b in zip(pooled, one, two, strict=True):
        assert p.games == 24
        assert p.gain == pytest.approx((a.gain + b.gain) / 2)
        assert p.gain_lo <= p.gain <= p.gain_hi


def test_ladders_of_one_seed_or_of_other_fields_do_not_pool(tmp_path):
    from simulate.analysis.run import ReportError

    _ladder(tmp_path / "a", games=("6",), seed=5)
    _ladder(tmp_path / "same", games=("6",), seed=5)
    _ladder(tmp_path / "other", games=("6",), seed=6, field=("all=heuristic-v1",))
    with pytest.raises(ReportError, match=r"share master seed 5 for .+: the same games, not more"):
        analysis.pooled_gains([tmp_path / "a", tmp_path / "same"])
    with pytest.raises(ReportError, match=r"measure different fields.+game 0 of .+ ends otherwise"):
        analysis.pooled_gains([tmp_path / "a", tmp_path / "other"])


def test_a_field_written_otherwise_that_plays_the_same_games_pools(tmp_path):
    # the same bots by another name (a lineup file and its specs, a version renamed): the
    # first ladder's field replays the other's first field games exactly, so the cells pool
    _ladder(tmp_path / "a", games=("6",), seed=5)
    _ladder(tmp_path / "b", games=("6",), seed=6, field=(f"all={SAME_AS_RANDOM}",))
    notes: list[str] = []
    pooled = analysis.pooled_gains([tmp_path / "a", tmp_path / "b"], notes=notes)
    assert {g.games for g in pooled} == {12}
    assert len(notes) == 1 and "plays its first 3 field games exactly" in notes[0]


def _recorded_as(ladder, name):
    """Rewrite a ladder's manifest as if its challenger had been recorded as ``name`` by an
    older version (a tier renamed since, or another bot under that name)."""
    path = ladder / "manifest.json"
    man = json.loads(path.read_text())
    (old,) = man["challengers"]
    man["challengers"] = {name: {f: {"version": "old"} for f in ("DS", "BK", "VE")}}
    for rung in man["lineups"]:
        if rung["challenger"] == old:
            rung["challenger"] = name
    path.write_text(json.dumps(man))


def test_a_challenger_recorded_otherwise_that_plays_the_same_games_pools(tmp_path):
    # a challenger whose recorded parameters changed (a tier renamed v20-strong -> v21-strong)
    # pools when, as it resolves today, it replays its first games in each ladder and seat
    _ladder(tmp_path / "a", games=("6",), challengers=(SAME_AS_RANDOM,), seed=5)
    _ladder(tmp_path / "b", games=("6",), challengers=(SAME_AS_RANDOM,), seed=6)
    _recorded_as(tmp_path / "b", SAME_AS_RANDOM)
    notes: list[str] = []
    pooled = analysis.pooled_gains([tmp_path / "a", tmp_path / "b"], notes=notes)
    assert {g.games for g in pooled} == {12}
    assert len(notes) == 1 and "recorded with other parameters" in notes[0]


def test_a_challenger_recorded_otherwise_that_plays_other_games_does_not_pool(tmp_path):
    from simulate.analysis.run import ReportError

    _ladder(tmp_path / "a", games=("6",), challengers=(SAME_AS_RANDOM,), seed=5)
    _ladder(tmp_path / "b", games=("6",), challengers=("heuristic-v1",), seed=6)
    _recorded_as(tmp_path / "b", SAME_AS_RANDOM)
    with pytest.raises(ReportError, match=r"other parameters .+ do not pool .+ ends otherwise"):
        analysis.pooled_gains([tmp_path / "a", tmp_path / "b"])


def test_ladders_of_one_seed_pool_the_cells_they_do_not_share(tmp_path):
    # other challengers on the same games (one master seed) add cells, not games: each cell
    # pools only the ladders that play it
    _ladder(tmp_path / "a", games=("6",), seed=5)
    _ladder(tmp_path / "b", games=("6",), seed=6)
    _ladder(tmp_path / "c", games=("6",), challengers=(SAME_AS_RANDOM,), seed=5)
    pooled = analysis.pooled_gains([tmp_path / "a", tmp_path / "b", tmp_path / "c"])
    games = {(g.faction, g.challenger): g.games for g in pooled}
    assert len(games) == 6
    assert {n for (_, c), n in games.items() if c == "heuristic"} == {12}
    assert {n for (_, c), n in games.items() if c == SAME_AS_RANDOM} == {6}


def test_ladder_pool_prints_and_writes_the_pooled_gains(tmp_path):
    _ladder(tmp_path / "a", games=("6",), seed=5)
    _ladder(tmp_path / "b", games=("6",), seed=6)
    out = tmp_path / "pooled.json"
    result = invoke("ladder-pool", str(tmp_path / "a"), str(tmp_path / "b"), "--json", str(out))
    assert result.exit_code == 0, result.output
    assert "over 12 paired games" in result.output
    payload = json.loads(out.read_text())
    records = payload["records"]
    assert {r["games"] for r in records} == {12} and len(records) == 3
    # the seats' moves pool too: both ladders' pairs on the first card
    assert {r["games"] for r in payload["card_moves"] if r["turn"] == 1} == {12}
    assert [d["faction"] for d in payload["played_differently"]] == ["DS", "BK", "VE"]


def test_ladder_pool_records_its_ladders_relative_to_the_working_folder(tmp_path, monkeypatch):
    # issue 64: pooled gains pasted into exploitability.json cited /tmp/l760...; a folder
    # inside the working folder is recorded from it, one outside it as given
    work = tmp_path / "work"
    _ladder(work / "runs" / "a", games=("6",), seed=5)
    _ladder(tmp_path / "b", games=("6",), seed=6)
    monkeypatch.chdir(work)
    out = work / "pooled.json"
    result = invoke(
        "ladder-pool", str(work / "runs" / "a"), str(tmp_path / "b"), "--json", str(out)
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["ladders"] == ["runs/a", str(tmp_path / "b")]


@pytest.mark.parametrize(
    ("args", "message"),
    [((), "pooling needs at least two ladders"), (("nowhere",), "holds no ladder")],
)
def test_bad_ladder_pool_input_is_one_line(tmp_path, args, message):
    _ladder(tmp_path / "a", games=("4",), seed=5)
    result = invoke("ladder-pool", str(tmp_path / "a"), *(str(tmp_path / x) for x in args))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


# -- where the gain is made (ladder_cards) --------------------------------------------------


def test_a_challenger_that_plays_like_the_field_gains_nothing_at_any_card(tmp_path):
    _ladder(tmp_path / "l", games=("8",), challengers=(SAME_AS_RANDOM,))
    by_card = analysis.card_gains([tmp_path / "l"])
    assert {(g.faction, g.turn) for g in by_card} >= {(f, 1) for f in ("DS", "BK", "VE")}
    assert all(g.margin_gain == 0.0 and g.games <= 8 for g in by_card)
    assert all(s["rise"] == 0.0 for s in ladder_cards.steps(by_card))


def test_the_gain_after_a_card_is_the_mean_paired_change_of_the_seats_margin(tmp_path):
    # 5.0: the seat's VP less the best other Faction's, after the card, challenger - field
    out = tmp_path / "l"
    _ladder(out, games=("10",), challengers=("heuristic-fast",))
    turns = pl.read_parquet(out / "turns" / "*.parquet")
    after: dict[tuple, dict] = {}
    units: dict[tuple, int] = {}
    for row in turns.iter_rows(named=True):  # each Faction's last line of each card
        key = (row["lineup"], row["game_index"], row["turn"])
        after.setdefault(key, {})[row["faction"]] = row["vp"]
        units[(*key, row["faction"])] = row["units_on_map"]
    by_card = analysis.card_gains([out])
    for g in [g for g in by_card if g.turn in (1, 12, 20)]:
        rung = next(r["key"] for r in json.loads((out / "manifest.json").read_text())["lineups"]
                    if r.get("seat") == g.faction)  # fmt: skip

        def margin(vp, seat=g.faction):
            return vp[seat] - max(v for f, v in vp.items() if f != seat)

        diffs = [
            margin(after[(rung, i, g.turn)]) - margin(after[("field", i, g.turn)])
            for i in range(10)
            if (rung, i, g.turn) in after and ("field", i, g.turn) in after
        ]
        assert g.games == len(diffs)
        assert g.margin_gain == pytest.approx(np.mean(diffs))
        held = [
            units[(rung, i, g.turn, g.faction)] - units[("field", i, g.turn, g.faction)]
            for i in range(10)
            if (rung, i, g.turn) in after and ("field", i, g.turn) in after
        ]
        assert g.held["units_on_map"] == pytest.approx(np.mean(held))
        if len(diffs) > 1 and np.std(diffs) > 0:
            half = scipy_stats.t.ppf(0.975, len(diffs) - 1) * np.std(diffs, ddof=1)
            assert g.hi - g.margin_gain == pytest.approx(half / math.sqrt(len(diffs)))


def test_where_a_gain_is_made_names_the_largest_one_card_rise_and_the_card_before_it():
    def row(turn, gain, kind="event", share=0.75):
        held = {"units_on_map": 9.2, "resources": -5.2}
        return ladder_cards.CardGain(
            "DS", "mcts", turn, 100, gain, gain - 1, gain + 1, kind, share, held
        )

    found = [row(t, -0.3) for t in range(1, 9)] + [row(9, -0.3, "succession", 1.0)]
    found += [row(10, 0.7), row(11, 1.0), row(12, 1.6)]
    (made,) = ladder_cards.steps(found)
    assert (made["rise_turn"], made["last_turn"]) == (10, 12)
    assert made["rise"] == pytest.approx(1.0) and made["gain_before"] == -0.3
    words = ladder_cards.step_words(made)
    assert "at card 10, just after a Succession card (every game)" in words
    assert words.startswith("-0.30 VP of margin before card 10, +1.60 after card 12")
    assert words.endswith("the seat held, before it: Units on the map +9.2, Resources -5.2")


def test_where_a_loss_is_made_names_the_largest_one_card_fall():
    def row(turn, gain):
        return ladder_cards.CardGain(
            "BK", "random", turn, 50, gain, gain - 1, gain + 1, "event", 0.8, {}
        )

    (made,) = ladder_cards.steps([row(1, 0.2), row(2, 0.5), row(3, -1.5), row(4, -1.8)])
    assert (made["rise_turn"], made["rise"]) == (3, pytest.approx(-2.0))
    assert "the largest one-card fall, -2.00, at card 3" in ladder_cards.step_words(made)


def test_pooled_ladders_add_their_pairs_card_by_card(tmp_path):
    _ladder(tmp_path / "a", games=("6",), seed=5)
    _ladder(tmp_path / "b", games=("6",), seed=6)
    one, two = (analysis.card_gains([tmp_path / x]) for x in "ab")
    pooled = analysis.card_gains([tmp_path / "a", tmp_path / "b"])
    first = {(g.faction, g.turn): g.games for g in one}
    second = {(g.faction, g.turn): g.games for g in two}
    for g in pooled:
        key = (g.faction, g.turn)
        assert g.games == first.get(key, 0) + second.get(key, 0)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A small ladder and what ``analysis.write`` made of it: (folder, files, ladder.json)."""
    out = tmp_path_factory.mktemp("written") / "l"
    _ladder(out, games=("6",))
    files = analysis.write(out)
    return out, files, json.loads(files.json.read_text())


def test_the_ladder_json_and_report_say_where_each_gain_is_made(written):
    out, files, payload = written
    assert {r["faction"] for r in payload["card_gains"]} == {"DS", "BK", "VE"}
    assert [s["faction"] for s in payload["where_made"]] == ["DS", "BK", "VE"]
    text = files.markdown.read_text()
    assert "## Where the gain is made" in text and "ladder-cards.png" in text
    assert (out / "report" / "ladder-cards.png").is_file()


# -- how the challenger played the seat (ladder_moves) ----------------------------------------


def test_a_challenger_that_plays_like_the_field_makes_the_same_move_on_every_card(tmp_path):
    _ladder(tmp_path / "l", games=("8",), challengers=(SAME_AS_RANDOM,))
    by_move = analysis.card_moves([tmp_path / "l"])
    assert {(m.faction, m.turn) for m in by_move} >= {(f, 1) for f in ("DS", "BK", "VE")}
    assert all(m.distance == 0.0 for m in by_move)
    for d in ladder_moves.differences(by_move):
        assert d["first_turn"] is None
        assert ladder_moves.moves_words(d).startswith("played like the field's bot")


def _counts(turn, games, challenger, field):
    moves = sorted(set(challenger) | set(field))
    return pl.DataFrame(
        {
            "turn": [turn] * len(moves),
            "move": moves,
            "challenger": [challenger.get(m, 0) for m in moves],
            "field": [field.get(m, 0) for m in moves],
            "games": [games] * len(moves),
        }
    )


def test_two_move_mixes_are_as_far_apart_as_half_their_summed_share_differences():
    # card 1 of 10 pairs: the challenger 6 full Conscripts and 4 Passes, the field 2 and 8
    # Limited Attacks: shares .6/.4/0 against .2/0/.8, apart by (.4 + .4 + .8) / 2
    frame = _counts(
        1, 10, {"command:conscript": 6, "pass": 4}, {"command:conscript": 2, "limited:attack": 8}
    )
    (card,) = ladder_moves.card_moves({("DS", "mcts"): [frame]})
    assert card.games == 10 and card.distance == pytest.approx(0.8)
    assert card.moves[0] == ("limited:attack", 0.0, 0.8)  # the largest difference first
    assert [m for m, _, _ in card.moves[1:]] == ["command:conscript", "pass"]  # ties by name


def test_pooled_ladders_add_their_move_counts_card_by_card():
    a = _counts(1, 4, {"pass": 4}, {"pass": 2, "limited:govern": 2})
    b = _counts(1, 6, {"pass": 6}, {"pass": 6})
    (card,) = ladder_moves.card_moves({("VE", "greedy"): [a, b]})
    assert card.games == 10 and card.distance == pytest.approx(0.2)  # 10/10 against 8/10


def test_the_cards_where_the_moves_differ_most_are_named_with_the_first_one_apart():
    def card(turn, distance, games=100):
        moves = (("command:conscript", 0.41, 0.0), ("limited:govern", 0.0, 0.26))
        return ladder_moves.CardMoves("DS", "mcts", turn, games, distance, moves)

    found = [card(1, 0.7), card(2, 0.05), card(3, 0.37), card(4, 0.54), card(5, 0.9, games=10)]
    (d,) = ladder_moves.differences(found)
    assert d["first_turn"] == 1
    assert [c["turn"] for c in d["cards"]] == [1, 4, 3]  # card 5: too few pairs reached it
    words = ladder_moves.moves_words(d)
    assert words.startswith("played most differently at card 1 (move mixes 70% apart)")
    assert "command:conscript 41% (field 0%), limited:govern 0% (field 26%)" in words
    assert words.endswith("then card 4 (54%), card 3 (37%); first 10% apart at card 1")


def test_the_ladder_json_and_report_say_how_each_challenger_played_its_seat(written):
    _, files, payload = written
    assert {r["faction"] for r in payload["card_moves"]} == {"DS", "BK", "VE"}
    assert all(0.0 <= r["distance"] <= 1.0 for r in payload["card_moves"])
    assert [d["faction"] for d in payload["played_differently"]] == ["DS", "BK", "VE"]
    text = files.markdown.read_text()
    assert "## How each challenger played the seat" in text
    assert "played most differently at card" in text


LONG_SPEC = (
    "heuristic-fast:play.reserve=2,play.aggression=1.0,play.rival_leader=0.5,play.events=table"
)


def test_a_long_challenger_spec_is_broken_after_its_commas_in_the_figures():
    from simulate.analysis.figures import spec_label

    label = spec_label(LONG_SPEC)
    assert label.replace("\n", "") == LONG_SPEC
    assert all(line.endswith(",") for line in label.splitlines()[:-1])
    assert max(len(line) for line in label.splitlines()) < len(LONG_SPEC) / 2
    assert spec_label("mcts:rollouts=32") == "mcts:rollouts=32"


def test_a_ladder_of_a_long_challenger_spec_draws_its_figures_without_squeezing_them(tmp_path):
    import warnings

    out = tmp_path / "l"
    _ladder(out, games=("3",), challengers=(LONG_SPEC, "greedy"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns when the axes collapse to nothing
        files = analysis.write(out)
    assert files.figure.is_file() and (out / "report" / "ladder-cards.png").is_file()


def test_two_disjoint_move_mixes_are_exactly_one_apart_whatever_the_rows_order():
    # ten moves on each side, none shared: the distance is 1, exactly (ladder.json is the
    # same content however the rows come)
    challenger = {f"limited:c{i}": 3 for i in range(10)}
    field = {f"pass:f{i}": 3 for i in range(10)}
    frame = _counts(1, 30, challenger, field)
    for order in (frame, frame.reverse(), frame.sample(fraction=1.0, shuffle=True, seed=3)):
        (card,) = ladder_moves.card_moves({("BK", "greedy"): [order]})
        assert card.distance == 1.0
