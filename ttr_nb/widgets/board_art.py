"""The board's pictures as batched canvas calls: routes, places, claims, highlights, outlines.

Pure drawing functions of a map's geometry, shared by the live board
(:class:`~ttr_nb.widgets.board.BoardWidget`, inside its ``hold_canvas`` batch) and
its SVG picture (:mod:`~ttr_nb.widgets.board_svg`). They draw in board
coordinates; the live board sets the zoom and pan transform before calling them.
Numpy arrays feed ipycanvas's batch methods (``fill_styled_polygons``,
``stroke_polygons``, ...), so a whole layer is a handful of calls.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np
from ipycanvas import Canvas

from ..maps import Map
from . import style
from .geometry import CITY_RADIUS, BoardGeometry, Space, board_geometry


@dataclass
class StaticArt:
    space_points: np.ndarray
    space_counts: np.ndarray
    space_colours: np.ndarray
    pair_lines: np.ndarray
    pair_counts: np.ndarray
    letters: dict[str, list[tuple[str, float, float]]]


@cache
def static_art(game_map: Map, width: int, height: int) -> StaticArt:
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
    return StaticArt(
        space_points=np.array(points, dtype=float).reshape(-1, 2),
        space_counts=np.array(counts, dtype=int),
        space_colours=np.array(colours, dtype=float).reshape(-1, 3),
        pair_lines=np.array(pair_points, dtype=float).reshape(-1, 2),
        pair_counts=np.full(len(pair_points) // 2, 2, dtype=int),
        letters=letters,
    )


def draw_routes(
    layer: Canvas, game_map: Map, geometry: BoardGeometry, width: int, height: int
) -> None:
    """Background and every route's spaces with their colour letters (the static layer)."""
    art = static_art(game_map, width, height)
    layer.fill_style = style.BOARD_BACKGROUND
    layer.fill_rect(0, 0, width, height)
    if geometry.seam is not None:
        draw_seam(layer, geometry, height)
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


def draw_seam(layer: Canvas, geometry: BoardGeometry, height: int) -> None:
    """Draw the dashed left and right edges of a board that wraps around (World)."""
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


def draw_places(layer: Canvas, game_map: Map, geometry: BoardGeometry) -> None:
    """Draw the map's cities, junctions and country spaces, with their names."""
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


def space_batch(
    spaces: Iterable[Space], grow: float, oval: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The spaces as one batch of polygons (points, and points per polygon), ``grow`` pixels
    larger."""
    points: list[tuple[float, float]] = []
    counts: list[int] = []
    for space in spaces:
        poly = space.oval(grow=grow) if oval else space.corners(grow=grow)
        points.extend(poly)
        counts.append(len(poly))
    return np.array(points, dtype=float).reshape(-1, 2), np.array(counts, dtype=int)


def draw_claims(
    layer: Canvas, game_map: Map, geometry: BoardGeometry, owner: dict[int, int]
) -> None:
    """Draw the claimed routes' spaces in their owners' colours, with seat numbers."""
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


def draw_highlights(layer: Canvas, geometry: BoardGeometry, routes: frozenset[int]) -> None:
    """A soft blue halo around routes (a halo, not a fill: a filled glow made gray routes
    look yellow)."""
    shapes = [geometry.routes[rid] for rid in sorted(routes) if rid in geometry.routes]
    spaces = [space for shape in shapes for space in shape.spaces]
    if not spaces:
        return
    points, counts = space_batch(spaces, grow=3.0)
    layer.global_alpha = 0.5
    layer.stroke_style = style.CLAIMABLE
    layer.line_width = 3
    layer.stroke_polygons(points, points_per_polygon=counts)
    layer.global_alpha = 1.0


def outline_route(
    layer: Canvas, geometry: BoardGeometry, route_id: int, colour: str, width: float
) -> None:
    """Outline route ``route_id``'s spaces in ``colour``, ``width`` pixels wide."""
    shape = geometry.routes.get(route_id)
    if shape is None:
        return
    points, counts = space_batch(shape.spaces, grow=2.5)
    layer.stroke_style = colour
    layer.line_width = width
    layer.stroke_polygons(points, points_per_polygon=counts)


def route_polygons(
    geometry: BoardGeometry, route_ids: Iterable[int], grow: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """The spaces of routes as one batch of polygons grown by ``grow`` (``space_batch``),
    or None when none of the routes is on the board."""
    spaces = [
        space
        for rid in route_ids
        if rid in geometry.routes
        for space in geometry.routes[rid].spaces
    ]
    return space_batch(spaces, grow=grow) if spaces else None


def outline_routes(layer: Canvas, geometry: BoardGeometry, route_ids: list[int], seat: int) -> None:
    """Outline routes boldly in a seat's colour (the end screen's longest trails)."""
    batch = route_polygons(geometry, route_ids, grow=4.0)
    if batch is None:
        return
    points, counts = batch
    layer.stroke_style = "#111111"
    layer.line_width = 5
    layer.stroke_polygons(points, points_per_polygon=counts)
    layer.stroke_style = style.player_style(seat).fill
    layer.line_width = 3
    layer.stroke_polygons(points, points_per_polygon=counts)
