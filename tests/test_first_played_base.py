"""``foundations.base_rank = "first-played"`` and the built-in Chessboard (PySolFC game 148,
pysollib/games/beleagueredcastle.py: Chessboard_Foundation takes any rank on an empty pile
until some pile is started, then only that pile's first rank; Chessboard_RowStack drops
nothing to the foundations before the player has started one)."""

from __future__ import annotations

import pytest

from solitaire_core.deal import deal
from solitaire_core.errors import VariantError
from solitaire_core.moves import Move, PileKind, PileRef
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply, autoplay_moves, explain, legal_moves
from solitaire_core.solver import Verdict, solve
from solitaire_core.state import GameState
from solitaire_core.textview import format_layout
from solitaire_core.variant import parse_variant

BASE = """
format_version = 1
id = "x"
name = "X"
decks = 1
[tableau]
columns = 4
build = "up-or-down-in-suit"
empty = "any"
move_limit = "one"
[cells]
count = 0
[foundations]
count = 4
base_rank = "first-played"
wrap = true
[deal]
columns = 13
"""


@pytest.fixture(scope="module")
def chessboard():
    return get_variant("chessboard").resolve()


def board(rules, text: str) -> GameState:
    return GameState.from_text(rules, text)


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        pytest.param(BASE.replace("wrap = true\n", ""), "foundations.wrap", "'first-played'",
                     id="no-wrap"),
        pytest.param(BASE.replace('"first-played"', '"first"'), "foundations.base_rank",
                     '"first-played"', id="misspelt"),
        pytest.param(
            BASE.replace("count = 4\nbase_rank", "count = 8\nbase_rank")
            + '[[foundations.groups]]\ncount = 4\n[[foundations.groups]]\ncount = 4\n'
            "base_rank = 13\n",
            "foundations.groups.base_rank", "every pile or for none", id="one-group-only",
        ),
        pytest.param(BASE.replace("columns = 13", "columns = 12\nfoundations = { ranks = [1] }"),
                     "deal.foundations", "no card dealt", id="dealt-up"),
        pytest.param(BASE.replace("[deal]", "[deal]\nplay_to_foundations = true"),
                     "deal.play_to_foundations", "no card dealt", id="played-up-in-the-deal"),
        pytest.param(BASE.replace('empty = "any"', 'empty = "below-base"'), "tableau.empty",
                     "'below-base'", id="below-base"),
    ],
)  # fmt: skip
def test_bad_first_played_files_name_the_key(text: str, key: str, fragment: str) -> None:
    with pytest.raises(VariantError) as info:
        parse_variant(text, "bad.toml")
    assert info.value.key_path == key, str(info.value)
    assert fragment in info.value.message
    assert str(info.value).startswith(f"bad.toml: {key}: ")


def test_any_card_starts_the_first_foundation_and_sets_every_base(chessboard) -> None:
    start = board(chessboard, "9H,7S 8D,QC - - - - - - - - |  | - - - -")
    targets = {(str(m.source), str(m.target)) for m in legal_moves(start) if m.target.kind
               is PileKind.FOUNDATION}  # fmt: skip
    assert targets == {(t, f"f{j}") for t in ("t1", "t2") for j in range(1, 5)}
    after = apply(start, Move.parse("t1>f"))
    assert after.foundations[0] == start.columns[0][-1:]
    assert [after.base_rank(j) for j in range(4)] == [7] * 4
    assert explain(after, Move.parse("t2>f2")) == (
        "Q♣ cannot start f2: a foundation starts with a Seven "
        "(the first card played to a foundation set the base rank)"
    )


def test_the_base_is_any_rank_until_a_card_goes_up(chessboard) -> None:
    start = board(chessboard, "9H,7S - - - - - - - - - |  | - - - -")
    assert [start.base_rank(j) for j in range(4)] == [None] * 4
    assert explain(start, Move.parse("t1>f3")) is None
    assert explain(start, Move.parse("t1>f")) is None


def test_foundations_wrap_and_build_in_suit_from_the_base(chessboard) -> None:
    state = board(chessboard, "9H,AS 2S - - - - - - - - |  | 7S,8S,9S,TS,JS,QS,KS - - -")
    assert explain(state, Move.parse("t1>f1")) is None
    assert "up in suit, wrapping from King to Ace" in explain(
        board(chessboard, "9H,AD - - - - - - - - - |  | 7S,8S,9S,TS,JS,QS,KS - - -"),
        Move.parse("t1>f1"),
    )


def test_autoplay_leaves_the_choice_of_base_to_the_player(chessboard) -> None:
    # An Ace on top and every foundation empty: nothing goes up by itself.
    state = board(chessboard, "AS 6C,5C KH - - - - - - - |  | - - - -")
    assert autoplay_moves(state, "all") == (state, [])
    started = board(chessboard, "8S 6C,5C KH - - - - - - - |  | 7S - - -")
    after, moves = autoplay_moves(started)
    assert [str(m) for m in moves] == ["t1>f1"] and after.foundations[0][-1].label == "8♠"


def test_chessboard_deals_fortress_deal_n(chessboard) -> None:
    fortress = get_variant("fortress").resolve()
    for number in (1, 2, 32000, 32001, 1000000):
        mine, theirs = deal(chessboard, number), deal(fortress, number)
        assert mine.columns == theirs.columns
        assert mine.foundations == ((),) * 4 and mine.bases == ()


def test_show_says_what_sets_the_base(chessboard) -> None:
    fresh = format_layout(deal(chessboard, 1)).splitlines()[0]
    assert fresh.endswith("base rank: any, set by the first card played")
    started = board(chessboard, "9H - - - - - - - - - |  | - 5D - -")
    assert format_layout(started).splitlines()[0].endswith("base rank: 5")


def test_the_solver_decides_chessboard_deals_and_its_wins_replay(chessboard) -> None:
    state = deal(chessboard, 1)
    result = solve(state, engine="python")
    assert result.verdict is Verdict.WINNABLE
    for move in result.moves:
        state, _ = autoplay_moves(apply(state, move))
    assert state.is_won
    assert result.engine == "python"


def test_the_c_engine_searches_chessboard_as_python_does(chessboard) -> None:
    """The C engine knows the first-played base too: same verdict, same positions (it
    expands Chessboard's positions in the real order, as the Python engine does)."""
    state = deal(chessboard, 2)
    c, python = solve(state, engine="c"), solve(state, engine="python")
    assert c.engine == "c" and c.note == ""
    assert c.verdict is python.verdict is Verdict.WINNABLE
    assert c.positions == python.positions
    for move in c.moves:
        state, _ = autoplay_moves(apply(state, move))
    assert state.is_won


def test_empty_foundations_show_any_then_the_base(chessboard) -> None:
    from solitaire_tk.table.marks import slot_look

    ref = PileRef(PileKind.FOUNDATION, 2)
    assert slot_look(board(chessboard, "9H - - - - - - - - - |  | - - - -"), ref) == (
        "foundation",
        "Any",
    )
    assert slot_look(board(chessboard, "9H - - - - - - - - - |  | TD - - -"), ref) == (
        "foundation",
        "Ten",
    )


def test_the_table_marks_the_base_once_the_first_card_is_up(root, chessboard) -> None:
    from solitaire_tk.table.view import TableView

    start = deal(chessboard, 1)
    view = TableView(root, on_move=lambda move: None, animation=False)
    view.pack(fill="both", expand=True)
    root.update()
    view.set_game(start)
    view.show(start)
    root.update()
    f2 = view._slot_items[PileRef(PileKind.FOUNDATION, 1)]
    any_image = view.itemcget(f2, "image")
    assert any_image == str(view._slot_image("foundation", "Any"))
    first = apply(start, Move.parse("t1>f1"))  # 2H: every pile now starts with a Two
    view.show(first)
    root.update()
    assert view.itemcget(f2, "image") == str(view._slot_image("foundation", "Two"))
    view.show(start)  # undone: any rank again
    root.update()
    assert view.itemcget(f2, "image") == any_image
    view.destroy()


def test_a_click_or_a_key_never_chooses_the_base(chessboard) -> None:
    from solitaire_tk.table.view import click_move, key_move

    # 2H fits nothing but a foundation; 8C may go onto 9C of column C.
    start = board(chessboard, "2H 8C 9C 5D 5D 5D 5D 5D 5D 5D |  | - - - -")
    assert click_move(start, PileRef(PileKind.TABLEAU, 1), 0)[0] == Move.parse("t2>t3")
    move, reason = click_move(start, PileRef(PileKind.TABLEAU, 0), 0)
    assert move is None and "drag it there" in reason
    assert key_move(start, PileRef(PileKind.TABLEAU, 0))[0] is None
    started = board(chessboard, "2H 8C 9C 5D 5D 5D 5D 5D 5D 5D |  | - - - 2S")
    assert click_move(started, PileRef(PileKind.TABLEAU, 0), 0)[0] == Move.parse("t1>f1")
