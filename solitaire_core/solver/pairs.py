"""The depth-first search for the pairing games (Pyramid).

In Pyramid (PySolFC game 38, pysollib/games/pyramid.py) two free cards whose ranks add up
to 13 go together to the one discard pile, and a King goes alone
(``foundations.build = "pairs"``, ``Rules.pair_total``). A card is free when it tops an
uncovered column of the layout (``Rules.covered_by``), or is the waste's top card, or
(``stock.top_plays``) the stock's. The stock deals one card to the waste and the waste
is turned over while redeals remain.

Cards only ever leave, so a position is small: the columns' heights (one bit each in
Pyramid, whose columns hold one card), which cards of the talon (the waste and the stock
in the order they are dealt) are gone, how many of the talon's cards have been dealt in
this round, and the redeals used. The waste's top card and the stock's derive from
these: the last card dealt that is not gone, and the first card not yet dealt that is
not gone.

The search is depth-first. Its moves each send cards to the discard pile, the deals and
redeals before them folded in (as :func:`~solitaire_core.solver.stock.expand` folds
them, after Bjarnason, Tadepalli and Fern's K+ representation): from a position, every
place the talon can be turned to by deals and redeals alone is tried, each with the
pairs its top cards make there. Of two positions with the same cards left, the one
whose talon stands earlier (fewer redeals used, or as many and fewer cards dealt)
reaches the other by deals alone, so it is searched and the other is not: a position is
searched again only when reached at an earlier stand than before. A verdict of
"unwinnable" means every position that could still win was searched.

Three rules cut the search without losing a win:

- A free King goes to the discard pile at once, as the only move tried: a position
  without the King offers every move the one with it does (the cards it hid are free
  the sooner, and a deal that would turn the King just skips it).
- Every pair removes one card of each of its two ranks, so the cards left of two ranks
  that pair (a 5 and an 8) must fall into pairs that can both be free at once. Two
  cannot when one lies in the layout under the other (covered by it, or by a card that
  it covers, and so on), nor when both lie in the waste once no redeal is left (only
  its top card is free, and its cards never return to the stock). A position whose
  cards of two such ranks cannot be matched so (a bipartite matching of at most four
  cards a side) is lost.
- A pair taken at a later stand of the talon than the same pair at an earlier one is
  not tried: the earlier one can deal on to it.

The search is thoughtful: it knows the stock's order
(:data:`~solitaire_core.solver.stock.THOUGHTFUL_NOTE`). Its solution is the player's
moves in the core's notation, which :func:`~solitaire_core.rules.apply` plays to a win:
``t22>t28`` (two cards of the layout), ``w>t5`` and ``s>t5`` (the waste's or the
stock's top card with a card of the layout), ``w>s`` (the waste's top card with the
stock's), ``t5>f1``, ``w>f1`` and ``s>f1`` (a King alone), ``s>w`` (a deal) and ``w>s``
once the stock is empty (a redeal).
"""

from __future__ import annotations

from collections.abc import Callable

from ..moves import Move, foundation, stock, tableau, waste
from ..rules import _play, stock_moves
from ..state import GameState
from ..variant import Rules
from .golf import over_budget

# The kinds of move a search line holds, each as (kind, column) with column -1 where
# none is meant (the two columns of a pair of the layout as (PAIR, i * 64 + j)).
PAIR, WASTE_COLUMN, STOCK_COLUMN, WASTE_STOCK = 0, 1, 2, 3
COLUMN_ALONE, WASTE_ALONE, STOCK_ALONE = 4, 5, 6

Child = tuple[int, int, int, int, int, int, int]
"""A move of the search: (deals and redeals first, kind, column, then the position
after it: layout, gone, deal pointer, redeals used)."""


def applies(rules: Rules) -> bool:
    """Whether :func:`search` decides ``rules``'s game: one foundation that takes pairs
    (``foundations.build = "pairs"``: Pyramid, PySolFC game 38), no cells or reserve,
    no face-down cards but those a layout's covering turns up, and a stock (if any) that
    deals one card at a time to a waste (with more at a time, an earlier stand of the
    talon need not reach a later one)."""
    return (
        rules.pair_total > 0
        and rules.foundations == 1
        and rules.cells == 0
        and not rules.has_reserve
        and ((rules.stock_deal == "waste" and rules.draw == 1) or not rules.has_stock)
        and (not any(rules.deal.face_down) or bool(rules.covered_by))
    )


def search(
    state: GameState,
    *,
    max_states: int,
    deadline: float | None,
    cancel: Callable[[], bool] | None,
) -> tuple[str, tuple[Move, ...], int, str]:
    """Search ``state`` of a game :func:`applies` to (PySolFC's Pyramid, game 38).

    :param state: any position of the game (the start of a deal, or one in play).
    :param max_states: the most distinct positions to store (>= 1).
    :param deadline: a :func:`time.monotonic` time to stop at, or ``None``.
    :param cancel: returns True to stop early, or ``None``.
    :return: ``(verdict, moves, positions, reason)`` as
        :func:`solitaire_core.solver.stock.search` returns them: ``"winnable"`` with the
        player's moves of a win (the module's docstring lists their forms),
        ``"unwinnable"`` (every reachable position searched), or ``"undecided"`` with
        ``reason`` ``"state budget"``, ``"time budget"`` or ``"cancelled"``.
    :raises ValueError: when :func:`applies` is false for the state's rules.
    """
    rules = state.rules
    if not applies(rules):
        raise ValueError(f"{rules.name} is not a pairing game this search decides")
    if state.is_won:
        return "winnable", (), 1, ""
    if max_states < 2:  # the start fills the budget: a search would store its first child
        return "undecided", (), 1, "state budget"
    total = rules.pair_total
    columns = [tuple(c.rank for c in col) for col in state.columns]
    n = len(columns)
    over = rules.covered_by or ((),) * n
    # The talon in the order it is dealt: the waste from its bottom card, then the stock
    # from its top card. Cards dealt this round: the first len(waste).
    talon = [c.rank for c in state.waste] + [c.rank for c in reversed(state.stock)]
    size = len(talon)
    full = (1 << size) - 1
    top_plays = rules.stock_top_plays
    redeals = rules.redeals  # < 0: without limit
    limited = redeals >= 0
    rounds0 = state.rounds if limited else 0

    # The columns' heights as one integer, ``bits`` bits each.
    bits = max(max((len(c) for c in columns), default=0), 1).bit_length()
    field = (1 << bits) - 1
    shift = [bits * i for i in range(n)]
    cover = [sum(field << shift[j] for j in over[i]) for i in range(n)]
    layout0 = sum(len(c) << s for c, s in zip(columns, shift))

    # The dead-end test, for a layout of single cards: under[i] the columns column i
    # covers, directly or not; by_rank[r] the columns holding rank r, talon_rank[r] the
    # talon's cards of rank r.
    single = all(len(c) <= 1 for c in columns)
    under = [0] * n
    if single:
        covers = [[j for j in range(n) if i in over[j]] for i in range(n)]
        for i in range(n):
            stack, mask = list(covers[i]), 0
            while stack:
                j = stack.pop()
                if not mask >> j & 1:
                    mask |= 1 << j
                    stack.extend(covers[j])
            under[i] = mask
    by_rank = [0] * 15
    talon_rank = [0] * 15
    for i, col in enumerate(columns):
        if col:
            by_rank[col[0]] |= 1 << i
    for k, rank in enumerate(talon):
        talon_rank[rank] |= 1 << k

    # The rank pairs to match: (rank, the rank it pairs with), each once.
    rank_pairs = [(r, total - r) for r in range(1, 14) if r < total - r <= 13]
    lone = [r for r in range(1, 14) if r != total and not 1 <= total - r <= 13]

    matched: dict[tuple[int, ...], bool] = {}  # the matchings tried, by their cards

    def lost(layout: int, gone: int, stuck: int) -> bool:
        """Whether the cards left cannot all pair (the module's docstring): ``stuck``
        the talon's cards that can never pair with each other (the waste's, once no
        redeal is left)."""
        left = full & ~gone
        for rank in lone:
            if by_rank[rank] & layout or talon_rank[rank] & left:
                return True
        for rank, other in rank_pairs:
            mine, theirs = by_rank[rank] & layout, by_rank[other] & layout
            mine_t, theirs_t = talon_rank[rank] & left, talon_rank[other] & left
            mine_s, theirs_s = mine_t & stuck, theirs_t & stuck
            if not (mine or theirs or mine_s or theirs_s):
                continue  # every pair possible
            count = mine.bit_count() + mine_t.bit_count()
            if count != theirs.bit_count() + theirs_t.bit_count():
                return True
            # The talon's cards that are not stuck pair with any card.
            mine_f, theirs_f = (mine_t ^ mine_s).bit_count(), (theirs_t ^ theirs_s).bit_count()
            if mine_f >= count or theirs_f >= count:
                continue
            key = (rank, mine, theirs, mine_s, theirs_s, mine_f, theirs_f)
            ok = matched.get(key)
            if ok is None:
                ok = _matched(
                    _cards(mine, mine_s, mine_f), _cards(theirs, theirs_s, theirs_f), under
                )
                matched[key] = ok
            if not ok:
                return True
        return False

    def free_columns(layout: int) -> list[int]:
        return [i for i in range(n) if layout >> shift[i] & field and not layout & cover[i]]

    def children(layout: int, gone: int, dealt: int, used: int) -> list[Child]:
        """The moves from a position, each as (deals and redeals first, kind, column, the
        position after it), in the order to try them: at most one per position reached,
        the one at the talon's earliest stand."""
        frees = free_columns(layout)
        partners: dict[int, list[int]] = {}  # a rank: the free columns it pairs with
        out: list[Child] = []
        for i in frees:
            rank = columns[i][(layout >> shift[i] & field) - 1]
            if rank == total:  # a free King alone, the only move tried
                return [(0, COLUMN_ALONE, i, layout - (1 << shift[i]), gone, dealt, used)]
            for j in partners.get(rank, ()):
                after = layout - (1 << shift[i]) - (1 << shift[j])
                out.append((0, PAIR, j * 64 + i, after, gone, dealt, used))
            partners.setdefault(total - rank, []).append(i)
        made: set[tuple[int, int]] = set()
        left = full & ~gone
        steps, d, r = 0, dealt, used
        turned = False
        while True:  # each stand the talon can be turned to, the earliest first
            low_bits = (1 << d) - 1
            below, above = left & low_bits, left & ~low_bits
            w = below.bit_length() - 1 if below else -1  # the waste's top card
            s = (above & -above).bit_length() - 1 if above and top_plays else -1
            for k, kind, alone in ((w, WASTE_COLUMN, WASTE_ALONE), (s, STOCK_COLUMN, STOCK_ALONE)):
                if k < 0:
                    continue
                g = gone | 1 << k
                d2 = (left & ~(1 << k) & low_bits).bit_length()
                if talon[k] == total:
                    if not steps:  # a King on top now: the only move tried
                        return [(0, alone, -1, layout, g, d2, r)]
                    if (layout, g) not in made:
                        made.add((layout, g))
                        out.append((steps, alone, -1, layout, g, d2, r))
                    continue
                for i in partners.get(talon[k], ()):
                    after = layout - (1 << shift[i])
                    if (after, g) not in made:
                        made.add((after, g))
                        out.append((steps, kind, i, after, g, d2, r))
            if w >= 0 and s >= 0 and talon[w] + talon[s] == total:
                g = gone | 1 << w | 1 << s
                if (layout, g) not in made:
                    made.add((layout, g))
                    d2 = (left & ~(1 << w) & low_bits).bit_length()
                    out.append((steps, WASTE_STOCK, -1, layout, g, d2, r))
            # On to the next stand: a deal, or a redeal once the stock is empty.
            if above:
                d = (above & -above).bit_length()
            elif left and (not limited or r < redeals):
                d = 0
                r += limited
                turned = True
            else:
                break
            steps += 1
            if not limited and turned and d >= dealt:
                break  # without a limit the talon comes round to here again
        return out

    # A position's stand: the redeals used and the deal pointer as one number; a lower
    # one reaches every higher one by deals and redeals alone, so a position reached
    # again at a stand no lower than before is not searched again.
    def stand(dealt: int, used: int) -> int:
        return used * (size + 1) + dealt if limited else 0

    def stuck_of(gone: int, dealt: int, used: int) -> int:
        """The waste's cards once no redeal is left: two of them never pair."""
        if not limited or used < redeals:
            return 0
        return full & ~gone & ((1 << dealt) - 1)

    best = {(layout0, 0): stand(len(state.waste), rounds0)}
    expanded = 1
    if single and lost(layout0, 0, stuck_of(0, len(state.waste), rounds0)):
        return "unwinnable", (), 1, ""
    # Each frame: the moves still to try from a position; path: the moves taken.
    first = children(layout0, 0, len(state.waste), rounds0)
    first.reverse()  # popped from the end: tried in the order children gives
    pending = [first]
    path: list[tuple[int, int, int]] = []
    while pending:
        todo = pending[-1]
        if not todo:
            pending.pop()
            if path:
                path.pop()
            continue
        steps, kind, column, layout, gone, dealt, used = todo.pop()
        path.append((steps, kind, column))
        if not layout and gone == full:
            return "winnable", _moves(state, path), expanded, ""
        here = stand(dealt, used)
        known = best.get((layout, gone))
        if known is not None and known <= here:
            pending.append([])  # nothing to try: the next turn takes the move back
            continue
        best[layout, gone] = here
        expanded += 1
        if why := over_budget(expanded, max_states, deadline, cancel):
            return "undecided", (), expanded, why
        if single and lost(layout, gone, stuck_of(gone, dealt, used)):
            pending.append([])
            continue
        todo = children(layout, gone, dealt, used)
        todo.reverse()
        pending.append(todo)
    return "unwinnable", (), expanded, ""


def _cards(layout: int, stuck: int, others: int) -> list[tuple[int, int]]:
    """Cards of one rank as ``(0, column)`` for the layout's, ``(1, index)`` for the
    talon's that are stuck, and ``(2, n)`` for ``others`` more of the talon's."""
    out = [(2, k) for k in range(others)]
    for kind, mask in ((0, layout), (1, stuck)):
        while mask:
            low = mask & -mask
            mask ^= low
            out.append((kind, low.bit_length() - 1))
    return out


def _matched(mine: list[tuple[int, int]], theirs: list[tuple[int, int]], under: list[int]) -> bool:
    """Whether every card of ``mine`` can pair with its own card of ``theirs`` (a
    perfect matching, :func:`_cards` giving the cards), two cards pairing unless one lies
    under the other in the layout (``under``) or both are stuck in the talon."""
    if len(mine) != len(theirs):
        return False

    def fits(a: tuple[int, int], b: tuple[int, int]) -> bool:
        if a[0] != b[0] or a[0] == 2:
            return True
        if a[0] == 0:
            return not (under[a[1]] >> b[1] & 1 or under[b[1]] >> a[1] & 1)
        return False  # both stuck in the waste

    partner: dict[int, int] = {}  # index in theirs: index in mine

    def place(i: int, tried: set[int]) -> bool:
        for j, b in enumerate(theirs):
            if j in tried or not fits(mine[i], b):
                continue
            tried.add(j)
            if j not in partner or place(partner[j], tried):
                partner[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(mine)))


def _moves(state: GameState, path: list[tuple[int, int, int]]) -> tuple[Move, ...]:
    """The player's moves of a search line from ``state``: each step's deals and
    redeals (the stock's one move, :func:`~solitaire_core.rules.stock_moves`), then its
    move (the module's docstring gives their forms)."""
    out: list[Move] = []
    for steps, kind, column in path:
        for _ in range(steps):
            deal = stock_moves(state)[0]
            out.append(deal)
            state = _play(state, deal)
        if kind == PAIR:
            move = Move(tableau(column // 64), tableau(column % 64))
        elif kind == WASTE_COLUMN:
            move = Move(waste(), tableau(column))
        elif kind == STOCK_COLUMN:
            move = Move(stock(), tableau(column))
        elif kind == COLUMN_ALONE:
            move = Move(tableau(column), foundation(0))
        elif kind == WASTE_ALONE:
            move = Move(waste(), foundation(0))
        elif kind == STOCK_ALONE:
            move = Move(stock(), foundation(0))
        else:  # WASTE_STOCK: the waste's top card with the stock's
            move = Move(waste(), stock())
        out.append(move)
        state = _play(state, move)
    return tuple(out)
