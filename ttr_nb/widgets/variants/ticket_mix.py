"""Presentation of a short and a long ticket deck with a chosen split (Germany, Märklin).

Rules built on :class:`~ttr_nb.rules.two_decks.TwoTicketDecks` offer one
``DrawTickets(long=k)`` per possible split. :class:`TicketMixUI` asks for the
split in words when *Draw tickets* is clicked, and asks at once when a human's
first tickets are due at setup (there is nothing else to do then). A variant
with two ticket decks subclasses it.
"""

from __future__ import annotations

from typing import Any

from ...actions import DrawTickets
from ...game import Game
from ...rules.two_decks import LONG, SHORT, TwoTicketDecks
from ..controls import count
from .base import Shown, VariantUI


def points_range(view: Game, deck: str, stated: tuple[int, int] | None = None) -> str:
    """``2–11 points``: the values of the tickets of one deck (on the whole map).

    ``stated`` is the range the rulebook gives; a card printed outside it is named, so a
    student comparing the two finds the reason here: ``2–11 points (the rulebook says 3
    to 11, but the Mannheim–Stuttgart card is printed with 2)``.
    """
    tickets = [t for t in view.map.tickets if t.deck == deck]
    if not tickets:
        return "no tickets"
    values = [t.points for t in tickets]
    low, high = min(values), max(values)
    text = f"{low} points" if low == high else f"{low}–{high} points"
    if stated is None:
        return text
    outside = [t for t in tickets if not stated[0] <= t.points <= stated[1]]
    if not outside:
        return text
    cards = " and ".join(
        f"the {'–'.join(view.map.place_name(c) for c in t.cities)} card is printed with {t.points}"
        for t in outside[:2]
    )
    more = f" ({len(outside) - 2} more like it)" if len(outside) > 2 else ""
    return f"{text} (the rulebook says {stated[0]} to {stated[1]}, but {cards}{more})"


def ticket_mix_question(view: Game, stated: dict[str, tuple[int, int]] | None = None) -> str:
    """How many of the tickets to draw should be long, with what each deck holds."""
    rules = view.rules
    assert isinstance(rules, TwoTicketDecks)
    state = view.state
    n = rules.draw_size(state)
    setup = state.phase == "setup"
    keep = rules.setup_ticket_keep if setup else rules.ticket_keep
    shorts, longs = rules.deck_sizes(state)
    first = "Your first tickets: you" if setup else "You"
    ranges = stated or {}
    return (
        f"{first} draw {count(n, 'ticket')} and keep at least {keep}. How many should come "
        f"from the long deck? Long tickets are worth {points_range(view, LONG, ranges.get(LONG))}"
        f" but join distant places; short ones {points_range(view, SHORT, ranges.get(SHORT))}. "
        f"Left: {shorts} short, {longs} long."
    )


def ticket_mix_label(view: Game, action: DrawTickets) -> str:
    """``3 short, 1 long`` for one split of the draw."""
    rules = view.rules
    assert isinstance(rules, TwoTicketDecks)
    n = rules.draw_size(view.state)
    if not 0 <= action.long <= n:
        return rules.describe(view, action, imperative=True)
    return f"{n - action.long} short, {action.long} long"


class TicketMixUI(VariantUI):
    """A :class:`VariantUI` for rules with a short and a long ticket deck."""

    # The point ranges of each deck as the variant's rulebook gives them (a card printed
    # outside its range is named in the question).
    rulebook_points: dict[str, tuple[int, int]] = {}

    def choice_question(self, view: Game, actions: list[Any]) -> str:
        if actions and all(isinstance(a, DrawTickets) for a in actions):
            return ticket_mix_question(view, self.rulebook_points)
        return super().choice_question(view, actions)

    def label(self, view: Game, action: Any) -> str:
        if isinstance(action, DrawTickets):
            return ticket_mix_label(view, action)
        return super().label(view, action)

    def render(self, shown: Shown) -> None:
        self.ask_first_tickets(shown)

    def ask_first_tickets(self, shown: Shown) -> None:
        """At setup, ask the human to move for the split at once (unless a question is open)."""
        view = shown.view
        if view is None or not shown.acting or self.app.prompt.is_open:
            return
        rules = view.rules
        if not isinstance(rules, TwoTicketDecks) or not rules.in_setup_draw(view.state):
            return
        draws = [a for a in shown.legal if isinstance(a, DrawTickets)]
        if len(draws) > 1:  # one split only: the Draw tickets button takes it
            self.app.act_one_of(draws, self.app.cards.note)
