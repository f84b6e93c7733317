"""Reading a file that a user or a plugin names, without hanging and without surprises.

Every file the program reads at start-up (variant files, settings, saved games) goes
through :func:`read_file_bytes`: it opens without blocking, so a FIFO or a device put in
place of a data file is refused instead of waiting forever for a writer; it reads only
regular files; and it refuses files larger than the caller's limit unread. Memory grows
with what the file holds, never with the limit: a generous limit (the survey CSV allows
2 GiB) costs nothing for a small file, even under a tight address-space limit.
"""

from __future__ import annotations

import os
import stat

__all__ = ["NotARegularFileError", "TooLargeError", "read_file_bytes"]

_CHUNK = 1 << 20
"""Bytes asked for at a time past the size the file had when opened (it may still grow)."""


class NotARegularFileError(OSError):
    """The path names a folder, a FIFO, a device or a socket, not a regular file."""


class TooLargeError(OSError):
    """The file is larger than the reader's limit (it was not read)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_file_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The whole content of the regular file ``path``.

    :param path: the file.
    :param limit: the largest size accepted, in bytes; memory is taken for what the file
        holds, never for the limit.
    :raises FileNotFoundError: it does not exist.
    :raises NotARegularFileError: it is a folder, FIFO, device or socket (opened without
        blocking and closed unread).
    :raises TooLargeError: it holds more than ``limit`` bytes (checked on its size before
        reading, and again while reading, in case it grows).
    :raises OSError: it cannot be opened or read for another reason.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise NotARegularFileError(f"{os.fspath(path)} is a folder, not a file") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFileError(f"{os.fspath(path)} is {_kind(info.st_mode)}, not a file")
        if info.st_size > limit:
            raise TooLargeError(f"{os.fspath(path)} is larger than {limit} bytes")
        # Ask for the size the file has now (plus one byte to see it has grown), then in
        # chunks: a read of ``limit + 1`` would allocate the whole limit up front.
        parts: list[bytes] = []
        total = 0
        want = info.st_size + 1
        while total <= limit:
            part = os.read(fd, min(want, limit + 1 - total))
            if not part:
                break
            parts.append(part)
            total += len(part)
            want = _CHUNK
    finally:
        os.close(fd)
    if total > limit:
        raise TooLargeError(f"{os.fspath(path)} is larger than {limit} bytes")
    return b"".join(parts)
