"""Aces Up's search (solitaire_core/solver/discards.py) in its two engines: the compiled
one of _csolver.c, which ``solve`` runs by default, and the pure-Python reference. Both
store the same positions in the same order, so a player gets the same verdict, the same
winning line and the same position count from either; the compiled one decides deals the
Python one leaves undecided within its budget.
"""

from __future__ import annotations

import random
import re
import threading
from importlib.resources import files
from pathlib import Path

import pytest
from solver_helpers import replays_to_a_win, wins_as_played

import solitaire_core.solver.discards as discards
from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply, legal_moves
from solitaire_core.solver import Verdict, native, solve_deal
from solitaire_core.state import GameState
from solitaire_core.variant import parse_variant

C_SOURCE = Path(native.__file__).with_name("_csolver.c").read_text("utf-8")

# (deal, verdict): won and lost deals, the lost ones searched whole by the Python engine
# in a few seconds at most (deal 34 is won only by keeping a card through a deal).
DEALS = [(2, "winnable"), (10, "winnable"), (34, "winnable"), (8, "unwinnable"), (16, "unwinnable")]


def aces_up():  # noqa: ANN201 - a Rules
    return get_variant("aces-up").resolve()


def search(state: GameState, engine: str, **kwargs: object) -> tuple:
    budget = {"max_states": 1_000_000, "deadline": None, "cancel": None, **kwargs}
    return discards.search(state, engine=engine, **budget)  # type: ignore[arg-type]


@pytest.mark.parametrize(("number", "verdict"), DEALS)
def test_both_engines_give_the_same_verdict_line_and_count(number: int, verdict: str) -> None:
    state = deal(aces_up(), number)
    compiled = search(state, "c")
    assert compiled[0] == verdict
    assert compiled == search(state, "python")
    if verdict == "winnable":
        assert wins_as_played(aces_up(), number, compiled[1])


def test_both_engines_agree_on_positions_from_the_middle_of_games() -> None:
    # Positions along won lines with random moves after them: columns emptied and
    # filled, lone cards laid out, kept cards owing a use, stocks half dealt.
    rules = aces_up()
    verdicts = []
    for number in (2, 4, 6, 10, 13, 18, 20, 21):
        state = deal(rules, number)
        line = search(state, "c")[1]
        rng = random.Random(number)
        for cut in (len(line) // 3, len(line) // 2):
            here = state
            for move in line[:cut]:
                here = apply(here, move)
            for _ in range(4):
                moves = legal_moves(here)
                if moves:
                    here = apply(here, rng.choice(moves))
            compiled = search(here, "c", max_states=30_000)
            assert compiled == search(here, "python", max_states=30_000), (number, cut)
            if compiled[0] == "winnable":
                assert replays_to_a_win(here, compiled[1]), (number, cut)
            verdicts.append(compiled[0])
    assert {"winnable", "unwinnable"} <= set(verdicts)


def test_both_engines_stop_at_the_same_budget() -> None:
    state = deal(aces_up(), 5)
    compiled = search(state, "c", max_states=2_000)
    assert compiled == ("undecided", (), 2_000, "state budget")
    assert search(state, "python", max_states=2_000) == compiled


@pytest.mark.slow
def test_deals_the_python_engine_leaves_undecided_are_proved_lost() -> None:
    # At the default budget of 1,000,000 positions deals 9 and 19 stay undecided; every
    # position that could still win is searched within 5,000,000 (3,978,868 and
    # 1,044,256 of them), a few seconds in C.
    rules = aces_up()
    for number in (9, 19):
        assert solve_deal(rules, number).verdict is Verdict.UNDECIDED
        result = solve_deal(rules, number, max_states=5_000_000)
        assert result.verdict is Verdict.UNWINNABLE, number
        assert result.engine == "c"
        assert 1_000_000 < result.positions < 5_000_000


def test_the_compiled_search_can_be_cancelled_and_passes_errors_on() -> None:
    stop = threading.Event()
    calls = []

    def cancel() -> bool:
        calls.append(1)
        if len(calls) == 2:
            stop.set()
        return stop.is_set()

    state = deal(aces_up(), 9)
    verdict, moves, positions, reason = search(state, "c", cancel=cancel)
    assert (verdict, moves, reason) == ("undecided", (), "cancelled")
    assert len(calls) == 2

    def broken() -> bool:
        raise RuntimeError("the window closed")

    with pytest.raises(RuntimeError, match="the window closed"):
        search(state, "c", cancel=broken)


def test_a_time_budget_stops_the_compiled_search() -> None:
    verdict, _, _, reason = search(deal(aces_up(), 9), "c", deadline=0.0)
    assert (verdict, reason) == ("undecided", "time budget")


@pytest.mark.slow
def test_solve_runs_the_compiled_search_and_says_which_engine_ran() -> None:
    rules = aces_up()
    result = solve_deal(rules, 34)
    assert result.verdict is Verdict.WINNABLE and result.engine == "c"
    assert result.peak_bytes > result.positions * 16
    reference = solve_deal(rules, 34, engine="python")
    assert reference.engine == "python" and reference.moves == result.moves
    assert reference.positions == result.positions and reference.peak_bytes == 0


def test_without_the_extension_the_python_search_runs_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(discards, "_csolver", None)
    rules = aces_up()
    result = solve_deal(rules, 10, engine="c")
    assert result.verdict is Verdict.WINNABLE and result.engine == "python"
    assert "the Python engine ran" in result.note
    assert native.IMPORT_ERROR in result.note or "not available" in result.note


def variant_like_aces_up(*changes: tuple[str, str]):  # noqa: ANN201 - a Rules
    text = files("solitaire_variants").joinpath("aces-up.toml").read_text("utf-8")
    for old, new in (('id = "aces-up"', 'id = "aces-up-changed"'), *changes):
        assert old in text
        text = text.replace(old, new, 1)
    return parse_variant(text, "aces-up-changed.toml").resolve()


def test_a_game_beyond_the_compiled_search_goes_to_the_python_one() -> None:
    defines = dict(re.findall(r"^#define (\w+) (\d+)$", C_SOURCE, re.MULTILINE))
    assert int(defines["DS_COLS"]) == discards.NATIVE_MAX_COLUMNS
    wide = variant_like_aces_up(
        ("columns = 4", "columns = 17"),
        ("\ncards = 48", "\ncards = 35"),
        ("win_cards = 48", "win_cards = 35"),
    )
    state = deal(wide, 1)
    assert discards.applies(wide)
    assert "17 columns" in discards.native_unsupported(state)
    # Two decks repeat every card, which the search's one bit per card cannot tell
    # apart: the game is not this search's at all.
    assert not discards.applies(variant_like_aces_up(("decks = 1", "decks = 2")))
