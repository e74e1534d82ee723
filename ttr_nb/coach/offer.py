"""Tickets on offer: what each offered ticket would add to my plan.

When a seat has tickets to choose from (the deal, or a ticket draw), the coach plans
again with each offered ticket added to the tickets already held: the extra spaces it
would cost, against the points it brings and the penalty if it fails. A ticket the
plan already passes through is nearly free; one far from it costs many trains. It then
plans the cheapest choice the rules allow (the fewest extra spaces among the smallest
keeps), so a learner sees the trade before deciding rather than keeping everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..algorithms import steiner_forest
from ..algorithms.steiner import MAX_EXACT_WORK
from ..game import Game
from .hint import Hint, plural_s
from .lessons import ALGORITHMS
from .plan import Plan, TicketNote
from .supply import pieces_words
from .view import board_of, demand_of, unavailable_to

__all__ = ["OfferNote", "offer_hint", "offer_notes"]

MAX_COMBINATIONS = 12  # keeps compared for the cheapest choice (an offer has 2 to 5 tickets)
# The exact method's work shared by the offered tickets' plans, and again by the keeps'
# (past it, the greedy approximation): the whole hint stays well within 200 ms.
OFFER_WORK = MAX_EXACT_WORK // 2


@dataclass(frozen=True)
class OfferNote:
    """One offered ticket: its words and points, the spaces it adds to the plan (None:
    no plan can complete it any more), and whether that figure is exact."""

    ticket: TicketNote
    extra: int | None
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """The note as plain JSON data."""
        return {"ticket": self.ticket.to_dict(), "extra_spaces": self.extra, "exact": self.exact}


def _spaces(
    view: Game, seat: int, tickets: list[int], added: int, max_exact_work: int = MAX_EXACT_WORK
) -> tuple[int | None, bool]:
    """Spaces still to claim for ``tickets`` (None when one of the last ``added`` of them
    cannot be completed any more; a held ticket that cannot be is left out, as the plan
    leaves it out), and whether that is exact."""
    game_map = view.map
    player = view.state.players[seat]
    forest = steiner_forest(
        board_of(game_map),
        [demand_of(game_map, t) for t in tickets],
        owned=frozenset(player.routes),
        unavailable=unavailable_to(view, seat),
        dead_ends=game_map.dead_ends,
        max_exact_work=max_exact_work,
    )
    if any(i >= len(tickets) - added for i in forest.unreachable):
        return None, forest.exact
    return forest.spaces, forest.exact


def offer_notes(view: Game, seat: int, plan: Plan) -> tuple[OfferNote, ...]:
    """What each ticket on offer to ``seat`` adds to ``plan`` (empty: no offer).

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> from ttr_nb.coach.plan import my_plan
    >>> from ttr_nb.coach.view import seat_view
    >>> game = new_game("usa", 2, seed=3)
    >>> view = seat_view(game, 0)
    >>> notes = offer_notes(view, 0, my_plan(view, 0))
    >>> len(notes), all(n.extra is not None and n.extra > 0 for n in notes)
    (3, True)

    Notes
    -----
    One Steiner forest per offered ticket, each with the held tickets' ends and the
    ticket's own (:func:`ttr_nb.algorithms.steiner_forest`: exact while small, else
    approximate). The forests share ``OFFER_WORK`` of the exact method's work (about
    3^ends x places each), so the hint costs about as much as one exact plan.
    """
    player = view.state.players[seat]
    held = list(player.tickets)
    notes = []
    work = OFFER_WORK // max(1, len(player.offer))
    for ticket in player.offer:
        spaces, exact = _spaces(view, seat, [*held, ticket], 1, work)
        extra = None if spaces is None else spaces - plan.full_spaces
        notes.append(OfferNote(TicketNote.of(view.map, ticket), extra, exact and plan.exact))
    return tuple(notes)


def cheapest_keep(view: Game, seat: int, plan: Plan) -> tuple[tuple[int, ...], int, bool] | None:
    """The smallest keep the rules allow that adds the fewest spaces to ``plan``: its
    tickets, the spaces it adds and whether that is exact (None when no such keep can be
    completed). The keeps share ``OFFER_WORK`` of the exact method's work; past it they
    are compared by the greedy approximation."""
    player = view.state.players[seat]
    least = view.rules.min_keep(view.state, player)
    keeps = list(combinations(player.offer, least))[:MAX_COMBINATIONS]
    work = OFFER_WORK // max(1, len(keeps))
    best: tuple[tuple[int, ...], int, int, bool] | None = None
    for keep in keeps:
        spaces, exact = _spaces(view, seat, [*player.tickets, *keep], len(keep), work)
        if spaces is None:
            continue
        points = sum(TicketNote.of(view.map, t).points for t in keep)
        found = (keep, spaces - plan.full_spaces, points, exact and plan.exact)
        if best is None or (found[1], -found[2]) < (best[1], -best[2]):
            best = found
    return None if best is None else (best[0], best[1], best[3])


def offer_hint(view: Game, seat: int, plan: Plan) -> Hint | None:
    """The *Tickets on offer* hint, or None when the seat has no tickets to choose."""
    notes = offer_notes(view, seat, plan)
    if not notes:
        return None
    pieces = sum(plan.pieces.values())
    lines = [
        "What each offered ticket adds to the plan completing the tickets you hold "
        f"({plan.full_spaces} space{plural_s(plan.full_spaces)} now; you have "
        f"{pieces_words(plan.pieces)}):"
    ]
    for note in notes:
        t = note.ticket
        if note.extra is None:
            cost = "cannot be completed any more: it would cost its points"
        elif note.extra == 0:
            cost = "adds no space: your plan already joins its ends"
        else:
            cost = f"adds {note.extra} space{plural_s(note.extra)}"
        about = "" if note.exact else " (about)"
        lines.append(f"  {t.name} ({t.points} points): {cost}{about}")
    extras = [n.extra for n in notes if n.extra is not None]
    if extras and plan.full_spaces + min(extras) > pieces:
        lines.append("Even the cheapest ticket would take more pieces than you have left.")
    best = cheapest_keep(view, seat, plan)
    exact = all(n.exact for n in notes)
    data: dict[str, Any] = {"offer": [n.to_dict() for n in notes], "fewest_spaces_keep": None}
    if best is not None:
        keep, extra, keep_exact = best
        exact = exact and keep_exact
        names = ", ".join(TicketNote.of(view.map, t).name for t in keep)
        points = sum(TicketNote.of(view.map, t).points for t in keep)
        about = "" if keep_exact else "about "
        lines.append(
            f"The fewest spaces the rules allow: {names} ({about}+{extra} "
            f"space{plural_s(extra)}, {points} points). Fewest is not always best: more "
            "points may be worth more spaces."
        )
        data["fewest_spaces_keep"] = {"tickets": list(keep), "extra_spaces": extra}
    return Hint(
        "offer",
        "Tickets on offer",
        tuple(lines),
        ALGORITHMS["steiner-exact" if exact else "steiner-greedy"],
        data=data,
    )
