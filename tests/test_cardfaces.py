"""Card faces drawn with Pillow: sizes, colours, corner indices, anti-aliasing, bad input."""

from __future__ import annotations

import pytest
from PIL import Image

from ui_tk.cardfaces import render_back, render_face, render_slot


def _corner(img: Image.Image, frac: float = 0.22) -> Image.Image:
    w, h = img.size
    return img.crop((0, 0, int(w * 0.3), int(h * frac))).convert("RGB")


def _ink(img: Image.Image) -> list[tuple[int, int, int]]:
    """Pixels clearly not white card stock."""
    raw = img.convert("RGB").tobytes()
    pixels = zip(raw[0::3], raw[1::3], raw[2::3])
    return [p for p in pixels if min(p) < 170]


def _reddish(p: tuple[int, int, int]) -> bool:
    return p[0] > 150 and p[1] < 90 and p[2] < 90


@pytest.mark.parametrize("size", [(40, 56), (80, 112), (240, 336)])
def test_face_has_requested_size_and_mode(size: tuple[int, int]) -> None:
    img = render_face(12, "H", *size)
    assert img.size == size
    assert img.mode == "RGBA"


def test_corner_index_is_drawn_in_suit_colour() -> None:
    hearts = _ink(_corner(render_face(7, "H", 80, 112)))
    spades = _ink(_corner(render_face(7, "S", 80, 112)))
    assert hearts and spades, "the top-left index must not be blank"
    assert sum(map(_reddish, hearts)) > len(hearts) // 2
    assert not any(_reddish(p) for p in spades)


def test_four_colour_deck_recolours_clubs_and_diamonds() -> None:
    clubs = _ink(_corner(render_face(5, "C", 80, 112, four_colour=True)))
    diamonds = _ink(_corner(render_face(5, "D", 80, 112, four_colour=True)))
    assert sum(1 for r, g, b in clubs if g > r + 30 and g > b) > len(clubs) // 2
    assert sum(1 for r, g, b in diamonds if b > r + 30 and b > g) > len(diamonds) // 2
    classic = _ink(_corner(render_face(5, "D", 80, 112)))
    assert sum(map(_reddish, classic)) > len(classic) // 2


def test_bottom_right_index_mirrors_the_top_left() -> None:
    img = render_face(9, "S", 120, 168).convert("RGB")
    w, h = img.size
    top = img.crop((0, 0, w // 3, h // 5))
    bottom = img.crop((w - w // 3, h - h // 5, w, h)).rotate(180)
    a, b = len(_ink(top)), len(_ink(bottom))
    assert a > 0 and abs(a - b) <= 0.25 * a


def test_distinct_cards_give_distinct_images() -> None:
    seen = {render_face(r, s, 60, 84).tobytes() for r in range(1, 14) for s in "CDHS"}
    assert len(seen) == 52


def test_edges_are_anti_aliased() -> None:
    img = render_face(1, "S", 80, 112)
    histogram = img.getchannel("A").histogram()
    assert sum(histogram[1:255]) > 0, "rounded corners should blend into the table"


def test_back_and_slots_render_at_size() -> None:
    assert render_back(70, 98).size == (70, 98)
    slot = render_slot(70, 98, "K", kind="tableau")
    assert slot.size == (70, 98)
    plain = render_slot(70, 98, "", kind="tableau")
    assert slot.tobytes() != plain.tobytes(), "the label must be visible"


def test_highlight_changes_the_face() -> None:
    plain = render_face(4, "C", 80, 112)
    marked = render_face(4, "C", 80, 112, highlight="#ffd700")
    assert plain.tobytes() != marked.tobytes()


@pytest.mark.parametrize(
    ("args", "needle"),
    [((0, "S"), "0"), ((14, "S"), "14"), ((5, "X"), "X")],
)
def test_bad_rank_or_suit_is_refused_by_name(args: tuple[int, str], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        render_face(args[0], args[1], 80, 112)
