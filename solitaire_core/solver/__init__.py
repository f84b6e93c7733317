"""The solver: is a position winnable, and how? (issue 5)

One function does the work::

    from solitaire_core.solver import solve
    result = solve(session.state, timeout=10)
    result.verdict      # Verdict.WINNABLE / UNWINNABLE / UNDECIDED
    result.moves        # the moves of a win, to replay with session.play
    result.hint         # the first of them

It works for any variant (it reads only the Rules' fields and predicates), is deterministic
for the same position and state budget, keeps its memory under ``max_states`` positions,
and can run in a background thread and be cancelled (:class:`SolverJob`, or ``cancel=``).
See docs/solver.md for the algorithm and the measurements behind it.
"""

from __future__ import annotations

from .job import SolverJob
from .search import (
    DEFAULT_MAX_STATES,
    SolutionError,
    SolveResult,
    Verdict,
    hint,
    next_winnable_deal,
    solve,
    solve_deal,
)

__all__ = [
    "DEFAULT_MAX_STATES",
    "SolutionError",
    "SolveResult",
    "SolverJob",
    "Verdict",
    "hint",
    "next_winnable_deal",
    "solve",
    "solve_deal",
]
