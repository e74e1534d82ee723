"""A board widget showing one game as it stands: the lessons' boards.

The lessons (:mod:`ttr_nb.teaching.scenarios`) and the variants' lesson boards
(:func:`~ttr_nb.widgets.germany_board.passenger_board`,
:func:`~ttr_nb.widgets.maerklin_board.maerklin_board`) build their boards here, so the
widgets never import the teaching layer above them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .board import BoardPieces, BoardWidget
from .board_svg import BoardSnapshot

__all__ = ["game_board", "refresh_board"]


def game_board(game: Any, highlight: Iterable[int] = (), **options: Any) -> BoardWidget:
    """A board widget showing ``game``'s claimed routes, with ``highlight`` highlighted.

    Parameters
    ----------
    game : Game
        The game to show.
    highlight : iterable of int
        Route ids to highlight.
    **options
        Passed to :class:`~ttr_nb.widgets.BoardWidget` (``max_width`` defaults to 760
        and ``max_height`` to 600 here).

    Returns
    -------
    BoardWidget
        Display it (the widget, plus a picture of the board for notebooks read without
        a kernel); after changing the game call :func:`refresh_board`.
    """
    options.setdefault("max_width", 760)
    options.setdefault("max_height", 600)
    view = BoardWidget(game.map, **options)
    _show(view, game, highlight)
    return view


def refresh_board(view: BoardWidget, game: Any, highlight: Iterable[int] = ()) -> BoardSnapshot:
    """Show ``game``'s current claimed routes (and ``highlight``) on ``view``.

    Returns
    -------
    BoardSnapshot
        A picture of the board as it is now: as the last line of a cell it shows
        nothing in a live notebook (the board above has changed already) and a picture
        of the changed board in a notebook read without a kernel.
    """
    _show(view, game, highlight)
    return view.snapshot()


def _show(view: BoardWidget, game: Any, highlight: Iterable[int]) -> None:
    view.set_pieces(
        BoardPieces(
            owner=dict(game.state.owner),
            player_names=[p.name for p in game.state.players],
            highlighted=frozenset(highlight),
            game=game,
        )
    )
