"""The solver in the game window: hints, the demo, winnable deals and the "still
winnable?" status line.

An :class:`Assistant` belongs to one game window (:class:`~solitaire_tk.shell.host.GameHost`).
It runs the solver of :mod:`solitaire_core.solver` in the background, never on the Tk
thread: it owns at most one :class:`~solitaire_core.solver.SolverJob` at a time and polls
it with
``widget.after``, so the window keeps drawing, taking clicks and keys while a search
runs, and every search can be cancelled (the Cancel button next to the status message,
Escape, or Game > Stop).

What it offers the player:

* **Hint** (:meth:`Assistant.hint`): the next move of a win from the position on the
  table, outlined on the table (:meth:`~solitaire_tk.table.view.TableView.highlight_move`) and said
  in words in the status bar (:func:`describe_move`); or, when the solver has proved it,
  that the position cannot be won any more. In a game with hidden cards the hint never
  peeks (the default): it deals the unseen cards at random into the unseen places
  :data:`HONEST_SAMPLES` times, solves each arrangement, and advises the move that wins
  in most (:func:`~solitaire_core.solver.honest.honest_hint`), saying how sure it is
  ("wins in 7 of 10 ways the hidden cards may lie"). With Options > Hints see hidden
  cards (:attr:`Assistant.peek`) it answers from the thoughtful solver instead, which
  knows them, and says so. The demo follows the same choice.
* **Solve (demo)** (:meth:`Assistant.demo`): the computer plays the rest of the game, one
  move every :attr:`Assistant.demo_step_ms` milliseconds, each move outlined just before
  it is played, autoplay animated as usual. Any key, a click on the table, Escape or
  Game > Stop ends it; its moves are ordinary moves, so Undo takes them back.
* **Winnable deals only** (:meth:`Assistant.find_winnable_deal`): random deal numbers
  are drawn and solved in the background until the solver proves one winnable
  (undecided ones are skipped), with "Finding a winnable deal…" and Cancel shown.
* **Show winnability** (:attr:`Assistant.show_winnability`): a status field says after
  each move whether the position is still winnable, checked in the background with a
  modest budget: "Winnable", "Cannot be won" (only on a proof) or "Unknown" (the budget
  ran out).

The solver is pure Python and shares the interpreter lock with the Tk thread: while a
job runs, the interpreter's thread switch interval is lowered to 1 ms (from Python's
5 ms), so the Tk thread waits at most about a millisecond for the lock after each Tk
call. Measured on Seahaven deal 73 (a 1.5 s search), a 10 ms ``after`` timer then fires
every 12 ms (at worst 21 ms) during the search instead of every 40-57 ms (at worst
110 ms), at a cost to the search within the measurement noise. The interval is restored
when no job runs.

Results are kept by position (:func:`position_key`): a solution found once serves every
position along it, so repeated hints are instant and the demo plays the solution the
hint found. The solver's verdicts are for the Normal difficulty: with Cheat on a
position it calls unwinnable may still be won by cheating, and the texts say so.
"""

from __future__ import annotations

import sys
import time
import tkinter as tk
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from tkinter import ttk
from typing import TYPE_CHECKING

import attrs

from solitaire_core.errors import IllegalMoveError
from solitaire_core.i18n import N_, current_language, ngettext, pgettext
from solitaire_core.i18n import gettext as _
from solitaire_core.moves import Move, PileKind, PileRef
from solitaire_core.rules import explain, legal_moves, pile_accepts, resolve
from solitaire_core.session import Session
from solitaire_core.solver import SolveResult, SolverJob, Verdict, budget_for, stock
from solitaire_core.solver.honest import HonestAdvice, continuation, unseen_cards
from solitaire_core.solver.job import HonestJob
from solitaire_core.state import GameState
from solitaire_core.variant import Rules

from ..table.layout import pile_name
from ..table.view import is_pair

if TYPE_CHECKING:
    from .host import GameHost

__all__ = [
    "CHECK_MAX_STATES",
    "CHECK_TIMEOUT",
    "DEAL_MAX_STATES",
    "DEAL_TIMEOUT",
    "DEAL_TRIES",
    "HINT_MAX_STATES",
    "HONEST_MAX_STATES",
    "HONEST_MAX_STATES_COMPILED",
    "HONEST_SAMPLES",
    "HINT_TIMEOUT",
    "Assistant",
    "advice_text",
    "describe_move",
    "position_key",
    "without_detours",
]

HINT_TIMEOUT = 30.0
"""Seconds a hint or demo search may take before it gives up (Cancel stops it sooner)."""
HINT_MAX_STATES = 500_000
"""Positions a hint or demo search's largest search may store (about 0.6 KB each: some
300 MB at most); the budget given the solver is :func:`~solitaire_core.solver.budget_for`
this, as are those below."""
HONEST_SAMPLES = 10
"""Arrangements of the unseen cards a hint that never peeks solves, before the moves most
voted for are searched again in each won one: on the first move of Klondike deals 1-20,
0.21 s of CPU in the middle deal and 0.39 s at most (0.26 s and 0.50 s in Draw 3), with
the compiled search at :data:`HONEST_MAX_STATES_COMPILED` (``python
benchmarks/bench_honest.py klondike --first 1 --last 20 --max-states 20000
--hint-time``)."""
HONEST_MAX_STATES = 1000
"""Positions each of those searches may store where the thoughtful search runs in Python."""
HONEST_MAX_STATES_COMPILED = 20_000
"""Positions each of those searches may store where the compiled search plays the game
(the Klondike, Yukon, Canfield, Spider, Gypsy and Forty Thieves families,
:func:`solitaire_core.solver.stock.native_unsupported`): about as
quick as the Python search's thousand (benchmarks/bench_honest.py)."""
CHECK_TIMEOUT = 3.0
"""Seconds the "still winnable?" check may take per position."""
CHECK_MAX_STATES = 200_000
"""Positions the "still winnable?" check may store per position."""
DEAL_TIMEOUT = 3.0
"""Seconds spent on one candidate deal when looking for a winnable deal."""
DEAL_MAX_STATES = 200_000
"""Positions stored for one candidate deal when looking for a winnable deal."""
DEAL_TRIES = 200
"""Candidate deals tried before the search for a winnable deal gives up."""

_POLL_MS = 15  # how often a running job is looked at
_BUSY_DELAY_MS = 250  # the Cancel button appears only for searches that take longer
_CHECK_DELAY_MS = 200  # quiet after a move before the "still winnable?" check starts
_SWITCH_INTERVAL = 0.001  # seconds; see _start
_CACHE_SIZE = 5_000  # positions whose verdict is remembered (a few MB at most)


def position_key(state: GameState, policy: str) -> Hashable:
    """What a solver result depends on: the variant and its options, the autoplay
    policy the moves are played with, and every pile of ``state`` (piles keep their
    numbers, since the solution's moves name them)."""
    rules = state.rules
    return (rules.id, rules.options, policy, state)


def _peeks(state: GameState) -> bool:
    """Whether a hint, the demo or a verdict says that the solver behind them knows the
    face-down cards and the stock's order (a game with hidden cards: it is thoughtful)."""
    return bool(state.rules.hidden_cards)


def _number(value: float, decimals: int = 0) -> str:
    """``value`` written for the language spoken: ``"1,234,567"``, ``"1.5"`` in English,
    ``"1.234.567"``, ``"1,5"`` in German."""
    language = current_language()
    if language == "en":
        return f"{value:,.{decimals}f}"
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=language)


# A hint names the piles as the table shows them (solitaire_tk.table.layout.pile_name), each
# phrase whole so that it reads well in every language.
_FROM = {
    PileKind.TABLEAU: N_("from column {key}"),
    PileKind.CELL: N_("from cell {key}"),
    PileKind.FOUNDATION: N_("from foundation {key}"),
    PileKind.RESERVE: N_("from the reserve"),
    PileKind.WASTE: N_("from the waste"),
    PileKind.STOCK: N_("from the stock"),
}
_ONTO = {
    PileKind.TABLEAU: N_("onto {card} in column {key}"),
    PileKind.FOUNDATION: N_("onto {card} in foundation {key}"),
}
_TO_EMPTY = {
    PileKind.TABLEAU: N_("to the empty column {key}"),
    PileKind.FOUNDATION: N_("to the empty foundation {key}"),
}
_UNNUMBERED = (PileKind.RESERVE, PileKind.WASTE, PileKind.STOCK)
# Why a hint that found no win advises a move all the same
# (solitaire_core.solver.honest.progress_move and FURTHEST): marked here, translated
# when shown.
_FALLBACKS = (
    N_("this move sends a card up"),
    N_("this move turns a face-down card up"),
    N_("this move empties a column"),
    N_("this move deals from the stock"),
    N_("this move turns the waste over"),
    N_("this move leads furthest toward a win"),
)


def _key_of(ref: PileRef, keys: dict[PileRef, str]) -> str:
    """The key a pile is named by in a hint, as :func:`~solitaire_tk.table.layout.pile_name`
    shows it: its letter in capitals, its digit, else its number counted from 1."""
    key = keys.get(ref, "")
    shown = key.upper() if key.isalpha() else key
    return shown or str((ref.index or 0) + 1)


def _phrase(
    table: dict[PileKind, str], generic: str, ref: PileRef, keys: dict[PileRef, str], **fields: str
) -> str:
    """A pile's phrase of ``table`` (translated), or ``generic`` with the pile's name for
    a pile the table lacks or that has no number."""
    if ref.kind in table and (ref.index is not None or ref.kind in _UNNUMBERED):
        return _(table[ref.kind]).format(key=_key_of(ref, keys), **fields)
    return _(generic).format(pile=pile_name(ref, keys), **fields)


def advice_text(advice: HonestAdvice) -> str:
    """A hint's advice that never peeks in words for the player, in the language spoken
    (:attr:`HonestAdvice.text <solitaire_core.solver.honest.HonestAdvice.text>` in
    English): "wins in 38 of 50 ways the hidden cards may lie"."""
    ways = advice.samples
    if advice.move is None:
        return ngettext(
            "no win found in {ways} way the hidden cards may lie: no move is advised",
            "no win found in {ways} ways the hidden cards may lie: no move is advised",
            ways,
        ).format(ways=ways)
    if advice.fallback:
        return ngettext(
            "no win found in {ways} way the hidden cards may lie; {reason}",
            "no win found in {ways} ways the hidden cards may lie; {reason}",
            ways,
        ).format(ways=ways, reason=_(advice.fallback))
    return ngettext(
        "wins in {wins} of {ways} way the hidden cards may lie",
        "wins in {wins} of {ways} ways the hidden cards may lie",
        ways,
    ).format(wins=advice.wins, ways=ways)


def describe_move(state: GameState, move: Move, keys: dict[PileRef, str]) -> str:
    """A move in plain words, as the status bar shows a hint (short, the status bar is
    narrow): ``"7♠ from column C onto 8♠ in column F"``, ``"9♥–7♥ from column A to the
    empty column E"`` (a run: its first and last card), ``"A♦ from cell 2 to the
    foundation"``; where foundation piles of different heights take the card (which one
    matters then), the chosen one by name, ``"6♣ from column B onto 5♥ in foundation K"``;
    ``"Q♣ from the reserve onto K♥ in column D"``, and where a column emptied by the
    move takes the reserve's top card (``reserve.fill_empty``: Canfield), that too,
    ``"…; 7♠ from the reserve fills column A"``. A pair (Pyramid) reads ``"pair A♣ (the
    stock's top card) with Q♥"``, and a card of a layout, which has no key, is named by
    itself, ``"K♠ to the foundation"``. In the language spoken (the examples are English).

    :param state: the position the move is made from.
    :param move: a move legal in ``state`` (unnumbered targets are resolved as the rules
        resolve them).
    :param keys: the pile keys shown on the table (:func:`solitaire_tk.table.layout.pile_keys`); a
        pile is named by its key, as the player sees it.
    :raises IllegalMoveError: when ``move`` is not legal in ``state``.
    """
    move = resolve(state, move, cheat=True)
    if is_pair(state, move):  # Pyramid: two cards adding up to 13 leave together
        return _("pair {first} with {second}").format(
            first=_pair_card(state, move.source), second=_pair_card(state, move.target)
        )
    if move.source.kind is PileKind.STOCK and state.rules.stock_top_plays:
        if move.target.kind is PileKind.FOUNDATION:  # Pyramid's King on the stock
            return _("{card} to the foundation").format(card=_pair_card(state, move.source))
    if move.source.kind is PileKind.STOCK:
        return (
            _("deal a row from the stock")
            if move.target.kind is PileKind.TABLEAU
            else _("deal from the stock")
        )
    if move.target.kind is PileKind.STOCK:
        return _("turn the waste over into a new stock")
    cards = state.pile(move.source)
    count = move.count if move.source.kind is PileKind.TABLEAU else 1
    first = cards[-count]
    what = first.label if count == 1 else f"{first.label}–{cards[-1].label}"
    source = _phrase(_FROM, N_("from {pile}"), move.source, keys)
    target = move.target
    if target.kind is PileKind.FOUNDATION:
        where = _("to the foundation")
        takers = [i for i in range(len(state.foundations)) if pile_accepts(state, i, first)]
        heights = {len(state.foundations[i]) for i in takers}
        if count == 1 and len(heights) > 1 and target.index is not None:
            # Piles unlike in height take the card (Stalactites' piles start from dealt
            # ranks and end apart): the hint names the one the solution chose.
            pile = state.pile(target)
            if pile:
                where = _phrase(
                    _ONTO, N_("onto {card} in {pile}"), target, keys, card=pile[-1].label
                )
            else:
                where = _phrase(_TO_EMPTY, N_("to the empty {pile}"), target, keys)
    elif target.kind is PileKind.CELL:
        where = _phrase({PileKind.CELL: N_("to cell {key}")}, N_("to {pile}"), target, keys)
    elif state.pile(target):
        where = _phrase(
            _ONTO, N_("onto {card} in {pile}"), target, keys, card=state.pile(target)[-1].label
        )
    else:
        where = _phrase(_TO_EMPTY, N_("to the empty {pile}"), target, keys)
    text = _("{cards} {source} {target}").format(cards=what, source=source, target=where)
    if state.rules.layout and move.source.kind is PileKind.TABLEAU and not keys.get(move.source):
        # a card of a layout (Pyramid) has no letter to name it
        text = _("{cards} {target}").format(cards=what, target=where)
    if (
        move.source.kind is PileKind.TABLEAU
        and count == len(cards)
        and state.rules.reserve_fills_empty
        and state.reserve
    ):  # Canfield: the emptied column takes the reserve's top card in the same move
        text = _("{move}; {card} from the reserve fills column {key}").format(
            move=text, card=state.reserve[-1].label, key=_key_of(move.source, keys)
        )
    return text


def _pair_card(state: GameState, ref: PileRef) -> str:
    """The top card of ``ref`` in a hint for a pair: ``"Q♥"``, ``"A♣ (the stock's top
    card)"``, ``"4♥ (the waste's)"``."""
    label = state.pile(ref)[-1].label
    if ref.kind is PileKind.STOCK:
        return _("{card} (the stock's top card)").format(card=label)
    if ref.kind is PileKind.WASTE:
        return _("{card} (the waste's)").format(card=label)
    return label


def without_detours(state: GameState, moves: Sequence[Move], policy: str) -> tuple[Move, ...]:
    """A solution with its detours through a cell taken out: a card put in a cell and
    moved on from there by the next move (``t6>c1``, ``c1>t2``) makes one move
    (``t6>t2``) wherever that move is legal and leads to the same position (so hints
    never show the detour).

    :param state: the position the solution starts from.
    :param moves: the solution's moves, legal one after the other from ``state``.
    :param policy: the autoplay policy they are played with.
    :return: the moves, shortened; ``moves`` unchanged when a move does not replay.
    """
    session = Session(state.rules, 1, state=state, autoplay=policy)
    result: list[Move] = []
    i = 0
    try:
        while i < len(moves):
            move = resolve(session.state, moves[i])
            if i + 1 < len(moves) and move.target.kind is PileKind.CELL and move.count == 1:
                after = Session(state.rules, 1, state=session.state, autoplay=policy)
                after.play(move)
                nxt = resolve(after.state, moves[i + 1])
                if nxt.source == move.target:
                    direct = Move(move.source, nxt.target, 1)
                    if explain(session.state, direct) is None:
                        after.play(nxt)
                        trial = Session(state.rules, 1, state=session.state, autoplay=policy)
                        trial.play(direct)
                        if trial.state == after.state:
                            result.append(direct)
                            session = trial
                            i += 2
                            continue
            session.play(move)
            result.append(move)
            i += 1
    except IllegalMoveError:
        return tuple(moves)
    return tuple(result)


@attrs.define
class _Search:
    """A running job and what it is for: ``"hint"``, ``"demo"`` (the player waits for
    it), ``"check"`` (the status field) or ``"deal"`` (a candidate winnable deal)."""

    kind: str
    state: GameState
    policy: str
    key: Hashable
    job: SolverJob
    max_states: int
    started: float
    deal: int | None = None
    honest: bool = False  # an HonestJob: the advice that never peeks


@attrs.define
class _DealSearch:
    """The search for a winnable deal in progress."""

    rules: Rules
    on_found: Callable[[int], object]
    draw: Callable[[], int]
    tries: int
    tried: list[int] = attrs.field(factory=list)
    started: float = attrs.field(factory=time.monotonic)


class Assistant:
    """Hints, the demo, winnable deals and the winnability field for an app.

    :param app: the window's controller, as a :class:`~solitaire_tk.shell.host.GameHost` (the
        :class:`~solitaire_tk.shell.app.App`).
    :param show_winnability: start with the "still winnable?" field shown.
    :param peek: let the hint and the demo use the hidden cards (Options > Hints see
        hidden cards; :attr:`peek` may change at any time).

    The app calls :meth:`position_changed` whenever the position on the table may have
    changed (a move, undo, redo, restart, another game), :meth:`leave_game` when the
    table is replaced by the launcher and :meth:`shutdown` when the window closes.

    Attributes for tests and tools: ``search_job`` (the running
    :class:`~solitaire_core.solver.SolverJob` or ``None``), ``demo_step_ms`` and
    ``demo_show_ms`` (the demo's pace), ``field`` (the winnability label),
    ``cancel_button``, ``last_result`` (the last finished search's result).
    """

    def __init__(
        self, app: GameHost, *, show_winnability: bool = False, peek: bool = False
    ) -> None:
        self.app = app
        self.peek = peek
        self.honest_budget = {
            "samples": HONEST_SAMPLES,
            "max_states": HONEST_MAX_STATES,
            "compiled_max_states": HONEST_MAX_STATES_COMPILED,
        }
        self._advice: OrderedDict[Hashable, HonestAdvice] = OrderedDict()
        # The honest demo's last advice, whose plan it follows through a seen stock.
        self._plan: HonestAdvice | None = None
        self.root = app.root
        self.demo_step_ms = 300
        self.demo_show_ms = 160
        self.hint_budget = {"timeout": HINT_TIMEOUT, "max_states": HINT_MAX_STATES}
        self.check_budget = {"timeout": CHECK_TIMEOUT, "max_states": CHECK_MAX_STATES}
        self.lookahead_budget = {"timeout": 1.0, "max_states": 50_000}
        self.deal_budget = {"timeout": DEAL_TIMEOUT, "max_states": DEAL_MAX_STATES}
        self.last_result: SolveResult | None = None
        self._show = show_winnability
        self._search: _Search | None = None
        self._deals: _DealSearch | None = None
        self._known: OrderedDict[Hashable, tuple[Move, ...] | None] = OrderedDict()
        self._unknown: dict[Hashable, int] = {}  # undecided within this many states
        self._poll_job: str | None = None
        self._busy_job: str | None = None
        self._check_job: str | None = None
        self._demo_job: str | None = None
        self._demo = False
        self._demo_session: Session | None = None
        self._moving = False  # the demo is playing a move
        self._expected: GameState | None = None  # the position the demo's move gave
        self._seen: GameState | None = None
        self._hinted: GameState | None = None  # the position of the last hint counted
        self._switch: float | None = None  # the switch interval to restore
        self._busy_shown = False  # the Cancel button is on the status bar
        self._busy_text = ""
        self._build()

    # ------------------------------------------------------------------ widgets

    def _build(self) -> None:
        app = self.app
        message = app.status["message"]
        bar = message.master
        # One frame for the Cancel button and the winnability field, packed once just
        # right of the message, so the fields keep their order when shown and hidden.
        self.frame = ttk.Frame(bar, style="Status.TFrame")
        self.frame.pack(side="right", before=message)
        self.busy = ttk.Frame(self.frame, style="Status.TFrame")
        style = ttk.Style(self.root)
        style.configure("Status.TButton", padding=(8, 0))
        self.cancel_button = ttk.Button(
            self.busy, text=_("Cancel"), command=self.stop, style="Status.TButton", width=7
        )
        self.cancel_button.pack(side="left", padx=(4, 6))
        self.winnability = ttk.Frame(self.frame, style="Status.TFrame")
        self.field = ttk.Label(self.winnability, style="Status.TLabel")
        self.field.pack(side="right")
        ttk.Separator(self.winnability, orient="vertical").pack(side="right", fill="y", pady=3)
        for name, colour in (("Good", "#1d6b2f"), ("Bad", "#9a1d12"), ("Dim", "#6b716c")):
            style.configure(f"{name}.Status.TLabel", background="#e9ece6", foreground=colour,
                            padding=(8, 3))  # fmt: skip
        # Any key or click on the table stops the demo (and does nothing else).
        view = app.view
        self._stop_tag = f"AssistDemo{id(self)}"
        view.bindtags((self._stop_tag, *view.bindtags()))
        for sequence in ("<KeyPress>", "<ButtonPress>"):
            view.bind_class(self._stop_tag, sequence, self._input_during_demo)
        self._refit()

    def _refit(self) -> None:
        """Pack the frame's parts that are in use (Tk keeps an emptied frame's size, so
        it is shrunk by hand)."""
        busy = self._busy_shown
        for part, wanted in ((self.busy, busy), (self.winnability, self._field_wanted)):
            if wanted and not part.winfo_manager():
                part.pack(side="left" if part is self.busy else "right")
            elif not wanted and part.winfo_manager():
                part.pack_forget()
        if not busy and not self._field_wanted:
            self.frame.configure(width=1, height=1)

    @property
    def _field_wanted(self) -> bool:
        return self._show and self.app.playing

    def _show_busy(self, text: str) -> None:
        """Say what the search is doing; the Cancel button follows if it takes long."""
        self._busy_text = text
        if self.app.launcher is not None:
            self.app.launcher.show_busy(text, self.stop)
            return
        self.app.set_message(text)
        if self._busy_job is None and not self._busy_shown:
            self._busy_job = self.root.after(_BUSY_DELAY_MS, self._busy_now)

    def _busy_now(self) -> None:
        self._busy_job = None
        if self._search is None or self._search.kind == "check" or self.app.ended:
            return
        self._busy_shown = True
        self._refit()

    def _hide_busy(self) -> None:
        if self._busy_job is not None:
            self.root.after_cancel(self._busy_job)
            self._busy_job = None
        if self.app.launcher is not None:
            self.app.launcher.hide_busy()
        if self._busy_shown:
            self._busy_shown = False
            self._refit()

    def _input_during_demo(self, event: tk.Event) -> str | None:
        if not self._demo:
            return None
        self.stop_demo()
        return "break"

    # ------------------------------------------------------------------ state

    @property
    def busy_searching(self) -> bool:
        """Whether a search the player waits for (hint, demo, winnable deal) runs."""
        return self._deals is not None or (
            self._search is not None and self._search.kind in ("hint", "demo")
        )

    @property
    def demo_running(self) -> bool:
        """Whether the computer is playing (the demo)."""
        return self._demo

    @property
    def search_job(self) -> SolverJob | None:
        """The running solver job, if any."""
        return self._search.job if self._search is not None else None

    @property
    def show_winnability(self) -> bool:
        """Whether the "still winnable?" field is shown (Options > Show winnability)."""
        return self._show

    @show_winnability.setter
    def show_winnability(self, on: bool) -> None:
        self._show = bool(on)
        self._update_field()

    def _key(self, state: GameState) -> Hashable:
        session = self.app.session
        policy = session.autoplay_policy if session is not None else state.rules.autoplay
        return position_key(state, policy)

    def known(self, state: GameState) -> Verdict | None:
        """What is known about ``state`` (a position of the game on the table):
        :attr:`Verdict.WINNABLE`, :attr:`Verdict.UNWINNABLE`, or ``None`` (not solved,
        or undecided)."""
        key = self._key(state)
        if key not in self._known:
            return None
        return Verdict.WINNABLE if self._known[key] is not None else Verdict.UNWINNABLE

    def solution(self, state: GameState) -> tuple[Move, ...] | None:
        """The moves of a known win from ``state`` (``None`` when none is known)."""
        return self._known.get(self._key(state))

    def _remember(self, search: _Search, result: SolveResult) -> None:
        """Keep a decided result for its position, and a solution for every position
        along it; an undecided one only as "unknown within this budget"."""
        if result.verdict is Verdict.UNDECIDED:
            if result.reason != "cancelled":
                old = self._unknown.get(search.key, 0)
                self._unknown[search.key] = max(old, search.max_states)
            return
        if result.verdict is Verdict.UNWINNABLE:
            self._put(search.key, None)
            return
        policy, state = search.policy, search.state
        session = Session(state.rules, 1, state=state, autoplay=policy)
        moves = without_detours(state, result.moves, policy)
        for i, move in enumerate(moves):
            self._put(position_key(session.state, policy), moves[i:])
            try:
                session.play(move)
            except IllegalMoveError:  # cannot happen: the solver replays its solutions
                break
        self._put(search.key, moves)

    def learn(self, state: GameState, result: SolveResult) -> None:
        """Keep the verdict of a search made elsewhere (Undo to winnable's checks) for
        ``state``, a position of the game on the table, solved with the session's
        autoplay policy."""
        session = self.app.session
        policy = session.autoplay_policy if session is not None else state.rules.autoplay
        key = position_key(state, policy)
        job = SolverJob(state)  # never started: _remember reads only the position
        self._remember(_Search("check", state, policy, key, job, 0, time.monotonic()), result)
        self._update_field()

    def forget(self) -> None:
        """Forget every kept result (the next hint searches afresh)."""
        self._known.clear()
        self._unknown.clear()

    def _put(self, key: Hashable, moves: tuple[Move, ...] | None) -> None:
        self._known[key] = moves
        self._known.move_to_end(key)
        self._unknown.pop(key, None)
        while len(self._known) > _CACHE_SIZE:
            self._known.popitem(last=False)

    # ------------------------------------------------------------------ jobs

    def _start(
        self, kind: str, state: GameState, budget: dict[str, float], deal: int | None = None
    ) -> None:
        """Start a search (cancelling the running one)."""
        self._cancel_search()
        session = self.app.session
        policy = (
            session.autoplay_policy
            if session is not None and kind != "deal"
            else state.rules.autoplay
        )
        max_states = int(budget["max_states"])  # what _unknown remembers, as the budgets say
        job = SolverJob(
            state,
            timeout=float(budget["timeout"]),
            max_states=budget_for(state.rules, max_states),
            autoplay=policy,
        )
        key = position_key(state, policy)
        self._run(_Search(kind, state, policy, key, job, max_states, time.monotonic(), deal))

    def _run(self, search: _Search) -> None:
        """Start ``search``'s job and poll it; the thread switch interval is lowered
        while it runs (module docstring)."""
        self._search = search
        if self._switch is None:
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(min(self._switch, _SWITCH_INTERVAL))
        search.job.start()
        if self._poll_job is None:
            self._poll_job = self.root.after(_POLL_MS, self._poll)
        self._update_stop()

    def _cancel_search(self) -> None:
        search, self._search = self._search, None
        if search is not None:
            search.job.cancel()

    def _poll(self) -> None:
        self._poll_job = None
        search = self._search
        if search is None or self.app.ended:
            self._restore_switch()
            return
        if not search.job.done:
            self._poll_job = self.root.after(_POLL_MS, self._poll)
            text = self.app.message
            if self._busy_shown and search.kind != "check" and text.startswith(self._busy_text):
                seconds = int(time.monotonic() - search.started)
                self.app.set_message(f"{self._busy_text} {seconds} s" if seconds else text)
            return
        self._search = None
        self._finished(search)
        if self._search is not None and self._poll_job is None:
            self._poll_job = self.root.after(_POLL_MS, self._poll)
        elif self._search is None:
            self._restore_switch()

    def _restore_switch(self) -> None:
        if self._switch is not None:
            sys.setswitchinterval(self._switch)
            self._switch = None

    def _finished(self, search: _Search) -> None:
        job = search.job
        if search.honest and job.result is not None:
            self._advised(search, job.result)  # type: ignore[arg-type]
            return
        result = job.result
        if result is None:  # the solver raised: a bug, or a variant it cannot handle
            self._hide_busy()
            self._deals = None
            self._update_stop()
            problem = _("The solver failed: {error}.").format(error=job.error)
            if search.kind == "check":
                self.field.configure(text=_("Unknown"), style="Dim.Status.TLabel")
            elif search.kind == "deal":
                self.app.warn(_("No winnable deal found"), problem)
            else:
                self.app.set_message(problem, warn=True)
            return
        self.last_result = result
        self._remember(search, result)
        if search.kind == "deal":
            self._deal_result(search, result)
            return
        if search.kind in ("hint", "demo"):
            self._hide_busy()
            session = self.app.session
            if session is not None and self._key(session.state) == search.key:
                if search.kind == "hint":
                    self._answer_hint(session.state, result)
                elif result.verdict is Verdict.WINNABLE:
                    self._begin_demo()
                else:
                    self._answer_hint(session.state, result, demo=True)
        self._update_stop()
        self._update_field()

    # ------------------------------------------------------------------ hint

    def _ready(self) -> Session | None:
        """The session when a hint or demo can be given, else ``None`` (with the reason
        in the status bar)."""
        app = self.app
        session = app.session
        if not app.playing or session is None:
            return None
        if self._deals is not None:
            app.set_message(_("Still looking for a winnable deal (Esc stops)."))
            return None
        if session.is_won:
            app.set_message(_("The game is won."))
            return None
        app.view.finish_animation()
        return session

    def hint(self) -> None:
        """Show the next move of a win from the position on the table, or say that it
        cannot be won any more; searches in the background when the answer is not known
        yet (Cancel, Escape or Game > Stop end the search)."""
        if self._demo:
            return
        session = self._ready()
        if session is None:
            return
        state = session.state
        key = self._key(state)
        if self.honest(state):
            if key in self._advice:
                self._answer_advice(state, self._advice[key])
                return
            running = self._search
            if running is not None and running.key == key and running.kind in ("hint", "demo"):
                return
            self._start_honest("hint", state)
            self._show_busy(_("Weighing the ways the hidden cards may lie…"))
            return
        if key in self._known or self._unknown.get(key, 0) >= self.hint_budget["max_states"]:
            self._answer_hint(state, None)
            return
        running = self._search
        if running is not None and running.key == key and running.kind in ("hint", "demo"):
            return
        self._start("hint", state, self.hint_budget)
        self._show_busy(_("Looking for a hint…"))

    def honest(self, state: GameState) -> bool:
        """Whether the hint and the demo must choose from the view alone in ``state``:
        the player has not let them peek (:attr:`peek`) and some cards are unseen."""
        return not self.peek and state.rules.hidden_cards and bool(unseen_cards(state))

    def _start_honest(self, kind: str, state: GameState) -> None:
        """Start the advice that never peeks for ``state`` (cancelling the running
        search)."""
        self._cancel_search()
        session = self.app.session
        policy = session.autoplay_policy if session is not None else state.rules.autoplay
        budget = self.honest_budget
        max_states = int(budget["max_states"])
        if not stock.native_unsupported(state.rules, policy):
            max_states = int(budget.get("compiled_max_states", max_states))
        job = HonestJob(state, autoplay=policy, samples=budget["samples"], max_states=max_states)
        key = position_key(state, policy)
        self._run(
            _Search(
                kind, state, policy, key, job, max_states, time.monotonic(), honest=True,
            )
        )  # fmt: skip

    def _advised(self, search: _Search, advice: HonestAdvice) -> None:
        """An advice that never peeks is ready: keep it, and give it to whoever waits."""
        self._hide_busy()
        self._update_stop()
        if advice.cancelled:
            return
        self._advice[search.key] = advice
        self._advice.move_to_end(search.key)
        while len(self._advice) > _CACHE_SIZE:
            self._advice.popitem(last=False)
        session = self.app.session
        if session is None or self._key(session.state) != search.key:
            return
        if search.kind == "hint":
            self._answer_advice(session.state, advice)
        elif self._demo:
            self._demo_step()
        else:
            self._begin_demo()

    def _answer_advice(self, state: GameState, advice: HonestAdvice) -> None:
        """Show an advice that never peeks: the move outlined and said, with how sure it
        is; or that no move was found."""
        app = self.app
        if advice.move is None:
            app.set_message(_("No hint: {advice}.").format(advice=advice_text(advice)), warn=True)
            return
        if self._hinted is not state:
            self._hinted = state
            app.used_hint = True
            app.hints += 1
        app.view.highlight_move(advice.move)
        text = describe_move(state, advice.move, app.view.key_of)
        app.set_message(_("Hint: {move} ({advice}).").format(move=text, advice=advice_text(advice)))

    def _answer_hint(
        self, state: GameState, result: SolveResult | None, *, demo: bool = False
    ) -> None:
        """Tell the player what the solver found for ``state`` (``result``, or what is
        known)."""
        app = self.app
        key = self._key(state)
        cheat = app.session is not None and app.session.cheat
        if key in self._known:
            moves = self._known[key]
            if moves is None:  # no move to show: not counted as a hint
                if cheat and _peeks(state):
                    text = _(
                        "Cannot be won from here without Cheat (the solver knows the "
                        "face-down cards and the stock): undo (Ctrl+Z) or deal again (F2)."
                    )
                elif cheat:
                    text = _(
                        "Cannot be won from here without Cheat: undo (Ctrl+Z) or deal again (F2)."
                    )
                elif _peeks(state):
                    text = _(
                        "Cannot be won from here (the solver knows the face-down cards and "
                        "the stock): undo (Ctrl+Z) or deal again (F2)."
                    )
                else:
                    text = _("Cannot be won from here: undo (Ctrl+Z) or deal again (F2).")
                app.set_message(text, warn=True)
                return
            if moves:
                if demo:
                    self._begin_demo()
                    return
                if self._hinted is not state:  # the same hint again is not another
                    self._hinted = state
                    app.used_hint = True
                    app.hints += 1
                move = moves[0]
                app.view.highlight_move(move)
                text = describe_move(state, move, app.view.key_of)
                if _peeks(state):
                    said = _("Hint: {move} (the solver knows the face-down cards and the stock).")
                else:
                    said = _("Hint: {move}.")
                app.set_message(said.format(move=text))
                return
        if result is None and self._unknown.get(key, 0) >= self.hint_budget["max_states"]:
            app.set_message(
                _(
                    "No solution found: the solver could not decide whether this position "
                    "can still be won."
                )
                if demo
                else _(
                    "No hint: the solver could not decide whether this position can still be won."
                ),
                warn=True,
            )
            return
        if result is None or result.reason == "cancelled":
            app.set_message(_("Demo cancelled.") if demo else _("Hint cancelled."))
            return
        if demo:
            said = ngettext(
                "No solution found: the solver searched {positions} position in {seconds} s "
                "without deciding whether this position can still be won.",
                "No solution found: the solver searched {positions} positions in {seconds} s "
                "without deciding whether this position can still be won.",
                result.positions,
            )
        else:
            said = ngettext(
                "No hint: the solver searched {positions} position in {seconds} s without "
                "deciding whether this position can still be won.",
                "No hint: the solver searched {positions} positions in {seconds} s without "
                "deciding whether this position can still be won.",
                result.positions,
            )
        app.set_message(
            said.format(positions=_number(result.positions), seconds=_number(result.seconds)),
            warn=True,
        )

    # ------------------------------------------------------------------ demo

    def demo(self) -> None:
        """Let the computer play the rest of the game (Solve (demo)); searches first when
        no solution is known."""
        if self._demo:
            return
        session = self._ready()
        if session is None:
            return
        state = session.state
        key = self._key(state)
        if self.honest(state):
            self._begin_demo()
            return
        if key in self._known:
            if self._known[key] is None:
                self._answer_hint(state, None)
            else:
                self._begin_demo()
            return
        running = self._search
        if running is not None and running.key == key and running.kind == "hint":
            running.kind = "demo"
            self._show_busy(_("Looking for a solution…"))
            return
        self._start("demo", state, self.demo_budget)
        self._show_busy(_("Looking for a solution…"))

    @property
    def demo_budget(self) -> dict[str, float]:
        """The demo searches with the hint's budget."""
        return self.hint_budget

    def _begin_demo(self) -> None:
        app = self.app
        self._demo = True
        self._plan = None
        self._demo_session = app.session
        self._expected = app.session.state if app.session is not None else None
        state = app.session.state if app.session is not None else None
        if state is not None and self.honest(state):
            said = _(
                "Demo: the computer plays from the cards in sight. Press any key or click to stop."
            )
        elif state is not None and _peeks(state):
            said = _(
                "Demo: the computer plays (the solver knows the face-down cards and the "
                "stock). Press any key or click to stop."
            )
        else:
            said = _("Demo: the computer plays. Press any key or click to stop.")
        app.set_message(said)
        self._update_stop()
        self._demo_job = self.root.after(0, self._demo_step)

    def _demo_step(self) -> None:
        self._demo_job = None
        if not self._demo:
            return
        app, view = self.app, self.app.view
        session = app.session
        if session is None or not app.playing or app.ended:
            self.stop_demo("")
            return
        if view.animating:
            self._demo_job = self.root.after(_POLL_MS, self._demo_step)
            return
        if session.is_won:
            self._demo = False
            self._update_stop()
            return
        state = session.state
        if self.honest(state):
            advice = self._advice.get(self._key(state))
            if advice is None and self._plan is not None:
                # Through a stock already seen, the plan the last advice dealt for goes on.
                advice = continuation(self._plan, state)
            self._plan = advice
            if advice is None:  # think first; _advised comes back here
                self._start_honest("demo", state)
                return
            if advice.move is None:
                self.stop_demo(_("Demo stopped: {advice}.").format(advice=advice_text(advice)))
                return
            moves: tuple[Move, ...] | None = (advice.move,)
            last = False
        else:
            moves = self.solution(state)
            if not moves and self._key(state) not in self._known:
                # The last hidden card came to light: search the open position now.
                self._demo = False
                self._start("demo", state, self.demo_budget)
                self._show_busy(_("Looking for a solution…"))
                return
            last = bool(moves) and len(moves) == 1  # type: ignore[arg-type]
        if not moves:
            self.stop_demo(_("Demo stopped: the computer lost track of its solution."))
            return
        view.highlight_move(moves[0])
        self._demo_job = self.root.after(
            self.demo_show_ms, lambda: self._demo_move(moves[0], last=last)
        )

    def _demo_move(self, move: Move, *, last: bool) -> None:
        self._demo_job = None
        if not self._demo:
            return
        app = self.app
        if last:  # the demo ends before the win, whose dialog may wait for the player
            self._demo = False
            self._update_stop()
        self._moving = True
        try:
            app.used_hint = app.demo_played = True  # before the move: it may win the game
            played = app.play(move)
        finally:
            self._moving = False
        session = app.session
        if not self._demo:
            return
        if not played or session is None:
            self.stop_demo()
            return
        self._expected = session.state
        pause = max(1, self.demo_step_ms - self.demo_show_ms)
        self._demo_job = self.root.after(pause, self._demo_step)

    def stop_demo(self, message: str | None = None) -> bool:
        """End the demo (its moves stay played; Undo takes them back).

        :param message: what the status bar says then (``""`` leaves it alone; default
            "Demo stopped.").
        :return: whether a demo was running.
        """
        if not self._demo:
            return False
        self._demo = False
        self._plan = None
        self._expected = None
        self._demo_session = None
        if self._demo_job is not None:
            self.root.after_cancel(self._demo_job)
            self._demo_job = None
        self.app.view.clear_highlight()
        if message is None:
            message = _("Demo stopped.")
        if message:
            self.app.set_message(
                _("{message} Undo (Ctrl+Z) takes the moves back one by one.").format(
                    message=message
                )
            )
        self._update_stop()
        return True

    # ------------------------------------------------------------------ stopping

    def stop(self) -> bool:
        """Stop what runs: the demo, a hint or demo search, or the search for a
        winnable deal (Escape, Game > Stop, the Cancel button).

        :return: whether something was stopped.
        """
        stopped = self.stop_demo()
        search = self._search
        if search is not None and search.kind in ("hint", "demo", "deal"):
            self._cancel_search()
            self._hide_busy()
            if search.kind == "deal":
                self._deals = None
                self.app.set_message(_("Stopped looking for a winnable deal."))
            else:
                self.app.set_message(
                    _("Hint cancelled.") if search.kind == "hint" else _("Demo cancelled.")
                )
            stopped = True
            self._update_field()
        self._update_stop()
        return stopped

    def _update_stop(self) -> None:
        self._refresh_toolbar()

    def _refresh_toolbar(self) -> None:
        """Have the app recompute which commands are enabled (Stop, Hint, Demo...)."""
        refresh = getattr(self.app, "refresh_actions", None)
        if refresh is not None:
            refresh()

    # ------------------------------------------------------------------ position changes

    def position_changed(self) -> None:
        """The position on the table may have changed: forget a stale search, stop the
        demo if the player moved, and refresh the winnability field."""
        session = self.app.session
        state = session.state if session is not None and self.app.playing else None
        if state is self._seen:
            return
        self._seen = state
        if (
            self._demo
            and not self._moving
            and (state is not self._expected or session is not self._demo_session)
        ):
            self.stop_demo()
        search = self._search
        if search is not None and search.kind != "deal":
            if state is None or self._key(state) != search.key:
                self._cancel_search()
                if search.kind in ("hint", "demo"):
                    self._hide_busy()
                    self._update_stop()
        self._update_field()

    def leave_game(self) -> None:
        """The table is being replaced by the launcher: stop the demo and every search."""
        self.stop_demo("")
        self._deals = None
        self._cancel_search()
        self._hide_busy()
        self._seen = None
        self._update_field()
        self._update_stop()

    def shutdown(self) -> None:
        """Cancel every job and timer (the window closes)."""
        self._demo = False
        self._deals = None
        self._cancel_search()
        self._restore_switch()
        for name in ("_poll_job", "_busy_job", "_check_job", "_demo_job"):
            job = getattr(self, name)
            if job is not None:
                try:
                    self.root.after_cancel(job)
                except tk.TclError:
                    pass
                setattr(self, name, None)

    # ------------------------------------------------------------------ winnability field

    def refresh(self) -> None:
        """Redraw the winnability field (after the difficulty changed, say)."""
        self._update_field()

    def _update_field(self) -> None:
        """Show what is known about the position on the table, and check it in the
        background if nothing is known yet."""
        self._refit()
        self._refresh_toolbar()
        if not self._field_wanted:
            return
        session = self.app.session
        assert session is not None
        state = session.state
        key = self._key(state)
        if session.is_won:
            self.field.configure(text=pgettext("the game", "Won"), style="Good.Status.TLabel")
            return
        if key in self._known:
            # With hidden cards the verdict is thoughtful (it knows them): said so.
            seen = bool(state.rules.hidden_cards)
            if self._known[key] is None:
                if session.cheat:
                    text = (
                        _("Cannot be won without Cheat (knowing the hidden cards)")
                        if seen
                        else _("Cannot be won without Cheat")
                    )
                else:
                    text = (
                        _("Cannot be won (knowing the hidden cards)")
                        if seen
                        else _("Cannot be won")
                    )
                self.field.configure(text=text, style="Bad.Status.TLabel")
            else:
                text = _("Winnable (knowing the hidden cards)") if seen else _("Winnable")
                self.field.configure(text=text, style="Good.Status.TLabel")
                self._schedule_lookahead()
            return
        if self._unknown.get(key, 0) >= int(self.check_budget["max_states"]):
            self.field.configure(text=_("Unknown"), style="Dim.Status.TLabel")
            return
        self.field.configure(text=_("Checking…"), style="Dim.Status.TLabel")
        if self._check_job is not None:
            self.root.after_cancel(self._check_job)
        self._check_job = self.root.after(_CHECK_DELAY_MS, self._start_check)

    def _start_check(self) -> None:
        self._check_job = None
        session = self.app.session
        if not self._field_wanted or session is None or session.is_won:
            return
        state = session.state
        key = self._key(state)
        if key in self._known or self._unknown.get(key, 0) >= int(self.check_budget["max_states"]):
            self._update_field()
            return
        running = self._search
        if running is not None and (running.kind != "check" or running.key == key):
            return  # a hint, demo or deal search goes first; its end refreshes the field
        self._start("check", state, self.check_budget)

    def _schedule_lookahead(self) -> None:
        if self._check_job is not None:
            self.root.after_cancel(self._check_job)
        self._check_job = self.root.after(_CHECK_DELAY_MS, self._lookahead)

    def _lookahead(self) -> None:
        """While the position on the table is winnable, check the positions its legal
        moves lead to, one at a time, so the field turns red the moment a move loses
        the game (the verdict is known before the move is made)."""
        self._check_job = None
        session = self.app.session
        if not self._field_wanted or session is None or session.is_won or self._search:
            return
        state = session.state
        if self._known.get(self._key(state)) is None:  # unknown, or lost already
            return
        limit = int(self.lookahead_budget["max_states"])
        for move in legal_moves(state):
            child = Session(state.rules, 1, state=state, autoplay=session.autoplay_policy)
            try:
                child.play(move)
            except IllegalMoveError:  # cannot happen: legal_moves lists legal moves
                continue
            key = self._key(child.state)
            if key in self._known or self._unknown.get(key, 0) >= limit:
                continue
            self._start("check", child.state, self.lookahead_budget)
            return

    # ------------------------------------------------------------------ winnable deals

    def find_winnable_deal(
        self,
        rules: Rules,
        on_found: Callable[[int], object],
        *,
        draw: Callable[[], int],
        tries: int = DEAL_TRIES,
    ) -> None:
        """Draw deal numbers and solve them in the background until one is proved
        winnable, then call ``on_found(number)`` (on the Tk thread). Undecided deals are
        skipped like unwinnable ones. Shows "Finding a winnable deal…" with Cancel (in
        the launcher when it is shown, else in the status bar).

        :param rules: the variant with its options.
        :param draw: returns a random deal number.
        :param tries: give up (with a message) after this many deals.
        """
        self.stop_demo("")
        self._cancel_search()
        self._deals = _DealSearch(rules, on_found, draw, tries)
        self._next_deal()

    def _next_deal(self) -> None:
        deals = self._deals
        if deals is None:
            return
        if len(deals.tried) >= deals.tries:
            self._deals = None
            self._hide_busy()
            self._update_stop()
            self.app.warn(
                _("No winnable deal found"),
                ngettext(
                    "The solver proved none of {count} random deal of {variant} winnable "
                    'within its budget. Turn off "Winnable deals only" or choose a deal '
                    "number.",
                    "The solver proved none of {count} random deals of {variant} winnable "
                    'within its budget. Turn off "Winnable deals only" or choose a deal '
                    "number.",
                    deals.tries,
                ).format(count=deals.tries, variant=deals.rules.name),
            )
            return
        number = deals.draw()
        for _retry in range(20):
            if number not in deals.tried:
                break
            number = deals.draw()
        deals.tried.append(number)
        state = Session(deals.rules, number).state
        self._start("deal", state, self.deal_budget, deal=number)
        count = len(deals.tried)
        if count > 1:
            busy = _("Finding a winnable deal… (deal {number}, try {count})")
        else:
            busy = _("Finding a winnable deal…")
        self._show_busy(busy.format(number=number, count=count))

    def _deal_result(self, search: _Search, result: SolveResult) -> None:
        deals = self._deals
        if deals is None:
            return
        if result.verdict is not Verdict.WINNABLE:
            self._next_deal()
            return
        self._deals = None
        self._hide_busy()
        self._update_stop()
        assert search.deal is not None
        seconds = time.monotonic() - deals.started
        tries = len(deals.tried)
        deals.on_found(search.deal)
        self.app.set_message(
            ngettext(
                "Deal {number} is winnable: the solver proved it ({count} deal tried, "
                "{seconds} s).",
                "Deal {number} is winnable: the solver proved it ({count} deals tried, "
                "{seconds} s).",
                tries,
            ).format(number=search.deal, count=tries, seconds=_number(seconds, 1))
        )
