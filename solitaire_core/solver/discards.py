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
  *owes a use*: it is not discarded, and a position where it can no longer pay (no
  lower card of its suit left; or, the stock empty, a higher one showing) is not
  searched on. A line that keeps a card and discards it later without that use wins
  no less with the card discarded at once.
- A card is discarded at once, as the only move tried, when no lower card of its suit
  is left, and once the stock is empty: then it can never be wanted.
- Lone cards (alone on a column) trade places at will while a column is empty, and
  where they lie matters only at the deal or when the last empty column fills, so a
  position records which lone cards there are, not where (while a column is empty and
  the stock still deals); each of those two moves is tried once for each way to lay
  the lone cards out first. Once the stock is empty the columns are sorted.

Every discard made as soon as it may be finds most wins in few positions, so a first
search with only those lines takes a quarter of the budget (:data:`GREEDY_SHARE`); a
win it finds is a win, but its "no win" proves nothing, and the full search follows.

The search is thoughtful: it knows the stock's order
(:data:`~solitaire_core.solver.stock.THOUGHTFUL_NOTE`). Its solution is the player's
moves, which :func:`~solitaire_core.rules.apply` plays to a win: ``t2>f1`` (a
discard), ``t2>t4`` (a card to an empty column), ``s>t`` (a row).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..cards import ACE, Card, Suit
from ..moves import Move, foundation, tableau
from ..rules import DEAL_ROW
from ..state import GameState
from ..variant import Rules
from .golf import interrupted

# A move: (column, target) with target -1 for a discard and -2 for the deal (column -1
# then), else the empty column the card goes to. A step of the search is one move or a
# few (the lone cards laid out, then the deal).
DISCARD, DEAL = -1, -2
Step = tuple[tuple[tuple[int, int], ...], int, int]
"""A step of the search: its moves, then (as bits of card numbers) the cards kept till
the next deal and the cards owing a use after it."""


def applies(rules: Rules) -> bool:
    """Whether :func:`search` decides ``rules``'s game: one discard pile that takes a
    card outranked in its suit (``foundations.build = "outranked-in-suit"``: Aces Up,
    PySolFC game 903), no cells, reserve, face-down cards or building on the columns,
    single cards moved, an empty column taking any card, and a stock (if any) that
    deals a row onto the columns, empty ones too."""
    return (
        rules.foundations == 1
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
) -> tuple[str, tuple[Move, ...], int, str]:
    """Search ``state`` of a game :func:`applies` to (PySolFC's Aces Up, game 903), any
    position of it, within ``max_states`` positions (>= 1, both searches of the
    module's docstring together), until ``deadline`` (:func:`time.monotonic`) or
    ``cancel()`` (either ``None``: never).

    :return: ``(verdict, moves, positions, reason)`` as
        :func:`solitaire_core.solver.golf.search` returns them, a win's moves in the
        forms of the module's docstring.
    :raises ValueError: when :func:`applies` is false for the state's rules.
    """
    rules = state.rules
    if not applies(rules):
        raise ValueError(f"{rules.name} is not a discard game this search decides")
    if state.is_won:
        return "winnable", (), 1, ""
    # First every card discarded as soon as it may be: a win found so is a win.
    quick = max(1, max_states // GREEDY_SHARE)
    verdict, moves, spent, reason = _search(state, quick, deadline, cancel, greedy=True)
    if verdict == "winnable" or reason in ("time budget", "cancelled") or spent >= max_states:
        return verdict, moves, spent, reason
    verdict, moves, more, reason = _search(state, max_states - spent, deadline, cancel)
    return verdict, moves, spent + more, reason


GREEDY_SHARE = 4
"""The share of the budget the first search, with every discard made at once, takes
(a quarter): it finds most wins in far fewer positions, but its "no win" proves
nothing, as a card kept may be the only one above another later."""


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
    no such line wins."""
    rules = state.rules
    # Each card as suit * 16 + its rank, Aces high (14): a card outranks another of its
    # suit when its number is greater and the suits agree (the same number // 16).
    suits = {suit: k for k, suit in enumerate(Suit)}

    def number(card: Card) -> int:
        return suits[card.suit] * 16 + (14 if card.rank == ACE else card.rank)

    columns = [[number(c) for c in col] for col in state.columns]
    deck = [number(c) for c in state.stock]
    n = len(columns)
    row = [i for i in rules.row_columns if i < n] if rules.stock_deal == "row" else []
    to_discard = rules.win_cards or rules.card_count
    discarded = len(state.foundations[0])
    single = rules.win_single_cards
    stock_left = len(deck)
    # Per suit, the ranks still in play (columns and stock) as bits.
    alive = [0] * 4
    for card in deck + [c for col in columns for c in col]:
        alive[card // 16] |= 1 << card % 16
    kept = 0  # the cards not to be discarded before the next deal, as bits
    owed = 0  # the cards kept through a deal and not yet used since, as bits

    def key() -> tuple[object, ...]:
        if not stock_left:
            return (0, tuple(sorted(tuple(c) for c in columns)))
        if any(not c for c in columns):
            # Lone cards can trade places through an empty column at will, so only
            # which lone cards there are counts until the deal (when ``deals`` places
            # them).
            fixed = tuple(tuple(c) if len(c) > 1 else () for c in columns)
            lone = tuple(sorted(c[0] for c in columns if len(c) == 1))
            return (stock_left, kept, owed, fixed, lone)
        return (stock_left, kept, owed, tuple(tuple(c) for c in columns))

    def won() -> bool:
        return discarded >= to_discard and (not single or all(len(c) == 1 for c in columns))

    def layouts() -> list[tuple[list[int], list[tuple[int, int]]]]:
        """Each way to lay the lone cards out on the columns that hold one card or none
        (at least one of them empty), the layout as it is first: the columns left
        empty, and the moves that lay them out (a lone card at a time to an empty
        column)."""
        free = [j for j in range(n) if len(columns[j]) <= 1]
        now = tuple(columns[j][0] if columns[j] else -1 for j in free)
        out = []
        for layout in [now, *sorted(set(itertools.permutations(now)) - {now})]:
            blanks = [j for j, card in zip(free, layout) if card == -1]
            out.append((blanks, _lay_out(free, now, layout)))
        return out

    def deals(declined: int) -> list[Step]:
        """The deal, once for each way to lay the lone cards out before it."""
        after = (0, owed | declined)
        if all(columns) or not any(len(c) == 1 for c in columns):
            return [(((-1, DEAL),), *after)]
        return [((*moves, (-1, DEAL)), *after) for _, moves in layouts()]

    def to_empty(declined: int) -> list[Step]:
        """The moves of a card to an empty column (its first: the lone cards trade
        places at will while one is empty). A move that fills the last one fixes where
        the lone cards lie till the next deal, so then each way to lay them out first."""
        empty = [j for j in range(n) if not columns[j]]
        sources = [i for i in range(n) if len(columns[i]) > 1]
        if not empty or not sources:
            return []
        if len(empty) > 1 or not stock_left or not any(len(c) == 1 for c in columns):
            return [(((i, empty[0]),), declined, owed) for i in sources]
        return [
            ((*moves, (i, blanks[0])), declined, owed)
            for i in sources
            for blanks, moves in layouts()
        ]

    def options() -> list[Step]:
        """The moves from here, in the order to try them (the module's docstring)."""
        tops = [c[-1] if c else -1 for c in columns]
        out: list[Step] = []
        declined = kept
        for i, card in enumerate(tops):
            if card < 0 or card % 16 == 14:
                continue
            suit = card // 16
            over = [t for j, t in enumerate(tops) if j != i and t // 16 == suit and t > card]
            if owed >> card & 1:
                if over and not stock_left:
                    return []  # it can never be the only card above another: lost
                continue
            if not over or kept >> card & 1:
                continue
            # A card owing a use that alone lets this card go is used.
            paid = owed & ~(1 << over[0]) if len(over) == 1 else owed
            if greedy or not stock_left or not alive[suit] & ((1 << card % 16) - 1):
                return [(((i, DISCARD),), kept, paid)]  # a discard that loses nothing
            # Discarded now, with the ones before it kept till the deal; or kept.
            out.append((((i, DISCARD),), declined, paid))
            declined |= 1 << card
        out.extend(to_empty(declined))
        if stock_left:
            out.extend(deals(declined))
        out.reverse()  # popped from the end: the first first
        return out

    def owes_in_vain() -> bool:
        """Whether a card owing a use can never be used: no lower card of its suit is
        left, or the stock is empty and a higher one shows (it shows till it goes, and
        then only for a higher one still)."""
        rest = owed
        tops = [c[-1] for c in columns if c] if not stock_left else []
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            if not alive[card // 16] & ((1 << card % 16) - 1):
                return True
            if any(t // 16 == card // 16 and t > card for t in tops):
                return True
        return False

    def play(step: Step) -> list[object]:
        nonlocal discarded, stock_left, kept, owed
        records: list[object] = [(kept, owed)]
        moves, kept, owed = step
        for column, target in moves:
            if target == DISCARD:
                card = columns[column].pop()
                alive[card // 16] &= ~(1 << card % 16)
                discarded += 1
                records.append(card)
            elif target == DEAL:
                dealt = []
                for j in row:
                    if deck:
                        columns[j].append(deck.pop())
                        dealt.append(j)
                stock_left = len(deck)
                records.append(dealt)
            else:
                columns[target].append(columns[column].pop())
                records.append(None)
        return records

    def take_back(step: Step, records: list[object]) -> None:
        nonlocal discarded, stock_left, kept, owed
        for (column, target), record in zip(reversed(step[0]), reversed(records[1:])):
            if target == DISCARD:
                assert isinstance(record, int)
                columns[column].append(record)
                alive[record // 16] |= 1 << record % 16
                discarded -= 1
            elif target == DEAL:
                assert isinstance(record, list)
                for j in reversed(record):
                    deck.append(columns[j].pop())
                stock_left = len(deck)
            else:
                columns[column].append(columns[target].pop())
        old = records[0]
        assert isinstance(old, tuple)
        kept, owed = old

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
            return "winnable", _moves(path), len(seen), ""
        here = key()
        if here in seen:
            pending.append([])  # nothing to try: the next turn takes the move back
            continue
        seen.add(here)
        stored = len(seen)
        if stored >= max_states:
            return "undecided", (), stored, "state budget"
        if stored % 4096 == 0 and (why := interrupted(deadline, cancel)):
            return "undecided", (), stored, why
        pending.append([] if owed and owes_in_vain() else options())
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


def _moves(path: list[Step]) -> tuple[Move, ...]:
    """The player's moves of a search line (the module's docstring gives their forms)."""
    out = []
    for step in path:
        for column, target in step[0]:
            if target == DISCARD:
                out.append(Move(tableau(column), foundation(0)))
            elif target == DEAL:
                out.append(DEAL_ROW)
            else:
                out.append(Move(tableau(column), tableau(target)))
    return tuple(out)
