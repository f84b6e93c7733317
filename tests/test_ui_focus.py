"""Keyboard play without letters (arrows, Tab, Space/Enter, Escape), gliding moves, and
the table's marks (keycaps, empty foundations), in a real Tk window."""

from __future__ import annotations

import time

import pytest
from ui_helpers import SHIFT, card, click_card, item_xy, key, open_app, put, ref, settle

from solitaire_core.moves import PileKind

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]


def cursor_box(view, tag: str = "focus:cursor") -> tuple[float, float, float, float]:
    items = view.find_withtag(tag)
    assert items, f"nothing tagged {tag}"
    return tuple(view.bbox(items[-1]))


def inside(box, xy) -> bool:
    return box[0] <= xy[0] <= box[2] and box[1] <= xy[1] <= box[3]


# The positions built below keep a way to put a card on a foundation (the ace of spades
# under 9♣), so the "no useful move left" notice never opens and takes the keys.


def test_the_focus_shows_at_the_first_arrow_and_follows_the_arrows(root, tmp_path):
    app = open_app(root, tmp_path)
    view = app.view
    assert not view.find_withtag("focus")
    key(view, "Right")
    cursor = view.cursor
    assert cursor.pile == ref("t2") and cursor.visible
    top = app.session.state.columns[1][-1]
    assert inside(cursor_box(view), view.card_center(top))
    key(view, "Left")
    key(view, "Left")  # wraps round to the last column
    assert cursor.pile == ref("t10")
    key(view, "Up")  # from the top card to the one below it in the column
    assert cursor.index == len(app.session.state.columns[9]) - 2
    assert inside(cursor_box(view), view.card_center(app.session.state.columns[9][-2]))


def test_tab_cycles_the_areas_and_up_goes_to_the_pile_above(root, tmp_path):
    app = open_app(root, tmp_path)
    view = app.view
    key(view, "Tab")
    assert view.cursor.pile.kind is PileKind.CELL
    key(view, "Tab")
    assert view.cursor.pile.kind is PileKind.FOUNDATION
    key(view, "Tab")
    assert view.cursor.pile == ref("t1")
    key(view, "Tab", SHIFT)
    assert view.cursor.pile.kind is PileKind.FOUNDATION
    key(view, "Tab")
    key(view, "Left")
    # Up from the bottom card of the last column: the foundation above it.
    for _ in range(10):
        key(view, "Up")
    assert view.cursor.pile == ref("f4")
    key(view, "Down")
    assert view.cursor.pile == ref("t10")


def test_space_picks_up_and_drops_a_card_with_the_rules_checked(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    session = put(app, board(seahaven, ["KS,5H", "6H", "AS,9C"], cells=["2D"]))
    view = app.view
    key(view, "space")  # picks up 5♥ (column A)
    assert view.cursor.picked == (ref("t1"), 1)
    assert view.find_withtag("focus:picked")
    key(view, "Right")
    key(view, "Right")  # column C: 9♣ does not take 5♥
    key(view, "Return")
    assert session.moves == 0
    assert "5♥" in app.message and "9♣" in app.message
    assert view.cursor.picked is None
    key(view, "Left")
    key(view, "Left")
    key(view, "space")
    key(view, "Right")  # column B: 6♥ takes 5♥
    key(view, "space")
    assert session.moves == 1
    assert session.state.columns[1] == (card("6H"), card("5H"))
    assert item_xy(view, "5H") == view.layout.card_xy(ref("t2"), 1, 2)


def test_escape_puts_the_picked_cards_back(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    session = put(app, board(seahaven, ["KS,5H", "6H", "AS,9C"]))
    view = app.view
    key(view, "space")
    assert view.cursor.picked is not None
    key(view, "Escape")
    assert view.cursor.picked is None and not view.find_withtag("focus:picked")
    key(view, "Right")
    key(view, "space")  # nothing picked: picks up 6♥ instead of dropping
    assert view.cursor.picked == (ref("t2"), 0)
    assert session.moves == 0


def test_letters_still_work_and_a_click_hides_the_focus(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    session = put(app, board(seahaven, ["KS,5H", "6H", "AS,9C"]))
    view = app.view
    key(view, "Right")
    assert view.find_withtag("focus")
    key(view, "a")  # the pile letter: 5♥ onto 6♥
    assert session.moves == 1
    click_card(view, "KS")
    assert not view.find_withtag("focus") and not view.cursor.visible


def test_a_clicked_card_glides_to_its_place(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    app.view.animation = True
    session = put(app, board(seahaven, ["KS,5H", "6H", "AS,9C"]))
    view = app.view
    start = item_xy(view, "5H")
    end = view.layout.card_xy(ref("t2"), 1, 2)
    click_card(view, "5H")
    assert session.moves == 1
    seen = []
    deadline = time.monotonic() + 2
    while view.animating and time.monotonic() < deadline:
        root.update()
        seen.append(item_xy(view, "5H"))
        time.sleep(0.005)
    assert not view.animating
    assert item_xy(view, "5H") == end
    # On the way: places between the start and the end were shown.
    between = [xy for xy in seen if xy not in (start, end)]
    assert between, "the card jumped"
    assert all(min(start[0], end[0]) <= x <= max(start[0], end[0]) for x, _ in between)


def test_empty_foundations_show_their_base_rank_and_keys_sit_on_keycaps(root, tmp_path):
    app = open_app(root, tmp_path, "sea-towers")
    view = app.view
    settle(app)
    # Every key letter has its keycap round it.
    for ref_ in view.key_of:
        text = view.find_withtag(f"key:{ref_}")
        cap = view.find_withtag(f"keycap:{ref_}")
        assert text and cap, ref_
        x0, y0, x1, y1 = view.bbox(cap[0])
        tx0, ty0, tx1, ty1 = view.bbox(text[0])
        assert x0 <= tx0 and tx1 <= x1 and y0 <= ty0 + 2 and ty1 - 2 <= y1
    # The empty foundations' outlines carry "Ace"; the empty columns' do not.
    foundation = view.find_withtag("slot:f1")[0]
    column = view.find_withtag("slot:t1")[0]
    assert view.itemcget(foundation, "image") != view.itemcget(column, "image")
    assert ("foundation", "Ace") in view._slots
