"""Benchmark of the solver (issue 5), side by side with Freecell Solver when installed.

Suites (deal numbers are PySolFC's):

* ``seahaven`` -- Seahaven Towers, deals 1..1000;
* ``sea-towers-any`` -- Sea Towers with any card in empty columns, deals 1..1000;
* ``double-sea-towers`` -- Double Sea Towers, deals 1..200 (Freecell Solver as packaged
  by Debian handles at most 10 columns, so it runs alone);
* one suite per issue-9 game Freecell Solver has a preset for (``forecell``,
  ``kings-only-bakers-game``, ``relaxed-freecell``, ``beleaguered-castle``,
  ``streets-and-alleys``, ``citadel``, ``good-measure``: ``fc-solve -g PRESET``; and
  ``bakers-dozen``, ``fan``, ``der-katzenschwanz``, ``die-schlange``, which the Debian
  build cannot take, ours alone), deals 1..100. The JSON's ``disagreements`` lists the
  deals where both solvers decided and their verdicts differ. fc-solve's "I could not
  solve this game" is read as unwinnable, though its default scan is not exhaustive.

Our solver runs in this process, one deal after another, with the budgets given. When
``fc-solve`` (Debian package freecell-solver-bin) is on the PATH it solves the same
deal right after ours, one process per deal, reading the board that
:func:`solitaire_core.textview.format_fcs` writes (what ``solitaire export --format fcs``
prints).

Times are CPU time (user + system): ours from :func:`time.process_time` around the call,
fc-solve's from the child process's resource usage. On a loaded machine CPU time moves far
less than wall-clock time, which is also recorded. fc-solve's CPU time includes its process
start-up (about a millisecond: the CPU time of solving an already-won board, measured
and reported); the table shows its totals with and without it.

Writes, per suite, ``benchmarks/results/bench_solver_<suite>.csv`` (one row per deal:
verdict, seconds and positions of each solver) and ``bench_solver_<suite>.json`` (totals,
the machine), and prints a Markdown table: totals, median and slowest deal, and the ratio
of the two totals. Run from the project root::

    python benchmarks/bench_solver.py                          # every suite
    python benchmarks/bench_solver.py --suite seahaven --deals 1-100 --no-fcs

Times depend on the machine and on whatever else runs on it; compare runs made together.
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import attrs

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import DEFAULT_MAX_STATES, solve
from solitaire_core.solver.survey import parse_deals
from solitaire_core.textview import format_fcs

RESULTS = Path(__file__).parent / "results"


@attrs.frozen
class Suite:
    """One benchmark: a variant, its options, a deal range, how to call fc-solve."""

    name: str
    variant: str
    options: tuple[tuple[str, str], ...]
    deals: str
    fcs_args: tuple[str, ...] | None


SUITES = {
    s.name: s
    for s in (
        Suite("seahaven", "seahaven", (), "1-1000", ("-g", "seahaven", "-l", "ct")),
        Suite(
            "sea-towers-any",
            "sea-towers",
            (("empty_columns", "any"),),
            "1-1000",
            (
                "--freecells-num", "4", "--stacks-num", "10", "--sequences-are-built-by",
                "suit", "--empty-stacks-filled-by", "any", "--sequence-move", "limited",
                "-l", "ct",
            ),
        ),
        Suite("double-sea-towers", "double-sea-towers", (), "1-200", None),
        # Issue 9's games that Freecell Solver has a preset for, deals 1..100. The Debian
        # build takes one deck and at most ten columns: Baker's Dozen (13), Fan (18), Der
        # Katzenschwanz and Die Schlange (two decks) run ours alone.
        *(
            Suite(variant, variant, (), "1-100", ("-g", preset) if preset else None)
            for variant, preset in (
                ("forecell", "forecell"),
                ("kings-only-bakers-game", "kings_only_bakers_game"),
                ("relaxed-freecell", "relaxed_freecell"),
                ("beleaguered-castle", "beleaguered_castle"),
                ("streets-and-alleys", "streets_and_alleys"),
                ("citadel", "citadel"),
                ("good-measure", "good_measure"),
                ("bakers-dozen", None),
                ("fan", None),
                ("der-katzenschwanz", None),
                ("die-schlange", None),
            )
        ),
    )
}  # fmt: skip


@attrs.frozen
class Outcome:
    """One solver's answer on one deal.

    :param verdict: winnable, unwinnable or undecided.
    :param seconds: CPU time (user + system) spent on the deal.
    :param wall: wall-clock time.
    :param positions: positions searched, as the solver counts them.
    """

    verdict: str
    seconds: float
    wall: float
    positions: int


def run_ours(state, timeout: float | None, max_states: int) -> Outcome:  # type: ignore[no-untyped-def]
    """Our solver on one position."""
    cpu = time.process_time()
    result = solve(state, timeout=timeout, max_states=max_states)
    cpu = time.process_time() - cpu
    return Outcome(result.verdict.value, cpu, result.seconds, result.positions)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_fcs(board: str, args: Sequence[str], timeout: float | None) -> Outcome:
    """fc-solve on one board (its text on stdin)."""
    started = time.perf_counter()
    cpu = _children_cpu()
    try:
        proc = subprocess.run(
            ["fc-solve", *args, "-"],
            input=board,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Outcome("undecided", _children_cpu() - cpu, time.perf_counter() - started, 0)
    wall = time.perf_counter() - started
    cpu = _children_cpu() - cpu
    out = proc.stdout
    if "This game is solveable" in out:
        verdict = "winnable"
    elif "I could not solve this game" in out:
        verdict = "unwinnable"
    else:
        verdict = "undecided"
    positions = 0
    for line in out.splitlines():
        if line.startswith("Total number of states checked is"):
            positions = int(line.rstrip(".").split()[-1])
    return Outcome(verdict, cpu, wall, positions)


def fcs_startup(args: Sequence[str], columns: int, cells: int, runs: int = 21) -> float:
    """fc-solve's start-up cost: the median CPU time of solving a board that is already
    won (every card on the foundations), in seconds."""
    board = "Foundations: H-K C-K D-K S-K\nFreecells:" + " -" * cells + "\n" + ":\n" * columns
    return statistics.median(run_fcs(board, args, 10).seconds for _ in range(runs))


def summarise(outcomes: list[Outcome], startup: float = 0.0) -> dict[str, float | int]:
    """Totals of one solver over a suite; ``startup`` seconds are taken off each deal's
    time (fc-solve's process start, see :func:`fcs_startup`)."""
    times = [max(0.0, o.seconds - startup) for o in outcomes]
    return {
        "wall_s": round(sum(o.wall for o in outcomes), 3),
        "deals": len(outcomes),
        "winnable": sum(o.verdict == "winnable" for o in outcomes),
        "unwinnable": sum(o.verdict == "unwinnable" for o in outcomes),
        "undecided": sum(o.verdict == "undecided" for o in outcomes),
        "cpu_s": round(sum(times), 3),
        "median_ms": round(1000 * statistics.median(times), 3) if times else 0.0,
        "slowest_s": round(max(times), 3) if times else 0.0,
        "positions": sum(o.positions for o in outcomes),
    }


def run_suite(
    suite: Suite,
    deals: list[int],
    *,
    use_fcs: bool,
    timeout: float | None,
    max_states: int,
    quiet: bool,
) -> dict[str, object]:
    """Run one suite, write its files, return its summary."""
    rules = get_variant(suite.variant).resolve(dict(suite.options))
    fcs = use_fcs and suite.fcs_args is not None
    ours: list[Outcome] = []
    theirs: list[Outcome] = []
    RESULTS.mkdir(exist_ok=True)
    rows_path = RESULTS / f"bench_solver_{suite.name}.csv"
    with rows_path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        head = ["deal", "verdict", "cpu_s", "wall_s", "positions"]
        if fcs:
            head += ["fcs_verdict", "fcs_cpu_s", "fcs_wall_s", "fcs_states"]
        writer.writerow(head)
        for i, number in enumerate(deals, 1):
            state = deal(rules, number)
            mine = run_ours(state, timeout, max_states)
            ours.append(mine)
            row = [number, mine.verdict, f"{mine.seconds:.4f}", f"{mine.wall:.4f}", mine.positions]
            if fcs:
                assert suite.fcs_args is not None
                other = run_fcs(format_fcs(state), suite.fcs_args, timeout)
                theirs.append(other)
                row += [
                    other.verdict,
                    f"{other.seconds:.4f}",
                    f"{other.wall:.4f}",
                    other.positions,
                ]
            writer.writerow(row)
            if not quiet and (i % 50 == 0 or i == len(deals)):
                print(f"  {suite.name}: {i}/{len(deals)} deals", file=sys.stderr, flush=True)
    summary: dict[str, object] = {
        "suite": suite.name,
        "variant": suite.variant,
        "options": dict(suite.options),
        "deals": f"{deals[0]}-{deals[-1]}" if deals else "",
        "budget": {"timeout_s": timeout, "max_states": max_states},
        "ours": summarise(ours),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
        },
    }
    if fcs:
        assert suite.fcs_args is not None
        startup = fcs_startup(suite.fcs_args, rules.columns, rules.cells)
        summary["fcs_with_startup"] = summarise(theirs)
        summary["fcs"] = summarise(theirs, startup)
        summary["fcs_startup_ms"] = round(1000 * startup, 3)
        summary["fcs_args"] = list(suite.fcs_args)
        summary["disagreements"] = [
            n
            for n, a, b in zip(deals, ours, theirs)
            if "undecided" not in (a.verdict, b.verdict) and a.verdict != b.verdict
        ]
    (RESULTS / f"bench_solver_{suite.name}.json").write_text(
        json.dumps(summary, indent=2) + "\n", encoding="utf-8"
    )
    return summary


def table(summaries: list[dict[str, object]]) -> str:
    """A Markdown table of the summaries, ours next to fc-solve with the time ratio."""
    lines = [
        "| suite | solver | winnable | unwinnable | undecided | CPU s | median ms "
        "| slowest s | wall s | positions |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        rows = (
            ("ours", "ours"),
            ("fc-solve, process start-up included", "fcs_with_startup"),
            (f"fc-solve, less {s.get('fcs_startup_ms', 0)} ms CPU start-up per deal", "fcs"),
        )
        for label, key in rows:
            if key not in s:
                continue
            t = s[key]
            assert isinstance(t, dict)
            lines.append(
                f"| {s['suite']} {s['deals']} | {label} | {t['winnable']} | {t['unwinnable']} "
                f"| {t['undecided']} | {t['cpu_s']:.2f} | {t['median_ms']:.2f} "
                f"| {t['slowest_s']:.2f} | {t['wall_s']:.2f} | {t['positions']} |"
            )
        if "fcs" in s:
            ours = s["ours"]
            assert isinstance(ours, dict)
            for label, key in (("start-up included", "fcs_with_startup"), ("less start-up", "fcs")):
                other = s[key]
                assert isinstance(other, dict)
                ratio = ours["cpu_s"] / other["cpu_s"] if other["cpu_s"] else float("inf")
                lines.append(
                    f"| {s['suite']} | CPU ratio ours / fc-solve ({label}) | | | "
                    f"| {ratio:.1f}x | | | | |"
                )
            differ = s["disagreements"] or "none"
            lines.append(f"| {s['suite']} | verdicts differ on | {differ} | | | | | | | |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", action="append", choices=sorted(SUITES), help="repeatable")
    parser.add_argument("--deals", help="override the suite's deal range, e.g. 1-100")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per deal")
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES)
    parser.add_argument("--no-fcs", action="store_true", help="do not run fc-solve")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    use_fcs = not args.no_fcs and shutil.which("fc-solve") is not None
    if not args.no_fcs and not use_fcs:
        print("fc-solve not found: our solver only", file=sys.stderr)
    summaries = []
    for name in args.suite or list(SUITES):
        suite = SUITES[name]
        deals = parse_deals(args.deals or suite.deals)
        summaries.append(
            run_suite(
                suite,
                deals,
                use_fcs=use_fcs,
                timeout=args.timeout,
                max_states=args.max_states,
                quiet=args.quiet,
            )
        )
    print(table(summaries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
