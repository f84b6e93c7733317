"""The table with a reserve (Canfield, Superior Canfield, Storehouse), driven by real X
input (xdotool): the reserve drawn under the stock as card backs under its face-up top
card (fanned face up in Superior Canfield), its top card dragged, clicked and keyed to a
column, an emptied column refilled from it in one move and one undo, the keyboard focus
on it, the base rank under the foundations, and the layout, rules text and preview."""

from __future__ import annotations

import shutil

import pytest
from solitaire_tk.dialogs.rules import rules_text
from solitaire_tk.shell.assist import describe_move
from solitaire_tk.table.layout import PLAN_FAN, compute_layout, keys_text, pile_keys
from solitaire_tk.table.preview import preview_frame, render_preview
from ui_helpers import card, open_app, settle, wait_for, xdotool

from solitaire_core.moves import Move, PileKind, PileRef
from solitaire_core.plugins import get_variant

ROOT_GEOMETRY = (
    "800x600+0+0"  # within pytest-xvfb's 800x600 screen, so the pointer reaches every card
)

RESERVE = PileRef(PileKind.RESERVE, 0)
STOCK = PileRef(PileKind.STOCK, 0)

# Canfield deal 1: columns KS 2S 3H KH, Jack of diamonds on a foundation, the reserve's
# top card the Queen of clubs over the Ace of diamonds (12 cards under it, face down).
TOP, NEXT = card("QC"), card("AD")

_GUI = (
    pytest.mark.gui,
    pytest.mark.usefixtures("solitaire_home"),
    pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed"),
)


def gui(test):
    """Mark a test that opens the game window and sends it real X input."""
    for mark in _GUI:
        test = mark(test)
    return test


def open_game(root, home, variant: str):
    """Deal 1 of ``variant`` in a game window as large as pytest-xvfb's 800x600 screen,
    so the pointer reaches every card."""
    app = open_app(root, home, variant, deal=1)
    root.geometry("800x600+0+0")
    settle(app)
    return app


def real_click(root, view, x: int, y: int) -> None:
    """A real X click at canvas point ``(x, y)``."""
    root.lift()
    root.update()
    xdotool("mousemove", "--sync", str(view.winfo_rootx() + x), str(view.winfo_rooty() + y))
    xdotool("click", "1")


def real_drag(root, view, start: tuple[int, int], end: tuple[int, int]) -> None:
    """A real X drag from canvas point ``start`` to ``end``, in steps."""
    root.lift()
    root.update()
    ox, oy = view.winfo_rootx(), view.winfo_rooty()
    (x0, y0), (x1, y1) = start, end
    xdotool("mousemove", "--sync", str(ox + x0), str(oy + y0))
    xdotool("mousedown", "1")
    for i in range(1, 7):
        x, y = x0 + (x1 - x0) * i // 6, y0 + (y1 - y0) * i // 6
        xdotool("mousemove", "--sync", str(ox + x), str(oy + y))
        root.update()
    xdotool("mouseup", "1")


def real_key(root, view, *keys: str) -> None:
    """Real X key presses into the table (``Tab``, ``ctrl+z``, ``3``...)."""
    root.lift()
    view.focus_force()
    root.update()
    for k in keys:
        xdotool("key", "--delay", "30", k)
        root.update()


def shows_face(view, which) -> bool:
    """Whether the canvas draws ``which`` face up (its face image, not the back)."""
    return view.itemcget(view.item_of(which), "image") == str(view._face(which))


def text_of(view, tag: str) -> str:
    items = view.find_withtag(tag)
    return view.itemcget(items[0], "text") if items else ""


def xy(view, which) -> tuple[int, int]:
    x, y = view.coords(view.item_of(which))
    return round(x), round(y)


@gui
def test_dragging_the_reserves_top_card_turns_the_next_face_up_and_undo_turns_it_back(
    root, tmp_path
):
    app = open_game(root, tmp_path, "canfield")
    session, view = app.session, app.view
    under = session.state.reserve[:-1]
    assert shows_face(view, TOP) and not any(shows_face(view, c) for c in under)
    assert text_of(view, "reserveinfo") == "13 cards"
    # The reserve stands under the stock, a tight stack whose top card is whole.
    stock_x = view.layout.slot(STOCK).x
    assert xy(view, TOP)[0] == stock_x == xy(view, under[0])[0]
    assert 0 < xy(view, TOP)[1] - xy(view, under[-1])[1] < view.layout.card_h // 8

    king = view.card_center(card("KH"))
    real_drag(root, view, view.card_center(TOP), king)
    assert wait_for(root, lambda: session.moves == 1)
    assert session.state.columns[3][-1] == TOP
    assert xy(view, TOP) == view.layout.card_xy(PileRef(PileKind.TABLEAU, 3), 1, 2)
    assert shows_face(view, NEXT) and not shows_face(view, under[-2])
    assert text_of(view, "reserveinfo") == "12 cards"
    assert not view.find_withtag("target")  # the drop's outlines are gone

    real_key(root, view, "ctrl+z")
    assert wait_for(root, lambda: session.moves == 0)
    assert session.state.reserve[-1] == TOP
    assert not shows_face(view, NEXT) and shows_face(view, TOP)
    assert xy(view, TOP)[0] == stock_x


@gui
def test_a_column_emptied_by_a_click_takes_the_reserves_top_card_in_one_move_and_one_undo(
    root, tmp_path
):
    app = open_game(root, tmp_path, "canfield")
    session, view = app.session, app.view
    real_click(root, view, *view.card_center(card("2S")))  # onto the Three of hearts
    assert wait_for(root, lambda: session.moves == 1)
    column_b = PileRef(PileKind.TABLEAU, 1)
    assert session.state.columns[1] == (TOP,) and len(session.state.reserve) == 12
    assert xy(view, TOP) == view.layout.card_xy(column_b, 0, 1)
    assert shows_face(view, NEXT)
    real_key(root, view, "ctrl+z")  # one undo takes both back
    assert wait_for(root, lambda: session.moves == 0)
    assert session.state.columns[1] == (card("2S"),) and session.state.reserve[-1] == TOP
    assert xy(view, TOP)[0] == view.layout.slot(STOCK).x and not shows_face(view, NEXT)


@gui
def test_the_keyboard_focus_and_the_reserves_key_reach_it(root, tmp_path):
    app = open_game(root, tmp_path, "canfield")
    session, view = app.session, app.view
    assert view.key_of[RESERVE] == "3" and text_of(view, f"key:{RESERVE}") == "3"
    real_key(root, view, "Tab", "Tab", "Tab")  # tableau, stock, waste, reserve
    assert view.cursor.pile == RESERVE
    x0, y0, x1, y1 = view.bbox("focus:cursor")
    tx, ty = xy(view, TOP)
    assert x0 < tx and y0 < ty and x1 > tx + view.layout.card_w and y1 > ty + view.layout.card_h
    real_key(root, view, "Up")
    assert view.cursor.pile == STOCK
    real_key(root, view, "Down")
    assert view.cursor.pile == RESERVE
    real_key(root, view, "3")  # the reserve's key: its top card onto the King of hearts
    assert wait_for(root, lambda: session.moves == 1)
    assert session.state.columns[3][-1] == TOP and shows_face(view, NEXT)


@gui
def test_superior_canfields_reserve_shows_every_card_face_up(root, tmp_path):
    app = open_game(root, tmp_path, "superior-canfield")
    session, view = app.session, app.view
    reserve = session.state.reserve
    assert len(reserve) == 13 and all(shows_face(view, c) for c in reserve)
    ys = [xy(view, c)[1] for c in reserve]
    # Fanned downward, each card's corner index in view, the last card on the table.
    assert all(b - a >= PLAN_FAN * view.layout.card_h - 1 for a, b in zip(ys, ys[1:]))
    assert ys[-1] + view.layout.card_h <= view.winfo_height()
    messages: list[str] = []
    app.view.on_message = messages.append
    real_click(root, view, *view.card_center(reserve[3]))  # a buried card does not play
    assert wait_for(root, lambda: bool(messages))
    assert messages[-1] == "Only the reserve's top card plays." and session.moves == 0
    real_click(root, view, *view.card_center(TOP))  # the top one goes onto the King
    assert wait_for(root, lambda: session.moves == 1)
    assert session.state.columns[3][-1] == TOP


@gui
def test_the_base_rank_is_written_under_the_foundations_and_a_hint_outlines_the_reserve(
    root, tmp_path
):
    app = open_game(root, tmp_path, "canfield")
    view = app.view
    assert text_of(view, "baseinfo") == "Base rank: Jack"
    _x, y = view.coords(view.find_withtag("baseinfo")[0])
    foundation = view.layout.foundations[0]
    assert foundation.y + view.layout.card_h < y < view.layout.columns[0].label_y
    assert view.highlight_move(Move.parse("r>t4"))
    x0, y0, x1, y1 = view.bbox("hint:source")
    tx, ty = xy(view, TOP)
    assert x0 < tx < x1 and y0 < ty + view.layout.card_h // 2 < y1
    bottom = app.session.state.reserve[0]
    assert y0 > xy(view, bottom)[1]  # round the top card, not the whole stack


@pytest.mark.parametrize("size", [(1366, 768 - 100), (1024, 600 - 100)])
@pytest.mark.parametrize("variant", ["canfield", "superior-canfield", "storehouse", "rainbow"])
def test_the_reserve_stands_under_the_stock_with_the_columns_under_the_foundations(variant, size):
    rules = get_variant(variant).resolve()
    layout = compute_layout(rules, *size)  # the canvas of a maximised window
    stock, reserve = layout.slot(STOCK), layout.slot(RESERVE)
    assert reserve.x == stock.x and reserve.y == layout.columns[0].y
    assert [c.x for c in layout.columns] == [f.x for f in layout.foundations]
    assert reserve.x + layout.card_w < layout.columns[0].x
    n = rules.reserve_cards
    x0, y0, x1, y1 = layout.pile_box(RESERVE, n)
    assert y1 <= layout.height and x1 <= layout.width  # no scrolling
    step = layout.reserve_step(n)
    if rules.reserve_face_down:
        assert 2 <= step < 0.1 * layout.card_h
    else:
        assert step >= PLAN_FAN * layout.card_h - 1
    assert layout.card_at(x0 + 5, y1 - 5, {RESERVE: n}) == (RESERVE, n - 1)
    assert layout.drop_target((x0, y0, x1, y0 + layout.card_h), {RESERVE: n}) != RESERVE


def test_keys_rules_text_hint_text_and_preview_name_the_reserve():
    definition = get_variant("canfield")
    rules = definition.resolve()
    assert (
        keys_text(pile_keys(rules)) == "columns A-D, foundations E-H, stock 1, waste 2, reserve 3"
    )
    assert keys_text(pile_keys(get_variant("klondike").resolve())).endswith("stock 1, waste 2")
    text = dict((t, b) for t, b in _sections(rules_text(definition, rules)))
    assert "face down but for its top card" in text["Reserve"]
    assert "takes the reserve's top card at once" in text["Reserve"]
    assert "Base rank" in text["Foundations"]
    superior = get_variant("superior-canfield")
    text = dict(_sections(rules_text(superior, superior.resolve())))
    assert "all face up" in text["Reserve"] and "not filled from the reserve" in text["Reserve"]

    from solitaire_core.deal import deal

    state = deal(rules, 1)
    keys = pile_keys(rules)
    assert (
        describe_move(state, Move.parse("r>t4"), keys) == "Q♣ from the reserve onto K♥ in column D"
    )
    assert describe_move(state, Move.parse("t2>t3"), keys).endswith(
        "; Q♣ from the reserve fills column B"
    )
    image = render_preview(state, 500, 260)
    frame = preview_frame(state, 500, 260)  # the table's layout, scaled down
    slot = frame.layout.slot(RESERVE)
    x, y = (round(v) for v in frame.point(slot.x, slot.y))
    r, g, b = image.getpixel((x + 8, y + 1))  # the edge of the backs under the top card
    assert not (g > r + 30 and g > b + 30)  # a card, not the green table


def _sections(pieces):
    heading = ""
    for style, body in pieces:
        if style == "heading":
            heading = body
        elif style == "body" and heading:
            yield heading, body


@gui
def test_miss_milligans_reserve_takes_a_dragged_card_once_the_stock_is_spent(root, tmp_path):
    """Waiving (PySolFC's MissMilligan_ReserveStack): the empty reserve refuses a card
    while the stock lasts, and takes one dragged onto it once every row is dealt."""
    app = open_game(root, tmp_path, "miss-milligan")
    session, view = app.session, app.view
    assert RESERVE in view.key_of and not session.state.reserve
    top = session.state.columns[0][-1]
    reserve_spot = view.layout.slot(RESERVE)
    spot = (reserve_spot.x + view.layout.card_w // 2, reserve_spot.y + view.layout.card_h // 2)
    real_drag(root, view, view.card_center(top), spot)
    settle(app)
    assert session.moves == 0 and not session.state.reserve  # the stock is not spent yet
    key = view.key_of[STOCK]
    for _ in range(12):  # the 96 cards of the stock, a row of eight at a time
        real_key(root, view, key)
    assert wait_for(root, lambda: not session.state.stock)
    dealt = session.moves
    top = session.state.columns[0][-1]
    real_drag(root, view, view.card_center(top), spot)
    assert wait_for(root, lambda: session.moves == dealt + 1)
    assert session.state.reserve == (top,)
    assert shows_face(view, top) and xy(view, top) == view.layout.card_xy(RESERVE, 0, 1)
    real_key(root, view, "ctrl+z")
    assert wait_for(root, lambda: session.moves == dealt)
    assert not session.state.reserve and session.state.columns[0][-1] == top
