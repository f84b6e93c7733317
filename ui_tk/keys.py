"""The keyboard shortcuts of the game window, as Help > Keyboard shortcuts lists them
(:func:`solitaire_tk.dialogs.show_shortcuts`).

The pile keys follow the Seahaven Towers program help (shared rules): a pile's letter
moves its top card to the appropriate tableau position if there is one, else to the
reserve; Shift with the letter sends it to the reserve.
"""

from __future__ import annotations

__all__ = ["SHORTCUTS"]

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
        "1, 2, 3 in games with a stock",
        "The stock's number (1) deals; the waste's (2) and the reserve's (3 in Canfield) "
        "play their top card onto a matching card, an empty column or a foundation.",
    ),
    (
        "Letters after the columns'",
        "Foundations: their cards move only in games that let cards come back into play.",
    ),
    (
        "Letters after the foundations'",
        "Cells past the tenth (Flower Garden's reserve: 1 to 9, 0, then K to P).",
    ),
    (
        "Click a card",
        "Move it, with the cards on it, to the best legal place: a foundation, a matching "
        "card, an empty column, a free cell.",
    ),
    ("Drag and drop", "Move a card and the cards on it; legal targets are outlined."),
    (
        "Arrow keys",
        "Move the keyboard focus: Left and Right to the next pile, Up and Down from card to "
        "card in a column, between a column and the pile above it, and between the rows of "
        "a tableau laid out in several (Fan).",
    ),
    (
        "Arrow keys in Pyramid and TriPeaks",
        "Left and Right go from free card to free card across the layout, Up and Down to "
        "the nearest free card in the row above or below; Space or Enter does what a click "
        "does.",
    ),
    (
        "Click a card in Pyramid",
        "Choose it (outlined), then click a card it pairs with (ranks adding up to 13): "
        "both go to the discard pile; or drag one onto the other. A King goes alone at a "
        "click. The stock's face-up top card pairs by a drag, or by a click once the other "
        "card is chosen; else a click on the stock deals.",
    ),
    (
        "Tab, Shift+Tab",
        "Focus the next area: tableau, stock, waste, reserve, cells, foundations (those the "
        "game has).",
    ),
    (
        "Space, Enter",
        "Pick up the focused card and the cards on it; again to put them on the focused "
        "pile (Esc puts them back).",
    ),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Y, Ctrl+Shift+Z", "Redo"),
    ("Ctrl+U", "Undo to the last position known to be winnable"),
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
    (
        "Ctrl+Tab, Ctrl+Shift+Tab",
        "In the statistics window: the next or the previous tab (Table, Progression)",
    ),
    ("Ctrl+Q", "Quit (the game in progress is kept)"),
]
"""(keys, action) pairs, in the order shown."""
