"""Pax Pamir's report figures (``simulate.pax_pamir.figures``): one per section, drawn from
the rows its table shows, with their intervals, one bar group (or panel) per variant; none
without a folder to write them into, or without the data to draw."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from matplotlib.container import BarContainer, ErrorbarContainer

from simulate.analysis.run import Run, load_run
from simulate.pax_pamir import figures, report, report_cards

PNG = b"\x89PNG\r\n\x1a\n"
TITLES = ("Winner's coalition", "Dominance Checks", "Early ends", "Loyalty changes",
          "Favored suit", "Rupee flow", "Per-card power", "Events")  # fmt: skip


@pytest.fixture
def run(four: Path) -> Run:
    return load_run(four)


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory, pax_run) -> Path:
    """8 games each of two 3-seat variants: three players, and two against Wakhan (RB p16)."""
    out = tmp_path_factory.mktemp("pax") / "two"
    return pax_run(out, 8, "--variant", "players-3", "--variant", "wakhan-3")


def _bars(fig) -> list[BarContainer]:
    return [c for ax in fig.axes for c in ax.containers if isinstance(c, BarContainer)]


def _errorbars(fig) -> list[ErrorbarContainer]:
    return [c for ax in fig.axes for c in ax.containers if isinstance(c, ErrorbarContainer)]


def test_each_section_writes_its_figure_as_a_png_and_names_it(run, tmp_path):
    found = {s.title: s for s in report.sections(run, tmp_path)}
    assert set(found) == set(TITLES)
    for title in TITLES:
        assert len(found[title].figures) == 1, title
        path = tmp_path / found[title].figures[0]
        assert path.suffix == ".png" and path.read_bytes()[:8] == PNG, title
    assert {p.name for p in tmp_path.glob("*.png")} == {s.figures[0] for s in found.values()}


def test_no_figure_is_written_without_a_figures_folder(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert all(s.figures == () for s in report.sections(run, None))
    assert list(tmp_path.iterdir()) == []


def test_the_report_shows_the_sections_figures(four):
    text = (four / "report" / "report.md").read_text()
    for name in ("coalitions", "dominance_checks", "early_ends", "loyalty_changes",
                 "favored_suit", "rupee_flow", "card_power", "events"):  # fmt: skip
        assert (four / "report" / f"{name}.png").read_bytes()[:8] == PNG
        assert f"{name}.png" in text


def test_the_share_figures_have_one_bar_group_per_variant_with_intervals(run):
    c = 0.95
    drawn = (
        figures.coalition_shares(report.share_rows(run, "winner_loyalty"), run.variants, c),
        figures.favored_suit(report.favored_rows(run), run.variants, c),
        figures.loyalty_changes(report.loyalty_rows(run), run.variants, c),
    )
    for fig in drawn:
        bars = _bars(fig)
        assert bars and {b.get_label() for b in bars} == set(run.variants)
        assert all(b.errorbar is not None for b in bars)
    # favored: two panels (turns, the end), a bar per suit in each
    fav = _bars(drawn[1])
    assert len(fav) == 2 and all(len(b) == 4 for b in fav)


def test_the_coalition_bars_are_the_table_s_shares(run):
    rows = report.share_rows(run, "winner_loyalty", [*report._coalitions(run), report.NONE])
    (bars,) = _bars(figures.coalition_shares(rows, run.variants))
    assert [p.get_height() for p in bars] == pytest.approx([r["share"] for r in rows])


def test_the_check_figure_has_a_panel_per_variant_and_a_bar_per_outcome(run):
    rows = report.check_rows(run)
    fig = figures.dominance_checks(rows, run.variants)
    assert [ax.get_title() for ax in fig.axes if ax.get_visible()] == [
        f"variant: {v}" for v in run.variants
    ]
    assert {b.get_label() for b in _bars(fig)} == {"afghan", "british", "russian", "none"}
    reached = sum(1 for r in rows if r["n"] and r["value"] == "none")
    assert all(len(b) == reached for b in _bars(fig))


def test_the_early_end_figure_shows_endings_and_the_check_of_each_early_end(run):
    endings = report.share_rows(run, "ending", ["early", "final", "stalled"])
    fig = figures.early_ends(endings, report.early_rows(run), run.variants)
    assert [len(b) for b in _bars(fig)] == [3, report.CHECKS]


def test_a_run_without_an_early_end_draws_no_early_end_figure(run, tmp_path):
    run.games = run.games.with_columns(
        pl.lit("final").alias("ending"), pl.lit(None, pl.Int32).alias("early_check")
    )
    section = report.early_section(run, 0.95, figures_dir=tmp_path)
    assert section.figures == () and list(tmp_path.iterdir()) == []


def test_the_rupee_figure_has_a_bar_per_moving_source_and_variant(run):
    rows = [r for r in report.rupee_rows(run) if r["seat"] == "all"]
    fig = figures.rupee_flow(rows, run.variants)
    gained, paid = _bars(fig)
    moved = [s for s, x in rows[0]["sources"].items() if x["moved"]]
    assert len(gained) == len(paid) == len(moved)
    assert gained.get_label() == paid.get_label() == run.variants[0]
    assert [p.get_width() for p in paid] == pytest.approx(
        [rows[0]["sources"][s]["paid"][0] for s in moved]
    )


def test_a_run_without_the_rupees_table_draws_no_rupee_figure(run, tmp_path):
    run.tables = {k: v for k, v in run.tables.items() if k != "rupees"}
    section = report.rupee_section(run, 0.95, figures_dir=tmp_path)
    assert section.figures == () and list(tmp_path.iterdir()) == []
    drawn = [s for s in report.sections(run, tmp_path) if s.figures]
    assert "Rupee flow" not in {s.title for s in drawn} and len(drawn) == len(TITLES) - 1


def test_the_card_forest_shows_the_highest_and_lowest_cards_by_name(run):
    power = report_cards.card_power(run)
    ranked = power.filter(
        (pl.col("held") >= report_cards.MIN_HELD) & pl.col("diff").is_not_nan()
    ).sort("diff", "card", descending=[True, False])
    fig = figures.card_power(ranked, run.variants, shown=5)
    (bars,) = _errorbars(fig)
    assert bars.get_label() == run.variants[0]
    shown = min(10, ranked.height)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert len(labels) == shown
    assert labels[0].startswith(ranked["name"][0] + " (#")
    assert labels[-1].startswith(ranked["name"][-1] + " (#")


def test_a_run_without_a_card_table_draws_no_card_or_event_figure(run, tmp_path):
    run.tables = {}
    titles = {s.title for s in report.sections(run, tmp_path) if s.figures}
    assert not titles & {"Per-card power", "Events", "Rupee flow"}


def test_the_event_forest_has_an_interval_per_variant_in_each_panel(run):
    fig = figures.event_swing(report_cards.event_rows(run), run.variants, parity=0.25)
    assert [e.get_label() for e in _errorbars(fig)] == [*run.variants, *run.variants]


def test_a_two_variant_run_draws_every_figure_in_both_variants(two, tmp_path):
    r = load_run(two)
    assert r.variants == ["players-3", "wakhan-3"]
    drawn = report.sections(r, tmp_path)
    assert [len(s.figures) for s in drawn if s.title != "Per-card power"] == [1] * 7
    fig = figures.coalition_shares(report.share_rows(r, "winner_loyalty"), r.variants)
    assert [b.get_label() for b in _bars(fig)] == r.variants
    fig = figures.dominance_checks(report.check_rows(r), r.variants)
    assert sum(ax.get_visible() for ax in fig.axes) == 2
