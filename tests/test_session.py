"""The session: undo/redo, restart, counters, score, autoplay, won, Cheat, and the
"no useful move left" verdict.

A move is *productive* when some line of legal moves starting with it puts another card on
a foundation (docs/architecture.md, "Productive moves"); the verdict fires only when no
legal move is productive.
"""

from __future__ import annotations

import random

import pytest

from solitaire_core.errors import IllegalMoveError
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply, autoplay_moves, legal_moves
from solitaire_core.session import Session

# A Seahaven position with moves left but none productive: the only Ace (A♠) lies under
# 2♦ and 9♥, one cell is free, and no card present can take 2♦ or 9♥; every other move
# only shuffles cards between a column, the free cell and empty columns.
STUCK_COLUMNS = ["AS,2D,9H", "3C,7C", "5H,JD", "KS", "6D", "TC", "2H", "4S", "7S", "KD"]
STUCK_CELLS = ["QH", "JC", "8S"]


@pytest.fixture
def stuck(seahaven, board):
    return board(seahaven, STUCK_COLUMNS, cells=STUCK_CELLS)


def session_at(state, **kwargs) -> Session:
    return Session(state.rules, 1, state=state, **kwargs)


def test_stuck_position_gets_the_verdict_although_moves_remain(stuck) -> None:
    session = session_at(stuck)
    assert legal_moves(session.state)
    assert session.no_useful_move()
    assert not session.is_won


@pytest.mark.parametrize(
    ("change", "line"),
    [
        # one move: 2♦ to the free cell uncovers A♠, which autoplay sends up
        ({"columns": {0: "AS,2D"}}, ["t1>c"]),
        # two moves: a second free cell lets 9♥ and 2♦ both step aside
        ({"cells": ["QH", "JC"]}, ["t1>c", "t1>c"]),
        # two moves: a T♥ takes the 9♥, then 2♦ goes to the free cell
        ({"columns": {5: "TH"}}, ["t1>t6", "t1>c"]),
        # one move: the 2♣ is on the foundation already and 7♣ covers the 3♣
        ({"foundations": ["AC..2C"]}, ["t2>c"]),
    ],
)
def test_verdict_never_fires_one_productive_line_away(seahaven, board, change, line) -> None:
    columns = list(STUCK_COLUMNS)
    for index, pile in change.get("columns", {}).items():
        columns[index] = pile
    state = board(
        seahaven,
        columns,
        cells=change.get("cells", STUCK_CELLS),
        foundations=change.get("foundations", ()),
    )
    session = session_at(state)
    assert not session.no_useful_move()
    score = session.score
    for text in line:  # the line really is productive
        session.play(text)
    assert session.score > score


def test_a_card_that_fits_a_foundation_is_productive_when_autoplay_is_off(seahaven, board) -> None:
    state = board(seahaven, STUCK_COLUMNS, cells=["QH", "JC", "8H"], foundations=["AH..7H"])
    session = session_at(state, autoplay="off")
    assert not session.no_useful_move()
    assert session.play("c3>f").after.foundation_cards == 8


def test_only_a_cheat_run_is_productive(seahaven, board) -> None:
    # Every cell full: normally one card moves, so 6♦5♦ cannot reach 7♦; in Cheat it can.
    state = board(
        seahaven,
        ["AS,6D,5D", "7D", "KS", "TC", "2H", "4S", "7S", "KD", "9C", "JH"],
        cells=["QH", "JC", "8S", "3H"],
    )
    assert session_at(state).no_useful_move()
    assert not session_at(state, cheat=True).no_useful_move()


def test_verdict_is_never_given_when_a_single_move_is_productive() -> None:
    rules = get_variant("seahaven").resolve()
    for number in range(1, 6):
        rng = random.Random(number)
        session = Session(rules, number)
        for _ in range(40):
            moves = legal_moves(session.state)
            productive = any(
                autoplay_moves(apply(session.state, m))[0].foundation_cards > session.score
                for m in moves
            )
            if productive:
                assert not session.no_useful_move(budget=200)
            if not moves:
                assert session.no_useful_move()
                break
            session.play(rng.choice(moves))


def test_a_won_game_is_not_stuck(seahaven, board) -> None:
    state = board(seahaven, ["KS"], foundations=["AC..KC", "AD..KD", "AH..KH", "AS..QS"])
    session = session_at(state, autoplay="off")
    assert not session.is_won
    session.play("t1>f")
    assert session.is_won and session.score == 52
    assert not session.no_useful_move()
    assert legal_moves(session.state) == []


# --- history ----------------------------------------------------------------------------


def play_some(session: Session, count: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        moves = legal_moves(session.state)
        if not moves:
            break
        texts.append(str(session.play(rng.choice(moves)).move))
    return texts


def test_undo_is_unlimited_and_redo_replays_exactly(seahaven) -> None:
    session = Session(seahaven, 3)
    start = session.state
    texts = play_some(session, 30)
    assert len(texts) >= 20
    seen = [session.initial_state] + [t.after for t in session.history]
    assert session.moves == len(texts)
    for expected in reversed(seen[:-1]):
        assert session.undo() is not None
        assert session.state == expected
    assert session.state == start and session.moves == 0
    assert session.undo() is None and not session.can_undo
    for expected in seen[1:]:
        session.redo()
        assert session.state == expected
    assert session.redo() is None and not session.can_redo
    assert session.move_texts() == texts


def test_a_new_move_clears_redo(seahaven) -> None:
    session = Session(seahaven, 4)
    play_some(session, 3)
    session.undo()
    assert session.can_redo
    session.play(legal_moves(session.state)[0])
    assert not session.can_redo


def test_restart_returns_to_the_deal_and_can_be_redone(seahaven) -> None:
    session = Session(seahaven, 5)
    play_some(session, 10)
    end, moves = session.state, session.moves
    session.restart()
    assert session.state == session.initial_state and session.moves == 0
    for _ in range(moves):
        session.redo()
    assert session.state == end


def test_illegal_move_changes_nothing(seahaven, board) -> None:
    session = session_at(board(seahaven, ["KS,5H", "6S"]))
    before, history = session.state, list(session.history)
    with pytest.raises(IllegalMoveError, match="cannot go on"):
        session.play("t1>t2")
    with pytest.raises(IllegalMoveError, match="not a move"):
        session.play("hello")
    assert session.state is before and session.history == history and session.moves == 0


# --- autoplay and score -----------------------------------------------------------------


def test_autoplay_after_a_move_is_undone_with_it(seahaven, board) -> None:
    state = board(seahaven, ["KS,AH,QD", "2H", "3H,KC"], cells=["-", "4H"])
    session = session_at(state)
    assert session.score == 0  # nothing playable at the start
    turn = session.play("t1>c")  # Q♦ steps aside: A♥ 2♥ go up; 3♥ is covered
    assert [str(m) for m in turn.autoplay] == ["t1>f1", "t2>f1"]
    assert session.score == 2 and session.moves == 1
    session.undo()
    assert session.state == state and session.score == 0 and session.moves == 0
    session.redo()
    assert session.score == 2


def test_the_deal_is_autoplayed_before_the_first_move(seahaven, board) -> None:
    state = board(seahaven, ["KS,AH", "2H"], cells=["AD"])
    session = session_at(state)
    assert session.score == 3 and session.moves == 0 and not session.can_undo
    assert [str(m) for m in session.initial_autoplay] == ["t1>f1", "t2>f1", "c1>f2"]


def test_autoplay_can_be_switched_off(seahaven, board) -> None:
    session = session_at(board(seahaven, ["KS,AH"]), autoplay="off")
    assert session.score == 0
    session.play("t1>f")
    assert session.score == 1


def test_score_is_one_point_per_foundation_card(seahaven) -> None:
    session = Session(seahaven, 11)
    play_some(session, 40, seed=11)
    assert session.score == sum(len(f) for f in session.state.foundations)
    assert 0 <= session.score <= 52


# --- Normal and Cheat -------------------------------------------------------------------


RUN = ["KS", "QS,JS,TS,9S", "7D"]


def test_cheat_moves_any_run_and_counts_the_cards(seahaven, board) -> None:
    state = board(seahaven, RUN, cells=["AD", "2D", "3D"])  # one free cell: 2 cards normally
    session = session_at(state, autoplay="off")
    with pytest.raises(IllegalMoveError, match="at most 2 cards"):
        session.play("t2>t1x4")
    session.set_cheat(True)
    turn = session.play("t2>t1x4")
    assert turn.cheated_cards == 4 and session.cheats == 4
    session.undo()
    assert session.cheats == 4  # undo never lowers the count
    session.play("t3>c")  # a normal move in Cheat mode is not a cheat
    assert session.cheats == 4
    session.undo()
    session.set_cheat(False)
    with pytest.raises(IllegalMoveError):
        session.play("t2>t1x4")
    assert session.cheats == 4 and session.ever_cheated


def test_cheat_counts_again_when_a_cheat_is_played_again(seahaven, board) -> None:
    state = board(seahaven, RUN, cells=["AD", "2D", "3D"])
    session = session_at(state, cheat=True, autoplay="off")
    session.play("t2>t1x4")
    session.undo()
    session.redo()  # redo replays the same move: not a new cheat
    assert session.cheats == 4
    session.undo()
    session.play("t2>t1x4")  # played anew: counted anew
    assert session.cheats == 8


def test_session_new_resolves_options(seahaven) -> None:
    definition = get_variant("sea-towers")
    session = Session.new(definition, 2, {"empty_columns": "any"})
    assert session.rules.empty_rule == "any"
    assert session.rules.option_dict == {"empty_columns": "any"}
    plain = Session.new(definition, 2)
    assert plain.rules.empty_rule == "king"
    assert plain.state == session.state  # the option does not change the deal


def test_play_accepts_text_and_moves_and_returns_the_concrete_move(seahaven, board) -> None:
    session = session_at(board(seahaven, ["KS,5H", "6H", "9C"]), autoplay="off")
    assert str(session.play("t3>c").move) == "t3>c1"
    assert str(session.play(Move.parse("t1>t2")).move) == "t1>t2"
    assert session.move_texts() == ["t3>c1", "t1>t2"]
