"""Options > Card theme: choosing the card faces (:mod:`solitaire_tk.faces.themes`) in the game
window, saved in the settings.

A built-in theme applies at once. An SVG deck is rendered card by card on a background
thread the first time (a few seconds to a minute, depending on the deck; the cards are
then kept in the per-user cache folder, so later starts take a moment): the table keeps
its current faces and stays playable meanwhile, and the status bar counts the cards
done. A deck that cannot be used (gone, not SVG, not a card deck) is reported in the
status bar and the built-in faces are used.
"""

from __future__ import annotations

import threading
import tkinter as tk
from typing import Any

from solitaire_core.i18n import gettext as _

from .themes import (
    BUILTIN_THEMES,
    SvgDeck,
    ThemeError,
    available_themes,
    deck_path,
    face_renderer,
    svg_deck,
)

__all__ = ["CardThemes"]

_POLL_MS = 100


class CardThemes:
    """The Card theme menu of an app (``app.card_themes``).

    Attributes for tests: ``themes`` (the :class:`~solitaire_tk.faces.themes.Theme` values
    offered), ``var`` (the chosen key), ``menu``, ``current`` (the key whose faces are
    on the table), ``preparing`` (the deck being rendered, or ``None``).
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.themes = available_themes()
        self.var = tk.StringVar(app.root, value=app.settings.card_theme)
        self.current = "built-in"
        self.preparing: SvgDeck | None = None
        self._thread: threading.Thread | None = None
        self._done = 0
        self._error: ThemeError | None = None
        self._job: str | None = None
        options = app.menus["options"]
        self.menu = tk.Menu(options)
        options.insert_cascade(
            options.index(_("Four-colour deck")) + 1, label=_("Card theme"), menu=self.menu
        )
        groups: dict[str, tk.Menu] = {}
        for theme in self.themes:
            menu = self.menu
            if theme.source != "built-in":
                if theme.source not in groups:
                    if not groups:
                        self.menu.add_separator()
                    groups[theme.source] = tk.Menu(self.menu)
                    label = _("{program} decks").format(program=theme.source)
                    self.menu.add_cascade(label=label, menu=groups[theme.source])
                menu = groups[theme.source]
            name = _(theme.name) if theme.source == "built-in" else theme.name
            menu.add_radiobutton(label=name, value=theme.key, variable=self.var,
                                 command=lambda key=theme.key: self.choose(key))  # fmt: skip
        if app.settings.card_theme != "built-in":
            self.choose(app.settings.card_theme, save=False)

    def choose(self, key: str, *, save: bool = True) -> None:
        """Use theme ``key`` (a built-in name, a bundled deck's name or an SVG deck's
        path)."""
        app = self.app
        self._cancel()
        self.var.set(key)
        if save and app.settings.card_theme != key:
            app._save_settings(card_theme=key)
        try:
            render = face_renderer(key)
            deck = None if key in BUILTIN_THEMES else svg_deck(deck_path(key))
        except ThemeError as error:
            self._fail(error)
            return
        if deck is None or deck.prepared:
            self._apply(key, render)
            return
        self.preparing = deck
        self._done = 0
        self._error = None

        def work() -> None:
            try:
                deck.prepare(progress=lambda n: setattr(self, "_done", n))
            except ThemeError as error:
                self._error = error

        self._thread = threading.Thread(target=work, name="card-theme", daemon=True)
        self._thread.start()
        self._job = app.root.after(_POLL_MS, lambda: self._wait(key))

    def _wait(self, key: str) -> None:
        self._job = None
        app, deck, thread = self.app, self.preparing, self._thread
        if app.ended or deck is None or thread is None:
            return
        if thread.is_alive():
            app.set_message(
                _("Preparing the card theme… {done} of {count} cards.").format(
                    done=self._done, count=len(deck.ids)
                )
            )
            self._job = app.root.after(_POLL_MS, lambda: self._wait(key))
            return
        self.preparing = None
        self._thread = None
        if self._error is not None:
            self._fail(self._error)
            return
        self._apply(key, face_renderer(key))
        app.set_message(_("Card theme ready."))

    def _apply(self, key: str, render) -> None:  # type: ignore[no-untyped-def]
        self.current = key
        self.app.view.set_face_renderer(None if key == "built-in" else render)

    def _fail(self, error: ThemeError) -> None:
        text = _("Card theme: {error}. The built-in faces are used.").format(error=error)
        # After idle: at start-up the new game's first message would hide it.
        self.app.root.after_idle(lambda: self.app.set_message(text, warn=True))
        self.var.set("built-in")
        self._apply("built-in", None)

    def _cancel(self) -> None:
        if self._job is not None:
            try:
                self.app.root.after_cancel(self._job)
            except tk.TclError:
                pass
            self._job = None
        self.preparing = None
        self._thread = None  # a running one finishes on its own (its cards stay cached)
