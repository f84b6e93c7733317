"""Tests of the persistence helpers: folders, atomic writes, quarantine."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from solitaire_core.persistence import (
    PersistenceError,
    app_dirs,
    atomic_write_bytes,
    atomic_write_text,
    config_dir,
    data_dir,
    move_aside,
    quarantine,
    saves_dir,
    settings_path,
    stats_path,
    temp_files_for,
)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("SOLITAIRE_HOME", str(home))
    return home


def test_folders_live_under_solitaire_home(home: Path) -> None:
    assert not home.exists()
    assert config_dir() == home / "config"
    assert data_dir() == home / "data"
    assert (home / "config").is_dir() and (home / "data").is_dir()
    assert settings_path() == home / "config" / "settings.toml"
    assert stats_path() == home / "data" / "stats.sqlite3"
    assert saves_dir() == home / "data" / "saves" and saves_dir().is_dir()


def test_app_dirs_names_the_application() -> None:
    dirs = app_dirs()
    assert dirs.appname == "towers-solitaire"
    assert dirs.appauthor is False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG variables are Linux-only")
def test_without_override_platform_folders_are_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SOLITAIRE_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    assert config_dir() == tmp_path / "xdg-config" / "towers-solitaire"
    assert data_dir() == tmp_path / "xdg-data" / "towers-solitaire"
    assert config_dir().is_dir() and data_dir().is_dir()


def test_empty_override_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOLITAIRE_HOME", "")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    if sys.platform.startswith("linux"):
        assert config_dir() == tmp_path / "xdg-config" / "towers-solitaire"


def test_atomic_write_creates_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "file.txt"
    atomic_write_bytes(target, b"one")
    assert target.read_bytes() == b"one"
    atomic_write_text(target, "two\n\u00e9")
    assert target.read_bytes() == "two\n\u00e9".encode()
    assert temp_files_for(target) == []
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.txt"]


def test_atomic_write_rejects_text_for_bytes(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        atomic_write_bytes(tmp_path / "x", "text")  # type: ignore[arg-type]


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_atomic_write_keeps_existing_permissions(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_bytes(b"old")
    target.chmod(0o640)
    atomic_write_bytes(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_failed_write_leaves_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "file"
    target.write_bytes(b"old")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"old"
    assert temp_files_for(target) == []


@pytest.mark.skipif(os.name != "posix", reason="dead-writer detection by pid is POSIX")
def test_temp_files_of_dead_writers_are_swept(tmp_path: Path) -> None:
    target = tmp_path / "file"
    # A writer that has exited (and been reaped): its pid is free.
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    stale = tmp_path / f".file.tmp-{child.pid}-abcdefgh"
    stale.write_bytes(b"half")
    mine = tmp_path / f".file.tmp-{os.getpid()}-zzzzzzzz"
    mine.write_bytes(b"in progress")
    alive = tmp_path / f".file.tmp-{os.getppid()}-yyyyyyyy"
    alive.write_bytes(b"other live writer")
    other_target = tmp_path / f".other.tmp-{child.pid}-xxxxxxxx"
    other_target.write_bytes(b"not ours")
    atomic_write_bytes(target, b"data")
    assert not stale.exists()
    assert mine.exists() and alive.exists() and other_target.exists()
    assert target.read_bytes() == b"data"


def test_quarantine_moves_without_overwriting(tmp_path: Path) -> None:
    when = datetime(2024, 5, 1, 12, 34, 56, tzinfo=timezone.utc)
    bad = tmp_path / "settings.toml"
    bad.write_bytes(b"first")
    first = quarantine(bad, now=when)
    assert first.name == "settings.toml.corrupt-20240501-123456"
    assert first.read_bytes() == b"first" and not bad.exists()
    bad.write_bytes(b"second")
    second = quarantine(bad, now=when)
    assert second.name == "settings.toml.corrupt-20240501-123456-2"
    assert second.read_bytes() == b"second"
    assert first.read_bytes() == b"first"
    bad.write_bytes(b"third")
    assert quarantine(bad, now=when).name.endswith("-3")


def test_quarantine_default_name_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "autosave.json"
    bad.write_bytes(b"x")
    moved = quarantine(bad)
    assert moved.parent == tmp_path
    assert moved.name.startswith("autosave.json.corrupt-")
    with pytest.raises(FileNotFoundError):
        quarantine(tmp_path / "missing")


def test_move_aside_refuses_existing_destination(tmp_path: Path) -> None:
    source, taken = tmp_path / "a", tmp_path / "b"
    source.write_bytes(b"a")
    taken.write_bytes(b"b")
    assert move_aside(source, taken) is False
    assert source.read_bytes() == b"a" and taken.read_bytes() == b"b"
    assert move_aside(source, tmp_path / "c") is True
    assert (tmp_path / "c").read_bytes() == b"a" and not source.exists()


def test_quarantine_moves_folders_too(tmp_path: Path) -> None:
    folder = tmp_path / "settings.toml"
    folder.mkdir()
    moved = quarantine(folder)
    assert moved.is_dir() and not folder.exists()


def test_persistence_error_is_readable() -> None:
    error = PersistenceError("The file x is bad", "x")
    assert str(error) == "The file x is bad"
    assert error.path == Path("x")
    assert PersistenceError("no file").path is None
