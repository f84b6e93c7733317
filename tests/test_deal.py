"""Deal numbers: the same layout every time, and PySolFC's (and Microsoft's) layouts.

The reference layouts come from the ``pysol_cards`` package's own dealers (PySolFC's
game-number generator: Microsoft FreeCell's below 32001, a Mersenne Twister above), and
FreeCell deal #1 is also written out literally as Microsoft FreeCell shows it.
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter

import attrs
import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from solitaire_core.cards import RANK_TEXT, Card, full_deck
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


def pysol_text(game_id: str, number: int) -> str:
    """pysol_cards' layout text of a game (its Die Schlange dealer also prints a line)."""
    with contextlib.redirect_stdout(io.StringIO()):
        game = Game(game_id, number, RandomBase.DEALS_PYSOLFC)
        return game.calc_layout_string(CardRenderer(True))


def pysol_layout(game_id: str, number: int) -> tuple[list[str], list[str]]:
    """pysol_cards' layout of a game: (one text line per column, freecell line tokens)."""
    columns, cells = [], []
    for line in pysol_text(game_id, number).splitlines():
        if line.startswith("Freecells:"):
            cells = line.split()[1:]
        elif not line.startswith("Foundations:"):
            columns.append(line)
    return columns, cells


def pysol_foundations(game_id: str, number: int) -> dict[str, int]:
    """pysol_cards' foundations line as suit letter -> top rank (``H-5`` is the 5 of
    hearts on top); empty when the layout has no such line."""
    for line in pysol_text(game_id, number).splitlines():
        if line.startswith("Foundations:"):
            return {t[0]: RANK_TEXT.index(t[2]) + 1 for t in line.split()[1:]}
    return {}


def our_layout(state: GameState) -> tuple[list[str], list[str]]:
    """Our layout in the same shape; trailing free cells are dropped like pysol_cards does."""
    columns = [" ".join(str(c) for c in col) for col in state.columns]
    cells = [str(c) if c else "-" for c in state.cells]
    while cells and cells[-1] == "-":
        cells.pop()
    return columns, cells


def our_foundations(state: GameState) -> dict[str, int]:
    """Our foundations as suit letter -> top rank (one deck)."""
    return {f[-1].suit.value: f[-1].rank for f in state.foundations if f}


@pytest.mark.parametrize(
    ("variant_id", "game_id"),
    [
        ("seahaven", "seahaven"),
        ("sea-towers", "seahaven"),
        ("relaxed-seahaven", "relaxed_seahaven"),
        ("freecell", "freecell"),
        ("bakers-game", "bakers_game"),
        ("eight-off", "eight_off"),
        ("forecell", "forecell"),
        ("kings-only-bakers-game", "kings_only_bakers_game"),
        ("relaxed-freecell", "relaxed_freecell"),
        ("beleaguered-castle", "beleaguered_castle"),
        ("streets-and-alleys", "streets_and_alleys"),
        ("citadel", "citadel"),
        ("bakers-dozen", "bakers_dozen"),
        ("fan", "fan"),
        ("scotch-patience", "fan"),
        ("simple-simon", "simple_simon"),
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
    assert our_foundations(state) == pysol_foundations(game_id, number)


@pytest.mark.parametrize(
    ("variant_id", "game_id"),
    [("der-katzenschwanz", "der_katzenschwantz"), ("die-schlange", "die_schlange")],
)
@pytest.mark.parametrize("number", NUMBERS + [4, 12, 16])
def test_kings_start_columns_equals_pysolfc(variant_id: str, game_id: str, number: int) -> None:
    """Every King starts the next column. When the very first card dealt is a King,
    PySolFC (katzenschwanz.py: a King moves on only from a column that holds cards) puts
    it in column 1, while pysol_cards leaves column 1 empty and shifts every column one
    to the right: deal N follows PySolFC, so it equals pysol_cards' layout shifted back."""
    state = deal(get_variant(variant_id).resolve(), number)
    theirs, _ = pysol_layout(game_id, number)
    ours, _ = our_layout(state)
    if theirs[0] == "":
        assert ours[0].startswith("K")
        theirs = [*theirs[1:], ""]
    assert ours == theirs
    ranks = [1] if variant_id == "die-schlange" else []
    assert sorted(c.rank for f in state.foundations for c in f) == ranks * 8


def test_a_first_king_stays_in_the_first_column() -> None:
    # Deal 4's first card is a King (pysol_cards leaves the first column empty for it).
    state = deal(get_variant("der-katzenschwanz").resolve(), 4)
    assert state.columns[0][0].rank == 13 and state.columns[-1] == ()
    assert all(col[0].rank == 13 for col in state.columns[:-1])


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
        assert Counter(state.all_cards()) == Counter(rules.cards)
        recipe = rules.deal
        if recipe.play_to_foundations:  # Citadel: more cards may go up while dealing
            assert state.foundation_cards >= recipe.foundation_cards
        else:
            # Golf: the stock's first deals go onto the foundation.
            dealt_up = recipe.stock_deals if rules.stock_deal == "foundation" else 0
            assert state.foundation_cards == recipe.foundation_cards + dealt_up
        sizes = [len(c) for c in state.columns]
        if recipe.order == "kings-start-columns" or recipe.play_to_foundations:
            assert sum(sizes) == rules.card_count - len(recipe.cells) - state.foundation_cards
        else:
            assert sizes == list(recipe.columns)
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


@pytest.mark.parametrize("variant_id", ["challenge-freecell", "super-challenge-freecell"])
@pytest.mark.parametrize("number", [1, 617, 32001, 10**12 + 1])
def test_challenge_freecell_buries_the_twos_and_aces(variant_id: str, number: int) -> None:
    # PySolFC's ChallengeFreeCell moves the Aces and Twos to the top of the talon, ordered
    # Twos first, then by suit (clubs, spades, hearts, diamonds): the first row dealt.
    state = deal(get_variant(variant_id).resolve(), number)
    bottoms = [str(col[0]) for col in state.columns]
    assert bottoms == ["2C", "2S", "2H", "2D", "AC", "AS", "AH", "AD"]
    # The other 44 cards keep FreeCell's order for the same deal number.
    freecell = deal(get_variant("freecell").resolve(), number)
    rest = [c for row in range(7) for col in freecell.columns if row < len(col) for c in [col[row]]]
    ours = [c for row in range(1, 7) for col in state.columns if row < len(col) for c in [col[row]]]
    assert ours == [c for c in rest if c.rank > 2]


@pytest.mark.parametrize("number", [1, 2, 3, 617, 32001, 123456])
def test_good_measure_puts_two_aces_up(number: int) -> None:
    state = deal(get_variant("good-measure").resolve(), number)
    assert [c.rank for f in state.foundations for c in f] == [1, 1]
    assert [len(col) for col in state.columns] == [5] * 10
    assert sum(c.rank == 1 for col in state.columns for c in col) == 2


@pytest.mark.parametrize("number", [1, 5, 32001])
def test_good_measure_follows_bakers_dozen_order_without_two_aces(number: int) -> None:
    # Good Measure is Baker's Dozen's hook on ten columns, then the two Aces dealt last
    # taken out (PySolFC bakersdozen.py); rebuild that from the raw PySolFC order.
    from solitaire_core.deal import pysolfc_order

    pack = pysolfc_order(1, number)[::-1]
    kings = [i for i, c in enumerate(pack) if c.rank == 13]
    for i in kings:
        for j in range(i % 10, i, 10):
            if pack[j].rank != 13:
                pack[i], pack[j] = pack[j], pack[i]
                break
    aces = [i for i, c in enumerate(pack) if c.rank == 1][-2:]
    rest = [c for i, c in enumerate(pack) if i not in aces]
    state = deal(get_variant("good-measure").resolve(), number)
    assert [[str(c) for c in col] for col in state.columns] == [
        [str(c) for c in rest[i::10]] for i in range(10)
    ]


@pytest.mark.parametrize("number", [1, 2, 32001, MAX_DEAL])
def test_bakers_dozen_kings_lie_under_the_other_cards(number: int) -> None:
    state = deal(get_variant("bakers-dozen").resolve(), number)
    for col in state.columns:
        ranks = [c.rank for c in col]
        kings = ranks.count(13)
        assert ranks[:kings] == [13] * kings


def test_triple_freecell_deals_thirteen_columns_of_twelve() -> None:
    state = deal(get_variant("triple-freecell").resolve(), 3)
    assert [len(c) for c in state.columns] == [12] * 13
    assert {c.deck for c in state.all_cards()} == {0, 1, 2}
    assert state.free_cells == 10


def test_citadel_plays_cards_up_while_dealing() -> None:
    # Deal 3: pysol_cards shows hearts to 2, clubs to 2, diamonds to 3, spades to 5.
    state = deal(get_variant("citadel").resolve(), 3)
    assert our_foundations(state) == {"H": 2, "C": 2, "D": 3, "S": 5}
    assert [len(c) for c in state.columns] == [6, 4, 6, 5, 5, 5, 4, 5]


def _rows(state: GameState, passes: list[list[int]]) -> list[Card]:
    """The cards of ``state``'s columns read back pass by pass, row by row."""
    taken = [0] * len(state.columns)
    out = []
    for counts in passes:
        for row in range(max(counts)):
            for i, count in enumerate(counts):
                if row < count:
                    out.append(state.columns[i][taken[i]])
                    taken[i] += 1
    return out


@pytest.mark.parametrize("number", [1, 2, 32001, 10**12 + 1])
def test_king_albert_deals_the_triangle_then_a_row_then_the_reserve(number: int) -> None:
    # PySolFC klondike.py KingAlbert: Klondike.startGame(flip=1, reverse=0) deals rows to
    # columns 2..9, 3..9, ..., 9, then one row to all nine; then the seven reserve slots.
    from solitaire_core.deal import pysolfc_order

    state = deal(get_variant("king-albert").resolve(), number)
    assert [len(c) for c in state.columns] == list(range(1, 10))
    order = _rows(state, [list(range(9)), [1] * 9]) + [c for c in state.cells if c is not None]
    assert order == pysolfc_order(1, number)
    assert all(c is not None for c in state.cells) and len(state.cells) == 7


@pytest.mark.parametrize("number", [1, 2, 32001])
def test_raglan_puts_the_aces_up_and_deals_one_to_seven(number: int) -> None:
    from solitaire_core.deal import pysolfc_order

    state = deal(get_variant("raglan").resolve(), number)
    assert [len(c) for c in state.columns] == [1, 2, 3, 4, 5, 6, 7, 7, 7]
    assert [str(f[0]) for f in state.foundations] == ["AC", "AS", "AH", "AD"]
    order = _rows(state, [[1, 2, 3, 4, 5, 6, 7, 7, 7]]) + [c for c in state.cells if c]
    assert order == [c for c in pysolfc_order(1, number) if c.rank != 1]


@pytest.mark.parametrize("number", [1, 7, 32001])
def test_flower_garden_deals_six_beds_then_the_bouquet(number: int) -> None:
    from solitaire_core.deal import pysolfc_order

    state = deal(get_variant("flower-garden").resolve(), number)
    assert [len(c) for c in state.columns] == [6] * 6
    order = _rows(state, [[6] * 6]) + [c for c in state.cells if c]
    assert order == pysolfc_order(1, number) and len(state.cells) == 16


@pytest.mark.parametrize("number", [1, 2, 3, 32001, 10**12 + 1])
def test_penguin_base_is_the_first_cards_rank(number: int) -> None:
    # PySolFC bakersgame.py Penguin: the four cards of the first card's rank are dealt
    # first; the first three go up, the fourth is the first card of column 1.
    from solitaire_core.deal import pysolfc_order

    first = pysolfc_order(1, number)[0]
    state = deal(get_variant("penguin").resolve(), number)
    ups = [c for f in state.foundations for c in f]
    assert len(ups) == 3 and {c.rank for c in ups} == {first.rank}
    assert first in ups
    assert state.columns[0][0].rank == first.rank
    assert state.bases == (first.rank,) * 4
    assert [len(c) for c in state.columns] == [7] * 7


@pytest.mark.parametrize("number", [1, 2, 32001])
def test_stalactites_last_four_cards_start_the_foundations(number: int) -> None:
    from solitaire_core.deal import pysolfc_order

    order = pysolfc_order(1, number)
    state = deal(get_variant("stalactites").resolve(), number)
    assert [f[0] for f in state.foundations] == order[48:]
    assert state.bases == tuple(c.rank for c in order[48:])
    assert _rows(state, [[6] * 8]) == order[:48]


TWO_DECK_PENGUIN = """
format_version = 1
id = "two-deck-penguin"
name = "Two-deck Penguin"
decks = 2
autoplay = "all"

[tableau]
columns = 14
build = "down-in-suit"
wrap = true
empty = "below-base"
move_limit = "unlimited"

[cells]
count = 7

[foundations]
count = 8
base_rank = "deal"
wrap = true

[deal]
columns = [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 10]
foundations = { twins_of_first = true }
"""


@pytest.mark.parametrize("number", [1, 2, 32001])
def test_two_deck_twins_of_first_deals_every_card(number: int) -> None:
    # docs/variant-format.md: the first three cards of the first card's rank go up, the
    # fourth is dealt first; with two decks the other four stay in the pack, in order.
    from solitaire_core.deal import pysolfc_order
    from solitaire_core.variant import parse_variant

    rules = parse_variant(TWO_DECK_PENGUIN, "two-deck-penguin.toml").resolve()
    order = pysolfc_order(2, number)
    twins = [c for c in order if c.rank == order[0].rank]
    state = deal(rules, number)
    assert Counter(state.all_cards()) == Counter(order)
    ups = [c for f in state.foundations for c in f]
    assert Counter(ups) == Counter(twins[:3]) and order[0] in ups
    assert state.columns[0][0] == twins[3]
    assert state.bases == (order[0].rank,) * 8
    rest = [c for c in order if c not in twins[:4]]
    assert _rows(state, [list(rules.deal.columns)])[1:] == rest


def test_last_cards_go_on_the_piles_after_the_taken_ones() -> None:
    # "one per pile from the first pile on": the Aces on piles 1-4, the last four cards
    # on piles 5-8, not on top of the Aces.
    from solitaire_core.deal import pysolfc_order
    from solitaire_core.variant import parse_variant

    text = """
format_version = 1
id = "aces-and-last"
name = "Aces and last"
decks = 1

[tableau]
columns = 8
build = "down-alternate-colors"
empty = "any"
move_limit = "supermove"

[cells]
count = 4

[foundations]
count = 8
[[foundations.groups]]
count = 4
[[foundations.groups]]
count = 4
build = "up-any-suit"
base_rank = "deal"
wrap = true
cards = 10

[deal]
columns = [6, 6, 6, 6, 5, 5, 5, 5]
foundations = { ranks = [1], last = 4 }
"""
    rules = parse_variant(text, "aces-and-last.toml").resolve()
    state = deal(rules, 1)
    order = [c for c in pysolfc_order(1, 1) if c.rank != 1]
    assert [len(f) for f in state.foundations] == [1] * 8
    assert [f[0].rank for f in state.foundations[:4]] == [1] * 4
    assert [f[0] for f in state.foundations[4:]] == order[-4:]
    assert state.bases == (1,) * 4 + tuple(c.rank for c in order[-4:])


@pytest.mark.parametrize("number", [1, 2, 32001])
def test_double_freecell_puts_the_first_decks_aces_up(number: int) -> None:
    state = deal(get_variant("double-freecell").resolve(), number)
    assert [(str(f[0]), f[0].deck) for f in state.foundations] == [
        ("AC", 0), ("AS", 0), ("AH", 0), ("AD", 0)
    ]  # fmt: skip
    assert [len(c) for c in state.columns] == [10] * 10 and state.free_cells == 6


@pytest.mark.parametrize("number", [1, 2, 32001])
def test_bisley_aces_start_the_upward_foundations(number: int) -> None:
    from solitaire_core.deal import pysolfc_order

    state = deal(get_variant("bisley").resolve(), number)
    assert [str(f[0]) if f else "-" for f in state.foundations] == [
        "AC", "AS", "AH", "AD", "-", "-", "-", "-"
    ]  # fmt: skip
    assert _rows(state, [[4] * 12]) == [c for c in pysolfc_order(1, number) if c.rank != 1]


@pytest.mark.parametrize("number", [1, 32001])
def test_fortress_first_two_columns_get_six(number: int) -> None:
    from solitaire_core.deal import pysolfc_order

    state = deal(get_variant("fortress").resolve(), number)
    assert [len(c) for c in state.columns] == [6, 6] + [5] * 8
    assert _rows(state, [[6, 6] + [5] * 8]) == pysolfc_order(1, number)
