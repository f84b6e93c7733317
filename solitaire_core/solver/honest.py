"""Advice that never peeks: what to play from what the player has seen.

The thoughtful search (:mod:`~solitaire_core.solver.stock`) knows where every face-down
card lies and the stock's order; its answer to "what should I play now?" would use cards
the player cannot see. This module answers from the player's view alone, by hindsight
optimisation (Bjarnason, Fern and Tadepalli, "Lower Bounding Klondike Solitaire with
Monte-Carlo Planning", ICAPS 2009): deal the unseen cards at random into the unseen
places many times, solve each such arrangement thoughtfully, and play the first move of
the solutions that win most often.

The unseen places are the face-down cards of the columns, the stock (its order; but for
its top card where that lies face up, Pyramid's ``stock.top_plays``) and the face-down
cards of a reserve (Canfield). The unseen cards are the cards of those places,
shuffled among them; nothing else of the position changes, so every arrangement looks
the same to the player, and the advice depends on the seed and the view only (a test
checks two positions that differ in hidden cards alone get the same advice).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import attrs

from ..cards import Card, card_code
from ..moves import Move, PileKind
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
    out += _unseen_stock(state)
    out += [c for j, c in enumerate(state.reserve) if state.is_reserve_face_down(j)]
    return out


def _unseen_stock(state: GameState) -> tuple[Card, ...]:
    """The stock's cards the player cannot see: all, or all but a face-up top card."""
    if state.rules.stock_top_plays:
        return state.stock[:-1]
    return state.stock


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
    stock = tuple(next(it) for _ in _unseen_stock(state)) + state.stock[len(_unseen_stock(state)) :]
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
    :param fallback: when no arrangement was won: why ``move`` (then a move chosen from
        the view alone, :func:`progress_move`) was advised, e.g. ``"it turns a face-down
        card up"``; ``""`` otherwise.
    :param cancelled: the search was stopped before every arrangement was solved.
    """

    move: Move | None
    wins: int
    samples: int
    votes: tuple[tuple[str, int], ...] = ()
    fallback: str = ""
    cancelled: bool = False

    @property
    def text(self) -> str:
        """The advice in words for the player: "wins in 38 of 50 ways the hidden cards
        may lie"."""
        none = f"no win found in {self.samples} ways the hidden cards may lie"
        if self.move is None:
            return none + ": no move is advised"
        if self.fallback:
            return f"{none}; {self.fallback}"
        return f"wins in {self.wins} of {self.samples} ways the hidden cards may lie"


def progress_move(state: GameState) -> tuple[Move | None, str]:
    """A move chosen from the view alone, for when no arrangement of the hidden cards is
    won within the budget: the first legal move that sends a card to a foundation, else
    one that turns a face-down card up, else one that empties a column, else the stock's
    deal; ``(None, "")`` when there is none of these.

    :return: the move and why it was chosen, in words for the player.
    """
    from ..rules import apply, legal_moves

    moves = legal_moves(state)
    for move in moves:
        if move.target.kind is PileKind.FOUNDATION and move.source.kind is not PileKind.FOUNDATION:
            return move, "this move sends a card up"
    columns = [m for m in moves if m.source.kind is PileKind.TABLEAU]
    for move in columns:
        if apply(state, move).face_down_cards < state.face_down_cards:
            return move, "this move turns a face-down card up"
    for move in columns:
        whole = move.count == len(state.pile(move.source))
        if whole and move.target.kind is PileKind.TABLEAU and state.pile(move.target):
            return move, "this move empties a column"
    for move in moves:
        if move.source.kind is PileKind.STOCK:
            return move, "this move deals from the stock"
    return None, ""


def honest_hint(
    state: GameState,
    *,
    samples: int = 20,
    max_states: int = 1000,
    seed: int = 0,
    autoplay: str | None = None,
    cancel: Callable[[], bool] | None = None,
) -> HonestAdvice:
    """Advise a move in ``state`` from what the player can see (module docstring).

    :param samples: arrangements of the unseen cards to solve (>= 1); a position without
        unseen cards is solved once, exactly.
    :param max_states: the positions each arrangement's search may store (>= 1).
    :param seed: the seed of the arrangements (same seed and view, same advice).
    :param autoplay: the autoplay policy the game is played with (default the
        variant's).
    :param cancel: returns True to stop (checked between and within the searches); the
        advice then has ``cancelled`` set and no move.
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
    for done in range(rounds):
        if cancel is not None and cancel():
            return HonestAdvice(None, 0, done, cancelled=True)
        position = arrangement(state, rng) if hidden else state
        result = solve(position, max_states=max_states, autoplay=autoplay, cancel=cancel)
        if result.verdict is Verdict.WINNABLE and result.moves:
            move = result.moves[0]
            votes[str(move)] += 1
            first.setdefault(str(move), move)
    if cancel is not None and cancel():
        return HonestAdvice(None, 0, rounds, cancelled=True)
    if not votes:
        chosen, why = progress_move(state) if hidden else (None, "")
        return HonestAdvice(chosen, 0, rounds, fallback=why)
    # Most wins first; among equals the move met first (the seed decides, not the cards).
    best = max(votes, key=lambda text: votes[text])
    return HonestAdvice(first[best], votes[best], rounds, tuple(votes.most_common()))
