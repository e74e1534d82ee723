"""Ticket to Ride: Europe (2005): tunnels, ferries, train stations, long tickets.

What differs from the USA rules (facts: ``europe-facts.md``, checked against the
publisher's rulebook), each a hook on :class:`~ttr_nb.rules.base.Rules`:

* **Tickets.** Each player is dealt 1 long ticket and 3 regular ones, and keeps at
  least 2 of the 4. The long tickets nobody was dealt, and every ticket not kept at
  setup, go back to the box (``ticket_decks["box"]``, a pile nobody draws from); a
  regular ticket not kept later goes under the regular deck, as in the USA game.
* **Ferries** (routes with ``locomotives``) are gray; a locomotive card must pay for
  each locomotive symbol, the other spaces as on any gray route.
* **Tunnels.** A claim of a tunnel (:class:`~ttr_nb.actions.ClaimRoute`, as any claim)
  lays its cards down and turns up the top 3 cards of the deck (from the game's seeded
  deck: fewer when the deck and the discards hold fewer; they go to the discards at
  once). Each one of the colour played, or a locomotive, asks for one more card of
  that colour or a locomotive; a tunnel paid with locomotives alone asks only for the
  locomotives turned up, in locomotives. When something is asked, the player chooses:
  :class:`PayTunnel` (one of the ways listed) builds it, :class:`GiveUpTunnel` takes
  the cards back; either ends the turn. The last tunnel's cards stay on show
  (``state.extras["last_tunnel"]``).
* **Train stations** (:class:`BuildStation`, a fourth kind of turn): 3 per player, one
  per city whoever owns it; the first costs 1 card, the second 2 of one colour, the
  third 3 of one colour (locomotives stand in).
* **The end.** When the last turns are over, each player whose stations have an
  opponent's route into their city chooses the route each one borrows
  (:class:`BorrowRoutes`, in seat order; see :mod:`.europe_stations`). Tickets count
  those routes; the longest path (the European Express, 10) does not. Each station not
  built scores 4. Ties: most completed tickets, then fewest stations built, then the
  European Express.

Readings where the rules leave a choice (stated so that they can be seen):

* **Cards turned up for a tunnel** go to the discard pile as soon as they are seen (the
  rulebook discards them at the end of the turn; nothing is drawn in between, so only
  the order inside the discard pile differs).
* **Nothing to pay**: a tunnel whose turned-up cards ask for nothing is built at once.
* **Nothing to choose**: a station without an opponent's route into its city borrows
  nothing and is not asked about.
* **"Fewest stations used"** (a tie-breaker) counts stations built, the reading that
  matches the rulebook's "unused station kept in reserve".
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import product
from typing import TYPE_CHECKING, Any

from ..actions import ClaimRoute, Payment, Pickups, mark_well_formed, shape_problem, short
from ..algorithms import ticket_completed
from ..maps import Map, Route
from ..state import GameState, PlayerState
from .base import Rules
from .europe_actions import BorrowRoutes, BuildStation, GiveUpTunnel, PayTunnel
from .europe_stations import borrow_options

if TYPE_CHECKING:
    import random

    from .game_view import GameView as Game  # the game imports the rules, not the reverse

__all__ = ["BorrowRoutes", "BuildStation", "EuropeRules", "GiveUpTunnel", "PayTunnel"]

TUNNEL = "tunnel"  # pending: the tunnel's extra cards to pay or give up
BORROW = "borrow_routes"  # pending: a station owner chooses the borrowed routes
LONG, REGULAR, BOX = "long", "regular", "box"
STATIONS = "stations"  # state.extras[STATIONS]: city -> seat of its station
LEFT = "stations_left"  # player.extras[LEFT]: stations not built yet
BORROWED = "borrowed"  # state.extras[BORROWED]: per seat, [[city, route], ...] (at the end)
STATION_PAYMENTS = ("station payments",)  # key of a hand's station payments in its memo


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class EuropeRules(Rules):
    """The rules of Ticket to Ride: Europe; see the module docstring."""

    name = "europe"
    setup_long_deal = 1
    setup_ticket_deal = 3  # regular tickets dealt at setup (with the long one)
    setup_ticket_keep = 2
    station_costs = (1, 2, 3)  # cards for the first, second and third station
    unbuilt_station_points = 4
    tunnel_cards = 3  # cards turned up for a tunnel
    payments_by_capped_counts = True  # ferries keep some of the base payments

    @classmethod
    def map_problems(cls, game_map: Map) -> list[tuple[str, str]]:
        out = super().map_problems(game_map)
        components = game_map.components
        if len([c for c in game_map.card_types if c.wild]) != 1:
            out.append(("$.components.cards", "the Europe rules need one locomotive card type"))
        stations = components.get("stations_per_player")
        if not stations or stations > len(cls.station_costs):
            out.append(
                (
                    "$.components.stations_per_player",
                    f"the Europe rules need 1 to {len(cls.station_costs)} stations per player",
                )
            )
        longs = sum(1 for t in game_map.tickets if t.deck == LONG)
        if longs < cls.max_players * cls.setup_long_deal:
            out.append(
                (
                    "$.tickets",
                    f"the Europe rules deal a long ticket to each of up to {cls.max_players} "
                    f"players; this map has {longs}",
                )
            )
        if "longest_path" not in {b["id"] for b in components.get("bonuses", [])}:
            out.append(("$.components.bonuses", "the Europe rules need the longest_path bonus"))
        for i, route in enumerate(game_map.routes):
            if route.locomotives > route.length:
                out.append(
                    (
                        f"$.routes[{i}].locomotives",
                        f"a ferry of {route.length} spaces cannot have {route.locomotives} "
                        "locomotive symbols",
                    )
                )
            if route.locomotives and route.tunnel:
                out.append((f"$.routes[{i}]", "a route is a tunnel or a ferry, not both"))
        return out

    def __init__(self, game_map: Map) -> None:
        super().__init__(game_map)
        self.stations_each = int(game_map.components["stations_per_player"])
        self.locomotive = self.wild_ids[0]
        self.route_ends = {r.id: r.ends for r in game_map.routes}
        self.city_ids = tuple(c.id for c in game_map.cities)
        self._station_builds: dict[tuple[str, Payment], BuildStation] = {}

    # ------------------------------------------------------------------ setup
    def new_state(self, names: list[str], seed: int, rng: random.Random) -> GameState:
        state = super().new_state(names, seed, rng)
        state.extras[STATIONS] = {}
        for player in state.players:
            player.extras[LEFT] = self.stations_each
        return state

    def deal_setup_tickets(self, state: GameState) -> None:
        """1 long and 3 regular tickets each; the long tickets left go back to the box."""
        for player in state.players:
            player.offer = self.take_tickets(state, self.setup_long_deal, LONG)
            player.offer += self.take_tickets(state, self.setup_ticket_deal)
        state.ticket_decks[BOX] = state.ticket_decks.get(LONG, [])
        state.ticket_decks[LONG] = []
        state.pending = "keep_tickets"

    def return_pile(self, phase: str, ticket_id: int) -> str:
        """Tickets not kept at setup go back to the box; later, under their deck."""
        return BOX if phase == "setup" else super().return_pile(phase, ticket_id)

    def ticket_draw_problem(self, state: GameState, action: Any) -> str | None:
        if action.long:
            return "long tickets are dealt only at setup: tickets drawn later are regular ones"
        return super().ticket_draw_problem(state, action)

    def tickets_left(self, state: GameState) -> int:
        """Tickets that can still be drawn (the regular deck; the box is out of play)."""
        return len(state.ticket_decks.get(REGULAR, []))

    # ------------------------------------------------------------ ferries
    def payments(self, hand: dict[str, int], route: Route) -> list[Payment]:
        pays = super().payments(hand, route)
        need = route.locomotives
        if not need:
            return pays
        loco = self.locomotive
        return [p for p in pays if sum(n for c, n in p if c == loco) >= need]

    def payment_class(self, route: Route) -> Hashable:
        return (self.fitting[route.id], route.length, route.locomotives)

    def payment_problem(self, player: PlayerState, route: Route, cards: Payment) -> str | None:
        problem = super().payment_problem(player, route, cards)
        if problem is not None or not route.locomotives:
            return problem
        paid = sum(n for c, n in cards if c == self.locomotive)
        if paid < route.locomotives:
            need = _plural(route.locomotives, "locomotive symbol")
            return (
                f"this ferry has {need}: a locomotive card must pay for each "
                f"(the payment has {paid})"
            )
        return None

    # ------------------------------------------------------------- tunnels
    def claim(self, game: Game, action: ClaimRoute) -> None:
        route = self.map.route_by_id[action.route]
        if not route.tunnel:
            super().claim(game, action)
            return
        state, rng = game.state, game.rng
        turned = [self.draw_card(state, rng) for _ in range(self.tunnel_cards)]
        revealed = [c for c in turned if c is not None]
        state.discard.extend(revealed)
        colour = next((c for c, _ in action.cards if c not in self.wild_set), None)
        extra = sum(1 for c in revealed if c in self.wild_set or c == colour)
        record = {
            "seat": state.current,
            "route": route.id,
            "cards": [[c, n] for c, n in action.cards],
            "colour": colour,
            "revealed": revealed,
            "extra": extra,
        }
        if not extra:
            self.build_route(game, route.id, action.cards, action.pickups)
            state.extras["last_tunnel"] = {**record, "outcome": "built", "paid": record["cards"]}
            self.end_turn(game)
            return
        state.extras[TUNNEL] = record
        state.pending = TUNNEL

    def tunnel_payments(self, state: GameState) -> list[Payment]:
        """The ways the current player can pay the waiting tunnel's extra cards, fewest
        locomotives first (none when they cannot pay)."""
        record = state.extras[TUNNEL]
        hand = state.players[state.current].hand
        laid = dict(record["cards"])
        loco = self.locomotive
        spare_locos = hand[loco] - laid.get(loco, 0)
        need = record["extra"]
        colour = record["colour"]
        if colour is None:
            return [((loco, need),)] if spare_locos >= need else []
        spare = hand[colour] - laid.get(colour, 0)
        out = []
        for locos in range(max(0, need - spare), min(need, spare_locos) + 1):
            pay = {colour: need - locos, loco: locos}
            out.append(tuple(sorted((c, n) for c, n in pay.items() if n)))
        return out

    def tunnel_problem(self, state: GameState, action: Any) -> str | None:
        """Why ``action`` cannot answer the tunnel waiting now (None: it can)."""
        if isinstance(action, GiveUpTunnel):
            return None
        record = state.extras[TUNNEL]
        need, colour = record["extra"], record["colour"]
        player = state.players[state.current]
        laid = dict(record["cards"])
        total = 0
        for cid, n in action.cards:
            if cid not in self.cards:
                return f"there is no {short(cid)} card in this game"
            if cid != self.locomotive and cid != colour:
                fits = "locomotives" if colour is None else f"{colour} cards or locomotives"
                return f"the tunnel's extra cards must be {fits}, not {cid} cards"
            spare = player.hand[cid] - laid.get(cid, 0)
            if spare < n:
                return (
                    f"they hold {self.count_text(cid, spare)} besides the cards laid down "
                    f"for the tunnel, not {n}"
                )
            total += n
        if total != need:
            return (
                f"the turned-up cards ask for {_plural(need, 'more card')}, not {total} "
                "(or give the tunnel up)"
            )
        return None

    def finish_tunnel(self, game: Game, action: Any) -> None:
        """Pay the tunnel's extra cards and build it, or give it up (its cards go back)."""
        state = game.state
        record = state.extras.pop(TUNNEL)
        state.pending = None
        if isinstance(action, PayTunnel):
            spent: dict[str, int] = dict(record["cards"])
            for cid, n in action.cards:
                spent[cid] = spent.get(cid, 0) + n
            pay = tuple(sorted(spent.items()))
            self.build_route(game, record["route"], pay)
            state.extras["last_tunnel"] = {**record, "outcome": "built", "paid": pay_list(pay)}
        else:
            state.extras["last_tunnel"] = {**record, "outcome": "given up"}
            if None in state.face_up:
                self.refill_face_up(state, game.rng)
        self.end_turn(game)

    # -------------------------------------------------------------- stations
    def station_cost(self, player: PlayerState) -> int:
        """Cards the player's next station costs (0 when all are built)."""
        left = player.extras[LEFT]
        return self.station_costs[self.stations_each - left] if left else 0

    def station_payments(self, hand: dict[str, int], cost: int) -> list[Payment]:
        """Every way ``hand`` pays ``cost`` cards of one colour (locomotives stand in),
        colours in card order, fewest locomotives first, then locomotives alone."""
        loco = self.locomotive
        locos = hand[loco]
        out: list[Payment] = []
        for card in self.colour_cards:
            have = hand[card.id]
            for n in range(min(have, cost), max(cost - locos, 1) - 1, -1):
                pay = {card.id: n, loco: cost - n}
                out.append(tuple(sorted((c, k) for c, k in pay.items() if k)))
        if locos >= cost:
            out.append(((loco, cost),))
        return out

    def station_builds(self, game: Game) -> list[BuildStation]:
        """Every station the current player may build now: cities in map order, then
        payments (remembered per hand on the fast path)."""
        state = game.state
        player = state.players[state.current]
        cost = self.station_cost(player)
        if not cost:
            return []
        hand = player.hand
        if self.reference:
            pays = tuple(self.station_payments(hand, cost))
        else:
            memo = self.fast.hand_memo(hand)
            pays = memo.remember(
                (STATION_PAYMENTS, cost), lambda: tuple(self.station_payments(hand, cost))
            )
        if not pays:
            return []
        taken = state.extras[STATIONS]
        made = self._station_builds
        out = []
        for city in self.city_ids:
            if city in taken:
                continue
            for pay in pays:
                action = made.get((city, pay))
                if action is None:
                    action = made[city, pay] = mark_well_formed(BuildStation.trusted(city, pay))
                out.append(action)
        return out

    def station_problem(self, state: GameState, action: BuildStation) -> str | None:
        """Why the current player cannot build this station now (None: they can)."""
        city = self.map.city_by_id.get(action.city)
        if city is None:
            return f"there is no city {short(action.city)} on this map"
        owner = state.extras[STATIONS].get(city.id)
        if owner is not None:
            who = "their own" if owner == state.current else f"{state.players[owner].name}'s"
            return f"{city.name} already has {who} station (one station per city)"
        player = state.players[state.current]
        cost = self.station_cost(player)
        if not cost:
            return f"they have built all {self.stations_each} of their stations"
        colours = set()
        total = 0
        for cid, n in action.cards:
            if cid not in self.cards:
                return f"there is no {short(cid)} card in this game"
            if player.hand[cid] < n:
                return f"they hold {self.count_text(cid, player.hand[cid])}, not {n}"
            if cid != self.locomotive:
                colours.add(cid)
            total += n
        if len(colours) > 1:
            return "a station's cards must all be one colour (plus locomotives)"
        if total != cost:
            which = ("first", "second", "third")[self.stations_each - player.extras[LEFT]]
            return f"their {which} station costs {_plural(cost, 'card')}, not {total}"
        return None

    def stations_of(self, state: GameState, seat: int) -> list[str]:
        """The cities where ``seat`` built a station."""
        return sorted(c for c, s in state.extras[STATIONS].items() if s == seat)

    # ---------------------------------------------------------------- the end
    def end_game(self, game: Game, reason: str) -> None:
        """Before the scoring, each station owner with a route to borrow chooses."""
        state = game.state
        state.extras[BORROWED] = [[] for _ in state.players]
        waiting = [s for s in range(len(state.players)) if self.borrow_choices(state, s)]
        if not waiting:
            super().end_game(game, reason)
            return
        state.extras["borrowers"] = waiting
        state.extras["ending"] = reason
        state.pending = BORROW
        state.current = waiting[0]

    def borrow_choices(self, state: GameState, seat: int) -> dict[str, tuple[int, ...]]:
        """Station city -> the routes it may borrow (other players' routes into it)."""
        return borrow_options(state.extras[STATIONS], state.owner, self.route_ends, seat)

    def borrow_actions(self, state: GameState) -> list[BorrowRoutes]:
        """Every choice of borrowed routes the current player may make at the end."""
        options = self.borrow_choices(state, state.current)
        cities = sorted(options)
        return [
            BorrowRoutes(tuple(zip(cities, combo, strict=True)))
            for combo in product(*(options[c] for c in cities))
        ]

    def borrow_problem(self, state: GameState, action: BorrowRoutes) -> str | None:
        """Why these borrowed routes are not a choice the player may make (None: they are)."""
        seat = state.current
        options = self.borrow_choices(state, seat)
        chosen: set[str] = set()
        for city, rid in action.routes:
            name = self.map.place_name(city) if city in self.map.city_by_id else short(city)
            if state.extras[STATIONS].get(city) != seat:
                return f"they have no station in {name}"
            if city in chosen:
                return f"a station borrows only one route ({name} is named twice)"
            chosen.add(city)
            route = self.map.route_by_id.get(rid)
            if route is None:
                return f"there is no route {short(rid)} on this map"
            label = self.map.route_label(route)
            if city not in route.ends:
                return f"{label} does not reach {name}"
            holder = state.owner.get(rid)
            if holder is None:
                return f"nobody claimed {label}: a station borrows another player's route"
            if holder == seat:
                return f"{label} is their own route: a station borrows another player's"
        missing = [self.map.place_name(c) for c in options if c not in chosen]
        if missing:
            return (
                "each station with another player's route into its city borrows one: "
                f"choose one for {', '.join(missing)}"
            )
        return None

    def finish_borrowing(self, game: Game, action: BorrowRoutes) -> None:
        """Record the player's borrowed routes; the next station owner chooses, or the game
        is scored."""
        state = game.state
        state.extras[BORROWED][state.current] = [[c, r] for c, r in action.routes]
        waiting = state.extras["borrowers"]
        waiting.pop(0)
        if waiting:
            state.current = waiting[0]
            return
        reason = state.extras.pop("ending")
        del state.extras["borrowers"]
        state.pending = None
        super().end_game(game, reason)

    def borrowed_routes(self, state: GameState, seat: int) -> list[int]:
        """The routes ``seat``'s stations borrowed (empty until the end)."""
        chosen = state.extras.get(BORROWED)
        return [rid for _, rid in chosen[seat]] if chosen else []

    # -------------------------------------------------------------- actions
    def legal_actions(self, game: Game) -> list[Any]:
        state = game.state
        if state.phase != "over":
            if state.pending == TUNNEL:
                pays: list[Any] = [
                    mark_well_formed(PayTunnel.trusted(p)) for p in self.tunnel_payments(state)
                ]
                return [*pays, mark_well_formed(GiveUpTunnel())]
            if state.pending == BORROW:
                return list(self.borrow_actions(state))
        return super().legal_actions(game)

    def extra_actions(self, game: Game) -> list[Any]:
        return list(self.station_builds(game))

    def problem(self, game: Game, action: Any) -> str | None:
        shape = shape_problem(action)
        if shape is not None:
            return shape[1]
        state = game.state
        if state.phase != "over" and state.pending == TUNNEL:
            if not isinstance(action, PayTunnel | GiveUpTunnel):
                return (
                    "they must first pay the extra cards the tunnel's turned-up cards ask "
                    "for, or give the tunnel up"
                )
            return self.tunnel_problem(state, action)
        if state.phase != "over" and state.pending == BORROW:
            if not isinstance(action, BorrowRoutes):
                return "the game is over but for choosing the routes the stations borrow"
            return self.borrow_problem(state, action)
        return super().problem(game, action)

    def extra_problem(self, game: Game, action: Any) -> str | None:
        state = game.state
        if isinstance(action, BuildStation):
            return self.station_problem(state, action)
        if isinstance(action, PayTunnel | GiveUpTunnel):
            return "no tunnel is waiting for its extra cards"
        if isinstance(action, BorrowRoutes):
            return "stations borrow routes only once the last turns are over"
        return super().extra_problem(game, action)

    def execute_extra(self, game: Game, action: Any) -> None:
        state = game.state
        if isinstance(action, PayTunnel | GiveUpTunnel):
            self.finish_tunnel(game, action)
        elif isinstance(action, BuildStation):
            player = state.players[state.current]
            for cid, n in action.cards:
                player.hand[cid] -= n
            self.discard_cards(state, action.cards)
            state.extras[STATIONS][action.city] = state.current
            player.extras[LEFT] -= 1
            if None in state.face_up:
                self.refill_face_up(state, game.rng)
            self.end_turn(game)
        elif isinstance(action, BorrowRoutes):
            self.finish_borrowing(game, action)
        else:
            super().execute_extra(game, action)

    # ---------------------------------------------------------------- scoring
    def ticket_done(self, state: GameState, player: PlayerState, ticket_id: int) -> bool:
        seat = next((i for i, p in enumerate(state.players) if p is player), None)
        ids = list(player.routes)
        if seat is not None:
            ids += self.borrowed_routes(state, seat)
        ends = [self.route_ends[r] for r in ids]
        a, b = self.map.ticket_by_id[ticket_id].cities
        return ticket_completed(ends, {a}, {b})

    def score_components(self, state: GameState, final: bool) -> list[dict[str, int]]:
        rows = super().score_components(state, final)
        if final:
            for row, player in zip(rows, state.players, strict=True):
                row["stations"] = self.unbuilt_station_points * player.extras[LEFT]
        return rows

    def tiebreaks(
        self, state: GameState, rows: list[dict[str, int]]
    ) -> list[tuple[str, list[int]]]:
        built = [self.stations_each - p.extras[LEFT] for p in state.players]
        return [
            ("most completed tickets", self.completed_counts(state)),
            ("fewest stations built", [-n for n in built]),
            ("European Express bonus", [r.get("longest_path", 0) for r in rows]),
        ]

    def conserved_counts(self, state: GameState) -> dict[str, int]:
        out = super().conserved_counts(state)
        for seat, player in enumerate(state.players):
            built = len(self.stations_of(state, seat))
            out[f"seat {seat + 1} stations"] = built + player.extras[LEFT]
        return out

    # ------------------------------------------------------------------ text
    def pickup_text(self, state: GameState, route: Route | None, pickups: Pickups) -> str:
        text = super().pickup_text(state, route, pickups)
        if route is not None and route.tunnel:
            text += f", turning up {self.tunnel_cards} cards for the tunnel"
        return text

    def log_key(self, game: Game, action: Any) -> Hashable | None:
        if type(action) is BuildStation:
            return (game.state.players[game.state.current].name, action)
        if type(action) in (PayTunnel, GiveUpTunnel, BorrowRoutes):
            return None  # the words name the tunnel or the routes borrowed
        return super().log_key(game, action)

    def describe_extra(self, game: Game, action: Any) -> tuple[str, str]:
        state = game.state
        record = state.extras.get(TUNNEL)
        tunnel = ""
        if record is not None:
            label = self.map.route_label(self.map.route_by_id[record["route"]])
            tunnel = f" {label} after turning up {words_list(record['revealed'])}"
        if isinstance(action, PayTunnel):
            return ("pay", f"{self.payment_text(action.cards)} more for the tunnel{tunnel}")
        if isinstance(action, GiveUpTunnel):
            return ("give", f"up the tunnel{tunnel}, taking the cards back")
        if isinstance(action, BuildStation):
            city = self.map.city_by_id.get(action.city)
            name = city.name if city else short(action.city)
            return ("build", f"a train station in {name} with {self.payment_text(action.cards)}")
        if isinstance(action, BorrowRoutes):
            parts = []
            for city, rid in action.routes:
                route = self.map.route_by_id.get(rid) if isinstance(rid, int) else None
                where = self.map.place_name(city) if city in self.map.city_by_id else short(city)
                what = self.map.route_label(route) if route else f"route {short(rid)}"
                parts.append(f"{where}: {what}")
            return ("choose", "the routes their stations borrow: " + ("; ".join(parts) or "none"))
        return super().describe_extra(game, action)


def words_list(words: list[str]) -> str:
    """``red, blue and locomotive`` (``nothing`` for none).

    >>> words_list(["red", "blue", "locomotive"]), words_list([])
    ('red, blue and locomotive', 'nothing')
    """
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def pay_list(pay: Payment) -> list[list[Any]]:
    """A payment as JSON-ready lists (the state holds no tuples: saves compare it)."""
    return [[c, n] for c, n in pay]
