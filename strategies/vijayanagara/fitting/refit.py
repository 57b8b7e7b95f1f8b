"""Refit everything fitted to the default bots by one command (issue 43): the steps of
``refit.toml`` (the Event table, each seat's learned choice, the Sultanate's search prior,
the value model of mcts's playout leaves), in order, each a fitting command of this package in a fresh process (so that no step plays with
tables an earlier step has rewritten but a process has cached).

    python -m strategies.vijayanagara.fitting --jobs 2
    python -m strategies.vijayanagara.fitting --dry-run          # the steps, checked, without playing
    python -m strategies.vijayanagara.fitting --from 3 --jobs 2  # resume at step 3 after a stop
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

RECIPE = Path(__file__).with_name("refit.toml")
FITS = (
    "event_table",
    "choice_fit",
    "prior_fit",
    "value_fit",
)  # the fitting commands a step may name


class RecipeError(ValueError):
    """A recipe that cannot be run; its message is one line."""


@dataclass(frozen=True)
class Step:
    """One fitting command of the recipe: the module, its arguments and why it is there."""

    fit: str
    args: tuple[str, ...]
    why: str

    def argv(self, jobs: int | None = None) -> list[str]:
        extra = ("--jobs", str(jobs)) if jobs else ()
        return ["-m", f"strategies.vijayanagara.fitting.{self.fit}", *self.args, *extra]

    def command(self, jobs: int | None = None) -> str:
        return shlex.join(["python", *self.argv(jobs)])


def _execute(argv: list[str]) -> int:
    """``python ARGV`` in a fresh process of this interpreter; its exit status."""
    return subprocess.run([sys.executable, *argv], check=False).returncode


def _module(fit: str):
    return importlib.import_module(f"strategies.vijayanagara.fitting.{fit}")


def _refusal(where: str) -> Callable[[str], None]:
    """An argparse ``error`` that raises a one-line RecipeError rather than exiting."""

    def refuse(message: str) -> None:
        raise RecipeError(f"{where}: {message}")

    return refuse


def load(path: Path = RECIPE) -> list[Step]:
    """The recipe's steps, each checked against its command's own arguments; RecipeError
    (one line) for a file that cannot be read, an unknown fit or arguments it refuses."""
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))["step"]
        steps = [Step(str(s["fit"]), tuple(str(a) for a in s["args"]), str(s["why"])) for s in raw]
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise RecipeError(f"{path}: cannot read the refit recipe: {exc!r}") from None
    if not steps:
        raise RecipeError(f"{path}: the refit recipe has no step")
    for i, step in enumerate(steps, 1):
        if step.fit not in FITS:
            raise RecipeError(f"{path}: step {i}: unknown fit {step.fit!r} (one of {FITS})")
        if "--jobs" in step.args:
            raise RecipeError(f"{path}: step {i}: --jobs is the runner's, not the recipe's")
        check = _module(step.fit).parser()
        check.error = _refusal(f"{path}: step {i}: {step.fit} refuses {list(step.args)}")
        check.parse_args(list(step.args))
    return steps


def run(
    steps: list[Step],
    jobs: int,
    start: int = 1,
    say: Callable[[str], None] = print,
    execute: Callable[[list[str]], int] = _execute,
) -> int:
    """Run ``steps`` from the ``start``-th (1-based) on; stop at the first that fails,
    saying how to resume. The exit status of the failed step, else 0."""
    for i, step in enumerate(steps[start - 1 :], start):
        say(f"[{i}/{len(steps)}] {step.why}: {step.command(jobs)}")
        status = execute(step.argv(jobs))
        if status:
            say(f"step {i} failed (exit {status}); rerun with --from {i} to resume")
            return int(status)
    say(
        "refitted: bump the lineup's version (strategies/vijayanagara/lineups/heuristic.toml), then "
        "regenerate the drift baseline and strategies/vijayanagara/exploitability.json"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m strategies.vijayanagara.fitting",
        description="Refit everything fitted to the default bots, in order (refit.toml).",
    )
    ap.add_argument("--jobs", type=int, default=1, help="worker processes of every step")
    ap.add_argument("--from", dest="start", type=int, default=1, help="first step (1-based)")
    ap.add_argument("--recipe", type=Path, default=RECIPE)
    ap.add_argument("--dry-run", action="store_true", help="list the checked steps only")
    args = ap.parse_args(argv)
    try:
        steps = load(args.recipe)
    except RecipeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.jobs < 1 or not 1 <= args.start <= len(steps):
        print(f"error: need --jobs >= 1 and --from in 1..{len(steps)}", file=sys.stderr)
        return 2
    if args.dry_run:
        for i, step in enumerate(steps, 1):
            mark = " " if i >= args.start else "-"
            print(f"{mark}[{i}/{len(steps)}] {step.why}: {step.command(args.jobs)}")
        return 0
    return run(steps, args.jobs, args.start)
