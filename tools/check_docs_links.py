"""Check the built documentation's internal links, and that it reads offline.

    python tools/check_docs_links.py build/docs/html

For every HTML page: each relative link or source (``href``, ``src``) must name a file of the
build, and a ``#fragment`` must name an element of its page. Links that leave the docs for the
static site's apps (``lab/``, ``voici/``; the docs sit in ``_site/docs/`` there) are checked by
the site's build instead, and listed in a summary. Nothing a page loads (scripts, styles,
images, fonts) may come from another host, so the docs read the same without the internet;
ordinary links to other sites are fine. Exits 1 and lists every problem otherwise.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

LOADED = {("script", "src"), ("link", "href"), ("img", "src"), ("source", "src")}
LOADED |= {("iframe", "src"), ("embed", "src"), ("object", "data"), ("video", "src")}
SITE_APPS = ("lab/", "voici/")  # the static site's JupyterLite and Voici, beside docs/


class _Page(HTMLParser):
    """The ids of one page, and its links as (tag, attribute, value)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name") and (name == "id" or tag == "a"):
                self.ids.add(value)
            if name in ("href", "src", "data"):
                self.links.append((tag, name, value))


def _pages(root: Path) -> Iterator[Path]:
    """The built pages (``_static/`` holds the theme's assets, templates among them)."""
    yield from sorted(p for p in root.rglob("*.html") if "_static" not in p.relative_to(root).parts)


def check(root: Path, site: bool = False) -> tuple[list[str], int, int]:
    """Check every page under ``root``.

    Parameters
    ----------
    root : Path
        The documentation's HTML folder.
    site : bool
        The folder sits in the static site (``_site/docs/``): links into the site's apps
        must name files there too.

    Returns
    -------
    problems : list of str
        One line per broken link or outside load.
    links : int
        Internal links checked.
    site_links : int
        Links into the static site's apps (checked only with ``site``).
    """
    parsed: dict[Path, _Page] = {}

    def page(path: Path) -> _Page:
        if path not in parsed:
            parser = _Page()
            parser.feed(path.read_text(encoding="utf-8", errors="replace"))
            parsed[path] = parser
        return parsed[path]

    problems: list[str] = []
    checked = site_links = 0
    root = root.resolve()
    for path in _pages(root):
        where = path.relative_to(root).as_posix()
        for tag, attr, value in page(path).links:
            url = urlsplit(value)
            if url.scheme in ("http", "https") or value.startswith("//"):
                if (tag, attr) in LOADED:
                    problems.append(f"{where}: loads {value} from another host")
                continue
            if url.scheme:  # mailto:, data:, javascript:
                continue
            if not url.path:  # "#fragment" on this page
                target = path
            else:
                target = (path.parent / unquote(url.path)).resolve()
                if not target.is_relative_to(root):
                    beside = target.is_relative_to(root.parent)
                    rest = target.relative_to(root.parent).as_posix() if beside else ""
                    if rest.startswith(SITE_APPS):
                        site_links += 1
                        if site and not target.exists():
                            problems.append(f"{where}: {value} names no file of the site")
                        continue
                    problems.append(f"{where}: {value} leaves the documentation")
                    continue
                if target.is_dir():
                    target = target / "index.html"
            checked += 1
            if not target.exists():
                problems.append(f"{where}: {value} names no file of the build")
                continue
            fragment = unquote(url.fragment)
            if fragment and target.suffix == ".html" and fragment not in page(target).ids:
                problems.append(f"{where}: {value} names no anchor of its page")
    return problems, checked, site_links


def main(argv: list[str] | None = None) -> int:
    """Command line: check a build folder, print the problems, exit 1 on any."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path, help="the HTML build folder (build/docs/html)")
    parser.add_argument(
        "--site",
        action="store_true",
        help="the folder is the static site's docs/: check the links into its apps too",
    )
    args = parser.parse_args(argv)
    if not (args.html / "index.html").exists():
        print(f"{args.html} holds no built documentation (index.html)", file=sys.stderr)
        return 1
    problems, checked, site = check(args.html, site=args.site)
    pages = sum(1 for _ in _pages(args.html))
    for line in problems:
        print(line)
    print(
        f"docs links: {pages} pages, {checked} internal links checked, {site} into the static "
        f"site's apps, {len(problems)} problems"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
