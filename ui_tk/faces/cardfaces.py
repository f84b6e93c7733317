"""Vector-drawn playing cards, rendered with Pillow at any pixel size.

Nothing here touches tkinter: every card face, card back and empty-pile outline
is drawn from geometry at 4x supersampling and downscaled with a Lanczos
filter, so edges stay smooth from tiny (40x56 px) to large (240x336 px and
beyond) cards.  The one picture is the court cards' figure: a Jack, Queen or
King shows the figure of Nicu Buculei's public-domain playing cards (Open Clip
Art Library) in its panel, cut out by ``scripts/build_deck.py`` into
``figures/<suit><rank>.png`` beside this module; the ``"plain"`` style (and
``"high-contrast"``) shows a large letter instead, as does any style where
that file is missing.

Suit symbols are built from polygons and circles (never font glyphs), so they
look the same whatever fonts are installed.  Rank text uses DejaVu Sans Bold
when available (Debian package ``fonts-dejavu-core``) and otherwise falls back
to Pillow's built-in scalable font.

All three public render functions are memoised: asking again for the same card
at the same size returns a fresh copy of the cached image instead of drawing
it again.  Use :func:`clear_cache` to drop the cache and :func:`cache_info` to
inspect it.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageColor, ImageDraw, ImageFont

__all__ = [
    "SLOT_KINDS",
    "STYLES",
    "SUITS",
    "FIGURES",
    "bold_font",
    "cache_info",
    "cap_ratio",
    "clear_cache",
    "figure",
    "rank_label",
    "render_back",
    "render_face",
    "render_slot",
]

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
"""Valid suit codes: clubs, diamonds, hearts, spades."""

SLOT_KINDS: tuple[str, ...] = ("tableau", "foundation", "cell", "reserve", "stock", "waste")
"""Valid ``kind`` values for :func:`render_slot`."""

_SS = 4  # supersampling factor
_MIN_DRAW = 16  # smaller requests are drawn at this size, then shrunk
_CACHE_SIZE = 512

_RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Point = tuple[float, float]
_Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# --------------------------------------------------------------------------- colours

_CARD_WHITE: RGBA = (255, 255, 255, 255)
_BORDER: RGBA = (52, 52, 60, 255)
_RED: RGB = (204, 18, 38)
_BLACK: RGB = (22, 22, 28)
_GREEN: RGB = (8, 130, 56)
_BLUE: RGB = (18, 84, 200)

_TWO_COLOUR = {"C": _BLACK, "D": _RED, "H": _RED, "S": _BLACK}
_FOUR_COLOUR = {"C": _GREEN, "D": _BLUE, "H": _RED, "S": _BLACK}
# High contrast: four deep colours far apart in hue and lightness, on pure white.
_HIGH_CONTRAST = {"C": (0, 100, 0), "D": (0, 60, 190), "H": (190, 0, 0), "S": (0, 0, 0)}

STYLES: tuple[str, ...] = ("standard", "large-index", "high-contrast", "plain")
"""Valid ``style`` values for :func:`render_face`: the standard faces (figures on the
court cards); a corner index about half as large again (pips and court panels shrink to
make room); that large index with :data:`_HIGH_CONTRAST` colours and a thick black edge,
for poor sight (a letter on the court cards, which reads better than a figure from
afar); and the standard faces with a letter on the court cards."""

_FIGURE_STYLES = frozenset({"standard", "large-index"})
FIGURES = Path(__file__).with_name("figures")
"""The court figures' pictures, ``<suit><rank letter>.png`` (``HK.png``)."""

_BACK_FIELD: RGBA = (26, 56, 118, 255)
_BACK_LINE: RGBA = (88, 128, 196, 255)
_BACK_FRAME: RGBA = (214, 226, 246, 255)

_SLOT_FILL = {
    "tableau": (0, 0, 0, 34),
    "foundation": (255, 255, 255, 30),
    "cell": (0, 0, 0, 46),
    "reserve": (0, 0, 0, 34),
    "stock": (0, 0, 0, 34),
    "waste": (0, 0, 0, 22),
}
_SLOT_LINE: RGBA = (255, 255, 255, 150)
_SLOT_TEXT: RGBA = (255, 255, 255, 165)
_SLOT_DASHED = frozenset({"tableau", "waste"})

_SUIT_CHARS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


# --------------------------------------------------------------------------- validation


def rank_label(rank: int) -> str:
    """Return the index text for ``rank`` (1..13): ``"A"``, ``"2"`` .. ``"10"``, ``"J"``, ...

    Raises:
        ValueError: if ``rank`` is not an integer from 1 to 13.
    """
    _check_rank(rank)
    return _RANK_LABELS.get(rank, str(rank))


def _check_rank(rank: object) -> None:
    if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 13:
        raise ValueError(f"rank must be an int from 1 (Ace) to 13 (King), got {rank!r}")


def _check_suit(suit: object) -> None:
    if suit not in SUITS:
        raise ValueError(f"suit must be one of {', '.join(SUITS)}, got {suit!r}")


def _check_size(width: object, height: object) -> None:
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int (pixels), got {value!r}")


def _check_colour(name: str, colour: str | None) -> None:
    if colour is None:
        return
    try:
        ImageColor.getrgb(colour)
    except (ValueError, AttributeError, TypeError):
        raise ValueError(f"{name} must be a Pillow colour string, got {colour!r}") from None


# --------------------------------------------------------------------------- suit geometry


class _Shape(NamedTuple):
    """A suit symbol in a unit box: polygons and circles, coordinates in 0..1."""

    polygons: tuple[tuple[Point, ...], ...]
    circles: tuple[tuple[float, float, float], ...]  # (cx, cy, r)


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 24) -> list[Point]:
    """Sample a cubic Bezier curve (excluding its end point)."""
    pts = []
    for i in range(n):
        t = i / n
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3
        pts.append(
            (
                a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
            )
        )
    return pts


def _path(start: Point, segments: Sequence[tuple[Point, Point, Point]]) -> list[Point]:
    """Sample a closed path of cubic segments ``(control1, control2, end)``."""
    pts: list[Point] = []
    cur = start
    for c1, c2, end in segments:
        pts.extend(_cubic(cur, c1, c2, end))
        cur = end
    return pts


def _mirror_x(seg: Sequence[tuple[Point, Point, Point]], start: Point) -> list[Point]:
    """Return the half path ``seg`` (right half) plus its mirror image, as one closed outline."""
    right = _path(start, seg) + [seg[-1][2]]
    left = [(1.0 - x, y) for x, y in reversed(right)]
    return right + left[1:-1]


def _heart_outline(top: float, bottom: float) -> list[Point]:
    """Heart outline between ``top`` (lobe tops) and ``bottom`` (tip), full width 0..1."""
    h = bottom - top

    def p(x: float, y: float) -> Point:
        return (x, top + y * h)

    segs = [
        (p(0.55, 0.06), p(0.64, -0.01), p(0.755, 0.0)),
        (p(0.90, 0.01), p(1.0, 0.13), p(1.0, 0.29)),
        (p(1.0, 0.52), p(0.80, 0.68), p(0.5, 1.0)),
    ]
    return _mirror_x(segs, p(0.5, 0.17))


@functools.cache
def _suit_shape(suit: str) -> _Shape:
    """Geometry of ``suit`` normalised so its larger side spans exactly 0..1."""
    polys: list[list[Point]] = []
    circles: list[tuple[float, float, float]] = []
    if suit == "H":
        polys.append(_heart_outline(0.0, 0.92))
    elif suit == "S":
        body = [(x, 0.80 - y) for x, y in _heart_outline(0.0, 0.80)]
        polys.append(body)
        polys.append(_stem(0.60))
    elif suit == "D":
        k = 0.06  # inward bow of the sides
        cx, cy, hw = 0.5, 0.5, 0.39
        corners = [(cx, 0.0), (cx + hw, cy), (cx, 1.0), (cx - hw, cy)]
        outline: list[Point] = []
        for i in range(4):
            a, b = corners[i], corners[(i + 1) % 4]
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            ctrl = (mid[0] + (cx - mid[0]) * k * 2, mid[1] + (cy - mid[1]) * k * 2)
            outline.extend(_cubic(a, ctrl, ctrl, b, 16))
        polys.append(outline)
    elif suit == "C":
        r = 0.235
        circles.extend([(0.5, 0.255, r), (0.262, 0.575, r), (0.738, 0.575, r)])
        polys.append([(0.5, 0.30), (0.30, 0.58), (0.70, 0.58), (0.5, 0.72)])
        polys.append(_stem(0.55))
    else:  # pragma: no cover - validated by callers
        raise ValueError(f"unknown suit {suit!r}")
    return _normalise(polys, circles)


def _stem(y_top: float) -> list[Point]:
    """The flared foot shared by spades and clubs, from ``y_top`` down to 1.0."""
    left = _cubic((0.465, y_top), (0.47, 0.86), (0.40, 0.97), (0.29, 1.0), 12)
    right = _cubic((0.71, 1.0), (0.60, 0.97), (0.53, 0.86), (0.535, y_top), 12)
    return [*left, (0.29, 1.0), *right, (0.535, y_top)]


def _normalise(polys: list[list[Point]], circles: list[tuple[float, float, float]]) -> _Shape:
    xs = [x for poly in polys for x, _ in poly] + [c[0] - c[2] for c in circles]
    xs += [c[0] + c[2] for c in circles]
    ys = [y for poly in polys for _, y in poly] + [c[1] - c[2] for c in circles]
    ys += [c[1] + c[2] for c in circles]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    span = max(x1 - x0, y1 - y0)
    ox = x0 - (span - (x1 - x0)) / 2
    oy = y0 - (span - (y1 - y0)) / 2
    return _Shape(
        tuple(tuple(((x - ox) / span, (y - oy) / span) for x, y in poly) for poly in polys),
        tuple(((cx - ox) / span, (cy - oy) / span, r / span) for cx, cy, r in circles),
    )


def _draw_suit(
    draw: ImageDraw.ImageDraw,
    suit: str,
    cx: float,
    cy: float,
    size: float,
    fill: int | tuple[int, ...],
    *,
    flip: bool = False,
) -> None:
    """Draw ``suit`` centred on (cx, cy), its larger side ``size`` px, upside down if ``flip``."""
    shape = _suit_shape(suit)
    sgn = -1.0 if flip else 1.0

    def tx(u: float, v: float) -> Point:
        return (cx + sgn * (u - 0.5) * size, cy + sgn * (v - 0.5) * size)

    for poly in shape.polygons:
        draw.polygon([tx(u, v) for u, v in poly], fill=fill)
    for u, v, r in shape.circles:
        x, y = tx(u, v)
        rr = r * size
        draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill)


# --------------------------------------------------------------------------- text

_FONT_CANDIDATES = (
    "DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
    "Arial Bold.ttf",
    "arialbd.ttf",
)


@functools.lru_cache(maxsize=64)
def bold_font(size: int) -> _Font:
    """A bold sans font at ``size`` px: DejaVu Sans Bold, else Arial Bold, else
    Pillow's default font (also used by :mod:`solitaire_tk.table.preview`)."""
    for name in _FONT_CANDIDATES:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has no scalable default font
        return ImageFont.load_default()


@functools.lru_cache(maxsize=1)
def cap_ratio() -> float:
    """Cap height of :func:`bold_font` as a fraction of its nominal size (a font
    ``cap / cap_ratio()`` px in size has capitals ``cap`` px tall)."""
    _, top, _, bottom = bold_font(100).getbbox("H")
    return max(0.1, (bottom - top) / 100)


@functools.lru_cache(maxsize=256)
def _text_mask(text: str, cap: int, max_width: int = 0, tracking: float = -0.04) -> Image.Image:
    """Mask ("L") of ``text`` scaled so capitals are ``cap`` px tall.

    The mask's top row is the cap line; glyph parts below the baseline (the
    tail of "Q", "J") hang below ``cap``.  Horizontally the mask is cropped to
    the ink.  If ``max_width`` is positive the text is squeezed to fit it.
    """
    size = max(6, round(cap / cap_ratio()))
    font = bold_font(size)
    _, cap_top, _, baseline = font.getbbox("H")
    cap_src = max(1, baseline - cap_top)
    pad = size
    advance = [font.getlength(ch) for ch in text]
    width = int(sum(advance) + 2 * pad)
    height = int(baseline + size)
    img = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(img)
    x = float(pad)
    for ch, adv in zip(text, advance):
        draw.text((x, 0), ch, fill=255, font=font)
        x += adv + tracking * cap_src
    bbox = img.getbbox()
    if bbox is None:
        return Image.new("L", (1, cap), 0)
    img = img.crop((bbox[0], cap_top, bbox[2], max(bbox[3], baseline)))
    scale = cap / cap_src
    new_w = max(1, round(img.width * scale))
    new_h = max(1, round(img.height * scale))
    if max_width > 0 and new_w > max_width:
        new_w = max_width
    if (new_w, new_h) != img.size:
        img = img.resize((new_w, new_h), Image.Resampling.LANCZOS)
    return img


# --------------------------------------------------------------------------- shared drawing


def _supersampled(width: int, height: int) -> tuple[Image.Image, int, int]:
    big_w, big_h = width * _SS, height * _SS
    return Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0)), big_w, big_h


def _downscale(img: Image.Image, width: int, height: int) -> Image.Image:
    """Lanczos downscale of a supersampled drawing (alpha is premultiplied by Pillow).

    ``reducing_gap`` lets Pillow box-reduce by 2 first, which is visually
    identical here and about 2.5x faster than a full-width Lanczos pass.
    """
    return img.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)


def _corner_radius(big_w: int, big_h: int) -> float:
    return max(_SS * 1.5, 0.075 * min(big_w, big_h))


def _border_width(big_w: int, big_h: int) -> int:
    """Card outline: one output pixel up to ~110 px wide cards, thicker above."""
    return max(_SS, round(min(big_w, big_h / 1.4) / 110))


def _card_base(big_w: int, big_h: int, fill: RGBA = _CARD_WHITE) -> Image.Image:
    img = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        (0, 0, big_w - 1, big_h - 1),
        radius=_corner_radius(big_w, big_h),
        fill=fill,
        outline=_BORDER,
        width=_border_width(big_w, big_h),
    )
    return img


def _draw_highlight(img: Image.Image, colour: str, inset: float) -> None:
    big_w, big_h = img.size
    thick = max(2 * _SS, round(0.045 * min(big_w, big_h / 1.4)))
    rgba = ImageColor.getcolor(colour, "RGBA")
    ImageDraw.Draw(img).rounded_rectangle(
        (inset, inset, big_w - 1 - inset, big_h - 1 - inset),
        radius=max(1.0, _corner_radius(big_w, big_h) - inset),
        outline=rgba,
        width=thick,
    )


def _paste_mask(img: Image.Image, colour: Sequence[int], mask: Image.Image, x: int, y: int) -> None:
    img.paste(tuple(colour), (x, y), mask)


# --------------------------------------------------------------------------- faces

# Pip positions: (column, t) with column -1/0/+1 and t in 0..1 down the pip area.
_PIP_LAYOUT: dict[int, tuple[tuple[int, float], ...]] = {
    2: ((0, 0.0), (0, 1.0)),
    3: ((0, 0.0), (0, 0.5), (0, 1.0)),
    4: ((-1, 0.0), (1, 0.0), (-1, 1.0), (1, 1.0)),
    5: ((-1, 0.0), (1, 0.0), (0, 0.5), (-1, 1.0), (1, 1.0)),
    6: ((-1, 0.0), (1, 0.0), (-1, 0.5), (1, 0.5), (-1, 1.0), (1, 1.0)),
    7: ((-1, 0.0), (1, 0.0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1.0), (1, 1.0)),
    8: (
        (-1, 0.0),
        (1, 0.0),
        (0, 0.25),
        (-1, 0.5),
        (1, 0.5),
        (0, 0.75),
        (-1, 1.0),
        (1, 1.0),
    ),
    9: tuple((c, t) for t in (0.0, 1 / 3, 2 / 3, 1.0) for c in (-1, 1)) + ((0, 0.5),),
    10: tuple((c, t) for t in (0.0, 1 / 3, 2 / 3, 1.0) for c in (-1, 1)) + ((0, 1 / 6), (0, 5 / 6)),
}


class _FaceGeometry(NamedTuple):
    margin_x: int  # left edge of the index, px (supersampled)
    margin_y: int  # top of the index capitals
    cap: int  # index capital height
    pip_top: float  # pip area (centre of the top row of pips)
    pip_bottom: float
    pip: float  # pip size (larger side)
    column_dx: float  # horizontal offset of the side pip columns


def _face_geometry(big_w: int, big_h: int, large_index: bool = False) -> _FaceGeometry:
    if large_index:  # still within the top ~25% of the card, so it shows when fanned
        cap = round(min(0.175 * big_h, 0.25 * big_w))
    else:
        cap = round(min(0.128 * big_h, 0.19 * big_w))
    margin_x = round(max(0.07 * big_w, 2.5 * _SS))
    margin_y = round(max(0.05 * big_h, 2.0 * _SS))
    zone_top = margin_y + 1.22 * cap + 0.025 * big_h
    zone_bottom = big_h - zone_top
    zone_h = zone_bottom - zone_top
    pip = min(0.19 * big_w, zone_h / 4.5)
    return _FaceGeometry(
        margin_x=margin_x,
        margin_y=margin_y,
        cap=cap,
        pip_top=zone_top + pip / 2,
        pip_bottom=zone_bottom - pip / 2,
        pip=pip,
        column_dx=max(0.215 * big_w, 0.62 * pip * 1.75),
    )


def _suit_colour(suit: str, four_colour: bool) -> RGB:
    return (_FOUR_COLOUR if four_colour else _TWO_COLOUR)[suit]


def _index_mask(label: str, suit: str, geo: _FaceGeometry, big_w: int) -> Image.Image:
    """Top-left index (rank then suit, side by side) as an "L" mask from the card corner."""
    cap = geo.cap
    max_rank_w = round(1.55 * cap) if len(label) > 1 else 0
    text = _text_mask(label, cap, max_rank_w, -0.10 if len(label) > 1 else 0.0)
    suit_size = round(0.92 * cap)
    gap = round(0.16 * cap)
    w = min(big_w // 2 + cap, geo.margin_x + text.width + gap + suit_size + 2 * _SS)
    h = geo.margin_y + max(text.height, cap) + 2 * _SS
    mask = Image.new("L", (w, h), 0)
    mask.paste(255, (geo.margin_x, geo.margin_y), text)
    sx = geo.margin_x + text.width + gap + suit_size / 2
    sy = geo.margin_y + cap / 2
    _draw_suit(ImageDraw.Draw(mask), suit, sx, sy, suit_size, 255)
    return mask


def _draw_pips(img: Image.Image, rank: int, suit: str, geo: _FaceGeometry, colour: RGB) -> None:
    big_w, big_h = img.size
    draw = ImageDraw.Draw(img)
    cx = (big_w - 1) / 2
    span = geo.pip_bottom - geo.pip_top
    if rank == 1:
        size = min(0.5 * big_w, 0.38 * big_h)
        _draw_suit(draw, suit, cx, (big_h - 1) / 2, size, colour)
        return
    for col, t in _PIP_LAYOUT[rank]:
        x = cx + col * geo.column_dx
        y = geo.pip_top + t * span
        _draw_suit(draw, suit, x, y, geo.pip, colour, flip=t > 0.5)


def _tint(colour: RGB, amount: float) -> RGBA:
    r, g, b = (round(c + (255 - c) * amount) for c in colour)
    return (r, g, b, 255)


@functools.lru_cache(maxsize=12)
def figure(rank: int, suit: str) -> Image.Image | None:
    """The figure of a Jack, Queen or King (``rank`` 11-13, ``suit`` as in :data:`SUITS`)
    as an RGBA picture on white, or ``None`` when its file is missing or unreadable (the
    court card then shows a letter). The caller must not change the picture."""
    path = FIGURES / f"{suit}{_RANK_LABELS[rank]}.png"
    try:
        with Image.open(path) as stored:
            return stored.convert("RGBA")
    except (OSError, ValueError):
        return None


def _draw_court(
    img: Image.Image, rank: int, suit: str, geo: _FaceGeometry, colour: RGB, figures: bool
) -> None:
    """J/Q/K: a framed panel with the card's figure (:func:`figure`), or without one (or
    when ``figures`` is false) a large letter between two suit symbols."""
    big_w, big_h = img.size
    draw = ImageDraw.Draw(img)
    top = geo.pip_top - geo.pip / 2
    bottom = big_h - 1 - top
    left = round(0.17 * big_w)
    right = big_w - 1 - left
    line = max(_SS, round(0.014 * big_w))
    radius = 0.05 * big_w
    picture = figure(rank, suit) if figures else None
    draw.rounded_rectangle(
        (left, top, right, bottom),
        radius=radius,
        fill=_CARD_WHITE if picture is not None else _tint(colour, 0.9),
        outline=colour,
        width=line,
    )
    inset = line + max(_SS, round(0.02 * big_w))
    draw.rounded_rectangle(
        (left + inset, top + inset, right - inset, bottom - inset),
        radius=max(1.0, radius - inset),
        outline=_tint(colour, 0.45),
        width=max(1, line // 2),
    )
    panel_w = right - left
    panel_h = bottom - top
    if picture is not None:
        # The figure as large as the panel holds it, centred, clear of the frame (the
        # corner indices name the suit).
        room_w, room_h = panel_w - 2 * inset, panel_h - 2 * inset
        scale = min(room_w / picture.width, room_h / picture.height)
        size = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
        shown = picture.resize(size, Image.Resampling.LANCZOS)
        img.alpha_composite(shown, (round((big_w - size[0]) / 2), round((big_h - size[1]) / 2)))
        return
    # Suit symbols in the panel's top-left and (upside down) bottom-right corners.
    sym = min(0.26 * panel_w, 0.17 * panel_h)
    pad = inset + max(_SS, 0.04 * panel_w)
    sx, sy = left + pad + sym / 2, top + pad + sym / 2
    _draw_suit(draw, suit, sx, sy, sym, colour)
    _draw_suit(draw, suit, big_w - 1 - sx, big_h - 1 - sy, sym, colour, flip=True)
    # The letter, centred on the panel (descenders of J and Q included).
    cap = round(min(0.36 * panel_h, 0.5 * panel_w))
    text = _text_mask(_RANK_LABELS[rank], cap)
    tx = round((big_w - text.width) / 2)
    ty = round((big_h - (cap + text.height) / 2) / 2)
    _paste_mask(img, colour, text, tx, ty)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _render_face(
    rank: int,
    suit: str,
    width: int,
    height: int,
    four_colour: bool,
    highlight: str | None,
    style: str = "standard",
) -> Image.Image:
    if min(width, height) < _MIN_DRAW:
        big = _render_face(
            rank, suit, max(width, _MIN_DRAW), max(height, _MIN_DRAW), four_colour, highlight,
            style,
        )  # fmt: skip
        return _downscale(big, width, height)
    big_w, big_h = width * _SS, height * _SS
    contrast = style == "high-contrast"
    colour = _HIGH_CONTRAST[suit] if contrast else _suit_colour(suit, four_colour)
    geo = _face_geometry(big_w, big_h, large_index=style not in ("standard", "plain"))
    img = _card_base(big_w, big_h)
    if contrast:  # a thick black edge: the card stands out from the table and its neighbours
        ImageDraw.Draw(img).rounded_rectangle(
            (0, 0, big_w - 1, big_h - 1),
            radius=_corner_radius(big_w, big_h),
            outline=(0, 0, 0, 255),
            width=max(2 * _SS, round(0.035 * big_w)),
        )

    if rank >= 11:
        _draw_court(img, rank, suit, geo, colour, style in _FIGURE_STYLES)
    else:
        _draw_pips(img, rank, suit, geo, colour)

    index = _index_mask(rank_label(rank), suit, geo, big_w)
    _paste_mask(img, colour, index, 0, 0)
    flipped = index.transpose(Image.Transpose.ROTATE_180)
    _paste_mask(img, colour, flipped, big_w - index.width, big_h - index.height)

    if highlight is not None:
        _draw_highlight(img, highlight, _border_width(big_w, big_h))
    return _downscale(img, width, height)


def render_face(
    rank: int,
    suit: str,
    width: int,
    height: int,
    *,
    four_colour: bool = False,
    highlight: str | None = None,
    style: str = "standard",
) -> Image.Image:
    """Draw the face of one playing card.

    Args:
        rank: 1..13 (1 = Ace, 11 = Jack, 12 = Queen, 13 = King).
        suit: one of ``"C"``, ``"D"``, ``"H"``, ``"S"``.
        width: output width in pixels (>= 1; cards are designed for 40 px and up).
        height: output height in pixels (>= 1; a 5:7 aspect ratio looks best).
        four_colour: if true use a four-colour deck (clubs green, diamonds
            blue, hearts red, spades black); otherwise hearts and diamonds are
            red and clubs and spades black.
        highlight: optional Pillow colour string (e.g. ``"#ffd700"``) drawn as
            a thick inner border to mark a selected or hinted card.
        style: one of :data:`STYLES`: ``"large-index"`` draws the corner index
            about half as large again; ``"high-contrast"`` too, in four deep
            colours (``four_colour`` is then ignored) with a thick black edge.

    Returns:
        A new ``width`` x ``height`` RGBA image: an opaque white rounded card
        with a thin dark border on a transparent background.  The rank and
        suit sit in the top-left corner (within the top ~20% of the height, so
        they stay visible when cards are fanned) and again, rotated 180
        degrees, in the bottom-right corner.

    Raises:
        ValueError: if ``rank``, ``suit``, ``width``, ``height`` or
            ``highlight`` is invalid; the message names the bad value.
    """
    _check_rank(rank)
    _check_suit(suit)
    _check_size(width, height)
    _check_colour("highlight", highlight)
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
    return _render_face(rank, suit, width, height, bool(four_colour), highlight, style).copy()


# --------------------------------------------------------------------------- backs


@functools.lru_cache(maxsize=32)
def _render_back(width: int, height: int) -> Image.Image:
    if min(width, height) < _MIN_DRAW:
        big = _render_back(max(width, _MIN_DRAW), max(height, _MIN_DRAW))
        return _downscale(big, width, height)
    big_w, big_h = width * _SS, height * _SS
    img = _card_base(big_w, big_h)
    unit = min(big_w, big_h / 1.4)
    margin = round(max(2 * _SS, 0.06 * unit))
    radius = max(_SS, _corner_radius(big_w, big_h) - margin * 0.6)
    field_box = (margin, margin, big_w - 1 - margin, big_h - 1 - margin)

    # Lattice of diagonal lines with small diamonds at the crossings.
    pattern = Image.new("RGBA", (big_w, big_h), _BACK_FIELD)
    pd = ImageDraw.Draw(pattern)
    step = max(3 * _SS, unit / 7.5)
    lw = max(_SS // 2, round(unit / 90))
    cx, cy = (big_w - 1) / 2, (big_h - 1) / 2
    n = int((big_w + big_h) / step) + 2
    for i in range(-n, n + 1):
        off = i * step
        pd.line((cx + off - big_h, cy - big_h, cx + off + big_h, cy + big_h), _BACK_LINE, lw)
        pd.line((cx + off - big_h, cy + big_h, cx + off + big_h, cy - big_h), _BACK_LINE, lw)
    dot = step * 0.16
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            x = cx + (i + j) * step / 2
            y = cy + (i - j) * step / 2
            if -step < x < big_w + step and -step < y < big_h + step:
                pd.polygon(
                    [(x, y - dot), (x + dot, y), (x, y + dot), (x - dot, y)], fill=_BACK_FRAME
                )

    clip = Image.new("L", (big_w, big_h), 0)
    ImageDraw.Draw(clip).rounded_rectangle(field_box, radius=radius, fill=255)
    img.paste(pattern, (0, 0), clip)

    frame_inset = margin + max(_SS, round(0.035 * unit))
    ImageDraw.Draw(img).rounded_rectangle(
        (frame_inset, frame_inset, big_w - 1 - frame_inset, big_h - 1 - frame_inset),
        radius=max(_SS, radius - (frame_inset - margin)),
        outline=_BACK_FRAME,
        width=max(_SS // 2, round(unit / 70)),
    )
    return _downscale(img, width, height)


def render_back(width: int, height: int) -> Image.Image:
    """Draw the back of a card: a dark-blue lattice inside a white border.

    Args:
        width: output width in pixels (>= 1).
        height: output height in pixels (>= 1).

    Returns:
        A new ``width`` x ``height`` RGBA image (transparent outside the
        rounded card outline).

    Raises:
        ValueError: if ``width`` or ``height`` is not a positive int.
    """
    _check_size(width, height)
    return _render_back(width, height).copy()


# --------------------------------------------------------------------------- empty piles


def _rounded_rect_path(box: tuple[float, float, float, float], radius: float) -> list[Point]:
    """Closed outline of a rounded rectangle, clockwise from the top edge."""
    x0, y0, x1, y1 = box
    r = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    pts: list[Point] = []
    corners = (
        (x1 - r, y0 + r, -90),
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
    )
    for ccx, ccy, start in corners:
        for i in range(13):
            a = math.radians(start + 90 * i / 12)
            pts.append((ccx + r * math.cos(a), ccy + r * math.sin(a)))
    return pts


def _dashes(outline: list[Point], dash: float, gap: float) -> list[list[Point]]:
    """Split a closed outline into dashes of roughly ``dash`` px separated by ``gap`` px.

    The dash length is adjusted slightly so the pattern closes up evenly, and a
    dash is centred on the outline's first point.
    """
    closed = [*outline, outline[0]]
    cumulative = [0.0]
    for a, b in zip(closed, closed[1:]):
        cumulative.append(cumulative[-1] + math.dist(a, b))
    total = cumulative[-1]
    if total <= 0:
        return []

    def point_at(d: float) -> Point:
        d %= total
        i = min(max(1, bisect.bisect_right(cumulative, d)), len(closed) - 1)
        seg = cumulative[i] - cumulative[i - 1]
        t = 0.0 if seg == 0 else (d - cumulative[i - 1]) / seg
        a, b = closed[i - 1], closed[i]
        return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)

    count = max(1, round(total / (dash + gap)))
    period = total / count
    on = period * dash / (dash + gap)
    steps = max(2, math.ceil(on / 2))
    return [
        [point_at(k * period - on / 2 + on * i / steps) for i in range(steps + 1)]
        for k in range(count)
    ]


@functools.lru_cache(maxsize=64)
def _render_slot(
    width: int, height: int, label: str, kind: str, highlight: str | None
) -> Image.Image:
    if min(width, height) < _MIN_DRAW:
        big = _render_slot(max(width, _MIN_DRAW), max(height, _MIN_DRAW), label, kind, highlight)
        return _downscale(big, width, height)
    big_w, big_h = width * _SS, height * _SS
    img = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    unit = min(big_w, big_h / 1.4)
    line = max(_SS, round(unit / 55))
    radius = _corner_radius(big_w, big_h)
    half = line / 2
    box = (half, half, big_w - 1 - half, big_h - 1 - half)
    draw.rounded_rectangle(box, radius=radius, fill=_SLOT_FILL[kind])
    if kind in _SLOT_DASHED:
        dash = max(3 * _SS, unit / 12)
        for piece in _dashes(_rounded_rect_path(box, radius - half), dash, dash * 0.7):
            draw.line(piece, fill=_SLOT_LINE, width=line, joint="curve")
    else:
        draw.rounded_rectangle(
            (0, 0, big_w - 1, big_h - 1), radius=radius, outline=_SLOT_LINE, width=line
        )

    label = label.strip()
    if label in _SUIT_CHARS:
        size = min(0.5 * big_w, 0.36 * big_h)
        _draw_suit(draw, _SUIT_CHARS[label], (big_w - 1) / 2, (big_h - 1) / 2, size, _SLOT_TEXT)
    elif label:
        cap = round(min(0.3 * big_h, 0.42 * big_w))
        text = _text_mask(label, cap, round(0.78 * big_w))
        x = round((big_w - text.width) / 2)
        y = round((big_h - cap) / 2)
        layer = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
        layer.paste(_SLOT_TEXT, (x, y), text)
        img = Image.alpha_composite(img, layer)

    if highlight is not None:
        _draw_highlight(img, highlight, 0)
    return _downscale(img, width, height)


def render_slot(
    width: int,
    height: int,
    label: str = "",
    *,
    kind: str = "tableau",
    highlight: str | None = None,
) -> Image.Image:
    """Draw an empty pile: a faint rounded outline on a transparent background.

    Args:
        width: output width in pixels (>= 1).
        height: output height in pixels (>= 1).
        label: optional text centred in the slot, e.g. ``"A"`` for a
            foundation base or ``"K"`` for a King-only column.  A single suit
            character (one of the four Unicode card suits) is drawn as a vector
            suit symbol instead of text.
        kind: one of :data:`SLOT_KINDS`; ``"tableau"`` and ``"waste"`` get a
            dashed outline, the others a solid faint one.
        highlight: optional Pillow colour string drawn as a thick border, e.g.
            to show that a dragged card may be dropped here.

    Returns:
        A new ``width`` x ``height`` RGBA image, mostly transparent, meant to
        be drawn over the table background.

    Raises:
        ValueError: if ``width``/``height`` is not a positive int, ``kind`` is
            unknown, ``label`` is not a string or ``highlight`` is not a colour.
    """
    _check_size(width, height)
    if kind not in SLOT_KINDS:
        raise ValueError(f"kind must be one of {', '.join(SLOT_KINDS)}, got {kind!r}")
    if not isinstance(label, str):
        raise ValueError(f"label must be a str, got {label!r}")
    _check_colour("highlight", highlight)
    return _render_slot(width, height, label, kind, highlight).copy()


# --------------------------------------------------------------------------- cache control


def clear_cache() -> None:
    """Forget every cached card image (e.g. after the window was resized a lot)."""
    _render_face.cache_clear()
    _render_back.cache_clear()
    _render_slot.cache_clear()


def cache_info() -> dict[str, functools._CacheInfo]:
    """Hit/miss statistics of the face, back and slot caches, keyed by those names."""
    return {
        "face": _render_face.cache_info(),
        "back": _render_back.cache_info(),
        "slot": _render_slot.cache_info(),
    }
