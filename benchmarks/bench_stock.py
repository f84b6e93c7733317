"""The thoughtful search on the games with a stock or face-down cards: how many of a
range of deals it decides, and at what CPU.

For every built-in variant whose rules hide cards (``Rules.hidden_cards``: a stock, a
waste or face-down cards), solve deals ``--first`` to ``--last`` from the start, each
within ``--max-states`` positions, and print one row per game: won / lost / undecided,
CPU seconds of the solve calls, the most positions one deal took; then the undecided
deals with their positions and seconds. The verdicts are thoughtful (the search knows
the face-down cards and the stock's order, as Solvitaire's do).

Run::

    python benchmarks/bench_stock.py --first 1 --last 100 --max-states 5000

``--only klondike,spider`` limits the games; ``--out FILE`` writes the rows as JSON too;
``--engine python`` runs the pure-Python reference where the compiled search would run
(``c``: the compiled one, an error for a game it does not play; ``auto``, the default:
the compiled one where it plays the game).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tqdm import tqdm

from solitaire_core.plugins import get_registry
from solitaire_core.solver import Verdict, solve_deal


def hidden_card_variants() -> list[str]:
    """The built-in variants with a stock or face-down cards, by id."""
    registry = get_registry()
    return sorted(
        vid
        for vid, d in registry.variants.items()
        if d.plugin == "solitaire_variants" and d.resolve().hidden_cards
    )


def bench(
    variant: str, first: int, last: int, max_states: int, engine: str = "auto"
) -> dict[str, object]:
    """Solve the deals of one variant with ``engine`` (``"auto"``, ``"c"`` or
    ``"python"``); the row of the table as a dict."""
    rules = get_registry().get(variant).resolve()
    counts = {v.value: 0 for v in Verdict}
    undecided: list[tuple[int, int, float]] = []
    most = 0
    started = time.process_time()
    for number in range(first, last + 1):
        t0 = time.process_time()
        result = solve_deal(rules, number, max_states=max_states, engine=engine)
        spent = time.process_time() - t0
        counts[result.verdict.value] += 1
        most = max(most, result.positions)
        if result.verdict is Verdict.UNDECIDED:
            undecided.append((number, result.positions, round(spent, 2)))
    return {
        "variant": variant,
        "deals": f"{first}-{last}",
        "won": counts["winnable"],
        "lost": counts["unwinnable"],
        "undecided": counts["undecided"],
        "cpu_s": round(time.process_time() - started, 1),
        "most_positions": most,
        "undecided_deals": undecided,
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: prints the table (and writes ``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=100)
    parser.add_argument("--max-states", type=int, default=5000)
    parser.add_argument("--only", default="", help="comma-separated variant ids")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--engine", choices=("auto", "c", "python"), default="auto")
    args = parser.parse_args(argv)
    variants = [v for v in args.only.split(",") if v] or hidden_card_variants()
    rows = []
    print("| game | deals | won | lost | undecided | CPU s | most positions |")
    print("|---|---|---|---|---|---|---|")
    for variant in tqdm(variants, desc="games", leave=False):
        row = bench(variant, args.first, args.last, args.max_states, args.engine)
        rows.append(row)
        print(
            f"| {variant} | {row['deals']} | {row['won']} | {row['lost']} | "
            f"{row['undecided']} | {row['cpu_s']} | {row['most_positions']:,} |",
            flush=True,
        )
    for row in rows:
        if row["undecided_deals"]:
            print(f"{row['variant']} undecided (deal, positions, s): {row['undecided_deals']}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
