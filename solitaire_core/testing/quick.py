"""The quick conformance checks: what the variant editor runs after every change.

A few seconds of work, no Hypothesis: the deal places every card once, a few hundred
random moves all apply and agree with :func:`~solitaire_core.rules.is_legal` and
:func:`~solitaire_core.rules.explain`, no card appears or vanishes, and move generation
runs to depth 2 (:func:`~solitaire_core.testing.perft.perft`). The full kit
(``solitaire conformance``) checks far more; these catch a broken file at once.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable

import attrs

from ..deal import deal
from ..rules import apply, autoplay_moves, explain, is_legal, legal_moves
from ..state import GameState
from ..variant import Rules
from .perft import perft

__all__ = ["QuickCheck", "quick_checks"]


@attrs.frozen
class QuickCheck:
    """The outcome of one quick check.

    :param name: ``"deal"``, ``"random-play"`` or ``"perft"``.
    :param ok: whether it passed.
    :param detail: one sentence: what was checked, or what went wrong.
    """

    name: str
    ok: bool
    detail: str


def _cards(state: GameState) -> Counter[str]:
    piles = [*state.columns, *state.foundations, [c for c in state.cells if c is not None]]
    return Counter(f"{card}{card.deck}" for pile in piles for card in pile)


def _check_deals(rules: Rules, deals: tuple[int, ...]) -> QuickCheck:
    for number in deals:
        state = deal(rules, number)
        counts = _cards(state)
        if sum(counts.values()) != rules.card_count or max(counts.values()) != 1:
            return QuickCheck(
                "deal",
                False,
                f"deal {number} places {sum(counts.values())} cards, "
                f"expected each of the {rules.card_count} once",
            )
        if tuple(len(c) for c in state.columns) != rules.deal.columns:
            return QuickCheck("deal", False, f"deal {number} does not follow deal.columns")
    return QuickCheck(
        "deal", True, f"deals {', '.join(map(str, deals))} place every card exactly once"
    )


def _random_play(
    rules: Rules, deals: tuple[int, ...], moves: int, seed: int, cancel: threading.Event | None
) -> QuickCheck:
    rng = random.Random(seed)
    made = games = 0
    while made < moves:
        if cancel is not None and cancel.is_set():
            break
        number = deals[games % len(deals)]
        games += 1
        state, _ = autoplay_moves(deal(rules, number))
        expected = _cards(state)
        for _step in range(max(1, moves // len(deals))):
            legal = legal_moves(state)
            if not legal or made >= moves:
                break
            move = rng.choice(legal)
            where = f"deal {number}, move {move} after {_step} moves"
            if not is_legal(state, move) or explain(state, move) is not None:
                return QuickCheck(
                    "random-play", False, f"{where}: listed as legal, but is_legal says no"
                )
            try:
                state, _ = autoplay_moves(apply(state, move))
            except Exception as exc:  # the check reports whatever the engine raised
                return QuickCheck("random-play", False, f"{where}: {type(exc).__name__}: {exc}")
            made += 1
            if _cards(state) != expected:
                return QuickCheck("random-play", False, f"{where}: a card appeared or vanished")
    return QuickCheck("random-play", True, f"{made} random moves in {games} games all applied")


def quick_checks(
    rules: Rules,
    *,
    moves: int = 300,
    deals: tuple[int, ...] = (1, 2, 3),
    depth: int = 2,
    seed: int = 0,
    cancel: threading.Event | None = None,
    on_check: Callable[[QuickCheck], object] | None = None,
) -> list[QuickCheck]:
    """Run the quick checks on a resolved variant; never raises for a fault of the variant
    (an exception becomes a failed :class:`QuickCheck`).

    :param rules: the variant with its options chosen.
    :param moves: random moves to play in all, spread over ``deals``.
    :param deals: deal numbers to check and to play.
    :param depth: the perft depth from the first deal.
    :param seed: the random generator's seed: the same seed plays the same moves.
    :param cancel: set it to stop early (the checks done so far are returned).
    :param on_check: called with each result as it is known (on the calling thread).
    """
    steps: list[tuple[str, Callable[[], QuickCheck]]] = [
        ("deal", lambda: _check_deals(rules, deals)),
        ("random-play", lambda: _random_play(rules, deals, moves, seed, cancel)),
        ("perft", lambda: _perft(rules, deals[0], depth)),
    ]
    results = []
    for name, step in steps:
        if cancel is not None and cancel.is_set():
            break
        try:
            result = step()
        except Exception as exc:  # a fault of the variant is a failed check
            result = QuickCheck(name, False, f"{type(exc).__name__}: {exc}")
        results.append(result)
        if on_check is not None:
            on_check(result)
        if not result.ok and name == "deal":
            break  # nothing else can run on a broken deal
    return results


def _perft(rules: Rules, number: int, depth: int) -> QuickCheck:
    counts = perft(rules, number, depth)
    per_depth = ", ".join(
        f"depth {d}: {s} move sequences, {p} positions"
        for d, (s, p) in enumerate(zip(counts.sequences, counts.positions, strict=True), 1)
    )
    return QuickCheck("perft", True, f"deal {number}, {per_depth}")
