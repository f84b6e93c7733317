"""The crowd term (docs/solver.md, "The crowd term"): the first other score of the games
without cells rates positions worse the more positions with the same cards up it has
found, so a search leaves a dead region with many cards up for fewer. Beleaguered Castle
#192, which Freecell Solver wins and the game's own score drowned in such a region
(undecided after 42,500,036 positions), is won."""

from __future__ import annotations

import pytest

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
from solitaire_core.solver import Verdict, search, solve_deal
from solitaire_core.solver.engine import Engine
from solitaire_core.solver.heuristic import Scorer


@pytest.mark.slow
def test_beleaguered_castle_192_is_won_at_the_default_budget() -> None:
    rules = get_variant("beleaguered-castle").resolve()
    result = solve_deal(rules, 192)
    assert result.verdict is Verdict.WINNABLE and result.engine == "c"
    session = Session(rules, 192)  # the line as a player plays it, autoplay and all
    for move in result.moves:
        session.play(move)
    assert session.is_won


def test_the_crowd_score_comes_first_among_the_other_scores_without_cells() -> None:
    tables = search.tables_for(get_variant("beleaguered-castle").resolve())
    assert search.fallback_weights(tables)[0]["crowd"] == 40
    tables = search.tables_for(get_variant("freecell").resolve())
    assert all(w.get("crowd", 0) == 0 for w in search.fallback_weights(tables))


def test_the_python_scorer_rates_a_crowded_state_of_the_foundations_worse() -> None:
    rules = get_variant("beleaguered-castle").resolve()
    engine = Engine(search.tables_for(rules), "off", {})
    start = engine.from_state(deal(rules, 192))
    plain = Scorer(engine, {"depth": 0})
    crowded = Scorer(engine, {"depth": 0, "crowd": 40})
    # The same position scored again and again: 1, 2, 3, 4 positions with these cards up.
    extra = [crowded(start) - plain(start) for _ in range(4)]
    assert extra == [40, 80, 80, 120]
