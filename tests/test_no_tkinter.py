"""The rules core never imports tkinter (README, house style: the UI is an adapter).

Checked two ways: every module of ``solitaire_core`` is imported in a fresh interpreter and
``tkinter`` must not be in ``sys.modules`` afterwards; and no source file of the package
mentions an import of it. Building the full ``solitaire`` argument parser (which imports the
extension modules, the Tk one included) must not import it either.
"""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import solitaire_core

PACKAGE = Path(solitaire_core.__file__).parent


def core_modules() -> list[str]:
    names = ["solitaire_core"]
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="solitaire_core."):
        names.append(info.name)
    return sorted(names)


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_package_has_the_core_modules() -> None:
    names = set(core_modules())
    for module in ("cards", "moves", "rules", "state", "variant", "session", "deal", "cli"):
        assert f"solitaire_core.{module}" in names


def test_importing_every_core_module_does_not_import_tkinter() -> None:
    modules = [m for m in core_modules() if m != "solitaire_core.__main__"]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'tkinter' or m.startswith('tkinter.')"
        " or m == '_tkinter')\n"
        "print(','.join(bad))\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"tkinter was imported: {result.stdout.strip()}"


def test_building_the_command_line_does_not_import_tkinter() -> None:
    code = (
        "import sys\n"
        "from solitaire_core import cli\n"
        "cli.build_parser()\n"
        "print('tkinter' in sys.modules or '_tkinter' in sys.modules)\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


IMPORT_TK = re.compile(r"^\s*(?:import\s+(?:_?tkinter)|from\s+(?:_?tkinter)[\s.])", re.M)


def test_no_core_source_imports_tkinter() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if IMPORT_TK.search(path.read_text("utf-8"))
        or "__import__('tkinter')" in path.read_text("utf-8")
    ]
    assert offenders == []


def test_the_source_check_would_catch_an_import() -> None:
    assert IMPORT_TK.search("import tkinter as tk")
    assert IMPORT_TK.search("    from tkinter import ttk")
    assert IMPORT_TK.search("from tkinter.font import Font")
    assert not IMPORT_TK.search("# the UI uses tkinter")


def test_every_public_persistence_name_resolves_from_the_package() -> None:
    """``solitaire_core.persistence`` loads its modules on first use: each name it lists
    must still come from it, and ``dir()`` must show them."""
    code = (
        "import solitaire_core.persistence as p\n"
        "missing = [n for n in p.__all__ if getattr(p, n, None) is None]\n"
        "hidden = [n for n in p.__all__ if n not in dir(p)]\n"
        "print(missing, hidden)\n"
        "try:\n"
        "    p.no_such_name\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "[] []"
    assert "no_such_name" in lines[1]


def test_looking_up_a_variant_does_not_load_the_statistics_database_code() -> None:
    """A command that only solves or surveys reads the user's variant folder (its path) but
    never opens statistics or saves: SQLite and the lock library stay unloaded, which
    keeps the start of every such process short."""
    code = (
        "import sys\n"
        "from solitaire_core.plugins import get_variant\n"
        "from solitaire_core.solver import solve\n"
        "get_variant('seahaven')\n"
        "print(sorted(m for m in ('sqlite3', 'filelock', 'solitaire_core.persistence.stats')"
        " if m in sys.modules))\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
