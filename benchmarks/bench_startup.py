"""Benchmark of the ``solitaire`` command's start-up: wall-clock time of whole commands.

Each command runs ``--runs`` times as a fresh process (after one untimed warm-up run, so
the file system cache is warm); the median counts, as hyperfine reports it. Beside wall
time the table gives the median CPU time (user + system) of the command and of the child
processes it waited for (a survey's workers; not a fork server, which nobody waits for):
it is less disturbed by other work on the machine. The commands:

* ``solitaire --version`` (goal: at most 0.1 s);
* ``solitaire list`` (goal: at most 0.3 s);
* ``solitaire show seahaven --deal 1``;
* ``solitaire survey seahaven --deals 1-1 --jobs 1`` and the same with ``--jobs 2``:
  the survey's fixed cost is its wall time minus the solver time it prints
  (``solver time: X s in all``); goal: at most 0.3 s with one job.

Run from the project root, with the project installed in the virtualenv::

    .venv/bin/python benchmarks/bench_startup.py                  # table + benchmarks/results/
    .venv/bin/python benchmarks/bench_startup.py --runs 5 --json -  # quick, JSON on stdout

To see what one command imports and what each import costs::

    .venv/bin/python -X importtime -m solitaire_core --version 2>&1 | sort -t'|' -k2 -n | tail

The ``solitaire`` script beside the interpreter is run (``python -m solitaire_core`` when
there is none), in the environment this script runs in, except that compiled bytecode is
cached as an installed package's is: in a private folder (``PYTHONPYCACHEPREFIX``, filled
by the warm-up run), even where ``PYTHONDONTWRITEBYTECODE`` is set. ``--no-bytecode-cache``
measures the other case, every run compiling the project's modules from source.

The JSON file records the machine, the Python version and the load average (before and
after the runs) with the numbers; numbers from different machines, or from a machine busy
with other work, are not comparable.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "bench_startup.json"
COMMANDS: dict[str, tuple[str, ...]] = {
    "version": ("--version",),
    "list": ("list",),
    "show": ("show", "seahaven", "--deal", "1"),
    "survey-jobs-1": ("survey", "seahaven", "--deals", "1-1", "--jobs", "1"),
    "survey-jobs-2": ("survey", "seahaven", "--deals", "1-1", "--jobs", "2"),
}
GOALS = {"version": 0.1, "list": 0.3, "survey-jobs-1": 0.3}
"""Seconds each median should stay under (for a survey: wall time minus solver time)."""
SOLVER_TIME = re.compile(r"solver time: ([0-9.]+) s in all")


def solitaire_command() -> list[str]:
    """How to start the ``solitaire`` command with this interpreter's environment."""
    script = Path(sys.executable).parent / "solitaire"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "solitaire_core"]


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far (0.0 where the
    platform does not count them)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Run one command: its wall time in seconds, the solver time it printed (0.0 when it
    printed none) and the CPU time of it and of the children it waited for.

    :raises RuntimeError: when the command fails.
    """
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit status {done.returncode}\n{done.stderr}")
    match = SOLVER_TIME.search(done.stdout)
    return wall, float(match.group(1)) if match else 0.0, children_cpu() - cpu


def bench(argv: list[str], runs: int, env: dict[str, str]) -> dict[str, float]:
    """Median, fastest and slowest wall time of ``runs`` runs, the median of wall time
    minus the solver time the command printed (its fixed cost) and the median CPU time
    (less disturbed than wall time by other work on the machine)."""
    run_once(argv, env)  # warm-up: file system cache, compiled bytecode
    walls: list[float] = []
    fixed: list[float] = []
    cpus: list[float] = []
    for _ in range(runs):
        wall, solver, cpu = run_once(argv, env)
        walls.append(wall)
        fixed.append(wall - solver)
        cpus.append(cpu)
    return {
        "median_s": round(statistics.median(walls), 4),
        "min_s": round(min(walls), 4),
        "max_s": round(max(walls), 4),
        "fixed_median_s": round(statistics.median(fixed), 4),
        "cpu_median_s": round(statistics.median(cpus), 4),
    }


def format_table(results: dict[str, dict[str, float]]) -> str:
    """The results as a plain-text table, one row per command."""
    head = ("command", "median s", "min s", "max s", "fixed s", "cpu s", "goal s")
    rows = [head] + [
        (
            name,
            f"{r['median_s']:.3f}",
            f"{r['min_s']:.3f}",
            f"{r['max_s']:.3f}",
            f"{r['fixed_median_s']:.3f}",
            f"{r['cpu_median_s']:.3f}",
            f"{GOALS[name]:.1f}" if name in GOALS else "",
        )
        for name, r in results.items()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = [
        "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths)))
        for row in rows
    ]
    return "\n".join(lines) + "\n"


def _load_average() -> float | None:
    """The one-minute load average (``None`` where the platform has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark, print the table and write the JSON result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed runs per command")
    parser.add_argument(
        "--commands", nargs="+", choices=list(COMMANDS), default=list(COMMANDS), metavar="NAME"
    )
    parser.add_argument(
        "--no-bytecode-cache",
        dest="bytecode_cache",
        action="store_false",
        help="compile the modules from source in every run (PYTHONDONTWRITEBYTECODE=1)",
    )
    parser.add_argument(
        "--json", default=str(RESULTS), help="where to write the JSON result ('-' for stdout)"
    )
    args = parser.parse_args(argv)
    base = solitaire_command()
    load_before = _load_average()
    with tempfile.TemporaryDirectory(prefix="bench-startup-pycache-") as cache:
        env = dict(os.environ)
        if args.bytecode_cache:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = cache
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env.pop("PYTHONPYCACHEPREFIX", None)
        results = {name: bench([*base, *COMMANDS[name]], args.runs, env) for name in args.commands}
    print(format_table(results), end="")
    report = {
        "benchmark": "bench_startup",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": [load_before, _load_average()],
        "settings": {
            "runs": args.runs,
            "bytecode_cache": args.bytecode_cache,
            "command": [Path(base[0]).name, *base[1:]],
        },
        "commands": {name: " ".join(("solitaire", *COMMANDS[name])) for name in args.commands},
        "goals_s": {name: GOALS[name] for name in args.commands if name in GOALS},
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
