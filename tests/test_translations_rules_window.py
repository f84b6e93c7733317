"""The Rules window and the table speak the player's language: the rules the window
writes from a variant's settings (ui_tk/dialogs/rules.py), the piles' names in the table's
messages (ui_tk/table/layout.py), the words under the stock, the reserve and the foundations
(ui_tk/table/view.py), the options in words (ui_tk/widgets.py) and the thumbnails' empty-pile
marks (ui_tk/table/preview.py), in German, French and Spanish. The variant's name, summary and
option labels, and its rules page, stay English. The English texts are checked by
tests/test_ui_dialogs.py, tests/test_ui_stock.py, tests/test_ui_reserve.py and the others."""

from __future__ import annotations

from types import SimpleNamespace

import attrs
import pytest
from solitaire_tk.dialogs import rules as rules_dialog
from solitaire_tk.table.layout import pile_name
from solitaire_tk.table.preview import preview_for
from solitaire_tk.table.view import TableView, click_move
from solitaire_tk.widgets import option_text

from solitaire_core import i18n
from solitaire_core.deal import deal
from solitaire_core.moves import PileKind, PileRef
from solitaire_core.plugins import get_registry

REGISTRY = get_registry()


def _pieces(variant_id: str, monkeypatch, tmp_path, **options: str) -> list[str]:
    """The rules text of a variant as the window lists it (without its rules page)."""
    monkeypatch.setattr(rules_dialog, "DOCS_DIR", tmp_path)
    definition = REGISTRY.variants[variant_id]
    return [
        text for _style, text in rules_dialog.rules_text(definition, definition.resolve(options))
    ]


def _descendants(widget):
    for child in widget.winfo_children():
        yield child
        yield from _descendants(child)


def _after(pieces: list[str], heading: str) -> str:
    return pieces[pieces.index(heading) + 1]


@pytest.mark.gui
def test_the_rules_window_of_klondike_speaks_german(root, tmp_path, monkeypatch):
    monkeypatch.setattr(rules_dialog, "DOCS_DIR", tmp_path)
    i18n.set_language("de")
    definition = REGISTRY.variants["klondike"]
    dialog = rules_dialog.show_rules(root, definition, definition.resolve(), wait=False)
    dialog.update()
    shown = dialog.text.get("1.0", "end")
    assert dialog.title() == "Regeln von Klondike"
    assert shown.startswith("Klondike\n")  # the variant's name stays English
    assert "Karten\nEin Blatt mit 52 Karten.\n" in shown
    assert (
        "7 Tableau-Spalten, keine Zellen und 4 Ablagen. Alle Karten werden offen gegeben: " in shown
    )
    assert "1 Karte in Spalte 1, 2 Karten in Spalte 2, " in shown
    assert (
        "Auf dem Tableau wird auf die oberste Karte einer Spalte gebaut, und zwar absteigend "
        "abwechselnd rot und schwarz." in shown
    )
    assert (
        "Eine leere Spalte nimmt einen König oder eine Folge, die mit einem König beginnt." in shown
    )
    assert (
        "Talon und verdeckte Karten\nVon den Karten jeder Spalte werden 0, 1, 2, 3, 4, 5, 6 "
        "(ab der ersten Spalte) verdeckt gegeben." in shown
    )
    assert (
        "Die übrigen Karten bilden den Talon. Ein Klick darauf (oder seine Taste) legt eine "
        "Karte offen auf den Abwurfstapel; nur die oberste Karte des Abwurfstapels wird "
        "gespielt. Ist der Talon leer, wird der Abwurfstapel beliebig oft zu einem neuen "
        "Talon umgedreht." in shown
    )
    assert "Eine Karte auf einer Ablage darf wieder ins Spiel kommen." in shown
    assert "Das Spiel ist gewonnen, wenn alle 52 Karten auf den Ablagen liegen." in shown
    assert "One deck" not in shown and "The cards left over" not in shown
    buttons = [w for w in _descendants(dialog) if w.winfo_class() == "TButton"]
    assert [b.cget("text") for b in buttons] == ["Schließen"]
    buttons[0].invoke()
    assert not dialog.winfo_exists()


def test_the_rules_of_seahaven_in_german(monkeypatch, tmp_path):
    i18n.set_language("de")
    pieces = _pieces("seahaven", monkeypatch, tmp_path)
    assert pieces[0] == "Seahaven Towers"
    assert _after(pieces, "Auslage") == (
        "10 Tableau-Spalten, 4 Zellen (für je eine Karte) und 4 Ablagen. Alle Karten werden "
        "offen gegeben: 5 Karten in jede Spalte, Reihe für Reihe; dann je eine Karte in die "
        "Zellen 2 und 3."
    )
    assert _after(pieces, "Bauen") == (
        "Auf dem Tableau wird auf die oberste Karte einer Spalte gebaut, und zwar absteigend "
        "in derselben Farbe. Jede oberste Karte und die Karte in einer Zelle darf in eine "
        "freie Zelle."
    )
    assert _after(pieces, "Folgen ziehen").startswith(
        "Eine in Reihenfolge gebaute Folge von Karten zieht in einem Zug, wenn sie höchstens "
        "(freie Zellen + 1) Karten umfasst; leere Spalten zählen nicht. In der Schwierigkeit "
        "Schummeln ziehen Folgen jeder Länge;"
    )
    assert _after(pieces, "Ablagen") == (
        "Die 4 Ablagen werden aufsteigend in derselben Farbe vom Ass bis zum König aufgebaut, "
        "eine je Farbe. Karten auf den Ablagen sind aus dem Spiel. Eine Folge in derselben "
        "Farbe darf in einem Zug auf eine Ablage."
    )
    assert "Stock and face-down cards" not in pieces and "Talon und verdeckte Karten" not in pieces


def test_the_rules_count_in_french_and_spanish_with_their_plural_forms(monkeypatch, tmp_path):
    i18n.set_language("fr")
    pieces = _pieces("pyramid", monkeypatch, tmp_path)
    # one foundation (singular), 28 cards (plural); French typography before ":" and ";"
    assert _after(pieces, "Disposition") == (
        "Une disposition de 28 cartes qui se chevauchent, aucune case et 1 fondation. Une "
        "carte va sur chacune des 28 places de la disposition, à partir de la place du haut, "
        "puis la première carte du talon sur la défausse."
    )
    assert _after(pieces, "Talon et cartes face cachée").endswith(
        "Quand le talon est vide, la défausse est retournée pour former un nouveau talon, 2 fois."
    )
    i18n.set_language("es")
    pieces = _pieces("pyramid", monkeypatch, tmp_path)
    assert _after(pieces, "Mazo y cartas boca abajo").endswith(
        "Cuando el mazo se vacía, el descarte se vuelve a convertir en un mazo nuevo 2 veces."
    )
    assert _after(pieces, "Disposición").startswith(
        "Una disposición de 28 cartas superpuestas, ninguna celda y 1 fundación."
    )


def test_an_option_and_a_rank_below_the_base_are_written_in_the_language(monkeypatch, tmp_path):
    i18n.set_language("fr")
    pieces = _pieces("sea-towers", monkeypatch, tmp_path, empty_columns="any")
    # the option's label and choice are the variant's own words, in English
    assert _after(pieces, "Options de ce jeu") == "Empty columns take : Any card."
    assert _after(pieces, "Colonnes vides") == (
        "Une colonne vide accepte : n'importe quelle carte ou suite."
    )
    i18n.set_language("de")
    pieces = _pieces("canfield", monkeypatch, tmp_path)
    assert "absteigend abwechselnd rot und schwarz, vom König weiter zum Ass." in _after(
        pieces, "Bauen"
    )
    assert _after(pieces, "Ablagen").endswith(
        "Der Rang der Grundkarte beginnt jede Ablage; der Tisch zeigt ihn unter den Ablagen "
        "an („Grundrang: Bube“)."
    )


def test_the_table_names_its_piles_and_labels_in_the_language():
    state = deal(REGISTRY.variants["canfield"].resolve(), 1)
    keys = {PileRef(PileKind.TABLEAU, 2): "c", PileRef(PileKind.FOUNDATION, 0): "k"}
    i18n.set_language("de")
    assert pile_name(PileRef(PileKind.TABLEAU, 2), keys) == "Spalte C"
    assert pile_name(PileRef(PileKind.CELL, 1), {}) == "Zelle 2"
    assert pile_name(PileRef(PileKind.STOCK, 0), {}) == "der Talon"
    assert TableView.reserve_label(state) == "13 Karten"
    assert TableView.base_label(state).startswith("Grundrang: ")
    assert TableView.stock_label(None, state).endswith(" · ∞")  # type: ignore[arg-type]
    i18n.set_language("fr")
    assert pile_name(PileRef(PileKind.FOUNDATION, 0), keys) == "la fondation K"
    assert TableView.reserve_label(SimpleNamespace(reserve=[1])) == "1 carte"  # type: ignore[arg-type]
    assert TableView.reserve_label(state) == "13 cartes"
    assert (
        option_text(REGISTRY.variants["sea-towers"], {"empty_columns": "any"})
        == "Empty columns take : Any card"
    )
    i18n.set_language("es")
    assert pile_name(PileRef(PileKind.WASTE, 0), {}) == "el descarte"


def test_a_click_on_an_empty_column_says_so_in_the_language():
    state = deal(REGISTRY.variants["klondike"].resolve(), 1)
    column = PileRef(PileKind.TABLEAU, 0)
    state = attrs.evolve(state, columns=((), *state.columns[1:]))  # the first one emptied
    i18n.set_language("es")
    move, reason = click_move(state, column, 0, name=lambda ref: pile_name(ref, {}))
    assert move is None
    assert reason == "la columna 1 no tiene cartas"


def test_a_thumbnail_marks_empty_piles_in_the_language():
    definition = REGISTRY.variants["klondike"]
    english = preview_for(definition, size=(320, 200))
    i18n.set_language("de")
    german = preview_for(definition, size=(320, 200))  # "Ass", not the cached "Ace"
    assert english.tobytes() != german.tobytes()
