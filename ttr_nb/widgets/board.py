"""The board widget: any map on an ipycanvas ``MultiCanvas``, with hover facts and selection.

Layers: 0 static board (routes; drawn once per map), 1 pieces (claimed routes
and variant pieces; redrawn on every state change), 2 places (cities and
names, above the pieces; drawn once per map), 3 overlay (selection and hover;
redrawn on pointer moves, which is cheap).

Drawing happens only once the browser has said it is ready
(``on_client_ready``) and then on changes: commands sent before the browser
connects are lost, and under Voilà that leaves a blank board.

Every canvas action has a widget equivalent (the route picker), because a
focused canvas traps the keyboard.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets
from ipycanvas import Canvas, MultiCanvas, hold_canvas
from ipyevents import Event

from ..maps import Map
from . import board_art as art
from . import style
from .board_svg import BoardSnapshot, board_bundle, board_svg
from .geometry import CITY_RADIUS, BoardGeometry, board_geometry, board_size
from .safety import CallbackGuard
from .viewport import ZOOM_STEP, Viewport

# Places sit above the pieces so claimed trains never hide a city or its name.
LAYER_STATIC, LAYER_PIECES, LAYER_PLACES, LAYER_OVERLAY = 0, 1, 2, 3
LAYERS = 4
HOVER_THROTTLE_MS = 80
WHEEL_THROTTLE_MS = 60  # a trackpad sends dozens of wheel events a second: one step each 60 ms
TAP_REACH_PX = 12  # a click or tap selects the nearest route this far away (CSS pixels)
DRAG_PX = 5  # a press that moves further than this pans the board instead of clicking
VIEWPORT_RESERVE_PX = 175  # window height kept above the board (title, key, status, setup bar)
HOVER_HINT = "Point at a route or a city to see its facts; click a route to select it."
ZOOM_HELP = (
    "Zoom: the wheel over the board, the buttons, or + and − with the board focused (0 shows "
    "the whole board). Pan: drag the board, the arrow buttons, or Shift+arrows."
)
NO_ROUTE = -1
PAN_KEYS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
NO_PLACE = ""  # the picker's "nothing selected" entry (a None value would show a blank box)
PLACE_KINDS = {
    "city": "city",
    "country_space": "country space (a dead end)",
    "junction": "junction",
}

PiecePainter = Callable[[Canvas, BoardGeometry, "BoardPieces"], None]
"""Hook for variant pieces (meeples, passengers, harbors, tokens): draws on the pieces layer."""

FactProvider = Callable[[str, Any, "BoardPieces"], list[str]]
"""Hook for hover facts: given ("route" | "city", id), extra lines of text."""

PieceHit = Callable[[float, float, BoardGeometry, "BoardPieces"], str | None]
"""Hook for clicks on pieces: the place a piece at board point (x, y) stands for, or None
(Märklin: a passenger's disc, drawn beside its city, stands for the city)."""

# Keep the canvases from receiving pointer events: ipycanvas would send every
# mouse move to the kernel. The board's own throttled ipyevents listener on the
# enclosing element receives them instead.
BOARD_CSS = """
<style>
.ttr-board-canvas canvas { pointer-events: none; }
.ttr-board-canvas { cursor: crosshair; overflow: hidden; }
.ttr-board-canvas.ttr-zoomed { cursor: grab; }
.ttr-zoom-row .widget-button { min-width: 34px; padding: 2px 8px; }
.ttr-zoom-level { min-width: 4.5em; text-align: center; font-size: 13px; }
.ttr-hover { min-height: 1.6em; font-size: 14px; }
</style>
"""


@dataclass
class BoardPieces:
    """What the pieces layer shows: owners of routes and anything a variant adds."""

    owner: dict[int, int] = field(default_factory=dict)
    player_names: list[str] = field(default_factory=list)
    highlighted: frozenset[int] = frozenset()
    game: Any = None  # the game shown, for variant painters and fact providers


def route_choices(game_map: Map) -> list[tuple[str, int]]:
    """Every route as the route list names it, in its order: ``Denver–Omaha (4 blue)``;
    the tracks of a double route that read alike are told apart in words, never by an
    internal number: ``Dallas–Houston (1 gray), track 1 of 2``.
    """
    labels: dict[str, list[int]] = {}
    for route in sorted(game_map.routes, key=lambda r: (game_map.route_label(r), r.id)):
        labels.setdefault(game_map.route_label(route), []).append(route.id)
    choices = []
    for label, ids in labels.items():
        for i, rid in enumerate(ids):
            track = f", track {i + 1} of {len(ids)}" if len(ids) > 1 else ""
            choices.append((label + track, rid))
    return choices


class BoardWidget:
    """Draws a map and its pieces; reports hovered and selected routes.

    Parameters
    ----------
    game_map : Map
        The board to draw.
    guard : CallbackGuard, optional
        Wraps every widget callback so errors are shown on the page.
    """

    def __init__(
        self,
        game_map: Map,
        guard: CallbackGuard | None = None,
        max_width: int = 960,
        max_height: int = 1000,
    ) -> None:
        self.guard = guard or CallbackGuard()
        self.max_width, self.max_height = max_width, max_height
        self.pieces = BoardPieces()
        self.selected: int | None = None
        self.hovered: tuple[str, Any] | None = None
        self._described: tuple[str, Any, str] | None = None  # what the facts label shows
        self.piece_painters: list[PiecePainter] = []
        self.fact_providers: list[FactProvider] = []
        self.piece_hits: list[PieceHit] = []
        self._select_listeners: list[Callable[[int | None], None]] = []
        self._city_listeners: list[Callable[[str], None]] = []
        self._syncing_picker = False
        self.draw_count = 0  # full static redraws, for tests and timing
        self._batching = False
        self._drag: tuple[float, float, float, float] | None = None  # press point, view origin
        self._dragged = False  # the last press panned: its click selects nothing

        self.map = game_map
        width, height = board_size(game_map, max_width, max_height)
        self.geometry = board_geometry(game_map, width, height)
        self.view = Viewport(width, height)
        self.canvas = MultiCanvas(LAYERS, width=width, height=height)
        self._ready = [False] * LAYERS
        for index in range(LAYERS):
            self.canvas[index].on_client_ready(self.guard(self._client_ready_handler(index)))
        self.canvas_box = widgets.Box([self.canvas], _dom_classes=["ttr-board-canvas"])
        self._size_layout(width, height)

        self.hover_label = widgets.HTML(HOVER_HINT, _dom_classes=["ttr-hover"])
        self.route_picker = widgets.Dropdown(
            description="Route:",
            options=self._picker_options(),
            value=NO_ROUTE,
            layout=widgets.Layout(width="auto", max_width="100%"),
            _dom_classes=["ttr-route-picker"],
        )
        self.route_picker.observe(self.guard(self._on_picker), names="value")
        # The keyboard way to what hovering a city shows.
        self.place_picker = widgets.Dropdown(
            description="Place:",
            options=self._place_options(),
            value=NO_PLACE,
            layout=widgets.Layout(width="auto", max_width="100%"),
            _dom_classes=["ttr-place-picker"],
        )
        self.place_picker.observe(self.guard(self._on_place_picker), names="value")
        self.clear_button = widgets.Button(
            description="Clear selection", _dom_classes=["ttr-clear-selection"]
        )
        self.clear_button.on_click(self.guard(lambda _b: self.select(None)))
        self.redraw_button = widgets.Button(
            description="Redraw board",
            tooltip="Draw the whole board again (if it ever looks incomplete)",
            _dom_classes=["ttr-redraw"],
        )
        self.redraw_button.on_click(self.guard(lambda _b: self.redraw()))
        self.zoom_level = widgets.HTML(_dom_classes=["ttr-zoom-level"])
        self.zoom_row = widgets.HBox(
            [
                self._view_button(
                    "−", "ttr-zoom-out", "Zoom out", lambda: self.zoom(1 / ZOOM_STEP)
                ),
                self.zoom_level,
                self._view_button("+", "ttr-zoom-in", "Zoom in", lambda: self.zoom(ZOOM_STEP)),
                self._view_button(
                    "Whole board", "ttr-zoom-reset", "Show the whole board", self.reset_view
                ),
                self._view_button("←", "ttr-pan-left", "Look left", lambda: self.pan(-1, 0)),
                self._view_button("↑", "ttr-pan-up", "Look up", lambda: self.pan(0, -1)),
                self._view_button("↓", "ttr-pan-down", "Look down", lambda: self.pan(0, 1)),
                self._view_button("→", "ttr-pan-right", "Look right", lambda: self.pan(1, 0)),
            ],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
            _dom_classes=["ttr-zoom-row"],
        )
        self.zoom_row.children[0].tooltip = ZOOM_HELP
        self._show_view()

        self._move_events = Event(
            source=self.canvas_box,
            watched_events=["mousemove"],
            wait=HOVER_THROTTLE_MS,
            throttle_or_debounce="throttle",
        )
        self._move_events.on_dom_event(self.guard(self._on_dom_event))
        self._click_events = Event(
            source=self.canvas_box,
            watched_events=["click", "mouseleave", "mousedown", "mouseup"],
        )
        self._click_events.on_dom_event(self.guard(self._on_dom_event))
        # The wheel zooms the board, not the page (its default is prevented over the board).
        self._wheel_events = Event(
            source=self.canvas_box,
            watched_events=["wheel"],
            prevent_default_action=True,
            wait=WHEEL_THROTTLE_MS,
            throttle_or_debounce="throttle",
        )
        self._wheel_events.on_dom_event(self.guard(self._on_dom_event))
        # ipycanvas gives the canvas a tab stop and swallows every key there, Tab
        # included (a keyboard trap). Its keys reach the kernel, though: Tab moves
        # the focus on, arrows step through the routes, Escape clears the selection,
        # + and - zoom, 0 shows the whole board, Shift+arrows pan.
        self.canvas.on_key_down(self.guard(self._on_key))
        self.focus_before: widgets.DOMWidget | None = None  # where Shift+Tab goes

        self.widget = widgets.VBox(
            [
                widgets.HTML(BOARD_CSS),
                self.canvas_box,
                self.hover_label,
                self.zoom_row,
                widgets.HBox(
                    [self.route_picker, self.clear_button, self.redraw_button],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                widgets.HBox([self.place_picker], layout=widgets.Layout(flex_flow="row wrap")),
            ],
            _dom_classes=["ttr-board"],
        )

    # ------------------------------------------------------------ public API
    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, plus an SVG picture of the board for viewers without a kernel."""
        return board_bundle(self, self.widget._repr_mimebundle_(**kwargs))

    def snapshot(self, caption: str = "") -> BoardSnapshot:
        """The board as it is now, shown only where widgets are not (see ``BoardSnapshot``)."""
        return BoardSnapshot(board_svg(self), caption)

    @property
    def size(self) -> tuple[int, int]:
        """The canvas's width and height, in pixels."""
        return self.geometry.width, self.geometry.height

    def set_map(self, game_map: Map) -> None:
        """Show another map (resizes the canvas and redraws everything)."""
        if game_map is self.map:
            return
        self.map = game_map
        width, height = board_size(game_map, self.max_width, self.max_height)
        self.geometry = board_geometry(game_map, width, height)
        self.pieces = BoardPieces()
        self.selected = None
        self.hovered = None
        self._show_facts(None)
        self.canvas.width, self.canvas.height = width, height
        self._size_layout(width, height)
        self.view = Viewport(width, height)
        self._drag = None
        self._show_view()
        self._syncing_picker = True
        try:
            self.route_picker.options = self._picker_options()
            self.route_picker.value = NO_ROUTE
            self.place_picker.options = self._place_options()
            self.place_picker.value = NO_PLACE
        finally:
            self._syncing_picker = False
        self.redraw()

    def set_pieces(self, pieces: BoardPieces) -> None:
        """Show new pieces (after any state change) and refresh the hover text."""
        self.pieces = pieces
        if self._described is not None:
            self._show_facts(*self._described)  # an owner may have changed
        self.draw_pieces()

    def on_select(self, listener: Callable[[int | None], None]) -> None:
        """Call ``listener(route_id or None)`` whenever the selection changes."""
        self._select_listeners.append(listener)

    def on_city_click(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(place_id)`` when a city (or another place) is clicked."""
        self._city_listeners.append(listener)

    def select(self, route_id: int | None) -> None:
        """Select a route (or nothing), by click, picker or program."""
        if route_id is not None and route_id not in self.map.route_by_id:
            raise ValueError(f"there is no route {route_id} on the {self.map.name} map")
        changed = route_id != self.selected
        self.selected = route_id
        picker_value = NO_ROUTE if route_id is None else route_id
        if self.route_picker.value != picker_value:
            self._syncing_picker = True
            try:
                self.route_picker.value = picker_value
            finally:
                self._syncing_picker = False
        if route_id is not None:
            # Also for keyboard users, who select without hovering.
            self._show_facts("route", route_id, prefix="Selected: ")
        elif self._described is not None and self._described[2]:
            self._show_facts(None)  # the "Selected: ..." line no longer holds
        self.draw_overlay()
        if changed:
            for listener in self._select_listeners:
                listener(route_id)

    def pointer(
        self, x: float, y: float, click: bool = False, reach: float = 0.0
    ) -> tuple[str, Any] | None:
        """Handle the pointer at canvas point (x, y): hover facts, and selection on click.

        The canvas may show the board zoomed and panned: the point is mapped back to
        the board before hit-testing. ``reach`` (canvas pixels) widens what a click hits.
        """
        bx, by = self.view.to_board(x, y)
        hit: tuple[str, Any] | None = None
        for piece_hit in self.piece_hits:
            place = piece_hit(bx, by, self.geometry, self.pieces)
            if place is not None:
                hit = ("city", place)
                break
        else:
            hit = self.geometry.hit(bx, by, reach / self.view.zoom)
        if hit != self.hovered:
            self.hovered = hit
            if hit is not None:
                self._show_facts(*hit)
            self.draw_overlay()
        if click and hit is not None:
            if hit[0] == "route":
                self.select(hit[1])
            else:
                for listener in self._city_listeners:
                    listener(hit[1])
        return hit

    def _show_facts(self, kind: str | None, ident: Any = None, prefix: str = "") -> None:
        """Put a route's or city's facts in the label (kept when the pointer leaves)."""
        if kind is None:
            self._described = None
            self.hover_label.value = HOVER_HINT
            return
        self._described = (kind, ident, prefix)
        self.hover_label.value = prefix + self.describe(kind, ident)

    def describe(self, kind: str, ident: Any) -> str:
        """Hover text (HTML) for a route or a city."""
        lines = self._route_facts(ident) if kind == "route" else self._city_facts(ident)
        for provider in self.fact_providers:
            lines.extend(provider(kind, ident, self.pieces))
        return " · ".join(lines)

    def route_text(self, route_id: int) -> str:
        """Plain text facts of a route (used by the app's claim panel)."""
        return html.unescape(
            self.describe("route", route_id).replace("<b>", "").replace("</b>", "")
        )

    def redraw(self) -> None:
        """Redraw every layer (e.g. after a map change), as one message to the browser."""
        with self._batch():
            self.draw_static()
            self.draw_pieces()
            self.draw_overlay()

    # ------------------------------------------------------------ zoom, pan
    def zoom(self, factor: float, at: tuple[float, float] | None = None) -> bool:
        """Zoom by ``factor`` about canvas point ``at`` (default: the middle)."""
        return self._view_changed(self.view.zoom_by(factor, *(at or (None, None))))

    def pan(self, right: int, down: int) -> bool:
        """Look one step right (1) or left (-1), down (1) or up (-1)."""
        return self._view_changed(self.view.pan_step(right, down))

    def reset_view(self) -> bool:
        """Show the whole board again."""
        return self._view_changed(self.view.reset())

    def show_route(self, route_id: int) -> bool:
        """Zoomed in, bring a route that is out of view into the middle (after picking it
        from the list or stepping to it with the keyboard)."""
        shape = self.geometry.routes.get(route_id)
        if shape is None:
            return False
        x, y = self.view.to_canvas(*shape.anchor)
        width, height = self.size
        if 0 <= x <= width and 0 <= y <= height:
            return False
        return self._view_changed(self.view.centre_on(*shape.anchor))

    def _view_changed(self, changed: bool) -> bool:
        if changed:
            self._show_view()
            self.redraw()
        return changed

    def _show_view(self) -> None:
        view = self.view
        self.zoom_level.value = (
            f"<span data-zoom='{view.zoom:.10g}' data-x='{view.x:.10g}' data-y='{view.y:.10g}' "
            f"title='{html.escape(ZOOM_HELP)}'>{round(view.zoom * 100)} %</span>"
        )
        if view.is_whole_board:
            self.canvas_box.remove_class("ttr-zoomed")
        else:
            self.canvas_box.add_class("ttr-zoomed")

    def _view_button(
        self, label: str, cls: str, tooltip: str, then: Callable[[], Any]
    ) -> widgets.Button:
        view_button = widgets.Button(
            description=label,
            tooltip=tooltip,
            _dom_classes=[cls],
            layout=widgets.Layout(width="auto"),
        )
        view_button.on_click(self.guard(lambda _b: then()))
        return view_button

    @contextlib.contextmanager
    def _batch(self) -> Iterator[None]:
        """Hold drawing commands and send them together when the outermost batch ends.

        ipycanvas's ``hold_canvas`` sends at the end of every block, nested or not;
        this lets a full redraw go out as a single message.
        """
        if self._batching:
            yield
            return
        self._batching = True
        try:
            with hold_canvas():
                yield
        finally:
            self._batching = False

    # ---------------------------------------------------------------- facts
    def _owner_text(self, route_id: int) -> str:
        seat = self.pieces.owner.get(route_id)
        if seat is None:
            return self._open_text(route_id)
        name = html.escape(self._player_name(seat))
        return f"claimed by {name} (seat {style.player_style(seat).mark})"

    def _player_name(self, seat: int) -> str:
        names = self.pieces.player_names
        return names[seat] if seat < len(names) else f"Player {seat + 1}"

    def _open_text(self, route_id: int) -> str:
        """An unclaimed route is "open" unless a taken track beside it closes it: with few
        players only one track of a double route is used, and nobody takes both."""
        game = self.pieces.game
        rules = getattr(game, "rules", None)
        if rules is None:
            return "open"
        route = self.map.route_by_id[route_id]
        holders = [
            (self.pieces.owner[other], self.map.route_by_id[other])
            for other in self.map.parallel(route)
            if other in self.pieces.owner
        ]
        if not holders:
            return "open"
        seat, other = holders[0]
        name = html.escape(self._player_name(seat))
        colour = style.swatch(other.color).name.split(" (")[0]
        players = len(game.state.players)
        if players <= rules.closed_parallel_max_players:
            kind = "double" if len(self.map.parallel(route)) == 1 else "triple"
            return (
                f"closed: with {players} players only one track of a {kind} route is used, "
                f"and {name} took the {colour} one"
            )
        return f"open, but not to {name}, who took the {colour} track beside it"

    def _route_facts(self, route_id: int) -> list[str]:
        route = self.map.route_by_id[route_id]
        sw = style.swatch(route.color)
        ends = f"{self.map.place_name(route.a)} – {self.map.place_name(route.b)}"
        colour = sw.name + (f" ({sw.letter})" if sw.letter else "")
        kind = "ship route" if route.kind == "ship" else "train route"
        if route.pair:
            kind = "pair " + kind
        lines = [
            f"<b>{html.escape(ends)}</b>",
            f"{route.length} space{'s' if route.length != 1 else ''}",
            colour,
            kind,
        ]
        with contextlib.suppress(KeyError, ValueError):
            points = self.map.route_points(route.length)
            lines.append(f"{points} point{'s' if points != 1 else ''}")
        others = self.map.parallel(route)
        if others:
            lines.append(f"{'double' if len(others) == 1 else 'triple'} route")
        if route.wraps:
            lines.append("crosses the edge of the board")
        lines.append(self._owner_text(route_id))
        return lines

    def _city_facts(self, place_id: str) -> list[str]:
        city = self.map.city_by_id[place_id]
        kinds = {
            "city": "city",
            "country_space": "country space (a dead end)",
            "junction": "junction",
        }
        lines = [f"<b>{html.escape(city.name)}</b>", kinds.get(city.kind, city.kind)]
        if city.kind == "country_space" and city.country:
            country = self.map.place_name(city.country)
            lines.append(f"tickets to {html.escape(country)} may end here")
        routes = [r for r in self.map.routes if place_id in r.ends]
        lines.append(f"{len(routes)} route{'s' if len(routes) != 1 else ''}")
        if city.port:
            lines.append("port (⚓ ring)")
        if city.passengers_at_setup:
            lines.append(f"{city.passengers_at_setup} passengers at setup")
        if place_id in self.geometry.moved_places:
            lines.append("drawn away from its derived position so its route fits")
        return lines

    # ---------------------------------------------------------------- events
    def _client_ready_handler(self, layer: int) -> Callable[[], None]:
        def ready() -> None:
            self._ready[layer] = True
            painters = {
                LAYER_STATIC: self.draw_routes,
                LAYER_PIECES: self.draw_pieces,
                LAYER_PLACES: self.draw_places,
                LAYER_OVERLAY: self.draw_overlay,
            }
            painters[layer]()

        return ready

    def _on_dom_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "mouseleave":
            self._drag = None
            if self.hovered is not None:
                self.hovered = None
                self.draw_overlay()
            return
        width, height = self.size
        # The element may be displayed scaled (narrow window): map CSS pixels to canvas pixels.
        scale_x = width / (event.get("boundingRectWidth") or width)
        scale_y = height / (event.get("boundingRectHeight") or height)
        x = float(event.get("relativeX", 0)) * scale_x
        y = float(event.get("relativeY", 0)) * scale_y
        if kind == "wheel":
            delta = float(event.get("deltaY") or 0)
            if delta:
                self.zoom(ZOOM_STEP if delta < 0 else 1 / ZOOM_STEP, (x, y))
            return
        if kind == "mousedown":
            self._drag, self._dragged = (x, y, self.view.x, self.view.y), False
            return
        if self._drag is not None and kind in ("mousemove", "mouseup"):
            if kind == "mouseup" or int(event.get("buttons") or 0) & 1:
                self._drag_to(x, y)
            if kind == "mouseup":
                self._drag = None
                return
            if int(event.get("buttons") or 0) & 1:
                return
            self._drag = None  # the button was released outside the board
        if kind == "click" and self._dragged:
            self._dragged = False  # the press panned the board: no selection
            return
        if kind == "click":  # a tap: the nearest route within a fingertip's reach
            self.pointer(x, y, click=True, reach=TAP_REACH_PX * scale_x)
        elif kind == "mousemove":
            self.pointer(x, y)

    def _drag_to(self, x: float, y: float) -> None:
        """Pan so that the board point pressed stays under the pointer."""
        assert self._drag is not None
        x0, y0, view_x, view_y = self._drag
        if not self._dragged and max(abs(x - x0), abs(y - y0)) <= DRAG_PX:
            return
        self._dragged = True
        zoom = self.view.zoom
        self._view_changed(self.view.move_to(view_x - (x - x0) / zoom, view_y - (y - y0) / zoom))

    def _on_key(self, key: str, shift: bool, ctrl: bool, meta: bool) -> None:
        if key in ("+", "="):
            self.zoom(ZOOM_STEP)
        elif key in ("-", "_"):
            self.zoom(1 / ZOOM_STEP)
        elif key == "0":
            self.reset_view()
        elif shift and key in PAN_KEYS:
            self.pan(*PAN_KEYS[key])
        elif key == "Tab":
            target = self.focus_before if shift and self.focus_before else self.route_picker
            target.focus()
        elif key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
            ids = [rid for _, rid in self._picker_options()[1:]]
            step = 1 if key in ("ArrowRight", "ArrowDown") else -1
            index = ids.index(self.selected) + step if self.selected in ids else 0
            self.select(ids[index % len(ids)])
            self.show_route(ids[index % len(ids)])
        elif key == "Escape":
            self.select(None)

    def _on_picker(self, change: dict[str, Any]) -> None:
        if not self._syncing_picker:
            self.select(None if change["new"] == NO_ROUTE else change["new"])
            if self.selected is not None:
                self.show_route(self.selected)

    def _on_place_picker(self, change: dict[str, Any]) -> None:
        place = change["new"]
        self.hovered = None if place == NO_PLACE else ("city", place)
        if self.hovered is None:
            self._show_facts(None)
        else:
            self._show_facts(*self.hovered)
        self.draw_overlay()

    def _place_options(self) -> list[tuple[str, str]]:
        places = sorted(self.map.cities, key=lambda c: (c.name, c.id))
        labels = []
        for place in places:
            kind = PLACE_KINDS.get(place.kind, place.kind)
            if place.kind == "country_space":
                # Several spaces share a country's name: tell them apart by their city.
                routes = [r for r in self.map.routes if place.id in r.ends]
                ends = {self.map.place_name(r.b if r.a == place.id else r.a) for r in routes}
                kind = "country space by " + ", ".join(sorted(ends))
            labels.append((f"{place.name} ({kind})", place.id))
        return [("(no place chosen)", NO_PLACE), *labels]

    def _picker_options(self) -> list[tuple[str, int]]:
        return [("(no route selected)", NO_ROUTE), *route_choices(self.map)]

    def _size_layout(self, width: int, height: int) -> None:
        # The canvas keeps its drawing size and is shown scaled to the space it has: the
        # page width, and the window height less the status lines (so the next decision
        # stays in view beside or under it). Clicks are scaled back in _on_dom_event.
        self.canvas.layout.width = "100%"
        self.canvas.layout.height = "auto"
        # The page may keep less room above the board (the app's tall-board layout sets
        # --ttr-board-reserve).
        reserve = f"var(--ttr-board-reserve, {VIEWPORT_RESERVE_PX}px)"
        fit = f"calc((100vh - {reserve}) * {width / height:.4f})"
        self.shown_width = f"min({width}px, {fit})"  # CSS: how wide the board is shown at most
        self.canvas_box.layout = widgets.Layout(
            width="100%", max_width=self.shown_width, min_width="240px"
        )

    # --------------------------------------------------------------- drawing
    def _layer(self, index: int) -> Canvas | None:
        """The layer to draw on, or None while the browser has not shown it yet."""
        if not self._ready[index]:
            return None
        layer = self.canvas[index]
        # ipycanvas remembers which canvas the browser last drew on; a new browser
        # view (page reload) does not, so always re-send the switch.
        manager = getattr(layer, "_canvas_manager", None)
        if manager is not None:
            manager._current_canvas = None
        return layer

    def _clear(self, layer: Canvas) -> None:
        """Clear a whole layer, then draw in board coordinates through the zoom and pan."""
        layer.reset_transform()  # clear() is a clearRect that the transform would shrink
        layer.clear()
        layer.set_transform(*self.view.transform())

    def draw_static(self) -> None:
        """The parts drawn once per map: routes, then cities and names (their own layer)."""
        self.draw_routes()
        self.draw_places()

    def draw_places(self) -> None:
        """Cities, country spaces, ports and names, above the pieces."""
        layer = self._layer(LAYER_PLACES)
        if layer is None:
            return
        with self._batch():
            self._clear(layer)
            art.draw_places(layer, self.map, self.geometry)

    def draw_routes(self) -> None:
        """Background and every route's spaces with their colour letters."""
        layer = self._layer(LAYER_STATIC)
        if layer is None:
            return
        with self._batch():
            self._clear(layer)
            art.draw_routes(layer, self.map, self.geometry, *self.size)
        self.draw_count += 1

    def draw_pieces(self) -> None:
        """Claimed routes in their owner's colour and number, then variant painters."""
        layer = self._layer(LAYER_PIECES)
        if layer is None:
            return
        with self._batch():
            self._clear(layer)
            art.draw_highlights(layer, self.geometry, self.pieces.highlighted)
            art.draw_claims(layer, self.map, self.geometry, self.pieces.owner)
            for painter in self.piece_painters:
                painter(layer, self.geometry, self.pieces)

    def draw_overlay(self) -> None:
        """The selected route (thick magenta outline) and the hovered route or city."""
        layer = self._layer(LAYER_OVERLAY)
        if layer is None:
            return
        with self._batch():
            self._clear(layer)
            if self.hovered is not None:
                kind, ident = self.hovered
                if kind == "route" and ident != self.selected:
                    art.outline_route(layer, self.geometry, ident, style.HOVER, 2.5)
                elif kind == "city":
                    x, y = self.geometry.positions[ident]
                    layer.stroke_style = style.HOVER
                    layer.line_width = 3
                    layer.stroke_circle(x, y, CITY_RADIUS + 4)
            if self.selected is not None:
                art.outline_route(layer, self.geometry, self.selected, style.SELECTED, 3.5)
