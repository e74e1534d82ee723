"""Record the outputs of cells marked ``# NBVAL_CHECK_OUTPUT`` for nbval to compare.

    python tools/record_notebook_outputs.py notebooks/rules_usa.ipynb [...]

Runs each notebook (it is not modified) and writes ``notebooks/expected/<name>.json``
with the outputs of its marked cells. Review the diff before committing: it is
what CI will hold the notebooks to.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient

MARKER = "# NBVAL_CHECK_OUTPUT"


def record(notebook: Path) -> Path | None:
    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(
        nb, timeout=120, resources={"metadata": {"path": str(notebook.parent)}}
    ).execute()
    cells = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.startswith(MARKER):
            cells[cell.id] = _coalesce([_strip(o) for o in cell.outputs])
    out = notebook.parent / "expected" / f"{notebook.stem}.json"
    if not cells:
        return None
    out.parent.mkdir(exist_ok=True)
    payload = {"notebook": notebook.name, "cells": cells}
    out.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def _coalesce(outputs: list[dict]) -> list[dict]:
    """Join consecutive prints to one stream, as nbval does: the split varies from run to run."""
    merged: list[dict] = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (
            last is not None
            and output["output_type"] == last["output_type"] == "stream"
            and output["name"] == last["name"]
        ):
            last["text"] += output["text"]
        else:
            merged.append(output)
    return merged


def _strip(output: dict) -> dict:
    output = dict(output)
    output.pop("execution_count", None)
    if "metadata" in output:
        output["metadata"] = {}
    return output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    for notebook in parser.parse_args().notebooks:
        print(f"{notebook} -> {record(notebook) or 'no checked cells'}")


if __name__ == "__main__":
    main()
