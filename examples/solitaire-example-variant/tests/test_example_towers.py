"""Example Towers passes the towers-solitaire rule-conformance kit.

The whole test is one subclass and one fixture; the kit supplies the tests. Run with
``pytest`` in this folder (the kit's options, e.g. ``--solitaire-examples 500``, apply).
"""

from __future__ import annotations

from importlib.resources import files

import pytest

from solitaire_core.plugins import get_variant
from solitaire_core.testing import VariantConformance


class TestExampleTowers(VariantConformance):
    @pytest.fixture
    def variant_definition(self):
        return get_variant("example-towers")

    @pytest.fixture
    def scenario_files(self):
        return (files("solitaire_example_variant") / "scenarios.toml",)
