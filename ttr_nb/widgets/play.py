"""The panels a player acts with: the turn header, cards, drawn tickets, claiming, the hand.

Each panel reads the shown game and the legal actions (a :class:`Shown`) and
offers only legal choices; a control that is off says why. When one click
could mean several legal actions (a variant's extra choice), the app asks.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from . import panels, style
from .controls import Note, button, count, offer_choices, picker
from .variants import Shown

if TYPE_CHECKING:
    from .app import GameApp

WILD_CLASS = "ttr-wild-card"  # a face-up wild card: drawn as the rainbow (see APP_CSS)


def has_own_control(action: Any) -> bool:
    """Does a panel here have a dedicated control for this action?"""
    return isinstance(action, DrawFaceUp | DrawBlind | ClaimRoute | DrawTickets | KeepTickets)


class TurnHeader:
    """Who moves, the turn, and the last round announced where the player looks."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.widget = widgets.HTML(_dom_classes=["ttr-turn"])

    def render(self, shown: Shown) -> None:
        """Show whose turn it is in ``shown`` (the position on screen), with the turn and move
        numbers."""
        view = shown.view
        if view is None:
            self.widget.value = ""
            return
        state = view.state
        if view.is_over:
            text = "<b>Game over</b> — the final scores are below."
        else:
            seat = state.current
            kind = self.app.seat_role(seat)
            pending = {"second_card": " — second card", "keep_tickets": " — choosing tickets"}
            step = self.app.ui.step_text(view)
            doing = f" — {html.escape(step)}" if step else pending.get(state.pending or "", "")
            # Players count rounds (everyone moved once), not single turns.
            played = (state.turn - 1) // len(state.players) + 1
            phase = "setup" if state.phase == "setup" else f"round {played}"
            text = (
                f"To move: {panels.player_chip(seat)}<b>{html.escape(state.players[seat].name)}"
                f"</b> ({kind}){doing} · "
                f"<span class='ttr-note'>{phase}, move {self.app.position}</span>"
            )
        last = panels.last_round_html(view)
        self.widget.value = f"<div class='ttr-turn-line'>{text}</div>{last}"


class CardsPanel:
    """The face-up row, the deck(s), drawing tickets, and any other move of the variant."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        guard = app.guard
        self.face_up: list[widgets.Button] = []
        self.face_up_rows = widgets.VBox(_dom_classes=["ttr-face-up-rows"])
        self._row_boxes: list[tuple[widgets.HTML, widgets.HBox]] = []
        self.deck_buttons: dict[str, widgets.Button] = {}
        self._decks: list[str] = []  # the decks of the game shown
        self.deck_row = widgets.HBox(_dom_classes=["ttr-deck-row"])
        self.tickets_button = button("Draw tickets", "ttr-draw-tickets")
        self.tickets_button.on_click(guard(lambda _b: self._draw_tickets()))
        self.supply_html = widgets.HTML(_dom_classes=["ttr-supply"])
        self.hint_html = widgets.HTML(_dom_classes=["ttr-draw-hint"])
        self.other_moves = picker("Other move:", "ttr-other-moves")
        self.other_button = button("Do it", "ttr-other-do")
        self.other_button.on_click(guard(lambda _b: self._other_move()))
        self.other_box = widgets.HBox(
            [self.other_moves, self.other_button], layout=widgets.Layout(flex_flow="row wrap")
        )
        self.note = Note("ttr-cards-note")
        self.widget = widgets.VBox(
            [
                widgets.HTML("<h3>Cards</h3>"),
                self.face_up_rows,
                self.hint_html,
                widgets.HBox(
                    [self.deck_row, self.tickets_button],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.supply_html,
                self.other_box,
                self.note.widget,
            ],
            _dom_classes=["ttr-panel", "ttr-cards"],
        )

    # --------------------------------------------------------------- render
    def render(self, shown: Shown) -> None:
        """Show the face-up cards and the decks of ``shown``, each enabled when it is a legal
        draw."""
        view = shown.view
        if view is None:
            return
        legal = set(shown.legal)
        slots = len(view.state.face_up)
        while len(self.face_up) < slots:
            self._add_face_up_button()
        second = view.state.pending == "second_card"
        for slot, face_button in enumerate(self.face_up[:slots]):
            self._render_face_up(view, face_button, slot, shown, legal, second)
        self._render_decks(view, shown)
        self._arrange_rows(view)
        tickets = [a for a in shown.legal if isinstance(a, DrawTickets)]
        self.tickets_button.disabled = not tickets
        self.tickets_button.tooltip = (
            "Draw destination tickets and keep at least one"
            if tickets
            else self._why_not(shown, "tickets")
        )
        self.supply_html.value = panels.supply_html(view)
        wild = self._wild_name(view)
        self.hint_html.value = (
            f"<div class='ttr-note'>Second card: take any face-up card but a {wild}, or "
            f"draw from {'a' if len(self._decks) > 1 else 'the'} deck.</div>"
            if second and shown.acting
            else ""
        )
        ui = self.app.ui
        others = [a for a in shown.legal if not has_own_control(a) and not ui.handles(a)]
        offer_choices(self.other_moves, [(ui.label(view, a), a) for a in others])
        self.other_box.layout.display = "" if others else "none"

    def _render_face_up(
        self,
        view: Any,
        face_button: widgets.Button,
        slot: int,
        shown: Shown,
        legal: set[Any],
        second: bool,
    ) -> None:
        card_id = view.state.face_up[slot]
        if card_id is None:
            face_button.remove_class(WILD_CLASS)
            face_button.description = "—"
            face_button.tooltip = f"Slot {slot + 1} is empty: every card is in play"
            face_button.style.button_color = "#eeeeee"
            face_button.style.text_color = "#777777"
            face_button.disabled = True
            return
        card = view.map.card_by_id[card_id]
        sw = style.swatch(card.color)
        name = self.app.ui.card_name(card)
        if card.wild:
            face_button.add_class(WILD_CLASS)
        else:
            face_button.remove_class(WILD_CLASS)
        face_button.description = f"{sw.letter or '?'} {name}"
        face_button.style.button_color = sw.fill
        face_button.style.text_color = sw.ink
        takeable = any(isinstance(a, DrawFaceUp) and a.slot == slot for a in legal)
        face_button.disabled = not takeable
        if takeable:
            face_button.tooltip = f"Take the face-up {name} (slot {slot + 1})"
        elif shown.acting and second and card.wild:
            face_button.tooltip = f"A face-up {name} cannot be your second card"
        else:
            face_button.tooltip = self._why_not(shown, "cards")

    def _render_decks(self, view: Any, shown: Shown) -> None:
        self._decks = decks = list(view.rules.deck_names)
        for deck in decks:
            if deck not in self.deck_buttons:
                deck_button = button("", f"ttr-draw-blind-{deck}")
                if deck == "train":
                    deck_button.add_class("ttr-draw-blind")
                deck_button.on_click(self.app.guard(lambda _b, d=deck: self._draw_blind(d)))
                self.deck_buttons[deck] = deck_button
        for deck in decks:
            deck_button = self.deck_buttons[deck]
            deck_button.description = (
                "Draw from the deck" if len(decks) == 1 else f"Draw from the {deck} deck"
            )
            can = any(isinstance(a, DrawBlind) and a.deck == deck for a in shown.legal)
            deck_button.disabled = not can
            deck_button.tooltip = (
                "Take the top card, unseen" if can else self._why_not(shown, "deck")
            )

    def _arrange_rows(self, view: Any) -> None:
        """Face-up buttons in the variant's rows (each may end with its deck's button);
        the other deck buttons in the deck row."""
        rows = self.app.ui.card_rows(view)
        while len(self._row_boxes) < len(rows):
            i = len(self._row_boxes)
            self._row_boxes.append(
                (
                    widgets.HTML(_dom_classes=["ttr-card-row-title"]),
                    widgets.HBox(_dom_classes=["ttr-face-up-row", f"ttr-card-row-{i}"]),
                )
            )
        placed = set()
        children = []
        for row, (title, box) in zip(rows, self._row_boxes, strict=False):
            title.value = f"<div class='ttr-note'><b>{html.escape(row.title)}</b></div>"
            items = [self.face_up[slot] for slot in row.slots]
            if row.deck in self._decks:
                items.append(self.deck_buttons[row.deck])
                placed.add(row.deck)
            box.children = tuple(items)
            children += [title, box] if row.title else [box]
        self.face_up_rows.children = tuple(children)
        self.deck_row.children = tuple(self.deck_buttons[d] for d in self._decks if d not in placed)

    def _wild_name(self, view: Any) -> str:
        wild = next((c for c in view.map.card_types if c.wild), None)
        return self.app.ui.card_name(wild) if wild else "wild card"

    def _why_not(self, shown: Shown, what: str) -> str:
        view = shown.view
        pending = view.state.pending if view is not None and shown.acting else None
        if pending == "keep_tickets":
            return "First choose which tickets to keep"
        if pending == "second_card":
            return "Take your second card first" if what == "tickets" else "No card is left there"
        blocked = shown.blocked()
        if blocked:
            return blocked
        return "No tickets are left to draw" if what == "tickets" else "No card is left there"

    def _add_face_up_button(self) -> None:
        slot = len(self.face_up)
        face_button = button("—", f"ttr-face-up-{slot}")
        face_button.layout.min_width = "92px"
        face_button.add_class("ttr-face-up")
        face_button.on_click(self.app.guard(lambda _b: self._take(slot)))
        self.face_up.append(face_button)

    # -------------------------------------------------------------- acting
    def _take(self, slot: int) -> None:
        self.app.act_one_of(
            [a for a in self.app.shown.legal if isinstance(a, DrawFaceUp) and a.slot == slot],
            self.note,
            fallback=DrawFaceUp(slot),
        )

    def _draw_blind(self, deck: str) -> None:
        self.app.act_one_of(
            [a for a in self.app.shown.legal if isinstance(a, DrawBlind) and a.deck == deck],
            self.note,
            fallback=DrawBlind(deck),
        )

    def _draw_tickets(self) -> None:
        self.app.act_one_of(
            [a for a in self.app.shown.legal if isinstance(a, DrawTickets)],
            self.note,
            fallback=DrawTickets(),
        )

    def _other_move(self) -> None:
        action = self.other_moves.value
        if action is None:
            self.note.show("There is no other move to make now.", bad=True)
            return
        self.app.act(action, self.note)


class OfferPanel:
    """The tickets just drawn: tick the ones to keep."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.title = widgets.HTML()
        self.boxes: list[widgets.Checkbox] = []
        self.ticket_ids: list[int] = []
        self.list = widgets.VBox(_dom_classes=["ttr-offer"])
        self.keep_button = button("Keep the ticked tickets", "ttr-keep")
        self.keep_button.style.button_color = "#cfe8cf"
        self.keep_button.on_click(app.guard(lambda _b: self._keep()))
        self.note = Note("ttr-offer-note")
        self._least = 1
        self.widget = widgets.VBox(
            [self.title, self.list, self.keep_button, self.note.widget],
            _dom_classes=["ttr-panel", "ttr-offer-box"],
        )

    def render(self, shown: Shown) -> None:
        """Show the tickets on offer in ``shown`` while the seat chooses; hidden otherwise."""
        view = shown.view
        offering = bool(view and shown.acting and view.state.pending == "keep_tickets")
        self.widget.layout.display = "" if offering else "none"
        if not offering or view is None:
            self.boxes, self.ticket_ids = [], []
            self.list.children = ()
            return
        player = view.state.players[view.state.current]
        keeps = [a for a in shown.legal if isinstance(a, KeepTickets)]
        self._least = min((len(a.tickets) for a in keeps), default=0)
        if self.ticket_ids == list(player.offer):
            self._check()
            return  # the same offer: keep the learner's ticks
        self.title.value = (
            f"<h3>{html.escape(player.name)}: keep at least {self._least} of these tickets</h3>"
            "<div class='ttr-note'>A completed ticket adds its points at the end; an "
            "unfinished one takes them away.</div>"
        )
        boxes = []
        for i, ticket_id in enumerate(player.offer):
            box = widgets.Checkbox(
                value=False,  # nothing pre-ticked: keeping a ticket is a decision
                description=self.app.ui.ticket_text(view, ticket_id),
                indent=False,
                layout=widgets.Layout(width="auto"),
                _dom_classes=[f"ttr-offer-{i}"],
            )
            box.observe(self.app.guard(lambda _c: self._check()), names="value")
            boxes.append(box)
        self.boxes, self.ticket_ids = boxes, list(player.offer)
        self.list.children = tuple(boxes)
        self._check()
        # Beside the board (a wide window) the column brings Keep into view, after anything
        # else asked at the same time (a tutorial step's words: their end stays in view).
        self.app.scroller.show("button.ttr-keep", min_width=901, priority=1)

    def _check(self) -> None:
        chosen = sum(1 for box in self.boxes if box.value)
        least = self._least
        self.keep_button.disabled = chosen < least
        if chosen >= least:
            self.keep_button.description = f"Keep {count(chosen, 'ticket')}"
            self.keep_button.tooltip = "Keep the ticked tickets; the others go back"
        else:
            more = "" if not chosen else f" ({chosen} ticked)"
            self.keep_button.description = f"Tick at least {count(least, 'ticket')} to keep{more}"
            self.keep_button.tooltip = (
                f"You must keep at least {count(least, 'ticket')} of these (more if you like)"
            )

    def _keep(self) -> None:
        pairs = zip(self.ticket_ids, self.boxes, strict=True)
        self.app.act(KeepTickets(tuple(t for t, box in pairs if box.value)), self.note)


class ClaimPanel:
    """The selected route: its facts, why it cannot be claimed, or the ways to pay for it."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        guard = app.guard
        self.selected_html = widgets.HTML(_dom_classes=["ttr-selected"])
        self.claimable_html = widgets.HTML(_dom_classes=["ttr-claimable"])
        self.payment_picker = picker("Pay with:", "ttr-payment")
        self.claim_button = button("Claim this route", "ttr-claim")
        self.claim_button.style.button_color = "#cfe8cf"
        self.claim_button.on_click(guard(lambda _b: self._claim()))
        self.show_claimable = widgets.Checkbox(
            value=True,
            description="Light up the routes I can claim now",
            indent=False,
            _dom_classes=["ttr-show-claimable"],
        )
        self.show_claimable.observe(guard(lambda _c: app.draw_board()), names="value")
        self.note = Note("ttr-claim-note")
        self.pay_row = widgets.HBox(
            [self.payment_picker, self.claim_button], layout=widgets.Layout(flex_flow="row wrap")
        )
        self.widget = widgets.VBox(
            [
                self.selected_html,
                self.claimable_html,
                self.pay_row,
                self.note.widget,
                self.show_claimable,
            ],
            _dom_classes=["ttr-panel", "ttr-claim-box"],
        )
        self._claims: dict[tuple[tuple[str, int], ...], list[ClaimRoute]] = {}

    def render(self, shown: Shown) -> None:
        """Show the selected route of ``shown``, its payments and the claim button."""
        view = shown.view
        if view is None:
            return
        self._render_claimable(shown)
        route_id = self.app.board.selected
        self.pay_row.layout.display = "none" if route_id is None else ""
        if route_id is None:  # (the phone's bottom panel shows this panel only with a route)
            self.widget.add_class("ttr-no-route")
        else:
            self.widget.remove_class("ttr-no-route")
        if route_id is None:
            self.selected_html.value = (
                "<h3>Claim a route</h3><div class='ttr-note'>Click a route on the board, or "
                "pick it from the Route list under the board.</div>"
            )
            self.payment_picker.options = []
            self.claim_button.disabled = True
            return
        route = view.map.route_by_id[route_id]
        claims = [a for a in shown.legal if isinstance(a, ClaimRoute) and a.route == route_id]
        # One entry per payment; a variant's further choices are asked on Claim.
        self._claims = {}
        for action in claims:
            self._claims.setdefault(action.cards, []).append(action)
        options = [
            (self.app.ui.claim_label(view, group[0]), cards)
            for cards, group in self._claims.items()
        ]
        facts = html.escape(self.app.board.route_text(route_id))
        if options:
            advice = f"You can pay for it in {count(len(options), 'way')}: choose one and claim."
        else:
            advice = self._why_not(shown, route)
        extra = self.app.ui.claim_note(view, route_id)
        self.selected_html.value = (
            f"<h3>Selected route</h3><div>{facts}</div>"
            + (f"<div class='ttr-claim-extra'>{html.escape(extra)}</div>" if extra else "")
            + f"<div class='ttr-note'>{html.escape(advice)}</div>"
        )
        self.payment_picker.options = options
        if options:
            self.payment_picker.value = options[0][1]
        self.claim_button.disabled = not options

    def _render_claimable(self, shown: Shown) -> None:
        view = shown.view
        if view is None or not shown.acting or view.state.pending is not None:
            self.claimable_html.value = ""
            return
        routes = sorted({a.route for a in shown.legal if isinstance(a, ClaimRoute)})
        if not routes:
            text = "No route is affordable with this hand yet: draw cards."
        else:
            # Tracks of a double route read the same: name them once.
            labels = list(
                dict.fromkeys(view.map.route_label(view.map.route_by_id[r]) for r in routes)
            )
            shown_labels = ", ".join(labels[:6]) + (
                f" and {len(labels) - 6} more (lit up on the board)" if len(labels) > 6 else ""
            )
            text = f"You can claim {count(len(labels), 'route')} now: {shown_labels}."
        self.claimable_html.value = (
            f"<div class='ttr-note' data-routes='{json.dumps(routes)}'>{html.escape(text)}</div>"
        )

    def _why_not(self, shown: Shown, route: Any) -> str:
        view = shown.view
        blocked = shown.blocked()
        if blocked or view is None:
            return blocked or ""
        state = view.state
        reason = view.rules.route_problem(state, state.current, route)
        if reason:
            return f"You cannot claim it: {panels.second_person(reason)}."
        return f"You cannot pay for it yet: it takes {self.app.ui.route_cost(view, route)}."

    def _claim(self) -> None:
        cards = self.payment_picker.value
        group = self._claims.get(cards) if cards is not None else None
        if not group:
            self.note.show(
                "Select a route you can pay for first (click it on the board or pick it from "
                "the Route list).",
                bad=True,
            )
            return
        self.app.act_one_of(group, self.note)


class HandPanel:
    """The viewer's hand and tickets (the human to move, else the first human seat)."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.hand_html = widgets.HTML(_dom_classes=["ttr-hand"])
        self.tickets_html = widgets.HTML(_dom_classes=["ttr-tickets"])
        self.widget = widgets.VBox(
            [self.hand_html, self.tickets_html], _dom_classes=["ttr-panel", "ttr-hand-box"]
        )

    def render(self, shown: Shown) -> None:
        """Show the viewing seat's hand and tickets in ``shown``."""
        view, seat = shown.view, shown.viewer
        if view is None or seat is None:
            self.hand_html.value = self.tickets_html.value = ""
            return
        who = view.state.players[seat].name
        ui = self.app.ui
        self.hand_html.value = panels.hand_html(
            view.map, view.state.players[seat].hand, f"{who}'s hand", ui.card_name
        ) + ui.hand_note(view, seat)
        self.tickets_html.value = panels.tickets_html(
            view,
            seat,
            f"{who}'s tickets",
            lambda ticket_id: ui.ticket_text(view, ticket_id),
            lambda ticket_id: ui.ticket_progress(view, seat, ticket_id),
        )
