"""Toolbar icons drawn as vectors with Pillow, at any pixel size.

No image files are shipped: each icon is drawn from geometry in a 24 x 24 unit box at
4x the asked size and shrunk with a Lanczos filter (as :mod:`solitaire_tk.faces.cardfaces`
draws the cards), so it stays crisp at every screen scaling. The toolbar asks for
``icon_size(widget)`` pixels: 16 points at the display's scaling (21 px at 96 dpi,
42 px at 192 dpi).

Nothing here touches tkinter except :func:`icon_size`, which only reads the scaling.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from PIL import Image, ImageDraw

__all__ = ["ICONS", "icon_size", "render_icon"]

_SS = 4  # supersampling factor
_UNIT = 24.0  # the icons are designed in a 24 x 24 box

RGBA = tuple[int, int, int, int]
Point = tuple[float, float]


class _Pen:
    """Draws in the 24-unit design box on a supersampled image."""

    def __init__(self, image: Image.Image, colour: RGBA) -> None:
        self.draw = ImageDraw.Draw(image)
        self.k = image.width / _UNIT
        self.colour = colour

    def p(self, x: float, y: float) -> Point:
        return x * self.k, y * self.k

    def w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def line(self, points: list[Point], width: float = 2.2) -> None:
        scaled = [self.p(x, y) for x, y in points]
        self.draw.line(scaled, fill=self.colour, width=self.w(width), joint="curve")
        r = width * self.k / 2  # round caps
        for x, y in (scaled[0], scaled[-1]):
            self.draw.ellipse((x - r, y - r, x + r, y + r), fill=self.colour)

    def polygon(self, points: list[Point], *, fill: bool = True, width: float = 2.0) -> None:
        scaled = [self.p(x, y) for x, y in points]
        if fill:
            self.draw.polygon(scaled, fill=self.colour)
        else:
            self.draw.polygon(scaled, outline=self.colour, width=self.w(width))

    def box(self, x0: float, y0: float, x1: float, y1: float, r: float, *, fill: bool = False,
            width: float = 2.0) -> None:  # fmt: skip
        box = (*self.p(x0, y0), *self.p(x1, y1))
        if fill:
            self.draw.rounded_rectangle(box, radius=r * self.k, fill=self.colour)
        else:
            self.draw.rounded_rectangle(
                box, radius=r * self.k, outline=self.colour, width=self.w(width)
            )

    def circle(self, cx: float, cy: float, r: float, *, fill: bool = False,
               width: float = 2.0) -> None:  # fmt: skip
        box = (*self.p(cx - r, cy - r), *self.p(cx + r, cy + r))
        if fill:
            self.draw.ellipse(box, fill=self.colour)
        else:
            self.draw.ellipse(box, outline=self.colour, width=self.w(width))

    def arc(self, cx: float, cy: float, r: float, start: float, end: float,
            width: float = 2.2) -> list[Point]:  # fmt: skip
        """An arc from ``start`` to ``end`` degrees (clockwise on screen); returns its
        points in design units."""
        steps = max(8, int(abs(end - start) / 6))
        points = [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (start + (end - start) * i / steps for i in range(steps + 1))
        ]
        self.line(points, width)
        return points

    def head(self, tip: Point, towards: Point, size: float = 5.0) -> None:
        """A filled arrowhead at ``tip``, pointing away from ``towards``."""
        dx, dy = tip[0] - towards[0], tip[1] - towards[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        back = (tip[0] - ux * size, tip[1] - uy * size)
        half = size * 0.62
        self.polygon(
            [
                (tip[0] + ux * 1.2, tip[1] + uy * 1.2),
                (back[0] - uy * half, back[1] + ux * half),
                (back[0] + uy * half, back[1] - ux * half),
            ]
        )


def _curved_arrow(pen: _Pen, *, mirror: bool) -> None:
    """Undo: a hook from the right that turns back to the left, ending in a head."""
    sx = (lambda x: 24 - x) if mirror else (lambda x: x)
    top, bottom = 8.0, 19.0
    r = (bottom - top) / 2
    cx = 14.5
    arc = [
        (cx + r * math.sin(math.radians(a)), top + r - r * math.cos(math.radians(a)))
        for a in range(0, 181, 10)
    ]
    points = [(5.5, top)] + arc + [(9.0, bottom)]
    pen.line([(sx(x), y) for x, y in points])
    pen.head((sx(3.2), top), (sx(8.0), top), 5.2)


def _new(pen: _Pen) -> None:
    pen.box(4, 3, 16, 20, 2)
    pen.circle(17, 17, 5.2, fill=True)
    light = _Pen.__new__(_Pen)
    light.draw, light.k, light.colour = pen.draw, pen.k, (255, 255, 255, 255)
    light.line([(17, 14.2), (17, 19.8)], 1.8)
    light.line([(14.2, 17), (19.8, 17)], 1.8)


def _restart(pen: _Pen) -> None:
    points = pen.arc(12, 12.5, 7.5, -60, 230)
    pen.head(points[0], points[2], 5.0)
    pen.polygon([(9.5, 9.0), (9.5, 16.0), (15.5, 12.5)])


def _undo(pen: _Pen) -> None:
    _curved_arrow(pen, mirror=False)


def _redo(pen: _Pen) -> None:
    _curved_arrow(pen, mirror=True)


def _hint(pen: _Pen) -> None:
    pen.circle(12, 9.5, 6.5)
    pen.line([(9.2, 15.5), (9.6, 18.0)], 2.0)
    pen.line([(14.8, 15.5), (14.4, 18.0)], 2.0)
    pen.line([(9.5, 18.6), (14.5, 18.6)], 2.0)
    pen.line([(10.2, 21.4), (13.8, 21.4)], 2.0)
    pen.arc(12, 9.5, 3.6, 200, 260, 1.6)


def _demo(pen: _Pen) -> None:
    pen.circle(12, 12, 9.2)
    pen.polygon([(9.6, 7.4), (9.6, 16.6), (17.0, 12.0)])


def _stats(pen: _Pen) -> None:
    pen.box(4, 12, 8, 20, 0.8, fill=True)
    pen.box(10, 6, 14, 20, 0.8, fill=True)
    pen.box(16, 9, 20, 20, 0.8, fill=True)
    pen.line([(2.5, 21.5), (21.5, 21.5)], 1.6)


def _rules(pen: _Pen) -> None:
    # An open book: two pages meeting at the spine.
    pen.polygon([(12, 6.5), (12, 20), (3, 18), (3, 4.5)], fill=False, width=2.0)
    pen.polygon([(12, 6.5), (12, 20), (21, 18), (21, 4.5)], fill=False, width=2.0)
    for y in (9.0, 12.0, 15.0):
        pen.line([(5.5, y - 0.6), (9.5, y + 0.3)], 1.3)
        pen.line([(14.5, y + 0.3), (18.5, y - 0.6)], 1.3)


def _undo_winnable(pen: _Pen) -> None:
    _curved_arrow(pen, mirror=False)
    pen.line([(13.0, 3.6), (15.6, 6.2), (21.0, 0.8)], 2.0)


ICONS: dict[str, Callable[[_Pen], None]] = {
    "new": _new,
    "restart": _restart,
    "undo": _undo,
    "redo": _redo,
    "hint": _hint,
    "demo": _demo,
    "statistics": _stats,
    "rules": _rules,
    "undo-winnable": _undo_winnable,
}
"""The icons :func:`render_icon` draws, by name."""


@functools.lru_cache(maxsize=128)
def _render(name: str, size: int, colour: RGBA) -> Image.Image:
    big = Image.new("RGBA", (size * _SS, size * _SS), (0, 0, 0, 0))
    ICONS[name](_Pen(big, colour))
    return big.resize((size, size), Image.Resampling.LANCZOS)


def render_icon(name: str, size: int, colour: str = "#2f3a33") -> Image.Image:
    """Draw one toolbar icon.

    :param name: one of :data:`ICONS`.
    :param size: width and height in pixels (8 to 512).
    :param colour: a ``#rrggbb`` colour for the strokes.
    :return: a new ``size`` x ``size`` RGBA image, transparent around the strokes.
    :raises ValueError: for an unknown name, a size out of range or a bad colour.
    """
    if name not in ICONS:
        raise ValueError(f"icon must be one of {', '.join(ICONS)}, got {name!r}")
    if isinstance(size, bool) or not isinstance(size, int) or not 8 <= size <= 512:
        raise ValueError(f"size must be an int from 8 to 512 (pixels), got {size!r}")
    if not (isinstance(colour, str) and len(colour) == 7 and colour.startswith("#")):
        raise ValueError(f"colour must be '#rrggbb', got {colour!r}")
    try:
        rgb = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        raise ValueError(f"colour must be '#rrggbb', got {colour!r}") from None
    return _render(name, size, (rgb[0], rgb[1], rgb[2], 255)).copy()


def icon_size(widget: object) -> int:
    """The icon size for the display ``widget`` is on: 16 points at its scaling (Tk's
    ``tk scaling``, pixels per point), at least 16 px."""
    call = widget.tk.call  # type: ignore[attr-defined]
    scaling = float(call("tk", "scaling"))
    return max(16, round(16 * scaling))
