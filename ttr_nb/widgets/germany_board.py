"""Germany on the board: passengers drawn at every city and country, and hover facts.

* :func:`paint_passengers` is a pieces-layer painter (see
  :data:`~ttr_nb.widgets.board.PiecePainter`): one small disc per passenger, in
  the passenger's colour and with the colour's letter (R, K, G, Y, B, W) for
  colour-blind players, arranged in an arc beside its city, on the side away
  from the city's name. A country's passengers sit at the country's own point
  (a small ring), joined by dotted lines to its spaces: they are taken through
  any of them.
* :func:`passenger_facts` is a hover :data:`~ttr_nb.widgets.board.FactProvider`:
  the passengers waiting at a place, or at both ends of a route.
* :func:`disc_spots` and :func:`paint_discs` place and draw lettered discs beside
  any place; they are not tied to Germany's passengers (Märklin's tokens can
  use them).
* :func:`add_passengers` registers both on a :class:`~ttr_nb.widgets.BoardWidget`;
  :func:`passenger_board` builds a board for a game with them (lessons).

Both hooks do nothing unless ``pieces.game`` is a Germany game, so they can be
registered on any board. Drawing uses ipycanvas batch calls (one
``fill_circles``/``stroke_circles`` per colour) inside the board's
``hold_canvas`` batch.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from ipycanvas import Canvas

from ..rules.germany import BOARD_KEY, GermanyRules
from . import style
from .board import BoardPieces, BoardWidget
from .game_board import game_board, refresh_board
from .geometry import CITY_RADIUS, LABEL_CHAR_PX, LABEL_FONT_PX, BoardGeometry

Point = tuple[float, float]

PASSENGER_RADIUS = 8.5
RING = CITY_RADIUS + PASSENGER_RADIUS + 1.5  # distance from a city's centre to a disc's
COUNTRY_STEP = 2 * PASSENGER_RADIUS + 1.5  # discs of a country side by side
OUTLINE = "#222222"
HALO = "#fffdf6"
COUNTRY_LINK = "#8a6d3b"
ARC_DIRECTIONS = 16  # directions tried for the arc of a city's discs


@dataclass(frozen=True)
class PassengerMark:
    """One lettered disc on the board: a passenger here (a Märklin token may reuse it).

    ``colour`` is a colour of :func:`~ttr_nb.widgets.style.swatch` (fill and ink);
    ``text`` is drawn on it (default: the colour's letter, for colour-blind players).
    """

    place: str
    colour: str
    x: float
    y: float
    text: str = ""
    fill: str = ""  # overrides the colour's fill and ink (Märklin: the owner's colour)
    ink: str = ""

    @property
    def letter(self) -> str:
        """The letter on the disc: its own text, or its colour's letter."""
        return self.text or style.swatch(self.colour).letter

    @property
    def paint(self) -> tuple[str, str]:
        """(fill, ink) of the disc."""
        sw = style.swatch(self.colour)
        return self.fill or sw.fill, self.ink or sw.ink


def _germany(pieces: BoardPieces) -> Any:
    game = pieces.game
    if game is None or not isinstance(getattr(game, "rules", None), GermanyRules):
        return None
    return game


def _away_from_label(geometry: BoardGeometry, place: str) -> float:
    """Angle (radians, canvas y down) pointing away from the place's name."""
    x, y = geometry.positions[place]
    label = geometry.city_labels.get(place)
    if label is None:
        return math.pi / 2  # below
    lx = label.x + len(label.text) * 3.0  # the name's middle
    ly = label.y - 4.0
    return math.atan2(y - ly, x - lx)


def _obstacles(geometry: BoardGeometry) -> dict[str, Any]:
    """What a disc should not cover, as arrays (cached on the geometry, which is itself
    cached per map and size): every name's box, every place's point, every route space."""
    cached = geometry.__dict__.get("_disc_obstacles")
    if cached is None:
        boxes = [
            (lab.x - 1, lab.y - LABEL_FONT_PX, lab.x + len(lab.text) * LABEL_CHAR_PX + 1, lab.y + 3)
            for lab in geometry.city_labels.values()
        ]
        places = list(geometry.positions)
        spaces = [(sp.cx, sp.cy) for shape in geometry.routes.values() for sp in shape.spaces]
        cached = {
            "boxes": np.array(boxes or [(0, 0, 0, 0)], dtype=float).reshape(-1, 4),
            "places": places,
            "points": np.array([geometry.positions[p] for p in places], dtype=float),
            "spaces": np.array(spaces or [(-1e9, -1e9)], dtype=float).reshape(-1, 2),
            "spots": {},
        }
        geometry.__dict__["_disc_obstacles"] = cached
    return cached


def _crowding(geometry: BoardGeometry, place: str, centres: np.ndarray) -> float:
    """How much discs at ``centres`` (k × 2) would hide: names (worst), other places,
    route spaces, or the board's edge."""
    obstacles = _obstacles(geometry)
    r = PASSENGER_RADIUS + 1.5  # with its halo
    x, y = centres[:, :1], centres[:, 1:]
    boxes = obstacles["boxes"]
    nx = np.clip(x, boxes[:, 0], boxes[:, 2]) - x
    ny = np.clip(y, boxes[:, 1], boxes[:, 3]) - y
    names = np.count_nonzero(nx * nx + ny * ny < r * r)
    points = obstacles["points"]
    own = np.array([p == place for p in obstacles["places"]])
    d = (points[:, 0] - x) ** 2 + (points[:, 1] - y) ** 2
    others = np.count_nonzero((d < (r + CITY_RADIUS) ** 2) & ~own)
    spaces = obstacles["spaces"]
    covered = np.count_nonzero((spaces[:, 0] - x) ** 2 + (spaces[:, 1] - y) ** 2 < (r + 3) ** 2)
    outside = np.count_nonzero(
        (x < r) | (y < r) | (x > geometry.width - r) | (y > geometry.height - r)
    )
    return 20.0 * names + 8.0 * others + 1.0 * covered + 100.0 * outside


def country_point(geometry: BoardGeometry, country: str) -> Point:
    """Where a country's passengers wait: its point, nudged (at most 24 px) to where a disc
    hides no name and no place (Schweiz's point lies on Konstanz's name)."""
    spots = _obstacles(geometry)["spots"]
    key = ("country", country)
    if key not in spots:
        x, y = geometry.positions[country]
        offsets = [(dx, dy) for dx in range(-24, 25, 6) for dy in range(-24, 25, 6)]
        centres = np.array([(x + dx, y + dy) for dx, dy in offsets], dtype=float)
        costs = [
            _crowding(geometry, country, centres[i : i + 1]) + math.hypot(dx, dy) / 24
            for i, (dx, dy) in enumerate(offsets)
        ]
        best = centres[int(np.argmin(costs))]
        spots[key] = (float(best[0]), float(best[1]))
    return spots[key]


def disc_spots(geometry: BoardGeometry, place: str, n: int, row: bool = False) -> list[Point]:
    """Centres of ``n`` discs beside ``place``: an arc around a city, on the side where
    they hide the fewest names, places and route spaces (away from its own name when
    that side is free), or (``row``) a row centred on a country's point."""
    if row:
        x, y = country_point(geometry, place)
        start = x - (n - 1) * COUNTRY_STEP / 2
        return [(start + i * COUNTRY_STEP, y) for i in range(n)]
    spots = _obstacles(geometry)["spots"]
    key = (place, n)
    if key not in spots:
        x, y = geometry.positions[place]
        away = _away_from_label(geometry, place)
        best: tuple[float, list[Point]] | None = None
        # A wider ring keeps many discs (Berlin's 5) on one side instead of around the
        # city and over its name; it costs a little, being further from the city.
        for ring, extra in (
            (RING, 0.0),
            (RING + PASSENGER_RADIUS + 2, 2.0),
            (RING + 2 * PASSENGER_RADIUS + 4, 4.0),
        ):
            step = (2 * PASSENGER_RADIUS + 1.0) / ring  # radians between discs
            for k in range(ARC_DIRECTIONS):
                turn = min(k, ARC_DIRECTIONS - k)  # how far from "away from its name"
                first = away + k * 2 * math.pi / ARC_DIRECTIONS - (n - 1) * step / 2
                arc = [
                    (x + ring * math.cos(first + i * step), y + ring * math.sin(first + i * step))
                    for i in range(n)
                ]
                cost = _crowding(geometry, place, np.array(arc, dtype=float)) + 0.3 * turn
                cost += extra
                if best is None or cost < best[0]:
                    best = (cost, arc)
        assert best is not None
        spots[key] = best[1]
    return list(spots[key])


def passenger_marks(game: Any, geometry: BoardGeometry) -> list[PassengerMark]:
    """Every passenger on the board with its drawing position (no drawing: testable).

    Discs of one city form an arc centred on the side opposite the city's name,
    one disc per passenger, grouped by colour.
    """
    rules: GermanyRules = game.rules
    board = game.state.extras.get(BOARD_KEY, {})
    countries = game.map.country_by_id
    marks: list[PassengerMark] = []
    for place, waiting in board.items():
        if place not in geometry.positions:
            continue
        colours = [c for c in rules.passenger_colours for _ in range(waiting.get(c, 0))]
        spots = disc_spots(geometry, place, len(colours), row=place in countries)
        marks += [
            PassengerMark(place, colour, x, y)
            for colour, (x, y) in zip(colours, spots, strict=True)
        ]
    return marks


def paint_discs(canvas: Canvas, marks: Sequence[PassengerMark]) -> None:
    """Lettered discs in their colours, each with a light halo and a dark rim (so a disc
    reads as a token, not a route space): one batch call per colour."""
    if not marks:
        return
    by_colour: dict[tuple[str, str], list[PassengerMark]] = {}
    for mark in marks:
        by_colour.setdefault(mark.paint, []).append(mark)
    for (fill, _), group in by_colour.items():
        canvas.fill_style = fill
        canvas.fill_circles(
            np.array([m.x for m in group], dtype=float),
            np.array([m.y for m in group], dtype=float),
            PASSENGER_RADIUS,
        )
    xs = np.array([m.x for m in marks], dtype=float)
    ys = np.array([m.y for m in marks], dtype=float)
    canvas.stroke_style = HALO
    canvas.line_width = 3
    canvas.stroke_circles(xs, ys, PASSENGER_RADIUS + 1.5)
    canvas.stroke_style = OUTLINE
    canvas.line_width = 1.5
    canvas.stroke_circles(xs, ys, PASSENGER_RADIUS)
    canvas.font = "bold 12px sans-serif"
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    for (_, ink), group in by_colour.items():
        canvas.fill_style = ink
        for mark in group:
            canvas.fill_text(mark.letter, mark.x, mark.y + 0.5)


def paint_passengers(canvas: Canvas, geometry: BoardGeometry, pieces: BoardPieces) -> None:
    """Pieces-layer painter: the passengers waiting on the board (Germany games only)."""
    game = _germany(pieces)
    if game is None:
        return
    _draw_country_links(canvas, game, geometry)
    paint_discs(canvas, passenger_marks(game, geometry))


def _draw_country_links(canvas: Canvas, game: Any, geometry: BoardGeometry) -> None:
    """Dotted lines from each country's point (where its passengers wait) to its spaces,
    and a small ring at that point, which stays when the passengers are gone."""
    points: list[tuple[float, float]] = []
    hubs: list[tuple[float, float]] = []
    for country in game.map.countries:
        if country.id not in geometry.positions:
            continue
        cx, cy = country_point(geometry, country.id)
        hubs.append((cx, cy))
        for space in game.map.cities:
            if space.country == country.id and space.id in geometry.positions:
                points += [(cx, cy), geometry.positions[space.id]]
    if not hubs:
        return
    canvas.stroke_style = COUNTRY_LINK
    canvas.line_width = 1
    canvas.set_line_dash([2, 3])
    canvas.stroke_line_segments(
        np.array(points, dtype=float),
        points_per_line_segment=np.full(len(points) // 2, 2, dtype=int),
    )
    canvas.set_line_dash([])
    canvas.stroke_circles(
        np.array([x for x, _ in hubs], dtype=float),
        np.array([y for _, y in hubs], dtype=float),
        PASSENGER_RADIUS + 1.5,
    )


def _waiting_html(rules: GermanyRules, waiting: dict[str, int]) -> str:
    if not waiting:
        return "no passenger left"
    parts = []
    for colour, n in waiting.items():
        sw = style.swatch(colour)
        parts.append(f"{n} {html.escape(colour)} ({sw.letter})")
    total = sum(waiting.values())
    return f"{total} passenger{'s' if total != 1 else ''}: " + ", ".join(parts)


def passenger_facts(kind: str, ident: Any, pieces: BoardPieces) -> list[str]:
    """Hover facts: the passengers at a place, or at both ends of a route."""
    game = _germany(pieces)
    if game is None:
        return []
    rules: GermanyRules = game.rules
    state = game.state
    if kind == "city":
        place = rules.passenger_place.get(ident, ident)
        line = _waiting_html(rules, rules.passengers_at(state, ident))
        if place != ident:
            country = html.escape(game.map.place_name(place))
            spaces = sum(1 for c in game.map.cities if c.country == place)
            return [f"{country}'s {line} (shared by its {spaces} spaces)"]
        return [line]
    if kind == "route" and ident in rules.route_places:
        ends = []
        for place in rules.route_places[ident]:
            waiting = rules.passengers_at(state, place)
            name = html.escape(game.map.place_name(place))
            ends.append(f"{name}: {_waiting_html(rules, waiting)}")
        return ["claiming takes one passenger from each end (" + "; ".join(ends) + ")"]
    return []


def add_passengers(view: BoardWidget) -> BoardWidget:
    """Register the passenger painter and facts on ``view`` (once) and return it."""
    if paint_passengers not in view.piece_painters:
        view.piece_painters.append(paint_passengers)
    if passenger_facts not in view.fact_providers:
        view.fact_providers.append(passenger_facts)
    return view


def passenger_board(game: Any, highlight: Iterable[int] = (), **options: Any) -> BoardWidget:
    """A board widget showing ``game`` with its passengers (refresh it with
    :func:`~ttr_nb.widgets.game_board.refresh_board` after a move)."""
    options.setdefault("max_height", 1000)
    view = add_passengers(game_board(game, **options))
    refresh_board(view, game, highlight)
    return view
