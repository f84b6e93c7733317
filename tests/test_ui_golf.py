"""Golf on the table, driven by real X input (xdotool): a winnable deal won by clicks
alone, the solver's moves played as a player would play them (a click on a column's top
card sends it to the foundation, a click on the stock turns its next card onto the
foundation), and the win shown to the player (the status line and the win dialog)."""

from __future__ import annotations

import shutil

import pytest
from solitaire_tk.dialogs.common import WinDialog
from ui_helpers import open_app, real_click, settle, wait_for, xdotool

from solitaire_core.moves import PileKind, PileRef
from solitaire_core.plugins import get_variant
from solitaire_core.solver import Verdict, solve_deal

ROOT_GEOMETRY = (
    "800x600+0+0"  # within pytest-xvfb's 800x600 screen, so the pointer reaches every card
)

pytestmark = [
    pytest.mark.gui,
    pytest.mark.usefixtures("solitaire_home"),
    pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed"),
]

STOCK = PileRef(PileKind.STOCK, 0)
FOUNDATION = PileRef(PileKind.FOUNDATION, 0)
# Golf deal 35: won in 49 moves (the 35 column cards and 14 stock cards), found at once.
DEAL = 35


def test_a_golf_deal_is_won_by_real_clicks_and_the_win_is_shown(root, tmp_path):
    rules = get_variant("golf").resolve()
    result = solve_deal(rules, DEAL, max_states=1_000_000)
    assert result.verdict is Verdict.WINNABLE
    moves = result.moves
    assert all(m.target == FOUNDATION for m in moves)
    app = open_app(root, tmp_path, "golf", deal=DEAL)
    root.geometry(ROOT_GEOMETRY)  # the game window opens at its saved size: fit the screen
    settle(app)
    session, view = app.session, app.view
    assert session.deal_number == DEAL and session.moves == 0
    shift = 0
    for done, move in enumerate(moves, start=1):
        state = session.state
        assert not session.is_won
        if move.source == STOCK:
            turned = state.stock[-1]  # the next card dealt
            x, y = view.pile_center(STOCK)
            # A second deal in a row clicks a little aside, as a hand would: the pointer
            # moves (xdotool's --sync waits for that) and the press is not taken for the
            # second half of a double click on the same spot.
            shift = 12 if shift == 0 and done > 1 and moves[done - 2].source == STOCK else 0
            real_click(root, view, x + shift, y)
        else:
            assert move.source.kind is PileKind.TABLEAU
            turned = state.pile(move.source)[-1]  # the column's top card, clicked
            real_click(root, view, *view.card_center(turned))
        assert wait_for(root, lambda n=done: session.moves == n), (done, str(move))
        assert session.state.foundations[0][-1] == turned, (done, str(move))
    assert wait_for(root, lambda: session.is_won)
    assert not any(session.state.columns)  # Golf is won with the columns empty
    # The player is told: the status line, and the win dialog with the game's figures.
    assert wait_for(root, lambda: isinstance(app.dialog, WinDialog))
    dialog = app.dialog
    assert wait_for(root, dialog.winfo_viewable)
    assert dialog.title() == "You won!"
    assert app.message == "You won!"
    assert dialog.figures["Game"].endswith(f"deal {DEAL}")
    assert dialog.figures["Moves"] == str(len(moves))


def test_a_fast_double_click_on_the_stock_deals_two_cards(root, tmp_path):
    app = open_app(root, tmp_path, "golf", deal=DEAL)
    root.geometry(ROOT_GEOMETRY)
    settle(app)
    session, view = app.session, app.view
    stock = len(session.state.stock)
    x, y = view.pile_center(STOCK)
    root.lift()
    root.update()
    xdotool("mousemove", "--sync", str(view.winfo_rootx() + x), str(view.winfo_rooty() + y))
    xdotool("click", "--repeat", "2", "--delay", "60", "1")  # a double click, one spot
    assert wait_for(root, lambda: session.moves == 2), session.moves
    assert len(session.state.stock) == stock - 2
