"""The keyboard shortcuts shown by Help > Keyboard shortcuts, when the app module does not
define its own table (``solitaire_tk.app.SHORTCUTS`` takes precedence; see
:func:`solitaire_tk.dialogs.shortcut_table`).

The pile keys follow the Seahaven Towers program help (shared rules): a pile's letter
moves its top card to the appropriate tableau position if there is one, else to the
reserve; Shift with the letter sends it to the reserve.
"""

from __future__ import annotations

__all__ = ["SHORTCUTS"]

SHORTCUTS: list[tuple[str, str]] = [
    (
        "Pile letter",
        "Move that pile's top card (or the run the rules allow) to the best tableau "
        "place, else to a free cell. Every pile shows its letter.",
    ),
    ("Shift+letter", "Send that pile's top card to a free cell."),
    (
        "Click a card",
        "Move it to the best legal place: a foundation, a matching card, an empty "
        "column, a free cell.",
    ),
    ("Drag and drop", "Move a card and the cards on it; legal targets are highlighted."),
    ("Ctrl+Z", "Undo."),
    ("Ctrl+Y, Ctrl+Shift+Z", "Redo."),
    ("Up, Down (launcher)", "Choose a game."),
    ("Enter (launcher)", "Play the chosen game."),
    ("Escape (dialogs)", "Close the dialog."),
]
"""(keys, action) pairs, in the order shown."""
