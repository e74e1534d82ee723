"""Shared Ticket to Ride rules; variants subclass :class:`Rules` and override hooks.

The base class plays the original USA rulebook. A variant changes class
attributes (hand size, ticket draws, end trigger, ...) and overrides the hook
methods it needs (``payment_problem``, ``on_claim``, ``pickup_options``,
``extra_actions``, ``score_components``, ``tiebreaks``, ...). Every rule check
returns the broken rule as a sentence, so the game can refuse an action without
touching its state.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..actions import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    Payment,
    Pickups,
    shape_problem,
    short,
)
from ..maps import CardType, Map, Route
from ..state import GameState, PlayerState
from .fastpath import NO_PICKUPS, FastHooks, FastPath
from .scoring import ScoringRules
from .words import RuleWords

if TYPE_CHECKING:
    import random

    from .game_view import GameView as Game  # the game imports the rules, not the reverse

# A game ends, and is scored as it stands, once it has lasted this many actions. Real games
# take 100 to 700; the limit exists because some legal moves undo nothing for good (World's
# exchanges), so two players could otherwise play one game for ever.
MAX_GAME_MOVES = 3_000


class Rules(ScoringRules, RuleWords, FastHooks):
    """The rules of the original game (USA, 2015 rulebook).

    House rules, where the rulebook is silent:

    * **No legal action.** A player who can neither draw cards (deck and
      discards empty), nor claim any route, nor draw tickets, passes. When
      every player passes in a row, the game ends and is scored.
    * **Endless locomotive resets.** When three face-up locomotives force a
      reset, the reset repeats while three or more locomotives show, but at
      most ``max_face_up_resets`` times in a row; after that the row stays
      as it is (the remaining cards cannot resolve it).
    * **Longest path with no routes.** The bonus needs a path of at least one
      route; a player with no routes never gets it.
    * **Every game ends.** A game that reaches ``MAX_GAME_MOVES`` actions ends
      at the end of that turn and is scored as it stands.
    """

    name = "usa"
    starting_hand = 4
    face_up_slots = 5
    face_up_wild_limit = 3
    max_face_up_resets = 5
    setup_ticket_deal = 3
    setup_ticket_keep = 2
    ticket_deal = 3
    ticket_keep = 1
    end_trigger_pieces = 2
    final_turns_each = 1
    closed_parallel_max_players = 3  # with this many players or fewer, a double route closes
    ticket_deck = "regular"  # the deck tickets are dealt from
    max_players = 5
    deck_names: tuple[str, ...] = ("train",)  # travel-card decks (World: train and ship)

    @classmethod
    def map_problems(cls, game_map: Map) -> list[tuple[str, str]]:
        """(JSON path, reason) for each way ``game_map`` cannot be played with these rules.

        Run when a map is loaded, so that a map that would fail mid-game (no cards
        to deal, no tickets in the deck these rules deal from) is refused at once.
        """
        out = []
        total = sum(c.count for c in game_map.card_types)
        need = cls.max_players * cls.starting_hand + cls.face_up_slots
        if total < need:
            out.append(
                (
                    "$.components.cards",
                    f"the decks hold {total} cards, but the deal for {cls.max_players} players "
                    f"and the face-up row needs {need}",
                )
            )
        tickets = sum(1 for t in game_map.tickets if t.deck == cls.ticket_deck)
        deal = cls.max_players * cls.setup_ticket_deal
        if tickets < deal:
            out.append(
                (
                    "$.tickets",
                    f"the {game_map.rules} rules deal {deal} tickets from the "
                    f"{cls.ticket_deck!r} deck at setup; this map has {tickets} there",
                )
            )
        pieces = game_map.components.get("pieces", {})
        for kind in sorted({r.kind for r in game_map.routes}):
            if not pieces.get(kind):
                out.append(("$.components.pieces", f"{kind} routes need {kind} pieces"))
        return out

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        self.cards: dict[str, CardType] = dict(game_map.card_by_id)
        self.wild_ids = tuple(c.id for c in game_map.card_types if c.wild)
        self.wild_set = frozenset(self.wild_ids)
        self.colour_cards = tuple(c for c in game_map.card_types if not c.wild)
        self.card_total = sum(c.count for c in game_map.card_types)
        self.bonus_points = {b["id"]: b["points"] for b in game_map.components.get("bonuses", [])}
        # Per-route lookups, computed once: legal_actions runs every turn of every game.
        self.parallel = {r.id: game_map.parallel(r) for r in game_map.routes}
        self.fitting = {
            r.id: (
                tuple(c.id for c in self.colour_cards if self.card_fits(c, r)),
                tuple(w for w in self.wild_ids if self.card_fits(self.cards[w], r)),
            )
            for r in game_map.routes
        }
        self.reference = False  # True: list actions the plain way (see reference_mode)
        self._fast: FastPath | None = None

    # ------------------------------------------------------------------ setup
    def new_state(self, names: list[str], seed: int, rng: random.Random) -> GameState:
        """The state of a new game: shuffled decks, face-up cards, hands and pieces dealt."""
        deck = [c.id for c in self.map.card_types for _ in range(c.count)]
        rng.shuffle(deck)
        decks: dict[str, list[int]] = {}
        for ticket in self.map.tickets:
            decks.setdefault(ticket.deck, []).append(ticket.id)
        for ids in decks.values():
            rng.shuffle(ids)
        players = [
            PlayerState(
                name=name,
                hand={c.id: 0 for c in self.map.card_types},
                pieces=self.starting_pieces(),
            )
            for name in names
        ]
        state = GameState(
            map=self.map.id,
            seed=seed,
            players=players,
            deck=deck,
            discard=[],
            face_up=[None] * self.face_up_slots,
            ticket_decks=decks,
        )
        for player in players:
            for _ in range(self.starting_hand):
                player.hand[self.draw_card(state, rng)] += 1
        self.refill_face_up(state, rng)
        self.deal_setup_tickets(state)
        return state

    def starting_pieces(self) -> dict[str, int]:
        """The pieces each player starts with, by kind (the map's components)."""
        return {k: v for k, v in self.map.components["pieces"].items() if k != "supply"}

    def deal_setup_tickets(self, state: GameState) -> None:
        """Offer every player their starting tickets; the game waits for their keeps."""
        for player in state.players:
            player.offer = self.take_tickets(state, self.setup_ticket_deal)
        state.pending = "keep_tickets"

    def take_tickets(self, state: GameState, count: int, deck: str | None = None) -> list[int]:
        """Take up to ``count`` tickets from the top of ``deck`` (the ticket deck by default)."""
        deck = deck or self.ticket_deck
        pile = state.ticket_decks.get(deck, [])
        taken = pile[:count]
        del pile[:count]
        return taken

    # ------------------------------------------------------------- card flow
    def piles(self, state: GameState, deck: str = "train") -> tuple[list[str], list[str]]:
        """The draw pile and the discard pile of a travel-card deck (one of ``deck_names``).

        Variant hook: a map with a second deck keeps its piles in ``state.extras``.
        """
        return state.deck, state.discard

    def discard_cards(self, state: GameState, cards: Payment) -> None:
        """Put spent cards on the discard pile of their own deck."""
        for cid, n in cards:
            self.piles(state, self.cards[cid].deck)[1].extend([cid] * n)

    def draw_card(self, state: GameState, rng: random.Random, deck: str = "train") -> str | None:
        """Top card of a deck, reshuffling its own discards in when it runs out."""
        pile, discard = self.piles(state, deck)
        if not pile and discard:
            pile.extend(discard)
            discard.clear()
            rng.shuffle(pile)
        return pile.pop() if pile else None

    def refill_face_up(self, state: GameState, rng: random.Random, deck: str = "train") -> None:
        """Fill empty face-up slots (from ``deck``), then the three-locomotive reset (bounded)."""
        for i, card in enumerate(state.face_up):
            if card is None:
                state.face_up[i] = self.draw_card(state, rng, deck)
        for _ in range(self.max_face_up_resets):
            if not self.face_up_reset_due(state):
                return
            state.discard.extend(c for c in state.face_up if c is not None)
            state.face_up = [None] * self.face_up_slots
            for i in range(self.face_up_slots):
                state.face_up[i] = self.draw_card(state, rng)

    def face_up_wilds(self, state: GameState) -> int:
        """The number of wild cards among the face-up cards."""
        wild = self.wild_set
        return sum(1 for c in state.face_up if c in wild)

    def face_up_reset_due(self, state: GameState) -> bool:
        """Must the face-up row be discarded and dealt again? (three locomotives)

        Variant hook: Märklin also resets on three Passenger cards, and counts only
        plain Locomotives.
        """
        return self.face_up_wilds(state) >= self.face_up_wild_limit

    def ends_draw(self, card_id: str) -> bool:
        """Is taking this card face up the whole draw (and is it refused as a second card)?

        Variant hook: every wild card in the base game; in Märklin only the plain
        Locomotive (a Locomotive +4 is drawn like a colour card).
        """
        return self.cards[card_id].wild

    def can_draw_blind(self, state: GameState, deck: str = "train") -> bool:
        """Whether a card can be drawn from ``deck`` (its pile or its discards hold one)."""
        pile, discard = self.piles(state, deck)
        return bool(pile or discard)

    def can_draw_second(self, state: GameState) -> bool:
        """Whether a second card can be drawn this turn (a face-up card that allows it, or a
        deck)."""
        if any(c is not None and not self.ends_draw(c) for c in state.face_up):
            return True
        return any(self.can_draw_blind(state, deck) for deck in self.deck_names)

    def refill_choices(self, state: GameState) -> tuple[str, ...]:
        """Decks a player may choose to replace a face-up card they take.

        Only decks with cards left (or discards to reshuffle); with none left, the
        first deck (the slot stays empty). One deck: always just that deck.
        """
        if len(self.deck_names) == 1:
            return self.deck_names
        usable = tuple(d for d in self.deck_names if self.can_draw_blind(state, d))
        return usable or self.deck_names[:1]

    def claim_reach(self, hand: dict[str, int]) -> int:
        """The longest route this hand could possibly pay for (a cheap bound, not exact)."""
        most_of_one = max((hand[c.id] for c in self.colour_cards), default=0)
        return most_of_one + sum(hand[w] for w in self.wild_ids)

    def conserved_counts(self, state: GameState) -> dict[str, int]:
        """Totals that never change during a game (the tests check it): each player's
        pieces of each kind, in their supply or on the board. Variants add their own
        (a second deck's cards, pieces set aside, harbors, passengers, ...)."""
        out = {}
        for seat, player in enumerate(state.players):
            on_board: dict[str, int] = {}
            for rid in player.routes:
                route = self.map.route_by_id[rid]
                on_board[route.kind] = on_board.get(route.kind, 0) + route.length
            for kind, n in player.pieces.items():
                out[f"seat {seat + 1} {kind} pieces"] = n + on_board.get(kind, 0)
        return out

    def determinise_extras(self, state: GameState, seat: int, rng: random.Random) -> None:
        """Variant hook: resample, in place, the variant's own secrets that ``seat`` cannot
        see (what :meth:`public_extras` hides), for :func:`ttr_nb.bots.determinise.determinise`.
        Cards, tickets and decks are resampled by the caller."""

    def public_extras(self, state: GameState, viewer: int) -> dict[str, Any]:
        """Variant board state ``viewer`` may see (hides draw piles and secret choices)."""
        return state.extras

    # A seat's view (:mod:`.seat_view`): the actions whose content only their player sees.
    secret_actions: tuple[type, ...] = (KeepTickets,)

    def seat_view_extras(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Variant hook: ``state.extras`` as ``viewer`` (None: a watcher) may hold it, every
        secret replaced by a placeholder of the same size (:mod:`.seat_view`)."""
        return state.extras

    # ------------------------------------------------------------ claiming
    def card_fits(self, card: CardType, route: Route) -> bool:
        """Can this card be part of a payment for ``route``?"""
        if route.length < card.min_route_length:
            return False
        if card.wild:
            return True
        return card.deck == route.kind and route.color in ("gray", card.color)

    def payments(self, hand: dict[str, int], route: Route) -> list[Payment]:
        """Every distinct set of cards from ``hand`` that pays exactly for ``route``."""
        need = route.length
        colour_ids, wild_ids = self.fitting[route.id]
        wilds = [(w, hand[w]) for w in wild_ids if hand[w]]
        wild_total = sum(n for _, n in wilds)
        out: list[Payment] = []
        if len(wilds) <= 1:
            # One kind of wild card (every map but Märklin): build sorted pairs directly.
            wild, spare = wilds[0] if wilds else ("", 0)
            for cid in colour_ids:
                have = hand[cid]
                if not have or have + spare < need:
                    continue
                colour_first = cid < wild
                for n in range(min(have, need), max(need - spare, 1) - 1, -1):
                    if n == need:
                        out.append(((cid, n),))
                    elif colour_first:
                        out.append(((cid, n), (wild, need - n)))
                    else:
                        out.append(((wild, need - n), (cid, n)))
            if spare >= need:
                out.append(((wild, need),))
            return out
        for cid in colour_ids:
            have = hand[cid]
            if not have or have + wild_total < need:
                continue
            for n in range(min(have, need), 0, -1):
                for split in _wild_splits(wilds, need - n):
                    out.append(tuple(sorted(((cid, n), *split))))
        if wild_total >= need:
            out.extend(tuple(sorted(split)) for split in _wild_splits(wilds, need))
        return out

    def payment_problem(self, player: PlayerState, route: Route, cards: Payment) -> str | None:
        """Why ``cards`` cannot pay for ``route``, or None when they can."""
        colours = set()
        total = 0
        for cid, n in cards:
            card = self.cards.get(cid)
            if card is None:
                return f"there is no {short(cid)} card in this game"
            if n <= 0:
                return "card counts must be positive"
            if player.hand[cid] < n:
                return f"they hold {self.count_text(cid, player.hand[cid])}, not {n}"
            if not self.card_fits(card, route):
                if card.wild:
                    return (
                        f"a {self.card_name(cid)} can only pay for routes of "
                        f"{card.min_route_length} or more spaces, and this one has {route.length}"
                    )
                if card.deck != route.kind:
                    return f"{card.deck} cards cannot pay for a {route.kind} route"
                return f"{card.color} cards cannot pay for a {route.color} route"
            if not card.wild:
                colours.add(card.color)
            total += n
        if len(colours) > 1:
            return "all the cards must be one colour (plus locomotives)"
        if total != route.length:
            return (
                f"a route of {route.length} spaces takes exactly {route.length} cards, not {total}"
            )
        return None

    def route_problem(self, state: GameState, player_index: int, route: Route) -> str | None:
        """Why the player may not claim ``route`` at all (whatever the cards), or None."""
        if route.id in state.owner:
            return f"it already belongs to {state.players[state.owner[route.id]].name}"
        player = state.players[player_index]
        for other in self.parallel[route.id]:
            holder = state.owner.get(other)
            if holder == player_index:
                return "a player may not claim two routes joining the same two cities"
            if holder is not None and len(state.players) <= self.closed_parallel_max_players:
                if len(self.parallel[route.id]) == 1:
                    kind, taken = "double", "the other is taken"
                else:  # Germany's triple routes (three tracks)
                    kind, taken = "triple", "another is taken"
                return (
                    f"with {len(state.players)} players only one route of a {kind} route "
                    f"can be used, and {taken}"
                )
        left = player.pieces.get(route.kind, 0)
        if left < route.length:
            return f"they have {left} {route.kind}s left, not {route.length}"
        return None

    def claimable_routes(
        self, state: GameState, player_index: int, max_length: int = 99
    ) -> list[Route]:
        """Open routes (up to ``max_length``) this player could claim with the right cards.

        The same conditions as :meth:`route_problem`, without building messages (this
        runs every turn); the conformance tests check that the two agree.
        """
        owner = state.owner
        pieces = state.players[player_index].pieces
        closes = len(state.players) <= self.closed_parallel_max_players
        out = []
        for route in self.map.routes:
            length = route.length
            if length > max_length or route.id in owner or pieces.get(route.kind, 0) < length:
                continue
            blocked = False
            for other in self.parallel[route.id]:
                holder = owner.get(other)
                if holder is not None and (closes or holder == player_index):
                    blocked = True
                    break
            if not blocked:
                out.append(route)
        return out

    def on_claim(self, game: Game, player_index: int, route: Route) -> None:
        """Variant hook run after a route is claimed and paid for."""

    # Choices made with a claim (Germany: which passenger to take). The base game has none.
    def pickup_options(self, state: GameState, route: Route) -> tuple[Pickups, ...]:
        """Variant hook: every ``pickups`` value a claim of ``route`` may carry now.

        :data:`NO_PICKUPS` (only the empty choice) when there is nothing to choose;
        ``legal_actions`` lists one claim per payment and option.
        """
        return NO_PICKUPS

    def pickup_problem(self, state: GameState, route: Route, pickups: Pickups) -> str | None:
        """Variant hook: why a claim of ``route`` may not carry ``pickups``, or None."""
        if pickups:
            return "nothing is picked up when claiming a route in this game"
        return None

    def take_pickups(self, game: Game, player_index: int, route: Route, pickups: Pickups) -> None:
        """Variant hook run when a claim is carried out, before :meth:`on_claim`."""

    def pickup_text(self, state: GameState, route: Route | None, pickups: Pickups) -> str:
        """Variant hook: words added to a claim's description (``, taking ...``)."""
        if not pickups:
            return ""
        return ", taking " + ", ".join(
            f"{short(choice)} at {short(place)}" for place, choice in pickups
        )

    # -------------------------------------------------------------- actions
    def legal_actions(self, game: Game) -> list[Any]:
        """Every action the current player may take now, in a fixed order: card draws,
        ticket draws, claims (routes in map order, then payments, then pickups), the
        variant's own actions; ``[Pass()]`` when there is none."""
        if not self.reference:
            return (self._fast or self.fast).legal_actions(game)
        state = game.state
        if state.phase == "over":
            return []
        player = state.players[state.current]
        if state.pending == "keep_tickets":
            return self.keep_options(state, player)
        if state.pending == "second_card":
            return self.card_draws(state, second=True)
        actions: list[Any] = self.card_draws(state, second=False)
        actions.extend(self.ticket_draws(state))
        hand = player.hand
        # Cheap affordability bound first: most routes are out of reach most turns.
        claim = ClaimRoute.trusted
        for route in self.claimable_routes(state, state.current, self.claim_reach(hand)):
            pays = self.payments(hand, route)
            if not pays:
                continue
            options = self.pickup_options(state, route)
            if options is NO_PICKUPS:
                actions.extend(claim(route.id, pay) for pay in pays)
            else:
                actions.extend(claim(route.id, pay, pick) for pay in pays for pick in options)
        actions.extend(self.extra_actions(game))
        return actions or [Pass()]

    def keep_options(self, state: GameState, player: PlayerState) -> list[KeepTickets]:
        """Every legal keep of the player's offer (at least :meth:`min_keep` tickets)."""
        least = self.min_keep(state, player)
        return [
            KeepTickets(combo)
            for size in range(least, len(player.offer) + 1)
            for combo in combinations(player.offer, size)
        ]

    def min_keep(self, state: GameState, player: PlayerState) -> int:
        """The fewest tickets the player must keep of the offer now (at setup, or later)."""
        rule = self.setup_ticket_keep if state.phase == "setup" else self.ticket_keep
        return min(rule, len(player.offer))

    def card_draws(self, state: GameState, second: bool) -> list[Any]:
        """The legal card draws: face-up cards (not a wild card as the ``second``) and each deck."""
        refills = self.refill_choices(state)
        draws: list[Any] = [
            DrawFaceUp(i, refill)
            for i, card in enumerate(state.face_up)
            if card is not None and not (second and self.ends_draw(card))
            for refill in refills
        ]
        draws.extend(DrawBlind(d) for d in self.deck_names if self.can_draw_blind(state, d))
        return draws

    def ticket_draws(self, state: GameState) -> list[Any]:
        """The legal ticket draws (none when the ticket deck is empty)."""
        return [self.fast.ticket_draw(0)] if state.ticket_decks.get(self.ticket_deck) else []

    def extra_actions(self, game: Game) -> list[Any]:
        """Variant hook: further actions open at the start of a turn."""
        return []

    def listed_in_part(self, action: Any) -> bool:
        """Variant hook: is ``action`` of a kind that ``legal_actions()`` lists only in part?

        False in the base game: every legal action is listed. Märklin lists one path per
        set of cities a passenger can visit, so another legal path may be missing.
        """
        return False

    def problem(self, game: Game, action: Any) -> str | None:
        """The rule ``action`` breaks right now, or None if it is legal."""
        shape = shape_problem(action)
        if shape is not None:
            return shape[1]
        state = game.state
        if state.phase == "over":
            return "the game is over"
        player = state.players[state.current]
        if state.pending == "keep_tickets":
            if not isinstance(action, KeepTickets):
                return "they must first choose which of the drawn tickets to keep"
            return self.keep_problem(state, player, action)
        if state.pending == "second_card":
            if not isinstance(action, DrawFaceUp | DrawBlind):
                return "after taking one card they must take a second card"
            if isinstance(action, DrawFaceUp):
                return self.face_up_problem(state, action.slot, second=True) or self.refill_problem(
                    state, action.refill
                )
            return self.blind_problem(state, action)
        if isinstance(action, DrawFaceUp):
            return self.face_up_problem(state, action.slot, second=False) or self.refill_problem(
                state, action.refill
            )
        if isinstance(action, DrawBlind):
            return self.blind_problem(state, action)
        if isinstance(action, ClaimRoute):
            route = self.map.route_by_id.get(action.route)
            if route is None:
                return f"there is no route {action.route} on this map"
            return (
                self.route_problem(state, state.current, route)
                or self.payment_problem(player, route, action.cards)
                or self.pickup_problem(state, route, action.pickups)
            )
        if isinstance(action, DrawTickets):
            return self.ticket_draw_problem(state, action)
        if isinstance(action, KeepTickets):
            return "they have not drawn any tickets to choose from"
        if isinstance(action, Pass):
            if any(not isinstance(a, Pass) for a in self.legal_actions(game)):
                return "passing is only allowed when no other action is possible"
            return None
        return self.extra_problem(game, action)

    def extra_problem(self, game: Game, action: Any) -> str | None:
        """Variant hook: check a variant-only action."""
        return f"{type(action).__name__} is not an action in this game"

    def keep_problem(
        self, state: GameState, player: PlayerState, action: KeepTickets
    ) -> str | None:
        """Why keeping ``action.tickets`` is refused, or None."""
        if len(set(action.tickets)) != len(action.tickets):
            return "a ticket can only be kept once"
        if not set(action.tickets) <= set(player.offer):
            return "they can only keep tickets they have just drawn"
        least = self.min_keep(state, player)
        if len(action.tickets) < least:
            return f"they must keep at least {least} of the tickets drawn"
        return None

    def face_up_problem(self, state: GameState, slot: int, second: bool) -> str | None:
        """Why taking the face-up card in ``slot`` is refused now, or None."""
        slots = len(state.face_up)
        if not 0 <= slot < slots:
            return (
                f"there is no face-up slot {short(slot + 1)} (the slots are numbered 1 to {slots})"
            )
        if state.face_up[slot] is None:
            return f"face-up slot {slot + 1} is empty (the deck and the discards ran out)"
        if second and self.ends_draw(state.face_up[slot]):
            name = self.card_name(state.face_up[slot])
            return f"a face-up {name} cannot be taken as the second card"
        return None

    def refill_problem(self, state: GameState, deck: str) -> str | None:
        """Why the taken face-up card may not be replaced from ``deck``, or None."""
        if deck not in self.deck_names:
            return f"there is no {short(deck)} deck in this game"
        if deck not in self.refill_choices(state):
            return (
                f"the {deck} deck and its discard pile are empty: the card taken must be "
                f"replaced from the {' or '.join(self.refill_choices(state))} deck"
            )
        return None

    def blind_problem(self, state: GameState, action: DrawBlind) -> str | None:
        """Why drawing from ``action.deck`` is refused now, or None."""
        if action.deck not in self.deck_names:
            return f"there is no {short(action.deck)} deck in this game"
        if not self.can_draw_blind(state, action.deck):
            if len(self.deck_names) == 1:
                return "the deck and the discard pile are both empty"
            return f"the {action.deck} deck and its discard pile are both empty"
        return None

    def ticket_draw_problem(self, state: GameState, action: DrawTickets) -> str | None:
        """Why drawing tickets is refused now, or None."""
        if action.long:
            return "this game has a single ticket deck"
        if not state.ticket_decks.get(self.ticket_deck):
            return "the ticket deck is empty"
        return None

    # ------------------------------------------------------------ execution
    def execute(self, game: Game, action: Any) -> None:
        """Carry out an action already checked by :meth:`problem`."""
        state, rng = game.state, game.rng
        player = state.players[state.current]
        if isinstance(action, KeepTickets):
            self.keep(game, player, action)
            return
        if isinstance(action, DrawFaceUp | DrawBlind):
            first = state.pending is None
            if isinstance(action, DrawFaceUp):
                card = state.face_up[action.slot]
                state.face_up[action.slot] = None
                self.refill_face_up(state, rng, action.refill)
                took_wild = self.ends_draw(card)
            else:
                card = self.draw_card(state, rng, action.deck)
                took_wild = False  # a blind locomotive counts as one ordinary card
            player.hand[card] += 1
            if first and not took_wild and self.can_draw_second(state):
                state.pending = "second_card"
            else:
                self.end_turn(game)
            return
        if isinstance(action, ClaimRoute):
            self.claim(game, action)
            return
        if isinstance(action, DrawTickets):
            player.offer = self.take_tickets(state, self.ticket_deal)
            state.pending = "keep_tickets"
            return
        if isinstance(action, Pass):
            state.passes_in_row += 1
            self.end_turn(game, passed=True)
            return
        self.execute_extra(game, action)

    def execute_extra(self, game: Game, action: Any) -> None:
        """Variant hook: carry out a variant-only action."""
        raise NotImplementedError(type(action).__name__)

    def claim(self, game: Game, action: ClaimRoute) -> None:
        """Carry out a legal claim: pay, place the pieces, score, end the turn.

        Variant hook: Europe turns up cards for a tunnel first, and may ask for more.
        """
        self.build_route(game, action.route, action.cards, action.pickups)
        self.end_turn(game)

    def build_route(self, game: Game, route_id: int, cards: Payment, pickups: Pickups = ()) -> None:
        """Spend ``cards`` from the current player's hand on route ``route_id`` and give it
        to them: pieces placed, points scored, pickups taken (the turn goes on)."""
        state = game.state
        player = state.players[state.current]
        route = self.map.route_by_id[route_id]
        for cid, n in cards:
            player.hand[cid] -= n
        self.discard_cards(state, cards)
        state.owner[route.id] = state.current
        player.routes.append(route.id)
        player.pieces[route.kind] -= route.length
        player.route_score += self.map.route_points(route.length)
        if None in state.face_up:
            # Slots left empty when every card was out of play fill again now.
            self.refill_face_up(state, game.rng)
        self.take_pickups(game, state.current, route, pickups)
        self.on_claim(game, state.current, route)

    def keep(self, game: Game, player: PlayerState, action: KeepTickets) -> None:
        """Apply a ticket keep: the kept tickets join the hand, the others go under their deck."""
        state = game.state
        kept = set(action.tickets)
        player.tickets.extend(t for t in player.offer if t in kept)
        for t in player.offer:
            if t not in kept:
                state.ticket_decks[self.return_pile(state.phase, t)].append(t)
        player.offer = []
        if state.phase == "setup":
            waiting = [i for i, p in enumerate(state.players) if p.offer]
            if waiting:
                state.current = waiting[0]
            else:
                self.start_play(state)
            return
        self.end_turn(game)

    def return_pile(self, phase: str, ticket_id: int) -> str:
        """The ticket pile a ticket not kept goes under, in ``phase`` (setup or play).

        Base: the bottom of its own deck. Variant hook: in Europe the tickets not kept at
        setup go back to the box (a pile nobody draws from).
        """
        return self.map.ticket_by_id[ticket_id].deck

    def tickets_left(self, state: GameState) -> int:
        """Tickets that can still be drawn (variant hook: Europe's box is out of play)."""
        return sum(len(pile) for pile in state.ticket_decks.values())

    def start_play(self, state: GameState) -> None:
        """Setup is over: the first player's first turn begins."""
        state.phase = "play"
        state.pending = None
        state.current = 0
        state.turn = 1

    def end_turn(self, game: Game, passed: bool = False) -> None:
        """Close the current turn: last-round bookkeeping, then the next player."""
        state = game.state
        state.pending = None
        if not passed:
            state.passes_in_row = 0
        if state.final_turns_left is not None:
            state.final_turns_left -= 1
        elif self.triggers_end(state.players[state.current]):
            state.final_turns_left = self.final_turns_each * len(state.players)
            state.last_round_by = state.current
        if state.final_turns_left == 0 or state.passes_in_row >= len(state.players):
            self.end_game(game, "last_round" if state.final_turns_left == 0 else "no_moves")
            return
        if len(game.history) >= MAX_GAME_MOVES:
            # House rule: some legal moves (World's exchanges) change nothing for good,
            # so a game could go on for ever; this one ends and is scored as it stands.
            self.end_game(game, "move_limit")
            return
        state.current = (state.current + 1) % len(state.players)
        state.turn += 1

    def end_game(self, game: Game, reason: str) -> None:
        """The turns are over (``reason``: last_round, no_moves or move_limit): the game
        ends and is scored.

        Variant hook: Europe first asks each station's owner which route it borrows.
        """
        game.state.phase = "over"
        game.state.ended_by = reason

    def end_text(self, state: GameState) -> str:
        """Why the game ended, in a sentence for the end screen."""
        if state.ended_by == "move_limit":
            return (
                f"The game reached {MAX_GAME_MOVES:,} moves without ending (a house rule: "
                "every game ends there), so it was scored as it stood."
            )
        if state.ended_by == "no_moves":
            return (
                "No player could do anything for a whole round (no cards left to draw, no "
                "route they could pay for, no tickets left), so the game ended there."
            )
        if state.last_round_by is None:
            return "The game ended."
        who = state.players[state.last_round_by].name
        return (
            f"{who} was down to {self.end_trigger_pieces} or fewer trains, so everyone, "
            f"{who} included, played one last turn."
        )

    def triggers_end(self, player: PlayerState) -> bool:
        """Whether the player's pieces left start the last round."""
        return sum(player.pieces.values()) <= self.end_trigger_pieces


def _wild_splits(wilds: list[tuple[str, int]], need: int) -> Iterator[tuple[tuple[str, int], ...]]:
    """Ways to make ``need`` from the available wild cards, as (id, count) pairs."""
    if need == 0:
        yield ()
        return
    if not wilds:
        return
    (cid, have), rest = wilds[0], wilds[1:]
    for n in range(min(have, need), -1, -1):
        for tail in _wild_splits(rest, need - n):
            yield ((cid, n), *tail) if n else tail
