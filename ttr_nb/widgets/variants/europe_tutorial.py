"""Europe's tutorial: the original game's steps on the Europe board, then what Europe adds
(a long ticket at the start, ferries, tunnels with their cards turned up, train stations, the
routes they borrow at the end, the European Express and the stations kept). See
:mod:`ttr_nb.widgets.tutorial`.

The rule ids are defined here with the lesson part that teaches each; Europe's rules
lessons name them in their sections' ``ttr_rules`` metadata. Rules the Europe lessons
leave to the USA lessons link there.

The steps make one game (see :mod:`ttr_nb.widgets.tutorial.script`): a tunnel's cards are
the top of the deck, arranged face down before the claim, so the cards turned up are the
engine's own draw. Ordinary claims point at plain routes only (no tunnel or ferry); the
ferry and tunnel steps look for their own kind.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...actions import ClaimRoute, DrawBlind
from ...algorithms import longest_trail_length
from ...game import Game
from ...maps import Route
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
    register_lessons,
    register_tutorial,
    turn_over,
)
from ..tutorial.positions import end_jump, top_plain
from ..tutorial.script import (
    arrange,
    blind_turn,
    in_pile,
    others_play,
    plain_cards,
    plain_route,
)
from .usa_tutorial import USA_RULES

E1 = "rules_europe_1_setup_and_tickets.ipynb"
E2 = "rules_europe_2_ferries_and_tunnels.ipynb"
E3 = "rules_europe_3_stations_end_and_quiz.ipynb"
register_lessons(
    {
        E1: "Europe — the rules (1 of 3)",
        E2: "Europe — the rules (2 of 3)",
        E3: "Europe — the rules (3 of 3)",
    }
)
MAP = "europe"
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


RECAP = (
    "A turn is one thing: two cards, one route, tickets, or a train station.",
    "A face-up locomotive is the whole draw and never a second card; one drawn from the "
    "deck is wild and the draw goes on.",
    "A route takes as many cards of its colour as it has spaces (gray: any one colour; "
    "locomotives: any colour) and need not join your other routes; a ferry wants a "
    "locomotive for each L; a tunnel may ask for more when its three cards are turned up.",
    "A station (1, then 2, then 3 cards) lends you, at the end, one route another player "
    "claimed into its city; each station never built scores 4.",
    "At 2 trains or fewer after a turn the last round starts: one more turn each. Then "
    "tickets add or take their points, and the longest path of your own routes scores 10.",
)


def _locos(_game: Game, action: Any) -> int:
    """*Show me* pays with as few locomotives as it can."""
    return sum(n for card, n in getattr(action, "cards", ()) if card == LOCO)


def _label(game: Game, route: int) -> str:
    return game.map.route_label(game.map.route_by_id[route])


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
            "and so do the long tickets nobody was dealt. For a first game, keep 2 regular "
            "tickets whose cities lie close together: each one missed costs its points."
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


# ------------------------------------------------------------------ ferries and tunnels
def _open_of(game: Game, test: Any) -> list[Route]:
    return [
        r
        for r in game.map.routes
        if test(r) and game.rules.route_problem(game.state, LEARNER, r) is None
    ]


def _ferry() -> Step:
    def ferries(game: Game) -> list[Route]:
        return sorted(_open_of(game, lambda r: r.locomotives > 0), key=lambda r: r.length)

    def find(game: Game) -> list[tuple[int, ...]]:
        hand = game.state.players[LEARNER].hand
        return [(r.id,) for r in ferries(game) if game.rules.payments(hand, r)]

    def fallback(game: Game) -> list[str]:
        hand = game.state.players[LEARNER].hand
        ferry = ferries(game)[0]
        if hand[LOCO] < ferry.locomotives:
            return [LOCO, LOCO]
        colour = max(plain_cards(game), key=lambda c: hand[c])
        return [colour, colour]

    def text(game: Game, routes: tuple[int, ...]) -> str:
        route = game.map.route_by_id[routes[0]]
        return (
            "A ferry is a gray route over the sea; one or two of its spaces show a locomotive "
            "(an L on the board). Each of those spaces must be paid with a locomotive card; "
            "the other spaces are paid as on any gray route, with cards of one colour. "
            f"{_label(game, route.id)} has {count(route.locomotives, 'L space')}."
        )

    return claiming.claim_step(
        "ferry",
        "Ferries",
        ("ferries",),
        text,
        "Claim the marked ferry {route}: its L spaces take your locomotives.",
        find,
        fallback,
        "claim the marked ferry {route}",
        lambda g: f"{claiming.claimed_text(g)} Your locomotives paid for its L spaces.",
        pays=lambda _g, cards: any(card == LOCO for card, _n in cards),
    )


def _tunnels(game: Game, colour: bool) -> list[Route]:
    return sorted(
        _open_of(game, lambda r: r.tunnel and (r.color != "gray") == colour),
        key=lambda r: (r.length, r.id),
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
        f"Turned up: {words_list(revealed)}: {count(asked, 'more locomotive')} asked. You gave "
        f"{label} up: your cards came back (you hold {count(hand[LOCO], 'locomotive')} "
        "again), the turned-up cards went to the discards, and your turn is over."
    )


def _tunnel_marks(game: Game, route: int) -> Marks:
    """The tunnel, and where to act now: the claim, then the tunnel's question."""
    if game.state.pending == TUNNEL:
        return Marks(routes=(route,), controls=("ttr-tunnel",))
    return Marks(routes=(route,), controls=() if turn_over(game) else ("ttr-claim-box",))


def _other_colours(game: Game, avoid: set[str], n: int) -> list[str]:
    """``n`` plain cards of colours not in ``avoid``, from what the deck holds most of."""
    plain = [c for c in plain_cards(game) if c not in avoid]
    out: list[str] = []
    for card in sorted(plain, key=lambda c: -in_pile(game, c)):
        while len(out) < n and in_pile(game, card) > out.count(card):
            out.append(card)
    return out[:n]


def _tunnel() -> Step:
    def find(game: Game) -> list[tuple[int, ...]]:
        hand = game.state.players[LEARNER].hand
        return [(r.id,) for r in _tunnels(game, colour=True) if hand[r.color] >= r.length + 1]

    def fallback(game: Game) -> list[str]:
        hand = game.state.players[LEARNER].hand
        route = max(_tunnels(game, colour=True), key=lambda r: (hand[r.color] - r.length, -r.id))
        return [route.color, route.color]

    def turned_up(game: Game, routes: tuple[int, ...]) -> None:
        route = game.map.route_by_id[routes[0]]
        asks = route.color if in_pile(game, route.color) else LOCO  # one more card asked
        arrange(game, [asks, *_other_colours(game, {route.color}, 2)])

    def goal(game: Game, routes: tuple[int, ...]) -> Goal:
        route = routes[0]

        def accepts(_g: Game, action: Any) -> bool:
            return (isinstance(action, ClaimRoute) and action.route == route) or isinstance(
                action, PayTunnel
            )

        return Goal(
            f"claim the marked tunnel {_label(game, route)} and pay the extra cards",
            accepts,
            prefer=_locos,
            then=(
                "The tunnel panel above the cards shows the 3 cards turned up and what they "
                "ask: choose a way to pay and press Do it."
            ),
        )

    step = claiming.claim_step(
        "tunnel",
        "Tunnels: three cards turned up",
        ("tunnels",),
        "A tunnel (a dark dashed frame) may cost more than its length. You lay down its cards "
        "as for any route; then the top 3 cards of the deck are turned up. Each that is of "
        "the colour you played, or a locomotive, asks for one more card: of that colour, or a "
        "locomotive. Pay them and the tunnel is yours. Selecting a tunnel tells you how many "
        "to expect.",
        "Claim the marked tunnel {route} with cards of its colour. Then answer in the tunnel "
        "panel above the cards: pay the extra cards asked.",
        find,
        fallback,
        "claim the marked tunnel {route} and pay the extra cards",
        _tunnel_done,
        then=turned_up,
    )
    bind = step.bind
    assert bind is not None

    def with_goal(s: Step, game: Game) -> Step:
        bound = bind(s, game)
        routes = find(game)[0]
        return replace(bound, goal=goal(game, routes), marks=lambda g: _tunnel_marks(g, routes[0]))

    return replace(step, bind=with_goal)


def _tunnel_give_up() -> Step:
    def tunnels(game: Game) -> list[Route]:
        return _tunnels(game, colour=False) or _tunnels(game, colour=True)

    def find(game: Game) -> list[tuple[int, ...]]:
        locos = game.state.players[LEARNER].hand[LOCO]
        if not in_pile(game, LOCO):  # nothing could ask for more
            return []
        fits = [r for r in tunnels(game) if locos >= r.length]
        fits.sort(key=lambda r: (locos - r.length, r.color != "gray", r.id))
        return [(r.id,) for r in fits]

    def fallback(game: Game) -> list[str]:
        return [LOCO, LOCO] if in_pile(game, LOCO) > 1 else []

    def asked_of(game: Game, route: Route) -> tuple[int, int]:
        spare = game.state.players[LEARNER].hand[LOCO] - route.length
        return min(3, spare + 1, in_pile(game, LOCO)), spare

    def turned_up(game: Game, routes: tuple[int, ...]) -> None:
        route = game.map.route_by_id[routes[0]]
        asked, _spare = asked_of(game, route)
        colours = _other_colours(game, {route.color}, 3 - asked)
        arrange(game, [*colours[:1], *[LOCO] * asked, *colours[1:]])

    def bind_words(s: Step, game: Game) -> Step:
        routes = find(game)[0]
        route = game.map.route_by_id[routes[0]]
        asked, spare = asked_of(game, route)
        can = (
            "you could pay them, but give the tunnel up this time"
            if spare >= asked
            else "you cannot pay them: give the tunnel up"
        )

        def accepts(_g: Game, action: Any) -> bool:
            if isinstance(action, ClaimRoute):
                return action.route == route.id and all(c == LOCO for c, _n in action.cards)
            return isinstance(action, GiveUpTunnel)

        return replace(
            s,
            text=(
                "A tunnel paid with locomotives alone asks only for the locomotives turned up, "
                "and only locomotives pay them: a coloured card turned up asks nothing, since "
                "no colour was played. When you cannot pay what is asked, or would rather not, "
                "you give the tunnel up: your cards come back to your hand and your turn is "
                "over."
            ),
            task=(
                f"Claim the marked tunnel {_label(game, route.id)} with "
                f"{count(route.length, 'locomotive')}. The cards turned up will ask for "
                f"{count(asked, 'more locomotive')} and you hold {spare} more: {can} in the "
                "tunnel panel."
            ),
            goal=Goal(
                f"claim the marked tunnel {_label(game, route.id)} with locomotives alone, "
                "then give it up",
                accepts,
                then=(
                    f"{count(asked, 'more locomotive')} asked, and you have {spare} to spare. "
                    "Choose Give the tunnel up in the tunnel panel and press Do it."
                ),
            ),
            marks=lambda g: _tunnel_marks(g, route.id),
        )

    step = claiming.claim_step(
        "tunnel-give-up",
        "Locomotives alone, and giving a tunnel up",
        ("tunnel-locomotives", "tunnel-give-up"),
        "",
        "",
        find,
        fallback,
        "",
        _tunnel_done,
        then=turned_up,
    )
    return replace(step, bind=bind_words)


# ------------------------------------------------------------------ stations
BRUNO_STATIONS = ("wien", "smolensk", "kyiv", "bucuresti", "sevastopol", "riga")


def bruno_station(game: Game) -> str:
    """Where Bruno builds his station: the first city of :data:`BRUNO_STATIONS` that no
    claimed route reaches (so nothing is his to borrow at the end, and the tutorial's
    learner is the only one asked)."""
    reached = {p for rid in game.state.owner for p in game.map.route_by_id[rid].ends}
    taken = set(game.state.extras[STATIONS])
    return next(c for c in BRUNO_STATIONS if c not in reached and c not in taken)


def _station_carry(game: Game) -> Game:
    """Bruno builds his first station (one card) where no route is claimed yet; Chen
    draws; plain cards next."""
    city = bruno_station(game)

    def turn(g: Game) -> None:
        builds = [a for a in g.legal_actions() if isinstance(a, BuildStation) and a.city == city]
        if g.state.current == 1 and builds:
            g.apply(builds[0])
        else:
            blind_turn(g)

    others_play(game, turn)
    top_plain(game)
    return game


def _bruno_city(game: Game) -> str:
    return next((c for c, s in game.state.extras[STATIONS].items() if s == 1), "")


def _station() -> Step:
    def done(game: Game) -> str:
        built = [
            game.map.place_name(c) for c, s in game.state.extras[STATIONS].items() if s == LEARNER
        ]
        where = built[-1] if built else "the city you chose"
        cost = game.rules.station_cost(game.state.players[LEARNER])
        return (
            f"Your station stands in {where} (a house in your colour). Your next one would "
            f"take {count(cost, 'card')} of one colour. {game.map.place_name(_bruno_city(game))} "
            "was not offered: each city holds one station, whoever built it. A station does "
            "nothing until the end; then it lends you one route another player claimed into "
            "its city."
        )

    def bind(step: Step, game: Game) -> Step:
        city = _bruno_city(game)
        return replace(
            step,
            text=(
                "Building a train station is a turn of its own. Each player has 3, and each "
                "costs more than the last: 1 card of any colour, then 2 cards of one colour, "
                "then 3 (locomotives stand in for any colour). A station may go in any city "
                "without one, yours or not, with or without your routes there. Bruno has just "
                f"built one in {game.map.place_name(city)}."
            ),
            marks=Marks(places=(city,), controls=("ttr-europe-actions",)),
        )

    return Step(
        key="station",
        title="Train stations",
        rules=("stations", "station-per-city"),
        text="",
        bind=bind,
        task=(
            "In Build a train station (under your hand) choose a city (or click one on the "
            "board), press Build a station, and choose the cards."
        ),
        carry=_station_carry,
        goal=Goal(
            "build a train station", lambda _g, a: isinstance(a, BuildStation), prefer=_locos
        ),
        done=done,
    )


def _not_into_others_stations(game: Game) -> list[int]:
    """Routes into a city where another player has a station (claiming one would give
    that player a route to borrow: a choice the tutorial's other seats would have to
    make at the end)."""
    others = {c for c, s in game.state.extras[STATIONS].items() if s != LEARNER}
    return [r.id for r in game.map.routes if set(r.ends) & others]


def _end_jump(game: Game) -> Game:
    """To the last rounds (see :func:`~ttr_nb.widgets.tutorial.positions.end_jump`): Bruno
    claims a route into the city of the learner's station first (something to borrow at
    the end), and nobody claims into Bruno's."""
    stations = game.state.extras[STATIONS]
    mine = sorted(c for c, s in stations.items() if s == LEARNER)
    avoid = _not_into_others_stations(game)
    into = [
        r.id
        for r in game.map.routes
        if mine
        and mine[0] in r.ends
        and plain_route(r)
        and r.id not in game.state.owner
        and r.id not in avoid
    ]
    return end_jump(game, avoid=avoid, first={1: into[:1]})


def _last_round() -> Step:
    return common.last_round(MAP, carry=_end_jump, avoid=_not_into_others_stations)


# ------------------------------------------------------------------ the end
def _ticket_points(game: Game, action: Any) -> tuple[int, int]:
    """*Show me*: two cards first; the routes borrowed that score the most ticket points."""
    if not isinstance(action, BorrowRoutes):
        return (0 if isinstance(action, DrawBlind) else 1, 0)
    trial = game.clone()
    trial.apply(action)
    player = trial.state.players[LEARNER]
    return (2, -sum(trial.rules.ticket_points(trial.state, player, t) for t in player.tickets))


def _end_text(game: Game) -> str:
    state, rules = game.state, game.rules
    if not game.is_over:
        who = game.names[state.current]
        return (
            f"Your choice is made. {who}'s station has a route to borrow too: {who} chooses "
            "next, and the score follows (the next step shows it)."
        )
    label = game.map.route_label
    borrowed = [game.map.route_by_id[r] for r in rules.borrowed_routes(state, LEARNER)]
    own = [game.map.route_by_id[r] for r in state.players[LEARNER].routes]
    with_borrowed = longest_trail_length([(r.a, r.b, r.length) for r in own + borrowed])
    lengths = rules.longest_paths(state)
    best = max(lengths)
    express = " and ".join(game.names[i] for i, n in enumerate(lengths) if n == best)
    status = game.ticket_status(LEARNER)
    won = [t for t, ok in status if ok]
    mine = game.scores()[LEARNER]
    parts = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in mine.items() if k != "total")
    result = game.result() or {}
    winners = " and ".join(game.names[i] for i in result.get("winners", []))
    kept = state.players[LEARNER].extras[LEFT]
    lent = (
        f"Your stations borrowed {' and '.join(label(r) for r in borrowed)} for your tickets. "
        f"Your own longest path is {lengths[LEARNER]} spaces (with the borrowed routes it "
        f"would be {with_borrowed}, but they never count). "
        if borrowed
        else f"Your own longest path is {lengths[LEARNER]} spaces. "
    )
    return (
        f"{lent}The European Express goes to {express}, {best} spaces. You completed "
        f"{len(won)} of {len(status)} tickets. Your {count(kept, 'station')} never built "
        f"scored {4 * kept}. Your score: {parts}; total {mine['total']}. {winners} won."
    )


def _the_end() -> Step:
    def borrowing(game: Game) -> tuple[int, ...]:
        if game.is_over or game.state.pending != BORROW:
            return ()
        options = game.rules.borrow_choices(game.state, LEARNER)
        return tuple(r for city in sorted(options) for r in options[city])

    def marks(game: Game) -> Marks:
        stations = tuple(c for c, s in game.state.extras[STATIONS].items() if s == LEARNER)
        if game.is_over:
            controls: tuple[str, ...] = ("ttr-result-box",)
        elif game.state.pending == BORROW:
            controls = ("ttr-borrow-panel",)
        else:
            controls = (*common.FACE_UP, common.DECK, "ttr-claim-box")
        return Marks(routes=borrowing(game), places=stations, controls=controls)

    return Step(
        key="the-end",
        title="The end: stations borrow routes",
        rules=("borrow-routes", "tickets-scored", "european-express", "station-points"),
        text=(
            "You started the last round, and the others have played their last turns: this "
            "one is yours. Then, before the count, each station lends its owner one route that "
            "another player claimed into its city (Bruno claimed one into yours); it counts "
            "for the owner's tickets, never for the longest path. Then tickets add or take "
            "their points, the longest path of one's own routes wins the European Express "
            "(10), and each station never built scores 4."
        ),
        task=(
            "Make your last move (two cards are fine). Then, in the panel above the cards, "
            "choose the route your station borrows (the app proposes the best for your "
            "tickets) and press Use these routes. Then read the end screen."
        ),
        carry=common.final_turns,
        goal=Goal(
            "make your last move, then choose the routes your stations borrow",
            lambda _g, _a: True,
            reached=lambda g: g.is_over or (g.state.pending == BORROW and g.state.current != 0),
            prefer=_ticket_points,
            then="Now choose the route your station borrows, above the cards.",
        ),
        done=_end_text,
        marks=marks,
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


@register_tutorial(MAP)
def europe_tutorial() -> Tutorial:
    """Europe's tutorial: 19 steps of one game, from the long ticket to the routes stations
    borrow, a tie in another game and a recap."""
    m = MAP
    steps = (
        _first_tickets(),
        _turn(),
        common.two_cards(m),
        common.face_up_locomotive(m),
        common.locomotive_second(m),
        common.three_locomotives(m),
        replace(claiming.pay_colour(m), rules=("pay-colour", "route-points")),
        claiming.pay_gray(m),
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
        replace(common.recap(m, RECAP), after="the-end"),
    )
    return Tutorial(map_id=m, title="Learn to play: Europe", rules=EUROPE_RULES, steps=steps)
