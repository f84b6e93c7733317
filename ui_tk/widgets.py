"""The dialogs' common parts: the :class:`Dialog` window (transient, centred, Escape
closes it, modal or not), fonts, colours, shortened text and play-clock text, and what
keeps a window on a small screen: :func:`screen_room`, :func:`fit_window` and the
:class:`ScrolledFrame` a part that may not fit scrolls in.

Every dialog is a :class:`tkinter.Toplevel` transient to its parent. With ``wait=True``
(the default) it is modal: it grabs input and returns when closed. With ``wait=False`` it
returns the Toplevel at once so tests can drive it (IDLE's convention for testable
dialogs); callbacks then run as soon as a button is pressed.
"""

from __future__ import annotations

import re
import tkinter as tk
from collections.abc import Callable, Iterable, Mapping, Sequence
from tkinter import font as tkfont
from tkinter import ttk
from typing import TYPE_CHECKING, Any

from solitaire_core.i18n import gettext as _

if TYPE_CHECKING:
    from solitaire_core.variant import VariantDefinition

__all__ = [
    "DIM",
    "ELLIPSIS",
    "ERROR",
    "SCREEN_RESERVE",
    "Confirm",
    "Dialog",
    "ScrolledFrame",
    "Tooltip",
    "clock_text",
    "option_text",
    "elide",
    "fit_window",
    "menu_height",
    "scaled_font",
    "screen_room",
    "screen_size",
    "scrolled_text",
]

DIM = "#5a5f66"
"""Colour of secondary text (help lines, notes)."""

ERROR = "#b3261e"
"""Colour of error messages next to a field."""

Confirm = Callable[[str, str], bool]
"""``confirm(title, question) -> bool``: ask the player to confirm an action."""

SCREEN_RESERVE = (60, 100)
"""Pixels of the screen's width and height a window leaves free: room for the desktop's
panels and dock and for the window's own frame and title bar, which the window manager
adds outside the size Tk gives. 100 px of height is a title bar (about 30-40 px) and a
panel or task bar (about 30-50 px), with some to spare."""


# --- fitting the screen --------------------------------------------------------------------


def screen_size(widget: tk.Misc) -> tuple[int, int]:
    """The width and height in pixels of the screen ``widget`` is on (the X screen: on
    several monitors joined into one screen, all of them)."""
    return widget.winfo_screenwidth(), widget.winfo_screenheight()


def screen_room(widget: tk.Misc) -> tuple[int, int]:
    """The largest width and height in pixels a window on ``widget``'s screen may take:
    the screen less :data:`SCREEN_RESERVE` (at least 320 x 240, on a screen smaller than
    that: the screen)."""
    width, height = screen_size(widget)
    return (
        min(width, max(320, width - SCREEN_RESERVE[0])),
        min(height, max(240, height - SCREEN_RESERVE[1])),
    )


def menu_height(window: tk.Misc) -> int:
    """The height in pixels of ``window``'s menu bar (0 without one), which Tk puts
    above the size the window is given. It is that of the bar Tk draws, a clone of the
    menu named ``WINDOW.#MENU`` (the menu's own requested height is that of a menu
    laid out for a narrow window, several rows); a guess from the menu font when there
    is no clone yet."""
    menu = str(window.cget("menu")) if isinstance(window, (tk.Tk, tk.Toplevel)) else ""
    if not menu:
        return 0
    path = str(window)
    clone = ("" if path == "." else path) + "." + menu.replace(".", "#")
    try:
        height = int(window.tk.call("winfo", "reqheight", clone))
    except tk.TclError:
        height = 0
    if height > 1:
        return height
    return 2 * tkfont.nametofont("TkMenuFont", root=window).metrics("linespace")


def fit_window(
    window: tk.Wm, width: int, height: int, *, over: tk.Misc | None = None, set_size: bool = True
) -> tuple[int, int]:
    """Give a toplevel window the size ``width`` x ``height`` pixels, or less where the
    screen has no room for it (:func:`screen_room`), and put it on the screen: centred
    over the window ``over`` when that is shown (a third of the free height above it),
    else on the screen, and moved in so that no part is past an edge. A window taller
    than the room is put at the top, where window managers keep it below a top panel.

    :param window: a ``Tk`` or ``Toplevel``.
    :param width: the wanted width in pixels.
    :param height: the wanted height in pixels.
    :param over: the window to centre over (any widget of it), or ``None``.
    :param set_size: with ``False`` only the place is set, and the size only when it has
        to shrink (the window keeps the size its content asks for).
    :return: the size given, ``(width, height)``, each at most the room's.
    """
    room_width, room_height = screen_room(window)
    screen_width, screen_height = screen_size(window)
    fit_width, fit_height = min(width, room_width), min(height, room_height)
    master = over.winfo_toplevel() if over is not None else None
    if master is not None and master.winfo_viewable():
        x = master.winfo_rootx() + (master.winfo_width() - fit_width) // 2
        y = master.winfo_rooty() + (master.winfo_height() - fit_height) // 3
    else:
        x = (screen_width - fit_width) // 2
        y = (screen_height - fit_height) // 3
    x = max(0, min(x, screen_width - fit_width - SCREEN_RESERVE[0] // 2))
    y = max(0, min(y, screen_height - fit_height - SCREEN_RESERVE[1]))
    shrunk = (fit_width, fit_height) != (width, height)
    size = f"{fit_width}x{fit_height}" if set_size or shrunk else ""
    window.wm_geometry(f"{size}+{x}+{y}")
    return fit_width, fit_height


class ScrolledFrame(ttk.Frame):
    """A frame whose content scrolls up and down when it is taller than the frame.

    Put the content into :attr:`interior` (a ``ttk.Frame``): it is as wide as the
    visible part and as tall as its content asks. The scroll bar shows only while the
    content is taller than the frame (its place stays reserved, so the content does not
    change width when it comes and goes). The mouse wheel over the content scrolls it
    (call :meth:`bind_wheel` once the content is built), and a widget of the content that
    takes the keyboard focus is scrolled into view.

    :param parent: the parent widget.
    :param padding: the interior's padding (a ttk padding: pixels, or 2 or 4 of them).
    :param width: the frame's requested width in pixels; ``None``: the content's.
    :param height: the frame's requested height in pixels; ``None``: the content's (a
        window that gives it less makes it scroll).
    :param background: the colour behind the content (default: the theme's frame colour).
    """

    WHEEL_UNITS = 3
    """Scroll units (of 20 px) per step of the mouse wheel."""

    def __init__(
        self,
        parent: tk.Misc,
        *,
        padding: Any = 0,
        width: int | None = None,
        height: int | None = None,
        background: str | None = None,
    ) -> None:
        super().__init__(parent)
        if background is None:
            background = ttk.Style(self).lookup("TFrame", "background") or None
        self._width, self._height = width, height
        self.canvas = tk.Canvas(
            self, highlightthickness=0, borderwidth=0, yscrollincrement=20,
            width=width or 1, height=height or 1,
        )  # fmt: skip
        if background:
            self.canvas.configure(background=background)
        self.bar = ttk.Scrollbar(self, orient="vertical", command=self.canvas.yview)
        self.canvas.configure(yscrollcommand=self.bar.set)
        self.interior = ttk.Frame(self.canvas, padding=padding)
        self._item = self.canvas.create_window(0, 0, window=self.interior, anchor="nw")
        self.canvas.grid(row=0, column=0, sticky="nsew")
        self.bar.grid(row=0, column=1, sticky="ns")
        self.columnconfigure(0, weight=1)
        self.columnconfigure(1, minsize=self.bar.winfo_reqwidth())
        self.rowconfigure(0, weight=1)
        self._tag = f"ScrolledFrame{id(self)}"
        for sequence in ("<MouseWheel>", "<Button-4>", "<Button-5>"):
            self.bind_class(self._tag, sequence, self._on_wheel)
        self.bind_class(self._tag, "<FocusIn>", lambda e: self.see(e.widget), add=True)
        self.interior.bind("<Configure>", lambda _e: self._update(), add=True)
        self.canvas.bind("<Configure>", self._on_canvas_configure, add=True)
        self.canvas.bind("<Map>", self._on_canvas_configure, add=True)
        self.bind_wheel()

    def bind_wheel(self) -> None:
        """Let the mouse wheel over any widget of the content scroll it, and a widget
        that takes the focus be scrolled into view; call again after adding widgets.

        Text boxes, lists, trees and canvases of the content keep their own wheel; a
        combo box's wheel scrolls the content instead of changing the value (the
        value must not change while the player scrolls past it)."""
        todo: list[tk.Misc] = [self.canvas, self.interior]
        while todo:
            widget = todo.pop()
            todo.extend(widget.winfo_children())
            if widget is not self.canvas and isinstance(
                widget, (tk.Text, tk.Listbox, tk.Canvas, ttk.Treeview)
            ):
                continue
            tags = widget.bindtags()
            if self._tag not in tags:
                widget.bindtags((self._tag, *tags))

    def bind_keys(self, window: tk.Misc) -> None:
        """Let Up, Down, Page Up, Page Down, Home and End pressed in ``window`` (a
        dialog whose content is all to be read, not typed into) scroll the content."""
        moves = {
            "<Up>": (-1, "units"), "<Down>": (1, "units"),
            "<Prior>": (-1, "pages"), "<Next>": (1, "pages"),
        }  # fmt: skip
        for sequence, (step, what) in moves.items():
            window.bind(sequence, lambda _e, s=step, w=what: self.canvas.yview_scroll(s, w))
        window.bind("<Home>", lambda _e: self.canvas.yview_moveto(0))
        window.bind("<End>", lambda _e: self.canvas.yview_moveto(1))

    def can_scroll(self) -> bool:
        """Whether the content is taller than the visible part."""
        return self.interior.winfo_reqheight() > self.canvas.winfo_height()

    def see(self, widget: tk.Misc) -> None:
        """Scroll so that ``widget`` (a widget of the content) is in view, if it can be
        (a widget taller than the view shows its top)."""
        if not self.can_scroll():
            return
        total = max(1, self.interior.winfo_height())
        top = widget.winfo_rooty() - self.interior.winfo_rooty()
        bottom = top + widget.winfo_height()
        view_top = int(self.canvas.canvasy(0))
        view_height = self.canvas.winfo_height()
        if top < view_top:
            self.canvas.yview_moveto(top / total)
        elif bottom > view_top + view_height:
            self.canvas.yview_moveto(min(top, bottom - view_height) / total)

    def _on_wheel(self, event: tk.Event) -> str:
        if event.num == 4:
            step = -1
        elif event.num == 5:
            step = 1
        elif event.delta:
            step = -1 if event.delta > 0 else 1
        else:
            return "break"
        if self.can_scroll():
            self.canvas.yview_scroll(step * self.WHEEL_UNITS, "units")
        return "break"

    def _on_canvas_configure(self, _event: tk.Event | None = None) -> None:
        self._fill_width()
        self._update()

    def _fill_width(self) -> None:
        """Make the content as wide as the canvas (set again on each change: a canvas
        that was not mapped, as a notebook's hidden tab, may not have resized it)."""
        shown = self.canvas.winfo_width()
        if shown > 1 and self.interior.winfo_width() != shown:
            self.canvas.itemconfigure(self._item, width=shown)

    def _update(self) -> None:
        """Follow the content's size: scroll region, requested size, the bar."""
        self._fill_width()
        width, height = self.interior.winfo_reqwidth(), self.interior.winfo_reqheight()
        self.canvas.configure(scrollregion=(0, 0, width, height))
        wanted = (self._width or width, self._height or height)
        if (int(self.canvas.cget("width")), int(self.canvas.cget("height"))) != wanted:
            self.canvas.configure(width=wanted[0], height=wanted[1])
        if self.can_scroll():
            self.bar.grid()
        else:
            self.bar.grid_remove()
            self.canvas.yview_moveto(0)

    def destroy(self) -> None:
        """Destroy the frame and forget its wheel bindings."""
        for sequence in ("<MouseWheel>", "<Button-4>", "<Button-5>", "<FocusIn>"):
            self.unbind_class(self._tag, sequence)
        super().destroy()


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
        self._size: tuple[int, int] | None = None  # set by geometry("WxH")
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

    def wm_geometry(self, newGeometry: str | None = None) -> str:  # noqa: N803 (tkinter's)
        """Tk's ``wm geometry``; a size set here (``"600x400"``) is the one :meth:`show`
        fits to the screen, in place of the size the content asks for."""
        if newGeometry:
            size = re.match(r"(\d+)x(\d+)", newGeometry)
            if size:
                self._size = (int(size[1]), int(size[2]))
        return super().wm_geometry(newGeometry)

    geometry = wm_geometry

    def _place(self) -> None:
        """Centre over the parent, on the screen, no larger than the screen's room (a
        dialog too tall for it shrinks: the part of it that can scroll, scrolls)."""
        width, height = self._size or (self.winfo_reqwidth(), self.winfo_reqheight())
        fit_window(self, width, height, over=self.master, set_size=self._size is not None)

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


def scaled_font(
    widget: tk.Misc, base: str, grow: int = 0, *, bold: bool = False, italic: bool = False
) -> tkfont.Font:
    """A copy of the named font ``base`` (e.g. ``"TkHeadingFont"``), ``grow`` points
    larger, optionally bold or italic; kept alive on ``widget`` so Tk does not drop it
    while the widget lives."""
    original = tkfont.nametofont(base, root=widget)
    copy = original.copy()
    size = original.actual("size")
    if size:
        copy.configure(size=(size + grow) if size > 0 else (size - grow))
    if bold:
        copy.configure(weight="bold")
    if italic:
        copy.configure(slant="italic")
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
                text = (
                    _("{option}: {choice}").format(option=option.label, choice=label)
                    if names
                    else label
                )
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
