"""Whether each command can act now: the one answer the toolbar, the menus and the keys
all follow.

Every command of :data:`solitaire_tk.shell.menus.COMMANDS` has one test of the app's state
here (:data:`ENABLED`; a command not listed is always enabled). The app computes them all
at once (:func:`action_states`) after every change and hands the result to the menu bar
and the toolbar, which grey out the same commands; a key whose command is disabled does
nothing (:func:`solitaire_tk.shell.menus.bind_keys`). So a button and its menu entry never
disagree: after a win Hint and Demo are grey in both, and Undo to winnable is enabled in
both as soon as the game has a move to take back from a position not known winnable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from solitaire_core.solver import Verdict

from .menus import COMMANDS

__all__ = ["ENABLED", "action_enabled", "action_states"]


def _playing(app: Any) -> bool:
    return bool(app.playing)


def _demo_running(app: Any) -> bool:
    assist = getattr(app, "assist", None)
    return assist is not None and assist.demo_running


def _searching(app: Any) -> bool:
    assist = getattr(app, "assist", None)
    return assist is not None and (assist.demo_running or assist.busy_searching)


def _has_moves(app: Any) -> bool:
    session = app.session
    return _playing(app) and bool(session.history or session.redo_stack) and not _demo_running(app)


def _can_undo(app: Any) -> bool:
    return _playing(app) and app.session.can_undo


def _can_redo(app: Any) -> bool:
    return _playing(app) and app.session.can_redo


def _can_hint(app: Any) -> bool:
    return _playing(app) and not app.session.is_won and not _demo_running(app)


def _can_rewind(app: Any) -> bool:
    """A move to take back, from a position not won and not known winnable (the rewinder
    checks the positions whose verdicts are not known)."""
    if not _can_hint(app) or not app.session.history:
        return False
    return app.assist.known(app.session.state) is not Verdict.WINNABLE


ENABLED: Mapping[str, Callable[[Any], bool]] = {
    "new_deal": _playing,
    "next_deal": _playing,
    "select_deal": _playing,
    "restart": _has_moves,
    "hint": _can_hint,
    "demo": _can_hint,
    "stop": _searching,
    "save_game": _playing,
    "undo": _can_undo,
    "redo": _can_redo,
    "undo_to_winnable": _can_rewind,
    "show_rules": _playing,
}
"""Command name -> the test of the app (a :class:`~solitaire_tk.shell.host.GameHost` with
``session`` and ``assist``) that enables it; the other commands are always enabled."""


def action_enabled(app: Any, name: str) -> bool:
    """Whether command ``name`` (of :data:`~solitaire_tk.shell.menus.COMMANDS`) can act on
    ``app`` now."""
    test = ENABLED.get(name)
    return test is None or bool(test(app))


def action_states(app: Any) -> dict[str, bool]:
    """Every command's enabled state: name -> ``True`` when it can act now."""
    return {name: action_enabled(app, name) for name in COMMANDS}
