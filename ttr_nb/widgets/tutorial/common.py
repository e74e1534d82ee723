"""The steps every map with the original game's cards shares (USA, Germany, Märklin): a
turn, drawing cards, locomotives, tickets, the last round, scoring, ties and passing (paying
for routes and double routes: :mod:`.claiming`).

Each function makes one :class:`~ttr_nb.widgets.tutorial.model.Step` on the map named, with
its routes found on that board; a variant's tutorial takes the ones it needs, in its own
order, and may give them its own words (``text=...``, ``task=...``). The words are ours,
never the rulebook's.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

from ...actions import DrawFaceUp, DrawTickets, KeepTickets, Pass
from ...deals import set_face_up, set_tickets, stack_deck
from ...game import Game
from ..controls import count
from .claiming import claim_step, claimed_text
from .model import (
    LEARNER,
    Goal,
    Marks,
    Step,
    any_move,
    draw_cards,
    draw_tickets,
    is_card_draw,
)
from .positions import (
    card_of,
    clean_hands,
    dealt,
    find_route,
    late_game,
    plain_cards,
    started,
    tickets_for,
    wild_card,
)

FACE_UP = tuple(f"face-up-{i}" for i in range(5))
DECK = "deck-train"

Builder = Callable[[], Game]


def _label(game: Game, route_id: int) -> str:
    return game.map.route_label(game.map.route_by_id[route_id])


def _plain_row(game: Game, start: int = 0) -> list[str]:
    cards = plain_cards(game.map)
    return [cards[(start + i) % len(cards)] for i in range(game.rules.face_up_slots)]


def _turn_text(game: Game) -> str:
    """What the learner's last turn was (its moves at the end of the log)."""
    lines: list[str] = []
    for move, line in zip(reversed(game.history), reversed(game.log), strict=True):
        if move.player != LEARNER:
            if lines:
                break
            continue
        lines.insert(0, f"{line}.")
    return " ".join(lines)


# ------------------------------------------------------------------ setup
def first_tickets(
    map_id: str,
    text: str | None = None,
    task: str | None = None,
    rules: tuple[str, ...] = ("aim", "setup"),
) -> Step:
    """Keeping the first tickets (on maps with two decks, choosing the mix first)."""
    probe = dealt(map_id)
    r = probe.rules
    pieces = r.starting_pieces().get("train", 45)
    text = text or (
        "You score by claiming routes between cities, and by completing destination tickets: "
        "a ticket joins two cities, and at the end it adds its points if your own routes "
        "link them, or takes them away if they do not. Everyone starts with "
        f"{r.starting_hand} train cards and {pieces} trains. First, each player is offered "
        f"{r.setup_ticket_deal} tickets and keeps at least {r.setup_ticket_keep}."
    )
    task = task or (
        f"Tick at least {r.setup_ticket_keep} of the tickets offered (their cities are "
        "ringed on the board) and press the keep button."
    )

    def marks(game: Game) -> Marks:
        offer = game.state.players[LEARNER].offer
        places = tuple(c for t in offer for c in game.map.ticket_by_id[t].cities)
        return Marks(places=places, controls=("ttr-offer-box", "ttr-prompt"))

    return Step(
        key="first-tickets",
        title="Your goal, and your first tickets",
        rules=rules,
        text=text,
        task=task,
        build=lambda: dealt(map_id),
        goal=Goal(
            "choose the tickets you keep",
            lambda _g, a: isinstance(a, DrawTickets | KeepTickets),
            prefer=lambda _g, a: (getattr(a, "long", 1) != 1, -len(getattr(a, "tickets", ()))),
            then="Now tick the tickets to keep and press the keep button.",
        ),
        done=lambda g: (
            f"You keep {count(len(g.state.players[LEARNER].tickets), 'ticket')}: they stay "
            "secret until the end (they are listed under your hand). The others choose theirs "
            "now; then the first turn starts."
        ),
        marks=marks,
    )


# ------------------------------------------------------------------ a turn
def turn_choices(map_id: str, rules: tuple[str, ...] = ("turn-choices",)) -> Step:
    """Any one move: the three kinds of turn."""

    def build() -> Game:
        game = started(map_id)
        short = find_route(game, lengths=(2, 3))
        colour = card_of(game.map, short.color)
        clean_hands(game, **{colour: short.length, plain_cards(game.map)[-1]: 1})
        set_face_up(game, _plain_row(game))
        return game

    return Step(
        key="turn",
        title="A turn: one of three things",
        rules=rules,
        text=(
            "On your turn you do exactly one thing: take two train cards, or claim one route "
            "with the cards it asks for, or draw destination tickets. You never mix them in one "
            "turn. The status line above the board always says what you may do."
        ),
        task=(
            "Make any one of the three moves: a card (then a second one), a route lit up on "
            "the board, or Draw tickets."
        ),
        build=build,
        goal=any_move(),
        done=lambda g: f"{_turn_text(g)} That was your whole turn: Bruno plays next.",
        marks=Marks(controls=(*FACE_UP, DECK, "ttr-draw-tickets", "ttr-claim-box")),
    )


def two_cards(map_id: str, rules: tuple[str, ...] = ("two-cards",)) -> Step:
    """Drawing two cards, face up or from the deck."""

    def build() -> Game:
        game = started(map_id)
        cards = plain_cards(game.map)
        clean_hands(game, **{cards[0]: 1, cards[1]: 1})
        set_face_up(game, _plain_row(game, 2))
        stack_deck(game, [cards[3], cards[4]])
        return game

    return Step(
        key="two-cards",
        title="Drawing two cards",
        rules=rules,
        text=(
            "Drawing cards takes two cards. Each one is either one of the five face-up cards "
            "or the top card of the deck, unseen. A face-up card you take is replaced at once "
            "from the deck, so the row is always full."
        ),
        task="Take two cards: click a face-up card or Draw from the deck, twice.",
        build=build,
        goal=draw_cards(),
        done=lambda g: (
            f"{_turn_text(g)} Two cards, and your turn is over. Collect cards of one colour to "
            "claim the routes of that colour."
        ),
        marks=Marks(controls=(*FACE_UP, DECK, "ttr-hand-box")),
    )


def face_up_locomotive(map_id: str, rules: tuple[str, ...] = ("face-up-locomotive",)) -> Step:
    """Taking a face-up locomotive: the whole draw."""

    def build() -> Game:
        game = started(map_id)
        cards = plain_cards(game.map)
        loco = wild_card(game.map)
        clean_hands(game, **{cards[0]: 1, cards[1]: 1})
        set_face_up(game, [loco, *_plain_row(game, 3)[:4]])
        stack_deck(game, [cards[5], cards[6]])
        return game

    def takes_loco(game: Game, action: Any) -> bool:
        return isinstance(action, DrawFaceUp) and game.state.face_up[action.slot] == wild_card(
            game.map
        )

    return Step(
        key="face-up-locomotive",
        title="A face-up locomotive",
        rules=rules,
        text=(
            "Locomotives (the rainbow cards, letter L) are wild: they pay for a route of any "
            "colour. So they cost more to take. Taking a locomotive from the face-up row is "
            "your whole draw: one card instead of two. A locomotive you draw unseen from the "
            "deck counts as an ordinary card."
        ),
        task="Take the face-up locomotive (marked).",
        build=build,
        goal=Goal("take the face-up locomotive", takes_loco),
        done=(
            "One locomotive, and your turn is over at once. Later in the game, decide whether "
            "one wild card is worth more to you than two coloured ones."
        ),
        marks=Marks(controls=("face-up-0",)),
    )


def locomotive_second(map_id: str, rules: tuple[str, ...] = ("face-up-locomotive",)) -> Step:
    """A locomotive turned up after the first card cannot be the second."""

    def build() -> Game:
        game = started(map_id)
        cards = plain_cards(game.map)
        clean_hands(game, **{cards[1]: 1})
        set_face_up(game, _plain_row(game))
        stack_deck(game, [wild_card(game.map), cards[6], cards[7]])
        return game

    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:  # the first card: one from the row
            return isinstance(action, DrawFaceUp)
        return is_card_draw(action)

    return Step(
        key="locomotive-second",
        title="No locomotive as second card",
        rules=rules,
        text=(
            "When a locomotive turns up in the row after your first card, it cannot be your "
            "second card: its button switches off, and its tooltip says why. Any other card, "
            "or the deck, is fine."
        ),
        task=(
            "Take the first face-up card. A locomotive turns up in its place: take another "
            "card as your second."
        ),
        build=build,
        goal=Goal(
            "take a face-up card first, then a second card that is not the locomotive",
            accepts,
            prefer=lambda g, a: (
                (0, a.slot)
                if isinstance(a, DrawFaceUp) and g.state.face_up[a.slot] != wild_card(g.map)
                else (1, 0)
            ),
            then=(
                "A locomotive turned up: it cannot be your second card. Take another face-up "
                "card, or draw from the deck."
            ),
        ),
        done=lambda g: (
            f"{_turn_text(g)} The locomotive stays in the row for the next player, who may "
            "take it as a whole draw."
        ),
        marks=lambda g: Marks(controls=FACE_UP if g.state.pending else ("face-up-0",)),
    )


def three_locomotives(map_id: str, rules: tuple[str, ...] = ("three-locomotive-reset",)) -> Step:
    """Three locomotives face up: the row is replaced."""

    def build() -> Game:
        game = started(map_id)
        cards = plain_cards(game.map)
        loco = wild_card(game.map)
        clean_hands(game, **{cards[0]: 1})
        set_face_up(game, [loco, loco, *_plain_row(game, 4)[:3]])
        stack_deck(game, [loco, *cards[:6]])
        return game

    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:
            return isinstance(action, DrawFaceUp) and game.state.face_up[action.slot] != wild_card(
                game.map
            )
        return is_card_draw(action)

    return Step(
        key="three-locomotives",
        title="Three locomotives face up",
        rules=rules,
        text=(
            "Whenever three of the five face-up cards are locomotives, the whole row goes to "
            "the discard pile and five new cards are turned up. Two locomotives lie face up "
            "now, and the next card of the deck is a third."
        ),
        task=(
            "Take one of the coloured face-up cards (not a locomotive) and watch the row; "
            "then take your second card."
        ),
        build=build,
        goal=Goal(
            "take a coloured face-up card first",
            accepts,
            prefer=lambda g, a: (0, a.slot) if isinstance(a, DrawFaceUp) else (1, 0),
            then="Three locomotives: the row was replaced. Now take your second card.",
        ),
        done=lambda g: (
            f"{_turn_text(g)} The third locomotive filled the gap, so all five cards went to "
            "the discards and a fresh row was laid out. The discards are shuffled into a new "
            "deck when the deck runs out."
        ),
        marks=lambda g: Marks(controls=FACE_UP[2:] if not g.state.pending else FACE_UP),
    )


# ------------------------------------------------------------------ tickets
def later_tickets(map_id: str, rules: tuple[str, ...] = ("later-tickets",)) -> Step:
    """Drawing tickets during the game and keeping some."""

    def build() -> Game:
        game = started(map_id)
        clean_hands(game, **{plain_cards(game.map)[0]: 2})
        return game

    r = dealt(map_id).rules
    return Step(
        key="later-tickets",
        title="More tickets during the game",
        rules=rules,
        text=(
            "Drawing tickets is a whole turn: you get "
            f"{count(r.ticket_deal, 'ticket')} and must keep at least {r.ticket_keep}; the "
            "others go under the deck. More tickets mean more points, if you complete them: "
            "a good moment is when your network already reaches some of their cities."
        ),
        task=f"Press Draw tickets, then keep at least {r.ticket_keep} of those offered.",
        build=build,
        goal=draw_tickets(),
        done=lambda g: (
            f"You now hold {count(len(g.state.players[LEARNER].tickets), 'ticket')}. The "
            "ones you gave back went under the ticket deck."
        ),
        marks=lambda g: Marks(
            places=tuple(
                c for t in g.state.players[LEARNER].offer for c in g.map.ticket_by_id[t].cities
            ),
            controls=("ttr-draw-tickets", "ttr-offer-box", "ttr-prompt"),
        ),
    )


# ------------------------------------------------------------------ the end
def last_round(map_id: str, rules: tuple[str, ...] = ("last-round",)) -> Step:
    """A claim that leaves 2 trains starts the last round."""

    def pick(game: Game) -> Any:
        return next(
            r
            for r in find_routes_open(game, length=2)
            if game.rules.route_problem(game.state, LEARNER, r) is None
        )

    def build() -> Game:
        game = late_game(map_id, trains_left=(4, 9, 8))
        route = pick(game)
        colour = (
            card_of(game.map, route.color) if route.color != "gray" else plain_cards(game.map)[2]
        )
        clean_hands(game, **{colour: 2, plain_cards(game.map)[3]: 1})
        set_face_up(game, _plain_row(game))
        return game

    r = dealt(map_id).rules
    return claim_step(
        map_id,
        "last-round",
        "The last round",
        rules,
        (
            f"When a player ends a turn with {r.end_trigger_pieces} trains or fewer, the last "
            "round starts: every player, that one too, gets exactly one more turn, and then the "
            "game ends. You have 4 trains left."
        ),
        "Claim the marked 2-space route: it leaves you 2 trains and starts the last round.",
        build,
        lambda g: [pick(g).id],
        "claim the marked route",
        lambda g: (
            f"{claimed_text(g)} The last round has started (the status line and the line above "
            "the cards say so): Bruno, Chen and you each play one more turn."
        ),
    )


def find_routes_open(game: Game, length: int) -> list[Any]:
    """Open single routes of ``length`` spaces (not in a country), map order."""
    dead = set(game.map.dead_ends)
    return [
        r
        for r in game.map.routes
        if r.length == length
        and r.kind == "train"
        and r.id not in game.state.owner
        and not game.rules.parallel[r.id]
        and r.a not in dead
        and r.b not in dead
    ]


def final_turn(
    map_id: str,
    rules: tuple[str, ...] = ("route-points", "tickets-scored", "longest-path"),
    text: str | None = None,
    done: Callable[[Game], str] | None = None,
) -> Step:
    """The learner's last turn; the game ends and the end screen explains the score."""

    def build() -> Game:
        game = late_game(map_id, trains_left=(6, 2, 5))
        state = game.state
        state.last_round_by = 1
        state.final_turns_left = 1
        state.current = LEARNER
        clean_hands(game, **{plain_cards(game.map)[0]: 1})
        set_face_up(game, _plain_row(game))
        return game

    return Step(
        key="final-turn",
        title="The end, and the score",
        rules=rules,
        text=text
        or (
            "Bruno started the last round and Chen has played his last turn: this is yours. "
            "Then the score is counted: the route points you scored during the game, plus each "
            "ticket completed, minus each ticket missed, and 10 points for the longest "
            "continuous path of trains (a path may pass a city twice but no route twice)."
        ),
        task=(
            "Make your last move (two cards are fine). Then read the end screen beside the "
            "board: points by part, tickets won and lost, and the longest paths outlined."
        ),
        build=build,
        goal=Goal("make your last move", lambda _g, _a: True, reached=lambda g: g.is_over),
        done=done or _score_text,
        marks=lambda g: Marks(
            controls=("ttr-result-box",) if g.is_over else (*FACE_UP, DECK, "ttr-claim-box")
        ),
    )


def _score_text(game: Game) -> str:
    rows = game.scores()
    mine = rows[LEARNER]
    result = game.result() or {}
    names = game.names
    parts = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in mine.items() if k != "total")
    winners = " and ".join(names[i] for i in result.get("winners", []))
    won = sum(1 for _t, ok in game.ticket_status(LEARNER) if ok)
    lost = len(game.state.players[LEARNER].tickets) - won
    return (
        f"The game is over. Your score: {parts}; total {mine['total']}. You completed "
        f"{count(won, 'ticket')} and missed {lost}. {winners} won. Each player's longest "
        "path is outlined on the board in their colour."
    )


def ties(
    map_id: str,
    rules: tuple[str, ...] = ("ties",),
    text: str | None = None,
) -> Step:
    """A finished two-player game tied on points, decided by a tie-break (read it)."""
    return Step(
        key="ties",
        title="When points are tied",
        rules=rules,
        text=text
        or (
            "Equal points are decided by the most completed tickets, then by the longest-path "
            "bonus. If everything is equal, the tied players share the victory (this app's "
            "house rule: the rulebook does not say)."
        ),
        task="Read the end screen: who won, and which tie-break decided it. Then press Next.",
        build=lambda: tied_game(map_id),
        goal=None,
        done=lambda g: _tie_text(g),
        marks=Marks(controls=("ttr-result-box",)),
    )


def _tie_text(game: Game) -> str:
    result = game.result() or {}
    rows = result.get("scores", [])
    names = game.names
    winners = " and ".join(names[i] for i in result.get("winners", []))
    totals = " and ".join(f"{n} {r['total']}" for n, r in zip(names, rows, strict=False))
    return f"{totals} points: a tie. {winners} won, decided by {result.get('decided_by')}."


def tied_game(map_id: str) -> Game:
    """Two players whose totals are equal, with a different number of completed tickets:
    a late game with the ticket hands :func:`_tied_hands` found for it."""
    game = _finished_late_game(map_id)
    ann, bruno = _tied_hands(map_id)
    set_tickets(game, 0, ann)
    set_tickets(game, 1, bruno)
    return game


def _finished_late_game(map_id: str) -> Game:
    game = late_game(map_id, trains_left=(5, 5), tickets=(0, 0), seed=11)
    game.state.phase = "over"
    game.state.ended_by = "last_round"
    game.state.last_round_by = 1
    return game


@functools.cache
def _tied_hands(map_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ticket hands for Ann and Bruno that tie the late game on points, decided by a
    tie-break: the first pair found, in a fixed order (searched once per map).

    Tickets add or take their points, and a map's bonuses may depend on how many were
    completed (at most 15 points here): only pairs whose ticket sums differ by no more
    than that are scored in full.
    """
    game = _finished_late_game(map_id)
    rules = game.rules
    base = [row["total"] for row in game.scores()]
    hands = []
    for seat in (0, 1):
        done, open_ = tickets_for(game, seat, set())
        player = game.state.players[seat]
        options = []
        for n in (1, 2, 3):
            for combo in itertools.combinations(done[:5] + open_[:3], n):
                signed = sum(
                    game.map.ticket_by_id[t].points
                    * (1 if rules.ticket_done(game.state, player, t) else -1)
                    for t in combo
                )
                options.append((base[seat] + signed, combo))
        hands.append(options)
    for estimate_a, ann in hands[0]:
        set_tickets(game, 0, ann)
        for estimate_b, bruno in hands[1]:
            if abs(estimate_a - estimate_b) > 15 or set(ann) & set(bruno):
                continue
            set_tickets(game, 1, bruno)
            rows = game.scores()
            if rows[0]["total"] != rows[1]["total"]:
                continue
            result = game.result()
            if result and result["decided_by"] not in ("points", "shared victory"):
                return ann, bruno
    raise ValueError(f"no tie found on the {map_id} map")


def passing(map_id: str, rules: tuple[str, ...] = ("house-rules",)) -> Step:
    """Nothing is possible: the only legal move is to pass (a house rule)."""

    def build() -> Game:
        game = started(map_id)
        state = game.state
        hoard = state.players[2].hand
        for card in state.deck + state.discard + [c for c in state.face_up if c]:
            hoard[card] += 1
        state.deck, state.discard = [], []
        state.face_up = [None] * len(state.face_up)
        for p in state.players[:2]:
            for card, n in p.hand.items():
                hoard[card] += n
                p.hand[card] = 0
        for deck in state.ticket_decks.values():
            state.players[2].tickets.extend(deck)
            deck.clear()
        return game

    return Step(
        key="passing",
        title="When nothing is possible",
        rules=rules,
        text=(
            "Where the rulebook is silent, this app adds small rules of its own. Chen has "
            "hoarded every card and the tickets have run out: you can neither draw, nor claim, "
            "nor draw tickets. Then your turn is a pass; if everyone passes in a row, the game "
            "ends. (Also: resets of three locomotives stop after 5 in a row, the longest-path "
            "bonus needs at least one route, and a perfect tie is a shared victory.)"
        ),
        task="Pass: pick Pass under Other move and press Do it.",
        build=build,
        goal=Goal("pass", lambda _g, a: isinstance(a, Pass)),
        done="You passed: nothing else was allowed. Bruno is next, and will have to pass too.",
        marks=Marks(controls=("ttr-other-moves", "ttr-other-do")),
    )


__all__ = [
    "face_up_locomotive",
    "final_turn",
    "first_tickets",
    "last_round",
    "later_tickets",
    "locomotive_second",
    "passing",
    "three_locomotives",
    "ties",
    "tied_game",
    "turn_choices",
    "two_cards",
]
