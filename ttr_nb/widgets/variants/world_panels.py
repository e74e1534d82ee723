"""The panels only Rails & Sails World has: the secret supply of pieces, harbors, exchanges
and the tour shown on the board.

Each panel reads the shown game and the legal actions (a :class:`Shown`) and
acts through the app (``act`` / ``act_one_of``), so every choice is a legal
action with its reason when refused. :class:`~.world.WorldUI` composes them.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ...rules.world import CHOOSE_SUPPLY, BuildHarbor, ChooseSupply, ExchangePieces
from ...rules.world_cards import HARBOR_SHIP_CARDS, HARBOR_TRAIN_CARDS
from .. import panels
from ..controls import count, picker
from ..world_board import TourChain
from .base import Shown
from .choice import ChoicePanel

if TYPE_CHECKING:
    from ...game import Game
    from ..app import GameApp

NO_TOUR = -1
HARBOR_COST = (
    f"{HARBOR_TRAIN_CARDS} Train + {HARBOR_SHIP_CARDS} Ship cards of one colour, each with "
    "the harbor symbol ⚓ (Wilds replace any)"
)


def neutral_supply(view: Game) -> ChooseSupply:
    """The choice first shown to every chooser: trains and ships in the proportion of the
    full sets (20 and 40), so that it never carries another player's choice."""
    rules: Any = view.rules
    full = rules.full_pieces
    trains = round(rules.supply * full["train"] / (full["train"] + full["ship"]))
    return ChooseSupply(trains, rules.supply - trains)


class SupplyPanel(ChoicePanel):
    """At setup, each player keeps 60 of their 75 pieces, secretly.

    In a hot-seat game several humans choose in turn on one screen: the panel
    never shows a choice made (only who has chosen), and each chooser starts
    from the same neutral proposal, not from the previous chooser's.
    """

    def __init__(self, app: GameApp) -> None:
        super().__init__(
            app,
            "Keep:",
            "ttr-supply-picker",
            "Keep this supply (secret)",
            "ttr-choose-supply",
            ["ttr-panel", "ttr-supply-choice"],
        )
        self.button.style.button_color = "#cfe8cf"
        self._chooser: tuple[int, int] | None = None  # (game, seat) the picker was set for

    def render(self, shown: Shown) -> None:
        """Show the supply question while a seat of ``shown`` chooses; hidden otherwise."""
        view = shown.view
        choosing = bool(
            view is not None and not view.is_over and view.state.pending == CHOOSE_SUPPLY
        )
        self.widget.layout.display = "" if choosing else "none"
        if not choosing or view is None:
            self._chooser = None
            return
        rules: Any = view.rules
        state = view.state
        seat = state.current
        name = state.players[seat].name
        full = rules.full_pieces
        self.info.value = (
            f"<h3>{html.escape(name)}: choose your {rules.supply} pieces</h3>"
            f"<div class='ttr-note'>Keep exactly {rules.supply} of your {full['train']} trains "
            f"and {full['ship']} ships. The rest wait in your box: later, swapping pieces with "
            "the box costs 1 point each. Nobody sees your choice until everyone has chosen"
            " (hot seat: the others look away).</div>"
        )
        options = [a for a in shown.legal if isinstance(a, ChooseSupply)]
        if not options:  # not a human's choice now: show the range, choose nothing
            options = rules.supply_options()
        can = shown.acting and bool(shown.legal)
        self.offer(
            [(f"{a.trains} trains and {a.ships} ships", a) for a in options],
            can,
            shown.blocked() or "",
        )
        if self._chooser != (id(self.app.game), seat):
            self._chooser = (id(self.app.game), seat)
            neutral = neutral_supply(view)
            self.picker.value = neutral if neutral in options else options[0]
        marks = []
        for i, choice in enumerate(state.extras.get("supply_choices") or []):
            if choice is not None:
                what = "chosen"
            elif i == seat:
                what = "choosing now"
            else:
                what = "waiting"
            player = html.escape(state.players[i].name)
            marks.append(f"{panels.player_chip(i)}{player}: {what}")
        self.why_html.value = f"<div class='ttr-note ttr-supply-who'>{' · '.join(marks)}</div>"


class HarborPanel(ChoicePanel):
    """Build a harbor: choose the city among those allowed, then the cards (asked)."""

    def __init__(self, app: GameApp) -> None:
        super().__init__(
            app, "City:", "ttr-harbor-city", "Build a harbor", "ttr-build-harbor", ["ttr-harbor"]
        )
        self._builds: dict[str, list[BuildHarbor]] = {}

    def render(self, shown: Shown, seat: int) -> None:
        """Show the harbors ``seat`` may build in ``shown``."""
        view = shown.view
        assert view is not None
        rules: Any = view.rules
        player = view.state.players[seat]
        left = player.extras["harbors_left"]
        built = sorted(c for c, s in view.state.extras["harbors"].items() if s == seat)
        names = ", ".join(view.map.place_name(c) for c in built) or "none yet"
        points = " / ".join(str(p) for p in rules.harbor_points[1:])
        self.info.value = (
            f"<h3>Build a harbor</h3><div class='ttr-note'><b>Cost: {html.escape(HARBOR_COST)}."
            "</b> In a port city (ringed on the board) one of your routes reaches. Scores "
            f"{points} for 1 / 2 / 3+ of your completed tickets naming the city; "
            f"−{rules.unbuilt_harbor_penalty} for each harbor not built.<br>"
            f"Built: <b>{html.escape(names)}</b>; <b>{left}</b> of {rules.harbors_each} left."
            "</div>"
        )
        builds: dict[str, list[BuildHarbor]] = {}
        for action in shown.legal:
            if isinstance(action, BuildHarbor):
                builds.setdefault(action.city, []).append(action)
        self._builds = builds
        cities = sorted(builds, key=view.map.place_name)
        self.offer(
            [
                (f"{view.map.place_name(c)} ({count(len(builds[c]), 'way')} to pay)", c)
                for c in cities
            ],
            bool(builds),
            self._why_not(shown, seat),
        )
        self.picker.layout.display = "" if builds else "none"

    def _why_not(self, shown: Shown, seat: int) -> str:
        reason = shown.blocked()
        if reason:
            return reason
        view = shown.view
        assert view is not None
        rules: Any = view.rules
        state = view.state
        player = state.players[seat]
        if not player.extras["harbors_left"]:
            return f"You have built all {rules.harbors_each} of your harbors."
        if not rules.harbor_cities(state, seat):
            return (
                "No harbor is possible yet: claim a route into a port city without a harbor "
                "(port cities have a ring on the board)."
            )
        return f"You cannot pay for a harbor yet: it takes {HARBOR_COST}."

    def act(self, choice: Any) -> None:
        """Build the harbor ``choice`` names (asking which cards when several pay)."""
        self.app.act_one_of(self._builds.get(choice, []), self.note, near=self.ask_here)


class ExchangePanel(ChoicePanel):
    """Swap pieces of the supply for pieces of the other kind in the box (−1 point each)."""

    def __init__(self, app: GameApp) -> None:
        super().__init__(
            app, "Swap:", "ttr-exchange-picker", "Exchange", "ttr-exchange", ["ttr-exchange-box"]
        )
        self.picker.observe(app.guard(lambda _c: self._label_button()), names="value")
        self._cost = 1

    def render(self, shown: Shown, seat: int) -> None:
        """Show the legal piece exchanges of ``seat`` in ``shown``."""
        view = shown.view
        assert view is not None
        rules: Any = view.rules
        self._cost = rules.exchange_cost
        player = view.state.players[seat]
        box = panels.pieces_text(player.extras["box"])
        done = player.extras["exchanged"]
        self.info.value = (
            "<h3>Exchange pieces</h3><div class='ttr-note'><b>Cost: "
            f"{count(self._cost, 'point')} a piece</b>, and it is your whole turn: take "
            "pieces of one kind from your box, put as many of the other kind back. In your "
            f"box: <b>{html.escape(box)}</b>"
            + (f"; exchanged so far: {done} (−{done * self._cost})" if done else "")
            + ".</div>"
        )
        ui = self.app.ui
        options = [(ui.label(view, a), a) for a in shown.legal if isinstance(a, ExchangePieces)]
        self.offer(
            options,
            bool(options),
            shown.blocked() or "No exchange: your box or your supply has no piece to swap.",
        )
        self.picker.layout.display = "" if options else "none"
        self._label_button()

    def _label_button(self) -> None:
        action = self.picker.value
        self.button.description = (
            f"Exchange (−{count(action.count * self._cost, 'point')})"
            if isinstance(action, ExchangePieces)
            else "Exchange"
        )


class TourPicker:
    """Show one of the viewer's tours (held or offered) on the board, its cities numbered."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.chain: TourChain | None = None
        self.picker = picker(
            "Tour on the board:", "ttr-tour-picker", style={"description_width": "initial"}
        )
        self.picker.options, self.picker.value = [("(none)", NO_TOUR)], NO_TOUR
        self.picker.observe(app.guard(self._on_pick), names="value")
        self.widget = widgets.VBox([self.picker], _dom_classes=["ttr-tours"])
        self._syncing = False

    def render(self, view: Game, seat: int) -> None:
        """List the tours of ``seat`` in ``view`` to draw on the board."""
        player = view.state.players[seat]
        tours = [t for t in [*player.tickets, *player.offer] if self._is_tour(view, t)]
        options = [("(none)", NO_TOUR)] + [
            (" → ".join(view.map.place_name(c) for c in view.map.ticket_by_id[t].cities), t)
            for t in dict.fromkeys(tours)
        ]
        self.widget.layout.display = "" if tours else "none"
        if list(self.picker.options) == options:
            return
        keep = self.picker.value if any(v == self.picker.value for _, v in options) else NO_TOUR
        self._syncing = True
        try:
            self.picker.options = options
            self.picker.value = keep
        finally:
            self._syncing = False
        self._show(keep)

    def _is_tour(self, view: Game, ticket_id: int) -> bool:
        return bool(view.map.ticket_by_id[ticket_id].tour_values)

    def _on_pick(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self._show(change["new"])

    def _show(self, ticket_id: int) -> None:
        if self.chain is None:
            return
        wanted = None if ticket_id == NO_TOUR else ticket_id
        shown = self.chain.cities
        target = () if wanted is None else self.chain.board.map.ticket_by_id[wanted].cities
        if shown != target:
            self.chain.show(wanted)
