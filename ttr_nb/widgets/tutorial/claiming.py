"""Tutorial steps about claiming a route: paying with a colour, gray routes, locomotives,
double routes (any map).

A claim step carries on the tutorial game: the other seats play their turns, then the step
points at a route the learner's own cards pay for (named in its words and marked on the
board). When the learner's hand pays for none, the learner's turns are played for them
(two cards from the deck) until it does, and the step says so. Each function makes one
:class:`~ttr_nb.widgets.tutorial.model.Step`; the words are ours, never the rulebook's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ...actions import ClaimRoute
from ...game import Game
from ...maps import Route
from .. import style
from ..controls import count
from .model import LEARNER, Marks, Step, claim
from .positions import (
    cards_for,
    collect,
    label,
    open_routes,
    pays_plain,
    pays_with_wild,
    single,
    top_plain,
    wilds_in,
)
from .script import in_pile, others_play, wild_card

Finder = Callable[[Game], list[tuple[int, ...]]]
"""The targets a claim step may point at in a position, best first: each the routes of one
choice (one route, or the tracks of a double route)."""

Words = str | Callable[[Game, tuple[int, ...]], str]

CLAIM_CONTROLS = ("ttr-claim-box", "ttr-hand-box")


def _say(words: Words, game: Game, routes: tuple[int, ...]) -> str:
    if callable(words):
        return words(game, routes)
    first = game.map.route_by_id[routes[0]]
    places = f"{game.map.place_name(first.a)}–{game.map.place_name(first.b)}"
    colours = list(dict.fromkeys(_colour_words(game.map.route_by_id[r]) for r in routes))
    tracks = " or ".join(colours) if len(colours) > 1 else f"{len(routes)} {colours[0]} tracks"
    return words.format(route=label(game, routes[0]), double=f"{places} ({tracks})")


def claim_step(
    key: str,
    title: str,
    rules: tuple[str, ...],
    text: Words,
    task: Words,
    find: Finder,
    fallback: Callable[[Game], list[str]],
    asks: Words,
    done: Callable[[Game], str],
    pays: Callable[[Game, Any], bool] = lambda _g, _cards: True,
    carry: Callable[[Game], Game] | None = None,
    controls: tuple[str, ...] = CLAIM_CONTROLS,
    then: Callable[[Game, tuple[int, ...]], None] | None = None,
) -> Step:
    """Claim one of the routes ``find`` points at in the position the step opens on.

    The carry lets the other seats play (``carry``, by default two cards each), then, while
    ``find`` points at nothing, plays the learner's turn for them with the cards
    ``fallback`` names; ``then(game, routes)`` may arrange the deck for the claim (a
    tunnel's cards). ``text``, ``task`` and ``asks`` name the route (``{route}``).
    """

    def carried(game: Game) -> Game:
        if carry is not None:
            carry(game)
        else:
            others_play(game)
        collect(game, lambda g: bool(find(g)), fallback)
        top_plain(game)
        if then is not None:
            then(game, find(game)[0])
        return game

    def bind(step: Step, game: Game) -> Step:
        routes = find(game)[0]
        return replace(
            step,
            text=_say(text, game, routes),
            task=_say(task, game, routes),
            goal=claim(routes, _say(asks, game, routes), pays),
            marks=lambda g: Marks(
                routes=tuple(r for r in routes if r not in g.state.owner)
                or tuple(r for r in routes if g.state.owner.get(r) == LEARNER),
                controls=controls,
            ),
        )

    return Step(
        key=key,
        title=title,
        rules=rules,
        text="",
        task="",
        carry=carried,
        bind=bind,
        done=done,
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
        f"{game.map.route_label(route)} is yours: you placed {count(route.length, route.kind)} "
        f"on it, and it scored {count(points, 'point')} at once."
    )


# ------------------------------------------------------------------ finding routes
def coloured(game: Game, lengths: Sequence[int], seat: int = LEARNER) -> list[Route]:
    """Open single coloured routes of these lengths, in the order of ``lengths``."""
    pool = [r for r in open_routes(game, seat) if single(game, r) and r.color != "gray"]
    return [r for n in lengths for r in pool if r.length == n]


def gray(game: Game, lengths: Sequence[int], seat: int = LEARNER) -> list[Route]:
    """Open single gray routes of these lengths, in the order of ``lengths``."""
    pool = [r for r in open_routes(game, seat) if single(game, r) and r.color == "gray"]
    return [r for n in lengths for r in pool if r.length == n]


def most_held(game: Game, routes: list[Route], seat: int = LEARNER) -> Route:
    """Of ``routes``, the one whose cards the seat holds most of (and the deck can
    supply), the first such."""
    hand = game.state.players[seat].hand

    def score(route: Route) -> tuple[int, int]:
        card = cards_for(game, route, seat)[0]
        return (min(hand[card] + in_pile(game, card), route.length), hand[card])

    return max(routes, key=lambda r: (score(r), -routes.index(r)))


def _colour_words(route: Route) -> str:
    if route.color == "gray":
        return "gray"
    return style.swatch(route.color).name


def points_words(game: Game) -> str:
    """The route scoring table in words: ``1, 2, 4, 7, 10 and 15 points for routes of 1,
    2, 3, 4, 5 and 6 spaces``."""
    lengths = sorted({r.length for r in game.map.routes})
    points = [str(game.map.route_points(n)) for n in lengths]

    def join(items: list[str]) -> str:
        return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]

    return f"{join(points)} points for routes of {join([str(n) for n in lengths])} spaces"


def pay_colour(map_id: str, rules: tuple[str, ...] = ("pay-colour",)) -> Step:
    """Claiming a coloured route with cards of its colour; route points."""
    lengths = (4, 3)

    def find(game: Game) -> list[tuple[int, ...]]:
        return [(r.id,) for r in coloured(game, lengths) if pays_plain(game, r)]

    def fallback(game: Game) -> list[str]:
        return cards_for(game, most_held(game, coloured(game, lengths)))

    def text(game: Game, routes: tuple[int, ...]) -> str:
        return (
            "To claim a route, you hand in as many cards of the route's colour as it has "
            "spaces, and put your trains on it. It scores at once: "
            f"{points_words(game)}. Any open route will do: it need not join your other "
            "routes. Each route belongs to one player for the rest of the game. Your cards "
            f"pay for {label(game, routes[0])} now."
        )

    return claim_step(
        "pay-colour",
        "Claiming a coloured route",
        rules,
        text,
        "Claim {route}, the marked route: click it on the board, choose how to pay, and "
        "press Claim this route.",
        find,
        fallback,
        "claim {route}, the marked route",
        claimed_text,
    )


def pay_gray(map_id: str, rules: tuple[str, ...] = ("pay-gray",)) -> Step:
    """Claiming a gray route with cards of any one colour."""
    lengths = (3, 2, 4)

    def find(game: Game) -> list[tuple[int, ...]]:
        return [(r.id,) for r in gray(game, lengths) if pays_plain(game, r)]

    def fallback(game: Game) -> list[str]:
        return cards_for(game, most_held(game, gray(game, lengths)))

    return claim_step(
        "pay-gray",
        "Claiming a gray route",
        rules,
        "A gray route takes cards of any one colour: all the cards you hand in must be the "
        "same colour, but you choose which. The payment list shows every way your hand can "
        "pay.",
        "Claim {route}, the marked gray route: pick a payment of one colour and press "
        "Claim this route.",
        find,
        fallback,
        "claim {route}, the marked gray route",
        claimed_text,
    )


def locomotives_pay(map_id: str, rules: tuple[str, ...] = ("locomotive-any-colour",)) -> Step:
    """Locomotives paying for spaces of any colour."""
    lengths = (4, 3, 5, 2)

    def needs_wild(game: Game, route: Route) -> bool:
        return pays_with_wild(game, route) and not pays_plain(game, route)

    def find(game: Game) -> list[tuple[int, ...]]:
        routes = coloured(game, lengths)
        best = [r for r in routes if needs_wild(game, r)]
        return [(r.id,) for r in best or [r for r in routes if pays_with_wild(game, r)]]

    def fallback(game: Game) -> list[str]:
        wild = wild_card(game)
        hand = game.state.players[LEARNER].hand
        route = most_held(game, coloured(game, lengths))
        colour = cards_for(game, route)[0]
        return [wild, colour] if hand[wild] == 0 else [colour, colour]

    def text(game: Game, routes: tuple[int, ...]) -> str:
        route = game.map.route_by_id[routes[0]]
        hand = game.state.players[LEARNER].hand
        colour = cards_for(game, route)[0]
        wild = wild_card(game)
        return (
            "A locomotive in your hand stands in for a card of any colour when you claim. "
            f"{label(game, route.id)} has {count(route.length, 'space')} of "
            f"{_colour_words(route)}; you hold {hand[colour]} {_colour_words(route)} and "
            f"{count(hand[wild], 'locomotive')}, so your locomotives make up the rest. You may "
            "even pay with locomotives alone."
        )

    return claim_step(
        "locomotives-pay",
        "Locomotives pay for any colour",
        rules,
        text,
        "Claim {route}, the marked route, paying with your locomotives too.",
        find,
        fallback,
        "claim {route}, the marked route, with the help of your locomotives",
        claimed_text,
        pays=wild_in,
    )


def double_routes(map_id: str, rules: tuple[str, ...] = ("double-routes",)) -> Step:
    """Claiming one track of a double route: the other closes with 2 or 3 players."""

    def pairs(game: Game) -> list[tuple[Route, Route]]:
        found = []
        parallel = game.rules.parallel
        usable = {r.id for r in open_routes(game)}
        for route in game.map.routes:
            twins = parallel[route.id]
            if len(twins) != 1 or route.id > twins[0] or route.pair:
                continue
            other = game.map.route_by_id[twins[0]]
            if route.id in usable and other.id in usable:
                found.append((route, other))
        return found

    def find(game: Game) -> list[tuple[int, ...]]:
        payable = [
            (a, b)
            for a, b in pairs(game)
            if game.rules.payments(game.state.players[LEARNER].hand, a)
            or game.rules.payments(game.state.players[LEARNER].hand, b)
        ]
        payable.sort(key=lambda p: p[0].color == p[1].color or "gray" in (p[0].color, p[1].color))
        return [(a.id, b.id) for a, b in payable]

    def fallback(game: Game) -> list[str]:
        options = [a for a, _b in pairs(game) if a.length <= 4]
        return cards_for(game, most_held(game, options))

    def done(game: Game) -> str:
        mine = next(
            (m.action.route for m in reversed(game.history) if isinstance(m.action, ClaimRoute)),
            None,
        )
        if mine is None:
            return ""
        other = game.map.route_by_id[game.rules.parallel[mine][0]]
        problem = game.rules.route_problem(game.state, 1, other)
        closes = game.num_players <= game.rules.closed_parallel_max_players
        return (
            f"{claimed_text(game)} Hover over its twin: "
            + (
                f"with {game.num_players} players only one track of a double route is used, so "
                f"nobody may take it now ({problem}). "
                if closes and problem
                else ""
            )
            + "With 4 or 5 players another player may take the twin, but never the owner of "
            "the first."
        )

    return claim_step(
        "double-routes",
        "Double routes",
        rules,
        "Some cities are joined by two parallel tracks: a double route. Each track is a route "
        "of its own, claimed with its own colour. One player may never own both, and with 2 "
        "or 3 players the first claim closes the other track.",
        "Claim one track of {double}, the marked double route (either track).",
        find,
        fallback,
        "claim one track of {double}, the marked double route",
        done,
    )


def wild_in(game: Game, cards: Any) -> bool:
    """Does a payment use a wild card?"""
    return wilds_in(game, cards) > 0


__all__ = [
    "claim_step",
    "claimed_text",
    "coloured",
    "double_routes",
    "gray",
    "locomotives_pay",
    "most_held",
    "pay_colour",
    "pay_gray",
    "points_words",
]
