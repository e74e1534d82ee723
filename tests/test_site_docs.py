"""The documentation the static site ships (``_site/docs/``), read in Chromium offline.

Run by ``make site-test`` with ``TTR_SITE=_site`` (skipped otherwise, like test_site.py, whose
server and offline browser it shares): the front page shows its screenshot, a lesson shows its
boards as pictures, its link to the runnable copy opens the site's JupyterLite, the search
works, and nothing is fetched from another host.
"""

from __future__ import annotations

from typing import Any

import pytest

# The static site's fixtures: its file server, the offline Chromium and the request counter.
from test_site import SITE, context, outside, server, site_dir, stays_local  # noqa: F401

pytestmark = pytest.mark.skipif(not SITE, reason="set TTR_SITE (make site-test builds the site)")

JS_IMAGES_DRAWN = """
(selector) => [...document.querySelectorAll(selector)].map(i => i.complete && i.naturalWidth > 0)
"""


def test_the_docs_read_offline_inside_the_site(request: pytest.FixtureRequest) -> None:
    browser: Any = request.getfixturevalue("context")
    site: str = request.getfixturevalue("server")
    requests_out: Any = request.getfixturevalue("outside")
    page = browser.new_page()
    page.goto(site + "docs/index.html", wait_until="load")
    assert "ttr-nb" in page.title()
    assert page.evaluate(JS_IMAGES_DRAWN, "img[src$='app-usa.png']") == [True]

    page.goto(site + "docs/lessons/graphs_9_blocking.html", wait_until="load")
    boards = page.evaluate(JS_IMAGES_DRAWN, "img[src$='.svg']")
    assert boards and all(boards), "the lesson's boards are not drawn"
    runs_at = page.locator("a", has_text="on the static site")
    href = runs_at.get_attribute("href")
    assert href == "../../lab/index.html?path=graphs_9_blocking.ipynb"
    answer = page.request.get(site + "lab/index.html")
    assert answer.ok

    page.goto(site + "docs/search.html?q=steiner", wait_until="load")
    page.wait_for_selector("#search-results li", timeout=30_000)
    assert page.locator("#search-results li").count() > 0
    page.close()
    stays_local(requests_out)
