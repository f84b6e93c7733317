"""Where our files live.

Everything goes in the per-user folders that :mod:`platformdirs` chooses for the
application ``towers-solitaire``, unless the environment variable ``SOLITAIRE_HOME`` is
set: then configuration lives in ``$SOLITAIRE_HOME/config``, data in
``$SOLITAIRE_HOME/data`` and the cache in ``$SOLITAIRE_HOME/cache``. Tests and CI set
it so they never touch the real home folder.

Directories are created on demand by the functions that return them.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import PlatformDirs

__all__ = [
    "APP_NAME",
    "HOME_ENV",
    "app_dirs",
    "cache_dir",
    "config_dir",
    "data_dir",
    "saves_dir",
    "settings_path",
    "stats_path",
    "user_variants_dir",
]

APP_NAME = "towers-solitaire"
"""Application name handed to platformdirs."""

HOME_ENV = "SOLITAIRE_HOME"
"""Environment variable that, when set to a non-empty path, overrides both folders."""


def app_dirs() -> PlatformDirs:
    """Return the platformdirs description of our per-user folders (nothing is created)."""
    return PlatformDirs(APP_NAME, appauthor=False)


def _home_override() -> Path | None:
    value = os.environ.get(HOME_ENV, "")
    return Path(value).expanduser() if value else None


def _ensure(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def config_dir() -> Path:
    """Return the configuration folder, creating it if needed.

    ``$SOLITAIRE_HOME/config`` when ``SOLITAIRE_HOME`` is set, otherwise the platform's
    user config folder (e.g. ``~/.config/towers-solitaire`` on Linux).

    Raises:
        OSError: the folder does not exist and cannot be created.
    """
    home = _home_override()
    return _ensure(home / "config" if home is not None else app_dirs().user_config_path)


def data_dir() -> Path:
    """Return the data folder (statistics, autosave), creating it if needed.

    ``$SOLITAIRE_HOME/data`` when ``SOLITAIRE_HOME`` is set, otherwise the platform's user
    data folder (e.g. ``~/.local/share/towers-solitaire`` on Linux).

    Raises:
        OSError: the folder does not exist and cannot be created.
    """
    home = _home_override()
    return _ensure(home / "data" if home is not None else app_dirs().user_data_path)


def cache_dir() -> Path:
    """Return the cache folder (what can be made again, such as the variant files already
    read: :mod:`solitaire_core.variant_cache`), creating it if needed.

    ``$SOLITAIRE_HOME/cache`` when ``SOLITAIRE_HOME`` is set, otherwise the platform's user
    cache folder (e.g. ``~/.cache/towers-solitaire`` on Linux).

    Raises:
        OSError: the folder does not exist and cannot be created.
    """
    home = _home_override()
    return _ensure(home / "cache" if home is not None else app_dirs().user_cache_path)


def saves_dir() -> Path:
    """Return the default folder offered for named saved games (``data_dir()/saves``).

    Raises:
        OSError: the folder does not exist and cannot be created.
    """
    return _ensure(data_dir() / "saves")


def settings_path() -> Path:
    """Return the default settings file, ``config_dir()/settings.toml``."""
    return config_dir() / "settings.toml"


def stats_path() -> Path:
    """Return the default statistics database, ``data_dir()/stats.sqlite3``."""
    return data_dir() / "stats.sqlite3"


def user_variants_dir() -> Path:
    """Return the folder of the player's own variant files, ``data_dir()/variants``.

    Every ``*.toml`` file in it is loaded at start and listed as "yours" (see
    :mod:`solitaire_core.uservariants`). Nothing is created: the folder may not exist.
    """
    home = _home_override()
    return (home / "data" if home is not None else app_dirs().user_data_path) / "variants"
