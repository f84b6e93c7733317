"""Pyramid and TriPeaks on the table, driven by real X input (xdotool): the layout's
cards drawn overlapping at their places, a Pyramid pair cleared by a drag and another by
two clicks, a King sent to the discard pile by a click, the stock's face-up top card
dragged onto the card it pairs with, a covered card that does not move, the arrow keys
going from free card to free card, and a TriPeaks card played to the foundation turning
up the card it uncovers."""

from __future__ import annotations

import shutil

import pytest
from solitaire_tk.shell.app import LAYOUT_MESSAGE
from ui_helpers import card, open_app, real_click, real_drag, settle, wait_for, xdotool

from solitaire_core.moves import PileKind, PileRef
from solitaire_core.rules import covered

ROOT_GEOMETRY = (
    "800x600+0+0"  # within pytest-xvfb's 800x600 screen, so the pointer reaches every card
)

pytestmark = [
    pytest.mark.gui,
    pytest.mark.usefixtures("solitaire_home"),
    pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed"),
]

STOCK = PileRef(PileKind.STOCK, 0)
DISCARD = PileRef(PileKind.FOUNDATION, 0)
# Pyramid deal 35, its bottom row: 6D 7H KS 9S TC 3C 7D (t22-t28); the stock's top TS.
# Free pairs: t22 with t23 (6+7), t26 with t27 (10+3); t24's King goes alone.
PYRAMID_DEAL = 35


def column(number: int) -> PileRef:
    """Column ``number``, counted from 1 as the notation writes it (``t22``)."""
    return PileRef(PileKind.TABLEAU, number - 1)


def top(app, ref: PileRef):
    return app.session.state.pile(ref)[-1]


def open_game(root, tmp_path, variant: str, deal: int):
    app = open_app(root, tmp_path, variant, deal=deal)
    root.geometry(ROOT_GEOMETRY)  # the game window opens at its saved size: fit the screen
    settle(app)
    root.lift()
    root.update()
    return app


def test_the_pyramid_is_drawn_overlapping_and_fits_the_window(root, tmp_path):
    app = open_game(root, tmp_path, "pyramid", PYRAMID_DEAL)
    view, layout, state = app.view, app.view.layout, app.session.state
    assert layout.placed and layout.arrangement == "sides"
    assert app.message == LAYOUT_MESSAGE  # no letters on the cards: the arrows reach them
    # Each row half a card lower, a later card drawn over the ones it covers.
    slots = layout.columns
    assert slots[1].y - slots[0].y == slots[3].y - slots[1].y > layout.card_h // 3
    order = view.find_all()  # the canvas items, lowest first
    for i, over in enumerate(state.rules.covered_by):
        below = order.index(view.item_of(state.columns[i][0]))
        for j in over:
            assert order.index(view.item_of(state.columns[j][0])) > below, (i, j)
    # Every card and pile inside the canvas; the stock's top card face up.
    for slot in layout.slots:
        assert 0 <= slot.x and slot.x + layout.card_w <= view.winfo_width(), slot.ref
        assert 0 <= slot.y and slot.y + layout.card_h <= view.winfo_height(), slot.ref
    assert not view._down[top(app, STOCK)]
    assert "facedown" not in view.gettags(view.item_of(top(app, STOCK)))


def test_a_pyramid_pair_by_a_drag_another_by_two_clicks_and_a_king_by_a_click(root, tmp_path):
    app = open_game(root, tmp_path, "pyramid", PYRAMID_DEAL)
    session, view = app.session, app.view
    assert [str(top(app, column(i))) for i in range(22, 29)] == [
        "6D", "7H", "KS", "9S", "TC", "3C", "7D",
    ]  # fmt: skip
    # A covered card does not move: a click says what covers it, a drag lifts nothing.
    apex = top(app, column(1))
    real_click(root, view, *view.card_center(apex))
    assert wait_for(root, lambda: "covered by" in app.message)
    assert app.message.startswith("K♣ is covered by 2♦ and J♥")  # named by their cards
    assert session.moves == 0 and view.selected is None
    real_drag(root, view, view.card_center(apex), view.pile_center(DISCARD))
    root.update()
    assert session.moves == 0 and session.state.columns[0] == (apex,)
    assert "covered by" in app.message
    # The 6D dragged onto the 7H: both go to the discard pile.
    real_drag(root, view, view.card_center(card("6D")), view.pile_center(column(23)))
    assert wait_for(root, lambda: session.moves == 1), app.message
    assert session.state.foundations[0][-2:] == (card("6D"), card("7H"))
    assert not session.state.columns[21] and not session.state.columns[22]
    # The 10C clicked, then the 3C: the first click chooses it (outlined), the second
    # plays the pair.
    real_click(root, view, *view.card_center(card("TC")))
    assert wait_for(root, lambda: view.selected == column(26))
    assert view.find_withtag("selected:card")  # outlined, and the 3C it pairs with too
    partners = view.find_withtag("selected:partner")
    x, y = view.layout.card_xy(column(27), 0, 1)
    assert partners and all(view.bbox(i)[0] < x < view.bbox(i)[2] for i in partners)
    assert session.moves == 1
    real_click(root, view, *view.card_center(card("3C")))
    assert wait_for(root, lambda: session.moves == 2), app.message
    assert session.state.foundations[0][-2:] == (card("TC"), card("3C"))
    assert view.selected is None and not view.find_withtag("selected")
    # A click on the King sends it to the discard pile alone.
    real_click(root, view, *view.card_center(card("KS")))
    assert wait_for(root, lambda: session.moves == 3), app.message
    assert session.state.foundations[0][-1] == card("KS")
    # Every card is drawn where the position has it: the six on the discard pile.
    x, y = view.layout.card_xy(DISCARD, 5, 6)
    for c in ("6D", "7H", "TC", "3C", "KS"):
        assert tuple(round(v) for v in view.coords(view.item_of(card(c)))) == (x, y), c


def test_the_stocks_top_card_is_dragged_onto_the_card_it_pairs_with(root, tmp_path):
    # Deal 1: the stock's top card is the AC, the QH lies free at the end of the bottom row.
    app = open_game(root, tmp_path, "pyramid", 1)
    session, view = app.session, app.view
    assert top(app, STOCK) == card("AC") and top(app, column(28)) == card("QH")
    real_drag(root, view, view.pile_center(STOCK), view.card_center(card("QH")))
    assert wait_for(root, lambda: session.moves == 1), app.message
    assert session.state.foundations[0] == (card("AC"), card("QH"))
    assert not view._down[top(app, STOCK)]  # the next card shows
    # A click on the stock deals (no card chosen): its top card goes to the waste.
    turned = top(app, STOCK)
    x, y = view.pile_center(STOCK)
    real_click(root, view, x + 12, y)  # aside: not the second half of a double click
    assert wait_for(root, lambda: session.moves == 2), app.message
    assert session.state.waste[-1] == turned


def test_the_arrow_keys_reach_every_free_card_and_enter_plays_them(root, tmp_path):
    app = open_game(root, tmp_path, "pyramid", PYRAMID_DEAL)
    session, view = app.session, app.view
    view.focus_force()
    root.update()

    def free() -> set[PileRef]:
        state = session.state
        return {
            column(i + 1) for i, col in enumerate(state.columns) if col and not covered(state, i)
        }

    assert free() == {column(i) for i in range(22, 29)}
    seen = []
    for _ in range(len(free())):
        before = view.cursor.pile if view.cursor.visible else None
        xdotool("key", "Right")
        assert wait_for(root, lambda b=before: view.cursor.visible and view.cursor.pile != b)
        seen.append(view.cursor.pile)
    assert set(seen) == free()  # Right goes round every free card, and only those
    # Enter on the King discards it; on the 6D chooses it, on the 7H plays the pair.
    for target in (column(24), column(22)):
        while view.cursor.pile != target:
            before = view.cursor.pile
            xdotool("key", "Right")
            assert wait_for(root, lambda b=before: view.cursor.pile != b)
        moves = session.moves
        xdotool("key", "Return")
        assert wait_for(root, lambda m=moves: session.moves > m or view.selected is not None)
    assert wait_for(root, lambda: view.selected == column(22)), app.message
    assert session.moves == 1 and session.state.foundations[0][-1] == card("KS")
    xdotool("key", "Right")
    assert wait_for(root, lambda: view.cursor.pile == column(23))
    xdotool("key", "Return")
    assert wait_for(root, lambda: session.moves == 2), app.message
    assert session.state.foundations[0][-2:] == (card("6D"), card("7H"))
    # The 4H the pair uncovered (t16) is free now, and Up reaches it.
    assert column(16) in free()
    xdotool("key", "Up")
    assert wait_for(root, lambda: view.cursor.pile == column(16) or view.cursor.pile == column(17))


def test_a_tripeaks_card_played_turns_up_the_card_it_uncovers(root, tmp_path):
    # TriPeaks deal 1: the foundation's 4H; the 3C (t24) and the 4C (t25) play onto it in
    # turn, and t15 (under both) turns face up.
    app = open_game(root, tmp_path, "tri-peaks", 1)
    session, view = app.session, app.view
    layout = view.layout
    assert layout.placed
    hidden = session.state.columns[14][0]
    assert session.state.is_face_down(14, 0) and view._down[hidden]
    # A face-down card clicked does not move.
    real_click(root, view, *view.card_center(hidden))
    assert wait_for(root, lambda: "face down" in app.message)
    assert app.message == (  # not by its name, nor the face-down cards on it
        "This card lies face down: it turns up once the cards on it have left."
    )
    assert session.moves == 0
    for moves, name in enumerate(("3C", "4C"), start=1):
        real_click(root, view, *view.card_center(card(name)))
        assert wait_for(root, lambda n=moves: session.moves == n), app.message
        assert session.state.foundations[0][-1] == card(name)
    assert not session.state.is_face_down(14, 0)
    assert wait_for(root, lambda: not view._down[hidden])
    assert "facedown" not in view.gettags(view.item_of(hidden))
    # It is free: a click plays it if it fits, or says why not.
    real_click(root, view, *view.card_center(hidden))
    root.update()
    assert "covered by" not in app.message
