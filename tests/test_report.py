"""``vsim report``, ``vsim compare`` and ``vsim plan``: the files a designer reads, and numbers
that are exactly those of ``simulate.stats`` on the same data."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import click
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from simulate.analysis import stats
from simulate.cli.analysis import compare, plan, register, report
from simulate.study import dataset, records, specs
from simulate.study import runs as run_folder
from simulate.vijayanagara.result import FACTIONS
from strategies import registry

GAMES = 30
SEED = 3
FIGURES = (
    "win_rates",
    "vp_distribution",
    "vp_per_turn",
    "influence",
    "mongols",
    "game_length",
    "action_mix",
)


def make_run(out: Path, games: int, seed: int, variants: list[str]) -> Path:
    study = specs.Study.create(games=games, seed=seed, variants=variants)
    run_folder.run(study, out, jobs=1)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Run A: base + timurs-shadow, seed 3. Run C: base, seed 3 (pairs with A). Run B: base,
    seed 4 (does not pair)."""
    root = tmp_path_factory.mktemp("runs")
    a = make_run(root / "run-a", GAMES, SEED, ["base", "timurs-shadow"])
    c = make_run(root / "run-c", GAMES, SEED, ["base"])
    b = make_run(root / "run-b", GAMES, SEED + 1, ["base"])
    return {"a": a, "b": b, "c": c}


@pytest.fixture(scope="module")
def built(runs, tmp_path_factory):
    """The report of run A, with run C given to --compare."""
    out = tmp_path_factory.mktemp("report") / "rep"
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        report, [str(runs["a"]), "--compare", str(runs["c"]), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out, result


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1, text
    assert text.startswith("Error: ")
    return text


def read_games(run: Path) -> pl.DataFrame:
    return pl.read_parquet(f"{run}/games/*.parquet").sort("variant", "game_index")


# --- report -----------------------------------------------------------------------------------


def test_report_writes_html_markdown_and_figures(built):
    out, result = built
    assert "report.html" in result.output
    for name in ("report.html", "report.md", *(f"{f}.png" for f in FIGURES)):
        assert (out / name).is_file(), name
    for png in out.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_html_is_self_contained(built):
    out, _ = built
    page = (out / "report.html").read_text(encoding="utf-8")
    sources = re.findall(r"""src\s*=\s*["']([^"']*)["']""", page, flags=re.I)
    assert sources, "no images in the HTML"
    assert all(s.startswith("data:image/png;base64,") for s in sources), sources
    assert len(sources) == len(list(out.glob("*.png")))
    assert not re.search(r"<link\b|<script\b|url\(|@import", page, flags=re.I)
    assert not re.search(r"""href\s*=\s*["'](https?:|//|file:)""", page, flags=re.I)
    png = base64.b64decode(sources[0].split(",", 1)[1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_header_states_provenance_and_provisional_data(built, runs):
    out, _ = built
    for name in ("report.md", "report.html"):
        text = re.sub(r"<[^>]+>", " ", (out / name).read_text(encoding="utf-8"))
        head = text[: text.index("Win rates")]
        assert "provisional" in head.lower()
        assert "PROVISIONAL" in head
        assert (
            "simulate/vijayanagara/data/map.yaml" in head
            and "simulate/vijayanagara/data/events.yaml" in head
        )
        assert "N games" in head and f"{2 * GAMES} (base: {GAMES} finished" in head
        assert re.search(rf"Master seed\W+{SEED}\b", head)
        assert registry.DEFAULT in head  # the strategies
        assert "base" in head and "timurs-shadow" in head
        assert "single space" in head  # the variant's description
        assert "0.1.0" in head or "version" in head.lower()
        assert "Failures" in head
    md = (out / "report.md").read_text(encoding="utf-8")
    # the answer first, then the warning, then the details
    assert md.index("## The answer") < md.index("PROVISIONAL") < md.index("## Provenance")


def test_report_sections(built):
    md = (built[0] / "report.md").read_text(encoding="utf-8")
    for section in (
        "## Win rates",
        "## Paired comparisons",
        "## Victory points",
        "## Deccan Influence",
        "## Mongol outcomes",
        "## Game length",
        "## Action mix",
        "## Ties",
        "## Failures",
    ):
        assert section in md, section
    assert "### timurs-shadow vs base" in md  # the run's own variants
    assert "run-c:base vs run-a:base" in md  # the --compare run
    assert "Goodman" in md and "Wilson" in md and "McNemar" in md


def test_report_win_table_is_stats_win_rate_table(built, runs):
    md = (built[0] / "report.md").read_text(encoding="utf-8")
    games = read_games(runs["a"])
    for v in ("base", "timurs-shadow"):
        winners = games.filter(pl.col("variant") == v)["winner"].to_list()
        for r in stats.win_rate_table(winners, FACTIONS):
            label = "unresolved tie" if r["faction"] == "tie" else r["faction"]
            row = (
                f"| {v} | {label} | {r['wins']} | {r['n']} | {100 * r['rate']:.1f}% | "
                f"{100 * r['wilson_low']:.1f}–{100 * r['wilson_high']:.1f}% | "
                f"{100 * r['goodman_low']:.1f}–{100 * r['goodman_high']:.1f}% |"
            )
            assert row in md, row


def test_errored_games_are_excluded_and_counted(runs, tmp_path):
    run = tmp_path / "with-error"
    shutil.copytree(runs["c"], run)
    shard = dataset.shards(run, "games")[0]
    rows = pq.read_table(shard).to_pylist()
    broken = rows[0]
    for key in list(broken):
        if key not in ("run_id", "variant", "game_index", "seed", "seconds") and not key.startswith(
            "strategy_"
        ):
            broken[key] = None
    broken["error"] = "RuntimeError: boom; repro: vsim replay <DIR> --game 0 --variant base"
    pq.write_table(pa.Table.from_pylist(rows, schema=records.schema("games")), shard)

    result = CliRunner(env={"COLUMNS": "200"}).invoke(report, [str(run)])
    assert result.exit_code == 0, result.output
    md = (run / "report" / "report.md").read_text(encoding="utf-8")
    assert f"**Failures: 1 of {GAMES} games**" in md
    assert f"base: {GAMES - 1} finished (1 failed)" in md
    assert f"RuntimeError: boom; repro: vsim replay {run} --game 0" in md
    winners = read_games(run).filter(pl.col("error").is_null())["winner"].to_list()
    ds = stats.win_rate_table(winners, FACTIONS)[0]
    assert ds["n"] == GAMES - 1
    assert f"| base | DS | {ds['wins']} | {GAMES - 1} | {100 * ds['rate']:.1f}% |" in md


def test_report_of_a_missing_directory_is_one_line(tmp_path):
    text = one_line_error(
        CliRunner(env={"COLUMNS": "200"}).invoke(report, [str(tmp_path / "nope")])
    )
    assert "not a directory" in text


def test_report_refuses_a_compare_run_with_other_seeds(runs, tmp_path):
    out = tmp_path / "rep"
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        report, [str(runs["a"]), "--compare", str(runs["b"]), "--out", str(out)]
    )
    assert "seeds differ" in one_line_error(result)
    assert not out.exists()  # refused before anything was written


# --- compare ----------------------------------------------------------------------------------


def test_compare_numbers_are_those_of_stats(runs, tmp_path):
    out = tmp_path / "cmp"
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        compare, [str(runs["a"]), "--variants", "base", "timurs-shadow", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    for name in ("compare.md", "compare.png", "compare.json"):
        assert (out / name).is_file()
    data = json.loads((out / "compare.json").read_text())
    games = read_games(runs["a"])
    a = games.filter(pl.col("variant") == "base")
    b = games.filter(pl.col("variant") == "timurs-shadow")
    assert a["seed"].to_list() == b["seed"].to_list()
    assert data["paired_games"] == GAMES
    wins = {r["faction"]: r for r in data["wins"]}
    vps = {r["faction"]: r for r in data["vp"]}
    md = (out / "compare.md").read_text(encoding="utf-8")
    for f in FACTIONS:
        expected = stats.paired_win_comparison(  # simultaneous over the four outcomes
            a["winner"].to_list(), b["winner"].to_list(), f, 1 - 0.05 / 4
        )
        for key in ("rate_a", "rate_b", "diff", "diff_low", "diff_high", "p_value", "b01", "b10"):
            assert wins[f][key] == pytest.approx(expected[key]), (f, key)
        mean = stats.paired_mean_difference(a[f"vp_{f}"], b[f"vp_{f}"], n_boot=2000, seed=0)
        for key in ("mean_a", "mean_b", "diff", "diff_low", "diff_high", "paired_se"):
            assert vps[f][key] == pytest.approx(mean[key]), (f, key)
        if mean["variance_reduction"] == mean["variance_reduction"]:  # not NaN
            assert vps[f]["variance_reduction"] == pytest.approx(mean["variance_reduction"])
        low, high = 100 * expected["diff_low"], 100 * expected["diff_high"]
        assert f"[{low:+.1f}, {high:+.1f}]" in md
        assert f"[{mean['diff_low']:+.2f}, {mean['diff_high']:+.2f}]" in md
    # the rich table on stdout shows the same numbers
    assert "McNemar" in result.output and "variance reduction" in result.output


def test_compare_ends_with_the_reports_decision_lines(runs, tmp_path):
    from simulate.analysis import compare as cmp
    from simulate.analysis.run import load_run

    out = tmp_path / "cmp"
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        compare, [str(runs["a"]), "--variants", "base", "timurs-shadow", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    run = load_run(runs["a"])
    comp = cmp.compare(
        cmp.Side(run, "base", "base"), cmp.Side(run, "timurs-shadow", "timurs-shadow")
    )
    lines = cmp.decision_lines(cmp.decision(comp))
    assert result.output.strip().splitlines()[-len(lines) :] == lines
    assert lines[0].startswith("timurs-shadow against base: ") and len(lines) == 5
    assert json.loads((out / "compare.json").read_text())["verdict"]["sentence"] in lines[0]
    assert lines[0] in (out / "compare.md").read_text(encoding="utf-8").replace("**", "")


def test_the_comparison_table_shows_the_interval_its_answer_reads_and_the_answer(runs, tmp_path):
    out = tmp_path / "cmp"
    CliRunner(env={"COLUMNS": "200"}).invoke(
        compare, [str(runs["a"]), "--variants", "base", "timurs-shadow", "--out", str(out)]
    )
    md = (out / "compare.md").read_text(encoding="utf-8")
    assert "| 95% simultaneous interval | answer |" in md and "Holm" not in md
    data = json.loads((out / "compare.json").read_text())
    for w, r in zip(data["wins"], data["verdict"]["factions"], strict=True):
        assert (w["diff_low"], w["diff_high"]) == pytest.approx((r["low"], r["high"]))


def test_compare_two_runs_with_the_same_seed(runs, tmp_path):
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        compare, [str(runs["c"]), str(runs["a"]), "--variants", "base", "timurs-shadow"]
    )
    assert result.exit_code == 0, result.output
    assert (runs["a"] / "compare-base-vs-timurs-shadow" / "compare.md").is_file()


def test_compare_refuses_runs_with_different_seeds(runs, tmp_path):
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        compare, [str(runs["c"]), str(runs["b"]), "--out", str(tmp_path / "x")]
    )
    text = one_line_error(result)
    assert "seeds differ" in text and f"master seed {SEED} vs {SEED + 1}" in text
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{c}"], "name two with --variants"),
        (["{a}", "--variants", "base", "nope"], "no variant 'nope'"),
        (["{a}", "--variants", "base", "base"], "two different variants"),
        (["{a}", "{c}"], "choose with --variants"),
        (["{a}", "{b}", "{c}"], "give one run directory"),
    ],
)
def test_compare_bad_inputs_are_one_line(runs, args, message):
    argv = [x.format(**{k: str(v) for k, v in runs.items()}) for x in args]
    assert message in one_line_error(CliRunner(env={"COLUMNS": "200"}).invoke(compare, argv))


# --- plan -------------------------------------------------------------------------------------


def test_plan_says_games_needed_for_the_reports_test():
    # the verdict reads paired intervals simultaneous over 3 Factions and ties: alpha / 4
    result = CliRunner(env={"COLUMNS": "200"}).invoke(plan, ["--delta", "0.03"])
    assert result.exit_code == 0, result.output
    n = stats.games_needed(0.03, alpha=0.05 / 4)
    text = " ".join(result.output.split())
    assert f"play {n:,} games per variant" in text
    assert "simultaneous over the 4 outcomes of 1 comparison at alpha = 0.05: 0.0125 each" in text
    assert f"{stats.games_needed(0.05, alpha=0.05 / 4):,}" in result.output  # other deltas


def test_plan_for_several_comparisons_splits_alpha_over_all_of_them():
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        plan, ["--delta", "0.03", "--comparisons", "3"]
    )
    n = stats.games_needed(0.03, alpha=0.05 / 12)
    assert result.exit_code == 0 and f"play {n:,} games per variant" in result.output


def test_plan_paired():
    args = ["--delta", "0.03", "--p0", "0.33", "--alpha", "0.05", "--power", "0.8"]
    result = CliRunner(env={"COLUMNS": "200"}).invoke(plan, [*args, "--paired-rho", "0.5"])
    assert result.exit_code == 0, result.output
    unpaired = stats.games_needed(0.03, 0.33, 0.05 / 4, 0.8)
    paired = stats.games_needed(0.03, 0.33, 0.05 / 4, 0.8, paired_rho=0.5)
    assert f"play {unpaired:,} games per variant unpaired, or {paired:,} per variant" in (
        " ".join(result.output.split())
    )


def _pilot(out: Path, rates: dict[str, float], games: int = 400) -> Path:
    """A pilot run of two variants whose first has these win rates (B repeats A's winner)."""
    from simulate.seeds import game_seed
    from simulate.study import manifest

    winners = [f for f, r in rates.items() for _ in range(round(r * games))]
    rows = []
    for name in ("base", "other"):
        for k, w in enumerate(winners):
            row = dict.fromkeys(records.NAMES["games"])
            row |= {"run_id": "pilot", "variant": name, "game_index": k, "seed": game_seed(0, k)}
            row |= {"winner": w} | {f"strategy_{f}": "random" for f in FACTIONS}
            rows.append(row)
    table = records.table_from_rows("games", rows)
    dataset.write_shard(out / "games", "part-pilot-000000-000399.parquet", table)
    manifest.write(out, {"master_seed": 0, "variants": [{"name": "base"}, {"name": "other"}]})
    return out


def test_plan_with_a_pilot_plans_from_the_pilots_own_win_rates(tmp_path):
    from simulate.analysis import planning

    pilot = _pilot(tmp_path / "pilot", {"DS": 0.7, "BK": 0.1, "VE": 0.2})
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        plan, ["--delta", "0.03", "--pilot", str(pilot)]
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "pilot base: DS 70.0%, BK 10.0%, VE 20.0% of 400 finished games" in text
    # DS's change, from 70% down to 67%, is the hardest to detect at these rates
    assert "DS's win rate, the hardest to detect at these rates, (from 70.0% to 67.0%)" in text
    from simulate.analysis.run import load_run

    rho = planning.pilot_figures(load_run(pilot))["rho"]
    n = stats.games_needed(0.03, 0.67, 0.05 / 4, 0.8, rho)
    assert f"or {n:,} per variant on common seeds with per-game correlation rho = {rho:g}" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--delta", "0"], "--delta must be in (0, 1)"),
        (["--delta", "0.03", "--p0", "1.5"], "--p0 must be in (0, 1)"),
        (["--delta", "0.5", "--p0", "0.7"], "--p0 + --delta must be <= 1"),
        (["--delta", "0.03", "--paired-rho", "1"], "--paired-rho must be in [0, 1)"),
        (["--delta", "0.03", "--power", "1"], "--power must be in (0, 1)"),
    ],
)
def test_plan_bad_input_is_one_line_exit_2(args, message):
    assert message in one_line_error(CliRunner(env={"COLUMNS": "200"}).invoke(plan, args))


def test_register_adds_the_commands_to_a_group():
    group = register(click.Group("vsim"))
    assert {"report", "compare", "plan"} <= set(group.commands)
    result = CliRunner(env={"COLUMNS": "200"}).invoke(group, ["plan", "--delta", "0.1"])
    assert result.exit_code == 0
    assert f"{stats.games_needed(0.1, alpha=0.05 / 4):,}" in result.output


def test_figure_interval_labels_follow_the_confidence_level():
    from simulate.analysis import figures

    rows = stats.win_rate_table(["DS", "BK", "VE", "DS", None], FACTIONS, 0.9)
    fig = figures.win_rates([{"variant": "base", **r} for r in rows], ["base"], 0.9)
    texts = [t.get_text() for t in fig.findobj(match=lambda o: hasattr(o, "get_text"))]
    assert any("90% Wilson" in t for t in texts)
    assert not any("95%" in t for t in texts)


@pytest.fixture(scope="module")
def other_bots(tmp_path_factory):
    """Base under other bots, same seed as run A: a bot change, not a rule change."""
    out = tmp_path_factory.mktemp("bots") / "run-greedy-ds"
    study = specs.Study.create(games=GAMES, seed=SEED, strategies=["DS=random"])
    run_folder.run(study, out, jobs=1)
    return out


def test_comparing_runs_with_other_bots_is_refused_as_confounded(runs, other_bots, tmp_path):
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        compare, [str(runs["c"]), str(other_bots), "--out", str(tmp_path / "c")]
    )
    text = one_line_error(result)
    assert "also differ in bots" in text and "DS=random" in text and "--confounded" in text
    assert not (tmp_path / "c").exists()
    out = tmp_path / "rep"
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        report, [str(runs["c"]), "--compare", str(other_bots), "--out", str(out)]
    )
    assert "also differ in bots" in one_line_error(result) and not out.exists()


def test_a_confounded_comparison_shown_on_request_carries_a_loud_banner(runs, other_bots, tmp_path):
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        compare, [str(runs["c"]), str(other_bots), "--out", str(tmp_path / "c"), "--confounded"]
    )
    assert result.exit_code == 0, result.output
    assert "CONFOUNDED: not a rule comparison" in result.output
    md = (tmp_path / "c" / "compare.md").read_text(encoding="utf-8")
    assert "**CONFOUNDED: not a rule comparison.**" in md and "DS=random" in md
    assert json.loads((tmp_path / "c" / "compare.json").read_text())["confounded"]


def test_legends_stay_inside_the_canvas_of_a_single_variant_figure():
    from simulate.analysis import figures

    curves = pl.DataFrame(
        {
            "variant": ["base"] * 6,
            "faction": ["DS", "DS", "BK", "BK", "VE", "VE"],
            "turn": [1, 2, 1, 2, 1, 2],
            "n": [10] * 6,
            "mean": [1.0, 2.0, 1.0, 2.0, 1.0, 2.0],
            "low": [0.5, 1.5, 0.5, 1.5, 0.5, 1.5],
            "high": [1.5, 2.5, 1.5, 2.5, 1.5, 2.5],
        }
    )
    fig = figures.over_turns(curves, ["base"], FACTIONS, title="t", ylabel="y")
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    canvas = fig.bbox
    for legend in fig.legends:
        box = legend.get_window_extent(renderer)
        assert canvas.x0 <= box.x0 and box.x1 <= canvas.x1 and canvas.y0 <= box.y0


def test_the_win_rate_chart_marks_parity_and_does_not_waste_its_height():
    from simulate.analysis import figures

    rows = stats.win_rate_table(["DS", "BK", "VE"] * 30, FACTIONS, 0.95)
    fig = figures.win_rates([{"variant": "base", **r} for r in rows], ["base"])
    ax = fig.axes[0]
    assert any(abs(line.get_ydata()[0] - 1 / 3) < 1e-9 for line in ax.get_lines())
    assert ax.get_ylim()[1] < 0.8  # the rates are near a third: no axis up to 112%


def test_the_report_shows_what_each_variant_changes(built):
    out, _ = built
    md = (out / "report.md").read_text(encoding="utf-8")
    section = md[md.index("## What each variant changes") : md.index("## Win rates")]
    assert "| timurs-shadow | `rules.timurs_shadow` | `True` |" in section
    assert "| base | (nothing: the rules as printed) |" in section


def test_code_spans_keep_their_stars_and_text_columns_are_left_aligned(built):
    out, _ = built
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<code>" in page and "/games/*.parquet</code>" in page
    assert '<th style="text-align:left">variant</th>' in page
    assert '<nav class="toc">' in page and 'href="#win-rates"' in page


# --- provenance (issue 64) -------------------------------------------------------------------


def test_a_long_command_is_wrapped_with_continuations_a_shell_reads_back():
    import shlex

    from simulate.analysis.commands import wrapped

    command = "vsim strength " + " ".join(
        f"--rung r{i}=all=mcts:rollouts={8 * i}" for i in range(9)
    )
    text = wrapped(command + ' --challenger "mcts:top=6" --out runs/s')
    lines = text.splitlines()
    assert len(lines) > 1 and all(len(x) <= 88 for x in lines)
    assert all(x.endswith(" \\") for x in lines[:-1]) and lines[1].startswith("    --rung")
    assert shlex.split(text.replace(" \\\n", " ")) == shlex.split(
        command + ' --challenger "mcts:top=6" --out runs/s'
    )


def test_an_absolute_path_inside_the_working_folder_is_shown_relative(tmp_path):
    from simulate.analysis.commands import rerunnable

    inside = tmp_path / "runs" / "x"
    text = rerunnable(f"vsim run --out {inside} --out={inside} /elsewhere/y", base=tmp_path)
    assert text == "vsim run --out runs/x --out=runs/x /elsewhere/y"


def test_the_report_cites_no_absolute_path_of_the_machine_that_made_it(tmp_path):
    from cli_support import ROOT, run_process

    out = ROOT / "runs" / f"provenance-test-{tmp_path.name}"
    try:
        made = run_process(
            "run", "--games", "4", "--jobs", "1", "--strategy", "all=random", "--quiet",
            "--out", str(out),
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        md = (out / "report" / "report.md").read_text(encoding="utf-8")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    assert str(ROOT) not in md and "/tmp/" not in md
    assert "--out /" not in md  # the shipped strength curve's command too
    assert f"runs/provenance-test-{tmp_path.name}" in md
    reproduce = md[md.index("## How to read and reproduce") :]
    assert f"--out runs/provenance-test-{tmp_path.name}" in reproduce


def test_a_difference_and_its_unit_never_wrap_apart_in_a_table():
    # issue 64: ladder gains like "-90.0 pp" wrapped in the report's table
    from simulate.analysis.formatting import NBSP, pp

    assert pp(-0.9) == f"-90.0{NBSP}pp" and " " not in pp(-0.9)


def test_the_comparison_figures_labels_sit_over_the_zero_line_on_white():
    # issue 64: a label's minus sign beside the dashed zero line was hidden under it
    from simulate.analysis import figures

    row = {"faction": "DS", "diff": -0.016, "diff_low": -0.031, "diff_high": -0.001}
    vp = {"faction": "DS", "diff": -0.1, "diff_low": -0.2, "diff_high": 0.0}
    fig = figures.comparison([row], [vp], "a", "b")
    ax = fig.axes[0]
    (label,) = [t for t in ax.texts if t.get_text().startswith("-1.6")]
    zero = [ln for ln in ax.lines if list(ln.get_xdata()) == [0, 0]]
    assert zero and label.get_zorder() > zero[0].get_zorder()
    assert label.get_bbox_patch() is not None
    assert label.get_bbox_patch().get_facecolor()[:3] == (1.0, 1.0, 1.0)
