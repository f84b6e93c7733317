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
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import autoplay_moves, is_legal
from solitaire_core.solver.honest import FURTHEST, arrangement, honest_hint, unseen_cards
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
    # Spider deals its stock in rows: the search's furthest lines start by dealing them
    # all, so the rule of thumb chooses there, not the furthest lines.
    assert advice.fallback != FURTHEST and advice.move != Move.parse("s>t")


def test_a_cancelled_advice_names_no_move() -> None:
    advice = honest_hint(start("klondike", 1), samples=5, cancel=lambda: True)
    assert advice.cancelled and advice.move is None and advice.samples == 0


def turned_over(variant: str, number: int) -> GameState:
    """Deal ``number`` of ``variant`` after one whole pass through the stock and the turn of
    the waste back into it."""
    from solitaire_core.rules import apply, stock_moves

    state = start(variant, number)
    while state.rounds == 0:
        state = apply(state, stock_moves(state)[0])
    return state


def test_a_stock_turned_over_once_is_part_of_the_view() -> None:
    """Every card of the stock showed on the waste before the turn over, in order: from
    then on arrangements keep the stock as it is and shuffle the face-down cards only."""
    state = start("klondike-draw-3", 1)
    assert set(state.stock) <= set(unseen_cards(state))
    again = turned_over("klondike-draw-3", 1)
    assert again.stock and not set(again.stock) & set(unseen_cards(again))
    other = arrangement(again, random.Random(3))
    assert other.stock == again.stock
    assert other.to_text() != again.to_text()  # the face-down cards still move


def test_a_plan_through_a_seen_stock_is_followed_to_the_card_it_deals_for() -> None:
    """Advice that turns the stock to reach a card counts the turns and that card's move
    as one plan; the demo and the benchmark play it through instead of asking again after
    each turn (asked again, the search may plan other turns, and the advice went round
    the stock)."""
    from solitaire_core.moves import Move
    from solitaire_core.rules import apply
    from solitaire_core.solver.honest import HonestAdvice, continuation

    state = turned_over("klondike-draw-3", 1)
    deal_ = Move.parse("s>w")
    plan = (deal_, deal_, deal_)
    advice = HonestAdvice(deal_, 4, 10, (("s>w s>w s>w", 4),), plan=plan)
    after = apply(state, deal_)
    follow = continuation(advice, after)
    assert follow is not None and follow.move == deal_ and follow.plan == plan[1:]
    assert follow.wins == 4
    # Not where the stock is still unseen (the first pass), nor where the plan is done.
    first_pass = apply(start("klondike-draw-3", 1), deal_)
    assert continuation(advice, first_pass) is None
    assert continuation(attrs.evolve(advice, plan=(deal_,)), after) is None


def test_the_vote_counts_turns_of_the_stock_with_the_move_they_lead_to() -> None:
    from solitaire_core.moves import Move
    from solitaire_core.solver.honest import _plan

    line = tuple(map(Move.parse, ["s>w", "s>w", "w>t3", "t1>t2", "s>w"]))
    assert _plan(line) == "s>w s>w w>t3"
    assert _plan(line[2:]) == "w>t3"
    advice = honest_hint(turned_over("klondike-draw-3", 1), samples=6, max_states=1000, seed=2)
    assert advice.move is not None and advice.plan[0] == advice.move
    assert " ".join(map(str, advice.plan)) == advice.votes[0][0]


def test_with_the_stock_spent_the_fallback_turns_the_waste_over() -> None:
    """No win in sight and nothing else to do but turn the waste over: the hint names
    that move rather than none (the demo and the benchmark then play on)."""
    from solitaire_core.moves import Move
    from solitaire_core.solver.honest import progress_move

    rules = attrs.evolve(get_variant("klondike-draw-3").resolve(), columns=1)
    state = GameState.from_text(rules, "KS |  | - - - - | stock - | waste 2H,9D")
    assert progress_move(state) == (Move.parse("w>s"), "this move turns the waste over")


def test_without_a_won_arrangement_the_move_that_leads_furthest_is_advised() -> None:
    """No arrangement won within the budget: each search's furthest position still
    counts, and the plan whose furthest positions gained the most over the arrangements
    is advised, with words that say so."""
    from solitaire_core.solver import solve
    from solitaire_core.solver.honest import FURTHEST, _plan

    state = start("klondike-draw-3", 2)
    advice = honest_hint(state, samples=4, max_states=300, seed=1)
    assert advice.wins == 0 and advice.fallback == FURTHEST
    assert advice.text == f"no win found in 4 ways the hidden cards may lie; {FURTHEST}"
    # The same arrangements, solved here: the advice is the plan they gained most by.
    rng = random.Random(1)
    gains: Counter[str] = Counter()
    for _ in range(4):
        result = solve(arrangement(state, rng), max_states=300)
        assert not result.decided and result.best_line
        gains[_plan(result.best_line)] += result.best_gain
    best = max(gains.values())
    assert " ".join(map(str, advice.plan)) in {p for p, g in gains.items() if g == best}
    assert 1 <= advice.leads <= 4 and is_legal(state, advice.move)


def test_a_move_that_loses_an_arrangement_the_deal_keeps_is_not_advised() -> None:
    """The search of each arrangement credits the one plan it finds first. On Klondike
    Draw 3 deal 14, 6 ▸ 4 starts more of those wins than any other plan, but played in
    every arrangement that was won it loses one of them; a deal keeps all five, so the
    hint deals, and counts each candidate where it stays won."""
    from solitaire_core.rules import DEAL
    from solitaire_core.session import play_move
    from solitaire_core.solver import Verdict, solve

    state = start("klondike-draw-3", 14)
    most_found = Move.parse("t6>t4")
    first_stage = honest_hint(state, samples=6, max_states=2000, seed=1, rivals=0)
    assert first_stage.move == most_found
    advice = honest_hint(state, samples=6, max_states=2000, seed=1)
    assert advice.move == DEAL and advice.plan == (DEAL,)
    assert advice.text == "wins in 5 of 6 ways the hidden cards may lie"
    # Counted here: the arrangements won, and which of them stay won after 6 ▸ 4.
    rng = random.Random(1)
    won = stays = 0
    for _ in range(6):
        position = arrangement(state, rng)
        result = solve(position, max_states=2000)
        if result.verdict is not Verdict.WINNABLE:
            continue
        won += 1
        if result.moves[0] == most_found:
            stays += 1
            continue
        after = play_move(position, most_found, state.rules.autoplay)[2]
        stays += solve(after, max_states=2000).verdict is Verdict.WINNABLE
    assert (won, stays) == (5, 4)
    assert dict(advice.votes) == {"s>w": 5, "t6>t4": 4}


def test_the_advised_plan_keeps_most_arrangements_won() -> None:
    """Where no deal is offered (the stock seen), the plans are compared as wholes and
    the one advised is the first of the table, with the most wins."""
    advice = honest_hint(turned_over("klondike-draw-3", 1), samples=6, max_states=1000, seed=2)
    assert advice.votes and advice.votes[0] == (" ".join(map(str, advice.plan)), advice.wins)
    assert all(wins <= advice.wins for _, wins in advice.votes)


def test_a_bad_number_of_rivals_is_refused() -> None:
    with pytest.raises(ValueError, match="rivals"):
        honest_hint(start("klondike", 1), rivals=-1)


@pytest.mark.parametrize(("variant", "number", "budget"), [
    ("klondike-draw-3", 1, 20000), ("klondike-draw-3", 2, 300), ("spider", 2, 2000),
])  # fmt: skip
def test_the_unchecked_searches_of_the_hint_find_what_the_checked_search_hands_out(
    variant: str, number: int, budget: int
) -> None:
    """The hint's searches skip the replay of their lines (``solve(check=False)``); the
    verdict, the win and the furthest line are those the checked search hands out."""
    from solitaire_core.solver import solve

    state = start(variant, number)
    checked = solve(state, max_states=budget)
    unchecked = solve(state, max_states=budget, check=False)
    assert (unchecked.verdict, unchecked.moves, unchecked.positions) == (
        checked.verdict,
        checked.moves,
        checked.positions,
    )
    assert (unchecked.best_line, unchecked.best_gain) == (checked.best_line, checked.best_gain)
    assert checked.moves or checked.best_line


def test_a_check_that_is_not_a_bool_is_refused() -> None:
    from solitaire_core.solver import solve

    with pytest.raises(ValueError, match="check must be True or False"):
        solve(start("klondike", 1), max_states=100, check="no")  # type: ignore[arg-type]
