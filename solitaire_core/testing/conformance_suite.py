"""The tests ``pytest --solitaire-variant ID`` runs (added by the plugin; not collected
otherwise, its name does not match ``test_*.py``)."""

from __future__ import annotations

import pytest

from ..variant import Rules, VariantDefinition
from .configs import VariantConfiguration
from .plugin import selected_configurations
from .suite import VariantConformance


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One run of the kit per selected configuration."""
    if "solitaire_configuration" in metafunc.fixturenames:
        found = selected_configurations(metafunc.config)
        metafunc.parametrize(
            "solitaire_configuration", found, ids=[c.id for c in found], scope="class"
        )


class TestVariantConformance(VariantConformance):
    """The kit, for the variant named by ``--solitaire-variant``."""

    @pytest.fixture
    def variant_definition(
        self, solitaire_configuration: VariantConfiguration
    ) -> VariantDefinition:
        return solitaire_configuration.definition

    @pytest.fixture
    def rules(self, solitaire_configuration: VariantConfiguration) -> Rules:
        return solitaire_configuration.rules
