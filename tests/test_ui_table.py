"""The table in a real Tk window (Xvfb via pytest-xvfb): what is drawn for every variant,
and moves made with real pointer and key events."""

from __future__ import annotations

import pytest
from sampling import per_game
from solitaire_tk.table.layout import pile_keys
from ui_helpers import (
    CONTROL,
    SHIFT,
    click_at,
    click_card,
    drag,
    expected_xy,
    item_xy,
    key,
    open_app,
    piles_of,
    put,
    ref,
    top_item_at,
)

from solitaire_core.moves import Move, PileKind
from solitaire_core.plugins import get_registry
from solitaire_core.rules import explain

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

TABLEAU = PileKind.TABLEAU

# --------------------------------------------------------------------------- drawing


@pytest.mark.parametrize("variant", per_game(get_registry()))
def test_every_variant_draws_each_card_once_with_every_pile_key(root, tmp_path, variant):
    app = open_app(root, tmp_path, variant)
    view, state = app.view, app.session.state
    cards = view.find_withtag("card")
    assert len(cards) == state.rules.card_count
    assert len({view.gettags(i)[1] for i in cards}) == state.rules.card_count
    shown = {view.itemcget(i, "text").lower() for i in view.find_withtag("key")}
    assert shown == set(pile_keys(state.rules).values())
    # Every pile has its outline, but for the cards of a layout (Pyramid), which leave
    # bare table behind.
    outlined = [p for p in piles_of(state) if not (view.layout.placed and p.kind is TABLEAU)]
    assert len(view.find_withtag("slot")) == len(outlined)
    # The top card of every pile is the one visible at its middle, where it belongs.
    for pile in piles_of(state):
        cards_here = state.pile(pile)
        if cards_here:
            assert item_xy(view, _text(cards_here[-1])) == expected_xy(
                view, str(pile), len(cards_here) - 1
            )
            x, y = view.pile_center(pile)
            assert top_item_at(view, x, y) == view.item_of(cards_here[-1])


@pytest.mark.parametrize("size", [(640, 480), (1600, 1000)])
@pytest.mark.parametrize("variant", ["double-sea-towers", "seahaven", "eight-off"])
def test_table_fits_small_and_large_windows(root, tmp_path, variant, size):
    root.geometry(f"{size[0]}x{size[1]}")
    app = open_app(root, tmp_path, variant)
    view = app.view
    width, height = view.winfo_width(), view.winfo_height()
    assert view.layout.width == width and view.layout.height == height
    for item in view.find_withtag("card"):
        x0, y0, x1, y1 = view.bbox(item)
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height


def test_resizing_the_window_rescales_the_cards(root, tmp_path):
    app = open_app(root, tmp_path, "seahaven")
    view = app.view
    small = view.layout.card_w
    image = view.itemcget(view.find_withtag("card")[0], "image")
    root.geometry("1500x1000")
    root.update()
    root.after(400, lambda: None)
    for _ in range(40):  # the re-render is debounced
        root.update()
        root.after(20)
        if view.layout.card_w != small:
            break
    assert view.layout.card_w > small
    first = view.find_withtag("card")[0]
    assert root.tk.call("image", "width", view.itemcget(first, "image")) == view.layout.card_w
    assert view.itemcget(first, "image") != image


def test_four_colour_deck_redraws_the_faces(root, tmp_path):
    app = open_app(root, tmp_path, "seahaven")
    first = app.view.find_withtag("card")[0]
    before = app.view.itemcget(first, "image")
    app.four_colour_var.set(True)
    app._four_colour_changed()
    root.update()
    assert app.view.itemcget(first, "image") != before
    assert app.store.settings.four_colour is True


# --------------------------------------------------------------------------- click


def test_click_sends_a_card_to_the_foundation_first(root, tmp_path, board, rules_of):
    # Two decks: 2S on AS is not "safe" while the other AS is in play, so autoplay leaves it.
    rules = rules_of("double-sea-towers")
    app = open_app(root, tmp_path, "double-sea-towers")
    put(app, board(rules, ["KH,2S", "3S", "AS',9D"], foundations=["AS"]))
    click_card(app.view, "2S")
    # 2S went up rather than onto 3S (which then followed it by autoplay).
    assert app.session.state.foundations[0][1] == _card("2S")
    assert app.session.history[0].move == Move(ref("t1"), ref("f1"))
    assert item_xy(app.view, "2S") == expected_xy(app.view, "f1", 1)
    assert app.status["moves"].cget("text") == "Moves 1"


def test_click_moves_a_run_onto_a_matching_card(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,8S,7S", "9S", "QD"]))
    click_card(app.view, "8S")
    assert app.session.state.columns[1] == tuple(map(_card, ["9S", "8S", "7S"]))
    assert item_xy(app.view, "7S") == expected_xy(app.view, "t2", 2)
    assert top_item_at(app.view, *app.view.pile_center(ref("t2"))) == app.view.item_of(_card("7S"))


def test_click_on_a_card_under_a_non_run_explains_why(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,8S,5D", "9S"]))
    before = app.session.state
    click_card(app.view, "8S")
    assert app.session.state == before
    assert "not a run" in app.status["message"].cget("text")


def test_click_prefers_an_empty_column_to_a_cell(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["QH,KS", "", "9D"]))
    click_card(app.view, "KS")
    assert app.session.state.columns[1] == (_card("KS"),)
    assert app.session.state.cells == (None,) * 4


def test_a_double_click_moves_one_card_not_two(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,4H,5H", "6H", "9C"]))
    x, y = app.view.card_center(_card("5H"))
    click_at(app.view, x, y)
    click_at(app.view, x, y, gap=150)  # the second press of a double click
    assert app.session.moves == 1
    click_at(app.view, x, y, gap=2000)  # a fresh click moves the card now there (4H)
    assert app.session.moves == 2


# --------------------------------------------------------------------------- keys


def test_letter_moves_onto_a_matching_card_else_to_a_cell(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,5H", "6H", "9C,4D"]))
    key(app.view, "a")
    assert app.session.state.columns[1][-1] == _card("5H")
    assert item_xy(app.view, "5H") == expected_xy(app.view, "t2", 1)
    key(app.view, "c")  # 4D fits nowhere on the tableau: to the first free cell
    assert app.session.state.cells[0] == _card("4D")
    assert item_xy(app.view, "4D") == expected_xy(app.view, "c1", 0)


def test_shift_letter_sends_the_card_to_a_cell(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,5H", "6H"], cells=["9D"]))
    key(app.view, "A", SHIFT)
    assert app.session.state.cells[:2] == (_card("9D"), _card("5H"))
    assert item_xy(app.view, "5H") == expected_xy(app.view, "c2", 0)


def test_cell_number_moves_the_cell_card_to_the_tableau(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,6H", "9S"], cells=["5H"]))
    key(app.view, "1")
    assert app.session.state.columns[0][-1] == _card("5H")
    assert app.session.state.cells[0] is None


def test_letter_moves_the_longest_king_led_run_into_an_empty_column(
    root, tmp_path, board, seahaven
):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["9D,KS,QS,JS", "", "8C"]))
    key(app.view, "a")
    assert app.session.state.columns[1] == tuple(map(_card, ["KS", "QS", "JS"]))
    assert item_xy(app.view, "JS") == expected_xy(app.view, "t2", 2)


def test_key_with_nothing_legal_explains(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,5H", "9C"], cells=["2D", "3D", "4D", "6D"]))
    before = app.session.state
    key(app.view, "a")
    assert app.session.state == before
    assert "no free cell" in app.status["message"].cget("text")


# --------------------------------------------------------------------------- drag and drop


def test_drag_and_drop_highlights_legal_targets_and_moves(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,5H", "6H", "9C"]))
    view = app.view
    start = view.card_center(_card("5H"))
    end = view.pile_center(ref("t2"))
    drag(view, start, end, release=False)
    targets = view.find_withtag("target")
    assert len(targets) == 1 + 4  # onto 6H, or into one of the four free cells
    x, y = view.pile_center(ref("t2"))
    assert any(_inside(view.bbox(t), x, y) for t in targets)
    view.event_generate("<ButtonRelease-1>", x=end[0], y=end[1], state=0x100)
    view.update()
    assert app.session.state.columns[1] == (_card("6H"), _card("5H"))
    assert item_xy(view, "5H") == expected_xy(view, "t2", 1)
    assert not view.find_withtag("target")


def test_illegal_drop_snaps_back_with_the_reason(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,5H", "6H", "9C"]))
    view = app.view
    home = item_xy(view, "5H")
    before = app.session.state
    drag(view, view.card_center(_card("5H")), view.pile_center(ref("t3")))
    assert app.session.state == before
    assert item_xy(view, "5H") == home
    reason = explain(before, Move(ref("t1"), ref("t3")))
    assert reason and app.status["message"].cget("text").lower().startswith(reason.lower())
    assert str(app.status["message"].cget("style")) == "Warn.TLabel"  # shown as a refusal


# --------------------------------------------------------------------------- undo, redo, cheat


def test_ctrl_z_undoes_and_ctrl_y_ctrl_shift_z_redo(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,5H", "6H", "9C,4C"]))
    start = app.session.state
    key(app.view, "a")
    key(app.view, "c")
    moved = app.session.state
    key(app.view, "z", CONTROL)
    key(app.view, "z", CONTROL)
    assert app.session.state == start
    assert item_xy(app.view, "5H") == expected_xy(app.view, "t1", 1)
    key(app.view, "y", CONTROL)
    assert app.session.moves == 1
    key(app.view, "Z", CONTROL | SHIFT)
    assert app.session.state == moved
    assert item_xy(app.view, "4C") == expected_xy(app.view, "c1", 0)


def _out_of_order(view, state) -> list[int]:
    """The columns of ``state`` whose cards the canvas does not stack in the pile's order
    (each card drawn over the ones below it)."""
    level = {item: i for i, item in enumerate(view.find_all())}  # lowest first
    out = []
    for index, column in enumerate(state.columns):
        levels = [level[view.item_of(c)] for c in column]
        if levels != sorted(levels):
            out.append(index)
    return out


def test_an_undo_lays_the_card_back_on_its_column_and_raises_only_that_card(
    root, tmp_path, monkeypatch
):
    """Tk redraws every card it raises: an undo that brought both columns to the top
    redrew them whole, which made the table's first redraw after Ctrl+Z later than
    PySolFC's (benchmarks/bench_redraw.py). Only the card coming back is raised, and every
    column still stacks its cards in order."""
    app = open_app(root, tmp_path, "seahaven", deal=1)  # 8C (column 7) goes on 9C (10)
    view = app.view
    raised: list[int] = []
    real_raise = view.tag_raise

    def recording(*args):
        raised.append(args[0])
        return real_raise(*args)

    def stacked_in_order() -> bool:
        return not _out_of_order(view, app.session.state)

    assert app.play("t7>t10")
    assert stacked_in_order()
    monkeypatch.setattr(view, "tag_raise", recording)
    key(view, "z", CONTROL)
    assert app.session.state.columns[6][-1] == _card("8C")
    assert raised == [view.item_of(_card("8C"))]
    assert item_xy(view, "8C") == expected_xy(view, "t7", 4)
    assert stacked_in_order()
    raised.clear()
    key(view, "y", CONTROL)  # the same for a redo
    assert raised == [view.item_of(_card("8C"))] and stacked_in_order()


@pytest.mark.parametrize("variant", ["seahaven", "klondike", "spider", "beleaguered-castle"])
def test_every_column_stacks_in_order_through_moves_undos_and_redos(root, tmp_path, variant):
    """Runs, cards back from the foundations, deals and face-down cards turned up: after
    each move, undo and redo every column's cards lie on the canvas in the pile's order."""
    import random

    from solitaire_core.rules import legal_moves

    app = open_app(root, tmp_path, variant, deal=3)
    view, session = app.view, app.session
    chooser = random.Random(7)

    def check() -> None:
        assert not _out_of_order(view, session.state), (variant, session.moves)

    for _ in range(40):
        moves = legal_moves(session.state)
        if not moves:
            break
        app.play(chooser.choice(moves))
        check()
    while session.can_undo:
        app.undo()
        check()
        if chooser.random() < 0.3:
            app.redo()
            check()
            app.undo()
            check()


def test_cheat_moves_a_long_run_and_counts_cheats(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,8S,7S,6S", "9S"], cells=["2D", "3D", "4D", "5D"]))
    click_card(app.view, "8S")
    assert app.session.moves == 0  # only one card may move with no free cell
    app.set_cheat(True)
    click_card(app.view, "8S")
    assert app.session.state.columns[1][-1] == _card("6S")
    assert app.status["cheats"].cget("text").startswith("Cheats 3")


# --------------------------------------------------------------------------- animation


def test_autoplay_is_animated_and_input_cuts_it_short(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    app.view.animation = True
    put(app, board(seahaven, ["KC,3H,2H,AH,9D", "QC"]))
    key(app.view, "A", SHIFT)  # 9D to a cell: 3H, 2H, AH go up one after another
    view = app.view
    assert view.animating
    # Mid-flight the canvas has not caught up with the game yet.
    assert app.session.state.foundations[0] == tuple(map(_card, ["AH", "2H", "3H"]))
    view.event_generate("<ButtonPress-1>", x=2, y=2)  # any input finishes the animation
    view.event_generate("<ButtonRelease-1>", x=2, y=2, state=0x100)
    view.update()
    assert not view.animating
    assert item_xy(view, "3H") == expected_xy(view, "f1", 2)


def test_animation_runs_to_the_end_by_itself(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    app.view.animation = True
    put(app, board(seahaven, ["KC,2H,AH,9D", "QC"]))
    key(app.view, "A", SHIFT)
    for _ in range(200):
        if not app.view.animating:
            break
        root.after(10)
        root.update()
    assert not app.view.animating
    assert item_xy(app.view, "2H") == expected_xy(app.view, "f1", 1)


# --------------------------------------------------------------------------- helpers


def _card(text: str):
    from ui_helpers import card

    return card(text)


def _text(c) -> str:
    return str(c) + "'" * c.deck


def _inside(box, x, y) -> bool:
    x0, y0, x1, y1 = box
    return x0 <= x <= x1 and y0 <= y <= y1


@pytest.mark.parametrize(
    ("variant", "column", "label"),
    [("fan", "a", "4♠"), ("king-albert", "a", "8♥"), ("bisley", "b", "8♠")],
)
def test_key_with_nothing_legal_speaks_of_no_free_cell_only_where_cells_take_cards(
    root, tmp_path, variant, column, label
):
    # Fan and Bisley have no cells, King Albert's reserve never takes a card: "there is
    # no free cell" would send the player looking for one.
    app = open_app(root, tmp_path, variant)
    before = app.session.state
    key(app.view, column)
    assert app.session.state == before
    assert app.status["message"].cget("text") == f"{label} has nowhere to go."
