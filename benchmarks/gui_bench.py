"""Helpers shared by the GUI benchmarks (``bench_ui.py``, ``bench_assist.py``), which run
as scripts (``python benchmarks/bench_ui.py``) and import this module from their folder."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, nearest rank (no interpolation)."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


@contextlib.contextmanager
def x_display(size: tuple[int, int] = (1400, 1000)) -> Iterator[None]:
    """Run the block with an X display: the one in ``DISPLAY``, else a virtual one of
    ``size`` pixels (Xvfb through PyVirtualDisplay), stopped afterwards."""
    if os.environ.get("DISPLAY"):
        yield
        return
    from pyvirtualdisplay import Display

    display = Display(visible=False, size=size)
    display.start()
    try:
        yield
    finally:
        display.stop()
