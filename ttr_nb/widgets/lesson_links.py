"""Links to the lessons, with their titles: where a lesson opens depends on where the app
runs.

* On the static site (Python in the browser), the site's JupyterLab, two folders above the
  app's page.
* Where the app is a page of a Jupyter server's Voilà (``…/voila/render/…``: Binder, a
  JupyterHub), that server's JupyterLab, in the app notebook's folder.
* Where ``TTR_DOCS_URL`` names the project's documentation, its read-only page of the
  lesson (``lessons/NAME.html``).
* Otherwise (the app served alone) the lesson is named by its title, without a link.

The page's own address is untrusted: it arrives checked (:func:`ttr_nb.widgets.links.
checked_base`), and every link is escaped.
"""

from __future__ import annotations

import html
import os
import sys
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote, urlsplit

DOCS_URL_ENV = "TTR_DOCS_URL"
VOILA_RENDER = "/voila/render/"


def lesson_href(name: str, page_base: str | None = None, environ: Any = None) -> str | None:
    """Where the lesson notebook ``name`` opens from the app's page, or None.

    >>> lesson_href("graphs_5_steiner.ipynb", "https://hub.org/user/ann/voila/render/"
    ...     "notebooks/app.ipynb", {})
    'https://hub.org/user/ann/lab/tree/notebooks/graphs_5_steiner.ipynb'
    >>> lesson_href("graphs_5_steiner.ipynb", None, {"TTR_DOCS_URL": "https://docs.org/ttr/"})
    'https://docs.org/ttr/lessons/graphs_5_steiner.html'
    >>> lesson_href("graphs_5_steiner.ipynb", "http://10.0.0.5:8866/", {}) is None
    True
    """
    if sys.platform == "emscripten":
        return f"../../lab/index.html?path={quote(name)}"
    env = os.environ if environ is None else environ
    docs = env.get(DOCS_URL_ENV, "")
    if docs and urlsplit(docs).scheme in ("http", "https"):
        return f"{docs.rstrip('/')}/lessons/{quote(PurePosixPath(name).stem)}.html"
    if page_base:
        parts = urlsplit(page_base)
        if VOILA_RENDER in parts.path:
            prefix, rest = parts.path.split(VOILA_RENDER, 1)
            folder = str(PurePosixPath(rest).parent) if "/" in rest else ""
            tree = f"{folder}/" if folder and folder != "." else ""
            return f"{parts.scheme}://{parts.netloc}{prefix}/lab/tree/{tree}{quote(name)}"
    return None


def lesson_link(title: str, name: str, page_base: str | None = None, section: str = "") -> str:
    """The lesson as HTML: ``<i>section</i> in <i>title</i>``, a link when it can open
    from here (:func:`lesson_href`), never its file name."""
    words = f"<i>{html.escape(title)}</i>"
    if section:
        words = f"<i>{html.escape(section)}</i> in {words}"
    href = lesson_href(name, page_base)
    if href is None:
        return words
    safe = html.escape(href, quote=True)
    return f"<a href='{safe}' target='_blank' rel='noopener' class='ttr-lesson-link'>{words}</a>"


__all__ = ["DOCS_URL_ENV", "lesson_href", "lesson_link"]
