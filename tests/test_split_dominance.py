"""The full thoughtful search of the Klondike games leaves out part of a run moved onto
its twin unless the card uncovered goes up (solitaire_core/solver/stock.py,
``prunes_splits``; docs/solver.md, "Part of a run moved to its twin"). A player notices
this as deals proved lost that used to stay undecided; were the rule wrong, as lost
deals that can be won. These tests set it against the exhaustive reference search, which
plays every legal move, on small Klondike end games built the way Klondike's columns
are (face-down cards under runs), with a stock and a waste.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

import solitaire_core.solver.stock as stock
from solitaire_core.cards import Card
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import legal_moves
from solitaire_core.session import Session
from solitaire_core.solver import native, solve_deal
from solitaire_core.state import GameState
from solitaire_core.testing import reference


def end_game(rules_id: str, rng: random.Random) -> GameState:
    """A small Klondike end game: the three to six highest cards of each suit in play on
    two to four columns, each column some face-down cards under a run in alternate
    colours, the cards left over in the stock and the waste."""
    base = get_variant(rules_id).resolve()
    n = rng.randint(2, 4)
    rules = attrs.evolve(base, columns=n)
    suits = list(dict.fromkeys(c.suit for c in rules.cards))
    pool: list[Card] = []
    found = []
    for suit in suits:
        low = rng.randint(9, 11)
        found.append(tuple(Card(rank, suit) for rank in range(1, low)))
        pool += [Card(rank, suit) for rank in range(low, 14)]
    rng.shuffle(pool)
    columns, hidden = [], []
    for _ in range(n):
        down = [pool.pop() for _ in range(min(rng.randint(0, 2), len(pool)))]
        up = [pool.pop()] if pool else []
        while up and rng.random() < 0.75:
            fits = [c for c in pool if rules.build(c, up[-1])]
            if not fits:
                break
            card = rng.choice(fits)
            pool.remove(card)
            up.append(card)
        if not up and down:
            up.append(down.pop())
        columns.append(tuple(down + up))
        hidden.append(len(down))
    cut = rng.randint(0, len(pool))
    return GameState(
        rules=rules,
        columns=tuple(columns),
        cells=(),
        foundations=tuple(found),
        stock=tuple(pool[:cut]),
        waste=tuple(pool[cut:]),
        hidden=tuple(hidden) if any(hidden) else (),
    )


def splits_left_out(state: GameState) -> int:
    """How many of ``state``'s legal moves the rule leaves out."""
    return sum(1 for move in legal_moves(state) if stock._split_in_vain(state, move))


ENGINES = ["python", *(["c"] if native._csolver is not None else [])]


@pytest.mark.parametrize(
    ("variant", "policy"),
    [
        ("klondike", "off"),
        pytest.param("klondike", "safe", marks=pytest.mark.slow),
        pytest.param("klondike-draw-3", "safe", marks=pytest.mark.slow),
    ],
)
def test_no_win_is_lost_on_small_end_games(variant: str, policy: str) -> None:
    """On random end games, the search with the rule (in each engine) gives the
    exhaustive search's verdict wherever that decides, and the end games give the rule
    something to do: won ones where it leaves a move out at the start."""
    rng = random.Random(f"{variant}-{policy}")
    assert agrees_on_end_games(variant, policy, rng, stock.prunes_splits, splits_left_out) >= 10


def agrees_on_end_games(
    variant: str,
    policy: str,
    rng: random.Random,
    applies: Callable[[GameState, str], bool],
    left_out: Callable[[GameState], int],
) -> int:
    """Search 80 random end games of ``variant`` (:func:`end_game`) in each engine and
    assert the exhaustive reference search's verdict wherever that decides, and that
    ``applies`` (the rule's test of where it holds) holds on each; returns how many won
    ones have a move ``left_out`` (counting the moves the rule leaves out) at the start."""
    pruned_won = 0
    for _ in range(80):
        state = end_game(variant, rng)
        assert applies(state, policy)
        expected = reference.winnable(state, budget=20_000, policy=policy)
        if expected is None:
            continue
        for engine in ENGINES:
            verdict = stock.explore(state, policy=policy, max_states=200_000, engine=engine)[0]
            assert verdict != "undecided", state.to_text()
            assert (verdict == "winnable") == expected, (engine, state.to_text())
        pruned_won += bool(expected and left_out(state))
    return pruned_won


def test_leaving_out_also_the_splits_that_send_a_card_up_loses_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The end games above are sharp enough to catch a wrong rule: leaving out every
    split, even one that uncovers a card able to go up, calls winnable end games lost."""

    def every_split(state: GameState, move: Move) -> bool:
        if not move.source.kind is move.target.kind is stock.PileKind.TABLEAU:
            return False
        i = move.source.index or 0
        face_up = len(state.columns[i]) - (state.hidden[i] if state.hidden else 0)
        return (move.count or 1) < face_up

    monkeypatch.setattr(stock, "_split_in_vain", every_split)
    rng = random.Random("klondike-off")
    wrong = 0
    for _ in range(80):
        state = end_game("klondike", rng)
        expected = reference.winnable(state, budget=20_000, policy="off")
        if expected:
            verdict = stock.explore(state, policy="off", max_states=200_000, engine="python")[0]
            wrong += verdict == "unwinnable"
    assert wrong >= 1


def test_which_searches_leave_out_splits() -> None:
    """The Klondike games with autoplay "safe" or "off", from positions whose face-up
    cards form runs; not with autoplay "all", not Yukon (face-up cards in any order move
    together), Canfield (its reserve), Forty Thieves or Spider."""
    for variant in ("klondike", "klondike-draw-3", "vegas-klondike", "casino-klondike"):
        state = Session(get_variant(variant).resolve(), 1).state
        assert stock.prunes_splits(state, "safe") and stock.prunes_splits(state, "off")
        assert not stock.prunes_splits(state, "all")
    for variant in ("yukon", "canfield", "forty-thieves", "spider", "scorpion"):
        state = Session(get_variant(variant).resolve(), 1).state
        assert not stock.prunes_splits(state, "safe"), variant
    rules = get_variant("klondike").resolve()
    jumbled = "#KS,9H,8C,2D 9D - - - - - | | - - - - | stock - | waste -"
    assert not stock.prunes_splits(GameState.from_text(rules, jumbled), "safe")


@pytest.mark.skipif(native._csolver is None, reason="the C extension is not built")
def test_klondike_draw_3_deal_38_is_proved_lost() -> None:
    """Undecided at the default million positions before the rule (and by Solvitaire with
    the same moves in 10 s), proved lost with it."""
    result = solve_deal(get_variant("klondike-draw-3").resolve(), 38, engine="c")
    assert result.verdict.value == "unwinnable"
    assert result.positions < 1_000_000


def test_yukon_would_lose_a_win_with_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why Yukon is left out: its columns' face-up cards need not form runs, so the twin
    a group could go onto may lie in the group itself. This end game (the clubs up to the
    Nine, spades and hearts to the Jack, diamonds to the Ten; the Jack of clubs face down)
    is won, and the search with the rule forced on calls it lost in both engines."""
    rules = attrs.evolve(get_variant("yukon").resolve(), columns=2)
    ups = " ".join(
        ",".join(f"{rank}{suit}" for rank in [*"A23456789", "T", "J"][:top])
        for suit, top in (("C", 9), ("S", 11), ("H", 11), ("D", 10))
    )
    state = GameState.from_text(rules, f"KD,QS,QH,KH,KS,JD,KC #JC,QC,TC,QD |  | {ups}")
    assert reference.winnable(state, budget=20_000, policy="off") is True
    assert not stock.prunes_splits(state, "off")
    assert stock.explore(state, policy="off", max_states=10_000, engine="python")[0] == "winnable"
    monkeypatch.setattr(stock, "prunes_splits", lambda state, policy: True)
    for engine in ENGINES:
        assert stock.explore(state, policy="off", max_states=10_000, engine=engine)[0] == (
            "unwinnable"
        )
