"""Pile references and moves, with one text notation that prints and parses.

Notation (1-based pile numbers, as players count them):

* a pile is ``t3`` (tableau column 3), ``c1`` (cell 1) or ``f2`` (foundation 2);
  ``f`` or ``c`` without a number means "whichever foundation / free cell fits";
  ``s`` is the stock (talon), ``w`` the waste and ``r`` the reserve (Canfield's pile,
  whose top card plays), one of each at most;
* a move is ``source>target`` with an optional ``xN`` for a run of N cards:
  ``t3>f``, ``c1>t7``, ``t2>t5x3``;
* the stock's moves: ``s>w`` deals to the waste, ``w>s`` turns the waste over into a new
  stock (a redeal), ``s>t`` deals a row onto the columns (Spider, Gypsy).

``str(Move.parse(text)) == text`` for every text in canonical form, and
``Move.parse(str(move)) == move`` for every move.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from typing import TypeVar

import attrs

from .errors import IllegalMoveError
from .i18n import gettext as _

_Pile = TypeVar("_Pile")
_Cell = TypeVar("_Cell")


class PileKind(enum.Enum):
    """The kinds of pile; ``value`` is the letter used in move notation."""

    TABLEAU = "t"
    CELL = "c"
    FOUNDATION = "f"
    STOCK = "s"
    WASTE = "w"
    RESERVE = "r"

    # Singletons compared by identity: hashed by identity, in C, as Suit is (the legality
    # check looks piles up by kind on every move).
    __hash__ = object.__hash__


@attrs.frozen(cache_hash=True, repr=False)
class PileRef:
    """A reference to one pile of a game.

    :param kind: a :class:`PileKind`.
    :param index: 0-based position within its kind, or ``None`` for "any pile of this kind
        that fits" (only meaningful for cells and foundations as move targets).
    """

    kind: PileKind
    index: int | None = None

    def __str__(self) -> str:
        if self.kind in _SINGLE:
            return self.kind.value
        return self.kind.value + ("" if self.index is None else str(self.index + 1))

    def __repr__(self) -> str:
        return f"PileRef.parse({str(self)!r})"

    def select(
        self, columns: Sequence[_Pile], cells: Sequence[_Cell], foundations: Sequence[_Pile]
    ) -> _Pile | _Cell:
        """The entry for the pile this names, from one sequence per kind of pile (a
        state's piles, a layout's places ...), each indexed from 0.

        :raises ValueError: for an unnumbered reference (``c`` or ``f``: "any that fits").
        :raises IndexError: when the numbered pile is not in its sequence.
        """
        if self.index is None:
            raise ValueError(f"{self} names no single pile")
        if self.kind in _SINGLE:
            raise ValueError(f"{self} is not a column, cell or foundation")
        if self.index < 0:
            raise IndexError(self.index)
        if self.kind is PileKind.TABLEAU:
            return columns[self.index]
        if self.kind is PileKind.CELL:
            return cells[self.index]
        return foundations[self.index]

    @staticmethod
    def parse(text: str) -> PileRef:
        """Read ``t3``, ``c1``, ``f``, ``s`` (the stock), ``w`` (the waste), ``r`` (the
        reserve) ...

        :raises ValueError: on anything else (a number 0, a numbered stock, waste or
            reserve, or a letter other than t, c, f, s, w, r).
        """
        m = _PILE_RE.fullmatch(text.strip().lower())
        if not m:
            raise ValueError(
                _("{text} is not a pile: expected t<n>, c<n>, f<n>, c, f, s, w or r").format(
                    text=repr(text)
                )
            )
        kind = PileKind(m.group(1))
        if kind in _SINGLE:
            if m.group(2) is not None:
                raise ValueError(
                    _("{text}: the stock, the waste and the reserve are written s, w and r").format(
                        text=repr(text)
                    )
                )
            return PileRef(kind, 0)
        if m.group(2) is None:
            if kind is PileKind.TABLEAU:
                raise ValueError(
                    _("{text}: a tableau column needs its number, e.g. t3").format(text=repr(text))
                )
            return PileRef(kind, None)
        number = int(m.group(2))
        if number < 1:
            raise ValueError(_("{text}: pile numbers start at 1").format(text=repr(text)))
        return PileRef(kind, number - 1)


# Pile numbers and counts have at most three ASCII digits (a variant has at most 20
# columns and 16 cells or foundations, and 208 cards), so no text can make int() work hard.
_PILE_RE = re.compile(r"([tcfswr])([0-9]{1,3})?")
_MOVE_RE = re.compile(r"([tcfswr][0-9]{0,3})\s*>\s*([tcfswr][0-9]{0,3})(?:x([0-9]{1,3}))?")
_SINGLE = frozenset((PileKind.STOCK, PileKind.WASTE, PileKind.RESERVE))


def stock() -> PileRef:
    """The stock (talon): the face-down pile the player deals from."""
    return PileRef(PileKind.STOCK, 0)


def waste() -> PileRef:
    """The waste: where the stock deals its cards face up; its top card plays."""
    return PileRef(PileKind.WASTE, 0)


def reserve() -> PileRef:
    """The reserve: Canfield's pile of thirteen, dealt face down but for its top card,
    which plays to the foundations and the tableau (PySolFC's ``OpenStack`` reserve in
    pysollib/games/canfield.py)."""
    return PileRef(PileKind.RESERVE, 0)


ROW_DEAL_TARGET = PileRef(PileKind.TABLEAU, None)
"""The target of ``s>t``: a row dealt from the stock onto the columns."""


def tableau(index: int) -> PileRef:
    """The 0-based tableau column ``index``."""
    return PileRef(PileKind.TABLEAU, index)


def cell(index: int | None = None) -> PileRef:
    """The 0-based cell ``index``, or any free cell when ``None``."""
    return PileRef(PileKind.CELL, index)


def foundation(index: int | None = None) -> PileRef:
    """The 0-based foundation ``index``, or whichever accepts the card when ``None``."""
    return PileRef(PileKind.FOUNDATION, index)


@attrs.frozen(cache_hash=True, repr=False)
class Move:
    """Move ``count`` cards from the top of ``source`` to ``target``.

    :param source: the pile the cards leave (always a numbered pile).
    :param target: the pile they go to; a cell or foundation may be unnumbered.
    :param count: number of cards, >= 1; more than one only for runs.
    """

    source: PileRef
    target: PileRef
    count: int = 1

    def __str__(self) -> str:
        tail = f"x{self.count}" if self.count != 1 else ""
        return f"{self.source}>{self.target}{tail}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Move:
        """Read a move such as ``t3>f``, ``c1>t7`` or ``t2>t5x3``.

        :raises IllegalMoveError: (a ``ValueError``) when the text is not a move, with the
            reason; legality in a position is checked separately by the rules.
        """
        m = _MOVE_RE.fullmatch(text.strip().lower())
        if not m:
            raise IllegalMoveError(
                text, _("not a move: write source>target, e.g. t3>f, c1>t7 or t2>t5x3")
            )
        try:
            source = PileRef.parse(m.group(1))
            if m.group(1) == "s" and m.group(2) == "t":
                target = ROW_DEAL_TARGET
            else:
                target = PileRef.parse(m.group(2))
        except ValueError as exc:
            raise IllegalMoveError(text, str(exc)) from None
        if source.index is None:
            raise IllegalMoveError(text, _("the source pile needs its number, e.g. c1"))
        count = int(m.group(3)) if m.group(3) else 1
        if count < 1:
            raise IllegalMoveError(text, _("a move carries at least one card"))
        return Move(source, target, count)
