"""``vsim ladder``: how exploitable the field's bots are (deviation gain per seat)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from simulate.cli.app import InputError, cli, game_option
from simulate.cli.run import resumable
from simulate.study.backends import BACKENDS, default_jobs
from simulate.study.errors import RunError
from simulate.study.ladder import Ladder, play_ladder


@cli.command()
@click.option(
    "--field", "field", multiple=True, metavar="[all|SEAT=]SPEC",
    help="The field's lineup, as --strategy of vsim run (default: the registry default).",
)  # fmt: skip
@click.option(
    "--challenger", "challengers", multiple=True, required=True, metavar="SPEC",
    help="A strategy spec put in each seat in turn (repeatable).",
)  # fmt: skip
@click.option(
    "--budgets", default=None, metavar="FACTORS",
    help="Each challenger at these multiples of its search budget, e.g. 1,2,4 (mcts: "
    "rollouts; greedy: samples); the report draws each seat's gain against budget.",
)  # fmt: skip
@click.option(
    "--seat", "seats", multiple=True, metavar="SEAT",
    help="Only these seats take each challenger (repeatable; default every seat).",
)  # fmt: skip
@click.option(
    "--games", "-n", "games", multiple=True, metavar="N|SPEC=N",
    help="Paired games per seat and challenger (default 400); SPEC=N for one challenger.",
)  # fmt: skip
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed (>= 0).")
@click.option("--variant", default=None, metavar="NAME|PATH", help="Rule variant (default: base).")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: all cores).")
@click.option("--backend", type=click.Choice(BACKENDS), default="loky", show_default=True)
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask or Ray address.")
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), required=True,
    help="Output directory (rerun the same command into it to resume).",
)  # fmt: skip
@click.option("--force", is_flag=True, help="Replace a different run found in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@game_option
@click.pass_context
def ladder(
    ctx: click.Context,
    field: tuple[str, ...],
    challengers: tuple[str, ...],
    budgets: str | None,
    seats: tuple[str, ...],
    games: tuple[str, ...],
    seed: int,
    variant: str | None,
    jobs: int | None,
    backend: str,
    scheduler: str | None,
    out: Path,
    force: bool,
    quiet: bool,
    game: str,
) -> None:
    """Measure how much each seat gains by replacing the field's bot with a challenger.

    For every seat and challenger, games with the challenger in that seat and the field in
    the others, on the same seeds as the field-only games; writes DIR/ladder.json and
    DIR/report/ladder.html. With --seat, a new bot for one seat is tested against the
    field: `--seat P1 --challenger mybots:Bot`. With --budgets 1,2,4 a
    search challenger plays at each multiple of its budget, and the report draws each seat's
    gain against budget (exploitability as a curve). Exit status: 0 done, 2 bad
    input, 3 some games raised, 1 stopped and 130 interrupted (rerun to resume).
    """
    from simulate.analysis import ladder as analysis

    if jobs is not None and jobs == -1:
        jobs = default_jobs()
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be a positive integer (or -1 for all cores), got {jobs}")
    try:
        spec = Ladder.create(field, challengers, games, seed, variant, seats, budgets, game)
    except RunError as exc:
        raise InputError(str(exc)) from None
    done = resumable(
        ctx, out, quiet, "ladder",
        lambda progress, command: play_ladder(
            spec, out, jobs=jobs, backend=backend, scheduler=scheduler, force=force,
            progress=progress, command=command,
        ),
        kept="games",
    )  # fmt: skip
    files = analysis.write(out)
    _, found = analysis.gains(out)
    rate = done.played / done.seconds if done.seconds > 0 else 0.0
    click.echo(f"Played {done.played} games in {done.seconds:.1f}s ({rate:.1f} games/s).")
    _echo_gains(found, out)
    payload = json.loads(files.json.read_text("utf-8"))
    _echo_where(payload["where_made"])
    _echo_moves(payload["played_differently"])
    click.echo(f"Ladder: {files.json}; report: {files.html}")
    ctx.exit(3 if done.failures else 0)


@cli.command("ladder-pool")
@click.argument("ladders", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--json", "json_out", type=click.Path(path_type=Path), default=None, metavar="FILE",
    help="Also write the pooled gains as JSON (ladder.json's records, exploitability, and"
    " gains and moves card by card).",
)  # fmt: skip
def ladder_pool(ladders: tuple[Path, ...], json_out: Path | None) -> None:
    """Pool the paired games of ladders of the same field and rules on different seeds.

    A cell near its bound (a challenger's gain whose interval just excludes or just
    includes 0) is read again over both ladders' games: `vsim ladder ... --seed 205 --out B`
    after `--seed 204 --out A`, then `vsim ladder-pool A B`. Each cell pools the ladders that
    play it. A field written otherwise (a lineup file, its specs) pools if the first
    ladder's field replays both ladders' first field games exactly. Ladders of fields that
    play otherwise, of other rules or challenger parameters, or of the same master seed with a
    cell in common, are refused.
    """
    from simulate.analysis import ladder as analysis
    from simulate.analysis.formatting import finite
    from simulate.analysis.run import ReportError

    notes: list[str] = []
    try:
        found = analysis.pooled_gains(list(ladders), notes=notes)
    except ReportError as exc:
        raise InputError(str(exc)) from None
    for note in notes:
        click.echo(note)
    cards = analysis.by_card(list(ladders))
    _echo_gains(found, ladders[0])
    _echo_where(cards.made)
    _echo_moves(cards.played)
    if json_out is not None:
        from simulate.analysis.commands import shown_path

        payload = {  # the ladders as a reader reruns them: inside the working folder, from it
            "ladders": [shown_path(str(p)) for p in ladders],
            "records": [g.to_json() for g in found],
            "exploitability": finite(analysis.exploitability(found)),
            **cards.to_json(),
        }
        try:
            json_out.write_text(json.dumps(payload, indent=2, allow_nan=False) + "\n", "utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {json_out}: {exc.strerror or exc}") from None
        click.echo(f"Pooled gains: {json_out}")


def _echo_where(made: list) -> None:
    """A line per seat and challenger: where its gain is made (``ladder_cards.steps``)."""
    from simulate.analysis import ladder_cards

    for s in made:
        click.echo(f"{s['faction']} {s['challenger']}: {ladder_cards.step_words(s)}")


def _echo_moves(played: list) -> None:
    """A line per seat and challenger: how it played the seat (``ladder_moves.differences``)."""
    from simulate.analysis import ladder_moves

    for d in played:
        click.echo(f"{d['faction']} {d['challenger']}: {ladder_moves.moves_words(d)}")


def _echo_gains(found: list, folder: Path) -> None:
    """A line per seat and challenger, then each seat's exploitability."""
    from simulate.analysis import ladder as analysis
    from simulate.study.dataset import layout_of

    score = layout_of(folder).game.score_label

    for g in found:
        click.echo(
            f"{g.faction} {g.challenger:<24} gain {100 * g.gain:+6.1f} percentage points "
            f"[{100 * g.gain_lo:+.1f}, {100 * g.gain_hi:+.1f}] over {g.games} paired games; "
            f"{score} margin {g.margin_gain:+.2f} [{g.margin_lo:+.2f}, {g.margin_hi:+.2f}]"
        )
    for f, e in analysis.exploitability(found).items():
        click.echo(f"exploitability {f}: {analysis.seat_words(e)}")
