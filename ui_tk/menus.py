"""The game window's menu bar (Game, Edit, Options, Help) and its keyboard shortcuts.

Both call the app's commands by name (:data:`COMMANDS`), so a toolbar or any later
feature can reuse the same table: ``commands["undo"]()`` is what Edit > Undo and Ctrl+Z
do. The keys are listed for the player in :data:`solitaire_tk.keys.SHORTCUTS`.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["COMMANDS", "GAME_ENTRIES", "KEYS", "MenuBar", "bind_keys"]

Command = Callable[[], object]

COMMANDS = (
    "new_deal", "next_deal", "select_deal", "restart", "hint", "demo", "stop",
    "show_launcher", "open_game", "save_game", "show_statistics", "quit", "undo", "redo",
    "difficulty", "animation", "four_colour", "winnability", "winnable_only", "show_rules",
    "show_shortcuts", "show_about", "undo_to_winnable", "toolbar",
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

GAME_ENTRIES = (
    "New deal", "Next deal", "Select deal…", "Restart", "Hint", "Solve (demo)", "Save as…",
)  # fmt: skip
"""The Game menu's entries that need a game on the table (disabled in the launcher)."""


class MenuBar:
    """The window's menus, calling ``commands`` (a name of :data:`COMMANDS` -> a function
    without arguments).

    :param root: the Tk root window (the menu bar is set on it).
    :param commands: every name of :data:`COMMANDS`.
    :param settings: the saved settings (``difficulty``, ``animation``, ``four_colour``,
        ``show_winnability``, ``winnable_only``) the Options menu starts from.

    Attributes: ``bar`` (the menu bar), ``menus`` (``game``, ``edit``, ``options``,
    ``help``), and the Options menu's variables ``cheat_var`` (``"normal"`` or
    ``"cheat"``), ``animation_var``, ``four_colour_var``, ``winnability_var``,
    ``winnable_only_var``, ``toolbar_var``.
    """

    def __init__(self, root: tk.Tk, commands: Mapping[str, Command], settings: Any) -> None:
        do = commands
        root.option_add("*tearOff", False)
        bar = tk.Menu(root)
        game, edit, opts, helpm = (tk.Menu(bar) for _ in range(4))
        self.menus = {"game": game, "edit": edit, "options": opts, "help": helpm}
        bar.add_cascade(label="Game", menu=game, underline=0)
        bar.add_cascade(label="Edit", menu=edit, underline=0)
        bar.add_cascade(label="Options", menu=opts, underline=0)
        bar.add_cascade(label="Help", menu=helpm, underline=0)
        game.add_command(label="New deal", accelerator="F2", command=do["new_deal"], underline=0)
        game.add_command(label="Next deal", accelerator="F3", command=do["next_deal"])
        game.add_command(label="Select deal…", accelerator="Ctrl+G", command=do["select_deal"])
        game.add_command(label="Restart", accelerator="Ctrl+R", command=do["restart"], underline=0)
        game.add_separator()
        game.add_command(label="Hint", accelerator="Ctrl+H", command=do["hint"], underline=0)
        game.add_command(label="Solve (demo)", accelerator="Ctrl+D", command=do["demo"],
                         underline=1)  # fmt: skip
        game.add_command(label="Stop", accelerator="Esc", command=do["stop"], state="disabled")
        game.add_separator()
        game.add_command(label="Choose game…", accelerator="Ctrl+L", command=do["show_launcher"])
        game.add_separator()
        game.add_command(label="Open…", accelerator="Ctrl+O", command=do["open_game"])
        game.add_command(label="Save as…", accelerator="Ctrl+S", command=do["save_game"])
        game.add_separator()
        game.add_command(label="Statistics…", command=do["show_statistics"])
        game.add_separator()
        game.add_command(label="Quit", accelerator="Ctrl+Q", command=do["quit"], underline=0)
        edit.add_command(label="Undo", accelerator="Ctrl+Z", command=do["undo"], underline=0)
        edit.add_command(label="Redo", accelerator="Ctrl+Y", command=do["redo"], underline=0)
        edit.add_command(label="Undo to winnable", accelerator="Ctrl+U",
                         command=do["undo_to_winnable"])  # fmt: skip
        self.cheat_var = tk.StringVar(root, value=settings.difficulty)
        self.animation_var = tk.BooleanVar(root, value=settings.animation)
        self.four_colour_var = tk.BooleanVar(root, value=settings.four_colour)
        diff = tk.Menu(opts)
        opts.add_cascade(label="Difficulty", menu=diff, underline=0)
        diff.add_radiobutton(label="Normal", value="normal", variable=self.cheat_var,
                             command=do["difficulty"])  # fmt: skip
        diff.add_radiobutton(label="Cheat (runs of any size move)", value="cheat",
                             variable=self.cheat_var, command=do["difficulty"])  # fmt: skip
        opts.add_checkbutton(label="Animate moves", variable=self.animation_var,
                             command=do["animation"])  # fmt: skip
        opts.add_checkbutton(label="Four-colour deck", variable=self.four_colour_var,
                             command=do["four_colour"])  # fmt: skip
        self.toolbar_var = tk.BooleanVar(root, value=settings.toolbar)
        opts.add_checkbutton(label="Show toolbar", variable=self.toolbar_var,
                             command=do["toolbar"])  # fmt: skip
        opts.add_separator()
        self.winnability_var = tk.BooleanVar(root, value=settings.show_winnability)
        self.winnable_only_var = tk.BooleanVar(root, value=settings.winnable_only)
        opts.add_checkbutton(label="Show winnability", variable=self.winnability_var,
                             command=do["winnability"])  # fmt: skip
        opts.add_checkbutton(label="Winnable deals only", variable=self.winnable_only_var,
                             command=do["winnable_only"])  # fmt: skip
        helpm.add_command(label="Rules of this game", accelerator="F1", command=do["show_rules"])
        helpm.add_command(label="Keyboard shortcuts", command=do["show_shortcuts"])
        helpm.add_separator()
        helpm.add_command(label="About", command=do["show_about"])
        root.configure(menu=bar)
        self.bar = bar

    def set_game_state(self, state: str) -> None:
        """Enable (``"normal"``) or disable (``"disabled"``) the entries that need a game
        on the table: :data:`GAME_ENTRIES`, Undo, Redo and the rules."""
        game = self.menus["game"]
        for label in GAME_ENTRIES:
            game.entryconfigure(label, state=state)
        for label in ("Undo", "Redo", "Undo to winnable"):
            self.menus["edit"].entryconfigure(label, state=state)
        self.menus["help"].entryconfigure(0, state=state)


def bind_keys(root: tk.Misc, commands: Mapping[str, Command]) -> None:
    """Bind the shortcuts of :data:`KEYS` on ``root`` (the whole window); each calls its
    command and stops the event there."""
    for sequences, name in KEYS:
        for sequence in sequences:
            root.bind(sequence, _key_action(commands[name]))


def _key_action(action: Command) -> Callable[[tk.Event], str]:
    def handler(event: tk.Event) -> str:
        action()
        return "break"

    return handler
