"""The USA map file, from the reference data (see build_maps.py)."""

from __future__ import annotations

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
    route_points,
    slug,
)

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
    routes = classic_routes(route_rows, lambda row: (ids[row["city1"]], ids[row["city2"]]))

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
