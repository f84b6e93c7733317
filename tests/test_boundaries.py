"""No input a user or a plugin can supply stops the program.

Each test is the reproducer of one defect the fuzzing campaign found: bad variant files,
hostile plugins, damaged statistics and saves, huge deal numbers, bad command lines and
FIFOs in place of data files. The hostile plugins are real entry-point plugins
(tests/hostile_plugins.py); commands that could hang run in a subprocess with a timeout.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from subprocess import PIPE

import pytest
import solitaire_variants
from hostile_plugins import HOSTILE, install

from solitaire_core import cli, hookimpl
from solitaire_core import variant as variant_module
from solitaire_core.deal import MAX_DEAL, deal
from solitaire_core.errors import IllegalMoveError, SolitaireError, VariantError
from solitaire_core.moves import Move
from solitaire_core.persistence import (
    PersistenceError,
    SavedGame,
    StatsStore,
    decode_save,
    encode_save,
    load_autosave,
    read_save,
    write_save,
)
from solitaire_core.persistence import stats as stats_module
from solitaire_core.persistence.saves import MAX_SAVE_MOVES
from solitaire_core.plugins import build_registry, get_plugin_manager, get_registry
from solitaire_core.solver.survey import DealRanges, parse_deals
from solitaire_core.variant import load_variant_file, parse_variant

VARIANTS = Path(solitaire_variants.__file__).parent
SEAHAVEN = (VARIANTS / "seahaven.toml").read_text("utf-8")
BUILT_IN = {p.stem for p in VARIANTS.glob("*.toml")}


def solitaire(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "solitaire_core", *args],
        capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})},
    )  # fmt: skip


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


UNENFORCED = 97
"""The exit status of a run under a limit the system does not enforce."""

WATCHDOG = 240
"""Seconds after which a run under a limit is stopped, its threads' tracebacks shown."""

_UNDER_LIMIT = f"""
import faulthandler, mmap, resource, signal, sys
faulthandler.register(signal.SIGUSR1)  # where it is, should it hang (no thread started)
from solitaire_core import cli
import solitaire_core.solver.search, solitaire_core.solver.survey  # loaded before the limit
from solitaire_core.plugins import get_registry
get_registry()  # the variants too (their loading starts a thread: its stack, ~8 MB)
with open("/proc/self/status") as status:
    size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
hard = resource.getrlimit(resource.RLIMIT_AS)[1]
limit = size + int(sys.argv[1]) * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit if hard < 0 else min(limit, hard), hard))
try:  # new address space (a bytearray may be served from the heap's free memory)
    mmap.mmap(-1, 4 * int(sys.argv[1]) * 2**20)
except OSError:
    pass
else:
    sys.exit({UNENFORCED})  # the system does not hold the process to the limit
sys.exit(cli.main(sys.argv[2:]))
"""

needs_proc = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="reads the address space in /proc"
)


def solitaire_under_limit(megabytes: int, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``solitaire ARGS`` with its address space (``ulimit -v``, RLIMIT_AS) limited to
    what it holds once the command line and the solver are imported and the variants
    loaded, plus ``megabytes``. Skips the test where the system lets the process
    allocate past that limit (some sandboxes do not enforce it); a run still going after
    ``WATCHDOG`` seconds ends with the traceback of every thread on its standard error."""
    command = [sys.executable, "-c", _UNDER_LIMIT, str(megabytes), *args]
    # One malloc arena: a thread's own (64 MB of address space reserved before the limit)
    # would give the search room past the limit, glibc falling back on it.
    env = {**os.environ, "MALLOC_ARENA_MAX": "1"}
    with subprocess.Popen(command, stdout=PIPE, stderr=PIPE, text=True, env=env) as process:
        try:
            out, err = process.communicate(timeout=WATCHDOG)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGUSR1)
            time.sleep(2)
            process.kill()
            out, err = process.communicate()
            pytest.fail(f"still running after {WATCHDOG} s; where it was:\n{err}\n{out}")
    result = subprocess.CompletedProcess(command, process.returncode, out, err)
    if result.returncode == UNENFORCED:
        pytest.skip("this system does not hold a process to its address-space limit")
    return result


# -- variant files ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("columns = 10", "columns = 10.0", "tableau.columns"),
        ("decks = 1", "decks = 1.0", "decks"),
        ("count = 4\n\n[foundations]", "count = 4.0\n\n[foundations]", "cells.count"),
        ("columns = 5\n", "columns = 5.0\n", "deal.columns"),
        ("cells = [2, 3]", "cells = [2.0, 3]", "deal.cells.0"),
    ],
)
def test_whole_numbers_written_as_floats_are_refused_by_key(old: str, new: str, key: str):
    assert old in SEAHAVEN
    with pytest.raises(VariantError) as info:
        parse_variant(SEAHAVEN.replace(old, new, 1), "floats.toml")
    assert info.value.key_path == key
    assert "integer" in info.value.message or "whole number" in info.value.message


def test_a_float_in_an_option_choice_is_refused_at_load_time():
    text = SEAHAVEN + (
        '\n[options.cells]\nlabel = "Cells"\ndefault = "four"\n'
        '[options.cells.choices.four]\nlabel = "4"\nset = {"cells.count" = 4.0}\n'
    )
    with pytest.raises(VariantError, match="options.cells"):
        parse_variant(text, "option.toml")


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ("x = " + "[" * 500 + "]" * 500, "nested too deeply"),
        ("x = " + "9" * 5000, "a number is too long"),
    ],
)
def test_toml_the_parser_cannot_represent_is_a_variant_error(
    extra: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    path = tmp_path / "deep.toml"
    path.write_text(SEAHAVEN + "\n" + extra + "\n", "utf-8")
    status, _, err = run_main(capsys, "check", str(path))
    assert status == cli.EXIT_FAILURE and says in err and "Traceback" not in err


def test_an_id_with_a_trailing_newline_is_refused():
    with pytest.raises(VariantError, match="lowercase letters") as info:
        parse_variant(SEAHAVEN.replace('id = "seahaven"', 'id = "seahaven\\n"'), "nl.toml")
    assert info.value.key_path == "id"


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SEAHAVEN.encode("utf-8"))
    assert load_variant_file(path).id == "seahaven"
    status, out, _ = run_main(capsys, "check", str(path))
    assert status == 0 and "OK" in out


def test_option_names_and_values_with_commas_are_refused():
    text = SEAHAVEN + (
        '\n[options."a,b"]\nlabel = "A"\ndefault = "x"\n'
        '[options."a,b".choices.x]\nlabel = "X"\nset = {}\n'
    )
    with pytest.raises(VariantError, match="cannot hold ','"):
        parse_variant(text, "comma.toml")


def many_choices(n: int) -> str:
    return (
        SEAHAVEN
        + '\n[options.many]\nlabel = "Many"\ndefault = "c0"\n'
        + "".join(
            f'[options.many.choices.c{i}]\nlabel = "C{i}"\nset = {{"cells.count" = {4 + i % 2}}}\n'
            for i in range(n)
        )
    )


def test_an_option_with_1000_choices_loads_and_each_resolve_skips_the_option_table(
    monkeypatch: pytest.MonkeyPatch,
):
    validated: list[bool] = []
    real = variant_module._validate

    def counting(data, source):
        validated.append("options" in data)
        return real(data, source)

    monkeypatch.setattr(variant_module, "_validate", counting)
    definition = parse_variant(many_choices(1000), "many.toml")
    assert len(definition.options[0].choices) == 1000
    assert definition.resolve({"many": "c999"}).cells == 5
    # The whole file is validated once; each of the 1000 choices validates only the rules
    # (not the 1000-choice table again), which keeps loading linear in the choices, and
    # only where it changes them: the 500 choices of 5 cells (the file has 4), and the
    # resolve of c999 above.
    assert validated.count(True) == 1 and validated.count(False) == 501


def test_a_fifo_in_place_of_a_variant_file_is_refused_without_waiting(tmp_path: Path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    result = solitaire("check", str(fifo), timeout=60)
    assert result.returncode == cli.EXIT_FAILURE
    assert "FIFO" in result.stderr and "Traceback" not in result.stderr


# -- hostile plugins --------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(set(HOSTILE) - {"hostile_slow_import"}))
def test_one_hostile_plugin_is_reported_by_name_and_everything_else_loads(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.syspath_prepend(str(install(tmp_path / "plugins", [name])))
    registry = build_registry()
    assert BUILT_IN <= set(registry.variants)
    assert any(p.plugin == name for p in registry.problems), registry.problems
    mine = [p for p in registry.problems if p.plugin == name]
    assert all(p.reason for p in mine)
    assert not any(n.startswith("hostile") for n in registry.deal_methods)
    assert not any(n.startswith("hostile") for n in registry.predicates)


def test_sys_exit_in_a_plugin_is_reported_not_obeyed(tmp_path: Path, monkeypatch):
    folder = install(tmp_path / "plugins", ["hostile_exit_at_import", "hostile_exit_in_hook"])
    monkeypatch.syspath_prepend(str(folder))
    reasons = {p.plugin: p.reason for p in build_registry().problems}
    assert "sys.exit(0)" in reasons["hostile_exit_at_import"]
    assert "sys.exit(3)" in reasons["hostile_exit_in_hook"]


def test_a_predicate_answering_7_is_refused_with_the_cards(tmp_path: Path, monkeypatch):
    monkeypatch.syspath_prepend(str(install(tmp_path / "p", ["hostile_predicate_answers_7"])))
    problem = next(
        p for p in build_registry().problems if p.plugin == "hostile_predicate_answers_7"
    )
    assert "returned 7" in problem.reason and "expected True or False" in problem.reason


def test_every_command_survives_all_hostile_plugins_at_once(tmp_path: Path):
    folder = install(tmp_path / "plugins")
    env = {"PYTHONPATH": str(folder), "HOSTILE_SLOW_SECONDS": "0"}
    listed = solitaire("list", env=env)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    ids = {line.split()[0] for line in listed.stdout.splitlines()}
    assert BUILT_IN <= ids
    for name in set(HOSTILE) - {"hostile_slow_import"}:
        assert f"plugin {name!r}" in listed.stderr
    shown = solitaire("show", "seahaven", "--deal", "3", env=env)
    assert shown.returncode == 0 and "Seahaven Towers #3" in shown.stdout
    checked = solitaire("check", str(VARIANTS / "freecell.toml"), env=env)
    assert checked.returncode == 0 and "OK" in checked.stdout


def test_a_slow_plugin_is_named_while_it_loads(tmp_path: Path):
    folder = install(tmp_path / "plugins", ["hostile_slow_import"])
    result = solitaire("list", env={"PYTHONPATH": str(folder), "HOSTILE_SLOW_SECONDS": "8"})
    assert result.returncode == 0
    assert "still loading plugin 'hostile_slow_import'" in result.stderr
    assert "SOLITAIRE_DISABLE_PLUGINS=hostile_slow_import" in result.stderr


def test_plugins_load_when_the_system_refuses_the_slow_notices_thread(
    monkeypatch: pytest.MonkeyPatch,
):
    """Under ``ulimit -v`` the thread that names a slow plugin may not start ("can't start
    new thread", a traceback before): the plugins load without it."""
    import threading

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    usual: list = []
    build_registry(get_plugin_manager(usual))  # the suite installs a broken plugin
    monkeypatch.setattr(threading.Timer, "start", refuse)
    problems: list = []
    registry = build_registry(get_plugin_manager(problems))
    assert problems == usual
    assert registry.get("seahaven").resolve().name == "Seahaven Towers"
    assert len(registry.variants) == len(get_registry().variants)


def test_a_deal_method_that_exits_or_returns_junk_is_a_solitaire_error():
    class Dealer:
        @hookimpl
        def solitaire_deal_methods(self):
            return {"exits": lambda rules, n: sys.exit(1), "junk": lambda rules, n: [1, 2]}

    pm = get_plugin_manager()
    pm.register(Dealer(), name="dealer")
    registry = build_registry(pm)
    rules = registry.get("seahaven").resolve()
    for method in ("exits", "junk"):
        with pytest.raises(SolitaireError, match=f"plugin 'dealer': deal method {method!r}"):
            deal(attrs_evolve_method(rules, method), 1, registry.deal_methods)


def attrs_evolve_method(rules, method: str):
    import attrs

    return attrs.evolve(rules, deal=attrs.evolve(rules.deal, method=method))


# -- statistics -------------------------------------------------------------------------


def stats_file(path: Path) -> bytes:
    with StatsStore(path) as store:
        store.record_game("seahaven", {}, 5, True, 10, 3.0, False, False, False)
    return path.read_bytes()


def test_one_damaged_byte_in_the_schema_text_moves_the_file_aside(tmp_path: Path):
    good = stats_file(tmp_path / "good.sqlite3")
    start = good.index(b"CREATE TABLE games")
    end = good.index(b"games_in_order", good.index(b"CREATE INDEX")) + 40
    for number, offset in enumerate(range(start, end, 11)):
        for byte in (0xFF, 0x41):
            if good[offset] == byte:
                continue
            folder = tmp_path / f"case{number}-{byte}"
            folder.mkdir()
            damaged = bytearray(good)
            damaged[offset] = byte
            path = folder / "stats.sqlite3"
            path.write_bytes(damaged)
            with StatsStore(path) as store:  # never raises
                assert not store.in_memory, (offset, byte, store.warnings)
                assert "moved aside" in store.warnings[0], (offset, byte)
                assert store.summary() == []
            kept = list(folder.glob("stats.sqlite3.corrupt-*"))
            assert [k.read_bytes() for k in kept] == [bytes(damaged)]


def test_a_fifo_in_place_of_the_statistics_is_moved_aside_without_waiting(tmp_path: Path):
    path = tmp_path / "stats.sqlite3"
    os.mkfifo(path)
    code = (
        "import sys; from solitaire_core.persistence import StatsStore; "
        "s = StatsStore(sys.argv[1]); print(s.in_memory, s.warnings[0]); s.close()"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.startswith("False") and "moved aside" in result.stdout
    assert path.is_file()


def test_a_version_1_file_is_upgraded_keeping_every_game(tmp_path: Path):
    path = tmp_path / "stats.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(stats_module._TABLE_V1)
    conn.execute(stats_module._INDEX)
    conn.execute(
        "INSERT INTO games VALUES (1, 'seahaven', '', 7, 1, 90, 60.0, 0, 0, 0, "
        "'2024-01-01T00:00:00.000000Z')"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with StatsStore(path) as store:
        assert store.warnings == []
        (entry,) = store.summary()
        assert entry.won == 1 and entry.fewest_moves == 90
        store.record_game("seahaven", {}, MAX_DEAL, False, 3, 1.0, False, False, False)
        assert store.summary()[0].played == 2
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == stats_module.STATS_SCHEMA_VERSION
    assert conn.execute("SELECT deal FROM games ORDER BY id").fetchall() == [(7,), (str(MAX_DEAL),)]
    conn.close()
    with StatsStore(path) as store:  # the upgraded file opens as it is, no second move
        assert store.warnings == [] and store.summary()[0].played == 2


@pytest.mark.parametrize("number", [2**63 - 1, 2**63, MAX_DEAL])
def test_deals_up_to_the_largest_are_recorded_and_saved(number: int, tmp_path: Path):
    with StatsStore(tmp_path / "stats.sqlite3") as store:
        store.record_game("seahaven", {}, number, True, 80, 10.0, False, False, False)
        assert store.summary()[0].won == 1
    game = SavedGame(variant="seahaven", options={}, deal=number, moves=("t1>c",))
    write_save(game, tmp_path / "big.json")
    assert read_save(tmp_path / "big.json") == game


# -- saved games ------------------------------------------------------------------------


def test_a_move_with_a_5000_digit_count_is_not_a_move():
    with pytest.raises(IllegalMoveError, match="not a move"):
        Move.parse("t1>t2x" + "9" * 5000)
    with pytest.raises(IllegalMoveError):
        Move.parse("t" + "1" * 5000 + ">f")
    good = encode_save(SavedGame(variant="seahaven", options={}, deal=1, moves=("t1>t2",)))
    bad = good.replace(b'"t1>t2"', b'"t1>t2x' + b"9" * 5000 + b'"')
    with pytest.raises(PersistenceError, match="item 1 .* is not a move"):
        decode_save(bad, "autosave.json")


def test_an_autosave_with_a_5000_digit_count_is_moved_aside(tmp_path: Path):
    path = tmp_path / "autosave.json"
    good = encode_save(SavedGame(variant="seahaven", options={}, deal=1, moves=("t1>t2",)))
    path.write_bytes(good.replace(b'"t1>t2"', b'"t1>t2x' + b"9" * 5000 + b'"'))
    game, warnings = load_autosave(path)
    assert game is None and "moved aside" in warnings[0]
    assert not path.exists() and len(list(tmp_path.glob("autosave.json.corrupt-*"))) == 1


def _cycling_save(moves: int) -> bytes:
    """A saved Seahaven Towers deal 1 of ``moves`` legal moves: a card sent between two
    cells and back."""
    cycle = ("c2>c1", "c1>c2") * (moves // 2)
    return encode_save(SavedGame(variant="seahaven", options={}, deal=1, moves=cycle))


def test_a_save_over_the_move_cap_is_not_offered_but_moved_aside(tmp_path: Path):
    """A 1.9 M-move autosave (15 MB) was offered and took minutes to replay."""
    from solitaire_tk.shell.persist import AppStore

    assert MAX_SAVE_MOVES == 100_000
    data = tmp_path / "data"
    data.mkdir()
    content = _cycling_save(MAX_SAVE_MOVES + 2)
    (data / "autosave.json").write_bytes(content)
    store = AppStore(tmp_path)
    try:
        assert store.offer_resume() is None
    finally:
        store.close()
    [warning] = store.warnings
    assert "holds 100,002 moves, more than the 100,000 a saved game may hold" in warning
    assert "moved aside" in warning
    [kept] = data.glob("autosave.json.corrupt-*")
    assert kept.read_bytes() == content  # kept, not lost
    assert len(decode_save(_cycling_save(MAX_SAVE_MOVES)).moves) == MAX_SAVE_MOVES
    undone = ("t1>c1",) * MAX_SAVE_MOVES  # moves and undone moves count together
    too_many = SavedGame(
        variant="seahaven", options={}, deal=1, moves=("c2>c1",) * 2, undone=undone
    )
    with pytest.raises(PersistenceError, match="100,002 moves"):
        decode_save(encode_save(too_many))


def test_fifos_in_place_of_every_data_file_do_not_hang_the_start(tmp_path: Path):
    (tmp_path / "config").mkdir()
    (tmp_path / "data").mkdir()
    for fifo in ("config/settings.toml", "data/autosave.json", "data/stats.sqlite3"):
        os.mkfifo(tmp_path / fifo)
    code = (
        "import sys; from solitaire_tk.shell.persist import AppStore; "
        "s = AppStore(sys.argv[1]); print(len(s.warnings)); s.close()"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and result.stdout.strip() == "3", result.stderr


# -- the command line -------------------------------------------------------------------


def test_stats_option_with_a_comma_is_a_usage_error(
    solitaire_home: Path, capsys: pytest.CaptureFixture[str]
):
    status, _, err = run_main(capsys, "stats", "seahaven", "--option", "a,b=c")
    assert status == 2 and "repeat --option" in err


@pytest.mark.parametrize("deals", [f"1-{2**70}", "x-3", "5-1", "0-3", f"{10**20}"])
def test_survey_deals_outside_the_deal_numbers_are_usage_errors(
    deals: str, capsys: pytest.CaptureFixture[str]
):
    status, _, err = run_main(capsys, "survey", "seahaven", "--deals", deals, "--quiet")
    assert status == 2 and "--deals" in err


def test_a_billion_deals_are_ranges_not_a_list():
    deals = parse_deals("1-1000000000,5-10,2000000000")
    assert isinstance(deals, DealRanges)
    assert deals.ranges == (range(1, 1000000001), range(2000000000, 2000000001))
    assert len(deals) == 1000000001 and 999999999 in deals and 1000000001 not in deals
    assert deals[-1] == 2000000000 and deals[999999999] == 1000000000


def test_survey_csv_that_is_not_text_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    binary = tmp_path / "rows.csv"
    binary.write_bytes(bytes(range(256)) * 4)
    args = ("survey", "seahaven", "--deals", "1", "--quiet", "--csv", str(binary))
    status, _, err = run_main(capsys, *args)
    assert status == cli.EXIT_FAILURE and "not a survey file" in err
    assert binary.read_bytes() == bytes(range(256)) * 4


@needs_proc
def test_resuming_a_survey_reads_its_csv_under_a_tight_memory_limit(tmp_path: Path):
    """Reading the survey CSV back took its whole 2 GiB limit up front (MemoryError)."""
    rows = tmp_path / "rows.csv"
    first = solitaire("survey", "seahaven", "--deals", "1-2", "--jobs", "1", "--quiet",
                      "--csv", str(rows))  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert rows.stat().st_size < 1000
    again = solitaire_under_limit(
        64, "survey", "seahaven", "--deals", "1-3", "--jobs", "1", "--quiet", "--csv", str(rows)
    )
    assert again.returncode == 0, again.stderr
    assert "3 deals: 3 winnable" in again.stdout


def test_a_file_is_read_without_taking_its_limit_in_memory(tmp_path: Path):
    from solitaire_core.readfile import TooLargeError, read_file_bytes

    small = tmp_path / "small.txt"
    small.write_bytes(b"x" * 360)
    assert read_file_bytes(small, 2**62) == b"x" * 360  # no 4 EiB buffer asked for
    assert read_file_bytes(small, 360) == b"x" * 360
    with pytest.raises(TooLargeError):
        read_file_bytes(small, 359)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert read_file_bytes(empty, 10) == b""


@needs_proc
def test_solve_out_of_memory_is_undecided_not_a_traceback():
    """The Python engine under ``ulimit -v``: MemoryError tracebacks before, now the
    undecided verdict and its exit status."""
    result = solitaire_under_limit(
        12, "solve", "scotch-patience", "--deal", "7", "--engine", "python",
        "--max-states", "50000000", "--timeout", "180",
    )  # fmt: skip
    assert result.returncode == cli.EXIT_UNDECIDED == 4, result.stderr
    assert "Traceback" not in result.stderr
    assert "#7: undecided, the system refused the solver more memory" in result.stdout


@pytest.mark.parametrize("caused_by_memory", [True, False])
def test_solve_reports_a_system_error_from_lack_of_memory_as_undecided(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], caused_by_memory: bool
):
    """CPython reports a built-in that failed for want of memory as a SystemError caused by
    the MemoryError: that is undecided too; any other SystemError is a bug and raises."""
    import solitaire_core.solver

    def failing(*args: object, **kwargs: object) -> None:
        try:
            raise MemoryError if caused_by_memory else ValueError("a bug")
        except (MemoryError, ValueError) as exc:
            raise SystemError("<built-in method> returned a result with an exception set") from exc

    monkeypatch.setattr(solitaire_core.solver, "solve_deal", failing)
    if caused_by_memory:
        status, out, _ = run_main(capsys, "solve", "seahaven", "--deal", "1")
        assert status == cli.EXIT_UNDECIDED and "refused the solver more memory" in out
    else:
        with pytest.raises(SystemError):
            cli.main(["solve", "seahaven", "--deal", "1"])


def _user_variant(home: Path, file_name: str, name: str, variant_id: str = "evil") -> Path:
    """Seahaven's file as the user's variant ``variant_id`` named ``name``, written as
    ``file_name`` in ``home``'s variants folder."""
    folder = home / "data" / "variants"
    folder.mkdir(parents=True, exist_ok=True)
    text = SEAHAVEN.replace('id = "seahaven"', f'id = "{variant_id}"', 1)
    # A JSON string of BMP characters is a TOML basic string (controls as \\u001b).
    text = text.replace('name = "Seahaven Towers"', f"name = {json.dumps(name)}", 1)
    path = folder / file_name
    path.write_text(text, "utf-8")
    return path


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process registry is built anew for the test (and put back afterwards)."""
    from solitaire_core import plugins

    monkeypatch.setattr(plugins, "_REGISTRY", None)


TERMINAL_CONTROLS = ("\x1b", "\x07", "\r", "\x9b", "\u202e")


@pytest.mark.usefixtures("fresh_registry")
def test_text_from_user_files_reaches_the_terminal_escaped(
    solitaire_home: Path, capsys: pytest.CaptureFixture[str]
):
    """ESC, BEL, CR and newlines in a variant's name or file name went to the terminal."""
    assert 'id = "seahaven"' in SEAHAVEN and 'name = "Seahaven Towers"' in SEAHAVEN
    evil = _user_variant(solitaire_home, "evil\x1b[2J.toml", "Evil\x1b[31m\x07\r\nok: fake\u202e")
    folder = evil.parent
    (folder / "bad\x07\n.toml").write_text("format_version = 1\n", "utf-8")
    status, out, err = run_main(capsys, "list")
    assert status == 0
    [line] = [x for x in out.splitlines() if x.startswith("evil ")]
    assert "Evil\\x1b[31m\\x07\\r\\nok: fake\\u202e  (yours: " in line
    assert line.endswith("evil\\x1b[2J.toml)")
    [skipped] = [x for x in err.splitlines() if "bad" in x]
    assert skipped.startswith("skipped: plugin 'yours': bad\\x07\\n.toml: ")
    status, out, _ = run_main(capsys, "show", "evil", "--deal", "1")
    assert status == 0 and out.startswith("Evil\\x1b[31m\\x07\\r\\nok: fake\\u202e #1\n")
    status, out, _ = run_main(capsys, "check", str(evil))
    assert status == 0 and "evil\\x1b[2J.toml: OK: variant 'evil' (Evil\\x1b[31m" in out
    status, _, err = run_main(capsys, "check", str(folder / "bad\x07\n.toml"))
    assert status == cli.EXIT_FAILURE and "bad\\x07\\n.toml" in err
    status, out, _ = run_main(capsys, "solve", "evil", "--deal", "21")
    assert out.startswith("Evil\\x1b[31m\\x07\\r\\nok: fake\\u202e #21: ")
    for text in (out, err, capsys.readouterr().out):
        assert not any(c in text for c in TERMINAL_CONTROLS)


def test_printable_escapes_controls_and_keeps_every_script():
    assert cli.printable("Evil\x1b[31m\x07\r\n\x9b\u202e\u2028\udcff") == (
        "Evil\\x1b[31m\\x07\\r\\n\\x9b\\u202e\\u2028\\udcff"
    )
    assert cli.printable("Solitär 東 ♠ 🂡\u00a0x") == "Solitär 東 ♠ 🂡\u00a0x"
    assert cli.printable("a\tb\nc\x1b", keep="\n\t") == "a\tb\nc\\x1b"


# -- the user variants folder ---------------------------------------------------------------


def _not_a_folder(home: Path, kind: str) -> Path:
    """Make ``home``'s variants folder unusable in the way ``kind`` names; its path."""
    data = home / "data"
    variants = data / "variants"
    if kind == "data is a file":
        data.write_text("")
        return variants
    data.mkdir()
    if kind == "a file":
        variants.write_text("")
    elif kind == "a symlink loop":
        variants.symlink_to(variants)
    elif kind == "a dangling symlink":
        variants.symlink_to(home / "nowhere")
    return variants


FOLDER_PROBLEMS = {
    "a file": "variants is a file, not a folder",
    "a symlink loop": "variants is a symbolic link that leads back to itself",
    "a dangling symlink": "variants is a symbolic link to nothing",
    "data is a file": "data is a file, so ",
}


@pytest.mark.usefixtures("fresh_registry")
@pytest.mark.parametrize("kind", sorted(FOLDER_PROBLEMS))
def test_variant_new_into_a_folder_that_cannot_be_is_a_clear_error(
    kind: str, solitaire_home: Path, capsys: pytest.CaptureFixture[str]
):
    """FileExistsError and NotADirectoryError tracebacks before."""
    _not_a_folder(solitaire_home, kind)
    status, out, err = run_main(capsys, "variant", "new", "my-game", "--from", "seahaven")
    assert status == cli.EXIT_FAILURE and out == ""
    assert err.startswith("solitaire: error: cannot write my-game.toml: ")
    assert FOLDER_PROBLEMS[kind] in err
    status, out, err = run_main(capsys, "list")
    assert status == 0 and "seahaven " in out
    [line] = [x for x in err.splitlines() if "'yours'" in x]
    assert FOLDER_PROBLEMS[kind] in line and "no variant of yours is loaded" in line


def _socket_at(path: Path) -> socket.socket:
    """A Unix socket bound at ``path``, by its name from inside its folder: a socket's
    address holds at most 108 bytes, which a deep temporary folder (nox's) passes."""
    server = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        server.bind(path.name)
    finally:
        os.chdir(here)
    return server


@pytest.mark.usefixtures("fresh_registry")
def test_entries_of_the_variants_folder_that_are_no_file_are_named_with_the_reason(
    solitaire_home: Path, capsys: pytest.CaptureFixture[str]
):
    """A FIFO, a symlink loop, a folder named x.toml and a socket were skipped without a word."""
    good = _user_variant(solitaire_home, "good.toml", "Good Game", "good")
    folder = good.parent
    os.mkfifo(folder / "fifo.toml")
    (folder / "loop.toml").symlink_to(folder / "loop.toml")
    (folder / "dir.toml").mkdir()
    (folder / "notes.txt").write_text("not a variant")
    with _socket_at(folder / "sock.toml"):
        registry = build_registry()
    assert registry.variants["good"].name == "Good Game"
    reasons = {p.what: p.reason for p in registry.problems if p.plugin == "yours"}
    assert set(reasons) == {"dir.toml", "fifo.toml", "loop.toml", "sock.toml"}
    assert reasons["dir.toml"].endswith("dir.toml is a folder, not a file")
    assert reasons["fifo.toml"].endswith("fifo.toml is a FIFO (named pipe), not a file")
    assert reasons["loop.toml"].endswith("a symbolic link that leads back to itself")
    assert "sock.toml: cannot be read: " in reasons["sock.toml"]
    (folder / "sock.toml").unlink()
    status, _, err = run_main(capsys, "list")
    lines = [x for x in err.splitlines() if "'yours'" in x]
    assert status == 0 and len(lines) == 3  # one line each
    assert all(x.startswith("skipped: plugin 'yours': ") for x in lines)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file without read permission")
def test_an_unreadable_variant_file_is_named_with_the_reason(solitaire_home: Path):
    locked = _user_variant(solitaire_home, "locked.toml", "Locked")
    locked.chmod(0)
    [problem] = [p for p in build_registry().problems if p.plugin == "yours"]
    assert problem.what == "locked.toml" and "cannot be read: Permission denied" in problem.reason


def test_the_launcher_names_the_skipped_entries_of_the_variants_folder(solitaire_home: Path):
    from solitaire_tk.launcher.window import skipped_lines

    folder = _user_variant(solitaire_home, "good.toml", "Good Game", "good").parent
    for n in range(7):
        os.mkfifo(folder / f"fifo{n}.toml")
    lines = skipped_lines(build_registry())
    assert len(lines) == 6
    assert (
        lines[0]
        == f"Skipped fifo0.toml: {folder / 'fifo0.toml'} is a FIFO (named pipe), not a file"
    )
    assert lines[-1] == "and 2 more: 'solitaire list' names them all"
    registry = build_registry()
    registry.problems[:] = [p for p in registry.problems if p.plugin != "yours"]
    assert skipped_lines(registry) == []
    for entry in folder.iterdir():
        entry.unlink()
    folder.rmdir()
    folder.write_text("")
    assert skipped_lines(build_registry()) == [
        f"{folder} is a file, not a folder: no variant of yours is loaded"
    ]


@pytest.mark.gui
def test_the_launcher_shows_the_skipped_entries_in_red(root, solitaire_home: Path):
    from solitaire_tk.launcher.window import Launcher

    folder = solitaire_home / "data" / "variants"
    folder.mkdir(parents=True)
    (folder / "dir.toml").mkdir()
    launcher = Launcher(root, registry=build_registry(), on_play=lambda *a: None)
    launcher.pack()
    root.update()
    text = launcher.skipped_label.cget("text")
    assert text == f"Skipped dir.toml: {folder / 'dir.toml'} is a folder, not a file"
    assert launcher.skipped_label.winfo_ismapped()
    launcher.destroy()
    (folder / "dir.toml").rmdir()
    launcher = Launcher(root, registry=build_registry(), on_play=lambda *a: None)
    assert launcher.skipped_label.cget("text") == ""
    assert launcher.skipped_label.winfo_manager() == ""  # not laid out: no empty row


def test_a_closed_pipe_ends_the_command_quietly():
    proc = subprocess.Popen(
        [sys.executable, "-m", "solitaire_core", "show", "seahaven", "--deal", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader (e.g. head) went away before the first line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err


# -- the game window --------------------------------------------------------------------


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_a_game_with_a_deal_above_2_63_is_kept_recorded_and_the_window_closes(root, tmp_path):
    import tkinter as tk

    from solitaire_tk.shell.persist import AppStore
    from ui_helpers import open_app

    from solitaire_core.rules import legal_moves

    number = 2**63 + 12345
    app = open_app(root, tmp_path, "seahaven", deal=number)
    app.play(legal_moves(app.session.state)[0])
    assert app.store.record(app.session, won=False, elapsed_seconds=5.0, used_hint=False)
    app.quit()  # raised inside the Tk callback before: the window could never close
    with pytest.raises(tk.TclError):  # the window is gone
        root.winfo_exists()
    store = AppStore(tmp_path)
    try:
        saved = store.offer_resume()
        assert saved is not None and saved.deal == number
        assert store.stats.summary("seahaven")[0].lost == 1
    finally:
        store.close()


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_an_autosave_that_cannot_be_replayed_is_moved_aside_not_deleted(root, tmp_path):
    from solitaire_tk.shell.app import App
    from solitaire_tk.shell.persist import AppStore

    from solitaire_core.plugins import get_registry

    data = tmp_path / "data"
    game = SavedGame(variant="uninstalled-game", options={}, deal=3, moves=("t1>c",))
    write_save(game, data / "autosave.json")
    content = (data / "autosave.json").read_bytes()
    warned: list[str] = []

    class Resuming(App):
        def confirm(self, title: str, question: str) -> bool:
            return True

        def warn(self, title: str, text: str) -> None:
            warned.append(text)

    store = AppStore(tmp_path, registry=get_registry())
    Resuming(root, store=store, modal=False)
    assert warned and "not installed" in warned[0] and "moved aside" in warned[0]
    assert not (data / "autosave.json").exists()
    kept = list(data.glob("autosave.json.corrupt-*"))
    assert [k.read_bytes() for k in kept] == [content]


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_a_long_saved_game_is_replayed_in_chunks_with_a_progress_line(
    root, tmp_path, monkeypatch: pytest.MonkeyPatch
):
    """Replaying a long autosave froze the window for its whole length."""
    import solitaire_tk.shell.persist
    from solitaire_tk.shell.app import App
    from solitaire_tk.shell.persist import AppStore

    monkeypatch.setattr(solitaire_tk.shell.persist, "REPLAY_CHUNK", 400)
    data = tmp_path / "data"
    data.mkdir()
    (data / "autosave.json").write_bytes(_cycling_save(1000))
    shown: list[str | None] = []

    class Resuming(App):
        def confirm(self, title: str, question: str) -> bool:
            return True

        def show_progress(self, text: str | None) -> None:
            shown.append(text)

    app = Resuming(root, store=AppStore(tmp_path, registry=get_registry()), modal=False)
    assert shown == [
        "Replaying the saved game: 400 of 1,000 moves…",
        "Replaying the saved game: 800 of 1,000 moves…",
        None,
    ]
    assert app.session is not None and len(app.session.history) == 1000
    assert app.launcher is None


@pytest.mark.gui
@pytest.mark.usefixtures("solitaire_home")
def test_the_progress_window_comes_and_goes(root, tmp_path, monkeypatch: pytest.MonkeyPatch):
    import solitaire_tk.shell.persist
    from solitaire_tk.shell.app import App
    from solitaire_tk.shell.persist import AppStore

    app = App(root, store=AppStore(tmp_path, registry=get_registry()), modal=False)
    app.show_progress("Replaying the saved game: 2,000 of 100,000 moves…")
    assert app._progress is not None
    top, label = app._progress
    assert label.cget("text").startswith("Replaying") and top.winfo_exists()
    app.show_progress(None)
    assert app._progress is None and not top.winfo_exists()
    monkeypatch.setattr(solitaire_tk.shell.persist, "REPLAY_CHUNK", 300)
    game = app.replay(decode_save(_cycling_save(1000)))
    assert game is not None and len(game.session.history) == 1000
    assert app._progress is None
    assert not [w for w in root.winfo_children() if w.winfo_class() == "Toplevel"]


def test_a_fifo_as_the_conformance_scenario_file_is_refused_without_waiting(tmp_path: Path):
    fifo = tmp_path / "scenarios.toml"
    os.mkfifo(fifo)
    result = solitaire("conformance", "seahaven", "--scenarios", str(fifo), timeout=120)
    assert result.returncode == cli.EXIT_FAILURE and "FIFO" in result.stderr
    assert "Traceback" not in result.stderr
