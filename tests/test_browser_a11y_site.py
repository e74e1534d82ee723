"""The static site for every learner: axe-core (WCAG 2.2 A/AA) on its app page (Voici, Python
in the tab) and on its documentation, offline, at 1366×768 and 390 px.

Run by ``make site-test`` with ``TTR_SITE=_site`` (skipped otherwise, like test_site.py,
whose file server, offline browser and request counter it uses). The app's page is checked
while Python starts (the notice a learner reads for the first minute), on its first screen
and in a game; the docs on their front page, a guide, this project's accessibility page,
a lesson with its boards and plots, the API reference and the search results.
Screenshots and axe-core's findings: ``test-artifacts/a11y-site-*``.
"""

from __future__ import annotations

from typing import Any

import pytest
from a11y import check_page, describe, needs_axe
from browser import JS_CANVAS_PAINTED, click_and_settle, keep_tickets, no_errors, start_game

# The static site's fixtures: its file server, the offline Chromium and the request counter.
from test_site import (  # noqa: F401
    SITE,
    START_MS,
    WAIT_MS,
    context,
    outside,
    server,
    site_dir,
    stays_local,
)

pytestmark = [
    pytest.mark.skipif(not SITE, reason="set TTR_SITE (make site-test builds the site)"),
    needs_axe,
]

LAPTOP = (1366, 768)
PHONE = (390, 844)
DOCS_PAGES = [
    "index.html",
    "getting-started/learner.html",
    "app.html",
    "accessibility.html",
    "lessons/graphs_9_blocking.html",
    "api/index.html",
    "search.html?q=steiner",
]


def axe_both_widths(page: Any, name: str, widths: tuple = (LAPTOP, PHONE)) -> None:
    """axe-core at each window size: no serious or critical violation."""
    found = []
    for width, height in widths:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        nodes = check_page(page, f"site-{name}-{width}")
        found += [f"{width}: {line}" for line in describe(nodes).splitlines() if line]
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    assert not found, f"{name}: serious or critical violations:\n" + "\n".join(found)


def test_the_site_app_passes_axe(request: pytest.FixtureRequest) -> None:
    browser: Any = request.getfixturevalue("context")
    site: str = request.getfixturevalue("server")
    requests_out: Any = request.getfixturevalue("outside")
    page = browser.new_page()
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    page.goto(site + "voici/render/app.html", wait_until="domcontentloaded")
    page.locator(".ttr-starting").wait_for(state="visible", timeout=WAIT_MS)
    axe_both_widths(page, "app-starting")
    page.locator(".ttr-first-screen").wait_for(state="visible", timeout=START_MS)
    page.wait_for_timeout(500)  # the page helper names what ipywidgets left unnamed
    axe_both_widths(page, "app-first-screen")
    click_and_settle(page, "button.ttr-first-bots")
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=WAIT_MS, polling=250)
    start_game(page, "usa", seed=7, kinds=["human", "greedy", "greedy"])
    axe_both_widths(page, "app-tickets")
    keep_tickets(page)
    page.locator(".ttr-route-picker select").select_option(index=1)
    page.wait_for_function(
        "() => document.querySelector('.ttr-selected').innerText.includes('Selected route')",
        timeout=WAIT_MS,
    )
    axe_both_widths(page, "app-route")
    no_errors(page)
    page.evaluate("() => localStorage.clear()")  # the next test starts afresh
    page.close()
    stays_local(requests_out)


@pytest.mark.parametrize("path", DOCS_PAGES)
def test_the_docs_pass_axe(request: pytest.FixtureRequest, path: str) -> None:
    """Each page of the docs the site ships. Were: the sidebar's folding toggles had no
    name (summary-name), and the search button was named "Search" while it shows
    "Search Ctrl+K" (label-content-name-mismatch)."""
    browser: Any = request.getfixturevalue("context")
    site: str = request.getfixturevalue("server")
    requests_out: Any = request.getfixturevalue("outside")
    page = browser.new_page()
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    page.goto(site + "docs/" + path, wait_until="load")
    if path.startswith("search.html"):
        page.wait_for_selector("#search-results li", timeout=30_000)
    name = "docs-" + path.split("?")[0].replace("/", "-").removesuffix(".html")
    axe_both_widths(page, name)
    page.close()
    stays_local(requests_out)
