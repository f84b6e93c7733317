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
was searched (in the Klondike games, every one reachable without the moves
:func:`prunes_splits` shows to lose no win). Where :func:`narrowed` says so, a
narrowed search with part of the budget comes first, to find a win sooner. A position
with a card that can never move (:func:`frozen_cards`) is lost without a search.
docs/solver.md, "Games with hidden cards", gives the figures.
"""

from __future__ import annotations

import heapq
import itertools
import time
import weakref
from collections.abc import Callable, Iterator

from ..cards import Card, card_code
from ..moves import Move, PileKind, cell, foundation, tableau
from ..rules import (
    DEAL_ROW,
    RESERVE,
    STOCK,
    WASTE,
    _build_table,
    _play,
    _wanting,
    autoplay_moves,
    canonical_key,
    column_run,
    legal_moves,
    pile_accepts,
    stock_moves,
)
from ..session import play_resolved
from ..state import GameState
from ..variant import BASE_FIRST_PLAYED, FoundationPile, Rules
from .native import IMPORT_ERROR, _csolver

THOUGHTFUL_NOTE = "thoughtful: the solver knows the face-down cards and the stock's order"
"""The note every stock-game result carries (:attr:`SolveResult.note`)."""


def _score(state: GameState) -> int:
    """Higher is closer to a win: cards up first, then face-down cards turned, then
    cards out of the stock and waste and into the columns.

    Where the foundations take only complete suits (the Spider games) a card goes up
    only with its whole suit, so the score counts what leads there instead: each face-up
    card lying on the next higher card of its suit (10), each empty column (15), and
    each card still in the stock (5: a row dealt covers every column, so it waits until
    the columns are in order). These weights took the compiled search from none of
    Spiderette's deals 1-10 won at 300,000 positions to seven (with the narrowed search,
    :func:`narrowed`); docs/solver.md, "Games with hidden cards", gives the figures."""
    score = (
        40 * state.foundation_cards
        - 12 * state.face_down_cards
        - 2 * len(state.waste)
        - 20 * len(state.reserve)
    )
    empty = sum(1 for col in state.columns if not col)
    if state.rules.complete_suits:
        return score + 10 * _suited(state) + 15 * empty + 5 * len(state.stock)
    return score - 2 * len(state.stock) + 2 * empty


def _suited(state: GameState) -> int:
    """How many face-up cards of ``state``'s columns lie on the next higher card of
    their own suit (also face up)."""
    hidden = state.hidden or (0,) * len(state.columns)
    return sum(
        1
        for col, down in zip(state.columns, hidden)
        for below, card in zip(col[down:], col[down + 1 :])
        if below.suit == card.suit and below.rank == card.rank + 1
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


def expand(
    state: GameState, policy: str, narrow: bool = False, returns: bool = False
) -> Iterator[tuple[tuple[Move, ...], GameState]]:
    """The search's moves from ``state``: each a line of player moves and the position
    after it (autoplay included). ``narrow``: without the moves :func:`_split_in_vain`
    names (the first search's moves, :func:`narrowed`, and the full one's where
    :func:`prunes_splits`); ``returns``: without the cards taken back from the
    foundations that :func:`_return_in_vain` names (where :func:`prunes_returns`), and
    each card taken back offered only in the blocks of :func:`_blocks` that start with it.

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
    # Per foundation pile and kind of target: whether its top card comes back in vain.
    vain: dict[tuple[int | None, PileKind], bool] = {}
    for move in legal_moves(state):
        if narrow and _split_in_vain(state, move):
            continue
        if returns and move.source.kind is PileKind.FOUNDATION:
            key = (move.source.index, move.target.kind)
            if key not in vain:  # the same answer for every column the card could go to
                vain[key] = _return_in_vain(state, move)
            if vain[key]:
                continue
            if move.target.kind is PileKind.TABLEAU:
                block = _blocks(state, move, policy, narrow, fold)
                if block is not None:
                    yield from block
                    continue
        turns_waste = PileKind.STOCK in (move.source.kind, move.target.kind)
        if not (fold and turns_waste):
            yield (move,), play_resolved(state, move, policy)[0]
    if fold:
        yield from _chain(state, policy)


BLOCK_STATES = 64
"""The most positions one block of cards taken back may pass through (:func:`_blocks`);
past it, the first card taken back is a move of its own."""
BLOCK_LINES = 256
"""The most lines one block of cards taken back may end in (:func:`_blocks`); past it,
the first card taken back is a move of its own."""


def _blocks(
    state: GameState, first: Move, policy: str, narrow: bool, fold: bool
) -> list[tuple[tuple[Move, ...], GameState]] | None:
    """The lines :func:`expand` offers for ``first``, a card taken back from a foundation
    onto a column (where :func:`prunes_returns` holds): each takes further cards back
    (each kept by :func:`_return_in_vain`), then makes one move that puts a card on the
    one card then left *wanting*, with the position after it (autoplay included).

    A card taken back is left wanting until a card is put on it or the card under it in
    its suit is taken back too; docs/solver.md, "Cards taken back in blocks", shows that
    a winning line may take its cards back in such blocks, each just before the move
    that covers the last of them. The positions inside a block are not stored.

    :return: the lines, in the order the moves come (``legal_moves``' order, each card
        taken back followed at once by what may follow it, then the stock's chain of
        :func:`_chain`); ``None`` where the block would pass through more than
        :data:`BLOCK_STATES` positions or end in more than :data:`BLOCK_LINES` lines:
        :func:`expand` then offers ``first`` alone, as a move like any other, which
        loses nothing (the lines above all pass through it)."""
    seen: set[object] = set()
    lines: list[tuple[tuple[Move, ...], GameState]] = []

    def walk(position: GameState, line: tuple[Move, ...], pending: frozenset[Card]) -> bool:
        # False: the block is too large.
        vain: dict[int | None, bool] = {}
        for move in legal_moves(position):
            if move.target.kind is not PileKind.TABLEAU or move.source.kind is PileKind.STOCK:
                continue
            if narrow and _split_in_vain(position, move):
                continue
            column = position.columns[move.target.index or 0]
            onto = column[-1] if column else None
            if move.source.kind is PileKind.FOUNDATION:
                index = move.source.index
                if index not in vain:
                    vain[index] = _return_in_vain(position, move)
                if vain[index]:
                    continue
                card = position.foundations[index or 0][-1]
                above = Card(card.rank + 1, card.suit) if card.rank < 13 else None
                left = (pending - {onto, above}) | {card}
                after = play_resolved(position, move, policy)[0]
                key = (after.columns, left)
                if key in seen:
                    continue
                if len(seen) >= BLOCK_STATES:
                    return False
                seen.add(key)
                if not walk(after, (*line, move), left):
                    return False
            elif onto is not None and pending == {onto}:
                if len(lines) >= BLOCK_LINES:
                    return False
                lines.append(((*line, move), play_resolved(position, move, policy)[0]))
        if fold and len(pending) == 1:
            (wanting,) = pending
            for chain, after in _chain(position, policy):
                last = chain[-1]
                if last.source.kind is PileKind.WASTE and last.target.kind is PileKind.TABLEAU:
                    column = position.columns[last.target.index or 0]
                    if column and column[-1] == wanting:
                        if len(lines) >= BLOCK_LINES:
                            return False
                        lines.append(((*line, *chain), after))
        return True

    after = play_resolved(state, first, policy)[0]
    pending = frozenset({state.foundations[first.source.index or 0][-1]})
    seen.add((after.columns, pending))
    return lines if walk(after, (first,), pending) else None


def _chain(state: GameState, policy: str) -> Iterator[tuple[tuple[Move, ...], GameState]]:
    """The stock's lines from ``state`` (:func:`expand`'s K+ chain)."""
    rules = state.rules
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
        # The first deal is a move like any other: the session autoplays the whole table
        # after it (a card just taken back from a foundation may go up again). After it
        # only the stock and the waste change, so autoplay can only take the new top card
        # of the waste: ask it only then.
        first = len(chain) == 1
        current = _play(current, deals[0])
        if first or (current.waste and _home(current, current.waste[-1]) is not None):
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


NARROW_SHARE = 4
"""The first, narrowed search (:func:`narrowed`) may store up to this fraction (1 /
``NARROW_SHARE``) of the budget; the full search has what it leaves. Where the
foundations take only complete suits, or a run moves whole, it may store three times
as much (:func:`narrow_budget`)."""


def narrow_budget(rules: Rules, max_states: int) -> int:
    """The positions the narrowed search may store of a budget of ``max_states``: three
    quarters where the foundations take only complete suits (the Spider games) or any
    run may move whole (``tableau.move_limit = "unlimited"``: the Klondike family, Yukon), a
    quarter (:data:`NARROW_SHARE`) otherwise.

    Where it has three quarters, the narrowed search finds wins the full one does not
    find in the same budget. With the whole of 3,000,000 positions it won 7 of the 10
    Spiderette deals of 1-50 left undecided at 1,000,000 with a quarter. Of the first 30
    deals left undecided at 1,000,000 with a quarter, three quarters won 8 in Klondike
    and 4 in Klondike Draw 3. The full search keeps enough to prove most losses: of the
    Klondike Draw 3 deals of 1-1,000 proved lost in more than a quarter of its budget,
    6 of 7 still are. Where a card moves alone or with the whole column (Canfield's
    "one-or-all", Forty Thieves' one card at a time), the narrowed moves leave out taking
    a card off a run, most of the game: with three quarters it won 1 more of Canfield's
    30 and lost 29 of the 40 wins its full search had found past a quarter, so there the
    narrowed search keeps a quarter."""
    wide = rules.complete_suits or rules.move_limit == "unlimited"
    return max_states * (3 if wide else 1) // NARROW_SHARE


def narrowed(rules: Rules) -> bool:
    """Whether :func:`search` first tries the narrowed search on ``rules``'s game: one
    whose runs move as built runs and whose stock deals onto a waste (the Klondike
    family, Canfield, Forty Thieves) or whose foundations take only complete suits (the
    Spider games); or one where any face-up card moves with the cards on it and the
    build rule treats some cards alike (Yukon and Double Yukon, building in alternate
    colours; not Russian Solitaire, Alaska or Scorpion, which build in suit).

    That search leaves out moving part of a run from column to column unless the card
    it uncovers can go straight to a foundation (:func:`_split_in_vain`); with complete
    suits it never moves part of a run. Where the build rule treats some cards alike
    (:func:`build_classes`: the nines of one colour in Klondike, every nine in Spider) it
    stores positions under :func:`blind_key`, which tells such cards apart by nothing
    (Solvitaire's "suit symmetry" streamliner, Blake and Gent 2019). A win it finds is a
    win (every move is legal and the line is replayed), and it finds many in a fraction
    of the positions; that it finds none proves nothing, so the full search follows.

    Yukon deals 1-100 at a million positions: 91 won, the same 3 proved lost, in 36 s
    of CPU, against 81 won in 91 s without it (with the blind key alone, 88 in 91 s).
    The games that build in suit gain nothing there (the key treats no two cards alike):
    Russian Solitaire and Scorpion keep their verdicts at about the same count, and
    Alaska, building up or down in suit, spends the narrowed share of the budget before
    the wins its full search finds at once."""
    if rules.face_up_runs:
        return _keyed_blind(rules)
    return rules.complete_suits or (rules.stock_deal == "waste" and not rules.stock_top_plays)


_CLASSES: weakref.WeakKeyDictionary[Rules, dict[Card, int]] = weakref.WeakKeyDictionary()


def build_classes(rules: Rules) -> dict[Card, int]:
    """Each of ``rules``'s cards with its class under the build rule: two cards share a
    class when they lie on the same cards and take the same cards (``tableau.build``).
    Where the columns build in alternate colours the nine of hearts and the nine of
    diamonds share one; regardless of suit, every nine; in suit, a card shares its class
    only with its twin of a second deck. A class is numbered by the first of its cards in
    the order of ``rules.cards``. Worked out from the build rule on every pair of
    cards, so a plugin's rule counts too; made once per :class:`Rules`."""
    classes = _CLASSES.get(rules)
    if classes is None:
        cards = rules.cards
        first: dict[tuple[tuple[bool, ...], tuple[bool, ...]], int] = {}
        classes = {}
        for n, card in enumerate(cards):
            lies_on = tuple(rules.build(card, onto) for onto in cards)
            takes = tuple(rules.build(other, card) for other in cards)
            classes[card] = first.setdefault((lies_on, takes), n)
        _CLASSES[rules] = classes
    return classes


def _keyed_blind(rules: Rules) -> bool:
    """Whether the narrowed search stores positions under :func:`blind_key`: where
    :func:`build_classes` puts some cards together (the Klondike and Spider games, not
    those that build in suit)."""
    classes = build_classes(rules)
    return not rules.covered_by and len(set(classes.values())) < len(set(rules.cards))


def blind_key(state: GameState) -> tuple[object, ...]:
    """:func:`~solitaire_core.rules.canonical_key` of ``state`` with the columns' cards
    given by their class under the build rule (:func:`build_classes`): positions that
    differ only in which of two alike cards lies where in the columns share a key. The
    narrowed search's key where :func:`_keyed_blind`: it may pass over a position that
    wins, never store one that does not exist, so a win it finds is a win and its "no
    win" proves nothing (the full search follows)."""
    return canonical_key(state, build_classes(state.rules).__getitem__)


def _split_in_vain(state: GameState, move: Move) -> bool:
    """Whether ``move`` moves part of a run (not all the face-up cards) from column to
    column, and the card it uncovers cannot go to a foundation; with complete suits,
    whether it moves part of the column's run at all; where any face-up card moves with
    the cards on it (Yukon), whether it takes a card off one it builds on, and the card
    it uncovers cannot go to a foundation (a card lying on one it does not build on may
    always move: that sorts the column). The moves the narrowed search leaves out."""
    if move.source.kind is not PileKind.TABLEAU or move.target.kind is not PileKind.TABLEAU:
        return False
    i = move.source.index or 0
    column = state.columns[i]
    count = move.count or 1
    rules = state.rules
    if rules.complete_suits:
        return count < column_run(state, i)
    face_up = len(column) - (state.hidden[i] if state.hidden else 0)
    if count >= face_up:
        return False
    under = column[-count - 1]
    if rules.face_up_runs and not rules.build(column[-count], under):
        return False
    return _home(state, under) is None


_PRUNES: weakref.WeakKeyDictionary[Rules, bool] = weakref.WeakKeyDictionary()


def _splits_are_swaps(rules: Rules) -> bool:
    """What :func:`prunes_splits` asks of ``rules`` itself (made once per
    :class:`Rules`): the Klondike family's shape, and a build rule under which a card
    lies on the cards of one class only (:func:`build_classes`), always one rank lower
    (or always higher) without wrapping."""
    made = _PRUNES.get(rules)
    if made is None:
        table = _build_table(rules)
        classes = build_classes(rules)
        steps = {onto.rank - card.rank for card, ontos in table.items() for onto in ontos}
        made = (
            rules.decks == 1
            and rules.move_limit == "unlimited"
            and not rules.face_up_runs
            and not rules.complete_suits
            and not rules.foundation_runs
            and rules.cells == 0
            and not rules.has_reserve
            and not rules.tableau_wrap
            and not (rules.covered_by or rules.pair_total or rules.win_cards)
            and not rules.base_first_played
            and (not rules.has_stock or rules.stock_deal == "waste")
            and not rules.stock_top_plays
            and all(rules.run(a, b) == rules.build(a, b) for a in rules.cards for b in rules.cards)
            and all(len({classes[o] for o in ontos}) <= 1 for ontos in table.values())
            and (steps <= {1} or steps <= {-1})
        )
        _PRUNES[rules] = made
    return made


def prunes_splits(state: GameState, policy: str) -> bool:
    """Whether the full search from ``state`` may leave out the moves
    :func:`_split_in_vain` names (part of a run moved from column to column while the
    card it uncovers cannot go up) without losing a win: the Klondike games (one deck,
    runs moving whole, Kings alone filling an empty column, a stock dealing onto a
    waste, no cells or reserve) with autoplay ``"safe"`` or ``"off"``, from a position
    whose columns' face-up cards all form runs, as every Klondike position does.

    Such a move takes a run off one card and puts it on the card's twin (the one other
    card it may lie on: the nine of the other red suit), so it changes nothing but which
    of the two holds the run; a line that needs the other one holding it can move the
    run across when it does, except to send the uncovered card up, which stays allowed.
    docs/solver.md, "Part of a run moved to its twin", gives the argument; Solvitaire
    applies the same rule in its Klondike presets (``partial-if-card-above-buildable``,
    Blake and Gent 2019). Not for Yukon, where a column's face-up cards need not form
    runs: there a card's twin may lie in the cards moving onto it (a won Yukon end game
    is called lost with the rule: tests/test_split_dominance.py).

    :param state: the position the search starts from.
    :param policy: the autoplay policy searched with (``"off"``, ``"safe"``, ``"all"``).
    :return: ``True`` where the full search leaves those moves out. Raises nothing."""
    rules = state.rules
    if policy not in ("safe", "off") or not _splits_are_swaps(rules):
        return False
    empty_ok = rules.empty_accepts_for(state.bases)
    table = _build_table(rules)
    if any(empty_ok(c) and table[c] for c in rules.cards):
        return False  # a card leaving a twin could go to an empty column instead
    hidden = state.hidden or (0,) * len(state.columns)
    return all(
        rules.run(upper, lower)
        for col, down in zip(state.columns, hidden)
        for lower, upper in zip(col[down:], col[down + 1 :])
    )


_RETURNS: weakref.WeakKeyDictionary[Rules, dict[Card, frozenset[Card]] | None] = (
    weakref.WeakKeyDictionary()
)


def _lying_on(rules: Rules) -> dict[Card, frozenset[Card]] | None:
    """What :func:`prunes_returns` asks of ``rules`` itself (made once per
    :class:`Rules`): for each card, the cards that may lie on it (``rules.build``), where
    the game has the shape the argument needs; ``None`` where it has not. The shape: one
    deck of 52 cards, four foundations built up in suit from the Ace (without wrapping)
    that cards may come back from, a build rule under which a card lies only on cards
    one rank higher, and nothing besides the columns to hold a card: no cells, no
    reserve, no pairs, a stock (if any) dealing onto a waste (a row dealt onto the
    columns would cover a card taken back with any card)."""
    if rules in _RETURNS:
        return _RETURNS[rules]
    table = _build_table(rules)
    made: dict[Card, frozenset[Card]] | None = None
    if (
        rules.foundation_return
        and rules.decks == 1
        and len(rules.cards) == 52
        and rules.standard_foundations
        and not rules.foundation_runs
        and rules.cells == 0
        and not rules.has_reserve
        and not (rules.covered_by or rules.pair_total or rules.win_cards)
        and not rules.base_first_played
        and (not rules.has_stock or rules.stock_deal == "waste")
        and not rules.stock_top_plays
        and all(onto.rank == card.rank + 1 for card, ontos in table.items() for onto in ontos)
    ):
        lying: dict[Card, set[Card]] = {card: set() for card in rules.cards}
        for card, ontos in table.items():
            for onto in ontos:
                lying[onto].add(card)
        made = {card: frozenset(cards) for card, cards in lying.items()}
    _RETURNS[rules] = made
    return made


def prunes_returns(state: GameState, policy: str) -> bool:
    """Whether the searches from ``state`` may leave out the cards taken back from a
    foundation that :func:`_return_in_vain` names without losing a win: games where
    cards come back from the foundations (``foundations.return_to_play``) with the shape
    :func:`_lying_on` asks (the Klondike games, Whitehead, Thumb and Pouch, Saratoga,
    Small Harp; not Yukon, whose cards stay up), searched with autoplay ``"safe"`` or
    ``"off"``.

    A card taken back is of use only as a place for another card, or to let the card
    under it come back too; docs/solver.md, "Cards taken back from the foundations",
    gives the argument that a winning line may always take a card back just before the
    move that covers it (or that card's own chain of cards taken back), which is what
    :func:`_return_in_vain` asks for, and in blocks that end with that move
    (:func:`_blocks`).

    :param state: the position the search starts from.
    :param policy: the autoplay policy searched with (``"off"``, ``"safe"``, ``"all"``).
    :return: ``True`` where the searches leave those moves out. Raises nothing."""
    return policy in ("safe", "off") and _lying_on(state.rules) is not None


def _return_in_vain(state: GameState, move: Move) -> bool:
    """Whether ``move`` takes a card back from a foundation that no move could then
    cover, directly or through further cards taken back: from the card, walking to the
    cards that may lie on it and to the card under it in its suit, through cards on the
    foundations only, no card is reached that a card in play and face up (on a column,
    in the stock or in the waste) may lie on. The moves :func:`prunes_returns` lets the
    searches leave out (``False`` for any other move, and where the rules lack the
    shape of :func:`_lying_on`)."""
    if move.source.kind is not PileKind.FOUNDATION or move.target.kind is not PileKind.TABLEAU:
        return False
    lying = _lying_on(state.rules)
    if lying is None:
        return False
    pile = state.foundations[move.source.index or 0]
    card = pile[-1]
    up = {c for f in state.foundations for c in f}
    up.discard(card)
    hidden = state.hidden or (0,) * len(state.columns)
    down = {c for col, n in zip(state.columns, hidden) for c in col[:n]}
    seen = {card}
    todo = [card]
    while todo:
        low = todo.pop()
        if any(other not in up and other not in down for other in lying[low]):
            return False
        steps = set(lying[low])
        if low.rank > 1:
            steps.add(Card(low.rank - 1, low.suit))
        for other in steps & up:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return True


def freezes(rules: Rules) -> bool:
    """Whether :func:`frozen_cards` tests ``rules``'s positions: one deck, four
    foundations built up in suit from one base rank or taking complete suits from the Ace
    (the piles of :func:`native_unsupported`), no cells, no reserve that takes cards, no
    overlapping columns, pairs or partial wins. There a column card leaves its column
    only for a foundation, for a column, or on top of a card that moves, which is what
    the test's argument rests on."""
    return (
        rules.decks == 1
        and len(rules.cards) == 52
        and _four_suit_piles(rules)
        and (not rules.complete_suits or rules.foundation_piles[0].standard)
        and rules.cells == 0
        and not rules.reserve_takes_runs
        and not (rules.covered_by or rules.pair_total)
        and not (rules.base_first_played or rules.win_cards)
    )


def waste_fixed(state: GameState) -> bool:
    """Whether ``state``'s waste keeps its order for the rest of the game: the stock
    deals onto it and no redeal is left (Vegas Klondike from its start; a game with a
    limited number of redeals once they are used). Its cards then leave it only from
    the top, one at a time, and the stock's cards can only be dealt onto them."""
    rules = state.rules
    return rules.stock_deal == "waste" and 0 <= rules.redeals <= state.rounds


def freezes_waste(rules: Rules) -> bool:
    """Whether the stock searches ask :func:`frozen_cards` of every position they store
    where the waste keeps its order (:func:`waste_fixed`): where :func:`freezes` and the
    stock deals onto a waste that may be turned over a limited number of times (Vegas
    Klondike: never)."""
    return freezes(rules) and rules.stock_deal == "waste" and rules.redeals >= 0


def frozen_cards(state: GameState) -> frozenset[Card]:
    """Cards of ``state``'s columns (and of its waste, where :func:`waste_fixed`) that
    can never move, so that the position is lost (empty when the test finds none, or
    does not apply: :func:`freezes`, or a base rank the position does not say).

    The greatest set S of column and waste cards such that for each card X of S:

    * X cannot start an empty column (``tableau.empty``);
    * a card of X's suit lower than X on the foundations (counted from the base rank)
      lies under a card of S in its column or waste (X under itself counts);
    * every card X may be built on (``tableau.build``) lies under a card of S;
    * in a column, every face-up card under X is in S (none could carry X away).

    Sound: suppose some card of S moves, take the first move that moves one, and X the
    lowest card of S it moves. Until then no card of S has moved, so the cards under
    each still lie there, covered. X heads the move: a card under it that moved too
    would be face up, so in S, and lower. So X goes to a foundation or a column. Not
    onto a column card it builds on, all of them covered, nor to an empty column. Not
    to a foundation alone or at the head of a run, which needs its lower cards up
    first, one of them covered. Nor as the King under a complete suit (Spider): the
    covered lower card would lie in that suit's run under a card of S of a lower rank
    still, whose own lower card would, and so on down to the Ace, which has none. A
    card that never leaves its column (or the waste) is never won, so no line from the
    position wins. Cards in the stock, the reserve and on the foundations count as free,
    whatever it costs to reach them; so do the waste's while a redeal may still turn it
    over.

    A waste that keeps its order (:func:`waste_fixed`) is one more pile of the test: its
    cards leave from the top one at a time, so X leaves it alone, and what comes onto it
    (the stock's cards, dealt) only covers the cards under X more. The argument above
    holds for it word for word: not to a foundation, its lower card lying under it; not
    onto a card it builds on, all covered; not to an empty column. There the test finds
    lost positions all through a search, not only at its start: asked of every position
    stored where the waste keeps its order, it took Vegas Klondike deal 8's proof of loss
    from 44,309 positions to 288 (docs/solver.md, "Cards that can never move").

    :func:`explore` asks it of the position a search starts from, for both engines: a
    frozen deal is lost in one position; and both engines ask it of every position they
    store where the waste keeps its order (:func:`freezes_waste`), which is then stored
    but not searched further. Asked of every position stored where the waste is still
    turned over, it found none in searches of Klondike Draw 3, Yukon and Scorpion deals
    that did not start so, and the searches took 9% to 30% more time (docs/solver.md,
    "Cards that can never move", gives the argument, an example and the figures)."""
    rules = state.rules
    if not freezes(rules):
        return frozenset()
    base = 1 if rules.complete_suits else _base(state)
    if base is None:
        return frozenset()
    empty_ok = rules.empty_accepts_for(state.bases)
    ontos = _build_table(rules)
    where: dict[Card, tuple[int, int]] = {}
    stuck: set[Card] = set()
    for i, col in enumerate(state.columns):
        for j, card in enumerate(col):
            where[card] = (i, j)
            if not empty_ok(card):
                stuck.add(card)
    hidden = state.hidden or (0,) * len(state.columns)
    # the waste, where it keeps its order, as one more pile after the columns
    waste = len(state.columns) if state.waste and waste_fixed(state) else -1
    if waste >= 0:
        for j, card in enumerate(state.waste):
            where[card] = (waste, j)
            if not empty_ok(card):
                stuck.add(card)

    def order(card: Card) -> int:
        return (card.rank - base) % 13

    while stuck:
        top = [-1] * (len(state.columns) + 1)
        for card in stuck:
            i, j = where[card]
            top[i] = max(top[i], j)
        buried = {c for c, (i, j) in where.items() if j < top[i]}
        keep = set()
        for card in stuck:
            i, j = where[card]
            if (
                any(c.suit is card.suit and order(c) < order(card) for c in buried)
                and all(onto in buried for onto in ontos.get(card, ()))
                and (i == waste or all(state.columns[i][k] in stuck for k in range(hidden[i], j)))
            ):
                keep.add(card)
        if keep == stuck:
            break
        stuck = keep
    return frozenset(stuck)


def frozen_reason(frozen: frozenset[Card]) -> str:
    """Why a position with the cards ``frozen`` (:func:`frozen_cards`, not empty) is
    lost, in words for the player: ``"Q♦ and Q♥ can never move"``."""
    labels = [card.label for card in sorted(frozen, key=card_code)]
    named = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
    return f"{named} can never move"


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
    engine: str | None = None,
) -> tuple[str, tuple[Move, ...], int, str]:
    """Search from ``state`` as it is: a session's state (autoplayed after every move but
    one that took a card back from a foundation), not autoplayed again here.

    :param engine: ``"python"``: this module's search, the reference; ``"c"``: the
        compiled search of ``_csolver.c`` (:exc:`ValueError` where
        :func:`native_unsupported` names a reason); ``None`` or ``"auto"``: the compiled
        one where it is built and supports the game, else this module's. Both store the
        same positions in the same order, so they return the same verdict and count.

    :param policy: the autoplay policy to play with (``"off"``, ``"safe"``, ``"all"``).
    :param max_states: the most distinct positions to store (>= 1).
    :param deadline: a :func:`time.monotonic` time to stop at, or ``None``.
    :param cancel: returns True to stop early, or ``None``.
    :param progress: called every 2,000 positions with the number stored, the narrowed
        first search's included (the count only rises).
    :return: ``(verdict, moves, positions, reason)``: verdict ``"winnable"`` (``moves``
        the player's moves of a win), ``"unwinnable"`` (every reachable position
        searched), or ``"undecided"`` with ``reason`` ``"state budget"``, ``"time
        budget"`` or ``"cancelled"``.
    """
    verdict, moves, positions, reason, _, _ = explore(
        state,
        policy=policy,
        max_states=max_states,
        deadline=deadline,
        cancel=cancel,
        progress=progress,
        engine=engine,
    )
    return verdict, moves, positions, reason


def start_score(state: GameState) -> int:
    """The score (:func:`_score`) of ``state``, the start :func:`explore`'s
    ``best_score`` is measured against."""
    return _score(state)


Found = tuple[str, tuple[Move, ...], int, str, int, tuple[Move, ...]]
"""What :func:`explore` returns: ``(verdict, moves, positions, reason, best_score,
best_line)``."""


def explore(
    state: GameState,
    *,
    policy: str,
    max_states: int,
    deadline: float | None = None,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
    engine: str | None = None,
) -> Found:
    """:func:`search`, which also says how far the search got: the first four values are
    :func:`search`'s; ``best_score`` is the highest score (:func:`_score`) of a position
    it stored, and ``best_line`` the player's moves from ``state`` to the
    first position stored with that score (``()`` where none scored higher than the
    start; after a win, the best before the winning position was found). Where no win is
    found within the budget, that line is the search's best guess at progress: the
    honest hint (:mod:`~solitaire_core.solver.honest`) votes with it. Both engines store
    the same positions in the same order, so they give the same line.

    :raises ValueError: as :func:`search`.
    """
    # The position as the player has it: a session's state is autoplayed already, but for
    # a card just taken back from a foundation, which autoplay leaves where the player put
    # it. Autoplayed again here, it went up, the lines started from a position the player
    # did not have, and their first move could be illegal there ("f3>t7: f3 is empty"
    # after the player had played f3>t7).
    start = state
    if start.is_won:
        return "winnable", (), 1, "", _score(start), ()
    use_c = False
    if engine != "python":
        why = native_unsupported(state.rules, policy) or _position_unsupported(start)
        use_c = not why
        if why and engine == "c":
            raise ValueError(f"the compiled stock search cannot search this game: {why}")
    run = _search_c if use_c else _search_python
    frozen = frozen_cards(start)  # lost as it lies (docs/solver.md, "Cards that can never move")
    if frozen:
        return "unwinnable", (), 1, frozen_reason(frozen), _score(start), ()
    if max_states < 2:  # the start fills the budget: a search would store its first child
        return "undecided", (), 1, "state budget", _score(start), ()
    spent = 0
    best: tuple[int, tuple[Move, ...]] = (_score(start), ())
    returns = prunes_returns(start, policy)
    if narrowed(start.rules) and max_states >= 2 * NARROW_SHARE:
        verdict, moves, spent, reason, score, line = run(
            start,
            policy,
            narrow_budget(start.rules, max_states),
            deadline,
            cancel,
            progress,
            True,
            True,
            returns,
        )
        best = (score, line)
        if verdict == "winnable" or reason not in ("", "state budget"):
            return verdict, moves, spent, reason, *best
    if progress is not None and spent:
        counted = progress
        progress = lambda stored: counted(spent + stored)  # noqa: E731 - the whole count
    prune = prunes_splits(start, policy)
    verdict, moves, positions, reason, score, line = run(
        start, policy, max_states - spent, deadline, cancel, progress, False, prune, returns
    )
    if score > best[0]:  # the narrowed search's among equals: it came first
        best = (score, line)
    return verdict, moves, spent + positions, reason, *best


def _search_python(
    start: GameState,
    policy: str,
    max_states: int,
    deadline: float | None,
    cancel: Callable[[], bool] | None,
    progress: Callable[[int], None] | None,
    narrow: bool,
    splits: bool,
    returns: bool,
) -> Found:
    """One best-first search of :func:`explore` from ``start`` (as the player has it, not won), in
    Python; ``narrow``: with the narrowed key (:func:`narrowed`); ``splits``: without the
    moves :func:`_split_in_vain` names (the narrowed search, and the full one where
    :func:`prunes_splits`); ``returns``: without those :func:`_return_in_vain` names
    (where :func:`prunes_returns`)."""
    parents: dict[object, tuple[object, tuple[Move, ...]] | None] = {}
    key_of = blind_key if narrow and _keyed_blind(start.rules) else canonical_key
    start_key = key_of(start)
    parents[start_key] = None
    tick = itertools.count()
    best_score, best_key = _score(start), start_key
    heap: list[tuple[int, int, GameState, object]] = [(-best_score, 0, start, start_key)]

    def found(verdict: str, reason: str = "") -> Found:
        moves = _line(parents, child) if verdict == "winnable" else ()
        return verdict, moves, len(parents), reason, best_score, _line(parents, best_key)

    child = start_key
    freeze = freezes_waste(start.rules)
    while heap:
        _, _, position, key = heapq.heappop(heap)
        for line, after in expand(position, policy, splits, returns):
            child = key_of(after)
            if child in parents:
                continue
            parents[child] = (key, line)
            if after.is_won:
                return found("winnable")
            stored = len(parents)
            if stored >= max_states:
                return found("undecided", "state budget")
            if stored % 500 == 0:
                if deadline is not None and time.monotonic() > deadline:
                    return found("undecided", "time budget")
                if cancel is not None and cancel():
                    return found("undecided", "cancelled")
                if progress is not None and stored % 2000 == 0:
                    progress(stored)
            if freeze and waste_fixed(after) and frozen_cards(after):
                continue  # lost as it lies: stored, never searched from
            score = _score(after)
            if score > best_score:
                best_score, best_key = score, child
            heapq.heappush(heap, (-score, -next(tick), after, child))
    return found("unwinnable")


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


def native_unsupported(rules: Rules, policy: str = "safe") -> str:
    """Why the compiled search cannot search ``rules``'s game with autoplay ``policy``
    (a sentence), or ``""`` when it can. It knows the Klondike, Yukon and Canfield
    families and the Spider, Gypsy and Forty Thieves games: one deck of 52 cards or two
    of 104, at most 10 columns with face-down cards or a stock and no cells, four
    foundations a deck built up in suit from one base rank (the Ace, or a rank the deal
    sets, wrapping from the King to the Ace: Canfield, PySolFC game 105) or taking
    complete suits only (Spiderette, Scorpion, Spider: PySolFC games 24, 29 and 10), runs
    moving as a whole (or any face-up card with the cards on it, as in Yukon, Russian
    Solitaire and Scorpion; one card or the whole column, as in Canfield; or one card at
    a time, as in Forty Thieves, PySolFC game 13), a stock dealing onto a waste, turned
    over without limit or at most twice, or in rows onto the columns, or no stock at all,
    and a reserve of at most 13 cards whose top card plays (filling an emptied column at
    once, or not)."""
    if _csolver is None:
        return IMPORT_ERROR or "the C extension is not available"
    if not hasattr(_csolver, "stock_search"):
        return "the C extension is older than this module: rebuild it"
    checks = (
        (
            rules.decks in (1, 2) and len(rules.cards) == 52 * rules.decks,
            "it plays other than one or two whole decks",
        ),
        (
            _four_suit_piles(rules, rules.decks),
            "its foundations are not four piles a deck built up in suit from one base rank",
        ),
        (
            not (rules.foundation_runs and not rules.standard_foundations),
            "runs go up to foundations that do not start at the Ace",
        ),
        (
            not rules.complete_suits
            or (rules.foundation_piles[0].standard and not rules.foundation_return),
            "its complete suits go up from a base other than the Ace, or come back",
        ),
        (rules.hidden_cards, "it deals no face-down cards"),
        (
            not rules.has_stock
            or (rules.stock_deal == "waste" and not rules.stock_top_plays)
            or rules.stock_deal == "row",
            "its stock deals neither onto a waste nor in rows",
        ),
        (rules.redeals <= 2, "it turns the waste over more than twice but not without limit"),
        (rules.cells == 0, "it has cells"),
        (
            not rules.reserve_takes_runs and rules.reserve_cards <= 13,
            "its reserve takes cards or holds more than 13",
        ),
        (
            not (rules.covered_by or rules.pair_total),
            "its columns overlap, or cards go up in pairs",
        ),
        (
            not (rules.base_first_played or rules.win_cards),
            "its foundations or win are not classic",
        ),
        (
            rules.move_limit in ("unlimited", "one-or-all", "one") or rules.face_up_runs,
            "it limits the runs that move by its cells or empty columns",
        ),
        (1 <= len(rules.deal.columns) <= 10, "it deals more than 10 columns"),
        (policy in ("off", "safe", "all"), f"autoplay {policy!r} is unknown"),
    )
    for ok, why in checks:
        if not ok:
            return why
    return ""


def _four_suit_piles(rules: Rules, decks: int = 1) -> bool:
    """Whether ``rules`` has four foundations a deck (``decks``: 1 or 2) built up in suit
    from one base rank (:func:`_one_suit_up`): for one deck, the piles both the compiled
    search and :func:`frozen_cards` know; for two, the compiled search."""
    piles = rules.foundation_piles
    return (
        rules.foundations == 4 * decks
        and all(map(_one_suit_up, piles))
        and len({p.base for p in piles}) == 1
    )


def _one_suit_up(pile: FoundationPile) -> bool:
    """Whether the compiled search models foundation ``pile``: built up in suit, 13
    cards, from the Ace or from a base rank that wraps from the King to the Ace."""
    return (
        pile.build == "up-in-suit"
        and pile.cards == 13
        and not pile.nothing_on_king
        and pile.base != BASE_FIRST_PLAYED
        and (pile.standard or pile.wrap)
    )


def _base(state: GameState) -> int | None:
    """The one base rank of ``state``'s foundations (1 to 13), or ``None`` where the
    piles start from different ranks or the position does not say which (a hand-made
    position of a game whose deal sets the base, without :attr:`GameState.bases`)."""
    try:
        bases = {state.base_rank(j) for j in range(state.rules.foundations)}
    except ValueError:
        return None
    base = bases.pop() if len(bases) == 1 else None
    return base if isinstance(base, int) and 1 <= base <= 13 else None


def _position_unsupported(state: GameState) -> str:
    """Why the compiled search cannot hold ``state`` of a game it supports (a hand-made
    position: a card outside the rules' deck or twice, foundations that are not runs up
    in suit from one base rank, a column longer than it holds, a reserve of more than 13
    cards), or ``""``."""
    index = _card_indexes(state.rules)
    piles = (*state.columns, state.stock, state.waste, state.reserve, *state.foundations)
    held = [c for pile in piles for c in pile]
    if not all(c in index for c in held):
        return "the position holds a card outside the rules' deck"
    if len(set(held)) != len(held):
        return "the position holds a card twice"
    base = _base(state)
    if base is None:
        return "the foundations do not start from one known base rank"
    for f in state.foundations:
        if any(c.rank != (base - 1 + k) % 13 + 1 or c.suit != f[0].suit for k, c in enumerate(f)):
            return "a foundation is not a run up in suit from the base rank"
    if any(len(col) > 26 for col in state.columns):
        return "a column is longer than the compiled search holds (26 cards)"
    if len(state.reserve) > 13:
        return "the reserve holds more than 13 cards"
    return ""


def _card_indexes(rules: Rules) -> dict[Card, int]:
    """Each card's index in the compiled search: slot * 13 + rank - 1, where the slots are
    the rules' (deck, suit) pairs in the order of ``rules.cards`` (one deck: suit * 13 +
    rank - 1; two: deck * 52 + suit * 13 + rank - 1; Spider with one suit: the eight
    copies of the spades)."""
    return _tables(rules)[0]


_TABLES: weakref.WeakKeyDictionary[
    Rules, tuple[dict[Card, int], bytes, bytes, tuple[bytes, ...], bytes]
]
_TABLES = weakref.WeakKeyDictionary()


def _tables(rules: Rules) -> tuple[dict[Card, int], bytes, bytes, tuple[bytes, ...], bytes]:
    """The compiled search's tables of ``rules`` (made once per :class:`Rules`): the card
    indexes, the build and run tables (52 x 52 a deck, 104 x 104 for two: whether the
    first card may lie on the second) and for each card the indexes of the cards safe
    autoplay counts as wanting it (:func:`~solitaire_core.rules._wanting`), and each
    slot's suit (numbered in the order the suits first appear in ``rules.cards``)."""
    made = _TABLES.get(rules)
    if made is None:
        suits: list[object] = []
        slots: list[tuple[int, object]] = []
        for c in rules.cards:
            if c.suit not in suits:
                suits.append(c.suit)
            if (c.deck, c.suit) not in slots:
                slots.append((c.deck, c.suit))
        index = {c: slots.index((c.deck, c.suit)) * 13 + c.rank - 1 for c in rules.cards}
        cards = sorted(index, key=index.__getitem__)
        n = len(cards)
        build, run = bytearray(n * n), bytearray(n * n)
        for card, ontos in _build_table(rules).items():
            for onto in ontos:
                build[index[card] * n + index[onto]] = 1
        for a in cards:
            for b in cards:
                if rules.run(a, b):
                    run[index[a] * n + index[b]] = 1
        wanting = _wanting(rules)
        wants = tuple(bytes(index[o] for o in wanting.get(c, ())) for c in cards)
        made = (index, bytes(build), bytes(run), wants, bytes(suits.index(s) for _, s in slots))
        _TABLES[rules] = made
    return made


def _search_c(
    start: GameState,
    policy: str,
    max_states: int,
    deadline: float | None,
    cancel: Callable[[], bool] | None,
    progress: Callable[[int], None] | None,
    narrow: bool,
    splits: bool,
    returns: bool,
) -> Found:
    """:func:`_search_python` in C: the rules compiled into tables over card indexes
    (:func:`_card_indexes`) and the win line turned into the core's moves."""
    rules = start.rules
    index, build, run, wanting, slot_suits = _tables(rules)
    cards = sorted(index, key=index.__getitem__)
    empty_ok = rules.empty_accepts_for(start.bases)
    hidden = start.hidden or (0,) * len(start.columns)
    timeout = -1.0 if deadline is None else max(deadline - time.monotonic(), 0.0)
    assert _csolver is not None
    verdict, line, positions, reason, best_line, best_score = _csolver.stock_search(
        tuple(bytes(index[c] for c in col) for col in start.columns),
        bytes(hidden),
        bytes(index[c] for c in start.stock),
        bytes(index[c] for c in start.waste),
        tuple(bytes(index[c] for c in f) for f in start.foundations),
        start.rounds,
        rules.draw,
        rules.redeals,
        build,
        run,
        bytes(1 if empty_ok(c) else 0 for c in cards),
        wanting,
        rules.face_up_runs,
        rules.foundation_runs,
        rules.foundation_return,
        ("off", "safe", "all").index(policy),
        max_states,
        timeout,
        cancel,
        progress,
        splits,
        bytes(index[c] for c in start.reserve),
        _base(start) or 1,
        rules.move_limit == "one-or-all",
        rules.reserve_fills_empty,
        bytes(rules.row_columns) if rules.stock_deal == "row" else b"",
        rules.row_onto_empty,
        rules.complete_suits,
        bytes(build_classes(rules)[c] for c in cards) if narrow and _keyed_blind(rules) else b"",
        rules.move_limit == "one",
        slot_suits,
        freezes_waste(rules) and _base(start) is not None,
        returns,
    )
    moves = tuple(_c_move(*m) for m in line)
    return verdict, moves, positions, reason, best_score, tuple(_c_move(*m) for m in best_line)


def _c_move(sk: int, si: int, dk: int, di: int, count: int) -> Move:
    """The core's move of one move of a compiled line (kinds: 0 column, 1 foundation,
    2 waste, 3 stock, 4 reserve; from the stock to a column: a row dealt)."""
    if sk == 3 and dk == 0:
        return DEAL_ROW

    def ref(kind: int, i: int) -> object:
        if kind < 2:
            return {0: tableau, 1: foundation}[kind](i)
        return {2: WASTE, 3: STOCK, 4: RESERVE}[kind]

    return Move(ref(sk, si), ref(dk, di), count)  # type: ignore[arg-type]
