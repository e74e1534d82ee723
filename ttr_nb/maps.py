"""Board maps: loading, validation and lookup.

A map file is JSON described by ``maps/schema.json``. Loading validates the
schema first and then the cross-references the schema cannot express (route
ends exist, parallel groups join the same places, ...), so a bad file is
refused with its name, the JSON path and the reason.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from .errors import MapFormatError
from .validation import schema_checker


def _maps_dir() -> Path:
    """The shipped maps: ``maps/`` beside the package (a checkout, an editable install, the
    static site's wheel), else where a regular install puts them, ``<prefix>/share/ttr-nb/maps``
    (``pyproject.toml``'s data files: an image whose home folder is a volume keeps them)."""
    beside = Path(__file__).resolve().parent.parent / "maps"
    if (beside / "schema.json").exists():
        return beside
    return Path(sys.prefix) / "share" / "ttr-nb" / "maps"


MAPS_DIR = _maps_dir()
SCHEMA_PATH = MAPS_DIR / "schema.json"

NO_FLAGS: Mapping[str, str] = MappingProxyType({})


def _no_flags() -> Mapping[str, str]:
    return NO_FLAGS


class Shared:
    """Immutable board data: a copy, even a deep one, is the object itself (so that
    ``copy.deepcopy`` of a game works although maps hold read-only mappings)."""

    __slots__ = ()

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


@dataclass(frozen=True)
class City(Shared):
    """A place on the board: a city, a country space (dead end) or a junction."""

    id: str
    name: str
    kind: str
    lat: float
    lon: float
    country: str | None = None
    port: bool = False
    passengers_at_setup: int = 0
    merchandise: str | None = None  # Märklin: the colour of the city's token stack
    estimated: Mapping[str, str] = field(default_factory=_no_flags)


@dataclass(frozen=True)
class Country(Shared):
    """A neighbouring country named on tickets, reached through its country spaces."""

    id: str
    name: str
    lat: float | None = None
    lon: float | None = None
    passengers_at_setup: int = 0
    estimated: Mapping[str, str] = field(default_factory=_no_flags)


@dataclass(frozen=True)
class Route(Shared):
    """One track between two places (each track of a double route is its own Route)."""

    id: int
    a: str
    b: str
    length: int
    color: str
    kind: str = "train"
    pair: bool = False
    group: int = 0
    wraps: bool = False
    estimated: Mapping[str, str] = field(default_factory=_no_flags)
    tunnel: bool = False  # Europe: cards turned up on claiming may ask for more
    locomotives: int = 0  # Europe: a ferry's locomotive symbols (0: not a ferry)

    @property
    def ends(self) -> tuple[str, str]:
        """The route's two places, as ``(a, b)``."""
        return (self.a, self.b)


@dataclass(frozen=True)
class Ticket(Shared):
    """A destination ticket: places to connect, in order for a tour."""

    id: int
    cities: tuple[str, ...]
    points: int
    deck: str = "regular"
    tour_values: Mapping[str, int] | None = None
    estimated: Mapping[str, str] = field(default_factory=_no_flags)


@dataclass(frozen=True)
class CardType(Shared):
    """One kind of card in the travel-card decks."""

    id: str
    color: str
    count: int
    deck: str = "train"
    spaces: int = 1
    harbor: bool = False
    min_route_length: int = 1
    passenger: bool = False

    @property
    def wild(self) -> bool:
        """Whether the card is a wild card (a locomotive): it stands for any colour."""
        return self.color == "wild"


@dataclass(frozen=True, eq=False)
class Map(Shared):
    """A loaded board: places, routes, tickets and cards.

    Immutable, and shared by every game on it. Made by :func:`load_map` from a map file
    (``maps/schema.json`` describes its fields); the ``*_by_id`` tables and ``groups``
    are filled in as it loads.

    Parameters
    ----------
    id : str
        The map's id (``"usa"``).
    name : str
        Its name for people (``"USA"``).
    rules : str
        The rules variant that plays it (``"usa"``, ``"europe"``, ...).
    path : str
        The file it was loaded from.
    cities : tuple of City
        Cities and country spaces.
    countries : tuple of Country
        Countries whose border spaces a ticket may name (Germany, Märklin).
    routes : tuple of Route
        Every track; a double route is two routes of one group.
    tickets : tuple of Ticket
        Destination tickets, tours included.
    card_types : tuple of CardType
        Travel cards and their counts.
    components : mapping
        The variant's pieces, points and bonuses (``pieces``, ``route_points``, ...).
    projection : mapping
        How places are drawn: the coordinates' projection.
    provenance : mapping
        Where each fact comes from.
    stand_in : mapping of str to str, optional
        Fields whose values stand in for facts not found, and why (shown to players).
    city_by_id, country_by_id, route_by_id : mapping, optional
        Lookup tables by id.
    route_index : mapping of int to int, optional
        Each route's position in `routes`.
    ticket_by_id, card_by_id : mapping, optional
        Lookup tables by id.
    groups : mapping of int to tuple of int, optional
        Each group's route ids (the tracks of a double route).

    See Also
    --------
    load_map : Load one.

    Examples
    --------
    >>> usa = load_map("usa")
    >>> usa.name, usa.rules, len(usa.cities), len(usa.routes), len(usa.tickets)
    ('USA', 'usa', 36, 100, 30)
    >>> route = usa.route_by_id[1]
    >>> usa.place_name(route.a), usa.place_name(route.b), usa.parallel(route)
    ('Atlanta', 'Charleston', ())
    """

    id: str
    name: str
    rules: str
    path: str
    cities: tuple[City, ...]
    countries: tuple[Country, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    card_types: tuple[CardType, ...]
    components: Mapping[str, Any]
    projection: Mapping[str, Any]
    provenance: Mapping[str, Any]
    stand_in: Mapping[str, str] = field(default_factory=_no_flags)
    city_by_id: Mapping[str, City] = field(default_factory=dict, repr=False)
    country_by_id: Mapping[str, Country] = field(default_factory=dict, repr=False)
    route_by_id: Mapping[int, Route] = field(default_factory=dict, repr=False)
    route_index: Mapping[int, int] = field(default_factory=dict, repr=False)
    ticket_by_id: Mapping[int, Ticket] = field(default_factory=dict, repr=False)
    card_by_id: Mapping[str, CardType] = field(default_factory=dict, repr=False)
    groups: Mapping[int, tuple[int, ...]] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        return (
            f"<Map {self.id!r}: {len(self.cities)} places, {len(self.routes)} routes, "
            f"{len(self.tickets)} tickets>"
        )

    @cached_property
    def dead_ends(self) -> frozenset[str]:
        """Places a connection may end in but never pass through (country spaces)."""
        return frozenset(c.id for c in self.cities if c.kind == "country_space")

    def place_name(self, place_id: str) -> str:
        """Display name of a city, country space or country."""
        if place_id in self.city_by_id:
            return self.city_by_id[place_id].name
        return self.country_by_id[place_id].name

    def targets(self, place_id: str) -> frozenset[str]:
        """Board places that satisfy a ticket naming ``place_id`` (a country: its spaces)."""
        if place_id in self.country_by_id:
            return frozenset(
                c.id for c in self.cities if c.kind == "country_space" and c.country == place_id
            )
        return frozenset((place_id,))

    def route_points(self, length: int) -> int:
        """Points for claiming a route of this length."""
        return int(self.components["route_points"][str(length)])

    def parallel(self, route: Route) -> tuple[int, ...]:
        """Ids of the other routes in ``route``'s double/triple group."""
        return tuple(r for r in self.groups[route.group] if r != route.id)

    def route_label(self, route: Route) -> str:
        """Short readable name such as ``Denver–Omaha (4 blue)``."""
        mode = " ship" if route.kind == "ship" else ""
        pair = " pair" if route.pair else ""
        if route.tunnel:
            mode += " tunnel"
        if route.locomotives:
            n = route.locomotives
            mode += f" ferry, {n} locomotive{'s' if n != 1 else ''}"
        return (
            f"{self.place_name(route.a)}–{self.place_name(route.b)} "
            f"({route.length} {route.color}{mode}{pair})"
        )


def _resolve(name_or_path: str | Path) -> Path:
    path = Path(name_or_path)
    if path.suffix == ".json" or path.exists():
        return path
    return MAPS_DIR / f"{name_or_path}.json"


def available_maps() -> list[str]:
    """List the names of the map files shipped in ``maps/``.

    Returns
    -------
    list of str
        The names, sorted; each one :func:`load_map` and :func:`~ttr_nb.game.new_game`
        take.

    Examples
    --------
    >>> available_maps()
    ['europe', 'germany', 'maerklin', 'usa', 'world']
    """
    return sorted(p.stem for p in MAPS_DIR.glob("*.json") if p.name != "schema.json")


def load_map(name_or_path: str | Path) -> Map:
    """Load and check a map by name or from a JSON file.

    The file is checked against ``maps/schema.json`` and then for sense (every route's
    ends exist, parallel groups join the same places, ...) and for what its variant's
    rules need; a map is read once per process and shared, as it never changes.

    Parameters
    ----------
    name_or_path : str or Path
        A shipped map's name (one of :func:`available_maps`: ``"usa"``, ``"europe"``,
        ...) or the path of a map file.

    Returns
    -------
    Map
        The board: places, routes, tickets, cards and the variant's components.

    Raises
    ------
    MapFormatError
        When the file is missing, is not JSON, breaks the schema or refers to
        places, routes or cards that do not exist; the message names the field.

    See Also
    --------
    available_maps : The shipped maps' names.

    Examples
    --------
    >>> usa = load_map("usa")
    >>> usa
    <Map 'usa': 36 places, 100 routes, 30 tickets>
    >>> route = usa.route_by_id[1]
    >>> usa.route_label(route), usa.route_points(route.length)
    ('Atlanta–Charleston (2 gray)', 2)
    >>> load_map("usa") is usa  # read once
    True
    """
    game_map = _load_map(_real_path(name_or_path))
    _check_playable(game_map)
    return game_map


_SHIPPED_PATHS: dict[str, str] = {}


def _real_path(name_or_path: str | Path) -> str:
    """``str(_resolve(name_or_path).resolve())``, the real path of a shipped map remembered
    by its name (resolving walks the path on disk: a third of the cost of a new game)."""
    path = Path(name_or_path)
    if path.suffix == ".json" or path.exists():
        return str(path.resolve())
    name = str(name_or_path)
    found = _SHIPPED_PATHS.get(name)
    if found is None:
        found = str((MAPS_DIR / f"{name}.json").resolve())
        if Path(found).is_file():  # only the maps that exist: any other name is tried again
            _SHIPPED_PATHS[name] = found
    return found


MAP_CHECKS: dict[str, Callable[[Map], Iterable[tuple[str, str]]]] = {}
"""Each rules variant's check of a map it would play, by rules name: ``(field path,
reason)`` for each problem. :mod:`ttr_nb.rules` fills it in as it is imported (the
rules import this module, never the reverse)."""


_PLAYABLE: set[tuple[Map, Callable[[Map], Iterable[tuple[str, str]]]]] = set()
"""(map, check) pairs already passed: a loaded map never changes."""


def _check_playable(game_map: Map) -> None:
    """Refuse a map its own rules could not play (checked once the rules exist)."""
    check = MAP_CHECKS.get(game_map.rules)
    if check is not None and (game_map, check) not in _PLAYABLE:
        for path, reason in check(game_map):
            raise MapFormatError(game_map.path, path, reason)
        _PLAYABLE.add((game_map, check))


@cache
def _load_map(path: str) -> Map:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise MapFormatError(path, "$", f"cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise MapFormatError(
            path, "$", f"is not UTF-8 text (byte {exc.start + 1} cannot be read)"
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapFormatError(path, "$", f"is not valid JSON ({exc})") from None
    except RecursionError:
        raise MapFormatError(path, "$", "is nested too deeply to be a map") from None
    except ValueError as exc:  # e.g. a number with too many digits
        raise MapFormatError(path, "$", f"is not a usable map ({exc})") from None
    return map_from_data(data, path)


def map_from_data(data: Any, label: str = "<map>") -> Map:
    """Build a :class:`Map` from already-parsed JSON, validating it."""
    problem = schema_checker(str(SCHEMA_PATH))(data)
    if problem is not None:
        raise MapFormatError(label, *problem)
    fail = _failer(label)

    countries = tuple(
        Country(
            id=c["id"],
            name=c["name"],
            lat=c.get("lat"),
            lon=c.get("lon"),
            passengers_at_setup=c.get("passengers_at_setup", 0),
            estimated=_flags(c),
        )
        for c in data.get("countries", [])
    )
    cities = tuple(
        City(
            id=c["id"],
            name=c["name"],
            kind=c["kind"],
            lat=c["lat"],
            lon=c["lon"],
            country=c.get("country"),
            port=c.get("port", False),
            passengers_at_setup=c.get("passengers_at_setup", 0),
            merchandise=c.get("merchandise"),
            estimated=_flags(c),
        )
        for c in data["cities"]
    )
    routes = tuple(
        Route(
            id=r["id"],
            a=r["a"],
            b=r["b"],
            length=r["length"],
            color=r["color"],
            kind=r["kind"],
            pair=r.get("pair", False),
            group=r["group"],
            wraps=r.get("wraps", False),
            estimated=_flags(r),
            tunnel=r.get("tunnel", False),
            locomotives=r.get("locomotives", 0),
        )
        for r in data["routes"]
    )
    tickets = tuple(
        Ticket(
            id=t["id"],
            cities=tuple(t["cities"]),
            points=t["points"],
            deck=t["deck"],
            tour_values=MappingProxyType(dict(t["tour_values"])) if "tour_values" in t else None,
            estimated=_flags(t),
        )
        for t in data["tickets"]
    )
    card_types = tuple(
        CardType(
            id=c["id"],
            color=c["color"],
            count=c["count"],
            deck=c.get("deck", "train"),
            spaces=c.get("spaces", 1),
            harbor=c.get("harbor", False),
            min_route_length=c.get("min_route_length", 1),
            passenger=c.get("passenger", False),
        )
        for c in data["components"]["cards"]
    )

    city_by_id = _unique(cities, "cities", fail)
    country_by_id = _unique(countries, "countries", fail)
    for i, country in enumerate(countries):
        if country.id in city_by_id:
            fail(f"$.countries[{i}].id", f"{country.id!r} is also a city id")
    route_by_id = _unique(routes, "routes", fail)
    ticket_by_id = _unique(tickets, "tickets", fail)
    card_by_id = _unique(card_types, "components.cards", fail)

    for i, city in enumerate(cities):
        if city.kind == "country_space" and city.country not in country_by_id:
            fail(
                f"$.cities[{i}].country",
                f"country space needs a known country, got {city.country!r}",
            )
    groups: dict[int, list[int]] = {}
    group_ends: dict[int, frozenset[str]] = {}
    for i, route in enumerate(routes):
        for end in ("a", "b"):
            if getattr(route, end) not in city_by_id:
                fail(f"$.routes[{i}].{end}", f"unknown place {getattr(route, end)!r}")
        if route.a == route.b:
            fail(f"$.routes[{i}]", "a route must join two different places")
        if str(route.length) not in data["components"]["route_points"]:
            fail(f"$.routes[{i}].length", f"no route_points entry for length {route.length}")
        ends = frozenset(route.ends)
        if group_ends.setdefault(route.group, ends) != ends:
            fail(f"$.routes[{i}].group", f"group {route.group} joins other places")
        groups.setdefault(route.group, []).append(route.id)
    for i, ticket in enumerate(tickets):
        for j, place in enumerate(ticket.cities):
            if place not in city_by_id and place not in country_by_id:
                fail(f"$.tickets[{i}].cities[{j}]", f"unknown place {place!r}")
        if ticket.deck == "tour" and ticket.tour_values is None:
            fail(f"$.tickets[{i}]", "a tour ticket needs tour_values")
    if not any(c.wild for c in card_types):
        fail("$.components.cards", "needs a wild (locomotive) card type")

    return Map(
        id=data["id"],
        name=data["name"],
        rules=data["rules"],
        path=label,
        cities=cities,
        countries=countries,
        routes=routes,
        tickets=tickets,
        card_types=card_types,
        components=MappingProxyType(data["components"]),
        projection=MappingProxyType(data["projection"]),
        provenance=MappingProxyType(data["provenance"]),
        stand_in=MappingProxyType(dict(data.get("stand_in", {}))),
        city_by_id=MappingProxyType(city_by_id),
        country_by_id=MappingProxyType(country_by_id),
        route_by_id=MappingProxyType(route_by_id),
        route_index=MappingProxyType({r.id: i for i, r in enumerate(routes)}),
        ticket_by_id=MappingProxyType(ticket_by_id),
        card_by_id=MappingProxyType(card_by_id),
        groups=MappingProxyType({g: tuple(ids) for g, ids in groups.items()}),
    )


def _flags(obj: Mapping[str, Any]) -> Mapping[str, str]:
    return MappingProxyType(dict(obj["estimated"])) if "estimated" in obj else NO_FLAGS


def _failer(label: str) -> Callable[[str, str], NoReturn]:
    def fail(path: str, reason: str) -> NoReturn:
        raise MapFormatError(label, path, reason)

    return fail


def _unique(
    items: Iterable[Any], where: str, fail: Callable[[str, str], NoReturn]
) -> dict[Any, Any]:
    seen: dict[Any, Any] = {}
    for i, item in enumerate(items):
        if item.id in seen:
            fail(f"$.{where}[{i}].id", f"duplicate id {item.id!r}")
        seen[item.id] = item
    return seen
