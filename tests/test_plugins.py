"""The plugin author's path end to end: the example package (examples/
solitaire-example-variant) adds a variant through all three hooks and appears everywhere;
the deliberately broken package (examples/solitaire-broken-plugin) is reported by plugin
name with the reason while everything else keeps working; every hook is also exercised
in-process, without installing anything.

The installed-package tests need both examples installed (the README's test command does
``pip install -e examples/solitaire-example-variant -e examples/solitaire-broken-plugin``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from importlib.resources import files
from pathlib import Path

import pluggy
import pytest
import solitaire_variants as variants

from solitaire_core import hookimpl, hookspecs
from solitaire_core.cards import Card, full_deck
from solitaire_core.deal import deal, lay_out
from solitaire_core.errors import SolitaireError
from solitaire_core.moves import Move
from solitaire_core.plugins import BUILTIN_PLUGINS, DISABLE_ENV, build_registry, get_registry
from solitaire_core.predicates import RulePredicate
from solitaire_core.rules import explain
from solitaire_core.session import Session
from solitaire_core.testing import installed_configurations, load_scenario_file, run_scenario

SEAHAVEN = (Path(variants.__file__).parent / "seahaven.toml").read_text("utf-8")
BUILT_IN = {p.stem for p in Path(variants.__file__).parent.glob("*.toml")}


def installed(entry_point: str) -> bool:
    return any(ep.name == entry_point for ep in metadata.entry_points(group="solitaire"))


def require_examples() -> None:
    for name in ("example", "broken-hooks", "broken-import"):
        if not installed(name):
            pytest.fail(
                f"the example plugin {name!r} is not installed: run pip install -e "
                "examples/solitaire-example-variant -e examples/solitaire-broken-plugin",
                pytrace=False,
            )


def solitaire(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "solitaire_core", *args],
        capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})},
    )  # fmt: skip


# -- the example package ----------------------------------------------------------------


def test_example_variant_is_listed_with_its_plugin_name():
    require_examples()
    result = solitaire("list")
    assert result.returncode == 0
    line = next(li for li in result.stdout.splitlines() if li.startswith("example-towers"))
    assert "Example Towers" in line and "(plugin: example)" in line
    for variant_id in BUILT_IN:
        assert any(li.startswith(variant_id + " ") for li in result.stdout.splitlines())


def test_example_plugin_registers_its_predicate_and_deal_method():
    require_examples()
    registry = get_registry()
    predicate = registry.predicates["example.down-in-color"]
    assert predicate.kind == "build"
    assert predicate.function(Card.parse("5H"), Card.parse("6D"))
    assert not predicate.function(Card.parse("5H"), Card.parse("6S"))
    rules = registry.get("example-towers").resolve()
    assert rules.tableau_build == "example.down-in-color"
    assert rules.deal.method == "example.riffle"
    riffle = registry.deal_methods["example.riffle"]
    assert deal(rules, 7) == lay_out(rules, riffle(rules, 7))
    assert sorted(map(str, riffle(rules, 7))) == sorted(map(str, full_deck(1)))
    assert deal(rules, 7) != deal(rules, 8)


def test_example_variant_plays_by_its_own_build_rule(board):
    require_examples()
    rules = get_registry().get("example-towers").resolve()
    assert explain(board(rules, ["6D", "9C,5H"]), Move.parse("t2>t1")) is None
    assert "down in colour" in explain(board(rules, ["6S", "9C,5H"]), Move.parse("t2>t1"))
    session = Session.new(get_registry().get("example-towers"), 1)
    assert session.state.to_text() != Session.new(get_registry().get("seahaven"), 1).state.to_text()


def test_example_variant_runs_in_the_conformance_suite_and_passes_its_scenarios():
    require_examples()
    assert "example-towers" in {c.id for c in installed_configurations()}
    scenarios = load_scenario_file(files("solitaire_example_variant") / "scenarios.toml")
    assert len(scenarios) >= 5
    for scenario in scenarios:
        run_scenario(scenario, get_registry().get("example-towers"))


def test_conformance_command_passes_the_example_variant():
    require_examples()
    result = solitaire("conformance", "example-towers", "--examples", "5", "--steps", "10")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "13 of 13 checks passed" in result.stdout


@pytest.mark.gui
def test_launcher_offers_the_example_variant():
    require_examples()
    tk = pytest.importorskip("tkinter")
    from solitaire_tk.launcher.window import Launcher

    root = tk.Tk()
    try:
        launcher = Launcher(root, registry=get_registry(), on_play=lambda *a: None)
        launcher.pack()
        root.update()
        assert launcher.tree.set("example-towers", "name") == "Example Towers"
        assert launcher.tree.set("example-towers", "plugin") == "example"
    finally:
        root.destroy()


# -- the broken package -----------------------------------------------------------------


def test_broken_plugins_are_reported_by_name_with_the_reason():
    require_examples()
    problems = build_registry().problems
    by_plugin = {(p.plugin, p.what.split(":")[0]): p.reason for p in problems}
    assert (
        "ImportError: deliberately broken"
        in by_plugin[("broken-import", "entry point solitaire_broken_plugin.unimportable")]
    )
    assert (
        "RuntimeError: deliberately broken"
        in by_plugin[("broken-hooks", "solitaire_rule_predicates")]
    )
    assert by_plugin[("broken-hooks", "solitaire_deal_methods")] == (
        "returned ['not-a-mapping'] (list), expected a mapping"
    )
    assert "tableau.move_limit" in by_plugin[("broken-hooks", "broken-towers.toml")]
    assert {p.plugin for p in problems} == {"broken-hooks", "broken-import"}


def test_everything_else_keeps_working_beside_the_broken_plugins():
    require_examples()
    registry = build_registry()
    assert BUILT_IN | {"example-towers"} <= set(registry.variants)
    assert "broken-towers" not in registry.variants
    result = solitaire("list")
    assert result.returncode == 0
    assert (
        "skipped: plugin 'broken-hooks': solitaire_rule_predicates: RuntimeError" in result.stderr
    )
    assert "skipped: plugin 'broken-import'" in result.stderr
    shown = solitaire("show", "example-towers", "--deal", "3")
    assert shown.returncode == 0 and "Example Towers #3" in shown.stdout


def test_disable_plugins_blocks_the_broken_ones(monkeypatch):
    require_examples()
    monkeypatch.setenv(DISABLE_ENV, "broken-hooks, broken-import")
    registry = build_registry()
    assert registry.problems == []
    assert BUILT_IN | {"example-towers"} <= set(registry.variants)
    result = solitaire("list", env={DISABLE_ENV: "broken-hooks,broken-import"})
    assert result.returncode == 0 and result.stderr == ""


def test_disable_plugins_blocks_the_example_variant(monkeypatch):
    require_examples()
    monkeypatch.setenv(DISABLE_ENV, "example")
    registry = build_registry()
    assert "example-towers" not in registry.variants
    assert BUILT_IN <= set(registry.variants)
    assert "example.down-in-color" not in registry.predicates


# -- every hook in-process, no installation needed --------------------------------------


def manager(*plugins: object) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("solitaire")
    pm.add_hookspecs(hookspecs)
    for name in BUILTIN_PLUGINS:
        pm.register(variants, name=name)
    for i, plugin in enumerate(plugins):
        pm.register(plugin, name=f"test-plugin-{i}")
    return pm


def variant_text(variant_id: str) -> str:
    """Seahaven's file under another id."""
    return SEAHAVEN.replace('id = "seahaven"', f'id = "{variant_id}"')


class FilePlugin:
    """solitaire_variant_files with plain paths: one good file, one bad."""

    def __init__(self, folder: Path) -> None:
        self.good = folder / "good.toml"
        self.good.write_text(variant_text("good-towers"), "utf-8")
        self.bad = folder / "bad.toml"
        self.bad.write_text(
            variant_text("bad-towers").replace("[cells]\ncount = 4", "[cells]\ncount = -1"), "utf-8"
        )

    @hookimpl
    def solitaire_variant_files(self) -> list[Path]:
        return [self.good, self.bad]


def test_solitaire_variant_files_loads_each_file_and_skips_a_bad_one(tmp_path):
    registry = build_registry(manager(FilePlugin(tmp_path)))
    assert registry.variants["good-towers"].plugin == "test-plugin-0"
    assert "bad-towers" not in registry.variants
    (problem,) = registry.problems
    assert problem.plugin == "test-plugin-0" and problem.what == "bad.toml"
    assert "cells.count" in problem.reason


def test_solitaire_variant_files_cannot_take_a_built_in_id(tmp_path):
    class Shadow:
        @hookimpl
        def solitaire_variant_files(self) -> list[Path]:
            path = tmp_path / "seahaven.toml"
            path.write_text(
                SEAHAVEN.replace('name = "Seahaven Towers"', 'name = "Impostor"'), "utf-8"
            )
            return [path]

    registry = build_registry(manager(Shadow()))
    assert registry.variants["seahaven"].name == "Seahaven Towers"
    assert registry.variants["seahaven"].plugin == "solitaire_variants"
    (problem,) = registry.problems
    assert (
        problem.plugin == "test-plugin-0"
        and "already taken by plugin 'solitaire_variants'" in problem.reason
    )


def queen_or_king(card: Card) -> bool:
    return card.rank >= 12


class PredicatePlugin:
    """solitaire_rule_predicates: an empty-column rule a variant file then names."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "queens.toml"
        self.path.write_text(
            variant_text("queen-towers").replace('empty = "king"', 'empty = "test.queen-or-king"'),
            "utf-8",
        )

    @hookimpl
    def solitaire_rule_predicates(self) -> list[RulePredicate]:
        return [RulePredicate("test.queen-or-king", "empty", queen_or_king, "a Queen or a King")]

    @hookimpl
    def solitaire_variant_files(self) -> list[Path]:
        return [self.path]


def test_solitaire_rule_predicates_are_usable_from_a_variant_file(tmp_path, board):
    registry = build_registry(manager(PredicatePlugin(tmp_path)))
    assert registry.problems == []
    rules = registry.get("queen-towers").resolve()
    assert rules.empty_description == "a Queen or a King"
    assert explain(board(rules, ["2H,QS"]), Move.parse("t1>t2")) is None
    assert "a Queen or a King" in explain(board(rules, ["2H,JS"]), Move.parse("t1>t2"))


def test_solitaire_rule_predicates_refuses_duplicates_and_non_predicates():
    class Bad:
        @hookimpl
        def solitaire_rule_predicates(self) -> list[object]:
            return [
                RulePredicate("king", "empty", queen_or_king, "clash with a built-in"),
                "not a predicate",
            ]

    registry = build_registry(manager(Bad()))
    reasons = [p.reason for p in registry.problems]
    assert any("'king' is already registered" in r for r in reasons)
    assert any("is not a RulePredicate" in r for r in reasons)
    assert registry.predicates["king"].function(Card.parse("KS"))
    assert not registry.predicates["king"].function(Card.parse("QS"))


def reverse_order(rules, number: int) -> list[Card]:
    """A toy deal: the deck in order, rotated by the deal number."""
    cards = list(full_deck(rules.decks))
    k = number % len(cards)
    return cards[k:] + cards[:k]


class DealPlugin:
    """solitaire_deal_methods: a custom shuffle a variant file names in deal.method."""

    def __init__(self, folder: Path, method=reverse_order) -> None:
        self.method = method
        self.path = folder / "rotated.toml"
        self.path.write_text(
            variant_text("rotated-towers").replace(
                'order = "rows"', 'order = "rows"\nmethod = "test.rotate"'
            ),
            "utf-8",
        )

    @hookimpl
    def solitaire_deal_methods(self):
        return {"test.rotate": self.method}

    @hookimpl
    def solitaire_variant_files(self) -> list[Path]:
        return [self.path]


def test_solitaire_deal_methods_deal_a_variant_that_names_them(tmp_path):
    registry = build_registry(manager(DealPlugin(tmp_path)))
    assert registry.problems == []
    rules = registry.get("rotated-towers").resolve()
    state = deal(rules, 3, registry.deal_methods)
    assert state == lay_out(rules, reverse_order(rules, 3))
    assert state.columns[0][0] == list(full_deck(1))[3]


def test_solitaire_deal_methods_that_lose_a_card_are_refused_at_deal_time(tmp_path):
    def lossy(rules, number):
        cards = reverse_order(rules, number)
        return cards[:-1] + cards[:1]

    registry = build_registry(manager(DealPlugin(tmp_path, lossy)))
    rules = registry.get("rotated-towers").resolve()
    with pytest.raises(SolitaireError, match="did not return each card exactly once"):
        deal(rules, 3, registry.deal_methods)


class FilePluginFor:
    """solitaire_variant_files for one given file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @hookimpl
    def solitaire_variant_files(self) -> list[Path]:
        return [self.path]


def test_a_variant_naming_an_unregistered_deal_method_is_skipped(tmp_path):
    plugin = DealPlugin(tmp_path)
    registry = build_registry(manager(FilePluginFor(plugin.path)))
    assert "rotated-towers" not in registry.variants
    (problem,) = registry.problems
    assert "deal.method" in problem.reason and "test.rotate" in problem.reason
