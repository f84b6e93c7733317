"""The one-foundation games' search (solitaire_core/solver/golf.py) in its two engines:
the compiled one of _csolver.c, which ``solve`` runs by default, and the pure-Python
reference. Both store the same positions in the same order, so a player gets the same
verdict, the same winning line and the same position count from either.
"""

from __future__ import annotations

import threading

import pytest
from solver_helpers import replays_to_a_win

import solitaire_core.solver.golf as golf
from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import Verdict, native, solve_deal

# (game, deal, verdict): won and lost deals of each game the search plays, each searched
# whole by the Python engine in well under a second.
DEALS = [
    ("golf", 7, "unwinnable"),
    ("golf", 10, "winnable"),
    ("dead-king-golf", 7, "unwinnable"),
    ("dead-king-golf", 12, "winnable"),
    ("black-hole", 1, "unwinnable"),
    ("black-hole", 4, "winnable"),
    ("all-in-a-row", 2, "unwinnable"),
    ("all-in-a-row", 9, "winnable"),
    ("tri-peaks", 8, "winnable"),
]


def search(variant: str, number: int, engine: str, **kwargs: object) -> tuple:
    state = deal(get_variant(variant).resolve(), number)
    budget = {"max_states": 10_000_000, "deadline": None, "cancel": None, **kwargs}
    return golf.search(state, engine=engine, **budget)  # type: ignore[arg-type]


@pytest.mark.parametrize(("variant", "number", "verdict"), DEALS)
def test_both_engines_give_the_same_verdict_line_and_count(
    variant: str, number: int, verdict: str
) -> None:
    compiled = search(variant, number, "c")
    reference = search(variant, number, "python")
    assert compiled[0] == verdict
    assert compiled == reference
    if verdict == "winnable":
        assert replays_to_a_win(deal(get_variant(variant).resolve(), number), compiled[1])


def test_both_engines_stop_at_the_same_budget() -> None:
    compiled = search("golf", 7, "c", max_states=50_000)
    assert compiled == ("undecided", (), 50_000, "state budget")
    assert search("golf", 7, "python", max_states=50_000) == compiled


def test_a_lost_tri_peaks_deal_is_proved_by_both() -> None:
    # Deal 190: every one of its 226,358 reachable positions searched.
    compiled = search("tri-peaks", 190, "c")
    assert compiled[0] == "unwinnable" and compiled[2] == 226_358
    assert search("tri-peaks", 190, "python") == compiled


def test_the_compiled_search_can_be_cancelled_and_passes_errors_on() -> None:
    stop = threading.Event()
    calls = []

    def cancel() -> bool:
        calls.append(1)
        if len(calls) == 3:
            stop.set()
        return stop.is_set()

    verdict, moves, positions, reason = search("black-hole", 10, "c", cancel=cancel)
    assert (verdict, moves, reason) == ("undecided", (), "cancelled")
    assert positions == 3 * 4096 and len(calls) == 3

    def broken() -> bool:
        raise RuntimeError("the window closed")

    with pytest.raises(RuntimeError, match="the window closed"):
        search("black-hole", 10, "c", cancel=broken)


def test_a_time_budget_stops_the_compiled_search() -> None:
    verdict, _, _, reason = search("black-hole", 10, "c", deadline=0.0)
    assert (verdict, reason) == ("undecided", "time budget")


def test_solve_runs_the_compiled_search_and_says_which_engine_ran() -> None:
    rules = get_variant("black-hole").resolve()
    result = solve_deal(rules, 4)
    assert result.verdict is Verdict.WINNABLE and result.engine == "c"
    # Its table of 26,963 positions, 8 bytes a slot, at most half full.
    assert 26_963 * 16 <= result.peak_bytes <= 26_963 * 8 * 6
    reference = solve_deal(rules, 4, engine="python")
    assert reference.engine == "python" and reference.moves == result.moves
    assert reference.peak_bytes == 0
    assert reference.positions == result.positions


def test_without_the_extension_the_python_search_runs_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(golf, "_csolver", None)
    rules = get_variant("golf").resolve()
    result = solve_deal(rules, 10, engine="c")
    assert result.verdict is Verdict.WINNABLE and result.engine == "python"
    assert "the Python engine ran" in result.note
    assert native.IMPORT_ERROR in result.note or "not available" in result.note
    assert solve_deal(rules, 10).note == solve_deal(rules, 10, engine="python").note
