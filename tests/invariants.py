"""Invariants every position of every game keeps (imported as ``invariants``)."""

from __future__ import annotations

from typing import Any

from ttr_nb.game import Game


def starting_totals(game: Game) -> dict[str, Any]:
    """What the conservation checks compare with: cards, tickets and pieces at the deal."""
    return {
        "cards": sum(c.count for c in game.map.card_types),
        "tickets": len(game.map.tickets),
        "pieces": dict(game.state.players[0].pieces),
    }


def check_invariants(game: Game, totals: dict[str, Any]) -> None:
    """Cards, tickets and pieces conserved, no negative count, scores that add up."""
    state = game.state
    rules = game.rules
    cards = len(state.deck) + len(state.discard) + sum(c is not None for c in state.face_up)
    cards += sum(p.hand_size for p in state.players)
    assert cards == totals["cards"]
    assert all(n >= 0 for p in state.players for n in p.hand.values())
    assert all(n >= 0 for p in state.players for n in p.pieces.values())
    assert all(p.route_score >= 0 for p in state.players)
    tickets = sum(len(d) for d in state.ticket_decks.values())
    tickets += sum(len(p.tickets) + len(p.offer) for p in state.players)
    assert tickets == totals["tickets"]
    for i, p in enumerate(state.players):
        for kind, start in totals["pieces"].items():
            used = sum(
                game.map.route_by_id[r].length
                for r in p.routes
                if game.map.route_by_id[r].kind == kind
            )
            assert p.pieces[kind] + used == start
        assert sorted(p.routes) == sorted(r for r, o in state.owner.items() if o == i)
        assert p.route_score == rules.recomputed_route_score(state, p)
        assert game.scores()[i]["routes"] == p.route_score
    if game.is_over:
        assert game.legal_actions() == []
    else:
        assert game.legal_actions(), "no legal action before the end"
