"""Which variant configurations the kit runs: a variant with one value for each option.

Light on purpose (no Hypothesis): the pytest plugin uses it to check ``--solitaire-variant``
before any test runs.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import attrs

from ..variant import Rules, VariantDefinition


@attrs.frozen
class VariantConfiguration:
    """A variant and the option values to play it with.

    :param definition: the installed variant.
    :param options: option name -> choice value (every option named).
    """

    definition: VariantDefinition
    options: tuple[tuple[str, str], ...] = ()

    @property
    def rules(self) -> Rules:
        """The resolved rules (a fresh resolve on each call)."""
        return self.definition.resolve(dict(self.options))

    @property
    def id(self) -> str:
        """``variant`` or ``variant[option=value,...]`` for options off their default."""
        defaults = self.definition.default_options()
        changed = [f"{k}={v}" for k, v in self.options if defaults.get(k) != v]
        return self.definition.id + (f"[{','.join(changed)}]" if changed else "")


def variant_configurations(
    definition: VariantDefinition, options: Mapping[str, str] | None = None
) -> list[VariantConfiguration]:
    """The configurations to test for one variant.

    :param options: fixed option values; when ``None`` every combination of every option's
        choices is returned (the default values first).
    :raises VariantError: for an unknown option or value.
    """
    if options is not None:
        rules = definition.resolve(options)  # validates
        return [VariantConfiguration(definition, rules.options)]
    names = [o.name for o in definition.options]
    values = [
        [o.default] + [c.value for c in o.choices if c.value != o.default]
        for o in definition.options
    ]
    return [
        VariantConfiguration(definition, tuple(sorted(zip(names, combo))))
        for combo in itertools.product(*values)
    ]


def installed_configurations() -> list[VariantConfiguration]:
    """Every configuration of every installed variant (the plugin registry's), for a test
    suite to parametrize over."""
    from ..plugins import get_registry

    out: list[VariantConfiguration] = []
    for definition in get_registry().variants.values():
        out += variant_configurations(definition)
    return out
