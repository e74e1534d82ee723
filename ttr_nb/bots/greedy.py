"""Computer players. A bot looks at a game and returns one legal action.

The greedy bot is generic; what it knows about a variant comes from that variant's
module ``ttr_nb.bots.variants.<rules>`` (found by the map's rules name), which may define
``advise`` (the variant's own moves), ``claim_bonus`` (what a claim is worth beyond
its route points), ``claim_ok`` (whether a claim is worth trying now) and ``ticket_draw``
(which of several ticket draws to make).
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from heapq import heappop, heappush
from types import ModuleType
from typing import Any, Protocol

from ..actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from ..algorithms import TicketPlanner, TicketUnreachableError
from ..game import Game
from ..maps import Map


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Any:
        """The action this bot plays in ``game``, one of ``game.legal_actions()``."""


@dataclass(frozen=True)
class Reason:
    """Why a bot chose its last move, in terms a coach can put into words.

    Attributes
    ----------
    kind : str
        ``only move``, ``keep``, ``variant``, ``plan claim``, ``draw tickets``,
        ``late claim``, ``hand claim`` (a large hand, a route shortening the plans),
        ``cash in`` (a large hand, a route worth points), ``card for plan``,
        ``blind draw``, ``any draw``, ``any claim``, ``random``, ``mistake`` (the
        beginner bot's random move).
    tickets : tuple of int
        The tickets the move serves (a claim on their plans, tickets kept).
    routes : tuple of int
        The routes the move is for (the route claimed, the routes a card is drawn for).
    detail : str
        A variant move's own words; the colours wanted for a card draw.
    """

    kind: str
    tickets: tuple[int, ...] = ()
    routes: tuple[int, ...] = ()
    detail: str = ""


# A sensible hand: with HAND_LIMIT cards or more and no planned route it can pay for,
# the greedy bot claims a route that shortens its plans (another way to its tickets);
# with CASH_IN cards or more, any route its spare pieces allow. Measured against the
# bot without these rules (tools/bot_habits.py, 60 games a map): the largest hand
# fell from a median of 24-29 cards (at most 66) to about 16-20 (at most 21), and
# it won 48-62 % of the games against its old self.
HAND_LIMIT = 14
CASH_IN = 20


class RandomBot:
    """Picks uniformly among the legal actions, with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.last: Reason | None = None

    def choose(self, game: Game) -> Any:
        """A legal action drawn at random."""
        legal = game.legal_actions()
        count = len(legal)
        reason = _RANDOM_REASONS.get(count)
        if reason is None:  # reasons are immutable: one per number of legal moves is shared
            reason = _RANDOM_REASONS[count] = Reason("random", detail=str(count))
        self.last = reason
        return self.rng.choice(legal)


_RANDOM_REASONS: dict[int, Reason] = {}


Advice = Callable[["GreedyBot", Game, list[Any]], Any]


@cache
def variant_module(rules_name: str) -> ModuleType | None:
    """The module ``ttr_nb.bots.variants.<rules>`` with the greedy bot's variant logic, or None."""
    module = f"{__package__}.variants.{rules_name}"
    if importlib.util.find_spec(module) is None:
        return None
    return importlib.import_module(module)


def variant_hook(rules_name: str, name: str) -> Callable[..., Any] | None:
    """Function ``name`` of the variant's bot module, or None when it has none."""
    module = variant_module(rules_name)
    hook: Callable[..., Any] | None = getattr(module, name, None) if module else None
    return hook


def variant_advice(rules_name: str) -> Advice | None:
    """The greedy bot's variant-only moves: ``advise`` of ``ttr_nb.bots.variants.<rules>``.

    A variant with moves of its own (harbors, supplies, passengers, ...) puts its bot
    logic in such a module, so this file stays generic; None when there is none.
    """
    return variant_hook(rules_name, "advise")


class GreedyBot:
    """Plans each open ticket by shortest path and claims the routes on those plans.

    Each turn: keep the tickets that are cheapest to finish; claim the longest
    affordable route that lies on a ticket plan; otherwise take face-up cards
    in the colours (and of the decks) those routes need, else draw blind from the
    deck they need most; with every ticket done and pieces to spare, draw new
    tickets; late in the game, claim whatever scores most. It keeps a sensible hand:
    holding ``HAND_LIMIT`` cards and unable to pay for a planned route, it claims a
    route that shortens its plans, and from ``CASH_IN`` cards any route its spare
    pieces allow (cards that wait for a colour that does not come score nothing). A
    variant's own moves come from :func:`variant_advice` first; a claim is worth its
    route points plus
    the variant's ``claim_bonus`` (Germany: its passengers), and the variant's
    ``ticket_draw`` picks among several ticket draws (Germany: the short/long mix).

    After each move, :attr:`last` holds the :class:`Reason` for it (for the coach).
    """

    name = "greedy"
    hand_limit = HAND_LIMIT
    cash_in = CASH_IN

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        # (position, wanted routes, route -> the tickets whose plans use it)
        self._plans: tuple[Any, set[int], dict[int, tuple[int, ...]]] = ((), set(), {})
        self._plans_game: Game | None = None
        self._unavailable: set[int] = set()
        self.last: Reason | None = None
        self._cash_in_now = self.cash_in

    def choose(self, game: Game) -> Any:
        """The greedy bot's action (its reason is kept in :attr:`last`)."""
        action, self.last = self.decide(game)
        return action

    def decide(self, game: Game) -> tuple[Any, Reason]:
        """The move to play and the reason for it."""
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0], Reason("only move")
        me = game.current_player
        state = game.state
        if state.pending == "keep_tickets":
            keep = self._keep(game, legal)
            return keep, Reason("keep", tickets=tuple(keep.tickets))
        advice = variant_advice(game.rules.name)
        if advice is not None:
            action = advice(self, game, legal)
            if action is not None:
                explain = variant_hook(game.rules.name, "explain")
                detail = explain(game, action) if explain is not None else ""
                return action, Reason("variant", detail=detail or game.describe(action))
        wanted = self.wanted_routes(game, me)
        serves = self._plans[2]
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        worth_trying = variant_hook(game.rules.name, "claim_ok")
        if worth_trying is not None:  # Europe: a tunnel the hand is unlikely to afford waits
            claims = [a for a in claims if worth_trying(game, a)]
        on_plan = [a for a in claims if a.route in wanted]
        if on_plan:
            claim = self._best_claim(game, on_plan)
            return claim, Reason("plan claim", serves.get(claim.route, ()), (claim.route,))
        if state.pending is None:
            pieces = sum(state.players[me].pieces.values())
            open_tickets = not wanted and any(isinstance(a, DrawTickets) for a in legal)
            if open_tickets and pieces > 12:
                draws = [a for a in legal if isinstance(a, DrawTickets)]
                pick = variant_hook(game.rules.name, "ticket_draw")
                return (pick(game, draws) if pick is not None else draws[0]), Reason("draw tickets")
            late = state.final_turns_left is not None or pieces <= 12 or not wanted
            if claims and late:
                claim = self._best_claim(game, claims)
                return claim, Reason("late claim", routes=(claim.route,))
        limit, self._cash_in_now = self.hand_limits(game)
        if state.pending is None and claims and self._paying_cards(game, me) >= limit:
            found = self._hand_claim(game, me, claims, wanted)
            if found is not None:
                return found
        routes = [game.map.route_by_id[r] for r in wanted]
        needed = {(r.kind, r.color) for r in routes}
        # The deck whose cards the plans need most (a map with one deck: that deck).
        spaces = Counter({kind: 0 for kind in game.rules.deck_names})
        spaces.update({r.kind: r.length for r in routes})
        decks = sorted(spaces, key=lambda d: -spaces[d])
        for action in sorted(
            (a for a in legal if isinstance(a, DrawFaceUp)),
            key=lambda a: decks.index(a.refill) if a.refill in decks else len(decks),
        ):
            card = game.rules.cards[state.face_up[action.slot]]
            if (card.deck, card.color) in needed or (card.wild and state.pending is None):
                for_routes = tuple(
                    r.id
                    for r in routes
                    if card.wild or (r.kind, r.color) == (card.deck, card.color)
                )
                tickets = tuple(sorted({t for r in for_routes for t in serves.get(r, ())}))
                return action, Reason("card for plan", tickets, for_routes, card.color)
        blind = [a for a in legal if isinstance(a, DrawBlind)]
        if blind:
            pick = min(blind, key=lambda a: decks.index(a.deck) if a.deck in decks else 99)
            return pick, Reason("blind draw", routes=tuple(sorted(wanted)), detail=pick.deck)
        draws = [a for a in legal if isinstance(a, DrawFaceUp)]
        if draws:
            return self.rng.choice(draws), Reason("any draw")
        if claims:
            claim = self._best_claim(game, claims)
            return claim, Reason("any claim", routes=(claim.route,))
        others = [a for a in legal if not isinstance(a, Pass)]
        return self.rng.choice(others or legal), Reason("random")

    def _plan_cost(
        self,
        game: Game,
        me: int,
        ticket_id: int,
        unavailable: set[int],
        also_owned: int | None = None,
    ) -> Any:
        ticket = game.map.ticket_by_id[ticket_id]
        owned = set(game.state.players[me].routes)
        if also_owned is not None:
            owned.add(also_owned)
        try:
            return plan_ticket_legs(game.map, ticket.id, owned, unavailable)
        except TicketUnreachableError:
            return None

    def wanted_routes(self, game: Game, me: int) -> set[int]:
        """Routes still to claim on the plans of the player's open tickets (remembered
        for the position, since a turn may ask more than once)."""
        # The game object itself (compared by identity), not its id(): a search's play-out
        # worlds come and go, and a new one may get a freed one's id and its stale plans.
        position = (len(game.history), me)
        if self._plans_game is game and self._plans[0] == position:
            return set(self._plans[1])
        unavailable = unavailable_routes(game, me)
        self._unavailable = unavailable  # the same position's large-hand rule reads it again
        wanted: set[int] = set()
        serves: dict[int, tuple[int, ...]] = {}
        for ticket_id, done in game.ticket_status(me):
            if done:
                continue
            plan = self._plan_cost(game, me, ticket_id, unavailable)
            if plan is not None:
                wanted.update(plan[1])
                for rid in plan[1]:
                    serves[rid] = (*serves.get(rid, ()), ticket_id)
        self._plans = (position, set(wanted), serves)
        self._plans_game = game
        return wanted

    def _keep(self, game: Game, legal: list[Any]) -> Any:
        me = game.current_player
        unavailable = unavailable_routes(game, me)
        offer = game.state.players[me].offer
        cost = {}
        for t in offer:
            plan = self._plan_cost(game, me, t, unavailable)
            cost[t] = plan[0] if plan is not None else 10**6
        budget = sum(game.state.players[me].pieces.values()) * 0.6
        keeps = [a for a in legal if isinstance(a, KeepTickets)]

        def value(action: KeepTickets) -> tuple[float, int]:
            spaces = sum(cost[t] for t in action.tickets)
            points = sum(game.map.ticket_by_id[t].points for t in action.tickets)
            return (-max(0.0, spaces - budget) * 3 + points - spaces * 0.5, -len(action.tickets))

        return max(keeps, key=value)

    def _hand_claim(
        self, game: Game, me: int, claims: list[ClaimRoute], wanted: set[int]
    ) -> tuple[ClaimRoute, Reason] | None:
        """With a large hand and no planned route it can pay for, a claim that turns cards
        into progress: the route that shortens its ticket plans most (an alternative way),
        else, with pieces to spare beyond the plans, of the routes most tickets' paths use
        (:func:`route_demand`) the one worth most."""
        same = self._plans_game is game and self._plans[0] == (len(game.history), me)
        unavailable = self._unavailable if same else unavailable_routes(game, me)
        open_tickets = [t for t, done in game.ticket_status(me) if not done]
        base = {}
        for t in open_tickets:
            plan = self._plan_cost(game, me, t, unavailable)
            if plan is not None:
                base[t] = plan[0]
        by_route: dict[int, list[ClaimRoute]] = {}
        for claim in claims:
            by_route.setdefault(claim.route, []).append(claim)
        best: tuple[int, int] | None = None
        best_route = None
        gains = self._claim_gains(game, me, list(base), base, list(by_route), unavailable)
        for rid in by_route:
            gain = gains[rid]
            key = (gain, game.map.route_by_id[rid].length)
            if gain > 0 and (best is None or key > best):
                best, best_route = key, rid
        serves = self._plans[2]
        if best_route is not None:
            claim = self._best_claim(game, self._sparing(game, by_route[best_route], wanted))
            tickets = tuple(sorted(base))
            return claim, Reason("hand claim", tickets, (claim.route,), str(best[0]))
        if self._paying_cards(game, me) < self._cash_in_now:
            return None
        pieces = sum(game.state.players[me].pieces.values())
        planned = sum(game.map.route_by_id[r].length for r in wanted)
        spare = [c for c in claims if pieces - game.map.route_by_id[c.route].length >= planned + 2]
        if not spare:
            return None
        # Of those, a route many tickets' shortest paths use: it may serve a ticket drawn
        # later, and it is in the others' way.
        demand = route_demand(game.map)
        busiest = max(demand.get(c.route, 0) for c in spare)
        spare = [c for c in spare if demand.get(c.route, 0) == busiest]
        claim = self._best_claim(game, self._sparing(game, spare, wanted))
        tickets = tuple(sorted({t for r in wanted for t in serves.get(r, ())}))
        return claim, Reason("cash in", tickets, (claim.route,))

    def _claim_gains(
        self,
        game: Game,
        me: int,
        tickets: list[int],
        base: dict[int, int],
        routes: list[int],
        unavailable: set[int],
    ) -> dict[int, int]:
        """Per route: the spaces that owning it would save the tickets' plans in all.

        Owning a route makes it free, so a leg's new length is the shorter of its old
        one and the way through the route: the distance from the leg's start to one end,
        plus the distance from the other end to the leg's finish. Two Dijkstra searches
        per leg give every route's saving, where a plan per route and ticket would take
        one search each (the same figures: the tests replay the recorded games).
        """
        game_map = game.map
        owned = set(game.state.players[me].routes)
        dead = game_map.dead_ends
        gains = dict.fromkeys(routes, 0)
        for t in tickets:
            cities = game_map.ticket_by_id[t].cities
            legs = []
            for a, b in zip(cities, cities[1:], strict=False):
                sources, targets = game_map.targets(a), game_map.targets(b)
                legs.append(
                    (
                        _distances(game_map, sources, owned, unavailable, dead),
                        _distances(game_map, targets, owned, unavailable, dead),
                        sources,
                        targets,
                    )
                )
            old_legs = [min((ds.get(n, _FAR) for n in tg), default=_FAR) for ds, _, _, tg in legs]
            for rid in routes:
                route = game_map.route_by_id[rid]
                total = 0
                for (ds, dt, sources, targets), old in zip(legs, old_legs, strict=True):
                    new = old
                    for u, v in ((route.a, route.b), (route.b, route.a)):
                        # u is left and v entered through the route: neither may be a
                        # dead end in the middle of the way.
                        if (u in dead and u not in sources) or (v in dead and v not in targets):
                            continue
                        new = min(new, ds.get(u, _FAR) + dt.get(v, _FAR))
                    total += new
                if total < base[t]:
                    gains[rid] += base[t] - total
        return gains

    def hand_limits(self, game: Game) -> tuple[int, int]:
        """(HAND_LIMIT, CASH_IN) for this game: a variant's module may set its own
        ``HAND_LIMITS`` (World: harbors want a larger hand)."""
        module = variant_module(game.rules.name)
        return getattr(module, "HAND_LIMITS", (self.hand_limit, self.cash_in))

    @staticmethod
    def _paying_cards(game: Game, me: int) -> int:
        """Cards in hand that can pay for routes (Märklin's Passenger cards cannot)."""
        cards = game.rules.cards
        return sum(n for cid, n in game.state.players[me].hand.items() if not cards[cid].passenger)

    def _sparing(self, game: Game, claims: list[ClaimRoute], wanted: set[int]) -> list[ClaimRoute]:
        """The claims that spend no card of a colour the planned routes need (all of them
        when every claim does)."""
        needed = {game.map.route_by_id[r].color for r in wanted}
        cards = game.rules.cards
        spare = [
            c
            for c in claims
            if not any(cards[cid].color in needed and not cards[cid].wild for cid, _ in c.cards)
        ]
        return spare or claims

    def _best_claim(self, game: Game, claims: list[ClaimRoute]) -> ClaimRoute:
        wild = set(game.rules.wild_ids)
        bonus = variant_hook(game.rules.name, "claim_bonus")

        def value(action: ClaimRoute) -> tuple[float, int]:
            route = game.map.route_by_id[action.route]
            wilds = sum(n for card, n in action.cards if card in wild)
            points = game.map.route_points(route.length)
            if bonus is not None:
                points += bonus(game, action)
            return (points, -wilds)

        return max(claims, key=value)


class BeginnerBot(GreedyBot):
    """A bot a beginner can beat: the greedy bot's plans, but on about one turn in three
    (``mistakes``) it draws or claims at random instead (never a ticket draw, so it is
    not buried in tickets). It follows every rule and completes some of its tickets."""

    name = "beginner"

    def hand_limits(self, game: Game) -> tuple[int, int]:
        return (10**6, 10**6)  # it lets its hand grow, as beginners do

    def __init__(self, seed: int = 0, mistakes: float = 0.35) -> None:
        super().__init__(seed)
        self.mistakes = mistakes

    def decide(self, game: Game) -> tuple[Any, Reason]:
        state = game.state
        turn = state.phase == "play" and state.pending in (None, "second_card")
        if turn and self.rng.random() < self.mistakes:
            legal = game.legal_actions()
            moves = [a for a in legal if type(a) in (DrawFaceUp, DrawBlind, ClaimRoute)]
            if len(moves) > 1:
                return self.rng.choice(moves), Reason("mistake")
        return super().decide(game)


def unavailable_routes(game: Game, me: int) -> set[int]:
    """Routes ``me`` can no longer use: claimed by others, or closed to ``me`` (a double
    route's other track taken, too few pieces left)."""
    state = game.state
    open_ids = {r.id for r in game.rules.claimable_routes(state, me)}
    return {
        r.id
        for r in game.map.routes
        if state.owner.get(r.id, me) != me or (r.id not in state.owner and r.id not in open_ids)
    }


_FAR = 10**9


def _distances(
    game_map: Map, sources: frozenset, owned: set, unavailable: set, dead: frozenset
) -> dict[str, int]:
    """Fewest spaces to claim from `sources` to every place (owned routes free, the
    unavailable ones left out; a dead end is reached but never passed through)."""
    arcs = board_planner(game_map).arcs
    dist: dict[str, int] = {}
    fringe = [(0, place) for place in sorted(sources)]
    while fringe:
        d, u = heappop(fringe)
        if u in dist:
            continue
        dist[u] = d
        if u in dead and u not in sources:
            continue
        for v, route_id, length in arcs.get(u, ()):
            if v in dist:
                continue
            if route_id in owned:
                heappush(fringe, (d, v))
            elif route_id not in unavailable:
                heappush(fringe, (d + length, v))
    return dist


@cache
def route_demand(game_map: Map) -> dict[int, int]:
    """How many of the map's tickets have a route (or a track beside it) on their shortest
    path on the empty board: a one-path-per-ticket *ticket betweenness* of the routes."""
    planner = board_planner(game_map)
    count: Counter[int] = Counter()
    for ticket in game_map.tickets:
        for a, b in zip(ticket.cities, ticket.cities[1:], strict=False):
            try:
                plan = planner.plan(
                    game_map.targets(a), game_map.targets(b), dead_ends=game_map.dead_ends
                )
            except TicketUnreachableError:
                continue
            for rid in plan.route_ids:
                for track in (rid, *game_map.parallel(game_map.route_by_id[rid])):
                    count[track] += 1
    return dict(count)


@cache
def board_planner(game_map: Map) -> TicketPlanner:
    """The :class:`~ttr_nb.algorithms.TicketPlanner` of a map's board (built once)."""
    return TicketPlanner((r.id, r.a, r.b, r.length) for r in game_map.routes)


def plan_ticket_legs(
    game_map: Map, ticket_id: int, owned: Any = frozenset(), unavailable: Any = frozenset()
) -> tuple[int, list[int]]:
    """Spaces and routes still to claim for one ticket on its own: each pair of
    consecutive places on it (a tour has several) joined by a shortest path, the
    ``owned`` routes free and the ``unavailable`` ones left out.

    Raises
    ------
    TicketUnreachableError
        When a pair of places cannot be joined any more.
    """
    planner = board_planner(game_map)
    cities = game_map.ticket_by_id[ticket_id].cities
    spaces, routes = 0, []
    for a, b in zip(cities, cities[1:], strict=False):
        plan = planner.plan(
            game_map.targets(a),
            game_map.targets(b),
            owned=owned,
            unavailable=unavailable,
            dead_ends=game_map.dead_ends,
        )
        spaces += plan.spaces
        routes.extend(r for r in plan.route_ids if r not in owned)
    return spaces, routes
