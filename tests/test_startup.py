"""Start-up: each command loads only what it uses (benchmarks/bench_startup.py times them).

Checked by what a fresh ``solitaire`` process has imported when it exits, never by time:
``--version`` loads neither the plugins nor the variants nor the solver; ``list`` and
``show`` load the plugins (every one still registers its variants) but not the solver or
the game window; a survey's workers start with what the command loaded instead of
loading the plugins and variants again.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from solitaire_core import cli
from solitaire_core.plugins import build_registry

PROBE = """
import atexit, json, sys
atexit.register(lambda: print("MODULES", json.dumps(sorted(sys.modules)), file=sys.__stderr__))
from solitaire_core.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""Runs the command line as the ``solitaire`` script does and, at exit, prints the names of
every module imported on the last line of stderr."""

SOLVER = "solitaire_core.solver.search"
GAME_WINDOW = ("solitaire_tk", "tkinter")
EXTENSIONS = ("solitaire_core.solver_cli", "solitaire_core.workshop_cli", "solitaire_tk.shell.cli")


def run_probe(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``solitaire ARGS`` in a fresh interpreter: the result and the modules it loaded."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120
    )
    last = result.stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("MODULES "), result.stderr
    return result, set(json.loads(last.removeprefix("MODULES ")))


def test_version_loads_no_plugin_variant_or_solver() -> None:
    result, modules = run_probe("--version")
    assert result.returncode == 0
    assert result.stdout == f"solitaire {cli.version()}\n"
    for name in (
        "pluggy",
        "jsonschema",
        "pysol_cards",
        "attrs",
        "solitaire_core.plugins",
        "solitaire_core.variant",
        SOLVER,
        *GAME_WINDOW,
        *EXTENSIONS,
    ):
        assert name not in modules, f"solitaire --version imported {name}"


def test_list_loads_every_plugin_but_not_the_solver_or_the_game_window() -> None:
    result, modules = run_probe("list")
    assert result.returncode == 0
    listed = {line.split()[0] for line in result.stdout.splitlines()}
    # A fresh registry: the entry-point plugins' variants too, not the files other tests
    # named on a command line in this process.
    assert listed == set(build_registry().variants)
    assert "pluggy" in modules
    for name in (SOLVER, "pysol_cards", "filelock", "sqlite3", *GAME_WINDOW, *EXTENSIONS):
        assert name not in modules, f"solitaire list imported {name}"


def test_show_deals_without_the_solver() -> None:
    result, modules = run_probe("show", "seahaven", "--deal", "1")
    assert result.returncode == 0
    assert result.stdout.startswith("Seahaven Towers #1\n")
    for name in (SOLVER, "filelock", *GAME_WINDOW, *EXTENSIONS):
        assert name not in modules, f"solitaire show imported {name}"


def test_a_core_command_runs_without_the_extensions_but_errors_name_them_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``list`` and ``--version`` build a parser without the extension modules; a command
    word the core does not know is reported with every command to choose from."""
    with pytest.raises(SystemExit) as info:
        cli.main(["no-such-command"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    for command in ("list", "show", "play", "solve", "survey", "stats", "variant"):
        assert repr(command) in err


SURVEY = """
from solitaire_core import plugins
from solitaire_core.solver import survey

built = plugins.build_registry
def counted(*args, **kwargs):
    print("registry built", flush=True)  # by whichever process builds one
    return built(*args, **kwargs)
plugins.build_registry = counted

print(survey.process_context().get_start_method())
rows = survey.run_survey("seahaven", {}, [1, 2, 3, 21], jobs=2)
print(" ".join(row.verdict for row in rows))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
def test_survey_workers_start_with_the_registry_of_the_command() -> None:
    """A single-threaded process forks its survey workers, which start with the plugin
    registry it built: the plugins and variant files are loaded once, not once a worker."""
    result = subprocess.run(
        [sys.executable, "-c", SURVEY], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "fork",
        "registry built",
        "winnable winnable winnable unwinnable",
    ]
