"""The table of the games with wide and long layouts, in a real Tk window (Xvfb via
pytest-xvfb), driven with real X input (xdotool) where input matters: Fan's 18 columns
in several rows, clicked, dragged and walked with the arrow keys across the rows; every
pile of every game labelled by the key that selects it."""

from __future__ import annotations

import shutil

import pytest
from sampling import per_game
from solitaire_tk.table.marks import slot_look
from ui_helpers import card, expected_xy, item_xy, open_app, put, settle, wait_for, xdotool

from solitaire_core.moves import PileKind, PileRef
from solitaire_core.plugins import get_registry

pytestmark = [
    pytest.mark.gui,
    pytest.mark.usefixtures("solitaire_home"),
    pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed"),
]


def column(i: int) -> PileRef:
    return PileRef(PileKind.TABLEAU, i)


@pytest.mark.parametrize("size", ["1100x760", "1024x768"])
def test_fan_lays_its_18_columns_out_in_rows_with_larger_cards(root, tmp_path, size):
    app = open_app(root, tmp_path, "fan")
    root.geometry(size)
    settle(app)
    layout = app.view.layout
    rows = sorted({slot.y for slot in layout.columns})
    assert 2 <= len(rows) <= 3
    per_row = [sum(1 for s in layout.columns if s.y == y) for y in rows]
    assert per_row[0] == max(per_row) and sum(per_row) == 18
    # Each row reads left to right and the rows follow each other: A.. on top.
    assert [s.key for s in layout.columns] == list("abcdefghijklmnopqr")
    assert layout.columns[per_row[0]].y == rows[1] and layout.columns[per_row[0]].x == (
        layout.columns[0].x
    )
    # Cards at least 60 px wide (one row of 18 gave 50 px at 1100x760) ...
    assert layout.card_w >= 60
    # ... and a column of the dealt 3 cards and 5 more stays above the next row's letters.
    state = app.session.state
    for slot in layout.columns[: per_row[0]]:
        x0, y0, x1, y1 = layout.cards_box(slot.ref, 0, len(state.pile(slot.ref)) + 5)
        below = layout.columns[slot.ref.index + per_row[0]]
        assert y1 < below.label_y - layout.font_px // 2
    # Every card of the deal is drawn where the layout puts it.
    for i, pile in enumerate(state.columns):
        for j, c in enumerate(pile):
            assert item_xy(app.view, str(c)) == layout.card_xy(column(i), j, len(pile))


def test_a_card_in_the_second_row_is_clicked_and_dragged_with_real_x_input(
    root, tmp_path, board, rules_of
):
    fan = rules_of("fan")
    app = open_app(root, tmp_path, "fan")
    root.geometry("1100x760")
    settle(app)
    layout = app.view.layout
    second = next(s.ref.index for s in layout.columns if s.y > layout.columns[0].y)
    columns = [""] * 18
    columns[0], columns[1] = "9H,6S", "KD"
    columns[second], columns[second + 1] = "2C,5S", "3C,QD"
    put(app, board(fan, columns))
    root.lift()
    root.update()
    view = app.view

    def screen(xy: tuple[int, int]) -> tuple[str, str]:
        return str(view.winfo_rootx() + xy[0]), str(view.winfo_rooty() + xy[1])

    # A click on the 5S in the second row plays it onto the 6S in the first.
    xdotool("mousemove", "--sync", *screen(view.card_center(card("5S"))))
    xdotool("click", "1")
    assert wait_for(root, lambda: app.session.moves == 1)
    assert app.session.state.columns[0][-1] == card("5S")
    assert item_xy(view, "5S") == expected_xy(view, "t1", 2)
    # Drag the QD of the second row onto the KD of the first.
    xdotool("mousemove", "--sync", *screen(view.card_center(card("QD"))))
    xdotool("mousedown", "1")
    target = view.pile_center(column(1))
    start = view.card_center(card("QD"))
    for k in range(1, 9):
        x = start[0] + (target[0] - start[0]) * k // 8
        y = start[1] + (target[1] - start[1]) * k // 8
        xdotool("mousemove", "--sync", *screen((x, y)))
        root.update()
    xdotool("mouseup", "1")
    assert wait_for(root, lambda: app.session.moves == 2)
    assert app.session.state.columns[1] == (card("KD"), card("QD"))
    assert item_xy(view, "QD") == expected_xy(view, "t2", 1)


def test_arrow_keys_walk_down_and_up_across_the_rows(root, tmp_path):
    app = open_app(root, tmp_path, "fan", deal=3)
    root.geometry("1100x760")
    settle(app)
    view, layout = app.view, app.view.layout
    per_row = sum(1 for s in layout.columns if s.y == layout.columns[0].y)
    root.lift()
    view.focus_force()
    root.update()
    xdotool("key", "Right")  # shows the focus, on column B
    assert wait_for(root, lambda: view.cursor.visible and view.cursor.pile == column(1))
    depth = len(app.session.state.columns[1])
    assert view.cursor.index == depth - 1  # B's top card, the last of its fan
    xdotool("key", "Down")  # past it: the column below B, its first card
    below = column(1 + per_row)
    assert wait_for(root, lambda: view.cursor.pile == below and view.cursor.index == 0)
    xdotool("key", "Up")  # back to the last card of the column above
    assert wait_for(root, lambda: view.cursor.pile == column(1))
    assert view.cursor.index == depth - 1


@pytest.mark.parametrize("variant_id", per_game(get_registry()))
def test_every_pile_is_labelled_by_the_key_that_selects_it(root, tmp_path, variant_id):
    app = open_app(root, tmp_path, variant_id)
    root.geometry("1100x760")
    settle(app)
    view, layout, state = app.view, app.view.layout, app.session.state
    tops = {s.ref: (s.x + layout.card_w / 2, s.y) for s in layout.slots}
    for slot in layout.slots:
        items = view.find_withtag(f"key:{slot.ref}")
        assert bool(items) == bool(slot.key), slot.ref
        if items:
            shown = view.itemcget(items[0], "text")
            assert view._by_key[shown.lower()] == slot.ref, (shown, slot.ref)
            # The letter sits just above its own pile: no other pile's top is nearer.
            x, y = view.coords(items[0])
            below = {r: (tx - x) ** 2 + (ty - y) ** 2 for r, (tx, ty) in tops.items() if ty > y}
            assert min(below, key=below.get) == slot.ref, (shown, slot.ref)
        # Nothing else on the pile reads as a key: an empty pile's mark is a word
        # (Penguin's empty foundation with key K read "J", its base rank).
        _, mark = slot_look(state, slot.ref)
        assert len(mark) != 1 and mark.lower() not in view._by_key, (slot.ref, mark)


@pytest.mark.parametrize("variant_id", ["der-katzenschwanz", "die-schlange"])
def test_each_further_fan_of_a_wrapped_column_names_the_column_it_continues(
    root, tmp_path, variant_id
):
    app = open_app(root, tmp_path, variant_id)
    root.geometry("1024x768")
    settle(app)
    view, layout, state = app.view, app.view.layout, app.session.state
    wrapped = 0
    for i, pile in enumerate(state.columns):
        slot, n = layout.columns[i], len(pile)
        fans = sorted({layout.card_xy(slot.ref, j, n)[0] for j in range(n)})
        items = view.find_withtag(f"continued:{slot.ref}")
        assert len(items) == len(fans) - 1, slot.ref  # one label per further fan
        for x, item in zip(fans[1:], sorted(items, key=lambda it: view.coords(it)[0])):
            wrapped += 1
            text = view.itemcget(item, "text")
            assert text.startswith(slot.key.upper()) and len(text) > 1  # "E cont."
            lx, ly = view.coords(item)
            assert abs(lx - (x + layout.card_w / 2)) <= 1 and ly == slot.label_y
            x0, _, x1, _ = view.bbox(item)
            assert x1 - x0 <= layout.card_w + 2  # within its fan's width
    assert wrapped  # deal 1 has a column longer than one fan at 1024x768
    # A short column again: its continuation labels go.
    put(app, state.__class__.from_text(state.rules, " | ".join(
        [" ".join(["-"] * len(state.columns)), " ".join(["-"] * len(state.cells)),
         " ".join(["-"] * len(state.foundations))])))  # fmt: skip
    assert not view.find_withtag("continued")
