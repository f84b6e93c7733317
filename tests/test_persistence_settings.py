"""Tests of the settings file: round trips, defaults, and every kind of bad file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from unittest import mock

import attrs
import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from solitaire_core.persistence import (
    FrozenOptions,
    PersistenceError,
    Settings,
    load_settings,
    save_settings,
    settings_path,
)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("SOLITAIRE_HOME", str(home))
    return home


SAMPLE = Settings(
    last_variant="sea-towers",
    last_options={"redeals": "2", "towers": "4"},
    animation=False,
    four_colour=True,
    window_width=1280,
    window_height=900,
    winnable_only=True,
    show_winnability=True,
    difficulty="cheat",
    recent_variants=("sea-towers", "freecell"),
    toolbar=False,
    card_theme="/usr/share/aisleriot/cards/anglo.svgz",
    celebrate=False,
    progress_span="month",
)

option_names = st.text(min_size=1, max_size=12).filter(lambda s: "=" not in s and "," not in s)
option_values = st.text(max_size=12).filter(lambda s: "," not in s)
window = st.integers(min_value=200, max_value=16384)
settings_strategy = st.builds(
    Settings,
    last_variant=st.none() | st.text(min_size=1, max_size=20),
    last_options=st.dictionaries(option_names, option_values, max_size=4),
    animation=st.booleans(),
    four_colour=st.booleans(),
    window_width=window,
    window_height=window,
    winnable_only=st.booleans(),
    show_winnability=st.booleans(),
    difficulty=st.sampled_from(["normal", "cheat"]),
    recent_variants=st.lists(st.text(min_size=1, max_size=12), max_size=8, unique=True),
    toolbar=st.booleans(),
    card_theme=st.text(min_size=1, max_size=40),
    celebrate=st.booleans(),
    progress_span=st.sampled_from(["week", "month", "year", "all"]),
)


def corrupt_files(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".corrupt-*"))


def assert_moved_aside(path: Path, original: bytes) -> None:
    """The bad file is gone from its place and exists byte-for-byte under a new name."""
    assert not path.exists()
    moved = corrupt_files(path)
    assert len(moved) == 1
    assert moved[0].read_bytes() == original


# --- basics --------------------------------------------------------------------------------


def test_defaults() -> None:
    settings = Settings()
    assert settings.last_variant is None
    assert settings.last_options == {}
    assert settings.animation is True
    assert settings.four_colour is False
    assert (settings.window_width, settings.window_height) == (1100, 760)
    assert settings.winnable_only is False
    assert settings.show_winnability is False
    assert settings.difficulty == "normal"
    assert settings.format_version == 1


def test_missing_file_gives_defaults_without_warning(home: Path) -> None:
    assert load_settings() == (Settings(), [])
    assert not settings_path().exists()


def test_round_trip_default_path(home: Path) -> None:
    save_settings(SAMPLE)
    assert (home / "config" / "settings.toml").is_file()
    assert load_settings() == (SAMPLE, [])


@hsettings(max_examples=80, deadline=None)
@given(settings_strategy)
def test_round_trip_any_settings(settings: Settings) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "settings.toml"
        save_settings(settings, path)
        assert load_settings(path) == (settings, [])
        save_settings(settings, path)  # overwriting works too
        assert sorted(os.listdir(folder)) == ["settings.toml"]


def test_options_are_a_frozen_mapping_equal_to_a_dict() -> None:
    settings = Settings(last_options={"b": "2", "a": "1"})
    assert isinstance(settings.last_options, FrozenOptions)
    assert settings.last_options == {"a": "1", "b": "2"}
    assert settings.last_options.to_dict() == {"a": "1", "b": "2"}
    assert list(settings.last_options) == ["a", "b"]
    assert hash(settings) == hash(Settings(last_options=[("a", "1"), ("b", "2")]))
    with pytest.raises(TypeError):
        settings.last_options["c"] = "3"  # type: ignore[index]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        settings.animation = False  # type: ignore[misc]


@pytest.mark.parametrize(
    "changes",
    [
        {"animation": 1},
        {"window_width": 1100.0},
        {"window_width": True},
        {"window_height": 10},
        {"difficulty": "easy"},
        {"last_variant": ""},
        {"last_variant": 3},
        {"last_options": {"a": 1}},
        {"last_options": {"a=b": "1"}},
        {"last_options": "a=1"},
        {"format_version": 2},
        {"recent_variants": ["a", "a"]},
        {"recent_variants": [""]},
        {"recent_variants": [f"v{i}" for i in range(9)]},
        {"recent_variants": "seahaven"},
        {"progress_span": "day"},
        {"progress_span": 30},
        {"progress_span": None},
    ],
)
def test_constructor_rejects_bad_values(changes: dict[str, object]) -> None:
    with pytest.raises((TypeError, ValueError)):
        Settings(**changes)  # type: ignore[arg-type]


def test_file_is_plain_toml(home: Path) -> None:
    save_settings(SAMPLE)
    text = settings_path().read_text("utf-8")
    assert "format_version = 1" in text
    assert 'last_variant = "sea-towers"' in text
    assert "[last_options]" in text
    save_settings(Settings())
    assert "last_variant" not in settings_path().read_text("utf-8")


def test_a_file_from_before_show_winnability_reads_without_warning(home: Path) -> None:
    # A settings file as written before the key existed: everything else kept, the
    # field off, no warning, and the file left alone until the next save adds the key.
    path = settings_path()
    content = b'format_version = 1\nlast_variant = "seahaven"\nwinnable_only = true\n'
    path.write_bytes(content)
    settings, warnings = load_settings()
    assert warnings == []
    assert settings == Settings(last_variant="seahaven", winnable_only=True)
    assert settings.show_winnability is False
    assert path.read_bytes() == content
    save_settings(attrs.evolve(settings, show_winnability=True))
    assert "show_winnability = true" in path.read_text("utf-8")
    assert load_settings()[0].show_winnability is True


def test_hand_written_partial_file_with_bom(home: Path) -> None:
    path = settings_path()
    path.write_bytes(b'\xef\xbb\xbf# my settings\nfour_colour = true\nlast_variant = "x"\n')
    settings, warnings = load_settings()
    assert warnings == []
    assert settings == Settings(four_colour=True, last_variant="x")
    assert path.exists()


def test_save_failure_is_a_persistence_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    with pytest.raises(PersistenceError) as caught:
        save_settings(SAMPLE, blocker / "settings.toml")
    assert "could not be saved" in str(caught.value)
    with pytest.raises(TypeError):
        save_settings({"animation": True})  # type: ignore[arg-type]


# --- bad files -----------------------------------------------------------------------------


def test_unknown_keys_are_ignored_with_a_warning(home: Path) -> None:
    path = settings_path()
    content = b"animation = false\ncolour_blind = true\n[extra]\nx = 1\n"
    path.write_bytes(content)
    settings, warnings = load_settings()
    assert settings == Settings(animation=False)
    assert len(warnings) == 2
    assert "'colour_blind'" in warnings[0] and str(path) in warnings[0]
    assert "'extra'" in warnings[1]
    assert path.read_bytes() == content


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("animation = 1", "animation"),
        ('four_colour = "yes"', "four_colour"),
        ('window_width = "wide"', "window_width"),
        ("window_width = 1100.5", "window_width"),
        ("window_height = 5", "window_height"),
        ("window_height = 999999999999", "window_height"),
        ("winnable_only = []", "winnable_only"),
        ('show_winnability = "on"', "show_winnability"),
        ('difficulty = "hard"', "difficulty"),
        ('toolbar = "no"', "toolbar"),
        ('card_theme = ""', "card_theme"),
        ("card_theme = 3", "card_theme"),
        ("celebrate = 0", "celebrate"),
        ("last_variant = 7", "last_variant"),
        ('last_variant = ""', "last_variant"),
        ("last_options = 3", "last_options"),
        ("last_options = {draw = 3}", "last_options"),
        ('last_options = {"a,b" = "1"}', "last_options"),
        ("progress_span = 30", "progress_span"),
        ('progress_span = "fortnight"', "progress_span"),
        ('progress_span = "Last 30 days"', "progress_span"),
        ('progress_span = ["month"]', "progress_span"),
    ],
)
def test_wrong_typed_key_falls_back_and_is_named(home: Path, line: str, key: str) -> None:
    path = settings_path()
    content = f'last_variant = "seahaven"\nfour_colour = true\n{line}\n'.encode()
    if key in ("last_variant", "four_colour"):
        content = f"animation = false\n{line}\n".encode()
    path.write_bytes(content)
    settings, warnings = load_settings()
    assert getattr(settings, key) == getattr(Settings(), key)
    if key in ("last_variant", "four_colour"):
        assert settings.animation is False  # the good key was kept
    else:
        assert settings.last_variant == "seahaven" and settings.four_colour is True
    assert any(f"'{key}'" in w and str(path) in w for w in warnings)
    assert any("moved aside" in w for w in warnings)
    assert_moved_aside(path, content)


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        (b"format_version = 7\nanimation = false\n", "newer version (format 7)"),
        (b"format_version = 0\n", "unknown format 0"),
        (b'format_version = "1"\n', "format_version"),
        (b"animation = \n", "not valid TOML"),
        (b"animation = false\nanimation = true\n", "not valid TOML"),
        (b"\xff\xfe garbage", "not valid UTF-8"),
        (b"[[[[", "not valid TOML"),
        (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "not valid TOML"),
        (b"x = " + b"9" * 10000 + b"\n", "not valid TOML"),
    ],
)
def test_unreadable_file_is_moved_aside_and_defaults_used(
    home: Path, content: bytes, phrase: str
) -> None:
    path = settings_path()
    path.write_bytes(content)
    settings, warnings = load_settings()
    assert settings == Settings()
    assert len(warnings) == 1
    assert phrase in warnings[0] and str(path) in warnings[0]
    assert "moved aside" in warnings[0]
    assert_moved_aside(path, content)
    # The next start is clean.
    assert load_settings() == (Settings(), [])


def test_huge_file_is_refused(home: Path) -> None:
    path = settings_path()
    content = b"# " + b"x" * (2 * 1024 * 1024) + b"\n"
    path.write_bytes(content)
    settings, warnings = load_settings()
    assert settings == Settings() and "too large" in warnings[0]
    assert_moved_aside(path, content)


def test_unopenable_file_is_left_in_place(home: Path) -> None:
    path = settings_path()
    path.mkdir()
    settings, warnings = load_settings()
    assert settings == Settings()
    assert len(warnings) == 1 and "could not be opened" in warnings[0]
    assert path.is_dir()


def test_quarantine_failure_is_reported(home: Path) -> None:
    path = settings_path()
    path.write_bytes(b"animation = \n")
    with mock.patch(
        "solitaire_core.persistence.settings.quarantine", side_effect=PermissionError(13, "no")
    ):
        settings, warnings = load_settings()
    assert settings == Settings()
    assert "could not be moved aside" in warnings[0]
    assert path.read_bytes() == b"animation = \n"


def _check_prefix(path: Path, full: Settings, prefix: bytes) -> None:
    path.write_bytes(prefix)
    settings, warnings = load_settings(path)
    defaults = Settings()
    if warnings:
        assert_moved_aside(path, prefix)
        for moved in corrupt_files(path):
            moved.unlink()
    else:
        # A cut at a line boundary is still valid TOML: keys present are exact, the rest
        # default.  The file must be untouched.
        assert path.read_bytes() == prefix
        for field in attrs.fields(Settings):
            value = getattr(settings, field.name)
            if field.name == "last_options":
                assert value.items() <= full.last_options.items()
            else:
                assert value in (getattr(full, field.name), getattr(defaults, field.name))


def test_every_prefix_of_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    save_settings(SAMPLE, path)
    full = path.read_bytes()
    for length in range(len(full) + 1):
        _check_prefix(path, SAMPLE, full[:length])


@hsettings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_garbage_never_raises_and_is_kept(garbage: bytes) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.dict(os.environ, {"SOLITAIRE_HOME": folder}),
    ):
        path = settings_path()
        path.write_bytes(garbage)
        settings, warnings = load_settings()
        assert isinstance(settings, Settings)
        moved = corrupt_files(path)
        if moved:
            assert warnings
            assert_moved_aside(path, garbage)
        else:
            assert path.read_bytes() == garbage


toml_scalars = (
    st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=10)
    | st.lists(st.integers(), max_size=3)
)


@hsettings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "format_version",
                "last_variant",
                "animation",
                "four_colour",
                "window_width",
                "window_height",
                "winnable_only",
                "show_winnability",
                "difficulty",
                "toolbar",
                "card_theme",
                "celebrate",
                "progress_span",
                "other",
            ]
        ),
        toml_scalars,
    ),
    st.one_of(st.none(), st.dictionaries(st.text(max_size=5), toml_scalars, max_size=3)),
)
def test_any_well_formed_toml_gives_valid_settings(
    document: dict[str, object], options: dict[str, object] | None
) -> None:
    import tomli_w

    if options is not None:
        document = {**document, "last_options": options}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "settings.toml"
        content = tomli_w.dumps(document).encode()
        path.write_bytes(content)
        settings, warnings = load_settings(path)
        assert isinstance(settings, Settings)
        if path.exists():
            assert path.read_bytes() == content
        else:
            assert warnings
            assert_moved_aside(path, content)


def test_recent_variants_keep_the_newest_first_each_once(home: Path) -> None:
    from solitaire_core.persistence.settings import RECENT_LIMIT, remember_recent

    recent: tuple[str, ...] = ()
    for vid in ["seahaven", "freecell", "seahaven", *[f"game-{i}" for i in range(10)]]:
        recent = remember_recent(recent, vid)
    assert recent[:2] == ("game-9", "game-8") and len(recent) == RECENT_LIMIT
    assert remember_recent(("a", "b", "c"), "c") == ("c", "a", "b")
    save_settings(Settings(recent_variants=recent))
    assert load_settings() == (Settings(recent_variants=recent), [])
    settings_path().write_text('format_version = 1\nrecent_variants = ["x", 3]\n', "utf-8")
    settings, warnings = load_settings()
    assert settings.recent_variants == ()
    assert "'recent_variants' should be a list of at most 8 different variant names" in warnings[0]


def test_the_progression_span_is_kept_and_a_damaged_one_gives_all_time(home: Path) -> None:
    """The Progression tab's span: "all" in a file from before it was kept, each span
    read back as saved, and a damaged value (a number, an unknown name) named in a
    warning, replaced by "all", the file moved aside and every other setting kept."""
    path = settings_path()
    path.write_bytes(b'format_version = 1\nlast_variant = "seahaven"\n')
    assert load_settings() == (Settings(last_variant="seahaven"), [])
    assert Settings().progress_span == "all"
    for span in ("week", "month", "year", "all"):
        save_settings(attrs.evolve(SAMPLE, progress_span=span))
        assert f'progress_span = "{span}"' in path.read_text("utf-8")
        settings, warnings = load_settings()
        assert (
            warnings == []
            and settings.progress_span == span
            and settings == attrs.evolve(SAMPLE, progress_span=span)
        )
    expected = 'should be one of "week", "month", "year", "all"'
    for bad, shown in (("30", "30"), ('"fortnight"', "'fortnight'")):
        text = path.read_text("utf-8").replace('progress_span = "all"', f"progress_span = {bad}")
        assert f"progress_span = {bad}" in text
        path.write_text(text, "utf-8")
        settings, warnings = load_settings()
        assert settings == attrs.evolve(SAMPLE, progress_span="all")
        assert f"the key 'progress_span' {expected}, not {shown};" in warnings[0]
        assert "the default ('all') is used instead" in warnings[0]
        assert "moved aside" in warnings[-1] and "Your other settings were kept." in warnings[-1]
        assert not path.exists()
        save_settings(settings)
