"""Benchmark of the solver's two engines, side by side with Freecell Solver or Solvitaire.

Suites (deal numbers are PySolFC's):

* ``seahaven`` -- Seahaven Towers, deals 1..1000;
* ``sea-towers-any`` -- Sea Towers with any card in empty columns, deals 1..1000;
* ``double-sea-towers`` -- Double Sea Towers, deals 1..10000 (Freecell Solver as packaged
  by Debian handles at most 10 columns, so ours run alone; the Python engine only with
  ``--deals``, as it would take an hour);
* ``freecell`` -- FreeCell, deals 1..100, against ``fc-solve -g freecell -l ct`` (its
  fastest preset for the game, as for Seahaven Towers);
* one suite per other game Freecell Solver has a preset for (``bakers-game``,
  ``eight-off``, ``challenge-freecell`` (FreeCell's preset: the same rules, another deal),
  ``forecell``, ``kings-only-bakers-game``, ``relaxed-freecell``,
  ``beleaguered-castle``, ``streets-and-alleys``, ``citadel``, ``good-measure``:
  ``fc-solve -g PRESET -l ct``, the game's rules searched in its fastest scan, which is
  not exhaustive; ``simple-simon``: ``fc-solve -g simple_simon``, as ``-l ct`` orders
  FreeCell's moves, not Simple Simon's); and
  ``bakers-dozen``, ``fan``, ``der-katzenschwanz``, ``die-schlange``, which the Debian
  build cannot take, ours alone), deals 1..100, with the C engine (``--engines c,python``
  adds the Python engine). The JSON's ``disagreements`` lists the
  deals where both solvers decided and their verdicts differ. fc-solve's "I could not
  solve this game" is read as unwinnable, though its default scan is not exhaustive;
* ``klondike-draw-3`` and ``klondike`` -- deals 1..1000, ours thoughtful (knowing the
  face-down cards and the stock, at the default budget of a million positions a deal)
  against Solvitaire (Blake and Gent's thoughtful solver, ``--classify --timeout MS``,
  ``--timeout`` seconds a deal) twice: with our moves (``--type
  klondike-arbitrary-built-moves``; for draw 1 the same rules as ``--custom-rules``) and
  with its Klondike presets (``klondike``, ``klondike-deal-1``), which leave out part of
  a run moved to its twin unless the card uncovered goes up, as our full search does (a
  rule that loses no win: docs/solver.md, "Part of a run moved to its twin"), each deal
  handed to it as ``bench_solvitaire.py`` converts it. Solvitaire is not
  packaged: build it as that script's docstring says and pass ``--solvitaire PATH`` (or
  set ``SOLVITAIRE``, or put it on the PATH); without it ours run alone.

In one run, per suite: our C engine solves every deal in one child process, then our Python
engine in another (start-up, imports and dealing included: each engine's figure is the
CPU time of its whole process), then ``fc-solve`` (Debian package freecell-solver-bin), when
installed, one process per deal reading the board that
:func:`solitaire_core.textview.format_fcs` writes (what ``solitaire export --format fcs``
prints). Per deal, each child also reports the CPU time of the ``solve`` call itself.

Times are CPU time (user + system) from the children's resource usage: on a machine shared
with other work, CPU time moves far less than wall-clock time. fc-solve's start-up (the CPU
time of solving an already-won board) is measured and shown apart too.

Memory: for the C engine, the peak bytes each search held (every allocation counted) per
position stored, on the suite's slowest deals (by positions).

Hint latency: the time of :func:`solitaire_core.solver.hint` at the start of the suite's
hardest deal for the C engine (the most positions), in a fresh process, CPU and wall: the
median of nine such processes, with the range of their CPU times.

The package's modules are byte-compiled first (``compileall``), so that every child
imports them as an installed package would, even where ``PYTHONDONTWRITEBYTECODE`` is set.

Writes, per suite, ``benchmarks/results/bench_solver_<suite>.csv`` (one row per deal) and
``bench_solver_<suite>.json`` (totals, the machine; ``--tag T`` names them
``bench_solver_<suite>T.*``), and prints a Markdown table. Run from the project root::

    python benchmarks/bench_solver.py                          # every suite
    python benchmarks/bench_solver.py --suite seahaven --deals 1-100 --no-fcs
    python benchmarks/bench_solver.py --suite double-sea-towers --engines c
    python benchmarks/bench_solver.py --suite seahaven --rounds 5   # ours C and fc-solve
                                                                    # alternately, 5 times
    python benchmarks/bench_solver.py --suite freecell --deals 1-1000 --engines c --survey
    python benchmarks/bench_solver.py --suite klondike-draw-3 --timeout 10 \
        --solvitaire /path/to/solvitaire          # ours C and Solvitaire, deals 1-1000
    python benchmarks/bench_solver.py --suite klondike-draw-3 --deals 1-11 \
        --engines c,python --timeout 10 --tag _python  # with the Python engine too

With ``--survey`` ours (C) is the ``solitaire survey`` command itself (``--jobs 1
--no-solutions``), its start-up and worker pool counted, as a player's survey runs.

Times depend on the machine and on whatever else runs on it; compare runs made together.
"""

from __future__ import annotations

import argparse
import compileall
import csv
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import attrs

RESULTS = Path(__file__).parent / "results"


@attrs.frozen
class Suite:
    """One benchmark: a variant, its options, a deal range, how to call fc-solve."""

    name: str
    variant: str
    options: tuple[tuple[str, str], ...]
    deals: str
    fcs_args: tuple[str, ...] | None
    engines: tuple[str, ...] = ("c", "python")
    solvitaire: tuple[str, ...] = ()
    """Solvitaire's rules for the game, where it is the rival: each a preset (``--type``)
    or a name of ``bench_solvitaire.CUSTOM_RULES``; each runs on every deal."""


SUITES = {
    s.name: s
    for s in (
        Suite("seahaven", "seahaven", (), "1-1000", ("-g", "seahaven", "-l", "ct")),
        Suite(
            "sea-towers-any",
            "sea-towers",
            (("empty_columns", "any"),),
            "1-1000",
            ("-g", "seahaven", "--empty-stacks-filled-by", "any", "-l", "ct"),
        ),
        Suite("double-sea-towers", "double-sea-towers", (), "1-10000", None, ("c",)),
        # More games, deals 1..100, beside Freecell Solver where it has a preset. The Debian
        # build takes one deck and at most ten columns: Baker's Dozen (13), Fan (18), Der
        # Katzenschwanz and Die Schlange (two decks) run ours alone.
        # FreeCell itself against fc-solve's fastest preset for it, "-l ct" (as for
        # Seahaven Towers): its default scan takes 236 s on deals 1-1000, one deal 109 s.
        Suite("freecell", "freecell", (), "1-100", ("-g", "freecell", "-l", "ct"), ("c",)),
        # Games played with FreeCell's moves (cells, columns, foundations) against the
        # game's preset with the "-l ct" scan, its fastest on them (the scan sets only the
        # order of the search, the preset the rules); Simple Simon against its preset
        # alone ("-l ct" orders FreeCell's moves, not Simple Simon's).
        *(
            Suite(variant, variant, (), "1-100", ("-g", preset, "-l", "ct"), ("c",))
            for variant, preset in (
                ("bakers-game", "bakers_game"),
                ("eight-off", "eight_off"),
                ("challenge-freecell", "freecell"),  # FreeCell's rules, its own deal
                ("forecell", "forecell"),
                ("kings-only-bakers-game", "kings_only_bakers_game"),
                ("relaxed-freecell", "relaxed_freecell"),
                ("beleaguered-castle", "beleaguered_castle"),
                ("streets-and-alleys", "streets_and_alleys"),
                ("citadel", "citadel"),
                ("good-measure", "good_measure"),
            )
        ),
        Suite("simple-simon", "simple-simon", (), "1-100", ("-g", "simple_simon"), ("c",)),
        *(
            Suite(variant, variant, (), "1-100", None, ("c",))
            for variant in ("bakers-dozen", "fan", "der-katzenschwanz", "die-schlange")
        ),
        # The games with a stock, thoughtful, against Solvitaire twice: with every move
        # (any part of a built run moves), and with its Klondike presets, which move part
        # of a run only where the card it uncovers can go to a foundation (fewer moves,
        # the same verdicts: docs/solver.md, "Part of a run moved to its twin").
        Suite(
            "klondike-draw-3",
            "klondike-draw-3",
            (),
            "1-1000",
            None,
            ("c",),
            ("klondike-arbitrary-built-moves", "klondike"),
        ),
        Suite(
            "klondike",
            "klondike",
            (),
            "1-1000",
            None,
            ("c",),
            ("klondike-deal-1-arbitrary-built-moves", "klondike-deal-1"),
        ),
    )
}


@attrs.frozen
class Outcome:
    """One solver's answer on one deal.

    :param verdict: winnable, unwinnable or undecided.
    :param seconds: CPU time (user + system) spent on the deal.
    :param wall: wall-clock time.
    :param positions: positions searched, as the solver counts them.
    :param peak_bytes: the C engine's peak memory for the deal (0 otherwise).
    """

    verdict: str
    seconds: float
    wall: float
    positions: int
    peak_bytes: int = 0


def worker(engine: str, variant: str, options: dict[str, str], deals: list[int], out: str) -> None:
    """Solve ``deals`` in this process with ``engine``, one JSON line per deal to ``out``."""
    from solitaire_core.deal import deal
    from solitaire_core.plugins import get_variant
    from solitaire_core.solver import solve

    rules = get_variant(variant).resolve(options)
    with open(out, "w", encoding="utf-8") as fh:
        for number in deals:
            state = deal(rules, number)
            cpu = time.process_time()
            result = solve(state, timeout=120, engine=engine)
            cpu = time.process_time() - cpu
            if result.engine != engine:
                raise SystemExit(f"deal {number}: solved by {result.engine}: {result.note}")
            row = [number, result.verdict.value, cpu, result.seconds, result.positions]
            fh.write(json.dumps(row + [result.peak_bytes]) + "\n")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_ours(
    engine: str, suite: Suite, deals: list[int], quiet: bool, survey: bool = False
) -> tuple[float, list[Outcome]]:
    """One child process solving every deal: (its total CPU seconds, per-deal outcomes).

    :param survey: with the C engine, the child is the ``solitaire survey`` command
        (``--jobs 1 --no-solutions``, the engine it picks, its start-up and worker pool
        included) rather than this script's worker; each deal's time is then the
        survey's (the wall time of the search, as its CSV gives it) and no memory is
        counted."""
    if survey and engine == "c":
        return _run_survey(suite, deals, quiet)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.jsonl")
        spec = json.dumps([engine, suite.variant, dict(suite.options), list(deals), out])
        cpu = _children_cpu()
        if not quiet:
            print(f"  {suite.name}: ours ({engine}), {len(deals)} deals", file=sys.stderr)
        subprocess.run([sys.executable, __file__, "--worker", spec], check=True)
        total = _children_cpu() - cpu
        rows = [json.loads(line) for line in open(out, encoding="utf-8")]
    return total, [Outcome(r[1], r[2], r[3], r[4], r[5]) for r in rows]


def _run_survey(suite: Suite, deals: list[int], quiet: bool) -> tuple[float, list[Outcome]]:
    """:func:`run_ours` through the ``survey`` command, deals ``deals`` (a range)."""
    if deals != list(range(deals[0], deals[-1] + 1)):
        raise SystemExit("--survey needs a range of deals")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.csv")
        options = [f"--option={key}={value}" for key, value in suite.options]
        command = [sys.executable, "-m", "solitaire_core", "survey", suite.variant, *options,
                   f"--deals={deals[0]}-{deals[-1]}", "--jobs=1", "--no-solutions",
                   "--quiet", f"--csv={out}"]  # fmt: skip
        cpu = _children_cpu()
        if not quiet:
            print(f"  {suite.name}: ours (survey), {len(deals)} deals", file=sys.stderr)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        total = _children_cpu() - cpu
        with open(out, newline="", encoding="utf-8") as fh:
            rows = sorted(csv.DictReader(fh), key=lambda r: int(r["deal"]))
    outcomes = [
        Outcome(r["verdict"], float(r["seconds"]), float(r["seconds"]), int(r["positions"]))
        for r in rows
    ]
    return total, outcomes


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


def run_solvitaire(exe: str, preset: str, state: object, timeout: float | None) -> Outcome:
    """Solvitaire (``exe``, a preset or custom rules by name) on one dealt position,
    converted and run as ``bench_solvitaire.py`` does; its CPU time includes its process
    start.

    :raises SystemExit: when Solvitaire prints no verdict (a conversion it rejects, or a
        crash): its last output is in the message."""
    import bench_solvitaire  # beside this script

    ran = bench_solvitaire.run_solvitaire(
        exe, preset, bench_solvitaire.solvitaire_deal(state), timeout or 120.0, None
    )
    if ran["verdict"] == "error":
        raise SystemExit(f"Solvitaire {preset} gave no verdict: {ran['outcome']}")
    return Outcome(ran["verdict"], ran["cpu_s"], ran["wall_s"], ran["states"])


def fcs_startup(args: Sequence[str], columns: int, cells: int, runs: int = 21) -> float:
    """fc-solve's start-up cost: the median CPU time of solving a board that is already
    won (every card on the foundations), in seconds."""
    board = "Foundations: H-K C-K D-K S-K\nFreecells:" + " -" * cells + "\n" + ":\n" * columns
    return statistics.median(run_fcs(board, args, 10).seconds for _ in range(runs))


def summarise(
    outcomes: list[Outcome], startup: float = 0.0, process_cpu: float | None = None
) -> dict[str, float | int]:
    """Totals of one solver over a suite; ``startup`` seconds are taken off each deal's
    time (fc-solve's process start, see :func:`fcs_startup`); ``process_cpu`` is the CPU
    time of the whole process that solved them (ours)."""
    times = [max(0.0, o.seconds - startup) for o in outcomes]
    out: dict[str, float | int] = {
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
    if process_cpu is not None:
        out["process_cpu_s"] = round(process_cpu, 3)
    return out


def memory(deals: list[int], outcomes: list[Outcome], top: int = 10) -> dict[str, object]:
    """Bytes per stored position of the C engine on the ``top`` deals with most positions."""
    ranked = sorted(zip(outcomes, deals), key=lambda p: p[0].positions, reverse=True)[:top]
    ratios = [o.peak_bytes / o.positions for o, _ in ranked if o.positions]
    return {
        "deals": [n for _, n in ranked],
        "positions": [o.positions for o, _ in ranked],
        "bytes_per_position": [round(r, 1) for r in ratios],
        "mean_bytes_per_position": round(sum(o.peak_bytes for o, _ in ranked)
                                         / max(1, sum(o.positions for o, _ in ranked)), 1),
    }  # fmt: skip


HINT = """
import json, sys, time
from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import hint
variant, options, number = json.loads(sys.argv[1])
state = deal(get_variant(variant).resolve(options), number)
cpu, wall = time.process_time(), time.perf_counter()
move = hint(state, engine="c")
print(json.dumps([time.process_time() - cpu, time.perf_counter() - wall, str(move)]))
"""


HINT_RUNS = 9
"""Fresh processes the hint latency is measured in: one run moves by 15% or more on a
shared machine, so the median is reported, with the fastest and slowest."""


def hint_latency(suite: Suite, number: int) -> dict[str, object]:
    """The first hint at the start of deal ``number``, in a fresh process (tables compiled
    on first use, as in a new game), :data:`HINT_RUNS` times: the median CPU and wall
    milliseconds, and the range of the CPU times."""
    arg = json.dumps([suite.variant, dict(suite.options), number])
    runs = []
    for _ in range(HINT_RUNS):
        out = subprocess.run(
            [sys.executable, "-c", HINT, arg], capture_output=True, text=True, check=True
        ).stdout
        runs.append(json.loads(out))
    cpu = sorted(1000 * r[0] for r in runs)
    return {"deal": number, "cpu_ms": round(statistics.median(cpu), 1),
            "wall_ms": round(statistics.median(1000 * r[1] for r in runs), 1),
            "cpu_ms_range": [round(cpu[0], 1), round(cpu[-1], 1)], "runs": HINT_RUNS,
            "move": runs[0][2]}  # fmt: skip


def run_suite(
    suite: Suite,
    deals: list[int],
    *,
    engines: Sequence[str],
    use_fcs: bool,
    timeout: float | None,
    quiet: bool,
    rounds: int = 1,
    survey: bool = False,
    solvitaire: str | None = None,
    tag: str = "",
) -> dict[str, object]:
    """Run one suite, write its files, return its summary.

    :param survey: run ours (C) through the ``survey`` command (:func:`run_ours`).
    :param solvitaire: the Solvitaire executable, run on the suites that name a preset
        for it (:attr:`Suite.solvitaire`), ``timeout`` seconds a deal; ``None``: not run.
    :param tag: added to the result files' names (``bench_solver_<suite><tag>.csv``), so
        that a run over other deals or engines keeps the suite's usual files.

    :param rounds: with the C engine and fc-solve both run, how many times to run the two
        one after the other (the first round gives the per-deal rows): the ratio of their
        CPU times is reported per round and as the median, since a shared machine's speed
        drifts from one minute to the next."""
    from solitaire_core.deal import deal
    from solitaire_core.plugins import get_variant
    from solitaire_core.textview import format_fcs

    rules = get_variant(suite.variant).resolve(dict(suite.options))
    fcs = use_fcs and suite.fcs_args is not None
    ours = {}
    process = {}
    for engine in engines:
        process[engine], ours[engine] = run_ours(engine, suite, deals, quiet, survey)
    # The other solvers' outcomes, by column prefix: "fcs", or "sv_" and Solvitaire's rules.
    rivals: dict[str, list[Outcome]] = {}
    if fcs:
        assert suite.fcs_args is not None
        if not quiet:
            print(f"  {suite.name}: fc-solve, {len(deals)} deals", file=sys.stderr)
        boards = [format_fcs(deal(rules, number)) for number in deals]
        rivals["fcs"] = [run_fcs(b, suite.fcs_args, timeout) for b in boards]
    for preset in suite.solvitaire if solvitaire else ():
        if not quiet:
            print(f"  {suite.name}: Solvitaire {preset}, {len(deals)} deals", file=sys.stderr)
        rivals[f"sv_{preset}"] = [
            run_solvitaire(solvitaire, preset, deal(rules, number), timeout) for number in deals
        ]
    theirs = rivals.get("fcs", [])
    RESULTS.mkdir(exist_ok=True)
    stem = f"bench_solver_{suite.name}{tag}"
    with (RESULTS / f"{stem}.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        head = ["deal"]
        for engine in ours:
            head += [f"{engine}_verdict", f"{engine}_cpu_s", f"{engine}_positions"]
        if "c" in ours:
            head.append("c_peak_bytes")
        for rival in rivals:
            head += [f"{rival}_verdict", f"{rival}_cpu_s", f"{rival}_states"]
        writer.writerow(head)
        for i, number in enumerate(deals):
            row: list[object] = [number]
            for outs in ours.values():
                o = outs[i]
                row += [o.verdict, f"{o.seconds:.5f}", o.positions]
            if "c" in ours:
                row.append(ours["c"][i].peak_bytes)
            for outcomes in rivals.values():
                t = outcomes[i]
                row += [t.verdict, f"{t.seconds:.5f}", t.positions]
            writer.writerow(row)
    summary: dict[str, object] = {
        "suite": suite.name,
        "variant": suite.variant,
        "options": dict(suite.options),
        "deals": f"{deals[0]}-{deals[-1]}" if deals else "",
        "budget": {"timeout_s": timeout},
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
        },
    }
    for engine, outs in ours.items():
        summary[f"ours_{engine}"] = summarise(outs, process_cpu=process[engine])
    if survey:
        summary["through"] = "survey"
    if "c" in ours and not survey:
        if any(o.peak_bytes for o in ours["c"]):  # the stock games' search does not count it
            summary["memory_c"] = memory(deals, ours["c"])
        hardest = max(zip(ours["c"], deals), key=lambda p: p[0].positions)[1]
        summary["hint_c"] = hint_latency(suite, hardest)
    if fcs:
        assert suite.fcs_args is not None
        startup = fcs_startup(suite.fcs_args, rules.columns, rules.cells)
        summary["fcs_with_startup"] = summarise(theirs)
        summary["fcs"] = summarise(theirs, startup)
        summary["fcs_startup_ms"] = round(1000 * startup, 3)
        summary["fcs_args"] = list(suite.fcs_args)
    if solvitaire and suite.solvitaire:
        summary["solvitaire"] = {p: summarise(rivals[f"sv_{p}"]) for p in suite.solvitaire}
    if fcs and "c" in ours and rounds > 1:
        assert suite.fcs_args is not None
        pairs = [(process["c"], sum(t.seconds for t in theirs))]
        for _ in range(rounds - 1):
            mine, _outs = run_ours("c", suite, deals, quiet, survey)
            other = sum(run_fcs(b, suite.fcs_args, timeout).seconds for b in boards)
            pairs.append((mine, other))
        ratios = [m / o for m, o in pairs]
        summary["rounds"] = {
            "ours_c_process_cpu_s": [round(m, 3) for m, _ in pairs],
            "fcs_cpu_s": [round(o, 3) for _, o in pairs],
            "ratios": [round(r, 3) for r in ratios],
            "median_ratio": round(statistics.median(ratios), 3),
        }
    # Disagreements among the solvers playing the same moves: ours, fc-solve and
    # Solvitaire's first rules; then, per preset, ours against its narrower rules (the
    # suite's later presets). Those leave out only moves that lose no win, so a deal
    # listed there is a disagreement too, listed apart to say which rules found it.
    first = f"sv_{suite.solvitaire[0]}" if suite.solvitaire else "fcs"
    same = {k: v for k, v in rivals.items() if k in ("fcs", first)}
    verdicts = {k: [o.verdict for o in v] for k, v in (ours | same).items()}

    def differ(pool: dict[str, list[str]]) -> list[int]:
        return [
            n for i, n in enumerate(deals) if len({v[i] for v in pool.values()} - {"undecided"}) > 1
        ]

    summary["disagreements"] = differ(verdicts)
    narrower = {k[3:]: v for k, v in rivals.items() if k not in same}
    if narrower:
        summary["differ_under_narrower_rules"] = {
            preset: differ({"c": verdicts["c"], preset: [o.verdict for o in v]})
            for preset, v in narrower.items()
        }
    (RESULTS / f"{stem}.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def table(summaries: list[dict[str, object]]) -> str:
    """A Markdown table of the summaries: ours (C, Python) next to fc-solve or Solvitaire."""
    lines = [
        "| suite | solver | winnable | unwinnable | undecided | CPU s (process) | CPU s (solve "
        "calls) | median ms | slowest s | positions |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        rows = (
            ("ours, C, through survey" if s.get("through") == "survey" else "ours, C", "ours_c"),
            ("ours, Python", "ours_python"),
            ("fc-solve, process start-up included", "fcs_with_startup"),
            (f"fc-solve, less {s.get('fcs_startup_ms', 0)} ms start-up per deal", "fcs"),
        )
        found: dict[str, object] = {key: s.get(key) for _, key in rows}
        presets = s.get("solvitaire")
        if isinstance(presets, dict):
            for n, (preset, t) in enumerate(presets.items()):
                rules = "our moves" if n == 0 else "its narrower rules"
                rows += ((f"Solvitaire {preset} ({rules}), start-up included", preset),)
                found[preset] = t
        for label, key in rows:
            t = found[key]
            if not isinstance(t, dict):
                continue
            whole = not key.startswith(("ours", "fcs"))  # one process a deal, start included
            whole = whole or key == "fcs_with_startup"
            process = t.get("process_cpu_s", t["cpu_s"] if whole else "")
            lines.append(
                f"| {s['suite']} {s['deals']} | {label} | {t['winnable']} | {t['unwinnable']} "
                f"| {t['undecided']} | {process} | {t['cpu_s']:.2f} | {t['median_ms']:.2f} "
                f"| {t['slowest_s']:.2f} | {t['positions']} |"
            )
        c = s.get("ours_c")
        others = [("fcs_with_startup", "fc-solve")]
        others += [(p, f"Solvitaire {p}") for p in (presets if isinstance(presets, dict) else ())]
        for key, name in others:
            f = found[key]
            if isinstance(c, dict) and isinstance(f, dict) and f["cpu_s"]:
                ratio = c["process_cpu_s"] / f["cpu_s"]
                lines.append(f"| {s['suite']} | CPU ours C (process) / {name} | {ratio:.2f} | | "
                             "| | | | | |")  # fmt: skip
        r = s.get("rounds")
        if isinstance(r, dict):
            ratios = r["ratios"]
            lines.append(f"| {s['suite']} | the same, {len(ratios)} rounds one after the other "
                         f"| median {r['median_ratio']:.2f} (range {min(ratios):.2f}-"
                         f"{max(ratios):.2f}) | | | | | | | |")  # fmt: skip
        mem = s.get("memory_c")
        if isinstance(mem, dict):
            lines.append(
                f"| {s['suite']} | C bytes per position, {len(mem['deals'])} largest deals "
                f"| {mem['mean_bytes_per_position']} (max {max(mem['bytes_per_position'])}) "
                "| | | | | | | |"
            )
        h = s.get("hint_c")
        if isinstance(h, dict):
            lines.append(
                f"| {s['suite']} | hint at the start of #{h['deal']} (hardest), median of "
                f"{h['runs']} fresh processes | {h['cpu_ms']} ms CPU (range "
                f"{h['cpu_ms_range'][0]}-{h['cpu_ms_range'][1]}), {h['wall_ms']} ms wall "
                "| | | | | | | |"
            )
        lines.append(f"| {s['suite']} | verdicts differ on | {s['disagreements'] or 'none'} "
                     "| | | | | | | |")  # fmt: skip
        apart = s.get("differ_under_narrower_rules")
        for preset, numbers in apart.items() if isinstance(apart, dict) else ():
            lines.append(f"| {s['suite']} | ours and Solvitaire {preset} (its rules) differ on "
                         f"| {numbers or 'none'} | | | | | | | |")  # fmt: skip
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns 0."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--suite", action="append", choices=sorted(SUITES), help="repeatable")
    parser.add_argument("--deals", help="override the suite's deal range, e.g. 1-100")
    parser.add_argument("--engines", help="comma-separated: c,python (default: the suite's)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per deal")
    parser.add_argument(
        "--solvitaire",
        help="the solvitaire executable (default: $SOLVITAIRE or on the PATH), the rival "
        "of the suites with a stock",
    )
    parser.add_argument("--no-fcs", action="store_true", help="do not run fc-solve")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run ours (C) and fc-solve this many times, alternately; report each ratio",
    )
    parser.add_argument(
        "--survey",
        action="store_true",
        help="run ours (C) as the `solitaire survey` command, start-up and all",
    )
    parser.add_argument(
        "--tag",
        default="",
        help="added to the result files' names, e.g. _python: bench_solver_<suite>_python.json",
    )
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(*json.loads(args.worker))
        return 0
    import solitaire_core
    from solitaire_core.solver.survey import parse_deals

    # The children import the package from its bytecode, as an installed package does (pip
    # compiles it at install time): a machine with PYTHONDONTWRITEBYTECODE set would
    # otherwise compile every module again in each child and count that as start-up.
    compileall.compile_dir(Path(solitaire_core.__file__).parent, quiet=1)
    use_fcs = not args.no_fcs and shutil.which("fc-solve") is not None
    if not args.no_fcs and not use_fcs:
        print("fc-solve not found: our solver only", file=sys.stderr)
    solvitaire = args.solvitaire or os.environ.get("SOLVITAIRE") or shutil.which("solvitaire")
    if solvitaire and not (os.path.isfile(solvitaire) and os.access(solvitaire, os.X_OK)):
        parser.error(f"--solvitaire: {solvitaire} is not an executable file")
    summaries = []
    for name in args.suite or list(SUITES):
        suite = SUITES[name]
        engines = args.engines.split(",") if args.engines else suite.engines
        summaries.append(
            run_suite(
                suite,
                list(parse_deals(args.deals or suite.deals)),
                engines=engines,
                use_fcs=use_fcs,
                timeout=args.timeout,
                quiet=args.quiet,
                rounds=args.rounds,
                survey=args.survey,
                solvitaire=solvitaire,
                tag=args.tag,
            )
        )
    print(table(summaries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
