"""Positions for tutorial steps, on any map: deals past setup, routes found by what they
are (a single coloured route of 4 spaces, a gray one, a double route), and a late game with
every player's network laid out.

Everything is built by the engine from a seed (:func:`~ttr_nb.game.new_game`) and then
edited with :mod:`ttr_nb.deals`, so each step opens on the same position every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from ...actions import DrawTickets, KeepTickets
from ...deals import give_routes, set_hand, set_tickets
from ...game import Game, new_game
from ...maps import Map, Route
from .model import LEARNER

NAMES = ("Ann", "Bruno", "Chen", "Dita", "Emil")
"""The seats' names (the learner is Ann: the app's first human seat is called so)."""

SEED = 7


def dealt(map_id: str, players: int = 3, seed: int = SEED) -> Game:
    """A new game on ``map_id``, before anyone has chosen tickets."""
    return new_game(map_id, players=list(NAMES[:players]), seed=seed)


def started(
    map_id: str,
    players: int = 3,
    seed: int = SEED,
    setup: Callable[[Game], Any] | None = None,
) -> Game:
    """A game just past setup: each player made the choices ``setup`` picks
    (:func:`setup_move` by default)."""
    game = dealt(map_id, players, seed)
    choose = setup or setup_move
    while game.phase == "setup":
        game.apply(choose(game))
    return game


def setup_move(game: Game) -> Any:
    """A plain setup choice: keep every ticket offered, draw one long ticket where there
    are two decks; any other setup step takes the first legal choice."""
    legal = game.legal_actions()
    keeps = [a for a in legal if isinstance(a, KeepTickets)]
    if keeps:
        return max(keeps, key=lambda a: len(a.tickets))
    draws = [a for a in legal if isinstance(a, DrawTickets)]
    if draws:
        return next((a for a in draws if a.long == 1), draws[0])
    return legal[0]


# ---------------------------------------------------------------- cards
def plain_cards(game_map: Map, deck: str = "train") -> list[str]:
    """The card types that are simply a colour (no wild, no special card), map order."""
    return [
        c.id
        for c in game_map.card_types
        if c.deck == deck and not c.wild and not c.passenger and not c.harbor and c.spaces == 1
    ]


def wild_card(game_map: Map, deck: str = "train") -> str:
    """The wild card that pays for any route (USA's locomotive)."""
    return next(
        c.id for c in game_map.card_types if c.deck == deck and c.wild and c.min_route_length <= 1
    )


def card_of(game_map: Map, colour: str, deck: str = "train") -> str:
    """The plain card of ``colour`` (``red``; World's ``train-red``)."""
    return next(c for c in plain_cards(game_map, deck) if game_map.card_by_id[c].color == colour)


# ---------------------------------------------------------------- routes
def singles(game: Game) -> list[Route]:
    """Routes that are not one track of a double (or triple) route."""
    parallel = game.rules.parallel
    return [r for r in game.map.routes if not parallel[r.id]]


def find_route(
    game: Game,
    colour: str | None = None,
    lengths: Iterable[int] = (3, 4),
    kind: str = "train",
    single: bool = True,
    avoid: Iterable[int] = (),
) -> Route:
    """The first open route matching the filters (``colour`` None: any colour but gray),
    trying the lengths in the order given. Places in countries (dead ends) are avoided."""
    skip = set(avoid)
    pool = singles(game) if single else list(game.map.routes)
    dead = set(game.map.dead_ends)
    for length in lengths:
        for route in pool:
            if (
                route.length == length
                and route.kind == kind
                and not route.pair
                and route.id not in skip
                and route.id not in game.state.owner
                and (route.color == colour if colour else route.color != "gray")
                and route.a not in dead
                and route.b not in dead
            ):
                return route
    raise ValueError(f"no {colour or 'coloured'} {kind} route of length {list(lengths)}")


def double_route(game: Game, length: Iterable[int] = (3, 4, 2)) -> tuple[Route, Route]:
    """Two tracks of one double route, in two colours (gray ones only if none is)."""
    parallel = game.rules.parallel
    for want_colours in (True, False):
        for n in length:
            for route in game.map.routes:
                twins = parallel[route.id]
                if len(twins) != 1 or route.length != n or route.kind != "train":
                    continue
                other = game.map.route_by_id[twins[0]]
                if route.id > other.id or route.pair:
                    continue
                coloured = "gray" not in (route.color, other.color) and route.color != other.color
                if coloured == want_colours:
                    return route, other
    raise ValueError("no double route on this map")


# ----------------------------------------------------------- a late game
def late_game(
    map_id: str,
    trains_left: Iterable[int] = (4, 9, 8),
    seed: int = SEED,
    tickets: tuple[int, int] = (2, 1),
) -> Game:
    """A game near its end: each seat's trains laid out as one connected network until
    ``trains_left`` are left; each seat holds ``tickets[0]`` tickets its network completes
    and ``tickets[1]`` it does not (chosen among the map's tickets)."""
    left = list(trains_left)
    game = started(map_id, players=len(left), seed=seed)
    rng = random.Random(seed)
    for seat, keep in enumerate(left):
        grow_network(game, seat, keep, rng)
    deal_late_tickets(game, range(len(left)), tickets)
    return game


def deal_late_tickets(game: Game, seats: Iterable[int], tickets: tuple[int, int]) -> None:
    """Each of ``seats`` holds ``tickets[0]`` tickets its network completes and
    ``tickets[1]`` it does not."""
    taken: set[int] = set()
    for seat in seats:
        done, open_ = tickets_for(game, seat, taken)
        chosen = done[: tickets[0]] + open_[: tickets[1]]
        taken.update(chosen)
        set_tickets(game, seat, chosen)


def grow_network(game: Game, seat: int, keep: int, rng: random.Random) -> None:
    """Claim a connected set of open routes for ``seat`` (trains or ships) until ``keep``
    pieces are left."""
    state, rules = game.state, game.rules
    player = state.players[seat]
    dead = set(game.map.dead_ends)
    routes = [r for r in game.map.routes if not r.pair]
    cities = sorted({r.a for r in routes} - dead)
    start = rng.choice(cities)
    reached = {start}
    for _ in range(200):
        budget = sum(player.pieces.values()) - keep
        if budget <= 0:
            break
        options = [
            r
            for r in routes
            if r.length <= budget
            and (r.a in reached or r.b in reached)
            and rules.route_problem(state, seat, r) is None
            and not (r.a in dead and r.b in dead)
        ]
        if not options:
            break
        exact = [r for r in options if r.length == budget]
        route = exact[0] if exact else rng.choice(options)
        give_routes(game, seat, [route.id])
        reached.update(p for p in route.ends if p not in dead)
    # A budget no route could fill exactly is rounded off (from the kind most left).
    while sum(player.pieces.values()) > keep:
        most = max(player.pieces, key=lambda kind: player.pieces[kind])
        player.pieces[most] -= 1


def tickets_for(game: Game, seat: int, taken: set[int]) -> tuple[list[int], list[int]]:
    """The map's tickets (not yet held) that ``seat``'s network completes, and tickets
    with one end on it and the other off it (a ticket worth trying, not finished)."""
    state, rules = game.state, game.rules
    player = state.players[seat]
    on_network = {p for rid in player.routes for p in game.map.route_by_id[rid].ends}
    done, open_ = [], []
    for ticket in game.map.tickets:
        if ticket.id in taken or any(
            ticket.id in p.tickets for p in state.players if p is not player
        ):
            continue
        if len(ticket.cities) != 2:
            continue
        if rules.ticket_done(state, player, ticket.id):
            done.append(ticket.id)
        elif sum(bool(set(game.map.targets(c)) & on_network) for c in ticket.cities) == 1:
            open_.append(ticket.id)
    done.sort(key=lambda t: -game.map.ticket_by_id[t].points)
    open_.sort(key=lambda t: game.map.ticket_by_id[t].points)
    return done, open_


def clean_hands(game: Game, **learner: int) -> None:
    """The learner holds exactly ``learner``; the others hold a few plain cards (so that
    nobody's hand distracts from the step)."""
    set_hand(game, LEARNER, **learner)
