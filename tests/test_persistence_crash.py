"""Crash tests: a child process writes in a tight loop and is killed at a random instant.

After each kill the file must parse and hold one of the two contents the child alternates
between (never a mixture), at most one temporary file may be left over, and for the
statistics every game whose commit the child confirmed must still be there. Bad files
moved aside must never be lost or cut, and the app's own save paths (AppStore's autosave
and statistics) must survive the same treatment.

The kill instants come from a seed that changes on every run; a failure names it, and
``SOLITAIRE_CRASH_SEED=<seed>`` replays the same instants.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from solitaire_core.persistence import (
    SavedGame,
    Settings,
    StatsStore,
    encode_save,
    load_settings,
    read_save,
    save_settings,
    temp_files_for,
    write_save,
)

ROOT = Path(__file__).resolve().parents[1]
SEED = int(os.environ.get("SOLITAIRE_CRASH_SEED") or random.SystemRandom().randrange(2**32))
KILLS = 30
MAX_DELAY = 0.050  # seconds after the child reports it is ready

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="kills and pid-based temp-file sweeping are tested on POSIX"
)


WARM = 4  # children started ahead of time, so interpreter start-up does not dominate

GO = """
import sys
print("ready", flush=True)
if sys.stdin.readline().strip() != "go":
    sys.exit(0)
"""


def spawn(code: str, args: list[str], home: Path) -> subprocess.Popen[str]:
    """Start a child that imports, prints "ready", and starts ``code`` on "go"."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["SOLITAIRE_HOME"] = str(home)
    return subprocess.Popen(
        [sys.executable, "-c", code.replace("#GO", GO), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def run_and_kill(child: subprocess.Popen[str], delay: float, confirmations: int = 0) -> list[str]:
    """Let a warm child write, then SIGKILL it.

    Args:
        child: a child from :func:`spawn`.
        delay: seconds to let it run (after ``confirmations`` "ok" lines, if any).
        confirmations: first wait until the child has printed this many "ok" lines.

    Returns:
        The lines it printed after "ready".
    """
    assert child.stdin is not None and child.stdout is not None
    first = child.stdout.readline()
    if first.strip() != "ready":
        child.kill()
        _, errors = child.communicate(timeout=10)
        pytest.fail(f"child did not start: {first!r}\n{errors}")
    child.stdin.write("go\n")
    child.stdin.flush()
    lines = [child.stdout.readline().strip() for _ in range(confirmations)]
    time.sleep(delay)
    child.kill()  # SIGKILL: no cleanup, no atexit, no flush
    output, errors = child.communicate(timeout=10)
    assert child.returncode == -9, errors
    return lines + output.splitlines()


def kill_repeatedly(
    name: str, code: str, args: list[str], home: Path, check: Callable[[list[str]], None]
) -> None:
    """Run KILLS children one after the other, killing each after a random delay
    (0 to MAX_DELAY s, seeded) and calling ``check`` with its output after each kill.

    However slow the disk, a last child is killed only after it confirmed two complete
    writes, so every run covers a writer killed after changing the file.
    """
    rng = random.Random(f"persistence-crash-{name}-{SEED}")
    warm = deque(spawn(code, args, home) for _ in range(WARM))
    try:
        for number in range(KILLS + 1):
            child = warm.popleft()
            if number + WARM <= KILLS:
                warm.append(spawn(code, args, home))
            delay = rng.uniform(0.0, MAX_DELAY)
            lines = run_and_kill(child, delay, confirmations=2 if number == KILLS else 0)
            try:
                check(lines)
            except AssertionError as error:
                raise AssertionError(
                    f"{error}\n(kill {number}, {delay * 1000:.1f} ms; replay with "
                    f"SOLITAIRE_CRASH_SEED={SEED})"
                ) from error
    finally:
        for child in warm:
            child.kill()
            child.communicate(timeout=10)


# --- saved games ---------------------------------------------------------------------------

SAVE_CHILD = """
import sys
from pathlib import Path
from solitaire_core.persistence import decode_save, write_save
target, first, second = sys.argv[1:4]
contents = [Path(first).read_bytes(), Path(second).read_bytes()]
games = [decode_save(content) for content in contents]
#GO
# Start with the content the file does not hold, so the first write changes it.
count = 1 if Path(target).read_bytes() == contents[0] else 0
while True:
    write_save(games[count % 2], target)
    count += 1
    print("ok", flush=True)
"""


def test_saved_game_survives_kills(tmp_path: Path) -> None:
    short = SavedGame("seahaven", {}, 1, ("t1>f",), saved_at="2024-01-01T00:00:00Z")
    long = SavedGame(
        "double-sea-towers",
        {"redeals": "2", "towers": "6"},
        987654321,
        tuple(f"t{i % 10 + 1}>t{(i + 3) % 10 + 1}x{i % 4 + 1}" for i in range(3000)),
        undone=("c1>f",) * 50,
        elapsed_seconds=1234.5,
        used_undo=True,
        saved_at="2024-06-01T00:00:00Z",
    )
    contents = {encode_save(short): short, encode_save(long): long}
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_bytes(encode_save(short))
    second.write_bytes(encode_save(long))
    target = tmp_path / "saves" / "game.json"
    write_save(short, target)
    writes = 0

    def check(lines: list[str]) -> None:
        nonlocal writes
        writes += lines.count("ok")
        data = target.read_bytes()
        assert data in contents, f"mixed or partial file of {len(data)} bytes"
        assert read_save(target) == contents[data]
        assert len(temp_files_for(target)) <= 1
        assert sorted(p.name for p in target.parent.iterdir() if not p.name.startswith(".")) == [
            "game.json"
        ]

    kill_repeatedly("saves", SAVE_CHILD, [str(target), str(first), str(second)], tmp_path, check)
    # The last child confirmed two writes (one of each content) before its kill; a loaded
    # machine may keep the others from writing at all before theirs.
    assert writes >= 2, "the child never got to write both contents"


# --- settings ------------------------------------------------------------------------------

SETTINGS_CHILD = """
import json, sys
from solitaire_core.persistence import Settings, load_settings, save_settings
choices = [Settings(**value) for value in json.loads(sys.argv[1])]
#GO
# Start with the settings the file does not hold, so the first write changes them.
count = 1 if load_settings()[0] == choices[0] else 0
while True:
    save_settings(choices[count % 2])
    count += 1
    print("ok", flush=True)
"""


def test_settings_survive_kills(tmp_path: Path) -> None:
    a = Settings()
    b = Settings(
        last_variant="sea-towers-with-a-long-name",
        last_options={f"option{i}": "x" * i for i in range(40)},
        animation=False,
        four_colour=True,
        window_width=1920,
        window_height=1080,
        winnable_only=True,
        difficulty="cheat",
    )
    values = [
        {k: v.to_dict() if k == "last_options" else v for k, v in attrs.asdict(s).items()}
        for s in (b, a)
    ]
    home = tmp_path / "home"
    target = home / "config" / "settings.toml"
    save_settings(a, target)
    raw = {target.read_bytes()}
    save_settings(b, target)
    raw.add(target.read_bytes())
    save_settings(a, target)
    writes = 0

    def check(lines: list[str]) -> None:
        nonlocal writes
        writes += lines.count("ok")
        assert target.read_bytes() in raw
        settings, warnings = load_settings(target)
        assert warnings == []
        assert settings in (a, b)
        assert len(temp_files_for(target)) <= 1

    kill_repeatedly("settings", SETTINGS_CHILD, [json.dumps(values)], home, check)
    assert writes >= 2, "the child never got to write both settings"


# --- statistics ----------------------------------------------------------------------------

STATS_CHILD = """
import sys
from solitaire_core.persistence import StatsStore
store = StatsStore(sys.argv[1])
assert not store.warnings, store.warnings
#GO
count = 0
while True:
    store.record_game(
        "seahaven", {"redeals": str(count % 3)}, count, count % 2 == 0, count, count * 0.5,
        count % 5 == 0, False, False,
    )
    count += 1
    print("ok", flush=True)
"""


def test_statistics_survive_kills(tmp_path: Path) -> None:
    target = tmp_path / "data" / "stats.sqlite3"
    with StatsStore(target) as store:
        assert store.warnings == []
    confirmed = 0
    kills = 0

    def check(lines: list[str]) -> None:
        nonlocal confirmed, kills
        confirmed += lines.count("ok")
        kills += 1
        with StatsStore(target) as store:
            assert store.warnings == []
            rows = sum(entry.played for entry in store.summary())
        # Every confirmed commit is there; at most one unconfirmed commit per kill.
        assert confirmed <= rows <= confirmed + kills
        # A journal the kill left before it became "hot" may remain until the next write.
        names = sorted(p.name for p in target.parent.iterdir() if not p.name.endswith(".lock"))
        assert names in (["stats.sqlite3"], ["stats.sqlite3", "stats.sqlite3-journal"])

    kill_repeatedly("stats", STATS_CHILD, [str(target)], tmp_path, check)
    assert confirmed > 0, "the child never committed a game"


# --- moving bad files aside ----------------------------------------------------------------

ASIDE_CHILD = """
import sys
from pathlib import Path
from solitaire_core.persistence import StatsStore, atomic_write_bytes, load_autosave
folder = Path(sys.argv[1])
#GO
count = int(sys.argv[2])
while True:
    count += 1
    atomic_write_bytes(folder / "autosave.json", b"bad autosave %d" % count)
    game, warnings = load_autosave(folder / "autosave.json")
    assert game is None and "moved aside" in warnings[0], warnings
    atomic_write_bytes(folder / "stats.sqlite3", b"bad statistics %d" % count * 64)
    store = StatsStore(folder / "stats.sqlite3")
    assert not store.in_memory, store.warnings
    store.record_game("seahaven", {}, count, True, 1, 1.0, False, False, False)
    store.close()
    print(f"ok {count}", flush=True)  # one write: a kill cannot split "ok" from its number
"""


def test_bad_files_moved_aside_are_never_lost_or_cut(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    confirmed: set[int] = set()
    runs = 0

    def check(lines: list[str]) -> None:
        nonlocal runs
        runs += 1
        confirmed.update(int(line.split()[1]) for line in lines if line.startswith("ok"))
        autosaves: set[int] = set()
        for path in folder.glob("autosave.json*"):
            if path.name.endswith(".lock"):
                continue
            data = path.read_bytes()
            assert data.startswith(b"bad autosave "), (path.name, data[:40])
            autosaves.add(int(data.split()[-1]))  # whole: the number is the last thing
        for path in folder.glob("stats.sqlite3.corrupt-*"):
            data = path.read_bytes()
            if data.startswith(b"bad statistics"):
                number = data[len(b"bad statistics ") :].split(b"bad")[0]
                assert data == b"bad statistics %d" % int(number) * 64, path.name
        assert confirmed <= autosaves, "a bad autosave moved aside was lost"
        with StatsStore(folder / "stats.sqlite3") as store:  # whatever the kill left
            assert not store.in_memory, store.warnings
        assert len(list(folder.glob(".*.tmp-*"))) <= 2  # at most one per target

    kill_repeatedly(
        "aside", ASIDE_CHILD.replace("sys.argv[2]", "0"), [str(folder)], tmp_path, check
    )
    assert confirmed, "the child never moved a file aside"


# --- the app's own save paths --------------------------------------------------------------

APP_CHILD = """
import sys
from pathlib import Path
from solitaire_tk.shell.persist import AppStore
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
games = []
for number in (5, 6):
    session = Session.new(get_variant("seahaven"), number)
    session.play("t1>c")
    games.append(session)
#GO
# Opened after "go": a kill may land while it opens, and a warm child waiting for its
# turn holds no autosave slot (it is not a running game yet).
store = AppStore(Path(sys.argv[1]))
assert not store.warnings, store.warnings
count = 0
while True:
    assert store.autosave(games[count % 2], float(count)) is None
    finished = Session.new(get_variant("freecell"), count + 1)
    finished.play("t1>c")
    assert store.record(finished, won=False, elapsed_seconds=1.0, used_hint=False)
    count += 1
    print("ok", flush=True)
"""


def test_the_apps_autosave_and_statistics_survive_kills(tmp_path: Path) -> None:
    pytest.importorskip("solitaire_tk.shell.persist")
    from solitaire_tk.shell.persist import AppStore

    home = tmp_path / "home"
    confirmed = 0
    deals: set[int] = set()

    def check(lines: list[str]) -> None:
        nonlocal confirmed
        confirmed += lines.count("ok")
        store = AppStore(home)  # the killed program's autosave slot is free again
        try:
            assert store.warnings == []
            game = store.offer_resume()
            if confirmed:
                assert game is not None and game.moves == ("t1>c1",)
                # Whole: the deal and the clock come from the same write.
                assert int(game.elapsed_seconds) % 2 == {5: 0, 6: 1}[game.deal]
                deals.add(game.deal)
            played = sum(entry.played for entry in store.stats.summary("freecell"))
            assert confirmed <= played
        finally:
            store.close()

    kill_repeatedly("app", APP_CHILD, [str(home)], tmp_path, check)
    assert confirmed > 0 and deals  # the last child is killed after two whole writes
