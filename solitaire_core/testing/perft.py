"""Perft-style golden counts: how many move sequences and distinct positions each variant
reaches from fixed deals, stored in ``data/perft.json`` so that any change to move
generation that alters them is caught.

Counting (as a session plays): the start is the deal followed by the variant's autoplay;
after each legal move the variant's autoplay is applied too. For depth ``d``:

* ``sequences[d-1]``: the number of sequences of ``d`` legal moves (classic perft);
  ``sequences[0]`` is the number of legal moves in the start position;
* ``positions[d-1]``: the number of distinct positions (``GameState`` equality: every pile
  compared card by card, pile order mattering) at the end of those sequences.

Normal difficulty (no cheat). Regenerate deliberately after an intended rules change::

    python -m solitaire_core.testing.perft --update
    python -m solitaire_core.testing.perft --check      # what the test suite does
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from ..deal import deal
from ..rules import _play, autoplay_moves, legal_moves
from ..state import GameState
from ..variant import Rules

DATA_FILE = "perft.json"
DEALS: tuple[int, ...] = (1, 40000)
"""Deal 1 (Microsoft's generator) and 40000 (PySolFC's Mersenne Twister)."""
DEPTH = 3
MAX_SEQUENCES = 2000
"""The golden file goes one move deeper only while a level counts at most this many
sequences, so that games with very many moves (Triple FreeCell's 13 columns and 10 cells:
138 moves at the start) stay cheap to check: their entries are shorter than DEPTH."""


@attrs.frozen
class PerftCounts:
    """Counts for one deal: ``sequences[d-1]`` and ``positions[d-1]`` for d = 1..depth."""

    sequences: tuple[int, ...]
    positions: tuple[int, ...]


def perft(
    rules: Rules, deal_number: int, depth: int = DEPTH, max_sequences: int | None = None
) -> PerftCounts:
    """Count move sequences and distinct positions 1..``depth`` moves from a deal.

    :param rules: the resolved variant.
    :param deal_number: the deal (see :mod:`solitaire_core.deal`).
    :param depth: the most moves, >= 1.
    :param max_sequences: stop before going one move deeper once a level counts more than
        this many sequences (``None``: always reach ``depth``).
    """
    start, _ = autoplay_moves(deal(rules, deal_number))
    layer: dict[GameState, int] = {start: 1}  # position -> sequences that reach it
    sequences: list[int] = []
    positions: list[int] = []
    for _ in range(depth):
        following: dict[GameState, int] = {}
        total = 0
        for position, paths in layer.items():
            moves = legal_moves(position)
            total += paths * len(moves)
            for move in moves:
                after, _ = autoplay_moves(_play(position, move))
                following[after] = following.get(after, 0) + paths
        sequences.append(total)
        positions.append(len(following))
        layer = following
        if max_sequences is not None and total > max_sequences:
            break
    return PerftCounts(tuple(sequences), tuple(positions))


def data_path() -> Path:
    """Where the golden file lives (inside the installed package)."""
    return Path(str(resources.files(__package__) / "data" / DATA_FILE))


def load_golden(path: Path | None = None) -> dict[str, Any]:
    """The golden file's contents: ``{"entries": [{"variant", "options", "deal",
    "sequences", "positions"}, ...], ...}``."""
    data: dict[str, Any] = json.loads((path or data_path()).read_text("utf-8"))
    return data


def compute_golden(deals: Sequence[int] = DEALS, depth: int = DEPTH) -> dict[str, Any]:
    """Counts for every configuration of every built-in variant (plugin ``variants``)."""
    from ..plugins import BUILTIN_PLUGINS, get_registry
    from .configs import variant_configurations

    entries = []
    for definition in get_registry().variants.values():
        if definition.plugin not in BUILTIN_PLUGINS:
            continue
        for config in variant_configurations(definition):
            rules = config.rules
            for number in deals:
                counts = perft(rules, number, depth, MAX_SEQUENCES)
                entries.append(
                    {
                        "variant": definition.id,
                        "options": dict(config.options),
                        "deal": number,
                        "sequences": list(counts.sequences),
                        "positions": list(counts.positions),
                    }
                )
    return {
        "format": 1,
        "about": "Perft counts of the built-in variants; see solitaire_core/testing/perft.py. "
        "Regenerate with: python -m solitaire_core.testing.perft --update",
        "depth": depth,
        "start": "the deal, then the variant's autoplay",
        "after_each_move": "the variant's autoplay",
        "positions_compared": "GameState equality (every pile card by card, pile order mattering)",
        "entries": entries,
    }


def dump(golden: dict[str, Any]) -> str:
    """The golden file's text: the header keys, then one entry per line (small diffs)."""
    head = {k: v for k, v in golden.items() if k != "entries"}
    lines = json.dumps(head, indent=1)[:-2] + ',\n "entries": [\n'
    lines += ",\n".join("  " + json.dumps(e) for e in golden["entries"])
    return lines + "\n ]\n}\n"


def differences(golden: dict[str, Any]) -> list[str]:
    """Entries whose counts differ from a fresh computation (one line each)."""
    from ..plugins import get_registry

    out = []
    registry = get_registry()
    for entry in golden["entries"]:
        definition = registry.variants.get(entry["variant"])
        if definition is None:
            out.append(f"{entry['variant']}: not installed")
            continue
        rules = definition.resolve(entry["options"])
        counts = perft(rules, entry["deal"], len(entry["sequences"]))
        got = {"sequences": list(counts.sequences), "positions": list(counts.positions)}
        want = {"sequences": entry["sequences"], "positions": entry["positions"]}
        if got != want:
            out.append(
                f"{entry['variant']} {entry['options']} deal {entry['deal']}: {want} -> {got}"
            )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m solitaire_core.testing.perft [--update | --check] [--output FILE]``."""
    parser = argparse.ArgumentParser(
        prog="python -m solitaire_core.testing.perft",
        description="Check (default) or regenerate the built-in variants' perft golden counts.",
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--update", action="store_true", help="recompute and write the file")
    group.add_argument("--check", action="store_true", help="compare with the file (default)")
    parser.add_argument(
        "--output", type=Path, help=f"file to write (default: the packaged {DATA_FILE})"
    )
    args = parser.parse_args(argv)
    if args.update:
        target = args.output or data_path()
        golden = compute_golden()
        target.write_text(dump(golden), "utf-8")
        print(f"wrote {len(golden['entries'])} entries to {target}")
        return 0
    problems = differences(load_golden(args.output))
    for line in problems:
        print(line)
    print("perft counts match" if not problems else f"{len(problems)} entries differ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
