"""``vsim strength``: the same study under lineups of growing strength, and where it converges."""

from __future__ import annotations

from pathlib import Path

import click

from simulate.cli.app import InputError, cli, game_option
from simulate.cli.run import resumable
from simulate.study.backends import BACKENDS, default_jobs
from simulate.study.errors import RunError
from simulate.study.strength import DEFAULT_STRENGTH_GAMES, Strength, play_strength


@cli.command()
@click.option(
    "--rung", "rungs", multiple=True, metavar="NAME=[all|SEAT=]SPEC",
    help="A lineup of the study, weakest first (repeatable; the values of one NAME build its "
    "lineup as --strategy does). Default: heuristic-fast, heuristic, then mcts in every seat "
    "at 1x, 2x and 4x its default budget (mcts-1x, mcts-2x, mcts-4x).",
)  # fmt: skip
@click.option(
    "--games", "-n", "games", multiple=True, metavar="N|NAME=N",
    help=f"Games per variant at every rung (default {DEFAULT_STRENGTH_GAMES}); NAME=N for one "
    "rung, e.g. mcts-4x=40.",
)  # fmt: skip
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed (>= 0).")
@click.option(
    "--variant", "variants", multiple=True, metavar="NAME|PATH",
    help="Rule variant (repeatable; default: base); every variant plays the same seeds.",
)  # fmt: skip
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: all cores).")
@click.option("--backend", type=click.Choice(BACKENDS), default="loky", show_default=True)
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask or Ray address.")
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), required=True,
    help="Output directory (rerun the same command into it to resume); a `vsim run` folder "
    "is extended: its games become those of the rung that plays its bots; a study given "
    "more --rung plays only the new rungs.",
)  # fmt: skip
@click.option("--force", is_flag=True, help="Replace a different run found in --out.")
@click.option(
    "--confidence", type=float, default=0.95, show_default=True,
    help="Confidence level of every interval; the tests' alpha is 1 - confidence.",
)  # fmt: skip
@click.option(
    "--margin", type=float, default=0.03, show_default=True,
    help="Converged when a Faction's change between the two strongest rungs is within this.",
)  # fmt: skip
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@game_option
@click.pass_context
def strength(
    ctx: click.Context,
    rungs: tuple[str, ...],
    games: tuple[str, ...],
    seed: int,
    variants: tuple[str, ...],
    jobs: int | None,
    backend: str,
    scheduler: str | None,
    out: Path,
    force: bool,
    confidence: float,
    margin: float,
    quiet: bool,
    game: str,
) -> None:
    """Play the same study with every seat at growing strength, and say where it converges.

    Each rung is a lineup; all rungs and variants play the same seeds, so every answer is
    paired across rungs. Writes DIR/strength.json and DIR/report/strength.html: each
    seat's win rate and score margin per rung, whether the two strongest rungs agree
    (converged, or still moving), and each variant's effect at every rung. Exit status: 0
    done, 2 bad input, 3 some games raised, 1 stopped and 130 interrupted (rerun to resume).
    """
    from simulate.analysis.run import ReportError
    from simulate.analysis.strength_report import write

    if jobs is not None and jobs == -1:
        jobs = default_jobs()
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be a positive integer (or -1 for all cores), got {jobs}")
    if not 0.0 < confidence < 1.0:
        raise InputError(f"--confidence must be in (0, 1), got {confidence}")
    try:
        spec = Strength.create(rungs, games, seed, variants, game)
    except RunError as exc:
        raise InputError(str(exc)) from None
    parity = 1 / len(spec.study.seats)
    if not 0.0 < margin < parity:
        raise InputError(f"--margin must be in (0, 1/{len(spec.study.seats)}), got {margin}")
    done = resumable(
        ctx, out, quiet, "strength study",
        lambda progress, command: play_strength(
            spec, out, jobs=jobs, backend=backend, scheduler=scheduler, force=force,
            progress=progress, command=command,
        ),
        kept="games",
    )  # fmt: skip
    try:
        files = write(out, confidence, margin)
    except ReportError as exc:
        raise InputError(str(exc)) from None
    rate = done.played / done.seconds if done.seconds > 0 else 0.0
    click.echo(f"Played {done.played} games in {done.seconds:.1f}s ({rate:.1f} games/s).")
    _echo_curve(files.payload)
    click.echo(f"Strength curve: {files.json}; report: {files.html}")
    ctx.exit(3 if done.failures else 0)


def _echo_curve(payload: dict) -> None:
    """Per variant, a line per rung (win rates, games/s), then the convergence verdict."""
    speed = {r["name"]: r["games_per_s"] for r in payload["rungs"]}
    for v in payload["variants"]:
        click.echo(f"{v}:")
        for r in payload["rungs"]:
            mine = {
                x["faction"]: x
                for x in payload["records"]
                if x["variant"] == v and x["rung"] == r["name"]
            }
            rates = "  ".join(
                f"{f} {'–' if x['win'] is None else format(100 * x['win'], '5.1f')}%"
                for f, x in mine.items()
            )
            per_s = speed[r["name"]]
            played = next(iter(mine.values()))["games"] if mine else 0
            click.echo(
                f"  {r['name']:<16} {played:>5} games  {rates}  "
                f"({'–' if per_s is None else format(per_s, '.3g')} games/s per core)"
            )
        for c in payload["convergence"]:
            if c["variant"] == v:
                click.echo(f"  {c['from']} -> {c['to']}: {c['text']}")
    for r in payload["robustness"]:
        click.echo(r["text"])
    click.echo(payload["strongest"])
