"""The game object: state, legal actions, history, replay and saves."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .actions import action_from_dict, action_to_dict
from .errors import IllegalActionError, SaveFormatError
from .maps import MAPS_DIR, Map, load_map
from .rules import Rules, rules_for
from .state import GameState
from .validation import schema_checker

SAVE_FORMAT = "ttr-nb-save/1"
SAVE_SCHEMA_PATH = Path(__file__).resolve().parent / "save.schema.json"


@dataclass(frozen=True)
class Move:
    """One entry of the history: who did what."""

    player: int
    action: Any


class Game:
    """A game in progress on one map, with its rules, seeded randomness and history.

    Create one with :func:`new_game`; act with :meth:`apply`. Any earlier
    position is rebuilt by :meth:`replay`, since map + seed + actions decide
    everything.
    """

    def __init__(self, game_map: Map, names: list[str], seed: int) -> None:
        if not 2 <= len(names) <= 5:
            raise ValueError(f"Ticket to Ride is for 2 to 5 players, not {len(names)}")
        self.map = game_map
        self.rules: Rules = rules_for(game_map)
        self.seed = seed
        self.names = list(names)
        self.rng = random.Random(seed)
        self.state: GameState = self.rules.new_state(self.names, seed, self.rng)
        self.history: list[Move] = []
        self.log: list[str] = []

    # ----------------------------------------------------------- queries
    @property
    def current_player(self) -> int:
        """Index of the player to act."""
        return self.state.current

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    @property
    def phase(self) -> str:
        """``setup`` (choosing first tickets), ``play`` or ``over``."""
        return self.state.phase

    @property
    def num_players(self) -> int:
        return len(self.state.players)

    def legal_actions(self) -> list[Any]:
        """Every action the current player may take now (empty once the game is over)."""
        return self.rules.legal_actions(self)

    def problem(self, action: Any) -> str | None:
        """The rule ``action`` would break, or None if it is legal now."""
        return self.rules.problem(self, action)

    def describe(self, action: Any) -> str:
        """Readable text for ``action`` taken by the current player."""
        return self.rules.describe(self, action)

    # ----------------------------------------------------------- acting
    def apply(self, action: Any) -> None:
        """Carry out ``action`` for the current player.

        Raises
        ------
        IllegalActionError
            If the rules forbid it; the game is then exactly as before.
        """
        reason = self.rules.problem(self, action)
        if reason is not None:
            who = self.state.players[self.state.current].name
            what = self.rules.describe(self, action, imperative=True)
            raise IllegalActionError(who, what, reason)
        line = self.rules.describe(self, action)
        self.history.append(Move(self.state.current, action))
        self.rules.execute(self, action)
        self.log.append(line)

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
        return {"winners": alive, "decided_by": decided_by, "scores": rows}

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
        """What ``player`` may see: their own hand and tickets, only counts of others'."""
        state = self.state
        me = state.players[player]
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
            "ticket_deck_sizes": {k: len(v) for k, v in state.ticket_decks.items()},
            "owner": {str(k): v for k, v in sorted(state.owner.items())},
            "final_turns_left": state.final_turns_left,
            "hand": dict(me.hand),
            "tickets": list(me.tickets),
            "offer": list(me.offer),
            "extras": state.extras,
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
        moves = self.history if steps is None else self.history[: max(0, steps)]
        game = Game(self.map, self.names, self.seed)
        for move in moves:
            game.apply(move.action)
        return game

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready save: map, players, seed, history and the current state."""
        state = self.state.to_dict()
        state["rng"] = _rng_to_json(self.rng)
        return {
            "format": SAVE_FORMAT,
            "map": self.map.id if self._shipped_map() else self.map.path,
            "players": list(self.names),
            "seed": self.seed,
            "history": [
                {"player": m.player, "action": action_to_dict(m.action)} for m in self.history
            ],
            "state": state,
        }

    def _shipped_map(self) -> bool:
        """Saved by name when the map is one of ``maps/``, by path otherwise."""
        return Path(self.map.path) == (MAPS_DIR / f"{self.map.id}.json").resolve()

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, source: str = "<save>") -> Game:
        """Load a game saved with :meth:`to_json`.

        The history is replayed from the seed and must reproduce the stored
        state exactly, so a damaged or edited save is refused.

        Raises
        ------
        SaveFormatError
            Naming the file, the field and the reason.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveFormatError(source, "$", f"is not valid JSON ({exc})") from None
        return cls.from_dict(data, source)

    @classmethod
    def from_dict(cls, data: Any, source: str = "<save>") -> Game:
        problem = schema_checker(str(SAVE_SCHEMA_PATH))(data)
        if problem is not None:
            raise SaveFormatError(source, *problem)
        try:
            game_map = load_map(data["map"])
        except ValueError as exc:
            raise SaveFormatError(source, "$.map", str(exc)) from None
        game = cls(game_map, data["players"], data["seed"])
        for i, move in enumerate(data["history"]):
            where = f"$.history[{i}]"
            action = action_from_dict(move["action"], f"{where}.action")
            if move["player"] != game.current_player:
                raise SaveFormatError(
                    source, f"{where}.player", f"it was player {game.current_player}'s turn"
                )
            try:
                game.apply(action)
            except IllegalActionError as exc:
                raise SaveFormatError(source, where, f"illegal action: {exc}") from None
        replayed = game.to_dict()["state"]
        if replayed != data["state"]:
            field = next((k for k in replayed if replayed[k] != data["state"].get(k)), "?")
            raise SaveFormatError(
                source, f"$.state.{field}", "does not match the state the history leads to"
            )
        return game

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (
            f"<Game {self.map.id} {self.num_players}p seed={self.seed} "
            f"{self.phase} turn {self.state.turn}, {len(self.history)} actions>"
        )


def _rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def new_game(
    map_name: str | Map = "usa",
    players: int | list[str] = 2,
    seed: int = 0,
) -> Game:
    """Start a game: the map's ``rules`` field picks the variant.

    Parameters
    ----------
    map_name : str or Map
        A shipped map name (``"usa"``), a path to a map file, or a loaded map.
    players : int or list of str
        How many players (2–5), or their names.
    seed : int
        Seed of the game's random generator; the same seed and actions replay
        the same game.
    """
    game_map = map_name if isinstance(map_name, Map) else load_map(map_name)
    names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else players
    return Game(game_map, list(names), seed)
