"""Vijayanagara's own sections of a balance report (``Game.report_sections``): the Deccan
Influence, the Mongol outcomes and the action mix, with their tables and figures. The
generic report (``simulate.analysis.report``) renders them after its own sections."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis import figures as generic_figures
from simulate.analysis import render
from simulate.analysis.figures import save_named
from simulate.analysis.formatting import level, mean_ci, paragraphs, pct
from simulate.analysis.run import Run
from simulate.analysis.tables import mean_ci as interval
from simulate.analysis.tables import turn_curves
from simulate.games import Section
from simulate.vijayanagara import figures
from simulate.vijayanagara.result import FACTIONS

DECCAN = ("BK", "VE")  # the Factions on the Deccan Influence track (1.9)


def sections(run: Run, figures_dir: Path | None) -> list[Section]:
    """The Deccan Influence, the Mongol outcomes and the action mix of ``run``; their
    figures are written into ``figures_dir`` (none when it is None)."""
    confidence = getattr(run, "confidence", 0.95)
    return [
        influence_section(run, figures_dir, confidence),
        mongol_section(run, figures_dir, confidence),
        action_section(run, figures_dir),
    ]


# ---------------------------------------------------------------------------------------------
# Deccan Influence


def influence_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """The final Deccan Influence of BK and VE per variant: mean with its interval."""
    out = []
    for v in run.variants:
        g = run.variant_games(v)
        for f in DECCAN:
            values = g.get_column(f"influence_{f}").drop_nulls().to_list()
            out.append({"variant": v, "faction": f, "n": len(values)})
            out[-1]["influence"] = interval(values, confidence)
    return out


def influence_section(run: Run, figures_dir: Path | None, confidence: float) -> Section:
    lvl = level(confidence)
    table = render.table(
        ["variant", "faction", "games", f"final Influence [{lvl}]"],
        [(r["variant"], r["faction"], r["n"], mean_ci(r["influence"]))
         for r in influence_rows(run, confidence)],
    )  # fmt: skip
    fig = generic_figures.over_turns(
        turn_curves(run, "influence", DECCAN, confidence),
        run.variants,
        DECCAN,
        title="Deccan Influence after each card (BK, VE)",
        ylabel="Influence (track spaces)",
        confidence=confidence,
        xlabel="card played (position in the deck)",
        names=figures.FACTION_NAMES,
        seats=FACTIONS,
    )
    return Section(
        "Deccan Influence",
        paragraphs(
            "The Bahmani Kingdom's and Vijayanagara's positions on the Deccan Influence track "
            "(1.9) after each card, mean and band as in the victory points figure above. Their "
            f"final values (mean with its {lvl} Student-t interval):",
            render.markdown_table(table),
            f"*Mean Deccan Influence after each card, {lvl} band.*",
        ),
        save_named(fig, figures_dir, "influence"),
    )


# ---------------------------------------------------------------------------------------------
# Mongols


def mongol_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Per variant: the Invaders left in Delhi, the Timur bonus (5.1) and its distribution,
    the Sultanate Troops lost to Mongols."""
    out = []
    for v in run.variants:
        g = run.variant_games(v)
        delhi = g.get_column("mongols_in_delhi_end").drop_nulls().to_list()
        bonus = g.get_column("delhi_timur_bonus").drop_nulls().to_list()
        lost = g.get_column("troops_lost_to_mongols").drop_nulls().to_list()
        dist = {b: bonus.count(b) for b in sorted(set(bonus))}
        out.append(
            {
                "variant": v,
                "n": g.height,
                "delhi": interval(delhi, confidence),
                "delhi_empty": sum(1 for d in delhi if d == 0),
                "bonus": interval(bonus, confidence),
                "bonus_dist": dist,
                "lost": interval(lost, confidence),
                "lost_max": max(lost) if lost else None,
            }
        )
    return out


def mongol_section(run: Run, figures_dir: Path | None, confidence: float) -> Section:
    table = render.table(
        [
            "variant",
            "games",
            "Invaders in Delhi at end (mean)",
            "Delhi free of Invaders",
            "Timur bonus to DS (mean)",
            "Timur bonus distribution",
            "Troops lost to Mongols (mean)",
            "max",
        ],
        [
            (
                r["variant"],
                r["n"],
                mean_ci(r["delhi"]),
                pct(r["delhi_empty"] / r["n"]) if r["n"] else "–",
                mean_ci(r["bonus"]),
                ", ".join(
                    f"{b:+d}: {pct(c / r['n'], 0)}" for b, c in sorted(r["bonus_dist"].items())
                ),
                mean_ci(r["lost"]),
                r["lost_max"] if r["lost_max"] is not None else "–",
            )
            for r in mongol_rows(run, confidence)
        ],
    )
    fig = figures.mongol_outcomes(run.ok_games(), run.variants)
    return Section(
        "Mongol outcomes",
        paragraphs(
            render.markdown_table(table),
            "*Mongol Invaders left in Delhi at the end, the resulting Timur bonus to the "
            "Sultanate (5.1: 3 minus the Invaders, at least -3), and Sultanate Troops removed "
            "by Mongols.* DS's VP after each card (the victory points figure above) include the "
            "Timur bonus only at the end.",
        ),
        save_named(fig, figures_dir, "mongols"),
    )


# ---------------------------------------------------------------------------------------------
# Action mix


def action_shares(run: Run) -> pl.DataFrame:
    """Share of each action (event, command_decree, command, limited, pass) among the turns
    where a faction acted (action != none), per variant and faction."""
    ok = run.ok_games().select("variant", "game_index")
    t = run.turns.join(ok, on=["variant", "game_index"], how="semi")
    t = t.filter(pl.col("action") != "none").with_columns(
        pl.when(pl.col("action").str.starts_with("event"))
        .then(pl.lit("event"))
        .otherwise(pl.col("action"))
        .alias("action")
    )
    counts = t.group_by("variant", "faction", "action").len("count")
    totals = counts.group_by("variant", "faction").agg(pl.col("count").sum().alias("total"))
    return (
        counts.join(totals, on=["variant", "faction"])
        .with_columns((pl.col("count") / pl.col("total")).alias("share"))
        .sort("variant", "faction", "action")
    )


def action_table(shares: pl.DataFrame, variants: Sequence[str]) -> render.Table:
    """Per variant and faction: its actions, and the share of each kind."""
    actions = figures.ACTIONS
    lookup = {(r["variant"], r["faction"], r["action"]): r for r in shares.iter_rows(named=True)}
    rows = []
    for v in variants:
        for f in FACTIONS:
            total = next((lookup[(v, f, a)]["total"] for a in actions if (v, f, a) in lookup), 0)
            shown = (pct(lookup[(v, f, a)]["share"]) if (v, f, a) in lookup else pct(0.0)
                     for a in actions)  # fmt: skip
            rows.append((v, f, total, *shown))
    return render.table(
        ["variant", "faction", "actions", *(figures.ACTION_LABELS[a] for a in actions)], rows
    )


def action_section(run: Run, figures_dir: Path | None) -> Section:
    shares = action_shares(run)
    return Section(
        "Action mix",
        paragraphs(
            "What each faction did on the cards where it acted (an eligible faction choosing "
            "Event, Command with a Decree, Command alone, Limited Command, or Pass); cards "
            "where it could not act are left out.",
            render.markdown_table(action_table(shares, run.variants)),
            "*Action mix per faction.*",
        ),
        save_named(figures.action_mix(shares, run.variants), figures_dir, "action_mix"),
    )
