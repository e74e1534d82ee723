"""Bringing a part of the page into view: a question opened far from where the learner
looks (the *Load* button at the bottom of the page asks at the top of the play column).

The kernel cannot scroll the page; :class:`Scroller` is a hidden widget whose page side
does it when asked.
"""

from __future__ import annotations

import anywidget

_ESM = """
function shown(el) { return el && el.getClientRects().length > 0; }

export default {
  initialize({ model }) {
    model.on("msg:custom", (msg) => {
      if (!msg || msg.kind !== "show" || typeof msg.selector !== "string") { return; }
      if (msg.min_width && window.innerWidth < msg.min_width) { return; }
      // The kernel's layout change (display: none -> shown) may reach the page just
      // after this message: look again for up to a second.
      let tries = 0;
      const look = () => {
        const el = document.querySelector(msg.selector);
        // At once, not smoothly: a click aimed at the question just after lands on it.
        if (shown(el)) { el.scrollIntoView({ block: "nearest" }); }
        else if (++tries < 20) { setTimeout(look, 50); }
      };
      requestAnimationFrame(look);
    });
  },
  render({ el }) { el.style.display = "none"; },
};
"""


class Scroller(anywidget.AnyWidget):
    """``show(selector)`` scrolls the first element matching ``selector`` into view (only
    as far as needed: nothing moves when it is already on screen)."""

    _esm = _ESM

    def show(self, selector: str, min_width: int = 0) -> None:
        """Scroll the first element matching the CSS ``selector`` into view; with
        ``min_width``, only in a window at least this wide (where the column scrolled
        sits beside the board, so the board stays in view)."""
        self.send({"kind": "show", "selector": selector, "min_width": min_width})
