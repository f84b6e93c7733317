"""Render the variant editor's screenshots into docs/screenshots/.

Usage::

    python scripts/editor_screenshots.py   # editor.png, editor-checks.png, launcher*.png
    python scripts/editor_screenshots.py --out /tmp/shots

* ``editor.png``: "Edit a copy" of Sea Towers, the Building tab, after the quick checks
  and the solver's run over deals 1-20;
* ``editor-checks.png``: a copy of Seahaven Towers with six cards per column typed in the
  Deal tab: the loader's message beside the field;
* ``launcher-groups.png``: the launcher with its family groups, a Recent game and one of
  the player's own files;
* ``launcher.png``: the launcher with Fan chosen: its picture of deal 1 laid out as the
  table lays it out (two rows of nine columns).

Real windows on the X display (without ``DISPLAY`` a virtual one is started, as
scripts/screenshots.py does), with a throw-away home folder.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _wait(root: Any, done: Callable[[], bool], seconds: float = 600) -> None:
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        root.update()
        time.sleep(0.05)
    root.update()
    time.sleep(0.2)
    root.update()


def shoot(out: Path) -> list[Path]:
    """Write the three pictures into ``out``; returns their paths."""
    import tkinter as tk

    from screenshots import grab  # scripts/screenshots.py
    from solitaire_tk.editor.window import VariantEditor, copy_for_editing
    from solitaire_tk.launcher.window import Launcher

    from solitaire_core.persistence import Settings
    from solitaire_core.plugins import get_registry

    written = []
    with tempfile.TemporaryDirectory() as home:
        os.environ["SOLITAIRE_HOME"] = home
        registry = get_registry(reload=True)
        root = tk.Tk()
        root.withdraw()

        editor = VariantEditor(
            root, registry=registry, data=copy_for_editing(registry.get("sea-towers"), registry)
        )
        editor.geometry("1320x900+0+0")
        editor.notebook.select(editor.tabs["building"])
        _wait(editor, lambda: not editor.checks_running)
        editor.solve()
        _wait(editor, lambda: not editor.solving)
        grab(editor, out / "editor.png")
        written.append(out / "editor.png")
        editor.destroy()

        editor = VariantEditor(
            root, registry=registry, data=copy_for_editing(registry.get("seahaven"), registry)
        )
        editor.geometry("1320x900+0+0")
        editor.notebook.select(editor.tabs["deal"])
        _wait(editor, lambda: not editor.checks_running)
        editor.set_text("deal.columns", "6")
        _wait(editor, lambda: bool(editor.problems))
        grab(editor, out / "editor-checks.png")
        written.append(out / "editor-checks.png")
        editor.save_path().parent.mkdir(parents=True, exist_ok=True)
        editor.set_text("deal.columns", "5")
        editor.set_text("name", "Night Towers")
        _wait(editor, lambda: editor.definition is not None)
        editor.save()
        editor.destroy()

        root.deiconify()
        root.geometry("1100x760+0+0")
        launcher = Launcher(
            root,
            registry=registry,
            settings=Settings(recent_variants=("freecell",)),
            on_play=lambda *_a: None,
        )
        launcher.pack(fill="both", expand=True)
        launcher.select("my-seahaven")
        launcher.tree.yview_moveto(0)  # the Recent and Yours groups in view
        _wait(root, lambda: True)
        grab(root, out / "launcher-groups.png")
        written.append(out / "launcher-groups.png")
        launcher.select("fan")
        launcher.tree.see("fan")
        _wait(root, lambda: True)
        grab(root, out / "launcher.png")
        written.append(out / "launcher.png")
        root.destroy()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    display = None
    if not os.environ.get("DISPLAY"):
        from pyvirtualdisplay import Display

        display = Display(visible=False, size=(1400, 1000))
        display.start()
    try:
        for path in shoot(args.out):
            print(path)
    finally:
        if display is not None:
            display.stop()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "scripts"))
    sys.exit(main())
