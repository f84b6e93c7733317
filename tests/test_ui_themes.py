"""Card themes (built-in, high contrast, large index, SVG decks cut from a sheet), the
win celebration and the win dialog's record figures, in a real Tk window.

No test needs a deck installed on the machine: :func:`tiny_deck` writes a small SVG
deck in each of the two id conventions (Aisleriot's ``heart_5``, KDE's ``5_heart``),
with every card's rank written as the height of a coloured band, so a test can tell
from the pixels which card was cut out.
"""

from __future__ import annotations

import gzip
import tkinter as tk
from pathlib import Path

import pytest
from PIL import Image
from solitaire_tk.faces import cardfaces
from solitaire_tk.faces.themes import DECKS_ENV, SvgDeck, ThemeError, available_themes
from ui_helpers import close, open_app, pump, put, settle

from solitaire_core.cards import Card

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

SUITS = {"club": "#008000", "diamond": "#0000ff", "heart": "#ff0000", "spade": "#000000"}
RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"]


def band(rank: int) -> int:
    """Height (sheet units) of the band that tells card ``rank`` apart (card: 50x70)."""
    return 4 + 3 * (rank - 1)


def tiny_deck(folder: Path, *, kde: bool = False, name: str = "tiny.svg") -> Path:
    """A 52-card SVG sheet: each card a group with a white 50x70 card, a band of its
    suit's colour whose height gives its rank, and an orange mark drawn by a <use> of a
    shared definition; all inside a translated group (an ancestor's transform)."""
    cards = []
    for row, (suit, colour) in enumerate(SUITS.items()):
        for col, rank in enumerate(RANKS):
            card_id = f"{rank}_{suit}" if kde else f"{suit}_{rank}"
            cards.append(
                f'<g id="{card_id}" transform="translate({col * 60},{row * 80})">'
                f'<rect width="50" height="70" fill="#ffffff"/>'
                f'<rect x="5" y="5" width="40" height="{band(col + 1)}" fill="{colour}"/>'
                f'<use xlink:href="#mark" x="25" y="62"/></g>'
            )
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="800" height="340"><defs><circle id="mark" r="4" fill="#ffa500"/></defs>'
        f'<g transform="translate(10,7)">{"".join(cards)}</g></svg>'
    )
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode()
    path.write_bytes(gzip.compress(data) if name.endswith(".svgz") else data)
    return path


def rgb(image: Image.Image, x: int, y: int) -> tuple[int, int, int]:
    r, g, b, _ = image.getpixel((x, y))
    return r, g, b


def near(colour: tuple[int, int, int], hexa: str, tolerance: int = 40) -> bool:
    want = tuple(int(hexa[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tolerance for a, b in zip(colour, want))


# --------------------------------------------------------------------------- SVG decks


@pytest.mark.parametrize("kde", [False, True])
def test_one_card_is_cut_out_of_the_sheet(tmp_path, kde):
    deck = SvgDeck(tiny_deck(tmp_path, kde=kde, name="deck.svgz"))
    for rank, suit, colour in [(1, "H", "#ff0000"), (5, "D", "#0000ff"), (13, "S", "#000000")]:
        face = deck.render(rank, suit, 100, 140)  # twice the sheet's size
        assert face.size == (100, 140)
        # The card fills the image (a 5:7 card in a 5:7 box): white at the corners.
        assert near(rgb(face, 2, 2), "#ffffff") and near(rgb(face, 97, 137), "#ffffff")
        # Its band, in its suit's colour, ends where its rank says.
        bottom = 2 * (5 + band(rank))
        assert near(rgb(face, 50, bottom - 4), colour)
        assert near(rgb(face, 50, bottom + 4), "#ffffff")
        # The mark drawn by <use> of a definition elsewhere on the sheet.
        assert near(rgb(face, 50, 124), "#ffa500", 60)


def test_a_file_that_is_not_a_deck_is_refused_in_plain_words(tmp_path):
    with pytest.raises(ThemeError, match="cannot|No such"):
        SvgDeck(tmp_path / "missing.svg")
    (tmp_path / "bad.svg").write_text("<svg><g id='club_1'/>")
    with pytest.raises(ThemeError, match="not an SVG file"):
        SvgDeck(tmp_path / "bad.svg")
    (tmp_path / "picture.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    with pytest.raises(ThemeError, match="not a card deck"):
        SvgDeck(tmp_path / "picture.svg")
    # A card that draws nothing is refused when it is needed, naming the file.
    path = tiny_deck(tmp_path, name="blank.svg")
    text = path.read_text()
    start = text.index('<g id="club_1"')
    end = text.index("</g>", start) + len("</g>")
    path.write_text(text[:start] + '<g id="club_1"/>' + text[end:])
    deck = SvgDeck(path)
    assert deck.render(2, "C", 50, 70).size == (50, 70)
    with pytest.raises(ThemeError, match="blank.svg.*club_1 draws nothing"):
        deck.render(1, "C", 50, 70)


def test_decks_are_found_in_the_folders_other_programs_use(tmp_path):
    tiny_deck(tmp_path / "aisleriot" / "cards", name="tiny.svgz")
    kde = tmp_path / "carddecks" / "svg-tiny"
    tiny_deck(kde, kde=True, name="tiny.svgz")
    (kde / "index.desktop").write_text("[KDE Backdeck]\nName=Tiny KDE\nSVG=tiny.svgz\n")
    themes = available_themes([tmp_path / "aisleriot" / "cards", tmp_path / "carddecks"])
    names = [t.name for t in themes]
    assert names[:3] == [
        "Standard (built-in)", "Large index (built-in)", "High contrast (built-in)",
    ]  # fmt: skip
    assert "Tiny (Aisleriot)" in names and "Tiny KDE (KDE)" in names


# --------------------------------------------------------------------------- in the window


def canvas_pixel(view, card: Card, x: int, y: int) -> tuple[int, int, int]:
    name = view.itemcget(view.item_of(card), "image")
    value = view.tk.call(name, "get", x, y)
    parts = view.tk.splitlist(value) if isinstance(value, str) else value
    return tuple(int(v) for v in parts)[:3]  # type: ignore[return-value]


def test_choosing_an_svg_deck_redraws_the_cards_and_is_remembered(
    root, tmp_path, monkeypatch, board, seahaven
):
    decks = tmp_path / "decks"
    path = tiny_deck(decks, name="tiny.svgz")
    monkeypatch.setenv(DECKS_ENV, str(decks))
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KS,5H", "6H", "AS,9C"]))
    view = app.view
    themes = app.card_themes
    assert str(path) in [t.key for t in themes.themes]
    # The menu: Options > Card theme > folder decks > Tiny (folder).
    options = app.menus["options"]
    menu = root.nametowidget(options.entrycget("Card theme", "menu"))
    sub = root.nametowidget(menu.entrycget("folder decks", "menu"))
    sub.invoke(0)
    pump(root, lambda: themes.current == str(path), seconds=120)
    assert themes.current == str(path)
    settle(app)
    w = view.layout.card_w
    # 5♥ now has a red band, ending at 5's height (on a card the theme's size).
    scale = w / 50
    bottom = round(scale * (5 + band(5)))
    assert near(canvas_pixel(view, Card.parse("5H"), w // 2, bottom - 3), "#ff0000")
    assert near(canvas_pixel(view, Card.parse("5H"), w // 2, bottom + 3), "#ffffff")
    assert app.store.settings.card_theme == str(path) or app.settings.card_theme == str(path)
    app.close(save=False)
    second = tk.Tk()
    try:
        again = open_app(second, tmp_path)
        pump(second, lambda: again.card_themes.current == str(path), seconds=120)
        assert again.card_themes.var.get() == str(path)
    finally:
        close(second)


def test_a_deck_that_is_gone_falls_back_to_the_built_in_faces(root, tmp_path):
    import attrs
    from solitaire_tk.shell.persist import AppStore

    from solitaire_core.plugins import get_registry

    store = AppStore(tmp_path, registry=get_registry())
    store.save_settings(attrs.evolve(store.settings, card_theme=str(tmp_path / "gone.svgz")))
    app = open_app(root, tmp_path)
    assert app.card_themes.current == "built-in"
    assert app.card_themes.var.get() == "built-in"
    assert "Card theme" in app.message and "built-in faces are used" in app.message


def test_high_contrast_and_large_index_decks(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["KS,7D", "AS,9C"]))
    view = app.view
    standard = cardfaces.render_face(7, "D", 100, 140)
    large = cardfaces.render_face(7, "D", 100, 140, style="large-index")
    contrast = cardfaces.render_face(7, "D", 100, 140, style="high-contrast")

    def index_height(face: Image.Image) -> int:
        # The rank "7" alone: left of the suit mark and of the pips' left column.
        corner = face.crop((3, 3, 18, 50)).convert("L").point(lambda v: 255 if v < 160 else 0)
        box = corner.getbbox()
        assert box is not None
        return box[3] - box[1]

    assert index_height(large) >= 1.3 * index_height(standard)
    # High contrast: diamonds in deep blue (not red), a thick black edge.
    colours = {c for _, c in contrast.convert("RGB").getcolors(maxcolors=1 << 20)}
    assert (0, 60, 190) in colours and (204, 18, 38) not in colours
    assert all(v < 40 for v in rgb(contrast, 2, 70))
    with pytest.raises(ValueError, match="style must be one of"):
        cardfaces.render_face(7, "D", 100, 140, style="huge")
    app.card_themes.choose("high-contrast")
    settle(app)
    w, h = view.layout.card_w, view.layout.card_h
    expected = cardfaces.render_face(7, "D", w, h, style="high-contrast")
    x, y = w // 2, h // 2
    assert canvas_pixel(view, Card.parse("7D"), 2, h // 2)[:3] == rgb(expected, 2, h // 2)
    assert canvas_pixel(view, Card.parse("7D"), x, y)[:3] == rgb(expected, x, y)


# --------------------------------------------------------------------------- the win


def test_a_win_throws_confetti_and_the_dialog_shows_the_record(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    put(app, board(seahaven, ["QS,KS"], foundations=["AC..KC", "AD..KD", "AH..KH", "AS..JS"]))
    assert app.play("t1>c")
    settle(app)
    assert app.session.is_won
    assert app.celebration.running and app.view.find_withtag("celebration")
    figures = app.dialog.figures
    assert figures["Games won"] == "1 of 1 (100%)"
    assert figures["Streak"] == "1 win"
    assert figures["Fewest moves"] == figures["Moves"]
    pump(root, lambda: not app.celebration.running, seconds=10)
    assert not app.view.find_withtag("celebration")


def test_the_celebration_can_be_switched_off(root, tmp_path, board, seahaven):
    app = open_app(root, tmp_path)
    app.celebration.set_enabled(False)
    assert app.store.settings.celebrate is False or app.settings.celebrate is False
    put(app, board(seahaven, ["QS,KS"], foundations=["AC..KC", "AD..KD", "AH..KH", "AS..JS"]))
    assert app.play("t1>c")
    settle(app)
    assert app.session.is_won
    assert not app.celebration.running and not app.view.find_withtag("celebration")
