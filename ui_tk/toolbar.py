"""The toolbar above the table: New, Restart, Undo, Redo, Hint, Demo, Undo to winnable,
Statistics and Rules, as in PySolFC, Aisleriot and KPatience.

Each button has a vector icon (:mod:`solitaire_tk.icons`, drawn at the display's
scaling), a short label (dropped when the window is too narrow for them: the icons
stay), and a tooltip naming the command and its key. A button is enabled only when its
command can do something in the game on the table (:meth:`Toolbar.refresh`, called by
the app after every change). Options > Show toolbar hides it (saved in the settings).
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Mapping
from tkinter import ttk
from typing import Any

import attrs
from PIL import ImageTk

from .icons import icon_size, render_icon
from .tooltip import Tooltip

__all__ = ["BUTTONS", "Toolbar"]

_BACKGROUND = "#e9ece6"
_INK = "#2f3a33"
_INK_DISABLED = "#a9b0aa"


@attrs.frozen
class _Button:
    name: str  # the icon, and the key of Toolbar.buttons
    label: str
    tip: str
    command: str  # the name of the command it calls (solitaire_tk.menus.COMMANDS)
    enabled: str  # the test of the game state that enables it (a Toolbar method name)


BUTTONS: tuple[_Button, ...] = (
    _Button("new", "New", "New deal (F2)", "new_deal", "_playing"),
    _Button("restart", "Restart", "Restart this deal (Ctrl+R)", "restart", "_has_moves"),
    _Button("undo", "Undo", "Undo the last move (Ctrl+Z)", "undo", "_can_undo"),
    _Button("redo", "Redo", "Redo (Ctrl+Y)", "redo", "_can_redo"),
    _Button("hint", "Hint", "Hint: outline the next move of a win (Ctrl+H)", "hint", "_can_hint"),
    _Button("demo", "Demo", "Solve (demo): the computer plays on (Ctrl+D)", "demo", "_can_hint"),
    _Button(
        "undo-winnable",
        "Undo to winnable",
        "Undo to the last position known to be winnable (Ctrl+U)",
        "undo_to_winnable",
        "_can_rewind",
    ),  # fmt: skip
    _Button(
        "statistics", "Statistics", "Statistics of every game", "show_statistics", "_always"
    ),  # fmt: skip
    _Button("rules", "Rules", "Rules of this game (F1)", "show_rules", "_playing"),
)
"""The toolbar's buttons, left to right."""


class Toolbar(ttk.Frame):
    """The toolbar of an :class:`~solitaire_tk.app.App`.

    :param master: the parent widget (the app packs it above the table).
    :param commands: the commands of the menus and keys, by name
        (:data:`solitaire_tk.menus.COMMANDS`); each button calls one.
    :param app: the app (a :class:`~solitaire_tk.host.GameHost`; its ``session``,
        ``playing`` and ``assist`` decide which buttons are enabled).

    Attributes for tests: ``buttons`` (name -> ttk.Button, names as in :data:`BUTTONS`),
    ``tooltips`` (name -> :class:`~solitaire_tk.tooltip.Tooltip`), ``icon_px`` (the icon
    size), ``compact`` (labels hidden for want of room).
    """

    def __init__(
        self, master: tk.Misc, commands: Mapping[str, Callable[[], object]], app: Any
    ) -> None:
        style = ttk.Style(master)
        style.configure("Toolbar.TFrame", background=_BACKGROUND)
        style.configure("Toolbar.TButton", background=_BACKGROUND, padding=(6, 3),
                        relief="flat", borderwidth=1)  # fmt: skip
        style.map("Toolbar.TButton", background=[("active", "#d5dbd2")],
                  relief=[("active", "raised")])  # fmt: skip
        super().__init__(master, style="Toolbar.TFrame", padding=(4, 2))
        self.app = app
        self.commands = commands
        self.icon_px = icon_size(self)
        self._photos: list[ImageTk.PhotoImage] = []
        self.buttons: dict[str, ttk.Button] = {}
        self.tooltips: dict[str, Tooltip] = {}
        self.compact = False
        self._full_width: int | None = None  # requested width with the labels
        for spec in BUTTONS:
            normal = ImageTk.PhotoImage(render_icon(spec.name, self.icon_px, _INK), master=self)
            grey = ImageTk.PhotoImage(
                render_icon(spec.name, self.icon_px, _INK_DISABLED), master=self
            )
            self._photos += [normal, grey]
            button = ttk.Button(
                self, text=spec.label, image=(normal, "disabled", grey), compound="left",
                style="Toolbar.TButton", takefocus=False, width=0,
                command=self._caller(spec.command),
            )  # fmt: skip
            button.pack(side="left", padx=1)
            if spec.name in ("redo", "undo-winnable"):
                ttk.Separator(self, orient="vertical").pack(side="left", fill="y", padx=4, pady=3)
            self.buttons[spec.name] = button
            self.tooltips[spec.name] = Tooltip(button, spec.tip)
        self.bind("<Configure>", lambda _e: self._fit(), add="+")

    def _caller(self, command: str) -> Callable[[], None]:
        def call() -> None:
            self.commands[command]()
            self.refresh()

        return call

    def _fit(self) -> None:
        """Drop the labels when the buttons with labels do not fit the window."""
        width = self.winfo_width()
        if width <= 1:
            return
        if self._full_width is None:
            if self.compact:
                return
            self._full_width = self.winfo_reqwidth()
        compact = self._full_width > width
        if compact != self.compact:
            self.compact = compact
            for button in self.buttons.values():
                button.configure(compound="image" if compact else "left")

    # ------------------------------------------------------------------ state

    def refresh(self) -> None:
        """Enable the buttons whose command can act on the game on the table."""
        if not self.winfo_exists():
            return
        for spec in BUTTONS:
            on = bool(getattr(self, spec.enabled)())
            self.buttons[spec.name].state(["!disabled"] if on else ["disabled"])

    def _always(self) -> bool:
        return True

    def _playing(self) -> bool:
        return self.app.playing

    def _busy(self) -> bool:
        assist = getattr(self.app, "assist", None)
        return assist is not None and assist.demo_running

    def _has_moves(self) -> bool:
        session = self.app.session
        return (
            self.app.playing
            and session is not None
            and bool(session.history or session.redo_stack)
            and not self._busy()
        )

    def _can_undo(self) -> bool:
        session = self.app.session
        return self.app.playing and session is not None and session.can_undo

    def _can_redo(self) -> bool:
        session = self.app.session
        return self.app.playing and session is not None and session.can_redo

    def _can_hint(self) -> bool:
        session = self.app.session
        return self.app.playing and session is not None and not session.is_won and not self._busy()

    def _can_rewind(self) -> bool:
        from .rewind import rewind_target

        return self.app.playing and rewind_target(self.app) is not None
