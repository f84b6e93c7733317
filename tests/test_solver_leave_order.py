"""The leave-order dead-end test of the solver (docs/solver.md, "Leave order").

A position it calls lost must be lost: on small end games of the test variants it applies
to, every position it rules out is unwinnable by the kit's exhaustive reference search, and
both engines give the reference's verdict with it on and off.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
from solitaire_core.solver import Verdict, solve
from solitaire_core.solver.deadends import LeaveOrder, leave_order_applies
from solitaire_core.solver.engine import Engine
from solitaire_core.solver.search import tables_for
from solitaire_core.state import GameState
from solitaire_core.testing import reference
from solitaire_core.testing.strategies import reduced_board_positions
from solitaire_core.variant import Rules, load_variant_file

DATA = Path(__file__).resolve().parent / "data" / "variants"
# No cells that take cards, one deck, no return from the foundations; single-card moves or
# runs through empty columns that any card may fill. The classic foundations, or the
# variant's own piles (Bisley's up and down rows, Scotch Patience's alternate colours).
APPLIES = (
    "bakers-dozen-like",
    "beleaguered-castle-like",
    "fortress-like",
    "king-albert-like",
    "bisley-like",
    "scotch-patience-like",
)


def rules_of(name: str) -> Rules:
    return load_variant_file(DATA / f"{name}.toml").resolve()


def replays(state: GameState, moves: tuple, policy: str) -> bool:
    session = Session(state.rules, 1, state=state, autoplay=policy)
    for move in moves:
        session.play(move)
    return session.is_won


def test_where_the_test_applies() -> None:
    for name in APPLIES:
        assert leave_order_applies(tables_for(rules_of(name))), name
    for name in ("alternate-foundations", "double-freecell-like", "simple-simon-like"):
        assert not leave_order_applies(tables_for(rules_of(name))), name
    builtin = {
        v: leave_order_applies(tables_for(get_variant(v).resolve({})))
        for v in ("bakers-dozen", "good-measure", "beleaguered-castle", "streets-and-alleys")
        + ("bisley", "scotch-patience", "flower-garden", "freecell", "seahaven")
        + ("double-freecell", "simple-simon", "die-schlange")
    }
    assert [v for v, yes in builtin.items() if yes] == [
        "bakers-dozen",
        "good-measure",
        "beleaguered-castle",
        "streets-and-alleys",
        "bisley",
        "scotch-patience",
        "flower-garden",
    ]


def engines_agree(position: GameState, policy: str, expected: bool, idea: str) -> None:
    """Both engines, with the reduction ``idea`` on and off, decide ``position`` (autoplay
    ``policy``) as ``expected`` says, and every win replays in a session."""
    for solver in ("c", "python"):
        for on in (True, False):
            result = solve(
                position, autoplay=policy, max_states=50000, engine=solver, ideas={idea: on}
            )
            assert result.engine == solver, result.note
            assert result.decided, result.reason
            assert (result.verdict is Verdict.WINNABLE) == expected, position.to_text()
            if expected:
                assert replays(position, result.moves, policy)


@pytest.mark.parametrize("name", APPLIES)
def test_a_position_it_rules_out_cannot_be_won(name: str) -> None:
    rules = rules_of(name)
    seen = {"stranded": 0, "won": 0}

    @settings(max_examples=80, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(reduced_board_positions(rules, 9), st.sampled_from(["off", "safe", "all"]))
    def check(position: GameState, policy: str) -> None:
        # The reference plays without autoplay; under "safe" or "all" the verdict with the
        # test off stands in for it (autoplay "all" can lose a game the reference wins).
        expected = reference.winnable(position, budget=20000)
        if expected is None:
            return
        engine = Engine(tables_for(position.rules, position.bases), "off")
        if LeaveOrder(engine).stranded(engine.from_state(position)):
            seen["stranded"] += 1
            assert not expected, position.to_text()
        if policy != "off":
            off = solve(position, autoplay=policy, ideas={"leave_order": False})
            expected = off.verdict is Verdict.WINNABLE
        seen["won"] += expected
        engines_agree(position, policy, expected, "leave_order")

    check()
    assert seen["stranded"] and seen["won"], seen


@pytest.mark.parametrize("engine", ("c", "python"))
def test_a_king_above_a_lower_card_of_its_suit_is_lost_at_once(engine: str) -> None:
    """Nothing fills an empty column and a King has no card to go on, so the King of
    hearts leaves only for its foundation, after the Five below it: lost, and known from
    the start position alone."""
    rules = attrs.evolve(rules_of("bakers-dozen-like"), columns=3)
    text = (
        "5H,KH,4S 6H,7H,8H,9H,TH,JH,QH 5S,6S,7S,8S,9S,TS,JS,QS,KS"
        " | | AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,KC"
        " AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD AH,2H,3H,4H AS,2S,3S"
    )
    start = GameState.from_text(rules, text)
    assert len(start.all_cards()) == 52
    result = solve(start, autoplay="off", engine=engine)
    assert result.engine == engine, result.note
    assert (result.verdict, result.positions) == (Verdict.UNWINNABLE, 1)
    without = solve(start, autoplay="off", engine=engine, ideas={"leave_order": False})
    assert without.verdict is Verdict.UNWINNABLE
    assert without.positions > 1


@pytest.mark.parametrize("engine", ("c", "python"))
def test_a_card_goes_up_only_after_one_it_may_follow_went_up(engine: str) -> None:
    """Scotch Patience #26 (PySolFC game 87): both black Tens lie under red Kings, and a
    red King goes up only on a black Queen, above a black Ten, of its pile. The Kings never
    move otherwise (no card takes them, no empty column is filled), so no black Ten ever
    goes up: lost from the start. The test once let a card follow on a pile any card
    that had merely left its place, so every card could leave, and the search stored
    8,500,000 positions (every later search of the default budget) without a verdict."""
    from solitaire_core.deal import deal

    start = deal(get_variant("scotch-patience").resolve(), 26)
    result = solve(start, engine=engine, max_states=10_000)
    assert result.engine == engine, result.note
    assert (result.verdict, result.positions) == (Verdict.UNWINNABLE, 1)
    without = solve(start, engine=engine, max_states=10_000, ideas={"leave_order": False})
    assert without.verdict is Verdict.UNDECIDED
