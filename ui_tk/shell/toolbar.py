"""The toolbar above the table: New, Restart, Undo, Redo, Hint, Demo, Undo to winnable,
Statistics and Rules, as in PySolFC, Aisleriot and KPatience.

Each button has a vector icon (:mod:`solitaire_tk.faces.icons`, drawn at the display's
scaling), a short label (dropped when the window is too narrow for them: the icons
stay), and a tooltip naming the command and its key. A button is enabled exactly when
its command is (:mod:`solitaire_tk.shell.actions`, the same state the menu entry and the key
follow; :meth:`Toolbar.show_states`, called by the app after every change).
Options > Show toolbar hides it (saved in the settings).
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Mapping
from tkinter import ttk
from typing import Any

import attrs
from PIL import ImageTk

from solitaire_core.i18n import N_
from solitaire_core.i18n import gettext as _

from ..faces.icons import icon_size, render_icon
from ..tooltip import Tooltip

__all__ = ["BUTTONS", "Toolbar"]

_BACKGROUND = "#e9ece6"
_INK = "#2f3a33"
_INK_DISABLED = "#a9b0aa"


@attrs.frozen
class _Button:
    name: str  # the icon, and the key of Toolbar.buttons
    label: str
    tip: str
    command: str  # the name of the command it calls (solitaire_tk.shell.menus.COMMANDS)


BUTTONS: tuple[_Button, ...] = (
    _Button("new", N_("New"), N_("New deal (F2)"), "new_deal"),
    _Button("restart", N_("Restart"), N_("Restart this deal (Ctrl+R)"), "restart"),
    _Button("undo", N_("Undo"), N_("Undo the last move (Ctrl+Z)"), "undo"),
    _Button("redo", N_("Redo"), N_("Redo (Ctrl+Y)"), "redo"),
    _Button("hint", N_("Hint"), N_("Hint: outline the next move of a win (Ctrl+H)"), "hint"),
    _Button("demo", N_("Demo"), N_("Solve (demo): the computer plays on (Ctrl+D)"), "demo"),
    _Button(
        "undo-winnable",
        N_("Undo to winnable"),
        N_("Undo to the last position known to be winnable (Ctrl+U)"),
        "undo_to_winnable",
    ),  # fmt: skip
    _Button("statistics", N_("Statistics"), N_("Statistics of every game"), "show_statistics"),
    _Button("rules", N_("Rules"), N_("Rules of this game (F1)"), "show_rules"),
)
"""The toolbar's buttons, left to right (labels and tips in English, translated when
shown)."""


class Toolbar(ttk.Frame):
    """The toolbar of an :class:`~solitaire_tk.shell.app.App`.

    :param master: the parent widget (the app packs it above the table).
    :param commands: the commands of the menus and keys, by name
        (:data:`solitaire_tk.shell.menus.COMMANDS`); each button calls one.
    :param app: the app (its ``refresh_actions()`` runs after a button's command).

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
                self, text=_(spec.label), image=(normal, "disabled", grey), compound="left",
                style="Toolbar.TButton", takefocus=False, width=0,
                command=self._caller(spec.command),
            )  # fmt: skip
            button.pack(side="left", padx=1)
            if spec.name in ("redo", "undo-winnable"):
                ttk.Separator(self, orient="vertical").pack(side="left", fill="y", padx=4, pady=3)
            self.buttons[spec.name] = button
            self.tooltips[spec.name] = Tooltip(button, _(spec.tip))
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
        """Have the app recompute every command's state (the buttons follow)."""
        refresh = getattr(self.app, "refresh_actions", None)
        if refresh is not None:
            refresh()

    def show_states(self, states: Mapping[str, bool]) -> None:
        """Enable each button whose command is enabled in ``states`` (command name ->
        enabled, :func:`solitaire_tk.shell.actions.action_states`)."""
        if not self.winfo_exists():
            return
        for spec in BUTTONS:
            on = states.get(spec.command, True)
            self.buttons[spec.name].state(["!disabled"] if on else ["disabled"])
