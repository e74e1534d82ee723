"""Two agents of the playtesting study of de Mesentier Silva, Lee, Togelius and Nealen
(2017), as our bots.

:class:`RouteFocusBot` plays like its **Route Focus** agent (``PathAgent`` in the study's
public code, fernandomsilva/Balance-In-Games): it keeps every ticket it is dealt, and each
turn it looks, for every ticket not yet joined, at a path with the fewest routes over its
own and the open routes; it queues the routes of those paths by their points plus twice
the ticket's points and claims the first it can pay for, else draws a card for the
first. With every ticket joined it queues every open route, the *shortest* first (the
study's queue hands out its lowest values first). It never draws tickets. This is the
agent whose 10,000 games against itself make the study's published figures.

:class:`LongRouteBot` is our greedy bot with the habits of its **Long Route** agent
(``LongRouteJunkieAgent``): it plans its tickets over routes of 3 spaces or more where it
can, never draws more tickets, and otherwise claims the longest route it can.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ..actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from ..algorithms import TicketUnreachableError
from ..game import Game
from ..maps import Map, Route
from .greedy import GreedyBot, Reason, plan_ticket_legs, unavailable_routes

__all__ = ["LONG_ROUTE", "LongRouteBot", "RouteFocusBot", "fewest_routes_path"]

LONG_ROUTE = 3  # the Long Route agent plans over routes of at least 3 spaces when it can

_ADJACENT: dict[int, tuple[Map, dict[str, list[Route]]]] = {}


def _routes_at(game_map: Map) -> dict[str, list[Route]]:
    """Each place's routes, in the map's order (built once a map)."""
    known = _ADJACENT.get(id(game_map))
    if known is None or known[0] is not game_map:
        at: dict[str, list[Route]] = {c.id: [] for c in game_map.cities}
        for route in game_map.routes:
            at[route.a].append(route)
            at[route.b].append(route)
        known = _ADJACENT[id(game_map)] = (game_map, at)
    return known[1]


def fewest_routes_path(
    game_map: Map, start: str, goal: str, usable: set[int]
) -> list[Route] | None:
    """A path from ``start`` to ``goal`` with the fewest routes (not the fewest spaces),
    over the routes ``usable``: the breadth-first search of the study's agent. None when
    the places are not joined.

    >>> from ttr_nb.maps import load_map
    >>> usa = load_map("usa")
    >>> path = fewest_routes_path(usa, "el-paso", "houston", {r.id for r in usa.routes})
    >>> [(r.a, r.b, r.length) for r in path]
    [('el-paso', 'houston', 6)]
    """
    if start == goal:
        return []
    at = _routes_at(game_map)
    came: dict[str, Route | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for route in at[here]:
            if route.id not in usable:
                continue
            there = route.b if route.a == here else route.a
            if there in came:
                continue
            came[there] = route
            if there == goal:
                path = []
                while there != start:
                    step = came[there]
                    path.append(step)
                    there = step.a if step.b == there else step.b
                return path[::-1]
            queue.append(there)
    return None


class RouteFocusBot:
    """The study's Route Focus agent (see the module's text).

    Where the study's code leaves a choice open we say what we do: ties in its queue go to
    the earlier route in our map's order; a claim pays in the colour the hand holds most
    of (as the study's does), with the fewest locomotives. Its cards come from the deck,
    never the face-up row: the study's agent means to take a face-up card of the colour
    it wants, but its code compares ``"RED"`` with ``"red"``, so it always draws blind.
    When it can neither claim nor draw, it plays a random legal move, as the study's does.
    (Where the study's agent cannot pay for a route in the colour it holds most of, its
    code returns no move and the game is abandoned; ours pays with another colour.)

    >>> from ttr_nb.bots import play_out
    >>> from ttr_nb.game import new_game
    >>> game = play_out(new_game("usa", players=2, seed=3), [RouteFocusBot(1), RouteFocusBot(2)])
    >>> game.is_over
    True
    """

    name = "route"

    def __init__(self, seed: int = 0) -> None:
        import random

        self.rng = random.Random(seed)
        self.last: Reason | None = None

    def choose(self, game: Game) -> Any:
        """The Route Focus agent's action (its reason is kept in :attr:`last`)."""
        action, self.last = self.decide(game)
        return action

    def queue(self, game: Game, me: int) -> list[tuple[Route, tuple[int, ...]]]:
        """The routes the agent wants, first wanted first, each with the tickets it serves."""
        state = game.state
        game_map = game.map
        player = state.players[me]
        open_routes = {r.id for r in game.rules.claimable_routes(state, me)}
        owned = set(player.routes)
        usable = open_routes | owned
        trains = player.pieces.get("train", 0)
        wanted: dict[int, tuple[int, set[int]]] = {}  # route -> (priority, tickets)
        for ticket_id in player.tickets:
            if game.rules.ticket_done(state, player, ticket_id):
                continue
            ticket = game_map.ticket_by_id[ticket_id]
            a, b = ticket.cities[:2]
            path = fewest_routes_path(game_map, a, b, usable)
            for route in path or ():
                if route.id in owned or route.length >= trains:
                    continue  # the study's agent looks only at routes shorter than its trains
                value = game_map.route_points(route.length) + 2 * ticket.points
                old, serves = wanted.get(route.id, (value, set()))
                wanted[route.id] = (max(old, value), serves | {ticket_id})
        if wanted:
            order = sorted(wanted, key=lambda r: (-wanted[r][0], r))
            return [(game_map.route_by_id[r], tuple(sorted(wanted[r][1]))) for r in order]
        spare = [game_map.route_by_id[r] for r in open_routes]
        spare = [r for r in spare if r.length < trains]
        spare.sort(key=lambda r: (game_map.route_points(r.length), r.id))
        return [(r, ()) for r in spare]

    def _colour(self, game: Game, me: int, route: Route) -> str:
        """The card the agent collects for ``route``: of the colours that fit it, the one
        its hand holds most of."""
        hand = game.state.players[me].hand
        fitting = [c for c in game.map.card_types if not c.wild and game.rules.card_fits(c, route)]
        best = max(fitting, key=lambda c: hand.get(c.id, 0), default=None)
        return best.id if best is not None else ""

    def decide(self, game: Game) -> tuple[Any, Reason]:
        """The move to play and the reason for it."""
        legal = game.legal_actions()
        state = game.state
        me = game.current_player
        if state.pending == "keep_tickets":
            keeps = [a for a in legal if isinstance(a, KeepTickets)]
            keep = max(keeps, key=lambda a: len(a.tickets))  # it keeps every ticket dealt
            return keep, Reason("keep", tickets=tuple(keep.tickets))
        if len(legal) == 1:
            return legal[0], Reason("only move")
        queue = self.queue(game, me)
        claims: dict[int, list[ClaimRoute]] = {}
        for action in legal:
            if isinstance(action, ClaimRoute):
                claims.setdefault(action.route, []).append(action)
        wild = set(game.rules.wild_ids)
        for route, tickets in queue:
            options = claims.get(route.id)
            if not options:
                continue
            colour = self._colour(game, me, route)

            def payment(action: ClaimRoute, colour: str = colour) -> tuple[int, int]:
                held = sum(n for card, n in action.cards if card == colour)
                wilds = sum(n for card, n in action.cards if card in wild)
                return (held, -wilds)

            claim = max(options, key=payment)
            kind = "plan claim" if tickets else "any claim"
            return claim, Reason(kind, tickets, (route.id,))
        # The study's agent means to take a face-up card of the colour it wants, but its
        # code compares "RED" with "red": in fact it always draws from the deck.
        blind = [a for a in legal if isinstance(a, DrawBlind)]
        if blind:
            detail = self._colour(game, me, queue[0][0]) if queue else ""
            return blind[0], Reason(
                "blind draw", routes=tuple(r.id for r, _ in queue[:1]), detail=detail
            )
        draws = [a for a in legal if isinstance(a, DrawFaceUp)]
        wilds = [a for a in draws if state.face_up[a.slot] in wild]
        if wilds or draws:  # the deck is empty: a locomotive first, as the study's agent
            return (wilds or draws)[0], Reason("any draw")
        others = [a for a in legal if not isinstance(a, DrawTickets | Pass)]
        if others:
            return self.rng.choice(others), Reason("random")
        return legal[0], Reason("only move")


class LongRouteBot(GreedyBot):
    """Our greedy bot with the study's Long Route habits: plans its tickets over long
    routes, keeps as few tickets as it may, never draws more, and claims the longest route
    it can when no plan needs a claim.

    >>> from ttr_nb.bots import play_out
    >>> from ttr_nb.game import new_game
    >>> game = play_out(new_game("usa", players=2, seed=3), [LongRouteBot(1), LongRouteBot(2)])
    >>> game.is_over
    True
    """

    name = "long-route"

    def _plan_cost(self, game, me, ticket_id, unavailable, also_owned=None):
        owned = set(game.state.players[me].routes)
        if also_owned is not None:
            owned.add(also_owned)
        short = {r.id for r in game.map.routes if r.length < LONG_ROUTE and r.id not in owned}
        for avoid in (unavailable | short, unavailable):
            try:
                return plan_ticket_legs(game.map, ticket_id, owned, avoid)
            except TicketUnreachableError:  # try again with the short routes too
                continue
        return None

    def _keep(self, game: Game, legal: list[Any]) -> Any:
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        fewest = min(len(a.tickets) for a in keeps)
        me = game.current_player
        unavailable = unavailable_routes(game, me)

        def value(action: KeepTickets) -> float:
            total = 0.0
            for t in action.tickets:
                plan = self._plan_cost(game, me, t, unavailable)
                spaces = plan[0] if plan is not None else 99
                total += game.map.ticket_by_id[t].points / max(spaces, 1)
            return total

        return max((a for a in keeps if len(a.tickets) == fewest), key=value)

    def decide(self, game: Game) -> tuple[Any, Reason]:
        action, reason = super().decide(game)
        if not isinstance(action, DrawTickets):
            return action, reason
        legal = game.legal_actions()
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        if claims:
            longest = max(game.map.route_by_id[a.route].length for a in claims)
            claim = self._best_claim(
                game, [a for a in claims if game.map.route_by_id[a.route].length == longest]
            )
            return claim, Reason("any claim", routes=(claim.route,))
        blind = [a for a in legal if isinstance(a, DrawBlind)]
        if blind:
            return blind[0], Reason("blind draw", detail=blind[0].deck)
        return action, reason
