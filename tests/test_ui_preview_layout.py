"""The launcher's pictures put the piles where the game's table puts them: a preview's
foundations stand beside or above the columns as on the table (Fan's at the side)."""

from __future__ import annotations

import pytest
from solitaire_tk.table.preview import PREVIEW_SIZE, preview_frame, render_preview
from ui_helpers import open_app

from solitaire_core.deal import deal
from solitaire_core.moves import PileKind
from solitaire_core.plugins import get_variant

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("solitaire_home")]

SAMPLE = (
    "fan", "seahaven", "freecell", "klondike", "canfield", "spider", "bakers-dozen",
    "scotch-patience", "der-katzenschwanz", "beleaguered-castle", "bisley", "pyramid",
    "tri-peaks",
)  # fmt: skip

_SLOT_FILL = (18, 88, 52)  # the inside of an empty pile in a preview


def arrangement(layout) -> set[tuple[int, int, str, str]]:
    """For each foundation and column: whether the foundation's centre is left of,
    right of or over the column's, and above, below or level with it (within half a
    card)."""

    def side(a: float, b: float, half: float, words: tuple[str, str, str]) -> str:
        return words[0] if a < b - half else words[2] if a > b + half else words[1]

    slots = layout.slots
    half_w, half_h = layout.card_w / 2, layout.card_h / 2
    found = set()
    for f in (s for s in slots if s.ref.kind is PileKind.FOUNDATION):
        for t in (s for s in slots if s.ref.kind is PileKind.TABLEAU):
            fx, tx = f.x + half_w, t.x + half_w
            fy, ty = f.y + half_h, t.y + half_h
            found.add((
                f.ref.index, t.ref.index,
                side(fx, tx, half_w, ("left", "over", "right")),
                side(fy, ty, half_h, ("above", "level", "below")),
            ))  # fmt: skip
    return found


@pytest.mark.parametrize("variant", SAMPLE)
def test_the_preview_arranges_the_piles_as_the_table_does(root, tmp_path, variant):
    app = open_app(root, tmp_path, variant)
    table = app.view.layout
    assert table is not None
    state = deal(get_variant(variant).resolve(), 1)
    frame = preview_frame(state, *PREVIEW_SIZE)
    assert arrangement(frame.layout) == arrangement(table)
    # The picture draws that layout: an empty foundation's inside where the frame says.
    image = render_preview(state, *PREVIEW_SIZE)
    layout = frame.layout
    for slot in layout.slots:
        if slot.ref.kind is PileKind.FOUNDATION and not state.pile(slot.ref):
            x, y = frame.point(slot.x + 0.25 * layout.card_w, slot.y + 0.2 * layout.card_h)
            pixel = image.getpixel((round(x), round(y)))
            assert all(abs(a - b) < 8 for a, b in zip(pixel, _SLOT_FILL)), (slot.ref, pixel)
