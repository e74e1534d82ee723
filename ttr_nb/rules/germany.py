"""Ticket to Ride: Germany (2017): passengers, countries, two ticket decks, majorities.

What differs from the USA rules:

* **Passengers.** 60 passengers, 10 in each of 6 colours, are drawn at random
  (with the game's seeded generator) and placed by the counts in the map file:
  Berlin 5; Hamburg, Köln, Frankfurt, München 4; Leipzig, Stuttgart 3; every
  other city 1; each neighbouring country 1. Claiming a route takes one
  passenger from each end that still has one; a route into a country takes the
  country's passenger (whichever of its spaces it reaches). Where an end holds
  several colours, the player chooses one: the choice is the claim's
  ``pickups`` field (``ClaimRoute(route, cards, pickups=(("berlin", "red"),))``),
  listed by ``legal_actions()``, saved and replayed. Collected passengers are
  public: ``player.extras["passengers"]`` (colour -> count), and the board's in
  ``state.extras["passengers"]`` (place -> colour -> count).
* **Countries** are dead ends (separate spaces on the map; the shared
  connectivity code never passes through them), and a ticket naming a country
  is completed by reaching any of its spaces.
* **Double and triple routes**: one track per player; with 2 or 3 players only
  one track of each at all (the base rule, applied to groups of three too).
* **Tickets** come from a short and a long deck with a chosen split
  (:mod:`ttr_nb.rules.two_decks`): 4 at setup, keep at least 2; 4 in play,
  keep at least 1.
* **Scoring**: routes 1, 2, 4, 7, 10, 15, 18 for lengths 1 to 7 (map file);
  tickets plus or minus; the Globetrotter (15) to every player tied for the most
  completed tickets; per passenger colour 20 to the player with the most and 10
  to the second. Tied leaders all get 20 and nobody gets 10 for that colour;
  tied seconds all get 10; a player without a passenger of a colour scores
  nothing for it. No longest-path bonus. Ties on points go to the most completed
  tickets, then the most passengers, then the victory is shared.

House rule where the rulebook is silent: the Globetrotter needs at least one
completed ticket (if nobody completed any, nobody gets it). House rule against
the rulebook's "may": a claim always takes the passengers at its ends (declining
never helps the claimant: one more passenger never lowers its taker's majority
points nor raises anyone else's).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any

from ..actions import ClaimRoute, Pickups, short
from ..maps import Map, Route
from ..state import GameState
from .base import NO_PICKUPS
from .two_decks import TwoTicketDecks

if TYPE_CHECKING:
    import random

    from .game_view import GameView as Game  # the game imports the rules, not the reverse

BOARD_KEY = "passengers"  # state.extras[BOARD_KEY]: place -> colour -> count
HELD_KEY = "passengers"  # player.extras[HELD_KEY]: colour -> count
FIRST_POINTS, SECOND_POINTS = 20, 10


@dataclass(frozen=True)
class ColourMajority:
    """Who leads one passenger colour at the end, and what each player scores for it.

    Attributes
    ----------
    colour : str
        The passenger colour.
    counts : tuple of int
        Passengers of this colour per player.
    first, second : tuple of int
        Seats scoring 20 and 10 (``second`` is empty when leaders tie, or when
        nobody else holds the colour).
    points : tuple of int
        Points per player for this colour.
    """

    colour: str
    counts: tuple[int, ...]
    first: tuple[int, ...]
    second: tuple[int, ...]
    points: tuple[int, ...]


def colour_majority(colour: str, counts: list[int] | tuple[int, ...]) -> ColourMajority:
    """Score one passenger colour from each player's count.

    Examples
    --------
    One leader, two tied seconds, one player without any:

    >>> m = colour_majority("red", [3, 1, 1, 0])
    >>> m.first, m.second, m.points
    ((0,), (1, 2), (20, 10, 10, 0))

    Tied leaders all score 20 and nobody scores 10:

    >>> colour_majority("red", [2, 2, 1]).points
    (20, 20, 0)
    """
    counts = tuple(counts)
    top = max(counts, default=0)
    first = tuple(i for i, n in enumerate(counts) if n and n == top)
    second: tuple[int, ...] = ()
    if len(first) == 1:
        rest = [n for i, n in enumerate(counts) if i not in first and n]
        if rest:
            runner_up = max(rest)
            second = tuple(i for i, n in enumerate(counts) if n == runner_up and i not in first)
    points = tuple(
        FIRST_POINTS if i in first else SECOND_POINTS if i in second else 0
        for i in range(len(counts))
    )
    return ColourMajority(colour, counts, first, second, points)


class GermanyRules(TwoTicketDecks):
    """The rules of Ticket to Ride: Germany (2017); see the module docstring."""

    name = "germany"

    @classmethod
    def map_problems(cls, game_map: Map) -> list[tuple[str, str]]:
        out = super().map_problems(game_map)
        components = game_map.components
        colours = components.get("passenger_colors") or []
        total = components.get("passengers", 0)
        if not colours or len(set(colours)) != len(colours):
            out.append(
                (
                    "$.components.passenger_colors",
                    "the Germany rules need the passenger colours, each named once",
                )
            )
        elif total % len(colours):
            out.append(
                (
                    "$.components.passengers",
                    f"{total} passengers cannot be shared equally among {len(colours)} colours",
                )
            )
        placed = sum(c.passengers_at_setup for c in game_map.cities) + sum(
            c.passengers_at_setup for c in game_map.countries
        )
        if placed != total:
            out.append(
                (
                    "$.components.passengers",
                    f"the map places {placed} passengers at setup, but the game has {total}",
                )
            )
        for i, city in enumerate(game_map.cities):
            if city.kind == "country_space" and city.passengers_at_setup:
                out.append(
                    (
                        f"$.cities[{i}].passengers_at_setup",
                        "a country's passengers belong to the country, not to one of its spaces",
                    )
                )
        country_of = {c.id: c.country or c.id for c in game_map.cities}
        for i, route in enumerate(game_map.routes):
            if country_of.get(route.a) == country_of.get(route.b):
                out.append(
                    (
                        f"$.routes[{i}]",
                        "a route may not join two spaces of one country (they share passengers)",
                    )
                )
        if "globetrotter" not in {b["id"] for b in components.get("bonuses", [])}:
            out.append(("$.components.bonuses", "the Germany rules need the globetrotter bonus"))
        return out

    def __init__(self, game_map: Map) -> None:
        super().__init__(game_map)
        self.passenger_colours: tuple[str, ...] = tuple(
            game_map.components.get("passenger_colors", ())
        )
        # Where a passenger is taken for each board place: a country space's country.
        self.passenger_place = {
            c.id: c.country if c.kind == "country_space" and c.country else c.id
            for c in game_map.cities
        }
        self.route_places = {
            r.id: (self.passenger_place[r.a], self.passenger_place[r.b]) for r in game_map.routes
        }
        self.setup_places = [
            (place.id, place.passengers_at_setup)
            for place in (*game_map.cities, *game_map.countries)
            if place.passengers_at_setup
        ]
        self.globetrotter = self.bonus_points.get("globetrotter", 0)

    # ------------------------------------------------------------------ setup
    def new_state(self, names: list[str], seed: int, rng: random.Random) -> GameState:
        """The base rules' new state, with the passengers placed on the board."""
        state = super().new_state(names, seed, rng)
        self.place_passengers(state, rng)
        return state

    def place_passengers(self, state: GameState, rng: random.Random) -> None:
        """Draw the passengers from a shuffled bag onto the board by the setup counts."""
        colours = self.passenger_colours
        each = self.map.components.get("passengers", 0) // max(1, len(colours))
        bag = [colour for colour in colours for _ in range(each)]
        rng.shuffle(bag)
        board: dict[str, dict[str, int]] = {}
        for place, count in self.setup_places:
            drawn, bag = bag[:count], bag[count:]
            board[place] = {c: drawn.count(c) for c in colours if c in drawn}
        state.extras[BOARD_KEY] = board
        for player in state.players:
            player.extras[HELD_KEY] = dict.fromkeys(colours, 0)

    # ------------------------------------------------------------- queries
    def passengers_at(self, state: GameState, place: str) -> dict[str, int]:
        """Passengers waiting at a city or country, colour -> count (empty when none)."""
        return dict(state.extras.get(BOARD_KEY, {}).get(self.passenger_place.get(place, place), {}))

    def held(self, state: GameState, player: int) -> dict[str, int]:
        """Passengers ``player`` has collected, colour -> count."""
        return dict(state.players[player].extras.get(HELD_KEY, {}))

    def passenger_totals(self, state: GameState) -> list[int]:
        """Passengers collected by each player."""
        return [sum(p.extras.get(HELD_KEY, {}).values()) for p in state.players]

    def majorities(self, state: GameState) -> list[ColourMajority]:
        """The majority table: one :class:`ColourMajority` per passenger colour."""
        return [
            colour_majority(
                colour, [p.extras.get(HELD_KEY, {}).get(colour, 0) for p in state.players]
            )
            for colour in self.passenger_colours
        ]

    def conserved_counts(self, state: GameState) -> dict[str, int]:
        """The base totals, and the passengers on the board plus in collections (60)."""
        out = super().conserved_counts(state)
        board = sum(n for held in state.extras.get(BOARD_KEY, {}).values() for n in held.values())
        out["passengers"] = board + sum(self.passenger_totals(state))
        return out

    # ---------------------------------------------------------- passengers
    def pickup_options(self, state: GameState, route: Route) -> tuple[Pickups, ...]:
        board = state.extras[BOARD_KEY]
        choices = []
        for place in self.route_places[route.id]:
            waiting = board.get(place)
            if waiting is not None and len(waiting) > 1:
                choices.append([(place, colour) for colour in waiting])
        if not choices:
            return NO_PICKUPS
        return tuple(tuple(sorted(combo)) for combo in product(*choices))

    def pickup_problem(self, state: GameState, route: Route, pickups: Pickups) -> str | None:
        board = state.extras[BOARD_KEY]
        ends = self.route_places[route.id]
        chosen: dict[str, str] = {}
        for place, colour in pickups:
            name = self._name(place)
            if place not in ends:
                return f"{name} is not at either end of the route"
            if place in chosen:
                return f"only one passenger is taken at {name}"
            if colour not in self.passenger_colours:
                return (
                    f"there are no {short(colour)} passengers in this game (the colours are "
                    f"{', '.join(self.passenger_colours)})"
                )
            waiting = board.get(place, {})
            if not waiting:
                return f"no passenger is left at {name}, so there is nothing to choose there"
            if colour not in waiting:
                return f"no {colour} passenger waits at {name} ({self.waiting_text(waiting)})"
            if len(waiting) == 1:
                return (
                    f"there is nothing to choose at {name} (only {colour} passengers wait "
                    "there): leave it out of the choice"
                )
            chosen[place] = colour
        for place in ends:
            waiting = board.get(place, {})
            if len(waiting) > 1 and place not in chosen:
                return (
                    f"passengers of several colours wait at {self._name(place)} "
                    f"({self.waiting_text(waiting)}): choose which one to take"
                )
        return None

    def taken(self, state: GameState, route: Route, pickups: Pickups) -> list[tuple[str, str]]:
        """(place, colour) of each passenger a legal claim of ``route`` takes."""
        board = state.extras[BOARD_KEY]
        chosen = dict(pickups)
        out = []
        for place in self.route_places[route.id]:
            waiting = board.get(place)
            if waiting:
                out.append((place, chosen.get(place) or next(iter(waiting))))
        return out

    def take_pickups(self, game: Game, player_index: int, route: Route, pickups: Pickups) -> None:
        state = game.state
        board = state.extras[BOARD_KEY]
        held = state.players[player_index].extras[HELD_KEY]
        for place, colour in self.taken(state, route, pickups):
            waiting = board[place]
            waiting[colour] -= 1
            if not waiting[colour]:
                del waiting[colour]
            if not waiting:
                del board[place]
            held[colour] += 1

    def pickup_text(self, state: GameState, route: Route | None, pickups: Pickups) -> str:
        if route is None or self.pickup_problem(state, route, pickups) is not None:
            # Name only what was asked for (a refused claim): its values may be nonsense.
            if not pickups:
                return ""
            asked = [f"the {c} passenger at {self._name(p)}" for p, c in pickups]
            return ", taking " + " and ".join(asked)
        taken = self.taken(state, route, pickups)
        if not taken:
            return " (no passenger waits at either end)"
        parts = [f"a {colour} passenger from {self._name(place)}" for place, colour in taken]
        return ", taking " + " and ".join(parts)

    def log_key(self, game: Game, action: Any) -> Hashable | None:
        if type(action) is ClaimRoute:  # the words name the passengers taken
            return None
        return super().log_key(game, action)

    def waiting_text(self, waiting: dict[str, int]) -> str:
        """``2 red, 1 black`` (or ``none left``) for the passengers at a place."""
        return ", ".join(f"{n} {colour}" for colour, n in waiting.items()) or "none left"

    def _name(self, place: str) -> str:
        if place in self.map.city_by_id or place in self.map.country_by_id:
            return self.map.place_name(place)
        return f"{short(place)} (no place of this map)"

    # -------------------------------------------------------------- scoring
    def score_components(self, state: GameState, final: bool) -> list[dict[str, int]]:
        rows = super().score_components(state, final)
        if not final:
            return rows
        globetrotter = self.most_completed_bonus(state, self.globetrotter)
        majority = self.majorities(state)
        for seat, row in enumerate(rows):
            row["globetrotter"] = globetrotter[seat]
            row["passengers"] = sum(m.points[seat] for m in majority)
        return rows

    def tiebreaks(
        self, state: GameState, rows: list[dict[str, int]]
    ) -> list[tuple[str, list[int]]]:
        return [
            ("most completed tickets", self.completed_counts(state)),
            ("most passengers", self.passenger_totals(state)),
        ]
