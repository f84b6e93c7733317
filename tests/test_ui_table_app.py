"""The game window as a whole, in a real Tk window (Xvfb via pytest-xvfb): menus and
status bar, win and "no useful move left", restart and new deal with statistics, the
autosave and resume, saved games, the launcher, the ``play`` command, and one test that
drives the window with real X input (xdotool)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tkinter as tk
from tkinter import font as tkfont
from tkinter import ttk

import pytest
from solitaire_tk.shell.app import App
from solitaire_tk.shell.persist import AppStore
from ui_helpers import (
    CONTROL,
    card,
    click_card,
    close,
    expected_xy,
    item_xy,
    key,
    open_app,
    pump,
    put,
    settle,
    start_play,
    toplevels,
    wait_for,
    xdotool,
)
from ui_helpers import (
    click_button as press,
)

from solitaire_core.plugins import get_registry

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]


def one_move_from_a_win(rules, board):
    """Every card up but the spade Queen and King; the King blocks the Queen."""
    return board(rules, ["QS,KS"], foundations=["AC..KC", "AD..KD", "AH..KH", "AS..JS"])


def stuck_position(rules, board):
    """Cells full, no move at all: nothing can reach a foundation."""
    columns = ["AC,3D", "AD,3H", "AH,3S", "AS,3C", "5C", "5D", "5H", "5S", "9C", "9D"]
    return board(rules, columns, cells=["7C", "7D", "7H", "7S"])


# --------------------------------------------------------------------------- window


def test_a_new_window_appears_with_the_table_drawn(tmp_path, monkeypatch):
    """A window never shown yet stays hidden while it is built and the deal drawn: when
    it appears, the felt, toolbar and cards are there (no empty window filled in
    stages), and the table is drawn once, not again for the window's real size."""
    from solitaire_tk.table.view import TableView

    felts: list[tuple[int, int]] = []
    draw_felt = TableView._draw_felt

    def counted(view, width, height):
        felts.append((width, height))
        draw_felt(view, width, height)

    monkeypatch.setattr(TableView, "_draw_felt", counted)
    window = tk.Tk()
    views: list[TableView] = []
    monkeypatch.setattr(TableView, "set_game", lambda view, state, _set=TableView.set_game: (
        views.append(view), _set(view, state))[1])  # fmt: skip
    at_map: list[tuple[int, object]] = []  # card items and layout size when it appears

    def mapped(event: tk.Event) -> None:
        if event.widget is window:
            layout = views[0].layout
            cards = len(views[0].find_withtag("card"))
            at_map.append((cards, layout and (layout.width, layout.height)))

    window.bind("<Map>", mapped)
    try:
        app = App(window, store=AppStore(tmp_path, registry=get_registry()),
                  variant="seahaven", deal=1, modal=False)  # fmt: skip
        pump(window, lambda: window.winfo_ismapped() and app.view.drawn_for_window)
        window.update()
        size = (app.view.winfo_width(), app.view.winfo_height())
        assert at_map == [(52, size)]
        assert felts == [size]
        assert app.toolbar.winfo_ismapped()
    finally:
        close(window)


def test_menus_and_status_bar(root, tmp_path):
    app = open_app(root, tmp_path, "double-sea-towers", deal=5)
    bar = app.menubar
    labels = [bar.entrycget(i, "label") for i in range(bar.index("end") + 1)]
    assert labels == ["Game", "Edit", "Options", "Help"]
    status = {name: label.cget("text") for name, label in app.status.items()}
    assert status["variant"] == "Double Sea Towers"
    assert status["deal"] == "Deal 5"
    assert status["moves"] == "Moves 0"
    assert status["score"] == f"Score {app.session.score}"
    assert status["cards"] == f"Cards left {104 - app.session.score}"
    assert status["cheats"] == "Cheats 0"
    assert status["time"].startswith("Time 0:0")
    assert "Double Sea Towers" in root.title() and "5" in root.title()


@pytest.mark.parametrize("variant", ["seahaven", "double-sea-towers"])
def test_the_start_message_fits_and_points_to_the_keyboard_shortcuts(root, tmp_path, variant):
    app = open_app(root, tmp_path, variant)
    message = app.status["message"]
    assert "Help > Keyboard shortcuts" in app.message
    assert message.cget("text") == app.message  # shown whole at the usual window size
    assert message.winfo_width() >= tkfont.nametofont("TkDefaultFont").measure(app.message)
    # The pile keys of this game are in Help > Keyboard shortcuts.
    app.show_shortcuts()
    shown = [w.cget("text") for w in app.dialog.body.winfo_children() if isinstance(w, ttk.Label)]
    expected = {
        "seahaven": "In Seahaven Towers: columns A-J, cells 1-4, foundations K-N.",
        "double-sea-towers": "In Double Sea Towers: columns A-K, cells 1-9, foundations L-S.",
    }
    assert expected[variant] in shown
    app.dialog.close()


def test_a_narrow_window_shortens_the_message_and_hides_the_game_name(root, tmp_path):
    app = open_app(root, tmp_path, "double-sea-towers")
    long = "No hint: the solver searched 200,000 positions without deciding. " * 2
    app.set_message(long, warn=True)
    root.geometry("800x600")
    pump(root, lambda: root.winfo_width() == 800)  # the X server resizes in its own time
    settle(app)
    message, status = app.status["message"], app.status
    pump(root, lambda: message.cget("text") != long)
    shown = message.cget("text")
    assert app.message == long
    assert shown.endswith("…") and long.startswith(shown[:-1]) and len(shown) > 20
    assert tkfont.nametofont("TkDefaultFont").measure(shown) <= message.winfo_width()
    assert not status["variant"].winfo_ismapped()  # the window title still names it
    # Only the name gives way to a message too long: the figures stay (play-testing
    # found the score pushed out by a long message).
    for name in ("deal", "moves", "score", "time", "cards", "cheats"):
        assert status[name].winfo_ismapped(), name
        assert status[name].winfo_rootx() + status[name].winfo_width() <= 800
    # Wider again, with a short message: the name is back in its place, left of the
    # deal number.
    root.geometry("1100x760")
    app.set_message("Hint cancelled.")
    pump(root, lambda: root.winfo_width() == 1100)
    settle(app)
    assert status["variant"].winfo_ismapped()
    assert status["variant"].winfo_rootx() < status["deal"].winfo_rootx()
    assert message.cget("text") == "Hint cancelled."


def test_win_shows_the_figures_and_next_deal_deals_the_next_number(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    session = put(app, one_move_from_a_win(seahaven, board), deal=41)
    click_card(app.view, "KS")  # to an empty column or a cell; autoplay does the rest
    assert session.is_won
    dialog = app.dialog
    assert dialog is not None and dialog.winfo_exists() and dialog in toplevels(root)
    assert dialog.figures["Moves"] == "1"
    assert dialog.figures["Score"] == "52"
    assert "41" in dialog.figures["Game"]
    assert app.status["cards"].cget("text") == "Cards left 0"
    stats = app.store.stats.summary("seahaven")
    assert [(s.played, s.won) for s in stats] == [(1, 1)]
    press(dialog.next_button)
    assert app.session is not session and app.session.deal_number == 42
    assert not dialog.winfo_exists()


def test_no_useful_move_left_offers_undo_restart_new_deal(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    session = put(app, stuck_position(seahaven, board))
    assert app.check_stuck()
    dialog = app.dialog
    assert set(dialog.choice_buttons) >= {"undo", "restart", "new"}
    assert app.status["message"].cget("text") == "No useful move left."
    press(dialog.choice_buttons["new"])
    assert app.session is not session and app.session.rules.id == "seahaven"


def test_no_notice_while_a_useful_move_exists(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,5H", "6H", "AD,9C"]))  # 9C to a cell and AD goes up
    assert not app.check_stuck()
    assert app.dialog is None


def test_restart_and_new_deal_record_abandoned_games(root, tmp_path):
    app = open_app(root, tmp_path, "freecell", deal=3)
    first = app.session.state
    key(app.view, "a", 0x1)  # Shift+A: a card to a cell
    assert app.session.moves == 1
    key(app.view, "r", CONTROL)
    assert app.session.state == first and app.session.moves == 0
    assert [s.lost for s in app.store.stats.summary("freecell")] == [1]
    key(app.view, "a", 0x1)
    key(app.view, "F2")
    assert app.session.moves == 0
    assert [s.lost for s in app.store.stats.summary("freecell")] == [2]


def test_closing_keeps_the_game_and_the_next_start_offers_to_resume(root, tmp_path):
    app = open_app(root, tmp_path, "seahaven", deal=9)
    key(app.view, "a", 0x1)
    key(app.view, "b", 0x1)
    key(app.view, "z", CONTROL)
    state, moves = app.session.state, app.session.move_texts()
    app.four_colour_var.set(True)
    app._four_colour_changed()
    autosave = app.store.autosave_path()
    app.quit()
    assert autosave.exists()
    with pytest.raises(tk.TclError):  # the window is gone
        root.winfo_exists()

    again = tk.Tk()
    try:
        store = AppStore(tmp_path, registry=get_registry())
        assert store.settings.four_colour is True
        asked = []

        class Resuming(App):
            def confirm(self, title: str, question: str) -> bool:
                asked.append(question)
                return True

        app2 = Resuming(again, store=store, modal=False)
        assert asked and "Seahaven Towers" in asked[0] and "deal 9" in asked[0]
        assert app2.session.state == state and app2.session.move_texts() == moves
        assert app2.session.can_redo
        assert app2.view.four_colour is True
    finally:
        close(again)


def test_save_and_open_a_named_game(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path, "sea-towers", deal=4, empty_columns="any")
    key(app.view, "c", 0x1)
    saved_state = app.session.state
    path = tmp_path / "game.json"
    assert app.save_path(path)
    key(app.view, "F2")
    assert app.session.state != saved_state
    assert app.open_path(path)
    assert app.session.state == saved_state
    assert app.session.rules.option_dict == {"empty_columns": "any"}
    warned = []
    app.warn = lambda title, text: warned.append(text)  # type: ignore[method-assign]
    (tmp_path / "bad.json").write_text("{not json", "utf-8")
    assert not app.open_path(tmp_path / "bad.json")
    assert warned and app.session.state == saved_state


def test_launcher_play_opens_the_table_and_ctrl_l_goes_back(root, tmp_path):
    store = AppStore(tmp_path, registry=get_registry())
    app = App(root, store=store, modal=False, offer_resume=False)
    root.update()
    assert app.launcher is not None and app.session is None
    app.launcher.select("eight-off")
    app.launcher.deal_var.set("12")
    root.update()
    press(app.launcher.play_button)
    assert app.launcher is None
    assert app.session.rules.id == "eight-off" and app.session.deal_number == 12
    assert len(app.view.find_withtag("card")) == 52
    key(app.view, "l", CONTROL)
    assert app.launcher is not None and not app.view.winfo_ismapped()
    assert store.settings.last_variant == "eight-off"
    assert store.settings.recent_variants[0] == "eight-off"
    assert app.launcher.tree.get_children("group:recent") == ("recent:eight-off",)


# --------------------------------------------------------------------------- real X input


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_real_x_click_and_keys_with_xdotool(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,5H", "6H", "9C,4D"]))
    root.lift()
    root.update()
    view = app.view
    x, y = view.card_center(card("5H"))
    sx, sy = view.winfo_rootx() + x, view.winfo_rooty() + y

    xdotool("mousemove", "--sync", str(sx), str(sy))
    xdotool("click", "1")
    assert wait_for(root, lambda: app.session.moves == 1)
    assert app.session.state.columns[1][-1] == card("5H")
    assert item_xy(view, "5H") == expected_xy(view, "t2", 1)
    xdotool("key", "c")  # column c's 4D fits nowhere: to a cell
    assert wait_for(root, lambda: app.session.state.cells[0] == card("4D"))
    xdotool("key", "ctrl+z")
    assert wait_for(root, lambda: app.session.moves == 1)
    assert item_xy(view, "4D") == expected_xy(view, "t3", 1)


# --------------------------------------------------------------------------- the command


def test_play_command_reports_an_unknown_variant_without_a_window(tmp_path):
    env = {**os.environ, "SOLITAIRE_HOME": str(tmp_path), "DISPLAY": ""}
    result = subprocess.run(
        [sys.executable, "-m", "solitaire_core", "play", "no-such-game"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert "no-such-game" in result.stderr and "seahaven" in result.stderr


def test_play_command_opens_the_table(tmp_path):
    proc = start_play(tmp_path, "seahaven", "--deal", "3")  # waits for the drawn table
    proc.terminate()
    proc.wait(timeout=30)


def test_the_status_bar_shows_the_score_by_the_games_scheme(root, tmp_path):
    app = open_app(root, tmp_path, "klondike")
    assert app.status["score"].cget("text") == "Score 30"  # two Aces up, two cards turned
    app.play("s>w")
    settle(app)
    assert app.status["score"].cget("text") == "Score 40"
    app.undo()
    settle(app)
    assert app.status["score"].cget("text") == "Score 30"


def test_casino_klondike_shows_money_and_the_bank_carried_over(root, tmp_path):
    app = open_app(root, tmp_path, "casino-klondike")
    assert app.status["score"].cget("text") == "Score $-42 · Bank $-42"
    app.play("s>w")  # the 2♠ goes up
    settle(app)
    assert app.status["score"].cget("text") == "Score $-37 · Bank $-37"
    app.next_deal()  # the game ends, lost: its $-37 stays in the bank
    settle(app)
    score = app.session.score
    assert app.status["score"].cget("text") == f"Score ${score} · Bank ${score - 37}"
    assert app.store.stats.bank("casino-klondike") == -37
