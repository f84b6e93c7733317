"""Plain-text views of a position: the ``solitaire show`` layout and Freecell Solver's
board format (``solitaire export --format fcs``)."""

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
    the first card played sets it.
    """
    lines = [title] if title else []
    cells = " ".join(_cell(c) for c in state.cells)
    founds = " ".join(_cell(f[-1] if f else None) for f in state.foundations)
    line = f"Cells: {cells}   Foundations: {founds}"
    if state.rules.base_first_played:
        base = state.base_rank(0)
        line += "   base rank: " + (
            "any, set by the first card played" if base is None else RANK_TEXT[base - 1]
        )
    lines.append(line)
    lines.append("")
    width = 4
    lines.append("".join(f"t{i + 1}".ljust(width) for i in range(len(state.columns))).rstrip())
    depth = max((len(c) for c in state.columns), default=0)
    for row in range(depth):
        lines.append(
            "".join(
                (str(col[row]) if row < len(col) else "").ljust(width) for col in state.columns
            ).rstrip()
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
