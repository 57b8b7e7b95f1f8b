"""``vsim replay``, ``strategies``, ``variants`` and ``soak``."""

from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path

import click

from simulate.cli.app import InputError, cli, game_option, resolve_game
from simulate.cli.app import one_line as _one_line
from simulate.cli.run import Bar, progress_bar
from simulate.study.errors import RunError
from simulate.study.replay import replay as replay_game


@cli.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--game", "-g", type=int, required=True, help="The game index to replay.")
@click.option("--variant", default=None, help="The variant (needed if the run has several).")
@click.option("--trace", is_flag=True, help="Print every decision, not only each card.")
@click.option(
    "--lineup", default=None, help="The lineup (needed if several played the game: a ladder's)."
)
@click.pass_context
def replay(
    ctx: click.Context,
    directory: Path,
    game: int,
    variant: str | None,
    trace: bool,
    lineup: str | None,
) -> None:
    """Replay one game of a run from its seed and check its final state digest."""
    if not directory.is_dir():
        raise InputError(f"{directory} is not a directory")
    if game < 0:
        raise InputError(f"--game must be a non-negative integer, got {game}")
    try:
        outcome = replay_game(directory, game, variant, trace=True, lineup=lineup)
    except RunError as exc:
        raise InputError(str(exc)) from None
    row = outcome.row
    strategies = ", ".join(f"{f}={row[f'strategy_{f}']}" for f in outcome.seats)
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
    for line in outcome.game.replay_lines(result, outcome.rules, trace):
        click.echo(line)
    scores = ", ".join(f"{f} {result.scores.get(f)}" for f in outcome.seats)
    label = outcome.game.score_label
    click.echo(
        f"winner {result.winner or 'none (tie)'}; {label} {scores}; tiebreak {result.tiebreak}"
    )
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


@cli.command()
@game_option
def strategies(game: str) -> None:
    """List the strategies a game's seats may play, one line each."""
    from strategies import registry

    the_game = resolve_game(game)
    ref, default_spec = the_game.ref, the_game.lineups()["default"]
    for name, target in registry.known(ref).items():
        try:
            line = registry.describe(name, ref)
        except Exception as exc:
            line = f"(cannot load: {_one_line(str(exc))})"
        default = " (default)" if name == default_spec else ""
        click.echo(f"{name:<16} {line}{default}  [{target}]")
    files = " a lineup file the game reads (Vijayanagara: strategies/vijayanagara/lineups/),"
    click.echo(f"Or{files} or package.module:Class implementing the Strategy protocol.")


@cli.command()
@game_option
def variants(game: str) -> None:
    """List the built-in rule variants of a game, one line each."""
    from simulate.errors import DataError

    the_game = resolve_game(game)
    try:
        found = [the_game.load_variant(name) for name in the_game.variant_names()]
    except DataError as exc:
        raise InputError(str(exc)) from None
    for v in found:
        click.echo(f"{v.name:<20} {v.description}")
    folder = the_game.variants_dir()
    example = (
        f" (format: {folder / 'base.toml'})" if folder and (folder / "base.toml").is_file() else ""
    )
    click.echo(f"Or give the path of a .toml file{example}.")


SOAK_DEFAULT = ("random", "heuristic")


@cli.command()
def games() -> None:
    """List the installed games, one line each: the name --game takes, seats and title."""
    from simulate.games import get, names

    for name in names():
        try:
            game = get(name)
            seats = game.seats()
            click.echo(f"{name:<16} {len(seats)} seats ({', '.join(seats)})  {game.title}")
        except Exception as exc:  # a broken third-party game: say so, list the others
            click.echo(f"{name:<16} does not load: {_one_line(str(exc))}")


@cli.command()
@click.option("--games", "-n", type=int, default=1000, show_default=True, help="Games to play.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed (>= 0).")
@click.option(
    "--strategy", "strategy", multiple=True, default=SOAK_DEFAULT, show_default=True,
    help="Strategies sharing the games, each on the same seeds (repeatable; default for a "
    "game without a heuristic: random and its default lineup).",
)  # fmt: skip
@click.option("--variant", default=None, help="Variant name or path (default: base).")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: all cores).")
@game_option
@click.pass_context
def soak(
    ctx: click.Context,
    games: int,
    seed: int,
    strategy: tuple[str, ...],
    variant: str | None,
    jobs: int | None,
    game: str,
) -> None:
    """Play many games checking every invariant after every action; report each failure
    with a repro command. Exit status 0 if none failed, 3 otherwise."""
    from simulate.study.batch import compiled_rules
    from simulate.study.soak import soak as run_soak
    from strategies.registry import make

    if games < 1:
        raise InputError(f"--games must be a positive integer, got {games}")
    if seed < 0:
        raise InputError(f"--seed must be a non-negative integer, got {seed}")
    the_game = resolve_game(game)
    if strategy == SOAK_DEFAULT and "heuristic" not in the_game.lineups().values():
        strategy = tuple(dict.fromkeys(("random", the_game.lineups()["default"])))
    try:
        for spec in strategy:
            make(spec, the_game.ref)
        compiled_rules(the_game.load_variant(variant), the_game)
    except Exception as exc:  # an unknown strategy or parameter, a bad variant: one line
        raise InputError(_one_line(str(exc))) from None
    failures = []
    done = 0
    start = time.perf_counter()
    with progress_bar(sys.stderr.isatty()) as bar:
        tracker = Bar(bar)
        tracker.start(games, 0)
        for failure in run_soak(
            games, seed, tuple(strategy), variant, jobs or 0, progress=tracker.advance, game=game
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
