"""The tables' bots, moved by the table service: once per turn, whatever the pages do.

A page never moves a bot (it holds no deal to move one with). After every change at a table
(a move, a start, a seat given to a bot) the service *kicks* the table: while a bot is to
move there, its move is computed from the whole game and stored like anyone's, with what the
bot recorded about it (the coach's *Why that move*).

Two ways to run them:

* ``inline`` (tests, the in-process service): the kick computes the bots' moves at once, in
  the caller's thread, until a person is to move.
* ``pool`` (the real service): kicks go into a queue; worker threads take one table at a
  time, compute one bot move in a separate process (a search bot thinks for its full
  second without holding up the service's answers to the pages), store it, and queue the
  table again while bots are to move, so that one slow table never holds up the others.

A bot move whose table moved on meanwhile (a seat given back, the table closed) is dropped
and the table looked at again.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import os
import queue
import threading
import time
from collections import OrderedDict
from typing import Any

from ..actions import action_from_dict, action_to_dict
from ..errors import IllegalActionError, StaleMoveError, StoreFaultError, TableError
from ..game import Game, new_game
from ..maps import load_map
from .referee import Referee

log = logging.getLogger(__name__)

MAX_INLINE_MOVES = 2_000  # a table of bots only plays to its end inline (tests): bounded
STORE_RETRY_S = 2.0  # a bot whose move the store could not take tries again this much later

# What one bot process keeps between moves: the games it rebuilt, and the bots themselves
# (a bot may remember things between its moves), both by table.
_GAMES: OrderedDict[int, Game] = OrderedDict()
_BOTS: dict[tuple[int, int, str], Any] = {}
_KEPT = 64


def compute_move(
    table_id: int, map_id: str, names: list[str], seed: int, actions: list[dict], kind: str
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The move bot ``kind`` makes as the player to move in the game of ``map_id``, ``names``
    and ``seed`` after ``actions``; with what it recorded (None if that failed).

    Runs in a bot process (or inline): the game is rebuilt from its moves, and kept for the
    table's next bot move.
    """
    from ..bots import make_bot
    from ..coach import record_move

    game = _GAMES.get(table_id)
    if (
        game is None
        or game.seed != seed
        or list(game.names) != names
        or len(game.history) > len(actions)
        or [action_to_dict(m.action) for m in game.history] != actions[: len(game.history)]
    ):
        game = new_game(load_map(map_id), names, seed)
    for data in actions[len(game.history) :]:
        game.apply(action_from_dict(data, "a move", "the table"))
    _GAMES[table_id] = game
    _GAMES.move_to_end(table_id)
    while len(_GAMES) > _KEPT:
        gone, _game = _GAMES.popitem(last=False)
        for key in [k for k in _BOTS if k[0] == gone]:
            del _BOTS[key]
    seat = game.current_player
    bot = _BOTS.get((table_id, seat, kind))
    if bot is None:
        bot = _BOTS[(table_id, seat, kind)] = make_bot(kind, seed * 10 + seat)
    action = bot.choose(game)
    try:
        why = record_move(bot, game, action).to_data()
    except Exception:  # the coach must never stop a game
        log.exception("could not record a bot move")
        why = None
    return action_to_dict(action), why


def leave_with_parent(parent: int) -> None:
    """A bot worker's start: it exits when the service that started it is gone (killed,
    its pool never shut down), instead of waiting for work for ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="ttr-bots-parent", daemon=True).start()


class BotRunner:
    """Moves the bots of the tables a :class:`~.referee.Referee` keeps (see the module).

    Parameters
    ----------
    referee : Referee
        The tables' referee (it stores the bots' moves as it stores anyone's).
    mode : {"inline", "pool"}
        Compute moves at once in the caller's thread, or in worker processes.
    workers : int, optional
        How many bot moves are computed at once in ``pool`` mode (default: half the cores,
        at least one).
    """

    def __init__(self, referee: Referee, mode: str = "inline", workers: int | None = None) -> None:
        if mode not in ("inline", "pool"):
            raise ValueError(f"bots run inline or in a pool, not {mode!r}")
        self.referee = referee
        self.mode = mode
        self.workers = workers or max(1, (os.cpu_count() or 2) // 2)
        self._queue: queue.Queue[int | None] = queue.Queue()
        self._queued: set[int] = set()
        self._guard = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._processes: concurrent.futures.ProcessPoolExecutor | None = None
        self.moves_made = 0
        self._closed = False
        if mode == "pool":
            self._processes = concurrent.futures.ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=leave_with_parent,
                initargs=(os.getpid(),),
            )
            for i in range(self.workers):
                thread = threading.Thread(target=self._work, name=f"ttr-bots-{i}", daemon=True)
                thread.start()
                self._threads.append(thread)

    def kick(self, table_id: int) -> None:
        """The table changed: move its bots while they are to move."""
        if self.mode == "inline":
            for _ in range(MAX_INLINE_MOVES):
                if not self.move_once(table_id):
                    return
            return
        with self._guard:
            if table_id in self._queued:
                return
            self._queued.add(table_id)
        self._queue.put(table_id)

    def _retry_later(self, table_id: int) -> None:
        """The store failed: look at the table again later (nobody else may kick it: the
        pages only ask for views while they wait for the bot)."""
        if self.mode == "inline" or self._closed:
            return  # inline (tests), the caller sees the error and the next request kicks
        timer = threading.Timer(STORE_RETRY_S, self.kick, (table_id,))
        timer.daemon = True
        timer.start()

    def close(self) -> None:
        """Stop the workers (the service is stopping)."""
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join(timeout=5)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)

    # ------------------------------------------------------------------ work
    def _work(self) -> None:
        while True:
            table_id = self._queue.get()
            if table_id is None:
                return
            with self._guard:
                self._queued.discard(table_id)
            try:
                again = self.move_once(table_id)
            except Exception:  # a table's trouble must not stop the other tables' bots
                log.exception("bot move failed at table %s", table_id)
                again = False
            if again:
                self.kick(table_id)

    def move_once(self, table_id: int) -> bool:
        """Make one bot move at the table if a bot is to move; True if one was made."""
        try:
            turn = self.referee.bot_to_move(table_id)
        except StoreFaultError:
            self._retry_later(table_id)
            return False
        except TableError:
            return False
        if turn is None:
            return False
        kind, seat, game = turn
        actions = [action_to_dict(m.action) for m in game.history]
        args = (table_id, game.map.id, list(game.names), game.seed, actions, kind)
        if self._processes is not None:
            action, why = self._processes.submit(compute_move, *args).result()
        else:
            action, why = compute_move(*args)
        try:
            self.referee.play(
                table_id, seat, action, number=len(actions) + 1, made_by_bot=kind, why=why
            )
        except StoreFaultError as exc:
            log.info("bot move at table %s not stored: %s", table_id, exc)
            self._retry_later(table_id)
            return False
        except (StaleMoveError, TableError) as exc:
            log.info("bot move at table %s not stored: %s", table_id, exc)
            return True  # look at the table again: another bot may be to move
        except IllegalActionError as exc:  # the table changed under the bot (closed, ...)
            log.info("bot move at table %s refused: %s", table_id, exc)
            return False
        self.moves_made += 1
        return True
