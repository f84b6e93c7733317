"""Aces Up (PySolFC game 903) in the discard games' depth-first search
(solitaire_core/solver/discards.py): verdicts on whole deals, wins replayed with the
core's rules, a card that must be kept through a deal to let a lower one go, the lone
cards laid out before the last empty column fills, lost deals proved lost within the
budget, and verdicts checked against the best-first search of
solitaire_core/solver/stock.py on positions cut from deals.
"""

from __future__ import annotations

import itertools
import random

import pytest
from solver_helpers import replays_to_a_win, wins_as_played

import solitaire_core.solver.discards as discards
import solitaire_core.solver.stock as stock
from solitaire_core.deal import deal
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply, legal_moves
from solitaire_core.solver import Verdict
from solitaire_core.solver.search import solve, solve_deal
from solitaire_core.state import GameState


def rules_of(variant: str = "aces-up"):  # noqa: ANN201 - a Rules
    return get_variant(variant).resolve()


def position(columns: str, stock_next: str) -> GameState:
    """Aces Up with ``columns`` (PySolFC text, bottom card first) and the stock dealt
    in the order ``stock_next``; every other card discarded."""
    rules = rules_of()
    text = f"{columns} |  | - | stock {','.join(reversed(stock_next.split()))} | waste - | round 0"
    state = GameState.from_text(rules, text)
    held = {str(c) for col in state.columns for c in col} | {str(c) for c in state.stock}
    gone = ",".join(str(c) for c in rules.cards if str(c) not in held)
    return GameState.from_text(rules, text.replace("| - |", f"| {gone} |"))


def test_the_search_applies_to_aces_up_only() -> None:
    assert discards.applies(rules_of())
    for variant in ("golf", "pyramid", "klondike", "freecell"):
        assert not discards.applies(rules_of(variant))
    with pytest.raises(ValueError, match="not a discard game"):
        discards.search(deal(rules_of("golf"), 1), max_states=10, deadline=None, cancel=None)


@pytest.mark.parametrize(
    ("number", "verdict"), [(2, "winnable"), (10, "winnable"), (8, "unwinnable")]
)
def test_deals_are_decided_and_wins_replay(number: int, verdict: str) -> None:
    rules = rules_of()
    result = solve_deal(rules, number)
    assert result.verdict.value == verdict
    if verdict == "winnable":
        assert wins_as_played(rules, number, result.moves)


def test_a_card_kept_through_a_deal_lets_a_lower_one_go() -> None:
    # A position of deal 34. Discarding every card as soon as it may go loses: the 9 of
    # hearts (outranked by the Ace of hearts) must stay through the deal, which covers
    # the Ace with the 8 of diamonds and brings the 8 of hearts, which only the 9 then
    # lets go.
    state = position("AC,TC,9C,KS AS,9H QH,7H,AH KD,7D", "6H 8S 8D 8H AD 7C TS JD 6C KC 2D 6D")
    greedy = discards._search(state, 10_000, None, None, greedy=True)
    assert greedy[0] == "unwinnable"
    result = solve(state)
    assert result.verdict is Verdict.WINNABLE
    assert replays_to_a_win(state, result.moves)
    assert str(result.moves[0]) == "s>t"  # the 9 of hearts stays for the deal


def test_the_lone_cards_are_laid_out_before_the_last_empty_column_fills() -> None:
    # A position of deal 30: the line that wins moves the Ace of clubs from one empty
    # column to another before the Ace of hearts fills the last one, so the deal then
    # covers each with the card that lets the game end.
    state = position("- AC KS,KD AS,KH,QD,AH", "6D AD 5S 4C")
    result = solve(state)
    assert result.verdict is Verdict.WINNABLE
    assert replays_to_a_win(state, result.moves)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_lay_out_reaches_every_layout(count: int) -> None:
    free = [0, 2, 3, 5][:count]
    for blanks in range(1, count + 1):
        now = tuple(range(10, 10 + count - blanks)) + (-1,) * blanks
        for layout in set(itertools.permutations(now)):
            where = dict(zip(free, now))
            for source, target in discards._lay_out(free, now, layout):
                assert where[target] == -1 and where[source] != -1
                where[target], where[source] = where[source], -1
            assert tuple(where[j] for j in free) == layout


def test_a_deal_left_undecided_at_a_million_positions_is_lost() -> None:
    # Deal 3 took the search more than 1,000,000 positions before the lone cards' places
    # were chosen only when uncovered, kept cards were given rounds to be used in, and
    # positions with a single way on were no longer stored.
    result = solve_deal(rules_of(), 3)
    assert result.verdict is Verdict.UNWINNABLE
    assert result.positions < 300_000


def test_a_lost_deal_is_proved_lost_in_few_positions() -> None:
    # Deal 8 took 79,192 positions; deal 5 583,128.
    for number, most in ((8, 10_000), (5, 60_000)):
        result = solve_deal(rules_of(), number)
        assert result.verdict is Verdict.UNWINNABLE, number
        assert result.positions < most, (number, result.positions)


def test_budgets_leave_a_deal_undecided() -> None:
    result = solve_deal(rules_of(), 1, max_states=2_000)
    assert result.verdict is Verdict.UNDECIDED and result.reason == "state budget"


# Deals cut halfway (2) or a third of the way (3) along their winning line, then three
# random moves (seeded by deal and cut): positions both searches decide, some lost.
CUTS = [(2, 2), (4, 3), (4, 2), (6, 2), (10, 2), (13, 2), (18, 2), (20, 3), (20, 2), (21, 2)]


def test_the_depth_first_and_best_first_searches_agree() -> None:
    rules = rules_of()
    both: list[str] = []
    for number, part in CUTS:
        state = deal(rules, number)
        line = solve(state).moves
        for move in line[: len(line) // part]:
            state = apply(state, move)
        rng = random.Random(number * 10 + part)
        for _ in range(3):
            moves = legal_moves(state)
            if moves:
                state = apply(state, rng.choice(moves))
        ours = discards.search(state, max_states=1_000_000, deadline=None, cancel=None)
        theirs = stock.search(
            state, policy="off", max_states=20_000, deadline=None, cancel=None, progress=None
        )
        assert ours[0] != "undecided", (number, part)
        if ours[0] == "winnable":
            assert replays_to_a_win(state, ours[1]), (number, part)
        if theirs[0] != "undecided":
            assert ours[0] == theirs[0], (number, part)
            both.append(ours[0])
    assert len(both) >= len(CUTS) - 2 and {"winnable", "unwinnable"} <= set(both)


def test_a_move_of_the_solution_is_a_core_move() -> None:
    result = solve_deal(rules_of(), 2)
    assert {str(m)[:2] for m in result.moves} <= {"t1", "t2", "t3", "t4", "s>"}
    assert all(isinstance(m, Move) for m in result.moves)
