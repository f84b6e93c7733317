"""Benchmark of the rules core: legal-move generation and ``apply`` on random playouts.

For each variant, seeded random playouts (deal N is played with ``random.Random(N)``,
autoplay after every move, as a session plays) collect a fixed set of positions and one
legal move in each. Then, timed separately:

* ``legal_moves``: :func:`solitaire_core.rules.legal_moves` on every collected position;
* ``apply``: :func:`solitaire_core.rules.apply` (checked) of the chosen move;
* ``playout``: a whole random playout step (generate, choose, apply, autoplay).

Rates are positions (calls) per second of CPU time (``time.process_time``, so other
load on the machine matters less), best of ``--repeat`` runs. Run from the project
root::

    python benchmarks/bench_rules.py                       # table + benchmarks/results/
    python benchmarks/bench_rules.py --deals 5 --json -    # quick, JSON on stdout

The JSON file records the machine and Python version with the numbers; numbers from
different machines are not comparable.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from solitaire_core.deal import deal
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import _play, apply, autoplay_moves, legal_moves
from solitaire_core.state import GameState

DEFAULT_VARIANTS = ("seahaven", "double-sea-towers")
RESULTS = Path(__file__).parent / "results" / "bench_rules.json"


def collect(variant_id: str, deals: int, max_moves: int) -> list[tuple[GameState, Move]]:
    """Positions of seeded random playouts with one legal move chosen in each.

    :param deals: playouts of deals 1..deals, deal N seeded with ``random.Random(N)``.
    :param max_moves: the most player moves per playout (it stops earlier when stuck).
    :return: (position, legal move) pairs, in playout order.
    """
    rules = get_variant(variant_id).resolve()
    out: list[tuple[GameState, Move]] = []
    for number in range(1, deals + 1):
        rng = random.Random(number)
        state, _ = autoplay_moves(deal(rules, number))
        for _ in range(max_moves):
            moves = legal_moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            out.append((state, move))
            state, _ = autoplay_moves(_play(state, move))
    return out


def best_rate(fn: Callable[[], int], repeat: int) -> float:
    """Calls per second of the fastest of ``repeat`` runs of ``fn`` (which returns how
    many calls it made)."""
    best = 0.0
    for _ in range(repeat):
        start = time.process_time()
        calls = fn()
        elapsed = time.process_time() - start
        best = max(best, calls / elapsed)
    return best


def bench_variant(variant_id: str, deals: int, max_moves: int, repeat: int) -> dict[str, float]:
    """Rates for one variant: ``legal_moves``, ``apply`` and ``playout`` per second, plus
    the mean number of legal moves per position."""
    pairs = collect(variant_id, deals, max_moves)
    states = [s for s, _ in pairs]

    def run_legal() -> int:
        for s in states:
            legal_moves(s)
        return len(states)

    def run_apply() -> int:
        for s, m in pairs:
            apply(s, m)
        return len(pairs)

    def run_playout() -> int:
        return len(collect(variant_id, deals, max_moves))

    mean_moves = sum(len(legal_moves(s)) for s in states) / max(len(states), 1)
    return {
        "positions": len(states),
        "mean_legal_moves": round(mean_moves, 1),
        "legal_moves_per_s": round(best_rate(run_legal, repeat)),
        "apply_per_s": round(best_rate(run_apply, repeat)),
        "playout_steps_per_s": round(best_rate(run_playout, repeat)),
    }


def format_table(results: dict[str, dict[str, float]]) -> str:
    """The results as a plain-text table, one row per variant."""
    head = ("variant", "positions", "moves/pos", "legal_moves/s", "apply/s", "playout steps/s")
    rows = [head] + [
        (
            vid,
            str(r["positions"]),
            f"{r['mean_legal_moves']:.1f}",
            f"{r['legal_moves_per_s']:,.0f}",
            f"{r['apply_per_s']:,.0f}",
            f"{r['playout_steps_per_s']:,.0f}",
        )
        for vid, r in results.items()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = [
        "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths)))
        for row in rows
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark, print the table and write the JSON result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS))
    parser.add_argument("--deals", type=int, default=50, help="playouts per variant (deals 1..N)")
    parser.add_argument("--moves", type=int, default=200, help="most moves per playout")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure; best counts")
    parser.add_argument(
        "--json", default=str(RESULTS), help="where to write the JSON result ('-' for stdout)"
    )
    args = parser.parse_args(argv)
    results = {
        vid: bench_variant(vid, args.deals, args.moves, args.repeat) for vid in args.variants
    }
    print(format_table(results), end="")
    report = {
        "benchmark": "bench_rules",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "platform": platform.platform(),
        "settings": {"deals": args.deals, "moves": args.moves, "repeat": args.repeat},
        "results": results,
    }
    text = json.dumps(report, indent=2) + "\n"
    if args.json == "-":
        print(text, end="")
    else:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
