"""The board view: a Tk canvas that draws a game state and turns clicks, drags and keys
into moves.

The view never decides legality itself. It asks the rules core which moves a position
allows (:func:`~solitaire_core.rules.legal_moves`) and why a move is not allowed
(:func:`~solitaire_core.rules.explain`), picks the move a click or a key stands for among
the legal ones (:func:`click_move`, :func:`key_move`: each docstring gives its order, the
keys' from the Seahaven program help), and reports it through the ``on_move`` callback;
the owner plays it on its :class:`~solitaire_core.session.Session` and hands the new
state back with :meth:`TableView.show`.

Drawing is incremental: every card is one canvas image item, created once per game; a
new state moves only the items whose place changed and restacks only the piles whose
cards changed. Card faces come from :mod:`solitaire_tk.faces.cardfaces` (Pillow,
anti-aliased) at the card size :mod:`solitaire_tk.table.layout` computes; a resize
re-renders them once the window has stopped changing size (debounced).
"""

from __future__ import annotations

import time
import tkinter as tk
from collections.abc import Callable, Iterable, Sequence
from tkinter import font as tkfont
from typing import Any

from PIL import Image, ImageTk

from solitaire_core.cards import Card
from solitaire_core.errors import IllegalMoveError
from solitaire_core.i18n import gettext as _
from solitaire_core.i18n import ngettext
from solitaire_core.moves import Move, PileKind, PileRef, cell, foundation, reserve, stock, waste
from solitaire_core.rules import (
    DEAL_ROW,
    REDEAL,
    PileNamer,
    apply,
    column_run,
    covered,
    explain,
    legal_moves,
    resolve,
    run_length,
    stock_moves,
)
from solitaire_core.session import Turn
from solitaire_core.state import GameState
from solitaire_core.variant import Rules

from ..faces import cardfaces
from .focus import KeyboardFocus
from .layout import Layout, column_plan, compute_layout, pile_keys, pile_name
from .marks import rank_mark, slot_look

__all__ = [
    "FELT",
    "TableView",
    "click_move",
    "covered_reason",
    "is_pair",
    "key_move",
    "pair_move",
    "pile_counts",
]

FELT = "#17663a"
"""The table's base colour (green felt)."""

_FELT_CENTRE = (33, 128, 72)
_FELT_EDGE = (14, 78, 42)
_LABEL = "#eef6e8"
_LABEL_DIM = "#9cc9a8"
_KEYCAP = "#0e4a29"
_TARGET = "#ffd54a"
_CHOSEN_TINT = (255, 213, 74, 255)  # the first card of a pair, chosen by a click (Pyramid)
_HINT = "#39d3ff"  # the hint's outlines and arrow: a light blue, unlike the drop targets
_HINT_SHADOW = "#07283a"
_DRAG_THRESHOLD = 4  # px the pointer must travel before a press becomes a drag
_RESIZE_DELAY = 120  # ms without further size changes before cards are re-rendered
_FRAME = 15  # ms between animation frames

RESERVE = reserve()
"""The reserve (Canfield's pile of thirteen), as the table refers to it."""

GLIDE = 0.12
"""Seconds a card moved by a click, a key or a drop takes to glide to its place (when
animation is on), so the eye follows where it went; autoplay cards then fly on."""


# --------------------------------------------------------------------------- choosing moves


def pile_counts(state: GameState) -> dict[PileRef, int]:
    """Cards per pile of ``state``, keyed by numbered pile references."""
    counts: dict[PileRef, int] = {}
    for i, col in enumerate(state.columns):
        counts[PileRef(PileKind.TABLEAU, i)] = len(col)
    for i, c in enumerate(state.cells):
        counts[PileRef(PileKind.CELL, i)] = 0 if c is None else 1
    for i, f in enumerate(state.foundations):
        counts[PileRef(PileKind.FOUNDATION, i)] = len(f)
    if state.rules.has_stock:
        counts[PileRef(PileKind.STOCK, 0)] = len(state.stock)
        if state.rules.stock_deal == "waste":
            counts[PileRef(PileKind.WASTE, 0)] = len(state.waste)
    if state.rules.has_reserve:
        counts[RESERVE] = len(state.reserve)
    return counts


def stock_move(state: GameState, *, name: PileNamer = str) -> tuple[Move | None, str]:
    """The move a click on the stock (or its key) stands for: a deal to the waste, the
    waste turned over when the stock is empty, or a row onto the columns; else
    ``(None, reason)``."""
    moves = stock_moves(state)
    if moves:
        return moves[0], ""
    rules = state.rules
    if rules.stock_deal == "foundation":
        return None, _("the game is won") if state.is_won else _("the stock is empty")
    if rules.stock_deal == "row":
        if state.stock:
            return None, explain(state, DEAL_ROW, name=name) or _("no deal now")
        return None, _("the stock is empty: every card has been dealt")
    if not state.waste:
        return None, _("the stock and the waste are empty")
    return None, explain(state, REDEAL, name=name) or _("no redeal now")


def _rank(state: GameState, move: Move, order: Sequence[str]) -> tuple[int, int, int]:
    """Sort key of a candidate move: its destination's place in ``order`` (``found``,
    ``card`` = onto a matching card, ``empty`` = an empty column, ``cell``), then more
    cards first, then the leftmost pile. A foundation is no destination while the first
    card played there would choose the base rank (``foundations.base_rank =
    "first-played"``): the player drags that card (PySolFC's Chessboard, game 148, sends
    nothing up by a click before a foundation is started: Chessboard_RowStack)."""
    target = move.target
    if target.kind is PileKind.FOUNDATION:
        if _base_unchosen(state):
            return len(order), -move.count, target.index or 0
        what = "found"
    elif target.kind is PileKind.CELL:
        what = "cell"
    elif state.columns[target.index or 0]:
        what = "card"
    else:
        what = "empty"
    place = order.index(what) if what in order else len(order)
    return place, -move.count, target.index or 0


def _deals(move: Move) -> bool:
    """Whether ``move`` deals from the stock (``s>w``; no card is dragged there)."""
    return move.source.kind is PileKind.STOCK and move.target.kind is PileKind.WASTE


def _base_unchosen(state: GameState) -> bool:
    """Whether the next card to a foundation chooses every pile's base rank."""
    return state.rules.base_first_played and not any(state.foundations)


_OUT_OF_PLAY = "cards on the foundations are out of play in this game"
"""The core's reason (:func:`~solitaire_core.rules.explain`) why a foundation gives no
card back, in English: compared with a reason in English or in the language spoken."""


def _no_move_reason(
    state: GameState, source: PileRef, count: int, cheat: bool, name: PileNamer = str
) -> str:
    """Why the top ``count`` cards of ``source`` cannot move anywhere, in words (piles
    named by ``name``)."""
    cards = state.pile(source)
    if not cards:
        return _("{pile} is empty").format(pile=name(source))
    if _base_unchosen(state) and any(
        m.source == source and m.target.kind is PileKind.FOUNDATION
        for m in legal_moves(state, cheat=cheat)
    ):
        return _(
            "{card} can only go to a foundation, where its rank becomes every "
            "foundation's base: drag it there to choose it"
        ).format(card=cards[-1].label)
    if source.kind is PileKind.FOUNDATION:
        reason = explain(state, Move(source, PileRef(PileKind.TABLEAU, 0)), cheat=cheat, name=name)
        if reason in (_OUT_OF_PLAY, _(_OUT_OF_PLAY)):  # the core's words, in either language
            return reason
    # A target the cards would fit by rank and suit gives the most telling reason (the
    # move limit); otherwise the run check or a full set of cells explains it.
    for i, col in enumerate(state.columns):
        target = PileRef(PileKind.TABLEAU, i)
        if target != source and col and state.rules.build(cards[-count], col[-1]):
            reason = explain(state, Move(source, target, count), cheat=cheat, name=name)
            if reason:
                return reason
    if count > 1:
        # A reserve that takes runs (Canfield's once the stock is spent) refuses cards that
        # are not one: the core says so.
        if (
            source.kind is PileKind.RESERVE
            and state.rules.reserve_takes_runs
            and count > run_length(state.rules, cards)
        ):
            reason = explain(state, Move(source, foundation(), count), cheat=cheat, name=name)
            if reason:
                return reason
        return _("{card} and the cards on it have nowhere to go").format(card=cards[-count].label)
    label = cards[-1].label
    # Only where cells take cards: Fan has none, King Albert's reserve takes nothing back.
    has_cells = state.rules.cells_receive and len(state.cells) > 0
    if has_cells and source.kind is not PileKind.CELL and state.free_cells == 0:
        return _("{card} has nowhere to go and there is no free cell").format(card=label)
    return _("{card} has nowhere to go").format(card=label)


def click_move(
    state: GameState, source: PileRef, index: int, *, cheat: bool = False, name: PileNamer = str
) -> tuple[Move | None, str]:
    """The move a click on the card at ``index`` (0 = bottom) of ``source`` stands for.

    The card moves with the cards on it (a tableau card within a run) to the best legal
    destination, in this order: a foundation, a matching card, an empty column, a
    cell (a card already in a cell does not go to another cell).

    :param name: names piles in the reason (:func:`solitaire_tk.table.layout.pile_name`; the
        default is the move notation, ``t1``).
    :return: ``(move, "")``, or ``(None, reason)`` when the cards cannot move, with the
        reason in words (from :func:`~solitaire_core.rules.explain` where it applies).
    """
    cards = state.pile(source)
    count = max(1, len(cards) - index) if source.kind is PileKind.TABLEAU else 1
    reason = covered_reason(state, source, cheat=cheat, name=name)
    if reason:
        return None, reason
    order = (
        ("found", "card", "empty")
        if source.kind is PileKind.CELL
        else ("found", "card", "empty", "cell")
    )
    candidates = [
        m
        for m in legal_moves(state, cheat=cheat)
        if m.source == source and m.count == count and _rank(state, m, order)[0] < len(order)
    ]
    if candidates:
        return min(candidates, key=lambda m: _rank(state, m, order)), ""
    return None, _no_move_reason(state, source, count, cheat, name)


def covered_reason(
    state: GameState, source: PileRef, *, cheat: bool = False, name: PileNamer = str
) -> str:
    """Why the card of a column of a ``tableau.layout`` cannot play while other cards
    lie on it (Pyramid, TriPeaks: :func:`~solitaire_core.rules.covered`), in the core's
    words (``"column 1 is covered by column 2 and column 3: its card plays once they
    have left"``), or for a face-down card that it turns up once they have left; ``""``
    for a free card and any other pile."""
    if source.kind is not PileKind.TABLEAU or not covered(state, source.index or 0):
        return ""
    column = state.columns[source.index or 0]
    if column and state.is_face_down(source.index or 0, len(column) - 1):
        # TriPeaks: the cards on a face-down card are face down too; naming them says
        # nothing ("covered by a face-down card and a face-down card").
        return _("this card lies face down: it turns up once the cards on it have left")
    return explain(state, Move(source, foundation()), cheat=cheat, name=name) or ""


def pair_move(state: GameState, first: PileRef, second: PileRef) -> Move:
    """The move that pairs the free cards of ``first`` and ``second`` (Pyramid,
    ``foundations.build = "pairs"``), in either order: ``Move(first, second)``, but
    the waste's top card with the stock's is always ``w>s`` (``s>w`` is the deal)."""
    if {first.kind, second.kind} == {PileKind.STOCK, PileKind.WASTE}:
        return Move(waste(), stock())
    return Move(first, second)


def is_pair(state: GameState, move: Move) -> bool:
    """Whether ``move`` pairs two cards onto the discard pile (Pyramid) rather than
    dealing or playing one card: the target is a card in play, not the foundation, and
    ``s>w`` (the deal) and ``w>s`` with the stock empty (the redeal) are no pairs."""
    if not state.rules.pair_total or move.target.kind is PileKind.FOUNDATION:
        return False
    if move.source.kind is PileKind.STOCK and move.target.kind is PileKind.WASTE:
        return False
    return bool(state.pile(move.target))


def key_move(
    state: GameState,
    source: PileRef,
    *,
    shift: bool = False,
    cheat: bool = False,
    name: PileNamer = str,
) -> tuple[Move | None, str]:
    """The move a pile's key stands for (the Seahaven program help).

    Without Shift: the top card, or the longest run the rules allow, goes to the
    appropriate tableau position, a matching card first, else an empty column; if there
    is none, to a foundation; else to a cell (not from a cell). With Shift: the top card
    goes to a free cell.

    :param name: names piles in the reason, as for :func:`click_move`.
    :return: ``(move, "")`` or ``(None, reason)``.
    """
    if not state.pile(source):
        return None, _("{pile} is empty").format(pile=name(source))
    if shift:
        move = Move(source, cell(), 1)
        if source.kind is PileKind.CELL:
            return None, _("{card} is already in a cell").format(card=state.pile(source)[-1].label)
        reason = explain(state, move, cheat=cheat, name=name)
        return (None, reason) if reason else (move, "")
    order = (
        ("card", "empty", "found")
        if source.kind is PileKind.CELL
        else ("card", "empty", "found", "cell")
    )
    candidates = [
        m
        for m in legal_moves(state, cheat=cheat)
        if m.source == source and _rank(state, m, order)[0] < len(order)
    ]
    # Among moves to a foundation prefer one card (the usual step), elsewhere the most.
    if candidates:
        best = min(candidates, key=lambda m: _rank(state, m, order))
        if best.target.kind is PileKind.FOUNDATION:
            best = min((m for m in candidates if m.target == best.target), key=lambda m: m.count)
        return best, ""
    return None, _no_move_reason(state, source, 1, cheat, name)


# --------------------------------------------------------------------------- the view


def _builtin_face(rank: int, suit: str, width: int, height: int, four_colour: bool) -> Any:
    return cardfaces.render_face(rank, suit, width, height, four_colour=four_colour)


def _card_photo(image: Image.Image, master: tk.Misc) -> ImageTk.PhotoImage:
    """A card image as Tk shows it fast: each pixel fully opaque or fully clear (the
    smoothed corners' partly clear pixels rounded to whichever is nearer). Tk draws an
    image with partly clear pixels by reading the screen under it back from the X server
    and blending, once per card in every area it redraws: measured with
    benchmarks/bench_redraw.py, a drop's redraw took 44.8 ms with smoothed corners and
    18.9 ms without, an undo's 5.9 ms and 3.3 ms."""
    rgba = image.convert("RGBA")
    rgba.putalpha(rgba.getchannel("A").point(lambda a: 255 if a >= 128 else 0))
    return ImageTk.PhotoImage(rgba, master=master)


def _felt(width: int, height: int) -> Image.Image:
    """A felt background: lighter in the middle, darker towards the edges."""
    grad = Image.radial_gradient("L").resize(
        (max(1, width), max(1, height)), Image.Resampling.BILINEAR
    )
    centre = Image.new("RGB", grad.size, _FELT_CENTRE)
    edge = Image.new("RGB", grad.size, _FELT_EDGE)
    return Image.composite(edge, centre, grad)


def _rounded_box(x0: float, y0: float, x1: float, y1: float, r: float) -> list[float]:
    """Points of a rounded rectangle for a smoothed canvas polygon."""
    return [
        x0 + r, y0, x1 - r, y0, x1, y0, x1, y0 + r, x1, y1 - r, x1, y1,
        x1 - r, y1, x0 + r, y1, x0, y1, x0, y1 - r, x0, y0 + r, x0, y0,
    ]  # fmt: skip


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _exit(box: tuple[float, float, float, float], dx: float, dy: float) -> float:
    """How far (in pixels) from the middle of ``box`` a line in direction (dx, dy) leaves
    it."""
    length = (dx * dx + dy * dy) ** 0.5
    if length == 0:
        return 0.0
    half_w, half_h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    tx = half_w / abs(dx) if dx else float("inf")
    ty = half_h / abs(dy) if dy else float("inf")
    return min(tx, ty) * length


class TableView(tk.Canvas):
    """The table: draws a :class:`~solitaire_core.state.GameState` and reports moves.

    :param master: the parent widget.
    :param on_move: called with a legal :class:`~solitaire_core.moves.Move` the player
        made (click, drag and drop, or a pile key); the owner plays it and calls
        :meth:`show` with the result.
    :param on_message: called with a sentence for the status bar (why a move was not
        possible; ``""`` clears it).
    :param cheat: returns whether the Cheat difficulty is on (asked at each move).
    :param four_colour: draw the four-colour deck.
    :param animation: animate autoplay moves to the foundations.

    For tests and tools: every card item has the tags ``card`` and ``card:<text>`` (e.g.
    ``card:TS`` or ``card:TS'`` for the second deck's ten of spades); key letters have
    the tags ``key`` and ``key:<pile>`` (``key:t1``); drop-target highlights have the
    tag ``target``; a hint (:meth:`highlight_move`) has the tags ``hint`` and
    ``hint:source``, ``hint:target`` or ``hint:arrow``; :meth:`card_center` and
    :meth:`pile_center` give where to point.
    """

    def __init__(
        self,
        master: tk.Misc,
        *,
        on_move: Callable[[Move], object],
        on_message: Callable[[str], object] = lambda text: None,
        cheat: Callable[[], bool] = lambda: False,
        four_colour: bool = False,
        animation: bool = True,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("background", FELT)
        kwargs.setdefault("highlightthickness", 0)
        kwargs.setdefault("borderwidth", 0)
        kwargs.setdefault("takefocus", 1)
        super().__init__(master, **kwargs)
        self.on_move = on_move
        self.on_message = on_message
        self.cheat = cheat
        self.four_colour = four_colour
        self.animation = animation
        self.rules: Rules | None = None
        self.state: GameState | None = None
        self.layout: Layout | None = None
        self.key_of: dict[PileRef, str] = {}
        self._by_key: dict[str, PileRef] = {}
        self._items: dict[Card, int] = {}
        self._down: dict[Card, bool] = {}  # cards drawn face down
        self._placed: dict[Card, tuple[int, int]] = {}
        self._drawn: dict[PileRef, tuple[Card, ...]] = {}
        self._shown: GameState | None = None  # what the canvas shows (mid-animation too)
        self._slot_items: dict[PileRef, int] = {}
        self._key_items: dict[PileRef, int] = {}
        # The continuation labels of wrapped columns: what is drawn, to redraw on change.
        self._continued: dict[tuple[PileRef, int], tuple[int, int, str, int]] = {}
        self._faces: dict[tuple[int, str], ImageTk.PhotoImage] = {}
        self._slots: dict[tuple[str, str], ImageTk.PhotoImage] = {}
        self._felt_photo: ImageTk.PhotoImage | None = None
        self._felt_item: int | None = None
        self._image_size: tuple[int, int] = (0, 0)
        self._resize_job: str | None = None
        self._press: dict[str, Any] | None = None
        self._dragging = False
        self._anim_job: str | None = None
        self._anim_queue: list[tuple[GameState, Move, float]] = []
        self._anim_done: Callable[[], object] | None = None
        self._flight: dict[str, Any] | None = None
        self._last_press: tuple[int, int] = (-100, -100)
        self._provisional = True
        self._expected = False  # drawn for the size it asks before it is shown (expect_size)
        self.hinted: Move | None = None  # the move :meth:`highlight_move` shows
        self.selected: PileRef | None = None  # the first card of a pair (Pyramid)
        self._tinted: Card | None = None  # the card drawn tinted as :attr:`selected`
        self.face_renderer: Callable[[int, str, int, int, bool], Any] = _builtin_face
        self.bind("<Configure>", self._on_configure)
        self.bind("<Map>", self._on_map)
        self.bind("<ButtonPress-1>", self._on_press)
        self.bind("<Double-ButtonPress-1>", self._on_double_press)
        self.bind("<B1-Motion>", self._on_motion)
        self.bind("<ButtonRelease-1>", self._on_release)
        self.bind("<KeyPress>", self._on_key)
        self.cursor = KeyboardFocus(self)  # arrows, Tab, Space/Enter (solitaire_tk.table.focus)

    # ------------------------------------------------------------------ public

    def set_game(self, state: GameState) -> None:
        """Start drawing a new game (a new deal or another variant): lays out the piles
        and creates one image item per card."""
        self.cancel_animation()
        self._cancel_drag()
        self.hinted = None
        self.selected = None
        self._tinted = None
        self.rules = state.rules
        self.state = state
        self.cursor.hide()
        self.cursor.pile = PileRef(PileKind.TABLEAU, 0)
        self.key_of = pile_keys(state.rules)
        self._by_key = {k: ref for ref, k in self.key_of.items()}
        self.delete("all")
        self._items.clear()
        self._down.clear()
        self._placed.clear()
        self._drawn.clear()
        self._slot_items.clear()
        self._key_items.clear()
        self._continued.clear()
        self._felt_item = None
        self._shown = None
        self.layout = None
        if self.winfo_ismapped() or self._expected:
            self._relayout(force=True)
        else:  # drawn once the canvas is shown, at its real size (see _on_map)
            self._provisional = True

    def expect_size(self, width: int, height: int) -> None:
        """Ask for ``width`` x ``height``, the size the canvas will have when its window is
        first shown: until then a game put on it is drawn at once for that size, so the
        window shows the finished table when it appears and does not draw it again."""
        self.configure(width=width, height=height)
        self._expected = True
        if self.state is not None and not self.winfo_ismapped():
            self._relayout(force=False)

    def show(
        self,
        state: GameState,
        *,
        turn: Turn | None = None,
        done: Callable[[], object] | None = None,
    ) -> None:
        """Draw ``state`` (the game's new position).

        :param turn: the turn that led to it; when animation is on, the player's move
            glides to its place (:data:`GLIDE` seconds) and the autoplay moves after it
            fly to the foundations.
        :param done: called once the canvas shows ``state`` (at once, or when the
            animation ends or is cut short by the player's next input).
        """
        self.cancel_animation()
        if state is not self.state:
            self.clear_highlight()  # a hint belongs to the position it was given for
            self.select(None)  # so does the first card of a pair
        self.state = state
        if self.rules is None or state.rules is not self.rules:
            self.set_game(state)
        elif self.layout is not None and state.rules.base_first_played:
            self._mark_foundations()
        if turn is None or not self.animation or self.layout is None:
            self._sync(state)
            if done:
                done()
            return
        # The canvas shows the position before the move (dragged cards where they were
        # dropped: their recorded places are unchanged, so _sync leaves them there).
        self._sync(turn.before)
        step = turn.before
        queue: list[tuple[GameState, Move, float]] = []
        for i, move in enumerate((turn.move, *turn.autoplay)):
            step = apply(step, move, cheat=True)
            queue.append((step, move, GLIDE if i == 0 else 0.0))
        self._anim_queue = queue
        self._anim_done = done
        self._anim_job = self.after(_FRAME, self._animate_next)

    @property
    def animating(self) -> bool:
        """Whether an autoplay animation is running."""
        return self._anim_job is not None

    def finish_animation(self) -> None:
        """Cut a running animation short: show the final position at once and call its
        ``done``."""
        if self._anim_job is None:
            return
        self.after_cancel(self._anim_job)
        self._anim_job = None
        self._anim_queue = []
        self._flight = None
        done, self._anim_done = self._anim_done, None
        if self.state is not None:
            self._sync(self.state)
        if done:
            done()

    def cancel_animation(self) -> None:
        """Stop a running animation without calling its ``done``."""
        if self._anim_job is not None:
            self.after_cancel(self._anim_job)
        self._anim_job = None
        self._anim_queue = []
        self._anim_done = None
        self._flight = None

    def set_face_renderer(self, render: Callable[[int, str, int, int, bool], Any] | None) -> None:
        """Draw the card faces with ``render(rank, suit, width, height, four_colour)``
        (a card theme, :mod:`solitaire_tk.faces.themes`); ``None``: the built-in faces."""
        self.face_renderer = render if render is not None else _builtin_face
        self._faces.clear()
        if self.state is not None and self.layout is not None:
            self._relayout(force=True)

    def set_four_colour(self, on: bool) -> None:
        """Switch the four-colour deck on or off (re-renders the faces)."""
        if on != self.four_colour:
            self.four_colour = on
            self._faces.clear()
            if self.state is not None:
                self._relayout(force=True)

    def highlight_move(self, move: Move) -> bool:
        """Show ``move`` on the table (a hint, or the computer's next move in a demo):
        a thick outline round the cards that move and round the place they go, and an
        arrow from one to the other. It stays until :meth:`clear_highlight`, the next
        :meth:`highlight_move`, or a new position (:meth:`show`); a resize redraws it.

        :param move: a move legal in the position shown (an unnumbered foundation or
            cell target is shown at the pile the rules pick).
        :return: ``False`` when the move is not legal in the position shown (nothing is
            drawn); a table not laid out yet draws it once it is.
        """
        self.clear_highlight()
        if self.state is None:
            return False
        try:
            concrete = resolve(self.state, move, cheat=True)
        except IllegalMoveError:
            return False
        self.hinted = concrete
        self._draw_highlight()
        return True

    def clear_highlight(self) -> None:
        """Remove the hint's outlines and arrow."""
        self.hinted = None
        self.delete("hint")

    def _draw_highlight(self) -> None:
        self.delete("hint")
        move, layout, state = self.hinted, self.layout, self._shown or self.state
        if move is None or layout is None or state is None:
            return
        w = layout.card_w
        pad = max(3, w // 22)
        width = max(3, w // 16)
        radius = w * 0.1

        def box(ref: PileRef, first: int, n: int) -> tuple[float, float, float, float]:
            x0, y0, x1, y1 = layout.cards_box(ref, min(max(0, first), max(n - 1, 0)), max(n, 1))
            return x0 - pad, y0 - pad, x1 + pad, y1 + pad

        n = len(state.pile(move.source))
        count = move.count if move.source.kind is PileKind.TABLEAU else 1
        source = box(move.source, n - count, n)
        m = len(state.pile(move.target))
        target = box(move.target, m - 1, m)
        for (x0, y0, x1, y1), part in ((source, "source"), (target, "target")):
            points = _rounded_box(x0, y0, x1, y1, radius)
            self.create_polygon(points, smooth=True, fill="", outline=_HINT_SHADOW,
                                width=width + 4, tags=("hint", f"hint:{part}"))  # fmt: skip
            self.create_polygon(points, smooth=True, fill="", outline=_HINT, width=width,
                                tags=("hint", f"hint:{part}"))  # fmt: skip
        # The arrow joins the two outlines, so it covers neither the moving cards nor the
        # card they go onto.
        (sx, sy), (tx, ty) = _centre(source), _centre(target)
        dx, dy = tx - sx, ty - sy
        length = (dx * dx + dy * dy) ** 0.5
        gap = width * 1.5
        start = _exit(source, dx, dy) + gap
        end = length - _exit(target, -dx, -dy) - gap
        if end - start <= width * 4:
            # Piles side by side leave no room between the outlines: the arrow then runs
            # over the cards, from the middle of the moving cards to the middle of the
            # place they go.
            start, end = 0.0, length
        if length > 0 and end - start > width * 4:
            ux, uy = dx / length, dy / length
            for colour, grow in ((_HINT_SHADOW, 3), (_HINT, 0)):
                shape = (width * 4.0 + grow, width * 4.5 + grow, width * 2.0 + grow)
                self.create_line(
                    sx + ux * start, sy + uy * start, sx + ux * end, sy + uy * end,
                    fill=colour, width=width + grow, arrow="last", arrowshape=shape,
                    capstyle="round", tags=("hint", "hint:arrow"),
                )  # fmt: skip
        self.tag_raise("hint")

    def press_key(self, key: str, *, shift: bool = False) -> bool:
        """Act on a pile key as if it was typed: returns whether ``key`` is a pile key.
        The stock's key deals (as a click on it does)."""
        ref = self._by_key.get(key.lower())
        if ref is None or self.state is None:
            return False
        self.finish_animation()
        if ref.kind is PileKind.STOCK:
            self.click_card(ref, max(0, len(self.state.stock) - 1))
            return True
        move, reason = key_move(
            self.state, ref, shift=shift, cheat=self.cheat(), name=self.pile_name
        )
        self._report(move, reason)
        return True

    def deal(self) -> None:
        """Deal from the stock, as a click on it does (:func:`stock_move`)."""
        if self.state is None:
            return
        move, reason = stock_move(self.state, name=self.pile_name)
        self._report(move, reason)

    def click_card(self, ref: PileRef, index: int) -> None:
        """Act on a click on the card at ``index`` of pile ``ref`` (on the stock: a
        deal). In a game of pairs (Pyramid) a click chooses a card and the next click
        on a card it pairs with plays the pair (:meth:`pair_click`)."""
        if self.state is None:
            return
        if self.state.rules.pair_total:
            self.pair_click(ref)
            return
        if ref.kind is PileKind.STOCK:
            self.deal()
            return
        move, reason = click_move(self.state, ref, index, cheat=self.cheat(), name=self.pile_name)
        self._report(move, reason)

    def pair_click(self, ref: PileRef) -> None:
        """A click on pile ``ref`` in a game of pairs (``foundations.build = "pairs"``:
        Pyramid). A free King (a card that pairs alone, ``Rules.pair_total``) goes to
        the discard pile at once. Another free card (of the layout, the waste's top, the
        stock's top card where it plays) is chosen (:attr:`selected`, outlined); a
        click on a second card plays the pair if the ranks add up, else says why and
        chooses that card instead; a click on the chosen card again lets it go. A click
        on the stock deals, unless its top card pairs with the chosen one; a covered
        card says what covers it."""
        state = self.state
        assert state is not None
        chosen = self.selected
        cards = state.pile(ref)
        if ref.kind is PileKind.STOCK and (
            not state.rules.stock_top_plays
            or not cards
            or chosen is None
            or explain(state, pair_move(state, chosen, ref), cheat=self.cheat())
        ):
            self.select(None)
            self.deal()
            return
        if ref.kind is PileKind.FOUNDATION:
            if chosen is not None:  # a card alone is no pair: the core says why
                self._report(None, explain(state, Move(chosen, ref), cheat=self.cheat(),
                                           name=self.pile_name) or "")  # fmt: skip
            return
        reason = covered_reason(state, ref, cheat=self.cheat(), name=self.pile_name)
        if not cards or reason:
            self._report(None, reason or _("{pile} is empty").format(pile=self.pile_name(ref)))
            return
        card = cards[-1]
        if card.rank == state.rules.pair_total:  # a King goes alone
            self.select(None)
            move = Move(ref, foundation(0))
            why = explain(state, move, cheat=self.cheat(), name=self.pile_name)
            self._report(None if why else move, why or "")
            return
        if chosen == ref:
            self.select(None)
            self.on_message("")
            return
        if chosen is not None:
            move = pair_move(state, chosen, ref)
            why = explain(state, move, cheat=self.cheat(), name=self.pile_name)
            if why is None:
                self.select(None)
                self._report(move, "")
                return
            self.select(ref)
            self._report(None, why)
            return
        self.select(ref)
        self.on_message(
            _("{card} chosen: click a card it pairs with (ranks adding up to {total}).").format(
                card=card.label, total=state.rules.pair_total
            )
        )

    def select(self, ref: PileRef | None) -> None:
        """Choose the top card of ``ref`` as the first card of a pair (outlined, items
        tagged ``selected``), or none."""
        self.selected = ref
        self._draw_selected()

    def _draw_selected(self) -> None:
        """Show the chosen card (:attr:`selected`) tinted and outlined, and outline the
        cards it pairs with, as a drag outlines its targets (items tagged ``selected``
        and ``selected:partner``)."""
        self.delete("selected")
        layout, state, ref = self.layout, self._shown or self.state, self.selected
        cards = state.pile(ref) if state is not None and ref is not None else ()
        chosen = cards[-1] if cards else None
        if self._tinted is not None and self._tinted != chosen:
            gone, self._tinted = self._tinted, None
            if gone in self._items:
                self.itemconfigure(self._items[gone], image=self._look(gone, False))
        if layout is None or state is None or ref is None or chosen is None:
            return
        if chosen in self._items:
            self.itemconfigure(self._items[chosen], image=self._chosen_face(chosen))
            self._tinted = chosen
        moves = legal_moves(state, cheat=self.cheat())
        partners = {m.target for m in moves if m.source == ref and is_pair(state, m)}
        partners |= {m.source for m in moves if m.target == ref and is_pair(state, m)}
        pad = max(2, layout.card_w // 30)
        radius = layout.card_w * 0.09
        for pile, width, tag in ((ref, max(3, pad + 2), "selected:card"),) + tuple(
            (p, max(2, pad + 1), "selected:partner") for p in sorted(partners, key=str)
        ):
            n = len(state.pile(pile))
            x, y = layout.card_xy(pile, n - 1, n)
            box = _rounded_box(x - pad, y - pad, x + layout.card_w + pad,
                               y + layout.card_h + pad, radius)  # fmt: skip
            for colour, extra in ((_HINT_SHADOW, 2), (_TARGET, 0)):
                self.create_polygon(
                    box, smooth=True, fill="", outline=colour, width=width + extra,
                    tags=("selected", tag),
                )  # fmt: skip
        self.tag_raise("selected")

    def _chosen_face(self, card: Card) -> ImageTk.PhotoImage:
        """The face of ``card`` tinted, for the chosen first card of a pair."""
        key = (card.rank, f"{card.suit.value}:chosen")
        photo = self._faces.get(key)
        if photo is None:
            w, h = self._image_size
            image = self.face_renderer(card.rank, card.suit.value, w, h, self.four_colour)
            rgba = image.convert("RGBA")
            tinted = Image.blend(rgba, Image.new("RGBA", rgba.size, _CHOSEN_TINT), 0.3)
            tinted.putalpha(rgba.getchannel("A"))
            photo = self._faces[key] = _card_photo(tinted, self)
        return photo

    def pile_name(self, ref: PileRef) -> str:
        """``ref`` as the table labels it, for messages: ``"column C"``, ``"cell 2"``
        (:func:`solitaire_tk.table.layout.pile_name`); a column of a layout (Pyramid), which
        has no letter, by its card (``"K♣"``, or ``"a face-down card"``)."""
        state = self.state
        if self.layout is not None and self.layout.placed and state is not None:
            cards = state.pile(ref) if ref.kind is PileKind.TABLEAU else ()
            if cards:
                down = state.is_face_down(ref.index or 0, len(cards) - 1)
                return _("a face-down card") if down else cards[-1].label
        return pile_name(ref, self.key_of)

    def card_center(self, card: Card) -> tuple[int, int]:
        """Canvas coordinates of the middle of the visible strip of ``card`` (a good
        place to click it)."""
        x, y = self._placed[card]
        assert self.layout is not None
        return x + self.layout.card_w // 2, y + max(
            4, min(self.layout.fan, self.layout.card_h) // 3
        )

    def pile_center(self, ref: PileRef) -> tuple[int, int]:
        """Canvas coordinates of the middle of a pile's top card (or empty outline)."""
        assert self.layout is not None and self.state is not None
        n = len(self.state.pile(ref))
        x, y = self.layout.card_xy(ref, max(0, n - 1), n)
        return x + self.layout.card_w // 2, y + self.layout.card_h // 2

    def item_of(self, card: Card) -> int:
        """The canvas item that draws ``card``."""
        return self._items[card]

    def relayout(self) -> None:
        """Lay the table out again for the current canvas size now (normally done after a
        resize, debounced)."""
        self._relayout(force=False)

    def destroy(self) -> None:
        """Stop the timers (resize, animation) and destroy the canvas."""
        self.cancel_animation()
        if self._resize_job is not None:
            self.after_cancel(self._resize_job)
            self._resize_job = None
        super().destroy()

    # ------------------------------------------------------------------ layout and images

    def _on_map(self, event: tk.Event) -> None:
        self._expected = False  # from now on drawn for the real size (see _on_configure)
        if self.state is not None and (self._provisional or self.layout is None):
            self._relayout(force=False)  # not again when drawn for this size already

    def _on_configure(self, event: tk.Event) -> None:
        if self.state is None:
            return
        if self._provisional:  # laid out for the requested size before the window showed
            self._relayout(force=False)
            return
        if self._resize_job is not None:
            self.after_cancel(self._resize_job)
        self._resize_job = self.after(_RESIZE_DELAY, self._resized)

    def _resized(self) -> None:
        self._resize_job = None
        self._relayout(force=False)

    def _size(self) -> tuple[int, int]:
        width, height = self.winfo_width(), self.winfo_height()
        self._provisional = width <= 1 or height <= 1
        if self._provisional:  # not mapped yet: use the requested size
            width, height = int(self.cget("width")), int(self.cget("height"))
        return width, height

    @property
    def drawn_for_window(self) -> bool:
        """Whether the table is laid out for the canvas' real size (not the size it
        asked for before the window was shown)."""
        layout = self.layout
        return (
            layout is not None
            and not self._provisional
            and (layout.width, layout.height) == (self.winfo_width(), self.winfo_height())
        )

    def _relayout(self, *, force: bool) -> None:
        if self.state is None or self.rules is None:
            return
        width, height = self._size()
        old = self.layout
        if not force and old is not None and (old.width, old.height) == (width, height):
            return
        self.finish_animation()
        self._cancel_drag()
        layout = compute_layout(self.rules, width, height, **column_plan(self.state))
        self.layout = layout
        size = (layout.card_w, layout.card_h)
        if size != self._image_size:
            self._faces.clear()
            self._slots.clear()
            self._image_size = size
        self._draw_felt(width, height)
        self._draw_slots()
        self._placed.clear()
        self._drawn.clear()
        for card, item in self._items.items():
            self.itemconfigure(item, image=self._look(card, self._down.get(card, False)))
        self._sync(self._shown or self.state)
        self._draw_highlight()

    def _draw_felt(self, width: int, height: int) -> None:
        self._felt_photo = ImageTk.PhotoImage(_felt(width, height), master=self)
        if self._felt_item is None:
            self._felt_item = self.create_image(0, 0, anchor="nw", tags=("felt",))
        self.itemconfigure(self._felt_item, image=self._felt_photo)
        self.tag_lower(self._felt_item)

    def _back(self) -> ImageTk.PhotoImage:
        """The image of a face-down card (the stock, Klondike's hidden cards)."""
        photo = self._faces.get((0, "back"))
        if photo is None:
            w, h = self._image_size
            photo = self._faces[(0, "back")] = _card_photo(cardfaces.render_back(w, h), self)
        return photo

    def _look(self, card: Card, down: bool) -> ImageTk.PhotoImage:
        return self._back() if down else self._face(card)

    def _face(self, card: Card) -> ImageTk.PhotoImage:
        key = (card.rank, card.suit.value)
        photo = self._faces.get(key)
        if photo is None:
            w, h = self._image_size
            image = self.face_renderer(card.rank, card.suit.value, w, h, self.four_colour)
            photo = self._faces[key] = _card_photo(image, self)
        return photo

    def _slot_image(self, kind: str, label: str) -> ImageTk.PhotoImage:
        photo = self._slots.get((kind, label))
        if photo is None:
            w, h = self._image_size
            image = cardfaces.render_slot(w, h, label, kind=kind)
            photo = self._slots[(kind, label)] = ImageTk.PhotoImage(image, master=self)
        return photo

    def _mark_foundations(self) -> None:
        """Redraw the marks of the empty foundations: with ``foundations.base_rank =
        "first-played"`` they read "Any" until the first card goes up, then its rank
        (and "Any" again after an undo)."""
        assert self.layout is not None
        for slot in self.layout.foundations:
            item = self._slot_items.get(slot.ref)
            if item is not None:
                image = self._slot_image(*slot_look(self.state, slot.ref))
                self.itemconfigure(item, image=image)

    def _draw_slots(self) -> None:
        assert self.layout is not None and self.rules is not None
        font = ("DejaVu Sans", -self.layout.font_px, "bold")
        for slot in self.layout.slots:
            ref = slot.ref
            if self.layout.placed and ref.kind is PileKind.TABLEAU:
                continue  # a card of a layout leaves bare table behind (Pyramid)
            image = self._slot_image(*slot_look(self.state, ref))
            item = self._slot_items.get(ref)
            if item is None:
                item = self.create_image(
                    slot.x, slot.y, anchor="nw", image=image, tags=("slot", f"slot:{ref}")
                )
                self._slot_items[ref] = item
            else:
                self.coords(item, slot.x, slot.y)
                self.itemconfigure(item, image=image)
            if slot.key:
                key_item = self._key_items.get(ref)
                colour = _LABEL if ref.kind is not PileKind.FOUNDATION else _LABEL_DIM
                # The key sits on a keycap, so a foundation's "K" never reads as the
                # "K" of a King-only empty column or a card's rank.
                half = round(self.layout.font_px * 0.7)
                cap = _rounded_box(
                    slot.label_x - half,
                    slot.label_y - half,
                    slot.label_x + half,
                    slot.label_y + half,
                    half * 0.45,
                )
                if key_item is None:
                    self.create_polygon(
                        cap, smooth=True, fill=_KEYCAP, outline=colour, width=1,
                        tags=("keycap", f"keycap:{ref}"),
                    )  # fmt: skip
                    key_item = self.create_text(
                        slot.label_x,
                        slot.label_y,
                        text=slot.key.upper() if slot.key.isalpha() else slot.key,
                        fill=colour,
                        font=font,
                        tags=("key", f"key:{ref}"),
                    )
                    self._key_items[ref] = key_item
                else:
                    self.coords(f"keycap:{ref}", *cap)
                    self.coords(key_item, slot.label_x, slot.label_y)
                    self.itemconfigure(key_item, font=font)
        self.tag_raise("slot", "felt")
        self.tag_raise("keycap", "slot")
        self.tag_raise("key", "keycap")

    # ------------------------------------------------------------------ drawing a state

    def _piles(self, state: GameState) -> Iterable[tuple[PileRef, tuple[Card, ...]]]:
        for i, col in enumerate(state.columns):
            yield PileRef(PileKind.TABLEAU, i), col
        for i, c in enumerate(state.cells):
            yield PileRef(PileKind.CELL, i), (() if c is None else (c,))
        for i, f in enumerate(state.foundations):
            # Only the top two cards of a foundation can ever be seen.
            yield PileRef(PileKind.FOUNDATION, i), f
        if state.rules.has_stock:
            yield PileRef(PileKind.STOCK, 0), state.stock
            if state.rules.stock_deal == "waste":
                yield PileRef(PileKind.WASTE, 0), state.waste
        if state.rules.has_reserve:
            yield RESERVE, state.reserve

    def _sync(self, state: GameState) -> None:
        """Make the canvas show ``state``: move the items whose place changed and restack
        the piles whose cards changed."""
        layout = self.layout
        if layout is None:
            return
        self._shown = state
        placed, items, drawn = self._placed, self._items, self._drawn
        top_plays = state.rules.stock_top_plays  # Pyramid's stock shows its top card
        restack = False
        for ref, cards in self._piles(state):
            n = len(cards)
            changed = drawn.get(ref) != cards
            hidden = ref.kind is PileKind.TABLEAU and bool(state.hidden)
            for index, card in enumerate(cards):
                xy = layout.card_xy(ref, index, n)
                item = items.get(card)
                down = (
                    (ref.kind is PileKind.STOCK and not (top_plays and index == n - 1))
                    or (hidden and state.is_face_down(ref.index or 0, index))
                    or (ref.kind is PileKind.RESERVE and state.is_reserve_face_down(index))
                )
                if item is None:
                    item = self.create_image(
                        xy[0],
                        xy[1],
                        anchor="nw",
                        image=self._look(card, down),
                        tags=("card", f"card:{card}{chr(39) * card.deck}"),
                    )
                    items[card] = item
                    placed[card] = xy
                    self._down[card] = down
                elif placed.get(card) != xy:
                    self.coords(item, xy[0], xy[1])
                    placed[card] = xy
                if self._down.get(card) != down:
                    self.itemconfigure(item, image=self._look(card, down))
                    self._down[card] = down
                    self.addtag_withtag("facedown", item) if down else self.dtag(item, "facedown")
            if changed:
                # Raise only the cards above those the pile kept in place: Tk redraws every
                # card it raises, and the kept ones already lie in order (a card taken
                # back by an undo redraws its own place, not both columns).
                kept = drawn.get(ref, ())
                same = 0
                for old, card in zip(kept, cards):
                    if old != card:
                        break
                    same += 1
                for card in cards[same:]:
                    self.tag_raise(items[card])
                drawn[ref] = cards
                restack = restack or ref.kind is PileKind.TABLEAU
        if restack and layout.placed:
            # A card back in a layout (an undo) lies under the cards that cover it: each
            # column over the ones before it, as dealt.
            for cards in state.columns:
                for card in cards:
                    self.tag_raise(items[card])
        self._label_stock(state)
        self._label_reserve(state)
        self._label_continuations(state)
        self._draw_selected()
        if self.cursor.visible:
            self.cursor.draw()

    def continuation_labels(
        self, state: GameState
    ) -> dict[tuple[PileRef, int], tuple[int, int, str]]:
        """The labels over the second and third fans of the long columns of ``state``
        (:attr:`Layout.segments`: Der Katzenschwanz, Die Schlange): ``(column, fan)`` ->
        ``(x, y, text)``, the fan counted from 1 for the second, centred in the key
        letters' strip above it. The text names the column it continues, ``"D cont."``
        (``"D…"`` where that does not fit a card's width), so it never reads as a key of
        its own."""
        layout = self.layout
        if layout is None or layout.segments <= 1:
            return {}
        font = tkfont.Font(root=self, family="DejaVu Sans", size=-self._continuation_px())
        labels: dict[tuple[PileRef, int], tuple[int, int, str]] = {}
        for i, column in enumerate(state.columns):
            n = len(column)
            slot = layout.columns[i]
            fans = -(-n // max(1, layout.per_segment(n))) if n else 0
            key = slot.key.upper() if slot.key else str(i + 1)
            text = _("{key} cont.").format(key=key)
            if font.measure(text) > layout.card_w:
                text = f"{key}\u2026"
            for fan in range(1, fans):
                x = slot.label_x + fan * layout.segment_dx
                labels[(slot.ref, fan)] = (x, slot.label_y, text)
        return labels

    def stock_label(self, state: GameState) -> str:
        """What the table writes on the stock: the cards left, and for a waste game the
        redeals left (``"23 · ∞"``, ``"12 · 2 left"``, ``"0 · no redeal"``)."""
        rules = state.rules
        text = str(len(state.stock))
        if rules.stock_deal == "waste":
            left = state.redeals_left
            text += " · " + (
                "∞"
                if left is None
                else _("no redeal")
                if left == 0
                else ngettext("{count} left", "{count} left", left).format(count=left)
            )
        return text

    def _label_stock(self, state: GameState) -> None:
        """Draw :meth:`stock_label` under the stock (item tagged ``stockinfo``) and mark
        the empty stock: a redeal arrow while the waste can still be turned over, a
        cross when it cannot."""
        self.delete("stockinfo")
        layout = self.layout
        if layout is None or not state.rules.has_stock:
            return
        slot = layout.slot(PileRef(PileKind.STOCK, 0))
        px = max(10, round(layout.font_px * 0.9))
        self.create_text(
            slot.x + layout.card_w // 2, slot.y + layout.card_h + px,
            text=self.stock_label(state), fill=_LABEL, font=("DejaVu Sans", -px, "bold"),
            tags=("stockinfo",),
        )  # fmt: skip
        if not state.stock:
            can = bool(stock_moves(state))
            self.create_text(
                slot.x + layout.card_w // 2, slot.y + layout.card_h // 2,
                text="↻" if can else "✕", fill=_LABEL if can else _LABEL_DIM,
                font=("DejaVu Sans", -round(layout.card_w * 0.45), "bold"),
                tags=("stockinfo", "stockmark"),
            )  # fmt: skip

    @staticmethod
    def reserve_label(state: GameState) -> str:
        """What the table writes under the reserve: the cards in it (``"13 cards"``,
        ``"1 card"``; ``""`` once it is empty, when its outline says "Reserve")."""
        n = len(state.reserve)
        return "" if n == 0 else ngettext("{count} card", "{count} cards", n).format(count=n)

    @staticmethod
    def base_label(state: GameState) -> str:
        """What the table writes under the foundations where the deal's base card sets
        their rank (``deal.foundations.base_card``: Canfield): ``"Base rank: Jack"``, as
        PySolFC writes the rank under Canfield's foundations; ``""`` elsewhere."""
        if not state.rules.deal.base_card or not state.bases:
            return ""
        return _("Base rank: {rank}").format(rank=rank_mark(state.bases[0]))

    def _label_reserve(self, state: GameState) -> None:
        """Draw :meth:`reserve_label` under the reserve's top card (item tagged
        ``reserveinfo``) and :meth:`base_label` under the foundations (``baseinfo``)."""
        self.delete("reserveinfo", "baseinfo")
        layout = self.layout
        if layout is None:
            return
        px = max(10, round(layout.font_px * 0.9))
        text = self.reserve_label(state) if layout.reserve else ""
        if text:
            x0, _y0, x1, y1 = layout.pile_box(RESERVE, len(state.reserve))
            self.create_text(
                (x0 + x1) // 2, y1 + px, text=text, fill=_LABEL,
                font=("DejaVu Sans", -px, "bold"), tags=("reserveinfo",),
            )  # fmt: skip
        text = self.base_label(state)
        if text and layout.foundations:
            first, last = layout.foundations[0], layout.foundations[-1]
            self.create_text(
                (first.x + last.x + layout.card_w) // 2, last.y + layout.card_h + px,
                text=text, fill=_LABEL, font=("DejaVu Sans", -px, "bold"),
                tags=("baseinfo",),
            )  # fmt: skip

    def _continuation_px(self) -> int:
        assert self.layout is not None
        return max(10, self.layout.font_px)

    def _label_continuations(self, state: GameState) -> None:
        """Draw :meth:`continuation_labels` (items tagged ``continued`` and
        ``continued:<pile>``), redrawing only what changed."""
        size = self._continuation_px() if self.layout is not None else 0
        wanted = {k: (*v, size) for k, v in self.continuation_labels(state).items()}
        if wanted == self._continued:
            return
        self.delete("continued")
        for (ref, _fan), (x, y, text, px) in wanted.items():
            self.create_text(
                x, y, text=text, fill=_LABEL_DIM, font=("DejaVu Sans", -px),
                tags=("continued", f"continued:{ref}"),
            )  # fmt: skip
        self._continued = wanted

    def _animate_next(self) -> None:
        """Start flying the next autoplay card, or finish."""
        self._anim_job = None
        if not self._anim_queue:
            done, self._anim_done = self._anim_done, None
            if self.state is not None:
                self._sync(self.state)
            if done:
                done()
            return
        target_state, move, duration = self._anim_queue.pop(0)
        assert self.layout is not None and self._shown is not None
        if is_pair(self._shown, move):
            # Both cards of a pair fly to the discard pile.
            cards: tuple[Card, ...] = (
                self._shown.pile(move.source)[-1],
                self._shown.pile(move.target)[-1],
            )
            where = self._places(target_state)
            items = [self._items[card] for card in cards]
            starts = [tuple(self.coords(item)) for item in items]
            ends = [where[card] for card in cards]
            for card in cards:
                if self._down.get(card):
                    self.itemconfigure(self._items[card], image=self._face(card))
                    self._down[card] = False
        elif PileKind.STOCK in (move.source.kind, move.target.kind):
            # A deal: the cards leaving the stock (or the waste turned over) fly to
            # where the new position has them, turned as they land.
            gone = self._shown.stock if move.source.kind is PileKind.STOCK else self._shown.waste
            left = target_state.pile(move.source)
            cards = tuple(c for c in gone if c not in left)
            where = self._places(target_state)
            items = [self._items[card] for card in cards]
            starts = [tuple(self.coords(item)) for item in items]
            ends = [where[card] for card in cards]
            for card in cards:
                self.itemconfigure(self._items[card], image=self._face(card))
                self._down[card] = False
        else:
            count = move.count if move.source.kind is PileKind.TABLEAU else 1
            cards = self._shown.pile(move.source)[-count:]
            items = [self._items[card] for card in cards]
            starts = [tuple(self.coords(item)) for item in items]
            n = len(target_state.pile(move.target))
            ends = [self.layout.card_xy(move.target, n - count + k, n) for k in range(count)]
            # A column emptied by the move takes the reserve's top card in the same move
            # (reserve.fill_empty): that card flies to it too.
            refill = [c for c in self._shown.reserve if c not in target_state.reserve]
            refill = [c for c in refill if c not in cards]
            if refill:
                where = self._places(target_state)
                items += [self._items[c] for c in refill]
                starts += [tuple(self.coords(self._items[c])) for c in refill]
                ends += [where[c] for c in refill]
        if not duration:  # autoplay: seconds per card, faster in a cascade
            duration = 0.09 if len(self._anim_queue) < 6 else 0.05
        for item in items:
            self.tag_raise(item)
        self._flight = {
            "items": items, "starts": starts, "ends": ends, "t0": time.perf_counter(),
            "duration": duration, "state": target_state,
        }  # fmt: skip
        self._anim_job = self.after(_FRAME, self._animate_frame)

    def _places(self, state: GameState) -> dict[Card, tuple[int, int]]:
        """Where every card of ``state`` lies on the table (top-left corners, px)."""
        assert self.layout is not None
        out: dict[Card, tuple[int, int]] = {}
        for ref, cards in self._piles(state):
            for index, card in enumerate(cards):
                out[card] = self.layout.card_xy(ref, index, len(cards))
        return out

    def _animate_frame(self) -> None:
        flight = self._flight
        assert flight is not None
        t = (time.perf_counter() - flight["t0"]) / flight["duration"]
        if t >= 1.0:
            self._flight = None
            self._sync(flight["state"])
            self._anim_job = self.after(1, self._animate_next)
            return
        ease = 1 - (1 - t) ** 3
        for item, (x0, y0), (x1, y1) in zip(flight["items"], flight["starts"], flight["ends"]):
            self.coords(item, x0 + (x1 - x0) * ease, y0 + (y1 - y0) * ease)
        self._anim_job = self.after(_FRAME, self._animate_frame)

    # ------------------------------------------------------------------ input

    def _report(self, move: Move | None, reason: str) -> None:
        if move is None:
            self.on_message(reason[:1].upper() + reason[1:] + "." if reason else "")
        else:
            self.on_message("")
            self.on_move(move)

    def _on_key(self, event: tk.Event) -> str | None:
        state = event.state if isinstance(event.state, int) else 0
        if state & 0x4 or state & 0x8:  # Control or Alt: a menu shortcut
            return None
        keysym = event.keysym
        if keysym.startswith("KP_") and keysym[3:].isdigit():
            keysym = keysym[3:]
        if len(keysym) != 1 or not keysym.isalnum():
            return None
        shift = bool(state & 0x1) or (keysym.isupper() and not state & 0x2)
        return "break" if self.press_key(keysym, shift=shift) else None

    def _counts(self) -> dict[PileRef, int]:
        assert self.state is not None
        return pile_counts(self.state)

    def _on_double_press(self, event: tk.Event) -> None:
        # The second press of a double click on the same spot: the first click already
        # moved the card, so it must not move the card that is there now too. On the
        # stock each click is a deal, however fast the clicks come (Golf's player turns
        # two cards with a quick double click, as in PySolFC).
        lx, ly = self._last_press
        near = abs(event.x - lx) <= _DRAG_THRESHOLD and abs(event.y - ly) <= _DRAG_THRESHOLD
        if near and not self._on_stock(event):
            return
        self._on_press(event)

    def _on_stock(self, event: tk.Event) -> bool:
        """Whether ``event`` points at a stock that a click deals from."""
        if self.state is None or self.layout is None:
            return False
        hit = self.layout.card_at(self.canvasx(event.x), self.canvasy(event.y), self._counts())
        top_plays = self.state.rules.stock_top_plays and bool(self.state.stock)
        return hit is not None and hit[0].kind is PileKind.STOCK and not top_plays

    def _on_press(self, event: tk.Event) -> None:
        self._last_press = (event.x, event.y)
        self.focus_set()
        self.finish_animation()
        self._cancel_drag()
        if self.state is None or self.layout is None:
            return
        if self._on_stock(event):
            self.deal()  # a click on the stock, full or empty, deals
            return
        x, y = self.canvasx(event.x), self.canvasy(event.y)
        hit = self.layout.card_at(x, y, self._counts())
        if hit is None or hit[1] is None:
            return
        ref, index = hit
        cards = self.state.pile(ref)
        takes_runs = self.state.rules.reserve_takes_runs
        if ref.kind is PileKind.RESERVE and index < len(cards) - 1 and not takes_runs:
            if not self.state.is_reserve_face_down(index):  # Superior Canfield's open reserve
                self._report(None, _("only the reserve's top card plays"))
                return
            index = len(cards) - 1  # the edge of a face-down card: the top card is meant
        runs = ref.kind is PileKind.TABLEAU or (ref.kind is PileKind.RESERVE and takes_runs)
        moving = cards[index:] if runs else cards[-1:]
        self._press = {"ref": ref, "index": index, "x": x, "y": y, "cards": moving,
                       "last": (x, y)}  # fmt: skip

    def _on_motion(self, event: tk.Event) -> None:
        press = self._press
        if press is None or self.state is None:
            return
        x, y = self.canvasx(event.x), self.canvasy(event.y)
        if not self._dragging:
            if abs(x - press["x"]) < _DRAG_THRESHOLD and abs(y - press["y"]) < _DRAG_THRESHOLD:
                return
            if not self._start_drag():
                self._press = None
                return
        lx, ly = press["last"]
        self.move("drag", x - lx, y - ly)
        press["last"] = (x, y)

    def _start_drag(self) -> bool:
        """Lift the pressed cards and highlight where they may go; ``False`` (with the
        reason in the status bar) when they cannot be moved as a unit."""
        press = self._press
        assert press is not None and self.state is not None and self.rules is not None
        ref, cards = press["ref"], press["cards"]
        count = len(cards)
        if ref.kind is PileKind.FOUNDATION and not self.rules.foundation_return:
            return False
        if ref.kind is PileKind.STOCK and not self.rules.stock_top_plays:
            return False
        reason = covered_reason(self.state, ref, cheat=self.cheat(), name=self.pile_name)
        if reason:
            self._report(None, reason)
            return False
        if ref.kind is PileKind.TABLEAU and count > column_run(self.state, ref.index or 0):
            self._report(
                None, _no_move_reason(self.state, ref, count, self.cheat(), self.pile_name)
            )
            return False
        self._dragging = True
        self.on_message("")
        moves = legal_moves(self.state, cheat=self.cheat())
        targets = {
            m.target for m in moves if m.source == ref and m.count == count and not _deals(m)
        }
        if self.rules.pair_total:  # the cards a pair is made with, whichever was dragged
            targets |= {m.source for m in moves if m.target == ref and is_pair(self.state, m)}
        press["targets"] = targets
        self._highlight(targets)
        for card in cards:
            item = self._items[card]
            self.addtag_withtag("drag", item)
            self.tag_raise(item)
        return True

    def _highlight(self, targets: Iterable[PileRef]) -> None:
        assert self.layout is not None and self.state is not None
        pad = max(2, self.layout.card_w // 30)
        radius = self.layout.card_w * 0.09
        for ref in targets:
            n = len(self.state.pile(ref))
            x, y = self.layout.card_xy(ref, max(0, n - 1), n)
            self.create_polygon(
                _rounded_box(x - pad, y - pad, x + self.layout.card_w + pad,
                             y + self.layout.card_h + pad, radius),
                smooth=True, fill="", outline=_TARGET, width=max(2, pad + 1),
                tags=("target",),
            )  # fmt: skip

    def _on_release(self, event: tk.Event) -> None:
        press, dragging = self._press, self._dragging
        self._press = None
        self._dragging = False
        if press is None or self.state is None or self.layout is None:
            return
        if not dragging:
            self.click_card(press["ref"], press["index"])
            return
        self.delete("target")
        self.dtag("drag", "drag")
        ref, cards = press["ref"], press["cards"]
        first = self._items[cards[0]]
        x0, y0 = self.coords(first)
        box = (x0, y0, x0 + self.layout.card_w, y0 + self.layout.card_h)
        counts = self._counts()
        counts[ref] = counts.get(ref, 0) - len(cards)
        target = self.layout.drop_target(box, counts, press.get("targets", ()))
        move = Move(ref, target, len(cards)) if target is not None and target != ref else None
        if (
            move is not None
            and self.state.rules.pair_total
            and move.target.kind is not PileKind.FOUNDATION
        ):
            move = pair_move(self.state, ref, move.target)
        reason = None
        if move is not None:
            reason = explain(self.state, move, cheat=self.cheat(), name=self.pile_name)
        if move is not None and reason is None:
            self.on_message("")
            self.on_move(move)
            if self._shown is not None and self._shown is not self.state:
                return
        # Snap back: the canvas shows the position before the drag again.
        for card in cards:
            self._placed.pop(card, None)
        self._sync(self._shown or self.state)
        if reason:
            self._report(None, reason)

    def _cancel_drag(self) -> None:
        if self._dragging:
            self.delete("target")
            self.dtag("drag", "drag")
            if self._press is not None:
                for card in self._press["cards"]:
                    self._placed.pop(card, None)
            self._dragging = False
            if self.state is not None and self.layout is not None:
                self._sync(self._shown or self.state)
        self._press = None
