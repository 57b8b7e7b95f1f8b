"""Faults (issue 8): a killed worker, a full disk, a hanging strategy. Nothing finished is
lost, the rerun completes, and the dataset equals an uninterrupted run's."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_support import ROOT, invoke, process_env

from simulate.study import dataset

_env = process_env
vsim = invoke


def _reference(tmp_path: Path, games: int, seed: int, *extra: str) -> str:
    out = tmp_path / "reference"
    result = vsim("run", "--games", str(games), "--seed", str(seed), "--jobs", "1", "--quiet",
                  "--no-report", "--out", str(out), *extra)  # fmt: skip
    assert result.exit_code in (0, 3), result.output
    return dataset.dataset_digest(out)


def _descendants(pid: int) -> list[int]:
    children = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(entry))
    out = list(children)
    for c in children:
        out += _descendants(c)
    return out


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the worker")
def test_killing_one_worker_loses_nothing_and_the_rerun_completes(tmp_path):
    games, seed = 40, 5
    strategy = "all=tests.fault_strategies:Slow"
    out = tmp_path / "killed"
    args = ["run", "--games", str(games), "--seed", str(seed), "--jobs", "2", "--chunk-size", "2",
            "--quiet", "--no-report", "--strategy", strategy, "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "simulate.cli", *args], cwd=ROOT, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    killed = None
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if (out / "games").is_dir() and len(dataset.shards(out, "games")) >= 2:
                workers = [p for p in _descendants(proc.pid) if "loky" in _cmdline(p)]
                if workers:
                    killed = workers[0]
                    os.kill(killed, signal.SIGKILL)
                    break
            time.sleep(0.02)
        proc.wait(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert killed is not None, "no worker was found to kill"
    stderr = proc.stderr.read().decode()
    if proc.returncode != 0:
        assert "rerun the same command to resume" in stderr
    kept = sum(len(v) for v in dataset.done_games(out).values())
    assert kept >= 4  # the shards written before the kill are still there
    rerun = vsim(*args)
    assert rerun.exit_code == 0, rerun.output
    assert dataset.dataset_digest(out) == _reference(tmp_path, games, seed, "--strategy", strategy)


def test_a_full_disk_stops_the_run_and_the_rerun_completes(tmp_path, monkeypatch):
    """A shard write that fails (ENOSPC) ends the run with one line; earlier shards survive."""
    games, seed = 24, 8
    out = tmp_path / "full"
    real = dataset.write_shard
    calls = {"n": 0}

    def failing(directory, name, table):
        calls["n"] += 1
        if calls["n"] == 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(directory, name, table)

    monkeypatch.setattr(dataset, "write_shard", failing)
    args = ["run", "--games", str(games), "--seed", str(seed), "--jobs", "1", "--chunk-size", "4",
            "--quiet", "--no-report", "--out", str(out)]  # fmt: skip
    first = vsim(*args)
    assert first.exit_code == 1
    assert "No space left on device" in first.stderr
    assert "rerun the same command to resume" in first.stderr
    kept = sum(len(v) for v in dataset.done_games(out).values())
    assert 0 < kept < games
    monkeypatch.setattr(dataset, "write_shard", real)
    again = vsim(*args)
    assert again.exit_code == 0, again.output
    assert dataset.dataset_digest(out) == _reference(tmp_path, games, seed)


def test_a_hanging_strategy_fails_its_games_after_the_decision_timeout(tmp_path):
    games, seed = 6, 3
    out = tmp_path / "hang"
    args = ["run", "--games", str(games), "--seed", str(seed), "--jobs", "2", "--chunk-size", "1",
            "--quiet", "--no-report", "--decision-timeout", "0.3",
            "--strategy", "DS=tests.fault_strategies:Hang", "--out", str(out)]  # fmt: skip
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "simulate.cli", *args], cwd=ROOT, env=_env(),
                            capture_output=True, text=True, timeout=300)  # fmt: skip
    assert time.monotonic() - start < 120
    assert result.returncode == 3, result.stderr
    rows = dataset.read_table(out, "games").to_pylist()
    assert len(rows) == games
    failed = [r for r in rows if r["error"]]
    assert failed and len(failed) < games
    assert all("DecisionTimeout" in r["error"] and "0.3 s" in r["error"] for r in failed)
    # the rerun plays nothing more and the dataset is the same
    digest = dataset.dataset_digest(out)
    again = subprocess.run([sys.executable, "-m", "simulate.cli", *args], cwd=ROOT, env=_env(),
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    assert again.returncode == 3
    assert dataset.dataset_digest(out) == digest


def test_soak_plays_with_invariant_checks_and_reports_no_failure():
    """The short CI version of the soak (issue 8); `vsim soak --games 100000` is the full one."""
    result = invoke("soak", "--games", "6", "--jobs", "1", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "soak: 6 games (random, heuristic), 0 failures" in result.output


def test_soak_reports_a_failure_with_a_repro(monkeypatch):
    from simulate.vijayanagara.rules import invariants

    def broken(state, rules):
        raise invariants.InvariantError("planted violation")

    monkeypatch.setattr(invariants, "check", broken)
    result = invoke("soak", "--games", "2", "--jobs", "1", "--strategy", "random")
    assert result.exit_code == 3
    assert "planted violation" in result.stderr
    assert "repro: python -c" in result.stderr and "replay_checked" in result.stderr
