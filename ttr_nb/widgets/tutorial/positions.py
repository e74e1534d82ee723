"""Positions of the tutorial game, on any map: the deal, the other seats' setup and turns,
the cards a step needs brought to the learner, the routes a step points at, and the jump
to the end of the game. Every position is played by the engine (:mod:`.script`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...actions import DrawTickets, KeepTickets
from ...deals import set_face_up
from ...game import Game
from ...maps import Route
from .model import LEARNER
from .script import (
    arrange,
    blind_turn,
    cheapest_claim,
    colour_cards,
    deal,
    fitting_card,
    in_pile,
    is_wild,
    jump,
    others_play,
    plain_cards,
    plain_route,
    plan_networks,
    spend_or_draw,
)

OTHERS_KEEP = {1: None, 2: 2}  # at setup Bruno keeps every ticket offered, Chen the first 2


# ------------------------------------------------------------------ the deal and setup
def plain_row(game: Game, start: int = 0) -> list[str]:
    """A face-up row of plain cards, no wild card (World: its own decks' mix)."""
    slots = game.rules.face_up_slots
    decks = game.rules.deck_names
    per_deck = [colour_cards(game, deck) for deck in decks]
    cards = [c for group in zip(*per_deck, strict=False) for c in group]
    return [cards[(start + i) % len(cards)] for i in range(slots)]


def tutorial_deal(map_id: str, players: int = 3) -> Game:
    """The tutorial game's deal: the seed's, with a face-up row without wild cards (a
    locomotive turns up when a step wants one)."""

    def rig(game: Game) -> None:
        set_face_up(game, plain_row(game))

    return deal(map_id, players=players, rig=rig)


def setup_choice(game: Game) -> Any:
    """The other seats' setup: choose as :data:`OTHERS_KEEP` says (the learner: keep
    everything); draw one long ticket where there are two decks; any other setup choice
    takes the first legal one."""
    legal = game.legal_actions()
    keeps = [a for a in legal if isinstance(a, KeepTickets)]
    if keeps:
        offer = game.state.players[game.state.current].offer
        n = OTHERS_KEEP.get(game.state.current) or len(offer)
        wanted = tuple(
            sorted(
                offer[
                    : max(
                        n, game.rules.min_keep(game.state, game.state.players[game.state.current])
                    )
                ]
            )
        )
        return next(
            (a for a in keeps if a.tickets == wanted), max(keeps, key=lambda a: len(a.tickets))
        )
    draws = [a for a in legal if isinstance(a, DrawTickets)]
    if draws:
        return next((a for a in draws if a.long == 1), draws[0])
    return legal[0]


def finish_setup(game: Game, choose: Callable[[Game], Any] = setup_choice) -> Game:
    """The setup played to its end (the other seats' choices, and the learner's when the
    tutorial plays them)."""
    while game.phase == "setup":
        game.apply(choose(game))
    return game


# ------------------------------------------------------------------ the cards to come
def top_plain(game: Game, cards: Iterable[str] = (), n: int = 6) -> None:
    """The next ``n`` cards of the train deck are plain (no wild card turns up by chance
    while a step is on): ``cards`` first, then the colour the learner holds most of (while
    the deck has a few)."""
    wanted = [c for c in cards if in_pile(game, c)][:n]
    plain = plain_cards(game)
    counts = {c: in_pile(game, c) - wanted.count(c) for c in plain}
    hand = game.state.players[LEARNER].hand
    while len(wanted) < n:  # the learner's commonest colour first: a blind draw helps
        card = max(plain, key=lambda c: (counts[c] > 2, hand[c], counts[c], -plain.index(c)))
        if counts[card] <= 0:
            break
        wanted.append(card)
        counts[card] -= 1
    arrange(game, wanted)


def wild_slots(game: Game) -> list[int]:
    """The face-up slots holding a card whose taking is the whole draw (a locomotive)."""
    return [i for i, c in enumerate(game.state.face_up) if whole_draw(game, c)]


def whole_draw(game: Game, card: str | None) -> bool:
    """Is taking ``card`` face up the whole draw (a locomotive; not Märklin's +4)?"""
    return card is not None and game.rules.ends_draw(card)


def plain_slot(game: Game) -> int:
    """The first face-up slot holding a plain card."""
    return next(
        i
        for i, c in enumerate(game.state.face_up)
        if c is not None and c in colour_cards(game, game.map.card_by_id[c].deck)
    )


# ------------------------------------------------------------------ routes
def open_routes(game: Game, seat: int = LEARNER) -> list[Route]:
    """Open routes ``seat`` may claim (pieces enough, no twin of theirs), single tracks
    first is not implied: map order; plain routes only (no tunnel, ferry or pair)."""
    dead = set(game.map.dead_ends)
    return [
        r
        for r in game.map.routes
        if plain_route(r)
        and game.rules.route_problem(game.state, seat, r) is None
        and not (r.a in dead and r.b in dead)
    ]


def single(game: Game, route: Route) -> bool:
    """A route that is not one track of a double (or triple) route."""
    return not game.rules.parallel[route.id]


def wilds_in(game: Game, cards: Any) -> int:
    """The wild cards of a payment."""
    return sum(n for c, n in cards if is_wild(game, c))


def pays_plain(game: Game, route: Route, seat: int = LEARNER) -> bool:
    """Can ``seat`` pay for ``route`` without a wild card?"""
    hand = game.state.players[seat].hand
    return any(wilds_in(game, p) == 0 for p in game.rules.payments(hand, route))


def pays_with_wild(game: Game, route: Route, seat: int = LEARNER) -> bool:
    """Can ``seat`` pay for ``route`` using a wild card?"""
    hand = game.state.players[seat].hand
    return any(wilds_in(game, p) > 0 for p in game.rules.payments(hand, route))


def label(game: Game, route_id: int) -> str:
    """``Denver–Omaha``: a route as the app names it."""
    return game.map.route_label(game.map.route_by_id[route_id])


# ------------------------------------------------------------------ bringing cards
def collect(
    game: Game,
    ready: Callable[[Game], bool],
    cards: Callable[[Game], list[str]],
    limit: int = 8,
) -> Game:
    """Until ``ready(game)`` at the learner's turn: the learner's turn is played for them
    (two cards from the deck, arranged to be ``cards(game)``), then the other seats'.
    Nothing is played when the learner is ready already (the learner's own cards suffice)."""
    for _ in range(limit):
        if ready(game):
            return game
        blind_turn(game, cards(game)[:2])
        others_play(game)
    if not ready(game):
        raise ValueError("the tutorial could not bring the learner the cards a step needs")
    return game


def cards_for(game: Game, route: Route, seat: int = LEARNER) -> list[str]:
    """Two cards of the colour ``route`` takes (gray: the colour the seat holds most of)."""
    card = fitting_card(game, seat, route)
    return [card, card]


# ------------------------------------------------------------------ the end of the game
def end_jump(
    game: Game,
    learner_left: int = 2,
    others_left: Iterable[int] = (7, 6),
    avoid: Iterable[int] = (),
    first: dict[int, list[int]] | None = None,
) -> Game:
    """The game played on to its last rounds: every seat claims a network (the learner's
    toward their tickets, played for them), until the learner, to move, has about
    ``learner_left`` pieces more than the game's end trigger and holds the cards of a
    route that brings them to the trigger or below; the others keep ``others_left`` more.
    No plan claims a route of ``avoid``; ``first`` starts a seat's plan."""
    trigger = game.rules.end_trigger_pieces
    pieces = {s: sum(p.pieces.values()) for s, p in enumerate(game.state.players)}
    budgets = {LEARNER: max(0, pieces[LEARNER] - trigger - learner_left)}
    for seat, left in zip(range(1, game.num_players), others_left, strict=False):
        budgets[seat] = max(0, pieces[seat] - trigger - left)
    plans = plan_networks(game, budgets, avoid=avoid, first=first)
    finish: dict[str, int | None] = {}
    skip = set(avoid)

    def last_route(g: Game) -> Route | None:
        rid = finish.get("route")
        if rid is not None:
            route = g.map.route_by_id[rid]
            left = sum(g.state.players[LEARNER].pieces.values())
            if (
                g.rules.route_problem(g.state, LEARNER, route) is None
                and left - trigger <= route.length
            ):
                return route
        found = ending_route(g, avoid=skip)
        finish["route"] = found.id if found else None
        return found

    def idle(g: Game) -> None:
        route = last_route(g)
        if route is None:  # too many pieces left for one route: spend some first
            spend_or_draw(g, trigger, skip)
            return
        blind_turn(g, cards_for(g, route))

    def stop(g: Game) -> bool:
        if g.state.current != LEARNER or g.state.pending is not None or plans.get(LEARNER):
            return False
        route = last_route(g)
        return route is not None and cheapest_claim(g, route.id) is not None

    jump(game, plans, stop, idle=idle, avoid=avoid)
    return game


def ending_route(game: Game, seat: int = LEARNER, avoid: Iterable[int] = ()) -> Route | None:
    """An open plain single route (not one of ``avoid``) whose claim leaves ``seat`` the
    end trigger's pieces or fewer (the shortest such; one the seat can pay for first)."""
    left = sum(game.state.players[seat].pieces.values())
    trigger = game.rules.end_trigger_pieces
    skip = set(avoid)
    usable = [r for r in open_routes(game, seat) if r.id not in skip]
    options = [
        r
        for r in usable
        if single(game, r) and r.color != "gray" and left - trigger <= r.length <= left
    ]
    if not options:
        options = [r for r in usable if left - trigger <= r.length <= left]
    if not options:
        return None
    hand_pays = [r for r in options if cheapest_claim(game, r.id, seat) is not None]
    return min(hand_pays or options, key=lambda r: (r.length, r.id))
