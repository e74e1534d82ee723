"""Bringing a part of the page into view: a question opened far from where the learner
looks (the *Load* button at the bottom of the page asks at the top of the play column).

The kernel cannot scroll the page; :class:`Scroller` is a hidden widget whose page side
does it when asked.
"""

from __future__ import annotations

import anywidget

_ESM = """
function shown(el) { return el && el.getClientRects().length > 0; }

// Requests that arrive together (one change in the kernel may ask for several) are served
// together, the higher priority last, so it is the one left in view. The kernel's layout
// change (display: none -> shown) may reach the page just after its message: while an
// element of the batch is not shown yet, the whole batch waits (up to a second).
let pending = [];
let timer = null;
let tries = 0;
function serve() {
  timer = null;
  const waiting = pending.some((r) => !shown(document.querySelector(r.selector)));
  if (waiting && ++tries < 20) { timer = setTimeout(serve, 50); return; }
  const now = pending.sort((a, b) => a.priority - b.priority);
  pending = [];
  tries = 0;
  for (const request of now) {
    const el = document.querySelector(request.selector);
    // At once, not smoothly: a click aimed at the question just after lands on it.
    if (shown(el)) { el.scrollIntoView({ block: "nearest" }); }
  }
}
function ask(request) {
  pending.push(request);
  if (timer === null) { timer = setTimeout(serve, 0); }
}

export default {
  initialize({ model }) {
    model.on("msg:custom", (msg) => {
      if (!msg || msg.kind !== "show" || typeof msg.selector !== "string") { return; }
      if (msg.min_width && window.innerWidth < msg.min_width) { return; }
      ask({ selector: msg.selector, priority: Number(msg.priority) || 0 });
    });
  },
  render({ el }) { el.style.display = "none"; },
};
"""


class Scroller(anywidget.AnyWidget):
    """``show(selector)`` scrolls the first element matching ``selector`` into view (only
    as far as needed: nothing moves when it is already on screen)."""

    _esm = _ESM

    def show(self, selector: str, min_width: int = 0, priority: int = 0) -> None:
        """Scroll the first element matching the CSS ``selector`` into view; with
        ``min_width``, only in a window at least this wide (where the column scrolled
        sits beside the board, so the board stays in view). Of requests sent together,
        the one of highest ``priority`` is served last (it stays in view)."""
        message: dict[str, object] = {"kind": "show", "selector": selector, "min_width": min_width}
        if priority:
            message["priority"] = priority
        self.send(message)
