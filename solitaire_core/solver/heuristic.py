"""How promising a position looks: the score the best-first search orders positions by.

Lower is better. The score only steers the search; it never prunes, so a bad score costs
time, never a wrong verdict. Its terms, each weighted (:data:`WEIGHTS`):

* ``left`` -- cards not yet on a foundation;
* ``blockers`` -- cards lying above a lower card of their own suit in a column (the lower
  one must reach its foundation first, so the upper one has to move away);
* ``unsettled`` -- cards above the settled part of a column (a run from a card that may
  fill an empty column: in Seahaven Towers, a King and the cards built on it);
* ``depth`` -- for each card that fits a foundation now, how many cards lie on it (on
  its most easily reached copy, in games of several decks);
* ``cells`` -- occupied cells; ``empty`` -- empty columns (a bonus);
* ``homeless`` -- parentless cards (Kings) in cells or above the bottom of a column;
* ``loose`` -- cards built on the card below them but not in a run with it (in Simple
  Simon, a card on one of another suit: the pair cannot move as one, and no complete suit
  forms across it). Zero in every game whose runs follow its builds (FreeCell, Seahaven
  Towers...), so it steers only games like Simple Simon;
* ``noise`` -- 0 to its weight, a hash of the position's key and a seed (the ``"seed"``
  idea): not a judgement of the position but a tie-breaker, so that a restart with
  another seed searches otherwise equal positions in another order. Weight 0 (off) but in
  the restarts of :func:`~solitaire_core.solver.search.solve` (docs/solver.md, "Restarts").
  The two engines hash their own keys, so with noise they search in different orders.

``cells``, ``empty`` and ``homeless`` weigh 0 by default: measured, they did not pay
(docs/solver.md); ``empty`` does where only complete suits go home. ``depth`` weighs 3
where cells take cards and 6 where none does (:func:`default_weights`). The column terms
depend on the column alone and are cached by column contents: a move changes two columns,
so almost every column of a new position was seen before.
"""

from __future__ import annotations

import zlib

from .engine import Engine, Position
from .tables import EMPTY, Tables

WEIGHTS: dict[str, int] = {
    "left": 20,
    "depth": 0,
    "cells": 0,
    "empty": 0,
    "blockers": 3,
    "unsettled": 2,
    "homeless": 0,
    "loose": 8,
    "noise": 0,
    "crowd": 0,
}
"""Default weights, chosen by measuring Seahaven Towers 1-1000, Sea Towers with any card
1-1000 and Double Sea Towers 1-200 (docs/solver.md); terms at 0 measured no better.
``loose`` was chosen with :data:`COMPLETE_SUIT_WEIGHTS` on Simple Simon 1-160 and checked
on 161-320 (8 to 10 best; 4 and 12 worse). ``crowd`` (0 here; 40 in the first other score
of the games without cells, ``search.NO_CELL_FALLBACKS``) adds its weight times the bit
length of how many positions with the same state of the foundations were scored so far,
this one included: a search stuck among positions with the same cards up rates them worse
and worse (docs/solver.md, "The crowd term")."""

COMPLETE_SUIT_WEIGHTS: dict[str, int] = {"empty": 8}
"""Overrides of :data:`WEIGHTS` where the foundations take only complete suits (Simple
Simon, PySolFC game 50): there ``left`` stays at every card until a suit is complete, and
an empty column is the room the rest of the game is played with. Measured on Simple Simon
1-160 at 100,000 positions, checked on 161-320 (docs/solver.md): 8 and 10 best (with
``loose`` 5 on 1-40: 6 to 15 took half the positions of 0 or fewer, 4 and 20 won less)."""


NO_CELL_WEIGHTS: dict[str, int] = {"depth": 6}
"""Overrides of :data:`WEIGHTS` where no cell takes a card (no cells, or a reserve that only
gives) and cards go up one at a time (Baker's Dozen, Good Measure, Beleaguered Castle,
Bisley, Flower Garden...): with nowhere to park a card, digging out the next card a
foundation takes is the way forward. Measured on the first six undecided deals (at the
default weights) of Baker's Dozen, Good Measure, Beleaguered Castle and Streets and Alleys:
``depth`` 0 decided none of the 24, 3 decided 8 of the 12 of the first two games, 6
decided 19 of 24 and 10 decided 17; then checked on deals 1-100 of every such game
(docs/solver.md)."""


CELL_WEIGHTS: dict[str, int] = {"depth": 3}
"""Overrides of :data:`WEIGHTS` where cells take cards (FreeCell, Seahaven Towers, Eight
Off, Penguin...): digging out the next card a foundation takes steers FreeCell best.
Measured with the C engine at the default budget (docs/solver.md): FreeCell 1-1000
decided 983 deals in 27.9 M positions at ``depth`` 0, 995 in 13.8 M at 3 (991 at 2 and at
4; ``cells`` 5 or ``empty`` 4 beside it did no better); its 12 first undecided deals of
1-32000 were all decided in 0.1 M positions together. Checked on Seahaven Towers, Sea
Towers, Relaxed Seahaven and Eight Off 1-1000, on six more games 1-300 and on the
multi-deck FreeCells 1-100: as many deals decided or more, in fewer positions, except in
the three games where nothing fills an empty column, which keep :data:`WEIGHTS`:
Stalactites 1-300 (the same verdicts, 29% more positions), Der Katzenschwanz 1-100 (37
undecided against 35) and Die Schlange 1-100 (21 against 17)."""


def default_weights(tables: Tables) -> dict[str, int]:
    """The weights a search of ``tables`` starts from (before a caller's overrides):
    :data:`WEIGHTS`, with :data:`COMPLETE_SUIT_WEIGHTS` where the rules send only
    complete suits to the foundations (``foundations.only_complete_suits``), with
    :data:`NO_CELL_WEIGHTS` where no cell takes a card, with :data:`CELL_WEIGHTS` where
    cells take cards and empty columns can be filled; as they are where nothing fills an
    empty column (there the term measured worse: :data:`CELL_WEIGHTS`)."""
    rules = tables.rules
    if rules.complete_suits:
        return {**WEIGHTS, **COMPLETE_SUIT_WEIGHTS}
    if not rules.cells or not rules.cells_receive:
        return {**WEIGHTS, **NO_CELL_WEIGHTS}
    if rules.empty_rule == "none":  # Stalactites, Der Katzenschwanz, Die Schlange
        return dict(WEIGHTS)
    return {**WEIGHTS, **CELL_WEIGHTS}


_MASK64 = (1 << 64) - 1
_CACHE_LIMIT = 200_000
_COLUMN_CACHES: dict[tuple[int, int, int, int, int], tuple[Tables, dict[bytes, int]]] = {}


class Scorer:
    """The score of positions for one engine.

    :param engine: the engine whose positions are scored.
    :param weights: overrides of :func:`default_weights` by term name.
    :param seed: the seed of the ``noise`` term (a whole number from 0 to 2**62).
    """

    def __init__(
        self, engine: Engine, weights: dict[str, int] | None = None, seed: int = 0
    ) -> None:
        w = {**default_weights(engine.tables), **(weights or {})}
        self.w_noise = w["noise"]
        self.w_crowd = w["crowd"]
        self.crowd: dict[tuple[bytes, ...], int] = {}
        self.seed_mix = (seed * 0x9E3779B97F4A7C15) & _MASK64
        self.w_left, self.w_depth = w["left"], w["depth"]
        self.w_cells, self.w_empty = w["cells"], w["empty"]
        self.w_block, self.w_unsettled = w["blockers"], w["unsettled"]
        self.w_homeless, self.w_loose = w["homeless"], w["loose"]
        self.engine = engine
        self.total = engine.total
        self.ncells = engine.ncells
        tables = engine.tables
        self.kind = tables.kind
        self.can_build = tables.can_build
        self.can_run = tables.can_run
        if not any(
            b and not r for bs, rs in zip(tables.can_build, self.can_run) for b, r in zip(bs, rs)
        ):
            self.w_loose = 0  # no card is built on another without a run: the term is 0
        self.empty_ok = tables.empty_ok
        self.parentless = tuple(not p for p in tables.parents)
        self.of_kind = tables.of_kind
        # Column terms depend on the tables and their weights only: share them between calls.
        key = (id(tables), self.w_block, self.w_unsettled, self.w_homeless, self.w_loose)
        cache = _COLUMN_CACHES.get(key)
        if cache is None or cache[0] is not tables:
            if len(_COLUMN_CACHES) > 8:
                _COLUMN_CACHES.clear()
            cache = _COLUMN_CACHES[key] = (tables, {})
        self.cache = cache[1]

    def column(self, col: bytes) -> int:
        """The weighted blockers, unsettled, homeless and loose cards of one column."""
        kind = self.kind
        n = len(col)
        loose = 0
        if self.w_loose:
            can_build, can_run = self.can_build, self.can_run
            for k in range(1, n):
                if can_build[col[k]][col[k - 1]] and not can_run[col[k]][col[k - 1]]:
                    loose += 1
        settled = 0
        if self.empty_ok[col[0]]:
            settled = 1
            can_build = self.can_build
            while settled < n and can_build[col[settled]][col[settled - 1]]:
                settled += 1
        blockers = 0
        parentless = self.parentless
        homeless = sum(1 for v in col[1:] if parentless[v])
        lowest = [99, 99, 99, 99]
        for v in col:
            k = kind[v]
            suit = k // 13
            if lowest[suit] < k:
                blockers += 1
            else:
                lowest[suit] = k
        return (
            self.w_block * blockers
            + self.w_unsettled * (n - settled)
            + self.w_homeless * homeless
            + self.w_loose * loose
        )

    def __call__(self, pos: Position) -> int:
        cols, cells, found, need = pos
        score = self.w_left * (self.total - sum(map(len, found)))
        score += self.w_cells * (self.ncells - cells.count(EMPTY))
        if self.w_homeless:
            parentless = self.parentless
            for v in cells:
                if v != EMPTY and parentless[v]:
                    score += self.w_homeless
        cache = self.cache
        for col in cols:
            if col:
                c = cache.get(col)
                if c is None:
                    if len(cache) > _CACHE_LIMIT:
                        cache.clear()
                    c = cache[col] = self.column(col)
                score += c
            else:
                score -= self.w_empty
        if self.w_noise:
            score += self.noise(self.engine.key(pos))
        if self.w_crowd:  # positions scored so far with these cards up (the C core: queued)
            n = self.crowd[found] = self.crowd.get(found, 0) + 1
            score += self.w_crowd * n.bit_length()
        w_depth = self.w_depth
        while need and w_depth:
            low = need & -need
            need ^= low
            score += w_depth * self.dig(cols, cells, self.of_kind[low.bit_length() - 1])
        return score

    def noise(self, key: bytes) -> int:
        """The ``noise`` term of the position with transposition key ``key``: 0 to its
        weight, from a 32-bit CRC of the key mixed with the seed (deterministic, unlike
        Python's ``hash`` of bytes, which changes from one process to the next)."""
        h = ((zlib.crc32(key) ^ self.seed_mix) * 0xD6E8FEB86659FD93) & _MASK64
        h ^= h >> 32
        return h % (self.w_noise + 1)

    @staticmethod
    def dig(cols: tuple[bytes, ...], cells: bytes, values: tuple[int, ...]) -> int:
        """The ``depth`` of one card a foundation takes next: the fewest cards lying on a
        copy of it (``values``: its values, one per copy or one for merged twins), 0 when
        a copy is in a cell or none is in play. In a game of two or three decks either copy
        will do, so only the easiest to dig out counts."""
        best = -1
        for v in values:
            if v in cells:
                return 0
            for col in cols:
                i = col.rfind(v)
                if i >= 0:
                    above = len(col) - 1 - i
                    if above < best or best < 0:
                        best = above
        return max(best, 0)
