"""Two running programs sharing one data folder: statistics and autosave, tested with real
processes (solitaire_core/persistence/locks.py)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from solitaire_tk.shell.persist import AppStore

from solitaire_core.persistence import StatsStore
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session

RECORDER = """
import sys, time
from pathlib import Path
from solitaire_core.persistence import StatsStore
path, go, count, deal = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
while not go.exists():
    time.sleep(0.01)
store = StatsStore(path)
for n in range(count):
    store.record_game("seahaven", {}, deal + n, n % 2 == 0, 50 + n, 9.5, False, False, False)
print(store.in_memory, len(store.warnings))
store.close()
"""

AUTOSAVER = """
import sys, time
from pathlib import Path
from solitaire_tk.shell.persist import AppStore
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
home, ready, leave = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
store = AppStore(home)
offered = store.offer_resume()
session = Session.new(get_variant("seahaven"), 11)
session.play("t1>c")
print(store.autosave(session, 4.0), offered is None, flush=True)
ready.touch()
while not leave.exists():
    time.sleep(0.01)
store.close()
"""


def start(script: str, *args: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def finish(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return out


def wait_for(path: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_two_programs_record_games_at_once_and_none_is_lost(tmp_path: Path):
    path, go = tmp_path / "stats.sqlite3", tmp_path / "go"
    procs = [start(RECORDER, path, go, 150, first) for first in (1, 10**19)]
    go.touch()
    assert [finish(p).split() for p in procs] == [["False", "0"], ["False", "0"]]
    with StatsStore(path) as store:
        (entry,) = store.summary()
        assert entry.played == 300 and entry.won == 150


def test_two_programs_opening_a_damaged_file_move_it_aside_once(tmp_path: Path):
    path, go = tmp_path / "stats.sqlite3", tmp_path / "go"
    path.write_bytes(b"this is not a database, it was damaged" * 100)
    procs = [start(RECORDER, path, go, 20, first) for first in (1, 1000)]
    go.touch()
    results = [finish(p).split() for p in procs]
    assert all(in_memory == "False" for in_memory, _ in results)
    assert sorted(int(warnings) for _, warnings in results) == [0, 1]  # one moved it aside
    assert len(list(tmp_path.glob("stats.sqlite3.corrupt-*"))) == 1
    with StatsStore(path) as store:
        assert store.summary()[0].played == 40  # both wrote to the same new file


def test_a_second_program_keeps_its_own_autosave_and_nothing_is_lost(tmp_path: Path):
    home = tmp_path / "home"
    ready, leave = tmp_path / "ready", tmp_path / "leave"
    first = start(AUTOSAVER, home, ready, leave)
    wait_for(ready, first)
    # The first program is running with its game autosaved: a second one must neither
    # offer that game (it would be played twice) nor overwrite or delete it.
    second = AppStore(home)
    assert second.offer_resume() is None
    other = Session.new(get_variant("freecell"), 22)
    other.play("t1>c")
    assert second.autosave(other, 7.0) is None
    assert second.clear_autosave() is None
    assert second.autosave(other, 8.0) is None
    second.close()
    leave.touch()
    assert finish(first).split() == ["None", "True"]

    third = AppStore(home)  # the first program's game, in the first slot
    game = third.offer_resume()
    assert game is not None and (game.variant, game.deal) == ("seahaven", 11)
    assert third.clear_autosave() is None  # that game ended
    third.close()
    fourth = AppStore(home)  # the second program's game is adopted, not lost
    game = fourth.offer_resume()
    assert game is not None and (game.variant, game.deal, game.elapsed_seconds) == (
        "freecell",
        22,
        8.0,
    )
    fourth.close()
