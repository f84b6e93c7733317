"""The solver's entry points: :func:`solve`, :func:`solve_deal`, :func:`hint`.

A call compiles the variant's rules (cached per Rules object), turns the core state into
the engine's compact position, searches, and translates a win back into core moves, which
it then replays as a :class:`~solitaire_core.session.Session` would before returning them:
a solution that does not win when played is never handed out.
"""

from __future__ import annotations

import enum
import heapq
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from ..errors import IllegalMoveError
from ..moves import Move, PileKind, PileRef
from ..rules import _C, _F, _T, autoplay_moves
from ..session import play_move
from ..state import GameState
from ..variant import Rules
from . import discards, golf, native, pairs, stock
from .deadends import (
    LastCard,
    LeaveOrder,
    SuitCheck,
    applies,
    last_card_applies,
    leave_order_applies,
)
from .engine import CF, CT, FC, FT, TC, TF, TT, Budget, Engine, IMove, Position
from .heuristic import WEIGHTS, Scorer, default_weights
from .tables import Tables, compile_rules

DEFAULT_MAX_STATES = 10_000_000
"""The most positions :func:`solve` stores for a position of an open game (one it
searches with the engines) before it gives up, every search of :func:`schedule` counted.
The searches run one after another, each freeing its memory, and the largest, the game's
own score's, holds about 1,000,000 at once: measured at 120 to 410 bytes each (peak,
Python 3.11), 0.65 KB at worst, so the default stays well under 1 GB (docs/solver.md)."""

ONE_SEARCH_MAX_STATES = 1_000_000
"""The most positions :func:`solve` stores by default where it runs a single search on
the core's positions (``Rules.core_positions_only``: games with a stock or hidden cards,
a reserve, and the other cases of :func:`_solve_hidden`): as many as the largest search
of :data:`DEFAULT_MAX_STATES` holds (Klondike: about 100 bytes each)."""


def default_max_states(rules: Rules) -> int:
    """:func:`solve`'s budget when none is given: :data:`ONE_SEARCH_MAX_STATES` for a
    game searched in one search on the core's positions, else :data:`DEFAULT_MAX_STATES`."""
    return ONE_SEARCH_MAX_STATES if rules.core_positions_only else DEFAULT_MAX_STATES


def budget_for(rules: Rules, one_search: int) -> int:
    """The budget to give :func:`solve` so that the game's own score may store
    ``one_search`` positions: ``one_search`` itself where a single search runs on the
    core's positions (``Rules.core_positions_only``), else the sum of :func:`schedule`'s
    searches built for that size (8.5 to 9.7 times it, by the game's kind), so that the
    schedule at this budget is exactly the one built for ``one_search``. The table's
    hints and checks give their budgets this way, so a hint in Klondike and one in
    FreeCell search as much.

    :param rules: the game.
    :param one_search: positions, at least 1.
    :raises ValueError: when ``one_search`` is not a whole number of at least 1.
    """
    if type(one_search) is not int or one_search < 1:
        raise ValueError(f"one_search must be a whole number >= 1, got {one_search!r}")
    if rules.core_positions_only:
        return one_search
    return _total(_parts(tables_for(rules)), one_search)


Cancel = threading.Event | Callable[[], bool]
"""Something that says "stop": an Event that gets set, or a callable returning True."""


class Verdict(enum.Enum):
    """What the solver found out about a position."""

    WINNABLE = "winnable"
    """A solution was found (:attr:`SolveResult.moves`)."""
    UNWINNABLE = "unwinnable"
    """Every position reachable from it was searched: no sequence of moves wins."""
    UNDECIDED = "undecided"
    """A budget ran out first (:attr:`SolveResult.reason` says which); nothing is claimed."""


@attrs.frozen
class SolveResult:
    """The outcome of one search.

    :param verdict: a :class:`Verdict`.
    :param moves: for a winnable position, the player's moves of a win, each with
        numbered piles, to be played with :meth:`Session.play` from the position solved
        (the variant's autoplay then does the rest); empty otherwise.
    :param positions: distinct positions the search stored (its memory is proportional),
        including those of the dead-end test's small searches.
    :param seconds: wall-clock time of the search, translation and check included.
    :param reason: for :attr:`Verdict.UNDECIDED`: ``"time budget"``, ``"state budget"``,
        ``"cancelled"``, or ``"solution failed its check"`` (a solution that did not win
        when replayed through a session: a solver bug, reported rather than handed out);
        for :attr:`Verdict.UNWINNABLE` where the position was lost as it lay, which cards
        can never move (``"Q♦ and Q♥ can never move"``: docs/solver.md, "Cards that can
        never move"); empty otherwise.
    :param engine: the engine that searched: ``"c"`` (the compiled core) or ``"python"``.
    :param note: why the Python engine searched when the C one was asked for or would
        have been the default (e.g. a plugin's rule predicate), else empty.
    :param peak_bytes: the C engine's peak memory in bytes (every allocation of the
        search counted); 0 for the Python engine.
    :param best_line: where no win was found by the thoughtful search of the stock games
        (:func:`solitaire_core.solver.stock.explore`): the player's moves to the furthest
        position it reached (the highest score: cards up, face-down cards turned, stock
        and waste emptied), checked by replaying them; empty otherwise.
    :param best_gain: how much higher that position scores than the start (0 where
        ``best_line`` is empty).
    """

    verdict: Verdict
    moves: tuple[Move, ...] = ()
    positions: int = 0
    seconds: float = 0.0
    reason: str = ""
    engine: str = "python"
    note: str = ""
    peak_bytes: int = 0
    best_line: tuple[Move, ...] = ()
    best_gain: int = 0

    @property
    def hint(self) -> Move | None:
        """The first move of the solution, or ``None`` (not winnable, or already won)."""
        return self.moves[0] if self.moves else None

    @property
    def decided(self) -> bool:
        """True unless the verdict is undecided."""
        return self.verdict is not Verdict.UNDECIDED

    def move_texts(self) -> list[str]:
        """The solution in move notation (``t3>f``, ``c1>t7`` ...)."""
        return [str(m) for m in self.moves]


_TABLES: dict[tuple[int, tuple[int, ...]], tuple[Rules, Tables]] = {}
_TABLES_LOCK = threading.Lock()


def tables_for(rules: Rules, bases: tuple[int, ...] = ()) -> Tables:
    """The compiled tables of ``rules`` (for a position whose foundations have the base
    ranks ``bases``, ``GameState.bases``), compiled on first use and cached (Rules compare
    by identity, and a variant's Rules object lives as long as its games)."""
    with _TABLES_LOCK:
        hit = _TABLES.get((id(rules), bases))
        if hit is not None and hit[0] is rules:
            return hit[1]
        tables = compile_rules(rules, bases=bases)
        if len(_TABLES) > 32:
            _TABLES.clear()
        _TABLES[(id(rules), bases)] = (rules, tables)
        return tables


def solve(
    state: GameState,
    *,
    max_states: int | None = None,
    timeout: float | None = None,
    cancel: Cancel | None = None,
    progress: Callable[[int], None] | None = None,
    autoplay: str | None = None,
    ideas: dict[str, Any] | None = None,
    engine: str = "auto",
    max_memory: float | None = None,
    check: bool = True,
) -> SolveResult:
    """Decide whether ``state`` can be won, and how.

    The search mirrors a :class:`~solitaire_core.session.Session`: the variant's autoplay
    (or ``autoplay``) runs on ``state`` first and after every move, exactly as
    :meth:`Session.play` does; a session's :attr:`~Session.state` can be passed as it is.
    Moves follow the Normal difficulty (no Cheat).

    Safe to run in a background thread: it reads only its arguments and checks ``cancel``
    every few hundred positions. For the same state, ``max_states`` and ``ideas`` the
    result is always the same; a time budget or a cancellation can only turn it into
    :attr:`Verdict.UNDECIDED`.

    :param state: any position of any variant.
    :param max_states: the most positions to store, every search counted: the result's
        ``positions`` is never more. ``None``: :func:`default_max_states`. Where several
        searches run (:func:`schedule`) they share it and each frees its memory before the
        next starts; a position takes 120 to 650 bytes (docs/solver.md).
    :param timeout: seconds of wall-clock time, or ``None`` for no limit.
    :param cancel: a :class:`threading.Event` or a callable returning True to stop early.
    :param progress: called now and then with the number of positions stored so far.
    :param autoplay: the autoplay policy the moves will be played with (``"off"``,
        ``"safe"``, ``"all"``); defaults to the variant's, as a session does.
    :param ideas: switches for measuring each idea (see docs/solver.md): ``"go_home"``,
        ``"freeze"``, ``"canonical"``, ``"twins"``, ``"suit_check"``, ``"leave_order"``
        and ``"last_card"`` (the dead-end tests, default on; the last-card test,
        :class:`~solitaire_core.solver.deadends.LastCard`, looks at the start only),
        ``"search"`` (``"best-first"``, the default, or ``"dfs"``), ``"ties"``
        (``"lifo"``, the default, or ``"fifo"``), ``"weights"`` (a dict of heuristic
        weights, see :data:`~solitaire_core.solver.heuristic.WEIGHTS` and
        :func:`~solitaire_core.solver.heuristic.default_weights`: the search then runs
        with that score alone), ``"seed"`` (the seed of the ``noise`` weight, a whole
        number from 0 to 2**62 - 1). Without ``"weights"``, where no cell takes a card a
        short search with the plain score comes first (:func:`plain_first`), and when
        the game's own score runs out of positions, other scores and restarts follow
        (:func:`later_searches`), all within ``max_states`` (:func:`schedule`).
    A game with a stock or face-down cards (``Rules.hidden_cards``) is searched
    thoughtfully, knowing every hidden card, by :mod:`~solitaire_core.solver.stock` (on
    the core's positions; ``ideas`` do not apply, nor ``engine`` but in the one-foundation
    games' search, :mod:`~solitaire_core.solver.golf`), and the result's ``note`` says
    so. So is a game whose decks repeat a suit (``Rules.suits``): the engines' card
    tables hold one card per suit and rank per deck; and a game with a
    reserve or the ``"one-or-all"`` move limit (``Rules.core_positions_only``).

    :param engine: ``"auto"`` (the C engine when it is built and supports the variant,
        else Python), ``"c"`` (the same, but a fallback to Python is explained in
        :attr:`SolveResult.note`) or ``"python"`` (the pure-Python reference engine).
    :param max_memory: memory budget in megabytes (10**6 bytes), or ``None``. The C engine
        counts every byte it allocates and stops (``"memory budget"``) rather than pass
        it; the Python engine turns it into a number of positions at
        :data:`PYTHON_BYTES_PER_POSITION` each.
    :param check: ``True`` (the default): a win is handed out only after its moves were
        played through the session's rules and won, and the furthest line
        (:attr:`SolveResult.best_line`) only after it played to the score it was found
        at. ``False``, for the games searched on the core's positions (above): both are
        handed out as the search found them, unplayed. For callers that only count the
        verdicts of many searches and play the move they choose through a session's own
        rules, as the honest hint does (:mod:`~solitaire_core.solver.honest`): there the
        replays took about 8% of the CPU on Klondike Draw 3.
    :return: a :class:`SolveResult`.
    :raises ValueError: when ``max_states`` is below 1, ``max_memory`` is not positive,
        ``engine`` is unknown, ``check`` is not a bool, the ``"seed"`` idea or the
        ``noise`` weight is not a whole number in its range, or the foundations hold cards
        in an order the rules cannot produce.
    """
    if max_states is None:
        max_states = default_max_states(state.rules)
    if type(max_states) is not int or max_states < 1:
        raise ValueError(f"max_states must be a whole number >= 1, got {max_states!r}")
    if max_memory is not None and not max_memory > 0:
        raise ValueError(f"max_memory must be a positive number of megabytes, got {max_memory}")
    if engine not in native.ENGINES:
        raise ValueError(f"engine must be one of {', '.join(native.ENGINES)}, got {engine!r}")
    ideas = dict(ideas or {})
    seed = ideas.get("seed", 0)
    if type(seed) is not int or not 0 <= seed < 2**62:
        raise ValueError(f"the seed idea must be a whole number from 0 to 2**62 - 1, got {seed!r}")
    noise = (ideas.get("weights") or {}).get("noise", 0)
    if type(noise) is not int or not 0 <= noise <= 1000:
        raise ValueError(f"the noise weight must be a whole number from 0 to 1000, got {noise!r}")
    started = time.monotonic()
    rules = state.rules
    policy = autoplay or rules.autoplay
    if type(check) is not bool:
        raise ValueError(f"check must be True or False, got {check!r}")
    if rules.core_positions_only:
        return _solve_hidden(
            state, policy, max_states, timeout, cancel, progress, started, engine, check
        )
    if ideas.get("twins", True):
        tables = tables_for(rules, state.bases)
    else:
        tables = compile_rules(rules, merge_twins=False, bases=state.bases)
    switches = {
        k: v
        for k, v in ideas.items()
        if k in ("go_home", "freeze", "canonical", "king_home", "send_up")
    }
    eng = Engine(tables, policy, switches)
    job = _Job(
        state=state,
        engine=eng,
        start=eng.from_state(state),
        ideas=ideas,
        suit_check=bool(ideas.get("suit_check", True)) and applies(tables),
        leave_check=bool(ideas.get("leave_order", True)) and leave_order_applies(tables),
        started=started,
        max_states=max_states,
        timeout=timeout,
        cancel=_as_callable(cancel),
        progress=progress,
    )
    note = "" if engine == "python" else native.unsupported(tables, policy, ideas)
    if engine != "python" and not note:
        note = native.position_unsupported(job.start, eng.copies, eng.general, tables.present_mask)
    use_c = engine != "python" and not note
    if ideas.get("last_card", True) and last_card_applies(eng) and LastCard(eng).lost(job.start):
        # Lost whatever the search (deadends.LastCard): both engines answer at once.
        return SolveResult(
            Verdict.UNWINNABLE,
            positions=1,
            seconds=time.monotonic() - started,
            engine="c" if use_c else "python",
            note=note,
        )
    if "weights" in ideas:
        return _dispatch(job, use_c, note, max_memory)
    spent = 0  # positions of the searches so far: together never more than max_states
    result = SolveResult(Verdict.UNDECIDED, reason="state budget")
    for more, size in schedule(tables, max_states):
        size = min(size, max_states - spent)
        if size < 1:
            break
        # Each search of the schedule on its own (docs/solver.md, "Scores in turns",
        # "Two scores", "Other scores"), its progress counted on from the ones before.
        one = attrs.evolve(
            job, max_states=size, ideas={**ideas, **more}, progress=_offset(progress, spent)
        )
        result = _dispatch(one, use_c, note, max_memory)
        spent += result.positions
        if result.decided or result.reason != "state budget":
            break
    return attrs.evolve(result, positions=spent)


def schedule(tables: Tables, max_states: int) -> tuple[tuple[dict[str, Any], int], ...]:
    """The searches :func:`solve` runs, in order, until one decides or the budget is
    spent: ``(ideas, positions)``, the ideas over the caller's and the most positions
    that search may store. Together they store at most ``max_states``, so the budget is
    the most a deal may cost, every search included.

    The schedule is built for a size ``unit``, the largest for which the whole schedule
    fits in ``max_states``: first the searches in turns (:func:`turns`, where the game
    has them); then, where no cell takes a card (:func:`plain_first`) and there are no
    turns, the plain score with a twentieth of ``unit`` and the game's own score with the
    rest, elsewhere the game's own score with ``unit``; then the later searches
    (:func:`later_searches`), each with ``unit`` divided by its divisor. At the default budget
    (:data:`DEFAULT_MAX_STATES`) the game's own score stores up to 1,000,000 positions in
    the FreeCell family, about 960,000 in the games without cells that take turns, about
    1,040,000 in the other games where no cell takes a card, and 2,400,000 where only
    complete suits go up.

    :param tables: the compiled variant.
    :param max_states: the budget, at least 1.
    :raises ValueError: when ``max_states`` is below 1.
    """
    if max_states < 1:
        raise ValueError(f"max_states must be at least 1, got {max_states}")
    # Worked out once per game and budget: a survey asks it for every deal.
    by_budget = _SCHEDULES.get(tables)
    if by_budget is None or len(by_budget) > 64:
        by_budget = _SCHEDULES[tables] = {}
    plan = by_budget.get(max_states)
    if plan is None:
        plan = by_budget[max_states] = _build_schedule(tables, max_states)
    return plan


_SCHEDULES: weakref.WeakKeyDictionary[Tables, dict[int, tuple[tuple[dict[str, Any], int], ...]]]
_SCHEDULES = weakref.WeakKeyDictionary()


def _build_schedule(tables: Tables, max_states: int) -> tuple[tuple[dict[str, Any], int], ...]:
    """:func:`schedule`, worked out."""
    parts = _parts(tables)
    low, high = 1, max_states
    while low < high:  # the largest unit whose schedule fits (the total rises with it)
        mid = (low + high + 1) // 2
        if _total(parts, mid) <= max_states:
            low = mid
        else:
            high = mid - 1
    out: list[tuple[dict[str, Any], int]] = []
    left = max_states  # below a unit of 1 (a budget of a few positions) the tail is cut
    for more, size in _schedule(parts, low):
        size = min(size, left)
        if size >= 1:
            out.append((more, size))
            left -= size
    return tuple(out)


_Parts = tuple[tuple[dict[str, int], ...], bool, tuple[tuple[dict[str, Any], int], ...]]


def _parts(tables: Tables) -> _Parts:
    """What :func:`_schedule` builds from, worked out once per :func:`schedule`: the
    scores taken in turns (none where the game has no turns), whether the plain score
    goes first, and :func:`later_searches`."""
    scores = ({}, *fallback_weights(tables)) if takes_turns(tables) else ()
    return scores, plain_first(tables), later_searches(tables)


def _total(parts: _Parts, unit: int) -> int:
    """The positions of :func:`_schedule` for ``unit``, added up (without building it)."""
    scores, _, later = parts
    return (
        sum(size for _, size in _turns(scores, unit))
        + unit
        + sum(unit // share for _, share in later)
    )


def _schedule(parts: _Parts, unit: int) -> list[tuple[dict[str, Any], int]]:
    """:func:`schedule` for the size ``unit`` of the game's own search, whatever the sum."""
    scores, plain, later = parts
    out: list[tuple[dict[str, Any], int]] = [
        ({"weights": weights}, size) for weights, size in _turns(scores, unit)
    ]
    if plain and not scores and unit >= PLAIN_FIRST_SHARE:
        # (With turns the plain score has had its searches among them.)
        quick = unit // PLAIN_FIRST_SHARE
        out += [({"weights": PLAIN}, quick), ({}, unit - quick)]
    else:
        out.append(({}, unit))
    out += [(more, unit // share) for more, share in later]
    return out


TURNS = (10_000, 10)
"""The searches in turns of :func:`turns`: first each score with 10,000 positions, then
each with 10 times as many, and so on while below the budget. Measured with
benchmarks/bench_portfolio.py and whole solves (docs/solver.md, "Scores in turns"):
starting at 2,000 or 5,000 stores a little fewer positions on FreeCell but costs more
on the deals a search proves lost (Baker's Game, Double Sea Towers); starting at 10,000
keeps every Sea Towers deal to its own score's first search."""


def takes_turns(tables: Tables) -> bool:
    """Whether :func:`solve` starts with short searches with each score in turn
    (:func:`turns`): where an empty column takes any card and every cell, if the game has
    any, takes cards (FreeCell and its family; Beleaguered Castle, Citadel, Streets and
    Alleys, Chessboard and Fortress, which have no cells), as measured there
    (docs/solver.md, "Scores in turns"). Elsewhere the game's own score comes first,
    alone: where empty columns take Kings only or nothing, and where the cells are a
    reserve that only gives (King Albert, Raglan, Flower Garden), turns cost more
    positions than they save."""
    rules = tables.rules
    return (
        rules.empty_rule == "any"
        and not rules.complete_suits
        and (rules.cells_receive or not rules.cells)
    )


def turns(tables: Tables, max_states: int) -> tuple[tuple[dict[str, int], int], ...]:
    """The short searches :func:`solve` runs first, in order, until one decides, where
    :func:`takes_turns`: ``(weights, positions)``, the weights over the game's own
    (``{}``: its own score) and the most positions the search may store. Each score of
    the game (its own, then :func:`fallback_weights`) with :data:`TURNS`'s first size,
    then each with 10 times that, while below ``max_states``; the game's own score then
    searches with the whole budget, as it does where there are no turns. A search with
    fixed weights stores positions in the same order whatever its budget, so a deal one
    score wins in few positions costs about that many times the number of scores, while
    a deal the own score drowns in is often won at once by another:
    benchmarks/bench_portfolio.py measures it."""
    if not takes_turns(tables):
        return ()
    return _turns(({}, *fallback_weights(tables)), max_states)


def _turns(scores: tuple[dict[str, int], ...], unit: int) -> tuple[tuple[dict[str, int], int], ...]:
    """:func:`turns` for these scores, below ``unit``."""
    size, factor = TURNS
    out: list[tuple[dict[str, int], int]] = []
    while scores and size < unit:
        out += [(weights, size) for weights in scores]
        size *= factor
    return tuple(out)


def _offset(progress: Callable[[int], None] | None, spent: int) -> Callable[[int], None] | None:
    """``progress`` told the positions of the searches before (``spent``) on top of those
    of the search it is given to, so the count it sees only rises."""
    if progress is None or not spent:
        return progress
    return lambda stored: progress(spent + stored)


RESTARTS = 10
"""How many restarts :func:`solve` runs (:func:`later_searches`): the game's own score with
the ``noise`` term at :data:`RESTART_NOISE`, seeds 1 to 10, each storing at most
1/:data:`RESTART_SHARE` of the budget."""

RESTART_SHARE = 10
"""Each restart may store a tenth of the position budget."""

RESTART_NOISE = 6
"""The weight of the ``noise`` term in the restarts: under a third of a card on a
foundation (20), so it reorders positions the score rates about equal. Measured with the
C engine, 100,000 positions per restart (docs/solver.md, "Restarts"): 4 and 10 did as well
on Der Katzenschwanz, 30 decided none."""

SHUFFLED: dict[str, int] = {**{name: 0 for name in WEIGHTS}, "left": 20, "noise": 19}
"""The score of the shuffled searches (:func:`later_searches`): the cards left
alone, 20 each, plus a noise of 0 to 19 from the position's key and the seed. The noise
never reaches one card, so positions with fewer cards left still come first, but among
positions with as many cards left the order is the seed's alone, not the game's score.
Where the game's own score and its restarts drown in positions they rate about equal,
this finds wins in games with many ways to win. Measured with the C engine, ten seeds at
100,000 positions each, on the 87 deals of 1-100 that every other search (the game's own
score, the other scores and the restarts) left undecided (docs/solver.md, "Shuffled
searches"): noise 19 decided 10 of them, 39 and 100 8 and 9, 6 decided 7."""


def later_searches(tables: Tables) -> tuple[tuple[dict[str, Any], int], ...]:
    """The searches :func:`solve` runs, in order, when the game's own score ran out of
    positions, until one decides: ``(ideas, divisor)``, the ideas over the caller's and the
    budget divided by ``divisor``. First each other score (:func:`fallback_weights`) with
    a tenth of the budget, then :data:`RESTARTS` restarts with a tenth each, then as many
    shuffled searches (:data:`SHUFFLED`, seeds 1 to :data:`RESTARTS`) with a tenth each,
    then each other score with the whole budget (:data:`FALLBACK_ROUNDS`)."""
    others = fallback_weights(tables)
    first, *rest = FALLBACK_ROUNDS
    seeded = tuple(
        ({"weights": weights, "seed": seed}, RESTART_SHARE)
        for weights in ({"noise": RESTART_NOISE}, SHUFFLED)
        for seed in range(1, RESTARTS + 1)
    )
    return (
        tuple(({"weights": w}, first) for w in others)
        + seeded
        + tuple(({"weights": w}, share) for share in rest for w in others)
    )


FALLBACK_ROUNDS = (10, 1)
"""The rounds of searches with other scores (:func:`fallback_weights`), as divisors of the
position budget: first each other score may store a tenth of it, then, if none decided,
each the whole of it. The searches run one after another, each freeing its memory before
the next starts, so no moment holds more than the budget. Measured on the deals of 1-100
still undecided after the first round (docs/solver.md, "Other scores"): the second round
decides 8 of Double FreeCell's 11, 7 of Super Challenge FreeCell's 11, 4 of Die
Schlange's 11."""

CELL_FALLBACKS: tuple[dict[str, int], ...] = (
    {"depth": 1, "left": 10},
    {"depth": 6},
    {"depth": 0},
    {"depth": 3, "cells": 6},
    {"depth": 3, "blockers": 6},
)
"""The other scores tried, in order, where cells take cards (overrides of the game's own
weights; one equal to the game's own is skipped). Measured on the deals of 1-100 that the
game's own score leaves undecided at 1,000,000 positions, each score with 100,000
(docs/solver.md, "Other scores"): Double FreeCell 22 undecided, Super Challenge FreeCell
21, Die Schlange 17; each score decides 0 to 10 of a game's, and together 16, 10 and 6."""

NO_CELL_FALLBACKS: tuple[dict[str, int], ...] = (
    {"depth": 0, "crowd": 40},
    {"depth": 3},
    {"depth": 6, "left": 10},
    {"depth": 6, "unsettled": 5},
    {"depth": 10},
    {"depth": 0},
)
"""The other scores tried, in order, where no cell takes a card (after the plain score and
the game's own, :func:`plain_first`). Measured as :data:`CELL_FALLBACKS`: Streets and
Alleys 10 undecided, Good Measure 19, Baker's Dozen 5; together the first four decide 4, 5
and 2. The last is the plain score again, which first ran with a twentieth of the budget
only: with the whole budget (:data:`FALLBACK_ROUNDS`) it wins 8 of the 51 deals of 1-100
of six such games that the others leave undecided (Streets and Alleys #36 and
#61, Good Measure #28, #42 and #44, Beleaguered Castle #10, Flower Garden #21 and #62)."""


COMPLETE_SUIT_FALLBACKS: tuple[dict[str, int], ...] = ({"unsettled": 0},)
"""The other score tried where the foundations take only complete suits (Simple Simon,
PySolFC game 50): no weight on cards above a column's settled part. Measured with the C
engine at 1,000,000 positions on the 12 deals of 1-600 the game's own score leaves undecided
(docs/solver.md, "Other scores"): it wins 11 (each in 4,000 to 360,000 positions; #30 stays
undecided), where unsettled 5 wins 7, blockers 8 and depth 3 six each, empty 4 or loose 4
four or five."""


def fallback_weights(tables: Tables) -> tuple[dict[str, int], ...]:
    """The scores :func:`solve` tries, round by round (:data:`FALLBACK_ROUNDS`), when the
    game's own score ran out of positions: :data:`CELL_FALLBACKS` where cells take cards,
    :data:`NO_CELL_FALLBACKS` where none does, :data:`COMPLETE_SUIT_FALLBACKS` where only
    complete suits go up. A score that merges into the game's own weights is left out."""
    own = default_weights(tables)
    if tables.rules.complete_suits:
        others = COMPLETE_SUIT_FALLBACKS
    else:
        others = NO_CELL_FALLBACKS if plain_first(tables) else CELL_FALLBACKS
    return tuple(w for w in others if {**own, **w} != own)


PLAIN_FIRST_SHARE = 20
"""Where no cell takes a card (the games of :data:`~.heuristic.NO_CELL_WEIGHTS`),
:func:`solve` first searches with the plain score (no depth term) for 1/20 of the position
budget, then, if that did not decide, with the game's own score for the rest: each score
decides deals the other drowns in (docs/solver.md, "Two scores")."""

PLAIN = {"depth": 0}
"""The weights of the first, short search (over the game's defaults): the plain score."""


def plain_first(tables: Tables) -> bool:
    """Whether :func:`solve` starts with a short search with the plain score: in games
    where no cell takes a card and cards go up one at a time (those whose default score
    is :data:`~.heuristic.NO_CELL_WEIGHTS`)."""
    rules = tables.rules
    return not rules.complete_suits and not (rules.cells and rules.cells_receive)


def _dispatch(job: _Job, use_c: bool, note: str, max_memory: float | None) -> SolveResult:
    """Run ``job`` on the C engine (``use_c``) or the Python one, ``note`` saying why not C."""
    if use_c:
        return _solve_c(job, max_memory)
    if max_memory is not None:
        limit = max(1, int(max_memory * 1e6 / PYTHON_BYTES_PER_POSITION))
        job = attrs.evolve(job, max_states=min(job.max_states, limit))
    result = _solve_python(job)
    return attrs.evolve(result, note=note) if note else result


@attrs.frozen
class _Job:
    """One search to run, whichever the engine: the position, the compiled variant and
    its start position, the switches and the budgets (as :func:`solve` takes them)."""

    state: GameState
    engine: Engine
    start: Position
    ideas: dict[str, Any]
    suit_check: bool
    leave_check: bool
    started: float
    max_states: int
    timeout: float | None
    cancel: Callable[[], bool] | None
    progress: Callable[[int], None] | None


PYTHON_BYTES_PER_POSITION = 700
"""What the Python engine is taken to spend per stored position when given a memory
budget: above the 650 bytes measured at worst (docs/solver.md)."""


def _solve_c(job: _Job, max_memory: float | None) -> SolveResult:
    """:func:`solve` on the compiled core (:mod:`.native`)."""
    try:
        out = native.search(
            job.engine,
            job.start,
            job.ideas.get("weights"),
            suit_check=job.suit_check,
            leave_check=job.leave_check,
            max_states=job.max_states,
            max_bytes=None if max_memory is None else int(max_memory * 1e6),
            timeout=None if job.timeout is None else job.started + job.timeout - time.monotonic(),
            cancel=job.cancel,
            progress=job.progress,
            seed=job.ideas.get("seed", 0),
        )
    except RuntimeError:
        return SolveResult(
            Verdict.UNDECIDED,
            seconds=time.monotonic() - job.started,
            reason="solution failed its check",
            engine="c",
        )
    if out.reason:
        return SolveResult(
            Verdict.UNDECIDED,
            positions=out.positions,
            seconds=time.monotonic() - job.started,
            reason=out.reason,
            engine="c",
            peak_bytes=out.peak_bytes,
        )
    return _finish(job, out.moves, out.positions, "c", out.peak_bytes)


def _finish(
    job: _Job, imoves: list[IMove] | None, positions: int, engine: str, peak: int = 0
) -> SolveResult:
    """The result of a finished search: unwinnable, or a won line replayed through a
    session (never handed out when it does not win)."""
    started = job.started
    if imoves is None:
        return SolveResult(
            Verdict.UNWINNABLE,
            positions=positions,
            seconds=time.monotonic() - started,
            engine=engine,
            peak_bytes=peak,
        )
    try:
        moves = replay(job.state, imoves, job.engine.policy, job.engine.tables)
    except SolutionError:  # never hand out a solution that does not win when played
        return SolveResult(
            Verdict.UNDECIDED,
            positions=positions,
            seconds=time.monotonic() - started,
            reason="solution failed its check",
            engine=engine,
            peak_bytes=peak,
        )
    return SolveResult(
        Verdict.WINNABLE,
        moves,
        positions=positions,
        seconds=time.monotonic() - started,
        engine=engine,
        peak_bytes=peak,
    )


def _solve_python(job: _Job) -> SolveResult:
    """:func:`solve` on the pure-Python engine."""
    engine, start, ideas, started = job.engine, job.start, job.ideas, job.started
    scorer = Scorer(engine, ideas.get("weights"), ideas.get("seed", 0))
    stop = _Stop(
        job.max_states,
        None if job.timeout is None else started + job.timeout,
        job.cancel,
        job.progress,
    )
    seen: set[Any] = set()  # the search's table, made here so the check can count it
    check = SuitCheck(engine, lambda: job.max_states - len(seen)) if job.suit_check else None
    order = LeaveOrder(engine) if job.leave_check else None
    try:
        if ideas.get("search") == "dfs":
            found, positions = dfs(engine, start, scorer, stop, check=check, order=order, seen=seen)
        else:
            found, positions = best_first(
                engine,
                start,
                scorer,
                stop,
                fifo=ideas.get("ties") == "fifo",
                check=check,
                order=order,
                seen=seen,
            )
    except Budget as exc:
        return SolveResult(
            Verdict.UNDECIDED,
            positions=exc.positions + (check.positions if check else 0),
            seconds=time.monotonic() - started,
            reason=exc.reason,
        )
    if check is not None:  # the dead-end test's own searches count too
        positions += check.positions
    return _finish(job, found, positions, "python")


def _solve_hidden(
    state: GameState,
    policy: str,
    max_states: int,
    timeout: float | None,
    cancel: Cancel | None,
    progress: Callable[[int], None] | None,
    started: float,
    engine: str = "auto",
    check: bool = True,
) -> SolveResult:
    """:func:`solve` for a game with a stock or face-down cards (or a deck that repeats a
    suit): the thoughtful search of :mod:`~solitaire_core.solver.stock` (compiled for
    the Klondike and Yukon families unless ``engine`` is ``"python"``), or for the
    one-foundation games played without
    autoplay (Golf, Black Hole, All in a Row, TriPeaks) the depth-first search of
    :mod:`~solitaire_core.solver.golf` (compiled unless ``engine`` is ``"python"``), for
    the pairing games (Pyramid) that of :mod:`~solitaire_core.solver.pairs`, for the
    discard games (Aces Up) that of :mod:`~solitaire_core.solver.discards` (compiled
    unless ``engine`` is ``"python"``); its solution checked by replaying it."""
    deadline = None if timeout is None else started + timeout
    furthest: tuple[tuple[Move, ...], int] = ((), 0)
    own = [m for m in (golf, pairs, discards) if policy == "off" and m.applies(state.rules)]
    used, fallback, peak = "python", "", [0]
    if own and own[0] in (golf, discards):
        compiled = own[0]
        fallback = "" if engine == "python" else compiled.native_unsupported(state)
        used = "python" if engine == "python" or fallback else "c"
        verdict, moves, positions, reason = compiled.search(
            state,
            max_states=max_states,
            deadline=deadline,
            cancel=_as_callable(cancel),
            engine=used,
            on_memory=peak.append,
        )
    elif own:
        verdict, moves, positions, reason = own[0].search(
            state, max_states=max_states, deadline=deadline, cancel=_as_callable(cancel)
        )
    else:
        fallback = "" if engine == "python" else stock.native_unsupported(state.rules, policy)
        used = "python" if engine == "python" or fallback else "c"
        verdict, moves, positions, reason, best_score, best_line = stock.explore(
            state,
            policy=policy,
            max_states=max_states,
            deadline=deadline,
            cancel=_as_callable(cancel),
            progress=progress,
            engine=used,
        )
        if verdict != "winnable" and best_line:
            # handed out only when it plays and reaches the score it was found at
            best = _replayed(state, best_line, policy) if check else None
            if not check or (best is not None and stock.start_score(best) == best_score):
                furthest = (best_line, best_score - stock.start_score(state))
    if verdict == "winnable" and check:
        current = _replayed(state, moves, policy)
        if current is None or not current.is_won:
            # never hand out a solution that does not win when played
            verdict, moves, reason = "undecided", (), "solution failed its check"
    return SolveResult(
        Verdict(verdict),
        moves,
        positions=positions,
        seconds=time.monotonic() - started,
        reason=reason,
        engine=used,
        peak_bytes=max(peak),
        note=_hidden_note(state.rules, fallback if engine == "c" else ""),
        best_line=furthest[0],
        best_gain=furthest[1],
    )


def _replayed(state: GameState, moves: tuple[Move, ...], policy: str) -> GameState | None:
    """The position after ``moves`` played from ``state`` as it is (the searches of
    :func:`_solve_hidden` start there, not from it autoplayed) with ``policy``'s autoplay
    after each, or ``None`` where one of them is illegal."""
    current = state
    try:
        for move in moves:
            _, _, current = play_move(current, move, policy)
    except IllegalMoveError:
        return None
    return current


def _hidden_note(rules: Rules, fallback: str) -> str:
    """:attr:`SolveResult.note` of :func:`_solve_hidden`: why the core's positions are
    searched (thoughtfully where cards are hidden), and why the C engine asked for did
    not run (``fallback``, or ``""``)."""
    note = stock.THOUGHTFUL_NOTE if rules.hidden_cards else _core_reason(rules)
    return f"{note}; the Python engine ran: {fallback}" if fallback else note


def _core_reason(rules: Rules) -> str:
    """Why a game without hidden cards is searched on the core's positions."""
    if rules.has_reserve:
        return "a game with a reserve is searched on the core's positions"
    if rules.move_limit == "one-or-all":
        return "the one-card-or-whole-column limit is searched on the core's positions"
    if any(p.both_ways or p.nothing_on_king for p in rules.foundation_piles):
        return "a foundation built up or down is searched on the core's positions"
    if any(p.discards for p in rules.foundation_piles) or rules.win_cards:
        return "a discard pile or a game won with cards in play is searched on the core's positions"
    return "a deck that repeats a suit is searched on the core's positions"


def solve_deal(rules: Rules, deal_number: int, **kwargs: Any) -> SolveResult:
    """Solve deal ``deal_number`` of ``rules`` from its start (the position a new
    session shows); keyword arguments as for :func:`solve`.

    :raises SolitaireError: for an invalid deal number.
    """
    from ..deal import deal

    return solve(deal(rules, deal_number), **kwargs)


def next_winnable_deal(
    rules: Rules, start: int, *, tries: int = 100, **kwargs: Any
) -> tuple[int, SolveResult] | None:
    """The first deal from ``start`` on that the solver shows winnable (for a
    "winnable deals only" mode); undecided deals are skipped, never offered.

    :param start: the first deal number to try.
    :param tries: how many deal numbers to try at most.
    :param kwargs: budgets for each deal, as for :func:`solve` (a ``timeout`` keeps the
        wait short: most deals are decided in milliseconds).
    :return: ``(deal number, result with its solution)``, or ``None`` after ``tries``.
    :raises SolitaireError: for an invalid deal number.
    """
    for number in range(start, start + tries):
        result = solve_deal(rules, number, **kwargs)
        if result.verdict is Verdict.WINNABLE:
            return number, result
    return None


def hint(state: GameState, **kwargs: Any) -> Move | None:
    """The next move of a win from ``state``, or ``None`` when the solver found none
    (unwinnable, already won, or a budget ran out); keyword arguments as for
    :func:`solve`. The move is legal in ``state``."""
    return solve(state, **kwargs).hint


def _as_callable(cancel: Cancel | None) -> Callable[[], bool] | None:
    if cancel is None:
        return None
    if isinstance(cancel, threading.Event):
        return cancel.is_set
    return cancel


class SolutionError(AssertionError):
    """A solution the search found did not win when replayed (a solver bug)."""


def replay(state: GameState, imoves: list[IMove], policy: str, tables: Tables) -> tuple[Move, ...]:
    """Translate internal moves into core moves and play them as a session would: the
    autoplay a new :class:`~solitaire_core.session.Session` makes on ``state``, then each
    move through :func:`~solitaire_core.session.play_move` (the rules' legality check,
    the move, the autoplay after it), the steps of :meth:`Session.play` without its
    history. Every position it plays from is settled (autoplay ran on it), so the
    autoplay sweeps that cannot send a card up are left out
    (:func:`~solitaire_core.rules.autoplay_may_start`).

    :return: the concrete moves (numbered piles), which win from ``state``.
    :raises SolutionError: when a move is illegal or the game is not won at the end.
    """
    current, _ = autoplay_moves(state, policy)
    out: list[Move] = []
    try:
        for what, a, b, k in imoves:
            move, _, current = play_move(
                current, _core_move(current, what, a, b, k, tables), policy, settled=True
            )
            out.append(move)
    except IllegalMoveError as exc:
        raise SolutionError(f"solution move {len(out) + 1} is illegal: {exc}") from None
    if not current.is_won:
        raise SolutionError("the solution does not win when played")
    return tuple(out)


_F_ANY = PileRef(PileKind.FOUNDATION)


def _core_move(state: GameState, what: int, a: int, b: int, k: int, tables: Tables) -> Move:
    if what == TT:
        return Move(_T[a], _T[b], k)
    if what == TC:
        return Move(_T[a], _C[b])
    if what == CT:
        return Move(_C[a], _T[b])
    # A card (or complete suit) up: ``b`` is the pile with the variant's own foundation
    # piles (the player's choice), else the suit's slot is the session's to find.
    if what in (TF, CF):
        target = _F_ANY if tables.rules.standard_foundations else _F[b]
        return Move(_T[a], target, k) if what == TF else Move(_C[a], target)
    # A card back from a foundation: ``a`` is its value; find a foundation it tops.
    source = next(i for i, f in enumerate(state.foundations) if f and tables.value(f[-1]) == a)
    target = _T[b] if what == FT else _C[b]
    assert what in (FT, FC)
    return Move(_F[source], target)


# -- searches --------------------------------------------------------------------------


class _Stop:
    """Budget checks: positions stored, time, cancellation; raises :class:`Budget`."""

    def __init__(
        self,
        max_states: int,
        deadline: float | None,
        cancelled: Callable[[], bool] | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.max_states = max_states
        self.deadline = deadline
        self.cancelled = cancelled
        self.progress = progress

    def check(self, stored: int, more: int = 0) -> None:
        """Raise :class:`Budget` when ``stored`` positions of the search and ``more`` of
        its dead-end test's reach the budget, the time is up or the search is cancelled;
        else report ``stored`` to ``progress``."""
        if stored + more >= self.max_states:
            raise Budget("state budget", stored)
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise Budget("time budget", stored)
        if self.cancelled is not None and self.cancelled():
            raise Budget("cancelled", stored)
        if self.progress is not None:
            self.progress(stored)


_Node = tuple[IMove, Any]


def _fresh_children(
    engine: Engine,
    pos: Position,
    path: _Node | None,
    seen: set[Any],
    check: SuitCheck | None,
    order: LeaveOrder | None = None,
    limit: int | None = None,
) -> Iterator[tuple[Position, _Node, bool]]:
    """The children of ``pos`` not seen before (each is added to ``seen``), skipping those
    the dead-suit and leave-order tests rule out; each with its path node and whether it is won (the
    search stops at a won child, so nothing follows it).

    :raises Budget: before a child, when ``seen`` and the dead-end test's positions have
        reached ``limit``: so a search never stores more than its budget."""
    key, total = engine.key, engine.total
    for move, child in engine.children_of(pos):
        if limit is not None and len(seen) + (check.positions if check else 0) >= limit:
            raise Budget("state budget", len(seen))
        k = key(child)
        if k in seen:
            continue
        seen.add(k)
        node = (move, path)
        if sum(map(len, child[2])) == total:
            yield child, node, True
            return
        if check is not None:
            suit = check.moved_suit(pos, move)
            if suit >= 0 and check.dead(child, suit):
                continue
        if order is not None and order.stranded(child):
            continue
        yield child, node, False


def best_first(
    engine: Engine,
    start: Position,
    score: Callable[[Position], int],
    stop: _Stop,
    *,
    fifo: bool = False,
    check: SuitCheck | None = None,
    order: LeaveOrder | None = None,
    seen: set[Any] | None = None,
) -> tuple[list[IMove] | None, int]:
    """Best-first search over positions, lowest score first, with a transposition table
    of keys (columns and cells as multisets).

    :param check: the single-suit dead-end test, or ``None``: a new position it finds
        dead is stored but not searched further.
    :param order: the leave-order dead-end test, or ``None``; used as ``check``.
    :param seen: an empty set to use as the table (the one ``check`` counts), or
        ``None`` for a new one.
    :return: ``(moves, positions)``: the internal moves of a win, or ``None`` after every
        position reachable from ``start`` was expanded (the proof that none wins).
    :raises Budget: when a budget ran out.
    """
    key = engine.key
    if engine.remaining(start) == 0:
        return [], 1
    seen = set() if seen is None else seen
    seen.add(key(start))
    if check is not None and check.dead_somewhere(start):
        return None, 1
    if order is not None and order.stranded(start):
        return None, 1
    counter = 0
    step = 1 if fifo else -1  # among equal scores: the oldest or the newest position first
    heap: list[tuple[int, int, Position, _Node | None]] = [(score(start), 0, start, None)]
    pop, push = heapq.heappop, heapq.heappush
    expanded = 0
    limit = stop.max_states
    while heap:
        _, _, pos, path = pop(heap)
        expanded += 1
        more = check.positions if check else 0
        if not expanded & 255 or len(seen) + more >= limit:
            stop.check(len(seen), more)
        for child, node, won in _fresh_children(engine, pos, path, seen, check, order, limit):
            if won:
                return _unwind(node), len(seen)
            counter += step
            push(heap, (score(child), counter, child, node))
    return None, len(seen)


def dfs(
    engine: Engine,
    start: Position,
    score: Callable[[Position], int],
    stop: _Stop,
    *,
    check: SuitCheck | None = None,
    order: LeaveOrder | None = None,
    seen: set[Any] | None = None,
) -> tuple[list[IMove] | None, int]:
    """Depth-first search, children tried best score first, with the same transposition
    table; same contract as :func:`best_first`."""
    key = engine.key
    if engine.remaining(start) == 0:
        return [], 1
    seen = set() if seen is None else seen
    seen.add(key(start))
    if check is not None and check.dead_somewhere(start):
        return None, 1
    if order is not None and order.stranded(start):
        return None, 1
    stack: list[list[tuple[int, Position, _Node | None]]] = [[(0, start, None)]]
    expanded = 0
    limit = stop.max_states
    while stack:
        frame = stack[-1]
        if not frame:
            stack.pop()
            continue
        _, pos, path = frame.pop()
        expanded += 1
        more = check.positions if check else 0
        if not expanded & 255 or len(seen) + more >= limit:
            stop.check(len(seen), more)
        kids: list[tuple[int, Position, _Node | None]] = []
        for child, node, won in _fresh_children(engine, pos, path, seen, check, order, limit):
            if won:
                return _unwind(node), len(seen)
            kids.append((-score(child), child, node))
        kids.sort(key=lambda e: e[0])
        stack.append(kids)
    return None, len(seen)


def _unwind(node: _Node | None) -> list[IMove]:
    """The moves from the start to ``node``."""
    moves: list[IMove] = []
    while node is not None:
        moves.append(node[0])
        node = node[1]
    moves.reverse()
    return moves
