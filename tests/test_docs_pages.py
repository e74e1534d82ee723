"""What the documentation tells a user is true: the lists and figures come from the code, no
user page carries a figure typed by hand, and every command and variable it names works.

The checks themselves are ``tools/docs_check.py`` (figures, history, machine load on the
user pages), ``tools/docs_generated.py`` (the text written from the code) and
``tools/docs_commands.py`` (commands and environment variables); CONTRIBUTING.md explains them.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import docs_check  # noqa: E402
import docs_commands  # noqa: E402
import docs_generated  # noqa: E402

DOCS = REPO / "docs"


def _pages() -> list[Path]:
    """Every Markdown page of the docs and the repository's front files."""
    return docs_generated.pages()


def _said(page: Path) -> str:
    """A page's text as typed: generated regions and comments blanked."""
    return docs_check.readable_text(page.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ which pages are user pages
def test_the_user_pages_are_the_user_sections_and_the_front_pages():
    pages = {p.relative_to(REPO).as_posix() for p in docs_check.user_pages()}
    assert {"README.md", "docs/index.md", "docs/getting-started/teacher.md"} <= pages
    assert {"docs/app.md", "docs/tables.md", "docs/deployment/binder.md"} <= pages
    # measurements, research and the status table live in their own sections
    for page in ("docs/measurements.md", "docs/research.md", "docs/overview.md", "docs/bots.md"):
        assert page not in pages


def test_the_status_table_is_not_under_getting_started():
    listed = docs_check.toctree_entries(DOCS / "getting-started" / "index.md")
    assert all(p.parent == DOCS / "getting-started" for p in listed), listed
    assert DOCS / "overview.md" in docs_check.toctree_entries(DOCS / "inside.md")


# ------------------------------------------------------------------ the figure check
def _findings(text: str) -> list[tuple[str, str]]:
    page = DOCS / "index.md"  # any path: only its name is reported
    return [(f.kind, f.text) for f in docs_check.findings(page, text)]


def test_the_check_finds_figures_history_and_machine_load():
    text = (
        "A move answers in 146–229 ms, 1.2 / 2.0 s at p95, 3 GB for 30 kernels, 14 MiB, 390 px,\n"
        "won 139 of 200 (70%), 2.4× faster, 1.3–2.5 times as long, in 5 minutes.\n"
        "Before issue 39 it was slower on this busy machine (load average 10) with other jobs.\n"
    )
    found = _findings(text)
    figures = [t for k, t in found if k == "figure"]
    assert figures == [
        "146–229 ms",
        "2.0 s",
        "3 GB",
        "14 MiB",
        "390 px",
        "139 of 200",
        "70%",
        "2.4×",
        "1.3–2.5 times",
        "5 minutes",
    ]
    assert [t for k, t in found if k == "history"] == ["issue 39"]
    assert sorted(t for k, t in found if k == "machine") == [
        "busy machine",
        "load average",
        "other jobs",
    ]


def test_counts_screens_confidence_levels_and_generated_text_are_not_figures():
    text = (
        "45 trains, 2 to 5 players, 30 kernels, a 1366×768 laptop, 1 × Y yellow, Python 3.11,\n"
        "a 95% interval, the 95 % confidence level, `search:0.3`, port 8866.\n"
        "<!-- gen:lessons.count -->33 s<!-- /gen --> and <!-- 12 ms in a comment -->\n"
        "```{image} x.png\n:width: 100%\n```\n"
    )
    assert _findings(text) == []


def _page(tmp_path: Path, text: str) -> Path:
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    return page


def test_an_allowed_figure_passes_and_an_allowed_entry_cannot_go_stale(tmp_path, monkeypatch):
    monkeypatch.setattr(docs_check, "REPO", tmp_path)
    page = _page(tmp_path, "The store waits 3 s. It took 12 ms.\n")
    allow = docs_check.Allowed("page.md", "waits 3 s", "setting", "the timeout")
    assert docs_check.problems([page], [allow]) == [
        "page.md:1: a figure typed by hand: '12 ms' in “The store waits 3 s. It took 12 ms.”"
    ]
    gone = docs_check.Allowed("page.md", "waits 4 s", "setting", "the timeout")
    empty = docs_check.Allowed("page.md", "The store", "rule", "nothing here")
    problems = docs_check.problems([page], [allow, gone, empty])
    assert any("'waits 4 s' is no longer on page.md" in p for p in problems)
    assert any("'The store' on page.md holds no figure" in p for p in problems)


def test_an_allowed_setting_must_say_what_its_source_holds(tmp_path, monkeypatch):
    monkeypatch.setattr(docs_check, "REPO", tmp_path)
    page = _page(tmp_path, "Kernels wait 3 s and poll every 0.4 s.\n")
    right = [
        docs_check.Allowed("page.md", "wait 3 s", "setting", "w", "voila.json:X.wait_s"),
        docs_check.Allowed(
            "page.md", "every 0.4 s", "setting", "p", "ttr_nb.widgets.tables:POLL_MS", 1000
        ),
    ]
    (tmp_path / "voila.json").write_text('{"X": {"wait_s": 3}}')
    assert docs_check.problems([page], right) == []
    (tmp_path / "voila.json").write_text('{"X": {"wait_s": 5}}')
    assert docs_check.problems([page], right) == [
        "page.md: 'wait 3 s' says 3 but voila.json:X.wait_s is 5"
    ]


def test_no_user_page_carries_a_figure_typed_by_hand_history_or_machine_load():
    assert docs_check.problems() == []


def test_every_allowed_setting_with_a_source_matches_it():
    entries = docs_check.read_allowed()
    assert entries, "docs/allowed-figures.toml lists the reviewed exceptions"
    for entry in entries:
        assert entry.kind in docs_check.KINDS and entry.why.strip(), entry


# ------------------------------------------------------------------ generated text
def test_every_generated_region_is_what_the_code_writes_now():
    assert docs_generated.stale() == []


def test_a_stale_region_is_found_and_rewritten(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("We have <!-- gen:maps.count -->four<!-- /gen --> maps.\n", encoding="utf-8")
    assert len(docs_generated.stale([page])) == 1
    assert docs_generated.update(page.read_text()) == (
        f"We have <!-- gen:maps.count -->{docs_generated.maps_count()}<!-- /gen --> maps.\n"
    )


def test_the_grading_guide_is_written_from_the_stored_benchmark_and_the_code(tmp_path, monkeypatch):
    import assignments_sandbox

    record = json.loads(docs_generated.GRADING_BENCH.read_text(encoding="utf-8"))
    record["rounds"][0]["seconds"]["autograde"] = 4321.0
    record["rounds"][0]["full marks"] = 9
    stored = tmp_path / "bench.json"
    stored.write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.setattr(docs_generated, "GRADING_BENCH", stored)
    table = docs_generated.grading_bench("table")
    assert "| autograde | 4321.0 s |" in table and "| 9 of 30 |" in table
    assert docs_generated.stale([DOCS / "grading.md"])  # the page quotes the stored run
    tmp_mb = assignments_sandbox.SandboxedKernelManager.tmp_mb.default_value
    assert docs_generated.grading_limit("tmp") == f"{tmp_mb} MiB"
    assert docs_generated.grading_limit("cell").isdigit()


def test_no_page_includes_a_file_the_repository_host_cannot_show():
    for page in _pages():
        assert "_generated/" not in page.read_text(encoding="utf-8"), page


def test_the_lists_of_maps_lessons_and_graph_lessons_agree_with_the_code():
    from ttr_nb.rules import playable_maps
    from ttr_nb.teaching.curriculum import LESSONS

    words = {v: k for k, v in docs_generated.WORDS.items()}
    maps, lessons = len(playable_maps()), len(LESSONS)
    notebooks = " ".join(lesson.notebook for lesson in LESSONS)
    last_graph = max(int(m) for m in re.findall(r"graphs_(\d+)_", notebooks))
    wrong = []
    for page in _pages():
        text = _said(page)
        name = page.relative_to(REPO)
        for word in re.findall(r"\b(\w+) (?:Ticket to Ride )?maps\b", text):
            if words.get(word.lower(), maps) != maps:
                wrong.append(f"{name}: {word} maps (there are {maps})")
        for number in re.findall(r"\b(\d+) lessons\b", text):
            if int(number) != lessons:
                wrong.append(f"{name}: {number} lessons (there are {lessons})")
        for number in re.findall(r"graphs_1_\S* to `?graphs_(\d+)", text):
            if int(number) != last_graph:
                wrong.append(f"{name}: graphs_1 to graphs_{number} (the last is {last_graph})")
    assert wrong == []


def test_the_links_the_app_follows_name_every_map():
    from ttr_nb.rules import playable_maps
    from ttr_nb.widgets.links import parse_link

    row = next(line for line in (DOCS / "app.md").read_text().splitlines() if "`?map=" in line)
    for map_id in playable_maps():
        assert f"`{map_id}`" in row
        assert parse_link(f"?map={map_id}").value == map_id


def test_the_architecture_page_and_the_coach_table_name_every_variant():
    from ttr_nb.coach.variants import VARIANT_HINTS
    from ttr_nb.maps import load_map
    from ttr_nb.rules import VARIANTS, playable_maps

    architecture = (DOCS / "architecture.md").read_text(encoding="utf-8")
    for cls in VARIANTS.values():
        if cls.__name__ != "Rules":
            assert f"`{cls.__name__}`" in architecture, cls
    coach = (DOCS / "command-line.md").read_text(encoding="utf-8")
    row = next(line for line in coach.splitlines() if line.startswith("| Germany"))
    names = {load_map(m).rules: load_map(m).name.split(": ")[-1] for m in playable_maps()}
    for rules in VARIANT_HINTS:
        assert names[rules] in row.split("|")[1], rules


def test_the_bots_table_names_every_bot():
    from ttr_nb.bots.registry import BOTS

    table = (DOCS / "bots.md").read_text(encoding="utf-8")
    for name in BOTS:
        assert f"`{name}`" in table


# ------------------------------------------------------------------ stale statements
def test_the_learner_page_opens_on_the_first_screen():
    source = (REPO / "ttr_nb" / "widgets" / "tutorial" / "welcome.py").read_text()
    choices = re.findall(r'button\("([^"]+)", "ttr-first-', source)
    assert choices == ["Learn to play", "Play against bots", "Play with others"]
    learner = (DOCS / "getting-started" / "learner.md").read_text(encoding="utf-8")
    for choice in choices:
        assert f"**{choice}**" in learner
    for page in docs_check.user_pages():
        assert "starts at once" not in page.read_text(encoding="utf-8"), page


def test_binder_links_follow_the_one_setting(monkeypatch):
    for page in _pages():
        assert "OWNER/REPO" not in page.read_text(encoding="utf-8"), page
    sys.path.insert(0, str(DOCS))
    import conf  # the docs build's settings: each lesson's Binder link

    assert conf.ttr_binder_repo == docs_generated.github_repository()
    monkeypatch.setattr(docs_generated, "github_repository", lambda: "alice/ttr-nb")
    badges = docs_generated.binder_badges("badge.svg")
    assert "https://mybinder.org/v2/gh/alice/ttr-nb/HEAD?urlpath=voila" in badges
    assert "https://mybinder.org/v2/gh/alice/ttr-nb/HEAD?urlpath=lab" in badges


def test_the_binder_setting_is_read_from_pyproject(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.ttr-nb]\ngithub = "alice/ttr-nb"\n')
    monkeypatch.setattr(docs_generated, "REPO", tmp_path)
    assert docs_generated.github_repository() == "alice/ttr-nb"
    (tmp_path / "pyproject.toml").write_text('[tool.ttr-nb]\ngithub = "not a repo"\n')
    with pytest.raises(ValueError, match="owner/name"):
        docs_generated.github_repository()


# ------------------------------------------------------------------ commands and variables
def test_every_command_a_user_page_shows_works():
    assert [p for p in docs_commands.problems() if "is read by no code" not in p] == []


def test_every_environment_variable_a_user_page_names_is_read_by_the_code():
    assert docs_commands.variable_problems() == []


def _command(text: str) -> docs_commands.Command:
    env, argv = docs_commands._split(text)
    return docs_commands.Command("page.md", 1, text, env, argv)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("TTR_TEACHER_KEY='a phrase' make teacher", "TTR_TEACHER_KEY reaches no recipe"),
        ("make no-such-target", "make -n fails"),
        ("make app NOT_A_SETTING=1", "NOT_A_SETTING reaches no recipe"),
        (".venv/bin/ttr-nb play --no-such-option", "ttr-nb refuses"),
        ("ttr-nb play --map atlantis", "'atlantis' is no shipped map"),
        ("python tools/strength.py --no-such-option", "refuses"),
        ("python tools/no_such_tool.py", "tools/no_such_tool.py does not exist"),
        ("python -c 'from ttr_nb import no_such_name'", "its imports fail"),
        ("jupyter no-such-sub", "installed neither"),
        ("frobnicate --all", "no check knows this program"),
        ("nbgrader no_such_step ASSIGNMENT", "nbgrader has no sub-command 'no_such_step'"),
        ("nbgrader export --no-such-option x", "nbgrader export knows no option --no-such-option"),
    ],
)
def test_the_command_check_refuses_what_would_not_work(text, problem):
    assert any(problem in p for p in docs_commands.check(_command(text))), text


@pytest.mark.parametrize(
    "text",
    [
        "make app HOST=0.0.0.0",
        "make app WARM=2",
        "VISITORS=10 SPREAD=0 make bench-load",
        "ttr-nb hint SAVE.json --seat N",
        "python tools/strength.py --maps germany --budgets 1 --games 200 --journal NEW.jsonl",
        "python -m ttr_nb.teacher_server --port 8867",
        "nbgrader autograde ASSIGNMENT",
        "nbgrader export --to grades.csv",
        "cd ~/ttr-course",
    ],
)
def test_the_command_check_passes_what_works(text):
    assert docs_commands.check(_command(text)) == []


def test_a_chain_of_commands_is_checked_command_by_command(tmp_path, monkeypatch):
    monkeypatch.setattr(docs_commands, "REPO", tmp_path)
    page = _page(
        tmp_path,
        "```bash\n"
        'python -m venv .venv && .venv/bin/pip install -e ".[app]"  # a && b; c\n'
        "```\n"
        "Then `cd ~/course && nbgrader no_such_step A; make app`.\n",
    )
    found = docs_commands.commands([page])
    assert [c.text for c in found] == [
        "python -m venv .venv",
        '.venv/bin/pip install -e ".[app]"',
        "cd ~/course",
        "nbgrader no_such_step A",
        "make app",
    ]
    assert [c.line for c in found] == [2, 2, 4, 4, 4]
    assert docs_commands.check(found[3]) == ["nbgrader has no sub-command 'no_such_step'"]


def test_the_variable_check_knows_what_the_code_reads():
    code = docs_commands.names_in_code()
    assert {"TTR_TABLES_URL", "TTR_TEACHER_TOKEN", "WARM", "HOST"} <= code
    assert "TTR_TEACHER_KEY" not in code


def test_the_contributing_guide_names_files_that_exist_and_commands_that_work():
    guide = REPO / "CONTRIBUTING.md"
    text = guide.read_text(encoding="utf-8")
    for heading in ("## Changing a rule", "## Adding a map", "## Adding a lesson"):
        assert heading in text
    paths = re.findall(r"`((?:ttr_nb|tools|tests|docs|notebooks|binder|maps)/[\w./-]+)`", text)
    assert len(paths) > 30
    missing = [p for p in paths if "<" not in p and not (REPO / p).exists()]
    assert missing == []
    problems = [p for c in docs_commands.commands([guide]) for p in docs_commands.check(c)]
    assert problems == []


# ------------------------------------------------------------------ the docs build
def _ttr_docs():
    pytest.importorskip("sphinx")  # the docs extra (make docs-deps)
    sys.path.insert(0, str(DOCS / "_ext"))
    import ttr_docs

    return ttr_docs


def test_the_docs_build_warns_of_every_problem_so_make_docs_fails(monkeypatch):
    ttr_docs = _ttr_docs()
    warned = []
    monkeypatch.setattr(ttr_docs.log, "warning", warned.append)
    monkeypatch.setattr(docs_generated, "stale", lambda: ["page.md:3: stale region"])
    monkeypatch.setattr(docs_check, "problems", lambda: ["page.md:7: a figure typed by hand"])
    ttr_docs.check_pages(None)
    assert warned == [
        "[ttr-docs] page.md:3: stale region",
        "[ttr-docs] page.md:7: a figure typed by hand",
    ]


def test_the_site_links_the_rendered_pages_where_the_repository_links_files():
    ttr_docs = _ttr_docs()
    text = (
        "[a](../notebooks/graphs_9_blocking.ipynb) [b](../../notebooks/index.ipynb#top) "
        "[c](../CHANGELOG.md) [d](../../CONTRIBUTING.md#the-loops)\n"
        "<!-- lessons-toctree: here -->\n"
    )
    site = ttr_docs.for_the_site("lessons", text)
    assert "[a](/lessons/graphs_9_blocking.ipynb)" in site
    assert "[b](/lessons/index.ipynb#top)" in site
    assert "[c](/changelog.md) [d](/contributing.md#the-loops)" in site
    assert "```{toctree}\n:hidden:" in site and "/lessons/rules_usa_1_setup_and_cards" in site
