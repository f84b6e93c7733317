"""Which of the solver's other scores win the deals its own score leaves undecided.

For each deal given, every score of :func:`solitaire_core.solver.search.fallback_weights`
searches alone (``ideas={"weights": ...}``) with ``--budget`` positions, on the C engine.
A best-first search stores positions in the same order whatever its budget, so a win after
N positions here is a win at any budget of N or more: one run at the largest budget
answers for every smaller one (docs/solver.md, "Other scores"). Extra scores to try go
in ``--score`` as JSON; ``--restarts N`` adds the solver's restarts (the game's own score
with the noise term, seeds 1 to N, until one decides; docs/solver.md, "Restarts"), or with
``--shuffled`` its shuffled searches (the cards left alone, noise 19: ``SHUFFLED``;
"Shuffled searches"); ``--noise N`` changes the noise weight of either, and
``--no-others`` leaves out the other scores. Run from the project root::

    python benchmarks/bench_scores.py double-freecell:3,15,41 streets-and-alleys:4,29
    python benchmarks/bench_scores.py simple-simon:30,123 --score '{"unsettled": 5}'
    python benchmarks/bench_scores.py der-katzenschwanz:6,9 --budget 100000 --no-others \
        --restarts 10
    python benchmarks/bench_scores.py good-measure:13,30,34 --budget 100000 --no-others \
        --restarts 10 --shuffled --noise 6

Prints one line per deal and score (verdict, positions, CPU seconds), then per game how
many deals each score decides within the whole budget and within a tenth and a third of
it; ``--csv FILE`` keeps the lines.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import Verdict, solve
from solitaire_core.solver.search import RESTART_NOISE, SHUFFLED, fallback_weights, tables_for


def parse_game(text: str) -> tuple[str, list[int]]:
    """``"ID:1,5,9"`` -> ``("ID", [1, 5, 9])``.

    :raises argparse.ArgumentTypeError: without a colon or with a deal that is not a
        positive whole number.
    """
    variant, sep, numbers = text.partition(":")
    try:
        deals = [int(n) for n in numbers.split(",")] if sep else []
    except ValueError:
        deals = []
    if not variant or not deals or min(deals) < 1:
        raise argparse.ArgumentTypeError(f"expected VARIANT:N,N,... got {text!r}")
    return variant, deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", type=parse_game, metavar="VARIANT:N,N,...")
    parser.add_argument("--budget", type=int, default=1_000_000, help="positions per search")
    parser.add_argument("--score", action="append", default=[], help="another score, JSON")
    parser.add_argument("--csv", help="write the lines to this file too")
    parser.add_argument("--restarts", type=int, default=0, help="restarts, seeds 1 to N")
    parser.add_argument("--no-others", action="store_true", help="leave out the other scores")
    parser.add_argument(
        "--shuffled", action="store_true", help="restarts with the shuffled searches' score"
    )
    parser.add_argument("--noise", type=int, help="the restarts' noise weight")
    args = parser.parse_args()
    extra = [json.loads(s) for s in args.score]
    restart = dict(SHUFFLED) if args.shuffled else {"noise": RESTART_NOISE}
    if args.noise is not None:
        restart["noise"] = args.noise
    name = "shuffled" if args.shuffled else "restarts"
    rows: list[tuple[str, int, str, str, int, float]] = []
    for variant, numbers in args.games:
        rules = get_variant(variant).resolve()
        for number in numbers:
            state = deal(rules, number)
            others = () if args.no_others else fallback_weights(tables_for(rules, state.bases))
            searches = [(json.dumps(w, sort_keys=True), {"weights": w}) for w in (*others, *extra)]
            searches += [
                (f"{name} (seed {seed})", {"weights": restart, "seed": seed})
                for seed in range(1, args.restarts + 1)
            ]
            for score, ideas in searches:
                started = time.process_time()
                result = solve(state, engine="c", max_states=args.budget, ideas=ideas)
                cpu = time.process_time() - started
                rows.append((variant, number, score, result.verdict.value, result.positions, cpu))
                print(
                    f"{variant} #{number} {score}: {result.verdict.value}, "
                    f"{result.positions:,} positions, {cpu:.2f} s",
                    flush=True,
                )
                if "seed" in ideas and result.decided:
                    break  # the later seeds are not run
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as fh:
            out = csv.writer(fh)
            out.writerow(["variant", "deal", "score", "verdict", "positions", "cpu_s"])
            out.writerows(rows)
    print()
    for variant, numbers in args.games:
        for share in (10, 3, 1):
            limit = args.budget // share
            won: dict[str, list[int]] = {}
            for v, number, score, verdict, positions, _ in rows:
                if v == variant and verdict != Verdict.UNDECIDED.value and positions <= limit:
                    won.setdefault(score.split(" (")[0], []).append(number)
            decided = sorted({n for ns in won.values() for n in ns})
            parts = ", ".join(f"{s}: {len(ns)}" for s, ns in won.items()) or "none"
            print(
                f"{variant}, {len(numbers)} deals, {limit:,} positions each: {parts}; "
                f"together {len(decided)} {decided}"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
