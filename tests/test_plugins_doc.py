"""The worked examples of docs/plugins.md's hook reference run as printed: the two rule
predicates and the deal method load into a registry and behave as the page says."""

from __future__ import annotations

import re
import types
from pathlib import Path

from solitaire_core import hookimpl
from solitaire_core.deal import deal
from solitaire_core.moves import Move
from solitaire_core.plugins import build_registry, get_plugin_manager
from solitaire_core.rules import explain
from solitaire_core.state import GameState
from solitaire_core.uservariants import copy_variant_text

ROOT = Path(__file__).resolve().parents[1]


def doc_example(marker: str) -> types.ModuleType:
    """The Python block of docs/plugins.md holding ``marker``, run as a module."""
    text = (ROOT / "docs" / "plugins.md").read_text("utf-8")
    [code] = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if marker in b]
    module = types.ModuleType(f"doc_{marker}")
    exec(compile(code, f"docs/plugins.md ({marker})", "exec"), module.__dict__)
    return module


def test_the_worked_predicate_and_deal_method_examples_work(tmp_path: Path) -> None:
    text = copy_variant_text((ROOT / "variants" / "seahaven.toml").read_text("utf-8"), "mine", "M")
    text = text.replace('build = "down-in-suit"', 'build = "mine.down-by-two"')
    text = text.replace('empty = "king"', 'empty = "mine.king-or-queen"')
    text = text.replace('order = "rows"', 'order = "rows"\nmethod = "mine.kings-first"')
    path = tmp_path / "mine.toml"
    path.write_text(text, "utf-8")
    files = types.ModuleType("files")
    files.solitaire_variant_files = hookimpl(lambda: [path])  # type: ignore[attr-defined]
    pm = get_plugin_manager()
    for module in (doc_example("def down_by_two"), doc_example("def kings_first"), files):
        pm.register(module)
    registry = build_registry(pm)
    assert not [p for p in registry.problems if "mine" in str(p)], registry.problems
    rules = registry.get("mine").resolve()
    state = deal(rules, 1, registry.deal_methods)
    assert [c[0].rank for c in state.columns[:4]] == [13, 13, 13, 13]  # the bottom row
    assert all(c.rank != 13 for col in state.columns[4:] for c in col[:1])
    position = GameState.from_text(rules, "5S 7S 6S - - - - - - - | - - - - | - - - -")
    assert explain(position, Move.parse("t1>t2")) is None  # a 5 on a 7 of its suit
    assert explain(position, Move.parse("t1>t3")) == (
        "5♠ cannot go on 6♠: the tableau builds down by two in suit"
    )
    assert "empty column takes a King or a Queen" in str(explain(position, Move.parse("t1>t4")))
