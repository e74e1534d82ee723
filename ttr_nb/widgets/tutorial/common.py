"""The steps every map with the original game's cards shares (USA, Germany, Märklin,
Europe): the first tickets, a turn, drawing cards, locomotives, tickets, the last round,
scoring, ties and the recap (paying for routes and double routes: :mod:`.claiming`).

The steps make one game: each carries on the game the step before left (the learner's own
choices stay), the other seats playing their turns in between (:mod:`.script`). Each
function makes one :class:`~ttr_nb.widgets.tutorial.model.Step` on the map named; a
variant's tutorial takes the ones it needs, in its own order, and may give them its own
words (``text=...``, ``task=...``). The words are ours, never the rulebook's.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...actions import ClaimRoute, DrawFaceUp, DrawTickets, KeepTickets
from ...game import Game
from .. import panels
from ..controls import count
from .claiming import claimed_text
from .model import (
    LEARNER,
    Goal,
    Marks,
    Step,
    any_move,
    claim,
    draw_cards,
    draw_tickets,
    is_card_draw,
)
from .positions import (
    end_jump,
    ending_route,
    finish_setup,
    label,
    plain_slot,
    top_plain,
    tutorial_deal,
    whole_draw,
    wild_slots,
)
from .script import (
    DEAL_KEY,
    SEED,
    Deal,
    arrange,
    arrange_tickets,
    blind_turn,
    deal,
    face_up_turn,
    in_pile,
    jump,
    others_play,
    plain_cards,
    plan_networks,
    round_of,
    wild_card,
)

FACE_UP = tuple(f"face-up-{i}" for i in range(5))
DECK = "deck-train"

Builder = Callable[[], Game]
Carry = Callable[[Game], Game]


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


def next_player(game: Game) -> str:
    """Who plays after the learner's turn: ``Bruno plays next`` (the next step shows what
    they did)."""
    return f"{game.names[game.state.current]} plays next"


def others_then(then: Carry | None = None) -> Carry:
    """A carry: the other seats play their turns (two cards from the deck), the deck's
    next cards are plain, then ``then``."""

    def carry(game: Game) -> Game:
        others_play(game)
        top_plain(game)
        return then(game) if then else game

    return carry


# ------------------------------------------------------------------ setup
def first_tickets(
    map_id: str,
    text: str | None = None,
    task: str | None = None,
    rules: tuple[str, ...] = ("aim", "setup"),
    build: Builder | None = None,
) -> Step:
    """Keeping the first tickets (on maps with two decks, choosing the mix first)."""
    probe = tutorial_deal(map_id)
    r = probe.rules
    pieces = r.starting_pieces().get("train", 45)
    text = text or (
        "You score by claiming routes between cities, and by completing destination tickets: "
        "a ticket joins two cities, and at the end it adds its points if your own routes "
        "link them, or takes them away if they do not. Everyone starts with "
        f"{r.starting_hand} train cards and {pieces} trains. First, each player is offered "
        f"{r.setup_ticket_deal} tickets and keeps at least {r.setup_ticket_keep}. How many? "
        "Each ticket you keep and miss costs its points, so for a first game keep the "
        f"{r.setup_ticket_keep} whose cities lie closest together, or share a city."
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
        build=build or (lambda: tutorial_deal(map_id)),
        goal=Goal(
            "choose the tickets you keep",
            lambda _g, a: isinstance(a, DrawTickets | KeepTickets),
            prefer=lambda _g, a: (getattr(a, "long", 1) != 1, -len(getattr(a, "tickets", ()))),
            then="Now tick the tickets to keep and press the keep button.",
        ),
        done=lambda g: (
            f"You keep {count(len(g.state.players[LEARNER].tickets), 'ticket')}: they stay "
            "secret until the end (they are listed under your hand). The others choose theirs "
            "now (the next step shows what they kept); then the first turn starts."
        ),
        marks=marks,
    )


# ------------------------------------------------------------------ a turn
def _setup_then_plain(game: Game) -> Game:
    finish_setup(game)
    top_plain(game)
    return game


def turn_choices(
    map_id: str,
    rules: tuple[str, ...] = ("turn-choices",),
    carry: Carry = _setup_then_plain,
) -> Step:
    """Any one move: the three kinds of turn."""

    def marks(game: Game) -> Marks:
        claimable = tuple(
            dict.fromkeys(a.route for a in game.legal_actions() if isinstance(a, ClaimRoute))
        )
        return Marks(
            routes=() if game.state.current != LEARNER else claimable,
            controls=(*FACE_UP, DECK, "ttr-draw-tickets", "ttr-claim-box"),
        )

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
            "Make any one move: a card (then a second one), a route marked on the board (your "
            "cards pay for those), or Draw tickets."
        ),
        carry=carry,
        goal=any_move(),
        done=lambda g: f"{_turn_text(g)} That was your whole turn: {next_player(g)}.",
        marks=marks,
    )


def two_cards(map_id: str, rules: tuple[str, ...] = ("two-cards",)) -> Step:
    """Drawing two cards, face up or from the deck."""
    return Step(
        key="two-cards",
        title="Drawing two cards",
        rules=rules,
        text=(
            "Drawing cards takes two cards. Each one is either one of the face-up cards or the "
            "top card of the deck, unseen. A face-up card you take is replaced at once from "
            "the deck, so the row stays full."
        ),
        task="Take two cards: click a face-up card or Draw from the deck, twice.",
        carry=others_then(),
        goal=draw_cards(),
        done=lambda g: (
            f"{_turn_text(g)} Two cards, and your turn is over. Collect cards of one colour to "
            "claim the routes of that colour."
        ),
        marks=Marks(controls=(*FACE_UP, DECK, "ttr-hand-box")),
    )


def _locomotive_turns_up(game: Game) -> Game:
    """Bruno draws from the deck; Chen takes a face-up card and a locomotive turns up in
    its place; the deck's next cards are plain."""
    others_play(game, _one_face_up_wild)
    top_plain(game)
    return game


def _one_face_up_wild(game: Game) -> None:
    """The last seat before the learner takes a plain face-up card and a wild card turns up
    in its place (when the row holds none); any other seat draws from the deck."""
    last = game.state.current == game.num_players - 1
    if last and not wild_slots(game):
        face_up_turn(game, plain_slot(game), refill=wild_card(game))
    else:
        blind_turn(game)


def face_up_locomotive(
    map_id: str,
    rules: tuple[str, ...] = ("face-up-locomotive",),
    text: str | None = None,
) -> Step:
    """Taking a face-up locomotive: the whole draw."""

    def takes_wild(game: Game, action: Any) -> bool:
        return isinstance(action, DrawFaceUp) and whole_draw(game, game.state.face_up[action.slot])

    def marks(game: Game) -> Marks:
        return Marks(controls=tuple(f"face-up-{i}" for i in wild_slots(game)[:1]))

    return Step(
        key="face-up-locomotive",
        title="A face-up locomotive",
        rules=rules,
        text=text
        or (
            "Locomotives (the rainbow cards, letter L) are wild: they pay for a route of any "
            "colour. So they cost more to take: a locomotive taken from the face-up row is "
            "your whole draw, one card instead of two. A locomotive drawn unseen from the deck "
            "is just as wild in your hand, and you still take a second card after it: only a "
            "face-up one costs the whole draw."
        ),
        task="Take the face-up locomotive (marked).",
        carry=_locomotive_turns_up,
        goal=Goal("take the face-up locomotive (marked)", takes_wild),
        done=(
            "One locomotive, and your turn is over at once. Later in the game, decide whether "
            "one wild card is worth more to you than two coloured ones."
        ),
        marks=marks,
    )


def _wild_next(game: Game) -> Game:
    """The other seats draw from the deck; the deck's next card is a locomotive, then
    plain cards."""
    others_play(game)
    top_plain(game)
    arrange(game, [wild_card(game)])
    return game


def locomotive_second(map_id: str, rules: tuple[str, ...] = ("face-up-locomotive",)) -> Step:
    """A face-up locomotive is never a second card."""

    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:  # the first card: one from the row
            return isinstance(action, DrawFaceUp) and not whole_draw(
                game, game.state.face_up[action.slot]
            )
        return is_card_draw(action)

    return Step(
        key="locomotive-second",
        title="No locomotive as second card",
        rules=rules,
        text=(
            "A face-up locomotive can only be your first card (and then your whole draw): "
            "never your second, whether it lay in the row already or turned up just now. After "
            "your first card its button switches off, and its tooltip says why. Any other "
            "card, or the deck, is fine."
        ),
        task=(
            "Take a face-up card that is not a locomotive. A locomotive turns up in its place: "
            "take another card as your second."
        ),
        carry=_wild_next,
        goal=Goal(
            "take a face-up card first, then a second card that is not a locomotive",
            accepts,
            prefer=lambda g, a: (
                (0, a.slot)
                if isinstance(a, DrawFaceUp) and not whole_draw(g, g.state.face_up[a.slot])
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
        marks=lambda g: Marks(
            controls=FACE_UP
            if g.state.pending
            else tuple(f"face-up-{i}" for i in range(5) if i not in wild_slots(g))
        ),
    )


def _two_wilds_and_a_third(game: Game) -> Game:
    """The other seats play until two locomotives lie face up (Chen's face-up card is
    replaced by one); the deck's next card is a third, then plain cards."""

    def turn(g: Game) -> None:
        last = g.state.current == g.num_players - 1
        if last and len(wild_slots(g)) < 2:
            face_up_turn(g, plain_slot(g), refill=wild_card(g))
        else:
            blind_turn(g)

    others_play(game, turn)
    plain = [c for c in plain_cards(game) if in_pile(game, c)]
    counts = {c: in_pile(game, c) for c in plain}
    rest = []
    for card in itertools.cycle(plain):
        if len(rest) == 7:
            break
        if counts[card] > rest.count(card):
            rest.append(card)
    arrange(game, [wild_card(game), *rest])
    return game


def three_locomotives(map_id: str, rules: tuple[str, ...] = ("three-locomotive-reset",)) -> Step:
    """Three locomotives face up: the row is replaced."""

    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:
            return isinstance(action, DrawFaceUp) and not whole_draw(
                game, game.state.face_up[action.slot]
            )
        return is_card_draw(action)

    return Step(
        key="three-locomotives",
        title="Three locomotives face up",
        rules=rules,
        text=(
            "Whenever three of the five face-up cards are locomotives, the whole row goes to "
            "the discard pile and five new cards are turned up. Two locomotives lie face up "
            "now (Chen's card was replaced by the second), and the next card of the deck is a "
            "third."
        ),
        task=(
            "Take one of the coloured face-up cards (not a locomotive) and watch the row; "
            "then take your second card."
        ),
        carry=_two_wilds_and_a_third,
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
        marks=lambda g: Marks(
            controls=FACE_UP
            if g.state.pending
            else tuple(f"face-up-{i}" for i in range(5) if i not in wild_slots(g))
        ),
    )


# ------------------------------------------------------------------ tickets
def later_tickets(map_id: str, rules: tuple[str, ...] = ("later-tickets",)) -> Step:
    """Drawing tickets during the game and keeping some."""
    r = tutorial_deal(map_id).rules
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
        carry=others_then(),
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
def _pieces_words(game: Game, seat: int = LEARNER) -> str:
    return panels.pieces_text(game.state.players[seat].pieces)


def jumped(game: Game) -> str:
    """The words for a position the game jumped to."""
    return (
        f"the game jumps ahead to round {round_of(game)}: every seat's turns were played, "
        "yours too (they claimed routes toward your tickets; your cards and tickets are "
        f"yours as you left them, plus what those turns drew). You have "
        f"{_pieces_words(game)} left."
    )


def last_round(
    map_id: str,
    rules: tuple[str, ...] = ("last-round",),
    carry: Carry = end_jump,
    avoid: Callable[[Game], Any] = lambda _g: (),
) -> Step:
    """A claim that leaves 2 trains or fewer starts the last round (the route marked is
    one the jump brought the cards for: not one of ``avoid(game)``)."""
    r = tutorial_deal(map_id).rules
    trigger = r.end_trigger_pieces

    def bind(step: Step, game: Game) -> Step:
        route = ending_route(game, avoid=avoid(game))
        assert route is not None, "the jump ends where the learner can end the game"
        left = sum(game.state.players[LEARNER].pieces.values())
        name = label(game, route.id)
        kinds = list(game.state.players[LEARNER].pieces)
        piece = kinds[0] if len(kinds) == 1 else "piece"
        return replace(
            step,
            text=(
                f"When a player ends a turn with {trigger} trains or fewer, the last round "
                "starts: every player, that one too, gets exactly one more turn, and then the "
                f"game ends. You have {left} trains left. A route longer than the trains you "
                "have left cannot be claimed at all, and a turn that cannot claim can still "
                "draw cards or tickets."
            ),
            task=(
                f"Claim {name}, the marked route: it leaves you "
                f"{count(left - route.length, piece)} and starts the last round."
            ),
            goal=claim((route.id,), f"claim {name}, the marked route"),
            marks=Marks(routes=(route.id,), controls=("ttr-claim-box", "ttr-hand-box")),
        )

    return Step(
        key="last-round",
        title="The last round",
        rules=rules,
        text="",
        task="",
        carry=carry,
        staged=jumped,
        bind=bind,
        done=lambda g: (
            f"{claimed_text(g)} The last round has started (the status line and the line "
            "above the cards say so): "
            + ", ".join(g.names[s] for s in range(1, g.num_players))
            + ", then you, each play one more turn."
        ),
    )


def final_turns(game: Game) -> Game:
    """The others' last turns (two cards each), up to the learner's last."""
    others_play(game)
    top_plain(game)
    return game


def final_turn(
    map_id: str,
    rules: tuple[str, ...] = ("route-points", "tickets-scored", "longest-path"),
    text: str | None = None,
    done: Callable[[Game], str] | None = None,
    carry: Carry = final_turns,
) -> Step:
    """The learner's last turn; the game ends and the end screen explains the score."""
    bonus = panels.scores_longest_trail(tutorial_deal(map_id))
    longest = (
        ", and 10 points for the longest continuous path of trains (a path may pass a city "
        "twice but no route twice)"
        if bonus
        else ""
    )
    outlined = ", and the longest paths outlined" if bonus else ""
    return Step(
        key="final-turn",
        title="The end, and the score",
        rules=rules,
        text=text
        or (
            "You started the last round, and the others have played their last turns: this "
            "one is yours. Then the score is counted: the route points you scored during the "
            f"game, plus each ticket completed, minus each ticket missed{longest}."
        ),
        task=(
            "Make your last move (two cards are fine). Then read the end screen beside the "
            f"board: points by part, tickets won and lost{outlined}."
        ),
        carry=carry,
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
    outlined = (
        " Each player's longest path is outlined on the board in their colour."
        if panels.scores_longest_trail(game)
        else ""
    )
    return (
        f"The game is over. Your score: {parts}; total {mine['total']}. You completed "
        f"{count(won, 'ticket')} and missed {lost}. {winners} won.{outlined}"
    )


# ------------------------------------------------------------------ ties
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
        staged=lambda g: (
            f"another game, {g.names[0]} against {g.names[1]}, that has just ended in round "
            f"{round_of(g)} with equal points (your own game comes back in the next step)."
        ),
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


TIE_SEED = 11


def tied_game(map_id: str) -> Game:
    """A two-player game played to its end whose totals are equal, with a different number
    of completed tickets: the tickets each player kept at the start are the ones
    :func:`_tied_hands` found for this game."""
    return _two_player_game(map_id, _tied_hands(map_id))


Hands = tuple[tuple[int, ...], tuple[int, ...]]


def _two_player_game(map_id: str, hands: Hands | None) -> Game:
    """A two-player game: each seat keeps ``hands`` at setup (None: the deal's offer,
    all of it), then both claim networks until Bruno's claim leaves him 2 trains or fewer
    and the last round ends the game (every turn scripted)."""
    game = deal(map_id, players=2, seed=TIE_SEED)
    if hands is not None:
        _offer(game, hands)

    def choose(g: Game) -> Any:
        legal = g.legal_actions()
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        if keeps:
            wanted = tuple(sorted(hands[g.state.current])) if hands else None
            return next(
                (a for a in keeps if a.tickets == wanted), max(keeps, key=lambda a: len(a.tickets))
            )
        draws = [a for a in legal if isinstance(a, DrawTickets)]
        return next((a for a in draws if a.long == 0), legal[0])

    finish_setup(game, choose)
    pieces = sum(game.state.players[0].pieces.values())
    trigger = game.rules.end_trigger_pieces
    plans = plan_networks(game, {0: pieces - 6, 1: pieces - trigger}, toward_tickets=())
    jump(game, plans, lambda g: g.is_over, keep_above=-1, limit=3000)
    return game


def _offer(game: Game, hands: Hands) -> None:
    """Arrange the deal so that each seat is offered its hand at setup (padded with the
    deal's own offer): the offers are face down until the seat looks, so this is a
    shuffle, recorded as the deal."""
    state, rules = game.state, game.rules
    taken = {t for hand in hands for t in hand}
    if state.pending == "keep_tickets":  # offered at the deal
        for seat, hand in enumerate(hands):
            player = state.players[seat]
            pad = [t for t in player.offer if t not in taken]
            offer = list(hand) + pad[: rules.setup_ticket_deal - len(hand)]
            for t in player.offer:
                if t not in offer:
                    state.ticket_decks[game.map.ticket_by_id[t].deck].append(t)
            for t in offer:
                for deck in state.ticket_decks.values():
                    if t in deck:
                        deck.remove(t)
            player.offer = offer
        vars(game)[DEAL_KEY] = Deal(game.state.copy(), game.rng.getstate())
        return
    deck = state.ticket_decks[rules.ticket_deck]  # drawn at setup, seat by seat
    pads = iter([t for t in deck if t not in taken])
    top: list[int] = []
    for hand in hands:
        top += list(hand) + [next(pads) for _ in range(rules.setup_ticket_deal - len(hand))]
    arrange_tickets(game, top)


@functools.cache
def _tied_hands(map_id: str) -> Hands:
    """Ticket hands for Ann and Bruno that tie the two-player game on points, decided by a
    tie-break: the first pair found, in a fixed order (searched once per map). The scripted
    game does not depend on the tickets held, so its routes are known before they are
    chosen."""
    probe = _two_player_game(map_id, None)
    rules, state = probe.rules, probe.state
    keyed = probe.state.pending is None  # (two decks: only the deck drawn from at setup)
    hands = []
    for seat in (0, 1):
        player = state.players[seat]
        done, missed = [], []
        for ticket in probe.map.tickets:
            if len(ticket.cities) != 2 or (keyed and ticket.deck != rules.ticket_deck):
                continue
            (done if rules.ticket_done(state, player, ticket.id) else missed).append(ticket.id)
        options = [
            combo
            for n in range(rules.setup_ticket_keep, rules.setup_ticket_deal + 1)
            for combo in itertools.combinations(done[:5] + missed[:3], n)
        ]
        hands.append(options)
    for ann in hands[0]:
        for bruno in hands[1]:
            if set(ann) & set(bruno):
                continue
            trial = probe.clone()
            trial.state.players[0].tickets = list(ann)
            trial.state.players[1].tickets = list(bruno)
            rows = trial.scores()
            if rows[0]["total"] != rows[1]["total"]:
                continue
            result = trial.result()
            if not result or result["decided_by"] in ("points", "shared victory"):
                continue
            game = _two_player_game(map_id, (ann, bruno))
            final = game.result() or {}
            rows = game.scores()
            if (
                rows[0]["total"] == rows[1]["total"]
                and final.get("decided_by") == result["decided_by"]
            ):
                return ann, bruno
    raise ValueError(f"no tie found on the {map_id} map")


# ------------------------------------------------------------------ the recap
def recap(
    map_id: str,
    points: tuple[str, ...],
    rules: tuple[str, ...] = ("house-rules",),
) -> Step:
    """The last step: what the tutorial taught, in a few lines, on the learner's own
    finished game; where to look it up later (the rules card, the house rules)."""
    items = "".join(f"\n• {p}" for p in points)
    return Step(
        key="recap",
        title="Recap",
        rules=rules,
        text=(
            "Your game is over. What you now know:"
            f"{items}\n"
            "The Rules button above the board opens all this on one screen at any time; its "
            "House rules tab says what this app decides where the rulebook is silent."
        ),
        task="Press Finish, then play your first real game against a beginner bot.",
        carry=_others_finish,
        after="final-turn",
        goal=None,
        done="That was the whole game. Good luck in your first one!",
        marks=Marks(controls=("ttr-rules-button",)),
    )


def _others_finish(game: Game) -> Game:
    """What the game still asks of the other seats at its end (a choice of theirs), made
    by the tutorial; then the game is over."""
    for _ in range(10):
        if game.is_over or game.state.current == LEARNER:
            break
        game.apply(game.legal_actions()[0])
    return game


USA_RECAP = (
    "A turn is one thing: two cards, one route, or tickets.",
    "A face-up locomotive is the whole draw and never a second card; one drawn from the "
    "deck is wild and the draw goes on.",
    "A route takes as many cards of its colour as it has spaces (gray: any one colour; "
    "locomotives: any colour), and need not join your other routes.",
    "Routes score 1, 2, 4, 7, 10 or 15 points for 1 to 6 spaces; at the end each ticket "
    "adds or takes its points, and the longest path scores 10.",
    "At 2 trains or fewer after a turn the last round starts: one more turn each.",
)


def setup_turn(game: Game) -> Game:
    """A carry: the rest of the setup (the other seats' choices), then plain cards on top
    of the deck."""
    return _setup_then_plain(game)


__all__ = [
    "SEED",
    "USA_RECAP",
    "face_up_locomotive",
    "final_turn",
    "first_tickets",
    "setup_turn",
    "jumped",
    "last_round",
    "later_tickets",
    "locomotive_second",
    "others_then",
    "recap",
    "three_locomotives",
    "ties",
    "tied_game",
    "turn_choices",
    "two_cards",
]
