"""Running ``vsim`` from tests: in process (click's CliRunner) or as a real process, and a
listing of a directory to prove that a failed command touched nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # so that strategies such as "tests.fault_strategies:Hang" import
    sys.path.insert(0, str(ROOT))


def invoke(*args: str):
    """``vsim ARGS`` in this process; a wide console, as pytest-xdist sets COLUMNS=80."""
    from simulate.cli import cli

    return CliRunner(env={"COLUMNS": "200"}).invoke(cli, list(args), prog_name="vsim")


def process_env(**extra: str) -> dict[str, str]:
    """The environment of a ``vsim`` subprocess: the repository importable, plus ``extra``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])]
    )
    env.update(extra)
    return env


def run_process(*args: str, **env: str) -> subprocess.CompletedProcess:
    """``vsim ARGS`` as a real process (``python -m simulate.cli``)."""
    return subprocess.run(
        [sys.executable, "-m", "simulate.cli", *args],
        cwd=ROOT,
        env=process_env(**env),
        capture_output=True,
        text=True,
        timeout=600,
    )


def listing(directory: Path) -> dict[str, tuple[int, int]]:
    """Every file below ``directory`` with its size and modification time."""
    return {
        str(p.relative_to(directory)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def edit(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as a later save: its modification time a second on, so a file
    read again when it changes (a lineup, weights) is read again however fast the test."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    later = max(path.stat().st_mtime_ns, before + 1_000_000_000)
    os.utime(path, ns=(later, later))


def cut_after(monkeypatch, module, calls: int, exc: BaseException) -> None:
    """``module.play`` plays its first ``calls`` batch lists, then raises ``exc``."""
    real = module.play
    count = [0]

    def play(work, **kw):
        count[0] += 1
        if count[0] > calls:
            raise exc
        yield from real(work, **kw)

    monkeypatch.setattr(module, "play", play)


def stops(what: str) -> list[tuple[BaseException, int, str]]:
    """An interrupt and a failure mid-run of a resumable command, with the exit status and the
    line each gives (``what``: the command's word for its run)."""
    return [
        (KeyboardInterrupt(), 130, f"Interrupted: rerun the same command to resume the {what}"),
        (RuntimeError("disk gone"), 1, f"the {what} stopped (RuntimeError: disk gone)"),
    ]
