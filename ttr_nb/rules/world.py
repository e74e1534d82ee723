"""Rails & Sails: World — trains and ships, harbors, tours, a supply of 60 pieces.

What changes from the base game (rulebook ``rails-and-sails-world.txt``), each a hook
on :class:`~ttr_nb.rules.base.Rules`:

* **Two decks.** Train cards (with the Wilds) and Ship cards are shuffled apart, each
  with its own discard pile, reshuffled into its own deck. Each player starts with 3
  Train and 7 Ship cards; the face-up row has 6 cards, 3 from each deck. A player who
  takes a face-up card chooses the deck that replaces it (``DrawFaceUp.refill``). Three
  face-up Wilds send all six to their discard piles, and 3 are dealt from each deck.
* **Setup.** 5 tickets, keep at least 3; then each player secretly chooses a supply
  of exactly 60 pieces, at most 25 trains and 50 ships (:class:`ChooseSupply`). The
  choices are recorded as they are made but hidden from :meth:`Game.observation` of
  the others, and revealed together when the last player has chosen.
* **Claims.** Train routes take Train cards and trains, ship routes Ship cards and
  ships (see :mod:`.world_cards` for Double-Ship cards and pair routes).
* **Harbors** (:class:`BuildHarbor`) and **exchanges** (:class:`ExchangePieces`).
* **Tours**: tickets with ``tour_values`` score their high value when a trail of the
  player's routes visits the cities in order, their low value when the cities are only
  joined, minus the penalty otherwise.
* **End.** A player with 6 or fewer pieces after their turn starts the end: everyone,
  that player included, takes two more turns. No longest-path or most-tickets bonus.

Readings where the rulebook is silent (house rules, stated so that they can be seen):

* **Refill from an empty deck.** When the chosen deck and its discards are empty, the
  other deck must be chosen; with both empty the slot stays empty and fills again later
  (from the train deck first) once discarded cards come back.
* **Ties.** The World rules name no tie-breaker: equal totals share the victory.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from ..actions import Payment, mark_well_formed, shape_problem, short
from ..algorithms import tour_connected, tour_in_order
from ..maps import Map, Route
from ..state import GameState, PlayerState
from .base import Rules
from .seat_view import HIDDEN_CARD
from .world_actions import BuildHarbor, ChooseSupply, ExchangePieces
from .world_cards import HARBOR_SHIP_CARDS, HARBOR_TRAIN_CARDS, WorldCards

if TYPE_CHECKING:
    import random

    from .game_view import GameView as Game  # the game imports the rules, not the reverse

__all__ = ["BuildHarbor", "ChooseSupply", "ExchangePieces", "WorldRules"]

TRAIN, SHIP = "train", "ship"
KINDS = (TRAIN, SHIP)
CHOOSE_SUPPLY = "choose_supply"  # the pending step after the starting tickets
HARBOR_PAYMENTS = ("harbor payments",)  # key of a hand's harbor payments in its memo
PAYMENTS_REMEMBERED = 50_000  # route payments remembered before the memo starts afresh
REACH = ("reach",)  # the longest route a hand might pay for (WorldCards.reach), in its memo


def _other(kind: str) -> str:
    return SHIP if kind == TRAIN else TRAIN


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class WorldRules(Rules):
    """The Rails & Sails World rules (see the module docstring)."""

    name = "world"
    deck_names = KINDS
    starting_hands = {TRAIN: 3, SHIP: 7}
    starting_hand = 10  # both decks together (the base map check uses it)
    face_up_slots = 6
    face_up_per_deck = 3
    setup_ticket_deal = 5
    setup_ticket_keep = 3
    ticket_deal = 4
    ticket_keep = 1
    end_trigger_pieces = 6
    final_turns_each = 2
    harbor_points = (0, 20, 30, 40)  # by completed tickets naming the city: 0, 1, 2, 3+
    unbuilt_harbor_penalty = 4
    exchange_cost = 1  # points per piece exchanged

    @classmethod
    def map_problems(cls, game_map: Map) -> list[tuple[str, str]]:
        out = super().map_problems(game_map)
        cards = game_map.card_types
        wilds = [c for c in cards if c.wild]
        if len(wilds) != 1 or wilds[0].deck != TRAIN:
            out.append(
                ("$.components.cards", "the World rules need one Wild card type, a Train card")
            )
        for deck, hand in cls.starting_hands.items():
            total = sum(c.count for c in cards if c.deck == deck)
            need = cls.max_players * hand + cls.face_up_per_deck
            if total < need:
                out.append(
                    (
                        "$.components.cards",
                        f"the {deck} deck holds {total} cards; dealing {hand} to each of "
                        f"{cls.max_players} players and {cls.face_up_per_deck} face up "
                        f"needs {need}",
                    )
                )
        pieces = game_map.components.get("pieces", {})
        trains, ships, supply = (pieces.get(k, 0) for k in (TRAIN, SHIP, "supply"))
        if not 0 < supply <= trains + ships:
            out.append(
                (
                    "$.components.pieces",
                    f"a supply of {supply} pieces cannot be chosen from {trains} trains and "
                    f"{ships} ships",
                )
            )
        if "harbors_per_player" not in game_map.components:
            out.append(("$.components", "the World rules need harbors_per_player"))
        if not any(c.port for c in game_map.cities):
            out.append(("$.cities", "the World rules need port cities for the harbors"))
        for i, route in enumerate(game_map.routes):
            if route.pair and route.kind != TRAIN:
                out.append((f"$.routes[{i}].pair", "only train routes can be pair routes"))
        return out

    def __init__(self, game_map: Map) -> None:
        super().__init__(game_map)
        self.world = WorldCards(game_map.card_types)
        pieces = game_map.components["pieces"]
        self.full_pieces = {k: int(pieces[k]) for k in KINDS}
        self.supply = int(pieces["supply"])
        self.harbors_each = int(game_map.components["harbors_per_player"])
        self.ports = frozenset(c.id for c in game_map.cities if c.port)
        self.tours = {t.id: t.tour_values for t in game_map.tickets if t.tour_values}
        self._exchanges = {
            (take, n): mark_well_formed(ExchangePieces(take, n))
            for take in KINDS
            for n in range(1, self.full_pieces[take] + 1)
        }
        self._capacity_of: tuple[int, ...] = ()
        self._capacity: dict[tuple[str, str], int] = {}
        # route id -> (payment class, the cards that can pay for it); and the payments
        # listed, by payment class and those cards' counts (the fast path's).
        self._paying_cards: dict[int, tuple[Hashable, tuple[str, ...]]] = {}
        self._payments_by_cards: dict[tuple, tuple[Payment, ...]] = {}

    # ------------------------------------------------------------------ setup
    def new_state(self, names: list[str], seed: int, rng: random.Random) -> GameState:
        """The state of a new World game: two decks (trains, ships), two face-up rows, supplies to
        choose."""
        decks = {}
        for deck in KINDS:
            pile = [c.id for c in self.map.card_types if c.deck == deck for _ in range(c.count)]
            rng.shuffle(pile)
            decks[deck] = pile
        tickets: dict[str, list[int]] = {}
        for ticket in self.map.tickets:
            tickets.setdefault(ticket.deck, []).append(ticket.id)
        for ids in tickets.values():
            rng.shuffle(ids)
        players = [
            PlayerState(
                name=name,
                hand={c.id: 0 for c in self.map.card_types},
                pieces=dict(self.full_pieces),
                extras={
                    "box": dict.fromkeys(KINDS, 0),
                    "harbors_left": self.harbors_each,
                    "exchanged": 0,
                },
            )
            for name in names
        ]
        state = GameState(
            map=self.map.id,
            seed=seed,
            players=players,
            deck=decks[TRAIN],
            discard=[],
            face_up=[None] * self.face_up_slots,
            ticket_decks=tickets,
            extras={"ship_deck": decks[SHIP], "ship_discard": [], "harbors": {}},
        )
        for player in players:
            for deck, count in self.starting_hands.items():
                for _ in range(count):
                    player.hand[self.draw_card(state, rng, deck)] += 1
        self.deal_face_up(state, rng)
        self.refill_face_up(state, rng)
        self.deal_setup_tickets(state)
        return state

    def start_play(self, state: GameState) -> None:
        """After the starting tickets: every player chooses a supply, in seat order."""
        state.pending = CHOOSE_SUPPLY
        state.current = 0
        state.extras["supply_choices"] = [None] * len(state.players)

    def supply_options(self) -> list[ChooseSupply]:
        """Every legal supply: trains and ships adding up to the supply's size."""
        least = max(0, self.supply - self.full_pieces[SHIP])
        most = min(self.full_pieces[TRAIN], self.supply)
        return [ChooseSupply(t, self.supply - t) for t in range(least, most + 1)]

    def supply_problem(self, action: ChooseSupply) -> str | None:
        """Why the supply ``action`` names is refused, or None."""
        trains, ships = action.trains, action.ships
        if trains < 0 or ships < 0:
            return "a supply cannot hold a negative number of pieces"
        if trains + ships != self.supply:
            return f"the supply must hold exactly {self.supply} pieces, not {trains + ships}"
        for kind, n in ((TRAIN, trains), (SHIP, ships)):
            if n > self.full_pieces[kind]:
                return f"each player has only {self.full_pieces[kind]} {kind}s, not {n}"
        return None

    def choose_supply(self, state: GameState, action: ChooseSupply) -> None:
        """Record the current player's supply; the next player chooses, or play begins."""
        choices = state.extras["supply_choices"]
        choices[state.current] = {TRAIN: action.trains, SHIP: action.ships}
        waiting = [i for i, choice in enumerate(choices) if choice is None]
        if waiting:
            state.current = waiting[0]
            return
        # Everyone has chosen: reveal together, the rest goes back to the box.
        for player, choice in zip(state.players, choices, strict=True):
            player.pieces = dict(choice)
            player.extras["box"] = {k: self.full_pieces[k] - choice[k] for k in KINDS}
        del state.extras["supply_choices"]
        Rules.start_play(self, state)

    # ------------------------------------------------------------- card flow
    def piles(self, state: GameState, deck: str = TRAIN) -> tuple[list[str], list[str]]:
        if deck == SHIP:
            return state.extras["ship_deck"], state.extras["ship_discard"]
        return state.deck, state.discard

    def deal_face_up(self, state: GameState, rng: random.Random) -> None:
        """Fill the row from scratch: the first 3 slots from the train deck, 3 from the ship deck
        (a deck that runs out is made up from the other)."""
        decks = [TRAIN] * self.face_up_per_deck + [SHIP] * self.face_up_per_deck
        for i, deck in enumerate(decks):
            state.face_up[i] = self.draw_card(state, rng, deck) or self.draw_card(
                state, rng, _other(deck)
            )

    def refill_face_up(self, state: GameState, rng: random.Random, deck: str = TRAIN) -> None:
        """Fill empty slots from ``deck`` (else the other), then the three-Wild reset (bounded)."""
        for i, card in enumerate(state.face_up):
            if card is None:
                state.face_up[i] = self.draw_card(state, rng, deck) or self.draw_card(
                    state, rng, _other(deck)
                )
        for _ in range(self.max_face_up_resets):
            if not self.face_up_reset_due(state):
                return
            shown = [c for c in state.face_up if c is not None]
            self.discard_cards(state, tuple((c, 1) for c in shown))
            state.face_up = [None] * self.face_up_slots
            self.deal_face_up(state, rng)

    # ------------------------------------------------------------ claiming
    def claim_reach(self, hand: dict[str, int]) -> int:
        if self.reference:
            return self.world.reach(hand)
        return self.fast.hand_memo(hand).remember(REACH, lambda: self.world.reach(hand))

    def payments(self, hand: dict[str, int], route: Route) -> list[Payment]:
        if self.reference:
            # legal_actions asks once per open route with the same hand: count it once.
            key = tuple(hand.values())
            if key != self._capacity_of:
                self._capacity_of, self._capacity = key, self.world.capacity(hand)
            if not self.world.could_pay(self._capacity, route):
                return []
            return self.world.route_payments(hand, route)
        # A search meets the same cards again and again in its play-outs, and a pair
        # route's payments are costly to list: remember them (none too) by the counts of
        # the only cards that can pay for such a route, so that drawing another colour
        # does not list them again.
        paying = self._paying_cards.get(route.id)
        if paying is None:
            paying = self._paying_cards[route.id] = (
                self.payment_class(route),
                self.world.paying_cards(route),
            )
        key = (paying[0], *map(hand.__getitem__, paying[1]))
        found = self._payments_by_cards.get(key)
        if found is None:
            if len(self._payments_by_cards) >= PAYMENTS_REMEMBERED:
                self._payments_by_cards.clear()
            found = self._payments_by_cards[key] = tuple(self.world.route_payments(hand, route))
        return list(found)

    def payment_class(self, route: Route) -> Hashable:
        return (route.kind, route.color, route.length, route.pair)

    def held_problem(self, player: PlayerState, cards: Payment) -> str | None:
        """Why ``player`` cannot spend ``cards`` at all (unknown or not held), or None."""
        for cid, n in cards:
            if cid not in self.cards:
                return f"there is no {short(cid)} card in this game"
            if player.hand[cid] < n:
                return f"they hold {self.count_text(cid, player.hand[cid])}, not {n}"
        return None

    def payment_problem(self, player: PlayerState, route: Route, cards: Payment) -> str | None:
        return self.held_problem(player, cards) or self.world.route_problem(route, cards)

    # -------------------------------------------------------------- actions
    def legal_actions(self, game: Game) -> list[Any]:
        state = game.state
        if state.phase != "over" and state.pending == CHOOSE_SUPPLY:
            return list(self.supply_options())
        return super().legal_actions(game)

    def problem(self, game: Game, action: Any) -> str | None:
        state = game.state
        shape = shape_problem(action)
        if shape is not None:
            return shape[1]
        if state.phase != "over" and state.pending == CHOOSE_SUPPLY:
            if not isinstance(action, ChooseSupply):
                return (
                    f"they must first choose their supply of {self.supply} pieces (at most "
                    f"{self.full_pieces[TRAIN]} trains and {self.full_pieces[SHIP]} ships)"
                )
            return super().problem(game, action)  # field checks, then extra_problem
        return super().problem(game, action)

    def extra_actions(self, game: Game) -> list[Any]:
        state = game.state
        player = state.players[state.current]
        out: list[Any] = []
        if player.extras["harbors_left"]:
            cities = self.harbor_cities(state, state.current)
            if cities:
                out.extend(self.harbor_builds(player.hand, cities))
        box = player.extras["box"]
        exchanges = self._exchanges
        for take in KINDS:
            most = min(box[take], player.pieces[_other(take)])
            out.extend(
                exchanges.get((take, n)) or ExchangePieces(take, n) for n in range(1, most + 1)
            )
        return out

    def harbor_builds(self, hand: dict[str, int], cities: list[str]) -> list[BuildHarbor]:
        """Every harbor build in ``cities`` that ``hand`` can pay for: cities in order, then
        payments (remembered per hand on the fast path)."""
        if self.reference:
            pays = self.world.harbor_payments(hand)
            return [BuildHarbor.trusted(city, pay) for city in cities for pay in pays]
        memo = self.fast.hand_memo(hand)
        pays = memo.remember(HARBOR_PAYMENTS, lambda: tuple(self.world.harbor_payments(hand)))
        out = []
        for city in cities:
            out.extend(
                memo.remember(
                    city,
                    lambda city=city: tuple(
                        mark_well_formed(BuildHarbor.trusted(city, pay)) for pay in pays
                    ),
                )
            )
        return out

    def extra_problem(self, game: Game, action: Any) -> str | None:
        state = game.state
        if isinstance(action, ChooseSupply):
            if state.pending == CHOOSE_SUPPLY:
                return self.supply_problem(action)
            return "the supply of pieces is chosen once, at setup"
        if isinstance(action, BuildHarbor):
            return self.harbor_problem(state, state.current, action)
        if isinstance(action, ExchangePieces):
            return self.exchange_problem(state.players[state.current], action)
        return super().extra_problem(game, action)

    def execute_extra(self, game: Game, action: Any) -> None:
        state = game.state
        player = state.players[state.current]
        if isinstance(action, ChooseSupply):
            self.choose_supply(state, action)
        elif isinstance(action, BuildHarbor):
            for cid, n in action.cards:
                player.hand[cid] -= n
            self.discard_cards(state, action.cards)
            state.extras["harbors"][action.city] = state.current
            player.extras["harbors_left"] -= 1
            if None in state.face_up:
                self.refill_face_up(state, game.rng)
            self.end_turn(game)
        elif isinstance(action, ExchangePieces):
            give = _other(action.take)
            box = player.extras["box"]
            box[action.take] -= action.count
            box[give] += action.count
            player.pieces[action.take] += action.count
            player.pieces[give] -= action.count
            player.extras["exchanged"] += action.count
            self.end_turn(game)
        else:
            super().execute_extra(game, action)

    # --------------------------------------------------------------- harbors
    def harbor_cities(self, state: GameState, seat: int) -> list[str]:
        """Port cities where ``seat`` may build a harbor now (ignoring cards and harbors left)."""
        built = state.extras["harbors"]
        reached = {
            end for rid in state.players[seat].routes for end in self.map.route_by_id[rid].ends
        }
        return sorted(c for c in reached if c in self.ports and c not in built)

    def harbor_problem(self, state: GameState, seat: int, action: BuildHarbor) -> str | None:
        """Why seat ``seat`` may not build the harbor ``action`` describes, or None."""
        player = state.players[seat]
        city = self.map.city_by_id.get(action.city)
        if city is None:
            return f"there is no city {short(action.city)} on this map"
        if not city.port:
            return f"{city.name} is not a port city (harbors are built only in port cities)"
        owner = state.extras["harbors"].get(city.id)
        if owner is not None:
            who = "their own" if owner == seat else f"{state.players[owner].name}'s"
            return f"{city.name} already has {who} harbor (one harbor per city)"
        if not player.extras["harbors_left"]:
            return f"they have built all {self.harbors_each} of their harbors"
        if city.id not in self.harbor_cities(state, seat):
            return (
                f"they have no route into {city.name} (a harbor needs a claimed route into "
                "its city)"
            )
        return self.held_problem(player, action.cards) or self.world.harbor_problem(action.cards)

    def harbor_scores(self, state: GameState, seat: int) -> list[tuple[str, int, int]]:
        """(city, completed tickets naming it, points) for each harbor ``seat`` built."""
        player = state.players[seat]
        done = [
            self.map.ticket_by_id[t].cities
            for t in player.tickets
            if self.ticket_done(state, player, t)
        ]
        out = []
        for city, owner in state.extras["harbors"].items():
            if owner == seat:
                named = sum(city in cities for cities in done)
                out.append(
                    (city, named, self.harbor_points[min(named, len(self.harbor_points) - 1)])
                )
        return out

    # ------------------------------------------------------------- exchanges
    def exchange_problem(self, player: PlayerState, action: ExchangePieces) -> str | None:
        """Why exchanging pieces as ``action`` says is refused, or None."""
        take, count = action.take, action.count
        if take not in KINDS:
            return f"there are no {short(take)} pieces in this game (only trains and ships)"
        if count < 1:
            return "at least one piece must be exchanged"
        give = _other(take)
        in_box = player.extras["box"][take]
        if not in_box:
            return f"none of their {take}s are left in the box to take"
        if in_box < count:
            return f"only {_plural(in_box, take)} of theirs are left in the box, not {count}"
        if player.pieces[give] < count:
            return (
                f"their supply holds only {_plural(player.pieces[give], give)} to put back, "
                f"not {count}"
            )
        return None

    # ---------------------------------------------------------------- tickets
    def ticket_done(self, state: GameState, player: PlayerState, ticket_id: int) -> bool:
        """Whether the ticket is completed (a tour: its cities all connected)."""
        if ticket_id in self.tours:
            ends = [self.map.route_by_id[r].ends for r in player.routes]
            return tour_connected(ends, self.map.ticket_by_id[ticket_id].cities)
        return super().ticket_done(state, player, ticket_id)

    def ticket_points(self, state: GameState, player: PlayerState, ticket_id: int) -> int:
        """The ticket's points for the player (a tour: in order, connected, or its penalty)."""
        values = self.tours.get(ticket_id)
        if values is None:
            return super().ticket_points(state, player, ticket_id)
        return self.tour_points(player, ticket_id)

    def tour_points(self, player: PlayerState, ticket_id: int) -> int:
        """High value in order (a trail), low value joined in any order, else minus the penalty."""
        values = self.tours[ticket_id]
        cities = self.map.ticket_by_id[ticket_id].cities
        ends = [self.map.route_by_id[r].ends for r in player.routes]
        if tour_in_order(ends, cities):
            return values["in_order"]
        if tour_connected(ends, cities):
            return values["any_order"]
        return -values["penalty"]

    # ---------------------------------------------------------------- scoring
    def score_components(self, state: GameState, final: bool) -> list[dict[str, int]]:
        rows = []
        for seat, player in enumerate(state.players):
            row = {"routes": player.route_score}
            if final:
                row["tickets"] = sum(self.ticket_points(state, player, t) for t in player.tickets)
                built = sum(points for *_, points in self.harbor_scores(state, seat))
                row["harbors"] = built - self.unbuilt_harbor_penalty * player.extras["harbors_left"]
            row["exchange"] = -self.exchange_cost * player.extras["exchanged"]
            rows.append(row)
        return rows

    def tiebreaks(
        self, state: GameState, rows: list[dict[str, int]]
    ) -> list[tuple[str, list[int]]]:
        return []  # the World rules name no tie-breaker

    def end_text(self, state: GameState) -> str:
        if state.ended_by != "last_round" or state.last_round_by is None:
            return super().end_text(state)
        who = state.players[state.last_round_by].name
        return (
            f"{who} was down to {self.end_trigger_pieces} or fewer pieces, so everyone, "
            f"{who} included, took {self.final_turns_each} more turns."
        )

    # ------------------------------------------------------------- counting
    def conserved_counts(self, state: GameState) -> dict[str, int]:
        out = super().conserved_counts(state)
        for seat, player in enumerate(state.players):
            for kind, n in player.extras["box"].items():
                out[f"seat {seat + 1} {kind} pieces"] += n
            built = sum(owner == seat for owner in state.extras["harbors"].values())
            out[f"seat {seat + 1} harbors"] = built + player.extras["harbors_left"]
        for deck in KINDS:
            pile, discard = self.piles(state, deck)
            held = [c for c in state.face_up if c is not None]
            held += [cid for p in state.players for cid, n in p.hand.items() for _ in range(n)]
            out[f"{deck} cards"] = (
                len(pile) + len(discard) + sum(self.cards[c].deck == deck for c in held)
            )
        return out

    def determinise_extras(self, state: GameState, seat: int, rng: random.Random) -> None:
        """Supplies chosen by others before the reveal are secret: any legal supply."""
        choices = state.extras.get("supply_choices")
        if choices is None:
            return
        options = self.supply_options()
        for p, choice in enumerate(choices):
            if p != seat and choice is not None:
                pick = rng.choice(options)
                choices[p] = {TRAIN: pick.trains, SHIP: pick.ships}

    secret_actions = (*Rules.secret_actions, ChooseSupply)

    def seat_view_extras(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """The ship deck's order and the supplies others chose before the reveal are secret:
        the deck becomes placeholders, a chosen supply an empty one."""
        out = dict(state.extras)
        out["ship_deck"] = [HIDDEN_CARD] * len(state.extras["ship_deck"])
        choices = state.extras.get("supply_choices")
        if choices is not None:
            out["supply_choices"] = [
                c if p == viewer or c is None else {TRAIN: 0, SHIP: 0}
                for p, c in enumerate(choices)
            ]
        return out

    def public_extras(self, state: GameState, viewer: int) -> dict[str, Any]:
        hidden = ("ship_deck", "ship_discard", "supply_choices")
        out = {k: v for k, v in state.extras.items() if k not in hidden}
        choices = state.extras.get("supply_choices")
        if choices is not None:
            out["supply_chosen"] = [c is not None for c in choices]
            out["your_supply"] = choices[viewer]
        return out

    # ------------------------------------------------------------------ text
    def card_name(self, card_id: str) -> str:
        return self.world.card_name(card_id)

    def count_text(self, card_id: str, n: int) -> str:
        return _plural(n, self.card_name(card_id))

    def log_key(self, game: Game, action: Any) -> Hashable | None:
        if type(action) in (ChooseSupply, BuildHarbor, ExchangePieces):
            return (game.state.players[game.state.current].name, action)
        return super().log_key(game, action)

    def describe_extra(self, game: Game, action: Any) -> tuple[str, str]:
        if isinstance(action, ChooseSupply):
            return ("choose", "a secret supply of pieces")
        if isinstance(action, BuildHarbor):
            city = self.map.city_by_id.get(action.city)
            name = city.name if city else short(action.city)
            return ("build", f"a harbor in {name} with {self.payment_text(action.cards)}")
        if isinstance(action, ExchangePieces) and action.take in KINDS:
            n, give = action.count, _other(action.take)
            return (
                "exchange",
                f"{_plural(n, give)} for {_plural(n, action.take)} from the box "
                f"(−{_plural(n * self.exchange_cost, 'point')})",
            )
        return super().describe_extra(game, action)


def harbor_cost_text() -> str:
    """The cost of a harbor in words (for panels and lessons)."""
    return (
        f"{HARBOR_TRAIN_CARDS} Train + {HARBOR_SHIP_CARDS} Ship cards of one colour with the "
        "harbor symbol (Wilds replace any)"
    )
