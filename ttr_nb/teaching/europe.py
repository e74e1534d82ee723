"""Scripted Europe positions for the Europe lessons, their text views and the Europe quiz.

Each scenario returns a :class:`~ttr_nb.game.Game` set up so that the next action
shows one rule acting (tunnels, ferries, stations, the borrowed routes), as
:mod:`ttr_nb.teaching.scenarios` does for the USA rules, whose helpers (``set_hand``,
``stack_deck``, ``give_routes``, ...) it reuses. A scripted position is not the result
of legal play: its history does not rebuild it.

Importing this module registers the Europe quiz as ``"europe"`` in
:data:`ttr_nb.teaching.quiz.QUIZZES`.

>>> game = tunnel()
>>> print(claim(game, "paris", "zuerich", {"red": 3}))
✔ Ada claims Paris–Zürich (3 gray tunnel) with 3 red cards, turning up 3 cards for the tunnel
  → cards turned up: red, locomotive and blue: 2 more cards asked (red or locomotives)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..actions import ClaimRoute, DrawBlind, KeepTickets
from ..game import Game, new_game
from ..rules.europe import BORROW, LEFT, STATIONS, TUNNEL, EuropeRules, words_list
from . import scenarios as sc
from .quiz import QUIZZES, Quiz, _q

if TYPE_CHECKING:
    from ..widgets import BoardWidget

__all__ = [
    "EUROPE_QUIZ",
    "attempt",
    "board",
    "borrowing",
    "claim",
    "describe",
    "draw_to_the_end",
    "ferry",
    "route_id",
    "setup_position",
    "started",
    "station_building",
    "ticket_id",
    "tunnel",
    "tunnel_text",
]

NAMES = sc.NAMES
SEED = 7
route_id = sc.route_id
ticket_id = sc.ticket_id


def _rules(game: Game) -> EuropeRules:
    assert isinstance(game.rules, EuropeRules)
    return game.rules


# ------------------------------------------------------------------- views
def tunnel_text(game: Game) -> str:
    """The tunnel waiting for an answer, or the last one: what was turned up and asked."""
    record = game.state.extras.get(TUNNEL)
    waiting = record is not None and game.state.pending == TUNNEL
    if record is None:
        record = game.state.extras.get("last_tunnel")
    if record is None:
        return "no tunnel tried yet"
    colour = record["colour"]
    fits = "locomotives" if colour is None else f"{colour} or locomotives"
    asked = record["extra"]
    text = f"cards turned up: {words_list(record['revealed'])}: "
    if not asked:
        text += "nothing more asked"
    else:
        text += f"{asked} more card{'s' if asked != 1 else ''} asked ({fits})"
    if not waiting and record.get("outcome"):
        text += f"; {record['outcome']}"
    return text


def turn_text(game: Game) -> str:
    """Whose turn it is and what they must do (the tunnel's question and the end's
    borrowed routes too)."""
    state = game.state
    if state.phase != "over" and state.pending == TUNNEL:
        return tunnel_text(game)
    if state.phase != "over" and state.pending == BORROW:
        name = state.players[state.current].name
        return f"The turns are over · {name} chooses the routes their stations borrow"
    return sc.turn_text(game)


def attempt(game: Game, action: Any) -> str:
    """Try ``action`` (see :func:`ttr_nb.teaching.scenarios.attempt`), in Europe's words."""
    return sc.attempt(game, action, turn_text)


def claim(game: Game, a: str, b: str, cards: dict[str, int], colour: str | None = None) -> str:
    """Try to claim the route between places ``a`` and ``b`` with ``cards``."""
    pay = tuple(sorted((c, n) for c, n in cards.items() if n))
    return attempt(game, ClaimRoute(route_id(game, a, b, colour), pay))


def describe(game: Game, players: Iterable[int] | None = None) -> str:
    """The position in text (:func:`ttr_nb.teaching.scenarios.describe`) with each
    player's stations, and the tickets that can still be drawn."""
    state = game.state
    rules = _rules(game)
    text = sc.describe(game, players)
    drawn = sum(len(d) for d in state.ticket_decks.values())
    text = text.replace(f"tickets left: {drawn}", f"tickets left: {rules.tickets_left(state)}")
    seats = list(range(len(state.players)) if players is None else players)
    width = max(len(p.name) for p in state.players)
    out = []
    for line in text.splitlines():
        out.append(line)
        name = line.split(" · ", 1)[0].strip()
        seat = next((i for i in seats if state.players[i].name == name), None)
        if seat is not None and not line.startswith(" "):
            built = [game.map.place_name(c) for c in rules.stations_of(state, seat)]
            left = state.players[seat].extras[LEFT]
            out.append(f"{' ' * (width + 3)}stations: {', '.join(built) or 'none'} ({left} left)")
    return "\n".join(out)


def board(game: Game, highlight: Iterable[int] = (), **options: Any) -> BoardWidget:
    """A board widget of ``game`` with Europe's tunnels, ferries and stations drawn."""
    from ..widgets.europe_board import install

    view = sc.board(game, highlight, **options)
    install(view)
    view.draw_pieces()
    return view


# --------------------------------------------------------------- scenarios
def setup_position(players: int = 3, seed: int = SEED) -> Game:
    """A new Europe game, before anyone has chosen tickets (1 long and 3 regular offered)."""
    return new_game("europe", list(NAMES[:players]), seed)


def started(players: int = 3, seed: int = SEED) -> Game:
    """A Europe game past setup: every player kept all four tickets."""
    game = setup_position(players, seed)
    while game.state.pending == "keep_tickets" and game.phase == "setup":
        game.apply(KeepTickets(tuple(game.state.players[game.current_player].offer)))
    return game


def _emptied(game: Game) -> Game:
    for seat in range(game.num_players):
        sc.set_hand(game, seat)
    return game


def ferry() -> Game:
    """Ada holds 4 red cards and 1 locomotive: which ferries can she take?"""
    game = _emptied(started())
    sc.set_hand(game, 0, red=4, locomotive=1)
    return game


def tunnel(hand: dict[str, int] | None = None, top: list[str] | None = None) -> Game:
    """Ada holds ``hand`` (5 red cards and a locomotive) and the deck's next cards are
    ``top`` (red, locomotive, blue): the three a tunnel claim turns up."""
    game = _emptied(started())
    sc.set_hand(game, 0, **(hand if hand is not None else {"red": 5, "locomotive": 1}))
    sc.stack_deck(game, top if top is not None else ["red", "locomotive", "blue"])
    return game


def station_building() -> Game:
    """Ada holds 2 blue cards, 1 red and 2 locomotives; Ben has a station in Wien."""
    game = _emptied(started())
    sc.set_hand(game, 0, blue=2, red=1, locomotive=2)
    game.state.extras[STATIONS] = {"wien": 1}
    game.state.players[1].extras[LEFT] = 2
    return game


def borrowing() -> Game:
    """Near the end of a 3-player game: Ada's tickets Paris–Wien (8) and Zürich–Budapest (6)
    are cut off, every route into Wien being Ben's or Cleo's, closed, or longer than her
    2 trains; she has stations in München and Wien.

    A legal position: Ben holds the red track of Budapest–Wien, so its white track is
    closed (with 2 or 3 players only one track of a double route may be claimed).
    """
    game = _emptied(started())
    state = game.state
    sc.set_tickets(
        game, 0, [ticket_id(game, "paris", "wien"), ticket_id(game, "zuerich", "budapest")]
    )
    sc.set_tickets(game, 1, [])
    sc.set_tickets(game, 2, [])
    sc.give_routes(
        game,
        0,
        [route_id(game, "paris", "zuerich"), route_id(game, "muenchen", "zuerich")],
    )
    sc.give_routes(
        game,
        1,
        [
            route_id(game, "muenchen", "wien"),
            route_id(game, "wien", "budapest", "red"),
            route_id(game, "wien", "zagrab"),
        ],
    )
    sc.give_routes(game, 2, [route_id(game, "berlin", "wien")])
    state.extras[STATIONS] = {"muenchen": 0, "wien": 0}
    state.players[0].extras[LEFT] = 1
    sc.set_trains(game, 0, 2)
    return game


def draw_to_the_end(game: Game) -> list[str]:
    """Everyone draws cards until the turns are over; the log lines of those turns."""
    start = len(game.log)
    while not game.is_over and game.state.pending != BORROW:
        game.apply(DrawBlind())
    return game.log[start:]


# -------------------------------------------------------------------- quiz
EUROPE_QUIZ = Quiz(
    "Europe: rules quiz",
    [
        _q(
            "You claim a 3-space green tunnel with 3 green cards. The three cards turned up "
            "are green, a locomotive and red. What now?",
            [
                "Nothing: the tunnel is built.",
                "You must add 1 more card: green or a locomotive.",
                "You must add 2 more cards, each green or a locomotive, or give the tunnel up.",
            ],
            "6fd182488971",
            "Every card turned up that is of the colour played, or a locomotive, asks for one "
            "more card of that colour or a locomotive. Two ask here; if you cannot or will not "
            "pay, you take your cards back and the turn ends.",
            "Locomotives are wild: they match any colour, also when turned up.",
        ),
        _q(
            "You claimed a gray tunnel with locomotives only. The cards turned up are red, "
            "red and a locomotive. How many more cards, and which?",
            [
                "1 more locomotive.",
                "3 more cards of any one colour.",
                "2 more red cards.",
            ],
            "f2a6f403fd1a",
            "Paid with locomotives alone, a tunnel asks only for the locomotives turned up, "
            "and they must be paid in locomotives.",
            "What colour did you play?",
        ),
        _q(
            "Which cards can pay for a 4-space gray ferry with 1 locomotive symbol?",
            [
                "4 yellow cards.",
                "3 yellow cards and 1 locomotive.",
                "2 yellow cards and 2 red cards.",
            ],
            "9f8de551b032",
            "A locomotive must pay for each locomotive symbol; the other spaces are paid as on "
            "any gray route: cards of one colour, locomotives standing in.",
            "Look for the L on the ferry's spaces.",
        ),
        _q(
            "You have built one station. What does your second one cost?",
            [
                "1 card of any colour.",
                "2 cards of one colour (locomotives count).",
                "2 cards of any colours.",
            ],
            "8154b8875a01",
            "The first station costs 1 card, the second 2 cards of one colour, the third 3 "
            "cards of one colour; locomotives stand in for any colour.",
            "The price goes up with each station.",
        ),
        _q(
            "Ben has a station in Wien. Can you build one there too?",
            [
                "Yes: stations of different players may share a city.",
                "No: a city holds one station, whoever owns it.",
                "Only if you have a route into Wien.",
            ],
            "b86a6b394333",
            "One station per city, whoever built it; a station needs no route of its owner "
            "into the city.",
            "Count the stations a city can hold.",
        ),
        _q(
            "At the end, your station in München could borrow Ben's München–Wien or Ben's "
            "München–Frankfurt. It completes a ticket only through München–Wien. Which rule "
            "applies?",
            [
                "You choose one route for that station: München–Wien.",
                "The station lends you both routes.",
                "Ben chooses which of his routes your station uses.",
            ],
            "2fbeabf4b842",
            "Each station borrows exactly one route into or out of its city, claimed by another "
            "player; its owner chooses it at the end, and it counts for all of their tickets.",
            "One station, how many routes?",
        ),
        _q(
            "Does a borrowed route count toward the European Express (the longest path)?",
            [
                "Yes, like one of your own routes.",
                "Only if no other player holds a longer path.",
                "No: it counts for your tickets only.",
            ],
            "d933cf4206ac",
            "A station helps with tickets only; the longest continuous path is made of your "
            "own routes.",
            "What is a station for?",
        ),
        _q(
            "Ada and Ben tie on points and on completed tickets. Ada built 2 stations and each "
            "of them borrowed a route at the end; Ben built 1, which borrowed one too. Ada "
            "holds the European Express. Who wins?",
            [
                "Ada: she holds the European Express.",
                "Ben: he used fewer stations.",
                "They share the victory.",
            ],
            "33c9acb0227f",
            "Ties go to the most completed tickets, then to the fewest stations used, and only "
            "then to the European Express. Here every station built borrowed a route, so it "
            "was used in every reading. A station that borrowed nothing counts as used too in "
            "this engine, which counts the stations built: a house rule, since the rulebook "
            "does not say (section 12).",
            "There are three tie-breakers, in a set order.",
        ),
    ],
)
"""The quiz at the end of the Europe rules lessons (``notebooks/rules_europe_*.ipynb``)."""

QUIZZES["europe"] = EUROPE_QUIZ
