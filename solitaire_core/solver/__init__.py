"""The solver: is a position winnable, and how?

One function does the work::

    from solitaire_core.solver import solve
    result = solve(session.state, timeout=10)
    result.verdict      # Verdict.WINNABLE / UNWINNABLE / UNDECIDED
    result.moves        # the moves of a win, to replay with session.play
    result.hint         # the first of them

It works for any variant (it reads only the Rules' fields and predicates), is deterministic
for the same position and state budget, stores at most ``max_states`` positions in all,
and can run in a background thread and be cancelled (:class:`SolverJob`, or ``cancel=``).
See docs/solver.md for the algorithm and the measurements behind it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .job import SolverJob
    from .search import (
        DEFAULT_MAX_STATES,
        ONE_SEARCH_MAX_STATES,
        SolutionError,
        SolveResult,
        Verdict,
        budget_for,
        default_max_states,
        hint,
        next_winnable_deal,
        solve,
        solve_deal,
    )

# Each name is imported from its module on first use (PEP 562): ``solitaire survey``
# imports :mod:`.survey`, this package's module, in a process that never solves a deal
# (its workers do), and should not pay for the solver there.
_WHERE = {
    "DEFAULT_MAX_STATES": "search",
    "ONE_SEARCH_MAX_STATES": "search",
    "budget_for": "search",
    "default_max_states": "search",
    "SolutionError": "search",
    "SolveResult": "search",
    "SolverJob": "job",
    "Verdict": "search",
    "hint": "search",
    "next_winnable_deal": "search",
    "solve": "search",
    "solve_deal": "search",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})


__all__ = [
    "DEFAULT_MAX_STATES",
    "ONE_SEARCH_MAX_STATES",
    "SolutionError",
    "SolveResult",
    "SolverJob",
    "Verdict",
    "budget_for",
    "default_max_states",
    "hint",
    "next_winnable_deal",
    "solve",
    "solve_deal",
]
