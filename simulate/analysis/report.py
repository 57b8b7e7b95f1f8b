"""The balance report of a run: Markdown and self-contained HTML, with matplotlib figures.

``vsim report DIR`` calls :func:`build_report`, which reads the run's Parquet tables and
manifest (:func:`~simulate.analysis.run.load_run`), summarises them with
:mod:`simulate.analysis.tables` and :mod:`simulate.analysis.stats` (Wilson and Goodman
intervals, Student-t intervals of means, paired comparisons) and writes into ``DIR/report/``
(or ``--out``)::

    report.html        one file: tables, text and every figure embedded as a base64 PNG
    report.md          the same content, figures linked as the PNG files beside it
    *.png              win_rates, <score>_distribution, <score>_per_turn, game_length,
                       the game's own figures, and compare-*.png for each comparison

The generic sections (the answer, win rates, scores, score per step, length, ties,
comparisons, one table per categorical column the game declares) come first, then the
game's own (``Game.report_sections``). Errored games (a ``games`` row with ``error`` set)
are left out of every rate and mean and counted in the "failures" line. The header states
the run's provenance and, for a game with stand-in data (``Game.provisional``), which data
were provisional.

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
from simulate.analysis import figures, render, terms
from simulate.analysis import report_parts as parts
from simulate.analysis import verdict as verdict_mod
from simulate.analysis.commands import rerunnable, shown_path, wrapped
from simulate.analysis.formatting import finite, level
from simulate.analysis.provenance import (
    ROOT,
    provenance_rows,
    provisional_status,
    provisional_text,
    run_command,
    variant_changes,
)
from simulate.analysis.run import ReportError, Run, load_run
from simulate.analysis.tables import (
    MIN_TURN_SHARE,
    length_rows,
    score_rows,
    tie_rows,
    tiebreaks,
    turn_curves,
    win_rows,
)
from simulate.games import Game

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
    run = load_run(directory)
    if not 0.0 < margin < run.parity:
        raise ReportError(f"--margin must be in (0, {terms.parity_text(run.seats)}), got {margin}")
    run.confidence = confidence  # the game's own sections read the report's level
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
    context["exploitability"] = exploitability_context(found["exploitability"], run.seats)
    strength = found["strength"]
    context["strength_command"] = _command_block(strength["command"]) if strength else None
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
    game = run.the_game
    seats, word = run.seats, game.seat_word
    names = terms.seat_names(game)
    variants = run.variants
    ok = run.ok_games()
    pngs: list[Path] = []
    figs: dict[str, render.Figure] = {}

    def fig(key: str, name: str, figure: Any, caption: str) -> render.Figure:
        path = figures.save(figure, out / f"{name}.png")
        pngs.append(path)
        figs[key] = render.Figure(path, caption)
        return figs[key]

    wins = win_rows(run, confidence)
    fig(
        "win_rates",
        "win_rates",
        figures.win_rates(wins, variants, confidence, seats=seats, names=names, seat_word=word),
        f"Win rate per {word} and variant; thin dark line: {lvl} Wilson interval of each "
        f"rate; wide grey band: {lvl} Goodman simultaneous interval; dashed: parity "
        f"({terms.parity_text(seats)}).",
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
            "sweep",
            figures.sweep(wins, variants, swept, confidence, seats=seats, names=names),
            f"Each {terms.seat_noun(game)}'s win rate against `{swept}`, one variant per value, "
            f"all on the same seeds; bars: {lvl} Wilson intervals; dashed: parity.",
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

    score, step = game.score_label, game.step_label
    fig(
        "score_distribution",
        f"{game.score}_distribution",
        figures.score_distribution(
            ok, variants, {f: run.score_column(f) for f in seats},
            label=score, seat_word=word, names=names,
        ),
        f"Final {score} per {word}.",
    )  # fmt: skip
    if game.step_score is not None:
        spelled = terms.score_words(game)
        fig(
            "score_per_step",
            f"{game.score}_per_turn",
            figures.over_turns(
                turn_curves(run, game.step_score, seats, confidence),
                variants,
                seats,
                title=f"Mean {spelled} after each {step}",
                ylabel=spelled if spelled == score else f"{spelled} ({score})",
                confidence=confidence,
                xlabel=f"{step} (position in the game)",
                names=names,
            ),
            f"Mean {score} after each {step} with its {lvl} band, over the games still running "
            f"at that {step} (a curve stops when fewer than {MIN_TURN_SHARE:.0%} of the games "
            "reach it).",
        )
    length = parts.length_words(run)
    fig(
        "game_length",
        "game_length",
        figures.game_length(ok, variants, game.length, length),
        f"{length.capitalize()} per game.",
    )
    sections, found = parts.game_sections(run, out)
    pngs += found
    kinds = tiebreaks(run)

    context = {
        "title": f"{game_title(game)} balance report: {run.name}",
        "level": lvl,
        "game": _game_words(run),
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
        "wins": parts.win_table(wins, lvl),
        "comparisons": compared,
        "agreement": agreement,
        "swept": swept,
        "scores": parts.score_table(run, score_rows(run, confidence), lvl),
        "length": parts.length_table(run, length_rows(run, confidence), lvl),
        "ties": parts.tie_table(tie_rows(run, confidence), kinds, lvl),
        "tiebreaks": [k.capitalize() for k in kinds],
        "categorical": parts.categorical(run),
        "sections": sections,
        "failures": _failures(run),
        "figures": figs,
        "directory": shown_path(str(run.directory)),
        "command": _command_block(run_command(run)),
        "regenerate": _command_block(
            f"vsim report {run.directory}" + "".join(f" --compare {o.directory}" for o in others)
        ),
    }
    return context, pngs


def game_title(game: Game) -> str:
    """The game's name as a title (``some-game`` -> ``Some Game``)."""
    return " ".join(w.capitalize() for w in game.name.replace("-", "_").split("_"))


def _game_words(run: Run) -> dict[str, Any]:
    """The words the template says of the game: its seats, their parity, the score's,
    the length's and the step's names."""
    game = run.the_game
    noun = terms.seat_noun(game)
    strength = game.lineup_files().get("strength")
    spelled = terms.score_words(game)
    return {
        "seats": list(run.seats),
        "seat": game.seat_word,
        "Seat": noun,
        "Seats": f"{noun}s",
        "count": terms.number_word(len(run.seats)),
        "outcomes": terms.number_word(len(run.outcomes)),
        "even": terms.even_share(run.seats),
        "score": game.score_label,
        "score_words": spelled if spelled != game.score_label else None,
        "score_title": spelled[:1].upper() + spelled[1:],
        "step": game.step_label,
        "tables": list(game.tables),  # the game's own tables (``Game.tables``)
        "score_rule": game.rule_refs.get("score"),
        "tiebreak_rule": game.rule_refs.get("tiebreak"),
        "strength_file": shown_path(str(strength), ROOT) if strength else None,
    }


def _command_block(command: str | None) -> str | None:
    """A command as the report shows it: rerunnable from the working folder, wrapped."""
    return None if command is None else wrapped(rerunnable(command))


def caveat(provisional: str) -> str:
    """The provisional-data warning's first sentence, to stand before the answer (the whole
    warning, with how to replace the data, follows the answer); "" for none."""
    if not provisional.startswith("**"):
        return provisional
    end = provisional.index("**", 2) + 2
    return (
        provisional[:end] + " Read these numbers as a test of the tool, not a verdict on the "
        "game's balance (how to replace the data is below the answer)."
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


def exploitability_context(
    found: Sequence[dict[str, Any]], seats: Sequence[str]
) -> list[dict[str, Any]]:
    """Each measured lineup's exploitability as a short table: per seat (in turn order), the
    strongest challenger that beat the field significantly and its gain (none: no
    challenger tried did)."""
    out = []
    for e in found:
        beaten = dict(e["seats"])
        rows = []
        for f in seats:
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
