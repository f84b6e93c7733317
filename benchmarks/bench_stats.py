"""Opening the statistics database (every opening runs ``PRAGMA integrity_check`` and
checks every recorded game, so a damaged file is noticed at start-up).

The database is filled through :meth:`StatsStore.record_game` (in ``/dev/shm`` when it
exists, so that the fsync of every game does not dominate), then opened ``--repeat``
times. Run from the project root::

    python benchmarks/bench_stats.py                  # 100, 1000 and 10000 games
    python benchmarks/bench_stats.py --games 10000

Times are wall-clock milliseconds (``time.perf_counter``), the median of the openings.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from solitaire_core.persistence import StatsStore

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def fill(path: Path, games: int) -> None:
    """``games`` games of three variants, a third of them with hints."""
    with StatsStore(path) as store:
        for n in range(games):
            hints = n % 3
            store.record_game(
                ("seahaven", "freecell", "sea-towers")[n % 3],
                {"empty_columns": "any"} if n % 3 == 2 else {},
                n,
                won=n % 2 == 0,
                moves=80 + n % 40,
                seconds=60.0 + n % 500,
                used_undo=n % 5 == 0,
                used_hint=hints > 0,
                cheated=False,
                finished_at=T0 + timedelta(minutes=n),
                hints=hints,
            )


def opening_ms(path: Path, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with StatsStore(path) as store:
            assert not store.warnings, store.warnings
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="*", default=[100, 1000, 10000])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    scratch = "/dev/shm" if os.path.isdir("/dev/shm") else None
    for games in args.games:
        with tempfile.TemporaryDirectory(prefix="bench-stats-", dir=scratch) as folder:
            path = Path(folder) / "stats.sqlite3"
            fill(path, games)
            print(f"{games:6} games: opening takes {opening_ms(path, args.repeat):7.1f} ms")


if __name__ == "__main__":
    main()
