"""Shared fixtures: resolved rules of the built-in variants, a position builder, a
private home folder and a Tk root window for the GUI tests.

Kept small on purpose; a test module's own helpers stay in that module (the GUI tests'
in ``ui_helpers.py``).
"""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from solitaire_core import i18n
from solitaire_core.cards import RANK_TEXT
from solitaire_core.plugins import get_variant
from solitaire_core.state import GameState
from solitaire_core.variant import Rules

# The player's own files (settings, saves, the user variants folder) never reach the suite:
# every test runs with a private, empty home unless it sets its own.
os.environ["SOLITAIRE_HOME"] = tempfile.mkdtemp(prefix="solitaire-tests-")
atexit.register(shutil.rmtree, os.environ["SOLITAIRE_HOME"], True)
# The tests read the English text, whatever the machine's locale (a window follows the
# environment's language by default, solitaire_core/i18n.py).
os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """Speak English again after a test that chose another language."""
    yield
    if i18n.current_language() != "en":
        i18n.set_language("en")


@pytest.fixture
def rules_of() -> Callable[..., Rules]:
    """``rules_of("sea-towers", empty_columns="any")``: a built-in variant's Rules."""

    def make(variant_id: str, **options: str) -> Rules:
        return get_variant(variant_id).resolve(options)

    return make


@pytest.fixture
def seahaven() -> Rules:
    """Seahaven Towers' rules."""
    return get_variant("seahaven").resolve()


@pytest.fixture
def double_sea_towers() -> Rules:
    """Double Sea Towers' rules."""
    return get_variant("double-sea-towers").resolve()


@pytest.fixture
def board() -> Callable[..., GameState]:
    """Build a position from short texts: ``board(rules, ["KS,QS", "5H"], cells=["AD"],
    foundations=["AC..9C"])``.

    Columns are listed from t1, cells from c1 and foundations from f1; piles not given are
    empty. A pile is comma-separated cards, bottom first (``'`` marks a second-deck card);
    ``"AC..9C"`` stands for every card of that suit from the first to the second.
    """

    def make(
        rules: Rules,
        columns: Sequence[str] = (),
        cells: Sequence[str] = (),
        foundations: Sequence[str] = (),
    ) -> GameState:
        def pad(items: Sequence[str], n: int) -> str:
            return " ".join([_expand(i) or "-" for i in items] + ["-"] * (n - len(items)))

        text = " | ".join(
            (
                pad(columns, rules.columns),
                pad(cells, rules.cells),
                pad(foundations, rules.foundations),
            )
        )
        return GameState.from_text(rules, text)

    return make


def _expand(pile: str) -> str:
    if ".." not in pile:
        return pile
    first, last = pile.split("..")
    mark = "'" * (len(first) - len(first.rstrip("'")))
    low, high = RANK_TEXT.index(first[0]), RANK_TEXT.index(last[0])
    return ",".join(RANK_TEXT[r] + first.rstrip("'")[1] + mark for r in range(low, high + 1))


@pytest.fixture
def solitaire_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``SOLITAIRE_HOME`` at the test's temporary folder, so settings, saves and
    statistics never touch the player's own files; returns that folder."""
    monkeypatch.setenv("SOLITAIRE_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def root(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A Tk root window at the screen's top-left corner, sized by the test module's
    ``ROOT_GEOMETRY`` (default ``"1100x760+0+0"``, the game window's size) and drawn once;
    destroyed afterwards with no timer left to fire into it."""
    import tkinter as tk

    from ui_helpers import close

    gc.collect()
    window = tk.Tk()
    window.geometry(getattr(request.module, "ROOT_GEOMETRY", "1100x760+0+0"))
    window.update()
    yield window
    close(window)
    # Tk variables left in reference cycles are collected here, on the main thread:
    # collected on a solver thread while no main loop runs, each would stall that
    # thread for a second.
    gc.collect()
