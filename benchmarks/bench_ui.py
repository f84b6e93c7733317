"""UI speed on Double Sea Towers (104 cards), in a real Tk window.

1. Input latency: from a real input event (a pile key or a click, sent with
   ``event_generate``) to the canvas being up to date (``update_idletasks`` done), over
   ~200 moves of a seeded random game; median and 95th percentile. Autoplay animation is
   off here (with it on, the canvas is up to date with the player's move just as fast,
   and the autoplay cards then fly for ~90 ms each without blocking input).
2. The "no useful move left" search that runs 0.4 s after a move: its time per position.
3. A resize: re-laying out and re-rendering every card face.
4. Start-up: from starting ``solitaire play double-sea-towers --deal 1`` to the first
   drawn table (the app prints ``first-draw <time>`` when ``SOLITAIRE_TIMING`` is set).

Usage: ``python benchmarks/bench_ui.py [--events 200] [--starts 5]``. Without a
``DISPLAY`` a virtual one is started (Xvfb through PyVirtualDisplay).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

from gui_bench import percentile, x_display

VARIANT = "double-sea-towers"


def _report(name: str, values_ms: Sequence[float]) -> None:
    print(
        f"{name:<44} n={len(values_ms):<4} median {statistics.median(values_ms):7.2f} ms   "
        f"p95 {percentile(values_ms, 95):7.2f} ms   max {max(values_ms):7.2f} ms"
    )


def bench_events(events: int, seed: int = 1) -> None:
    """Latency of input events, the stuck search and a resize (in this process)."""
    import tkinter as tk

    from solitaire_tk.app import App
    from solitaire_tk.persist import AppStore
    from solitaire_tk.table import click_move, key_move

    from solitaire_core.moves import PileKind
    from solitaire_core.plugins import get_registry
    from solitaire_core.rules import find_progress

    rng = random.Random(seed)
    home = tempfile.mkdtemp(prefix="bench-ui-")
    os.environ["SOLITAIRE_HOME"] = home
    root = tk.Tk()
    root.geometry("1280x860+0+0")
    store = AppStore(home, registry=get_registry())
    app = App(root, store=store, variant=VARIANT, deal=1, modal=False)
    app.view.animation = False
    root.update()
    app.view.relayout()
    root.update()
    view = app.view
    latencies: list[float] = []
    kinds = {"key": 0, "click": 0, "undo": 0}
    stuck: list[float] = []
    deal = 1
    while len(latencies) < events:
        session = app.session
        assert session is not None and view.state is not None
        state = view.state
        if session.is_won:
            deal += 1
            app.start(VARIANT, {}, deal)
            root.update()
            continue
        t0 = time.perf_counter()
        progress = find_progress(state, budget=3000)
        stuck.append((time.perf_counter() - t0) * 1000)
        options: list[tuple[str, object]] = []
        for ref, letter in view.key_of.items():
            if ref.kind is not PileKind.FOUNDATION and key_move(state, ref)[0] is not None:
                options.append(("key", letter))
        for i, col in enumerate(state.columns):
            col_ref = view.layout.columns[i].ref if view.layout else None
            if col and col_ref and click_move(state, col_ref, len(col) - 1)[0] is not None:
                options.append(("click", col[-1]))
        if not options or progress is False or rng.random() < 0.08 and session.can_undo:
            if not session.can_undo:
                deal += 1
                app.start(VARIANT, {}, deal)
                root.update()
                continue
            options = [("undo", None)]
        kind, what = rng.choice(options)
        moves_before = session.moves
        root.update()
        t0 = time.perf_counter()
        if kind == "key":
            view.event_generate("<KeyPress>", keysym=str(what))
        elif kind == "click":
            x, y = view.card_center(what)  # type: ignore[arg-type]
            view.event_generate("<ButtonPress-1>", x=x, y=y)
            view.event_generate("<ButtonRelease-1>", x=x, y=y, state=0x100)
        else:
            view.event_generate("<KeyPress>", keysym="z", state=0x4)
        root.update_idletasks()
        latencies.append((time.perf_counter() - t0) * 1000)
        kinds[kind] += 1
        assert session.moves != moves_before or app.session is not session
        view.focus_force()
    _report("input event -> canvas up to date", latencies)
    print(f"{'':<44} ({kinds['key']} keys, {kinds['click']} clicks, {kinds['undo']} undos)")
    _report('"no useful move" search per position', stuck)
    resize: list[float] = []
    for width, height in [(1000, 700), (1400, 950), (1280, 860)] * 2:
        root.geometry(f"{width}x{height}")
        root.update()
        t0 = time.perf_counter()
        view.relayout()
        root.update_idletasks()
        resize.append((time.perf_counter() - t0) * 1000)
    _report("resize: re-layout and re-render 52 faces", resize)
    app.close(save=False)
    shutil.rmtree(home, ignore_errors=True)


def bench_startup(starts: int) -> None:
    """Time from starting the command to its first drawn table."""
    exe = shutil.which("solitaire")
    command = [exe] if exe else [sys.executable, "-m", "solitaire_core"]
    command += ["play", VARIANT, "--deal", "1"]
    times: list[float] = []
    for _ in range(starts):
        home = tempfile.mkdtemp(prefix="bench-ui-")
        env = {**os.environ, "SOLITAIRE_HOME": home, "SOLITAIRE_TIMING": "1"}
        t0 = time.time()
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if not line.startswith("first-draw "):
                raise RuntimeError(f"unexpected output: {line!r}")
            times.append((float(line.split()[1]) - t0) * 1000)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            shutil.rmtree(home, ignore_errors=True)
    _report(f"'{' '.join(command[-4:])}' -> first drawn table", times)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args(argv)
    with x_display():
        bench_events(args.events)
        bench_startup(args.starts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
