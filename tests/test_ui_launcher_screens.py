"""The launcher on small screens and as the player's folder changes, in real Tk windows on
Xvfb screens of their own sizes (tests/screens.py) with real X input (xdotool): Play,
Rules and "Back to ..." always in reach, the deal field and Play in fixed places, the
filter's exact and prefix matches first, and the variants folder read again while the
launcher is open.

Set ``SOLITAIRE_SCREENSHOTS`` to a folder to keep a screenshot of each screen.
"""

from __future__ import annotations

import re
import tkinter as tk

import pytest
import solitaire_tk.launcher.window as launcher_module
from screens import (  # noqa: F401 (the fixtures screen and screen_root)
    SMALL_SCREENS,
    inside,
    screen_fixture,
    screen_root_fixture,
    wait_until,
)
from solitaire_tk.launcher.window import Launcher
from solitaire_tk.shell.app import App
from solitaire_tk.shell.persist import AppStore
from ui_helpers import wait_for

from solitaire_core.persistence.paths import user_variants_dir
from solitaire_core.plugins import USER_PLUGIN, Registry, get_registry
from solitaire_core.uservariants import new_user_variant

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

REGISTRY = get_registry()

SAMPLE = ("seahaven", "sea-towers", "freecell")
"""Games whose right-hand sides differ: no option, one option box, another family."""


def own_registry() -> Registry:
    """A copy of the installed variants that a test may add to and rescan freely."""
    return Registry(
        variants=dict(REGISTRY.variants),
        predicates=dict(REGISTRY.predicates),
        deal_methods=dict(REGISTRY.deal_methods),
        problems=list(REGISTRY.problems),
    )


class Played:
    """Records on_play calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, str], int | None]] = []

    def __call__(self, variant: str, options: dict[str, str], deal: int | None) -> None:
        self.calls.append((variant, options, deal))


def launcher_window(root: tk.Tk, registry: Registry = REGISTRY):
    """A launcher alone in a new window at the screen's top-left corner, as large as it
    asks to be (no size set), drawn."""
    window = tk.Toplevel(root)
    window.geometry("+0+0")
    played = Played()
    launcher = Launcher(window, registry=registry, on_play=played, modal=False)
    launcher.pack(fill="both", expand=True)
    wait_until(root, lambda: launcher.play_button.winfo_viewable())
    root.update()
    return launcher, played


def window_inside(window: tk.Misc, width: int, height: int) -> bool:
    """Whether the whole toplevel window of ``window`` is on a ``width`` x ``height``
    screen: its menu bar (between the place ``wm geometry`` gives, the window's outer
    corner, and the top of its content) and its content."""
    window.update_idletasks()
    top = window.winfo_toplevel()
    x, y = (int(n) for n in re.findall(r"[+-]\d+", top.wm_geometry()))
    return (
        x >= 0
        and y >= 0
        and top.winfo_rootx() + top.winfo_width() <= width
        and top.winfo_rooty() + top.winfo_height() <= height
    )


@pytest.mark.parametrize("screen", SMALL_SCREENS, indirect=True)
def test_the_game_window_launcher_fits_the_screen_with_its_buttons_in_reach(
    screen, screen_root, solitaire_home
):
    """The game window opens at its saved size (1100 x 760 below the menu bar by
    default); the launcher in it makes the window fit the screen, and Play, Rules and
    "Back to ..." are on the screen for every kind of game."""
    store = AppStore(solitaire_home, registry=REGISTRY)
    app = App(screen_root, store=store, modal=False)
    launcher = app.launcher
    assert launcher is not None
    wait_until(screen_root, lambda: window_inside(launcher, screen.width, screen.height))
    for variant in SAMPLE:
        launcher.select(variant)
        screen_root.update()
        for button in (launcher.play_button, launcher.rules_button, launcher.deal_entry):
            assert inside(button, screen.width, screen.height), (variant, str(button))
    screen.screenshot(f"launcher-{screen.width}x{screen.height}")
    launcher.select("sea-towers")
    screen.click(launcher.play_button)  # a real click, where the player sees Play
    wait_until(screen_root, lambda: app.launcher is None and app.session is not None)
    app.show_launcher()
    launcher = app.launcher
    wait_until(screen_root, lambda: launcher.back_button.winfo_viewable())
    assert window_inside(launcher, screen.width, screen.height)
    for button in (launcher.back_button, launcher.play_button, launcher.rules_button):
        assert inside(button, screen.width, screen.height), str(button)
    assert launcher.back_button.cget("text").startswith("Back to Sea Towers")
    screen.screenshot(f"launcher-back-{screen.width}x{screen.height}")
    screen.click(launcher.back_button)
    wait_until(screen_root, lambda: app.launcher is None)


@pytest.mark.parametrize("screen", SMALL_SCREENS, indirect=True)
def test_a_launcher_window_left_to_its_own_size_fits_the_screen(screen, screen_root):
    launcher, _played = launcher_window(screen_root)
    assert window_inside(launcher, screen.width, screen.height)
    launcher.select("sea-towers")
    screen_root.update()
    assert inside(launcher.play_button, screen.width, screen.height)
    # The option box below the picture is reached with the mouse wheel (real X clicks of
    # buttons 5) where the screen is too short to show it at once.
    box = launcher.option_buttons[("empty_columns", "any")].master
    for _step in range(12):
        if in_view(box, launcher.details.canvas):
            break
        assert launcher.details.can_scroll()
        screen.click(launcher.details.canvas, button=5)
    assert in_view(box, launcher.details.canvas)
    assert inside(box, screen.width, screen.height)
    assert inside(launcher.play_button, screen.width, screen.height)
    screen.screenshot(f"launcher-scrolled-{screen.width}x{screen.height}")


def in_view(widget: tk.Misc, view: tk.Misc) -> bool:
    """Whether ``widget`` shows whole within the visible part of ``view`` (a canvas)."""
    widget.update_idletasks()
    top, bottom = widget.winfo_rooty(), widget.winfo_rooty() + widget.winfo_height()
    return view.winfo_rooty() <= top and bottom <= view.winfo_rooty() + view.winfo_height()


@pytest.mark.parametrize("screen", ["1366x768"], indirect=True)
def test_the_deal_field_and_play_stay_in_place(screen, screen_root):
    """From game to game, and when no game matches the filter, the deal field and Play
    do not move, the list keeps its width and the picture is not cut off."""
    launcher, _played = launcher_window(screen_root)

    def places():
        screen_root.update()
        where = {
            name: (widget.winfo_rootx(), widget.winfo_rooty())
            for name, widget in (
                ("deal", launcher.deal_entry),
                ("play", launcher.play_button),
                ("rules", launcher.rules_button),
            )
        }
        where["picture x"] = launcher.preview_label.winfo_rootx()  # below a summary
        return where

    first = places()
    list_width = launcher.tree.winfo_width()
    for variant in (*SAMPLE, "double-sea-towers", "seahaven"):
        launcher.select(variant)
        assert places() == first, variant
    launcher.filter_var.set("no such game")
    assert "No game matches" in launcher.filter_message.cget("text")
    assert places() == first
    assert launcher.tree.winfo_width() == list_width
    top = launcher.winfo_toplevel()
    right = launcher.preview_label.winfo_rootx() + launcher.preview_label.winfo_width()
    assert right <= top.winfo_rootx() + top.winfo_width()
    screen.screenshot("launcher-no-match")


@pytest.mark.parametrize("screen", ["1024x600"], indirect=True)
def test_the_filter_puts_exact_and_prefix_matches_first(screen, screen_root):
    launcher, played = launcher_window(screen_root)
    screen.click(launcher.filter_entry)
    wait_until(screen_root, lambda: launcher.focus_get() is launcher.filter_entry)
    screen.run("xdotool", "type", "--delay", "20", "freecell")
    wait_until(screen_root, lambda: launcher.filter_var.get() == "freecell")
    assert launcher.visible_variants()[0] == "freecell"
    assert launcher.selected_variant == "freecell"
    screen.run("xdotool", "key", "Return")
    wait_until(screen_root, lambda: played.calls != [])
    assert played.calls == [("freecell", {}, None)]

    # Ctrl+A selects the whole filter, so what is typed next replaces it.
    screen.run("xdotool", "key", "ctrl+a")
    wait_until(screen_root, lambda: launcher.filter_entry.selection_present())
    assert launcher.filter_entry.index("sel.first") == 0
    assert launcher.filter_entry.index("sel.last") == len("freecell")
    screen.run("xdotool", "type", "--delay", "20", "seahaven towers")
    wait_until(screen_root, lambda: launcher.filter_var.get() == "seahaven towers")
    assert launcher.visible_variants()[0] == "seahaven"  # not Sea Towers, first by name
    screen.run("xdotool", "key", "Return")
    wait_until(screen_root, lambda: len(played.calls) == 2)
    assert played.calls[-1] == ("seahaven", {}, None)

    launcher.filter_var.set("Sea")  # names that start so come first, in name order
    screen_root.update()
    assert launcher.visible_variants()[:2] == ["sea-towers", "seahaven"]
    launcher.filter_var.set("bakers game")  # the apostrophe need not be typed
    screen_root.update()
    assert launcher.visible_variants()[0] == "bakers-game"
    assert launcher.selected_variant == "bakers-game"


def test_a_file_made_while_the_launcher_is_open_is_listed_on_focus(root, monkeypatch):
    """``solitaire variant new`` while the launcher is open: the launcher lists the new
    file (and names a bad one) as soon as its window gets the focus again."""
    monkeypatch.setattr(launcher_module, "RESCAN_MS", 10**7, raising=False)  # no look but on focus
    registry = own_registry()
    launcher = Launcher(root, registry=registry, on_play=Played(), modal=False)
    launcher.pack(fill="both", expand=True)
    root.update()
    launcher.tree.focus_force()
    root.update()
    path = new_user_variant(registry, "my-seahaven", "seahaven")  # as the command does
    (path.parent / "broken.toml").write_text("id = 'broken'\n", "utf-8")
    root.update()
    assert not launcher.tree.exists("my-seahaven")
    launcher.filter_entry.focus_force()  # the window (here: one of its fields) gets focus
    root.update()
    assert launcher.tree.exists("my-seahaven")
    assert launcher.tree.parent("yours:my-seahaven") == "group:yours"
    assert "Skipped broken.toml" in launcher.skipped_label.cget("text")
    assert launcher.skipped_label.winfo_ismapped()
    launcher.select("my-seahaven")
    root.update()
    assert launcher.name_label.cget("text") == "My Seahaven"

    path.unlink()  # removed: gone from the list, another game is selected
    (path.parent / "broken.toml").unlink()
    launcher.tree.focus_force()
    root.update()
    assert not launcher.tree.exists("my-seahaven")
    assert launcher.selected_variant in registry.variants
    assert launcher.skipped_label.cget("text") == ""
    assert not launcher.skipped_label.winfo_ismapped()
    assert not any(d.plugin == USER_PLUGIN for d in registry.variants.values())


def test_the_launcher_looks_at_the_folder_every_few_seconds_and_when_it_opens(root, monkeypatch):
    registry = own_registry()
    new_user_variant(registry, "my-freecell", "freecell")  # after the registry was read
    launcher = Launcher(root, registry=registry, on_play=Played(), modal=False)
    launcher.pack(fill="both", expand=True)
    root.update()
    assert launcher.tree.exists("my-freecell")  # read again as the launcher opens (Ctrl+L)
    launcher.destroy()

    monkeypatch.setattr(launcher_module, "RESCAN_MS", 50, raising=False)
    launcher = Launcher(root, registry=registry, on_play=Played(), modal=False)
    launcher.pack(fill="both", expand=True)
    root.update()
    new_user_variant(registry, "my-eight-off", "eight-off")
    assert wait_for(root, lambda: launcher.tree.exists("my-eight-off"), seconds=2)


def test_new_game_never_offers_an_id_a_file_on_disk_has(root):
    registry = own_registry()
    launcher = Launcher(root, registry=registry, on_play=Played(), modal=False)
    launcher.pack(fill="both", expand=True)
    root.update()
    folder = user_variants_dir()
    folder.mkdir(parents=True, exist_ok=True)
    # Made while the launcher was open: a valid file, and one that does not validate.
    new_user_variant(registry, "my-game", "seahaven")
    (folder / "my-game-2.toml").write_text("this is not TOML [", "utf-8")
    editor = launcher.new_game()
    try:
        offered = editor.vars["id"].get()
        assert offered not in ("my-game", "my-game-2")
        assert not (folder / f"{offered}.toml").exists()
        assert offered not in registry.variants
    finally:
        editor.destroy()
    launcher.select("freecell")
    (folder / "my-freecell.toml").write_text("not a variant either", "utf-8")
    editor = launcher.edit_game()
    try:
        offered = editor.vars["id"].get()
        assert offered.startswith("my-freecell") and offered != "my-freecell"
        assert not (folder / f"{offered}.toml").exists()
    finally:
        editor.destroy()


@pytest.mark.parametrize("screen", SMALL_SCREENS, indirect=True)
def test_a_game_opened_directly_fits_the_screen(screen, screen_root, solitaire_home):
    """A game opened without the launcher (``solitaire play``, a resumed game) comes up
    smaller than its saved 1100 x 760 on a laptop's screen, with its menu bar, table and
    status bar all on the screen, the table drawn for the size it got."""
    store = AppStore(solitaire_home, registry=REGISTRY)
    app = App(screen_root, store=store, variant="seahaven", deal=1, modal=False)
    wait_until(screen_root, lambda: app.view.winfo_viewable())
    wait_until(screen_root, lambda: window_inside(app.view, screen.width, screen.height))
    assert app.window_size[1] < 760
    for widget in (app.status_bar.frame, app.toolbar, app.view):
        assert inside(widget, screen.width, screen.height), str(widget)
    view = app.view
    assert view.winfo_height() <= app.window_size[1]
    screen.screenshot(f"game-{screen.width}x{screen.height}")
