"""The rules on one screen, open at any time: a *Rules* button above the board opens a
panel with what a turn may be, what routes score, how the game ends and is scored, and,
on a second page, the house rules (what this app decides where the rulebook is silent).

The words come from the variant's presentation (:meth:`VariantUI.rules_card`,
:meth:`VariantUI.house_rules`): the base class says the original game's rules with the
map's own figures (route points, the end trigger) and each variant adds its own; this
module never branches on the variant. The button is a native button (keyboard and screen
readers reach it) and says whether the panel is open.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ..maps import Map
from ..rules import playable_maps

if TYPE_CHECKING:
    from .app import GameApp

CARD_CSS = """
<style>
.ttr-rules-bar { align-items: center; gap: 6px; }
/* Over the page, not in its flow: the layout (wide or tall board, phone) stays as it is. */
.ttr-rules-card { border: 2px solid #1a5fb4 !important; background: #f6f9fe !important;
  position: fixed !important; top: 6vh; left: 50%; transform: translateX(-50%);
  width: min(1100px, 94vw); max-height: 86vh; overflow-y: auto !important; z-index: 1000;
  box-shadow: 0 6px 28px rgba(0, 0, 0, 0.35); }
/* A tall board's grid: the button at the end of the key's row. */
.ttr-app.ttr-tall-board .ttr-rules { grid-area: key; justify-self: end; }
.ttr-rules-card h3 { margin: 2px 0 6px 0; }
.ttr-rules-columns { display: flex; flex-wrap: wrap; gap: 8px 18px; }
.ttr-rules-columns section { flex: 1 1 260px; min-width: 0; }
.ttr-rules-columns h4 { margin: 2px 0 4px 0; font-size: 15px; }
.ttr-rules-columns ul { margin: 0 0 4px 18px; padding: 0; }
.ttr-rules-columns li { margin: 2px 0; }
.ttr-rules-points { border-collapse: collapse; margin: 2px 0 4px 0; }
.ttr-rules-points td, .ttr-rules-points th { border: 1px solid #c8d3e6; padding: 1px 7px;
  text-align: center; }
</style>
"""


@dataclass(frozen=True)
class RulesText:
    """One variant's rules card: each part a list of short sentences.

    ``turn``: what a turn may be; ``claiming``: how a route is paid for; ``end``: when the
    game ends; ``scoring``: what counts at the end; ``setup``: what each player starts with.
    """

    setup: tuple[str, ...] = ()
    turn: tuple[str, ...] = ()
    claiming: tuple[str, ...] = ()
    end: tuple[str, ...] = ()
    scoring: tuple[str, ...] = ()
    extra: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())


def route_points_html(game_map: Map) -> str:
    """The map's route scoring table (lengths the board has), as a small HTML table.

    >>> from ttr_nb.maps import load_map
    >>> "<td>15</td>" in route_points_html(load_map("usa"))
    True
    """
    lengths = sorted({r.length for r in game_map.routes})
    head = "".join(f"<th scope='col'>{n}</th>" for n in lengths)
    points = "".join(f"<td>{game_map.route_points(n)}</td>" for n in lengths)
    return (
        "<table class='ttr-rules-points'><tr><th scope='row'>spaces</th>"
        f"{head}</tr><tr><th scope='row'>points</th>{points}</tr></table>"
    )


def card_html(text: RulesText, game_map: Map) -> str:
    """The rules card as HTML: its parts side by side (they wrap on a narrow screen)."""

    def section(title: str, items: tuple[str, ...], more: str = "") -> str:
        if not items and not more:
            return ""
        lines = "".join(f"<li>{html.escape(i)}</li>" for i in items)
        return f"<section><h4>{html.escape(title)}</h4><ul>{lines}</ul>{more}</section>"

    parts = [
        section("On your turn, do one thing", text.turn),
        section("Claiming a route", text.claiming, route_points_html(game_map)),
        section("The end and the score", (*text.end, *text.scoring)),
        section("To start", text.setup),
        *(section(title, items) for title, items in text.extra),
    ]
    return f"<div class='ttr-rules-columns'>{''.join(parts)}</div>"


def house_html(rules: list[str]) -> str:
    """The house rules as HTML: one short paragraph each."""
    items = "".join(f"<li>{html.escape(r)}</li>" for r in rules)
    return (
        "<div class='ttr-rules-columns'><section><h4>Where the rulebook is silent, this app "
        f"decides</h4><ul>{items}</ul></section></div>"
    )


class RulesCard:
    """The *Rules* button and its panel (``app.rules_card``)."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        guard = app.guard
        self._shown_for: tuple[str, str] | None = None
        self.toggle = widgets.ToggleButton(
            value=False,
            description="Rules",
            tooltip="The rules on one screen: a turn, route points, the end (open at any time)",
            _dom_classes=["ttr-rules-button"],
            layout=widgets.Layout(width="auto", min_width="fit-content"),
        )
        self.pages = widgets.ToggleButtons(
            options=[("The rules", "rules"), ("House rules", "house")],
            value="rules",
            _dom_classes=["ttr-rules-pages"],
            style={"button_width": "auto"},
        )
        self.close_button = widgets.Button(
            description="Close the rules",
            _dom_classes=["ttr-rules-close"],
            layout=widgets.Layout(width="auto", min_width="fit-content"),
        )
        self.body = widgets.HTML(_dom_classes=["ttr-rules-body"])
        self.title = widgets.HTML(_dom_classes=["ttr-rules-title"])
        self.toggle.observe(guard(lambda _c: self.render()), names="value")
        self.pages.observe(guard(lambda _c: self.render(force=True)), names="value")
        self.close_button.on_click(guard(lambda _b: self.close()))
        self.panel = widgets.VBox(
            [
                widgets.HTML(CARD_CSS),
                self.title,
                self.pages,
                self.body,
                self.close_button,
            ],
            _dom_classes=["ttr-panel", "ttr-rules-card"],
            layout=widgets.Layout(display="none"),
        )
        self.widget = widgets.VBox(
            [widgets.HBox([self.toggle], _dom_classes=["ttr-rules-bar"]), self.panel],
            _dom_classes=["ttr-rules"],
        )

    @property
    def is_open(self) -> bool:
        """Is the panel open?"""
        return bool(self.toggle.value)

    def open(self, page: str = "rules") -> None:
        """Open the panel at ``page`` (``rules`` or ``house``)."""
        self.pages.value = page
        self.toggle.value = True

    def close(self) -> None:
        """Close the panel (the button takes the focus back on the page's side)."""
        self.toggle.value = False

    def render(self, force: bool = False) -> None:
        """Show or hide the panel; its words follow the map shown and the page chosen."""
        open_now = self.is_open
        self.panel.layout.display = "" if open_now else "none"
        self.toggle.description = "Close the rules" if open_now else "Rules"
        if not open_now:
            return
        game_map = self.app.map
        key = (game_map.id, str(self.pages.value))
        if key == self._shown_for and not force:
            return
        self._shown_for = key
        ui = self.app.ui
        self.title.value = f"<h3>The rules of {html.escape(game_map.name)}, on one screen</h3>"
        if game_map.id not in playable_maps():
            self.body.value = (
                "<p>This map's rules are not playable yet: the board can be explored only.</p>"
            )
        elif self.pages.value == "house":
            self.body.value = house_html(ui.house_rules())
        else:
            self.body.value = card_html(ui.rules_card(), game_map)
        self.app.scroller.show(".ttr-rules-card")


__all__ = ["RulesCard", "RulesText", "card_html", "house_html", "route_points_html"]
