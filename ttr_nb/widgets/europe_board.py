"""Europe on the board: tunnels, ferries' locomotive symbols, stations, borrowed routes.

Everything here plugs into :class:`~ttr_nb.widgets.board.BoardWidget` through its
hooks, so the board and the app stay free of Europe branches::

    board = BoardWidget(load_map("europe"))
    install(board)                  # the Europe painter and hover facts
    board.set_pieces(BoardPieces(owner=..., game=game))

* **Tunnels**: a dark dashed frame round each space (the printed board draws tunnel
  spaces with a dark border).
* **Ferries**: each space with a locomotive symbol is drawn as a locomotive card's
  space, an ``L`` on the locomotive's colour, as the colour key reads it; a claimed
  ferry shows its owner's seat instead.
* **Stations**: a small house beside the city in the owner's colour, with the seat
  number; at the end, each borrowed route gets a dashed outline in the colour of the
  player whose station borrows it.

The shapes are computed by pure functions (:func:`tunnel_frames`, :func:`ferry_marks`,
:func:`station_marks`), so they are tested without a browser; the painter replays
them with batched canvas calls (the ones the board's SVG picture knows too).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import numpy as np
from ipycanvas import Canvas

from ..maps import Map
from . import style
from .board import BoardPieces, BoardWidget
from .board_art import space_batch
from .geometry import CITY_RADIUS, BoardGeometry, Space

__all__ = [
    "EuropeArt",
    "StationMark",
    "europe_facts",
    "ferry_marks",
    "install",
    "station_marks",
    "tunnel_frames",
]

TUNNEL_INK = "#2b1d12"
HOUSE = 6.0  # half the width of a station's house
HOUSE_OFFSET = CITY_RADIUS + 7.0  # from the city centre, up and right


@dataclass(frozen=True)
class StationMark:
    """A built station: a house beside its city in the owner's colour, with the seat."""

    city: str
    seat: int
    x: float
    y: float

    def house(self) -> list[tuple[float, float]]:
        """The five corners of the house (a square with a roof), centred on (x, y)."""
        h, x, y = HOUSE, self.x, self.y
        return [(x - h, y + h), (x - h, y - h * 0.2), (x, y - h * 1.2), (x + h, y - h * 0.2)] + [
            (x + h, y + h)
        ]


def tunnel_frames(game_map: Map, geometry: BoardGeometry) -> list[Space]:
    """The spaces of every tunnel (their frames are drawn)."""
    return [
        space
        for route in game_map.routes
        if route.tunnel and route.id in geometry.routes
        for space in geometry.routes[route.id].spaces
    ]


def ferry_marks(game_map: Map, geometry: BoardGeometry, owner: dict[int, int]) -> list[Space]:
    """The spaces showing a locomotive symbol: the first ``locomotives`` spaces of every
    unclaimed ferry (a claimed one shows its owner's seat)."""
    out = []
    for route in game_map.routes:
        if route.locomotives and route.id not in owner and route.id in geometry.routes:
            out.extend(geometry.routes[route.id].spaces[: route.locomotives])
    return out


def station_marks(geometry: BoardGeometry, game: Any) -> list[StationMark]:
    """Where each built station of ``game`` is drawn (none for a game without stations)."""
    stations = getattr(getattr(game, "state", None), "extras", {}).get("stations", {})
    out = []
    for city, seat in sorted(stations.items()):
        if city in geometry.positions:
            x, y = geometry.positions[city]
            out.append(StationMark(city, seat, x + HOUSE_OFFSET, y - HOUSE_OFFSET))
    return out


def borrowed(game: Any) -> list[tuple[int, int]]:
    """(seat, route) of every route a station borrowed (the end of a Europe game)."""
    chosen = getattr(getattr(game, "state", None), "extras", {}).get("borrowed") or []
    return [(seat, rid) for seat, pairs in enumerate(chosen) for _, rid in pairs]


class EuropeArt:
    """Piece painter of the Europe board (see the module text); reads the board's map."""

    def __init__(self, board: BoardWidget) -> None:
        self.board = board

    def __call__(self, canvas: Canvas, geometry: BoardGeometry, pieces: BoardPieces) -> None:
        game_map = self.board.map
        frames = tunnel_frames(game_map, geometry)
        if frames:
            points, counts = space_batch(frames, grow=1.6)
            canvas.stroke_style = TUNNEL_INK
            canvas.line_width = 2
            canvas.set_line_dash([3, 2])
            canvas.stroke_polygons(points, points_per_polygon=counts)
            canvas.set_line_dash([])
        marks = ferry_marks(game_map, geometry, pieces.owner)
        if marks:
            loco = style.swatch("wild")
            points, counts = space_batch(marks, grow=-1.0)
            canvas.fill_style = loco.fill
            canvas.fill_polygons(points, points_per_polygon=counts)
            canvas.font = "bold 8px sans-serif"
            canvas.text_align = "center"
            canvas.text_baseline = "middle"
            canvas.fill_style = loco.ink
            for space in marks:
                canvas.fill_text(loco.letter, space.cx, space.cy)
        for seat, rid in borrowed(pieces.game):
            shape = geometry.routes.get(rid)
            if shape is None:
                continue
            points, counts = space_batch(shape.spaces, grow=5.0)
            canvas.stroke_style = style.player_style(seat).fill
            canvas.line_width = 2.5
            canvas.set_line_dash([5, 3])
            canvas.stroke_polygons(points, points_per_polygon=counts)
            canvas.set_line_dash([])
        paint_stations(canvas, station_marks(geometry, pieces.game))


def paint_stations(canvas: Canvas, marks: list[StationMark]) -> None:
    """Each station as a house in its owner's colour, outlined, with the seat number."""
    if not marks:
        return
    houses = np.array([m.house() for m in marks], dtype=float).reshape(-1, 2)
    counts = np.full(len(marks), 5, dtype=int)
    fills = np.array([style.hex_to_rgb(style.player_style(m.seat).fill) for m in marks], float)
    canvas.fill_styled_polygons(houses, fills, points_per_polygon=counts)
    canvas.stroke_style = "#111111"
    canvas.line_width = 1.5
    canvas.stroke_polygons(houses, points_per_polygon=counts)
    canvas.font = "bold 8px sans-serif"
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    for m in marks:
        canvas.fill_style = style.player_style(m.seat).ink
        canvas.fill_text(style.player_style(m.seat).mark, m.x, m.y + HOUSE * 0.3)


def europe_facts(kind: str, ident: Any, pieces: BoardPieces) -> list[str]:
    """Hover facts: a tunnel's turned-up cards, a ferry's locomotives, a city's station and
    the routes stations borrowed."""
    game = pieces.game
    game_map = getattr(game, "map", None)
    if game_map is None:
        return []
    names = pieces.player_names

    def who(seat: int) -> str:
        name = names[seat] if seat < len(names) else f"Player {seat + 1}"
        return f"{html.escape(name)} (seat {style.player_style(seat).mark})"

    if kind == "route" and ident in game_map.route_by_id:
        route = game_map.route_by_id[ident]
        lines = []
        if route.tunnel:
            lines.append(
                "tunnel: claiming it turns up 3 cards, and each of the colour played or a "
                "locomotive asks for one more card"
            )
        if route.locomotives:
            n = route.locomotives
            lines.append(
                f"ferry: {n} locomotive{'s' if n != 1 else ''} must be among the cards (L)"
            )
        lines += [f"borrowed by {who(s)}'s station" for s, rid in borrowed(game) if rid == ident]
        return lines
    if kind == "city" and ident in game_map.city_by_id:
        seat = game.state.extras.get("stations", {}).get(ident)
        if seat is None:
            return ["no station yet"]
        return [f"station of {who(seat)}"]
    return []


def install(board: BoardWidget) -> EuropeArt:
    """Add the Europe painter and hover facts to ``board`` (a lesson's board)."""
    art = EuropeArt(board)
    board.piece_painters.append(art)
    board.fact_providers.append(europe_facts)
    return art
