"""Solve deals one after another in this process and print the positions and CPU time:
the loop to count instructions over, where a shared host makes times too noisy to compare
(two builds of the code, say)::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/solve_loop.py freecell 1-100
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/solve_loop.py freecell 1-0     # the start-up alone

Subtract the second count ("Collected") from the first for the solves alone.
"""

from __future__ import annotations

import argparse
import time

from solitaire_core.plugins import get_variant
from solitaire_core.solver import solve_deal


def main(argv: list[str] | None = None) -> None:
    """Parse ``VARIANT FIRST-LAST`` and solve those deals at the default budget."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("deals", help="FIRST-LAST (LAST below FIRST: none)")
    args = parser.parse_args(argv)
    first, last = (int(n) for n in args.deals.split("-"))
    rules = get_variant(args.variant).resolve()
    started = time.process_time()
    positions = 0
    for number in range(first, last + 1):
        positions += solve_deal(rules, number).positions
    print(f"positions {positions} cpu {time.process_time() - started:.2f} s")


if __name__ == "__main__":
    main()
