"""Determinism sweep (issue 8): the same study under PYTHONHASHSEED 0, 1 and random, --jobs 1
and 2, loky and dask, gives identical table contents (dataset digests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulate.study import dataset

ROOT = Path(__file__).resolve().parents[1]

SWEEP = [
    ("0", "1", "loky"),
    ("1", "2", "loky"),
    ("random", "2", "loky"),
    ("1", "2", "dask"),
]


def _run(out: Path, hash_seed: str, jobs: str, backend: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    args = ["run", "--games", "10", "--seed", "42", "--jobs", jobs, "--backend", backend,
            "--variant", "base", "--variant", "timurs-shadow", "--trace", "--quiet", "--no-report",
            "--chunk-size", "3", "--out", str(out)]  # fmt: skip
    proc = subprocess.run([sys.executable, "-m", "simulate.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return dataset.dataset_digest(out)


def test_same_study_same_tables_under_every_hash_seed_worker_count_and_backend(tmp_path):
    pytest.importorskip("dask.distributed")
    digests = {cfg: _run(tmp_path / "-".join(cfg), *cfg) for cfg in SWEEP}
    assert len(set(digests.values())) == 1, digests
