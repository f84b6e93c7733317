"""The reusable pytest suite: subclass :class:`VariantConformance` and fill in one fixture.

::

    import pytest
    from solitaire_core.plugins import get_variant
    from solitaire_core.testing import VariantConformance

    class TestMyVariant(VariantConformance):
        @pytest.fixture
        def variant_definition(self):
            return get_variant("my-variant")

Fill in ``variant_definition`` (the options are then played at their defaults, and the
options check runs) or ``rules`` (a :class:`~solitaire_core.variant.Rules`, e.g. with
chosen options). Every test is one check of :mod:`solitaire_core.testing.checks`.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from ..variant import Rules, VariantDefinition
from . import checks
from .checks import KitContext, KitSettings
from .scenarios import builtin_scenario_files


class VariantConformance:
    """Base class of a variant's conformance tests (not collected itself: its name does not
    start with ``Test``).

    :cvar conformance_settings: the Hypothesis budget; the pytest options
        ``--solitaire-examples N`` and ``--solitaire-steps N`` override it.
    """

    conformance_settings: KitSettings = KitSettings(max_examples=30, steps=40)

    @pytest.fixture
    def variant_definition(self) -> VariantDefinition | None:
        """Override: the variant under test (or override :meth:`rules` instead)."""
        return None

    @pytest.fixture
    def rules(self, variant_definition: VariantDefinition | None) -> Rules:
        """Override, or leave it to resolve ``variant_definition`` at its default options."""
        if variant_definition is None:
            pytest.fail(
                f"{type(self).__name__}: fill in the variant_definition or the rules fixture",
                pytrace=False,
            )
        return variant_definition.resolve()

    @pytest.fixture
    def kit_settings(self, request: pytest.FixtureRequest) -> KitSettings:
        """The class's :attr:`conformance_settings`, with the command-line overrides."""
        found = self.conformance_settings
        examples = request.config.getoption("solitaire_examples", None)
        steps = request.config.getoption("solitaire_steps", None)
        if examples:
            found = attrs.evolve(found, max_examples=examples)
        if steps:
            found = attrs.evolve(found, steps=steps)
        return found

    @pytest.fixture
    def scenario_files(self, request: pytest.FixtureRequest) -> tuple[object, ...]:
        """The built-in scenario files plus any given with ``--solitaire-scenarios``;
        override to add your own."""
        extra = request.config.getoption("solitaire_scenarios", None) or []
        return (*builtin_scenario_files(), *(Path(p) for p in extra))

    @pytest.fixture
    def conformance(
        self,
        rules: Rules,
        variant_definition: VariantDefinition | None,
        kit_settings: KitSettings,
        scenario_files: tuple[object, ...],
    ) -> KitContext:
        """Everything a check needs."""
        return KitContext(rules, variant_definition, kit_settings, tuple(scenario_files))

    def test_deal(self, conformance: KitContext) -> None:
        checks.check_deal(conformance)

    def test_deal_repeatable(self, conformance: KitContext) -> None:
        checks.check_deal_repeatable(conformance)

    def test_notation(self, conformance: KitContext) -> None:
        checks.check_notation(conformance)

    def test_illegal_moves(self, conformance: KitContext) -> None:
        checks.check_illegal_moves(conformance)

    def test_move_limit(self, conformance: KitContext) -> None:
        checks.check_move_limit(conformance)

    def test_empty_columns(self, conformance: KitContext) -> None:
        checks.check_empty_columns(conformance)

    def test_won(self, conformance: KitContext) -> None:
        checks.check_won(conformance)

    def test_safe_autoplay(self, conformance: KitContext) -> None:
        checks.check_safe_autoplay(conformance)

    def test_solutions_replay(self, conformance: KitContext) -> None:
        checks.check_solutions_replay(conformance)

    def test_solver_verdicts(self, conformance: KitContext) -> None:
        checks.check_solver_verdicts(conformance)

    def test_random_play(self, conformance: KitContext) -> None:
        checks.check_random_play(conformance)

    def test_options(self, conformance: KitContext) -> None:
        if conformance.definition is None:
            pytest.skip("the options check needs the variant_definition fixture")
        checks.check_options(conformance)

    def test_scenarios(self, conformance: KitContext) -> None:
        checks.check_scenarios(conformance)
