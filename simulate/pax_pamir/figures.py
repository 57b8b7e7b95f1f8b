"""Pax Pamir's own figures in its report, one per section of ``report`` and ``report_cards``:
drawn as ``simulate.analysis.figures`` draws (object API, Agg canvas), from the rows the
sections' tables show, with the same intervals (Wilson for shares, Student-t for means, the
clustered normal interval of a card's win-rate difference). Variants are told apart by the
generic variant palette (or a panel each); the coalitions have their pieces' colours."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from simulate.analysis.figures import _figure, _no_data, _pct_axis, variant_colour

NONE = "(none)"  # a null value in a share table (``report_cards.NONE``)
COALITION_COLOURS = {  # the pieces' colours (RB p2)
    "afghan": "#3a7d44",
    "british": "#c0392b",
    "russian": "#d9a400",
    "none": "#a6a6a6",
    NONE: "#a6a6a6",
}
ERR = {"ecolor": "#333333", "elinewidth": 1.1, "capsize": 3}


def _lo_hi(value: float, low: float, high: float, clip: tuple[float, float] | None = None):
    """The error bar lengths below and above ``value`` (NaN or infinite bounds: none;
    ``clip``: the bounds kept inside it, as a share's are)."""
    if value != value:
        return 0.0, 0.0
    if clip is not None:
        low, high = max(low, clip[0]), min(high, clip[1])
    low = value if not math.isfinite(low) else low
    high = value if not math.isfinite(high) else high
    return max(value - low, 0.0), max(high - value, 0.0)


def _grouped(
    ax: Any,
    rows: Sequence[Mapping[str, Any]],
    categories: Sequence[str],
    variants: Sequence[str],
    *,
    key: str = "value",
    share: str = "share",
    ci: str = "ci",
    label_values: bool = True,
) -> None:
    """Bars of ``share`` per category (x) with their ``ci`` error bars, one bar group per
    variant (its colour, labelled with its name): a category no row names is left empty."""
    by = {(r["variant"], r[key]): r for r in rows}
    nv = max(1, len(variants))
    width = 0.8 / nv
    for i, v in enumerate(variants):
        xs, ys, err = [], [], []
        for j, c in enumerate(categories):
            r = by.get((v, c))
            if r is None or r[share] != r[share]:
                continue
            xs.append(j + (i - (nv - 1) / 2) * width)
            ys.append(r[share])
            err.append(_lo_hi(r[share], *r[ci], clip=(0.0, 1.0)))
        if not xs:
            continue
        ax.bar(xs, ys, width * 0.92, yerr=np.array(err).T, color=variant_colour(i), label=v,
               error_kw=ERR)  # fmt: skip
        if label_values and len(categories) * nv <= 16:
            for x, y, (_, up) in zip(xs, ys, err, strict=True):
                ax.text(x, y + up + 0.01, f"{100 * y:.0f}%", ha="center", va="bottom",
                        fontsize=7)  # fmt: skip
    ax.set_xticks(range(len(categories)))
    ax.set_xticklabels(categories)
    ax.set_ylim(0, 1.05)
    _pct_axis(ax)
    ax.grid(axis="y", alpha=0.3)


def _legend(fig: Figure, variants: Sequence[str], confidence: float, kind: str) -> None:
    handles = [Patch(color=variant_colour(i)) for i in range(len(variants))]
    labels = [f"variant: {v}" for v in variants]
    fig.legend(handles, labels, loc="outside lower center", ncol=min(4, max(1, len(variants))),
               fontsize=8.5, title=f"error bars: {100 * confidence:g}% {kind} interval",
               title_fontsize=8.5)  # fmt: skip


def coalition_shares(
    rows: Sequence[Mapping[str, Any]], variants: Sequence[str], confidence: float = 0.95
) -> Figure:
    """The winner's coalition at the end (RB p15): share of the finished games per coalition
    (``NONE``: no winner), one bar group per variant, Wilson intervals (``report.share_rows``)."""
    categories = list(dict.fromkeys(r["value"] for r in rows))
    fig = _figure(max(6.5, 1.2 * len(categories) * max(1, len(variants)) + 2.5), 4.0)
    ax = fig.add_subplot()
    _grouped(ax, rows, categories, variants)
    for tick in ax.get_xticklabels():
        tick.set_color(COALITION_COLOURS.get(tick.get_text(), "#333333"))
        tick.set_fontweight("bold")
    ax.set_xlabel("the winner's coalition at the end")
    ax.set_ylabel("share of finished games (%)")
    ax.set_title("Winner's coalition (RB p15)")
    _legend(fig, variants, confidence, "Wilson")
    return fig


def dominance_checks(
    rows: Sequence[Mapping[str, Any]], variants: Sequence[str], confidence: float = 0.95
) -> Figure:
    """Each Dominance Check's outcome by its number (RB p15): one panel per variant, one bar
    per outcome (a coalition dominated, or none) among the games that reached the check,
    Wilson intervals (``report.check_rows``)."""
    outcomes = list(dict.fromkeys(r["value"] for r in rows))
    nv = max(1, len(variants))
    cols = min(nv, 2)
    nrows = math.ceil(nv / cols)
    fig = _figure(max(8.0, 6.0 * cols + 0.5), 3.6 * nrows + 0.6)
    axes = np.atleast_1d(fig.subplots(nrows, cols, sharey=True, squeeze=False)).ravel()
    width = 0.8 / max(1, len(outcomes))
    for ax, v in zip(axes, variants, strict=False):
        mine = [r for r in rows if r["variant"] == v]
        checks = sorted({r["check"] for r in mine})
        reached = {r["check"]: r["n"] for r in mine}
        for j, x in enumerate(outcomes):
            cell = [r for r in mine if r["value"] == x and r["n"]]
            if not cell:
                continue
            xs = [checks.index(r["check"]) + (j - (len(outcomes) - 1) / 2) * width for r in cell]
            ys = [r["share"] for r in cell]
            err = np.array([_lo_hi(r["share"], *r["ci"], clip=(0.0, 1.0)) for r in cell]).T
            ax.bar(xs, ys, width * 0.92, yerr=err, color=COALITION_COLOURS.get(x, "#777777"),
                   label=x, error_kw=ERR)  # fmt: skip
        ax.set_xticks(range(len(checks)))
        ax.set_xticklabels([f"check {k}\n({reached[k]} games)" for k in checks], fontsize=8)
        ax.set_ylim(0, 1.05)
        _pct_axis(ax)
        ax.grid(axis="y", alpha=0.3)
        ax.set_title(f"variant: {v}")
        ax.tick_params(labelleft=True)
    for ax in axes[len(variants) :]:
        ax.set_visible(False)
    for ax in axes[::cols]:
        ax.set_ylabel("share of the games reaching it (%)")
    handles = [Patch(color=COALITION_COLOURS.get(x, "#777777")) for x in outcomes]
    labels = [f"{x} dominated" if x != "none" else "none (no coalition dominant)"
              for x in outcomes]  # fmt: skip
    fig.legend(handles, labels, loc="outside lower center", ncol=len(outcomes) if cols > 1 else 2, fontsize=8.5,
               title=f"error bars: {100 * confidence:g}% Wilson interval", title_fontsize=8.5)  # fmt: skip
    fig.suptitle("Dominance Check outcomes by check (RB p15)")
    return fig


def early_ends(
    endings: Sequence[Mapping[str, Any]],
    at: Sequence[Mapping[str, Any]],
    variants: Sequence[str],
    confidence: float = 0.95,
) -> Figure:
    """How the games ended (early, RB p15; final; stalled) as shares of the finished games,
    and the check after which the early ends came as shares of the early ends, one bar group
    per variant, Wilson intervals (``report.share_rows``, ``report.early_rows``)."""
    fig = _figure(11.0, 4.0)
    ax_end, ax_at = fig.subplots(1, 2, sharey=True)
    _grouped(ax_end, endings, list(dict.fromkeys(r["value"] for r in endings)), variants)
    ax_end.set_xlabel("how the game ended")
    ax_end.set_ylabel("share (%)")
    ax_end.set_title("Endings (share of finished games)")
    checks = list(dict.fromkeys(r["value"] for r in at))
    if any(r["n"] for r in at):
        _grouped(ax_at, at, checks, variants)
        ax_at.set_xticklabels([f"after check {k}" for k in checks])
    else:
        _no_data(ax_at, "no early end")
    ax_at.set_title("Early ends by check (share of early ends)")
    ax_at.set_xlabel("the Dominance Check after which it ended")
    ax_at.tick_params(labelleft=True)
    _legend(fig, variants, confidence, "Wilson")
    fig.suptitle("Early ends (RB p15)")
    return fig


def loyalty_changes(
    rows: Sequence[Mapping[str, Any]], variants: Sequence[str], confidence: float = 0.95
) -> Figure:
    """Changes of loyalty (RB p7): per game (all seats), per game and seat (Student-t), and
    the share of games with one (Wilson), a bar per variant (``report.loyalty_rows``)."""
    fig = _figure(11.5, 3.8)
    axes = fig.subplots(1, 3)
    panels = (
        ("changes", "per game, all seats", "changes per game", None),
        ("per_seat", "per game and seat", "changes per game and seat", None),
        ("changed", "games with a change", "share of games (%)", (0.0, 1.0)),
    )
    by = {r["variant"]: r for r in rows}
    for ax, (key, title, ylabel, clip) in zip(axes, panels, strict=True):
        for i, v in enumerate(variants):
            r = by.get(v)
            if r is None or not r["games"]:
                continue
            value, low, high = r[key]
            if value != value:
                continue
            err = np.array([_lo_hi(value, low, high, clip)]).T
            ax.bar([i], [value], 0.7, yerr=err, color=variant_colour(i), label=v, error_kw=ERR)
        ax.set_xticks(range(len(variants)))
        ax.set_xticklabels(variants, fontsize=8, rotation=20 if len(variants) > 3 else 0)
        ax.set_title(title)
        ax.set_ylabel(ylabel)
        ax.grid(axis="y", alpha=0.3)
        if clip is not None:
            ax.set_ylim(0, 1.05)
            _pct_axis(ax)
    fig.legend(
        [Patch(color="#888888")],
        [f"error bars: {100 * confidence:g}% Student-t (means), Wilson (share)"],
        loc="outside lower center",
        fontsize=8.5,
    )
    fig.suptitle("Loyalty changes (RB p7)")
    return fig


def favored_suit(
    rows: Sequence[Mapping[str, Any]], variants: Sequence[str], confidence: float = 0.95
) -> Figure:
    """The favored suit (RB p4, p11): the share of a game's turns that ended with each suit
    favored, averaged over the games (Student-t), and the share of games that ended with it
    favored (Wilson), one bar group per variant (``report.favored_rows``)."""
    suits = list(dict.fromkeys(r["suit"] for r in rows))
    over = [{"variant": r["variant"], "value": r["suit"], "share": r["over"][0],
             "ci": r["over"][1:]} for r in rows if r["games"]]  # fmt: skip
    end = [{"variant": r["variant"], "value": r["suit"], "share": r["end"] / r["games"],
            "ci": r["end_ci"]} for r in rows if r["games"]]  # fmt: skip
    fig = _figure(11.0, 4.0)
    ax_over, ax_end = fig.subplots(1, 2, sharey=True)
    _grouped(ax_over, over, suits, variants)
    _grouped(ax_end, end, suits, variants)
    ax_over.set_title("Share of a game's turns (mean over games, Student-t)")
    ax_end.set_title("Favored at the end (share of games, Wilson)")
    ax_over.set_ylabel("share (%)")
    for ax in (ax_over, ax_end):
        ax.set_xlabel("suit")
        ax.tick_params(labelleft=True)
    _legend(fig, variants, confidence, "Student-t (left) / Wilson (right)")
    fig.suptitle("The favored suit over the game (RB p4, p11)")
    return fig


def rupee_flow(
    rows: Sequence[Mapping[str, Any]], variants: Sequence[str], confidence: float = 0.95
) -> Figure:
    """Rupees gained and paid per game by source (the ledger, RB p8, p10-p14), all seats of
    a game summed: means with Student-t intervals, one bar group per variant (``rows``:
    ``report.rupee_rows`` of the seat ``all`` with a ledger)."""
    sources = list(dict.fromkeys(s for r in rows for s in r["sources"]))
    moved = [s for s in sources if any(r["sources"].get(s, {}).get("moved") for r in rows)]
    fig = _figure(11.0, 1.6 + 0.45 * len(moved) * max(1, len(variants)) ** 0.5)
    axes = fig.subplots(1, 2, sharey=True)
    nv = max(1, len(variants))
    height = 0.8 / nv
    by = {r["variant"]: r for r in rows}
    for ax, side, title in zip(axes, ("gained", "paid"), ("gained", "paid"), strict=True):
        for i, v in enumerate(variants):
            r = by.get(v)
            if r is None:
                continue
            ys, xs, err = [], [], []
            for j, s in enumerate(moved):
                m = r["sources"].get(s, {}).get(side)
                if m is None or m[0] != m[0]:
                    continue
                ys.append(j + (i - (nv - 1) / 2) * height)
                xs.append(m[0])
                err.append(_lo_hi(*m, clip=(0.0, math.inf)))
            if xs:
                ax.barh(ys, xs, height * 0.92, xerr=np.array(err).T, color=variant_colour(i),
                        label=v, error_kw=ERR)  # fmt: skip
        ax.set_yticks(range(len(moved)))
        ax.set_yticklabels(moved)
        ax.set_ylim(len(moved) - 0.5, -0.5)
        ax.set_xlabel(f"rupees {title} per game (all seats)")
        ax.set_title(f"Rupees {title}, by source")
        ax.grid(axis="x", alpha=0.3)
    _legend(fig, variants, confidence, "Student-t")
    fig.suptitle("Rupee flow by source (the ledger)")
    return fig


def card_power(
    ranked: pl.DataFrame, variants: Sequence[str], confidence: float = 0.95, shown: int = 15
) -> Figure:
    """A forest plot of each court card's seat-adjusted win-rate difference (held at the end
    or not, ``report_cards.card_power``) with its clustered interval: the ``shown`` highest
    and lowest by estimate of ``ranked`` (the cards the table ranks), one panel per variant."""
    panels = [v for v in variants if ranked.filter(pl.col("variant") == v).height]
    panels = panels or list(variants[:1])
    tables = []
    for v in panels:
        mine = ranked.filter(pl.col("variant") == v).sort("diff", "card", descending=[True, False])
        if mine.height > 2 * shown:
            mine = pl.concat([mine.head(shown), mine.tail(shown)])
        tables.append(mine)
    lines = max((t.height for t in tables), default=1)
    fig = _figure(max(7.5, 5.2 * len(panels) + 1.0), 1.7 + 0.24 * max(lines, 4))
    axes = np.atleast_1d(fig.subplots(1, len(panels), squeeze=False)).ravel()
    for ax, v, t in zip(axes, panels, tables, strict=True):
        i = list(variants).index(v)
        if t.height == 0:
            _no_data(ax, "no card held often enough")
            ax.set_title(f"variant: {v}")
            continue
        d = 100 * t.get_column("diff").to_numpy()
        lo = 100 * t.get_column("low").to_numpy()
        hi = 100 * t.get_column("high").to_numpy()
        y = np.arange(t.height, dtype=float)
        if t.height == 2 * shown:
            y[shown:] += 0.6  # a gap between the highest and the lowest
        ax.errorbar(d, y, xerr=[np.maximum(d - lo, 0), np.maximum(hi - d, 0)], fmt="o",
                    color=variant_colour(i), ms=4.5, capsize=2.5, lw=1.3, label=v)  # fmt: skip
        ax.axvline(0, color="#555555", lw=1, ls="--", zorder=0)
        names = [f"{n} (#{c}, held {h})" for n, c, h in t.select("name", "card", "held").rows()]
        ax.set_yticks(y)
        ax.set_yticklabels(names, fontsize=7.5)
        ax.set_ylim(y[-1] + 0.7, -0.7)
        ax.set_xlabel("win-rate difference, holders minus others (percentage points)")
        ax.set_title(f"variant: {v}", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(
        f"Per-card power: the {shown} highest and lowest court cards\n"
        f"seat-adjusted win-rate difference, {100 * confidence:g}% interval clustered by game",
        fontsize=10,
    )
    return fig


def event_swing(
    rows: Sequence[Mapping[str, Any]],
    variants: Sequence[str],
    confidence: float = 0.95,
    parity: float | None = None,
) -> Figure:
    """A forest plot of each event's swing when it resolves (RB p10 Event Cards): the
    buyer's win rate when bought (and, ×, each other seat's) and the active player's when
    discarded at a cleanup, Wilson intervals, one colour per variant (``report_cards.event_rows``)."""
    events = sorted({(r["card"], r["name"]) for r in rows})
    nv = max(1, len(variants))
    step = 0.8 / nv
    fig = _figure(11.0, 1.6 + 0.32 * max(len(events), 3) * max(1.0, nv / 2))
    ax_b, ax_d = fig.subplots(1, 2, sharey=True)
    by = {(r["variant"], r["card"]): r for r in rows}
    panels = ((ax_b, "bought", "bought_won", "buyer_ci", "the buyer's win rate when bought"),
              (ax_d, "discarded", "discarded_won", "active_ci",
               "the active player's when discarded at a cleanup"))  # fmt: skip
    for ax, n_key, k_key, ci_key, title in panels:
        for i, v in enumerate(variants):
            ys, xs, err, others = [], [], [], []
            for j, (card, _) in enumerate(events):
                r = by.get((v, card))
                if r is None or not r[n_key]:
                    continue
                y = j + (i - (nv - 1) / 2) * step
                rate = r[k_key] / r[n_key]
                ys.append(y)
                xs.append(rate)
                err.append(_lo_hi(rate, *r[ci_key], clip=(0.0, 1.0)))
                if n_key == "bought" and r["other_rate"] == r["other_rate"]:
                    others.append((r["other_rate"], y))
            if not xs:
                continue
            ax.errorbar(xs, ys, xerr=np.array(err).T, fmt="o", color=variant_colour(i), ms=4.5,
                        capsize=2.5, lw=1.3, label=v)  # fmt: skip
            if others:
                ox, oy = zip(*others, strict=True)
                ax.scatter(ox, oy, marker="x", s=22, color=variant_colour(i), zorder=3)
        if parity is not None and parity == parity:
            ax.axvline(parity, color="#555555", lw=1, ls="--", zorder=0)
        ax.set_xlim(-0.03, 1.03)
        _pct_axis(ax, "x")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("win rate (%)")
        ax.grid(axis="x", alpha=0.3)
    ax_b.set_yticks(range(len(events)))
    ax_b.set_yticklabels([f"{name} (#{card})" for card, name in events], fontsize=7.5)
    ax_b.set_ylim(len(events) - 0.5, -0.5)
    handles = [Patch(color=variant_colour(i)) for i in range(len(variants))]
    labels = [f"variant: {v}" for v in variants]
    if parity is not None and parity == parity:
        handles += [Line2D([], [], color="#555555", lw=1, ls="--"),
                    Line2D([], [], color="#555555", marker="x", lw=0)]  # fmt: skip
        labels += [f"parity ({100 * parity:.0f}%)", "each other seat (when bought)"]
    fig.legend(handles, labels, loc="outside lower center", ncol=min(4, len(labels)),
               fontsize=8.5, title=f"error bars: {100 * confidence:g}% Wilson interval",
               title_fontsize=8.5)  # fmt: skip
    fig.suptitle("Event swing when it resolves (RB p10)")
    return fig
