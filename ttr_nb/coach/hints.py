"""All the coach's hints for one seat and position, as words and as data."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..game import Game
from .hint import Hint, plural_s
from .lessons import ALGORITHMS
from .offer import offer_hint
from .plan import Plan, my_plan, ticket_name
from .review import review_hints
from .variants import variant_hints
from .view import seat_view
from .weak import Heading, RouteLoss, TicketCutNote, opponents_heading, route_losses, ticket_cuts
from .why import WhyRecord

__all__ = ["Coaching", "coach"]

SHOWN_LOSSES = 4
SHOWN_CUTS = 3


@dataclass(frozen=True)
class Coaching:
    """Everything the coach says to one seat about one position.

    Attributes
    ----------
    seat : int
        The seat coached (0-based; shown 1-based).
    plan : Plan or None
        None once the game is over: then the coach only reviews the game.
    losses : tuple of RouteLoss
    cuts : tuple of TicketCutNote
    heading : tuple of Heading
    hints : tuple of Hint
        The hints in the order shown: plan, tickets on offer, weak spots, opponents, the
        variant's, why; once the game is over, the end-of-game review and why.
    seconds : float
        How long the coach took.
    """

    game: Game
    seat: int
    plan: Plan | None
    losses: tuple[RouteLoss, ...]
    cuts: tuple[TicketCutNote, ...]
    heading: tuple[Heading, ...]
    hints: tuple[Hint, ...]
    why: WhyRecord | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The coaching as plain JSON data (``ttr-nb hint --json``)."""
        game = self.game
        return {
            "map": game.map.id,
            "seat": self.seat + 1,
            "player": game.names[self.seat],
            "moves": len(game.history),
            "phase": game.phase,
            "plan": None if self.plan is None else self.plan.to_dict(),
            "weak_spots": {
                "routes": [loss.to_dict() for loss in self.losses],
                "cuts": [cut.to_dict() for cut in self.cuts],
                "opponents": [h.to_dict(game.map) for h in self.heading],
            },
            "why": None if self.why is None else self.why.to_dict(),
            "hints": [hint.to_dict() for hint in self.hints],
        }

    def text(self) -> str:
        """Every hint as plain text, under a line naming the seat, the map and the move."""
        over = ": the game is over. End-of-game review" if self.game.is_over else ""
        head = (
            f"Coach for seat {self.seat + 1} ({self.game.names[self.seat]}), "
            f"{self.game.map.name}, after move {len(self.game.history)}{over}"
        )
        return "\n\n".join([head, *(hint.text() for hint in self.hints)])


def coach(game: Game, seat: int, why: WhyRecord | None = None) -> Coaching:
    """The coach's hints for ``seat`` (0-based) in ``game``'s current position, computed
    from what that seat may know only; ``why`` adds the words for a bot's last move.

    Once the game is over there is nothing left to play for: the coach then gives the
    end-of-game review (:func:`~ttr_nb.coach.review_hints`, every ticket being public)
    and *Why that move*, and no plan.

    Raises
    ------
    ValueError
        For a seat that is not at the table.

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", 2, seed=3)
    >>> game.apply(game.legal_actions()[-1])
    >>> advice = coach(game, 0)
    >>> [hint.kind for hint in advice.hints]
    ['plan', 'weak-spots', 'cuts']
    >>> advice.hints[0].algorithm.lesson
    'graphs_5_steiner.ipynb'
    """
    start = time.perf_counter()
    if game.is_over:
        if not 0 <= seat < game.num_players:
            raise ValueError(f"there is no seat {seat + 1} at a table of {game.num_players}")
        hints = review_hints(game)
        if why is not None:
            hints.append(why.hint(game, seat))
        seconds = time.perf_counter() - start
        return Coaching(game, seat, None, (), (), (), tuple(hints), why, seconds)
    view = seat_view(game, seat)
    plan = my_plan(view, seat)
    losses = route_losses(view, seat, plan)
    cuts = ticket_cuts(view, seat, plan)
    heading = opponents_heading(view, seat, plan)
    hints = [Hint("plan", "My plan", tuple(plan.lines(game)), plan.algorithm, plan.routes)]
    offer = offer_hint(view, seat, plan)
    if offer is not None:
        hints.append(offer)
    hints += _weak_hints(game, plan, losses, cuts)
    if heading:
        hints.append(_heading_hint(game, heading))
    hints += variant_hints(view, seat, plan)
    if why is not None:
        hints.append(why.hint(game, seat))
    return Coaching(
        game,
        seat,
        plan,
        losses,
        cuts,
        heading,
        tuple(hints),
        why,
        time.perf_counter() - start,
    )


def _label(game: Game, rid: int) -> str:
    return game.map.route_label(game.map.route_by_id[rid])


def _link_label(game: Game, link: tuple[int, ...]) -> str:
    """A cut's link: its route and, when it has several open tracks, whether one claim
    closes them all (few players) or each needs its own claim."""
    label = _label(game, link[0])
    if len(link) == 1:
        return label
    others = "its other track" if len(link) == 2 else f"its {len(link) - 1} other tracks"
    if game.num_players <= game.rules.closed_parallel_max_players:
        return f"{label} or {'one of ' if len(link) > 2 else ''}{others}"
    return f"{label} and {others}"


def _weak_hints(
    game: Game, plan: Plan, losses: tuple[RouteLoss, ...], cuts: tuple[TicketCutNote, ...]
) -> list[Hint]:
    out = []
    if losses:
        lines = [
            "If an opponent claimed one of your planned routes first (your plan made again "
            "without it):"
        ]
        for loss in losses[:SHOWN_LOSSES]:
            lines.append(f"  {_label(game, loss.route)}: {_loss_words(game, plan, loss)}")
        routes = tuple(loss.route for loss in losses[:SHOWN_LOSSES])
        out.append(Hint("weak-spots", "Weak spots", tuple(lines), ALGORITHMS["replan"], routes))
    if cuts:
        lines = []
        for cut in cuts[:SHOWN_CUTS]:
            n = int(cut.claims)
            where = ", ".join(_link_label(game, link) for link in cut.links)
            lines.append(f"{cut.ticket.name} can be blocked by {n} claim{plural_s(n)} ({where}).")
        out.append(
            Hint("cuts", "How few claims block a ticket", tuple(lines), ALGORITHMS["min-cut"])
        )
    return out


def _loss_words(game: Game, plan: Plan, loss: RouteLoss) -> str:
    """What one loss costs, in words that say what the figure is."""
    if loss.impossible:
        gone = ", ".join(t.name for t in loss.impossible)
        return f"{gone} could not be completed any more"
    instead = ", ".join(_label(game, r) for r in loss.detour)
    if loss.extra == 0:
        if not instead:
            return "no loss (the rest of your plan still completes every ticket)"
        return f"no loss (an equally short plan claims {instead} instead)"
    extra = loss.extra or 0
    spaces = f"+{extra} space{plural_s(extra)}"
    if loss.exact:
        return f"{spaces} (the cheapest plan without it claims {instead} instead)"
    bound = "at most" if plan.exact else "about"
    return f"{bound} {spaces} (the best plan found without it claims {instead} instead)"


def _heading_hint(game: Game, heading: tuple[Heading, ...]) -> Hint:
    lines = []
    contested: list[int] = []
    for h in heading:
        if not h.tickets:
            lines.append(f"{h.name}'s claims fit no ticket well yet.")
            continue
        guesses = ", ".join(
            f"{ticket_name(game.map, t)} ({100 * c:.0f}% covered)" for t, c in h.tickets
        )
        lines.append(f"{h.name} may be heading for {guesses}.")
        if h.contested:
            lines.append(
                "  Routes you both need: " + ", ".join(_label(game, r) for r in h.contested) + "."
            )
            contested += [r for r in h.contested if r not in contested]
    return Hint(
        "heading",
        "Where the others seem to be heading",
        tuple(lines),
        ALGORITHMS["opponent-paths"],
        tuple(contested),
    )
