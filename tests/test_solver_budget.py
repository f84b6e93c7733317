"""The solver's position budget is the most a solve may cost: every search it runs, the
dead-end test's small searches and the searches of the games with a stock counted. The
default keeps each search as large as a single search was before it was shared."""

from __future__ import annotations

import pytest

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import (
    DEFAULT_MAX_STATES,
    ONE_SEARCH_MAX_STATES,
    Verdict,
    budget_for,
    default_max_states,
    solve,
    solve_deal,
)
from solitaire_core.solver.search import schedule, tables_for

# (variant, deal): deals no search of the schedule decides in the budgets below, so each
# solve spends all it may. Seahaven uses the dead-end test's small searches, Streets and
# Alleys starts with the plain score, FreeCell takes its scores in turns, Simple Simon
# goes up by complete suits; the last four are searched on the core's positions.
OPEN = [("seahaven", 4), ("streets-and-alleys", 4), ("freecell", 4), ("simple-simon", 30)]
CORE = [("klondike", 12), ("golf", 2), ("aces-up", 9), ("pyramid", 3)]


@pytest.mark.parametrize("engine", ["c", "python"])
@pytest.mark.parametrize(("variant", "number"), OPEN + CORE)
@pytest.mark.parametrize("budget", [1, 2, 37, 1_500])
def test_a_solve_stores_no_more_positions_than_its_budget(variant, number, budget, engine):
    result = solve_deal(get_variant(variant).resolve(), number, max_states=budget, engine=engine)
    assert 1 <= result.positions <= budget, (variant, number, result)
    if not result.decided:
        assert result.reason == "state budget"


def test_every_search_of_the_schedule_spends_from_one_budget():
    """Simple Simon #30 is undecided at 30,000: each search of the schedule ran until its
    share was gone, and together they spent what the schedule allows."""
    rules = get_variant("simple-simon").resolve()
    plan = schedule(tables_for(rules, ()), 30_000)
    assert len(plan) > 10  # the game's own score, another, restarts and shuffled searches
    assert sum(size for _, size in plan) <= 30_000
    for engine in ("c", "python"):
        result = solve_deal(rules, 30, max_states=30_000, engine=engine)
        assert result.verdict is Verdict.UNDECIDED
        assert result.positions == sum(size for _, size in plan), engine


@pytest.mark.parametrize("variant", ["freecell", "streets-and-alleys", "simple-simon"])
def test_the_default_budget_keeps_the_game_s_own_search_at_a_million_positions(variant):
    """At the default budget the game's own score searches as much as it did when each
    search had a budget of its own (1,000,000), or more; the whole schedule fits."""
    rules = get_variant(variant).resolve()
    assert default_max_states(rules) == DEFAULT_MAX_STATES
    plan = schedule(tables_for(rules, ()), DEFAULT_MAX_STATES)
    at = next(i for i, (more, _) in enumerate(plan) if not more)  # the game's own score
    size = plan[at][1]
    if variant == "streets-and-alleys":  # the plain score's short search takes its share
        assert plan[at - 1][0] == {"weights": {"depth": 0}}
        size += plan[at - 1][1]
    assert size >= 1_000_000
    assert sum(size for _, size in plan) <= DEFAULT_MAX_STATES


def test_games_searched_once_keep_a_million_and_budgets_scale_to_the_game():
    klondike, freecell = (get_variant(v).resolve() for v in ("klondike", "freecell"))
    assert default_max_states(klondike) == ONE_SEARCH_MAX_STATES == 1_000_000
    assert budget_for(klondike, 500_000) == 500_000
    plan = schedule(tables_for(freecell, ()), budget_for(freecell, 500_000))
    assert [size for more, size in plan if not more] == [500_000]  # the game's own score
    with pytest.raises(ValueError, match="whole number"):
        budget_for(freecell, 0)


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "100"])
def test_a_budget_that_is_not_a_positive_whole_number_is_refused(bad):
    state = deal(get_variant("seahaven").resolve(), 1)
    with pytest.raises(ValueError, match="max_states"):
        solve(state, max_states=bad)


@pytest.mark.parametrize("variant", ["freecell", "seahaven", "streets-and-alleys", "simple-simon"])
def test_the_schedule_fits_any_budget(variant):
    """Down to a budget of a few positions, where the game's own search gets one and the
    other searches' shares round to nothing, the schedule never asks for more."""
    tables = tables_for(get_variant(variant).resolve(), ())
    for budget in [*range(1, 40), 999, 123_457, 9_999_999]:
        plan = schedule(tables, budget)
        assert plan and all(size >= 1 for _, size in plan)
        assert sum(size for _, size in plan) <= budget
