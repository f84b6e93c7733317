"""Aces Up (PySolFC game 903, pysollib/games/acesup.py, AcesUp): a discard pile that takes
a card outranked in its suit by another column's top card, Aces high, and a game won
with the four Aces alone on the columns.

``pysol_cards`` has no Aces Up dealer, so the deal is checked against PySolFC's own
dealing, re-stated from its source: ``Game.shuffle`` puts the shuffled cards on the talon
(its top card last), ``AcesUp.startGame`` (``_startAndDealRow``) deals one row, and
each click on the talon (``DealRowTalonStack.dealCards``, ``dealRowAvail``) another,
always from the talon's top onto the rows in order.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pysol_cards.cards import createCards
from pysol_cards.random import shuffle
from pysol_cards.random_base import RandomBase

from solitaire_core.cards import Card
from solitaire_core.errors import VariantError
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import explain, legal_moves
from solitaire_core.session import Session
from solitaire_core.state import GameState
from solitaire_core.variant import load_variant_file

VARIANTS = Path(__file__).resolve().parent.parent / "variants"
SUIT_LETTERS = "CSHD"  # PySolFC's suit order: clubs, spades, hearts, diamonds


def rules_of(variant: str = "aces-up"):  # noqa: ANN201 - a Rules
    return get_variant(variant).resolve()


def pysolfc_talon(number: int) -> list[Card]:
    """PySolFC's talon for game ``number``, bottom card first (its top is the last)."""
    cards = shuffle(createCards(1), number, RandomBase.DEALS_PYSOLFC)
    return [Card.parse("A23456789TJQK"[c.rank - 1] + SUIT_LETTERS[c.suit]) for c in cards]


@pytest.mark.parametrize("number", [1, 7, 23, 32000, 123456])
def test_every_row_dealt_is_pysolfcs(number: int) -> None:
    talon = pysolfc_talon(number)
    rows: list[list[Card]] = [[], [], [], []]
    session = Session(rules_of(), number, autoplay="off")
    for deal in range(13):
        if deal:
            session.play("s>t")
        for row in rows:  # dealRow: one card from the talon's top onto each row in turn
            row.append(talon.pop())
        assert [list(col) for col in session.state.columns] == rows
        assert list(reversed(session.state.stock)) == list(reversed(talon))[: len(talon)]
    assert not session.state.stock
    assert "s>t" not in [str(m) for m in legal_moves(session.state)]


def position(text: str) -> GameState:
    return GameState.from_text(rules_of(), f"{text} |  | - | stock 3C | waste - | round 0")


def test_a_card_goes_when_a_higher_card_of_its_suit_tops_another_column() -> None:
    assert explain(position("9H,5S 8D 9S 2C"), Move.parse("t1>f")) is None
    # Aces high: the Ace of Spades outranks the King.
    assert explain(position("KS AS 8D 2C"), Move.parse("t1>f")) is None


def test_what_does_not_let_a_card_go() -> None:
    assert "never discarded" in (explain(position("AS KS 8D 2C"), Move.parse("t1>f")) or "")
    other_suit = explain(position("5S KH 8D 2C"), Move.parse("t1>f")) or ""
    assert "no higher ♠" in other_suit
    buried = explain(position("KS,5S QS,9D 8D 2C"), Move.parse("t1>f")) or ""
    assert "no higher ♠" in buried
    # The King under the Five in its own column does not count; the Queen on top does.
    assert explain(position("KS,5S 9D,QS 8D 2C"), Move.parse("t1>f")) is None


def test_the_only_moves_are_discards_moves_to_empty_columns_and_the_deal() -> None:
    moves = sorted(str(m) for m in legal_moves(position("9H,5S - 9S 2C")))
    assert moves == ["s>t", "t1>f1", "t1>t2", "t3>t2", "t4>t2"]


def test_won_with_the_four_aces_alone_on_the_columns() -> None:
    rules = rules_of()
    discarded = ",".join(str(c) for c in rules.cards if c.rank != 1)
    end = f" |  | {discarded} | stock - | waste - | round 0"
    assert GameState.from_text(rules, "AC AS AH AD" + end).is_won
    stacked = GameState.from_text(rules, "AC,AS - AH AD" + end)
    assert not stacked.is_won
    assert stacked.cards_left == 0
    session = Session(rules, 1, state=stacked, autoplay="off")
    session.play("t1>t2")
    assert session.is_won


def test_the_status_counts_the_cards_still_to_discard() -> None:
    assert Session(rules_of(), 1).state.cards_left == 48


@pytest.mark.parametrize(
    ("change", "key", "message"),
    [
        (("win_single_cards = true\n", ""), "", ""),
        (("win_cards = 48\n", ""), "foundations", "can hold all 52 cards"),
        (
            ("cards = 48\nwin_cards = 48\n", "cards = 52\n"),
            "tableau.win_single_cards",
            "expected foundations.win_cards",
        ),
        (
            ("cards = 48\nwin_cards = 48", "cards = 50\nwin_cards = 50"),
            "tableau.win_single_cards",
            "one card per column",
        ),
        (("win_cards = 48", "win_cards = 60"), "foundations.win_cards", "at most the 52 cards"),
        (("cards = 48", "cards = 40"), "foundations", "hold the 48 cards that win"),
        (("count = 1", "count = 2"), "foundations.build", "one pile"),
        (("cards = 48", "cards = 48\nbase_rank = 2"), "foundations.build", "no base_rank"),
        (("cards = 48", "cards = 48\naccept_runs = true"), "foundations.accept_runs", "one by one"),
        (('build = "outranked-in-suit"', 'build = "up-any-suit"'), "foundations.cards", "13"),
        (("win_cards = 48", "win_cards = 48\nwin = 1"), "foundations.win", "unknown key"),
    ],
)
def test_the_loader_names_the_key_that_is_wrong(
    tmp_path: Path, change: tuple[str, str], key: str, message: str
) -> None:
    text = (VARIANTS / "aces-up.toml").read_text("utf-8").replace('id = "aces-up"', 'id = "x"')
    assert change[0] in text
    path = tmp_path / "x.toml"
    path.write_text(text.replace(change[0], change[1], 1), "utf-8")
    if not key:  # Aces Up 5's rule (game 353): 48 cards win, however the Aces lie
        rules = load_variant_file(path).resolve()
        assert rules.win_cards == 48 and not rules.win_single_cards
        return
    with pytest.raises(VariantError) as info:
        load_variant_file(path).resolve()
    assert f"x.toml: {key}:" in str(info.value) and message in str(info.value)


def test_the_solver_searches_it_on_the_cores_positions_and_gives_a_verdict() -> None:
    assert rules_of().core_positions_only
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "solitaire_core",
            "solve",
            "aces-up",
            "--deal",
            "1",
            "--max-states",
            "3000",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.stdout.startswith("Aces Up #1: ")
    assert any(word in out.stdout for word in ("winnable", "unwinnable", "undecided"))


def test_the_table_marks_the_empty_discard_pile_discard_not_ace() -> None:
    from solitaire_tk.table.marks import slot_look

    ref = Move.parse("t1>f1").target
    assert slot_look(position("9H,5S 8D 9S 2C"), ref) == ("foundation", "Discard")


def test_the_rules_window_says_how_the_game_is_won() -> None:
    from solitaire_tk.dialogs.rules import _foundation_text, _winning_text

    assert "discard pile" in _foundation_text(rules_of())
    assert _winning_text(rules_of()) == (
        "The game is won when 48 cards are on the foundations, the others lying one to a column."
    )
