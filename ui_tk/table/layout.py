"""Table geometry: where every pile of a variant goes in a window of a given size.

Pure arithmetic on pixel coordinates (no tkinter here, so it is tested without a display,
tests/test_layout.py). :func:`compute_layout` turns the pile counts of a variant's
:class:`~solitaire_core.variant.Rules` and a window size into a :class:`Layout`: the card
size, the top-left corner of every pile, where its key letter goes, and how far apart the
cards of a tableau column are fanned (compressed when a column grows long, so it always
fits above the bottom edge).

The top area holds the cells and the foundations, above the tableau. Several
arrangements are tried and the one that gives the largest cards wins:

* ``"grid"``: one row on the tableau's column grid, cells from the left and foundations
  from the right (Seahaven Towers' 4 reserve slots on the left and 4 foundations on the
  right, as the program help in shared/rules describes; FreeCell);
* ``"row"``: one row of its own, cells then foundations with a wider gap between them,
  when the piles outnumber the columns;
* ``"stacked"``: cells and foundations each in two rows, side by side (Double Sea
  Towers: 9 cells and 8 foundations over 11 columns);
* ``"side"``: cells in a row above the tableau, foundations in a column at the right
  (Eight Off: 8 cells over 8 columns).

A wide tableau may be laid out in several rows of columns (:attr:`Layout.bands`): from
:data:`BANDS_FROM` columns on, plans with 2 and 3 rows compete too (in every
arrangement), each row as high as its columns' dealt cards and :data:`EXTRA_ROWS` more
need, and win where they give clearly larger cards (:data:`BAND_PREFERENCE`). Fan and
Scotch Patience (18 fans of 3) get 2 rows of 9 with the foundations at the side (85 px
cards instead of 49 in the default window), as PySolFC lays out its Fan (game 56) in
several rows; Baker's Dozen's 13 columns get rows of 7 and 6, as in PySolFC, where the
window is too narrow for one row. The columns keep their order and letters, left to
right, row by row.

Pile keys (the program help: "pressing the letter corresponding to its position"):
tableau columns are lettered ``a, b, c, ...`` from the left; cells are numbered ``1`` to
``9`` (then ``0``), the number row of the keyboard for the top row of the table;
foundations take the letters after the columns' (Seahaven: columns ``a``-``j``, cells
``1``-``4``, foundations ``k``-``n``); cells past the tenth take the letters after the
foundations' (Flower Garden: columns ``a``-``f``, foundations ``g``-``j``, its 16 reserve
slots ``1``-``0`` and ``k``-``p``). This works up to 14 columns with 8 foundations and 10
cells, and for 26 letters in all. The cards of a ``tableau.layout`` (Pyramid's 28, each
partly under others) have no letters: the arrow keys go from free card to free card
(:mod:`solitaire_tk.table.focus`), and the foundations take the first letters.

A ``tableau.layout`` (Pyramid, TriPeaks: ``Rules.layout``) puts each column at its own
place, in card widths and card heights, scaled here by a card and a gap across and a
card and a gap down (PySolFC's ``XS`` and ``YS``), so Pyramid's rows half a card apart
show the top half of every card, its corner index whole. Two arrangements compete
(:data:`PLACED_ARRANGEMENTS`): ``"sides"``, the stock and the waste in a column at the
left and the foundations at the right, as PySolFC lays out its Pyramid (game 38), and
``"below"``, them all in a row under the layout, which wins for the wide three peaks.

A reserve (Canfield's thirteen, :attr:`Layout.reserve`) stands where PySolFC puts it:
at the left of the tableau, under the stock, in a column of its own; the columns are
then planned one more and, where they are no more than the foundations, stand under the
foundations (PySolFC's Canfield, game 105: reserve at the left margin under the talon,
the rows from the third card width on). A face-down reserve is a tight stack of backs
(:data:`RESERVE_STACK` card heights apart, so its size reads) under its face-up top card;
a face-up one (Superior Canfield) is fanned downwards like a column and planned so all
its cards show their corner index. The reserve's key is the digit after the stock's and
the waste's (Canfield: stock ``1``, waste ``2``, reserve ``3``).
"""

from __future__ import annotations

import math
import string
from collections.abc import Collection, Mapping, Sequence
from typing import Protocol, TypeVar

import attrs

from solitaire_core.i18n import gettext as _
from solitaire_core.moves import PileKind, PileRef
from solitaire_core.state import GameState

__all__ = [
    "ARRANGEMENTS",
    "ASPECT",
    "PLACED_ARRANGEMENTS",
    "RUN_ON_TOP",
    "Layout",
    "PileCounts",
    "PileSlot",
    "column_plan",
    "compute_layout",
    "pile_keys",
    "pile_name",
    "reserve_piles",
    "talon_piles",
]

ASPECT = 1.4
"""Card height / card width (a 5:7 card, the proportions of a poker card)."""

ARRANGEMENTS = ("grid", "row", "stacked", "side")
"""The top-area arrangements :func:`compute_layout` chooses from (module docstring)."""

PLACED_ARRANGEMENTS = ("sides", "below")
"""Where the other piles go round a ``tableau.layout`` (module docstring): ``"sides"``,
the stock, the waste and the cells at the left and the foundations at the right;
``"below"``, all in a row under the layout."""

MAX_CARD_WIDTH = 190
"""Cards never get wider than this (px); a larger window gets wider margins."""

MIN_CARD_WIDTH = 24
"""Cards never get narrower than this (px); a smaller window clips the table."""

GAP = 0.16
"""Horizontal gap between piles, in card widths."""

FAN = 0.27
"""Offset between the cards of a column when there is room, in card heights: shows the
rank and suit in the top corner (cardfaces draws them within the top ~20%)."""

MAX_FAN = 0.33
"""The offset used when the window has room to spare below the tableau."""

FLOOR_FAN = 0.06
"""The offset a very long column is compressed to at most (the index is then partly
hidden, but the column still fits)."""

EXTRA_ROWS = 5
"""How many cards beyond the longest dealt column the layout plans room for (at
:data:`PLAN_FAN` at least); longer columns are compressed."""

PLAN_FAN = 0.2
"""The offset (card heights) at which the :data:`EXTRA_ROWS` cards beyond a dealt column
must still fit: the corner index (rank and suit, within the top ~18% of a face) stays
whole. The dealt columns themselves fit at :data:`FAN`. Planning the extra rows at the
full :data:`FAN` made the two-deck games' cards small, with the window's width unused
(Double Sea Towers: 65x92 px cards and 250 px unused at 1100x760)."""

SEGMENT_GAP = 0.08
"""Horizontal gap between the segments of a wrapped column, in card widths."""

WRAP_FROM = 24
"""Columns are planned to wrap into segments side by side (:attr:`Layout.segments`) only
when the layout plans for at least this many cards in a column (Der Katzenschwanz, Die
Schlange: a King-started column can be dealt 70 cards long). Every game with fixed column
counts plans for fewer, and keeps its single fans."""

MAX_SEGMENTS = 3
"""The most segments one column is wrapped into."""

BANDS_FROM = 10
"""Tableaus of at least this many columns may be laid out in several rows
(:attr:`Layout.bands`, up to :data:`MAX_BANDS`)."""

MAX_BANDS = 3
"""The most rows of columns a tableau is laid out in."""

BAND_GAP = 0.25
"""Vertical gap between two rows of columns (above the lower row's key letters), in
card widths."""

RESERVE_STACK = 0.06
"""Offset between the cards of a face-down reserve, in card heights: a tight stack whose
edges show how many cards are left (PySolFC draws Canfield's reserve 10 px apart)."""

BAND_PREFERENCE = 0.9
"""Each row of columns beyond the first counts the plan's card width by this factor, so
several rows win only where they give clearly larger cards."""

# Preference between arrangements that give about the same card size: a simple grid
# reads best, a side column of foundations least.
_PREFERENCE = {"grid": 1.0, "row": 0.96, "stacked": 0.93, "side": 0.9}


class PileCounts(Protocol):
    """What the layout needs to know of a variant; :class:`~solitaire_core.variant.Rules`
    has it."""

    @property
    def columns(self) -> int: ...  # noqa: D102

    @property
    def cells(self) -> int: ...  # noqa: D102

    @property
    def foundations(self) -> int: ...  # noqa: D102


@attrs.frozen
class PileSlot:
    """One pile's place on the table.

    :param ref: which pile.
    :param x: left edge of the pile's bottom card, px from the canvas' left.
    :param y: top edge of the pile's bottom card, px from the canvas' top.
    :param key: the pile's key letter or digit (empty when the pile has none).
    :param label_x: centre of the key letter, px.
    :param label_y: centre of the key letter, px.
    """

    ref: PileRef
    x: int
    y: int
    key: str
    label_x: int
    label_y: int


@attrs.frozen
class Layout:
    """Where everything goes for one window size.

    :param width: canvas width, px.
    :param height: canvas height, px.
    :param card_w: card width, px.
    :param card_h: card height, px.
    :param fan: normal offset between the cards of a column, px.
    :param tableau_bottom: the lowest y (px) a column's last card may reach before the
        column is compressed.
    :param font_px: pixel size for the key letters.
    :param arrangement: one of :data:`ARRANGEMENTS`.
    :param columns: the tableau columns, left to right.
    :param cells: the cells.
    :param foundations: the foundations.
    :param segments: how many segments side by side a long column may be wrapped into
        (1: a column is one fan).
    :param segment_rows: the cards a segment holds before the column continues in the
        next segment, to the right (0 with one segment).
    :param segment_dx: the horizontal offset from one segment to the next, px.
    :param bands: how many rows of columns the tableau is laid out in (1: one row);
        the columns fill the rows left to right, top row first.
    :param band_span: with several rows, the height (px) from the top of a row's
        first card to the lowest y its cards may reach before the column is
        compressed (0 with one row: :attr:`tableau_bottom` is the limit).
    :param placed: the columns stand at the places of the variant's ``tableau.layout``
        (Pyramid, TriPeaks: :func:`compute_layout`), where they overlap: a later column
        lies over an earlier one, so hit testing looks at the later columns first.
    """

    width: int
    height: int
    card_w: int
    card_h: int
    fan: int
    tableau_bottom: int
    font_px: int
    arrangement: str
    columns: tuple[PileSlot, ...]
    cells: tuple[PileSlot, ...]
    foundations: tuple[PileSlot, ...]
    segments: int = 1
    segment_rows: int = 0
    segment_dx: int = 0
    bands: int = 1
    band_span: int = 0
    talon: tuple[PileSlot, ...] = ()
    waste_fan: int = 1
    reserve: tuple[PileSlot, ...] = ()
    reserve_fan: int = 0
    reserve_receives: bool = False
    placed: bool = False

    @property
    def slots(self) -> tuple[PileSlot, ...]:
        """Every pile: columns, then cells, then foundations, then the stock and the
        waste (:attr:`talon`), then the reserve (:attr:`reserve`)."""
        return self.columns + self.cells + self.foundations + self.talon + self.reserve

    def slot(self, ref: PileRef) -> PileSlot:
        """The place of a numbered pile (the stock, the waste and the reserve too).

        :raises IndexError: when the variant has no such pile.
        :raises ValueError: for an unnumbered reference.
        """
        if ref.kind in _SINGLE_KINDS:
            for slot in self.talon + self.reserve:
                if slot.ref.kind is ref.kind:
                    return slot
            raise IndexError(f"this game has no {_SINGLE_KINDS[ref.kind]}")
        return ref.select(self.columns, self.cells, self.foundations)

    def reserve_step(self, cards: int) -> float:
        """Offset (px) between the cards of the reserve holding ``cards`` cards:
        :attr:`reserve_fan`, or less so its top card ends above :attr:`tableau_bottom`."""
        if cards <= 1 or not self.reserve:
            return float(self.reserve_fan)
        room = self.tableau_bottom - self.reserve[0].y - self.card_h
        return max(1.0, min(float(self.reserve_fan), room / (cards - 1)))

    @property
    def waste_dx(self) -> int:
        """Horizontal offset (px) between the fanned top cards of the waste."""
        return round(self.card_w * WASTE_FAN)

    def per_segment(self, cards: int) -> int:
        """How many cards of a column holding ``cards`` cards each segment takes: all of
        them while they fit one segment (or the layout has one), else
        :attr:`segment_rows`, more when even :attr:`segments` full segments cannot hold
        them (then the segments are compressed)."""
        if self.segments <= 1 or cards <= self.segment_rows:
            return cards
        return max(self.segment_rows, -(-cards // self.segments))

    def column_bottom(self, ref: PileRef | None = None) -> int:
        """The lowest y (px) the cards of column ``ref`` (default the first) may reach:
        :attr:`tableau_bottom`, or the bottom of its row when the tableau has several
        (:attr:`bands`)."""
        if not self.columns:
            return self.tableau_bottom
        slot = self.columns[0] if ref is None else self.slot(ref)
        if self.bands <= 1:
            return self.tableau_bottom
        return min(self.tableau_bottom, slot.y + self.band_span)

    def fan_step(self, cards: int, ref: PileRef | None = None) -> float:
        """Offset (px) between the cards of column ``ref`` (default the first) holding
        ``cards`` cards: the normal :attr:`fan`, or less so the last card of a segment
        ends above :meth:`column_bottom` (never below :data:`FLOOR_FAN` card heights)."""
        cards = self.per_segment(cards)
        if cards <= 1:
            return float(self.fan)
        if ref is None or ref.kind is not PileKind.TABLEAU:
            ref = self.columns[0].ref if self.columns else None
        top = self.slot(ref).y if ref is not None else 0
        room = self.column_bottom(ref) - top - self.card_h
        return max(FLOOR_FAN * self.card_h, min(float(self.fan), room / (cards - 1)))

    def card_xy(self, ref: PileRef, index: int, cards: int) -> tuple[int, int]:
        """Top-left corner (px) of the card at ``index`` (0 = bottom) of a pile holding
        ``cards`` cards; cells and foundations are not fanned. A column longer than a
        segment continues at the top of the next segment, :attr:`segment_dx` to the
        right."""
        slot = self.slot(ref)
        if ref.kind is PileKind.WASTE:
            first = cards - min(self.waste_fan, cards)  # the first card fanned out
            return slot.x + max(0, index - first) * self.waste_dx, slot.y
        if ref.kind is PileKind.RESERVE:
            return slot.x, slot.y + round(max(0, index) * self.reserve_step(cards))
        if ref.kind is not PileKind.TABLEAU or index <= 0:
            return slot.x, slot.y
        segment, row = divmod(index, self.per_segment(cards))
        return slot.x + segment * self.segment_dx, slot.y + round(row * self.fan_step(cards, ref))

    def cards_box(self, ref: PileRef, first: int, cards: int) -> tuple[int, int, int, int]:
        """The box ``(x0, y0, x1, y1)`` around the cards from ``first`` to the top of a
        pile holding ``cards`` cards (across the segments of a wrapped column)."""
        corners = [self.card_xy(ref, i, max(cards, 1)) for i in range(max(0, first), cards)]
        corners = corners or [self.card_xy(ref, 0, 1)]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return min(xs), min(ys), max(xs) + self.card_w, max(ys) + self.card_h

    def pile_box(self, ref: PileRef, cards: int) -> tuple[int, int, int, int]:
        """The box ``(x0, y0, x1, y1)`` covered by a pile of ``cards`` cards (the empty
        outline when it holds none); a wrapped column's box holds all its segments."""
        slot = self.slot(ref)
        x1 = slot.x + self.card_w
        if ref.kind is PileKind.TABLEAU and cards > 1:
            rows = self.per_segment(cards)
            x_last = self.card_xy(ref, cards - 1, cards)[0]
            y_last = self.card_xy(ref, min(cards, rows) - 1, cards)[1]
            return slot.x, slot.y, x_last + self.card_w, y_last + self.card_h
        if ref.kind is PileKind.WASTE and cards > 1:
            x1 += (min(self.waste_fan, cards) - 1) * self.waste_dx
        if ref.kind is PileKind.RESERVE and cards > 1:
            return slot.x, slot.y, x1, self.card_xy(ref, cards - 1, cards)[1] + self.card_h
        return slot.x, slot.y, x1, slot.y + self.card_h

    def card_at(
        self, x: float, y: float, counts: Mapping[PileRef, int]
    ) -> tuple[PileRef, int | None] | None:
        """What is under the point ``(x, y)``: ``(pile, card index)``, ``(pile, None)`` for
        an empty pile's outline, or ``None`` for the bare table.

        :param counts: cards per pile (piles not listed count as empty).

        In a layout of overlapping columns (:attr:`placed`) the card drawn on top is
        found: the later columns first, and an emptied column's place is bare table.
        """
        for slot in self._hit_order(counts):
            n = counts.get(slot.ref, 0)
            x0, y0, x1, y1 = self.pile_box(slot.ref, n)
            if not (x0 <= x < x1 and y0 <= y < y1):
                continue
            if n == 0:
                return slot.ref, None
            if slot.ref.kind is PileKind.RESERVE:  # the highest card whose top is above y
                step = self.reserve_step(n)
                return slot.ref, min(n - 1, int((y - y0) // step)) if step > 0 else n - 1
            if slot.ref.kind is not PileKind.TABLEAU:
                return slot.ref, n - 1
            rows = self.per_segment(n)
            segment = int((x - x0) // self.segment_dx) if rows < n and self.segment_dx else 0
            segment = min(max(segment, 0), (n - 1) // rows)
            last = min(n, (segment + 1) * rows) - 1  # the top card of that segment
            step = self.fan_step(n, slot.ref)
            row = int((y - y0) // step) if step > 0 else rows
            return slot.ref, max(0, min(last, segment * rows + row))
        return None

    def _hit_order(self, counts: Mapping[PileRef, int]) -> tuple[PileSlot, ...]:
        """The piles in the order hit testing looks at them: all of them, and in a
        layout of overlapping columns (:attr:`placed`) the columns still holding cards
        last drawn first (the one on top), the emptied ones not at all."""
        if not self.placed:
            return self.slots
        columns = tuple(s for s in reversed(self.columns) if counts.get(s.ref, 0))
        return columns + self.cells + self.foundations + self.talon + self.reserve

    def drop_target(
        self,
        box: tuple[float, float, float, float],
        counts: Mapping[PileRef, int],
        prefer: Collection[PileRef] = (),
    ) -> PileRef | None:
        """The pile a dragged card whose box is ``(x0, y0, x1, y1)`` is dropped on: the
        one its box overlaps most (a column counts from its top down to its last card;
        the pile's own card area if it is empty), or ``None`` when it overlaps none. The
        reserve is a target only where it takes cards (:attr:`reserve_receives`: Miss
        Milligan).

        :param prefer: the piles the card may go to (the table passes the legal
            targets): one of them the box overlaps wins over any other pile, so a card
            dropped across overlapping columns (Pyramid) lands on the free card it pairs
            with rather than on a covered card under it.
        """
        best: tuple[bool, float, PileRef] | None = None
        bx0, by0, bx1, by1 = box
        piles = self._hit_order(counts)
        for slot in piles:
            if slot.ref.kind is PileKind.RESERVE and not self.reserve_receives:
                continue
            x0, y0, x1, y1 = self.pile_box(slot.ref, counts.get(slot.ref, 0))
            w = min(bx1, x1) - max(bx0, x0)
            h = min(by1, y1) - max(by0, y0)
            if w <= 0 or h <= 0:
                continue
            score = (slot.ref in prefer, w * h, slot.ref)
            if best is None or score[:2] > best[:2]:
                best = score
        return best[2] if best else None


def talon_piles(counts: PileCounts) -> tuple[PileRef, ...]:
    """The stock and the waste of a variant, as the table shows them: none without a
    stock, the stock alone when it deals rows onto the columns (Spider, Gypsy), the stock
    and the waste when it deals to a waste (Klondike)."""
    deal = getattr(counts, "stock_deal", "")
    if deal == "waste":
        return (PileRef(PileKind.STOCK, 0), PileRef(PileKind.WASTE, 0))
    if deal in ("row", "foundation"):  # Spider's rows, Golf's deals onto the foundation
        return (PileRef(PileKind.STOCK, 0),)
    return ()


def reserve_piles(counts: PileCounts) -> tuple[PileRef, ...]:
    """The reserve of a variant (``Rules.has_reserve``: Canfield, Miss Milligan), or
    none."""
    has = getattr(counts, "has_reserve", False) or getattr(counts, "reserve_cards", 0)
    return (PileRef(PileKind.RESERVE, 0),) if has else ()


def pile_keys(counts: PileCounts) -> dict[PileRef, str]:
    """The key of every pile (module docstring): columns ``a, b, ...``, cells ``1..9, 0``,
    foundations the letters after the columns', cells past the tenth the letters after
    the foundations'. The stock and the waste come first in the top row, left of the
    cells, and take the first digits (Klondike: stock ``1``, waste ``2``), the reserve
    the next one (Canfield: ``3``). Piles beyond the keys available get none (not in the
    result)."""
    first = talon_piles(counts) + reserve_piles(counts)
    places = _places(counts)
    if first:
        planned = pile_keys(
            _Counts(counts.columns, counts.cells + len(first), counts.foundations, layout=places)
        )
        return _talon_first(planned, first, counts.cells)
    keys: dict[PileRef, str] = {}
    # The cards of a layout (Pyramid's 28) have no letters: the arrow keys reach them.
    lettered = 0 if places else counts.columns
    letters = iter(string.ascii_lowercase)
    for i in range(lettered):
        letter = next(letters, None)
        if letter is None:
            break
        keys[PileRef(PileKind.TABLEAU, i)] = letter
    letters = iter(string.ascii_lowercase[min(lettered, 26) :])
    for i in range(counts.foundations):
        letter = next(letters, None)
        if letter is None:
            break
        keys[PileRef(PileKind.FOUNDATION, i)] = letter
    for i, digit in zip(range(counts.cells), "1234567890"):
        keys[PileRef(PileKind.CELL, i)] = digit
    # Cells past the tenth (Flower Garden's 16-card reserve) take the letters after the
    # foundations' (k-p there), so every card of the reserve has a key.
    for i in range(10, counts.cells):
        letter = next(letters, None)
        if letter is None:
            break
        keys[PileRef(PileKind.CELL, i)] = letter
    return keys


_V = TypeVar("_V")

WASTE_FAN = 0.22
"""Horizontal offset between the fanned top cards of the waste (Klondike (Draw 3) shows
its top three), in card widths."""


_SINGLE_KINDS = {PileKind.STOCK: "stock", PileKind.WASTE: "waste", PileKind.RESERVE: "reserve"}


@attrs.frozen
class _Counts:
    """Pile counts with the stock and the waste counted as cells (or the reserve as a
    column), for planning."""

    columns: int
    cells: int
    foundations: int
    deal: object = None
    stock_deal: str = ""
    draw: int = 1
    layout: tuple[tuple[float, float], ...] = ()


def _talon_first(
    by_cell: Mapping[PileRef, _V], talon: tuple[PileRef, ...], cells: int
) -> dict[PileRef, _V]:
    """Keys (or slots) planned with the talon as the first cells, given back under the
    talon's own references and the real cells' numbers."""
    out: dict[PileRef, _V] = {}
    n = len(talon)
    for ref, value in by_cell.items():
        if ref.kind is PileKind.CELL and ref.index is not None:
            if ref.index < n:
                out[talon[ref.index]] = value
            elif ref.index - n < cells:
                out[PileRef(PileKind.CELL, ref.index - n)] = value
        else:
            out[ref] = value
    return out


RUN_ON_TOP = 12
"""The most cards a run built on a column's top card adds (13 ranks, no wrap)."""


def column_plan(state: GameState) -> dict[str, int]:
    """What the table asks :func:`~solitaire_tk.table.layout.compute_layout` to plan a column
    for: nothing where the deal recipe fixes the column lengths (the layout reads them);
    where the deal decides them (``deal.order = "kings-start-columns"``: Der
    Katzenschwanz, Die Schlange, up to 70 cards in one column), the longest column of
    ``state`` and :data:`RUN_ON_TOP` more, since nothing refills an emptied column there
    and a column only grows by a run built on its top card."""
    if state.rules.deal.columns:
        return {}
    return {"longest": max((len(c) for c in state.columns), default=1), "grow": RUN_ON_TOP}


def pile_name(ref: PileRef, keys: Mapping[PileRef, str]) -> str:
    """A pile as the table labels it, for sentences the player reads: ``"column C"``,
    ``"cell 2"``, ``"foundation K"`` (by its key from :func:`pile_keys`; a pile without
    a key by its number, counted from 1; an unnumbered one as ``"a cell"``,
    ``"a foundation"``), in the language spoken."""
    key = keys.get(ref, "")
    shown = key.upper() if key.isalpha() else key
    if ref.kind is PileKind.STOCK:
        return _("the stock")
    if ref.kind is PileKind.WASTE:
        return _("the waste")
    if ref.kind is PileKind.RESERVE:
        return _("the reserve")
    if ref.index is None:
        return {PileKind.TABLEAU: _("a column"), PileKind.CELL: _("a cell")}.get(
            ref.kind, _("a foundation")
        )
    name = {PileKind.TABLEAU: _("column {key}"), PileKind.CELL: _("cell {key}")}.get(
        ref.kind, _("foundation {key}")
    )
    return name.format(key=shown or ref.index + 1)


# --------------------------------------------------------------------------- computing


@attrs.frozen
class _Metrics:
    """Sizes derived from one card width (all px)."""

    w: int
    h: int
    gap: float
    margin: float
    label: float  # height of the strip a key letter sits in
    font: int

    @staticmethod
    def of(w: int) -> _Metrics:
        font = max(10, min(24, round(0.17 * w)))
        return _Metrics(
            w=w,
            h=round(w * ASPECT),
            gap=GAP * w,
            margin=max(8.0, 0.3 * w),
            label=1.55 * font,
            font=font,
        )


@attrs.frozen
class _Plan:
    """An arrangement's extent in card-relative units, as functions of the metrics."""

    name: str
    cells: int
    foundations: int
    columns: int
    design_rows: int  # cards a column should show (the dealt column and EXTRA_ROWS more)
    grow: int = EXTRA_ROWS  # of which beyond the dealt column
    segments: int = 1  # a long column wraps into this many segments side by side
    bands: int = 1  # rows of columns

    @property
    def rows(self) -> int:
        """The cards one segment is planned to show."""
        return -(-self.design_rows // self.segments)

    @property
    def per_band(self) -> int:
        """Columns in a row of the tableau (the last row may hold fewer)."""
        return -(-self.columns // self.bands)


def _column_pitch(plan: _Plan, m: _Metrics) -> float:
    """Distance (px) from one column to the next: a card and a gap, wider with segments."""
    return plan.segments * m.w + (plan.segments - 1) * SEGMENT_GAP * m.w + m.gap


def _widths(plan: _Plan, m: _Metrics) -> tuple[float, float]:
    """(width of the whole table, width of the tableau grid) for ``plan`` at ``m``."""
    pitch = m.w + m.gap
    cols = plan.per_band
    grid = cols * _column_pitch(plan, m) - m.gap if cols else 0.0
    c, f = plan.cells, plan.foundations
    sep = 0.5 * m.w if c and f else 0.0
    if plan.name == "grid":
        top = 0.0
    elif plan.name == "row":
        top = (c + f) * pitch - m.gap + sep
    elif plan.name == "stacked":
        top = (math.ceil(c / 2) + math.ceil(f / 2)) * pitch - m.gap + sep
    else:  # side
        top = c * pitch - m.gap if c else 0.0
        k = _side_columns(plan, m, 10**9)
        grid = grid + 0.35 * m.w + k * pitch
    return max(grid, top) + 2 * m.margin, grid


def _side_columns(plan: _Plan, m: _Metrics, height: float) -> int:
    """How many columns the foundations of a "side" plan need to fit ``height``."""
    rows_fit = max(1, int((height - 2 * m.margin + m.gap) // (m.h + m.label + m.gap)))
    return max(1, math.ceil(plan.foundations / rows_fit)) if plan.foundations else 0


def _top_rows(plan: _Plan) -> int:
    if plan.name == "stacked":
        return 2
    if plan.name == "side":
        return 1 if plan.cells else 0
    return 1 if (plan.cells or plan.foundations) else 0


def _tableau_y(plan: _Plan, m: _Metrics) -> float:
    """Top of the tableau's first card."""
    rows = _top_rows(plan)
    top = rows * (m.label + m.h) + max(0, rows - 1) * 0.5 * m.gap
    gap_below = 0.3 * m.w if rows else 0.0
    return m.margin + top + gap_below + m.label


def _tableau_height(plan: _Plan, m: _Metrics) -> float:
    """Height a column of ``design_rows`` cards needs: the dealt cards at :data:`FAN`,
    all of them at :data:`PLAN_FAN` at least; a wrapped column (:attr:`_Plan.segments`)
    its segment's share at :data:`PLAN_FAN`."""
    if plan.segments > 1:
        return m.h + (plan.rows - 1) * PLAN_FAN * m.h
    dealt = max(1, plan.design_rows - plan.grow)
    band = m.h + max((dealt - 1) * FAN, (plan.design_rows - 1) * PLAN_FAN) * m.h
    return plan.bands * band + (plan.bands - 1) * _band_gap(m)


def _band_gap(m: _Metrics) -> float:
    """From the lowest card of a row of columns to the top of the next row's cards: a
    gap and the strip of the key letters."""
    return BAND_GAP * m.w + m.label


def _height(plan: _Plan, m: _Metrics) -> float:
    """Height the plan needs to show columns of ``design_rows`` cards (:func:`_tableau_height`)."""
    need = _tableau_y(plan, m) + _tableau_height(plan, m) + m.margin
    if plan.name == "side" and plan.foundations:
        need = max(need, 2 * m.margin + plan.foundations * (m.h + m.label + m.gap))
    return need


def _fits(plan: _Plan, w: int, width: int, height: int) -> bool:
    m = _Metrics.of(w)
    if plan.name == "side":
        k = _side_columns(plan, m, height)
        pitch = m.w + m.gap
        total = plan.per_band * pitch - m.gap + 0.35 * m.w + k * pitch + 2 * m.margin
        rows = math.ceil(plan.foundations / k) if k else 0
        tall = _tableau_y(plan, m) + _tableau_height(plan, m) + m.margin
        tall = max(tall, 2 * m.margin + rows * (m.h + m.label + m.gap))
        top_row = plan.cells * pitch - m.gap + 2 * m.margin
        return max(total, top_row) <= width and tall <= height
    return _widths(plan, m)[0] <= width and _height(plan, m) <= height


def _best_width(plan: _Plan, width: int, height: int) -> int:
    lo, hi = MIN_CARD_WIDTH, MAX_CARD_WIDTH
    if not _fits(plan, lo, width, height):
        return lo
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _fits(plan, mid, width, height):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _plans(counts: PileCounts, design_rows: int, grow: int = EXTRA_ROWS) -> list[_Plan]:
    c, f, n = counts.cells, counts.foundations, counts.columns
    names = ["row", "stacked"]
    if c + f <= n:
        names.insert(0, "grid")
    if f and c <= n:
        names.append("side")
    if c <= 2 and f <= 2:
        names.remove("stacked")
    banded = [
        _Plan(name, c, f, n, design_rows, grow, bands=k)
        for k in range(2, MAX_BANDS + 1)
        if n >= BANDS_FROM and -(-n // k) >= 4
        for name in names
        if (name != "grid" or c + f <= -(-n // k)) and (name != "side" or c <= -(-n // k))
    ]
    plans = [_Plan(name, c, f, n, design_rows, grow) for name in names]
    if design_rows >= WRAP_FROM:  # long columns may wrap (the top row keeps its own pitch)
        plans += [
            _Plan(p.name, c, f, n, design_rows, grow, k)
            for k in range(2, MAX_SEGMENTS + 1)
            for p in plans
            if p.name in ("row", "stacked")
        ]
    return plans + banded


def compute_layout(
    counts: PileCounts,
    width: int,
    height: int,
    *,
    longest: int | None = None,
    grow: int = EXTRA_ROWS,
    arrangement: str | None = None,
    bands: int | None = None,
) -> Layout:
    """Lay out a variant's piles in a ``width`` x ``height`` px canvas.

    :param counts: the variant's pile counts (a :class:`~solitaire_core.variant.Rules`).
    :param width: canvas width, px (at least 1).
    :param height: canvas height, px (at least 1).
    :param longest: the longest column the deal makes; by default read from the rules'
        deal recipe (``counts.deal.columns``), else 7. The layout plans room for
        ``grow`` more cards before columns are compressed.
    :param grow: how many cards a column may gain beyond ``longest`` (default
        :data:`EXTRA_ROWS`); the table passes 12 for King-started columns (a run built
        down on a column's top card adds at most 12). When the plan reaches
        :data:`WRAP_FROM` cards, arrangements that wrap a long column into up to
        :data:`MAX_SEGMENTS` segments side by side compete too, so every card still
        shows its corner index at :data:`PLAN_FAN` card heights or more.
    :param arrangement: force one of :data:`ARRANGEMENTS` (for tests and screenshots),
        of :data:`PLACED_ARRANGEMENTS` for a variant with a ``tableau.layout``; by
        default the one giving the largest cards (ties favour the simpler).
    :param bands: force the tableau into this many rows of columns (for tests and
        screenshots); by default the plans of 1 to :data:`MAX_BANDS` rows compete from
        :data:`BANDS_FROM` columns on (module docstring).
    :raises ValueError: for an unknown or impossible ``arrangement`` or ``bands``.
    """
    width, height = max(1, int(width)), max(1, int(height))
    if longest is None:
        recipe = getattr(getattr(counts, "deal", None), "columns", None)
        longest = max(recipe) if recipe else 7
    places = _places(counts)
    if places:
        return _placed_layout(counts, places, width, height, arrangement)
    if reserve_piles(counts):
        return _with_reserve(
            counts, width, height, longest=longest, grow=grow, arrangement=arrangement, bands=bands
        )
    talon = talon_piles(counts)
    if talon:
        # The stock and the waste are planned as the first cells (left of the top row).
        planned = compute_layout(
            _Counts(counts.columns, counts.cells + len(talon), counts.foundations),
            width,
            height,
            longest=longest,
            grow=grow,
            arrangement=arrangement,
            bands=bands,
        )
        slots = planned.cells
        moved = {s.ref: s for s in slots}
        placed = _talon_first(moved, talon, counts.cells)
        keys = pile_keys(counts)

        def relabel(ref: PileRef, slot: PileSlot) -> PileSlot:
            return attrs.evolve(slot, ref=ref, key=keys.get(ref, ""))

        cells = tuple(
            relabel(PileRef(PileKind.CELL, i), placed[PileRef(PileKind.CELL, i)])
            for i in range(counts.cells)
        )
        return attrs.evolve(
            planned,
            cells=cells,
            talon=tuple(relabel(ref, placed[ref]) for ref in talon),
            waste_fan=max(1, min(3, getattr(counts, "draw", 1))),
        )
    plans = _plans(counts, max(1, longest) + grow, grow)
    if arrangement is not None:
        if arrangement not in ARRANGEMENTS:
            raise ValueError(f"arrangement must be one of {ARRANGEMENTS}, got {arrangement!r}")
        plans = [p for p in plans if p.name == arrangement]
        if not plans:
            raise ValueError(f"arrangement {arrangement!r} does not fit these piles")
    if bands is not None:
        plans = [p for p in plans if p.bands == bands]
        if not plans:
            raise ValueError(f"{bands} rows of columns do not fit these piles")
    scored = [(_best_width(p, width, height), p) for p in plans]
    _, plan = max(
        scored,
        key=lambda s: (
            s[0]
            * _PREFERENCE[s[1].name]
            * 0.97 ** (s[1].segments - 1)
            * BAND_PREFERENCE ** (s[1].bands - 1),
            -plans.index(s[1]),
        ),
    )
    w = next(w for w, p in scored if p is plan)
    return _place(plan, _Metrics.of(w), width, height, pile_keys(counts))


def _with_reserve(
    counts: PileCounts,
    width: int,
    height: int,
    *,
    longest: int,
    grow: int,
    arrangement: str | None,
    bands: int | None,
) -> Layout:
    """:func:`compute_layout` for a variant with a reserve (module docstring): planned
    with one column more, whose place goes to the reserve, moved under the stock; the
    columns stand under the foundations where these are in one row and no fewer."""
    cards = getattr(counts, "reserve_cards", 0)
    face_down = bool(getattr(counts, "reserve_face_down", False))
    if not face_down:  # fanned like a column: planned so every card shows its index
        grow = max(grow, cards - max(1, longest))
    planned = compute_layout(
        _Counts(
            counts.columns + 1,
            counts.cells,
            counts.foundations,
            stock_deal=getattr(counts, "stock_deal", ""),
            draw=getattr(counts, "draw", 1),
        ),
        width,
        height,
        longest=longest,
        grow=grow,
        arrangement=arrangement,
        bands=bands,
    )
    keys = pile_keys(counts)
    w = planned.card_w

    def moved(slot: PileSlot, ref: PileRef, x: int | None = None) -> PileSlot:
        x = slot.x if x is None else x
        return attrs.evolve(
            slot, ref=ref, key=keys.get(ref, ""), x=x, label_x=slot.label_x + x - slot.x
        )

    first = planned.columns[0]
    stock = next((s for s in planned.talon if s.ref.kind is PileKind.STOCK), None)
    reserve_x = min(first.x, stock.x) if stock is not None else first.x
    reserve = moved(first, PileRef(PileKind.RESERVE, 0), reserve_x)
    columns = [
        moved(slot, PileRef(PileKind.TABLEAU, i)) for i, slot in enumerate(planned.columns[1:])
    ]
    founds = planned.foundations
    n = len(columns)
    if (
        planned.bands == 1
        and planned.segments == 1
        and 0 < n <= len(founds)
        and len({f.y for f in founds}) == 1
        and founds[-n].x >= reserve_x + w + GAP * w
    ):
        # PySolFC's Canfield: the columns under the foundations, right of the reserve.
        columns = [moved(c, c.ref, f.x) for c, f in zip(columns, founds[-n:])]
    return attrs.evolve(
        planned,
        columns=tuple(columns),
        cells=tuple(moved(s, s.ref) for s in planned.cells),
        foundations=tuple(moved(s, s.ref) for s in founds),
        talon=tuple(moved(s, s.ref) for s in planned.talon),
        reserve=(reserve,),
        reserve_fan=max(2, round(RESERVE_STACK * planned.card_h)) if face_down else planned.fan,
        reserve_receives=bool(getattr(counts, "reserve_takes_runs", False)),
    )


def _fan(plan: _Plan, m: _Metrics, tab_y: float, height: int) -> float:
    """The normal fan offset: :data:`FAN` card heights, more (up to :data:`MAX_FAN`) when
    the window has room for the planned column length."""
    room = _band_span(plan, m, tab_y, height) - m.h
    if plan.rows <= 1:
        return FAN * m.h
    return max(FAN * m.h, min(MAX_FAN * m.h, room / (plan.rows - 1)))


def _band_span(plan: _Plan, m: _Metrics, tab_y: float, height: int) -> float:
    """Height (px) of one row of columns: the room below ``tab_y``, shared by the rows."""
    room = height - m.margin - tab_y
    return (room - (plan.bands - 1) * _band_gap(m)) / plan.bands


def _place(
    plan: _Plan, m: _Metrics, width: int, height: int, keys: Mapping[PileRef, str]
) -> Layout:
    pitch = m.w + m.gap
    n, c, f = plan.columns, plan.cells, plan.foundations
    total_w, grid_w = _widths(plan, m)
    side_k = _side_columns(plan, m, height) if plan.name == "side" else 0
    if plan.name == "side":
        grid_w = plan.per_band * pitch - m.gap
        total_w = max(grid_w + 0.35 * m.w + side_k * pitch, c * pitch - m.gap) + 2 * m.margin
    left = (width - total_w) / 2 + m.margin  # left edge of the used area
    inner_w = total_w - 2 * m.margin
    grid_left = left + (inner_w - grid_w) / 2 if plan.name != "side" else left
    top_y = m.margin + m.label
    tab_y = _tableau_y(plan, m)

    def slot(kind: PileKind, i: int, x: float, y: float) -> PileSlot:
        ref = PileRef(kind, i)
        return PileSlot(
            ref=ref,
            x=round(x),
            y=round(y),
            key=keys.get(ref, ""),
            label_x=round(x + m.w / 2),
            label_y=round(y - m.label / 2),
        )

    col_pitch = _column_pitch(plan, m)
    span = _band_span(plan, m, tab_y, height)
    band_dy = span + _band_gap(m)
    per_band = plan.per_band
    columns = tuple(
        slot(
            PileKind.TABLEAU,
            i,
            grid_left + (i % per_band) * col_pitch,
            tab_y + (i // per_band) * band_dy,
        )
        for i in range(n)
    )
    segment_rows = 0
    if plan.segments > 1:  # as many cards per segment as fit at PLAN_FAN
        room = height - m.margin - tab_y - m.h
        segment_rows = max(plan.rows, int(room / (PLAN_FAN * m.h) + 1e-9) + 1)
    cells: list[PileSlot] = []
    founds: list[PileSlot] = []
    if plan.name == "grid":
        cells = [slot(PileKind.CELL, i, grid_left + i * pitch, top_y) for i in range(c)]
        founds = [
            slot(PileKind.FOUNDATION, i, grid_left + (per_band - f + i) * pitch, top_y)
            for i in range(f)
        ]
    elif plan.name == "row":
        row_w = (c + f) * pitch - m.gap + (0.5 * m.w if c and f else 0)
        x0 = left + (inner_w - row_w) / 2
        right = x0 + row_w
        cells = [slot(PileKind.CELL, i, x0 + i * pitch, top_y) for i in range(c)]
        founds = [
            slot(PileKind.FOUNDATION, i, right - (f - i) * pitch + m.gap, top_y) for i in range(f)
        ]
    elif plan.name == "stacked":
        per_c, per_f = math.ceil(c / 2), math.ceil(f / 2)
        row_w = (per_c + per_f) * pitch - m.gap
        if row_w <= grid_w:  # cells flush left, foundations flush right on the grid
            x0, right = grid_left, grid_left + grid_w
        else:
            x0 = left + (inner_w - row_w - 0.5 * m.w) / 2
            right = x0 + row_w + 0.5 * m.w
        row_dy = m.h + m.label + 0.5 * m.gap
        for i in range(c):
            row, col = divmod(i, per_c)
            cells.append(slot(PileKind.CELL, i, x0 + col * pitch, top_y + row * row_dy))
        for i in range(f):
            row, col = divmod(i, per_f)
            in_row = min(per_f, f - row * per_f)
            x = right - (in_row - col) * pitch + m.gap
            founds.append(slot(PileKind.FOUNDATION, i, x, top_y + row * row_dy))
    else:  # side
        cells = [slot(PileKind.CELL, i, grid_left + i * pitch, top_y) for i in range(c)]
        rows = math.ceil(f / side_k) if side_k else 0
        x0 = grid_left + grid_w + 0.35 * m.w + m.gap
        for i in range(f):
            col, row = divmod(i, rows)
            y = top_y + row * (m.h + m.label + m.gap)
            founds.append(slot(PileKind.FOUNDATION, i, x0 + col * pitch, y))
    return Layout(
        width=width,
        height=height,
        card_w=m.w,
        card_h=m.h,
        fan=math.floor(_fan(plan, m, tab_y, height)),
        tableau_bottom=round(height - m.margin),
        font_px=m.font,
        arrangement=plan.name,
        columns=columns,
        cells=tuple(cells),
        foundations=tuple(founds),
        segments=plan.segments,
        segment_rows=segment_rows,
        segment_dx=round(m.w + SEGMENT_GAP * m.w) if plan.segments > 1 else 0,
        bands=plan.bands,
        band_span=math.floor(span) if plan.bands > 1 else 0,
    )


def keys_text(keys: Mapping[PileRef, str], kinds: Sequence[PileKind] = tuple(PileKind)) -> str:
    """A short description of the keys as the table shows them, e.g. ``"columns A-J,
    cells 1-4, foundations K-N"``, ``"columns A-D, foundations E-H, stock 1, waste 2,
    reserve 3"`` (for help texts; letters work in either case, and Shift+letter sends a
    card to a cell)."""
    names = {
        PileKind.TABLEAU: "columns",
        PileKind.CELL: "cells",
        PileKind.FOUNDATION: "foundations",
        PileKind.STOCK: "stock",
        PileKind.WASTE: "waste",
        PileKind.RESERVE: "reserve",
    }
    parts = []
    for kind in kinds:
        got = [k.upper() for ref, k in keys.items() if ref.kind is kind]
        # Digits and letters apart: Flower Garden's reserve is "cells 1-0 and K-P".
        runs = [[k for k in got if k.isdigit()], [k for k in got if not k.isdigit()]]
        spans = [f"{r[0]}-{r[-1]}" if len(r) > 1 else r[0] for r in runs if r]
        if spans:
            parts.append(f"{names[kind]} " + " and ".join(spans))
    return ", ".join(parts)


# --------------------------------------------------------------------------- placed columns

_PLACED_PREFERENCE = {"sides": 1.0, "below": 0.97}
# PySolFC's Pyramid keeps its talon and foundation beside the pyramid: "below" wins only
# where it gives clearly larger cards (the three peaks, twice as wide as high).


def _places(counts: PileCounts) -> tuple[tuple[float, float], ...]:
    """The ``tableau.layout`` places of a variant (``Rules.layout``), or ``()``."""
    return tuple(getattr(counts, "layout", ()) or ())


@attrs.frozen
class _PlacedPlan:
    """Sizes (px) of a layout of placed columns with the other piles round it, for
    one card width."""

    name: str
    m: _Metrics
    places: tuple[tuple[float, float], ...]
    left: int  # piles at the left ("sides") or first in the row ("below")
    right: int  # the foundations

    @property
    def dx(self) -> float:
        """One card width of the layout, in px: a card and a gap."""
        return self.m.w + self.m.gap

    @property
    def dy(self) -> float:
        """One card height of the layout, in px: a card and a gap."""
        return self.m.h + self.m.gap

    @property
    def block(self) -> tuple[float, float]:
        """Width and height of the layout's cards together."""
        xs = [x for x, _ in self.places]
        ys = [y for _, y in self.places]
        return (
            (max(xs) - min(xs)) * self.dx + self.m.w,
            (max(ys) - min(ys)) * self.dy + self.m.h,
        )

    @property
    def pile_h(self) -> float:
        """Height one pile beside the layout takes: its key strip, the card, and the
        stock's count under it."""
        return self.m.label + self.m.h + self.m.label

    @property
    def row_w(self) -> float:
        """Width of the row of other piles under the layout (``"below"``)."""
        pitch = self.m.w + self.m.gap
        sep = 0.5 * self.m.w if self.left and self.right else 0.0
        return (self.left + self.right) * pitch - self.m.gap + sep

    def size(self) -> tuple[float, float]:
        """Width and height of the whole table."""
        m = self.m
        bw, bh = self.block
        if self.name == "sides":
            width = bw + (1.5 * m.w if self.left else 0) + (1.5 * m.w if self.right else 0)
            tall = max(m.label + bh, self.left * self.pile_h, self.right * self.pile_h)
            return width + 2 * m.margin, tall + 2 * m.margin
        width = max(bw, self.row_w)
        rows = 0.3 * m.w + self.pile_h if self.left + self.right else 0.0
        return width + 2 * m.margin, m.label + bh + rows + 2 * m.margin


def _placed_layout(
    counts: PileCounts,
    places: tuple[tuple[float, float], ...],
    width: int,
    height: int,
    arrangement: str | None,
) -> Layout:
    """:func:`compute_layout` for a variant with a ``tableau.layout`` (module docstring)."""
    talon = talon_piles(counts)
    left = len(talon) + counts.cells
    names = list(PLACED_ARRANGEMENTS)
    if arrangement is not None:
        if arrangement not in PLACED_ARRANGEMENTS:
            raise ValueError(
                f"arrangement must be one of {PLACED_ARRANGEMENTS} with a tableau.layout, "
                f"got {arrangement!r}"
            )
        names = [arrangement]

    def fits(name: str, w: int) -> bool:
        plan = _PlacedPlan(name, _Metrics.of(w), places, left, counts.foundations)
        need_w, need_h = plan.size()
        return need_w <= width and need_h <= height

    def best(name: str) -> int:
        lo, hi = MIN_CARD_WIDTH, MAX_CARD_WIDTH
        if not fits(name, lo):
            return lo
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if fits(name, mid) else (lo, mid - 1)
        return lo

    scored = [(best(name), name) for name in names]
    w, name = max(scored, key=lambda s: (s[0] * _PLACED_PREFERENCE[s[1]], -names.index(s[1])))
    plan = _PlacedPlan(name, _Metrics.of(w), places, left, counts.foundations)
    m = plan.m
    keys = pile_keys(counts)
    total_w, _ = plan.size()
    x0 = (width - total_w) / 2 + m.margin  # left edge of the used area
    inner_w = total_w - 2 * m.margin
    top = m.margin + m.label

    def slot(ref: PileRef, x: float, y: float) -> PileSlot:
        return PileSlot(
            ref=ref, x=round(x), y=round(y), key=keys.get(ref, ""),
            label_x=round(x + m.w / 2), label_y=round(y - m.label / 2),
        )  # fmt: skip

    bw, bh = plan.block
    others = [*talon, *(PileRef(PileKind.CELL, i) for i in range(counts.cells))]
    founds = [PileRef(PileKind.FOUNDATION, i) for i in range(counts.foundations)]
    placed: dict[PileRef, PileSlot] = {}
    if name == "sides":
        block_x = x0 + (1.5 * m.w if left else 0)
        right_x = block_x + bw + 0.5 * m.w
        for i, ref in enumerate(others):
            placed[ref] = slot(ref, x0, top + i * plan.pile_h)
        for i, ref in enumerate(founds):
            placed[ref] = slot(ref, right_x, top + i * plan.pile_h)
    else:
        block_x = x0 + (inner_w - bw) / 2
        row_y = top + bh + 0.3 * m.w + m.label
        pitch = m.w + m.gap
        rx = x0 + (inner_w - plan.row_w) / 2
        for i, ref in enumerate(others):
            placed[ref] = slot(ref, rx + i * pitch, row_y)
        rx += len(others) * pitch + (0.5 * m.w if others and founds else 0)
        for i, ref in enumerate(founds):
            placed[ref] = slot(ref, rx + i * pitch, row_y)
    min_x = min(x for x, _ in places)
    min_y = min(y for _, y in places)
    columns = tuple(
        slot(
            PileRef(PileKind.TABLEAU, i),
            block_x + (x - min_x) * plan.dx,
            top + (y - min_y) * plan.dy,
        )
        for i, (x, y) in enumerate(places)
    )
    return Layout(
        width=width,
        height=height,
        card_w=m.w,
        card_h=m.h,
        fan=math.floor(FAN * m.h),
        tableau_bottom=round(height - m.margin),
        font_px=m.font,
        arrangement=name,
        columns=columns,
        cells=tuple(placed[PileRef(PileKind.CELL, i)] for i in range(counts.cells)),
        foundations=tuple(placed[ref] for ref in founds),
        talon=tuple(placed[ref] for ref in talon),
        waste_fan=max(1, min(3, getattr(counts, "draw", 1))),
        placed=True,
    )
