"""Run the winnability atlas (docs/winnability.md): ``solitaire survey`` over
consecutive deals of every built-in variant and option, one resumable CSV each in
``benchmarks/results/atlas_<variant>[_<option value>].csv``.

    python benchmarks/atlas.py --deals 10000            # every configuration, deals 1-10000
    python benchmarks/atlas.py --deals 345700 --only seahaven
    python benchmarks/atlas.py --list                   # the configurations and their files

Configurations run one after another, cheapest first; each resumes from its CSV, so the
script can be stopped (Ctrl+C) and started again at any time. Rows are written without the
solutions' moves (``--no-solutions``) to keep the files small; ``solitaire solve VARIANT
--deal N`` shows any deal's solution. Each survey's ``--max-states`` is the budget in which
the game's own score may store 1,000,000 positions for the first round's games and
``--own-states`` (default 300,000) for the others, whose searches are longer
(``solitaire_core.solver.budget_for``: the other scores, restarts and shuffled searches
get their shares on top, as in every atlas run so far); a deal undecided within it is
counted as undecided.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from solitaire_core.plugins import BUILTIN_PLUGINS, get_registry
from solitaire_core.solver import budget_for

RESULTS = Path(__file__).resolve().parent / "results"
SOLITAIRE = Path(sys.executable).with_name("solitaire")
"""The installed command (``python -m solitaire_core.cli`` run from a source checkout would
import the checkout, which may lack the compiled solver)."""

FIRST_ROUND = (
    "seahaven", "sea-towers", "relaxed-seahaven", "eight-off", "double-sea-towers",
    "double-seahaven", "bakers-game", "freecell",
)  # fmt: skip
"""The first round's games, in the order they run (cheapest first)."""


def configurations() -> list[tuple[str, dict[str, str]]]:
    """Every built-in variant with its default options, then each other option choice:
    the first round's games first, then the rest by id."""
    registry = get_registry()
    builtin = [vid for vid, d in registry.variants.items() if d.plugin in BUILTIN_PLUGINS]
    order = [v for v in FIRST_ROUND if v in builtin] + sorted(set(builtin) - set(FIRST_ROUND))
    out: list[tuple[str, dict[str, str]]] = []
    for vid in order:
        definition = registry.variants[vid]
        out.append((vid, {}))
        for option in definition.options:
            out.extend(
                (vid, {option.name: choice.value})
                for choice in option.choices
                if choice.value != option.default
            )
    return out


def csv_path(variant: str, options: dict[str, str]) -> Path:
    """``atlas_<variant>.csv``, or ``atlas_<variant>_<value>.csv`` for an option choice."""
    suffix = "".join(f"_{value}" for _key, value in sorted(options.items()))
    return RESULTS / f"atlas_{variant}{suffix}.csv"


def main(argv: list[str] | None = None) -> int:
    """Run the surveys; returns the exit status of the first one that fails, else 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals 1-N (default 10000)")
    parser.add_argument("--only", nargs="+", metavar="ID", help="these variant ids only")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--own-states",
        type=int,
        default=300_000,
        metavar="N",
        help="positions of the game's own search outside the first round (default 300000)",
    )
    parser.add_argument("--list", action="store_true", help="print the plan and stop")
    args = parser.parse_args(argv)
    if not SOLITAIRE.exists():
        parser.error(f"{SOLITAIRE} not found: install the package (pip install .) first")
    for variant, options in configurations():
        if args.only and variant not in args.only:
            continue
        path = csv_path(variant, options)
        command = [
            str(SOLITAIRE), "survey", variant,
            "--deals", f"1-{args.deals}", "--csv", str(path), "--jobs", str(args.jobs),
            "--no-solutions",
        ]  # fmt: skip
        for key, value in options.items():
            command += ["--option", f"{key}={value}"]
        own = 1_000_000 if variant in FIRST_ROUND else args.own_states
        rules = get_registry().variants[variant].resolve(options)
        command += ["--max-states", str(budget_for(rules, own))]
        print(" ".join(command), flush=True)
        if args.list:
            continue
        # Run outside the source checkout: the survey's workers start with the current
        # folder on their import path, and a checkout's solitaire_core (without the
        # compiled solver when the venv installed a wheel) would shadow the installed one.
        status = subprocess.call(command, cwd=RESULTS)
        if status:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
