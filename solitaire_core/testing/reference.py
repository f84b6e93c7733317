"""Independent statements of the framework's contract, written apart from the rules engine.

The conformance checks compare the engine (:mod:`solitaire_core.rules`) with these small,
plain re-statements: the move-limit formulas of shared/rules/README.md, what a built-in
empty-column rule means, a won position, and a brute-force winnability search that uses
nothing of the engine but :func:`~solitaire_core.rules.legal_moves` and
:func:`~solitaire_core.rules.apply`.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import rules as engine
from ..cards import KING, Card, card_code
from ..state import GameState
from ..variant import Rules

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
    if state.rules.hidden_cards or state.rules.has_reserve:
        # Columns in order (a row deal goes to each in turn), with their face-down
        # cards, and the stock, the waste, the redeals used and the reserve.
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
    """Whether some sequence of legal moves puts every card on a foundation.

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
    if state.is_won:
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
            if child.is_won:
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
