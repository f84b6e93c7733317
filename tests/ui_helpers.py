"""Helpers for the table tests: open the game window on a variant or a built position,
and send real Tk events (pointer and keys) to it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tkinter as tk
from collections.abc import Callable

import attrs
from solitaire_tk.shell.app import App
from solitaire_tk.shell.persist import AppStore
from solitaire_tk.table.layout import reserve_piles, talon_piles
from solitaire_tk.table.view import TableView

from solitaire_core.cards import Card
from solitaire_core.moves import PileKind, PileRef
from solitaire_core.plugins import get_registry
from solitaire_core.session import Session
from solitaire_core.state import GameState

B1 = 0x100  # Button1 mask in an event's state
SHIFT = 0x1
CONTROL = 0x4


def open_app(
    root: tk.Tk,
    home,
    variant: str = "seahaven",
    deal: int = 1,
    *,
    ask_leave: bool = False,
    **options: str,
) -> App:
    """The game window on ``variant``'s deal ``deal``, dialogs non-modal, animation off;
    leaving a game for another does not ask first unless ``ask_leave`` (the setting
    ``confirm_leave``, saved in ``home``)."""
    store = AppStore(home, registry=get_registry())
    if store.settings.confirm_leave != ask_leave:
        store.save_settings(attrs.evolve(store.settings, confirm_leave=ask_leave))
    app = App(root, store=store, variant=variant, deal=deal, options=options, modal=False)
    app.view.animation = False
    settle(app)
    return app


def put(app: App, state: GameState, deal: int = 7) -> Session:
    """Put a built position on the table (the variant's autoplay runs first, as in a
    deal)."""
    session = Session(state.rules, deal, state=state)
    app.begin(session)
    settle(app)
    return session


def close(root: tk.Tk) -> None:
    """Destroy a test's root window, with no timer left to fire into it."""
    try:
        for job in root.tk.splitlist(root.tk.call("after", "info")):
            root.tk.call("after", "cancel", job)
        root.destroy()
    except tk.TclError:  # already destroyed (the test closed the window itself)
        pass


def settle(app: App) -> None:
    """Let the window draw (and lay out for its real size)."""
    app.root.update()
    app.view.relayout()
    app.root.update()


def ref(text: str) -> PileRef:
    """``"t3"`` -> the third column, ``"c1"``, ``"f2"``."""
    return PileRef.parse(text)


def card(text: str) -> Card:
    """``"5H"`` -> that card (``"5H'"`` for the second deck's)."""
    return Card.parse(text.rstrip("'"), deck=len(text) - len(text.rstrip("'")))


_clock = [1_000_000]


def event_time(gap: int = 1000) -> int:
    """An X event time ``gap`` ms after the previous one (Tk tells a double click from
    two clicks by these times)."""
    _clock[0] += gap
    return _clock[0]


def click_at(view: TableView, x: int, y: int, *, gap: int = 1000) -> None:
    """A left click at canvas point (x, y), ``gap`` ms after the previous click."""
    view.event_generate("<ButtonPress-1>", x=x, y=y, time=event_time(gap))
    view.event_generate("<ButtonRelease-1>", x=x, y=y, state=B1, time=event_time(50))
    view.update()


def click_card(view: TableView, which: str) -> None:
    """Click the visible part of a card."""
    x, y = view.card_center(card(which))
    click_at(view, x, y)


def drag(
    view: TableView, start: tuple[int, int], end: tuple[int, int], *, release: bool = True
) -> None:
    """Press at ``start``, move in steps to ``end``, release there."""
    (x0, y0), (x1, y1) = start, end
    view.event_generate("<ButtonPress-1>", x=x0, y=y0, time=event_time())
    steps = 6
    for i in range(1, steps + 1):
        x = x0 + (x1 - x0) * i // steps
        y = y0 + (y1 - y0) * i // steps
        view.event_generate("<Motion>", x=x, y=y, state=B1)
    view.update()
    if release:
        view.event_generate("<ButtonRelease-1>", x=x1, y=y1, state=B1)
        view.update()


def key(widget: tk.Misc, keysym: str, state: int = 0) -> None:
    """Type a key (``state`` holds Shift/Control bits) into the focused table."""
    widget.focus_force()
    widget.update()
    widget.event_generate("<KeyPress>", keysym=keysym, state=state)
    widget.event_generate("<KeyRelease>", keysym=keysym, state=state)
    widget.update()


def item_xy(view: TableView, which: str) -> tuple[int, int]:
    """Where the canvas draws a card (its top-left corner)."""
    x, y = view.coords(view.item_of(card(which)))
    return round(x), round(y)


def expected_xy(view: TableView, pile: str, index: int) -> tuple[int, int]:
    """Where the layout puts the card at ``index`` of ``pile`` in the shown state."""
    assert view.layout is not None and view.state is not None
    r = ref(pile)
    return view.layout.card_xy(r, index, len(view.state.pile(r)))


def top_item_at(view: TableView, x: int, y: int) -> int:
    """The topmost card item at a canvas point."""
    items = [i for i in view.find_overlapping(x, y, x, y) if "card" in view.gettags(i)]
    assert items, f"no card at {(x, y)}"
    return items[-1]


def toplevels(root: tk.Misc) -> list[tk.Toplevel]:
    """The dialogs open over ``root``."""
    return [w for w in root.winfo_children() if isinstance(w, tk.Toplevel) and w.winfo_exists()]


def piles_of(state: GameState) -> list[PileRef]:
    """Every numbered pile of a state."""
    refs = [PileRef(PileKind.TABLEAU, i) for i in range(len(state.columns))]
    refs += [PileRef(PileKind.CELL, i) for i in range(len(state.cells))]
    refs += [PileRef(PileKind.FOUNDATION, i) for i in range(len(state.foundations))]
    refs += list(talon_piles(state.rules))  # the stock and the waste, where the game has them
    refs += list(reserve_piles(state.rules))
    return refs


def start_play(home, *args: str) -> subprocess.Popen[str]:
    """Start ``solitaire play ARGS`` with its data in ``home`` and wait for its first
    drawn table (the ``first-draw`` line ``SOLITAIRE_TIMING`` asks for)."""
    env = {**os.environ, "SOLITAIRE_HOME": str(home), "SOLITAIRE_TIMING": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "solitaire_core", "play", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    line = proc.stdout.readline()
    if not line.startswith("first-draw "):
        proc.terminate()
        proc.wait(timeout=30)
        raise AssertionError(proc.stderr.read() if not line else line)
    return proc


def click_button(button: tk.Misc) -> None:
    """A real click on a (ttk) button."""
    button.update()
    button.event_generate("<Enter>", x=5, y=5)
    button.event_generate("<ButtonPress-1>", x=5, y=5)
    button.event_generate("<ButtonRelease-1>", x=5, y=5)
    button.update()


def pump(root: tk.Misc, until: Callable[[], bool], seconds: float = 20.0) -> None:
    """Run the Tk event loop until ``until()`` holds (fails after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "timed out waiting for the window"
        root.update()
        time.sleep(0.005)


def xdotool(*args: str) -> None:
    """Send real X input (``xdotool mousemove --sync X Y``, ``click 1``, ``key c``...)."""
    subprocess.run(["xdotool", *args], check=True, timeout=20)


def real_click(root: tk.Misc, view: tk.Misc, x: int, y: int) -> None:
    """A real X click (xdotool) at ``view``'s point ``(x, y)``, which must be on the screen."""
    root.lift()
    root.update()
    x, y = view.winfo_rootx() + x, view.winfo_rooty() + y
    assert 0 <= x < root.winfo_screenwidth() and 0 <= y < root.winfo_screenheight(), (x, y)
    xdotool("mousemove", "--sync", str(x), str(y))
    xdotool("click", "1")


def real_drag(
    root: tk.Misc, view: tk.Misc, start: tuple[int, int], end: tuple[int, int], steps: int = 8
) -> None:
    """A real X drag (xdotool) on ``view``: pressed at ``start``, moved to ``end`` in
    ``steps`` steps (Tk handling each), released there; both points on the screen."""
    root.lift()
    root.update()

    def on_screen(x: int, y: int) -> tuple[str, str]:
        x, y = view.winfo_rootx() + x, view.winfo_rooty() + y
        assert 0 <= x < root.winfo_screenwidth() and 0 <= y < root.winfo_screenheight(), (x, y)
        return str(x), str(y)

    xdotool("mousemove", "--sync", *on_screen(*start))
    xdotool("mousedown", "1")
    for k in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * k // steps
        y = start[1] + (end[1] - start[1]) * k // steps
        xdotool("mousemove", "--sync", *on_screen(x, y))
        root.update()
    xdotool("mouseup", "1")


def wait_for(root: tk.Misc, condition: Callable[[], bool], seconds: float = 5) -> bool:
    """Let Tk handle events until ``condition()`` holds (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        root.update()
        if condition():
            return True
        time.sleep(0.02)
    return False
