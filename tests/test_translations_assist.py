"""The hint, the demo and Undo to winnable speak the player's language: a hint's move in
words and how sure a hint that never peeks is, the winnability field, the Cancel button,
Undo to winnable's count of moves and the keyboard focus's messages, in German, French and
Spanish (ui_tk/shell/assist.py, ui_tk/shell/rewind.py, ui_tk/table/focus.py). The English
texts are checked by tests/test_ui_assist.py, tests/test_ui_honest_hint.py and the
others."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from solitaire_tk.shell.assist import advice_text, describe_move
from solitaire_tk.shell.persist import AppStore
from solitaire_tk.shell.rewind import Rewinder
from solitaire_tk.table.focus import KeyboardFocus
from solitaire_tk.table.layout import pile_keys

from solitaire_core import i18n
from solitaire_core.moves import Move, PileKind, PileRef
from solitaire_core.persistence.settings import Settings
from solitaire_core.solver import Verdict, solve_deal
from solitaire_core.solver.honest import HonestAdvice


def test_a_hint_that_never_peeks_says_how_sure_it_is_in_each_language():
    move = Move.parse("t3>t1")
    i18n.set_language("de")
    assert advice_text(HonestAdvice(move, 7, 10)) == (
        "gewinnt in 7 von 10 möglichen Verteilungen der verdeckten Karten"
    )
    assert advice_text(HonestAdvice(None, 0, 10)) == (
        "kein Gewinn in 10 möglichen Verteilungen der verdeckten Karten gefunden: "
        "kein Zug wird empfohlen"
    )
    why = "this move turns a face-down card up"
    assert advice_text(HonestAdvice(move, 0, 10, fallback=why)) == (
        "kein Gewinn in 10 möglichen Verteilungen der verdeckten Karten gefunden; "
        "dieser Zug deckt eine verdeckte Karte auf"
    )
    # The number of ways decides the plural: one way in French, several in Spanish.
    i18n.set_language("fr")
    assert advice_text(HonestAdvice(move, 1, 1)) == (
        "gagne dans 1 sur 1 disposition possible des cartes cachées"
    )
    i18n.set_language("es")
    assert advice_text(HonestAdvice(move, 3, 10)) == (
        "gana en 3 de 10 disposiciones posibles de las cartas ocultas"
    )
    i18n.set_language("en")
    assert advice_text(HonestAdvice(move, 7, 10)) == (
        "wins in 7 of 10 ways the hidden cards may lie"
    )


def test_a_hint_names_cards_and_piles_in_german_and_french(board, seahaven):
    state = board(seahaven, ["8S", "KH,7S", "", "9H,8H,7H", "6D"], cells=["AD"])
    keys = pile_keys(seahaven)
    i18n.set_language("de")
    assert describe_move(state, Move.parse("t2>t1"), keys) == "7♠ aus Spalte B auf 8♠ in Spalte A"
    assert describe_move(state, Move.parse("c1>f"), keys) == "A♦ aus Zelle 1 auf die Ablage"
    assert describe_move(state, Move.parse("t5>c2"), keys) == "6♦ aus Spalte E in Zelle 2"
    state = board(seahaven, ["8S", "KH,QH,JH", ""])
    assert describe_move(state, Move.parse("t2>t3x3"), keys) == (
        "K♥–J♥ aus Spalte B in die leere Spalte C"
    )
    i18n.set_language("fr")
    assert describe_move(state, Move.parse("t2>t3x3"), keys) == (
        "K♥–J♥ de la colonne B vers la colonne vide C"
    )


def test_undo_to_winnable_counts_the_moves_it_took_back_in_german_and_spanish():
    said: list[str] = []
    app = SimpleNamespace(undo=lambda: None, set_message=lambda text, **_kw: said.append(text))
    rewinder = Rewinder(app)
    i18n.set_language("de")
    rewinder._undo(1)
    rewinder._undo(3)
    i18n.set_language("es")
    rewinder._undo(2)
    assert said == [
        "1 Zug zurückgenommen: diese Stellung ist noch zu gewinnen.",
        "3 Züge zurückgenommen: diese Stellung ist noch zu gewinnen.",
        "2 movimientos deshechos: esta posición aún se puede ganar.",
    ]


def test_the_keyboard_focus_says_which_pile_is_empty_in_german():
    focus = KeyboardFocus.__new__(KeyboardFocus)  # only its words: no table needed
    column, stock = PileRef(PileKind.TABLEAU, 2), PileRef(PileKind.STOCK, 0)
    focus.view = SimpleNamespace(key_of={column: "c"})
    i18n.set_language("de")
    assert focus._empty(column) == "Spalte C ist leer."
    assert focus._empty(stock) == "Der Talon ist leer."
    i18n.set_language("en")
    assert focus._empty(column) == "Column C is empty."


# --------------------------------------------------------------------------- the window


def german_app(root, home: Path, variant: str, deal: int):  # noqa: ANN001, ANN201
    """A game window built in German: the language chosen, and saved in the settings the
    window reads (it sets the language it is built in from them)."""
    from ui_helpers import open_app

    i18n.set_language("de")
    AppStore(home).save_settings(Settings(language="de"))
    return open_app(root, home, variant, deal=deal)


def winnable_seahaven_deal() -> int:
    from solitaire_core.plugins import get_variant

    rules = get_variant("seahaven").resolve()
    for number in range(1, 50):
        if solve_deal(rules, number, timeout=10.0, max_states=100_000).verdict is Verdict.WINNABLE:
            return number
    pytest.skip("no winnable Seahaven deal among the first 50")


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_a_german_window_gives_its_hint_and_winnability_in_german(root, tmp_path):
    from ui_helpers import pump

    app = german_app(root, tmp_path, "seahaven", winnable_seahaven_deal())
    assert app.assist.cancel_button.cget("text") == "Abbrechen"
    state = app.session.state
    app.hint()
    pump(root, lambda: app.assist.search_job is None and app.view.hinted is not None)
    words = describe_move(state, app.view.hinted, app.view.key_of)
    assert re.fullmatch(r"\S+ aus (Spalte|Zelle) \w+ (auf|in) .+", words), words
    assert app.message == f"Tipp: {words}."
    app.set_show_winnability(True)
    assert app.assist.field.cget("text") == "Gewinnbar"


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_a_german_window_says_how_sure_a_hint_from_the_cards_in_sight_is(root, tmp_path):
    from ui_helpers import wait_for

    app = german_app(root, tmp_path, "klondike", 3)
    assert not app.assist.peek
    app.hint()
    assert wait_for(root, lambda: app.message.startswith(("Tipp:", "Kein Tipp")), seconds=60)
    assert re.fullmatch(
        r"Tipp: .+ \(gewinnt in \d+ von 10 möglichen Verteilungen der verdeckten Karten\)\.",
        app.message,
    ), app.message
