"""Saved games: the autosave of the game in progress and named saves.

A saved game records what is needed to replay it exactly -- variant, options, deal number,
move history (and the redo stack) -- plus the clock and the help used.  The file is UTF-8
JSON (read with :mod:`json`, never pickle or anything else that can run code)::

    {
      "format": "towers-solitaire-save",
      "format_version": 1,
      "variant": "seahaven",
      "options": {"redeals": "2"},
      "deal": 1234,
      "moves": ["t3>f", "c1>t7", "t2>t5x3"],
      "undone": [],
      "elapsed_seconds": 93.5,
      "cheat": false,
      "cheats": 0,
      "used_undo": true,
      "used_hint": false,
      "hints": 0,
      "demo_played": false,
      "saved_at": "2024-05-01T12:34:56Z"
    }

Moves are checked only for the notation's shape (``^[tcfsw]\\d{0,3}>[tcfsw]\\d{0,3}(x\\d{1,3})?$``,
ASCII digits) and their number (``moves`` and ``undone`` together hold at most
:data:`MAX_SAVE_MOVES`); the rules core re-validates their legality on replay.  Unknown
extra keys are ignored, so later versions can add optional data without a format bump:
``hints`` and ``demo_played`` were added so (a save written before them reads as 0 hints,
not played by the demo).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NoReturn

import attrs

from ..i18n import N_
from ..i18n import gettext as _
from ..readfile import NotARegularFileError, TooLargeError, read_file_bytes
from .atomic import atomic_write_bytes, quarantine
from .errors import PersistenceError
from .options import FrozenOptions, to_options
from .paths import data_dir

__all__ = [
    "MAX_SAVE_BYTES",
    "MAX_SAVE_MOVES",
    "MOVE_PATTERN",
    "SAVE_FORMAT",
    "SAVE_FORMAT_VERSION",
    "SavedGame",
    "autosave_path",
    "clear_autosave",
    "decode_save",
    "encode_save",
    "load_autosave",
    "read_save",
    "utc_now_iso",
    "write_autosave",
    "write_save",
]

SAVE_FORMAT = "towers-solitaire-save"
"""Value of the top-level ``"format"`` key that marks our saved games."""

SAVE_FORMAT_VERSION = 1
"""The saved-game format this program writes and reads."""

MAX_SAVE_BYTES = 16 * 1024 * 1024
"""Larger files are refused unread (a real save is a few kilobytes)."""

MAX_SAVE_MOVES = 100_000
"""Most moves a saved game may hold, ``moves`` and ``undone`` together: hundreds of times
the longest real game (a won game of the largest built-in variants takes a few hundred
moves). A file holding more is refused when read, before any move is checked or replayed
(the autosave is then moved aside, like a damaged one); written files are not limited.
Replaying that many takes 2 to 3 s (FreeCell, Seahaven Towers, Double Klondike) and up to
13 s (Double FreeCell) on a quiet 2-core machine: the game window shows a progress line
meanwhile."""

MOVE_PATTERN = re.compile(r"[tcfsw][0-9]{0,3}>[tcfsw][0-9]{0,3}(?:x[0-9]{1,3})?")
"""Shape of one move in notation, e.g. ``t3>f``, ``c1>t7``, ``t2>t5x3`` (use fullmatch);
numbers have at most three digits, as in :meth:`solitaire_core.moves.Move.parse`."""

_MAX_DEAL = 10**20 - 1  # solitaire_core.deal.MAX_DEAL: PySolFC's 20-digit game numbers


def utc_now_iso() -> str:
    """Return the current UTC time as ISO 8601 to the second, e.g. ``2024-05-01T12:34:56Z``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_iso(text: str) -> datetime:
    """Parse ISO 8601 (accepting a trailing ``Z`` also on Python 3.10)."""
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    return datetime.fromisoformat(text)


# --- validation shared by the attrs class and the reader ---------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_seconds(value: object) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def _bad_move(moves: Iterable[object]) -> tuple[int, object] | None:
    for index, move in enumerate(moves, start=1):
        if not isinstance(move, str) or not MOVE_PATTERN.fullmatch(move):
            return index, move
    return None


def _to_moves(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)):
        raise TypeError("moves must be a sequence of move strings, not a single string")
    return tuple(value)


def _moves_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    assert isinstance(value, tuple)
    bad = _bad_move(value)
    if bad is not None:
        raise ValueError(f"{attribute.name}: item {bad[0]} ({bad[1]!r}) is not a move")


def _to_seconds(value: float) -> float:
    if not _is_seconds(value):
        raise ValueError(f"elapsed_seconds must be a finite number >= 0, not {value!r}")
    return float(value)


def _variant_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or not value:
        raise TypeError(f"variant must be a non-empty string, not {value!r}")


def _deal_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not _is_int(value):
        raise TypeError(f"deal must be an int, not {value!r}")
    assert isinstance(value, int)
    if not 0 <= value <= _MAX_DEAL:
        raise ValueError(f"deal must be from 0 to 10**20-1, not {value}")


def _count_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not _is_int(value) or value < 0:  # type: ignore[operator]
        raise ValueError(f"{attribute.name} must be a whole number >= 0, not {value!r}")


def _bool_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{attribute.name} must be True or False, not {value!r}")


def _time_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str):
        raise TypeError(f"saved_at must be an ISO 8601 string, not {value!r}")
    try:
        _parse_iso(value)
    except ValueError:
        raise ValueError(f"saved_at must be an ISO 8601 date and time, not {value!r}") from None


def _version_validator(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value != SAVE_FORMAT_VERSION or isinstance(value, bool):
        raise ValueError(f"format_version must be {SAVE_FORMAT_VERSION}, not {value!r}")


@attrs.frozen
class SavedGame:
    """One game in progress, enough to replay it exactly.

    Attributes:
        variant: variant id, e.g. ``"seahaven"`` (non-empty).
        options: the variant's options; give a plain ``dict`` (or pairs), read back a
            :class:`~solitaire_core.persistence.options.FrozenOptions` (equal to the dict).
        deal: the deal number, ``0 <= deal <= 10**20-1``.
        moves: the moves made, oldest first, in notation (``"t3>f"``, ``"t2>t5x3"``).
        undone: the redo stack (moves undone and not yet redone), so redo survives.
        elapsed_seconds: play time so far, seconds (finite, ``>= 0``).
        cheat: the game is played in Cheat difficulty.
        cheats: how many cheat moves were used (``>= 0``).
        used_undo: undo was used at least once.
        used_hint: a hint was asked for at least once (or the demo played).
        hints: how many hints were counted in this game (``>= 0``; 0 in a save written
            before hint counts were saved).
        demo_played: the demo played a move of this game (a win is then not the player's).
        saved_at: when saved, ISO 8601 (UTC, e.g. ``"2024-05-01T12:34:56Z"``); default now.
        format_version: always :data:`SAVE_FORMAT_VERSION`.

    Raises:
        TypeError, ValueError: on construction, when a value has the wrong type or range.
    """

    variant: str = attrs.field(validator=_variant_validator)
    options: FrozenOptions = attrs.field(converter=to_options)
    deal: int = attrs.field(validator=_deal_validator)
    moves: tuple[str, ...] = attrs.field(converter=_to_moves, validator=_moves_validator)
    undone: tuple[str, ...] = attrs.field(
        default=(), converter=_to_moves, validator=_moves_validator
    )
    elapsed_seconds: float = attrs.field(default=0.0, converter=_to_seconds)
    cheat: bool = attrs.field(default=False, validator=_bool_validator)
    cheats: int = attrs.field(default=0, validator=_count_validator)
    used_undo: bool = attrs.field(default=False, validator=_bool_validator)
    used_hint: bool = attrs.field(default=False, validator=_bool_validator)
    hints: int = attrs.field(default=0, validator=_count_validator)
    demo_played: bool = attrs.field(default=False, validator=_bool_validator)
    saved_at: str = attrs.field(factory=utc_now_iso, validator=_time_validator)
    format_version: int = attrs.field(default=SAVE_FORMAT_VERSION, validator=_version_validator)

    def to_json_dict(self) -> dict[str, Any]:
        """Return the plain dict written to the file (with the format marker first)."""
        return {
            "format": SAVE_FORMAT,
            "format_version": self.format_version,
            "variant": self.variant,
            "options": self.options.to_dict(),
            "deal": self.deal,
            "moves": list(self.moves),
            "undone": list(self.undone),
            "elapsed_seconds": self.elapsed_seconds,
            "cheat": self.cheat,
            "cheats": self.cheats,
            "used_undo": self.used_undo,
            "used_hint": self.used_hint,
            "hints": self.hints,
            "demo_played": self.demo_played,
            "saved_at": self.saved_at,
        }


# --- encoding ------------------------------------------------------------------------------


def encode_save(game: SavedGame) -> bytes:
    """Return the file content for ``game``: indented UTF-8 JSON ending in a newline.

    Raises:
        TypeError: ``game`` is not a :class:`SavedGame`.
    """
    if not isinstance(game, SavedGame):
        raise TypeError(f"expected SavedGame, got {type(game).__name__}")
    text = json.dumps(game.to_json_dict(), indent=2, ensure_ascii=False, allow_nan=False)
    return (text + "\n").encode("utf-8")


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not allowed")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice")
        result[key] = value
    return result


_FIELD_NEEDS = {
    "variant": N_("a variant name in quotes"),
    "options": N_("an object of option names to text values"),
    "deal": N_("a whole number"),
    "moves": N_("a list of moves"),
    "undone": N_("a list of moves"),
    "elapsed_seconds": N_("a number of seconds (0 or more)"),
    "cheat": N_("true or false"),
    "cheats": N_("a whole number (0 or more)"),
    "used_undo": N_("true or false"),
    "used_hint": N_("true or false"),
    "hints": N_("a whole number (0 or more)"),
    "demo_played": N_("true or false"),
    "saved_at": N_("a date and time in ISO 8601 form"),
}
"""What each key of a saved game must hold, for the player (English: shown through
``gettext``)."""
_OPTIONAL = {
    "undone": [],
    "elapsed_seconds": 0.0,
    "cheat": False,
    "cheats": 0,
    "used_undo": False,
    "used_hint": False,
    "hints": 0,
    "demo_played": False,
}


def _field_ok(key: str, value: object) -> bool:
    if key == "variant":
        return isinstance(value, str) and bool(value)
    if key == "options":
        if not isinstance(value, Mapping):
            return False
        try:
            FrozenOptions(value)
        except (TypeError, ValueError):
            return False
        return True
    if key == "deal":
        return _is_int(value) and 0 <= value <= _MAX_DEAL  # type: ignore[operator]
    if key in ("moves", "undone"):
        return isinstance(value, list)
    if key == "elapsed_seconds":
        return _is_seconds(value)
    if key in ("cheats", "hints"):
        return _is_int(value) and value >= 0  # type: ignore[operator]
    if key in ("cheat", "used_undo", "used_hint", "demo_played"):
        return isinstance(value, bool)
    if key == "saved_at":
        if not isinstance(value, str):
            return False
        try:
            _parse_iso(value)
        except ValueError:
            return False
        return True
    raise AssertionError(key)  # pragma: no cover


def decode_save(data: bytes, source: str | os.PathLike[str] = "<data>") -> SavedGame:
    """Parse saved-game file content.

    Args:
        data: the raw file content.
        source: the file name used in error messages (and as the error's ``path``).

    Returns:
        The saved game.

    Raises:
        PersistenceError: with a plain sentence naming ``source``, when the content is
            empty, too large, not UTF-8, not valid JSON (with line and column), not one
            of our saves, of another format version, has a missing or wrong-typed key
            (named in the message), or holds more than :data:`MAX_SAVE_MOVES` moves.
            Nothing else is raised, whatever ``data`` holds.
    """
    where = str(source)

    def fail(message: str, **fields: object) -> NoReturn:
        """Raise the error: ``message`` (translated, naming the file as ``{path}``)."""
        raise PersistenceError(message.format(path=where, **fields), source)

    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    if len(data) > MAX_SAVE_BYTES:
        fail(_("{path} is far too large to be a towers-solitaire saved game"))
    if not bytes(data).strip():
        fail(
            _("{path} is empty: it is not a towers-solitaire saved game (perhaps it was cut short)")
        )
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError:
        fail(_("{path} is not a towers-solitaire saved game (it is not text)"))
    if not text.lstrip().startswith("{"):
        fail(_("{path} is not a towers-solitaire saved game"))
    try:
        document = json.loads(
            text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates
        )
    except json.JSONDecodeError as error:
        fail(
            _(
                "{path} is truncated or not valid JSON (line {line} column {column}): it is "
                "not a readable towers-solitaire saved game"
            ),
            line=error.lineno,
            column=error.colno,
        )
    except (ValueError, RecursionError) as error:
        fail(
            _(
                "{path} is not valid JSON ({error}): it is not a readable towers-solitaire "
                "saved game"
            ),
            error=error,
        )
    if not isinstance(document, dict) or document.get("format") != SAVE_FORMAT:
        fail(_("{path} is not a towers-solitaire saved game"))
    version = document.get("format_version")
    if not _is_int(version):
        fail(_("{path} is a towers-solitaire saved game without a valid format version"))
    assert isinstance(version, int)
    if version > SAVE_FORMAT_VERSION:
        fail(
            _(
                "{path} was written by a newer version (format {version}); this program "
                "reads format {ours}"
            ),
            version=version,
            ours=SAVE_FORMAT_VERSION,
        )
    if version < SAVE_FORMAT_VERSION:
        fail(
            _("{path} has an unknown format version ({version}); this program reads format 1"),
            version=version,
        )

    count = sum(len(v) for v in (document.get("moves"), document.get("undone")) if type(v) is list)
    if count > MAX_SAVE_MOVES:
        fail(
            _(
                "{path} holds {count} moves, more than the {limit} a saved game may hold "
                "(no real game is that long)"
            ),
            count=f"{count:,}",
            limit=f"{MAX_SAVE_MOVES:,}",
        )
    values: dict[str, Any] = {}
    for key, needs in _FIELD_NEEDS.items():
        if key not in document:
            if key in _OPTIONAL:
                values[key] = _OPTIONAL[key]
                continue
            fail(_("{path}: key '{key}' is missing"), key=key)
        value = document[key]
        if not _field_ok(key, value):
            fail(_("{path}: key '{key}' should be {expected}"), key=key, expected=_(needs))
        if key in ("moves", "undone"):
            bad = _bad_move(value)
            if bad is not None:
                index, move = bad
                shown = repr(move) if len(repr(move)) <= 40 else repr(move)[:37] + "..."
                fail(
                    _(
                        "{path}: key '{key}' item {index} ({value}) is not a move (moves look "
                        "like t3>f, c1>t7 or t2>t5x3)"
                    ),
                    key=key,
                    index=index,
                    value=shown,
                )
        values[key] = value
    try:
        return SavedGame(**values)
    except (TypeError, ValueError) as error:  # pragma: no cover - checks above are stricter
        fail(_("{path} holds a value that is not allowed ({error})"), error=error)


# --- files ---------------------------------------------------------------------------------


def write_save(game: SavedGame, path: str | os.PathLike[str]) -> None:
    """Write ``game`` to ``path`` atomically (the old file stays whole until replaced).

    Args:
        game: the game to store.
        path: the file; its folder is created if missing.

    Raises:
        PersistenceError: the file could not be written (disk full, permission denied,
            ...); any previous file at ``path`` is unchanged.
        TypeError: ``game`` is not a :class:`SavedGame`.
    """
    data = encode_save(game)
    try:
        atomic_write_bytes(path, data)
    except OSError as error:
        reason = error.strerror or str(error)
        message = _("The game could not be saved to {path}: {reason}.")
        raise PersistenceError(message.format(path=path, reason=reason), path) from error


def read_save(path: str | os.PathLike[str]) -> SavedGame:
    """Read a saved game.  The file is only read, never changed or moved.

    Args:
        path: the file.

    Returns:
        The saved game.

    Raises:
        PersistenceError: the file does not exist, cannot be read, or is not a valid
            saved game of this format version; the message says which in plain words.
    """
    try:
        data = read_file_bytes(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise PersistenceError(_("{path} does not exist").format(path=path), path) from None
    except TooLargeError:
        message = _("{path} is far too large to be a towers-solitaire saved game")
        raise PersistenceError(message.format(path=path), path) from None
    except NotARegularFileError as error:  # a folder, or a FIFO that would hang open()
        message = _("{problem}: it is not a saved game").format(problem=error)
        raise PersistenceError(message, path) from None
    except OSError as error:
        reason = error.strerror or str(error)
        message = _("{path} could not be read ({reason})").format(path=path, reason=reason)
        raise PersistenceError(message, path) from error
    return decode_save(data, path)


def autosave_path() -> Path:
    """Return the autosave file, ``data_dir()/autosave.json`` (the folder is created)."""
    return data_dir() / "autosave.json"


def write_autosave(game: SavedGame) -> None:
    """Store the game in progress, atomically, as the autosave.

    Raises:
        PersistenceError: it could not be written; the previous autosave is unchanged.
    """
    try:
        target = autosave_path()
    except OSError as error:
        reason = error.strerror or str(error)
        message = _("The data folder could not be created: {reason}.")
        raise PersistenceError(message.format(reason=reason)) from error
    write_save(game, target)


def load_autosave(
    path: str | os.PathLike[str] | None = None,
) -> tuple[SavedGame | None, list[str]]:
    """Return the autosaved game, if there is a readable one.

    Args:
        path: the autosave file; default :func:`autosave_path`.

    Returns:
        ``(game, warnings)``.  ``(None, [])`` when there is no autosave.  When the
        autosave is unreadable it is moved aside (``autosave.json.corrupt-...``) and
        ``(None, [sentence])`` is returned; this function never raises.
    """
    try:
        target = Path(path) if path is not None else autosave_path()
    except OSError as error:
        reason = error.strerror or str(error)
        message = _("The data folder could not be opened ({reason}); there is no autosave.")
        return None, [message.format(reason=reason)]
    if not os.path.lexists(target):
        return None, []
    try:
        return read_save(target), []
    except PersistenceError as error:
        problem = str(error)
    try:
        moved = quarantine(target)
    except OSError as error:
        reason = error.strerror or str(error)
        note = _("It could not be moved aside ({reason}).").format(reason=reason)
    else:
        note = _("It was moved aside to {name}.").format(name=moved.name)
    message = _("The game in progress could not be restored: {problem}.").format(problem=problem)
    return None, [f"{message} {note}"]


def clear_autosave() -> None:
    """Delete the autosave (after the game ended or was saved under a name).

    A missing autosave is fine.

    Raises:
        PersistenceError: it exists but could not be deleted.
    """
    try:
        target = autosave_path()
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
    except OSError as error:
        reason = error.strerror or str(error)
        message = _("The autosave could not be deleted: {reason}.")
        raise PersistenceError(message.format(reason=reason)) from error
