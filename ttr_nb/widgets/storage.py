"""The browser's own storage of the game in progress, so a reloaded page can resume it.

The game lives in the kernel; if the page is reloaded (or the kernel restarts),
it would be lost. :class:`BrowserStore` keeps a copy of the moves in the
visitor's ``localStorage`` (never on the server, never shared between visitors):
the header once per game, then each new move as it is made (a few dozen bytes).
When a page opens, the stored copy is sent to the kernel, which offers to resume
it. What comes back from the browser is untrusted: it is loaded as a save
(size limits, schema, every move replayed by the rules).

:class:`SeatKeeper` keeps the browser's seat at a shared table (its token) the same
way, so a reloaded page comes back to its seat; the store checks the token.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anywidget

from ..actions import action_to_dict
from ..game import MAX_SAVE_CHARS, SAVE_FORMAT, Game

STORAGE_KEY = "ttr-nb-game-in-progress"

_ESM = """
const KEY = %(key)s;
const LIMIT = %(limit)d;

function read() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
}
function write(game) {
  try { localStorage.setItem(KEY, JSON.stringify(game)); } catch (e) { /* full or blocked */ }
}

export default {
  initialize({ model }) {
    model.on("msg:custom", (msg) => {
      if (msg.kind === "start") { write(msg.game); }
      else if (msg.kind === "moves") {
        const game = read();
        if (game && Array.isArray(game.history) && game.history.length === msg.from) {
          game.history.push(...msg.moves);
          write(game);
        }
      }
      else if (msg.kind === "forget") { localStorage.removeItem(KEY); }
    });
    let text = null;
    try { text = localStorage.getItem(KEY); } catch (e) { text = null; }
    model.send({ kind: "stored", text: text && text.length <= LIMIT ? text : null,
                 too_long: Boolean(text && text.length > LIMIT) });
  },
  render({ el }) { el.style.display = "none"; },
};
"""


class BrowserStore(anywidget.AnyWidget):
    """Mirrors the moves of the game in progress into the visitor's browser.

    ``on_stored(callback)``: ``callback(text)`` gets what the browser had stored
    when the page opened (a save without its final state), once per page load.
    """

    _esm = _ESM % {"key": json.dumps(STORAGE_KEY), "limit": MAX_SAVE_CHARS}

    def __init__(self) -> None:
        super().__init__()
        self._listeners: list[Callable[[str | None], None]] = []
        self._sent = 0  # moves of the current game the browser has
        self.on_msg(self._received)

    def on_stored(self, callback: Callable[[str | None], None]) -> None:
        """Call ``callback(text)`` with what the browser had stored when the page opened."""
        self._listeners.append(callback)

    def start(self, game: Game) -> None:
        """Store a new game (its moves so far too), in the save format: a stored copy is
        loaded back with :meth:`Game.from_json`, which refuses any other field.

        A game whose seed JavaScript's numbers cannot hold exactly (a shared table's deal,
        loaded from its save) is not kept in the browser: its copy would not rebuild it."""
        if not -(2**53) < game.seed < 2**53:
            self._sent = len(game.history)
            self._unkept = True
            self.send({"kind": "forget"})
            return
        self._unkept = False
        header = {
            "format": SAVE_FORMAT,
            "map": game.map.id,
            "players": list(game.names),
            "seed": game.seed,
            "history": [
                {"player": m.player, "action": action_to_dict(m.action)} for m in game.history
            ],
        }
        self._sent = len(game.history)
        self.send({"kind": "start", "game": header})

    def follow(self, game: Game) -> None:
        """Send the moves made since the last call."""
        if getattr(self, "_unkept", False):
            return
        if len(game.history) < self._sent:
            raise ValueError("the game lost moves: store it again with start()")
        new = game.history[self._sent :]
        if new:
            moves = [{"player": m.player, "action": action_to_dict(m.action)} for m in new]
            self.send({"kind": "moves", "from": self._sent, "moves": moves})
            self._sent = len(game.history)

    def forget(self) -> None:
        """Drop the browser's copy of the game."""
        self._sent = 0
        self.send({"kind": "forget"})

    def _received(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("kind") != "stored":
            return
        text = content.get("text")
        for listener in self._listeners:
            listener(text if isinstance(text, str) else None)


# ------------------------------------------------------------ a seat at a shared table
SEAT_KEY = "ttr-nb-table-seat"
MAX_SEAT_CHARS = 2000  # a kept seat is about 150 characters

_SEAT_ESM = """
const KEY = %(key)s;
export default {
  initialize({ model }) {
    model.on("msg:custom", (msg) => {
      try {
        if (msg.kind === "keep") { localStorage.setItem(KEY, JSON.stringify(msg.seat)); }
        else if (msg.kind === "forget") { localStorage.removeItem(KEY); }
      } catch (e) { /* storage full or blocked: the seat code still brings the player back */ }
    });
    let text = null;
    try { text = localStorage.getItem(KEY); } catch (e) { text = null; }
    model.send({ kind: "stored", text: text && text.length <= %(limit)d ? text : null });
  },
  render({ el }) { el.style.display = "none"; },
};
"""


class SeatKeeper(anywidget.AnyWidget):
    """Keeps this browser's seat at a table (its token) in ``localStorage``."""

    _esm = _SEAT_ESM % {"key": json.dumps(SEAT_KEY), "limit": MAX_SEAT_CHARS}

    def __init__(self) -> None:
        super().__init__()
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self.on_msg(self._received)

    def on_stored(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call ``callback(seat)`` with the seat this browser kept, when the page opens."""
        self._listeners.append(callback)

    def keep(self, seat: dict[str, Any]) -> None:
        """Keep ``seat`` (its table, seat and token) in this browser."""
        self.send({"kind": "keep", "seat": seat})

    def forget(self) -> None:
        """Drop the seat kept in this browser."""
        self.send({"kind": "forget"})

    def _received(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("kind") != "stored":
            return
        text = content.get("text")
        stored = None
        # A forged message may hold anything: as long as the page would send (2000
        # characters), and no nesting deep enough to exhaust the parser's stack.
        if isinstance(text, str) and len(text) <= MAX_SEAT_CHARS:
            try:
                stored = json.loads(text)
            except (ValueError, RecursionError):
                stored = None
        if isinstance(stored, dict):
            for listener in self._listeners:
                listener(stored)
