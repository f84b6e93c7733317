"""Move notation: every move prints and parses back; bad text is refused with a reason."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solitaire_core.errors import IllegalMoveError
from solitaire_core.moves import Move, PileKind, PileRef, cell, foundation, tableau


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("t3>f", Move(tableau(2), foundation())),
        ("t3>f2", Move(tableau(2), foundation(1))),
        ("c1>t7", Move(cell(0), tableau(6))),
        ("t2>t5x3", Move(tableau(1), tableau(4), 3)),
        ("t10>c", Move(tableau(9), cell())),
        ("f1>t1", Move(foundation(0), tableau(0))),
    ],
)
def test_canonical_text_parses_and_prints_back(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert str(move) == text
    assert eval(repr(move)) == move


def test_parse_is_lenient_about_case_and_spaces() -> None:
    assert Move.parse(" T3 > F ") == Move.parse("t3>f")
    assert str(Move.parse("t2>t5x1")) == "t2>t5"  # one card needs no count


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not a move"),
        ("t3", "not a move"),
        ("t3-f", "not a move"),
        ("x3>f", "not a move"),
        ("t0>f", "pile numbers start at 1"),
        ("t3>t", "needs its number"),
        ("c>t1", "source pile needs its number"),
        ("t1>t2x0", "at least one card"),
    ],
)
def test_bad_text_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError, match=reason) as info:
        Move.parse(text)
    assert isinstance(info.value, ValueError)
    assert info.value.reason


def test_stock_and_waste_are_written_s_and_w() -> None:
    assert str(Move.parse("s>w")) == "s>w"
    assert str(Move.parse("w > s")) == "w>s"
    assert Move.parse("s>t").target == PileRef(PileKind.TABLEAU, None)
    assert Move.parse("w>t3").source == PileRef(PileKind.WASTE, 0)
    with pytest.raises(IllegalMoveError, match="written s, w and r"):
        Move.parse("s2>w")


def test_pile_refs_print_one_based_and_parse_back() -> None:
    assert str(tableau(0)) == "t1"
    assert PileRef.parse("c4") == PileRef(PileKind.CELL, 3)
    assert PileRef.parse("f") == foundation()
    with pytest.raises(ValueError):
        PileRef.parse("t")


_numbered = st.builds(
    PileRef,
    st.sampled_from([PileKind.TABLEAU, PileKind.CELL, PileKind.FOUNDATION]),
    st.integers(min_value=0, max_value=19),
) | st.builds(PileRef, st.sampled_from([PileKind.STOCK, PileKind.WASTE]), st.just(0))
_targets = (
    _numbered
    | st.builds(PileRef, st.sampled_from([PileKind.CELL, PileKind.FOUNDATION]))
    | st.just(PileRef(PileKind.TABLEAU, None))
)


@given(_numbered, _targets, st.integers(min_value=1, max_value=26))
def test_every_move_round_trips(source: PileRef, target: PileRef, count: int) -> None:
    # An unnumbered column is only the target of a row dealt from the stock (s>t).
    if target == PileRef(PileKind.TABLEAU, None):
        source = PileRef(PileKind.STOCK, 0)
    move = Move(source, target, count)
    assert Move.parse(str(move)) == move
