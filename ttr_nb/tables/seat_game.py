"""A seat's game at a shared table, built from the view the table service sent.

A page at a table shows a :class:`~ttr_nb.game.Game` like any other (the board, the panels,
the coach read one), but the game its kernel holds is a :class:`SeatGame`: the state as the
seat may see it (:mod:`ttr_nb.rules.seat_view`: other hands as counts, decks as sizes, no
seed), the public history and log, and the moves the seat may make now as the table's
referee listed them. It cannot draw a card (it has no deck), apply a move (the table does)
or be saved; an earlier position is asked of the service. Once the game is over the service
sends the whole game, and the seat's game becomes that game: a real
:class:`~ttr_nb.game.Game` (replay, review and saves work as in a game of one's own).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..actions import action_from_dict
from ..errors import IllegalActionError
from ..game import Game, Move
from ..maps import Map
from ..rules import rules_for
from ..state import GameState

__all__ = ["SealedRandom", "SeatGame"]


class SealedRandom(random.Random):
    """A random generator that refuses to be used: a seat's view has no deck to draw from."""

    def __init__(self) -> None:
        super().__init__(0)

    def random(self) -> float:  # noqa: D102 - refuses
        raise ValueError("a seat's view of a table has no deck order: the table draws")

    def getrandbits(self, k: int) -> int:  # noqa: D102 - refuses
        raise ValueError("a seat's view of a table has no deck order: the table draws")

    def getstate(self) -> Any:  # noqa: D102 - refuses
        raise ValueError("a seat's view of a table has no random state")


class SeatGame(Game):
    """A game as one seat of a shared table sees it (see the module).

    Make one with :meth:`from_view`; keep it up to date with :meth:`update`.
    """

    sealed = True

    def __init__(self) -> None:  # made by from_view only
        raise TypeError("a SeatGame is made from a view: SeatGame.from_view(...)")

    @classmethod
    def from_view(
        cls,
        game_map: Map,
        data: dict[str, Any],
        past: Callable[[int], Game] | None = None,
    ) -> Game:
        """The seat's game of view ``data`` (from its first move: ``data["after"]`` is 0).

        ``past(n)`` gives the seat's view after move ``n`` (stepping back); without it an
        earlier position cannot be shown.
        """
        game = object.__new__(cls)
        game.map = game_map
        game.rules = rules_for(game_map)
        game.seed = 0
        game.rng = SealedRandom()
        game.deal_check = ""
        game.sampled_for = data.get("viewer", -1)
        game.history = []
        game.log = []
        game._past = past
        game._legal = []
        game.viewer = data.get("viewer")
        game._set(data)
        game._become_whole(data)
        return game

    def update(self, data: dict[str, Any]) -> Game:
        """Follow view ``data`` (its moves after ``data["after"]``, which is how many this
        game had). Returns the game to show: this one, or (once the game is over) this one
        turned into the whole game."""
        after = int(data["after"])
        del self.history[after:]
        del self.log[after:]
        self._set(data)
        self._become_whole(data)
        return self

    def _become_whole(self, data: dict[str, Any]) -> None:
        """Once the game is over the view carries the whole game: this object becomes it
        (the page keeps this object)."""
        if "game" not in data:
            return
        whole = Game.from_dict(data["game"], "the table's game", maps=[self.map])
        self.__class__ = Game
        self.__dict__.clear()
        self.__dict__.update(whole.__dict__)

    def _set(self, data: dict[str, Any]) -> None:
        if int(data["after"]) != len(self.history):
            raise ValueError("a seat's view must continue from the moves this page has")
        self.state = GameState.from_dict(data["state"])
        self.names = [p.name for p in self.state.players]
        for player, action in data["history"]:
            parsed = None if action is None else action_from_dict(action, "a move", "the table")
            self.history.append(Move(int(player), parsed))
        self.log.extend(str(line) for line in data["log"])
        self._legal = [action_from_dict(a, "a move", "the table") for a in data.get("legal", [])]

    # ------------------------------------------------------------------ the seat's game
    def legal_actions(self) -> list[Any]:
        """The moves the seat may make now, as the table's referee listed them."""
        return list(self._legal)

    def apply(self, action: Any) -> None:
        """Refused: at a table, the table makes every move (:meth:`SeatClient.play`)."""
        who = self.state.players[self.state.current].name
        raise IllegalActionError(who, self.describe(action), "the table makes every move")

    def replay(self, steps: int | None = None) -> Game:
        """The seat's view after move ``steps``, asked of the table service."""
        if steps is None or steps >= len(self.history):
            return self
        if self._past is None:
            raise ValueError("this seat's game cannot show earlier positions")
        return self._past(max(0, steps))

    def clone(self, rng: random.Random | None = None) -> Game:
        """A copy to look ahead with (the coach's): it draws from ``rng``, if given."""
        return super().clone(rng if rng is not None else SealedRandom())
