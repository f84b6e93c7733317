"""Two running copies of the program sharing one data folder safely (with :mod:`filelock`).

* The statistics database is opened, checked, moved aside or upgraded under the lock
  ``stats.sqlite3.lock``, so two programs starting at once never both move it aside or
  both upgrade it; recording a game is a single SQLite transaction (SQLite's own locking).
* Each running program owns one autosave *slot* for its lifetime: ``autosave.json`` for the
  first, ``autosave-2.json``, ``autosave-3.json``... for the others, each held by a lock
  (``autosave.json.lock``...). A program therefore never offers, overwrites or deletes the
  game in progress of another running program, and no game is lost: a program that gets
  the first slot with no game in it adopts the game a program that has since closed left
  in a higher slot.

Locks are advisory OS locks (``fcntl``/``msvcrt``), released by the OS when a program
dies, so a crash never leaves a slot taken.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from .atomic import move_aside

__all__ = ["AUTOSAVE_SLOTS", "AutosaveSlot", "locked"]

AUTOSAVE_SLOTS = 8
"""How many programs may run at once, each with its own autosave."""


@contextlib.contextmanager
def locked(
    path: Path,
    timeout: float = 15.0,
    *,
    busy: Callable[[Path], Exception] | None = None,
) -> Iterator[bool]:
    """Hold the lock ``<path>.lock`` for the ``with`` block.

    :param path: the file the lock guards (the lock file is beside it).
    :param timeout: seconds to wait for another program to release it (0: do not wait).
    :param busy: when given, called with ``path`` if another program held the lock for
        ``timeout`` seconds; the exception it returns is raised and the block does not run.
    :return: (as the ``with`` value) ``True`` when the lock is held; ``False`` when it could
        not be taken (the folder is read-only, or, without ``busy``, another program held
        it for ``timeout`` seconds); the block then runs unprotected, as it would without
        locking.
    :raises Exception: ``busy(path)``, as above.
    """
    lock = FileLock(f"{path}.lock")
    try:
        lock.acquire(timeout=timeout)
    except Timeout:
        if busy is not None:
            raise busy(path) from None
        yield False
        return
    except OSError:
        yield False
        return
    try:
        yield True
    finally:
        lock.release()


def _slot_path(folder: Path, number: int) -> Path:
    return folder / ("autosave.json" if number == 1 else f"autosave-{number}.json")


class AutosaveSlot:
    """The autosave file this running program owns until :meth:`release`.

    :param folder: the data folder (created if missing).

    Attributes: ``path`` (the autosave file of this program, or ``None`` when all
    :data:`AUTOSAVE_SLOTS` are taken or the folder cannot be used: the game in progress is
    then not autosaved), ``number`` (1 for ``autosave.json``), ``adopted`` (the higher
    slot's file moved into ours at start, or ``None``).
    """

    def __init__(self, folder: Path) -> None:
        self.path: Path | None = None
        self.number = 0
        self.adopted: Path | None = None
        self._lock: FileLock | None = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        for number in range(1, AUTOSAVE_SLOTS + 1):
            path = _slot_path(folder, number)
            lock = FileLock(f"{path}.lock")
            try:
                lock.acquire(timeout=0)
            except (Timeout, OSError):
                continue
            self.path, self.number, self._lock = path, number, lock
            break
        if self.path is not None and not os.path.lexists(self.path):
            self._adopt(folder)

    def _adopt(self, folder: Path) -> None:
        """Take over the game a closed program left in a higher, unowned slot."""
        assert self.path is not None
        for number in range(self.number + 1, AUTOSAVE_SLOTS + 1):
            path = _slot_path(folder, number)
            if not os.path.lexists(path):
                continue
            lock = FileLock(f"{path}.lock")
            try:
                lock.acquire(timeout=0)
            except (Timeout, OSError):
                continue  # its program still runs
            try:
                if move_aside(path, self.path):
                    self.adopted = path
                    return
            except OSError:
                continue
            finally:
                lock.release()

    def release(self) -> None:
        """Give the slot up (at exit; the OS does it too if the program dies)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
