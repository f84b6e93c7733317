"""Running the solver in a background thread, for user interfaces."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..state import GameState
from .search import SolveResult, solve


class SolverJob:
    """One :func:`~solitaire_core.solver.solve` call on a daemon thread.

    :param state: the position to solve (a session's ``state``).
    :param on_done: called with the :class:`SolveResult` when the search ends, *on the
        worker thread*; a Tk interface should instead poll :attr:`done` with
        ``widget.after`` and read :attr:`result` on its own thread.
    :param kwargs: budgets and switches passed to :func:`solve` (``timeout``,
        ``max_states`` ...); ``cancel`` is supplied by the job.

    ::

        job = SolverJob(session.state, timeout=30).start()
        ...
        if job.done:
            move = job.result.hint
        job.cancel()   # at any time; the result is then UNDECIDED ("cancelled")
    """

    def __init__(
        self,
        state: GameState,
        *,
        on_done: Callable[[SolveResult], None] | None = None,
        **kwargs: Any,
    ) -> None:
        self.state = state
        self.on_done = on_done
        self.kwargs = kwargs
        self.result: SolveResult | None = None
        self.error: BaseException | None = None
        self._cancel = threading.Event()
        self._finished = threading.Event()
        self._thread = threading.Thread(target=self._run, name="solver", daemon=True)

    def start(self) -> SolverJob:
        """Start the search; returns the job itself."""
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Ask the search to stop (it does within a few hundred positions)."""
        self._cancel.set()

    @property
    def done(self) -> bool:
        """True once the search ended (with a result, or with :attr:`error` set)."""
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> SolveResult | None:
        """Block until the search ends or ``timeout`` seconds pass; the result or
        ``None``."""
        self._finished.wait(timeout)
        return self.result

    def _run(self) -> None:
        try:
            self.result = solve(self.state, cancel=self._cancel, **self.kwargs)
        except BaseException as exc:  # reported through .error, never lost on a thread
            self.error = exc
        finally:
            self._finished.set()
        if self.result is not None and self.on_done is not None:
            self.on_done(self.result)


class HonestJob(SolverJob):
    """One :func:`~solitaire_core.solver.honest.honest_hint` call on a daemon thread: the
    advice that never peeks, for a table's hint and demo in a game with hidden cards.

    :param state: the position to advise on (a session's ``state``).
    :param kwargs: passed to ``honest_hint`` (``samples``, ``max_states``, ``seed``,
        ``autoplay``); ``cancel`` is supplied by the job.

    Polled as a :class:`SolverJob` is; :attr:`result` is then an
    :class:`~solitaire_core.solver.honest.HonestAdvice` (``cancelled`` set when
    :meth:`cancel` stopped it).
    """

    def _run(self) -> None:
        from .honest import honest_hint

        try:
            advice = honest_hint(self.state, cancel=self._cancel.is_set, **self.kwargs)
            self.result = advice  # type: ignore[assignment]
        except BaseException as exc:  # reported through .error, never lost on a thread
            self.error = exc
        finally:
            self._finished.set()
