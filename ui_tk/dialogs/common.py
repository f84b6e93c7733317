"""The small dialogs of the game window: keyboard shortcuts, about, deal number, the win,
and "no useful move left". The rules and the statistics have their own modules
(:mod:`solitaire_tk.dialogs.rules`, :mod:`solitaire_tk.dialogs.stats`); the common window is
:class:`solitaire_tk.widgets.Dialog` (modal with ``wait=True``, else returned at once for
tests to drive).
"""

from __future__ import annotations

import re
import sys
import tkinter as tk
from collections.abc import Callable, Mapping, Sequence
from tkinter import ttk
from typing import Any

from solitaire_core.deal import MAX_DEAL
from solitaire_core.i18n import gettext as _

from ..keys import SHORTCUTS
from ..widgets import DIM, ERROR, Dialog, ScrolledFrame, scaled_font

__all__ = [
    "AboutDialog",
    "DealNumberDialog",
    "LeaveDialog",
    "NoMovesDialog",
    "ShortcutsDialog",
    "WinDialog",
    "ask_deal_number",
    "ask_leave",
    "parse_deal_text",
    "show_about",
    "show_no_moves",
    "show_shortcuts",
    "show_win",
]

_DIGITS = re.compile(r"[0-9]+")


def parse_deal_text(text: str) -> tuple[int | None, str]:
    """Check what a player typed as a deal number.

    :param text: the field's content; spaces around it are ignored.
    :return: ``(number, "")`` for a valid number (1 .. 10**20 - 1), ``(None, "")`` for an
        empty field (a random deal), ``(None, message)`` otherwise, the message saying
        what is wrong in a few plain words.
    """
    text = text.strip()
    if not text:
        return None, ""
    if not _DIGITS.fullmatch(text):
        return None, _("Use digits only (0-9).")
    number = int(text)
    if number < 1:
        return None, _("Deal numbers start at 1.")
    if number > MAX_DEAL:
        return None, _("At most {digits} digits (1 to {largest}).").format(
            digits=len(str(MAX_DEAL)), largest=MAX_DEAL
        )
    return number, ""


# --- keyboard shortcuts --------------------------------------------------------------------


class ShortcutsDialog(Dialog):
    """The keyboard shortcuts, keys in bold on the left.

    On a screen too short for the whole list the list scrolls (``scroller``, a
    :class:`~solitaire_tk.widgets.ScrolledFrame`); the heading and the Close button
    (``close_button``) stay in view.
    """

    def __init__(
        self,
        parent: tk.Misc,
        *,
        wait: bool,
        game_keys: str = "",
        rows: Sequence[tuple[str, str]] = SHORTCUTS,
    ) -> None:
        super().__init__(parent, _("Keyboard shortcuts"), wait=wait)
        self.heading(_("Keyboard shortcuts"), columnspan=2)
        if game_keys:
            ttk.Label(self.body, text=game_keys, wraplength=560, justify="left").grid(
                row=1, column=0, sticky="w", pady=(0, 10)
            )
        self.scroller = ScrolledFrame(self.body, padding=(0, 0, 10, 0))
        self.scroller.grid(row=2, column=0, sticky="nsew")
        self.body.rowconfigure(2, weight=1)
        self.body.columnconfigure(0, weight=1)
        table = self.scroller.interior
        bold = scaled_font(self, "TkDefaultFont", 0, bold=True)
        self.rows: list[tuple[str, str]] = [(_(str(k)), _(str(a))) for k, a in rows]
        for row, (keys, action) in enumerate(self.rows):
            ttk.Label(table, text=keys, font=bold).grid(
                row=row, column=0, sticky="nw", padx=(0, 24), pady=2
            )
            ttk.Label(table, text=action, wraplength=380, justify="left").grid(
                row=row, column=1, sticky="nw", pady=2
            )
        if not self.rows:
            ttk.Label(table, text=_("No shortcuts are defined.")).grid(row=0, column=0)
        self.scroller.bind_wheel()
        self.scroller.bind_keys(self)
        self.close_button = self.buttons([("close", _("Close"))], default="close", row=3)["close"]
        self.show()


def show_shortcuts(
    parent: tk.Misc,
    *,
    wait: bool = True,
    game_keys: str = "",
    rows: Sequence[tuple[str, str]] = SHORTCUTS,
) -> ShortcutsDialog | None:
    """Show the keyboard shortcuts.

    :param rows: ``(keys, action)`` pairs in the order shown (default
        :data:`solitaire_tk.keys.SHORTCUTS`).
    :param game_keys: a sentence above the table naming the pile keys of the game being
        played (e.g. "In Seahaven Towers: columns A-J, cells 1-4, foundations K-N."), or
        ``""``.
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = ShortcutsDialog(parent, wait=wait, game_keys=game_keys, rows=rows)
    return None if wait else dialog


# --- about ---------------------------------------------------------------------------------


def _version() -> str:
    from solitaire_core import __version__

    return __version__


class AboutDialog(Dialog):
    """Program name, version, what it is, credits."""

    def __init__(self, parent: tk.Misc, *, wait: bool) -> None:
        super().__init__(parent, _("About Towers Solitaire"), wait=wait)
        self.heading("Towers Solitaire")
        tk_version = self.tk.call("info", "patchlevel")
        python = ".".join(str(n) for n in sys.version_info[:3])
        lines = [
            (_("Version {version}").format(version=_version()), None),
            (
                _(
                    "A solitaire program for Seahaven Towers, Sea Towers, Double Sea Towers, "
                    "FreeCell and more. Every game is a variant file; plugins add more."
                ),
                None,
            ),
            (
                _(
                    "Seahaven Towers was invented by Art Cabral. Deal numbers are PySolFC's "
                    "game numbers (FreeCell deals below 32000 are Microsoft FreeCell's)."
                ),
                DIM,
            ),
            (
                _(
                    "The court cards' figures and the Open Clip Art deck: playing cards by "
                    "Nicu Buculei, Open Clip Art Library, public domain."
                ),
                DIM,
            ),
            (_("MIT licence. Python {python}, Tk {tk}.").format(python=python, tk=tk_version), DIM),
        ]
        self.text = "\n".join(text for text, _ in lines)
        for row, (text, colour) in enumerate(lines, start=1):
            label = ttk.Label(self.body, text=text, wraplength=400, justify="left")
            if colour:
                label.configure(foreground=colour)
            label.grid(row=row, column=0, sticky="w", pady=(0, 8))
        self.buttons([("close", "OK")], default="close", row=len(lines) + 1)
        self.show()


def show_about(parent: tk.Misc, *, wait: bool = True) -> AboutDialog | None:
    """Show the About box.

    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = AboutDialog(parent, wait=wait)
    return None if wait else dialog


# --- deal number ---------------------------------------------------------------------------


class DealNumberDialog(Dialog):
    """Asks for a deal number; OK is disabled while the text is not a valid one."""

    def __init__(self, parent: tk.Misc, current: int, *, wait: bool) -> None:
        super().__init__(parent, _("Select deal"), wait=wait)
        self.result: int | None = None
        ttk.Label(self.body, text=_("Deal number:")).grid(row=0, column=0, sticky="w")
        self.var = tk.StringVar(self, value=str(current))
        self.entry = ttk.Entry(self.body, textvariable=self.var, width=24)
        self.entry.grid(row=0, column=1, sticky="ew", padx=(8, 0))
        ttk.Label(self.body, text=f"1 to {MAX_DEAL}", foreground=DIM).grid(
            row=1, column=1, sticky="w", padx=(8, 0), pady=(2, 0)
        )
        self.message = ttk.Label(self.body, text="", foreground=ERROR)
        self.message.grid(row=2, column=0, columnspan=2, sticky="w", pady=(6, 0))
        made = self.buttons(
            [("ok", _("OK")), ("cancel", _("Cancel"))], default="ok", row=3, columnspan=2
        )
        self.ok_button = made["ok"]
        self.var.trace_add("write", lambda *_a: self._check())
        self.entry.selection_range(0, "end")
        self._check()
        self.show(self.entry)

    def _check(self) -> None:
        number, error = parse_deal_text(self.var.get())
        if number is None and not error:
            error = _("Type a deal number.")
        self.message.configure(text=error)
        self.ok_button.state(["!disabled"] if number is not None else ["disabled"])

    def finish(self, choice: str | None) -> None:
        if choice == "ok":
            number, _ = parse_deal_text(self.var.get())
            if number is None:
                return
            self.result = number
        super().finish(choice)


def ask_deal_number(
    parent: tk.Misc, current: int, *, wait: bool = True
) -> int | None | DealNumberDialog:
    """Ask which deal to play.

    :param current: the number shown at first (selected, so typing replaces it).
    :return: with ``wait``: the chosen number (1 .. 10**20 - 1), or ``None`` if cancelled;
        without: the dialog (its ``result`` is set when OK is pressed).
    """
    dialog = DealNumberDialog(parent, current, wait=wait)
    return dialog.result if wait else dialog


# --- end of a game -------------------------------------------------------------------------


class WinDialog(Dialog):
    """The game's figures and the buttons Next deal and Close."""

    def __init__(
        self,
        parent: tk.Misc,
        figures: Mapping[str, str],
        *,
        on_next: Callable[[], Any] | None,
        wait: bool,
        title: str = "You won!",
    ) -> None:
        super().__init__(parent, title, wait=wait)
        self._callbacks = {"next": on_next}
        self.heading(title, columnspan=2)
        self.figures = dict(figures)
        bold = scaled_font(self, "TkDefaultFont", 1, bold=True)
        for row, (name, value) in enumerate(self.figures.items(), start=1):
            ttk.Label(self.body, text=name, foreground=DIM).grid(
                row=row, column=0, sticky="w", padx=(0, 28), pady=2
            )
            ttk.Label(self.body, text=value, font=bold).grid(row=row, column=1, sticky="e", pady=2)
        made = self.buttons(
            [("next", _("Next deal")), ("close", _("Close"))],
            default="next",
            row=len(self.figures) + 1,
            columnspan=2,
        )
        self.next_button = made["next"]
        self.show(self.next_button)


def show_win(
    parent: tk.Misc,
    figures: Mapping[str, str],
    *,
    on_next: Callable[[], Any] | None,
    wait: bool = True,
    title: str = "You won!",
) -> WinDialog | None:
    """Congratulate the player and show the game's figures.

    :param title: the window's title and heading (``"Solved by the demo"`` when the
        demo played the game).
    :param figures: label -> value in display order, e.g. ``{"Moves": "87", "Time":
        "4:12", "Score": "52", "Undo used": "no", "Cheats": "0"}``.
    :param on_next: called (after the dialog closed) when the player picks Next deal;
        Return picks it too.
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = WinDialog(parent, figures, on_next=on_next, wait=wait, title=title)
    return None if wait else dialog


class NoMovesDialog(Dialog):
    """The notice that no useful move is left, offering Undo, Restart and New deal."""

    def __init__(
        self,
        parent: tk.Misc,
        *,
        on_undo: Callable[[], Any] | None,
        on_restart: Callable[[], Any] | None,
        on_new_deal: Callable[[], Any] | None,
        wait: bool,
    ) -> None:
        super().__init__(parent, _("No useful move left"), wait=wait)
        self._callbacks = {"undo": on_undo, "restart": on_restart, "new": on_new_deal}
        self.heading(_("No useful move left"))
        self.message = _(
            "No sequence of moves can put another card on a foundation. You can take "
            "moves back, play this deal again from the start, or deal a new game."
        )
        ttk.Label(self.body, text=self.message, wraplength=380, justify="left").grid(
            row=1, column=0, sticky="w"
        )
        made = self.buttons(
            [
                ("undo", _("Undo")),
                ("restart", _("Restart")),
                ("new", _("New deal")),
                ("close", _("Close")),
            ],
            default="undo",
            row=2,
        )
        self.choice_buttons = made
        self.show(made["undo"])


class LeaveDialog(Dialog):
    """The question before a game with a move is left for another: it counts as lost.

    Attributes for tests: ``choice_buttons`` (``"leave"``, ``"cancel"`` -> ttk.Button),
    ``dont_ask`` (the "Don't ask again" check box), ``dont_ask_var``.
    """

    def __init__(
        self, parent: tk.Misc, *, what: str, on_leave: Callable[[bool], Any], wait: bool
    ) -> None:
        super().__init__(parent, _("Leave this game?"), wait=wait)
        self.dont_ask_var = tk.BooleanVar(self, value=False)
        self._callbacks = {"leave": lambda: on_leave(bool(self.dont_ask_var.get()))}
        self.heading(_("Leave this game?"))
        self.message = _("Leaving this game counts as a loss. {action}?").format(action=what)
        ttk.Label(self.body, text=self.message, wraplength=380, justify="left").grid(
            row=1, column=0, sticky="w"
        )
        self.dont_ask = ttk.Checkbutton(
            self.body, text=_("Don't ask again"), variable=self.dont_ask_var
        )
        self.dont_ask.grid(row=2, column=0, sticky="w", pady=(10, 0))
        made = self.buttons(
            [("leave", _("Leave")), ("cancel", _("Cancel"))], default="cancel", row=3
        )
        self.choice_buttons = made
        self.show(made["cancel"])


def ask_leave(
    parent: tk.Misc, *, what: str, on_leave: Callable[[bool], Any], wait: bool = True
) -> LeaveDialog | None:
    """Ask before the game on the table is left, which counts it as lost: "Leaving this
    game counts as a loss. Restart?" with a "Don't ask again" check box.

    :param what: the action in a few words, as a question's verb: ``"Restart"``,
        ``"Deal a new game"``.
    :param on_leave: runs (after the dialog closed) when Leave is pressed, with whether
        "Don't ask again" was ticked; Cancel, Escape and the close box run nothing.
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = LeaveDialog(parent, what=what, on_leave=on_leave, wait=wait)
    return None if wait else dialog


def show_no_moves(
    parent: tk.Misc,
    *,
    on_undo: Callable[[], Any] | None,
    on_restart: Callable[[], Any] | None,
    on_new_deal: Callable[[], Any] | None,
    wait: bool = True,
) -> NoMovesDialog | None:
    """Tell the player no useful move is left; each callback runs (after the dialog
    closed) when its button is pressed; Close and Escape run none.

    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = NoMovesDialog(
        parent, on_undo=on_undo, on_restart=on_restart, on_new_deal=on_new_deal, wait=wait
    )
    return None if wait else dialog
