"""Scoring schemes: how a game's score follows from its moves (the top-level ``scoring``
key of a variant file, docs/variant-format.md).

A score is never a counter that moves change and undo must remember to change back: it
is a function of the game's history. The session keeps, with every player move, the score
after it (:func:`score_after`, computed from the score before it and the move); undo takes
the move back and with it its score, redo puts both back.

The schemes, by the name a file gives:

``"cards"`` (the default)
    One point per card on a foundation (the Aisleriot help's scoring of Klondike and of
    its other games: "Each card in the Foundation piles scores one point").

``"standard"``
    Microsoft Windows Solitaire's standard scoring (the Solitaire help's "Scoring
    Systems", the table quoted by Wikipedia's Klondike article): a card from the waste
    to a column +5; a card to a foundation from the waste, a column or a cell +10; a
    face-down card turned face up +5; a card from a foundation back into play -15;
    turning the waste over -100 when cards are drawn one at a time, and -20 when they
    are drawn three at a time, the first two turns (three passes through the stock)
    free; never below 0. Windows' time penalty (-2 per 10 seconds) and time bonus are
    left out: a score here follows from the moves alone, so a saved game replays to the
    same score (Windows offers the same scoring untimed).

``"vegas"``
    Vegas scoring (Windows Solitaire's "Vegas", PySolFC's ``getGameScoreCasino``):
    a game costs 52 per deck and each card on a foundation earns 5, in dollars.

``"vegas-cumulative"``
    Vegas scoring with a bank carried from game to game (Windows' "Keep cumulative
    score", PySolFC's Casino Klondike balance): the game scores as ``"vegas"``; the
    statistics add up the games of the variant and option set into the bank.

``"spider"``
    Microsoft Spider Solitaire's scoring: 500 to start, 1 less per move (a deal from
    the stock is a move), 100 more per complete suit on the foundations. Windows also
    charges a point for an undo; here undo gives the move's point back, as it does for
    every scheme.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .moves import Move, PileKind

if TYPE_CHECKING:  # the statistics import SCHEMES without the rules engine
    from .state import GameState

__all__ = [
    "MONEY_SCHEMES",
    "SCHEMES",
    "initial_score",
    "is_money",
    "score_after",
    "score_text",
]

SCHEMES = ("cards", "standard", "vegas", "vegas-cumulative", "spider")
"""The values of the top-level ``scoring`` key (the JSON Schema lists the same)."""

MONEY_SCHEMES = ("vegas", "vegas-cumulative")
"""Schemes whose score is money (shown as ``$-47``)."""

VEGAS_ANTE = 52
"""Dollars a Vegas game costs per deck (one per card)."""
VEGAS_PER_CARD = 5
"""Dollars a card on a foundation earns in Vegas scoring."""
SPIDER_START = 500
"""Spider's score before the first move."""
SPIDER_PER_SUIT = 100
"""Spider's points per complete suit on the foundations."""

# Windows standard scoring, per card (see the module docstring).
WASTE_TO_TABLEAU = 5
TO_FOUNDATION = 10
TURN_OVER = 5
FROM_FOUNDATION = -15
RECYCLE_DRAW_ONE = -100
RECYCLE_DRAW_MORE = -20
FREE_RECYCLES_DRAW_MORE = 2
"""Turns of the waste that cost nothing when cards are drawn three at a time (three
passes through the stock are free)."""


def is_money(scheme: str) -> bool:
    """Whether ``scheme``'s score is money (the Vegas schemes)."""
    return scheme in MONEY_SCHEMES


def score_text(score: int, scheme: str) -> str:
    """A score as the player reads it: ``"35"``, or ``"$-47"`` for money.

    :param score: the score (points, or whole dollars for the Vegas schemes).
    :param scheme: one of :data:`SCHEMES`.
    """
    return f"${score}" if is_money(scheme) else str(score)


def _complete_suits(state: GameState) -> int:
    """Complete suits on the foundations: each 13 cards of one pile."""
    return sum(len(pile) // 13 for pile in state.foundations)


def _state_score(scheme: str, state: GameState) -> int | None:
    """The score of the schemes that depend only on the position, else ``None``."""
    if scheme == "cards":
        return state.foundation_cards
    if is_money(scheme):
        return VEGAS_PER_CARD * state.foundation_cards - VEGAS_ANTE * state.rules.decks
    return None


def _card_moves(moves: Iterable[Move]) -> int:
    """Windows standard points of moves that do not turn the waste over."""
    points = 0
    for move in moves:
        source, target = move.source.kind, move.target.kind
        if target is PileKind.FOUNDATION and source is not PileKind.FOUNDATION:
            points += TO_FOUNDATION * move.count
        elif source is PileKind.FOUNDATION and target is not PileKind.FOUNDATION:
            points += FROM_FOUNDATION * move.count
        elif source is PileKind.WASTE and target is PileKind.TABLEAU:
            points += WASTE_TO_TABLEAU * move.count
    return points


def initial_score(
    scheme: str, dealt: GameState, autoplay: tuple[Move, ...], start: GameState
) -> int:
    """The score before the first move.

    :param scheme: one of :data:`SCHEMES`.
    :param dealt: the position as dealt.
    :param autoplay: the moves autoplay made before the first move (cards already
        playable go up at once); they score as the player's moves would.
    :param start: the position after them, where the game starts.
    :raises ValueError: for an unknown scheme.
    """
    by_state = _state_score(scheme, start)
    if by_state is not None:
        return by_state
    if scheme == "spider":
        return SPIDER_START + SPIDER_PER_SUIT * _complete_suits(start)
    if scheme == "standard":
        turned = dealt.face_down_cards - start.face_down_cards
        return max(0, _card_moves(autoplay) + TURN_OVER * turned)
    raise ValueError(f"unknown scoring scheme {scheme!r} (known: {', '.join(SCHEMES)})")


def score_after(
    scheme: str,
    score: int,
    move: Move,
    autoplay: tuple[Move, ...],
    before: GameState,
    after: GameState,
) -> int:
    """The score after one player move and the autoplay it caused.

    :param scheme: one of :data:`SCHEMES`.
    :param score: the score before the move.
    :param move: the player's move, its piles numbered.
    :param autoplay: the foundation moves autoplay made after it.
    :param before: the position before the move.
    :param after: the position after the move and the autoplay.
    :raises ValueError: for an unknown scheme.
    """
    by_state = _state_score(scheme, after)
    if by_state is not None:
        return by_state
    if scheme == "spider":
        gained = _complete_suits(after) - _complete_suits(before)
        return score - 1 + SPIDER_PER_SUIT * gained
    if scheme == "standard":
        if move.source.kind is PileKind.WASTE and move.target.kind is PileKind.STOCK:
            if after.rules.draw == 1:
                points = RECYCLE_DRAW_ONE
            else:
                points = RECYCLE_DRAW_MORE if after.rounds > FREE_RECYCLES_DRAW_MORE else 0
        else:
            points = _card_moves((move, *autoplay))
            points += TURN_OVER * max(0, before.face_down_cards - after.face_down_cards)
        return max(0, score + points)
    raise ValueError(f"unknown scoring scheme {scheme!r} (known: {', '.join(SCHEMES)})")
