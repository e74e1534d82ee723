"""One page's connection to a shared table: the game rebuilt from the table's move log.

A :class:`TableClient` is what every page at a table (and every simulated player of
``tools/bench_tables.py``) holds. It keeps a :class:`~ttr_nb.game.Game` that follows the
table's log (:meth:`TableClient.sync`), checks a move against the rules before storing it
(:meth:`TableClient.play`), and moves the table's bots when it is their turn, one page at a
time (:meth:`TableClient.move_bots`). The game lives in the store: a client can be thrown
away and made again at any time.

Examples
--------
>>> from ttr_nb.tables import TableStore
>>> store = TableStore("sqlite://")
>>> made = store.create_table("usa", ["human", "random"], "Ann", session="p1", seed=4)
>>> ann = TableClient(store, made.table_id, seat=made.seat, token=made.token, session="p1")
>>> ann.game.phase, ann.my_turn
('setup', True)
>>> ann.play(ann.game.legal_actions()[0])
>>> ann.move_bots()  # the random bot keeps its tickets, the first turn is Ann's
1
>>> len(store.moves(made.table_id)), ann.my_turn
(2, True)
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from ..actions import action_from_dict, action_to_dict
from ..errors import CorruptMoveError, IllegalActionError, StaleMoveError
from ..game import Game, new_game
from ..maps import load_map
from .store import Move, TableInfo, TableStore

BOT_LEASE_SLACK_S = 20.0  # a page that took the bots' turn has this long on top of the bot's time


def started(info: TableInfo) -> bool:
    """Whether the table's game ever started: it plays or is over, or it was closed after
    starting (every seat taken, or a move made). A table closed while it waited for
    players has no game to show.
    """
    if info.status in ("playing", "over"):
        return True
    return info.status == "closed" and (info.moves > 0 or not any(s.free for s in info.seats))


class TableClient:
    """A seat's (or a watcher's) live copy of a shared table's game.

    Parameters
    ----------
    store : TableStore
        Where the table is.
    table_id : int
        Which table.
    seat : int, optional
        The seat this page plays (0-based); None for a watcher.
    token, session : str, optional
        The seat's token and the id of the page that holds the seat (see
        :meth:`TableStore.rejoin`).
    bot_seed : int
        Seeds the bots this page moves (any page may move them; one at a time).
    """

    def __init__(
        self,
        store: TableStore,
        table_id: int,
        seat: int | None = None,
        token: str | None = None,
        session: str | None = None,
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.seat = seat
        self.token = token
        self.session = session or secrets.token_hex(8)
        self.game: Game | None = None
        self.info: TableInfo = store.table_by_id(table_id)
        self.seen_version = -1
        self.seen_at: dict[int, float] = {}  # move number -> when this client first had it
        self.whys: dict[int, dict[str, Any]] = {}  # move number -> what its bot recorded
        self._bots: dict[tuple[int, str], Any] = {}
        self.sync()

    # ------------------------------------------------------------------ reading
    @property
    def my_turn(self) -> bool:
        """Whether this page's seat is to move in a game still running."""
        game = self.game
        return (
            game is not None
            and not game.is_over
            and self.info.status == "playing"
            and self.seat is not None
            and game.current_player == self.seat
            and self.info.seats[self.seat].played_by_bot is None
        )

    def sync(self, force: bool = False) -> list[Move]:
        """Catch up with the table: returns the moves that were new to this client."""
        version = self.store.version(self.table_id)
        if version == self.seen_version and not force:
            return []
        info = self.store.table_by_id(self.table_id)
        self.info = info
        if self.game is None and not started(info):
            self.seen_version = info.version
            return []
        renamed = None
        if self.game is not None and list(self.game.names) != info.names:
            # A seat changed hands during the game (freed, joined, given to a bot): the
            # game is the same, its players' names are not. Replay it under the new ones,
            # into the same Game object (the page holds it).
            renamed, self.game = self.game, None
        if self.game is None:
            self.game = new_game(load_map(info.map), info.names, info.seed)
        try:
            new = self._replay(info)
        finally:
            if renamed is not None:
                renamed.__dict__.update(self.game.__dict__)
                self.game = renamed
        self.seen_version = info.version  # only once every move up to it is in the game
        return new

    def _replay(self, info: TableInfo) -> list[Move]:
        """Apply the table's moves this client's game has not made yet."""
        assert self.game is not None
        new = self.store.moves(self.table_id, after=len(self.game.history))
        now = time.time()
        for move in new:
            if move.number != len(self.game.history) + 1:
                raise CorruptMoveError(
                    self.table_id,
                    len(self.game.history) + 1,
                    f"the table's log skips to move {move.number}",
                    info.code,
                )
            try:
                action = action_from_dict(move.action, f"move {move.number}", "the table")
                self.game.apply(action)
            except IllegalActionError as exc:
                raise CorruptMoveError(
                    self.table_id, move.number, f"the rules refuse it: {exc.rule}", info.code
                ) from None
            except (ValueError, KeyError, TypeError) as exc:
                raise CorruptMoveError(
                    self.table_id, move.number, f"it is not a move of this game: {exc}", info.code
                ) from None
            self.seen_at.setdefault(move.number, now)
            if move.why is not None:
                self.whys[move.number] = move.why
        return new

    # ------------------------------------------------------------------ acting
    def play(self, action: Any) -> None:
        """Store ``action`` as this seat's next move (and make it in this client's game).

        Raises
        ------
        IllegalActionError
            When it is not this seat's turn or the rules refuse the action (nothing stored).
        StaleMoveError
            When another move reached the table first: this client has caught up, and the
            action was not stored (the player sees the new position and decides again).
        """
        self.sync()
        game = self.game
        name = self.info.names[self.seat] if self.seat is not None else "A watcher"
        if game is None:
            raise IllegalActionError(name, "move", "the game has not started yet")
        if not self.my_turn:
            whose = game.state.players[game.current_player].name if not game.is_over else None
            rule = "the game is over" if whose is None else f"it is {whose}'s turn"
            raise IllegalActionError(name, game.describe(action), rule)
        self._store(action, token=self.token)

    def move_bots(
        self,
        make_bot: Any = None,
        max_moves: int = 1,
        explain: Callable[[Any, Game, Any], dict[str, Any] | None] | None = None,
    ) -> int:
        """Make the table's bot moves, while it is a bot's turn (at most ``max_moves``).

        Only the page that wins the bots' lease computes a move, so a bot moves once per
        turn however many pages see its turn; its move is stored like anyone's.
        ``explain(bot, game, action)`` gives what the bot recorded about its move (the
        coach's "Why that move"), stored with it so that every seat can read it.
        Returns how many moves this page made.
        """
        if make_bot is None:
            from ..bots import make_bot
        made = 0
        while made < max_moves:
            self.sync()
            game = self.game
            if game is None or game.is_over or self.info.status != "playing":
                break
            seat = game.current_player
            kind = self.info.seats[seat].played_by_bot
            if kind is None:
                break
            key = (seat, kind)
            bot = self._bots.get(key)
            if bot is None:
                bot = self._bots[key] = make_bot(kind, self.info.seed * 10 + seat)
            budget = float(getattr(bot, "budget", 0) or 0)
            number = len(game.history) + 1
            if not self.store.claim_bot_turn(
                self.table_id, number, self.session, budget + BOT_LEASE_SLACK_S
            ):
                break  # another page is moving the bots
            action = bot.choose(game)
            why = explain(bot, game, action) if explain is not None else None
            try:
                self._store(action, lease=self.session, why=why)
            except StaleMoveError:
                break
            made += 1
        return made

    def _store(
        self,
        action: Any,
        token: str | None = None,
        lease: str | None = None,
        why: dict[str, Any] | None = None,
    ) -> None:
        game = self.game
        assert game is not None
        problem = game.problem(action)
        if problem is not None:
            who = game.state.players[game.current_player].name
            raise IllegalActionError(
                who, game.rules.describe(game, action, imperative=True), problem
            )
        after = game.clone()
        after.apply(action)
        number = len(game.history) + 1
        try:
            version = self.store.append(
                self.table_id,
                number,
                game.current_player,
                action_to_dict(action),
                token=token,
                session=self.session,
                lease=lease,
                over=after.is_over,
                why=why,
            )
        except StaleMoveError:
            self.sync(force=True)
            raise
        game.apply(action)
        self.seen_at.setdefault(number, time.time())
        if why is not None:
            self.whys[number] = why
        # Our own move is the only change since we last looked: nothing to read again.
        # (Anything else in between, a seat coming back say, is read at the next sync.)
        quiet = version == self.seen_version + 1 and not after.is_over
        self.seen_version = version if quiet else -1

    def heartbeat(self) -> None:
        """Tell the table this seat's page is open (see :meth:`TableStore.heartbeat`)."""
        if self.seat is not None:
            self.store.heartbeat(self.table_id, self.seat, self.session)
