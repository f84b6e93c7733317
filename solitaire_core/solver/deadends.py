"""Dead-end detection: positions that cannot be won because one suit alone cannot be.

The *single-suit sub-position* of a position keeps the cards of one suit where they are and
takes every other card out of play (as if on its foundation). In a one-deck game whose
columns build within a suit (:attr:`Tables.chain`) and whose cards never come back from the
foundations, taking cards out of play never makes a game harder: every move of a winning
line that involves the remaining cards stays legal (their runs, parents and foundation
predecessors are all of their own suit and still there; cells and empty columns only get
freer, and every move limit grows with them), and autoplay sending a card up earlier only
frees more. So if a single-suit sub-position cannot be won, neither can the position
(docs/solver.md gives the argument in full).

A sub-position has at most 13 cards, and it changes only when a card of its suit moves, so
the check costs a byte-string filter and a dictionary look-up per new position; a
sub-position not seen before is searched exhaustively (with a small cap: past it, the
check claims nothing) and its verdict cached for the rest of the search.
"""

from __future__ import annotations

from collections.abc import Callable

from .engine import TT, Engine, IMove, Position
from .tables import EMPTY, Tables

SUB_CAP = 5000
"""The most positions a sub-position search stores before giving up (then: not dead)."""

_CACHE_LIMIT = 200_000


class SuitCheck:
    """The single-suit dead-end test for one engine; only for :attr:`Tables.chain`
    variants without foundation return (see :func:`applies`).

    :param engine: the engine of the search (its reductions are used for sub-positions
        too: they are sound for any position).
    :param left: returns how many positions the search's budget has left beyond those
        it stored itself, or ``None`` for no budget; the sub-searches' positions count
        against it too (:meth:`dead`).
    """

    def __init__(self, engine: Engine, left: Callable[[], int] | None = None) -> None:
        tables = engine.tables
        self.engine = engine
        self.left = left
        n = tables.values
        suit = [tables.kind[v] // 13 for v in range(n)]
        self.suit = suit
        self.others = [bytes(v for v in range(n) if suit[v] != s) for s in range(4)]
        self.to_empty = [
            bytes(EMPTY if v < n and suit[v] != s else v for v in range(256)) for s in range(4)
        ]
        self.full = bytes(13)
        # Per search, so that a search's result and counts never depend on earlier ones.
        self.cache: dict[bytes, bool] = {}
        self.searched = 0  # sub-positions searched
        self.positions = 0  # positions those searches stored

    def moved_suit(self, pos: Position, move: IMove) -> int:
        """The suit whose sub-position is worth checking after ``move`` from ``pos``: that
        of a run moved from column to column; -1 (no check) for other moves.

        Any move of a card of a suit may make that suit dead, so checking after every
        one would be sound too; but measured on Seahaven Towers, 12% of checks after
        column-to-column moves found a dead suit, under 1% after moves to a cell and none
        after moves from a cell, while a check costs about a third of what searching a
        position does (docs/solver.md).
        """
        what, a, _, k = move
        if what == TT:
            return self.suit[pos[0][a][-k]]
        return -1

    def dead(self, pos: Position, suit: int) -> bool:
        """Whether the sub-position of ``suit`` in ``pos`` cannot be won.

        With a budget (``left``), a sub-search may store only the positions the budget
        has left, less one, at most :data:`SUB_CAP`; with fewer than two left none runs.
        Either way the answer is then "not dead", which is always sound."""
        cols, cells, found, _ = pos
        drop = self.others[suit]
        sub_cols = tuple(col.translate(None, drop) for col in cols)
        sub_cells = cells.translate(self.to_empty[suit])
        key = b"\xff".join(sorted(sub_cols)) + b"\xfe" + bytes(sorted(sub_cells))
        verdict = self.cache.get(key)
        if verdict is None and self._greedy(sub_cols, sub_cells, suit, len(found[suit])):
            verdict = False
            self.cache[key] = verdict
        if verdict is None:
            cap = SUB_CAP
            if self.left is not None:
                room = self.left() - self.positions
                if room < 2:
                    return False
                cap = min(cap, room - 1)
            engine = self.engine
            sub_found = tuple(found[s] if s == suit else self.full for s in range(4))
            start = engine.autoplay(sub_cols, sub_cells, sub_found, engine.need_of(sub_found))
            verdict = self._unwinnable(start, cap)
            if len(self.cache) > _CACHE_LIMIT:
                self.cache.clear()
            self.cache[key] = verdict
        return verdict

    def _greedy(self, cols: tuple[bytes, ...], cells: bytes, suit: int, height: int) -> bool:
        """A quick proof that a sub-position can be won: send its cards up in order,
        parking the cards that cover the next one in free cells (a legal line: single
        cards to cells, then to the foundation). False means "not shown", not "dead"."""
        free = cells.count(EMPTY)
        parked = {v for v in cells if v != EMPTY}
        columns = [col for col in cols if col]
        for value in range(suit * 13 + height, suit * 13 + 13):
            if value in parked:
                parked.discard(value)
                free += 1
                continue
            for i, col in enumerate(columns):
                at = col.find(value)
                if at >= 0:
                    above = len(col) - 1 - at
                    if above > free:
                        return False
                    free -= above
                    parked.update(col[at + 1 :])
                    columns[i] = col[:at]
                    break
            else:
                return False  # pragma: no cover - every card of the suit is somewhere
        return True

    def dead_somewhere(self, pos: Position) -> bool:
        """Whether any suit's sub-position of ``pos`` cannot be won."""
        return any(self.dead(pos, s) for s in range(4))

    def _unwinnable(self, start: Position, cap: int = SUB_CAP) -> bool:
        """Exhaustive search of a sub-position: True when no line wins, False when one
        does or more than ``cap`` positions were stored."""
        self.searched += 1
        engine = self.engine
        key = engine.key
        total = engine.total
        if sum(map(len, start[2])) == total:
            return False
        seen = {key(start)}
        stack = [_canonical(start)]
        try:
            while stack:
                for _, child in engine.children_of(stack.pop()):
                    k = key(child)
                    if k in seen:
                        continue
                    if sum(map(len, child[2])) == total:
                        return False
                    seen.add(k)
                    if len(seen) > cap:
                        return False
                    stack.append(_canonical(child))
            return True
        finally:
            self.positions += len(seen)


def _canonical(pos: Position) -> Position:
    """``pos`` with its columns sorted as byte strings and its cells by value (empty
    last): the order the compiled search's sub-searches expand a position in, as they
    decode each from its key (``unwinnable`` in ``_csolver.c``). Expanded in play order
    here, the depth-first searches went other ways than the compiled ones and stored
    other numbers of positions (Seahaven Towers #3 with the weights ``depth`` 3 and
    ``cells`` 6: 151 against 199), and as these count against the budget, a budget could
    decide a deal in one engine and not the other."""
    cols, cells, found, need = pos
    return tuple(sorted(cols)), bytes(sorted(cells)), found, need


def applies(tables: Tables) -> bool:
    """Whether the single-suit test is used for the variant: it is sound with one deck,
    building within a suit, no cards back from the foundations, the classic foundations
    (its sub-positions keep one foundation per suit) and free cells (not a reserve); it
    is used only when, besides, empty columns take only parentless cards (Kings), because
    with any card in
    empty columns a single suit spreads over the empty columns in so many ways that the
    small searches cost more than they save (measured on Sea Towers: 65% slower)."""
    rules = tables.rules
    return (
        tables.chain
        and tables.king_only
        and not rules.foundation_return
        and rules.standard_foundations
        and rules.cells_receive
    )


def foundation_predecessors(engine: Engine) -> list[int]:
    """Value -> the values (a bit mask) it may follow on some pile of the variant's own
    foundations (:attr:`Engine.pile_next`); holes (:attr:`Tables.classes`) are never a
    pile's top, so never a predecessor."""
    present = engine.tables.present_mask
    fpred = [0] * 52
    for row in engine.pile_next:
        for y, mask in enumerate(row):
            if not present >> y & 1:
                continue
            while mask:
                v = (mask & -mask).bit_length() - 1
                mask &= mask - 1
                fpred[v] |= 1 << y
    return fpred


class LeaveOrder:
    """The leave-order dead-end test: a position is lost when some card in play can never
    go up (docs/solver.md, "Leave order"); only where :func:`leave_order_applies`.

    Every card must go up before the game is won. A card can leave its place first only
    when the cards above it have left, and then only to its foundation, onto a card it may
    be built on (one in play whose cards above it have left, or one that has left a
    reserve), or into an empty column (when it may fill one and a column is empty or every
    card of one has left). It can go up once it has left, or lies in a reserve, or the
    cards above it have left, and its foundation takes it: classic foundations when every
    lower card of its suit in play has gone up; the variant's own piles when a pile's top
    or an empty pile takes it now, or a card it may follow there has gone up. The cards
    that can leave, and those that can go up, in some order under these conditions are
    found as one least fixed point; a card outside the second never goes up in any line of
    play, so the position cannot be won. (The test once asked only that every card
    leave, and let a card follow on a pile any card that had *left*: so in Scotch
    Patience #26, where both black Tens lie under red Kings that need a black Ten up first,
    every card could leave, and a search of 8,500,000 positions decided nothing. Now its
    start is lost.)

    Where suits share a value (:attr:`Tables.classes`: Scotch Patience's two red Fives
    are one value), the test reads "some card of the value" for "the card": a value leaves
    when one of its cards can (the cards above it, for the card it is, are the cards
    above every one of its cards), and the position is lost when some value in play has
    no card that can ever leave. Each reading only lets more cards leave, so what the
    test claims stays true.

    :param engine: the search's engine (one deck: values are the card kinds, or the kinds
        of :attr:`Tables.classes`).
    """

    def __init__(self, engine: Engine) -> None:
        tables = engine.tables
        self.engine = engine
        self.general = engine.general
        self.lower = [((1 << (v % 13)) - 1) << (v - v % 13) for v in range(52)]
        self.fpred = foundation_predecessors(engine) if engine.general else [0] * 52
        self.parents = [sum(1 << p for p in tables.parents[v]) for v in range(52)]
        self.empty_ok = tables.empty_ok

    def stranded(self, pos: Position) -> bool:
        """Whether some card in play in ``pos`` can never go up (see the class)."""
        cols, cells, found = pos[0], pos[1], pos[2]
        above = [0] * 52
        masks = []
        any_empty = False
        deep: list[tuple[int, int]] = []  # (depth from the top, value)
        seen = 0  # values met so far (several cards per value: Tables.classes)
        for col in cols:
            acc = 0
            for depth, v in enumerate(reversed(col)):
                # The cards above every card of the value (one card: above that card).
                above[v] = above[v] & acc if seen >> v & 1 else acc
                seen |= 1 << v
                acc |= 1 << v
                deep.append((depth, v))
            if acc:
                masks.append(acc)
            else:
                any_empty = True
        reserve = 0
        for v in cells:
            if v != EMPTY:
                reserve |= 1 << v
                deep.append((0, v))
        inplay = reserve
        for m in masks:
            inplay |= m
        lower, parents, empty_ok, eng = self.lower, self.parents, self.empty_ok, self.engine
        general, fpred = self.general, self.fpred
        # left: the values that can leave their place; home: those that can go up (free:
        # they left, lie in a reserve, or every card above them left; and their
        # foundation takes them: every lower card of the suit in play went up, or a pile's
        # top or empty pile takes them now, or a card they may follow there went up).
        # Top cards first: most cards then join in the first pass.
        pending = [v for _, v in sorted(deep)]
        left = home = 0
        while pending:
            rest = []
            before = (left, home)
            for v in pending:
                if home >> v & 1:  # another card of the value went up (Tables.classes)
                    continue
                gone = left >> v & 1
                if not gone and above[v] & ~left and not reserve >> v & 1:
                    rest.append(v)
                    continue
                if general:
                    ok = bool(fpred[v] & home) or any(
                        (eng.pile_next[i][pile[-1]] if pile else eng.pile_start[i]) >> v & 1
                        for i, pile in enumerate(found)
                    )
                else:
                    ok = not lower[v] & inplay & ~home
                if ok:
                    home |= 1 << v
                    left |= 1 << v
                    continue
                if not gone:
                    pm = parents[v] & inplay
                    while pm and not ok:
                        q = (pm & -pm).bit_length() - 1
                        pm &= pm - 1
                        # A card in a reserve once it left, one in a column once the
                        # cards above it left (either, where a value has several cards).
                        ok = bool(reserve >> q & left >> q & 1) or bool(
                            seen >> q & 1 and not above[q] & ~left
                        )
                    if not ok and empty_ok[v]:
                        ok = any_empty or any(not m & ~left for m in masks)
                    if ok:
                        left |= 1 << v
                        gone = 1
                rest.append(v)
            if (left, home) == before:
                return bool(rest)  # the cards of rest never go up
            pending = rest
        return False


def leave_order_applies(tables: Tables) -> bool:
    """Whether the leave-order test is sound for the variant: one deck, no cards back from
    the foundations, cards going up one at a time (not only complete suits), no cells that
    take cards (none, or a reserve that only gives), and every move a single card or one
    that single-card moves can make: move limit "one", "free cells plus one" (one card
    without free cells), or "supermove" when any card may fill an empty column and runs
    follow the build (a run then moves card by card through the empty columns)."""
    rules = tables.rules
    if (
        rules.decks != 1
        or tables.values != 52
        or rules.foundation_return
        or rules.complete_suits
        or (rules.cells and rules.cells_receive)
    ):
        return False
    if rules.move_limit in ("one", "free-cells-plus-one"):
        return True
    runs_build = all(
        not run[y] or tables.can_build[x][y]
        for x, run in enumerate(tables.can_run or tables.can_build)
        for y in range(52)
    )
    return rules.move_limit == "supermove" and all(tables.empty_ok) and runs_build


class LastCard:
    """The last-card test (docs/solver.md, "Last card"): a position is lost when every card
    of some value in play is *anchored* (it can never leave its column but to go up:
    nothing it may be built on, and it may not fill an empty column) and lies above a card
    that must be up before the last card of that value can go up; only where
    :func:`last_card_applies`.

    Which cards must be up first follows from the variant's own foundation piles: a pile
    holds at most one card of each rank (one deck; a pile that wraps holds 13 cards at
    most), so the cards of value ``v`` that are up lie on as many piles, and each lies
    directly on a card of a value it may follow there, unless ``v`` may start a pile.
    When ``v`` may follow only one value ``u``, which stands for as many cards, every card
    of ``u`` is up by the time the last card of ``v`` goes up; and then, unless ``u`` may
    start a pile, every card of the one value ``u`` may follow, and so on. A card of
    ``v`` in play has not left its column before it goes up, so a card under it is still
    in play when it goes up; if that holds of the last card of ``v`` to go up, whichever
    it is, the position cannot be won.

    Where suits share a value this is what the leave-order test (:class:`LeaveOrder`)
    cannot see: it reads "some card of the value" and so lets the first card stand for
    the last. Scotch Patience (PySolFC game 87: fans build down regardless of suit, empty
    fans stay empty, foundations up in alternate colours from any Ace): a black King goes
    on a red Queen, a red Queen on a black Jack and so on down to a black Ace, so the two
    black Kings end the two piles of that chain; the second of them goes up last of its
    chain's 26 cards. In #6 the King of spades lies on the Five of spades and the King of
    clubs above the Seven of clubs: whichever goes up second has a card of its chain under
    it, so #6 is lost at the deal (undecided after 8,500,000 positions before).

    :param engine: the search's engine (one deck; values as :class:`LeaveOrder`'s).
    """

    def __init__(self, engine: Engine) -> None:
        tables = engine.tables
        fpred = foundation_predecessors(engine)
        starts = 0
        for mask in engine.pile_start:
            starts |= mask
        # before[v]: the values every card of which is up when the last card of v goes up.
        self.before = [0] * 52
        for v in range(52):
            if tables.parents[v] or tables.empty_ok[v]:
                continue  # not anchored
            u, need = v, 0
            while not starts >> u & 1 and fpred[u] and fpred[u] & (fpred[u] - 1) == 0:
                u = fpred[u].bit_length() - 1
                if need >> u & 1:
                    break  # round a wrapping pile
                need |= 1 << u
            self.before[v] = need
        self.watched = tuple(v for v in range(52) if self.before[v])

    def lost(self, pos: Position) -> bool:
        """Whether ``pos`` cannot be won by the rule above."""
        cols, cells = pos[0], pos[1]
        for v in self.watched:
            if v in cells:
                continue  # a card in a reserve lies on nothing
            need, seen = self.before[v], False
            for col in cols:
                k = col.find(v)
                while k >= 0:
                    seen = True
                    if not any(need >> w & 1 for w in col[:k]):
                        break
                    k = col.find(v, k + 1)
                else:
                    continue
                break  # a card of v with nothing needed under it
            else:
                if seen:
                    return True
        return False


def last_card_applies(engine: Engine) -> bool:
    """Whether :class:`LastCard` is sound for the variant: where the leave-order test is
    (:func:`leave_order_applies`: one deck, no cells that take cards, single-card moves or
    runs that single-card moves can make), with the variant's own foundation piles
    (several cards per value come only with them), each holding 13 cards at most."""
    return (
        leave_order_applies(engine.tables)
        and engine.general
        and all(cap <= 13 for cap in engine.pile_cap)
    )
