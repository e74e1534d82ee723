"""*Move a passenger*, Märklin's fourth kind of turn, as a panel of the app.

The player picks one of their passengers standing on the board; the board rings
every city that passenger can reach. The journeys it can make are listed in words
(the cities in order, the tokens it would collect and what they add up to, and
the opponents' routes it would pay a Passenger card for), best first. Choosing one
draws it on the board (:class:`~ttr_nb.widgets.maerklin_board.JourneyPainter`)
before *Move this passenger* makes it.

The journeys listed are the legal actions: each an exact path. A player holding
more Passenger cards than the rules list journeys for may ask for journeys over
more opponents' routes (*Passenger cards to spend at most*); those are searched on
demand and checked by the engine like any other action.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ...rules.maerklin import JourneyPlan, MaerklinRules, MovePassenger
from ..controls import count, offer_choices, picker
from ..maerklin_board import JourneyPainter
from .base import Shown
from .choice import ChoicePanel

if TYPE_CHECKING:
    from ...game import Game
    from ..app import GameApp

MAX_CARDS_ASKED = 3  # journeys over more opponents' routes are searched on demand up to this


def journey_label(view: Game, plan: JourneyPlan) -> str:
    """``7 points: Magdeburg → Leipzig → Dresden (4 + 3); 1 Passenger card for Ben's
    Dresden–Chemnitz`` for one journey: the points first, so that a list too narrow for a
    long path still shows them."""
    rules: MaerklinRules = view.rules  # type: ignore[assignment]
    places = " → ".join(view.map.place_name(c) for c in plan.cities)
    values = [value for _, value in plan.tokens]
    if not values:
        text = f"0 points: {places} (no token left to collect)"
    elif len(values) == 1:
        text = f"{count(values[0], 'point')}: {places}"
    else:
        text = f"{count(sum(values), 'point')}: {places} ({' + '.join(map(str, values))})"
    if plan.paid:
        used = ", ".join(rules._owned_label(view.state, rid) for rid in plan.paid)
        text += f"; {count(len(plan.paid), 'Passenger card')} for {used}"
    return text


def ranked(plans: list[tuple[MovePassenger, JourneyPlan]]) -> list[tuple[MovePassenger, Any]]:
    """Best first: most points, then fewest Passenger cards, then fewest routes."""
    return sorted(plans, key=lambda pair: (-pair[1].points, len(pair[1].paid), len(pair[0].path)))


class MovePanel(ChoicePanel):
    """Pick a passenger, see where it can go, pick a journey (drawn on the board), move."""

    def __init__(self, app: GameApp, painter: JourneyPainter) -> None:
        super().__init__(
            app,
            "Journey:",
            "ttr-journey-picker",
            "Move this passenger",
            "ttr-move-passenger",
            ["ttr-panel", "ttr-journeys"],
        )
        self.painter = painter
        self.button.style.button_color = "#cfe8cf"
        self.passenger = picker(
            "Passenger in:", "ttr-passenger-picker", style={"description_width": "initial"}
        )
        self.cards = picker(
            "Passenger cards to spend at most:",
            "ttr-journey-cards",
            style={"description_width": "initial"},
        )
        self.passenger.observe(app.guard(lambda _c: self._passenger_changed()), names="value")
        self.cards.observe(app.guard(lambda _c: self._passenger_changed()), names="value")
        self.picker.observe(app.guard(lambda _c: self._preview()), names="value")
        self.picker.layout.width = "100%"
        # The chosen journey in full, wrapped (a list entry is one line, cut if long).
        self.chosen = widgets.HTML(_dom_classes=["ttr-journey-chosen"])
        children = list(self.widget.children)
        children.insert(
            1,
            widgets.HBox(
                [self.passenger, self.cards],
                layout=widgets.Layout(flex_flow="row wrap"),
                _dom_classes=["ttr-row", "ttr-journey-choices"],
            ),
        )
        children.insert(3, self.chosen)
        self.widget.children = tuple(children)
        self._shown: Shown | None = None
        self._plans: dict[MovePassenger, JourneyPlan] = {}
        self._syncing = False

    # -------------------------------------------------------------- render
    def render(self, shown: Shown) -> None:
        """Show the seat's passengers in ``shown`` and their journeys."""
        self._shown = shown
        view, seat = shown.view, shown.viewer
        in_play = view is not None and seat is not None and view.state.phase == "play"
        self.widget.layout.display = "" if in_play and not view.is_over else "none"
        if not in_play or view is None or seat is None or view.is_over:
            self._clear_preview()
            return
        rules: MaerklinRules = view.rules  # type: ignore[assignment]
        player = view.state.players[seat]
        standing = rules.passengers_of(view.state, seat)
        held = player.hand[rules.passenger_card]
        where = ", ".join(view.map.place_name(c) for c in standing) or "none"
        left = player.extras["passengers_left"]
        self.info.value = (
            "<h3>Move a passenger</h3><div class='ttr-note'>A whole turn: one of your "
            "passengers travels over your routes (each route once, never into a country), "
            "takes the top merchandise token of every city it enters (not where it starts), "
            "scores them at once and leaves the game. Each opponent's route on the way costs "
            "a Passenger card. Pick a passenger here, or click its disc on the board."
            f"<br>Standing: <b>{html.escape(where)}</b>; "
            f"{left} still to place; <b>{count(held, 'Passenger card')}</b> in hand.</div>"
        )
        self._syncing = True
        try:
            offer_choices(self.passenger, [(view.map.place_name(c), c) for c in standing])
            self.passenger.disabled = not standing
            listed = rules.listed_journey_cards
            most = min(held, MAX_CARDS_ASKED)
            options = [(str(n), n) for n in range(most + 1)]
            if list(self.cards.options) != options:
                self.cards.options = options
                self.cards.value = min(held, listed)
            self.cards.layout.display = "" if held > listed else "none"
        finally:
            self._syncing = False
        self._passenger_changed()

    def pick_passenger(self, place: str) -> bool:
        """Pick the passenger standing on ``place`` (its disc was clicked on the board), if
        it is one the panel offers; True when it did."""
        if self.passenger.disabled or self.widget.layout.display == "none":
            return False
        if place not in [value for _, value in self.passenger.options]:
            return False
        self.passenger.value = place
        return True

    def _journeys(self, view: Game, start: str) -> list[MovePassenger]:
        """The journeys of the passenger in ``start`` now: the legal actions, or (with more
        Passenger cards allowed than the rules list) a search over more opponents' routes."""
        shown = self._shown
        assert shown is not None
        cards = self.cards.value or 0
        rules: MaerklinRules = view.rules  # type: ignore[assignment]
        if not shown.acting or cards <= rules.listed_journey_cards:
            return [
                a
                for a in shown.legal
                if isinstance(a, MovePassenger)
                and a.start == start
                and len(self._plan(view, a).paid) <= cards
            ]
        seat = view.state.current
        found = rules.journeys(view.state, seat, start, cards)
        return [MovePassenger(start, tuple(j.path)) for j in found]

    def _plan(self, view: Game, action: MovePassenger) -> JourneyPlan:
        plan = self._plans.get(action)
        if plan is None:
            rules: MaerklinRules = view.rules  # type: ignore[assignment]
            plan = self._plans[action] = rules.plan(view.state, view.state.current, action)
        return plan

    def _passenger_changed(self) -> None:
        if self._syncing or self._shown is None or self._shown.view is None:
            return
        shown, view = self._shown, self._shown.view
        self._plans = {}
        start = self.passenger.value
        journeys = self._journeys(view, start) if start else []
        plans = ranked([(a, self._plan(view, a)) for a in journeys])
        options = [(journey_label(view, plan), action) for action, plan in plans]
        self._syncing = True
        try:
            self.offer(options, shown.acting and bool(options), self._why_not(shown, start))
        finally:
            self._syncing = False
        self.picker.layout.display = "" if options else "none"
        self.painter.reach = frozenset(c for _, p in plans for c in p.cities[1:])
        self._preview()

    def _why_not(self, shown: Shown, start: str | None) -> str:
        blocked = shown.blocked()
        if blocked:
            return blocked
        if start is None:
            return (
                "You have no passenger on the board: claim a route and place one on a city "
                "at its end."
            )
        return (
            "This passenger cannot go anywhere yet: it needs one of your routes leaving its "
            "city (or an opponent's and a Passenger card)."
        )

    # ------------------------------------------------------------- preview
    def _preview(self) -> None:
        if self._syncing or self._shown is None or self._shown.view is None:
            return
        action = self.picker.value
        if isinstance(action, MovePassenger):
            self.painter.show(self._plans.get(action), action.path)
            label = next((t for t, a in self.picker.options if a == action), "")
            self.chosen.value = (
                f"<div class='ttr-note'>Drawn on the board: {html.escape(label)}</div>"
            )
        else:
            self.painter.show(None)
            self.chosen.value = ""
        self._redraw()

    def _clear_preview(self) -> None:
        self.painter.show(None)
        self.chosen.value = ""
        self.painter.reach = frozenset()
        self._redraw()

    def _redraw(self) -> None:
        """Redraw the pieces if the preview changed since the board last drew it."""
        if self.painter.drawn != (self.painter.plan, self.painter.reach):
            self.app.board.draw_pieces()

    def act(self, choice: Any) -> None:
        """Move the passenger as ``choice`` says; on a refusal, draw the journey again."""
        self.painter.show(None)
        self.painter.reach = frozenset()
        if not self.app.act(choice, self.note):
            self._preview()
