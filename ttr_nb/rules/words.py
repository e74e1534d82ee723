"""The shared rules' words: actions, payments and cards as a player says them.

A mixin of :class:`~ttr_nb.rules.base.Rules`; a variant names its own actions
through ``describe_extra`` and its cards through ``card_name`` and ``count_text``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    Payment,
    describe_cards,
    shape_problem,
    short,
)

if TYPE_CHECKING:
    from .game_view import GameView as Game  # the game imports the rules, not the reverse


class RuleWords:
    """Log lines and refusal texts (needs ``self.map``, ``self.cards``, ``deck_names``
    and ``pickup_text``)."""

    def describe(self, game: Game, action: Any, imperative: bool = False) -> str:
        """Readable text for an action by the current player, computed before it happens.

        The log form names the player (``Ann claims Denver–Omaha ...``); the
        imperative form (``claim Denver–Omaha ...``) goes into error messages.
        Blind draws and kept tickets are described without revealing cards.
        """
        state = game.state
        several = len(self.deck_names) > 1
        if shape_problem(action) is not None:
            words = _ACTION_WORDS.get(type(action).__name__) or getattr(
                type(action), "malformed_words", ("play", "an unknown action")
            )
        elif isinstance(action, DrawFaceUp):
            slot = action.slot
            card = state.face_up[slot] if 0 <= slot < len(state.face_up) else None
            words = (
                "take",
                f"the face-up {self.card_name(card)}"
                if card
                else f"face-up card {short(slot + 1)}",
            )
            if several:
                words = (words[0], f"{words[1]}, refilling from the {action.refill} deck")
        elif isinstance(action, DrawBlind):
            plain = action.deck == "train" and not several
            deck = "the deck" if plain else f"the {action.deck} deck"
            words = ("draw", f"a card from {deck}")
        elif isinstance(action, ClaimRoute):
            route = self.map.route_by_id.get(action.route)
            label = self.map.route_label(route) if route else f"route {action.route}"
            picks = self.pickup_text(state, route, action.pickups)
            words = ("claim", f"{label} with {self.payment_text(action.cards)}{picks}")
        elif isinstance(action, DrawTickets):
            words = ("draw", "tickets" + (f" ({action.long} long)" if action.long else ""))
        elif isinstance(action, KeepTickets):
            n = len(action.tickets)
            words = ("keep", f"{n} ticket{'s' if n != 1 else ''}")
        elif isinstance(action, Pass):
            words = ("pass", "(no legal action)")
        else:
            words = self.describe_extra(game, action)
        verb, rest = words
        rest = rest.strip()
        if imperative:
            return f"{verb} {rest}" if not isinstance(action, Pass) else "pass"
        name = state.players[state.current].name
        return f"{name} {_third_person(verb)} {rest}".strip()

    def payment_text(self, cards: Payment) -> str:
        """``3 purple cards + 2 locomotives``: colour cards first, wild cards last."""
        known = [(cid, n) for cid, n in cards if cid in self.cards]
        if len(known) != len(cards):
            return describe_cards(cards)
        ordered = sorted(known, key=lambda pair: (self.cards[pair[0]].wild, pair[0]))
        return " + ".join(self.count_text(cid, n) for cid, n in ordered)

    def card_name(self, card_id: str) -> str:
        """What a player calls one card of this kind (``red``, ``locomotive``)."""
        return card_id

    def count_text(self, card_id: str, n: int) -> str:
        """``1 red card``, ``3 red cards``, ``2 locomotives``: a number of one kind of card."""
        card = self.cards[card_id]
        noun = card.id if card.wild else f"{card.id} card"
        return f"{n} {noun}{'' if n == 1 else 's'}"

    def describe_extra(self, game: Game, action: Any) -> tuple[str, str]:
        """Variant hook: (verb, rest) words for a variant-only action."""
        return ("do", str(action))


# How a malformed action is named in its refusal (its own fields cannot be trusted).
_ACTION_WORDS = {
    "DrawFaceUp": ("take", "a face-up card"),
    "DrawBlind": ("draw", "a card"),
    "ClaimRoute": ("claim", "a route"),
    "DrawTickets": ("draw", "tickets"),
    "KeepTickets": ("keep", "tickets"),
}


def _third_person(verb: str) -> str:
    return verb + ("es" if verb.endswith(("s", "sh", "ch")) else "s")
