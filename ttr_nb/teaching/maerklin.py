"""Scripted positions and text views for the Märklin lesson (``notebooks/rules_maerklin_*``).

Like :mod:`ttr_nb.teaching.scenarios` and :mod:`ttr_nb.teaching.germany` (whose helpers
work here too: ``set_hand``, ``set_face_up``, ``stack_deck``, ``give_routes``,
``attempt``, ``set_tickets``, ...), each scenario returns a game set up so that the next
action shows one rule. The helpers below add what Märklin needs: passengers standing on
the board, merchandise stacks and collections, and journeys written as lists of cities.

Edits keep every count: a passenger placed comes from its owner's supply, a token
collected comes off its city's stack.

>>> game = journey()
>>> print(stacks_text(game, ["berlin", "magdeburg"]))
Berlin (black): 7 6 5 4
Magdeburg (white): 2
>>> print(attempt(game, journey_action(game, "magdeburg", "berlin", "leipzig")))
✔ Ada moves the passenger in Magdeburg: Magdeburg → Berlin → Leipzig, collecting 7 + 4 = 11 points
  → Turn 2 · Ben to play
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..bots import GreedyBot, play_out
from ..game import Game
from ..rules.maerklin import (
    BOARD_KEY,
    LEFT_KEY,
    STACKS_KEY,
    TOKENS_KEY,
    MaerklinRules,
    MovePassenger,
)
from . import germany as gm
from .scenarios import (
    SEED,
    attempt,
    give_routes,
    refresh,
    route_id,
    score_table,
    set_face_up,
    set_hand,
    stack_deck,
    ticket_id,
    turn_text,
)

__all__ = [
    "attempt",
    "board",
    "collect",
    "crowded_board",
    "describe",
    "face_up_row",
    "final_scoring",
    "greedy_trap",
    "hand_text",
    "journey",
    "journey_action",
    "journeys_text",
    "late_game",
    "locomotive_reset",
    "passenger_card_reset",
    "place_passenger",
    "placing",
    "plus4_claims",
    "refresh",
    "rules_of",
    "score_table",
    "setup_position",
    "show_journey",
    "stacks_text",
    "started",
    "tie_break",
    "top_values",
]


def rules_of(game: Game) -> MaerklinRules:
    """The game's rules, which must be Märklin's."""
    if not isinstance(game.rules, MaerklinRules):
        raise ValueError(f"this helper needs a Märklin game, not {game.map.name}")
    return game.rules


def setup_position(players: int = 3, seed: int = SEED) -> Game:
    """A new Märklin game: nobody has drawn tickets yet."""
    return gm.setup_position(players, seed, "maerklin")


def started(players: int = 3, seed: int = SEED, long: int = 1) -> Game:
    """A game just past setup: each player drew 4 tickets (``long`` of them long), kept all."""
    return gm.started(players, seed, long, "maerklin")


# ------------------------------------------------------------------ editing
def place_passenger(game: Game, seat: int, city: str) -> None:
    """Stand one of ``seat``'s passengers in ``city`` (taken from their supply)."""
    rules = rules_of(game)
    board = game.state.extras[BOARD_KEY]
    player = game.state.players[seat]
    if city not in rules.stops:
        raise ValueError(f"{city!r} is not a city of the board")
    if city in board:
        raise ValueError(f"a passenger already stands in {game.map.place_name(city)}")
    if not player.extras[LEFT_KEY]:
        raise ValueError(f"{player.name} has no passenger left to place")
    board[city] = seat
    player.extras[LEFT_KEY] -= 1


def collect(game: Game, seat: int, city: str) -> int:
    """Give ``seat`` the top token of ``city`` (as if a passenger had passed); its value."""
    stack = game.state.extras[STACKS_KEY][city]
    value = stack.pop(0)
    game.state.players[seat].extras[TOKENS_KEY].append([city, value])
    return value


def journey_action(game: Game, *cities: str) -> MovePassenger:
    """The move of the passenger in ``cities[0]`` through the other cities, in order.

    Between two cities it takes a track not used yet on this journey if there is one;
    among those, a route of the passenger's owner, else a claimed route (an opponent's,
    for a Passenger card), else the first route.
    """
    owner = game.state.extras[BOARD_KEY].get(cities[0], game.state.current)
    path = []
    for a, b in zip(cities, cities[1:], strict=False):
        tracks = [r for r in game.map.routes if {r.a, r.b} == {a, b}]
        if not tracks:
            raise ValueError(f"no route joins {a} and {b}")
        # A track not used yet first (the engine refuses a journey that reuses one).
        ranked = sorted(
            tracks,
            key=lambda r: (
                r.id in path,
                game.state.owner.get(r.id) != owner,
                r.id not in game.state.owner,
            ),
        )
        path.append(ranked[0].id)
    return MovePassenger(cities[0], tuple(path))


# --------------------------------------------------------------- text views
def top_values(game: Game) -> dict[str, int]:
    """The top token of every city that still has one."""
    return {city: stack[0] for city, stack in game.state.extras[STACKS_KEY].items() if stack}


def stacks_text(game: Game, cities: Iterable[str]) -> str:
    """``Berlin (black): 7 6 5 4`` for each city, top token first."""
    stacks = game.state.extras[STACKS_KEY]
    lines = []
    for city in cities:
        tokens = " ".join(map(str, stacks.get(city, []))) or "empty"
        colour = game.map.city_by_id[city].merchandise
        lines.append(f"{game.map.place_name(city)} ({colour}): {tokens}")
    return "\n".join(lines)


def hand_text(game: Game, seat: int) -> str:
    """``2 red cards, 1 Locomotive +4 card``; ``no cards`` when empty."""
    rules = game.rules
    hand = game.state.players[seat].hand
    parts = [rules.count_text(c.id, hand[c.id]) for c in game.map.card_types if hand[c.id]]
    return ", ".join(parts) or "no cards"


def describe(game: Game, players: Iterable[int] | None = None) -> str:
    """The position in text: turn, face-up row, and each player's trains, points, hand,
    passengers and tokens."""
    rules = rules_of(game)
    state = game.state
    row = "  ".join(
        f"[{i + 1}] {rules.card_name(c) if c else '—'}" for i, c in enumerate(state.face_up)
    )
    lines = [turn_text(game), f"Face-up row: {row}"]
    seats = range(len(state.players)) if players is None else players
    for seat in seats:
        p = state.players[seat]
        standing = ", ".join(game.map.place_name(c) for c in rules.passengers_of(state, seat))
        tokens = " + ".join(str(v) for _, v in p.extras[TOKENS_KEY]) or "none"
        lines.append(
            f"{p.name} · {p.pieces['train']} trains · {p.route_score} route points · "
            f"hand: {hand_text(game, seat)}"
        )
        lines.append(
            f"   passengers standing: {standing or 'none'} · in supply: {p.extras[LEFT_KEY]} · "
            f"tokens: {tokens}"
        )
    return "\n".join(lines)


def journeys_text(game: Game, start: str | None = None, limit: int | None = None) -> str:
    """The journeys listed for the player to move (from ``start`` only, if given), best
    first: cities, points and Passenger cards."""
    rules = rules_of(game)
    state = game.state
    rows = []
    for action in game.legal_actions():
        if not isinstance(action, MovePassenger) or start not in (None, action.start):
            continue
        plan = rules.plan(state, state.current, action)
        rows.append((plan.points, -len(plan.paid), -len(action.path), plan))
    rows.sort(key=lambda row: row[:3], reverse=True)
    lines = []
    for points, _, _, plan in rows[:limit]:
        places = " → ".join(game.map.place_name(c) for c in plan.cities)
        cards = " (1 Passenger card)" if len(plan.paid) == 1 else ""
        if len(plan.paid) > 1:
            cards = f" ({len(plan.paid)} Passenger cards)"
        lines.append(f"{points:>3} points  {places}{cards}")
    if limit is not None and len(rows) > limit:
        lines.append(f"... and {len(rows) - limit} more")
    return "\n".join(lines) or "no journey"


# -------------------------------------------------------------------- board
def board(game: Game, highlight: Iterable[int] = (), journey: Any = None, **options: Any) -> Any:
    """The live board with merchandise stacks and passengers, and ``journey`` (a
    :class:`MovePassenger` of the player to move) previewed: its routes, its start and
    ``+value`` where it collects (see :mod:`ttr_nb.widgets.maerklin_board`)."""
    from ..widgets.maerklin_board import maerklin_board

    return maerklin_board(game, highlight, journey, **options)


def show_journey(view: Any, game: Game, journey: MovePassenger | None = None) -> Any:
    """Preview ``journey`` on ``view`` (None: clear it) and return a picture of the board
    (for notebooks read without a kernel, like :func:`~ttr_nb.teaching.scenarios.refresh`)."""
    from ..widgets.maerklin_board import JourneyPainter

    for painter in view.piece_painters:
        if isinstance(painter, JourneyPainter):
            plan = None
            if journey is not None:
                plan = rules_of(game).plan(game.state, game.state.current, journey)
            painter.show(plan, journey.path if journey is not None else ())
    return refresh(view, game)


# ---------------------------------------------------------------- scenarios
def face_up_row() -> Game:
    """The face-up row shows a Locomotive, a Locomotive +4, a Passenger card, red and blue.

    Ada may take the Locomotive +4 or the Passenger card and still take a second card;
    taking the Locomotive face up is her whole draw.
    """
    game = started()
    set_face_up(game, ["locomotive", "locomotive4", "passenger", "red", "blue"])
    stack_deck(game, ["green", "yellow", "white", "black"])
    return game


def passenger_card_reset() -> Game:
    """Two Passenger cards lie face up and the next card of the deck is a third one.

    When Ada takes the red card, the Passenger card that replaces it makes three: all
    five go to the discards and five new cards are dealt (purple, orange, green, yellow,
    white).
    """
    game = started()
    set_face_up(game, ["passenger", "passenger", "red", "blue", "black"])
    stack_deck(game, ["passenger", "purple", "orange", "green", "yellow", "white"])
    return game


def locomotive_reset() -> Game:
    """Two Locomotives and a Locomotive +4 lie face up; the next card is a Locomotive.

    Two Locomotives and a Locomotive +4 are not three Locomotives: no reset. When Ada
    takes the red card, the Locomotive that replaces it makes three: the row is dealt
    again (purple, orange, green, yellow, white).
    """
    game = started()
    set_face_up(game, ["locomotive", "locomotive", "locomotive4", "red", "blue"])
    stack_deck(game, ["locomotive", "purple", "orange", "green", "yellow", "white"])
    return game


def plus4_claims() -> Game:
    """Ada holds 2 red cards, 3 orange cards and a Locomotive +4.

    Berlin–Magdeburg is 3 red spaces: the Locomotive +4 cannot help there. Berlin–Leipzig
    is 4 orange spaces: 3 orange cards and the Locomotive +4 claim it.
    """
    game = started()
    set_hand(game, 0, red=2, orange=3, locomotive4=1)
    return game


def placing() -> Game:
    """Ada can claim Hamburg–Schwerin (2 green) or Kiel–Dänemark (2 gray) with 2 green cards.

    Ben's passenger already stands in Schwerin, so with Hamburg–Schwerin Ada may place a
    passenger in Hamburg only; with Kiel–Dänemark only in Kiel (never in a country).
    """
    game = started()
    set_hand(game, 0, green=2)
    place_passenger(game, 1, "schwerin")
    return game


JOURNEY_ROUTES = (("berlin", "magdeburg"), ("magdeburg", "leipzig"), ("berlin", "leipzig"))


def journey(cards: int = 0) -> Game:
    """Ada's routes make a triangle Berlin–Magdeburg–Leipzig, and Leipzig–Dresden.

    Her passenger stands in Magdeburg; Ben owns Dresden–Chemnitz and has a passenger in
    Chemnitz. Ada holds ``cards`` Passenger cards.
    """
    game = started()
    give_routes(game, 0, [route_id(game, a, b) for a, b in JOURNEY_ROUTES])
    give_routes(game, 0, [route_id(game, "leipzig", "dresden")])
    give_routes(game, 1, [route_id(game, "dresden", "chemnitz")])
    place_passenger(game, 0, "magdeburg")
    place_passenger(game, 1, "chemnitz")
    set_hand(game, 0, passenger=cards, red=1)
    return game


GREEDY_ROUTES = (
    ("leipzig", "berlin"),
    ("leipzig", "erfurt"),
    ("erfurt", "kassel"),
    ("kassel", "hannover"),
    ("hannover", "muenster"),
)


def greedy_trap() -> Game:
    """Ada's passenger stands in Leipzig, between Berlin (a 7 on top, but a dead end for
    her) and a chain Erfurt–Kassel–Hannover–Münster worth 3 each.

    A greedy walk goes to Berlin for 7 points and is stuck; the best journey collects 12.
    """
    game = started()
    give_routes(game, 0, [route_id(game, a, b) for a, b in GREEDY_ROUTES])
    place_passenger(game, 0, "leipzig")
    return game


def late_game(players: int = 4, seed: int = 3) -> Game:
    """A game played to the end by greedy bots: a crowded board of claimed routes."""
    game = setup_position(players, seed)
    return play_out(game, [GreedyBot(seed * 10 + i) for i in range(players)])


def crowded_board(players: int = 4, seed: int = 3) -> Game:
    """The routes of :func:`late_game` on a fresh board: every stack full, no passenger yet,
    Ada to play (a late-game network to search, with every token still to collect)."""
    done = late_game(players, seed)
    game = started(players, seed)
    for seat, player in enumerate(done.state.players):
        give_routes(game, seat, player.routes)
    return game


FINAL = (
    # Ada: Hannover–Kassel–Frankfurt completes Hannover–Frankfurt (7), misses Hamburg–Berlin
    (
        [("hannover", "kassel"), ("kassel", "frankfurt")],
        [("hannover", "frankfurt"), ("hamburg", "berlin")],
        ["berlin", "leipzig"],
    ),
    # Ben: Dortmund–Düsseldorf–Köln–Frankfurt–Mannheim completes Dortmund–Mannheim (6)
    (
        [
            ("dortmund", "duesseldorf"),
            ("duesseldorf", "koeln"),
            ("koeln", "frankfurt"),
            ("frankfurt", "mannheim"),
        ],
        [("dortmund", "mannheim")],
        ["koeln"],
    ),
    # Cleo: München–Augsburg, misses München–Konstanz
    ([("muenchen", "augsburg")], [("muenchen", "konstanz")], ["augsburg", "muenchen"]),
)

TIE_BREAKS: dict[str, tuple[Any, Any]] = {
    # Ada: 11 route points + ticket 7 + bonus 10 = 28; Ben: 25 route points + 3 tokens = 28.
    "tickets": (
        ([("hannover", "kassel"), ("kassel", "frankfurt")], [("hannover", "frankfurt")], []),
        ([("berlin", "hamburg"), ("berlin", "leipzig")], [], ["erfurt"]),
    ),
    # No ticket each. Ada: 7 route points + a 7 from Berlin; Ben: 11 route points + a 3.
    "merchandise": (
        ([("berlin", "leipzig")], [], ["berlin"]),
        ([("hamburg", "hannover"), ("hannover", "kassel")], [], ["erfurt"]),
    ),
    # No ticket each; 7 route points and a 3 each: nothing separates them.
    "shared": (
        ([("berlin", "leipzig")], [], ["erfurt"]),
        ([("hamburg", "hannover")], [], ["kassel"]),
    ),
}


def _finish(game: Game, plan: Iterable[tuple[list, list, list]]) -> Game:
    """Place each player's routes, tickets and collected tokens, and end the game there."""
    for seat, (routes, tickets, tokens) in enumerate(plan):
        give_routes(game, seat, [route_id(game, a, b) for a, b in routes])
        gm.set_tickets(game, seat, [ticket_id(game, a, b) for a, b in tickets])
        for city in tokens:
            collect(game, seat, city)
    game.state.phase = "over"
    return game


def final_scoring() -> Game:
    """A finished 3-player game: routes, tickets, merchandise and Most Completed Tickets.

    Ada and Ben each completed one ticket, Cleo none: Ada and Ben both get the 10 points.
    """
    return _finish(started(), FINAL)


def tie_break(decider: str = "tickets") -> Game:
    """A finished 2-player game where Ada and Ben end on the same points.

    ``decider``: ``"tickets"`` (Ada completed a ticket, Ben none, though Ben has more
    merchandise), ``"merchandise"`` (no tickets; Ada's tokens are worth more) or
    ``"shared"`` (nothing separates them).
    """
    if decider not in TIE_BREAKS:
        raise ValueError(f"decider must be one of {', '.join(TIE_BREAKS)}, not {decider!r}")
    return _finish(started(2), TIE_BREAKS[decider])
