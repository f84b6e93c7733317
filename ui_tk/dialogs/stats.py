"""The statistics window (Game > Statistics): one row per variant and option set, with
Reset (one row, or everything), and the Progression tab charting the chosen row's games
over time (:mod:`solitaire_tk.dialogs.progress_chart`).

The table shows the figures a player compares across games (:data:`TABLE_COLUMNS`), each
column as wide as its heading and its widest value, and the options by their values
alone ("Any card"), so it fits a 1100 px game window without scrolling sideways. The
selected row's options in full and its other figures (wins with undo or hints, hints per
game, cheat wins, the bank) are in the details line under it. The window takes the
screen's spare height (up to :data:`_CHART_GROWTH` pixels) for the chart, and on a low
screen (1024x600) the table shows fewer rows rather than the window running off it.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Sequence
from tkinter import font as tkfont
from tkinter import messagebox, ttk
from typing import TYPE_CHECKING, Literal

from solitaire_core.i18n import N_
from solitaire_core.i18n import gettext as _
from solitaire_core.persistence import PersistenceError, figure_texts

from ..widgets import DIM, Confirm, Dialog, clock_text, option_text, screen_room
from .progress_chart import CHART_HEIGHT, ProgressChart

if TYPE_CHECKING:
    from solitaire_core.persistence import StatsStore, VariantStats
    from solitaire_core.plugins import Registry

__all__ = [
    "CHART_NOTE",
    "STAT_COLUMNS",
    "TABLE_COLUMNS",
    "StatisticsDialog",
    "show_statistics",
    "stats_row",
]

STAT_COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("variant", N_("Game"), 120),
    ("options", N_("Options"), 60),
    ("played", N_("Played"), 0),
    ("won", N_("Won"), 0),
    ("lost", N_("Lost"), 0),
    ("rate", N_("Win %"), 0),
    ("streak", N_("Streak"), 0),
    ("best", N_("Best streak"), 0),
    ("fewest", N_("Fewest moves"), 0),
    ("fastest", N_("Fastest"), 0),
    ("score", N_("Best score"), 0),
    ("bank", N_("Bank"), 0),
    ("undo", N_("With undo"), 0),
    ("hints", N_("With hints"), 0),
    ("hints_per_game", N_("Hints/game"), 0),
    ("cheat", N_("Cheat wins"), 0),
)
"""Every statistics figure: (id, heading in English (translated when shown), least width
in pixels; a column is otherwise as wide as its heading and its widest value)."""

TABLE_COLUMNS: tuple[str, ...] = (
    "variant", "options", "played", "won", "lost", "rate", "streak", "best", "fewest",
    "fastest", "score",
)  # fmt: skip
"""The ids of :data:`STAT_COLUMNS` the table shows; the others are in the details line."""

CHART_NOTE = N_(
    "The bars count the games played and won in each period; the win rate and the "
    "fastest win are so far: they count every game up to the end of the period, so the "
    "last point is the table's Win % and Fastest. Games won with Cheat are left out."
)
"""The line under the Progression tab (in place of the table's note)."""

_COLUMN_PADDING = 16  # pixels of a statistics column beyond its widest text
_LEAST_ROWS = 4  # rows of the table kept on the smallest screen
_CHART_GROWTH = 160  # pixels the chart may grow by on a screen with room for it
_SCREEN_MARGIN = 40  # pixels of the screen left free beside a dialog that fills its width


def stats_row(entry: VariantStats, registry: Registry | None = None) -> tuple[str, ...]:
    """One statistics entry as the texts of :data:`STAT_COLUMNS`."""
    definition = registry.variants.get(entry.variant) if registry is not None else None
    return (
        definition.name if definition is not None else entry.variant,
        option_text(definition, entry.options) or "-",
        *figure_texts(entry, clock=clock_text),
    )


class StatisticsDialog(Dialog):
    """Per variant and option set statistics, with Reset (one row, or everything).

    ``span`` and ``on_span`` are the Progression tab's
    (:class:`~solitaire_tk.dialogs.progress_chart.ProgressChart`)."""

    def __init__(
        self,
        parent: tk.Misc,
        store: StatsStore,
        *,
        wait: bool,
        registry: Registry | None,
        confirm: Confirm | None,
        span: str = "all",
        on_span: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(parent, _("Statistics"), wait=wait)
        self.store = store
        self.registry = registry
        self._confirm = confirm or self._ask
        self.entries: list[VariantStats] = []
        self.heading(_("Statistics"), columnspan=1)
        self.body.columnconfigure(0, weight=1)
        self.body.rowconfigure(1, weight=1)
        self.notebook = ttk.Notebook(self.body)
        self.notebook.grid(row=1, column=0, sticky="nsew")
        self.notebook.enable_traversal()  # Ctrl+Tab goes from tab to tab
        frame = ttk.Frame(self.notebook)
        self.notebook.add(frame, text=_("Table"))
        self.chart = ProgressChart(
            self.notebook, on_choose=self._choose_row, span=span, on_span=on_span
        )
        self.notebook.add(self.chart, text=_("Progression"))
        self.notebook.bind("<<NotebookTabChanged>>", lambda _e: self._tab_changed(), add=True)
        self.tree = ttk.Treeview(
            frame,
            columns=[c[0] for c in STAT_COLUMNS],
            displaycolumns=TABLE_COLUMNS,
            show="headings",
            height=10,
            selectmode="browse",
        )
        for ident, heading, width in STAT_COLUMNS:
            anchor: Literal["w", "e"] = "w" if ident in ("variant", "options") else "e"
            self.tree.heading(ident, text=_(heading), anchor=anchor)
            stretch = ident == "options"  # gives up room first when the window is narrow
            self.tree.column(ident, width=width, minwidth=width, anchor=anchor, stretch=stretch)
        bar = ttk.Scrollbar(frame, orient="vertical", command=self.tree.yview)
        self.xbar = ttk.Scrollbar(frame, orient="horizontal", command=self.tree.xview)
        self.tree.configure(yscrollcommand=bar.set, xscrollcommand=self.xbar.set)
        frame.columnconfigure(0, weight=1)
        frame.rowconfigure(0, weight=1)
        self.tree.grid(row=0, column=0, sticky="nsew")
        bar.grid(row=0, column=1, sticky="ns")
        self.empty_label = ttk.Label(self.body, text=_("No games recorded yet."), foreground=DIM)
        self.details = ttk.Label(self.body, text="", justify="left", wraplength=760)
        self.details.grid(row=2, column=0, sticky="w", pady=(8, 0))
        note = _(
            "With undo and With hints count the wins in which undo or a hint (or the demo) "
            "was used; Hints/game is the average number of hints per game played (games "
            "recorded before hints were counted are left out). Games won in the Cheat "
            "difficulty are counted apart, as cheat wins; they are left out of played, "
            "won, streaks and records."
        )
        self.table_note = note
        self.note = ttk.Label(self.body, text=note, foreground=DIM, wraplength=760, justify="left")
        self.note.grid(row=3, column=0, sticky="w", pady=(8, 0))
        made = self.buttons(
            [
                ("reset", _("Reset selected...")),
                ("reset_all", _("Reset all...")),
                ("close", _("Close")),
            ],
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
        """Keep the window no wider than the game window (and the screen): when the
        table is wider, the Options column shrinks first, then the table scrolls
        sideways."""
        room = self.winfo_screenwidth() - _SCREEN_MARGIN
        game = self.master.winfo_toplevel() if self.master is not None else None
        if game is not None and game.winfo_viewable():
            room = min(room, game.winfo_width())
        self.note.configure(wraplength=min(760, room - 60))  # the body's padding and more
        self.details.configure(wraplength=min(760, room - 60))
        self.chart.fit_width(room - 60)
        self._fit_height()
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

    def _fit_height(self) -> None:
        """Keep the window no taller than the screen's room, the table showing fewer rows
        when it must; on a taller screen, give the chart (and the table) some of the
        room left."""
        room = screen_room(self)[1]
        self.update_idletasks()
        while self.winfo_reqheight() > room and int(self.tree.cget("height")) > _LEAST_ROWS:
            self.tree.configure(height=int(self.tree.cget("height")) - 1)
            self.update_idletasks()
        spare = room - self.winfo_reqheight()
        if spare > 0:
            self.chart.canvas.configure(height=CHART_HEIGHT + min(spare, _CHART_GROWTH))
            self.update_idletasks()

    def _ask(self, title: str, question: str) -> bool:
        return bool(messagebox.askyesno(title, question, parent=self, icon="warning"))

    def refresh(self) -> None:
        """Read the statistics again and redraw the table."""
        self.tree.delete(*self.tree.get_children())
        self.entries = self.store.summary()
        table = [stats_row(entry, self.registry) for entry in self.entries]
        for index, (entry, values) in enumerate(zip(self.entries, table)):
            shown = list(values)
            definition = self.registry.variants.get(entry.variant) if self.registry else None
            shown[1] = option_text(definition, entry.options, names=False) or "-"
            table[index] = tuple(shown)
            self.tree.insert("", "end", iid=str(index), values=shown)
        self._fit_columns(table)
        self.chart.set_choices([self.row_title(entry) for entry in self.entries], None)
        if self.entries:
            self.empty_label.grid_forget()
            first = self.tree.get_children()[0]
            self.tree.selection_set(first)
            self.tree.focus(first)
        else:
            self.empty_label.grid(row=2, column=0, sticky="w", pady=(8, 0))
        self._update_buttons()

    def row_title(self, entry: VariantStats) -> str:
        """A row's game with its options in full: ``"Sea Towers (Empty columns take:
        Any card)"``, ``"Seahaven Towers"``."""
        name, options = stats_row(entry, self.registry)[:2]
        return name if options == "-" else f"{name} ({options})"

    def details_text(self) -> str:
        """The details line: the selected row's game with its options in full, and the
        figures the table leaves out, by their full names (``""`` with no selection)."""
        entry = self.selected()
        if entry is None:
            return ""
        row = stats_row(entry, self.registry)
        game = self.row_title(entry)
        figures = [
            f"{_(heading)}: {value}"
            for (ident, heading, _width), value in zip(STAT_COLUMNS, row)
            if ident not in TABLE_COLUMNS
        ]
        return f"{game}: " + " · ".join(figures)

    def _fit_columns(self, table: Sequence[Sequence[str]]) -> None:
        """Make every column wide enough for its heading and its widest value."""
        cell_font = tkfont.nametofont("TkDefaultFont", root=self)
        head_font = tkfont.nametofont("TkHeadingFont", root=self)
        for number, (ident, heading, width) in enumerate(STAT_COLUMNS):
            if ident not in TABLE_COLUMNS:
                continue
            needed = head_font.measure(_(heading))
            for values in table:
                needed = max(needed, cell_font.measure(values[number]))
            fitted = max(width, needed + _COLUMN_PADDING)
            # Only the Options column may get narrower than its text (it stretches).
            minwidth = width if ident == "options" else fitted
            self.tree.column(ident, width=fitted, minwidth=minwidth)

    def _update_buttons(self) -> None:
        self.details.configure(text=self.details_text())
        self._update_chart()
        self.reset_button.state(["!disabled"] if self.tree.selection() else ["disabled"])
        self.reset_all_button.state(["!disabled"] if self.entries else ["disabled"])

    def showing_chart(self) -> bool:
        """The Progression tab is the one shown."""
        return bool(self.notebook.select() == str(self.chart))

    def _tab_changed(self) -> None:
        chart = self.showing_chart()
        self.note.configure(text=_(CHART_NOTE) if chart else self.table_note)
        self._update_chart()
        (self.chart.chooser if chart else self.tree).focus_set()

    def _update_chart(self) -> None:
        """Chart the selected row's games (read only while the Progression tab shows)."""
        if not self.showing_chart():
            return
        selection = self.tree.selection()
        if not selection:
            self.chart.chooser.set("")
            self.chart.show("", ())
            return
        index = int(selection[0])
        entry = self.entries[index]
        self.chart.chooser.current(index)
        try:
            games = self.store.games(entry.variant, entry.options)
        except PersistenceError as error:  # the file went bad since the window opened
            self.chart.show(self.row_title(entry), (), problem=str(error))
            return
        self.chart.show(self.row_title(entry), games)

    def _choose_row(self, index: int) -> None:
        """The player chose a row in the Progression tab's list: select it in the table."""
        item = str(index)
        self.tree.selection_set(item)
        self.tree.focus(item)
        self.tree.see(item)
        self._update_buttons()  # at once, not when the table handles its event

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
        what = self.row_title(entry)
        question = _("Forget every recorded game of {game}?").format(game=what)
        if not self._confirm(_("Reset statistics"), question):
            return 0
        count = self.store.reset(entry.variant, entry.options)
        self.refresh()
        return count

    def reset_all(self) -> int:
        """Ask, then delete every recorded game. :return: the number deleted."""
        if not self.entries:
            return 0
        question = _("Forget the recorded games of every game?")
        if not self._confirm(_("Reset statistics"), question):
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
    span: str = "all",
    on_span: Callable[[str], None] | None = None,
) -> StatisticsDialog | None:
    """Show the statistics of every variant and option set, with Reset buttons.

    :param store: the statistics database.
    :param registry: to show variant names and option labels; default the installed
        variants.
    :param confirm: asks before a reset (default a yes/no message box).
    :param span: the span the Progression tab opens on (the settings'
        :attr:`~solitaire_core.persistence.Settings.progress_span`).
    :param on_span: called with the span the player picks there, to remember it.
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    :raises PersistenceError: when the database cannot be read.
    """
    if registry is None:
        from solitaire_core.plugins import get_registry

        registry = get_registry()
    dialog = StatisticsDialog(
        parent, store, wait=wait, registry=registry, confirm=confirm, span=span, on_span=on_span
    )
    return None if wait else dialog
