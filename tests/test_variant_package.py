"""``solitaire variant package``: the project it writes installs into a fresh virtual
environment and passes its own tests as generated."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from solitaire_core import cli, plugins
from solitaire_core.errors import SolitaireError
from solitaire_core.packaging import module_name, package_variant
from solitaire_core.plugins import build_registry
from solitaire_core.uservariants import copy_variant_text

BUILTIN = Path(__file__).resolve().parents[1] / "variants"


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files named by path join a registry of this test's own."""
    monkeypatch.setattr(plugins, "_REGISTRY", None)


def game_file(folder: Path, vid: str = "packed-towers") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{vid}.toml"
    text = copy_variant_text((BUILTIN / "sea-towers.toml").read_text("utf-8"), vid, "Packed")
    path.write_text(text, "utf-8")
    return path


def fresh_venv(where: Path) -> Path:
    """A new virtual environment that sees this environment's packages (towers-solitaire,
    pytest, Hypothesis, setuptools) through a ``.pth`` file, so installing into it needs no
    network; returns its Python."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=120
    )
    python = where / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(purelib, "parent-env.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    return python


@pytest.mark.slow
@pytest.mark.gui
def test_done_when_a_file_goes_to_the_folder_listed_played_solved_packaged_installed_kit(
    root, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A variant file's whole path, step by step: file -> user folder -> listed -> played ->
    solved -> packaged -> installed -> the kit passes."""
    from solitaire_tk.shell.app import App
    from solitaire_tk.shell.persist import AppStore

    from solitaire_core.plugins import USER_PLUGIN, get_registry
    from solitaire_core.rules import legal_moves
    from solitaire_core.session import Session
    from solitaire_core.solver import Verdict, solve_deal

    # A file, written from a built-in one, dropped into the user variants folder.
    home = tmp_path / "home"
    monkeypatch.setenv("SOLITAIRE_HOME", str(home))
    source = game_file(home / "data" / "variants")
    # Listed, as yours.
    assert cli.main(["list"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("packed-towers"))
    assert f"(yours: {source})" in line
    registry = get_registry()
    assert registry.get("packed-towers").plugin == USER_PLUGIN
    # Played: the real game window deals it and takes a move.
    store = AppStore(home, registry=registry)
    app = App(root, store=store, variant="packed-towers", deal=1, modal=False)
    app.view.animation = False
    root.update()
    assert app.session is not None and app.session.rules.name == "Packed"
    before = app.session.state
    assert app.play(legal_moves(before)[0])
    assert app.session.state != before and app.session.moves == 1
    app.close(save=False)
    # Solved: the solver's solution replays to a win.
    assert cli.main(["solve", str(source), "--deal", "1"]) == 0
    assert capsys.readouterr().out.startswith("Packed #1, empty_columns=king: winnable")
    result = solve_deal(registry.get("packed-towers").resolve(), 1)
    assert result.verdict is Verdict.WINNABLE
    session = Session.new(registry.get("packed-towers"), 1)
    for move in result.moves:
        session.play(move)
    assert session.is_won

    # Packaged.
    project = tmp_path / "project"
    code = cli.main(
        ["variant", "package", str(source), "--name", "solitaire-packed", "--output", str(project)]
    )
    assert code == 0, capsys.readouterr().err
    said = capsys.readouterr().out
    assert f"wrote {project}" in said
    # The printed next step installs the test extra, without which the kit cannot run.
    assert f"pip install '{project}[test]'" in said
    shipped = project / "src" / "solitaire_packed" / "packed-towers.toml"
    assert shipped.read_text("utf-8") == source.read_text("utf-8")
    assert 'solitaire-packed = "solitaire_packed"' in (project / "pyproject.toml").read_text()
    # Installed into a fresh virtual environment (the user folder's copy then steps aside).
    python = fresh_venv(tmp_path / "venv")
    env = {**os.environ, "SOLITAIRE_HOME": str(home), "PIP_NO_INDEX": "1"}
    env.pop("PYTHONPATH", None)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
         "--no-build-isolation", "--no-index", str(project)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout + install.stderr
    listed = subprocess.run(
        [str(python), "-m", "solitaire_core", "list"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    line = next(x for x in listed.stdout.splitlines() if x.startswith("packed-towers "))
    assert "(plugin: solitaire-packed)" in line and "[options: empty_columns=king|any]" in line
    assert (
        f"skipped: plugin 'yours': {source}: variant id 'packed-towers' is already taken by "
        "plugin 'solitaire-packed'"
    ) in listed.stderr
    # The kit passes: the generated project's own tests, as generated.
    tests = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--solitaire-examples", "5"],
        capture_output=True, text=True, env=env, cwd=project, timeout=600,
    )  # fmt: skip
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert " passed" in tests.stdout and "failed" not in tests.stdout


def test_package_refuses_what_it_cannot_make_work(tmp_path: Path) -> None:
    registry = build_registry()
    source = game_file(tmp_path)
    with pytest.raises(SolitaireError, match="not a Python module name"):
        package_variant(registry, source, "2048-towers", tmp_path / "a")
    with pytest.raises(SolitaireError, match="expected letters, digits"):
        package_variant(registry, source, "my game", tmp_path / "a")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    with pytest.raises(SolitaireError, match="not empty"):
        package_variant(registry, source, "solitaire-packed", tmp_path / "full")
    example = Path(__file__).resolve().parents[1] / "examples" / "solitaire-example-variant"
    needs_plugin = example / "src" / "solitaire_example_variant" / "example-towers.toml"
    with pytest.raises(SolitaireError, match="'example.down-in-color', 'example.riffle'"):
        package_variant(registry, needs_plugin, "solitaire-other", tmp_path / "b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "packed-towers.toml"]
    assert module_name("Solitaire.My--Game") == "solitaire_my_game"
