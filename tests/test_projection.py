"""Projections and board positions (:mod:`ttr_nb.projection`).

The maps are read straight from the JSON files into small stand-in objects, so these
tests do not depend on the package's map loader.

World board: the board is cut at 140° W (``seam_lon`` -140), in the north-east Pacific,
as on the printed board: Vancouver, Los Angeles and the Americas sit at the left edge,
Anchorage and Honolulu at the right edge beyond Tokyo and Christchurch.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import pytest

from ttr_nb.projection import board_frame, board_positions, project

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
W, H, M = 1000.0, 700.0, 30.0

USA = {
    "kind": "lambert_conformal",
    "center_lon": -96,
    "center_lat": 39,
    "standard_parallels": [33, 45],
}


def stand_in(name: str) -> SimpleNamespace:
    """A minimal object with ``cities``, ``countries`` and ``projection``."""
    doc = json.loads((MAPS_DIR / f"{name}.json").read_text(encoding="utf-8"))

    def place(d: dict) -> SimpleNamespace:
        return SimpleNamespace(id=d["id"], lat=d.get("lat"), lon=d.get("lon"))

    return SimpleNamespace(
        cities=[place(c) for c in doc["cities"]],
        countries=[place(c) for c in doc.get("countries", [])],
        projection=doc["projection"],
    )


def toy(points: dict[str, tuple[float, float]], projection: dict) -> SimpleNamespace:
    cities = [SimpleNamespace(id=k, lat=lat, lon=lon) for k, (lat, lon) in points.items()]
    return SimpleNamespace(cities=cities, countries=[], projection=projection)


# --------------------------------------------------------------------------------------
# project()


def test_equirectangular_axes() -> None:
    proj = {"kind": "equirectangular"}
    assert project(0, 0, proj) == (0.0, 0.0)
    x_w, _ = project(0, -30, proj)
    x_e, _ = project(0, 30, proj)
    _, y_n = project(50, 0, proj)
    _, y_s = project(-20, 0, proj)
    assert x_w < 0 < x_e
    assert y_n < 0 < y_s  # y grows southward
    assert project(10, 45, proj) == pytest.approx((math.pi / 4, -math.radians(10)))


def test_equirectangular_center_lon() -> None:
    proj = {"kind": "equirectangular", "center_lon": 150}
    assert project(0, 150, proj)[0] == pytest.approx(0.0)
    assert project(0, -170, proj)[0] == pytest.approx(math.radians(40))  # east across 180


def test_equirectangular_wrap_seam() -> None:
    proj = {"kind": "equirectangular", "wraps": True, "seam_lon": 180}
    assert project(0, -179.9, proj)[0] == pytest.approx(math.radians(0.1))
    assert project(0, 179.9, proj)[0] == pytest.approx(2 * math.pi - math.radians(0.1))
    assert project(0, 180, proj)[0] == 0.0
    assert project(0, -180, proj)[0] == 0.0
    assert project(0, 0, proj)[0] == pytest.approx(math.pi)
    other = {"kind": "equirectangular", "wraps": True, "seam_lon": -30}
    assert project(0, -29, other)[0] == pytest.approx(math.radians(1))
    assert project(0, -31, other)[0] == pytest.approx(math.radians(359))


def test_lambert_center_and_orientation() -> None:
    assert project(39, -96, USA) == (0.0, 0.0)
    seattle, boston = project(47.61, -122.33, USA), project(42.36, -71.06, USA)
    miami, duluth = project(25.77, -80.19, USA), project(46.78, -92.11, USA)
    assert seattle[0] < boston[0]
    assert duluth[1] < miami[1]


def test_lambert_meridians_converge_northward() -> None:
    """On a northern cone, a meridian west of the centre leans toward it going north."""
    south, north = project(30, -120, USA), project(50, -120, USA)
    assert south[0] < north[0] < 0
    # parallels are arcs: the centre meridian point is north (up) of points east/west on it
    assert project(39, -96, USA)[1] > project(39, -120, USA)[1]


@pytest.mark.parametrize("lat", [33.0, 45.0])
def test_lambert_true_scale_on_standard_parallels(lat: float) -> None:
    """Scale factor 1 along both standard parallels (unit sphere)."""
    step = 1e-4
    x1, y1 = project(lat, -96.0, USA)
    x2, y2 = project(lat, -96.0 + step, USA)
    planar = math.hypot(x2 - x1, y2 - y1)
    ground = math.cos(math.radians(lat)) * math.radians(step)
    assert planar / ground == pytest.approx(1.0, rel=1e-6)


def test_lambert_is_conformal() -> None:
    """Equal scale north-south and east-west at an arbitrary point."""
    proj = {"kind": "lambert_conformal", "center_lon": 10.5, "center_lat": 51}
    proj["standard_parallels"] = [48, 54]
    lat, lon, h = 50.0, 8.0, 1e-5
    x0, y0 = project(lat, lon, proj)
    xe, ye = project(lat, lon + h, proj)
    xn, yn = project(lat + h, lon, proj)
    k_east = math.hypot(xe - x0, ye - y0) / (math.cos(math.radians(lat)) * math.radians(h))
    k_north = math.hypot(xn - x0, yn - y0) / math.radians(h)
    assert k_east == pytest.approx(k_north, rel=1e-5)
    # and the two directions stay perpendicular
    dot = (xe - x0) * (xn - x0) + (ye - y0) * (yn - y0)
    assert abs(dot) < 1e-6 * math.hypot(xe - x0, ye - y0) * math.hypot(xn - x0, yn - y0)


def test_lambert_tangent_cone_default() -> None:
    tangent = {"kind": "lambert_conformal", "center_lon": 0, "center_lat": 45}
    explicit = dict(tangent, standard_parallels=[45, 45])
    assert project(50, 5, tangent) == pytest.approx(project(50, 5, explicit))


@pytest.mark.parametrize(
    "proj",
    [
        {"kind": "mercator"},
        {},
        {"kind": "lambert_conformal"},
        {"kind": "lambert_conformal", "standard_parallels": [-30, 30]},
    ],
)
def test_bad_projection(proj: dict) -> None:
    with pytest.raises(ValueError):
        project(10, 10, proj)


def test_opposite_pole_refused() -> None:
    with pytest.raises(ValueError):
        project(-90, 0, USA)


# --------------------------------------------------------------------------------------
# board_positions()


@pytest.mark.parametrize("name", ["usa", "germany", "world"])
def test_every_place_positioned_inside_box(name: str) -> None:
    m = stand_in(name)
    pos = board_positions(m, W, H, margin=M)
    assert set(pos) == {c.id for c in m.cities} | {c.id for c in m.countries}
    eps = 1e-9
    for x, y in pos.values():
        assert M - eps <= x <= W - M + eps
        assert M - eps <= y <= H - M + eps


@pytest.mark.parametrize("name", ["usa", "germany", "world"])
@pytest.mark.parametrize("size", [(1000.0, 700.0), (500.0, 900.0), (1600.0, 400.0)])
def test_fit_fills_one_dimension_and_is_centred(name: str, size: tuple[float, float]) -> None:
    w, h = size
    m = stand_in(name)
    pos = board_positions(m, w, h, margin=M)
    frame = board_frame(m, w, h, margin=M)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    used_w = frame.width if frame.wraps else max(xs) - min(xs)
    used_h = max(ys) - min(ys)
    full_w, full_h = w - 2 * M, h - 2 * M
    assert used_w <= full_w + 1e-6 and used_h <= full_h + 1e-6
    assert used_w == pytest.approx(full_w) or used_h == pytest.approx(full_h)
    # centred: equal free space on both sides of each axis
    left = frame.left if frame.wraps else min(xs)
    assert left - M == pytest.approx(w - M - (left + used_w), abs=1e-6)
    assert min(ys) - M == pytest.approx(h - M - max(ys), abs=1e-6)


@pytest.mark.parametrize("name", ["usa", "germany", "world"])
def test_aspect_preserved(name: str) -> None:
    """Canvas distances are the projected distances times one scale on both axes."""
    m = stand_in(name)
    pos = board_positions(m, W, H, margin=M)
    frame = board_frame(m, W, H, margin=M)
    ids = sorted(pos)
    for a, b in zip(ids, ids[1:], strict=False):
        pa = next(c for c in [*m.cities, *m.countries] if c.id == a)
        pb = next(c for c in [*m.cities, *m.countries] if c.id == b)
        xa, ya = project(pa.lat, pa.lon, m.projection)
        xb, yb = project(pb.lat, pb.lon, m.projection)
        assert pos[b][0] - pos[a][0] == pytest.approx((xb - xa) * frame.scale, abs=1e-6)
        assert pos[b][1] - pos[a][1] == pytest.approx((yb - ya) * frame.scale, abs=1e-6)
    # the same on a very wide and a very tall canvas: the map's own ratio is kept
    wide = board_positions(m, 3000, 600, margin=0)
    tall = board_positions(m, 600, 3000, margin=0)

    def ratio(p: dict[str, tuple[float, float]]) -> float:
        xs = [v[0] for v in p.values()]
        ys = [v[1] for v in p.values()]
        return (max(xs) - min(xs)) / (max(ys) - min(ys))

    assert ratio(wide) == pytest.approx(ratio(tall))


def test_usa_directions() -> None:
    pos = board_positions(stand_in("usa"), W, H)
    assert pos["seattle"][0] < pos["boston"][0]
    assert pos["los-angeles"][0] < pos["new-york"][0]
    assert pos["duluth"][1] < pos["miami"][1]
    assert pos["winnipeg"][1] < pos["houston"][1]
    # wider than tall: the USA fills the width of a 1000 x 700 canvas
    xs = [p[0] for p in pos.values()]
    assert min(xs) == pytest.approx(M) and max(xs) == pytest.approx(W - M)


def test_germany_directions() -> None:
    pos = board_positions(stand_in("germany"), 700, 1000)
    assert pos["kiel"][1] < pos["muenchen"][1]
    assert pos["hamburg"][1] < pos["frankfurt"][1]
    assert pos["saarbruecken"][0] < pos["dresden"][0]
    assert pos["koeln"][0] < pos["berlin"][0]
    # countries and their spaces sit on the right side of the country
    assert pos["frankreich"][0] < pos["karlsruhe"][0]
    assert pos["daenemark"][1] < pos["kiel"][1]
    assert pos["oesterreich-3"][1] > pos["lindau"][1]  # Lindau's Austrian space is south
    assert pos["niederlande-1"][0] < pos["emden"][0]
    # Germany is taller than wide: a portrait canvas is filled top to bottom
    ys = [p[1] for p in pos.values()]
    assert min(ys) == pytest.approx(M) and max(ys) == pytest.approx(1000 - M)


def test_world_wrap_seam_in_the_north_east_pacific() -> None:
    m = stand_in("world")
    pos = board_positions(m, 2000, 1000, margin=M)
    frame = board_frame(m, 2000, 1000, margin=M)
    assert frame.wraps
    x_of = {k: (v[0] - frame.left) / frame.width for k, v in pos.items()}
    # full seam-to-seam width: the frame spans 360° of longitude
    assert frame.width == pytest.approx(2 * math.pi * frame.scale)
    assert x_of["anchorage"] > 0.95 and x_of["honolulu"] > 0.9
    assert x_of["vancouver"] < 0.06 and x_of["los-angeles"] < 0.07
    assert x_of["lima"] < 0.2 and x_of["valparaiso"] < 0.2
    assert x_of["los-angeles"] < x_of["new-york"] < x_of["hamburg"] < x_of["beijing"]
    assert x_of["beijing"] < x_of["tokyo"] < x_of["christchurch"] < x_of["honolulu"]
    assert pos["murmansk"][1] < pos["cape-town"][1]
    # the seam meridian (140° W) is both edges
    assert frame.place(0.0, -139.999)[0] == pytest.approx(frame.left, abs=0.1)
    assert frame.place(0.0, -140.001)[0] == pytest.approx(frame.left + frame.width, abs=0.1)


def test_wrap_uses_full_width_even_for_few_places() -> None:
    proj = {"kind": "equirectangular", "wraps": True, "seam_lon": 180}
    m = toy({"west": (0.0, -179.0), "east": (10.0, 179.0)}, proj)
    pos = board_positions(m, 760, 200, margin=20)
    # 360° across 720 px: 2 px per degree
    assert pos["west"][0] == pytest.approx(20 + 2)
    assert pos["east"][0] == pytest.approx(20 + 720 - 2)
    narrow = toy({"a": (0.0, 10.0), "b": (10.0, 20.0)}, proj)
    p = board_positions(narrow, 760, 200, margin=20)
    assert p["a"][0] == pytest.approx(20 + 2 * 190)
    assert p["b"][0] - p["a"][0] == pytest.approx(20.0)


def test_countries_without_coordinates_are_skipped() -> None:
    m = toy({"a": (0.0, 0.0), "b": (1.0, 1.0)}, {"kind": "equirectangular"})
    m.countries = [SimpleNamespace(id="nowhere", lat=None, lon=None)]
    assert set(board_positions(m, 100, 100, margin=10)) == {"a", "b"}
    del m.countries  # a map object without the attribute at all
    assert set(board_positions(m, 100, 100, margin=10)) == {"a", "b"}


def test_single_place_is_centred() -> None:
    m = toy({"only": (10.0, 10.0)}, {"kind": "equirectangular"})
    assert board_positions(m, 200, 100, margin=10) == {"only": (100.0, 50.0)}


def test_canvas_too_small() -> None:
    m = toy({"a": (0.0, 0.0), "b": (1.0, 1.0)}, {"kind": "equirectangular"})
    with pytest.raises(ValueError):
        board_positions(m, 50, 100, margin=30)


@pytest.mark.parametrize("name", ["usa", "germany", "world"])
def test_positions_for_loaded_map(name: str) -> None:
    """The package's loaded ``Map`` works as ``game_map`` too."""
    from ttr_nb.maps import load_map

    game_map = load_map(name)
    pos = board_positions(game_map, W, H)
    assert pos == board_positions(stand_in(name), W, H)
