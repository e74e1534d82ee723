"""Invariants every position of every game keeps (imported as ``invariants``)."""

from __future__ import annotations

from typing import Any

from ttr_nb.game import Game


def starting_totals(game: Game) -> dict[str, Any]:
    """What the conservation checks compare with, taken at the deal: cards, tickets, and
    the totals the rules report as conserved (pieces, a second deck, harbors, ...)."""
    return {
        "cards": sum(c.count for c in game.map.card_types),
        "tickets": len(game.map.tickets),
        "conserved": game.rules.conserved_counts(game.state),
    }


def _counts(value: Any) -> list[int]:
    """Every whole number inside a piece of variant state (lists and dicts, recursively)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    items = value.values() if isinstance(value, dict) else value
    if isinstance(items, str) or not hasattr(items, "__iter__"):
        return []
    return [n for item in items for n in _counts(item)]


def check_invariants(game: Game, totals: dict[str, Any]) -> None:
    """Cards, tickets and pieces conserved, no negative count, scores that add up."""
    state = game.state
    rules = game.rules
    cards = sum(c is not None for c in state.face_up)
    for deck in rules.deck_names:
        pile, discard = rules.piles(state, deck)
        cards += len(pile) + len(discard)
    cards += sum(p.hand_size for p in state.players)
    assert cards == totals["cards"]
    assert all(n >= 0 for p in state.players for n in p.hand.values())
    assert all(n >= 0 for p in state.players for n in p.pieces.values())
    assert all(n >= 0 for p in state.players for n in _counts(p.extras))
    assert all(n >= 0 for n in _counts(state.extras))
    assert all(p.route_score >= 0 for p in state.players)
    tickets = sum(len(d) for d in state.ticket_decks.values())
    tickets += sum(len(p.tickets) + len(p.offer) for p in state.players)
    assert tickets == totals["tickets"]
    assert rules.conserved_counts(state) == totals["conserved"]
    for i, p in enumerate(state.players):
        assert sorted(p.routes) == sorted(r for r, o in state.owner.items() if o == i)
        assert p.route_score == rules.recomputed_route_score(state, p)
        assert game.scores()[i]["routes"] == p.route_score
    if game.is_over:
        assert game.legal_actions() == []
    else:
        assert game.legal_actions(), "no legal action before the end"
