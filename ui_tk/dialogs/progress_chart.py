"""The Progression tab of the statistics window: one game's games played and won per
day, week, month or year as bars, the win rate so far as a line, and the fastest win so
far as a line under them, drawn on a Tk canvas (no plotting library).

The figures come from :func:`solitaire_core.persistence.progression`; this module only
draws them. Every item on the canvas carries a tag naming what it is (:data:`TAGS`), so
tests and the pointer can find the bars and lines.
"""

from __future__ import annotations

import math
import tkinter as tk
from collections.abc import Callable, Sequence
from tkinter import font as tkfont
from tkinter import ttk
from typing import TYPE_CHECKING

from solitaire_core.i18n import gettext as _
from solitaire_core.persistence.progress import (
    SPANS,
    games_text,
    progression,
    span_in_text,
    span_label,
)

from ..widgets import DIM, clock_text

if TYPE_CHECKING:
    from solitaire_core.persistence import GameRecord, Progression

__all__ = ["CHART_HEIGHT", "COLOURS", "TAGS", "ProgressCanvas", "ProgressChart"]

COLOURS = {
    "played": "#bfcddd",  # a light blue-grey bar: every game of the period
    "won": "#2f6db5",  # a blue bar over it: the games won
    "rate": "#d9480f",  # an orange line: the win rate so far
    "fastest": "#7b3fa0",  # a purple line: the fastest win so far
    "grid": "#e4e7eb",
    "axis": "#8a9099",
    "hover": "#f1f4f8",
    "background": "#ffffff",
}
"""The chart's colours (blue and orange tell apart for most colour-blind players too)."""

TAGS = (
    "legend", "axis", "grid", "tick", "played", "won", "count", "rate-line", "rate-point",
    "fastest-line", "fastest-point", "strip-title", "period-label", "unit-title", "note",
    "hover",
)  # fmt: skip
"""The tags of the canvas items: ``played`` and ``won`` bars (each also tagged
``period-N``, N its index), ``count`` the number over a bar with room for it,
``rate-line``/``rate-point`` the win rate so far, ``fastest-line``/``fastest-point`` the
fastest win so far (a point where a period set a new record), ``tick`` the axes'
numbers, ``period-label`` the periods' names under the chart, ``note`` the sentence
shown in place of a chart with nothing to draw."""

CHART_HEIGHT = 150
"""The canvas's requested height in pixels, before the window gives it the room it has."""

_PAD = 8  # pixels around the chart
_FRAME_PADDING = 16  # pixels of the tab beside the chart, left and right together
_BAR = 0.64  # a bar's share of its period's width
_STRIP = 0.3  # the fastest-win strip's share of the height under the legend


def _count_step(highest: int, divisions: int) -> int:
    """The smallest whole step of 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, ...
    with ``divisions`` steps reaching ``highest``."""
    need = max(1, highest) / divisions
    power = 1
    while True:
        for factor in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8):
            step = factor * power
            if step >= need and step == int(step):
                return int(step)
        power *= 10


def _percent(value: int | str) -> str:
    """``"60%"`` as the language spoken now writes a percentage (``"60 %"`` in French)."""
    return _("{percent}%").format(percent=value)


class ProgressCanvas(tk.Canvas):
    """The chart itself; :meth:`draw` gives it a progression, and it draws again at
    every change of size.

    :param parent: the parent widget.
    :param on_point: called with the figures of the period under the pointer (a line,
        :meth:`Period.summary <solitaire_core.persistence.Period.summary>`), or with
        ``""`` when the pointer leaves the bars.
    """

    def __init__(self, parent: tk.Misc, *, on_point: Callable[[str], None]) -> None:
        super().__init__(
            parent, background=COLOURS["background"], highlightthickness=0, borderwidth=0,
            width=560, height=CHART_HEIGHT,
        )  # fmt: skip
        self.progress: Progression | None = None
        self.note = _("No games recorded yet.")
        self.slots: list[tuple[float, float]] = []  # each period's left and right x
        self._on_point = on_point
        self._pointed: int | None = None
        self._hover_box = (0.0, 0.0)  # the top and bottom of the band behind a period
        self.font = tkfont.nametofont("TkDefaultFont", root=self)
        self.bind("<Configure>", lambda _e: self.redraw(), add=True)
        self.bind("<Motion>", self._point, add=True)
        self.bind("<Leave>", lambda _e: self._show_point(None), add=True)

    def draw(self, progress: Progression | None, note: str = "") -> None:
        """Show ``progress``; with ``None`` or a progression with nothing to draw, the
        sentence ``note`` (or :meth:`Progression.note`) in its place."""
        self.progress = progress
        self.note = note or (progress.note(clock_text) if progress is not None else "")
        self._pointed = None
        self.redraw()

    def redraw(self) -> None:
        """Draw the chart again at the canvas's present size."""
        self.delete("all")
        self.slots = []
        width, height = self.winfo_width(), self.winfo_height()
        if width < 50 or height < 50:
            return
        progress = self.progress
        if progress is None or not progress.drawable:
            self.create_text(
                width / 2, height / 2, text=self.note, width=max(100, width - 60),
                justify="center", fill=DIM, font=self.font, tags="note",
            )  # fmt: skip
            return
        self._draw_chart(progress, width, height)

    # --- drawing ---------------------------------------------------------------------------

    def _draw_chart(self, progress: Progression, width: int, height: int) -> None:
        line = self.font.metrics("linespace")
        periods = progress.periods
        rates_only = height < 170  # too low for the strip: bars and win rate only
        short = height < 240  # the main chart has room for halves of the rate only
        divisions = 2 if short else 4
        step = _count_step(max(p.played for p in periods), divisions)
        counts = [str(step * k) for k in range(divisions + 1)]
        fastest = [p.fastest_seconds for p in periods if p.fastest_seconds is not None]
        clocks = [clock_text(max(fastest)), clock_text(min(fastest))] if fastest else []
        games_title, rate_title = _("Games"), _("Win rate")
        percents = [_percent(100 * k // divisions) for k in range(divisions + 1)]
        left_texts = [*counts, games_title, *clocks]
        left = _PAD + max(self.font.measure(text) for text in left_texts) + 6
        right = width - _PAD - max(self.font.measure(text) for text in percents) - 6
        # The legend between the axes' titles, or over them when the chart is narrow.
        legend_end, legend_y = self._legend(left, _PAD + line / 2, width - _PAD)
        titles_y = legend_y + line / 2
        if legend_end > width - _PAD - self.font.measure(rate_title) - 12:
            titles_y += line + 4
        top = titles_y + line / 2 + 2
        bottom = height - _PAD - line - 4  # the periods' names under the chart
        strip = 0.0 if rates_only else max(36.0, (bottom - top) * _STRIP)
        gap = 0.0 if rates_only else line + 8
        main_bottom = bottom - strip - gap
        slot = (right - left) / len(periods)
        self.slots = [(left + slot * i, left + slot * (i + 1)) for i in range(len(periods))]

        # Axes and grid: the count axis's steps are the rate axis's quarters (or halves).
        self.create_text(left - 6, titles_y, text=games_title, anchor="se", font=self.font,
                         fill=DIM, tags="axis")  # fmt: skip
        self.create_text(width - _PAD, titles_y, text=rate_title, anchor="se", font=self.font,
                         fill=COLOURS["rate"], tags="axis")  # fmt: skip
        for k in range(divisions + 1):
            y = main_bottom - (main_bottom - top) * k / divisions
            self.create_line(left, y, right, y, fill=COLOURS["grid"], tags="grid")
            self.create_text(left - 6, y, text=counts[k], anchor="e", font=self.font,
                             fill=DIM, tags="tick")  # fmt: skip
            self.create_text(right + 6, y, text=percents[k], anchor="w",
                             font=self.font, fill=COLOURS["rate"], tags="tick")  # fmt: skip
        self.create_line(left, main_bottom, right, main_bottom, fill=COLOURS["axis"],
                         tags="axis")  # fmt: skip
        self.create_rectangle(0, 0, 0, 0, fill=COLOURS["hover"], outline="", tags="hover",
                              state="hidden")  # fmt: skip
        self._hover_box = (top, main_bottom if rates_only else bottom)

        # Bars: every game of the period, and the games won over them.
        per_game = (main_bottom - top) / (step * divisions)
        bar = max(2.0, slot * _BAR)
        count_room = self.font.measure("000") <= slot and main_bottom - top > 3 * line
        for index, period in enumerate(periods):
            middle = left + slot * (index + 0.5)
            tag = f"period-{index}"
            if period.played:
                y = main_bottom - period.played * per_game
                self.create_rectangle(middle - bar / 2, y, middle + bar / 2, main_bottom,
                                      fill=COLOURS["played"], outline="",
                                      tags=("played", tag))  # fmt: skip
            if period.won:
                y = main_bottom - period.won * per_game
                self.create_rectangle(middle - bar / 2, y, middle + bar / 2, main_bottom,
                                      fill=COLOURS["won"], outline="",
                                      tags=("won", tag))  # fmt: skip

        # The win rate so far: a line from the first period with a game played.
        points = [
            (left + slot * (i + 0.5), main_bottom - (main_bottom - top) * p.win_rate)
            for i, p in enumerate(periods)
            if p.win_rate is not None
        ]
        self._polyline(points, COLOURS["rate"], "rate-line")
        dots = [
            point
            for point, period in zip(points, [p for p in periods if p.win_rate is not None])
            if period.played
        ]
        for x, y in dots if slot >= 6 else ():
            self._dot(x, y, 3, COLOURS["rate"], "rate-point")
        # The number of games over each bar, on a patch of the background where the
        # win rate's line passes behind it.
        for index, period in enumerate(periods if count_room else ()):
            if period.played:
                x, y = left + slot * (index + 0.5), main_bottom - period.played * per_game
                text = self.create_text(x, y - 1, text=str(period.played), anchor="s",
                                        font=self.font, fill=DIM,
                                        tags=("count", f"period-{index}"))  # fmt: skip
                x0, y0, x1, y1 = self.bbox(text)
                patch = self.create_rectangle(x0, y0 + 2, x1, y1 - 2, outline="",
                                              fill=COLOURS["background"], tags="count")  # fmt: skip
                self.tag_lower(patch, text)

        if not rates_only:
            self._fastest_strip(progress, left, right, main_bottom + gap, bottom, slot)
        self._period_labels(progress, left, slot, bottom + 2)
        if self._pointed is not None:
            self._show_point(self._pointed)

    def _fastest_strip(
        self, progress: Progression, left: float, right: float, top: float, bottom: float,
        slot: float,
    ) -> None:  # fmt: skip
        """The fastest win so far, in its own strip under the bars (time runs down: a
        line going down is a player getting faster)."""
        colour = COLOURS["fastest"]
        self.create_text(left, top - 3, text=_("Fastest win so far"), anchor="sw",
                         font=self.font, fill=colour, tags="strip-title")  # fmt: skip
        self.create_rectangle(left, top, right, bottom, outline=COLOURS["grid"], tags="grid")
        periods = progress.periods
        values = [p.fastest_seconds for p in periods if p.fastest_seconds is not None]
        if not values:
            self.create_text((left + right) / 2, (top + bottom) / 2, text=_("No win yet"),
                             font=self.font, fill=DIM, tags="note")  # fmt: skip
            return
        slowest, fastest = max(values), min(values)
        inner_top, inner_bottom = top + 6, bottom - 6

        def y_of(seconds: float) -> float:
            if slowest == fastest:
                return (inner_top + inner_bottom) / 2
            share = (seconds - fastest) / (slowest - fastest)
            return inner_bottom - (inner_bottom - inner_top) * share

        self.create_text(left - 6, y_of(slowest), text=clock_text(slowest), anchor="e",
                         font=self.font, fill=colour, tags="tick")  # fmt: skip
        if slowest != fastest:
            self.create_text(left - 6, y_of(fastest), text=clock_text(fastest), anchor="e",
                             font=self.font, fill=colour, tags="tick")  # fmt: skip
        points = []
        for index, period in enumerate(periods):
            if period.fastest_seconds is None:
                continue
            x, y = left + slot * (index + 0.5), y_of(period.fastest_seconds)
            points.append((x, y))
            if period.record:
                self._dot(x, y, 4, colour, "fastest-point")
        self._polyline(points, colour, "fastest-line")

    def _period_labels(self, progress: Progression, left: float, slot: float, y: float) -> None:
        """The periods' names under the chart, as many as fit, the latest always."""
        periods = progress.periods
        widest = max(self.font.measure(p.label) for p in periods) + 10
        every = max(1, math.ceil(widest / slot))
        for index in range(len(periods) - 1, -1, -every):
            x = left + slot * (index + 0.5)
            self.create_text(x, y, text=periods[index].label, anchor="n", font=self.font,
                             fill=DIM, tags="period-label")  # fmt: skip
        self.create_text(_PAD, y, text=progress.unit_title, anchor="nw",
                         font=self.font, fill=DIM, tags="unit-title")  # fmt: skip

    def _legend(self, x: float, y: float, end: float) -> tuple[float, float]:
        """The legend, left to right from ``(x, y)`` (the middle of its first line), an
        entry that would pass ``end`` starting a new line; returns where its last line
        ends on the right and the middle of that line."""
        line = self.font.metrics("linespace")
        size = line * 0.6
        start = x
        entries = (
            ("bar", COLOURS["played"], _("Played")),
            ("bar", COLOURS["won"], _("Won")),
            ("line", COLOURS["rate"], _("Win rate so far")),
            ("dot", COLOURS["fastest"], _("Fastest win so far (a dot: a new record)")),
        )
        for shape, colour, text in entries:
            key = 2 * size if shape == "line" else size
            if x > start and x + key + 4 + self.font.measure(text) > end:
                x, y = start, y + line + 2
            if shape == "bar":
                self.create_rectangle(x, y - size / 2, x + size, y + size / 2, fill=colour,
                                      outline="", tags="legend")  # fmt: skip
            elif shape == "line":
                self.create_line(x, y, x + key, y, fill=colour, width=2, tags="legend")
                self._dot(x + size, y, 3, colour, "legend")
            else:
                self._dot(x + size / 2, y, 4, colour, "legend")
            x += key + 4
            self.create_text(x, y, text=text, anchor="w", font=self.font, tags="legend")
            x += self.font.measure(text) + 16
        return x - 16, y

    def _polyline(self, points: Sequence[tuple[float, float]], colour: str, tag: str) -> None:
        if len(points) >= 2:
            flat = [value for point in points for value in point]
            self.create_line(*flat, fill=colour, width=2, tags=tag)
        elif points:
            (x, y) = points[0]
            self.create_line(x - 6, y, x + 6, y, fill=colour, width=2, tags=tag)

    def _dot(self, x: float, y: float, radius: float, colour: str, tag: str) -> None:
        self.create_oval(x - radius, y - radius, x + radius, y + radius, fill=colour,
                         outline=COLOURS["background"], tags=tag)  # fmt: skip

    # --- the pointer -----------------------------------------------------------------------

    def period_at(self, x: float) -> int | None:
        """The index of the period drawn at ``x`` (canvas pixels), or ``None``."""
        for index, (start, end) in enumerate(self.slots):
            if start <= x < end:
                return index
        return None

    def _point(self, event: tk.Event) -> None:
        self._show_point(self.period_at(self.canvasx(event.x)))

    def _show_point(self, index: int | None) -> None:
        self._pointed = index
        if index is None or self.progress is None or not self.slots:
            self.itemconfigure("hover", state="hidden")
            self._on_point("")
            return
        start, end = self.slots[index]
        top, bottom = self._hover_box
        self.coords("hover", start, top, end, bottom)
        self.itemconfigure("hover", state="normal")
        self.tag_lower("hover")
        self._on_point(self.progress.periods[index].summary(clock_text))


class ProgressChart(ttk.Frame):
    """The Progression tab: which game (a list of the table's rows), the span (Last 7
    days, Last 30 days, Last 12 months, All time: PySolFC's choices; All time, every
    game played, until the player picks another, then the one picked last, kept in the
    settings), the chart, and a line under it with the figures of the span or of the
    period under the pointer.

    :param parent: the notebook.
    :param on_choose: called with the index of the row the player chose in the list.
    :param span: the span chosen first, one of :data:`SPANS` (another value: ``"all"``).
    :param on_span: called with the span the player picks (to remember it).
    """

    def __init__(
        self,
        parent: tk.Misc,
        *,
        on_choose: Callable[[int], None],
        span: str = "all",
        on_span: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(parent, padding=(_FRAME_PADDING // 2, 8, _FRAME_PADDING // 2, 4))
        self._on_choose = on_choose
        self._on_span = on_span
        self.games: Sequence[GameRecord] = ()
        self.title = ""
        self.problem = ""
        self.progress: Progression | None = None
        self.bar = bar = ttk.Frame(self)
        bar.grid(row=0, column=0, sticky="ew", pady=(0, 6))
        game = ttk.Frame(bar)
        game.grid(row=0, column=0, sticky="w")
        ttk.Label(game, text=_("Game:")).pack(side="left")
        self.chooser = ttk.Combobox(game, state="readonly", width=34, values=())
        self.chooser.pack(side="left", padx=(6, 16))
        self.chooser.bind("<<ComboboxSelected>>", lambda _e: self._chosen())
        self.span = tk.StringVar(self, value=span if span in SPANS else "all")
        self.spans = ttk.Frame(bar)
        self.spans.grid(row=0, column=1, sticky="w")
        self.span_buttons: dict[str, ttk.Radiobutton] = {}
        for name in SPANS:
            button = ttk.Radiobutton(
                self.spans, text=span_label(name), value=name, variable=self.span,
                command=self._span_picked,
            )  # fmt: skip
            button.pack(side="left", padx=(0, 10))
            self.span_buttons[name] = button
        self.canvas = ProgressCanvas(self, on_point=self._pointed)
        self.canvas.grid(row=1, column=0, sticky="nsew")
        self.figures_line = ttk.Label(self, text="", foreground=DIM)
        self.figures_line.grid(row=2, column=0, sticky="w", pady=(4, 0))
        self.canvas.bind(
            "<Configure>", lambda e: self.figures_line.configure(wraplength=e.width), add=True
        )
        self.columnconfigure(0, weight=1)
        self.rowconfigure(1, weight=1)

    def set_choices(self, names: Sequence[str], index: int | None) -> None:
        """The rows the list offers (``names``) and the one chosen (``None``: none)."""
        widest = max((len(name) for name in names), default=20)
        self.chooser.configure(values=list(names), width=min(44, max(20, widest + 1)))
        self.chooser.set(names[index] if index is not None else "")

    def fit_width(self, width: int) -> None:
        """Fit the line of choices in ``width`` pixels: the list of games narrower (it
        shows a long name cut short; its drop-down shows it whole), and the spans on a
        line of their own when that is not enough."""

        def too_wide() -> bool:
            self.update_idletasks()
            return self.bar.winfo_reqwidth() + _FRAME_PADDING > width

        def narrow(least: int) -> None:
            while too_wide() and int(self.chooser["width"]) > least:
                self.chooser.configure(width=int(self.chooser["width"]) - 2)

        narrow(20)
        if too_wide():
            self.spans.grid(row=1, column=0, sticky="w", pady=(4, 0))
            narrow(12)

    def show(self, title: str, games: Sequence[GameRecord], problem: str = "") -> None:
        """Chart ``games``, the recorded games of the row called ``title`` (``""`` and
        no games: nothing is chosen); with a ``problem`` (the games could not be read),
        that sentence in place of the chart."""
        self.title, self.games, self.problem = title, games, problem
        self.refresh()

    def refresh(self) -> None:
        """Count the games again for the chosen span and draw them."""
        shown = self.title and not self.problem
        self.progress = progression(self.games, self.span.get()) if shown else None
        note = self.problem or ("" if self.title else _("No games recorded yet."))
        self.canvas.draw(self.progress, note)
        self.figures_line.configure(text=self.summary())

    def summary(self) -> str:
        """The line under the chart when the pointer is not on a bar: the span's
        totals and how to read a bar's figures (``""`` with nothing drawn)."""
        progress = self.progress
        if progress is None or not progress.drawable:
            return ""
        rate = _percent(f"{progress.won * 100 / progress.played:.0f}") if progress.played else "-"
        return _("{game}, {span}: {games} ({rate}). Point at a bar to read its figures.").format(
            game=self.title,
            span=span_in_text(progress.span),
            games=games_text(progress.played, progress.won),
            rate=rate,
        )

    def _span_picked(self) -> None:
        """The player picked a span: chart it, and have it remembered."""
        self.refresh()
        if self._on_span is not None:
            self._on_span(self.span.get())

    def _chosen(self) -> None:
        index = self.chooser.current()
        if index >= 0:
            self._on_choose(index)

    def _pointed(self, text: str) -> None:
        self.figures_line.configure(text=text or self.summary())
