"""Send up (docs/solver.md, item 10): where autoplay never moves a card, a card whose sending
up loses nothing goes up as the only move the search tries.

The reduction must never change a verdict: on small end games of the test variants it
applies to, both engines give the exhaustive reference search's verdict with it on and
off, and every win replays in a session. Where autoplay never moves a card, the reference
(which plays without autoplay) is exact.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_classes import rules_of
from test_solver_leave_order import engines_agree, replays

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import Verdict, solve
from solitaire_core.solver.engine import EMPTY, Engine
from solitaire_core.solver.search import solve_deal, tables_for
from solitaire_core.state import GameState
from solitaire_core.testing import reference
from solitaire_core.testing.strategies import reduced_board_positions

# The variant's own piles, none built in suit, single cards going up: one deck or two,
# with cells or without, piles from Aces, from a dealt rank, or from a Five with wrapping.
APPLIES = (
    "scotch-patience-like",
    "stalactites-like",
    "alternate-foundations",
    "two-deck-alternate-foundations",
)


def engine_for(position: GameState, policy: str) -> Engine:
    return Engine(tables_for(position.rules, position.bases), policy)


def fires(position: GameState, policy: str) -> bool:
    """Whether some exposed card of ``position`` is sent up as the only move."""
    engine = engine_for(position, policy)
    pos = engine.from_state(position)
    cols, cells, _found, need = pos
    inplay = {v for col in cols for v in col} | {v for v in cells if v != EMPTY}
    exposed = [col[-1] for col in cols if col] + [v for v in cells if v != EMPTY]
    return any(
        need >> engine.kind[v] & 1 and engine.sent_up_pile(pos, v, inplay) >= 0 for v in exposed
    )


def test_where_send_up_applies() -> None:
    for name in APPLIES:
        state = deal(rules_of(name), 1)
        assert engine_for(state, "safe").send_up, name
        assert engine_for(state, "off").send_up, name
        # Autoplay "all" moves cards the search would then have to follow.
        assert not engine_for(state, "all").send_up, name
    # Piles built in suit (autoplay "safe" sends cards to them), complete suits.
    for name in ("bisley-like", "penguin-like", "simple-simon-like", "double-freecell-like"):
        assert not engine_for(deal(rules_of(name), 1), "safe").send_up, name
    builtin = {}
    others = ("bisley", "penguin", "simple-simon", "double-freecell", "freecell", "seahaven")
    for vid in ("scotch-patience", "stalactites", *others, "flower-garden", "chessboard"):
        state = deal(get_variant(vid).resolve({}), 1)
        builtin[vid] = engine_for(state, state.rules.autoplay).send_up
    assert [v for v, yes in builtin.items() if yes] == ["scotch-patience", "stalactites"]


@pytest.mark.parametrize("name", APPLIES)
def test_verdicts_with_send_up_match_the_reference_search(name: str) -> None:
    rules = rules_of(name)
    seen = {"fired": 0, "won": 0, "lost": 0}

    @settings(max_examples=60, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(reduced_board_positions(rules, 9), st.sampled_from(["off", "safe"]))
    def check(position: GameState, policy: str) -> None:
        expected = reference.winnable(position, budget=20000)
        if expected is None:
            return
        seen["fired"] += fires(position, policy)
        seen["won" if expected else "lost"] += 1
        engines_agree(position, policy, expected, "send_up")

    check()
    assert seen["fired"] and seen["won"] and seen["lost"], seen


def test_the_check_catches_a_card_sent_up_that_another_pile_needed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The conditions planted away (every card that fits goes up to the first pile that
    takes it, as the only move): on Stalactites-like end games, whose piles start from
    dealt ranks, the reference then wins games the search calls lost, so the check above
    can tell a sound reduction from an unsound one."""
    rules = rules_of("stalactites-like")

    def unsound(self: Engine, pos: tuple, v: int, inplay: set[int]) -> int:
        return self.pile_choices(pos[2], self.kind[v])[0]

    monkeypatch.setattr(Engine, "sent_up_pile", unsound)
    wrong = []

    @settings(max_examples=200, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(reduced_board_positions(rules, 9))
    def check(position: GameState) -> None:
        expected = reference.winnable(position, budget=20000)
        if expected is None:
            return
        result = solve(position, autoplay="off", max_states=50000, engine="python")
        if (result.verdict is Verdict.WINNABLE) != expected:
            assert expected, "the planted fault can only lose wins"
            wrong.append(position.to_text())

    check()
    assert wrong


@pytest.mark.parametrize("engine", ("c", pytest.param("python", marks=pytest.mark.slow)))
def test_scotch_patience_wins_sooner_with_send_up(engine: str) -> None:
    """Scotch Patience #2 (PySolFC game 87): won either way, the win replays, and with
    send up the search stores fewer positions (36,518 against 50,862, both engines)."""
    rules = get_variant("scotch-patience").resolve({})
    on = solve_deal(rules, 2, engine=engine)
    off = solve_deal(rules, 2, engine=engine, ideas={"send_up": False})
    assert on.verdict is off.verdict is Verdict.WINNABLE
    assert on.engine == engine
    assert replays(deal(rules, 2), on.moves, rules.autoplay)
    assert on.positions < off.positions
