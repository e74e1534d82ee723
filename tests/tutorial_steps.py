"""A scripted learner for the app's tutorial, without a browser (imported as
``tutorial_steps`` by the widget tests): each move is made with the control a learner
would use (a face-up card, a deck's button, the route on the board with a payment and
*Claim this route*, *Draw tickets* and the ticks, the variant's panels, the *Other move*
list)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ttr_nb.actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.variants.choice import ChoicePanel


def click_move(app: GameApp, action: Any) -> None:
    """Make ``action`` through the app's ordinary controls (answering the app's question
    when one click could mean several moves)."""
    if isinstance(action, DrawFaceUp):
        app.cards.face_up[action.slot].click()
    elif isinstance(action, DrawBlind):
        app.cards.deck_buttons[action.deck].click()
    elif isinstance(action, ClaimRoute):
        app.board.select(action.route)
        app.claim.payment_picker.value = action.cards
        app.claim.claim_button.click()
    elif isinstance(action, DrawTickets):
        app.cards.tickets_button.click()
    elif isinstance(action, KeepTickets):
        for box, ticket in zip(app.offer.boxes, app.offer.ticket_ids, strict=True):
            box.value = ticket in action.tickets
        app.offer.keep_button.click()
    elif not _variant_panel(app, action) and not _borrow_panel(app, action):
        app.cards.other_moves.value = action
        app.cards.other_button.click()
    if app.prompt.is_open:  # which of several moves: the one meant
        labels = [value for value in app.prompt._values]
        app.prompt.choose(labels.index(action) if action in labels else 0)


def frugal_move(game: Any, goal: Any) -> Any:
    """Another learner than *Show me*: the fewest tickets kept (short ones drawn), cards
    from the deck rather than face up, claims paid with the most wild cards, the last of
    any other choice; always a move on the way to the step's goal."""
    moves = [a for a in game.legal_actions() if goal.accepts(game, a)]
    assert moves, "no move on the way to the step's goal"

    def key(action: Any) -> Any:
        if isinstance(action, KeepTickets):
            return (0, len(action.tickets), action.tickets)
        if isinstance(action, DrawTickets):
            return (0, action.long, ())
        if isinstance(action, DrawBlind):
            return (1, 0, ())
        if isinstance(action, DrawFaceUp):
            return (2, -action.slot, ())
        if isinstance(action, ClaimRoute):
            wilds = sum(n for c, n in action.cards if game.map.card_by_id[c].wild)
            return (3, -wilds, ())
        return (4, -moves.index(action), ())

    return min(moves, key=key)


def finish_step(
    app: GameApp, limit: int = 10, choose: Callable[[Any, Any], Any] | None = None
) -> int:
    """Make the step's moves with the controls until it is done (``choose(game, goal)``
    picks each; by default what *Show me* would play); the number of moves."""
    tutorial = app.tutorial
    moves = 0
    while not tutorial.step_done and moves < limit:
        goal = tutorial.step.goal
        action = choose(app.game, goal) if choose else goal.show_move(app.game)
        assert action is not None, f"{tutorial.step.key}: no move on the way"
        before = len(app.game.history)
        click_move(app, action)
        assert len(app.game.history) > before, (
            f"{tutorial.step.key}: {action} was not made: {tutorial.feedback.text}"
        )
        moves += 1
    return moves


def _variant_panel(app: GameApp, action: Any) -> bool:
    """Make ``action`` with the variant's own panel that offers it (Märklin's *Move a
    passenger*, World's supply, harbors and exchanges), if one does."""
    panels = [p for p in vars(app.ui).values() if isinstance(p, ChoicePanel)]
    for panel in panels:
        start = getattr(action, "start", None)
        passenger = getattr(panel, "passenger", None)
        if passenger is not None and start in [v for _, v in passenger.options]:
            passenger.value = start
        values = [value for _, value in panel.picker.options]
        for value in (action, getattr(action, "city", None)):  # a harbor is chosen by city
            if value is not None and value in values:
                panel.picker.value = value
                panel.button.click()
                return True
    return False


def _borrow_panel(app: GameApp, action: Any) -> bool:
    """Choose the routes Europe's stations borrow at the end, one list per station, and
    press *Use these routes*, if the variant has that panel and ``action`` is such a choice."""
    routes = dict(getattr(action, "routes", ()))
    for panel in vars(app.ui).values():
        boxes = getattr(getattr(panel, "pickers", None), "children", ())
        if routes and boxes and {getattr(b, "city", None) for b in boxes} == set(routes):
            for box in boxes:
                box.value = routes[box.city]
            panel.button.click()
            return True
    return False
