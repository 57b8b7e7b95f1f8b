"""Figures of strength as an axis: the strength curve (win rate against rung), a ladder's
deviation gain against the challenger's budget, and card by card (where it is made).

Drawn like ``figures`` (object API, Agg canvas, the seats' colours); ``figures.save``
writes them."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from simulate.analysis import terms
from simulate.analysis.figures import (
    _figure,
    _pct_axis,
    seat_colours,
    seat_label,
    spec_label,
    variant_colour,
)

SPEED_COLOUR = "#9e9e9e"


def strength_curve(
    records: Sequence[Mapping[str, Any]],
    rungs: Sequence[Mapping[str, Any]],
    variants: Sequence[str],
    confidence: float = 0.95,
    *,
    seats: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """Per variant (a panel): each seat's win rate against the rung, weakest first, with
    its Wilson interval, and parity (1/n); the rung's games per second on one core as grey
    bars on a second (log) axis. ``seats`` None: as the records name them."""
    seats = list(seats) if seats is not None else _order(records)
    colours = seat_colours(seats)
    parity = terms.parity(max(1, len(seats)))
    labels = names
    names = [r["name"] for r in rungs]
    x = np.arange(len(names))
    fig = _figure(max(7.5, 1.3 * len(names) + 2.5) * len(variants), 4.8)
    axes = np.atleast_1d(fig.subplots(1, len(variants), sharey=True))
    by_key = {(r["variant"], r["rung"], r["faction"]): r for r in records}
    speed = [r["games_per_s"] if r["games_per_s"] is not None else np.nan for r in rungs]
    for ax, v in zip(axes, variants, strict=True):
        rate_axis = ax.twinx()
        rate_axis.bar(x, speed, width=0.5, color=SPEED_COLOUR, alpha=0.25, zorder=0)
        rate_axis.set_yscale("log")
        rate_axis.set_ylabel("games per second, one core (bars)", color="#707070")
        ax.set_zorder(rate_axis.get_zorder() + 1)  # the curves over the bars
        ax.patch.set_visible(False)
        for j, f in enumerate(seats):
            pts = [by_key.get((v, name, f)) for name in names]
            rate = np.array([p["win"] if p and p["win"] is not None else np.nan for p in pts])
            lo = np.array([p["win_lo"] if p else np.nan for p in pts])
            hi = np.array([p["win_hi"] if p else np.nan for p in pts])
            ax.errorbar(
                x + (j - (len(seats) - 1) / 2) * 0.06, rate, yerr=[rate - lo, hi - rate],
                color=colours[f], marker="o", capsize=3, lw=1.8, label=seat_label(f, labels),
            )  # fmt: skip
        ax.axhline(
            parity, color="#444444", lw=1, ls="--",
            label=f"parity ({terms.parity_text(len(seats))})",
        )  # fmt: skip
        ax.set_xticks(x)
        ax.set_xticklabels(names, rotation=20, ha="right")
        ax.set_xlabel("rung (weakest first)")
        ax.set_title(v)
        _pct_axis(ax)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("share of games won (%)")
    axes[0].legend(loc="best", fontsize=8)
    fig.suptitle(
        f"Win rate as every seat plays stronger\n({100 * confidence:g}% Wilson intervals; "
        "the same seeds at every rung)"
    )
    return fig


def gain_against_budget(
    rows: Sequence[Mapping[str, Any]],
    base: str,
    confidence: float = 0.95,
    *,
    seats: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """Each seat's deviation gain against the budget of challenger ``base`` (multiples of its
    own, log scale), with paired intervals: exploitability as a curve. ``rows``: gains with
    ``factor``, ``faction``, ``gain``, ``gain_lo`` and ``gain_hi``; ``seats`` in turn order
    (None: as the rows name them)."""
    seats = list(seats) if seats is not None else _order(rows)
    colours = seat_colours(seats)
    fig = _figure(7.5, 4.2)
    ax = fig.add_subplot()
    for j, f in enumerate(seats):
        mine = sorted((r for r in rows if r["faction"] == f), key=lambda r: r["factor"])
        if not mine:
            continue
        xs = np.array([r["factor"] for r in mine]) * (1 + 0.03 * (j - (len(seats) - 1) / 2))
        g = np.array([100 * r["gain"] for r in mine])
        lo = np.array([100 * r["gain_lo"] for r in mine])
        hi = np.array([100 * r["gain_hi"] for r in mine])
        ax.errorbar(
            xs, g, yerr=[g - lo, hi - g], color=colours[f], marker="o", capsize=3,
            lw=1.8, label=seat_label(f, names),
        )  # fmt: skip
    factors = sorted({r["factor"] for r in rows})
    ax.set_xscale("log", base=2)
    ax.set_xticks(factors)
    ax.set_xticklabels([f"{x:g}x" for x in factors])
    ax.axhline(0, color="#555555", lw=1, ls="--", label="the field's own bot")
    ax.set_xlabel(f"budget of {base} (multiple of its default)")
    ax.set_ylabel("gain in win rate (points)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.suptitle(f"Deviation gain against budget: {base} ({100 * confidence:g}% paired intervals)")
    return fig


def _order(rows: Sequence[Any]) -> list[str]:
    """The seats rows (dicts or records) name, in order of first appearance."""
    return list(dict.fromkeys(r["faction"] if isinstance(r, Mapping) else r.faction
                              for r in rows))  # fmt: skip


def ladder_cards(
    found: Sequence[Any],
    confidence: float = 0.95,
    *,
    seats: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
    step: str = "step",
    score: str = "score",
    fixed: Sequence[str] = (),
) -> Figure:
    """Each seat's margin gain (of its final ``score``) step by step (panel per seat, line
    per challenger), with paired intervals; dotted lines at the steps whose kind is one of
    ``fixed`` in every game (the kinds that stand at the same place in every game): where a
    gain is made."""
    order = list(seats) if seats is not None else _order(found)
    seats = [f for f in order if any(g.faction == f for g in found)] or order[:1] or ["?"]
    fig = _figure(4.2 * len(seats) + 0.8, 3.6)
    axes = np.atleast_1d(fig.subplots(1, len(seats), sharey=True))
    for ax, f in zip(axes, seats, strict=True):
        mine = [g for g in found if g.faction == f]
        for i, ch in enumerate(dict.fromkeys(g.challenger for g in mine)):
            rows = [g for g in mine if g.challenger == ch]
            x = [g.turn for g in rows]
            lo = [g.lo if math.isfinite(g.lo) else g.margin_gain for g in rows]
            hi = [g.hi if math.isfinite(g.hi) else g.margin_gain for g in rows]
            colour = variant_colour(i)
            ax.plot(x, [g.margin_gain for g in rows], color=colour, lw=1.6, label=spec_label(ch))
            ax.fill_between(x, lo, hi, color=colour, alpha=0.15, lw=0)
        for t in sorted({g.turn for g in mine if g.card_kind in fixed and g.kind_share >= 0.999}):
            ax.axvline(t, color="#777777", lw=0.9, ls=":")
        ax.axhline(0, color="#555555", lw=1, ls="--")
        ax.set_title((names or {}).get(f, f))
        ax.set_xlabel(step)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7.5, loc="upper left")
    axes[0].set_ylabel(f"gain in {score} margin after the {step}")
    dotted = f" (dotted: {terms.listing([k.capitalize() for k in fixed])} {step}s)" if fixed else ""
    fig.suptitle(
        f"Where the gain is made: {score}-margin gain {step} by {step}, {100 * confidence:g}%"
        f" paired intervals{dotted}"
    )
    return fig
