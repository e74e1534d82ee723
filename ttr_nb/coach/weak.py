"""Weak spots: what the loss of each planned route would cost, how few claims would cut
each ticket, and which routes the opponents' claims suggest they are heading for.

* **Losing a route.** For each route of the plan, the whole plan is made again as if
  an opponent had claimed it (with 2 or 3 players that also closes its other track):
  a minimum Steiner forest of every open ticket without it. The extra spaces are that
  plan's length minus the plan's (0: an equally short plan avoids the route), or the
  tickets no plan could complete any more. Each such plan is exact while the exact
  method's work stays within a shared budget; past it, the figure is the best of two
  upper bounds (the approximate forest, and the plan with only the tickets the route
  serves planned again, the rest of the plan kept) and is said to be at most that.
  When the plan itself is approximate, only the second is computed, and the figure
  is said to be about that.
* **Cuts.** For each open ticket, the fewest claims that would block it
  (:func:`~ttr_nb.algorithms.ticket_cut`, max-flow/min-cut): a ticket one claim can
  cut is fragile.
* **Opponents.** An opponent's tickets are hidden, but their claims are not. For every
  ticket they might hold (any ticket the seat does not hold itself), a shortest path
  with their routes counted free shows how much of it their network already covers;
  the tickets it covers best are the likeliest, and the routes still missing on those
  paths are where they seem to be heading. Where those routes are in the seat's plan,
  the seat is racing them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..algorithms import TicketUnreachableError, UnionFind, steiner_forest, ticket_cut
from ..algorithms.steiner import MAX_EXACT_WORK
from ..bots.greedy import plan_ticket_legs
from ..bots.inference import covered_share
from ..game import Game
from ..maps import Map
from .plan import Plan, TicketNote, ticket_name
from .view import board_of, demand_of, unavailable_to

__all__ = [
    "Heading",
    "RouteLoss",
    "TicketCutNote",
    "opponents_heading",
    "route_losses",
    "ticket_cuts",
]

CUT_TICKETS = 3  # tickets whose cuts are computed
LOSS_ROUTES = 12  # planned routes whose loss is computed (those serving most points)
# The exact method's work shared by the plans without each route, the routes serving most
# points first (past it, upper bounds): half an exact plan's worth. In bench games it gave
# the exact figure for 95-99% of the routes, the shown ones more; all of it, 97-99.6% for
# twice the time at the 95th percentile.
LOSS_WORK = MAX_EXACT_WORK // 2
GUESSED_TICKETS = 3  # likeliest tickets shown per opponent
MIN_COVER = 0.25  # a ticket their network covers less than this is no guess


@dataclass(frozen=True)
class RouteLoss:
    """What losing one planned route costs.

    Attributes
    ----------
    route : int
    extra : int or None
        The cheapest plan without the route minus the plan, in spaces (None: some
        ticket could not be completed any more). With ``exact`` False, an upper bound.
    impossible : tuple of TicketNote
        The tickets no plan could complete without the route.
    detour : tuple of int
        The routes of the plan without it that the plan does not have.
    tickets : tuple of TicketNote
        The tickets the route serves in the plan.
    exact : bool
        ``extra`` is exact (both plans exact); False: at most this many.
    """

    route: int
    extra: int | None
    impossible: tuple[TicketNote, ...]
    detour: tuple[int, ...]
    tickets: tuple[TicketNote, ...]
    exact: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The loss as plain JSON data."""
        return {
            "route": self.route,
            "extra_spaces": self.extra,
            "exact": self.exact,
            "impossible": [t.to_dict() for t in self.impossible],
            "detour": list(self.detour),
            "tickets": [t.id for t in self.tickets],
        }


@dataclass(frozen=True)
class TicketCutNote:
    """The fewest claims that would block a ticket, and the routes to claim."""

    ticket: TicketNote
    claims: float
    routes: tuple[int, ...]
    links: tuple[tuple[int, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The cut as plain JSON data (``claims`` is None when no claims can block it)."""
        claims = self.claims if self.claims != float("inf") else None
        return {
            "ticket": self.ticket.to_dict(),
            "claims": claims,
            "routes": list(self.routes),
            "links": [list(link) for link in self.links],
        }


@dataclass(frozen=True)
class Heading:
    """Where one opponent seems to be heading: the tickets their claims fit best (with
    the share of each already covered) and the routes still missing on them."""

    seat: int
    name: str
    tickets: tuple[tuple[int, float], ...]
    routes: tuple[int, ...]
    contested: tuple[int, ...]

    def to_dict(self, game_map: Map) -> dict[str, Any]:
        """The guess as plain JSON data, tickets named on ``game_map``."""
        return {
            "seat": self.seat + 1,
            "player": self.name,
            "tickets_guessed": [
                {"id": t, "name": ticket_name(game_map, t), "covered": round(c, 2)}
                for t, c in self.tickets
            ],
            "routes": list(self.routes),
            "contested": list(self.contested),
        }


def route_losses(view: Game, seat: int, plan: Plan) -> tuple[RouteLoss, ...]:
    """For each route of the plan (the ``LOSS_ROUTES`` serving most ticket points), what
    its loss to an opponent would cost (see the module text), dearest first (impossible
    tickets first of all).

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> from ttr_nb.coach.plan import my_plan
    >>> from ttr_nb.coach.view import seat_view
    >>> game = new_game("usa", 2, seed=3)
    >>> game.apply(game.legal_actions()[-1])
    >>> view = seat_view(game, 0)
    >>> plan = my_plan(view, 0)
    >>> losses = route_losses(view, 0, plan)
    >>> all(loss.extra is None or loss.extra >= 0 for loss in losses)
    True

    Notes
    -----
    One Steiner forest per route, each over all the seat's tickets; they share
    ``LOSS_WORK`` of the exact method's work (about 3^ends x places each), the routes
    serving most points first.
    """
    game_map = view.map
    board = board_of(game_map)
    tickets = plan.tickets  # the forest's demands, by index
    demands = [demand_of(game_map, t) for t in tickets]
    owned = frozenset(view.state.players[seat].routes)
    closes = view.num_players <= view.rules.closed_parallel_max_players
    serving: dict[int, list[int]] = {}
    for i, routes in plan.forest.needs.items():
        for rid in routes:
            serving.setdefault(rid, []).append(i)
    stake = {note.id: note.points + note.penalty for note in plan.reachable}

    def at_stake(rid: int) -> tuple[int, int]:
        return (-sum(stake.get(tickets[i], 0) for i in serving.get(rid, ())), rid)

    chosen = [r for r in sorted(plan.routes, key=at_stake)[:LOSS_ROUTES] if serving.get(r)]
    budget = LOSS_WORK
    cost = _exact_work(game_map, owned, [demands[i] for i in _open(plan)])
    planned = set(plan.routes)
    lost_before = set(plan.forest.unreachable)
    out = []
    for rid in chosen:
        served = serving[rid]
        unavailable = plan.unavailable | {rid, *(view.rules.parallel[rid] if closes else ())}
        spaces, routes, exact, impossible = math.inf, (), False, ()
        if plan.exact:
            again = steiner_forest(
                board,
                demands,
                owned=owned,
                unavailable=unavailable,
                dead_ends=game_map.dead_ends,
                max_exact_work=budget,
            )
            if again.exact:
                budget -= cost  # the routes serving most points first: shown first
            gone = [i for i in again.unreachable if i not in lost_before]
            impossible = tuple(TicketNote.of(game_map, tickets[i]) for i in gone)
            exact = again.exact
            spaces, routes = again.spaces, again.route_ids
        if not exact:
            # An upper bound: only the tickets the route serves planned again, the rest
            # of the plan counting as built (few places to join: cheap, and exact while
            # the plan's own method is).
            local = steiner_forest(
                board,
                [demands[i] for i in served],
                owned=owned | (planned - {rid}),
                unavailable=unavailable,
                dead_ends=game_map.dead_ends,
            )
            # Their reach is the same as in a whole new plan: every other ticket keeps
            # its own way, which does not pass the route.
            impossible = tuple(
                TicketNote.of(game_map, tickets[served[j]]) for j in local.unreachable
            )
            kept = plan.spaces - game_map.route_by_id[rid].length
            if not impossible and kept + local.spaces < spaces:
                spaces = kept + local.spaces
                routes = tuple(r for r in plan.routes if r != rid) + local.route_ids
        extra = None if impossible else max(0, spaces - plan.spaces)
        if extra == 0:
            exact = True  # no plan without the route is shorter than the plan with it
        out.append(
            RouteLoss(
                rid,
                extra,
                impossible,
                tuple(sorted((r for r in routes if r not in planned), key=_board_order(game_map))),
                tuple(TicketNote.of(game_map, tickets[i]) for i in served),
                exact,
            )
        )
    out.sort(key=lambda loss: (loss.extra is not None, -(loss.extra or 0), loss.route))
    return tuple(out)


def _open(plan: Plan) -> list[int]:
    """The indices of the plan's open tickets."""
    forest = plan.forest
    return [i for i in forest.needs if i not in forest.completed and i not in forest.unreachable]


def _exact_work(game_map: Map, owned: frozenset, demands: list) -> int:
    """About the exact method's work (3^ends x places) for these demands, as
    :func:`~ttr_nb.algorithms.steiner_forest` counts it: the places the seat's routes
    join count as one, and a dead end as one place per route into it."""
    pieces = UnionFind()
    dead = game_map.dead_ends
    keys: dict[str, list[Any]] = {}
    for route in game_map.routes:
        pair = [(p, route.id) if p in dead else p for p in route.ends]
        for place, key in zip(route.ends, pair, strict=True):
            keys.setdefault(place, []).append(key)
            pieces.find(key)
        if route.id in owned:
            pieces.union(pair[0], pair[1])
    ends = {
        frozenset(pieces.find(k) for p in end for k in keys.get(p, ()))
        for demand in demands
        for end in demand
    }
    return 3 ** len(ends) * pieces.count()


def _board_order(game_map: Map) -> Any:
    """Routes in board order (a sort key)."""
    order = {r.id: i for i, r in enumerate(game_map.routes)}
    return order.__getitem__


def ticket_cuts(view: Game, seat: int, plan: Plan) -> tuple[TicketCutNote, ...]:
    """The fewest claims that would block each open two-place ticket, fewest first (the
    ``CUT_TICKETS`` tickets with most at stake: a max-flow each is not free)."""
    game_map = view.map
    owned = view.state.players[seat].routes
    out = []
    at_stake = sorted(plan.reachable, key=lambda t: (-(t.points + t.penalty), t.id))
    for note in at_stake[:CUT_TICKETS]:
        cities = game_map.ticket_by_id[note.id].cities
        if len(cities) != 2:
            continue  # a tour: blocking it means cutting any of its legs
        cut = ticket_cut(
            board_of(game_map),
            game_map.targets(cities[0]),
            game_map.targets(cities[1]),
            owned=owned,
            unavailable=plan.unavailable,
            players=view.num_players,
            dead_ends=game_map.dead_ends,
        )
        if cut.size != float("inf"):
            out.append(TicketCutNote(note, cut.size, cut.route_ids, cut.links))
    out.sort(key=lambda c: (c.claims, c.ticket.id))
    return tuple(out)


@cache
def _alone_path(game_map: Map, ticket_id: int) -> tuple[frozenset[int], frozenset[str]]:
    """The routes of a ticket's shortest path on the empty board, and its end places."""
    ticket = game_map.ticket_by_id[ticket_id]
    ends = frozenset(p for c in ticket.cities for p in game_map.targets(c))
    try:
        routes = _missing_routes(game_map, ticket_id, frozenset(), frozenset())
    except TicketUnreachableError:
        routes = []
    return frozenset(routes), ends


def _missing_routes(
    game_map: Map, ticket_id: int, owned: frozenset, unavailable: frozenset
) -> list[int]:
    return plan_ticket_legs(game_map, ticket_id, owned, unavailable)[1]


def opponents_heading(view: Game, seat: int, plan: Plan) -> tuple[Heading, ...]:
    """For each opponent with claims, the tickets their network fits best and the routes
    still missing on those tickets' paths (see the module text)."""
    game_map = view.map
    state = view.state
    mine = set(state.players[seat].tickets) | set(state.players[seat].offer)
    candidates = [t.id for t in game_map.tickets if t.id not in mine]
    planned = set(plan.routes)
    out = []
    for other, player in enumerate(state.players):
        if other == seat or not player.routes:
            continue
        owned = frozenset(player.routes)
        closed = unavailable_to(view, other)
        places = {end for rid in owned for end in game_map.route_by_id[rid].ends}
        scored = []
        for ticket_id in candidates:
            path, ends = _alone_path(game_map, ticket_id)
            if owned.isdisjoint(path) and places.isdisjoint(ends):
                continue  # their network neither touches its ends nor its shortest path
            covered = covered_share(game_map, ticket_id, owned, closed)
            if covered is None or covered == 1.0:
                continue  # out of their reach, or done already: no sign of where they go
            if covered >= MIN_COVER:
                scored.append((covered, game_map.ticket_by_id[ticket_id].points, ticket_id))
        scored.sort(reverse=True)
        guesses = [(t, c) for c, _, t in scored[:GUESSED_TICKETS]]
        routes: list[int] = []
        for ticket_id, _ in guesses:
            for rid in _missing_routes(game_map, ticket_id, owned, closed):
                if rid not in routes:
                    routes.append(rid)
        contested = tuple(r for r in routes if r in planned)
        out.append(Heading(other, player.name, tuple(guesses), tuple(routes), contested))
    return tuple(out)
