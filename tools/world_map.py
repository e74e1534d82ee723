"""The Rails & Sails World map file, from the reference data (see build_maps.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from map_common import (
    FORMAT,
    LICENCE,
    Gazetteer,
    check_parallel,
    check_points,
    color_of,
    latlon,
    make_groups,
    read_csv,
    route_points,
    route_record,
    slug,
    world_cards,
)

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
