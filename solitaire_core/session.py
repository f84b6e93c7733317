"""The session: the one mutable object of the core, a game being played.

It keeps the move history for unlimited undo and redo, applies the variant's autoplay after
each player move (one undo takes back the move and the autoplay it caused), counts moves,
the score (by the variant's scoring scheme, :mod:`solitaire_core.scoring`) and cheats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import overload

import attrs

from .deal import deal as deal_layout
from .errors import IllegalMoveError
from .moves import Move, PileKind
from .rules import _play, autoplay_may_start, autoplay_moves, find_progress, resolve
from .scoring import initial_score, score_after
from .state import GameState
from .variant import Rules, VariantDefinition


@attrs.frozen
class Turn:
    """One player move and its consequences.

    :param move: the player's move, with numbered piles.
    :param autoplay: the foundation moves autoplay made after it, in order.
    :param before: the state before the move.
    :param after: the state after the move and the autoplay.
    :param cheated_cards: cards of this move that normal rules would not have let move
        (0 for a normal move; the whole run for a run only Cheat allowed).
    :param score: the game's score after this move and its autoplay, by the variant's
        scheme (:func:`~solitaire_core.scoring.score_after` of the score before it); it
        follows from the moves before it, so undo and redo carry it with the move.
    """

    move: Move
    autoplay: tuple[Move, ...]
    before: GameState
    after: GameState
    cheated_cards: int = 0
    score: int = 0


class _PlayerMoves(Sequence[Move]):
    """The player's moves of a history, oldest first, read in place (what
    :func:`~solitaire_core.scoring.score_after` reads back from for a run)."""

    def __init__(self, history: list[Turn]) -> None:
        self._history = history

    def __len__(self) -> int:
        return len(self._history)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        if isinstance(index, slice):
            return [turn.move for turn in self._history[index]]
        return self._history[index].move


def play_move(
    state: GameState, move: Move, policy: str, *, cheat: bool = False, settled: bool = False
) -> tuple[Move, list[Move], GameState]:
    """One player move and the autoplay after it: what :meth:`Session.play` does to its
    state (the solver checks its solutions with it, without a session's history).

    :param move: a move, its target pile possibly unnumbered (see
        :func:`~solitaire_core.rules.resolve`).
    :param policy: the autoplay policy (``"off"``, ``"safe"``, ``"all"``); no autoplay
        follows a card taken back from a foundation (``foundations.return_to_play``).
    :param settled: ``state`` is a position autoplay with ``policy`` has already run on
        (as after an earlier call with the same policy): the sweep is then left out where
        :func:`~solitaire_core.rules.autoplay_may_start` says nothing can go up. The
        result is the same either way.
    :return: the move with both piles numbered, the autoplay moves after it, the new state.
    :raises IllegalMoveError: with the reason, when the move is illegal.
    """
    concrete = resolve(state, move, cheat=cheat)
    after, auto = play_resolved(state, concrete, policy, settled=settled)
    return concrete, auto, after


def play_resolved(
    state: GameState, move: Move, policy: str, *, settled: bool = False
) -> tuple[GameState, list[Move]]:
    """A move already known to be legal, both piles numbered, and the autoplay after it:
    ``(new state, autoplay moves)``. No autoplay follows a card taken back from a
    foundation (autoplay would send it straight up again and undo the player's move).
    :func:`play_move` after its check (``settled`` as there); the thoughtful search calls
    it on the moves :func:`~solitaire_core.rules.legal_moves` gives, which need no second
    check."""
    if move.source.kind is PileKind.FOUNDATION:
        return _play(state, move), []
    if settled and not autoplay_may_start(state, move, policy):
        return _play(state, move), []
    return autoplay_moves(_play(state, move), policy)


class Session:
    """A game in progress.

    :param rules: the resolved variant.
    :param deal_number: which deal (see :mod:`solitaire_core.deal`).
    :param cheat: start in the Cheat difficulty (the Seahaven program help: runs of any size
        move at any time; may be switched at any time with :attr:`cheat`).
    :param autoplay: override the variant's autoplay policy (``"off"``, ``"safe"``,
        ``"all"``); ``None`` keeps the variant's.
    :param state: start from this position instead of dealing (for tests and replays).

    The initial position is the deal followed by autoplay (cards already playable go up
    before the first move), so :meth:`restart` and undo never go behind it.
    """

    def __init__(
        self,
        rules: Rules,
        deal_number: int,
        *,
        cheat: bool = False,
        autoplay: str | None = None,
        state: GameState | None = None,
    ) -> None:
        self.rules = rules
        self.deal_number = deal_number
        self.cheat = cheat
        self.autoplay_policy = autoplay or rules.autoplay
        dealt = state if state is not None else deal_layout(rules, deal_number)
        self.initial_state, self.initial_autoplay = autoplay_moves(dealt, self.autoplay_policy)
        self.initial_score = initial_score(
            rules.scoring, dealt, tuple(self.initial_autoplay), self.initial_state
        )
        self.state = self.initial_state
        self.history: list[Turn] = []
        self.redo_stack: list[Turn] = []
        self.cheats = 0
        self.used_undo = False
        self.ever_cheated = cheat

    @classmethod
    def new(
        cls,
        definition: VariantDefinition,
        deal_number: int,
        options: Mapping[str, str] | None = None,
        **kwargs: object,
    ) -> Session:
        """A session for an installed variant: resolves ``options`` then deals.

        :raises VariantError: for an unknown option or value.
        """
        return cls(definition.resolve(options), deal_number, **kwargs)  # type: ignore[arg-type]

    @property
    def moves(self) -> int:
        """Player moves made and not undone."""
        return len(self.history)

    @property
    def score(self) -> int:
        """The score by the variant's scheme (:attr:`Rules.scoring
        <solitaire_core.variant.Rules>`, :mod:`solitaire_core.scoring`): points, or
        dollars for the Vegas schemes (which may be negative). It is the score of the
        last move not undone, so undo gives back what the move it takes back scored."""
        return self.history[-1].score if self.history else self.initial_score

    @property
    def is_won(self) -> bool:
        """True iff every card is on a foundation."""
        return self.state.is_won

    @property
    def can_undo(self) -> bool:
        """Whether there is a move to take back."""
        return bool(self.history)

    @property
    def can_redo(self) -> bool:
        """Whether an undone move can be played again."""
        return bool(self.redo_stack)

    def set_cheat(self, on: bool) -> None:
        """Switch between Normal and Cheat difficulty (allowed at any time)."""
        self.cheat = on
        self.ever_cheated = self.ever_cheated or on

    def play(self, move: Move | str) -> Turn:
        """Play a player move (text or :class:`Move`), then autoplay.

        :raises IllegalMoveError: with the reason, leaving the game exactly as it was.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        concrete, auto, after = play_move(self.state, move, self.autoplay_policy, cheat=self.cheat)
        cheated = 0
        if self.cheat:
            try:
                resolve(self.state, concrete, cheat=False)
            except IllegalMoveError:
                cheated = concrete.count
        score = score_after(
            self.rules.scoring,
            self.score,
            concrete,
            tuple(auto),
            self.state,
            after,
            _PlayerMoves(self.history),
        )
        turn = Turn(concrete, tuple(auto), self.state, after, cheated, score)
        self.history.append(turn)
        self.redo_stack.clear()
        self.cheats += cheated  # never lowered, not even by undo (program help)
        self.state = after
        return turn

    def undo(self) -> Turn | None:
        """Take back the last player move and the autoplay it caused; ``None`` if there is
        nothing to undo. The count of cheats is not lowered (program help)."""
        if not self.history:
            return None
        turn = self.history.pop()
        self.redo_stack.append(turn)
        self.state = turn.before
        self.used_undo = True
        return turn

    def redo(self) -> Turn | None:
        """Play the last undone move again; ``None`` if there is none."""
        if not self.redo_stack:
            return None
        turn = self.redo_stack.pop()
        self.history.append(turn)
        self.state = turn.after
        return turn

    def restart(self) -> None:
        """Go back to the initial position of this deal; the history can be redone."""
        while self.history:
            self.undo()

    def no_useful_move(self, budget: int = 3000) -> bool:
        """True when no sequence of moves can put another card on a foundation: the
        "no useful move left" verdict.

        A move is productive when it starts a line that sends a card up (see
        :func:`~solitaire_core.rules.find_progress`). The verdict is only given when the
        whole reachable space (up to ``budget`` positions, column and cell order ignored)
        was searched, so it never fires while a productive move exists; when the search
        is cut short it answers ``False``.
        """
        if self.is_won:
            return False
        return find_progress(self.state, cheat=self.cheat, budget=budget) is False

    def move_texts(self) -> list[str]:
        """The player's moves in notation, oldest first (what a saved game records)."""
        return [str(t.move) for t in self.history]
