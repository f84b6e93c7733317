"""Hypothesis strategies for solitaire values: deal numbers, moves, small positions.

Importing this module imports Hypothesis; the pytest plugin only does so when the kit runs.
"""

from __future__ import annotations

import attrs
from hypothesis import strategies as st

from ..cards import KING, SUITS, Card
from ..deal import MAX_DEAL
from ..moves import Move, PileKind, PileRef
from ..state import GameState
from ..variant import Rules

SMALL_POSITION_CARDS = 8
"""Default size of :func:`small_positions`: cards left off the foundations."""


def deal_numbers() -> st.SearchStrategy[int]:
    """Deal numbers from both of PySolFC's generators: Microsoft's (1..32000) and the
    Mersenne Twister (32001 .. 10**20 - 1)."""
    return st.one_of(st.integers(1, 32000), st.integers(32001, MAX_DEAL))


def pile_refs(rules: Rules, *, numbered: bool = True) -> st.SearchStrategy[PileRef]:
    """Any pile reference, including numbers one past the last pile (which the rules must
    refuse) and, unless ``numbered``, unnumbered cell and foundation references."""
    sizes = {PileKind.TABLEAU: rules.columns, PileKind.CELL: rules.cells,
             PileKind.FOUNDATION: rules.foundations}  # fmt: skip
    options = [
        st.builds(PileRef, st.just(kind), st.integers(0, size)) for kind, size in sizes.items()
    ]
    if not numbered:
        options.append(st.sampled_from([PileRef(PileKind.CELL), PileRef(PileKind.FOUNDATION)]))
    return st.one_of(options)


def any_moves(rules: Rules) -> st.SearchStrategy[Move]:
    """Moves between any two piles with any small card count: mostly illegal, sometimes
    legal, some naming piles that do not exist."""
    counts = st.one_of(st.integers(1, 3), st.integers(1, 20))
    return st.builds(Move, pile_refs(rules), pile_refs(rules, numbered=False), counts)


def foundation_pile(rules: Rules, index: int, height: int) -> tuple[Card, ...]:
    """Foundation ``index`` built Ace to ``height``: suit ``SUITS[index % 4]`` from deck
    ``index // 4`` (so the foundations of a full game hold every card once)."""
    suit, deck = SUITS[index % 4], index // 4
    return tuple(Card(rank, suit, deck) for rank in range(1, height + 1))


@st.composite
def small_positions(
    draw: st.DrawFn, rules: Rules, max_cards: int = SMALL_POSITION_CARDS
) -> GameState:
    """A position near the end of a game: every foundation built up from the Ace, and the
    highest few cards of each suit (at most ``max_cards`` in all, Kings included) spread at
    random over the cells and some of the columns (often only a few, so space is short).

    Every card of the variant's decks is present exactly once, so such a position can be
    won, and its play space is small enough to search exhaustively.
    """
    left = draw(
        st.lists(
            st.one_of(st.integers(0, 3), st.integers(0, KING)),
            min_size=rules.foundations,
            max_size=rules.foundations,
        )
    )
    budget = max_cards
    for i, n in enumerate(left):  # cap the total, front to back
        left[i] = min(n, budget)
        budget -= left[i]
    heights = [KING - n for n in left]
    loose: list[Card] = []
    for index, height in enumerate(heights):
        suit, deck = SUITS[index % 4], index // 4
        loose += [Card(rank, suit, deck) for rank in range(height + 1, KING + 1)]
    loose = list(draw(st.permutations(loose)))
    # Often crowd the cards into a few columns, so that space is short and the order of
    # moves matters (with every column open almost any position is won).
    used = draw(st.one_of(st.integers(1, min(3, rules.columns)), st.integers(1, rules.columns)))
    slots = used + rules.cells
    columns: list[list[Card]] = [[] for _ in range(rules.columns)]
    cells: list[Card | None] = [None] * rules.cells
    for card in loose:
        slot = draw(st.integers(0, slots - 1))
        if slot >= used and cells[slot - used] is None:
            cells[slot - used] = card
        else:
            columns[slot % used].append(card)
    return GameState(
        rules=rules,
        columns=tuple(tuple(c) for c in columns),
        cells=tuple(cells),
        foundations=tuple(foundation_pile(rules, i, h) for i, h in enumerate(heights)),
    )


@st.composite
def reduced_board_positions(
    draw: st.DrawFn, rules: Rules, max_cards: int = SMALL_POSITION_CARDS
) -> GameState:
    """A :func:`small_positions` end game on a reduced board: the variant's rules (build,
    empty columns, move limit, foundations) with only 1 to 4 columns and 0 to 2 cells.

    Space is then short, so the order of moves matters and some positions are lost; the
    whole play space stays small enough to search exhaustively.
    """
    columns = draw(st.integers(1, min(4, rules.columns)), label="columns")
    cells = draw(st.integers(0, min(2, rules.cells)), label="cells")
    board = attrs.evolve(rules, columns=columns, cells=cells)
    return draw(small_positions(board, max_cards))
