"""Sphinx extension of the ttr-nb docs: the pages' checks and the lessons, at each build.

* The checks: every generated region of the pages (``<!-- gen:NAME -->…<!-- /gen -->``) must
  hold what ``tools/docs_generated.py`` writes from the code and ``results/`` now, and no user
  page may carry a figure typed by hand, an issue number or the build machine's load
  (``tools/docs_check.py``). Each problem is a warning, so ``make docs`` (warnings as errors)
  fails and lists them all.
* The links: a page links a lesson's notebook (``../notebooks/NAME.ipynb``), the changelog and
  the contributing guide as the repository host shows them; the build points those links at
  the rendered pages (``lessons/NAME``, ``changelog``, ``contributing``).
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
import re
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
    :data:`ttr_nb.teaching.curriculum.LESSONS`), after the index; any other notebook last.
    Hidden: the page's generated table of lessons lists them."""
    from ttr_nb.teaching.curriculum import LESSONS

    names = [p.name for p in lesson_notebooks()]
    order = ["index.ipynb"] + [lesson.notebook for lesson in LESSONS]
    ordered = [n for n in order if n in names] + sorted(n for n in names if n not in order)
    entries = "\n".join(f"/lessons/{Path(n).stem}" for n in ordered)
    return f"```{{toctree}}\n:hidden:\n:maxdepth: 1\n\n{entries}\n```\n"


TOCTREE_MARK = re.compile(r"<!--\s*lessons-toctree\b.*?-->", re.S)
NOTEBOOK_LINK = re.compile(r"\]\((?:\.\./)+notebooks/([\w-]+)\.ipynb(#[^)]*)?\)")
REPO_PAGES = {"CHANGELOG.md": "/changelog.md", "CONTRIBUTING.md": "/contributing.md"}
REPO_LINK = re.compile(r"\]\((?:\.\./)+(CHANGELOG\.md|CONTRIBUTING\.md)(#[^)]*)?\)")


def for_the_site(docname: str, text: str) -> str:
    """A page's Markdown as the build reads it: links to a lesson's notebook or to the
    repository's changelog and guide point at their rendered pages, and the lessons' page
    gets its toctree where it marks it."""
    text = NOTEBOOK_LINK.sub(lambda m: f"](/lessons/{m.group(1)}.ipynb{m.group(2) or ''})", text)
    text = REPO_LINK.sub(lambda m: f"]({REPO_PAGES[m.group(1)]}{m.group(2) or ''})", text)
    if TOCTREE_MARK.search(text):
        text = TOCTREE_MARK.sub(lambda _m: lessons_toctree(), text)
    return text


def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    """Rewrite the repository's links for the site (see :func:`for_the_site`)."""
    source[0] = for_the_site(docname, source[0])


def check_pages(app: Sphinx) -> None:
    """Warn (an error under ``-W``) of every stale generated region and every figure, issue
    number or machine load typed on a user page."""
    sys.path.insert(0, str(REPO / "tools"))
    import docs_check
    import docs_generated

    for problem in docs_generated.stale() + docs_check.problems():
        log.warning(f"[ttr-docs] {problem}")


def on_builder_inited(app: Sphinx) -> None:
    """Check the pages and run the lessons before Sphinx reads any page."""
    check_pages(app)
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
    app.connect("source-read", on_source_read)
    app.connect("autodoc-skip-member", skip_type_alias)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
