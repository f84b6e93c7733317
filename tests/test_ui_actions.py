"""One enabled state a command: the toolbar button, the menu entry and the key agree."""

from __future__ import annotations

import pytest
from solitaire_tk.shell.toolbar import BUTTONS
from ui_helpers import CONTROL, click_card, key, open_app, pump, put

from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
from solitaire_core.state import GameState

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

# Seahaven deal 1 after 23 moves of a win; moving 7♣-5♣ (column G) onto 8♣ loses it
# (tests/test_ui_toolbar.py checks both with the solver).
WINNABLE = (
    "JD - 9H,8H JC,QC,3C,TD,9D,8D,7D,6D 5D,KH,4C 7H,6H 7C,6C,5C 5H,KS,QH,2C,TC,9C,8C KD "
    "KC,QD | JH TH - - | AH,2H,3H,4H AD,2D,3D,4D AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS AC"
)
LOSING_MOVE = "t7>t8x3"


def toolbar_states(app) -> dict[str, bool]:
    """Command name -> whether its toolbar button is enabled."""
    return {b.command: not app.toolbar.buttons[b.name].instate(["disabled"]) for b in BUTTONS}


def menu_states(app) -> dict[str, bool]:
    """Command name -> whether its menu entry is enabled, for the toolbar's commands."""
    found = {}
    labels = {"new_deal": ("game", "New deal"), "restart": ("game", "Restart"),
              "undo": ("edit", "Undo"), "redo": ("edit", "Redo"), "hint": ("game", "Hint"),
              "demo": ("game", "Solve (demo)"),
              "undo_to_winnable": ("edit", "Undo to winnable"),
              "show_statistics": ("game", "Statistics…"), "show_rules": ("help", 0)}  # fmt: skip
    for command, (menu, label) in labels.items():
        found[command] = str(app.menus[menu].entrycget(label, "state")) != "disabled"
    return found


def assert_agree(app) -> dict[str, bool]:
    shown = toolbar_states(app)
    assert shown == menu_states(app), "toolbar and menu disagree"
    return shown


def test_after_a_win_the_toolbar_and_the_menus_agree(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    assert_agree(app)
    session = put(app, board(seahaven, ["QS,KS"], foundations=["AC..KC", "AD..KD", "AH..KH",
                                                                 "AS..JS"]))  # fmt: skip
    click_card(app.view, "KS")
    assert session.is_won
    shown = assert_agree(app)
    assert not shown["hint"] and not shown["demo"] and not shown["undo_to_winnable"]
    assert shown["undo"] and shown["new_deal"] and shown["show_statistics"]
    message = app.message
    key(app.view, "h", CONTROL)  # the key of a disabled command does nothing
    assert app.message == message


def test_after_the_demo_says_cannot_be_won_undo_to_winnable_is_enabled_everywhere(root, tmp_path):
    rules = get_variant("seahaven").resolve()
    app = open_app(root, tmp_path)
    session = put(app, GameState.from_text(rules, WINNABLE))
    assert isinstance(session, Session)
    assert app.play(LOSING_MOVE)
    key(app.view, "d", CONTROL)
    pump(root, lambda: "Cannot be won from here" in app.message, seconds=30)
    shown = assert_agree(app)
    assert shown["undo_to_winnable"] and shown["hint"] and shown["undo"]
    # Its key does what the enabled entry and button promise: back to a winnable position.
    key(app.view, "u", CONTROL)
    pump(root, lambda: app.message.startswith("Undid 1 move"), seconds=30)
    assert_agree(app)
