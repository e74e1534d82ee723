"""Sphinx extension of the ttr-nb docs: the figures and the lessons, made at each build.

* The figures: ``tools/docs_figures.py`` writes the tables the pages include
  (``docs/_generated/``) from the recorded result files in ``results/``.
* The lessons: every notebook of ``notebooks/`` but the app and the teacher's page is run
  (``TTR_DOCS_JOBS`` at a time, 2 by default) and copied with its outputs into
  ``docs/lessons/``, with a note saying where it runs. The boards show the picture each
  board puts in its output (no widget state is kept, so nothing needs a kernel or a CDN).
  A run is cached under ``build/docs-cache/`` by the notebook's text and the package's and
  maps' files, so a rebuild without changes runs nothing.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import os
import sys
import time
import types
from pathlib import Path
from typing import Any

import nbformat
from sphinx.application import Sphinx
from sphinx.util import logging

DOCS = Path(__file__).resolve().parent.parent
REPO = DOCS.parent
NOTEBOOKS = REPO / "notebooks"
LESSONS = DOCS / "lessons"
CACHE = REPO / "build" / "docs-cache" / "lessons"
NOT_LESSONS = {"app", "teacher"}  # the app itself and the teacher's page (a server's)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PICTURES = ("image/svg+xml", "image/png", "image/jpeg", "text/html", "text/markdown")
LIVE_ONLY = "(an interactive widget: run the lesson to use it)"
# The app's notebook is the app itself, the teacher's page a server's: the docs link their pages.
NOTEBOOK_PAGES = {"app.ipynb": "../app.md", "teacher.ipynb": "../tables.md"}
CELL_TIMEOUT_S = 300

log = logging.getLogger(__name__)


def lesson_notebooks() -> list[Path]:
    """The notebooks the docs render: the lessons and their index."""
    return [p for p in sorted(NOTEBOOKS.glob("*.ipynb")) if p.stem not in NOT_LESSONS]


def _code_digest() -> str:
    """What a lesson's outputs depend on besides its own text: the package and the maps."""
    digest = hashlib.sha256()
    for folder, pattern in ((REPO / "ttr_nb", "**/*.py"), (REPO / "ttr_nb", "**/*.json")):
        for path in sorted(folder.glob(pattern)):
            digest.update(path.relative_to(REPO).as_posix().encode())
            digest.update(path.read_bytes())
    for path in sorted((REPO / "maps").glob("*.json")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def execute(source: Path, target: Path) -> float:
    """Run ``source`` (from the notebooks folder) and write it with its outputs to ``target``.

    Returns the seconds it took. Runs in a worker process.
    """
    from nbclient import NotebookClient

    started = time.monotonic()
    nb = nbformat.read(source, as_version=4)
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(source.parent)}},
        store_widget_state=False,
    )
    client.execute()
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    return time.monotonic() - started


def _runs_at(app: Sphinx, name: str) -> str:
    """The note at the top of a rendered lesson: read-only here, and where it runs."""
    # Raw HTML: the site's JupyterLite lies outside the docs, so it is no page for MyST to
    # resolve (tools/check_docs_links.py checks it where the site ships the docs).
    site = (
        f'<a href="{app.config.ttr_site_lab}?path={name}">in your browser, on the static site</a>'
    )

    repo = app.config.ttr_binder_repo
    if repo:
        url = f"https://mybinder.org/v2/gh/{repo}/HEAD?urlpath=lab/tree/notebooks/{name}"
        binder = f"[on Binder]({url})"
    else:
        binder = "on Binder (see [Try it online](../deployment/binder.md))"
    return (
        f"```{{note}}\nA read-only copy of `notebooks/{name}`, run when these pages were "
        f"built. Run it and try the exercises {site}, {binder}, or on your machine "
        f"(`make setup`, then open it in JupyterLab).\n```"
    )


def _for_reading(nb: Any, app: Sphinx, name: str) -> Any:
    """The executed notebook as the docs show it: the note, and no widget-only outputs."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for notebook, page in NOTEBOOK_PAGES.items():
                cell.source = cell.source.replace(f"]({notebook}", f"]({page}")
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and not any(kind in data for kind in PICTURES):
                data["text/plain"] = LIVE_ONLY
    at = 1 if nb.cells and nb.cells[0].cell_type == "markdown" else 0
    nb.cells.insert(at, nbformat.v4.new_markdown_cell(_runs_at(app, name), id="ttr-docs-runs-at"))
    nb.metadata.pop("widgets", None)
    return nb


def stage_lessons(app: Sphinx) -> None:
    """Run the lessons that changed and write every lesson's page source into docs/lessons/."""
    code = _code_digest()
    jobs = int(os.environ.get("TTR_DOCS_JOBS", "2"))
    wanted = {}
    for source in lesson_notebooks():
        key = hashlib.sha256(code.encode() + source.read_bytes()).hexdigest()[:20]
        wanted[source] = CACHE / f"{source.stem}.{key}.ipynb"
    todo = {s: t for s, t in wanted.items() if not t.exists()}
    if todo:
        log.info(f"[ttr-docs] running {len(todo)} of {len(wanted)} lessons, {jobs} at a time")
        started = time.monotonic()
        with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(execute, s, t): s for s, t in todo.items()}
            for future in cf.as_completed(futures):
                source = futures[future]
                try:
                    seconds = future.result()
                except Exception as exc:  # a lesson that does not run fails the build
                    raise RuntimeError(f"lesson {source.name} did not run: {exc}") from exc
                log.info(f"[ttr-docs] {source.name}: {seconds:.0f} s")
        log.info(f"[ttr-docs] lessons run in {time.monotonic() - started:.0f} s")
    LESSONS.mkdir(exist_ok=True)
    keep = set()
    for source, cached in wanted.items():
        target = LESSONS / source.name
        keep.add(target)
        text = nbformat.writes(_for_reading(nbformat.read(cached, as_version=4), app, source.name))
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")  # unchanged pages are not read again
    for stale in LESSONS.glob("*.ipynb"):
        if stale not in keep:
            stale.unlink()
    for old in CACHE.glob("*.ipynb"):
        if old not in wanted.values():
            old.unlink()


def lessons_toctree() -> str:
    """The toctree of the rendered lessons, in teaching order (the course's own list,
    :data:`ttr_nb.teaching.curriculum.LESSONS`), after the index; any other notebook last."""
    from ttr_nb.teaching.curriculum import LESSONS

    names = [p.name for p in lesson_notebooks()]
    order = ["index.ipynb"] + [lesson.notebook for lesson in LESSONS]
    ordered = [n for n in order if n in names] + sorted(n for n in names if n not in order)
    entries = "\n".join(f"/lessons/{Path(n).stem}" for n in ordered)
    return f"```{{toctree}}\n:maxdepth: 1\n\n{entries}\n```\n"


def write_figures(app: Sphinx) -> None:
    """Write the tables of recorded results that the pages include."""
    sys.path.insert(0, str(REPO / "tools"))
    import docs_figures

    docs_figures.write_all(DOCS / "_generated")
    toc = DOCS / "_generated" / "lessons_toctree.md"
    text = lessons_toctree()
    if not toc.exists() or toc.read_text(encoding="utf-8") != text:
        toc.write_text(text, encoding="utf-8")
    from ttr_nb.teaching.curriculum import course_list  # the lessons page's list of lessons

    listed = DOCS / "_generated" / "lessons_list.md"
    if not listed.exists() or listed.read_text(encoding="utf-8") != course_list():
        listed.write_text(course_list(), encoding="utf-8")


def on_builder_inited(app: Sphinx) -> None:
    """Make the generated sources before Sphinx reads any page."""
    write_figures(app)
    if os.environ.get("TTR_DOCS_LESSONS", "1") != "0":
        stage_lessons(app)


def skip_type_alias(app: Sphinx, what: str, name: str, obj: Any, skip: bool, options: Any) -> bool:
    """Leave type aliases (``Payment = tuple[...]``) out: autodoc takes them for classes and
    cannot show them; the parameters that use them say what they hold."""
    return skip or isinstance(obj, types.GenericAlias)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the settings and the build steps."""
    app.add_config_value("ttr_binder_repo", "", "env")
    app.add_config_value("ttr_site_lab", "../../lab/index.html", "env")
    app.connect("builder-inited", on_builder_inited)
    app.connect("autodoc-skip-member", skip_type_alias)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
