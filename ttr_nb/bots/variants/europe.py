"""What the greedy bot does differently on Europe: tunnels, stations and their borrowed routes.

:class:`~ttr_nb.bots.GreedyBot` finds this module by the map's rules name. Heuristic:

* **Tunnels.** A claim of a tunnel is worth its points less the extra cards it is
  expected to cost beyond what the hand can spare (:func:`claim_bonus`, with the odds of
  :mod:`ttr_nb.rules.europe_tunnels`), so of two planned routes the bot prefers the sure
  one; it tries a tunnel only when the cards it holds besides the payment cover the
  extra cards with a chance of ``MIN_TUNNEL_ODDS`` (:func:`claim_ok`; in the last round,
  always). When the turned-up cards ask for more, it pays with the fewest locomotives;
  it gives up only when it cannot pay.
* **Stations.** When a ticket can no longer be completed with the bot's own routes but
  one opponent's route would complete it now, it builds a station at an end of that
  route (paying with the cards its plans need least, locomotives last). A station costs
  4 points at the end, so it is built only for a ticket worth at least
  ``MIN_RESCUE_POINTS``.
* **The end.** Each station borrows the route that completes the most ticket points
  (:func:`~ttr_nb.rules.europe_stations.best_borrowing`, trying every choice).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...actions import ClaimRoute
from ...algorithms import TicketUnreachableError
from ...rules.europe import BORROW, LEFT, STATIONS, TUNNEL, EuropeRules
from ...rules.europe_actions import BorrowRoutes, BuildStation, GiveUpTunnel, PayTunnel
from ...rules.europe_stations import best_borrowing
from ...rules.europe_tunnels import expected_extra, extra_card_odds, matching_unseen
from ..greedy import board_planner, unavailable_routes

if TYPE_CHECKING:
    from ...game import Game
    from ..greedy import GreedyBot

MIN_RESCUE_POINTS = 5  # a station (4 points and a turn) rescues tickets worth this or more
MIN_TUNNEL_ODDS = 0.6  # a tunnel is tried when the hand pays its extra cards this often
RISK_WEIGHT = 2.0  # points lost per extra card a tunnel is expected to need beyond the spare


def _rules(game: Game) -> EuropeRules:
    assert isinstance(game.rules, EuropeRules)
    return game.rules


def claim_bonus(game: Game, action: ClaimRoute) -> float:
    """Minus the expected shortfall of a tunnel claim: the extra cards it is expected to ask
    for beyond the matching cards (and locomotives) the hand holds besides the payment."""
    route = game.map.route_by_id[action.route]
    if not route.tunnel:
        return 0.0
    colour, spare = _spare(game, action)
    expected = expected_extra(*matching_unseen(game, game.state.current, colour))
    return -RISK_WEIGHT * max(0.0, expected - spare)


def claim_ok(game: Game, action: ClaimRoute) -> bool:
    """Is a claim worth trying now? Always, but for a tunnel whose extra cards the hand can
    pay with less than ``MIN_TUNNEL_ODDS`` chance (late in the game: always)."""
    route = game.map.route_by_id[action.route]
    if not route.tunnel or game.state.final_turns_left is not None:
        return True
    return tunnel_odds(game, action) >= MIN_TUNNEL_ODDS


def tunnel_odds(game: Game, action: ClaimRoute) -> float:
    """The chance, as the player sees it, that they can pay what a tunnel claim will ask."""
    rules = _rules(game)
    seat = game.state.current
    colour, spare = _spare(game, action)
    matching, unseen = matching_unseen(game, seat, colour)
    return sum(extra_card_odds(matching, unseen, rules.tunnel_cards)[: spare + 1])


def _spare(game: Game, action: ClaimRoute) -> tuple[str | None, int]:
    """The colour a claim pays in (None: locomotives alone) and the cards the hand holds
    besides the payment that could pay a tunnel's extra cards."""
    rules = _rules(game)
    hand = game.state.players[game.state.current].hand
    colour = next((c for c, _ in action.cards if c not in rules.wild_set), None)
    paid = dict(action.cards)
    spare = hand[rules.locomotive] - paid.get(rules.locomotive, 0)
    if colour is not None:
        spare += hand[colour] - paid.get(colour, 0)
    return colour, spare


def advise(bot: GreedyBot, game: Game, legal: list[Any]) -> Any | None:
    """A Europe-only move for the greedy bot, or None to let its generic plan decide."""
    pending = game.state.pending
    if pending == TUNNEL:
        pays = [a for a in legal if isinstance(a, PayTunnel)]
        return pays[0] if pays else GiveUpTunnel()  # listed fewest locomotives first
    if pending == BORROW:
        return best_borrow(game, legal)
    if pending is None:
        return rescue_station(bot, game, legal)
    return None


def best_borrow(game: Game, legal: list[Any]) -> BorrowRoutes:
    """The choice of borrowed routes that completes the most ticket points."""
    rules = _rules(game)
    state = game.state
    seat = state.current
    player = state.players[seat]
    tickets = [
        (*game.map.ticket_by_id[t].cities, game.map.ticket_by_id[t].points) for t in player.tickets
    ]
    own = [rules.route_ends[r] for r in player.routes]
    best = best_borrowing(own, tickets, rules.borrow_choices(state, seat), rules.route_ends)
    choice = BorrowRoutes(best.routes)
    return choice if choice in legal else legal[0]


def rescue(game: Game, seat: int) -> tuple[int, str] | None:
    """(ticket, city) for the most valuable ticket of ``seat`` that its own routes cannot
    complete any more but one opponent's route would complete now, with a city at an end
    of that route where ``seat`` may build a station; None when there is none."""
    rules = _rules(game)
    state = game.state
    player = state.players[seat]
    if not player.extras[LEFT]:
        return None
    stations = state.extras[STATIONS]
    mine = {c for c, s in stations.items() if s == seat}
    planner = board_planner(game.map)
    owned = set(player.routes)
    others = {r for r, s in state.owner.items() if s != seat}
    unavailable = unavailable_routes(game, seat)
    closed = unavailable - others
    best: tuple[int, int, str] | None = None
    for ticket_id, done in game.ticket_status(seat):
        if done:
            continue
        ticket = game.map.ticket_by_id[ticket_id]
        a, b = ticket.cities
        try:
            planner.plan(a, b, owned=owned, unavailable=unavailable)
            continue  # still reachable with the bot's own routes: no station needed
        except TicketUnreachableError:
            pass
        try:
            plan = planner.plan(a, b, owned=owned | others, unavailable=closed)
        except TicketUnreachableError:
            continue
        borrowed = [r for r in plan.route_ids if r in others]
        if plan.spaces or len(borrowed) != 1:
            continue
        ends = rules.route_ends[borrowed[0]]
        if mine & set(ends):
            continue  # a station of the bot's already reaches that route
        free = [c for c in ends if c not in stations]
        if free and (best is None or ticket.points > best[0]):
            best = (ticket.points, ticket_id, free[0])
    if best is None or best[0] < MIN_RESCUE_POINTS:
        return None
    return best[1], best[2]


def rescue_station(bot: GreedyBot, game: Game, legal: list[Any]) -> BuildStation | None:
    """A station that completes a blocked ticket (see :func:`rescue`), paid with the cards
    the bot's plans need least."""
    builds = [a for a in legal if isinstance(a, BuildStation)]
    if not builds:
        return None
    found = rescue(game, game.state.current)
    if found is None:
        return None
    city = found[1]
    here = [a for a in builds if a.city == city]
    if not here:
        return None
    rules = _rules(game)
    needed = {game.map.route_by_id[r].color for r in bot.wanted_routes(game, game.state.current)}

    def cost(action: BuildStation) -> tuple[int, int]:
        locos = sum(n for c, n in action.cards if c == rules.locomotive)
        planned = sum(n for c, n in action.cards if c in needed)
        return (locos, planned)

    return min(here, key=cost)


def explain(game: Game, action: Any) -> str:
    """The Europe move's reason in words."""
    if isinstance(action, PayTunnel):
        return "pays the tunnel's extra cards (fewest locomotives)"
    if isinstance(action, GiveUpTunnel):
        return "gives the tunnel up: it cannot pay the extra cards"
    if isinstance(action, BorrowRoutes):
        return "borrows the routes that complete the most ticket points"
    if isinstance(action, BuildStation):
        found = rescue(game, game.state.current)
        name = game.map.place_name(action.city)
        if found is not None:
            a, b = game.map.ticket_by_id[found[0]].cities
            ticket = f"{game.map.place_name(a)}–{game.map.place_name(b)}"
            return f"builds a station in {name}: an opponent's route there completes {ticket}"
        return f"builds a station in {name}"
    return ""
