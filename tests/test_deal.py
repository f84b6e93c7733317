"""Deal numbers: the same layout every time, and PySolFC's (and Microsoft's) layouts.

The reference layouts come from the ``pysol_cards`` package's own dealers (PySolFC's
game-number generator: Microsoft FreeCell's below 32001, a Mersenne Twister above), and
FreeCell deal #1 is also written out literally as Microsoft FreeCell shows it.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from solitaire_core.cards import Card, full_deck
from solitaire_core.deal import MAX_DEAL, check_deal_number, deal, lay_out
from solitaire_core.errors import SolitaireError
from solitaire_core.plugins import get_registry, get_variant
from solitaire_core.state import GameState

NUMBERS = [
    1,
    2,
    3,
    11,
    617,
    1941,
    11982,
    24000,
    31999,
    32000,
    32001,
    32002,
    50000,
    123456,
    10**6 + 7,
    2**31 + 5,
    10**12 + 1,
    MAX_DEAL,
]
"""Deal numbers compared with pysol_cards: both generators, and the edges between them."""

BUILTIN_VARIANTS = sorted(
    v for v, d in get_registry().variants.items() if d.plugin == "solitaire_variants"
)


def pysol_layout(game_id: str, number: int) -> tuple[list[str], list[str]]:
    """pysol_cards' layout of a game: (one text line per column, freecell line tokens)."""
    text = Game(game_id, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    columns, cells = [], []
    for line in text.splitlines():
        if line.startswith("Freecells:"):
            cells = line.split()[1:]
        else:
            columns.append(line)
    return columns, cells


def our_layout(state: GameState) -> tuple[list[str], list[str]]:
    """Our layout in the same shape; trailing free cells are dropped like pysol_cards does."""
    columns = [" ".join(str(c) for c in col) for col in state.columns]
    cells = [str(c) if c else "-" for c in state.cells]
    while cells and cells[-1] == "-":
        cells.pop()
    return columns, cells


@pytest.mark.parametrize(
    ("variant_id", "game_id"),
    [
        ("seahaven", "seahaven"),
        ("sea-towers", "seahaven"),
        ("relaxed-seahaven", "relaxed_seahaven"),
        ("freecell", "freecell"),
        ("bakers-game", "bakers_game"),
        ("eight-off", "eight_off"),
    ],
)
@pytest.mark.parametrize("number", NUMBERS)
def test_deal_equals_pysolfc(variant_id: str, game_id: str, number: int) -> None:
    state = deal(get_variant(variant_id).resolve(), number)
    theirs_columns, theirs_cells = pysol_layout(game_id, number)
    ours_columns, ours_cells = our_layout(state)
    assert ours_columns == theirs_columns
    # Eight Off: pysol_cards prints every cell, empty ones as "-"; Seahaven: the first
    # (empty) cell, then the two dealt ones.
    while theirs_cells and theirs_cells[-1] == "-":
        theirs_cells.pop()
    assert ours_cells == theirs_cells


@pytest.mark.parametrize("number", range(1, 41))
def test_seahaven_many_deals_equal_pysolfc(number: int) -> None:
    state = deal(get_variant("seahaven").resolve(), number * 997)
    assert our_layout(state) == pysol_layout("seahaven", number * 997)


def test_freecell_deal_1_is_microsofts() -> None:
    # Microsoft FreeCell game #1, dealt in rows of eight (as the game shows it).
    published = """
        JD 2D 9H JC 5D 7H 7C 5H
        KD KC 9S 5S AD QC KH 3H
        2S KS 9D QD JS AS AH 3C
        4C 5C TS QH 4H AC 4D 7S
        3S TD 4S TH 8H 2C JH 7D
        6D 8S 8D QS 6C 3D 8C TC
        6S 9C 2H 6H
    """
    rows = [line.split() for line in published.split("\n") if line.strip()]
    state = deal(get_variant("freecell").resolve(), 1)
    ours = [
        [str(col[r]) for col in state.columns if r < len(col)]
        for r in range(max(map(len, state.columns)))
    ]
    assert ours == rows


def test_seahaven_deal_puts_two_cards_in_the_middle_cells() -> None:
    state = deal(get_variant("seahaven").resolve(), 1)
    assert [c is not None for c in state.cells] == [False, True, True, False]
    assert [len(c) for c in state.columns] == [5] * 10


@pytest.mark.parametrize("variant_id", BUILTIN_VARIANTS)
def test_every_deal_places_every_card_exactly_once(variant_id: str) -> None:
    rules = get_variant(variant_id).resolve()
    for number in (1, 32001, 99999):
        state = deal(rules, number)
        assert Counter(state.all_cards()) == Counter(full_deck(rules.decks))
        assert state.foundation_cards == 0
        assert [len(c) for c in state.columns] == list(rules.deal.columns)
        dealt_cells = [i for i, c in enumerate(state.cells) if c is not None]
        assert dealt_cells == sorted(rules.deal.cells)


@pytest.mark.parametrize("variant_id", BUILTIN_VARIANTS)
def test_same_number_same_layout_different_numbers_differ(variant_id: str) -> None:
    rules = get_variant(variant_id).resolve()
    assert deal(rules, 7).to_text() == deal(rules, 7).to_text()
    assert deal(rules, 7).to_text() != deal(rules, 8).to_text()


def test_double_sea_towers_deals_11_columns_of_9_and_the_middle_five_cells() -> None:
    state = deal(get_variant("double-sea-towers").resolve(), 5)
    assert [len(c) for c in state.columns] == [9] * 11
    assert [c is not None for c in state.cells] == [False, False] + [True] * 5 + [False] * 2
    assert {c.deck for c in state.all_cards()} == {0, 1}


def test_deal_number_limits() -> None:
    assert check_deal_number(1) == 1
    assert check_deal_number(MAX_DEAL) == MAX_DEAL
    for bad in (0, -3, MAX_DEAL + 1, True, 2.0, "5"):
        with pytest.raises(SolitaireError, match="deal number must be"):
            check_deal_number(bad)  # type: ignore[arg-type]
    with pytest.raises(SolitaireError):
        deal(get_variant("seahaven").resolve(), 0)


def test_lay_out_deals_rows_or_columns_then_cells(seahaven) -> None:
    cards = list(full_deck(1))  # AC..KC, AD..KD, AH..KH, AS..KS
    by_rows = lay_out(seahaven, cards)
    assert [str(c) for c in by_rows.columns[0]] == ["AC", "JC", "8D", "5H", "2S"]
    assert [str(c) if c else "-" for c in by_rows.cells] == ["-", "QS", "KS", "-"]
    by_columns = attrs.evolve(seahaven, deal=attrs.evolve(seahaven.deal, order="columns"))
    assert [str(c) for c in lay_out(by_columns, cards).columns[0]] == ["AC", "2C", "3C", "4C", "5C"]
    with pytest.raises(SolitaireError, match="places 52 cards, got 51"):
        lay_out(seahaven, cards[:-1])


def test_custom_deal_method_must_return_each_card_once(seahaven) -> None:
    rules = attrs.evolve(seahaven, deal=attrs.evolve(seahaven.deal, method="test-sorted"))
    in_order = deal(rules, 3, methods={"test-sorted": lambda r, n: full_deck(r.decks)})
    assert in_order.columns[0][0] == Card.parse("AC")
    with pytest.raises(SolitaireError, match="exactly once"):
        deal(rules, 3, methods={"test-sorted": lambda r, n: [Card.parse("AS")] * 52})
    with pytest.raises(SolitaireError, match="unknown deal method"):
        deal(rules, 3, methods={})
