"""Why that move: a bot's move in words, from what the bot recorded while choosing it.

The greedy bot records a :class:`~ttr_nb.bots.Reason` (the tickets and routes a move
serves); the search bot its look-ahead (each candidate move, how many imagined games
it was tried in and how many of them it won). :func:`record_move` keeps that, with
the move's public description, right when the bot moves; :meth:`WhyRecord.hint` puts
it into words for a viewer.

A bot's tickets are as secret as a person's: a viewer who is not the bot's seat is
told which routes the move serves but not which tickets, until the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import DrawTickets, KeepTickets
from ..bots import GreedyBot, RandomBot, Reason
from ..bots.search import SearchBot, SearchResult
from ..game import Game
from .hint import Hint, plural_s
from .lessons import ALGORITHMS
from .plan import ticket_name

__all__ = ["Candidate", "WhyRecord", "record_move", "why_from_replay"]

SHOWN_CANDIDATES = 4


@dataclass(frozen=True)
class Candidate:
    """One move the search compared: its words, imagined games it was tried in and won,
    and its average result (0 to 1)."""

    text: str
    tried: int
    won: int
    mean: float
    chosen: bool


@dataclass(frozen=True)
class WhyRecord:
    """What a bot recorded about one move (plain data, kept by the app per move).

    Attributes
    ----------
    move : int
        The move's number in the game (1 = the first move).
    seat : int
        The seat that moved.
    bot : str
        The bot's kind (``greedy``, ``search``, ``random``).
    text : str
        The move as the log says it (public).
    reason : Reason or None
        The greedy bot's reason (the search bot's when it fell back on greedy).
    candidates : tuple of Candidate
        The search bot's compared moves, most tried first.
    worlds, playouts : int
        The search bot's imagined worlds and games.
    fell_back : bool
        The search found too little to trust and played the greedy bot's move.
    agrees : bool or None
        Re-run on a save: whether the greedy bot would play the same move (None: the
        record was made by the bot that moved).
    instead : str
        Re-run on a save, when the greedy bot disagrees: the move it would play (its
        ``reason`` is for that move).
    compared : int
        The search bot's candidate moves in all (``candidates`` lists the most tried).
    others : int
        The imagined games played with the candidates not listed.
    compulsory : bool
        Every legal move was a ticket draw (the start of Germany or Märklin): the draw
        itself was no choice, only its mix.
    """

    move: int
    seat: int
    bot: str
    text: str
    reason: Reason | None = None
    candidates: tuple[Candidate, ...] = ()
    worlds: int = 0
    playouts: int = 0
    fell_back: bool = False
    agrees: bool | None = None
    instead: str = ""
    compared: int = 0
    others: int = 0
    compulsory: bool = False

    def hint(self, game: Game, viewer: int) -> Hint:
        """The record in words for ``viewer`` (tickets named only to the bot's own seat,
        or once the game is over)."""
        reveal = viewer == self.seat or game.is_over
        who = game.names[self.seat]
        lines = [f"Move {self.move}: {self.text}."]
        if self.agrees is not None:
            verdict = "the same move" if self.agrees else f"another move: {self.instead}"
            lines.append(
                "The save does not say who moved, so here is the greedy bot's reading of the "
                f"position before it; the greedy bot would play {verdict}."
            )
        if self.compulsory:
            lines.append(
                "Drawing tickets was no choice: every player must draw tickets at the start "
                "of this game. Only the mix of the draw was its to choose."
            )
        if self.candidates:
            algorithm = ALGORITHMS["search"]
            compared = max(self.compared, len(self.candidates))
            lines.append(
                f"{who} (search bot) imagined {self.worlds} deal{plural_s(self.worlds)} of the "
                "cards and tickets it could not see (at random, as far as it had seen) and "
                f"played {self.playouts} game{plural_s(self.playouts)} to the end in them, "
                f"comparing {compared} possible move{plural_s(compared)} (after each round "
                "the weaker half dropped out, so the best were played most):"
            )
            for c in self.candidates:
                mark = " ← played" if c.chosen else ""
                share = f"{100 * c.won / c.tried:.0f}%" if c.tried else "–"
                lines.append(
                    f"  {c.text}: played {c.tried} time{plural_s(c.tried)}, won {c.won} "
                    f"({share}){mark}"
                )
            rest = compared - len(self.candidates)
            if rest:
                lines.append(
                    f"  the other {rest} move{plural_s(rest)}: {self.others} "
                    f"game{plural_s(self.others)} in all"
                )
            if self.fell_back:
                lines.append(
                    "No move beat the greedy bot's move in the same imagined games by more "
                    "than luck explains (or none was tried in enough of them), so it played "
                    "the greedy bot's move:"
                )
                lines.extend(_reason_lines(game, self.reason, reveal))
        elif self.bot == "random":
            algorithm = ALGORITHMS["random"]
            lines.append(f"{who} (random bot) picked one of its legal moves at random.")
        else:
            algorithm = ALGORITHMS["shortest-path"]
            if not (self.compulsory and self.reason and self.reason.kind == "draw tickets"):
                lines.extend(_reason_lines(game, self.reason, reveal))
        if not reveal and self.reason is not None and self.reason.tickets:
            lines.append(
                "(Which of its tickets it serves stays hidden until the end of the game, or "
                "until you coach that seat.)"
            )
        routes = self.reason.routes if self.reason is not None and reveal else ()
        return Hint("why", "Why that move", tuple(lines), algorithm, routes, self.to_dict())

    def to_data(self) -> dict[str, Any]:
        """All of the record as JSON data (a shared table stores it with the bot's move);
        :meth:`from_data` reads it back."""
        reason = self.reason
        return {
            "move": self.move,
            "seat": self.seat,
            "bot": self.bot,
            "text": self.text,
            "reason": None
            if reason is None
            else {
                "kind": reason.kind,
                "tickets": list(reason.tickets),
                "routes": list(reason.routes),
                "detail": reason.detail,
            },
            "candidates": [[c.text, c.tried, c.won, c.mean, c.chosen] for c in self.candidates],
            "worlds": self.worlds,
            "playouts": self.playouts,
            "fell_back": self.fell_back,
            "compared": self.compared,
            "others": self.others,
            "compulsory": self.compulsory,
        }

    @classmethod
    def from_data(cls, data: Any) -> WhyRecord | None:
        """The record :meth:`to_data` wrote, or None for anything else (a table's database
        is read with care, not trusted to hold what this version writes)."""
        try:
            reason = data["reason"]
            return cls(
                int(data["move"]),
                int(data["seat"]),
                str(data["bot"]),
                str(data["text"]),
                None
                if reason is None
                else Reason(
                    str(reason["kind"]),
                    tuple(int(t) for t in reason["tickets"]),
                    tuple(int(r) for r in reason["routes"]),
                    str(reason["detail"]),
                ),
                tuple(
                    Candidate(str(t), int(n), int(w), float(m), bool(c))
                    for t, n, w, m, c in data["candidates"]
                ),
                int(data["worlds"]),
                int(data["playouts"]),
                bool(data["fell_back"]),
                # Records stored before these were kept read as none.
                compared=int(data.get("compared", 0)),
                others=int(data.get("others", 0)),
                compulsory=bool(data.get("compulsory", False)),
            )
        except (AttributeError, KeyError, TypeError, ValueError):
            return None

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data (stored with a table's move)."""
        return {
            "move": self.move,
            "seat": self.seat + 1,
            "bot": self.bot,
            "text": self.text,
            "reason": None if self.reason is None else self.reason.kind,
            "candidates": [
                {"move": c.text, "tried": c.tried, "won": c.won, "chosen": c.chosen}
                for c in self.candidates
            ],
            "fell_back": self.fell_back,
            "compared": self.compared,
            "compulsory": self.compulsory,
            "agrees": self.agrees,
            "instead": self.instead or None,
        }


def _reason_lines(game: Game, reason: Reason | None, reveal: bool) -> list[str]:
    """A greedy bot's reason in words."""
    if reason is None:
        return []
    # Unrevealed, a shared table sends the tickets as placeholders: never name them.
    tickets = _and(ticket_name(game.map, t) for t in reason.tickets) if reveal else ""
    n = len(reason.tickets)
    whose = f"its ticket{plural_s(n)} {tickets}" if reveal and tickets else "one of its tickets"
    kind = reason.kind
    if kind == "only move":
        return ["It had no other legal move."]
    if kind == "keep":
        kept = f": {tickets}" if reveal else ""
        return [
            f"It kept the tickets that are cheapest to complete for their points{kept} "
            "(each planned by a shortest path)."
        ]
    if kind == "variant":
        return [f"A move of this variant: it {reason.detail}."]
    if kind == "plan claim":
        return [
            f"The route lies on the shortest path it planned for {whose}; of the planned "
            "routes it could pay for, it took the one worth most."
        ]
    if kind == "draw tickets":
        return ["Every ticket it holds was complete or planned to the end, so it drew new ones."]
    if kind == "hand claim":
        return [
            "Its hand was large and no planned route could be paid for with it, so it claimed "
            f"a route that shortens its plans for {whose} by {reason.detail} "
            f"space{plural_s(int(reason.detail))} (another way)."
        ]
    if kind == "cash in":
        return [
            "Its hand was very large and no planned route could be paid for with it, so it "
            "turned cards into points with a route its spare trains allow."
        ]
    if kind == "late claim":
        return ["Late in the game (or with nothing planned), it claimed the route worth most."]
    if kind == "card for plan":
        article = "an" if reason.detail[:1] in "aeiou" else "a"
        return [f"It took {article} {reason.detail} card: its plan for {whose} needs that colour."]
    if kind == "blind draw":
        if len(game.rules.deck_names) == 1:
            return ["No face-up card fits its plans, so it drew from the deck."]
        return [
            "No face-up card fits its plans, so it drew from the deck its plans need most "
            f"(the {reason.detail} deck)."
        ]
    if kind == "mistake":
        return ["A beginner's move: it left its plan and drew or claimed at random."]
    if kind in ("any draw", "any claim"):
        return ["Nothing on its plans was possible, so it made any legal move of that kind."]
    return ["It moved at random among its legal moves."]


def record_move(bot: Any, game: Game, action: Any) -> WhyRecord:
    """What ``bot`` recorded about ``action``, which it just chose in ``game`` (call it
    before the move is applied)."""
    text = _public_text(game, action)
    move = len(game.history) + 1
    seat = game.current_player
    compulsory = _compulsory_draw(game)
    if isinstance(bot, SearchBot) and isinstance(bot.last, SearchResult):
        result = bot.last
        children = sorted(result.root.children.values(), key=lambda c: (-c.visits, -c.mean))
        candidates = tuple(
            Candidate(_public_text(game, c.action), c.visits, c.wins, c.mean, c.action == action)
            for c in children[:SHOWN_CANDIDATES]
        )
        reason = bot.greedy.last if result.fell_back else None
        return WhyRecord(
            move,
            seat,
            "search",
            text,
            reason,
            candidates,
            result.worlds,
            result.playouts,
            result.fell_back,
            compared=len(children),
            others=sum(c.visits for c in children[SHOWN_CANDIDATES:]),
            compulsory=compulsory,
        )
    if isinstance(bot, GreedyBot):
        return WhyRecord(move, seat, "greedy", text, bot.last, compulsory=compulsory)
    if isinstance(bot, RandomBot):
        return WhyRecord(move, seat, "random", text, bot.last, compulsory=compulsory)
    last = getattr(bot, "last", None)
    return WhyRecord(move, seat, getattr(bot, "name", "bot"), text, last, compulsory=compulsory)


def why_from_replay(game: Game) -> WhyRecord | None:
    """For a saved game: the greedy bot's reading of the position before the last move
    (a save does not record who moved, a person or which bot), and whether it agrees."""
    if not game.history:
        return None
    before = game.replay(len(game.history) - 1)
    action = game.history[-1].action
    bot = GreedyBot(0)
    choice, reason = bot.decide(before)
    agrees = choice == action
    return WhyRecord(
        len(game.history),
        before.current_player,
        "greedy",
        _public_text(before, action),
        reason,
        agrees=agrees,
        instead="" if agrees else _public_text(before, choice),
        compulsory=_compulsory_draw(before),
    )


def _compulsory_draw(game: Game) -> bool:
    """Is every legal move a ticket draw (and there is more than one: a mix to choose)?"""
    legal = game.legal_actions()
    return len(legal) > 1 and all(isinstance(a, DrawTickets) for a in legal)


def _and(names: Any) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _public_text(game: Game, action: Any) -> str:
    """The move as everyone at the table may read it (kept tickets are not named)."""
    if isinstance(action, KeepTickets):
        n = len(action.tickets)
        return f"{game.names[game.current_player]} keeps {n} ticket{'' if n == 1 else 's'}"
    return game.describe(action)
