"""Table geometry without a display: every variant's piles fit the window without
overlapping, the Seahaven layout the program help describes, fanning and compression,
hit testing, drop targets, and the pile keys."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from solitaire_tk.table.layout import (
    ARRANGEMENTS,
    EXTRA_ROWS,
    MIN_CARD_WIDTH,
    PLAN_FAN,
    RUN_ON_TOP,
    column_plan,
    compute_layout,
    keys_text,
    pile_keys,
    reserve_piles,
    talon_piles,
)

from solitaire_core.deal import deal
from solitaire_core.moves import PileKind, PileRef
from solitaire_core.plugins import get_registry

VARIANTS = sorted(get_registry().variants)
SIZES = [(640, 480), (800, 560), (1100, 760), (1920, 1200)]


def rules(variant: str):
    return get_registry().get(variant).resolve()


def counts(columns: int, cells: int, foundations: int, longest: int = 7) -> SimpleNamespace:
    """Pile counts of a made-up (plugin) variant."""
    deal = SimpleNamespace(columns=(longest,) * columns)
    return SimpleNamespace(columns=columns, cells=cells, foundations=foundations, deal=deal)


def boxes(layout):
    return {s.ref: (s.x, s.y, s.x + layout.card_w, s.y + layout.card_h) for s in layout.slots}


def overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def check_sane(layout, width: int, height: int) -> None:
    """Piles apart, inside the window, labels above their own pile, top area clear of
    the tableau (the columns of a ``tableau.layout`` may overlap each other, as
    :func:`test_a_layouts_cards_overlap_where_they_cover_each_other` checks, and
    nothing else)."""
    placed = boxes(layout)
    for (ra, a), (rb, b) in itertools.combinations(placed.items(), 2):
        both_columns = ra.kind is rb.kind is PileKind.TABLEAU
        assert not overlap(a, b) or (layout.placed and both_columns), f"{ra} and {rb} overlap"
    for ref, (x0, y0, x1, y1) in placed.items():
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, ref
    for slot in layout.slots:
        if layout.placed and not slot.key:
            continue  # a card of a layout: no key letter above it
        assert slot.label_y < slot.y, slot.ref
        label = (slot.label_x - 2, slot.label_y - 2, slot.label_x + 2, slot.label_y + 2)
        assert not any(overlap(label, box) for box in placed.values()), slot.ref
    if layout.placed:
        return
    tableau_top = min(s.y for s in layout.columns)
    tableau_right = max(s.x for s in layout.columns) + layout.card_w
    for slot in layout.cells + layout.foundations:
        above = slot.y + layout.card_h < tableau_top
        beside = slot.x >= tableau_right
        assert above or (layout.arrangement == "side" and beside), slot.ref


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_fits_without_overlaps(variant, size):
    layout = compute_layout(rules(variant), *size)
    assert layout.card_w > MIN_CARD_WIDTH
    assert layout.card_h == round(layout.card_w * 1.4)
    check_sane(layout, *size)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_dealt_column_fits_at_the_normal_fan_and_more_with_the_index_showing(variant):
    r = rules(variant)
    layout = compute_layout(r, 1100, 760)
    if not r.deal.columns:  # Kings start the columns: tests below
        assert layout.segments == 1  # without a position: a plan for 7 + 5 cards
        return
    dealt = max(r.deal.columns)
    assert layout.fan_step(dealt) == layout.fan
    assert layout.fan >= 0.25 * layout.card_h  # the corner index shows
    assert layout.fan_step(dealt + EXTRA_ROWS) >= PLAN_FAN * layout.card_h - 1


@pytest.mark.parametrize("variant", ["double-sea-towers", "double-seahaven"])
def test_two_deck_games_get_large_cards_at_the_default_size(variant):
    # The table's canvas in the default 1100x760 window, under the menu, the toolbar
    # and the status bar. Double Sea Towers had 65x92 px cards and 250 px unused.
    layout = compute_layout(rules(variant), 1100, 690)
    assert layout.card_w >= 65
    xs = [s.x for s in layout.slots]
    assert max(xs) + layout.card_w - min(xs) >= 0.8 * 1100


@pytest.mark.parametrize("variant", VARIANTS)
def test_cards_grow_with_the_window(variant):
    widths = [compute_layout(rules(variant), w, h).card_w for w, h in SIZES]
    assert widths == sorted(widths) and widths[0] < widths[-1]


def test_seahaven_has_reserve_on_the_left_and_foundations_on_the_right():
    layout = compute_layout(rules("seahaven"), 1100, 760)
    assert layout.arrangement == "grid"
    columns_x = [s.x for s in layout.columns]
    assert [s.x for s in layout.cells] == columns_x[:4]
    assert [s.x for s in layout.foundations] == columns_x[-4:]
    assert len({s.y for s in layout.cells + layout.foundations}) == 1


@pytest.mark.parametrize("variant", ["double-sea-towers", "eight-off", "double-seahaven"])
def test_more_top_piles_than_columns_use_another_arrangement(variant):
    r = rules(variant)
    assert r.cells + r.foundations > r.columns
    layout = compute_layout(r, 1100, 760)
    assert layout.arrangement != "grid"
    # ... and it gives cards at least as large as one plain row would.
    assert layout.card_w >= compute_layout(r, 1100, 760, arrangement="row").card_w


@pytest.mark.parametrize(
    "shape", [(3, 0, 4), (20, 12, 8), (6, 1, 12), (12, 2, 4), (4, 10, 4), (1, 1, 4)]
)
def test_plugin_shapes_lay_out_sanely(shape):
    for size in [(900, 640), (1400, 900)]:
        check_sane(compute_layout(counts(*shape), *size), *size)


def test_every_arrangement_that_applies_is_sane():
    for arrangement in ARRANGEMENTS:
        try:
            layout = compute_layout(counts(8, 4, 4), 1100, 760, arrangement=arrangement)
        except ValueError:
            continue
        assert layout.arrangement == arrangement
        check_sane(layout, 1100, 760)
    with pytest.raises(ValueError):
        compute_layout(counts(8, 4, 4), 1100, 760, arrangement="spiral")


def test_long_columns_are_compressed_to_fit():
    layout = compute_layout(rules("double-sea-towers"), 1100, 760)
    col = PileRef(PileKind.TABLEAU, 0)
    for n in (20, 30, 40):
        x0, y0, x1, y1 = layout.pile_box(col, n)
        assert y1 <= layout.tableau_bottom
        assert layout.fan_step(n) < layout.fan
    assert layout.fan_step(3) == layout.fan


def test_hit_testing_finds_each_card_of_a_column():
    layout = compute_layout(rules("seahaven"), 1100, 760)
    col = PileRef(PileKind.TABLEAU, 2)
    cnt = {col: 8}
    for index in range(8):
        x, y = layout.card_xy(col, index, 8)
        assert layout.card_at(x + 5, y + 5, cnt) == (col, index)
    x, y = layout.card_xy(col, 7, 8)
    assert layout.card_at(x + 5, y + layout.card_h - 5, cnt) == (col, 7)
    empty = layout.slot(PileRef(PileKind.CELL, 0))
    assert layout.card_at(empty.x + 3, empty.y + 3, cnt) == (empty.ref, None)
    assert layout.card_at(1, layout.height - 2, cnt) is None


def test_drop_target_is_the_pile_overlapped_most():
    layout = compute_layout(rules("seahaven"), 1100, 760)
    t4 = PileRef(PileKind.TABLEAU, 3)
    x, y = layout.card_xy(t4, 4, 5)
    box = (x + 30, y + 10, x + 30 + layout.card_w, y + 10 + layout.card_h)
    assert layout.drop_target(box, {t4: 5}) == t4
    f1 = layout.slot(PileRef(PileKind.FOUNDATION, 0))
    box = (f1.x - 10, f1.y + 5, f1.x - 10 + layout.card_w, f1.y + 5 + layout.card_h)
    assert layout.drop_target(box, {}) == f1.ref
    assert layout.drop_target((-500, -500, -400, -360), {}) is None


def test_pile_keys_scheme():
    keys = pile_keys(rules("seahaven"))
    tableau = [keys[PileRef(PileKind.TABLEAU, i)] for i in range(10)]
    assert tableau == list("abcdefghij")
    assert [keys[PileRef(PileKind.CELL, i)] for i in range(4)] == list("1234")
    assert [keys[PileRef(PileKind.FOUNDATION, i)] for i in range(4)] == list("klmn")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_pile_of_every_variant_has_its_own_key(variant):
    r = rules(variant)
    keys = pile_keys(r)
    columns = 0 if r.layout else r.columns  # a layout's cards are reached by the arrows
    assert len(keys) == columns + r.cells + r.foundations + len(talon_piles(r)) + len(
        reserve_piles(r)
    )
    assert len(set(keys.values())) == len(keys)


@pytest.mark.parametrize("size", [*SIZES, (1024, 470)])
@pytest.mark.parametrize("variant", ["pyramid", "tri-peaks"])
def test_a_layouts_cards_overlap_where_they_cover_each_other(variant, size):
    """Pyramid and TriPeaks: each card at its ``tableau.layout`` place, overlapping
    exactly the cards it covers or is covered by, rows half a card apart so each
    covered card shows its top half (its corner index); the other piles beside or
    below, apart from the cards; the stock and the waste keyed 1 and 2, the cards
    none."""
    r = rules(variant)
    layout = compute_layout(r, *size)
    assert layout.placed
    placed = boxes(layout)
    for i, j in itertools.combinations(range(r.columns), 2):
        a, b = placed[PileRef(PileKind.TABLEAU, i)], placed[PileRef(PileKind.TABLEAU, j)]
        covers = j in r.covered_by[i] or i in r.covered_by[j]
        assert overlap(a, b) == covers, (i, j)
        if covers:  # the lower card leaves the upper one's top half in sight
            assert abs(a[1] - b[1]) >= layout.card_h // 2, (i, j)
    for i, (x, y) in enumerate(r.layout):
        slot = layout.columns[i]
        assert not slot.key
        first = layout.columns[0]
        dx, dy = x - r.layout[0][0], y - r.layout[0][1]
        assert abs(slot.x - first.x - dx * (layout.card_w * 1.16)) <= 1.5, i
        assert abs(slot.y - first.y - dy * (layout.card_h + 0.16 * layout.card_w)) <= 1.5, i
    keys = pile_keys(r)
    assert keys[PileRef(PileKind.STOCK, 0)] == "1"
    if r.stock_deal == "waste":
        assert keys[PileRef(PileKind.WASTE, 0)] == "2"
    # Pyramid: the stock and the waste at the left, the discard pile at the right, as
    # PySolFC lays it out; TriPeaks: the stock and the foundation under the peaks.
    left = min(s.x for s in layout.columns)
    right = max(s.x for s in layout.columns) + layout.card_w
    bottom = max(s.y for s in layout.columns) + layout.card_h
    if layout.arrangement == "sides":
        assert all(s.x + layout.card_w < left for s in layout.talon)
        assert all(s.x > right for s in layout.foundations)
    else:
        assert all(s.y > bottom for s in layout.talon + layout.foundations)
    expected = "sides" if variant == "pyramid" or size == (1024, 470) else "below"
    assert layout.arrangement == expected


def test_hit_testing_in_a_layout_finds_the_card_on_top():
    """A point where Pyramid's cards overlap is the lower card's (drawn over the upper
    one), a card gone leaves bare table there, and a drop prefers the legal target
    among the cards it overlaps."""
    r = rules("pyramid")
    layout = compute_layout(r, 1100, 690)
    full = {PileRef(PileKind.TABLEAU, i): 1 for i in range(r.columns)}
    apex, left = layout.columns[0], layout.columns[1]  # t2 lies over t1's lower left
    x, y = apex.x + 4, left.y + 4
    assert layout.card_at(x, y, full) == (left.ref, 0)
    assert layout.card_at(x, apex.y + 4, full) == (apex.ref, 0)
    gone = {**full, left.ref: 0}
    assert layout.card_at(x, y, gone) == (apex.ref, 0)
    box = (left.x + 3, left.y + 3, left.x + 3 + layout.card_w, left.y + 3 + layout.card_h)
    assert layout.drop_target(box, full) == left.ref
    assert layout.drop_target(box, full, prefer={apex.ref}) == apex.ref


def test_the_stock_and_the_waste_lead_the_top_row_with_the_first_digits():
    """Klondike: the stock, then the waste, at the left of the top row (where PySolFC,
    Aisleriot and Windows put them), keys 1 and 2; the draw-3 waste fans its top three
    cards to the right without reaching the foundations."""
    r = rules("klondike-draw-3")
    keys = pile_keys(r)
    assert keys[PileRef(PileKind.STOCK, 0)] == "1" and keys[PileRef(PileKind.WASTE, 0)] == "2"
    layout = compute_layout(r, 1100, 760)
    stock, waste = layout.talon
    assert stock.y == waste.y == layout.foundations[0].y
    assert stock.x < waste.x < layout.foundations[0].x
    x0, _, x1, _ = layout.pile_box(PileRef(PileKind.WASTE, 0), 10)
    assert x1 - x0 > layout.card_w  # fanned
    assert x1 < layout.foundations[0].x
    assert layout.card_xy(PileRef(PileKind.WASTE, 0), 6, 10) == (waste.x, waste.y)
    assert layout.card_xy(PileRef(PileKind.WASTE, 0), 9, 10)[0] == waste.x + 2 * layout.waste_dx
    spider = compute_layout(rules("spider"), 1100, 760)
    assert [s.ref for s in spider.talon] == [PileRef(PileKind.STOCK, 0)]


def test_every_card_of_flower_gardens_reserve_has_a_key():
    r = rules("flower-garden")
    keys = pile_keys(r)
    cells = [keys[PileRef(PileKind.CELL, i)] for i in range(16)]
    assert cells == list("1234567890klmnop")  # after columns a-f and foundations g-j
    assert [keys[PileRef(PileKind.FOUNDATION, i)] for i in range(4)] == list("ghij")
    assert keys_text(keys) == "columns A-F, cells 1-0 and K-P, foundations G-J"


def test_keys_run_out_gracefully_for_huge_plugins():
    keys = pile_keys(counts(24, 12, 8))
    assert len(set(keys.values())) == len(keys)
    assert sum(1 for r in keys if r.kind is PileKind.TABLEAU) == 24
    assert sum(1 for r in keys if r.kind is PileKind.FOUNDATION) == 2  # y, z
    assert sum(1 for r in keys if r.kind is PileKind.CELL) == 10  # 1..9, 0


def _longest_deal(r, numbers=range(1, 301)) -> int:
    return max(numbers, key=lambda n: max(len(c) for c in deal(r, n).columns))


@pytest.mark.parametrize("variant", ["der-katzenschwanz", "die-schlange"])
@pytest.mark.parametrize("size", [(1100, 690), (800, 560), (1920, 1200)])
def test_king_started_columns_show_every_card_index_at_their_longest(variant, size):
    # One column of Der Katzenschwanz can be dealt 70 cards (deal 197) and grow by a run
    # of 12. The table plans for the longest column of the deal and 12 more: every card
    # of it shows its corner index (PLAN_FAN card heights), within the window, the
    # column's segments within its own pitch. (1100x690: the default window's canvas.)
    r = rules(variant)
    for number in (1, 2, 197, _longest_deal(r)):
        state = deal(r, number)
        plan = column_plan(state)
        assert plan["grow"] == RUN_ON_TOP and plan["longest"] == max(map(len, state.columns))
        layout = compute_layout(r, *size, **plan)
        check_sane(layout, *size)
        n = plan["longest"] + RUN_ON_TOP
        assert layout.fan_step(n) >= PLAN_FAN * layout.card_h - 1, (number, layout)
        if size[0] >= 1100:  # the default window and larger
            assert layout.fan_step(n) >= 12  # px: a rank and a suit one can read
        if number == 197 and size == (1100, 690):
            assert layout.segments == 2 and layout.card_w >= 40  # one fan: 7 px apart
        for i, column in enumerate(layout.columns):
            x0, y0, x1, y1 = layout.pile_box(column.ref, n)
            assert y1 <= layout.tableau_bottom and x1 <= size[0]
            if i + 1 < len(layout.columns):
                assert x1 < layout.columns[i + 1].x
            # A run across two segments is outlined as one box around both.
            rows = layout.per_segment(n)
            if rows < n:
                bx0, by0, bx1, by1 = layout.cards_box(column.ref, rows - 5, n)
                assert (bx0, by0) == (x0, y0) and bx1 - bx0 > layout.card_w and by1 <= y1
            # Every card can be found by pointing at its index.
            for index in range(n):
                x, y = layout.card_xy(column.ref, index, n)
                assert layout.card_at(x + 3, y + 3, {column.ref: n}) == (column.ref, index)


def _rows(layout):
    """The tableau's rows of columns, top first (lists of slots, left to right)."""
    ys = sorted({s.y for s in layout.columns})
    return [[s for s in layout.columns if s.y == y] for y in ys]


@pytest.mark.parametrize("size", [(1100, 690), (1024, 700), (800, 560), (1920, 1000)])
@pytest.mark.parametrize("shape", [(18, 0, 4, 3), (16, 2, 4, 4), (13, 0, 4, 4), (24, 4, 8, 3)])
def test_a_wide_tableau_takes_several_rows_each_fitting_its_columns(shape, size):
    *piles, dealt = shape
    layout = compute_layout(counts(*piles, longest=dealt), *size)
    check_sane(layout, *size)
    rows = _rows(layout)
    assert len(rows) == layout.bands
    if layout.bands == 1:
        return
    # Filled left to right, row by row, on one grid: the letters read a, b, c ...
    assert [s.ref.index for row in rows for s in row] == list(range(piles[0]))
    assert all(s.x == top.x for row in rows[1:] for s, top in zip(row, rows[0], strict=False))
    # A column's dealt cards and EXTRA_ROWS more stay above the next row's letters,
    # showing their corner index.
    for upper, lower in itertools.pairwise(rows):
        for slot in upper:
            n = dealt + EXTRA_ROWS
            assert layout.fan_step(n, slot.ref) >= PLAN_FAN * layout.card_h - 1
            bottom = layout.cards_box(slot.ref, 0, n)[3]
            assert bottom < lower[0].label_y - layout.font_px // 2
            # Longer columns are compressed into their row, not into the next one.
            assert layout.pile_box(slot.ref, dealt + RUN_ON_TOP)[3] <= lower[0].label_y
    # Rows win only where they give larger cards than one row would.
    assert layout.card_w > compute_layout(counts(*piles, longest=dealt), *size, bands=1).card_w


def test_fan_gets_two_rows_and_larger_cards_in_the_default_window():
    # One row of 18 columns gave 49 px cards in the 1100x690 canvas of the default window.
    fan = rules("fan")
    layout = compute_layout(fan, 1100, 690)
    assert layout.bands >= 2 and layout.card_w >= 80
    assert compute_layout(fan, 1100, 690, bands=1).card_w < 55
    with pytest.raises(ValueError):
        compute_layout(rules("freecell"), 1100, 690, bands=2)  # 8 columns keep one row


def test_hit_testing_and_drops_find_the_columns_of_the_second_row():
    layout = compute_layout(rules("fan"), 1100, 690)
    lower = _rows(layout)[1]
    cnt = {s.ref: 3 for s in layout.columns}
    for slot in lower:
        for index in range(3):
            x, y = layout.card_xy(slot.ref, index, 3)
            assert layout.card_at(x + 5, y + 3, cnt) == (slot.ref, index)
        x, y = layout.card_xy(slot.ref, 2, 3)
        box = (x + 4, y + 10, x + 4 + layout.card_w, y + 10 + layout.card_h)
        assert layout.drop_target(box, cnt) == slot.ref
