"""One test per rule sentence of the four rules texts in shared/rules/.

Each test names the sentence it checks with ``@cites(file, fragment)`` (a short fragment of
the sentence, quoted exactly) and asserts the behaviour on a position built with
``GameState.from_text`` (through the ``board`` fixture). Where this project decided
differently from a sentence, the test also names the decision in shared/rules/README.md
(``decision=``) and asserts the decision. The last tests of the module check that every
fragment is really in its file and that every sentence of every text is cited here or
listed below.

Sentences about the user interface are the UI engineer's and are covered by the ui tests:

* program help: "You may move a card by pressing the letter corresponding to its position
  ..." (letter keys), "Pressing shift along with the letter ..." (Shift+letter to a cell),
  "You may also move a card by clicking on it ..." (click to move);
* where piles sit on screen: "4 reserve slots (on the left)", "two top left, two top
  right", "at top in the center", "underneath the Foundation", "above or beside the
  tableau", "above the tableau" (the counts in those sentences are tested here).

Sentences with no behaviour to test (authorship, a claim about sources) are in
:data:`NOT_RULES`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from solitaire_core.cards import full_deck
from solitaire_core.deal import deal
from solitaire_core.moves import Move, PileKind
from solitaire_core.rules import apply, autoplay_moves, explain, is_legal, legal_moves
from solitaire_core.session import Session
from solitaire_core.state import GameState
from solitaire_core.textview import format_layout
from solitaire_core.variant import Rules

PROGRAM = "seahaven-towers-program-help.txt"
SEA = "sea-towers-rules.txt"
DOUBLE = "double-sea-towers-rules.txt"
AISLERIOT = "aisleriot-seahaven-help.xml"
README = "README.md"

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT.parent / "shared" / "rules"

CITATIONS: list[tuple[str, str, str]] = []
"""(file, fragment, test name) for every ``@cites``."""
DECISIONS: list[tuple[str, str]] = []
"""(decision fragment of shared/rules/README.md or a docs file, test name)."""

UI_SENTENCES = [
    (PROGRAM, "You may move a card by pressing the letter"),
    (PROGRAM, "Pressing shift along with the letter"),
    (PROGRAM, "You may also move a card by clicking on it"),
]
"""Sentences about keys and clicks: covered by the UI engineer's tests."""

NOT_RULES = [
    (PROGRAM, "Seahaven Towers is a game invented by Art Cabral."),
    (AISLERIOT, "Written by Rosanna Yuen"),
    (SEA, "The rules above reflect the consensus from official and widely accepted sources."),
]
"""Sentences that state no rule: authorship, a claim about the text's own sources."""


def cites(file: str, fragment: str, decision: str | None = None) -> Callable:
    """Record that the decorated test checks the sentence of ``file`` containing
    ``fragment``; ``decision`` is a fragment of shared/rules/README.md (or
    ``"docs/<page>: fragment"``) when the project decided otherwise."""

    def mark(test: Callable) -> Callable:
        CITATIONS.append((file, fragment, test.__name__))
        if decision:
            DECISIONS.append((decision, test.__name__))
        return test

    return mark


# --- helpers ----------------------------------------------------------------------------


def move(text: str) -> Move:
    return Move.parse(text)


def legal(state: GameState, text: str, cheat: bool = False) -> bool:
    return is_legal(state, move(text), cheat=cheat)


def texts(cards) -> list[str]:
    return [str(c) for c in cards]


@pytest.fixture
def sea_towers(rules_of) -> Rules:
    return rules_of("sea-towers")


@pytest.fixture
def sea_towers_any(rules_of) -> Rules:
    return rules_of("sea-towers", empty_columns="any")


LADDER = [
    "KC", "QC", "KD", "QD,JD", "KH", "QH,JH,TH", "KS", "QS,JS,TS,9S", "9C", "8C,7C,6C,5C,4C"
]  # fmt: skip
"""Ten Seahaven columns holding runs of 1 to 5 cards, each next to the card it builds on."""
FILLERS = ["AD", "2D", "3D", "4D"]


def run_counts(state: GameState) -> set[int]:
    """The card counts of the legal tableau-to-tableau moves."""
    return {m.count for m in legal_moves(state) if m.source.kind is m.target.kind}


def won_board(board, rules: Rules, last: str) -> GameState:
    """Every card on its foundation except ``last`` (a King), which is in column 1."""
    suits = "CDHS"
    founds = []
    for i in range(rules.foundations):
        suit, mark = suits[i % 4], "'" * (i // 4)
        top = "Q" if f"K{suit}{mark}" == last else "K"
        founds.append(f"A{suit}{mark}..{top}{suit}{mark}")
    return board(rules, [last], foundations=founds)


# === seahaven-towers-program-help.txt ===================================================


@cites(PROGRAM, "The game is made up of 10 tableau piles, 4 reserve slots")
def test_program_layout_has_10_columns_4_cells_4_foundations(seahaven) -> None:
    state = deal(seahaven, 1)
    assert (len(state.columns), len(state.cells), len(state.foundations)) == (10, 4, 4)


@cites(PROGRAM, "five cards are placed face up in each tableau pile, and two cards are placed")
def test_program_deal_five_per_column_two_cells(seahaven) -> None:
    state = deal(seahaven, 2)
    assert [len(c) for c in state.columns] == [5] * 10
    assert sum(c is not None for c in state.cells) == 2 and state.free_cells == 2


@cites(PROGRAM, "The goal of the game is to build the foundations from Ace to King.")
def test_program_goal_is_foundations_ace_to_king(seahaven, board) -> None:
    session = Session(seahaven, 1, state=won_board(board, seahaven, "KS"), autoplay="off")
    session.play("t1>f")
    assert session.is_won
    assert all(texts(f)[0][0] == "A" and texts(f)[-1][0] == "K" for f in session.state.foundations)


@cites(
    PROGRAM,
    "Only the top cards of the tableau and the cards in the reserve are available for play",
    decision="move limit free cells + 1",
)
def test_program_only_top_cards_and_reserve_cards_play(seahaven, board) -> None:
    state = board(seahaven, ["KS,5H,QD", "6H"], cells=["-", "JD"])
    assert explain(state, move("t1>t2x2")) == (
        "the top 2 cards of t1 are not a run (runs are built down in suit)"
    )
    assert legal(state, "t1>c1") and legal(state, "c2>c1")
    # The help's "one card at a time" is relaxed by its own shortcut (decision 1): a run
    # of up to free cells + 1 moves as one.
    run = ["KS", "QS,JS,TS"]
    assert legal(board(seahaven, run, cells=["AD", "2D"]), "t2>t1x3")
    assert not legal(board(seahaven, run, cells=["AD", "2D", "3D"]), "t2>t1x3")


@cites(PROGRAM, "for instance, 5 of spades onto 6 of spades")
def test_program_build_same_suit_one_lower(seahaven, board) -> None:
    state = board(seahaven, ["5S", "6S", "6H", "7S"])
    assert legal(state, "t1>t2")
    assert not legal(state, "t1>t3") and not legal(state, "t1>t4")


@cites(PROGRAM, "Empty tableau positions may be filled with kings.")
def test_program_empty_columns_take_kings(seahaven, board) -> None:
    state = board(seahaven, ["QS", "KH", "-"])
    assert legal(state, "t2>t3")
    assert explain(state, move("t1>t3")) == "an empty column takes a King or a run led by a King"


@cites(PROGRAM, "only four cards may be in the reserve at any one time")
def test_program_reserve_holds_four(seahaven, board) -> None:
    state = board(seahaven, ["5S", "9H"], cells=["AD", "2D", "3D"])
    after = apply(state, move("t1>c"))
    assert after.free_cells == 0
    assert explain(after, move("t2>c")) == "there is no free cell"
    assert not any(m.target.kind is PileKind.CELL for m in legal_moves(after))


@cites(PROGRAM, "Cards may also be moved to the foundation which builds upwards in suit")
def test_program_foundation_builds_up_in_suit(seahaven, board) -> None:
    state = board(seahaven, ["2S", "2H", "3S"], foundations=["AS"])
    assert legal(state, "t1>f1")
    assert not legal(state, "t2>f1") and not legal(state, "t3>f1")


@cites(PROGRAM, "cards will be moved to the foundation automatically")
def test_program_autoplay_and_foundation_out_of_play(seahaven, board) -> None:
    assert seahaven.autoplay == "all"
    session = Session(seahaven, 1, state=board(seahaven, ["KS,2S", "AS,9H"]))
    session.play("t2>c")
    assert session.score == 2  # A♠ and then 2♠ went up by themselves
    assert explain(session.state, move("f1>t2")) == (
        "cards on the foundations are out of play in this game"
    )


@cites(PROGRAM, "if the reserve is full, only one card can be moved at a time")
def test_program_shortcut_scales_with_open_reserve_places(seahaven, board) -> None:
    for open_cells in range(5):
        state = board(seahaven, LADDER, cells=FILLERS[: 4 - open_cells])
        assert max(run_counts(state)) == open_cells + 1


@cites(PROGRAM, 'Changing the Difficulty from "Normal" to "Cheat" allows you to move sequences')
def test_program_cheat_moves_any_size(seahaven, board) -> None:
    state = board(seahaven, ["KS", "QS,JS,TS,9S,8S,7S,6S"], cells=["AD", "2D", "3D", "4D"])
    assert not legal(state, "t2>t1x7")
    assert legal(state, "t2>t1x7", cheat=True)


@cites(PROGRAM, '"# of cheats" is the number of cards moved that couldn\'t have been moved')
def test_program_cheating_any_time_counts_cards(seahaven, board) -> None:
    state = board(seahaven, ["KS", "QS,JS,TS", "8H"], cells=["AD", "2D", "3D"])
    session = Session(seahaven, 1, state=state, autoplay="off")
    session.play("t3>c")  # a normal move first: the game is under way
    session.set_cheat(True)  # turned on in the middle of the game
    session.play("t2>t1x3")
    assert session.cheats == 3


@cites(PROGRAM, 'undoing does not roll back "# of cheats"')
def test_program_undo_keeps_cheats(seahaven, board) -> None:
    state = board(seahaven, ["KS", "QS,JS,TS"], cells=["AD", "2D", "3D", "4D"])
    session = Session(seahaven, 1, state=state, autoplay="off", cheat=True)
    session.play("t2>t1x3")
    session.undo()
    session.restart()
    assert session.cheats == 3 and session.moves == 0


# === sea-towers-rules.txt ===============================================================


@cites(SEA, "move all 52 cards from the tableau and reserve (cells) to the four foundation")
def test_sea_goal_52_cards_four_foundations(sea_towers, board) -> None:
    session = Session(sea_towers, 1, state=won_board(board, sea_towers, "KH"), autoplay="off")
    assert not session.is_won
    session.play("t1>f")
    assert session.is_won and session.score == 52 and len(session.state.foundations) == 4


@cites(SEA, "Deck: Use one standard 52-card deck.")
def test_sea_one_deck(sea_towers) -> None:
    assert sea_towers.decks == 1
    assert Counter(deal(sea_towers, 3).all_cards()) == Counter(full_deck(1))


@cites(SEA, "Deal 50 cards face-up into 10 tableau columns, each containing 5 cards.")
def test_sea_deal_50_into_10_columns(sea_towers) -> None:
    state = deal(sea_towers, 4)
    assert [len(c) for c in state.columns] == [5] * 10


@cites(SEA, "All tableau cards are always face-up and visible.")
@cites(SEA, "All Cards Face-Up: All cards are always visible")
def test_sea_every_card_is_shown(sea_towers) -> None:
    state = deal(sea_towers, 5)
    shown = format_layout(state).split()
    for card in state.all_cards():
        assert str(card) in shown or f"[{card}]" in shown


@cites(
    SEA,
    "Place the remaining 2 cards face-up into two of the four available reserve spaces",
    decision="middle two cells dealt",
)
def test_sea_two_cards_into_the_middle_cells(sea_towers) -> None:
    state = deal(sea_towers, 6)
    assert [c is not None for c in state.cells] == [False, True, True, False]


@cites(SEA, "Four foundation piles are positioned above or beside the tableau.")
@cites(SEA, "All foundations start empty.")
def test_sea_four_empty_foundations(sea_towers) -> None:
    state = deal(sea_towers, 7)
    assert state.foundations == ((),) * 4


@cites(SEA, "Tableau: The main play area with 10 columns of face-up cards.")
def test_sea_ten_columns(sea_towers) -> None:
    assert sea_towers.columns == 10 and len(deal(sea_towers, 8).columns) == 10


@cites(SEA, "Four single-card holding spaces above the tableau, two of which start occupied.")
def test_sea_four_single_card_cells(sea_towers, board) -> None:
    assert sea_towers.cells == 4
    assert deal(sea_towers, 9).free_cells == 2
    state = board(sea_towers, ["KS,QD"], cells=["5H"])
    assert explain(state, move("t1>c1")) == "c1 is occupied: a cell holds one card"


@cites(SEA, "Foundations: Four piles, one for each suit, to be built from Ace to King.")
def test_sea_each_foundation_holds_one_suit(sea_towers, board) -> None:
    state = board(sea_towers, ["2H", "AH"], foundations=["AS"])
    assert not legal(state, "t1>f1")
    after = apply(state, move("t2>f"))
    assert texts(after.foundations[1]) == ["AH"]
    assert texts(apply(after, move("t1>f")).foundations[1]) == ["AH", "2H"]


@cites(SEA, "Build up in suit, starting with Ace and proceeding in ascending order to King")
def test_sea_foundation_from_ace_upward(sea_towers, board) -> None:
    state = board(sea_towers, ["2C", "AC", "3C"])
    assert not legal(state, "t1>f1")
    assert (
        explain(state, move("t1>f1")) == "2\u2663 cannot start f1: a foundation starts with an Ace"
    )
    up = apply(apply(state, move("t2>f1")), move("t1>f1"))
    assert legal(up, "t3>f1") and texts(apply(up, move("t3>f1")).foundations[0]) == [
        "AC",
        "2C",
        "3C",
    ]


@cites(SEA, "Tableau Building: Build down in the same suit only.")
def test_sea_build_down_in_suit(sea_towers, board) -> None:
    state = board(sea_towers, ["9D", "TD", "TC", "8D"])
    assert legal(state, "t1>t2") and not legal(state, "t1>t3") and not legal(state, "t1>t4")


@cites(SEA, "For example, 7\u2660 can only be placed on 8\u2660, not on 8\u2665 or 8\u2663.")
def test_sea_seven_of_spades_example(sea_towers, board) -> None:
    state = board(sea_towers, ["7S", "8S", "8H", "8C"])
    assert [str(m) for m in legal_moves(state) if m.target.kind is PileKind.TABLEAU] == ["t1>t2"]
    assert "7\u2660 cannot go on 8\u2665" in (explain(state, move("t1>t3")) or "")


@cites(SEA, "Only the top card of each tableau column or any card from a reserve cell may be")
def test_sea_top_cards_and_cells_are_playable(sea_towers, board) -> None:
    state = board(sea_towers, ["KS,2D,9H", "TH"], cells=["3D"])
    assert legal(state, "t1>t2")  # the top card
    assert legal(state, "c1>c2")  # a card from a cell
    assert not legal(state, "t1>c2x2")  # not the card under it


@cites(
    SEA,
    'unless using a "supermove" shortcut allowed by some digital implementations',
    decision="Sea Towers is Seahaven's layout with a player-visible option",
)
def test_sea_supermove_shortcut_by_option(sea_towers, sea_towers_any, board) -> None:
    cols = ["KS", "QS,JS,TS,9S", "-"] + ["5C"] * 7
    king = board(sea_towers, cols, cells=["AD", "2D", "3D"])
    assert "at most 2 cards" in (explain(king, move("t2>t1x4")) or "")  # free cells + 1
    anyc = board(sea_towers_any, cols, cells=["AD", "2D", "3D"])
    assert legal(anyc, "t2>t1x4")  # (1 + 1) x 2^(1 empty column)
    assert legal(anyc, "t2>t3x2") and not legal(anyc, "t2>t3x3")  # into it: 2 x 2^0


@cites(
    SEA,
    "Only Kings (or sequences starting with a King, if allowed by the implementation)",
    decision="King or King-led run into empty columns",
)
def test_sea_kings_and_king_led_runs_fill_empty_columns(sea_towers, board) -> None:
    state = board(sea_towers, ["KD,QD", "JS", "-"], cells=["AC"])
    assert legal(state, "t1>t3x2") and legal(state, "t1>c2")
    assert not legal(state, "t2>t3")


@cites(SEA, "Any empty reserve cell may be filled with any single card from the tableau or")
def test_sea_cells_take_any_single_card(sea_towers, board) -> None:
    state = board(sea_towers, ["KS,QS", "2D"], cells=["9H"])
    assert legal(state, "t1>c2") and legal(state, "t2>c3") and legal(state, "c1>c4")
    assert explain(state, move("t1>c2x2")) == "only one card at a time goes to a cell"


@cites(SEA, "Each cell can hold only one card at a time.")
@cites(SEA, "Any card may be placed into an empty reserve cell, but only one card per cell")
def test_sea_cell_holds_one_card(sea_towers, board) -> None:
    state = board(sea_towers, ["5H", "KC"], cells=["AD"])
    assert explain(state, move("t1>c1")) == "c1 is occupied: a cell holds one card"
    assert legal(state, "t2>c2")  # any card, even a King


@cites(SEA, "Cards in reserve may be moved back to the tableau or to the foundations at any")
def test_sea_cell_cards_go_back(sea_towers, board) -> None:
    state = board(sea_towers, ["6H"], cells=["5H", "3C"], foundations=["AC..2C"])
    assert legal(state, "c1>t1") and legal(state, "c2>f1")


@cites(SEA, "Move a top card from a tableau column to another tableau column (if it builds")
def test_sea_turn_tableau_to_tableau(sea_towers, board) -> None:
    state = board(sea_towers, ["KH,4C", "5C", "5D"])
    assert legal(state, "t1>t2") and not legal(state, "t1>t3")
    assert texts(apply(state, move("t1>t2")).columns[1]) == ["5C", "4C"]


@cites(SEA, "Move a top card from a tableau column to a foundation (if it is the next")
def test_sea_turn_tableau_to_foundation(sea_towers, board) -> None:
    state = board(sea_towers, ["4C", "6C"], foundations=["AC..3C"])
    assert legal(state, "t1>f1") and not legal(state, "t2>f1")


@cites(SEA, "Move a card from a tableau column or reserve cell into an empty reserve cell")
def test_sea_turn_into_an_empty_cell(sea_towers, board) -> None:
    state = board(sea_towers, ["4C"], cells=["9D"])
    assert legal(state, "t1>c2") and legal(state, "c1>c2")
    full = board(sea_towers, ["4C"], cells=["9D", "8D", "7D", "6D"])
    assert not legal(full, "t1>c") and not legal(full, "c1>c2")


@cites(SEA, "Move a card from a reserve cell to a tableau column or to a foundation, following")
def test_sea_turn_from_a_cell(sea_towers, board) -> None:
    state = board(sea_towers, ["9D", "9C"], cells=["8D", "2S"], foundations=["AS"])
    assert legal(state, "c1>t1") and not legal(state, "c1>t2")
    assert legal(state, "c2>f1") and not legal(state, "c1>f1")


@cites(SEA, "No new cards are introduced after the initial deal; there is no stock or redeal.")
@cites(SEA, "No Redeal: There is no stock or redeal.")
def test_sea_no_stock_no_redeal(sea_towers) -> None:
    assert not sea_towers.has_stock  # no stock or waste pile exists
    session = Session(sea_towers, 10)
    cards = Counter(session.state.all_cards())
    for _ in range(30):
        moves = legal_moves(session.state)
        assert not {m.source.kind for m in moves} & {PileKind.STOCK, PileKind.WASTE}
        if not moves:
            break
        session.play(moves[-1])
        assert Counter(session.state.all_cards()) == cards
    session.restart()
    assert session.state == Session(sea_towers, 10).state  # the same deal, not a new one


@cites(
    SEA,
    "If no legal moves are available, the game is at a standstill and may be lost unless",
    decision="docs/architecture.md: productive",
)
@cites(SEA, "Once all moves are exhausted, the game ends.")
def test_sea_standstill_and_undo(sea_towers, board) -> None:
    state = board(sea_towers, ["AS,2D,9H", "7C"], cells=["QH", "JC", "8S"])
    session = Session(sea_towers, 1, state=state)
    session.play("t1>c")  # fills the last cell: nothing can move any more
    assert legal_moves(session.state) == []
    assert session.no_useful_move() and not session.is_won
    session.undo()  # the move is reversed: play goes on
    assert legal_moves(session.state)


@cites(SEA, "Win: The game is won when all 52 cards have been moved to the four foundation")
def test_sea_win(sea_towers, board) -> None:
    state = won_board(board, sea_towers, "KC")
    assert not state.is_won
    assert apply(state, move("t1>f")).is_won


@cites(
    SEA,
    "The game is lost or unwinnable if no further legal moves are possible",
    decision="docs/architecture.md: productive",
)
def test_sea_lost_when_nothing_can_move(sea_towers, board) -> None:
    state = board(
        sea_towers,
        ["AS,9H", "7C", "5H", "KS", "6D", "TC", "2H", "4S", "7S", "KD"],
        cells=["QH", "JC", "8S", "3D"],
    )
    session = Session(sea_towers, 1, state=state)
    assert legal_moves(session.state) == [] and not session.is_won
    assert session.no_useful_move()


@cites(
    SEA,
    "Only a King (or a valid descending sequence starting with a King, if allowed",
    decision="King or King-led run into empty columns",
)
def test_sea_filling_empty_columns_edge_case(sea_towers, board) -> None:
    state = board(sea_towers, ["KH,QH,JH", "QC,JC", "-"])
    assert legal(state, "t1>t3x3")  # the whole run, led by its King
    assert not legal(state, "t1>t3x2") and not legal(state, "t1>t3")  # led by Q♥, J♥
    assert not legal(state, "t2>t3x2")


@cites(SEA, "Some digital versions allow moving a sequence of cards in a single action if")
@cites(SEA, "does not change the underlying rule that only one card may be moved at a time")
def test_sea_supermove_equals_single_moves_through_cells(sea_towers, board) -> None:
    state = board(sea_towers, ["KS", "QS,JS,TS"], cells=["AD", "2D"])
    at_once = apply(state, move("t2>t1x3"))
    one_by_one = state
    for step in ("t2>c", "t2>c", "t2>t1", "c4>t1", "c3>t1"):
        one_by_one = apply(one_by_one, move(step))
    assert at_once == one_by_one


@cites(SEA, '"Sea Towers" is also known as "Seahaven Towers"')
def test_sea_towers_is_seahaven_by_default(sea_towers, seahaven) -> None:
    for field in ("decks", "columns", "cells", "foundations", "tableau_build", "empty_rule"):
        assert getattr(sea_towers, field) == getattr(seahaven, field)
    assert sea_towers.move_limit == seahaven.move_limit and sea_towers.deal == seahaven.deal
    assert deal(sea_towers, 123).to_text() == deal(seahaven, 123).to_text()


# === double-sea-towers-rules.txt ========================================================


@cites(DOUBLE, "move all cards from the tableau and cells to the eight foundation piles")
def test_double_goal_eight_foundations(double_sea_towers, board) -> None:
    assert double_sea_towers.foundations == 8 and double_sea_towers.card_count == 104
    state = won_board(board, double_sea_towers, "KD'")
    assert not state.is_won and apply(state, move("t1>f")).is_won


@cites(DOUBLE, "Each foundation pile must start with an Ace.")
def test_double_foundation_starts_with_ace(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["2S", "AS'"])
    assert not legal(state, "t1>f1") and legal(state, "t2>f1")


@cites(DOUBLE, "Foundations are built up by suit in ascending order")
def test_double_foundation_up_by_suit_either_deck(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["3H'", "3D", "2H'"], foundations=["AH..2H"])
    assert legal(state, "t1>f1")  # the other deck's 3♥ continues the hearts
    assert not legal(state, "t2>f1") and not legal(state, "t3>f1")


@cites(
    DOUBLE,
    "Tableau columns are built down by the same suit",
    decision="Double Sea Towers: 2 decks, 8 foundations",
)
def test_double_build_down_in_suit(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["7S", "8S'", "8H"])
    assert legal(state, "t1>t2") and not legal(state, "t1>t3")


@cites(DOUBLE, "Only the top card of each tableau column may be moved at any time.")
def test_double_only_top_card(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["KS,QS", "KS'"])
    assert legal(state, "t1>t2")
    assert explain(state, move("t1>t3x2")) == "only one card moves at a time in Double Sea Towers"


@cites(DOUBLE, "Any card may be moved to an empty tableau space.")
def test_double_any_card_to_empty_column(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["KS,4D", "9C"], cells=["2H"])
    assert legal(state, "t1>t3") and legal(state, "t2>t3") and legal(state, "c1>t3")


@cites(DOUBLE, "Each cell can hold only one card.")
def test_double_cell_holds_one(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["4D"], cells=["9C"])
    assert not legal(state, "t1>c1") and legal(state, "t1>c2")


@cites(DOUBLE, "Any single card may be moved to an empty cell.")
def test_double_any_card_to_a_cell(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["KS,QS", "AD'"], cells=["-", "9C"])
    assert legal(state, "t1>c1") and legal(state, "t2>c1") and legal(state, "c2>c1")
    assert not legal(state, "t1>c1x2")


@cites(DOUBLE, "Cards in cells can be played back to the tableau or to the foundations.")
@cites(DOUBLE, "Move a card from a cell back to the tableau or foundation")
def test_double_cell_cards_play_back(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["5C'"], cells=["4C", "3D"], foundations=["AD..2D"])
    assert legal(state, "c1>t1") and legal(state, "c2>f1") and legal(state, "c1>t2")


@cites(DOUBLE, "Only one card may be moved at a time, whether from tableau to tableau")
@cites(DOUBLE, "Sequences of cards cannot be moved together as a group")
def test_double_one_card_per_move(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["KH", "QH',JH", "-"], foundations=["AH..TH"])
    assert double_sea_towers.move_limit == "one"
    assert not legal(state, "t2>t1x2") and not legal(state, "t2>t3x2")
    assert legal(state, "t2>f1") and not legal(state, "t2>f1x2")  # one at a time to f too
    assert all(m.count == 1 for m in legal_moves(state))


@cites(DOUBLE, "Move the top card of any tableau column to another tableau column (if it")
def test_double_turn_tableau_to_tableau(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["9C", "TC'", "TD"])
    assert legal(state, "t1>t2") and not legal(state, "t1>t3")


@cites(DOUBLE, "Move the top card of any tableau column or a card from a cell to a foundation")
def test_double_turn_to_foundation(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["AC"], cells=["AC'"])
    assert legal(state, "t1>f1") and legal(state, "c1>f1")
    after = apply(state, move("t1>f"))
    assert legal(after, "c1>f2") and not legal(after, "c1>f1")


@cites(DOUBLE, "Move a card to an empty cell (if the cell is vacant).")
def test_double_turn_to_vacant_cell(double_sea_towers, board) -> None:
    cells = ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D"]
    state = board(double_sea_towers, ["9C"], cells=cells)
    assert legal(state, "t1>c9") and not legal(state, "t1>c8")
    assert not legal(apply(state, move("t1>c9")), "c1>c9")


@cites(DOUBLE, "No Stock or Reserve: There is no stock or reserve pile; all cards are in play")
def test_double_all_cards_dealt(double_sea_towers) -> None:
    state = deal(double_sea_towers, 1)
    assert Counter(state.all_cards()) == Counter(full_deck(2))
    assert sum(map(len, state.columns)) + (9 - state.free_cells) == 104


@cites(DOUBLE, "No Redeal: Once cards are moved, there is no redeal or reshuffling.")
def test_double_no_redeal(double_sea_towers) -> None:
    session = Session(double_sea_towers, 2)
    first = session.state
    session.play(legal_moves(session.state)[0])
    session.restart()
    assert session.state == first == Session(double_sea_towers, 2).state


@cites(DOUBLE, "If no legal moves remain (no cards can be moved to foundations, tableau, or")
def test_double_blocked(double_sea_towers, board) -> None:
    cells = ["QH", "JC", "8S", "3D", "5C", "7C", "9C", "JH"]
    state = board(double_sea_towers, ["AS,2D,9H", *["KD"] * 10], cells=cells)
    session = Session(double_sea_towers, 1, state=state)
    assert legal_moves(session.state)  # 9♥ may still go to the last cell
    session.play("t1>c")
    assert legal_moves(session.state) == [] and session.no_useful_move()
    session.undo()
    assert legal_moves(session.state)


@cites(DOUBLE, "Double Sea Towers Solitaire is distinct from the single-deck Sea Towers")
@cites(DOUBLE, "specifically uses two decks, 11 tableau columns, 9 cells, and allows any card")
def test_double_differs_from_sea_towers(double_sea_towers, sea_towers) -> None:
    assert (sea_towers.decks, sea_towers.columns, sea_towers.cells) == (1, 10, 4)
    assert sea_towers.empty_rule == "king"
    assert (double_sea_towers.decks, double_sea_towers.columns, double_sea_towers.cells) == (
        2,
        11,
        9,
    )
    assert double_sea_towers.empty_rule == "any"


# === aisleriot-seahaven-help.xml ========================================================


@cites(AISLERIOT, "Type of Deck: Standard Deck")
def test_aisleriot_standard_deck(seahaven) -> None:
    assert Counter(deal(seahaven, 11).all_cards()) == Counter(full_deck(1))


@cites(AISLERIOT, "Foundation: Four piles")
@cites(AISLERIOT, "Built from Ace to King in suit.")
def test_aisleriot_four_foundations_ace_to_king(seahaven, board) -> None:
    assert seahaven.foundations == 4
    state = board(seahaven, ["KS", "QS"], foundations=["AS..JS"])
    after = apply(apply(state, move("t2>f1")), move("t1>f1"))
    assert texts(after.foundations[0])[0] == "AS" and texts(after.foundations[0])[-1] == "KS"


@cites(AISLERIOT, "Reserves: Four piles at top in the center.")
@cites(AISLERIOT, "Each reserve can only hold one card.")
def test_aisleriot_four_reserves_one_card_each(seahaven, board) -> None:
    assert seahaven.cells == 4
    state = board(seahaven, ["9C"], cells=["AD"])
    assert not legal(state, "t1>c1") and legal(state, "t1>c2")


@cites(AISLERIOT, "Two of the reserves are each dealt one card to start.")
def test_aisleriot_two_reserves_dealt(seahaven) -> None:
    assert sum(c is not None for c in deal(seahaven, 12).cells) == 2


@cites(AISLERIOT, "Tableau: Ten piles underneath the Foundation and Reserves.")
@cites(AISLERIOT, "The other fifty cards are dealt face up here with five in each slot.")
def test_aisleriot_ten_piles_of_five(seahaven) -> None:
    assert [len(c) for c in deal(seahaven, 13).columns] == [5] * 10


@cites(AISLERIOT, "Move all cards to the Foundation piles.")
def test_aisleriot_goal(seahaven, board) -> None:
    state = won_board(board, seahaven, "KD")
    assert not state.is_won and apply(state, move("t1>f")).is_won


@cites(AISLERIOT, "The Tableau is built down by suit.")
def test_aisleriot_built_down_by_suit(seahaven, board) -> None:
    state = board(seahaven, ["JC", "QC", "QS"])
    assert legal(state, "t1>t2") and not legal(state, "t1>t3")


@cites(AISLERIOT, "Only the top card or build of cards can be moved.")
def test_aisleriot_top_card_or_build(seahaven, board) -> None:
    state = board(seahaven, ["KH,QH,JH", "9D,QC", "-"])
    assert legal(state, "t1>c")  # the top card
    assert legal(state, "t1>t3x3")  # the whole build
    assert not legal(state, "t2>c1x2")  # 9♦ under Q♣ is no build


@cites(AISLERIOT, "A build of cards can only be moved if the number of cards in the build is")
def test_aisleriot_build_limit(seahaven, board) -> None:
    for free in range(5):
        state = board(seahaven, LADDER, cells=FILLERS[: 4 - free])
        assert run_counts(state) == set(range(1, free + 2))


@cites(AISLERIOT, "Empty spaces in the Tableau can only be filled with a King or a build")
def test_aisleriot_empty_king_or_king_build(seahaven, board) -> None:
    state = board(seahaven, ["KS,QS", "QH", "-"])
    assert legal(state, "t1>t3x2")  # the build led by K♠
    assert not legal(state, "t1>t3") and not legal(state, "t2>t3")  # Queens


@cites(AISLERIOT, "Foundations are built up by suit from Ace to King.")
def test_aisleriot_foundations_up_by_suit(seahaven, board) -> None:
    state = board(seahaven, ["3D", "3H"], foundations=["AD..2D"])
    assert legal(state, "t1>f1") and not legal(state, "t2>f1")


@cites(
    AISLERIOT,
    "Although cards in the Foundations are technically still in play",
    decision="are out of play there",
)
def test_aisleriot_foundation_cards_stay_up(seahaven, board) -> None:
    assert seahaven.foundation_return is False
    state = board(seahaven, ["-", "6S"], foundations=["AH..5H"])
    assert not legal(state, "f1>t2") and not legal(state, "f1>c1")
    assert not any(m.source.kind is PileKind.FOUNDATION for m in legal_moves(state))


@cites(AISLERIOT, "Any top card in the Tableau can be placed in an empty Reserve slot.")
def test_aisleriot_top_card_to_empty_reserve(seahaven, board) -> None:
    state = board(seahaven, ["KS,7H", "2C"], cells=["-", "8D"])
    assert legal(state, "t1>c1") and legal(state, "t2>c3")
    assert not legal(state, "t1>c2")


@cites(AISLERIOT, "These cards are available for play back into the Tableau or on to a")
def test_aisleriot_reserve_cards_play_back(seahaven, board) -> None:
    state = board(seahaven, ["8H"], cells=["7H", "AS"])
    assert legal(state, "c1>t1") and legal(state, "c2>f1")


@cites(AISLERIOT, "sequences of the same suit can be moved onto the matching Foundation pile")
@cites(AISLERIOT, "This is especially useful at the end of the game.")
def test_aisleriot_runs_go_up_in_one_action(seahaven, board) -> None:
    assert seahaven.foundation_runs
    state = board(seahaven, ["KS,QS,JS,TS"], foundations=["AS..9S"])
    after = apply(state, move("t1>f1x4"))
    assert after.columns[0] == () and texts(after.foundations[0])[-1] == "KS"
    mixed = board(seahaven, ["KH,QS,JS"], foundations=["AS..TS"])
    assert legal(mixed, "t1>f1x2") and not legal(mixed, "t1>f1x3")


@cites(AISLERIOT, "Each card placed on to the Foundation piles scores one point.")
def test_aisleriot_one_point_per_card(seahaven, board) -> None:
    state = board(seahaven, ["KS,3C", "2C"], cells=["AC"], foundations=["AD..4D"])
    session = Session(seahaven, 1, state=state, autoplay="off")
    assert session.score == 4
    session.play("c1>f")
    session.play("t2>f")
    assert session.score == 6
    session.undo()
    assert session.score == 5


@cites(AISLERIOT, "Maximum possible score: 52")
def test_aisleriot_maximum_score(seahaven, board) -> None:
    session = Session(seahaven, 1, state=won_board(board, seahaven, "KS"))
    assert session.is_won and session.score == 52  # autoplay finished the game


@cites(AISLERIOT, "Move any card you can on to the Foundations as soon as possible.")
@cites(AISLERIOT, "Leaving them around can only hinder your movement.")
def test_aisleriot_cards_go_up_as_soon_as_possible(seahaven, board) -> None:
    state = board(seahaven, ["KS,3C", "2C,9D"], cells=["AC"])
    after, moves = autoplay_moves(state)
    assert [str(m) for m in moves] == ["c1>f1"]
    session = Session(seahaven, 1, state=state)
    session.play("t2>c")  # uncovers 2♣: it and then 3♣ follow the A♣ up
    assert session.score == 3


# === the citations themselves ===========================================================


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _units(name: str, text: str) -> list[str]:
    """Paragraph-like units: XML paras and table rows, or text lines joined while a
    sentence continues on the next line."""
    if name.endswith(".xml"):
        root = ET.fromstring(text.split("]>", 1)[1])
        out = []
        for element in root.iter():
            if element.tag == "row":
                out.append(": ".join(_norm("".join(e.itertext())) for e in element.iter("entry")))
            elif element.tag == "para":
                out.append(_norm("".join(element.itertext())))
        return out
    units, current = [], []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            if current:
                units.append(" ".join(current))
                current = []
            continue
        current.append(line)
        if re.search(r"[.:!?)]$", line):
            units.append(" ".join(current))
            current = []
    if current:
        units.append(" ".join(current))
    return units


def sentences(name: str) -> list[str]:
    """The sentences of a rules text (headings and lead-ins ending in ':' left out)."""
    text = (RULES_DIR / name).read_text("utf-8")
    out = []
    for unit in map(_norm, _units(name, text)):
        if unit.endswith(":"):
            continue
        out += [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(\"])", unit) if re.search("[a-z]", s)]
    return out


needs_texts = pytest.mark.skipif(
    not RULES_DIR.is_dir(), reason="shared/rules is not beside the project"
)
TEXT_FILES = [PROGRAM, SEA, DOUBLE, AISLERIOT]


MANIFEST = ROOT / "tests" / "data" / "rules_texts_manifest.json"
"""What the coverage checks need from the rules texts, kept without their words: per file,
one entry per sentence (a hash, and the fragments cited or listed that cover it) and the
hashes of every 8-word window. It lets those checks run where shared/rules is absent (CI);
where it is present, :func:`test_manifest_matches_the_texts` keeps it current. Regenerate
with ``UPDATE_RULES_MANIFEST=1 pytest tests/test_rules_texts.py``."""


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def _fragments(name: str) -> list[str]:
    out = [f for file, f, _ in CITATIONS if file == name]
    return out + [f for file, f in UI_SENTENCES + NOT_RULES if file == name]


def _windows(sentence: str) -> list[str]:
    words = _words(sentence).split()
    return [" ".join(words[i : i + 8]) for i in range(len(words) - 7)]


def build_manifest() -> dict[str, dict[str, object]]:
    """The manifest computed from the rules texts (needs shared/rules)."""
    manifest: dict[str, dict[str, object]] = {}
    for name in TEXT_FILES:
        fragments = _fragments(name)
        manifest[name] = {
            "sentences": [
                {"sha": _hash(s), "covered_by": sorted(f for f in fragments if f in s)}
                for s in sentences(name)
            ],
            "windows": sorted({_hash(w) for s in sentences(name) for w in _windows(s)}),
        }
    return manifest


def load_manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MANIFEST.read_text("utf-8"))
    return data


@needs_texts
def test_manifest_matches_the_texts() -> None:
    fresh = build_manifest()
    if os.environ.get("UPDATE_RULES_MANIFEST"):
        MANIFEST.parent.mkdir(exist_ok=True)
        MANIFEST.write_text(json.dumps(fresh, indent=1, sort_keys=True) + "\n", "utf-8")
    assert load_manifest() == fresh, "run UPDATE_RULES_MANIFEST=1 pytest tests/test_rules_texts.py"


@pytest.mark.parametrize("name", TEXT_FILES)
def test_every_sentence_is_cited_or_listed(name: str) -> None:
    if RULES_DIR.is_dir():
        fragments = _fragments(name)
        uncovered = [s for s in sentences(name) if not any(f in s for f in fragments)]
        assert not uncovered, f"sentences of {name} without a test: {uncovered}"
    # From the manifest too (the only source where shared/rules is absent): every sentence
    # is covered by a fragment that is still cited or listed in this module.
    known = set(_fragments(name))
    entries = load_manifest()[name]["sentences"]
    assert entries, f"the manifest lists no sentence of {name}"
    uncovered_shas = [e["sha"] for e in entries if not known & set(e["covered_by"])]
    assert not uncovered_shas, f"{len(uncovered_shas)} sentences of {name} lost their test"


@needs_texts
def test_every_fragment_is_in_one_sentence_of_its_file() -> None:
    problems = []
    for file, fragment, test in CITATIONS + [(f, s, "listed") for f, s in UI_SENTENCES + NOT_RULES]:
        hits = [s for s in sentences(file) if fragment in s]
        if len(hits) != 1:
            problems.append((test, file, fragment, len(hits)))
    assert not problems


@needs_texts
def test_every_decision_is_written_down() -> None:
    readme = _norm((RULES_DIR / README).read_text("utf-8"))
    for decision, test in DECISIONS:
        if decision.startswith("docs/"):
            page, fragment = decision.split(": ", 1)
            assert fragment in (ROOT / page).read_text("utf-8"), (test, decision)
        else:
            assert decision in readme, (test, decision)


def test_no_document_copies_a_rules_text_sentence() -> None:
    """Docs describe the rules in our own words: no run of 8 words from a rules text
    (checked against the manifest's window hashes, so it runs without shared/rules)."""
    forbidden = {h for entry in load_manifest().values() for h in entry["windows"]}
    assert len(forbidden) > 100
    copied = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        words = _words(page.read_text("utf-8")).split()
        for i in range(len(words) - 7):
            window = " ".join(words[i : i + 8])
            if _hash(window) in forbidden:
                copied.append((page.name, window))
    assert not copied


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def test_citations_name_real_tests() -> None:
    names = [t for _, _, t in CITATIONS]
    assert len(names) >= 80
    module = globals()
    for name in set(names):
        assert name.startswith("test_") and callable(module[name])
