"""How the app presents Ticket to Ride: Märklin: merchandise, passengers that travel, Loco +4,
Passenger cards.

What the Märklin rules add, each through a :class:`VariantUI` hook (the app knows
nothing of them), reusing what Germany built:

* the short/long ticket split is asked as in Germany (:class:`TicketMixUI`);
* the board draws every city's merchandise stack (top value readable) and every
  passenger standing, a disc in its owner's colour (Germany's disc painter), and
  hovering a city names its stack and its passenger (:mod:`..maerklin_board`);
* claiming a route where a passenger may be placed asks, in words, *Place a passenger
  on Berlin / on Hamburg / no passenger*;
* *Move a passenger* (:class:`~.maerklin_move.MovePanel`) rings where the passenger
  can go, lists its journeys with their paths, tokens and Passenger cards, and draws
  the chosen one before the move;
* the cards are named Locomotive, Locomotive +4 and Passenger card, and the hand
  explains the two special ones held;
* the players' table shows passengers and merchandise; the end screen lists each
  player's tokens and the most-tickets bonus.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from ...actions import ClaimRoute
from ...game import Game
from ...maps import CardType, Route
from ...rules.maerklin import LEFT_KEY, MOVED_KEY, TOKENS_KEY, MaerklinRules, MovePassenger
from .. import panels, style
from ..board import FactProvider, PieceHit, PiecePainter
from ..controls import count
from ..maerklin_board import (
    JourneyPainter,
    maerklin_facts,
    paint_merchandise,
    paint_passengers,
    passenger_hit,
)
from ..rules_card import RulesText
from .base import Shown, register
from .germany import globetrotter_html
from .maerklin_move import MovePanel
from .ticket_mix import TicketMixUI

NO_PASSENGER = "No passenger"


def _rules(view: Game) -> MaerklinRules:
    assert isinstance(view.rules, MaerklinRules)
    return view.rules


def placement_question(view: Game, claims: list[ClaimRoute]) -> str:
    """``Place a passenger on Berlin or Hamburg, or none? You have 3 left.``"""
    rules = _rules(view)
    places = [claim.pickups[0][0] for claim in claims if claim.pickups]
    names = " or ".join(view.map.place_name(p) for p in dict.fromkeys(places))
    left = view.state.players[view.state.current].extras[LEFT_KEY]
    return (
        f"Place a passenger on {names}, or none? You have {left} of {rules.passengers_each} "
        "left to place. A passenger standing on a city can later travel over your routes and "
        "collect merchandise; one passenger per city."
    )


def placement_label(view: Game, claim: ClaimRoute) -> str:
    """``Place a passenger on Berlin (black stack: 7 on top)`` or ``No passenger``."""
    if not claim.pickups:
        return NO_PASSENGER
    city = claim.pickups[0][0]
    stack = view.state.extras["merchandise"].get(city, [])
    colour = view.map.city_by_id[city].merchandise
    top = f"{colour} stack: {stack[0]} on top" if stack else f"{colour} stack: empty"
    return f"Place a passenger on {view.map.place_name(city)} ({top})"


def placement_note(view: Game, route_id: int) -> str:
    """What claiming ``route_id`` lets the player to move do with a passenger."""
    rules = _rules(view)
    state = view.state
    route = view.map.route_by_id[route_id]
    names = view.map.place_name
    player = state.players[state.current]
    if not player.extras[LEFT_KEY]:
        return "You have no passenger left to place."
    free = rules.placements(state, route)
    if free:
        where = " or ".join(names(c) for c in free)
        return f"Claiming it lets you place one of your passengers on {where} (you choose)."
    reasons = []
    for end in route.ends:
        if end not in rules.stops:
            reasons.append(f"{names(end)} is a country")
        else:
            owner = state.extras["passengers"].get(end)
            if owner is not None:
                reasons.append(f"{state.players[owner].name}'s passenger stands in {names(end)}")
    return "No passenger can be placed with it: " + " and ".join(reasons) + "."


def hand_note_html(view: Game, seat: int) -> str:
    """What the Locomotive +4 and Passenger cards held can do."""
    rules = _rules(view)
    hand = view.state.players[seat].hand
    plus4 = sum(n for c, n in hand.items() if c in rules.wild_ids and c not in rules.plain_wilds)
    passengers = hand.get(rules.passenger_card, 0)
    lines = [
        "<b>Locomotive</b>: any colour on any route (taken face up, it is your whole draw).",
        f"<b>Locomotive +4</b> (you hold {plus4}): any colour, but only on routes of 4 or "
        "more spaces.",
        f"<b>Passenger card</b> (you hold {passengers}): pays for no route; a moving "
        "passenger spends one to travel over one opponent's route.",
    ]
    return "<div class='ttr-note ttr-hand-special'>" + "<br>".join(lines) + "</div>"


def tokens_text(view: Game, seat: int) -> str:
    """``Berlin 7 + Leipzig 4 = 11`` for the tokens one player collected."""
    tokens = view.state.players[seat].extras[TOKENS_KEY]
    if not tokens:
        return "none"
    parts = " + ".join(f"{view.map.place_name(city)} {value}" for city, value in tokens)
    total = sum(value for _, value in tokens)
    return parts if len(tokens) == 1 else f"{parts} = {total}"


def merchandise_html(view: Game) -> str:
    """End-screen section: every player's tokens, where they came from, their sum."""
    rules = _rules(view)
    stacks = "; ".join(
        f"{colour} {', '.join(map(str, stack))}" for colour, stack in rules.stack_of.items()
    )
    items = []
    for seat, player in enumerate(view.state.players):
        moved = player.extras[MOVED_KEY]
        items.append(
            f"<li>{panels.player_chip(seat)}<b>{html.escape(player.name)}</b>: "
            f"{html.escape(tokens_text(view, seat))} "
            f"<span class='ttr-note'>({count(moved, 'journey')})</span></li>"
        )
    return (
        "<h4>Merchandise</h4>"
        f"<div class='ttr-note'>Stacks by city colour, top first: {html.escape(stacks)}. "
        "A travelling passenger takes the top token of each city it enters.</div>"
        f"<ul class='ttr-tickets-list ttr-merchandise-scores'>{''.join(items)}</ul>"
    )


@register("maerklin")
class MaerklinUI(TicketMixUI):
    """Märklin's presentation; see the module docstring."""

    rulebook_points = {"short": (5, 11), "long": (12, 22)}  # as the rulebook lists them

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.journey = JourneyPainter()
        self.move = MovePanel(app, self.journey)

    # --------------------------------------------------------------- board
    def board_painters(self) -> list[PiecePainter]:
        return [paint_merchandise, paint_passengers, self.journey]

    def fact_providers(self) -> list[FactProvider]:
        return [maerklin_facts]

    def piece_hits(self) -> list[PieceHit]:
        return [passenger_hit]

    # -------------------------------------------------------------- panels
    def panels(self) -> list[widgets.Widget]:
        return [self.move.widget]

    def render(self, shown: Shown) -> None:
        super().render(shown)
        self.move.render(shown)

    def handles(self, action: Any) -> bool:
        return isinstance(action, MovePassenger)

    def city_clicked(self, place: str) -> None:
        self.move.pick_passenger(place)

    # --------------------------------------------------------------- words
    def card_name(self, card: CardType) -> str:
        if card.passenger:
            return "Passenger card"
        if card.wild:
            return "Locomotive +4" if card.min_route_length > 1 else "Locomotive"
        return super().card_name(card)

    def claim_label(self, view: Game, action: ClaimRoute) -> str:
        parts = []
        for card_id, n in action.cards:
            card = view.map.card_by_id.get(card_id)
            name = self.card_name(card) if card else card_id
            letter = style.swatch(card.color).letter if card else "?"
            parts.append(f"{n} × {letter} {name}")
        return " + ".join(parts) or "no cards"

    def hand_note(self, view: Game, seat: int) -> str:
        return hand_note_html(view, seat)

    def move_words(self, view: Game, action: Any) -> str:
        if isinstance(action, MovePassenger):
            return "move a passenger"
        return super().move_words(view, action)

    def route_cost(self, view: Game, route: Route) -> str:
        sw = style.swatch(route.color)
        colour = "cards of any one colour" if route.color == "gray" else f"{sw.name} cards"
        plus4 = "" if route.length >= 4 else ", a Locomotive +4 only on 4 spaces or more"
        return f"{route.length} {colour} (Locomotives count as any colour{plus4})"

    def label(self, view: Game, action: Any) -> str:
        if isinstance(action, ClaimRoute):
            return placement_label(view, action)
        return super().label(view, action)

    def choice_question(self, view: Game, actions: list[Any]) -> str:
        if actions and all(isinstance(a, ClaimRoute) for a in actions):
            return placement_question(view, actions)
        return super().choice_question(view, actions)

    def choices(self, view: Game, actions: list[Any]) -> list[tuple[str, Any]]:
        if actions and all(isinstance(a, ClaimRoute) for a in actions):
            # The places first, as the question names them; "no passenger" last.
            actions = sorted(actions, key=lambda a: not a.pickups)
        return super().choices(view, actions)

    def claim_note(self, view: Game, route_id: int) -> str:
        return placement_note(view, route_id)

    def colour_key(self) -> str:
        return (
            super().colour_key() + " Squares beside a city are its merchandise stack (the "
            "top token's value; edges behind it, the tokens under it); discs with a seat "
            "number are passengers in their owner's colour. City colours, routes and tickets "
            "of this board are stand-ins: see About this map."
        )

    # ------------------------------------------------------------ scoring
    def player_columns(self, view: Game) -> list[tuple[str, list[str]]]:
        rules = _rules(view)
        state = view.state
        cells, tokens = [], []
        for seat, player in enumerate(state.players):
            standing = ", ".join(view.map.place_name(c) for c in rules.passengers_of(state, seat))
            cells.append(
                f"{html.escape(standing or 'none standing')} ({player.extras[LEFT_KEY]} to "
                f"place, {player.extras[MOVED_KEY]} travelled)"
            )
            tokens.append(html.escape(tokens_text(view, seat)))
        return [("passengers", cells), ("merchandise", tokens)]

    def end_sections(self, view: Game) -> list[str]:
        rules = _rules(view)
        return [
            merchandise_html(view),
            globetrotter_html(view, "Most completed tickets", rules.most_tickets),
        ]

    # ------------------------------------------------------------ the rules card
    def rules_card(self) -> RulesText:
        card = super().rules_card()
        return replace(
            card,
            setup=(
                card.setup[0] + " 3 passengers each.",
                "4 tickets drawn, in any mix of the short and the long deck (say the mix "
                "first): keep at least 2.",
            ),
            turn=(
                "Take 2 cards, each from the face-up row or the top of the deck. A face-up "
                "Locomotive is the whole draw and never a second card; a Locomotive +4 or a "
                "Passenger card face up is an ordinary draw.",
                "Or claim 1 route; you may then stand one of your passengers in a city at "
                "either end where none stands.",
                "Or draw 4 tickets from the two decks (say the mix first) and keep at least 1.",
                "Or move one of your passengers along your routes (each route once): it takes "
                "the top merchandise token of each city it enters, scores it at once, and "
                "leaves the game. Each opponent's route on the way costs a Passenger card.",
            ),
            claiming=(
                *card.claiming[:2],
                "A Locomotive +4 pays only on routes of 4 spaces or more; Passenger cards "
                "pay for no route.",
                *card.claiming[2:],
            ),
            scoring=(
                card.scoring[0],
                "10 points for the most completed tickets (a tie: each).",
                "No longest-path bonus.",
                "Equal points: the most completed tickets, then the most merchandise.",
            ),
        )

    def house_rules(self) -> list[str]:
        return [
            *super().house_rules(),
            "A face-up Locomotive +4 may be taken as the second card of a draw.",
            "A journey takes one token per city it enters, once (nothing more where it "
            "comes back, nothing where it starts).",
            "The most-tickets bonus needs at least one completed ticket.",
        ]
