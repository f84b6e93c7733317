"""The ``solitaire`` command: --help everywhere, list/show/check/export, and user errors on
stderr with exit status 2 (never a traceback)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire_core import cli
from solitaire_core.deal import deal
from solitaire_core.plugins import get_registry, get_variant


def commands() -> list[str]:
    """Every sub-command the parser knows, extensions included."""
    parser = cli.build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return sorted(action.choices)
    return []


def test_core_commands_exist() -> None:
    assert {"list", "show", "check", "export"} <= set(commands())


@pytest.mark.parametrize("command", ["", *commands()])
def test_help_on_every_command(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [command, "--help"] if command else ["--help"]
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: solitaire {command}".rstrip())


def test_list_names_every_variant_and_its_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for vid, definition in get_registry().variants.items():
        line = next(x for x in lines if x.split()[0] == vid)
        assert definition.name in line and f"(plugin: {definition.plugin})" in line
    sea = next(x for x in lines if x.startswith("sea-towers "))
    assert "[options: empty_columns=king|any]" in sea


def test_show_prints_the_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", "seahaven", "--deal", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Seahaven Towers #1"
    assert lines[1] == "Cells: [  ] [2H] [6H] [  ]   Foundations: [  ] [  ] [  ] [  ]"
    assert lines[3].split() == [f"t{i}" for i in range(1, 11)]
    state = deal(get_variant("seahaven").resolve(), 1)
    assert [row.split() for row in lines[4:]] == [
        [str(col[r]) for col in state.columns] for r in range(5)
    ]


def test_show_defaults_to_deal_1_and_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", "sea-towers", "--option", "empty_columns=any"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Sea Towers #1, empty_columns=any"


def test_export_writes_freecell_solver_boards(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["export", "freecell", "--deal", "1", "--format", "fcs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Foundations: H-0 C-0 D-0 S-0"
    assert lines[1] == "Freecells: - - - -"
    assert lines[2] == ": JD KD 2S 4C 3S 6D 6S"
    assert len(lines) == 2 + 8
    assert cli.main(["export", "seahaven", "--deal", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "Freecells: - 2H 6H -"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["show", "nope"], "unknown variant 'nope'; installed: aces-up, alaska, all-in-a-row"),
        (["show", "sea-towers", "--option", "colour=red"], "options.colour: no such option"),
        (["show", "sea-towers", "--option", "empty_columns=all"], "'all' is not a choice"),
        (["show", "sea-towers", "--option", "empty_columns"], "--option expects key=value"),
        (["export", "nope", "--deal", "1"], "unknown variant 'nope'"),
        (["solve", "nope", "--deal", "1"], "unknown variant 'nope'"),
        (["solve", "seahaven", "--deal", "1", "--option", "x=y"], "options.x: no such option"),
        (["survey", "seahaven", "--deals", "9-3"], "--deals: '9-3' is not a range"),
    ],
)
def test_user_errors_go_to_stderr_with_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == cli.EXIT_USAGE == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("solitaire: error: ") and message in err
    assert "Traceback" not in err


def test_failures_have_status_1_apart_from_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A well-formed command that cannot do its work: a missing or invalid file."""
    assert cli.main(["check", str(tmp_path / "missing.toml")]) == cli.EXIT_FAILURE == 1
    assert "cannot read the file" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "bad"\n', "utf-8")
    assert cli.main(["check", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"solitaire: error: {bad}: ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["show"], "the following arguments are required: variant"),
        (["show", "seahaven", "--deal", "0"], "expected a number >= 1, got 0"),
        (["show", "seahaven", "--deal", "seven"], "expected a whole number, got 'seven'"),
        (["show", "seahaven", "--deal", str(10**20)], "deal numbers go from 1 to 9999"),
        (["export", "seahaven"], "the following arguments are required: --deal"),
        (["export", "seahaven", "--deal", "1", "--format", "pdf"], "invalid choice: 'pdf'"),
    ],
)
def test_usage_errors_go_to_stderr_with_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and "usage: solitaire" in err


def test_parse_options() -> None:
    assert cli.parse_options(["a=b", " c = d=e "]) == {"a": "b", "c": "d=e"}
    assert cli.parse_options(None) == {}
    with pytest.raises(cli.UsageError):
        cli.parse_options(["=x"])


def console_script() -> str:
    beside = Path(sys.executable).with_name("solitaire")
    found = str(beside) if beside.exists() else shutil.which("solitaire")
    if not found:
        pytest.skip("the solitaire console script is not installed")
    return found


def test_console_script_runs_in_a_real_process() -> None:
    script = console_script()
    ok = subprocess.run(
        [script, "show", "freecell", "--deal", "1"], capture_output=True, text=True, timeout=120
    )
    assert ok.returncode == 0 and ok.stderr == ""
    assert ok.stdout.splitlines()[4].split() == "JD 2D 9H JC 5D 7H 7C 5H".split()
    bad = subprocess.run([script, "show", "nope"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("solitaire: error: unknown variant 'nope'")
    assert "Traceback" not in bad.stderr
