"""The win: a short celebration on the table, and the record figures of the win dialog.

:class:`Celebration` throws confetti from the foundations over the table for about a
second and a half (:data:`DURATION`); any click or key on the table ends it at once.
Options > Celebrate wins switches it off (saved in the settings).

:func:`record_figures` adds what the other programs' win dialogs show beside the game's
own figures: the games won of this game and option set, the win rate, the current
streak and the best (fewest moves, fastest) wins.
"""

from __future__ import annotations

import math
import random
import time
import tkinter as tk
from typing import Any

from solitaire_core.i18n import gettext as _
from solitaire_core.i18n import ngettext
from solitaire_core.moves import PileKind, PileRef

__all__ = ["DURATION", "Celebration", "record_figures"]

DURATION = 1.6
"""Seconds the confetti flies."""

_COLOURS = ("#ffd54a", "#ff6b6b", "#4dabf7", "#69db7c", "#f783ac", "#ffffff", "#ffa94d")
_FRAME_MS = 16
_PIECES = 90


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def record_figures(app: Any) -> dict[str, str]:
    """The player's record in the game just won (this variant and option set), for the
    win dialog: ``Games won`` ("12 of 20 (60%)"), ``Streak``, ``Fewest moves`` and
    ``Fastest``; empty when the statistics cannot be read."""
    session = app.session
    if session is None:
        return {}
    try:
        entries = app.store.stats.summary(session.rules.id, dict(session.rules.options))
    except Exception:  # PersistenceError: the figures are a courtesy, the win stands
        return {}
    if not entries:
        return {}
    entry = entries[0]
    streak = entry.current_streak
    if streak > 0:
        streak_text = ngettext("{count} win", "{count} wins", streak).format(count=streak)
    elif streak < 0:
        streak_text = ngettext("{count} loss", "{count} losses", -streak).format(count=-streak)
    else:
        streak_text = _("none")
    figures = {
        _("Games won"): _("{won} of {played} ({rate})").format(
            won=entry.won, played=entry.played, rate=f"{entry.win_rate:.0%}"
        ),
        _("Streak"): streak_text,
    }
    if entry.fewest_moves is not None:
        figures[_("Fewest moves")] = str(entry.fewest_moves)
    if entry.fastest_seconds is not None:
        figures[_("Fastest")] = _clock(entry.fastest_seconds)
    return figures


class Celebration:
    """Confetti over the table of an app (``app.celebration``).

    Attributes for tests: ``running``, ``pieces`` (the canvas items; tag
    ``celebration``), ``enabled`` (Options > Celebrate wins).
    """

    def __init__(self, app: Any, *, enabled: bool = True) -> None:
        self.app = app
        self.enabled = enabled
        self.pieces: list[int] = []
        self._motion: list[list[float]] = []
        self._job: str | None = None
        self._t0 = 0.0
        self._last = 0.0
        view = app.view
        self._tag = f"Celebration{id(self)}"
        view.bindtags((self._tag, *view.bindtags()))
        for sequence in ("<KeyPress>", "<ButtonPress>"):
            view.bind_class(self._tag, sequence, lambda _e: self.stop())
        self.var = tk.BooleanVar(app.root, value=enabled)
        options = app.menus["options"]
        options.insert_checkbutton(
            options.index(_("Animate moves")) + 1,
            label=_("Celebrate wins"),
            variable=self.var,
            command=lambda: self.set_enabled(bool(self.var.get())),
        )

    @property
    def running(self) -> bool:
        """Whether the confetti flies."""
        return self._job is not None

    def set_enabled(self, on: bool) -> None:
        """Switch the celebration on or off (saved in the settings)."""
        self.enabled = on
        self.var.set(on)
        if not on:
            self.stop()
        if self.app.settings.celebrate != on:
            self.app._save_settings(celebrate=on)

    def start(self) -> bool:
        """Throw the confetti (when enabled); returns whether it started."""
        self.stop()
        view, layout = self.app.view, self.app.view.layout
        if not self.enabled or layout is None or not view.winfo_ismapped():
            return False
        rng = random.Random()
        sources = [
            layout.slot(PileRef(PileKind.FOUNDATION, i)) for i in range(len(layout.foundations))
        ] or list(layout.columns)
        size = max(4, layout.card_w // 9)
        for n in range(_PIECES):
            slot = sources[n % len(sources)]
            x = slot.x + layout.card_w / 2
            y = slot.y + layout.card_h / 3
            angle = rng.uniform(-math.pi * 0.95, -math.pi * 0.05)
            speed = rng.uniform(0.6, 1.25) * layout.height
            w, h = size * rng.uniform(0.6, 1.2), size * rng.uniform(0.3, 0.7)
            item = view.create_rectangle(
                x, y, x + w, y + h, outline="", fill=rng.choice(_COLOURS), tags=("celebration",)
            )
            self.pieces.append(item)
            self._motion.append([math.cos(angle) * speed * 0.7, math.sin(angle) * speed])
        view.tag_raise("celebration")
        self._t0 = self._last = time.perf_counter()
        self._job = view.after(_FRAME_MS, self._frame)
        return True

    def _frame(self) -> None:
        self._job = None
        view = self.app.view
        now = time.perf_counter()
        if now - self._t0 >= DURATION or not view.winfo_exists():
            self.stop()
            return
        dt, self._last = now - self._last, now
        gravity = 1.8 * (view.layout.height if view.layout else 600)
        for item, motion in zip(self.pieces, self._motion):
            motion[1] += gravity * dt
            view.move(item, motion[0] * dt, motion[1] * dt)
        self._job = view.after(_FRAME_MS, self._frame)

    def stop(self) -> None:
        """End the celebration and clear its pieces."""
        view = self.app.view
        if self._job is not None:
            try:
                view.after_cancel(self._job)
            except tk.TclError:
                pass
            self._job = None
        if self.pieces:
            try:
                view.delete("celebration")
            except tk.TclError:
                pass
        self.pieces = []
        self._motion = []
