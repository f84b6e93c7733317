"""Render a screenshot of each installed variant's table into docs/screenshots/<id>.png.

Usage::

    python scripts/screenshots.py                  # every built-in variant, 1100x760, deal 1
    python scripts/screenshots.py --size 800x560 --out /tmp/shots seahaven freecell

The game window is opened for real (the same :class:`solitaire_tk.app.App` a player gets, with a
throw-away settings folder), drawn, and grabbed from the X display. Without a ``DISPLAY``
the script starts a virtual one itself (Xvfb, through PyVirtualDisplay, which
pytest-xvfb installs).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    return width, height


def grab(root: Any, path: Path) -> None:
    """Save what the window ``root`` shows (menu bar included) as a PNG."""
    from PIL import ImageGrab

    root.update()
    x, y = root.winfo_rootx(), root.winfo_rooty()
    # The window's own position (its menu bar sits between it and the client area).
    top = int(root.wm_geometry().split("+")[2]) if "+" in root.wm_geometry() else y
    box = (x, min(top, y), x + root.winfo_width(), y + root.winfo_height())
    image = ImageGrab.grab(bbox=box, xdisplay=os.environ["DISPLAY"])
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def shoot(
    variants: Sequence[str], size: tuple[int, int], out: Path, deal: int, moves: int
) -> list[Path]:
    """Open each variant's table at ``size`` and save its picture in ``out``.

    :param moves: play this many moves first (the first legal ones a click gives), to show
        a game under way.
    """
    import tkinter as tk

    from solitaire_tk.app import App
    from solitaire_tk.persist import AppStore

    from solitaire_core.plugins import get_registry

    registry = get_registry()
    written = []
    with tempfile.TemporaryDirectory() as home:
        os.environ["SOLITAIRE_HOME"] = home
        chosen = variants or [
            v for v, d in registry.variants.items() if d.plugin == "solitaire_variants"
        ]
        for variant in chosen:
            root = tk.Tk()
            width, height = size
            store = AppStore(home, registry=registry)
            store.settings = store.settings.__class__(window_width=width, window_height=height)
            app = App(root, store=store, registry=registry, variant=variant, deal=deal,
                      modal=False)  # fmt: skip
            app.view.animation = False
            root.geometry(f"{width}x{height}+0+0")
            root.update()
            app.view.relayout()
            for _ in range(moves):
                from solitaire_core.rules import legal_moves

                assert app.session is not None
                options = [m for m in legal_moves(app.session.state) if m.target.kind.value != "c"]
                if not options:
                    break
                app.play(options[0])
            app.set_message("")
            root.update()
            time.sleep(0.2)
            root.update()
            path = out / f"{variant}.png"
            grab(root, path)
            written.append(path)
            app.close(save=False)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", help="variant ids (default: every built-in variant)")
    parser.add_argument("--size", type=_parse_size, default=(1100, 760), help="WIDTHxHEIGHT")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--deal", type=int, default=1)
    parser.add_argument("--moves", type=int, default=0, help="play this many moves first")
    args = parser.parse_args(argv)
    display = None
    if not os.environ.get("DISPLAY"):
        from pyvirtualdisplay import Display

        display = Display(visible=False, size=(args.size[0] + 100, args.size[1] + 100))
        display.start()
    try:
        for path in shoot(args.variants, args.size, args.out, args.deal, args.moves):
            print(path)
    finally:
        if display is not None:
            display.stop()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
