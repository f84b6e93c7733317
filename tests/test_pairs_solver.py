"""Pyramid (PySolFC game 38) in the pairing games' depth-first search
(solitaire_core/solver/pairs.py): its verdicts on whole deals, its solutions replayed to
a win with the core's rules, and its verdicts checked against the best-first search of
solitaire_core/solver/stock.py on positions a few random moves into a deal, with the
game's two redeals and with none, one or no limit.
"""

from __future__ import annotations

import random

import attrs
import pytest
from solver_helpers import replays_to_a_win, wins_as_played

import solitaire_core.solver.pairs as pairs
import solitaire_core.solver.stock as stock
from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply, legal_moves, stock_moves
from solitaire_core.solver import Verdict
from solitaire_core.solver.search import solve, solve_deal
from solitaire_core.state import GameState


def rules_of(variant: str = "pyramid"):  # noqa: ANN201 - a Rules
    return get_variant(variant).resolve()


def test_the_search_applies_to_pyramid_only() -> None:
    assert pairs.applies(rules_of())
    for variant in ("golf", "tri-peaks", "klondike", "aces-up", "freecell"):
        assert not pairs.applies(rules_of(variant))
    with pytest.raises(ValueError, match="not a pairing game"):
        pairs.search(deal(rules_of("golf"), 1), max_states=10, deadline=None, cancel=None)


@pytest.mark.parametrize(
    ("number", "verdict"),
    [(1, "winnable"), (4, "winnable"), (12, "unwinnable"), (18, "unwinnable")],
)
def test_deals_are_decided_and_wins_replay(number: int, verdict: str) -> None:
    rules = rules_of()
    result = solve_deal(rules, number)
    assert result.verdict.value == verdict
    assert result.note == stock.THOUGHTFUL_NOTE
    if verdict == "winnable":
        assert wins_as_played(rules, number, result.moves)


def test_a_deal_whose_sixes_cannot_all_pair_is_lost_at_once() -> None:
    # Deal 20: the 7 of hearts lies under the 6 of spades (row 2) and over the 6s of
    # hearts and diamonds (row 4), the 7 of clubs (row 7) under all three sixes: those
    # three need the talon's two other 7s, so one six never pairs.
    state = deal(rules_of(), 20)
    sixes = [(i, str(col[0])) for i, col in enumerate(state.columns) if col[0].rank == 6]
    assert sixes == [(2, "6S"), (8, "6H"), (9, "6D")]
    result = solve(state)
    assert result.verdict is Verdict.UNWINNABLE and result.positions == 1


def test_budgets_leave_a_deal_undecided() -> None:
    rules = rules_of()
    result = solve_deal(rules, 9, max_states=50)
    assert result.verdict is Verdict.UNDECIDED and result.reason == "state budget"
    result = solve_deal(rules, 23, cancel=lambda: True)
    assert result.verdict is Verdict.UNDECIDED and result.reason == "cancelled"


def test_a_solution_from_a_position_in_play() -> None:
    # Deal 1 after its solution's first 20 moves: the rest is found again from there.
    rules = rules_of()
    state = deal(rules, 1)
    for move in solve(state).moves[:20]:
        state = apply(state, move)
    result = solve(state)
    assert result.verdict is Verdict.WINNABLE
    assert replays_to_a_win(state, result.moves)


def cut(rules, number: int, steps: int) -> GameState:  # noqa: ANN001 - a Rules
    """Deal ``number`` (dealt as Pyramid, played by ``rules``) after ``steps`` random
    legal moves, a deal or redeal half the time it is legal (seeded by the deal)."""
    rng = random.Random(number)
    state = attrs.evolve(deal(rules_of(), number), rules=rules)
    for _ in range(steps):
        moves = legal_moves(state)
        if not moves:
            break
        turns = stock_moves(state)
        state = apply(state, turns[0] if turns and rng.random() < 0.5 else rng.choice(moves))
    return state


# (redeals, random moves, deals): positions the best-first search decides within
# 20,000 positions, won and lost ones among them.
CUTS = [
    (2, 25, (2, 5, 13, 21, 24, 29, 30)),
    (0, 6, (3, 13, 18, 36, 38, 39)),
    (1, 25, (2, 3, 7, 18, 25, 28)),
    (-1, 30, (3, 7, 14, 15, 25, 28, 29)),
]


@pytest.mark.parametrize(("redeals", "steps", "numbers"), CUTS)
def test_the_depth_first_and_best_first_searches_agree(
    redeals: int, steps: int, numbers: tuple[int, ...]
) -> None:
    rules = attrs.evolve(rules_of(), redeals=redeals)
    both: list[str] = []
    for number in numbers:
        state = cut(rules, number, steps)
        ours = pairs.search(state, max_states=1_000_000, deadline=None, cancel=None)
        theirs = stock.search(
            state, policy="off", max_states=20_000, deadline=None, cancel=None, progress=None
        )
        assert ours[0] != "undecided", number
        if ours[0] == "winnable":
            assert replays_to_a_win(state, ours[1]), number
        if theirs[0] != "undecided":
            assert ours[0] == theirs[0], number
            both.append(ours[0])
    assert len(both) >= len(numbers) - 2
