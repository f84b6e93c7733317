"""The toolbar, its icons and tooltips, and Undo to winnable, in a real Tk window."""

from __future__ import annotations

import tkinter as tk

import pytest
from solitaire_tk.faces.icons import ICONS, render_icon
from solitaire_tk.shell.persist import AppStore
from solitaire_tk.shell.toolbar import BUTTONS
from solitaire_tk.tooltip import DELAY_MS
from ui_helpers import CONTROL, close, key, open_app, pump, put, settle
from ui_helpers import click_button as press

from solitaire_core.plugins import get_registry, get_variant
from solitaire_core.session import Session
from solitaire_core.solver import Verdict, solve
from solitaire_core.state import GameState

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

# Seahaven deal 1 after 23 moves of a win: still winnable, and moving 7♣-5♣ (column G)
# onto 8♣ (column H) loses it (found with the solver; the test checks both again).
WINNABLE = (
    "JD - 9H,8H JC,QC,3C,TD,9D,8D,7D,6D 5D,KH,4C 7H,6H 7C,6C,5C 5H,KS,QH,2C,TC,9C,8C KD "
    "KC,QD | JH TH - - | AH,2H,3H,4H AD,2D,3D,4D AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS AC"
)
LOSING_MOVE = "t7>t8x3"


def enabled(app, name: str) -> bool:
    return not app.toolbar.buttons[name].instate(["disabled"])


def test_the_toolbar_has_the_other_programs_buttons_with_icons_and_labels(root, tmp_path):
    app = open_app(root, tmp_path)
    bar = app.toolbar
    assert bar.winfo_ismapped()
    shown = [w for w in bar.pack_slaves() if w in bar.buttons.values()]
    assert [b.cget("text") for b in shown] == [
        "New", "Restart", "Undo", "Redo", "Hint", "Demo", "Undo to winnable", "Statistics",
        "Rules",
    ]  # fmt: skip
    for button in shown:
        image = root.nametowidget(button).cget("image")
        name = str(image[0]) if isinstance(image, tuple) else str(image).split()[0]
        assert int(root.tk.call("image", "width", name)) == bar.icon_px
    # The toolbar sits above the table, below the menu.
    assert bar.winfo_rooty() < app.view.winfo_rooty()


def test_buttons_follow_the_game_state_and_act_on_a_click(root, tmp_path):
    app = open_app(root, tmp_path)
    assert not enabled(app, "undo") and not enabled(app, "redo")
    assert not enabled(app, "restart")
    assert enabled(app, "new") and enabled(app, "hint") and enabled(app, "statistics")
    key(app.view, "a")  # Seahaven deal 1: column A's card has a place to go
    assert app.session.moves == 1
    assert enabled(app, "undo") and enabled(app, "restart") and not enabled(app, "redo")
    press(app.toolbar.buttons["undo"])
    assert app.session.moves == 0
    assert enabled(app, "redo") and not enabled(app, "undo")
    press(app.toolbar.buttons["redo"])
    assert app.session.moves == 1
    deal = app.session.deal_number
    press(app.toolbar.buttons["new"])
    assert app.session.moves == 0 and app.session is not None
    assert app.session.deal_number != deal or app.session.moves == 0


def test_a_tooltip_names_the_command_and_its_key(root, tmp_path):
    app = open_app(root, tmp_path)
    button = app.toolbar.buttons["undo"]
    tip = app.toolbar.tooltips["undo"]
    button.event_generate("<Enter>", x=5, y=5)
    assert tip.window is None  # not at once
    pump(root, lambda: tip.window is not None, seconds=DELAY_MS / 1000 + 2)
    assert tip.window is not None and tip.window.winfo_ismapped()
    label = tip.window.winfo_children()[0]
    assert "Undo" in label.cget("text") and "Ctrl+Z" in label.cget("text")
    button.event_generate("<Leave>", x=500, y=500)
    root.update()
    assert tip.window is None


def test_the_toolbar_can_be_hidden_and_the_choice_is_saved(root, tmp_path):
    app = open_app(root, tmp_path)
    height = app.view.winfo_height()
    app.set_toolbar(False)
    settle(app)
    assert not app.toolbar.winfo_ismapped()
    assert app.view.winfo_height() > height  # the table takes the room
    assert AppStore(tmp_path, registry=get_registry()).settings.toolbar is False
    app.close(save=False)
    second = tk.Tk()
    try:
        again = open_app(second, tmp_path)
        assert not again.toolbar.winfo_ismapped()
        assert again.toolbar_var.get() is False or again.toolbar_var.get() == 0
    finally:
        close(second)


@pytest.fixture
def scaled(root):
    """The screen at 192 dpi (``tk scaling 2``) for one test. Tk keeps the scaling in the
    X display's screen record, which outlives this root window and is shared by every
    later one in the process: it is set back afterwards."""
    before = float(root.tk.call("tk", "scaling"))
    root.tk.call("tk", "scaling", 2.0)
    yield root
    root.tk.call("tk", "scaling", before)


def test_icons_are_drawn_for_the_display_scaling(scaled, tmp_path):
    root = scaled
    app = open_app(root, tmp_path)
    assert app.toolbar.icon_px == 32
    # Every icon is drawn afresh at each size (not a small bitmap blown up): a sharp
    # edge at 64 px has as many distinct grey levels as at 16 px, and more ink pixels.
    for name in ICONS:
        small, large = render_icon(name, 16), render_icon(name, 64)
        ink_small = sum(small.getchannel("A").histogram()[129:])
        ink_large = sum(large.getchannel("A").histogram()[129:])
        assert ink_large > 8 * ink_small, name
    with pytest.raises(ValueError, match="icon must be one of"):
        render_icon("nope", 16)
    with pytest.raises(ValueError, match="size must be"):
        render_icon("undo", 4)
    assert {b.name for b in BUTTONS} == set(ICONS)


def test_narrow_windows_keep_the_icons_and_drop_the_labels(root, tmp_path):
    app = open_app(root, tmp_path)
    root.geometry("500x500")
    settle(app)
    root.update()
    assert app.toolbar.compact
    assert all(str(b.cget("compound")) == "image" for b in app.toolbar.buttons.values())
    root.geometry("1300x800")
    settle(app)
    root.update()
    assert not app.toolbar.compact


# --------------------------------------------------------------------------- undo to winnable


def test_a_losing_move_turns_the_field_red_and_undo_to_winnable_takes_it_back(root, tmp_path):
    rules = get_variant("seahaven").resolve()
    state = GameState.from_text(rules, WINNABLE)
    after = Session(rules, 1, state=state)
    after.play(LOSING_MOVE)
    assert solve(state, timeout=10).verdict is Verdict.WINNABLE
    assert solve(after.state, timeout=10).verdict is Verdict.UNWINNABLE

    app = open_app(root, tmp_path)
    app.set_show_winnability(True)
    session = put(app, state)
    pump(root, lambda: app.assist.field.cget("text") == "Winnable")
    assert not enabled(app, "undo-winnable")
    # While the player thinks, the positions the legal moves lead to are checked ...
    pump(root, lambda: app.assist.known(after.state) is Verdict.UNWINNABLE, seconds=30)
    # ... so the field turns red the moment the losing move is made.
    assert app.play(LOSING_MOVE)
    root.update_idletasks()
    assert app.assist.field.cget("text") == "Cannot be won"
    assert str(app.assist.field.cget("style")).startswith("Bad")  # red
    assert enabled(app, "undo-winnable")
    key(app.view, "u", CONTROL)
    assert session.state == state
    assert "can still be won" in app.message
    pump(root, lambda: app.assist.field.cget("text") == "Winnable")


def test_undo_to_winnable_checks_the_positions_when_nothing_is_known(root, tmp_path):
    rules = get_variant("seahaven").resolve()
    state = GameState.from_text(rules, WINNABLE)
    app = open_app(root, tmp_path)
    assert not app.assist.show_winnability
    session = put(app, state)
    assert app.play(LOSING_MOVE)
    settle(app)
    app.undo_to_winnable()
    assert app.rewinder.job is not None
    assert "Looking for the last winnable position" in app.message
    pump(root, lambda: session.state == state, seconds=20)
    assert session.state == state
    assert app.message.startswith("Undid 1 move")
