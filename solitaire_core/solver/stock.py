"""The thoughtful search for games with a stock or face-down cards.

The compiled tables and both engines of :mod:`~solitaire_core.solver.search` know open
games only: columns, cells and foundations, every card in sight. A game with a stock, a
waste or face-down cards (Klondike, Spider, Yukon, Gypsy, Forty Thieves) is searched here
instead, on the core's own positions: every move :func:`~solitaire_core.rules.legal_moves`
allows, each followed by the session's autoplay (:func:`~solitaire_core.session.play_move`),
so a solution is the session's own play.

The search is *thoughtful*, as Solvitaire's is (Blake and Gent, "The Winnability of
Klondike Solitaire and Many Other Patience Games", 2019): it knows where every face-down
card lies and the order of the stock. Its verdict answers "could this deal be won?", not
"what would a player who cannot see the hidden cards play?"; every place that shows it
says so (:data:`THOUGHTFUL_NOTE`).

Method: best-first search on a score (cards on the foundations, face-down cards turned,
cards left in the stock and waste), positions stored under
:func:`~solitaire_core.rules.canonical_key`; the last position found is expanded first
among equals (a depth-first tie-break, as the open-game search does). A position counts
once however it was reached; a verdict of "unwinnable" means every reachable position
was searched. docs/solver.md, "Games with hidden cards", gives the figures.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Iterator

from ..cards import Card
from ..moves import Move, PileKind, cell, foundation, tableau
from ..rules import (
    WASTE,
    _play,
    autoplay_moves,
    canonical_key,
    legal_moves,
    pile_accepts,
    stock_moves,
)
from ..session import play_resolved
from ..state import GameState

THOUGHTFUL_NOTE = "thoughtful: the solver knows the face-down cards and the stock's order"
"""The note every stock-game result carries (:attr:`SolveResult.note`)."""


def _score(state: GameState) -> int:
    """Higher is closer to a win: cards up first, then face-down cards turned, then
    cards out of the stock and waste and into the columns."""
    return (
        40 * state.foundation_cards
        - 12 * state.face_down_cards
        - 2 * len(state.stock)
        - 2 * len(state.waste)
        + 2 * sum(1 for col in state.columns if not col)
        - 20 * len(state.reserve)
    )


def _waste_moves(state: GameState) -> list[Move]:
    """The legal moves of the waste's top card in ``state``, each to a numbered pile
    (one foundation move at most: the first pile that takes the card). The same rules
    as :func:`~solitaire_core.rules.legal_moves` asks, without its reasons."""
    if not state.waste:
        return []
    rules = state.rules
    card = state.waste[-1]
    out = []
    home = _home(state, card)
    if home is not None and not rules.complete_suits:
        out.append(Move(WASTE, foundation(home)))
    build, empty_ok = rules.build, rules.empty_accepts_for(state.bases)
    for i, col in enumerate(state.columns):
        if build(card, col[-1]) if col else empty_ok(card):
            out.append(Move(WASTE, tableau(i)))
    if rules.cells_receive:
        free = next((i for i, c in enumerate(state.cells) if c is None), None)
        if free is not None:
            out.append(Move(WASTE, cell(free)))
    return out


def expand(state: GameState, policy: str) -> Iterator[tuple[tuple[Move, ...], GameState]]:
    """The search's moves from ``state``: each a line of player moves and the position
    after it (autoplay included).

    Moves that do not touch the stock come as they are. A row dealt onto the columns is
    one move too. The waste's deals and redeals are folded into the move that follows
    them (the K+ representation of Bjarnason, Tadepalli and Fern, "Searching Solitaire
    in Real Time", ICGA J. 30(3), 2007): for every position the stock alone can reach
    (deal after deal, redeal after redeal, until a position repeats or the stock is
    spent), each legal move of the waste's top card there is one line, the deals then
    that move. Positions in between, where only the stock moved, are never stored. This
    loses no win: a line that deals and then moves a column's card can move it first,
    since dealing changes nothing the column move depends on; a line of deals alone that
    ends the game cannot exist, as the stock's cards must still leave the waste; and a
    deal after which autoplay sends cards up is offered as a line of its own. Where the
    stock's top card plays too (``stock.top_plays``: Pyramid) nothing is folded.
    """
    rules = state.rules
    # Folding needs the waste's top card to be the only card the deals bring into play;
    # in Pyramid the stock's top card plays too, so there every deal is a move.
    fold = rules.stock_deal == "waste" and not rules.stock_top_plays
    for move in legal_moves(state):
        turns_waste = PileKind.STOCK in (move.source.kind, move.target.kind)
        if not (fold and turns_waste):
            yield (move,), play_resolved(state, move, policy)[0]
    if not fold:
        return
    chain: list[Move] = []
    current = state

    def where(position: GameState) -> tuple[int, int, int]:
        # Only the stock and the waste move in the chain: their sizes (and the redeals
        # used, while they are limited) say where it is.
        rounds = position.rounds if rules.redeals >= 0 else 0
        return len(position.stock), len(position.waste), rounds

    seen = {where(state)}
    while True:
        deals = stock_moves(current)
        if not deals:
            return
        chain.append(deals[0])
        # Only the stock and the waste change here (the rest was autoplayed already), so
        # autoplay can only take the new top card of the waste: ask it only then.
        current = _play(current, deals[0])
        if current.waste and _home(current, current.waste[-1]) is not None:
            played, auto = autoplay_moves(current, policy)
            if auto:
                yield tuple(chain), played
                return  # what follows is searched from that line's position
        here = where(current)
        if here in seen:
            return
        seen.add(here)
        for move in _waste_moves(current):
            yield (*chain, move), play_resolved(current, move, policy)[0]


def _home(state: GameState, card: Card) -> int | None:
    """The first foundation that takes ``card`` now, or ``None``."""
    return next((j for j in range(state.rules.foundations) if pile_accepts(state, j, card)), None)


def search(
    state: GameState,
    *,
    policy: str,
    max_states: int,
    deadline: float | None,
    cancel: Callable[[], bool] | None,
    progress: Callable[[int], None] | None,
) -> tuple[str, tuple[Move, ...], int, str]:
    """Search from ``state`` (autoplay already done, as a session's state is).

    :param policy: the autoplay policy to play with (``"off"``, ``"safe"``, ``"all"``).
    :param max_states: the most distinct positions to store (>= 1).
    :param deadline: a :func:`time.monotonic` time to stop at, or ``None``.
    :param cancel: returns True to stop early, or ``None``.
    :param progress: called every 2,000 positions with the number stored.
    :return: ``(verdict, moves, positions, reason)``: verdict ``"winnable"`` (``moves``
        the player's moves of a win), ``"unwinnable"`` (every reachable position
        searched), or ``"undecided"`` with ``reason`` ``"state budget"``, ``"time
        budget"`` or ``"cancelled"``.
    """
    start, _ = autoplay_moves(state, policy)
    if start.is_won:
        return "winnable", (), 1, ""
    parents: dict[object, tuple[object, tuple[Move, ...]] | None] = {}
    start_key = canonical_key(start)
    parents[start_key] = None
    tick = itertools.count()
    heap: list[tuple[int, int, GameState, object]] = [(-_score(start), 0, start, start_key)]
    while heap:
        _, _, position, key = heapq.heappop(heap)
        for line, after in expand(position, policy):
            child = canonical_key(after)
            if child in parents:
                continue
            parents[child] = (key, line)
            if after.is_won:
                return "winnable", _line(parents, child), len(parents), ""
            stored = len(parents)
            if stored >= max_states:
                return "undecided", (), stored, "state budget"
            if stored % 500 == 0:
                if deadline is not None and time.monotonic() > deadline:
                    return "undecided", (), stored, "time budget"
                if cancel is not None and cancel():
                    return "undecided", (), stored, "cancelled"
                if progress is not None and stored % 2000 == 0:
                    progress(stored)
            heapq.heappush(heap, (-_score(after), -next(tick), after, child))
    return "unwinnable", (), len(parents), ""


def _line(
    parents: dict[object, tuple[object, tuple[Move, ...]] | None], key: object
) -> tuple[Move, ...]:
    """The moves from the start to the position stored under ``key``."""
    lines: list[tuple[Move, ...]] = []
    link = parents[key]
    while link is not None:
        key, line = link
        lines.append(line)
        link = parents[key]
    return tuple(m for line in reversed(lines) for m in line)
