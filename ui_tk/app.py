"""The application: the launcher, the game window, its menus, status bar and keys.

:func:`run` opens the window: the launcher (:class:`solitaire_tk.launcher.Launcher`) when no
variant is given, else the table at once. :class:`App` is the controller: it owns the
:class:`~solitaire_core.session.Session`, plays the moves the
:class:`~solitaire_tk.table.TableView` reports, keeps the status bar, the clock, the settings,
the autosave and the statistics (through :class:`solitaire_tk.persist.AppStore`), and opens the
dialogs of :mod:`solitaire_tk.dialogs`.

Keys (also in Help > Keyboard shortcuts, :data:`SHORTCUTS`): the pile keys of
:mod:`solitaire_tk.layout` (columns ``a``-``n``, cells ``1``-``9``, foundations after the
columns' letters), Ctrl+Z undo, Ctrl+Y and Ctrl+Shift+Z redo, F2 or Ctrl+N new deal,
Ctrl+R restart, Ctrl+G select deal, F3 next deal, Ctrl+L choose another game, F1 rules,
Ctrl+H hint, Ctrl+D demo, Escape stops a search or the demo.

The solver's features (hint, demo, winnable deals, the winnability field) live in
:class:`solitaire_tk.assist.Assistant` (``App.assist``); they use :meth:`App.play`,
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
from tkinter import font as tkfont
from typing import TYPE_CHECKING, Any

import attrs

from solitaire_core.errors import IllegalMoveError, SolitaireError
from solitaire_core.moves import Move
from solitaire_core.plugins import Registry, get_registry
from solitaire_core.rules import find_progress
from solitaire_core.session import Session
from solitaire_core.state import GameState

from . import dialogs
from .assist import Assistant
from .dialogs import elide
from .layout import keys_text, pile_keys
from .table import TableView

if TYPE_CHECKING:
    from .persist import OpenedGame

__all__ = ["MIN_MESSAGE_WIDTH", "SHORTCUTS", "START_MESSAGE", "App", "random_deal", "run"]

RANDOM_DEALS = 32000
"""A random deal is drawn from 1 .. this (Microsoft FreeCell's numbers for FreeCell)."""

TIMING_ENV = "SOLITAIRE_TIMING"
"""When this environment variable is set, the app prints ``first-draw <epoch seconds>``
on stdout once the first table is drawn (benchmarks/bench_ui.py reads it)."""

SHORTCUTS: list[tuple[str, str]] = [
    (
        "A, B, C … (the letter above a column)",
        "Move that column's top card, or the longest run the rules allow, onto a matching "
        "card, else into an empty column, else to a foundation, else to a free cell.",
    ),
    ("Shift+letter", "Send that column's top card to a free cell."),
    (
        "1, 2, 3 … (the number above a cell)",
        "Move that cell's card onto a matching card, an empty column or a foundation.",
    ),
    (
        "Letters after the columns'",
        "Foundations: their cards move only in games that let cards come back into play.",
    ),
    (
        "Click a card",
        "Move it, with the cards on it, to the best legal place: a foundation, a matching "
        "card, an empty column, a free cell.",
    ),
    ("Drag and drop", "Move a card and the cards on it; legal targets are outlined."),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Y, Ctrl+Shift+Z", "Redo"),
    ("F2, Ctrl+N", "New deal"),
    ("F3", "Next deal (this deal's number + 1)"),
    ("Ctrl+G", "Select a deal by number"),
    ("Ctrl+R", "Restart this deal"),
    ("Ctrl+H", "Hint: the next move of a win is outlined on the table"),
    ("Ctrl+D", "Solve (demo): the computer plays the rest of the game"),
    ("Esc", "Stop the demo, or a search for a hint or a winnable deal"),
    ("Ctrl+L", "Choose another game"),
    ("Ctrl+O, Ctrl+S", "Open, save a game"),
    ("F1", "Rules of this game"),
    ("Ctrl+Q", "Quit (the game in progress is kept)"),
]
"""(keys, action) pairs for Help > Keyboard shortcuts (read by solitaire_tk.dialogs)."""

START_MESSAGE = "Each pile has a key: see Help > Keyboard shortcuts."
"""The status bar's message when a game is put on the table."""

MIN_MESSAGE_WIDTH = 240
"""Pixels the status bar keeps for the message before it hides optional fields."""

_STATUS_FIELDS = ("cheats", "cards", "time", "score", "moves", "deal", "variant")
"""The status bar's fields, from the right."""

_OPTIONAL_FIELDS = ("variant", "score", "cards")
"""Fields hidden, in this order, when the window is too narrow (the variant's name is
also in the window title)."""

_STUCK_DELAY = 400  # ms of quiet after a move before looking for a useful move
_STUCK_BUDGET = 3000  # positions the "no useful move left" search may visit
_AUTOSAVE_DELAY = 1500  # ms after the last move before the autosave is written


def random_deal() -> int:
    """A random deal number, 1 .. :data:`RANDOM_DEALS`."""
    return random.randint(1, RANDOM_DEALS)


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class App:
    """The game window's controller.

    :param root: the Tk root window (the app builds its menus and frames in it).
    :param store: settings, autosave and statistics (default :class:`solitaire_tk.persist.AppStore`
        in the usual folders, or ``SOLITAIRE_HOME``).
    :param registry: the installed variants (default :func:`get_registry`).
    :param variant: play this variant at once (skips the launcher and the resume offer).
    :param deal: with ``variant``: this deal number (default random).
    :param options: with ``variant``: its options (missing ones take their defaults).
    :param modal: dialogs wait until closed (``False`` in tests, IDLE's convention).
    :param offer_resume: offer to resume the autosaved game when no variant is given.

    Attributes for tests and later features: ``session``, ``view`` (the
    :class:`~solitaire_tk.table.TableView`), ``launcher`` (when shown), ``status`` (field name
    -> ttk.Label: ``message``, ``variant``, ``deal``, ``moves``, ``score``, ``time``,
    ``cards``, ``cheats``; a narrow window hides ``variant``, ``score`` and ``cards`` and
    shows the message shortened), ``message`` (the status bar's sentence, whole),
    ``menus`` (``game``, ``edit``, ``options``, ``help``),
    ``assist`` (the :class:`~solitaire_tk.assist.Assistant`: hint, demo, winnable deals).
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
        self._elapsed = 0.0
        self._clock_from: float | None = None
        self._tick_job: str | None = None
        self._stuck_job: str | None = None
        self._stuck_checked: GameState | None = None
        self._autosave_job: str | None = None
        self._timing_reported = not os.environ.get(TIMING_ENV)
        self.ended = False
        self.dialog: Any = None  # the last dialog opened without waiting (tests)

        root.title("Towers Solitaire")
        root.minsize(480, 360)
        root.geometry(f"{self.settings.window_width}x{self.settings.window_height}")
        root.protocol("WM_DELETE_WINDOW", self.quit)
        self._style()
        self._build_menus()
        self.game_frame = ttk.Frame(root)
        self.view = TableView(
            self.game_frame,
            on_move=self.play,
            on_message=lambda text: self.set_message(text, warn=True),
            cheat=lambda: bool(self.session and self.session.cheat),
            four_colour=self.settings.four_colour,
            animation=self.settings.animation,
            width=self.settings.window_width,
            height=self.settings.window_height - 60,
        )
        self._build_status()
        self.view.pack(side="top", fill="both", expand=True)
        self.assist = Assistant(self, show_winnability=self.settings.show_winnability)
        self._bind_keys()

        if store.warnings:
            text = "\n\n".join(store.warnings)
            root.after_idle(lambda: self.warn("Some files could not be read", text))
        if variant is not None:
            self.start(variant, options or {}, deal)
        else:
            saved = store.offer_resume() if offer_resume else None
            if saved is not None and self._resume(saved):
                return
            self.show_launcher()

    # ------------------------------------------------------------------ building

    def _style(self) -> None:
        style = ttk.Style(self.root)
        if "clam" in style.theme_names() and sys.platform.startswith("linux"):
            style.theme_use("clam")
        style.configure("Status.TFrame", background="#e9ece6")
        style.configure("Status.TLabel", background="#e9ece6", padding=(8, 3))
        style.configure("Message.TLabel", background="#e9ece6", foreground="#2f3a33",
                        padding=(8, 3))  # fmt: skip
        style.configure("Warn.TLabel", background="#e9ece6", foreground="#9a1d12",
                        padding=(8, 3))  # fmt: skip

    def _build_menus(self) -> None:
        root = self.root
        root.option_add("*tearOff", False)
        bar = tk.Menu(root)
        game, edit, opts, helpm = (tk.Menu(bar) for _ in range(4))
        self.menus = {"game": game, "edit": edit, "options": opts, "help": helpm}
        bar.add_cascade(label="Game", menu=game, underline=0)
        bar.add_cascade(label="Edit", menu=edit, underline=0)
        bar.add_cascade(label="Options", menu=opts, underline=0)
        bar.add_cascade(label="Help", menu=helpm, underline=0)
        game.add_command(label="New deal", accelerator="F2", command=self.new_deal, underline=0)
        game.add_command(label="Next deal", accelerator="F3", command=self.next_deal)
        game.add_command(label="Select deal…", accelerator="Ctrl+G", command=self.select_deal)
        game.add_command(label="Restart", accelerator="Ctrl+R", command=self.restart, underline=0)
        game.add_separator()
        game.add_command(label="Hint", accelerator="Ctrl+H", command=self.hint, underline=0)
        game.add_command(label="Solve (demo)", accelerator="Ctrl+D", command=self.demo,
                         underline=1)  # fmt: skip
        game.add_command(label="Stop", accelerator="Esc", command=self.stop, state="disabled")
        game.add_separator()
        game.add_command(label="Choose game…", accelerator="Ctrl+L", command=self.show_launcher)
        game.add_separator()
        game.add_command(label="Open…", accelerator="Ctrl+O", command=self.open_game)
        game.add_command(label="Save as…", accelerator="Ctrl+S", command=self.save_game)
        game.add_separator()
        game.add_command(label="Statistics…", command=self.show_statistics)
        game.add_separator()
        game.add_command(label="Quit", accelerator="Ctrl+Q", command=self.quit, underline=0)
        edit.add_command(label="Undo", accelerator="Ctrl+Z", command=self.undo, underline=0)
        edit.add_command(label="Redo", accelerator="Ctrl+Y", command=self.redo, underline=0)
        self.cheat_var = tk.StringVar(root, value=self.settings.difficulty)
        self.animation_var = tk.BooleanVar(root, value=self.settings.animation)
        self.four_colour_var = tk.BooleanVar(root, value=self.settings.four_colour)
        diff = tk.Menu(opts)
        opts.add_cascade(label="Difficulty", menu=diff, underline=0)
        diff.add_radiobutton(label="Normal", value="normal", variable=self.cheat_var,
                             command=self._difficulty_changed)  # fmt: skip
        diff.add_radiobutton(label="Cheat (runs of any size move)", value="cheat",
                             variable=self.cheat_var, command=self._difficulty_changed)  # fmt: skip
        opts.add_checkbutton(label="Animate autoplay", variable=self.animation_var,
                             command=self._animation_changed)  # fmt: skip
        opts.add_checkbutton(label="Four-colour deck", variable=self.four_colour_var,
                             command=self._four_colour_changed)  # fmt: skip
        opts.add_separator()
        self.winnability_var = tk.BooleanVar(root, value=self.settings.show_winnability)
        self.winnable_only_var = tk.BooleanVar(root, value=self.settings.winnable_only)
        opts.add_checkbutton(label="Show winnability", variable=self.winnability_var,
                             command=self._winnability_changed)  # fmt: skip
        opts.add_checkbutton(label="Winnable deals only", variable=self.winnable_only_var,
                             command=lambda: self.set_winnable_only(
                                 bool(self.winnable_only_var.get())))  # fmt: skip
        helpm.add_command(label="Rules of this game", accelerator="F1", command=self.show_rules)
        helpm.add_command(label="Keyboard shortcuts", command=self.show_shortcuts)
        helpm.add_separator()
        helpm.add_command(label="About", command=self.show_about)
        root.configure(menu=bar)
        self.menubar = bar

    def _build_status(self) -> None:
        bar = ttk.Frame(self.game_frame, style="Status.TFrame")
        bar.pack(side="bottom", fill="x")
        self.status_bar = bar
        self.status: dict[str, ttk.Label] = {}
        self._separators: dict[str, ttk.Separator] = {}
        # The fields are packed first, from the right; the message takes what is left
        # (it asks for one character only, so it never pushes a field out) and is
        # shortened with an ellipsis to fit (see _fit_status).
        for name in _STATUS_FIELDS:
            label = ttk.Label(bar, style="Status.TLabel")
            label.pack(side="right")
            self.status[name] = label
            separator = ttk.Separator(bar, orient="vertical")
            separator.pack(side="right", fill="y", pady=3)
            self._separators[name] = separator
        message = ttk.Label(bar, style="Message.TLabel", anchor="w", width=1)
        message.pack(side="left", fill="x", expand=True)
        self.status["message"] = message
        self._message = ""
        self._message_font = tkfont.nametofont("TkDefaultFont", root=self.root)
        message.bind("<Configure>", lambda _e: self._fit_status(), add=True)
        bar.bind("<Configure>", lambda _e: self._fit_status(), add=True)

    def _bind_keys(self) -> None:
        root = self.root
        pairs: list[tuple[Sequence[str], Callable[[], object]]] = [
            (("<Control-z>",), self.undo),
            (("<Control-y>", "<Control-Z>", "<Control-Shift-z>"), self.redo),
            (("<F2>", "<Control-n>"), self.new_deal),
            (("<F3>",), self.next_deal),
            (("<Control-g>",), self.select_deal),
            (("<Control-r>",), self.restart),
            (("<Control-l>",), self.show_launcher),
            (("<Control-o>",), self.open_game),
            (("<Control-s>",), self.save_game),
            (("<Control-q>",), self.quit),
            (("<F1>",), self.show_rules),
            (("<Control-h>",), self.hint),
            (("<Control-d>",), self.demo),
            (("<Escape>",), self.stop),
        ]
        for sequences, action in pairs:
            for sequence in sequences:
                root.bind(sequence, self._key_action(action))

    def _key_action(self, action: Callable[[], object]) -> Callable[[tk.Event], str]:
        def handler(event: tk.Event) -> str:
            action()
            return "break"

        return handler

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

    # ------------------------------------------------------------------ starting games

    @property
    def playing(self) -> bool:
        """Whether the table (not the launcher) is shown with a game on it."""
        return self.session is not None and self.launcher is None

    def start(self, variant: str, options: Mapping[str, str], deal: int | None) -> None:
        """Deal a new game of ``variant`` (random deal when ``deal`` is ``None``).

        With "Winnable deals only" on, a random deal is one the solver proved winnable:
        the search runs in the background and the game is dealt when it ends
        (:meth:`Assistant.find_winnable_deal <solitaire_tk.assist.Assistant.find_winnable_deal>`).

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

    def _resume(self, saved: Any) -> bool:
        definition = self.registry.variants.get(saved.variant)
        name = definition.name if definition else saved.variant
        moves = len(saved.moves)
        question = (
            f"Resume your game of {name}, deal {saved.deal} "
            f"({moves} move{'s' if moves != 1 else ''})?"
        )
        if not self.confirm("Resume game", question):
            self.store.clear_autosave()
            return False
        try:
            game = self.store.game_from_save(saved)
        except SolitaireError as error:
            where = self.store.set_aside_autosave()
            self.warn("The game cannot be resumed", f"{error} {where}")
            return False
        self._continue(game)
        return True

    def _continue(self, game: OpenedGame) -> None:
        """Put a saved game back on the table, with its Cheat setting, clock and hint
        flag."""
        self.cheat_var.set("cheat" if game.session.cheat else "normal")
        self.begin(game.session, game.elapsed_seconds, used_hint=game.used_hint)

    def begin(self, session: Session, elapsed: float = 0.0, *, used_hint: bool = False) -> None:
        """Put ``session`` on the table (a new deal, a resumed or opened game, or a
        position a test or a tool built), with ``elapsed`` seconds already on its clock.

        :param used_hint: a hint was already asked for in this game (a saved game).
        """
        if self.launcher is not None:
            self.launcher.destroy()
            self.launcher = None
        self.session = session
        self.used_hint = bool(used_hint)
        self._elapsed = elapsed
        self._clock_from = time.monotonic()
        self._stuck_checked = None
        self.game_frame.pack(fill="both", expand=True)
        self.view.set_game(session.state)
        rules = session.rules
        self.root.title(f"{rules.name} — deal {session.deal_number} — Towers Solitaire")
        self.menus["help"].entryconfigure(0, label=f"Rules of {rules.name}")
        self.set_message(START_MESSAGE)
        self._set_game_menu_state("normal")
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
        if self.settings.last_variant != variant or dict(self.settings.last_options) != options:
            self._save_settings(last_variant=variant, last_options=options)

    def _save_settings(self, **changes: Any) -> None:
        self.settings = attrs.evolve(self.settings, **changes)
        problem = self.store.save_settings(self.settings)
        if problem:
            self.set_message(problem)

    def _finish_current(self) -> None:
        """Record the game on the table as abandoned (if the player moved) before another
        game replaces it."""
        session = self.session
        if session is None or session.is_won:
            return
        self.store.record(
            session, won=False, elapsed_seconds=self.elapsed, used_hint=self.used_hint
        )
        self.store.clear_autosave()

    # ------------------------------------------------------------------ game menu

    def new_deal(self) -> None:
        """Deal a random new game of the same variant and options."""
        if self.session is not None:
            rules = self.session.rules
            self.start(rules.id, dict(rules.options), None)

    def next_deal(self) -> None:
        """Deal the next deal number of the same variant and options."""
        if self.session is not None:
            rules = self.session.rules
            self.start(rules.id, dict(rules.options), self.session.deal_number + 1)

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
            self.start(rules.id, dict(rules.options), number)
        self._refocus()

    def restart(self) -> None:
        """Go back to the start of this deal (a game with moves counts as abandoned)."""
        if not self.playing:
            return
        assert self.session is not None
        self.view.finish_animation()
        if self.session.history and not self.session.is_won:
            self.store.record(
                self.session, won=False, elapsed_seconds=self.elapsed, used_hint=self.used_hint
            )
        self.session.restart()
        self.store.forget(self.session)
        self._elapsed = 0.0
        self._clock_from = time.monotonic()
        self.view.show(self.session.state)
        self.set_message("Restarted.")
        self._after_change()

    def show_launcher(self) -> None:
        """Show the launcher to choose another game (the game on the table counts as
        abandoned if it had moves)."""
        if self.launcher is not None:
            return
        from .launcher import Launcher

        self.assist.leave_game()
        if self.session is not None:
            self.view.finish_animation()
            self._finish_current()
        self._pause_clock()
        self.session = None
        self.game_frame.pack_forget()
        self._set_game_menu_state("disabled")
        self.root.title("Towers Solitaire")
        self.launcher = Launcher(
            self.root,
            registry=self.registry,
            settings=self.settings,
            on_play=self._on_play,
            on_winnable_only=self.set_winnable_only,
        )
        self.launcher.pack(fill="both", expand=True)

    def _on_play(self, variant: str, options: dict[str, str], deal: int | None) -> None:
        try:
            self.start(variant, options, deal)
        except SolitaireError as error:
            self.warn("The game cannot start", str(error))

    def _set_game_menu_state(self, state: str) -> None:
        game = self.menus["game"]
        labels = ("New deal", "Next deal", "Select deal…", "Restart", "Hint", "Solve (demo)",
                  "Save as…")  # fmt: skip
        for label in labels:
            game.entryconfigure(label, state=state)
        for label in ("Undo", "Redo"):
            self.menus["edit"].entryconfigure(label, state=state)
        self.menus["help"].entryconfigure(0, state=state)

    def open_game(self) -> None:
        """Open a saved game from a file the player picks."""
        path = filedialog.askopenfilename(
            parent=self.root, title="Open a saved game",
            filetypes=[("Saved games", "*.json"), ("All files", "*")],
        )  # fmt: skip
        if path:
            self.open_path(path)
        self._refocus()

    def open_path(self, path: str | os.PathLike[str]) -> bool:
        """Open the saved game at ``path``; problems are shown in plain words."""
        try:
            game = self.store.open(path)
        except (SolitaireError, OSError, ValueError) as error:
            self.warn("The game cannot be opened", str(error))
            return False
        except Exception as error:  # PersistenceError is not a SolitaireError
            self.warn("The game cannot be opened", str(error))
            return False
        self._finish_current()
        self._continue(game)
        return True

    def save_game(self) -> None:
        """Save the game under a file name the player picks."""
        if not self.playing:
            return
        path = filedialog.asksaveasfilename(
            parent=self.root, title="Save the game", defaultextension=".json",
            filetypes=[("Saved games", "*.json")],
        )  # fmt: skip
        if path:
            self.save_path(path)
        self._refocus()

    def save_path(self, path: str | os.PathLike[str]) -> bool:
        """Save the game to ``path``; problems are shown in plain words."""
        assert self.session is not None
        try:
            self.store.save_as(path, self.session, self.elapsed, used_hint=self.used_hint)
        except Exception as error:  # PersistenceError: the message says why
            self.warn("The game cannot be saved", str(error))
            return False
        self.set_message(f"Saved to {os.fspath(path)}.")
        return True

    def show_statistics(self) -> None:
        """The statistics window."""
        dialogs.show_statistics(
            self.root, self.store.stats, wait=self.modal, registry=self.registry
        )
        self._refocus()

    def quit(self) -> None:
        """Keep the game in progress (autosave), remember the settings, close the window."""
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
            self.set_message(error.reason[:1].upper() + error.reason[1:] + ".", warn=True)
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
            self.set_message("Nothing to undo.")
            return
        self.set_message("")
        if self._clock_from is None and not self.session.is_won:
            self._clock_from = time.monotonic()
        self.view.show(self.session.state)
        self._after_change()

    def redo(self) -> None:
        """Play the last undone move again."""
        if not self.playing:
            return
        assert self.session is not None
        self.view.finish_animation()
        turn = self.session.redo()
        if turn is None:
            self.set_message("Nothing to redo.")
            return
        self.set_message("")
        self.view.show(self.session.state, done=self._after_turn)

    def _won(self) -> None:
        assert self.session is not None
        self._pause_clock()
        self.update_status()
        self.store.record(
            self.session, won=True, elapsed_seconds=self.elapsed, used_hint=self.used_hint
        )
        self.store.clear_autosave()
        session = self.session
        figures = {
            "Game": f"{session.rules.name}, deal {session.deal_number}",
            "Moves": str(session.moves),
            "Time": _clock(self.elapsed),
            "Score": str(session.score),
            "Undo used": "yes" if session.used_undo else "no",
            "Cheats": str(session.cheats),
        }
        self.set_message("You won!")
        self.dialog = dialogs.show_win(self.root, figures, on_next=self.next_deal, wait=self.modal)

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
        self.set_message("No useful move left.")
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
        self.set_message("Cheat: runs of any size move." if cheat else "Normal difficulty.")
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
        dialogs.show_rules(self.root, self.registry.get(rules.id), rules, wait=self.modal)
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
        self._message = text
        self.status["message"].configure(style="Warn.TLabel" if warn else "Message.TLabel")
        self._fit_status()

    @property
    def message(self) -> str:
        """The whole sentence in the status bar (the bar may show it shortened)."""
        return self._message

    def _fit_status(self) -> None:
        """Fit the status bar to the window: hide the fields of :data:`_OPTIONAL_FIELDS`
        (in that order) while the message would get less than :data:`MIN_MESSAGE_WIDTH`
        pixels, and shorten the message to the room it has."""
        bar = self.status_bar
        message = self.status["message"]
        total = bar.winfo_width()
        if total > 1:
            others = [w for w in bar.pack_slaves() if w is not message]
            hidden = [n for n in _OPTIONAL_FIELDS if not self.status[n].winfo_manager()]
            room = total - sum(w.winfo_reqwidth() for w in others)
            room -= sum(self._field_width(name) for name in hidden)  # as if all were shown
            for name in _OPTIONAL_FIELDS:
                wanted = room >= MIN_MESSAGE_WIDTH
                self._show_field(name, wanted)
                if not wanted:
                    room += self._field_width(name)
        padding = 2 * 8 + 2  # the label style's padding, and a little more
        width = message.winfo_width() - padding
        shown = elide(self._message, width, self._message_font.measure) if width > 1 else ""
        if message.cget("text") != shown:
            message.configure(text=shown)

    def _field_width(self, name: str) -> int:
        return self.status[name].winfo_reqwidth() + self._separators[name].winfo_reqwidth()

    def _show_field(self, name: str, shown: bool) -> None:
        label, separator = self.status[name], self._separators[name]
        if shown == bool(label.winfo_manager()):
            return
        if not shown:
            label.pack_forget()
            separator.pack_forget()
            return
        # Back in its place: just left of the nearest field to its right that is shown.
        right = _STATUS_FIELDS[: _STATUS_FIELDS.index(name)]
        anchor = next(
            self._separators[n] for n in reversed(right) if self.status[n].winfo_manager()
        )
        label.pack(side="right", after=anchor)
        separator.pack(side="right", fill="y", pady=3, after=label)

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
        self.status["time"].configure(text=f"Time {_clock(self.elapsed)}")
        self._tick_job = self.root.after(500, self._tick)

    def update_status(self) -> None:
        """Refresh the status bar from the session."""
        session = self.session
        if session is None:
            return
        state = session.state
        self.status["variant"].configure(text=session.rules.name)
        self.status["deal"].configure(text=f"Deal {session.deal_number}")
        self.status["moves"].configure(text=f"Moves {session.moves}")
        self.status["score"].configure(text=f"Score {session.score}")
        self.status["cards"].configure(text=f"Cards left {state.cards_left}")
        cheat = " (Cheat on)" if session.cheat else ""
        self.status["cheats"].configure(text=f"Cheats {session.cheats}{cheat}")
        self.status["time"].configure(text=f"Time {_clock(self.elapsed)}")

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
            self.store.clear_autosave()
            return
        problem = self.store.autosave(session, self.elapsed, self.used_hint)
        if problem:
            self.set_message(problem)


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
