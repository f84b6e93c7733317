"""The game window's menu bar (Game, Edit, Options, Help) and its keyboard shortcuts.

Both call the app's commands by name (:data:`COMMANDS`), so a toolbar or any later
feature can reuse the same table: ``commands["undo"]()`` is what Edit > Undo and Ctrl+Z
do. Whether a command is enabled is decided once, in :mod:`solitaire_tk.shell.actions`: the
menu entries show it (:meth:`MenuBar.show_states`) and a key of a disabled command does
nothing. The keys are listed for the player in :data:`solitaire_tk.keys.SHORTCUTS`.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Mapping
from typing import Any

from solitaire_core.i18n import LANGUAGES
from solitaire_core.i18n import gettext as _

__all__ = ["COMMANDS", "KEYS", "MenuBar", "bind_keys"]

Command = Callable[[], object]

COMMANDS = (
    "new_deal", "next_deal", "select_deal", "restart", "hint", "demo", "stop",
    "show_launcher", "open_game", "save_game", "show_statistics", "quit", "undo", "redo",
    "difficulty", "animation", "four_colour", "winnability", "winnable_only", "show_rules",
    "show_shortcuts", "show_about", "undo_to_winnable", "toolbar", "hints_peek",
    "language",
)  # fmt: skip
"""The names of the commands the menus and keys call (the keys of ``commands``)."""

KEYS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("<Control-z>",), "undo"),
    (("<Control-u>",), "undo_to_winnable"),
    (("<Control-y>", "<Control-Z>", "<Control-Shift-z>"), "redo"),
    (("<F2>", "<Control-n>"), "new_deal"),
    (("<F3>",), "next_deal"),
    (("<Control-g>",), "select_deal"),
    (("<Control-r>",), "restart"),
    (("<Control-l>",), "show_launcher"),
    (("<Control-o>",), "open_game"),
    (("<Control-s>",), "save_game"),
    (("<Control-q>",), "quit"),
    (("<F1>",), "show_rules"),
    (("<Control-h>",), "hint"),
    (("<Control-d>",), "demo"),
    (("<Escape>",), "stop"),
)
"""(Tk event sequences, command name): the window's keyboard shortcuts."""


class MenuBar:
    """The window's menus, calling ``commands`` (a name of :data:`COMMANDS` -> a function
    without arguments).

    :param root: the Tk root window (the menu bar is set on it).
    :param commands: every name of :data:`COMMANDS`.
    :param settings: the saved settings (``difficulty``, ``animation``, ``four_colour``,
        ``show_winnability``, ``winnable_only``, ``hints_peek``, ``language``) the Options
        menu starts from.

    Attributes: ``bar`` (the menu bar), ``menus`` (``game``, ``edit``, ``options``,
    ``help``), ``entries`` (command name -> (menu, index) of the entry calling it), and
    the Options menu's variables ``cheat_var`` (``"normal"`` or ``"cheat"``),
    ``animation_var``, ``four_colour_var``, ``winnability_var``, ``winnable_only_var``,
    ``toolbar_var``, ``hints_peek_var``, ``language_var`` (``"system"`` or a code of
    :data:`solitaire_core.i18n.LANGUAGES`).
    """

    def __init__(self, root: tk.Tk, commands: Mapping[str, Command], settings: Any) -> None:
        do = commands
        self.commands = commands
        self.entries: dict[str, tuple[tk.Menu, int]] = {}
        root.option_add("*tearOff", False)
        bar = tk.Menu(root)
        game, edit, opts, helpm = (tk.Menu(bar) for _ in range(4))
        self.menus = {"game": game, "edit": edit, "options": opts, "help": helpm}
        bar.add_cascade(label=_("Game"), menu=game, underline=0)
        bar.add_cascade(label=_("Edit"), menu=edit, underline=0)
        bar.add_cascade(label=_("Options"), menu=opts, underline=0)
        bar.add_cascade(label=_("Help"), menu=helpm, underline=0)
        self._add(game, "new_deal", label=_("New deal"), accelerator="F2", underline=0)
        self._add(game, "next_deal", label=_("Next deal"), accelerator="F3")
        self._add(game, "select_deal", label=_("Select deal…"), accelerator="Ctrl+G")
        self._add(game, "restart", label=_("Restart"), accelerator="Ctrl+R", underline=0)
        game.add_separator()
        self._add(game, "hint", label=_("Hint"), accelerator="Ctrl+H", underline=0)
        self._add(game, "demo", label=_("Solve (demo)"), accelerator="Ctrl+D", underline=1)
        self._add(game, "stop", label=_("Stop"), accelerator="Esc", state="disabled")
        game.add_separator()
        self._add(game, "show_launcher", label=_("Choose game…"), accelerator="Ctrl+L")
        game.add_separator()
        self._add(game, "open_game", label=_("Open…"), accelerator="Ctrl+O")
        self._add(game, "save_game", label=_("Save as…"), accelerator="Ctrl+S")
        game.add_separator()
        self._add(game, "show_statistics", label=_("Statistics…"))
        game.add_separator()
        self._add(game, "quit", label=_("Quit"), accelerator="Ctrl+Q", underline=0)
        self._add(edit, "undo", label=_("Undo"), accelerator="Ctrl+Z", underline=0)
        self._add(edit, "redo", label=_("Redo"), accelerator="Ctrl+Y", underline=0)
        self._add(edit, "undo_to_winnable", label=_("Undo to winnable"), accelerator="Ctrl+U")
        self.cheat_var = tk.StringVar(root, value=settings.difficulty)
        self.animation_var = tk.BooleanVar(root, value=settings.animation)
        self.four_colour_var = tk.BooleanVar(root, value=settings.four_colour)
        diff = tk.Menu(opts)
        opts.add_cascade(label=_("Difficulty"), menu=diff, underline=0)
        diff.add_radiobutton(label=_("Normal"), value="normal", variable=self.cheat_var,
                             command=do["difficulty"])  # fmt: skip
        diff.add_radiobutton(label=_("Cheat (runs of any size move)"), value="cheat",
                             variable=self.cheat_var, command=do["difficulty"])  # fmt: skip
        opts.add_checkbutton(label=_("Animate moves"), variable=self.animation_var,
                             command=do["animation"])  # fmt: skip
        opts.add_checkbutton(label=_("Four-colour deck"), variable=self.four_colour_var,
                             command=do["four_colour"])  # fmt: skip
        self.toolbar_var = tk.BooleanVar(root, value=settings.toolbar)
        opts.add_checkbutton(label=_("Show toolbar"), variable=self.toolbar_var,
                             command=do["toolbar"])  # fmt: skip
        opts.add_separator()
        self.winnability_var = tk.BooleanVar(root, value=settings.show_winnability)
        self.winnable_only_var = tk.BooleanVar(root, value=settings.winnable_only)
        opts.add_checkbutton(label=_("Show winnability"), variable=self.winnability_var,
                             command=do["winnability"])  # fmt: skip
        opts.add_checkbutton(label=_("Winnable deals only"), variable=self.winnable_only_var,
                             command=do["winnable_only"])  # fmt: skip
        self.hints_peek_var = tk.BooleanVar(root, value=settings.hints_peek)
        opts.add_checkbutton(label=_("Hints see hidden cards"), variable=self.hints_peek_var,
                             command=do["hints_peek"])  # fmt: skip
        opts.add_separator()
        self.language_var = tk.StringVar(root, value=settings.language)
        languages = tk.Menu(opts)
        opts.add_cascade(label=_("Language"), menu=languages, underline=0)
        languages.add_radiobutton(label=_("As the system's"), value="system",
                                  variable=self.language_var, command=do["language"])  # fmt: skip
        for code, name in LANGUAGES.items():  # each in its own language
            languages.add_radiobutton(label=name, value=code, variable=self.language_var,
                                      command=do["language"])  # fmt: skip
        self._add(helpm, "show_rules", label=_("Rules of this game"), accelerator="F1")
        self._add(helpm, "show_shortcuts", label=_("Keyboard shortcuts"))
        helpm.add_separator()
        self._add(helpm, "show_about", label=_("About"))
        root.configure(menu=bar)
        self.bar = bar

    def _add(self, menu: tk.Menu, name: str, label: str, **options: Any) -> None:
        """Add an entry calling command ``name`` and remember where it is."""
        menu.add_command(label=label, command=self.commands[name], **options)
        self.entries[name] = (menu, int(menu.index("end")))

    def show_states(self, states: Mapping[str, bool]) -> None:
        """Enable or disable each entry as its command's state says (command name ->
        enabled, :func:`solitaire_tk.shell.actions.action_states`)."""
        for name, (menu, index) in self.entries.items():
            wanted = "normal" if states.get(name, True) else "disabled"
            if menu.entrycget(index, "state") != wanted:
                menu.entryconfigure(index, state=wanted)


def bind_keys(
    root: tk.Misc, commands: Mapping[str, Command], enabled: Callable[[str], bool] | None = None
) -> None:
    """Bind the shortcuts of :data:`KEYS` on ``root`` (the whole window); each calls its
    command, when ``enabled(name)`` says it can act (always without ``enabled``), and
    stops the event there."""
    for sequences, name in KEYS:
        for sequence in sequences:
            root.bind(sequence, _key_action(name, commands[name], enabled))


def _key_action(
    name: str, action: Command, enabled: Callable[[str], bool] | None
) -> Callable[[tk.Event], str]:
    def handler(event: tk.Event) -> str:
        if enabled is None or enabled(name):
            action()
        return "break"

    return handler
