"""Cards, ranks, suits and colours.

A :class:`Card` is a small frozen value: rank 1..13 (Ace = 1, King = 13), a suit, and which
copy of the deck it comes from (``deck`` = 0 for the first deck, 1 for the second), so that a
two-deck game holds 104 distinct cards.
"""

from __future__ import annotations

import enum
from functools import cache

import attrs

from .i18n import N_

RANK_TEXT = "A23456789TJQK"
"""One character per rank, index ``rank - 1``; ``T`` stands for ten."""

RANK_NAMES = (
    N_("Ace"), N_("Two"), N_("Three"), N_("Four"), N_("Five"), N_("Six"), N_("Seven"),
    N_("Eight"), N_("Nine"), N_("Ten"), N_("Jack"), N_("Queen"), N_("King"),
)  # fmt: skip
"""The name of each rank, index ``rank - 1``, for sentences and marks a player reads: in
English, marked for translation (show ``gettext(RANK_NAMES[rank - 1])``)."""

ACE = 1
KING = 13


class Color(enum.Enum):
    """Card colour; building "down in alternate colours" compares these."""

    RED = "red"
    BLACK = "black"


class Suit(enum.Enum):
    """The four suits. ``value`` is the one-letter code used in card text."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # Members are singletons compared by identity: hash them by identity too, in C
    # (Enum's own __hash__ is Python code hashing the name, a cost in autoplay's lookups).
    __hash__ = object.__hash__

    @property
    def color(self) -> Color:
        """Red for hearts and diamonds, black for clubs and spades."""
        return Color.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Color.BLACK

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol, e.g. ``"♠"``."""
        return {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[self.value]


SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


@attrs.frozen(order=False, cache_hash=True, repr=False)
class Card:
    """One playing card.

    :param rank: 1..13, Ace = 1, Jack = 11, Queen = 12, King = 13.
    :param suit: a :class:`Suit`.
    :param deck: which copy of the deck, 0-based (0 or 1 in two-deck games).

    ``str(card)`` is the two-character text (``"TS"``); :meth:`parse` reads it back.
    """

    rank: int
    suit: Suit
    deck: int = 0

    @property
    def color(self) -> Color:
        """The colour of the card's suit."""
        return self.suit.color

    @property
    def label(self) -> str:
        """A human label such as ``"10♠"`` or ``"K♥"``."""
        rank = "10" if self.rank == 10 else RANK_TEXT[self.rank - 1]
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return RANK_TEXT[self.rank - 1] + self.suit.value

    def __repr__(self) -> str:
        if self.deck:
            return f"Card.parse({str(self)!r}, deck={self.deck})"
        return f"Card.parse({str(self)!r})"

    @staticmethod
    def parse(text: str, deck: int = 0) -> Card:
        """Read a card from text such as ``"AS"``, ``"TD"``, ``"10h"`` or ``"Q♣"``.

        :param text: rank then suit; rank one of ``A 2..9 T 10 J Q K``, suit one of
            ``C D H S`` or a suit symbol; case does not matter.
        :param deck: which deck copy the card belongs to (0-based).
        :raises ValueError: when the text is not a card.
        """
        return _parse_card(text.strip().upper(), deck)


_SYMBOL_TO_LETTER = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


@cache
def _parse_card(text: str, deck: int) -> Card:
    if len(text) < 2:
        raise ValueError(f"{text!r} is not a card: expected a rank and a suit, e.g. 'TS'")
    rank_text, suit_text = text[:-1], _SYMBOL_TO_LETTER.get(text[-1], text[-1])
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_TEXT:
        raise ValueError(f"{text!r} is not a card: rank must be one of A 2-9 T J Q K")
    try:
        suit = Suit(suit_text)
    except ValueError:
        raise ValueError(f"{text!r} is not a card: suit must be one of C D H S") from None
    return Card(RANK_TEXT.index(rank_text) + 1, suit, deck)


def full_deck(decks: int = 1) -> tuple[Card, ...]:
    """Every card of ``decks`` standard 52-card decks, 52 x ``decks`` distinct cards."""
    return tuple(
        Card(rank, suit, d) for d in range(decks) for suit in SUITS for rank in range(1, 14)
    )


PYSOLFC_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
"""The four suits of a deck in the order PySolFC makes its cards (``pysollib`` suit
numbers 0-3), which is the order a variant's ``suits`` key is written in."""


@cache
def pack(decks: int = 1, suits: tuple[Suit, ...] = PYSOLFC_SUITS) -> tuple[Card, ...]:
    """The cards of a game of ``decks`` decks whose four suits are played as ``suits``, in
    the order PySolFC makes them (deck by deck, suit by suit, Ace to King).

    A deck's 13 cards of its ``i``-th suit (in :data:`PYSOLFC_SUITS` order) become cards
    of ``suits[i]``, as PySolFC's ``GameInfo(suits=...)`` does: Spider (1 Suit), PySolFC
    game 269, has ``suits = (CLUBS,) * 4``, so its 104 cards are eight of each club. Each
    card's ``deck`` counts the earlier copies of the same rank and suit, so the cards stay
    distinct: with the standard suits it is the deck the card comes from.

    :param decks: 1 or more.
    :param suits: four :class:`Suit` values.
    :raises ValueError: when ``suits`` does not hold four suits.
    """
    if len(suits) != 4 or not all(isinstance(s, Suit) for s in suits):
        raise ValueError(f"expected four suits, got {suits!r}")
    copies = suits.count
    return tuple(
        Card(rank, suit, d * copies(suit) + suits[:i].count(suit))
        for d in range(decks)
        for i, suit in enumerate(suits)
        for rank in range(1, 14)
    )


@cache
def card_code(card: Card) -> int:
    """A dense integer for ``card``: ``deck * 52 + suit * 13 + rank - 1`` (suits in
    :data:`SUITS` order); handy as a sort key and for compact encodings. Remembered per
    card (a search asks it for every card of every position it stores)."""
    return card.deck * 52 + SUITS.index(card.suit) * 13 + card.rank - 1
