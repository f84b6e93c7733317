"""Golf, Dead King Golf, Black Hole and All in a Row: one foundation built up or down by
one regardless of suit (PySolFC games 36, 259, 98 and 405, pysollib/games/golf.py).

Reference layouts come from the ``pysol_cards`` package's dealers (``golf``,
``black_hole``, ``all_in_a_row``); Dead King Golf is dealt as Golf (PySolFC's
``DeadKingGolf`` keeps ``Golf.startGame``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from solitaire_core.deal import deal
from solitaire_core.errors import VariantError
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import explain, legal_moves
from solitaire_core.session import Session
from solitaire_core.solver import Verdict
from solitaire_core.solver.search import solve_deal
from solitaire_core.state import GameState
from solitaire_core.textview import format_pysol
from solitaire_core.variant import load_variant_file

VARIANTS = Path(__file__).resolve().parent.parent / "variants"
NUMBERS = (1, 7, 23, 32000, 123456)
PYSOL_CARDS = {
    "golf": "golf",
    "dead-king-golf": "golf",
    "black-hole": "black_hole",
    "all-in-a-row": "all_in_a_row",
}


def rules_of(variant: str):  # noqa: ANN201 - a Rules
    return get_variant(variant).resolve()


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("variant", sorted(PYSOL_CARDS))
def test_layout_equals_pysol_cards(variant: str, number: int) -> None:
    ours = format_pysol(deal(rules_of(variant), number))
    theirs = Game(PYSOL_CARDS[variant], number, RandomBase.DEALS_PYSOLFC).calc_layout_string(
        CardRenderer(True)
    )
    assert ours.splitlines() == theirs.splitlines()


def test_export_prints_the_pysol_layout() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "solitaire_core",
            "export",
            "golf",
            "--deal",
            "1",
            "--format",
            "pysol",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines()[:2] == [
        "Talon: 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H",
        "Foundations: TH",
    ]


def test_golf_deal_1_offers_only_the_stock() -> None:
    # Ten of hearts on the foundation; the columns show 4H AC 4D 7S 3S TD 4S.
    state = deal(rules_of("golf"), 1)
    assert [str(m) for m in legal_moves(state)] == ["s>f1"]
    after = Session(rules_of("golf"), 1)
    after.play(Move.parse("s>f"))
    assert str(after.state.foundations[0][-1]) == "8H"


def test_golf_is_won_with_cards_left_in_the_stock() -> None:
    rules = rules_of("golf")
    state = GameState.from_text(rules, "JC - - - - - - |  | TH | stock 5C,4D | waste - | round 0")
    assert not state.is_won
    won = Session(rules, 1, state=state, autoplay="off")
    won.play(Move.parse("t1>f1"))
    assert won.is_won
    assert explain(won.state, Move.parse("s>f")) is not None  # no deal once won


def test_a_king_takes_a_queen_in_golf_but_nothing_in_dead_king_golf() -> None:
    text = "2S,QD - - - - - - |  | KH | stock 4D | waste - | round 0"
    move = Move.parse("t1>f1")
    assert explain(GameState.from_text(rules_of("golf"), text), move) is None
    dead = GameState.from_text(rules_of("dead-king-golf"), text)
    assert "nothing goes on" in (explain(dead, move) or "")
    assert explain(dead, Move.parse("s>f")) is None


def test_black_hole_wraps_and_golf_does_not() -> None:
    hole = GameState.from_text(rules_of("black-hole"), "2S,KH" + " -" * 16 + " |  | AS")
    assert explain(hole, Move.parse("t1>f1")) is None
    golf = GameState.from_text(
        rules_of("golf"), "2S,KH - - - - - - |  | AS | stock - | waste - | round 0"
    )
    assert explain(golf, Move.parse("t1>f1")) is not None


@pytest.mark.parametrize(
    ("change", "key", "message"),
    [
        (("count = 1", "count = 4"), "stock.deal", "foundations.count = 1"),
        (('deal = "foundation"', 'deal = "foundation"\nredeals = 1'), "stock.redeals", "not used"),
        (("columns = 5", 'columns = 5\nlast_cards = ["AS"]\n'), "", ""),
    ],
)
def test_the_loader_names_the_key_that_is_wrong(
    tmp_path: Path, change: tuple[str, str], key: str, message: str
) -> None:
    text = (VARIANTS / "golf.toml").read_text("utf-8").replace('id = "golf"', 'id = "x"')
    assert change[0] in text
    path = tmp_path / "x.toml"
    path.write_text(text.replace(change[0], change[1], 1), "utf-8")
    if not key:  # the Ace of Spades dealt last is a valid Golf deal too
        assert str(load_variant_file(path).resolve().deal.last_cards[0]) == "AS"
        return
    with pytest.raises(VariantError) as info:
        load_variant_file(path).resolve()
    assert f"x.toml: {key}:" in str(info.value) and message in str(info.value)


def test_last_cards_needs_one_deck(tmp_path: Path) -> None:
    text = (VARIANTS / "black-hole.toml").read_text("utf-8")
    text = text.replace("decks = 1", "decks = 2").replace("cards = 52", "cards = 104")
    text = text.replace("columns = 3", "columns = 6")
    path = tmp_path / "x.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(VariantError, match="deal.last_cards: expected one deck"):
        load_variant_file(path).resolve()


@pytest.mark.parametrize("variant", sorted(PYSOL_CARDS))
def test_the_solver_wins_a_deal_and_its_moves_replay(variant: str) -> None:
    rules = rules_of(variant)
    for number in range(1, 20):
        result = solve_deal(rules, number, max_states=200_000)
        if result.verdict is Verdict.WINNABLE:
            break
    else:
        pytest.fail(f"no {rules.name} deal of 1-19 won")
    session = Session(rules, number)
    for move in result.moves:
        session.play(move)
    assert session.is_won
