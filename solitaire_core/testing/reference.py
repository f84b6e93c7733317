"""Independent statements of the framework's contract, written apart from the rules engine.

The conformance checks compare the engine (:mod:`solitaire_core.rules`) with these small,
plain re-statements: the move-limit formulas of shared/rules/README.md, what a built-in
empty-column rule means, a won position, and a brute-force winnability search that uses
nothing of the engine but :func:`~solitaire_core.rules.legal_moves` and
:func:`~solitaire_core.rules.apply`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import attrs

from .. import rules as engine
from ..cards import KING, Card, card_code
from ..moves import Move, PileKind, PileRef
from ..state import GameState
from ..variant import BASE_FIRST_PLAYED, BASE_FROM_DEAL, FoundationPile, Rules

NO_LIMIT = 10**9
"""Stands for "no limit on the run length"."""


def expected_move_limit(
    rules: Rules, *, free_cells: int, empty_columns: int, to_empty: bool, cheat: bool = False
) -> int:
    """How many cards one tableau-to-tableau move may carry, as the variant file declares.

    :param free_cells: empty cells in the position.
    :param empty_columns: empty tableau columns in the position (the target included).
    :param to_empty: whether the target column is empty.
    :param cheat: the Seahaven program help's Cheat difficulty (any run moves).
    :return: a card count, or :data:`NO_LIMIT`.

    Formulas (shared/rules/README.md): ``one`` -> 1 (Double Sea Towers rules text);
    ``free-cells-plus-one`` -> free cells + 1 (Seahaven program help, Aisleriot);
    ``supermove`` -> (free cells + 1) x 2^(empty columns), one column fewer when the target
    is empty (PySolFC Baker's Game, KPatience); ``unlimited`` -> no limit (PySolFC game 6);
    ``one-or-all`` -> no limit on the run, but only one card or the whole column moves
    (:func:`whole_column_rule`; PySolFC's Canfield, game 105).
    """
    if cheat or rules.move_limit in ("unlimited", "one-or-all"):
        return NO_LIMIT
    if rules.move_limit == "one":
        return 1
    if rules.move_limit == "free-cells-plus-one":
        return free_cells + 1
    if rules.move_limit == "supermove":
        return (free_cells + 1) * 2 ** max(empty_columns - (1 if to_empty else 0), 0)
    raise ValueError(f"unknown move limit {rules.move_limit!r}")


def whole_column_rule(rules: Rules, count: int, column: int, *, cheat: bool = False) -> bool:
    """Whether a tableau move of ``count`` cards from a column of ``column`` cards is
    allowed by ``move_limit = "one-or-all"`` (always true for the other limits): one card,
    or every card of the column (PySolFC's ``Canfield_AC_RowStack``, game 105). The Cheat
    difficulty lifts it."""
    return cheat or rules.move_limit != "one-or-all" or count in (1, column)


_BUILTIN_EMPTY: dict[str, Callable[[Card], bool]] = {
    "king": lambda card: card.rank == KING,
    "any": lambda card: True,
    "none": lambda card: False,
    "none-empty": lambda card: False,
}


def declared_discard(columns: tuple[tuple[Card, ...], ...], source: int, card: Card) -> bool:
    """Whether a discard pile (``foundations.build = "outranked-in-suit"``) takes ``card``
    from the top of column ``source`` (0-based) of ``columns``, re-stated from PySolFC's
    ``AcesUp_Foundation.acceptsCards`` (pysollib/games/acesup.py, Aces Up, game 903): some
    other column shows a card of its suit ranked above it, an Ace above every rank, and
    the card itself is no Ace."""
    if card.rank == 1:
        return False
    others = [col[-1] for i, col in enumerate(columns) if i != source and col]
    return any(t.suit == card.suit and (t.rank == 1 or t.rank > card.rank) for t in others)


def declared_empty_rule(rules: Rules, bases: tuple[int, ...] = ()) -> Callable[[Card], bool]:
    """What the variant file's ``tableau.empty`` says may fill an empty column.

    Built-in names are re-stated here (``king``: a King or a run led by one; ``any``;
    ``none``; ``below-base``: the rank below the foundations' base, ``bases`` when the
    deal decides it, a King below an Ace); a plugin's predicate is taken from the plugin
    registry by name, falling back to ``rules.empty_accepts`` when the rules were built
    outside the registry.
    """
    if rules.empty_rule == "below-base":
        base = bases[0] if bases else rules.foundation_piles[0].base
        below = 13 if base == 1 else base - 1
        return lambda card: card.rank == below
    if rules.empty_rule in _BUILTIN_EMPTY:
        return _BUILTIN_EMPTY[rules.empty_rule]
    from ..plugins import get_registry

    predicate = get_registry().predicates.get(rules.empty_rule)
    if predicate is not None and predicate.kind == "empty":
        return predicate.function
    return rules.empty_accepts


def _restated(name: str, wrap: bool) -> Callable[[Card, Card], bool] | None:
    """A built-in build rule re-stated: ``(directions, suits)`` from its name."""
    directions = {"down": (-1,), "up": (1,), "up-or-down": (1, -1)}
    suits = {
        "in-suit": "suit",
        "alternate-colors": "color",
        "any-suit": "any",
        "same-color": "same",
        "other-suit": "other",
    }
    for d_name, steps in directions.items():
        for s_name, relation in suits.items():
            if name == f"{d_name}-{s_name}":
                return _build_rule(steps, relation, wrap)
    return None


def _build_rule(steps: tuple[int, ...], relation: str, wrap: bool) -> Callable[[Card, Card], bool]:
    def build(card: Card, onto: Card) -> bool:
        if relation == "suit" and card.suit is not onto.suit:
            return False
        if relation == "color" and card.suit.color is onto.suit.color:
            return False
        if relation == "same" and card.suit.color is not onto.suit.color:
            return False
        if relation == "other" and card.suit is onto.suit:
            return False
        for step in steps:
            rank = onto.rank + step
            if wrap:
                rank = (rank - 1) % 13 + 1
            if card.rank == rank:
                return True
        return False

    return build


def declared_build_rule(rules: Rules) -> Callable[[Card, Card], bool]:
    """What the variant file's ``tableau.build`` (with ``tableau.wrap``) says:
    ``build(card, onto) -> bool``.

    Built-in names are re-stated here; a plugin's predicate comes from the registry.
    """
    return _declared(rules, rules.tableau_build, rules.build)


def declared_run_rule(rules: Rules) -> Callable[[Card, Card], bool]:
    """What ``tableau.run`` says: which cards lie in a run that moves as one unit."""
    return _declared(rules, rules.run_rule, rules.run)


def _declared(
    rules: Rules, name: str, fallback: Callable[[Card, Card], bool]
) -> Callable[[Card, Card], bool]:
    if name == "none":
        return lambda c, o: False
    restated = _restated(name, rules.tableau_wrap)
    if restated is not None:
        return restated
    from ..plugins import get_registry

    predicate = get_registry().predicates.get(name)
    if predicate is not None and predicate.kind == "build":
        return predicate.function
    return fallback


def top_run(rules: Rules, column: tuple[Card, ...], face_up: int | None = None) -> int:
    """Cards at the top of ``column`` that form a run under the declared run rule.

    :param face_up: how many cards at the top lie face up (``None``: all). A face-down
        card is in no run (docs/variant-format.md, ``deal.face_down``); with
        ``tableau.run = "face-up"`` every face-up card is.
    """
    n = len(column) if face_up is None else min(face_up, len(column))
    if rules.face_up_runs:
        return n
    build = declared_run_rule(rules)
    k = 1 if n else 0
    while k < n and build(column[-k], column[-k - 1]):
        k += 1
    return k


def all_cards(rules: Rules) -> list[Card]:
    """Every card of the variant's decks, sorted."""
    return sorted(rules.cards, key=card_code)


def position_key(state: GameState, *, ordered_foundations: bool = False) -> tuple[object, ...]:
    """A key that ignores the order of columns and of cells, and unless
    ``ordered_foundations``, of foundations: each pile is compared with its base rank
    where the deal sets one per pile (Stalactites, PySolFC game 77), and piles are
    otherwise interchangeable in every rule the framework has, but for autoplay, which puts
    a card on the first pile that takes it."""
    cols = tuple(sorted(tuple(card_code(c) for c in col) for col in state.columns))
    cells = tuple(sorted(card_code(c) for c in state.cells if c is not None))
    bases = state.bases or (0,) * len(state.foundations)
    piles = [(b, tuple(card_code(c) for c in f)) for b, f in zip(bases, state.foundations)]
    founds = tuple(piles if ordered_foundations else sorted(piles))
    if state.rules.hidden_cards or state.rules.has_reserve or state.rules.layout:
        # Columns in order (a row deal goes to each in turn, a layout places each), with
        # their face-down cards, and the stock, the waste, the redeals used and the reserve.
        cols = tuple(tuple(card_code(c) for c in col) for col in state.columns)
        return (
            cols,
            state.hidden,
            cells,
            founds,
            tuple(map(card_code, state.stock)),
            tuple(map(card_code, state.waste)),
            state.rounds,
            tuple(map(card_code, state.reserve)),
        )
    return cols, cells, founds


def winnable(state: GameState, *, budget: int = 20000, policy: str = "off") -> bool | None:
    """Whether some sequence of legal moves wins (:func:`declared_won`).

    A depth-first search over :func:`~solitaire_core.rules.legal_moves`, foundation moves
    tried first, positions compared up to pile order (:func:`position_key`).

    :param budget: the most distinct positions to visit.
    :param policy: the autoplay a session makes at the start and after every move
        (``"off"``, ``"safe"``, ``"all"``; :func:`~solitaire_core.rules.autoplay_moves`).
    :return: ``True`` or ``False``, or ``None`` when the budget ran out undecided.
    """
    ordered = policy != "off"
    if ordered:
        state, _ = engine.autoplay_moves(state, policy)
    if declared_won(state):
        return True
    seen = {position_key(state, ordered_foundations=ordered)}
    stack = [state]
    while stack:
        position = stack.pop()
        children = []
        for move in engine.legal_moves(position):
            child = engine.apply(position, move)
            if ordered:
                child, _ = engine.autoplay_moves(child, policy)
            if declared_won(child):
                return True
            key = position_key(child, ordered_foundations=ordered)
            if key in seen:
                continue
            if len(seen) >= budget:
                return None
            seen.add(key)
            children.append(child)
        # legal_moves lists foundation moves first: push them last so they pop first.
        stack.extend(reversed(children))
    return False


# -- the end of the game -----------------------------------------------------------------


def declared_won(state: GameState) -> bool:
    """Whether ``state`` is won, as the variant file declares it.

    ``foundations.win_cards``: once the foundations hold that many cards, and with
    ``tableau.win_single_cards`` every column holds exactly one card (PySolFC's
    ``AcesUp.isGameWon``, Aces Up, game 903). A stock dealt onto the foundation
    (``stock.deal = "foundation"``): once no card is left in play outside the stock
    (PySolFC's ``Golf.isGameWon`` and ``ThreePeaks.isGameWon``, TriPeaks, game 22231:
    every row empty, the stock may still hold cards). Otherwise once every card is on a
    foundation, none left in the columns, cells, stock, waste or reserve (PySolFC's
    ``Game.isGameWon``; Pyramid, game 38: all 52 on the discard pile, an empty pyramid
    with cards left in the stock is not won)."""
    rules = state.rules
    if rules.win_cards:
        up = sum(len(pile) for pile in state.foundations)
        single = all(len(col) == 1 for col in state.columns)
        return up >= rules.win_cards and (single or not rules.win_single_cards)
    in_play = any(state.columns) or any(c is not None for c in state.cells)
    in_play = in_play or bool(state.waste or state.reserve)
    if rules.stock_deal == "foundation":
        return not in_play
    return not in_play and not state.stock


# -- layouts: cards that cover cards ----------------------------------------------------


@functools.lru_cache(maxsize=64)
def declared_covering(layout: tuple[tuple[float, float], ...]) -> tuple[frozenset[int], ...]:
    """For each column of a ``tableau.layout``, the columns whose card lies on its card,
    re-stated from the variant format (docs/variant-format.md, ``tableau.layout``): a
    card's face is one card width across and one card height down from its ``[x, y]``;
    two cards whose faces overlap (by more than an edge) lie one on the other, the one
    lower on the table (greater ``y``), or on the same line the one later in the list, on
    top.

    PySolFC's Pyramid (game 38, ``Pyramid._createPyramid``) and Three Peaks (game 22231,
    ``ThreePeaks_RowStack.basicIsBlocked``) block a card by the two cards of the next row
    that touch it; tests/test_conformance_kit.py checks that this statement gives those
    for the built-in layouts."""
    out = []
    for i, (x, y) in enumerate(layout):
        on = set()
        for j, (u, v) in enumerate(layout):
            across = min(x, u) + 1 - max(x, u)
            down = min(y, v) + 1 - max(y, v)
            if j != i and across > 0 and down > 0 and (v, j) > (y, i):
                on.add(j)
        out.append(frozenset(on))
    return tuple(out)


def covering_columns(rules: Rules, column: int) -> frozenset[int]:
    """The columns whose card lies on column ``column``'s in the variant's layout (none
    without a ``tableau.layout``)."""
    if not rules.layout:
        return frozenset()
    return declared_covering(tuple(rules.layout))[column]


def is_covered(state: GameState, column: int) -> bool:
    """Whether some card of the layout still lies on column ``column``'s card."""
    return any(state.columns[j] for j in covering_columns(state.rules, column))


def top_face_down(state: GameState, column: int) -> bool:
    """Whether column ``column`` holds cards and its top card lies face down (in a
    layout, a covered card may: TriPeaks' peaks)."""
    col = state.columns[column]
    return bool(col) and bool(state.hidden) and state.hidden[column] >= len(col)


def column_free(state: GameState, column: int) -> bool:
    """Whether column ``column``'s top card may leave: the column holds a card, no card of
    the layout lies on it and it lies face up (PySolFC's ``Stack.basicCanMoveCards``: not
    ``basicIsBlocked``, face up)."""
    return (
        bool(state.columns[column])
        and not is_covered(state, column)
        and not top_face_down(state, column)
    )


def turned_up(
    rules: Rules, columns: tuple[tuple[Card, ...], ...], hidden: tuple[int, ...]
) -> tuple[int, ...]:
    """Face-down counts after every face-down top card of a layout on which no card lies
    any more turns face up (PySolFC's ``ThreePeaksExposeFlip.fillStack``: each row that
    ``canFlipCard``, not blocked and its top card face down, flips it); ``()`` when no card
    lies face down then."""
    if not hidden:
        return ()
    out = list(hidden)
    for i, col in enumerate(columns):
        on = covering_columns(rules, i)
        if col and out[i] >= len(col) and not any(columns[j] for j in on):
            out[i] = len(col) - 1
        if not col:
            out[i] = 0
    return tuple(out) if any(out) else ()


def dealt_face_down(
    rules: Rules, columns: tuple[tuple[Card, ...], ...], face_down: tuple[int, ...]
) -> tuple[int, ...]:
    """How many cards of each freshly dealt column lie face down by ``deal.face_down``:
    all but the top card, where a card of the layout lies on the column all of them (PySolFC's
    ``ThreePeaks.startGame`` deals the 18 covered cards face down), at most as many as
    the recipe says (one entry per column; ``(0, ...)`` without face-down cards)."""
    down = face_down or (0,) * len(columns)
    out = []
    for i, (n, col) in enumerate(zip(down, columns)):
        whole = any(columns[j] for j in covering_columns(rules, i))
        out.append(min(n, len(col) if whole else max(len(col) - 1, 0)))
    return tuple(out)


# -- one pile built up or down (the Golf family) ----------------------------------------


def declared_up_or_down(state: GameState, card: Card) -> bool | None:
    """Whether the one foundation built up or down regardless of suit
    (``"up-or-down-any-suit"``) takes ``card``, re-stated from PySolFC's
    ``Golf_Waste.acceptsCards`` (pysollib/games/golf.py): one rank up or down from its top
    card, King and Ace next to each other where it wraps (``mod=13``: Black Hole, TriPeaks),
    nothing on a King with ``nothing_on_king`` (Dead King Golf's strictness); an empty
    pile takes its base rank (any card where the first card played sets it). ``None``
    where the variant has no such pile."""
    piles = state.rules.foundation_piles
    if len(piles) != 1 or piles[0].build != "up-or-down-any-suit":
        return None
    spec: FoundationPile = piles[0]
    pile = state.foundations[0]
    if len(pile) >= spec.cards:
        return False
    if not pile:
        if spec.base == BASE_FIRST_PLAYED:
            return True
        base = state.bases[0] if spec.base == BASE_FROM_DEAL and state.bases else spec.base
        return card.rank == base
    top = pile[-1].rank
    if spec.nothing_on_king and top == KING:
        return False
    step = abs(top - card.rank)
    return step == 1 or (spec.wrap and step == KING - 1)


# -- pairs (Pyramid) ----------------------------------------------------------------------


def declared_pair_total(rules: Rules) -> int:
    """The rank total of a pair where the one foundation takes pairs
    (``foundations.build = "pairs"``, ``pair_total``), else 0."""
    piles = rules.foundation_piles
    if len(piles) == 1 and piles[0].build == "pairs":
        return piles[0].pair_total
    return 0


_TABLEAU, _WASTE, _STOCK = PileKind.TABLEAU, PileKind.WASTE, PileKind.STOCK


def offered_card(state: GameState, ref: PileRef) -> Card | None:
    """The card a place offers to a pair, re-stated from PySolFC's Pyramid (game 38,
    pysollib/games/pyramid.py): a free card of the layout (:func:`column_free`), the
    waste's top card, and the stock's top card where it lies face up
    (``stock.top_plays``: ``Pyramid_Talon`` is a ``FaceUpWasteTalonStack`` that accepts a
    card); ``None`` for any other place or an empty one."""
    rules = state.rules
    if ref.kind is _TABLEAU:
        i = ref.index
        if i is None or not 0 <= i < rules.columns or not column_free(state, i):
            return None
        return state.columns[i][-1]
    if ref.kind is _WASTE and rules.has_stock and state.waste:
        return state.waste[-1]
    if ref.kind is _STOCK and rules.stock_top_plays and state.stock:
        return state.stock[-1]
    return None


def declared_pair(state: GameState, move: Move) -> bool:
    """Whether ``move`` pairs two cards (``Pyramid_StackMethods.acceptsCards``: both free
    and face up, two different places, their ranks adding up to the pair total) in a
    game whose foundation takes pairs. ``s>w`` is always the deal (the notation), so never
    a pair; ``w>s`` pairs the waste's and the stock's top cards."""
    total = declared_pair_total(state.rules)
    src, dst = move.source, move.target
    if not total or move.count != 1 or src == dst or (src.kind, dst.kind) == (_STOCK, _WASTE):
        return False
    a, b = offered_card(state, src), offered_card(state, dst)
    return a is not None and b is not None and a.rank + b.rank == total


def declared_alone(state: GameState, source: PileRef) -> bool:
    """Whether the card ``source`` offers goes alone onto the pairs pile: its rank is the
    pair total, a King in Pyramid (``Pyramid_Foundation.acceptsCards`` takes a King,
    ``_dropKingClickHandler`` sends one from a free place, the stock's top included)."""
    total = declared_pair_total(state.rules)
    card = offered_card(state, source) if total else None
    return card is not None and card.rank == total


def played_pair(state: GameState, move: Move) -> GameState:
    """The position after a legal pair (``t3>w``) or a card alone (``t3>f1``) in a game
    whose foundation takes pairs: the source's card, then the target's, onto the discard
    pile (``Pyramid_StackMethods._dropPairMove`` moves its own card first), every pile
    that gave one a card shorter, and the layout's face-down cards no card lies on any
    more turned up (:func:`turned_up`)."""
    columns = list(state.columns)
    stock, waste = state.stock, state.waste
    gone: list[Card] = []
    refs = [move.source] if move.target.kind is PileKind.FOUNDATION else [move.source, move.target]
    for ref in refs:
        if ref.kind is _TABLEAU:
            assert ref.index is not None
            gone.append(columns[ref.index][-1])
            columns[ref.index] = columns[ref.index][:-1]
        elif ref.kind is _WASTE:
            gone.append(waste[-1])
            waste = waste[:-1]
        else:
            gone.append(stock[-1])
            stock = stock[:-1]
    cols = tuple(columns)
    return attrs.evolve(
        state,
        columns=cols,
        stock=stock,
        waste=waste,
        foundations=((*state.foundations[0], *gone), *state.foundations[1:]),
        hidden=turned_up(state.rules, cols, state.hidden),
    )
