"""The docs' pages for every reader (docs/accessibility.md): what the theme leaves unnamed.

The PyData theme folds each part of the sidebar's table of contents in a ``<details>`` whose
``<summary>`` holds only a chevron: a screen reader hears "disclosure triangle" with no
name (axe-core's *summary-name*, serious). Each summary is named after the page whose
subpages it shows. The theme's search button is named by its own template
(``docs/_templates/search-button-field.html``).
"""

from __future__ import annotations

from typing import Any

from bs4 import BeautifulSoup


def name_toggles(html: Any) -> str:
    """``html`` of a table of contents (a string, or the theme's parsed tree, which it
    returns when it did not take the sidebar from its cache), each empty ``<summary>``
    named by its page.

    >>> toc = ('<li><a class="reference" href="d.html">Deployment</a><details><summary>'
    ...        '<span class="toctree-toggle"></span></summary></details></li>')
    >>> 'summary aria-label="Deployment: its pages"' in name_toggles(toc)
    True
    """
    html = str(html)
    if "<summary" not in html:
        return html
    soup = BeautifulSoup(html, "html.parser")
    changed = False
    for summary in soup.find_all("summary"):
        if summary.get_text(strip=True) or summary.get("aria-label"):
            continue  # a section's caption names it already
        item = summary.find_parent("li")
        link = item.find("a", class_="reference") if item is not None else None
        words = link.get_text(" ", strip=True) if link is not None else ""
        summary["aria-label"] = f"{words}: its pages" if words else "Subpages"
        changed = True
    return str(soup) if changed else html


def _wrap_toctree(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    make = context.get("generate_toctree_html")
    if make is None or getattr(make, "ttr_named", False):
        return

    def named(*args: Any, **kwargs: Any) -> str:
        return name_toggles(make(*args, **kwargs))

    named.ttr_named = True  # type: ignore[attr-defined]
    context["generate_toctree_html"] = named


def setup(app: Any) -> dict[str, Any]:
    # After the theme's own handler, which puts generate_toctree_html in the context.
    app.connect("html-page-context", _wrap_toctree, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
