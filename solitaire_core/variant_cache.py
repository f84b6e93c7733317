"""The variant files already read and checked, kept between runs.

Every start (``solitaire list``, the launcher, ``solitaire play``) loads each installed
variant file. Reading its TOML and checking it against the JSON Schema
(``variant-schema.json``) took about half of ``solitaire list``'s time; a file whose text
has not changed since the last run needs neither. This cache keeps, per text (its
SHA-256), the table that text was read as once it passed the schema check. Everything
after that check (rule predicates, deal methods, the rules themselves) still runs on
every load, as it depends on the plugins installed.

The cache is one JSON file, ``cache_dir()/variants.json``
(:func:`solitaire_core.persistence.paths.cache_dir`). It holds only what is valid for one
version of the code: its *fingerprint*, over the program's version, the reading and
checking code (``variant.py``) and the schema, must match, or the file is ignored. A
file that cannot be read, is damaged, or holds anything of the wrong type is ignored
as a whole, and an entry whose checksum does not match its table is ignored alone: the
files are then read and checked again, as on a first run, and the cache is written
anew. It is written atomically (a crash or a second process never leaves half a file)
and only when a text was added to it; where it cannot be written (a read-only
home), nothing is cached and nothing is reported, since nothing is lost.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

FORMAT = 1
"""The layout of the cache file; a file of another layout is ignored."""

FILE_NAME = "variants.json"
"""The cache file's name in the cache folder."""

MAX_BYTES = 16 * 1024 * 1024
"""A cache file larger than this (16 MiB) is not read."""

MAX_ENTRIES = 1000
"""The most texts kept: past it, those not loaded in the run that writes the file go."""


def fingerprint() -> str:
    """What the cached tables depend on besides each file's text, as a hex SHA-256: the
    program's version, the source of :mod:`solitaire_core.variant` (which reads and
    checks a file) and the schema it checks against. ``""`` when either file cannot be
    read (the cache is then not used)."""
    from . import __version__, variant

    digest = hashlib.sha256(__version__.encode())
    try:
        digest.update(Path(variant.__file__).read_bytes())
        digest.update(Path(variant.__file__).with_name("variant-schema.json").read_bytes())
    except OSError:
        return ""
    return digest.hexdigest()


def _canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _checksum(key: str, data: dict[str, Any]) -> str:
    return hashlib.sha256(f"{key}\n{_canonical(data)}".encode()).hexdigest()


class VariantCache:
    """The tables of variant texts already read and checked, with their checksums.

    :param path: the cache file, read at once (``None``: an empty cache kept in memory
        only, which :meth:`save` never writes).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._print = fingerprint() if path is not None else ""
        self._stored: dict[str, dict[str, Any]] = self._read() if self._print else {}
        self._used: dict[str, dict[str, Any]] = {}
        self._added = False

    @classmethod
    def default(cls) -> VariantCache:
        """The cache in the player's cache folder (``$SOLITAIRE_HOME/cache`` when that is
        set); in memory only when the folder cannot be made."""
        from .persistence.paths import cache_dir

        try:
            return cls(cache_dir() / FILE_NAME)
        except OSError:
            return cls(None)

    def _read(self) -> dict[str, dict[str, Any]]:
        """The entries of the cache file: each text's key mapped to its table and
        checksum, ``{}`` when the file is missing, unreadable, damaged or of another
        fingerprint."""
        from .readfile import read_file_bytes

        assert self.path is not None
        try:
            raw = json.loads(read_file_bytes(self.path, MAX_BYTES))
        except (OSError, ValueError, RecursionError):  # ValueError: bad JSON or UTF-8
            return {}
        if not (
            isinstance(raw, dict)
            and raw.get("format") == FORMAT
            and raw.get("fingerprint") == self._print
            and isinstance(raw.get("entries"), dict)
        ):
            return {}
        return {
            key: entry
            for key, entry in raw["entries"].items()
            if isinstance(key, str)
            and isinstance(entry, dict)
            and isinstance(entry.get("data"), dict)
            and isinstance(entry.get("checksum"), str)
        }

    @staticmethod
    def key(text: str) -> str:
        """The key of a variant file's ``text``: its SHA-256 as hex."""
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def get(self, text: str) -> dict[str, Any] | None:
        """The table ``text`` was read as when it passed the schema check, or ``None``
        when the cache does not hold it (or its entry is damaged)."""
        key = self.key(text)
        entry = self._stored.get(key)
        if entry is None or _checksum(key, entry["data"]) != entry["checksum"]:
            return None
        self._used[key] = entry
        data: dict[str, Any] = json.loads(json.dumps(entry["data"]))  # a copy, keys in order
        return data

    def put(self, text: str, data: dict[str, Any]) -> None:
        """Keep ``data``, the table ``text`` was read as, once it passed the schema check.
        A table JSON cannot hold (a TOML date, say) is not kept."""
        if not self._print:
            return
        try:
            copy = json.loads(json.dumps(data, ensure_ascii=False))
        except (TypeError, ValueError):
            return
        if copy != data:
            return  # JSON would not give it back as it is (a tuple, say)
        key = self.key(text)
        self._used[key] = {"data": copy, "checksum": _checksum(key, copy)}
        self._added = True

    def save(self) -> None:
        """Write the cache file when texts were added since it was read: the texts used
        in this run first, then the others it held, :data:`MAX_ENTRIES` at most. A folder
        that cannot be written to is left as it is."""
        if self.path is None or not self._added:
            return
        from .persistence.atomic import atomic_write_text

        entries = dict(self._used)
        for key, entry in self._stored.items():
            if len(entries) >= MAX_ENTRIES:
                break
            entries.setdefault(key, entry)
        text = json.dumps(
            {"format": FORMAT, "fingerprint": self._print, "entries": entries},
            ensure_ascii=False,
        )
        try:
            atomic_write_text(self.path, text)
        except OSError:
            return
        self._stored, self._added = entries, False


__all__ = ["FILE_NAME", "FORMAT", "VariantCache", "fingerprint"]
