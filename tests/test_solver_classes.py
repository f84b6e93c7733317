"""Cards the rules cannot tell apart share one value in the solver (tables.py,
``Tables.classes``; docs/solver.md, "Cards the rules cannot tell apart").

Stalactites' foundations build regardless of suit and nothing builds on its columns, so
its four Fives are one value; Scotch Patience's foundations build in alternate colours
and its columns regardless of suit, so its two red Fives are one value. Verdicts must not
change (the exhaustive reference search plays the real cards), solutions must replay in a
session, and the search must store fewer positions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_leave_order import replays

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import Verdict, solve
from solitaire_core.solver.search import solve_deal, tables_for
from solitaire_core.state import GameState
from solitaire_core.testing import reference
from solitaire_core.testing.strategies import reduced_board_positions
from solitaire_core.variant import Rules, load_variant_file

DATA = Path(__file__).resolve().parent / "data" / "variants"
MERGED = {
    "stalactites-like": ("any", 4),
    "scotch-patience-like": ("color", 2),
    "alternate-foundations": ("color", 2),
    "two-deck-alternate-foundations": ("color", 4),
}


def rules_of(name: str) -> Rules:
    path = DATA / f"{name}.toml"
    if not path.exists():  # a solver-only test variant (no rules scenarios of its own)
        path = DATA.parent / "solver_variants" / f"{name}.toml"
    return load_variant_file(path).resolve()


def test_which_variants_share_values() -> None:
    for name, (classes, copies) in MERGED.items():
        tables = tables_for(rules_of(name))
        assert (tables.classes, tables.copies) == (classes, copies), name
        assert sum(tables.present) == 52 * rules_of(name).decks // copies, name
    # A suit-built foundation, a build in suit or a complete suit tells suits apart.
    for name in ("two-deck-alternate", "simple-simon-like", "bisley-like", "penguin-like"):
        assert tables_for(rules_of(name)).classes == "", name
    builtin = {v: tables_for(get_variant(v).resolve({})).classes for v in (
        "stalactites", "scotch-patience", "freecell", "seahaven", "fan", "bisley",
        "king-albert", "double-freecell", "simple-simon", "flower-garden", "penguin")}  # fmt: skip
    assert {v: c for v, c in builtin.items() if c} == {
        "stalactites": "any",
        "scotch-patience": "color",
    }


def test_cards_of_a_class_are_one_value() -> None:
    tables = tables_for(get_variant("scotch-patience").resolve({}))
    state = deal(tables.rules, 1)
    cards = [c for col in state.columns for c in col]
    by_value: dict[int, set[str]] = {}
    for card in cards:
        by_value.setdefault(tables.value(card), set()).add(str(card))
    assert len(by_value) == 26
    for names in by_value.values():
        assert len(names) == 2
        ranks = {n[:-1] for n in names}
        reds = {n[-1] in "DH" for n in names}
        assert len(ranks) == 1 and len(reds) == 1, names


@pytest.mark.parametrize("name", list(MERGED))
def test_verdicts_match_the_reference_search_on_the_real_cards(name: str) -> None:
    """End games on reduced boards: each engine's verdict with shared values is the
    exhaustive reference search's (which plays each real card), and every win replays."""
    rules = rules_of(name)
    seen = {"won": 0, "lost": 0}

    @settings(max_examples=40, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(reduced_board_positions(rules, 9), st.sampled_from(["off", "safe", "all"]))
    def check(position: GameState, policy: str) -> None:
        expected = reference.winnable(position, budget=20000)
        if expected is None or policy != "off":
            # The reference plays without autoplay; with autoplay the verdict of the
            # search with suits kept apart ("twins" off, Python) stands in for it.
            kept = solve(position, autoplay=policy, engine="python", ideas={"twins": False})
            if not kept.decided:
                return
            expected = kept.verdict is Verdict.WINNABLE
        seen["won" if expected else "lost"] += 1
        for engine in ("c", "python"):
            result = solve(position, autoplay=policy, max_states=50000, engine=engine)
            assert result.engine == engine, result.note
            assert result.decided, result.reason
            assert (result.verdict is Verdict.WINNABLE) == expected, position.to_text()
            if expected:
                assert replays(position, result.moves, policy)

    check()
    assert seen["won"] and seen["lost"], seen


@pytest.mark.slow
def test_stalactites_deals_the_search_drowned_in_are_proved_lost() -> None:
    """Stalactites #16 and #88 (PySolFC game 77) were undecided at 1,000,000 positions
    under every score with the four suits apart; with one value per rank both engines
    prove them unwinnable in under 500,000, the same positions each (every pile that may
    take a card is tried; a card whose sending up loses nothing goes up as the only move,
    docs/solver.md's "Send up": 163,898 and 404,354 positions before it). The Python
    engine, which takes a minute a deal here, searches the smaller of the two."""
    rules = get_variant("stalactites").resolve({})
    for number, positions, engines in ((16, 162_538, ("c", "python")), (88, 366_962, ("c",))):
        found = [solve_deal(rules, number, engine=e) for e in engines]
        assert [r.verdict for r in found] == [Verdict.UNWINNABLE] * len(engines), number
        assert [r.positions for r in found] == [positions] * len(engines), number
    apart = solve_deal(rules, 16, max_states=100_000, engine="python", ideas={"twins": False})
    assert apart.verdict is Verdict.UNDECIDED


@pytest.mark.parametrize("engine", ("c", "python"))
@pytest.mark.parametrize("number", (92, 292))
def test_stalactites_wins_that_need_a_card_on_another_pile(engine: str, number: int) -> None:
    """Stalactites' piles start from the dealt ranks and hold 13 cards each, so two piles
    with the same rank on top end at different ranks, and the player chooses (``t6>f3``).
    #92 and #292 are won only by putting some card on a pile other than the first that
    takes it; the search once tried only that first pile and called both unwinnable.
    Both engines now win them, and the win replays through a Session."""
    from solitaire_core.moves import PileKind
    from solitaire_core.rules import apply, pile_accepts

    rules = get_variant("stalactites").resolve({})
    state = deal(rules, number)
    result = solve(state, engine=engine)
    assert result.verdict is Verdict.WINNABLE and result.engine == engine, result.reason
    assert replays(state, result.moves, rules.autoplay)
    other = 0
    for move in result.moves:
        if move.target.kind is PileKind.FOUNDATION:
            card = state.pile(move.source)[-1]
            first = next(i for i in range(len(state.foundations)) if pile_accepts(state, i, card))
            other += move.target.index != first
        state = apply(state, move)
    assert other, "every card went to the first pile that takes it"


@pytest.mark.parametrize("engine", ("c", "python"))
def test_scotch_patience_wins_replay_with_shared_values(engine: str) -> None:
    rules = get_variant("scotch-patience").resolve({})
    for number in (1, 2, 3):
        result = solve_deal(rules, number, max_states=200_000, engine=engine)
        assert result.verdict is Verdict.WINNABLE and result.engine == engine
        assert replays(deal(rules, number), result.moves, rules.autoplay)
