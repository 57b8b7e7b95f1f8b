"""``vsim tune``: search a variant's parameters for win rates nearest a target (issue 19)."""

from __future__ import annotations

from pathlib import Path

import click

from simulate.cli.app import InputError, cli, game_option
from simulate.cli.run import resumable
from simulate.study.backends import BACKENDS
from simulate.study.errors import RunError


@cli.command("tune")
@click.argument("search_file", metavar="VARIANT.toml", type=click.Path(path_type=Path))
@click.option(
    "--target", default="equal", show_default=True, metavar="equal|SEAT=x,...",
    help="The win rates to approach (among decided games; they sum to 1).",
)  # fmt: skip
@click.option("--budget", type=int, default=4000, show_default=True, help="Games in all.")
@click.option(
    "--first-games", "first", type=int, default=100, show_default=True,
    help="Games of each new candidate; promising ones get more (racing).",
)  # fmt: skip
@click.option(
    "--strategy", "strategies", multiple=True, metavar="[all|SEAT=]SPEC",
    help="The bots, as in vsim run (default: the registry default).",
)  # fmt: skip
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed (>= 0).")
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), required=True,
    help="Output directory (rerun to resume; a larger --budget continues).",
)  # fmt: skip
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: all cores).")
@click.option("--backend", type=click.Choice(BACKENDS), default="loky", show_default=True)
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask or Ray address.")
@click.option("--force", is_flag=True, help="Replace a different search found in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@game_option
@click.pass_context
def tune(
    ctx: click.Context, search_file: Path, out: Path, quiet: bool, force: bool, **opts
) -> None:
    """Search the [search] keys of VARIANT.toml for win rates nearest --target (Optuna TPE,
    common seeds, racing). Writes OUT/best.toml (a ready --variant), OUT/evaluations/*.parquet
    and OUT/report/tune.html. Exit status: 0 done, 2 bad input, 1 stopped (rerun to resume).
    """
    from simulate.analysis import variant_search as report
    from simulate.study.variant_search import Search, run_search

    jobs, backend, scheduler = opts.pop("jobs"), opts.pop("backend"), opts.pop("scheduler")
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be a positive integer, got {jobs}")
    try:
        search = Search.create(search_file, **opts)
    except RunError as exc:
        raise InputError(str(exc)) from None
    found = resumable(
        ctx, out, quiet, "search",
        lambda progress, command: run_search(
            search, out, jobs=jobs, backend=backend, scheduler=scheduler, force=force,
            progress=progress, command=command,
        ),
    )  # fmt: skip
    files = report.write(out)
    b, r, g = found.best, found.reference, found.gain
    click.echo(f"Played {found.played:,} games ({found.games_used:,} in all).")
    figures = (
        f"{b['distance']:.1f} percentage points from the target [{b['distance_low']:.1f}, "
        f"{b['distance_high']:.1f}] over {b['games']} fresh games, against "
        f"{r['distance']:.1f} for the base game on the same games (difference "
        f"{g['diff']:+.1f}, 90% interval [{g['low']:+.1f}, {g['high']:+.1f}])"
    )
    if found.beats_base:
        click.echo(f"Best: {b['params']} at {figures}.")
    else:
        click.echo(
            f"No candidate beat the base game: the search's best, {b['params']}, is at "
            f"{figures}, within noise."
        )
    click.echo(f"Variant: {out / 'best.toml'}; report: {files.html}")
