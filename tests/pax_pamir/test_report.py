"""Pax Pamir's card table and report sections (issue 67): one ``cards`` row per dealt card,
consistent with the per-turn table and the engine's records, and each section's figures
(shares that sum to one, intervals around their estimates, the per-card CSV)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simulate.analysis.run import load_run
from simulate.pax_pamir import report, report_cards
from simulate.pax_pamir.game import CARD_COLUMNS, GAME, card_rows, run

GAMES = 40  # the games of ``four`` (conftest.py: the base game, with its report)


@pytest.fixture(scope="module")
def wakhan(tmp_path_factory: pytest.TempPathFactory, pax_run) -> Path:
    """12 games of two players against Wakhan (3 seats, RB p16)."""
    return pax_run(tmp_path_factory.mktemp("pax") / "wakhan", 12, "--variant", "wakhan-3")


def _cards(out: Path) -> pl.DataFrame:
    return pl.read_parquet(out / "cards" / "*.parquet")


# ---------------------------------------------------------------------------------------------
# The card table


@pytest.mark.parametrize("which", ["four", "wakhan"])
def test_the_card_table_has_one_row_per_dealt_card(which, request):
    out = request.getfixturevalue(which)
    players = 4 if which == "four" else 3
    plan = GAME.compile(GAME.base_variant()).data.deck_plan(players)
    c = _cards(out)
    assert c.columns == ["game_index", "variant", "lineup", *(x.name for x in CARD_COLUMNS)]
    assert c.select("game_index", "card").is_unique().all()
    per = c.group_by("game_index", "kind").len().pivot("kind", index="game_index", values="len")
    assert per.height == pl.read_parquet(out / "games" / "*.parquet").height
    assert (per["court"] == sum(plan.court_by_pile)).all()
    assert (per["event"] == sum(plan.events_by_pile)).all()
    assert (per["dominance_check"] == sum(plan.dominance_checks_by_pile)).all()


def test_the_card_table_is_the_engine_s_records_of_the_game(four):
    from strategies.registry import make

    rules = GAME.compile(GAME.base_variant())
    games = pl.read_parquet(four / "games" / "*.parquet").sort("game_index")
    c = _cards(four)
    for k in (0, 7):
        seed = games["seed"][k]
        ctx = run(seed, [make("heuristic", "pax-pamir") for _ in rules.seats], rules)
        rows = c.filter(pl.col("game_index") == k).sort("card").drop("game_index", "variant",
                                                                       "lineup")  # fmt: skip
        assert rows.rows() == list(card_rows(ctx))
        assert rows.height == len(ctx.dealt)


def test_the_card_table_s_counts_are_consistent(four):
    c = _cards(four)
    court, events = c.filter(pl.col("kind") == "court"), c.filter(pl.col("kind") == "event")
    bought = c.filter(pl.col("bought_by").is_not_null())
    assert bought["price"].null_count() == 0 and bought["turn_bought"].null_count() == 0
    assert (bought["price"] >= 0).all() and (bought["turn_bought"] >= 1).all()
    assert c.filter(pl.col("bought_by").is_null())["price"].null_count() == c.height - bought.height
    assert court["turns_in_court"].null_count() == 0 and (court["turns_in_court"] >= 0).all()
    assert events["turns_in_court"].null_count() == events.height
    assert events["rank"].null_count() == events.height and court["rank"].null_count() == 0
    played = c.filter(pl.col("played_by").is_not_null())
    assert set(played["kind"]) == {"court"}
    assert (played["turn_played"] >= played["turn_bought"]).all()
    assert (played["played_by"] == played["bought_by"]).all()
    held = c.filter(pl.col("held_at_end").is_not_null())
    assert (held["held_at_end"] == held["played_by"]).all()
    assert (held["turns_in_court"] >= 0).all()
    assert set(c["resolved"].drop_nulls()) <= {"purchased", "discarded"}
    purchased = c.filter(pl.col("resolved") == "purchased")
    assert (purchased["resolved_by"] == purchased["bought_by"]).all()
    assert c.filter(pl.col("kind") == "court")["resolved"].null_count() == court.height
    # the per-turn table counts the same purchases and plays (no Wakhan here)
    turns = pl.read_parquet(four / "turns" / "*.parquet")
    assert turns["purchases"].sum() == bought.height and turns["plays"].sum() == played.height


def test_wakhan_s_cards_are_acquired_and_held_but_bought_by_no_player(wakhan):
    c = _cards(wakhan)
    her = c.filter(pl.col("acquired_by") == "P1")  # wakhan-3 seats her in P1
    assert her.height > 0 and her["bought_by"].null_count() == her.height
    assert set(c["bought_by"].drop_nulls()) <= {"P2", "P3"}
    assert set(c["held_at_end"].drop_nulls()) <= {"P1", "P2", "P3"}


# ---------------------------------------------------------------------------------------------
# Sections


def test_the_report_has_each_section_and_the_card_csv(four):
    text = (four / "report" / "report.md").read_text()
    for title in ("Winner's coalition", "Dominance Checks", "Early ends", "Loyalty changes",
                  "Favored suit", "Rupee flow", "Per-card power", "Events"):  # fmt: skip
        assert f"## {title}" in text
    assert "association under these bots, not a cause" in text
    assert f"`{four}/cards/*.parquet`" in text
    csv = pl.read_csv(four / "report" / report_cards.CARD_CSV)
    power = report_cards.card_power(load_run(four))
    assert (
        csv.height
        == power.height
        == _cards(four).filter(pl.col("kind") == "court")["card"].n_unique()
    )


def test_the_shares_sum_to_one(four):
    r = load_run(four)
    for column in ("winner_loyalty", "ending"):
        rows = report.share_rows(r, column)
        assert math.isclose(sum(x["share"] for x in rows), 1.0)
        assert all(x["ci"][0] <= x["share"] <= x["ci"][1] for x in rows)
    checks = report.check_rows(r)
    for k in {x["check"] for x in checks}:
        cell = [x for x in checks if x["check"] == k]
        if cell[0]["n"]:
            assert math.isclose(sum(x["share"] for x in cell), 1.0)
    assert checks[0]["n"] == GAMES  # every game reaches the first check (RB p15)
    favored = report.favored_rows(r)
    assert math.isclose(sum(x["over"][0] for x in favored), 1.0)
    assert sum(x["end"] for x in favored) == GAMES


def test_the_coalition_shares_are_the_games_winners(four):
    r = load_run(four)
    games = pl.read_parquet(four / "games" / "*.parquet")
    rows = {x["value"]: x["count"] for x in report.share_rows(r, "winner_loyalty")}
    for coalition, count in rows.items():
        expected = games.filter(pl.col("winner_loyalty") == coalition).height
        assert count == (expected if coalition != report.NONE else games["winner"].null_count())


def test_the_rupee_flow_adds_up_over_the_seats(four):
    r = load_run(four)
    rows = report.rupee_rows(r)
    seats = [x for x in rows if x["seat"] != "all"]
    every = next(x for x in rows if x["seat"] == "all")
    assert math.isclose(sum(x["paid"][0] for x in seats), every["paid"][0])
    assert math.isclose(sum(x["buys"][0] for x in seats), every["buys"][0])
    paid = _cards(four)["price"].sum()
    assert math.isclose(every["paid"][0] * GAMES, paid)


def test_each_card_s_power_has_its_interval(four):
    power = report_cards.card_power(load_run(four))
    assert ((power["bought_share"] >= 0) & (power["bought_share"] <= 1)).all()
    assert (power["bought"] <= power["dealt"]).all() and (power["held"] <= power["bought"]).all()
    ranked = power.filter(pl.col("diff").is_not_nan())
    assert ranked.height > 0
    assert ((ranked["low"] <= ranked["diff"]) & (ranked["diff"] <= ranked["high"])).all()
    assert ranked["diff"].abs().max() <= 1


def test_each_event_s_swing_counts_its_resolutions(four):
    rows = report_cards.event_rows(load_run(four))
    c = _cards(four).filter(pl.col("kind") == "event")
    assert len(rows) == c["card"].n_unique()
    assert sum(x["bought"] + x["discarded"] for x in rows) == c["resolved"].count()
    for x in rows:
        assert x["bought_won"] <= x["bought"] and x["discarded_won"] <= x["discarded"]


def test_the_stratified_difference_is_the_mantel_haenszel_one():
    # card 0 in 4 games of 2 seats: P1 holds it in games 0-1 and wins game 0, P2 holds it in
    # game 2 and wins it, game 3 nobody holds it and P1 wins
    card = np.zeros(4, dtype=np.int64)
    holder = np.array([0, 0, 1, -1])
    winner = np.array([0, 1, 1, 0])
    est = report_cards.stratified_difference(card, holder, winner, 2, 0.95)
    # seat P1: held 2 (won 1), not 2 (won 1): 0.5 - 0.5, weight 1;
    # seat P2: held 1 (won 1), not 3 (won 1): 1 - 1/3, weight 3/4
    expected = (1 * 0.0 + 0.75 * (2 / 3)) / 1.75
    assert math.isclose(est["diff"][0], expected)
    assert est["low"][0] < expected < est["high"][0]
    assert math.isclose(est["held_won"][0], 2 / 3) and math.isclose(est["not_held_won"][0], 0.4)


def test_a_run_without_a_card_table_reports_no_card(four):
    r = load_run(four)
    r.tables = {}
    assert report_cards.card_power(r).height == 0
    titles = [s.title for s in report.sections(r, None)]
    assert "Per-card power" in titles


def test_the_rupee_flow_shows_each_source_from_the_ledger(four):
    """The Rupee flow section: rupees gained and paid per game by source (RB p8, p10-p14),
    from the ``rupees`` table; a purchase's rupees are the cards table's prices (no Wakhan)."""
    r = load_run(four)
    rows = report.rupee_rows(r)
    every = next(x for x in rows if x["seat"] == "all")
    assert every["flow_games"] == GAMES
    assert math.isclose(every["sources"]["purchase"]["paid"][0], every["paid"][0])
    assert math.isclose(
        every["sources"]["bribe"]["gained"][0], every["sources"]["bribe"]["paid"][0]
    )  # a bribe goes from seat to seat (RB p11-p12)
    flow = pl.read_parquet(four / "rupees" / "*.parquet")
    assert flow.height == GAMES * len(r.seats) * len(every["sources"])
    assert math.isclose(every["gained"][0] * GAMES, flow["gained"].sum())
    text = report.rupee_section(r, 0.95).body
    for source in ("purchase", "market", "tax", "bribe", "leverage"):
        assert f"| base | {source} | all | {GAMES} |" in text
    assert "not in this run" not in text and "Not recorded" not in text


def test_a_run_without_a_rupees_table_says_the_flow_is_not_in_it(four):
    r = load_run(four)
    r.tables = {k: v for k, v in r.tables.items() if k != "rupees"}
    text = report.rupee_section(r, 0.95).body
    assert "not in this run" in text
    assert all(x["flow_games"] == 0 for x in report.rupee_rows(r))
