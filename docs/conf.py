"""Sphinx settings of the ttr-nb documentation (``make docs`` builds it; docs/development.md)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import ttr_nb

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "ttr-nb"
author = "the ttr-nb developers"
copyright = "the ttr-nb developers (MIT licence); Ticket to Ride is a trademark of Days of Wonder"

extensions = [
    "myst_nb",  # Markdown pages (MyST) and the lessons' notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",  # the docstrings are numpydoc, as networkx's and scikit-learn's
    "ttr_docs",  # docs/_ext/ttr_docs.py: the figures and the lessons, made at each build
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# ---- Markdown
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # "page.md#a-heading" links, as GitHub makes them

# ---- the lessons: executed by ttr_docs (in parallel, cached by content), then only rendered
nb_execution_mode = "off"
nb_output_stderr = "remove"  # progress bars
# A live widget needs a kernel: show the picture each board carries (SVG) instead, and never
# load the widget manager from a CDN (the docs are read offline too).
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}
# Where a lesson runs: the static site holds these pages under docs/ (tools/build_site.py),
# so its JupyterLite is two folders up from a lesson; Binder needs the repository's path, the
# one setting [tool.ttr-nb] github of pyproject.toml (docs/deployment/binder.md).
sys.path.insert(0, str(DOCS.parent / "tools"))
from docs_generated import github_repository  # noqa: E402

ttr_binder_repo = github_repository()
ttr_site_lab = "../../lab/index.html"

# ---- API reference
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
# The type hints in each signature; numpydoc's Parameters sections say the types in words.
autodoc_typehints = "signature"
# A hint may name a class that two modules document (where it is defined and where it is
# re-exported: ``Seated``, ``ChooseSupply``); either page is right, so Sphinx's "more than one
# target" notes are not errors.
suppress_warnings = ["ref.python"]
numpydoc_show_class_members = False  # autodoc lists them
numpydoc_class_members_toctree = False
# The public API (the names of ttr_nb.__all__ and the entry points the docs name) must
# have every section numpydoc's standard asks for, examples included, but the two it calls
# optional (an extended summary and See Also); a missing one fails the build (-W).
PUBLIC_API = (
    *(f"{getattr(ttr_nb, n).__module__}.{getattr(ttr_nb, n).__qualname__}" for n in ttr_nb.__all__),
    "ttr_nb.game.Game.legal_actions",
    "ttr_nb.game.Game.apply",
    "ttr_nb.game.Game.observation",
    "ttr_nb.tables.store.open_store",
    "ttr_nb.widgets.app.launch",
)
numpydoc_validation_checks = {"all", "ES01", "SA01"}
numpydoc_validation_exclude = {"^(?!(" + "|".join(map(re.escape, PUBLIC_API)) + ")$)"}

# ---- HTML
html_theme = "pydata_sphinx_theme"
html_title = "ttr-nb"
html_static_path = ["_static"]
html_css_files = ["ttr.css"]
html_show_sourcelink = False
html_copy_source = False  # the lessons with their outputs would double the size
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": [],
    "secondary_sidebar_items": ["page-toc"],
}
html_sidebars = {"**": ["sidebar-nav-bs"]}
