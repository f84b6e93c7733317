"""Meta-tests: every hook in solitaire_core/hookspecs.py has a section in docs/plugins.md
(with its arguments and return value) and at least one test named after it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from solitaire_core import hookspecs

ROOT = Path(__file__).resolve().parent.parent
PLUGINS_DOC = ROOT / "docs" / "plugins.md"
HOOKS = sorted(
    name
    for name, value in vars(hookspecs).items()
    if name.startswith("solitaire_") and getattr(value, "solitaire_spec", None) is not None
)


def doc_section(hook: str) -> str | None:
    """The text of the docs/plugins.md section whose heading names ``hook``."""
    text = PLUGINS_DOC.read_text("utf-8")
    match = re.search(rf"^(#+) `?{hook}`?[^\n]*\n(.*?)(?=^#{{1,3}} |\Z)", text, re.M | re.S)
    return match.group(2) if match else None


def functions_named_after(hook: str) -> list[str]:
    """Test functions in tests/ (this file aside) whose name contains ``hook``."""
    found = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.FunctionDef)
                and node.name.startswith("test_")
                and hook in node.name
            ):
                found.append(f"{path.name}::{node.name}")
    return found


def test_there_are_hooks_to_check():
    assert HOOKS == [
        "solitaire_deal_methods",
        "solitaire_rule_predicates",
        "solitaire_variant_files",
    ]


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_is_documented_with_its_arguments_and_return_value(hook):
    section = doc_section(hook)
    assert section is not None, f"docs/plugins.md has no section headed {hook}"
    assert "Arguments:" in section, f"the {hook} section does not state its arguments"
    assert "Returns:" in section, f"the {hook} section does not state what it returns"


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_test(hook):
    assert functions_named_after(hook), f"no test function in tests/ is named after {hook}"


def test_a_hook_without_docs_or_tests_would_be_caught():
    assert doc_section("solitaire_no_such_hook") is None
    assert functions_named_after("solitaire_no_such_hook") == []
