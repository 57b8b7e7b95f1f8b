"""Pax Pamir's own sections of a balance report (``PaxPamir.report_sections``): the
winner's coalition, the Dominance Checks and early ends, loyalty changes, the favored suit,
the rupees paid, and (``report_cards``) each court card's power and each event's swing, per
variant (a variant may seat another number of players), each figure with its interval. The
generic report (``simulate.analysis.report``) renders them after its own sections.

Shares carry Wilson intervals (``stats.wilson_interval``), means Student-t intervals
(``tables.mean_ci``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis import stats
from simulate.analysis.formatting import level, mean_ci, pct, pct_ci
from simulate.analysis.run import Run
from simulate.analysis.tables import mean_ci as interval
from simulate.games import Section

from .report_cards import (
    NONE,
    _body,
    _md,
    _players,
    _share,
    card_section,
    cards,
    event_section,
)

CHECKS = 4  # the Dominance Checks of the deck (``game.CHECKS``, RB p15)


def sections(run: Run, figures_dir: Path | None) -> list[Section]:
    """The game's sections of ``run``; the full per-card table is written as
    ``report_cards.CARD_CSV`` into ``figures_dir`` (the report's folder; nothing when it is
    None)."""
    c = getattr(run, "confidence", 0.95)
    frame = cards(run)
    return [
        coalition_section(run, c),
        check_section(run, c),
        early_section(run, c),
        loyalty_section(run, c),
        favored_section(run, c),
        rupee_section(run, c, frame),
        card_section(run, figures_dir, c, frame),
        event_section(run, c, frame),
    ]


# ---------------------------------------------------------------------------------------------
# Coalitions, Dominance Checks, early ends, loyalty


def share_rows(
    run: Run, column: str, values: Sequence[str] | None = None, confidence: float = 0.95
) -> list[dict[str, Any]]:
    """Per variant, the count and Wilson interval of each value of the games table's
    ``column`` (null: ``NONE``) over its finished games; values in ``values``' order, or by
    count."""
    out = []
    for v in run.variants:
        found = run.variant_games(v).get_column(column).cast(pl.String).fill_null(NONE)
        n = found.len()
        counts = dict(found.value_counts().iter_rows())
        order = list(values) if values is not None else sorted(counts, key=lambda x: -counts[x])
        for x in order:
            k = int(counts.get(x, 0))
            out.append({"variant": v, "value": x, "count": k, "n": n,
                        "share": k / n if n else math.nan,
                        "ci": stats.wilson_interval(k, n, confidence)})  # fmt: skip
    return out


def _share_table(rows: list[dict[str, Any]], what: str, lvl: str) -> str:
    return _md(
        ["variant", "finished games", what, "count", f"share [{lvl} Wilson]"],
        [(r["variant"], r["n"], r["value"], r["count"],
          f"{pct(r['share'])} [{pct_ci(*r['ci'])}]") for r in rows],
    )  # fmt: skip


def coalition_section(run: Run, confidence: float) -> Section:
    lvl = level(confidence)
    coalitions = _coalitions(run)
    rows = share_rows(run, "winner_loyalty", [*coalitions, NONE], confidence)
    return Section(
        "Winner's coalition",
        _body(
            f"The coalition the winner was loyal to at the end (RB p15), {_players(run)}; "
            f"{NONE}: no winner (an unresolved tie). Shares of the finished games with their "
            f"{lvl} Wilson intervals; they sum to 100% per variant.",
            _share_table(rows, "coalition", lvl),
        ),
    )


@lru_cache(maxsize=1)
def _data() -> Any:
    """The game's data (``cards.load``), its names of coalitions and suits."""
    from .cards import load

    return load()


def _coalitions(run: Run) -> list[str]:
    return list(_data().coalitions)


def check_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Per variant and Dominance Check (1..CHECKS): the games that reached it and the share
    of each outcome (a coalition dominated, or none) among them (RB p15)."""
    outcomes = [*_coalitions(run), "none"]
    out = []
    for v in run.variants:
        g = run.variant_games(v)
        for k in range(1, CHECKS + 1):
            found = g.get_column(f"check_{k}").drop_nulls().to_list()
            n = len(found)
            for x in outcomes:
                c = found.count(x)
                out.append({"variant": v, "check": k, "value": x, "count": c, "n": n,
                            "share": c / n if n else math.nan,
                            "ci": stats.wilson_interval(c, n, confidence)})  # fmt: skip
    return out


def check_section(run: Run, confidence: float) -> Section:
    lvl = level(confidence)
    rows = check_rows(run, confidence)
    outcomes = list(dict.fromkeys(r["value"] for r in rows))
    body = []
    for v in run.variants:
        for k in range(1, CHECKS + 1):
            cell = [r for r in rows if r["variant"] == v and r["check"] == k]
            n = cell[0]["n"] if cell else 0
            body.append((v, k, n, *(f"{pct(r['share'])} [{pct_ci(*r['ci'])}]" for r in cell)))
    return Section(
        "Dominance Checks",
        _body(
            "Each Dominance Check's outcome by its number (RB p15): the coalition that "
            "dominated it (its loyal players scored by influence), or none (no coalition led by "
            "the required margin: every player scored by cylinders in play). Shares of the games that reached that check, with their "
            f"{lvl} Wilson intervals; each row sums to 100%.",
            _md(["variant", "check", "games", *outcomes], body) if body else "",
        ),
    )


def early_section(run: Run, confidence: float) -> Section:
    lvl = level(confidence)
    endings = share_rows(run, "ending", ["early", "final", "stalled"], confidence)
    checks = [str(k) for k in range(1, CHECKS + 1)]
    at = []
    for v in run.variants:
        g = run.variant_games(v).filter(pl.col("ending") == "early")
        found = [str(x) for x in g.get_column("early_check").drop_nulls().to_list()]
        at.append((v, len(found), *(_share(found.count(k), len(found), confidence)
                                    for k in checks)))  # fmt: skip
    return Section(
        "Early ends",
        _body(
            "How each game ended: early (a Dominance Check gave a player a lead of the "
            "required victory points, RB p15), at the final check, or stalled (the engine's "
            "safety stop for a market nobody buys from: not a rule). Shares of the finished "
            f"games with their {lvl} Wilson intervals:",
            _share_table(endings, "ending", lvl),
            f"The check after which the early ends came, as shares of the early ends ({lvl} "
            "Wilson):",
            _md(["variant", "early ends", *(f"after check {k}" for k in checks)], at),
        ),
    )


def loyalty_section(run: Run, confidence: float) -> Section:
    lvl = level(confidence)
    rows = []
    for v in run.variants:
        x = run.variant_games(v).get_column("loyalty_changes").drop_nulls().to_list()
        changed = sum(1 for c in x if c > 0)
        rows.append((v, len(x), mean_ci(interval(x, confidence)),
                     _share(changed, len(x), confidence)))  # fmt: skip
    return Section(
        "Loyalty changes",
        _body(
            "Changes of loyalty over a game (playing a patriot of another coalition, RB p7), "
            f"all seats together: the mean per game with its {lvl} Student-t interval, and the "
            f"share of games with at least one change ({lvl} Wilson).",
            _md(["variant", "games", f"changes per game [{lvl}]", "games with a change"], rows),
        ),
    )


# ---------------------------------------------------------------------------------------------
# The favored suit, rupees


def favored_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Per variant and suit: the mean over games of the share of a game's turns that ended
    with the suit favored (``over``: Student-t interval) and the share of games that ended
    with it favored (``end``: count, Wilson interval)."""
    suits = pl.DataFrame({"favored": list(_data().suits)})
    ok = run.ok_games().select("variant", "game_index")
    t = run.turns.join(ok, on=["variant", "game_index"], how="semi")
    games = t.group_by("variant", "game_index").agg(
        pl.len().alias("n"), pl.col("favored").sort_by("turn").last().alias("last")
    )
    counts = t.group_by("variant", "game_index", "favored").len("k")
    per = (
        games.join(suits, how="cross")
        .join(counts, on=["variant", "game_index", "favored"], how="left")
        .with_columns((pl.col("k").fill_null(0) / pl.col("n")).alias("share"))
        .group_by("variant", "favored")
        .agg(pl.col("share"), (pl.col("last") == pl.col("favored")).sum().alias("end"))
    )
    found = {(r["variant"], r["favored"]): r for r in per.iter_rows(named=True)}
    out = []
    for v in run.variants:
        for s in suits.get_column("favored"):
            r = found.get((v, s), {"share": [], "end": 0})
            n, end = len(r["share"]), int(r["end"])
            out.append({"variant": v, "suit": s, "games": n,
                        "over": interval(r["share"], confidence), "end": end,
                        "end_ci": stats.wilson_interval(end, n, confidence)})  # fmt: skip
    return out


def favored_section(run: Run, confidence: float) -> Section:
    lvl = level(confidence)
    rows = [(r["variant"], r["suit"], r["games"], _pct_mean(r["over"]),
             f"{pct(r['end'] / r['games']) if r['games'] else '–'} [{pct_ci(*r['end_ci'])}]")
            for r in favored_rows(run, confidence)]  # fmt: skip
    return Section(
        "Favored suit",
        _body(
            "The favored suit (RB p4, changed by a card's suit icon, RB p11) over the game: "
            "the share of a game's turns that ended with each suit favored, averaged over the "
            f"games ({lvl} Student-t interval; each variant's shares sum to 100%), and the "
            f"share of games that ended with it favored ({lvl} Wilson).",
            _md(["variant", "suit", "games", f"share of turns [{lvl}]",
                 f"favored at the end [{lvl}]"], rows),
        ),
    )  # fmt: skip


def _pct_mean(m: tuple[float, float, float]) -> str:
    mean, lo, hi = m
    if mean != mean:
        return "–"
    if math.isinf(lo):
        return pct(mean)
    return f"{pct(mean)} [{pct_ci(max(lo, 0.0), min(hi, 1.0))}]"


def rupee_rows(
    run: Run, confidence: float = 0.95, frame: pl.DataFrame | None = None
) -> list[dict[str, Any]]:
    """Per variant and seat (and ``all``): purchases and rupees paid per game (the cards
    table's ``price``; ``frame``: ``cards(run)``), and the rupees held after the seat's last
    turn (``turns``)."""
    c = (cards(run) if frame is None else frame).filter(pl.col("price").is_not_null())
    ok = run.ok_games().select("variant", "game_index")
    seats = pl.DataFrame({"seat": list(run.seats)})
    keys = ["variant", "game_index", "seat"]
    bought = (
        c.rename({"bought_by": "seat"})
        .group_by(keys)
        .agg(
            pl.len().alias("buys"),
            pl.col("price").sum().alias("paid"),
            (pl.col("price") == 0).sum().alias("free"),
        )
    )
    last = (
        run.turns.join(ok, on=["variant", "game_index"], how="semi")
        .group_by(keys)
        .agg(pl.col("rupees").sort_by("turn").last())
    )
    per = (
        ok.join(seats, how="cross")
        .join(bought, on=keys, how="left")
        .join(last, on=keys, how="left")
        .with_columns(pl.col("buys", "paid", "free").fill_null(0))
    )
    every = per.group_by("variant", "game_index").agg(
        pl.col("buys", "paid", "free").sum(), pl.col("rupees").sum()
    )
    grouped = {
        (r["variant"], r["seat"]): r
        for frame_ in (
            per.group_by("variant", "seat").agg(pl.all()),
            every.with_columns(pl.lit("all").alias("seat"))
            .group_by("variant", "seat")
            .agg(pl.all()),
        )
        for r in frame_.iter_rows(named=True)
    }
    out = []
    for v in run.variants:
        for seat in [*run.seats, "all"]:
            r = grouped.get((v, seat), dict.fromkeys(("buys", "paid", "free", "rupees"), []))
            end = [x for x in r["rupees"] if x is not None]
            out.append({"variant": v, "seat": seat, "games": len(r["buys"]),
                        "buys": interval(r["buys"], confidence),
                        "paid": interval(r["paid"], confidence),
                        "free": (int(sum(r["free"])), int(sum(r["buys"]))),
                        "end": interval(end, confidence)})  # fmt: skip
    return out


def rupee_section(run: Run, confidence: float, frame: pl.DataFrame | None = None) -> Section:
    lvl = level(confidence)
    rows = [(r["variant"], r["seat"], r["games"], mean_ci(r["buys"]), mean_ci(r["paid"]),
             _share(*r["free"], confidence), mean_ci(r["end"]))
            for r in rupee_rows(run, confidence, frame)]  # fmt: skip
    return Section(
        "Rupee flow",
        _body(
            "Rupees paid for purchases (RB p10: placed on the market cards to the left of the "
            "card bought), per seat and game, from the card table's `price`, "
            f"with each seat's rupees after its last turn (the per-turn table's `rupees`); "
            f"means per game with their {lvl} Student-t intervals, and the share of "
            "purchases that cost nothing (the leftmost column, RB p10).",
            _md(["variant", "seat", "games", f"purchases [{lvl}]", f"rupees paid [{lvl}]",
                 "free purchases", f"rupees at the end [{lvl}]"], rows),
            "Covered: the engine's purchases by a player (Wakhan's purchases, RB p17, pay no "
            "price the card table records) and the rupees held after each turn. Not recorded, "
            "so not shown: the rupees a buyer takes from the card bought, taxes (RB p13), "
            "gifts (RB p13), bribes (RB p11-p12), leverage and its repayment (RB p8) and "
            "the rupees of the other card-based actions; the flow by source needs them "
            "recorded per turn first.",
        ),
    )  # fmt: skip
