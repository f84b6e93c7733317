"""Keyboard play without letters: a visible focus on the table (Aisleriot's and
KPatience's model).

* The arrow keys move the focus: Left and Right go to the next pile of the same area
  (tableau columns, cells, foundations; they wrap round), Up and Down go from card to
  card in a column, and from the top of a column up to the cell or foundation above it
  (and back down). Where the tableau is laid out in several rows (Fan's 18 columns),
  Down from a column's last card goes to the column below it, Up from a column's
  first card to the last card of the column above it.
* Tab and Shift+Tab go to the next and previous area: tableau, stock, waste, reserve,
  cells, foundations (each where the game has it). Up from the reserve goes to the
  stock above it, Down from the stock to the reserve.
* Space or Enter picks up the focused card with the cards on it (they are outlined);
  Space or Enter again puts them on the focused pile, if the rules allow (else the
  status bar says why and nothing moves). Picking up and dropping on the same pile,
  or Escape, puts them back.

In a game whose columns are laid out in a picture of overlapping cards
(``tableau.layout``: Pyramid, TriPeaks), whose cards have no letters, the focus goes
from free card to free card: Left and Right to the next free card across (wrapping
round), Up and Down to the nearest free card in a row above or below; a covered card or
an emptied place is never focused. Space or Enter there does what a click does: in
Pyramid it chooses a card (outlined) and a second card it pairs with plays the pair, a
King goes to the discard pile, and on the stock it deals (or pairs the stock's top card
with the chosen card); in TriPeaks it plays the card onto the foundation.

The pile letters (:mod:`solitaire_tk.table.layout`) keep working as before; the focus shows
only once an arrow key, Tab, Space or Enter was pressed, and a click hides it.

The view never decides legality: a drop becomes a :class:`~solitaire_core.moves.Move`
that :func:`~solitaire_core.rules.explain` checks before it is reported, as a drag and
drop is.
"""

from __future__ import annotations

import tkinter as tk
from typing import TYPE_CHECKING

from solitaire_core.i18n import N_
from solitaire_core.i18n import gettext as _
from solitaire_core.moves import Move, PileKind, PileRef
from solitaire_core.rules import covered, explain

if TYPE_CHECKING:
    from .view import TableView

__all__ = ["AREAS", "KeyboardFocus"]

AREAS = (
    PileKind.TABLEAU,
    PileKind.STOCK,
    PileKind.WASTE,
    PileKind.RESERVE,
    PileKind.CELL,
    PileKind.FOUNDATION,
)
"""The areas Tab cycles through, in order (the stock, the waste and the reserve only
where the game has them)."""

_FOCUS = "#ff9f1c"  # the focus outline: orange, unlike the drop targets and the hint
_PICKED = "#ffffff"
_SHADOW = "#3a2200"

# What Space or Enter on an empty pile says, by the pile's kind: with its key, without.
_EMPTY = {
    PileKind.TABLEAU: (N_("Column {key} is empty."), N_("Column is empty.")),
    PileKind.CELL: (N_("Cell {key} is empty."), N_("Cell is empty.")),
    PileKind.FOUNDATION: (N_("Foundation {key} is empty."), N_("Foundation is empty.")),
    PileKind.STOCK: (N_("The stock {key} is empty."), N_("The stock is empty.")),
    PileKind.WASTE: (N_("The waste {key} is empty."), N_("The waste is empty.")),
    PileKind.RESERVE: (N_("The reserve {key} is empty."), N_("The reserve is empty.")),
}


class KeyboardFocus:
    """The keyboard focus of a :class:`~solitaire_tk.table.view.TableView` (``view.focus``).

    Attributes for tests and tools: :attr:`pile` and :attr:`index` (the focused card:
    its pile and its place, 0 = bottom; the index is the pile's length for an empty
    pile), :attr:`picked` (``(pile, index)`` of the picked-up cards, or ``None``),
    :attr:`visible`. Canvas items have the tags ``focus`` and ``focus:cursor`` or
    ``focus:picked``.
    """

    def __init__(self, view: TableView) -> None:
        self.view = view
        self.pile: PileRef = PileRef(PileKind.TABLEAU, 0)
        self.index = 0
        self.picked: tuple[PileRef, int] | None = None
        self.visible = False
        keys = {
            "<Left>": lambda: self.step(-1),
            "<Right>": lambda: self.step(1),
            "<Up>": lambda: self.vertical(-1),
            "<Down>": lambda: self.vertical(1),
            "<Tab>": lambda: self.next_area(1),
            "<Shift-Tab>": lambda: self.next_area(-1),
            "<ISO_Left_Tab>": lambda: self.next_area(-1),
            "<space>": self.activate,
            "<Return>": self.activate,
            "<KP_Enter>": self.activate,
        }
        for sequence, action in keys.items():
            view.bind(sequence, self._handler(action), add="+")
        view.bind("<Escape>", self._escape, add="+")
        view.bind("<ButtonPress-1>", lambda _e: self.hide(), add="+")

    def _handler(self, action):  # type: ignore[no-untyped-def]
        def handle(event: tk.Event) -> str | None:
            state = event.state if isinstance(event.state, int) else 0
            if state & 0x4 or state & 0x8:  # Control or Alt: a menu shortcut
                return None
            if self.view.state is None or self.view.layout is None:
                return None
            self.view.finish_animation()
            if not self.visible:
                self.visible = True
                self.go(self.pile)  # the top card of the pile last focused
            action()
            self.draw()
            return "break"

        return handle

    def _escape(self, event: tk.Event) -> str | None:
        if self.picked is None:
            return None  # Escape goes on to the window (stop a demo or a search)
        self.picked = None
        self.view.on_message("")
        self.draw()
        return "break"

    # ------------------------------------------------------------------ moving the focus

    def _count(self, kind: PileKind) -> int:
        state = self.view.state
        assert state is not None
        return {
            PileKind.TABLEAU: len(state.columns),
            PileKind.CELL: len(state.cells),
            PileKind.FOUNDATION: len(state.foundations),
            PileKind.STOCK: 1 if state.rules.has_stock else 0,
            PileKind.WASTE: 1 if state.rules.stock_deal == "waste" else 0,
            PileKind.RESERVE: 1 if state.rules.has_reserve else 0,
        }[kind]

    def _cards(self, ref: PileRef) -> int:
        assert self.view.state is not None
        return len(self.view.state.pile(ref))

    def _top(self, ref: PileRef) -> int:
        """The index the focus takes on arriving at ``ref``: its top card (0 if empty)."""
        return max(0, self._cards(ref) - 1)

    def _placed(self) -> bool:
        """Whether the columns are a layout of overlapping cards (Pyramid, TriPeaks)."""
        return self.view.layout is not None and self.view.layout.placed

    def free_columns(self) -> list[PileRef]:
        """The columns of a layout (Pyramid) whose card is free (not covered, not gone),
        left to right (top to bottom where two stand one above the other)."""
        layout, state = self.view.layout, self.view.state
        assert layout is not None and state is not None
        free = [
            s
            for s in layout.columns
            if state.columns[s.ref.index or 0] and not covered(state, s.ref.index or 0)
        ]
        return [s.ref for s in sorted(free, key=lambda s: (s.x, s.y))]

    def _nearest_free(self, ref: PileRef) -> PileRef | None:
        """The free card of a layout nearest to column ``ref``'s place, or ``None``."""
        layout = self.view.layout
        assert layout is not None
        here = layout.slot(ref)
        free = self.free_columns()
        if not free:
            return None
        return min(
            free,
            key=lambda r: (layout.slot(r).x - here.x) ** 2 + (layout.slot(r).y - here.y) ** 2,
        )

    def go(self, ref: PileRef, index: int | None = None) -> None:
        """Put the focus on pile ``ref`` (its top card, or the card at ``index``)."""
        self.pile = ref
        self.index = self._top(ref) if index is None else index
        self.clamp()

    def clamp(self) -> None:
        """Keep the focus on a card that exists (after the position changed)."""
        state = self.view.state
        if state is None:
            return
        if (self.pile.index or 0) >= self._count(self.pile.kind):
            self.pile = PileRef(PileKind.TABLEAU, 0)
        if self.pile.kind is PileKind.TABLEAU and self._placed():
            free = self.free_columns()
            if self.pile not in free:  # covered, or gone: the nearest free card
                nearest = self._nearest_free(self.pile)
                self.pile = nearest if nearest is not None else self._stock_or_first()
        n = self._cards(self.pile)
        if self.pile.kind is not PileKind.TABLEAU:
            self.index = max(0, n - 1)
        else:
            self.index = min(max(0, self.index), max(0, n - 1))
        if self.picked is not None:
            ref, index = self.picked
            if index >= self._cards(ref):
                self.picked = None

    def _stock_or_first(self) -> PileRef:
        """Where the focus goes once a layout has no free card left: the stock, else
        the first foundation."""
        if self._count(PileKind.STOCK):
            return PileRef(PileKind.STOCK, 0)
        return PileRef(PileKind.FOUNDATION, 0)

    def step(self, delta: int) -> None:
        """Left (-1) or Right (+1): the next pile of the area, wrapping round (in a
        layout, the next free card across)."""
        if self.pile.kind is PileKind.TABLEAU and self._placed():
            free = self.free_columns()
            if free:
                here = free.index(self.pile) if self.pile in free else -1
                self.go(free[(here + delta) % len(free)] if here >= 0 else free[0])
            return
        count = self._count(self.pile.kind)
        if count:
            self.go(PileRef(self.pile.kind, ((self.pile.index or 0) + delta) % count))

    def next_area(self, delta: int) -> None:
        """Tab (+1) or Shift+Tab (-1): the next area that has piles."""
        i = AREAS.index(self.pile.kind)
        for k in range(1, len(AREAS) + 1):
            kind = AREAS[(i + delta * k) % len(AREAS)]
            if self._count(kind):
                self.go(PileRef(kind, 0))
                return

    def vertical(self, delta: int) -> None:
        """Up (-1) or Down (+1): the card above or below in a column; past either end of
        a column, the column above or below it in a tableau of several rows; past the
        top of the top row's column, the pile above it; from the top row, the column
        below."""
        layout = self.view.layout
        assert layout is not None
        if self.pile.kind is PileKind.TABLEAU and layout.placed:
            here = layout.slot(self.pile)
            rows = [
                layout.slot(r)
                for r in self.free_columns()
                if (layout.slot(r).y - here.y) * delta > 0
            ]
            if rows:  # the nearest row that way, the card nearest across in it
                y = min(rows, key=lambda s: abs(s.y - here.y)).y
                self.go(min((s for s in rows if s.y == y), key=lambda s: abs(s.x - here.x)).ref)
            return
        if self.pile.kind is PileKind.TABLEAU:
            n = self._cards(self.pile)
            index = self.index + delta
            if 0 <= index < n:
                self.index = index
                return
            here = layout.slot(self.pile)
            rows = [s for s in layout.columns if s.x == here.x and (s.y - here.y) * delta > 0]
            if rows:  # the next row of columns, the nearest first
                column = min(rows, key=lambda s: abs(s.y - here.y)).ref
                self.go(column, 0 if delta > 0 else None)
                return
            if delta > 0:
                return
            x = here.x
            top = [
                s
                for s in layout.cells + layout.foundations + layout.talon
                if s.y < layout.columns[0].y
            ]
            if not top:
                return
            # The nearest pile above: the lowest row first, then by distance in x.
            best = min(top, key=lambda s: (-s.y, abs(s.x - x)))
            self.go(best.ref)
            return
        slot = layout.slot(self.pile)
        # From a top pile: the pile below it in the top area (the reserve under the
        # stock), else the nearest column.
        below = [
            s
            for s in layout.cells + layout.foundations + layout.talon + layout.reserve
            if (s.y > slot.y if delta > 0 else s.y < slot.y) and abs(s.x - slot.x) < layout.card_w
        ]
        if below:
            self.go(min(below, key=lambda s: abs(s.y - slot.y)).ref)
            return
        if delta > 0 and layout.columns:
            first_row = [s for s in layout.columns if s.y == layout.columns[0].y]
            column = min(first_row, key=lambda s: abs(s.x - slot.x))
            self.go(column.ref, 0 if self._cards(column.ref) else None)

    # ------------------------------------------------------------------ picking up and dropping

    def activate(self) -> None:
        """Space or Enter: pick up the focused cards, or drop the picked ones on the
        focused pile."""
        view = self.view
        state = view.state
        assert state is not None
        if self.picked is None and self.pile.kind is PileKind.STOCK:
            view.click_card(self.pile, max(0, self._cards(self.pile) - 1))  # a deal
            self.clamp()
            return
        if self.picked is None and (self._placed() or state.rules.pair_total):
            # A layout's cards (and Pyramid's waste): what a click does.
            view.click_card(self.pile, self._top(self.pile))
            self.clamp()
            return
        if self.picked is None:
            n = self._cards(self.pile)
            if n == 0:
                view.on_message(self._empty(self.pile))
                return
            self.picked = (self.pile, self.index if self.pile.kind is PileKind.TABLEAU else n - 1)
            view.on_message(
                _("Picked up: move to a pile and press Space or Enter (Esc puts back).")
            )
            return
        source, index = self.picked
        self.picked = None
        if source == self.pile:
            view.on_message("")
            return
        count = self._cards(source) - index
        move = Move(source, self.pile, count)
        reason = explain(state, move, cheat=view.cheat())
        if reason:
            view.on_message(reason[:1].upper() + reason[1:] + ".")
            return
        view.on_message("")
        view.on_move(move)
        self.clamp()
        self.index = self._top(self.pile)

    def _empty(self, ref: PileRef) -> str:
        """That pile ``ref`` is empty, in a sentence naming it by its key: "Column C is
        empty."."""
        key = self.view.key_of.get(ref, "")
        shown = key.upper() if key.isalpha() else key
        with_key, without = _EMPTY[ref.kind]
        return _(with_key).format(key=shown) if shown else _(without)

    # ------------------------------------------------------------------ drawing

    def hide(self) -> None:
        """Hide the focus (a click; it shows again at the next focus key)."""
        self.visible = False
        self.picked = None
        self.view.delete("focus")

    def draw(self) -> None:
        """Draw the focus outline (and the picked-up cards' outline) where they are now."""
        view = self.view
        view.delete("focus")
        layout, state = view.layout, view._shown or view.state
        if not self.visible or layout is None or state is None:
            return
        self.clamp()
        w = layout.card_w
        pad = max(3, w // 20)
        width = max(3, w // 18)

        def outline(ref: PileRef, first: int, tag: str, colour: str) -> None:
            n = len(state.pile(ref))
            x0, y0, x1, y1 = layout.cards_box(ref, min(first, max(n - 1, 0)), max(n, 1))
            box = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
            for fill, extra in ((_SHADOW, 3), (colour, 0)):
                view.create_rectangle(*box, outline=fill, width=width + extra,
                                      tags=("focus", tag))  # fmt: skip

        if self.picked is not None:
            ref, index = self.picked
            outline(ref, index, "focus:picked", _PICKED)
        outline(self.pile, self.index, "focus:cursor", _FOCUS)
        view.tag_raise("focus")
