"""The variant workshop's background work and its checks, per built-in variant.

1. Validation: one :func:`~solitaire_core.variant.parse_variant` of the variant's text, as
   the editor runs it a moment after each key press (median of repeats, ms).
2. Quick checks: :func:`~solitaire_core.testing.quick.quick_checks` (deals 1-3, 300 random
   moves, perft depth 2), as the editor runs them after each valid change (s).
3. Solve deals 1-20 with the editor's budget (200 000 positions, 10 s each): the time the
   editor's "Solve deals 1-20" takes, and the verdicts.

Usage: ``python benchmarks/bench_workshop.py [VARIANT ...] [--no-solve]``. CPU time of
this process (``time.process_time``), so a busy machine slows the wall clock, not the
numbers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", help="variant ids (default: every built-in)")
    parser.add_argument("--no-solve", action="store_true", help="skip the solver's part")
    args = parser.parse_args(argv)

    from solitaire_core.plugins import BUILTIN_PLUGINS, get_registry
    from solitaire_core.solver import Verdict, solve_deal
    from solitaire_core.testing.quick import quick_checks
    from solitaire_core.variant import parse_variant

    registry = get_registry()
    chosen = args.variants or [
        vid for vid, d in registry.variants.items() if d.plugin in BUILTIN_PLUGINS
    ]
    print(f"{'variant':<20} {'validate ms':>11} {'quick s':>8} {'solve 1-20 s':>12}  verdicts")
    for vid in chosen:
        definition = registry.get(vid)
        text = Path(definition.source).read_text("utf-8")
        times = []
        for _ in range(20):
            start = time.process_time()
            parse_variant(text, vid, predicates=registry.predicates)
            times.append(time.process_time() - start)
        rules = definition.resolve()
        start = time.process_time()
        results = quick_checks(rules)
        quick = time.process_time() - start
        assert all(r.ok for r in results), results
        solve_s, verdicts = "-", ""
        if not args.no_solve:
            counts = {v: 0 for v in Verdict}
            start = time.process_time()
            for number in range(1, 21):
                counts[solve_deal(rules, number, max_states=200_000, timeout=10.0).verdict] += 1
            solve_s = f"{time.process_time() - start:.2f}"
            verdicts = ", ".join(f"{n} {v.value}" for v, n in counts.items() if n)
        print(
            f"{vid:<20} {statistics.median(times) * 1000:>11.1f} {quick:>8.2f} "
            f"{solve_s:>12}  {verdicts}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
