"""The Tk adapter's imports run one way: the app imports its features, and no module of
``solitaire_tk`` but the command-line entry imports the app back (features receive it as
a ``solitaire_tk.host.GameHost``)."""

from __future__ import annotations

import ast
from pathlib import Path

import solitaire_tk

PACKAGE = Path(solitaire_tk.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """The solitaire_tk modules a file imports, at any level (TYPE_CHECKING included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                if node.module:
                    names.add(node.module.split(".")[0])
                else:
                    names.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("solitaire_tk."):
                names.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("solitaire_tk."):
                    names.add(alias.name.split(".")[1])
    return names


def test_no_module_but_the_entry_point_imports_the_app():
    importers = sorted(
        path.name
        for path in PACKAGE.glob("*.py")
        if path.stem != "app" and "app" in imported_modules(path)
    )
    assert importers == ["cli.py"]


def test_the_assistant_sees_the_app_as_a_host():
    assert "host" in imported_modules(PACKAGE / "assist.py")
    assert "assist" in imported_modules(PACKAGE / "app.py")
