"""Notebooks are stored clean, and every output-checked cell has a recorded expectation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
MARKER = "# NBVAL_CHECK_OUTPUT"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_without_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        assert not cell.get("outputs"), f"{path.name} cell {cell.get('id')} has stored outputs"
        assert cell.get("execution_count") is None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_checked_cells_have_recorded_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    marked = [
        c["id"]
        for c in nb["cells"]
        if c["cell_type"] == "code" and "".join(c["source"]).startswith(MARKER)
    ]
    if not marked:
        return
    expected = path.parent / "expected" / f"{path.stem}.json"
    assert expected.exists(), f"run tools/record_notebook_outputs.py {path.name}"
    recorded = json.loads(expected.read_text(encoding="utf-8"))["cells"]
    missing = [cid for cid in marked if cid not in recorded]
    assert not missing, f"{path.name}: no recorded output for cells {missing}"
