"""Games with a reserve (PySolFC's Canfield family, pysollib/games/canfield.py): deals in
PySolFC's order, the reserve a player sees (its top card only, in Canfield), the
emptied column that takes the reserve's top card within one move, one card or a whole
column, the base card, the loader's messages, and the solver.

pysol_cards does not deal these games; the order below is PySolFC's ``startGame``: the
base card, thirteen cards to the reserve, one card to each column from the last to the
first, then the first deal of the stock. (PySolFC's own dealing code, run without a
window, gives the same layouts on deals 1 to 100, 123456 and 1000000007.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solitaire_core.cards import PYSOLFC_SUITS
from solitaire_core.deal import deal, pysolfc_order
from solitaire_core.errors import VariantError
from solitaire_core.moves import Move, PileKind, PileRef
from solitaire_core.plugins import get_variant
from solitaire_core.rules import explain, legal_moves
from solitaire_core.session import Session
from solitaire_core.solver import Verdict, solve_deal
from solitaire_core.state import GameState
from solitaire_core.textview import format_layout
from solitaire_core.variant import load_variant_file

VARIANTS = Path(__file__).resolve().parents[1] / "variants"


def rules_of(variant: str):  # noqa: ANN201 - a Rules
    return get_variant(variant).resolve()


@pytest.mark.parametrize("number", [1, 7, 23, 123456])
@pytest.mark.parametrize(("variant_id", "draw"), [("canfield", 3), ("rainbow", 1)])
def test_canfield_deals_base_card_reserve_columns_then_waste(
    variant_id: str, draw: int, number: int
) -> None:
    state = deal(rules_of(variant_id), number)
    order = pysolfc_order(1, number)
    base = order[0]
    pile = PYSOLFC_SUITS.index(base.suit)
    assert state.foundations[pile] == (base,)
    assert state.bases == (base.rank,) * 4
    assert state.reserve == tuple(order[1:14])
    assert [col for col in state.columns] == [(c,) for c in reversed(order[14:18])]
    assert state.waste == tuple(order[18 : 18 + draw])
    assert tuple(reversed(state.stock)) == tuple(order[18 + draw :])


def test_storehouse_puts_the_twos_up_and_deals_the_rest_in_canfields_order() -> None:
    state = deal(rules_of("storehouse"), 1)
    rest = [c for c in pysolfc_order(1, 1) if c.rank != 2]
    assert [f[0].label for f in state.foundations] == ["2♣", "2♠", "2♥", "2♦"]
    assert state.reserve == tuple(rest[:13])
    assert [col[0] for col in state.columns] == list(reversed(rest[13:17]))
    assert state.waste == (rest[17],)


def test_the_player_sees_only_the_reserves_top_card_in_canfield() -> None:
    state = deal(rules_of("canfield"), 1)
    text = format_layout(state)
    top, under = state.reserve[-1], state.reserve[:-1]
    assert f"Reserve: {top} on 12" in text
    assert not any(str(card) in text.split("Reserve:")[1].split("\n")[0] for card in under)
    assert [state.is_reserve_face_down(i) for i in range(13)] == [True] * 12 + [False]
    assert state.face_down_cards == 12
    superior = deal(rules_of("superior-canfield"), 1)
    assert not any(superior.is_reserve_face_down(i) for i in range(13))
    assert "Reserve: " + " ".join(map(str, superior.reserve)) in format_layout(superior)


def test_the_next_reserve_card_turns_up_when_the_top_one_plays() -> None:
    rules = rules_of("canfield")
    state = GameState.from_text(
        rules,
        "KS 2S 3H KH |  | - - - JD | J J J J | stock - | waste - | round 0 | reserve 2D,9H,QC",
    )
    session = Session(rules, 1, state=state, autoplay="off")
    session.play("r>t4")
    assert session.state.reserve == state.reserve[:-1]
    assert not session.state.is_reserve_face_down(1)  # the Nine of hearts is now in view
    assert "Reserve: 9H on 1" in format_layout(session.state)
    session.undo()
    assert session.state.reserve == state.reserve


def test_an_emptied_column_takes_the_reserves_top_card_and_one_undo_takes_both_back() -> None:
    rules = rules_of("canfield")
    start = "AH KS 3H 5C |  | - - - JD | J J J J | stock - | waste - | round 0 | reserve 2D,4S"
    session = Session(rules, 1, state=GameState.from_text(rules, start), autoplay="off")
    session.play("t2>t1")
    assert session.state.to_text() == (
        "AH,KS 4S 3H 5C |  | - - - JD | J J J J | stock - | waste - | round 0 | reserve 2D"
    )
    assert session.moves == 1
    session.undo()
    assert session.state.to_text() == start
    superior = rules_of("superior-canfield")
    session = Session(superior, 1, state=GameState.from_text(superior, start), autoplay="off")
    session.play("t2>t1")
    assert session.state.columns[1] == () and len(session.state.reserve) == 2


def test_a_column_gives_one_card_or_all_of_them() -> None:
    rules = rules_of("canfield")
    state = GameState.from_text(
        rules, "JC,TD,9S JS QD 5C |  | - - - JD | J J J J | stock - | waste - | round 0 | reserve -"
    )
    moves = {str(m) for m in legal_moves(state)}
    assert "t1>t3x3" in moves and "t1>t2x2" not in moves
    assert "one card or all of its cards" in (explain(state, Move.parse("t1>t2x2")) or "")
    assert explain(state, Move.parse("t1>t2x2"), cheat=True) is None


def test_the_reserve_is_written_r_and_takes_nothing() -> None:
    assert Move.parse("r>t2").source == PileRef(PileKind.RESERVE, 0)
    assert str(Move.parse("r > f")) == "r>f"
    with pytest.raises(ValueError, match="written s, w and r"):
        PileRef.parse("r1")
    freecell = deal(rules_of("freecell"), 1)
    assert explain(freecell, Move.parse("r>t1")) == "FreeCell has no reserve"


@pytest.mark.parametrize(
    ("change", "key", "message"),
    [
        (
            (
                "[deal.foundations]\nbase_card = true",
                "[deal.foundations]\nbase_card = true\nlast = 1",
            ),
            "deal.foundations.base_card",
            "not with ranks, twins_of_first or last",
        ),
        (('base_rank = "deal"', "base_rank = 1"), "deal.foundations.base_card", "base_rank"),
        (('empty = "any"', 'empty = "none"'), "reserve.fill_empty", "tableau.empty"),
        (("cards = 13", "cards = 14"), "stock", ""),
    ],
)
def test_the_loader_names_the_key_that_is_wrong(
    tmp_path: Path, change: tuple[str, str], key: str, message: str
) -> None:
    text = (VARIANTS / "canfield.toml").read_text("utf-8").replace('id = "canfield"', 'id = "x"')
    assert change[0] in text
    path = tmp_path / "x.toml"
    path.write_text(text.replace(change[0], change[1]), "utf-8")
    if key == "stock":  # fourteen in the reserve still leaves a stock: the file is fine
        assert load_variant_file(path).resolve().reserve_cards == 14
        return
    with pytest.raises(VariantError) as info:
        load_variant_file(path).resolve()
    assert f"x.toml: {key}:" in str(info.value) and message in str(info.value)


def test_the_solver_wins_a_canfield_deal_and_its_moves_replay() -> None:
    rules = rules_of("storehouse")
    for number in range(1, 30):
        result = solve_deal(rules, number, max_states=3000)
        if result.verdict is Verdict.WINNABLE:
            break
    else:
        pytest.fail("no Storehouse deal of 1-29 won within 3,000 positions")
    assert "thoughtful" in result.note
    session = Session(rules, number)
    for move in result.moves:
        session.play(move)
    assert session.is_won


def test_miss_milligans_reserve_takes_a_run_once_the_stock_is_spent_and_gives_it_back() -> None:
    rules = rules_of("miss-milligan")
    empty = "- - - - - - - -"
    start = f"KH,QS,JH 9C - - - - - - |  | {empty} | stock - | waste - | round 0 | reserve -"
    session = Session(rules, 1, state=GameState.from_text(rules, start), autoplay="off")
    assert {"t1>r", "t1>rx2", "t2>r"} <= {str(m) for m in legal_moves(session.state)}
    session.play("t1>rx2")
    assert session.state.reserve == GameState.from_text(rules, start).columns[0][1:]
    assert explain(session.state, Move.parse("t2>r")) == (
        "the reserve holds one card or run at a time: play it out first"
    )
    assert [str(m) for m in legal_moves(session.state) if m.source.kind is PileKind.RESERVE] == [
        "r>t1x2"
    ]
    session.play("r>t1x2")
    assert session.state.to_text() == start
    dealing = GameState.from_text(rules, start.replace("stock -", "stock 2C"))
    assert "only once the stock is empty" in (explain(dealing, Move.parse("t1>r")) or "")


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        # An empty reserve that takes nothing could never hold a card.
        ((('receive = "when-stock-empty"', ""),), "reserve.cards"),
        # Every card dealt to the columns: no stock to wait for.
        ((('[stock]\ndeal = "row"', ""), ("columns = 1\n", "columns = 13\n")), "reserve.receive"),
    ],
)
def test_the_loader_refuses_a_reserve_that_could_never_hold_a_card(
    tmp_path: Path, changes: tuple[tuple[str, str], ...], key: str
) -> None:
    text = (VARIANTS / "miss-milligan.toml").read_text("utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "mm.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(VariantError, match=f"mm.toml: {key}:"):
        load_variant_file(path).resolve()
