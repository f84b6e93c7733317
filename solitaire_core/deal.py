"""Deals: deal numbers to layouts.

Deal ``N`` of a game PySolFC has is PySolFC's game number ``N``: the cards are created in
PySolFC's order, shuffled by the ``pysol_cards`` package (Microsoft FreeCell's generator for
numbers up to 32000, a Mersenne Twister above), and dealt from the top in the order the
variant's deal recipe gives. The generator is pure integer arithmetic (or CPython's seeded
Mersenne Twister), so a number gives the same layout on every platform and Python version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import Card, Suit
from .errors import SolitaireError
from .state import GameState
from .variant import Rules

MAX_DEAL = 10**20 - 1
"""The largest deal number (PySolFC's 20-digit game numbers)."""

_PYSOL_SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)

DealMethod = Callable[[Rules, int], Sequence[Card]]
"""A custom deal: ``(rules, deal_number) -> cards in dealing order``, one of each card of
``rules.decks`` decks; the variant's recipe then lays them out."""


def check_deal_number(number: int) -> int:
    """Return ``number`` if it is a valid deal number (1 .. 10**20 - 1).

    :raises SolitaireError: otherwise, saying which numbers are valid.
    """
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_DEAL:
        raise SolitaireError(
            f"deal number must be a whole number from 1 to {MAX_DEAL}, got {number!r}"
        )
    return number


def pysolfc_order(decks: int, number: int) -> list[Card]:
    """The cards of ``decks`` decks in PySolFC's dealing order for game ``number``.

    :raises SolitaireError: for an invalid deal number.
    """
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    check_deal_number(number)
    cards = shuffle(createCards(decks), number, RandomBase.DEALS_PYSOLFC)
    cards.reverse()
    return [Card(c.rank, _PYSOL_SUITS[c.suit], c.id // 52) for c in cards]


def lay_out(rules: Rules, cards: Sequence[Card]) -> GameState:
    """Place ``cards`` (in dealing order) as the variant's deal recipe says.

    :raises SolitaireError: when the number of cards does not match the recipe.
    """
    recipe = rules.deal
    if len(cards) != recipe.card_count:
        raise SolitaireError(
            f"{rules.name}: the deal recipe places {recipe.card_count} cards, got {len(cards)}"
        )
    columns: list[list[Card]] = [[] for _ in range(rules.columns)]
    it = iter(cards)
    if recipe.order == "rows":
        for row in range(max(recipe.columns, default=0)):
            for i, count in enumerate(recipe.columns):
                if row < count:
                    columns[i].append(next(it))
    else:
        for i, count in enumerate(recipe.columns):
            columns[i].extend(next(it) for _ in range(count))
    cells: list[Card | None] = [None] * rules.cells
    for index in recipe.cells:
        cells[index] = next(it)
    return GameState(
        rules=rules,
        columns=tuple(tuple(c) for c in columns),
        cells=tuple(cells),
        foundations=tuple(() for _ in range(rules.foundations)),
    )


def deal(rules: Rules, number: int, methods: dict[str, DealMethod] | None = None) -> GameState:
    """The layout of deal ``number`` of the variant ``rules`` (before any autoplay).

    :param number: the deal number, 1 .. :data:`MAX_DEAL`.
    :param methods: custom deal methods by name (from plugins); ``"pysolfc"`` is built in.
        Defaults to the installed plugins' methods.
    :raises SolitaireError: for an invalid number or an unknown deal method.
    """
    check_deal_number(number)
    method = rules.deal.method
    if method == "pysolfc":
        cards: Sequence[Card] = pysolfc_order(rules.decks, number)
    else:
        if methods is None:
            from .plugins import get_registry

            methods = get_registry().deal_methods
        if method not in methods:
            raise SolitaireError(f"{rules.name}: unknown deal method {method!r}")
        cards = list(methods[method](rules, number))
        expected = sorted(map(str, _all_cards(rules.decks)))
        if sorted(map(str, cards)) != expected or len(set(cards)) != len(cards):
            raise SolitaireError(
                f"{rules.name}: deal method {method!r} did not return each card exactly once"
            )
    return lay_out(rules, cards)


def _all_cards(decks: int) -> list[Card]:
    from .cards import full_deck

    return list(full_deck(decks))
