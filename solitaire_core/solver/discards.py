"""The depth-first search for the discard games (Aces Up).

In Aces Up (PySolFC game 903, pysollib/games/acesup.py, AcesUp) a column's top card is
discarded while a higher card of its suit, Aces high, tops another column
(``foundations.build = "outranked-in-suit"``); a column's top card may move to an empty
column; and the stock deals a row, one card onto each column. The game is won with the
48 cards discarded and an Ace alone on each column (``foundations.win_cards``,
``tableau.win_single_cards``).

Nothing is ever built, so a position is the columns' cards and the stock's size (the
discarded cards are the rest). The search is a depth-first search over positions, each
stored once, when first reached, and never expanded again, as
:mod:`~solitaire_core.solver.golf`'s is; a verdict of "unwinnable" means every position
that could still win was searched. Its moves come in this order: discards, moves to an
empty column, the deal. What keeps the search small, each rule losing no win:

- Between two deals (a *round*) a card that shows keeps showing till it goes: cards
  only leave the columns or go to empty ones. So a card that may be discarded now may
  be till the deal, and whatever it would let go later in the round, the higher card
  that lets it go now lets go too: a card is discarded when it first may be in the
  round, or kept till the deal (a kept card is not discarded later in the round).
- A card kept through a deal is worth keeping only to let a lower card of its suit go
  at a moment when no other higher card of the suit shows; until it has done so it
  *owes a use*: it is not discarded, and a position where it can no longer pay is not
  searched on. A line that keeps a card and discards it later without that use wins
  no less with the card discarded at once. When it can no longer pay is known round
  by round (``owes_in_vain``): within a round nothing is covered, so the highest other
  card of its suit showing only rises till the use, and the card used is that one or
  higher; a round that starts with a higher card than the kept one showing (the row
  dealt shows), or with no card of the suit in play between the two, is no round for
  it. A card with no round for it after the deal is not kept (``worth_keeping``).
- A card is discarded at once, as the only move tried, when keeping it is not worth it
  (no lower card of its suit is left, say), and once the stock is empty: then it can
  never be wanted.
- Where the lone cards (alone on a column) lie is chosen only when it matters. They
  trade places at will while a column is empty, so while one is, a position records
  which lone cards there are, not where; likewise after a move fills the last empty
  column, till the next deal or the next empty column. At the deal each of those
  columns gets its card over one of a *pool*, the lone cards and the empty columns
  (none) there were: which one is chosen only when the card is uncovered (or, while a
  column is empty, when a single card over a pool that still holds a "none" may be
  lone). Every way to lay the lone cards out before the deal is one way to choose;
  a card under others is never seen, moved or discarded, so its choice waits.
- Once the stock is empty the columns are sorted.
- A position where no column can ever empty again is lost when a card can then never
  go (``stuck``).
- Only positions with a choice of moves are stored and counted: a position with a
  single way on (a forced discard, or only the deal) is passed through as part of the
  step that reached it.

Every discard made as soon as it may be finds most wins in few positions, so a first
search with only those lines takes a quarter of the budget (:data:`GREEDY_SHARE`); a
win it finds is a win, but its "no win" proves nothing, and the full search follows.

The search runs compiled (``discards`` in ``_csolver.c``, :func:`_search_c`) where the
extension is built: the same positions in the same order as :func:`_search`, which stays
the reference the tests compare it with (tests/test_discards_engines.py).

The search is thoughtful: it knows the stock's order
(:data:`~solitaire_core.solver.stock.THOUGHTFUL_NOTE`). Its solution is the player's
moves, which :func:`~solitaire_core.rules.apply` plays to a win: ``t2>f1`` (a
discard), ``t2>t4`` (a card to an empty column), ``s>t`` (a row).
"""

from __future__ import annotations

import time
from bisect import insort
from collections.abc import Callable

from ..cards import ACE, Card, Suit
from ..moves import Move, foundation, tableau
from ..rules import DEAL_ROW
from ..state import GameState
from ..variant import Rules
from .golf import over_budget
from .native import IMPORT_ERROR, _csolver

# A move of a step: (column, target, card, extra). target is DISCARD (the column's top
# card, ``card``, to the discard pile), DEAL (the row; ``card`` then holds the floating
# group's columns as bits, 0 for none, and ``extra`` the pool's number * 2 + 1 when the
# group was fixed by the move that filled the last empty column), RESOLVE (the card
# under the column's cards is found to be ``card``, -1 for none, from pool ``extra``),
# else the empty column the card goes to (``extra``: the floating group's columns as
# bits when it fills the last empty one, else 0).
DISCARD, DEAL, RESOLVE = -1, -2, -3
Step = tuple[tuple[tuple[int, int, int, int], ...], int, int]
"""A step of the search: its moves, then (as bits of card numbers) the cards kept till
the next deal and the cards owing a use after it."""


def applies(rules: Rules) -> bool:
    """Whether :func:`search` decides ``rules``'s game: one discard pile that takes a
    card outranked in its suit (``foundations.build = "outranked-in-suit"``: Aces Up,
    PySolFC game 903), no cells, reserve, face-down cards or building on the columns,
    single cards moved, an empty column taking any card, a stock (if any) that deals a
    row onto the columns, empty ones too, and one deck (the search tells cards apart by
    suit and rank alone: a game of two decks goes to the general search)."""
    return (
        rules.decks == 1
        and rules.foundations == 1
        and rules.foundation_piles[0].discards
        and rules.cells == 0
        and not rules.has_reserve
        and not any(rules.deal.face_down)
        and not rules.covered_by
        and rules.tableau_build == "none"
        and rules.move_limit == "one"
        and rules.empty_rule == "any"
        and not rules.foundation_return
        and (rules.stock_deal == "" or (rules.stock_deal == "row" and rules.row_onto_empty))
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
    """Search ``state`` of a game :func:`applies` to (PySolFC's Aces Up, game 903), any
    position of it, within ``max_states`` positions (>= 1, both searches of the
    module's docstring together), until ``deadline`` (:func:`time.monotonic`) or
    ``cancel()`` (either ``None``: never).

    :param engine: ``"auto"`` or ``"c"``: the compiled search of ``_csolver.c`` where it
        is built and takes the position (:func:`native_unsupported`), else this module's;
        ``"python"``: this module's, the reference. Both store the same positions in the
        same order, so they return the same verdict, line and count.
    :param on_memory: called once the compiled search ends with the most bytes it held
        (its table of positions and its levels), or ``None``; the Python search does
        not call it.
    :return: ``(verdict, moves, positions, reason)`` as
        :func:`solitaire_core.solver.golf.search` returns them, a win's moves in the
        forms of the module's docstring.
    :raises ValueError: when :func:`applies` is false for the state's rules.
    :raises MemoryError: when the compiled search cannot grow its table of positions.
    """
    rules = state.rules
    if not applies(rules):
        raise ValueError(f"{rules.name} is not a discard game this search decides")
    if state.is_won:
        return "winnable", (), 1, ""
    compiled = engine != "python" and not native_unsupported(state)

    def run(budget: int, greedy: bool) -> tuple[str, tuple[Move, ...], int, str]:
        if compiled:
            return _search_c(state, budget, deadline, cancel, greedy, on_memory)
        return _search(state, budget, deadline, cancel, greedy=greedy)

    if max_states < 2:  # the start fills the budget: a search would store its first child
        return "undecided", (), 1, "state budget"
    # First every card discarded as soon as it may be: a win found so is a win.
    quick = max_states // GREEDY_SHARE
    spent = 0
    if quick >= 2:
        verdict, moves, spent, reason = run(quick, True)
        if verdict == "winnable" or reason in ("time budget", "cancelled"):
            return verdict, moves, spent, reason
    verdict, moves, more, reason = run(max_states - spent, False)
    return verdict, moves, spent + more, reason


def native_unsupported(state: GameState) -> str:
    """Why the compiled search cannot search ``state`` of a game :func:`applies` to (a
    sentence), or ``""`` when it can: the C extension is not built, or the game has
    more than :data:`NATIVE_MAX_COLUMNS` columns (``_csolver.c``'s ``DS_COLS``)."""
    if _csolver is None:
        return IMPORT_ERROR or "the C extension is not available"
    if len(state.columns) > NATIVE_MAX_COLUMNS:
        return f"{len(state.columns)} columns are more than the C search's {NATIVE_MAX_COLUMNS}"
    return ""


NATIVE_MAX_COLUMNS = 16
"""The most columns the compiled search takes (``DS_COLS`` in ``_csolver.c``)."""


GREEDY_SHARE = 4
"""The share of the budget the first search, with every discard made at once, takes
(a quarter): it finds most wins in far fewer positions, but its "no win" proves
nothing, as a card kept may be the only one above another later."""


_SUITS = {suit: k for k, suit in enumerate(Suit)}


def _number(card: Card) -> int:
    """``card`` as the searches number it: suit * 16 + its rank, Aces high (14). A card
    outranks another of its suit when its number is greater and the suits agree (the
    same number // 16)."""
    return _SUITS[card.suit] * 16 + (14 if card.rank == ACE else card.rank)


def _row(state: GameState) -> list[int]:
    """The columns the stock deals a row onto, in order (none without a stock)."""
    rules = state.rules
    n = len(state.columns)
    return [i for i in rules.row_columns if i < n] if rules.stock_deal == "row" else []


def _search_c(
    state: GameState,
    max_states: int,
    deadline: float | None,
    cancel: Callable[[], bool] | None,
    greedy: bool,
    on_memory: Callable[[int], object] | None,
) -> tuple[str, tuple[Move, ...], int, str]:
    """:func:`_search` in ``_csolver.c`` (``discards``): the same positions in the same
    order, so the same verdict, line and count. ``on_memory`` (or ``None``) gets the
    most bytes it held."""
    assert _csolver is not None
    columns = [[_number(c) for c in col] for col in state.columns]
    deck = [_number(c) for c in state.stock]
    row = _row(state)
    timeout = -1.0 if deadline is None else max(deadline - time.monotonic(), 0.0)
    verdict, line, positions, reason, peak = _csolver.discards(
        tuple(bytes(c) for c in columns),
        bytes(deck),
        bytes(row),
        state.rules.win_cards or state.rules.card_count,
        len(state.foundations[0]),
        state.rules.win_single_cards,
        greedy,
        max_states,
        timeout,
        cancel,
    )
    if on_memory is not None:
        on_memory(peak)
    moves = _solution(columns, deck, row, line) if verdict == "winnable" else ()
    return verdict, moves, positions, reason


def _search(
    state: GameState,
    max_states: int,
    deadline: float | None,
    cancel: Callable[[], bool] | None,
    *,
    greedy: bool = False,
) -> tuple[str, tuple[Move, ...], int, str]:
    """:func:`search`'s depth-first search; with ``greedy`` every discard is made as
    soon as it may be (the only move tried then), and ``"unwinnable"`` means only that
    no such line wins.

    A searched position stands for a set of the game's positions, all reachable from
    one before it by the player's choice of where the lone cards lay (the module's
    docstring): ``columns`` holds each column's known cards, and a column whose
    ``base`` is a pool's number has under them one of that pool's cards or nothing,
    the pool (``pools``) holding what is still unplaced, one item per such column."""
    rules = state.rules
    columns = [[_number(c) for c in col] for col in state.columns]
    deck = [_number(c) for c in state.stock]
    n = len(columns)
    start = ([list(c) for c in columns], list(deck))
    row = _row(state)
    to_discard = rules.win_cards or rules.card_count
    discarded = len(state.foundations[0])
    single = rules.win_single_cards
    stock_left = len(deck)
    # Per suit, the ranks still in play (columns, pools and stock) as bits.
    alive = [0] * 4
    for card in deck + [c for col in columns for c in col]:
        alive[card // 16] |= 1 << card % 16
    kept = 0  # the cards not to be discarded before the next deal, as bits
    owed = 0  # the cards kept through a deal and not yet used since, as bits
    base = [0] * n  # per column, the pool its bottom comes from (0: none, all known)
    pools: dict[int, list[int]] = {}  # per pool, its unplaced cards (-1: none), sorted
    fixed = 0  # the floating group the last empty column's filling left, as bits

    def group() -> int:
        """The columns (as bits) whose lone cards may lie in any order among them: while
        a column is empty, every column of one known card or none; else those the last
        empty column's filling left (0 after a deal)."""
        if any(not columns[j] and not base[j] for j in range(n)):
            return sum(1 << j for j in range(n) if not base[j] and len(columns[j]) <= 1)
        return fixed

    def key() -> tuple[object, ...]:
        """The position as stored: the stock's size, the cards kept and owing a use, the
        columns (each with its pool, 0 for none; those whose lone cards float left out,
        their cards given as a set), the floating columns and the pools' cards."""
        placed = tuple(sorted((p, tuple(v)) for p, v in pools.items() if v))
        if not stock_left:
            ends = tuple(sorted((base[j], tuple(columns[j])) for j in range(n)))
            return (0, owed, ends, placed)
        g = group()
        cols = tuple(None if g >> j & 1 else (base[j], tuple(columns[j])) for j in range(n))
        lone = tuple(sorted(columns[j][0] if columns[j] else -1 for j in range(n) if g >> j & 1))
        return (stock_left, kept, owed, cols, g, lone, placed)

    def won() -> bool:
        if discarded < to_discard:
            return False
        return not single or (
            all(len(c) == 1 for c in columns) and all(v == -1 for p in pools.values() for v in p)
        )

    def unresolved() -> int:
        """The column whose hidden bottom must be chosen now, or -1: one whose known
        cards are gone (its bottom shows), or, while a column is empty, one of a single
        known card that may lie alone (its pool still holds a "none"): that card then
        floats with the lone cards, which it may only do once it is known to be lone."""
        empty = False
        for j in range(n):
            if not columns[j]:
                if base[j]:
                    return j
                empty = True
        if empty:
            for j in range(n):
                if base[j] and len(columns[j]) == 1 and pools[base[j]][0] == -1:
                    return j
        return -1

    # Per number of cards left in the stock, per suit, for this round and each round
    # still to come (the next first): the highest rank showing at its start that the
    # stock deals (-1: none), and the ranks the stock deals only after it, as bits.
    rounds_ahead: dict[int, list[list[tuple[int, int]]]] = {}
    width = max(1, len(row))
    for left in range(len(deck) + 1):
        per_suit: list[list[tuple[int, int]]] = [[] for _ in range(4)]
        ends = list(range(left, 0, -width))
        for k in range(len(ends) + 1):
            dealt = deck[max(0, ends[k - 1] - width) : ends[k - 1]] if k else []
            later = deck[: ends[k]] if k < len(ends) else []
            for suit in range(4):
                high = max((c % 16 for c in dealt if c // 16 == suit), default=-1)
                bits = sum(1 << c % 16 for c in later if c // 16 == suit)
                per_suit[suit].append((high, bits))
        rounds_ahead[left] = per_suit

    def worth_keeping(card: int) -> bool:
        """Whether ``card``, kept through the next deal, may be used after it: a round
        after it that :func:`owes_in_vain` allows (a card kept through a deal is kept
        only for such a use, and one it would make in this round the higher card that
        lets it go now makes too). With none, it is discarded at once, losing nothing."""
        suit, rank = card // 16, card % 16
        below = alive[suit] & ((1 << rank) - 1)
        return any(
            least < rank and (below & ~later) >> max(least, 0)
            for least, later in rounds_ahead[stock_left][suit][1:]
        )

    def options() -> list[Step]:
        """The moves from here, in the order to try them (the module's docstring)."""
        j = unresolved()
        if j >= 0:
            p = base[j]
            found: list[Step] = [
                (((j, RESOLVE, v, p),), kept, owed) for v in sorted(set(pools[p]), reverse=True)
            ]
            return found  # popped from the end: "none" first, an empty column helps most
        tops = [c[-1] if c else -1 for c in columns]
        out: list[Step] = []
        declined = kept
        for i, card in enumerate(tops):
            if card < 0 or card % 16 == 14:
                continue
            suit = card // 16
            over = [t for t in tops if t > card and t // 16 == suit]  # in other columns
            if owed >> card & 1:
                if over and not stock_left:
                    return []  # it can never be the only card above another: lost
                continue
            if not over or kept >> card & 1:
                continue
            # A card owing a use that alone lets this card go is used.
            paid = owed & ~(1 << over[0]) if len(over) == 1 else owed
            if greedy or not stock_left or not worth_keeping(card):
                return [(((i, DISCARD, card, 0),), kept, paid)]  # a discard that loses nothing
            # Discarded now, with the ones before it kept till the deal; or kept.
            out.append((((i, DISCARD, card, 0),), declined, paid))
            declined |= 1 << card
        empty = [j for j in range(n) if not columns[j]]
        if empty:
            # Only a card over another moves: a lone card's place is the group's.
            last = group() if len(empty) == 1 else 0
            for i in range(n):
                if len(columns[i]) > 1 or (columns[i] and base[i]):
                    out.append((((i, empty[0], columns[i][-1], last),), declined, owed))
        if stock_left:
            g = group()
            items = [columns[j][0] if columns[j] else -1 for j in range(n) if g >> j & 1]
            if len(items) < 2 or max(items) < 0:
                g = 0  # nothing to lay out
            made = 0 if any(not c for c in columns) else 1
            out.append((((-1, DEAL, g, stock_left * 2 + made),), 0, owed | declined))
        out.reverse()  # popped from the end: the first first
        return out

    def owes_in_vain() -> bool:
        """Whether the cards owing a use cannot all be used. A card is used when a lower
        card of its suit goes with it the only higher one showing, and each card that
        goes uses one card at most: so the owing cards of a suit need as many lower
        cards left, each its own (the k-th lowest owing card of a suit needs k cards of
        the suit lower than itself still in play, the owing ones under it among them).

        And a card owing a use must be used in some round (from one deal to the next,
        or to the end once the stock is empty). Within a round nothing is covered, so
        the highest card of its suit showing apart from it only rises till it is used:
        such a card leaves only for a higher one, or as its use (with it the only higher
        one showing). So the card that uses it in a round is the highest other one
        showing at the round's start (now for this round; the highest of the row dealt
        for a later one) or higher, lower than itself, and dealt by then: a round with a
        higher card than it showing, or with no such card, is no round for it. Nor is
        this round if a higher card of its suit lies over it in its column: that one
        shows, and so a higher one than it, before it does. With no round left for it,
        it is never used."""
        rest = owed
        tops = [c[-1] for c in columns if c]
        over = 0  # the cards with a higher one of their suit over them, as bits
        for c in columns:
            above = [-1] * 4  # per suit, the highest card over the one looked at
            for card in reversed(c):
                if above[card // 16] > card:
                    over |= 1 << card
                above[card // 16] = max(above[card // 16], card)
        suit, need = -1, 0
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            need = need + 1 if card // 16 == suit else 1
            suit, rank = card // 16, card % 16
            below = alive[suit] & ((1 << rank) - 1)
            if below.bit_count() < need:
                return True
            ahead = rounds_ahead[stock_left][suit]
            showing = max((t % 16 for t in tops if t // 16 == suit and t != card), default=-1)
            if over >> card & 1:
                showing = 15
            for k, (high, later) in enumerate(ahead):
                least = max(high, showing) if not k else high
                if least < rank and (below & ~later) >> max(least, 0):
                    break
            else:
                return True
        return False

    # Per number of cards left in the stock, the columns it deals an Ace onto, as bits.
    aces_coming = (
        [
            sum(
                1 << row[k % len(row)]
                for k, card in enumerate(reversed(deck[:left]))
                if card % 16 == 14
            )
            for left in range(len(deck) + 1)
        ]
        if row
        else [0] * (len(deck) + 1)
    )

    def stuck() -> bool:
        """Whether the position is lost because no column can ever be empty again.

        While no column is empty nothing moves: the columns only grow by the deals, as
        the stock lies (its *final* layout), and shrink by discards. So till then a
        card none of whose higher cards of its suit will lie in another column (only
        under or over it in its own, which never show with it) is never discarded; the
        cards of a pool may lie in any of its columns, so they count as lying in
        another. A column can be the next to empty only if it holds no Ace (an Ace is
        never discarded, and leaves only for an empty column) and none of those cards.
        With no such column, none ever empties: then the position is lost if a card is
        never discarded, or a card lies under an Ace (it would never show)."""
        if not all(columns):
            return False
        # A card never discarded has its Ace in its own column: so each column must
        # hold an Ace, or have one coming from the stock.
        coming = aces_coming[stock_left]
        for j, c in enumerate(columns):
            if not coming >> j & 1 and not any(card % 16 == 14 for card in c):
                return False
        final = [list(c) for c in columns]
        for k, card in enumerate(reversed(deck)):
            final[row[k % len(row)]].append(card)
        high = [0] * 4  # per suit, the highest rank any pool holds
        for items in pools.values():
            for v in items:
                if v >= 0:
                    high[v // 16] = max(high[v // 16], v % 16)
        # Per suit, the highest rank and the column it lies in, and the best rank
        # lying in any other column than that one.
        best = [(-1, -1, -1)] * 4
        for j, cards in enumerate(final):
            for card in cards:
                suit, rank = card // 16, card % 16
                first, where, second = best[suit]
                if rank > first:
                    best[suit] = (rank, j, first if where != j else second)
                elif where != j and rank > second:
                    best[suit] = (first, where, rank)

        def never(card: int, j: int) -> bool:
            suit, rank = card // 16, card % 16
            if rank == 14 or high[suit] > rank:
                return False
            first, where, second = best[suit]
            return (first if where != j else second) <= rank

        for j, c in enumerate(columns):
            if not any(card % 16 == 14 or never(card, j) for card in c):
                return False  # it may empty
        if any(card % 16 == 14 for c in columns for card in c[1:]):
            return True
        return any(never(card, j) for j, cards in enumerate(final) for card in cards)

    def play(step: Step) -> list[object]:
        nonlocal discarded, stock_left, kept, owed, fixed
        records: list[object] = [(kept, owed, fixed)]
        moves, kept, owed = step
        for column, target, card, extra in moves:
            if target == DISCARD:
                columns[column].pop()
                alive[card // 16] &= ~(1 << card % 16)
                discarded += 1
                records.append(None)
            elif target == DEAL:
                lone = []
                if card:
                    pool = extra >> 1
                    items = []
                    for j in range(n):
                        if card >> j & 1:
                            items.append(columns[j][0] if columns[j] else -1)
                            lone.append((j, columns[j]))
                            columns[j] = []
                            base[j] = pool
                    pools[pool] = sorted(items)
                dealt = []
                for j in row:
                    if deck:
                        columns[j].append(deck.pop())
                        dealt.append(j)
                stock_left = len(deck)
                fixed = 0
                records.append((dealt, lone))
            elif target == RESOLVE:
                pools[extra].remove(card)
                base[column] = 0
                if card >= 0:
                    columns[column].insert(0, card)
                records.append(None)
            else:
                columns[target].append(columns[column].pop())
                if extra:
                    fixed = extra
                records.append(None)
        return records

    def take_back(step: Step, records: list[object]) -> None:
        nonlocal discarded, stock_left, kept, owed, fixed
        for (column, target, card, extra), record in zip(reversed(step[0]), reversed(records[1:])):
            if target == DISCARD:
                columns[column].append(card)
                alive[card // 16] |= 1 << card % 16
                discarded -= 1
            elif target == DEAL:
                assert isinstance(record, tuple)
                dealt, lone = record
                for j in reversed(dealt):
                    deck.append(columns[j].pop())
                stock_left = len(deck)
                for j, cards in lone:
                    columns[j] = cards
                    base[j] = 0
                if card:
                    del pools[extra >> 1]
            elif target == RESOLVE:
                if card >= 0:
                    columns[column].pop(0)
                base[column] = extra
                insort(pools[extra], card)
            else:
                columns[column].append(columns[target].pop())
        old = records[0]
        assert isinstance(old, tuple)
        kept, owed, fixed = old

    seen = {key()}
    path: list[Step] = []
    undo: list[list[object]] = []  # per step taken: what puts it back
    pending = [options()]
    while pending:
        todo = pending[-1]
        if not todo:
            pending.pop()
            if path:
                take_back(path.pop(), undo.pop())
            continue
        step = todo.pop()
        path.append(step)
        undo.append(play(step))
        if won():
            flat = [m for step in path for m in step[0]]
            return "winnable", _solution(*start, row, flat), len(seen), ""
        ahead = options()
        if len(ahead) > 1 and ((owed and owes_in_vain()) or stuck()):
            ahead = []  # lost (the rules of :func:`owes_in_vain` and :func:`stuck`)
        if len(ahead) > 1:
            # Only a position with a choice is stored: one with a single way on (or
            # none) is passed through as part of the step that led to it.
            here = key()
            if here in seen:
                ahead = []  # nothing to try: the next turn takes the move back
            else:
                seen.add(here)
                stored = len(seen)
                if why := over_budget(stored, max_states, deadline, cancel):
                    return "undecided", (), stored, why
        pending.append(ahead)
    return "unwinnable", (), len(seen), ""


def _lay_out(
    free: list[int], now: tuple[int, ...], layout: tuple[int, ...]
) -> list[tuple[int, int]]:
    """The moves that turn the lone cards ``now`` on the columns ``free`` (-1 for an
    empty one, at least one) into ``layout``: each a lone card to an empty column."""
    where = dict(zip(free, now))
    want = dict(zip(free, layout))
    moves = []
    while where != want:
        # An empty column that wants a card gets it, which then stays; if every empty
        # column wants to stay empty, a misplaced card moves into one, and its column
        # (which wants a card) is filled next.
        blanks = [j for j in free if where[j] == -1]
        blank = next((j for j in blanks if want[j] != -1), blanks[0])
        card = want[blank]
        if card == -1:
            source = next(j for j in free if where[j] != want[j])
        else:
            source = next(j for j in free if where[j] == card)
        moves.append((source, blank))
        where[blank], where[source] = where[source], -1
    return moves


def _solution(
    columns: list[list[int]],
    deck: list[int],
    row: list[int],
    flat: list[tuple[int, int, int, int]],
) -> tuple[Move, ...]:
    """The player's moves of a winning search line from the columns and stock (as card
    numbers) it started from, in the forms of the module's docstring.

    The line leaves where the lone cards lay to the moments their places were found
    out: so each pool's cards are laid out where they were found, before the deal that
    made the pool, or, when that group was fixed by the filling of the last empty
    column, before that move (with the card moved sent to the place it was found in).
    A discard names its card, found wherever it lies; a card moved to an empty column
    goes to any one unless that move is where a lay-out is made."""
    n = len(columns)
    # Where each pool's cards were found, and the move before which it is laid out.
    found: dict[int, dict[int, int]] = {}
    lay_outs: dict[int, tuple[int, int]] = {}  # move's index: (pool, group as bits)
    last_fill = -1
    for i, (column, target, card, extra) in enumerate(flat):
        if target >= 0 and extra:
            last_fill = i
        elif target == RESOLVE:
            found.setdefault(extra, {})[column] = card
        elif target == DEAL and card:
            lay_outs[last_fill if extra & 1 else i] = (extra >> 1, card)
    cols = [list(c) for c in columns]
    deck = list(deck)
    out: list[Move] = []

    def move(source: int, target: int) -> None:
        cols[target].append(cols[source].pop())
        out.append(Move(tableau(source), tableau(target)))

    for i, (column, target, card, _) in enumerate(flat):
        if i in lay_outs:
            pool, bits = lay_outs[i]
            free = [j for j in range(n) if bits >> j & 1]
            now = tuple(cols[j][0] if cols[j] else -1 for j in free)
            items = list(now)
            if target >= 0:  # the filling move: its card joins the group
                items.remove(-1)
                items.append(card)
            want = dict(found.get(pool, {}))
            rest = list(items)
            for v in want.values():
                rest.remove(v)
            for j in free:
                if j not in want:
                    want[j] = rest.pop()
            layout = tuple(want[j] for j in free)
            if target >= 0:
                target = free[layout.index(card)]
                layout = tuple(-1 if v == card else v for v in layout)
            for source, blank in _lay_out(free, now, layout):
                move(source, blank)
        elif target >= 0:
            target = next(j for j in range(n) if not cols[j])
        if target == DISCARD:
            source = next(j for j in range(n) if cols[j] and cols[j][-1] == card)
            cols[source].pop()
            out.append(Move(tableau(source), foundation(0)))
        elif target == DEAL:
            for j in row:
                if deck:
                    cols[j].append(deck.pop())
            out.append(DEAL_ROW)
        elif target >= 0:
            assert cols[column][-1] == card
            move(column, target)
    return tuple(out)
