"""Render a screenshot of each installed variant's table into docs/screenshots/<id>.png.

Usage::

    python scripts/screenshots.py                  # every built-in variant, 1100x760, deal 1
    python scripts/screenshots.py --size 800x560 --out /tmp/shots seahaven freecell
    python scripts/screenshots.py --moves 6 --focus --name keyboard-focus seahaven
    python scripts/screenshots.py --moves 2 --hint --name hint seahaven
    python scripts/screenshots.py --theme /usr/share/aisleriot/cards/anglo.svgz \
        --name svg-theme seahaven

The game window is opened for real (the same :class:`solitaire_tk.shell.app.App` a player
gets, with a throw-away settings folder), drawn, and grabbed from the X display. Without a
``DISPLAY`` the script starts a virtual one itself (Xvfb, through PyVirtualDisplay, which
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
    variants: Sequence[str],
    size: tuple[int, int],
    out: Path,
    deal: int,
    moves: int,
    *,
    focus: bool = False,
    hint: bool = False,
    theme: str | None = None,
    name: str | None = None,
) -> list[Path]:
    """Open each variant's table at ``size`` and save its picture in ``out``.

    :param moves: play this many moves first (the first legal ones a click gives), to show
        a game under way.
    :param focus: show the keyboard focus with a card picked up (arrow keys and Space).
    :param hint: ask for a hint (Game > Hint) and wait until the table shows it (its arrow
        and the status bar's "Hint: ..."), at most 60 s.
    :param theme: use this card theme (Options > Card theme), waiting until it is drawn.
    :param name: the picture's file name (without ``.png``; default the variant's id).
    """
    import tkinter as tk

    from solitaire_tk.shell.app import App
    from solitaire_tk.shell.persist import AppStore

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
            if theme is not None:
                app.card_themes.choose(theme, save=False)
                deadline = time.monotonic() + 600
                while app.card_themes.current != theme and time.monotonic() < deadline:
                    root.update()
                    time.sleep(0.05)
            if focus:
                view = app.view
                view.focus_force()
                for keysym in ("Right", "Right", "space", "Right", "Right", "Right"):
                    view.event_generate("<KeyPress>", keysym=keysym)
                    root.update()
            if hint:
                app.hint()
                deadline = time.monotonic() + 60
                while not app.message.startswith("Hint:"):
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"no hint within 60 s: {app.message!r}")
                    root.update()
                    time.sleep(0.05)
            else:
                app.set_message("")
            root.update()
            time.sleep(0.2)
            root.update()
            path = out / f"{name or variant}.png"
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
    parser.add_argument("--focus", action="store_true", help="show the keyboard focus")
    parser.add_argument("--hint", action="store_true", help="show a hint (Game > Hint)")
    parser.add_argument("--theme", help="card theme: a built-in name or an SVG deck's path")
    parser.add_argument("--name", help="file name of the picture (one variant)")
    args = parser.parse_args(argv)
    display = None
    if not os.environ.get("DISPLAY"):
        from pyvirtualdisplay import Display

        display = Display(visible=False, size=(args.size[0] + 100, args.size[1] + 100))
        display.start()
    try:
        shots = shoot(
            args.variants,
            args.size,
            args.out,
            args.deal,
            args.moves,
            focus=args.focus,
            hint=args.hint,
            theme=args.theme,
            name=args.name,
        )
        for path in shots:
            print(path)
    finally:
        if display is not None:
            display.stop()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
