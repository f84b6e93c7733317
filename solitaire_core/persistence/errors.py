"""Errors raised by the persistence layer."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["PersistenceError"]


# TODO(core): once ``solitaire_core/errors.py`` defines ``SolitaireError``, make this class
# derive from it (``class PersistenceError(SolitaireError)``) so the UI can catch every
# framework error with one ``except``.  It derives from ``Exception`` only for now so that
# this package does not depend on code still being written.
class PersistenceError(Exception):
    """A file of ours could not be read or written.

    ``str(error)`` is a complete sentence in plain words, suitable to show to a player
    unchanged (it already names the file).  ``path`` is the file concerned, or ``None``
    when there is no single file.

    Args:
        message: the plain-language explanation, naming the file.
        path: the file concerned (``str`` or path-like), or ``None``.
    """

    def __init__(self, message: str, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path: Path | None = Path(path) if path is not None else None

    def __str__(self) -> str:
        return self.message
