"""Europe's tutorial: the original game's steps on the Europe board, then what Europe adds
(a long ticket at the start, ferries, tunnels with their cards turned up, train stations, the
routes they borrow at the end, the European Express and the stations kept). See
:mod:`ttr_nb.widgets.tutorial`.

The rule ids are defined here with the lesson part that teaches each; Europe's rules
lessons name them in their sections' ``ttr_rules`` metadata. Rules the Europe lessons
leave to the USA lessons link there.

Every position is a game dealt from a seed, then edited with :mod:`ttr_nb.deals`; a tunnel's
cards are the top of that game's deck, stacked, so the cards turned up are the engine's own
draw. The routes are named (as World's tutorial does) rather than searched for: on this
board a search for "a coloured route of 4" may land on a tunnel or a ferry.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ...actions import ClaimRoute, DrawBlind
from ...algorithms import longest_trail_length
from ...deals import (
    give_routes,
    route_id,
    set_face_up,
    set_hand,
    set_tickets,
    stack_deck,
    ticket_id,
)
from ...game import Game
from ...rules.europe import BORROW, LEFT, STATIONS, TUNNEL, words_list
from ...rules.europe_actions import BorrowRoutes, BuildStation, GiveUpTunnel, PayTunnel
from ..controls import count
from ..tutorial import claiming, common
from ..tutorial.model import (
    LEARNER,
    Goal,
    Marks,
    Rule,
    Step,
    Tutorial,
    register_tutorial,
    turn_over,
)
from ..tutorial.positions import dealt, grow_network, late_game, started
from .usa_tutorial import USA_RULES

E1 = "rules_europe_1_setup_and_tickets.ipynb"
E2 = "rules_europe_2_ferries_and_tunnels.ipynb"
E3 = "rules_europe_3_stations_end_and_quiz.ipynb"
MAP = "europe"
ROW = ["blue", "orange", "white", "green", "yellow"]  # a plain face-up row, no locomotive
LOCO = "locomotive"

_FROM_USA = {r.id: r for r in USA_RULES}

EUROPE_RULES = (
    _FROM_USA["aim"],
    Rule(
        "setup",
        "Setting up: cards, trains, stations",
        E1,
        "2. Setting up: a long ticket for everyone",
    ),
    Rule(
        "long-ticket",
        "A long ticket and three regular ones",
        E1,
        "2. Setting up: a long ticket for everyone",
    ),
    Rule("turn-choices", "A turn is one of four things", E1, "3. A turn: four kinds of move"),
    _FROM_USA["two-cards"],
    _FROM_USA["face-up-locomotive"],
    _FROM_USA["three-locomotive-reset"],
    _FROM_USA["pay-colour"],
    _FROM_USA["pay-gray"],
    _FROM_USA["locomotive-any-colour"],
    Rule("route-points", "Route points, up to 21", E2, "8. Double routes and the scoring table"),
    Rule(
        "ferries",
        "Ferries: a locomotive for each symbol",
        E2,
        "4. Ferries: a locomotive for each symbol",
    ),
    Rule("tunnels", "Tunnels: three cards turned up", E2, "5. Tunnels: three cards turned up"),
    Rule(
        "tunnel-locomotives",
        "A tunnel paid with locomotives alone",
        E2,
        "6. A tunnel paid with locomotives alone",
    ),
    Rule("tunnel-give-up", "Giving a tunnel up", E2, "7. Giving a tunnel up"),
    Rule(
        "double-routes",
        "Double routes and the number of players",
        E2,
        "8. Double routes and the scoring table",
    ),
    Rule(
        "later-tickets",
        "Drawing tickets later: regular ones only",
        E1,
        "3. A turn: four kinds of move",
    ),
    Rule("stations", "Train stations cost 1, 2, then 3 cards", E3, "9. Train stations"),
    Rule("station-per-city", "One station per city", E3, "9. Train stations"),
    Rule("last-round", "The last round", E3, "10. The end, and the routes the stations borrow"),
    Rule(
        "borrow-routes",
        "The route each station borrows",
        E3,
        "10. The end, and the routes the stations borrow",
    ),
    Rule("tickets-scored", "Tickets won and lost", E3, "11. Final scoring"),
    Rule("european-express", "The European Express", E3, "11. Final scoring"),
    Rule("station-points", "4 points for each station kept", E3, "11. Final scoring"),
    Rule("ties", "Ties", E3, "12. Ties"),
    Rule("house-rules", "The engine's readings", E3, "13. House rules: the engine's readings"),
)


# ------------------------------------------------------------------ positions
def europe_started() -> Game:
    """Past setup (every ticket kept), every hand emptied, a face-up row without a locomotive."""
    game = started(MAP)
    for seat in range(game.num_players):
        set_hand(game, seat)
    set_face_up(game, ROW)
    return game


def _rid(a: str, b: str, colour: str | None = None) -> int:
    return route_id(dealt(MAP), a, b, colour)


def _label(game: Game, route: int) -> str:
    return game.map.route_label(game.map.route_by_id[route])


def _locos(_game: Game, action: Any) -> int:
    """*Show me* pays with as few locomotives as it can."""
    return sum(n for card, n in getattr(action, "cards", ()) if card == LOCO)


# ------------------------------------------------------------------ setup and a turn
def _first_tickets() -> Step:
    return common.first_tickets(
        MAP,
        text=(
            "You score with routes, and with destination tickets: a ticket adds its points at "
            "the end if your routes join its two cities, and takes them away if they do not. "
            "Everyone starts with 4 train cards, 45 trains and 3 train stations. Each player is "
            "dealt one long ticket (20 or 21 points, from a pile of its own) and 3 regular ones, "
            "and keeps at least 2 of the 4. What you give back now goes into the box for good, "
            "and so do the long tickets nobody was dealt."
        ),
        task=(
            "Tick at least 2 of your 4 tickets (the long one comes first; their cities are "
            "ringed on the board) and press the keep button."
        ),
        rules=("aim", "setup", "long-ticket"),
    )


def _turn() -> Step:
    step = common.turn_choices(MAP)
    return replace(
        step,
        title="A turn: one of four things",
        text=(
            "On your turn you do exactly one thing: take two train cards, claim one route, "
            "draw destination tickets, or build a train station (more on stations later). "
            "Nothing is mixed within a turn. The status line above the board says what you may "
            "do now."
        ),
        task=(
            "Make any one move: a card (then a second one), a route lit up on the board, or "
            "Draw tickets."
        ),
        marks=Marks(controls=(*common.FACE_UP, common.DECK, "ttr-draw-tickets", "ttr-claim-box")),
    )


def _later_tickets() -> Step:
    return replace(
        common.later_tickets(MAP),
        text=(
            "Drawing tickets is a whole turn: you get 3 regular tickets (the long ones are only "
            "ever dealt at the start) and keep at least 1; the others go under the regular "
            "deck. Tickets are worth drawing once your network already reaches some of their "
            "cities."
        ),
    )


# ------------------------------------------------------------------ claiming
PAY_COLOUR = _rid("warszawa", "wien")
PAY_GRAY = _rid("marseille", "paris")
FERRY = _rid("brindisi", "palermo")
PURPLE_TUNNEL = _rid("marseille", "zuerich")
GRAY_TUNNEL = _rid("barcelona", "pamplona")


def _pay_colour() -> Step:
    return claiming.hand_claim_step(
        europe_started,
        "pay-colour",
        "Claiming a coloured route",
        ("pay-colour", "route-points"),
        (
            "To claim a route, hand in as many cards of its colour as it has spaces and set "
            "your trains on it. It scores at once, and long routes pay far more: 1, 2, 4, 7, 15 "
            "and 21 points for 1, 2, 3, 4, 6 and 8 spaces (this board has no route of 5 or 7). "
            "A route is its owner's for the rest of the game."
        ),
        "Click the marked route on the board, choose how to pay, and press Claim this route.",
        PAY_COLOUR,
        {"blue": 4, "red": 2},
    )


def _pay_gray() -> Step:
    return claiming.hand_claim_step(
        europe_started,
        "pay-gray",
        "Claiming a gray route",
        ("pay-gray",),
        (
            "A gray route takes cards of any one colour: every card you hand in must be the "
            "same colour, but the colour is yours to choose. The payment list shows each way "
            "your hand can pay."
        ),
        "Claim the marked gray route: pick a payment of one colour and press Claim this route.",
        PAY_GRAY,
        {"yellow": 4, "blue": 3, "orange": 1},
    )


def _ferry() -> Step:
    def with_loco(cards: Any) -> bool:
        return any(card == LOCO for card, _n in cards)

    return claiming.hand_claim_step(
        europe_started,
        "ferry",
        "Ferries",
        ("ferries",),
        (
            "A ferry is a gray route over the sea; one or two of its spaces show a locomotive "
            "(an L on the board). Each of those spaces must be paid with a locomotive card; "
            "the other spaces are paid as on any gray route. Three red cards are as long as the "
            "marked ferry, but they cannot pay for it alone."
        ),
        "Claim the marked ferry Brindisi – Palermo: its L space takes your locomotive.",
        FERRY,
        {"red": 3, LOCO: 1, "blue": 1},
        pays=with_loco,
        extra="Your locomotive paid for its L space, two red cards for the others.",
    )


def _tunnel_done(game: Game) -> str:
    record = game.state.extras.get("last_tunnel") or {}
    revealed = record.get("revealed", [])
    asked = record.get("extra", 0)
    label = _label(game, record["route"]) if record else "The tunnel"
    if record.get("outcome") == "built":
        paid = ", ".join(f"{n} {c}" for c, n in record["paid"])
        route = game.map.route_by_id[record["route"]]
        return (
            f"Turned up: {words_list(revealed)}: {asked} of them asked for one more card each, "
            f"and you paid: {label} is yours, for {paid} in all, and it scored "
            f"{count(game.map.route_points(route.length), 'point')}. The three cards turned up "
            "went to the discard pile."
        )
    hand = game.state.players[LEARNER].hand
    return (
        f"Turned up: {words_list(revealed)}: {count(asked, 'more locomotive')} asked, and you "
        f"had one to spare. You gave {label} up: your cards came back (you hold "
        f"{count(hand[LOCO], 'locomotive')} again), the turned-up cards went to the discards, "
        "and your turn is over. The colour turned up asked for nothing: none was played."
    )


def _tunnel_marks(game: Game, route: int) -> Marks:
    """The tunnel, and where to act now: the claim, then the tunnel's question."""
    if game.state.pending == TUNNEL:
        return Marks(routes=(route,), controls=("ttr-tunnel",))
    return Marks(routes=(route,), controls=() if turn_over(game) else ("ttr-claim-box",))


def _tunnel() -> Step:
    def build() -> Game:
        game = europe_started()
        set_hand(game, LEARNER, purple=4, locomotive=1, black=1)
        stack_deck(game, ["purple", "yellow", LOCO])
        return game

    def accepts(_game: Game, action: Any) -> bool:
        return (isinstance(action, ClaimRoute) and action.route == PURPLE_TUNNEL) or isinstance(
            action, PayTunnel
        )

    return Step(
        key="tunnel",
        title="Tunnels: three cards turned up",
        rules=("tunnels",),
        text=(
            "A tunnel (a dark dashed frame) may cost more than its length. You lay down its "
            "cards as for any route; then the top 3 cards of the deck are turned up. Each that "
            "is of the colour you played, or a locomotive, asks for one more card: of that "
            "colour, or a locomotive. Pay them and the tunnel is yours. Selecting a tunnel "
            "tells you how many to expect."
        ),
        task=(
            "Claim the marked purple tunnel with 2 purple cards. Then answer in the tunnel "
            "panel above the cards: pay the extra cards asked."
        ),
        build=build,
        goal=Goal(
            "claim the marked tunnel and pay the extra cards",
            accepts,
            prefer=_locos,
            then=(
                "The tunnel panel above the cards shows the 3 cards turned up and what they "
                "ask: choose a way to pay and press Do it."
            ),
        ),
        done=_tunnel_done,
        marks=lambda g: _tunnel_marks(g, PURPLE_TUNNEL),
    )


def _tunnel_give_up() -> Step:
    def build() -> Game:
        game = europe_started()
        set_hand(game, LEARNER, locomotive=3, green=1)
        stack_deck(game, ["green", LOCO, LOCO])
        return game

    def accepts(_game: Game, action: Any) -> bool:
        if isinstance(action, ClaimRoute):
            return action.route == GRAY_TUNNEL and all(c == LOCO for c, _n in action.cards)
        return isinstance(action, GiveUpTunnel)

    return Step(
        key="tunnel-give-up",
        title="Locomotives alone, and giving a tunnel up",
        rules=("tunnel-locomotives", "tunnel-give-up"),
        text=(
            "A tunnel paid with locomotives alone asks only for the locomotives turned up, and "
            "only locomotives pay them: a coloured card turned up asks nothing, since no colour "
            "was played. When you cannot pay what is asked, or would rather not, you give the "
            "tunnel up: your cards come back to your hand and your turn is over."
        ),
        task=(
            "Claim the marked gray tunnel with 2 locomotives. The cards turned up ask for 2 "
            "more locomotives and you hold only 1 more: give the tunnel up in the tunnel panel."
        ),
        build=build,
        goal=Goal(
            "claim the marked tunnel with locomotives alone, then give it up",
            accepts,
            then=(
                "Two locomotives turned up: 2 more locomotives asked, and you have 1 to spare. "
                "Choose Give the tunnel up in the tunnel panel and press Do it."
            ),
        ),
        done=_tunnel_done,
        marks=lambda g: _tunnel_marks(g, GRAY_TUNNEL),
    )


# ------------------------------------------------------------------ stations
STATION_MINE, STATION_BRUNO = "madrid", "wien"


def _station() -> Step:
    def build() -> Game:
        game = europe_started()
        state = game.state
        state.extras[STATIONS] = {STATION_MINE: LEARNER, STATION_BRUNO: 1}
        state.players[LEARNER].extras[LEFT] = 2
        state.players[1].extras[LEFT] = 2
        set_hand(game, LEARNER, blue=2, red=1, locomotive=1)
        return game

    def done(game: Game) -> str:
        mine = [
            game.map.place_name(c)
            for c, s in game.state.extras[STATIONS].items()
            if s == LEARNER and c != STATION_MINE
        ]
        where = mine[0] if mine else "the city you chose"
        return (
            f"Your second station stands in {where} (a house in your colour), for 2 cards of "
            "one colour; your third would take 3. Madrid and Wien were not offered: each city "
            "holds one station, whoever built it. A station does nothing until the end; then "
            "it lends you one route another player claimed into its city."
        )

    return Step(
        key="station",
        title="Train stations",
        rules=("stations", "station-per-city"),
        text=(
            "Building a train station is a turn of its own. Each player has 3, and each costs "
            "more than the last: 1 card of any colour, then 2 cards of one colour, then 3 "
            "(locomotives stand in for any colour). A station may go in any city without one, "
            "yours or not, with or without your routes there. You built one in Madrid; Bruno "
            "has one in Wien."
        ),
        task=(
            "In Build a train station (under your hand) choose a city (or click one on the "
            "board), press Build a station, and choose the cards."
        ),
        build=build,
        goal=Goal(
            "build a train station", lambda _g, a: isinstance(a, BuildStation), prefer=_locos
        ),
        done=done,
        marks=Marks(places=(STATION_MINE, STATION_BRUNO), controls=("ttr-europe-actions",)),
    )


def _last_round() -> Step:
    def pick(game: Game) -> Any:
        return next(
            r
            for r in common.find_routes_open(game, length=2)
            if not r.tunnel
            and not r.locomotives
            and r.color != "gray"
            and game.rules.route_problem(game.state, LEARNER, r) is None
        )

    def build() -> Game:
        game = late_game(MAP, trains_left=(4, 9, 8))
        route = pick(game)
        other = next(c for c in ROW if c != route.color)
        set_hand(game, LEARNER, **{route.color: 2, other: 1})
        set_face_up(game, ROW)
        return game

    return claiming.last_round_step(
        "The last round",
        "When a player ends a turn with 2 trains or fewer, the last round starts: everyone, "
        "that player too, plays one more turn, and then the game ends. You have 4 trains left.",
        "Claim the marked 2-space route: it leaves you 2 trains and starts the last round.",
        build,
        pick(build()).id,
        "The last round has started (the status line says so): Bruno, Chen and you each play "
        "one more turn.",
    )


# ------------------------------------------------------------------ the end
# Ann's tickets Brest – Venezia and Madrid – Zürich are each one route short of done; the
# routes missing are Bruno's and Chen's, into the two cities where Ann built a station.
ANN_ROUTES = (("brest", "paris", None), ("paris", "zuerich", None), ("madrid", "pamplona", "black"))
ANN_TICKETS = (("brest", "venezia"), ("madrid", "zuerich"))
BRUNO_ROUTES = (("venezia", "zuerich", None), ("marseille", "zuerich", None))
CHEN_ROUTES = (("pamplona", "paris", "blue"), ("marseille", "pamplona", None))
ANN_STATIONS = ("pamplona", "zuerich")


def end_position() -> Game:
    """The turns are over: Chen has just played the last one, and Ann (the only player whose
    stations have something to borrow) chooses the route each of her stations borrows."""
    game = europe_started()
    for seat, routes in ((LEARNER, ANN_ROUTES), (1, BRUNO_ROUTES), (2, CHEN_ROUTES)):
        give_routes(game, seat, [route_id(game, a, b, c) for a, b, c in routes])
    rng = random.Random(5)
    for seat, keep in ((1, 7), (2, 2)):  # Chen's last claim started the last round
        grow_network(game, seat, keep, rng)
    for seat in (1, 2):
        set_tickets(game, seat, [])
    set_tickets(game, LEARNER, [ticket_id(game, a, b) for a, b in ANN_TICKETS])
    state = game.state
    for city in ANN_STATIONS:
        state.extras[STATIONS][city] = LEARNER
    state.players[LEARNER].extras[LEFT] = 1
    state.last_round_by, state.final_turns_left, state.current = 2, 1, 2
    for _ in range(2):  # Chen's very last turn: two cards from the deck
        game.apply(DrawBlind())
    return game


def _ticket_points(game: Game, action: Any) -> int:
    """*Show me* borrows the routes that score the most ticket points (as the app proposes)."""
    trial = game.clone()
    trial.apply(action)
    player = trial.state.players[LEARNER]
    return -sum(trial.rules.ticket_points(trial.state, player, t) for t in player.tickets)


def _end_text(game: Game) -> str:
    state, rules = game.state, game.rules
    if not game.is_over:
        return ""
    label = game.map.route_label
    borrowed = [game.map.route_by_id[r] for r in rules.borrowed_routes(state, LEARNER)]
    own = [game.map.route_by_id[r] for r in state.players[LEARNER].routes]
    with_borrowed = longest_trail_length([(r.a, r.b, r.length) for r in own + borrowed])
    lengths = rules.longest_paths(state)
    best = max(lengths)
    express = " and ".join(game.names[i] for i, n in enumerate(lengths) if n == best)
    status = game.ticket_status(LEARNER)
    won = [t for t, ok in status if ok]
    ticket_words = "; ".join(
        f"{' – '.join(game.map.place_name(c) for c in game.map.ticket_by_id[t].cities)} "
        f"{'completed' if ok else 'missed'}"
        for t, ok in status
    )
    mine = game.scores()[LEARNER]
    parts = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in mine.items() if k != "total")
    result = game.result() or {}
    winners = " and ".join(game.names[i] for i in result.get("winners", []))
    kept = state.players[LEARNER].extras[LEFT]
    return (
        f"Your stations borrowed {' and '.join(label(r) for r in borrowed)}: {ticket_words} "
        f"({len(won)} of {len(status)}). Your own longest path is {lengths[LEARNER]} spaces "
        f"(with the borrowed routes it would be {with_borrowed}, but they never count): the "
        f"European Express goes to {express}, {best} spaces. Your {count(kept, 'station')} "
        f"kept scored {4 * kept}. Your score: {parts}; total {mine['total']}. {winners} won."
    )


def _the_end() -> Step:
    def borrowing(game: Game) -> tuple[int, ...]:
        if game.is_over or game.state.pending != BORROW:
            return ()
        options = game.rules.borrow_choices(game.state, LEARNER)
        return tuple(r for city in sorted(options) for r in options[city])

    return Step(
        key="the-end",
        title="The end: stations borrow routes",
        rules=("borrow-routes", "tickets-scored", "european-express", "station-points"),
        text=(
            "Chen has played the very last turn. Before the count, each station lends its owner "
            "one route that another player claimed into its city; it counts for the owner's "
            "tickets, never for the longest path. Your tickets Brest – Venezia and Madrid – "
            "Zürich each lack one route, and your stations stand in Pamplona and Zürich. Then "
            "tickets add or take their points, the longest path of one's own routes wins the "
            "European Express (10), and each station never built scores 4."
        ),
        task=(
            "In the panel above the cards, choose the route each station borrows (the app "
            "proposes the best for your tickets) and press Use these routes. Then read the end "
            "screen."
        ),
        build=end_position,
        goal=Goal(
            "choose the routes your stations borrow",
            lambda _g, a: isinstance(a, BorrowRoutes),
            reached=lambda g: g.is_over,
            prefer=_ticket_points,
        ),
        done=_end_text,
        marks=lambda g: Marks(
            routes=borrowing(g),
            places=ANN_STATIONS,
            controls=("ttr-result-box",) if g.is_over else ("ttr-borrow-panel",),
        ),
    )


def _ties() -> Step:
    return common.ties(
        MAP,
        text=(
            "Equal points are decided by the most completed tickets, then by the fewest "
            "stations built, then by the European Express. If everything is equal, the tied "
            "players share the victory (this app's reading: the rulebook does not say)."
        ),
    )


def _passing() -> Step:
    return replace(
        common.passing(MAP),
        text=(
            "Where the rulebook leaves a choice, this app decides and says so. The cards turned "
            "up for a tunnel go to the discards at once; a tunnel whose cards ask nothing is "
            "built at once; a station with nothing to borrow is not asked about; the tie-break "
            "on stations counts those built. And as on every map: Chen hoarded every card and "
            "the tickets are gone, so you can do nothing, and your turn is a pass; if everyone "
            "passes in a row, the game ends."
        ),
    )


@register_tutorial(MAP)
def europe_tutorial() -> Tutorial:
    """Europe's tutorial: 19 steps, from the long ticket to the routes stations borrow."""
    m = MAP
    steps = (
        _first_tickets(),
        _turn(),
        common.two_cards(m),
        common.face_up_locomotive(m),
        common.locomotive_second(m),
        common.three_locomotives(m),
        _pay_colour(),
        _pay_gray(),
        claiming.locomotives_pay(m),
        _ferry(),
        _tunnel(),
        _tunnel_give_up(),
        claiming.double_routes(m),
        _later_tickets(),
        _station(),
        _last_round(),
        _the_end(),
        _ties(),
        _passing(),
    )
    return Tutorial(map_id=m, title="Learn to play: Europe", rules=EUROPE_RULES, steps=steps)
