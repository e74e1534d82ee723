"""Rails & Sails World's tutorial: trains and ships, the two decks, the secret supply, Wilds,
Double-Ship cards, pair routes, the wrapping edge, harbors, exchanges, the two-turn ending
and tours. See :mod:`ttr_nb.widgets.tutorial`.

The rule ids are defined here with the lesson part that teaches each; World's rules
lessons name them in their sections' ``ttr_rules`` metadata.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ...actions import DrawFaceUp, KeepTickets
from ...deals import give_routes, route_id, set_face_up, set_hand, set_tickets, stack_deck
from ...game import Game
from ...rules.world_actions import BuildHarbor, ChooseSupply, ExchangePieces
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
    claim,
    draw_cards,
    is_card_draw,
    keep_tickets,
    register_tutorial,
)
from ..tutorial.positions import (
    deal_late_tickets,
    dealt,
    grow_network,
    started,
    tickets_for,
)

W1 = "rules_world_1_decks_and_supply.ipynb"
W2 = "rules_world_2_routes_and_harbors.ipynb"
W3 = "rules_world_3_tours_and_quiz.ipynb"
MAP = "world"
SUPPLY = ChooseSupply(20, 40)  # the rulebook's advice for a first game
ROW = ["train-red", "train-green", "train-black", "ship-red", "ship2-red", "ship-white"]
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


def world_setup(game: Game) -> Any:
    """Keep every ticket offered, and the advised supply of 20 trains and 40 ships."""
    legal = game.legal_actions()
    if SUPPLY in legal:
        return SUPPLY
    keeps = [a for a in legal if isinstance(a, KeepTickets)]
    return max(keeps, key=lambda a: len(a.tickets)) if keeps else legal[0]


def world_started() -> Game:
    """Past setup (tickets kept, 20 trains and 40 ships), hands emptied, a mixed row."""
    game = started(MAP, setup=world_setup)
    for seat in range(game.num_players):
        set_hand(game, seat, **({"train-red": 1, "ship-red": 1} if seat == LEARNER else {}))
    set_face_up(game, ROW)
    return game


def _rid(a: str, b: str, colour: str | None = None) -> int:
    return route_id(dealt(MAP), a, b, colour)


def _first_tickets() -> Step:
    r = dealt(MAP).rules
    return replace(
        common.first_tickets(MAP, rules=("aim", "setup", "two-decks")),
        text=(
            "You score with routes (up to 21 points for 8 spaces), with tickets (plus their "
            "points if your routes join their cities, minus if not), and with harbors. Train "
            "cards and Ship cards are two decks: you start with 3 Train and 7 Ship cards, and "
            f"3 of each lie face up. Each player is offered {r.setup_ticket_deal} tickets and "
            f"keeps at least {r.setup_ticket_keep}."
        ),
        task=(
            f"Tick at least {r.setup_ticket_keep} tickets (their cities are ringed on the "
            "board) and press the keep button."
        ),
        goal=keep_tickets(),
    )


def _supply() -> Step:
    def build() -> Game:
        game = dealt(MAP)
        while game.state.pending == "keep_tickets":
            game.apply(world_setup(game))
        return game

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
        build=build,
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
        build=world_started,
        goal=any_move(),
        done=lambda g: f"{common._turn_text(g)} That was your turn: Bruno plays next.",
        marks=Marks(controls=(*FACE_UP, "deck-train", "deck-ship")),
    )


def _two_decks() -> Step:
    def build() -> Game:
        game = world_started()
        stack_deck(game, ["wild", "train-white", "ship2-white", "ship-green"])
        return game

    return Step(
        key="two-decks",
        title="Drawing from two decks",
        rules=("two-cards", "refill-choice"),
        text=(
            "Drawing is still two cards, each face up or from the top of a deck, and you "
            "choose which deck. When you take a face-up card, you also choose which deck "
            "refills its place: the row may hold any mix of Train and Ship cards. Here the "
            "next Train card is a Wild."
        ),
        task=(
            "Take a face-up card and answer which deck refills its place; then take a second card."
        ),
        build=build,
        goal=draw_cards(),
        done=lambda g: f"{common._turn_text(g)} Two cards: your turn is over.",
        marks=Marks(controls=(*FACE_UP, "deck-train", "deck-ship")),
    )


def _face_up_wild() -> Step:
    def build() -> Game:
        game = world_started()
        set_face_up(game, ["wild", *ROW[1:]])
        return game

    return Step(
        key="face-up-wild",
        title="A face-up Wild",
        rules=("face-up-wild",),
        text=(
            "Wilds pay for any colour, on trains and ships alike. Taking one from the face-up "
            "row is your whole draw, and a Wild that turns up after your first card cannot be "
            "your second. A Wild drawn unseen from the train deck is an ordinary card."
        ),
        task="Take the face-up Wild (and choose which deck refills its place).",
        build=build,
        goal=Goal(
            "take the face-up Wild",
            lambda g, a: isinstance(a, DrawFaceUp) and g.state.face_up[a.slot] == "wild",
        ),
        done="One Wild, and your turn is over.",
        marks=Marks(controls=("face-up-0",)),
    )


def _wild_reset() -> Step:
    def build() -> Game:
        game = world_started()
        set_face_up(game, ["wild", "wild", "train-red", "ship-red", "ship2-red", "ship-white"])
        stack_deck(game, ["wild", "train-green", "train-black", "train-white"])
        stack_deck(game, ["ship2-black", "ship-green", "ship2-white"])
        return game

    def accepts(game: Game, action: Any) -> bool:
        if game.state.pending is None:
            return (
                isinstance(action, DrawFaceUp)
                and game.state.face_up[action.slot] == "train-red"
                and action.refill == "train"
            )
        return is_card_draw(action)

    return Step(
        key="wild-reset",
        title="Three Wilds face up",
        rules=("wild-reset",),
        text=(
            "If three of the six face-up cards are Wilds, all six go to their discards and "
            "three new cards come from each deck. Two Wilds lie face up, and the next Train "
            "card is a third."
        ),
        task=(
            "Take the red Train card and refill its place from the train deck; then take your "
            "second card."
        ),
        build=build,
        goal=Goal(
            "take the red Train card, refilled from the train deck",
            accepts,
            then="Three Wilds: the row was replaced, 3 + 3. Now take your second card.",
        ),
        done=lambda g: f"{common._turn_text(g)} The third Wild emptied the row.",
        marks=lambda g: Marks(controls=("face-up-2",) if not g.state.pending else FACE_UP),
    )


def _last_round() -> Step:
    route = _rid("athina", "tehran")

    def build() -> Game:
        game = world_started()
        game.state.players[LEARNER].pieces = {"train": 4, "ship": 4}
        set_hand(game, LEARNER, **{"train-red": 2, "ship-red": 1})
        return game

    return claiming.last_round_step(
        "The end: two more turns",
        "When a player ends a turn with 6 pieces or fewer (trains and ships together), the end "
        "begins: every player, that one too, takes two more turns. You have 4 trains and 4 "
        "ships.",
        "Claim the marked 2-train route: 6 pieces are left, and the end begins.",
        build,
        route,
        "Everyone now plays two more turns, you included; then the score is counted.",
    )


ANN = (
    ("los-angeles", "mexico", "white"),
    ("caracas", "mexico", "red"),
    ("caracas", "lima", "white"),
    ("lima", "valparaiso", None),
)


def _final_turn() -> Step:
    def build() -> Game:
        game = world_started()
        give_routes(game, LEARNER, [route_id(game, a, b, c) for a, b, c in ANN])
        tour = next(t.id for t in game.map.tickets if t.cities[:2] == ("mexico", "caracas"))
        done, _open = tickets_for(game, LEARNER, set())
        set_tickets(game, LEARNER, [tour, *done[:1]])
        game.state.extras["harbors"].update({"lima": LEARNER, "valparaiso": LEARNER})
        game.state.players[LEARNER].extras["harbors_left"] = 1
        rng = random.Random(5)
        for seat, keep in ((1, 5), (2, 11)):  # Bruno's last claim started the end
            grow_network(game, seat, keep, rng)
        deal_late_tickets(game, (1, 2), (2, 1))
        state = game.state
        state.last_round_by = 1
        state.final_turns_left = 1
        return game

    return Step(
        key="final-turn",
        title="The end, tours and the score",
        rules=("route-points", "tickets-scored", "tours"),
        text=(
            "This is the very last turn. Then the score: routes, tickets plus or minus, and "
            "harbors (20, 30 or 40 for 1, 2 or 3 completed tickets naming their city; 4 points "
            "off for each harbor not built). A tour names cities in order: a trail of your "
            "routes through them in that order scores its high value, joined in another order "
            "its low value, and otherwise you lose its penalty."
        ),
        task=(
            "Make your last move (two cards are fine), then read the end screen: your tour "
            "Mexico > Caracas > Lima > Valparaiso and your harbors."
        ),
        build=build,
        goal=Goal("make your last move", lambda _g, _a: True, reached=lambda g: g.is_over),
        done=_score,
        marks=lambda g: Marks(
            places=("mexico", "caracas", "lima", "valparaiso"),
            controls=("ttr-result-box",) if g.is_over else FACE_UP,
        ),
    )


def _score(game: Game) -> str:
    rows = game.scores()
    mine = rows[LEARNER]
    parts = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in mine.items() if k != "total")
    result = game.result() or {}
    winners = " and ".join(game.names[i] for i in result.get("winners", []))
    return (
        f"The game is over. Your score: {parts}; total {mine['total']}. {winners} won. The "
        "end screen lists each tour and harbor."
    )


def _harbor() -> Step:
    def build() -> Game:
        game = world_started()
        give_routes(game, LEARNER, [route_id(game, "caracas", "lima", "white")])
        set_hand(
            game,
            LEARNER,
            **{"train-yellow-harbor": 2, "ship-yellow": 1, "ship2-yellow": 1, "wild": 1},
        )
        return game

    return Step(
        key="harbor",
        title="Harbors",
        rules=("harbors",),
        text=(
            "Each player has 3 harbors. You may build one in a port (a city with a blue ring) "
            "where one of your routes arrives and nobody has built yet. It costs 2 Train and "
            "2 Ship cards of one colour, all with the harbor symbol ⚓ (Wilds may replace "
            "any). You own Caracas – Lima."
        ),
        task="In Build a harbor (under your hand) choose Lima or Caracas and build.",
        build=build,
        goal=Goal("build a harbor", lambda _g, a: isinstance(a, BuildHarbor)),
        done=(
            "Your harbor stands there (a ring in your colour). At the end it scores 20, 30 or "
            "40 for 1, 2 or 3 of your completed tickets naming its city."
        ),
        marks=Marks(places=("caracas", "lima"), controls=("ttr-harbor",)),
    )


def _exchange() -> Step:
    return Step(
        key="exchange",
        title="Exchanging pieces",
        rules=("exchange",),
        text=(
            "The pieces you left in your box are not lost: on your turn you may swap pieces of "
            "your supply for pieces of the other kind from the box, one for one, at 1 point "
            "each. That is your whole turn. Everyone here kept 20 trains and 40 ships."
        ),
        task="In Exchange pieces (under your hand) choose a swap and press the button.",
        build=world_started,
        goal=Goal("exchange pieces", lambda _g, a: isinstance(a, ExchangePieces)),
        done=lambda g: (
            f"{common._turn_text(g)} Your pieces now: "
            f"{count(g.state.players[LEARNER].pieces['train'], 'train')} and "
            f"{count(g.state.players[LEARNER].pieces['ship'], 'ship')}."
        ),
        marks=Marks(controls=("ttr-exchange-box",)),
    )


@register_tutorial(MAP)
def world_tutorial() -> Tutorial:
    """Rails & Sails World's tutorial: 16 steps."""
    trains = claiming.hand_claim_step(
        world_started,
        "trains",
        "Train routes and ship routes",
        ("trains-and-ships", "pay-colour"),
        (
            "Rectangles are train routes, ovals are ship routes across the sea. A train route "
            "is claimed with Train cards and filled with trains, a ship route with Ship cards "
            "and ships. All the cards are of the route's colour (any one colour for gray), "
            "and Wilds pay for any."
        ),
        "Claim the marked train route with your red Train cards.",
        _rid("moskva", "tehran"),
        {"train-red": 3, "ship-red": 2, "ship2-green": 1},
    )
    double_ship = claiming.hand_claim_step(
        world_started,
        "double-ship",
        "Double-Ship cards",
        ("double-ship",),
        (
            "Ship cards come single (one space) or double (two spaces, two ships pictured). "
            "You may pay one space too many when a Double-Ship card is half used, but never "
            "hand in a card you do not need."
        ),
        "Claim the marked 4-space ship route with two white Double-Ship cards.",
        _rid("dar-es-salaam", "mumbai"),
        {"ship2-white": 2, "ship-white": 1, "train-red": 3},
        pays=lambda cards: any(card.startswith("ship2") for card, _n in cards),
    )
    pair = claiming.hand_claim_step(
        world_started,
        "pair-route",
        "Pair routes",
        ("pair-routes",),
        (
            "A pair route (a white stripe along each space) crosses hard ground: each space "
            "takes two Train cards of one colour. The colour may change from space to space, "
            "and a Wild completes a pair."
        ),
        "Claim the marked 3-space pair route: six Train cards in pairs.",
        _rid("beijing", "lahore"),
        {"train-red": 2, "train-black": 2, "train-green": 1, "train-yellow": 1, "wild": 1},
    )
    wrap = claiming.hand_claim_step(
        world_started,
        "wrapping-edge",
        "The world is round",
        ("wrapping-edge",),
        (
            "The board's left edge joins its right edge: Honolulu and Anchorage sit at the "
            "right, Los Angeles and Vancouver at the left, and the routes between them leave "
            "the board on one side and come back on the other (hover one: its facts say so)."
        ),
        "Claim the marked ship route from Los Angeles to Honolulu, across the edge.",
        _rid("honolulu", "los-angeles"),
        {"ship-yellow": 1, "ship2-yellow": 1, "train-red": 1},
        extra="It counts like any other route: Honolulu and Los Angeles are neighbours.",
    )
    doubles = claiming.hand_claim_step(
        world_started,
        "double-routes",
        "Double routes",
        ("double-routes",),
        (
            "As on every map, one player never owns both tracks of a double route, and with 2 "
            "or 3 players only one of them is used: the first claim closes the other."
        ),
        "Claim one track of the marked double route.",
        _rid("perth", "sydney", "white"),
        {"train-white": 2, "train-yellow": 2},
    )
    doubles = replace(
        doubles,
        goal=claim(
            (_rid("perth", "sydney", "white"), _rid("perth", "sydney", "yellow")),
            "claim one track of the marked double route",
        ),
        marks=Marks(
            routes=(_rid("perth", "sydney", "white"), _rid("perth", "sydney", "yellow")),
            controls=("ttr-claim-box",),
        ),
        done=lambda g: (
            f"{claiming.claimed_text(g)} The other track is closed now: with 3 players only one "
            "of the two is used."
        ),
    )
    later = replace(common.later_tickets(MAP), build=world_started)
    steps = (
        _first_tickets(),
        _supply(),
        _turn(),
        _two_decks(),
        _face_up_wild(),
        _wild_reset(),
        trains,
        double_ship,
        pair,
        wrap,
        doubles,
        later,
        _harbor(),
        _exchange(),
        _last_round(),
        _final_turn(),
    )
    return Tutorial(
        map_id=MAP, title="Learn to play: Rails & Sails World", rules=WORLD_RULES, steps=steps
    )
