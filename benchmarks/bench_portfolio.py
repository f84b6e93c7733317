"""Would short searches with several scores, taken in turns, find wins in fewer positions
than one long search with the game's own score? Measured deal by deal, then simulated.

For deals ``--first`` to ``--last`` of ``--variant``, each score of the game's portfolio
(its own weights, :func:`~solitaire_core.solver.heuristic.default_weights`, then each of
:func:`~solitaire_core.solver.search.fallback_weights`, the scores ``solve`` tries once its
own has run out of positions) searches the deal alone (``ideas={"weights": ...}``: no
fallbacks, no restarts) within ``--budget`` positions, and the positions it stored to
decide the deal are recorded (or "not within the budget").

A search with fixed weights is deterministic and stores positions in the same order
whatever its budget: a search that decides a deal at N positions decides it at N within
any budget of N or more, and stops undecided below. So the cost of any schedule of
restarts can be computed from these counts without searching again. The schedules:

* ``own``: the game's own score alone, up to the budget (``solve``'s first search);
* ``turns B0xF``: each score in turn with B0 positions, then each with B0 * F, and so on
  while below the budget, then the own score with the whole budget; the cost of a deal is
  the positions of every search run until one decides it.

A deal is lost only when a search runs out of positions to try within its budget (every
score then proves it: the positions reachable are the same), so the simulation holds for
lost deals too. Writes the counts and the table to ``--out`` (JSON).

Usage (a few minutes on FreeCell 1-1000; nice it beside other work)::

    nice -n 5 python benchmarks/bench_portfolio.py --variant freecell --first 1 --last 1000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver.heuristic import default_weights
from solitaire_core.solver.search import fallback_weights, solve, tables_for

RESULTS = Path(__file__).resolve().parent / "results"
NEVER = 10**18
"""The cost of a deal no search of a schedule decides (not counted in the sums)."""


def scores(variant: str) -> list[dict[str, int]]:
    """The game's own weights, then each other score ``solve`` falls back on."""
    tables = tables_for(get_variant(variant).resolve())
    own = default_weights(tables)
    return [own] + [{**own, **w} for w in fallback_weights(tables)]


def measure(variant: str, first: int, last: int, budget: int) -> dict[str, list[int]]:
    """Per score (its weights as JSON), per deal: the positions that decided it, or
    ``-positions`` when the budget ran out first."""
    rules = get_variant(variant).resolve()
    out: dict[str, list[int]] = {}
    for weights in scores(variant):
        row = []
        for number in range(first, last + 1):
            result = solve(deal(rules, number), ideas={"weights": weights}, max_states=budget)
            decided = result.verdict.value != "undecided"
            row.append(result.positions if decided else -result.positions)
        out[json.dumps(weights, sort_keys=True)] = row
    return out


def cost(counts: dict[str, list[int]], schedule: list[tuple[str, int]], deal_index: int) -> int:
    """What ``schedule`` (score, budget) costs on one deal: the positions of each search
    run until one decides it, or :data:`NEVER`."""
    spent = 0
    for key, budget in schedule:
        needed = counts[key][deal_index]
        if 0 < needed <= budget:
            return spent + needed
        spent += budget
    return NEVER


def simulate(counts: dict[str, list[int]], budget: int) -> list[dict[str, object]]:
    """The table: per schedule, positions of all deals it decides, deals left undecided,
    and the most one deal cost."""
    keys = list(counts)
    deals = len(counts[keys[0]])
    schedules: dict[str, list[tuple[str, int]]] = {"own": [(keys[0], budget)]}
    for start in (2_000, 5_000, 10_000):
        for factor in (4, 8):
            steps: list[tuple[str, int]] = []
            size = start
            while size < budget:
                steps += [(key, size) for key in keys]
                size *= factor
            schedules[f"turns {start}x{factor}"] = [*steps, (keys[0], budget)]
    rows = []
    for name, schedule in schedules.items():
        costs = [cost(counts, schedule, i) for i in range(deals)]
        decided = [c for c in costs if c < NEVER]
        rows.append(
            {
                "schedule": name,
                "positions": sum(decided),
                "undecided": deals - len(decided),
                "most": max(decided, default=0),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: measures, prints the table and writes the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="freecell")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=1000)
    parser.add_argument("--budget", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    started = time.process_time()
    counts = measure(args.variant, args.first, args.last, args.budget)
    rows = simulate(counts, args.budget)
    deals = f"{args.first}-{args.last}"
    print(f"{args.variant} deals {deals}, {len(counts)} scores, budget {args.budget:,}")
    print("| schedule | positions, decided deals | undecided | most for one deal |")
    print("|---|---|---|---|")
    for row in rows:
        figures = f"{row['positions']:,} | {row['undecided']} | {row['most']:,}"
        print(f"| {row['schedule']} | {figures} |")
    out = args.out or RESULTS / f"bench_portfolio_{args.variant}_{deals}.json"
    out.write_text(
        json.dumps(
            {
                "variant": args.variant,
                "deals": deals,
                "budget": args.budget,
                "cpu_s": round(time.process_time() - started, 1),
                "table": rows,
                "positions": counts,
            }
        )
        + "\n",
        "utf-8",
    )
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
