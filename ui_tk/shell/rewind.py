"""Undo to winnable: take back the moves since the last position known to be winnable
(Edit > Undo to winnable, Ctrl+U, and the toolbar).

What is known comes from the solver's verdicts the
:class:`~solitaire_tk.shell.assist.Assistant` keeps (the winnability field checks every
position while Options > Show winnability is on; a hint's solution covers every position
along it). When the verdicts needed are not known yet, :class:`Rewinder` checks the
positions of the game in the background, from the one on the table back to the deal,
with the winnability field's budget, and undoes as soon as it finds a winnable one.
"""

from __future__ import annotations

import tkinter as tk
from typing import Any

from solitaire_core.i18n import gettext as _
from solitaire_core.i18n import ngettext
from solitaire_core.solver import SolverJob, Verdict, budget_for
from solitaire_core.state import GameState

__all__ = ["Rewinder", "rewind_target"]

_POLL_MS = 20


def _positions(app: Any) -> list[GameState]:
    """The game's positions, the one on the table first, back to the deal."""
    session = app.session
    assert session is not None
    return [session.state] + [turn.before for turn in reversed(session.history)]


def rewind_target(app: Any) -> int | None:
    """How many undos lead back to the last position known winnable, when the position
    on the table is known lost; ``None`` when it is not known lost or no earlier
    position is known winnable."""
    session = app.session
    if session is None or not session.history or session.is_won:
        return None
    known = app.assist.known
    positions = _positions(app)
    if known(positions[0]) is not Verdict.UNWINNABLE:
        return None
    for undos, state in enumerate(positions[1:], start=1):
        if known(state) is Verdict.WINNABLE:
            return undos
    return None


class Rewinder:
    """Runs Undo to winnable for an app (``app.rewinder``).

    Attributes for tests: ``job`` (the running background check, or ``None``).
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.job: SolverJob | None = None
        self._state: GameState | None = None  # the position being checked
        self._table: GameState | None = None  # the position on the table when it began
        self._poll: str | None = None

    def undo_to_winnable(self) -> None:
        """Undo to the last position known winnable, checking positions first when
        their verdicts are not known (the status bar says what happens)."""
        app = self.app
        session = app.session
        if not app.playing or session is None:
            return
        self.cancel()
        app.view.finish_animation()
        if session.is_won:
            app.set_message(_("The game is won."))
            return
        known = app.assist.known
        positions = _positions(app)
        for undos, state in enumerate(positions):
            verdict = known(state)
            if verdict is Verdict.WINNABLE:
                self._undo(undos)
                return
            if verdict is None:
                self._check(state)
                return
        app.set_message(
            _("No position of this game is known to be winnable: deal again (F2)."), warn=True
        )

    def _undo(self, undos: int) -> None:
        app = self.app
        if undos == 0:
            app.set_message(_("This position can still be won."))
            return
        for _undo in range(undos):
            app.undo()
        app.set_message(
            ngettext(
                "Undid {count} move: this position can still be won.",
                "Undid {count} moves: this position can still be won.",
                undos,
            ).format(count=undos)
        )

    def _check(self, state: GameState) -> None:
        app = self.app
        session = app.session
        assert session is not None
        budget = app.assist.check_budget
        self._state = state
        self._table = session.state
        self.job = SolverJob(
            state,
            timeout=float(budget["timeout"]),
            max_states=budget_for(state.rules, int(budget["max_states"])),
            autoplay=session.autoplay_policy,
        ).start()
        app.set_message(_("Looking for the last winnable position…"))
        self._poll = app.root.after(_POLL_MS, self._wait)

    def _wait(self) -> None:
        self._poll = None
        app, job = self.app, self.job
        if job is None or app.ended:
            return
        session = app.session
        if session is None or session.state is not self._table:  # the player moved on
            self.cancel()
            return
        if not job.done:
            self._poll = app.root.after(_POLL_MS, self._wait)
            return
        self.job = None
        result = job.result
        assert self._state is not None
        if result is None or not result.decided:
            app.set_message(
                _(
                    "Undo to winnable: the solver could not decide whether an earlier "
                    "position can be won."
                ),
                warn=True,
            )
            return
        app.assist.learn(self._state, result)
        self.undo_to_winnable()

    def cancel(self) -> None:
        """Stop a running check."""
        if self.job is not None:
            self.job.cancel()
            self.job = None
        if self._poll is not None:
            try:
                self.app.root.after_cancel(self._poll)
            except tk.TclError:  # the window is gone
                pass
            self._poll = None
