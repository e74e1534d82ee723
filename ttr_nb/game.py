"""The game object: state, legal actions, history, replay and saves."""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .actions import action_from_dict, action_to_dict, short
from .errors import IllegalActionError, PlayerNameError, SaveFormatError
from .maps import Map, available_maps, load_map
from .rules import Rules, rules_for
from .rules.base import MAX_GAME_MOVES
from .state import GameState
from .validation import schema_checker

SAVE_FORMAT = "ttr-nb-save/2"
OLD_SAVE_FORMAT = "ttr-nb-save/1"
SAVE_SCHEMA_PATH = Path(__file__).resolve().parent / "save.schema.json"
MAX_SAVE_CHARS = 2_000_000  # a long 5-player game saves to about 100 000
# Every game the engine lets happen reloads: it ends by MAX_GAME_MOVES, at the end of the
# turn that reaches it (a turn takes at most 2 actions; the slack is generous).
MAX_SAVE_MOVES = MAX_GAME_MOVES + 10
MAX_NAME_CHARS = 40


@dataclass(frozen=True)
class Move:
    """One entry of a game's history: who did what.

    Parameters
    ----------
    player : int
        The seat that acted, from 0.
    action : object
        The action, as :meth:`Game.apply` took it.

    Examples
    --------
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> game.apply(game.legal_actions()[0])
    >>> game.history
    [Move(player=0, action=KeepTickets(tickets=(11, 18)))]
    """

    player: int
    action: Any


class Game:
    """A game in progress on one map, with its rules, seeded randomness and history.

    Create one with :func:`new_game`; list what the player to act may do with
    :meth:`legal_actions` and do it with :meth:`apply`. Any earlier position is rebuilt
    by :meth:`replay`, since map + seed + actions decide everything; :meth:`observation`
    is what one player may see.

    Parameters
    ----------
    game_map : Map
        The board; its ``rules`` field picks the variant (:func:`~ttr_nb.rules.rules_for`).
    names : list of str
        The players' names, in seat order (2 to 5, each at most 40 characters).
    seed : int
        Seed of the game's random generator (:class:`random.Random`): the deal and every
        draw come from it.

    Attributes
    ----------
    map : Map
        The board.
    rules : Rules
        The variant's rules, shared by every game on the map.
    state : GameState
        The whole position as plain JSON-able data.
    history : list of Move
        Every action taken, with the seat that took it.
    log : list of str
        The moves in words, one line each.

    Raises
    ------
    ValueError
        For a bad name or seed, or a number of players the variant does not allow.

    See Also
    --------
    new_game : Start a game by map name.

    Examples
    --------
    >>> from ttr_nb import load_map
    >>> game = Game(load_map("usa"), ["Ann", "Ben"], seed=7)
    >>> game.phase, game.num_players, game.names[game.current_player]
    ('setup', 2, 'Ann')
    >>> game.apply(game.legal_actions()[0])  # Ann keeps two of her first tickets
    >>> game.log
    ['Ann keeps 2 tickets']
    >>> game.history[0].player, game.names[game.current_player]
    (0, 'Ben')
    """

    quiet = False
    """True on a look-ahead copy (a search's play-out): its moves are not put into words
    (its log gets empty lines), since nobody reads them and wording every move is slow."""

    def __init__(self, game_map: Map, names: list[str], seed: int) -> None:
        self.names = checked_names(names)
        problem = _seed_problem(seed)
        if problem is not None:
            raise ValueError(f"the seed {problem}")
        self.map = game_map
        self.rules: Rules = rules_for(game_map)
        self.seed = seed
        self.rng = random.Random(seed)
        self.state: GameState = self.rules.new_state(self.names, seed, self.rng)
        self.deal_check = position_check(self.state)
        self.history: list[Move] = []
        self.log: list[str] = []
        self.sampled_for: int | None = None  # set on a world sampled by determinise()

    # ----------------------------------------------------------- queries
    @property
    def current_player(self) -> int:
        """Index of the player to act."""
        return self.state.current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended and been scored."""
        return self.state.phase == "over"

    @property
    def phase(self) -> str:
        """``setup`` (choosing first tickets), ``play`` or ``over``."""
        return self.state.phase

    @property
    def num_players(self) -> int:
        """The number of players."""
        return len(self.state.players)

    def legal_actions(self) -> list[Any]:
        """List every action the current player may take now.

        Returns
        -------
        list
            Actions (:mod:`ttr_nb.actions` and the variant's own), each one
            :meth:`apply` accepts, in the rules' order; empty once the game is over.

        See Also
        --------
        apply : Carry one out.
        problem : Why an action is not among them.

        Notes
        -----
        The base rules list claims through a fast path that remembers payments by the
        hand's card counts (:mod:`ttr_nb.rules.fastpath`); ``ttr-nb bench`` times it
        against the plain listing.

        Examples
        --------
        At the start each player keeps 2 or 3 of the 3 tickets dealt:

        >>> game = new_game("usa", players=2, seed=7)
        >>> game.legal_actions()
        [KeepTickets(tickets=(11, 18)), KeepTickets(tickets=(17, 18)), \
KeepTickets(tickets=(11, 17)), KeepTickets(tickets=(11, 17, 18))]
        """
        return self.rules.legal_actions(self)

    def problem(self, action: Any) -> str | None:
        """The rule ``action`` would break, or None if it is legal now."""
        return self.rules.problem(self, action)

    def describe(self, action: Any) -> str:
        """Readable text for ``action`` taken by the current player."""
        return self.rules.describe(self, action)

    # ----------------------------------------------------------- acting
    def apply(self, action: Any) -> None:
        """Carry out an action for the current player.

        The move goes into :attr:`history` and, in words, into :attr:`log`; the turn
        passes on when the rules say it ends.

        Parameters
        ----------
        action : object
            One of the actions of :mod:`ttr_nb.actions` (or of the variant), such as
            one listed by :meth:`legal_actions`.

        Raises
        ------
        IllegalActionError
            If the rules forbid it, naming the player, the action and the rule; the
            game is then exactly as before.

        See Also
        --------
        legal_actions : The actions allowed now.

        Examples
        --------
        >>> from ttr_nb import IllegalActionError, KeepTickets
        >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
        >>> game.apply(KeepTickets((11, 18)))
        >>> game.log[-1], game.current_player
        ('Ann keeps 2 tickets', 1)
        >>> try:
        ...     game.apply(KeepTickets((11, 18)))  # Ben was dealt other tickets
        ... except IllegalActionError as error:
        ...     print(error)
        Ben cannot keep 2 tickets: they can only keep tickets they have just drawn
        >>> len(game.history)
        1
        """
        rules = self.rules
        reason = rules.problem(self, action)
        if reason is not None:
            who = self.state.players[self.state.current].name
            what = rules.describe(self, action, imperative=True)
            raise IllegalActionError(who, what, reason)
        line = "" if self.quiet else rules.log_line(self, action)
        self.history.append(Move(self.state.current, action))
        rules.execute(self, action)
        self.log.append(line)

    # ----------------------------------------------------------- copying
    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy to look ahead with: acting on it never changes this game.

        The map and the rules are shared (both immutable); the state, the history and the
        log are copied. The copy's random generator continues exactly as this game's
        would (same reshuffles and draws), unless ``rng`` is given: then the copy draws
        from ``rng`` (a search that samples its own futures saves the cost of copying
        the generator's state, about half of a clone's cost).

        ``copy.deepcopy(game)`` gives the same as ``game.clone()``.

        >>> game = new_game("usa", 2, seed=3)
        >>> twin = game.clone()
        >>> twin.apply(twin.legal_actions()[0])
        >>> len(twin.history), len(game.history)
        (1, 0)
        """
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin.names = list(self.names)
        if rng is None:
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
        twin.rng = rng
        twin.state = self.state.copy()
        twin.history = list(self.history)
        twin.log = list(self.log)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.clone()

    # ------------------------------------------------------------ scores
    def scores(self) -> list[dict[str, int]]:
        """Points per player by component, with ``total``.

        During play this is the running score (routes and other in-play points);
        once the game is over it is the final breakdown (tickets, bonuses, ...).
        """
        rows = self.rules.score_components(self.state, final=self.is_over)
        for row in rows:
            row["total"] = sum(row.values())
        return rows

    def result(self) -> dict[str, Any] | None:
        """Winners and what decided it, or None while the game goes on.

        Returns a dict with ``winners`` (player indices; several only when every
        tie-breaker is equal), ``decided_by`` (``"points"``, a tie-breaker's
        name, or ``"shared victory"``) and ``scores``.
        """
        if not self.is_over:
            return None
        rows = self.scores()
        best = max(r["total"] for r in rows)
        alive = [i for i, r in enumerate(rows) if r["total"] == best]
        decided_by = "points"
        if len(alive) > 1:
            decided_by = "shared victory"
            for label, values in self.rules.tiebreaks(self.state, rows):
                top = max(values[i] for i in alive)
                narrowed = [i for i in alive if values[i] == top]
                if len(narrowed) < len(alive):
                    alive = narrowed
                    if len(alive) == 1:
                        decided_by = label
                        break
        return {
            "winners": alive,
            "decided_by": decided_by,
            "scores": rows,
            "ended_by": self.rules.end_text(self.state),
        }

    @property
    def winners(self) -> list[int]:
        """Winning players (several only for a shared victory); empty during play."""
        result = self.result()
        return result["winners"] if result else []

    @property
    def winner(self) -> int | None:
        """The winning player, or None during play or for a shared victory."""
        winners = self.winners
        return winners[0] if len(winners) == 1 else None

    def ticket_status(self, player: int) -> list[tuple[int, bool]]:
        """(ticket id, completed so far) for each ticket the player holds."""
        p = self.state.players[player]
        return [(t, self.rules.ticket_done(self.state, p, t)) for t in p.tickets]

    def observation(self, player: int) -> dict[str, Any]:
        """What one player may see: their own hand and tickets, only counts of others'.

        Draw piles are shown as sizes; a variant hides its own secrets (a second deck,
        choices not yet revealed) through :meth:`Rules.public_extras`. A bot or a page
        that shows one seat reads this, never :attr:`state`.

        Parameters
        ----------
        player : int
            The seat, from 0.

        Returns
        -------
        dict
            Plain JSON-able data: the public position (``face_up``, ``owner`` of each
            claimed route, pile sizes, ``turn``, ``phase``, ...), the seat's own
            ``hand``, ``tickets`` and ``offer``, and per player (``players``) their
            name, hand size, ticket count, pieces, routes and score.

        Examples
        --------
        >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
        >>> seen = game.observation(1)
        >>> seen["you"], seen["tickets"], len(seen["offer"])
        (1, [], 3)
        >>> seen["players"][0]
        {'name': 'Ann', 'hand_size': 4, 'ticket_count': 0, 'pieces': {'train': 45}, \
'routes': [], 'score': 0, 'extras': {}}
        >>> "hand" in seen["players"][0]  # Ann's cards are hers alone
        False
        """
        state = self.state
        me = state.players[player]
        rules = self.rules
        return {
            "map": state.map,
            "you": player,
            "phase": state.phase,
            "current": state.current,
            "pending": state.pending if state.current == player else None,
            "turn": state.turn,
            "face_up": list(state.face_up),
            "deck_size": len(state.deck),
            "discard_size": len(state.discard),
            "deck_sizes": {d: len(rules.piles(state, d)[0]) for d in rules.deck_names},
            "discard_sizes": {d: len(rules.piles(state, d)[1]) for d in rules.deck_names},
            "ticket_deck_sizes": {k: len(v) for k, v in state.ticket_decks.items()},
            "owner": {str(k): v for k, v in sorted(state.owner.items())},
            "final_turns_left": state.final_turns_left,
            "hand": dict(me.hand),
            "tickets": list(me.tickets),
            "offer": list(me.offer),
            "extras": rules.public_extras(state, player),
            "players": [
                {
                    "name": p.name,
                    "hand_size": p.hand_size,
                    "ticket_count": len(p.tickets),
                    "pieces": dict(p.pieces),
                    "routes": list(p.routes),
                    "score": p.route_score,
                    "extras": p.extras,
                }
                for p in state.players
            ],
        }

    # ------------------------------------------------------ history/saves
    def replay(self, steps: int | None = None) -> Game:
        """A new game rebuilt from the seed and the first ``steps`` actions (default: all)."""
        self._rebuildable()
        moves = self.history if steps is None else self.history[: max(0, steps)]
        game = Game(self.map, self.names, self.seed)
        for move in moves:
            game.apply(move.action)
        return game

    def snapshot(self) -> str:
        """Everything that decides the game from here, as JSON text: the state, the
        random generator and the moves so far (cheap, unlike :meth:`to_json`).

        A refused action leaves it byte-identical.
        """
        return json.dumps(
            [
                self.state.to_dict(),
                self.rng.getstate(),
                [action_to_dict(m.action) for m in self.history],
                self.log,
            ],
            ensure_ascii=False,
        )

    def checks(self) -> list[str]:
        """A short check code of the position after each move (saves carry them).

        Loading a save compares them move by move, so an edited move is named
        precisely. Computed by replaying the game, so playing never pays for them.
        """
        self._rebuildable()
        game = Game(self.map, self.names, self.seed)
        out = []
        for move in self.history:
            game.apply(move.action)
            out.append(position_check(game.state))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready save: map id, players, seed, the moves (readable, with check codes)
        and the final state (the random generator is not stored: the seed rebuilds it)."""
        checks = self.checks()
        return {
            "format": SAVE_FORMAT,
            "map": self.map.id,
            "players": list(self.names),
            "seed": self.seed,
            "deal": self.deal_check,
            "history": [
                {
                    "player": m.player,
                    "action": action_to_dict(m.action),
                    "log": line,
                    "check": check,
                }
                for m, line, check in zip(self.history, self.log, checks, strict=True)
            ],
            "state": self.state.to_dict(),
        }

    def _rebuildable(self) -> None:
        if self.sampled_for is not None:
            raise ValueError(
                "this game is a world sampled by determinise(): its seed and moves do not "
                "rebuild it, so it cannot be replayed or saved"
            )

    def to_json(self, indent: int | None = None) -> str:
        """The save as JSON text (see :meth:`to_dict`; ``indent`` as in :func:`json.dumps`)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(
        cls, text: str, source: str = "<save>", maps: Iterable[Map] | None = None
    ) -> Game:
        """Load a game saved with :meth:`to_json`.

        The moves are replayed from the seed and must reproduce the saved check
        codes and the stored state exactly, so a damaged or edited save is refused,
        naming the first move whose replay differs.

        Parameters
        ----------
        text : str
            The save (at most ``MAX_SAVE_CHARS`` characters).
        source : str
            How to name the save in messages (a file name, "the text box").
        maps : iterable of Map, optional
            Custom maps the save may name (by id), besides the shipped ones. A save
            never names a file: a custom map is loaded by the notebook's author.

        Raises
        ------
        SaveFormatError
            Naming the source, the field and the reason.
        """
        if not isinstance(text, str):
            raise SaveFormatError(source, "$", f"must be text, not {type(text).__name__}")
        if len(text) > MAX_SAVE_CHARS:
            raise SaveFormatError(
                source,
                "$",
                f"is {len(text):,} characters long; a save may have at most {MAX_SAVE_CHARS:,}",
            )
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveFormatError(source, "$", f"is not valid JSON ({exc})") from None
        except RecursionError:
            raise SaveFormatError(source, "$", "is nested too deeply to be a save") from None
        except ValueError as exc:  # e.g. a number with too many digits
            raise SaveFormatError(source, "$", f"is not a usable save ({exc})") from None
        return cls.from_dict(data, source, maps)

    @classmethod
    def from_dict(
        cls, data: Any, source: str = "<save>", maps: Iterable[Map] | None = None
    ) -> Game:
        """Load a save already parsed from JSON (see :meth:`from_json`)."""
        if isinstance(data, dict) and data.get("format") == OLD_SAVE_FORMAT:
            raise SaveFormatError(
                source, "$.format", "was written by an older ttr-nb; replay it there and save again"
            )
        history = data.get("history") if isinstance(data, dict) else None
        # Counted before the schema check (which would walk every move), but only when it is
        # a list: anything else is left to the schema check to name.
        if isinstance(history, list) and len(history) > MAX_SAVE_MOVES:
            raise SaveFormatError(
                source,
                "$.history",
                f"holds more than {MAX_SAVE_MOVES:,} moves; no game is that long",
            )
        problem = schema_checker(str(SAVE_SCHEMA_PATH))(data)
        if problem is not None:
            raise SaveFormatError(source, *problem)
        game_map = _saved_map(data["map"], source, maps)
        problem = _seed_problem(data["seed"])
        if problem is not None:  # JSON Schema counts 0.0 as an integer; the generator does not
            raise SaveFormatError(source, "$.seed", problem)
        try:
            game = cls(game_map, data["players"], data["seed"])
        except PlayerNameError as exc:
            raise SaveFormatError(source, f"$.players[{exc.seat}]", exc.reason) from None
        if data.get("deal", game.deal_check) != game.deal_check:
            raise SaveFormatError(
                source,
                "$.seed",
                f"seed {data['seed']} does not deal the saved game's cards and tickets "
                "(was the seed changed?)",
            )
        for i, move in enumerate(data["history"]):
            _replay_move(game, move, i, source)
        replayed = game.state.to_dict()
        if "state" in data and replayed != data["state"]:
            path, saved, actual = _first_difference(data["state"], replayed, "$.state")
            raise SaveFormatError(
                source,
                path,
                f"the save says {short(saved)}, but its moves lead to {short(actual)} "
                "(the saved position was edited)",
            )
        return game

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and self.map is other.map
            and (self.names, self.seed) == (other.names, other.seed)
            and [m.action for m in self.history] == [m.action for m in other.history]
        )

    def __repr__(self) -> str:
        return (
            f"<Game {self.map.id} {self.num_players}p seed={self.seed} "
            f"{self.phase} turn {self.state.turn}, {len(self.history)} actions>"
        )


def position_check(state: GameState) -> str:
    """Six hex digits that change when anything a move changes does.

    >>> len(position_check(new_game("usa", 2, seed=1).state))
    6
    """
    players = [
        (tuple(p.hand.values()), p.tickets, p.offer, p.routes, p.route_score, p.extras)
        for p in state.players
    ]
    summary = (
        state.current,
        state.pending,
        state.phase,
        len(state.deck),
        len(state.discard),
        state.face_up,
        players,
        state.extras,
    )
    return f"{zlib.crc32(repr(summary).encode('utf-8')) & 0xFFFFFF:06x}"


def _seed_problem(seed: Any) -> str | None:
    """Why ``seed`` cannot seed a game (it must be a whole number), or None."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        return f"must be a whole number, not {short(seed)}"
    return None


def checked_names(names: Any) -> list[str]:
    """The player names, or :class:`PlayerNameError` for an unusable one.

    A name is 1 to ``MAX_NAME_CHARS`` printable characters (no control
    characters, no lone surrogates: they could not be saved as UTF-8).
    """
    if not isinstance(names, list | tuple):
        raise ValueError(f"players must be a list of names, not {short(names)}")
    if not 2 <= len(names) <= 5:
        raise ValueError(f"Ticket to Ride is for 2 to 5 players, not {len(names)}")
    for seat, name in enumerate(names):
        if not isinstance(name, str):
            raise PlayerNameError(seat, f"must be text, not {short(name)}")
        if not name.strip():
            raise PlayerNameError(seat, "is empty")
        if len(name) > MAX_NAME_CHARS:
            raise PlayerNameError(
                seat, f"has {len(name):,} characters; at most {MAX_NAME_CHARS} are allowed"
            )
        if not name.isprintable():
            raise PlayerNameError(seat, "may only hold printable characters")
    return list(names)


def _saved_map(name: str, source: str, maps: Iterable[Map] | None) -> Map:
    """The map a save names: a shipped map or one the notebook's author passed in."""
    custom = {m.id: m for m in maps or ()}
    if name in custom:
        return custom[name]
    shipped = available_maps()
    if name not in shipped:
        raise SaveFormatError(
            source, "$.map", f"{short(name)} is not a map of this app (maps: {', '.join(shipped)})"
        )
    try:
        return load_map(name)
    except ValueError as exc:
        raise SaveFormatError(source, "$.map", str(exc)) from None


def _replay_move(game: Game, move: dict[str, Any], i: int, source: str) -> None:
    where = f"$.history[{i}]"
    action = action_from_dict(move["action"], f"{where}.action", source)
    if move["player"] != game.current_player:
        raise SaveFormatError(
            source,
            f"{where}.player",
            f"move {i + 1}: it was {game.state.players[game.current_player].name}'s turn "
            f"(player {game.current_player}), not player {move['player']}'s",
        )
    line = game.describe(action)
    try:
        game.apply(action)
    except IllegalActionError as exc:
        raise SaveFormatError(source, where, f"move {i + 1} is illegal: {exc}") from None
    saved_line = move.get("log")
    if saved_line is not None and saved_line != line:
        raise SaveFormatError(
            source,
            where,
            f"move {i + 1}: the save says {short(saved_line, 90)}, but replaying it gives "
            f"{short(line, 90)} (this move, an earlier one or the seed was edited)",
        )
    if move.get("check", position_check(game.state)) != position_check(game.state):
        raise SaveFormatError(
            source,
            where,
            f"move {i + 1} ({short(line, 90)}) leads to another position than the saved one "
            "(this move, an earlier one or the seed was edited)",
        )


def _first_difference(saved: Any, actual: Any, path: str) -> tuple[str, Any, Any]:
    """JSON path of the first place where two JSON values differ, with both values there."""
    if isinstance(saved, dict) and isinstance(actual, dict):
        for key in list(actual) + [k for k in saved if k not in actual]:
            if saved.get(key, _MISSING) != actual.get(key, _MISSING):
                return _first_difference(
                    saved.get(key, _MISSING), actual.get(key, _MISSING), f"{path}.{key}"
                )
    if isinstance(saved, list) and isinstance(actual, list) and len(saved) == len(actual):
        for k, (a, b) in enumerate(zip(saved, actual, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{k}]")
    return path, saved, actual


class _Missing:
    def __repr__(self) -> str:
        return "nothing"


_MISSING = _Missing()


def new_game(
    map_name: str | Map = "usa",
    players: int | list[str] = 2,
    seed: int = 0,
) -> Game:
    """Start a game on a map: the map's ``rules`` field picks the variant.

    Parameters
    ----------
    map_name : str or Map, default "usa"
        A shipped map's name (one of :func:`~ttr_nb.maps.available_maps`), a path to a
        map file, or a loaded :class:`~ttr_nb.maps.Map`.
    players : int or list of str, default 2
        How many players (2 to 5), named "Player 1", "Player 2", ...; or their names.
    seed : int, default 0
        Seed of the game's random generator: the same map, seed and actions replay the
        same game.

    Returns
    -------
    Game
        A game in its setup phase: the first seat chooses tickets.

    Raises
    ------
    MapFormatError
        If the map cannot be loaded.
    ValueError
        For a number of players the variant does not allow, a bad name or a bad seed.

    See Also
    --------
    Game : What a game can do.
    ttr_nb.maps.load_map : Load a map once for many games.

    Examples
    --------
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> game.map.name, game.phase, game.names[game.current_player]
    ('USA', 'setup', 'Ann')
    >>> new_game("europe", players=3).rules.name
    'europe'
    >>> new_game("usa", players=1)
    Traceback (most recent call last):
    ...
    ValueError: Ticket to Ride is for 2 to 5 players, not 1
    """
    game_map = map_name if isinstance(map_name, Map) else load_map(map_name)
    names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else players
    return Game(game_map, list(names), seed)
