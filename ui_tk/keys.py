"""The keyboard shortcuts of the game window, as Help > Keyboard shortcuts lists them
(:func:`solitaire_tk.dialogs.common.show_shortcuts`).

The pile keys follow the Seahaven Towers program help (shared rules): a pile's letter
moves its top card to the appropriate tableau position if there is one, else to the
reserve; Shift with the letter sends it to the reserve.
"""

from __future__ import annotations

from solitaire_core.i18n import N_

__all__ = ["SHORTCUTS"]

SHORTCUTS: list[tuple[str, str]] = [
    (
        N_("A, B, C … (the letter above a column)"),
        N_(
            "Move that column's top card, or the longest run the rules allow, onto a "
            "matching card, else into an empty column, else to a foundation, else to a "
            "free cell."
        ),
    ),
    (
        N_("Shift+letter"),
        N_("Send that column's top card to a free cell."),
    ),
    (
        N_("1, 2, 3 … (the number above a cell)"),
        N_("Move that cell's card onto a matching card, an empty column or a foundation."),
    ),
    (
        N_("1, 2, 3 in games with a stock"),
        N_(
            "The stock's number (1) deals; the waste's (2) and the reserve's (3 in "
            "Canfield) play their top card onto a matching card, an empty column or a "
            "foundation."
        ),
    ),
    (
        N_("Letters after the columns'"),
        N_("Foundations: their cards move only in games that let cards come back into play."),
    ),
    (
        N_("Letters after the foundations'"),
        N_("Cells past the tenth (Flower Garden's reserve: 1 to 9, 0, then K to P)."),
    ),
    (
        N_("Click a card"),
        N_(
            "Move it, with the cards on it, to the best legal place: a foundation, a "
            "matching card, an empty column, a free cell."
        ),
    ),
    (
        N_("Drag and drop"),
        N_("Move a card and the cards on it; legal targets are outlined."),
    ),
    (
        N_("Arrow keys"),
        N_(
            "Move the keyboard focus: Left and Right to the next pile, Up and Down from "
            "card to card in a column, between a column and the pile above it, and "
            "between the rows of a tableau laid out in several (Fan)."
        ),
    ),
    (
        N_("Arrow keys in Pyramid and TriPeaks"),
        N_(
            "Left and Right go from free card to free card across the layout, Up and "
            "Down to the nearest free card in the row above or below; Space or Enter "
            "does what a click does."
        ),
    ),
    (
        N_("Click a card in Pyramid"),
        N_(
            "Choose it (outlined), then click a card it pairs with (ranks adding up to "
            "13): both go to the discard pile; or drag one onto the other. A King goes "
            "alone at a click. The stock's face-up top card pairs by a drag, or by a "
            "click once the other card is chosen; else a click on the stock deals."
        ),
    ),
    (
        N_("Tab, Shift+Tab"),
        N_(
            "Focus the next area: tableau, stock, waste, reserve, cells, foundations "
            "(those the game has)."
        ),
    ),
    (
        N_("Space, Enter"),
        N_(
            "Pick up the focused card and the cards on it; again to put them on the "
            "focused pile (Esc puts them back)."
        ),
    ),
    (
        N_("Ctrl+Z"),
        N_("Undo"),
    ),
    (
        N_("Ctrl+Y, Ctrl+Shift+Z"),
        N_("Redo"),
    ),
    (
        N_("Ctrl+U"),
        N_("Undo to the last position known to be winnable"),
    ),
    (
        N_("F2, Ctrl+N"),
        N_("New deal"),
    ),
    (
        N_("F3"),
        N_("Next deal (this deal's number + 1)"),
    ),
    (
        N_("Ctrl+G"),
        N_("Select a deal by number"),
    ),
    (
        N_("Ctrl+R"),
        N_("Restart this deal"),
    ),
    (
        N_("Ctrl+H"),
        N_("Hint: the next move of a win is outlined on the table"),
    ),
    (
        N_("Ctrl+D"),
        N_("Solve (demo): the computer plays the rest of the game"),
    ),
    (
        N_("Esc"),
        N_("Stop the demo, or a search for a hint or a winnable deal"),
    ),
    (
        N_("Ctrl+L"),
        N_("Choose another game"),
    ),
    (
        N_("Ctrl+O, Ctrl+S"),
        N_("Open, save a game"),
    ),
    (
        N_("F1"),
        N_("Rules of this game"),
    ),
    (
        N_("Ctrl+Tab, Ctrl+Shift+Tab"),
        N_("In the statistics window: the next or the previous tab (Table, Progression)"),
    ),
    (
        N_("Ctrl+Q"),
        N_("Quit (the game in progress is kept)"),
    ),
]
"""(keys, action) pairs, in the order shown, in English (translated when shown)."""
