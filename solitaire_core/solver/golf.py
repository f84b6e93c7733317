"""The depth-first search for the one-foundation games (Golf, Black Hole, All in a Row,
TriPeaks).

In these games a card moves only from the top of a column, or the stock, onto the one
foundation, which takes a card one rank above or below its top whatever the suit
(``foundations.build = "up-or-down-any-suit"``). The columns never change but by losing
their top card, so a position is the columns' heights, the stock's size and the rank on
top of the foundation; only ranks decide what fits. That is the position
Shlomi Fish's black-hole-solver stores (its ``bhs_state``), and this search is the same
depth-first search over it: a position is stored once, when first reached, and never
expanded again; a verdict of "unwinnable" means every reachable position was searched.

In a game with a ``tableau.layout`` (TriPeaks, PySolFC game 22231, "Three Peaks") the
columns overlap: a column's card plays only once every column covering it
(``Rules.covered_by``) is empty, which the heights say too, so the position is the same.
The face-down cards of the peaks change nothing here: the search is thoughtful and knows
them, and a card turns up exactly when it is uncovered, that is when it may play.

The game is won when the columns are empty (PySolFC's ``Golf.isGameWon`` and
``ThreePeaks.isGameWon``; in Black Hole and All in a Row every card is then on the
foundation). With a stock the search is thoughtful: it knows the stock's order
(:data:`~solitaire_core.solver.stock.THOUGHTFUL_NOTE`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..moves import Move, foundation, stock, tableau
from ..state import GameState
from ..variant import Rules
from .native import IMPORT_ERROR, _csolver


def applies(rules: Rules) -> bool:
    """Whether :func:`search` decides ``rules``'s game: one foundation built up or down,
    no cells, reserve or waste, no face-down cards but those a layout's covering turns up
    (TriPeaks), no building on the columns, cards never taken back from the foundation,
    and a stock (if any) that deals onto the foundation."""
    return (
        rules.foundations == 1
        and rules.foundation_piles[0].both_ways
        and rules.cells == 0
        and not rules.has_reserve
        and (not any(rules.deal.face_down) or bool(rules.covered_by))
        and rules.tableau_build == "none"
        and not rules.foundation_return
        and rules.stock_deal in ("", "foundation")
    )


def search(
    state: GameState,
    *,
    max_states: int,
    deadline: float | None,
    cancel: Callable[[], bool] | None,
    engine: str = "auto",
    on_memory: Callable[[int], object] | None = None,
) -> tuple[str, tuple[Move, ...], int, str]:
    """Search ``state`` of a game :func:`applies` to.

    :param max_states: the most distinct positions to store (>= 1).
    :param deadline: a :func:`time.monotonic` time to stop at, or ``None``.
    :param cancel: returns True to stop early, or ``None``.
    :param engine: ``"auto"`` or ``"c"``: the compiled search of ``_csolver.c`` where it
        is built and the position fits its 64-bit key (:func:`native_unsupported`), else
        this module's; ``"python"``: this module's, the reference. Both store the same
        positions in the same order, so they return the same verdict, line and count.
    :param on_memory: called once the compiled search ends with the most bytes it held
        (its table of positions and its line), or ``None``; the Python search does not
        call it.
    In a layout (``Rules.covered_by``) only the columns nothing covers any more play; a
    face-down card is searched as the card it is (it turns up once uncovered).

    :return: ``(verdict, moves, positions, reason)`` as
        :func:`solitaire_core.solver.stock.search` returns them: ``"winnable"`` with the
        moves of a win (``t3>f1`` from a column, ``s>f1`` from the stock),
        ``"unwinnable"``, or ``"undecided"`` with ``reason`` ``"state budget"``,
        ``"time budget"`` or ``"cancelled"``.
    :raises ValueError: when :func:`applies` is false for the state's rules.
    :raises MemoryError: when the compiled search cannot grow its table of positions.
    """
    rules = state.rules
    if not applies(rules):
        raise ValueError(f"{rules.name} is not a one-foundation game this search decides")
    if max_states < 2:  # the start fills the budget: a search would store its first child
        return "undecided", (), 1, "state budget"
    spec = rules.foundation_piles[0]
    wrap, closed_king = spec.wrap, spec.nothing_on_king
    columns = [tuple(c.rank for c in col) for col in state.columns]
    deck = [c.rank for c in state.stock]  # deck[-1] is dealt next
    pile = state.foundations[0]
    top0 = pile[-1].rank if pile else 0  # 0: an empty foundation takes any card
    if engine != "python" and not native_unsupported(state):
        assert _csolver is not None
        timeout = -1.0 if deadline is None else max(deadline - time.monotonic(), 0.0)
        verdict, line, positions, reason, peak = _csolver.golf(
            tuple(bytes(c) for c in columns),
            bytes(deck),
            top0,
            tuple(bytes(o) for o in rules.covered_by),
            wrap,
            closed_king,
            max_states,
            timeout,
            cancel,
        )
        if on_memory is not None:
            on_memory(peak)
        return verdict, _moves(list(line), len(columns)), positions, reason
    return _search_python(
        columns, deck, top0, rules.covered_by, wrap, closed_king, max_states, deadline, cancel
    )


def native_unsupported(state: GameState) -> str:
    """Why the compiled search cannot search ``state`` (a sentence), or ``""`` when it
    can: the C extension is not built, or the position does not fit its 64-bit key
    (4 bits of top rank, the stock's size and each column's height; at most 64 columns)."""
    if _csolver is None:
        return IMPORT_ERROR or "the C extension is not available"
    n = len(state.columns)
    bits = max(max((len(c) for c in state.columns), default=0), 1).bit_length()
    stock_bits = max(len(state.stock), 1).bit_length()
    if n > 64 or 4 + stock_bits + bits * n > 64:
        return f"{n} columns and a stock of {len(state.stock)} do not fit the C search's 64-bit key"
    return ""


def _search_python(
    columns: list[tuple[int, ...]],
    deck: list[int],
    top0: int,
    over_by: tuple[tuple[int, ...], ...],
    wrap: bool,
    closed_king: bool,
    max_states: int,
    deadline: float | None,
    cancel: Callable[[], bool] | None,
) -> tuple[str, tuple[Move, ...], int, str]:
    """:func:`search` in Python on the columns' ranks (bottom first), the stock's ranks
    (``deck[-1]`` dealt next), the foundation's top rank (0: empty), the columns covering
    each column (``()`` without a layout) and the foundation's rules."""

    def fits(rank: int, top: int) -> bool:
        if top == 0:
            return True
        if closed_king and top == 13:
            return False
        gap = abs(rank - top)
        return gap == 1 or (wrap and gap == 12)

    n = len(columns)
    heights = [len(c) for c in columns]
    stock_left = len(deck)
    # A position as one integer: the top rank (4 bits), the stock's size, then the
    # heights, a few bits each (_csolver.c's golf packs it the same way).
    bits = max(max(heights, default=0), 1).bit_length()
    stock_bits = max(stock_left, 1).bit_length()
    shift = [(4 + stock_bits + bits * i) for i in range(n)]
    code = sum(h << s for h, s in zip(heights, shift))
    left = sum(heights)
    seen = {code | stock_left << 4 | top0}
    # Each frame: (the move that led here, the top before it, moves still to try).
    path: list[int] = []  # column index, or n for a stock deal
    tops: list[int] = []
    pending: list[list[int]] = []
    top = top0

    over = over_by or ((),) * n  # the columns covering each column

    def options(top: int) -> list[int]:
        out = [
            i
            for i in range(n)
            if heights[i]
            and fits(columns[i][heights[i] - 1], top)
            and not any(heights[j] for j in over[i])
        ]
        if stock_left:
            out.append(n)
        out.reverse()  # popped from the end: the first column first, the stock last
        return out

    if not left:
        return "winnable", (), 1, ""
    pending.append(options(top))
    while pending:
        todo = pending[-1]
        if not todo:
            pending.pop()
            if path:  # undo the move that led here
                move = path.pop()
                top = tops.pop()
                if move == n:
                    stock_left += 1
                else:
                    heights[move] += 1
                    code += 1 << shift[move]
                    left += 1
            continue
        move = todo.pop()
        tops.append(top)
        path.append(move)
        if move == n:
            stock_left -= 1
            top = deck[stock_left]
        else:
            heights[move] -= 1
            code -= 1 << shift[move]
            left -= 1
            top = columns[move][heights[move]]
            if not left:
                return "winnable", _moves(path, n), len(seen), ""
        key = code | stock_left << 4 | top
        if key in seen:
            pending.append([])  # nothing to try: the next turn takes the move back
            continue
        seen.add(key)
        stored = len(seen)
        if why := over_budget(stored, max_states, deadline, cancel):
            return "undecided", (), stored, why
        pending.append(options(top))
    return "unwinnable", (), len(seen), ""


def over_budget(
    stored: int, max_states: int, deadline: float | None, cancel: Callable[[], bool] | None
) -> str:
    """Why a depth-first search stops after storing its ``stored``-th position:
    ``"state budget"`` once ``max_states`` are stored, else (asked every 4,096 positions)
    what :func:`interrupted` says; ``""`` to go on."""
    if stored >= max_states:
        return "state budget"
    if stored % 4096 == 0:
        return interrupted(deadline, cancel)
    return ""


def interrupted(deadline: float | None, cancel: Callable[[], bool] | None) -> str:
    """Why a search stops early: ``"time budget"`` once :func:`time.monotonic` has
    passed ``deadline``, ``"cancelled"`` once ``cancel()`` returns True, else ``""``
    (``None`` for either: never)."""
    if deadline is not None and time.monotonic() > deadline:
        return "time budget"
    if cancel is not None and cancel():
        return "cancelled"
    return ""


def _moves(path: list[int], stock_index: int) -> tuple[Move, ...]:
    """The player's moves of a line of column indexes (``stock_index``: a stock deal)."""
    up = foundation(0)
    return tuple(Move(stock(), up) if i == stock_index else Move(tableau(i), up) for i in path)
