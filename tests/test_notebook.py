"""``notebooks/analysis.ipynb`` runs from top to bottom against a tiny run and shows the
win-rate table and the paired comparison."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from simulate.study import runs, specs  # noqa: E402

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "analysis.ipynb"


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


def test_notebook_runs_and_shows_the_win_rate_table(tmp_path, monkeypatch):
    run = NOTEBOOK.parents[1] / "runs" / f"notebook-test-{tmp_path.name}"  # a relative VSIM_RUN
    study = specs.Study.create(games=20, seed=5, variants=["base", "timurs-shadow"])
    runs.run(study, run, jobs=1)
    monkeypatch.setenv("VSIM_RUN", str(run.relative_to(NOTEBOOK.parents[1])))
    monkeypatch.delenv("VSIM_VARIANT_A", raising=False)
    monkeypatch.delenv("VSIM_VARIANT_B", raising=False)

    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},  # the kernel starts here
    )
    client.execute()  # raises CellExecutionError on any failing cell

    errors = [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert not errors
    table = _outputs(nb, "win-rate-table")
    for word in ("DS", "BK", "VE", "unresolved tie", "95% Wilson", "95% Goodman", "timurs-shadow"):
        assert word in table, word
    assert "(8, 7)" in table  # 2 variants x 4 outcomes, 7 columns
    assert "%" in table and "0.3333" not in table  # rates as percentages, not raw floats
    paired = _outputs(nb, "paired-comparison")
    assert "paired on 20 games" in paired and "McNemar p" in paired
    assert "vsim plan --delta 0.03 --paired-rho 0." in paired  # the number it tells you to use
    images = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "image/png" in o.get("data", {})
    ]
    assert len(images) == 2
    import shutil

    shutil.rmtree(run, ignore_errors=True)
