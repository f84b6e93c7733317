"""Cards that can never move (solitaire_core/solver/stock.py, ``frozen_cards``): a
position where a column card covers what it needs to leave is lost, and the stock
search says so at once, in both engines, without searching (docs/solver.md, "Cards that
can never move")."""

from __future__ import annotations

import random

import attrs
import pytest

import solitaire_core.solver.stock as stock
from solitaire_core import cli
from solitaire_core.cards import Card
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
from solitaire_core.solver import Verdict, native, solve_deal
from solitaire_core.state import GameState
from solitaire_core.testing import reference
from solitaire_core.variant import Rules


@pytest.mark.parametrize(
    "engine",
    [
        "python",
        pytest.param(
            "c", marks=pytest.mark.skipif(native._csolver is None, reason="no C extension")
        ),
    ],
)
@pytest.mark.parametrize("variant", ["klondike", "klondike-draw-3"])
def test_klondike_29_is_lost_as_dealt(variant: str, engine: str) -> None:
    """The Q of diamonds lies on the K of clubs and the Q of hearts on the K of spades,
    6 and 7 of hearts and 8 of diamonds: neither Queen has a King to go to or a way up, so
    neither ever moves. The search proves the deal lost from its first position, where it
    searched a million positions in vain before."""
    rules = get_variant(variant).resolve()
    state = Session(rules, 29).state
    assert {str(c) for c in stock.frozen_cards(state)} == {"QD", "QH"}
    result = solve_deal(rules, 29, engine=engine)
    assert result.verdict is Verdict.UNWINNABLE
    assert result.positions == 1
    assert result.engine == engine
    assert result.reason == "Q♦ and Q♥ can never move"


def test_the_solve_command_says_which_cards_can_never_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["solve", "klondike", "--deal", "29"]) == cli.EXIT_UNWINNABLE
    out = capsys.readouterr().out
    assert out.startswith("Klondike #29: unwinnable (Q♦ and Q♥ can never move: 1 position ")


def test_a_king_within_reach_frees_the_queens() -> None:
    """With the K of spades in the stock rather than under the Q of hearts, both Queens
    have a King to go to: no card is frozen, and the search goes on."""
    rules = get_variant("klondike").resolve()
    state = Session(rules, 29).state
    king = Card.parse("KS")
    columns = tuple(tuple(c for c in col if c != king) for col in state.columns)
    hidden = tuple(
        h - (king in col[:h]) for h, col in zip(state.hidden, state.columns, strict=True)
    )
    moved = attrs.evolve(state, columns=columns, hidden=hidden, stock=(king, *state.stock))
    assert stock.frozen_cards(moved) == frozenset()
    result = solve_deal(rules, 29, max_states=300)
    assert result.verdict is Verdict.UNWINNABLE
    assert stock.explore(moved, policy="safe", max_states=300)[2] > 1


def _end_game(rules: Rules, rng: random.Random) -> GameState:
    """A small end game of ``rules`` on 2 to 4 columns: the five to two highest cards of
    each suit in play, dealt at random, some of them face down; the rest up."""
    n = rng.randint(2, 4)
    board = attrs.evolve(rules, columns=n)
    suits = list(dict.fromkeys(c.suit for c in rules.cards))
    play: list[Card] = []
    found = []
    for suit in suits:
        low = rng.randint(9, 12)
        found.append(tuple(Card(rank, suit) for rank in range(1, low)))
        play += [Card(rank, suit) for rank in range(low, 14)]
    rng.shuffle(play)
    columns: list[list[Card]] = [[] for _ in range(n)]
    for card in play:
        columns[rng.randrange(n)].append(card)
    hidden = tuple(rng.randint(0, max(0, len(col) - 1)) for col in columns)
    return GameState(
        rules=board,
        columns=tuple(map(tuple, columns)),
        cells=(),
        foundations=tuple(found),
        hidden=hidden if any(hidden) else (),
    )


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["klondike", "yukon"])
def test_every_end_game_with_a_frozen_card_is_lost(variant: str) -> None:
    """On random small end games (runs moving as built in Klondike, any face-up card with
    the cards on it in Yukon), every position the test calls frozen is lost by the
    exhaustive reference search, which plays every legal move without autoplay."""
    rules = get_variant(variant).resolve()
    rng = random.Random(variant)
    frozen = 0
    for _ in range(400):
        state = _end_game(rules, rng)
        if not stock.frozen_cards(state):
            continue
        frozen += 1
        assert reference.winnable(state, budget=20_000) is False, state.to_text()
    assert frozen >= 10  # the check met enough frozen positions to mean something


@pytest.mark.parametrize(
    ("variant", "tested"),
    [
        ("klondike", True),
        ("yukon", True),
        ("canfield", True),
        ("scorpion", True),
        ("spiderette", True),
        ("spider", False),  # two decks: a card has a twin that may free it
        ("gypsy", False),
        ("freecell", False),  # a cell takes any card
        ("golf", False),  # one foundation, up or down
    ],
)
def test_the_test_runs_only_where_its_argument_holds(variant: str, tested: bool) -> None:
    assert stock.freezes(get_variant(variant).resolve()) is tested


def _end_game_with_waste(rules: Rules, rng: random.Random) -> GameState:
    """An end game of :func:`_end_game` with a few of its cards, at random, moved from
    the columns onto the waste (none in the stock, no redeal left: the waste keeps its
    order)."""
    state = _end_game(rules, rng)
    columns = [list(col) for col in state.columns]
    hidden = list(state.hidden or (0,) * len(columns))
    waste = []
    for _ in range(rng.randint(2, 6)):
        i = rng.randrange(len(columns))
        if len(columns[i]) > 1:
            waste.append(columns[i].pop())
            hidden[i] = min(hidden[i], len(columns[i]) - 1)
    return attrs.evolve(
        state,
        columns=tuple(map(tuple, columns)),
        hidden=tuple(hidden) if any(hidden) else (),
        waste=tuple(waste),
    )


@pytest.mark.slow
def test_every_end_game_with_a_frozen_waste_card_is_lost() -> None:
    """Where no redeal is left the waste keeps its order and counts as one more pile of
    the test: on random small Vegas Klondike end games with a waste, every position
    where the test finds a waste card that can never move is lost by the exhaustive
    reference search (every legal move, no autoplay); with a redeal left the same
    waste cards are not called frozen."""
    rules = get_variant("vegas-klondike").resolve()
    assert rules.redeals == 0
    rng = random.Random("vegas")
    frozen = 0
    for _ in range(1000):
        state = _end_game_with_waste(rules, rng)
        assert stock.waste_fixed(state)
        if not set(stock.frozen_cards(state)) & set(state.waste):
            continue
        frozen += 1
        assert reference.winnable(state, budget=20_000) is False, state.to_text()
        redeal_left = attrs.evolve(state, rules=attrs.evolve(rules, redeals=1))
        assert not set(stock.frozen_cards(redeal_left)) & set(state.waste)
    assert frozen >= 10  # the check met enough frozen waste cards to mean something


@pytest.mark.parametrize(
    "engine",
    [
        "python",
        pytest.param(
            "c", marks=pytest.mark.skipif(native._csolver is None, reason="no C extension")
        ),
    ],
)
@pytest.mark.parametrize(("number", "most"), [(8, 192), (145, 310), (12, 372)])
def test_a_loss_with_one_pass_through_the_stock_is_proved_in_few_positions(
    number: int, most: int, engine: str
) -> None:
    """Vegas Klondike deals the stock once: from its start the waste keeps its order, and
    every position stored with a waste card that can never move is lost as it lies. The
    proofs of loss of deals 8, 145 and 12 took 44,309, 50,292 and 3,718 positions when
    only the start was asked; both engines store the same positions."""
    rules = get_variant("vegas-klondike").resolve()
    result = solve_deal(rules, number, engine=engine, max_states=60_000)
    assert result.verdict is Verdict.UNWINNABLE
    assert result.positions == most
    assert result.engine == engine
