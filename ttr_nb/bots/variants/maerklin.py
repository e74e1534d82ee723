"""What the greedy bot does differently on Märklin: placing and moving passengers.

:class:`~ttr_nb.bots.GreedyBot` finds this module by the map's rules name. Heuristic:

* **Placing.** A claim that places a passenger is worth 2 points more, less a tenth of
  the top token at that city (a passenger collects nothing where it starts, so it
  should start where little is lost), so the bot places its passengers on the routes
  it claims anyway, as long as it has some left.
* **Moving** (:func:`advise`). The bot looks for its most valuable journey with
  :func:`~ttr_nb.algorithms.best_journey` (the maximum-weight trail, using up to
  ``MAX_CARDS`` of its Passenger cards), valuing each card spent at ``CARD_COST``
  points. It moves when the journey is worth at least ``WORTH_IT`` points, or, once
  the end is near (12 trains or fewer, or the last round), whenever it gains anything:
  a passenger still standing at the end scores nothing.
* **Tickets.** The short/long mix is Germany's (:func:`ttr_nb.bots.variants.germany.ticket_draw`).
"""

from __future__ import annotations

from typing import Any

from ...actions import ClaimRoute
from ...algorithms import best_journey, journey_value
from ...game import Game
from ...rules.maerklin import STACKS_KEY, MaerklinRules, MovePassenger
from .germany import ticket_draw

__all__ = ["advise", "claim_bonus", "explain", "ticket_draw"]

WORTH_IT = 10  # points a journey must collect before the end is near
CARD_COST = 2.0  # what a Passenger card is worth to the bot, in points
MAX_CARDS = 3  # Passenger cards one journey may spend (bounds the search)
LATE_TRAINS = 12


def top_values(game: Game) -> dict[str, int]:
    """The top token of every city that still has one."""
    return {city: stack[0] for city, stack in game.state.extras[STACKS_KEY].items() if stack}


def claim_bonus(game: Game, action: ClaimRoute) -> float:
    """Placing a passenger is worth 2 points, less a tenth of the token it stands on."""
    if not action.pickups:
        return 0.0
    values = top_values(game)
    return sum(2.0 - 0.1 * values.get(city, 0) for city, _ in action.pickups)


def best_move(game: Game) -> tuple[float, MovePassenger | None]:
    """The most valuable journey of the player to move: (points less cards, action)."""
    rules = game.rules
    if not isinstance(rules, MaerklinRules):
        return 0.0, None
    state = game.state
    seat = state.current
    cards = min(state.players[seat].hand[rules.passenger_card], MAX_CARDS)
    values = top_values(game)
    routes = rules.network(state, seat, paid=cards > 0)
    best: tuple[float, MovePassenger | None] = (0.0, None)
    for start in rules.passengers_of(state, seat):
        journey = best_journey(routes, start, values, cards, rules.dead)
        if journey is None:
            continue
        worth = journey_value(journey, values) - CARD_COST * journey.cards
        if worth > best[0]:
            best = (worth, MovePassenger(start, journey.path))
    return best


def advise(bot: Any, game: Game, legal: list[Any]) -> Any:
    """Move a passenger when the journey is worth it (see the module docstring)."""
    state = game.state
    if state.pending is not None or state.phase != "play":
        return None
    if not any(isinstance(a, MovePassenger) for a in legal):
        return None  # no passenger on a route of its own yet
    worth, move = best_move(game)
    if move is None:
        return None
    trains = sum(state.players[state.current].pieces.values())
    late = state.final_turns_left is not None or trains <= LATE_TRAINS
    if worth >= WORTH_IT or (late and worth > 0):
        return move
    return None


def explain(game: Game, action: Any) -> str:
    """Why the bot moves this passenger: the journey in words and what it is worth."""
    rules = game.rules
    if not isinstance(action, MovePassenger) or not isinstance(rules, MaerklinRules):
        return ""
    worth, _ = best_move(game)
    text = rules.journey_text(game.state, game.state.current, action)
    return (
        f"moves {text}: its most valuable journey now (a maximum-weight trail), worth "
        f"{worth:g} points after {CARD_COST:g} points per Passenger card"
    )
