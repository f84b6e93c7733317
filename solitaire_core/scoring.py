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

``"cards-left"``
    Golf's scoring, where a lower score is better (David Parlett's rules of Golf, as
    Wikipedia's "Golf (patience)" gives them: "the score is the number of cards left in
    the tableau; if the tableau is cleared, the score is minus the number of cards left in
    the stock"). Here: the cards still in the columns, cells and reserve; once those are
    all cleared, minus the cards left in the stock and waste. PySolFC scores none of its
    Golf games (its ``Golf`` keeps ``Game.getGameScore``, which returns ``None``).

``"tri-peaks"``
    PySolFC's Three Peaks (Scored), game 22216 (pysollib/games/threepeaks.py,
    ``ThreePeaks.startGame``, ``computeHandScore`` and ``isGameWon``;
    ``ThreePeaks_RowStack.clickHandler``; ``ThreePeaks_TalonStack.dealCards``): -52 per
    deck to start; each card played from a column to a foundation extends the run (reset
    to 0 by every move from the stock) and scores ``m * 2 ** ((run - 1) // 4)``, where
    ``m`` doubles for every peak cleared (1, 2, 4, 8: a peak is a column of a
    ``tableau.layout`` that other columns cover and that covers none); clearing a peak
    scores ``5 * m`` more (the new ``m``). The card that wins scores as PySolFC's
    ``isGameWon`` does: it does not extend the run; if the run before it was not 0, it
    scores ``10`` per card left in the stock plus the run's last bonus again at ``m``.
    The score depends on the history (the run since the last deal from the stock), which
    :func:`score_after` reads from the earlier moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .moves import Move, PileKind

if TYPE_CHECKING:  # the statistics import SCHEMES without the rules engine
    from .state import GameState

__all__ = [
    "LOWER_IS_BETTER",
    "MONEY_SCHEMES",
    "SCHEMES",
    "best_of",
    "initial_score",
    "is_money",
    "lower_is_better",
    "score_after",
    "score_text",
]

SCHEMES = (
    "cards",
    "standard",
    "vegas",
    "vegas-cumulative",
    "spider",
    "cards-left",
    "tri-peaks",
)
"""The values of the top-level ``scoring`` key (the JSON Schema lists the same)."""

LOWER_IS_BETTER = ("cards-left",)
"""Schemes where the lower score is the better one (Golf's)."""

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

TRIPEAKS_START = -52
"""TriPeaks' score before the first move, per deck (PySolFC's ``hand_score = -52``)."""
TRIPEAKS_PEAK = 5
"""TriPeaks' points for a cleared peak, times the multiplier."""
TRIPEAKS_RUN_STEP = 4
"""Cards of a TriPeaks run per doubling of its bonus (``2 ** ((run - 1) // 4)``)."""
TRIPEAKS_STOCK_BONUS = 10
"""TriPeaks' points per card left in the stock when the game is won."""

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


def lower_is_better(scheme: str) -> bool:
    """Whether the lower of two scores by ``scheme`` is the better one (Golf's)."""
    return scheme in LOWER_IS_BETTER


def best_of(scores: Iterable[int], scheme: str) -> int | None:
    """The best of ``scores`` by ``scheme``: the highest, or the lowest where a lower
    score is better; ``None`` without scores."""
    kept = list(scores)
    if not kept:
        return None
    return min(kept) if lower_is_better(scheme) else max(kept)


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
    if scheme == "cards-left":
        return _cards_left(state)
    return None


def _cards_left(state: GameState) -> int:
    """Golf's score: the cards in the columns, cells and reserve, or once they are all
    cleared, minus the cards left in the stock and waste."""
    in_play = sum(len(column) for column in state.columns)
    in_play += sum(1 for cell in state.cells if cell is not None) + len(state.reserve)
    return in_play if in_play else -(len(state.stock) + len(state.waste))


def _peaks(state: GameState) -> tuple[int, ...]:
    """The peaks of a ``tableau.layout``: columns that others cover and that cover none
    (TriPeaks' three tops, PySolFC's ``rows[:3]``); ``()`` without a layout."""
    over = state.rules.covered_by
    under = {column for covering in over for column in covering}
    return tuple(i for i, covering in enumerate(over) if covering and i not in under)


def _from_play(move: Move) -> bool:
    """Whether a move plays a card from a column, cell or reserve to a foundation."""
    return move.target.kind is PileKind.FOUNDATION and move.source.kind in (
        PileKind.TABLEAU,
        PileKind.CELL,
        PileKind.RESERVE,
    )


def _run(earlier: Sequence[Move]) -> int:
    """TriPeaks' run: the cards played to a foundation since the last move from the
    stock (PySolFC's ``sequence``), counted back from the last of ``earlier``."""
    run = 0
    for move in reversed(earlier):
        if move.source.kind is PileKind.STOCK:
            break
        if _from_play(move):
            run += 1
    return run


def _run_bonus(multiplier: int, run: int) -> int:
    return multiplier * 2 ** ((run - 1) // TRIPEAKS_RUN_STEP)


def _tripeaks_points(
    move: Move, before: GameState, after: GameState, earlier: Sequence[Move]
) -> int:
    """What one move scores in TriPeaks (see the module docstring)."""
    if not _from_play(move):
        return 0
    peaks = _peaks(after)
    multiplier = 2 ** sum(1 for i in peaks if not after.columns[i])
    cleared = sum(1 for i in peaks if before.columns[i] and not after.columns[i])
    points = TRIPEAKS_PEAK * multiplier * cleared
    run = _run(earlier)
    if after.is_won:  # PySolFC's isGameWon: the winning card does not extend the run
        if run:
            points += TRIPEAKS_STOCK_BONUS * len(after.stock) + _run_bonus(multiplier, run)
        return points
    return points + _run_bonus(multiplier, run + 1)


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
    if scheme == "tri-peaks":
        return TRIPEAKS_START * start.rules.decks
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
    earlier: Sequence[Move] = (),
) -> int:
    """The score after one player move and the autoplay it caused.

    :param scheme: one of :data:`SCHEMES`.
    :param score: the score before the move.
    :param move: the player's move, its piles numbered.
    :param autoplay: the foundation moves autoplay made after it.
    :param before: the position before the move.
    :param after: the position after the move and the autoplay.
    :param earlier: the player's moves before this one, oldest first, as the history
        keeps them (only ``"tri-peaks"`` reads them, for its run since the last deal).
    :raises ValueError: for an unknown scheme.
    """
    by_state = _state_score(scheme, after)
    if by_state is not None:
        return by_state
    if scheme == "spider":
        gained = _complete_suits(after) - _complete_suits(before)
        return score - 1 + SPIDER_PER_SUIT * gained
    if scheme == "tri-peaks":
        return score + _tripeaks_points(move, before, after, earlier)
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
