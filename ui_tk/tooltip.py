"""Tooltips: a small yellow note under a widget while the pointer rests on it.

Written here rather than taken from a package: the PyPI tooltip packages for Tk create
one hidden toplevel window per widget at once and keep a timer running while a note is
shown; this one creates its window only while the note is shown and has no timer then.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable

__all__ = ["DELAY_MS", "Tooltip"]

DELAY_MS = 500
"""How long the pointer must rest on a widget before its note shows."""


class Tooltip:
    """A note for ``widget``, shown :data:`DELAY_MS` after the pointer enters it and
    hidden when it leaves or a button is pressed.

    :param widget: the widget the note belongs to.
    :param text: the note, or a function returning it (read each time it shows).

    Attributes for tests: ``window`` (the shown note's toplevel, or ``None``),
    :attr:`text`.
    """

    def __init__(self, widget: tk.Misc, text: str | Callable[[], str]) -> None:
        self.widget = widget
        self._text = text
        self.window: tk.Toplevel | None = None
        self._job: str | None = None
        widget.bind("<Enter>", self._enter, add="+")
        widget.bind("<Leave>", self._hide, add="+")
        widget.bind("<ButtonPress>", self._hide, add="+")
        widget.bind("<Destroy>", self._hide, add="+")

    @property
    def text(self) -> str:
        """The note's text now."""
        return self._text() if callable(self._text) else self._text

    @text.setter
    def text(self, value: str | Callable[[], str]) -> None:
        self._text = value

    def _enter(self, event: tk.Event | None = None) -> None:
        self._cancel()
        self._job = self.widget.after(DELAY_MS, self.show)

    def _cancel(self) -> None:
        if self._job is not None:
            try:
                self.widget.after_cancel(self._job)
            except tk.TclError:
                pass
            self._job = None

    def show(self) -> None:
        """Show the note now, just below the widget."""
        self._job = None
        text = self.text
        if not text or self.window is not None or not self.widget.winfo_exists():
            return
        window = tk.Toplevel(self.widget)
        window.wm_overrideredirect(True)
        tk.Label(
            window, text=text, justify="left", background="#ffffe0", foreground="#202020",
            relief="solid", borderwidth=1, padx=6, pady=3, wraplength=420,
        ).pack()  # fmt: skip
        x = self.widget.winfo_rootx() + 4
        y = self.widget.winfo_rooty() + self.widget.winfo_height() + 4
        window.wm_geometry(f"+{x}+{y}")
        self.window = window

    def _hide(self, event: tk.Event | None = None) -> None:
        self._cancel()
        if self.window is not None:
            try:
                self.window.destroy()
            except tk.TclError:
                pass
            self.window = None

    def hide(self) -> None:
        """Hide the note (and forget a pending one)."""
        self._hide()
