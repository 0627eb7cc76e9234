"""The notebooks in notebooks/ run top to bottom (design.md: analysis notebooks are executed by the tests)."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("KTENV_MODEL", str(tmp_path / "no_model.zip"))  # the model section must not need a run
    monkeypatch.setenv("KTENV_NOTEBOOK_SMALL", "1")  # each notebook's parameter cell picks its small sizes
    nb = nbformat.read(path, as_version=4)
    where = {"metadata": {"path": str(ROOT)}}
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources=where)
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors


def test_there_is_a_notebook():
    assert NOTEBOOKS
