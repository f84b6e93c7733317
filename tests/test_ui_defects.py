"""Issue 11's defects, each shown in a real Tk window (Xvfb via pytest-xvfb) with real
Tk events: what the player sees in messages, the status bar, the menus, the dialogs and
the statistics."""

from __future__ import annotations

import pytest
from ui_helpers import CONTROL, click_card, key, open_app, put, settle

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]


# --------------------------------------------------------------------------- messages


def test_messages_name_piles_as_the_table_labels_them(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,8S,5D", "9S"], cells=["7C"]))
    click_card(app.view, "8S")
    assert app.message == (
        "The top 2 cards of column A are not a run (runs are built down in suit)."
    )
    key(app.view, "j")  # an empty column's key
    assert app.message == "Column J is empty."
    app.play("t2>c1")  # as a tool or the demo would: the reason still names piles
    assert app.message == "Cell 1 is occupied: a cell holds one card."
    app.play("t10>t1")
    assert app.message == "Column J is empty."


def test_the_run_limit_says_at_most_1_card(root, tmp_path, board, rules_of):
    # Sea Towers, any card in an empty column: the supermove limit with no free cell
    # and no empty column is one card.
    rules = rules_of("sea-towers", empty_columns="any")
    app = open_app(root, tmp_path, "sea-towers", empty_columns="any")
    columns = ["KS,9H,8H", "10H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"]
    put(app, board(rules, columns, cells=["2C", "3C", "4C", "5C"]))
    click_card(app.view, "9H")
    assert app.message == "With 0 free cells and the empty columns you can move at most 1 card."
