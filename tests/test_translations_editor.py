"""The Progression chart, the variant editor and the notices about damaged files in the
player's language: German month names and axis titles on the chart, German buttons and
questions in the editor, French and Spanish notices about a damaged statistics or
settings file (while what is written into files stays English)."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta, timezone

import pytest
from screens import wait_until
from solitaire_tk.dialogs import stats as stats_dialog
from solitaire_tk.editor.window import VariantEditor, copy_for_editing
from solitaire_tk.shell.persist import AppStore

from solitaire_core import i18n
from solitaire_core.persistence import StatsStore
from solitaire_core.persistence.progress import Period, Progression, progression
from solitaire_core.persistence.stats import _read_marker, _Unusable, _write_marker
from solitaire_core.plugins import Registry, build_registry

GERMAN_MONTHS = "Jan|Feb|Mär|Apr|Mai|Jun|Jul|Aug|Sep|Okt|Nov|Dez"


def texts(canvas, tag):
    """The texts of the canvas's text items tagged ``tag``."""
    items = canvas.find_withtag(tag)
    return [canvas.itemcget(item, "text") for item in items if canvas.type(item) == "text"]


# --- the Progression chart ---------------------------------------------------------------


def test_periods_are_named_with_the_languages_own_month_and_day_names():
    sunday = date(2024, 3, 3)
    i18n.set_language("de")
    assert Period(start=sunday, end=sunday, unit="day").label == "3. Mär"
    assert Period(start=sunday, end=sunday, unit="day").title == "So, 3. Mär 2024"
    assert Period(start=sunday, end=sunday, unit="month").label == "Mär 2024"
    assert Period(start=sunday, end=sunday, unit="week").title == "Woche ab 3. Mär 2024"
    period = Period(
        start=sunday, end=sunday, unit="day", played=5, won=3, win_rate=0.6,
        fastest_seconds=125.0,
    )  # fmt: skip
    assert period.summary() == (
        "So, 3. Mär 2024: 5 gespielt, 3 gewonnen; Siegquote bisher 60 %; "
        "schnellster Sieg bisher 2:05"
    )
    assert Progression(span="week", unit="day").unit_title == "Tage"
    i18n.set_language("fr")
    assert Period(start=date(2024, 2, 5), end=date(2024, 2, 5), unit="day").title == (
        "lun. 5 févr. 2024"
    )
    one = Period(start=sunday, end=sunday, unit="day", played=1, won=1, win_rate=1.0)
    assert (
        one.summary() == "dim. 3 mars 2024 : 1 jouée, 1 gagnée ; taux de victoires jusque-là 100 %"
    )
    i18n.set_language("es")
    assert Period(start=date(2024, 8, 1), end=date(2024, 8, 1), unit="month").label == "ago 2024"


def test_a_note_in_place_of_the_chart_is_translated():
    now = datetime(2024, 6, 20, 12, tzinfo=timezone.utc)

    class Game:
        def __init__(self, days: float, won: bool) -> None:
            self.finished_at = now - timedelta(days=days)
            self.won, self.cheated, self.seconds = won, False, 100.0

    i18n.set_language("de")
    games = [Game(100, True), Game(99, False)]
    note = progression(games, "week", now=now, tz=timezone.utc).note()
    assert note == (
        "Keine Spiele in den letzten 7 Tagen; das letzte war am 13. Mär 2024. "
        "„Gesamte Zeit“ zeigt jedes Spiel."
    )


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_the_progression_tab_in_german_shows_german_months_and_axes(root, tmp_path):
    now = datetime.now(timezone.utc)
    with StatsStore(tmp_path / "stats.sqlite3") as store:
        for days, won in ((3.2, False), (3.1, True), (2, True), (0.2, False), (0.1, True)):
            store.record_game(
                "sea-towers", {"empty_columns": "any"}, 7, won=won, moves=90, seconds=300.0,
                used_undo=False, used_hint=False, cheated=False,
                finished_at=now - timedelta(days=days),
            )  # fmt: skip
        i18n.set_language("de")
        dialog = stats_dialog.show_statistics(root, store, wait=False)
        dialog.notebook.select(dialog.chart)
        canvas = dialog.chart.canvas
        wait_until(root, lambda: canvas.find_withtag("period-label"))
        assert texts(canvas, "axis") == ["Spiele", "Siegquote"]
        assert texts(canvas, "unit-title") == ["Tage"]
        assert "Gespielt" in texts(canvas, "legend")
        assert texts(canvas, "strip-title") == ["Schnellster Sieg bisher"]
        labels = texts(canvas, "period-label")
        assert labels and all(re.fullmatch(rf"\d+\. ({GERMAN_MONTHS})", t) for t in labels), labels
        assert "100 %" in texts(canvas, "tick")
        spans = [button.cget("text") for button in dialog.chart.span_buttons.values()]
        assert spans == ["Letzte 7 Tage", "Letzte 30 Tage", "Letzte 12 Monate", "Gesamte Zeit"]
        summary = dialog.chart.summary()
        assert ", gesamte Zeit: 5 gespielt, 3 gewonnen (60 %). Zeigen Sie" in summary
        dialog.close()


# --- the variant editor ------------------------------------------------------------------

BASE = build_registry()


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_the_editor_in_german_shows_german_buttons_tabs_and_question(root):
    i18n.set_language("de")
    registry = Registry(
        variants=dict(BASE.variants),
        predicates=dict(BASE.predicates),
        deal_methods=dict(BASE.deal_methods),
    )
    data = copy_for_editing(BASE.variants["sea-towers"], registry)
    editor = VariantEditor(root, registry=registry, data=data, modal=False)
    editor.update()
    try:
        assert editor.save_button.cget("text") == "Speichern"
        assert editor.play_button.cget("text") == "Spielen"
        assert editor.close_button.cget("text") == "Schließen"
        assert editor.solve_button.cget("text") == "Spiele 1-20 lösen"
        tabs = [editor.notebook.tab(tab, "text") for tab in editor.notebook.tabs()]
        assert tabs[:3] == ["Spiel", "Auslage", "Austeilen"]
        assert editor.title() == "Varianten-Werkstatt: My Sea Towers"
        assert editor.status_label.cget("text").startswith("Gültig: My Sea Towers")
        assert "Kommentare in der Datei gehen aber verloren" in editor.where_label.cget("text")
        editor.set_text("tableau.columns", "many")
        editor.validate()
        assert editor.status_label.cget("text").startswith("Noch nicht gültig (Reiter Auslage): ")
        assert not editor.close()  # not modal: the question waits for its answer
        question = editor.question
        assert question is not None
        labels = [button.cget("text") for button in question.choice_buttons.values()]
        assert labels == ["Änderungen verwerfen", "Abbrechen"]
        assert question.message.startswith("Ihre Änderungen an My Sea Towers können nicht")
        question.choice_buttons["cancel"].invoke()
    finally:
        editor.destroy()


# --- notices about damaged files ---------------------------------------------------------


def test_a_damaged_statistics_file_is_reported_in_french(tmp_path):
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(b"these are not the statistics you are looking for\n" * 40)
    i18n.set_language("fr")
    with StatsStore(path) as store:
        (warning,) = store.warnings
    assert warning.startswith(
        f"Le fichier de statistiques {path} n'est pas une base de statistiques (ce n'est "
        "pas un fichier SQLite). Il a été mis de côté sous stats.sqlite3.corrupt-"
    )
    assert warning.endswith(" et de nouvelles statistiques sont commencées.")


def test_a_salvage_marker_stays_english_and_is_read_back_in_spanish(tmp_path):
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 1000)
    i18n.set_language("es")
    problem = _Unusable("is damaged ({damage})", salvageable=True, damage="page 2 is bad")
    assert problem.shown == "está dañado (page 2 is bad)"
    marker = _write_marker(path, str(problem), problem)
    note = json.loads(marker.read_text("utf-8"))
    assert note["reason"] == "is damaged (page 2 is bad)"  # the file keeps English
    assert _read_marker(marker)[1] == "está dañado (page 2 is bad)"


def test_a_damaged_settings_file_is_reported_in_spanish(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_text("animation = [not toml", "utf-8")
    i18n.set_language("es")
    store = AppStore(tmp_path)
    try:
        (warning,) = store.warnings
    finally:
        store.close()
    assert warning.startswith(
        f"El archivo de ajustes {config / 'settings.toml'} no es TOML válido ("
    )
    assert "Se apartó como settings.toml.corrupt-" in warning
    assert warning.endswith(" Se usan los ajustes predeterminados.")
