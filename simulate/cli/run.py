"""``vsim run``: a study into an output folder, with a progress bar and a summary."""

from __future__ import annotations

import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import click

from simulate.analysis.summary import summarize
from simulate.cli.app import InputError, cli, game_option
from simulate.cli.app import one_line as _one_line
from simulate.games import get as get_game
from simulate.study import records
from simulate.study import runs as runner
from simulate.study.backends import BACKENDS, default_jobs
from simulate.study.dataset import cell_label
from simulate.study.errors import RunError
from simulate.study.manifest import provisional_note
from simulate.study.specs import DEFAULT_GAMES, Study


class Bar(runner.Progress):
    """Progress of a run: a rich bar on a terminal, else (piped, nohup, CI) a plain line on
    stderr every ``every`` seconds. Speed and ETA count only the games this invocation played,
    so a resumed run's ETA is right from the start. Only the first start of a command can be
    a resume: the later ones (the looks of ``--until-clear``) extend what it played. With a
    ``budget`` (``--until-clear``), one bar counts toward every game the study may play, so
    its ETA is the longest the study can still take."""

    def __init__(self, progress: Any, every: float = 10.0, budget: int | None = None) -> None:
        self.progress = progress
        self.budget = budget  # --until-clear: every game it may play, so the ETA is its most
        self.task: Any = None
        self.starts = 0
        self.played = self.total = self.already = 0
        self.t0 = self.last = time.perf_counter()
        self.every = every

    def start(self, total: int, already: int) -> None:
        if self.starts == 0 or not self.budget:
            self.t0 = self.last = time.perf_counter()
            self.played = 0
        else:  # a later look: one bar over the whole budget, its speed over every look
            already = already - self.played
        if self.budget:
            total = max(total, self.budget)
        self.total, self.already = total, already
        self.starts += 1
        resumed = already and self.starts == 1
        label = f"games ({already} already there)" if resumed else "games"
        if self.task is not None:
            self.progress.update(self.task, total=total, completed=already + self.played)
        else:
            self.task = self.progress.add_task(
                label, total=total, completed=already, rate="-", eta="-"
            )
        if self.lines and resumed:
            click.echo(f"resuming: {already} of {total} games already there", err=True)

    @property
    def lines(self) -> bool:
        return self.progress.disable and self.every > 0

    def advance(self, games: int) -> None:
        self.played += games
        now = time.perf_counter()
        rate = self.played / max(1e-9, now - self.t0)
        left = max(0, self.total - self.already - self.played)
        eta = _clock(left / rate) if rate > 0 else "-"
        self.progress.update(self.task, advance=games, rate=f"{rate:.1f}", eta=eta)
        if self.lines and (now - self.last >= self.every or left == 0):
            self.last = now
            done = self.already + self.played
            click.echo(
                f"progress: {done}/{self.total} games ({100 * done / max(1, self.total):.0f}%), "
                f"{rate:.1f} games/s, ETA {eta}",
                err=True,
            )


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def resumable(
    ctx: click.Context, out: Path, quiet: bool, what: str, call: Any, kept: str = "evaluations"
) -> Any:
    """``call(progress, command)`` under a progress bar, for a command that resumes from its
    ``out`` folder: a bad input is one line (exit 2); an interrupt (130) or a failure (1)
    says so in one line and keeps the finished ``kept`` (evaluations, games) for a rerun."""
    command = ["vsim", *sys.argv[1:]] if sys.argv and sys.argv[0] else None
    try:
        with progress_bar(not quiet and sys.stderr.isatty()) as bar:
            return call(Bar(bar, 0.0 if quiet else 10.0), command)
    except RunError as exc:
        raise InputError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(f"Interrupted: rerun the same command to resume the {what} in {out}.", err=True)
        ctx.exit(130)
    except Exception as exc:  # keep what is done
        traceback.print_exc()
        click.echo(
            f"Error: the {what} stopped ({type(exc).__name__}: {_one_line(str(exc))[:200]}); "
            f"finished {kept} are kept in {out}: rerun the same command to resume",
            err=True,
        )
        ctx.exit(1)


def progress_bar(enabled: bool) -> Any:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeElapsedColumn(),
        TextColumn("ETA {task.fields[eta]}"),
        console=Console(stderr=True),
        disable=not enabled,
        transient=False,
    )


@cli.command()
@click.option(
    "--games", "-n", type=int, default=DEFAULT_GAMES, show_default=True,
    help="Games per variant.",
)  # fmt: skip
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed (>= 0).")
@click.option(
    "--jobs", "-j", type=int, default=None,
    help="Worker processes (default: all cores; -1 also means all cores).",
)  # fmt: skip
@click.option(
    "--strategy", "strategy", multiple=True, metavar="[all|SEAT=]SPEC",
    help="Strategy spec for all seats or one (repeatable); a registered name, "
    "name:key=value,... or package.module:Class. Default: the registry default.",
)  # fmt: skip
@click.option(
    "--lineup", "lineup", multiple=True, metavar="NAME=[all|SEAT=]SPEC",
    help="Play every variant under several lineups on the same seeds (repeatable; the values "
    "of one NAME build its lineup on top of --strategy). The report then compares variants "
    "under each lineup side by side.",
)  # fmt: skip
@click.option(
    "--set", "settings", multiple=True, metavar="KEY=VALUE",
    help="Change one key of every variant without a file, e.g. combat.fort_penalty=2 "
    "(repeatable; keys as in simulate/vijayanagara/data/variants/base.toml).",
)  # fmt: skip
@click.option(
    "--sweep", default=None, metavar="KEY=V1,V2,...",
    help="One variant per value of KEY (on top of the first --variant), on the same seeds; "
    "the report plots each Faction's win rate against the value.",
)  # fmt: skip
@click.option(
    "--variant", "variant", multiple=True, metavar="NAME|PATH",
    help="Rule variant (repeatable); every variant plays the same game seeds. Default: base.",
)  # fmt: skip
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), default=None,
    help="Output directory (default: runs/<timestamp>).",
)  # fmt: skip
@click.option("--trace", is_flag=True, help="Also record every decision (the actions table).")
@click.option(
    "--backend", type=click.Choice(BACKENDS), default="loky", show_default=True,
    help="Where games run: local processes, a Dask cluster or a Ray cluster.",
)  # fmt: skip
@click.option(
    "--scheduler", default=None, metavar="ADDRESS",
    help="Dask scheduler (tcp://host:8786) or Ray address; default: a local cluster.",
)  # fmt: skip
@click.option("--force", is_flag=True, help="Replace a different run found in --out.")
@click.option(
    "--chunk-size", type=int, default=None,
    help="Games per work unit and shard (default: automatic).",
)  # fmt: skip
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option(
    "--json", "as_json", is_flag=True,
    help="Print the summary as one JSON object on stdout (for scripts) instead of a table.",
)  # fmt: skip
@click.option(
    "--decision-timeout", type=float, default=None, metavar="SECONDS",
    help="Fail a game whose strategy takes longer than this on one decision.",
)  # fmt: skip
@click.option(
    "--until-clear", is_flag=True,
    help="Play --games per variant at a time on common seeds until every outcome of every "
    "comparison (each variant against the first) is decided (a change, or no change larger "
    "than --delta), or --max-games per variant are played.",
)  # fmt: skip
@click.option(
    "--delta", type=float, default=0.03, show_default=True,
    help="With --until-clear: a difference inside +-delta counts as no change.",
)  # fmt: skip
@click.option(
    "--alpha", type=float, default=0.05, show_default=True,
    help="With --until-clear: chance of a false 'change' in a comparison, however often it looks.",
)  # fmt: skip
@click.option(
    "--max-games", type=int, default=20000, show_default=True,
    help="With --until-clear: the budget, games per variant; it stops there, decided or not.",
)  # fmt: skip
@click.option(
    "--stop-at-first-change", is_flag=True,
    help="With --until-clear: also stop as soon as any outcome is a change.",
)  # fmt: skip
@click.option(
    "--report/--no-report", default=True, show_default=True,
    help="Write the balance report (DIR/report/report.html) when the run ends.",
)  # fmt: skip
@game_option
@click.pass_context
def run(
    ctx: click.Context,
    games: int,
    seed: int,
    jobs: int | None,
    strategy: tuple[str, ...],
    lineup: tuple[str, ...],
    settings: tuple[str, ...],
    sweep: str | None,
    variant: tuple[str, ...],
    out: Path | None,
    trace: bool,
    backend: str,
    scheduler: str | None,
    force: bool,
    chunk_size: int | None,
    quiet: bool,
    as_json: bool,
    decision_timeout: float | None,
    until_clear: bool,
    delta: float,
    alpha: float,
    max_games: int,
    stop_at_first_change: bool,
    report: bool,
    game: str,
) -> None:
    """Play a study of games in parallel and write a Parquet dataset.

    Game k's seed comes from (--seed, k) only, so the same command gives the same tables
    whatever --jobs or --backend. Rerunning it into the same --out plays only the games
    that are missing (resume); a directory holding a different run is refused unless
    --force. Exit status: 0 done, 2 bad input, 3 some games raised (rows with `error`).

    On a cluster: `--backend dask --scheduler tcp://HOST:8786` (workers started with
    `dask worker tcp://HOST:8786 --nthreads 1`, this package installed on each), or
    `--backend ray --scheduler auto` on a Ray cluster. Results come back to this machine,
    which writes the dataset.
    """
    console = _console()
    if jobs is not None and jobs == -1:
        jobs = default_jobs()
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be a positive integer (or -1 for all cores), got {jobs}")
    if chunk_size is not None and chunk_size < 1:
        raise InputError(f"--chunk-size must be a positive integer, got {chunk_size}")
    if decision_timeout is not None and not decision_timeout > 0:
        raise InputError(
            f"--decision-timeout must be a positive number of seconds, got {decision_timeout}"
        )
    try:
        study = Study.create(
            games, seed, strategy, variant, trace, lineup, settings, sweep, game=game
        )
    except RunError as exc:
        raise InputError(str(exc)) from None
    out = out if out is not None else runner.default_out()
    enabled = not quiet and sys.stderr.isatty()
    every = 0.0 if quiet else 10.0
    command = ["vsim", *sys.argv[1:]] if sys.argv and sys.argv[0] else None
    rule = _rule(until_clear, delta, alpha, stop_at_first_change, len(study.variants), study.seats)
    if rule is not None and max_games < study.games:
        raise InputError(f"--max-games ({max_games}) must be at least --games ({study.games})")
    options = dict(
        jobs=jobs, backend=backend, scheduler=scheduler, force=force, chunk=chunk_size,
        command=command, decision_timeout=decision_timeout,
    )  # fmt: skip
    looks: list = []
    try:
        with progress_bar(enabled) as bar:
            if rule is None:
                outcome = runner.run(study, out, progress=Bar(bar, every), **options)
            else:
                from simulate.study.sequential import run_until_clear

                if not as_json:
                    _print_budget(study, max_games)
                outcome, looks = run_until_clear(
                    study, out, rule, max_games, progress=Bar(bar, every, budget=max_games * len(study.variants)),
                    **options, on_look=None if as_json else _Looks(study, max_games),
                )  # fmt: skip
    except RunError as exc:
        raise InputError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(
            f"Interrupted: the finished games are kept in {out}; rerun the same command to "
            "resume (it plays only the missing games).",
            err=True,
        )
        ctx.exit(130)
    except Exception as exc:  # a worker died, the disk filled up, a bug: keep what is done
        traceback.print_exc()
        click.echo(
            f"Error: the run stopped ({type(exc).__name__}: {_one_line(str(exc))[:200]}); "
            f"finished games are kept in {out}: rerun the same command to resume",
            err=True,
        )
        ctx.exit(1)
    if as_json:
        summary = _summary_json(outcome, study)
        if looks:
            summary["sequential"] = [lk.to_json() for lk in looks]
        click.echo(json.dumps(summary, allow_nan=False))
    else:
        _print_report(console, outcome, study)
        if looks:
            from simulate.analysis.verdict import sequential_text

            click.echo(_stop_words(out))
        for lk in looks:
            click.echo(f"{lk.b} against {lk.a} ({lk.n:,} paired games):")
            for t in lk.factions:
                click.echo(f"  {sequential_text(t.__dict__, rule.delta)}")
    if report:
        _write_report(out, quiet=as_json)
    ctx.exit(outcome.exit_code)


def _rule(
    until_clear: bool,
    delta: float,
    alpha: float,
    first_change: bool,
    variants: int,
    seats: tuple[str, ...] | None = None,
) -> Any:
    """The sequential test's rule of ``--until-clear`` (None without it), checked."""
    if not until_clear:
        if first_change:
            raise InputError("--stop-at-first-change needs --until-clear")
        return None
    from simulate.analysis.sequential import Rule

    try:
        return Rule(delta, alpha, max(1, variants - 1), first_change, seats=seats)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def _stop_words(out: Path) -> str:
    """Why the sequential study stopped, as its manifest records it."""
    from simulate.study import manifest as manifest_mod

    entry = (manifest_mod.read(out) or {}).get("sequential") or {}
    return (
        f"Sequential study stopped at {entry.get('games_used', 0):,} games per variant "
        f"(budget {entry.get('rule', {}).get('max_games', 0):,}): {entry.get('reason', '?')}."
    )


def _print_budget(study: Study, max_games: int) -> None:
    """What ``--until-clear`` may cost: its budget in games, before the first look."""
    variants = len(study.variants)
    click.echo(
        f"--until-clear: looks of {study.games:,} games per variant, at most {max_games:,} per "
        f"variant ({variants * max_games:,} games in all); the time the budget may take "
        "follows the first look.",
        err=True,
    )


class _Looks:
    """One line per look of ``--until-clear`` on stderr; after the first, the most time the
    rest of the budget may take at the speed seen."""

    def __init__(self, study: Study, max_games: int) -> None:
        self.variants, self.max_games = len(study.variants), max_games
        self.t0 = time.perf_counter()
        self.first: int | None = None

    def __call__(self, games: int, looks: list) -> None:
        decided = sum(t.decision != "open" for lk in looks for t in lk.factions)
        total = sum(len(lk.factions) for lk in looks)
        text = f"look at {games:,} games per variant: {decided} of {total} outcomes decided"
        if self.first is None:
            self.first = games
            rate = games * self.variants / max(1e-9, time.perf_counter() - self.t0)
            left = (self.max_games - games) * self.variants
            if left > 0:
                text += (
                    f"; at {rate:.1f} games/s the rest of the budget ({left:,} games) takes "
                    f"at most {_minutes(left / rate)}"
                )
        click.echo(text, err=True)


def _minutes(seconds: float) -> str:
    """A duration in words: "about 12 minutes", "about 2.5 hours"."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} seconds"
    if seconds < 5400:
        return f"about {round(seconds / 60)} minutes"
    return f"about {seconds / 3600:.1f} hours"


def _summary_json(report: runner.RunReport, study: Study) -> dict[str, Any]:
    """The run's summary for scripts: where its data is, and per variant (x lineup) and
    Faction the wins, win rate with its 95% Wilson interval and mean VP."""
    labels = [cell_label(v.name, lineup) for _, v, lineup, _ in study.cells()]

    def num(x: float | None) -> float | None:
        return None if x is None or x != x else round(x, 6)

    return {
        "run_id": report.run_id,
        "out": str(report.out),
        "played": report.played,
        "already": report.already,
        "failures": len(report.failures),
        "variants": [
            {
                "variant": s.variant,
                "games": s.games,
                "failures": s.failures,
                "ties": s.ties,
                "factions": {
                    f: {
                        "wins": fs.wins,
                        "win_rate": num(fs.win_rate),
                        "low": num(fs.low),
                        "high": num(fs.high),
                        "mean_vp": num(fs.mean_vp),
                    }
                    for f, fs in s.factions.items()
                },
            }
            for s in summarize(
                report.outcomes, labels, records.layout(get_game(study.game), study.seats)
            )
        ],
    }


def _write_report(out: Path, quiet: bool = False) -> None:
    """The balance report of the run just made; a failure here never loses the dataset."""
    from simulate.analysis.report import ReportError, build_report

    try:
        files = build_report(out, None, (), 0.95)
    except (ReportError, OSError, ValueError) as exc:
        click.echo(
            f"Warning: no report written ({_one_line(str(exc))}); try `vsim report {out}`", err=True
        )
        return
    click.echo(f"Report: {files.html}", err=quiet)


def _console() -> Any:
    """stdout; 120 columns wide when it is not a terminal (logs, pipes) unless COLUMNS says."""
    import os

    from rich.console import Console

    if sys.stdout.isatty() or "COLUMNS" in os.environ:
        return Console()
    return Console(width=120)


def _pct(x: float) -> str:
    return "-" if x != x else f"{100 * x:.1f}%"


def _interval(lo: float, hi: float) -> str:
    return "-" if lo != lo else f"{100 * lo:.1f}-{100 * hi:.1f}%"


def _print_report(console: Any, report: runner.RunReport, study: Study) -> None:
    from rich.table import Table

    table = Table(title=f"run {report.run_id}: win rates (95% Wilson interval)")
    table.add_column("variant")
    the_game = get_game(study.game)
    table.add_column(the_game.seat_word)
    table.add_column("games", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column(f"mean {the_game.score_label}", justify="right")
    table.add_column("ties", justify="right")
    table.add_column("failures", justify="right")
    labels = [cell_label(v.name, lineup) for _, v, lineup, _ in study.cells()]
    layout = records.layout(the_game, study.seats)
    for s in summarize(report.outcomes, labels, layout):
        for i, f in enumerate(study.seats):
            fs = s.factions[f]
            first = i == 0
            table.add_row(
                s.variant if first else "",
                f,
                str(s.games - s.failures) if first else "",
                _pct(fs.win_rate),
                _interval(fs.low, fs.high),
                "-" if fs.mean_vp is None else f"{fs.mean_vp:.2f}",
                str(s.ties) if first else "",
                str(s.failures) if first else "",
                end_section=i == len(study.seats) - 1,
            )
    console.print(table)
    rate = report.played / report.seconds if report.seconds > 0 else 0.0
    resumed = f"; {report.already} were already there" if report.already else ""
    console.print(
        f"Played {report.played} games in {report.seconds:.1f}s ({rate:.1f} games/s, "
        f"{report.backend}){resumed}.",
        highlight=False,
        soft_wrap=True,  # one line whatever the width: scripts and tests grep it
    )
    tables = "games/, turns/" + (", actions/" if study.trace else "")
    console.print(
        f"Data: {report.out}/ ({tables} as Parquet; manifest.json)", highlight=False, soft_wrap=True
    )
    note = provisional_note(get_game(study.game))
    if note:
        console.print(f"Note: {note}", highlight=False, soft_wrap=True)
    if report.failures:
        names = ", ".join(f"{v}#{k}" for v, k, _ in report.failures[:20])
        more = f" and {len(report.failures) - 20} more" if len(report.failures) > 20 else ""
        console.print(
            f"[bold red]{len(report.failures)} game(s) failed:[/] {names}{more}", soft_wrap=True
        )
        for _v, _k, error in report.failures[:5]:
            console.print(
                "  " + error.replace("<DIR>", str(report.out)), highlight=False, soft_wrap=True
            )


# ---------------------------------------------------------------------------------------------
# vsim replay
