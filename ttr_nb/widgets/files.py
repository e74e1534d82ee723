"""Saving and loading: the save as text, a download link made on demand, loading from text
or an uploaded file. Every input is size-limited and refused with a short reason
shown here; nothing a visitor sends can name a file on the server."""

from __future__ import annotations

import base64
import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..game import MAX_SAVE_CHARS
from .controls import Note, button

if TYPE_CHECKING:
    from .app import GameApp

MAX_UPLOAD_BYTES = MAX_SAVE_CHARS * 2  # UTF-8 text of a save at most this long
MAX_SOURCE_NAME = 60  # an uploaded file's name, as shown in messages


def source_name(name: Any) -> str:
    """A visitor's file name made safe to show: text, printable, short."""
    text = name if isinstance(name, str) else "the uploaded file"
    text = "".join(ch for ch in text if ch.isprintable()) or "the uploaded file"
    return text if len(text) <= MAX_SOURCE_NAME else text[: MAX_SOURCE_NAME - 1] + "…"


class FilesPanel:
    """Save the shown game, download it, load a game from text or a file."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        guard = app.guard
        self.save_button = button("Save game", "ttr-save", "Put the save text in the box below")
        self.save_button.on_click(guard(lambda _b: self.save_to_text()))
        self.download_button = button(
            "Prepare a download", "ttr-prepare-download", "Make a link that downloads the save"
        )
        self.download_button.on_click(guard(lambda _b: self.prepare_download()))
        self.save_link = widgets.HTML(_dom_classes=["ttr-save-link"])
        self.save_text = widgets.Textarea(
            placeholder="The saved game appears here (press Save game); paste a save here and "
            "press Load from text to continue it.",
            layout=widgets.Layout(width="100%", height="110px"),
            continuous_update=False,
            tooltip="Saved game (text)",  # its name for a screen reader (no label)
            _dom_classes=["ttr-save-text"],
        )
        self.load_text_button = button("Load from text", "ttr-load-text")
        self.load_text_button.on_click(
            guard(lambda _b: app.request_load_text(self.save_text.value))
        )
        self.upload = widgets.FileUpload(
            accept=".json",
            multiple=False,
            description="Load a file",
            tooltip=f"Load a saved game (.json, at most {MAX_UPLOAD_BYTES // 1_000_000} MB)",
            _dom_classes=["ttr-load-file"],
        )
        self.upload.observe(guard(self._on_upload), names="value")
        self.note = Note("ttr-files-note")
        # (game, moves) that the link and the text box were made for
        self._link_at: tuple[int, int] | None = None
        self._saved_at: tuple[int, int] | None = None
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [self.save_button, self.download_button, self.save_link],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.save_text,
                widgets.HBox(
                    [self.load_text_button, self.upload],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.note.widget,
                widgets.HTML(
                    "<div class='ttr-note'>A save holds the map, the seed and every move, each "
                    "with its log line; loading replays it and refuses a damaged or edited file, "
                    "naming the first move that differs. This page also keeps your game in your "
                    "browser, so reloading the page offers to resume it.</div>"
                ),
            ],
            _dom_classes=["ttr-files"],
        )

    def reset(self) -> None:
        """A new game (or one loaded): nothing here speaks of the game before it."""
        self.save_text.value = ""
        self.save_link.value = ""
        self.note.clear()
        self._saved_at = None

    def render(self) -> None:
        """The download link describes one position: drop it (and what the note says of it)
        when the game moves on; the text box says which move it holds."""
        view = self.app.view
        shown = (id(self.app.game), len(view.history)) if view is not None else None
        if shown == self._link_at:
            return
        self._link_at = None
        if self.save_link.value:
            self.save_link.value = ""
            self.note.clear()
        if self._saved_at is not None and self._saved_at != shown and self.save_text.value:
            self.note.show(
                f"The text box holds the game at move {self._saved_at[1]}; press Save game "
                "again for the move shown now."
            )

    def _nothing_to_save(self) -> bool:
        """Say why there is nothing to save now (explore mode, a table's game running)."""
        why = self.app.tables.save_note()
        if why is None and self.app.view is None:
            why = "Nothing to save: this board is in explore mode."
        if why is not None:
            self.note.show(why, bad=True)
            self.app._set_status(why, bad=True)
            return True
        return False

    def save_to_text(self) -> None:
        """Put the shown game's save in the text box."""
        view = self.app.view
        if self._nothing_to_save() or view is None:
            return
        self.save_text.value = view.to_json(indent=1)
        moves = len(view.history)
        self._saved_at = (id(self.app.game), moves)
        message = (
            f"Saved the {view.map.name} game at move {moves}: the text box under Save and "
            "load holds it; copy it, or prepare a download."
        )
        self.note.show(message)
        self.app.say(message)

    def prepare_download(self) -> None:
        """Make a link that downloads the shown game's save."""
        view = self.app.view
        if self._nothing_to_save() or view is None:
            return
        data = base64.b64encode(view.to_json(indent=1).encode("utf-8")).decode("ascii")
        moves = len(view.history)
        name = f"ttr-{view.map.id}-seed{view.seed}-move{moves}.json"
        self.save_link.value = (
            f"<a download='{name}' href='data:application/json;base64,{data}' "
            f"class='ttr-download'>Download {html.escape(name)}</a>"
        )
        self._link_at = (id(self.app.game), moves)
        self.note.show(f"The link downloads the game at move {moves}, as shown now.")

    def _on_upload(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        name = source_name(item.get("name"))
        size = item.get("size") or len(item.get("content") or b"")
        if size > MAX_UPLOAD_BYTES:
            self.note.show(
                f"Could not load {name}: it is {size / 1e6:.1f} MB; a save is at most "
                f"{MAX_UPLOAD_BYTES / 1e6:.0f} MB.",
                bad=True,
            )
            return
        try:
            text = bytes(item["content"]).decode("utf-8")
        except (UnicodeDecodeError, TypeError, KeyError):
            self.note.show(f"Could not load {name}: it is not UTF-8 text.", bad=True)
            return
        self.app.request_load_text(text, source=name)
