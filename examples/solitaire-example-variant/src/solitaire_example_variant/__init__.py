"""Example Towers: a complete towers-solitaire variant plugin.

Three hooks, each returning data the framework validates and loads:

* ``solitaire_variant_files``: the variant file ``example-towers.toml``;
* ``solitaire_rule_predicates``: the build rule that file names, ``example.down-in-color``;
* ``solitaire_deal_methods``: the shuffle that file names, ``example.riffle``.

The package declares this module under the ``solitaire`` entry-point group in its
pyproject.toml; see docs/plugins.md of towers-solitaire for the walk-through.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files
from typing import TYPE_CHECKING

from solitaire_core import hookimpl
from solitaire_core.cards import Card, full_deck
from solitaire_core.deal import DealMethod
from solitaire_core.predicates import RulePredicate
from solitaire_core.variant import Rules

if TYPE_CHECKING:  # importlib.resources.abc is new in Python 3.11
    from importlib.resources.abc import Traversable


def down_in_color(card: Card, onto: Card) -> bool:
    """Build down in colour: ``card`` goes on ``onto`` when it is one rank lower and of the
    same colour (5♥ on 6♦ or 6♥). Pure and fast: it runs in move generation."""
    return card.rank + 1 == onto.rank and card.color is onto.color


def riffle(rules: Rules, number: int) -> list[Card]:
    """Deal ``number``'s cards in dealing order: every card of ``rules.decks`` decks once.

    A Fisher-Yates shuffle driven by a 64-bit linear congruential generator seeded with the
    deal number: plain integer arithmetic, so a number gives the same deal on every
    platform and Python version.
    """
    cards = list(full_deck(rules.decks))
    state = number & 0xFFFFFFFFFFFFFFFF
    for i in range(len(cards) - 1, 0, -1):
        state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        j = (state >> 33) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@hookimpl
def solitaire_variant_files() -> list[Traversable]:
    """The variant file shipped in this package."""
    return [files(__name__) / "example-towers.toml"]


@hookimpl
def solitaire_rule_predicates() -> list[RulePredicate]:
    """The build rule ``example-towers.toml`` names in ``tableau.build``."""
    return [
        RulePredicate(
            name="example.down-in-color",
            kind="build",
            function=down_in_color,
            description="down in colour (red on red, black on black)",
        )
    ]


@hookimpl
def solitaire_deal_methods() -> Mapping[str, DealMethod]:
    """The shuffle ``example-towers.toml`` names in ``deal.method``."""
    return {"example.riffle": riffle}
