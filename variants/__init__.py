"""The built-in variants: TOML files only, registered like any third-party plugin.

This module is listed in :data:`solitaire_core.plugins.BUILTIN_PLUGINS`; its one hook
returns every ``*.toml`` file beside it.
"""

from __future__ import annotations

import sys
from importlib.resources import files
from typing import TYPE_CHECKING

from solitaire_core import hookimpl

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:  # Python 3.10 has it in importlib.abc only
        from importlib.abc import Traversable


@hookimpl
def solitaire_variant_files() -> list[Traversable]:
    """Every variant file shipped in this package, sorted by file name."""
    here = files(__name__)
    return sorted((f for f in here.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)
