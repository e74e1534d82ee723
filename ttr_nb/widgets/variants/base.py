"""The variant interface of the app, and the USA rules' presentation (the default)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ...actions import ClaimRoute
from ...game import Game
from ...maps import CardType, Route
from ...rules import Rules, rules_for
from .. import panels, style
from ..controls import count
from ..rules_card import RulesText

if TYPE_CHECKING:
    from ..app import GameApp
    from ..board import FactProvider, PieceHit, PiecePainter


@dataclass
class Shown:
    """What the app shows after a change, computed once and handed to every panel."""

    view: Game | None  # the game at the shown position (None: explore mode)
    legal: list[Any] = field(default_factory=list)  # what the human to move may do now
    acting: bool = False  # a human may act (latest position, their turn, game not over)
    in_past: bool = False  # an earlier position of the timeline is shown
    viewer: int | None = None  # whose hand and tickets are shown

    def blocked(self) -> str | None:
        """Why the learner cannot act at all now (over, the past, not their turn, a step to
        finish first), or None."""
        view = self.view
        if view is None or view.is_over:
            return "The game is over."
        if self.in_past:
            return "You are looking at an earlier move: go to the latest move to play."
        if not self.acting:
            return "Wait for your turn."
        if view.state.pending is not None:
            return "Finish the current step first (the second card, or the tickets to keep)."
        return None


@dataclass(frozen=True)
class CardRow:
    """One row of the cards panel: a title, face-up slots, and the deck whose draw button
    ends the row (None: the deck buttons stay in their own row)."""

    title: str
    slots: tuple[int, ...]
    deck: str | None = None


class VariantUI:
    """How the app presents one rules variant; this base class presents the USA rules.

    Subclasses override what their rules add: pieces drawn on the board, facts
    shown on hover, panels in the play column, labels of choices, columns of the
    players' table and sections of the end screen.
    """

    rules = "usa"

    def __init__(self, app: GameApp) -> None:
        self.app = app

    # --------------------------------------------------------------- board
    def board_painters(self) -> list[PiecePainter]:
        """Painters for the pieces layer (passengers, harbors, tokens)."""
        return []

    def fact_providers(self) -> list[FactProvider]:
        """Extra hover facts for routes and places."""
        return []

    # -------------------------------------------------------------- panels
    def panels(self) -> list[widgets.Widget]:
        """Extra panels shown in the play column, under the main actions."""
        return []

    def piece_hits(self) -> list[PieceHit]:
        """Pieces a click may land on instead of their place (Märklin's passenger discs)."""
        return []

    def top_panels(self) -> list[widgets.Widget]:
        """Panels shown above the cards, where the player looks first (a setup choice)."""
        return []

    def render(self, shown: Shown) -> None:
        """Bring the extra panels (both kinds) up to date."""

    def city_clicked(self, place: str) -> None:
        """A city (or another place) was clicked on the board; the base game has no use
        for it (routes are what a click selects)."""

    def handles(self, action: Any) -> bool:
        """Does one of the variant's panels offer this action? (Then the generic
        *Other move* list leaves it out.)"""
        return False

    def card_rows(self, view: Game) -> list[CardRow]:
        """How the face-up cards are grouped: one untitled row of every slot."""
        return [CardRow("", tuple(range(len(view.state.face_up))))]

    # --------------------------------------------------------------- words
    def label(self, view: Game, action: Any) -> str:
        """A choice as a button or list label: ``Claim Denver–Omaha (4 blue) with ...``."""
        text = view.rules.describe(view, action, imperative=True)
        return text[:1].upper() + text[1:]

    def card_name(self, card: CardType) -> str:
        """A card's short name on buttons and in the hand (``red``, ``locomotive``)."""
        return panels.card_name(card)

    def hand_note(self, view: Game, seat: int) -> str:
        """HTML under the hand explaining the variant's special cards held ("" for none)."""
        return ""

    def ticket_text(self, view: Game, ticket_id: int) -> str:
        """A ticket in the hand, the offer and the end screen: ``Denver → El Paso (4 points)``."""
        return panels.ticket_text(view.map, ticket_id)

    def ticket_progress(self, view: Game, seat: int, ticket_id: int) -> str | None:
        """How far ``seat`` is with a ticket, when ✓ done / ○ says too little (None)."""
        return None

    def claim_label(self, view: Game, action: ClaimRoute) -> str:
        """How one way of claiming the selected route reads in the payment list."""
        return panels.describe_payment(view.map, action.cards)

    def move_words(self, view: Game, action: Any) -> str:
        """A move of the variant's own in the status line's list of what the player can
        do (``move a passenger``); the base game has none."""
        return "make another move"

    def route_cost(self, view: Game, route: Route) -> str:
        """What paying for ``route`` takes, in words: ``4 blue cards (locomotives count as
        any colour)``."""
        sw = style.swatch(route.color)
        colour = "cards of any one colour" if route.color == "gray" else f"{sw.name} cards"
        return f"{route.length} {colour} (locomotives count as any colour)"

    def step_text(self, view: Game) -> str | None:
        """What the player to move must do in a step of the variant's own (a setup
        choice), in the imperative; None for the usual steps."""
        return None

    def claim_note(self, view: Game, route_id: int) -> str:
        """What else claiming the selected route does, in a sentence ("" for nothing)."""
        return ""

    def choice_question(self, view: Game, actions: list[Any]) -> str:
        """The question asked when one click could mean several of ``actions``."""
        return "Which one?"

    def choices(self, view: Game, actions: list[Any]) -> list[tuple[str, Any]]:
        """The answers to :meth:`choice_question`, labelled, in the order offered (the
        first is chosen until the player picks another)."""
        return [(self.label(view, a), a) for a in actions]

    def colour_key(self) -> str:
        """The legend of colour letters shown under the title."""
        return (
            "Letters mark colours: P purple, B blue, O orange, W white, G green, Y yellow, "
            "K black, R red, L locomotive; gray routes take any one colour. Claimed routes "
            "show their owner's seat number."
        )

    # ------------------------------------------------------------ the rules card
    def rules_card(self) -> RulesText:
        """The rules on one screen (the *Rules* button): the original game's, with the
        map's own figures. A variant adds or replaces parts."""
        rules = self.map_rules()
        pieces = panels.pieces_text(rules.starting_pieces())
        trigger, turns = rules.end_trigger_pieces, rules.final_turns_each
        scoring = ["Each ticket completed adds its points; each one missed takes them away."]
        ties = "Equal points: the most completed tickets wins"
        if "longest_path" in rules.bonus_points:
            scoring.append(
                f"The longest continuous path of one's own routes scores "
                f"{rules.bonus_points['longest_path']} (a tie: each scores it)."
            )
            ties += ", then the longest-path bonus"
        return RulesText(
            setup=(
                f"Each player: {rules.starting_hand} train cards and {pieces}.",
                f"{count(rules.setup_ticket_deal, 'ticket')} offered: keep at least "
                f"{rules.setup_ticket_keep} (each one missed costs its points).",
            ),
            turn=(
                "Take 2 train cards, each from the face-up row or the top of the deck. A "
                "face-up locomotive is the whole draw, and never a second card; one drawn "
                "from the deck is wild and the draw goes on.",
                "Or claim 1 route.",
                f"Or draw {count(rules.ticket_deal, 'ticket')} and keep at least "
                f"{rules.ticket_keep}.",
            ),
            claiming=(
                "Hand in as many cards of the route's colour as it has spaces: a gray route "
                "takes any one colour, locomotives stand in for any colour.",
                "Any open route: it need not join your own.",
                "Not with fewer trains left than its spaces.",
                "Double routes: never both tracks; with 2 or 3 players only one is used.",
                "A route scores at once:",
            ),
            end=(
                f"When a player ends a turn with {trigger} trains or fewer, every player, that "
                f"one too, plays {count(turns, 'more turn')}; then the game ends.",
            ),
            scoring=(*scoring, f"{ties}."),
        )

    def house_rules(self) -> list[str]:
        """What this app decides where the rulebook is silent (the card's second page)."""
        return [
            "No legal move at all (no card to draw, no ticket left, no route you can pay "
            "for): you pass. When everyone passes in a row, the game ends and is scored.",
            "An empty face-up slot (the deck and the discards ran out) stays empty until a "
            "claim puts cards back on the discard pile.",
            "Three face-up locomotives reset the row at most 5 times in a row.",
            "The longest-path bonus needs at least one route.",
            "A game ends after 3,000 moves at the latest (real games take 100 to 700).",
            "If points, completed tickets and the tie-breaks are all equal, the tied players "
            "share the victory.",
        ]

    def map_rules(self) -> Rules:
        """The rules of the map shown (explore mode too: what its rules would be)."""
        return rules_for(self.app.map)

    # ------------------------------------------------------------ scoring
    def player_columns(self, view: Game) -> list[tuple[str, list[str]]]:
        """Extra columns of the players' table: (title, HTML per player)."""
        return []

    def end_sections(self, view: Game) -> list[str]:
        """Extra HTML sections of the end screen (majorities, harbors, ...)."""
        return []


VARIANT_UIS: dict[str, type[VariantUI]] = {"usa": VariantUI}


def register(rules: str) -> Any:
    """Class decorator: ``@register("germany")`` makes the app use the class for those rules."""

    def add(cls: type[VariantUI]) -> type[VariantUI]:
        cls.rules = rules
        VARIANT_UIS[rules] = cls
        return cls

    return add


def ui_class(rules: str) -> type[VariantUI]:
    """The presentation for ``rules`` (the USA one for rules without their own)."""
    return VARIANT_UIS.get(rules, VariantUI)
