"""Figures of a balance report, drawn with matplotlib's object API on the Agg canvas.

Each function takes summaries computed by :mod:`simulate.report` (plain rows or polars
frames) and returns a :class:`matplotlib.figure.Figure`; :func:`save` writes it as a PNG.
No pyplot state is touched, so the functions are safe in scripts, tests and notebooks.

Colours follow the game: the Delhi Sultanate (DS) dark grey, the Bahmani Kingdom (BK)
turquoise, Vijayanagara (VE) gold. Variants are told apart by line style or by a second,
faction-free palette.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

FACTIONS = ("DS", "BK", "VE")
FACTION_NAMES = {"DS": "Delhi Sultanate", "BK": "Bahmani Kingdom", "VE": "Vijayanagara"}
FACTION_COLOURS = {"DS": "#2b2b2b", "BK": "#14a3a3", "VE": "#e0aa00", "tie": "#a6a6a6"}
# Variants: a palette with none of the faction colours in it.
VARIANT_COLOURS = ("#6a3d9a", "#d95f02", "#1f78b4", "#e7298a", "#66a61e", "#a6761d")
VARIANT_STYLES = ("-", "--", ":", "-.")
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
DPI = 110


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def variant_colour(i: int) -> str:
    return VARIANT_COLOURS[i % len(VARIANT_COLOURS)]


def spec_label(spec: str, width: int = 30) -> str:
    """A strategy spec as a figure label: broken after the commas between its parameters
    into lines of about ``width`` characters, so that a long one does not squeeze the axes."""
    lines: list[str] = []
    for part in spec.split(","):
        if lines and len(lines[-1]) + len(part) + 1 <= width:
            lines[-1] += "," + part
        else:
            if lines:
                lines[-1] += ","
            lines.append(part)
    return "\n".join(lines)


def variant_style(i: int) -> str:
    return VARIANT_STYLES[i % len(VARIANT_STYLES)]


def save(fig: Figure, path: Path | str) -> Path:
    """Write ``fig`` as a PNG at ``path`` and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, format="png", facecolor="white")
    return path


def data_uri(path: Path | str) -> str:
    """A PNG file as a ``data:image/png;base64,...`` URI (for self-contained HTML)."""
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def _pct_axis(ax: Any, axis: str = "y") -> None:
    from matplotlib.ticker import FuncFormatter

    fmt = FuncFormatter(lambda x, _pos: f"{round(100 * x, 2):g}%")
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def _no_data(ax: Any, text: str = "no data") -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#666")
    ax.set_xticks([])
    ax.set_yticks([])


# ---------------------------------------------------------------------------------------------
# Win rates


def win_rates(
    rows: Sequence[Mapping[str, Any]], variants: Sequence[str], confidence: float = 0.95
) -> Figure:
    """Win rate per faction (and unresolved ties) for each variant, with its intervals.

    ``rows``: ``stats.win_rate_table`` rows with a ``variant`` key added.
    """
    outcomes = (*FACTIONS, "tie")
    nv = len(variants)
    fig = _figure(max(7.5, 2.6 * nv + 3.0), 4.8)
    ax = fig.add_subplot()
    width = 0.8 / len(outcomes)
    by_key = {(r["variant"], r["faction"]): r for r in rows}
    for j, outcome in enumerate(outcomes):
        xs, ys, wil, goo = [], [], [], []
        for i, v in enumerate(variants):
            r = by_key.get((v, outcome))
            if r is None or not r["n"]:
                continue
            x = i + (j - (len(outcomes) - 1) / 2) * width
            xs.append(x)
            ys.append(r["rate"])
            wil.append((r["rate"] - r["wilson_low"], r["wilson_high"] - r["rate"]))
            goo.append((r["rate"] - r["goodman_low"], r["goodman_high"] - r["rate"]))
        if not xs:
            continue
        label = "unresolved tie" if outcome == "tie" else f"{outcome} ({FACTION_NAMES[outcome]})"
        ax.bar(
            xs,
            ys,
            width * 0.92,
            color=FACTION_COLOURS[outcome],
            label=label,
            hatch="//" if outcome == "tie" else None,
            edgecolor="white" if outcome != "tie" else "#777777",
        )
        # two kinds of interval, told apart by shape: Goodman a wide pale band behind,
        # Wilson a thin dark line with caps in front
        g = np.array(goo).T
        ax.errorbar(
            xs, ys, yerr=g, fmt="none", ecolor="#b8b8b8", elinewidth=7, capsize=0, alpha=0.85
        )
        w = np.array(wil).T
        ax.errorbar(xs, ys, yerr=w, fmt="none", ecolor="#7a1f14", elinewidth=1.4, capsize=4)
        for x, y, hi in zip(xs, ys, np.array(ys) + g[1], strict=True):
            ax.text(x, hi + 0.015, f"{100 * y:.1f}%", ha="center", va="bottom", fontsize=7.5)
    if not any(r["n"] for r in rows):
        ax.text(0.5, 0.5, "no finished games", ha="center", va="center", transform=ax.transAxes)
    ax.set_xticks(range(nv))
    ax.set_xticklabels(variants)
    ax.set_xlim(-0.6, nv - 0.4)
    top = max((r["goodman_high"] for r in rows if r["n"]), default=0.5)
    ax.set_ylim(0, min(1.0, max(0.45, top + 0.08)))  # room for the labels, not up to 100%
    ax.axhline(1 / 3, color="#444444", lw=1, ls="--", zorder=0)
    ax.annotate(
        "parity (1/3)", (1.0, 1 / 3), xycoords=("axes fraction", "data"), xytext=(-4, 3),
        textcoords="offset points", ha="right", fontsize=8, color="#444444",
    )  # fmt: skip
    _pct_axis(ax)
    ax.set_ylabel("share of games won (%)")
    ax.set_xlabel("variant")
    ax.set_title("Win rate by faction (errored games excluded)")
    handles, labels = ax.get_legend_handles_labels()
    handles += [
        Line2D([], [], color="#7a1f14", lw=1.4, marker="_", markersize=8),
        Line2D([], [], color="#b8b8b8", lw=7),
        Line2D([], [], color="#444444", lw=1, ls="--"),
    ]
    level = f"{100 * confidence:g}%"
    labels += [
        f"{level} Wilson interval (each rate)",
        f"{level} Goodman (all rates at once)",
        "parity: one third each",
    ]
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5)
    ax.grid(axis="y", alpha=0.3)
    return fig


# ---------------------------------------------------------------------------------------------
# Distributions of final values


def vp_distribution(games: pl.DataFrame, variants: Sequence[str]) -> Figure:
    """Final victory points: one panel per faction, one line per variant (share of games)."""
    fig = _figure(11.0, 3.8)
    axes = fig.subplots(1, 3, sharey=True)
    for ax, f in zip(axes, FACTIONS, strict=True):
        col = f"vp_{f}"
        values = games.get_column(col).drop_nulls() if games.height else pl.Series([])
        if values.len() == 0:
            _no_data(ax)
            ax.set_title(f"{f} ({FACTION_NAMES[f]})")
            continue
        lo, hi = int(values.min()), int(values.max())
        edges = np.arange(lo - 0.5, hi + 1.5)
        for i, v in enumerate(variants):
            x = games.filter(pl.col("variant") == v).get_column(col).drop_nulls().to_numpy()
            if x.size == 0:
                continue
            weights = np.full(x.size, 1.0 / x.size)
            if i == 0:
                ax.hist(x, edges, weights=weights, color=FACTION_COLOURS[f], alpha=0.35)
            ax.hist(
                x,
                edges,
                weights=weights,
                histtype="step",
                color=FACTION_COLOURS[f],
                linestyle=variant_style(i),
                linewidth=1.8,
            )
        ax.set_title(f"{f} ({FACTION_NAMES[f]})")
        ax.set_xlabel("final victory points (VP)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("share of games (%)")
    _pct_axis(axes[0])
    handles = [
        Patch(facecolor="#bbbbbb", edgecolor="#444444", linestyle=variant_style(i), lw=1.5)
        if i == 0
        else Line2D([], [], color="#444444", linestyle=variant_style(i), lw=1.8)
        for i in range(len(variants))
    ]
    fig.legend(
        handles,
        [f"variant: {v}" for v in variants],
        loc="outside lower center",
        ncol=max(1, len(variants)),
        fontsize=9,
    )
    fig.suptitle("Final victory points by faction (share of finished games)")
    return fig


def over_turns(
    curves: pl.DataFrame,
    variants: Sequence[str],
    factions: Sequence[str],
    *,
    title: str,
    ylabel: str,
    confidence: float = 0.95,
) -> Figure:
    """Mean of a per-card quantity over the card position, with its band, one panel per
    variant.

    ``curves``: columns variant, faction, turn, mean, low, high, n.
    """
    nv = max(1, len(variants))
    cols = min(nv, 2)
    rows = math.ceil(nv / cols)
    fig = _figure(6.0 * cols + 1.0, 3.9 * rows)
    axes = np.atleast_1d(fig.subplots(rows, cols, sharey=True, squeeze=False)).ravel()
    for ax, v in zip(axes, variants, strict=False):
        sub = curves.filter(pl.col("variant") == v)
        if sub.height == 0:
            _no_data(ax)
            ax.set_title(v)
            continue
        for f in factions:
            c = sub.filter(pl.col("faction") == f).sort("turn")
            if c.height == 0:
                continue
            t = c.get_column("turn").to_numpy()
            ax.fill_between(
                t,
                c.get_column("low").to_numpy(),
                c.get_column("high").to_numpy(),
                color=FACTION_COLOURS[f],
                alpha=0.22,
                linewidth=0,
            )
            ax.plot(t, c.get_column("mean").to_numpy(), color=FACTION_COLOURS[f], lw=2, label=f)
        ax.set_title(f"variant: {v}")
        ax.set_xlabel("card played (position in the deck)")
        ax.grid(alpha=0.3)
        ax.tick_params(labelleft=True)
    for ax in axes[len(variants) :]:
        ax.set_visible(False)
    for ax in axes[::cols]:
        ax.set_ylabel(ylabel)
    handles = [Line2D([], [], color=FACTION_COLOURS[f], lw=2) for f in factions]
    labels = [f"{f} ({FACTION_NAMES[f]}), mean" for f in factions]
    handles.append(Patch(color="#888888", alpha=0.3))
    labels.append(f"{100 * confidence:g}% interval of the mean")
    # two legend columns at most: a one-panel figure is too narrow for one row of four
    fig.legend(handles, labels, loc="outside lower center", ncol=min(2, len(labels)), fontsize=8.5)
    fig.suptitle(title)
    return fig


def _grouped_counts(
    ax: Any, games: pl.DataFrame, column: str, variants: Sequence[str], values: Sequence[int]
) -> None:
    """Bars of the share of games per integer value of ``column``, grouped by variant."""
    nv = max(1, len(variants))
    width = 0.8 / nv
    for i, v in enumerate(variants):
        x = games.filter(pl.col("variant") == v).get_column(column).drop_nulls().to_list()
        if not x:
            continue
        shares = [x.count(val) / len(x) for val in values]
        pos = np.arange(len(values)) + (i - (nv - 1) / 2) * width
        ax.bar(pos, shares, width * 0.95, color=variant_colour(i), label=v)
    ax.set_xticks(np.arange(len(values)))
    step = max(1, math.ceil(len(values) / 14))
    ax.set_xticklabels([str(val) if k % step == 0 else "" for k, val in enumerate(values)])
    _pct_axis(ax)
    ax.grid(axis="y", alpha=0.3)


def _int_range(games: pl.DataFrame, column: str, lo: int | None = None) -> list[int]:
    s = games.get_column(column).drop_nulls()
    if s.len() == 0:
        return []
    low = int(s.min()) if lo is None else min(lo, int(s.min()))
    return list(range(low, int(s.max()) + 1))


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


def game_length(games: pl.DataFrame, variants: Sequence[str]) -> Figure:
    """Cards played per game, one bar group per variant."""
    fig = _figure(7.5, 3.8)
    ax = fig.add_subplot()
    values = _int_range(games, "cards_played") if games.height else []
    if not values:
        _no_data(ax)
    else:
        _grouped_counts(ax, games, "cards_played", variants, values)
        ax.legend(title="variant", fontsize=8.5)
    ax.set_xlabel("cards played in the game")
    ax.set_ylabel("share of games (%)")
    ax.set_title("Game length")
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
        tick.set_color(FACTION_COLOURS[f] if f != "VE" else "#9c7600")
        tick.set_fontweight("bold")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    _pct_axis(ax, "x")
    ax.set_xlabel("share of the faction's turns as an eligible faction (%)")
    ax.set_title("Action mix per faction")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5)
    return fig


# ---------------------------------------------------------------------------------------------
# Paired comparison


def _signed(x: float, digits: int) -> str:
    """``x`` with its sign, and no "-0.0" for a value that rounds to zero."""
    text = f"{x:+.{digits}f}"
    return "+" + text[1:] if float(text) == 0 else text


def comparison(
    wins: Sequence[Mapping[str, Any]],
    vp: Sequence[Mapping[str, Any]],
    label_a: str,
    label_b: str,
    confidence: float = 0.95,
) -> Figure:
    """Per-faction difference B - A: win rate (paired Newcombe interval) and mean VP
    (paired bootstrap interval)."""
    fig = _figure(11.0, 3.6)
    ax_w, ax_v = fig.subplots(1, 2)
    level = f"{100 * confidence:g}%"
    for ax, rows, scale, unit, title, digits in (
        (ax_w, wins, 100.0, "percentage points", "Win rate", 1),
        (ax_v, vp, 1.0, "VP", "Mean final VP", 2),
    ):
        names = [r["faction"] for r in rows]
        ypos = np.arange(len(rows))
        for yy, r in zip(ypos, rows, strict=True):
            colour = FACTION_COLOURS.get(r["faction"], "#a6a6a6")
            d, lo, hi = (scale * r[k] for k in ("diff", "diff_low", "diff_high"))
            err = [[max(d - lo, 0.0)], [max(hi - d, 0.0)]]  # a sequential interval may miss d
            ax.errorbar([d], [yy], xerr=err, fmt="o", color=colour, ms=7, capsize=4, lw=2)
            ax.annotate(
                f"{_signed(d, digits)} [{_signed(lo, digits)}, {_signed(hi, digits)}]",
                (hi, yy),
                xytext=(6, 0),
                textcoords="offset points",
                va="center",
                fontsize=8.5,
                zorder=5,  # over the zero line, on white: a minus sign beside it stays legible
                bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none"},
            )
        ax.axvline(0, color="#555555", lw=1, ls="--", zorder=0)
        ax.set_yticks(ypos)
        ax.set_yticklabels(["unresolved tie" if n == "tie" else n for n in names])
        ax.invert_yaxis()
        ax.set_xlabel(f"{label_b} minus {label_a} ({unit})")
        ax.set_title(f"{title}: difference with {level} paired interval")
        ax.grid(axis="x", alpha=0.3)
        if rows:
            lo_all = min(scale * r["diff_low"] for r in rows)
            hi_all = max(scale * r["diff_high"] for r in rows)
            span = max(hi_all - lo_all, 1e-6)
            ax.set_xlim(min(lo_all, 0) - 0.08 * span, max(hi_all, 0) + 0.65 * span)
            ax.set_ylim(len(rows) - 0.5, -0.5)
    fig.suptitle(f"Paired comparison on common seeds: {label_b} vs {label_a}")
    return fig


def ladder(gains: Sequence[Any], confidence: float = 0.95) -> Figure:
    """Deviation gain per seat (panel) and challenger (row), with paired intervals."""
    seats = [f for f in FACTION_NAMES if any(g.faction == f for g in gains)] or ["DS"]
    # a row per challenger, as many lines high as its label (``spec_label``)
    lines = [
        sum(spec_label(g.challenger).count("\n") + 1 for g in gains if g.faction == f)
        for f in seats
    ]
    rows = max(1, max(lines, default=1))
    fig = _figure(4.0 * len(seats) + 1.0, 1.2 + 0.55 * rows)
    axes = np.atleast_1d(fig.subplots(1, len(seats), sharex=True))
    level = f"{100 * confidence:g}%"
    for ax, f in zip(axes, seats, strict=True):
        mine = [g for g in gains if g.faction == f]
        for y, g in enumerate(mine):
            d, lo, hi = 100 * g.gain, 100 * g.gain_lo, 100 * g.gain_hi
            ax.errorbar(
                [d], [y], xerr=[[d - lo], [hi - d]], fmt="o", color=FACTION_COLOURS[f], capsize=4
            )
        ax.axvline(0, color="#555555", lw=1, ls="--")
        ax.set_yticks(range(len(mine)))
        ax.set_yticklabels(
            [f"{spec_label(g.challenger)} (n={g.games})" for g in mine], fontsize=8.5
        )
        ax.set_ylim(len(mine) - 0.5, -0.5)
        ax.set_title(FACTION_NAMES[f])
        ax.set_xlabel("gain in win rate (percentage points)")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Deviation gain against the field, {level} paired intervals")
    return fig


def sweep(
    rows: Sequence[Mapping[str, Any]], variants: Sequence[str], key: str, confidence: float = 0.95
) -> Figure:
    """Each Faction's win rate against the swept value (one variant per value), with its
    Wilson interval, and the parity line."""
    fig = _figure(7.5, 4.2)
    ax = fig.add_subplot()
    values = [v.split("=", 1)[1] if "=" in v else v for v in variants]
    by_key = {(r["variant"], r["faction"]): r for r in rows}
    x = np.arange(len(variants))
    for j, f in enumerate(FACTIONS):
        pts = [by_key.get((v, f)) for v in variants]
        rate = np.array([p["rate"] if p else np.nan for p in pts])
        lo = np.array([p["wilson_low"] if p else np.nan for p in pts])
        hi = np.array([p["wilson_high"] if p else np.nan for p in pts])
        off = (j - 1) * 0.06
        ax.errorbar(
            x + off, rate, yerr=[rate - lo, hi - rate], color=FACTION_COLOURS[f], marker="o",
            capsize=3, lw=1.8, label=f"{f} ({FACTION_NAMES[f]})",
        )  # fmt: skip
    ax.axhline(1 / 3, color="#444444", lw=1, ls="--", label="parity (1/3)")
    ax.set_xticks(x)
    ax.set_xticklabels(values)
    ax.set_xlabel(key)
    _pct_axis(ax)
    ax.set_ylabel("share of games won (%)")
    ax.set_title(f"Win rate against {key} ({100 * confidence:g}% Wilson intervals)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8.5)
    return fig


def tuning_progress(phases: Sequence[Mapping[str, Any]]) -> Figure:
    """Each Faction's score against its pool (win rate + a share of the VP margin), phase
    after phase of a bot tuning: the incumbent's on the search seeds, and (where one was
    tried) the best candidate's on the validation seeds."""
    fig = _figure(7.5, 4.2)
    ax = fig.add_subplot()
    seats = [f for f in FACTIONS if any(p["faction"] == f for p in phases)]
    for f in seats:
        mine = [p for p in phases if p["faction"] == f]
        rounds = [p["round"] + 1 for p in mine]
        ax.plot(
            rounds, [100 * p["incumbent"] for p in mine], "o-", color=FACTION_COLOURS[f],
            label=f"{FACTION_NAMES[f]}: incumbent",
        )  # fmt: skip
        tried = [p for p in mine if p.get("validated")]
        if tried:
            ax.scatter(
                [p["round"] + 1 for p in tried],
                [100 * p["validated"][1] for p in tried],
                marker="x", color=FACTION_COLOURS[f], label=f"{FACTION_NAMES[f]}: best, validated",
            )  # fmt: skip
    ax.axhline(100 / 3, color="#555555", lw=1, ls="--", label="parity")
    ax.set_xlabel("round")
    ax.set_ylabel("score against the pool (win rate + VP share, %)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.suptitle("Bot tuning: each seat's score against its pool, round by round")
    return fig


def sensitivity(rows: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> Figure:
    """Each Faction's win rate against each searched key's value (one panel per key), every
    candidate of a variant search at its largest number of games (point size: games)."""
    import json

    best: dict[int, Mapping[str, Any]] = {}
    for r in rows:
        if r["trial"] not in best or r["games"] > best[r["trial"]]["games"]:
            best[r["trial"]] = r
    panels = max(1, len(keys))
    fig = _figure(4.2 * panels, 3.8)
    axes = np.atleast_1d(fig.subplots(1, panels, sharey=True))
    for ax, key in zip(axes, keys, strict=False):
        for f in FACTIONS:
            xs, ys, sizes = [], [], []
            for r in best.values():
                value = json.loads(r["params"]).get(key)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    xs.append(value)
                    ys.append(100 * r[f"win_{f}"])
                    sizes.append(8 + 40 * r["games"] / max(x["games"] for x in best.values()))
            ax.scatter(xs, ys, s=sizes, color=FACTION_COLOURS[f], alpha=0.6, label=FACTION_NAMES[f])
        ax.axhline(100 / 3, color="#555555", lw=1, ls="--")
        ax.set_xlabel(key)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate (%)")
    axes[0].legend(fontsize=8)
    fig.suptitle("Win rate against each searched value (every candidate; size: games)")
    return fig


def tiers(rows: Sequence[tuple[str, float, float]]) -> Figure:
    """Strength (mean deviation gain against the default field) against speed (games/s per
    core, log scale) of each bot tier: the frontier a study chooses its bots on."""
    fig = _figure(7.5, 4.4)
    ax = fig.add_subplot()
    for spec, rate, gain in rows:
        ax.scatter([rate], [100 * gain], color=FACTION_COLOURS["DS"], s=30)
        ax.annotate(spec, (rate, 100 * gain), fontsize=8, xytext=(5, 4), textcoords="offset points")
    ax.axvline(20, color="#14a3a3", lw=1, ls=":", label="20 games/s per core")
    ax.axhline(0, color="#555555", lw=1, ls="--", label="the default field")
    ax.set_xscale("log")
    ax.set_xlabel("games per second on one core (every seat this bot)")
    ax.set_ylabel("mean gain over the 3 seats (points)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.suptitle("Bot tiers: strength against the default field, and speed")
    return fig
