"""A route-focused bot, after the Route Focused agent of de Mesentier Silva et al. (2017).

Their agent (``LongRouteJunkieAgent`` in fernandomsilva/Ticket-to-Ride-Engine) keeps the
tickets it is dealt, plans them over routes of 3 spaces or more where it can, never
draws more tickets, and otherwise claims the longest route it can: route points are its
aim, tickets a side line. :class:`RouteBot` is the greedy bot with those habits.
"""

from __future__ import annotations

from typing import Any

from ..actions import ClaimRoute, DrawBlind, DrawTickets, KeepTickets
from ..algorithms import TicketUnreachableError
from ..game import Game
from .greedy import GreedyBot, Reason, plan_ticket_legs, unavailable_routes

__all__ = ["LONG_ROUTE", "RouteBot"]

LONG_ROUTE = 3  # the paper's agent plans over routes of at least 3 spaces when it can


class RouteBot(GreedyBot):
    """Plans its tickets over long routes, keeps as few tickets as it may, never draws
    more, and claims the longest route it can when no plan needs a claim.

    >>> from ttr_nb.bots import play_out
    >>> from ttr_nb.game import new_game
    >>> game = play_out(new_game("usa", players=2, seed=3), [RouteBot(1), RouteBot(2)])
    >>> game.is_over
    True
    """

    name = "route"

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
