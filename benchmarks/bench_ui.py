"""UI speed on Double Sea Towers (104 cards), in a real Tk window.

1. Input latency: from a real input event (a pile key or a click, sent with
   ``event_generate``) to the canvas being up to date (``update_idletasks`` done), over
   ~200 moves of a seeded random game; median and 95th percentile. Autoplay animation is
   off here (with it on, the canvas is up to date with the player's move just as fast,
   and the autoplay cards then fly for ~90 ms each without blocking input).
2. The "no useful move left" search that runs 0.4 s after a move: its time per position.
3. A resize: re-laying out and re-rendering every card face.
4. Start-up: from starting ``solitaire play VARIANT --deal 1`` (``--start-variant``,
   default double-sea-towers) to the first drawn table (the app prints ``first-draw
   <time>`` when ``SOLITAIRE_TIMING`` is set). Run it twice: the first run compiles the
   ``.pyc`` files.
5. Quitting (``--quit N``): from Ctrl+Q, sent with xdotool to the window of
   ``solitaire play VARIANT --deal 1``, to the end of the process.

Usage: ``python benchmarks/bench_ui.py [--events 200] [--starts 5] [--start-variant
seahaven] [--quit 5]``; ``--events 0`` skips the in-process part. Without a ``DISPLAY``
a virtual one is started (Xvfb through PyVirtualDisplay).
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

    from solitaire_tk.shell.app import App
    from solitaire_tk.shell.persist import AppStore
    from solitaire_tk.table.view import click_move, key_move

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
        if app.dialog is not None and app.dialog.winfo_exists():  # "no useful move left"
            app.dialog.close()  # (it takes the keyboard focus; on a slow machine it may
            view.focus_force()  # open between two events)
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
        if session.moves == moves_before and app.session is session:
            raise RuntimeError(f"the {kind} {what!r} played no move: {app.message!r}")
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


def _play_command(variant: str) -> list[str]:
    exe = shutil.which("solitaire")
    command = [exe] if exe else [sys.executable, "-m", "solitaire_core"]
    return [*command, "play", variant, "--deal", "1"]


def bench_startup(starts: int, variant: str = VARIANT) -> None:
    """Time from starting the command to its first drawn table."""
    command = _play_command(variant)
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


def bench_quit(quits: int, variant: str = VARIANT) -> None:
    """Time from Ctrl+Q (a real X key event, xdotool) to the end of the process."""
    command = _play_command(variant)
    times: list[float] = []
    for _ in range(quits):
        home = tempfile.mkdtemp(prefix="bench-ui-")
        env = {**os.environ, "SOLITAIRE_HOME": home, "SOLITAIRE_TIMING": "1"}
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert proc.stdout is not None
            proc.stdout.readline()  # first-draw
            found = subprocess.run(
                ["xdotool", "search", "--name", "deal 1 .* Towers Solitaire"],
                capture_output=True, text=True, timeout=30, check=True,
            )  # fmt: skip
            window = found.stdout.split()[-1]
            subprocess.run(["xdotool", "windowfocus", "--sync", window], timeout=30, check=True)
            time.sleep(0.5)
            t0 = time.perf_counter()
            subprocess.run(["xdotool", "key", "--window", window, "ctrl+q"], timeout=30)
            proc.wait(timeout=30)
            times.append((time.perf_counter() - t0) * 1000)
        finally:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=30)
            shutil.rmtree(home, ignore_errors=True)
    _report(f"Ctrl+Q in '{' '.join(command[-4:])}' -> process ended", times)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--start-variant", default=VARIANT)
    parser.add_argument("--quit", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    with x_display():
        if args.events:
            bench_events(args.events)
        if args.starts:
            bench_startup(args.starts, args.start_variant)
        if args.quit:
            bench_quit(args.quit, args.start_variant)
    return 0


if __name__ == "__main__":
    sys.exit(main())
