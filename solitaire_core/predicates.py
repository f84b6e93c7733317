"""Named rule predicates: the built-in ways to build and to fill an empty column.

A variant file names these (``tableau.build = "down-in-suit"``); a plugin may register more
through the ``solitaire_rule_predicates`` hook, and a file may then name those too.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from .cards import KING, Card

BuildFn = Callable[[Card, Card], bool]
"""``build(card, onto) -> bool``: may ``card`` be placed on top of ``onto`` in a column."""

EmptyFn = Callable[[Card], bool]
"""``accepts(card) -> bool``: may a run whose bottom card is ``card`` fill an empty column."""


@attrs.frozen
class RulePredicate:
    """A named rule a variant file can reference.

    :param name: the name used in TOML, e.g. ``"down-in-suit"``; plugin names should carry a
        prefix of their own (``"mypkg.down-by-two"``) to stay unique.
    :param kind: ``"build"`` (``tableau.build``: a :data:`BuildFn`) or ``"empty"``
        (``tableau.empty``: an :data:`EmptyFn`).
    :param function: the predicate itself; it must be pure and fast (it runs in move
        generation and in the solver's inner loop).
    :param description: one sentence for the rules page, e.g. "down in suit".
    """

    name: str
    kind: str = attrs.field(validator=attrs.validators.in_(("build", "empty")))
    function: Callable[..., bool]
    description: str


def _down_in_suit(card: Card, onto: Card) -> bool:
    return card.suit is onto.suit and card.rank == onto.rank - 1


def _down_alternate_colors(card: Card, onto: Card) -> bool:
    return card.suit.color is not onto.suit.color and card.rank == onto.rank - 1


def _down_any_suit(card: Card, onto: Card) -> bool:
    return card.rank == onto.rank - 1


def _never_build(card: Card, onto: Card) -> bool:
    return False


def _king_only(card: Card) -> bool:
    return card.rank == KING


def _any_card(card: Card) -> bool:
    return True


def _no_card(card: Card) -> bool:
    return False


BUILTIN_PREDICATES: dict[str, RulePredicate] = {
    p.name: p
    for p in (
        RulePredicate("down-in-suit", "build", _down_in_suit, "down in suit"),
        RulePredicate(
            "down-alternate-colors", "build", _down_alternate_colors, "down in alternate colours"
        ),
        RulePredicate("down-any-suit", "build", _down_any_suit, "down regardless of suit"),
        RulePredicate("none", "build", _never_build, "no building on the tableau"),
        RulePredicate("king", "empty", _king_only, "a King or a run led by a King"),
        RulePredicate("any", "empty", _any_card, "any card or run"),
        RulePredicate("none-empty", "empty", _no_card, "nothing: empty columns stay empty"),
    )
}
"""Built-in predicates by name. ``tableau.empty = "none"`` maps to ``none-empty``."""
