"""Tutorial steps about claiming a route: paying with a colour, gray routes, locomotives,
double routes, and a claim of one marked route from a given hand (any map).

Each function makes one :class:`~ttr_nb.widgets.tutorial.model.Step`; the words are ours,
never the rulebook's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...actions import ClaimRoute
from ...deals import set_hand
from ...game import Game
from ..controls import count
from .model import LEARNER, Marks, Step, claim
from .positions import (
    card_of,
    clean_hands,
    dealt,
    double_route,
    find_route,
    plain_cards,
    started,
    wild_card,
)

Builder = Callable[[], Game]


def claim_step(
    map_id: str,
    key: str,
    title: str,
    rules: tuple[str, ...],
    text: str,
    task: str,
    build: Builder,
    pick: Callable[[Game], list[int]],
    asks: str,
    done: Callable[[Game], str],
    pays: Callable[[Any], bool] = lambda _cards: True,
) -> Step:
    """Claim one of the routes ``pick`` marks on ``build()``'s board (``map_id`` names the
    map); ``done`` explains the claim."""
    routes = tuple(pick(build()))
    return Step(
        key=key,
        title=title,
        rules=rules,
        text=text,
        task=task,
        build=build,
        goal=claim(routes, asks, pays),
        done=done,
        marks=lambda g: Marks(
            routes=tuple(r for r in routes if r not in g.state.owner)
            or tuple(r for r in routes if g.state.owner.get(r) == LEARNER),
            controls=("ttr-claim-box", "ttr-hand-box"),
        ),
    )


def last_round_step(
    title: str, text: str, task: str, build: Builder, route: int, after: str
) -> Step:
    """Claim the one marked route ``route`` that starts the end of the game; ``after``
    follows what the claim gave."""
    return Step(
        key="last-round",
        title=title,
        rules=("last-round",),
        text=text,
        task=task,
        build=build,
        goal=claim((route,), "claim the marked route"),
        done=lambda g: f"{claimed_text(g)} {after}",
        marks=Marks(routes=(route,), controls=("ttr-claim-box",)),
    )


def claimed_text(game: Game) -> str:
    """What the learner's last claim gave: trains placed and points scored."""
    mine = [
        a
        for a in (m.action for m in game.history if m.player == LEARNER)
        if isinstance(a, ClaimRoute)
    ]
    if not mine:
        return ""
    route = game.map.route_by_id[mine[-1].route]
    points = game.map.route_points(route.length)
    return (
        f"{game.map.route_label(route)} is yours: {count(route.length, route.kind)} stand on it "
        f"and it scored {count(points, 'point')} at once."
    )


def pay_colour(map_id: str, rules: tuple[str, ...] = ("pay-colour",)) -> Step:
    """Claiming a coloured route with cards of its colour; route points."""

    def build() -> Game:
        game = started(map_id)
        route = find_route(game, lengths=(4, 3))
        cards = plain_cards(game.map)
        colour = card_of(game.map, route.color)
        other = next(c for c in cards if c != colour)
        clean_hands(game, **{colour: route.length, other: 2})
        return game

    points = ", ".join(str(dealt(map_id).map.route_points(n)) for n in range(1, 7))
    return claim_step(
        map_id,
        "pay-colour",
        "Claiming a coloured route",
        rules,
        (
            "To claim a route, you hand in as many cards of the route's colour as it has "
            "spaces, and put your trains on it. It scores at once: "
            f"{points} points for a route of 1 to 6 spaces. Each route belongs to one player "
            "for the rest of the game."
        ),
        "Click the marked route on the board, choose how to pay, and press Claim this route.",
        build,
        lambda g: [find_route(g, lengths=(4, 3)).id],
        "claim the marked route",
        claimed_text,
    )


def pay_gray(map_id: str, rules: tuple[str, ...] = ("pay-gray",)) -> Step:
    """Claiming a gray route with cards of any one colour."""

    def build() -> Game:
        game = started(map_id)
        route = find_route(game, colour="gray", lengths=(3, 2, 4))
        cards = plain_cards(game.map)
        clean_hands(game, **{cards[5]: route.length, cards[1]: route.length - 1, cards[2]: 1})
        return game

    return claim_step(
        map_id,
        "pay-gray",
        "Claiming a gray route",
        rules,
        (
            "A gray route takes cards of any one colour: all the cards you hand in must be "
            "the same colour, but you choose which. The payment list shows every way your "
            "hand can pay."
        ),
        "Claim the marked gray route: pick a payment of one colour and press Claim this route.",
        build,
        lambda g: [find_route(g, colour="gray", lengths=(3, 2, 4)).id],
        "claim the marked gray route",
        claimed_text,
    )


def locomotives_pay(map_id: str, rules: tuple[str, ...] = ("locomotive-any-colour",)) -> Step:
    """Locomotives paying for spaces of any colour."""

    def pick(game: Game) -> Any:  # another route than the coloured claim's
        return find_route(game, lengths=(4, 5, 3), avoid=(find_route(game, lengths=(4, 3)).id,))

    def build() -> Game:
        game = started(map_id)
        route = pick(game)
        colour = card_of(game.map, route.color)
        clean_hands(game, **{colour: route.length - 2, wild_card(game.map): 2})
        return game

    def with_wild(cards: Any) -> bool:
        return any(card == wild_card(dealt(map_id).map) for card, _n in cards)

    return claim_step(
        map_id,
        "locomotives-pay",
        "Locomotives pay for any colour",
        rules,
        (
            "A locomotive in your hand stands in for a card of any colour when you claim: "
            "two of the marked route's colour and two locomotives pay for its four spaces. You "
            "may even pay with locomotives alone."
        ),
        "Claim the marked route, paying with your locomotives too.",
        build,
        lambda g: [pick(g).id],
        "claim the marked route with the help of your locomotives",
        claimed_text,
        pays=with_wild,
    )


def double_routes(map_id: str, rules: tuple[str, ...] = ("double-routes",)) -> Step:
    """Claiming one track of a double route: the other closes with 2 or 3 players."""

    def build() -> Game:
        game = started(map_id)
        first, second = double_route(game)
        hand: dict[str, int] = {}
        for route in (first, second):
            card = (
                card_of(game.map, route.color)
                if route.color != "gray"
                else plain_cards(game.map)[0]
            )
            hand[card] = hand.get(card, 0) + route.length
        clean_hands(game, **hand)
        return game

    def done(game: Game) -> str:
        first, second = double_route(dealt(map_id))
        mine = first if game.state.owner.get(first.id) == LEARNER else second
        other = second if mine is first else first
        problem = game.rules.route_problem(game.state, 1, other)
        return (
            f"{claimed_text(game)} Hover over its twin: with 2 or 3 players only one track of "
            f"a double route is used, so nobody may take it now ({problem}). With 4 or 5 "
            "players another player may take the twin, but never the owner of the first."
        )

    return claim_step(
        map_id,
        "double-routes",
        "Double routes",
        rules,
        (
            "Some cities are joined by two parallel tracks: a double route. Each track is a "
            "route of its own, claimed with its own colour. One player may never own both."
        ),
        "Claim one track of the marked double route (either colour).",
        build,
        lambda g: [r.id for r in double_route(g)],
        "claim one track of the marked double route",
        done,
    )


def hand_claim_step(
    position: Builder,
    key: str,
    title: str,
    rules: tuple[str, ...],
    text: str,
    task: str,
    route: int,
    hand: dict[str, int],
    pays: Callable[[Any], bool] = lambda _cards: True,
    extra: str = "",
) -> Step:
    """Claim one marked ``route`` on ``position()`` holding exactly ``hand`` (any payment
    that ``pays`` accepts); the step's last words add ``extra``."""

    def build() -> Game:
        game = position()
        set_hand(game, LEARNER, **hand)
        return game

    return Step(
        key=key,
        title=title,
        rules=rules,
        text=text,
        task=task,
        build=build,
        goal=claim((route,), "claim the marked route", pays),
        done=lambda g: f"{claimed_text(g)} {extra}".strip(),
        marks=Marks(routes=(route,), controls=("ttr-claim-box", "ttr-hand-box")),
    )


__all__ = [
    "claim_step",
    "claimed_text",
    "double_routes",
    "hand_claim_step",
    "locomotives_pay",
    "pay_colour",
    "pay_gray",
]
