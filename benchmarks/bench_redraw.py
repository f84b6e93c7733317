"""Redraw latency of the game window against PySolFC's, watched from outside with X DAMAGE.

What it measures, on Seahaven Towers deal 1 (PySolFC's game "Seahaven Towers", deal 1:
the same deal in both programs), both programs side by side on one virtual X display:

* **Move**: the time from a real input event to the window's first redraw. The move is the
  8 of clubs (column G, the 7th) onto the 9 of clubs (column J, the 10th), legal at the
  start of the deal in both programs, made as a player drags it: button press on the card,
  motion in ten steps to the target card, then (once every redraw of the drag has ended)
  the button release, which is the timed input. Ours also takes the same move from its
  keyboard (key ``g``), timed as an extra row.
* **Undo**: Ctrl+Z, right after that move (both programs take Ctrl+Z).
* **Start-up**: from starting the process to the drawn table (the last redraw of the
  table's canvas before one second without any), and its memory then (RSS).

How: the benchmark is an X client of its own (python-xlib). It creates a DAMAGE object
(``DamageReportRawRectangles``) on each program's top-level window; the server reports
drawing into the window's child windows too (Tk draws the canvas, menus, tool and status
bars into children), one event per rectangle drawn. It sends the input with XTEST and
takes a monotonic timestamp just before flushing it to the server, then records every
DamageNotify after it until the window has been quiet for ``--quiet`` seconds. Before
the trials it watches each idle window for two seconds: the rectangles redrawn then (each
status bar's clock) are ignored in the trials. Reported per trial: *first* (the first
rectangle drawn anywhere in the window: the spec's figure), *canvas* (the first one
inside the table's canvas, the largest child window) and *settled* (the last one of the
burst: the end of any animation). Trials are interleaved: round after round, each program
makes the move and then undoes it, the order of the two programs alternating from round
to round; keyboard focus is set on the program's window (``XSetInputFocus``) and the
pointer put on the card, and the window left to go quiet, before each trial. The windows
have the same size: ours its default 1100x792, PySolFC's canvas is set to 1100x700
(``game_geometry`` in its options file) and it scales its cards to fit, as it does by
default. Start-ups are interleaved the same way, after one untimed start of each (warm file
cache and bytecode), each program keeping its own settings folder across its runs; every
process is ended (SIGTERM) after its run. Medians and 90th percentiles (nearest rank).

Prerequisites:

* ``Xvfb`` (Debian package ``xvfb``) with the DAMAGE and XTEST extensions (on by default).
* python-xlib in the interpreter that runs this script (``pip install python-xlib``, or a
  folder holding it on ``PYTHONPATH``).
* PySolFC, optional: a source tree (``--pysolfc DIR`` or ``PYSOLFC_DIR``) with card sets
  in ``DIR/data`` and ``DIR/data/html/license.html``. PySolFC is packaged neither on PyPI
  nor in this Debian release; from its git repository (github.com/shlomif/PySolFC) and
  its card sets' (github.com/shlomif/PySolFC-Cardsets)::

      git -C PySolFC archive HEAD | tar -x -C /tmp/pysolfc
      mkdir -p /tmp/pysolfc/data/html
      cp /tmp/pysolfc/html-src/license.html /tmp/pysolfc/data/html/
      git -C PySolFC-Cardsets archive HEAD $(cat /tmp/pysolfc/scripts/cardsets_to_bundle) \\
          | tar -x -C /tmp/pysolfc/data        # the "minimal" bundle of card sets

  It runs under this script's interpreter (``--pysolfc-python`` for another), which must
  import tkinter, Pillow, pysol_cards, attrs and configobj (``pip install configobj``, or
  on ``PYTHONPATH``; the environment is passed on). Its tile (ttk) interface is used, its
  default; its plain Tk one (``--tk``) fails to start in recent sources. Without PySolFC
  the benchmark measures ours alone and says why.

Run from the project root, with the project installed in the virtualenv::

    .venv/bin/python benchmarks/bench_redraw.py --pysolfc /tmp/pysolfc
    .venv/bin/python benchmarks/bench_redraw.py --trials 10 --starts 2 --json -   # quick

It writes ``benchmarks/results/bench_redraw.json`` (every trial's figures with the
summary, the machine, the load average before and after). Figures from a busy machine are
noisier, for both programs alike (they ran in the same minutes); compare within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_bench import percentile

RESULTS = Path(__file__).parent / "results" / "bench_redraw.json"
ROOT = Path(__file__).resolve().parent.parent
SCREEN = (2304, 1000)
PYSOL_X = 1152  # PySolFC's window is moved here, right of ours
PYSOLFC_OPTIONS = "[general]\nsplashscreen = False\nsound = False\ngame_geometry = 1100, 700\n"

# The drag, in window coordinates: the middle of the 8 of clubs (top card of column G)
# to the middle of the 9 of clubs (top card of column J), for each window at its size.
DRAG = {"ours": ((708, 498), (1025, 498)), "pysolfc": ((719, 420), (1043, 420))}


def _xlib() -> Any:
    try:
        from Xlib import X, display  # noqa: F401
        from Xlib.ext import damage, xtest  # noqa: F401
    except ImportError:
        sys.exit("bench_redraw needs python-xlib: pip install python-xlib (or PYTHONPATH)")
    import Xlib

    return Xlib


@dataclass
class Program:
    """One program under test: how to start it and the windows it has."""

    name: str
    argv: list[str]
    env: dict[str, str]
    cwd: str | None
    title: str  # a part of its main window's WM_NAME
    home: str
    proc: subprocess.Popen[bytes] | None = None
    top: Any = None  # its main top-level window
    canvas: tuple[int, int, int, int] = (0, 0, 0, 0)  # x, y, w, h in the top-level
    background: set[tuple[int, int, int, int]] = field(default_factory=set)
    damage: int = 0


class Observer:
    """The benchmark's own X connection: DAMAGE events and XTEST input."""

    def __init__(self, display_name: str) -> None:
        Xlib = _xlib()
        from Xlib import X, display
        from Xlib.ext import damage, xtest

        self.X, self.damage_ext, self.xtest = X, damage, xtest
        self.error = Xlib.error
        self.d = display.Display(display_name)
        self.d.set_error_handler(lambda *error: None)  # windows gone before we asked
        self.d.damage_query_version()
        self.root = self.d.screen().root
        self.root.change_attributes(event_mask=X.SubstructureNotifyMask)
        self.by_window: dict[int, int] = {}  # damage id -> window id
        self.d.sync()

    # -- events -------------------------------------------------------------------------
    def collect(self, seconds: float) -> list[tuple[float, Any]]:
        """Every event that arrives in the next ``seconds``, with its arrival time."""
        out: list[tuple[float, Any]] = []
        end = time.monotonic() + seconds
        while True:
            while self.d.pending_events():
                event = self.d.next_event()
                out.append((time.monotonic(), event))
            left = end - time.monotonic()
            if left <= 0:
                return out
            select.select([self.d], [], [], left)

    def burst(
        self, keep: Callable[[Any], bool], quiet: float, limit: float = 5.0
    ) -> list[tuple[float, Any]]:
        """The events ``keep`` accepts until none has come for ``quiet`` seconds."""
        out: list[tuple[float, Any]] = []
        start = time.monotonic()
        last = start
        while True:
            now = time.monotonic()
            wait = min(last + quiet - now, start + limit - now)
            if wait <= 0:
                return out
            select.select([self.d], [], [], wait)
            while self.d.pending_events():
                event = self.d.next_event()
                stamp = time.monotonic()
                if keep(event):
                    out.append((stamp, event))
                    last = stamp

    def watch(self, window: Any) -> int:
        damage_id = window.damage_create(self.damage_ext.DamageReportRawRectangles)
        self.by_window[damage_id] = window.id
        return damage_id

    # -- input --------------------------------------------------------------------------
    def pointer(self, x: int, y: int) -> None:
        self.xtest.fake_input(self.d, self.X.MotionNotify, x=x, y=y)
        self.d.sync()

    def button(self, press: bool) -> None:
        self.xtest.fake_input(self.d, self.X.ButtonPress if press else self.X.ButtonRelease, 1)

    def keys(self, keysyms: Sequence[int]) -> None:
        """Press the keys in order, then release them in reverse order."""
        codes = [self.d.keysym_to_keycode(k) for k in keysyms]
        for code in codes:
            self.xtest.fake_input(self.d, self.X.KeyPress, code)
        for code in reversed(codes):
            self.xtest.fake_input(self.d, self.X.KeyRelease, code)

    def focus(self, window: Any) -> None:
        window.set_input_focus(self.X.RevertToParent, self.X.CurrentTime)
        self.d.sync()


def _rect(event: Any) -> tuple[int, int, int, int]:
    a = event.area
    return (a.x, a.y, a.width, a.height)


def _inside(r: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    """Whether rectangle ``r`` overlaps ``box``."""
    return (
        r[0] < box[0] + box[2]
        and box[0] < r[0] + r[2]
        and r[1] < box[1] + box[3]
        and (box[1] < r[1] + r[3])
    )


def _is_damage(obs: Observer, event: Any) -> bool:
    # By name: python-xlib loads its extension modules apart (isinstance fails).
    return type(event).__name__ == "DamageNotify"


def _canvas_of(obs: Observer, top: Any) -> tuple[int, int, int, int]:
    """The largest window without children under ``top`` (the table's canvas), in
    ``top``'s coordinates."""
    best = (0, 0, 0, 0)
    stack = [top]
    while stack:
        w = stack.pop()
        try:
            g = w.get_geometry()
            kids = w.query_tree().children
        except obs.error.XError:
            continue
        if not kids and w.id != top.id and g.width * g.height > best[2] * best[3]:
            t = w.translate_coords(top, 0, 0)  # top's origin in w's coordinates
            best = (-t.x, -t.y, g.width, g.height)
        stack.extend(kids)
    return best


def _main_window(obs: Observer, title: str) -> Any:
    for w in obs.root.query_tree().children:
        try:
            name = w.get_wm_name()
        except obs.error.XError:
            continue
        if name and title in str(name):
            return w
    return None


# -- start-up ---------------------------------------------------------------------------
def start(obs: Observer, prog: Program, quiet: float = 1.0, limit: float = 60.0) -> dict:
    """Start ``prog`` and wait for its drawn table; the time it took and its RSS."""
    import psutil

    watched: dict[int, Any] = {}  # damage id -> window
    events: list[tuple[float, Any]] = []
    t0 = time.monotonic()
    prog.proc = subprocess.Popen(
        prog.argv,
        env=prog.env,
        cwd=prog.cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(prog.home, "stderr.log"), "ab"),  # noqa: SIM115
    )
    top = None
    mapped = False
    looked = 0.0
    last_canvas = first_canvas = None
    deadline = t0 + limit
    while time.monotonic() < deadline:
        for stamp, event in obs.collect(0.05):
            kind = getattr(event, "type", None)
            if kind in (obs.X.CreateNotify, obs.X.ReparentNotify) and (
                event.parent.id == obs.root.id
            ):
                watched[obs.watch(event.window)] = event.window
            elif kind == obs.X.MapNotify:
                mapped = True
            elif _is_damage(obs, event):
                events.append((stamp, event))
        if top is None and mapped:
            mapped = False
            top = _main_window(obs, prog.title)
            if top is not None and top.get_attributes().map_state != obs.X.IsViewable:
                top = None
        if top is not None and time.monotonic() - looked >= 0.25:
            looked = time.monotonic()
            canvas = _canvas_of(obs, top)
            hits = [
                s
                for s, e in events
                if e.drawable.id == top.id and _inside(_rect(e), canvas) and canvas[2] > 100
            ]
            if hits:
                first_canvas, last_canvas = hits[0], hits[-1]
                if time.monotonic() - last_canvas >= quiet:
                    break
    else:
        raise RuntimeError(f"{prog.name}: no drawn table within {limit} s")
    for damage_id in watched:
        try:
            obs.d.damage_destroy(damage_id)
        except obs.error.XError:
            pass
    obs.d.sync()
    rss = psutil.Process(prog.proc.pid).memory_info().rss
    prog.top = top
    assert first_canvas is not None and last_canvas is not None
    return {
        "drawn_s": round(last_canvas - t0, 4),
        "first_table_paint_s": round(first_canvas - t0, 4),
        "rss_mb": round(rss / 2**20, 1),
    }


def stop(prog: Program) -> None:
    if prog.proc is None:
        return
    if prog.proc.poll() is None:
        prog.proc.send_signal(signal.SIGTERM)
        try:
            prog.proc.wait(10)
        except subprocess.TimeoutExpired:
            prog.proc.kill()
            prog.proc.wait()
    prog.proc = None
    prog.top = None


# -- latency trials ---------------------------------------------------------------------
def _keep_for(obs: Observer, prog: Program) -> Callable[[Any], bool]:
    top_id = prog.top.id

    def keep(event: Any) -> bool:
        return (
            _is_damage(obs, event)
            and event.drawable.id == top_id
            and _rect(event) not in prog.background
        )

    return keep


def _settle(obs: Observer, prog: Program, quiet: float) -> None:
    obs.burst(_keep_for(obs, prog), quiet, limit=5.0)


def _timed(obs: Observer, prog: Program, send: Callable[[], None], quiet: float) -> dict:
    """Send the input, flush it at a recorded time, return the burst of redraws after."""
    t0 = time.monotonic()
    send()
    obs.d.flush()
    events = obs.burst(_keep_for(obs, prog), quiet)
    if not events:
        raise RuntimeError(f"{prog.name}: no redraw after the input")
    canvas = [s for s, e in events if _inside(_rect(e), prog.canvas)]
    if not canvas:
        raise RuntimeError(f"{prog.name}: the table was not redrawn after the input")
    return {
        "first_ms": round(1000 * (events[0][0] - t0), 3),
        "canvas_ms": round(1000 * (canvas[0] - t0), 3),
        "settled_ms": round(1000 * (events[-1][0] - t0), 3),
        "rects": len(events),
        "first_rect": list(_rect(events[0][1])),
    }


def _origin(prog: Program) -> tuple[int, int]:
    g = prog.top.get_geometry()
    return g.x, g.y


def trial_move(obs: Observer, prog: Program, quiet: float) -> dict:
    (x0, y0), (x1, y1) = DRAG[prog.name]
    ox, oy = _origin(prog)
    obs.focus(prog.top)
    obs.pointer(ox + x0, oy + y0)
    _settle(obs, prog, 0.15)
    obs.button(True)
    obs.d.sync()
    time.sleep(0.03)
    for i in range(1, 11):
        obs.pointer(ox + x0 + (x1 - x0) * i // 10, oy + y0 + (y1 - y0) * i // 10)
        time.sleep(0.015)
    _settle(obs, prog, 0.15)
    return _timed(obs, prog, lambda: obs.button(False), quiet)


def trial_key_move(obs: Observer, prog: Program, quiet: float) -> dict:
    obs.focus(prog.top)
    (x0, _), _ = DRAG[prog.name]
    ox, oy = _origin(prog)
    obs.pointer(ox + x0, oy + 680)  # on the table, below the cards
    _settle(obs, prog, 0.15)
    return _timed(obs, prog, lambda: obs.keys([ord("g")]), quiet)


def trial_undo(obs: Observer, prog: Program, quiet: float) -> dict:
    obs.focus(prog.top)
    _settle(obs, prog, 0.15)
    return _timed(obs, prog, lambda: obs.keys([0xFFE3, ord("z")]), quiet)  # Control_L, z


def snapshot(obs: Observer, prog: Program) -> bytes:
    x, y, w, h = prog.canvas
    return (
        obs.d.screen()
        .root.get_image(_origin(prog)[0] + x, _origin(prog)[1] + y, w, h, obs.X.ZPixmap, 0xFFFFFFFF)
        .data
    )


def check_move(obs: Observer, prog: Program, quiet: float, move: Callable[..., dict]) -> None:
    """Check the move changes the table and the undo restores it, pixel for pixel."""
    before = snapshot(obs, prog)
    move(obs, prog, quiet)
    _settle(obs, prog, quiet)
    moved = snapshot(obs, prog)
    trial_undo(obs, prog, quiet)
    _settle(obs, prog, quiet)
    after = snapshot(obs, prog)
    if moved == before:
        raise RuntimeError(f"{prog.name}: the move did not change the table")
    if after != before:
        raise RuntimeError(f"{prog.name}: the undo did not restore the table")


def summary(values: Sequence[float]) -> dict:
    return {
        "n": len(values),
        "median": round(statistics.median(values), 2),
        "p90": round(percentile(values, 90), 2),
        "min": round(min(values), 2),
        "max": round(max(values), 2),
    }


# -- set-up -----------------------------------------------------------------------------
def free_display(numbers: Sequence[int]) -> int:
    for n in numbers:
        if not os.path.exists(f"/tmp/.X{n}-lock") and not os.path.exists(f"/tmp/.X11-unix/X{n}"):
            return n
    sys.exit(f"no free X display among :{numbers[0]}-:{numbers[-1]}")


def start_xvfb(number: int) -> subprocess.Popen[bytes]:
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        sys.exit("bench_redraw needs Xvfb (Debian package xvfb)")
    proc = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        if os.path.exists(f"/tmp/.X11-unix/X{number}"):
            time.sleep(0.2)
            return proc
        time.sleep(0.05)
    proc.kill()
    sys.exit(f"Xvfb :{number} did not start")


def solitaire_argv() -> list[str]:
    script = Path(sys.executable).with_name("solitaire")
    base = [str(script)] if script.exists() else [sys.executable, "-m", "solitaire_core"]
    return [*base, "play", "seahaven", "--deal", "1"]


def make_programs(args: argparse.Namespace, display: str, scratch: str) -> list[Program]:
    env = dict(os.environ, DISPLAY=display)
    env.pop("SOLITAIRE_TIMING", None)
    home = os.path.join(scratch, "ours")
    os.makedirs(home)
    ours = Program(
        "ours",
        solitaire_argv(),
        dict(env, HOME=home, SOLITAIRE_HOME=home),
        str(ROOT),
        "Towers Solitaire",
        home,
    )
    programs = [ours]
    pysol = args.pysolfc
    if not pysol or not os.path.isfile(os.path.join(pysol, "pysol.py")):
        print(
            "PySolFC skipped: no PySolFC source tree given (--pysolfc DIR or PYSOLFC_DIR) "
            "or no pysol.py in it; see this script's docstring",
            file=sys.stderr,
        )
        return programs
    if not any(p.name.startswith("cardset-") for p in Path(pysol, "data").iterdir()):
        print(f"PySolFC skipped: no card sets in {pysol}/data", file=sys.stderr)
        return programs
    check = subprocess.run(
        [args.pysolfc_python, "-c", "import tkinter, PIL, pysol_cards, attr, configobj"],
        env=env,
        capture_output=True,
        text=True,
    )
    if check.returncode:
        print(f"PySolFC skipped: {check.stderr.strip().splitlines()[-1]}", file=sys.stderr)
        return programs
    home = os.path.join(scratch, "pysolfc")
    os.makedirs(os.path.join(home, ".PySolFC"))
    Path(home, ".PySolFC", "options.cfg").write_text(PYSOLFC_OPTIONS)
    argv = [args.pysolfc_python, "pysol.py", "--nosound", "--game", "Seahaven Towers"]
    programs.append(
        Program(
            "pysolfc",
            [*argv, "--deal", "1"],
            dict(env, HOME=home),
            pysol,
            "PySol - Seahaven Towers",
            home,
        )
    )
    return programs


def pysolfc_version(path: str) -> str:
    ns: dict[str, Any] = {}
    text = Path(path, "pysollib", "settings.py").read_text()
    for line in text.splitlines():
        if line.startswith("VERSION_TUPLE"):
            exec(line, ns)  # noqa: S102 - a tuple literal from PySolFC's own file
    return ".".join(map(str, ns.get("VERSION_TUPLE", ("?",))))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=75, help="trials of each kind (75)")
    parser.add_argument("--starts", type=int, default=5, help="timed start-ups of each (5)")
    parser.add_argument("--quiet", type=float, default=0.5, help="end of a burst (s)")
    parser.add_argument("--pysolfc", default=os.environ.get("PYSOLFC_DIR"))
    parser.add_argument("--pysolfc-python", default=sys.executable)
    parser.add_argument(
        "--pysolfc-commit", help="the PySolFC commit the tree came from (for the record)"
    )
    parser.add_argument("--display", type=int, help="X display number (default: a free :31-:39)")
    parser.add_argument("--json", default=str(RESULTS), help="output file ('-': stdout)")
    args = parser.parse_args(argv)
    _xlib()
    import psutil

    number = args.display if args.display is not None else free_display(range(31, 40))
    xvfb = start_xvfb(number)
    scratch = tempfile.mkdtemp(prefix="bench_redraw_")
    programs: list[Program] = []
    load_before = os.getloadavg()
    try:
        obs = Observer(f":{number}")
        programs = make_programs(args, f":{number}", scratch)
        result: dict[str, Any] = {"programs": {}}

        # Start-ups: one untimed of each, then interleaved.
        starts: dict[str, list[dict]] = {p.name: [] for p in programs}
        for i in range(args.starts + 1):
            order = programs if i % 2 == 0 else programs[::-1]
            for prog in order:
                figures = start(obs, prog)
                stop(prog)
                if i:
                    starts[prog.name].append(figures)
                    print(f"start {prog.name}: {figures}", file=sys.stderr)

        # Latency: both windows side by side.
        for prog in programs:
            start(obs, prog)
            if prog.name == "pysolfc":
                prog.top.configure(x=PYSOL_X, y=0)
                obs.d.sync()
        obs.collect(1.0)
        for prog in programs:
            prog.canvas = _canvas_of(obs, prog.top)
            prog.damage = obs.watch(prog.top)
        obs.d.sync()
        for _, event in obs.collect(2.0):
            if _is_damage(obs, event):
                for prog in programs:
                    if event.drawable.id == prog.top.id:
                        prog.background.add(_rect(event))
        # The first (full) expose of each window is not the background: drop rects as
        # large as the window.
        for prog in programs:
            g = prog.top.get_geometry()
            prog.background = {r for r in prog.background if r[2] * r[3] < g.width * g.height / 4}
            check_move(obs, prog, args.quiet, trial_move)
        ours = programs[0]
        check_move(obs, ours, args.quiet, trial_key_move)

        trials: dict[str, dict[str, list[dict]]] = {
            p.name: {"move": [], "undo": []} for p in programs
        }
        trials["ours"]["key_move"] = []
        trials["ours"]["key_undo"] = []
        for i in range(args.trials):
            order = programs if i % 2 == 0 else programs[::-1]
            for prog in order:
                trials[prog.name]["move"].append(trial_move(obs, prog, args.quiet))
                trials[prog.name]["undo"].append(trial_undo(obs, prog, args.quiet))
            trials["ours"]["key_move"].append(trial_key_move(obs, ours, args.quiet))
            trials["ours"]["key_undo"].append(trial_undo(obs, ours, args.quiet))
            if (i + 1) % 10 == 0:
                print(f"round {i + 1}/{args.trials}", file=sys.stderr)
        for prog in programs:
            check_move(obs, prog, args.quiet, trial_move)
        rss_after = {
            p.name: round(psutil.Process(p.proc.pid).memory_info().rss / 2**20, 1)
            for p in programs
            if p.proc
        }

        for prog in programs:
            entry: dict[str, Any] = {
                "command": prog.argv,
                "window": [prog.top.get_geometry().width, prog.top.get_geometry().height],
                "canvas": list(prog.canvas),
                "ignored_rects": sorted(prog.background),
            }
            for kind, rows in trials[prog.name].items():
                entry[kind] = {
                    key: summary([r[key] for r in rows])
                    for key in ("first_ms", "canvas_ms", "settled_ms")
                }
                entry[kind]["trials"] = rows
            runs = starts[prog.name]
            entry["startup"] = {
                "drawn_s": summary([r["drawn_s"] for r in runs]),
                "first_table_paint_s": summary([r["first_table_paint_s"] for r in runs]),
                "rss_mb": summary([r["rss_mb"] for r in runs]),
                "runs": runs,
            }
            entry["rss_mb_after_trials"] = rss_after.get(prog.name)
            result["programs"][prog.name] = entry
    finally:
        for prog in programs:
            stop(prog)
        xvfb.terminate()
        xvfb.wait()
        shutil.rmtree(scratch, ignore_errors=True)

    versions = {"ours": _our_version(), "ours_commit": _git_head(str(ROOT))}
    if args.pysolfc and "pysolfc" in result["programs"]:
        versions["pysolfc"] = pysolfc_version(args.pysolfc)
        versions["pysolfc_commit"] = args.pysolfc_commit or _git_head(args.pysolfc)
    doc = {
        "benchmark": "bench_redraw",
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "versions": versions,
        "settings": {
            "trials": args.trials,
            "starts": args.starts,
            "quiet_s": args.quiet,
            "screen": list(SCREEN),
            "deal": "Seahaven Towers 1 (PySolFC game 9, deal 1)",
            "move": "8C (column G) onto 9C (column J); drag, timed from the button release",
            "undo": "Ctrl+Z",
        },
        **result,
    }
    text = json.dumps(doc, indent=1)
    if args.json == "-":
        print(text)
    else:
        Path(args.json).write_text(text + "\n")
    print_table(doc)
    return 0


def _our_version() -> str:
    try:
        from importlib.metadata import version

        return version("towers-solitaire")
    except Exception:  # noqa: BLE001
        return "?"


def _git_head(path: str) -> str | None:
    out = subprocess.run(
        ["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or None


def print_table(doc: dict) -> None:
    rows = [("move (drag)", "move"), ("undo (Ctrl+Z)", "undo"), ("move (key g)", "key_move")]
    for name, entry in doc["programs"].items():
        print(f"{name}:", file=sys.stderr)
        for label, kind in rows:
            if kind in entry:
                f, c, s = (entry[kind][k] for k in ("first_ms", "canvas_ms", "settled_ms"))
                print(
                    f"  {label:<15} first {f['median']:6.2f} ms (p90 {f['p90']:6.2f})  "
                    f"canvas {c['median']:6.2f} (p90 {c['p90']:6.2f})  "
                    f"settled {s['median']:7.2f} (p90 {s['p90']:7.2f})",
                    file=sys.stderr,
                )
        st = entry["startup"]
        print(
            f"  start-up to drawn table {st['drawn_s']['median']:.2f} s, "
            f"RSS {st['rss_mb']['median']:.1f} MB",
            file=sys.stderr,
        )


if __name__ == "__main__":
    sys.exit(main())
