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


# The focused element, in words: its tag, classes and name (for the keyboard tests).
JS_FOCUSED = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const widget = el.closest('.jupyter-widgets');
  return {tag: el.tagName, cls: (el.className || '') + ' ' + (widget ? widget.className : ''),
          text: (el.getAttribute('aria-label') || el.innerText || el.value || '').slice(0, 80),
          expanded: el.getAttribute('aria-expanded')};
}
"""


JS_FOCUS_MATCHES = """
([selector, words]) => {
  const el = document.activeElement;
  return !!el && el.matches(selector) && (el.innerText || '').trim().startsWith(words);
}
"""


def tab_to(page: Any, selector: str, words: str = "", most: int = 150) -> int:
    """Press Tab until the element matching ``selector`` (whose words start with ``words``)
    has the focus; the number of presses. Fails if it is never reached."""
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate(JS_FOCUS_MATCHES, [selector, words]):
            return presses
    raise AssertionError(f"{most} presses of Tab never reached {selector} {words!r}")


# Visible controls in the app smaller than ``min`` CSS pixels tall (tap targets).
JS_SMALL_TARGETS = """
(min) => {
  const small = [];
  const controls = document.querySelectorAll(
    '.ttr-app button, .ttr-app select, .ttr-app input:not([type=checkbox]):not([type=radio]), '
    + '.ttr-app .widget-checkbox label, .ttr-app .widget-radio-box label, '
    + '.ttr-app .jupyter-widget-Collapse-header');
  for (const el of controls) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.height < min - 0.5)
      small.push(`${el.tagName}.${(el.className || '').toString().slice(0, 40)} `
                 + `"${(el.innerText || '').trim().slice(0, 30)}" ${r.height.toFixed(0)} px`);
  }
  return small;
}
"""

# Pairs of visible controls and text boxes of the app that overlap each other (``floating``:
# the phone's fixed panels too, else they are left out).
JS_OVERLAPS = """
(floating) => {
  const els = [...document.querySelectorAll(
    '.ttr-app button, .ttr-app select, .ttr-app input, .ttr-app textarea, '
    + '.ttr-app .jupyter-widget-Collapse-header, .ttr-app h3, .ttr-app .ttr-status')]
    .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
    .filter(el => floating || !el.closest('.ttr-dock, .ttr-claim-box'));
  const boxes = els.map(el => [el, el.getBoundingClientRect()]);
  const hits = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 2 && h > 2) hits.push(`${(a.innerText || a.className).toString().slice(0, 30)}`
        + ` / ${(b.innerText || b.className).toString().slice(0, 30)}`);
    }
  }
  return hits;
}
"""
