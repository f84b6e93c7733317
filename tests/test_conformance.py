"""The rule-conformance kit over every installed variant, in every option combination.

Built-in variants and any installed plugin's (the example package in CI) run the same
checks a variant author runs with ``solitaire conformance``; the Hypothesis budget here is
small to keep the suite fast (``--solitaire-examples N`` raises it).
"""

from __future__ import annotations

import pytest

from solitaire_core.testing import KitSettings, VariantConformance, installed_configurations
from solitaire_core.testing.configs import VariantConfiguration

CONFIGURATIONS = installed_configurations()


@pytest.fixture(params=CONFIGURATIONS, ids=[c.id for c in CONFIGURATIONS], scope="module")
def configuration(request: pytest.FixtureRequest) -> VariantConfiguration:
    return request.param


@pytest.mark.slow
class TestInstalledVariants(VariantConformance):
    # The same examples on every run (Hypothesis' derandomize): the suite is reproducible;
    # `solitaire conformance VARIANT` keeps exploring at random. Random runs found safe
    # autoplay unsafe in two end games (Saratoga, cards back from the foundations; Double
    # Klondike, two copies of a Queen competing for one pile), not yet fixed.
    conformance_settings = KitSettings(max_examples=12, steps=25, search_cards=8, derandomize=True)

    @pytest.fixture
    def variant_definition(self, configuration):
        return configuration.definition

    @pytest.fixture
    def rules(self, configuration):
        return configuration.rules


def test_every_built_in_variant_and_option_choice_is_covered():
    ids = {c.id for c in CONFIGURATIONS}
    for expected in ("seahaven", "sea-towers", "sea-towers[empty_columns=any]", "freecell",
                     "double-sea-towers", "double-seahaven", "eight-off", "bakers-game",
                     "relaxed-seahaven"):  # fmt: skip
        assert expected in ids
