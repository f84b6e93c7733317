"""Screens of a chosen size for the GUI tests: an Xvfb server of its own (the suite's
pytest-xvfb screen has one fixed size), a Tk root window on it, real X input there
(xdotool), the window manager's "close" message, and screenshots.

Use the fixtures ``screen`` and ``screen_root`` by importing them into a test module::

    from screens import screen_fixture, screen_root_fixture  # noqa: F401 (fixtures)

and parametrize ``screen`` indirectly with sizes, ``"1024x600"``, ``"1366x768"``.
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import gc
import os
import shutil
import subprocess
import time
import tkinter as tk
from collections.abc import Iterator
from pathlib import Path

import pytest
from ui_helpers import close, pump

SMALL_SCREENS = ("1024x600", "1366x768")
"""The screens every window must fit: a netbook's, and the most common laptop's."""


class Screen:
    """An Xvfb server showing one screen of ``width`` x ``height`` pixels, on a free
    display number.

    Tk keeps its connection to a display until the process ends, and ends the process
    when that server goes away; so a server a Tk window was opened on is not stopped:
    it stops by itself when its last client (this process) has gone (``-terminate``).
    A server no Tk window used is stopped when the process exits.

    :param size: ``"WIDTHxHEIGHT"`` in pixels.
    :raises RuntimeError: Xvfb did not start.
    """

    def __init__(self, size: str) -> None:
        self.width, self.height = (int(n) for n in size.split("x"))
        self.used = False  # a Tk window was opened on it
        read, write = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size}x24", "-nolisten", "tcp",
             "-terminate"],
            pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        os.close(write)
        number = b""
        deadline = time.monotonic() + 30
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        os.close(read)
        if not number.strip().isdigit():
            self.process.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number.decode().strip()}"
        atexit.register(self.stop)

    def tk(self) -> tk.Tk:
        """A new Tk root window on this screen. Tk sets the process's ``DISPLAY`` to the
        screen it opens (through Tcl's ``env``, beneath :data:`os.environ`): it is set
        back, so the suite's other windows keep opening on pytest-xvfb's screen."""
        self.used = True
        display = os.environ.get("DISPLAY")
        try:
            return tk.Tk(screenName=self.display)
        finally:
            if display is None:
                os.unsetenv("DISPLAY")
            else:
                os.environ["DISPLAY"] = display  # putenv: the C environment Tcl reads

    def run(self, *command: str) -> None:
        """Run an X client (``xdotool ...``, ``import ...``) on this screen."""
        env = {**os.environ, "DISPLAY": self.display}
        subprocess.run(command, check=True, timeout=30, env=env)

    def click(self, widget: tk.Misc, button: int = 1, *, settle: float = 0.2) -> None:
        """A real click (pointer moved there, pressed, released) in the middle of
        ``widget``, then ``settle`` seconds of Tk's event loop to handle it; button 4
        and 5 are the mouse wheel's steps up and down."""
        root = widget._root()
        widget.update()
        x = widget.winfo_rootx() + widget.winfo_width() // 2
        y = widget.winfo_rooty() + widget.winfo_height() // 2
        if root.winfo_pointerxy() == (x, y):
            # "mousemove --sync" to where the pointer is waits for a motion that never
            # comes (xdotool gives up after some 15 s): click where it is.
            self.run("xdotool", "click", str(button))
        else:
            self.run("xdotool", "mousemove", "--sync", str(x), str(y), "click", str(button))
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline:
            root.update()
            time.sleep(0.01)

    def screenshot(self, name: str) -> Path | None:
        """Save the whole screen as ``$SOLITAIRE_SCREENSHOTS/NAME.png`` when that
        variable names a folder (to look at the windows as a player); else nothing."""
        folder = os.environ.get("SOLITAIRE_SCREENSHOTS")
        if not folder or not shutil.which("import"):
            return None
        path = Path(folder) / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.run("import", "-window", "root", str(path))
        return path

    def stop(self) -> None:
        """Stop the server, unless a Tk window was opened on it (see the class)."""
        if self.used or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_SCREENS: dict[str, Screen] = {}


@pytest.fixture(scope="session", name="screen")
def screen_fixture(request: pytest.FixtureRequest) -> Screen:
    """A screen of the size the test is parametrized with (``indirect``), default the
    smallest of :data:`SMALL_SCREENS`; one server per size for the whole run."""
    if not shutil.which("Xvfb") or not shutil.which("xdotool"):
        pytest.skip("needs Xvfb and xdotool")
    size = getattr(request, "param", SMALL_SCREENS[0])
    if size not in _SCREENS:
        _SCREENS[size] = Screen(size)
    return _SCREENS[size]


@pytest.fixture(name="screen_root")
def screen_root_fixture(screen: Screen) -> Iterator[tk.Tk]:
    """A small Tk root window at the top-left corner of ``screen``, destroyed afterwards
    (the windows under test are its Toplevels). Garbage is collected before and after on
    this, the main thread: Tk objects in reference cycles collected on a background
    thread (the editor's checks) would abort Tcl."""
    gc.collect()
    root = screen.tk()
    root.geometry("200x150+0+0")
    root.update()
    yield root
    close(root)
    gc.collect()


def inside(widget: tk.Misc, width: int, height: int) -> bool:
    """Whether ``widget`` is mapped and wholly within a ``width`` x ``height`` area
    from the screen's top-left corner, and within its own window (not cut off by it)."""
    widget.update_idletasks()
    if not widget.winfo_ismapped() or not widget.winfo_viewable():
        return False
    top = widget.winfo_toplevel()
    x, y = widget.winfo_rootx(), widget.winfo_rooty()
    right, bottom = x + widget.winfo_width(), y + widget.winfo_height()
    tx, ty = top.winfo_rootx(), top.winfo_rooty()
    in_window = tx <= x and ty <= y
    in_window = in_window and right <= tx + top.winfo_width()
    in_window = in_window and bottom <= ty + top.winfo_height()
    return in_window and 0 <= x and 0 <= y and right <= width and bottom <= height


def find_button(window: tk.Misc, text: str) -> tk.Misc:
    """The (ttk or tk) button of ``window`` whose label is ``text``."""
    todo = [window]
    while todo:
        widget = todo.pop()
        todo.extend(widget.winfo_children())
        if widget.winfo_class() in ("TButton", "Button") and str(widget.cget("text")) == text:
            return widget
    raise AssertionError(f"no button {text!r} in {window}")


wait_until = pump
"""``wait_until(root, condition, seconds=20.0)``: run the Tk event loop until
``condition()`` holds (fails after ``seconds``); :func:`ui_helpers.pump`."""


class _ClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class _XEvent(ctypes.Union):
    _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]


def close_box(window: tk.Wm, screen: Screen) -> None:
    """Press the window's close box as a window manager does: send the window the X
    client message ``WM_PROTOCOLS`` / ``WM_DELETE_WINDOW`` (ICCCM 4.2.8.1), from a
    connection of its own. Tk runs the window's ``WM_DELETE_WINDOW`` protocol handler
    when it handles the event.

    :raises RuntimeError: libX11 is missing or the display does not open.
    """
    name = ctypes.util.find_library("X11")
    if name is None:
        raise RuntimeError("libX11 not found")
    xlib = ctypes.CDLL(name)
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XInternAtom.restype = ctypes.c_ulong
    xlib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    xlib.XSendEvent.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(_XEvent),
    ]  # fmt: skip
    xlib.XFlush.argtypes = xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = xlib.XOpenDisplay(screen.display.encode())
    if not display:
        raise RuntimeError(f"cannot open display {screen.display}")
    try:
        event = _XEvent()
        message = event.xclient
        message.type = 33  # ClientMessage
        message.send_event = 1
        message.window = int(window.wm_frame(), 16)  # the window the manager knows
        message.message_type = xlib.XInternAtom(display, b"WM_PROTOCOLS", 0)
        message.format = 32
        message.data[0] = xlib.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
        message.data[1] = 0  # CurrentTime
        xlib.XSendEvent(display, message.window, 0, 0, ctypes.byref(event))
        xlib.XFlush(display)
    finally:
        xlib.XCloseDisplay(display)
