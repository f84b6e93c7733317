"""Legality: which moves a position allows, and what each does.

One legality path: :func:`legal_moves` generates, :func:`is_legal` and :func:`explain`
agree with it (the conformance kit checks this on random play), and :func:`apply` checks
the move and returns a new state, never changing its input.

Rule sources: the tableau, cell and foundation rules come from the variant file
(docs/variant-format.md); the move limits implement the formulas in shared/rules/README.md
("free cells + 1" from the Seahaven program help and Aisleriot; "(free cells + 1) x
2^(empty columns)" for any-card empty columns, one column fewer when the target is empty).
Cheat mode is the program help's "Cheat" difficulty: runs of any length move.
"""

from __future__ import annotations

import itertools
import weakref
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import attrs

from .cards import ACE, KING, RANK_NAMES, Card, Suit, card_code
from .errors import IllegalMoveError
from .i18n import N_, ngettext
from .i18n import gettext as _
from .moves import ROW_DEAL_TARGET, Move, PileKind, PileRef, reserve, stock, waste
from .state import GameState
from .variant import FoundationPile, Rules

UNLIMITED = 10**9
_T = [PileRef(PileKind.TABLEAU, i) for i in range(32)]
_C = [PileRef(PileKind.CELL, i) for i in range(32)]
_F = [PileRef(PileKind.FOUNDATION, i) for i in range(32)]


def run_length(rules: Rules, column: tuple[Card, ...], face_up: int | None = None) -> int:
    """How many cards at the top of ``column`` form a run: the cards that move together
    as one unit, each lying on the one below by the variant's run rule (``tableau.run``;
    the build rule unless the file names another, as Simple Simon does); 0 for an empty
    column.

    :param face_up: how many cards at the top of the column lie face up
        (:meth:`GameState.face_up`; ``None``: all of them). A face-down card is never
        part of a run; with ``tableau.run = "face-up"`` (Yukon) every face-up card is.
    """
    n = len(column) if face_up is None else min(face_up, len(column))
    if n == 0:
        return 0
    if rules.face_up_runs:
        return n
    build = rules.run
    k = 1
    top = len(column)
    while k < n and build(column[top - k], column[top - k - 1]):
        k += 1
    return k


def column_run(state: GameState, index: int) -> int:
    """:func:`run_length` of column ``index`` (0-based) of ``state``, face-down cards
    left out."""
    col = state.columns[index]
    return run_length(state.rules, col, state.face_up(index) if state.hidden else None)


def max_run_move(state: GameState, to_empty_column: bool, *, cheat: bool = False) -> int:
    """The most cards one tableau-to-tableau move may carry in ``state``.

    :param to_empty_column: whether the target column is empty (the supermove formula then
        counts one empty column fewer).
    :param cheat: the program help's Cheat difficulty: no limit.
    :return: a card count >= 1 (``UNLIMITED`` when there is no limit; with
        ``"one-or-all"`` the count must also be 1 or the whole column, which
        :func:`legal_moves` and :func:`explain` check apart).
    """
    limit = state.rules.move_limit
    if cheat or limit in ("unlimited", "one-or-all"):
        return UNLIMITED
    if limit == "one":
        return 1
    free = state.free_cells
    if limit == "free-cells-plus-one":
        return free + 1
    empties = state.empty_columns - (1 if to_empty_column else 0)
    return (free + 1) << max(empties, 0)


def foundation_accepts(foundation: tuple[Card, ...], card: Card) -> bool:
    """Whether ``card`` may go on a *classic* foundation: an Ace on an empty one, else the
    next rank of the same suit (up in suit from the Ace, every rules text of the first
    variants). For the variant's own piles use :func:`pile_accepts`."""
    if not foundation:
        return card.rank == ACE
    top = foundation[-1]
    return top.suit is card.suit and top.rank + 1 == card.rank


# What the reasons say, in English, marked for translation (solitaire_core/i18n.py) and
# translated when a reason is built: a rank as one card of it (what a pile or an empty
# column takes), and the rule a foundation starts by, one sentence per base rank (the
# article and case of the rank differ from one language to the next).
_RANK_WORDS = (
    N_("an Ace"), N_("a Two"), N_("a Three"), N_("a Four"), N_("a Five"), N_("a Six"),
    N_("a Seven"), N_("an Eight"), N_("a Nine"), N_("a Ten"), N_("a Jack"), N_("a Queen"),
    N_("a King"),
)  # fmt: skip

_BASE_RULES = (
    N_("a foundation starts with an Ace"), N_("a foundation starts with a Two"),
    N_("a foundation starts with a Three"), N_("a foundation starts with a Four"),
    N_("a foundation starts with a Five"), N_("a foundation starts with a Six"),
    N_("a foundation starts with a Seven"), N_("a foundation starts with an Eight"),
    N_("a foundation starts with a Nine"), N_("a foundation starts with a Ten"),
    N_("a foundation starts with a Jack"), N_("a foundation starts with a Queen"),
    N_("a foundation starts with a King"),
)  # fmt: skip

_FOUNDATION_TEXT = {
    "up-in-suit": N_("up in suit"),
    "up-alternate-colors": N_("up in alternate colours"),
    "up-any-suit": N_("up regardless of suit"),
    "down-in-suit": N_("down in suit"),
    "up-or-down-any-suit": N_("up or down regardless of suit"),
    "outranked-in-suit": N_(
        "with a card discarded while a higher card of its suit (Aces high) tops another column"
    ),
    "pairs": "with pairs of free cards",  # said whole: foundation_description
}

# The built-in tableau rules' descriptions (solitaire_core/predicates.py: how the tableau
# builds and runs, what an empty column takes), which the reasons quote: marked here so
# that :func:`rule_text` finds them translated; a plugin's own description stays as its
# plugin wrote it. The rules window (solitaire_tk.dialogs.rules) quotes them through it too.
_RULE_TEXTS = (
    N_("down in suit"), N_("down in alternate colours"), N_("down regardless of suit"),
    N_("down in the same colour"), N_("down in any suit but its own"), N_("up in suit"),
    N_("up in alternate colours"), N_("up or down in suit"),
    N_("up or down regardless of suit"), N_("up or down in alternate colours"),
    N_("a King or a run led by a King"), N_("any card or run"),
    N_("nothing: empty columns stay empty"), N_("no building on the tableau"),
)  # fmt: skip

_NO_BUILDING = "no building on the tableau"
"""The description of ``tableau.build = "none"``: the reasons that would quote it are
said whole instead (it reads as no fragment of a sentence)."""

_WRAPPING = ", wrapping from King to Ace"
_BELOW_BASE = "the rank one below the foundations' base rank"


def rule_text(text: str) -> str:
    """A rule's description from the variant (``Rules.build_description``,
    ``run_description``, ``empty_description``) in the language spoken: a built-in rule's
    words translated (:data:`_RULE_TEXTS`), its ``", wrapping from King to Ace"`` and its
    ``"the rank one below the foundations' base rank (Jack)"`` (the words
    solitaire_core/variant.py adds) translated apart; a plugin's own words as it gives
    them (a string without a translation is shown as it is).

    :param text: the description, in English; ``""`` gives ``""``.
    """
    if not text:
        return text  # gettext("") would give the catalog's header
    if text.endswith(_WRAPPING):
        how = rule_text(text[: -len(_WRAPPING)])
        return _("{how}, wrapping from King to Ace").format(how=how)
    if text.startswith(_BELOW_BASE + " (") and text.endswith(")"):
        rank = text[len(_BELOW_BASE) + 2 : -1]
        if rank in RANK_NAMES:
            rank = _(rank)
        return _("the rank one below the foundations' base rank ({rank})").format(rank=rank)
    return _(text)


def foundation_description(spec: FoundationPile) -> str:
    """How a pile builds, for the player, in the language spoken: ``"up in suit"``,
    ``"down in suit, wrapping from Ace to King"``..."""
    if spec.pairs:
        return _("with pairs of free cards whose ranks add up to {total}").format(
            total=spec.pair_total
        )
    text = _(_FOUNDATION_TEXT[spec.build])
    if spec.wrap and spec.both_ways:
        text = _("{how}, King and Ace next to each other").format(how=text)
    elif spec.wrap and spec.up:
        text = _("{how}, wrapping from King to Ace").format(how=text)
    elif spec.wrap:
        text = _("{how}, wrapping from Ace to King").format(how=text)
    if spec.nothing_on_king:
        text = _("{how}, nothing on a King").format(how=text)
    return text


def _next_fits(spec: FoundationPile, top: Card, card: Card) -> bool:
    """Whether ``card`` continues a pile built as ``spec`` whose top card is ``top``.

    A pile built up or down takes either neighbour of the top's rank, any suit, the King
    and the Ace neighbours when it wraps (PySolFC's ``Golf_Waste.acceptsCards`` and
    ``BlackHole_Foundation.acceptsCards``, pysollib/games/golf.py); with
    ``nothing_on_king`` a King on top takes nothing (Dead King Golf, game 259)."""
    if spec.nothing_on_king and top.rank == 13:
        return False
    if spec.both_ways:
        gap = abs(card.rank - top.rank)
        return gap == 1 or (spec.wrap and gap == 12)
    if spec.up:
        rank = top.rank + 1 if top.rank < 13 else (1 if spec.wrap else 0)
    else:
        rank = top.rank - 1 if top.rank > 1 else (13 if spec.wrap else 0)
    if card.rank != rank:
        return False
    if spec.suits == "suit":
        return card.suit is top.suit
    if spec.suits == "color":
        return card.suit.color is not top.suit.color
    return True


def _suit_taken(state: GameState, index: int, card: Card) -> bool:
    """Whether ``card``'s suit already has as many piles like ``index`` (same way of
    building) as it can fill: then it may not start another one. With in-suit piles each
    pile holds one suit, so a suit must never take a pile another suit needs (Double
    FreeCell: four piles of 26 for two decks, one per suit, as PySolFC gives each its
    suit). A suit holds 13 cards per deck, or more where ``rules.suits`` plays several of
    a deck's suits as it (Spider (2 Suits): 26 clubs per deck)."""
    rules = state.rules
    spec = rules.foundation_piles[index]
    started = sum(
        1
        for j, pile in enumerate(state.foundations)
        if pile and rules.foundation_piles[j] == spec and pile[0].suit is card.suit
    )
    return started * spec.capacity >= 13 * rules.decks * rules.suits.count(card.suit)


_REFUSED = "refused"
"""What :func:`_pile_reason` and :func:`_outranked_reason` return for a refusal when
asked ``quiet``: a reason not written out (legality alone, on the solver's path)."""


def _outranked_reason(
    state: GameState, card: Card, source: PileRef | None, quiet: bool = False
) -> str | None:
    """Why ``card`` may not be discarded onto a discard pile (``"outranked-in-suit"``), or
    ``None`` when it may: some column other than ``source`` must show on top a card of
    its suit that outranks it, Aces high, and an Ace is never discarded (PySolFC's
    ``AcesUp_Foundation.acceptsCards``, pysollib/games/acesup.py, Aces Up, game 903).

    :param quiet: return :data:`_REFUSED` rather than the reason (no text built).
    """
    if card.rank == ACE:
        if quiet:
            return _REFUSED
        return _("{card} is never discarded: Aces rank high, and no card outranks an Ace").format(
            card=card.label
        )
    own = source.index if source is not None and source.kind is PileKind.TABLEAU else None
    for i, col in enumerate(state.columns):
        if i == own or not col:
            continue
        top = col[-1]
        if top.suit is card.suit and (top.rank > card.rank or top.rank == ACE):
            return None
    if quiet:
        return _REFUSED
    return _("{card} cannot be discarded: no higher {suit} (Aces high) tops another column").format(
        card=card.label, suit=card.suit.symbol
    )


def _full_reason(name: PileRef, capacity: int) -> str:
    """Why a foundation that holds its most cards takes no more."""
    return ngettext(
        "{pile} is full: it holds {count} card", "{pile} is full: it holds {count} cards", capacity
    ).format(pile=name, count=capacity)


def _pile_reason(
    state: GameState, index: int, card: Card, source: PileRef | None = None, quiet: bool = False
) -> str | None:
    """Why ``card`` may not go on foundation ``index`` now (a sentence in the language
    spoken), or ``None`` when it may.

    :param source: where the card comes from; a discard pile (``"outranked-in-suit"``)
        compares the card with the top cards of the other columns.
    :param quiet: return :data:`_REFUSED` rather than the reason: legality alone, as
        :func:`legal_moves` and autoplay ask it, with no sentence built or translated.
    """
    rules = state.rules
    spec = rules.foundation_piles[index]
    pile = state.foundations[index]
    if spec.discards:
        if len(pile) >= spec.capacity:
            return _REFUSED if quiet else _full_reason(_F[index], spec.capacity)
        return _outranked_reason(state, card, source, quiet)
    if spec.pairs:
        if len(pile) >= spec.capacity:
            return _REFUSED if quiet else _full_reason(_F[index], spec.capacity)
        if card.rank != spec.pair_total:
            if quiet:
                return _REFUSED
            return _(
                "{card} goes to {pile} only with a card it pairs with (ranks adding up to "
                "{total}): play it onto that card"
            ).format(card=card.label, pile=_F[index], total=spec.pair_total)
        return None
    if not pile:
        base = state.base_rank(index)
        if base is not None and card.rank != base:
            if quiet:
                return _REFUSED
            rule = _(_BASE_RULES[base - 1])
            if rules.base_first_played:
                return _(
                    "{card} cannot start {pile}: {rule} (the first card played to a "
                    "foundation set the base rank)"
                ).format(card=card.label, pile=_F[index], rule=rule)
            return _("{card} cannot start {pile}: {rule}").format(
                card=card.label, pile=_F[index], rule=rule
            )
        if spec.suits == "suit" and _suit_taken(state, index, card):
            if quiet:
                return _REFUSED
            return _("{card} cannot start {pile}: {suit} already has its foundation").format(
                card=card.label, pile=_F[index], suit=card.suit.symbol
            )
        return None
    if len(pile) >= spec.capacity:
        return _REFUSED if quiet else _full_reason(_F[index], spec.capacity)
    if not _next_fits(spec, pile[-1], card):
        if quiet:
            return _REFUSED
        if spec.nothing_on_king and pile[-1].rank == 13:
            return _("nothing goes on {card}: a King ends the foundation's run").format(
                card=pile[-1].label
            )
        return _("{card} cannot go on {top}: foundations build {how}").format(
            card=card.label, top=pile[-1].label, how=foundation_description(spec)
        )
    return None


def pile_accepts(state: GameState, index: int, card: Card, source: PileRef | None = None) -> bool:
    """Whether ``card`` may go on foundation ``index`` (0-based) of ``state`` by the
    variant's foundation rules: an empty pile takes its base rank (fixed, from the deal,
    or set by the first card played, any rank until then: :meth:`GameState.base_rank`),
    a pile then takes the next rank up or down, in
    suit / in alternate colours / in any suit, wrapping if the pile wraps, up to its most
    cards (``foundations.*``, docs/variant-format.md). A discard pile (``"outranked-in-suit"``,
    Aces Up) takes a card while a higher card of its suit tops a column other than
    ``source`` (the card's pile, when it is a column)."""
    if state.rules.standard_foundations:
        return foundation_accepts(state.foundations[index], card)
    return _pile_reason(state, index, card, source, True) is None


def complete_suit(column: tuple[Card, ...]) -> bool:
    """Whether the top 13 cards of ``column`` are a complete suit, King (lowest in the
    column) down in suit to the Ace on top: what ``foundations.only_complete_suits`` sends
    up (Simple Simon, PySolFC game 50)."""
    if len(column) < 13:
        return False
    run = column[-13:]
    return all(c.suit is run[0].suit and c.rank == 13 - i for i, c in enumerate(run))


def _limit_reason(state: GameState, allowed: int) -> str:
    """Why a run of more than ``allowed`` cards may not move (the variant's move limit)."""
    rules = state.rules
    if rules.move_limit == "one":
        return _("only one card moves at a time in {game}").format(game=rules.name)
    free = state.free_cells
    cells = ngettext("{count} free cell", "{count} free cells", free).format(count=free)
    if rules.move_limit == "free-cells-plus-one":
        return ngettext(
            "with {cells} you can move at most {count} card",
            "with {cells} you can move at most {count} cards",
            allowed,
        ).format(cells=cells, count=allowed)
    return ngettext(
        "with {cells} and the empty columns you can move at most {count} card",
        "with {cells} and the empty columns you can move at most {count} cards",
        allowed,
    ).format(cells=cells, count=allowed)


PileNamer = Callable[[PileRef], str]
"""Names a pile in a sentence for the player: ``str`` gives the move notation's ``t1``,
``c2``, ``f3``; a table passes the names it shows (``"column A"``, ``"cell 2"``)."""


def _no_such_pile(pile: str, kind: PileKind, size: int) -> str:
    """Why pile ``pile`` (its name for the player) does not exist: the game has ``size``
    piles of its ``kind``."""
    if kind is PileKind.TABLEAU:
        text = ngettext(
            "{pile} does not exist: this game has {count} column",
            "{pile} does not exist: this game has {count} columns",
            size,
        )
    elif kind is PileKind.CELL:
        text = ngettext(
            "{pile} does not exist: this game has {count} cell",
            "{pile} does not exist: this game has {count} cells",
            size,
        )
    else:
        text = ngettext(
            "{pile} does not exist: this game has {count} foundation",
            "{pile} does not exist: this game has {count} foundations",
            size,
        )
    return text.format(pile=pile, count=size)


def _check(
    state: GameState, move: Move, cheat: bool, name: PileNamer = str
) -> tuple[Move | None, str | None]:
    """Resolve an unnumbered target and check the move: (concrete move, None) or
    (None, reason), the reason naming piles with ``name``."""
    rules = state.rules
    src, dst, count = move.source, move.target, move.count
    if rules.pair_total and (
        _is_pair(state, move) or (src == STOCK and dst.kind is PileKind.FOUNDATION)
    ):
        return _check_pair(state, move, name)
    if PileKind.STOCK in (src.kind, dst.kind) or PileKind.WASTE in (src.kind, dst.kind):
        if not rules.has_stock:
            return None, _("{game} has no stock and no waste").format(game=rules.name)
        if src.kind is PileKind.STOCK or dst.kind in (PileKind.STOCK, PileKind.WASTE):
            return _check_stock(state, move, name)
    if PileKind.RESERVE in (src.kind, dst.kind):
        if not rules.has_reserve:
            return None, _("{game} has no reserve").format(game=rules.name)
        if dst.kind is PileKind.RESERVE:
            why = _reserve_refuses(state, move)
            if why is not None:
                return None, why
    for ref in (src, dst):
        if ref.index is None or ref.kind in _SINGLE_KINDS:
            continue
        kind = ref.kind
        size = (
            rules.columns
            if kind is PileKind.TABLEAU
            else rules.cells
            if kind is PileKind.CELL
            else rules.foundations
        )
        if not 0 <= ref.index < size:
            return None, _no_such_pile(name(ref), kind, size)
    if src.index is None:
        return None, _("the source pile needs its number")
    if dst.kind is PileKind.TABLEAU and dst.index is None:
        return None, _("the target column needs its number, e.g. t3")
    if rules.covered_by:
        for ref in (src, dst):
            if ref.kind is PileKind.TABLEAU and ref.index is not None:
                over = covered(state, ref.index)
                if over:
                    return None, _covered_reason(ref, over, name)
    if src == dst:
        return None, _("the source and target are the same pile")
    cards = state.pile(src)
    if not cards:
        return None, _("{pile} is empty").format(pile=name(src))
    if count < 1:
        return None, _("a move carries at least one card")
    if src.kind is PileKind.FOUNDATION:
        if not rules.foundation_return:
            return None, _("cards on the foundations are out of play in this game")
        if state.is_won:
            return None, _("the game is won: every card stays on the foundations")
        if count != 1:
            return None, _("cards leave a foundation one at a time")
        if dst.kind is PileKind.FOUNDATION:
            return None, _("a card on a foundation can only go back to the tableau or a cell")
    if src.kind is PileKind.CELL and count != 1:
        return None, _("a cell holds a single card")
    if src.kind is PileKind.WASTE and count != 1:
        return None, _("only the waste's top card plays")
    if src.kind is PileKind.RESERVE and count != 1:
        if not rules.reserve_takes_runs:
            return None, _("only the reserve's top card plays")
        if count > run_length(rules, cards):
            return None, _("the top {count} cards of the reserve are not a run").format(count=count)
    if rules.complete_suits and dst.kind is PileKind.FOUNDATION and count != 13:
        return None, _("only a complete suit, King to Ace, goes to a foundation in this game")
    if src.kind is PileKind.TABLEAU and count > 1:
        if count > len(cards):
            return None, ngettext(
                "{pile} holds only {count} card", "{pile} holds only {count} cards", len(cards)
            ).format(pile=name(src), count=len(cards))
        if state.hidden and count > state.face_up(src.index):
            return None, _("face-down cards never move: turn them up by moving the cards on them")
        # A run to a foundation is checked below (in suit, upward), not by the build rule.
        if dst.kind is not PileKind.FOUNDATION and count > column_run(state, src.index):
            if rules.run_description == _NO_BUILDING:
                return None, _(
                    "the top {count} cards of {pile} are not a run (runs are built no "
                    "building on the tableau)"
                ).format(count=count, pile=name(src))
            return None, _(
                "the top {count} cards of {pile} are not a run (runs are built {how})"
            ).format(count=count, pile=name(src), how=rule_text(rules.run_description))
        if (
            rules.move_limit == "one-or-all"
            and dst.kind is PileKind.TABLEAU
            and count != len(cards)
            and not cheat
        ):
            return None, _(
                "a column gives one card or all of its cards in {game}: {pile} holds {count}"
            ).format(game=rules.name, pile=name(src), count=len(cards))
    moving = cards[-count:]
    bottom, top = moving[0], moving[-1]

    if dst.kind is PileKind.RESERVE:
        return move, None  # _reserve_refuses has checked it

    if dst.kind is PileKind.CELL:
        if not rules.cells_receive:
            if dst.index is None:
                return None, _("there is no free cell: the reserve never takes a card")
            return None, _(
                "{pile} is a reserve slot: cards are played from it, never put on it"
            ).format(pile=name(dst))
        if count != 1:
            return None, _("only one card at a time goes to a cell")
        if dst.index is None:
            free = [i for i, c in enumerate(state.cells) if c is None]
            if not free:
                return None, _("there is no free cell")
            dst = _C[free[0]]
        elif state.cells[dst.index] is not None:
            return None, _("{pile} is occupied: a cell holds one card").format(pile=name(dst))
        return _same(move, dst), None

    if dst.kind is PileKind.FOUNDATION and not rules.standard_foundations:
        return _check_pile(state, src, dst, moving)

    if dst.kind is PileKind.FOUNDATION:
        if count > 1:
            if not rules.foundation_runs:
                return None, _("cards go to a foundation one at a time in this game")
            for lower, upper in zip(moving[1:], moving[:-1]):
                if upper.suit is not lower.suit or upper.rank != lower.rank + 1:
                    return None, _("only a run in suit can go to a foundation in one move")
        if dst.index is None:
            fitting = [i for i, f in enumerate(state.foundations) if foundation_accepts(f, top)]
            if not fitting:
                return None, _("{card} cannot go to a foundation yet: {why}").format(
                    card=top.label, why=_needs(top)
                )
            dst = _F[fitting[0]]
        else:
            found = state.foundations[dst.index]
            if not foundation_accepts(found, top):
                if not found:
                    return None, _("{card} cannot start {pile}: {rule}").format(
                        card=top.label, pile=name(dst), rule=_(_BASE_RULES[0])
                    )
                return None, _("{card} cannot go on {top}: foundations build {how}").format(
                    card=top.label, top=found[-1].label, how=_(_FOUNDATION_TEXT["up-in-suit"])
                )
        return _same(move, dst), None

    dest = state.columns[dst.index]  # type: ignore[index]
    if dest:
        if not rules.build(bottom, dest[-1]):
            if rules.build_description == _NO_BUILDING:
                return None, _(
                    "{card} cannot go on {top}: the tableau builds no building on the tableau"
                ).format(card=bottom.label, top=dest[-1].label)
            return None, _("{card} cannot go on {top}: the tableau builds {how}").format(
                card=bottom.label, top=dest[-1].label, how=rule_text(rules.build_description)
            )
    elif not rules.empty_accepts_for(state.bases)(bottom):
        return None, _("an empty column takes {what}").format(what=_empty_text(state))
    if count > 1 and src.kind is not PileKind.CELL and not rules.face_up_runs:
        allowed = max_run_move(state, not dest, cheat=cheat)
        if count > allowed:
            return None, _limit_reason(state, allowed)
    return _same(move, dst), None


def _reserve_refuses(state: GameState, move: Move) -> str | None:
    """Why the reserve does not take ``move``'s cards, or ``None`` when it does: a
    reserve with ``receive = "when-stock-empty"`` takes one card or run from a column or
    the waste once the stock is empty, while it is empty itself (PySolFC's
    ``MissMilligan_ReserveStack.acceptsCards``, pysollib/games/gypsy.py, game 62). The
    run itself is checked as any run leaving its pile."""
    if not state.rules.reserve_takes_runs:
        return _("the reserve never takes a card: its cards are played from it")
    if move.source.kind not in (PileKind.TABLEAU, PileKind.WASTE, PileKind.CELL):
        return _("the reserve takes cards only from the columns")
    if state.stock:
        return _("the reserve takes a card or a run only once the stock is empty")
    if state.reserve:
        return _("the reserve holds one card or run at a time: play it out first")
    return None


def covered(state: GameState, column: int) -> tuple[int, ...]:
    """The columns (0-based, ascending) whose cards still cover column ``column`` in a
    game with a ``tableau.layout`` (``Rules.covered_by``, the non-empty ones); ``()``
    when it is free, and always without a layout. A covered column's cards do not play
    (PySolFC's ``basicIsBlocked`` in Pyramid and Three Peaks)."""
    over = state.rules.covered_by
    if not over:
        return ()
    columns = state.columns
    return tuple(j for j in over[column] if columns[j])


def _covered_reason(ref: PileRef, over: tuple[int, ...], name: PileNamer) -> str:
    """Why column ``ref`` of a layout does not play: the columns ``over`` cover it."""
    names = name(_T[over[0]])
    for j in over[1:]:
        names = _("{piles} and {pile}").format(piles=names, pile=name(_T[j]))
    return _("{pile} is covered by {piles}: its card plays once they have left").format(
        pile=name(ref), piles=names
    )


def turn_up_uncovered(
    rules: Rules, columns: tuple[tuple[Card, ...], ...], hidden: tuple[int, ...]
) -> tuple[int, ...]:
    """``hidden`` (face-down counts per column, ``()`` for none) after turning face up
    the face-down top card of every column of a layout that nothing covers any more
    (PySolFC's ``ThreePeaksExposeFlip.fillStack``: TriPeaks, game 22231)."""
    if not hidden or not rules.covered_by:
        return hidden
    out = list(hidden)
    for i, col in enumerate(columns):
        if out[i] and out[i] >= len(col) and not any(columns[j] for j in rules.covered_by[i]):
            out[i] = max(len(col) - 1, 0)
    return tuple(out) if any(out) else ()


_PAIR_KINDS = (PileKind.TABLEAU, PileKind.WASTE, PileKind.STOCK)


def _is_pair(state: GameState, move: Move) -> bool:
    """Whether ``move`` pairs two cards (``foundations.build = "pairs"``): a free card
    played onto another free card, both then going to the discard pile. ``s>w`` stays
    the deal, ``w>s`` the redeal once the stock is empty and ``s>t`` a row deal; with
    cards in the stock, ``w>s`` pairs the waste's top card with the stock's."""
    src, dst = move.source, move.target
    if src.kind not in _PAIR_KINDS or dst.kind not in _PAIR_KINDS:
        return False
    if src.kind is PileKind.STOCK and dst.kind is PileKind.WASTE:
        return False
    if src.kind is PileKind.WASTE and dst.kind is PileKind.STOCK and not state.stock:
        return False
    return not (dst.kind is PileKind.TABLEAU and dst.index is None)


def _free_card(state: GameState, ref: PileRef, name: PileNamer) -> tuple[Card | None, str]:
    """The card ``ref`` offers for a pair, or ``(None, reason)`` when it offers none."""
    rules = state.rules
    if ref.kind is PileKind.STOCK:
        if not rules.stock_top_plays:
            return None, _("the stock's cards are dealt, never paired: s>w turns the next one")
        return (state.stock[-1], "") if state.stock else (None, _("the stock is empty"))
    if ref.kind is PileKind.WASTE:
        return (state.waste[-1], "") if state.waste else (None, _("the waste is empty"))
    i = ref.index
    if i is None:
        return None, _("the column needs its number, e.g. t3")
    if not 0 <= i < rules.columns:
        return None, _no_such_pile(name(ref), PileKind.TABLEAU, rules.columns)
    col = state.columns[i]
    if not col:
        return None, _("{pile} is empty").format(pile=name(ref))
    over = covered(state, i)
    if over:
        return None, _covered_reason(ref, over, name)
    if state.hidden and state.hidden[i] >= len(col):
        return None, _("{pile}'s card lies face down").format(pile=name(ref))
    return col[-1], ""


def _check_pair(state: GameState, move: Move, name: PileNamer) -> tuple[Move | None, str | None]:
    """:func:`_check` for the games whose foundation takes pairs: a free card onto a free
    card whose rank adds up with its to the pair total (PySolFC's
    ``Pyramid_StackMethods.acceptsCards``, pysollib/games/pyramid.py, game 38), or the
    stock's top card alone to the foundation when its rank is the total (a King:
    ``Pyramid_StackMethods._dropKingClickHandler``)."""
    rules = state.rules
    total = rules.pair_total
    if move.count != 1:
        return None, _("a pair is two single cards: write the move without a count")
    card, why = _free_card(state, move.source, name)
    if card is None:
        return None, why
    if state.is_won:
        return None, _("the game is won")
    if move.target.kind is PileKind.FOUNDATION:
        if move.target.index not in (None, 0):
            return None, _no_such_pile(name(move.target), PileKind.FOUNDATION, 1)
        why2 = _pile_reason(state, 0, card, move.source)
        return (None, why2) if why2 is not None else (_same(move, _F[0]), None)
    if move.source == move.target:
        return None, _("a card cannot pair with itself")
    other, why = _free_card(state, move.target, name)
    if other is None:
        return None, why
    if card.rank + other.rank != total:
        return None, _(
            "{card} and {other} do not pair: their ranks add up to {sum}, not {total}"
        ).format(card=card.label, other=other.label, sum=card.rank + other.rank, total=total)
    return move, None


def _pair_moves(state: GameState) -> list[Move]:
    """Every pair of :func:`_check_pair` in ``state``, each both ways (``t1>t2`` and
    ``t2>t1``), and the stock's top card alone to the foundation when it goes."""
    rules = state.rules
    total = rules.pair_total
    free: list[tuple[PileRef, Card]] = []
    hidden = state.hidden
    for i, col in enumerate(state.columns):
        if col and not covered(state, i) and not (hidden and hidden[i] >= len(col)):
            free.append((_T[i], col[-1]))
    if state.waste:
        free.append((WASTE, state.waste[-1]))
    out: list[Move] = []
    if rules.stock_top_plays and state.stock:
        top = state.stock[-1]
        free.append((STOCK, top))
        if _pile_reason(state, 0, top, STOCK, True) is None:
            out.append(Move(STOCK, _F[0]))
    for a, (src, card) in enumerate(free):
        for b, (dst, other) in enumerate(free):
            if a == b or card.rank + other.rank != total:
                continue
            if src.kind is PileKind.STOCK and dst.kind is PileKind.WASTE:
                continue  # s>w deals; w>s pairs these two
            out.append(Move(src, dst))
    return out


def _play_pair(state: GameState, move: Move) -> GameState:
    """Perform a legal pair: the source's card, then the target's, go to the discard pile
    (PySolFC's ``Pyramid_StackMethods._dropPairMove``)."""
    columns, waste, stock = state.columns, state.waste, state.stock
    gone: list[Card] = []
    for ref in (move.source, move.target):
        if ref.kind is PileKind.TABLEAU:
            assert ref.index is not None
            gone.append(columns[ref.index][-1])
            columns = _replace(columns, ref.index, columns[ref.index][:-1])
        elif ref.kind is PileKind.WASTE:
            gone.append(waste[-1])
            waste = waste[:-1]
        else:
            gone.append(stock[-1])
            stock = stock[:-1]
    founds = ((*state.foundations[0], *gone),) + state.foundations[1:]
    return attrs.evolve(
        state,
        columns=columns,
        foundations=founds,
        stock=stock,
        waste=waste,
        hidden=turn_up_uncovered(state.rules, columns, state.hidden),
    )


def _check_stock(state: GameState, move: Move, name: PileNamer) -> tuple[Move | None, str | None]:
    """The stock's own moves (``s>w``, ``w>s``, ``s>t``) for :func:`_check`: (the move,
    None) or (None, reason). Sources: PySolFC's ``WasteTalonStack`` (deal ``draw`` cards
    to the waste; when the stock is empty, turn the waste over while rounds remain) and
    ``DealRowTalonStack`` (one card onto each column; Spider's talon refuses while a
    column is empty), pysollib/stack.py and pysollib/games/spider.py."""
    rules = state.rules
    src, dst = move.source, move.target
    if move.count != 1:
        return None, _("a deal is one move: write s>w, w>s or s>t, without a count")
    if src.kind is PileKind.STOCK and dst.kind is PileKind.FOUNDATION:
        if rules.stock_deal != "foundation":
            return None, _deals_elsewhere(rules)
        if not state.stock:
            return None, _("the stock is empty")
        if state.is_won:
            return None, _("the game is won: the stock is not dealt any more")
        if dst.index not in (None, 0):
            return None, _no_such_pile(name(dst), PileKind.FOUNDATION, 1)
        return _same(move, _F[0]), None
    if src.kind is PileKind.STOCK and dst.kind is PileKind.WASTE:
        if rules.stock_deal != "waste":
            return None, _deals_elsewhere(rules)
        if not state.stock:
            if state.waste and state.redeals_left != 0:
                return None, _("the stock is empty: turn the waste over first (w>s)")
            return None, _("the stock is empty")
        return move, None
    if src.kind is PileKind.WASTE and dst.kind is PileKind.STOCK:
        if rules.stock_deal != "waste":
            return None, _("this game has no waste to turn over")
        if state.stock:
            return None, _("the waste is turned over only once the stock is empty")
        if not state.waste:
            return None, _("the waste is empty: nothing to turn over")
        if state.redeals_left == 0:
            allowed = rules.redeals
            return None, (
                _("no redeal is left")
                if allowed
                else _("the waste is never turned over in {game}: the stock is dealt once").format(
                    game=rules.name
                )
            )
        return move, None
    if src.kind is PileKind.STOCK and dst.kind is PileKind.TABLEAU and dst.index is None:
        if rules.stock_deal != "row":
            return None, _deals_elsewhere(rules)
        if not state.stock:
            return None, _("the stock is empty")
        if not rules.row_onto_empty and any(not state.columns[i] for i in rules.row_columns):
            return None, _("no row is dealt while a column is empty: fill every column first")
        return move, None
    if src.kind is PileKind.STOCK:
        return None, _(
            "cards leave the stock only by a deal: s>w, s>t for a row, s>f onto the foundation"
        )
    return None, _("no card goes onto {pile}: the waste takes cards only from the stock").format(
        pile=name(dst)
    )


_STOCK_TARGET = {
    "waste": N_("the stock deals to the waste in this game: {notation}"),
    "row": N_("the stock deals a row onto the columns in this game: {notation}"),
    "foundation": N_("the stock deals onto the foundation in this game: {notation}"),
}
_STOCK_NOTATION = {"waste": "s>w", "row": "s>t", "foundation": "s>f"}


def _deals_elsewhere(rules: Rules) -> str:
    """Why a deal to another pile is refused: where this game's stock deals."""
    deal = rules.stock_deal
    return _(_STOCK_TARGET[deal]).format(notation=_STOCK_NOTATION[deal])


def _same(move: Move, target: PileRef) -> Move:
    """``move`` with its target numbered as ``target`` (``move`` itself when it was)."""
    return move if target is move.target else Move(move.source, target, move.count)


def _empty_text(state: GameState) -> str:
    """What an empty column takes, in the language spoken (``"any card or run"``)."""
    rules = state.rules
    if rules.empty_rule == "below-base" and state.bases:
        return _("only {rank}, the rank below the foundations' base").format(
            rank=_(_RANK_WORDS[(state.bases[0] - 2) % 13])
        )
    return rule_text(rules.empty_description)


def _check_pile(
    state: GameState, src: PileRef, dst: PileRef, moving: tuple[Card, ...]
) -> tuple[Move | None, str | None]:
    """The foundation part of :func:`_check` for the variant's own piles (not classic)."""
    rules = state.rules
    count = len(moving)
    if rules.complete_suits:
        if not complete_suit(moving):
            return None, _(
                "the top 13 cards of {pile} are not a complete suit from the King down to the Ace"
            ).format(pile=src)
    elif count > 1 and not rules.foundation_runs:
        return None, _("cards go to a foundation one at a time in this game")
    order = tuple(reversed(moving))  # the top card goes up first

    def reason(index: int, quiet: bool = False) -> str | None:
        why = _pile_reason(state, index, order[0], src, quiet)
        if why is not None or count == 1:
            return why
        spec = rules.foundation_piles[index]
        if len(state.foundations[index]) + count > spec.capacity:
            if quiet:
                return _REFUSED
            return ngettext(
                "{pile} holds at most {count} card", "{pile} holds at most {count} cards",
                spec.capacity,
            ).format(pile=_F[index], count=spec.capacity)  # fmt: skip
        for lower, upper in zip(order, order[1:]):
            if not _next_fits(spec, lower, upper):
                if quiet:
                    return _REFUSED
                return _("only a run built {how} can go to {pile} in one move").format(
                    how=foundation_description(spec), pile=_F[index]
                )
        return None

    if dst.index is None:
        for j in range(rules.foundations):
            if reason(j, True) is None:
                return Move(src, _F[j], count), None
        if rules.foundations == 1 and (
            rules.foundation_piles[0].discards or rules.foundation_piles[0].pairs
        ):
            return None, reason(0)
        wanted = _("no foundation is free") if rules.complete_suits else _wanted(state)
        return None, _("{card} cannot go to a foundation now: {why}").format(
            card=order[0].label, why=wanted
        )
    why = reason(dst.index)
    if why is not None:
        return None, why
    return Move(src, dst, count), None


def _wanted(state: GameState) -> str:
    """What the foundations take next, for a player: "the foundations take the card
    after 6♥ (up in suit) or a Two"."""
    wants: list[str] = []
    for j, pile in enumerate(state.foundations):
        spec = state.rules.foundation_piles[j]
        if not pile:
            base = state.base_rank(j)
            text = (
                _(_RANK_WORDS[base - 1])
                if base is not None
                else _("any card (the first one sets every foundation's base rank)")
            )
        elif len(pile) >= spec.capacity:
            continue
        else:
            text = _("the card after {card} ({how})").format(
                card=pile[-1].label, how=foundation_description(spec)
            )
        if text not in wants:
            wants.append(text)
    if not wants:
        return _("the foundations take nothing more")
    cards = wants[0]
    for text in wants[1:]:
        cards = _("{cards} or {card}").format(cards=cards, card=text)
    return _("the foundations take {cards}").format(cards=cards)


def _needs(card: Card) -> str:
    """Why ``card`` finds no classic foundation: the card below it is not up yet."""
    if card.rank == ACE:
        return _("no foundation is free")
    return _("it needs the {card} there first").format(card=Card(card.rank - 1, card.suit).label)


def resolve(state: GameState, move: Move, *, cheat: bool = False, name: PileNamer = str) -> Move:
    """The concrete move ``move`` stands for (an unnumbered ``f``/``c`` target picks the
    first foundation that accepts the card / the first free cell).

    :param name: names piles in the reason (default the move notation, ``t1``).
    :raises IllegalMoveError: with the reason when the move is illegal.
    """
    concrete, reason = _check(state, move, cheat, name)
    if concrete is None:
        raise IllegalMoveError(move, reason or "illegal")
    return concrete


def explain(
    state: GameState, move: Move, *, cheat: bool = False, name: PileNamer = str
) -> str | None:
    """Why ``move`` is illegal in ``state`` (a sentence for the player), or ``None`` when
    it is legal.

    :param name: names piles in the sentence: the default gives the move notation
        (``"t1 is empty"``); a table passes the names it shows (``"column A is empty"``).
    """
    return _check(state, move, cheat, name)[1]


def is_legal(state: GameState, move: Move, *, cheat: bool = False) -> bool:
    """Whether ``move`` is legal in ``state``. For a numbered move this is exactly
    ``move in legal_moves(state, cheat=cheat)``."""
    return _check(state, move, cheat)[0] is not None


_BUILD_TABLES: weakref.WeakKeyDictionary[Rules, dict[Card, tuple[Card, ...]]] = (
    weakref.WeakKeyDictionary()
)


def _build_table(rules: Rules) -> dict[Card, tuple[Card, ...]]:
    """For every card of the rules' decks, the cards it may be built on (computed once per
    :class:`Rules` from its pure build predicate)."""
    table = _BUILD_TABLES.get(rules)
    if table is None:
        deck = rules.cards
        table = {card: tuple(o for o in deck if rules.build(card, o)) for card in deck}
        _BUILD_TABLES[rules] = table
    return table


def legal_moves(state: GameState, *, cheat: bool = False) -> list[Move]:
    """Every legal move in ``state``, each with numbered piles, in a fixed order:
    foundation moves first, then moves onto the tableau, then moves to cells.

    :param cheat: the Cheat difficulty (runs of any length may move).
    """
    rules = state.rules
    if rules.foundation_return and state.is_won:
        return []  # the game is over: a card taken back from a foundation would undo it
    build, empty_ok = rules.build, rules.empty_accepts_for(state.bases)
    columns, cells, founds = state.columns, state.cells, state.foundations
    free_cells = [_C[i] for i, c in enumerate(cells) if c is None] if rules.cells_receive else []
    if rules.face_up_runs:
        limit_full = limit_empty = UNLIMITED
    else:
        limit_full = max_run_move(state, False, cheat=cheat)
        limit_empty = max_run_move(state, True, cheat=cheat)
    to_found: list[Move] = []
    to_tab: list[Move] = []
    to_cell: list[Move] = []
    # Which foundations take which card next: (rank, suit) -> foundation indexes in order;
    # an Ace goes to any empty foundation. One lookup per card instead of a scan.
    wants: dict[tuple[int, Suit], list[int]] = {}
    empty_founds: list[int] = []
    for j, f in enumerate(founds):
        if f:
            wants.setdefault((f[-1].rank + 1, f[-1].suit), []).append(j)
        else:
            empty_founds.append(j)

    standard = rules.standard_foundations

    def foundation_moves(src: PileRef, pile: tuple[Card, ...], run_ok: bool) -> None:
        if not standard:
            _pile_moves(state, src, pile, run_ok, to_found)
            return
        top = pile[-1]
        targets = empty_founds if top.rank == ACE else wants.get((top.rank, top.suit))
        if not targets:
            return
        for j in targets:
            to_found.append(Move(src, _F[j], 1))
            if run_ok:
                k = 1
                while k < len(pile):
                    upper, lower = pile[-k - 1], pile[-k]
                    if upper.suit is not lower.suit or upper.rank != lower.rank + 1:
                        break
                    k += 1
                    to_found.append(Move(src, _F[j], k))

    # Columns by their top card, so each moving card looks up the columns that take it
    # (from the rules' build table) instead of asking the build rule of every column.
    table = _build_table(rules)
    tops: dict[Card, list[int]] = {}
    empty_cols: list[int] = []
    for j, dest in enumerate(columns):
        if dest:
            tops.setdefault(dest[-1], []).append(j)
        else:
            empty_cols.append(j)

    def builds_on(card: Card) -> list[int]:
        """Indexes of the non-empty columns whose top card takes ``card``, ascending."""
        ontos = table.get(card)
        if ontos is None:  # a card outside the rules' decks (hand-made test positions)
            return [j for j, d in enumerate(columns) if d and build(card, d[-1])]
        found = [j for onto in ontos if onto in tops for j in tops[onto]]
        if len(found) > 1:
            found.sort()
        return found

    hidden = state.hidden
    to_reserve = rules.reserve_takes_runs and not state.stock and not state.reserve
    over = rules.covered_by
    for i, col in enumerate(columns):
        if not col or (over and any(columns[j] for j in over[i])):
            continue
        if hidden and hidden[i] >= len(col):
            continue  # a face-down card in a layout waits to be uncovered
        src = _T[i]
        if hidden and hidden[i]:
            foundation_moves(src, col[hidden[i] :], rules.foundation_runs)
            run = run_length(rules, col, len(col) - hidden[i])
        else:
            foundation_moves(src, col, rules.foundation_runs)
            run = run_length(rules, col)
        # The cards that may lead a moving run, top card first (movable[k - 1] = col[-k]).
        movable = col[-1 : -min(run, max(limit_full, limit_empty)) - 1 : -1]
        targets = [
            (j, k)
            for k, card in enumerate(movable[: min(run, limit_full)], 1)
            for j in builds_on(card)
            if j != i
        ]
        if empty_cols:
            to_empty = [
                k for k, card in enumerate(movable[: min(run, limit_empty)], 1) if empty_ok(card)
            ]
            targets += [(j, k) for j in empty_cols if j != i for k in to_empty]
        if rules.move_limit == "one-or-all" and not cheat:
            # One card or the whole column (PySolFC's Canfield_AC_RowStack).
            targets = [(j, k) for j, k in targets if k == 1 or k == len(col)]
        targets.sort()
        for j, k in targets:
            to_tab.append(Move(src, _T[j], k))
        if to_reserve:
            to_cell.extend(Move(src, RESERVE, k) for k in range(1, run + 1))
        for c in free_cells:
            to_cell.append(Move(src, c, 1))

    singles: list[tuple[PileRef, Card]] = [(_C[i], c) for i, c in enumerate(cells) if c is not None]
    if state.waste:
        singles.append((WASTE, state.waste[-1]))
    if state.reserve and rules.reserve_takes_runs:
        _reserve_run_moves(state, limit_full, limit_empty, to_found, to_tab)
    elif state.reserve:
        singles.append((RESERVE, state.reserve[-1]))
    if rules.foundation_return:
        singles += [(_F[i], f[-1]) for i, f in enumerate(founds) if f]
    for src, card in singles:
        if to_reserve and src.kind is not PileKind.FOUNDATION:
            to_cell.append(Move(src, RESERVE, 1))
        if src.kind is not PileKind.FOUNDATION:
            foundation_moves(src, (card,), False)
        dests = builds_on(card)
        if empty_cols and empty_ok(card):
            dests = sorted(dests + empty_cols)
        for j in dests:
            to_tab.append(Move(src, _T[j], 1))
        for c in free_cells:
            if c != src:
                to_cell.append(Move(src, c, 1))
    moves = to_found + to_tab + to_cell
    if rules.pair_total:
        moves[:0] = _pair_moves(state)
    if rules.has_stock:
        moves.extend(stock_moves(state))
    return moves


def _reserve_run_moves(
    state: GameState, limit_full: int, limit_empty: int, to_found: list[Move], to_tab: list[Move]
) -> None:
    """:func:`legal_moves`' moves out of a reserve that holds a run (``reserve.receive =
    "when-stock-empty"``): its top card to a foundation, and its runs to the columns as
    a column's runs go."""
    rules = state.rules
    kept = state.reserve
    top = kept[-1]
    to_found.extend(
        Move(RESERVE, _F[j], 1)
        for j in range(rules.foundations)
        if _pile_reason(state, j, top, RESERVE, True) is None
    )
    empty_ok = rules.empty_accepts_for(state.bases)
    run = run_length(rules, kept)
    for j, dest in enumerate(state.columns):
        for k in range(1, run + 1):
            card = kept[-k]
            if dest and rules.build(card, dest[-1]) and k <= limit_full:
                to_tab.append(Move(RESERVE, _T[j], k))
            elif not dest and empty_ok(card) and k <= limit_empty:
                to_tab.append(Move(RESERVE, _T[j], k))


STOCK = stock()
WASTE = waste()
RESERVE = reserve()
_SINGLE_KINDS = (PileKind.STOCK, PileKind.WASTE, PileKind.RESERVE)
DEAL = Move(STOCK, WASTE)
"""``s>w``: deal from the stock to the waste."""
REDEAL = Move(WASTE, STOCK)
"""``w>s``: turn the waste over into a new stock."""
DEAL_ROW = Move(STOCK, ROW_DEAL_TARGET)
"""``s>t``: deal a row from the stock onto the columns."""
DEAL_UP = Move(STOCK, _F[0])
"""``s>f1``: turn the stock's top card onto the foundation (Golf)."""


def stock_moves(state: GameState) -> list[Move]:
    """The stock's legal moves in ``state`` (at most one: a deal, a redeal or a row)."""
    rules = state.rules
    if rules.stock_deal == "waste":
        if state.stock:
            return [DEAL]
        if state.waste and state.redeals_left != 0:
            return [REDEAL]
        return []
    if rules.stock_deal == "row" and state.stock:
        if rules.row_onto_empty or all(state.columns[i] for i in rules.row_columns):
            return [DEAL_ROW]
    if rules.stock_deal == "foundation" and state.stock and not state.is_won:
        # PySolFC's Golf_Talon.canDealCards: no deal once the game is won.
        return [DEAL_UP]
    return []


def _pile_moves(
    state: GameState, src: PileRef, pile: tuple[Card, ...], run_ok: bool, out: list[Move]
) -> None:
    """Append the moves from ``src`` (whose cards are ``pile``) to the variant's own
    foundation piles (:func:`legal_moves` for foundations that are not classic)."""
    rules = state.rules
    nf = rules.foundations
    if rules.complete_suits:
        if src.kind is PileKind.TABLEAU and complete_suit(pile):
            out.extend(
                Move(src, _F[j], 13)
                for j in range(nf)
                if _pile_reason(state, j, pile[-1], None, True) is None
            )
        return
    top = pile[-1]
    for j in range(nf):
        if _pile_reason(state, j, top, src, True) is not None:
            continue
        out.append(Move(src, _F[j], 1))
        if run_ok:
            spec = rules.foundation_piles[j]
            room = spec.capacity - len(state.foundations[j])
            k = 1
            while k < len(pile) and k < room and _next_fits(spec, pile[-k], pile[-k - 1]):
                k += 1
                out.append(Move(src, _F[j], k))


def apply(state: GameState, move: Move, *, cheat: bool = False) -> GameState:
    """Play ``move`` on ``state`` and return the new state; ``state`` is not changed.

    An unnumbered target (``t3>f``, ``t3>c``) is resolved as :func:`resolve` describes.

    :raises IllegalMoveError: when the move is illegal, with a reason a player can read.
    """
    concrete = resolve(state, move, cheat=cheat)
    return _play(state, concrete)


def _play(state: GameState, move: Move) -> GameState:
    """Perform a move already known to be legal (both piles numbered)."""
    src, dst, count = move.source, move.target, move.count
    if state.rules.pair_total and _is_pair(state, move):
        return _play_pair(state, move)
    if src.kind is PileKind.STOCK or dst.kind is PileKind.STOCK:
        return _play_stock(state, move)
    si, di = src.index, dst.index
    assert si is not None and di is not None
    columns, cells, founds = state.columns, state.cells, state.foundations
    hidden, waste, kept = state.hidden, state.waste, state.reserve
    moving: tuple[Card, ...]
    if src.kind is PileKind.TABLEAU:
        moving = columns[si][-count:]
        columns = _replace(columns, si, columns[si][:-count])
        if hidden and hidden[si] and hidden[si] >= len(columns[si]):
            # The card the move uncovered turns face up (PySolFC's flipMove, automatic
            # in the games with face-down cards: Klondike, Yukon, Spider, Gypsy).
            hidden = _replace(hidden, si, max(len(columns[si]) - 1, 0))
    elif src.kind is PileKind.WASTE:
        moving = waste[-1:]
        waste = waste[:-1]
    elif src.kind is PileKind.RESERVE:
        moving = kept[-count:]
        kept = kept[:-count]
    elif src.kind is PileKind.CELL:
        card = cells[si]
        assert card is not None
        moving = (card,)
        cells = _replace(cells, si, None)
    else:
        moving = founds[si][-1:]
        founds = _replace(founds, si, founds[si][:-1])
    if dst.kind is PileKind.TABLEAU:
        columns = _replace(columns, di, columns[di] + moving)
    elif dst.kind is PileKind.RESERVE:
        kept = kept + moving
    elif dst.kind is PileKind.CELL:
        cells = _replace(cells, di, moving[0])
    else:
        founds = _replace(founds, di, founds[di] + tuple(reversed(moving)))
    if kept and state.rules.reserve_fills_empty and src.kind is PileKind.TABLEAU:
        if not columns[si]:
            # The emptied column takes the reserve's top card within the same move
            # (PySolFC's Canfield.fillStack with FILL_EMPTY_ROWS, game 105).
            columns = _replace(columns, si, kept[-1:])
            kept = kept[:-1]
    if state.rules.covered_by:
        hidden = turn_up_uncovered(state.rules, columns, hidden)
    if not (state.stock or waste or state.rounds or hidden or kept):
        return GameState(
            rules=state.rules, columns=columns, cells=cells, foundations=founds, bases=state.bases
        )
    return GameState(
        rules=state.rules,
        columns=columns,
        cells=cells,
        foundations=founds,
        bases=state.bases,
        stock=state.stock,
        waste=waste,
        hidden=hidden if any(hidden) else (),
        rounds=state.rounds,
        reserve=kept,
    )


def _play_stock(state: GameState, move: Move) -> GameState:
    """Perform a legal stock move (``s>w``, ``w>s``, ``s>t``) for :func:`_play`."""
    rules = state.rules
    stock, waste, columns, rounds = state.stock, state.waste, state.columns, state.rounds
    foundations = state.foundations
    if move.target.kind is PileKind.FOUNDATION:
        # PySolFC's Golf: the talon turns its top card onto the waste, the foundation.
        foundations = ((*foundations[0], stock[-1]),) + foundations[1:]
        stock = stock[:-1]
    elif move.target.kind is PileKind.WASTE:
        n = min(rules.draw, len(stock))
        # Each card is turned face up as it leaves the stock's top: the last one dealt
        # ends on top of the waste (PySolFC's WasteTalonStack.dealCards).
        waste = waste + tuple(reversed(stock[-n:]))
        stock = stock[:-n]
    elif move.target.kind is PileKind.STOCK:
        stock = tuple(reversed(waste))
        waste = ()
        rounds += 1
    else:
        cols = list(columns)
        for i in rules.row_columns:
            if not stock:
                break
            cols[i] = cols[i] + (stock[-1],)
            stock = stock[:-1]
        columns = tuple(cols)
    return GameState(
        rules=rules,
        columns=columns,
        cells=state.cells,
        foundations=foundations,
        bases=state.bases,
        stock=stock,
        waste=waste,
        hidden=state.hidden,
        rounds=rounds,
        reserve=state.reserve,
    )


_Item = TypeVar("_Item")


def _replace(items: tuple[_Item, ...], index: int, value: _Item) -> tuple[_Item, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def is_safe_to_foundation(state: GameState, card: Card, pile: int | None = None) -> bool:
    """Whether sending ``card`` up (to foundation ``pile``, when given) is "safe": no card
    still in play (tableau or cells) could be built on it by the tableau's build rule
    (whatever its direction and wrapping: a card nothing can ever lie on has no use left
    in play). In one deck built down in suit this holds for every card that fits a
    foundation; with two decks the other copy of rank - 1 may still want it
    (shared/rules/README.md, Autoplay).

    A pile that builds in alternate colours or regardless of suit is never safe to send a
    card to: there several cards compete for one place on the piles, and which one takes
    it can decide the game (the kit found a lost Stalactites-style end game: a Queen and
    a King of spades going up took the places the diamonds buried under them needed), so
    autoplay ``"safe"`` leaves those cards to the player.

    An Ace is not counted where it never needs a place (``Rules.aces_need_no_place``:
    the classic foundations, no wrapping): there a Two goes up once its Ace is, as in
    Microsoft FreeCell.

    With several decks the copies of a card compete for the piles of its suit: the card
    is safe only if as many piles take it now as copies of it are still to go up
    (:func:`_copies_have_places`; the kit found a lost Double Klondike end game, PySolFC
    game 21, where a Queen of clubs went up on the one pile at the Jack and left its twin
    no place). Where cards come back from the foundations (``foundations.return_to_play``:
    the Klondike, Forty Thieves and Gypsy families), a card up counts as wanting the card
    when it may come back to hold one still in play (:func:`_wanted_back`; the kit found a
    lost Saratoga end game, PySolFC game 25: the King of clubs sent up, which the Queen of
    hearts had to come back onto to hold the Jack of spades)."""
    rules = state.rules
    if pile is not None and rules.foundation_piles[pile].suits != "suit":
        return False
    if rules.decks > 1 and not _copies_have_places(state, card):
        return False
    wanting = _wanting(rules).get(card)
    if wanting is not None and rules.foundation_return:
        return not _wanted_back(state, card)
    if wanting is not None:
        # The few cards that could lie on it, looked up (the rules' build table).
        if state.rules.hidden_cards:
            up = set(itertools.chain.from_iterable(state.foundations))
            return all(other in up for other in wanting)
        in_play = _cards_in_play(state.columns, state.cells, state.reserve)
        return not any(other in in_play for other in wanting)
    build = _safe_build(state.rules)  # a card outside the rules' decks (a made-up position)
    if state.rules.hidden_cards:
        # Decided from what the player sees: where a card may lie face down or in the
        # stock, every card not yet on a foundation counts as still in play.
        return not any(build(other, card) for other in _out_of_foundations(state))
    for col in state.columns:
        for other in col:
            if build(other, card):
                return False
    if any(build(other, card) for other in state.reserve):
        return False
    return not any(other is not None and build(other, card) for other in state.cells)


def _copies_have_places(state: GameState, card: Card) -> bool:
    """Whether every copy of ``card`` still in play (``card`` among them) has a foundation
    pile that takes it now: the piles a copy goes on are the only places the other copies
    could go, so sending one up must leave a pile for each of the rest. Where cards may
    lie face down or in the stock, every copy not on a foundation counts as in play."""

    def twin(other: Card | None) -> bool:
        # Two copies of a card differ only in their deck.
        return other is not None and other.rank == card.rank and other.suit == card.suit

    if state.rules.hidden_cards:
        up = sum(twin(c) for f in state.foundations for c in f)
        in_play = sum(twin(c) for c in state.rules.cards) - up
    else:
        in_play = sum(twin(c) for col in state.columns for c in col)
        in_play += sum(twin(c) for c in state.cells) + sum(twin(c) for c in state.reserve)
    if in_play <= 1:
        return True  # the card itself: it fits
    taking = sum(pile_accepts(state, j, card) for j in range(state.rules.foundations))
    return taking >= in_play


def _wanted_back(state: GameState, card: Card) -> bool:
    """Whether a card still in play may want ``card`` to lie on, directly (by the
    tableau's build rule) or through cards on the foundations that could come back to the
    tableau (``foundations.return_to_play``) to hold it: a card up wants ``card`` when a
    card in play wants that card, and so on down the ranks. A card not on a foundation
    counts as in play (face-down and stock cards included: only the view is asked)."""
    wanting = _wanting(state.rules)
    up = set(itertools.chain.from_iterable(state.foundations))
    up.add(card)
    # Search the cards that may lie on ``card`` and, through cards up, on those: any card
    # reached that is not up wants it (a search, not a recursion: wrapping builds cycle).
    seen = {card}
    todo = [card]
    while todo:
        for other in wanting.get(todo.pop(), ()):
            if other not in up:
                return True
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return False


_WANTING: weakref.WeakKeyDictionary[Rules, dict[Card, tuple[Card, ...]]] = (
    weakref.WeakKeyDictionary()
)


def _wanting(rules: Rules) -> dict[Card, tuple[Card, ...]]:
    """For every card of the rules' decks, the cards that safe autoplay counts as wanting
    to lie on it (``_safe_build(rules)(other, card)``), from the build table (computed once
    per :class:`Rules`)."""
    table = _WANTING.get(rules)
    if table is None:
        build = _safe_build(rules)
        ontos = _build_table(rules)
        table = {card: () for card in ontos}
        for other, cards in ontos.items():
            for card in cards:
                if build(other, card):
                    table[card] += (other,)
        _WANTING[rules] = table
    return table


def _safe_build(rules: Rules) -> Callable[[Card, Card], bool]:
    """``rules.build`` as safe autoplay asks it: whether a card in play may still want to
    be built on another (an Ace never does where ``rules.aces_need_no_place``)."""
    if not rules.aces_need_no_place:
        return rules.build
    build = rules.build
    return lambda other, card: other.rank != ACE and build(other, card)


def _out_of_foundations(state: GameState) -> list[Card]:
    """Every card of the rules' decks not on a foundation (known from the view alone)."""
    up = {c for f in state.foundations for c in f}
    return [c for c in state.rules.cards if c not in up]


def _safe_run(state: GameState, column: int) -> bool:
    """:func:`is_safe_to_foundation` for a complete suit (the top 13 cards of
    ``column``): no card in play outside it could be built on any of its cards."""
    build = _safe_build(state.rules)
    col = state.columns[column]
    run = col[-13:]
    if state.rules.hidden_cards:
        rest = [c for c in _out_of_foundations(state) if c not in run]
        return not any(build(other, card) for card in run for other in rest)
    rest = [c for i, c2 in enumerate(state.columns) for c in (c2 if i != column else col[:-13])]
    rest += [c for c in state.cells if c is not None]
    rest += state.reserve
    return not any(build(other, card) for card in run for other in rest)


def waste_realigns(state: GameState) -> bool:
    """Whether taking the waste's top card away could change what a later pass through
    the stock offers: the stock deals more than one card at a time and the waste may
    still be turned over. A card gone from the waste then shifts the groups of the next
    pass (Klondike draw 3: the Ace sent up at once, rather than after the next deal,
    makes other cards the top of their threes), so a deal winnable with the card left
    there can be lost with it gone (Klondike (Draw 3) deal 2, won by Solvitaire's
    solution, which leaves an Ace on the waste for one deal). Safe autoplay leaves such a
    card to the player."""
    return state.rules.draw > 1 and state.redeals_left != 0


def autoplay_moves(state: GameState, policy: str | None = None) -> tuple[GameState, list[Move]]:
    """Send cards to the foundations while the autoplay policy allows.

    :param policy: ``"off"``, ``"safe"`` or ``"all"``; defaults to the variant's
        ``autoplay``. ``"all"`` sends every card that fits (the Seahaven program help:
        "cards will be moved to the foundation automatically"); ``"safe"`` only cards
        :func:`is_safe_to_foundation` approves. With ``foundations.base_rank =
        "first-played"`` nothing goes up before the player has put a card on a
        foundation. Sources are tried in order (columns from
        the first, then cells), each card to the first foundation that takes it, and after
        every card the sweep starts again. With ``foundations.only_complete_suits`` the
        complete suits at the top of columns go up instead of single cards. ``"safe"``
        leaves the waste's top card where taking it could change a later pass through the
        stock (:func:`waste_realigns`: draw 3 with a redeal left).
    :return: the new state and the moves made, in order.
    """
    policy = policy or state.rules.autoplay
    made: list[Move] = []
    if policy == "off":
        return state, made
    nf = state.rules.foundations
    if state.rules.base_first_played and not any(state.foundations):
        # The player's first card to a foundation chooses the base rank: autoplay never
        # makes that choice (PySolFC's Chessboard_RowStack.canDropCards, game 148).
        return state, made
    if state.rules.complete_suits:
        progress = True
        while progress:
            progress = False
            for i, col in enumerate(state.columns):
                if (
                    complete_suit(col[state.hidden[i] if state.hidden else 0 :])
                    and not covered(state, i)
                    and (policy == "all" or _safe_run(state, i))
                ):
                    target = next(
                        (
                            j
                            for j in range(nf)
                            if _pile_reason(state, j, col[-1], None, True) is None
                        ),
                        None,
                    )
                    if target is not None:
                        move = Move(_T[i], _F[target], 13)
                        state = _play(state, move)
                        made.append(move)
                        progress = True
                        break
        return state, made
    if _classic_sweep(state.rules):
        return _autoplay_classic(state, policy)
    classic = state.rules.standard_foundations
    progress = True
    while progress:
        progress = False
        sources: list[tuple[PileRef, Card | None]] = [
            (_T[i], _top_to_play(state, i)) for i in range(len(state.columns))
        ] + [(_C[i], c) for i, c in enumerate(state.cells)]
        if state.waste and (policy == "all" or not waste_realigns(state)):
            sources.append((WASTE, state.waste[-1]))
        if state.reserve:
            sources.append((RESERVE, state.reserve[-1]))
        # With the classic piles, the cards some pile takes now, looked up first (the
        # thoughtful search autoplays every position it makes).
        fits = _classic_fits(state.foundations) if classic else None
        for src, card in sources:
            if card is None or (fits is not None and (card.suit, card.rank) not in fits):
                continue
            target = next((j for j in range(nf) if pile_accepts(state, j, card, src)), None)
            if target is None:
                continue
            if policy == "all" or is_safe_to_foundation(state, card, target):
                move = Move(src, _F[target], 1)
                state = _play(state, move)
                made.append(move)
                progress = True
                break
    return state, made


def autoplay_may_start(state: GameState, move: Move, policy: str) -> bool:
    """Whether autoplay with ``policy`` may send a card up after ``move`` is played on
    ``state``, a *settled* position: one autoplay with ``policy`` has already run on, so
    that none of its cards would go up (every position of a session is one). ``True``
    unless it is certain that nothing goes up; :func:`~solitaire_core.session.play_move`
    then leaves autoplay out (the solver replays every solution so, move by move).

    Certain where autoplay sweeps the classic piles alone (the rules
    :func:`autoplay_moves` hands to :func:`_autoplay_classic`: standard foundations, no
    hidden cards, stock, reserve, layout or complete suits), the move goes from a column
    or cell to a column or cell, and the card it uncovers, if any, fits no foundation.
    The foundations did not change, so every other card that autoplay looks at (a
    column's top or a cell's card) was one it looked at before and left, and would leave
    again: whether a card fits depends on the piles alone, and whether it is safe
    (:func:`is_safe_to_foundation`) on the piles and on which cards are in play, never
    on where in play they lie.

    :param state: the settled position before the move.
    :param move: a legal move of ``state``, both piles numbered.
    :param policy: ``"off"``, ``"safe"`` or ``"all"``.
    """
    if policy == "off":
        return False
    source, target = move.source.kind, move.target.kind
    if source not in _SWEPT or target not in _SWEPT or not _classic_sweep(state.rules):
        return True
    if source is PileKind.CELL:
        return False
    col = state.columns[move.source.index or 0]
    if len(col) <= move.count:
        return False
    card = col[-move.count - 1]  # uncovered: does some pile take it (_classic_fits)?
    rank, suit = card.rank, card.suit
    for pile in state.foundations:
        if (rank == pile[-1].rank + 1 and suit is pile[-1].suit) if pile else rank == ACE:
            return True
    return False


_SWEPT = (PileKind.TABLEAU, PileKind.CELL)


def _classic_sweep(rules: Rules) -> bool:
    """Whether :func:`autoplay_moves` hands ``rules``'s positions to
    :func:`_autoplay_classic`, which looks at the columns' top cards and the cells only
    (worked out once per :class:`Rules`)."""
    known = _CLASSIC_SWEEP.get(rules)
    if known is None:
        # (No stock either: a stock's cards count as hidden. No complete suits either:
        # the classic foundations take single cards.)
        known = _CLASSIC_SWEEP[rules] = (
            rules.standard_foundations
            and not rules.hidden_cards
            and not rules.has_reserve
            and not rules.covered_by
        )
    return known


_CLASSIC_SWEEP: weakref.WeakKeyDictionary[Rules, bool] = weakref.WeakKeyDictionary()


def _classic_fits(foundations: tuple[tuple[Card, ...], ...]) -> set[tuple[Suit, int]]:
    """The (suit, rank) of every card some classic foundation pile takes now (as
    :func:`foundation_accepts` answers): an Ace of each suit while a pile is empty, and the
    next rank in suit on each pile short of the King."""
    fits = {(f[-1].suit, f[-1].rank + 1) for f in foundations if f and f[-1].rank < KING}
    if not all(foundations):
        fits.update((suit, ACE) for suit in Suit)
    return fits


def _top_to_play(state: GameState, column: int) -> Card | None:
    """Column ``column``'s top card, or ``None`` when it has none or, in a layout, while a
    card lies on it or it lies face down (TriPeaks): what autoplay may send up."""
    col = state.columns[column]
    if not col or covered(state, column):
        return None
    if state.hidden and state.hidden[column] >= len(col):
        return None
    return col[-1]


def _autoplay_classic(state: GameState, policy: str) -> tuple[GameState, list[Move]]:
    """:func:`autoplay_moves` with the classic foundation piles (``standard_foundations``):
    the same sweeps in the same order, each card to the same pile (an Ace to the first
    empty pile, any other card to the first pile whose top is the card below it in suit),
    on lists rather than a new state per card (the solver replays every solution through
    it). With one deck whose every card is on the table and no card back from the
    foundations, "safe" asks how far the piles of the suits of the cards that would want
    a card have come, rather than where those cards lie: the same answer as
    :func:`is_safe_to_foundation`, since every card is then in a column, in a cell or on
    its suit's pile."""
    rules, bases = state.rules, state.bases
    columns, cells, founds = list(state.columns), list(state.cells), list(state.foundations)
    made: list[Move] = []
    safe_only = policy != "all"
    # A card that would want ``card`` is out of play exactly when its suit's pile has
    # reached its rank: with one deck, every card of it on the table (a position set up
    # with cards left out, as an end game, counts those as out of play: asked one by
    # one below), and no stock, reserve or face-down card on this path.
    wanting = (
        _wanting(rules) if safe_only and rules.decks == 1 and not rules.foundation_return else None
    )
    if wanting is not None:
        on_table = sum(map(len, columns)) + sum(map(len, founds)) + len(cells) - cells.count(None)
        if on_table != len(wanting):
            wanting = None
    up: dict[Suit, int] = {}

    def safe(card: Card, target: int) -> bool:
        if wanting is not None:
            return all(up.get(other.suit, 0) >= other.rank for other in wanting[card])
        return _classic_safe(rules, bases, columns, cells, founds, card, target)

    while True:
        # The pile each card would go to: (suit, rank) of the card it waits for; and how
        # far each suit's pile has come.
        wanted: dict[tuple[Suit, int], int] = {}
        up = {}
        first_empty = None
        for j, pile in enumerate(founds):
            if not pile:
                if first_empty is None:
                    first_empty = j
            else:
                top = pile[-1]
                wanted.setdefault((top.suit, top.rank + 1), j)
                up[top.suit] = top.rank
        source = target = None
        for i, col in enumerate(columns):
            if col:
                card = col[-1]
                target = first_empty if card.rank == ACE else wanted.get((card.suit, card.rank))
                if target is not None and (not safe_only or safe(card, target)):
                    source = _T[i]
                    columns[i] = col[:-1]
                    break
        else:
            for i, held in enumerate(cells):
                if held is not None:
                    card = held
                    target = first_empty if card.rank == ACE else wanted.get((card.suit, card.rank))
                    if target is not None and (not safe_only or safe(card, target)):
                        source = _C[i]
                        cells[i] = None
                        break
        if source is None or target is None:
            break
        made.append(Move(source, _F[target], 1))
        founds[target] = founds[target] + (card,)
    if not made:
        return state, made
    return _piles_state(rules, bases, columns, cells, founds), made


def _piles_state(
    rules: Rules,
    bases: tuple[int, ...],
    columns: list[tuple[Card, ...]],
    cells: list[Card | None],
    founds: list[tuple[Card, ...]],
) -> GameState:
    """The position of the piles :func:`_autoplay_classic` holds in lists."""
    return GameState(
        rules=rules,
        columns=tuple(columns),
        cells=tuple(cells),
        foundations=tuple(founds),
        bases=bases,
    )


def _classic_safe(
    rules: Rules,
    bases: tuple[int, ...],
    columns: list[tuple[Card, ...]],
    cells: list[Card | None],
    founds: list[tuple[Card, ...]],
    card: Card,
    target: int,
) -> bool:
    """:func:`is_safe_to_foundation` on the piles :func:`_autoplay_classic` holds. With one
    deck, no cards back from the foundations and none hidden, the cards that would want
    ``card`` are looked for in the lists themselves (the same answer, without building a
    position for every card sent up: the solver replays each solution through here)."""
    if rules.decks == 1 and not rules.foundation_return and not rules.hidden_cards:
        if rules.foundation_piles[target].suits != "suit":
            return False
        wanting = _wanting(rules).get(card)
        if wanting is not None:
            in_play = _cards_in_play(columns, cells)
            return not any(other in in_play for other in wanting)
    return is_safe_to_foundation(_piles_state(rules, bases, columns, cells, founds), card, target)


def _cards_in_play(
    columns: Iterable[tuple[Card, ...]],
    cells: Iterable[Card | None],
    reserve: Iterable[Card] = (),
) -> set[Card]:
    """The cards of the columns, cells and reserve, as a set (safe autoplay's lookups)."""
    in_play = set(itertools.chain.from_iterable(columns))
    in_play.update(c for c in cells if c is not None)
    in_play.update(reserve)
    return in_play


def canonical_key(
    state: GameState, column_code: Callable[[Card], int] = card_code
) -> tuple[Any, ...]:
    """A key equal for positions that differ only in the order of columns and of cells
    (foundations compared by their card counts per suit and deck; a discard pile,
    ``"outranked-in-suit"``, by its cards whatever their order). With a stock, face-down
    cards or a reserve, the stock, waste, reserve, face-down counts and redeals used count
    too; the columns keep their order only where a row deal still to come tells them apart
    (each goes to its own column) or a layout places them (``tableau.layout``: which
    cards cover which), and otherwise are sorted each with its face-down count.

    :param column_code: each column card's code in the key (the card itself by default;
        the stock search's narrowed key, :func:`~solitaire_core.solver.stock.blind_key`,
        gives alike cards one code)."""
    rules = state.rules
    if rules.hidden_cards or rules.has_reserve or rules.covered_by:
        columns = tuple(tuple(map(column_code, col)) for col in state.columns)
        hidden = state.hidden
        if (rules.stock_deal != "row" or not state.stock) and not rules.covered_by:
            pairs = sorted(zip(columns, hidden or (0,) * len(columns)))
            columns = tuple(col for col, _ in pairs)
            hidden = tuple(down for _, down in pairs) if hidden else ()
        return (
            columns,
            hidden,
            tuple(sorted(card_code(c) for c in state.cells if c is not None)),
            _foundations_key(state),
            tuple(map(card_code, state.stock)),
            tuple(map(card_code, state.waste)),
            # Redeals used matter only while they are limited.
            state.rounds if state.rules.redeals >= 0 else 0,
            tuple(map(card_code, state.reserve)),
        )
    cols = tuple(sorted(tuple(map(column_code, col)) for col in state.columns))
    cells = tuple(sorted(card_code(c) for c in state.cells if c is not None))
    return cols, cells, _foundations_key(state)


def _foundations_key(state: GameState) -> tuple[tuple[int, ...], ...]:
    """The foundations part of :func:`canonical_key`: each pile's card codes, a discard
    pile's sorted (what it takes depends only on the columns), the piles sorted."""
    piles = []
    for spec, pile in zip(state.rules.foundation_piles, state.foundations):
        codes = tuple(card_code(c) for c in pile)
        piles.append(tuple(sorted(codes)) if spec.discards or spec.pairs else codes)
    return tuple(sorted(piles))


def find_progress(state: GameState, *, cheat: bool = False, budget: int = 3000) -> bool | None:
    """Whether some sequence of legal moves (with the variant's autoplay after each, as a
    session plays) puts another card on a foundation.

    A move is *productive* when it starts such a sequence. This is a breadth-first search
    over positions up to the order of columns and cells.

    :param budget: the most distinct positions to visit.
    With a stock or face-down cards a move that deals from the stock, or a line that
    turns a face-down card up, counts as productive too: the player learns a card, and
    looking past it would mean knowing hidden cards.

    :return: ``True`` when a productive line exists, ``False`` when the whole reachable
        space was searched without finding one (no useful move left), ``None`` when the
        budget ran out first (then nothing is claimed).
    """
    start = state.foundation_cards
    if state.is_won:
        return False
    down = state.face_down_cards
    seen = {canonical_key(state)}
    queue = deque([state])
    while queue:
        position = queue.popleft()
        for move in legal_moves(position, cheat=cheat):
            if move.source.kind is PileKind.STOCK or move.target.kind is PileKind.STOCK:
                # A deal shows cards the player has not seen: useful, and judging it
                # further would mean peeking at the stock.
                return True
            nxt, _ = autoplay_moves(_play(position, move))
            if nxt.foundation_cards > start or nxt.face_down_cards < down:
                return True
            key = canonical_key(nxt)
            if key in seen:
                continue
            if len(seen) >= budget:
                return None
            seen.add(key)
            queue.append(nxt)
    return False
