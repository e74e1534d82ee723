"""Whether a seat's pieces cover a plan, kind by kind.

A plan needs spaces of each kind of piece (trains; on the World map trains and ships
apart), and a seat's supply holds pieces of each kind: a plan fits when no kind runs
short. Rails & Sails World lets a player exchange pieces of one kind for the other
from the box (a point a piece), so there a shortfall counts only what no exchange can
make up. :data:`SUPPLY` holds a variant's own rule by its rules' name; the others use
:func:`kind_by_kind`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..game import Game

__all__ = ["SUPPLY", "kind_by_kind", "pieces_words", "shortfall"]


def shortfall(view: Game, seat: int, need: Mapping[str, int]) -> dict[str, int]:
    """Pieces of each kind ``seat`` would still lack for ``need`` (spaces by kind), after
    what its variant allows; empty when the pieces cover it.

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", 2, seed=1)
    >>> shortfall(game, 0, {"train": 50})
    {'train': 5}
    """
    rule = SUPPLY.get(view.rules.name, kind_by_kind)
    return rule(view, seat, need)


def kind_by_kind(view: Game, seat: int, need: Mapping[str, int]) -> dict[str, int]:
    """The shortfall of each kind against the pieces of that kind."""
    pieces = view.state.players[seat].pieces
    return {k: n - pieces.get(k, 0) for k, n in need.items() if n > pieces.get(k, 0)}


def world(view: Game, seat: int, need: Mapping[str, int]) -> dict[str, int]:
    """World: a kind that runs short may take pieces from the box, as many as the other
    kind can spare beyond its own need and the box still holds."""
    player = view.state.players[seat]
    pieces, box = player.pieces, player.extras["box"]
    out = {}
    for take, give in (("train", "ship"), ("ship", "train")):
        short = need.get(take, 0) - pieces.get(take, 0)
        if short > 0:
            spare = pieces.get(give, 0) - need.get(give, 0)
            short -= max(0, min(short, spare, box.get(take, 0)))
            if short > 0:
                out[take] = short
    return out


def pieces_words(pieces: Mapping[str, int]) -> str:
    """``12 trains``; ``16 trains and 30 ships``."""
    return " and ".join(f"{n} {kind}{'' if n == 1 else 's'}" for kind, n in pieces.items())


SUPPLY: dict[str, Callable[[Game, int, Mapping[str, int]], dict[str, int]]] = {"world": world}
