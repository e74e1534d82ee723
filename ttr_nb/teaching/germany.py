"""Scripted positions and text views for the Germany lesson (``notebooks/rules_germany.ipynb``).

Like :mod:`ttr_nb.teaching.scenarios` (whose helpers work here too: ``set_hand``,
``give_routes``, ``attempt``, ``describe``, ...), each scenario returns a
:class:`~ttr_nb.game.Game` set up so that the next action shows one rule. The
helpers below add what Germany needs: the two ticket decks, the passengers on
the board and in the players' collections, and the majority table.

Passenger edits keep all 60 passengers in play: :func:`arrange_passengers`
swaps passengers with other places, :func:`give_passengers` takes them from
the board.

>>> game = passenger_pickup()
>>> print(passengers_text(game, ["berlin", "magdeburg"]))
Berlin: 2 red, 1 black, 1 yellow, 1 white
Magdeburg: 1 green
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..actions import DrawTickets, KeepTickets
from ..algorithms import ticket_completed
from ..game import Game, new_game
from ..rules.germany import BOARD_KEY, HELD_KEY, GermanyRules
from . import scenarios as sc
from .scenarios import NAMES, SEED, give_routes, route_id, set_hand, set_tickets, ticket_id

__all__ = [
    "arrange_passengers",
    "collect_from",
    "collections_text",
    "country_dead_end",
    "describe",
    "final_scoring",
    "give_passengers",
    "joined",
    "late_ticket_draw",
    "majority_text",
    "passenger_pickup",
    "passengers_text",
    "rules_of",
    "set_tickets",
    "setup_position",
    "stack_tickets",
    "started",
    "tie_break",
    "triple_route",
]


def rules_of(game: Game) -> GermanyRules:
    """The game's rules, which must be Germany's."""
    if not isinstance(game.rules, GermanyRules):
        raise ValueError(f"this helper needs a Germany game, not {game.map.name}")
    return game.rules


# ------------------------------------------------------------------- setup
def setup_position(players: int = 3, seed: int = SEED, map_name: str = "germany") -> Game:
    """A new Germany game: nobody has drawn tickets yet (passengers are on the board).

    ``map_name`` may name another map with the short/long ticket decks (Märklin).
    """
    return new_game(map_name, players=list(NAMES[:players]), seed=seed)


def started(players: int = 3, seed: int = SEED, long: int = 1, map_name: str = "germany") -> Game:
    """A game just past setup: each player drew 4 tickets (``long`` of them long), kept all."""
    game = setup_position(players, seed, map_name)
    while game.phase == "setup":
        game.apply(DrawTickets(long=long))
        game.apply(KeepTickets(tuple(game.state.players[game.current_player].offer)))
    return game


# ------------------------------------------------------------------ tickets
def stack_tickets(game: Game, deck: str, top: list[int]) -> None:
    """Make ``top`` the next tickets of ``deck`` (``"short"`` or ``"long"``), first item first."""
    state = game.state
    for t in top:
        if game.map.ticket_by_id[t].deck != deck:
            raise ValueError(f"ticket {t} belongs to the {game.map.ticket_by_id[t].deck} deck")
        for pile in state.ticket_decks.values():
            if t in pile:
                pile.remove(t)
        for p in state.players:
            if t in p.tickets:
                p.tickets.remove(t)
    state.ticket_decks[deck][:0] = top


# --------------------------------------------------------------- passengers
def _board(game: Game) -> dict[str, dict[str, int]]:
    return game.state.extras[BOARD_KEY]


def _tidy(rules: GermanyRules, held: dict[str, int]) -> dict[str, int]:
    """Colour order of the rules, zero counts left out."""
    return {c: held[c] for c in rules.passenger_colours if held.get(c)}


def arrange_passengers(game: Game, place: str, keep: Iterable[str] = (), **colours: int) -> None:
    """Put exactly these passengers at ``place`` (as many as wait there now).

    Each passenger changed is swapped with one of another place (never one in
    ``keep``), so every place keeps its count and all 60 stay on the board.
    """
    rules = rules_of(game)
    board = _board(game)
    unknown = set(colours) - set(rules.passenger_colours)
    if unknown:
        raise ValueError(f"no passenger colour {', '.join(sorted(unknown))}")
    have = Counter(board.get(place, {}))
    want = Counter({c: n for c, n in colours.items() if n})
    if sum(have.values()) != sum(want.values()):
        raise ValueError(
            f"{game.map.place_name(place)} holds {sum(have.values())} passengers, "
            f"not {sum(want.values())}"
        )
    give_away = list((have - want).elements())
    protected = {place, *keep}
    for colour in (want - have).elements():
        other = next(
            (p for p in board if p not in protected and board[p].get(colour)),
            None,
        )
        if other is None:
            raise ValueError(f"no {colour} passenger left elsewhere on the board")
        given = give_away.pop()
        board[other][colour] -= 1
        board[other][given] = board[other].get(given, 0) + 1
        board[other] = _tidy(rules, board[other])
    board[place] = _tidy(rules, dict(want))


def give_passengers(game: Game, player: int, keep: Iterable[str] = (), **colours: int) -> None:
    """Add passengers to ``player``'s collection, taken from the board (never from ``keep``).

    Places with the fewest passengers give first, so the big cities keep theirs.
    """
    rules = rules_of(game)
    board = _board(game)
    held = game.state.players[player].extras[HELD_KEY]
    protected = set(keep)
    for colour, n in colours.items():
        for _ in range(n):
            sources = [p for p in board if p not in protected and board[p].get(colour)]
            if not sources:
                raise ValueError(f"no {colour} passenger left on the board")
            place = min(sources, key=lambda p: (sum(board[p].values()), p))
            board[place][colour] -= 1
            board[place] = _tidy(rules, board[place])
            if not board[place]:
                del board[place]
            held[colour] += 1


def collect_from(game: Game, player: int, place: str) -> None:
    """Move every passenger waiting at ``place`` into ``player``'s collection."""
    rules = rules_of(game)
    waiting = _board(game).pop(rules.passenger_place.get(place, place), {})
    held = game.state.players[player].extras[HELD_KEY]
    for colour, n in waiting.items():
        held[colour] += n


# --------------------------------------------------------------- text views
def passengers_text(game: Game, places: Iterable[str]) -> str:
    """One line per place: the passengers waiting there."""
    rules = rules_of(game)
    lines = []
    for place in places:
        waiting = rules.passengers_at(game.state, place)
        lines.append(f"{game.map.place_name(place)}: {rules.waiting_text(waiting)}")
    return "\n".join(lines)


def collections_text(game: Game) -> str:
    """Each player's collected passengers by colour (public at the table)."""
    rules = rules_of(game)
    names = [p.name for p in game.state.players]
    width = max(len(n) for n in names)
    lines = []
    for seat, name in enumerate(names):
        held = rules.held(game.state, seat)
        text = ", ".join(f"{n} {c}" for c, n in held.items() if n) or "none"
        lines.append(f"{name:<{width}}  {sum(held.values()):>2} passengers: {text}")
    return "\n".join(lines)


def majority_text(game: Game) -> str:
    """The majority table: counts per colour and player, with the points each scores."""
    rules = rules_of(game)
    names = [p.name for p in game.state.players]
    head = f"{'colour':<8}" + "".join(f"{n:>12}" for n in names) + "   who scores"
    lines = [head]
    for m in rules.majorities(game.state):
        cells = "".join(
            f"{f'{n} → {pts}' if n else '0 → 0':>12}"
            for n, pts in zip(m.counts, m.points, strict=True)
        )
        firsts = ", ".join(names[i] for i in m.first)
        seconds = ", ".join(names[i] for i in m.second)
        if not m.first:
            who = "nobody holds this colour"
        elif len(m.first) > 1:
            who = f"tie for most: {firsts} 20 each, no second place"
        else:
            who = f"{firsts} 20" + (f"; second: {seconds} 10" if seconds else "; no second")
        lines.append(f"{m.colour:<8}{cells}   {who}")
    totals = [sum(m.points[i] for m in rules.majorities(game.state)) for i in range(len(names))]
    lines.append(f"{'total':<8}" + "".join(f"{t:>12}" for t in totals))
    return "\n".join(lines)


def describe(game: Game, players: Iterable[int] | None = None) -> str:
    """:func:`ttr_nb.teaching.scenarios.describe`, plus each player's collected passengers."""
    return sc.describe(game, players) + "\nPassengers collected:\n" + collections_text(game)


def joined(game: Game, player: int, a: str, b: str) -> bool:
    """Do ``player``'s routes join places ``a`` and ``b`` (a country: any of its spaces)?

    The same check as a ticket's, so country spaces are dead ends.
    """
    routes = [game.map.route_by_id[r].ends for r in game.state.players[player].routes]
    return ticket_completed(
        routes, game.map.targets(a), game.map.targets(b), dead_ends=game.map.dead_ends
    )


# ---------------------------------------------------------------- scenarios
def passenger_pickup() -> Game:
    """Ada can claim Berlin–Magdeburg (3 red) with her 3 red cards.

    Berlin holds 2 red, 1 black, 1 yellow and 1 white passenger: she must
    choose which colour to take there. Magdeburg holds a single green one,
    which she takes without choosing (the rulebook's own example).
    """
    game = started()
    set_hand(game, 0, red=3, blue=1)
    arrange_passengers(game, "berlin", red=2, black=1, yellow=1, white=1)
    arrange_passengers(game, "magdeburg", keep=["berlin"], green=1)
    return game


def country_dead_end() -> Game:
    """Ada's trains reach France twice: from Saarbrücken and from Freiburg.

    Her other routes run Freiburg–Stuttgart–Ulm–Augsburg–München. Her tickets
    Frankreich–München and München–Freiburg are complete; but Saarbrücken is
    joined to Freiburg (nor to München), because a route into a country is a
    dead end: two routes into France do not meet there.
    """
    game = started()
    ada = [
        route_id(game, "saarbruecken", "frankreich-1"),
        route_id(game, "freiburg", "frankreich-3"),
        route_id(game, "freiburg", "stuttgart"),
        route_id(game, "stuttgart", "ulm"),
        route_id(game, "ulm", "augsburg"),
        route_id(game, "augsburg", "muenchen"),
    ]
    give_routes(game, 0, ada)
    set_tickets(
        game,
        0,
        [ticket_id(game, "frankreich", "muenchen"), ticket_id(game, "muenchen", "freiburg")],
    )
    return game


def triple_route(players: int = 2) -> Game:
    """Düsseldorf–Köln is a triple route (three gray tracks of 1 space).

    Ada and Ben each hold 2 green cards and 1 red. Ada claims one track; with
    2 or 3 players the other two close at once; with 4 or 5 another player may
    take one, but Ada never a second.
    """
    game = started(players)
    for seat in range(min(players, 3)):
        set_hand(game, seat, green=2, red=1)
    return game


def late_ticket_draw() -> Game:
    """Late in a game the long deck is down to 2 tickets, and the short deck holds 30.

    Ada may draw 4 tickets with 0, 1 or 2 long ones; asking for 3 is refused.
    """
    game = started()
    state = game.state
    spare = state.ticket_decks["long"][2:]
    del state.ticket_decks["long"][2:]
    state.players[2].tickets.extend(spare)  # Cleo has been busy
    shorts = state.ticket_decks["short"]
    state.players[1].tickets.extend(shorts[30:])
    del shorts[30:]
    return game


FINAL_ROUTES = (
    # Ada: Hamburg to Frankfurt, through Hannover and Kassel
    [("hamburg", "hannover"), ("hannover", "kassel"), ("kassel", "frankfurt")],
    # Ben: Berlin–Leipzig–Erfurt, and Köln–Frankfurt
    [("berlin", "leipzig"), ("leipzig", "erfurt"), ("koeln", "frankfurt")],
    # Cleo: München–Nürnberg–Würzburg
    [("muenchen", "nuernberg"), ("nuernberg", "wuerzburg")],
)
FINAL_TICKETS = (
    [("hamburg", "frankfurt"), ("hamburg", "kassel"), ("berlin", "koeln")],
    [("berlin", "erfurt"), ("koeln", "frankfurt")],
    [("muenchen", "wuerzburg"), ("kiel", "stuttgart")],
)
FINAL_PASSENGERS = (
    {"red": 3, "black": 2, "yellow": 1, "white": 1},
    {"red": 1, "black": 2, "yellow": 2, "white": 1},
    {"red": 1, "black": 1, "green": 2, "white": 1},
)


def _finish(
    game: Game,
    routes: Iterable[Iterable[tuple[str, str]]],
    tickets: Iterable[Iterable[tuple[str, str]]],
    passengers: Iterable[dict[str, int]],
) -> Game:
    """Place each player's routes, tickets and passengers, and end the game there."""
    for seat, (plan, held, colours) in enumerate(zip(routes, tickets, passengers, strict=True)):
        give_routes(game, seat, [route_id(game, a, b) for a, b in plan])
        set_tickets(game, seat, [ticket_id(game, a, b) for a, b in held])
        give_passengers(game, seat, **colours)
    game.state.phase = "over"
    return game


def final_scoring() -> Game:
    """A finished 3-player game with every case of the passenger majorities.

    * red: Ada 3, Ben 1, Cleo 1: Ada leads; Ben and Cleo tie for second, 10 each;
    * black: Ada 2, Ben 2, Cleo 1: a tie for the lead, 20 each, nobody gets 10;
    * green: only Cleo (2): 20 for her, nobody else holds one;
    * yellow: Ben 2, Ada 1: 20 and 10; Cleo has none and scores nothing;
    * blue: nobody;
    * white: 1 each: all three tie for the lead, 20 each.

    Ada and Ben each completed 2 tickets, Cleo 1: Ada and Ben both get the
    Globetrotter (15 each).
    """
    return _finish(started(), FINAL_ROUTES, FINAL_TICKETS, FINAL_PASSENGERS)


TIE_BREAKS: dict[str, tuple[Any, Any, Any]] = {
    # Ada: 3 route points, tickets 3 + 2, Globetrotter 15, red second 10: 33.
    # Ben: 7 + 2 route points, ticket 4, red first 20: 33. Ada completed 2 tickets, Ben 1.
    "tickets": (
        (
            [("mainz", "mannheim"), ("mannheim", "stuttgart")],
            [("koeln", "frankfurt"), ("frankfurt", "wuerzburg")],
        ),
        ([("mainz", "stuttgart"), ("mannheim", "stuttgart")], [("koeln", "frankfurt")]),
        ({"red": 1}, {"red": 2}),
    ),
    # 1 completed ticket each (both get the Globetrotter) and 60 points each;
    # Ada collected 3 passengers, Ben 2.
    "passengers": (
        (
            [("mainz", "mannheim"), ("mannheim", "stuttgart")],
            [("koeln", "frankfurt"), ("mainz", "saarbruecken")],
        ),
        ([("mannheim", "stuttgart")], [("koeln", "frankfurt")]),
        ({"red": 2, "black": 1}, {"red": 1, "black": 1}),
    ),
    # 64 points, 1 completed ticket and 2 passengers each: nothing separates them.
    "shared": (
        (
            [
                ("mainz", "mannheim"),
                ("mannheim", "stuttgart"),
                ("frankfurt", "mainz"),
                ("frankfurt", "wuerzburg"),
            ],
            [("koeln", "koblenz"), ("koblenz", "saarbruecken")],
        ),
        ([("mainz", "stuttgart")], [("koeln", "saarbruecken")]),
        ({"red": 1, "black": 1}, {"red": 1, "black": 1}),
    ),
}


def tie_break(decider: str = "tickets") -> Game:
    """A finished 2-player game where Ada and Ben end on the same points.

    ``decider`` picks what breaks the tie:

    * ``"tickets"``: Ada completed 2 tickets, Ben 1 (Ben has more passengers, but
      tickets come first);
    * ``"passengers"``: 1 completed ticket each; Ada collected 3 passengers, Ben 2;
    * ``"shared"``: tickets and passengers are equal too: they share the victory.
    """
    if decider not in TIE_BREAKS:
        raise ValueError(f"decider must be one of {', '.join(TIE_BREAKS)}, not {decider!r}")
    return _finish(started(2), *TIE_BREAKS[decider])


def board(game: Game, highlight: Iterable[int] = (), **options: Any) -> Any:
    """The live board with passengers drawn (see :mod:`ttr_nb.widgets.germany_board`)."""
    from ..widgets.germany_board import passenger_board

    return passenger_board(game, highlight, **options)
