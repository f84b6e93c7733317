"""Behaviour tests for the Pillow card renderer in ``solitaire_tk.faces.cardfaces``."""

from __future__ import annotations

import subprocess
import sys
from collections import deque

import pytest
from PIL import Image
from solitaire_tk.faces import cardfaces
from solitaire_tk.faces.cardfaces import render_back, render_face, render_slot

SIZES = [(40, 56), (50, 70), (80, 112), (160, 224), (240, 336)]
ALL_CARDS = [(rank, suit) for suit in "CDHS" for rank in range(1, 14)]


# --------------------------------------------------------------------------- helpers


def _region(img: Image.Image, fx0: float, fy0: float, fx1: float, fy1: float) -> Image.Image:
    w, h = img.size
    return img.crop((round(fx0 * w), round(fy0 * h), round(fx1 * w), round(fy1 * h)))


def _top_left_index(img: Image.Image) -> Image.Image:
    """The strip that stays visible when cards are fanned: top 22%, left half."""
    return _region(img, 0.0, 0.0, 0.5, 0.22)


def _bottom_right_index(img: Image.Image) -> Image.Image:
    return _region(img, 0.5, 0.78, 1.0, 1.0)


def _pixels(img: Image.Image) -> list[tuple[int, int, int, int]]:
    rgba = img.convert("RGBA")
    flat = getattr(rgba, "get_flattened_data", None)  # Pillow >= 12.1
    return list(flat() if flat is not None else rgba.getdata())


def _is_red(p: tuple[int, ...]) -> bool:
    r, g, b, a = p
    return a > 200 and r > 150 and g < 90 and b < 90


def _is_ink(p: tuple[int, ...]) -> bool:
    """Opaque and clearly not the white card paper."""
    r, g, b, a = p
    return a > 200 and min(r, g, b) < 150


def _ink_fraction(img: Image.Image) -> float:
    px = _pixels(img)
    return sum(_is_ink(p) for p in px) / len(px)


def _mean_ink_colour(img: Image.Image) -> tuple[float, float, float]:
    ink = [p for p in _pixels(img) if _is_ink(p)]
    assert ink, "expected some ink in this region"
    return tuple(sum(p[i] for p in ink) / len(ink) for i in range(3))  # type: ignore[return-value]


def _count_blobs(img: Image.Image) -> int:
    """Number of 4-connected groups of ink pixels."""
    w, h = img.size
    px = _pixels(img)
    ink = [_is_ink(p) for p in px]
    seen = [False] * len(px)
    blobs = 0
    for start in range(len(px)):
        if not ink[start] or seen[start]:
            continue
        blobs += 1
        seen[start] = True
        queue = deque([start])
        while queue:
            i = queue.popleft()
            x, y = i % w, i // w
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if 0 <= nx < w and 0 <= ny < h:
                    j = ny * w + nx
                    if ink[j] and not seen[j]:
                        seen[j] = True
                        queue.append(j)
    return blobs


# --------------------------------------------------------------------------- basics


@pytest.mark.parametrize("size", SIZES)
def test_every_renderer_returns_requested_size_and_rgba(size: tuple[int, int]) -> None:
    w, h = size
    images = [
        render_face(1, "S", w, h),
        render_face(10, "H", w, h, four_colour=True, highlight="#ffd700"),
        render_face(13, "D", w, h),
        render_back(w, h),
        render_slot(w, h),
        render_slot(w, h, "A", kind="foundation", highlight="#ffd700"),
    ]
    for img in images:
        assert img.size == (w, h)
        assert img.mode == "RGBA"


@pytest.mark.parametrize("size", [(40, 56), (240, 336)])
def test_all_52_faces_render_at_extreme_sizes_with_visible_index(size: tuple[int, int]) -> None:
    w, h = size
    for rank, suit in ALL_CARDS:
        img = render_face(rank, suit, w, h)
        assert img.size == size
        assert _ink_fraction(_top_left_index(img)) > 0.03, (rank, suit)


def test_card_is_opaque_inside_and_transparent_outside_the_rounded_corners() -> None:
    img = render_face(5, "C", 80, 112)
    assert img.getpixel((0, 0))[3] < 40
    assert img.getpixel((79, 111))[3] < 40
    assert img.getpixel((40, 3))[3] == 255
    assert img.getpixel((2, 56))[3] == 255


def test_module_does_not_import_tkinter() -> None:
    code = "import sys, solitaire_tk.faces.cardfaces; sys.exit('tkinter' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert result.returncode == 0, result.stderr.decode()


# --------------------------------------------------------------------------- colours


@pytest.mark.parametrize("size", [(40, 56), (80, 112)])
def test_hearts_index_is_red_and_spades_index_is_not(size: tuple[int, int]) -> None:
    hearts = _top_left_index(render_face(7, "H", *size))
    spades = _top_left_index(render_face(7, "S", *size))
    assert sum(map(_is_red, _pixels(hearts))) > 10
    assert sum(map(_is_red, _pixels(spades))) == 0
    assert _ink_fraction(spades) > 0.03
    r, g, b = _mean_ink_colour(spades)
    assert max(r, g, b) < 90  # black ink


def test_two_colour_deck_uses_red_for_diamonds_and_black_for_clubs() -> None:
    r, g, b = _mean_ink_colour(_top_left_index(render_face(4, "D", 80, 112)))
    assert r > 150 and g < 90 and b < 90
    r, g, b = _mean_ink_colour(_top_left_index(render_face(4, "C", 80, 112)))
    assert max(r, g, b) < 90


def test_four_colour_deck_makes_clubs_green_and_diamonds_blue() -> None:
    r, g, b = _mean_ink_colour(_top_left_index(render_face(9, "C", 80, 112, four_colour=True)))
    assert g > r + 40 and g > b + 20
    r, g, b = _mean_ink_colour(_top_left_index(render_face(9, "D", 80, 112, four_colour=True)))
    assert b > r + 40 and b > g + 40
    # Hearts stay red and spades black.
    hearts = _top_left_index(render_face(9, "H", 80, 112, four_colour=True))
    assert sum(map(_is_red, _pixels(hearts))) > 10
    r, g, b = _mean_ink_colour(_top_left_index(render_face(9, "S", 80, 112, four_colour=True)))
    assert max(r, g, b) < 90


def test_highlight_paints_a_border_in_the_requested_colour() -> None:
    plain = render_face(3, "S", 80, 112)
    marked = render_face(3, "S", 80, 112, highlight="#ffd700")
    x, y = 40, 2  # middle of the top edge, just inside the outline
    r, g, b, _ = marked.getpixel((x, y))
    assert r > 200 and 150 < g < 240 and b < 80
    assert plain.getpixel((x, y))[:3] == (255, 255, 255)


# --------------------------------------------------------------------------- layout


@pytest.mark.parametrize("size", [(80, 112), (160, 224)])
@pytest.mark.parametrize("suit", list("CDHS"))
def test_bottom_right_index_is_the_top_left_one_rotated(size: tuple[int, int], suit: str) -> None:
    for rank in (1, 6, 10, 12):
        img = render_face(rank, suit, *size)
        top_left = _top_left_index(img)
        bottom_right = _bottom_right_index(img).transpose(Image.Transpose.ROTATE_180)
        assert top_left.size == bottom_right.size
        assert _ink_fraction(top_left) == pytest.approx(_ink_fraction(bottom_right), abs=0.01)
        diff = [abs(a[0] - b[0]) for a, b in zip(_pixels(top_left), _pixels(bottom_right))]
        assert sum(diff) / len(diff) < 8, (rank, suit)


@pytest.mark.parametrize("rank", range(1, 11))
@pytest.mark.parametrize("suit", list("CDHS"))
def test_centre_shows_one_separate_pip_per_rank(rank: int, suit: str) -> None:
    img = render_face(rank, suit, 160, 224)
    centre = _region(img, 0.08, 0.2, 0.92, 0.8)
    assert _count_blobs(centre) == rank


def test_court_cards_have_a_framed_panel_and_differ_from_each_other() -> None:
    for suit in "CDHS":
        faces = [render_face(rank, suit, 80, 112) for rank in (11, 12, 13)]
        for img in faces:
            centre = _region(img, 0.25, 0.35, 0.75, 0.65)
            assert _ink_fraction(centre) > 0.05
        assert len({img.tobytes() for img in faces}) == 3


def test_all_52_faces_are_distinct() -> None:
    images = {render_face(rank, suit, 80, 112).tobytes() for rank, suit in ALL_CARDS}
    assert len(images) == 52


def test_index_sits_in_the_fanned_strip() -> None:
    """Only the top ~22% of a card shows in a fanned column; the whole index must be there."""
    for rank, suit in [(1, "D"), (12, "S"), (11, "H")]:
        for size in [(50, 70), (80, 112), (160, 224)]:
            img = render_face(rank, suit, *size)
            assert _ink_fraction(_top_left_index(img)) > 0.05
            # Just below the strip, left of any pip or court panel: blank paper.
            assert _ink_fraction(_region(img, 0.05, 0.22, 0.15, 0.35)) == 0, (rank, suit, size)
    ace = render_face(1, "D", 80, 112)
    assert _ink_fraction(_region(ace, 0.05, 0.22, 0.5, 0.3)) == 0


# --------------------------------------------------------------------------- anti-aliasing


def test_edges_are_anti_aliased() -> None:
    img = render_face(8, "S", 80, 112)
    corner_alpha = {img.getpixel((x, y))[3] for x in range(8) for y in range(8)}
    assert any(0 < a < 255 for a in corner_alpha), "rounded corner alpha is not smoothed"
    # Glyph and suit edges: grey levels between paper white and ink black.
    greys = [p for p in _pixels(_top_left_index(img)) if p[3] == 255 and 60 < p[0] < 200]
    assert len(greys) > 10


# --------------------------------------------------------------------------- backs and slots


def test_back_is_an_opaque_blue_pattern() -> None:
    img = render_back(80, 112)
    centre = _region(img, 0.2, 0.2, 0.8, 0.8)
    px = _pixels(centre)
    assert all(p[3] == 255 for p in px)
    blue = sum(1 for r, g, b, _ in px if b > r + 40)
    assert blue > len(px) * 0.5
    assert len(set(px)) > 10  # a pattern, not a flat fill


def test_slot_is_mostly_transparent_and_label_adds_marks() -> None:
    empty = render_slot(80, 112)
    labelled = render_slot(80, 112, "K")
    centre_empty = _pixels(_region(empty, 0.3, 0.3, 0.7, 0.7))
    centre_label = _pixels(_region(labelled, 0.3, 0.3, 0.7, 0.7))
    assert max(p[3] for p in centre_empty) < 100
    assert max(p[3] for p in centre_label) > max(p[3] for p in centre_empty) + 50
    assert render_slot(80, 112, "A").tobytes() != labelled.tobytes()
    # The outline is visible along the edge.
    assert max(p[3] for p in _pixels(_region(empty, 0.0, 0.4, 0.05, 0.6))) > 100


def test_slot_kinds_and_highlight() -> None:
    for kind in cardfaces.SLOT_KINDS:
        assert render_slot(60, 84, kind=kind).size == (60, 84)
    assert render_slot(60, 84).tobytes() != render_slot(60, 84, kind="cell").tobytes()
    lit = render_slot(60, 84, highlight="#00ff00")
    r, g, b, a = lit.getpixel((30, 1))
    assert g > 200 and r < 80 and a > 200


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("rank", "suit", "bad"),
    [(0, "S", "0"), (14, "H", "14"), (5, "X", "'X'"), (-1, "C", "-1"), (5, "s", "'s'")],
)
def test_invalid_card_raises_value_error_naming_the_value(rank: int, suit: str, bad: str) -> None:
    with pytest.raises(ValueError, match=f"got {bad}$"):
        render_face(rank, suit, 80, 112)


@pytest.mark.parametrize("rank", [1.0, "1", True, None])
def test_non_int_rank_is_rejected(rank: object) -> None:
    with pytest.raises(ValueError, match="rank"):
        render_face(rank, "S", 80, 112)  # type: ignore[arg-type]


def test_invalid_sizes_colours_and_kinds_raise_value_error() -> None:
    with pytest.raises(ValueError, match="width.*got 0"):
        render_face(1, "S", 0, 112)
    with pytest.raises(ValueError, match="height.*got -5"):
        render_back(80, -5)
    with pytest.raises(ValueError, match="highlight.*'not-a-colour'"):
        render_face(1, "S", 80, 112, highlight="not-a-colour")
    with pytest.raises(ValueError, match="kind.*'pile'"):
        render_slot(80, 112, kind="pile")


def test_tiny_sizes_do_not_crash() -> None:
    for w, h in [(1, 1), (7, 10), (15, 21)]:
        assert render_face(12, "H", w, h, highlight="red").size == (w, h)
        assert render_back(w, h).size == (w, h)
        assert render_slot(w, h, "A").size == (w, h)


# --------------------------------------------------------------------------- caching


def test_repeated_renders_hit_the_cache_and_return_independent_copies() -> None:
    cardfaces.clear_cache()
    first = render_face(11, "C", 64, 90)
    first.putpixel((32, 45), (1, 2, 3, 255))  # callers may scribble on their copy
    second = render_face(11, "C", 64, 90)
    info = cardfaces.cache_info()["face"]
    assert info.misses == 1 and info.hits == 1
    assert second is not first
    assert second.getpixel((32, 45)) != (1, 2, 3, 255)
    assert render_face(11, "C", 64, 90, four_colour=True).tobytes() != second.tobytes()
    assert cardfaces.cache_info()["face"].misses == 2


def test_rank_label() -> None:
    labels = [cardfaces.rank_label(r) for r in range(1, 14)]
    assert labels == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
