"""Property tests over every built-in variant (and each option choice), with Hypothesis:

* random legal play keeps every card exactly once;
* ``apply`` never changes the state it is given;
* undo after a move gives back exactly the state before it, redo the state after;
* a game is won exactly when every card is on a foundation.

Example counts are small to keep the suite fast; the conformance kit
(solitaire_core/testing) runs longer sessions.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire_core.cards import SUITS, Card
from solitaire_core.deal import MAX_DEAL, deal
from solitaire_core.moves import PileKind
from solitaire_core.plugins import get_registry
from solitaire_core.rules import apply, autoplay_moves, legal_moves
from solitaire_core.session import Session
from solitaire_core.state import GameState
from solitaire_core.variant import Rules


def all_rules() -> list[Rules]:
    out = []
    for _, definition in sorted(get_registry().variants.items()):
        if definition.plugin != "solitaire_variants":
            continue
        out.append(definition.resolve())
        for option in definition.options:
            out += [
                definition.resolve({option.name: c.value})
                for c in option.choices
                if c.value != option.default
            ]
    return out


RULES = all_rules()
IDS = [r.id + "".join(f"-{v}" for _, v in r.options) for r in RULES]
PROPERTY = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
deal_numbers = st.one_of(st.integers(1, 32000), st.integers(32001, MAX_DEAL))
picks = st.lists(st.integers(0, 10**6), min_size=1, max_size=60)


def snapshot(state: GameState) -> tuple:
    return (state.to_text(), state.columns, state.cells, state.foundations)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
@PROPERTY
@given(number=deal_numbers, choices=picks, cheat=st.booleans())
def test_random_play_conserves_cards_and_apply_never_mutates(
    rules: Rules, number: int, choices: list[int], cheat: bool
) -> None:
    expected = Counter(rules.cards)
    state, _ = autoplay_moves(deal(rules, number))
    assert Counter(state.all_cards()) == expected
    for pick in choices:
        moves = legal_moves(state, cheat=cheat)
        if not moves:
            break
        move = moves[pick % len(moves)]
        before = snapshot(state)
        after = apply(state, move, cheat=cheat)
        assert snapshot(state) == before  # the input is untouched
        assert Counter(after.all_cards()) == expected
        assert len(after.all_cards()) == rules.card_count
        state, _ = autoplay_moves(after)
        assert Counter(state.all_cards()) == expected


@pytest.mark.parametrize("rules", RULES, ids=IDS)
@PROPERTY
@given(number=deal_numbers, choices=picks)
def test_undo_after_a_move_restores_the_exact_state(
    rules: Rules, number: int, choices: list[int]
) -> None:
    session = Session(rules, number)
    for pick in choices:
        moves = legal_moves(session.state)
        if not moves:
            break
        before, moves_before, score_before = session.state, session.moves, session.score
        turn = session.play(moves[pick % len(moves)])
        after = session.state
        assert turn.before == before and turn.after == after
        session.undo()
        assert session.state == before and session.state.to_text() == before.to_text()
        assert session.moves == moves_before and session.score == score_before
        session.redo()
        assert session.state == after
        if pick % 3 == 0:  # sometimes really take it back and go another way
            session.undo()


@st.composite
def endgames(draw: st.DrawFn, rules: Rules) -> GameState:
    """Every foundation full except its top few cards, which lie in the columns and
    cells in any order: some such positions can be finished, some cannot."""
    foundations = []
    loose: list[Card] = []
    for index in range(rules.foundations):
        suit, deck = SUITS[index % 4], index // 4
        height = draw(st.integers(10, 13))
        foundations.append(tuple(Card(r, suit, deck) for r in range(1, height + 1)))
        loose += [Card(r, suit, deck) for r in range(height + 1, 14)]
    loose = draw(st.permutations(loose))
    columns: list[list[Card]] = [[] for _ in range(rules.columns)]
    cells: list[Card | None] = [None] * rules.cells
    for card in loose:
        free = [i for i, c in enumerate(cells) if c is None]
        if free and draw(st.booleans()):
            cells[draw(st.sampled_from(free))] = card
        else:
            columns[draw(st.integers(0, rules.columns - 1))].append(card)
    return GameState(
        rules=rules,
        columns=tuple(map(tuple, columns)),
        cells=tuple(cells),
        foundations=tuple(foundations),
    )


# The endgame generator gives each pile one suit of one deck; games whose piles take a suit
# twice (Double FreeCell: 2 decks on 4 piles) are covered by their scenarios instead.
ONE_SUIT_PER_PILE = [(r, i) for r, i in zip(RULES, IDS) if r.foundations == 4 * r.decks]


@pytest.mark.parametrize(
    "rules", [r for r, _ in ONE_SUIT_PER_PILE], ids=[i for _, i in ONE_SUIT_PER_PILE]
)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_won_exactly_when_every_card_is_on_a_foundation(rules: Rules, data: st.DataObject) -> None:
    state = data.draw(endgames(rules))
    session = Session(rules, 1, state=state, autoplay="off")
    while True:
        assert session.is_won == (state_cards_in_play(session.state) == 0)
        assert session.is_won == (session.state.foundation_cards == rules.card_count)
        ups = [m for m in legal_moves(session.state) if m.target.kind is PileKind.FOUNDATION]
        if not ups:
            break
        session.play(ups[0])
    if session.is_won:
        assert not session.no_useful_move()
        assert legal_moves(session.state) == []


def state_cards_in_play(state: GameState) -> int:
    return sum(map(len, state.columns)) + sum(c is not None for c in state.cells)
