"""Legality: legal_moves, is_legal, explain and apply agree, and say why a move is refused.

Positions are built with the ``board`` fixture (tests/conftest.py). Rule sources are in
solitaire_core/rules.py and shared/rules/README.md; the per-sentence citations of the rules
texts are in tests/test_rules_texts.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from importlib.resources import files

import pytest

from solitaire_core.cards import Card
from solitaire_core.deal import deal
from solitaire_core.errors import IllegalMoveError
from solitaire_core.moves import Move, PileKind, PileRef, tableau
from solitaire_core.plugins import get_registry
from solitaire_core.rules import (
    UNLIMITED,
    apply,
    autoplay_moves,
    canonical_key,
    explain,
    is_legal,
    is_safe_to_foundation,
    legal_moves,
    max_run_move,
    resolve,
    run_length,
)
from solitaire_core.state import GameState
from solitaire_core.variant import Rules, parse_variant

BUILTINS = sorted(v for v, d in get_registry().variants.items() if d.plugin == "solitaire_variants")


def all_rules() -> list[Rules]:
    """Every built-in variant with every choice of its options."""
    out = []
    for vid in BUILTINS:
        definition = get_registry().get(vid)
        out.append(definition.resolve())
        for option in definition.options:
            out += [
                definition.resolve({option.name: c.value})
                for c in option.choices
                if c.value != option.default
            ]
    return out


def returning_variant() -> Rules:
    """A made-up FreeCell whose foundation cards come back into play and take runs, to
    reach the moves no built-in variant allows."""
    text = open_variant("freecell").replace(
        "return_to_play = false", "return_to_play = true\naccept_runs = true"
    )
    return parse_variant(text, "freecell-returning.toml").resolve()


def open_variant(variant_id: str) -> str:
    """The TOML text of a built-in variant file."""
    return files("solitaire_variants").joinpath(f"{variant_id}.toml").read_text("utf-8")


def candidates(state: GameState) -> Iterator[Move]:
    """Every move between two piles, with every count from 1 to one more than the source
    holds (at most 7: longer counts are refused for the same reason)."""
    r = state.rules
    piles = (
        [PileRef(PileKind.TABLEAU, i) for i in range(r.columns)]
        + [PileRef(PileKind.CELL, i) for i in range(r.cells)]
        + [PileRef(PileKind.FOUNDATION, i) for i in range(r.foundations)]
    )
    for source in piles:
        for target in piles:
            for count in range(1, min(len(state.pile(source)), 6) + 2):
                yield Move(source, target, count)


def random_positions(rules: Rules, steps: int, seed: int) -> Iterator[GameState]:
    rng = random.Random(seed)
    state, _ = autoplay_moves(deal(rules, seed))
    for _ in range(steps):
        yield state
        moves = legal_moves(state)
        if not moves:
            return
        state, _ = autoplay_moves(apply(state, rng.choice(moves)), "off")


@pytest.mark.parametrize(
    "rules", [*all_rules(), returning_variant()], ids=lambda r: f"{r.id}{dict(r.options)}"
)
@pytest.mark.slow
def test_legal_moves_is_legal_and_explain_agree_on_random_play(rules: Rules) -> None:
    for state in random_positions(rules, steps=25, seed=len(rules.id)):
        for cheat in (False, True):
            generated = legal_moves(state, cheat=cheat)
            assert len(generated) == len(set(generated)), "a move is listed twice"
            legal = set(generated)
            for move in candidates(state):
                verdict = is_legal(state, move, cheat=cheat)
                assert verdict == (move in legal), (move, state.to_text())
                reason = explain(state, move, cheat=cheat)
                assert (reason is None) == verdict
                if reason is not None:
                    assert reason and not reason.startswith("Traceback")


def test_unnumbered_targets_resolve_to_a_generated_move(seahaven, board) -> None:
    state = board(seahaven, ["KS,2H", "3C", "AC"], cells=["-", "9D"], foundations=["AH"])
    assert resolve(state, Move.parse("t1>f")) == Move.parse("t1>f1")
    assert resolve(state, Move.parse("t2>c")) == Move.parse("t2>c1")
    assert resolve(state, Move.parse("t3>f")) == Move.parse("t3>f2")
    for text in ("t1>f", "t2>c", "t3>f"):
        assert resolve(state, Move.parse(text)) in legal_moves(state)


def test_legal_moves_lists_foundation_then_tableau_then_cell_moves(seahaven, board) -> None:
    state = board(seahaven, ["KS,AH", "6D", "5D"], cells=["-", "-", "QS", "JS"])
    kinds = [m.target.kind for m in legal_moves(state)]
    order = {PileKind.FOUNDATION: 0, PileKind.TABLEAU: 1, PileKind.CELL: 2}
    assert kinds == sorted(kinds, key=order.__getitem__)
    assert kinds[0] is PileKind.FOUNDATION and PileKind.CELL in kinds


# --- reasons a player reads -------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("t2>t3", "5\u2660 cannot go on 6\u2665: the tableau builds down in suit"),
        ("t4>t9", "an empty column takes a King or a run led by a King"),
        ("t1>t11", "t11 does not exist: this game has 10 columns"),
        ("t1>t1", "the source and target are the same pile"),
        ("t9>t1", "t9 is empty"),
        ("t2>c2", "c2 is occupied: a cell holds one card"),
        ("t1>t6x2", "the top 2 cards of t1 are not a run"),
        ("t5>c1x2", "only one card at a time goes to a cell"),
        ("t5>t7x4", "with 2 free cells you can move at most 3 cards"),
        ("t2>f", "5\u2660 cannot go to a foundation yet: it needs the 4\u2660 there first"),
        ("t2>f1", "5\u2660 cannot go on A\u2663: foundations build up in suit"),
        ("t2>f2", "5\u2660 cannot start f2: a foundation starts with an Ace"),
        ("f1>t1", "cards on the foundations are out of play in this game"),
        ("t6>f1x2", "only a run in suit can go to a foundation in one move"),
        ("c2>t1x2", "a cell holds a single card"),
        ("t1>t2x9", "t1 holds only 2 cards"),
    ],
)
def test_illegal_moves_are_refused_with_a_readable_reason(
    seahaven, board, move: str, reason: str
) -> None:
    state = board(
        seahaven,
        ["KH,6D", "6S,5S", "6H", "QD", "9C,8C,7C,6C", "3D,2C", "TC"],
        cells=["-", "9D", "JD"],
        foundations=["AC"],
    )
    before = state.to_text()
    assert reason in (explain(state, Move.parse(move)) or "")
    with pytest.raises(IllegalMoveError) as info:
        apply(state, Move.parse(move))
    assert reason in info.value.reason
    assert info.value.move == Move.parse(move)
    assert state.to_text() == before


def test_a_reason_names_piles_as_the_caller_asks(seahaven, board) -> None:
    state = board(seahaven, ["KH,6D", "6S,5S"], cells=["-", "9D"])
    names = {"t1": "column A", "c2": "cell 2", "t9": "column I", "f2": "foundation L"}

    def name(ref: PileRef) -> str:
        return names[str(ref)]

    assert explain(state, Move.parse("t1>c2"), name=name) == (
        "cell 2 is occupied: a cell holds one card"
    )
    assert explain(state, Move.parse("t1>t2x2"), name=name) == (
        "the top 2 cards of column A are not a run (runs are built down in suit)"
    )
    assert explain(state, Move.parse("t9>t1"), name=name) == "column I is empty"
    with pytest.raises(IllegalMoveError, match="cannot start foundation L"):
        resolve(state, Move.parse("t2>f2"), name=name)


def test_a_tableau_target_needs_its_number(seahaven, board) -> None:
    state = board(seahaven, ["5S", "6S"])
    move = Move(tableau(0), PileRef(PileKind.TABLEAU, None))
    assert explain(state, move) == "the target column needs its number, e.g. t3"


# --- apply ------------------------------------------------------------------------------


def test_apply_returns_a_new_state_and_never_changes_its_input(seahaven, board) -> None:
    state = board(seahaven, ["KS,QS", "AH,JS", "9D"], cells=["TD"])
    before, key = state.to_text(), hash(state)
    after = apply(state, Move.parse("t2>t1"))
    assert after is not state
    assert state.to_text() == before and hash(state) == key
    assert after.to_text().startswith("KS,QS,JS AH 9D")
    after = apply(after, Move.parse("t2>f"))
    assert after.foundations[0] == (Card.parse("AH"),)


def test_runs_keep_their_order_and_foundation_runs_go_up_in_order(seahaven, board) -> None:
    state = board(seahaven, ["KS", "QS,JS,TS", "4H,3H,2H"], foundations=["AH"])
    moved = apply(state, Move.parse("t2>t1x3"))
    assert [str(c) for c in moved.columns[0]] == ["KS", "QS", "JS", "TS"]
    up = apply(state, Move.parse("t3>f1x3"))
    assert [str(c) for c in up.foundations[0]] == ["AH", "2H", "3H", "4H"]
    assert up.columns[2] == ()


# --- move limits ------------------------------------------------------------------------


def test_free_cells_plus_one(seahaven, board) -> None:
    run = ["KS", "QS,JS,TS,9S,8S"]
    four = board(seahaven, run)
    assert max_run_move(four, False) == 5
    assert is_legal(four, Move.parse("t2>t1x5"))
    two = board(seahaven, run, cells=["AD", "2D"])
    assert max_run_move(two, False) == 3
    assert not is_legal(two, Move.parse("t2>t1x5"))
    assert is_legal(two, Move.parse("t2>t1x5"), cheat=True)
    assert max_run_move(two, False, cheat=True) == UNLIMITED
    full = board(seahaven, ["8H", "6D,5D", "7D"], cells=["AD", "2D", "3D", "4D"])
    assert max_run_move(full, False) == 1
    assert not is_legal(full, Move.parse("t2>t3x2"))
    assert is_legal(full, Move.parse("t2>t3x2"), cheat=True)


def test_empty_columns_do_not_raise_seahavens_limit(seahaven, board) -> None:
    state = board(seahaven, ["KS", "QS,JS,TS,9S,8S", "-", "-"], cells=["AD", "2D", "3D"])
    assert max_run_move(state, False) == 2
    assert not is_legal(state, Move.parse("t2>t1x3"))


def test_supermove_doubles_per_empty_column_but_not_the_target(rules_of, board) -> None:
    any_card = rules_of("sea-towers", empty_columns="any")
    cols = ["KS", "QS,JS,TS,9S,8S,7S,6S", "4H", "2C"]  # columns 5..10 empty
    state = board(any_card, cols + ["3C"] * 4, cells=["AD", "2D", "3D"])  # 2 empties
    assert state.empty_columns == 2
    assert max_run_move(state, False) == 2 * 2**2
    assert max_run_move(state, True) == 2 * 2**1
    assert is_legal(state, Move.parse("t2>t1x7"))
    assert not is_legal(state, Move.parse("t2>t9x5"))
    assert is_legal(state, Move.parse("t2>t9x4"))


def test_double_sea_towers_moves_one_card_at_a_time(double_sea_towers, board) -> None:
    state = board(double_sea_towers, ["KS", "QS,JS", "QS'"])
    assert max_run_move(state, False) == 1
    assert explain(state, Move.parse("t2>t1x2")) == (
        "only one card moves at a time in Double Sea Towers"
    )
    assert is_legal(state, Move.parse("t2>t1x2"), cheat=True)
    assert is_legal(state, Move.parse("t2>t3"))  # the other deck's Queen takes the Jack


def test_relaxed_seahaven_moves_any_run(rules_of, board) -> None:
    relaxed = rules_of("relaxed-seahaven")
    state = board(relaxed, ["KS", "QS,JS,TS,9S,8S,7S"], cells=["AD", "2D", "3D", "4D"])
    assert is_legal(state, Move.parse("t2>t1x6"))


def test_run_length_follows_the_build_rule(rules_of) -> None:
    seahaven, freecell = rules_of("seahaven"), rules_of("freecell")
    column = tuple(Card.parse(t) for t in ["9H", "8S", "7H", "6H", "5H"])
    assert run_length(seahaven, column) == 3
    assert run_length(freecell, column) == 1
    assert run_length(freecell, column[:3]) == 3
    assert run_length(seahaven, ()) == 0


# --- foundations from and to runs -------------------------------------------------------


def test_foundation_card_may_come_back_only_where_the_variant_says(board) -> None:
    rules = returning_variant()
    state = board(rules, ["KS", "6C"], foundations=["AH", "AD..5D"])
    assert is_legal(state, Move.parse("f2>t2"))  # 5♦ on 6♣: alternate colours
    assert is_legal(state, Move.parse("f2>c1"))
    assert explain(state, Move.parse("f2>f3")) == (
        "a card on a foundation can only go back to the tableau or a cell"
    )
    assert Move.parse("f2>f3") not in legal_moves(state)


def test_a_suit_run_goes_up_even_where_the_tableau_builds_by_colour(board) -> None:
    rules = returning_variant()  # FreeCell's alternate colours, foundations take runs
    state = board(rules, ["6H,5H"], foundations=["AH..4H"])
    assert Move.parse("t1>f1x2") in legal_moves(state)
    assert is_legal(state, Move.parse("t1>f1x2"))
    assert [str(c) for c in apply(state, Move.parse("t1>fx2")).foundations[0]][-2:] == [
        "5H",
        "6H",
    ]


# --- autoplay ---------------------------------------------------------------------------


def test_autoplay_all_sends_every_fitting_card(seahaven, board) -> None:
    state = board(seahaven, ["KS,2S", "AS", "3H"], cells=["-", "AH", "2H"])
    after, moves = autoplay_moves(state)
    assert after.foundation_cards == 5
    assert [str(m) for m in moves] == ["t2>f1", "t1>f1", "c2>f2", "c3>f2", "t3>f2"]
    assert autoplay_moves(state, "off") == (state, [])


def test_autoplay_safe_waits_while_the_other_deck_may_need_the_card(
    double_sea_towers, board
) -> None:
    # A♥ of the second deck is still buried under K♠: it could be built on 2♥.
    state = board(double_sea_towers, ["AH',KS", "2H"], foundations=["AH"])
    assert not is_safe_to_foundation(state, Card.parse("2H"))
    assert autoplay_moves(state) == (state, [])
    after, moves = autoplay_moves(state, "all")
    assert [str(m) for m in moves] == ["t2>f1"]
    # A♥' on top goes up first (nothing builds on an Ace); then 2♥ is safe and follows.
    free = board(double_sea_towers, ["KS", "2H", "AH'"], foundations=["AH"])
    after, moves = autoplay_moves(free)
    assert [str(m) for m in moves] == ["t3>f2", "t2>f1"]


def test_safe_autoplay_in_one_deck_in_suit_sends_everything(seahaven, board) -> None:
    state = board(seahaven, ["KS,2S", "AS"])
    after, _ = autoplay_moves(state, "safe")
    assert after.foundation_cards == 2


def test_safe_autoplay_in_freecell_keeps_a_card_an_other_colour_may_need(rules_of, board) -> None:
    freecell = rules_of("freecell")
    state = board(freecell, ["2H,KS", "3S"], foundations=["AS..2S"])
    # The 2♥ still in play could be built on 3♠: not safe, it stays.
    assert autoplay_moves(state) == (state, [])
    assert [str(m) for m in autoplay_moves(state, "all")[1]] == ["t2>f1"]


# --- symmetry ---------------------------------------------------------------------------


def test_canonical_key_ignores_column_and_cell_order(seahaven, board) -> None:
    a = board(seahaven, ["KS,QS", "5H", "-", "9C"], cells=["AD", "-", "2D"])
    b = board(seahaven, ["9C", "-", "5H", "KS,QS"], cells=["-", "2D", "AD"])
    c = board(seahaven, ["KS", "5H,QS", "-", "9C"], cells=["AD", "-", "2D"])
    assert canonical_key(a) == canonical_key(b)
    assert canonical_key(a) != canonical_key(c)


def test_reason_texts_never_show_python_reprs(seahaven, board) -> None:
    state = board(seahaven, ["KS,6S", "5H"], cells=["AD", "2D", "3D", "4D"])
    for move in candidates(state):
        reason = explain(state, move)
        if reason:
            assert not re.search(r"Card\(|PileRef|None|<", reason), reason
