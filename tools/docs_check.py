"""Check what the user pages say: no figure typed by hand, no history, no build machine.

    python tools/docs_check.py              # every problem, one a line; exit 1 if any
    python tools/docs_check.py --figures    # every figure found on the user pages, and why
                                            # each is allowed (generated or listed)

**User pages** are the pages a learner, a teacher or whoever runs the server reads: the
README, the docs' front page (``docs/index.md``) and every page the toctrees of *Getting
started* (``docs/getting-started/index.md``), *Using ttr-nb* (``docs/using.md``) and
*Deployment* (``docs/deployment/index.md``) list, at any depth. A page added to one of those
toctrees is a user page from then on. The *Inside* and *Research and measurements* sections
are not: measurements, with the command that repeats them, and history (``CHANGELOG.md``)
live there.

On a user page, outside generated regions (``<!-- gen:NAME -->…<!-- /gen -->``, written and
checked by ``tools/docs_generated.py``), HTML comments and directives' option lines
(``:width: 100%``), the check refuses:

* **a figure**: a number (``12``, ``1,500``, ``0.27``, a range ``1.2–3.0`` or ``2 to 5``)
  followed by a unit of time (``ns µs ms s sec min h`` and the words ``seconds``, ``minutes``,
  ``hours``, ``days``), of data (``B kB KB MB GB TB KiB MiB GiB TiB``, ``bytes``), of screen
  size (``px``), a percentage (``%``, ``per cent``; not a confidence level: ``95% interval``)
  or a factor (``×`` or ``x`` right after the number and not followed by one, as in ``2.4×``
  but not ``1366×768``; ``times``); and a count ``N of M`` (``139 of 200``);
* **history**: ``issue N`` (which change did what belongs in ``CHANGELOG.md``);
* **the build machine**: its load (``load average``, ``other work``, ``other jobs``,
  ``other engineers``, ``shared machine``, ``busy machine``, ``N-core machine``,
  ``this project's machine``, ``nice N``).

A figure that is not a measurement (a rule of the game, a setting, a goal, a fact about
another project, an example, or a figure a test checks against the build) is allowed by an
entry of ``docs/allowed-figures.toml``: the page, the exact text around the figure, its kind
and why. A ``setting`` entry may name its ``source`` (``voila.json:Section.key`` or
``module:NAME``), and then its first number must equal that value. An entry that no longer
matches its page is a problem too, so the list cannot go stale. CONTRIBUTING.md says how to
choose between generating a figure, listing it and moving it to a measurements page.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
ALLOWED = DOCS / "allowed-figures.toml"
FRONT_PAGES = ("README.md", "docs/index.md")
USER_SECTIONS = ("docs/getting-started/index.md", "docs/using.md", "docs/deployment/index.md")
KINDS = {
    "rule": "a rule of the game or a house rule, as the engine plays it",
    "setting": "a value the code or voila.json sets (name its source when it has one)",
    "goal": "a target a test or a benchmark holds the code to",
    "external": "a fact about another project, a library or a standard",
    "example": "an example value a reader types or sees, not a result",
    "checked": "a measured figure that a named test compares with the build",
}

# A region; one quoted in inline code (a backtick right before it) is an example, not a region.
GENERATED = re.compile(
    r"(?<!`)<!--\s*gen:(?P<name>[\w.:/-]+)\s*-->(?P<body>.*?)<!--\s*/gen\s*-->", re.S
)
COMMENT = re.compile(r"<!--.*?-->", re.S)
OPTION = re.compile(r"^[ \t]*:[\w-]+:.*$", re.M)  # a directive's option line (":width: 100%")
NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
SPACE = "[ \u00a0\u202f]?"
UNIT = (
    r"ns|µs|us|ms|s|sec|secs|seconds?|min|minutes?|h|hours?|days?"
    r"|B|bytes|kB|KB|MB|GB|TB|KiB|MiB|GiB|TiB|px"
    r"|%|per cent|times"
)
FIGURE = re.compile(
    rf"(?<![\w.,/:=+\-])(?P<n>{NUMBER})(?:{SPACE}(?:–|-|to){SPACE}(?:{NUMBER}))?"
    rf"(?:{SPACE}(?P<unit>{UNIT})|(?P<x>[x×]))(?![\w])(?![ \u00a0]?\d)"
    rf"|(?<![\w.,])(?:{NUMBER}) of (?:{NUMBER})(?![\w.,]*\d)"
)
CONFIDENCE = re.compile(r"\s*(?:Wilson\s+)?(?:confidence\s+)?interval|\s*confidence", re.I)
HISTORY = re.compile(r"\bissues? #?\d+", re.I)
MACHINE = re.compile(
    r"load average|other work\b|other jobs|other engineers|shared machine|busy machine"
    r"|\b\d+-core machine|this project's (?:development )?machine|\bnice \d+|`nice",
    re.I,
)


@dataclass(frozen=True)
class Finding:
    """Something a user page says that the check refuses (or an allowed figure)."""

    page: str  # path from the repository root
    line: int
    kind: str  # "figure", "history", "machine" or "allowed-figures.toml"
    text: str
    context: str

    def __str__(self) -> str:
        what = {
            "figure": "a figure typed by hand",
            "history": "history on a user page (it belongs in CHANGELOG.md)",
            "machine": "the build machine's load on a user page",
        }.get(self.kind, self.kind)
        return f"{self.page}:{self.line}: {what}: {self.text!r} in “{self.context}”"


# ------------------------------------------------------------------ which pages
def toctree_entries(page: Path) -> list[Path]:
    """The pages a Markdown page's toctrees list, as files."""
    text = page.read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```\{toctree\}\n(.*?)```", text, re.S):
        for line in block.splitlines():
            entry = line.strip()
            if not entry or entry.startswith(":"):
                continue
            base = DOCS if entry.startswith("/") else page.parent
            stem = base / entry.lstrip("/")
            for suffix in (".md", ".rst", ".ipynb"):
                if stem.with_suffix(suffix).exists():
                    found.append(stem.with_suffix(suffix))
                    break
    return found


def user_pages() -> list[Path]:
    """The README, the docs' front page and every page under the user sections' toctrees."""
    pages = [REPO / p for p in FRONT_PAGES]
    todo = [REPO / p for p in USER_SECTIONS]
    while todo:
        page = todo.pop(0)
        if page in pages:
            continue
        pages.append(page)
        if page.suffix == ".md":
            todo.extend(toctree_entries(page))
    return [p for p in pages if p.suffix == ".md"]


def _name(page: Path) -> str:
    return page.relative_to(REPO).as_posix()


# ------------------------------------------------------------------ what a page says
def _blank(match: re.Match[str]) -> str:
    """The matched text with everything but its line breaks blanked (lines keep numbers)."""
    return re.sub(r"[^\n]", " ", match.group(0))


def readable_text(text: str) -> str:
    """The page as checked: generated regions and HTML comments blanked."""
    return OPTION.sub(_blank, COMMENT.sub(_blank, GENERATED.sub(_blank, text)))


def findings(page: Path, text: str | None = None) -> list[Finding]:
    """Every figure, history reference and machine mention on ``page`` (allowed or not)."""
    text = page.read_text(encoding="utf-8") if text is None else text
    shown = readable_text(text)
    found = []
    for number, line in enumerate(shown.splitlines(), 1):
        for kind, pattern in (("figure", FIGURE), ("history", HISTORY), ("machine", MACHINE)):
            for match in pattern.finditer(line):
                percent = kind == "figure" and match.group("unit") == "%"
                if percent and CONFIDENCE.match(line, match.end()):
                    continue  # "95% interval": a confidence level, not a result
                context = line[max(0, match.start() - 50) : match.end() + 30].strip()
                found.append(Finding(_name(page), number, kind, match.group(0), context))
    return found


# ------------------------------------------------------------------ the reviewed list
@dataclass(frozen=True)
class Allowed:
    """One entry of docs/allowed-figures.toml."""

    page: str
    text: str
    kind: str
    why: str
    source: str = ""
    scale: float = 1.0  # the text's number times this is the source's value (ms: 1000)


def read_allowed(path: Path = ALLOWED) -> list[Allowed]:
    """The entries of the reviewed list (an empty list when the file is missing)."""
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [Allowed(**entry) for entry in data.get("allow", [])]


def source_value(source: str) -> float:
    """The value a ``setting`` entry names: ``voila.json:Section.key`` or ``module:NAME``."""
    where, _, key = source.partition(":")
    if where.endswith(".json"):
        value = json.loads((REPO / where).read_text(encoding="utf-8"))
        for part in key.split("."):
            value = value[part]
    else:
        sys.path.insert(0, str(REPO))
        value = importlib.import_module(where)
        for part in key.split("."):
            value = value[part] if isinstance(value, dict) else getattr(value, part)
    return float(getattr(value, "default_value", value))  # a traitlets setting: its default


def _first_number(text: str) -> float:
    match = re.search(NUMBER, text)
    return float(match.group(0).replace(",", "")) if match else float("nan")


def problems(pages: list[Path] | None = None, allowed: list[Allowed] | None = None) -> list[str]:
    """Everything the user pages say that the check refuses, and the list's own problems.

    Parameters
    ----------
    pages : list of Path, optional
        The pages to check (default: :func:`user_pages`).
    allowed : list of Allowed, optional
        The reviewed list (default: ``docs/allowed-figures.toml``).

    Returns
    -------
    list of str
        One sentence per problem, naming the page and the line.
    """
    pages = user_pages() if pages is None else pages
    allowed = read_allowed() if allowed is None else allowed
    by_page: dict[str, list[Allowed]] = {}
    out = []
    names = {_name(p) for p in pages}
    for entry in allowed:
        by_page.setdefault(entry.page, []).append(entry)
        if entry.kind not in KINDS:
            out.append(
                f"{ALLOWED.name}: {entry.text!r}: kind {entry.kind!r} is not one of {sorted(KINDS)}"
            )
        if not entry.why.strip():
            out.append(f"{ALLOWED.name}: {entry.text!r} says no why")
        if entry.page not in names and (REPO / entry.page).exists():
            out.append(f"{ALLOWED.name}: {entry.page} is not a user page (nothing to allow there)")
        if entry.source:
            try:
                value = source_value(entry.source)
            except (KeyError, AttributeError, ImportError, OSError, ValueError) as exc:
                out.append(
                    f"{ALLOWED.name}: {entry.text!r}: source {entry.source} not found ({exc})"
                )
            else:
                if abs(_first_number(entry.text) * entry.scale - value) > 1e-9 * max(1, value):
                    out.append(
                        f"{entry.page}: {entry.text!r} says {_first_number(entry.text):g} but "
                        f"{entry.source} is {value:g}"
                        + (f" (× {entry.scale:g})" if entry.scale != 1 else "")
                    )
    for page in pages:
        name = _name(page)
        text = page.read_text(encoding="utf-8")
        shown = readable_text(text)
        starts = _line_starts(shown)
        found = findings(page, text)
        spans_of = {}
        for entry in by_page.get(name, []):
            spans_of[entry] = [
                (m.start(), m.end()) for m in re.finditer(re.escape(entry.text), shown)
            ]
            if not spans_of[entry]:
                out.append(f"{ALLOWED.name}: {entry.text!r} is no longer on {name}: drop the entry")
            elif not any(_inside(f, shown, starts, spans_of[entry]) for f in found):
                out.append(f"{ALLOWED.name}: {entry.text!r} on {name} holds no figure to allow")
        spans = [span for entry, s in spans_of.items() if entry.kind in KINDS for span in s]
        for finding in found:
            if finding.kind == "figure" and _inside(finding, shown, starts, spans):
                continue
            out.append(str(finding))
    for name in {e.page for e in allowed} - names:
        if not (REPO / name).exists():
            out.append(f"{ALLOWED.name}: {name} does not exist")
    return out


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def _inside(finding: Finding, text: str, starts: list[int], spans: list[tuple[int, int]]) -> bool:
    """Whether the finding lies inside an allowed text of its page."""
    line_start = starts[finding.line - 1]
    line_end = text.find("\n", line_start)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    for match in re.finditer(re.escape(finding.text), line):
        at = line_start + match.start()
        if any(a <= at and at + len(finding.text) <= b for a, b in spans):
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    """Command line: print the problems (exit 1 if any), or every figure found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--figures", action="store_true", help="list every figure found")
    args = parser.parse_args(argv)
    if args.figures:
        for page in user_pages():
            for finding in findings(page):
                print(finding)
        return 0
    found = problems()
    for problem in found:
        print(problem)
    print(f"{len(found)} problems on {len(user_pages())} user pages", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
