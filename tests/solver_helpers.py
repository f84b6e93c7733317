"""Helpers shared by the tests of the dedicated searches (tests/test_*_solver.py)."""

from __future__ import annotations

from collections.abc import Iterable

from solitaire_core.moves import Move
from solitaire_core.rules import apply
from solitaire_core.state import GameState


def replays_to_a_win(state: GameState, moves: Iterable[Move]) -> bool:
    """Whether playing ``moves`` from ``state`` through the core's rules (each checked
    legal by :func:`~solitaire_core.rules.apply`) ends in a won position."""
    for move in moves:
        state = apply(state, move)
    return state.is_won
