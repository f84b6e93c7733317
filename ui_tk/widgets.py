"""The dialogs' common parts: the :class:`Dialog` window (transient, centred, Escape
closes it, modal or not), fonts, colours, shortened text and play-clock text.

Every dialog is a :class:`tkinter.Toplevel` transient to its parent. With ``wait=True``
(the default) it is modal: it grabs input and returns when closed. With ``wait=False`` it
returns the Toplevel at once so tests can drive it (IDLE's convention for testable
dialogs); callbacks then run as soon as a button is pressed.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Iterable, Mapping, Sequence
from tkinter import font as tkfont
from tkinter import ttk
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solitaire_core.variant import VariantDefinition

__all__ = [
    "DIM",
    "ELLIPSIS",
    "ERROR",
    "Confirm",
    "Dialog",
    "Tooltip",
    "clock_text",
    "option_text",
    "elide",
    "scaled_font",
    "scrolled_text",
]

DIM = "#5a5f66"
"""Colour of secondary text (help lines, notes)."""

ERROR = "#b3261e"
"""Colour of error messages next to a field."""

Confirm = Callable[[str, str], bool]
"""``confirm(title, question) -> bool``: ask the player to confirm an action."""


# --- the common frame ----------------------------------------------------------------------


class Dialog(tk.Toplevel):
    """A dialog window: transient, centred on its parent, Escape closes it.

    :param parent: any widget of the parent window.
    :param title: the window title.
    :param wait: modal (grab + wait until closed) when true.
    """

    def __init__(self, parent: tk.Misc, title: str, *, wait: bool) -> None:
        super().__init__(parent)
        self.withdraw()
        self.title(title)
        self._wait = wait
        self._choice: str | None = None
        self._callbacks: dict[str, Callable[[], Any] | None] = {}
        master = parent.winfo_toplevel()
        if master.winfo_viewable():
            self.transient(master)
        self.protocol("WM_DELETE_WINDOW", self.close)
        self.bind("<Escape>", lambda _e: self.close())
        self.body = ttk.Frame(self, padding=(20, 16, 20, 16))
        self.body.pack(fill="both", expand=True)

    @property
    def choice(self) -> str | None:
        """The button the player pressed (``"next"``, ``"undo"`` ...), ``None`` if closed."""
        return self._choice

    def heading(self, text: str, row: int = 0, columnspan: int = 1) -> ttk.Label:
        """A large bold title line in the body's grid."""
        label = ttk.Label(
            self.body, text=text, font=scaled_font(self, "TkHeadingFont", 4, bold=True)
        )
        label.grid(row=row, column=0, columnspan=columnspan, sticky="w", pady=(0, 10))
        return label

    def buttons(
        self, specs: Sequence[tuple[str, str]], *, default: str, row: int, columnspan: int = 1
    ) -> dict[str, ttk.Button]:
        """A right-aligned row of buttons; ``specs`` holds ``(choice, text)``; Return
        presses the one whose choice is ``default``."""
        bar = ttk.Frame(self.body)
        bar.grid(row=row, column=0, columnspan=columnspan, sticky="e", pady=(16, 0))
        made: dict[str, ttk.Button] = {}
        for choice, text in specs:
            button = ttk.Button(bar, text=text, command=self._chooser(choice))
            if choice == default:
                button.configure(default="active")
            button.pack(side="left", padx=(8, 0))
            button.bind("<Return>", _press)
            made[choice] = button

        def press_default(_event: object) -> None:
            made[default].invoke()

        self.bind("<Return>", press_default)
        self.bind("<KP_Enter>", press_default)
        return made

    def _chooser(self, choice: str) -> Callable[[], None]:
        def choose() -> None:
            self.finish(choice)

        return choose

    def show(self, focus: tk.Misc | None = None) -> None:
        """Place the dialog over its parent, show it, and with ``wait`` block until it
        is closed."""
        self.update_idletasks()
        self._place()
        self.deiconify()
        self.lift()
        (focus or self).focus_set()
        if self._wait:
            try:
                self.grab_set()
            except tk.TclError:  # another application holds the grab
                pass
            self.wait_window()
            self._run_callback()

    def _place(self) -> None:
        master = self.master.winfo_toplevel() if self.master else self
        width, height = self.winfo_reqwidth(), self.winfo_reqheight()
        if master.winfo_viewable():
            x = master.winfo_rootx() + (master.winfo_width() - width) // 2
            y = master.winfo_rooty() + (master.winfo_height() - height) // 3
        else:
            x = (self.winfo_screenwidth() - width) // 2
            y = (self.winfo_screenheight() - height) // 3
        self.geometry(f"+{max(0, x)}+{max(0, y)}")

    def finish(self, choice: str | None) -> None:
        """Close the dialog as if the button ``choice`` had been pressed."""
        self._choice = choice
        self.close()
        if not self._wait:
            self._run_callback()

    def close(self) -> None:
        """Close without choosing (Escape, the window's close box)."""
        if not self.winfo_exists():
            return
        try:
            self.grab_release()
        except tk.TclError:
            pass
        self.destroy()

    def _run_callback(self) -> None:
        callback = self._callbacks.get(self._choice or "")
        self._callbacks = {}
        if callback is not None:
            callback()


def _press(event: tk.Event) -> str:
    """Return on a focused button presses that button (not the dialog's default)."""
    widget = event.widget
    if isinstance(widget, ttk.Button):
        widget.invoke()
    return "break"


def scaled_font(widget: tk.Misc, base: str, grow: int = 0, *, bold: bool = False) -> tkfont.Font:
    """A copy of the named font ``base`` (e.g. ``"TkHeadingFont"``), ``grow`` points
    larger, optionally bold; kept alive on ``widget`` so Tk does not drop it while the
    widget lives."""
    original = tkfont.nametofont(base, root=widget)
    copy = original.copy()
    size = original.actual("size")
    if size:
        copy.configure(size=(size + grow) if size > 0 else (size - grow))
    if bold:
        copy.configure(weight="bold")
    fonts = getattr(widget, "_dialog_fonts", [])
    fonts.append(copy)
    widget._dialog_fonts = fonts  # type: ignore[attr-defined]
    return copy


ELLIPSIS = "…"


def elide(text: str, width: float, measure: Callable[[str], float]) -> str:
    """``text`` as it fits in ``width`` pixels: whole when it fits, else its longest
    beginning that fits with :data:`ELLIPSIS` after it (trailing spaces and punctuation
    before the ellipsis dropped), or ``""`` when not even the ellipsis fits.

    :param width: the room in pixels.
    :param measure: the width of a string in pixels (``tkinter.font.Font.measure``).
    """
    if measure(text) <= width:
        return text
    low, high = 0, len(text)  # text[:low] + ELLIPSIS fits; text[:high] + ELLIPSIS does not
    if measure(ELLIPSIS) > width:
        return ""
    while high - low > 1:
        middle = (low + high) // 2
        if measure(text[:middle] + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle
    return text[:low].rstrip(" ,;:.(—-") + ELLIPSIS


def scrolled_text(parent: tk.Misc, *, width: int, height: int) -> tk.Text:
    """A read-only-looking text box with a vertical scroll bar, gridded at row 1 of
    ``parent`` (below a heading); ``width`` and ``height`` in characters and lines."""
    frame = ttk.Frame(parent)
    text = tk.Text(
        frame,
        width=width,
        height=height,
        wrap="word",
        relief="flat",
        borderwidth=0,
        highlightthickness=0,
        padx=14,
        pady=12,
        background="#fbfbf8",
        spacing1=1,
        spacing3=3,
    )
    bar = ttk.Scrollbar(frame, orient="vertical", command=text.yview)
    text.configure(yscrollcommand=bar.set)
    text.pack(side="left", fill="both", expand=True)
    bar.pack(side="right", fill="y")
    frame.grid(row=1, column=0, sticky="nsew")
    return text


def clock_text(seconds: float) -> str:
    """A play time as the status bar and the dialogs show it: ``"4:07"``, ``"1:02:03"``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{rest // 60}:{rest % 60:02d}"


def option_text(
    definition: VariantDefinition | None,
    options: Mapping[str, str] | Iterable[tuple[str, str]],
    *,
    names: bool = True,
) -> str:
    """A variant's chosen options in words, as the title bar, the status bar, the resume
    question and the statistics show them: ``"Empty columns take: Any card"`` (with
    ``names``) or ``"Any card"``; several are joined by ``"; "``; ``""`` for none. An
    option ``definition`` does not know is shown as ``name=value``.

    :param definition: the variant (``None``: every option as ``name=value``).
    :param options: option name -> chosen value (a mapping or pairs, as
        ``Rules.options``).
    """
    parts = []
    for name, value in sorted(dict(options).items()):
        text = f"{name}={value}"
        for option in definition.options if definition is not None else ():
            if option.name == name:
                try:
                    label = option.choice(value).label
                except KeyError:
                    break
                text = f"{option.label}: {label}" if names else label
        parts.append(text)
    return "; ".join(parts)


class Tooltip:
    """A small window with a text, shown under ``widget`` while the pointer is over it.

    :param widget: the widget that shows the tip.
    :param text: returns the text to show, or ``""`` for none (asked each time the
        pointer enters, so the text can follow what the widget shows).
    :param delay: milliseconds the pointer rests before the tip appears.

    Attribute ``window``: the tip's Toplevel while it is shown, else ``None``.
    """

    def __init__(self, widget: tk.Misc, text: Callable[[], str], *, delay: int = 400) -> None:
        self.widget = widget
        self.text = text
        self.delay = delay
        self.window: tk.Toplevel | None = None
        self._job: str | None = None
        widget.bind("<Enter>", lambda _e: self._schedule(), add=True)
        widget.bind("<Leave>", lambda _e: self.hide(), add=True)
        widget.bind("<ButtonPress>", lambda _e: self.hide(), add=True)

    def _schedule(self) -> None:
        self.hide()
        self._job = self.widget.after(self.delay, self.show)

    def show(self) -> None:
        """Show the tip now (if there is a text)."""
        self._job = None
        text = self.text()
        if not text or not self.widget.winfo_ismapped():
            return
        self.hide()
        window = tk.Toplevel(self.widget)
        window.withdraw()
        window.overrideredirect(True)
        screen = self.widget.winfo_screenwidth()
        label = tk.Label(window, text=text, justify="left", background="#fffbe6",
                         foreground="#222222", relief="solid", borderwidth=1, padx=6,
                         pady=3, wraplength=min(600, screen - 40))  # fmt: skip
        label.pack()
        window.update_idletasks()
        x = min(self.widget.winfo_rootx(), screen - window.winfo_reqwidth() - 4)
        y = self.widget.winfo_rooty() - window.winfo_reqheight() - 4  # above: a status bar
        if y < 0:
            y = self.widget.winfo_rooty() + self.widget.winfo_height() + 4
        window.geometry(f"+{max(0, x)}+{y}")
        window.deiconify()
        self.window = window

    def hide(self) -> None:
        """Hide the tip (and forget a pending one)."""
        if self._job is not None:
            self.widget.after_cancel(self._job)
            self._job = None
        if self.window is not None:
            self.window.destroy()
            self.window = None
