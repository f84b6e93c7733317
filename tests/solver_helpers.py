"""Helpers shared by the tests of the dedicated searches (tests/test_*_solver.py)."""

from __future__ import annotations

from collections.abc import Iterable

from solitaire_core.deal import deal
from solitaire_core.moves import Move
from solitaire_core.rules import apply
from solitaire_core.session import Session
from solitaire_core.state import GameState
from solitaire_core.variant import Rules


def replays_to_a_win(state: GameState, moves: Iterable[Move]) -> bool:
    """Whether playing ``moves`` from ``state`` through the core's rules (each checked
    legal by :func:`~solitaire_core.rules.apply`) ends in a won position."""
    for move in moves:
        state = apply(state, move)
    return state.is_won


def wins_as_played(rules: Rules, number: int, moves: Iterable[Move]) -> bool:
    """Whether ``moves`` win deal ``number`` both through the core's rules alone
    (:func:`replays_to_a_win`) and as a player would play them (a
    :class:`~solitaire_core.session.Session`, with the variant's autoplay)."""
    moves = list(moves)
    if not replays_to_a_win(deal(rules, number), moves):
        return False
    session = Session(rules, number)
    for move in moves:
        session.play(move)
    return session.is_won
