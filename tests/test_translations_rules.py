"""The rules core speaks the player's language: why a move is refused (the sentence the
window's status bar shows), in German, French and Spanish once chosen, in English as
before otherwise (tests/test_rules.py and the other rules tests check the English
texts); the tableau rules the reasons quote are translated too."""

from __future__ import annotations

import pytest

from solitaire_core import i18n
from solitaire_core.deal import deal
from solitaire_core.errors import IllegalMoveError, UnknownVariantError
from solitaire_core.moves import Move, PileRef
from solitaire_core.plugins import get_variant
from solitaire_core.predicates import BUILTIN_PREDICATES
from solitaire_core.rules import apply, explain, resolve
from solitaire_core.session import Session


@pytest.fixture
def freecell_deal_1():
    """FreeCell deal 1: t1 ends 6♠, t2 ends 9♣, t3 ends 2♥, t2 holds 7 cards."""
    return deal(get_variant("freecell").resolve(), 1)


def test_a_refused_move_says_why_in_german(freecell_deal_1) -> None:
    i18n.set_language("de")
    with pytest.raises(IllegalMoveError) as info:
        apply(freecell_deal_1, Move.parse("t1>t2"))
    assert info.value.reason == (
        "6♠ kann nicht auf 9♣: im Tableau verläuft der Aufbau absteigend abwechselnd rot "
        "und schwarz"
    )
    assert explain(freecell_deal_1, Move.parse("t1>f")) == (
        "6♠ kann noch nicht auf eine Ablage: dort muss zuerst 5♠ liegen"
    )
    assert explain(freecell_deal_1, Move.parse("t1>f1")) == (
        "6♠ kann f1 nicht eröffnen: eine Ablage beginnt mit einem Ass"
    )


def test_a_reason_names_piles_as_the_window_does_in_german(freecell_deal_1) -> None:
    i18n.set_language("de")

    def name(ref: PileRef) -> str:
        return {"t1": "Spalte A", "t9": "Spalte I"}[str(ref)]

    with pytest.raises(IllegalMoveError) as info:
        resolve(freecell_deal_1, Move.parse("t1>t9"), name=name)
    assert info.value.reason == "Spalte I gibt es nicht: dieses Spiel hat 8 Spalten"


def test_a_session_refuses_in_the_language_spoken(freecell_deal_1) -> None:
    session = Session.new(get_variant("freecell"), 1)
    i18n.set_language("es")
    with pytest.raises(IllegalMoveError) as info:
        session.play("t1>t3")
    assert info.value.reason == (
        "6♠ no puede ir sobre 2♥: el tablero se construye en orden descendente alternando colores"
    )
    assert session.state == freecell_deal_1


def test_plural_reasons_in_french(freecell_deal_1, board) -> None:
    i18n.set_language("fr")
    with pytest.raises(IllegalMoveError) as info:
        apply(freecell_deal_1, Move.parse("t2>t1x9"))
    assert info.value.reason == "t2 ne contient que 7 cartes"
    # One free cell, no empty column: FreeCell moves at most 2 cards.
    state = board(
        get_variant("freecell").resolve(),
        ["KH", "QS,JH,TS", "2C", "3C", "4C", "5C", "6C", "7C"],
        cells=["8C", "9C", "TC"],
    )
    assert explain(state, Move.parse("t2>t1x3")) == (
        "avec 1 case libre et les colonnes vides, vous pouvez déplacer au plus 2 cartes"
    )


def test_plural_reasons_in_spanish(board) -> None:
    i18n.set_language("es")
    state = board(
        get_variant("freecell").resolve(),
        ["KH", "QS,JH", "2C", "3C", "4C", "5C", "6C", "7C"],
        cells=["8C", "9C", "TC", "JC"],
    )
    assert explain(state, Move.parse("t2>t1x2")) == (
        "con 0 celdas libres y las columnas vacías puede mover como máximo 1 carta"
    )


def test_the_stock_refuses_in_german() -> None:
    rules = get_variant("klondike").resolve()
    state = deal(rules, 1)
    i18n.set_language("de")
    assert explain(state, Move.parse("w>s")) == (
        "der Abwurfstapel wird erst umgedreht, wenn der Talon leer ist"
    )
    assert explain(state, Move.parse("s>t")) == (
        "in diesem Spiel gibt der Talon auf den Abwurfstapel: s>w"
    )


def test_english_reasons_are_unchanged_after_another_language(freecell_deal_1) -> None:
    i18n.set_language("de")
    i18n.set_language("en")
    assert explain(freecell_deal_1, Move.parse("t1>t2")) == (
        "6♠ cannot go on 9♣: the tableau builds down in alternate colours"
    )
    assert explain(freecell_deal_1, Move.parse("t2>t1x9")) == "t2 holds only 7 cards"


@pytest.mark.parametrize("code", ["de", "fr", "es"])
def test_every_built_in_tableau_rule_is_translated(code: str) -> None:
    """The reasons quote the built-in rules' descriptions (solitaire_core/predicates.py),
    which solitaire_core/rules.py marks apart: a description changed there and not here
    would stay English."""
    speak = i18n.translation(code)
    for predicate in BUILTIN_PREDICATES.values():
        assert speak.gettext(predicate.description) != predicate.description, predicate.name


def test_a_move_that_is_no_move_says_so_in_french() -> None:
    i18n.set_language("fr")
    with pytest.raises(IllegalMoveError) as info:
        Move.parse("t3->f")
    assert info.value.reason == (
        "ce n'est pas un coup : écrivez départ>arrivée, par ex. t3>f, c1>t7 ou t2>t5x3"
    )


def test_an_unknown_variant_is_named_in_german() -> None:
    error = UnknownVariantError("nope", ["freecell", "klondike"])
    i18n.set_language("de")
    assert str(error) == "unbekannte Variante 'nope'; installiert: freecell, klondike"
