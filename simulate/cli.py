"""``vsim``: play studies of many games, replay one, list strategies and variants.

    vsim run                                   # 200 games, all cores, default strategies
    vsim run --games 2000 --seed 7 --variant base --variant fort-penalty-2 --out runs/forts
    vsim run --strategy all=random --strategy DS=mypkg.bots:Greedy --trace
    vsim run --backend dask --scheduler tcp://10.0.0.5:8786    # on a Dask cluster
    vsim replay runs/forts --game 12 --variant fort-penalty-2 --trace
    vsim strategies
    vsim variants

Exit status: 0 success; 1 an unexpected failure (or a replay whose final state differs);
2 a bad input, reported in one line before anything is played or written; 3 the run
finished but some games raised (each is a row with ``error`` set and a repro command).

Running on a cluster: start a Dask scheduler and workers on the machines (``dask scheduler``
on one, ``dask worker tcp://HOST:8786 --nthreads 1`` on each, every machine with this package
installed at the same version), then ``vsim run --backend dask --scheduler tcp://HOST:8786``.
Workers return their rows to the machine running ``vsim``, which writes the dataset, so only
that machine needs the output directory. With Ray (``pip install 'vijayanagara-sim[ray]'``):
``ray start --head`` then ``vsim run --backend ray --scheduler auto`` (or ``ray://HOST:10001``).
A variant given by path is sent with its content; an ``events_file`` it names must exist at
the same path on the workers.
"""

from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path
from typing import Any

import click

from simulate import native, runner
from simulate.manifest import PROVISIONAL_NOTE, package_version
from simulate.result import FACTIONS


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class InputError(click.ClickException):
    """A bad input: one line on stderr, exit status 2."""

    exit_code = 2


_NO_ARGS = getattr(click.exceptions, "NoArgsIsHelpError", ())  # click >= 8.2


class VsimGroup(click.Group):
    """A click group whose errors are one line (``Error: ...``) with no traceback."""

    def main(self, args: Any = None, prog_name: str | None = None, *a: Any, **kw: Any) -> Any:
        standalone = kw.pop("standalone_mode", True)
        if not standalone:
            return super().main(args, prog_name, *a, standalone_mode=False, **kw)
        try:
            rv = super().main(args, prog_name or "vsim", *a, standalone_mode=False, **kw)
        except _NO_ARGS as exc:  # bare `vsim`: the help, not an error
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"Error: {_one_line(exc.format_message())}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {_one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=VsimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=package_version(), message=f"vsim %(version)s ({native.summary()})")
def cli() -> None:
    """Monte Carlo balance analysis for Vijayanagara (factions DS, BK, VE)."""


def main(argv: list[str] | None = None) -> None:
    """The ``vsim`` console script."""
    cli.main(args=argv, prog_name="vsim")


# ---------------------------------------------------------------------------------------------
# vsim run


class _Bar(runner.Progress):
    """The rich progress bar: games done, games/s, elapsed time and ETA."""

    def __init__(self, progress: Any) -> None:
        self.progress = progress
        self.task: Any = None
        self.played = 0
        self.t0 = time.perf_counter()

    def start(self, total: int, already: int) -> None:
        self.t0 = time.perf_counter()
        self.task = self.progress.add_task("games", total=total, completed=already, rate="-")

    def advance(self, games: int) -> None:
        self.played += games
        rate = self.played / max(1e-9, time.perf_counter() - self.t0)
        self.progress.update(self.task, advance=games, rate=f"{rate:.1f}")


def _progress(enabled: bool) -> Any:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=False,
    )


@cli.command()
@click.option(
    "--games", "-n", type=int, default=runner.DEFAULT_GAMES, show_default=True,
    help="Games per variant.",
)  # fmt: skip
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed (>= 0).")
@click.option(
    "--jobs", "-j", type=int, default=None,
    help="Worker processes (default: all cores; -1 also means all cores).",
)  # fmt: skip
@click.option(
    "--strategy", "strategy", multiple=True, metavar="[all|DS|BK|VE=]SPEC",
    help="Strategy spec for all factions or one (repeatable); a registered name, "
    "name:key=value,... or package.module:Class. Default: the registry default.",
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
    "--backend", type=click.Choice(runner.BACKENDS), default="loky", show_default=True,
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
    "--decision-timeout", type=float, default=None, metavar="SECONDS",
    help="Fail a game whose strategy takes longer than this on one decision.",
)  # fmt: skip
@click.option(
    "--report/--no-report", default=True, show_default=True,
    help="Write the balance report (DIR/report/report.html) when the run ends.",
)  # fmt: skip
@click.pass_context
def run(
    ctx: click.Context,
    games: int,
    seed: int,
    jobs: int | None,
    strategy: tuple[str, ...],
    variant: tuple[str, ...],
    out: Path | None,
    trace: bool,
    backend: str,
    scheduler: str | None,
    force: bool,
    chunk_size: int | None,
    quiet: bool,
    decision_timeout: float | None,
    report: bool,
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
        jobs = runner.default_jobs()
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be a positive integer (or -1 for all cores), got {jobs}")
    if chunk_size is not None and chunk_size < 1:
        raise InputError(f"--chunk-size must be a positive integer, got {chunk_size}")
    if decision_timeout is not None and not decision_timeout > 0:
        raise InputError(
            f"--decision-timeout must be a positive number of seconds, got {decision_timeout}"
        )
    try:
        study = runner.Study.create(games, seed, strategy, variant, trace)
    except runner.RunError as exc:
        raise InputError(str(exc)) from None
    out = out if out is not None else runner.default_out()
    enabled = not quiet and sys.stderr.isatty()
    command = ["vsim", *sys.argv[1:]] if sys.argv and sys.argv[0] else None
    try:
        with _progress(enabled) as bar:
            outcome = runner.run(
                study,
                out,
                jobs=jobs,
                backend=backend,
                scheduler=scheduler,
                force=force,
                chunk=chunk_size,
                progress=_Bar(bar),
                command=command,
                decision_timeout=decision_timeout,
            )
    except runner.RunError as exc:
        raise InputError(str(exc)) from None
    except Exception as exc:  # a worker died, the disk filled up, a bug: keep what is done
        traceback.print_exc()
        click.echo(
            f"Error: the run stopped ({type(exc).__name__}: {_one_line(str(exc))[:200]}); "
            f"finished games are kept in {out}: rerun the same command to resume",
            err=True,
        )
        ctx.exit(1)
    _print_report(console, outcome, study)
    if report:
        _write_report(out)
    ctx.exit(outcome.exit_code)


def _write_report(out: Path) -> None:
    """The balance report of the run just made; a failure here never loses the dataset."""
    from simulate.report import ReportError, build_report

    try:
        files = build_report(out, None, (), 0.95)
    except (ReportError, OSError, ValueError) as exc:
        click.echo(
            f"Warning: no report written ({_one_line(str(exc))}); try `vsim report {out}`", err=True
        )
        return
    click.echo(f"Report: {files.html}")


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


def _print_report(console: Any, report: runner.RunReport, study: runner.Study) -> None:
    from rich.table import Table

    table = Table(title=f"run {report.run_id}: win rates (95% Wilson interval)")
    table.add_column("variant")
    table.add_column("faction")
    table.add_column("games", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("mean VP", justify="right")
    table.add_column("ties", justify="right")
    table.add_column("failures", justify="right")
    for s in report.summary:
        for i, f in enumerate(FACTIONS):
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
                end_section=i == len(FACTIONS) - 1,
            )
    console.print(table)
    rate = report.played / report.seconds if report.seconds > 0 else 0.0
    resumed = f"; {report.already} were already there" if report.already else ""
    console.print(
        f"Played {report.played} games in {report.seconds:.1f}s ({rate:.1f} games/s, "
        f"{report.backend}){resumed}.",
        highlight=False,
    )
    tables = "games/, turns/" + (", actions/" if study.trace else "")
    console.print(
        f"Data: {report.out}/ ({tables} as Parquet; manifest.json)", highlight=False, soft_wrap=True
    )
    console.print(f"Note: {PROVISIONAL_NOTE}", highlight=False, soft_wrap=True)
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


@cli.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--game", "-g", type=int, required=True, help="The game index to replay.")
@click.option("--variant", default=None, help="The variant (needed if the run has several).")
@click.option("--trace", is_flag=True, help="Print every decision, not only each card.")
@click.pass_context
def replay(
    ctx: click.Context, directory: Path, game: int, variant: str | None, trace: bool
) -> None:
    """Replay one game of a run from its seed and check its final state digest."""
    if not directory.is_dir():
        raise InputError(f"{directory} is not a directory")
    if game < 0:
        raise InputError(f"--game must be a non-negative integer, got {game}")
    try:
        outcome = runner.replay(directory, game, variant, trace=True)
    except runner.RunError as exc:
        raise InputError(str(exc)) from None
    row = outcome.row
    strategies = ", ".join(f"{f}={row[f'strategy_{f}']}" for f in FACTIONS)
    click.echo(f"game {game} of variant {row['variant']}: seed {row['seed']}; {strategies}")
    if outcome.error is not None:
        traceback.print_exception(outcome.error)
        if row["error"] is not None:
            recorded = _one_line(row["error"]).replace("<DIR>", str(directory))
            click.echo(f"reproduced the recorded failure: {recorded}")
            ctx.exit(3)
        click.echo(
            f"Error: the game raised on replay but its record has no error: "
            f"{type(outcome.error).__name__}: {_one_line(str(outcome.error))}",
            err=True,
        )
        ctx.exit(1)
    result = outcome.result
    if trace and result.actions is not None:
        for a in result.actions:
            click.echo(f"{a.turn:>3} {a.faction:<2} {a.kind:<24} {a.option}")
    else:
        for t in result.turns:
            what = t.action + (f" {t.command}" if t.command else "")
            what += f" + {t.decree}" if t.decree else ""
            click.echo(
                f"{t.turn:>3} {t.card_id:<8} {t.card_kind:<10} {t.faction:<2} {what:<36} "
                f"vp {t.vp:>3} res {t.resources:>3}"
            )
    vp = ", ".join(f"{f} {result.vp.get(f)}" for f in FACTIONS)
    click.echo(f"winner {result.winner or 'none (tie)'}; VP {vp}; tiebreak {result.tiebreak}")
    if row["error"] is not None:
        click.echo(
            f"Error: the record has an error but the game played through: {_one_line(row['error'])}",
            err=True,
        )
        ctx.exit(1)
    if not outcome.matches:
        click.echo(
            f"Error: final state digest {result.state_digest} differs from the record's "
            f"{row['state_digest']}",
            err=True,
        )
        ctx.exit(1)
    click.echo(f"final state digest matches the record ({result.state_digest})")


# ---------------------------------------------------------------------------------------------
# vsim strategies / vsim variants


def _doc_line(obj: Any) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else ""


@cli.command()
def strategies() -> None:
    """List the registered strategies, one line each."""
    from strategies import registry

    for name, target in registry.known().items():
        try:
            line = _doc_line(registry.resolve(name))
        except Exception as exc:
            line = f"(cannot load: {_one_line(str(exc))})"
        default = " (default)" if name == registry.DEFAULT else ""
        click.echo(f"{name:<16} {line}{default}  [{target}]")
    click.echo("Any package.module:Class implementing the Strategy protocol works too.")


@cli.command()
def variants() -> None:
    """List the built-in rule variants, one line each."""
    from simulate.rules.datafiles import DataError
    from simulate.variants import VARIANTS_DIR, list_variants

    try:
        found = list_variants()
    except DataError as exc:
        raise InputError(str(exc)) from None
    for v in found:
        click.echo(f"{v.name:<20} {v.description}")
    click.echo(f"Or give the path of a .toml file (format: {VARIANTS_DIR / 'base.toml'}).")


@cli.command()
@click.option("--games", "-n", type=int, default=1000, show_default=True, help="Games to play.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed (>= 0).")
@click.option(
    "--strategy", "strategy", multiple=True, default=("random", "heuristic"), show_default=True,
    help="Strategies to alternate between, game by game (repeatable).",
)  # fmt: skip
@click.option("--variant", default=None, help="Variant name or path (default: base).")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: all cores).")
@click.pass_context
def soak(
    ctx: click.Context,
    games: int,
    seed: int,
    strategy: tuple[str, ...],
    variant: str | None,
    jobs: int | None,
) -> None:
    """Play many games checking every invariant after every action; report each failure
    with a repro command. Exit status 0 if none failed, 3 otherwise."""
    from simulate.rules.datafiles import DataError
    from simulate.rules.ruleset import load_rules
    from simulate.soak import soak as run_soak
    from strategies.registry import UnknownStrategy, make

    if games < 1:
        raise InputError(f"--games must be a positive integer, got {games}")
    if seed < 0:
        raise InputError(f"--seed must be a non-negative integer, got {seed}")
    try:
        for spec in strategy:
            make(spec)
        load_rules(variant)
    except (UnknownStrategy, ValueError, DataError) as exc:
        raise InputError(_one_line(str(exc))) from None
    failures = []
    done = 0
    start = time.perf_counter()
    with _progress(sys.stderr.isatty()) as bar:
        tracker = _Bar(bar)
        tracker.start(games, 0)
        for failure in run_soak(
            games, seed, tuple(strategy), variant, jobs or 0, progress=tracker.advance
        ):
            failures.append(failure)
            click.echo(
                f"FAIL game {failure.game_index} ({failure.strategy}): {failure.error}", err=True
            )
            click.echo(f"     repro: {failure.repro}", err=True)
        done = games
    rate = done / max(1e-9, time.perf_counter() - start)
    click.echo(
        f"soak: {done} games ({', '.join(strategy)}), {len(failures)} failures, {rate:.0f} games/s"
    )
    ctx.exit(3 if failures else 0)


def _register_analysis() -> None:
    from simulate.analysis_cli import register

    register(cli)


_register_analysis()


if __name__ == "__main__":
    main()
