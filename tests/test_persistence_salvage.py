"""Salvaging a damaged statistics file: what SQLite can still read is carried over.

The damaged files are made for real: 600 games recorded through :class:`StatsStore`, then
the file cut at a page boundary (the page size read from its header) or a run of 0xFF
bytes written inside a page of the games table.  What is checked is what a player
notices: no exception, the games count after opening, the damaged file kept beside.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from solitaire_core.persistence import StatsStore

GAMES = 600
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
TABLE_LEAF = 0x0D
"""The page type byte of a table b-tree leaf (https://www.sqlite.org/fileformat2.html)."""


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("SOLITAIRE_HOME", str(home))
    return home


@pytest.fixture(scope="module")
def full() -> Iterator[bytes]:
    """A statistics file holding 600 games, recorded through the public API (in memory
    where the system has a RAM folder: every game is fsynced)."""
    scratch = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=scratch) as folder:
        path = Path(folder) / "stats.sqlite3"
        with StatsStore(path) as store:
            for index in range(GAMES):
                store.record_game(
                    "seahaven",
                    {},
                    index,
                    index % 4 != 0,
                    80 + index % 50,
                    120.0 + index,
                    index % 5 == 0,
                    False,
                    False,
                    T0 + timedelta(minutes=index),
                )
        data = path.read_bytes()
    assert int.from_bytes(data[36:40], "big") == 0  # no free pages: every page is in use
    yield data


def page_size(data: bytes) -> int:
    size = int.from_bytes(data[16:18], "big")
    return 65536 if size == 1 else size


def pages(data: bytes) -> list[bytes]:
    size = page_size(data)
    return [data[at : at + size] for at in range(0, len(data), size)]


def games_on(page: bytes) -> int:
    """The games stored on a page: its cell count if it is a leaf of the games table
    (the only table besides the schema, which is page 1)."""
    return int.from_bytes(page[3:5], "big") if page[0] == TABLE_LEAF else 0


def played(store: StatsStore) -> int:
    return sum(entry.played + entry.cheat_wins for entry in store.summary())


def set_aside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".corrupt-*"))


def reopened_unchanged(path: Path, games: int) -> None:
    """The new file is whole: opening it again says nothing and shows the same games,
    and nothing is left of the salvage but the file set aside."""
    with StatsStore(path) as store:
        assert store.warnings == []
        assert played(store) == games
    assert sorted(p.name for p in path.parent.iterdir() if ".corrupt-" not in p.name) == [
        "stats.sqlite3",
        "stats.sqlite3.lock",
    ]


# --- garbage inside a page ---------------------------------------------------------------


def out_of_memory_damage(full: bytes) -> tuple[bytes, int]:
    """``full`` with 16 bytes of 0xFF inside a leaf page of the games table, at the first
    place where that makes SQLite's integrity check run out of memory (at offset 208 of
    the first leaf if it never does with this SQLite); and the number of that page."""
    size = page_size(full)
    leaves = [n for n, page in enumerate(pages(full)) if n and games_on(page)]
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe.sqlite3"
        for number in leaves[:3]:
            for offset in range(16, size - 16, 16):
                damaged = bytearray(full)
                damaged[number * size + offset : number * size + offset + 16] = b"\xff" * 16
                probe.write_bytes(damaged)
                conn = sqlite3.connect(probe)
                try:
                    conn.execute("PRAGMA integrity_check").fetchall()
                except MemoryError:
                    return bytes(damaged), number
                except sqlite3.DatabaseError:
                    pass
                finally:
                    conn.close()
    damaged = bytearray(full)
    at = leaves[0] * size + 208
    damaged[at : at + 16] = b"\xff" * 16
    return bytes(damaged), leaves[0]


def test_garbage_that_makes_sqlite_run_out_of_memory_is_damage(full: bytes, tmp_path: Path):
    damaged, number = out_of_memory_damage(full)
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(damaged)
    with StatsStore(path) as store:  # no MemoryError
        assert not store.in_memory
        (warning,) = store.warnings
        assert "is damaged" in warning and "moved aside" in warning
        games = played(store)
        # Every game on another page is carried over; of the damaged page, what reads.
        assert GAMES - games_on(pages(full)[number]) <= games <= GAMES
        assert f"with the {games} recorded games that read back whole" in warning
        if games < GAMES:
            assert f"; {GAMES - games} damaged game" in warning
    (moved,) = set_aside(path)
    assert moved.read_bytes() == damaged
    reopened_unchanged(path, games)


def test_the_stats_command_survives_garbage_that_exhausts_sqlite(full: bytes, home: Path):
    damaged, _ = out_of_memory_damage(full)
    path = home / "data" / "stats.sqlite3"
    path.parent.mkdir(parents=True)
    path.write_bytes(damaged)
    result = subprocess.run(
        [sys.executable, "-m", "solitaire_core", "stats"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SOLITAIRE_HOME": str(home)},
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "moved aside" in result.stdout + result.stderr
    assert "seahaven" in result.stdout
    assert set_aside(path)


# --- a copy cut at a page boundary ---------------------------------------------------------


def test_a_copy_without_its_last_page_keeps_every_game(full: bytes, tmp_path: Path):
    assert games_on(pages(full)[-1]) == 0  # the last page is the index's: no game lost
    cut = full[: len(full) - page_size(full)]
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(cut)
    with StatsStore(path) as store:
        (warning,) = store.warnings
        assert "cut short" in warning and "moved aside" in warning
        assert played(store) == GAMES
        assert warning.endswith(f"with the {GAMES} recorded games that read back whole.")
    (moved,) = set_aside(path)
    assert moved.read_bytes() == cut
    reopened_unchanged(path, GAMES)


def test_the_scores_of_a_damaged_file_are_carried_over(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    with StatsStore(path) as store:
        for index, score in enumerate((-42, 103, None)):
            store.record_game(
                "casino-klondike",
                {},
                index,
                index == 1,
                90,
                100.0,
                False,
                False,
                False,
                T0 + timedelta(minutes=index),
                score=score,
                scoring=None if score is None else "vegas-cumulative",
            )
    path.write_bytes(path.read_bytes() + b"\x00" * 100)  # no longer whole pages
    with StatsStore(path) as store:
        (warning,) = store.warnings
        assert warning.endswith("with the 3 recorded games that read back whole.")
        (casino,) = store.summary()
        assert (casino.played, casino.best_score, casino.bank) == (3, 103, 61)
    reopened_unchanged(path, 3)


def test_every_cut_at_a_page_boundary_keeps_the_games_left(full: bytes, tmp_path: Path):
    every = pages(full)
    for kept in range(3, len(every)):  # page 1 is the schema, 2 the table's root
        cut = b"".join(every[:kept])
        expected = GAMES - sum(games_on(page) for page in every[kept:])
        folder = tmp_path / f"cut-{kept}"
        folder.mkdir()
        path = folder / "stats.sqlite3"
        path.write_bytes(cut)
        with StatsStore(path) as store:
            (warning,) = store.warnings
            assert played(store) == expected, (kept, warning)
            if not expected:
                assert "no recorded game could be read whole" in warning, (kept, warning)
            elif expected < GAMES:  # the games left behind are mentioned
                assert "only in the file set aside" in warning, (kept, warning)
        (moved,) = set_aside(path)
        assert moved.read_bytes() == cut


# --- a start killed midway -------------------------------------------------------------------

KILLED = """
import os, sys
from solitaire_core.persistence import stats

real_quarantine = stats.quarantine
real_carry_over = stats.StatsStore._carry_over
when = sys.argv[2]

def quarantine(*args, **kwargs):
    if when == "before the move":
        os._exit(9)
    moved = real_quarantine(*args, **kwargs)
    if when == "after the move":
        os._exit(9)
    return moved

def carry_over(conn, rows):
    carried = real_carry_over(conn, rows)
    if when == "after the carry-over":
        os._exit(9)
    return carried

stats.quarantine = quarantine
stats.StatsStore._carry_over = staticmethod(carry_over)
stats.StatsStore(sys.argv[1])
print("not killed")
"""


@pytest.mark.parametrize("when", ["before the move", "after the move", "after the carry-over"])
def test_a_salvage_cut_short_is_finished_at_the_next_start(
    when: str, full: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(full)
    conn = sqlite3.connect(path)
    with conn:  # a game record_game could not have written: the file is damaged
        conn.execute("UPDATE games SET finished_at = '2024-01-01 00:00' WHERE id = 7")
    conn.close()
    damaged = path.read_bytes()
    result = subprocess.run(
        [sys.executable, "-c", KILLED, str(path), when],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 9, result.stdout + result.stderr
    with StatsStore(path) as store:
        (warning,) = store.warnings
        assert played(store) == GAMES - 1  # every whole game, none twice
        (moved,) = set_aside(path)
        assert moved.name in warning
        assert f"with the {GAMES - 1} recorded games that read back whole" in warning
        assert warning.endswith("; 1 damaged game is only in the file set aside.")
        if when != "before the move":
            assert "did not finish carrying its games over; now new statistics" in warning
    assert moved.read_bytes() == damaged
    reopened_unchanged(path, GAMES - 1)


def test_a_marker_whose_file_is_gone_says_where_to_look(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    with StatsStore(path) as store:
        store.record_game("seahaven", {}, 1, True, 10, 5.0, False, False, False)
    note = {"file": [1, 2, 3], "reason": "is damaged (test)"}
    (tmp_path / "stats.sqlite3.salvage-1").write_text(json.dumps(note))
    (tmp_path / "stats.sqlite3.salvage-2").write_bytes(b"\xff not a note")
    with StatsStore(path) as store:
        assert len(store.warnings) == 2
        for warning in store.warnings:
            assert "did not finish" in warning and "stats.sqlite3.corrupt-*" in warning
            assert str(tmp_path) in warning
        assert played(store) == 1
    reopened_unchanged(path, 1)


def test_a_salvage_that_cannot_read_now_is_retried_at_the_next_start(
    full: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from solitaire_core.persistence import stats

    cut = full[: len(full) - page_size(full)]
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(cut)

    def busy(moved: Path) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    with monkeypatch.context() as patch:
        patch.setattr(stats, "_salvage", busy)
        with StatsStore(path) as store:
            (warning,) = store.warnings
            assert "could not be carried over now (disk I/O error)" in warning
            assert "next start" in warning
            assert played(store) == 0
    with StatsStore(path) as store:
        (warning,) = store.warnings
        assert "did not finish carrying its games over" in warning
        assert f"with the {GAMES} recorded games" in warning
        assert played(store) == GAMES
    reopened_unchanged(path, GAMES)
