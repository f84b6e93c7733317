"""towers-solitaire's rules core: cards, piles, states, moves, legality, deals, sessions.

It knows no particular game (variants are data, see :mod:`solitaire_core.variant`) and
never imports tkinter.

Plugins mark their hook implementations with :data:`hookimpl`; the marker's project name,
``"solitaire"``, is also the entry-point group a plugin package registers under.
"""

import pluggy

hookimpl = pluggy.HookimplMarker("solitaire")
"""Marker for hook implementations: ``@hookimpl def solitaire_variant_files(): ...``."""

__all__ = ["hookimpl"]
