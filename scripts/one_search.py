"""Solve again the deals an atlas CSV holds as undecided, each with one search of the
game's own score that may store the whole budget: no turns, other scores, restarts or
shuffled searches.

Why: a deal is proved lost only by a search that stores every position reachable from
it. In the solver's schedule (docs/solver.md, "The search") the largest single search is
the game's own, with about a tenth of the budget (about 1,000,000 positions of the
default 10,000,000), and the other searches share the rest; so a lost deal whose
reachable positions number between one and ten million stays undecided although the
budget would hold them. One search with the whole budget proves it. That search is
complete as every search is, so its verdict is a proof (and a win it finds is replayed
through a session before it is handed out, as always). Measured on eight undecided
deals of each atlas row at 9,000,000 positions (1 December 2026): Bisley 7 proved lost
(1.6 to 7.4 million positions each), Beleaguered Castle 4 lost (1.1 to 4.0 million),
King Albert 1 lost and 2 won, Streets and Alleys 2 won.

Usage, from the project root::

    python scripts/one_search.py beleaguered-castle
    python scripts/one_search.py bisley --csv benchmarks/results/atlas_bisley.csv
    python scripts/one_search.py die-schlange --deals 7803-10000   # only those deals

A deal decided now gets its new row (verdict, positions, seconds, moves; the solution
column stays empty as in the atlas files); a deal still undecided keeps its old row. The
file is rewritten after each decided deal, under the survey's lock: while a survey
writes the file this script refuses to start, and a survey started meanwhile refuses the
file. It prints one line a deal and the count at the end.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from solitaire_core.errors import SolitaireError
from solitaire_core.persistence.locks import locked
from solitaire_core.plugins import get_variant
from solitaire_core.solver import DEFAULT_MAX_STATES, solve_deal
from solitaire_core.solver.survey import SurveyRow, parse_deals, read_rows, write_sorted

RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "results"


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, solve each undecided deal once more; returns 0."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("variant", help="variant id; its atlas file is the default --csv")
    parser.add_argument("--csv", type=Path, help="the survey CSV (default: the atlas file)")
    parser.add_argument(
        "--max-states", type=int, default=DEFAULT_MAX_STATES, help="positions per deal"
    )
    parser.add_argument(
        "--deals",
        default=None,
        help="only the undecided deals in this range, as FIRST-LAST (default: all of them)",
    )
    args = parser.parse_args(argv)
    path = args.csv or RESULTS / f"atlas_{args.variant}.csv"
    try:
        wanted = None if args.deals is None else parse_deals(args.deals)
    except SolitaireError as exc:
        parser.error(str(exc))
    if args.max_states < 1:
        parser.error("--max-states must be at least 1")
    if not path.is_file():
        parser.error(f"{path}: no such file")
    try:
        rules = get_variant(args.variant).resolve()
    except SolitaireError as exc:
        parser.error(str(exc))
    with locked(path, timeout=0, busy=lambda p: SystemExit(f"{p}: a survey holds it")):
        with path.open(newline="", encoding="utf-8") as fh:
            first = next(csv.DictReader(fh), None)
        if first is None:
            raise SystemExit(f"{path}: no rows")
        try:
            rows = read_rows(path, args.variant, first["options"])
        except SolitaireError as exc:
            raise SystemExit(str(exc)) from None
        if first["options"]:
            raise SystemExit(f"{path}: rows with options ({first['options']}) are not handled")
        undecided = sorted(
            d
            for d, row in rows.items()
            if row.verdict == "undecided" and (wanted is None or d in wanted)
        )
        decided = 0
        for number in undecided:
            started = time.process_time()
            result = solve_deal(rules, number, max_states=args.max_states, ideas={"weights": {}})
            seconds = time.process_time() - started
            print(f"{args.variant} #{number}: {result.verdict.value}, {result.positions} "
                  f"positions, {seconds:.1f} s", flush=True)  # fmt: skip
            if not result.decided:
                continue
            decided += 1
            rows[number] = SurveyRow(
                variant=args.variant,
                options="",
                deal=number,
                verdict=result.verdict.value,
                positions=result.positions,
                seconds=result.seconds,
                moves=len(result.moves),
            )
            write_sorted(path, rows.values())
    print(f"{decided} of {len(undecided)} undecided deals decided")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
