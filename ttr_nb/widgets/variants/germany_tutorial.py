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

from ...deals import give_routes, route_id, set_hand, set_tickets, ticket_id
from ...game import Game
from ...rules.germany import HELD_KEY
from ..controls import count
from ..tutorial import claiming, common
from ..tutorial.model import LEARNER, Marks, Rule, Step, Tutorial, claim, register_tutorial
from ..tutorial.positions import card_of, started
from .usa_tutorial import USA_RULES

G1 = "rules_germany_1_setup_and_passengers.ipynb"
G2 = "rules_germany_2_routes_tickets_scoring.ipynb"
G3 = "rules_germany_3_countries_and_quiz.ipynb"
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


def _collect_along_routes(game: Game) -> None:
    """Each player's routes take the passengers at their ends, as their claims would have."""
    rules = game.rules
    for seat, player in enumerate(game.state.players):
        for rid in player.routes:
            route = game.map.route_by_id[rid]
            rules.take_pickups(game, seat, route, rules.pickup_options(game.state, route)[0])


def _claim_pickup() -> Step:
    def build() -> Game:
        game = started(MAP)
        route = game.map.route_by_id[_berlin_route(game)]
        set_hand(game, LEARNER, **{card_of(game.map, route.color): route.length, "blue": 1})
        return game

    def done(game: Game) -> str:
        held = game.state.players[LEARNER].extras[HELD_KEY]
        got = ", ".join(f"{n} {c}" for c, n in held.items() if n)
        return (
            f"The route is yours, and its ends gave you their passengers: you hold {got}. "
            "They count at the end, colour by colour (the players' table shows them)."
        )

    route = _berlin_route(started(MAP))
    return Step(
        key="passenger-pickup",
        title="Claiming picks up passengers",
        rules=("passenger-pickup", "pay-colour"),
        text=(
            "Claiming works as on the USA map (cards of the route's colour; locomotives for any "
            "colour), and then you take one passenger from each end of the route where some "
            "still wait. Where several colours wait, you choose which one; the app asks."
        ),
        task=("Claim the marked route from Berlin, and choose which passenger to take in Berlin."),
        build=build,
        goal=claim((route,), "claim the marked route"),
        done=done,
        marks=lambda g: Marks(
            routes=(route,),
            places=tuple(game_end for game_end in g.map.route_by_id[route].ends),
            controls=("ttr-claim-box",),
        ),
    )


def _berlin_route(game: Game) -> int:
    """An open coloured route out of Berlin (several colours wait there)."""
    return next(
        r.id
        for r in game.map.routes
        if "berlin" in r.ends and r.color != "gray" and not game.rules.parallel[r.id]
    )


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
        build=lambda: started(MAP),
        goal=None,
        done="Berlin holds the most passengers; most small cities hold one.",
        marks=Marks(places=("berlin", "hamburg", "koeln", "frankfurt", "muenchen")),
    )


def _triple_route() -> Step:
    def tracks(game: Game) -> tuple[int, ...]:
        parallel = game.rules.parallel
        first = next(r for r in game.map.routes if len(parallel[r.id]) == 2)
        return (first.id, *parallel[first.id])

    def build() -> Game:
        game = started(MAP)
        route = game.map.route_by_id[tracks(game)[0]]
        set_hand(game, LEARNER, green=route.length, red=1)
        return game

    routes = tracks(started(MAP))

    def done(game: Game) -> str:
        closed = [r for r in routes if r not in game.state.owner]
        problem = game.rules.route_problem(game.state, 1, game.map.route_by_id[closed[0]])
        return (
            f"One track is yours; the two others are closed now ({problem}). With 4 or 5 "
            "players another player could take one of them, but you never a second."
        )

    return Step(
        key="triple-route",
        title="Double and triple routes",
        rules=("double-routes", "triple-routes"),
        text=(
            "Some cities are joined by two parallel tracks, and two pairs even by three (a "
            "triple route). One player never owns two tracks of the same route; with 2 or 3 "
            "players only one track is ever used, so the first claim closes the others."
        ),
        task="Claim one track of the marked triple route (any of the three).",
        build=build,
        goal=claim(routes, "claim one track of the marked triple route"),
        done=done,
        marks=Marks(routes=routes, controls=("ttr-claim-box",)),
    )


def _country() -> Step:
    chain = [("freiburg", "stuttgart"), ("stuttgart", "ulm"), ("ulm", "augsburg")]
    chain += [("augsburg", "muenchen")]

    def into_france(game: Game) -> int:
        return route_id(game, "freiburg", "frankreich-3")

    def build() -> Game:
        game = started(MAP)
        give_routes(game, LEARNER, [route_id(game, a, b) for a, b in chain])
        give_routes(game, 1, [route_id(game, "saarbruecken", "frankreich-1")])
        set_tickets(game, LEARNER, [ticket_id(game, "frankreich", "muenchen")])
        route = game.map.route_by_id[into_france(game)]
        set_hand(game, LEARNER, **{card_of(game.map, route.color): route.length, "red": 1})
        return game

    probe = build()
    route = into_france(probe)
    spaces = tuple(p for p in probe.map.targets("frankreich"))
    return Step(
        key="countries",
        title="Countries are dead ends",
        rules=("countries",),
        text=(
            "The neighbouring countries (the diamonds at the edges) are reached by a few routes, "
            "each ending in a space of its own. A ticket naming a country is completed by "
            "reaching any of its spaces, but a country never joins two routes: Bruno's route "
            "into France does not connect to yours through it."
        ),
        task=(
            "Claim the marked route into France: it completes your ticket Frankreich – München "
            "(watch the ✓ under your hand)."
        ),
        build=build,
        goal=claim((route,), "claim the marked route into France"),
        done=lambda g: (
            "Your ticket is complete: München is joined to a space of France. The country's "
            "passenger went to whoever reached France first."
            if g.ticket_status(LEARNER)[0][1]
            else "The route is yours."
        ),
        marks=Marks(routes=(route,), places=spaces, controls=("ttr-tickets",)),
    )


def _final_turn() -> Step:
    step = common.final_turn(
        MAP,
        rules=("route-points", "tickets-scored", "majorities", "globetrotter"),
        text=(
            "Bruno started the last round and Chen has played his last turn: this is yours. "
            "Then the score: the routes' points, plus each ticket completed and minus each "
            "missed, 15 for the Globetrotter (the most completed tickets), and for each "
            "passenger colour 20 to the player holding the most and 10 to the second. There "
            "is no longest-path bonus on this map."
        ),
        done=_germany_score,
    )
    build = step.build

    def with_passengers() -> Game:
        game = build()
        _collect_along_routes(game)
        return game

    return replace(step, build=with_passengers)


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
    step = common.ties(
        MAP,
        text=(
            "Equal points are decided by the most completed tickets, then by the most "
            "passengers collected (all colours together). If everything is equal, the tied "
            "players share the victory (a house rule: the rulebook does not say)."
        ),
    )
    return step


def _later_tickets() -> Step:
    step = common.later_tickets(MAP)
    text = (
        "Drawing tickets is a whole turn: you say how many of the 4 tickets come from the long "
        "deck (12 to 22 points, hard to finish) and how many from the short one, then keep at "
        "least 1; the others go under their own deck."
    )
    task = "Press Draw tickets, answer how many long tickets you want, then keep at least one."
    return replace(step, text=text, task=task)


def _first_tickets() -> Step:
    return common.first_tickets(
        MAP,
        text=(
            "You score by claiming routes, by completing destination tickets (each adds its "
            "points if your routes join its two places, or takes them away if not), and at the "
            "end by collecting passengers. Everyone starts with 4 train cards and 45 trains. "
            "Tickets come in a short deck and a long one: you draw 4, choosing how many are "
            "long, and keep at least 2."
        ),
        task=(
            "Answer how many of your 4 tickets come from the long deck (above the cards), then "
            "tick at least 2 and press the keep button."
        ),
        rules=("aim", "setup", "two-ticket-decks"),
    )


@register_tutorial(MAP)
def germany_tutorial() -> Tutorial:
    """Germany's tutorial: 17 steps."""
    m = MAP
    steps: list[Any] = [
        _first_tickets(),
        _passengers_setup(),
        common.turn_choices(m),
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
        common.passing(m),
    ]
    return Tutorial(
        map_id=m, title="Learn to play: Germany", rules=GERMANY_RULES, steps=tuple(steps)
    )
