"""Map projections: from latitude/longitude to positions on a drawing canvas.

Map files store real coordinates only (``lat``/``lon`` in degrees) and a ``projection``
dict (see ``maps/schema.json``); board positions are computed here. Two projection kinds
are supported:

``equirectangular``
    Plate carrée: x is the longitude, y the latitude, both in radians. With
    ``"wraps": true`` the board is cut at ``seam_lon`` (default 180, the antimeridian) and
    x runs eastward from that seam, from 0 to 2π, so the west edge joins the east edge.
``lambert_conformal``
    Lambert conformal conic on the unit sphere with two ``standard_parallels``, centred on
    ``center_lon``/``center_lat``. Good for a country or a continent in the mid latitudes.

Every planar coordinate uses the screen convention: x grows eastward (to the right) and
**y grows southward** (downward), in units of the unit sphere's radius. Pure Python: only
:mod:`math` is used.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["BoardFrame", "board_frame", "board_positions", "project"]

_TAU = 2.0 * math.pi


class _Place(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def lat(self) -> float | None: ...

    @property
    def lon(self) -> float | None: ...


class _GameMap(Protocol):
    @property
    def cities(self) -> Iterable[_Place]: ...

    @property
    def countries(self) -> Iterable[_Place]: ...

    @property
    def projection(self) -> Mapping[str, Any]: ...


def project(lat: float, lon: float, projection: Mapping[str, Any]) -> tuple[float, float]:
    """Project one point to planar coordinates (x east, y **south**).

    Parameters
    ----------
    lat, lon : float
        Latitude and longitude in degrees (north and east positive).
    projection : mapping
        A map file's ``projection`` object: ``{"kind": "equirectangular", "wraps": bool,
        "seam_lon": float, "center_lon": float}`` or ``{"kind": "lambert_conformal",
        "center_lon": float, "center_lat": float, "standard_parallels": [float, float]}``.
        Missing keys take defaults: ``center_lon`` 0, ``seam_lon`` 180, ``center_lat`` the
        mean of the parallels, parallels ``[center_lat, center_lat]`` (a tangent cone).

    Returns
    -------
    tuple of float
        ``(x, y)`` in units of the sphere's radius; x grows eastward, y grows southward.

    Raises
    ------
    ValueError
        For an unknown ``kind``, a Lambert projection without parallels or centre latitude,
        parallels symmetric about the equator, or the pole opposite the cone's apex.

    Notes
    -----
    Equirectangular: ``x = λ - λ0`` and ``y = -φ`` (radians). Without wrapping, ``λ - λ0``
    is brought into [-π, π) around ``center_lon``. With ``wraps`` it is measured eastward
    from the seam, in [0, 2π): a longitude just east of the seam is at the left edge, one
    just west of it at the right edge.

    Lambert conformal conic (spherical form, Snyder, *Map Projections: A Working Manual*,
    1987, eqs. 15-1 to 15-5)::

        n  = ln(cos φ1 / cos φ2) / ln(tan(π/4 + φ2/2) / tan(π/4 + φ1/2))
             (n = sin φ1 when φ1 = φ2)
        F  = cos φ1 · tanⁿ(π/4 + φ1/2) / n
        ρ  = F / tanⁿ(π/4 + φ/2),   ρ0 = F / tanⁿ(π/4 + φ0/2)
        x  = ρ sin(n(λ - λ0)),      y = -(ρ0 - ρ cos(n(λ - λ0)))

    The scale is exact along both standard parallels; meridians are straight lines that
    meet at the cone's apex, so for a northern cone they close in toward the top.

    Examples
    --------
    >>> project(0.0, 0.0, {"kind": "equirectangular"})
    (0.0, 0.0)
    >>> x, y = project(45.0, 90.0, {"kind": "equirectangular"})
    >>> round(x, 4), round(y, 4)  # east is +x, north is -y
    (1.5708, -0.7854)

    On a board cut at the antimeridian, Tokyo sits near the east (right) edge:

    >>> x, _ = project(35.69, 139.69, {"kind": "equirectangular", "wraps": True})
    >>> round(x / (2 * math.pi), 3)
    0.888

    The centre of a Lambert projection is the origin:

    >>> usa = {"kind": "lambert_conformal", "center_lon": -96, "center_lat": 39,
    ...        "standard_parallels": [33, 45]}
    >>> project(39, -96, usa)
    (0.0, 0.0)
    >>> project(47.6, -122.3, usa)[0] < 0 < project(42.4, -71.1, usa)[0]  # Seattle, Boston
    True
    """
    kind = projection.get("kind")
    if kind == "equirectangular":
        return _equirectangular(lat, lon, projection)
    if kind == "lambert_conformal":
        return _lambert_conformal(lat, lon, projection)
    raise ValueError(f"unknown projection kind {kind!r}")


def _wrap_pi(angle: float) -> float:
    """Bring an angle in radians into [-π, π)."""
    return (angle + math.pi) % _TAU - math.pi


def _equirectangular(lat: float, lon: float, projection: Mapping[str, Any]) -> tuple[float, float]:
    if projection.get("wraps", False):
        seam = float(projection.get("seam_lon", 180.0))
        x = math.radians((lon - seam) % 360.0)
    else:
        x = _wrap_pi(math.radians(lon - float(projection.get("center_lon", 0.0))))
    return x + 0.0, -math.radians(lat) + 0.0


def _lambert_conformal(
    lat: float, lon: float, projection: Mapping[str, Any]
) -> tuple[float, float]:
    parallels = projection.get("standard_parallels")
    center_lat = projection.get("center_lat")
    if parallels is None:
        if center_lat is None:
            raise ValueError("lambert_conformal needs standard_parallels or center_lat")
        parallels = (center_lat, center_lat)
    phi1, phi2 = (math.radians(float(p)) for p in parallels)
    if center_lat is None:
        center_lat = math.degrees((phi1 + phi2) / 2.0)
    phi0 = math.radians(float(center_lat))
    lam0 = math.radians(float(projection.get("center_lon", 0.0)))

    def t(phi: float) -> float:
        return math.tan(math.pi / 4.0 + phi / 2.0)

    if math.isclose(phi1, phi2, abs_tol=1e-12):
        n = math.sin(phi1)
    else:
        n = math.log(math.cos(phi1) / math.cos(phi2)) / math.log(t(phi2) / t(phi1))
    if abs(n) < 1e-12:
        raise ValueError("standard parallels symmetric about the equator: no conic exists")
    f = math.cos(phi1) * t(phi1) ** n / n
    if (n > 0 and lat <= -90.0) or (n < 0 and lat >= 90.0):
        raise ValueError(f"latitude {lat} is the pole opposite the cone and cannot be drawn")
    rho = f / t(math.radians(lat)) ** n
    rho0 = f / t(phi0) ** n
    theta = n * _wrap_pi(math.radians(lon) - lam0)
    return rho * math.sin(theta) + 0.0, -(rho0 - rho * math.cos(theta)) + 0.0


@dataclass(frozen=True)
class BoardFrame:
    """How projected coordinates are placed on a canvas (see :func:`board_frame`).

    Attributes
    ----------
    scale : float
        Canvas units per projected unit (the same on both axes, so shapes keep their
        aspect ratio).
    x_min, y_min : float
        Projected coordinates that land at ``(left, top)``.
    left, top : float
        Canvas position of ``(x_min, y_min)``.
    width, height : float
        Canvas extent of the projected content (``left + width`` is its right edge).
    wraps : bool
        The west edge joins the east edge; then ``left`` and ``left + width`` are the seam.
    projection : mapping
        The projection used.

    Examples
    --------
    >>> frame = BoardFrame(2.0, 0.0, 0.0, 10.0, 20.0, 100.0, 50.0, False, {})
    >>> frame.to_canvas(3.0, 4.0)
    (16.0, 28.0)
    """

    scale: float
    x_min: float
    y_min: float
    left: float
    top: float
    width: float
    height: float
    wraps: bool
    projection: Mapping[str, Any]

    def to_canvas(self, x: float, y: float) -> tuple[float, float]:
        """Canvas position of a projected point ``(x, y)``."""
        return (self.left + (x - self.x_min) * self.scale, self.top + (y - self.y_min) * self.scale)

    def place(self, lat: float, lon: float) -> tuple[float, float]:
        """Canvas position of a latitude/longitude (degrees).

        Examples
        --------
        >>> frame = BoardFrame(100.0, 0.0, 0.0, 0.0, 0.0, 628.3, 314.2, True,
        ...                    {"kind": "equirectangular", "wraps": True, "seam_lon": 180})
        >>> x, y = frame.place(0.0, 0.0)
        >>> round(x, 1), round(y, 1)
        (314.2, 0.0)
        """
        return self.to_canvas(*project(lat, lon, self.projection))


def _places(game_map: _GameMap) -> list[tuple[str, float, float]]:
    out = []
    for group in (game_map.cities, getattr(game_map, "countries", None) or ()):
        for place in group:
            lat, lon = getattr(place, "lat", None), getattr(place, "lon", None)
            if lat is not None and lon is not None:
                out.append((place.id, float(lat), float(lon)))
    return out


def board_frame(game_map: _GameMap, width: float, height: float, margin: float = 30) -> BoardFrame:
    """Fit a map's places into a ``width`` × ``height`` canvas, keeping the aspect ratio.

    Parameters
    ----------
    game_map : object
        Anything with ``cities`` and ``countries`` (iterables of objects with ``id``,
        ``lat``, ``lon``; ``countries`` may be empty or missing, places whose ``lat`` or
        ``lon`` is ``None`` are skipped) and ``projection`` (the map file's dict).
    width, height : float
        Canvas size.
    margin : float, default 30
        Free border kept on every side.

    Returns
    -------
    BoardFrame
        The scale and offsets; the content is centred in the free box.

    Raises
    ------
    ValueError
        If the margins leave no room.

    Notes
    -----
    The bounding box is that of all projected places, except that a wrapping map's x range
    is always the full seam-to-seam width (0 to 2π): a route leaving the right edge enters
    again at the left one. One scale is used on both axes (the smaller of the two fits), so
    the board may leave free space left and right or above and below.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> m = NS(cities=[NS(id="a", lat=0.0, lon=0.0), NS(id="b", lat=10.0, lon=20.0)],
    ...        countries=[], projection={"kind": "equirectangular"})
    >>> frame = board_frame(m, 240, 140, margin=20)
    >>> round(frame.width, 6), round(frame.height, 6)  # 2:1 content in a 200x100 box
    (200.0, 100.0)
    """
    free_w, free_h = width - 2 * margin, height - 2 * margin
    if free_w <= 0 or free_h <= 0:
        raise ValueError(f"canvas {width}x{height} leaves no room inside a margin of {margin}")
    projection = game_map.projection
    points = [project(lat, lon, projection) for _, lat, lon in _places(game_map)]
    wraps = projection.get("kind") == "equirectangular" and bool(projection.get("wraps"))
    if wraps:
        x_min, x_max = 0.0, _TAU
    elif points:
        x_min, x_max = min(p[0] for p in points), max(p[0] for p in points)
    else:
        x_min = x_max = 0.0
    if points:
        y_min, y_max = min(p[1] for p in points), max(p[1] for p in points)
    else:
        y_min = y_max = 0.0
    span_x, span_y = x_max - x_min, y_max - y_min
    ratios = [free / span for free, span in ((free_w, span_x), (free_h, span_y)) if span > 0]
    scale = min(ratios) if ratios else 1.0
    content_w, content_h = span_x * scale, span_y * scale
    left = margin + (free_w - content_w) / 2.0
    top = margin + (free_h - content_h) / 2.0
    return BoardFrame(scale, x_min, y_min, left, top, content_w, content_h, wraps, projection)


def board_positions(
    game_map: _GameMap, width: float, height: float, margin: float = 30
) -> dict[str, tuple[float, float]]:
    """Canvas positions of every city id and every country id of a map.

    Parameters
    ----------
    game_map : object
        Anything with ``cities``, ``countries`` and ``projection`` (see :func:`board_frame`);
        a loaded map or a stand-in.
    width, height : float
        Canvas size (y grows downward).
    margin : float, default 30
        Free border kept on every side.

    Returns
    -------
    dict
        ``{place_id: (x, y)}`` for every city (including country spaces and junctions)
        and every country that has a latitude and longitude.

    Notes
    -----
    Positions are the projected coordinates (:func:`project`) fitted by one uniform scale
    into the box inside the margins and centred there (:func:`board_frame`), so distances
    keep their ratios. For a wrapping map the x range is the full seam-to-seam width: on the
    World map (seam at 140° W) Vancouver and Los Angeles sit near the left edge, Anchorage
    and Honolulu near the right edge.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> m = NS(cities=[NS(id="west", lat=40.0, lon=-10.0), NS(id="east", lat=30.0, lon=10.0)],
    ...        countries=[], projection={"kind": "equirectangular"})
    >>> pos = board_positions(m, 220, 120, margin=10)
    >>> {pid: (round(x, 6), round(y, 6)) for pid, (x, y) in pos.items()}
    {'west': (10.0, 10.0), 'east': (210.0, 110.0)}
    """
    frame = board_frame(game_map, width, height, margin)
    projection = game_map.projection
    return {
        pid: frame.to_canvas(*project(lat, lon, projection)) for pid, lat, lon in _places(game_map)
    }
