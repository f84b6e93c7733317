"""Advice that never peeks: what to play from what the player has seen.

The thoughtful search (:mod:`~solitaire_core.solver.stock`) knows where every face-down
card lies and the stock's order; its answer to "what should I play now?" would use cards
the player cannot see. This module answers from the player's view alone, by hindsight
optimisation (Bjarnason, Fern and Tadepalli, "Lower Bounding Klondike Solitaire with
Monte-Carlo Planning", ICAPS 2009): deal the unseen cards at random into the unseen
places many times, solve each such arrangement thoughtfully, and play the first move of
the solutions that win most often.

The unseen places are the face-down cards of the columns, the stock (its order) and the
face-down cards of a reserve (Canfield). The unseen cards are the cards of those places,
shuffled among them; nothing else of the position changes, so every arrangement looks
the same to the player, and the advice depends on the seed and the view only (a test
checks two positions that differ in hidden cards alone get the same advice).
"""

from __future__ import annotations

import random
from collections import Counter

import attrs

from ..cards import Card, card_code
from ..moves import Move
from ..state import GameState


def unseen_cards(state: GameState) -> list[Card]:
    """The cards the player cannot see in ``state``: face-down column cards (bottom
    first, column by column), then the stock (bottom first), then the reserve's
    face-down cards (bottom first)."""
    out = [
        c
        for i, col in enumerate(state.columns)
        for j, c in enumerate(col)
        if state.is_face_down(i, j)
    ]
    out += state.stock
    out += [c for j, c in enumerate(state.reserve) if state.is_reserve_face_down(j)]
    return out


def arrangement(state: GameState, rng: random.Random) -> GameState:
    """``state`` with its unseen cards (:func:`unseen_cards`) shuffled among the unseen
    places: a position the player cannot tell from ``state``.

    :param rng: the random source (a seeded :class:`random.Random` repeats the same
        arrangements).
    """
    # Sorted first, so the arrangement depends on which cards are unseen (what the view
    # says), never on where they truly lie.
    cards = sorted(unseen_cards(state), key=card_code)
    rng.shuffle(cards)
    it = iter(cards)
    columns = tuple(
        tuple(next(it) if state.is_face_down(i, j) else c for j, c in enumerate(col))
        for i, col in enumerate(state.columns)
    )
    stock = tuple(next(it) for _ in state.stock)
    reserve = tuple(
        next(it) if state.is_reserve_face_down(j) else c for j, c in enumerate(state.reserve)
    )
    return attrs.evolve(state, columns=columns, stock=stock, reserve=reserve)


@attrs.frozen
class HonestAdvice:
    """What :func:`honest_hint` found.

    :param move: the move to play (``None`` when no arrangement was won within the
        budget: then nothing is advised).
    :param wins: how many arrangements a solution starting with ``move`` won.
    :param samples: how many arrangements were solved.
    :param votes: per first move (in move notation), the arrangements it won.
    """

    move: Move | None
    wins: int
    samples: int
    votes: tuple[tuple[str, int], ...] = ()

    @property
    def text(self) -> str:
        """The advice in words for the player: "wins in 38 of 50 ways the hidden cards
        may lie"."""
        if self.move is None:
            return (
                f"no win found in {self.samples} ways the hidden cards may lie: no move is advised"
            )
        return f"wins in {self.wins} of {self.samples} ways the hidden cards may lie"


def honest_hint(
    state: GameState,
    *,
    samples: int = 20,
    max_states: int = 1000,
    seed: int = 0,
    autoplay: str | None = None,
) -> HonestAdvice:
    """Advise a move in ``state`` from what the player can see (module docstring).

    :param samples: arrangements of the unseen cards to solve (>= 1); a position without
        unseen cards is solved once, exactly.
    :param max_states: the positions each arrangement's search may store (>= 1).
    :param seed: the seed of the arrangements (same seed and view, same advice).
    :param autoplay: the autoplay policy the game is played with (default the
        variant's).
    :raises ValueError: when ``samples`` or ``max_states`` is below 1.
    """
    from . import Verdict, solve

    if type(samples) is not int or samples < 1:
        raise ValueError(f"samples: expected a whole number >= 1, got {samples!r}")
    if type(max_states) is not int or max_states < 1:
        raise ValueError(f"max_states: expected a whole number >= 1, got {max_states!r}")
    rng = random.Random(seed)
    hidden = bool(unseen_cards(state))
    rounds = samples if hidden else 1
    votes: Counter[str] = Counter()
    first: dict[str, Move] = {}
    for _ in range(rounds):
        position = arrangement(state, rng) if hidden else state
        result = solve(position, max_states=max_states, autoplay=autoplay)
        if result.verdict is Verdict.WINNABLE and result.moves:
            move = result.moves[0]
            votes[str(move)] += 1
            first.setdefault(str(move), move)
    if not votes:
        return HonestAdvice(None, 0, rounds)
    # Most wins first; among equals the move met first (the seed decides, not the cards).
    best = max(votes, key=lambda text: votes[text])
    return HonestAdvice(first[best], votes[best], rounds, tuple(votes.most_common()))
