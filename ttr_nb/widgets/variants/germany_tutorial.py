"""Germany's tutorial: the original game's steps on the Germany board, then what Germany
adds (two ticket decks, passengers picked up by claims, triple routes, countries as dead
ends, majorities and the Globetrotter). See :mod:`ttr_nb.widgets.tutorial`.

The rule ids are defined here with the lesson part that teaches each; Germany's rules
lessons name them in their sections' ``ttr_rules`` metadata. Rules the Germany lessons
leave to the USA lessons link there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...actions import ClaimRoute, DrawTickets, KeepTickets
from ...deals import route_id, ticket_id
from ...game import Game
from ...rules.germany import BOARD_KEY, HELD_KEY
from ..controls import count
from ..tutorial import claiming, common
from ..tutorial.model import (
    LEARNER,
    Goal,
    Marks,
    Rule,
    Step,
    Tutorial,
    register_lessons,
    register_tutorial,
)
from ..tutorial.positions import (
    cards_for,
    finish_setup,
    label,
    open_routes,
    pays_plain,
    setup_choice,
    top_plain,
    tutorial_deal,
)
from ..tutorial.script import arrange_tickets, blind_turn, cheapest_claim, jump, round_of
from .usa_tutorial import USA_RULES

G1 = "rules_germany_1_setup_and_passengers.ipynb"
G2 = "rules_germany_2_routes_tickets_scoring.ipynb"
G3 = "rules_germany_3_countries_and_quiz.ipynb"
register_lessons(
    {
        G1: "Ticket to Ride: Germany — the rules (1 of 3)",
        G2: "Ticket to Ride: Germany — the rules (2 of 3)",
        G3: "Ticket to Ride: Germany — the rules (3 of 3)",
    }
)
MAP = "germany"

_FROM_USA = {r.id: r for r in USA_RULES}

GERMANY_RULES = (
    _FROM_USA["aim"],
    Rule("setup", "Setting up: cards, trains, passengers", G1, "1. The numbers"),
    Rule(
        "two-ticket-decks",
        "Two ticket decks",
        G1,
        "2. Setting up: passengers and the first tickets",
    ),
    Rule(
        "passengers",
        "Passengers on the board",
        G1,
        "2. Setting up: passengers and the first tickets",
    ),
    _FROM_USA["turn-choices"],
    _FROM_USA["two-cards"],
    _FROM_USA["face-up-locomotive"],
    _FROM_USA["locomotive-any-colour"],
    _FROM_USA["three-locomotive-reset"],
    Rule(
        "passenger-pickup",
        "Claiming picks up passengers",
        G1,
        "3. Claiming a route picks up passengers",
    ),
    _FROM_USA["pay-colour"],
    _FROM_USA["pay-gray"],
    Rule("double-routes", "Double routes", G2, "4. Double and triple routes"),
    Rule("triple-routes", "Triple routes", G2, "4. Double and triple routes"),
    Rule("countries", "Countries are dead ends", G3, "8. Countries are dead ends"),
    Rule(
        "later-tickets",
        "Drawing tickets later, from two decks",
        G2,
        "5. Drawing tickets during the game",
    ),
    _FROM_USA["last-round"],
    _FROM_USA["route-points"],
    _FROM_USA["tickets-scored"],
    Rule(
        "majorities",
        "Passenger majorities",
        G2,
        "6. Final scoring: passenger majorities and the Globetrotter",
    ),
    Rule(
        "globetrotter",
        "The Globetrotter",
        G2,
        "6. Final scoring: passenger majorities and the Globetrotter",
    ),
    Rule("ties", "Ties", G2, "7. When points are tied"),
    _FROM_USA["house-rules"],
)


RECAP = (
    "A turn is one thing: two cards, one route, or tickets (4 from the two decks, at least "
    "1 kept).",
    "A face-up locomotive is the whole draw and never a second card; one drawn from the "
    "deck is wild and the draw goes on.",
    "A route takes as many cards of its colour as it has spaces (gray: any one colour; "
    "locomotives: any colour), need not join your other routes, and takes a passenger "
    "from each end where one waits.",
    "A country joins no two routes: it only completes the tickets that name it.",
    "At the end: tickets add or take their points, 15 for the most completed tickets, and "
    "20 and 10 for the first and second most passengers of each colour. No longest path.",
)


def _pickup_route(game: Game) -> list[tuple[int, ...]]:
    """Open coloured routes the learner's cards pay for with an end where passengers of
    several colours wait (the app asks which to take), Berlin's first."""
    rules = game.rules
    board = game.state.extras[BOARD_KEY]
    routes = [
        r
        for r in claiming.coloured(game, (2, 3, 4, 1, 5))
        if any(len(board.get(p) or {}) > 1 for p in rules.route_places[r.id])
        and pays_plain(game, r)
    ]
    routes.sort(key=lambda r: "berlin" not in r.ends)
    return [(r.id,) for r in routes]


def _pickup_cards(game: Game) -> list[str]:
    rules = game.rules
    board = game.state.extras[BOARD_KEY]
    routes = [
        r
        for r in claiming.coloured(game, (2, 3, 4))
        if any(len(board.get(p) or {}) > 1 for p in rules.route_places[r.id])
    ]
    return cards_for(game, claiming.most_held(game, routes))


def _claim_pickup() -> Step:
    def done(game: Game) -> str:
        held = game.state.players[LEARNER].extras[HELD_KEY]
        got = ", ".join(f"{n} {c}" for c, n in held.items() if n)
        return (
            f"{claiming.claimed_text(game)} Its ends gave you their passengers: you hold "
            f"{got}. They count at the end, colour by colour (the players' table shows them)."
        )

    def text(game: Game, routes: tuple[int, ...]) -> str:
        return (
            "To claim a route you hand in as many cards of its colour as it has spaces (a gray "
            "route takes cards of any one colour, and locomotives stand in for any colour), "
            "and put your trains on it; it scores at once. Any open route will do: it need not "
            "join your other routes. Then you take one passenger from each end of the route "
            "where some still wait; where several colours wait, you choose which one, and the "
            f"app asks. Your cards pay for {label(game, routes[0])} now."
        )

    step = claiming.claim_step(
        "passenger-pickup",
        "Claiming picks up passengers",
        ("passenger-pickup", "pay-colour"),
        text,
        "Claim {route}, the marked route, and choose which passenger to take where the app asks.",
        _pickup_route,
        _pickup_cards,
        "claim {route}, the marked route",
        done,
    )
    bind = step.bind
    assert bind is not None

    def with_ends(s: Step, game: Game) -> Step:
        bound = bind(s, game)
        route = game.map.route_by_id[_pickup_route(game)[0][0]]
        marks = bound.marks

        def both(g: Game) -> Marks:
            inner = marks(g) if callable(marks) else marks
            return replace(inner, places=route.ends if not g.state.owner.get(route.id) else ())

        return replace(bound, marks=both)

    return replace(step, bind=with_ends)


def _passengers_setup() -> Step:
    return Step(
        key="passengers",
        title="Passengers on the board",
        rules=("passengers",),
        text=(
            "Germany's cities hold passengers: 60 of them, 10 of each of six colours, drawn at "
            "random onto the board at the start (a big city gets several). They are the small "
            "lettered discs beside the cities. Hover a city (or pick it in the Place list "
            "under the board) to read who waits there."
        ),
        task="Look at the marked cities' passengers, then press Next.",
        carry=common.setup_turn,
        goal=None,
        done="Berlin holds the most passengers; most small cities hold one.",
        marks=Marks(places=("berlin", "hamburg", "koeln", "frankfurt", "muenchen")),
    )


def _triples(game: Game) -> list[tuple[int, ...]]:
    """The open triple routes (their three tracks), map order."""
    parallel = game.rules.parallel
    usable = {r.id for r in open_routes(game)}
    found = []
    for route in game.map.routes:
        twins = parallel[route.id]
        if len(twins) == 2 and route.id < min(twins):
            tracks = (route.id, *twins)
            if all(t in usable for t in tracks):
                found.append(tracks)
    return found


def _triple_route() -> Step:
    def find(game: Game) -> list[tuple[int, ...]]:
        hand = game.state.players[LEARNER].hand
        return [
            t
            for t in _triples(game)
            if any(game.rules.payments(hand, game.map.route_by_id[r]) for r in t)
        ]

    def fallback(game: Game) -> list[str]:
        first = _triples(game)[0][0]
        return cards_for(game, game.map.route_by_id[first])

    def done(game: Game) -> str:
        mine = next(
            m.action.route for m in reversed(game.history) if isinstance(m.action, ClaimRoute)
        )
        closed = [r for r in game.rules.parallel[mine] if r not in game.state.owner]
        problem = game.rules.route_problem(game.state, 1, game.map.route_by_id[closed[0]])
        return (
            f"{claiming.claimed_text(game)} The two other tracks are closed now ({problem}). "
            "With 4 or 5 players another player could take one of them, but you never a "
            "second."
        )

    return claiming.claim_step(
        "triple-route",
        "Double and triple routes",
        ("double-routes", "triple-routes"),
        "Some cities are joined by two parallel tracks, and two pairs even by three (a triple "
        "route). One player never owns two tracks of the same route; with 2 or 3 players only "
        "one track is ever used, so the first claim closes the others.",
        "Claim one track of {double}, the marked triple route (any of the three).",
        find,
        fallback,
        "claim one track of {double}, the marked triple route",
        done,
    )


# ------------------------------------------------------------------ countries
CHAIN = (("freiburg", "stuttgart"), ("stuttgart", "ulm"), ("ulm", "augsburg"))
CHAIN += (("augsburg", "muenchen"),)
TICKET = ("frankreich", "muenchen")
BRUNO_FRANCE = ("saarbruecken", "frankreich-1")
INTO_FRANCE = ("freiburg", "frankreich-3")


def country_game() -> Game:
    """Another game, played a few rounds: Ann kept the ticket Frankreich – München (it was
    dealt to her) and claimed Freiburg – Stuttgart – Ulm – Augsburg – München, Bruno claimed
    Saarbrücken – France; Ann, to move, holds the cards for Freiburg – France."""
    game = tutorial_deal(MAP)
    ticket = ticket_id(game, *TICKET)
    arrange_tickets(game, [ticket])  # the top of the short deck: Ann draws it at setup

    def keep_it(g: Game) -> Any:
        legal = g.legal_actions()
        if g.state.current == LEARNER:
            keeps = [a for a in legal if isinstance(a, KeepTickets) and ticket in a.tickets]
            if keeps:
                return min(keeps, key=lambda a: len(a.tickets))
            draws = [a for a in legal if isinstance(a, DrawTickets)]
            if draws:
                return next(a for a in draws if a.long == 0)
        return setup_choice(g)

    finish_setup(game, keep_it)
    plans = {
        LEARNER: [route_id(game, a, b) for a, b in CHAIN],
        1: [route_id(game, *BRUNO_FRANCE)],
    }
    into = route_id(game, *INTO_FRANCE)

    def idle(g: Game) -> None:
        if g.state.current == LEARNER:
            blind_turn(g, cards_for(g, g.map.route_by_id[into]))
        else:
            blind_turn(g)

    def stop(g: Game) -> bool:
        return (
            g.state.current == LEARNER
            and not plans[LEARNER]
            and not plans[1]
            and cheapest_claim(g, into) is not None
        )

    jump(game, plans, stop, idle=idle)
    top_plain(game)
    return game


def _country() -> Step:
    def into(game: Game) -> int:
        return route_id(game, *INTO_FRANCE)

    def marks(game: Game) -> Marks:
        return Marks(
            routes=(into(game),),
            places=tuple(game.map.targets("frankreich")),
            controls=("ttr-tickets",),
        )

    def done(game: Game) -> str:
        ticket = ticket_id(game, *TICKET)
        ok = dict(game.ticket_status(LEARNER)).get(ticket)
        return (
            "Your ticket Frankreich – München is complete: München is joined to a space of "
            "France. The country's passenger went to whoever reached France first."
            if ok
            else claiming.claimed_text(game)
        )

    return Step(
        key="countries",
        title="Countries are dead ends",
        rules=("countries",),
        text=(
            "The neighbouring countries (the diamonds at the edges) are reached by a few "
            "routes, each ending in a space of its own. A ticket naming a country is completed "
            "by reaching any of its spaces, but a country never joins two routes: Bruno's "
            "route into France does not connect to yours through it."
        ),
        task=(
            "Claim Freiburg – France, the marked route: it completes your ticket Frankreich – "
            "München (watch the ✓ under your hand)."
        ),
        build=country_game,
        staged=lambda g: (
            f"another game, in round {round_of(g)}: you kept the ticket Frankreich – München "
            "and claimed Freiburg – Stuttgart – Ulm – Augsburg – München; Bruno claimed "
            "Saarbrücken – France. Your own game comes back in the next step."
        ),
        goal=claim_goal_into(),
        done=done,
        marks=marks,
    )


def claim_goal_into() -> Goal:
    """Claiming the route from Freiburg into France."""

    def accepts(game: Game, action: Any) -> bool:
        return isinstance(action, ClaimRoute) and action.route == route_id(game, *INTO_FRANCE)

    return Goal("claim Freiburg – France, the marked route", accepts)


def _final_turn() -> Step:
    return common.final_turn(
        MAP,
        rules=("route-points", "tickets-scored", "majorities", "globetrotter"),
        text=(
            "You started the last round, and the others have played their last turns: this "
            "one is yours. Then the score: the routes' points, plus each ticket completed and "
            "minus each missed, 15 for the Globetrotter (the most completed tickets), and for "
            "each passenger colour 20 to the player holding the most and 10 to the second. "
            "There is no longest-path bonus on this map."
        ),
        done=_germany_score,
    )


def _germany_score(game: Game) -> str:
    rows = game.scores()
    mine = rows[LEARNER]
    result = game.result() or {}
    parts = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in mine.items() if k != "total")
    winners = " and ".join(game.names[i] for i in result.get("winners", []))
    won = sum(1 for _t, ok in game.ticket_status(LEARNER) if ok)
    return (
        f"The game is over. Your score: {parts}; total {mine['total']}. You completed "
        f"{count(won, 'ticket')}. {winners} won. The end screen's majority table shows who "
        "scored 20 and 10 in each colour."
    )


def _ties() -> Step:
    return common.ties(
        MAP,
        text=(
            "Equal points are decided by the most completed tickets, then by the most "
            "passengers collected (all colours together). If everything is equal, the tied "
            "players share the victory (the rulebook says so)."
        ),
    )


def _later_tickets() -> Step:
    step = common.later_tickets(MAP)
    text = (
        "Drawing tickets is a whole turn: you say how many of the 4 tickets come from the long "
        "deck (12 to 22 points, hard to finish) and how many from the short one, then keep at "
        "least 1; the others go under their own deck."
    )
    task = "Press Draw tickets, answer how many long tickets you want, then keep at least one."
    return replace(step, text=text, task=task, after="triple-route")


def _first_tickets() -> Step:
    return common.first_tickets(
        MAP,
        text=(
            "You score by claiming routes, by completing destination tickets (each adds its "
            "points if your routes join its two places, or takes them away if not), and at the "
            "end by collecting passengers. Everyone starts with 4 train cards and 45 trains. "
            "Tickets come in a short deck and a long one: you draw 4, choosing how many are "
            "long, and keep at least 2. Each ticket kept and missed costs its points: for a "
            "first game, take short ones and keep the 2 whose places lie closest together."
        ),
        task=(
            "Answer how many of your 4 tickets come from the long deck (above the cards), then "
            "tick at least 2 and press the keep button."
        ),
        rules=("aim", "setup", "two-ticket-decks"),
    )


@register_tutorial(MAP)
def germany_tutorial() -> Tutorial:
    """Germany's tutorial: 17 steps of one game (a step on countries in another), a tie
    and a recap."""
    m = MAP
    steps: list[Any] = [
        _first_tickets(),
        _passengers_setup(),
        replace(common.turn_choices(m), carry=common.setup_turn),
        common.two_cards(m),
        common.face_up_locomotive(m),
        common.locomotive_second(m),
        common.three_locomotives(m),
        _claim_pickup(),
        claiming.pay_gray(m),
        claiming.locomotives_pay(m),
        _triple_route(),
        _country(),
        _later_tickets(),
        common.last_round(m),
        _final_turn(),
        _ties(),
        common.recap(m, RECAP),
    ]
    return Tutorial(
        map_id=m, title="Learn to play: Germany", rules=GERMANY_RULES, steps=tuple(steps)
    )
