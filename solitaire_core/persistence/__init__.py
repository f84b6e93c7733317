"""Persistence: saved games, statistics and settings that survive crashes and bad files.

* :mod:`.paths` -- where files live (platformdirs; ``SOLITAIRE_HOME`` overrides).
* :mod:`.atomic` -- crash-safe writes and moving bad files aside.
* :mod:`.settings` -- player settings in TOML.
* :mod:`.saves` -- saved games (autosave and named) in JSON.
* :mod:`.stats` -- per-variant statistics in SQLite.

Nothing here loads files with pickle or anything else that can run code.
"""

from .atomic import atomic_write_bytes, atomic_write_text, move_aside, quarantine, temp_files_for
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
    StatsStore,
    VariantStats,
    figure_texts,
    format_table,
)

__all__ = [
    "APP_NAME",
    "HOME_ENV",
    "MOVE_PATTERN",
    "SAVE_FORMAT",
    "SAVE_FORMAT_VERSION",
    "SETTINGS_FORMAT_VERSION",
    "STATS_SCHEMA_VERSION",
    "FrozenOptions",
    "PersistenceError",
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
