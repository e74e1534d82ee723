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
from ...game import Game
from ...maps import Route
from ...rules.maerklin import TOKENS_KEY, MovePassenger
from ..controls import count
from ..tutorial import claiming, common
from ..tutorial.model import (
    LEARNER,
    Goal,
    Marks,
    Rule,
    Step,
    Tutorial,
    is_card_draw,
    register_lessons,
    register_tutorial,
)
from ..tutorial.positions import cards_for, label, pays_plain, plain_slot, top_plain
from ..tutorial.script import (
    arrange,
    blind_turn,
    face_up_turn,
    in_pile,
    others_play,
    plain_cards,
)
from .usa_tutorial import USA_RULES

M1 = "rules_maerklin_1_cards_and_passengers.ipynb"
M2 = "rules_maerklin_2_journeys_and_scoring.ipynb"
register_lessons(
    {
        M1: "Ticket to Ride: Märklin — the rules (1 of 3)",
        M2: "Ticket to Ride: Märklin — the rules (2 of 3)",
    }
)
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


LOCO4, PASSENGER_CARD = "locomotive4", "passenger"

RECAP = (
    "A turn is one thing: two cards, one route, tickets, or a passenger's journey.",
    "A face-up Locomotive is the whole draw and never a second card; a Locomotive +4 or a "
    "Passenger card face up is an ordinary draw. A Locomotive drawn from the deck is wild "
    "and the draw goes on.",
    "A route takes as many cards of its colour as it has spaces (gray: any one colour; "
    "Locomotives: any colour; a Locomotive +4 only on routes of 4 or more), and need not "
    "join your other routes; it may place one of your passengers at an end.",
    "A passenger travels your routes once, collecting merchandise; each opponent's route "
    "on the way costs a Passenger card.",
    "At 2 trains or fewer after a turn the last round starts: one more turn each. Then "
    "tickets add or take their points, and the most completed tickets score 10.",
)


def _special_row(game: Game) -> Game:
    """Bruno and Chen each take a face-up card; a Locomotive +4 and a Passenger card turn
    up in their places (when the row lacks them)."""

    def turn(g: Game) -> None:
        want = [c for c in (LOCO4, PASSENGER_CARD) if c not in g.state.face_up]
        if want and in_pile(g, want[0]):
            face_up_turn(g, plain_slot(g), refill=want[0])
        else:
            blind_turn(g)

    others_play(game, turn)
    top_plain(game)
    return game


def _face_up_row() -> Step:
    def special(game: Game) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(game.state.face_up) if c in (LOCO4, PASSENGER_CARD))

    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:
            return isinstance(action, DrawFaceUp) and action.slot in special(game)
        return is_card_draw(action)

    return Step(
        key="face-up-row",
        title="Locomotive +4 and Passenger cards",
        rules=("loco4-draw",),
        text=(
            "Märklin has two more special cards, and both lie face up now (Bruno's and Chen's "
            "cards were replaced by them). A Locomotive +4 is wild, but only on routes of 4 "
            "spaces or more; a Passenger card pays a passenger's way over an opponent's "
            "route. Taking either from the face-up row does not end your draw: you still take "
            "a second card (only the plain Locomotive is a whole draw)."
        ),
        task="Take the face-up Locomotive +4 or the Passenger card, then a second card.",
        carry=_special_row,
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
            controls=tuple(f"face-up-{i}" for i in special(g)) if not g.state.pending else FACE_UP
        ),
    )


def _two_passengers_and_a_third(game: Game) -> Game:
    def turn(g: Game) -> None:
        shown = g.state.face_up.count(PASSENGER_CARD)
        if shown < 2 and in_pile(g, PASSENGER_CARD):
            face_up_turn(g, plain_slot(g), refill=PASSENGER_CARD)
        else:
            blind_turn(g)

    others_play(game, turn)
    top_plain(game, n=7)
    arrange(game, [PASSENGER_CARD])
    return game


def _passenger_reset() -> Step:
    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:
            return isinstance(action, DrawFaceUp) and game.state.face_up[
                action.slot
            ] in plain_cards(game)
        return is_card_draw(action)

    def plain_slots(game: Game) -> tuple[str, ...]:
        return tuple(
            f"face-up-{i}" for i, c in enumerate(game.state.face_up) if c in plain_cards(game)
        )

    return Step(
        key="passenger-reset",
        title="Two kinds of reset",
        rules=("three-locomotive-reset", "passenger-card-reset"),
        text=(
            "Three Locomotives face up send the whole row to the discards and five new cards "
            "come; on this map three Passenger cards do the same. (A Locomotive +4 does not "
            "count as a Locomotive here.) Two Passenger cards lie face up now, and the next "
            "card of the deck is a third."
        ),
        task="Take a coloured face-up card and watch the row; then take your second card.",
        carry=_two_passengers_and_a_third,
        goal=Goal(
            "take a coloured face-up card first",
            accepts,
            prefer=lambda _g, a: (0, a.slot) if isinstance(a, DrawFaceUp) else (1, 0),
            then="Three Passenger cards: the row was replaced. Now take your second card.",
        ),
        done=lambda g: f"{common._turn_text(g)} The third Passenger card emptied the row.",
        marks=lambda g: Marks(controls=plain_slots(g) if not g.state.pending else FACE_UP),
    )


def _placing() -> Step:
    def find(game: Game) -> list[tuple[int, ...]]:
        rules = game.rules
        return [
            (r.id,)
            for r in claiming.coloured(game, (2, 3, 4, 1))
            if pays_plain(game, r) and len(rules.pickup_options(game.state, r)) > 1
        ]

    def fallback(game: Game) -> list[str]:
        return cards_for(game, claiming.most_held(game, claiming.coloured(game, (2, 3))))

    def places(_game: Game, cards: Any) -> bool:
        return True

    step = claiming.claim_step(
        "place-passenger",
        "Claiming, and placing a passenger",
        ("pay-colour", "place-passenger"),
        lambda game, routes: (
            "To claim a route you hand in as many cards of its colour as it has spaces (a gray "
            "route takes any one colour; Locomotives stand in for any colour) and put your "
            "trains on it; it scores at once, and it need not join your other routes. Then "
            "you may stand one of your 3 passengers in a city at either end, if no passenger "
            f"stands there yet (never in a country). Your cards pay for "
            f"{label(game, routes[0])}."
        ),
        "Claim {route}, the marked route, and when the app asks, place your passenger in one "
        "of its cities.",
        find,
        fallback,
        "claim {route}, the marked route, placing a passenger",
        lambda g: (
            f"{claiming.claimed_text(g)} Your passenger stands at its end; later it can travel "
            "along your routes and collect merchandise."
        ),
        pays=places,
    )
    bind = step.bind
    assert bind is not None

    def placing(s: Step, game: Game) -> Step:
        bound = bind(s, game)
        goal = bound.goal
        assert goal is not None
        return replace(
            bound,
            goal=Goal(
                goal.asks,
                lambda g, a: goal.accepts(g, a) and isinstance(a, ClaimRoute) and bool(a.pickups),
                prefer=lambda _g, a: -len(getattr(a, "pickups", ())),
            ),
        )

    return replace(step, bind=placing)


def _loco4_pays() -> Step:
    def long(game: Game) -> list[Route]:
        return claiming.coloured(game, (4, 5, 6, 7))

    def with_loco4(game: Game, route: Route) -> bool:
        hand = game.state.players[LEARNER].hand
        return any(any(c == LOCO4 for c, _n in pay) for pay in game.rules.payments(hand, route))

    def find(game: Game) -> list[tuple[int, ...]]:
        return [(r.id,) for r in long(game) if with_loco4(game, r)]

    def fallback(game: Game) -> list[str]:
        hand = game.state.players[LEARNER].hand
        colour = cards_for(game, claiming.most_held(game, long(game)))[0]
        return [LOCO4, colour] if hand[LOCO4] == 0 else [colour, colour]

    return claiming.claim_step(
        "loco4-pays",
        "The Locomotive +4 pays on long routes",
        ("loco4-pays", "locomotive-any-colour"),
        "Locomotives stand in for any colour. The Locomotive +4 does too, but only on routes "
        "of 4 spaces or more: on a 3-space route it cannot help. (Passenger cards never pay "
        "for a route.)",
        "Claim {route}, the marked route, paying with your Locomotive +4.",
        find,
        fallback,
        "claim {route}, the marked route, with the Locomotive +4",
        lambda g: f"{claiming.claimed_text(g)}",
        pays=lambda _g, cards: any(card == LOCO4 for card, _n in cards),
    )


def _moving() -> Step:
    def journeys(game: Game) -> list[MovePassenger]:
        return [a for a in game.legal_actions() if isinstance(a, MovePassenger)]

    def tokens(game: Game) -> str:
        got = game.state.players[LEARNER].extras[TOKENS_KEY]
        values = [v for _c, v in got]
        return f"{count(len(values), 'token')} worth {sum(values)}" if values else "no token"

    def bind(step: Step, game: Game) -> Step:
        moves = journeys(game)
        starts = tuple(dict.fromkeys(m.start for m in moves))
        names = " or ".join(game.map.place_name(c) for c in starts)
        return replace(
            step,
            text=(
                "A fourth kind of turn: one of your passengers travels along your routes, each "
                "route once, and takes the top merchandise token of every city it enters (none "
                "where it starts). The tokens score at once and the passenger leaves the game. "
                "Each opponent's route on the way costs a Passenger card. Your passenger in "
                f"{names} can travel now."
            ),
            marks=Marks(places=starts, controls=("ttr-journeys",)),
        )

    return Step(
        key="move-passenger",
        title="Moving a passenger",
        rules=("move-passenger", "passenger-cards"),
        text="",
        task=(
            "In Move a passenger (under your hand) pick your passenger, choose a journey (it "
            "is drawn on the board) and press Move this passenger."
        ),
        carry=common.others_then(),
        bind=bind,
        goal=Goal(
            "move your passenger",
            lambda _g, a: isinstance(a, MovePassenger),
            prefer=lambda _g, a: -len(a.path),
        ),
        done=lambda g: (
            f"{common._turn_text(g)} Your passenger collected {tokens(g)} and left the game; "
            "the next passenger through those cities takes the next token down."
        ),
    )


def _final_turn() -> Step:
    return common.final_turn(
        MAP,
        rules=("route-points", "tickets-scored", "merchandise", "most-tickets"),
        text=(
            "You started the last round, and the others have played their last turns: this "
            "one is yours. Then the score: routes (up to 18 points for 7 spaces), tickets plus "
            "or minus, the merchandise collected by your passengers (already counted during "
            "the game), and 10 points to each player with the most completed tickets."
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
    """Märklin's tutorial: 16 steps of one game, a tie in another, and a recap."""
    m = MAP
    first = common.first_tickets(
        m,
        text=(
            "You score by claiming routes, by completing destination tickets (plus their "
            "points if your routes join their places, minus if not), and with the merchandise "
            "your passengers collect. Everyone starts with 4 train cards, 45 trains and 3 "
            "passengers. Tickets come in a short and a long deck: you draw 4, choosing how "
            "many are long, and keep at least 2. Each ticket kept and missed costs its "
            "points: for a first game, take short ones and keep the 2 closest together."
        ),
        task=(
            "Answer how many of your 4 tickets come from the long deck, then tick at least 2 "
            "and press the keep button."
        ),
        rules=("aim", "setup", "two-ticket-decks"),
    )
    turn = replace(
        common.turn_choices(m),
        title="A turn: one of four things",
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
            "(this app's house rule: the rulebook does not say)."
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
        common.recap(m, RECAP),
    )
    return Tutorial(map_id=m, title="Learn to play: Märklin", rules=MAERKLIN_RULES, steps=steps)
