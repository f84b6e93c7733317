"""Errors raised by the persistence layer."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import SolitaireError

__all__ = ["PersistenceError"]


class PersistenceError(SolitaireError):
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
