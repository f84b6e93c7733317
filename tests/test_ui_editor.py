"""The variant editor in a real Tk window (Xvfb via pytest-xvfb): the schema-driven form,
validation as you type with the loader's messages, the preview, the quick checks and the
solver in the background, Save, Play, and the TOML round trip; on screens of
1024x600 and 1366x768 (an Xvfb of their own) with real X input: the window fits, its
buttons are in reach, and closing with unsaved changes asks first."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sampling import per_game
from screens import (  # noqa: F401 (the fixtures screen and screen_root)
    SMALL_SCREENS,
    close_box,
    find_button,
    inside,
    screen_fixture,
    screen_root_fixture,
    wait_until,
)
from solitaire_tk.editor.form import form_fields
from solitaire_tk.editor.window import (
    COMMENTS_NOTE,
    UnsavedChangesDialog,
    VariantEditor,
    copy_for_editing,
)
from solitaire_tk.launcher.window import Launcher

from solitaire_core.persistence import Settings
from solitaire_core.plugins import USER_PLUGIN, Registry, build_registry
from solitaire_core.variant import load_schema, tomllib

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

ROOT_GEOMETRY = "+0+0"
BASE = build_registry()


def fresh_registry() -> Registry:
    """A registry of this test's own (the editor adds what it saves or plays to it)."""
    return Registry(
        variants=dict(BASE.variants),
        predicates=dict(BASE.predicates),
        deal_methods=dict(BASE.deal_methods),
    )


def wait(root, condition, seconds: float = 120.0) -> None:
    """Run the event loop until ``condition()`` holds (the background work reports
    through it)."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        root.update()
        time.sleep(0.02)


def type_into(editor: VariantEditor, path: str, text: str) -> None:
    """Replace a field's text by real key presses, its tab shown first."""
    editor.notebook.select(editor.tabs[editor.fields[path].group])
    widget = editor.widgets[path]
    widget.focus_force()
    widget.update()
    widget.select_range(0, "end")
    widget.event_generate("<KeyPress-BackSpace>")
    for char in text:
        keysym = {" ": "space", ",": "comma", "[": "bracketleft", "]": "bracketright"}.get(
            char, char
        )
        widget.event_generate(f"<KeyPress-{keysym}>")
    widget.update()
    assert editor.vars[path].get() == text


def open_editor(root, data, **kwargs) -> VariantEditor:
    """The editor on ``data``, drawn; not modal unless ``modal=True`` is given: a test
    that closes it by mistake with changes never waits for an answer."""
    kwargs.setdefault("registry", fresh_registry())
    kwargs.setdefault("modal", False)
    editor = VariantEditor(root, data=data, **kwargs)
    editor.update()
    return editor


@pytest.mark.parametrize("variant_id", per_game(BASE))
def test_opening_a_file_and_saving_it_unchanged_writes_the_same_data(root, tmp_path, variant_id):
    definition = BASE.variants[variant_id]
    path = tmp_path / f"{variant_id}.toml"
    path.write_text(Path(definition.source).read_text("utf-8"), "utf-8")
    registry = fresh_registry()
    del registry.variants[variant_id]  # the file stands for the installed game
    editor = open_editor(root, tomllib.loads(path.read_text("utf-8")), path=path, registry=registry)
    assert editor.definition is not None, editor.problems
    assert editor.data() == dict(definition.data)
    assert editor.save() == path
    assert tomllib.loads(path.read_text("utf-8")) == dict(definition.data)
    assert COMMENTS_NOTE in editor.where_label.cget("text")
    editor.destroy()


def test_every_schema_key_has_a_field_with_its_description_as_help(root):
    editor = open_editor(root, copy_for_editing(BASE.get("sea-towers"), BASE))
    schema = load_schema()
    assert set(editor.fields) == {f.path for f in form_fields(schema)}
    move_limit = schema["properties"]["tableau"]["properties"]["move_limit"]["description"]
    assert editor.helps["tableau.move_limit"].cget("text").startswith(move_limit)
    assert str(editor.helps["autoplay"].cget("text")).endswith("Default: safe.")
    titles = [editor.notebook.tab(t, "text") for t in editor.notebook.tabs()]
    assert titles == [
        "Game", "Layout", "Deal", "Building", "Moves", "Foundations", "Autoplay", "Options",
    ]  # fmt: skip
    assert editor.fields["tableau.move_limit"].group == "moves"
    assert editor.fields["deal.columns"].group == "deal"
    assert 'set = { "tableau.empty" = "any"' in editor.options_text.get("1.0", "end") or (
        "[options.empty_columns.choices.any.set]" in editor.options_text.get("1.0", "end")
    )
    editor.destroy()


def test_typing_shows_the_loaders_message_beside_the_field(root):
    editor = open_editor(root, copy_for_editing(BASE.get("seahaven"), BASE))
    wait(root, lambda: not editor.checks_running)
    before = editor.preview_image.tobytes()
    type_into(editor, "deal.columns", "6")
    wait(root, lambda: editor.problems)
    assert editor.errors["deal.columns"].cget("text") == (
        "deal: places 62 cards, but 1 deck(s) hold 52: every card must be dealt exactly once"
    )
    assert "Not valid yet (tab Deal)" in editor.status_label.cget("text")
    assert editor.save_button.instate(["disabled"]) and editor.play_button.instate(["disabled"])
    # Eight columns of six and four cells dealt: valid again, and the picture follows.
    type_into(editor, "tableau.columns", "8")
    type_into(editor, "deal.cells", "[1, 2, 3, 4]")
    wait(root, lambda: editor.definition is not None and not editor.problems)
    assert editor.errors["deal.columns"].cget("text") == ""
    assert editor.preview_image.tobytes() != before
    type_into(editor, "cells.count", "x")
    wait(root, lambda: "cells.count" in editor.problems)
    assert editor.errors["cells.count"].cget("text") == "expected a whole number, got 'x'"
    type_into(editor, "cells.count", "4")
    type_into(editor, "id", "freecell")
    wait(root, lambda: "id" in editor.problems)
    assert "'freecell' is already the id of FreeCell" in editor.errors["id"].cget("text")
    editor.destroy()


def test_quick_checks_and_the_solver_report_in_the_background(root):
    editor = open_editor(root, copy_for_editing(BASE.get("seahaven"), BASE))
    wait(root, lambda: not editor.checks_running)
    text = editor.checks_label.cget("text")
    assert "ok  random-play: 300 random moves" in text and "ok  perft: deal 1, depth 1:" in text
    assert text.endswith("All quick checks passed.")
    editor.solve_button.invoke()
    assert editor.solving and editor.solve_button.instate(["disabled"])
    ticks = []
    root.after(10, lambda: ticks.append(1))
    wait(root, lambda: not editor.solving, seconds=600)
    assert ticks  # the window kept handling events while the solver worked
    assert sorted(editor.solve_results) == list(range(1, 21))
    summary = editor.solve_summary.cget("text")
    assert summary.startswith(tuple(f"{n} of 20 winnable" for n in range(1, 21)))
    assert summary.endswith(": the game can be won.")
    assert "Deal 1: winnable in " in editor.solve_text.get("1.0", "end")
    editor.destroy()


def test_save_and_play_at_once(root, tmp_path):
    registry = fresh_registry()
    played = []
    saved = []
    editor = open_editor(
        root, copy_for_editing(BASE.get("sea-towers"), BASE), registry=registry,
        folder=tmp_path, on_play=lambda *a: played.append(a), on_saved=saved.append,
    )  # fmt: skip
    type_into(editor, "name", "Night Towers")
    editor.deal_var.set("7")
    wait(root, lambda: editor.definition is not None and editor.definition.name == "Night Towers")
    assert editor.play()  # before saving: the form's game under its id
    assert played == [("my-sea-towers", {"empty_columns": "king"}, 7)]
    assert registry.variants["my-sea-towers"].name == "Night Towers"
    assert editor.save() == tmp_path / "my-sea-towers.toml"
    assert [d.id for d in saved] == ["my-sea-towers"]
    definition = registry.variants["my-sea-towers"]
    assert definition.plugin == USER_PLUGIN and definition.source == str(editor.path)
    data = tomllib.loads(editor.path.read_text("utf-8"))
    assert data["name"] == "Night Towers" and data["options"] == dict(
        BASE.get("sea-towers").data["options"]
    )
    # A new game must not replace another game's file.
    other = open_editor(root, copy_for_editing(BASE.get("sea-towers"), BASE), registry=Registry(
        variants={}, predicates=registry.predicates, deal_methods=registry.deal_methods,
    ), folder=tmp_path)  # fmt: skip
    assert other.save() is None
    assert "exists already" in other.status_label.cget("text")
    other.destroy()
    editor.destroy()


def test_the_launcher_opens_the_editor_and_lists_what_it_saves(root, solitaire_home):
    registry = fresh_registry()
    played = []
    launcher = Launcher(
        root,
        registry=registry,
        settings=Settings(),
        on_play=lambda *a: played.append(a),
        modal=False,
    )
    launcher.pack(fill="both", expand=True)
    root.update()
    launcher.select("sea-towers")
    assert launcher.edit_button.cget("text") == "Edit a copy..."
    launcher.edit_button.invoke()
    editor = launcher.editor
    assert editor.vars["id"].get() == "my-sea-towers"
    assert editor.vars["name"].get() == "My Sea Towers"
    wait(root, lambda: editor.definition is not None)
    editor.save_button.invoke()
    target = solitaire_home / "data" / "variants" / "my-sea-towers.toml"
    assert target.exists()
    assert launcher.selected_variant == "my-sea-towers"
    assert launcher.tree.get_children("group:yours") == ("yours:my-sea-towers",)
    assert launcher.edit_button.cget("text") == "Edit..."
    editor.destroy()
    launcher.edit_button.invoke()  # the player's own file is edited in place
    assert launcher.editor.path == target
    launcher.editor.destroy()
    launcher.new_button.invoke()
    assert launcher.editor.vars["id"].get() == "my-game"
    wait(root, lambda: launcher.editor.definition is not None)
    launcher.editor.play_button.invoke()
    assert played == [("my-game", {}, 1)]
    launcher.editor.destroy()
    # Saved files are loaded at the next start, as yours.
    assert build_registry().variants["my-sea-towers"].plugin == USER_PLUGIN


def test_the_launcher_asks_before_replacing_an_editor_with_unsaved_changes(root):
    launcher = Launcher(root, registry=fresh_registry(), on_play=lambda *a: None, modal=False)
    launcher.pack(fill="both", expand=True)
    root.update()
    launcher.select("sea-towers")
    editor = launcher.edit_game()
    wait(root, lambda: editor.definition is not None)
    assert launcher.new_game() is not editor  # nothing changed: replaced without a word
    assert not editor.winfo_exists()
    editor = launcher.editor
    wait(root, lambda: editor.definition is not None)
    type_into(editor, "name", "Night Game")
    # Edit a copy... while the form holds changes: the editor's own question, and the
    # editor stays until it is answered.
    assert launcher.edit_game() is editor
    question = editor.question
    assert question is not None and question.winfo_ismapped()
    question.choice_buttons["cancel"].invoke()
    assert editor.winfo_exists() and editor.vars["name"].get() == "Night Game"
    assert launcher.new_game() is editor
    editor.question.choice_buttons["discard"].invoke()
    assert not editor.winfo_exists()
    editor = launcher.new_game()
    assert editor.winfo_exists() and editor.vars["name"].get() != "Night Game"
    editor.destroy()


# --- small screens and closing with unsaved changes ------------------------------------------

EDITOR_BUTTONS = ("Save", "Play", "Solve deals 1-20", "Close")


def editor_on(screen_root, **kwargs) -> VariantEditor:
    """The editor on a copy of Sea Towers, over the small screen's root window (not
    modal unless ``modal=True`` is given, as :func:`open_editor`)."""
    kwargs.setdefault("data", copy_for_editing(BASE.get("sea-towers"), BASE))
    editor = open_editor(screen_root, **kwargs)
    wait_until(screen_root, lambda: editor.winfo_ismapped() and editor.definition is not None)
    return editor


@pytest.mark.parametrize("screen", SMALL_SCREENS, indirect=True)
def test_the_editor_fits_the_screen_and_its_buttons_are_in_reach(screen, screen_root):
    editor = editor_on(screen_root)
    editor.update()
    assert inside(editor, screen.width, screen.height), editor.winfo_geometry()
    for text in EDITOR_BUTTONS:
        assert inside(find_button(editor, text), screen.width, screen.height), text
    # The form scrolls where the screen is too short for a tab: the wheel over it (real
    # X button 5 events) brings its last field into view.
    game = editor.tabs["game"]
    last = editor.widgets[[p for p, f in editor.fields.items() if f.group == "game"][-1]]
    if screen.height <= 600:
        assert game.can_scroll()
    for _ in range(30):
        if last.winfo_rooty() + last.winfo_height() <= game.winfo_rooty() + game.winfo_height():
            break
        screen.click(editor.widgets["id"] if _ == 0 else game.canvas, button=5)
        editor.update()
    assert inside(last, screen.width, screen.height)
    bottom = game.canvas.winfo_rooty() + game.canvas.winfo_height()
    assert last.winfo_rooty() + last.winfo_height() <= bottom  # not under the buttons
    screen.screenshot(f"editor-{screen.width}x{screen.height}")
    # Nothing changed: a real click on Close closes the window at once.
    screen.click(find_button(editor, "Close"))
    wait_until(screen_root, lambda: not editor.winfo_exists())


ANSWER_SECONDS = 30
"""How long :func:`close_answering` waits for the question before cancelling it."""


def close_answering(screen, editor, answer: str, *, box: bool = False, shot: str = ""):
    """Close the editor as a player does, by a real click on Close (or, with ``box``,
    the window manager's close message) and, when a question shows, press its button
    labelled ``answer`` with a real click. A modal question runs its own event loop
    until answered: whatever goes wrong here (a failed look at it, a click that misses,
    no answer within :data:`ANSWER_SECONDS`), the question is cancelled so that the loop
    ends, and the test fails instead of hanging.

    :return: what the question showed, ``{"text": all its text, "buttons": [labels],
        "in_reach": whether its buttons are on the screen}``, or ``None`` when the
        editor closed without asking.
    :raises AssertionError: the question could not be answered.
    """
    root = editor._root()
    seen: dict = {}
    done = False

    def questions() -> list:
        if not editor.winfo_exists():
            return []
        return [w for w in editor.winfo_children() if isinstance(w, UnsavedChangesDialog)]

    def give_up(why: str) -> None:
        seen.setdefault("error", why)
        for question in questions():
            question.finish("cancel")  # ends a modal question's own loop

    def respond() -> None:
        if done or "buttons" in seen:
            return
        asking = questions()
        if not asking or not asking[0].winfo_ismapped():
            if editor.winfo_exists():
                root.after(50, respond)
            return
        try:
            question = asking[0]
            question.update()
            found = [w for w in descendants(question) if w.winfo_class() in ("TButton", "TLabel")]
            buttons = [w for w in found if w.winfo_class() == "TButton"]
            seen["text"] = " ".join(str(w.cget("text")) for w in found)
            seen["buttons"] = [str(b.cget("text")) for b in buttons]
            seen["in_reach"] = all(inside(b, screen.width, screen.height) for b in buttons)
            if shot:
                screen.screenshot(shot)
            screen.click(find_button(question, answer), settle=0)
        except Exception as exc:  # reported by the test (Tk would only print it)
            give_up(f"answering the question failed: {exc!r}")

    root.after(50, respond)
    watchdog = root.after(ANSWER_SECONDS * 1000, lambda: give_up("no answer in time"))
    try:
        if box:
            close_box(editor, screen)
        else:
            assert inside(editor.close_button, screen.width, screen.height), "Close out of reach"
            screen.click(editor.close_button, settle=0)

        def over() -> bool:
            answered = "buttons" in seen and not questions()
            return "error" in seen or answered or not editor.winfo_exists()

        wait_until(root, over, seconds=ANSWER_SECONDS + 10)
    finally:
        done = True
        root.after_cancel(watchdog)
        if questions():
            give_up("the question was still open when the test went on")
    root.update()
    assert "error" not in seen, seen["error"]
    return seen or None


def descendants(widget) -> list:
    """Every widget inside ``widget``, in creation order."""
    out = []
    for child in widget.winfo_children():
        out += [child, *descendants(child)]
    return out


@pytest.mark.parametrize("screen", SMALL_SCREENS[:1], indirect=True)
def test_close_asks_before_throwing_away_changes(screen, screen_root, tmp_path):
    """As the player meets it: the question is modal, Close waits for the answer."""
    target = tmp_path / "my-sea-towers.toml"
    editor = editor_on(screen_root, folder=tmp_path, modal=True)
    type_into(editor, "name", "Night Towers")
    seen = close_answering(screen, editor, "Cancel", shot="editor-unsaved-question")
    assert seen is not None, "closed without asking"
    assert "Save the changes to Night Towers?" in seen["text"]
    assert "are not saved" in seen["text"] and str(target) in seen["text"]
    assert seen["buttons"] == ["Save", "Don't save", "Cancel"] and seen["in_reach"]
    # Cancel keeps the editor with the edits.
    assert editor.winfo_exists() and editor.vars["name"].get() == "Night Towers"
    # Don't save closes and writes nothing.
    assert close_answering(screen, editor, "Don't save") is not None
    wait_until(screen_root, lambda: not editor.winfo_exists())
    assert not target.exists()
    # Save writes the file, then closes.
    editor = editor_on(screen_root, folder=tmp_path, modal=True)
    type_into(editor, "name", "Night Towers")
    assert close_answering(screen, editor, "Save") is not None
    wait_until(screen_root, lambda: not editor.winfo_exists())
    assert tomllib.loads(target.read_text("utf-8"))["name"] == "Night Towers"


@pytest.mark.parametrize("screen", SMALL_SCREENS[:1], indirect=True)
def test_close_asks_before_throwing_away_invalid_changes(screen, screen_root, tmp_path):
    editor = editor_on(screen_root, folder=tmp_path, modal=True)
    type_into(editor, "deal.columns", "6")
    seen = close_answering(screen, editor, "Cancel", shot="editor-invalid-question")
    assert seen is not None, "closed without asking"
    assert "Discard the changes to My Sea Towers?" in seen["text"]
    assert "cannot be saved while the game is not valid" in seen["text"]
    assert "Tab Deal: deal: places 62 cards" in seen["text"]
    assert seen["buttons"] == ["Discard changes", "Cancel"] and seen["in_reach"]
    assert editor.winfo_exists() and editor.vars["deal.columns"].get() == "6"
    # A change typed back to what the file says is no change: no question.
    type_into(editor, "deal.columns", "5")
    assert close_answering(screen, editor, "Cancel") is None
    assert not editor.winfo_exists() and not list(tmp_path.iterdir())


@pytest.mark.parametrize("screen", SMALL_SCREENS[:1], indirect=True)
def test_the_window_close_box_asks_the_same_question(screen, screen_root):
    """Not modal here: the close box returns at once and the answer acts when given."""
    editor = editor_on(screen_root)
    type_into(editor, "deal.columns", "6")
    seen = close_answering(screen, editor, "Cancel", box=True)
    assert seen is not None, "closed without asking"
    assert seen["buttons"] == ["Discard changes", "Cancel"]
    assert editor.winfo_exists() and editor.vars["deal.columns"].get() == "6"
    assert close_answering(screen, editor, "Discard changes", box=True) is not None
    wait_until(screen_root, lambda: not editor.winfo_exists())


def test_quitting_the_app_asks_an_editor_with_unsaved_changes_first(root, tmp_path):
    from ui_helpers import open_app

    app = open_app(root, tmp_path, "sea-towers", deal=2)
    editor = open_editor(root, copy_for_editing(BASE.get("sea-towers"), BASE))
    wait(root, lambda: editor.definition is not None)
    type_into(editor, "name", "Night Towers")
    app.quit()  # the question shows, not modal here: nothing closes yet
    question = editor.question
    assert question is not None and question.winfo_ismapped()
    assert not app.ended and editor.winfo_exists()
    question.choice_buttons["cancel"].invoke()
    assert not app.ended and editor.vars["name"].get() == "Night Towers"
    app.quit()
    editor.question.choice_buttons["discard"].invoke()
    assert not editor.winfo_exists()
    app.quit()  # nothing left unsaved: the window closes
    assert app.ended
