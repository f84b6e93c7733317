"""Leaving a game with a move for another counts it as lost: the app asks first, with
"Don't ask again" kept in the settings (real clicks through xdotool)."""

from __future__ import annotations

import pytest
from screens import screen_fixture, screen_root_fixture  # noqa: F401 (fixtures)
from solitaire_tk.dialogs.common import LeaveDialog
from solitaire_tk.shell.persist import AppStore
from ui_helpers import CONTROL, key, open_app, pump

from solitaire_core.plugins import get_registry

pytestmark = [
    pytest.mark.gui,
    pytest.mark.usefixtures("solitaire_home"),
    pytest.mark.parametrize("screen", ["1366x768"], indirect=True),
]


def lost(app, variant: str = "seahaven") -> int:
    """How many games of ``variant`` the statistics count as lost."""
    return sum(entry.lost for entry in app.store.stats.summary(variant))


def asked(app) -> LeaveDialog:
    """The leave question now open."""
    dialog = app.dialog
    assert isinstance(dialog, LeaveDialog) and dialog.winfo_exists()
    dialog.update()
    return dialog


def test_restart_asks_first_and_cancel_keeps_the_game(screen, screen_root, tmp_path):
    app = open_app(screen_root, tmp_path, ask_leave=True)
    key(app.view, "a")  # Seahaven deal 1: column A's card has a place to go
    session, state = app.session, app.session.state
    assert session.moves == 1
    screen.click(app.toolbar.buttons["restart"])
    dialog = asked(app)
    assert dialog.message == "Leaving this game counts as a loss. Restart?"
    screen.click(dialog.choice_buttons["cancel"])
    assert not dialog.winfo_exists()
    assert app.session is session and session.state is state and session.moves == 1
    assert lost(app) == 0
    # Asked again, and Leave restarts the deal and counts the game as lost.
    screen.click(app.toolbar.buttons["restart"])
    screen.click(asked(app).choice_buttons["leave"])
    assert app.session is not session and app.session.moves == 0
    assert lost(app) == 1
    assert AppStore(tmp_path, registry=get_registry()).settings.confirm_leave is True


def test_dont_ask_again_is_kept_in_the_settings(screen, screen_root, tmp_path):
    app = open_app(screen_root, tmp_path, ask_leave=True)
    key(app.view, "a")
    key(app.view, "F2")  # New deal
    dialog = asked(app)
    assert dialog.message == "Leaving this game counts as a loss. Deal a new game?"
    screen.click(dialog.dont_ask)
    assert dialog.dont_ask_var.get()
    screen.click(dialog.choice_buttons["leave"])
    pump(screen_root, lambda: app.session.moves == 0)
    assert lost(app) == 1
    assert AppStore(tmp_path, registry=get_registry()).settings.confirm_leave is False
    # From now on New deal and Restart leave at once (and still count the game as lost).
    session = app.session
    key(app.view, "a")
    assert session.moves == 1
    key(app.view, "r", CONTROL)
    assert not isinstance(app.dialog, LeaveDialog) or not app.dialog.winfo_exists()
    assert app.session is not session and lost(app) == 2


def test_another_game_from_the_launcher_asks_first(screen, screen_root, tmp_path):
    app = open_app(screen_root, tmp_path, ask_leave=True)
    key(app.view, "a")
    session = app.session
    key(app.view, "l", CONTROL)
    launcher = app.launcher
    launcher.select("sea-towers")
    screen.click(launcher.play_button)
    dialog = asked(app)
    assert dialog.message == "Leaving this game counts as a loss. Play Sea Towers?"
    screen.click(dialog.choice_buttons["cancel"])
    assert app.launcher is launcher and app.session is session and lost(app) == 0
    screen.click(launcher.play_button)
    screen.click(asked(app).choice_buttons["leave"])
    assert app.launcher is None and app.session.rules.id == "sea-towers"
    assert lost(app) == 1


def test_a_game_without_a_move_is_left_without_a_question(screen, screen_root, tmp_path):
    app = open_app(screen_root, tmp_path, ask_leave=True)
    session = app.session
    screen.click(app.toolbar.buttons["new"])
    assert app.session is not session and app.dialog is None
