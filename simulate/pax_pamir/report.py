"""Pax Pamir's own sections of a balance report (``PaxPamir.report_sections``): the
winner's coalition, the Dominance Checks and early ends, loyalty changes, the favored suit,
the rupees paid, and (``report_cards``) each court card's power and each event's swing, per
variant (a variant may seat another number of players), each table and its figure
(``figures``) with its interval. The generic report (``simulate.analysis.report``) renders
them after its own sections.

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
from simulate.analysis.figures import save_named
from simulate.analysis.formatting import level, mean_ci, paragraphs, pct, pct_ci
from simulate.analysis.run import Run
from simulate.analysis.tables import mean_ci as interval
from simulate.games import Section

from . import figures
from .report_cards import (
    NONE,
    _md,
    _players,
    _share,
    card_section,
    cards,
    event_section,
)

CHECKS = 4  # the Dominance Checks of the deck (``game.CHECKS``, RB p15)


def sections(run: Run, figures_dir: Path | None) -> list[Section]:
    """The game's sections of ``run``; their figures (``figures``) and the full per-card
    table (``report_cards.CARD_CSV``) are written into ``figures_dir`` (the report's folder;
    nothing when it is None)."""
    c = getattr(run, "confidence", 0.95)
    frame = cards(run)
    d = figures_dir
    return [
        coalition_section(run, c, figures_dir=d),
        check_section(run, c, figures_dir=d),
        early_section(run, c, figures_dir=d),
        loyalty_section(run, c, figures_dir=d),
        favored_section(run, c, figures_dir=d),
        rupee_section(run, c, frame, figures_dir=d),
        card_section(run, d, c, frame),
        event_section(run, c, frame, figures_dir=d),
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


def coalition_section(run: Run, confidence: float, *, figures_dir: Path | None = None) -> Section:
    lvl = level(confidence)
    coalitions = _coalitions(run)
    rows = share_rows(run, "winner_loyalty", [*coalitions, NONE], confidence)
    drawn: tuple[str, ...] = ()
    if any(r["n"] for r in rows):
        fig = figures.coalition_shares(rows, run.variants, confidence)
        drawn = save_named(fig, figures_dir, "coalitions")
    return Section(
        "Winner's coalition",
        paragraphs(
            f"The coalition the winner was loyal to at the end (RB p15), {_players(run)}; "
            f"{NONE}: no winner (an unresolved tie). Shares of the finished games with their "
            f"{lvl} Wilson intervals; they sum to 100% per variant.",
            _share_table(rows, "coalition", lvl),
        ),
        drawn,
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


def check_section(run: Run, confidence: float, *, figures_dir: Path | None = None) -> Section:
    lvl = level(confidence)
    rows = check_rows(run, confidence)
    drawn: tuple[str, ...] = ()
    if any(r["n"] for r in rows):
        fig = figures.dominance_checks(rows, run.variants, confidence)
        drawn = save_named(fig, figures_dir, "dominance_checks")
    outcomes = list(dict.fromkeys(r["value"] for r in rows))
    body = []
    for v in run.variants:
        for k in range(1, CHECKS + 1):
            cell = [r for r in rows if r["variant"] == v and r["check"] == k]
            n = cell[0]["n"] if cell else 0
            body.append((v, k, n, *(f"{pct(r['share'])} [{pct_ci(*r['ci'])}]" for r in cell)))
    return Section(
        "Dominance Checks",
        paragraphs(
            "Each Dominance Check's outcome by its number (RB p15): the coalition that "
            "dominated it (its loyal players scored by influence), or none (no coalition led by "
            "the required margin: every player scored by cylinders in play). Shares of the games that reached that check, with their "
            f"{lvl} Wilson intervals; each row sums to 100%.",
            _md(["variant", "check", "games", *outcomes], body) if body else "",
        ),
        drawn,
    )


def early_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Per variant and Dominance Check (``value``: "1".."CHECKS"): the early ends after it
    (RB p15) as a share of the variant's early ends (``n``), with its Wilson interval."""
    out = []
    for v in run.variants:
        g = run.variant_games(v).filter(pl.col("ending") == "early")
        found = [str(x) for x in g.get_column("early_check").drop_nulls().to_list()]
        n = len(found)
        for k in (str(k) for k in range(1, CHECKS + 1)):
            c = found.count(k)
            out.append({"variant": v, "value": k, "count": c, "n": n,
                        "share": c / n if n else math.nan,
                        "ci": stats.wilson_interval(c, n, confidence)})  # fmt: skip
    return out


def early_section(run: Run, confidence: float, *, figures_dir: Path | None = None) -> Section:
    lvl = level(confidence)
    endings = share_rows(run, "ending", ["early", "final", "stalled"], confidence)
    checks = [str(k) for k in range(1, CHECKS + 1)]
    found = early_rows(run, confidence)
    at = []
    for v in run.variants:
        mine = {r["value"]: r for r in found if r["variant"] == v}
        n = mine[checks[0]]["n"]
        at.append((v, n, *(_share(mine[k]["count"], n, confidence) for k in checks)))
    drawn: tuple[str, ...] = ()
    if any(r["n"] for r in found):  # no early end: no figure
        fig = figures.early_ends(endings, found, run.variants, confidence)
        drawn = save_named(fig, figures_dir, "early_ends")
    return Section(
        "Early ends",
        paragraphs(
            "How each game ended: early (a Dominance Check gave a player a lead of the "
            "required victory points, RB p15), at the final check, or stalled (the engine's "
            "safety stop for a market nobody buys from: not a rule). Shares of the finished "
            f"games with their {lvl} Wilson intervals:",
            _share_table(endings, "ending", lvl),
            f"The check after which the early ends came, as shares of the early ends ({lvl} "
            "Wilson):",
            _md(["variant", "early ends", *(f"after check {k}" for k in checks)], at),
        ),
        drawn,
    )


def loyalty_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Per variant: the changes of loyalty per game, all seats (``changes``), and per game
    and seat (``per_seat``: a game's changes over its seats, ``start_loyalty``'s), with their
    Student-t intervals, and the games with at least one (``changed``, Wilson)."""
    out = []
    for v in run.variants:
        g = run.variant_games(v).filter(pl.col("loyalty_changes").is_not_null())
        x = g.get_column("loyalty_changes").to_list()
        seats = g.get_column("start_loyalty").str.count_matches("/").to_list()
        per = [c / (k + 1) for c, k in zip(x, seats, strict=True)]
        k = sum(1 for c in x if c > 0)
        n = len(x)
        out.append({"variant": v, "games": n, "changes": interval(x, confidence),
                    "per_seat": interval(per, confidence), "count": k,
                    "changed": (k / n if n else math.nan,
                                *stats.wilson_interval(k, n, confidence))})  # fmt: skip
    return out


def loyalty_section(run: Run, confidence: float, *, figures_dir: Path | None = None) -> Section:
    lvl = level(confidence)
    found = loyalty_rows(run, confidence)
    rows = [(r["variant"], r["games"], mean_ci(r["changes"]), mean_ci(r["per_seat"], 2),
             _share(r["count"], r["games"], confidence)) for r in found]  # fmt: skip
    drawn: tuple[str, ...] = ()
    if any(r["games"] for r in found):
        fig = figures.loyalty_changes(found, run.variants, confidence)
        drawn = save_named(fig, figures_dir, "loyalty_changes")
    return Section(
        "Loyalty changes",
        paragraphs(
            "Changes of loyalty over a game (playing a patriot of another coalition, RB p7): "
            f"the mean per game, all seats together and per seat, with its {lvl} Student-t "
            f"interval, and the share of games with at least one change ({lvl} Wilson).",
            _md(
                [
                    "variant",
                    "games",
                    f"changes per game [{lvl}]",
                    f"per game and seat [{lvl}]",
                    "games with a change",
                ],
                rows,
            ),
        ),
        drawn,
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


def favored_section(run: Run, confidence: float, *, figures_dir: Path | None = None) -> Section:
    lvl = level(confidence)
    found = favored_rows(run, confidence)
    rows = [(r["variant"], r["suit"], r["games"], _pct_mean(r["over"]),
             f"{pct(r['end'] / r['games']) if r['games'] else '–'} [{pct_ci(*r['end_ci'])}]")
            for r in found]  # fmt: skip
    drawn: tuple[str, ...] = ()
    if any(r["games"] for r in found):
        drawn = save_named(figures.favored_suit(found, run.variants, confidence), figures_dir,
                      "favored_suit")  # fmt: skip
    return Section(
        "Favored suit",
        paragraphs(
            "The favored suit (RB p4, changed by a card's suit icon, RB p11) over the game: "
            "the share of a game's turns that ended with each suit favored, averaged over the "
            f"games ({lvl} Student-t interval; each variant's shares sum to 100%), and the "
            f"share of games that ended with it favored ({lvl} Wilson).",
            _md(["variant", "suit", "games", f"share of turns [{lvl}]",
                 f"favored at the end [{lvl}]"], rows),
        ),
        drawn,
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
    """Per variant and seat (and ``all``): purchases and their price per game (the cards
    table's ``price``; ``frame``: ``cards(run)``), the rupees held after the seat's last turn
    (``turns``), and from the ``rupees`` table (the ledger, ``ledger.SOURCES``) the rupees
    gained and paid per game by source (``sources``: source -> ``{"gained", "paid"}``) and in
    all (``gained``, ``spent``), over ``flow_games`` games (0: the run has no ledger)."""
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
    by_source, totals = _rupee_flow(run, ok)
    nan = (math.nan, math.nan, math.nan)
    out = []
    for v in run.variants:
        for seat in [*run.seats, "all"]:
            r = grouped.get((v, seat), dict.fromkeys(("buys", "paid", "free", "rupees"), []))
            end = [x for x in r["rupees"] if x is not None]
            flow = by_source.get((v, seat), {})
            total = totals.get((v, seat), {"gained": [], "paid": []})
            out.append({"variant": v, "seat": seat, "games": len(r["buys"]),
                        "buys": interval(r["buys"], confidence),
                        "paid": interval(r["paid"], confidence),
                        "free": (int(sum(r["free"])), int(sum(r["buys"]))),
                        "end": interval(end, confidence),
                        "flow_games": len(total["gained"]),
                        "gained": interval(total["gained"], confidence),
                        "spent": interval(total["paid"], confidence),
                        "sources": {s: {"gained": interval(g, confidence) if g else nan,
                                        "paid": interval(p, confidence) if p else nan,
                                        "moved": any(g) or any(p)}
                                    for s, (g, p) in flow.items()}})  # fmt: skip
    return out


def _rupee_flow(
    run: Run, ok: pl.DataFrame
) -> tuple[dict[tuple[str, str], dict[str, tuple[list, list]]], dict[tuple[str, str], dict]]:
    """The ``rupees`` table over the finished games ``ok``, per variant and seat (and ``all``,
    the seats of a game summed): source -> (gained per game, paid per game), every source of
    ``ledger.SOURCES`` (then any other the table names) for every game the table covers; and
    the totals over the sources, ``{"gained": [...], "paid": [...]}`` per game. Both empty
    for a run recorded without the table."""
    from .ledger import SOURCES

    found = run.tables.get("rupees")
    if found is None or found.height == 0:
        return {}, {}
    f = found.join(ok, on=["variant", "game_index"], how="semi").select(
        "variant", "game_index", "seat", "source",
        pl.col("gained").cast(pl.Int64), pl.col("paid").cast(pl.Int64),
    )  # fmt: skip
    if f.height == 0:
        return {}, {}
    every = f.group_by("variant", "game_index", "source").agg(pl.col("gained", "paid").sum())
    f = pl.concat([f, every.select("variant", "game_index", pl.lit("all").alias("seat"),
                                   "source", "gained", "paid")])  # fmt: skip
    names = [*SOURCES, *sorted(set(f.get_column("source").to_list()) - set(SOURCES))]
    grid = (
        f.select("variant", "game_index").unique()
        .join(f.select("variant", "seat").unique(), on="variant")  # each variant's own seats
        .join(pl.DataFrame({"source": names}), how="cross")
        .join(f, on=["variant", "game_index", "seat", "source"], how="left")
        .with_columns(pl.col("gained", "paid").fill_null(0))
    )  # fmt: skip
    by_source: dict[tuple[str, str], dict[str, tuple[list, list]]] = {}
    for r in grid.group_by("variant", "seat", "source").agg("gained", "paid").iter_rows(named=True):
        by_source.setdefault((r["variant"], r["seat"]), {})[r["source"]] = (r["gained"], r["paid"])
    for key, flow in by_source.items():  # in ``names`` order
        by_source[key] = {s: flow[s] for s in names if s in flow}
    summed = grid.group_by("variant", "seat", "game_index").agg(pl.col("gained", "paid").sum())
    totals = {
        (r["variant"], r["seat"]): {"gained": r["gained"], "paid": r["paid"]}
        for r in summed.group_by("variant", "seat").agg("gained", "paid").iter_rows(named=True)
    }
    return by_source, totals


def _rupee_ci(m: tuple[float, float, float]) -> str:
    """``mean_ci`` of rupees per game; ``0`` where none moved in any game (the ledger's counts
    are never negative, so a mean of 0 is no rupee at all)."""
    return "0" if m[0] == 0 else mean_ci(m)


def rupee_section(
    run: Run,
    confidence: float,
    frame: pl.DataFrame | None = None,
    *,
    figures_dir: Path | None = None,
) -> Section:
    lvl = level(confidence)
    found = rupee_rows(run, confidence, frame)
    flows = [r for r in found if r["seat"] == "all" and r["flow_games"] and r["sources"]]
    drawn: tuple[str, ...] = ()
    if any(x["moved"] for r in flows for x in r["sources"].values()):  # no ledger: no figure
        fig = figures.rupee_flow(flows, run.variants, confidence)
        drawn = save_named(fig, figures_dir, "rupee_flow")
    rows = [(r["variant"], r["seat"], r["games"], mean_ci(r["buys"]),
             _share(*r["free"], confidence), mean_ci(r["gained"]), mean_ci(r["spent"]),
             mean_ci(r["end"]))
            for r in found]  # fmt: skip
    order = next((list(r["sources"]) for r in found if r["sources"]), [])  # ledger.SOURCES
    moved = {(r["variant"], s) for r in found for s, x in r["sources"].items() if x["moved"]}
    flow = sorted(
        ((r["variant"], s, r["seat"], r["flow_games"], _rupee_ci(x["gained"]),
          _rupee_ci(x["paid"]))
         for r in found for s, x in r["sources"].items() if (r["variant"], s) in moved),
        key=lambda t: (run.variants.index(t[0]), order.index(t[1])),
    )  # fmt: skip
    recorded = [v for v in run.variants if any(r["flow_games"] for r in found if r["variant"] == v)]
    missing = [v for v in run.variants if v not in recorded]
    idle = sorted({s for r in found for s in r["sources"]} - {s for _, s in moved})
    if not recorded:
        by_source = (
            "The rupee flow by source is not in this run: its games were recorded without the "
            "`rupees` table (an older run); only purchases and the rupees held are shown."
        )
    else:
        by_source = _md(["variant", "source", "seat", "games", f"gained [{lvl}]",
                         f"paid [{lvl}]"], flow)  # fmt: skip
        if missing:
            by_source += (
                f"\n\nNot in the `rupees` table, so not shown: the flow of {', '.join(missing)}."
            )
        if idle:
            by_source += f"\n\nNo rupee moved by: {', '.join(idle)}."
    return Section(
        "Rupee flow",
        paragraphs(
            "Every rupee a seat gained or paid over a game, by source, from the game's ledger "
            "(the `rupees` table, one row per seat and source): **purchase** (paid onto the "
            "market cards to the left of the card bought, RB p10), **market** (the rupees on "
            "the card bought, taken with it, RB p10), **tax** (taken by the taxer from players "
            "or market cards, lost by the taxed, RB p13), **bribe** (paid to the ruler to play "
            "a card, RB p11, or to a hostage holder to act, RB p12; received by them), "
            "**gift**, **build** (RB p13) and **betray** (RB p14), the action costs paid onto "
            "the market (RB p12 Action Costs), **leverage** (two rupees from the bank when a "
            "leveraged card is played, RB p11, returned when it is discarded, RB p8), "
            "**event** (Backing of Persian Aristocracy's three, cards.yaml) and **other** (an "
            "action cost of no named action). A seat's rupees are always its starting rupees "
            "(RB p4) plus what it gained less what it paid (the game's invariant). "
            f"Means per game with their {lvl} Student-t intervals; `all` sums a game's seats "
            "(a rupee moved between seats, a bribe or a tax, counts on both sides).",
            _md(["variant", "seat", "games", f"purchases [{lvl}]", "free purchases",
                 f"rupees gained [{lvl}]", f"rupees paid [{lvl}]",
                 f"rupees at the end [{lvl}]"], rows),
            "Purchases count the cards table's (a player's; Wakhan's, RB p17, it records "
            "without a price, though the ledger has what she paid), with the share that cost "
            "nothing (the leftmost column, RB p10); the rupees at the end are those held "
            "after the seat's last turn (the per-turn table's `rupees`). Wakhan's rupees "
            "(RB p16) flow by the same sources; her leverage grace (RB p16: no cards discarded "
            "for the rupees she lacks) is what she did not return, so not counted as paid.",
            by_source,
        ),
        drawn,
    )  # fmt: skip
