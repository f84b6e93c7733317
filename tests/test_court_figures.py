"""Court cards with figures: the standard faces show each Jack, Queen and King as a figure
(Nicu Buculei's public-domain cards, cut out by scripts/build_deck.py), the plain and
high-contrast decks a letter; the whole public-domain deck is a card theme of its own, and
the About box credits it."""

from __future__ import annotations

import pytest
from PIL import Image
from solitaire_tk.faces import cardfaces, themes

from solitaire_core.i18n import set_language


def pixels(face: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    """The RGB pixels inside ``box`` of ``face``."""
    data = face.crop(box).convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def colours(face: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    """The distinct colours (to 1/16 of each channel) inside ``box`` of ``face``."""
    return {(r // 16, g // 16, b // 16) for r, g, b in pixels(face, box)}


def gold(face: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many pixels of ``box`` are crown gold (strong red and green, little blue)."""
    return sum(1 for r, g, b in pixels(face, box) if r > 180 and g > 150 and b < 90)


PANEL = (30, 50, 120, 160)  # the middle of a 150 x 210 card, inside the court panel


@pytest.mark.parametrize("suit", cardfaces.SUITS)
@pytest.mark.parametrize("rank", [11, 12, 13])
def test_the_standard_court_cards_show_a_figure_and_the_plain_ones_a_letter(
    rank: int, suit: str
) -> None:
    standard = cardfaces.render_face(rank, suit, 150, 210)
    plain = cardfaces.render_face(rank, suit, 150, 210, style="plain")
    # A figure is drawn in many colours (face, hair, clothes): hundreds of shades; a
    # letter in the suit's colour on a tinted panel: a few dozen, its edges' shades.
    assert len(colours(standard, PANEL)) > 150
    assert len(colours(plain, PANEL)) < 60
    # The corner index stays the same.
    assert standard.crop((0, 0, 30, 50)).tobytes() == plain.crop((0, 0, 30, 50)).tobytes()


def test_kings_and_queens_wear_a_crown_and_knaves_do_not() -> None:
    for suit in cardfaces.SUITS:
        assert gold(cardfaces.render_face(13, suit, 150, 210), PANEL) > 100
        assert gold(cardfaces.render_face(12, suit, 150, 210), PANEL) > 60
        assert gold(cardfaces.render_face(13, suit, 150, 210, style="plain"), PANEL) == 0


def test_figures_shrink_with_the_card_and_large_index_keeps_them() -> None:
    small = cardfaces.render_face(13, "H", 60, 84)
    assert len(colours(small, (12, 20, 48, 64))) > 60
    large = cardfaces.render_face(13, "H", 150, 210, style="large-index")
    assert gold(large, PANEL) > 60
    contrast = cardfaces.render_face(13, "H", 150, 210, style="high-contrast")
    assert gold(contrast, PANEL) == 0


def test_without_the_figures_file_a_letter_is_drawn(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(cardfaces, "FIGURES", tmp_path / "gone")
    cardfaces.clear_cache()
    cardfaces.figure.cache_clear()
    try:
        missing = cardfaces.render_face(12, "S", 150, 210)
        plain = cardfaces.render_face(12, "S", 150, 210, style="plain")
        assert missing.tobytes() == plain.tobytes()
    finally:
        cardfaces.clear_cache()
        cardfaces.figure.cache_clear()


def test_every_figure_is_installed_with_the_package() -> None:
    names = sorted(p.name for p in cardfaces.FIGURES.glob("*.png"))
    assert names == sorted(f"{s}{r}.png" for s in "CDHS" for r in "JQK")
    for rank in (11, 12, 13):
        for suit in cardfaces.SUITS:
            picture = cardfaces.figure(rank, suit)
            assert picture is not None and picture.height > 200


def test_the_plain_deck_and_the_open_clip_art_deck_are_card_themes() -> None:
    offered = {t.key: t for t in themes.available_themes(folders=[])}
    assert offered["plain"].name == "Plain, no figures (built-in)"
    assert offered["openclipart"].source == "built-in"
    plain = themes.face_renderer("plain")(13, "D", 150, 210, False)
    assert gold(plain, PANEL) == 0


def test_the_open_clip_art_deck_holds_every_card_and_renders_them(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("SOLITAIRE_HOME", str(tmp_path))
    deck = themes.svg_deck(themes.deck_path("openclipart"))
    assert len(deck.ids) == 52
    king = themes.face_renderer("openclipart")(13, "H", 140, 190, False)
    assert king.size == (140, 190)
    assert gold(king, (20, 20, 120, 170)) > 100  # its own king, crowned
    seven = themes.face_renderer("openclipart")(7, "C", 140, 190, False)
    assert gold(seven, (0, 0, 140, 190)) < 20  # no figure: a few pixels at most


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_the_about_box_credits_the_figures_in_the_players_language(root) -> None:
    from solitaire_tk.dialogs.common import show_about

    try:
        set_language("de")
        dialog = show_about(root, wait=False)
        assert dialog is not None
        assert "Nicu Buculei" in dialog.text and "gemeinfrei" in dialog.text
        assert "Ein Patience-Programm" in dialog.text and "MIT-Lizenz" in dialog.text
        dialog.destroy()
    finally:
        set_language("en")
