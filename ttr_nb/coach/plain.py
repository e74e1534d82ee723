"""The coach in plain words, for a learner's first games: what to do next, as a player
would say it ("collect 3 more blue for Oklahoma City–Santa Fe"), with no algorithm's name.

The advice reads the seat's plan (:func:`~ttr_nb.coach.plan.my_plan`, computed from what
the seat may know): of the routes the plan still claims, those the hand pays for now come
first, then the route the fewest cards away, then what the tickets come to. The app shows
these lines near the board and keeps the plan's algorithm and every other hint behind a
*Why?*.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import Game
from ..maps import Route
from .plan import Plan, ticket_name

__all__ = ["PlainAdvice", "plain_advice"]

COLOUR_WORDS = {"gray": "cards of one colour"}


@dataclass(frozen=True)
class PlainAdvice:
    """Plain advice: a few lines, the routes they name (drawn on the board), and the
    first line alone (the headline)."""

    lines: tuple[str, ...]
    routes: tuple[int, ...]

    @property
    def headline(self) -> str:
        """The first line (empty when there is nothing to say)."""
        return self.lines[0] if self.lines else ""


def _missing(game: Game, seat: int, route: Route) -> int | None:
    """How many more cards ``seat`` needs to claim ``route`` (0: the hand pays now; None:
    a route whose cost is not a simple count, a World pair route)."""
    rules = game.rules
    hand = game.state.players[seat].hand
    if rules.payments(hand, route):
        return 0
    if route.pair:
        return None
    wilds = 0
    by_colour: dict[str, int] = {}
    for cid, n in hand.items():
        card = rules.cards[cid]
        if not n or card.passenger or not rules.card_fits(card, route):
            continue
        if card.wild:
            wilds += n
        else:
            by_colour[card.color] = by_colour.get(card.color, 0) + n * card.spaces
    best = max(by_colour.values(), default=0)
    return max(1, route.length - best - wilds)


def _colour(game: Game, route: Route, seat: int) -> str:
    """The cards a route wants, in words: ``blue`` (a World ship route: ``blue Ship``);
    for a gray route, the colour the seat holds most of."""
    deck = f" {route.kind.capitalize()}" if len(game.rules.deck_names) > 1 else ""
    if route.color != "gray":
        return f"{route.color}{deck}"
    rules = game.rules
    hand = game.state.players[seat].hand
    counts: dict[str, int] = {}
    for cid, n in hand.items():
        card = rules.cards[cid]
        if n and not card.wild and not card.passenger and rules.card_fits(card, route):
            counts[card.color] = counts.get(card.color, 0) + n * card.spaces
    if not counts:
        return f"{COLOUR_WORDS['gray']}{deck}"
    return f"{max(counts, key=lambda c: counts[c])}{deck} (or any one colour)"


def plain_advice(game: Game, seat: int, plan: Plan) -> PlainAdvice:
    """What ``seat`` should do next, in a few plain lines.

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> from ttr_nb.coach import my_plan, seat_view
    >>> game = new_game("usa", 2, seed=3)
    >>> game.apply(game.legal_actions()[-1])
    >>> advice = plain_advice(game, 0, my_plan(seat_view(game, 0), 0))
    >>> any(w in " ".join(advice.lines) for w in ("Steiner", "union", ".ipynb"))
    False
    >>> advice.headline.split()[0] in ("Claim", "Collect", "Draw")
    True
    """
    game_map = game.map
    label = game_map.route_label
    routes = [game_map.route_by_id[r] for r in plan.routes]
    costs = [(route, _missing(game, seat, route)) for route in routes]
    lines: list[str] = []
    named: list[int] = []
    ready = [route for route, missing in costs if missing == 0]
    if ready:
        best = max(ready, key=lambda r: (r.length, -r.id))
        lines.append(f"Claim {label(best)} now: your cards pay for it.")
        named.append(best.id)
    waiting = sorted(
        ((route, missing) for route, missing in costs if missing),
        key=lambda item: (item[1], -item[0].length, item[0].id),
    )
    for route, missing in waiting[: 2 if not ready else 1]:
        colour = _colour(game, route, seat)
        lines.append(f"Collect {missing} more {colour} for {label(route)}.")
        named.append(route.id)
    if not routes and not plan.reachable:
        if plan.unreachable or plan.given_up:
            lines.append("Your tickets are out of reach or done: draw cards and claim long routes.")
        elif plan.completed:
            lines.append("Every ticket you hold is complete: long routes score the most now.")
        else:
            lines.append("Draw tickets to get a goal.")
    if plan.reachable:
        goals = ", ".join(t.name for t in plan.reachable)
        left = len(routes)
        lines.append(f"That plan of {left} route{'s' if left != 1 else ''} completes {goals}.")
    for ticket in plan.unreachable:
        lines.append(
            f"{ticket.name} cannot be completed any more (the routes that could join it are "
            f"taken): it costs {ticket.penalty} at the end; put your trains into your other "
            "tickets."
        )
    for ticket in plan.given_up:
        lines.append(
            f"{ticket.name} needs more trains than you have left: it costs {ticket.penalty} "
            "at the end."
        )
    for ticket in plan.completed[:2]:
        lines.append(f"{ticket.name} is complete already.")
    return PlainAdvice(tuple(lines), tuple(named))


def ticket_words(game: Game, ticket_id: int) -> str:
    """A ticket in plain words (``Denver → El Paso``)."""
    return ticket_name(game.map, ticket_id)
