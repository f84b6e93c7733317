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
    :param wrapping: for a build rule, the same rule with ranks wrapping around (a King
        and an Ace are one rank apart: ``tableau.wrap = true``); ``None`` when the rule
        cannot wrap (plugin rules, ``none``).
    """

    name: str
    kind: str = attrs.field(validator=attrs.validators.in_(("build", "empty")))
    function: Callable[..., bool]
    description: str
    wrapping: Callable[..., bool] | None = None


# Rank steps from ``onto`` to ``card``, modulo 13: 1 is one rank up, 12 one rank down.
# Without wrapping a step must not cross between King and Ace.
_UP, _DOWN = frozenset({1}), frozenset({12})
_BOTH = _UP | _DOWN


def _make_build(steps: frozenset[int], suits: str, wrap: bool) -> Callable[[Card, Card], bool]:
    """A build predicate: ``card`` goes on ``onto`` when its rank is one step (in
    ``steps``) from ``onto``'s, wrapping from King to Ace when ``wrap``, and the suits
    relate as ``suits`` says (``"suit"``: same suit; ``"color"``: other colour;
    ``"same-color"``: same colour; ``"other-suit"``: any suit but the card's own;
    ``"any"``)."""

    if not wrap and steps != _BOTH and suits in ("suit", "color", "any"):
        # The common rules without wrapping: one comparison chain, as fast as the
        # hand-written predicates they replace (they run in move generation).
        delta = 1 if steps == _UP else -1
        if suits == "suit":
            return lambda card, onto: card.suit is onto.suit and card.rank == onto.rank + delta
        if suits == "color":
            return lambda card, onto: (
                card.suit.color is not onto.suit.color and card.rank == onto.rank + delta
            )
        return lambda card, onto: card.rank == onto.rank + delta

    def build(card: Card, onto: Card) -> bool:
        if suits == "suit":
            if card.suit is not onto.suit:
                return False
        elif suits == "color" and card.suit.color is onto.suit.color:
            return False
        elif suits == "same-color" and card.suit.color is not onto.suit.color:
            return False
        elif suits == "other-suit" and card.suit is onto.suit:
            return False
        diff = card.rank - onto.rank
        if wrap:
            return diff % 13 in steps
        return (diff == 1 and 1 in steps) or (diff == -1 and 12 in steps)

    return build


def _never_build(card: Card, onto: Card) -> bool:
    return False


def _king_only(card: Card) -> bool:
    return card.rank == KING


def _any_card(card: Card) -> bool:
    return True


def _no_card(card: Card) -> bool:
    return False


_BUILDS = (
    # name, steps, suits, description. Sources: docs/variant-format.md names each; Fortress
    # and Bisley (up or down in suit), Penguin and Chessboard (wrapping) are PySolFC games.
    ("down-in-suit", _DOWN, "suit", "down in suit"),
    ("down-alternate-colors", _DOWN, "color", "down in alternate colours"),
    ("down-any-suit", _DOWN, "any", "down regardless of suit"),
    # Whitehead (PySolFC game 67) builds by colour; Thumb and Pouch (58) and Indian (69)
    # in any suit but the card's own (PySolFC's BO_RowStack).
    ("down-same-color", _DOWN, "same-color", "down in the same colour"),
    ("down-other-suit", _DOWN, "other-suit", "down in any suit but its own"),
    ("up-in-suit", _UP, "suit", "up in suit"),
    ("up-alternate-colors", _UP, "color", "up in alternate colours"),
    ("up-or-down-in-suit", _BOTH, "suit", "up or down in suit"),
    ("up-or-down-any-suit", _BOTH, "any", "up or down regardless of suit"),
    ("up-or-down-alternate-colors", _BOTH, "color", "up or down in alternate colours"),
)

BUILTIN_PREDICATES: dict[str, RulePredicate] = {
    p.name: p
    for p in (
        *(
            RulePredicate(
                name,
                "build",
                _make_build(steps, suits, False),
                text,
                _make_build(steps, suits, True),
            )
            for name, steps, suits, text in _BUILDS
        ),
        RulePredicate("none", "build", _never_build, "no building on the tableau"),
        RulePredicate("king", "empty", _king_only, "a King or a run led by a King"),
        RulePredicate("any", "empty", _any_card, "any card or run"),
        RulePredicate("none-empty", "empty", _no_card, "nothing: empty columns stay empty"),
    )
}
"""Built-in predicates by name. ``tableau.empty = "none"`` maps to ``none-empty``;
``tableau.empty = "below-base"`` is not a predicate but resolved by the loader from the
foundations' base rank (:mod:`solitaire_core.variant`)."""
