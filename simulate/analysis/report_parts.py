"""The tables of a balance report's generic sections (win rates, scores, length, ties, one
per categorical column) and the game's own sections, ready for ``templates/report.md.j2``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis import render
from simulate.analysis.formatting import mean_ci, num, pct, pct_ci
from simulate.analysis.run import ReportError, Run
from simulate.analysis.tables import NONE, categorical_shares


def win_table(rows: Sequence[dict[str, Any]], lvl: str) -> render.Table:
    """Each variant's wins, rate and intervals per seat and for unresolved ties."""
    return render.table(
        ["variant", "outcome", "wins", "games", "win rate", f"{lvl} Wilson", f"{lvl} Goodman"],
        [
            (
                r["variant"],
                "unresolved tie" if r["faction"] == "tie" else r["faction"],
                r["wins"],
                r["n"],
                pct(r["rate"]),
                pct_ci(r["wilson_low"], r["wilson_high"]),
                pct_ci(r["goodman_low"], r["goodman_high"]),
            )
            for r in rows
        ],
    )


def score_table(run: Run, rows: Sequence[dict[str, Any]], lvl: str) -> render.Table:
    """Each variant's final score per seat: mean [interval], median, sd, range."""
    game = run.the_game
    return render.table(
        ["variant", game.seat_word, "games", f"mean {game.score_label} [{lvl}]"]
        + ["median", "sd", "range"],
        [
            (
                r["variant"],
                r["faction"],
                r["n"],
                mean_ci((r["mean"], r["low"], r["high"])),
                num(r["median"], 1),
                num(r["sd"]),
                f"{r['min']}–{r['max']}" if r["min"] is not None else "–",
            )
            for r in rows
        ],
    )


def length_words(run: Run) -> str:
    """The length column in words: ``cards played``, ``turns``."""
    return run.the_game.length.replace("_", " ")


def length_table(run: Run, rows: Sequence[dict[str, Any]], lvl: str) -> render.Table:
    """Each variant's game length: mean [interval], min, median, max."""
    return render.table(
        ["variant", "games", f"{length_words(run)} (mean [{lvl}])", "min", "median", "max"],
        [
            (
                r["variant"],
                r["n"],
                mean_ci(r["mean"], 1),
                r["min"] if r["min"] is not None else "–",
                num(r["median"], 0),
                r["max"] if r["max"] is not None else "–",
            )
            for r in rows
        ],
    )


def tie_table(rows: Sequence[dict[str, Any]], kinds: Sequence[str], lvl: str) -> render.Table:
    """Unresolved ties per variant, and the ties each tiebreak in ``kinds`` broke."""
    head = ["variant", "games", "unresolved ties", "rate", f"{lvl} Wilson"]
    for kind in kinds:
        head += [f"broken by {kind.capitalize()}", "rate", f"{lvl} Wilson"]
    body = []
    for r in rows:
        n = r["n"]
        cells = [r["variant"], n, r["unresolved"], pct(r["unresolved"] / n) if n else "–"]
        cells.append(pct_ci(*r["unresolved_ci"]))
        for kind in kinds:
            count, ci = r["broken"][kind]
            cells += [count, pct(count / n) if n else "–", pct_ci(*ci)]
        body.append(cells)
    return render.table(head, body)


def categorical(run: Run) -> list[dict[str, Any]]:
    """One table per column the game declares categorical (its games table's, then its
    per-step table's): the share of each value per variant, over the finished games."""
    game = run.the_game
    step = f"one per {game.step_label} and {game.seat_word}"
    out = []
    for table, where, columns in (
        ("games", "games table, one row per game", game.game_columns),
        ("turns", f"per-step table, {step}", game.step_columns),
    ):
        for column in columns:
            if not column.categorical:
                continue
            shares = categorical_shares(run, column.name, table)
            by_value = shares.group_by("value").agg(pl.col("count").sum()).iter_rows()
            values = [x for x, _ in sorted(by_value, key=lambda r: (r[0] == NONE, -r[1], r[0]))]
            found = {(r["variant"], r["value"]): r for r in shares.iter_rows(named=True)}
            totals = dict(zip(shares["variant"], shares["total"], strict=True))
            rows = [
                (v, totals.get(v, 0), *(pct(found[(v, x)]["share"]) if (v, x) in found
                                        else pct(0.0) for x in values))
                for v in run.variants
            ]  # fmt: skip
            out.append(
                {
                    "name": column.name,
                    "where": where,
                    "doc": column.doc,
                    "table": render.table(["variant", "rows", *values], rows),
                }
            )
    return out


def game_sections(run: Run, out: Path) -> tuple[list[dict[str, Any]], list[Path]]:
    """The game's own sections (``Game.report_sections``), their figures written into
    ``out``: (sections for the template, the figures' paths)."""
    found = run.the_game.report_sections(run, out)
    sections, pngs = [], []
    for s in found:
        figs = []
        for name in s.figures:
            path = out / name
            if not path.is_file():
                raise ReportError(f"the game's section {s.title!r} names no figure {name}")
            figs.append(render.Figure(path, s.title))
            pngs.append(path)
        sections.append({"title": s.title, "body": s.body.strip(), "figures": figs})
    return sections, pngs
