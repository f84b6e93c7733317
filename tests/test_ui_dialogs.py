"""The dialogs in a real Tk window (Xvfb via pytest-xvfb), opened with wait=False; the
keyboard shortcuts also on screens of 1024x600 and 1366x768 (an Xvfb of their own) with
real X input."""

from __future__ import annotations

import re
import tkinter as tk
from tkinter import font as tkfont

import pytest
from screens import (  # noqa: F401 (the fixtures screen and screen_root)
    SMALL_SCREENS,
    find_button,
    inside,
    screen_fixture,
    screen_root_fixture,
    wait_until,
)
from solitaire_tk import widgets
from solitaire_tk.dialogs import common as dialogs
from solitaire_tk.dialogs import rules as rules_dialog
from solitaire_tk.dialogs import stats as stats_dialog
from ui_helpers import pump

from solitaire_core.persistence import StatsStore
from solitaire_core.plugins import get_registry

pytestmark = pytest.mark.usefixtures("solitaire_home")

ROOT_GEOMETRY = "400x300+0+0"  # the ``root`` window (tests/conftest.py)

REGISTRY = get_registry()


def test_elide_keeps_what_fits_and_ends_a_shortened_text_with_an_ellipsis():
    text = "No hint: the solver could not decide, in 3 s."
    assert widgets.elide(text, len(text), len) == text
    assert widgets.elide("No hint: the solver", 10, len) == "No hint…"  # no ": …"
    assert widgets.elide(text, 0, len) == ""
    for width in range(1, len(text)):
        shown = widgets.elide(text, width, len)
        assert len(shown) <= width and shown.endswith("…")
        assert text.startswith(shown[:-1])


def texts(widget) -> list[str]:
    """The text of every label and button inside ``widget``."""
    out = []
    for child in widget.winfo_children():
        try:
            text = child.cget("text")
        except tk.TclError:
            text = ""
        if text:
            out.append(str(text))
        out += texts(child)
    return out


def press(widget, keysym):
    widget.focus_force()
    widget.update()
    widget.event_generate(f"<KeyPress-{keysym}>")
    widget.update()


# --- without a display ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, number, problem",
    [
        ("", None, ""),
        ("  42 ", 42, ""),
        ("99999999999999999999", 10**20 - 1, ""),
        ("100000000000000000000", None, "20 digits"),
        ("0", None, "start at 1"),
        ("-3", None, "digits only"),
        ("12a", None, "digits only"),
        ("\u0663", None, "digits only"),  # an Arabic-Indic digit is not 0-9
    ],
)
def test_deal_text_is_checked(text, number, problem):
    got, message = dialogs.parse_deal_text(text)
    assert got == number
    assert problem in message
    assert bool(message) == bool(problem)


@pytest.mark.parametrize("variant_id", sorted(REGISTRY.variants))
def test_rules_text_describes_every_variant_from_its_definition(variant_id):
    definition = REGISTRY.variants[variant_id]
    rules = definition.resolve()
    text = "\n".join(piece for _, piece in rules_dialog.rules_text(definition, rules))
    assert rules.name in text
    if rules.decks == 1:
        assert "One deck of 52 cards." in text
    else:
        assert f"decks of 52 cards: {rules.card_count} cards." in text
    if rules.covered_by:  # Pyramid, TriPeaks
        assert f"A layout of {rules.columns} overlapping cards" in text
        assert "A card is free once the cards overlapping it have left" in text
    else:
        assert f"{rules.columns} tableau columns" in text
    if rules.covered_by:
        pass
    elif rules.tableau_build == "none":
        assert "never built on the tableau" in text
    else:
        assert rules.build_description in text
    assert rules_dialog._empty_text(rules) in text
    if rules.move_limit == "one":  # no run moves, so none fills an empty column
        assert "or run" not in text and "or a run" not in text
    pieces = [piece for _, piece in rules_dialog.rules_text(definition, rules)]
    layout = pieces[pieces.index("Layout") + 1]
    building = pieces[pieces.index("Building") + 1]
    assert not re.search(r"\b1 cards", layout)
    if rules.hidden_cards:
        stock = pieces[pieces.index("Stock and face-down cards") + 1]
        assert ("face down" in stock) == any(rules.deal.face_down)
        assert ("stock" in stock) == rules.has_stock
    if not (rules.cells and rules.cells_receive):  # no free cell to speak of
        assert "free cell" not in building
        assert "cells start empty" not in layout and "holds one card" not in layout


@pytest.mark.parametrize(
    ("variant_id", "says"),
    [
        ("fan", "18 tableau columns, no cells and 4 foundations."),
        ("pyramid", "two free cards whose ranks add up to 13 (Ace 1, Jack 11, Queen 12, King 13)"),
        ("pyramid", "the stock's top card lies face up, and it and the waste's top card play"),
        ("tri-peaks", "18 cards of the layout are dealt face down; each turns face up"),
        ("tri-peaks", "The game is won when the layout is cleared, whatever is left in the stock."),
        ("golf", "The game is won when every column is empty, whatever is left in the stock."),
        ("fan", "An empty column takes a King."),  # PySolFC 56: KingSS_RowStack, max_move 1
        ("fortress", "An empty column takes any card."),  # PySolFC 147: one card at a time
        ("king-albert", "a reserve of 7 cards"),
        ("king-albert", "no card goes back to the reserve"),
        ("bisley", "4 build up in suit from an Ace; 4 build down in suit from a King."),
        ("penguin", "from the rank the deal puts on them, turning the corner from King to Ace"),
        ("chessboard", "from the rank of the first card played to a foundation"),
        ("double-freecell", "turning the corner from King to Ace, 26 cards each."),
        ("stalactites", "The 4 foundations build up regardless of suit"),
        ("simple-simon", "Only cards built down in suit move together as a run."),
        ("simple-simon", "Only a complete suit goes up"),
        ("beleaguered-castle", "4 cards start on the foundations."),
    ],
)
def test_rules_text_says_what_the_table_does(variant_id, says):
    definition = REGISTRY.variants[variant_id]
    pieces = rules_dialog.rules_text(definition, definition.resolve())
    text = "\n".join(piece for _, piece in pieces)
    assert says in text.split("More about")[0]


def test_rules_text_follows_the_chosen_option(tmp_path, monkeypatch):
    monkeypatch.setattr(rules_dialog, "DOCS_DIR", tmp_path)  # the generated part only
    definition = REGISTRY.variants["sea-towers"]
    king = "\n".join(p for _, p in rules_dialog.rules_text(definition, definition.resolve()))
    anycard = rules_dialog.rules_text(definition, definition.resolve({"empty_columns": "any"}))
    anycard_text = "\n".join(p for _, p in anycard)
    assert "Empty columns take: A King only (classic)." in king
    assert "a King or a run led by a King" in king
    assert "Empty columns take: Any card." in anycard_text
    assert "any card or run" in anycard_text
    assert "2^(empty columns)" in anycard_text and "2^(empty columns)" not in king
    assert "cells 2 and 3" in king  # deal.cells = [2, 3] in sea-towers.toml: the middle two


# --- rules, shortcuts, about ---------------------------------------------------------------


@pytest.mark.gui
def test_rules_window_shows_the_rules_and_the_docs_page(root, tmp_path, monkeypatch):
    (tmp_path / "sea-towers.md").write_text(
        "# Sea Towers\n\nA **named** option,\nsee [the rules](x.md).\n\n## Play\n\n"
        "| rule | source |\n|---|---|\n| Build down in suit. | rules summary |\n\n"
        "* `any`: any card\n  or run.\n",
        "utf-8",
    )
    monkeypatch.setattr(rules_dialog, "DOCS_DIR", tmp_path)
    definition = REGISTRY.variants["sea-towers"]
    dialog = rules_dialog.show_rules(
        root, definition, definition.resolve({"empty_columns": "any"}), wait=False
    )
    dialog.update()
    shown = dialog.text.get("1.0", "end")
    assert shown.startswith("Sea Towers\n")
    assert "any card or run" in shown
    assert "More about Sea Towers\nA named option, see the rules.\nPlay\n" in shown
    assert "\u2022 Build down in suit. (rules summary)\n" in shown
    assert "\u2022 any: any card or run.\n" in shown
    assert dialog.text.cget("state") == "disabled"
    assert str(dialog.transient()) == str(root)
    press(dialog.text, "Escape")
    assert not dialog.winfo_exists()


@pytest.mark.gui
def test_rules_window_sets_a_pages_emphasis_code_links_and_tables(root, tmp_path, monkeypatch):
    (tmp_path / "sea-towers.md").write_text(
        "# Sea Towers\n\nA **bold** and *slanted* word, `code`, and "
        "[a link](https://example.org/rules).\n\n"
        "| deal | result |\n|---|---|\n| 1 | won |\n\n"
        "1. first\n\n   still first\n2. second\n",
        "utf-8",
    )
    monkeypatch.setattr(rules_dialog, "DOCS_DIR", tmp_path)
    opened: list[str] = []
    monkeypatch.setattr(rules_dialog.webbrowser, "open", opened.append)
    definition = REGISTRY.variants["sea-towers"]
    dialog = rules_dialog.show_rules(root, definition, definition.resolve(), wait=False)
    dialog.update()
    text = dialog.text

    def tagged(tag: str) -> list[str]:
        ranges = text.tag_ranges(tag)
        return [text.get(a, b) for a, b in zip(ranges[::2], ranges[1::2])]

    assert "bold" in tagged("strong") and "slanted" in tagged("em")
    assert "code" in tagged("icode")
    assert tagged("link") == ["a link"]
    shown = text.get("1.0", "end")
    assert "\u2022 deal \u2014 result\n\u2022 1 \u2014 won\n" in shown  # a table as written
    assert ["deal", "result"] == [t for t in tagged("strong") if t != "bold"]
    assert "\u2022 first still first\n\u2022 second\n" in shown
    (tag,) = dialog.links
    start = text.tag_ranges(tag)[0]
    text.see(start)
    dialog.update()
    x, y, _, _ = text.bbox(start)
    text.event_generate("<Motion>", x=x + 2, y=y + 2)  # Tk's "current" follows the pointer
    text.event_generate("<Button-1>", x=x + 2, y=y + 2)
    dialog.update()
    assert opened == ["https://example.org/rules"]  # a click opens the address
    press(dialog.text, "Escape")


@pytest.mark.gui
def test_shortcuts_window_lists_the_shortcut_table(root):
    from solitaire_tk.keys import SHORTCUTS as table

    assert any(keys == "Ctrl+Z" for keys, _ in table)
    dialog = dialogs.show_shortcuts(root, wait=False)
    shown = texts(dialog)
    for keys, action in table:
        assert keys in shown and action in shown
    press(dialog, "Return")
    assert not dialog.winfo_exists()


def in_view(widget, view) -> bool:
    """Whether ``widget`` lies wholly within the area ``view`` shows on the screen."""
    top, bottom = widget.winfo_rooty(), widget.winfo_rooty() + widget.winfo_height()
    return view.winfo_rooty() <= top and bottom <= view.winfo_rooty() + view.winfo_height()


@pytest.mark.gui
@pytest.mark.parametrize("screen", SMALL_SCREENS, indirect=True)
def test_shortcuts_window_fits_the_screen_and_its_list_scrolls(screen, screen_root):
    from solitaire_tk.keys import SHORTCUTS as table

    game_keys = "In Seahaven Towers: columns A-J, cells 1-4, foundations K-N."
    dialog = dialogs.show_shortcuts(screen_root, wait=False, game_keys=game_keys)
    dialog.update()
    assert inside(dialog, screen.width, screen.height), dialog.winfo_geometry()
    close = find_button(dialog, "Close")
    assert inside(close, screen.width, screen.height)
    # The whole list can be read: the mouse wheel over it (real X events) brings its
    # last line into view, above the Close button.
    last = next(w for w in labels(dialog) if w.cget("text") == table[-1][0])
    view = last.master.master  # what shows the list: its scrolled canvas
    for _ in range(40):
        if in_view(last, view):
            break
        screen.click(view, button=5, settle=0.05)
    assert in_view(last, view) and inside(last, screen.width, screen.height)
    assert last.winfo_rooty() + last.winfo_height() <= close.winfo_rooty()
    screen.screenshot(f"shortcuts-{screen.width}x{screen.height}")
    screen.click(close)
    wait_until(screen_root, lambda: not dialog.winfo_exists())


def labels(widget) -> list[tk.Misc]:
    """Every label inside ``widget``."""
    out = []
    for child in widget.winfo_children():
        if child.winfo_class() in ("TLabel", "Label"):
            out.append(child)
        out += labels(child)
    return out


@pytest.mark.gui
def test_about_names_the_program_and_its_version(root):
    from importlib import metadata

    dialog = dialogs.show_about(root, wait=False)
    shown = " ".join(texts(dialog))
    assert "Towers Solitaire" in shown
    assert metadata.version("towers-solitaire") in shown
    dialog.close()


# --- statistics ----------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path):
    with StatsStore(tmp_path / "stats.sqlite3") as store:
        yield store


def record(
    store,
    variant="sea-towers",
    options=None,
    *,
    won=True,
    cheated=False,
    moves=90,
    undo=False,
    hint=False,
    hints=None,
):
    store.record_game(
        variant,
        {"empty_columns": "any"} if options is None else options,
        7,
        won=won,
        moves=moves,
        seconds=125.0,
        used_undo=undo,
        used_hint=hint,
        cheated=cheated,
        hints=hints,
    )


def rows(dialog) -> list[dict[str, str]]:
    return [dialog.tree.set(item) for item in dialog.tree.get_children()]


@pytest.mark.gui
def test_statistics_show_a_recorded_game_and_cheat_wins_apart(root, store):
    record(store)
    record(store, cheated=True)
    record(store, "seahaven", {}, won=False)
    dialog = stats_dialog.show_statistics(root, store, wait=False)
    table = rows(dialog)
    assert [r["variant"] for r in table] == ["Sea Towers", "Seahaven Towers"]
    sea = table[0]
    assert sea["options"] == "Any card"  # the option's name is in the details line
    assert (sea["played"], sea["won"], sea["cheat"]) == ("1", "1", "1")
    assert (sea["fewest"], sea["fastest"], sea["rate"]) == ("90", "2:05", "100%")
    assert table[1]["options"] == "-"
    assert (table[1]["lost"], table[1]["streak"]) == ("1", "1 lost")
    dialog.close()


@pytest.mark.gui
def test_statistics_show_hints_per_game(root, store):
    record(store, hint=True, hints=3)
    record(store, won=False, hints=0)
    record(store, hint=True)  # recorded before hints were counted: left out
    record(store, "seahaven", {})
    dialog = stats_dialog.show_statistics(root, store, wait=False)
    sea, seahaven = rows(dialog)
    assert (sea["played"], sea["hints"], sea["hints_per_game"]) == ("3", "2", "1.5")
    assert seahaven["hints_per_game"] == "-"
    assert "Hints/game is the average number of hints" in dialog.note.cget("text")
    dialog.close()


@pytest.mark.gui
def test_statistics_count_wins_with_undo_and_with_hints(root, store):
    record(store, undo=True)
    record(store, undo=True, hint=True)
    record(store, hint=True)
    record(store)
    record(store, hint=True, won=False)  # a loss counts in neither
    record(store, hint=True, cheated=True)  # a cheat win is counted apart
    dialog = stats_dialog.show_statistics(root, store, wait=False)
    (sea,) = rows(dialog)
    assert (sea["won"], sea["undo"], sea["hints"], sea["cheat"]) == ("4", "2", "2", "1")
    headings = [dialog.tree.heading(ident)["text"] for ident in dialog.tree["columns"]]
    assert headings[-4:] == ["With undo", "With hints", "Hints/game", "Cheat wins"]
    # The window and its buttons stay on the screen; every heading has room, and a
    # table wider than the window scrolls sideways.
    dialog.update()
    screen = dialog.winfo_screenwidth()
    assert 0 <= dialog.winfo_rootx() and dialog.winfo_rootx() + dialog.winfo_width() <= screen
    button = dialog.close_button
    assert button.winfo_ismapped() and button.winfo_rootx() + button.winfo_width() <= screen
    font = tkfont.nametofont("TkHeadingFont")
    widths = [dialog.tree.column(ident, "width") for ident in dialog.tree["columns"]]
    shown = dialog.tree["displaycolumns"]
    for ident, heading, width in zip(dialog.tree["columns"], headings, widths):
        # The Options column is the one that gives up room on a narrow screen.
        if ident != "options" and ident in shown:
            assert width >= font.measure(heading)
    shown_widths = [dialog.tree.column(ident, "width") for ident in shown]
    assert dialog.xbar.winfo_ismapped() == (sum(shown_widths) > dialog.tree.winfo_width())
    dialog.close()


@pytest.mark.gui
def test_reset_asks_first_and_clears_the_selected_row(root, store):
    record(store)
    record(store, "seahaven", {})
    answers = []
    dialog = stats_dialog.show_statistics(
        root, store, wait=False, confirm=lambda title, question: answers.pop()
    )
    dialog.tree.selection_set(dialog.tree.get_children()[0])
    answers.append(False)
    dialog.reset_button.invoke()
    assert len(rows(dialog)) == 2
    answers.append(True)
    dialog.reset_button.invoke()
    assert [r["variant"] for r in rows(dialog)] == ["Seahaven Towers"]
    assert [s.variant for s in store.summary()] == ["seahaven"]
    answers.append(True)
    dialog.reset_all_button.invoke()
    assert rows(dialog) == []
    assert store.summary() == []
    dialog.update()
    assert dialog.empty_label.winfo_ismapped()
    assert dialog.reset_all_button.instate(["disabled"])
    dialog.close()


# --- deal number, win, no moves ------------------------------------------------------------


@pytest.mark.gui
def test_deal_number_dialog_checks_the_number(root):
    dialog = dialogs.ask_deal_number(root, 1234, wait=False)
    dialog.update()
    assert dialog.var.get() == "1234"
    dialog.var.set("12b")
    assert "digits" in dialog.message.cget("text")
    assert dialog.ok_button.instate(["disabled"])
    press(dialog.entry, "Return")
    assert dialog.winfo_exists() and dialog.result is None
    dialog.var.set("")
    press(dialog.entry, "9")
    press(dialog.entry, "8")
    assert not dialog.ok_button.instate(["disabled"])
    press(dialog.entry, "Return")
    assert dialog.result == 98
    assert not dialog.winfo_exists()


@pytest.mark.gui
def test_deal_number_dialog_cancel_gives_nothing(root):
    dialog = dialogs.ask_deal_number(root, 5, wait=False)
    press(dialog.entry, "Escape")
    assert dialog.result is None and not dialog.winfo_exists()


FIGURES = {"Moves": "87", "Time": "4:12", "Score": "52", "Undo used": "no", "Cheats": "0"}


@pytest.mark.gui
def test_win_dialog_shows_the_figures_and_offers_the_next_deal(root):
    calls = []
    dialog = dialogs.show_win(root, FIGURES, on_next=lambda: calls.append("next"), wait=False)
    shown = texts(dialog)
    for name, value in FIGURES.items():
        assert name in shown and value in shown
    assert "You won!" in shown
    press(dialog.next_button, "Return")
    assert calls == ["next"]
    assert not dialog.winfo_exists()


@pytest.mark.gui
def test_win_dialog_close_does_not_deal(root):
    calls = []
    dialog = dialogs.show_win(root, FIGURES, on_next=lambda: calls.append("next"), wait=False)
    dialog.finish("close")
    assert calls == [] and not dialog.winfo_exists()


@pytest.mark.gui
@pytest.mark.parametrize("button", ["undo", "restart", "new"])
def test_no_moves_notice_runs_the_chosen_action(root, button):
    calls = []
    dialog = dialogs.show_no_moves(
        root,
        on_undo=lambda: calls.append("undo"),
        on_restart=lambda: calls.append("restart"),
        on_new_deal=lambda: calls.append("new"),
        wait=False,
    )
    assert "No useful move left" in texts(dialog)
    dialog.choice_buttons[button].invoke()
    assert calls == [button]
    assert not dialog.winfo_exists()


@pytest.mark.gui
def test_no_moves_notice_escape_does_nothing(root):
    calls = []
    dialog = dialogs.show_no_moves(
        root, on_undo=calls.append, on_restart=calls.append, on_new_deal=calls.append, wait=False
    )
    press(dialog, "Escape")
    assert calls == [] and not dialog.winfo_exists()


@pytest.mark.gui
def test_modal_dialog_returns_after_the_player_answers(root):
    modal = []

    def answer():
        (dialog,) = [w for w in root.winfo_children() if isinstance(w, dialogs.WinDialog)]
        try:
            modal.append(dialog.grab_current() is not None)
            press(dialog.next_button, "Return")
        finally:  # never leave the test waiting on an open dialog
            if dialog.winfo_exists():
                dialog.close()

    root.after(300, answer)
    calls = []
    result = dialogs.show_win(root, FIGURES, on_next=lambda: calls.append(1))
    assert result is None and calls == [1] and modal == [True]


@pytest.mark.gui
@pytest.mark.parametrize("screen", ["1366x768"], indirect=True)
def test_every_statistics_heading_is_whole_in_a_1100_px_window_without_sideways_scrolling(
    screen, screen_root, store
):
    root = screen_root
    root.geometry("1100x700+0+0")
    pump(root, lambda: root.winfo_width() == 1100)
    for variant in ("relaxed-seahaven", "super-challenge-freecell", "seahaven"):
        record(store, variant, {}, moves=1234)
    record(store, hint=True, hints=3)  # Sea Towers, empty columns take any card
    record(store, "casino-klondike", {}, won=False)
    dialog = stats_dialog.show_statistics(root, store, wait=False)
    dialog.update()
    assert dialog.winfo_width() <= 1100
    tree = dialog.tree
    font = tkfont.nametofont("TkHeadingFont", root=root)
    shown = list(tree["displaycolumns"])
    shown = list(tree["columns"]) if shown == ["#all"] else shown
    assert "options" in shown and len(shown) >= 11
    right = 0
    for ident in shown:
        heading = tree.heading(ident)["text"]
        width = int(tree.column(ident, "width"))
        assert width >= font.measure(heading) + 8, heading  # whole, with some room
        right += width
    assert right <= tree.winfo_width()  # the last column ends inside the table
    assert tree.xview() == (0.0, 1.0) and not dialog.xbar.winfo_ismapped()
    # Every value of the Options column fits too; the full names are in the details line.
    cell = tkfont.nametofont("TkDefaultFont", root=root)
    for item in tree.get_children():
        assert cell.measure(tree.set(item, "options")) <= int(tree.column("options", "width"))
    sea = next(i for i in tree.get_children() if tree.set(i, "variant") == "Sea Towers")
    tree.see(sea)
    dialog.update()
    x, y, _, height = tree.bbox(sea, "variant")
    screen.run("xdotool", "mousemove", "--sync", str(tree.winfo_rootx() + x + 10),
               str(tree.winfo_rooty() + y + height // 2))  # fmt: skip
    screen.run("xdotool", "click", "1")
    pump(root, lambda: tree.selection() == (sea,))
    details = dialog.details.cget("text")
    assert details.startswith("Sea Towers (Empty columns take: Any card): ")
    assert "With hints: 1" in details and "Hints/game: 3" in details
    dialog.close()
