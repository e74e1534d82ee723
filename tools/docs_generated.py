"""The documentation's generated text: lists and figures written into the Markdown from the code.

    python tools/docs_generated.py            # rewrite every generated region that changed
    python tools/docs_generated.py --check    # list the stale ones; exit 1 if any
    python tools/docs_generated.py --list     # every generator's name and what it writes

A page holds a generated region between two HTML comments, inline
(``five maps (<!-- gen:maps.names -->USA, …<!-- /gen -->)``) or as a block::

    <!-- gen:bots.table -->

    | name | plays | ... |

    <!-- /gen -->

The text between them is the generator's output, committed with the page, so it reads the
same on the repository host as in the built site; the comments show on neither. The docs
build and ``tests/test_docs.py`` refuse a region whose text is not what its generator writes
now, so a page cannot drift from the code: after a change, run this script and commit the
pages it rewrote. A generator takes its facts from the code (the maps, the lessons, the bots,
the variants, the settings) or from ``results/`` (the journals of ``tools/docs_figures.py``),
never from a number typed here. Some files are generated whole (the layers drawing), listed
in :data:`FILES`.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import re
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

import docs_figures  # noqa: E402
from docs_check import GENERATED  # noqa: E402

PAGES = ("README.md", "CONTRIBUTING.md", "docs")  # where regions may be
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


# ------------------------------------------------------------------ maps and variants
def maps_in_order() -> list[str]:
    """The playable maps, in the order their rules were added (USA first), then by id."""
    from ttr_nb.maps import load_map
    from ttr_nb.rules import VARIANTS, playable_maps

    order = list(VARIANTS)
    return sorted(playable_maps(), key=lambda m: (order.index(load_map(m).rules), m))


def _map_name(map_id: str) -> str:
    from ttr_nb.maps import load_map

    return load_map(map_id).name


def _and(items: list[str]) -> str:
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)


def maps_names(_: str = "") -> str:
    """The playable maps by name: ``USA, Germany, … and Europe``."""
    return _and([_map_name(m) for m in maps_in_order()])


def maps_others(_: str = "") -> str:
    """The playable maps but the first (USA), by name."""
    return _and([_map_name(m) for m in maps_in_order()[1:]])


def maps_count(_: str = "") -> str:
    """How many maps are playable, in words."""
    n = len(maps_in_order())
    return WORDS.get(n, str(n))


def maps_ids(_: str = "") -> str:
    """The playable maps' ids as code: ```usa`, `germany`, …``."""
    return ", ".join(f"`{m}`" for m in maps_in_order())


def _tutorials() -> dict[str, int]:
    """Steps of each map's tutorial (the tutorials register when the app's package loads)."""
    import ttr_nb.widgets.app  # noqa: F401  (registers every tutorial)
    from ttr_nb.widgets.tutorial import TUTORIALS

    return {m: len(TUTORIALS[m]().steps) for m in maps_in_order() if m in TUTORIALS}


def tutorial_steps(_: str = "") -> str:
    """Each tutorial's number of steps: ``USA 15 steps, Germany 17, …``."""
    steps = _tutorials()
    parts = [f"{_map_name(m)} {n}" for m, n in steps.items()]
    return (parts[0] + " steps, " + ", ".join(parts[1:])) if parts else ""


def rules_classes(_: str = "") -> str:
    """The variants' rules classes, besides the base rules: ```GermanyRules`, …``."""
    from ttr_nb.rules import VARIANTS, Rules

    return ", ".join(f"`{cls.__name__}`" for cls in VARIANTS.values() if cls is not Rules)


def _module_path(obj: object) -> str:
    module = inspect.getmodule(obj)
    return Path(module.__file__).relative_to(REPO).as_posix() if module and module.__file__ else ""


def variants_table(_: str = "") -> str:
    """Every variant across the layers: its maps, rules, bots' advice, coach, app, lessons."""
    import importlib.util

    from ttr_nb.coach.variants import VARIANT_HINTS
    from ttr_nb.maps import load_map
    from ttr_nb.rules import VARIANTS
    from ttr_nb.teaching.curriculum import LESSONS
    from ttr_nb.widgets.variants.base import VARIANT_UIS, VariantUI

    tutorials = _tutorials()
    lines = [
        "| rules | maps | rules class | greedy bot's advice | coach's own hints "
        "| app's presentation | tutorial steps | rules lessons |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for rules, cls in VARIANTS.items():
        maps = [m for m in maps_in_order() if load_map(m).rules == rules]
        advice = importlib.util.find_spec(f"ttr_nb.bots.variants.{rules}")
        hints = VARIANT_HINTS.get(rules)
        ui = VARIANT_UIS.get(rules, VariantUI)
        prefix = f"rules_{rules}_"
        lessons = [lesson.notebook for lesson in LESSONS if lesson.notebook.startswith(prefix)]
        cells = [
            f"`{rules}`",
            ", ".join(f"`maps/{m}.json`" for m in maps),
            f"`{cls.__name__}` (`{_module_path(cls)}`)",
            f"`ttr_nb/bots/variants/{rules}.py`" if advice else "none: the base rules' play",
            f"`{hints.__name__}` in `ttr_nb/coach/variants.py`" if hints else "the common hints",
            f"`{ui.__name__}` (`{_module_path(ui)}`)",
            " ".join(str(tutorials[m]) for m in maps if m in tutorials) or "none",
            f"{len(lessons)} (`{prefix}*`)" if lessons else "none",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------ lessons
def _lessons() -> list:
    from ttr_nb.teaching.curriculum import LESSONS

    return list(LESSONS)


def lessons_count(kind: str = "") -> str:
    """How many lessons the course holds (``lessons.count:graphs``: the graph lessons,
    ``lessons.count:rules``: the rules parts)."""
    return str(sum(lesson.notebook.startswith(kind) for lesson in _lessons()))


def lessons_graphs_range(_: str = "") -> str:
    """The first and the last graph lesson: ```graphs_1_...` to `graphs_14_...```."""
    numbers = sorted(
        int(m.group(1))
        for lesson in _lessons()
        if (m := re.match(r"graphs_(\d+)_", lesson.notebook))
    )
    return f"`graphs_{numbers[0]}_...` to `graphs_{numbers[-1]}_...`"


def lessons_rules_limit(_: str = "") -> str:
    """The time a rules part may take at most (the course's own check)."""
    from ttr_nb.teaching.curriculum import check

    return f"{inspect.signature(check).parameters['rules_limit'].default} minutes"


def lessons_list(_: str = "") -> str:
    """Every lesson in teaching order, with its parts (``curriculum.course_list``)."""
    from ttr_nb.teaching.curriculum import course_list

    return course_list()


def lessons_table(_: str = "") -> str:
    """Every lesson in teaching order, linked to its notebook, with its exercises."""
    from ttr_nb.teaching.curriculum import estimate_minutes

    lines = ["| lesson | estimated time | exercises |", "| --- | --- | --- |"]
    for lesson in _lessons():
        minutes = estimate_minutes(REPO / "notebooks" / lesson.notebook)
        exercises = ", ".join(lesson.exercises) or "–"
        link = f"[{lesson.title}](../notebooks/{lesson.notebook})"
        lines.append(f"| {link} | {minutes} min | {exercises} |")
    return "\n".join(lines)


# ------------------------------------------------------------------ bots
def _first_sentence(text: str) -> str:
    text = " ".join((text or "").split())
    return text.split(". ")[0].rstrip(".") + "."


def bots_table(_: str = "") -> str:
    """The bots by name (the registry), what each plays (its class's first sentence) and its
    name in the app's *New game* (the app's seat choices)."""
    from ttr_nb.bots.registry import BOTS, BUDGETED, make_bot
    from ttr_nb.bots.search import DEFAULT_BUDGET
    from ttr_nb.widgets.setup import SEAT_KINDS

    in_app = {kind: label for label, kind in SEAT_KINDS}
    names: dict[object, list[str]] = {}
    for name, factory in BOTS.items():
        names.setdefault(factory, []).append(name)
    lines = ["| name | plays | in the app |", "| --- | --- | --- |"]
    for group in names.values():
        bot = make_bot(group[0])
        plays = _first_sentence(type(bot).__doc__ or "")
        if group[0] in BUDGETED:
            clock = "its own CPU time" if "cpu" in group[0] else "the wall clock"
            plays += (
                f" It thinks {DEFAULT_BUDGET:g} s a move by {clock}; "
                f"`{group[0]}:0.3` gives it another budget."
            )
        label = next((in_app[n] for n in group if n in in_app), "–")
        lines.append(f"| {', '.join(f'`{n}`' for n in group)} | {plays} | {label} |")
    return "\n".join(lines)


LEVEL_GAMES = 20  # 2-player games per map, seats alternating, seeds 0 to 19


def bots_levels(_: str = "") -> str:
    """The beginner bot against the greedy bot: games played when the docs are written."""
    from ttr_nb import new_game
    from ttr_nb.bots import make_bot, play_out

    lines = [
        "| map | games | greedy won | beginner won | tickets the beginner completed |",
        "| --- | --- | --- | --- | --- |",
    ]
    for map_id in maps_in_order():
        greedy = beginner = completed = kept = 0
        for seed in range(LEVEL_GAMES):
            kinds = ["greedy", "beginner"] if seed % 2 == 0 else ["beginner", "greedy"]
            bots = [make_bot(k, 10 * seed + i) for i, k in enumerate(kinds)]
            game = play_out(new_game(map_id, 2, seed=seed), bots)
            g, b = kinds.index("greedy"), kinds.index("beginner")
            winners = game.winners
            greedy += g in winners and len(winners) == 1
            beginner += b in winners and len(winners) == 1
            status = game.ticket_status(b)
            completed += sum(done for _, done in status)
            kept += len(status)
        lines.append(
            f"| {_map_name(map_id)} | {LEVEL_GAMES} | {greedy} | {beginner} "
            f"| {completed} of {kept} |"
        )
    return "\n".join(lines) + (
        f"\n\nSeeds 0 to {LEVEL_GAMES - 1}, 2 players, the greedy bot first in the even games; "
        "a shared win counts for neither. Played again by `python tools/docs_generated.py`."
    )


def search_budget(_: str = "") -> str:
    """How long the search bot of the app thinks a move."""
    from ttr_nb.bots.search import DEFAULT_BUDGET

    return f"{DEFAULT_BUDGET:g} s"


# ------------------------------------------------------------------ shared tables
def tables_guessing(part: str) -> str:
    """How long guessing a table's code takes, from the code alphabet and the limits."""
    from ttr_nb.tables.codes import ALPHABET, CODE_LENGTH
    from ttr_nb.tables.limits import Limits

    limits = Limits()
    codes = len(ALPHABET) ** CODE_LENGTH
    per_hour = 6 * limits.wrong_codes_per_address_10_minutes  # 60 in ten minutes, 360 an hour
    tables = limits.open_tables

    def hours(open_tables: int) -> float:
        return codes / (open_tables + 1) / per_hour

    def years(open_tables: int) -> str:
        return f"{hours(open_tables) / (24 * 365.25):.0f} years"

    def chance(open_tables: int) -> str:
        p = 1 - (1 - open_tables / codes) ** per_hour
        return f"{p:.2g}".replace("e-0", "e-") if p < 1e-6 else f"{100 * p:.2g}%"

    values = {
        "codes": f"{codes:,}",
        "alphabet": str(len(ALPHABET)),
        "length": str(CODE_LENGTH),
        "guesses": f"{codes / (tables + 1) / 1e6:.2f} million",
        "open": str(tables),
        "per-hour": str(per_hour),
        "hours": f"{hours(tables):,.0f} hours",
        "years": years(tables),
        "chance": chance(tables),
        "years-30": years(30),
        "chance-30": chance(30),
    }
    return values[part]


# ------------------------------------------------------------------ colour vision
def colour_vision_tables(_: str = "") -> str:
    """How far apart the colours stay for each kind of dichromat, and what tells the close
    ones apart (``tools/colour_vision.py``)."""
    import colour_vision

    text = colour_vision.tables()
    return "\n".join(line for line in text.splitlines() if not line.startswith("<!--")).strip()


# ------------------------------------------------------------------ grading (nbgrader)
GRADING_BENCH = REPO / "results" / "grading" / "bench.json"  # tools/assignments_bench.py writes it


def _course_settings() -> dict[str, str]:
    """What the course's ``nbgrader_config.py`` sets (``tools/assignments.py``'s template),
    by ``Class.trait``."""
    import assignments

    return dict(re.findall(r"^c\.(\w+\.\w+) = ([^#\n]+?)\s*(?:#.*)?$", assignments.CONFIG, re.M))


def grading_limit(name: str) -> str:
    """A limit of the course's grading: ``tmp`` (the sandbox's ``/tmp``), ``recover`` (how
    long an interrupted kernel may take to answer), ``cell`` and ``notebook`` (seconds),
    ``output-chars`` and ``output-lines`` (a cell's output), ``points`` (a graded cell's)."""
    import assignments
    import assignments_sandbox as sandbox

    settings = _course_settings()
    execute, kernels = sandbox.SandboxedExecute, sandbox.SandboxedKernelManager
    values = {
        "tmp": f"{kernels.tmp_mb.default_value} MiB",
        "recover": f"{execute.recover_timeout.default_value} s",
        "cell": settings["Execute.timeout"],
        "notebook": settings["SandboxedExecute.notebook_timeout"],
        "output-chars": f"{execute.max_output_chars.default_value:,}".replace(",", " "),
        "output-lines": settings["LimitOutput.max_lines"],
        "points": str(assignments.POINTS),
    }
    return values[name]


@functools.cache
def _course() -> dict[str, str]:
    """Each lesson with exercises: ``"assigned"`` or why ``make assignments`` leaves it out
    (the course is written into a temporary folder, without running nbgrader)."""
    import assignments

    with tempfile.TemporaryDirectory(prefix="ttr-docs-course-") as folder:
        return assignments.build_course(Path(folder), generate=False)


def grading_course(part: str) -> str:
    """What ``make assignments`` makes: ``count`` (the assignments) or ``left-out`` (the
    lessons with exercises it leaves out; why, when they are left out for different reasons)."""
    outcome = _course()
    if part == "count":
        return str(sum(why == "assigned" for why in outcome.values()))
    left: dict[str, list[str]] = {}
    for name, why in outcome.items():
        if why != "assigned":
            left.setdefault(why, []).append(f"`{name}`")
    if len(left) == 1:  # one reason, which the page gives
        return _and(next(iter(left.values())))
    return "; ".join(f"{_and(names)} ({why})" for why, names in left.items()) or "none"


def grading_bench(part: str) -> str:
    """``make bench-assignments``' last run (``results/grading/bench.json``): ``table`` (each
    step's time for each lesson measured, as the benchmark prints it, and the grades it got)
    or ``machine`` (when, where, how busy)."""
    import assignments_bench

    record = json.loads(GRADING_BENCH.read_text(encoding="utf-8"))
    if part == "machine":
        before, after = record["load average (1 min) before, after"]
        return (
            f"Measured on {record['date']} ({record['machine']}; load average {before:g} "
            f"before and {after:g} after). `make assignments` built the whole course in "
            f"{record['make assignments seconds']:.1f} s."
        )
    marks = " | ".join(f"{r['full marks']} of {r['graded']}" for r in record["rounds"])
    return (
        assignments_bench.markdown_table(record)
        + f"\n| full marks (a third answered with the model solutions) | {marks} |"
        + f"\n\nMeasured on {record['date']} by `make bench-assignments`."
    )


# ------------------------------------------------------------------ Binder
def github_repository() -> str:
    """The GitHub repository this copy is published as (``[tool.ttr-nb] github`` in
    ``pyproject.toml``: ``owner/name``), or ``""`` when none is set."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    repo = config.get("tool", {}).get("ttr-nb", {}).get("github", "").strip()
    if repo and not re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", repo):
        raise ValueError(f"[tool.ttr-nb] github must be owner/name, not {repo!r}")
    return repo


BINDER_APP = "urlpath=voila%2Frender%2Fnotebooks%2Fapp.ipynb"
BINDER_LAB = "urlpath=lab/tree/notebooks/index.ipynb"


def binder_url(repo: str, query: str) -> str:
    """A mybinder.org link that builds ``repo``'s default branch and opens ``query``."""
    return f"https://mybinder.org/v2/gh/{repo}/HEAD?{query}"


def binder_badges(badge: str) -> str:
    """The Binder badges (``badge`` is the badge picture's path from the page), or what to
    set when this copy names no repository."""
    repo = github_repository()
    if not repo:
        return (
            "**No Binder link yet.** Binder builds a repository from GitHub, and this copy of "
            "ttr-nb does not say which one it is. Whoever publishes it sets "
            '`github = "owner/name"` under `[tool.ttr-nb]` in `pyproject.toml` and runs '
            "`python tools/docs_generated.py`: the badges appear here and on every lesson "
            "of the documentation site."
        )
    return (
        f"[![Play on Binder (Voilà app)]({badge})]({binder_url(repo, BINDER_APP)})\n"
        "**Play**: the game against bots, as a web app (Voilà).\n\n"
        f"[![Lessons on Binder (JupyterLab)]({badge})]({binder_url(repo, BINDER_LAB)})\n"
        "**Learn**: the lessons in JupyterLab, starting from `notebooks/index.ipynb`. The "
        "classic Notebook pages work too (`?urlpath=tree/notebooks`)."
    )


# ------------------------------------------------------------------ recorded results
def strength(name: str) -> str:
    """A strength table of ``tools/docs_figures.py`` (``now``, ``kept``, ``tried``, …)."""
    tables = {
        "now": lambda: docs_figures.strength_table(docs_figures.NOW) + docs_figures.STRENGTH_AGAIN,
        "search-history": lambda: (
            docs_figures.strength_table(docs_figures.ISSUE_23) + docs_figures.STRENGTH_AGAIN
        ),
        "first": lambda: (
            docs_figures.strength_table(docs_figures.OLD_GREEDY) + docs_figures.STRENGTH_AGAIN
        ),
        "kept": lambda: docs_figures.paired_table(docs_figures.KEPT) + docs_figures.PAIRED_AGAIN,
        "tried": lambda: docs_figures.paired_table(docs_figures.TRIED) + docs_figures.PAIRED_AGAIN,
    }
    return tables[name]().strip()


def layers_table(_: str = "") -> str:
    """What each package may import and imports today (``tools/docs_figures.py``)."""
    return docs_figures.layers_table().strip()


GENERATORS: dict[str, Callable[[str], str]] = {
    "maps.names": maps_names,
    "maps.others": maps_others,
    "maps.count": maps_count,
    "maps.ids": maps_ids,
    "tutorial.steps": tutorial_steps,
    "variants.rules-classes": rules_classes,
    "variants.table": variants_table,
    "lessons.count": lessons_count,
    "lessons.graphs-range": lessons_graphs_range,
    "lessons.rules-limit": lessons_rules_limit,
    "lessons.table": lessons_table,
    "lessons.list": lessons_list,
    "bots.table": bots_table,
    "bots.levels": bots_levels,
    "bots.search-budget": search_budget,
    "tables.guessing": tables_guessing,
    "colour-vision.tables": colour_vision_tables,
    "grading.limit": grading_limit,
    "grading.course": grading_course,
    "grading.bench": grading_bench,
    "binder.badges": binder_badges,
    "strength": strength,
    "layers.table": layers_table,
}
"""Generators by name; a region ``gen:NAME:ARG`` calls ``GENERATORS[NAME](ARG)``."""

FILES: dict[str, Callable[[], str]] = {
    "docs/_static/generated/layers.svg": docs_figures.layers_svg,
}
"""Files generated whole, committed so that the repository host shows them too."""


# ------------------------------------------------------------------ regions
def _generate(name: str, cache: dict[str, str]) -> str:
    if name not in cache:
        base, _, arg = name.partition(":")
        if base not in GENERATORS:
            raise KeyError(f"no generator {base!r} (python tools/docs_generated.py --list)")
        cache[name] = GENERATORS[base](arg).strip()
    return cache[name]


def _region_text(body: str, generated: str) -> str:
    """What goes between the markers: inline text as it is, a block between blank lines."""
    return f"\n\n{generated}\n\n" if body.startswith("\n") else generated


def pages() -> list[Path]:
    """Every Markdown file that may hold generated regions."""
    found = []
    for name in PAGES:
        path = REPO / name
        if path.is_dir():
            found += sorted(
                p for p in path.rglob("*.md") if not {"_generated", "lessons"} & set(p.parts)
            )
        elif path.exists():
            found.append(path)
    return found


def update(text: str, cache: dict[str, str] | None = None) -> str:
    """``text`` with every generated region rewritten by its generator."""
    cache = {} if cache is None else cache

    def fill(match: re.Match[str]) -> str:
        name, body = match.group("name"), match.group("body")
        new = _region_text(body, _generate(name, cache))
        return match.group(0).replace(f"-->{body}<!--", f"-->{new}<!--", 1)

    return GENERATED.sub(fill, text)


def _shown(path: Path) -> str:
    return path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else str(path)


def stale(paths: list[Path] | None = None) -> list[str]:
    """The regions and generated files whose text is not what their generator writes now."""
    cache: dict[str, str] = {}
    out = []
    for path in pages() if paths is None else paths:
        text = path.read_text(encoding="utf-8")
        for match in GENERATED.finditer(text):
            name, body = match.group("name"), match.group("body")
            try:
                want = _region_text(body, _generate(name, cache))
            except KeyError as exc:
                out.append(f"{_shown(path)}: {exc.args[0]}")
                continue
            if body != want:
                line = text.count("\n", 0, match.start()) + 1
                out.append(
                    f"{_shown(path)}:{line}: the generated region {name!r} is stale "
                    "(python tools/docs_generated.py rewrites it)"
                )
    if paths is None:
        for name, make in FILES.items():
            path = REPO / name
            if not path.exists() or path.read_text(encoding="utf-8") != make():
                out.append(f"{name} is stale (python tools/docs_generated.py rewrites it)")
    return out


def write_all() -> list[Path]:
    """Rewrite every stale region and generated file; return the files changed."""
    cache: dict[str, str] = {}
    changed = []
    for path in pages():
        text = path.read_text(encoding="utf-8")
        new = update(text, cache)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    for name, make in FILES.items():
        path = REPO / name
        text = make()
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    """Command line: rewrite the regions, check them, or list the generators."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list stale regions; exit 1 if any")
    parser.add_argument("--list", action="store_true", help="list the generators")
    args = parser.parse_args(argv)
    if args.list:
        for name, make in GENERATORS.items():
            print(f"{name}: {(make.__doc__ or '').splitlines()[0]}")
        return 0
    if args.check:
        found = stale()
        print("\n".join(found) if found else "every generated region is current")
        return 1 if found else 0
    for path in write_all():
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
