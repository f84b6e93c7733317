"""Persistence: saved games, statistics and settings that survive crashes and bad files.

* :mod:`.paths` -- where files live (platformdirs; ``SOLITAIRE_HOME`` overrides).
* :mod:`.atomic` -- crash-safe writes and moving bad files aside.
* :mod:`.settings` -- player settings in TOML.
* :mod:`.saves` -- saved games (autosave and named) in JSON.
* :mod:`.stats` -- per-variant statistics in SQLite.
* :mod:`.progress` -- a variant's games per day, week, month or year, for a chart.

Nothing here loads files with pickle or anything else that can run code.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .atomic import (
        atomic_write_bytes,
        atomic_write_text,
        move_aside,
        quarantine,
        temp_files_for,
    )
    from .errors import PersistenceError
    from .options import FrozenOptions, options_from_key, options_key
    from .paths import (
        APP_NAME,
        HOME_ENV,
        app_dirs,
        config_dir,
        data_dir,
        saves_dir,
        settings_path,
        stats_path,
    )
    from .progress import Period, Progression, progression
    from .saves import (
        MOVE_PATTERN,
        SAVE_FORMAT,
        SAVE_FORMAT_VERSION,
        SavedGame,
        autosave_path,
        clear_autosave,
        decode_save,
        encode_save,
        load_autosave,
        read_save,
        write_autosave,
        write_save,
    )
    from .settings import SETTINGS_FORMAT_VERSION, Settings, load_settings, save_settings
    from .stats import (
        STATS_SCHEMA_VERSION,
        GameRecord,
        StatsStore,
        VariantStats,
        figure_texts,
        format_table,
    )

# Each name is imported from its module on first use (PEP 562): a program that needs only
# paths (the variant registry reads the user's folder) does not pay for SQLite, filelock
# and the save format at start-up.
_WHERE = {
    "APP_NAME": "paths",
    "FrozenOptions": "options",
    "GameRecord": "stats",
    "HOME_ENV": "paths",
    "MOVE_PATTERN": "saves",
    "PersistenceError": "errors",
    "Period": "progress",
    "Progression": "progress",
    "SAVE_FORMAT": "saves",
    "SAVE_FORMAT_VERSION": "saves",
    "SETTINGS_FORMAT_VERSION": "settings",
    "STATS_SCHEMA_VERSION": "stats",
    "SavedGame": "saves",
    "Settings": "settings",
    "StatsStore": "stats",
    "VariantStats": "stats",
    "app_dirs": "paths",
    "atomic_write_bytes": "atomic",
    "atomic_write_text": "atomic",
    "autosave_path": "saves",
    "clear_autosave": "saves",
    "config_dir": "paths",
    "data_dir": "paths",
    "decode_save": "saves",
    "encode_save": "saves",
    "figure_texts": "stats",
    "format_table": "stats",
    "load_autosave": "saves",
    "load_settings": "settings",
    "move_aside": "atomic",
    "options_from_key": "options",
    "options_key": "options",
    "progression": "progress",
    "quarantine": "atomic",
    "read_save": "saves",
    "save_settings": "settings",
    "saves_dir": "paths",
    "settings_path": "paths",
    "stats_path": "paths",
    "temp_files_for": "atomic",
    "write_autosave": "saves",
    "write_save": "saves",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "APP_NAME",
    "HOME_ENV",
    "MOVE_PATTERN",
    "SAVE_FORMAT",
    "SAVE_FORMAT_VERSION",
    "SETTINGS_FORMAT_VERSION",
    "STATS_SCHEMA_VERSION",
    "FrozenOptions",
    "GameRecord",
    "PersistenceError",
    "Period",
    "Progression",
    "SavedGame",
    "Settings",
    "StatsStore",
    "VariantStats",
    "app_dirs",
    "atomic_write_bytes",
    "atomic_write_text",
    "autosave_path",
    "clear_autosave",
    "config_dir",
    "data_dir",
    "decode_save",
    "encode_save",
    "figure_texts",
    "format_table",
    "load_autosave",
    "load_settings",
    "move_aside",
    "options_from_key",
    "options_key",
    "progression",
    "quarantine",
    "read_save",
    "save_settings",
    "saves_dir",
    "settings_path",
    "stats_path",
    "temp_files_for",
    "write_autosave",
    "write_save",
]
