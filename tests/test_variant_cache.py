"""The cache of variant files already read and checked (solitaire_core/variant_cache.py):
a second start reads no unchanged file again, an edited file is read and checked again,
and a damaged, foreign or unwritable cache costs a start nothing but the time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import attrs
import pytest

import solitaire_core.variant as variant_module
from solitaire_core.deal import deal
from solitaire_core.plugins import build_registry
from solitaire_core.rules import legal_moves
from solitaire_core.variant_cache import FILE_NAME, VariantCache


def cache_file(home: Path) -> Path:
    return home / "cache" / FILE_NAME


def no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reading a variant file's TOML or checking it against the schema fail."""

    def refuse(*args: object) -> None:
        raise AssertionError("a cached variant file was read again")

    monkeypatch.setattr(variant_module, "_parse_toml", refuse)
    monkeypatch.setattr(variant_module, "_validate", refuse)


def test_a_second_start_reads_no_unchanged_variant_file_again(
    solitaire_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The broken example plugin's invalid file is read and refused on every start.
    monkeypatch.setenv("SOLITAIRE_DISABLE_PLUGINS", "broken-import,broken-hooks")
    first = build_registry()
    assert cache_file(solitaire_home).is_file()
    no_reading(monkeypatch)
    second = build_registry()
    monkeypatch.undo()  # resolving rules checks them, as a game's start does
    assert second.variants.keys() == first.variants.keys()
    for vid, definition in first.variants.items():
        again = second.variants[vid]
        assert again.data == definition.data, vid
        assert again.options == definition.options, vid
        rules, before = again.resolve(), definition.resolve()
        differ = [
            f.name
            for f in attrs.fields(type(rules))
            if not callable(getattr(rules, f.name))
            and getattr(rules, f.name) != getattr(before, f.name)
        ]
        assert not differ, (vid, differ)
        # The rules' functions (what an empty column takes, say) play the same.
        state, same = deal(rules, 1), deal(before, 1)
        assert str(state) == str(same), vid
        assert [str(m) for m in legal_moves(state)] == [str(m) for m in legal_moves(same)], vid


def write_user_variant(home: Path, name: str, cells: object) -> Path:
    folder = home / "data" / "variants"
    folder.mkdir(parents=True, exist_ok=True)
    # The built-in file as installed (variants/ in the source tree, solitaire_variants/
    # in a wheel).
    seahaven = resources.files("solitaire_variants").joinpath("seahaven.toml")
    text = seahaven.read_text("utf-8").replace('id = "seahaven"', 'id = "my-towers"')
    text = text.replace('name = "Seahaven Towers"', f'name = "{name}"')
    text = text.replace("[cells]\ncount = 4", f"[cells]\ncount = {cells}")
    path = folder / "my-towers.toml"
    path.write_text(text, "utf-8")
    return path


def test_an_edited_file_is_read_and_checked_again(solitaire_home: Path) -> None:
    write_user_variant(solitaire_home, "My Towers", 4)
    assert build_registry().variants["my-towers"].name == "My Towers"
    # Edited into a file the schema refuses: reported, though its old text was cached.
    write_user_variant(solitaire_home, "My Towers", '"four"')
    registry = build_registry()
    assert "my-towers" not in registry.variants
    assert any(
        "cells.count" in p.reason and "my-towers.toml" in p.what for p in registry.problems
    ), registry.problems
    write_user_variant(solitaire_home, "Towers Renamed", 3)
    again = build_registry().variants["my-towers"]
    assert again.name == "Towers Renamed" and again.resolve().cells == 3


def tampered_entry(path: Path) -> bytes:
    """The cache file with Seahaven Towers' cached name changed but not its checksum."""
    raw = json.loads(path.read_bytes())
    for entry in raw["entries"].values():
        if entry["data"]["id"] == "seahaven":
            entry["data"]["name"] = "Not Seahaven"
    return json.dumps(raw).encode()


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: b"\x00\xff garbage",
        lambda path: path.read_bytes()[: len(path.read_bytes()) // 2],
        lambda path: b"[]",
        lambda path: json.dumps({"format": 1, "fingerprint": "x" * 64, "entries": {}}).encode(),
        lambda path: json.dumps(
            {**json.loads(path.read_bytes()), "entries": {"k": {"data": [], "checksum": 1}}}
        ).encode(),
        tampered_entry,
    ],
    ids=["garbage", "truncated", "a-list", "other-fingerprint", "wrong-types", "tampered"],
)
def test_a_damaged_cache_is_ignored_and_written_anew(solitaire_home: Path, damage) -> None:
    expected = build_registry()
    path = cache_file(solitaire_home)
    path.write_bytes(damage(path))
    registry = build_registry()
    assert registry.variants.keys() == expected.variants.keys()
    assert registry.variants["seahaven"].name == "Seahaven Towers"
    assert not [p for p in registry.problems if "cache" in p.reason]
    # Written anew: a third start reads nothing again.
    raw = json.loads(path.read_bytes())
    assert raw["format"] == 1 and len(raw["entries"]) >= len(expected.variants)


def test_a_cache_folder_that_cannot_be_made_or_written_costs_nothing(
    solitaire_home: Path,
) -> None:
    expected = build_registry().variants.keys()
    cache_file(solitaire_home).unlink()
    cache_file(solitaire_home).mkdir()  # the cache file's place is taken by a folder
    assert build_registry().variants.keys() == expected
    assert cache_file(solitaire_home).is_dir()
    (solitaire_home / "cache" / FILE_NAME).rmdir()
    (solitaire_home / "cache").rmdir()
    (solitaire_home / "cache").write_text("a file where the folder should be")
    assert build_registry().variants.keys() == expected


def test_a_cache_keeps_no_table_json_cannot_give_back() -> None:
    cache = VariantCache(None)
    cache.put("text", {"a": (1, 2)})
    assert cache.get("text") is None


@pytest.mark.parametrize(
    ("command", "shows"),
    [
        (["list"], "seahaven"),
        (["show", "seahaven", "--deal", "1"], "t1"),
        (["survey", "seahaven", "--deals", "1-1", "--jobs", "1", "--quiet"], "1 winnable"),
    ],
    ids=["list", "show", "survey"],
)
def test_a_second_start_loads_no_schema_checker(
    solitaire_home: Path, command: list[str], shows: str
) -> None:
    """``solitaire list`` reads the variant files once: the next start imports neither
    the TOML reader's work nor jsonschema (the plugins with broken files left out); nor
    do commands that resolve a game without options (its table was checked when read)."""
    probe = (
        f"import sys; from solitaire_core.cli import main; main({command!r}); "
        "print('jsonschema' in sys.modules, file=sys.stderr)"
    )
    env = {
        **os.environ,
        "SOLITAIRE_DISABLE_PLUGINS": "broken-import,broken-hooks",
        "SOLITAIRE_HOME": str(solitaire_home),
    }
    runs = [
        subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120
        )
        for _ in range(2)
    ]
    assert runs[0].stdout == runs[1].stdout and shows in runs[1].stdout
    assert runs[0].stderr.split()[-1] == "True"  # the first start checks every file
    assert runs[1].stderr.split()[-1] == "False"
