"""How the app presents Ticket to Ride: Europe: tunnels, ferries, train stations.

What the Europe rules add, each through a :class:`VariantUI` hook (the app itself
knows nothing of them):

* the board draws tunnels (a dark dashed frame), ferries' locomotive symbols (an
  ``L`` space), stations (a house in the owner's colour) and, at the end, the routes
  they borrow (:mod:`..europe_board`); hovering says what each is;
* a tunnel's cards turned up are shown above the cards, with what they ask and the
  choice: pay one of the ways listed, or give up (:meth:`top_panels`);
* *Build a train station* shows what a station costs now, and clicking a city on the
  board picks it; the cards are asked when several ways pay (:meth:`panels`);
* selecting a tunnel says how many more cards to expect, from the cards seen; a
  ferry says how many locomotives it needs (:meth:`claim_note`, :meth:`route_cost`);
* at the end, each station's borrowed route is chosen in a list, the choice that
  scores the most ticket points proposed;
* players' stations in the players' table; the end screen says what each station
  borrowed, which tickets it completed, and the points of the stations not built.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from ...actions import ClaimRoute
from ...algorithms import ticket_completed
from ...game import Game
from ...maps import Route
from ...rules.europe import BORROW, LEFT, STATIONS, TUNNEL
from ...rules.europe_actions import BorrowRoutes, BuildStation, GiveUpTunnel, PayTunnel
from ...rules.europe_tunnels import expected_extra, extra_card_odds, matching_unseen
from .. import panels
from ..board import FactProvider, PiecePainter
from ..europe_board import EuropeArt, europe_facts
from ..rules_card import RulesText
from .base import Shown, VariantUI, register
from .europe_panels import BorrowPanel, StationPanel, TunnelPanel, europe_rules, payment_words


def tunnel_forecast(view: Game, seat: int, colour: str | None) -> str:
    """What a tunnel paid in ``colour`` (None: locomotives alone) is likely to ask, from the
    cards ``seat`` has seen: ``about 0.9 more cards (none 35% of the time, 2 or more 20%)``."""
    matching, unseen = matching_unseen(view, seat, colour)
    rules = europe_rules(view)
    odds = extra_card_odds(matching, unseen, rules.tunnel_cards)
    mean = expected_extra(matching, unseen, rules.tunnel_cards)
    return (
        f"about {mean:.1f} more card{'s' if round(mean, 1) != 1 else ''} "
        f"(none {odds[0]:.0%} of the time, 2 or more {sum(odds[2:]):.0%}; {matching} of the "
        f"{unseen} cards you have not seen would ask for one)"
    )


@register("europe")
class EuropeUI(VariantUI):
    """The Europe presentation (see the module docstring)."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.tunnel = TunnelPanel(app)
        self.stations = StationPanel(app)
        self.borrow = BorrowPanel(app)
        self.actions_panel = widgets.VBox(
            [self.stations.widget], _dom_classes=["ttr-panel", "ttr-europe-actions"]
        )

    # --------------------------------------------------------------- board
    def board_painters(self) -> list[PiecePainter]:
        return [EuropeArt(self.app.board)]

    def fact_providers(self) -> list[FactProvider]:
        return [europe_facts]

    # -------------------------------------------------------------- panels
    def top_panels(self) -> list[widgets.Widget]:
        return [self.tunnel.widget, self.borrow.widget]

    def panels(self) -> list[widgets.Widget]:
        return [self.actions_panel]

    def render(self, shown: Shown) -> None:
        self.tunnel.render(shown)
        self.borrow.render(shown)
        view, seat = shown.view, shown.viewer
        in_play = (
            view is not None
            and view.state.phase == "play"
            and not view.is_over
            and view.state.pending != BORROW  # the turns are over: nothing to build
        )
        self.actions_panel.layout.display = "" if in_play and seat is not None else "none"
        if in_play and seat is not None and view is not None:
            self.stations.render(shown, seat)

    def city_clicked(self, place: str) -> None:
        if self.stations.choose_city(place):
            self.app.say(
                f"{self.app.map.place_name(place)} is chosen for a station: press Build a "
                "station to build it there."
            )

    def handles(self, action: Any) -> bool:
        return isinstance(action, PayTunnel | GiveUpTunnel | BuildStation | BorrowRoutes)

    # --------------------------------------------------------------- words
    def step_text(self, view: Game) -> str | None:
        pending = view.state.pending
        if pending == TUNNEL:
            return "pay the tunnel's extra cards, or give the tunnel up"
        if pending == BORROW:
            return "choose the route each station borrows"
        return None

    def label(self, view: Game, action: Any) -> str:
        if isinstance(action, PayTunnel):
            return f"Pay {payment_words(view, action.cards)} more and build the tunnel"
        if isinstance(action, GiveUpTunnel):
            return "Give the tunnel up: take your cards back (the turn ends)"
        if isinstance(action, BuildStation):
            return f"Pay {payment_words(view, action.cards)}"
        return super().label(view, action)

    def choice_question(self, view: Game, actions: list[Any]) -> str:
        if actions and all(isinstance(a, BuildStation) for a in actions):
            city = view.map.place_name(actions[0].city)
            return f"Which cards pay for your station in {city}?"
        return super().choice_question(view, actions)

    def move_words(self, view: Game, action: Any) -> str:
        if isinstance(action, BuildStation):
            return "build a station"
        if isinstance(action, PayTunnel | GiveUpTunnel):
            return "pay for the tunnel or give it up"
        if isinstance(action, BorrowRoutes):
            return "choose the routes your stations borrow"
        return super().move_words(view, action)

    def route_cost(self, view: Game, route: Route) -> str:
        text = super().route_cost(view, route)
        if route.locomotives:
            n = route.locomotives
            text = (
                f"{route.length} cards of any one colour, at least {n} of them "
                f"locomotive{'s' if n != 1 else ''} (one for each locomotive symbol)"
            )
        if route.tunnel:
            text += ", and perhaps more: claiming a tunnel turns up 3 cards first"
        return text

    def claim_note(self, view: Game, route_id: int) -> str:
        route = view.map.route_by_id[route_id]
        notes = []
        if route.locomotives:
            n = route.locomotives
            notes.append(
                f"A ferry: {n} locomotive{'s' if n != 1 else ''} must be among the cards you pay."
            )
        if route.tunnel:
            seat = view.state.current
            colours = (
                {
                    next((c for c, _ in a.cards if c not in view.rules.wild_set), None)
                    for a in view.legal_actions()
                    if isinstance(a, ClaimRoute) and a.route == route_id
                }
                if view.state.pending is None and not view.is_over
                else set()
            )
            colour = route.color if route.color != "gray" else None
            if colours:
                colour = sorted(colours, key=lambda c: (c is None, c or ""))[0]
            paid = "locomotives alone" if colour is None else f"{colour} cards"
            notes.append(
                "A tunnel: when you claim it, 3 cards are turned up, and each card of your "
                "colour or locomotive asks for one more card (or you give it up). Paid with "
                f"{paid}, expect {tunnel_forecast(view, seat, colour)}."
            )
        return " ".join(notes)

    def colour_key(self) -> str:
        return (
            super().colour_key() + " Tunnels have a dark dashed frame: claiming one turns up "
            "3 cards that may ask for more. Spaces marked L on a gray ferry must be paid with "
            "locomotives. A house beside a city is a train station, in its owner's colour and "
            "number; at the end, a dashed outline in a player's colour marks a route their "
            "station borrows."
        )

    def hand_note(self, view: Game, seat: int) -> str:
        record = view.state.extras.get(TUNNEL)
        if record is None or record["seat"] != seat or view.state.pending != TUNNEL:
            return ""
        laid = html.escape(payment_words(view, record["cards"]))
        return f"<div class='ttr-note'>Laid down for the tunnel (still in this hand): {laid}.</div>"

    # ------------------------------------------------------------ scoring
    def player_columns(self, view: Game) -> list[tuple[str, list[str]]]:
        """Where each player built stations, and how many are left."""
        state = view.state
        cells = []
        for seat, player in enumerate(state.players):
            built = sorted(
                view.map.place_name(c) for c, s in state.extras[STATIONS].items() if s == seat
            )
            where = ", ".join(built) or "none yet"
            cells.append(f"{html.escape(where)} ({player.extras[LEFT]} left)")
        return [("stations", cells)]

    def end_sections(self, view: Game) -> list[str]:
        rules = europe_rules(view)
        state = view.state
        items = []
        for seat, player in enumerate(state.players):
            who = f"{panels.player_chip(seat)}<b>{html.escape(player.name)}</b>"
            chosen = (state.extras.get("borrowed") or [[]] * len(state.players))[seat]
            parts = []
            for city, rid in chosen:
                route = view.map.route_by_id[rid]
                parts.append(
                    f"{html.escape(view.map.place_name(city))} borrowed "
                    f"{html.escape(view.map.route_label(route))}"
                )
            borrowed_only = [
                t
                for t in player.tickets
                if rules.ticket_done(state, player, t) and not self._own_done(view, seat, t)
            ]
            if borrowed_only:
                names = ", ".join(html.escape(self.ticket_text(view, t)) for t in borrowed_only)
                parts.append(f"completed thanks to them: {names}")
            for city in rules.stations_of(state, seat):
                if city not in {c for c, _ in chosen}:
                    parts.append(
                        f"{html.escape(view.map.place_name(city))}: no other player's route there"
                    )
            left = player.extras[LEFT]
            if left:
                parts.append(f"{left} not built: +{left * rules.unbuilt_station_points}")
            items.append(f"<li>{who}: {'; '.join(parts) or 'none'}</li>")
        return [
            "<h4>Train stations</h4><div class='ttr-note'>Each station borrows one route "
            "another player claimed into its city, for its owner's tickets (not for the "
            f"longest path); each station not built scores {rules.unbuilt_station_points}. "
            "Ties: most completed tickets, then fewest stations built, then the European "
            "Express.</div>"
            f"<ul class='ttr-tickets-list ttr-station-scores'>{''.join(items)}</ul>"
        ]

    @staticmethod
    def _own_done(view: Game, seat: int, ticket_id: int) -> bool:
        """Is the ticket completed by the player's own routes alone?"""
        player = view.state.players[seat]
        ends = [view.map.route_by_id[r].ends for r in player.routes]
        a, b = view.map.ticket_by_id[ticket_id].cities
        return ticket_completed(ends, {a}, {b})

    # ------------------------------------------------------------ the rules card
    def rules_card(self) -> RulesText:
        card = super().rules_card()
        return replace(
            card,
            setup=(
                card.setup[0] + " 3 train stations each.",
                "1 long ticket and 3 regular ones: keep at least 2 (those given back leave "
                "the game).",
            ),
            turn=(
                *card.turn,
                "Or build a train station in a city without one: 1 card, then 2 of one "
                "colour, then 3.",
            ),
            claiming=(
                *card.claiming[:4],
                "A ferry needs a locomotive for each L space.",
                "A tunnel: after you lay its cards, 3 cards are turned up; each of your colour "
                "(or a locomotive) asks one more card. Pay, or take your cards back.",
                card.claiming[-1],
            ),
            scoring=(
                "First, each station lends its owner one route another player claimed into its "
                "city, for tickets only.",
                card.scoring[0],
                "The longest path of one's own routes (the European Express) scores 10.",
                "Each station never built scores 4.",
                "Equal points: the most completed tickets, then the fewest stations built, "
                "then the European Express.",
            ),
        )

    def house_rules(self) -> list[str]:
        return [
            *super().house_rules(),
            "The cards turned up for a tunnel go to the discards at once; a tunnel whose "
            "cards ask nothing is built at once.",
            "A station with no route to borrow is not asked about.",
            "The tie-break on stations counts the stations built.",
        ]
