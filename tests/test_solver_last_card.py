"""The last-card dead-end test of the solver (deadends.LastCard, docs/solver.md item 11).

Where suits share a value (Scotch Patience's two black Kings are one value) the last card of
a value to go up needs every card of its chain up first. A position the test calls lost must
be lost: on small Scotch Patience end games in which both black Kings lie above cards of
their chain, the kit's exhaustive reference search agrees with it every time; and the deals
it settles are settled the same by both engines.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import Verdict, solve
from solitaire_core.solver.deadends import LastCard, last_card_applies
from solitaire_core.solver.engine import Engine
from solitaire_core.solver.search import tables_for
from solitaire_core.state import GameState
from solitaire_core.testing import reference
from solitaire_core.variant import load_variant_file

DATA = Path(__file__).resolve().parent / "data" / "variants"
RULES = attrs.evolve(load_variant_file(DATA / "scotch-patience-like.toml").resolve(), columns=3)
RANKS = "A23456789TJQK"


def last_card(state: GameState) -> LastCard:
    return LastCard(Engine(tables_for(state.rules, state.bases), "off"))


@st.composite
def chain_end_games(draw: st.DrawFn) -> GameState:
    """A Scotch Patience end game on three columns: each foundation pile is built up in
    alternate colours from its Ace to a height of 9 or more, the cards of each rank split
    between the two piles of their chain at random, and the cards not up lie in the
    columns in a random order, often with both Kings of a chain in play."""
    piles = []
    in_play = []
    for black_first in (True, False):  # the chain of the black Aces, then the red
        heights = sorted(draw(st.lists(st.integers(9, 13), min_size=2, max_size=2)))
        pair = [[], []]
        for rank in range(1, 14):
            black = (rank % 2 == 1) == black_first
            cards = [RANKS[rank - 1] + s for s in (("S", "C") if black else ("H", "D"))]
            if draw(st.booleans()):
                cards.reverse()
            for i in (0, 1):
                if rank <= heights[i]:
                    pair[i].append(cards[i])
                else:
                    in_play.append(cards[i])
        piles.extend(pair)
    order = draw(st.permutations(in_play))
    cuts = sorted(draw(st.lists(st.integers(0, len(order)), min_size=2, max_size=2)))
    columns = [order[: cuts[0]], order[cuts[0] : cuts[1]], order[cuts[1] :]]
    text = " ".join(",".join(c) or "-" for c in columns)
    return GameState.from_text(RULES, f"{text} | | {' '.join(','.join(p) for p in piles)}")


def test_where_the_test_applies() -> None:
    """Scotch Patience watches its four Kings (two values: one per chain); games whose
    values stand for one card each have nothing to watch (the leave-order test already
    reads the last card there), and games with cells do not qualify."""
    scotch = get_variant("scotch-patience").resolve()
    engine = Engine(tables_for(scotch), scotch.autoplay)
    assert last_card_applies(engine)
    assert [tables_for(scotch).rank[v] for v in LastCard(engine).watched] == [13, 13]
    bisley = get_variant("bisley").resolve()
    engine = Engine(tables_for(bisley), bisley.autoplay)
    assert last_card_applies(engine) and LastCard(engine).watched == ()
    for vid in ("freecell", "stalactites", "der-katzenschwanz"):
        rules = get_variant(vid).resolve()
        state = deal(rules, 1)
        assert not last_card_applies(Engine(tables_for(rules, state.bases), rules.autoplay))


def test_a_position_it_rules_out_cannot_be_won() -> None:
    seen = {"lost": 0, "kept": 0, "won": 0}

    @settings(max_examples=150, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(chain_end_games())
    def check(position: GameState) -> None:
        expected = reference.winnable(position, budget=20000)
        if expected is None:
            return
        engine = Engine(tables_for(position.rules, position.bases), "off")
        if LastCard(engine).lost(engine.from_state(position)):
            seen["lost"] += 1
            assert expected is False, position.to_text()
        else:
            seen["kept"] += 1
            seen["won"] += expected

    check()
    assert seen["lost"] >= 10 and seen["won"] >= 10, seen


def test_two_kings_above_their_chain_lose_and_one_clear_king_does_not() -> None:
    """Both black Kings above a card of their chain (the Three of clubs under the King of
    spades, the Five of spades under the King of clubs): lost, whichever King goes up
    last. With the King of spades at the bottom of its column instead (nothing under it)
    the position is won."""
    piles = "AS,2H AC,2D,3S,4H AH,2S,3H,4S,5H,6S,7H,8S,9H,TS,JH,QS,KH"
    piles += " AD,2C,3D,4C,5D,6C,7D,8C,9D,TC,JD,QC,KD"
    rest = "4D,5C,6H,7S,8D,9C,TH,JS,QD 6D,7C,8H,9S,TD,JC,QH"
    lost = GameState.from_text(RULES, f"3C,KS,5S,KC {rest} | | {piles}")
    assert last_card(lost).lost(Engine(tables_for(RULES), "off").from_state(lost))
    assert reference.winnable(lost, budget=200_000) is False
    for engine in ("c", "python"):
        result = solve(lost, autoplay="off", engine=engine)
        assert (result.verdict, result.positions, result.engine) == (
            Verdict.UNWINNABLE,
            1,
            engine,
        )
    clear = GameState.from_text(RULES, f"KS,5S,3C,KC {rest} | | {piles}")
    assert not last_card(clear).lost(Engine(tables_for(RULES), "off").from_state(clear))
    assert reference.winnable(clear, budget=200_000) is True


@pytest.mark.parametrize("engine", ("c", pytest.param("python", marks=pytest.mark.slow)))
def test_scotch_patience_6_is_lost_at_the_deal(engine: str) -> None:
    """Scotch Patience #6 (PySolFC game 87): the King of spades lies on the Five of spades
    and the King of clubs above the Seven of clubs; the black Kings end the two piles of
    their chain, so the second to go up would need its own chain's card from under it.
    Undecided after 8,500,000 positions (the whole default budget) before the last-card test."""
    start = deal(get_variant("scotch-patience").resolve(), 6)
    result = solve(start, engine=engine)
    assert (result.verdict, result.positions, result.engine) == (Verdict.UNWINNABLE, 1, engine)
    without = solve(start, engine=engine, max_states=10_000, ideas={"last_card": False})
    assert without.verdict is Verdict.UNDECIDED
