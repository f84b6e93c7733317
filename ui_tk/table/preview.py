"""Small pictures of a variant's dealt layout, for the launcher (pure Pillow, no tkinter).

:func:`render_preview` draws any :class:`~solitaire_core.state.GameState` as a thumbnail:
the table's own layout (:func:`~solitaire_tk.table.layout.compute_layout`, asked as the table
asks it, for a table of :data:`TABLE_SIZE`) scaled down to the picture, so the piles
stand where the game's table puts them (cells on the left and foundations on the right of
the top row, as the Seahaven program help's "4 reserve slots (on the left), and 4
foundation piles (on the right)"; Fan's foundations at the side; wide tableaus in rows),
with the table's marks in empty piles. Cards are simplified mini-cards whose corner index (rank
and suit) is drawn large for its size, so the deal stays readable at thumbnail scale where
a full card face's index would be a few pixels tall. Everything is drawn at 3x supersampling and
scaled down with a Lanczos filter, so edges are anti-aliased.

:func:`preview_for` deals and renders one variant + option set + deal number and caches
the picture.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Mapping

import attrs
from PIL import Image, ImageDraw

from solitaire_core.cards import Card, Suit
from solitaire_core.deal import deal
from solitaire_core.i18n import current_language
from solitaire_core.moves import PileKind, PileRef
from solitaire_core.state import GameState
from solitaire_core.variant import VariantDefinition

from ..faces.cardfaces import bold_font, cap_ratio
from .layout import Layout, column_plan, compute_layout
from .marks import slot_look

__all__ = [
    "FELT",
    "PREVIEW_SIZE",
    "SAMPLE_DEAL",
    "TABLE_SIZE",
    "PreviewFrame",
    "cache_clear",
    "preview_for",
    "preview_frame",
    "render_preview",
]

PREVIEW_SIZE: tuple[int, int] = (500, 260)
"""Default thumbnail size in pixels (width, height)."""

TABLE_SIZE: tuple[int, int] = (1100, 650)
"""The table a preview shows, in pixels (width, height): the card area of the game window
at its first size, 1100 x 760, below the menu and the toolbar and above the status bar.
The layout is computed for this table, then scaled down to the picture."""

SAMPLE_DEAL = 1
"""The deal shown when the player has not chosen one (an empty deal field means random)."""

FELT: tuple[int, int, int] = (22, 104, 62)
"""Table colour behind the cards."""

_SS = 3  # supersampling factor
_CACHE_SIZE = 48

_CARD_FILL = (255, 255, 255)
_CARD_LINE = (70, 72, 82)
_SLOT_LINE = (150, 196, 168)
_SLOT_FILL = (18, 88, 52)
_SLOT_TEXT = (120, 170, 140)
_RED = (204, 18, 38)
_BLACK = (22, 22, 28)
_GREEN = (8, 130, 56)
_BLUE = (18, 84, 200)
_TWO_COLOUR = {Suit.CLUBS: _BLACK, Suit.DIAMONDS: _RED, Suit.HEARTS: _RED, Suit.SPADES: _BLACK}
_FOUR_COLOUR = {Suit.CLUBS: _GREEN, Suit.DIAMONDS: _BLUE, Suit.HEARTS: _RED, Suit.SPADES: _BLACK}
_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}


_BACK = (36, 64, 140)
"""The colour of a card back in the preview (the table's backs are dark blue)."""


@functools.lru_cache(maxsize=256)
def _text_mask(text: str, cap: int, max_width: int) -> Image.Image:
    """An "L" mask of ``text`` with capitals ``cap`` px tall, cropped to the ink and
    squeezed horizontally to at most ``max_width`` px."""
    font = bold_font(max(4, round(cap / cap_ratio())))
    left, top, right, bottom = font.getbbox(text)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255)
    if mask.width > max_width > 0:
        mask = mask.resize((max_width, mask.height), Image.Resampling.LANCZOS)
    return mask


def _suit(
    draw: ImageDraw.ImageDraw, suit: Suit, cx: float, cy: float, s: float, fill: tuple[int, ...]
) -> None:
    """Draw a suit symbol ``s`` px tall centred on (cx, cy) from circles and polygons."""

    def circle(x: float, y: float, r: float) -> None:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)

    if suit is Suit.DIAMONDS:
        draw.polygon(
            [(cx, cy - 0.5 * s), (cx + 0.36 * s, cy), (cx, cy + 0.5 * s), (cx - 0.36 * s, cy)],
            fill=fill,
        )
    elif suit is Suit.HEARTS:
        r = 0.25 * s
        circle(cx - 0.22 * s, cy - 0.23 * s, r)
        circle(cx + 0.22 * s, cy - 0.23 * s, r)
        draw.polygon(
            [(cx - 0.465 * s, cy - 0.16 * s), (cx + 0.465 * s, cy - 0.16 * s), (cx, cy + 0.48 * s)],
            fill=fill,
        )
        draw.polygon(
            [(cx - 0.1 * s, cy - 0.3 * s), (cx + 0.1 * s, cy - 0.3 * s), (cx, cy)], fill=fill
        )
    elif suit is Suit.SPADES:
        r = 0.23 * s
        circle(cx - 0.21 * s, cy + 0.06 * s, r)
        circle(cx + 0.21 * s, cy + 0.06 * s, r)
        draw.polygon(
            [(cx - 0.435 * s, cy + 0.0 * s), (cx + 0.435 * s, cy + 0.0 * s), (cx, cy - 0.5 * s)],
            fill=fill,
        )
        draw.polygon(
            [(cx, cy + 0.05 * s), (cx - 0.17 * s, cy + 0.5 * s), (cx + 0.17 * s, cy + 0.5 * s)],
            fill=fill,
        )
    else:
        r = 0.2 * s
        circle(cx, cy - 0.27 * s, r)
        circle(cx - 0.24 * s, cy + 0.06 * s, r)
        circle(cx + 0.24 * s, cy + 0.06 * s, r)
        circle(cx, cy - 0.02 * s, 0.12 * s)
        draw.polygon(
            [(cx, cy - 0.05 * s), (cx - 0.17 * s, cy + 0.5 * s), (cx + 0.17 * s, cy + 0.5 * s)],
            fill=fill,
        )


def _draw_card(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    card: Card,
    x: float,
    y: float,
    w: float,
    cap: float,
    colours: Mapping[Suit, tuple[int, int, int]],
) -> None:
    h = 1.4 * w
    radius = 0.11 * w
    line = max(1, round(0.028 * w))
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=radius, fill=_CARD_FILL, outline=_CARD_LINE, width=line
    )
    colour = colours[card.suit]
    pad = 0.08 * w
    label = _RANKS.get(card.rank, str(card.rank))
    suit_size = 1.05 * cap
    text_room = max(1, round(w - 3 * pad - suit_size))
    mask = _text_mask(label, max(2, round(cap)), text_room)
    tx, ty = round(x + pad), round(y + pad)
    img.paste(colour, (tx, ty, tx + mask.width, ty + mask.height), mask)
    sx = tx + mask.width + 0.5 * pad + suit_size * 0.45
    _suit(draw, card.suit, sx, ty + cap / 2, suit_size, colour)
    # A large suit in the lower part shows on the top card of a column and in cells.
    big = 0.5 * w
    _suit(draw, card.suit, x + w / 2, y + h * 0.62, big, colour)


def _draw_back(draw: ImageDraw.ImageDraw, x: float, y: float, w: float) -> None:
    """A face-down card: the blue back the table draws, as a plain rounded card."""
    h = 1.4 * w
    line = max(1, round(0.028 * w))
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=0.11 * w, fill=_CARD_FILL, outline=_CARD_LINE, width=line
    )
    inset = 0.09 * w
    draw.rounded_rectangle(
        (x + inset, y + inset, x + w - inset, y + h - inset), radius=0.07 * w, fill=_BACK
    )


def _draw_slot(
    img: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, w: float, mark: str
) -> None:
    """An empty pile's outline with its mark (:func:`~solitaire_tk.table.marks.slot_look`:
    ``"Ace"``, ``"King"``, ``"Reserve"``...) fitted inside it."""
    h = 1.4 * w
    line = max(1, round(0.03 * w))
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=0.11 * w, fill=_SLOT_FILL, outline=_SLOT_LINE, width=line
    )
    if mark:
        mask = _text_mask(mark, max(2, round(0.2 * w)), round(0.84 * w))
        tx, ty = round(x + (w - mask.width) / 2), round(y + (h - mask.height) / 2)
        img.paste(_SLOT_TEXT, (tx, ty, tx + mask.width, ty + mask.height), mask)


@attrs.frozen
class PreviewFrame:
    """Where a preview draws the table: the table's :class:`~solitaire_tk.table.layout.Layout`
    (in table pixels, for :data:`TABLE_SIZE`), shrunk by ``scale`` and moved by
    (``dx``, ``dy``) into the picture's pixels."""

    layout: Layout
    scale: float
    dx: float
    dy: float

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A table point (x, y) in the picture's pixels."""
        return self.dx + self.scale * x, self.dy + self.scale * y


def preview_frame(state: GameState, width: int, height: int) -> PreviewFrame:
    """The layout a ``width`` x ``height`` preview of ``state`` draws: the one the table
    computes (:func:`~solitaire_tk.table.layout.compute_layout` with
    :func:`~solitaire_tk.table.layout.column_plan`) for a table of :data:`TABLE_SIZE`, scaled
    to fit the picture and centred in it.

    :param width: picture width in pixels.
    :param height: picture height in pixels.
    """
    table_w, table_h = TABLE_SIZE
    layout = compute_layout(state.rules, table_w, table_h, **column_plan(state))
    scale = min(width / table_w, height / table_h)
    return PreviewFrame(
        layout, scale, (width - scale * table_w) / 2, (height - scale * table_h) / 2
    )


def render_preview(
    state: GameState, width: int, height: int, *, four_colour: bool = False
) -> Image.Image:
    """Draw ``state`` as a ``width`` x ``height`` RGB thumbnail on a green table.

    :param state: any position of any variant (usually a fresh deal); its rules give the
        number of columns, cells and foundations.
    :param width: picture width in pixels (>= 16).
    :param height: picture height in pixels (>= 16).
    :param four_colour: draw clubs green and diamonds blue (the four-colour deck).
    :return: a new RGB image laid out as the table lays out the game
        (:func:`preview_frame`: the table's layout, scaled down):
        cells on the left and foundations on the right of the top row, or foundations at
        the side; a wide tableau in several rows of columns (Fan, Scotch Patience); a long
        column wrapped (Der Katzenschwanz); the overlapping cards of a ``tableau.layout``
        (Pyramid, TriPeaks) each at its place, a later column over an earlier one. An
        empty pile shows the mark the table shows
        (:func:`~solitaire_tk.table.marks.slot_look`: an empty foundation its base rank by
        name, a King-only column "King", a give-only reserve "Reserve"); Canfield's
        reserve as card backs under its top card (fanned face up in Superior Canfield).
    :raises ValueError: for a size smaller than 16 pixels.
    """
    if width < 16 or height < 16:
        raise ValueError(f"preview size must be at least 16x16 pixels, got {width}x{height}")
    frame = preview_frame(state, width * _SS, height * _SS)
    layout, k = frame.layout, frame.scale
    img = Image.new("RGB", (width * _SS, height * _SS), FELT)
    draw = ImageDraw.Draw(img)
    colours = _FOUR_COLOUR if four_colour else _TWO_COLOUR
    w = k * layout.card_w
    top_cap = 0.34 * w

    def card_xy(ref: PileRef, index: int, cards: int) -> tuple[float, float]:
        return frame.point(*layout.card_xy(ref, index, cards))

    for slot in layout.slots:
        ref = slot.ref
        pile = state.pile(ref)
        if not pile:
            if layout.placed and ref.kind is PileKind.TABLEAU:
                continue  # a card gone from a layout (Pyramid) leaves bare table
            _draw_slot(img, draw, *frame.point(slot.x, slot.y), w, slot_look(state, ref)[1])
            continue
        if ref.kind is PileKind.STOCK:  # a card back; Pyramid's shows its top card
            if state.rules.stock_top_plays:
                _draw_card(img, draw, pile[-1], *frame.point(slot.x, slot.y), w, top_cap, colours)
            else:
                _draw_back(draw, *frame.point(slot.x, slot.y), w)
            continue
        if ref.kind is PileKind.RESERVE:  # Canfield's: backs under its top card, or fanned
            n = len(pile)
            cap = min(0.34 * w, 0.62 * k * layout.reserve_step(n)) if n > 1 else top_cap
            for j, card in enumerate(pile):
                x, y = card_xy(ref, j, n)
                if state.is_reserve_face_down(j):
                    _draw_back(draw, x, y, w)
                else:
                    _draw_card(img, draw, card, x, y, w, top_cap if j == n - 1 else cap, colours)
            continue
        if ref.kind is not PileKind.TABLEAU:  # a cell or foundation shows its top card
            x, y = card_xy(ref, len(pile) - 1, len(pile))
            _draw_card(img, draw, pile[-1], x, y, w, top_cap, colours)
            continue
        n = len(pile)
        # Index size: legible, and never taller than the visible strip of a fanned card.
        strip = k * layout.fan_step(n, ref) if n > 1 else 1.4 * w
        cap = min(0.34 * w, 0.62 * strip)
        for j, card in enumerate(pile):
            x, y = card_xy(ref, j, n)
            if state.is_face_down(ref.index or 0, j):
                _draw_back(draw, x, y, w)
            else:
                _draw_card(img, draw, card, x, y, w, cap, colours)
    return img.resize((width, height), Image.Resampling.LANCZOS)


_CACHE: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()


def preview_for(
    definition: VariantDefinition,
    options: Mapping[str, str] | None = None,
    deal_number: int = SAMPLE_DEAL,
    size: tuple[int, int] = PREVIEW_SIZE,
    *,
    four_colour: bool = False,
) -> Image.Image:
    """The thumbnail of deal ``deal_number`` of a variant with ``options``, cached.

    :param definition: an installed variant.
    :param options: option name -> choice value; missing ones take their default.
    :param deal_number: 1 .. 10**20 - 1; the raw deal is drawn (before any autoplay).
    :param size: (width, height) in pixels.
    :param four_colour: the four-colour deck.
    :return: an RGB image (a copy the caller may change). The last 48 pictures are kept,
        keyed by variant, options, deal, size, colours and language.
    :raises VariantError: for an unknown option or value.
    :raises SolitaireError: for an invalid deal number.
    """
    chosen = definition.default_options()
    chosen.update(options or {})
    key = (
        definition.id,
        definition.source,
        tuple(sorted(chosen.items())),
        deal_number,
        tuple(size),
        bool(four_colour),
        current_language(),  # an empty pile's mark is a word in it
    )
    image = _CACHE.get(key)
    if image is None:
        rules = definition.resolve(chosen)
        image = render_preview(deal(rules, deal_number), size[0], size[1], four_colour=four_colour)
        _CACHE[key] = image
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return image.copy()


def cache_clear() -> None:
    """Forget every cached preview."""
    _CACHE.clear()
