"""axe-core in the browser tests (imported as ``a11y``): run it on a page, keep the serious
and critical violations of WCAG 2.x A/AA (2.0, 2.1 and 2.2 rules), and write them with a
screenshot to ``test-artifacts/``.

axe-core comes from npm, pinned in ``tests/a11y/package-lock.json`` (``make a11y-deps`` runs
``npm ci`` there; docs/accessibility.md says why npm and not a Python wrapper). Its file is
injected into the page as a script, so it also runs on pages cut off from the internet (the
static site's test).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
AXE_JS = REPO / "tests" / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = REPO / "test-artifacts"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SERIOUS = ("serious", "critical")

needs_axe = pytest.mark.skipif(
    not AXE_JS.exists(), reason="axe-core is not installed (make a11y-deps: npm ci in tests/a11y)"
)

JS_RUN_AXE = """
async ([tags, context]) => {
  const result = await axe.run(context || document, {
    runOnly: {type: 'tag', values: tags},
    resultTypes: ['violations'],
  });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 300),
                              impact: n.impact, summary: n.failureSummary})),
  }));
}
"""


def run_axe(page: Any, context: str | None = None) -> list[dict[str, Any]]:
    """Every violation axe-core finds on ``page`` (or inside the ``context`` selector)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE_JS.read_text(encoding="utf-8"))
    return page.evaluate(JS_RUN_AXE, [WCAG_TAGS, context])


def serious(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The serious and critical nodes, one entry per node: ``{id, impact, target, ...}``."""
    return [
        {"id": v["id"], "help": v["help"], **node}
        for v in violations
        for node in v["nodes"]
        if (node["impact"] or v["impact"]) in SERIOUS
    ]


def check_page(page: Any, name: str, context: str | None = None) -> list[dict[str, Any]]:
    """Run axe-core, keep its findings and a window screenshot as ``a11y-<name>.*``, and
    return the serious and critical nodes (the tests assert there are none)."""
    ARTIFACTS.mkdir(exist_ok=True)
    found = run_axe(page, context)
    (ARTIFACTS / f"a11y-{name}.json").write_text(json.dumps(found, indent=1), encoding="utf-8")
    page.screenshot(path=str(ARTIFACTS / f"a11y-{name}.png"))
    return serious(found)


def describe(nodes: list[dict[str, Any]]) -> str:
    """The serious nodes as a readable list, for an assertion's message."""
    return "\n".join(f"{n['id']} ({n['impact']}): {n['target']} — {n['summary']}" for n in nodes)
