"""The installed package: its import names, data, metadata, README, and the command's
conventions (version, shell completion, exit statuses, the message without tkinter).

The wheel and sdist themselves are built and tried in fresh virtual environments by
``nox -s wheel sdist`` (noxfile.py), which CI runs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata
from importlib.resources import files
from pathlib import Path

import pytest

from solitaire_core import cli
from solitaire_core.plugins import get_registry

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
README = (ROOT / "README.md").read_text("utf-8")
BUILTINS = sorted(v for v, d in get_registry().variants.items() if d.plugin == "solitaire_variants")


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=120
    )


def test_there_are_builtin_variants_to_check() -> None:
    assert len(BUILTINS) >= 8 and "seahaven" in BUILTINS


def test_builtin_variants_load_with_foreign_variants_and_ui_tk_first_on_the_path(
    tmp_path: Path,
) -> None:
    """PyPI has a package called ``variants``: ours install as solitaire_variants and
    solitaire_tk, so a foreign ``variants`` or ``ui_tk`` ahead on sys.path changes nothing."""
    for name in ("variants", "ui_tk"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(
            f"FOREIGN = True\nraise RuntimeError('the foreign {name} package was imported')\n"
        )
    env = {"PYTHONPATH": str(tmp_path)}
    probe = _run([sys.executable, "-c", "import variants"], tmp_path, **env)
    assert "the foreign variants package was imported" in probe.stderr  # it is first
    listed = _run([sys.executable, "-m", "solitaire_core", "list"], tmp_path, **env)
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()] == list(get_registry().variants)
    assert "foreign" not in listed.stderr
    shown = _run([sys.executable, "-m", "solitaire_core", "show", "seahaven"], tmp_path, **env)
    assert shown.returncode == 0 and shown.stdout.startswith("Seahaven Towers #1")
    ui = _run(
        [sys.executable, "-c", "import solitaire_tk.shell.app, solitaire_tk.shell.cli"],
        tmp_path,
        **env,
    )
    assert ui.returncode == 0, ui.stderr


def test_every_builtin_variant_has_its_rules_page_as_package_data() -> None:
    """The Rules dialog reads the pages through importlib.resources, so they are found in
    an installed wheel (package ``solitaire_variants.pages``) as in a checkout."""
    pytest.importorskip("tkinter")
    from solitaire_tk.dialogs import rules as rules_dialog

    for vid in BUILTINS:
        page = files("solitaire_variants.pages") / f"{vid}.md"
        assert page.is_file(), f"docs/variants/{vid}.md is missing"
        definition = get_registry().variants[vid]
        pieces = rules_dialog.rules_text(definition, definition.resolve())
        assert ("heading", f"More about {definition.name}") in pieces, vid


def test_py_typed_marker_ships() -> None:
    assert (files("solitaire_core") / "py.typed").is_file()


def test_license_metadata_is_pep_639() -> None:
    meta = metadata.metadata("towers-solitaire")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert (ROOT / "LICENSE").read_text("utf-8").startswith("MIT License")
    assert not [c for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    assert meta["Author"] or meta["Author-email"]


def test_dev_tools_are_in_a_dependency_group_not_a_published_extra() -> None:
    published = " ".join(metadata.requires("towers-solitaire") or [])
    for tool in ("ruff", "mypy", "nox", "pytest-xvfb"):
        assert tool not in published
    lint = PYPROJECT["dependency-groups"]["lint"]
    assert any(r.startswith("ruff==") for r in lint) and any(r.startswith("mypy==") for r in lint)


def test_python_versions_agree() -> None:
    """Classifiers, requires-python, ruff's and mypy's targets name the same versions."""
    classifiers = PYPROJECT["project"]["classifiers"]
    versions = [c.rsplit(" ", 1)[1] for c in classifiers if re.search(r"Python :: 3\.\d+$", c)]
    assert versions == ["3.10", "3.11", "3.12", "3.13"]
    assert PYPROJECT["project"]["requires-python"] == ">=3.10"
    assert PYPROJECT["tool"]["mypy"]["python_version"] == "3.10"
    assert PYPROJECT["tool"]["ruff"]["target-version"] == "py310"


def test_readme_links_and_images_are_absolute_and_point_at_real_files() -> None:
    """PyPI shows README.md without the repository around it: every link and image is an
    absolute address, those into the repository start with pyproject's Source URL and name
    a file or folder that exists."""
    source = PYPROJECT["project"]["urls"]["Source"]
    assert all(url.startswith(source) for url in PYPROJECT["project"]["urls"].values())
    targets = re.findall(r"\]\(([^)\s]+)\)", README)
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", README)
    assert len(images) >= 5 and len(targets) >= 10
    for url in targets:
        assert re.match(r"https://", url), f"not absolute: {url}"
        if not url.startswith(source + "/"):
            continue
        kind, _, path = url[len(source) :].lstrip("/").partition("/main/")
        assert kind in ("blob", "tree", "raw"), url
        assert (ROOT / path.split("#")[0]).exists(), url
        if url in images:
            assert kind == "raw", url  # the file itself, not its GitHub page
        elif kind == "tree":
            assert (ROOT / path).is_dir(), url


def test_version_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"solitaire {metadata.version('towers-solitaire')}\n"


def test_exit_statuses_are_documented() -> None:
    """README.md lists every exit status the command uses; docs/solver.md those of solve."""
    statuses = {
        cli.EXIT_OK: "winnable",
        cli.EXIT_FAILURE: "failure",
        cli.EXIT_USAGE: "usage error",
        cli.EXIT_UNWINNABLE: "unwinnable",
        cli.EXIT_UNDECIDED: "undecided",
        cli.EXIT_INTERRUPTED: "interrupted",
    }
    assert len(set(statuses)) == 6
    rows = dict(re.findall(r"^\| (\d+) \| (.+) \|$", README, re.MULTILINE))
    for status, word in statuses.items():
        assert word in rows[str(status)].lower(), (status, rows)
    solver_doc = (ROOT / "docs" / "solver.md").read_text("utf-8")
    for status, word in list(statuses.items())[:5]:
        assert re.search(rf"^\| {status} \| .*{word}", solver_doc, re.MULTILINE | re.I), status


def _complete(line: str, tmp_path: Path) -> list[str]:
    """What argcomplete offers a shell for ``line`` (cursor at the end)."""
    out = tmp_path / "completions"
    env = {
        "_ARGCOMPLETE": "1",
        "_ARGCOMPLETE_IFS": "\n",
        "_ARGCOMPLETE_STDOUT_FILENAME": str(out),
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
    }
    code = "import sys; from solitaire_core.cli import main; sys.exit(main())"
    result = _run([sys.executable, "-c", code], tmp_path, **env)
    assert result.returncode == 0, result.stderr
    return sorted(out.read_text("utf-8").split("\n"))


def test_shell_completion_offers_commands_options_and_variant_ids(tmp_path: Path) -> None:
    assert _complete("solitaire s", tmp_path) == ["show", "solve", "stats", "survey"]
    seas = [v for v in get_registry().variants if v.startswith("sea")]
    assert _complete("solitaire show sea", tmp_path) == sorted(seas) and len(seas) >= 2
    assert "--max-states" in _complete("solitaire solve seahaven --", tmp_path)


def test_readme_says_how_to_enable_completion_and_install_tk() -> None:
    assert 'eval "$(register-python-argcomplete solitaire)"' in README
    for package in ("python3-tk", "python3-tkinter", "pacman -S tk", "brew install python-tk"):
        assert package in README


@pytest.mark.parametrize("argv", [[], ["play", "seahaven", "--deal", "3"]])
def test_without_tkinter_play_names_the_system_package(argv: list[str], tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['tkinter'] = None\n"  # as on a Python built without Tk
        "from solitaire_core.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    result = _run([sys.executable, "-c", code, *argv], tmp_path)
    assert result.returncode == cli.EXIT_FAILURE, result.stderr
    assert "Traceback" not in result.stderr
    message = result.stderr
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for hint in (
        "sudo apt install python3-tk",
        "sudo dnf install python3-tkinter",
        "sudo pacman -S tk",
        f"brew install python-tk@{version}",
    ):
        assert hint in message


def test_survey_workers_never_fork_a_threaded_process(tmp_path: Path) -> None:
    """The game runs the solver on a thread; a survey started beside it must not fork()
    the threaded process (a child can deadlock; Python 3.12+ warns, DeprecationWarning)."""
    import threading
    import warnings

    from solitaire_core.solver.survey import process_context, run_survey

    stop = threading.Event()
    busy = threading.Thread(target=stop.wait, daemon=True)
    busy.start()
    try:
        assert process_context().get_start_method() in ("forkserver", "spawn")
        with warnings.catch_warnings(record=True) as caught:  # os.fork() clears an error
            warnings.simplefilter("always")
            rows = run_survey("seahaven", {}, [1, 21], jobs=2, csv_path=tmp_path / "s.csv")
    finally:
        stop.set()
    assert [(r.deal, r.verdict) for r in rows] == [(1, "winnable"), (21, "unwinnable")]
    assert not [str(w.message) for w in caught if "fork" in str(w.message)]
