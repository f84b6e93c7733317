"""Advice that never peeks (solitaire_core/solver/honest.py): the hidden cards are dealt
at random into the places the player cannot see, each arrangement is solved, and the
move that wins most often is advised; two positions that differ only in hidden cards get
the same advice."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.rules import autoplay_moves, is_legal
from solitaire_core.solver.honest import arrangement, honest_hint, unseen_cards
from solitaire_core.state import GameState


def start(variant: str, number: int) -> GameState:
    state, _ = autoplay_moves(deal(get_variant(variant).resolve(), number))
    return state


def swapped_hidden(state: GameState) -> GameState:
    """The same view with two hidden cards of different columns swapped."""
    cols = [list(c) for c in state.columns]
    places = [
        (i, j) for i, col in enumerate(cols) for j in range(len(col)) if state.is_face_down(i, j)
    ]
    (a, b), (c, d) = places[0], places[-1]
    cols[a][b], cols[c][d] = cols[c][d], cols[a][b]
    return attrs.evolve(state, columns=tuple(map(tuple, cols)))


@pytest.mark.parametrize(("variant", "number"), [("klondike", 1), ("canfield", 3), ("spider", 2)])
def test_an_arrangement_changes_only_what_the_player_cannot_see(variant: str, number: int) -> None:
    state = start(variant, number)
    other = arrangement(state, random.Random(5))
    assert other.to_text() != state.to_text()
    assert Counter(unseen_cards(other)) == Counter(unseen_cards(state))
    for i, col in enumerate(state.columns):
        for j, card in enumerate(col):
            if not state.is_face_down(i, j):
                assert other.columns[i][j] == card
    assert other.waste == state.waste and other.foundations == state.foundations
    assert other.reserve[-1:] == state.reserve[-1:]


def test_the_advice_does_not_depend_on_where_the_hidden_cards_truly_lie() -> None:
    state = start("klondike-draw-3", 1)
    other = swapped_hidden(state)
    assert other.to_text() != state.to_text()
    mine = honest_hint(state, samples=6, max_states=1000, seed=11)
    theirs = honest_hint(other, samples=6, max_states=1000, seed=11)
    assert mine == theirs
    assert mine.move is not None and is_legal(state, mine.move)
    assert mine.text == f"wins in {mine.wins} of 6 ways the hidden cards may lie"


def test_an_open_position_is_solved_once_exactly() -> None:
    state = start("freecell", 1)
    advice = honest_hint(state, samples=9, max_states=20000)
    assert advice.samples == 1 and advice.wins == 1 and advice.move is not None


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="samples"):
        honest_hint(start("klondike", 1), samples=0)
    with pytest.raises(ValueError, match="max_states"):
        honest_hint(start("klondike", 1), max_states=True)  # type: ignore[arg-type]


def test_pyramids_face_up_stock_top_stays_where_it_is() -> None:
    state = start("pyramid", 1)
    assert state.stock[-1] not in unseen_cards(state)
    for seed in range(5):
        other = arrangement(state, random.Random(seed))
        assert other.stock[-1] == state.stock[-1]
        assert Counter(other.stock) == Counter(state.stock)


def test_without_a_won_arrangement_a_move_that_makes_progress_is_named() -> None:
    state = start("spider", 1)
    advice = honest_hint(state, samples=2, max_states=50)
    assert advice.wins == 0 and advice.move is not None
    assert is_legal(state, advice.move)
    assert advice.text == (f"no win found in 2 ways the hidden cards may lie; {advice.fallback}")
    assert advice.fallback.startswith("this move ")


def test_a_cancelled_advice_names_no_move() -> None:
    advice = honest_hint(start("klondike", 1), samples=5, cancel=lambda: True)
    assert advice.cancelled and advice.move is None and advice.samples == 0
