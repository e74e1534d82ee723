"""Scripted positions for the rules notebooks: each one shows a single rule acting.

Every scenario is a small function that returns a :class:`~ttr_nb.game.Game`
set up so that the *next* action shows the rule: the face-up row, the top of
the deck, the hands and the claimed routes are placed by editing
``game.state``, which is plain data. The helpers used to place them
(:func:`set_hand`, :func:`set_face_up`, :func:`stack_deck`, :func:`give_routes`,
...) are public, so a learner can change a position and run it again.

A scripted position is not the result of legal play: its history does not
rebuild it, so :meth:`Game.replay` and saves start again from the seed. That
is fine for teaching, not for saving.

Text views (:func:`describe`, :func:`attempt`, :func:`score_table`) print
stable text, so notebook cells can check their output; :func:`board` shows
the same position on the live board widget (needs the ``app`` extra).

>>> from ttr_nb import DrawFaceUp
>>> game = locomotive_draw()
>>> game.state.face_up[0]
'locomotive'
>>> print(attempt(game, DrawFaceUp(0)))
✔ Ada takes the face-up locomotive
  → Turn 2 · Ben to play
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..actions import ClaimRoute, DrawBlind, KeepTickets, Payment
from ..algorithms.longest_trail import longest_trail
from ..deals import (
    give_routes,
    route_id,
    set_face_up,
    set_hand,
    set_tickets,
    set_trains,
    stack_deck,
    stack_tickets,
    ticket_id,
)
from ..errors import IllegalActionError
from ..game import Game, new_game

if TYPE_CHECKING:
    from ..widgets import BoardWidget

__all__ = [
    "NAMES",
    "SEED",
    "attempt",
    "blind_locomotive",
    "board",
    "cards_text",
    "claimable",
    "claiming",
    "describe",
    "ticket_lines",
    "double_route",
    "double_route_three_players",
    "drawing_tickets",
    "endless_resets",
    "final_round",
    "final_scoring",
    "give_routes",
    "locomotive_draw",
    "longest_path_tie",
    "longest_trail_routes",
    "no_legal_action",
    "payment_options",
    "refresh",
    "route_id",
    "route_labels",
    "route_list",
    "score_table",
    "set_face_up",
    "set_hand",
    "set_tickets",
    "set_trains",
    "setup_position",
    "stack_deck",
    "stack_tickets",
    "started",
    "three_locomotive_reset",
    "ticket_id",
    "ticket_label",
    "tie_break",
    "turn_text",
    "two_card_draw",
]

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve")
"""Player names used by every scenario (seat order)."""

SEED = 7


# ------------------------------------------------------------------ lookups
def ticket_label(game: Game, ticket: int) -> str:
    """``Denver–El Paso (4)`` style text for a ticket."""
    t = game.map.ticket_by_id[ticket]
    return "–".join(game.map.place_name(c) for c in t.cities) + f" ({t.points})"


def route_labels(game: Game, routes: Iterable[int]) -> str:
    """Readable names of routes, one per line."""
    return "\n".join(game.map.route_label(game.map.route_by_id[r]) for r in routes)


def route_list(game: Game, routes: Iterable[int], width: int = 88) -> str:
    """Routes as a short wrapped list, both tracks of a double route counted as ``×2``."""
    counts: dict[str, int] = {}
    for r in routes:
        label = game.map.route_label(game.map.route_by_id[r])
        counts[label] = counts.get(label, 0) + 1
    items = [label + (f" ×{n}" if n > 1 else "") for label, n in sorted(counts.items())]
    return textwrap.fill(", ".join(items), width)


# ------------------------------------------------------------------ queries
def claimable(game: Game, player: int | None = None) -> list[int]:
    """Routes ``player`` (default: the one to play) could pay for now with their hand."""
    seat = game.current_player if player is None else player
    rules, state = game.rules, game.state
    hand = state.players[seat].hand
    return [r.id for r in rules.claimable_routes(state, seat) if rules.payments(hand, r)]


def payment_options(game: Game, route: int) -> list[Payment]:
    """Every way the player to move may pay for ``route`` now, as the engine lists them."""
    return [a.cards for a in game.legal_actions() if isinstance(a, ClaimRoute) and a.route == route]


def longest_trail_routes(game: Game, player: int) -> list[int]:
    """Route ids of one longest continuous path of ``player``, in walking order."""
    routes = [game.map.route_by_id[r] for r in game.state.players[player].routes]
    return [t[3] for t in longest_trail([(r.a, r.b, r.length, r.id) for r in routes])]


# --------------------------------------------------------------- text views
def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def cards_text(game: Game, cards: dict[str, int]) -> str:
    """``2 red, 2 locomotives`` in the map's card order; ``no cards`` when empty."""
    parts = [
        f"{cards[c.id]} {c.id}{'s' if c.wild and cards[c.id] != 1 else ''}"
        for c in game.map.card_types
        if cards.get(c.id)
    ]
    return ", ".join(parts) or "no cards"


def turn_text(game: Game) -> str:
    """Whose turn it is and what they must do, in one line."""
    state = game.state
    if state.phase == "over":
        return "Game over"
    name = state.players[state.current].name
    if state.phase == "setup" and state.pending is None:  # two ticket decks (Germany)
        deal = game.rules.setup_ticket_deal
        return f"Setup · {name} draws {deal} tickets, choosing how many come from the long deck"
    if state.phase == "setup":
        least = game.rules.setup_ticket_keep
        return f"Setup · {name} chooses which tickets to keep (at least {least})"
    line = f"Turn {state.turn} · {name} to play"
    if state.pending == "second_card":
        line += " · must take a second card (not a face-up locomotive)"
    elif state.pending == "keep_tickets":
        line += f" · must keep at least {game.rules.ticket_keep} of the tickets drawn"
    if state.final_turns_left is not None:
        trigger = state.players[state.last_round_by].name
        left = state.final_turns_left
        line += f" · last round (started by {trigger}): {_plural(left, 'turn')} left"
    return line


def describe(game: Game, players: Iterable[int] | None = None) -> str:
    """A plain-text view of the position: turn, face-up row, piles, players.

    ``players`` picks whose hand and tickets are listed (default: everybody;
    at a real table you would only see your own).
    """
    state = game.state
    seats = range(len(state.players)) if players is None else players
    # Slots are shown 1 to 5, as a player counts them (and as the engine's messages do).
    row = "  ".join(f"[{i}] {c or '—'}" for i, c in enumerate(state.face_up, start=1))
    tickets_left = sum(len(d) for d in state.ticket_decks.values())
    lines = [
        turn_text(game),
        f"Face-up row: {row}",
        f"Deck: {_plural(len(state.deck), 'card')} · discard pile: {len(state.discard)} · "
        f"tickets left: {tickets_left}",
    ]
    width = max(len(p.name) for p in state.players)
    for i in seats:
        p = state.players[i]
        lines.append(
            f"{p.name:<{width}} · {p.pieces['train']} trains · {p.route_score} points · "
            f"hand: {cards_text(game, p.hand)}"
        )
        lines += ticket_lines(game, i, " " * (width + 3))
    return "\n".join(lines)


def ticket_lines(
    game: Game, seat: int, indent: str, label: Callable[[Game, int], str] | None = None
) -> list[str]:
    """The tickets ``seat`` is offered and holds (completed ones ticked), one line each,
    each ticket in ``label``'s words (:func:`ticket_label` by default)."""
    label = label or ticket_label
    player = game.state.players[seat]
    lines = []
    if player.offer:
        offered = ", ".join(label(game, t) for t in player.offer)
        lines.append(f"{indent}tickets offered: {offered}")
    if player.tickets:
        held = ", ".join(
            label(game, t) + (" ✔" if done else "") for t, done in game.ticket_status(seat)
        )
        lines.append(f"{indent}tickets: {held}")
    return lines


def attempt(game: Game, action: Any, turn: Callable[[Game], str] | None = None) -> str:
    """Try ``action`` for the player to move and say what happened.

    A legal action is carried out (``✔`` and the log line, then whose turn
    it is, in ``turn``'s words: :func:`turn_text` by default); an illegal one is
    refused (``✘`` and the rule) and the game is left exactly as it was.
    """
    before = game.state.to_dict()
    try:
        game.apply(action)
    except IllegalActionError as err:
        unchanged = game.state.to_dict() == before
        return f"✘ Refused: {err}" + ("" if unchanged else "  (!! the state changed)")
    return f"✔ {game.log[-1]}\n  → {(turn or turn_text)(game)}"


def score_table(game: Game) -> str:
    """The score breakdown (running score during play, final once over) and the winner."""
    rows = game.scores()
    columns = [k for k in rows[0] if k != "total"] + ["total"]
    names = [p.name for p in game.state.players]
    width = max(len(n) for n in names + ["player"])
    heads = [c.replace("_", " ") for c in columns]
    lines = [f"{'player':<{width}}  " + "  ".join(f"{h:>7}" for h in heads)]
    for name, row in zip(names, rows, strict=True):
        pairs = zip(columns, heads, strict=True)
        cells = "  ".join(f"{row[c]:>{max(7, len(h))}}" for c, h in pairs)
        lines.append(f"{name:<{width}}  {cells}")
    result = game.result()
    if result is not None:
        winners = [names[i] for i in result["winners"]]
        if len(winners) == 1:
            lines.append(f"Winner: {winners[0]} (decided by {result['decided_by']})")
        else:
            together = ", ".join(winners[:-1]) + " and " + winners[-1]
            lines.append(f"Shared victory: {together}")
    return "\n".join(lines)


# -------------------------------------------------------------------- board
def board(game: Game, highlight: Iterable[int] = (), **options: Any) -> BoardWidget:
    """A board widget showing ``game``'s claimed routes, with ``highlight`` highlighted.

    Display ``view`` (the widget, plus a picture of the board for notebooks read
    without a kernel); after changing the game call :func:`refresh`.
    ``options`` go to :class:`~ttr_nb.widgets.BoardWidget` (e.g. ``max_width``).
    """
    from ..widgets.game_board import game_board

    return game_board(game, highlight, **options)


def refresh(view: BoardWidget, game: Game, highlight: Iterable[int] = ()) -> Any:
    """Show ``game``'s current claimed routes (and ``highlight``) on ``view``.

    Returns a :class:`~ttr_nb.widgets.board_svg.BoardSnapshot` of the board as
    it is now: as the last line of a cell it shows nothing in a live notebook
    (the board above has changed already) and a picture of the changed board
    in a notebook read without a kernel.
    """
    from ..widgets.game_board import refresh_board

    return refresh_board(view, game, highlight)


# ---------------------------------------------------------------- scenarios
def setup_position(players: int = 3, seed: int = SEED) -> Game:
    """A new game, before anyone has chosen tickets.

    Each player holds 4 cards and is offered 3 tickets; 5 cards lie face up.
    The first player must keep at least 2 tickets; the rest go under the deck.
    """
    return new_game("usa", players=list(NAMES[:players]), seed=seed)


def started(players: int = 3, seed: int = SEED) -> Game:
    """A game just past setup: every player kept all three tickets offered."""
    game = setup_position(players, seed)
    while game.phase == "setup":
        offer = game.state.players[game.current_player].offer
        game.apply(KeepTickets(tuple(offer)))
    return game


def two_card_draw() -> Game:
    """Ada draws cards: no locomotive in the row, the deck will give yellow then orange.

    Taking a face-up card (slot 0, red) turns a yellow up in its place and
    Ada's turn goes on: she must take a second card. Drawing blind then
    gives her an orange and the turn passes to Ben.
    """
    game = started()
    set_hand(game, 0, red=2, blue=1, green=1)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    stack_deck(game, ["yellow", "orange"])
    return game


def locomotive_draw() -> Game:
    """One locomotive face up (slot 0), and a locomotive on top of the deck.

    Three things to try, each on a fresh copy of this position:

    * take the face-up locomotive (slot 0): that is the whole draw, the turn passes;
    * take the red (slot 1): a locomotive turns up in its place, and it may
      not be the second card;
    * draw blind: the locomotive from the deck counts as one card, a second
      card follows.
    """
    game = started()
    set_hand(game, 0, red=1, blue=1)
    set_face_up(game, ["locomotive", "red", "blue", "green", "white"])
    stack_deck(game, ["locomotive", "yellow", "orange"])
    return game


def blind_locomotive() -> Game:
    """The next card of the deck is a locomotive and the row has none.

    Ada draws blind: the locomotive is a single card, so she draws again.
    """
    game = started()
    set_hand(game, 0, red=1, blue=1)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    stack_deck(game, ["locomotive", "yellow"])
    return game


def three_locomotive_reset() -> Game:
    """Two locomotives face up, and the next card of the deck is a third.

    Taking the green (slot 2) turns up the third locomotive: the five face-up
    cards are discarded at once and five new ones laid out (red, blue,
    yellow, orange, purple). Ada then takes her second card as usual.
    """
    game = started()
    set_hand(game, 0, red=1, blue=1)
    set_face_up(game, ["locomotive", "locomotive", "green", "white", "black"])
    stack_deck(game, ["locomotive", "red", "blue", "yellow", "orange", "purple", "white"])
    return game


def claiming() -> Game:
    """Ada holds 3 purple, 4 red, 1 blue and 2 locomotives, and may claim a route.

    Denver–Omaha (4 purple) takes purple cards, topped up with locomotives;
    Denver–Santa Fe (2 gray) takes any one colour, or locomotives.
    """
    game = started()
    set_hand(game, 0, purple=3, red=4, blue=1, locomotive=2)
    give_routes(game, 1, [route_id(game, "chicago", "omaha")])
    give_routes(game, 2, [route_id(game, "el-paso", "phoenix")])
    return game


def double_route(players: int = 3) -> Game:
    """Denver–Kansas City is a double route (black and orange tracks, 4 spaces each).

    Ada holds 4 black and 4 orange and will claim the black track; Ben holds
    4 orange and wants the orange one. With 2 or 3 players the second track
    is then closed; with 4 or 5 it stays open to another player, but never to
    Ada, who already owns its twin.
    """
    game = started(players)
    set_hand(game, 0, black=4, orange=4)
    set_hand(game, 1, orange=4)
    return game


def double_route_three_players() -> Game:
    """:func:`double_route` with 3 players: the second track will be closed."""
    return double_route(3)


def drawing_tickets() -> Game:
    """Ada draws destination tickets: Denver–El Paso, Kansas City–Houston, Seattle–New York.

    She must keep at least one; the others go under the ticket deck.
    """
    game = started()
    give_routes(game, 0, [route_id(game, "denver", "santa-fe")])
    top = [
        ticket_id(game, "denver", "el-paso"),
        ticket_id(game, "kansas-city", "houston"),
        ticket_id(game, "seattle", "new-york"),
    ]
    stack_tickets(game, top)
    return game


ADA_LATE_ROUTES = [
    ("seattle", "helena", None),
    ("helena", "duluth", None),
    ("duluth", "toronto", None),
    ("toronto", "montreal", None),
    ("montreal", "boston", None),
    ("boston", "new-york", "yellow"),
    ("new-york", "washington", "orange"),
    ("washington", "raleigh", None),
    ("raleigh", "charleston", None),
    ("charleston", "miami", None),
    ("miami", "new-orleans", None),
]
BEN_LATE_ROUTES = [
    ("san-francisco", "los-angeles", "yellow"),
    ("los-angeles", "el-paso", None),
    ("el-paso", "dallas", None),
    ("dallas", "houston", None),
    ("houston", "new-orleans", None),
    ("el-paso", "santa-fe", None),
    ("denver", "omaha", None),
    ("omaha", "chicago", None),
]
CLEO_LATE_ROUTES = [
    ("calgary", "winnipeg", None),
    ("winnipeg", "sault-st-marie", None),
    ("sault-st-marie", "toronto", None),
    ("toronto", "pittsburgh", None),
    ("pittsburgh", "nashville", None),
]
LATE_TICKETS = [
    [("seattle", "new-york"), ("new-york", "atlanta"), ("los-angeles", "miami")],
    [("los-angeles", "chicago"), ("kansas-city", "houston")],
    [("sault-st-marie", "nashville"), ("winnipeg", "houston")],
]


def final_round() -> Game:
    """Late in a 3-player game: Ada has 4 trains left and can claim Atlanta–Raleigh (2).

    Claiming it leaves her 2 trains, which starts the last round: Ben, Cleo
    and Ada herself each get exactly one more turn, then the game ends.
    (The claim also completes her New York–Atlanta ticket; Ben can complete
    Los Angeles–Chicago with Santa Fe–Denver on his last turn.)
    """
    game = started()
    plans = (ADA_LATE_ROUTES, BEN_LATE_ROUTES, CLEO_LATE_ROUTES)
    for seat, (plan, tickets) in enumerate(zip(plans, LATE_TICKETS, strict=True)):
        give_routes(game, seat, [route_id(game, a, b, c) for a, b, c in plan])
        set_tickets(game, seat, [ticket_id(game, a, b) for a, b in tickets])
    set_hand(game, 0, red=2, black=1)
    set_hand(game, 1, red=1, blue=2, locomotive=1)
    set_hand(game, 2, green=2, yellow=1)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    return game


def final_scoring() -> Game:
    """The game of :func:`final_round`, played to its end and scored.

    Ada claims Atlanta–Raleigh (the last round starts), Ben claims Santa
    Fe–Denver (completing Los Angeles–Chicago), then Cleo and Ada each draw
    two cards, and the game is over.
    """
    game = final_round()
    game.apply(ClaimRoute(route_id(game, "atlanta", "raleigh"), (("red", 2),)))
    game.apply(ClaimRoute(route_id(game, "santa-fe", "denver"), (("blue", 2),)))
    for _ in range(2):  # Cleo, then Ada: two cards from the deck each
        game.apply(DrawBlind())
        game.apply(DrawBlind())
    return game


def longest_path_tie() -> Game:
    """A finished 3-player game where Ada and Ben tie for the longest continuous path.

    Ada's loop Saint Louis–Kansas City–Omaha–Denver–Kansas City is 11 long
    (she passes Kansas City twice); Ben's line Seattle–Calgary–Helena–Salt
    Lake City is 11 too. Cleo has the most trains on the board (12) but they
    branch out of Atlanta, so her longest path is only 9. Nobody holds
    tickets, to keep the sums short.
    """
    game = started()
    give_routes(
        game,
        0,
        [
            route_id(game, "saint-louis", "kansas-city", "blue"),
            route_id(game, "kansas-city", "omaha"),
            route_id(game, "omaha", "denver"),
            route_id(game, "denver", "kansas-city", "black"),
        ],
    )
    give_routes(
        game,
        1,
        [
            route_id(game, "seattle", "calgary"),
            route_id(game, "calgary", "helena"),
            route_id(game, "helena", "salt-lake-city"),
        ],
    )
    give_routes(
        game,
        2,
        [
            route_id(game, "atlanta", "miami"),
            route_id(game, "atlanta", "new-orleans", "yellow"),
            route_id(game, "atlanta", "nashville"),
            route_id(game, "atlanta", "charleston"),
        ],
    )
    for seat in range(3):
        set_tickets(game, seat, [])
    game.state.phase = "over"
    return game


def tie_break(decider: str = "tickets") -> Game:
    """A finished 2-player game where Ada and Ben end on the same points.

    ``decider`` picks what breaks the tie:

    * ``"tickets"``: Ada completed 2 tickets, Ben 1 (both have the bonus);
    * ``"longest path"``: 1 completed ticket each, only Ada has the bonus;
    * ``"shared"``: everything is equal, so they share the victory (a house rule).
    """
    game = started(2)

    def r(a: str, b: str, color: str | None = None) -> int:
        return route_id(game, a, b, color)

    def t(a: str, b: str) -> int:
        return ticket_id(game, a, b)

    if decider == "tickets":
        ada = [
            r("denver", "santa-fe"),
            r("santa-fe", "el-paso"),
            r("santa-fe", "oklahoma-city"),
            r("oklahoma-city", "kansas-city", "gray"),
            r("oklahoma-city", "dallas", "gray"),
            r("dallas", "houston", "gray"),
        ]
        ben = [
            r("helena", "salt-lake-city"),
            r("salt-lake-city", "las-vegas"),
            r("las-vegas", "los-angeles"),
            r("montreal", "new-york"),
        ]
        ada_tickets = [t("denver", "el-paso"), t("kansas-city", "houston")]
        ben_tickets = [t("helena", "los-angeles")]
    elif decider == "longest path":
        ada = [r("denver", "phoenix"), r("phoenix", "el-paso")]
        ben = [
            r("kansas-city", "oklahoma-city", "gray"),
            r("oklahoma-city", "dallas", "gray"),
            r("dallas", "houston", "gray"),
            r("las-vegas", "salt-lake-city"),
            r("montreal", "new-york"),
            r("little-rock", "new-orleans"),
            r("boston", "montreal", "gray"),
            r("portland", "seattle", "gray"),
            r("atlanta", "nashville"),
            r("chicago", "saint-louis", "green"),
        ]
        ada_tickets = [t("denver", "el-paso")]
        ben_tickets = [t("kansas-city", "houston")]
    elif decider == "shared":
        ada = [r("denver", "santa-fe"), r("santa-fe", "el-paso"), r("el-paso", "phoenix")]
        ben = [
            r("saint-louis", "kansas-city", "blue"),
            r("kansas-city", "oklahoma-city", "gray"),
            r("oklahoma-city", "dallas", "gray"),
            r("dallas", "houston", "gray"),
        ]
        ada_tickets = [t("denver", "el-paso")]
        ben_tickets = [t("kansas-city", "houston")]
    else:
        raise ValueError(f"decider must be 'tickets', 'longest path' or 'shared', not {decider!r}")
    give_routes(game, 0, ada)
    give_routes(game, 1, ben)
    set_tickets(game, 0, ada_tickets)
    set_tickets(game, 1, ben_tickets)
    game.state.phase = "over"
    return game


def no_legal_action() -> Game:
    """A 3-player game where Cleo hoards every card and every ticket is taken.

    Ada and Ben can neither draw cards, nor claim a route, nor draw tickets:
    their only legal action is to pass (a house rule). Cleo holds cards and
    can claim, so she may not pass.
    """
    game = started()
    state = game.state
    hoard = state.players[2].hand
    for card in state.deck + state.discard + [c for c in state.face_up if c]:
        hoard[card] += 1
    state.deck, state.discard, state.face_up = [], [], [None] * len(state.face_up)
    for p in state.players[:2]:
        for card, n in p.hand.items():
            hoard[card] += n
            p.hand[card] = 0
    for deck in state.ticket_decks.values():  # Cleo drew every ticket too
        state.players[2].tickets.extend(deck)
        deck.clear()
    return game


def endless_resets() -> Game:
    """Only locomotives are left in the deck; the row shows two already.

    Taking the red (slot 0) turns up a third locomotive, and every reset
    deals locomotives again. The engine gives up after a few resets
    (``rules.max_face_up_resets``) and leaves the row as it is (a house rule).
    """
    game = started()
    state = game.state
    set_face_up(game, ["red", "blue", "green", "locomotive", "locomotive"])
    # Every other card that is not a locomotive goes to Ben's hand.
    keep_out = [c for c in state.deck + state.discard if c != "locomotive"]
    for card in keep_out:
        state.players[1].hand[card] += 1
    state.deck = [c for c in state.deck if c == "locomotive"]
    state.discard = [c for c in state.discard if c == "locomotive"]
    return game
