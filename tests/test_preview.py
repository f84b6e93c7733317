"""Launcher thumbnails drawn with Pillow (no display needed)."""

from __future__ import annotations

import pytest
from sampling import per_game
from solitaire_tk.table.preview import PREVIEW_SIZE, preview_for, preview_frame, render_preview

from solitaire_core.cards import Color
from solitaire_core.deal import deal
from solitaire_core.moves import PileKind, PileRef
from solitaire_core.plugins import get_registry

pytestmark = pytest.mark.usefixtures("solitaire_home")

REGISTRY = get_registry()


def colour_count(image, test) -> int:
    data = image.convert("RGB").tobytes()
    return sum(1 for pixel in zip(data[0::3], data[1::3], data[2::3]) if test(pixel))


def is_white(p) -> bool:
    return min(p) > 245


def is_red(p) -> bool:
    return p[0] > 170 and p[1] < 70 and p[2] < 80


def is_blue(p) -> bool:
    return p[2] > 160 and p[0] < 60 and p[1] < 120


@pytest.mark.parametrize("variant_id", per_game(REGISTRY))
def test_every_variant_gets_a_picture_of_the_requested_size_with_cards(variant_id):
    image = preview_for(REGISTRY.variants[variant_id])
    assert image.size == PREVIEW_SIZE
    assert image.mode == "RGB"
    # Cards cover at least 2% of the picture: Der Katzenschwanz and Die Schlange deal one
    # long column (every card after a King starts a new one), so their cards are small.
    assert colour_count(image, is_white) > 0.02 * PREVIEW_SIZE[0] * PREVIEW_SIZE[1]
    # Red faces where the game has red cards (Spider (1 Suit) is all clubs).
    reds = any(c.color is Color.RED for c in REGISTRY.variants[variant_id].resolve().cards)
    assert (colour_count(image, is_red) > 100) is reds


def test_pictures_differ_between_variants_and_deals():
    seahaven = REGISTRY.variants["seahaven"]
    a = preview_for(seahaven, deal_number=1).tobytes()
    assert preview_for(REGISTRY.variants["freecell"], deal_number=1).tobytes() != a
    assert preview_for(seahaven, deal_number=2).tobytes() != a
    assert preview_for(seahaven, deal_number=1).tobytes() == a


def test_other_sizes_and_the_cache_hands_out_copies():
    definition = REGISTRY.variants["double-sea-towers"]
    small = preview_for(definition, size=(240, 150))
    assert small.size == (240, 150)
    small.paste((0, 0, 0), (0, 0, 240, 150))
    assert preview_for(definition, size=(240, 150)).getpixel((120, 75)) != (0, 0, 0)


def test_four_colour_deck_draws_diamonds_blue():
    definition = REGISTRY.variants["freecell"]
    assert colour_count(preview_for(definition), is_blue) == 0
    assert colour_count(preview_for(definition, four_colour=True), is_blue) > 100


def test_cells_are_on_the_left_and_empty_foundations_on_the_right():
    # Seahaven deals two cards into the middle cells; the foundations start empty.
    rules = REGISTRY.variants["seahaven"].resolve()
    width, height = PREVIEW_SIZE
    image = render_preview(deal(rules, 1), width, height)
    top = image.crop((0, 0, width, height // 5))
    left = top.crop((0, 0, width // 2, top.height))
    right = top.crop((width // 2, 0, width, top.height))
    assert colour_count(left, is_white) > 200
    assert colour_count(right, is_white) == 0


def test_too_small_a_picture_is_refused():
    rules = REGISTRY.variants["seahaven"].resolve()
    with pytest.raises(ValueError, match="at least 16x16"):
        render_preview(deal(rules, 1), 10, 100)


def white_bands(image) -> int:
    """Horizontal bands of the picture that hold card faces, top to bottom (gaps of a few
    pixels between fanned cards do not split a band)."""
    rgb = image.convert("RGB")
    rows = [
        colour_count(rgb.crop((0, y, rgb.width, y + 1)), is_white) > 3 for y in range(rgb.height)
    ]
    bands, gap = 0, 99
    for has_cards in rows:
        if has_cards:
            bands += gap >= 6
            gap = 0
        else:
            gap += 1
    return bands


def test_a_wide_tableau_is_drawn_in_rows_as_the_table_lays_it_out():
    # Fan's 18 columns of 3 go in two rows of 9 (foundations empty at the side), as on
    # the table, rather than one row of cards too narrow to read.
    fan = preview_for(REGISTRY.variants["fan"])
    assert white_bands(fan) == 2
    assert white_bands(preview_for(REGISTRY.variants["freecell"])) == 1


def near(p, colour, tolerance=12) -> bool:
    return all(abs(a - b) < tolerance for a, b in zip(p, colour))


def slot_text_box(image):
    """The box around the mark drawn inside an empty pile (pale green text on the darker
    green of the slot; the slot's pale outline is left out)."""
    rgb = image.convert("RGB")
    pixels = [(x, y, rgb.getpixel((x, y))) for y in range(rgb.height) for x in range(rgb.width)]
    inside = [(x, y) for x, y, p in pixels if near(p, (18, 88, 52), 6)]  # the slot's fill
    left, right = min(x for x, _ in inside) + 2, max(x for x, _ in inside) - 2
    top, bottom = min(y for _, y in inside) + 2, max(y for _, y in inside) - 2
    text = [
        (x, y)
        for x, y, p in pixels
        if left <= x <= right and top <= y <= bottom and near(p, (120, 170, 140))
    ]
    xs, ys = [x for x, _ in text], [y for _, y in text]
    return min(xs), min(ys), max(xs), max(ys)


def test_empty_foundations_are_marked_with_the_rank_name_as_on_the_table():
    # "Ace", not a lone "A" that reads like column A's key; Bisley's second row "King".
    width, height = PREVIEW_SIZE
    state = deal(REGISTRY.variants["seahaven"].resolve(), 1)
    seahaven = render_preview(state, width, height)
    frame = preview_frame(state, width, height)
    last = frame.layout.slot(PileRef(PileKind.FOUNDATION, 3))
    left, top = frame.point(last.x - 4, last.y - 4)
    right, bottom = frame.point(last.x + frame.layout.card_w + 4, last.y + frame.layout.card_h + 4)
    box = (round(left), round(top), round(right), round(bottom))
    x0, y0, x1, y1 = slot_text_box(seahaven.crop(box))
    assert (x1 - x0) > 2 * (y1 - y0)  # a word of three letters, not one
