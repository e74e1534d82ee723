"""Rails & Sails World on the board: harbors, tours as ordered chains, port facts.

Everything here plugs into :class:`~ttr_nb.widgets.board.BoardWidget` through its
hooks, so the board and the app stay free of World branches::

    board = BoardWidget(load_map("world"))
    tours = install(board)          # harbor painter, tour painter, hover facts
    tours.show(ticket_id)           # a tour's cities, numbered in order, joined
    board.set_pieces(BoardPieces(owner=..., game=game))

The shapes are computed by pure functions (:func:`harbor_marks`,
:func:`tour_chain`), so they are tested without a browser; the painters only
replay them with ipycanvas's batch calls inside the board's ``hold_canvas``.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from ipycanvas import Canvas

from . import style
from .board import BoardPieces, BoardWidget
from .geometry import CITY_RADIUS, BoardGeometry

__all__ = [
    "HarborMark",
    "TourChain",
    "harbor_facts",
    "harbor_marks",
    "install",
    "paint_harbors",
    "tour_chain",
]

HARBOR_RING = CITY_RADIUS + 7.5  # outside the port ring (CITY_RADIUS + 3.5)
BADGE_RADIUS = 6.5
TOUR_INK = "#6a1b9a"
TOUR_STOP_RADIUS = 8.0


@dataclass(frozen=True)
class HarborMark:
    """A built harbor: a ring round its city in the owner's colour, a badge with the seat."""

    city: str
    seat: int
    x: float
    y: float
    badge_x: float
    badge_y: float


def harbor_marks(geometry: BoardGeometry, game: Any) -> list[HarborMark]:
    """Where each built harbor of ``game`` is drawn (none for a game without harbors)."""
    harbors = getattr(getattr(game, "state", None), "extras", {}).get("harbors", {})
    out = []
    for city, seat in sorted(harbors.items()):
        if city not in geometry.positions:
            continue
        x, y = geometry.positions[city]
        # The badge sits up-left of the city, where names are placed last (see geometry).
        d = HARBOR_RING / math.sqrt(2)
        out.append(HarborMark(city, seat, x, y, x - d, y - d))
    return out


def paint_harbors(canvas: Canvas, geometry: BoardGeometry, pieces: BoardPieces) -> None:
    """Piece painter: every built harbor in its owner's colour, with the seat number."""
    marks = harbor_marks(geometry, pieces.game)
    if not marks:
        return
    xs = np.array([m.x for m in marks], dtype=float)
    ys = np.array([m.y for m in marks], dtype=float)
    fills = np.array([style.hex_to_rgb(style.player_style(m.seat).fill) for m in marks], float)
    canvas.line_width = 4
    canvas.stroke_styled_circles(xs, ys, HARBOR_RING, fills)
    bx = np.array([m.badge_x for m in marks], dtype=float)
    by = np.array([m.badge_y for m in marks], dtype=float)
    canvas.fill_styled_circles(bx, by, BADGE_RADIUS, fills)
    canvas.line_width = 1.5
    canvas.stroke_style = "#111111"
    canvas.stroke_circles(bx, by, BADGE_RADIUS)
    canvas.font = "bold 9px sans-serif"
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    by_ink: dict[str, list[HarborMark]] = {}
    for m in marks:
        by_ink.setdefault(style.player_style(m.seat).ink, []).append(m)
    for ink, items in by_ink.items():
        canvas.fill_style = ink
        for m in items:
            canvas.fill_text(style.player_style(m.seat).mark, m.badge_x, m.badge_y)


def tour_chain(
    geometry: BoardGeometry, cities: list[str] | tuple[str, ...]
) -> tuple[list[tuple[float, float, float, float]], list[tuple[str, float, float]]]:
    """Segments joining a tour's cities in order, and numbered stops (``"1"`` at the first).

    On a wrapping board a leg whose cities are more than half the board apart goes the
    shorter way, across the edge: it is drawn as two segments, one leaving each edge.
    """
    pos = geometry.positions
    segments: list[tuple[float, float, float, float]] = []
    for a, b in zip(cities, cities[1:], strict=False):
        (ax, ay), (bx, by) = pos[a], pos[b]
        seam = geometry.seam
        if seam is not None and abs(bx - ax) > (seam[1] - seam[0]) / 2:
            width = seam[1] - seam[0]
            shift = width if bx < ax else -width
            segments.append((ax, ay, bx + shift, by))
            segments.append((ax - shift, ay, bx, by))
        else:
            segments.append((ax, ay, bx, by))
    stops = [(str(i + 1), *pos[c]) for i, c in enumerate(cities)]
    return segments, stops


class TourChain:
    """Piece painter that shows one tour (or none): its cities numbered and joined in order."""

    def __init__(self, board: BoardWidget) -> None:
        self.board = board
        self.cities: tuple[str, ...] = ()

    def show(self, ticket_id: int | None) -> None:
        """Show the tour ``ticket_id`` (None: no tour) and redraw the pieces layer."""
        if ticket_id is None:
            self.cities = ()
        else:
            ticket = self.board.map.ticket_by_id[ticket_id]
            self.cities = ticket.cities
        self.board.draw_pieces()

    def __call__(self, canvas: Canvas, geometry: BoardGeometry, pieces: BoardPieces) -> None:
        if not self.cities or any(c not in geometry.positions for c in self.cities):
            return
        segments, stops = tour_chain(geometry, self.cities)
        canvas.stroke_style = TOUR_INK
        canvas.line_width = 3
        canvas.set_line_dash([8, 5])
        canvas.stroke_line_segments(
            np.array(segments, dtype=float).reshape(-1, 2),
            points_per_line_segment=np.full(len(segments), 2, dtype=int),
        )
        canvas.set_line_dash([])
        xs = np.array([x for _, x, _ in stops], dtype=float)
        ys = np.array([y for _, _, y in stops], dtype=float)
        canvas.fill_style = TOUR_INK
        canvas.fill_circles(xs, ys - 2 * TOUR_STOP_RADIUS, TOUR_STOP_RADIUS)
        canvas.font = "bold 10px sans-serif"
        canvas.text_align = "center"
        canvas.text_baseline = "middle"
        canvas.fill_style = "#ffffff"
        for text, x, y in stops:
            canvas.fill_text(text, x, y - 2 * TOUR_STOP_RADIUS)


def harbor_facts(kind: str, ident: Any, pieces: BoardPieces) -> list[str]:
    """Hover facts: whether a city is a port, and whose harbor stands there."""
    game = pieces.game
    if kind != "city" or game is None or ident not in game.map.city_by_id:
        return []
    city = game.map.city_by_id[ident]
    if not city.port:
        return ["no harbor can be built here (not a port)"] if city.kind == "city" else []
    seat = game.state.extras.get("harbors", {}).get(ident)
    if seat is None:
        return ["no harbor yet"]
    names = pieces.player_names
    name = names[seat] if seat < len(names) else f"Player {seat + 1}"
    return [f"harbor of {html.escape(name)} (seat {style.player_style(seat).mark})"]


def install(board: BoardWidget) -> TourChain:
    """Add the harbor painter, a tour painter and the harbor facts to ``board``."""
    tours = TourChain(board)
    board.piece_painters.extend([paint_harbors, tours])
    board.fact_providers.append(harbor_facts)
    return tours
