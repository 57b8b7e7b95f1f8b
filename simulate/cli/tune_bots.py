"""``vsim tune-bots``: tune each seat of the game's tunable policy by self-play (issue 18)."""

from __future__ import annotations

from pathlib import Path

import click

from simulate.cli.app import InputError, cli, game_option
from simulate.cli.run import resumable
from simulate.study.backends import BACKENDS
from simulate.study.errors import RunError


@cli.command("tune-bots")
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), required=True,
    help="Output directory (rerun the same command to resume; more --rounds continue).",
)  # fmt: skip
@click.option("--rounds", type=int, default=3, show_default=True, help="Rounds of best responses.")
@click.option(
    "--generations", type=int, default=4, show_default=True, help="CMA-ES generations per phase."
)
@click.option(
    "--popsize", type=int, default=10, show_default=True, help="CMA-ES population (>= 4)."
)
@click.option(
    "--games", "-n", type=int, default=150, show_default=True,
    help="Games per candidate and pool lineup (common seeds within a phase).",
)  # fmt: skip
@click.option(
    "--validation-games", type=int, default=300, show_default=True,
    help="Games per pool lineup on fresh seeds before a candidate replaces the incumbent (0: none).",
)  # fmt: skip
@click.option(
    "--pool", multiple=True, metavar="SPEC",
    help="A fixed opponent lineup (repeatable; default the tunable's base bot, Vijayanagara's "
    "heuristic-v1), besides the current and "
    "the previous field; 'none': the fields alone.",
)  # fmt: skip
@click.option(
    "--faction", "factions", multiple=True, metavar="SEAT",
    help="Tune only these seats (repeatable; default every seat).",
)  # fmt: skip
@click.option(
    "--vp-weight", type=float, default=0.01, show_default=True,
    help="Share of the mean score margin added to the win rate (the tie-breaking signal).",
)  # fmt: skip
@click.option("--variant", default=None, metavar="NAME|PATH", help="Tune for a rule variant.")
@click.option(
    "--space", type=click.Path(path_type=Path), default=None,
    help="Search space file (default the tunable's: strategies/vijayanagara/heuristic/tuning.toml).",
)  # fmt: skip
@click.option(
    "--start", type=click.Path(path_type=Path), default=None,
    help="Weights file whose [seat.F] values start the search (default: what each seat of "
    "--base plays, all its layers; over heuristic-v1 the shipped tuned.toml; heuristic-v1: "
    "the hand-set weights); for a game whose heuristic is one bot for every seat, its "
    "weights file.",
)  # fmt: skip
@click.option(
    "--base", default=None, show_default="heuristic-v1",
    help="The bot each seat's values are laid over (Vijayanagara: heuristic-v1, heuristic or "
    "heuristic-fast): the hand-set weights alone, the default "
    "lineup with its learned choice and lookaheads (tune against the current field), or the "
    "fast tier (tune it for its own field).",
)  # fmt: skip
@click.option(
    "--probe-games", type=int, default=20, show_default=True,
    help="Before each search, games showing which values change no game at either end of "
    "their range: those are not searched (0: search every value).",
)  # fmt: skip
@click.option(
    "--ladder-games", type=int, default=400, show_default=True,
    help="Then measure the tuned lineup's ladder with this many games per seat and challenger (0: skip).",
)  # fmt: skip
@click.option(
    "--challenger", "challengers", multiple=True, metavar="SPEC",
    help="Challengers of the final ladder (repeatable; default greedy, the base bot, random).",
)  # fmt: skip
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed (>= 0).")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: all cores).")
@click.option("--backend", type=click.Choice(BACKENDS), default="loky", show_default=True)
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask or Ray address.")
@click.option("--force", is_flag=True, help="Replace a different tuning found in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@game_option
@click.pass_context
def tune_bots(ctx: click.Context, out: Path, quiet: bool, force: bool, **opts) -> None:
    """Tune each seat's values of the game's policy by self-play against a pool (CMA-ES).

    Writes OUT/weights.toml (play it with --strategy all=BASE:weights=OUT/weights.toml, BASE
    as --base), OUT/evaluations/*.parquet, OUT/tune.json and OUT/report/tune-bots.html. Exit
    status: 0 done, 2 bad input, 1 stopped (rerun the same command to resume).
    """
    from simulate.analysis import bot_tuning as report
    from simulate.study.bot_tuning import Tuning
    from simulate.study.bot_tuning import tune_bots as run_tuning

    jobs, backend, scheduler = opts.pop("jobs"), opts.pop("backend"), opts.pop("scheduler")
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be a positive integer, got {jobs}")
    pool = opts["pool"] or None
    if pool and "none" in pool and len(pool) > 1:
        raise InputError("--pool none (the fields alone) takes no other --pool")
    opts["pool"] = () if pool == ("none",) else pool
    opts["factions"] = opts["factions"] or None
    opts["challengers"] = opts["challengers"] or None
    try:
        tuning = Tuning.create(**opts)
    except RunError as exc:
        raise InputError(str(exc)) from None
    done = resumable(
        ctx, out, quiet, "tuning",
        lambda progress, command: run_tuning(
            tuning, out, jobs=jobs, backend=backend, scheduler=scheduler, force=force,
            progress=progress, command=command,
        ),
    )  # fmt: skip
    files = report.write(out)
    click.echo(
        f"Played {done.played:,} games in {done.seconds:.0f}s "
        f"({done.replayed:,} replayed from the log)."
    )
    for p in done.phases:
        change = "accepted" if p.accepted else "kept the incumbent"
        click.echo(
            f"round {p.round + 1} {p.faction}: score {100 * p.incumbent:.1f} -> best "
            f"{100 * p.best:.1f}, {change}"
        )
        if p.inert:
            click.echo(
                f"  not searched (they changed none of {tuning.probe_games} probe games): "
                + ", ".join(p.inert)
            )
    click.echo(
        f"Weights: {out / 'weights.toml'} (play them with --strategy "
        f"all={tuning.base}:weights={out / 'weights.toml'}); report: {files.html}"
    )
