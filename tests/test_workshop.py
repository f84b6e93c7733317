"""A game is a file: variant files named by path in every command, the user
variants folder listed as "yours", ``solitaire variant show`` and ``variant new``, and the
kit's pytest option without Hypothesis."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from solitaire_core import cli, plugins
from solitaire_core.deal import deal
from solitaire_core.errors import SolitaireError, VariantError
from solitaire_core.plugins import USER_PLUGIN, build_registry, get_registry, get_variant
from solitaire_core.uservariants import copy_variant_text, new_user_variant, variant_text
from solitaire_core.variant import tomllib

BUILTIN = Path(__file__).resolve().parents[1] / "variants"


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test builds its own process registry (files it names by path are added to
    it); the usual one is put back afterwards."""
    monkeypatch.setattr(plugins, "_REGISTRY", None)


@pytest.fixture
def home(solitaire_home: Path) -> Path:
    """A private home whose user variants folder exists and is empty."""
    folder = solitaire_home / "data" / "variants"
    folder.mkdir(parents=True)
    return folder


def my_game_text(new_id: str = "my-game", name: str = "My Game") -> str:
    """Seahaven's file as a new game: eight columns of six, four cells, two dealt to."""
    text = copy_variant_text((BUILTIN / "seahaven.toml").read_text("utf-8"), new_id, name)
    return (
        text.replace("columns = 10\n", "columns = 8\n", 1)
        .replace("columns = 5\n", "columns = 6\n", 1)
        .replace("cells = [2, 3]", "cells = [1, 2, 3, 4]")
    )


def test_variant_show_prints_the_builtin_file_with_its_comments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["variant", "show", "seahaven"]) == 0
    out = capsys.readouterr().out
    assert out == (BUILTIN / "seahaven.toml").read_text("utf-8")
    assert out.startswith("#")  # comments kept


def test_a_file_dropped_in_the_user_folder_is_listed_as_yours(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "my-game.toml").write_text(my_game_text(), "utf-8")
    (home / "broken.toml").write_text(my_game_text("broken").replace("decks = 1", "decks = 0"))
    (home / "notes.txt").write_text("not a variant")
    registry = get_registry(reload=True)
    mine = registry.variants["my-game"]
    assert mine.plugin == USER_PLUGIN and mine.name == "My Game"
    assert "broken" not in registry.variants and "seahaven" in registry.variants
    [problem] = [p for p in registry.problems if p.plugin == USER_PLUGIN]
    assert problem.what == "broken.toml" and "decks: expected a number at least 1" in str(problem)
    assert cli.main(["list"]) == 0
    captured = capsys.readouterr()
    line = next(x for x in captured.out.splitlines() if x.startswith("my-game "))
    assert f"(yours: {home / 'my-game.toml'})" in line
    assert "skipped: plugin 'yours': broken.toml:" in captured.err
    assert cli.main(["show", "my-game", "--deal", "3"]) == 0
    assert capsys.readouterr().out.startswith("My Game #3\n")


def test_disabling_yours_skips_the_user_folder(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "my-game.toml").write_text(my_game_text(), "utf-8")
    monkeypatch.setenv("SOLITAIRE_DISABLE_PLUGINS", USER_PLUGIN)
    assert "my-game" not in build_registry().variants


def test_every_variant_command_takes_a_path(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "elsewhere" / "my-game.toml"
    path.parent.mkdir()
    path.write_text(my_game_text(), "utf-8")
    assert cli.main(["show", str(path), "--deal", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("My Game #2\n")
    state = deal(get_variant(str(path)).resolve(), 2)
    assert len(state.columns) == 8 and all(len(c) == 6 for c in state.columns)
    assert cli.main(["export", str(path), "--deal", "2"]) == 0
    assert len(capsys.readouterr().out.splitlines()) >= 8
    assert cli.main(["solve", str(path), "--deal", "2", "--max-states", "20000"]) == 0
    assert capsys.readouterr().out.startswith("My Game #2: ")
    assert cli.main(["variant", "show", str(path)]) == 0
    assert capsys.readouterr().out == path.read_text("utf-8")
    assert cli.main(["stats", str(path)]) == 0
    capsys.readouterr()
    code = cli.main(["conformance", str(path), "--check", "deal", "--examples", "3"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "my-game (My Game, plugin file)" in out and "1 of 1 checks passed" in out


def test_survey_takes_a_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "my-game.toml"
    path.write_text(my_game_text(), "utf-8")
    code = cli.main(["survey", str(path), "--deals", "1-2", "--jobs", "1", "--quiet"])
    assert code == 0
    assert "2 deals" in capsys.readouterr().out


def test_play_takes_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import solitaire_tk.shell.app
    import solitaire_tk.shell.cli

    path = tmp_path / "my-game.toml"
    path.write_text(my_game_text(), "utf-8")
    opened = []
    monkeypatch.setattr(solitaire_tk.shell.app, "run", lambda *args: opened.append(args) or 0)
    monkeypatch.setattr(solitaire_tk.shell.cli, "_exit_now", lambda status: None)
    assert cli.main(["play", str(path), "--deal", "4"]) == 0
    assert get_registry().variants["my-game"].source == str(path)
    assert opened == [("my-game", 4, None)]


def test_a_path_whose_id_is_taken_or_bad_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clash = tmp_path / "clash.toml"
    clash.write_text((BUILTIN / "freecell.toml").read_text("utf-8"), "utf-8")
    assert cli.main(["show", str(clash)]) == 2
    err = capsys.readouterr().err
    assert f"{clash}: id: 'freecell' is already the id of FreeCell" in err
    bad = tmp_path / "bad.toml"
    bad.write_text(my_game_text().replace('move_limit = "free-cells-plus-one"', "move_limit = 2"))
    assert cli.main(["show", str(bad)]) == 2
    assert f"{bad}: tableau.move_limit: expected one of" in capsys.readouterr().err
    assert cli.main(["show", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read the file" in capsys.readouterr().err
    assert "bad" not in get_registry().variants


def test_variant_new_copies_into_the_user_folder(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["variant", "new", "my-sea-towers", "--from", "sea-towers"]) == 0
    target = home / "my-sea-towers.toml"
    assert f"wrote {target}" in capsys.readouterr().out
    text = target.read_text("utf-8")
    original = (BUILTIN / "sea-towers.toml").read_text("utf-8")
    assert text.endswith(original[original.index("\n[") :])  # tables, comments, layout kept
    assert 'id = "my-sea-towers"' in text and 'name = "My Sea Towers"' in text
    definition = get_registry(reload=True).variants["my-sea-towers"]
    assert definition.plugin == USER_PLUGIN
    assert dict(definition.data["tableau"]) == dict(get_variant("sea-towers").data["tableau"])
    assert [o.name for o in definition.options] == ["empty_columns"]
    # Neither an installed id nor an existing file is overwritten.
    assert cli.main(["variant", "new", "freecell", "--from", "seahaven"]) == 1  # cannot do it
    assert "'freecell' is already taken by FreeCell" in capsys.readouterr().err
    with pytest.raises(SolitaireError, match="'my-sea-towers' is already taken by My Sea"):
        new_user_variant(build_registry(), "my-sea-towers", "seahaven", folder=home)
    assert target.read_text("utf-8") == text
    (home / "half-done.toml").write_text("a file that does not load yet", "utf-8")
    with pytest.raises(SolitaireError, match="half-done.toml already exists"):
        new_user_variant(build_registry(), "half-done", "seahaven", folder=home)
    assert (home / "half-done.toml").read_text("utf-8") == "a file that does not load yet"
    assert cli.main(["variant", "new", "Bad_Id", "--from", "seahaven"]) == 2
    assert "expected lowercase letters" in capsys.readouterr().err


def test_variant_text_falls_back_to_the_data_without_a_file(tmp_path: Path) -> None:
    definition = build_registry().get("seahaven")
    gone = attrs.evolve(definition, source=str(tmp_path / "deleted.toml"))
    assert tomllib.loads(variant_text(gone)) == dict(definition.data)


def test_copy_variant_text_needs_top_level_id_and_name() -> None:
    with pytest.raises(VariantError, match="name: no top-level line"):
        copy_variant_text('id = "x"\n[tableau]\nname = "inner"\n', "y", "Y")


def test_pytest_kit_without_hypothesis_names_the_extra(tmp_path: Path) -> None:
    blocker = tmp_path / "no_hypothesis.py"
    blocker.write_text(
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'hypothesis':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import pytest\n"
        "sys.exit(pytest.main(sys.argv[1:]))\n"
    )
    result = subprocess.run(
        [sys.executable, str(blocker), "-p", "no:hypothesispytest", "--solitaire-variant", "x"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 4  # pytest's usage error
    assert "pip install 'towers-solitaire[conformance]'" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_copy_made_on_the_command_line_no_longer_claims_to_be_the_original(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`variant new X --from seahaven` and the editor's copy agree: neither keeps the
    original's PySolFC game number or its other names, and the file's opening comment
    says whose copy it is instead of describing Seahaven Towers."""
    from solitaire_tk.editor.window import copy_for_editing

    assert cli.main(["variant", "new", "my-towers", "--from", "seahaven"]) == 0
    text = (home / "my-towers.toml").read_text("utf-8")
    assert text.splitlines()[0] == "# My Towers: a copy of Seahaven Towers."
    assert "Art Cabral" not in text  # the original's opening comment is gone
    data = tomllib.loads(text)
    assert "pysolfc_id" not in data and "aliases" not in data
    editor_copy = copy_for_editing(build_registry().get("seahaven"), build_registry())
    assert set(data) == set(editor_copy)
    assert cli.main(["check", str(home / "my-towers.toml")]) == 0
    assert "pysolfc" not in capsys.readouterr().out.lower()
