"""``vsim report``, ``vsim compare`` and ``vsim plan``: reading runs, not making them.

    vsim report runs/forts                       # -> runs/forts/report/report.html, report.md, *.png
    vsim report runs/forts --compare runs/forts-greedy --out /tmp/rep
    vsim compare runs/forts --variants base fort-penalty-2
    vsim compare runs/a runs/b                   # two runs made with the same --seed
    vsim plan --delta 0.03 --paired-rho 0.4

The commands are standalone click commands; ``register(group)`` adds them to the ``vsim``
group. A bad input is one line on
stderr and exit status 2, before anything is written.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from simulate.cli.app import game_option, resolve_game


class AnalysisInputError(click.ClickException):
    """A bad input: one line on stderr, exit status 2."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


def _console() -> Any:
    from rich.console import Console

    if sys.stdout.isatty() or "COLUMNS" in os.environ:
        return Console()
    return Console(width=140)


CONFOUNDED = click.option(
    "--confounded", is_flag=True,
    help="Compare runs that differ in more than the rules (bots, engine, data) anyway, "
    "under a warning.",
)  # fmt: skip


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise AnalysisInputError(f"--confidence must be in (0, 1), got {confidence}")


# ---------------------------------------------------------------------------------------------
# vsim report


@click.command("report")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option(
    "--compare", "compare_dirs", multiple=True, type=click.Path(path_type=Path), metavar="DIR2",
    help="Another run played with the same --seed to compare with, game by game (repeatable).",
)  # fmt: skip
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), default=None,
    help="Output directory (default: DIR/report).",
)  # fmt: skip
@click.option(
    "--confidence", type=float, default=0.95, show_default=True,
    help="Confidence level of every interval.",
)  # fmt: skip
@CONFOUNDED
@click.option(
    "--margin", type=float, default=0.03, show_default=True,
    help="The verdict's balance margin: balanced when every seat's win rate is within this "
    "of parity (1/seats).",
)  # fmt: skip
def report(
    directory: Path,
    compare_dirs: tuple[Path, ...],
    out: Path | None,
    confidence: float,
    confounded: bool,
    margin: float,
) -> None:
    """Write the balance report of a run: report.html (self-contained), report.md, PNGs.

    Win rates with Wilson and Goodman intervals, scores, the game's own sections, game
    length, ties and failures, per seat and variant; the variants of the run
    (and the runs given with --compare) compared on their common seeds.
    """
    from simulate.analysis.report import ReportError, build_report

    _check_confidence(confidence)
    try:
        files = build_report(
            directory, out, compare_dirs, confidence, allow_confounded=confounded, margin=margin
        )
    except ReportError as exc:
        raise AnalysisInputError(str(exc)) from None
    click.echo(f"Report: {files.html}")
    click.echo(f"        {files.markdown} and {len(files.figures)} figures in {files.out}/")


# ---------------------------------------------------------------------------------------------
# vsim compare


@click.command("compare")
@click.argument("directories", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--variants", nargs=2, default=None, metavar="A B",
    help="The two variants: both from DIR, or A from DIR_A and B from DIR_B.",
)  # fmt: skip
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), default=None,
    help="Output directory (default: DIR_B/compare-<A>-vs-<B>).",
)  # fmt: skip
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option(
    "--boot", type=int, default=2000, show_default=True,
    help="Bootstrap resamples of the VP difference.",
)  # fmt: skip
@CONFOUNDED
@click.option(
    "--margin", type=float, default=0.03, show_default=True,
    help="The smallest change in a win rate that matters: no change within +-margin.",
)  # fmt: skip
@click.option(
    "--json", "as_json", is_flag=True, help="Print the comparison as JSON on stdout (scripts)."
)
def compare(
    directories: tuple[Path, ...],
    variants: tuple[str, str] | None,
    out: Path | None,
    confidence: float,
    boot: int,
    confounded: bool,
    margin: float,
    as_json: bool,
) -> None:
    """Compare two variants game by game on their common seeds (DIR --variants A B, or DIR_A DIR_B).

    Per faction: win rates of A and B, the difference with its paired (Newcombe) interval
    and McNemar p-value; the difference of mean VP with a paired bootstrap interval; and the
    variance reduction the pairing bought; then the report's answer (change, no change
    larger than --margin, or undetermined with the games that would decide it). Writes
    compare.md, compare.png and compare.json.
    """
    from simulate.analysis import compare as cmp

    _check_confidence(confidence)
    if boot < 1:
        raise AnalysisInputError(f"--boot must be a positive integer, got {boot}")
    if not 0.0 < margin < 1.0:
        raise AnalysisInputError(f"--margin must be in (0, 1), got {margin}")
    try:
        a, b = cmp.resolve(directories, variants)
        comp = cmp.compare(a, b, confidence=confidence, n_boot=boot, allow_confounded=confounded)
        files = cmp.write(comp, out if out is not None else cmp.default_out(a, b), margin)
    except cmp.CompareError as exc:
        raise AnalysisInputError(str(exc)) from None
    except cmp.ReportError as exc:
        raise AnalysisInputError(str(exc)) from None
    if as_json:
        click.echo(files.json.read_text(encoding="utf-8").strip())
        return
    _print_comparison(comp)
    click.echo(f"Wrote {files.markdown}, {files.figure.name} and {files.json.name}")
    for line in cmp.decision_lines(cmp.decision(comp, margin)):
        click.echo(line)


def _print_comparison(comp: Any) -> None:
    from rich.table import Table

    from simulate.analysis import compare as cmp

    console = _console()
    if comp.confounded:
        console.print(
            "[bold red]CONFOUNDED: not a rule comparison.[/] The runs also differ in "
            + "; ".join(comp.confounded),
            highlight=False,
            soft_wrap=True,
        )
    console.print(cmp.summary_line(comp).replace("**", ""), highlight=False, soft_wrap=True)
    for title, t in (
        ("Win rates: paired difference (Newcombe) and McNemar test", cmp.win_table(comp)),
        ("Mean final VP: paired bootstrap", cmp.vp_table(comp)),
    ):
        table = Table(title=title)
        for c, a in zip(t.columns, t.align, strict=True):
            table.add_column(c, justify="left" if a == "l" else "right")
        for r in t.rows:
            table.add_row(*r)
        console.print(table)


# ---------------------------------------------------------------------------------------------
# vsim plan


@click.command("plan")
@click.option(
    "--delta", type=float, required=True,
    help="The change in a faction's win rate to detect, e.g. 0.03 for 3 percentage points.",
)  # fmt: skip
@click.option(
    "--p0", type=float, default=None, show_default="1/seats",
    help="The win rate before the change (with --pilot: each seat's, from the pilot).",
)  # fmt: skip
@click.option(
    "--alpha", type=float, default=0.05, show_default=True,
    help="The report's level: over every outcome and comparison (Bonferroni), as the verdict tests.",
)  # fmt: skip
@click.option("--power", type=float, default=0.8, show_default=True, help="Power of the test.")
@click.option(
    "--comparisons", type=int, default=None, show_default="1, or the pilot's",
    help="Comparisons the report will make (variants after the first): the verdict adjusts "
    "over all of them.",
)  # fmt: skip
@click.option(
    "--paired-rho", type=float, default=None,
    help="Per-game correlation of the two variants' results on common seeds (the variance "
    "reduction `vsim compare` reports for the win rate); default: unpaired.",
)  # fmt: skip
@click.option(
    "--pilot", type=click.Path(path_type=Path), default=None,
    help="A run of the variants to compare (a pilot): plan with their own win rates and "
    "per-game correlation (its 95% lower bound, the smallest over the run's variants paired "
    "with its first).",
)  # fmt: skip
@game_option
@click.option(
    "--seats", "n_seats", type=int, default=None, show_default="the game's base",
    help="Seats of the games planned (a game whose seats are a variant key: 2-5).",
)  # fmt: skip
def plan(
    delta: float,
    p0: float | None,
    alpha: float,
    power: float,
    comparisons: int | None,
    paired_rho: float | None,
    pilot: Path | None,
    game: str,
    n_seats: int | None,
) -> None:
    """How many games per variant let the report's verdict find a given change in a
    faction's win rate (a paired interval per outcome, simultaneous over the report's
    outcomes and comparisons, at --alpha and --power)."""
    from rich.table import Table

    from simulate.analysis import planning

    console = _console()
    if comparisons is not None and comparisons < 1:
        raise AnalysisInputError(f"--comparisons must be a positive integer, got {comparisons}")
    if n_seats is not None and n_seats < 2:
        raise AnalysisInputError(f"--seats must be at least 2, got {n_seats}")
    seats = n_seats or len(resolve_game(game).seats())
    rates: float | dict[str, float] = 1 / seats if p0 is None else p0
    if pilot is not None:
        if paired_rho is not None:
            raise AnalysisInputError("give --paired-rho or --pilot, not both")
        if p0 is not None:
            raise AnalysisInputError("give --p0 or --pilot, not both (the pilot gives the rates)")
        found = _pilot(pilot, console)
        rates, paired_rho = found["rates"], found["rho"]
        comparisons = comparisons or found["comparisons"]
    comparisons = comparisons or 1
    try:
        rows = planning.plan_rows(delta, rates, alpha, power, paired_rho, comparisons=comparisons)
        sentence = planning.plan_sentence(delta, rates, alpha, power, paired_rho, comparisons)
    except ValueError as exc:
        raise AnalysisInputError(_plan_message(str(exc))) from None
    console.print(sentence, highlight=False, soft_wrap=True)
    table = Table(title=f"Games per variant ({100 * power:g}% power)")
    table.add_column("change in win rate", justify="right")
    table.add_column("from → to", justify="right")
    table.add_column("unpaired", justify="right")
    if paired_rho is not None:
        table.add_column(f"paired, rho {paired_rho:g}", justify="right")
    for r in rows:
        mark = " ◀" if r["chosen"] else ""
        who = f"{r['faction']} " if r["faction"] else ""
        cells = [
            f"{100 * r['delta']:g} pp{mark}",
            f"{who}{100 * r['from']:.1f}% → {100 * r['to']:.1f}%",
            f"{r['unpaired']:,}",
        ]
        if paired_rho is not None:
            cells.append(f"{r['paired']:,}")
        table.add_row(*cells)
    console.print(table)


def _pilot(pilot: Path, console: Any) -> dict[str, Any]:
    """The pilot's win rates and pairing (``planning.pilot_figures``), each pair printed."""
    from simulate.analysis import compare as cmp
    from simulate.analysis import planning
    from simulate.analysis.run import ReportError, load_run

    try:
        found = planning.pilot_figures(load_run(pilot))
    except (ReportError, cmp.CompareError, ValueError) as exc:
        raise AnalysisInputError(f"--pilot {pilot}: {exc}") from None
    rates = ", ".join(f"{f} {100 * r:.1f}%" for f, r in found["rates"].items())
    console.print(
        f"pilot {found['first']}: {rates} of {found['games']:,} finished games",
        highlight=False,
        soft_wrap=True,
    )
    for other, rho in found["pairs"]:
        each = ", ".join(f"{f} {r:.2f}" for f, r in rho.items() if f not in ("mean", "low", "n"))
        console.print(
            f"pilot {found['first']} vs {other}: per-game correlation {rho['mean']:.2f} "
            f"({each}; 95% lower bound {rho['low']:.2f}, {rho['n']:,} pairs)",
            highlight=False,
            soft_wrap=True,
        )
    return found


def _plan_message(text: str) -> str:
    text = text.replace("p0 + delta", "--p0 + --delta")
    text = text.replace("paired_rho", "--paired-rho")
    for name in ("delta", "alpha", "power", "p0"):
        if text.startswith(name):
            text = "--" + text
    return text


COMMANDS = (report, compare, plan)


def register(group: click.Group) -> click.Group:
    """Add ``report``, ``compare`` and ``plan`` to a click group (the ``vsim`` CLI)."""
    for command in COMMANDS:
        group.add_command(command)
    return group


__all__ = ["COMMANDS", "compare", "plan", "register", "report"]
