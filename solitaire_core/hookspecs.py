"""Hook specifications: the whole plugin interface of towers-solitaire.

A plugin is a module (or object) with functions named after these hooks and decorated with
``solitaire_core.hookimpl``; a package makes it available by declaring an entry point in the
group ``solitaire``. Every hook is called with keyword arguments. See docs/plugins.md for a
walk-through and the full description of each hook.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:  # Python 3.10 has it in importlib.abc only
        from importlib.abc import Traversable

    from .deal import DealMethod
    from .predicates import RulePredicate

hookspec = pluggy.HookspecMarker("solitaire")


@hookspec
def solitaire_variant_files() -> Iterable[Path | Traversable]:
    """Return the variant files (TOML) this plugin provides.

    :return: paths or ``importlib.resources`` traversables, e.g.
        ``[files(__package__) / "my-variant.toml"]``. Each is validated; one that fails is
        reported with its file name and key and skipped, the others still load.
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def solitaire_rule_predicates() -> Iterable[RulePredicate]:
    """Return named rule predicates that variant files may reference.

    :return: :class:`~solitaire_core.predicates.RulePredicate` values. A ``"build"``
        predicate is named by ``tableau.build``, an ``"empty"`` predicate by
        ``tableau.empty``. Names must be unique across plugins; prefix yours.
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def solitaire_deal_methods() -> Mapping[str, DealMethod]:
    """Return custom deal methods by name, for variants whose ``deal.method`` names one.

    :return: a mapping ``name -> function(rules, deal_number) -> cards in dealing order``;
        the function must return every card of ``rules.decks`` decks exactly once and give
        the same order for the same number on every platform.
    """
    raise NotImplementedError  # a specification: plugins implement it
