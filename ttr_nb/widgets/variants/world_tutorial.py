"""Rails & Sails World's tutorial: trains and ships, the two decks, the secret supply, Wilds,
Double-Ship cards, pair routes, the wrapping edge, harbors, exchanges, the two-turn ending
and tours. See :mod:`ttr_nb.widgets.tutorial`.

The rule ids are defined here with the lesson part that teaches each; World's rules
lessons name them in their sections' ``ttr_rules`` metadata.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...actions import DrawFaceUp
from ...game import Game
from ...maps import Route
from ...rules.world_actions import BuildHarbor, ChooseSupply, ExchangePieces
from .. import panels
from ..controls import count
from ..tutorial import claiming, common
from ..tutorial.model import (
    LEARNER,
    Goal,
    Marks,
    Rule,
    Step,
    Tutorial,
    any_move,
    draw_cards,
    is_card_draw,
    keep_tickets,
    register_lessons,
    register_tutorial,
)
from ..tutorial.positions import (
    cards_for,
    collect,
    finish_setup,
    setup_choice,
    top_plain,
    tutorial_deal,
    wild_slots,
)
from ..tutorial.script import arrange, blind_turn, colour_cards, in_pile, others_play

W1 = "rules_world_1_decks_and_supply.ipynb"
W2 = "rules_world_2_routes_and_harbors.ipynb"
W3 = "rules_world_3_tours_and_quiz.ipynb"
register_lessons(
    {
        W1: "Rails & Sails: World — the rules (1 of 3)",
        W2: "Rails & Sails: World — the rules (2 of 3)",
        W3: "Rails & Sails: World — the rules (3 of 3)",
    }
)
MAP = "world"
SUPPLY = ChooseSupply(20, 40)  # the rulebook's advice for a first game
FACE_UP = tuple(f"face-up-{i}" for i in range(6))

WORLD_RULES = (
    Rule("aim", "What you are trying to do", W1, "2. Setting up: two decks"),
    Rule("trains-and-ships", "Train routes and ship routes", W1, "1. A board of trains and ships"),
    Rule("wrapping-edge", "The board's edges join", W1, "1. A board of trains and ships"),
    Rule("setup", "Setting up", W1, "2. Setting up: two decks"),
    Rule("two-decks", "Two decks", W1, "2. Setting up: two decks"),
    Rule("supply", "A secret supply of 60 pieces", W1, "3. A secret supply of 60 pieces"),
    Rule("turn-choices", "A turn is one of five things", W1, "4. Drawing cards from two decks"),
    Rule("two-cards", "Drawing two cards", W1, "4. Drawing cards from two decks"),
    Rule("refill-choice", "Which deck refills the row", W1, "4. Drawing cards from two decks"),
    Rule("face-up-wild", "A face-up Wild", W1, "4. Drawing cards from two decks"),
    Rule("wild-reset", "Three Wilds face up", W1, "5. Three Wilds face up"),
    Rule(
        "pay-colour",
        "Claiming a route",
        W2,
        "6. Claiming routes: Train cards for trains, Ship cards for ships",
    ),
    Rule(
        "double-ship",
        "Double-Ship cards",
        W2,
        "6. Claiming routes: Train cards for trains, Ship cards for ships",
    ),
    Rule(
        "route-points",
        "Route points",
        W2,
        "6. Claiming routes: Train cards for trains, Ship cards for ships",
    ),
    Rule("pair-routes", "Pair routes", W2, "7. Pair routes: two cards per space"),
    Rule("double-routes", "Double routes", W2, "8. Double routes and tickets"),
    Rule("later-tickets", "Drawing tickets later", W2, "8. Double routes and tickets"),
    Rule("harbors", "Harbors", W2, "9. Harbors"),
    Rule("exchange", "Exchanging pieces", W2, "10. Exchanging pieces"),
    Rule("last-round", "The end: two more turns", W2, "11. The end: two more turns for everyone"),
    Rule("tickets-scored", "Tickets won and lost", W2, "9. Harbors"),
    Rule("tours", "Tours", W3, "12. Tours: visiting cities in order, as an algorithm"),
)


RECAP = (
    "A turn is one thing: two cards, one route, tickets, a harbor, or an exchange of pieces.",
    "Train routes take Train cards and trains, ship routes Ship cards and ships (a "
    "Double-Ship card pays two spaces); Wilds pay for any colour; a pair route takes two "
    "Train cards per space. A route need not join your other routes.",
    "A face-up Wild is the whole draw and never a second card; one drawn from the train deck "
    "is wild and the draw goes on. Taking a face-up card, you choose which deck refills it.",
    "A ticket adds or takes its points; a tour scores its high value in order, its low value "
    "in any order, else its penalty; a harbor scores for your completed tickets naming it.",
    "At 6 pieces or fewer after a turn the end begins: everyone plays two more turns.",
)


def world_setup(game: Game) -> Any:
    """The setup choices the tutorial makes: the advised supply of 20 trains and 40 ships,
    the other seats' tickets as :func:`setup_choice` keeps them."""
    legal = game.legal_actions()
    if SUPPLY in legal:
        return SUPPLY
    return setup_choice(game)


def _others_setup(game: Game) -> Game:
    """The other seats' setup choices, until the learner chooses again (or play starts)."""
    while game.phase == "setup" and game.state.current != LEARNER:
        game.apply(world_setup(game))
    return game


def _rest_of_setup(game: Game) -> Game:
    finish_setup(game, world_setup)
    top_plain(game)
    return game


def _first_tickets() -> Step:
    r = tutorial_deal(MAP).rules
    return replace(
        common.first_tickets(MAP, rules=("aim", "setup", "two-decks")),
        text=(
            "You score with routes (up to 21 points for 8 spaces), with tickets (plus their "
            "points if your routes join their cities, minus if not), and with harbors. Some "
            "tickets are tours: they name three or more cities in order, and score more when "
            "your routes visit them in that order (the end step shows how). Train cards and "
            "Ship cards are two decks: you start with 3 Train and 7 Ship cards, and 3 of each "
            f"lie face up. Each player is offered {r.setup_ticket_deal} tickets and keeps at "
            f"least {r.setup_ticket_keep}: keep those whose cities lie close together, since "
            "each one missed costs its points."
        ),
        task=(
            f"Tick at least {r.setup_ticket_keep} tickets (their cities are ringed on the "
            "board) and press the keep button."
        ),
        goal=keep_tickets(),
    )


def _supply() -> Step:
    return Step(
        key="supply",
        title="A secret supply of 60 pieces",
        rules=("supply",),
        text=(
            "You own 25 trains and 50 ships but play with 60 of them: choose how many of each "
            "to keep; the rest wait in your box. The others do not see your choice until "
            "everyone has chosen. For a first game, 20 trains and 40 ships is a good mix."
        ),
        task="Choose your supply above the cards and press Keep this supply.",
        carry=_others_setup,
        goal=Goal(
            "choose your supply",
            lambda _g, a: isinstance(a, ChooseSupply),
            prefer=lambda _g, a: a != SUPPLY,
        ),
        done="Chosen: Bruno and Chen choose theirs, then all three are revealed together.",
        marks=Marks(controls=("ttr-supply-choice",)),
    )


def _turn() -> Step:
    return Step(
        key="turn",
        title="A turn: one of five things",
        rules=("turn-choices",),
        text=(
            "On your turn you do exactly one thing: take two cards, claim one route, draw "
            "tickets, build a harbor, or exchange pieces with your box. The status line says "
            "what you may do now."
        ),
        task="Make any one move: two cards is simplest.",
        carry=_rest_of_setup,
        goal=any_move(),
        done=lambda g: f"{common._turn_text(g)} That was your turn: {common.next_player(g)}.",
        marks=Marks(controls=(*FACE_UP, "deck-train", "deck-ship")),
    )


def _wild_on_top(game: Game) -> Game:
    arrange(game, ["wild"])
    return game


def _two_decks() -> Step:
    return Step(
        key="two-decks",
        title="Drawing from two decks",
        rules=("two-cards", "refill-choice"),
        text=(
            "Drawing is still two cards, each face up or from the top of a deck, and you "
            "choose which deck. When you take a face-up card, you also choose which deck "
            "refills its place: the row may hold any mix of Train and Ship cards. A Wild drawn "
            "unseen from the train deck is as wild as any, and your draw goes on after it."
        ),
        task=(
            "Take a face-up card and answer which deck refills its place; then take a second card."
        ),
        carry=common.others_then(_wild_on_top),
        goal=draw_cards(),
        done=lambda g: f"{common._turn_text(g)} Two cards: your turn is over.",
        marks=Marks(controls=(*FACE_UP, "deck-train", "deck-ship")),
    )


def _face_up_wild() -> Step:
    def marks(game: Game) -> Marks:
        return Marks(controls=tuple(f"face-up-{i}" for i in wild_slots(game)[:1]))

    return replace(
        common.face_up_locomotive(MAP, rules=("face-up-wild",)),
        key="face-up-wild",
        title="A face-up Wild",
        text=(
            "Wilds pay for any colour, on trains and ships alike. Taking one from the face-up "
            "row is your whole draw, and a face-up Wild can never be your second card, whether "
            "it lay in the row already or turned up after your first. A Wild drawn unseen from "
            "the train deck is just as wild, and your draw goes on after it."
        ),
        task="Take the face-up Wild (and choose which deck refills its place).",
        goal=Goal(
            "take the face-up Wild",
            lambda g, a: isinstance(a, DrawFaceUp) and g.state.face_up[a.slot] == "wild",
        ),
        done="One Wild, and your turn is over.",
        marks=marks,
    )


def _wild_reset() -> Step:
    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:
            card = game.state.face_up[action.slot] if isinstance(action, DrawFaceUp) else None
            return (
                isinstance(action, DrawFaceUp)
                and card is not None
                and card != "wild"
                and action.refill == "train"
            )
        return is_card_draw(action)

    step = common.three_locomotives(MAP, rules=("wild-reset",))
    return replace(
        step,
        key="wild-reset",
        title="Three Wilds face up",
        text=(
            "If three of the six face-up cards are Wilds, all six go to their discards and "
            "three new cards come from each deck. Two Wilds lie face up now, and the next "
            "Train card is a third."
        ),
        task=(
            "Take a face-up card that is not a Wild and refill its place from the train deck; "
            "then take your second card."
        ),
        goal=Goal(
            "take a face-up card that is not a Wild, refilled from the train deck",
            accepts,
            prefer=lambda _g, a: (0, a.slot) if isinstance(a, DrawFaceUp) else (1, 0),
            then="Three Wilds: the row was replaced, 3 + 3. Now take your second card.",
        ),
        done=lambda g: f"{common._turn_text(g)} The third Wild emptied the row.",
        marks=lambda g: Marks(
            controls=FACE_UP
            if g.state.pending
            else tuple(f"face-up-{i}" for i in range(6) if i not in wild_slots(g))
        ),
    )


def _claims(game: Game, test: Callable[[Route], bool]) -> list[Route]:
    """Open routes passing ``test`` the learner may claim (pieces enough), map order."""
    return [
        r
        for r in game.map.routes
        if test(r) and game.rules.route_problem(game.state, LEARNER, r) is None
    ]


def _payable(game: Game, routes: list[Route], pays: Callable[[Any], bool] = bool) -> list[Route]:
    hand = game.state.players[LEARNER].hand
    return [r for r in routes if any(pays(p) for p in game.rules.payments(hand, r))]


def _trains() -> Step:
    def routes(game: Game) -> list[Route]:
        return [
            r
            for n in (3, 2, 4)
            for r in _claims(
                game,
                lambda r: r.kind == "train" and not r.pair and r.color != "gray" and not r.wraps,
            )
            if r.length == n
        ]

    def find(game: Game) -> list[tuple[int, ...]]:
        return [(r.id,) for r in _payable(game, routes(game))]

    def fallback(game: Game) -> list[str]:
        return cards_for(game, claiming.most_held(game, routes(game)))

    return claiming.claim_step(
        "trains",
        "Train routes and ship routes",
        ("trains-and-ships", "pay-colour"),
        "Rectangles are train routes, ovals are ship routes across the sea. A train route is "
        "claimed with Train cards and filled with trains, a ship route with Ship cards and "
        "ships. All the cards are of the route's colour (any one colour for gray), and Wilds "
        "pay for any. A route need not join your other routes.",
        "Claim {route}, the marked train route, with your Train cards.",
        find,
        fallback,
        "claim {route}, the marked train route",
        claiming.claimed_text,
    )


def _double_ship() -> Step:
    def ships(game: Game) -> list[Route]:
        return [
            r
            for n in (4, 3, 2, 5)
            for r in _claims(game, lambda r: r.kind == "ship" and r.color != "gray")
            if r.length == n
        ]

    def double(cards: Any) -> bool:
        return any(card.startswith("ship2") for card, _n in cards)

    def find(game: Game) -> list[tuple[int, ...]]:
        return [(r.id,) for r in _payable(game, ships(game), double)]

    def fallback(game: Game) -> list[str]:
        hand = game.state.players[LEARNER].hand
        route = max(ships(game), key=lambda r: hand[f"ship2-{r.color}"])
        return [f"ship2-{route.color}", f"ship2-{route.color}"]

    return claiming.claim_step(
        "double-ship",
        "Double-Ship cards",
        ("double-ship",),
        "Ship cards come single (one space) or double (two spaces, two ships pictured). You "
        "may pay one space too many when a Double-Ship card is half used, but never hand in a "
        "card you do not need.",
        "Claim {route}, the marked ship route, with your Double-Ship cards.",
        find,
        fallback,
        "claim {route}, the marked ship route, with a Double-Ship card",
        claiming.claimed_text,
        pays=lambda _g, cards: double(cards),
    )


def _pair() -> Step:
    def pairs(game: Game) -> list[Route]:
        return sorted(_claims(game, lambda r: r.pair), key=lambda r: (r.length, r.id))

    def find(game: Game) -> list[tuple[int, ...]]:
        return [(r.id,) for r in _payable(game, pairs(game))]

    def fallback(game: Game) -> list[str]:
        hand = game.state.players[LEARNER].hand
        best = max(colour_cards(game, "train"), key=lambda c: (hand[c], in_pile(game, c)))
        return [best, best]

    return claiming.claim_step(
        "pair-route",
        "Pair routes",
        ("pair-routes",),
        "A pair route (a white stripe along each space) crosses hard ground: each space takes "
        "two Train cards of one colour. The colour may change from space to space, and a Wild "
        "completes a pair.",
        "Claim {route}, the marked pair route: two Train cards for each space.",
        find,
        fallback,
        "claim {route}, the marked pair route",
        claiming.claimed_text,
    )


def _wrap() -> Step:
    def wraps(game: Game) -> list[Route]:
        return sorted(_claims(game, lambda r: r.wraps and not r.pair), key=lambda r: r.length)

    def find(game: Game) -> list[tuple[int, ...]]:
        return [(r.id,) for r in _payable(game, wraps(game))]

    def fallback(game: Game) -> list[str]:
        return cards_for(game, claiming.most_held(game, wraps(game)))

    return claiming.claim_step(
        "wrapping-edge",
        "The world is round",
        ("wrapping-edge",),
        "The board's left edge joins its right edge: the routes between the Pacific's two "
        "shores leave the board on one side and come back on the other (hover one: its facts "
        "say so).",
        "Claim {route}, the marked route across the edge.",
        find,
        fallback,
        "claim {route}, the marked route across the edge",
        lambda g: (
            f"{claiming.claimed_text(g)} It counts like any other route: its two cities are "
            "neighbours."
        ),
    )


def _harbor() -> Step:
    def builds(game: Game) -> list[BuildHarbor]:
        return [a for a in game.legal_actions() if isinstance(a, BuildHarbor)]

    def ready(game: Game) -> bool:
        return bool(builds(game))

    def cards(game: Game) -> list[str]:
        hand = game.state.players[LEARNER].hand
        colours = ("red", "yellow", "green", "black", "white", "purple")
        colour = max(colours, key=lambda c: hand[f"train-{c}-harbor"] + hand[f"ship-{c}"])
        need = [f"train-{colour}-harbor"] * max(0, 2 - hand[f"train-{colour}-harbor"])
        need += [f"ship-{colour}"] * max(0, 2 - hand[f"ship-{colour}"])
        return need[:2] if need[:1] and need[0].startswith("train") else need[:2]

    def carry(game: Game) -> Game:
        others_play(game)
        collect(game, ready, cards)
        top_plain(game)
        return game

    def bind(step: Step, game: Game) -> Step:
        cities = tuple(dict.fromkeys(a.city for a in builds(game)))
        names = " or ".join(game.map.place_name(c) for c in cities)
        return replace(
            step,
            task=(
                "In Build a harbor (under your hand) choose a port, one of those ringed on the "
                f"board ({names}), and build."
            ),
            marks=Marks(places=cities, controls=("ttr-harbor",)),
        )

    return Step(
        key="harbor",
        title="Harbors",
        rules=("harbors",),
        text=(
            "Each player has 3 harbors. You may build one in a port (a city with a blue ring) "
            "where one of your routes arrives and nobody has built yet. It costs 2 Train and 2 "
            "Ship cards of one colour, all with the harbor symbol ⚓ (Wilds may replace any)."
        ),
        task="",
        carry=carry,
        bind=bind,
        goal=Goal("build a harbor", lambda _g, a: isinstance(a, BuildHarbor)),
        done=(
            "Your harbor stands there (a ring in your colour). At the end it scores 20, 30 or "
            "40 for 1, 2 or 3 of your completed tickets naming its city; each harbor never "
            "built costs 4 points."
        ),
    )


def _exchange() -> Step:
    return Step(
        key="exchange",
        title="Exchanging pieces",
        rules=("exchange",),
        text=(
            "The pieces you left in your box are not lost: on your turn you may swap pieces of "
            "your supply for pieces of the other kind from the box, one for one, at 1 point "
            "each. That is your whole turn."
        ),
        task="In Exchange pieces (under your hand) choose a swap and press the button.",
        carry=common.others_then(),
        goal=Goal("exchange pieces", lambda _g, a: isinstance(a, ExchangePieces)),
        done=lambda g: (
            f"{common._turn_text(g)} Your pieces now: "
            f"{count(g.state.players[LEARNER].pieces['train'], 'train')} and "
            f"{count(g.state.players[LEARNER].pieces['ship'], 'ship')}."
        ),
        marks=Marks(controls=("ttr-exchange-box",)),
    )


def _last_round() -> Step:
    step = common.last_round(MAP)
    bind = step.bind
    assert bind is not None

    def words(s: Step, game: Game) -> Step:
        bound = bind(s, game)
        left = sum(game.state.players[LEARNER].pieces.values())
        return replace(
            bound,
            title="The end: two more turns",
            text=(
                "When a player ends a turn with 6 pieces or fewer (trains and ships together), "
                "the end begins: every player, that one too, takes two more turns. You have "
                f"{panels.pieces_text(game.state.players[LEARNER].pieces)} ({left} pieces). A "
                "route longer than the pieces of its kind you have left cannot be claimed."
            ),
            task=bound.task.replace("the last round", "the end"),
        )

    return replace(
        step,
        title="The end: two more turns",
        bind=words,
        done=lambda g: (
            f"{claiming.claimed_text(g)} The end has begun: everyone, you included, now plays "
            "two more turns; then the score is counted."
        ),
    )


def _to_the_very_last(game: Game) -> Game:
    """The two last turns each: Bruno's and Chen's, the learner's first (played for them),
    Bruno's and Chen's again; the learner's very last turn is theirs to play."""
    others_play(game)
    blind_turn(game)
    others_play(game)
    top_plain(game)
    return game


def _final_turn() -> Step:
    return common.final_turn(
        MAP,
        rules=("route-points", "tickets-scored", "tours"),
        text=(
            "Everyone's two last turns have been played but your second: this one is the very "
            "last of the game (your first was played for you). Then the score: routes, tickets "
            "plus or minus, and harbors (20, 30 or 40 for 1, 2 or 3 completed tickets naming "
            "their city; 4 points off for each harbor not built). A tour names cities in "
            "order: a trail of your routes through them in that order scores its high value, "
            "joined in another order its low value, and otherwise you lose its penalty."
        ),
        done=_score,
        carry=_to_the_very_last,
    )


def _score(game: Game) -> str:
    rows = game.scores()
    mine = rows[LEARNER]
    parts = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in mine.items() if k != "total")
    result = game.result() or {}
    winners = " and ".join(game.names[i] for i in result.get("winners", []))
    return (
        f"The game is over. Your score: {parts}; total {mine['total']}. {winners} won. The "
        "end screen lists each ticket, tour and harbor."
    )


def _later_tickets() -> Step:
    return replace(
        common.later_tickets(MAP),
        text=(
            "Drawing tickets is a whole turn: you keep at least 1 of those drawn; the others go "
            "under the deck. A tour among them names three or more cities in order: it scores "
            "its high value if your routes visit them in that order, its low value in another "
            "order, and costs its penalty if they are not all joined. Tickets are worth "
            "drawing once your network already reaches some of their cities."
        ),
    )


@register_tutorial(MAP)
def world_tutorial() -> Tutorial:
    """Rails & Sails World's tutorial: 17 steps of one game, then a recap."""
    steps = (
        _first_tickets(),
        _supply(),
        _turn(),
        _two_decks(),
        _face_up_wild(),
        _wild_reset(),
        _trains(),
        _double_ship(),
        _pair(),
        _wrap(),
        claiming.double_routes(MAP),
        _later_tickets(),
        _harbor(),
        _exchange(),
        _last_round(),
        _final_turn(),
        common.recap(MAP, RECAP, rules=("aim",)),
    )
    return Tutorial(
        map_id=MAP, title="Learn to play: Rails & Sails World", rules=WORLD_RULES, steps=steps
    )
