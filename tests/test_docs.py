"""The documentation's tooling: figures come from the journals, links are checked, the
README's links lead somewhere. (``make docs`` builds the site itself, warnings as errors.)"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import check_docs_links  # noqa: E402
import docs_figures  # noqa: E402


def _game(number: int, search: int, greedy: int, winners: list[int], search_seat: int = 0):
    """A journal line: the search (entrant 0) against greedy (entrant 1)."""
    kept = [[1, True], [2, False]]
    seats = [
        {"entrant": 0, "score": {"total": search}, "tickets": kept, "routes": []},
        {"entrant": 1, "score": {"total": greedy}, "tickets": [[3, True]], "routes": []},
    ]
    if search_seat == 1:
        seats.reverse()
    record = {"number": number, "seed": number, "seats": seats, "winners": winners, "turns": 70}
    return json.dumps({"row": "usa@1", "seed0": 0, "record": record})


@pytest.fixture
def journals(tmp_path, monkeypatch):
    """Two journals of the same four seeds under a stand-in results folder."""
    results = tmp_path / "strength"
    results.mkdir()
    monkeypatch.setattr(docs_figures, "RESULTS", results)
    new = [
        _game(0, 100, 90, [0]),  # search in seat 0 wins
        _game(1, 95, 95, [0, 1]),  # a shared win counts half
        _game(2, 80, 120, [0], search_seat=1),  # greedy in seat 0 wins
        _game(3, 110, 70, [1], search_seat=1),  # search in seat 1 wins
        _game(3, 110, 70, [1], search_seat=1),  # a game journaled twice counts once
    ]
    old = [_game(0, 90, 95, [1]), _game(1, 95, 95, [0, 1]), _game(2, 70, 120, [0], search_seat=1)]
    (results / "new.jsonl").write_text("\n".join(new) + "\n")
    (results / "old.jsonl").write_text("\n".join(old) + "\n")
    return results


def test_a_strength_row_is_computed_from_its_journal(journals):
    table = docs_figures.strength_table([("USA, 1 s", "new.jsonl")])
    row = table.splitlines()[2]
    cells = [c.strip() for c in row.strip("|").split("|")]
    # 4 games, 2.5 wins, and Wilson's 95% interval worked out here
    p, n, z = 2.5 / 4, 4, 1.959964
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)
    assert cells[:4] == ["USA, 1 s", "4", "2.5", f"62.5% [{low:.1%}, {high:.1%}]"]
    assert cells[4] == "96.2 vs 93.8"  # mean totals: (100+95+80+110)/4, (90+95+120+70)/4
    assert cells[5] == "2.0 / 1.0 vs 1.0 / 0.0"  # tickets kept / failed a game
    assert "- USA, 1 s: `python tools/strength.py --maps usa --budgets 1 --games 4 " in table


def test_a_paired_row_compares_the_same_seeds(journals):
    new = docs_figures.read_journal(journals / "new.jsonl")
    old = docs_figures.read_journal(journals / "old.jsonl")
    paired = docs_figures.compare(new, old)
    assert paired.games == 3  # seed 3 is in the new journal only
    assert (paired.new_wins, paired.old_wins) == (1.5, 0.5)
    assert (paired.to_new, paired.to_old) == (1, 0)  # seed 0 changed hands; 1 and 2 did not
    # margins new - old: (10 - (-5)), (0 - 0), (-40 - (-50))
    assert paired.margin == pytest.approx((15 + 0 + 10) / 3)


def test_the_sign_test_is_exact():
    assert docs_figures.sign_test(5, 0) == pytest.approx(2 / 32)
    assert docs_figures.sign_test(3, 3) == 1.0


def test_the_layers_figure_comes_from_the_contract():
    layers = docs_figures.layers()
    assert layers[-1] == ["ttr_nb.algorithms"]
    assert layers.index(["ttr_nb.game"]) < layers.index(["ttr_nb.rules"])
    svg = docs_figures.layers_svg()
    for layer in layers:
        for module in layer:
            assert f">{module.removeprefix('ttr_nb.')}<" in svg
    table = docs_figures.layers_table()
    assert "| `algorithms` | none: it stands alone | – |" in table


def _site(tmp_path: Path, pages: dict[str, str]) -> Path:
    root = tmp_path / "html"
    for name, body in pages.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"<html><body>{body}</body></html>")
    return root


def test_the_link_check_finds_broken_links_and_outside_loads(tmp_path):
    root = _site(
        tmp_path,
        {
            "index.html": '<a href="a.html#there">ok</a><a href="b.html">gone</a>'
            '<a href="a.html#nowhere">no anchor</a><a href="#top">top</a><h1 id="top">t</h1>'
            '<script src="https://cdn.example.org/x.js"></script>'
            '<a href="https://example.org/">a plain link elsewhere is fine</a>'
            '<a href="sub/a.html">sub</a>',
            "sub/a.html": '<a href="../../lab/index.html?path=x.ipynb">the site\'s lab</a>'
            '<a href="../../../elsewhere.html">out</a>',
            "a.html": '<p id="there">here</p><img src="sub/missing.png">',
        },
    )
    problems, checked, site = check_docs_links.check(root)
    assert sorted(problems) == sorted(
        [
            "index.html: b.html names no file of the build",
            "index.html: a.html#nowhere names no anchor of its page",
            "index.html: loads https://cdn.example.org/x.js from another host",
            "a.html: sub/missing.png names no file of the build",
            "sub/a.html: ../../../elsewhere.html leaves the documentation",
        ]
    )
    assert site == 1


def test_the_link_check_passes_a_sound_build(tmp_path):
    root = _site(tmp_path, {"index.html": '<a href="a.html#x">x</a>', "a.html": '<b id="x"></b>'})
    assert check_docs_links.check(root)[0] == []


def test_every_link_of_the_readme_names_a_file():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)", text)
    local = [t.split("#")[0] for t in targets if not re.match(r"[a-z]+:", t)]
    assert local, "the README links into the docs"
    missing = [t for t in local if not (REPO / t).exists()]
    assert missing == []


def test_the_readme_is_short():
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_every_public_function_has_a_docstring():
    import docstring_report

    assert docstring_report.gaps() == []


def test_the_licence_is_the_mit_licence_pyproject_names():
    import tomllib

    licence = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License")
    assert "Permission is hereby granted, free of charge" in licence
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert "](LICENSE)" in (REPO / "README.md").read_text(encoding="utf-8")


def test_the_changelog_and_the_guide_are_in_the_docs():
    for name, page in (("CHANGELOG.md", "changelog.md"), ("CONTRIBUTING.md", "contributing.md")):
        assert (REPO / name).exists()
        assert f"```{{include}} ../{name}" in (REPO / "docs" / page).read_text(encoding="utf-8")
