"""What an empty pile shows: its slot kind and the rank that may go there, by name.

Shared by the table (:mod:`solitaire_tk.table.view`) and the launcher's thumbnails
(:mod:`solitaire_tk.table.preview`), so both mark an empty pile the same way. No tkinter here.
"""

from __future__ import annotations

from solitaire_core.cards import RANK_NAMES
from solitaire_core.i18n import gettext as _
from solitaire_core.moves import PileKind, PileRef
from solitaire_core.state import GameState

__all__ = ["rank_mark", "slot_look"]


def slot_look(state: GameState | None, ref: PileRef) -> tuple[str, str]:
    """How the empty pile ``ref`` is drawn: the slot kind (``cardfaces.SLOT_KINDS``) and
    the mark in it (a rank by its name, :func:`rank_mark`). An empty column shows the
    rank that may fill it (``King`` for King-only columns, the rank below the
    foundations' base with ``below-base``, ``None`` where nothing fills it); a cell that
    never takes a card (``cells.receive = false``) is a ``Reserve`` slot, as is an emptied
    reserve (Canfield's, ``[reserve]``); a foundation's
    base rank is shown (``Ace``, Bisley's ``King``, Penguin's dealt rank) once known,
    ``Any`` while the first card played sets it (Chessboard) and nothing is on a
    foundation yet; a discard pile (``"outranked-in-suit"``, Aces Up; ``"pairs"``, Pyramid)
    reads ``Discard``.

    :param state: the position (``None`` before a game: kind only, no mark).
    :param ref: a numbered pile of ``state``.
    :return: ``(kind, mark)``, e.g. ``("foundation", "Ace")``, ``("cell", "")``.
    """
    if ref.kind is PileKind.STOCK:
        return "stock", ""
    if ref.kind is PileKind.WASTE:
        return "waste", ""
    if ref.kind is PileKind.RESERVE:  # Canfield's, once every card has been played
        return "reserve", _("Reserve")
    kind = {PileKind.TABLEAU: "tableau", PileKind.CELL: "cell"}.get(ref.kind, "foundation")
    if state is None:
        return kind, ""
    rules = state.rules
    known = bool(state.bases) or not rules.base_from_deal  # the base ranks are known
    if ref.kind is PileKind.TABLEAU:
        if rules.empty_rule == "king":
            return kind, rank_mark(13)
        if rules.empty_rule == "none":  # nothing ever fills it (Baker's Dozen, Bisley)
            return kind, _("None")
        if rules.empty_rule == "below-base" and known:
            return kind, rank_mark((state.base_rank(0) - 2) % 13 + 1)
        return kind, ""
    if ref.kind is PileKind.CELL:
        return ("cell", "") if rules.cells_receive else ("reserve", _("Reserve"))
    assert ref.index is not None
    if rules.foundation_piles[ref.index].discards or rules.pair_total:
        return kind, _("Discard")  # Aces Up's, Pyramid's: no base rank, no Ace
    if not known:
        return kind, ""
    base = state.base_rank(ref.index)
    # foundations.base_rank = "first-played": any rank until the first card goes up.
    return kind, _("Any") if base is None else rank_mark(base)


def rank_mark(rank: int) -> str:
    """The mark of a rank (1-13) in an empty pile: its name (``"Ace"``, ``"Jack"``,
    ``"Five"``, in the language spoken), never one letter or digit, which would read as a
    pile key (Penguin's empty foundation with key K read "J" when the Jacks were its
    base; Fan's foundations with keys S-V read "A", column A's key)."""
    return _(RANK_NAMES[rank - 1])
