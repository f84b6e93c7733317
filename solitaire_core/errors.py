"""Exceptions raised by the rules core.

Every error a user can cause derives from :class:`SolitaireError`; a traceback is only ever
shown for a bug, never for bad input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .i18n import gettext as _

if TYPE_CHECKING:
    from .moves import Move


class SolitaireError(Exception):
    """Base class of every error the framework raises on purpose."""


class UsageError(SolitaireError):
    """Bad command-line input that argparse itself cannot catch: the ``solitaire`` command
    exits with status 2 for it (other :class:`SolitaireError` s give 1)."""


class VariantError(SolitaireError):
    """A variant file (or the data a plugin supplied) is malformed.

    :param source: the file path or plugin name the bad data came from.
    :param key_path: dotted path of the offending key, e.g. ``"tableau.build"``;
        empty when the problem concerns the whole file.
    :param message: what was expected, in plain words.

    ``str(error)`` reads ``"source: key.path: message"``.
    """

    def __init__(self, source: str, key_path: str, message: str) -> None:
        self.source = source
        self.key_path = key_path
        self.message = message
        where = f"{source}: {key_path}: " if key_path else f"{source}: "
        super().__init__(where + message)


class IllegalMoveError(SolitaireError, ValueError):
    """A move the rules forbid.

    :param move: the refused :class:`~solitaire_core.moves.Move` (or the text that failed
        to parse, as a string).
    :param reason: a sentence a player can read, e.g. ``"5♠ cannot go on 7♥: the tableau
        builds down in suit"``.

    The game state the move was tried on is never changed.
    """

    def __init__(self, move: Move | str | Any, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"{move}: {reason}")


class UnknownVariantError(SolitaireError, KeyError):
    """No installed variant has the requested id."""

    def __init__(self, variant_id: str, known: list[str]) -> None:
        self.variant_id = variant_id
        self.known = known
        super().__init__(variant_id)

    def __str__(self) -> str:
        """The message for the player, in the language spoken when it is shown (the
        window's "The game cannot start" says it)."""
        return _("unknown variant {variant}; installed: {known}").format(
            variant=repr(self.variant_id), known=", ".join(self.known)
        )
