"""Ticket to Ride: Märklin (2006): passengers that travel, merchandise, Loco +4, Passenger cards.

What differs from the USA rules (rulebook ``maerklin.txt``), each a hook on
:class:`~ttr_nb.rules.base.Rules`:

* **Cards.** 118: 11 of each of 8 colours, 14 Locomotives, 6 Locomotive +4 and 10
  Passenger cards. A Locomotive +4 is wild on routes of 4 or more spaces only. A
  Passenger card pays for no route: on a journey it buys the use of one opponent's route.
* **Face-up row.** A Locomotive taken face up is the whole draw, and one cannot be
  taken as the second card; a Locomotive +4 or a Passenger card is drawn like a colour
  card. Three face-up Locomotives, or three face-up Passenger cards, send all five to
  the discards and five new ones are dealt.
* **Tickets** come from a short and a long deck with a chosen split, as in Germany
  (:mod:`ttr_nb.rules.two_decks`): 4 at setup, keep at least 2; 4 in play, keep at
  least 1; the tickets not kept go under their own deck.
* **Countries** are dead ends, as in Germany (the shared connectivity code).
* **Passengers.** Each player has 3. A claim may place one of them on either city of
  the claimed route where no passenger stands (never in a country): the claim's
  ``pickups`` field, ``(("berlin", "passenger"),)``, listed by ``legal_actions()``.
* **Moving a passenger** (:class:`MovePassenger`, a fourth kind of turn): the
  passenger travels a trail of routes (no route twice, never into a country) from the
  city it stands on, over its owner's routes, and over one opponent's route per
  Passenger card spent. It collects the top merchandise token of each city it enters
  (once per city; never at its start), the points count at once, and the passenger
  leaves the game. The move is saved as the exact list of routes.
* **Merchandise**: stacks by city colour, top first: black 7, 6, 5, 4; red 4, 3, 2;
  yellow 3, 2, 1; white 2 (74 tokens). Score rows ``routes``, ``tickets``,
  ``merchandise``, ``most_tickets`` (10 to every player tied for the most completed
  tickets). Ties on points: most completed tickets, then most merchandise points.

Readings where the rulebook is brief (stated so that they can be seen):

* **One token per city and journey.** The rulebook says a passenger picks up a token
  "from each city" it moves through; a trail that comes back to a city takes nothing
  more there, and never takes one at its start.
* **Journeys listed.** A journey's outcome is the set of cities it visits and the
  Passenger cards it spends, so ``legal_actions()`` lists one cheapest path for every
  distinct set of cities reachable with at most ``listed_journey_cards`` (1) Passenger
  card. With more cards the number of sets grows exponentially on a crowded board
  (hundreds of milliseconds per turn), so those journeys are not listed, but they
  are legal: the app builds them route by route, a save may hold them, and the
  engine checks them like any other action.
* **Most Completed Tickets** needs at least one completed ticket (as Germany's
  Globetrotter here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import (
    Payment,
    Pickups,
    _frozen,
    register_action,
    short,
    whole_number,
    word_problem,
)
from ..algorithms import passenger_journeys
from ..maps import Map, Route
from ..state import GameState, PlayerState
from .base import NO_PICKUPS
from .two_decks import TwoTicketDecks

if TYPE_CHECKING:
    import random

    from .game_view import GameView as Game  # the game imports the rules, not the reverse

__all__ = ["MaerklinRules", "MovePassenger"]

PASSENGER = "passenger"  # the choice a claim carries: (city, PASSENGER)
BOARD_KEY = "passengers"  # state.extras[BOARD_KEY]: city -> seat of the passenger standing there
STACKS_KEY = "merchandise"  # state.extras[STACKS_KEY]: city -> tokens left, top first
LEFT_KEY = "passengers_left"  # player.extras: passengers not placed yet
MOVED_KEY = "journeys"  # player.extras: passengers that travelled and left the game
TOKENS_KEY = "merchandise"  # player.extras: [city, value] of each token collected
MAX_JOURNEY_ROUTES = 60  # 45 trains make at most 45 routes, plus one per Passenger card


@register_action
@dataclass(frozen=True)
class MovePassenger:
    """Move the player's passenger standing in city ``start`` along ``path`` (route ids,
    in travel order); it collects a token in each city it enters and leaves the game.

    Each opponent's route on the path costs one Passenger card.
    """

    start: str
    path: tuple[int, ...]

    malformed_words = ("move", "a passenger")

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", _frozen(self.start))
        object.__setattr__(self, "path", _frozen(self.path))

    @classmethod
    def trusted(cls, start: str, path: tuple[int, ...]) -> MovePassenger:
        """Build from engine values, skipping the conversions (the hot path)."""
        action = object.__new__(cls)
        object.__setattr__(action, "start", start)
        object.__setattr__(action, "path", path)
        return action

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        problem = word_problem(self.start, "the passenger's city")
        if problem:
            return "start", problem
        if not isinstance(self.path, tuple):
            return "path", f"the path must be a list of route numbers, not {short(self.path)}"
        if len(self.path) > MAX_JOURNEY_ROUTES:
            return "path", f"the path lists {len(self.path)} routes; at most {MAX_JOURNEY_ROUTES}"
        for route in self.path:
            if not whole_number(route):
                return "path", f"each step of the path must be a route number, not {short(route)}"
        return None

    def __str__(self) -> str:
        return f"move the passenger in {short(self.start)} along routes {short(self.path)}"


@dataclass(frozen=True)
class JourneyPlan:
    """What a legal :class:`MovePassenger` does, worked out before it happens.

    Attributes
    ----------
    cities : tuple of str
        The start, then every place reached, in order.
    tokens : tuple of (str, int)
        (city, value) of each token it collects, in the order collected.
    paid : tuple of int
        The opponents' routes it uses (one Passenger card each).
    """

    cities: tuple[str, ...]
    tokens: tuple[tuple[str, int], ...]
    paid: tuple[int, ...]

    @property
    def points(self) -> int:
        """The points the journey collects: the sum of its tokens."""
        return sum(value for _, value in self.tokens)


class MaerklinRules(TwoTicketDecks):
    """The rules of Ticket to Ride: Märklin (see the module docstring)."""

    name = "maerklin"
    listed_journey_cards = 1  # journeys with more Passenger cards are legal but not listed

    @classmethod
    def map_problems(cls, game_map: Map) -> list[tuple[str, str]]:
        out = super().map_problems(game_map)
        components = game_map.components
        cards = game_map.card_types
        if not any(c.wild and c.min_route_length <= 1 for c in cards):
            out.append(("$.components.cards", "the Märklin rules need a plain Locomotive"))
        passenger_cards = [c for c in cards if c.passenger]
        if len(passenger_cards) != 1 or passenger_cards[0].color != PASSENGER:
            out.append(
                (
                    "$.components.cards",
                    "the Märklin rules need one Passenger card type (colour 'passenger')",
                )
            )
        for i, card in enumerate(cards):
            if card.color == PASSENGER and not card.passenger:
                out.append(
                    (f"$.components.cards[{i}]", "a 'passenger' card must be a Passenger card")
                )
        stacks = {
            s.get("city_color"): s.get("stack") for s in components.get("merchandise_tokens", [])
        }
        for i, city in enumerate(game_map.cities):
            if city.kind == "city" and city.merchandise not in stacks:
                out.append(
                    (
                        f"$.cities[{i}].merchandise",
                        f"{city.name} needs a merchandise colour with a token stack in "
                        "components.merchandise_tokens",
                    )
                )
            if city.kind != "city" and city.merchandise:
                out.append((f"$.cities[{i}].merchandise", "only cities hold merchandise"))
        if not components.get("passengers"):
            out.append(("$.components.passengers", "the Märklin rules need passengers per player"))
        if "most_tickets" not in {b["id"] for b in components.get("bonuses", [])}:
            out.append(("$.components.bonuses", "the Märklin rules need the most_tickets bonus"))
        return out

    def __init__(self, game_map: Map) -> None:
        super().__init__(game_map)
        self.passenger_card = next(c.id for c in game_map.card_types if c.passenger)
        self.plain_wilds = frozenset(
            c.id for c in game_map.card_types if c.wild and c.min_route_length <= 1
        )
        self.stack_of = {
            s["city_color"]: tuple(s["stack"]) for s in game_map.components["merchandise_tokens"]
        }
        self.passengers_each = int(game_map.components["passengers"])
        self.most_tickets = self.bonus_points.get("most_tickets", 0)
        self.dead = game_map.dead_ends
        self.stops = frozenset(c.id for c in game_map.cities if c.kind == "city")

    # ------------------------------------------------------------------ setup
    def new_state(self, names: list[str], seed: int, rng: random.Random) -> GameState:
        """The base rules' new state, with the merchandise stacks placed and no passenger on the
        board."""
        state = super().new_state(names, seed, rng)
        state.extras[BOARD_KEY] = {}
        state.extras[STACKS_KEY] = {
            c.id: list(self.stack_of[c.merchandise])
            for c in self.map.cities
            if c.kind == "city" and c.merchandise
        }
        for player in state.players:
            player.extras.update({LEFT_KEY: self.passengers_each, MOVED_KEY: 0, TOKENS_KEY: []})
        return state

    # ------------------------------------------------------------------ cards
    def card_fits(self, card: Any, route: Route) -> bool:
        return not card.passenger and super().card_fits(card, route)

    def claim_reach(self, hand: dict[str, int]) -> int:
        colours = (hand[c.id] for c in self.colour_cards if not c.passenger)
        return max(colours, default=0) + sum(hand[w] for w in self.wild_ids)

    def ends_draw(self, card_id: str) -> bool:
        return card_id in self.plain_wilds

    def face_up_reset_due(self, state: GameState) -> bool:
        shown = [c for c in state.face_up if c is not None]
        locomotives = sum(c in self.plain_wilds for c in shown)
        passengers = sum(c == self.passenger_card for c in shown)
        return max(locomotives, passengers) >= self.face_up_wild_limit

    def payment_problem(self, player: PlayerState, route: Route, cards: Payment) -> str | None:
        if any(cid == self.passenger_card for cid, _ in cards):
            return (
                "Passenger cards pay for no route (a moving passenger spends them to use "
                "an opponent's route)"
            )
        return super().payment_problem(player, route, cards)

    def conserved_counts(self, state: GameState) -> dict[str, int]:
        """The base totals, all 118 cards, the 74 tokens and each player's 3 passengers."""
        out = super().conserved_counts(state)
        out["cards"] = (
            len(state.deck)
            + len(state.discard)
            + sum(c is not None for c in state.face_up)
            + sum(p.hand_size for p in state.players)
        )
        out["merchandise tokens"] = sum(len(s) for s in state.extras[STACKS_KEY].values()) + sum(
            len(p.extras[TOKENS_KEY]) for p in state.players
        )
        board = state.extras[BOARD_KEY]
        for seat, player in enumerate(state.players):
            standing = sum(owner == seat for owner in board.values())
            out[f"seat {seat + 1} passengers"] = (
                standing + player.extras[LEFT_KEY] + player.extras[MOVED_KEY]
            )
        return out

    # ----------------------------------------------------- placing passengers
    def placements(self, state: GameState, route: Route) -> list[str]:
        """The ends of ``route`` where the player to move may place a passenger now."""
        if not state.players[state.current].extras[LEFT_KEY]:
            return []
        board = state.extras[BOARD_KEY]
        return [end for end in route.ends if end in self.stops and end not in board]

    def pickup_options(self, state: GameState, route: Route) -> tuple[Pickups, ...]:
        ends = self.placements(state, route)
        if not ends:
            return NO_PICKUPS
        return ((), *(((end, PASSENGER),) for end in ends))

    def pickup_problem(self, state: GameState, route: Route, pickups: Pickups) -> str | None:
        if not pickups:
            return None
        if len(pickups) > 1:
            return "a claim places at most one passenger"
        place, kind = pickups[0]
        if kind != PASSENGER:
            return f"the only piece placed with a claim is a passenger, not {short(kind)}"
        name = self.place_text(place)
        if place not in route.ends:
            return f"{name} is not at either end of the route"
        if place not in self.stops:
            return f"a passenger is never placed in a country ({name})"
        owner = state.extras[BOARD_KEY].get(place)
        if owner is not None:
            who = "one of their own" if owner == state.current else state.players[owner].name + "'s"
            return f"a passenger ({who}) already stands in {name}: one passenger per city"
        if not state.players[state.current].extras[LEFT_KEY]:
            moved = state.players[state.current].extras[MOVED_KEY]
            return f"all {self.passengers_each} of their passengers are on the board" + (
                f" or have travelled ({moved})" if moved else ""
            )
        return None

    def take_pickups(self, game: Game, player_index: int, route: Route, pickups: Pickups) -> None:
        for place, _ in pickups:
            game.state.extras[BOARD_KEY][place] = player_index
            game.state.players[player_index].extras[LEFT_KEY] -= 1

    def pickup_text(self, state: GameState, route: Route | None, pickups: Pickups) -> str:
        if not pickups:
            return ""
        return ", placing a passenger in " + " and ".join(self.place_text(p) for p, _ in pickups)

    def place_text(self, place: Any) -> str:
        """A place's name in words (or what the value is, when it names no place of the map)."""
        if isinstance(place, str) and (
            place in self.map.city_by_id or place in self.map.country_by_id
        ):
            return self.map.place_name(place)
        return f"{short(place)} (no place of this map)"

    # ------------------------------------------------------------- journeys
    def passengers_of(self, state: GameState, seat: int) -> list[str]:
        """Cities where ``seat`` has a passenger standing, in board order."""
        board = state.extras[BOARD_KEY]
        return sorted(city for city, owner in board.items() if owner == seat)

    def network(self, state: GameState, seat: int, paid: bool = True) -> list[tuple]:
        """Claimed routes as ``(route id, a, b, needs a Passenger card)`` for ``seat``."""
        route_by_id = self.map.route_by_id
        out = []
        for rid, owner in state.owner.items():
            if owner != seat and not paid:
                continue
            route = route_by_id[rid]
            out.append((rid, route.a, route.b, owner != seat))
        out.sort()
        return out

    def journeys(self, state: GameState, seat: int, start: str, cards: int) -> list[Any]:
        """One cheapest journey per distinct set of cities, with at most ``cards`` paid
        routes (see :func:`ttr_nb.algorithms.passenger_journeys`)."""
        routes = self.network(state, seat, paid=cards > 0)
        return passenger_journeys(routes, start, cards, self.dead)

    def extra_actions(self, game: Game) -> list[Any]:
        state = game.state
        seat = state.current
        cards = min(state.players[seat].hand[self.passenger_card], self.listed_journey_cards)
        move = MovePassenger.trusted
        out: list[Any] = []
        for start in self.passengers_of(state, seat):
            out.extend(move(start, j.path) for j in self.journeys(state, seat, start, cards))
        return out

    def listed_in_part(self, action: Any) -> bool:
        return isinstance(action, MovePassenger)

    def journey_problem(self, state: GameState, seat: int, action: MovePassenger) -> str | None:
        """Why ``seat`` may not make this journey now, or None."""
        start = action.start
        if start not in self.map.city_by_id:
            return f"there is no city {short(start)} on this map"
        owner = state.extras[BOARD_KEY].get(start)
        name = self.map.place_name(start)
        if owner is None:
            return f"no passenger stands in {name}"
        if owner != seat:
            return f"the passenger in {name} is {state.players[owner].name}'s"
        if not action.path:
            return "a journey uses at least one route"
        walked = self._walk(state, seat, action)
        if isinstance(walked, str):
            return walked
        need = len(walked.paid)
        have = state.players[seat].hand[self.passenger_card]
        if need > have:
            used = ", ".join(self._owned_label(state, rid) for rid in walked.paid)
            return (
                f"the journey uses {need} opponent route{'s' if need != 1 else ''} ({used}), "
                f"one Passenger card each, and they hold {have}"
            )
        return None

    def plan(self, state: GameState, seat: int, action: MovePassenger) -> JourneyPlan:
        """Cities, tokens and paid routes of a legal journey (checked first)."""
        walked = self._walk(state, seat, action)
        if isinstance(walked, str):
            raise ValueError(walked)
        return walked

    def _walk(self, state: GameState, seat: int, action: MovePassenger) -> JourneyPlan | str:
        here = action.start
        cities, used, paid = [here], set(), []
        for step, rid in enumerate(action.path, 1):
            route = self.map.route_by_id.get(rid)
            if route is None:
                return f"there is no route {short(rid)} on this map (step {step} of the journey)"
            label = self.map.route_label(route)
            if rid in used:
                return f"a journey uses each route at most once, and {label} comes twice"
            if here not in route.ends:
                return (
                    f"step {step}, {label}, does not leave {self.map.place_name(here)}, "
                    "where the passenger is by then"
                )
            owner = state.owner.get(rid)
            if owner is None:
                return f"nobody has claimed {label}: a passenger travels on claimed routes only"
            there = route.b if here == route.a else route.a
            if there in self.dead:
                return f"a passenger never goes into a country ({label})"
            if owner != seat:
                paid.append(rid)
            used.add(rid)
            cities.append(there)
            here = there
        stacks = state.extras[STACKS_KEY]
        tokens, collected = [], {action.start}
        for city in cities[1:]:
            if city in collected:
                continue
            collected.add(city)
            stack = stacks.get(city)
            if stack:
                tokens.append((city, stack[0]))
        return JourneyPlan(tuple(cities), tuple(tokens), tuple(paid))

    def _owned_label(self, state: GameState, rid: int) -> str:
        route = self.map.route_by_id[rid]
        owner = state.owner.get(rid)
        whose = f"{state.players[owner].name}'s " if owner is not None else ""
        return f"{whose}{self.map.place_name(route.a)}–{self.map.place_name(route.b)}"

    def extra_problem(self, game: Game, action: Any) -> str | None:
        if isinstance(action, MovePassenger):
            return self.journey_problem(game.state, game.state.current, action)
        return super().extra_problem(game, action)

    def execute_extra(self, game: Game, action: Any) -> None:
        if not isinstance(action, MovePassenger):
            super().execute_extra(game, action)
            return
        state = game.state
        seat = state.current
        player = state.players[seat]
        plan = self.plan(state, seat, action)
        stacks = state.extras[STACKS_KEY]
        for city, _ in plan.tokens:
            player.extras[TOKENS_KEY].append([city, stacks[city].pop(0)])
        if plan.paid:
            spent = ((self.passenger_card, len(plan.paid)),)
            player.hand[self.passenger_card] -= len(plan.paid)
            self.discard_cards(state, spent)
        del state.extras[BOARD_KEY][action.start]
        player.extras[MOVED_KEY] += 1
        self.end_turn(game)

    # ---------------------------------------------------------------- scoring
    def merchandise_points(self, state: GameState) -> list[int]:
        """Points of the tokens each player has collected."""
        return [sum(value for _, value in p.extras[TOKENS_KEY]) for p in state.players]

    def score_components(self, state: GameState, final: bool) -> list[dict[str, int]]:
        merchandise = self.merchandise_points(state)
        rows: list[dict[str, int]] = []
        for seat, player in enumerate(state.players):
            row = {"routes": player.route_score}
            if final:
                row["tickets"] = sum(self.ticket_points(state, player, t) for t in player.tickets)
            row["merchandise"] = merchandise[seat]
            rows.append(row)
        if final:
            bonus = self.most_completed_bonus(state, self.most_tickets)
            for row, points in zip(rows, bonus, strict=True):
                row["most_tickets"] = points
        return rows

    def tiebreaks(
        self, state: GameState, rows: list[dict[str, int]]
    ) -> list[tuple[str, list[int]]]:
        return [
            ("most completed tickets", self.completed_counts(state)),
            ("most merchandise points", self.merchandise_points(state)),
        ]

    # ------------------------------------------------------------------- text
    def card_name(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        if card is None:
            return str(card_id)
        if card.passenger:
            return "Passenger card"
        if card.wild:
            return "Locomotive +4" if card.min_route_length > 1 else "Locomotive"
        return card.color

    def count_text(self, card_id: str, n: int) -> str:
        card = self.cards[card_id]
        if card.wild and card.min_route_length <= 1:
            noun = "Locomotive"
        elif card.wild:
            noun = "Locomotive +4 card"
        elif card.passenger:
            noun = "Passenger card"
        else:
            noun = f"{card.color} card"
        return f"{n} {noun}{'' if n == 1 else 's'}"

    def journey_text(self, state: GameState, seat: int, action: MovePassenger) -> str:
        """``the passenger in Berlin to Hannover and Bremen, collecting 4 + 2 = 6 points``."""
        start = self.place_text(action.start)
        walked = None
        if action.path and state.extras[BOARD_KEY].get(action.start) == seat:
            walked = self._walk(state, seat, action)
        if not isinstance(walked, JourneyPlan):
            if not action.path:
                return f"the passenger in {start} (no route given)"
            return f"the passenger in {start} along routes {short(action.path)}"
        places = " → ".join(self.map.place_name(c) for c in walked.cities)
        if walked.tokens:
            values = [value for _, value in walked.tokens]
            sums = " + ".join(map(str, values))
            points = f"{sums} = {sum(values)}" if len(values) > 1 else sums
            text = f"the passenger in {start}: {places}, collecting {points} points"
        else:
            text = f"the passenger in {start}: {places}, collecting nothing (no tokens left)"
        if walked.paid:
            used = ", ".join(self._owned_label(state, rid) for rid in walked.paid)
            n = len(walked.paid)
            text += f", paying {n} Passenger card{'s' if n != 1 else ''} for {used}"
        return text

    def describe_extra(self, game: Game, action: Any) -> tuple[str, str]:
        if isinstance(action, MovePassenger):
            return ("move", self.journey_text(game.state, game.state.current, action))
        return super().describe_extra(game, action)
