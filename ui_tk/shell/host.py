"""What a feature of the game window may use of the window's controller.

The controller, :class:`solitaire_tk.shell.app.App`, builds its features (the solver's
:class:`~solitaire_tk.shell.assist.Assistant`, and any later one) and hands itself to them as a
:class:`GameHost`. A feature imports this module, never :mod:`solitaire_tk.shell.app`, so
imports run one way: the app imports its features, the features import nothing of the
app.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Mapping
from tkinter import ttk
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from solitaire_core.moves import Move
    from solitaire_core.session import Session

    from ..table.view import TableView

__all__ = ["GameHost"]


class GameHost(Protocol):
    """The controller as its features see it.

    Attributes: ``root`` (the Tk root window), ``session`` (the game on the table, or
    ``None``), ``view`` (the table), ``status`` (the status bar's labels by field name,
    ``"message"`` among them), ``menus`` (``game``, ``edit``, ``options``, ``help``),
    ``launcher`` (the launcher while it is shown, else ``None``), ``used_hint`` (a hint or
    the demo helped in this game), ``hints`` (hints that showed a move in this game, one
    per position), ``demo_played`` (the demo played a move of this game: a win is not
    the player's), ``ended`` (the window is closing).
    """

    root: tk.Tk
    session: Session | None
    view: TableView
    status: Mapping[str, ttk.Label]
    menus: Mapping[str, tk.Menu]
    launcher: Any
    used_hint: bool
    hints: int
    demo_played: bool
    ended: bool

    @property
    def playing(self) -> bool:
        """Whether the table (not the launcher) is shown with a game on it."""
        ...

    @property
    def message(self) -> str:
        """The status bar's message, whole."""
        ...

    def set_message(self, text: str, *, warn: bool = False) -> None:
        """Show ``text`` in the status bar (``warn``: in red, as a refused move's reason)."""
        ...

    def play(self, move: Move | str) -> bool:
        """Play a move as if the player made it; :return: whether it was legal."""
        ...

    def warn(self, title: str, text: str) -> None:
        """Tell the player about a problem in a message box."""
        ...
