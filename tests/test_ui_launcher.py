"""The launcher in a real Tk window (Xvfb via pytest-xvfb): listing, options, deal field,
Play by mouse and keyboard."""

from __future__ import annotations

import pytest
from sampling import per_game
from solitaire_tk.launcher.window import Launcher, launcher_groups
from solitaire_tk.table.preview import PREVIEW_SIZE

from solitaire_core.persistence import Settings
from solitaire_core.plugins import BUILTIN_PLUGINS, USER_PLUGIN, Registry, get_registry
from solitaire_core.variant import parse_variant

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

ROOT_GEOMETRY = "+0+0"  # the ``root`` window (tests/conftest.py)

REGISTRY = get_registry()


class Played:
    """Records on_play calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, str], int | None]] = []

    def __call__(self, variant: str, options: dict[str, str], deal: int | None) -> None:
        self.calls.append((variant, options, deal))


def make(root, settings=None, registry=REGISTRY):
    played = Played()
    launcher = Launcher(root, registry=registry, settings=settings, on_play=played)
    launcher.pack(fill="both", expand=True)
    root.update()
    return launcher, played


def click(widget, x=6, y=6):
    """A real left click at (x, y) inside ``widget``."""
    widget.update()
    widget.event_generate("<Enter>", x=x, y=y)
    widget.event_generate("<ButtonPress-1>", x=x, y=y)
    widget.event_generate("<ButtonRelease-1>", x=x, y=y)
    widget.update()


def press(widget, keysym):
    """Give ``widget`` the focus and press a key in it."""
    widget.focus_force()
    widget.update()
    widget.event_generate(f"<KeyPress-{keysym}>")
    widget.update()


@pytest.mark.parametrize("variant_id", per_game(REGISTRY))
def test_every_installed_variant_is_listed_and_shows_its_layout(root, variant_id):
    launcher, _ = make(root)
    definition = REGISTRY.variants[variant_id]
    assert launcher.tree.set(variant_id, "name") == definition.name
    launcher.select(variant_id)
    root.update()
    assert launcher.name_label.cget("text") == definition.name
    assert launcher.summary_label.cget("text") == definition.summary
    assert launcher.preview_image.size == launcher.preview_size
    width, height = launcher.preview_size  # smaller on a small screen, never larger
    assert width <= PREVIEW_SIZE[0] and height <= PREVIEW_SIZE[1]
    assert set(launcher.options) == {o.name for o in definition.options}


def test_a_third_party_variant_is_listed_with_its_plugin_name(root):
    text = REGISTRY.variants["seahaven"].source
    from pathlib import Path

    toml = Path(text).read_text("utf-8").replace('id = "seahaven"', 'id = "acme-towers"')
    toml = toml.replace('name = "Seahaven Towers"', 'name = "Acme Towers"')
    extra = parse_variant(toml, "acme.toml", plugin="acme-games")
    registry = Registry(variants={**REGISTRY.variants, extra.id: extra})
    launcher, played = make(root, registry=registry)
    assert launcher.tree.set("acme-towers", "plugin") == "acme-games"
    assert launcher.tree.set("seahaven", "plugin") == ""  # a built-in game says nothing
    assert tuple(launcher.tree["displaycolumns"]) == ("plugin",)
    assert launcher.tree.heading("plugin")["text"] == "From"
    launcher.select("acme-towers")
    assert "acme-games" in launcher.plugin_label.cget("text")
    click(launcher.play_button)
    assert played.calls == [("acme-towers", {}, None)]


def test_sea_towers_option_any_is_passed_to_play_by_a_mouse_click(root):
    launcher, played = make(root)
    launcher.select("sea-towers")
    root.update()
    king = launcher.option_buttons[("empty_columns", "king")]
    anycard = launcher.option_buttons[("empty_columns", "any")]
    assert king.cget("text") == "A King only (classic)"
    assert anycard.cget("text") == "Any card"
    assert launcher.options == {"empty_columns": "king"}
    click(anycard)
    assert launcher.options == {"empty_columns": "any"}
    click(launcher.play_button)
    assert played.calls == [("sea-towers", {"empty_columns": "any"}, None)]


def test_return_in_the_deal_field_plays_that_deal(root):
    launcher, played = make(root)
    launcher.select("sea-towers")
    launcher.option_buttons[("empty_columns", "any")].invoke()
    launcher.deal_entry.focus_force()
    for digit in "4711":
        press(launcher.deal_entry, digit)
    assert launcher.deal_var.get() == "4711"
    press(launcher.deal_entry, "Return")
    assert played.calls == [("sea-towers", {"empty_columns": "any"}, 4711)]


def test_an_invalid_deal_number_disables_play_and_says_why(root):
    launcher, played = make(root)
    press(launcher.deal_entry, "1")
    press(launcher.deal_entry, "x")
    assert launcher.deal_var.get() == "1x"
    assert "digits" in launcher.deal_message.cget("text")
    assert launcher.play_button.instate(["disabled"])
    press(launcher.deal_entry, "Return")
    click(launcher.play_button)
    assert played.calls == []

    for text, word in (("0", "start at 1"), ("1" * 21, "20 digits")):
        launcher.deal_var.set(text)
        root.update()
        assert word in launcher.deal_message.cget("text")
        assert launcher.play_button.instate(["disabled"])

    launcher.deal_var.set("9" * 20)
    root.update()
    assert launcher.deal_message.cget("text") == ""
    assert not launcher.play_button.instate(["disabled"])
    click(launcher.play_button)
    assert played.calls[-1][2] == 10**20 - 1


def test_double_click_on_a_variant_plays_it(root):
    launcher, played = make(root)
    launcher.tree.see("freecell")  # 32 built-ins: it may be scrolled out of view
    root.update()
    x, y, _w, h = launcher.tree.bbox("freecell")
    for clicks in (1, 2):  # two clicks in quick succession make a double click
        launcher.tree.event_generate("<ButtonPress-1>", x=x + 5, y=y + h // 2)
        launcher.tree.event_generate("<ButtonRelease-1>", x=x + 5, y=y + h // 2)
        root.update()
        if clicks == 1:
            assert launcher.selected_variant == "freecell"
            assert played.calls == []
    assert played.calls == [("freecell", {}, None)]


def test_last_variant_and_options_are_preselected(root):
    settings = Settings(last_variant="sea-towers", last_options={"empty_columns": "any"})
    launcher, _ = make(root, settings)
    assert launcher.tree.selection() == ("sea-towers",)
    assert launcher.options == {"empty_columns": "any"}


def test_unknown_saved_choices_fall_back_to_defaults(root):
    settings = Settings(last_variant="sea-towers", last_options={"empty_columns": "never"})
    launcher, _ = make(root, settings)
    assert launcher.options == {"empty_columns": "king"}
    settings = Settings(last_variant="no-such-game")
    launcher.destroy()
    launcher, _ = make(root, settings)
    assert launcher.selected_variant == "seahaven"  # as at the very first start


def test_arrow_keys_choose_the_variant_and_keep_its_options(root):
    launcher, played = make(root)
    launcher.select("sea-towers")
    launcher.option_buttons[("empty_columns", "any")].invoke()
    below = launcher.tree.next("sea-towers")  # the next row of the same group
    assert below == "seahaven"
    press(launcher.tree, "Down")
    assert launcher.selected_variant == below
    assert launcher.name_label.cget("text") == REGISTRY.variants[below].name
    press(launcher.tree, "Up")
    assert launcher.selected_variant == "sea-towers"
    assert launcher.options == {"empty_columns": "any"}
    press(launcher.tree, "Return")
    assert played.calls == [("sea-towers", {"empty_columns": "any"}, None)]


def test_the_picture_follows_the_variant_and_the_deal(root):
    launcher, _ = make(root)
    launcher.select("seahaven")
    seahaven = launcher.preview_image.tobytes()
    launcher.select("double-sea-towers")
    double = launcher.preview_image.tobytes()
    assert seahaven != double
    launcher.deal_var.set("2")
    root.after(400, root.quit)
    root.mainloop()
    assert launcher.caption_label.cget("text") == "Deal 2"
    assert launcher.preview_image.tobytes() != double


def with_family(definition, family, **changes):
    """A copy of a definition whose file says ``family = FAMILY``."""
    import attrs

    return attrs.evolve(definition, data={**definition.data, "family": family}, **changes)


# The first round's eight built-ins: the grouping tests below count on exactly these.
FIRST_EIGHT = frozenset({
    "seahaven", "sea-towers", "double-sea-towers", "double-seahaven", "relaxed-seahaven",
    "freecell", "bakers-game", "eight-off",
})  # fmt: skip


def family_registry():
    """The installed variants with the families of docs/variant-format.md filled in, and
    one of the player's own files."""
    families = {"freecell": "freecell", "bakers-game": "freecell", "eight-off": "freecell"}
    variants = {
        vid: with_family(d, families.get(vid, "seahaven"))
        for vid, d in REGISTRY.variants.items()
        if d.plugin in BUILTIN_PLUGINS and vid in FIRST_EIGHT
    }
    mine = with_family(
        REGISTRY.variants["freecell"], "freecell", id="my-cell", name="My Cell",
        plugin=USER_PLUGIN, source="/home/me/variants/my-cell.toml",
    )  # fmt: skip
    variants["my-cell"] = mine
    return Registry(variants=variants)


def rows(launcher, group):
    return [launcher.tree.set(r, "name") for r in launcher.tree.get_children(f"group:{group}")]


def test_games_are_grouped_by_family_with_two_deck_yours_and_recent(root):
    settings = Settings(recent_variants=("sea-towers", "freecell", "no-longer-installed"))
    launcher, played = make(root, settings, registry=family_registry())
    groups = [launcher.tree.set(g, "name") for g in launcher.tree.get_children()]
    assert groups == [
        "Recent (2)", "Yours (1)", "FreeCell type (4)", "Seahaven type (5)", "Two-deck (2)",
    ]  # fmt: skip
    assert rows(launcher, "recent") == ["Sea Towers", "FreeCell"]
    assert rows(launcher, "yours") == ["My Cell"]
    assert rows(launcher, "freecell") == ["Baker's Game", "Eight Off", "FreeCell", "My Cell"]
    assert rows(launcher, "two-deck") == ["Double Sea Towers", "Double Seahaven Towers"]
    assert launcher.tree.parent("double-sea-towers") == "group:seahaven"
    # A click on a game in another group chooses that game.
    launcher.tree.see("recent:freecell")
    root.update()
    x, y, _w, h = launcher.tree.bbox("recent:freecell")
    launcher.tree.event_generate("<ButtonPress-1>", x=x + 40, y=y + h // 2)
    launcher.tree.event_generate("<ButtonRelease-1>", x=x + 40, y=y + h // 2)
    root.update()
    assert launcher.selected_variant == "freecell"
    launcher.select("my-cell")
    assert launcher.plugin_label.cget("text") == "Yours: /home/me/variants/my-cell.toml"
    assert launcher.tree.set("my-cell", "plugin") == USER_PLUGIN
    click(launcher.play_button)
    assert played.calls == [("my-cell", {}, None)]


def test_the_filter_box_keeps_matching_games_and_return_plays_the_first(root):
    launcher, played = make(root, registry=family_registry())
    launcher.select("seahaven")
    launcher.filter_entry.focus_force()
    for key in ("d", "o", "u", "b", "l", "e"):
        press(launcher.filter_entry, key)
    assert launcher.filter_var.get() == "double"
    assert launcher.visible_variants() == ["double-sea-towers", "double-seahaven"]
    assert launcher.selected_variant == "double-sea-towers"  # the current one was hidden
    assert launcher.name_label.cget("text") == "Double Sea Towers"
    launcher.filter_var.set("freecell type")  # words match the family's title too
    root.update()
    assert launcher.visible_variants() == ["my-cell", "bakers-game", "eight-off", "freecell"]
    launcher.filter_var.set("no such game")
    root.update()
    assert launcher.visible_variants() == []
    assert "No game matches" in launcher.filter_message.cget("text")
    launcher.filter_var.set("haven RELAXED")
    root.update()
    assert launcher.visible_variants() == ["relaxed-seahaven"]
    press(launcher.filter_entry, "Return")
    assert played.calls == [("relaxed-seahaven", {}, None)]
    launcher.select("freecell")  # hidden by the filter: the filter is cleared
    assert launcher.filter_var.get() == "" and launcher.tree.selection() == ("freecell",)
    assert len(launcher.visible_variants()) == len(family_registry().variants)


def test_launcher_groups_put_unknown_families_before_two_deck_and_other():
    variants = family_registry().variants
    variants = {**variants, "seahaven": with_family(variants["seahaven"], "klondike-like")}
    variants["freecell"] = with_family(variants["freecell"], "other")
    keys = [key for key, _title, _ids in launcher_groups(variants)]
    assert keys == ["yours", "freecell", "seahaven", "klondike-like", "two-deck", "other"]
    titles = {key: title for key, title, _ids in launcher_groups(variants)}
    assert titles["klondike-like"] == "Klondike like"
    assert launcher_groups(variants, (), "zzz") == []


def test_every_heading_and_game_name_shows_whole_in_the_list(root):
    """With every built-in installed, no family heading ("Beleaguered Castle type (5)",
    bold) and no game name is cut off by the Game column's edge."""
    from tkinter import font as tkfont

    launcher, _played = make(root)
    root.update()
    width = int(launcher.tree.column("#0", "width")) - 40  # the indent and the mark
    plain = tkfont.nametofont("TkDefaultFont", root=root)
    bold = plain.copy()
    bold.configure(weight="bold")
    for group in launcher.tree.get_children():
        assert bold.measure(launcher.tree.set(group, "name")) < width - 8, group
        for row in launcher.tree.get_children(group):
            assert plain.measure(launcher.tree.set(row, "name")) < width - 8, row


def test_the_first_column_has_a_heading_and_built_in_games_have_no_source_column(root):
    builtins = {k: v for k, v in REGISTRY.variants.items() if v.plugin in BUILTIN_PLUGINS}
    launcher, _played = make(root, registry=Registry(variants=builtins))
    root.update()
    tree = launcher.tree
    assert tree.heading("#0")["text"] == "Game"
    assert tree.item("seahaven", "text") == "Seahaven Towers"
    # Only built-in games: no "From" column, and no row says "built-in".
    shown = tuple(tree["displaycolumns"])
    assert "plugin" not in shown and shown != ("#all",)
    for group in tree.get_children():
        assert tree.item(group, "text"), group
        for row in tree.get_children(group):
            assert "built-in" not in tree.item(row, "values"), row
