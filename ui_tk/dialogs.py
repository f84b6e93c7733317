"""The game's dialogs: rules, keyboard shortcuts, about, statistics, deal number, win, and
"no useful move left".

Every dialog is a :class:`tkinter.Toplevel` transient to its parent. With ``wait=True``
(the default) it is modal: it grabs input and returns when closed. With ``wait=False`` it
returns the Toplevel at once so tests can drive it (IDLE's convention for testable
dialogs); callbacks then run as soon as a button is pressed.
"""

from __future__ import annotations

import importlib
import re
import sys
import tkinter as tk
from collections.abc import Callable, Mapping, Sequence
from importlib.resources import files
from tkinter import font as tkfont
from tkinter import messagebox, ttk
from typing import TYPE_CHECKING, Any, Literal

from solitaire_core.deal import MAX_DEAL
from solitaire_core.persistence import figure_texts

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:  # Python 3.10 has it in importlib.abc only
        from importlib.abc import Traversable

    from solitaire_core.persistence import StatsStore, VariantStats
    from solitaire_core.plugins import Registry
    from solitaire_core.variant import Rules, VariantDefinition

__all__ = [
    "DOCS_DIR",
    "ELLIPSIS",
    "ask_deal_number",
    "elide",
    "parse_deal_text",
    "rules_text",
    "scaled_font",
    "show_about",
    "show_no_moves",
    "show_rules",
    "show_shortcuts",
    "show_statistics",
    "show_win",
]

DOCS_DIR: Traversable = files("solitaire_variants.pages")
"""The built-in variants' rules pages, ``<id>.md``: the repository's docs/variants/,
installed as the package ``solitaire_variants.pages`` (package data, so a wheel has them)."""

DIM = "#5a5f66"
"""Colour of secondary text (help lines, notes)."""

ERROR = "#b3261e"
"""Colour of error messages next to a field."""

_DIGITS = re.compile(r"[0-9]+")

Confirm = Callable[[str, str], bool]
"""``confirm(title, question) -> bool``: ask the player to confirm an action."""


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
        return None, "Use digits only (0-9)."
    number = int(text)
    if number < 1:
        return None, "Deal numbers start at 1."
    if number > MAX_DEAL:
        return None, f"At most {len(str(MAX_DEAL))} digits (1 to {MAX_DEAL})."
    return number, ""


# --- the common frame ----------------------------------------------------------------------


class _Dialog(tk.Toplevel):
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


def _scrolled_text(parent: tk.Misc, *, width: int, height: int) -> tk.Text:
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


# --- rules ---------------------------------------------------------------------------------

_MOVE_LIMITS = {
    "one": "One card moves at a time.",
    "free-cells-plus-one": (
        "A run of cards built in sequence moves in one go when it holds at most "
        "(free cells + 1) cards; empty columns do not count."
    ),
    "supermove": (
        "A run of cards built in sequence moves in one go when it holds at most "
        "(free cells + 1) \u00d7 2^(empty columns) cards, counting one empty column fewer when "
        "the run goes into an empty column."
    ),
    "unlimited": "A run of cards built in sequence moves in one go, however long.",
}

_AUTOPLAY = {
    "off": "Cards go to the foundations only when you move them there.",
    "safe": (
        "A card goes to its foundation by itself when no card left in play can still "
        "need it; you move the others yourself."
    ),
    "all": "Every card that fits on a foundation goes there by itself.",
}


def _count_words(n: int) -> str:
    words = {1: "one", 2: "two", 3: "three", 4: "four"}
    return words.get(n, str(n))


def _numbers(items: Sequence[int]) -> str:
    texts = [str(i) for i in items]
    if len(texts) <= 1:
        return "".join(texts)
    return ", ".join(texts[:-1]) + " and " + texts[-1]


def _cards_text(rules: Rules) -> str:
    if rules.decks == 1:
        return "One deck of 52 cards."
    return f"{_count_words(rules.decks).capitalize()} decks of 52 cards: {rules.card_count} cards."


def _deal_text(rules: Rules) -> str:
    recipe = rules.deal
    counts = list(recipe.columns)
    if counts and all(c == counts[0] for c in counts):
        columns = f"{counts[0]} cards to each column"
    else:
        groups: list[tuple[int, int, int]] = []  # (first, last, count), 1-based
        for i, count in enumerate(counts, start=1):
            if groups and groups[-1][2] == count and groups[-1][1] == i - 1:
                groups[-1] = (groups[-1][0], i, count)
            else:
                groups.append((i, i, count))
        parts = [
            f"{c} cards to column {a}" if a == b else f"{c} cards to columns {a} to {b}"
            for a, b, c in groups
        ]
        columns = ", ".join(parts)
    order = "row by row" if recipe.order == "rows" else "one column after another"
    text = f"All cards are dealt face up: {columns}, {order}"
    if recipe.cells:
        cells = _numbers([i + 1 for i in recipe.cells])
        word = "cell" if len(recipe.cells) == 1 else "cells"
        text += f"; then one card each into {word} {cells}."
    else:
        text += "; the cells start empty."
    return text


def rules_text(definition: VariantDefinition, rules: Rules) -> list[tuple[str, str]]:
    """The rules of a variant, made from its definition and resolved :class:`Rules`.

    :return: ``(style, text)`` pieces in reading order; style is ``"title"``,
        ``"heading"`` or ``"body"`` (the rules window shows them with those tags).
    """
    out: list[tuple[str, str]] = [("title", rules.name)]
    if definition.summary:
        out.append(("body", definition.summary))
    chosen = dict(rules.options)
    if definition.options:
        lines = []
        for option in definition.options:
            value = chosen.get(option.name, option.default)
            try:
                label = option.choice(value).label
            except KeyError:
                label = value
            lines.append(f"{option.label}: {label}.")
        out += [("heading", "Options in this game"), ("body", "\n".join(lines))]
    out += [
        ("heading", "Cards"),
        ("body", _cards_text(rules)),
        ("heading", "Layout"),
        (
            "body",
            f"{rules.columns} tableau columns, {rules.cells} cell"
            f"{'s' if rules.cells != 1 else ''} (each holds one card) and "
            f"{rules.foundations} foundations. {_deal_text(rules)}",
        ),
        ("heading", "Building"),
        (
            "body",
            f"On the tableau a card goes on the top card of a column when it builds "
            f"{rules.build_description}. Any top card, and the card in a cell, may go to a "
            "free cell.",
        ),
        ("heading", "Empty columns"),
        ("body", f"An empty column takes {rules.empty_description}."),
        ("heading", "Moving runs"),
        (
            "body",
            _MOVE_LIMITS.get(rules.move_limit, rules.move_limit)
            + " In the Cheat difficulty runs of any length move; every card moved that "
            "the normal rules would not allow counts as a cheat, and undo does not lower "
            "the count.",
        ),
    ]
    foundation = f"The {rules.foundations} foundations build up in suit from Ace to King" + (
        ", one for each suit of each deck." if rules.decks > 1 else ", one per suit."
    )
    foundation += (
        " A card on a foundation may come back into play."
        if rules.foundation_return
        else " Cards on the foundations are out of play."
    )
    if rules.foundation_runs:
        foundation += " A run in suit may go to a foundation in one move."
    out += [
        ("heading", "Foundations"),
        ("body", foundation),
        ("heading", "Autoplay"),
        ("body", _AUTOPLAY.get(rules.autoplay, rules.autoplay)),
        ("heading", "Winning"),
        ("body", f"The game is won when all {rules.card_count} cards are on the foundations."),
    ]
    if rules.deal.method == "pysolfc":
        note = "Deal numbers are PySolFC's game numbers, so deal N here is PySolFC's deal N."
    else:
        note = f"Deals come from the plugin deal method {rules.deal.method!r}."
    out += [("heading", "Deal numbers"), ("body", note)]
    page = DOCS_DIR / f"{definition.id}.md"
    try:
        doc = page.read_text("utf-8") if page.is_file() else ""
    except (OSError, UnicodeDecodeError):
        doc = ""
    if doc.strip():
        out.append(("heading", f"More about {rules.name}"))
        out += _markdown_pieces(doc, rules.name)
    return out


def _markdown_pieces(text: str, title: str = "") -> list[tuple[str, str]]:
    """Plain-text rendering of the Markdown the variant pages use.

    ``#`` lines become headings (a first heading equal to ``title`` is dropped); wrapped
    paragraph lines are joined; list items and table rows become ``"item"`` pieces
    (a table's last column, when headed "source", is shown in brackets); fenced code
    becomes ``"code"``; emphasis markers, backticks and link targets are dropped.
    """
    pieces: list[tuple[str, str]] = []
    paragraph: list[str] = []
    item: list[str] = []
    header: list[str] = []
    in_code = False

    def flush() -> None:
        if paragraph:
            pieces.append(("body", " ".join(paragraph)))
            paragraph.clear()
        if item:
            pieces.append(("item", "\u2022 " + " ".join(item)))
            item.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            in_code = not in_code
            continue
        if in_code:
            pieces.append(("code", line.rstrip()))
            continue
        if stripped.startswith("#"):
            flush()
            heading = _inline(stripped.lstrip("#").strip())
            if not (title and not pieces and heading == title):
                pieces.append(("heading", heading))
        elif not stripped:
            flush()
            header = []
        elif stripped.startswith("|"):
            flush()
            cells = [_inline(c.strip()) for c in stripped.strip("|").split("|")]
            if all(set(c) <= set("-: ") for c in cells):
                continue  # the rule under a table's header
            if not header:
                header = [c.casefold() for c in cells]
                continue
            if len(cells) > 1 and header[-1:] == ["source"]:
                entry = ": ".join(c for c in cells[:-1] if c) + f" ({cells[-1]})"
            else:
                entry = " \u2014 ".join(c for c in cells if c)
            pieces.append(("item", "\u2022 " + entry))
        elif re.match(r"([*+-]|\d+\.)\s", stripped):
            flush()
            item.append(_inline(re.sub(r"^([*+-]|\d+\.)\s+", "", stripped)))
        elif item and line.startswith((" ", "\t")):
            item.append(_inline(stripped))
        else:
            if item:
                flush()
            paragraph.append(_inline(stripped))
    flush()
    return pieces


def _inline(text: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return text.replace("**", "").replace("`", "")


class RulesDialog(_Dialog):
    """The rules of one variant in a scrollable read-only text."""

    def __init__(
        self, parent: tk.Misc, definition: VariantDefinition, rules: Rules, *, wait: bool
    ) -> None:
        super().__init__(parent, f"Rules of {rules.name}", wait=wait)
        self.body.columnconfigure(0, weight=1)
        self.body.rowconfigure(1, weight=1)
        self.text = _scrolled_text(self.body, width=66, height=26)
        self.text.tag_configure(
            "title", font=scaled_font(self, "TkHeadingFont", 6, bold=True), spacing3=6
        )
        self.text.tag_configure(
            "heading",
            font=scaled_font(self, "TkDefaultFont", 1, bold=True),
            spacing1=10,
            spacing3=2,
        )
        body = scaled_font(self, "TkTextFont", 1)
        self.text.tag_configure("body", font=body, spacing2=2)
        self.text.tag_configure("item", font=body, spacing2=2, lmargin1=6, lmargin2=20)
        self.text.tag_configure(
            "code", font=scaled_font(self, "TkFixedFont", 1), lmargin1=20, lmargin2=20, spacing1=0
        )
        for style, piece in rules_text(definition, rules):
            self.text.insert("end", piece + "\n", style)
        self.text.configure(state="disabled")
        self.resizable(True, True)
        self.buttons([("close", "Close")], default="close", row=2)
        self.show(self.text)


def show_rules(
    parent: tk.Misc, definition: VariantDefinition, rules: Rules, *, wait: bool = True
) -> RulesDialog | None:
    """Show the rules of the variant being played.

    :param definition: the installed variant (its summary, options and docs page).
    :param rules: the resolved rules in force (the chosen options).
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = RulesDialog(parent, definition, rules, wait=wait)
    return None if wait else dialog


# --- keyboard shortcuts --------------------------------------------------------------------


def shortcut_table() -> list[tuple[str, str]]:
    """The keyboard shortcuts: ``solitaire_tk.app.SHORTCUTS`` if the app defines it, else
    ``solitaire_tk.keys.SHORTCUTS``; each entry is ``(keys, action)``."""
    for name in ("solitaire_tk.app", "solitaire_tk.keys"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        table = getattr(module, "SHORTCUTS", None)
        if table:
            return [(str(keys), str(action)) for keys, action in table]
    return []


class ShortcutsDialog(_Dialog):
    """The keyboard shortcuts, keys in bold on the left."""

    def __init__(self, parent: tk.Misc, *, wait: bool, game_keys: str = "") -> None:
        super().__init__(parent, "Keyboard shortcuts", wait=wait)
        self.heading("Keyboard shortcuts", columnspan=2)
        if game_keys:
            ttk.Label(self.body, text=game_keys, wraplength=560, justify="left").grid(
                row=1, column=0, sticky="w", pady=(0, 10)
            )
        table = ttk.Frame(self.body)
        table.grid(row=2, column=0, sticky="nsew")
        bold = scaled_font(self, "TkDefaultFont", 0, bold=True)
        self.rows: list[tuple[str, str]] = shortcut_table()
        for row, (keys, action) in enumerate(self.rows):
            ttk.Label(table, text=keys, font=bold).grid(
                row=row, column=0, sticky="nw", padx=(0, 24), pady=2
            )
            ttk.Label(table, text=action, wraplength=380, justify="left").grid(
                row=row, column=1, sticky="nw", pady=2
            )
        if not self.rows:
            ttk.Label(table, text="No shortcuts are defined.").grid(row=0, column=0)
        self.buttons([("close", "Close")], default="close", row=3)
        self.show()


def show_shortcuts(
    parent: tk.Misc, *, wait: bool = True, game_keys: str = ""
) -> ShortcutsDialog | None:
    """Show the keyboard shortcuts (see :func:`shortcut_table`).

    :param game_keys: a sentence above the table naming the pile keys of the game being
        played (e.g. "In Seahaven Towers: columns A-J, cells 1-4, foundations K-N."), or
        ``""``.
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = ShortcutsDialog(parent, wait=wait, game_keys=game_keys)
    return None if wait else dialog


# --- about ---------------------------------------------------------------------------------


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("towers-solitaire")
    except metadata.PackageNotFoundError:
        return "(development)"


class AboutDialog(_Dialog):
    """Program name, version, what it is, credits."""

    def __init__(self, parent: tk.Misc, *, wait: bool) -> None:
        super().__init__(parent, "About Towers Solitaire", wait=wait)
        self.heading("Towers Solitaire")
        tk_version = self.tk.call("info", "patchlevel")
        python = ".".join(str(n) for n in sys.version_info[:3])
        lines = [
            (f"Version {_version()}", None),
            (
                "A solitaire program for Seahaven Towers, Sea Towers, Double Sea Towers, "
                "FreeCell and more. Every game is a variant file; plugins add more.",
                None,
            ),
            (
                "Seahaven Towers was invented by Art Cabral. Deal numbers are PySolFC's "
                "game numbers (FreeCell deals below 32000 are Microsoft FreeCell's).",
                DIM,
            ),
            (f"MIT licence. Python {python}, Tk {tk_version}.", DIM),
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


# --- statistics ----------------------------------------------------------------------------

STAT_COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("variant", "Game", 150),
    ("options", "Options", 60),
    ("played", "Played", 50),
    ("won", "Won", 50),
    ("lost", "Lost", 50),
    ("rate", "Win %", 50),
    ("streak", "Streak", 60),
    ("best", "Best streak", 50),
    ("fewest", "Fewest moves", 50),
    ("fastest", "Fastest", 50),
    ("undo", "With undo", 50),
    ("hints", "With hints", 50),
    ("cheat", "Cheat wins", 50),
)
"""Statistics table columns: (id, heading, least width in pixels)."""

_COLUMN_PADDING = 14  # pixels of a statistics column beyond its widest text
_SCREEN_MARGIN = 40  # pixels of the screen left free beside a dialog that fills its width


def _clock(seconds: float) -> str:
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{whole // 60}:{whole % 60:02d}"


def _option_text(registry: Registry | None, variant: str, options: Mapping[str, str]) -> str:
    if not options:
        return "-"
    definition = registry.variants.get(variant) if registry is not None else None
    parts = []
    for name, value in sorted(options.items()):
        text = f"{name}={value}"
        if definition is not None:
            for option in definition.options:
                if option.name == name:
                    try:
                        text = f"{option.label}: {option.choice(value).label}"
                    except KeyError:
                        pass
        parts.append(text)
    return "; ".join(parts)


def stats_row(entry: VariantStats, registry: Registry | None = None) -> tuple[str, ...]:
    """One statistics entry as the texts of :data:`STAT_COLUMNS`."""
    definition = registry.variants.get(entry.variant) if registry is not None else None
    return (
        definition.name if definition is not None else entry.variant,
        _option_text(registry, entry.variant, entry.options),
        *figure_texts(entry, clock=_clock),
    )


class StatisticsDialog(_Dialog):
    """Per variant and option set statistics, with Reset (one row, or everything)."""

    def __init__(
        self,
        parent: tk.Misc,
        store: StatsStore,
        *,
        wait: bool,
        registry: Registry | None,
        confirm: Confirm | None,
    ) -> None:
        super().__init__(parent, "Statistics", wait=wait)
        self.store = store
        self.registry = registry
        self._confirm = confirm or self._ask
        self.entries: list[VariantStats] = []
        self.heading("Statistics", columnspan=1)
        self.body.columnconfigure(0, weight=1)
        self.body.rowconfigure(1, weight=1)
        frame = ttk.Frame(self.body)
        frame.grid(row=1, column=0, sticky="nsew")
        self.tree = ttk.Treeview(
            frame,
            columns=[c[0] for c in STAT_COLUMNS],
            show="headings",
            height=10,
            selectmode="browse",
        )
        for ident, heading, width in STAT_COLUMNS:
            anchor: Literal["w", "e"] = "w" if ident in ("variant", "options") else "e"
            self.tree.heading(ident, text=heading, anchor=anchor)
            stretch = ident == "options"  # gives up room first when the window is narrow
            self.tree.column(ident, width=width, minwidth=width, anchor=anchor, stretch=stretch)
        bar = ttk.Scrollbar(frame, orient="vertical", command=self.tree.yview)
        self.xbar = ttk.Scrollbar(frame, orient="horizontal", command=self.tree.xview)
        self.tree.configure(yscrollcommand=bar.set, xscrollcommand=self.xbar.set)
        frame.columnconfigure(0, weight=1)
        frame.rowconfigure(0, weight=1)
        self.tree.grid(row=0, column=0, sticky="nsew")
        bar.grid(row=0, column=1, sticky="ns")
        self.empty_label = ttk.Label(self.body, text="No games recorded yet.", foreground=DIM)
        note = (
            "With undo and With hints count the wins in which undo or a hint (or the demo) "
            "was used. Games won in the Cheat difficulty are counted apart, as cheat wins; "
            "they are left out of played, won, streaks and records."
        )
        self.note = ttk.Label(self.body, text=note, foreground=DIM, wraplength=760, justify="left")
        self.note.grid(row=3, column=0, sticky="w", pady=(8, 0))
        made = self.buttons(
            [("reset", "Reset selected..."), ("reset_all", "Reset all..."), ("close", "Close")],
            default="close",
            row=4,
        )
        self.reset_button = made["reset"]
        self.reset_all_button = made["reset_all"]
        self.close_button = made["close"]
        self.reset_button.configure(command=self.reset_selected)
        self.reset_all_button.configure(command=self.reset_all)
        self.tree.bind("<<TreeviewSelect>>", lambda _e: self._update_buttons())
        self.tree.bind("<Delete>", lambda _e: self.reset_selected())
        self.refresh()
        self.resizable(True, True)
        self._fit_screen()
        self.show(self.tree)

    def _fit_screen(self) -> None:
        """On a screen narrower than the table, make the window as wide as the screen
        allows: the Options column shrinks first, then the table scrolls sideways."""
        room = self.winfo_screenwidth() - _SCREEN_MARGIN
        self.note.configure(wraplength=min(760, room - 60))  # the body's padding and more
        self.update_idletasks()
        excess = self.winfo_reqwidth() - room
        if excess <= 0:
            return
        least = int(self.tree.column("options", "minwidth"))
        narrower = max(least, int(self.tree.column("options", "width")) - excess)
        self.tree.column("options", width=narrower)
        self.update_idletasks()
        if self.winfo_reqwidth() <= room:
            return
        self.xbar.grid(row=1, column=0, sticky="ew")
        self.update_idletasks()
        self.geometry(f"{room}x{self.winfo_reqheight()}")

    def _ask(self, title: str, question: str) -> bool:
        return bool(messagebox.askyesno(title, question, parent=self, icon="warning"))

    def refresh(self) -> None:
        """Read the statistics again and redraw the table."""
        self.tree.delete(*self.tree.get_children())
        self.entries = self.store.summary()
        table = [stats_row(entry, self.registry) for entry in self.entries]
        for index, values in enumerate(table):
            self.tree.insert("", "end", iid=str(index), values=values)
        self._fit_columns(table)
        if self.entries:
            self.empty_label.grid_forget()
            first = self.tree.get_children()[0]
            self.tree.selection_set(first)
            self.tree.focus(first)
        else:
            self.empty_label.grid(row=2, column=0, sticky="w", pady=(8, 0))
        self._update_buttons()

    def _fit_columns(self, table: Sequence[Sequence[str]]) -> None:
        """Make every column wide enough for its heading and its widest value."""
        cell_font = tkfont.nametofont("TkDefaultFont", root=self)
        head_font = tkfont.nametofont("TkHeadingFont", root=self)
        for number, (ident, heading, width) in enumerate(STAT_COLUMNS):
            needed = head_font.measure(heading)
            for values in table:
                needed = max(needed, cell_font.measure(values[number]))
            fitted = max(width, needed + _COLUMN_PADDING)
            # Only the Options column may get narrower than its text (it stretches).
            minwidth = width if ident == "options" else fitted
            self.tree.column(ident, width=fitted, minwidth=minwidth)

    def _update_buttons(self) -> None:
        self.reset_button.state(["!disabled"] if self.tree.selection() else ["disabled"])
        self.reset_all_button.state(["!disabled"] if self.entries else ["disabled"])

    def selected(self) -> VariantStats | None:
        """The entry of the selected row, or ``None``."""
        selection = self.tree.selection()
        return self.entries[int(selection[0])] if selection else None

    def reset_selected(self) -> int:
        """Ask, then delete the games of the selected variant and option set.

        :return: the number of games deleted (0 when nothing was selected or the player
            said no).
        """
        entry = self.selected()
        if entry is None:
            return 0
        name, options = stats_row(entry, self.registry)[:2]
        what = name if options == "-" else f"{name} ({options})"
        if not self._confirm("Reset statistics", f"Forget every recorded game of {what}?"):
            return 0
        count = self.store.reset(entry.variant, entry.options)
        self.refresh()
        return count

    def reset_all(self) -> int:
        """Ask, then delete every recorded game. :return: the number deleted."""
        if not self.entries:
            return 0
        if not self._confirm("Reset statistics", "Forget the recorded games of every game?"):
            return 0
        count = self.store.reset()
        self.refresh()
        return count


def show_statistics(
    parent: tk.Misc,
    store: StatsStore,
    *,
    wait: bool = True,
    registry: Registry | None = None,
    confirm: Confirm | None = None,
) -> StatisticsDialog | None:
    """Show the statistics of every variant and option set, with Reset buttons.

    :param store: the statistics database.
    :param registry: to show variant names and option labels; default the installed
        variants.
    :param confirm: asks before a reset (default a yes/no message box).
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    :raises PersistenceError: when the database cannot be read.
    """
    if registry is None:
        from solitaire_core.plugins import get_registry

        registry = get_registry()
    dialog = StatisticsDialog(parent, store, wait=wait, registry=registry, confirm=confirm)
    return None if wait else dialog


# --- deal number ---------------------------------------------------------------------------


class DealNumberDialog(_Dialog):
    """Asks for a deal number; OK is disabled while the text is not a valid one."""

    def __init__(self, parent: tk.Misc, current: int, *, wait: bool) -> None:
        super().__init__(parent, "Select deal", wait=wait)
        self.result: int | None = None
        ttk.Label(self.body, text="Deal number:").grid(row=0, column=0, sticky="w")
        self.var = tk.StringVar(self, value=str(current))
        self.entry = ttk.Entry(self.body, textvariable=self.var, width=24)
        self.entry.grid(row=0, column=1, sticky="ew", padx=(8, 0))
        ttk.Label(self.body, text=f"1 to {MAX_DEAL}", foreground=DIM).grid(
            row=1, column=1, sticky="w", padx=(8, 0), pady=(2, 0)
        )
        self.message = ttk.Label(self.body, text="", foreground=ERROR)
        self.message.grid(row=2, column=0, columnspan=2, sticky="w", pady=(6, 0))
        made = self.buttons([("ok", "OK"), ("cancel", "Cancel")], default="ok", row=3, columnspan=2)
        self.ok_button = made["ok"]
        self.var.trace_add("write", lambda *_a: self._check())
        self.entry.selection_range(0, "end")
        self._check()
        self.show(self.entry)

    def _check(self) -> None:
        number, error = parse_deal_text(self.var.get())
        if number is None and not error:
            error = "Type a deal number."
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


class WinDialog(_Dialog):
    """The game's figures and the buttons Next deal and Close."""

    def __init__(
        self,
        parent: tk.Misc,
        figures: Mapping[str, str],
        *,
        on_next: Callable[[], Any] | None,
        wait: bool,
    ) -> None:
        super().__init__(parent, "You won!", wait=wait)
        self._callbacks = {"next": on_next}
        self.heading("You won!", columnspan=2)
        self.figures = dict(figures)
        bold = scaled_font(self, "TkDefaultFont", 1, bold=True)
        for row, (name, value) in enumerate(self.figures.items(), start=1):
            ttk.Label(self.body, text=name, foreground=DIM).grid(
                row=row, column=0, sticky="w", padx=(0, 28), pady=2
            )
            ttk.Label(self.body, text=value, font=bold).grid(row=row, column=1, sticky="e", pady=2)
        made = self.buttons(
            [("next", "Next deal"), ("close", "Close")],
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
) -> WinDialog | None:
    """Congratulate the player and show the game's figures.

    :param figures: label -> value in display order, e.g. ``{"Moves": "87", "Time":
        "4:12", "Score": "52", "Undo used": "no", "Cheats": "0"}``.
    :param on_next: called (after the dialog closed) when the player picks Next deal;
        Return picks it too.
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = WinDialog(parent, figures, on_next=on_next, wait=wait)
    return None if wait else dialog


class NoMovesDialog(_Dialog):
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
        super().__init__(parent, "No useful move left", wait=wait)
        self._callbacks = {"undo": on_undo, "restart": on_restart, "new": on_new_deal}
        self.heading("No useful move left")
        self.message = (
            "No sequence of moves can put another card on a foundation. You can take "
            "moves back, play this deal again from the start, or deal a new game."
        )
        ttk.Label(self.body, text=self.message, wraplength=380, justify="left").grid(
            row=1, column=0, sticky="w"
        )
        made = self.buttons(
            [("undo", "Undo"), ("restart", "Restart"), ("new", "New deal"), ("close", "Close")],
            default="undo",
            row=2,
        )
        self.choice_buttons = made
        self.show(made["undo"])


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
