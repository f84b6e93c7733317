"""The built-in variants' rule scenarios (variants/scenarios/*.toml, docs/scenarios.md):
every scenario passes, every variant has its file, every scenario names its source, and
the loader reports malformed files by file, scenario and key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solitaire_core.plugins import BUILTIN_PLUGINS, get_registry
from solitaire_core.testing.scenarios import (
    ScenarioError,
    builtin_scenario_files,
    load_scenario_file,
    run_scenario,
)

REGISTRY = get_registry()
FILES = builtin_scenario_files()
SCENARIOS = [s for f in FILES for s in load_scenario_file(f)]
BUILT_IN = sorted(v for v, d in REGISTRY.variants.items() if d.plugin in BUILTIN_PLUGINS)
RULES_DIR = Path(__file__).resolve().parents[2] / "shared" / "rules"
SOURCES = {
    "seahaven-towers-program-help.txt",
    "aisleriot-seahaven-help.xml",
    "sea-towers-rules.txt",
    "double-sea-towers-rules.txt",
    "shared/rules/README.md",
} | {f"variants/{v}.toml" for v in BUILT_IN}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.label for s in SCENARIOS])
def test_scenario(scenario):
    run_scenario(scenario, REGISTRY.get(scenario.variant))


@pytest.mark.parametrize("variant_id", BUILT_IN)
def test_every_built_in_variant_ships_scenarios_for_its_rules(variant_id):
    mine = [s for s in SCENARIOS if s.variant == variant_id]
    assert [f.name for f in FILES].count(f"{variant_id}.toml") == 1
    moves = [s for s in mine if s.kind == "move"]
    assert any(s.kind == "deal" for s in mine), "no scenario for the deal"
    rules = REGISTRY.get(variant_id).resolve()
    has_cells = rules.cells > 0 and rules.cells_receive  # a reserve takes no card
    for kind in ("t", "c", "f") if has_cells else ("t", "f"):
        to_kind = [s for s in moves if (s.move or "").split(">")[1].startswith(kind)]
        # Stalactites: nothing builds on the columns and nothing fills an empty one.
        if kind != "t" or rules.tableau_build != "none" or rules.empty_rule != "none":
            assert any(s.legal for s in to_kind), f"no legal move onto a {kind} pile"
        assert any(not s.legal for s in to_kind), f"no illegal move onto a {kind} pile"
    assert any("x" in (s.move or "") for s in moves), "no run move (move limit)"
    assert any(s.won for s in moves), "no winning move"
    assert any(s.after_autoplay for s in moves), "no autoplay scenario"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.label for s in SCENARIOS])
def test_scenario_names_the_source_of_its_rule(scenario):
    source_file, _, sentence = scenario.source.partition(":")
    assert source_file in SOURCES, f"unknown source file {source_file!r}"
    assert len(sentence.strip()) >= 10


def test_quoted_sources_exist():
    """Every rules text a scenario cites is one of the texts the project implements."""
    if not RULES_DIR.is_dir():
        pytest.skip("shared/rules is not beside this checkout")
    present = {p.name for p in RULES_DIR.iterdir()}
    for name in SOURCES:
        if "/" not in name:
            assert name in present


def test_sea_towers_scenarios_cover_both_empty_column_choices():
    choices = {
        dict(s.options).get("empty_columns", "king") for s in SCENARIOS if s.variant == "sea-towers"
    }
    assert choices == {"king", "any"}


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, "utf-8")
    return path


GOOD = """variant = "seahaven"
[[scenario]]
name = "a King fills an empty column"
source = "seahaven-towers-program-help.txt: Kings fill empty piles"
position = "2H,KS - - - - - - - - - | - - - - | - - - -"
move = "t1>t2"
legal = true
result = "2H KS - - - - - - - - | - - - - | - - - -"
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("legal = true", "legal = true\nspeed = 3"),
            "scenario 1 (a King fills an empty column): unknown key 'speed'",
        ),
        (
            ('source = "seahaven-towers-program-help.txt: Kings fill empty piles"\n', ""),
            "source: missing",
        ),
        (("seahaven-towers-program-help.txt: ", ""), 'source: expected "file: quoted sentence'),
        (("legal = true", "legal = false"), "reason: an illegal move needs the reason"),
        (("legal = true", 'legal = "yes"'), "legal: expected true or false"),
        (('variant = "seahaven"', ""), "variant: expected the variant id"),
        (("[[scenario]]", "[[scenario]"), "not valid TOML"),
    ],
)
def test_loader_names_file_scenario_and_key(tmp_path, change, message):
    old, new = change
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(write(tmp_path, GOOD.replace(old, new)))
    assert str(info.value).startswith("mine.toml")
    assert message in str(info.value)


def test_a_scenario_whose_result_differs_fails_with_both_positions(tmp_path):
    wrong = GOOD.replace('result = "2H KS', 'result = "KS 2H')
    (scenario,) = load_scenario_file(write(tmp_path, wrong))
    with pytest.raises(AssertionError) as info:
        run_scenario(scenario, REGISTRY.get("seahaven"))
    text = str(info.value)
    assert re.search(r"expected KS 2H .*\n\s+got\s+2H KS", text)


def test_a_position_that_does_not_fit_the_variant_is_a_scenario_error(tmp_path):
    (scenario,) = load_scenario_file(write(tmp_path, GOOD.replace('"2H,KS - ', '"2H,KS ')))
    with pytest.raises(ScenarioError, match="expected 10 columns"):
        run_scenario(scenario, REGISTRY.get("seahaven"))
