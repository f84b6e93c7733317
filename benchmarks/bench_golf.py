"""The one-foundation solver (solitaire_core/solver/golf.py) against Shlomi Fish's
black-hole-solver, deal by deal.

For deals 1-N of Golf, Black Hole and All in a Row, prints our verdict and
black-hole-solver's side by side (a disagreement between two decided verdicts is flagged
``DIFFER``) with the CPU time of each, and writes benchmarks/results/bench_golf.json.

black-hole-solver is the PyPI package ``black-hole-solver`` (a cffi wrapper; it needs the
C library ``libblack_hole_solver.so.1`` of https://github.com/shlomif/black-hole-solver).
It is asked the way PySolFC's ``BlackHoleSolverWrapper`` asks it
(pysollib/hint.py, pysollib/games/golf.py): Golf with the ``golf`` preset and
``queens_on_kings`` (PySolFC's ``Golf``; without it the solver plays Dead King Golf's
rule), no ``wrap_ranks`` (PySolFC's Relaxed Golf wraps), base rank 0; Black Hole with
``black_hole``; All in a Row with ``all_in_a_row``. Without the library the comparison
is skipped and the file says why.

Usage: ``python benchmarks/bench_golf.py [--deals 100] [--max-states 10000000]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver.search import solve
from solitaire_core.textview import format_pysol

GAMES = {"golf": "golf", "black-hole": "black_hole", "all-in-a-row": "all_in_a_row"}
RESULTS = Path(__file__).resolve().parent / "results" / "bench_golf.json"


def _theirs_solver() -> tuple[object | None, str]:
    """(a black-hole-solver instance maker, "") or (None, why it cannot run)."""
    try:
        from black_hole_solver import BlackHoleSolver
    except ImportError as exc:
        return None, f"black-hole-solver is not installed: {exc}"
    try:
        BlackHoleSolver()
    except (OSError, ImportError) as exc:
        return None, f"black-hole-solver's C library cannot be loaded: {exc}"
    return BlackHoleSolver, ""


def _theirs(maker: object, game: str, board: str, max_iters: int) -> str:
    """black-hole-solver's verdict on ``board`` (pysol_cards' layout text)."""
    solver = maker()  # type: ignore[operator]
    solver.read_board(
        board=board,
        game_type=game,
        place_queens_on_kings=(game == "golf"),
        wrap_ranks=False if game == "golf" else True,
    )
    solver.limit_iterations(max_iters)
    ret = solver.resume_solution()
    solver.recycle()
    if ret == 0:
        return "winnable"
    if ret == solver.BLACK_HOLE_SOLVER__OUT_OF_ITERS:
        return "undecided"
    return "unwinnable"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--max-states", type=int, default=10_000_000)
    args = parser.parse_args()
    maker, why = _theirs_solver()
    if why:
        print(f"# {why}: only our verdicts are shown")
    out: dict[str, object] = {"deals": f"1-{args.deals}", "black_hole_solver": why or "ok"}
    for variant, game in GAMES.items():
        rules = get_variant(variant).resolve()
        rows = []
        ours_cpu = theirs_cpu = 0.0
        print(f"\n{rules.name}\n deal  ours        cpu s   theirs      cpu s")
        for number in range(1, args.deals + 1):
            state = deal(rules, number)
            t0 = time.process_time()
            verdict = solve(state, max_states=args.max_states).verdict.value
            t1 = time.process_time()
            theirs, spent = "-", 0.0
            if maker is not None:
                theirs = _theirs(maker, game, format_pysol(state), args.max_states)
                spent = time.process_time() - t1
            ours_cpu += t1 - t0
            theirs_cpu += spent
            differ = "winnable" in (verdict, theirs) and {verdict, theirs} == {
                "winnable",
                "unwinnable",
            }
            flag = "  DIFFER" if differ else ""
            print(f" {number:4}  {verdict:<10} {t1 - t0:6.2f}   {theirs:<10} {spent:6.2f}{flag}")
            rows.append(
                {
                    "deal": number,
                    "ours": verdict,
                    "ours_cpu": round(t1 - t0, 3),
                    "theirs": theirs,
                    "theirs_cpu": round(spent, 3),
                    "differ": differ,
                }  # fmt: skip
            )
        counts = {
            v: sum(r["ours"] == v for r in rows) for v in ("winnable", "unwinnable", "undecided")
        }
        print(f" ours: {counts}, {ours_cpu:.1f} s CPU; theirs: {theirs_cpu:.1f} s CPU; "
              f"disagreements: {sum(bool(r['differ']) for r in rows)}")  # fmt: skip
        out[variant] = {"ours": counts, "ours_cpu": round(ours_cpu, 1),
                        "theirs_cpu": round(theirs_cpu, 1), "deals": rows}  # fmt: skip
    RESULTS.write_text(json.dumps(out, indent=1) + "\n", "utf-8")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()
