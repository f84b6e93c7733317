r"""The one-foundation solver (solitaire_core/solver/golf.py) against Shlomi Fish's
black-hole-solver, deal by deal.

For deals 1-N of Golf, Dead King Golf, Black Hole and All in a Row, prints our verdict
and black-hole-solver's side by side (a disagreement between two decided verdicts is
flagged ``DIFFER``) with the CPU time of each, and writes
benchmarks/results/bench_golf.json. Where the two disagree, the winning side's moves are
replayed in our engine (``solitaire_core.rules.apply`` on ``deal(rules, n)``) and the row
says whether they win (``replay``).

black-hole-solver is the PyPI package ``black-hole-solver`` (a cffi wrapper; it needs the
C library ``libblack_hole_solver.so.1`` of https://github.com/shlomif/black-hole-solver,
a benchmark tool only, not a dependency of the package). It is given the rule flags of
the rules PySolFC's games enforce (``Golf_Waste.acceptsCards`` and the games' stacks in
pysollib/games/golf.py), which are the flags PySolFC's ``BlackHoleSolver_Hint``
(pysollib/hint.py) passes to the command-line solver. Its library path differs: it
passes ``wrap_ranks`` and ``place_queens_on_kings`` as True wherever the game's
``BlackHoleSolverWrapper`` leaves them out, so for Golf and Dead King Golf it would
search with wrapping ranks (and a Queen on a King in Dead King Golf), which these games
do not allow. The flags used here:

- Golf (PySolFC 36): game ``golf``, ``queens_on_kings`` on, ``wrap_ranks`` off (a Queen
  goes on a King; no Ace on King nor King on Ace: PySolFC's Relaxed Golf is the one that
  wraps).
- Dead King Golf (PySolFC 259): game ``golf``, both off: nothing goes on a King but the
  next stock card (the C solver's own Golf rule without ``--queens-on-kings``).
- Black Hole (PySolFC 98) and All in a Row (PySolFC 405): games ``black_hole`` and
  ``all_in_a_row``, ``wrap_ranks`` on (King and Ace are next to each other).

Without the library the comparison is skipped and the file says why.

Building the C library (CMake, in the black-hole-solitaire repository's ``c-solver``
folder; it wants rinutils' headers at tag 0.6.0 in ``rinutils/``, the xxHash-wrapper
submodule in ``xxHash-wrapper/`` and ``cmake/Shlomif_Common.cmake`` from
shlomif-cmake-modules, which it would otherwise clone or download, and Perl's Path::Tiny
for a generated source). As built here, from git copies of the four repositories::

    apt-get install -y cmake gcc make perl libpath-tiny-perl python3
    mkdir /tmp/bhs && git -C black-hole-solitaire archive HEAD | tar -x -C /tmp/bhs
    cd /tmp/bhs/black-hole-solitaire/c-solver
    mkdir rinutils xxHash-wrapper
    git -C /path/to/rinutils archive 0.6.0 | tar -x -C rinutils
    git -C /path/to/xxHash-wrapper archive HEAD | tar -x -C xxHash-wrapper
    git -C /path/to/shlomif-cmake-modules show \
        HEAD:shlomif-cmake-modules/Shlomif_Common.cmake > cmake/Shlomif_Common.cmake
    mkdir /tmp/bhs-build && cd /tmp/bhs-build
    cmake -DCMAKE_BUILD_TYPE=Release -DFCS_WITH_TEST_SUITE=OFF \
        -DCMAKE_INSTALL_PREFIX=/usr/local /tmp/bhs/black-hole-solitaire/c-solver
    make -j2 && make install && ldconfig

This installs ``/usr/local/lib/libblack_hole_solver.so.1`` and the command-line
``black-hole-solve`` (``black-hole-solve --game golf --queens-on-kings FILE``; its
``--help`` lists only ``black_hole`` and ``all_in_a_row`` but it takes ``golf``,
``--queens-on-kings``/``--no-queens-on-kings`` and ``--wrap-ranks``/``--no-wrap-ranks``).

Usage (nice: it takes minutes)::

    nice -n 10 python benchmarks/bench_golf.py [--deals 100] [--max-states 10000000]
        [--engine auto|c|python]

Our side is ``solve`` as a player's hint or the survey runs it (the compiled search by
default; ``--engine python`` for the reference), its CPU time including the deal's set-up
and the check that the winning line replays.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from solitaire_core.deal import deal
from solitaire_core.errors import IllegalMoveError
from solitaire_core.moves import Move, foundation, stock, tableau
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply
from solitaire_core.solver.search import solve
from solitaire_core.state import GameState
from solitaire_core.textview import format_pysol

# variant: (black-hole-solver's game, place_queens_on_kings, wrap_ranks)
GAMES = {
    "golf": ("golf", True, False),
    "dead-king-golf": ("golf", False, False),
    "black-hole": ("black_hole", False, True),
    "all-in-a-row": ("all_in_a_row", False, True),
}
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


def _theirs(
    maker: object, flags: tuple[str, bool, bool], board: str, max_iters: int
) -> tuple[str, tuple[Move, ...]]:
    """black-hole-solver's verdict on ``board`` (pysol_cards' layout text), with the
    moves of its win in our notation (its column index, or the column count for the
    stock)."""
    game, queens_on_kings, wrap_ranks = flags
    solver = maker()  # type: ignore[operator]
    solver.read_board(
        board=board,
        game_type=game,
        place_queens_on_kings=queens_on_kings,
        wrap_ranks=wrap_ranks,
    )
    solver.limit_iterations(max_iters)
    ret = solver.resume_solution()
    if ret == 0:
        columns = solver.NUM_COLUMNS[game]
        moves = []
        while (step := solver.get_next_move()) is not None:
            i = step.get_column_idx()
            moves.append(Move(stock() if i == columns else tableau(i), foundation(0)))
        return "winnable", tuple(moves)
    if ret == solver.BLACK_HOLE_SOLVER__OUT_OF_ITERS:
        return "undecided", ()
    return "unwinnable", ()


def replay(state: GameState, moves: tuple[Move, ...]) -> str:
    """Whether ``moves`` win from ``state`` in our engine: "wins", "does not win", or
    the first illegal move and why."""
    for number, move in enumerate(moves, 1):
        try:
            state = apply(state, move)
        except IllegalMoveError as exc:
            return f"move {number} ({move}) illegal: {exc}"
    return "wins" if state.is_won else "does not win"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--max-states", type=int, default=10_000_000)
    parser.add_argument(
        "--engine", choices=("auto", "c", "python"), default="auto",
        help="our engine: the compiled search (auto, c) or the Python reference",
    )  # fmt: skip
    args = parser.parse_args()
    maker, why = _theirs_solver()
    if why:
        print(f"# {why}: only our verdicts are shown")
    out: dict[str, object] = {
        "deals": f"1-{args.deals}",
        "engine": args.engine,
        "black_hole_solver": why or "ok",
    }
    for variant, flags in GAMES.items():
        rules = get_variant(variant).resolve()
        rows = []
        ours_cpu = theirs_cpu = 0.0
        print(f"\n{rules.name}\n deal  ours        cpu s   theirs      cpu s")
        for number in range(1, args.deals + 1):
            state = deal(rules, number)
            t0 = time.process_time()
            result = solve(state, max_states=args.max_states, engine=args.engine)
            verdict = result.verdict.value
            t1 = time.process_time()
            theirs, spent, their_moves = "-", 0.0, ()
            if maker is not None:
                theirs, their_moves = _theirs(maker, flags, format_pysol(state), args.max_states)
                spent = time.process_time() - t1
            ours_cpu += t1 - t0
            theirs_cpu += spent
            differ = {verdict, theirs} == {"winnable", "unwinnable"}
            row = {
                "deal": number,
                "ours": verdict,
                "ours_cpu": round(t1 - t0, 3),
                "theirs": theirs,
                "theirs_cpu": round(spent, 3),
                "differ": differ,
            }
            flag = ""
            if differ:
                winner, moves = (
                    ("ours", result.moves) if verdict == "winnable" else ("theirs", their_moves)
                )
                row["replay"] = f"{winner}: {replay(state, moves)}"
                flag = f"  DIFFER, replay of {row['replay']}"
            print(f" {number:4}  {verdict:<10} {t1 - t0:6.2f}   {theirs:<10} {spent:6.2f}{flag}")
            rows.append(row)
        counts = {
            side: {
                v: sum(r[side] == v for r in rows) for v in ("winnable", "unwinnable", "undecided")
            }
            for side in ("ours", "theirs")
        }
        differ = [r["deal"] for r in rows if r["differ"]]
        print(f" ours: {counts['ours']}, {ours_cpu:.1f} s CPU; theirs: {counts['theirs']}, "
              f"{theirs_cpu:.1f} s CPU; disagreements: {differ or 'none'}")  # fmt: skip
        out[variant] = {
            "black_hole_solver_flags": dict(
                zip(("game", "place_queens_on_kings", "wrap_ranks"), flags, strict=True)
            ),
            "ours": counts["ours"],
            "theirs": counts["theirs"],
            "ours_cpu": round(ours_cpu, 1),
            "theirs_cpu": round(theirs_cpu, 1),
            "disagreements": differ,
            "deals": rows,
        }
    RESULTS.write_text(json.dumps(out, indent=1) + "\n", "utf-8")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()
