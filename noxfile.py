"""Test sessions beyond README.md's test command, each in a fresh virtual environment.

``nox -s tests``         the test suite on each Python 3.10-3.13 found on PATH, with the
                         package installed from a wheel (not editable), less the tests
                         marked ``slow`` (the same checks repeated over every built-in
                         game: perft, the conformance kit, solutions, and the table's,
                         launcher's and editor's checks outside tests/sampling.py's
                         sample; and the longest solver searches), which README.md's
                         test command runs once; ``nox -s tests -- -q`` runs all;
``nox -s wheel``         build the wheel, install it alone and use it from outside the tree;
``nox -s sdist``         build the sdist, unpack it, install from it and run tests from it.

``.ci/run`` runs all three (``nox`` is in the ``dev`` dependency group). A missing
interpreter is skipped with a message locally; pass ``--python 3.12`` to choose.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
EXAMPLES = ["examples/solitaire-example-variant", "examples/solitaire-broken-plugin"]

PARALLEL = ["-n", "logical", "--dist", "worksteal"]
"""pytest-xdist: a worker per core (each starts its own virtual X server)."""

nox.options.sessions = ["tests", "wheel", "sdist"]
nox.options.error_on_missing_interpreters = False


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The suite against the installed (non-editable) package; without arguments, the
    tests not marked ``slow`` (they check rules and games, not the interpreter, and run in
    README.md's test command)."""
    session.install(".", *EXAMPLES, *nox.project.dependency_groups(PYPROJECT, "test"))
    # The pytest script, not "python -m pytest", run from an empty folder: the source tree
    # must not be on sys.path, so the tests, and the interpreters they start ("python -c",
    # "python -m solitaire_core"), import the installed package with its compiled solver.
    # Paths in the arguments are taken from the repository's root.
    args = [str(ROOT / a) if (ROOT / a).exists() else a for a in session.posargs]
    if not any((ROOT / a).exists() for a in session.posargs):
        args += ["-m", "not slow"] if not session.posargs else []
        args.append(str(ROOT / "tests"))
    session.chdir(session.create_tmp())
    session.run("pytest", "-q", "-p", "no:cacheprovider", *PARALLEL, "--rootdir", str(ROOT), *args)


@nox.session
def wheel(session: nox.Session) -> None:
    """Build the wheel, install it into this fresh environment and use it from elsewhere:
    the variants, a deal, and the Rules dialog's page (package data, not the source tree)."""
    session.install("build")
    dist = Path(session.create_tmp()) / "dist"
    session.run("python", "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT))
    (built,) = dist.glob("towers_solitaire-*.whl")
    session.install(str(built))
    session.chdir(session.create_tmp())
    session.run("solitaire", "--version")
    listed = session.run("solitaire", "list", silent=True) or ""
    session.log(listed)
    assert "seahaven" in listed and "freecell" in listed, listed
    shown = session.run("solitaire", "show", "seahaven", "--deal", "1", silent=True) or ""
    session.log(shown)
    assert shown.startswith("Seahaven Towers #1"), shown
    session.run("python", "-c", _CHECK_INSTALLED)


_CHECK_INSTALLED = """
import sysconfig
from importlib.resources import files
from pathlib import Path

import solitaire_core
import solitaire_tk
import solitaire_variants
from solitaire_core.plugins import get_registry
from solitaire_tk.dialogs.rules import rules_text

installed = Path(sysconfig.get_paths()["purelib"])
for package in (solitaire_core, solitaire_tk, solitaire_variants):
    assert Path(package.__file__).is_relative_to(installed), package.__file__
assert (files("solitaire_core") / "py.typed").is_file()
for vid, definition in get_registry().variants.items():
    pieces = rules_text(definition, definition.resolve())
    assert ("heading", f"More about {definition.name}") in pieces, vid
print(f"rules pages found for {len(get_registry().variants)} variants")
"""

SDIST_TESTS = [
    "tests/test_cards.py",
    "tests/test_rules.py",
    "tests/test_rules_texts.py",
    "tests/test_scenarios.py",
    "tests/test_plugins.py",
    "tests/test_packaging.py",
    "tests/test_ui_dialogs.py",
]
"""Tests run from the unpacked sdist: fixtures (conftest), the GUI helpers, data files."""


@nox.session
def sdist(session: nox.Session) -> None:
    """Build the sdist, unpack it, install from the unpacked tree and run tests there."""
    session.install("build")
    tmp = Path(session.create_tmp())
    dist = tmp / "dist"
    session.run("python", "-m", "build", "--sdist", "--outdir", str(dist), str(ROOT))
    (built,) = dist.glob("towers_solitaire-*.tar.gz")
    unpacked = tmp / "unpacked"
    with tarfile.open(built) as archive:
        archive.extractall(unpacked, filter="data")
    (tree,) = unpacked.iterdir()
    pyproject = nox.project.load_toml(tree / "pyproject.toml")
    session.install(
        str(tree),
        *(str(tree / example) for example in EXAMPLES),
        *nox.project.dependency_groups(pyproject, "test"),
    )
    session.chdir(tree)
    session.run("pytest", "-q", "-p", "no:cacheprovider", *(session.posargs or SDIST_TESTS))
