"""Cards: text that prints and parses back, labels, colours, decks and dense codes."""

from __future__ import annotations

import pytest

from solitaire_core.cards import SUITS, Card, Color, Suit, card_code, full_deck


@pytest.mark.parametrize("card", full_deck(2), ids=str)
def test_text_round_trips_for_every_card(card: Card) -> None:
    assert Card.parse(str(card), deck=card.deck) == card
    assert eval(repr(card)) == card  # repr can be pasted back


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS", Card(1, Suit.SPADES)),
        ("ts", Card(10, Suit.SPADES)),
        ("10h", Card(10, Suit.HEARTS)),
        (" KD ", Card(13, Suit.DIAMONDS)),
        ("Q\u2663", Card(12, Suit.CLUBS)),
        ("7\u2665", Card(7, Suit.HEARTS)),
    ],
)
def test_parse_accepts_the_usual_spellings(text: str, expected: Card) -> None:
    assert Card.parse(text) == expected


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "KX", "ZZ", "AS2", "10"])
def test_parse_rejects_non_cards_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(text)


def test_labels_use_ten_and_suit_symbols() -> None:
    assert Card.parse("TS").label == "10\u2660"
    assert Card.parse("KH").label == "K\u2665"
    assert Card.parse("AD").label == "A\u2666"
    assert str(Card.parse("TS")) == "TS"


def test_hearts_and_diamonds_are_red_clubs_and_spades_black() -> None:
    assert [s.color for s in SUITS] == [Color.BLACK, Color.RED, Color.RED, Color.BLACK]
    assert Card.parse("5D").color is Color.RED


def test_second_deck_copy_is_a_different_card() -> None:
    first, second = Card.parse("AS"), Card.parse("AS", deck=1)
    assert first != second
    assert str(first) == str(second)
    assert "deck=1" in repr(second)


@pytest.mark.parametrize("decks", [1, 2])
def test_full_deck_holds_each_card_once_and_codes_are_dense(decks: int) -> None:
    cards = full_deck(decks)
    assert len(cards) == len(set(cards)) == 52 * decks
    assert sorted(card_code(c) for c in cards) == list(range(52 * decks))
    for suit in SUITS:
        assert sum(1 for c in cards if c.suit is suit) == 13 * decks
