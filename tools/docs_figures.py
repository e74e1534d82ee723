"""Write the documentation's figures from the recorded result files, never by hand.

The search bot's strength is recorded game by game in ``results/strength/`` (one JSON line
per game, written by ``tools/strength.py --journal``). This module reads those journals and
makes the Markdown tables that ``tools/docs_generated.py`` writes into the pages (the
``strength:…`` regions of ``docs/bots.md``); run alone, it writes them into
``docs/_generated/`` for a look. The package's layers
(docs/architecture.md) are drawn from the layers contract that the tests enforce
(``[tool.importlinter]`` in ``pyproject.toml``), with the imports the code makes today
(found by grimp, import-linter's import graph)::

    python tools/docs_figures.py                     # writes docs/_generated/*.md
    python tools/docs_figures.py --out DIR           # somewhere else
    python tools/docs_figures.py --compare NEW.jsonl OLD.jsonl   # one paired row, printed

Every table says which command measures its rows again. A new journal gets a row by adding
it to one of the lists below (``NOW``, ``ISSUE_23``, ``OLD_GREEDY``, ``KEPT``, ``TRIED``).
"""

from __future__ import annotations

import argparse
import html
import json
import math
import statistics
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from ttr_nb.tournament import wilson_interval  # noqa: E402

RESULTS = REPO / "results" / "strength"
MAP_NAMES = {
    "usa": "USA",
    "germany": "Germany",
    "maerklin": "Märklin",
    "world": "World",
    "europe": "Europe",
}
SEARCH, GREEDY = 0, 1  # entrants of tools/strength.py: search-cpu:BUDGET against greedy

# (label, journal under results/strength/). The search on main: it guesses the opponents'
# tickets from their claims, against the greedy bot of issue 23, 1 s of CPU a move.
NOW = [
    ("USA", "issue-23/usa-1s-guess.jsonl"),
    ("Germany", "issue-23/germany-1s-guess.jsonl"),
    ("Märklin", "issue-23/maerklin-1s-guess.jsonl"),
    ("World", "issue-23/world-1s-guess.jsonl"),
    ("Europe", "issue-44/europe-1s.jsonl"),
]
# Every search of issue 23 against the greedy bot of issue 23, on the same seeds.
ISSUE_23 = [
    ("USA, first search (faster from game 105)", "issue-23/usa-1s.jsonl"),
    ("USA, tickets guessed", "issue-23/usa-1s-guess.jsonl"),
    ("Germany, first search", "issue-23/germany-1s.jsonl"),
    ("Germany, faster search", "issue-23/germany-1s-fast.jsonl"),
    ("Germany, tickets guessed", "issue-23/germany-1s-guess.jsonl"),
    ("Märklin, first search (faster from game 109)", "issue-23/maerklin-1s.jsonl"),
    ("Märklin, tickets guessed", "issue-23/maerklin-1s-guess.jsonl"),
    ("World, first search", "issue-23/world-1s.jsonl"),
    ("World, faster search", "issue-23/world-1s-fast.jsonl"),
    ("World, tickets guessed", "issue-23/world-1s-guess.jsonl"),
]
# Issue 12: the first search against the greedy bot of that time (budgets in CPU seconds).
OLD_GREEDY = [
    ("USA, 1 s", "usa-1s.jsonl"),
    ("USA, 3 s", "usa-3s.jsonl"),
    ("USA, 0.3 s", "usa-0.3s.jsonl"),
    ("USA, 0.1 s", "usa-0.1s.jsonl"),
    ("Germany, 1 s", "germany-1s.jsonl"),
    ("Märklin, 1 s", "maerklin-1s.jsonl"),
    ("World, 1 s", "world-1s.jsonl"),
    ("USA, 0.1 s, before the evidence rule", "before-min-evidence/usa-0.1s.jsonl"),
    ("USA, 1 s, before the evidence rule", "before-min-evidence/usa-1s.jsonl"),
]
# (change, new journal, the journal it is compared with on the same seeds)
KEPT = [
    (
        "Faster play-outs (the same moves, more worlds a second)",
        "issue-23/germany-1s-fast.jsonl",
        "issue-23/germany-1s.jsonl",
    ),
    (
        "Faster play-outs (the same moves, more worlds a second)",
        "issue-23/world-1s-fast.jsonl",
        "issue-23/world-1s.jsonl",
    ),
    (
        "Opponents' tickets guessed from their claims",
        "issue-23/germany-1s-guess.jsonl",
        "issue-23/germany-1s-fast.jsonl",
    ),
    (
        "Opponents' tickets guessed from their claims",
        "issue-23/world-1s-guess.jsonl",
        "issue-23/world-1s-fast.jsonl",
    ),
    (
        "Opponents' tickets guessed from their claims",
        "issue-23/world-1s-guess.jsonl",
        "issue-23/world-1s.jsonl",
    ),
    (
        "Opponents' tickets guessed from their claims",
        "issue-23/maerklin-1s-guess.jsonl",
        "issue-23/maerklin-1s.jsonl",
    ),
    (
        "Opponents' tickets guessed from their claims",
        "issue-23/usa-1s-guess.jsonl",
        "issue-23/usa-1s.jsonl",
    ),
]
TRIED = [
    (
        "A verdict on fresh worlds (the last 40% of the budget judges)",
        "issue-23/germany-1s-verdict.jsonl",
        "issue-23/germany-1s.jsonl",
    ),
    (
        "A verdict on fresh worlds (the last 40% of the budget judges)",
        "issue-23/world-1s-verdict.jsonl",
        "issue-23/world-1s.jsonl",
    ),
    (
        "Harbors built in the play-outs",
        "issue-23/world-1s-rollout-harbors.jsonl",
        "issue-23/world-1s.jsonl",
    ),
    (
        "Every ticket choice left to the greedy bot's rule",
        "issue-23/germany-1s-greedy-tickets.jsonl",
        "issue-23/germany-1s.jsonl",
    ),
    (
        "Every ticket choice left to the greedy bot's rule",
        "issue-23/world-1s-greedy-tickets.jsonl",
        "issue-23/world-1s.jsonl",
    ),
    (
        "Later moves branch only after 16 visits",
        "issue-23/germany-1s-expand16.jsonl",
        "issue-23/germany-1s-fast.jsonl",
    ),
    (
        "One useful face-up draw among the candidates",
        "issue-23/germany-1s-few-draws.jsonl",
        "issue-23/germany-1s-fast.jsonl",
    ),
    (
        "A departure must beat greedy's move by 2 standard errors, not 1",
        "issue-23/world-1s-z2.jsonl",
        "issue-23/world-1s-fast.jsonl",
    ),
]

NOTE = "<!-- Written by tools/docs_figures.py from results/strength/: do not edit. -->\n\n"
LAYERS_NOTE = (
    "<!-- Written by tools/docs_figures.py from pyproject.toml's layers contract and the "
    "package's imports: do not edit. -->\n\n"
)


@dataclass(frozen=True)
class Journal:
    """The games of one strength journal, by game number (a game played twice counts once)."""

    path: Path
    map: str
    budget: str
    games: dict[int, dict]

    @property
    def name(self) -> str:
        """The journal's path below ``results/strength/``."""
        path = self.path.resolve()
        return path.relative_to(RESULTS).as_posix() if path.is_relative_to(RESULTS) else str(path)


def read_journal(path: Path) -> Journal:
    """Read a journal of ``tools/strength.py`` (one JSON line per game).

    Parameters
    ----------
    path : Path
        The ``.jsonl`` file.

    Returns
    -------
    Journal
        Its games by number; the map and budget come from the lines' ``row`` field
        (``"usa@1"``).
    """
    games: dict[int, dict] = {}
    rows = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
            record = entry["record"]
            games[record["number"]] = record
            rows.add(entry["row"])
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}: line {number} is not a journal entry ({exc})") from None
    if len(rows) != 1:
        raise SystemExit(f"{path}: expected one row (map@budget), found {sorted(rows)}")
    map_name, budget = rows.pop().split("@")
    return Journal(path, map_name, budget, games)


def _share(record: dict, entrant: int) -> float:
    """The entrant's part of the win: 1, 1/k for a win shared by k, or 0."""
    for seat, s in enumerate(record["seats"]):
        if s["entrant"] == entrant:
            return 1 / len(record["winners"]) if seat in record["winners"] else 0.0
    raise ValueError(f"game {record['number']} has no entrant {entrant}")


def _seat(record: dict, entrant: int) -> dict:
    return next(s for s in record["seats"] if s["entrant"] == entrant)


def _margin(record: dict) -> int:
    """The search's final score minus greedy's."""
    return _seat(record, SEARCH)["score"]["total"] - _seat(record, GREEDY)["score"]["total"]


def _num(value: float) -> str:
    return f"{value:g}"


def _strength_command(journal: Journal, games: int) -> str:
    return (
        f"`python tools/strength.py --maps {journal.map} --budgets {journal.budget} "
        f"--games {games} --journal NEW.jsonl`"
    )


def strength_table(rows: list[tuple[str, str]]) -> str:
    """A Markdown table of search-against-greedy journals, one row each.

    Parameters
    ----------
    rows : list of (str, str)
        A label and a journal path below ``results/strength/``.

    Returns
    -------
    str
        The table: games, the search's wins (a shared win counts half), its win rate with
        a 95% Wilson interval, mean scores, tickets kept and failed a game, the journal
        and, under the table, the command that plays each row again.
    """
    lines = [
        "| search against greedy | games | search wins | win rate (95% Wilson interval) "
        "| mean score, search vs greedy | tickets kept / failed a game, search vs greedy "
        "| journal |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    again = []
    for label, name in rows:
        journal = read_journal(RESULTS / name)
        games = list(journal.games.values())
        n = len(games)
        wins = sum(_share(g, SEARCH) for g in games)
        low, high = wilson_interval(wins, n)
        cells = []
        for entrant in (SEARCH, GREEDY):
            seats = [_seat(g, entrant) for g in games]
            score = statistics.mean(s["score"]["total"] for s in seats)
            kept = sum(len(s["tickets"]) for s in seats) / n
            failed = sum(not ok for s in seats for _, ok in s["tickets"]) / n
            cells.append((f"{score:.1f}", f"{kept:.1f} / {failed:.1f}"))
        lines.append(
            f"| {label} | {n} | {_num(wins)} | {wins / n:.1%} [{low:.1%}, {high:.1%}] "
            f"| {cells[0][0]} vs {cells[1][0]} | {cells[0][1]} vs {cells[1][1]} "
            f"| `{journal.name}` |"
        )
        again.append(f"- {label}: {_strength_command(journal, n)}")
    return "\n".join(lines) + "\n\nMeasured again by:\n\n" + "\n".join(again) + "\n"


@dataclass(frozen=True)
class Paired:
    """Two journals compared on the seeds both played (game numbers alike: same deal)."""

    games: int
    new_wins: float
    old_wins: float
    to_new: int  # games whose outcome moved towards the new search
    to_old: int
    margin: float  # mean of (new margin - old margin), points a game
    margin_se: float  # its standard error
    sign_p: float  # two-sided sign test on the games whose outcome changed


def compare(new: Journal, old: Journal) -> Paired:
    """Compare two searches game by game on the seeds both journals hold.

    Parameters
    ----------
    new, old : Journal
        Journals of the same map (their game numbers are the same deals).

    Returns
    -------
    Paired
        Wins of each on the common games, how many outcomes moved either way, the mean
        change in the search's margin over greedy with its standard error, and the sign
        test's two-sided p-value.

    Examples
    --------
    >>> j = read_journal(RESULTS / "issue-23" / "usa-1s-guess.jsonl")
    >>> same = compare(j, j)
    >>> same.games, same.to_new, same.to_old, same.margin
    (200, 0, 0, 0)
    """
    if new.map != old.map:
        raise ValueError(f"{new.name} is {new.map}, {old.name} is {old.map}")
    common = sorted(set(new.games) & set(old.games))
    a = [_share(new.games[i], SEARCH) for i in common]
    b = [_share(old.games[i], SEARCH) for i in common]
    diffs = [_margin(new.games[i]) - _margin(old.games[i]) for i in common]
    to_new = sum(x > y for x, y in zip(a, b, strict=True))
    to_old = sum(x < y for x, y in zip(a, b, strict=True))
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    margin = statistics.mean(diffs) if diffs else math.nan
    return Paired(
        len(common), sum(a), sum(b), to_new, to_old, margin, se, sign_test(to_new, to_old)
    )


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: how likely a split this uneven is when both are equal.

    Examples
    --------
    >>> round(sign_test(51, 30), 3)
    0.026
    >>> sign_test(0, 0)
    1.0
    """
    n = wins + losses
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def _p(value: float) -> str:
    return f"{value:.3f}" if value < 0.01 else f"{value:.2f}"


def paired_table(rows: list[tuple[str, str, str]]) -> str:
    """A Markdown table of paired comparisons, one row per (change, new, old) journal."""
    lines = [
        "| change | map | games (same seeds) | won, with it | won, without it "
        "| outcomes changed: to it / away | margin over greedy, with against without "
        "| sign test p | journals |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, new_name, old_name in rows:
        new, old = read_journal(RESULTS / new_name), read_journal(RESULTS / old_name)
        p = compare(new, old)
        lines.append(
            f"| {label} | {MAP_NAMES.get(new.map, new.map)} | {p.games} | {_num(p.new_wins)} "
            f"| {_num(p.old_wins)} | {p.to_new} / {p.to_old} "
            f"| {p.margin:+.1f} ± {p.margin_se:.1f} points | {_p(p.sign_p)} "
            f"| `{new.name}` against `{old.name}` |"
        )
    return "\n".join(lines) + "\n"


STRENGTH_AGAIN = (
    "\nEach command plays the search of "
    "the code checked out against greedy on the same seeds (2 players, seats alternating, "
    "the budget in CPU seconds a move) and journals each game in `NEW.jsonl`; "
    "`--workers N` runs N games at once. With the row's own journal and `--report` it prints "
    "the row from the recorded games instead.\n"
)
PAIRED_AGAIN = (
    "\n± one standard error. A row is measured again by playing the change's search into a "
    "new journal (`python tools/strength.py --maps MAP --budgets 1 --games N --journal "
    "NEW.jsonl`) and comparing it game by game with the other journal: "
    "`python tools/docs_figures.py --compare NEW.jsonl results/strength/OLD.jsonl`.\n"
)


# ------------------------------------------------------------------ the layers
def layers() -> list[list[str]]:
    """The layers of the contract in ``pyproject.toml``, top first, each a list of modules.

    Examples
    --------
    >>> layers()[-1]
    ['ttr_nb.algorithms']
    """
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return [_split(layer)[0] for layer in contract["layers"]]


def _split(layer: str) -> tuple[list[str], bool]:
    """A layer's modules, and whether they are independent of each other (``a | b``)."""
    independent = ":" not in layer
    return [m.strip() for m in layer.split("|" if independent else ":")], independent


def _independent() -> list[bool]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return [_split(layer)[1] for layer in contract["layers"]]


ENGINE = {"ttr_nb.game", "ttr_nb.rules", "ttr_nb.maps", "ttr_nb.actions", "ttr_nb.state"}
ENGINE |= {"ttr_nb.projection", "ttr_nb.errors", "ttr_nb.validation"}


def _short(module: str) -> str:
    return module.removeprefix("ttr_nb.")


def layers_table() -> str:
    """A Markdown table: each package, the packages it may import, those it imports today."""
    import grimp

    graph = grimp.build_graph("ttr_nb")
    stack = layers()
    independent = _independent()
    lines = [
        "| layer (top first) | package | may import the layers | imports today |",
        "| --- | --- | --- | --- |",
    ]
    for depth, layer in enumerate(stack):
        below = [m for lower in stack[depth + 1 :] for m in lower]
        if depth + 1 == len(stack):
            may = "none: it stands alone"
        else:
            may = f"{depth + 2} to {len(stack)}" if depth + 2 < len(stack) else f"{depth + 2}"
            if len(layer) > 1:
                may += ", not each other" if independent[depth] else ", and each other"
                below = below + layer
        for module in layer:
            imported = set()
            for importer in {module} | graph.find_descendants(module):
                for target in graph.find_modules_directly_imported_by(importer):
                    owner = next(
                        (m for m in below if target == m or target.startswith(m + ".")), None
                    )
                    if owner is not None:
                        imported.add(owner)
            now = ", ".join(f"`{_short(m)}`" for m in below if m in imported and m != module)
            now = now or "–"
            lines.append(f"| {depth + 1} | `{_short(module)}` | {may} | {now} |")
    return "\n".join(lines) + "\n"


def layers_svg() -> str:
    """An SVG drawing of the layers, top first, siblings side by side, arrows pointing down."""
    stack = layers()
    width, row, gap, left = 760, 40, 20, 150
    height = len(stack) * (row + gap) - gap + 20
    engine = [d for d, layer in enumerate(stack) if set(layer) & ENGINE]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-labelledby="t">',
        '<title id="t">The layers of ttr_nb, top first: each may import only the layers '
        "below it</title>",
        "<style>text{font:14px sans-serif;fill:#1b1b1b}.n{font-size:13px;fill:#444}"
        "rect{stroke-width:1.5}.e{fill:#e8f0fb;stroke:#1a5fb4}.b{fill:#fdf1dc;stroke:#a15c00}"
        ".p{fill:#eef7ec;stroke:#2e7d32}.g{fill:#f4f6f9;stroke:#c0c8d4;stroke-dasharray:4 3}"
        "line{stroke:#777;stroke-width:1.5}</style>",
        '<defs><marker id="a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" fill="#777"/></marker></defs>',
    ]

    def top(depth: int) -> int:
        return 10 + depth * (row + gap)

    y0, y1 = top(engine[0]) - 8, top(engine[-1]) + row + 8
    parts.append(f'<rect class="g" x="4" y="{y0}" width="{width - 8}" height="{y1 - y0}" rx="8"/>')
    parts.append(f'<text class="n" x="14" y="{y0 + 22}">engine</text>')
    parts.append(f'<text class="n" x="14" y="{top(0) + 17}">entry points,</text>')
    parts.append(f'<text class="n" x="14" y="{top(0) + 33}">beside the layers</text>')
    for depth, layer in enumerate(stack):
        y = top(depth)
        kind = "b" if depth == 0 else ("e" if depth in engine else "p")
        cell = (width - left - 14 - 8 * (len(layer) - 1)) / len(layer)
        for i, module in enumerate(layer):
            x = left + i * (cell + 8)
            parts.append(
                f'<rect class="{kind}" x="{x:.0f}" y="{y}" width="{cell:.0f}" height="{row}" '
                'rx="6"/>'
            )
            parts.append(
                f'<text x="{x + cell / 2:.0f}" y="{y + row / 2 + 5}" text-anchor="middle">'
                f"{html.escape(_short(module))}</text>"
            )
        if depth + 1 < len(stack):
            mid = left + (width - left - 14) / 2
            parts.append(
                f'<line x1="{mid:.0f}" y1="{y + row}" x2="{mid:.0f}" y2="{y + row + gap - 2}" '
                'marker-end="url(#a)"/>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_all(out: Path) -> list[Path]:
    """Write every table into ``out`` and return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    tables = {
        "strength_now.md": strength_table(NOW) + STRENGTH_AGAIN,
        "strength_issue23.md": strength_table(ISSUE_23) + STRENGTH_AGAIN,
        "strength_old_greedy.md": strength_table(OLD_GREEDY) + STRENGTH_AGAIN,
        "strength_kept.md": paired_table(KEPT) + PAIRED_AGAIN,
        "strength_tried.md": paired_table(TRIED) + PAIRED_AGAIN,
    }
    files = {name: NOTE + text for name, text in tables.items()}
    files["layers.md"] = LAYERS_NOTE + layers_table()
    files["layers.svg"] = layers_svg()
    import colour_vision  # tools/colour_vision.py (docs/accessibility.md's colour tables)

    files["colour_vision.md"] = colour_vision.tables()
    written = []
    for name, text in files.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")  # unchanged files keep their time
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: write the tables, or print one paired comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "_generated")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("NEW", "OLD"))
    args = parser.parse_args(argv)
    if args.compare:
        new, old = (read_journal(p.resolve()) for p in args.compare)
        p = compare(new, old)
        print(
            f"{p.games} games on the same seeds: {_num(p.new_wins)} won by {args.compare[0]}, "
            f"{_num(p.old_wins)} by {args.compare[1]}; outcomes changed {p.to_new} / "
            f"{p.to_old} (sign test p = {_p(p.sign_p)}); margin {p.margin:+.1f} ± "
            f"{p.margin_se:.1f} points"
        )
        return 0
    for path in write_all(args.out):
        print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
