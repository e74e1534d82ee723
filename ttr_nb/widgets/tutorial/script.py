"""Tutorial games played by the engine, move by move.

A tutorial is one game: the learner's moves and the other seats' scripted moves, each a
legal action applied by the engine. What a step needs (a locomotive turning up, the cards
for a route) is brought about the way a shuffle could have: only what nobody sees is
arranged, namely the deal before anyone looks at it, and the order of the cards and
tickets still face down in a deck. Everything a player sees (the round, the trains, the
hands, the log, the tickets kept) is then the engine's own doing.

A game made here carries its :class:`Deal`: the state right after the arranged deal and
every later rearrangement of a face-down pile, by move number. :func:`rebuilt` replays
the moves on that deal; a test compares the result with the game shown, so a position
edited by hand (a hand set, routes placed without a claim) cannot pass for played.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import networkx as nx

from ...actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ...game import Game, new_game
from ...maps import Route
from ...state import GameState
from .model import LEARNER

NAMES = ("Ann", "Bruno", "Chen", "Dita", "Emil")
"""The seats' names (the learner is Ann: the app's first human seat is called so)."""

SEED = 7
DEAL_KEY = "tutorial_deal"  # where a tutorial game keeps its Deal (copied by Game.clone)


@dataclass(frozen=True)
class Deal:
    """How a tutorial game was dealt: the state and the random generator right after the
    arranged deal, and each later rearrangement of a face-down pile as
    ``(moves made, "cards" or "tickets", deck, the pile's new order)``."""

    state: GameState
    rng: Any
    arranged: tuple[tuple[int, str, str, tuple[Any, ...]], ...] = ()


def deal(
    map_id: str,
    players: int = 3,
    seed: int = SEED,
    rig: Callable[[Game], None] | None = None,
) -> Game:
    """A new game on ``map_id``; ``rig`` may arrange the deal (hands, the face-up row, the
    tickets offered, the deck's order) before anyone has seen it."""
    game = new_game(map_id, players=list(NAMES[:players]), seed=seed)
    if rig is not None:
        rig(game)
    vars(game)[DEAL_KEY] = Deal(game.state.copy(), game.rng.getstate())
    return game


def deal_of(game: Game) -> Deal | None:
    """The deal a tutorial game was played from (None for any other game)."""
    return vars(game).get(DEAL_KEY)


def rebuilt(game: Game) -> Game:
    """``game`` played again from its deal: its moves applied by the engine, with the
    face-down piles arranged when they were. Equal to ``game`` when every visible change
    was a move.

    Raises
    ------
    ValueError
        For a game that is not a tutorial game.
    """
    record = deal_of(game)
    if record is None:
        raise ValueError("not a tutorial game: it has no deal to replay")
    twin = new_game(game.map, list(game.names), game.seed)
    twin.state = record.state.copy()
    twin.rng.setstate(record.rng)
    arranged: dict[int, list[tuple[str, str, tuple[Any, ...]]]] = {}
    for at, what, deck, order in record.arranged:
        arranged.setdefault(at, []).append((what, deck, order))
    for i, move in enumerate([*game.history, None]):
        for what, deck, order in arranged.get(i, []):
            pile = _pile(twin, what, deck)
            pile[:] = list(order)
        if move is not None:
            twin.apply(move.action)
    return twin


def _pile(game: Game, what: str, deck: str) -> list[Any]:
    if what == "cards":
        return game.rules.piles(game.state, deck)[0]
    return game.state.ticket_decks[deck]


def _record(game: Game, what: str, deck: str) -> None:
    """Record a rearrangement in a tutorial game's deal (another game has none to keep)."""
    record = deal_of(game)
    if record is None:
        return
    order = tuple(_pile(game, what, deck))
    entry = (len(game.history), what, deck, order)
    vars(game)[DEAL_KEY] = replace(record, arranged=(*record.arranged, entry))


# ------------------------------------------------------------------ face-down piles
def deck_of(game: Game, card: str) -> str:
    """The deck a card belongs to (``train``; World's ``ship``)."""
    return game.map.card_by_id[card].deck


def in_pile(game: Game, card: str) -> int:
    """How many ``card`` cards are face down in their draw pile."""
    return game.rules.piles(game.state, deck_of(game, card))[0].count(card)


def arrange(game: Game, top: Sequence[str]) -> None:
    """Make ``top`` the next cards drawn from their decks, first item first.

    Only the order of a draw pile changes (its cards are face down): the cards must be in
    it, the discards and everything seen stay as they are.

    Raises
    ------
    ValueError
        When a draw pile lacks one of the cards.
    """
    by_deck: dict[str, list[str]] = {}
    for card in top:
        by_deck.setdefault(deck_of(game, card), []).append(card)
    for deck, cards in by_deck.items():
        pile = game.rules.piles(game.state, deck)[0]
        for card in cards:
            if card not in pile:
                raise ValueError(f"no {card} card face down in the {deck} deck")
            pile.remove(card)
        pile.extend(reversed(cards))  # the top of a pile is the end of its list
        _record(game, "cards", deck)


def arrange_tickets(game: Game, top: Sequence[int]) -> None:
    """Make ``top`` the next tickets drawn from their decks (they must be in them)."""
    by_deck: dict[str, list[int]] = {}
    for ticket in top:
        by_deck.setdefault(game.map.ticket_by_id[ticket].deck, []).append(ticket)
    for deck, tickets in by_deck.items():
        pile = game.state.ticket_decks[deck]
        for ticket in tickets:
            if ticket not in pile:
                raise ValueError(f"ticket {ticket} is not face down in the {deck} deck")
            pile.remove(ticket)
        pile[:0] = tickets  # the top of a ticket deck is the start of its list
        _record(game, "tickets", deck)


# ------------------------------------------------------------------ cards
def plain_cards(game: Game, deck: str = "train") -> list[str]:
    """The card types that are simply a colour (no wild, no special card), map order."""
    return [
        c.id
        for c in game.map.card_types
        if c.deck == deck and not c.wild and not c.passenger and not c.harbor and c.spaces == 1
    ]


def wild_card(game: Game, deck: str = "train") -> str:
    """The wild card that pays for any route (USA's locomotive)."""
    return next(
        c.id for c in game.map.card_types if c.deck == deck and c.wild and c.min_route_length <= 1
    )


def is_wild(game: Game, card: str | None) -> bool:
    """Is ``card`` a wild card?"""
    return card is not None and game.map.card_by_id[card].wild


def colour_cards(game: Game, deck: str = "train") -> list[str]:
    """The card types of a colour (no wild card, no Passenger card), map order: plain
    ones, and World's harbor and Double-Ship cards."""
    return [c.id for c in game.map.card_types if c.deck == deck and not c.wild and not c.passenger]


def fitting_card(game: Game, seat: int, route: Route) -> str:
    """The card ``seat`` should collect for ``route``: one of its colour (a plain one
    first), or for a gray route of the colour the seat holds most of."""
    hand = game.state.players[seat].hand
    plain = set(plain_cards(game, route.kind))
    fits = [
        c
        for c in colour_cards(game, route.kind)
        if game.rules.card_fits(game.map.card_by_id[c], route)
    ]
    if not fits:
        raise ValueError(f"no card of a colour pays for {game.map.route_label(route)}")
    return max(fits, key=lambda c: (in_pile(game, c) >= 2, c in plain, hand[c], -fits.index(c)))


def cheapest_claim(game: Game, route_id: int, seat: int | None = None) -> ClaimRoute | None:
    """The legal claim of ``route_id`` paying with the fewest wild cards (then the first
    way), taking the first choice of pickups; None when the hand cannot pay or the route
    is closed to the seat."""
    state, rules = game.state, game.rules
    seat = state.current if seat is None else seat
    route = game.map.route_by_id[route_id]
    if rules.route_problem(state, seat, route) is not None:
        return None
    pays = rules.payments(state.players[seat].hand, route)
    if not pays:
        return None
    pay = min(pays, key=lambda p: sum(n for c, n in p if is_wild(game, c)))
    options = rules.pickup_options(state, route)
    return ClaimRoute(route_id, pay, options[0] if options else ())


# ------------------------------------------------------------------ one turn
def blind_turn(game: Game, cards: Sequence[str | None] = (), deck: str | None = None) -> None:
    """The player to move draws two cards from a deck, the first ones arranged to be
    ``cards`` while the deck holds them (None: whatever comes). ``deck`` defaults to the
    first card's deck."""
    first = next((c for c in cards if c), None)
    deck = deck or (deck_of(game, first) if first else game.rules.deck_names[0])
    for i in range(2):
        if i == 1 and game.state.pending != "second_card":
            return
        card = cards[i] if i < len(cards) else None
        if card is not None and deck_of(game, card) == deck and in_pile(game, card):
            arrange(game, [card])  # (a card the deck has run out of: whatever comes)
        if game.rules.can_draw_blind(game.state, deck):
            game.apply(DrawBlind(deck))
        else:
            _any_draw(game)


def face_up_turn(
    game: Game, slot: int, refill: str | None = None, second: str | None = None
) -> None:
    """The player to move takes face-up card ``slot`` (its place refilled with ``refill``,
    arranged), then, when the draw goes on, a second card from the deck (``second``)."""
    deck = deck_of(game, refill) if refill else game.rules.refill_choices(game.state)[0]
    if refill is not None:
        arrange(game, [refill])
    game.apply(DrawFaceUp(slot, deck))
    if game.state.pending == "second_card":
        blind_turn_second(game, second)


def _any_draw(game: Game) -> None:
    """Some legal move when the deck asked for is empty: another card draw (another deck,
    a face-up card that does not end the draw), else tickets, else whatever is legal
    (a pass when nothing is)."""
    legal = game.legal_actions()
    state = game.state
    draws = [a for a in legal if isinstance(a, DrawBlind)]
    draws += [
        a
        for a in legal
        if isinstance(a, DrawFaceUp) and not game.rules.ends_draw(state.face_up[a.slot] or "")
    ]
    tickets = [a for a in legal if isinstance(a, DrawTickets | KeepTickets)]
    game.apply((draws or tickets or legal)[0])
    if state.pending == "keep_tickets":
        keep_turn(game, state.players[state.current].offer[:1])


def blind_turn_second(game: Game, card: str | None = None) -> None:
    """The second card of a draw, from the deck (arranged to be ``card``)."""
    deck = deck_of(game, card) if card else game.rules.deck_names[0]
    if card is not None:
        arrange(game, [card])
    game.apply(DrawBlind(deck))


def claim_turn(game: Game, route_id: int) -> bool:
    """The player to move claims ``route_id`` (see :func:`cheapest_claim`); False when
    they cannot."""
    action = cheapest_claim(game, route_id)
    if action is None:
        return False
    game.apply(action)
    return True


def toward(game: Game, route_id: int) -> bool:
    """The player to move claims ``route_id`` if they can pay for it, else draws two
    cards for it (arranged to be of its colour, while the deck has them). True when
    the route was claimed."""
    if claim_turn(game, route_id):
        return True
    seat = game.state.current
    route = game.map.route_by_id[route_id]
    card = fitting_card(game, seat, route)
    blind_turn(game, [card, card], deck=deck_of(game, card))
    return False


def keep_turn(game: Game, tickets: Iterable[int] | None = None) -> None:
    """The player to move keeps ``tickets`` of their offer (None: all of them)."""
    offer = game.state.players[game.state.current].offer
    chosen = tuple(offer if tickets is None else tickets)
    game.apply(KeepTickets(chosen))


def tickets_turn(game: Game, keep: int | None = None, long: int = 0) -> None:
    """The player to move draws tickets (``long`` of them long) and keeps the first
    ``keep`` offered (None: all)."""
    game.apply(DrawTickets(long) if long else DrawTickets())
    offer = game.state.players[game.state.current].offer
    keep_turn(game, offer if keep is None else offer[:keep])


def others_play(game: Game, turn: Callable[[Game], Any] | None = None) -> None:
    """The seats after the learner play their turns (``turn`` for each; by default two
    cards from the deck) until it is the learner's turn again."""
    guard = 0
    while not game.is_over and game.state.current != LEARNER and guard < 50:
        (turn or blind_turn)(game)
        guard += 1


def round_of(game: Game) -> int:
    """The round shown above the board (everyone moved once per round)."""
    return (game.state.turn - 1) // game.num_players + 1


# ------------------------------------------------------------------ plans and jumps
def plain_route(route: Route) -> bool:
    """A route that cards of one colour pay for, without a variant's extra rule (no
    tunnel, ferry or pair route)."""
    return not route.tunnel and not route.locomotives and not route.pair


def plan_networks(
    game: Game,
    budgets: dict[int, int],
    toward_tickets: Sequence[int] = (LEARNER,),
    avoid: Iterable[int] = (),
    seed: int = SEED,
    first: dict[int, list[int]] | None = None,
) -> dict[int, list[int]]:
    """Routes for each seat of ``budgets`` to claim, about ``budgets[seat]`` pieces in all.

    The seats named in ``toward_tickets`` follow shortest paths between the cities of
    their open tickets first; every network then grows from its own cities (or a city
    picked at random) by open plain routes; ``first`` puts routes at the start of a seat's
    plan. Seats are planned in turn on a scratch copy, so no two plans want the same route
    or two tracks of a route that closes the other.
    """
    scratch = game.clone()
    rng = random.Random(seed)
    skip = set(avoid)
    plans: dict[int, list[int]] = {}
    dead = set(game.map.dead_ends)
    for seat, budget in budgets.items():
        plan: list[int] = []
        left = budget

        def usable(route: Route, seat: int = seat) -> bool:
            return (
                plain_route(route)
                and route.id not in skip
                and scratch.rules.route_problem(scratch.state, seat, route) is None
                and not (route.a in dead and route.b in dead)
            )

        def take(route: Route, seat: int = seat, plan: list[int] = plan) -> None:
            scratch.state.owner[route.id] = seat
            scratch.state.players[seat].routes.append(route.id)
            scratch.state.players[seat].pieces[route.kind] -= route.length
            plan.append(route.id)

        for rid in (first or {}).get(seat, []):
            route = game.map.route_by_id[rid]
            if (
                route.length <= left
                and scratch.rules.route_problem(scratch.state, seat, route) is None
            ):
                take(route)
                left -= route.length
        if seat in toward_tickets:
            for ticket in scratch.state.players[seat].tickets:
                path = _ticket_path(scratch, seat, ticket, usable)
                cost = sum(game.map.route_by_id[r].length for r in path)
                if path and cost <= left:
                    for rid in path:
                        take(game.map.route_by_id[rid])
                    left -= cost
        player = scratch.state.players[seat]
        reached = {p for rid in player.routes for p in game.map.route_by_id[rid].ends} - dead
        if not reached:
            reached = {rng.choice(sorted({r.a for r in game.map.routes} - dead))}
        for _ in range(300):
            if left <= 0:
                break
            options = [
                r
                for r in game.map.routes
                if r.length <= left and (r.a in reached or r.b in reached) and usable(r)
            ]
            if not options:
                options = [r for r in game.map.routes if r.length <= left and usable(r)]
            if not options:
                break
            exact = [r for r in options if r.length == left]
            route = exact[0] if exact else rng.choice(options)
            take(route)
            left -= route.length
            reached.update(p for p in route.ends if p not in dead)
        plans[seat] = plan
    return plans


def _ticket_path(
    game: Game, seat: int, ticket_id: int, usable: Callable[[Route], bool]
) -> list[int]:
    """The routes still to claim on a shortest path joining a two-city ticket (own routes
    free), or [] when there is none or the ticket is done."""
    ticket = game.map.ticket_by_id[ticket_id]
    if len(ticket.cities) != 2 or game.rules.ticket_done(
        game.state, game.state.players[seat], ticket_id
    ):
        return []
    graph = nx.Graph()
    own = set(game.state.players[seat].routes)
    for route in game.map.routes:
        if route.id in own or usable(route):
            weight = 0 if route.id in own else route.length
            old = graph.get_edge_data(route.a, route.b)
            if old is None or old["weight"] > weight:
                graph.add_edge(route.a, route.b, weight=weight, route=route.id)
    sources = [t for t in game.map.targets(ticket.cities[0]) if t in graph]
    targets = set(t for t in game.map.targets(ticket.cities[1]) if t in graph)
    best: list[str] | None = None
    best_cost = None
    for source in sources:
        try:
            lengths, paths = nx.single_source_dijkstra(graph, source, weight="weight")
        except nx.NetworkXException:
            continue
        for target in targets:
            if target in lengths and (best_cost is None or lengths[target] < best_cost):
                best, best_cost = paths[target], lengths[target]
    if best is None:
        return []
    routes = [graph.edges[a, b]["route"] for a, b in zip(best, best[1:], strict=False)]
    return [r for r in routes if r not in own]


def spend_or_draw(game: Game, floor: int, avoid: Iterable[int] = ()) -> None:
    """A seat with nothing planned: claims the longest open plain route (not one of
    ``avoid``) its hand pays for while keeping more than ``floor`` pieces (cards do not
    pile up), else draws two cards."""
    seat = game.state.current
    pieces = sum(game.state.players[seat].pieces.values())
    skip = set(avoid)
    options = [
        r
        for r in game.map.routes
        if plain_route(r)
        and r.id not in skip
        and pieces - r.length > floor
        and cheapest_claim(game, r.id) is not None
    ]
    if options:
        claim_turn(game, max(options, key=lambda r: (r.length, -r.id)).id)
    else:
        blind_turn(game)


def jump(
    game: Game,
    plans: dict[int, list[int]],
    stop: Callable[[Game], bool],
    idle: Callable[[Game], Any] | None = None,
    keep_above: int | None = None,
    limit: int = 1500,
    avoid: Iterable[int] = (),
) -> None:
    """Play every seat's turns until ``stop(game)``: a seat claims a route of its plan
    that its hand pays for, else draws two cards for the next one; the learner with
    nothing left to plan plays ``idle``, another seat spends its cards on some route (or
    draws). A seat other than the learner never claims a route that would leave it
    ``keep_above`` pieces or fewer (the game's end trigger by default), so only the
    learner can start the last round here. Nobody claims a route of ``avoid`` outside
    their plan.

    Raises
    ------
    ValueError
        When ``stop`` is not reached within ``limit`` moves.
    """
    floor = game.rules.end_trigger_pieces if keep_above is None else keep_above
    skip = frozenset(avoid)
    start = len(game.history)
    while not stop(game):
        if len(game.history) - start > limit or game.is_over:
            raise ValueError("a tutorial jump did not reach its position")
        seat = game.state.current
        plan = plans.get(seat, [])
        pieces = sum(game.state.players[seat].pieces.values())
        plan[:] = [
            rid
            for rid in plan
            if game.rules.route_problem(game.state, seat, game.map.route_by_id[rid]) is None
            and (seat == LEARNER or pieces - game.map.route_by_id[rid].length > floor)
        ]
        ready = next((rid for rid in plan if cheapest_claim(game, rid) is not None), None)
        if ready is not None:  # a planned route the hand pays for now, in any order
            claim_turn(game, ready)
            plan.remove(ready)
        elif plan:
            toward(game, plan[0])
        elif idle is not None and seat == LEARNER:
            idle(game)
        else:
            spend_or_draw(game, floor, skip)
