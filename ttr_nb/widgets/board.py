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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import ipywidgets as widgets
import numpy as np
from ipycanvas import Canvas, MultiCanvas, hold_canvas
from ipyevents import Event

from ..maps import Map
from . import style
from .geometry import CITY_RADIUS, BoardGeometry, Space, board_geometry, board_size
from .safety import CallbackGuard

# Places sit above the pieces so claimed trains never hide a city or its name.
LAYER_STATIC, LAYER_PIECES, LAYER_PLACES, LAYER_OVERLAY = 0, 1, 2, 3
LAYERS = 4
HOVER_THROTTLE_MS = 80
VIEWPORT_RESERVE_PX = 150  # window height kept for the title and status above the board
HOVER_HINT = "Point at a route or a city to see its facts; click a route to select it."
NO_ROUTE = -1
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

# Keep the canvases from receiving pointer events: ipycanvas would send every
# mouse move to the kernel. The board's own throttled ipyevents listener on the
# enclosing element receives them instead.
BOARD_CSS = """
<style>
.ttr-board-canvas canvas { pointer-events: none; }
.ttr-board-canvas { cursor: crosshair; }
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
        self._select_listeners: list[Callable[[int | None], None]] = []
        self._syncing_picker = False
        self.draw_count = 0  # full static redraws, for tests and timing
        self._batching = False

        self.map = game_map
        width, height = board_size(game_map, max_width, max_height)
        self.geometry = board_geometry(game_map, width, height)
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

        self._move_events = Event(
            source=self.canvas_box,
            watched_events=["mousemove"],
            wait=HOVER_THROTTLE_MS,
            throttle_or_debounce="throttle",
        )
        self._move_events.on_dom_event(self.guard(self._on_dom_event))
        self._click_events = Event(source=self.canvas_box, watched_events=["click", "mouseleave"])
        self._click_events.on_dom_event(self.guard(self._on_dom_event))
        # ipycanvas gives the canvas a tab stop and swallows every key there, Tab
        # included (a keyboard trap). Its keys reach the kernel, though: Tab moves
        # the focus on, arrows step through the routes, Escape clears the selection.
        self.canvas.on_key_down(self.guard(self._on_key))
        self.focus_before: widgets.DOMWidget | None = None  # where Shift+Tab goes

        self.widget = widgets.VBox(
            [
                widgets.HTML(BOARD_CSS),
                self.canvas_box,
                self.hover_label,
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
        from .board_svg import board_bundle

        return board_bundle(self, self.widget._repr_mimebundle_(**kwargs))

    def snapshot(self, caption: str = "") -> Any:
        """The board as it is now, shown only where widgets are not (see ``BoardSnapshot``)."""
        from .board_svg import BoardSnapshot, board_svg

        return BoardSnapshot(board_svg(self), caption)

    @property
    def size(self) -> tuple[int, int]:
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

    def pointer(self, x: float, y: float, click: bool = False) -> tuple[str, Any] | None:
        """Handle the pointer at canvas point (x, y): hover facts, and selection on click."""
        hit = self.geometry.hit(x, y)
        if hit != self.hovered:
            self.hovered = hit
            if hit is not None:
                self._show_facts(*hit)
            self.draw_overlay()
        if click and hit is not None and hit[0] == "route":
            self.select(hit[1])
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
            return "open"
        names = self.pieces.player_names
        name = names[seat] if seat < len(names) else f"Player {seat + 1}"
        return f"claimed by {html.escape(name)} (seat {style.player_style(seat).mark})"

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
            lines.append(f"{self.map.route_points(route.length)} points")
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
        self.pointer(x, y, click=kind == "click")

    def _on_key(self, key: str, shift: bool, ctrl: bool, meta: bool) -> None:
        if key == "Tab":
            target = self.focus_before if shift and self.focus_before else self.route_picker
            target.focus()
        elif key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
            ids = [rid for _, rid in self._picker_options()[1:]]
            step = 1 if key in ("ArrowRight", "ArrowDown") else -1
            index = ids.index(self.selected) + step if self.selected in ids else 0
            self.select(ids[index % len(ids)])
        elif key == "Escape":
            self.select(None)

    def _on_picker(self, change: dict[str, Any]) -> None:
        if not self._syncing_picker:
            self.select(None if change["new"] == NO_ROUTE else change["new"])

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
        routes = sorted(self.map.routes, key=lambda r: (self.map.route_label(r), r.id))
        return [("(no route selected)", NO_ROUTE)] + [
            (f"{self.map.route_label(r)} #{r.id}", r.id) for r in routes
        ]

    def _size_layout(self, width: int, height: int) -> None:
        # The canvas keeps its drawing size and is shown scaled to the space it has: the
        # page width, and the window height less the status lines (so the next decision
        # stays in view beside or under it). Clicks are scaled back in _on_dom_event.
        self.canvas.layout.width = "100%"
        self.canvas.layout.height = "auto"
        fit = f"calc((100vh - {VIEWPORT_RESERVE_PX}px) * {width / height:.4f})"
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
            layer.clear()
            _draw_places(layer, self.map, self.geometry)

    def draw_routes(self) -> None:
        """Background and every route's spaces with their colour letters."""
        layer = self._layer(LAYER_STATIC)
        if layer is None:
            return
        with self._batch():
            layer.clear()
            _draw_routes(layer, self.map, self.geometry, *self.size)
        self.draw_count += 1

    def draw_pieces(self) -> None:
        """Claimed routes in their owner's colour and number, then variant painters."""
        layer = self._layer(LAYER_PIECES)
        if layer is None:
            return
        with self._batch():
            layer.clear()
            _draw_highlights(layer, self.geometry, self.pieces.highlighted)
            _draw_claims(layer, self.map, self.geometry, self.pieces.owner)
            for painter in self.piece_painters:
                painter(layer, self.geometry, self.pieces)

    def draw_overlay(self) -> None:
        """The selected route (thick magenta outline) and the hovered route or city."""
        layer = self._layer(LAYER_OVERLAY)
        if layer is None:
            return
        with self._batch():
            layer.clear()
            if self.hovered is not None:
                kind, ident = self.hovered
                if kind == "route" and ident != self.selected:
                    _outline_route(layer, self.geometry, ident, style.HOVER, 2.5)
                elif kind == "city":
                    x, y = self.geometry.positions[ident]
                    layer.stroke_style = style.HOVER
                    layer.line_width = 3
                    layer.stroke_circle(x, y, CITY_RADIUS + 4)
            if self.selected is not None:
                _outline_route(layer, self.geometry, self.selected, style.SELECTED, 3.5)


# ------------------------------------------------------------------ batches
@dataclass
class _StaticArt:
    space_points: np.ndarray
    space_counts: np.ndarray
    space_colours: np.ndarray
    pair_lines: np.ndarray
    pair_counts: np.ndarray
    letters: dict[str, list[tuple[str, float, float]]]


@cache
def _static_art(game_map: Map, width: int, height: int) -> _StaticArt:
    """Numpy batches for the static layer, built once per map and canvas size."""
    geometry = board_geometry(game_map, width, height)
    points: list[tuple[float, float]] = []
    counts: list[int] = []
    colours: list[tuple[int, int, int]] = []
    pair_points: list[tuple[float, float]] = []
    letters: dict[str, list[tuple[str, float, float]]] = {}
    for rid, shape in geometry.routes.items():
        route = game_map.route_by_id[rid]
        sw = style.swatch(route.color)
        rgb = style.hex_to_rgb(sw.fill)
        for space in shape.spaces:
            poly = space.oval() if route.kind == "ship" else space.corners()
            points.extend(poly)
            counts.append(len(poly))
            colours.append(rgb)
            if route.pair:
                # A white stripe along the space marks a pair route.
                d = space.half_length * 0.7
                pair_points.extend(
                    [
                        (space.cx - space.ux * d, space.cy - space.uy * d),
                        (space.cx + space.ux * d, space.cy + space.uy * d),
                    ]
                )
            if sw.letter and space.half_length >= 4:
                letters.setdefault(sw.ink, []).append((sw.letter, space.cx, space.cy))
    return _StaticArt(
        space_points=np.array(points, dtype=float).reshape(-1, 2),
        space_counts=np.array(counts, dtype=int),
        space_colours=np.array(colours, dtype=float).reshape(-1, 3),
        pair_lines=np.array(pair_points, dtype=float).reshape(-1, 2),
        pair_counts=np.full(len(pair_points) // 2, 2, dtype=int),
        letters=letters,
    )


def _draw_routes(
    layer: Canvas, game_map: Map, geometry: BoardGeometry, width: int, height: int
) -> None:
    """Background and every route's spaces with their colour letters (the static layer)."""
    art = _static_art(game_map, width, height)
    layer.fill_style = style.BOARD_BACKGROUND
    layer.fill_rect(0, 0, width, height)
    if geometry.seam is not None:
        _draw_seam(layer, geometry, height)
    layer.fill_styled_polygons(
        art.space_points, art.space_colours, points_per_polygon=art.space_counts
    )
    layer.line_width = 1
    layer.stroke_style = style.SPACE_OUTLINE
    layer.stroke_polygons(art.space_points, points_per_polygon=art.space_counts)
    if len(art.pair_lines):
        layer.stroke_style = "#ffffff"
        layer.line_width = 1.5
        layer.stroke_line_segments(art.pair_lines, points_per_line_segment=art.pair_counts)
    layer.font = "bold 8px sans-serif"
    layer.text_align = "center"
    layer.text_baseline = "middle"
    for ink, items in art.letters.items():
        layer.fill_style = ink
        for text, x, y in items:
            layer.fill_text(text, x, y)


def _draw_seam(layer: Canvas, geometry: BoardGeometry, height: int) -> None:
    west, east = geometry.seam or (0.0, 0.0)
    layer.stroke_style = style.BOARD_EDGE
    layer.line_width = 2
    layer.set_line_dash([6, 6])
    layer.stroke_line_segments(
        np.array([[west, 4], [west, height - 4], [east, 4], [east, height - 4]], dtype=float),
        points_per_line_segment=np.array([2, 2]),
    )
    layer.set_line_dash([])
    layer.font = "italic 11px sans-serif"
    layer.fill_style = "#8a7d5a"
    layer.text_align = "center"
    layer.text_baseline = "bottom"
    layer.fill_text(
        "the west and east edges join: routes leaving one edge come back at the other",
        geometry.width / 2,
        height - 6,
    )


def _draw_places(layer: Canvas, game_map: Map, geometry: BoardGeometry) -> None:
    cities = [c for c in game_map.cities if c.kind == "city"]
    junctions = [c for c in game_map.cities if c.kind == "junction"]
    spaces = [c for c in game_map.cities if c.kind == "country_space"]
    pos = geometry.positions
    if cities:
        xs = np.array([pos[c.id][0] for c in cities], dtype=float)
        ys = np.array([pos[c.id][1] for c in cities], dtype=float)
        layer.fill_style = style.CITY_FILL
        layer.fill_circles(xs, ys, CITY_RADIUS)
        layer.stroke_style = style.CITY_STROKE
        layer.line_width = 2
        layer.stroke_circles(xs, ys, CITY_RADIUS)
    ports = [c for c in game_map.cities if c.port]
    if ports:
        layer.stroke_style = style.PORT_RING
        layer.line_width = 2
        layer.stroke_circles(
            np.array([pos[c.id][0] for c in ports], dtype=float),
            np.array([pos[c.id][1] for c in ports], dtype=float),
            CITY_RADIUS + 3.5,
        )
    if spaces:
        # Country spaces: a diamond, so they read as "not a city" without colour.
        r = CITY_RADIUS + 2
        diamonds = np.array(
            [
                [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
                for x, y in (pos[c.id] for c in spaces)
            ],
            dtype=float,
        )
        layer.fill_style = style.COUNTRY_FILL
        layer.fill_polygons(diamonds)
        layer.stroke_style = style.COUNTRY_STROKE
        layer.line_width = 2
        layer.stroke_polygons(diamonds)
    if junctions:
        layer.fill_style = style.CITY_STROKE
        layer.fill_circles(
            np.array([pos[c.id][0] for c in junctions], dtype=float),
            np.array([pos[c.id][1] for c in junctions], dtype=float),
            3,
        )
    layer.text_align = "left"
    layer.text_baseline = "alphabetic"
    layer.line_width = 3
    layer.stroke_style = style.LABEL_HALO
    for kind, font in (("city", "bold 11px sans-serif"), ("country_space", "italic 11px serif")):
        layer.font = font
        layer.fill_style = style.LABEL_INK if kind == "city" else style.COUNTRY_STROKE
        for c in game_map.cities:
            label = geometry.city_labels.get(c.id)
            if c.kind != kind or label is None:
                continue
            layer.stroke_text(label.text, label.x, label.y)
            layer.fill_text(label.text, label.x, label.y)


def _space_batch(
    spaces: Iterable[Space], grow: float, oval: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    points: list[tuple[float, float]] = []
    counts: list[int] = []
    for space in spaces:
        poly = space.oval(grow=grow) if oval else space.corners(grow=grow)
        points.extend(poly)
        counts.append(len(poly))
    return np.array(points, dtype=float).reshape(-1, 2), np.array(counts, dtype=int)


def _draw_claims(
    layer: Canvas, game_map: Map, geometry: BoardGeometry, owner: dict[int, int]
) -> None:
    if not owner:
        return
    points: list[tuple[float, float]] = []
    counts: list[int] = []
    colours: list[tuple[int, int, int]] = []
    marks: dict[str, list[tuple[str, float, float]]] = {}
    for rid, seat in sorted(owner.items()):
        shape = geometry.routes.get(rid)
        if shape is None:
            continue
        ps = style.player_style(seat)
        rgb = style.hex_to_rgb(ps.fill)
        ship = game_map.route_by_id[rid].kind == "ship"
        for space in shape.spaces:
            poly = space.oval(grow=1.5) if ship else space.corners(grow=1.5)
            points.extend(poly)
            counts.append(len(poly))
            colours.append(rgb)
            marks.setdefault(ps.ink, []).append((ps.mark, space.cx, space.cy))
    flat = np.array(points, dtype=float)
    per_polygon = np.array(counts, dtype=int)
    layer.fill_styled_polygons(flat, np.array(colours, dtype=float), points_per_polygon=per_polygon)
    layer.stroke_style = "#111111"
    layer.line_width = 2
    layer.stroke_polygons(flat, points_per_polygon=per_polygon)
    layer.font = "bold 9px sans-serif"
    layer.text_align = "center"
    layer.text_baseline = "middle"
    for ink, items in marks.items():
        layer.fill_style = ink
        for text, x, y in items:
            layer.fill_text(text, x, y)


def _draw_highlights(layer: Canvas, geometry: BoardGeometry, routes: frozenset[int]) -> None:
    """A soft blue halo around routes (a halo, not a fill: a filled glow made gray routes
    look yellow)."""
    shapes = [geometry.routes[rid] for rid in sorted(routes) if rid in geometry.routes]
    spaces = [space for shape in shapes for space in shape.spaces]
    if not spaces:
        return
    points, counts = _space_batch(spaces, grow=3.0)
    layer.global_alpha = 0.5
    layer.stroke_style = style.CLAIMABLE
    layer.line_width = 3
    layer.stroke_polygons(points, points_per_polygon=counts)
    layer.global_alpha = 1.0


def _outline_route(
    layer: Canvas, geometry: BoardGeometry, route_id: int, colour: str, width: float
) -> None:
    shape = geometry.routes.get(route_id)
    if shape is None:
        return
    points, counts = _space_batch(shape.spaces, grow=2.5)
    layer.stroke_style = colour
    layer.line_width = width
    layer.stroke_polygons(points, points_per_polygon=counts)


def outline_routes(layer: Canvas, geometry: BoardGeometry, route_ids: list[int], seat: int) -> None:
    """Outline routes boldly in a seat's colour (the end screen's longest trails)."""
    spaces = [
        space
        for rid in route_ids
        if rid in geometry.routes
        for space in geometry.routes[rid].spaces
    ]
    if not spaces:
        return
    points, counts = _space_batch(spaces, grow=4.0)
    layer.stroke_style = "#111111"
    layer.line_width = 5
    layer.stroke_polygons(points, points_per_polygon=counts)
    layer.stroke_style = style.player_style(seat).fill
    layer.line_width = 3
    layer.stroke_polygons(points, points_per_polygon=counts)
