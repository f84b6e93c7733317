"""``solitaire variant package``: the project it writes installs into a fresh virtual
environment and passes its own tests as generated (issue 12)."""

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
def test_a_packaged_variant_installs_and_passes_its_tests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = game_file(tmp_path)
    project = tmp_path / "project"
    code = cli.main(
        ["variant", "package", str(source), "--name", "solitaire-packed", "--output", str(project)]
    )
    assert code == 0, capsys.readouterr().err
    assert f"wrote {project}" in capsys.readouterr().out
    shipped = project / "src" / "solitaire_packed" / "packed-towers.toml"
    assert shipped.read_text("utf-8") == source.read_text("utf-8")
    assert 'solitaire-packed = "solitaire_packed"' in (project / "pyproject.toml").read_text()

    python = fresh_venv(tmp_path / "venv")
    env = {**os.environ, "SOLITAIRE_HOME": str(tmp_path / "home"), "PIP_NO_INDEX": "1"}
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
