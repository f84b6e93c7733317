"""Crash-safe file replacement and moving bad files aside.

A write goes to a temporary file in the target's own folder, is flushed and fsynced, and
then renamed over the target with :func:`os.replace` (atomic on POSIX and Windows); the
folder itself is fsynced afterwards where the platform allows it.  A crash at any instant
therefore leaves either the complete old file or the complete new one.

Temporary files are named ``.<name>.tmp-<pid>-<random>``.  A writer killed between
creating one and renaming it leaves it behind; the next write to the same target removes
leftovers whose writing process is gone, so at most one per crashed writer exists at a time
and they never accumulate.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from datetime import datetime, timezone
from pathlib import Path

__all__ = [
    "atomic_write_bytes",
    "atomic_write_text",
    "move_aside",
    "quarantine",
    "temp_files_for",
]

_TMP_MARK = ".tmp-"


def _temp_prefix(path: Path) -> str:
    return f".{path.name}{_TMP_MARK}"


def temp_files_for(path: str | os.PathLike[str]) -> list[Path]:
    """List the temporary files that writes to ``path`` have left in its folder.

    Args:
        path: the target file (it need not exist).

    Returns:
        The leftover temporary files, sorted by name; empty when the folder is missing.
    """
    target = Path(path)
    prefix = _temp_prefix(target)
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    return sorted(target.parent / name for name in names if name.startswith(prefix))


def _writer_pid(temp: Path, prefix: str) -> int | None:
    head = temp.name[len(prefix) :].split("-", 1)[0]
    if head.isdigit() and head.isascii():
        pid = int(head)
        return pid if pid > 0 else None
    return None


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError and friends: the process exists
        return True
    return True


def _sweep_stale_temps(path: Path) -> None:
    """Remove temporary files left by writers of ``path`` that no longer run."""
    prefix = _temp_prefix(path)
    me = os.getpid()
    for temp in temp_files_for(path):
        pid = _writer_pid(temp, prefix)
        if pid == me:
            continue  # possibly another thread of ours, mid-write
        if os.name == "nt":
            # Windows refuses to delete a file another process holds open, which is
            # exactly the case of a live writer; os.kill(pid, 0) would *terminate* there.
            with contextlib.suppress(OSError):
                temp.unlink()
        elif pid is not None and not _process_alive(pid):
            with contextlib.suppress(OSError):
                temp.unlink()


def _fsync_dir(directory: Path) -> None:
    """Flush a folder's entry table to disk; a no-op where folders cannot be opened."""
    if os.name == "nt":
        return
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes) -> Path:
    fd, name = tempfile.mkstemp(prefix=f"{_temp_prefix(path)}{os.getpid()}-", dir=path.parent)
    temp = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            # Keep the permissions a user gave the existing file; new files keep mkstemp's
            # private 0600.
            with contextlib.suppress(OSError, AttributeError, NotImplementedError):
                os.fchmod(handle.fileno(), stat.S_IMODE(os.stat(path).st_mode))
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    return temp


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file ``path`` with ``data`` so that a crash never leaves a mixture.

    The parent folder is created if missing.  On return the new content is on disk
    (file and folder entry fsynced where supported).

    Args:
        path: the target file.
        data: the complete new content.

    Raises:
        OSError: the folder or temporary file cannot be created or written (disk full,
            permission denied, ...).  The old file is then left untouched and no
            temporary file remains.
        TypeError: ``data`` is not bytes-like.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    _sweep_stale_temps(target)
    for attempt in range(3):
        temp = _write_temp(target, bytes(data))
        try:
            os.replace(temp, target)
        except FileNotFoundError:
            # On Windows a concurrent sweep may have removed our closed temp file in the
            # instant before the rename; write it again.
            if temp.exists() or attempt == 2:
                with contextlib.suppress(OSError):
                    temp.unlink()
                raise
            continue
        except BaseException:
            with contextlib.suppress(OSError):
                temp.unlink()
            raise
        break
    _fsync_dir(target.parent)


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Replace the file ``path`` with ``text`` atomically (see :func:`atomic_write_bytes`).

    Args:
        path: the target file.
        text: the complete new content; written as is (no newline translation).
        encoding: text encoding, UTF-8 by default.

    Raises:
        OSError: as for :func:`atomic_write_bytes`.
        UnicodeEncodeError: ``text`` cannot be encoded.
    """
    atomic_write_bytes(path, text.encode(encoding))


def move_aside(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> bool:
    """Rename ``source`` to ``destination`` unless ``destination`` already exists.

    Uses a hard link followed by unlinking the source where the file system allows it
    (which can never overwrite), otherwise an existence check and :func:`os.rename`.

    Args:
        source: the existing file (or folder) to move.
        destination: the new name, in the same folder.

    Returns:
        ``True`` when moved, ``False`` when ``destination`` already exists.

    Raises:
        FileNotFoundError: ``source`` does not exist.
        OSError: the move failed for another reason (permission denied, ...).
    """
    src, dst = Path(source), Path(destination)
    try:
        os.link(src, dst)
    except FileExistsError:
        return False
    except FileNotFoundError:
        raise
    except (OSError, AttributeError, NotImplementedError):
        # No hard links here (FAT, some network shares, folders): plain rename.
        if os.path.lexists(dst):
            return False
        try:
            os.rename(src, dst)  # refuses to overwrite on Windows
        except FileExistsError:
            return False
    else:
        try:
            os.unlink(src)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(dst)
            raise
    _fsync_dir(dst.parent)
    return True


def quarantine(path: str | os.PathLike[str], now: datetime | None = None) -> Path:
    """Move an unreadable file aside, to ``<name>.corrupt-YYYYmmdd-HHMMSS``.

    The file is renamed, never copied, deleted or overwritten; when that name is taken a
    counter is appended (``...-HHMMSS-2``, ``-3``, ...).  The time stamp is UTC.

    Args:
        path: the bad file.
        now: the time to put in the name (an aware or UTC-naive datetime); default: now.

    Returns:
        The new path of the file.

    Raises:
        FileNotFoundError: ``path`` does not exist.
        OSError: the file could not be renamed (permission denied, ...), or 10 000 names
            were all taken.
    """
    source = Path(path)
    when = now if now is not None else datetime.now(timezone.utc)
    if when.tzinfo is not None:
        when = when.astimezone(timezone.utc)
    base = f"{source.name}.corrupt-{when:%Y%m%d-%H%M%S}"
    for number in range(1, 10_000):
        candidate = source.with_name(base if number == 1 else f"{base}-{number}")
        if move_aside(source, candidate):
            return candidate
    raise OSError(f"could not find a free name to move {source} aside")
