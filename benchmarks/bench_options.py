"""Loading a variant file whose option has many choices (1,000 choices once took 33 s).

Every choice is resolved once at load time to report a bad one early; each resolve must
cost the same whatever the number of choices, so loading grows linearly. Run from the
project root::

    python benchmarks/bench_options.py              # 10, 100, 1000 and 2000 choices
    python benchmarks/bench_options.py --choices 1000

Times are CPU seconds (``time.process_time``), best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import solitaire_variants

from solitaire_core.variant import parse_variant

SEAHAVEN = (Path(solitaire_variants.__file__).parent / "seahaven.toml").read_text("utf-8")


def many_choices(n: int) -> str:
    """Seahaven with one option of ``n`` choices, each setting ``cells.count``."""
    return (
        SEAHAVEN
        + '\n[options.many]\nlabel = "Many"\ndefault = "c0"\n'
        + "".join(
            f'[options.many.choices.c{i}]\nlabel = "C{i}"\nset = {{"cells.count" = {4 + i % 2}}}\n'
            for i in range(n)
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--choices", type=int, nargs="*", default=[10, 100, 1000, 2000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    parse_variant(many_choices(1), "warm-up.toml")
    print(f"{'choices':>8}  {'load (s)':>9}  {'per choice (ms)':>15}")
    for n in args.choices:
        text = many_choices(n)
        best = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            parse_variant(text, "many.toml")
            best = min(best, time.process_time() - start)
        print(f"{n:8}  {best:9.2f}  {best / n * 1000:15.2f}")


if __name__ == "__main__":
    main()
