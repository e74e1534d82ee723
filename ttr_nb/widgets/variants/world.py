"""How the app presents Rails & Sails World: two decks, a secret supply, harbors, exchanges,
tours.

What the World rules add, each through a :class:`VariantUI` hook (the app itself
knows nothing of them):

* the six face-up cards in a Train row and a Ship row, each ending with its
  deck's button (:meth:`card_rows`); taking a face-up card asks which deck
  refills its place (:meth:`choice_question`, :meth:`label`);
* the secret choice of 60 pieces at setup, above the cards (:meth:`top_panels`);
* *Build a harbor* and *Exchange pieces* with their costs, and a tour shown on the
  board as a numbered chain (:meth:`panels`, see :mod:`.world_panels`);
* built harbors on the board and their hover facts (:mod:`..world_board`);
* card names (Train, Ship, Double-Ship, ⚓ harbor symbol, Wild), payments that say
  how spaces are covered, tours as ordered chains with their three values;
* players' harbors and boxes in the players' table; harbor, tour and exchange
  scoring on the end screen.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from ...actions import ClaimRoute, DrawFaceUp, Payment
from ...game import Game
from ...maps import CardType, Route
from ...rules.world import CHOOSE_SUPPLY, BuildHarbor, ChooseSupply, ExchangePieces
from .. import panels, style
from ..board import FactProvider, PiecePainter
from ..controls import count
from ..rules_card import RulesText
from ..world_board import TourChain, harbor_facts, paint_harbors
from .base import CardRow, Shown, VariantUI, register
from .world_panels import ExchangePanel, HarborPanel, SupplyPanel, TourPicker

TRAIN, SHIP = "train", "ship"
DECK_TITLES = {TRAIN: "Train cards", SHIP: "Ship cards"}


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def refill_label(view: Game, deck: str) -> str:
    """``Refill its place from the train deck (52 cards in it; its 15 discards are
    shuffled in when it runs out)``: the cards that can be drawn, as the cards panel counts
    them, and what happens to the discards."""
    pile, discard = view.rules.piles(view.state, deck)
    if not pile:
        return (
            f"Refill its place from the {deck} deck (empty: its "
            f"{count(len(discard), 'discard')} are shuffled to make a new deck)"
        )
    later = (
        f"; its {count(len(discard), 'discard')} are shuffled in when it runs out"
        if discard
        else ""
    )
    return f"Refill its place from the {deck} deck ({count(len(pile), 'card')} in it{later})"


@register("world")
class WorldUI(VariantUI):
    """The Rails & Sails World presentation (see the module docstring)."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.supply = SupplyPanel(app)
        self.harbor = HarborPanel(app)
        self.exchange = ExchangePanel(app)
        self.tours = TourPicker(app)
        self.actions_panel = widgets.VBox(
            [self.harbor.widget, self.exchange.widget, self.tours.widget],
            _dom_classes=["ttr-panel", "ttr-world-actions"],
        )

    # --------------------------------------------------------------- board
    def board_painters(self) -> list[PiecePainter]:
        self.tours.chain = TourChain(self.app.board)
        return [paint_harbors, self.tours.chain]

    def fact_providers(self) -> list[FactProvider]:
        return [harbor_facts]

    # -------------------------------------------------------------- panels
    def top_panels(self) -> list[widgets.Widget]:
        return [self.supply.widget]

    def panels(self) -> list[widgets.Widget]:
        return [self.actions_panel]

    def render(self, shown: Shown) -> None:
        self.supply.render(shown)
        view, seat = shown.view, shown.viewer
        if view is None or seat is None:
            self.actions_panel.layout.display = "none"
            return
        in_play = view.state.phase == "play"
        for panel in (self.harbor, self.exchange):
            panel.widget.layout.display = "" if in_play else "none"
            if in_play:
                panel.render(shown, seat)
        self.tours.render(view, seat)  # tours may be offered at setup already
        shown_any = in_play or self.tours.widget.layout.display == ""
        self.actions_panel.layout.display = "" if shown_any else "none"

    def handles(self, action: Any) -> bool:
        return isinstance(action, ChooseSupply | BuildHarbor | ExchangePieces)

    def card_rows(self, view: Game) -> list[CardRow]:
        rows: dict[str, list[int]] = {TRAIN: [], SHIP: []}
        empty = []
        for slot, card_id in enumerate(view.state.face_up):
            if card_id is None:
                empty.append(slot)
            else:
                rows[view.map.card_by_id[card_id].deck].append(slot)
        for slot in empty:  # an empty place shows in the shorter row
            min(rows.values(), key=len).append(slot)
        return [CardRow(DECK_TITLES[deck], tuple(rows[deck]), deck) for deck in (TRAIN, SHIP)]

    # --------------------------------------------------------------- words
    def card_name(self, card: CardType) -> str:
        if card.wild:
            return "Wild"
        kind = "Train" if card.deck == TRAIN else "Double-Ship" if card.spaces == 2 else "Ship"
        return f"{card.color} {kind}" + (" ⚓" if card.harbor else "")

    def step_text(self, view: Game) -> str | None:
        if view.state.pending == CHOOSE_SUPPLY:
            rules: Any = view.rules
            return f"choose a secret supply of {rules.supply} pieces"
        return None

    def label(self, view: Game, action: Any) -> str:
        if isinstance(action, DrawFaceUp):
            return refill_label(view, action.refill)
        if isinstance(action, BuildHarbor):
            return f"Pay {self.payment_text(view, action.cards)}"
        return super().label(view, action)

    def choice_question(self, view: Game, actions: list[Any]) -> str:
        if actions and all(isinstance(a, DrawFaceUp) for a in actions):
            card_id = view.state.face_up[actions[0].slot]
            name = self.card_name(view.map.card_by_id[card_id]) if card_id else "card"
            return f"You take the face-up {name} card. Which deck refills its place in the row?"
        if actions and all(isinstance(a, BuildHarbor) for a in actions):
            city = view.map.place_name(actions[0].city)
            return f"Which cards pay for your harbor in {city}?"
        return super().choice_question(view, actions)

    def payment_text(self, view: Game, cards: Payment) -> str:
        """``2 × R red Double-Ship + 1 × L Wild``: colour cards first, Wilds last."""
        known = [(view.map.card_by_id[c], n) for c, n in cards if c in view.map.card_by_id]
        known.sort(key=lambda pair: (pair[0].wild, pair[0].deck, pair[0].id))
        return " + ".join(
            f"{n} × {style.swatch(card.color).letter} {self.card_name(card)}" for card, n in known
        )

    def claim_label(self, view: Game, action: ClaimRoute) -> str:
        text = self.payment_text(view, action.cards)
        route = view.map.route_by_id[action.route]
        if route.pair:
            return f"{text} (2 Train cards of one colour per space)"
        covered = sum(
            n * (1 if view.map.card_by_id[c].wild else view.map.card_by_id[c].spaces)
            for c, n in action.cards
        )
        if covered > route.length:
            return f"{text} (covers {covered} spaces: one more than its {route.length})"
        return text

    def move_words(self, view: Game, action: Any) -> str:
        if isinstance(action, BuildHarbor):
            return "build a harbor"
        if isinstance(action, ExchangePieces):
            return "exchange pieces"
        return super().move_words(view, action)

    def route_cost(self, view: Game, route: Route) -> str:
        colour = "of any one colour" if route.color == "gray" else route.color
        if route.pair:
            return (
                f"{2 * route.length} Train cards: two of one colour for each of its "
                f"{route.length} spaces (the colour may change from space to space; a Wild "
                "stands in for either card of a pair)"
            )
        if route.kind == SHIP:
            return (
                f"Ship cards {colour} covering its {route.length} spaces: a Ship card covers "
                "one space, a Double-Ship two (a Wild covers one, in any colour)"
            )
        return f"{route.length} Train cards {colour} (Wilds count as any colour)"

    def ticket_text(self, view: Game, ticket_id: int) -> str:
        ticket = view.map.ticket_by_id[ticket_id]
        values = ticket.tour_values
        if not values:
            return super().ticket_text(view, ticket_id)
        chain = " → ".join(
            f"{i}. {view.map.place_name(c)}" for i, c in enumerate(ticket.cities, start=1)
        )
        return (
            f"Tour {chain} ({values['in_order']} in this order, {values['any_order']} in "
            f"another, −{values['penalty']} if not joined)"
        )

    def ticket_progress(self, view: Game, seat: int, ticket_id: int) -> str | None:
        values = view.map.ticket_by_id[ticket_id].tour_values
        if not values:
            return None
        rules: Any = view.rules
        points = rules.tour_points(view.state.players[seat], ticket_id)
        if points == values["in_order"]:
            return f"in order: {_signed(points)}"
        if points == values["any_order"]:
            return f"joined, not in order yet: {_signed(points)}"
        return f"not joined yet: {_signed(points)}"

    def colour_key(self) -> str:
        return (
            "Letters mark colours: P purple, Y yellow, G green, R red, K black, W white; "
            "L marks a Wild (any colour); gray routes take any one colour. Rectangles are "
            "train routes, ovals ship routes, a white stripe marks a pair route (two Train "
            "cards per space). ⚓ marks cards with the harbor symbol; rings mark port cities. "
            "Claimed routes and harbors show their owner's seat number."
        )

    # ------------------------------------------------------------ scoring
    def player_columns(self, view: Game) -> list[tuple[str, list[str]]]:
        """Where each player built harbors, and how many are left to build."""
        state = view.state
        cells = []
        for seat, player in enumerate(state.players):
            built = sorted(
                view.map.place_name(c) for c, s in state.extras["harbors"].items() if s == seat
            )
            where = ", ".join(built) or "none yet"
            cells.append(f"{html.escape(where)} ({player.extras['harbors_left']} left to build)")
        return [("harbors", cells)]

    def end_sections(self, view: Game) -> list[str]:
        rules: Any = view.rules
        state = view.state
        harbor_items, tour_items, exchange_items = [], [], []
        for seat, player in enumerate(state.players):
            who = f"{panels.player_chip(seat)}<b>{html.escape(player.name)}</b>"
            parts = [
                f"{html.escape(view.map.place_name(city))} ({named} completed "
                f"ticket{'s' if named != 1 else ''} name it): {_signed(points)}"
                for city, named, points in rules.harbor_scores(state, seat)
            ]
            left = player.extras["harbors_left"]
            if left:
                penalty = -rules.unbuilt_harbor_penalty * left
                parts.append(f"{left} not built: {_signed(penalty)}")
            harbor_items.append(f"<li>{who}: {'; '.join(parts) or 'none'}</li>")
            for ticket_id in player.tickets:
                ticket = view.map.ticket_by_id[ticket_id]
                if ticket.tour_values:
                    chain = " → ".join(html.escape(view.map.place_name(c)) for c in ticket.cities)
                    how = (self.ticket_progress(view, seat, ticket_id) or "").replace(" yet", "")
                    tour_items.append(f"<li>{who}: {chain}: {html.escape(how)}</li>")
            done = player.extras["exchanged"]
            if done:
                exchange_items.append(
                    f"<li>{who}: {done} piece{'s' if done != 1 else ''} exchanged: "
                    f"{_signed(-done * rules.exchange_cost)}</li>"
                )
        points = " / ".join(str(p) for p in rules.harbor_points[1:])
        sections = [
            f"<h4>Harbors</h4><div class='ttr-note'>{points} points for 1 / 2 / 3 or more "
            "completed tickets naming the harbor's city; "
            f"−{rules.unbuilt_harbor_penalty} for each harbor not built.</div>"
            f"<ul class='ttr-tickets-list ttr-harbor-scores'>{''.join(harbor_items)}</ul>"
        ]
        if tour_items:
            sections.append(
                "<h4>Tours</h4><div class='ttr-note'>In the listed order: the high value; all "
                "cities joined in another order: the low value; else minus the penalty.</div>"
                f"<ul class='ttr-tickets-list ttr-tour-scores'>{''.join(tour_items)}</ul>"
            )
        if exchange_items:
            sections.append(
                f"<h4>Exchanges</h4><ul class='ttr-tickets-list'>{''.join(exchange_items)}</ul>"
            )
        return sections

    # ------------------------------------------------------------ the rules card
    def rules_card(self) -> RulesText:
        card = super().rules_card()
        rules = self.map_rules()
        return replace(
            card,
            setup=(
                "Each player: 3 Train and 7 Ship cards, 3 harbors; 25 trains and 50 ships, "
                "of which you keep 60 (your secret choice; 20 and 40 for a first game).",
                f"{count(rules.setup_ticket_deal, 'ticket')} offered: keep at least "
                f"{rules.setup_ticket_keep}.",
            ),
            turn=(
                "Take 2 cards, each face up or from the top of the train or ship deck; when "
                "you take a face-up card, you choose the deck that refills it. A face-up Wild "
                "is the whole draw and never a second card; one drawn from the deck is wild "
                "and the draw goes on.",
                "Or claim 1 route.",
                f"Or draw {count(rules.ticket_deal, 'ticket')} and keep at least "
                f"{rules.ticket_keep}.",
                "Or build a harbor in a port your routes reach: 2 Train and 2 Ship cards of "
                "one colour with the anchor (Wilds replace any).",
                "Or exchange pieces of your supply for the other kind from your box, 1 point each.",
            ),
            claiming=(
                "Train routes take Train cards and trains, ship routes Ship cards and ships, "
                "of the route's colour (gray: any one); Wilds pay for any colour.",
                "A Double-Ship card pays 2 spaces; a pair route takes 2 Train cards a space.",
                "Any open route: it need not join your own; the board's edges join.",
                "Not with fewer pieces of its kind left than its spaces.",
                card.claiming[3],
                card.claiming[-1],
            ),
            end=(
                f"When a player ends a turn with {rules.end_trigger_pieces} pieces or fewer "
                "(trains and ships), every player, that one too, plays 2 more turns; then the "
                "game ends.",
            ),
            scoring=(
                card.scoring[0],
                "A tour scores its high value visited in order, its low value in another "
                "order, else its penalty.",
                "Each harbor: 20, 30 or 40 for 1, 2 or 3 completed tickets naming its city; "
                "each harbor never built: 4 points off.",
                "No longest-path bonus.",
            ),
        )
