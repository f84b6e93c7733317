"""Plain-text views of a position: the ``solitaire show`` layout, Freecell Solver's
board format (``solitaire export --format fcs``) and the layout text of the
``pysol_cards`` package (``solitaire export --format pysol``).

What a player cannot see stays hidden in ``show``: a face-down card is ``##`` and the
stock gives only its size. The exports are for other programs and show every card."""

from __future__ import annotations

from .cards import RANK_TEXT, Card
from .state import GameState


def _cell(card: Card | None) -> str:
    return f"[{card}]" if card is not None else "[  ]"


def format_layout(state: GameState, title: str = "") -> str:
    """The position as players see it: cells and foundations in a row, then the columns
    fanned downward, each headed by its pile name (``t1`` ...).

    Second-deck cards carry no mark (both copies look the same on the table). With
    ``foundations.base_rank = "first-played"`` the line also says the base rank, or that
    the first card played sets it; with a base card (Canfield) it says the base rank.
    A variant with a reserve has a ``Reserve:`` line: its top card and how many face-down
    cards lie under it, or every card when it lies face up. A ``tableau.layout`` is drawn
    as it lies on the table (:func:`_layout_lines`), and a stock whose top card plays
    (Pyramid) names that card.
    """
    lines = [title] if title else []
    cells = " ".join(_cell(c) for c in state.cells)
    founds = " ".join(_cell(f[-1] if f else None) for f in state.foundations)
    line = f"Cells: {cells}   Foundations: {founds}" if state.cells else f"Foundations: {founds}"
    if state.rules.base_first_played:
        base = state.base_rank(0)
        line += "   base rank: " + (
            "any, set by the first card played" if base is None else RANK_TEXT[base - 1]
        )
    elif state.rules.deal.base_card and state.bases:
        line += "   base rank: " + RANK_TEXT[state.bases[0] - 1]
    lines.append(line)
    if state.rules.has_reserve:
        lines.append("Reserve: " + _reserve_text(state))
    rules = state.rules
    if rules.has_stock:
        left = state.redeals_left
        stock = f"Stock: {len(state.stock)} card{'s' if len(state.stock) != 1 else ''}"
        if rules.stock_deal == "waste":
            if rules.stock_top_plays and state.stock:
                stock += f", {state.stock[-1]} on top"
            stock += ", " + (
                "redeals without limit"
                if left is None
                else f"{left} redeal{'s' if left != 1 else ''} left"
            )
            shown = state.waste[-rules.draw :] if state.waste else ()
            stock += "   Waste: " + (" ".join(map(str, shown)) if shown else "[  ]")
            if len(state.waste) > len(shown):
                stock += f" (on {len(state.waste) - len(shown)} more)"
        lines.append(stock)
    lines.append("")
    if rules.layout:
        lines += _layout_lines(state)
        return "\n".join(lines) + "\n"
    width = 4
    lines.append("".join(f"t{i + 1}".ljust(width) for i in range(len(state.columns))).rstrip())
    depth = max((len(c) for c in state.columns), default=0)
    for row in range(depth):
        lines.append(
            "".join(
                (
                    ("##" if state.is_face_down(i, row) else str(col[row]))
                    if row < len(col)
                    else ""
                ).ljust(width)
                for i, col in enumerate(state.columns)
            ).rstrip()
        )
    return "\n".join(lines) + "\n"


_LAYOUT_WIDTH = 6
"""Characters per card width when :func:`format_layout` draws a ``tableau.layout``."""


def _layout_lines(state: GameState) -> list[str]:
    """A ``tableau.layout`` drawn in text (Pyramid, TriPeaks): one pair of lines per
    line of the layout, the pile names above their cards, each at its place across
    (:data:`_LAYOUT_WIDTH` characters per card width). A place whose card has left is
    blank; a face-down card is ``##``."""
    rows: dict[float, list[int]] = {}
    for i, (_, y) in enumerate(state.rules.layout):
        rows.setdefault(y, []).append(i)
    out = []
    for y in sorted(rows):
        names, cards = "", ""
        for i in sorted(rows[y], key=lambda j: state.rules.layout[j][0]):
            at = round(state.rules.layout[i][0] * _LAYOUT_WIDTH)
            col = state.columns[i]
            text = ("##" if state.is_face_down(i, len(col) - 1) else str(col[-1])) if col else ""
            names = names.ljust(at) + (f"t{i + 1}" if col else "")
            cards = cards.ljust(at) + text
        out += [names.rstrip(), cards.rstrip()]
    return out


def _reserve_text(state: GameState) -> str:
    """The reserve as a player sees it: ``[  ]`` when empty; face down (Canfield), its
    top card after how many lie under it (``QC on 12``); face up, every card from the
    bottom."""
    kept = state.reserve
    if not kept:
        return "[  ]"
    if state.rules.reserve_face_down:
        return str(kept[-1]) + (f" on {len(kept) - 1}" if len(kept) > 1 else "")
    return " ".join(map(str, kept))


def format_pysol(state: GameState) -> str:
    """The position as the ``pysol_cards`` package prints a layout
    (``Game(...).calc_layout_string(CardRenderer(True))``), every card shown, so the two
    can be compared line by line: a ``Talon:`` line (when the variant has a stock) with
    the waste's cards from the bottom, as still unturned, then the stock from its top; a
    ``Foundations:`` line when cards lie there (pysol_cards' ``H-5`` form: the top rank
    of each suit's piles; with one foundation of any suit, Golf's and Black Hole's, its
    top card or ``-``, always); a ``Reserve:`` line from its bottom card for a variant with a
    reserve (pysol_cards deals none of those games); then one line per column from its
    bottom card, ``<XX>`` for a face-down card.
    """
    lines = []
    if state.rules.has_stock:
        talon = list(state.waste) + list(reversed(state.stock))
        lines.append("Talon: " + " ".join(map(str, talon)))
    if state.rules.foundations == 1 and state.rules.foundation_piles[0].suits != "suit":
        # One foundation of any suit (Golf, Black Hole): pysol_cards prints its top card.
        pile = state.foundations[0]
        lines.append("Foundations: " + (str(pile[-1]) if pile else "-"))
    elif any(state.foundations):
        tops: dict[str, int] = {}
        for pile in state.foundations:
            if pile:
                top = pile[-1]
                tops[top.suit.value] = max(tops.get(top.suit.value, 0), top.rank)
        lines.append(
            "Foundations: " + " ".join(f"{s}-{_fcs_rank(tops[s])}" for s in _FCS_SUITS if s in tops)
        )
    if state.rules.has_reserve:
        lines.append(
            "Reserve: "
            + " ".join(
                f"<{c}>" if state.is_reserve_face_down(j) else str(c)
                for j, c in enumerate(state.reserve)
            )
        )
    for i, col in enumerate(state.columns):
        lines.append(
            " ".join(f"<{c}>" if state.is_face_down(i, j) else str(c) for j, c in enumerate(col))
        )
    return "\n".join(lines) + "\n"


_FCS_SUITS = "HCDS"


def format_fcs(state: GameState) -> str:
    """The position in Freecell Solver's board format: a ``Foundations:`` line (highest
    rank per suit, ``0`` when empty), a ``Freecells:`` line (``-`` for a free cell), then one
    line per column, bottom card first.

    For two decks the foundation line gives, per suit, the lower of the two copies' heights
    (fc-solve is then run with ``--decks-num 2``).
    """
    heights: dict[str, list[int]] = {s: [] for s in _FCS_SUITS}
    for f in state.foundations:
        if f:
            heights[f[-1].suit.value].append(f[-1].rank)
    per_suit = []
    for s in _FCS_SUITS:
        hs = heights[s] + [0] * (state.rules.decks - len(heights[s]))
        per_suit.append(f"{s}-{_fcs_rank(min(hs))}")
    lines = ["Foundations: " + " ".join(per_suit)]
    if state.cells:
        lines.append("Freecells: " + " ".join(str(c) if c else "-" for c in state.cells))
    for col in state.columns:
        lines.append(": " + " ".join(str(c) for c in col) if col else ":")
    return "\n".join(lines) + "\n"


def _fcs_rank(rank: int) -> str:
    return "0" if rank == 0 else "A23456789TJQK"[rank - 1]
