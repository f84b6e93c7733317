"""The Tk adapter's rooms import one way. ``solitaire_tk`` is split into subpackages, from
the bottom: the shared modules at its top level (widgets, tooltip, keys), ``faces``,
``table``, ``dialogs``, ``editor``, ``launcher`` and ``shell``; a module imports from its
own room and the rooms below it only. In the shell, no module but the command-line entry
imports the app (features receive it as a ``solitaire_tk.shell.host.GameHost``)."""

from __future__ import annotations

import ast
from pathlib import Path

import solitaire_tk

PACKAGE = Path(solitaire_tk.__file__).parent
ROOMS = ("", "faces", "table", "dialogs", "editor", "launcher", "shell")
"""The rooms from the bottom up; ``""`` is the shared modules at the top level."""


def module_of(path: Path) -> str:
    """``ui_tk/shell/app.py`` -> ``"shell.app"``."""
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def imported_modules(path: Path, text: str | None = None) -> set[str]:
    """The solitaire_tk modules a file imports (its ``text``, or read from ``path``), as
    dotted names below the package (``"table.view"``, ``"widgets"``), at any level
    (TYPE_CHECKING included)."""
    here = module_of(path).split(".")[:-1]  # the file's package, below solitaire_tk
    names: set[str] = set()
    source = path.read_text("utf-8") if text is None else text
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                if node.module:
                    module = ".".join([*base, node.module])
                    names.add(module)
                    names.update(f"{module}.{alias.name}" for alias in node.names)
                else:
                    names.update(".".join([*base, alias.name]) for alias in node.names)
            elif node.module and node.module.startswith("solitaire_tk."):
                module = node.module.removeprefix("solitaire_tk.")
                names.update(f"{module}.{alias.name}" for alias in node.names)
                names.add(module)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("solitaire_tk."):
                    names.add(alias.name.removeprefix("solitaire_tk."))
    return names


def room_of(module: str) -> str:
    """The room of a dotted module name (``"table.view"`` -> ``"table"``)."""
    first = module.split(".")[0]
    return first if first in ROOMS else ""


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")


def test_every_module_lives_in_a_room() -> None:
    for path in sources():
        parts = module_of(path).split(".")
        assert len(parts) <= 2 and (len(parts) == 1 or parts[0] in ROOMS), path


def test_rooms_import_only_their_own_and_the_rooms_below() -> None:
    wrong = []
    for path in sources():
        mine = ROOMS.index(room_of(module_of(path)))
        for module in imported_modules(path):
            if ROOMS.index(room_of(module)) > mine:
                wrong.append(f"{module_of(path)} imports {module}")
    assert wrong == []


def test_imports_are_read_relative_and_absolute() -> None:
    """The reading the check above relies on: relative imports from a subpackage's
    module resolve to the room they name."""
    text = (
        "from ..shell import app\nimport solitaire_tk.launcher.window\nfrom .layout import x\n"
        "from .. import widgets\nfrom solitaire_tk.faces import cardfaces\n"
    )
    found = imported_modules(PACKAGE / "table" / "view.py", text)
    assert found == {
        "shell", "shell.app", "launcher.window", "table.layout", "table.layout.x", "widgets",
        "faces", "faces.cardfaces",
    }  # fmt: skip
    assert {room_of(n) for n in found} == {"shell", "launcher", "table", "", "faces"}


def test_no_module_but_the_entry_point_imports_the_app() -> None:
    importers = sorted(
        module_of(path)
        for path in sources()
        if module_of(path) != "shell.app" and "shell.app" in imported_modules(path)
    )
    assert importers == ["shell.cli"]


def test_the_assistant_sees_the_app_as_a_host() -> None:
    assert "shell.host" in imported_modules(PACKAGE / "shell" / "assist.py")
    assert "shell.assist" in imported_modules(PACKAGE / "shell" / "app.py")
