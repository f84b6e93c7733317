"""Pyramid and TriPeaks: a layout of overlapping cards (``tableau.layout``), pairs whose
ranks add up to 13 (``foundations.build = "pairs"``), the stock's face-up top card
(``stock.top_plays``) and face-down cards turned up when uncovered.

Sources: PySolFC game 38 (pysollib/games/pyramid.py, Pyramid) and game 22231
(pysollib/games/threepeaks.py, ThreePeaksNoScore). The reference deals were printed by
PySolFC's own ``createGame``/``startGame`` on its shuffle for the game number (its GUI
stubbed out); ``pysol_cards`` deals neither game.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from solitaire_core.cards import Card
from solitaire_core.deal import deal
from solitaire_core.errors import IllegalMoveError, VariantError
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply, covered, explain, legal_moves
from solitaire_core.state import GameState
from solitaire_core.textview import format_layout
from solitaire_core.variant import load_variant_file, parse_variant

VARIANTS = Path(__file__).resolve().parent.parent / "variants"

# PySolFC's deals, the layout from its top card (s.rows order), the talon from its
# bottom card (the last one is dealt next), the waste's card.
PYSOLFC = {
    ("pyramid", 1000000): (
        "TD AD 8D 7C 7H 3S KS KD TC 4C 4S 4D QC 3H QD 6D 5H 2S JD 9C 5D 7S 6S 9H 3C JS 6H 2H",
        "AC 2D AS 9D JC TH 2C QH 5C KC 9S 8H 3D 8S JH AH 5S 7D TS QS KH 4H 6C",
        "8C",
    ),
    ("tri-peaks", 123456): (
        "3D 2D 2C 9C AC 6H 4C KC 6C TC 8S 8C 9D TH 2S JS AS 4H AH QH 7H 8H 3S 9H TS JD KD 3C",
        "QD 7C 5C 4D AD 3H JC JH 9S 5S 2H 8D 7S 5H 7D KS 5D KH TD QC 4S 6S QS",
        "6D",
    ),
}


def rules_of(variant: str):  # noqa: ANN201 - a Rules
    return get_variant(variant).resolve()


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def play(state, *moves: str):  # noqa: ANN001, ANN201
    for text in moves:
        state = apply(state, Move.parse(text))
    return state


@pytest.mark.parametrize(("variant", "number"), sorted(PYSOLFC))
def test_deal_is_pysolfcs(variant: str, number: int) -> None:
    layout, talon, waste = PYSOLFC[(variant, number)]
    state = deal(rules_of(variant), number)
    assert [c for col in state.columns for c in col] == cards(layout)
    assert list(state.stock) == cards(talon)
    top = state.waste if variant == "pyramid" else state.foundations[0]
    assert list(top) == cards(waste)


def test_tri_peaks_deals_the_peaks_face_down() -> None:
    state = deal(rules_of("tri-peaks"), 1)
    assert [state.is_face_down(i, 0) for i in range(28)] == [True] * 18 + [False] * 10


def test_pyramid_coverings_follow_pysolfcs_blockmap() -> None:
    rules = rules_of("pyramid")
    # PySolFC's Pyramid._createPyramid: card n of row i is blocked by n + i + 1 and n + i + 2.
    expected, n = [], 0
    for i in range(6):
        for _ in range(i + 1):
            expected.append((n + i + 1, n + i + 2))
            n += 1
    expected += [()] * 7
    assert rules.covered_by == tuple(expected)


def test_tri_peaks_coverings_follow_pysolfcs_steps() -> None:
    rules = rules_of("tri-peaks")
    step = (3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9)  # ThreePeaks_RowStack.STEP
    assert rules.covered_by == tuple((i + s, i + s + 1) for i, s in enumerate(step)) + ((),) * 10


def test_a_covered_card_does_not_play() -> None:
    state = deal(rules_of("pyramid"), 1)  # t1 JD, t2 2D, t3 9H ... t22 AS, t28 QH
    assert covered(state, 0) == (1, 2)
    assert explain(state, Move.parse("t1>t2")) == (
        "t1 is covered by t2 and t3: its card plays once they have left"
    )
    sources = {str(m.source) for m in legal_moves(state)}
    assert sources == {"t22", "t23", "t24", "t27", "t28", "s"}


def test_a_pair_leaves_together_and_uncovers() -> None:
    state = deal(rules_of("pyramid"), 1)
    after = play(state, "t22>t28")  # AS + QH = 13
    assert after.columns[21] == () and after.columns[27] == ()
    assert after.foundations[0] == tuple(cards("AS QH"))
    assert covered(after, 15) == (22,)  # t16 (3H) is still under t23
    assert explain(state, Move.parse("t22>t23")) == (
        "A♠ and A♥ do not pair: their ranks add up to 2, not 13"
    )


def test_pairs_with_the_stock_and_the_waste() -> None:
    state = deal(rules_of("pyramid"), 1)  # waste 4H, stock top AC
    moves = {str(m) for m in legal_moves(state)}
    assert {"t28>s", "s>t28", "s>w"} <= moves  # QH + AC
    assert "s>w" in moves and "w>s" not in moves  # 4H + AC do not pair
    after = play(state, "s>t28")
    assert after.stock == state.stock[:-1] and after.foundations[0] == tuple(cards("AC QH"))


def test_the_waste_pairs_with_the_stock_while_the_stock_holds_cards() -> None:
    rules = rules_of("pyramid")
    state = deal(rules, 1)
    state = copy.copy(state)
    # Deal until the waste's top and the stock's top pair.
    for _ in range(24):
        w, s = state.waste[-1], state.stock[-1] if state.stock else None
        if s is not None and w.rank + s.rank == 13:
            break
        state = play(state, "s>w")
    assert state.stock, "deal 1 has a waste/stock pair before the stock runs out"
    before = len(state.stock)
    after = play(state, "w>s")
    assert len(after.stock) == before - 1 and after.rounds == 0
    assert len(after.foundations[0]) == 2


def test_a_king_goes_alone_and_nothing_else_does() -> None:
    state = deal(rules_of("pyramid"), 1)
    assert explain(state, Move.parse("t22>f")) == (
        "A♠ goes to f1 only with a card it pairs with (ranks adding up to 13): "
        "play it onto that card"
    )
    # Deal 1000000 has Kings in the stock: turn it until one is on top, then send it.
    state = deal(rules_of("pyramid"), 1000000)
    while state.stock[-1].rank != 13:
        state = play(state, "s>w")
    after = play(state, "s>f")
    assert after.foundations[0][-1].rank == 13 and len(after.foundations[0]) == 1


def test_redeal_once_the_stock_is_empty_three_rounds() -> None:
    state = deal(rules_of("pyramid"), 1)
    for round_ in range(3):
        while state.stock:
            state = play(state, "s>w")
        if round_ < 2:
            state = play(state, "w>s")
            assert state.rounds == round_ + 1
    with pytest.raises(IllegalMoveError, match="no redeal is left"):
        play(state, "w>s")


def test_pyramid_is_won_only_with_every_card_discarded() -> None:
    rules = rules_of("pyramid")
    state = deal(rules, 1)
    empty = copy.copy(state)
    object.__setattr__(empty, "columns", ((),) * 28)
    assert not empty.is_won  # the stock and the waste still hold cards


def test_tri_peaks_turns_a_card_up_once_uncovered() -> None:
    state = deal(rules_of("tri-peaks"), 1)  # foundation 4H; t19 9D, t20 QD; t10 over them
    assert [str(m) for m in legal_moves(state)] == ["t24>f1", "t26>f1", "s>f1"]
    state = play(state, "s>f1")  # stock's next card
    assert state.is_face_down(9, 0)
    # Clear t19 and t20 by any legal line: search a few plies for a position where both
    # have left, then t10 lies face up.
    frontier, seen = [state], set()
    while frontier:
        position = frontier.pop()
        if not position.columns[18] and not position.columns[19]:
            assert not position.is_face_down(9, 0)
            break
        for move in legal_moves(position):
            child = apply(position, move)
            key = child.to_text()
            if key not in seen and len(seen) < 20000:
                seen.add(key)
                frontier.append(child)
    else:
        pytest.fail("no line clears t19 and t20")


def test_tri_peaks_wraps_king_and_ace() -> None:
    rules = rules_of("tri-peaks")
    state = GameState.from_text(rules, "KS" + " -" * 27 + " |  | AH | stock 2C")
    assert explain(state, Move.parse("t1>f1")) is None
    assert apply(state, Move.parse("t1>f1")).is_won


def test_the_show_command_draws_the_layout() -> None:
    text = format_layout(deal(rules_of("pyramid"), 1))
    lines = text.splitlines()
    assert "Stock: 23 cards, AC on top, 2 redeals left   Waste: 4H" in lines
    top = lines.index("                  t1")
    assert lines[top + 1] == "                  JD"
    assert lines[-1] == "AS    AH    3C    4C    5C    TS    QH"
    peaks = format_layout(deal(rules_of("tri-peaks"), 1)).splitlines()
    assert peaks[-3].split() == ["##"] * 9 and peaks[-1].split()[0] == "9D"


@pytest.mark.parametrize(
    ("old", "new", "key", "words"),
    [
        ("  [0, 3], [1, 3],", "  [0, 3], [0, 3],", "tableau.layout.22", "both lie at [0.0, 3.0]"),
        ("columns = 28", "columns = 27", "tableau.layout", "expected one [x, y] place per column"),
        ('build = "none"', 'build = "down-any-suit"', "tableau.build", "expected 'none' with a"),
        (
            "pair_total = 13\n",
            "pair_total = 13\nbase_rank = 1\n",
            "foundations.build",
            "no base_rank",
        ),
        ("top_plays = true", "top_plays = true\nrow = [1]", "stock.row", "not used"),
    ],
)
def test_layout_and_pairs_errors_name_the_key(old: str, new: str, key: str, words: str) -> None:
    text = (VARIANTS / "pyramid.toml").read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(VariantError) as err:
        parse_variant(text.replace(old, new, 1), "bad.toml").resolve()
    assert f"bad.toml: {key}:" in str(err.value) and words in str(err.value)


def test_top_plays_needs_pairs() -> None:
    text = (VARIANTS / "klondike.toml").read_text(encoding="utf-8") + "top_plays = true\n"
    with pytest.raises(VariantError, match="stock.top_plays: expected foundations.build = 'pairs'"):
        parse_variant(text, "bad.toml").resolve()


def test_more_than_twenty_columns_need_a_layout() -> None:
    text = (
        (VARIANTS / "golf.toml").read_text(encoding="utf-8").replace("columns = 7", "columns = 21")
    )
    text = text.replace("columns = 5", "columns = 2")
    with pytest.raises(VariantError, match="tableau.columns: expected at most 20 columns"):
        parse_variant(text, "bad.toml").resolve()


def test_pair_total_only_with_pairs() -> None:
    text = (
        (VARIANTS / "golf.toml")
        .read_text(encoding="utf-8")
        .replace("cards = 52", "cards = 52\npair_total = 13")
    )
    with pytest.raises(VariantError, match="foundations.pair_total: not used unless"):
        parse_variant(text, "bad.toml").resolve()


def test_files_load() -> None:
    for name in ("pyramid", "tri-peaks"):
        assert load_variant_file(VARIANTS / f"{name}.toml").resolve().layout


@pytest.mark.parametrize("variant", ["pyramid", "tri-peaks"])
def test_autoplay_all_sends_no_covered_or_face_down_card_up(variant: str) -> None:
    # A session may choose autoplay "all"; it once sent every King of the pyramid (and
    # TriPeaks' covered, face-down cards) up, covered or not.
    from solitaire_core.rules import autoplay_moves

    rules = rules_of(variant)
    for number in range(1, 30):
        state = deal(rules, number)
        after, moves = autoplay_moves(state, "all")
        for move in moves:
            assert explain(state, move) is None, (number, str(move))
            state = apply(state, move)
        assert state == after
    if variant == "pyramid":
        # Deal 1's four Kings lie covered at t9, t10, t15 and t18: none goes up.
        state = deal(rules, 1)
        assert all(covered(state, i) for i in (8, 9, 14, 17))
        assert autoplay_moves(state, "all")[1] == []
