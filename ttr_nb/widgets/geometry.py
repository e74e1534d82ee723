"""Board geometry: where every city, route space and label goes on the canvas.

Pure Python (no widgets), computed once per map and canvas size, so drawing
is just replaying the shapes and hit-testing (point -> route or city) can be
tested without a browser.

Layout choices, all made for legibility and none of them map data:

* routes whose ends are too close for their spaces bow out as a curve;
* tracks of a double/triple route run side by side;
* country spaces (whose positions are derived, not published) are pushed out
  from their city until the route's spaces fit;
* on a wrapping map a route across the seam leaves one edge and re-enters at
  the other: its spaces are laid out on the shorter way round and every space
  past an edge is shifted by the board width.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from types import SimpleNamespace
from typing import Any

from ..maps import Map, Route
from ..projection import board_frame, board_positions

MARGIN = 40.0
SPACE_WIDTH = 9.0
SPACE_GAP = 2.0
MIN_SPACE_LENGTH = 11.0
TRACK_SPACING = SPACE_WIDTH + 3.0
CITY_RADIUS = 6.0
CITY_HIT_RADIUS = 10.0
LABEL_FONT_PX = 11
LABEL_CHAR_PX = 6.0  # average glyph width of the label font, for collision estimates


@dataclass(frozen=True)
class Space:
    """One car (or ship) space: a rectangle centred on (cx, cy) along the unit vector (ux, uy)."""

    cx: float
    cy: float
    ux: float
    uy: float
    half_length: float
    half_width: float = SPACE_WIDTH / 2

    def corners(self, grow: float = 0.0) -> list[tuple[float, float]]:
        """The four corners, optionally grown by ``grow`` on every side."""
        hl, hw = self.half_length + grow, self.half_width + grow
        ax, ay = self.ux * hl, self.uy * hl
        nx, ny = -self.uy * hw, self.ux * hw
        c = (self.cx, self.cy)
        return [
            (c[0] - ax - nx, c[1] - ay - ny),
            (c[0] + ax - nx, c[1] + ay - ny),
            (c[0] + ax + nx, c[1] + ay + ny),
            (c[0] - ax + nx, c[1] - ay + ny),
        ]

    def oval(self, points: int = 12, grow: float = 0.0) -> list[tuple[float, float]]:
        """An ellipse inscribed in the space (ship spaces are drawn as ovals)."""
        hl, hw = self.half_length + grow, self.half_width + grow
        out = []
        for k in range(points):
            t = 2 * math.pi * k / points
            a, b = hl * math.cos(t), hw * math.sin(t)
            out.append((self.cx + self.ux * a - self.uy * b, self.cy + self.uy * a + self.ux * b))
        return out

    def distance_inside(self, x: float, y: float, slack: float) -> float | None:
        """Distance from the centre line if (x, y) is within the space (plus slack), else None."""
        dx, dy = x - self.cx, y - self.cy
        along = dx * self.ux + dy * self.uy
        across = -dx * self.uy + dy * self.ux
        if abs(along) <= self.half_length + slack and abs(across) <= self.half_width + slack:
            return abs(across)
        return None


@dataclass(frozen=True)
class RouteShape:
    """Where a route's spaces are drawn."""

    route_id: int
    spaces: tuple[Space, ...]
    curved: bool = False

    @property
    def anchor(self) -> tuple[float, float]:
        """Centre of the middle space: a point that is surely on the route (for clicks, tests)."""
        mid = self.spaces[len(self.spaces) // 2]
        return (mid.cx, mid.cy)


@dataclass(frozen=True)
class Label:
    """A text label: its anchor point (left end of the baseline) and its text."""

    text: str
    x: float
    y: float


@dataclass
class BoardGeometry:
    """Everything the board needs to draw and hit-test one map at one canvas size."""

    map_id: str
    width: int
    height: int
    positions: dict[str, tuple[float, float]]
    routes: dict[int, RouteShape]
    city_labels: dict[str, Label]
    places: tuple[str, ...] = ()  # board places (cities, country spaces, junctions)
    seam: tuple[float, float] | None = None  # x of the west and east edges of a wrapping map
    moved_places: dict[str, str] = field(default_factory=dict)  # place id -> why it was moved

    def route_at(self, x: float, y: float, slack: float = 3.0) -> int | None:
        """The route whose space is under (x, y), nearest centre line first."""
        best, best_d = None, math.inf
        for rid, shape in self.routes.items():
            for space in shape.spaces:
                d = space.distance_inside(x, y, slack)
                if d is not None and d < best_d:
                    best, best_d = rid, d
        return best

    def city_at(self, x: float, y: float, radius: float = CITY_HIT_RADIUS) -> str | None:
        """The board place (city, country space, junction) within ``radius`` of (x, y)."""
        best, best_d = None, radius
        for pid in self.places:
            px, py = self.positions[pid]
            d = math.hypot(px - x, py - y)
            if d <= best_d:
                best, best_d = pid, d
        return best

    def hit(self, x: float, y: float, reach: float = 0.0) -> tuple[str, Any] | None:
        """``("city", id)`` or ``("route", id)`` under (x, y); cities win over routes.
        ``reach`` widens both (board units): a fingertip's tap lands near, not on, a
        route a few pixels wide."""
        city = self.city_at(x, y, max(CITY_HIT_RADIUS, reach / 2))  # routes start at cities
        if city is not None:
            return ("city", city)
        route = self.route_at(x, y, max(3.0, reach))
        if route is not None:
            return ("route", route)
        return None


def board_size(game_map: Map, max_width: int = 960, max_height: int = 820) -> tuple[int, int]:
    """Canvas size that fits the map's shape inside ``max_width`` × ``max_height``.

    A wide map gets the full width and as much height as its shape needs
    (at least 440 px, for the labels); a tall map gets the full height.
    """
    frame = board_frame(game_map, 1000.0, 1000.0, margin=0)
    aspect = frame.height / frame.width if frame.width else 1.0
    inner_w, inner_h = max_width - 2 * MARGIN, max_height - 2 * MARGIN
    if inner_w * aspect <= inner_h:
        return max_width, int(max(440, round(inner_w * aspect + 2 * MARGIN)))
    return int(max(520, round(inner_h / aspect + 2 * MARGIN))), max_height


@cache
def board_geometry(game_map: Map, width: int, height: int) -> BoardGeometry:
    """Geometry of ``game_map`` on a ``width`` × ``height`` canvas (cached per map and size)."""
    display_map, moved = _display_places(game_map, width, height)
    positions = board_positions(display_map, width, height, margin=MARGIN)
    frame = board_frame(display_map, width, height, margin=MARGIN)
    seam = (frame.left, frame.left + frame.width) if frame.wraps else None
    routes: dict[int, RouteShape] = {}
    for group_ids in game_map.groups.values():
        tracks = sorted(group_ids)
        for k, rid in enumerate(tracks):
            route = game_map.route_by_id[rid]
            offset = (k - (len(tracks) - 1) / 2) * TRACK_SPACING
            routes[rid] = _route_shape(route, positions, offset, seam)
    occupied = [s for shape in routes.values() for s in shape.spaces]
    city_labels = _place_labels(game_map, positions, occupied, (width, height))
    return BoardGeometry(
        map_id=game_map.id,
        width=width,
        height=height,
        positions=positions,
        routes=routes,
        city_labels=city_labels,
        places=tuple(c.id for c in game_map.cities),
        seam=seam,
        moved_places=moved,
    )


# ---------------------------------------------------------------- country spaces
def _needed_length(route: Route) -> float:
    return route.length * (MIN_SPACE_LENGTH + SPACE_GAP) + 2 * (CITY_RADIUS + 3)


def _display_places(game_map: Map, width: int, height: int) -> tuple[Any, dict[str, str]]:
    """The map's places, with country spaces pushed out until their routes fit."""
    spaces = [c for c in game_map.cities if c.kind == "country_space"]
    if not spaces:
        return game_map, {}
    positions = board_positions(game_map, width, height, margin=MARGIN)
    moved: dict[str, tuple[float, float]] = {}
    for space in spaces:
        touching = [r for r in game_map.routes if space.id in r.ends]
        if not touching:
            continue
        route = max(touching, key=lambda r: r.length)
        city = game_map.city_by_id[route.b if route.a == space.id else route.a]
        (sx, sy), (cx, cy) = positions[space.id], positions[city.id]
        have = math.hypot(sx - cx, sy - cy)
        need = _needed_length(route)
        if have >= need or have == 0:
            continue
        factor = need / have
        # Over a few dozen km, degrees are close enough to linear to scale the offset in them.
        lat = city.lat + (space.lat - city.lat) * factor
        lon = city.lon + (space.lon - city.lon) * factor
        moved[space.id] = (lat, lon)
    if not moved:
        return game_map, {}
    cities = [
        SimpleNamespace(id=c.id, lat=lat, lon=lon)
        for c in game_map.cities
        for lat, lon in [moved.get(c.id, (c.lat, c.lon))]
    ]
    stand_in = SimpleNamespace(
        cities=cities, countries=game_map.countries, projection=game_map.projection
    )
    why = "drawn further out than its derived position so that the route's spaces fit"
    return stand_in, {pid: why for pid in moved}


# ---------------------------------------------------------------------- routes
def _route_shape(
    route: Route,
    positions: dict[str, tuple[float, float]],
    offset: float,
    seam: tuple[float, float] | None,
) -> RouteShape:
    (ax, ay), (bx, by) = positions[route.a], positions[route.b]
    if route.wraps and seam is not None:
        board_w = seam[1] - seam[0]
        bx += -board_w if bx > ax else board_w  # the shorter way, across the seam
    chord = math.hypot(bx - ax, by - ay) or 1.0
    need = _needed_length(route)
    bulge = 0.0
    if chord < need:
        bulge = _bulge_for_length(chord, need)
    path = _curve((ax, ay), (bx, by), bulge, offset)
    spaces = _spaces_along(path, route.length, CITY_RADIUS + 3)
    if route.wraps and seam is not None:
        spaces = [_wrap_space(s, seam) for s in spaces]
    return RouteShape(route.id, tuple(spaces), curved=bulge > 0)


def _curve(
    a: tuple[float, float], b: tuple[float, float], bulge: float, offset: float, samples: int = 24
) -> list[tuple[float, float]]:
    """Points of a quadratic Bézier from a to b bowing ``bulge`` px left, shifted ``offset`` px."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay) or 1.0
    nx, ny = -(by - ay) / length, (bx - ax) / length
    # A control point 2*bulge off the chord puts the curve's middle bulge px off it.
    qx, qy = (ax + bx) / 2 + nx * 2 * bulge, (ay + by) / 2 + ny * 2 * bulge
    steps = samples if bulge else 1
    raw = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        x = u * u * ax + 2 * u * t * qx + t * t * bx
        y = u * u * ay + 2 * u * t * qy + t * t * by
        raw.append((x, y))
    if not offset:
        return raw
    out = []
    for i, (x, y) in enumerate(raw):
        (px, py), (qx2, qy2) = raw[max(0, i - 1)], raw[min(len(raw) - 1, i + 1)]
        d = math.hypot(qx2 - px, qy2 - py) or 1.0
        out.append((x - (qy2 - py) / d * offset, y + (qx2 - px) / d * offset))
    return out


def _polyline_length(points: list[tuple[float, float]]) -> float:
    return sum(math.dist(p, q) for p, q in zip(points, points[1:], strict=False))


def _bulge_for_length(chord: float, need: float) -> float:
    """How far the curve must bow out so that its length reaches ``need`` (bisection)."""
    low, high = 0.0, max(need, chord)
    for _ in range(30):
        mid = (low + high) / 2
        if _polyline_length(_curve((0.0, 0.0), (chord, 0.0), mid, 0.0)) < need:
            low = mid
        else:
            high = mid
    return high


def _point_at(
    points: list[tuple[float, float]], distance: float
) -> tuple[float, float, float, float]:
    """Point and unit direction at ``distance`` along a polyline."""
    walked = 0.0
    for p, q in zip(points, points[1:], strict=False):
        seg = math.dist(p, q)
        if seg and walked + seg >= distance:
            t = (distance - walked) / seg
            ux, uy = (q[0] - p[0]) / seg, (q[1] - p[1]) / seg
            return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, ux, uy
        walked += seg
    p, q = points[-2], points[-1]
    seg = math.dist(p, q) or 1.0
    return q[0], q[1], (q[0] - p[0]) / seg, (q[1] - p[1]) / seg


def _spaces_along(points: list[tuple[float, float]], count: int, trim: float) -> list[Space]:
    total = _polyline_length(points)
    usable = max(total - 2 * trim, count * 4.0)
    start = (total - usable) / 2
    space_len = max((usable - SPACE_GAP * (count - 1)) / count, 3.0)
    out = []
    for i in range(count):
        centre = start + i * (space_len + SPACE_GAP) + space_len / 2
        x, y, ux, uy = _point_at(points, centre)
        out.append(Space(x, y, ux, uy, space_len / 2))
    return out


def _wrap_space(space: Space, seam: tuple[float, float]) -> Space:
    """Bring a space whose centre lies past the board's edge (the seam) in at the other edge.

    Wrapping at the seam rather than at the canvas edge puts at least one space on each
    side even when a city sits close to the edge (Anchorage–Vancouver has 2 spaces), so
    every such route visibly leaves one edge and enters the other.
    """
    west, east = seam
    if space.cx < west:
        return Space(space.cx + east - west, space.cy, space.ux, space.uy, space.half_length)
    if space.cx > east:
        return Space(space.cx - east + west, space.cy, space.ux, space.uy, space.half_length)
    return space


# ---------------------------------------------------------------------- labels
def _place_labels(
    game_map: Map,
    positions: dict[str, tuple[float, float]],
    spaces: Iterable[Space],
    size: tuple[int, int],
) -> dict[str, Label]:
    """Put each city's name where it covers the fewest other names, cities and spaces."""
    space_points = [(s.cx, s.cy) for s in spaces]
    city_points = [positions[c.id] for c in game_map.cities]
    placed: list[tuple[float, float, float, float]] = []
    labels: dict[str, Label] = {}
    h = LABEL_FONT_PX
    # Cities with most routes first: they are the busiest spots and get first choice.
    degree = {c.id: 0 for c in game_map.cities}
    for r in game_map.routes:
        degree[r.a] += 1
        degree[r.b] += 1
    for city in sorted(game_map.cities, key=lambda c: -degree[c.id]):
        if city.kind == "junction":
            continue
        x, y = positions[city.id]
        text = city.name
        w = len(text) * LABEL_CHAR_PX
        candidates = [
            (x + 8, y - 5),  # right, slightly above
            (x - 8 - w, y - 5),  # left
            (x - w / 2, y - 9),  # above
            (x - w / 2, y + 9 + h),  # below
            (x + 8, y + 4 + h),  # right, below
            (x - 8 - w, y + 4 + h),  # left, below
        ]

        def cost(anchor: tuple[float, float], w: float = w) -> float:
            left, base = anchor
            box = (left - 1, base - h, left + w + 1, base + 3)
            score = 0.0
            if box[0] < 2 or box[1] < 2 or box[2] > size[0] - 2 or box[3] > size[1] - 2:
                score += 100  # a name cut off by the canvas edge is useless
            for other in placed:
                if _overlap(box, other):
                    score += 20
            for px, py in city_points:
                if box[0] - 4 <= px <= box[2] + 4 and box[1] - 4 <= py <= box[3] + 4:
                    score += 8
            for px, py in space_points:
                if box[0] <= px <= box[2] and box[1] <= py <= box[3]:
                    score += 1
            return score

        best = min(candidates, key=cost)
        left, base = best
        placed.append((left - 1, base - h, left + w + 1, base + 3))
        labels[city.id] = Label(text, left, base)
    return labels


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
