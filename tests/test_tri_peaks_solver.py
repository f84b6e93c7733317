"""TriPeaks (PySolFC game 22231, "Three Peaks") in the one-foundation depth-first search
(solitaire_core/solver/golf.py): a column plays only once the columns covering it are
empty, the peaks' face-down cards are searched as the cards they are (thoughtful), and
its verdicts agree with the best-first search of solitaire_core/solver/stock.py.
"""

from __future__ import annotations

import random

import pytest
from solver_helpers import replays_to_a_win

import solitaire_core.solver.golf as golf
import solitaire_core.solver.stock as stock
from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply, covered, legal_moves
from solitaire_core.session import Session
from solitaire_core.solver import Verdict
from solitaire_core.solver.search import solve, solve_deal
from solitaire_core.state import GameState


def rules_of(variant: str = "tri-peaks"):  # noqa: ANN201 - a Rules
    return get_variant(variant).resolve()


def test_the_search_applies_to_tri_peaks_and_still_to_golf() -> None:
    assert golf.applies(rules_of())
    for variant in ("golf", "dead-king-golf", "black-hole", "all-in-a-row"):
        assert golf.applies(rules_of(variant))
    assert not golf.applies(rules_of("klondike"))
    assert not golf.applies(rules_of("pyramid"))


@pytest.mark.parametrize(("number", "verdict"), [(1, "winnable"), (2, "winnable"), (5, "winnable")])
def test_deals_are_won_and_the_moves_replay(number: int, verdict: str) -> None:
    rules = rules_of()
    start = deal(rules, number)
    assert start.hidden and any(start.hidden)  # the peaks lie face down
    result = solve_deal(rules, number)
    assert result.verdict.value == verdict
    assert replays_to_a_win(start, result.moves)
    session = Session(rules, number)
    for move in result.moves:
        session.play(move)
    assert session.is_won


def test_an_unwinnable_deal_is_proved() -> None:
    # Deal 190: every reachable position searched (226,358 of them).
    result = solve_deal(rules_of(), 190)
    assert result.verdict is Verdict.UNWINNABLE
    assert result.positions > 100_000


def test_a_covered_card_never_plays_in_a_line() -> None:
    rules = rules_of()
    state = deal(rules, 3)
    for move in solve(state).moves:
        if move.source.index is not None and move.source.kind.name == "TABLEAU":
            assert not covered(state, move.source.index)
        state = apply(state, move)
    assert state.is_won


def test_a_budget_leaves_the_deal_undecided() -> None:
    result = solve_deal(rules_of(), 10, max_states=100)
    assert result.verdict is Verdict.UNDECIDED and result.reason == "state budget"


# Positions a few random moves into a deal, which the best-first search decides within
# 20,000 positions: (deal and seed, random moves).
CUTS = [(2, 12), (3, 22), (7, 22), (12, 22), (18, 22), (20, 22), (31, 22), (34, 22), (37, 22)]


def cut(rules, number: int, steps: int) -> GameState:  # noqa: ANN001 - a Rules
    """Deal ``number`` after ``steps`` random legal moves (seeded by the deal)."""
    rng = random.Random(number)
    state = deal(rules, number)
    for _ in range(steps):
        moves = legal_moves(state)
        if not moves:
            break
        state = apply(state, rng.choice(moves))
    return state


def test_the_depth_first_and_best_first_searches_agree() -> None:
    rules = rules_of()
    both: list[str] = []
    for number, steps in CUTS:
        state = cut(rules, number, steps)
        ours = golf.search(state, max_states=1_000_000, deadline=None, cancel=None)
        theirs = stock.search(
            state, policy="off", max_states=20_000, deadline=None, cancel=None, progress=None
        )
        assert ours[0] != "undecided", (number, steps)
        if ours[0] == "winnable":
            assert replays_to_a_win(state, ours[1]), (number, steps)
        if theirs[0] != "undecided":
            assert ours[0] == theirs[0], (number, steps)
            both.append(ours[0])
    # Most are decided by both, won and lost ones among them.
    assert len(both) >= len(CUTS) - 2 and {"winnable", "unwinnable"} <= set(both)
