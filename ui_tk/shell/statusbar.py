"""The game window's status bar: a message at the left (a hint, the reason a move was
refused...) and the game's figures at the right (variant, deal, moves, score, time,
cards left, cheats). The score is written by the variant's scoring scheme: points, or
money for the Vegas schemes, with the bank where one is carried (``Score $-37 · Bank
$-89``).

The message takes the room the fields leave. Only the game's name (also in the title
bar) gives way to a message that does not fit or would get less than
:data:`MIN_MESSAGE_WIDTH` pixels; the figures of the game (deal, moves, score, time,
cards left, cheats) stay, and a message still too long is shown shortened with an
ellipsis, the whole text in a tooltip over it (:attr:`StatusBar.message` keeps it
whole). In a window too narrow for the figures themselves, the score and the cards
left give way too (:data:`OPTIONAL_FIELDS`).
"""

from __future__ import annotations

import tkinter as tk
from tkinter import font as tkfont
from tkinter import ttk
from typing import TYPE_CHECKING

from solitaire_core.i18n import gettext as _
from solitaire_core.scoring import score_text

from ..widgets import Tooltip, clock_text, elide

if TYPE_CHECKING:
    from solitaire_core.session import Session

__all__ = [
    "FIELDS",
    "MIN_MESSAGE_WIDTH",
    "MESSAGE_ROOM",
    "OPTIONAL_FIELDS",
    "StatusBar",
    "style_status",
]

MIN_MESSAGE_WIDTH = 240
"""Pixels the status bar keeps for the message before it hides optional fields."""

FIELDS = ("cheats", "cards", "time", "score", "moves", "deal", "variant")
"""The status bar's fields, from the right."""

OPTIONAL_FIELDS = ("variant", "score", "cards")
"""Fields hidden, in this order, when the window is too narrow (the variant's name is
also in the window title); only the first gives way to a long message."""

MESSAGE_ROOM = 60
"""Pixels a message keeps at least (a few words and "…") before the score and the cards
left give way in a narrow window."""

BACKGROUND = "#e9ece6"


def style_status(root: tk.Misc) -> None:
    """Define the ttk styles of the status bar (``Status.TFrame``, ``Status.TLabel``,
    ``Message.TLabel``, ``Warn.TLabel``)."""
    style = ttk.Style(root)
    style.configure("Status.TFrame", background=BACKGROUND)
    style.configure("Status.TLabel", background=BACKGROUND, padding=(8, 3))
    style.configure("Message.TLabel", background=BACKGROUND, foreground="#2f3a33",
                    padding=(8, 3))  # fmt: skip
    style.configure("Warn.TLabel", background=BACKGROUND, foreground="#9a1d12",
                    padding=(8, 3))  # fmt: skip


class StatusBar:
    """The status bar, packed at the bottom of ``parent``.

    Attributes: ``frame`` (the bar), ``labels`` (field name -> ttk.Label: ``message``
    and every name of :data:`FIELDS`), ``tooltip`` (the message's
    :class:`~solitaire_tk.widgets.Tooltip`: the whole message when it is shortened).
    """

    def __init__(self, parent: tk.Misc) -> None:
        bar = ttk.Frame(parent, style="Status.TFrame")
        bar.pack(side="bottom", fill="x")
        self.frame = bar
        self.labels: dict[str, ttk.Label] = {}
        self._separators: dict[str, ttk.Separator] = {}
        # The fields are packed first, from the right; the message takes what is left
        # (it asks for one character only, so it never pushes a field out) and is
        # shortened with an ellipsis to fit (see fit).
        for name in FIELDS:
            label = ttk.Label(bar, style="Status.TLabel")
            label.pack(side="right")
            self.labels[name] = label
            separator = ttk.Separator(bar, orient="vertical")
            separator.pack(side="right", fill="y", pady=3)
            self._separators[name] = separator
        message = ttk.Label(bar, style="Message.TLabel", anchor="w", width=1)
        message.pack(side="left", fill="x", expand=True)
        self.labels["message"] = message
        self._message = ""
        self._message_font = tkfont.nametofont("TkDefaultFont", root=bar)
        self.tooltip = Tooltip(message, self._tooltip_text)
        message.bind("<Configure>", lambda _e: self.fit(), add=True)
        bar.bind("<Configure>", lambda _e: self.fit(), add=True)

    def set_message(self, text: str, *, warn: bool = False) -> None:
        """Show a sentence at the left (``""`` clears it), shortened to fit.

        :param warn: show it as a reason a move was refused (in red).
        """
        self._message = text
        self.labels["message"].configure(style="Warn.TLabel" if warn else "Message.TLabel")
        self.fit()

    @property
    def message(self) -> str:
        """The whole sentence (the bar may show it shortened)."""
        return self._message

    def _tooltip_text(self) -> str:
        shown = self.labels["message"].cget("text")
        return self._message if shown != self._message else ""

    def show_game(
        self, session: Session, elapsed: float, *, name: str = "", bank: int | None = None
    ) -> None:
        """Show the figures of ``session``, ``elapsed`` seconds into the game.

        :param name: the game as the variant field shows it (with its chosen option,
            ``"Sea Towers · Any card"``); default the variant's name.
        :param bank: the bank of a game that carries one (``vegas-cumulative`` scoring),
            in dollars, shown after the score (``"Score $-37 · Bank $-89"``); ``None``
            for none.
        """
        state = session.state
        self.labels["variant"].configure(text=name or session.rules.name)
        self.labels["deal"].configure(text=_("Deal {number}").format(number=session.deal_number))
        self.labels["moves"].configure(text=_("Moves {count}").format(count=session.moves))
        score = _("Score {score}").format(score=score_text(session.score, session.rules.scoring))
        if bank is not None:
            score += " · " + _("Bank {bank}").format(bank=score_text(bank, "vegas-cumulative"))
        self.labels["score"].configure(text=score)
        self.labels["cards"].configure(text=_("Cards left {count}").format(count=state.cards_left))
        cheat = " " + _("(Cheat on)") if session.cheat else ""
        self.labels["cheats"].configure(
            text=_("Cheats {count}").format(count=session.cheats) + cheat
        )
        self.show_time(elapsed)

    def show_time(self, elapsed: float) -> None:
        """Show the play time, ``elapsed`` seconds."""
        self.labels["time"].configure(text=_("Time {clock}").format(clock=clock_text(elapsed)))

    def fit(self) -> None:
        """Fit the bar to the window: hide the game's name while the message does not
        fit, or would get less than :data:`MIN_MESSAGE_WIDTH` pixels; hide the other
        fields of :data:`OPTIONAL_FIELDS` only while the figures leave the message less
        than :data:`MESSAGE_ROOM` pixels (whatever it says); shorten the message to the
        room it has."""
        bar = self.frame
        message = self.labels["message"]
        total = bar.winfo_width()
        padding = 2 * 8 + 2  # the label style's padding, and a little more
        wanted_room = max(MIN_MESSAGE_WIDTH, self._message_font.measure(self._message) + padding)
        if total > 1:
            others = [w for w in bar.pack_slaves() if w is not message]
            hidden = [n for n in OPTIONAL_FIELDS if not self.labels[n].winfo_manager()]
            room = total - sum(w.winfo_reqwidth() for w in others)
            room -= sum(self._field_width(name) for name in hidden)  # as if all were shown
            for i, name in enumerate(OPTIONAL_FIELDS):
                wanted = room >= (wanted_room if i == 0 else MESSAGE_ROOM)
                self._show_field(name, wanted)
                if not wanted:
                    room += self._field_width(name)
        width = message.winfo_width() - padding
        shown = elide(self._message, width, self._message_font.measure) if width > 1 else ""
        if message.cget("text") != shown:
            message.configure(text=shown)

    def _field_width(self, name: str) -> int:
        return self.labels[name].winfo_reqwidth() + self._separators[name].winfo_reqwidth()

    def _show_field(self, name: str, shown: bool) -> None:
        label, separator = self.labels[name], self._separators[name]
        if shown == bool(label.winfo_manager()):
            return
        if not shown:
            label.pack_forget()
            separator.pack_forget()
            return
        # Back in its place: just left of the nearest field to its right that is shown.
        right = FIELDS[: FIELDS.index(name)]
        anchor = next(
            self._separators[n] for n in reversed(right) if self.labels[n].winfo_manager()
        )
        label.pack(side="right", after=anchor)
        separator.pack(side="right", fill="y", pady=3, after=label)
