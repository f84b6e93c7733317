"""Draw the winnability atlas: each variant's winnable rate with its 95% Wilson interval.

Reads the survey CSVs (``solitaire survey VARIANT --deals A-B --csv FILE``) given on the
command line, or every ``benchmarks/results/atlas_*.csv``; writes a PNG chart (default
``docs/winnability.png``) and prints the Markdown table of docs/winnability.md.

Needs matplotlib: ``pip install -e '.[charts]'``. Run from the project root::

    python scripts/winnability_chart.py
    python scripts/winnability_chart.py benchmarks/results/atlas_seahaven.csv --out chart.png
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs

from solitaire_core.solver.survey import wilson_interval

ROOT = Path(__file__).resolve().parent.parent

UNDECIDED_NOTED = 0.005
"""The share of undecided deals (the atlas aims below it) above which a row's label gives
the bounds over all its deals besides the rate over the decided ones."""


@attrs.frozen
class Rate:
    """The survey of one variant and option set.

    :param label: variant id and options, as the chart shows them.
    :param deals: the deal numbers surveyed, as ``"1-2000"`` (first and last).
    :param winnable: deals found winnable; ``unwinnable`` proved not; ``undecided`` neither.
    :param seconds: solver time summed over the deals (the CSV's ``seconds``).
    """

    label: str
    deals: str
    winnable: int
    unwinnable: int
    undecided: int
    seconds: float

    @property
    def decided(self) -> int:
        """Deals with a verdict."""
        return self.winnable + self.unwinnable

    @property
    def rate(self) -> float:
        """Winnable share of the decided deals (0 when none is decided)."""
        return self.winnable / self.decided if self.decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of :attr:`rate`."""
        return wilson_interval(self.winnable, self.decided)

    @property
    def bounds(self) -> tuple[float, float]:
        """The winnable share of all the deals surveyed, at least and at most: every
        undecided deal lost, or every one won (``(0.0, 0.0)`` for no deal). Where many
        deals are undecided, the rate over the decided ones leans towards the verdict
        the solver reaches sooner, and only these bounds hold."""
        total = self.decided + self.undecided
        if not total:
            return 0.0, 0.0
        return self.winnable / total, (self.winnable + self.undecided) / total


def read_rates(paths: Sequence[Path]) -> list[Rate]:
    """One :class:`Rate` per (variant, options) found in the CSV files.

    :raises SystemExit: for a file that is not a survey CSV.
    """
    groups: dict[tuple[str, str], dict[int, dict[str, str]]] = {}
    for path in paths:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            if not reader.fieldnames or "verdict" not in reader.fieldnames:
                raise SystemExit(f"{path}: not a survey CSV (no verdict column)")
            for row in reader:
                # A later row of a deal replaces an earlier one, as in the survey itself
                # (``--retry-undecided`` appends the new rows until it rewrites the file).
                groups.setdefault((row["variant"], row["options"]), {})[int(row["deal"])] = row
    rates = []
    for (variant, options), by_deal in sorted(groups.items()):
        rows = list(by_deal.values())
        numbers = sorted(int(r["deal"]) for r in rows)
        verdicts = [r["verdict"] for r in rows]
        rates.append(
            Rate(
                label=variant + (f" ({options})" if options else ""),
                deals=f"{numbers[0]}-{numbers[-1]}" if numbers else "",
                winnable=verdicts.count("winnable"),
                unwinnable=verdicts.count("unwinnable"),
                undecided=len(verdicts) - verdicts.count("winnable") - verdicts.count("unwinnable"),
                seconds=sum(float(r["seconds"]) for r in rows),
            )
        )
    return rates


def markdown(rates: Sequence[Rate]) -> str:
    """The atlas as a Markdown table."""
    lines = [
        "| variant | deals | winnable | unwinnable | undecided | rate | 95% interval | solver s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rates:
        low, high = r.interval
        # No deal decided: no rate, and no interval to give.
        rate, interval = (
            (f"{100 * r.rate:.2f}%", f"{100 * low:.2f}% to {100 * high:.2f}%")
            if r.decided
            else ("-", "-")
        )
        lines.append(
            f"| {r.label} | {r.deals} | {r.winnable} | {r.unwinnable} | {r.undecided} "
            f"| {rate} | {interval} | {r.seconds:.0f} |"
        )
    return "\n".join(lines)


def draw(rates: Sequence[Rate], out: Path) -> None:
    """A horizontal chart of the rates with their intervals, written to ``out`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 0.5 * len(rates) + 1.4), dpi=110)
    ys = list(range(len(rates)))[::-1]
    # A row with no deal decided has no rate: its band alone is drawn.
    shown = [(y, r) for y, r in zip(ys, rates) if r.decided]
    rate = [100 * r.rate for _, r in shown]
    low = [max(0.0, 100 * (r.rate - r.interval[0])) for _, r in shown]  # rounding at 0 / 100%
    high = [max(0.0, 100 * (r.interval[1] - r.rate)) for _, r in shown]
    for y, r in zip(ys, rates):
        if r.undecided:  # what the undecided deals leave open: a pale band behind
            least, most = r.bounds
            ax.hlines(y, 100 * least, 100 * most, color="#e3a34a", alpha=0.45, linewidth=7)
    ax.errorbar(
        rate,
        [y for y, _ in shown],
        xerr=[low, high],
        fmt="o",
        color="#1f5f8b",
        ecolor="#555",
        capsize=4,
    )
    for y, r in zip(ys, rates):
        least, most = r.bounds
        text = f"{100 * r.rate:.1f}%  ({r.decided:,} deals {r.deals})"
        if not r.decided:
            text = f"no deal decided; {100 * least:.1f}% to {100 * most:.1f}% of deals {r.deals}"
        elif r.undecided > UNDECIDED_NOTED * (r.decided + r.undecided):
            text = (
                f"{100 * r.rate:.1f}% of {r.decided:,} decided; "
                f"{100 * least:.1f}% to {100 * most:.1f}% of deals {r.deals}"
            )
        ax.annotate(
            text,
            (100 * r.rate if r.decided else 50.0, y),
            textcoords="offset points",
            xytext=(0, 8),
            ha="right" if r.rate > 0.65 else "center",  # long labels stay inside the axes
            fontsize=8,
        )
    ax.set_yticks(ys, [r.label for r in rates])
    ax.set_xlabel(
        "winnable deals, % of the decided ones (95% Wilson interval);\n"
        "band: from every undecided deal lost to every one won"
    )
    left = min([100 * min(r.interval[0], r.bounds[0]) for r in rates] + [100.0])
    ax.set_xlim(max(0.0, left - 5), 100.5)
    ax.set_ylim(-0.7, len(rates) - 0.3)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Winnability of the built-in variants (PySolFC deal numbers)")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    """Read the CSVs, draw the chart, print the table; returns 0."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("csv", nargs="*", type=Path, help="survey CSVs (default: the atlas')")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "winnability.png")
    args = parser.parse_args(argv)
    paths = args.csv or sorted((ROOT / "benchmarks" / "results").glob("atlas_*.csv"))
    if not paths:
        print("no survey CSV found", file=sys.stderr)
        return 1
    rates = read_rates(paths)
    draw(rates, args.out)
    print(markdown(rates))
    print(f"\nchart: {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
