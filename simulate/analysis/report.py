"""The balance report of a run: Markdown and self-contained HTML, with matplotlib figures.

``vsim report DIR`` calls :func:`build_report`, which reads the run's Parquet tables and
manifest (:func:`~simulate.analysis.run.load_run`), summarises them with
:mod:`simulate.analysis.tables` and :mod:`simulate.analysis.stats` (Wilson and Goodman
intervals, Student-t intervals of means, paired comparisons) and writes into ``DIR/report/``
(or ``--out``)::

    report.html        one file: tables, text and every figure embedded as a base64 PNG
    report.md          the same content, figures linked as the PNG files beside it
    *.png              win_rates, vp_distribution, vp_per_turn, influence, mongols,
                       game_length, action_mix, and compare-*.png for each comparison

Errored games (a ``games`` row with ``error`` set) are left out of every rate and mean and
counted in the "failures" line. The header states the run's provenance and, always, whether
the map and the Event deck it used were provisional stand-ins.

>>> from simulate.analysis.report import build_report               # doctest: +SKIP
>>> build_report("runs/forts").html                         # doctest: +SKIP
PosixPath('runs/forts/report/report.html')
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis import compare as compare_mod
from simulate.analysis import figures, render
from simulate.analysis import verdict as verdict_mod
from simulate.analysis.commands import rerunnable, shown_path, wrapped
from simulate.analysis.formatting import finite, level, mean_ci, num, pct, pct_ci
from simulate.analysis.provenance import (
    provenance_rows,
    provisional_status,
    provisional_text,
    run_command,
    variant_changes,
)
from simulate.analysis.run import ReportError, Run, load_run
from simulate.analysis.tables import (
    DECCAN,
    MIN_TURN_SHARE,
    action_shares,
    length_rows,
    mongol_rows,
    tie_rows,
    turn_curves,
    vp_rows,
    win_rows,
)
from simulate.vijayanagara.result import FACTIONS

__all__ = ["ReportError", "ReportFiles", "build_report"]


@dataclass
class ReportFiles:
    out: Path
    html: Path
    markdown: Path
    figures: list[Path]


def build_report(
    directory: Path | str,
    out: Path | str | None = None,
    compare: Sequence[Path | str] = (),
    confidence: float = 0.95,
    n_boot: int = 2000,
    allow_confounded: bool = False,
    margin: float = 0.03,
) -> ReportFiles:
    """Write the report of the run in ``directory`` (and its comparison with each run in
    ``compare``) into ``out`` (default ``directory/report``)."""
    if not 0.0 < confidence < 1.0:
        raise ReportError(f"--confidence must be in (0, 1), got {confidence}")
    if not 0.0 < margin < 1 / 3:
        raise ReportError(f"--margin must be in (0, 1/3), got {margin}")
    run = load_run(directory)
    others = [load_run(d) for d in compare]
    # Every comparison is computed (and a seed mismatch refused) before anything is written.
    comparisons: list[Any] = []
    for a, b in compare_mod.report_pairs(run, others):
        try:
            comparisons.append(
                compare_mod.compare(
                    a, b, confidence=confidence, n_boot=n_boot, allow_confounded=allow_confounded
                )
            )
        except compare_mod.TooFewPairs as exc:
            comparisons.append(str(exc))  # shown as a note; a seed mismatch still refuses
    out = Path(out) if out is not None else run.directory / "report"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot create {out}: {exc.strerror}") from None
    found = verdict_mod.verdict(
        run, [c for c in comparisons if not isinstance(c, str)], margin, 1 - confidence
    )
    context, pngs = _context(run, out, comparisons, confidence, others, found["comparisons"])
    context["verdict"] = found
    context["exploitability"] = exploitability_context(found["exploitability"])
    if found["strength"]:
        context["strength_command"] = _command_block(found["strength"]["command"])
    context["provenance"] = render.table(
        ["what", "value"],
        [
            *context["provenance"].rows,
            *exploitability_rows(found["exploitability"]),
            *strength_rows(found["strength"]),
        ],
    )
    context["sequential"] = sequential_context(run.manifest.get("sequential"))
    with contextlib.suppress(OSError):  # a read-only run folder: it is still in the report
        (run.directory / "verdict.json").write_text(
            json.dumps(finite(found), indent=2, allow_nan=False) + "\n", "utf-8"
        )
    md = out / "report.md"
    md.write_text(render.markdown("report.md.j2", **context), encoding="utf-8")
    page = out / "report.html"
    page.write_text(render.html("report.md.j2", context["title"], **context), encoding="utf-8")
    return ReportFiles(out, page, md, pngs)


def _context(
    run: Run,
    out: Path,
    comparisons: Sequence[Any],
    confidence: float,
    others: Sequence[Run] = (),
    answers: Sequence[dict[str, Any]] = (),
) -> tuple[dict[str, Any], list[Path]]:
    """Everything ``templates/report.md.j2`` shows; the figures are saved into ``out``.
    ``answers``: the verdict of each comparison, in order, whose intervals its table and
    figure show."""
    lvl = level(confidence)
    variants = run.variants
    ok = run.ok_games()
    pngs: list[Path] = []
    figs: dict[str, render.Figure] = {}

    def fig(name: str, figure: Any, caption: str) -> render.Figure:
        path = figures.save(figure, out / f"{name}.png")
        pngs.append(path)
        figs[name] = render.Figure(path, caption)
        return figs[name]

    wins = win_rows(run, confidence)
    win_table = render.table(
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
            for r in wins
        ],
    )
    fig(
        "win_rates",
        figures.win_rates(wins, variants, confidence),
        f"Win rate per faction and variant; thin dark line: {lvl} Wilson interval of each "
        f"rate; wide grey band: {lvl} Goodman simultaneous interval; dashed: parity (1/3).",
    )

    agreement = []
    if run.lineups:
        groups: dict[tuple[str, str], list[Any]] = {}
        for comp in comparisons:
            if not isinstance(comp, str):
                key = (comp.a.variant.split(" / ")[0], comp.b.variant.split(" / ")[0])
                groups.setdefault(key, []).append(comp)
        for comps in groups.values():
            if len(comps) == len(run.lineups):
                agreement.append(compare_mod.lineup_agreement(comps, run.lineups))

    swept = (run.manifest.get("sweep") or {}).get("key")
    if swept:
        fig(
            "sweep",
            figures.sweep(wins, variants, swept, confidence),
            f"Each Faction's win rate against `{swept}`, one variant per value, all on the "
            f"same seeds; bars: {lvl} Wilson intervals; dashed: parity.",
        )

    compared = []
    answered = iter(answers)
    for i, comp in enumerate(comparisons):
        if isinstance(comp, str):
            compared.append({"note": comp})
            continue
        answer = next(answered, None)
        path = figures.save(compare_mod.figure(comp, answer), out / f"compare-{i + 1}.png")
        pngs.append(path)
        compared.append(compare_mod.template_context(comp, path, answer))

    vps = vp_rows(run, confidence)
    vp_table = render.table(
        ["variant", "faction", "games", f"mean VP [{lvl}]", "median", "sd", "range"]
        + ["final Influence"],
        [
            (
                r["variant"],
                r["faction"],
                r["n"],
                mean_ci((r["mean"], r["low"], r["high"])),
                num(r["median"], 1),
                num(r["sd"]),
                f"{r['min']}–{r['max']}" if r["min"] is not None else "–",
                mean_ci(r["influence"]) if "influence" in r else "",
            )
            for r in vps
        ],
    )
    fig("vp_distribution", figures.vp_distribution(ok, variants), "Final VP per faction.")
    fig(
        "vp_per_turn",
        figures.over_turns(
            turn_curves(run, "vp", FACTIONS, confidence),
            variants,
            FACTIONS,
            title="Mean victory points after each card",
            ylabel="victory points (VP)",
            confidence=confidence,
        ),
        f"Mean VP after each card with its {lvl} band, over the games still running at that "
        f"card (a curve stops when fewer than {MIN_TURN_SHARE:.0%} of the games reach it). "
        "DS's VP include the Timur bonus only at the end.",
    )
    fig(
        "influence",
        figures.over_turns(
            turn_curves(run, "influence", DECCAN, confidence),
            variants,
            DECCAN,
            title="Deccan Influence after each card (BK, VE)",
            ylabel="Influence (track spaces)",
            confidence=confidence,
        ),
        f"Mean Deccan Influence after each card, {lvl} band.",
    )

    mongol_table = render.table(
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
    fig(
        "mongols",
        figures.mongol_outcomes(ok, variants),
        "Mongol Invaders left in Delhi at the end, the resulting Timur bonus to the Sultanate "
        "(5.1: 3 minus the Invaders, at least -3), and Sultanate Troops removed by Mongols.",
    )

    length_table = render.table(
        ["variant", "games", f"cards played (mean [{lvl}])", "min", "median", "max"],
        [
            (
                r["variant"],
                r["n"],
                mean_ci(r["mean"], 1),
                r["min"] if r["min"] is not None else "–",
                num(r["median"], 0),
                r["max"] if r["max"] is not None else "–",
            )
            for r in length_rows(run, confidence)
        ],
    )
    fig("game_length", figures.game_length(ok, variants), "Cards played per game.")

    shares = action_shares(run)
    fig("action_mix", figures.action_mix(shares, variants), "Action mix per faction.")

    tie_table = render.table(
        ["variant", "games", "unresolved ties", "rate", f"{lvl} Wilson"]
        + ["broken by Resources", "rate", f"{lvl} Wilson"],
        [
            (
                r["variant"],
                r["n"],
                r["unresolved"],
                pct(r["unresolved"] / r["n"]) if r["n"] else "–",
                pct_ci(*r["unresolved_ci"]),
                r["resources"],
                pct(r["resources"] / r["n"]) if r["n"] else "–",
                pct_ci(*r["resources_ci"]),
            )
            for r in tie_rows(run, confidence)
        ],
    )

    context = {
        "title": f"Vijayanagara balance report: {run.name}",
        "level": lvl,
        "provisional": provisional_text(provisional_status(run)),
        "caveat": caveat(provisional_text(provisional_status(run))),
        "provenance": render.table(
            ["what", "value"],
            provenance_rows(run)
            + [
                (
                    f"Compared run `{o.directory}`",
                    ", ".join(f"{f} `{s}`" for f, s in o.strategies.items()),
                )
                for o in others
            ],
        ),
        "changes": render.table(["variant", "setting", "value"], variant_changes(run)),
        "wins": win_table,
        "comparisons": compared,
        "agreement": agreement,
        "swept": swept,
        "vp": vp_table,
        "mongols": mongol_table,
        "length": length_table,
        "actions": _action_table(shares, variants),
        "ties": tie_table,
        "failures": _failures(run),
        "figures": figs,
        "directory": shown_path(str(run.directory)),
        "command": _command_block(run_command(run)),
        "regenerate": _command_block(
            f"vsim report {run.directory}" + "".join(f" --compare {o.directory}" for o in others)
        ),
    }
    return context, pngs


def _command_block(command: str | None) -> str | None:
    """A command as the report shows it: rerunnable from the working folder, wrapped."""
    return None if command is None else wrapped(rerunnable(command))


def caveat(provisional: str) -> str:
    """The provisional-data warning's first sentence, to stand before the answer (the whole
    warning, with how to replace the data, follows the answer)."""
    if not provisional.startswith("**"):
        return provisional
    end = provisional.index("**", 2) + 2
    return (
        provisional[:end] + " Read these numbers as a test of the tool, not a verdict on the "
        "game's balance (how to replace the data is below the answer)."
    )


def _action_table(shares: pl.DataFrame, variants: Sequence[str]) -> render.Table:
    lookup = {(r["variant"], r["faction"], r["action"]): r for r in shares.iter_rows(named=True)}
    rows = []
    for v in variants:
        for f in FACTIONS:
            total = next(
                (lookup[(v, f, a)]["total"] for a in figures.ACTIONS if (v, f, a) in lookup), 0
            )
            rows.append(
                (
                    v,
                    f,
                    total,
                    *(
                        pct(lookup[(v, f, a)]["share"]) if (v, f, a) in lookup else pct(0.0)
                        for a in figures.ACTIONS
                    ),
                )
            )
    return render.table(
        ["variant", "faction", "actions", *(figures.ACTION_LABELS[a] for a in figures.ACTIONS)],
        rows,
    )


def _failures(run: Run) -> dict[str, Any]:
    failed = run.games.filter(pl.col("error").is_not_null())
    items = [
        f"{r['variant']} #{r['game_index']}: `"
        + str(r["error"]).replace("<DIR>", str(run.directory))
        + "`"
        for r in failed.head(20).iter_rows(named=True)
    ]
    if failed.height > 20:
        items.append(f"... and {failed.height - 20} more (column `error` of the games table)")
    return {"count": failed.height, "total": run.games.height, "items": items}


def sequential_context(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    """The ``--until-clear`` section: the stopping rule, why this study stopped, and each
    outcome's state at the last look (its difference, interval and answer, as the verdict
    gives it). An older record (SPRT looks without intervals) is named as such."""
    if not entry or not entry.get("looks"):
        return None
    from simulate.analysis.sequential import STOP_REASONS

    rule = entry["rule"]
    last = entry["looks"][-1]
    legacy = any(f.get("low") is None for c in last["comparisons"] for f in c["factions"])
    rows = []
    words = {"change": "change", "no change": "no change", "open": "not yet known"}
    for c in last["comparisons"]:
        for f in c["factions"]:
            more = f.get("more_games")
            rows.append(
                (f"{c['b']} vs {c['a']}", "unresolved ties" if f["faction"] == "tie"
                 else f["faction"], f"{f['n']:,}", f"{100 * f['diff']:+.1f}",
                 "–" if legacy else f"[{100 * f['low']:+.1f}, {100 * f['high']:+.1f}]",
                 words.get(f["decision"], f["decision"]),
                 f"{more:,}" if more else "")
            )  # fmt: skip
    status = entry.get("status")
    return {
        "rule": rule,
        "legacy": legacy,
        "status": status,
        "reason": entry.get("reason") or STOP_REASONS.get(status, str(status)),
        "games": entry.get("games_used"),
        "looks": [lk["games"] for lk in entry["looks"]],
        "interval": verdict_mod.interval_name(verdict_mod.ANYTIME, 1 - rule["alpha"]),
        "table": render.table(
            [
                "comparison",
                "outcome",
                "paired games",
                "B - A (percentage points)",
                f"{100 * (1 - rule['alpha']):g}% anytime-valid interval",
                "answer",
                "more paired games to decide",
            ],
            rows,
        ),  # fmt: skip
    }


def exploitability_context(found: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each measured lineup's exploitability as a short table: per seat, the strongest
    challenger that beat the field significantly and its gain (none: no challenger tried
    did)."""
    out = []
    for e in found:
        beaten = dict(e["seats"])
        rows = []
        for f in FACTIONS:
            rec = beaten.get(f)
            if rec is None:
                rows.append((f, "none of those tried beats the field here", "", ""))
            else:
                rows.append(
                    (f, f"`{rec['challenger']}`",
                     f"{100 * rec['gain']:+.1f} [{100 * rec['gain_lo']:+.1f}, "
                     f"{100 * rec['gain_hi']:+.1f}]", f"{rec['games']:,}")
                )  # fmt: skip
        table = render.table(
            ["seat", "strongest challenger", "gain (percentage points)", "paired games"], rows
        )
        out.append(e | {"table": table})
    return out


def strength_rows(found: dict[str, Any] | None) -> list[tuple[str, str]]:
    """Provenance row: where the command of the shipped strength study the verdict quotes is."""
    if not found:
        return []
    return [
        (
            "Strength curve (base game)",
            "`vsim strength`: its command is under *How to read and reproduce*",
        )
    ]


def exploitability_rows(found: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """Provenance rows: how each exploitability figure was measured, the ladders' note as
    text that wraps (its commands relative to the repository root)."""
    rows = []
    for e in found:
        who = f"`{e.get('strategy')}` {e.get('version') or ''}".strip()
        if e.get("lineup"):
            who = f"lineup {e['lineup']} ({who})"
        note = " ".join(str(e.get("command") or "–").split()).replace("|", "/")
        rows.append((f"Exploitability of {who}", note))
    return rows
