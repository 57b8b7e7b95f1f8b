"""Figures of a balance report, drawn with matplotlib's object API on the Agg canvas.

Each function takes summaries computed by :mod:`simulate.analysis.tables` (plain rows or
polars frames) and returns a :class:`matplotlib.figure.Figure`; :func:`save` writes it as a
PNG. No pyplot state is touched, so the functions are safe in scripts, tests and notebooks.

Seats have colours by their place in turn order (``seat_colours``; a game may give its own,
``seat_colours`` of its declaration) and their names where the game gives them
(``names``). Variants are told apart by line style or by a second, seat-free palette.
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

from simulate.analysis import terms

# Seats by their place in turn order (a dark grey, a turquoise, a gold, then more).
SEAT_COLOURS = ("#2b2b2b", "#14a3a3", "#e0aa00", "#c0392b", "#4a6fa5", "#8e6c8a", "#6b8e23")
SEAT_TEXT_COLOURS = ("#2b2b2b", "#14a3a3", "#9c7600", "#c0392b", "#4a6fa5", "#8e6c8a", "#6b8e23")
TIE_COLOUR = "#a6a6a6"
# Variants: a palette with none of the seat colours in it.
VARIANT_COLOURS = ("#6a3d9a", "#d95f02", "#1f78b4", "#e7298a", "#66a61e", "#a6761d")
VARIANT_STYLES = ("-", "--", ":", "-.")
DPI = 110


def seat_colours(seats: Sequence[str], given: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each seat's colour (``given`` first, else by its place in turn order), and the tie's."""
    given = given or {}
    out = {s: given.get(s, SEAT_COLOURS[i % len(SEAT_COLOURS)]) for i, s in enumerate(seats)}
    return out | {terms.TIE: TIE_COLOUR}


def text_colour(seats: Sequence[str], seat: str) -> str:
    """A seat's colour for text (a darker gold: legible on white)."""
    i = list(seats).index(seat) if seat in seats else 0
    return SEAT_TEXT_COLOURS[i % len(SEAT_TEXT_COLOURS)]


def seat_label(seat: str, names: Mapping[str, str] | None = None) -> str:
    """``P1 (the first player)`` where the game names its seats, else the seat."""
    name = (names or {}).get(seat)
    return f"{seat} ({name})" if name else seat


def _seats_of(rows: Sequence[Mapping[str, Any]], key: str = "faction") -> list[str]:
    """The seats rows name, in order of first appearance (the tie left out)."""
    return [s for s in dict.fromkeys(str(r[key]) for r in rows) if s != terms.TIE]


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


def save_named(fig: Figure, figures_dir: Path | None, name: str) -> tuple[str, ...]:
    """``fig`` saved as ``name.png`` into ``figures_dir``, and that file's name for a report
    section's ``figures`` (none when ``figures_dir`` is None)."""
    if figures_dir is None:
        return ()
    save(fig, Path(figures_dir) / f"{name}.png")
    return (f"{name}.png",)


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
    rows: Sequence[Mapping[str, Any]],
    variants: Sequence[str],
    confidence: float = 0.95,
    *,
    seats: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
    seat_word: str = "seat",
) -> Figure:
    """Win rate per seat (and unresolved ties) for each variant, with its intervals, and the
    parity line at 1/n.

    ``rows``: ``stats.win_rate_table`` rows with a ``variant`` key added; ``seats``: in turn
    order (None: as the rows name them).
    """
    seats = list(seats) if seats is not None else _seats_of(rows)
    colours = seat_colours(seats)
    outcomes = terms.outcomes(seats)
    parity = terms.parity(max(1, len(seats)))
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
        label = "unresolved tie" if outcome == terms.TIE else seat_label(outcome, names)
        ax.bar(
            xs,
            ys,
            width * 0.92,
            color=colours[outcome],
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
    ax.set_ylim(0, min(1.0, max(0.45, 1.35 * parity, top + 0.08)))  # not up to 100%
    ax.axhline(parity, color="#444444", lw=1, ls="--", zorder=0)
    ax.annotate(
        f"parity ({terms.parity_text(len(seats))})", (1.0, parity),
        xycoords=("axes fraction", "data"), xytext=(-4, 3), textcoords="offset points",
        ha="right", fontsize=8, color="#444444",
    )  # fmt: skip
    _pct_axis(ax)
    ax.set_ylabel("share of games won (%)")
    ax.set_xlabel("variant")
    ax.set_title(f"Win rate by {seat_word} (errored games excluded)")
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
        f"parity: {terms.parity_text(len(seats))} each",
    ]
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5)
    ax.grid(axis="y", alpha=0.3)
    return fig


# ---------------------------------------------------------------------------------------------
# Distributions of final values


def score_distribution(
    games: pl.DataFrame,
    variants: Sequence[str],
    columns: Mapping[str, str],
    *,
    label: str = "score",
    seat_word: str = "seat",
    names: Mapping[str, str] | None = None,
) -> Figure:
    """Final scores: one panel per seat (``columns``: seat -> its score column, in turn
    order), one line per variant (share of games); ``label``: the score's name."""
    seats = list(columns)
    colours = seat_colours(seats)
    fig = _figure(max(11.0, 3.6 * len(seats)), 3.8)
    axes = np.atleast_1d(fig.subplots(1, max(1, len(seats)), sharey=True))
    for ax, f in zip(axes, seats, strict=True):
        col = columns[f]
        values = games.get_column(col).drop_nulls() if games.height else pl.Series([])
        if values.len() == 0:
            _no_data(ax)
            ax.set_title(seat_label(f, names))
            continue
        lo, hi = int(values.min()), int(values.max())
        edges = np.arange(lo - 0.5, hi + 1.5)
        for i, v in enumerate(variants):
            x = games.filter(pl.col("variant") == v).get_column(col).drop_nulls().to_numpy()
            if x.size == 0:
                continue
            weights = np.full(x.size, 1.0 / x.size)
            if i == 0:
                ax.hist(x, edges, weights=weights, color=colours[f], alpha=0.35)
            ax.hist(
                x,
                edges,
                weights=weights,
                histtype="step",
                color=colours[f],
                linestyle=variant_style(i),
                linewidth=1.8,
            )
        ax.set_title(seat_label(f, names))
        ax.set_xlabel(f"final {label}")
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
    fig.suptitle(f"Final {label} by {seat_word} (share of finished games)")
    return fig


def over_turns(
    curves: pl.DataFrame,
    variants: Sequence[str],
    factions: Sequence[str],
    *,
    title: str,
    ylabel: str,
    confidence: float = 0.95,
    xlabel: str = "step (position in the game)",
    names: Mapping[str, str] | None = None,
    seats: Sequence[str] | None = None,
) -> Figure:
    """Mean of a per-step quantity over the step's position, with its band, one panel per
    variant, one line per seat of ``factions``; ``seats``: every seat in turn order (their
    colours; None: ``factions``).

    ``curves``: columns variant, faction (the seat), turn (the position), mean, low, high, n.
    """
    colours = seat_colours(list(seats) if seats is not None else list(factions))
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
                color=colours[f],
                alpha=0.22,
                linewidth=0,
            )
            ax.plot(t, c.get_column("mean").to_numpy(), color=colours[f], lw=2, label=f)
        ax.set_title(f"variant: {v}")
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
        ax.tick_params(labelleft=True)
    for ax in axes[len(variants) :]:
        ax.set_visible(False)
    for ax in axes[::cols]:
        ax.set_ylabel(ylabel)
    handles = [Line2D([], [], color=colours[f], lw=2) for f in factions]
    labels = [f"{seat_label(f, names)}, mean" for f in factions]
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


def game_length(
    games: pl.DataFrame, variants: Sequence[str], column: str, unit: str = "steps"
) -> Figure:
    """The game's length (``column``, in ``unit``) per game, one bar group per variant."""
    fig = _figure(7.5, 3.8)
    ax = fig.add_subplot()
    values = _int_range(games, column) if games.height else []
    if not values:
        _no_data(ax)
    else:
        _grouped_counts(ax, games, column, variants, values)
        ax.legend(title="variant", fontsize=8.5)
    ax.set_xlabel(f"{unit} in the game")
    ax.set_ylabel("share of games (%)")
    ax.set_title("Game length")
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
    *,
    seats: Sequence[str] | None = None,
    score_label: str | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """Per-seat difference B - A: win rate (paired Newcombe interval) and mean final score
    (paired bootstrap interval; ``score_label`` None: the default game's)."""
    score = score_label or terms.game_of().score_label
    colours = seat_colours(list(seats) if seats is not None else _seats_of([*wins, *vp]))
    fig = _figure(11.0, 3.6)
    ax_w, ax_v = fig.subplots(1, 2)
    level = f"{100 * confidence:g}%"
    for ax, rows, scale, unit, title, digits in (
        (ax_w, wins, 100.0, "percentage points", "Win rate", 1),
        (ax_v, vp, 1.0, score, f"Mean final {score}", 2),
    ):
        labels = [r["faction"] for r in rows]
        ypos = np.arange(len(rows))
        for yy, r in zip(ypos, rows, strict=True):
            colour = colours.get(r["faction"], TIE_COLOUR)
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
        ax.set_yticklabels(["unresolved tie" if n == terms.TIE else n for n in labels])
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


def ladder(
    gains: Sequence[Any],
    confidence: float = 0.95,
    *,
    seats: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """Deviation gain per seat (panel; ``seats`` in turn order, None: as the gains name
    them) and challenger (row), with paired intervals."""
    order = list(seats) if seats is not None else list(dict.fromkeys(g.faction for g in gains))
    colours = seat_colours(order)
    seats = [f for f in order if any(g.faction == f for g in gains)] or order[:1] or ["?"]
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
                [d], [y], xerr=[[d - lo], [hi - d]], fmt="o", color=colours.get(f), capsize=4
            )
        ax.axvline(0, color="#555555", lw=1, ls="--")
        ax.set_yticks(range(len(mine)))
        ax.set_yticklabels(
            [f"{spec_label(g.challenger)} (n={g.games})" for g in mine], fontsize=8.5
        )
        ax.set_ylim(len(mine) - 0.5, -0.5)
        ax.set_title((names or {}).get(f, f))
        ax.set_xlabel("gain in win rate (percentage points)")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Deviation gain against the field, {level} paired intervals")
    return fig


def sweep(
    rows: Sequence[Mapping[str, Any]],
    variants: Sequence[str],
    key: str,
    confidence: float = 0.95,
    *,
    seats: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """Each seat's win rate against the swept value (one variant per value), with its
    Wilson interval, and the parity line (1/n)."""
    seats = list(seats) if seats is not None else _seats_of(rows)
    colours = seat_colours(seats)
    fig = _figure(7.5, 4.2)
    ax = fig.add_subplot()
    values = [v.split("=", 1)[1] if "=" in v else v for v in variants]
    by_key = {(r["variant"], r["faction"]): r for r in rows}
    x = np.arange(len(variants))
    for j, f in enumerate(seats):
        pts = [by_key.get((v, f)) for v in variants]
        rate = np.array([p["rate"] if p else np.nan for p in pts])
        lo = np.array([p["wilson_low"] if p else np.nan for p in pts])
        hi = np.array([p["wilson_high"] if p else np.nan for p in pts])
        off = (j - (len(seats) - 1) / 2) * 0.06
        ax.errorbar(
            x + off, rate, yerr=[rate - lo, hi - rate], color=colours[f], marker="o",
            capsize=3, lw=1.8, label=seat_label(f, names),
        )  # fmt: skip
    ax.axhline(
        terms.parity(max(1, len(seats))), color="#444444", lw=1, ls="--",
        label=f"parity ({terms.parity_text(len(seats))})",
    )  # fmt: skip
    ax.set_xticks(x)
    ax.set_xticklabels(values)
    ax.set_xlabel(key)
    _pct_axis(ax)
    ax.set_ylabel("share of games won (%)")
    ax.set_title(f"Win rate against {key} ({100 * confidence:g}% Wilson intervals)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8.5)
    return fig


def tuning_progress(
    phases: Sequence[Mapping[str, Any]],
    *,
    seats: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
    score_label: str = "score",
) -> Figure:
    """Each seat's score against its pool (win rate + a share of the margin of its final
    score, ``score_label``), phase after phase of a bot tuning: the incumbent's on the
    search seeds, and (where one was tried) the best candidate's on the validation seeds;
    ``seats`` in turn order (None: as the phases name them)."""
    fig = _figure(7.5, 4.2)
    ax = fig.add_subplot()
    order = list(seats) if seats is not None else _seats_of(phases)
    colours = seat_colours(order)
    shown = [f for f in order if any(p["faction"] == f for p in phases)]
    for f in shown:
        mine = [p for p in phases if p["faction"] == f]
        rounds = [p["round"] + 1 for p in mine]
        name = (names or {}).get(f, f)
        ax.plot(
            rounds, [100 * p["incumbent"] for p in mine], "o-", color=colours[f],
            label=f"{name}: incumbent",
        )  # fmt: skip
        tried = [p for p in mine if p.get("validated")]
        if tried:
            ax.scatter(
                [p["round"] + 1 for p in tried],
                [100 * p["validated"][1] for p in tried],
                marker="x", color=colours[f], label=f"{name}: best, validated",
            )  # fmt: skip
    ax.axhline(100 * terms.parity(max(1, len(order))), color="#555555", lw=1, ls="--",
               label="parity")  # fmt: skip
    ax.set_xlabel("round")
    ax.set_ylabel(f"score against the pool (win rate + {score_label} share, %)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.suptitle("Bot tuning: each seat's score against its pool, round by round")
    return fig


def sensitivity(
    rows: Sequence[Mapping[str, Any]],
    keys: Sequence[str],
    *,
    seats: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """Each seat's win rate (its ``win_SEAT`` column; ``seats`` None: every such column)
    against each searched key's value (one panel per key), every candidate of a variant
    search at its largest number of games (point size: games)."""
    import json

    if seats is None:
        seats = [k[4:] for k in (rows[0] if rows else {}) if k.startswith("win_")]
    colours = seat_colours(list(seats))

    best: dict[int, Mapping[str, Any]] = {}
    for r in rows:
        if r["trial"] not in best or r["games"] > best[r["trial"]]["games"]:
            best[r["trial"]] = r
    panels = max(1, len(keys))
    fig = _figure(4.2 * panels, 3.8)
    axes = np.atleast_1d(fig.subplots(1, panels, sharey=True))
    for ax, key in zip(axes, keys, strict=False):
        for f in seats:
            xs, ys, sizes = [], [], []
            for r in best.values():
                value = json.loads(r["params"]).get(key)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    xs.append(value)
                    ys.append(100 * r[f"win_{f}"])
                    sizes.append(8 + 40 * r["games"] / max(x["games"] for x in best.values()))
            ax.scatter(xs, ys, s=sizes, color=colours[f], alpha=0.6, label=(names or {}).get(f, f))
        ax.axhline(100 * terms.parity(max(1, len(seats))), color="#555555", lw=1, ls="--")
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
        ax.scatter([rate], [100 * gain], color=SEAT_COLOURS[0], s=30)
        ax.annotate(spec, (rate, 100 * gain), fontsize=8, xytext=(5, 4), textcoords="offset points")
    ax.axvline(20, color="#14a3a3", lw=1, ls=":", label="20 games/s per core")
    ax.axhline(0, color="#555555", lw=1, ls="--", label="the default field")
    ax.set_xscale("log")
    ax.set_xlabel("games per second on one core (every seat this bot)")
    ax.set_ylabel("mean gain over the seats (points)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.suptitle("Bot tiers: strength against the default field, and speed")
    return fig
