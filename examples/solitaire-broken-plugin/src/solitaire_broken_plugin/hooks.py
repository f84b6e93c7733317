"""Plugin ``broken-hooks``: imports fine, but each of its hooks fails differently."""

from __future__ import annotations

from importlib.resources import files
from typing import TYPE_CHECKING

from solitaire_core import hookimpl
from solitaire_core.predicates import RulePredicate

if TYPE_CHECKING:  # importlib.resources.abc is new in Python 3.11
    from importlib.resources.abc import Traversable


@hookimpl
def solitaire_rule_predicates() -> list[RulePredicate]:
    """Raises: a bug in a plugin's hook."""
    raise RuntimeError("deliberately broken: this hook always raises")


@hookimpl
def solitaire_deal_methods() -> list[str]:
    """Returns a list where a mapping of name to function is expected."""
    return ["not-a-mapping"]


@hookimpl
def solitaire_variant_files() -> list[Traversable]:
    """A variant file that fails validation (an unknown move limit)."""
    return [files(__package__) / "broken-towers.toml"]
