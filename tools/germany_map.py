"""The Germany map file, from the reference data (see build_maps.py)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from map_common import (
    FORMAT,
    LICENCE,
    Gazetteer,
    bearing,
    check_points,
    classic_cards,
    classic_routes,
    destination,
    distance_km,
    latlon,
    read_csv,
    route_points,
    slug,
)

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
    routes = classic_routes(
        route_rows, lambda row: (by_ref_id[row["city1_id"]], by_ref_id[row["city2_id"]])
    )

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
