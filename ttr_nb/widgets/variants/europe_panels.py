"""The panels only Europe has: a tunnel's turned-up cards and its question, building a
station at its cost, and the routes the stations borrow at the end.

Each panel reads the shown game and the legal actions (a :class:`Shown`) and acts
through the app (``act`` / ``act_one_of``), so every choice is a legal action, and a
refusal shows its rule beside the panel. :class:`~.europe.EuropeUI` composes them.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ...rules.europe import BORROW, LEFT, STATIONS, TUNNEL, EuropeRules
from ...rules.europe_actions import BorrowRoutes, BuildStation, GiveUpTunnel, PayTunnel
from ...rules.europe_stations import best_borrowing
from .. import panels
from ..controls import Note, button, count, offer_choices, picker
from .base import Shown
from .choice import ChoicePanel

if TYPE_CHECKING:
    from ...game import Game
    from ..app import GameApp

ORDINALS = ("first", "second", "third", "fourth", "fifth")


def europe_rules(view: Game) -> EuropeRules:
    """The Europe rules of the game shown."""
    assert isinstance(view.rules, EuropeRules)
    return view.rules


def cards_html(view: Game, cards: list[str]) -> str:
    """Cards as lettered chips (``[R] red [L] locomotive``), one per card."""
    if not cards:
        return "<i>no card</i>"
    out = []
    for card_id in cards:
        card = view.map.card_by_id[card_id]
        name = panels.card_name(card)
        out.append(
            f"<span class='ttr-hand-row'>{panels.chip(card.color)}{html.escape(name)}</span>"
        )
    return " ".join(out)


def payment_words(view: Game, cards: Any) -> str:
    """``2 × R red + 1 × L locomotive``."""
    return panels.describe_payment(view.map, [tuple(pair) for pair in cards])


def station_cost_text(view: Game, seat: int) -> str:
    """What ``seat``'s next station costs, in words (or that all are built)."""
    rules = europe_rules(view)
    player = view.state.players[seat]
    left = player.extras[LEFT]
    if not left:
        return f"all {rules.stations_each} stations are built"
    cost = rules.station_cost(player)
    which = ORDINALS[rules.stations_each - left]
    kind = "card of any colour" if cost == 1 else "cards of one colour"
    return f"your {which} station costs {cost} {kind if cost == 1 else kind} (locomotives count)"


def tunnel_html(view: Game, record: dict[str, Any], waiting: bool) -> str:
    """A tunnel's story: the route, the cards laid down, the cards turned up, what they ask."""
    game_map = view.map
    route = game_map.route_by_id[record["route"]]
    name = html.escape(view.state.players[record["seat"]].name)
    label = html.escape(game_map.route_label(route))
    colour = record["colour"]
    fits = "locomotives" if colour is None else f"{colour} cards or locomotives"
    asks = record["extra"]
    head = (
        f"<b>{name}</b> laid {html.escape(payment_words(view, record['cards']))} for the tunnel "
        f"<b>{label}</b>."
    )
    turned = f"Cards turned up: {cards_html(view, record['revealed'])}"
    matching = (
        f"{colour} or a locomotive"
        if colour is not None
        else "a locomotive (the tunnel was paid with locomotives alone)"
    )
    if asks:
        ask = (
            f"{asks} of them {'is' if asks == 1 else 'are'} {matching}: it takes "
            f"<b>{count(asks, 'more card')}</b> ({fits}) to build the tunnel, or give it up."
        )
    else:
        ask = f"None of them is {matching}: the tunnel is built with the cards laid down."
    outcome = ""
    if not waiting:
        if record.get("outcome") == "built":
            outcome = f" <b>Built</b>, paying {html.escape(payment_words(view, record['paid']))}."
        else:
            outcome = " <b>Given up</b>: the cards went back to the hand."
    return f"<div>{head}</div><div>{turned}</div><div class='ttr-note'>{ask}{outcome}</div>"


class TunnelPanel(ChoicePanel):
    """When a tunnel waits: the cards turned up, what they ask, and the choice (pay a way
    listed, or give up)."""

    def __init__(self, app: GameApp) -> None:
        super().__init__(
            app,
            "Answer:",
            "ttr-tunnel-picker",
            "Do it",
            "ttr-tunnel-do",
            ["ttr-panel", "ttr-tunnel"],
        )
        self.button.style.button_color = "#cfe8cf"
        self._brought: tuple[int, int] | None = None  # the question last brought into view

    def render(self, shown: Shown) -> None:
        """Ask about the tunnel waiting for an answer, if any."""
        view = shown.view
        waiting = view is not None and not view.is_over and view.state.pending == TUNNEL
        self.widget.layout.display = "" if waiting else "none"
        if not waiting or view is None:
            return
        record = view.state.extras[TUNNEL]
        self.info.value = "<h3>Tunnel: the cards turned up</h3>" + tunnel_html(view, record, True)
        ui = self.app.ui
        options = [
            (ui.label(view, a), a) for a in shown.legal if isinstance(a, PayTunnel | GiveUpTunnel)
        ]
        self.offer(options, shown.acting and bool(options), "Wait: another player decides.")
        # The question opens above the cards, while the player looks at the claim button
        # below them (or further down on a phone): bring it into view once.
        asked = (view.state.turn, record["route"])
        if shown.acting and asked != self._brought:
            self._brought = asked
            self.app.scroller.show(".ttr-tunnel")


class StationPanel(ChoicePanel):
    """Build a train station: the city (any city without one), then the cards (asked)."""

    def __init__(self, app: GameApp) -> None:
        super().__init__(
            app,
            "City:",
            "ttr-station-city",
            "Build a station",
            "ttr-build-station",
            ["ttr-station"],
        )
        self._builds: dict[str, list[BuildStation]] = {}
        self.last_tunnel = widgets.HTML(_dom_classes=["ttr-last-tunnel"])
        self.widget.children = (*self.widget.children, self.last_tunnel)

    def render(self, shown: Shown, seat: int) -> None:
        """What a station costs ``seat`` now, and where it may be built."""
        view = shown.view
        assert view is not None
        rules = europe_rules(view)
        player = view.state.players[seat]
        built = sorted(c for c, s in view.state.extras[STATIONS].items() if s == seat)
        where = ", ".join(view.map.place_name(c) for c in built) or "none yet"
        cost = station_cost_text(view, seat)
        self.info.value = (
            "<h3>Build a train station</h3><div class='ttr-note'>"
            f"<b class='ttr-station-cost'>Cost now: {html.escape(cost)}.</b> In any city "
            "without a station (one per city). At the end it lets you use one route another "
            "player claimed into that city, for your tickets; each station you do not build "
            f"scores {rules.unbuilt_station_points}.<br>Built: <b>{html.escape(where)}</b>; "
            f"<b>{player.extras[LEFT]}</b> of {rules.stations_each} left.</div>"
        )
        builds: dict[str, list[BuildStation]] = {}
        for action in shown.legal:
            if isinstance(action, BuildStation):
                builds.setdefault(action.city, []).append(action)
        self._builds = builds
        cities = sorted(builds, key=view.map.place_name)
        self.offer(
            [(view.map.place_name(c), c) for c in cities],
            bool(builds),
            self._why_not(shown, seat),
        )
        self.picker.layout.display = "" if builds else "none"
        record = view.state.extras.get("last_tunnel")
        self.last_tunnel.value = (
            "<details class='ttr-note'><summary>The last tunnel</summary>"
            + tunnel_html(view, record, False)
            + "</details>"
            if record
            else ""
        )

    def choose_city(self, place: str) -> bool:
        """Pick ``place`` in the list (a city clicked on the board); False if not offered."""
        if place in self._builds:
            self.picker.value = place
            return True
        return False

    def _why_not(self, shown: Shown, seat: int) -> str:
        view = shown.view
        assert view is not None
        if view.state.pending == TUNNEL and shown.acting:
            return "Answer the tunnel's question first (above the cards)."
        reason = shown.blocked()
        if reason:
            return reason
        rules = europe_rules(view)
        player = view.state.players[seat]
        if not player.extras[LEFT]:
            return f"You have built all {rules.stations_each} of your stations."
        return f"You cannot pay for a station yet: {station_cost_text(view, seat)}."

    def act(self, choice: Any) -> None:
        self.app.act_one_of(self._builds.get(choice, []), self.note, near=self.ask_here)


class BorrowPanel:
    """At the end: for each of the player's stations, the route it borrows (the best choice
    for the player's tickets proposed), then one button."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.info = widgets.HTML()
        self.pickers = widgets.VBox(_dom_classes=["ttr-borrow-pickers"])
        self.button = button("Use these routes", "ttr-borrow")
        self.button.style.button_color = "#cfe8cf"
        self.button.on_click(app.guard(lambda _b: self._act()))
        self.why_html = widgets.HTML(_dom_classes=["ttr-borrow-why"])
        self.note = Note("ttr-borrow-note")
        self.widget = widgets.VBox(
            [self.info, self.pickers, self.button, self.why_html, self.note.widget],
            _dom_classes=["ttr-panel", "ttr-borrow-panel"],
        )
        self._key: tuple[int, int] | None = None

    def render(self, shown: Shown) -> None:
        """Ask which routes the stations borrow, at the end."""
        view = shown.view
        active = view is not None and not view.is_over and view.state.pending == BORROW
        self.widget.layout.display = "" if active else "none"
        if not active or view is None:
            self._key = None
            return
        rules = europe_rules(view)
        state = view.state
        seat = state.current
        options = rules.borrow_choices(state, seat)
        player = state.players[seat]
        tickets = [
            (*view.map.ticket_by_id[t].cities, view.map.ticket_by_id[t].points)
            for t in player.tickets
        ]
        own = [rules.route_ends[r] for r in player.routes]
        best = best_borrowing(own, tickets, options, rules.route_ends)
        name = html.escape(player.name)
        self.info.value = (
            f"<h3>{name}: the routes your stations borrow</h3><div class='ttr-note'>The last "
            "turns are over. Each station uses one route another player claimed into its city, "
            "for your tickets only (never for the longest path). Proposed: the choice that "
            f"scores the most ticket points ({best.points:+d}, with "
            f"{count(sum(best.completed), 'ticket')} completed).</div>"
        )
        key = (id(view), seat)
        if self._key != key:  # a new chooser: fresh pickers, set to the proposal
            self._key = key
            proposal = dict(best.routes)
            boxes = []
            for city in sorted(options):
                box = picker(f"{view.map.place_name(city)}:", "ttr-borrow-route")
                box.style = {"description_width": "initial"}
                offer_choices(
                    box,
                    [
                        (view.map.route_label(view.map.route_by_id[r]) + self._owner(view, r), r)
                        for r in options[city]
                    ],
                )
                box.value = proposal.get(city, options[city][0])
                box.city = city  # type: ignore[attr-defined]
                boxes.append(box)
            self.pickers.children = tuple(boxes)
        can = shown.acting
        self.button.disabled = not can
        self.why_html.value = (
            "" if can else "<div class='ttr-note'>Wait: another player chooses.</div>"
        )

    def _owner(self, view: Game, route_id: int) -> str:
        seat = view.state.owner[route_id]
        return f" — {view.state.players[seat].name}'s"

    def chosen(self) -> BorrowRoutes:
        """The action the pickers now describe."""
        return BorrowRoutes(tuple((box.city, box.value) for box in self.pickers.children))

    def _act(self) -> None:
        self.app.act(self.chosen(), self.note)
