"""Tests of saved games: round trips, the autosave, and every kind of bad file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from solitaire_core.persistence import (
    MOVE_PATTERN,
    FrozenOptions,
    PersistenceError,
    SavedGame,
    autosave_path,
    clear_autosave,
    decode_save,
    encode_save,
    load_autosave,
    read_save,
    write_autosave,
    write_save,
)
from solitaire_core.persistence import saves as saves_module


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("SOLITAIRE_HOME", str(home))
    return home


GAME = SavedGame(
    variant="seahaven",
    options={"redeals": "2"},
    deal=123456789,
    moves=("t3>f", "c1>t7", "t2>t5x3", "f>t1", "t10>c4"),
    undone=("t1>f",),
    elapsed_seconds=93.25,
    cheat=True,
    cheats=2,
    used_undo=True,
    used_hint=True,
    hints=3,
    demo_played=True,
    saved_at="2024-05-01T12:34:56Z",
)

moves = st.from_regex(MOVE_PATTERN, fullmatch=True)
option_names = st.text(min_size=1, max_size=12).filter(lambda s: "=" not in s and "," not in s)
option_values = st.text(max_size=12).filter(lambda s: "," not in s)
games = st.builds(
    SavedGame,
    variant=st.text(min_size=1, max_size=20),
    options=st.dictionaries(option_names, option_values, max_size=4),
    deal=st.integers(min_value=0, max_value=10**20 - 1),
    moves=st.lists(moves, max_size=30).map(tuple),
    undone=st.lists(moves, max_size=5).map(tuple),
    elapsed_seconds=st.floats(min_value=0, max_value=1e9, allow_nan=False),
    cheat=st.booleans(),
    cheats=st.integers(min_value=0, max_value=10**6),
    used_undo=st.booleans(),
    used_hint=st.booleans(),
    hints=st.integers(min_value=0, max_value=10**6),
    demo_played=st.booleans(),
)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def document(**changes: Any) -> dict[str, Any]:
    data = GAME.to_json_dict()
    for key, value in changes.items():
        if value is _DELETE:
            del data[key]
        else:
            data[key] = value
    return data


_DELETE = object()


def write_json(path: Path, data: object) -> bytes:
    content = json.dumps(data).encode()
    path.write_bytes(content)
    return content


def read_error(path: Path) -> str:
    before = snapshot(path.parent)
    with pytest.raises(PersistenceError) as caught:
        read_save(path)
    assert snapshot(path.parent) == before  # read_save never touches the file
    assert caught.value.path == path
    return str(caught.value)


# --- the value class -----------------------------------------------------------------------


def test_defaults_and_conversions() -> None:
    game = SavedGame("seahaven", {"b": "1"}, 7, ["t1>f"])
    assert game.moves == ("t1>f",) and game.undone == ()
    assert game.options == {"b": "1"} and isinstance(game.options, FrozenOptions)
    assert game.elapsed_seconds == 0.0 and isinstance(game.elapsed_seconds, float)
    assert (game.cheat, game.cheats, game.used_undo, game.used_hint) == (False, 0, False, False)
    assert game.format_version == 1
    assert game.saved_at.endswith("Z") and len(game.saved_at) == 20
    assert SavedGame("x", None, 0, [], elapsed_seconds=3).elapsed_seconds == 3.0


@pytest.mark.parametrize(
    "changes",
    [
        {"variant": ""},
        {"variant": 3},
        {"options": {"a": 1}},
        {"options": "a=1"},
        {"deal": -1},
        {"deal": 10**20},
        {"deal": 1.0},
        {"deal": True},
        {"moves": "t1>f"},
        {"moves": ["t1>f", "x"]},
        {"moves": ["t1>f\n"]},
        {"moves": ["t\u0663>f"]},  # a non-ASCII digit
        {"undone": [3]},
        {"elapsed_seconds": -1.0},
        {"elapsed_seconds": float("nan")},
        {"elapsed_seconds": float("inf")},
        {"elapsed_seconds": True},
        {"cheat": 1},
        {"cheats": -1},
        {"cheats": 1.5},
        {"used_undo": None},
        {"used_hint": "no"},
        {"hints": -1},
        {"hints": True},
        {"hints": 2.0},
        {"demo_played": 1},
        {"saved_at": "yesterday"},
        {"saved_at": 5},
        {"format_version": 2},
    ],
)
def test_constructor_rejects_bad_values(changes: dict[str, Any]) -> None:
    values: dict[str, Any] = {"variant": "v", "options": {}, "deal": 1, "moves": ()}
    values.update(changes)
    with pytest.raises((TypeError, ValueError)):
        SavedGame(**values)


@pytest.mark.parametrize("move", ["t3>f", "c1>t7", "t2>t5x3", "f>t", "t10>t11x12", "c>c"])
def test_move_shapes_accepted(move: str) -> None:
    assert SavedGame("v", {}, 0, [move]).moves == (move,)


# --- round trips ---------------------------------------------------------------------------


def test_file_format(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_save(GAME, path)
    data = json.loads(path.read_text("utf-8"))
    assert data["format"] == "towers-solitaire-save"
    assert data["format_version"] == 1
    assert data["moves"] == list(GAME.moves)
    assert data["options"] == {"redeals": "2"}
    assert path.read_bytes() == encode_save(GAME)
    assert path.read_bytes().endswith(b"\n")


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "named" / "my game.json"
    write_save(GAME, path)
    assert read_save(path) == GAME
    assert read_save(str(path)) == GAME


@hsettings(max_examples=100, deadline=None)
@given(games)
def test_round_trip_any_game(game: SavedGame) -> None:
    assert decode_save(encode_save(game)) == game
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        write_save(game, path)
        assert read_save(path) == game


def test_optional_keys_default_and_unknown_keys_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    data = document(future_feature={"x": 1})
    optional = ("undone", "elapsed_seconds", "cheat", "cheats", "used_undo", "used_hint")
    for key in (*optional, "hints", "demo_played"):
        del data[key]
    write_json(path, data)
    game = read_save(path)
    assert game.moves == GAME.moves and game.undone == () and game.cheats == 0


OLD_SAVE = """{
  "format": "towers-solitaire-save",
  "format_version": 1,
  "variant": "seahaven",
  "options": {},
  "deal": 5,
  "moves": [
    "t1>c",
    "t2>t1"
  ],
  "undone": [
    "t1>f"
  ],
  "elapsed_seconds": 41.5,
  "cheat": false,
  "cheats": 0,
  "used_undo": true,
  "used_hint": true,
  "saved_at": "2025-03-01T20:00:00Z"
}
"""
"""A save as the program wrote it before hint counts and the demo flag were saved."""


def test_a_save_from_before_hint_counts_reads_with_none_counted(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(OLD_SAVE, "utf-8")
    game = read_save(path)
    assert (game.hints, game.demo_played) == (0, False)
    assert (game.used_hint, game.used_undo, game.elapsed_seconds) == (True, True, 41.5)
    assert game.moves == ("t1>c", "t2>t1") and game.undone == ("t1>f",)
    # Written again, it carries both keys.
    data = json.loads(encode_save(game))
    assert (data["hints"], data["demo_played"]) == (0, False)


def test_hints_and_the_demo_flag_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_save(GAME, path)
    data = json.loads(path.read_text("utf-8"))
    assert (data["hints"], data["demo_played"]) == (3, True)
    assert read_save(path) == GAME


def test_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(b"\xef\xbb\xbf" + encode_save(GAME))
    assert read_save(path) == GAME


def test_write_failure_is_a_persistence_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    with pytest.raises(PersistenceError) as caught:
        write_save(GAME, blocker / "g.json")
    assert "could not be saved" in str(caught.value)
    with pytest.raises(TypeError):
        write_save({"variant": "x"}, tmp_path / "g.json")  # type: ignore[arg-type]


# --- bad files -----------------------------------------------------------------------------


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(PersistenceError, match="does not exist"):
        read_save(tmp_path / "nope.json")
    if os.name == "posix":
        with pytest.raises(PersistenceError, match="is a folder"):
            read_save(tmp_path)


@pytest.mark.parametrize(
    "data",
    [[], {}, "x", 3, None, {"format": "other"}, {"format": ["towers-solitaire-save"]}],
)
def test_not_our_file(tmp_path: Path, data: object) -> None:
    path = tmp_path / "g.json"
    write_json(path, data)
    assert read_error(path) == f"{path} is not a towers-solitaire saved game"


def test_newer_version(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_json(path, document(format_version=7))
    assert read_error(path) == (
        f"{path} was written by a newer version (format 7); this program reads format 1"
    )


@pytest.mark.parametrize("version", [0, -1, "1", 1.0, None, True])
def test_bad_version(tmp_path: Path, version: object) -> None:
    path = tmp_path / "g.json"
    write_json(path, document(format_version=version))
    assert "format version" in read_error(path)


def test_truncated_message_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(encode_save(GAME)[:50])
    message = read_error(path)
    assert message.startswith(f"{path} is truncated or not valid JSON (line 3 column 3)")


@pytest.mark.parametrize(
    ("key", "value", "phrase"),
    [
        ("deal", "12", "should be a whole number"),
        ("deal", 12.0, "should be a whole number"),
        ("deal", -5, "should be a whole number"),
        ("deal", True, "should be a whole number"),
        ("deal", 10**20, "should be a whole number"),
        ("variant", 3, "should be a variant name"),
        ("variant", "", "should be a variant name"),
        ("options", [], "should be an object"),
        ("options", {"a": 1}, "should be an object"),
        ("options", {"a,b": "1"}, "should be an object"),
        ("moves", "t1>f", "should be a list of moves"),
        ("moves", ["t1>f", 3], "item 2 (3) is not a move"),
        ("moves", ["t1>f", "t1>f", "jump"], "item 3 ('jump') is not a move"),
        ("undone", ["x" * 1000], "item 1 ('xxxx"),
        ("elapsed_seconds", -1, "should be a number of seconds"),
        ("elapsed_seconds", "1", "should be a number of seconds"),
        ("elapsed_seconds", 1e999, "should be a number of seconds"),
        ("cheat", 0, "should be true or false"),
        ("cheats", -1, "should be a whole number"),
        ("used_undo", "true", "should be true or false"),
        ("used_hint", None, "should be true or false"),
        ("hints", -2, "should be a whole number"),
        ("hints", 1.5, "should be a whole number"),
        ("hints", False, "should be a whole number"),
        ("demo_played", "yes", "should be true or false"),
        ("saved_at", "last tuesday", "should be a date and time"),
        ("saved_at", 17, "should be a date and time"),
    ],
)
def test_wrong_typed_key_is_named(tmp_path: Path, key: str, value: object, phrase: str) -> None:
    path = tmp_path / "g.json"
    content = json.dumps(document(**{key: value})).replace("Infinity", "1e999")
    path.write_text(content, "utf-8")
    message = read_error(path)
    assert message.startswith(f"{path}: key '{key}' ")
    assert phrase in message


def test_deal_given_as_a_string_is_named_as_not_a_whole_number(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_json(path, document(deal="7"))
    assert read_error(path) == f"{path}: key 'deal' should be a whole number"


@pytest.mark.parametrize("key", ["variant", "options", "deal", "moves", "saved_at"])
def test_missing_required_key(tmp_path: Path, key: str) -> None:
    path = tmp_path / "g.json"
    write_json(path, document(**{key: _DELETE}))
    assert read_error(path) == f"{path}: key '{key}' is missing"


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"   \n",
        b"\xff\xfe{}",
        b'{"format": NaN}',
        b'{"a": 1, "a": 2}',
        b"[" * 100_000,
        b"[" * 100_000 + b"]" * 100_000,
        b"1" * 100_000,
        b'{"format": "towers-solitaire-save", "format_version": 1, "deal": ' + b"9" * 10_000 + b"}",
    ],
)
def test_malformed_content(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(content)
    message = read_error(path)
    assert message.startswith(str(path))


def test_too_large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(saves_module, "MAX_SAVE_BYTES", 100)
    path = tmp_path / "g.json"
    path.write_bytes(encode_save(GAME))
    assert "too large" in read_error(path)


def test_every_prefix_of_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    full = encode_save(GAME)
    for length in range(len(full)):
        prefix = full[:length]
        path.write_bytes(prefix)
        try:
            game = read_save(path)
        except PersistenceError as error:
            assert str(error).startswith(str(path))
        else:  # only the final newline may be missing
            assert prefix == full.rstrip() and game == GAME
        assert path.read_bytes() == prefix
        assert sorted(os.listdir(tmp_path)) == ["g.json"]


@hsettings(max_examples=200, deadline=None)
@given(st.binary(max_size=500))
def test_garbage_only_raises_persistence_error(garbage: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        path.write_bytes(garbage)
        with pytest.raises(PersistenceError):
            read_save(path)
        assert os.listdir(folder) == ["g.json"]
        assert path.read_bytes() == garbage


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)


@hsettings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(list(GAME.to_json_dict())),
        json_values | moves.map(lambda m: [m]) | st.just(["t1>f", "t2>c"]),
    )
)
def test_any_json_document_reads_or_raises_persistence_error(changes: dict[str, Any]) -> None:
    data = {**GAME.to_json_dict(), **changes}
    content = json.dumps(data, allow_nan=True).encode()
    try:
        game = decode_save(content, "g.json")
    except PersistenceError as error:
        assert str(error).startswith("g.json")
    else:
        assert isinstance(game, SavedGame)
        assert encode_save(game)  # whatever was accepted can be written again


# --- the autosave --------------------------------------------------------------------------


def test_autosave_cycle(home: Path) -> None:
    assert autosave_path() == home / "data" / "autosave.json"
    assert load_autosave() == (None, [])
    write_autosave(GAME)
    assert autosave_path().is_file()
    assert load_autosave() == (GAME, [])
    clear_autosave()
    assert not autosave_path().exists()
    assert load_autosave() == (None, [])
    clear_autosave()  # a missing autosave is fine


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        (b'{"format": "towers-solitaire-save"', "truncated or not valid JSON (line 1 column"),
        (b"\x00\x01\x02", "not a towers-solitaire saved game"),
        (json.dumps(document(format_version=7)).encode(), "newer version (format 7)"),
        (json.dumps(document(deal="x")).encode(), "key 'deal' should be a whole number"),
    ],
)
def test_corrupt_autosave_is_moved_aside(home: Path, content: bytes, phrase: str) -> None:
    path = autosave_path()
    path.write_bytes(content)
    game, warnings = load_autosave()
    assert game is None
    assert len(warnings) == 1 and phrase in warnings[0] and "moved aside" in warnings[0]
    assert str(path) in warnings[0]
    assert not path.exists()
    moved = list(path.parent.glob("autosave.json.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == content
    assert load_autosave() == (None, [])


def test_autosave_that_cannot_be_moved_is_reported(home: Path) -> None:
    path = autosave_path()
    path.write_bytes(b"junk")
    with mock.patch(
        "solitaire_core.persistence.saves.quarantine", side_effect=PermissionError(13, "denied")
    ):
        game, warnings = load_autosave()
    assert game is None and "could not be moved aside" in warnings[0]
    assert path.read_bytes() == b"junk"


def test_every_prefix_of_an_autosave(home: Path) -> None:
    full = encode_save(GAME)
    path = autosave_path()
    for length in range(0, len(full), 7):
        prefix = full[:length]
        path.write_bytes(prefix)
        game, warnings = load_autosave()
        assert game is None and len(warnings) == 1
        moved = list(path.parent.glob("autosave.json.corrupt-*"))
        assert len(moved) == 1 and moved[0].read_bytes() == prefix
        moved[0].unlink()


@hsettings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_garbage_autosave(garbage: bytes) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.dict(os.environ, {"SOLITAIRE_HOME": folder}),
    ):
        path = autosave_path()
        path.write_bytes(garbage)
        game, warnings = load_autosave()
        assert game is None and warnings
        moved = list(path.parent.glob("autosave.json.corrupt-*"))
        assert not path.exists()
        assert len(moved) == 1 and moved[0].read_bytes() == garbage
