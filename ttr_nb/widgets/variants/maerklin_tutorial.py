"""Märklin's tutorial: the original game's steps on the (stand-in) Märklin board, then
what Märklin adds: the Locomotive +4 and Passenger cards, two kinds of reset, two ticket
decks, placing and moving passengers, merchandise and the most-tickets bonus. See
:mod:`ttr_nb.widgets.tutorial`.

The rule ids are defined here with the lesson part that teaches each; Märklin's rules
lessons name them in their sections' ``ttr_rules`` metadata.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...actions import ClaimRoute, DrawFaceUp
from ...deals import give_routes, route_id, set_face_up, set_hand, stack_deck
from ...game import Game
from ...rules.maerklin import BOARD_KEY, LEFT_KEY, TOKENS_KEY, MovePassenger
from ..controls import count
from ..tutorial import claiming, common
from ..tutorial.model import (
    LEARNER,
    Goal,
    Marks,
    Rule,
    Step,
    Tutorial,
    claim,
    is_card_draw,
    register_tutorial,
)
from ..tutorial.positions import card_of, started
from .usa_tutorial import USA_RULES

M1 = "rules_maerklin_1_cards_and_passengers.ipynb"
M2 = "rules_maerklin_2_journeys_and_scoring.ipynb"
MAP = "maerklin"
FACE_UP = tuple(f"face-up-{i}" for i in range(5))

_FROM_USA = {r.id: r for r in USA_RULES}

MAERKLIN_RULES = (
    _FROM_USA["aim"],
    Rule("setup", "Setting up: cards, trains, passengers", M1, "1. The numbers"),
    Rule("two-ticket-decks", "Two ticket decks", M1, "5. Tickets: two decks, as in Germany"),
    _FROM_USA["turn-choices"],
    _FROM_USA["two-cards"],
    Rule("face-up-locomotive", "Face-up locomotives", M1, "2. The face-up row"),
    Rule("loco4-draw", "A face-up Locomotive +4 or Passenger card", M1, "2. The face-up row"),
    Rule("three-locomotive-reset", "Three locomotives face up", M1, "3. Two kinds of reset"),
    Rule("passenger-card-reset", "Three Passenger cards face up", M1, "3. Two kinds of reset"),
    _FROM_USA["pay-colour"],
    Rule("place-passenger", "Placing a passenger", M1, "6. Placing a passenger"),
    Rule(
        "loco4-pays",
        "The Locomotive +4 pays on long routes",
        M1,
        "4. The Locomotive +4 pays only on long routes",
    ),
    _FROM_USA["locomotive-any-colour"],
    _FROM_USA["pay-gray"],
    _FROM_USA["double-routes"],
    Rule("move-passenger", "Moving a passenger", M2, "7. Moving a passenger"),
    Rule(
        "passenger-cards", "Passenger cards open opponents' routes", M2, "8. The rules of the road"
    ),
    Rule(
        "later-tickets",
        "Drawing tickets later, from two decks",
        M1,
        "5. Tickets: two decks, as in Germany",
    ),
    _FROM_USA["last-round"],
    Rule("route-points", "Route points", M2, "10. The final score"),
    Rule("tickets-scored", "Tickets won and lost", M2, "10. The final score"),
    Rule("merchandise", "Merchandise", M2, "10. The final score"),
    Rule("most-tickets", "The most-tickets bonus", M2, "10. The final score"),
    Rule("ties", "Ties", M2, "10. The final score"),
    _FROM_USA["house-rules"],
)


def _place(game: Game, seat: int, city: str) -> None:
    """Stand one of ``seat``'s passengers in ``city``."""
    game.state.extras[BOARD_KEY][city] = seat
    game.state.players[seat].extras[LEFT_KEY] -= 1


def _face_up_row() -> Step:
    def build() -> Game:
        game = started(MAP)
        set_hand(game, LEARNER, red=1)
        set_face_up(game, ["locomotive4", "passenger", "red", "blue", "green"])
        stack_deck(game, ["yellow", "white", "black", "orange"])
        return game

    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:
            return isinstance(action, DrawFaceUp) and game.state.face_up[action.slot] in (
                "locomotive4",
                "passenger",
            )
        return is_card_draw(action)

    return Step(
        key="face-up-row",
        title="Locomotive +4 and Passenger cards",
        rules=("loco4-draw",),
        text=(
            "Märklin has two more special cards. A Locomotive +4 is wild, but only on routes "
            "of 4 spaces or more; a Passenger card pays a passenger's way over an opponent's "
            "route. Taking either from the face-up row does not end your draw: you still take "
            "a second card (only the plain Locomotive is a whole draw)."
        ),
        task="Take the face-up Locomotive +4 or the Passenger card, then a second card.",
        build=build,
        goal=Goal(
            "take the Locomotive +4 or the Passenger card first",
            accepts,
            then="Your draw goes on: take a second card.",
        ),
        done=lambda g: (
            f"{common._turn_text(g)} Two cards, as with colours: the Locomotive +4 and the "
            "Passenger card only look special in the row."
        ),
        marks=lambda g: Marks(
            controls=("face-up-0", "face-up-1") if not g.state.pending else FACE_UP
        ),
    )


def _passenger_reset() -> Step:
    def build() -> Game:
        game = started(MAP)
        set_hand(game, LEARNER, red=1)
        set_face_up(game, ["passenger", "passenger", "red", "blue", "black"])
        stack_deck(game, ["passenger", "purple", "orange", "green", "yellow", "white", "red"])
        return game

    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:
            return isinstance(action, DrawFaceUp) and game.state.face_up[action.slot] != "passenger"
        return is_card_draw(action)

    return Step(
        key="passenger-reset",
        title="Two kinds of reset",
        rules=("three-locomotive-reset", "passenger-card-reset"),
        text=(
            "As on the USA map, three Locomotives face up send the whole row to the discards "
            "and five new cards come; on this map three Passenger cards do the same. (A "
            "Locomotive +4 does not count as a Locomotive here.) Two Passenger cards lie face "
            "up, and the next card of the deck is a third."
        ),
        task="Take a coloured face-up card and watch the row; then take your second card.",
        build=build,
        goal=Goal(
            "take a coloured face-up card first",
            accepts,
            prefer=lambda _g, a: (0, a.slot) if isinstance(a, DrawFaceUp) else (1, 0),
            then="Three Passenger cards: the row was replaced. Now take your second card.",
        ),
        done=lambda g: f"{common._turn_text(g)} The third Passenger card emptied the row.",
        marks=lambda g: Marks(controls=FACE_UP[2:] if not g.state.pending else FACE_UP),
    )


def _placing() -> Step:
    def route(game: Game) -> int:
        return route_id(game, "hamburg", "schwerin")

    def build() -> Game:
        game = started(MAP)
        rid = route(game)
        colour = card_of(game.map, game.map.route_by_id[rid].color)
        set_hand(game, LEARNER, **{colour: game.map.route_by_id[rid].length, "red": 1})
        _place(game, 1, "schwerin")
        return game

    rid = route(started(MAP))

    goal = claim((rid,), "claim the marked route, placing a passenger")
    places = Goal(
        goal.asks,
        lambda g, a: goal.accepts(g, a) and isinstance(a, ClaimRoute) and bool(a.pickups),
    )
    return Step(
        key="place-passenger",
        title="Claiming, and placing a passenger",
        rules=("pay-colour", "place-passenger"),
        text=(
            "Claiming is as on the USA map: cards of the route's colour, as many as its "
            "spaces. Then you may stand one of your 3 passengers in a city at either end, if "
            "no passenger stands there yet (never in a country). Bruno's passenger (disc 2) "
            "already stands in Schwerin."
        ),
        task=("Claim the marked route, and when the app asks, place your passenger in Hamburg."),
        build=build,
        goal=places,
        done=lambda g: (
            f"{claiming.claimed_text(g)} Your passenger stands in Hamburg; later it can travel "
            "along your routes and collect merchandise."
        ),
        marks=Marks(routes=(rid,), places=("hamburg", "schwerin"), controls=("ttr-claim-box",)),
    )


def _loco4_pays() -> Step:
    def route(game: Game) -> int:
        return route_id(game, "berlin", "leipzig")

    def build() -> Game:
        game = started(MAP)
        rid = route(game)
        colour = card_of(game.map, game.map.route_by_id[rid].color)
        set_hand(game, LEARNER, **{colour: 3, "red": 2, "locomotive4": 1})
        return game

    rid = route(started(MAP))
    return Step(
        key="loco4-pays",
        title="The Locomotive +4 pays on long routes",
        rules=("loco4-pays", "locomotive-any-colour"),
        text=(
            "Locomotives stand in for any colour. The Locomotive +4 does too, but only on "
            "routes of 4 spaces or more: on a 3-space route it cannot help. (Passenger cards "
            "never pay for a route.)"
        ),
        task="Claim the marked 4-space route, paying with your Locomotive +4.",
        build=build,
        goal=claim(
            (rid,),
            "claim the marked route with the Locomotive +4",
            pays=lambda cards: any(card == "locomotive4" for card, _n in cards),
        ),
        done=lambda g: f"{claiming.claimed_text(g)}",
        marks=Marks(routes=(rid,), controls=("ttr-claim-box", "ttr-hand-box")),
    )


JOURNEY = (("berlin", "magdeburg"), ("magdeburg", "leipzig"), ("berlin", "leipzig"))


def _moving() -> Step:
    def build() -> Game:
        game = started(MAP)
        give_routes(game, LEARNER, [route_id(game, a, b) for a, b in JOURNEY])
        give_routes(game, LEARNER, [route_id(game, "leipzig", "dresden")])
        give_routes(game, 1, [route_id(game, "dresden", "chemnitz")])
        _place(game, LEARNER, "magdeburg")
        _place(game, 1, "chemnitz")
        set_hand(game, LEARNER, passenger=1, red=1)
        return game

    def tokens(game: Game) -> str:
        got = game.state.players[LEARNER].extras[TOKENS_KEY]
        values = [v for _c, v in got]
        return f"{len(values)} tokens worth {sum(values)}" if values else "no token"

    return Step(
        key="move-passenger",
        title="Moving a passenger",
        rules=("move-passenger", "passenger-cards"),
        text=(
            "A fourth kind of turn: one of your passengers travels along your routes, each "
            "route once, and takes the top merchandise token of every city it enters (none "
            "where it starts). The tokens score at once and the passenger leaves the game. "
            "Each opponent's route on the way costs a Passenger card: you hold one."
        ),
        task=(
            "In Move a passenger (under your hand) pick your passenger in Magdeburg, choose a "
            "journey (it is drawn on the board) and press Move this passenger."
        ),
        build=build,
        goal=Goal(
            "move your passenger",
            lambda _g, a: isinstance(a, MovePassenger),
            prefer=lambda _g, a: -len(a.path),
        ),
        done=lambda g: (
            f"{common._turn_text(g)} Your passenger collected {tokens(g)} and left the game; "
            "the next passenger through those cities takes the next token down."
        ),
        marks=Marks(places=("magdeburg",), controls=("ttr-journeys",)),
    )


def _final_turn() -> Step:
    return common.final_turn(
        MAP,
        rules=("route-points", "tickets-scored", "merchandise", "most-tickets"),
        text=(
            "Bruno started the last round and Chen has played his last turn: this is yours. "
            "Then the score: routes (up to 18 points for 7 spaces), tickets plus or minus, the "
            "merchandise collected by your passengers (already counted during the game), and "
            "10 points to each player with the most completed tickets."
        ),
        done=_score,
    )


def _score(game: Game) -> str:
    rows = game.scores()
    mine = rows[LEARNER]
    result = game.result() or {}
    parts = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in mine.items() if k != "total")
    winners = " and ".join(game.names[i] for i in result.get("winners", []))
    won = sum(1 for _t, ok in game.ticket_status(LEARNER) if ok)
    return (
        f"The game is over. Your score: {parts}; total {mine['total']}. You completed "
        f"{count(won, 'ticket')}. {winners} won."
    )


@register_tutorial(MAP)
def maerklin_tutorial() -> Tutorial:
    """Märklin's tutorial: 16 steps."""
    m = MAP
    first = common.first_tickets(
        m,
        text=(
            "You score by claiming routes, by completing destination tickets (plus their "
            "points if your routes join their places, minus if not), and with the merchandise "
            "your passengers collect. Everyone starts with 4 train cards, 45 trains and 3 "
            "passengers. Tickets come in a short and a long deck: you draw 4, choosing how "
            "many are long, and keep at least 2."
        ),
        task=(
            "Answer how many of your 4 tickets come from the long deck, then tick at least 2 "
            "and press the keep button."
        ),
        rules=("aim", "setup", "two-ticket-decks"),
    )
    turn = replace(
        common.turn_choices(m),
        text=(
            "On your turn you do exactly one thing: take two cards, claim one route, draw "
            "tickets, or (Märklin's fourth kind of turn) move one of your passengers. The "
            "status line says what you may do."
        ),
    )
    later = replace(
        common.later_tickets(m),
        text=(
            "Drawing tickets is a whole turn: you say how many of the 4 come from the long "
            "deck, then keep at least 1; the others go under their own deck."
        ),
        task="Press Draw tickets, answer how many long tickets, then keep at least one.",
    )
    ties = common.ties(
        m,
        text=(
            "Equal points are decided by the most completed tickets, then by the highest "
            "merchandise total. If everything is equal, the tied players share the victory "
            "(a house rule)."
        ),
    )
    steps = (
        first,
        turn,
        common.two_cards(m),
        _face_up_row(),
        common.face_up_locomotive(m),
        _passenger_reset(),
        _placing(),
        _loco4_pays(),
        claiming.pay_gray(m),
        claiming.double_routes(m),
        _moving(),
        later,
        common.last_round(m),
        _final_turn(),
        ties,
        common.passing(m),
    )
    return Tutorial(map_id=m, title="Learn to play: Märklin", rules=MAERKLIN_RULES, steps=steps)
