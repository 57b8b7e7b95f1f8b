"""Vijayanagara's own figures in its report: the Mongol outcomes and the action mix, drawn
as ``simulate.analysis.figures`` draws (object API, Agg canvas), in the Factions' colours:
the Delhi Sultanate (DS) dark grey, the Bahmani Kingdom (BK) turquoise, Vijayanagara (VE)
gold."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from simulate.analysis.figures import (
    _figure,
    _grouped_counts,
    _int_range,
    _no_data,
    _pct_axis,
    seat_colours,
    text_colour,
    variant_colour,
    variant_style,
)
from simulate.vijayanagara.result import FACTIONS

FACTION_NAMES = {"DS": "Delhi Sultanate", "BK": "Bahmani Kingdom", "VE": "Vijayanagara"}
FACTION_COLOURS = seat_colours(FACTIONS)
FACTION_TEXT_COLOURS = {f: text_colour(FACTIONS, f) for f in FACTIONS}
ACTIONS = ("event", "command_decree", "command", "limited", "pass")
ACTION_LABELS = {
    "event": "Event",
    "command_decree": "Command + Decree",
    "command": "Command only",
    "limited": "Limited Command",
    "pass": "Pass",
}
ACTION_COLOURS = {
    "event": "#984ea3",
    "command_decree": "#377eb8",
    "command": "#a6cee3",
    "limited": "#fdbf6f",
    "pass": "#d9d9d9",
}


def mongol_outcomes(games: pl.DataFrame, variants: Sequence[str]) -> Figure:
    """Invaders left in Delhi at the end, Delhi's Timur bonus (5.1), Troops lost to Mongols."""
    fig = _figure(12.5, 4.0)
    axes = fig.subplots(1, 3)
    panels = (
        ("mongols_in_delhi_end", "Mongol Invaders in Delhi at the end", "Invaders (pieces)", 0),
        ("delhi_timur_bonus", "Delhi's Timur bonus to DS (5.1)", "bonus (VP)", None),
    )
    for ax, (col, title, xlabel, lo) in zip(axes[:2], panels, strict=True):
        values = _int_range(games, col, lo) if games.height else []
        if col == "delhi_timur_bonus" and values:
            values = list(range(min(-3, values[0]), max(3, values[-1]) + 1))
        if not values:
            _no_data(ax)
        else:
            _grouped_counts(ax, games, col, variants, values)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
    axes[0].set_ylabel("share of games (%)")
    ax = axes[2]
    col = "troops_lost_to_mongols"
    s = games.get_column(col).drop_nulls() if games.height else pl.Series([])
    if s.len() == 0:
        _no_data(ax)
    else:
        lo, hi = int(s.min()), int(s.max())
        step = max(1, math.ceil((hi - lo + 1) / 25))
        edges = np.arange(lo, hi + step + 1, step) - 0.5
        for i, v in enumerate(variants):
            x = games.filter(pl.col("variant") == v).get_column(col).drop_nulls().to_numpy()
            if x.size:
                ax.hist(
                    x,
                    edges,
                    weights=np.full(x.size, 1.0 / x.size),
                    histtype="step",
                    lw=1.8,
                    color=variant_colour(i),
                    linestyle=variant_style(i),
                    label=f"{v} (mean {x.mean():.1f})",
                )
        _pct_axis(ax)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    ax.set_title("Sultanate Troops lost to Mongols")
    ax.set_xlabel("Troops removed per game (pieces)")
    handles = [Patch(color=variant_colour(i)) for i in range(len(variants))]
    fig.legend(handles, list(variants), loc="outside lower center", ncol=len(variants), fontsize=9)
    fig.suptitle("Mongol outcomes (share of games)")
    return fig


def action_mix(shares: pl.DataFrame, variants: Sequence[str]) -> Figure:
    """What each faction did when it acted: stacked shares of its actions.

    ``shares``: columns variant, faction, action (one of ACTIONS), share.
    """
    labels = [(v, f) for v in variants for f in FACTIONS]
    fig = _figure(9.5, 1.0 + 0.42 * len(labels) + 0.25 * len(variants))
    ax = fig.add_subplot()
    y = []
    pos = 0.0
    for i, _ in enumerate(labels):
        if i and i % len(FACTIONS) == 0:
            pos += 0.6  # a gap between variants
        y.append(pos)
        pos += 1
    lookup = {
        (r["variant"], r["faction"], r["action"]): r["share"] for r in shares.iter_rows(named=True)
    }
    left = np.zeros(len(labels))
    for a in ACTIONS:
        widths = np.array([lookup.get((v, f, a), 0.0) for v, f in labels])
        ax.barh(y, widths, 0.8, left=left, color=ACTION_COLOURS[a], label=ACTION_LABELS[a])
        for yy, lft, w in zip(y, left, widths, strict=True):
            if w >= 0.06:
                ax.text(
                    lft + w / 2,
                    yy,
                    f"{100 * w:.0f}%",
                    ha="center",
                    va="center",
                    fontsize=7.5,
                    color="white" if a in ("event", "command_decree") else "black",
                )
        left += widths
    ax.set_yticks(y)
    ax.set_yticklabels([f"{f} · {v}" if len(variants) > 1 else f for v, f in labels])
    for tick, (_, f) in zip(ax.get_yticklabels(), labels, strict=True):
        tick.set_color(FACTION_TEXT_COLOURS[f])
        tick.set_fontweight("bold")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    _pct_axis(ax, "x")
    ax.set_xlabel("share of the faction's turns as an eligible faction (%)")
    ax.set_title("Action mix per faction")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5)
    return fig
