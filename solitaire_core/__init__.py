"""towers-solitaire's rules core: cards, piles, states, moves, legality, deals, sessions.

It knows no particular game (variants are data, see :mod:`solitaire_core.variant`) and
never imports tkinter.

Plugins mark their hook implementations with :data:`hookimpl`; the marker's project name,
``"solitaire"``, is also the entry-point group a plugin package registers under.

Importing this package imports nothing else: :data:`hookimpl` (and with it pluggy) is made
on first use (PEP 562), so ``solitaire --version`` does not load the plugin machinery.
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
"""The program's version; pyproject.toml reads it from here (the distribution's metadata
says the same), so ``solitaire --version`` needs no metadata lookup."""

if TYPE_CHECKING:
    import pluggy

    hookimpl: pluggy.HookimplMarker
    """Marker for hook implementations: ``@hookimpl def solitaire_variant_files(): ...``."""


def __getattr__(name: str) -> Any:
    if name != "hookimpl":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import pluggy

    marker = globals().setdefault("hookimpl", pluggy.HookimplMarker("solitaire"))
    return marker


def __dir__() -> list[str]:
    return sorted({*globals(), "hookimpl"})


__all__ = ["__version__", "hookimpl"]
