"""The games with a depth-first search of their own, deal by deal: Pyramid
(solitaire_core/solver/pairs.py), TriPeaks and Golf (solitaire_core/solver/golf.py),
Aces Up (solitaire_core/solver/discards.py, with ``--games aces-up``).

For deals ``--first`` to ``--last`` of each game, solve the deal from its start as a
player's solve does (``solve_deal``, which dispatches to the game's own search), within
``--max-states`` positions, and replay every win with the core's rules
(``solitaire_core.rules.apply`` from ``deal(rules, n)``) to a won state. One row per
game: won / lost / undecided, CPU seconds, the positions of all deals and the most one
deal took, and the wins whose replay failed (always 0, or a bug).

With ``--check-states N`` each deal is searched too by the best-first search of
solitaire_core/solver/stock.py (the search these games had before) within N positions,
and the row counts the deals both decide (``both``) and those where the two disagree.

The verdicts are thoughtful (the searches know the stock's order and the face-down
cards). Writes benchmarks/results/bench_dfs.json (``--out`` to change it).

Usage (nice: it takes minutes)::

    nice -n 10 python benchmarks/bench_dfs.py --first 1 --last 100 --check-states 20000
    nice -n 5 python benchmarks/bench_dfs.py --games aces-up --max-states 60000000 \
        --check-states 20000 --out benchmarks/results/bench_dfs_aces_up.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply
from solitaire_core.solver import stock
from solitaire_core.solver.search import solve

GAMES = ("pyramid", "tri-peaks", "golf")
RESULTS = Path(__file__).resolve().parent / "results" / "bench_dfs.json"


def bench(variant: str, first: int, last: int, max_states: int, check: int) -> dict[str, object]:
    """One game's deals: the row of the table as a dict, with each deal's verdict,
    positions and CPU seconds under ``"deals"``."""
    rules = get_variant(variant).resolve()
    counts = {"winnable": 0, "unwinnable": 0, "undecided": 0}
    rows = []
    cpu = 0.0
    failed = both = 0
    differ: list[int] = []
    for number in range(first, last + 1):
        start = deal(rules, number)
        t0 = time.process_time()
        result = solve(start, max_states=max_states)
        spent = time.process_time() - t0
        cpu += spent
        verdict = result.verdict.value
        counts[verdict] += 1
        row: dict[str, object] = {
            "deal": number,
            "verdict": verdict,
            "positions": result.positions,
            "cpu": round(spent, 3),
        }
        if verdict == "winnable":
            state = start
            for move in result.moves:
                state = apply(state, move)
            row["moves"] = len(result.moves)
            if not state.is_won:
                failed += 1
                row["replay"] = "does not win"
        if check:
            theirs = stock.search(
                start, policy="off", max_states=check, deadline=None, cancel=None, progress=None
            )[0]
            row["best_first"] = theirs
            if theirs != "undecided" and verdict != "undecided":
                both += 1
                if theirs != verdict:
                    differ.append(number)
        rows.append(row)
    positions = [int(str(r["positions"])) for r in rows]
    return {
        "variant": variant,
        "deals": f"{first}-{last}",
        "won": counts["winnable"],
        "lost": counts["unwinnable"],
        "undecided": counts["undecided"],
        "cpu_s": round(cpu, 1),
        "positions": sum(positions),
        "most_positions": max(positions, default=0),
        "replay_failures": failed,
        "best_first_states": check,
        "both_decide": both,
        "disagreements": differ,
        "per_deal": rows,
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: prints the table and writes the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=100)
    parser.add_argument("--max-states", type=int, default=1_000_000)
    parser.add_argument("--check-states", type=int, default=0)
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated variant ids")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    out = []
    print("| game | deals | won | lost | undecided | CPU s | positions | most | both | differ |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for variant in [g for g in args.games.split(",") if g]:
        row = bench(variant, args.first, args.last, args.max_states, args.check_states)
        out.append(row)
        print(
            f"| {variant} | {row['deals']} | {row['won']} | {row['lost']} | {row['undecided']} "
            f"| {row['cpu_s']} | {row['positions']:,} | {row['most_positions']:,} "
            f"| {row['both_decide'] if args.check_states else '-'} "
            f"| {row['disagreements'] or 'none' if args.check_states else '-'} |",
            flush=True,
        )
        if row["replay_failures"]:
            print(f"  {row['replay_failures']} win(s) of {variant} did not replay to a win")
    args.out.write_text(json.dumps(out, indent=1) + "\n", "utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
