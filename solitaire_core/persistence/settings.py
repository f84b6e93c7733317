"""Player settings, kept in a TOML file in the config folder.

The file (``settings.toml``) is plain TOML a player may edit by hand::

    format_version = 1
    last_variant = "seahaven"
    animation = true
    four_colour = false
    window_width = 1100
    window_height = 760
    winnable_only = false
    show_winnability = false
    difficulty = "normal"
    toolbar = true
    card_theme = "built-in"
    celebrate = true
    confirm_leave = true
    hints_peek = false
    language = "system"
    progress_span = "all"

    [last_options]
    redeals = "2"

    [variant_options.sea-towers]
    empty_columns = "any"

Reading is forgiving: a missing file or missing keys give defaults silently; an unknown
key is ignored with a warning; a key with a wrong value falls back to its default with a
warning naming it, and the file is moved aside (so the hand edit is not lost when the
settings are next saved); a file that is not TOML at all or has another format version is
moved aside and all defaults are used.  Nothing here ever executes file content.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
import tomli_w

from ..i18n import gettext as _
from ..readfile import TooLargeError, read_file_bytes
from .atomic import atomic_write_bytes, quarantine
from .errors import PersistenceError
from .options import FrozenOptions, to_options
from .paths import settings_path
from .progress import SPANS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "DIFFICULTIES",
    "LANGUAGE_CHOICES",
    "PROGRESS_SPANS",
    "RECENT_LIMIT",
    "SETTINGS_FORMAT_VERSION",
    "WINDOW_SIZE_RANGE",
    "Settings",
    "load_settings",
    "remember_recent",
    "save_settings",
]

SETTINGS_FORMAT_VERSION = 1
"""The settings format this program writes and reads."""

DIFFICULTIES = ("normal", "cheat")
"""Allowed values of :attr:`Settings.difficulty`."""

WINDOW_SIZE_RANGE = (200, 16384)
"""Inclusive bounds, in pixels, for the window width and height."""

_MAX_SETTINGS_BYTES = 1024 * 1024


def _bool_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{attribute.name} must be True or False, not {value!r}")


LANGUAGE_CHOICES = ("system", "en", "de", "es", "fr")
"""The values of :attr:`Settings.language`: ``"system"`` (follow the environment's
locale) or a language of :data:`solitaire_core.i18n.LANGUAGES`."""


def _language_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str):
        raise TypeError(f"language must be a language code in quotes, not {value!r}")
    if value not in LANGUAGE_CHOICES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGE_CHOICES)}, not {value!r}")


PROGRESS_SPANS = SPANS
"""The values of :attr:`Settings.progress_span`: the spans of the statistics window's
Progression tab (:data:`solitaire_core.persistence.progress.SPANS`)."""


def _span_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{attribute.name} must be a span name in quotes, not {value!r}")
    if value not in PROGRESS_SPANS:
        raise ValueError(
            f"{attribute.name} must be one of {', '.join(PROGRESS_SPANS)}, not {value!r}"
        )


def _window_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    low, high = WINDOW_SIZE_RANGE
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{attribute.name} must be a whole number of pixels, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{attribute.name} must be from {low} to {high} pixels, not {value}")


def _variant_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and (not isinstance(value, str) or not value):
        raise TypeError(f"{attribute.name} must be a non-empty string or None, not {value!r}")


RECENT_LIMIT = 8
"""How many recently played variants the settings remember."""


def _recent_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    ok, _value, expected = _check_recent(value)
    if not ok:
        raise TypeError(f"{attribute.name} must be {expected}, not {value!r}")


def _difficulty_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value not in DIFFICULTIES:
        raise ValueError(f"{attribute.name} must be one of {DIFFICULTIES}, not {value!r}")


def _theme_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or not value or len(value) > 4096:
        raise TypeError(f"{attribute.name} must be a non-empty string, not {value!r}")


def _version_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value != SETTINGS_FORMAT_VERSION or isinstance(value, bool):
        raise ValueError(f"format_version must be {SETTINGS_FORMAT_VERSION}, not {value!r}")


def _to_variant_options(value: object) -> tuple[tuple[str, FrozenOptions], ...]:
    """``{variant id: options}`` (or such pairs) as sorted ``(variant id, FrozenOptions)``
    pairs (hashable, like the rest of the settings).

    :raises TypeError, ValueError: when a key is not a non-empty string or a value is not
        a valid option set.
    """
    if isinstance(value, (tuple, list)):
        value = dict(value)
    if not isinstance(value, Mapping):
        raise TypeError(f"variant_options must be a table, not {value!r}")
    result: dict[str, FrozenOptions] = {}
    for variant, options in value.items():
        if not isinstance(variant, str) or not variant:
            raise TypeError(f"variant ids must be non-empty strings, not {variant!r}")
        if not isinstance(options, Mapping):
            raise TypeError(f"the options of {variant!r} must be a table, not {options!r}")
        result[variant] = to_options(options)
    return tuple(sorted(result.items()))


@attrs.frozen
class Settings:
    """The player's settings.  ``Settings()`` is the defaults.

    Attributes:
        last_variant: id of the variant played last (e.g. ``"seahaven"``), or ``None``.
        last_options: that variant's options; give a plain ``dict`` (or pairs), read back
            a :class:`~solitaire_core.persistence.options.FrozenOptions`, which compares
            equal to the dict (``.to_dict()`` gives a plain dict).
        variant_options: the options chosen last for each variant played, so every
            variant opens with its own choice; give ``{variant id: {name: value}}``, read
            back sorted ``(variant id, FrozenOptions)`` pairs (see :meth:`options_for`).
        animation: animate card moves.
        four_colour: use the four-colour deck.
        window_width: window width in pixels, within :data:`WINDOW_SIZE_RANGE`.
        window_height: window height in pixels, within :data:`WINDOW_SIZE_RANGE`.
        winnable_only: only deal games known to be winnable.
        show_winnability: show the "still winnable?" field in the status bar (Options >
            Show winnability).  Files written before this key existed read as ``False``.
        difficulty: ``"normal"`` or ``"cheat"``.
        recent_variants: ids of the variants played most recently, newest first, at most
            :data:`RECENT_LIMIT` and each once (the launcher's "Recent" group).
        toolbar: show the toolbar above the table (Options > Show toolbar).
        card_theme: the card faces: ``"built-in"`` (drawn by the program), another
            built-in deck's name (``"high-contrast"``, ``"large-index"``) or the path of
            an SVG card deck installed by another program (Options > Card theme).  A
            theme that is no longer installed falls back to the built-in faces.
        celebrate: a short celebration on the table when a game is won.
        confirm_leave: ask before a game with a move that is not won is left for another
            (Restart, a new deal, another game), which counts it as lost; the question's
            "Don't ask again" turns it off.
        hints_peek: in a game with hidden cards, let the hint and the demo use the
            face-down cards and the stock's order (the thoughtful solver; Options > Hints
            see hidden cards). Off by default: they then choose from what the player has
            seen (:mod:`solitaire_core.solver.honest`).
        language: the language of menus, buttons and messages: ``"system"`` (the
            environment's locale, as gettext reads it) or a code of
            :data:`LANGUAGE_CHOICES` (Options > Language; used from the next start).
        progress_span: the span the statistics window's Progression tab shows, one of
            :data:`PROGRESS_SPANS` (``"week"``, ``"month"``, ``"year"``, ``"all"``): the
            one the player picked last, so the tab opens on it.
        format_version: always :data:`SETTINGS_FORMAT_VERSION`.

    Raises:
        TypeError, ValueError: on construction, when a value has the wrong type or range.
    """

    last_variant: str | None = attrs.field(default=None, validator=_variant_validator)
    last_options: FrozenOptions = attrs.field(factory=FrozenOptions, converter=to_options)
    variant_options: tuple[tuple[str, FrozenOptions], ...] = attrs.field(
        factory=tuple, converter=_to_variant_options
    )
    animation: bool = attrs.field(default=True, validator=_bool_validator)
    four_colour: bool = attrs.field(default=False, validator=_bool_validator)
    window_width: int = attrs.field(default=1100, validator=_window_validator)
    window_height: int = attrs.field(default=760, validator=_window_validator)
    winnable_only: bool = attrs.field(default=False, validator=_bool_validator)
    show_winnability: bool = attrs.field(default=False, validator=_bool_validator)
    difficulty: str = attrs.field(default="normal", validator=_difficulty_validator)
    recent_variants: tuple[str, ...] = attrs.field(
        default=(), converter=tuple, validator=_recent_validator
    )
    toolbar: bool = attrs.field(default=True, validator=_bool_validator)
    card_theme: str = attrs.field(default="built-in", validator=_theme_validator)
    celebrate: bool = attrs.field(default=True, validator=_bool_validator)
    confirm_leave: bool = attrs.field(default=True, validator=_bool_validator)
    hints_peek: bool = attrs.field(default=False, validator=_bool_validator)
    language: str = attrs.field(default="system", validator=_language_validator)
    progress_span: str = attrs.field(default="all", validator=_span_validator)
    format_version: int = attrs.field(default=SETTINGS_FORMAT_VERSION, validator=_version_validator)

    def options_for(self, variant: str) -> FrozenOptions | None:
        """The options chosen last for ``variant``, or ``None`` if it has none saved."""
        return dict(self.variant_options).get(variant)

    def to_dict(self) -> dict[str, Any]:
        """Return the settings as the plain dict written to TOML (``last_variant`` omitted
        when ``None``, since TOML has no null)."""
        data: dict[str, Any] = {"format_version": self.format_version}
        if self.last_variant is not None:
            data["last_variant"] = self.last_variant
        data.update(
            animation=self.animation,
            four_colour=self.four_colour,
            window_width=self.window_width,
            window_height=self.window_height,
            winnable_only=self.winnable_only,
            show_winnability=self.show_winnability,
            difficulty=self.difficulty,
            recent_variants=list(self.recent_variants),
            toolbar=self.toolbar,
            card_theme=self.card_theme,
            celebrate=self.celebrate,
            confirm_leave=self.confirm_leave,
            hints_peek=self.hints_peek,
            language=self.language,
            progress_span=self.progress_span,
            last_options=self.last_options.to_dict(),
            variant_options={k: v.to_dict() for k, v in self.variant_options},
        )
        return data


def remember_recent(recent: tuple[str, ...], variant: str) -> tuple[str, ...]:
    """``recent`` with ``variant`` moved (or added) to the front, at most
    :data:`RECENT_LIMIT` ids long: what :attr:`Settings.recent_variants` becomes when
    ``variant`` is played."""
    return (variant, *(v for v in recent if v != variant))[:RECENT_LIMIT]


# --- reading -------------------------------------------------------------------------------

_Check = Callable[[object], "tuple[bool, object, str]"]


def _check_bool(value: object) -> tuple[bool, object, str]:
    return isinstance(value, bool), value, _("true or false")


def _check_window(value: object) -> tuple[bool, object, str]:
    low, high = WINDOW_SIZE_RANGE
    ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    return ok, value, _("a whole number of pixels from {low} to {high}").format(low=low, high=high)


def _check_variant(value: object) -> tuple[bool, object, str]:
    return isinstance(value, str) and bool(value), value, _("a variant name in quotes")


def _check_difficulty(value: object) -> tuple[bool, object, str]:
    *others, last = (f'"{name}"' for name in DIFFICULTIES)
    names = _("{first} or {second}").format(first=", ".join(others), second=last)
    return value in DIFFICULTIES and isinstance(value, str), value, names


def _check_recent(value: object) -> tuple[bool, object, str]:
    expected = _("a list of at most {count} different variant names in quotes").format(
        count=RECENT_LIMIT
    )
    ok = (
        isinstance(value, (list, tuple))
        and len(value) <= RECENT_LIMIT
        and all(isinstance(v, str) and v for v in value)
        and len(set(value)) == len(value)
    )
    return ok, tuple(value) if ok else value, expected  # type: ignore[arg-type]


def _check_theme(value: object) -> tuple[bool, object, str]:
    ok = isinstance(value, str) and 0 < len(value) <= 4096
    return ok, value, _("a theme name or an SVG file's path in quotes")


def _check_language(value: object) -> tuple[bool, object, str]:
    names = ", ".join(f'"{name}"' for name in LANGUAGE_CHOICES)
    expected = _("one of {values}").format(values=names)
    return isinstance(value, str) and value in LANGUAGE_CHOICES, value, expected


def _check_span(value: object) -> tuple[bool, object, str]:
    names = ", ".join(f'"{name}"' for name in PROGRESS_SPANS)
    expected = _("one of {values}").format(values=names)
    return isinstance(value, str) and value in PROGRESS_SPANS, value, expected


def _check_options(value: object) -> tuple[bool, object, str]:
    expected = _("a table of option names to text values in quotes")
    if not isinstance(value, Mapping):
        return False, value, expected
    try:
        return True, FrozenOptions(value), expected
    except (TypeError, ValueError):
        return False, value, expected


def _check_variant_options(value: object) -> tuple[bool, object, str]:
    expected = _("a table of variant names to tables of options")
    if not isinstance(value, Mapping):
        return False, value, expected
    try:
        return True, _to_variant_options(value), expected
    except (TypeError, ValueError):
        return False, value, expected


_CHECKS: dict[str, _Check] = {
    "last_variant": _check_variant,
    "last_options": _check_options,
    "variant_options": _check_variant_options,
    "animation": _check_bool,
    "four_colour": _check_bool,
    "window_width": _check_window,
    "window_height": _check_window,
    "winnable_only": _check_bool,
    "show_winnability": _check_bool,
    "difficulty": _check_difficulty,
    "recent_variants": _check_recent,
    "toolbar": _check_bool,
    "card_theme": _check_theme,
    "celebrate": _check_bool,
    "confirm_leave": _check_bool,
    "hints_peek": _check_bool,
    "language": _check_language,
    "progress_span": _check_span,
}


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _move_aside_note(path: Path) -> str:
    """Quarantine ``path`` and describe the outcome in a sentence (in the language spoken
    now)."""
    try:
        moved = quarantine(path)
    except OSError as error:
        reason = error.strerror or str(error)
        return _(
            "It could not be moved aside ({reason}); it will be replaced at the next save."
        ).format(reason=reason)
    return _("It was moved aside to {name}.").format(name=moved.name)


def _whole_file_problem(path: Path, problem: str) -> list[str]:
    """The warning about a settings file read as a whole not at all: ``problem`` (a
    sentence naming the file), what became of it, and that defaults are used."""
    note = _move_aside_note(path)
    defaults = _("Default settings are used.")
    return [f"{problem} {note} {defaults}"]


def load_settings(path: str | os.PathLike[str] | None = None) -> tuple[Settings, list[str]]:
    """Read the settings, never failing.

    Args:
        path: the TOML file; default :func:`~solitaire_core.persistence.paths.settings_path`.

    Returns:
        ``(settings, warnings)``.  ``warnings`` is a list of plain-language sentences for
        the player, empty when the file was fine or missing.  A file that is not valid
        TOML, not UTF-8, too large or of another format version is moved aside
        (``settings.toml.corrupt-YYYYmmdd-HHMMSS``) and all defaults are used.  A key with
        a wrong type or value gets its default, is named in a warning, and the file is
        moved aside; the other keys are kept.  Unknown keys are ignored with a warning
        (the file stays).  A file that cannot be opened (permission denied, ...) is left
        in place and defaults are used.
    """
    target = Path(path) if path is not None else settings_path()
    try:
        raw = read_file_bytes(target, _MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return Settings(), []
    except TooLargeError:
        problem = _("The settings file {path} is far too large to be a settings file.")
        return Settings(), _whole_file_problem(target, problem.format(path=target))
    except OSError as error:  # a folder or a FIFO too (refused without waiting)
        reason = error.strerror or str(error)
        return Settings(), [
            _(
                "The settings file {path} could not be opened ({reason}). "
                "Default settings are used."
            ).format(path=target, reason=reason)
        ]
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        problem = _("The settings file {path} is not text (it is not valid UTF-8).")
        return Settings(), _whole_file_problem(target, problem.format(path=target))
    except Exception as error:  # TOMLDecodeError, RecursionError, oversized numbers, ...
        detail = str(error) or type(error).__name__
        problem = _("The settings file {path} is not valid TOML ({detail}).")
        return Settings(), _whole_file_problem(target, problem.format(path=target, detail=detail))

    version = data.get("format_version", SETTINGS_FORMAT_VERSION)
    if not isinstance(version, int) or isinstance(version, bool):
        problem = _(
            "The settings file {path} has a bad format_version ({value}); it should be a "
            "whole number."
        ).format(path=target, value=_shown(version))
        return Settings(), _whole_file_problem(target, problem)
    if version > SETTINGS_FORMAT_VERSION:
        problem = _(
            "The settings file {path} was written by a newer version (format {version}); "
            "this program reads format {ours}."
        ).format(path=target, version=version, ours=SETTINGS_FORMAT_VERSION)
        return Settings(), _whole_file_problem(target, problem)
    if version < SETTINGS_FORMAT_VERSION:
        problem = _("The settings file {path} has an unknown format {version}.")
        return Settings(), _whole_file_problem(target, problem.format(path=target, version=version))

    values: dict[str, object] = {}
    warnings: list[str] = []
    defaults = Settings()
    for key, check in _CHECKS.items():
        if key not in data:
            continue
        ok, value, expected = check(data[key])
        if ok:
            values[key] = value
        else:
            default = getattr(defaults, key)
            shown_default = _("none") if default is None else _shown(default)
            if isinstance(default, FrozenOptions):
                shown_default = _("no options")
            warnings.append(
                _(
                    "In the settings file {path}, the key '{key}' should be {expected}, "
                    "not {value}; the default ({default}) is used instead."
                ).format(
                    path=target,
                    key=key,
                    expected=expected,
                    value=_shown(data[key]),
                    default=shown_default,
                )
            )
    bad_keys = len(warnings)
    for key in data:
        if key not in _CHECKS and key != "format_version":
            warnings.append(
                _("In the settings file {path}, the unknown key '{key}' was ignored.").format(
                    path=target, key=key
                )
            )
    if bad_keys:
        warnings.append(
            _("The settings file {path} had wrong values.").format(path=target)
            + f" {_move_aside_note(target)} "
            + _("Your other settings were kept.")
        )
    return Settings(**values), warnings  # type: ignore[arg-type]


def save_settings(settings: Settings, path: str | os.PathLike[str] | None = None) -> None:
    """Write ``settings`` as TOML, atomically (the old file stays whole until replaced).

    Args:
        settings: the settings to store.
        path: the TOML file; default :func:`~solitaire_core.persistence.paths.settings_path`.

    Raises:
        PersistenceError: the file could not be written (disk full, permission denied,
            ...); the previous file, if any, is unchanged.
        TypeError: ``settings`` is not a :class:`Settings`.
    """
    if not isinstance(settings, Settings):
        raise TypeError(f"expected Settings, got {type(settings).__name__}")
    data = tomli_w.dumps(settings.to_dict()).encode("utf-8")
    target: Path | None = Path(path) if path is not None else None
    try:
        if target is None:
            target = settings_path()
        atomic_write_bytes(target, data)
    except OSError as error:
        where = target if target is not None else _("the settings folder")
        reason = error.strerror or str(error)
        raise PersistenceError(
            _("The settings could not be saved to {path}: {reason}.").format(
                path=where, reason=reason
            ),
            target,
        ) from error
