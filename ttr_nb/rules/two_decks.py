"""Short and long ticket decks with a chosen split (Germany, Märklin).

Both rulebooks keep the destination tickets in two decks, short and long. A
player who draws tickets first says how many come from the long deck (the rest
come from the short deck), then keeps some of them:

* **at setup** each player in turn draws 4 in a split of their choice and keeps
  at least 2; once everyone has chosen, the tickets handed back go to their own
  deck and both decks are reshuffled;
* **in play** a draw is 4 tickets in a chosen split, keeping at least 1; the
  others go under their own deck.

The split is the ``long`` field of :class:`~ttr_nb.actions.DrawTickets`, so it is
listed by ``legal_actions()``, saved and replayed like any other choice.

Reading of the rulebook where it is brief: a draw is 4 tickets unless the two
decks *together* hold fewer (then every ticket left is drawn); a split that the
decks cannot supply (3 long tickets asked for when 2 are left) is refused, naming
what is left, and the player chooses again.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from ..actions import DrawTickets, KeepTickets, shape_problem, short
from ..maps import Map
from ..state import GameState, PlayerState
from .base import Rules

if TYPE_CHECKING:
    from .game_view import GameView as Game  # the game imports the rules, not the reverse

SHORT, LONG = "short", "long"


class TwoTicketDecks(Rules):
    """:class:`Rules` with a short and a long ticket deck and a chosen split on every draw.

    A base for variant rules (Germany, Märklin); not a variant of its own.
    """

    ticket_deck = SHORT  # where the base rules would deal from; the split decides here
    ticket_decks_used = (SHORT, LONG)
    setup_ticket_deal = 4
    setup_ticket_keep = 2
    ticket_deal = 4
    ticket_keep = 1

    @classmethod
    def map_problems(cls, game_map: Map) -> list[tuple[str, str]]:
        out = super().map_problems(game_map)
        need = cls.max_players * cls.setup_ticket_deal
        for deck in cls.ticket_decks_used:
            if deck == cls.ticket_deck:
                continue  # the base rules checked it
            have = sum(1 for t in game_map.tickets if t.deck == deck)
            if have < need:
                out.append(
                    (
                        "$.tickets",
                        f"at setup {cls.max_players} players may each draw all "
                        f"{cls.setup_ticket_deal} tickets from the {deck!r} deck ({need} in "
                        f"all); this map has {have} there",
                    )
                )
        return out

    # ------------------------------------------------------------------ setup
    def deal_setup_tickets(self, state: GameState) -> None:
        """Nothing is dealt yet: each player in turn first chooses a split."""
        state.current = 0
        state.pending = None

    def in_setup_draw(self, state: GameState) -> bool:
        """True while the player to move must choose how many long tickets to draw."""
        return state.phase == "setup" and state.pending is None

    # ------------------------------------------------------------ the split
    def deck_sizes(self, state: GameState) -> tuple[int, int]:
        """Tickets left in the short and the long deck."""
        decks = state.ticket_decks
        return len(decks.get(SHORT, ())), len(decks.get(LONG, ()))

    def draw_size(self, state: GameState) -> int:
        """How many tickets a draw takes now: the full draw, or all that are left."""
        deal = self.setup_ticket_deal if state.phase == "setup" else self.ticket_deal
        return min(deal, sum(self.deck_sizes(state)))

    def split_range(self, state: GameState) -> range:
        """The numbers of long tickets a draw may ask for now (empty when no ticket is left)."""
        shorts, longs = self.deck_sizes(state)
        n = self.draw_size(state)
        if n == 0:
            return range(0)
        return range(max(0, n - shorts), min(longs, n) + 1)

    def ticket_draws(self, state: GameState) -> list[Any]:
        """The legal ticket draws: one per split of short and long tickets the decks can supply."""
        return [self.fast.ticket_draw(k) for k in self.split_range(state)]

    def ticket_draw_problem(self, state: GameState, action: DrawTickets) -> str | None:
        """Why drawing tickets with ``action.long`` long ones is refused now, or None."""
        shorts, longs = self.deck_sizes(state)
        n = self.draw_size(state)
        k = action.long
        if n == 0:
            return "both ticket decks are empty"
        if k > n:
            return f"a draw is {n} ticket{'s' if n != 1 else ''}, so at most {n} can be long"
        if k > longs:
            return f"only {longs} long ticket{'s are' if longs != 1 else ' is'} left"
        if n - k > shorts:
            return (
                f"only {shorts} short ticket{'s are' if shorts != 1 else ' is'} left, so at "
                f"least {n - shorts} of the {n} must be long"
            )
        return None

    def split_text(self, state: GameState, long: int) -> str:
        """``4 tickets (3 short, 1 long)`` for a draw asking for ``long`` long tickets."""
        n = self.draw_size(state)
        if not 0 <= long <= n:
            return f"tickets ({short(long)} long)"
        return f"{n} ticket{'s' if n != 1 else ''} ({n - long} short, {long} long)"

    # -------------------------------------------------------------- actions
    def legal_actions(self, game: Game) -> list[Any]:
        if self.in_setup_draw(game.state):
            return self.ticket_draws(game.state)
        return super().legal_actions(game)

    def problem(self, game: Game, action: Any) -> str | None:
        state = game.state
        if not self.in_setup_draw(state):
            return super().problem(game, action)
        shape = shape_problem(action)
        if shape is not None:
            return shape[1]
        if not isinstance(action, DrawTickets):
            return (
                f"at setup each player first draws {self.setup_ticket_deal} tickets, choosing "
                "how many come from the long deck"
            )
        return self.ticket_draw_problem(state, action)

    def execute(self, game: Game, action: Any) -> None:
        if not isinstance(action, DrawTickets):
            super().execute(game, action)
            return
        state = game.state
        n = self.draw_size(state)
        player = state.players[state.current]
        player.offer = self.take_tickets(state, n - action.long, SHORT) + self.take_tickets(
            state, action.long, LONG
        )
        state.pending = "keep_tickets"

    def keep(self, game: Game, player: PlayerState, action: KeepTickets) -> None:
        """Apply a keep; at setup, the short and long tickets given back go under their own
        decks."""
        state = game.state
        if state.phase != "setup":
            super().keep(game, player, action)
            return
        kept = set(action.tickets)
        player.tickets.extend(t for t in player.offer if t in kept)
        for t in player.offer:
            if t not in kept:
                state.ticket_decks[self.map.ticket_by_id[t].deck].append(t)
        player.offer = []
        if state.current + 1 < len(state.players):
            state.current += 1
            state.pending = None
            return
        # Everyone has chosen: the tickets handed back are in their decks; shuffle both.
        for deck in self.ticket_decks_used:
            game.rng.shuffle(state.ticket_decks.setdefault(deck, []))
        self.start_play(state)

    def log_key(self, game: Game, action: Any) -> Hashable | None:
        if type(action) is DrawTickets:  # the words name the split, which the decks decide
            state = game.state
            return (state.players[state.current].name, action, self.draw_size(state))
        return super().log_key(game, action)

    def describe(self, game: Game, action: Any, imperative: bool = False) -> str:
        if not isinstance(action, DrawTickets) or shape_problem(action) is not None:
            return super().describe(game, action, imperative)
        text = f"draw {self.split_text(game.state, action.long)}"
        if imperative:
            return text
        return f"{game.state.players[game.state.current].name} {text.replace('draw', 'draws', 1)}"
