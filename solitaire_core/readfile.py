"""Reading a file that a user or a plugin names, without hanging and without surprises.

Every file the program reads at start-up (variant files, settings, saved games) goes
through :func:`read_file_bytes`: it opens without blocking, so a FIFO or a device put in
place of a data file is refused instead of waiting forever for a writer; it reads only
regular files; and it refuses files larger than the caller's limit unread.
"""

from __future__ import annotations

import os
import stat

__all__ = ["NotARegularFileError", "TooLargeError", "read_file_bytes"]


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
    :param limit: the largest size accepted, in bytes.
    :raises FileNotFoundError: it does not exist.
    :raises NotARegularFileError: it is a folder, FIFO, device or socket (opened without
        blocking and closed unread).
    :raises TooLargeError: it holds more than ``limit`` bytes.
    :raises OSError: it cannot be opened or read for another reason.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise NotARegularFileError(f"{os.fspath(path)} is a folder, not a file") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFileError(f"{os.fspath(path)} is {_kind(mode)}, not a file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise TooLargeError(f"{os.fspath(path)} is larger than {limit} bytes")
    return data
