"""Defects fixed in the Tk app, each shown in a real Tk window (Xvfb via pytest-xvfb) with
real Tk events: what the player sees in messages, the status bar, the menus, the dialogs
and the statistics."""

from __future__ import annotations

import shutil
import subprocess
import time
import tkinter as tk

import pytest
from solitaire_tk.shell.app import App
from solitaire_tk.shell.persist import AppStore
from ui_helpers import (
    CONTROL,
    SHIFT,
    click_card,
    close,
    key,
    open_app,
    put,
    settle,
    start_play,
)
from ui_helpers import click_button as press

from solitaire_core.moves import Move
from solitaire_core.persistence import load_settings, read_save
from solitaire_core.plugins import get_registry
from solitaire_core.solver import SolveResult, Verdict, solve, solve_deal

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


# --------------------------------------------------------------------------- the record


def one_move_from_a_win(rules, board):
    """Every card up but the spade Queen and King; the King blocks the Queen."""
    return board(rules, ["QS,KS"], foundations=["AC..KC", "AD..KD", "AH..KH", "AS..JS"])


def summary(app, variant="seahaven"):
    return app.store.stats.summary(variant)


def test_a_restarted_deal_is_a_new_game_for_the_record(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    foundations = ["AC..KC", "AD..KD", "AH..JH", "AS..JS"]
    put(app, board(seahaven, ["QS,KS", "QH,KH"], foundations=foundations))
    app.set_cheat(True)
    key(app.view, "a", SHIFT)  # KS to a cell, the spades go up
    key(app.view, "z", CONTROL)  # undo
    assert app.session.used_undo
    app.set_cheat(False)
    key(app.view, "r", CONTROL)  # restart
    assert app.session.moves == 0 and not app.session.used_undo and app.session.cheats == 0
    click_card(app.view, "KS")  # a clean win
    click_card(app.view, "KH")
    assert app.session.is_won
    assert app.dialog.figures["Undo used"] == "no"
    (entry,) = summary(app)
    assert (entry.won, entry.lost, entry.wins_with_undo, entry.cheat_wins) == (1, 1, 0, 0)


def test_a_game_the_demo_played_is_never_the_players_win(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, one_move_from_a_win(seahaven, board))
    app.assist.demo_step_ms = app.assist.demo_show_ms = 1
    key(app.view, "d", CONTROL)
    deadline = time.monotonic() + 30
    while not app.session.is_won and time.monotonic() < deadline:
        root.update()
        time.sleep(0.01)
    assert app.session.is_won
    dialog = app.dialog
    assert dialog.title() == "Solved by the demo"
    assert dialog.figures["Played by"].startswith("the demo")
    (entry,) = summary(app)
    assert (entry.won, entry.lost, entry.current_streak) == (0, 1, -1)


def test_hints_are_counted_once_per_position_and_shown_in_the_win_dialog(
    root, tmp_path, board, seahaven
):
    app = open_app(root, tmp_path)
    put(app, one_move_from_a_win(seahaven, board))
    key(app.view, "h", CONTROL)
    key(app.view, "h", CONTROL)  # the same hint again
    deadline = time.monotonic() + 30
    while not app.message.startswith("Hint") and time.monotonic() < deadline:
        root.update()
        time.sleep(0.01)
    assert app.hints == 1 and app.used_hint
    click_card(app.view, "KS")
    assert app.session.is_won
    assert app.dialog.figures["Hints"] == "1"
    (entry,) = summary(app)
    assert entry.wins_with_hints == 1


def test_a_hint_that_finds_no_move_is_not_counted(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    # Cells full, nothing can reach a foundation: the solver proves it lost.
    columns = ["AC,3D", "AD,3H", "AH,3S", "AS,3C", "5C", "5D", "5H", "5S", "9C", "9D"]
    put(app, board(seahaven, columns, cells=["7C", "7D", "7H", "7S"]))
    key(app.view, "h", CONTROL)
    deadline = time.monotonic() + 30
    while not app.message.startswith("Cannot") and time.monotonic() < deadline:
        root.update()
        time.sleep(0.01)
    assert app.message.startswith("Cannot be won from here")
    assert app.hints == 0 and not app.used_hint


def test_quitting_keeps_the_game_and_declining_resume_counts_it_lost(root, tmp_path):
    app = open_app(root, tmp_path, "seahaven", deal=9)
    key(app.view, "a", SHIFT)
    app.quit()
    store = AppStore(tmp_path, registry=get_registry())
    assert store.stats.summary() == []  # not ended yet: it can be resumed
    again = tk.Tk()
    try:
        app2 = Answering(again, store=store, modal=False, answer=False)
        assert app2.launcher is not None
        assert [(s.played, s.lost) for s in store.stats.summary("seahaven")] == [(1, 1)]
        assert not store.autosave_path().exists()
    finally:
        close(again)


class Answering(App):
    """The app with every yes/no question answered ``answer`` (and kept in ``asked``)."""

    def __init__(self, *args, answer: bool, **kwargs) -> None:
        self.answer = answer
        self.asked: list[str] = []
        super().__init__(*args, **kwargs)

    def confirm(self, title: str, question: str) -> bool:
        self.asked.append(question)
        return self.answer


def test_play_variant_asks_before_replacing_the_game_in_progress(root, tmp_path):
    app = open_app(root, tmp_path, "sea-towers", deal=9, empty_columns="any")
    key(app.view, "a", SHIFT)
    moves = app.session.move_texts()
    app.quit()
    # `solitaire play freecell`, then Yes (resume): the saved game comes back.
    again = tk.Tk()
    try:
        store = AppStore(tmp_path, registry=get_registry())
        app2 = Answering(again, store=store, variant="freecell", modal=False, answer=True)
        (question,) = app2.asked
        assert "Sea Towers (Empty columns take: Any card), deal 9" in question
        assert "No starts FreeCell" in question
        assert app2.session.rules.id == "sea-towers" and app2.session.move_texts() == moves
        app2.quit()
    finally:
        close(again)
    # Answering No starts FreeCell, and the game given up counts as lost.
    again = tk.Tk()
    try:
        store = AppStore(tmp_path, registry=get_registry())
        app3 = Answering(again, store=store, variant="freecell", modal=False, answer=False)
        assert app3.session.rules.id == "freecell"
        assert [s.lost for s in store.stats.summary("sea-towers")] == [1]
        app3.quit()
    finally:
        close(again)


def test_quitting_a_new_game_without_a_move_keeps_the_saved_one(root, tmp_path):
    app = open_app(root, tmp_path, "seahaven", deal=9)
    key(app.view, "a", SHIFT)
    app.quit()
    again = tk.Tk()
    try:
        store = AppStore(tmp_path, registry=get_registry())
        # A caller that does not offer the resume (a tool): the table opens at once.
        app2 = App(again, store=store, variant="freecell", modal=False, offer_resume=False)
        app2.quit()
        assert store.autosave_path().exists()
    finally:
        close(again)


# --------------------------------------------------------------------------- menus, launcher


def test_undo_and_redo_are_disabled_when_there_is_nothing_to_take_back(root, tmp_path):
    app = open_app(root, tmp_path)
    edit = app.menus["edit"]
    assert edit.entrycget("Undo", "state") == "disabled"
    assert edit.entrycget("Redo", "state") == "disabled"
    key(app.view, "a", SHIFT)
    assert edit.entrycget("Undo", "state") == "normal"
    key(app.view, "z", CONTROL)
    assert edit.entrycget("Undo", "state") == "disabled"
    assert edit.entrycget("Redo", "state") == "normal"


def test_the_launcher_leads_back_to_the_game_in_progress(root, tmp_path):
    app = open_app(root, tmp_path, "seahaven", deal=5)
    key(app.view, "a", SHIFT)
    session, state = app.session, app.session.state
    key(app.view, "l", CONTROL)
    back = app.launcher.back_button
    assert back is not None and back.cget("text") == "Back to Seahaven Towers, deal 5"
    press(back)
    assert app.launcher is None and app.session is session and app.session.state == state
    assert app.view.winfo_ismapped()
    assert app.store.stats.summary() == []  # nothing ended
    key(app.view, "l", CONTROL)
    app.launcher.select("freecell")
    press(app.launcher.play_button)  # another game: the one left counts as lost
    assert [s.lost for s in summary(app)] == [1]


def test_the_chosen_option_shows_and_is_remembered_per_variant(root, tmp_path):
    app = open_app(root, tmp_path, "sea-towers", deal=3, empty_columns="any")
    assert "Sea Towers (Empty columns take: Any card) — deal 3" in root.title()
    assert app.status["variant"].cget("text") == "Sea Towers · Any card"
    app.start("seahaven", {}, 4)
    key(app.view, "l", CONTROL)
    app.launcher.select("sea-towers")
    assert app.launcher.options == {"empty_columns": "any"}  # not only the last game's


def test_the_first_start_opens_on_seahaven_towers(root, tmp_path):
    store = AppStore(tmp_path, registry=get_registry())
    app = App(root, store=store, modal=False)
    root.update()
    assert app.launcher.selected_variant == "seahaven"


def test_save_as_and_open_start_in_the_saves_folder(root, tmp_path, monkeypatch):
    import solitaire_tk.shell.app as app_module

    asked = []

    def ask(**kwargs):
        asked.append(kwargs)
        return ""

    monkeypatch.setattr(app_module.filedialog, "asksaveasfilename", ask)
    monkeypatch.setattr(app_module.filedialog, "askopenfilename", ask)
    app = open_app(root, tmp_path)
    key(app.view, "s", CONTROL)
    key(app.view, "o", CONTROL)
    saves = tmp_path / "data" / "saves"
    assert [a["initialdir"] for a in asked] == [str(saves), str(saves)]
    assert saves.is_dir()


def test_the_statistics_window_is_no_wider_than_the_game_window(root, tmp_path):
    app = open_app(root, tmp_path, "sea-towers", deal=1, empty_columns="any")
    for deal in range(2, 5):
        key(app.view, "a", SHIFT)
        app.start("sea-towers", {"empty_columns": "any"}, deal)
    root.geometry("620x520")
    settle(app)
    app.show_statistics()
    dialog = app.dialog
    dialog.update()
    assert dialog.tree.get_children()
    assert dialog.winfo_width() <= root.winfo_width() == 620
    assert dialog.close_button.winfo_ismapped()
    dialog.close()


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_quitting_the_play_command_keeps_the_game_and_the_settings(tmp_path):
    # The command ends the process as soon as the window is closed (the time it takes
    # is measured by benchmarks/bench_ui.py --quit); nothing may be lost on the way.
    proc = start_play(tmp_path, "seahaven", "--deal", "3")
    try:
        found = subprocess.run(
            ["xdotool", "search", "--name", "Seahaven Towers .* deal 3"],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        window = found.stdout.split()[-1]
        subprocess.run(["xdotool", "windowfocus", "--sync", window], timeout=30)
        subprocess.run(["xdotool", "key", "--window", window, "shift+a"], timeout=30)
        time.sleep(0.5)
        subprocess.run(["xdotool", "key", "--window", window, "ctrl+q"], timeout=30)
        assert proc.wait(timeout=30) == 0
    finally:
        # xdotool stops with BadWindow when the window closes between Ctrl+Q's press and
        # release: release both, or the X server repeats a held "q" into the next tests.
        subprocess.run(["xdotool", "keyup", "ctrl", "q"], timeout=30)
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)
    saved = read_save(tmp_path / "data" / "autosave.json")
    assert (saved.variant, saved.deal, len(saved.moves)) == ("seahaven", 3, 1)
    assert load_settings(tmp_path / "config" / "settings.toml")[0].last_variant == "seahaven"


# --------------------------------------------------------------------------- status bar


def test_a_long_message_pushes_the_game_name_out_and_shows_whole(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path, "double-sea-towers")
    root.geometry("1300x760")
    settle(app)
    status = app.status
    assert status["variant"].winfo_ismapped()
    sentence = (
        "An empty column takes a King or a run led by a King; with 0 free cells you can "
        "move at most 1 card."
    )
    app.set_message(sentence, warn=True)
    settle(app)
    assert status["message"].cget("text") == sentence  # whole, not "…"
    assert not status["variant"].winfo_ismapped()  # the title bar still names the game
    assert status["score"].winfo_ismapped() and status["cards"].winfo_ismapped()
    app.set_message("Restarted.")
    settle(app)
    assert status["variant"].winfo_ismapped()


def test_a_message_too_long_for_the_bar_is_readable_in_a_tooltip(root, tmp_path):
    app = open_app(root, tmp_path)
    long = "No hint: the solver searched 200,000 positions without deciding. " * 4
    app.set_message(long.strip(), warn=True)
    settle(app)
    label = app.status["message"]
    assert label.cget("text").endswith("…")
    label.event_generate("<Enter>", x=5, y=5)
    deadline = time.monotonic() + 5
    while app.status_bar.tooltip.window is None and time.monotonic() < deadline:
        root.update()
        time.sleep(0.02)
    tip = app.status_bar.tooltip.window
    assert tip is not None and tip.winfo_ismapped()
    assert [w.cget("text") for w in tip.winfo_children()] == [long.strip()]
    label.event_generate("<Leave>")
    root.update()
    assert app.status_bar.tooltip.window is None


# --------------------------------------------------------------------------- hints


class DetourJob:
    """A solver job that at once "finds" a solution going through a cell: 7♥ to cell 1,
    then from cell 1 onto 8♥ (the direct move is legal)."""

    def __init__(self, state, **kwargs) -> None:
        self.done = True
        self.error = None
        moves = (Move.parse("t1>c1"), Move.parse("c1>t2"))
        self.result = SolveResult(Verdict.WINNABLE, moves=moves)

    def start(self) -> None:
        pass

    def cancel(self) -> None:
        pass


def test_a_hint_takes_no_detour_and_adjacent_piles_get_an_arrow(
    root, tmp_path, board, seahaven, monkeypatch
):
    import solitaire_tk.shell.assist as assist_module

    monkeypatch.setattr(assist_module, "SolverJob", DetourJob)
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KH,7H", "8H", "QS"]))
    key(app.view, "h", CONTROL)
    deadline = time.monotonic() + 10
    while not app.message.startswith("Hint") and time.monotonic() < deadline:
        root.update()
        time.sleep(0.01)
    assert app.message == "Hint: 7♥ from column A onto 8♥ in column B."
    assert app.view.hinted == Move.parse("t1>t2")
    assert app.view.find_withtag("hint:arrow")  # columns A and B are side by side


# ------------------------------------------------ hints and the demo across quit and resume


def a_winnable_deal(rules) -> tuple[int, tuple[Move, ...]]:
    """The first Seahaven deal the solver proves winnable, with its solution."""
    for number in range(1, 50):
        result = solve_deal(rules, number, max_states=200_000)
        if result.verdict is Verdict.WINNABLE:
            return number, result.moves
    pytest.skip("no winnable deal among the first 50")


def wait_for(root, until, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "timed out waiting for the window"
        root.update()
        time.sleep(0.005)


@pytest.mark.parametrize("demo", [True, False], ids=["demo-played", "player-only"])
def test_hints_and_the_demo_flag_survive_quit_and_resume(root, tmp_path, seahaven, demo):
    """Play, ask a hint, (let the demo play,) quit, resume, win: the resumed game keeps
    its hint count and whether the demo played, and the statistics record it so: a
    game the demo played is a loss even when the player finishes it after a restart of
    the program."""
    number, solution = a_winnable_deal(seahaven)
    app = open_app(root, tmp_path, "seahaven", deal=number)
    # Slow enough for the test to stop the demo after a few moves, before it wins.
    app.assist.demo_step_ms, app.assist.demo_show_ms = 150, 20
    assert app.play(str(solution[0]))  # the player's first move
    key(app.view, "h", CONTROL)
    wait_for(root, lambda: app.message.startswith("Hint"))
    assert (app.hints, app.used_hint, app.demo_played) == (1, True, False)
    if demo:
        key(app.view, "d", CONTROL)
        wait_for(root, lambda: app.session.moves >= 3)
        key(app.view, "Escape")  # stops the demo; its moves stay on the table
        wait_for(root, lambda: not app.assist.demo_running)
        assert app.demo_played and not app.session.is_won
    else:
        for move in solution[1:3]:
            assert app.play(str(move))
    moves = app.session.move_texts()
    app.quit()

    store = AppStore(tmp_path, registry=get_registry())
    saved = store.offer_resume()
    assert saved is not None and (saved.hints, saved.demo_played) == (1, demo)
    assert store.stats.summary() == []  # not ended: it can be resumed
    again = tk.Tk()
    try:
        app2 = Answering(again, store=store, modal=False, answer=True)
        app2.view.animation = False
        assert app2.session.move_texts() == moves
        assert (app2.hints, app2.used_hint, app2.demo_played) == (1, True, demo)
        if not demo:
            key(app2.view, "h", CONTROL)  # the count goes on from the saved one
            wait_for(again, lambda: app2.hints == 2)
        rest = solve(app2.session.state, max_states=200_000)
        assert rest.verdict is Verdict.WINNABLE
        for move in rest.moves:  # the player finishes the game
            assert app2.play(move)
        assert app2.session.is_won
        figures = app2.dialog.figures
        assert figures["Hints"] == ("1" if demo else "2")
        assert app2.dialog.title() == ("Solved by the demo" if demo else "You won!")
        (entry,) = store.stats.summary("seahaven")
        if demo:
            assert (entry.won, entry.lost, entry.wins_with_hints) == (0, 1, 0)
        else:
            assert (entry.won, entry.lost, entry.wins_with_hints) == (1, 0, 1)
        assert (entry.hints_used, entry.hint_counted_games) == (1 if demo else 2, 1)
        app2.quit()
    finally:
        close(again)


@pytest.mark.parametrize("width", [640, 1024])
def test_a_long_message_never_pushes_the_figures_out_of_the_status_bar(root, tmp_path, width):
    app = open_app(root, tmp_path, "fan")
    root.geometry(f"{width}x600")
    settle(app)
    status = app.status
    long = "Ten of Hearts can only go to a foundation, where its rank becomes every column's. " * 3
    app.set_message(long.strip(), warn=True)
    settle(app)
    bar = app.status_bar.frame
    for name in ("deal", "moves", "score", "time", "cards", "cheats"):
        label = status[name]
        assert label.winfo_ismapped(), name
        # Whole and inside the bar: not clipped at either edge, not squeezed.
        assert label.winfo_x() >= 0 and label.winfo_x() + label.winfo_width() <= bar.winfo_width()
        assert label.winfo_width() >= label.winfo_reqwidth(), name
    assert status["score"].cget("text") == "Score 0"
    shown = status["message"]
    assert shown.cget("text").endswith("…")  # the message gives way, shortened
    assert shown.winfo_x() + shown.winfo_width() <= status["deal"].winfo_x()
