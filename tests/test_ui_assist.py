"""The solver in the game window (ui_tk/shell/assist.py), in a real Tk window (Xvfb via
pytest-xvfb): hints drawn on the table, a position that cannot be won, searches that never
freeze the window and can be cancelled, the demo, winnable deals only, the winnability
field. Deals and positions are chosen by asking the solver itself, never hard-coded."""

from __future__ import annotations

import functools
import time
import tkinter as tk
from collections.abc import Callable

import pytest
import solitaire_tk.shell.app as app_module
from solitaire_tk.shell.app import App
from solitaire_tk.shell.assist import describe_move
from solitaire_tk.shell.persist import AppStore
from solitaire_tk.table.layout import pile_keys
from ui_helpers import close, key, open_app, pump, put

from solitaire_core.moves import Move
from solitaire_core.persistence import read_save
from solitaire_core.plugins import get_registry, get_variant
from solitaire_core.rules import legal_moves, pile_accepts
from solitaire_core.session import Session
from solitaire_core.solver import Verdict, native, solve, solve_deal
from solitaire_core.state import GameState

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

SMALL = {"timeout": 10.0, "max_states": 100_000}


def idle(app: App) -> bool:
    return app.assist.search_job is None and not app.assist.busy_searching


def first_deal(variant: str, verdict: Verdict, *, fewest: bool = False, **options: str) -> int:
    """The first deal (of 1..300) the solver classes as ``verdict`` (with ``fewest``:
    the winnable one of the first 30 with the shortest solution)."""
    rules = get_variant(variant).resolve(options)
    found: list[tuple[int, int]] = []
    for number in range(1, 301):
        result = solve_deal(rules, number, **SMALL)  # type: ignore[arg-type]
        if result.verdict is verdict:
            if not fewest:
                return number
            found.append((len(result.moves), number))
        if fewest and number >= 30 and found:
            return min(found)[1]
    pytest.skip(f"no {verdict.value} deal of {variant} among the first 300")


def locked(rules) -> GameState:
    """Seahaven position that cannot be won but has moves: every Ace lies under its
    Queen, whose King is under the Ace; the Twos fill the cells, the Threes are under the
    Queens, and the rest of each suit sits in a column that can only be moved onto its
    Queen, one card at a time."""
    columns = []
    for suit in "SHDC":
        columns.append(f"K{suit},A{suit},3{suit},Q{suit}")
    for suit in "SHDC":
        columns.append(",".join(f"{r}{suit}" for r in "456789TJ"))
    text = " ".join([*columns, "-", "-"]) + " | 2C 2D 2H 2S | - - - -"
    return GameState.from_text(rules, text)


# --------------------------------------------------------------------------- words


def test_a_hint_names_the_foundation_pile_where_several_take_the_card():
    """Stalactites' piles start from dealt ranks and end apart, so which pile a card goes
    on matters (#92 is won only by choosing): where the solution puts a card that piles of
    different heights take, the hint's words name the pile, as the arrow shows it; where
    one pile takes it (or only piles alike), they say "to the foundation"."""
    rules = get_variant("stalactites").resolve()
    keys = pile_keys(rules)
    session = Session(rules, 92)
    result = solve(session.state)
    assert result.verdict is Verdict.WINNABLE
    said = {"named": 0, "plain": 0}
    for move in result.moves:
        state = session.state
        if move.target.kind.value == "f":
            card = state.pile(move.source)[-1]
            takers = [i for i in range(len(state.foundations)) if pile_accepts(state, i, card)]
            words = describe_move(state, move, keys)
            if len({len(state.foundations[i]) for i in takers}) > 1:
                top = state.foundations[move.target.index][-1].label
                name = f"foundation {keys[move.target].upper()}"
                assert words.endswith(f"onto {top} in {name}"), words
                said["named"] += 1
            else:
                assert words.endswith("to the foundation"), words
                said["plain"] += 1
        session.play(move)
    assert session.is_won and said["named"] and said["plain"], said


def test_describe_move_names_cards_and_piles_as_the_table_shows_them(board, seahaven):
    state = board(seahaven, ["8S", "KH,7S", "", "9H,8H,7H", "6D"], cells=["AD"])
    keys = pile_keys(seahaven)
    assert describe_move(state, Move.parse("t2>t1"), keys) == (
        "7♠ from column B onto 8♠ in column A"
    )
    assert describe_move(state, Move.parse("c1>f"), keys) == ("A♦ from cell 1 to the foundation")
    assert describe_move(state, Move.parse("t5>c2"), keys) == "6♦ from column E to cell 2"
    state = board(seahaven, ["8S", "KH,QH,JH", ""])
    assert describe_move(state, Move.parse("t2>t3x3"), keys) == (
        "K♥–J♥ from column B to the empty column C"
    )


def test_a_hint_in_pyramid_names_the_pair_and_a_layouts_cards_by_themselves():
    """Pyramid deal 35: a pair by its two cards (the stock's top card said so), a King
    alone to the foundation, a deal a deal; a card of the layout has no letter, so the
    words name no column."""
    rules = get_variant("pyramid").resolve()
    keys = pile_keys(rules)
    state = Session(rules, 35).state
    said = {str(m): describe_move(state, m, keys) for m in legal_moves(state)}
    assert said["t22>t23"] == "pair 6♦ with 7♥"
    assert said["s>t27"] == "pair 10♠ (the stock's top card) with 3♣"
    assert said["t27>s"] == "pair 3♣ with 10♠ (the stock's top card)"
    assert said["t24>f1"] == "K♠ to the foundation"
    assert said["s>w"] == "deal from the stock"
    assert not any("column" in words for words in said.values())


# --------------------------------------------------------------------------- hint


def test_hint_outlines_a_legal_move_and_says_it_in_words(root, tmp_path):
    number = first_deal("seahaven", Verdict.WINNABLE)
    app = open_app(root, tmp_path, "seahaven", deal=number)
    state = app.session.state
    app.hint()
    pump(root, lambda: idle(app) and app.view.hinted is not None)
    hinted = app.view.hinted
    assert hinted in legal_moves(state)
    assert app.status["message"].cget("text") == (
        f"Hint: {describe_move(state, hinted, app.view.key_of)}."
    )
    # The outlines surround the card that moves and the place it goes.
    assert app.view.find_withtag("hint:arrow")
    top = state.pile(hinted.source)[-1]
    x, y = app.view.card_center(top)
    assert set(app.view.find_withtag("hint:source")) & set(app.view.find_overlapping(x, y, x, y))
    x, y = app.view.pile_center(hinted.target)
    assert app.view.find_withtag("hint:target")
    tx0, ty0, tx1, ty1 = app.view.bbox("hint:target")
    assert tx0 <= x <= tx1 and ty0 <= y <= ty1
    assert app.used_hint

    # The solution is kept: after playing the hinted move the next hint needs no search.
    assert app.play(hinted)
    assert not app.view.find_withtag("hint")
    app.view.finish_animation()
    app.hint()
    assert app.assist.search_job is None
    assert app.view.hinted in legal_moves(app.session.state)

    # The autosave and the statistics know a hint was used.
    app._autosave_now()
    assert read_save(app.store.autosave_path()).used_hint


def test_hint_on_a_position_that_cannot_be_won_says_so(root, tmp_path, seahaven):
    state = locked(seahaven)
    assert legal_moves(state), "the position must have moves"
    assert solve(state, **SMALL).verdict is Verdict.UNWINNABLE  # type: ignore[arg-type]
    app = open_app(root, tmp_path, "seahaven")
    put(app, state)
    app.hint()
    pump(root, lambda: idle(app))
    text = app.status["message"].cget("text")
    assert text.startswith("Cannot be won from here")
    assert app.view.hinted is None and not app.view.find_withtag("hint")
    app.set_show_winnability(True)
    assert app.assist.field.cget("text") == "Cannot be won"


@functools.cache
@functools.cache
def _stop_after(positions: int) -> tuple[Callable[[int], None], Callable[[], bool]]:
    """A search's ``progress`` callback and a ``cancel`` that is true once the search has
    stored ``positions``."""
    stored = [0]

    def count(now: int) -> None:
        stored[0] = now

    return count, lambda: stored[0] >= positions


@functools.cache
def _hard_deal_number() -> int:
    """A Seahaven deal whose search, as the tests run it (the Python engine, a budget of
    10,000,000 positions), stores more than 30,000 positions: seconds of work, whatever
    the machine's speed. Looked up with that engine and budget, as the two engines (and
    two budgets, which share the positions out differently) may take very different
    paths: the deal the compiled engine needs most positions for was won or lost by the
    Python one in about a second, before the window's Cancel button had shown."""
    rules = get_variant("seahaven").resolve()
    for number in range(1, 1001):
        count, enough = _stop_after(30_000)
        result = solve_deal(
            rules, number, max_states=10_000_000, engine="python", progress=count, cancel=enough
        )
        if result.reason == "cancelled":
            return number
    pytest.fail("no Seahaven deal of 1-1000 needs 30,000 positions")


@pytest.fixture
def hard_deal() -> Callable[[], int]:
    """The hard deal's number (looked up once per test process)."""
    number = _hard_deal_number()
    return lambda: number


@pytest.fixture
def python_solver(monkeypatch, hard_deal):
    """The pure-Python solver engine, as without the compiled core: it holds the GIL, and
    its searches are long enough for these tests to watch one run."""
    monkeypatch.setattr(native, "_csolver", None)


def test_a_hint_search_never_freezes_the_window_and_cancel_stops_it(
    root, tmp_path, hard_deal, python_solver
):
    app = open_app(root, tmp_path, "seahaven", deal=hard_deal())
    app.assist.hint_budget = {"timeout": 600.0, "max_states": 10_000_000}
    ticks: list[float] = []

    def tick() -> None:
        ticks.append(time.monotonic())
        root.after(10, tick)

    root.after(10, tick)
    app.hint()
    job = app.assist.search_job
    assert job is not None
    # The event loop keeps running while the solver works: it ticks, and the Cancel
    # button (shown once a search has taken a moment) appears before the search ends.
    # (Each half waited for on its own, with time to spare on a loaded machine, so a
    # failure says which half was missing.)
    pump(root, lambda: len(ticks) >= 5 or job.done, seconds=60)
    assert not job.done, f"the search ended first: {job.result}"
    pump(root, lambda: app.assist.cancel_button.winfo_ismapped() or job.done, seconds=60)
    assert not job.done, f"the search ended first: {job.result}"
    assert app.status["message"].cget("text").startswith("Looking for a hint…")
    assert app.assist.cancel_button.winfo_ismapped()
    assert app.menus["game"].entrycget("Stop", "state") == "normal"

    button = app.assist.cancel_button
    button.event_generate("<Enter>", x=5, y=5)
    button.event_generate("<ButtonPress-1>", x=5, y=5)
    button.event_generate("<ButtonRelease-1>", x=5, y=5)
    pump(root, lambda: job.done, seconds=5)
    assert job.result is not None and job.result.reason == "cancelled"
    assert app.status["message"].cget("text") == "Hint cancelled."
    assert app.assist.search_job is None
    assert not app.assist.cancel_button.winfo_ismapped()
    assert app.menus["game"].entrycget("Stop", "state") == "disabled"
    assert app.view.hinted is None


def test_a_move_during_a_hint_search_cancels_the_stale_search(
    root, tmp_path, hard_deal, python_solver
):
    app = open_app(root, tmp_path, "seahaven", deal=hard_deal())
    app.assist.hint_budget = {"timeout": 60.0, "max_states": 10_000_000}
    app.hint()
    job = app.assist.search_job
    assert job is not None
    moves = app.session.moves
    # A real key press is handled at once: the pile key of a column with a move.
    state = app.session.state
    column = next(m.source for m in legal_moves(state) if m.source.kind.value == "t")
    key(app.view, app.view.key_of[column])
    assert app.session.moves == moves + 1
    pump(root, lambda: job.done, seconds=5)
    assert job.result is not None and job.result.reason == "cancelled"
    assert app.assist.search_job is None and app.view.hinted is None


# --------------------------------------------------------------------------- demo


def test_the_demo_plays_an_easy_deal_to_a_win_and_undo_works_after(root, tmp_path):
    number = first_deal("sea-towers", Verdict.WINNABLE, fewest=True, empty_columns="any")
    app = open_app(root, tmp_path, "sea-towers", deal=number, empty_columns="any")
    app.assist.demo_step_ms, app.assist.demo_show_ms = 20, 5
    app.demo()
    pump(root, lambda: app.session.is_won and not app.view.animating)
    assert not app.assist.demo_running
    assert app.status["message"].cget("text") == "The demo won the game."
    assert app.dialog is not None and app.dialog.title() == "Solved by the demo"
    [entry] = app.store.stats.summary("sea-towers")
    assert entry.won == 0 and entry.lost == 1  # never the player's win
    moves = app.session.moves
    app.undo()
    assert not app.session.is_won and app.session.moves == moves - 1


def test_any_key_stops_the_demo_and_does_nothing_else(root, tmp_path):
    number = first_deal("seahaven", Verdict.WINNABLE)
    app = open_app(root, tmp_path, "seahaven", deal=number)
    app.view.animation = True  # the demo waits for autoplay's animation between moves
    app.assist.demo_step_ms, app.assist.demo_show_ms = 30, 10
    app.demo()
    pump(root, lambda: app.session.moves >= 3)
    assert app.assist.demo_running
    key(app.view, "a")  # a pile key, which would move a card if the demo were not on
    assert not app.assist.demo_running
    moves = app.session.moves
    stopped = time.monotonic()
    pump(root, lambda: time.monotonic() - stopped > 0.3)
    assert app.session.moves == moves
    assert app.status["message"].cget("text").startswith("Demo stopped.")
    app.undo()
    assert app.session.moves == moves - 1

    # Escape stops it too; and Game > Stop (the same command).
    app.demo()
    pump(root, lambda: app.session.moves >= moves + 1)
    app.view.focus_force()
    root.update()
    app.view.event_generate("<KeyPress>", keysym="Escape")
    root.update()
    assert not app.assist.demo_running


# --------------------------------------------------------------------------- winnable deals


def test_new_deal_with_winnable_only_deals_a_deal_the_solver_proves_winnable(
    root, tmp_path, monkeypatch
):
    unwinnable = first_deal("seahaven", Verdict.UNWINNABLE)
    winnable = first_deal("seahaven", Verdict.WINNABLE)
    drawn = iter([unwinnable, winnable])
    monkeypatch.setattr(app_module, "random_deal", lambda: next(drawn))
    app = open_app(root, tmp_path, "seahaven", deal=1)
    app.set_winnable_only(True)
    old = app.session
    app.new_deal()
    pump(root, lambda: app.session is not old)
    number = app.session.deal_number
    assert number == winnable  # the unwinnable one was skipped
    assert solve_deal(app.session.rules, number, **SMALL).verdict is Verdict.WINNABLE  # type: ignore[arg-type]
    assert app.status["message"].cget("text").startswith(f"Deal {number} is winnable")
    # The solution found is kept: the first hint is instant.
    app.hint()
    assert app.assist.search_job is None and app.view.hinted is not None


def test_the_launcher_check_box_round_trips_through_the_settings(root, tmp_path):
    registry = get_registry()
    app = App(root, store=AppStore(tmp_path, registry=registry), modal=False, offer_resume=False)
    root.update()
    launcher = app.launcher
    assert launcher is not None and not launcher.winnable_var.get()
    check = launcher.winnable_check
    check.event_generate("<Enter>", x=4, y=4)
    check.event_generate("<ButtonPress-1>", x=4, y=4)
    check.event_generate("<ButtonRelease-1>", x=4, y=4)
    root.update()
    assert launcher.winnable_var.get()
    assert AppStore(tmp_path, registry=registry).settings.winnable_only
    assert app.winnable_only_var.get()

    # Play with an empty deal field: a deal the solver proves winnable.
    launcher.select("sea-towers")
    launcher.set_option("empty_columns", "any")
    launcher.deal_var.set("")
    launcher.play()
    pump(root, lambda: app.session is not None)
    rules = app.session.rules
    assert rules.id == "sea-towers"
    assert solve_deal(rules, app.session.deal_number, **SMALL).verdict is Verdict.WINNABLE  # type: ignore[arg-type]

    # A new window starts with the box ticked.
    app.close(save=True)
    root2 = tk.Tk()
    try:
        app2 = App(root2, store=AppStore(tmp_path, registry=registry), modal=False,
                   offer_resume=False)  # fmt: skip
        root2.update()
        assert app2.launcher is not None and app2.launcher.winnable_var.get()
        assert app2.winnable_only_var.get()
    finally:
        close(root2)


def test_cancel_in_the_launcher_stops_looking_for_a_winnable_deal(
    root, tmp_path, monkeypatch, hard_deal, python_solver
):
    # Every deal drawn is one the solver cannot decide within the tiny budget below.
    app = App(root, store=AppStore(tmp_path, registry=get_registry()), modal=False,
              offer_resume=False)  # fmt: skip
    root.update()
    app.assist.deal_budget = {"timeout": 60.0, "max_states": 10_000_000}
    monkeypatch.setattr(app_module, "random_deal", hard_deal)
    app.set_winnable_only(True)
    launcher = app.launcher
    launcher.select("seahaven")
    launcher.play()
    root.update()
    assert launcher.busy and launcher.cancel_button.winfo_ismapped()
    assert launcher.busy_label.cget("text").startswith("Finding a winnable deal")
    job = app.assist.search_job
    assert job is not None
    launcher.cancel_button.invoke()
    pump(root, lambda: job.done, seconds=5)
    root.update()
    assert not launcher.busy and app.session is None and app.launcher is launcher
    assert "disabled" not in launcher.play_button.state()


# --------------------------------------------------------------------------- winnability field


def test_the_winnability_field_follows_the_position(root, tmp_path, seahaven):
    number = first_deal("seahaven", Verdict.WINNABLE)
    app = open_app(root, tmp_path, "seahaven", deal=number)
    field = app.assist.field
    assert not field.winfo_ismapped()
    app.set_show_winnability(True)
    root.update()
    assert field.winfo_ismapped()
    pump(root, lambda: field.cget("text") == "Winnable")
    assert not app.used_hint  # the field is not a hint
    put(app, locked(seahaven))
    pump(root, lambda: field.cget("text") == "Cannot be won")
    app.set_cheat(True)
    assert field.cget("text") == "Cannot be won without Cheat"
    app.set_show_winnability(False)
    root.update()
    assert not field.winfo_ismapped()


def test_show_winnability_is_remembered_by_the_next_window(root, tmp_path):
    registry = get_registry()
    app = open_app(root, tmp_path, "seahaven")
    options = app.menus["options"]
    options.invoke("Show winnability")
    root.update()
    assert app.assist.field.winfo_ismapped()
    assert AppStore(tmp_path, registry=registry).settings.show_winnability
    app.close(save=True)

    # The next window starts with the menu ticked and the field on the status bar.
    root2 = tk.Tk()
    root2.geometry("1100x760+0+0")
    try:
        app2 = App(root2, store=AppStore(tmp_path, registry=registry), variant="seahaven",
                   deal=1, modal=False)  # fmt: skip
        root2.update()
        assert app2.winnability_var.get() and app2.assist.show_winnability
        assert app2.assist.field.winfo_ismapped()
        app2.menus["options"].invoke("Show winnability")
        root2.update()
        assert not app2.assist.field.winfo_ismapped()
        assert not AppStore(tmp_path, registry=registry).settings.show_winnability
        app2.close(save=False)
    finally:
        close(root2)


def test_a_move_to_any_foundation_is_drawn_at_the_foundation_it_goes_to(
    root, tmp_path, board, seahaven
):
    state = board(
        seahaven,
        ["KS", "QS,AS", "JS,2S", "TS,9S,8S,7S,6S,5S,4S,3S"],
        foundations=["AC..KC", "AD..KD", "AH..KH"],
    )
    app = open_app(root, tmp_path, "seahaven")
    app.begin(Session(seahaven, 7, state=state, autoplay="off"))
    root.update()
    assert app.view.highlight_move(Move.parse("t2>f"))  # as the solver gives it
    assert app.view.hinted == Move.parse("t2>f4")
    x, y = app.view.pile_center(app.view.hinted.target)
    x0, y0, x1, y1 = app.view.bbox("hint:target")
    assert x0 <= x <= x1 and y0 <= y <= y1
    app.view.clear_highlight()
    assert not app.view.find_withtag("hint") and app.view.hinted is None
    assert not app.view.highlight_move(Move.parse("t3>f"))  # 2S cannot go up yet
    assert not app.view.find_withtag("hint")


def test_an_opened_game_remembers_that_a_hint_was_used(root, tmp_path):
    number = first_deal("seahaven", Verdict.WINNABLE)
    app = open_app(root, tmp_path, "seahaven", deal=number)
    app.hint()
    pump(root, lambda: idle(app) and app.view.hinted is not None)
    assert app.play(app.view.hinted)
    path = tmp_path / "hinted.json"
    assert app.save_path(path)
    app.new_deal()
    assert not app.used_hint
    assert app.open_path(path)
    assert app.session.deal_number == number and app.session.moves == 1
    assert app.used_hint  # a win from here counts as one with hints


def test_a_resumed_game_remembers_that_a_hint_was_used(root, tmp_path, monkeypatch):
    number = first_deal("seahaven", Verdict.WINNABLE)
    app = open_app(root, tmp_path, "seahaven", deal=number)
    app.hint()
    pump(root, lambda: idle(app) and app.view.hinted is not None)
    assert app.play(app.view.hinted)
    app.close(save=True)  # the autosave
    monkeypatch.setattr(App, "confirm", lambda self, title, question: True)
    root2 = tk.Tk()
    try:
        app2 = App(root2, store=AppStore(tmp_path, registry=get_registry()), modal=False)
        assert app2.session is not None and app2.session.moves == 1
        assert app2.used_hint
    finally:
        close(root2)
