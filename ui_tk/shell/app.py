"""The application: the launcher, the game window, its menus, status bar and keys.

:func:`run` opens the window: the launcher (:class:`solitaire_tk.launcher.window.Launcher`)
when no variant is given, else the table at once. :class:`App` is the controller: it owns
the :class:`~solitaire_core.session.Session`, plays the moves the
:class:`~solitaire_tk.table.view.TableView` reports, keeps the status bar, the clock, the
settings, the autosave and the statistics (through
:class:`solitaire_tk.shell.persist.AppStore`), and opens the dialogs of
:mod:`solitaire_tk.dialogs.common`, :mod:`solitaire_tk.dialogs.rules` and
:mod:`solitaire_tk.dialogs.stats`; the menus and keys are :mod:`solitaire_tk.shell.menus`,
the status bar :mod:`solitaire_tk.shell.statusbar`.

Keys (:mod:`solitaire_tk.shell.menus`; listed in Help > Keyboard shortcuts from
:data:`solitaire_tk.keys.SHORTCUTS`): the pile keys of
:mod:`solitaire_tk.table.layout` (columns ``a``-``n``, cells ``1``-``9``, foundations after the
columns' letters), Ctrl+Z undo, Ctrl+Y and Ctrl+Shift+Z redo, F2 or Ctrl+N new deal,
Ctrl+R restart, Ctrl+G select deal, F3 next deal, Ctrl+L choose another game, F1 rules,
Ctrl+H hint, Ctrl+D demo, Escape stops a search or the demo.

The solver's features (hint, demo, winnable deals, the winnability field) live in
:class:`solitaire_tk.shell.assist.Assistant` (``App.assist``); they use :meth:`App.play`,
:attr:`App.menus` and :meth:`App.set_message` like any later feature may.
"""

from __future__ import annotations

import os
import random
import sys
import time
import tkinter as tk
from collections.abc import Callable, Mapping, Sequence
from tkinter import filedialog, messagebox, ttk
from typing import TYPE_CHECKING, Any

import attrs

from solitaire_core import i18n
from solitaire_core.errors import IllegalMoveError, SolitaireError
from solitaire_core.i18n import N_, ngettext
from solitaire_core.i18n import gettext as _
from solitaire_core.moves import Move
from solitaire_core.persistence import PersistenceError
from solitaire_core.persistence.settings import LANGUAGE_CHOICES
from solitaire_core.plugins import Registry, get_registry
from solitaire_core.rules import explain, find_progress
from solitaire_core.scoring import score_text
from solitaire_core.session import Session
from solitaire_core.state import GameState

from .. import widgets
from ..dialogs import common as dialogs
from ..dialogs import rules as rules_dialog
from ..dialogs import stats as stats_dialog
from ..faces.appearance import CardThemes
from ..table.celebrate import Celebration, record_figures
from ..table.layout import keys_text, pile_keys
from ..table.view import TableView
from ..widgets import clock_text, option_text
from .actions import action_enabled, action_states
from .assist import Assistant
from .menus import MenuBar, bind_keys
from .rewind import Rewinder
from .statusbar import StatusBar, style_status
from .toolbar import Toolbar

if TYPE_CHECKING:
    from solitaire_core.persistence import SavedGame

    from .persist import OpenedGame

__all__ = ["START_MESSAGE", "App", "random_deal", "run"]

RANDOM_DEALS = 32000
"""A random deal is drawn from 1 .. this (Microsoft FreeCell's numbers for FreeCell)."""

TIMING_ENV = "SOLITAIRE_TIMING"
"""When this environment variable is set, the app prints ``first-draw <epoch seconds>``
on stdout once the first table is drawn (benchmarks/bench_ui.py reads it)."""

START_MESSAGE = N_("Each pile has a key: see Help > Keyboard shortcuts.")
"""The status bar's message when a game is put on the table."""

NEXT_START_MESSAGE = N_("This language is used from the next start.")
"""What Options > Language says, in the language chosen."""

LAYOUT_MESSAGE = N_("The arrow keys go from free card to free card: see Help > Keyboard shortcuts.")
"""The status bar's message when a game whose cards lie in a layout (``tableau.layout``:
Pyramid, TriPeaks; no letter keys for its cards) is put on the table."""

_STUCK_DELAY = 400  # ms of quiet after a move before looking for a useful move
_STUCK_BUDGET = 3000  # positions the "no useful move left" search may visit
_AUTOSAVE_DELAY = 1500  # ms after the last move before the autosave is written


def random_deal() -> int:
    """A random deal number, 1 .. :data:`RANDOM_DEALS`."""
    return random.randint(1, RANDOM_DEALS)


class App:
    """The game window's controller.

    :param root: the Tk root window (the app builds its menus and frames in it).
    :param store: settings, autosave and statistics (default
        :class:`solitaire_tk.shell.persist.AppStore` in the usual folders, or ``SOLITAIRE_HOME``).
    :param registry: the installed variants (default :func:`get_registry`).
    :param variant: play this variant at once (skips the launcher and the resume offer).
    :param deal: with ``variant``: this deal number (default random).
    :param options: with ``variant``: its options (missing ones take their defaults).
    :param modal: dialogs wait until closed (``False`` in tests, IDLE's convention).
    :param offer_resume: offer to resume the autosaved game when no variant is given.

    Attributes for tests and later features: ``session``, ``view`` (the
    :class:`~solitaire_tk.table.view.TableView`), ``launcher`` (when shown), ``status`` (field name
    -> ttk.Label: ``message``, ``variant``, ``deal``, ``moves``, ``score``, ``time``,
    ``cards``, ``cheats``; a narrow window hides ``variant``, ``score`` and ``cards`` and
    shows the message shortened), ``message`` (the status bar's sentence, whole),
    ``menus`` (``game``, ``edit``, ``options``, ``help``),
    ``assist`` (the :class:`~solitaire_tk.shell.assist.Assistant`: hint, demo, winnable deals).
    """

    def __init__(
        self,
        root: tk.Tk,
        *,
        store: Any = None,
        registry: Registry | None = None,
        variant: str | None = None,
        deal: int | None = None,
        options: Mapping[str, str] | None = None,
        modal: bool = True,
        offer_resume: bool = True,
    ) -> None:
        self.root = root
        self.registry = registry if registry is not None else get_registry()
        if store is None:
            from .persist import AppStore

            store = AppStore(registry=self.registry)
        self.store = store
        self.settings = store.settings
        self.modal = modal
        self.session: Session | None = None
        self.launcher: Any = None
        self.used_hint = False
        self.hints = 0
        self.demo_played = False
        self._autosave_ours = False  # the autosave file holds the game on the table
        self._elapsed = 0.0
        self._clock_from: float | None = None
        self._tick_job: str | None = None
        self._stuck_job: str | None = None
        self._stuck_checked: GameState | None = None
        self._autosave_job: str | None = None
        self._timing_reported = not os.environ.get(TIMING_ENV)
        self.ended = False
        self.dialog: Any = None  # the last dialog opened without waiting (tests)
        self._progress: tuple[tk.Toplevel, ttk.Label] | None = None

        # A new window (never shown yet) stays hidden until it is complete: the player
        # sees the finished table, not an empty window filled in stages (_show_window).
        # The language first: every label built from here on is in it.
        i18n.set_language(None if self.settings.language == "system" else self.settings.language)
        hidden = not root.winfo_ismapped()
        if hidden:
            root.withdraw()
        root.title("Towers Solitaire")
        root.minsize(480, 360)
        self.window_size = (self.settings.window_width, self.settings.window_height)
        root.geometry(f"{self.window_size[0]}x{self.window_size[1]}")
        root.protocol("WM_DELETE_WINDOW", self.quit)
        self._style()
        commands = self._commands()
        self.menu_bar = MenuBar(root, commands, self.settings)
        self.menubar = self.menu_bar.bar
        self.menus = self.menu_bar.menus
        self.cheat_var = self.menu_bar.cheat_var
        self.animation_var = self.menu_bar.animation_var
        self.four_colour_var = self.menu_bar.four_colour_var
        self.winnability_var = self.menu_bar.winnability_var
        self.winnable_only_var = self.menu_bar.winnable_only_var
        self.toolbar_var = self.menu_bar.toolbar_var
        self.hints_peek_var = self.menu_bar.hints_peek_var
        self._fit_screen()
        self.game_frame = ttk.Frame(root)
        self.view = TableView(
            self.game_frame,
            on_move=self.play,
            on_message=lambda text: self.set_message(text, warn=True),
            cheat=lambda: bool(self.session and self.session.cheat),
            four_colour=self.settings.four_colour,
            animation=self.settings.animation,
            width=self.window_size[0],
            height=self.window_size[1] - 60,
        )
        self.status_bar = StatusBar(self.game_frame)
        self.status = self.status_bar.labels
        self.toolbar = Toolbar(self.game_frame, commands, self)
        if self.settings.toolbar:
            self.toolbar.pack(side="top", fill="x")
        self.view.pack(side="top", fill="both", expand=True)
        self.assist = Assistant(
            self, show_winnability=self.settings.show_winnability, peek=self.settings.hints_peek
        )
        self.rewinder = Rewinder(self)
        self.card_themes = CardThemes(self)
        self.celebration = Celebration(self, enabled=self.settings.celebrate)
        bind_keys(root, commands, enabled=self.action_enabled)
        self.refresh_actions()
        if hidden:
            self._expect_table_size()

        if store.warnings:
            text = "\n\n".join(store.warnings)
            # A timer, not an idle task: it waits for the window (_show_window's update).
            root.after(0, lambda: self.warn(_("Some files could not be read"), text))
        self._open(store.offer_resume() if offer_resume else None, variant, options, deal)
        if hidden and not self.ended:
            self._show_window()

    def _open(
        self,
        saved: SavedGame | None,
        variant: str | None,
        options: Mapping[str, str] | None,
        deal: int | None,
    ) -> None:
        """What the window opens on: the autosaved game when the player resumes it, else
        ``variant``'s deal, else the launcher."""
        if variant is not None:
            if saved is not None and (self._resume(saved, replacing=variant) or self.ended):
                return
            self.start(variant, options or {}, deal)
        else:
            if saved is not None and (self._resume(saved) or self.ended):
                return
            self.show_launcher()

    # ------------------------------------------------------------------ building

    def _expect_table_size(self) -> None:
        """Tell the table the size it will have when the hidden window is shown: the
        window's size (at least its minimum; Tk gives a window the size asked even when
        larger than the screen) less the toolbar's and status bar's heights. A game dealt
        before then is drawn at once for that size, while the window is hidden; a window
        manager that gives the window another size has it drawn again for that size."""
        root = self.root
        root.update_idletasks()  # the bars' heights; a withdrawn window stays hidden
        min_w, min_h = root.wm_minsize()
        width = max(self.window_size[0], min_w)
        height = max(self.window_size[1], min_h)
        bars = self.game_frame.winfo_reqheight() - self.view.winfo_reqheight()
        self.view.expect_size(width, height - bars)

    def _fit_screen(self) -> None:
        """Make the window smaller than its saved size where the screen has no room for
        that size and the menu bar above it (the default 1100 x 760 and a menu bar are
        taller than a 768-pixel laptop screen less its panels), and put it on the screen
        (:func:`~solitaire_tk.widgets.fit_window`); a window that fits keeps its size and
        the place the window manager gives it. :attr:`window_size` is the size given."""
        room_width, room_height = widgets.screen_room(self.root)
        room_height -= widgets.menu_height(self.root)
        width, height = self.window_size
        if width <= room_width and height <= room_height:
            return
        self.window_size = widgets.fit_window(
            self.root, min(width, room_width), min(height, room_height)
        )

    def _show_window(self) -> None:
        """Show the window kept hidden while it was built (a new one), once: laid out
        first (the game or the launcher packed in it), so that it appears whole."""
        if self.root.wm_state() == "withdrawn":
            self.root.update_idletasks()
            self.root.deiconify()

    def _style(self) -> None:
        style = ttk.Style(self.root)
        if "clam" in style.theme_names() and sys.platform.startswith("linux"):
            style.theme_use("clam")
        style_status(self.root)

    def _commands(self) -> dict[str, Callable[[], object]]:
        """The commands of the menus and keys (:data:`solitaire_tk.shell.menus.COMMANDS`)."""
        return {
            "new_deal": self.new_deal,
            "next_deal": self.next_deal,
            "select_deal": self.select_deal,
            "restart": self.restart,
            "hint": self.hint,
            "demo": self.demo,
            "stop": self.stop,
            "show_launcher": self.show_launcher,
            "open_game": self.open_game,
            "save_game": self.save_game,
            "show_statistics": self.show_statistics,
            "quit": self.quit,
            "undo": self.undo,
            "redo": self.redo,
            "difficulty": self._difficulty_changed,
            "animation": self._animation_changed,
            "four_colour": self._four_colour_changed,
            "winnability": self._winnability_changed,
            "winnable_only": lambda: self.set_winnable_only(bool(self.winnable_only_var.get())),
            "show_rules": self.show_rules,
            "show_shortcuts": self.show_shortcuts,
            "show_about": self.show_about,
            "undo_to_winnable": self.undo_to_winnable,
            "toolbar": lambda: self.set_toolbar(bool(self.toolbar_var.get())),
            "hints_peek": lambda: self.set_hints_peek(bool(self.hints_peek_var.get())),
            "language": lambda: self.set_language(self.menu_bar.language_var.get()),
        }

    # ------------------------------------------------------------------ dialogs (test hooks)

    def confirm(self, title: str, question: str) -> bool:
        """Ask a yes/no question (tests replace this)."""
        answer = bool(messagebox.askyesno(title, question, parent=self.root))
        self._refocus()
        return answer

    def warn(self, title: str, text: str) -> None:
        """Tell the player about a problem (tests replace this)."""
        messagebox.showwarning(title, text, parent=self.root)
        self._refocus()

    def show_progress(self, text: str | None) -> None:
        """Show ``text`` in a small window over this one, which takes the mouse and keys
        until it goes; ``None`` closes it (tests replace this)."""
        if text is None:
            if self._progress is not None:
                top, _ = self._progress
                self._progress = None
                top.grab_release()
                top.destroy()
                self._refocus()
            return
        if self._progress is None:
            self._show_window()  # a window over a hidden one would stay hidden with it
            top = tk.Toplevel(self.root)
            top.title("Towers Solitaire")
            top.transient(self.root)
            top.resizable(False, False)
            top.protocol("WM_DELETE_WINDOW", lambda: None)  # it goes when the work is done
            label = ttk.Label(top, text=text, padding=(24, 18), width=48)
            label.pack()
            self._progress = (top, label)
            top.update()
            if self.ended:  # the game window was closed meanwhile, and this one with it
                return
            try:
                top.grab_set()  # no move or menu reaches the game window meanwhile
            except tk.TclError:  # not mapped (yet): the replay goes on without the grab
                pass
        self._progress[1].configure(text=text)

    # ------------------------------------------------------------------ starting games

    @property
    def playing(self) -> bool:
        """Whether the table (not the launcher) is shown with a game on it."""
        return self.session is not None and self.launcher is None

    def start(self, variant: str, options: Mapping[str, str], deal: int | None) -> None:
        """Deal a new game of ``variant`` (random deal when ``deal`` is ``None``).

        With "Winnable deals only" on, a random deal is one the solver proved winnable:
        the search runs in the background and the game is dealt when it ends
        (:meth:`~solitaire_tk.shell.assist.Assistant.find_winnable_deal`).

        :raises SolitaireError: for an unknown variant or option (shown to the player
            when the launcher asked for it).
        """
        definition = self.registry.get(variant)
        if deal is None and self.settings.winnable_only:
            rules = definition.resolve(options)  # a bad option is reported now
            chosen = dict(options)
            self.assist.find_winnable_deal(
                rules, lambda number: self.start(variant, chosen, number), draw=random_deal
            )
            return
        number = deal if deal is not None else random_deal()
        session = Session.new(definition, number, options, cheat=self.cheat_var.get() == "cheat")
        self._finish_current()
        self.begin(session, 0.0)

    def _resume(self, saved: Any, *, replacing: str | None = None) -> bool:
        """Offer to resume the autosaved game; declined, it ends and counts as lost.

        :param replacing: the variant the player asked to play instead (``solitaire play
            VARIANT``): the question says that game replaces the one in progress.
        :return: whether the saved game is back on the table.
        """
        moves = len(saved.moves)
        question = ngettext(
            "Resume your game of {game}, deal {number} ({count} move)?",
            "Resume your game of {game}, deal {number} ({count} moves)?",
            moves,
        ).format(game=self._game_text(saved.variant, saved.options), number=saved.deal, count=moves)
        if replacing is not None:
            asked = self._game_text(replacing, {})
            question += "\n\n" + _(
                "No starts {game} and counts the game in progress as lost."
            ).format(game=asked)
        else:
            question += "\n\n" + _("No counts it as lost.")
        if not self.confirm(_("Resume game"), question):
            self._record_saved_as_lost(saved)
            if not self.ended:
                self.store.clear_autosave()
            return False
        try:
            game = self.replay(saved)
        except SolitaireError as error:
            where = self.store.set_aside_autosave()
            self.warn(_("The game cannot be resumed"), f"{error} {where}")
            return False
        if game is None:  # the window was closed meanwhile: the autosave stays
            return False
        self._continue(game)
        self._autosave_ours = True
        return True

    def replay(self, saved: SavedGame) -> OpenedGame | None:
        """Make a saved game playable again, :data:`~solitaire_tk.shell.persist.REPLAY_CHUNK`
        moves at a time. A game longer than one chunk shows "Replaying the saved game:
        4,000 of 100,000 moves…" (:meth:`show_progress`), and the window keeps drawing
        between chunks; at :data:`~solitaire_core.persistence.saves.MAX_SAVE_MOVES` moves
        this takes seconds.

        :param saved: the saved game (the autosave, or a file the player opened).
        :return: the game, or ``None`` when the window was closed during the replay.
        :raises ReplayError: the variant is not installed, an option or the deal number
            is not valid, or a move is not allowed (see
            :meth:`~solitaire_tk.shell.persist.AppStore.session_from_save`).
        """
        from .persist import REPLAY_CHUNK

        replay = self.store.replay(saved)
        if replay.step(REPLAY_CHUNK):
            return replay.game()
        try:
            while True:
                self.show_progress(
                    f"Replaying the saved game: {replay.done:,} of {replay.total:,} moves…"
                )
                self.root.update()  # draw, and let the window manager know we are alive
                if self.ended:
                    return None
                if replay.step(REPLAY_CHUNK):
                    return replay.game()
        finally:
            if not self.ended:
                self.show_progress(None)

    def _record_saved_as_lost(self, saved: Any) -> None:
        """Record an autosaved game the player gave up as lost (if it had moves)."""
        try:
            game = self.replay(saved)
        except SolitaireError:
            return  # it cannot be replayed: nothing to count
        if game is None:  # the window was closed meanwhile
            return
        self.store.record(
            game.session,
            won=False,
            elapsed_seconds=game.elapsed_seconds,
            used_hint=game.used_hint,
            hints=game.hints,
        )

    def _game_text(self, variant: str, options: Mapping[str, str]) -> str:
        """A variant with its chosen options in words: ``"Sea Towers (Empty columns take:
        Any card)"``."""
        definition = self.registry.variants.get(variant)
        if definition is None:
            return variant
        chosen = option_text(definition, options)
        return f"{definition.name} ({chosen})" if chosen else definition.name

    def _continue(self, game: OpenedGame) -> None:
        """Put a saved game back on the table, with its Cheat setting, clock, hint flag
        and count, and whether the demo played it."""
        self.cheat_var.set("cheat" if game.session.cheat else "normal")
        self.begin(
            game.session,
            game.elapsed_seconds,
            used_hint=game.used_hint,
            hints=game.hints,
            demo_played=game.demo_played,
        )

    def begin(
        self,
        session: Session,
        elapsed: float = 0.0,
        *,
        used_hint: bool = False,
        hints: int = 0,
        demo_played: bool = False,
    ) -> None:
        """Put ``session`` on the table (a new deal, a resumed or opened game, or a
        position a test or a tool built), with ``elapsed`` seconds already on its clock.

        :param used_hint: a hint was already asked for in this game (a saved game);
            ``hints``: how many; ``demo_played``: the demo played a move of it.
        """
        if self.launcher is not None:
            self.launcher.destroy()
            self.launcher = None
        self.celebration.stop()
        self.session = session
        self.used_hint = bool(used_hint)
        self.hints = int(hints)
        self.demo_played = bool(demo_played)
        self._autosave_ours = False
        self._elapsed = elapsed
        self._clock_from = time.monotonic()
        self._stuck_checked = None
        self.game_frame.pack(fill="both", expand=True)
        self.view.set_game(session.state)
        rules = session.rules
        game = self._game_text(rules.id, rules.options)
        self.root.title(f"{game} — deal {session.deal_number} — Towers Solitaire")
        self.menus["help"].entryconfigure(0, label=f"Rules of {rules.name}")
        self.set_message(_(LAYOUT_MESSAGE if rules.layout else START_MESSAGE))
        self.refresh_actions()
        self.update_status()
        self._tick()
        self.view.focus_set()
        self._remember_variant(rules.id, dict(rules.options))
        self._schedule_stuck_check()
        self.assist.position_changed()
        if not self._timing_reported:
            self._timing_reported = True
            self.root.after_idle(self._report_first_draw)

    def _report_first_draw(self) -> None:
        self.root.update_idletasks()
        if not self.view.winfo_ismapped() or not self.view.drawn_for_window:
            self.view.after(10, self._report_first_draw)
            return
        print(f"first-draw {time.time():.6f}", flush=True)

    def _remember_variant(self, variant: str, options: dict[str, str]) -> None:
        """Remember the game and its options: the last game, this variant's options (each
        variant opens with the options chosen for it last) and the recent games."""
        from solitaire_core.persistence.settings import remember_recent

        remembered = self.settings.options_for(variant)
        recent = remember_recent(self.settings.recent_variants, variant)
        if (
            self.settings.last_variant != variant
            or dict(self.settings.last_options) != options
            or remembered is None
            or dict(remembered) != options
            or self.settings.recent_variants != recent
        ):
            per_variant = {**dict(self.settings.variant_options), variant: options}
            self._save_settings(
                last_variant=variant,
                last_options=options,
                variant_options=per_variant,
                recent_variants=recent,
            )

    def _save_settings(self, **changes: Any) -> None:
        self.settings = attrs.evolve(self.settings, **changes)
        problem = self.store.save_settings(self.settings)
        if problem:
            self.set_message(problem)

    def _finish_current(self) -> None:
        """Record the game on the table as lost (if it had a move) before another game
        replaces it (docs/playing.md, "Statistics")."""
        session = self.session
        if session is None or session.is_won:
            return
        self.store.record(
            session,
            won=False,
            elapsed_seconds=self.elapsed,
            used_hint=self.used_hint,
            hints=self.hints,
        )
        if self._autosave_ours:
            self.store.clear_autosave()
            self._autosave_ours = False

    # ------------------------------------------------------------------ game menu

    def counts_as_lost(self) -> bool:
        """Whether leaving the game on the table for another records it as lost: it has
        a move, is not won and is not recorded yet."""
        session = self.session
        return (
            session is not None
            and not session.is_won
            and bool(session.history or session.redo_stack)
            and not self.store.is_recorded(session)
        )

    def leave_then(self, what: str, action: Callable[[], object]) -> None:
        """Run ``action``, which ends the game on the table; when that counts the game as
        lost, ask first ("Leaving this game counts as a loss. Restart?"), unless the
        player ticked "Don't ask again" (the ``confirm_leave`` setting). Cancel leaves the
        game untouched.

        :param what: the action as the question's verb: ``"Restart"``, ``"Deal a new game"``.
        """
        if not self.settings.confirm_leave or not self.counts_as_lost():
            action()
            return
        self.view.finish_animation()

        def leave(dont_ask: bool) -> None:
            if dont_ask:
                self._save_settings(confirm_leave=False)
            action()

        self.dialog = dialogs.ask_leave(self.root, what=what, on_leave=leave, wait=self.modal)
        self._refocus()

    def new_deal(self) -> None:
        """Deal a random new game of the same variant and options (asking first when that
        counts the game on the table as lost, :meth:`leave_then`)."""
        if self.session is not None:
            rules = self.session.rules
            self.leave_then(
                _("Deal a new game"), lambda: self.start(rules.id, dict(rules.options), None)
            )

    def next_deal(self) -> None:
        """Deal the next deal number of the same variant and options (asking first when
        that counts the game on the table as lost)."""
        if self.session is not None:
            rules, number = self.session.rules, self.session.deal_number + 1
            self.leave_then(
                f"Deal number {number}",
                lambda: self.start(rules.id, dict(rules.options), number),
            )

    def select_deal(self) -> None:
        """Ask for a deal number and deal it."""
        if not self.playing:
            return
        assert self.session is not None
        self.view.finish_animation()
        if not self.modal:
            return  # tests call start() directly
        number = dialogs.ask_deal_number(self.root, self.session.deal_number)
        if isinstance(number, int):
            rules = self.session.rules
            self.leave_then(
                f"Deal number {number}",
                lambda: self.start(rules.id, dict(rules.options), number),
            )
        self._refocus()

    def restart(self) -> None:
        """Go back to the start of this deal (a game with moves counts as abandoned:
        asked first, :meth:`leave_then`)."""
        if not self.playing:
            return
        self.leave_then(_("Restart"), self._restart_now)

    def _restart_now(self) -> None:
        if not self.playing:
            return
        assert self.session is not None
        self.view.finish_animation()
        old = self.session
        self._finish_current()
        # The same deal from its start is a new game for the record: no cheat, undo or
        # hint carried over (the Cheat setting stays as chosen).
        fresh = Session(
            old.rules,
            old.deal_number,
            cheat=old.cheat,
            autoplay=old.autoplay_policy,
            state=old.initial_state,
        )
        self.begin(fresh)
        self.set_message(_("Restarted."))
        self._after_change()

    def show_launcher(self) -> None:
        """Show the launcher to choose another game. The game on the table waits (its
        clock stopped) behind a "Back to …" button; it ends, and counts as lost if it had
        a move, only when another game starts."""
        if self.launcher is not None:
            return
        from ..launcher.window import Launcher

        self.assist.leave_game()
        back = None
        if self.session is not None:
            self.view.finish_animation()
            self.view.clear_highlight()
            if not self.session.is_won:
                rules = self.session.rules
                text = _("Back to {game}, deal {number}").format(
                    game=rules.name, number=self.session.deal_number
                )
                back = (text, self.back_to_game)
        self._pause_clock()
        self.game_frame.pack_forget()
        self.refresh_actions()
        self.root.title("Towers Solitaire")
        self.launcher = Launcher(
            self.root,
            registry=self.registry,
            settings=self.settings,
            on_play=self._on_play,
            on_winnable_only=self.set_winnable_only,
            on_back=back,
        )
        self.launcher.pack(fill="both", expand=True)

    def back_to_game(self) -> None:
        """Leave the launcher for the game waiting behind it (its "Back to …" button)."""
        session = self.session
        if self.launcher is None or session is None:
            return
        kept = (self.hints, self.demo_played, self._autosave_ours)
        self.begin(session, self._elapsed, used_hint=self.used_hint)
        self.hints, self.demo_played, self._autosave_ours = kept
        self.set_message("")

    def _on_play(self, variant: str, options: dict[str, str], deal: int | None) -> None:
        def play() -> None:
            try:
                self.start(variant, options, deal)
            except SolitaireError as error:
                self.warn(_("The game cannot start"), str(error))

        definition = self.registry.variants.get(variant)
        name = definition.name if definition is not None else variant
        self.leave_then(f"Play {name}", play)

    def open_game(self) -> None:
        """Open a saved game from a file the player picks."""
        path = filedialog.askopenfilename(
            parent=self.root, title=_("Open a saved game"),
            filetypes=[(_("Saved games"), "*.json"), (_("All files"), "*")],
            initialdir=self.store.saves_folder(),
        )  # fmt: skip
        if path:
            self.open_path(path)
        self._refocus()

    def open_path(self, path: str | os.PathLike[str]) -> bool:
        """Open the saved game at ``path``; problems are shown in plain words."""
        from solitaire_core.persistence import read_save

        try:
            game = self.replay(read_save(path))
        except (SolitaireError, OSError, ValueError) as error:
            self.warn(_("The game cannot be opened"), str(error))
            return False
        except Exception as error:  # PersistenceError is not a SolitaireError
            self.warn(_("The game cannot be opened"), str(error))
            return False
        if game is None:  # the window was closed meanwhile
            return False
        self._finish_current()
        self._continue(game)
        return True

    def save_game(self) -> None:
        """Save the game under a file name the player picks."""
        if not self.playing:
            return
        path = filedialog.asksaveasfilename(
            parent=self.root, title=_("Save the game"), defaultextension=".json",
            filetypes=[(_("Saved games"), "*.json")], initialdir=self.store.saves_folder(),
        )  # fmt: skip
        if path:
            self.save_path(path)
        self._refocus()

    def save_path(self, path: str | os.PathLike[str]) -> bool:
        """Save the game to ``path``; problems are shown in plain words."""
        assert self.session is not None
        try:
            self.store.save_as(
                path,
                self.session,
                self.elapsed,
                used_hint=self.used_hint,
                hints=self.hints,
                demo_played=self.demo_played,
            )
        except Exception as error:  # PersistenceError: the message says why
            self.warn(_("The game cannot be saved"), str(error))
            return False
        self.set_message(_("Saved to {file}.").format(file=os.fspath(path)))
        return True

    def show_statistics(self) -> None:
        """The statistics window; its Progression tab opens on the span picked last
        (saved in the settings)."""
        self.dialog = stats_dialog.show_statistics(
            self.root,
            self.store.stats,
            wait=self.modal,
            registry=self.registry,
            span=self.settings.progress_span,
            on_span=self._remember_span,
        )
        self._refocus()

    def _remember_span(self, span: str) -> None:
        """The player picked ``span`` in the Progression tab: keep it in the settings."""
        if self.settings.progress_span != span:
            self._save_settings(progress_span=span)

    def quit(self) -> None:
        """Keep the game in progress (autosave), remember the settings, close the window.

        An open variant editor with unsaved changes asks first, as its own Close does
        (Save, Don't save, Cancel): the window stays open unless every editor closed, so
        Cancel keeps both, and a question that waits for its answer (not modal) lets the
        player answer and quit again."""
        from ..editor.window import VariantEditor

        editors = [w for w in self.root.winfo_children() if isinstance(w, VariantEditor)]
        for editor in editors:
            if editor.winfo_exists() and not editor.close():
                return
        self.close(save=True)

    def close(self, *, save: bool = True) -> None:
        """Stop the clock and the pending jobs and destroy the window.

        :param save: autosave the game in progress and save the window size first.
        """
        if self.ended:
            return
        self.ended = True
        if save:
            self._autosave_now()
            if self.root.winfo_exists():
                width, height = self.root.winfo_width(), self.root.winfo_height()
                if width > 200 and height > 200:
                    self._save_settings(window_width=width, window_height=height)
        for job in (self._tick_job, self._stuck_job, self._autosave_job):
            if job is not None:
                self.root.after_cancel(job)
        self._tick_job = self._stuck_job = self._autosave_job = None
        self.assist.shutdown()
        self.view.cancel_animation()
        if self.launcher is not None:
            self.launcher.destroy()
            self.launcher = None
        self.store.close()
        self.root.destroy()

    # ------------------------------------------------------------------ playing

    def play(self, move: Move | str) -> bool:
        """Play a move of the player's (the view calls this): plays it on the session,
        shows it (autoplay animated) and updates the status bar.

        :return: whether the move was played (an illegal one leaves its reason in the
            status bar).
        """
        if not self.playing:
            return False
        assert self.session is not None
        self.view.finish_animation()
        try:
            turn = self.session.play(move)
        except IllegalMoveError as error:
            reason = error.reason
            if isinstance(error.move, Move):  # the reason again, naming piles as shown
                state, cheat = self.session.state, self.session.cheat
                reason = explain(state, error.move, cheat=cheat, name=self.view.pile_name) or reason
            self.set_message(reason[:1].upper() + reason[1:] + ".", warn=True)
            return False
        if self._clock_from is None:
            self._clock_from = time.monotonic()
        self.view.show(self.session.state, turn=turn, done=self._after_turn)
        self.update_status()
        self.assist.position_changed()
        return True

    def play_moves(self, moves: Sequence[Move | str]) -> int:
        """Play several moves in order (for a hint or a solver); stops at the first
        illegal one. :return: how many were played."""
        played = 0
        for move in moves:
            if not self.play(move):
                break
            played += 1
        self.view.finish_animation()
        return played

    def _after_turn(self) -> None:
        if self.session is None:
            return
        if self.session.is_won:
            self._won()
        else:
            self._after_change()

    def _after_change(self) -> None:
        self.assist.position_changed()
        self.update_status()
        self._schedule_stuck_check()
        self._schedule_autosave()

    def undo(self) -> None:
        """Take back the last move (and the autoplay it caused)."""
        if not self.playing:
            return
        assert self.session is not None
        self.view.finish_animation()
        if self.session.undo() is None:
            self.set_message(_("Nothing to undo."))
            return
        # The table first, drawn and sent to the screen before the status bar and the
        # toolbar are brought up to date: the table is what the player looks at, and Tk
        # would otherwise draw it only once the rest is done (benchmarks/bench_redraw.py).
        self.view.show(self.session.state)
        self.view.update_idletasks()
        self.set_message("")
        if self._clock_from is None and not self.session.is_won:
            self._clock_from = time.monotonic()
        self._after_change()

    def redo(self) -> None:
        """Play the last undone move again."""
        if not self.playing:
            return
        assert self.session is not None
        self.view.finish_animation()
        turn = self.session.redo()
        if turn is None:
            self.set_message(_("Nothing to redo."))
            return
        self.set_message("")
        self.view.show(self.session.state, done=self._after_turn)

    def undo_to_winnable(self) -> None:
        """Undo back to the last position known to be winnable (Edit > Undo to winnable;
        :class:`~solitaire_tk.shell.rewind.Rewinder`)."""
        self.rewinder.undo_to_winnable()

    def set_toolbar(self, on: bool) -> None:
        """Show or hide the toolbar (Options > Show toolbar; saved in the settings)."""
        self.toolbar_var.set(on)
        if on and not self.toolbar.winfo_manager():
            self.toolbar.pack(side="top", fill="x", before=self.view)
        elif not on and self.toolbar.winfo_manager():
            self.toolbar.pack_forget()
        if self.settings.toolbar != on:
            self._save_settings(toolbar=on)

    def _won(self) -> None:
        assert self.session is not None
        self._pause_clock()
        self.update_status()
        # A game the demo played is never the player's win: it counts as lost.
        demo = self.demo_played
        self.store.record(
            self.session,
            won=not demo,
            elapsed_seconds=self.elapsed,
            used_hint=self.used_hint,
            hints=self.hints,
        )
        if self._autosave_ours:
            self.store.clear_autosave()
            self._autosave_ours = False
        session = self.session
        figures = {
            _("Game"): _("{game}, deal {number}").format(
                game=self._game_text(session.rules.id, session.rules.options),
                number=session.deal_number,
            ),
            _("Moves"): str(session.moves),
            _("Time"): clock_text(self.elapsed),
            _("Score"): score_text(session.score, session.rules.scoring),
            _("Undo used"): _("yes") if session.used_undo else _("no"),
            _("Hints"): str(self.hints),
            _("Cheats"): str(session.cheats),
        }
        bank = self.bank()
        if bank is not None:
            figures[_("Bank")] = score_text(bank, "vegas-cumulative")
        figures.update(record_figures(self))
        if demo:
            figures[_("Played by")] = _("the demo (counted as lost)")
        else:
            self.celebration.start()
        title = _("Solved by the demo") if demo else _("You won!")
        self.set_message(_("The demo won the game.") if demo else _("You won!"))
        self.dialog = dialogs.show_win(
            self.root, figures, on_next=self.next_deal, wait=self.modal, title=title
        )

    # ------------------------------------------------------------------ "no useful move left"

    def _schedule_stuck_check(self) -> None:
        if self._stuck_job is not None:
            self.root.after_cancel(self._stuck_job)
        self._stuck_job = self.root.after(_STUCK_DELAY, self.check_stuck)

    def check_stuck(self) -> bool:
        """Show the "no useful move left" notice if no sequence of moves can put another
        card on a foundation (searched once per position, up to a budget).

        :return: whether the notice was shown.
        """
        self._stuck_job = None
        session = self.session
        if not self.playing or session is None or session.is_won:
            return False
        state = session.state
        if state is self._stuck_checked or self.view.animating:
            return False
        self._stuck_checked = state
        if find_progress(state, cheat=session.cheat, budget=_STUCK_BUDGET) is not False:
            return False
        self.set_message(_("No useful move left."))
        self.dialog = dialogs.show_no_moves(
            self.root,
            on_undo=self.undo,
            on_restart=self.restart,
            on_new_deal=self.new_deal,
            wait=self.modal,
        )
        return True

    # ------------------------------------------------------------------ options

    def _difficulty_changed(self) -> None:
        cheat = self.cheat_var.get() == "cheat"
        if self.session is not None:
            self.session.set_cheat(cheat)
            self._stuck_checked = None
            self._schedule_stuck_check()
        self._save_settings(difficulty="cheat" if cheat else "normal")
        self.assist.refresh()
        self.set_message(_("Cheat: runs of any size move.") if cheat else _("Normal difficulty."))
        self.update_status()

    def set_cheat(self, on: bool) -> None:
        """Switch between Normal and Cheat (as the Options menu does)."""
        self.cheat_var.set("cheat" if on else "normal")
        self._difficulty_changed()

    def _winnability_changed(self) -> None:
        on = bool(self.winnability_var.get())
        self.assist.show_winnability = on
        if self.settings.show_winnability != on:
            self._save_settings(show_winnability=on)

    def set_show_winnability(self, on: bool) -> None:
        """Show or hide the "still winnable?" status field (Options > Show winnability;
        saved in the settings)."""
        self.winnability_var.set(on)
        self._winnability_changed()

    def set_hints_peek(self, on: bool) -> None:
        """Let the hint and the demo use the hidden cards (the thoughtful solver), or
        make them choose from what the player has seen, the default (Options > Hints see
        hidden cards; saved in the settings)."""
        self.hints_peek_var.set(on)
        self.assist.peek = on
        if self.settings.hints_peek != on:
            self._save_settings(hints_peek=on)
        self.set_message(
            _("Hints and the demo now see the hidden cards.")
            if on
            else _("Hints and the demo now choose from the cards in sight.")
        )

    def set_language(self, code: str) -> None:
        """Speak language ``code`` from the next start (Options > Language; saved in the
        settings): ``"system"`` (the environment's locale) or a code of
        :data:`solitaire_core.i18n.LANGUAGES`. The window keeps the language it was
        built in; the status bar says so, in the language chosen.

        :raises ValueError: ``code`` is not one of
            :data:`~solitaire_core.persistence.settings.LANGUAGE_CHOICES`.
        """
        if code not in LANGUAGE_CHOICES:
            raise ValueError(f"unknown language {code!r}")
        self.menu_bar.language_var.set(code)
        if self.settings.language == code:
            return
        self._save_settings(language=code)
        chosen = i18n.translation(i18n.environment_language() if code == "system" else code)
        self.set_message(chosen.gettext(NEXT_START_MESSAGE))

    def set_winnable_only(self, on: bool) -> None:
        """Deal only winnable random deals, or any (the launcher's check box and Options >
        Winnable deals only; saved in the settings)."""
        self.winnable_only_var.set(on)
        if self.launcher is not None:
            self.launcher.winnable_var.set(on)
        if self.settings.winnable_only != on:
            self._save_settings(winnable_only=on)

    # ------------------------------------------------------------------ the solver

    def hint(self) -> None:
        """Show the next move of a win, or say the position cannot be won (Game > Hint)."""
        self.assist.hint()

    def demo(self) -> None:
        """Let the computer play the rest of the game (Game > Solve (demo))."""
        self.assist.demo()

    def stop(self) -> None:
        """Stop the demo or a running search (Game > Stop, Escape)."""
        self.assist.stop()

    def _animation_changed(self) -> None:
        self.view.animation = bool(self.animation_var.get())
        if not self.view.animation:
            self.view.finish_animation()
        self._save_settings(animation=self.view.animation)

    def _four_colour_changed(self) -> None:
        on = bool(self.four_colour_var.get())
        self.view.set_four_colour(on)
        self._save_settings(four_colour=on)

    # ------------------------------------------------------------------ help

    def show_rules(self) -> None:
        """The rules of the variant being played."""
        if self.session is None:
            return
        rules = self.session.rules
        rules_dialog.show_rules(self.root, self.registry.get(rules.id), rules, wait=self.modal)
        self._refocus()

    def show_shortcuts(self) -> None:
        """The keyboard shortcuts, with the pile keys of the game being played."""
        game_keys = ""
        if self.session is not None:
            rules = self.session.rules
            game_keys = f"In {rules.name}: {keys_text(pile_keys(rules))}."
        self.dialog = dialogs.show_shortcuts(self.root, wait=self.modal, game_keys=game_keys)
        self._refocus()

    def show_about(self) -> None:
        """The About box."""
        dialogs.show_about(self.root, wait=self.modal)
        self._refocus()

    def _refocus(self) -> None:
        """Give the keys back to the table after a dialog closed."""
        if self.playing and not self.ended and self.modal:
            self.view.focus_set()

    # ------------------------------------------------------------------ status, clock, autosave

    def set_message(self, text: str, *, warn: bool = False) -> None:
        """Show a sentence at the left of the status bar (``""`` clears it); when it is
        wider than the room left by the fields it is shown shortened, ending in "…"
        (:attr:`message` keeps it whole).

        :param warn: show it as a reason a move was refused (in red).
        """
        self.status_bar.set_message(text, warn=warn)

    @property
    def message(self) -> str:
        """The whole sentence in the status bar (the bar may show it shortened)."""
        return self.status_bar.message

    @property
    def elapsed(self) -> float:
        """Play time of this game so far, in seconds."""
        if self._clock_from is None:
            return self._elapsed
        return self._elapsed + time.monotonic() - self._clock_from

    def _pause_clock(self) -> None:
        self._elapsed = self.elapsed
        self._clock_from = None

    def _tick(self) -> None:
        if self._tick_job is not None:
            self.root.after_cancel(self._tick_job)
        self.status_bar.show_time(self.elapsed)
        self._tick_job = self.root.after(500, self._tick)

    def update_status(self) -> None:
        """Refresh the status bar from the session."""
        session = self.session
        if session is None:
            return
        rules = session.rules
        definition = self.registry.variants.get(rules.id)
        chosen = option_text(definition, rules.options, names=False)
        self.status_bar.show_game(
            session,
            self.elapsed,
            name=f"{rules.name} · {chosen}" if chosen else rules.name,
            bank=self.bank(),
        )
        self.refresh_actions()

    def action_enabled(self, name: str) -> bool:
        """Whether command ``name`` (of :data:`solitaire_tk.shell.menus.COMMANDS`) can act now:
        the state its menu entry, toolbar button and key all follow
        (:mod:`solitaire_tk.shell.actions`)."""
        return action_enabled(self, name)

    def refresh_actions(self) -> None:
        """Recompute every command's state and show it on the menus and the toolbar."""
        if self.ended or not hasattr(self, "assist"):
            return  # closing, or still being built
        states = action_states(self)
        self.menu_bar.show_states(states)
        self.toolbar.show_states(states)

    def bank(self) -> int | None:
        """The bank of a game scored ``vegas-cumulative`` (Casino Klondike), in dollars:
        the scores of the recorded games of its variant and option set, and the game on
        the table while it is not recorded; ``None`` for another scheme, or when the
        statistics cannot be read."""
        session = self.session
        if session is None or session.rules.scoring != "vegas-cumulative":
            return None
        try:
            banked = self.store.stats.bank(session.rules.id, dict(session.rules.options))
        except PersistenceError:
            return None
        return banked if self.store.is_recorded(session) else banked + session.score

    def _schedule_autosave(self) -> None:
        if self._autosave_job is not None:
            self.root.after_cancel(self._autosave_job)
        self._autosave_job = self.root.after(_AUTOSAVE_DELAY, self._autosave_now)

    def _autosave_now(self) -> None:
        self._autosave_job = None
        session = self.session
        if session is None or session.is_won:
            return
        if not session.history and not session.redo_stack:
            if self._autosave_ours:  # never another game's save (``play VARIANT``)
                self.store.clear_autosave()
                self._autosave_ours = False
            return
        problem = self.store.autosave(
            session, self.elapsed, self.used_hint, hints=self.hints, demo_played=self.demo_played
        )
        if problem:
            self.set_message(problem)
        else:
            self._autosave_ours = True


def run(
    variant: str | None = None,
    deal: int | None = None,
    options: Mapping[str, str] | None = None,
) -> int:
    """Open the game window and run until it is closed.

    :param variant: play this variant at once; ``None`` opens the launcher (after
        offering to resume the game in progress).
    :param deal: the deal number (with ``variant``); ``None`` for a random deal.
    :param options: the variant's options (with ``variant``).
    :return: the exit status, 0.
    :raises SolitaireError: when no window can be opened (no display), or the variant or
        an option is unknown.
    """
    try:
        root = tk.Tk(className="towers-solitaire")
    except tk.TclError as error:
        raise SolitaireError(f"cannot open a window: {error}") from None
    try:
        App(root, variant=variant, deal=deal, options=options)
    except BaseException:
        root.destroy()
        raise
    root.mainloop()
    return 0
