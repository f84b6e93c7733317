"""The Progression tab of the statistics window, driven with real X input on screens of
1024x600 and 1366x768: a real click on the tab and on a span, the bars, lines, axes and
legend on the canvas, the figures of the bar under the pointer, another game chosen in
the list, and the histories too short to chart."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from screens import (  # noqa: F401 (the fixtures screen and screen_root)
    SMALL_SCREENS,
    inside,
    screen_fixture,
    screen_root_fixture,
    wait_until,
)
from solitaire_tk.dialogs import progress_chart
from solitaire_tk.dialogs import stats as stats_dialog

from solitaire_core.persistence import StatsStore

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

NOW = datetime.now(timezone.utc)
# (days ago, won, seconds): six games of Sea Towers over four days.
GAMES = [(3.2, False, 400.0), (3.1, True, 380.0), (2, True, 300.0), (0.2, False, 200.0),
         (0.1, True, 250.0), (0.05, True, 240.0)]  # fmt: skip


def record_sea_towers(store: StatsStore) -> None:
    """Record :data:`GAMES` in ``store``."""
    for days, won, seconds in GAMES:
        store.record_game(
            "sea-towers", {"empty_columns": "any"}, 7, won=won, moves=90, seconds=seconds,
            used_undo=False, used_hint=False, cheated=False,
            finished_at=NOW - timedelta(days=days),
        )  # fmt: skip


@pytest.fixture
def store(tmp_path):
    with StatsStore(tmp_path / "stats.sqlite3") as store:
        record_sea_towers(store)
        store.record_game(
            "seahaven", {}, 3, won=True, moves=80, seconds=125.0, used_undo=False,
            used_hint=False, cheated=False, finished_at=NOW,
        )  # fmt: skip
        yield store


def open_dialog(screen, root, store):
    """The statistics window over a game window as large as the screen allows."""
    root.geometry(f"{min(1100, screen.width)}x{screen.height - 60}+0+0")
    wait_until(root, lambda: root.winfo_width() == min(1100, screen.width))
    dialog = stats_dialog.show_statistics(root, store, wait=False)
    dialog.update()
    return dialog


def click_tab(screen, dialog, text):
    """A real click on the notebook's tab labelled ``text``."""
    notebook = dialog.notebook
    notebook.update()
    wanted = next(i for i, tab in enumerate(notebook.tabs()) if notebook.tab(tab, "text") == text)
    y = 10
    x = next(x for x in range(notebook.winfo_width()) if _tab_at(notebook, x, y) == wanted)
    screen.run("xdotool", "mousemove", "--sync", str(notebook.winfo_rootx() + x + 8),
               str(notebook.winfo_rooty() + y), "click", "1")  # fmt: skip


def _tab_at(notebook, x, y):
    try:
        return notebook.index(f"@{x},{y}")
    except Exception:  # no tab there
        return None


def texts(canvas, tag):
    """The texts of the canvas's text items tagged ``tag``."""
    items = canvas.find_withtag(tag)
    return [canvas.itemcget(item, "text") for item in items if canvas.type(item) == "text"]


def tagged(canvas, index, kind):
    """The items of the period ``index`` tagged ``kind`` (``"played"``, ``"won"``)."""
    return [i for i in canvas.find_withtag(f"period-{index}") if kind in canvas.gettags(i)]


def height_of(canvas, item):
    x0, y0, x1, y1 = canvas.coords(item)
    return y1 - y0


@pytest.mark.parametrize("screen", SMALL_SCREENS, indirect=True)
def test_the_progression_tab_charts_the_chosen_game(screen, screen_root, store):
    dialog = open_dialog(screen, screen_root, store)
    chart, canvas = dialog.chart, dialog.chart.canvas
    assert dialog.notebook.select() != str(chart)  # the table first
    click_tab(screen, dialog, "Progression")
    wait_until(screen_root, lambda: dialog.showing_chart() and canvas.find_withtag("played"))
    wait_until(screen_root, lambda: canvas.winfo_height() > 100)
    # The first row, Sea Towers, over all time: a week day by day (a short history).
    assert chart.chooser.get() == "Sea Towers (Empty columns take: Any card)"
    progress = chart.progress
    assert progress is not None and progress.span == "all" and progress.unit == "day"
    assert len(progress.periods) == 7 and progress.played == 6 and progress.won == 4
    days = [p for p in progress.periods if p.played]
    assert len(canvas.find_withtag("played")) == len(days)
    assert len(canvas.find_withtag("won")) == len([p for p in days if p.won])
    for index, period in enumerate(progress.periods):
        played, won = tagged(canvas, index, "played"), tagged(canvas, index, "won")
        assert len(played) == (period.played > 0) and len(won) == (period.won > 0)
        if played and won:  # the games won, drawn over all the games, in proportion
            ratio = height_of(canvas, won[0]) / height_of(canvas, played[0])
            assert ratio == pytest.approx(period.won / period.played, abs=0.05)
    assert canvas.find_withtag("rate-line") and canvas.find_withtag("fastest-line")
    assert len(canvas.find_withtag("fastest-point")) == sum(p.record for p in progress.periods)
    assert progress.periods[-1].win_rate == pytest.approx(4 / 6)
    assert progress.periods[-1].fastest_seconds == 240.0
    # Labelled: the axes, the legend, every period's name that fits, the times.
    legend = texts(canvas, "legend")
    assert {"Played", "Won", "Win rate so far"} <= set(legend)
    assert any(text.startswith("Fastest win so far") for text in legend)
    assert {"Games", "Win rate"} <= set(texts(canvas, "axis"))
    ticks = texts(canvas, "tick")
    assert {"0", "0%", "100%", "4:00", "6:20"} <= set(ticks)
    labels = texts(canvas, "period-label")
    assert progress.periods[-1].label in labels and len(labels) >= 4
    assert texts(canvas, "unit-title") == ["Days"]
    assert texts(canvas, "strip-title") == ["Fastest win so far"]
    # Everything drawn lies on the canvas, and the window on the screen.
    x0, y0, x1, y1 = canvas.bbox("all")
    assert 0 <= x0 and 0 <= y0 and x1 <= canvas.winfo_width() and y1 <= canvas.winfo_height()
    for widget in (dialog, canvas, dialog.close_button, *chart.span_buttons.values()):
        assert inside(widget, screen.width, screen.height), widget
    screen.screenshot(f"progression-{screen.width}x{screen.height}")

    # The pointer on a bar gives its figures under the chart.
    index = max(range(len(progress.periods)), key=lambda i: progress.periods[i].played)
    left, right = canvas.slots[index]
    x, y = canvas.winfo_rootx() + int((left + right) / 2), canvas.winfo_rooty() + 60
    screen.run("xdotool", "mousemove", "--sync", str(x), str(y))
    wait_until(screen_root, lambda: chart.figures_line.cget("text").startswith(
        progress.periods[index].title))  # fmt: skip
    assert "played" in chart.figures_line.cget("text")
    assert canvas.itemcget("hover", "state") == "normal"

    # A real click on "Last 7 days": the same days, counted again.
    screen.click(chart.span_buttons["week"])
    wait_until(screen_root, lambda: chart.progress.span == "week")
    assert len(chart.progress.periods) == 7 and chart.progress.played == 6
    assert chart.figures_line.cget("text").startswith("Sea Towers (Empty columns take: Any card)")
    dialog.close()


@pytest.mark.parametrize("screen", ["1024x600"], indirect=True)
def test_another_game_chosen_in_the_list_and_short_histories_say_so(screen, screen_root, store):
    dialog = open_dialog(screen, screen_root, store)
    click_tab(screen, dialog, "Progression")
    chart, canvas = dialog.chart, dialog.chart.canvas
    wait_until(screen_root, lambda: dialog.showing_chart() and canvas.find_withtag("played"))
    assert dialog.note.cget("text") == stats_dialog.CHART_NOTE
    # Seahaven Towers, chosen in the list, has one game: a sentence, no bars.
    assert chart.chooser.cget("values")[1] == "Seahaven Towers"
    chart.chooser.current(1)
    chart.chooser.event_generate("<<ComboboxSelected>>")
    wait_until(screen_root, lambda: canvas.find_withtag("note"))
    assert dialog.tree.selection() == ("1",)  # the table follows
    assert not canvas.find_withtag("played") and not canvas.find_withtag("rate-line")
    (note,) = texts(canvas, "note")
    assert note.startswith("One game recorded so far (won in 2:05, on ")
    assert chart.figures_line.cget("text") == ""
    # Back to the table: its note again; Reset all, then the chart has nothing to show.
    click_tab(screen, dialog, "Table")
    wait_until(screen_root, lambda: not dialog.showing_chart())
    assert dialog.note.cget("text") == dialog.table_note
    dialog._confirm = lambda title, question: True
    dialog.reset_all()
    screen.run("xdotool", "key", "ctrl+Tab")  # the keyboard goes from tab to tab too
    wait_until(screen_root, dialog.showing_chart)
    wait_until(screen_root, lambda: texts(canvas, "note") == ["No games recorded yet."])
    assert chart.chooser.get() == ""
    dialog.close()


def test_the_count_axis_steps_are_whole_and_reach_the_highest_bar():
    for highest in range(0, 130):
        for divisions in (2, 4):
            step = progress_chart._count_step(highest, divisions)
            assert step >= 1 and step * divisions >= highest
            if highest > divisions:  # no step twice as large as needed
                assert step < 2 * highest / divisions + 1


def test_games_that_cannot_be_read_are_reported_in_place_of_the_chart(root, store, monkeypatch):
    from solitaire_core.persistence import PersistenceError

    def fail(variant, options=None):
        raise PersistenceError("The statistics file could not be read (disk I/O error).", None)

    monkeypatch.setattr(store, "games", fail)
    dialog = stats_dialog.show_statistics(root, store, wait=False)
    dialog.notebook.select(dialog.chart)
    canvas = dialog.chart.canvas
    wait_until(root, lambda: canvas.find_withtag("note"))
    assert texts(canvas, "note") == ["The statistics file could not be read (disk I/O error)."]
    assert not canvas.find_withtag("played")
    dialog.close()


def test_ctrl_tab_goes_from_tab_to_tab_and_the_shortcuts_say_so(screen, screen_root, store):
    """Ctrl+Tab and Ctrl+Shift+Tab, real key presses, switch the statistics window's
    tabs, and Help > Keyboard shortcuts lists them."""
    from solitaire_tk.keys import SHORTCUTS

    assert any(keys == "Ctrl+Tab, Ctrl+Shift+Tab" for keys, _action in SHORTCUTS)
    dialog = open_dialog(screen, screen_root, store)
    notebook = dialog.notebook
    first = notebook.select()
    screen.click(notebook.nametowidget(first))  # the window has the keyboard focus
    screen.run("xdotool", "key", "ctrl+Tab")
    wait_until(screen_root, lambda: notebook.select() == str(dialog.chart))
    screen.run("xdotool", "key", "ctrl+shift+Tab")
    wait_until(screen_root, lambda: notebook.select() == first)


@pytest.mark.parametrize("screen", ["1024x600"], indirect=True)
def test_the_span_picked_is_the_one_the_window_opens_on_next_time(screen, screen_root, store):
    """A real click on "Last 30 days", the window closed, and the settings read again
    (as the next run of the program does): the window opens on Last 30 days, charted."""
    import attrs

    from solitaire_core.persistence import load_settings, save_settings

    def remember(span):
        save_settings(attrs.evolve(load_settings()[0], progress_span=span))

    def open_remembered():
        settings, warnings = load_settings()
        assert warnings == []
        root = screen_root
        root.geometry(f"{min(1100, screen.width)}x{screen.height - 60}+0+0")
        wait_until(root, lambda: root.winfo_width() == min(1100, screen.width))
        dialog = stats_dialog.show_statistics(
            root, store, wait=False, span=settings.progress_span, on_span=remember
        )
        dialog.update()
        click_tab(screen, dialog, "Progression")
        wait_until(root, lambda: dialog.showing_chart() and dialog.chart.progress is not None)
        return dialog

    dialog = open_remembered()
    chart = dialog.chart
    assert chart.progress.span == "all" and chart.span_buttons["all"].instate(["selected"])
    screen.click(chart.span_buttons["month"])
    wait_until(screen_root, lambda: chart.progress.span == "month")
    assert load_settings()[0].progress_span == "month"
    dialog.close()

    dialog = open_remembered()
    chart = dialog.chart
    wait_until(screen_root, lambda: chart.canvas.find_withtag("played"))
    assert chart.span_buttons["month"].instate(["selected"])
    assert not chart.span_buttons["all"].instate(["selected"])
    progress = chart.progress
    assert progress.span == "month" and progress.unit == "day"
    assert len(progress.periods) == 30 and progress.played == 6 and progress.won == 4
    assert chart.figures_line.cget("text").startswith(
        "Sea Towers (Empty columns take: Any card), last 30 days: 6 played, 4 won (67%)."
    )
    # Back to All time: remembered too.
    screen.click(chart.span_buttons["all"])
    wait_until(screen_root, lambda: chart.progress.span == "all")
    assert load_settings()[0].progress_span == "all"
    dialog.close()


def test_the_game_window_opens_statistics_on_the_span_picked_last(root, solitaire_home):
    """Game > Statistics, Last 12 months picked, the window closed and opened again, and
    the program started again: the Progression tab shows Last 12 months each time."""
    import tkinter as tk

    from ui_helpers import close, open_app

    with StatsStore(solitaire_home / "data" / "stats.sqlite3") as stats:
        record_sea_towers(stats)

    def open_chart(app):
        app.show_statistics()
        dialog = app.dialog
        dialog.notebook.select(dialog.chart)
        wait_until(app.root, lambda: dialog.chart.canvas.find_withtag("played"))
        return dialog

    app = open_app(root, solitaire_home)
    dialog = open_chart(app)
    assert dialog.chart.progress.span == "all"
    dialog.chart.span_buttons["year"].invoke()
    assert dialog.chart.progress.span == "year"
    dialog.close()
    dialog = open_chart(app)
    assert dialog.chart.span_buttons["year"].instate(["selected"])
    assert dialog.chart.progress.span == "year" and dialog.chart.progress.unit == "month"
    assert ", last 12 months: 6 played, 4 won" in dialog.chart.figures_line.cget("text")
    dialog.close()
    app.quit()

    again = tk.Tk()
    try:
        app = open_app(again, solitaire_home)
        dialog = open_chart(app)
        assert dialog.chart.span_buttons["year"].instate(["selected"])
        assert dialog.chart.progress.span == "year"
        dialog.close()
    finally:
        close(again)
