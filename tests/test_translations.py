"""Translations (solitaire_core/i18n.py): every string the code marks is translated in
every catalog, with the same fields; the language follows the settings or the
environment; a window built in German shows German menus, toolbar and status bar."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from solitaire_core import i18n
from solitaire_core.persistence.settings import LANGUAGE_CHOICES, Settings

ROOT = Path(__file__).resolve().parent.parent
LOCALES = [code for code in i18n.LANGUAGES if code != "en"]
KEYWORDS = {"_": None, "gettext": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def marked_strings() -> set[str | tuple[str, str]]:
    """The strings the code passes to ``_``/``gettext``/``N_``, and the (singular,
    plural) pairs of ``ngettext``, extracted as ``pybabel extract -F babel.cfg`` does."""
    found: set[str | tuple[str, str]] = set()
    for folder in ("solitaire_core", "ui_tk"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add(message if isinstance(message, str) else tuple(message))
    return found


def catalog(code: str):
    with (i18n.LOCALE_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po").open("rb") as file:
        return read_po(file, locale=code)


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def test_the_code_marks_the_windows_strings():
    marked = marked_strings()
    assert {"Game", "Undo to winnable", "Play", "Deal {number}", "Language"} <= marked


@pytest.mark.parametrize("code", LOCALES)
def test_every_marked_string_is_translated_with_the_same_fields(code: str):
    """No string the code marks is missing, empty or fuzzy in the catalog; no entry is
    left over from a string the code no longer has; every translation keeps the
    ``{fields}`` the code fills in (a missing one would raise when shown)."""
    marked = marked_strings()
    entries = {m.id: m for m in catalog(code) if m.id}
    assert marked - set(entries) == set(), "not in the catalog"
    assert set(entries) - marked == set(), "no longer in the code"
    for msgid, message in entries.items():
        assert not message.fuzzy, msgid
        english = msgid if isinstance(msgid, tuple) else (msgid,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), msgid
        for form in forms:
            assert fields(form) == fields(english[0]), (msgid, form)


def test_the_template_holds_every_marked_string():
    with (i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot").open("rb") as file:
        template = {m.id for m in read_po(file) if m.id}
    assert template == marked_strings()


def test_a_language_is_chosen_by_code_and_english_is_the_code_s_own():
    assert i18n.set_language("de") == "de"
    assert i18n.gettext("Game") == "Spiel"
    assert i18n.gettext("Moves {count}").format(count=3) == "Züge 3"
    assert i18n.set_language("fr") == "fr"
    assert i18n.gettext("Undo to winnable") == "Annuler jusqu'à gagnable"
    assert i18n.set_language("es") == "es"
    assert i18n.gettext("Play") == "Jugar"
    assert i18n.ngettext("{count} win", "{count} wins", 1).format(count=1) == "1 victoria"
    assert i18n.ngettext("{count} win", "{count} wins", 4).format(count=4) == "4 victorias"
    assert i18n.set_language("en") == "en"
    assert i18n.gettext("Game") == "Game"
    assert i18n.gettext("a string no catalog has") == "a string no catalog has"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        i18n.set_language("xx")
    assert i18n.current_language() == "en"


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"LANGUAGE": "fr_CA:de"}, "fr"),
        ({"LANGUAGE": "pt_BR:es", "LANG": "de_DE.UTF-8"}, "es"),
        ({"LC_ALL": "de_AT.UTF-8"}, "de"),
        ({"LC_MESSAGES": "es_MX.UTF-8", "LANG": "de_DE.UTF-8"}, "es"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_system_language_is_read_as_gettext_reads_it(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], expected: str
):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    assert i18n.set_language(None) == expected


def test_the_language_setting_takes_a_known_code_only():
    assert Settings().language == "system"
    assert Settings(language="de").to_dict()["language"] == "de"
    assert set(LANGUAGE_CHOICES) == {"system", *i18n.LANGUAGES}
    with pytest.raises(ValueError, match="language must be one of"):
        Settings(language="klingon")
    with pytest.raises(TypeError, match="language must be a language code"):
        Settings(language=7)  # type: ignore[arg-type]


def test_a_hand_edited_unknown_language_falls_back_with_a_warning(solitaire_home: Path):
    from solitaire_core.persistence.paths import settings_path
    from solitaire_core.persistence.settings import load_settings

    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('format_version = 1\nlanguage = "tlh"\nanimation = false\n')
    settings, warnings = load_settings()
    assert settings.language == "system" and settings.animation is False
    assert any("language" in w for w in warnings)


# -- the window ---------------------------------------------------------------------------


@pytest.mark.gui
def test_a_window_built_in_german_speaks_german(root, solitaire_home: Path):
    from solitaire_tk.shell.app import App
    from solitaire_tk.shell.persist import AppStore

    store = AppStore(solitaire_home)
    store.save_settings(Settings(language="de"))
    store = AppStore(solitaire_home)
    app = App(root, store=store, variant="seahaven", deal=3, modal=False)
    root.update()
    bar = app.menubar
    labels = [bar.entrycget(i, "label") for i in range(int(bar.index("end")) + 1)]
    assert labels == ["Spiel", "Bearbeiten", "Optionen", "Hilfe"]
    game = app.menus["game"]
    assert game.entrycget(0, "label") == "Neues Spiel"
    assert app.toolbar.buttons["undo-winnable"].cget("text") == "Zurück bis gewinnbar"
    assert app.status["moves"].cget("text") == "Züge 0"
    assert app.status["deal"].cget("text") == "Spiel 3"
    assert re.fullmatch(r"Zeit \d+:\d\d", app.status["time"].cget("text"))

    app.show_shortcuts()  # Help > Keyboard shortcuts
    assert app.dialog.rows[-1] == ("Strg+Q", "Beenden (das laufende Spiel bleibt erhalten)")
    app.dialog.destroy()
    app.show_statistics()
    notebook = app.dialog.notebook
    assert [notebook.tab(t, "text") for t in notebook.tabs()] == ["Tabelle", "Verlauf"]
    assert app.dialog.tree.heading("won", "text") == "Gewonnen"
    app.dialog.destroy()

    # Options > Language > Français: saved for the next start, said in French.
    options = app.menus["options"]
    index = next(
        i
        for i in range(int(options.index("end")) + 1)
        if options.type(i) == "cascade" and options.entrycget(i, "label") == "Sprache"
    )
    languages = root.nametowidget(options.entrycget(index, "menu"))
    names = [languages.entrycget(i, "label") for i in range(int(languages.index("end")) + 1)]
    assert names == ["Wie das System", "English", "Deutsch", "Español", "Français"]
    languages.invoke(names.index("Français"))
    assert AppStore(solitaire_home).settings.language == "fr"
    assert app.status_bar.message == "Cette langue s'appliquera au prochain démarrage."
    assert app.menubar.entrycget(0, "label") == "Spiel"  # this window stays German
    assert i18n.current_language() == "de"
