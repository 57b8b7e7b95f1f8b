"""``notebooks/analysis.ipynb`` runs as its first cell tells a reader to (``vsim run``, then
``jupyter nbconvert --execute`` with ``VSIM_RUN``; the test extra installs nbconvert and
the kernel), and shows the win-rate table and the paired comparison as plain values."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
from cli_support import process_env, run_process

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "analysis.ipynb"
ROOT = NOTEBOOK.parents[1]


def _outputs(nb, tag: str) -> str:
    cells = [c for c in nb.cells if tag in c.get("metadata", {}).get("tags", [])]
    assert len(cells) == 1, f"expected one cell tagged {tag!r}"
    texts = []
    for out in cells[0].outputs:
        texts.append(out.get("text", ""))
        data = out.get("data", {})
        texts.append(data.get("text/plain", ""))
        texts.append(data.get("text/html", ""))
    return "\n".join(texts)


def _executed(tmp_path: Path, name: str, *run_args: str):
    """The notebook executed with nbconvert on a run ``vsim run *run_args`` wrote (20 games
    or as the args say), under ``runs/`` (a relative VSIM_RUN); the run is removed after."""
    run = ROOT / "runs" / f"{name}-{tmp_path.name}"
    made = run_process(*run_args, "--no-report", "--quiet", "--out", str(run))
    assert made.returncode == 0, made.stderr
    executed = tmp_path / "analysis.ipynb"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
             str(NOTEBOOK), "--output", str(executed)],
            cwd=ROOT, env=process_env(VSIM_RUN=str(run.relative_to(ROOT))),
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        shutil.rmtree(run, ignore_errors=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return nbformat.read(executed, as_version=4)


def test_the_notebook_runs_with_nbconvert_after_the_readme_commands(tmp_path):
    nb = _executed(
        tmp_path, "notebook-test", "run", "--games", "20", "--seed", "5", "--variant", "base",
        "--variant", "timurs-shadow", "--strategy", "all=random", "--jobs", "1",
    )  # fmt: skip
    errors = [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert not errors
    table = _outputs(nb, "win-rate-table")
    for word in ("DS", "BK", "VE", "unresolved tie", "95% Wilson", "95% Goodman", "timurs-shadow"):
        assert word in table, word
    assert table.count("timurs-shadow") == 4  # 4 outcomes of the second variant, one a row
    assert "%" in table and "0.3333" not in table  # rates as percentages, not raw floats
    paired = _outputs(nb, "paired-comparison")
    assert "paired on 20 games" in paired and "McNemar p" in paired
    assert "timurs-shadow against base:" in paired  # the report's answer, in its words
    assert "vsim plan --delta 0.03 --paired-rho 0." in paired  # the number it tells you to use
    for shown in (table, paired):  # plain values: no quoted strings, no dtype row, no shape
        assert '"' not in shown and "str" not in shown.split() and "shape:" not in shown
    images = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "image/png" in o.get("data", {})
    ]
    assert len(images) == 2


def test_the_notebook_reads_a_pax_pamir_run(tmp_path):
    """Issue 67: the notebook works on a Pax Pamir run (its seats, its score per turn)."""
    variant = tmp_path / "lead6.toml"
    variant.write_text(
        'name = "lead6"\ndescription = "an early end on six"\n[numbers]\nearly_end_lead = 6\n'
    )
    nb = _executed(
        tmp_path, "notebook-pax", "run", "--game", "pax-pamir", "--games", "12", "--seed", "5",
        "--variant", "base", "--variant", str(variant), "--strategy", "all=random", "--jobs", "1",
    )  # fmt: skip
    table = _outputs(nb, "win-rate-table")
    for word in ("P1", "P4", "lead6", "95% Goodman"):
        assert word in table, word
    assert "lead6 against base:" in _outputs(nb, "paired-comparison")
