"""Pax Pamir's card sections of a balance report: each court card's power (how often it is
bought, its price, its time in court, and how its holders at the end fare) and each event's
swing when it resolves, per variant, from the run's ``cards`` table (``game.CARD_COLUMNS``).

A card's win-rate difference is a seat-stratified (Mantel-Haenszel) difference of the win
rates of the seats holding it at the end and the seats that did not, with an interval
clustered by game (``card_power``): an association under the bots that played, not a
cause."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import polars as pl

from simulate.analysis import render, stats
from simulate.analysis.figures import save_named
from simulate.analysis.formatting import level, mean_ci, paragraphs, pct, pct_ci, pp, pp_ci
from simulate.analysis.run import Run
from simulate.games import Section

from . import figures

COURT, EVENT = "court", "event"  # the card table's kinds (``game.CARD_COLUMNS``)
NONE = "(none)"  # a null value in a share table
MIN_HELD = 10  # games a card must be held at the end in to rank among the top and bottom
SHOWN = 10  # cards in each of the top and bottom lists
FOREST = 15  # cards in each of the top and bottom of the per-card figure
CARD_CSV = "card_power.csv"


def _md(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    return render.markdown_table(render.table(columns, rows))


def _share(k: int, n: int, confidence: float) -> str:
    """``k`` of ``n`` as a share with its Wilson interval: ``12.5% [8.1–18.7%]``."""
    if n == 0:
        return "–"
    lo, hi = stats.wilson_interval(k, n, confidence)
    return f"{pct(k / n)} [{pct_ci(lo, hi)}]"


def _players(run: Run) -> str:
    return f"{len(run.seats)} seats ({', '.join(run.seats)})"


def cards(run: Run) -> pl.DataFrame:
    """The run's ``cards`` table over its finished games, each row with its game's winner
    (an empty frame with the table's columns when the run has none)."""
    found = run.tables.get("cards")
    ok = run.ok_games().select("variant", "game_index", "winner")
    if found is None:
        types = {"int32": pl.Int32, "string": pl.String}
        schema = {"variant": pl.String, "game_index": pl.Int32}
        columns = run.the_game.tables.get("cards", ())
        schema |= {c.name: types.get(c.type, pl.Float64) for c in columns}
        return pl.DataFrame(schema=schema | {"winner": pl.String})
    return found.join(ok, on=["variant", "game_index"], how="inner")


POWER_SCHEMA = {
    "variant": pl.String, "card": pl.Int64, "name": pl.String, "region": pl.String,
    "suit": pl.String, "rank": pl.Int64, "dealt": pl.Int64, "bought": pl.Int64,
    "bought_share": pl.Float64, "bought_low": pl.Float64, "bought_high": pl.Float64,
    "price": pl.Float64, "price_low": pl.Float64, "price_high": pl.Float64,
    "court_turns": pl.Float64, "court_low": pl.Float64, "court_high": pl.Float64,
    "held": pl.Int64, "held_won": pl.Float64, "not_held_won": pl.Float64,
    "diff": pl.Float64, "low": pl.Float64, "high": pl.Float64,
}  # fmt: skip


def _t_intervals(values: pl.Expr, name: str) -> list[pl.Expr]:
    """The mean, standard deviation and count of ``values`` as ``name``, ``name_sd``,
    ``name_n`` (turned into Student-t intervals by ``_with_t``)."""
    return [values.mean().alias(name), values.std().alias(f"{name}_sd"),
            values.count().alias(f"{name}_n")]  # fmt: skip


def _with_t(frame: pl.DataFrame, name: str, low: str, high: str, confidence: float) -> Any:
    """``stats.mean_interval``'s Student-t bounds for every row at once (a single value:
    infinite bounds; none: NaN)."""
    from scipy import stats as sps

    n = frame.get_column(f"{name}_n").to_numpy().astype(float)
    sd = frame.get_column(f"{name}_sd").fill_null(np.nan).to_numpy().astype(float)
    mean = frame.get_column(name).fill_null(np.nan).to_numpy().astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = sps.t.ppf(0.5 + confidence / 2, np.maximum(n - 1, 1)) * sd / np.sqrt(n)
    half = np.where(n == 1, np.inf, half)
    return frame.with_columns(pl.Series(low, mean - half), pl.Series(high, mean + half))


def stratified_difference(
    card: np.ndarray, holder: np.ndarray, winner: np.ndarray, seats: int, confidence: float
) -> dict[str, np.ndarray]:
    """Per card code (0..max), over its rows (one per game it was dealt in, ``holder`` and
    ``winner`` a seat index or -1): the Mantel-Haenszel win-rate difference between the seats
    holding it and those not, each seat a stratum (weight n1*n0/n), and its normal interval
    from the sum over games of each game's linearised contribution (the seats of a game are
    not independent, so the variance is clustered by game)."""
    k, cards_n = seats, int(card.max()) + 1 if card.size else 0
    n = np.bincount(card, minlength=cards_n).astype(float)

    def count(mask: np.ndarray, seat: np.ndarray) -> np.ndarray:
        flat = np.bincount(card[mask] * k + seat[mask], minlength=cards_n * k)
        return flat.reshape(cards_n, k).astype(float)

    held, won = holder >= 0, winner >= 0
    n1, y = count(held, holder), count(won, winner)
    y1 = count(held & (holder == winner), holder)
    n0, y0 = n[:, None] - n1, y - y1
    with np.errstate(invalid="ignore", divide="ignore"):
        p1 = np.where(n1 > 0, y1 / n1, 0.0)
        p0 = np.where(n0 > 0, y0 / n0, 0.0)
        w = n1 * n0 / n[:, None]
        total = w.sum(axis=1)
        a = np.where(total[:, None] > 0, w / total[:, None], 0.0)
        diff = np.where(total > 0, (a * (p1 - p0)).sum(axis=1), np.nan)
        q = np.where(n0 > 0, a / n0, 0.0)  # a seat not holding it: -(y - p0) / n0, weighted
        r1 = np.where(n1 > 0, a / n1, 0.0)
    # each row's contribution: sum over seats of q * (p0 - y), then for the holding seat
    # the not-holding term taken back and its holding term added
    u = (q * p0).sum(axis=1)[card] - np.where(won, q[card, np.maximum(winner, 0)], 0.0)
    hs = np.maximum(holder, 0)
    yh = (holder == winner).astype(float)
    back = q[card, hs] * (yh - p0[card, hs]) + r1[card, hs] * (yh - p1[card, hs])
    u = u + np.where(held, back, 0.0)
    games = n
    uu = np.bincount(card, weights=u * u, minlength=cards_n)
    se = np.sqrt(uu * games / np.maximum(games - 1, 1))
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    raw_held = np.where(n1.sum(1) > 0, y1.sum(1) / np.maximum(n1.sum(1), 1), np.nan)
    raw_not = np.where(n0.sum(1) > 0, y0.sum(1) / np.maximum(n0.sum(1), 1), np.nan)
    return {"diff": diff, "low": diff - z * se, "high": diff + z * se,
            "held_won": raw_held, "not_held_won": raw_not}  # fmt: skip


def card_power(
    run: Run, confidence: float = 0.95, frame: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Per variant and court card (``POWER_SCHEMA``): the games it was dealt in, the share
    bought (by a player or Wakhan: ``bought_by`` or ``acquired_by``), the mean price paid,
    the mean turns in court of the games it was played, the games held at the end, the win
    rates of the seats holding it at the end and of the others (``held_won``,
    ``not_held_won``, unadjusted), and ``diff``: their seat-stratified difference with its
    interval (``stratified_difference``). ``frame``: ``report.cards(run)``."""
    c = (cards(run) if frame is None else frame).filter(pl.col("kind") == COURT)
    seats = {s: i for i, s in enumerate(run.seats)}
    parts = []
    for v in run.variants:
        cv = c.filter(pl.col("variant") == v)
        if cv.height == 0:
            continue
        desc = (
            cv.group_by("card")
            .agg(
                pl.col("name", "region", "suit", "rank").first(),
                pl.len().alias("dealt"),
                (pl.col("bought_by").is_not_null() | pl.col("acquired_by").is_not_null())
                .sum()
                .alias("bought"),
                *_t_intervals(pl.col("price").drop_nulls(), "price"),
                *_t_intervals(
                    pl.col("turns_in_court").filter(pl.col("turns_in_court") > 0), "court_turns"
                ),
                pl.col("held_at_end").is_not_null().sum().alias("held"),
            )
            .sort("card")
        )
        desc = _with_t(desc, "price", "price_low", "price_high", confidence)
        desc = _with_t(desc, "court_turns", "court_low", "court_high", confidence)
        numbers = desc.get_column("card").to_numpy()
        code = np.searchsorted(numbers, cv.get_column("card").to_numpy())
        holder, winner = (
            cv.get_column(name).replace_strict(seats, default=-1).fill_null(-1).to_numpy()
            for name in ("held_at_end", "winner")
        )
        est = stratified_difference(code, holder, winner, len(run.seats), confidence)
        bought, dealt = desc.get_column("bought").to_list(), desc.get_column("dealt").to_list()
        ci = [stats.wilson_interval(b, d, confidence) for b, d in zip(bought, dealt, strict=True)]
        parts.append(
            desc.with_columns(
                pl.lit(v).alias("variant"),
                (pl.col("bought") / pl.col("dealt")).alias("bought_share"),
                pl.Series("bought_low", [x[0] for x in ci]),
                pl.Series("bought_high", [x[1] for x in ci]),
                *(pl.Series(name, values) for name, values in est.items()),
            )
        )
    if not parts:
        return pl.DataFrame(schema=POWER_SCHEMA)
    return pl.concat([p.select([pl.col(k).cast(t) for k, t in POWER_SCHEMA.items()])
                      for p in parts])  # fmt: skip


def _card_rows(frame: pl.DataFrame) -> list[tuple]:
    return [(r["card"], r["name"], r["suit"], r["dealt"],
             f"{pct(r['bought_share'])} [{pct_ci(r['bought_low'], r['bought_high'])}]",
             mean_ci((r["price"], r["price_low"], r["price_high"]), 1),
             mean_ci((r["court_turns"], r["court_low"], r["court_high"]), 1),
             r["held"], pp(r["diff"]), pp_ci(r["low"], r["high"]))
            for r in frame.iter_rows(named=True)]  # fmt: skip


def card_section(
    run: Run, figures_dir: Path | None, confidence: float, frame: pl.DataFrame | None = None
) -> Section:
    lvl = level(confidence)
    power = card_power(run, confidence, frame)
    written = ""
    if figures_dir is not None:
        power.write_csv(Path(figures_dir) / CARD_CSV, float_precision=4)
        written = f" The full table, every court card, is `{CARD_CSV}` beside this report."
    head = ["card", "name", "suit", "dealt", f"bought [{lvl}]", f"price [{lvl}]",
            f"turns in court [{lvl}]", "held at end", "win-rate difference", f"[{lvl}]"]  # fmt: skip
    parts = []
    every = power.filter((pl.col("held") >= MIN_HELD) & pl.col("diff").is_not_nan())
    for v in run.variants:
        ranked = every.filter(pl.col("variant") == v).sort("diff", "card", descending=[True, False])
        if ranked.height == 0:
            parts.append(f"**{v}**: no court card was held at the end in {MIN_HELD} games or "
                         "more; play more games to rank them.")  # fmt: skip
            continue
        shown = min(SHOWN, ranked.height)
        parts += [f"**{v}**, the {shown} highest:", _md(head, _card_rows(ranked.head(shown))),
                  f"**{v}**, the {shown} lowest:",
                  _md(head, _card_rows(ranked.tail(shown).reverse()))]  # fmt: skip
    drawn: tuple[str, ...] = ()
    if every.height:  # no card ranked: no figure
        fig = figures.card_power(every, run.variants, confidence, FOREST)
        drawn = save_named(fig, figures_dir, "card_power")
    return Section(
        "Per-card power",
        paragraphs(
            "For each court card, over the games it was dealt in (RB p4): how often it was "
            f"bought (by a player or Wakhan; {lvl} Wilson), the mean price paid (RB p10) and "
            f"the mean turns it stayed in a court once played ({lvl} Student-t), and the "
            "win-rate difference between the seats holding it in their court at the end and "
            "the seats that did not, adjusted for the seat (a Mantel-Haenszel difference "
            f"stratified by seat, its {lvl} interval clustered by game). This is an "
            "association under these bots, not a cause: a seat that is winning keeps more "
            "cards, and a card's holders differ from the others in more than the card.",
            f"Ranked by that difference among the cards held at the end in at least "
            f"{MIN_HELD} games.{written}",
            *parts,
        ),
        drawn,
    )


def event_rows(
    run: Run, confidence: float = 0.95, frame: pl.DataFrame | None = None
) -> list[dict[str, Any]]:
    """Per variant and event: the games dealt; when purchased, the buyer's wins (Wilson
    interval) and the other seats' wins per seat (``other_rate``); when discarded at a
    cleanup, the active player's wins (RB p10)."""
    c = (cards(run) if frame is None else frame).filter(pl.col("kind") == EVENT)
    won = (pl.col("winner") == pl.col("resolved_by")).fill_null(False)
    bought = pl.col("resolved") == "purchased"
    dropped = pl.col("resolved") == "discarded"
    found = (
        c.group_by("variant", "card", "name")
        .agg(
            pl.len().alias("dealt"),
            bought.sum().alias("bought"),
            (bought & won).sum().alias("bought_won"),
            (bought & pl.col("winner").is_not_null() & ~won).sum().alias("other"),
            dropped.sum().alias("discarded"),
            (dropped & won).sum().alias("discarded_won"),
        )
        .sort("variant", "card")
    )
    rest = max(1, len(run.seats) - 1)
    out = []
    for r in found.iter_rows(named=True):
        b, d = int(r["bought"]), int(r["discarded"])
        out.append({**r, "buyer_ci": stats.wilson_interval(int(r["bought_won"]), b, confidence),
                    "other_rate": r["other"] / (b * rest) if b else math.nan,
                    "active_ci": stats.wilson_interval(int(r["discarded_won"]), d, confidence)})  # fmt: skip
    return out


def event_section(
    run: Run,
    confidence: float,
    frame: pl.DataFrame | None = None,
    *,
    figures_dir: Path | None = None,
) -> Section:
    lvl = level(confidence)
    found = event_rows(run, confidence, frame)
    rows = []
    for r in found:
        b, d = r["bought"], r["discarded"]
        rows.append((r["variant"], r["card"], r["name"], r["dealt"], b,
                     _share(r["bought_won"], b, confidence), pct(r["other_rate"]), d,
                     _share(r["discarded_won"], d, confidence)))  # fmt: skip
    parity = 1 / len(run.seats) if run.seats else math.nan
    drawn: tuple[str, ...] = ()
    if any(r["bought"] or r["discarded"] for r in found):  # no event resolved: no figure
        fig = figures.event_swing(found, run.variants, confidence, parity)
        drawn = save_named(fig, figures_dir, "events")
    return Section(
        "Events",
        paragraphs(
            "Each event card's swing when it resolves (RB p10 Event Cards): when bought, the "
            f"buyer's win rate ({lvl} Wilson) against each other seat's (their wins over the "
            "games it was bought, per seat); when discarded from the market at a cleanup, the "
            f"active player's win rate ({lvl} Wilson). Parity is {pct(parity)}; a buyer above "
            "it is an association under these bots (strong positions may buy it), not a cause.",
            _md(["variant", "card", "event", "dealt", "bought", f"buyer wins [{lvl}]",
                 "each other seat", "discarded", f"active player wins [{lvl}]"], rows),
        ),
        drawn,
    )  # fmt: skip
