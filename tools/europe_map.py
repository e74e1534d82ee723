"""The Europe map file (Ticket to Ride: Europe, 2005), from the reference data (see
build_maps.py).

The reference folder holds the consolidated board (``cities.csv``, ``routes.csv``,
``tickets.csv``) with its sources and checks (``SOURCES.md``, ``NOTES.md``). This builder
reads the facts (names, lengths, colours, tunnel flags, ferry locomotives, ticket values)
and writes them in the map format; coordinates come from GeoNames as on the other maps,
and are checked against the reference's own latitude/longitude.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from map_common import (
    FORMAT,
    LICENCE,
    Gazetteer,
    check_points,
    classic_cards,
    classic_routes,
    latlon,
    read_csv,
    slug,
)

# Board name -> (GeoNames name, country code). The board's historical names are the cities
# of today (NOTES.md: Angora = Ankara, Constantinople = Istanbul, Smyrna = İzmir, ...).
EUROPE_GEONAMES: dict[str, tuple[str, str]] = {
    "Amsterdam": ("Amsterdam", "NL"),
    "Angora": ("Ankara", "TR"),
    "Athína": ("Athens", "GR"),
    "Barcelona": ("Barcelona", "ES"),
    "Berlin": ("Berlin", "DE"),
    "Brest": ("Brest", "FR"),
    "Brindisi": ("Brindisi", "IT"),
    "Bruxelles": ("Brussels", "BE"),
    "Bucuresti": ("Bucharest", "RO"),
    "Budapest": ("Budapest", "HU"),
    "Cádiz": ("Cádiz", "ES"),
    "Constantinople": ("Istanbul", "TR"),
    "Danzig": ("Gdańsk", "PL"),
    "Dieppe": ("Dieppe", "FR"),
    "Edinburgh": ("Edinburgh", "GB"),
    "Erzurum": ("Erzurum", "TR"),
    "Essen": ("Essen", "DE"),
    "Frankfurt": ("Frankfurt am Main", "DE"),
    "Kharkov": ("Kharkiv", "UA"),
    "København": ("Copenhagen", "DK"),
    "Kyïv": ("Kyiv", "UA"),
    "Lisboa": ("Lisbon", "PT"),
    "London": ("London", "GB"),
    "Madrid": ("Madrid", "ES"),
    "Marseille": ("Marseille", "FR"),
    "Moskva": ("Moscow", "RU"),
    "München": ("Munich", "DE"),
    "Palermo": ("Palermo", "IT"),
    "Pamplona": ("Pamplona", "ES"),
    "Paris": ("Paris", "FR"),
    "Petrograd": ("Saint Petersburg", "RU"),
    "Riga": ("Riga", "LV"),
    "Roma": ("Rome", "IT"),
    "Rostov": ("Rostov-na-Donu", "RU"),
    "Sarajevo": ("Sarajevo", "BA"),
    "Sevastopol": ("Sevastopol", "UA"),
    "Smolensk": ("Smolensk", "RU"),
    "Smyrna": ("İzmir", "TR"),
    "Sochi": ("Sochi", "RU"),
    "Sofia": ("Sofia", "BG"),
    "Stockholm": ("Stockholm", "SE"),
    "Venezia": ("Venice", "IT"),
    "Warszawa": ("Warsaw", "PL"),
    "Wien": ("Vienna", "AT"),
    "Wilno": ("Vilnius", "LT"),
    "Zágráb": ("Zagreb", "HR"),
    "Zürich": ("Zurich", "CH"),
}
# The board's route scoring table (NOTES.md: there is no route of length 5 or 7).
EUROPE_POINTS = {"1": 1, "2": 2, "3": 4, "4": 7, "6": 15, "8": 21}
# What NOTES.md counts, checked before anything is written.
EXPECTED = {
    "cities": 47,
    "tracks": 101,
    "doubles": 11,
    "tunnels": 18,
    "ferries": 13,
    "locomotive symbols": 17,
    "long tickets": 6,
    "regular tickets": 40,
}
MAX_COORD_DRIFT = 0.1  # degrees between GeoNames and the reference's own lat/lon


def place_id(name: str) -> str:
    """The map id of a board name (``ø`` is written ``o``, as the ASCII spellings do).

    >>> place_id("København"), place_id("München"), place_id("Kyïv")
    ('kobenhavn', 'muenchen', 'kyiv')
    """
    return slug(name.replace("ø", "o"))


def europe_counts(routes: list[dict[str, Any]], tickets: list[dict[str, Any]]) -> dict[str, int]:
    """The reference's headline counts of a built map (compared with ``EXPECTED``)."""
    groups = Counter(r["group"] for r in routes)
    decks = Counter(t["deck"] for t in tickets)
    return {
        "tracks": len(routes),
        "doubles": sum(1 for n in groups.values() if n == 2),
        "tunnels": sum(1 for r in routes if r.get("tunnel")),
        "ferries": sum(1 for r in routes if r.get("locomotives")),
        "locomotive symbols": sum(r.get("locomotives", 0) for r in routes),
        "long tickets": decks["long"],
        "regular tickets": decks["regular"],
    }


def build_europe(ref: Path, gaz: Gazetteer) -> dict[str, Any]:
    city_rows = read_csv(ref / "cities.csv")
    route_rows = read_csv(ref / "routes.csv")
    ticket_rows = read_csv(ref / "tickets.csv")

    cities = []
    ids: dict[str, str] = {}
    for row in city_rows:
        name = row["city"]
        lat, lon = latlon(gaz.find(*EUROPE_GEONAMES[name]))
        drift = max(abs(lat - float(row["lat"])), abs(lon - float(row["lon"])))
        if drift > MAX_COORD_DRIFT:
            raise ValueError(f"{name}: GeoNames is {drift:.2f}° from the reference's lat/lon")
        ids[name] = place_id(name)
        cities.append({"id": ids[name], "name": name, "kind": "city", "lat": lat, "lon": lon})
    if len(set(ids.values())) != len(ids):
        raise ValueError("two Europe cities share an id")

    check_points(route_rows, "points", EUROPE_POINTS)
    routes = classic_routes(route_rows, lambda row: (ids[row["city1"]], ids[row["city2"]]))
    for rec, row in zip(routes, route_rows, strict=True):
        kind = row["kind"]
        locomotives = int(row["ferry_locomotives"])
        if kind == "tunnel":
            rec["tunnel"] = True
        elif kind == "ferry":
            if not 0 < locomotives <= rec["length"] or rec["color"] != "gray":
                raise ValueError(f"route {rec['id']}: a ferry is gray with 1+ locomotives")
            rec["locomotives"] = locomotives
        elif kind != "plain" or locomotives:
            raise ValueError(f"route {rec['id']}: unknown kind {kind!r}")

    tickets = [
        {
            "id": int(row["ticket_id"]),
            "cities": [ids[row["city1"]], ids[row["city2"]]],
            "points": int(row["points"]),
            "deck": row["deck"],
        }
        for row in ticket_rows
    ]
    found = {"cities": len(cities), **europe_counts(routes, tickets)}
    if found != EXPECTED:
        raise ValueError(f"the Europe reference counts differ from NOTES.md: {found}")

    return {
        "format": FORMAT,
        "id": "europe",
        "name": "Europe",
        "rules": "europe",
        "projection": {
            "kind": "lambert_conformal",
            "center_lon": 16,
            "center_lat": 48,
            "standard_parallels": [40, 56],
        },
        "cities": cities,
        "routes": routes,
        "tickets": tickets,
        "components": {
            "cards": classic_cards(),
            "pieces": {"train": 45},
            "route_points": dict(EUROPE_POINTS),
            "bonuses": [{"id": "longest_path", "points": 10}],
            "stations_per_player": 3,
        },
        "provenance": {
            "sources": [
                "thoun/tickettoride (Board Game Arena adaptation): modules/maps/europe/"
                "cities.php, routes.php, destinations.php, map.php @ "
                "77738ff109a6f634961b90082d26da9a469cde1f (repository snapshot "
                "a31662b7cdb5bad742372c8fdefabe515a7260d7); licence: LICENCE_BGA (BGA studio "
                "licence) and ISC in package.json; facts only (names, lengths, colours, "
                "tunnel flags, ferry locomotives, ticket values)",
                "cross-check, agreeing on all 101 tracks and 46 tickets: fernandomsilva/"
                "Ticket-to-Ride-Engine: gameContent/europe.txt, europe_destinations.txt @ "
                "a24afc5e2bd38419bab6b1d3ad3147df11c22964; no licence stated; read, not copied",
                "cross-check, agreeing on all 101 tracks: SokolAK/Ticket_to_Ride_Assistant: "
                "app/src/main/assets/TtRA_Europe.db @ 687ab28fe0da9cf5ecb0728c134f0ed517ef2873; "
                "no licence stated; read, not copied",
                "cross-check only, with known errors (see notes): czirkoszoltan/tickettoride "
                "map-eu.json @ fad9c9ef9fc2050b5369bfd859c3cf65001b159d; jessieblaeser/"
                "Ticket-to-Ride-Europe bin/routes.csv @ "
                "3f2135c173a8b0342a51f85459da6f97f2aee8a3; no licence stated",
                "Ticket to Ride: Europe rulebook (Days of Wonder, 2005, reprinted 2015): 110 "
                "train cards (12 of each of 8 colours + 14 locomotives), 45 trains and 3 train "
                "stations per player, 46 tickets (6 long, 40 regular), the European Express "
                "bonus of 10 for the longest continuous path, route scoring 1, 2, 4, 7, 15, "
                "21 for lengths 1, 2, 3, 4, 6, 8",
                gaz.source,
            ],
            "notes": [
                "Routes: BGA, fernandomsilva and SokolAK agree track by track: 47 cities, 101 "
                "tracks over 90 city pairs (11 doubles, no triples), 18 tunnels (one of each "
                "colour and 10 gray), 13 ferries (all gray) with 17 locomotive symbols; no "
                "track is both tunnel and ferry.",
                "Disputed tracks were checked on the board art and kept as the three sources "
                "have them: Madrid–Pamplona black + white tunnels (czirkoszoltan: black + "
                "black), Frankfurt–Paris white + orange, Danzig–Warszawa gray, "
                "Barcelona–Marseille 4; jessieblaeser's blue for the 8 black tracks is wrong.",
                "Tickets: 6 long (20-21 points, dealt one to each player at setup) and 40 "
                "regular (5-13 points); the city order on a ticket follows BGA.",
                "Colour 'pink' (BGA) is written 'purple'. City names are the retail board's "
                "spelling (København, Kyïv, Athína, Cádiz, Zágráb); ids are ASCII.",
                "Coordinates are the real cities of today (GeoNames): Angora is Ankara, "
                "Constantinople Istanbul, Smyrna İzmir, Danzig Gdańsk, Wilno Vilnius, "
                "Petrograd Saint Petersburg, Kharkov Kharkiv, Zágráb Zagreb; Brest is the "
                "French Brest, Rostov is Rostov-on-Don. The printed board is schematic, so "
                "the drawn board differs from it in places.",
                "Route ids are the reference numbering (one id per track); tracks of a "
                "double route share 'group' = the smaller id. A tunnel has tunnel: true; a "
                "ferry has locomotives: the number of locomotive symbols.",
            ],
            "licence": LICENCE,
        },
    }
