"""``vsim``: play studies of many games, replay one, list strategies and variants.

    vsim run                                   # 200 games, all cores, default strategies
    vsim run --games 2000 --seed 7 --variant base --variant fort-penalty-2 --out runs/forts
    vsim run --strategy all=random --strategy P1=mypkg.bots:Greedy --trace
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
from typing import Any

import click

from simulate import native
from simulate.study.manifest import package_version


def one_line(text: str) -> str:
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
            click.echo(f"Error: {one_line(exc.format_message())}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=VsimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=package_version(), message=f"vsim %(version)s ({native.summary()})")
def cli() -> None:
    """Monte Carlo balance analysis for board games (`vsim games` lists the installed games;
    commands that play take --game NAME, commands that read a run folder use its game)."""


def resolve_game(ref: str | None) -> Any:
    """The game ``--game`` names (InputError, one line, for a game that is not installed)."""
    from simulate.games import get

    try:
        return get(ref)
    except ValueError as exc:
        raise InputError(one_line(str(exc))) from None


game_option = click.option(
    "--game",
    "game",
    default="vijayanagara",
    show_default=True,
    metavar="NAME",
    help="The game to play: an installed game (`vsim games` lists them) or package.module:OBJECT.",
)


def main(argv: list[str] | None = None) -> None:
    """The ``vsim`` console script."""
    cli.main(args=argv, prog_name="vsim")
