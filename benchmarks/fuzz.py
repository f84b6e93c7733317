"""Fuzzing the boundaries: no file, plugin or argument may stop the program or lose data.

Five campaigns (the counts of the last full run are the defaults):

* ``variants``: mutated variant files (byte flips, cuts, floats for whole numbers, huge
  and deep values, BOMs, unknown keys, many-choice options, keys at the schema's
  extremes...). Each is checked, and when accepted every option choice is resolved, a
  deal is dealt, its legal moves listed, its layout printed and it is solved with a small
  budget. Failure: anything raised but :class:`VariantError`/``SolitaireError``.
* ``plugins``: the eleven hostile plugins of tests/hostile_plugins.py, each installed as
  a real entry point; ``solitaire list``, ``show`` and ``check`` run in a subprocess.
  Failure: a traceback, a non-zero status, a built-in variant missing, a slow plugin not
  named, or a hang.
* ``files``: corrupt statistics databases, autosaves and settings files put in a data
  folder, then the app's start-up (:class:`solitaire_tk.shell.persist.AppStore`), a resume of the
  offered game and one recorded game. Failure: anything raised, or lost data: the bad
  file's bytes neither still in place nor in a ``*.corrupt-*`` file beside it (or, for
  statistics kept in place, recorded games missing).
* ``cli``: bad command lines (out-of-range numbers, commas, FIFOs, folders, binary files,
  a closed stdout...) run as ``python -m solitaire_core`` subprocesses. Failure: a
  traceback, a hang, or a status other than 0, 1, 2, 3 or 141.
* ``memory``: ``solve`` (either engine, budgets up to 10 million positions), a ``survey``
  resumed from its CSV, ``show`` and ``list``, each in a subprocess under an address-space
  limit (``RLIMIT_AS``) of the baseline (a process that imported the CLI and the solver
  and dealt a game) plus 8 to 512 MB. Failure: a traceback, a hang, or a status other
  than 0-4 or 141 (4: the solver was refused memory and says so).

Every trial runs in a worker process (an isolated call with a time limit; a hang is a
failure) or in its own subprocess. Run it in the background, at low priority::

    nice -n 19 python benchmarks/fuzz.py --jobs 2 > /tmp/fuzz.log 2>&1 &
    python benchmarks/fuzz.py --variants 200 --files 200 --cli 20 --plugins 2   # quick

It prints trials and failures per campaign (with the first failures' reproducers) and
writes them to benchmarks/results/fuzz.json. With ``--save-failures DIR``, the data files
of each failing ``files`` trial are written to ``DIR/files-SEED-TRIAL/`` (with the
problem in ``problem.txt``): put them in a data folder to reproduce it. Only the data-file
campaign::

    nice -n 10 python benchmarks/fuzz.py --variants 0 --plugins 0 --cli 0 --jobs 1 \
        --save-failures /tmp/fuzz-failures
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "fuzz.json"
TRIAL_SECONDS = 60  # a trial still running after this long is a hang
BATCH = 250


class Hang(BaseException):
    """A trial ran past its time limit."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- mutations ---------------------------------------------------------------------------


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """One random byte-level damage: flips, a cut, an insertion, a deletion, junk."""
    buf = bytearray(data)
    kind = rng.randrange(7)
    if kind == 0 or not buf:
        for _ in range(rng.randint(1, 4)):
            if buf:
                buf[rng.randrange(len(buf))] = rng.randrange(256)
    elif kind == 1:
        del buf[rng.randrange(len(buf)) :]
    elif kind == 2:
        at = rng.randrange(len(buf) + 1)
        buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    elif kind == 3:
        at = rng.randrange(len(buf))
        del buf[at : at + rng.randint(1, 200)]
    elif kind == 4:
        buf += bytes(rng.randrange(256) for _ in range(rng.randint(1, 4096)))
    elif kind == 5:
        at = rng.randrange(len(buf))
        buf[at] ^= 1 << rng.randrange(8)
    else:
        buf = bytearray(rng.randbytes(rng.randint(0, 8192)))
    return bytes(buf)


NASTY_VALUES = [
    "10.0",
    "1.0",
    "-1",
    "0",
    "4.5",
    "1e3",
    "nan",
    "inf",
    "9" * 5000,
    str(2**70),
    str(2**63),
    '"ten"',
    "true",
    "[]",
    "{}",
    '"seahaven\\n"',
    '"\\u0000"',
    '"a,b"',
    '"x=y"',
    "[" * 600 + "]" * 600,
    '[1, 2.0, "3"]',
    '"' + "x" * 100000 + '"',
    "2024-01-01",
]

KEYS = [
    "id",
    "name",
    "decks",
    "autoplay",
    "family",
    "tableau.columns",
    "tableau.build",
    "tableau.empty",
    "tableau.move_limit",
    "cells.count",
    "foundations.count",
    "foundations.return_to_play",
    "deal.columns",
    "deal.cells",
    "deal.order",
    "deal.method",
    "pysolfc_id",
    "format_version",
    "summary",
    "aliases",
    "bogus",
    "options",
]


def mutate_toml(rng: random.Random, text: str) -> bytes:
    """A damaged variant file: a value replaced, a line moved or doubled, a key added, an
    option with many choices, a byte order mark, or byte-level damage; one time in five
    instead a well-formed file with keys at the schema's extremes (:func:`schema_extremes`)."""
    lines = text.splitlines(keepends=True)
    kind = rng.randrange(10)
    if rng.random() < 0.2:
        return schema_extremes(rng, text)
    if kind == 0:
        return mutate_bytes(rng, text.encode())
    if kind in (1, 2, 3):
        numbered = [i for i, line in enumerate(lines) if re.search(r"=\s*\S", line)]
        i = rng.choice(numbered)
        key = lines[i].split("=")[0]
        lines[i] = f"{key}= {rng.choice(NASTY_VALUES)}\n"
    elif kind == 4:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines.insert(j, lines.pop(i)) if rng.random() < 0.5 else lines.insert(j, lines[i])
    elif kind == 5:
        key = rng.choice(KEYS)
        table, _, leaf = key.rpartition(".")
        line = f"{leaf} = {rng.choice(NASTY_VALUES)}\n"
        lines.append(f"\n[{table}]\n{line}" if table else "")
        lines.insert(3, line if not table else "")
    elif kind == 6:
        n = rng.choice([2, 10, 100, 1000]) if rng.random() < 0.1 else rng.randint(1, 20)
        key = rng.choice(["cells.count", "tableau.empty", "decks", "tableau.columns", "id"])
        value = rng.choice(["4", "5", '"any"', '"king"', "2", "8.0", '"x"'])
        lines.append('\n[options.fuzz]\nlabel = "Fuzz"\ndefault = "c0"\n')
        for c in range(n):
            lines.append(f'[options.fuzz.choices.c{c}]\nlabel = "C"\nset = {{"{key}" = {value}}}\n')
    elif kind == 7:
        return b"\xef\xbb\xbf" + "".join(lines).encode()
    elif kind == 8:
        i = rng.randrange(len(lines))
        del lines[i]
    else:
        depth = rng.choice([10, 100, 400, 1000, 3000])
        lines.append(f"deep = {'[' * depth}{']' * depth}\n")
    return "".join(lines).encode("utf-8", "surrogatepass")


@functools.cache
def schema_extreme_values() -> tuple[tuple[str, Any], ...]:
    """Every (dotted key, value) at an edge of solitaire_core/variant-schema.json: each
    integer's stated minimum and maximum, a list of integers holding one of its items'
    bounds, each enumeration and constant, both booleans (``oneOf`` branches each; a
    ``[[foundations.groups]]`` key as ``foundations.groups.0.KEY``). Texts are left out:
    the other strategies damage them."""
    from solitaire_core.variant import load_schema

    schema = load_schema()

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        if "$ref" not in node:
            return node
        target: Any = schema
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return {**target, **{k: v for k, v in node.items() if k != "$ref"}}

    def values(node: dict[str, Any]) -> list[Any]:
        node = resolve(node)
        found = list(node.get("enum", ())) + ([node["const"]] if "const" in node else [])
        for branch in node.get("oneOf", ()):
            found += values(branch)
        bounds = [node[k] for k in ("minimum", "maximum") if k in node]
        if node.get("type") == "integer":
            found += bounds
        elif node.get("type") == "boolean":
            found += [True, False]
        elif node.get("type") == "array" and isinstance(node.get("items"), dict):
            items = resolve(node["items"])
            if items.get("type") == "integer":
                found += [[items[k]] for k in ("minimum", "maximum") if k in items]
        return found

    out: list[tuple[str, Any]] = []

    def walk(node: dict[str, Any], prefix: str) -> None:
        for name, sub in node.get("properties", {}).items():
            sub = resolve(sub)
            if "properties" in sub:
                walk(sub, f"{prefix}{name}.")
            elif sub.get("type") == "array" and "properties" in sub.get("items", {}):
                walk(sub["items"], f"{prefix}{name}.0.")
            else:
                out.extend((f"{prefix}{name}", v) for v in values(sub))

    walk(schema, "")
    return tuple(out)


def schema_extremes(rng: random.Random, text: str) -> bytes:
    """A valid-looking variant file with one to three keys at the schema's edges
    (:func:`schema_extreme_values`): the file ``text`` parsed, the keys set, then, most
    times, the columns dealt again so that the deal places every card (half of them with
    a stock), so that the values reach the deal and the engines rather than stop at the
    loader's card count. Whatever ``check`` accepts must then deal and play."""
    import tomli_w

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    data = tomllib.loads(text.removeprefix("\ufeff"))
    for key, value in rng.sample(schema_extreme_values(), rng.randint(1, 3)):
        table: Any = data
        *parents, leaf = key.split(".")
        for part in parents:
            if part.isdigit():
                table = table[0] if isinstance(table, list) and table else {}
            elif isinstance(table, dict):
                if part == "groups" and not isinstance(table.get(part), list):
                    table[part] = [{"count": table.get("count", 4)}]
                table = table.setdefault(part, {})
        if isinstance(table, dict):
            table[leaf] = value
    deal, decks = data.get("deal", {}), data.get("decks", 1)
    columns = data.get("tableau", {}).get("columns", 1)
    if rng.random() < 0.8 and isinstance(deal, dict) and "passes" not in deal:
        found = deal.get("foundations", {})
        taken = found.get("count") or len(found.get("ranks", [])) * 4 * (
            1 if found.get("deck") else decks
        )
        taken += 3 * bool(found.get("twins_of_first")) + found.get("last", 0)
        left = 52 * decks - len(deal.get("cells", [])) - taken
        left //= 2 if "stock" in data else 1
        if deal.get("order") != "kings-start-columns" and left >= 0 and columns >= 1:
            deal["columns"] = [left // columns + (i < left % columns) for i in range(columns)]
            deal.pop("face_down", None)
    return tomli_w.dumps(data).encode()


# -- campaign: variant files ---------------------------------------------------------------


def variant_trial(rng: random.Random, bases: list[str], folder: Path) -> str | None:
    """One mutated variant file; ``None`` when the program handled it, else why not."""
    from solitaire_core.deal import deal
    from solitaire_core.errors import SolitaireError
    from solitaire_core.plugins import get_registry
    from solitaire_core.rules import legal_moves
    from solitaire_core.solver import solve
    from solitaire_core.textview import format_layout
    from solitaire_core.variant import load_variant_file

    registry = get_registry()
    path = folder / "fuzz.toml"
    path.write_bytes(mutate_toml(rng, rng.choice(bases)))
    try:
        definition = load_variant_file(
            path, predicates=registry.predicates, deal_methods=registry.deal_methods
        )
        choices = [{}] + [{o.name: c.value} for o in definition.options for c in o.choices[:5]]
        for options in choices:
            rules = definition.resolve(options)
            state = deal(rules, rng.randint(1, 10**6), registry.deal_methods)
            legal_moves(state)
            format_layout(state, rules.name)
            # Whatever check accepts also solves (a small budget: no verdict is checked).
            solve(state, max_states=rng.choice((1, 50, 300)), timeout=5)
    except SolitaireError:
        return None
    return None


# -- campaign: data files ------------------------------------------------------------------


def base_files(folder: Path) -> dict[str, bytes]:
    """Valid statistics (20 games), autosave and settings files to damage."""
    from solitaire_core.persistence import SavedGame, Settings, StatsStore, encode_save
    from solitaire_core.persistence.settings import save_settings

    with StatsStore(folder / "stats.sqlite3") as store:
        for n in range(20):
            store.record_game(
                "seahaven", {}, n + 1, n % 3 == 0, 80 + n, 60.0 + n, False, False, n == 7
            )
    moves = ("t1>c", "t2>t1", "c1>t3", "t4>f", "t5>c")
    save = SavedGame(variant="seahaven", options={}, deal=5, moves=moves, undone=("t1>f",))
    save_settings(Settings(last_variant="seahaven", window_width=900), folder / "s.toml")
    return {
        "stats": (folder / "stats.sqlite3").read_bytes(),
        "autosave": encode_save(save),
        "settings": (folder / "s.toml").read_bytes(),
    }


def mutate_save(rng: random.Random, data: bytes) -> bytes:
    if rng.random() < 0.4:
        return mutate_bytes(rng, data)
    document = json.loads(data)
    key = rng.choice(list(document) + ["extra"])
    value = rng.choice(
        [
            None,
            True,
            -1,
            0,
            1.5,
            2**63,
            10**20 - 1,
            10**20,
            "x",
            [],
            {},
            "no-such-variant",
            ["t1>t2x" + "9" * 5000],
            ["t9>t1"],
            ["t1>c"] * 500,
            [[[[]]]],
            float("1e308"),
            "t1>c",
            {"a,b": "c"},
            {"empty_columns": "queen"},
            "2024-13-45T99:00:00Z",
        ]
    )
    document[key] = value
    if rng.random() < 0.1:
        document["moves"] = "[" * 3000 + "]" * 3000
        return json.dumps(document).replace('"' + "[" * 3000, "[" * 3000).encode()
    return json.dumps(document).encode()


def mutate_stats(rng: random.Random, data: bytes) -> bytes:
    buf = bytearray(data)
    kind = rng.randrange(10)
    if kind == 0:  # the header
        for _ in range(rng.randint(1, 3)):
            buf[rng.randrange(100)] = rng.randrange(256)
    elif kind == 1:  # the schema text
        start = data.find(b"CREATE TABLE")
        buf[rng.randrange(start, start + 900)] = rng.randrange(256)
    elif kind == 2:  # a whole page zeroed or scrambled
        page = int.from_bytes(data[16:18], "big") or 65536
        first = rng.randrange(max(1, len(data) // page)) * page
        buf[first : first + page] = bytes(page) if rng.random() < 0.5 else rng.randbytes(page)
    elif kind == 6:  # cut at a page boundary: the usual shape of a truncated copy
        page = int.from_bytes(data[16:18], "big") or 65536
        del buf[rng.randrange(1, max(2, len(data) // page)) * page :]
    elif kind >= 7:  # a run of garbage inside a page, often 0xFF over a cell's header
        # (0xFF over the sizes at the start of a cell can make SQLite run out of memory)
        page = int.from_bytes(data[16:18], "big") or 65536
        length = rng.choice([4, 16, 16, 64, 200])
        first = rng.randrange(max(1, len(data) // page)) * page
        header = first + (100 if first == 0 else 0)  # page 1 starts with the file header
        cells = int.from_bytes(data[header + 3 : header + 5], "big")
        if data[header] in (2, 5, 10, 13) and cells and rng.random() < 0.5:
            pointers = header + (12 if data[header] in (2, 5) else 8)
            pointer = pointers + 2 * rng.randrange(cells)
            cell = first + int.from_bytes(data[pointer : pointer + 2], "big")
            at = max(first, cell + rng.randrange(8, 20) - length)
            junk = b"\xff" * length
        else:
            at = first + rng.randrange(max(1, min(page, len(data) - first) - length))
            junk = b"\xff" * length if rng.random() < 0.5 else rng.randbytes(length)
        buf[at : at + length] = junk
        del buf[len(data) :]
    else:
        return mutate_bytes(rng, data)
    return bytes(buf)


def _kept(original: bytes, folder: Path, name: str) -> bool:
    """The bad file's bytes are still in place or in a file moved aside."""
    for path in [folder / name, *folder.glob(f"{name}.corrupt-*")]:
        with contextlib.suppress(OSError):
            if path.read_bytes() == original:
                return True
    return False


@functools.cache
def _freecell() -> Any:
    from solitaire_core.plugins import get_variant

    return get_variant("freecell").resolve()


def files_trial(
    rng: random.Random, bases: dict[str, bytes], folder: Path, case: dict[str, bytes]
) -> str | None:
    """One damaged data file in a fresh home, then the app's start-up, a resume and a
    recorded game; ``None`` when all was handled without loss, else what went wrong.

    ``case`` receives the files written to the data folder (name -> bytes), so that a
    failure can be saved as a reproducer."""
    from solitaire_tk.shell.persist import AppStore

    from solitaire_core.errors import SolitaireError
    from solitaire_core.session import Session

    home = folder / f"home{rng.randrange(10**9)}"
    data, config = home / "data", home / "config"
    data.mkdir(parents=True)
    config.mkdir()
    kind = rng.choices(["stats", "autosave", "settings"], weights=[8, 6, 3])[0]
    files = {
        "stats": data / "stats.sqlite3",
        "autosave": data / "autosave.json",
        "settings": config / "settings.toml",
    }
    for name, path in files.items():
        if name != kind and rng.random() < 0.5:
            path.write_bytes(bases[name])
    journal = False
    if kind == "stats":
        bad = mutate_stats(rng, bases["stats"])
        journal = rng.random() < 0.1
        if journal:  # a stray or damaged rollback journal beside it
            Path(f"{files['stats']}-journal").write_bytes(mutate_bytes(rng, bad[:4096]))
    elif kind == "autosave":
        bad = mutate_save(rng, bases["autosave"])
    else:
        bad = mutate_bytes(rng, bases["settings"])
    files[kind].write_bytes(bad)
    case.clear()
    for path in [*data.iterdir(), *config.iterdir()]:
        case[path.name] = path.read_bytes()
    store = AppStore(home)
    try:
        saved = store.offer_resume()
        if saved is not None:
            try:
                store.game_from_save(saved)
            except SolitaireError:
                store.set_aside_autosave()
        session = Session(_freecell(), 3)  # a new game to record, rules resolved once
        session.play("t1>c")
        store.record(session, won=False, elapsed_seconds=2.0, used_hint=False)
        stats = store.stats.summary()
        aside = list(data.glob("stats.sqlite3.corrupt-*"))
        if kind == "stats" and not aside and not store.stats.in_memory:
            # Kept in place (the damage was in unused space): all 20 games read back.
            games = sum(e.played + e.cheat_wins for e in stats if e.variant == "seahaven")
            if games != 20 and not journal:
                return f"stats kept in place but {games} of 20 games read back"
            return None
    finally:
        store.close()
    if kind == "stats" and journal and list(data.glob("stats.sqlite3.corrupt-*")):
        return None  # SQLite may have rolled the journal back into the file first
    if not _kept(bad, files[kind].parent, files[kind].name):
        return f"the damaged {kind} file was lost (neither in place nor moved aside)"
    shutil.rmtree(home, ignore_errors=True)
    return None


# -- the worker ------------------------------------------------------------------------------


def run_batch(
    campaign: str, seed: int, start: int, count: int, save_to: Path | None = None
) -> dict[str, Any]:
    """Run ``count`` trials of ``campaign`` (trial numbers ``start``...) in this worker.

    With ``save_to``, the files of each failing ``files`` trial are written to
    ``save_to/files-SEED-TRIAL/`` (the reproducer: put them in a data folder)."""
    os.environ.setdefault("SOLITAIRE_HOME", tempfile.mkdtemp(prefix="fuzz-home-"))
    failures: list[dict[str, Any]] = []
    # In memory where possible: the trials fsync every write, a disk would dominate.
    scratch = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{campaign}-", dir=scratch) as tmp:
        folder = Path(tmp)
        trial: Callable[[random.Random], str | None]
        case: dict[str, bytes] = {}
        if campaign == "variants":
            import solitaire_variants

            here = Path(solitaire_variants.__file__).parent
            bases = [p.read_text("utf-8") for p in sorted(here.glob("*.toml"))]
            trial = lambda rng: variant_trial(rng, bases, folder)  # noqa: E731
        else:
            files = base_files(folder)
            trial = lambda rng: files_trial(rng, files, folder, case)  # noqa: E731
        for number in range(start, start + count):
            rng = random.Random(f"{seed}-{campaign}-{number}")
            try:
                with time_limit(TRIAL_SECONDS), contextlib.redirect_stdout(io.StringIO()):
                    problem = trial(rng)
            except Hang:
                problem = f"hang: still running after {TRIAL_SECONDS} s"
            except BaseException:  # noqa: BLE001 - any escape is the failure we look for
                problem = "traceback:\n" + traceback.format_exc(limit=8)
            if problem is not None:
                failures.append({"trial": number, "problem": problem})
                if save_to is not None and case:
                    where = save_to / f"{campaign}-{seed}-{number}"
                    where.mkdir(parents=True, exist_ok=True)
                    for name, content in case.items():
                        (where / name).write_bytes(content)
                    (where / "problem.txt").write_text(problem + "\n", "utf-8")
            case.clear()
    return {"campaign": campaign, "trials": count, "failures": failures}


# -- campaigns run as subprocesses ---------------------------------------------------------


def solitaire(
    args: list[str], env: dict[str, str], *, close_stdout: bool = False
) -> tuple[int, str]:
    """Run ``python -m solitaire_core`` and return its status and stderr (-1: a hang)."""
    cmd = [sys.executable, "-m", "solitaire_core", *args]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, stdin=subprocess.DEVNULL
    )
    assert proc.stdout is not None
    if close_stdout:
        proc.stdout.close()
    try:
        out, err = proc.communicate(timeout=TRIAL_SECONDS * 2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return -1, "hang"
    return proc.returncode, err.decode("utf-8", "replace")


def plugin_batch(name: str) -> dict[str, Any]:
    """The hostile plugin ``name`` installed alone; ``list``, ``show`` and ``check`` run."""
    sys.path.insert(0, str(ROOT / "tests"))
    import solitaire_variants
    from hostile_plugins import install

    builtin = {p.stem for p in Path(solitaire_variants.__file__).parent.glob("*.toml")}
    failures = []
    trials = 0
    with tempfile.TemporaryDirectory(prefix="fuzz-plugins-") as tmp:
        folder = install(Path(tmp) / name, [name])
        env = {
            **os.environ,
            "PYTHONPATH": str(folder),
            "SOLITAIRE_HOME": str(tmp),
            "HOSTILE_SLOW_SECONDS": "12",
        }
        for args in (
            ["list"],
            ["show", "seahaven", "--deal", "4"],
            ["check", str(ROOT / "variants" / "freecell.toml")],
        ):
            trials += 1
            cmd = [sys.executable, "-m", "solitaire_core", *args]
            try:
                result = subprocess.run(
                    cmd, capture_output=True, text=True, env=env, timeout=TRIAL_SECONDS * 4
                )
            except subprocess.TimeoutExpired:
                failures.append({"trial": f"{name} {args[0]}", "problem": "hang"})
                continue
            problem = None
            if result.returncode != 0 or "Traceback" in result.stderr:
                problem = f"status {result.returncode}: {result.stderr[-600:]}"
            elif args[0] == "list":
                listed = {line.split()[0] for line in result.stdout.splitlines() if line}
                if not builtin <= listed:
                    problem = f"built-in variants missing: {sorted(builtin - listed)}"
                elif name not in result.stderr:
                    problem = "the hostile plugin is not named on stderr"
            if problem:
                failures.append({"trial": f"{name} {' '.join(args)}", "problem": problem})
    return {"campaign": "plugins", "trials": trials, "plugins": 1, "failures": failures}


def bad_command_lines(folder: Path) -> list[tuple[list[str], bool]]:
    """The bad command lines: (arguments, close stdout before the command writes)."""
    fifo, binary, empty_dir = folder / "fifo", folder / "binary.bin", folder / "dir"
    os.mkfifo(fifo)
    binary.write_bytes(bytes(range(256)) * 64)
    empty_dir.mkdir()
    deep = folder / "deep.toml"
    deep.write_text("x = " + "[" * 2000 + "]" * 2000 + "\n")
    numbers = [
        "0",
        "-1",
        "1.5",
        "1e3",
        "2^70",
        str(2**70),
        str(10**20),
        "9" * 5000,
        "",
        "x",
        " 7",
        "٣",
        "0x10",
        "1_000",
    ]
    files = [str(fifo), str(binary), str(empty_dir), str(deep), "/nonexistent/x.toml", ""]
    options = ["a,b=c", "=x", "x", "empty_columns=queen", "a=b=c", "é=ü", "x" * 10000 + "=1"]
    lines: list[list[str]] = []
    for n in numbers:
        lines += [
            ["show", "seahaven", "--deal", n],
            ["export", "freecell", "--deal", n],
            ["solve", "seahaven", "--deal", n, "--timeout", "2"],
            ["survey", "seahaven", "--deals", f"1-{n}", "--quiet", "--timeout", "1"],
        ]
    for f in files:
        lines += [["check", f], ["survey", "seahaven", "--deals", "1", "--csv", f, "--quiet"]]
    for o in options:
        lines += [
            ["show", "sea-towers", "--option", o],
            ["stats", "seahaven", "--option", o],
            ["solve", "seahaven", "--deal", "1", "--option", o],
        ]
    lines += [
        ["survey", "seahaven", "--deals", "1-1000000000", "--timeout", "0"],
        ["show", "seahaven\n"],
        ["show", "no-such-variant"],
        ["stats", "--reset"],
        ["stats", "--all", "seahaven"],
        ["bogus"],
        ["list", "extra"],
        ["show"],
        ["conformance", "no-such-variant"],
        ["play", "no-such-variant"],
        ["solve", "seahaven", "--deal", "3", "--timeout", "-1"],
        ["survey", "seahaven", "--deals", "1,,2"],
        ["--option"],
        ["-x"],
    ]
    loop = folder / "loop.toml"
    loop.symlink_to(loop)
    huge = folder / "huge.toml"
    huge.write_bytes(b"# " + b"x" * (3 * 1024 * 1024))
    bom = folder / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbfid = 1\n")
    for f in (loop, huge, bom):
        lines += [["check", str(f)]]
    for n in ("0", "-5", "1e9", "x", "9" * 5000, "nan", "inf"):
        lines += [
            ["solve", "seahaven", "--deal", "1", "--timeout", n],
            ["solve", "seahaven", "--deal", "1", "--max-states", n],
            ["survey", "seahaven", "--deals", "1-2", "--jobs", n, "--quiet"],
            ["conformance", "seahaven", "--examples", n, "--check", "notation"],
        ]
    lines += [
        ["conformance", "sea-towers", "--option", "a,b=c"],
        ["conformance", "seahaven", "--scenarios", str(binary)],
        ["conformance", "seahaven", "--scenarios", str(fifo)],
        ["conformance", "seahaven", "--check", "no-such-check"],
        ["stats", "seahaven", "--reset", "--option", "a=b"],
        ["stats", "--all", "--reset"],
    ]
    result = [(line, False) for line in lines]
    result[:0] = [
        (["list"], True),
        (["show", "seahaven", "--deal", "2"], True),
        (["export", "freecell", "--deal", "2"], True),
        (["stats"], True),
    ]
    return result


def cli_batch(start: int, count: int) -> dict[str, Any]:
    """Bad command lines ``start`` .. ``start + count - 1``, each in its own subprocess."""
    failures = []
    with tempfile.TemporaryDirectory(prefix="fuzz-cli-") as tmp:
        folder = Path(tmp)
        lines = bad_command_lines(folder)[start : start + count]
        env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
        env["SOLITAIRE_HOME"] = str(folder / "home")
        for number, (args, close) in enumerate(lines, start):
            status, err = solitaire(args, env, close_stdout=close)
            if status == -1 or "Traceback" in err or status not in (0, 1, 2, 3, 141):
                shown = [a if len(a) < 60 else a[:30] + "..." for a in args]
                failures.append(
                    {"trial": f"{number} {shown}", "problem": f"status {status}: {err[-600:]}"}
                )
    return {"campaign": "cli", "trials": len(lines), "failures": failures}


# -- campaign: address-space limits --------------------------------------------------------


def _baseline_bytes(env: dict[str, str]) -> int:
    """The peak address space of a ``solitaire`` process that has imported the CLI, the
    solver and the variants and dealt a game: the limits below are this plus a margin,
    so that the interpreter itself always starts."""
    code = (
        "import solitaire_core.cli, solitaire_core.solver.search, solitaire_core.deal as d;"
        "from solitaire_core.plugins import get_variant;"
        "d.deal(get_variant('freecell').resolve(), 1);"
        "print(next(l for l in open('/proc/self/status') if l.startswith('VmPeak')).split()[1])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip()) * 1024


def memory_command(rng: random.Random, folder: Path) -> list[str]:
    """A command that may need much memory: a long solve (either engine), a survey
    resumed from its CSV, ``show`` or ``list``."""
    kind = rng.choice(("solve", "solve", "survey", "show", "list"))
    variant = rng.choice(("freecell", "beleaguered-castle", "scotch-patience", "klondike"))
    if kind == "solve":
        return [
            "solve", variant, "--deal", str(rng.randint(1, 1000)),
            "--max-states", str(rng.choice((10**5, 10**6, 10**7))),
            "--timeout", "10", "--engine", rng.choice(("c", "python")),
        ]  # fmt: skip
    if kind == "survey":
        csv = folder / "survey.csv"
        return ["survey", "seahaven", "--deals", "1-6", "--jobs", "1", "--csv", str(csv)]
    if kind == "show":
        return ["show", variant, "--deal", str(rng.randint(1, 10**6))]
    return ["list"]


def memory_batch(seed: int, start: int, count: int) -> dict[str, Any]:
    """Commands run under an address-space limit (``RLIMIT_AS``) from the baseline plus
    8 MB to plus 512 MB. Failure: a traceback, a hang, or a status other than 0-4 and 141
    (4: the solver was refused memory and says so)."""
    import resource

    failures = []
    with tempfile.TemporaryDirectory(prefix="fuzz-memory-") as tmp:
        folder = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
        env["SOLITAIRE_HOME"] = str(folder / "home")
        base = _baseline_bytes(env)
        # A half-done survey to resume.
        subprocess.run(
            [sys.executable, "-m", "solitaire_core", "survey", "seahaven", "--deals", "1-3",
             "--jobs", "1", "--csv", str(folder / "survey.csv")],
            env=env, capture_output=True, check=True,
        )  # fmt: skip
        for number in range(start, start + count):
            rng = random.Random(f"{seed}-memory-{number}")
            args = memory_command(rng, folder)
            limit = base + rng.choice((8, 16, 32, 64, 128, 256, 512)) * 2**20

            def cap(limit: int = limit) -> None:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

            try:
                proc = subprocess.run(
                    [sys.executable, "-m", "solitaire_core", *args],
                    env=env, capture_output=True, preexec_fn=cap, timeout=TRIAL_SECONDS * 2,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                failures.append({"trial": f"{number} {args}", "problem": "hang"})
                continue
            err = proc.stderr.decode("utf-8", "replace")
            if "Traceback" in err or proc.returncode not in (0, 1, 2, 3, 4, 141):
                failures.append(
                    {
                        "trial": f"{number} {args} limit {limit // 2**20} MB",
                        "problem": f"status {proc.returncode}: {err[-600:]}",
                    }
                )
    return {"campaign": "memory", "trials": count, "failures": failures}


# -- main ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", type=int, default=12000, help="mutated variant files")
    parser.add_argument("--plugins", type=int, default=11, help="hostile plugins (at most 11)")
    parser.add_argument("--files", type=int, default=17000, help="corrupt data files")
    parser.add_argument("--cli", type=int, default=144, help="bad command lines (144 exist)")
    parser.add_argument(
        "--memory", type=int, default=200, help="commands under address-space limits"
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=None, help="default: a new one")
    parser.add_argument("--json", type=Path, default=RESULTS, help="where to write results")
    parser.add_argument(
        "--save-failures",
        type=Path,
        default=None,
        metavar="DIR",
        help="write each failing data-file trial's files to DIR/files-SEED-TRIAL/",
    )
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {seed}", flush=True)
    started = time.monotonic()
    results: dict[str, dict[str, Any]] = {}
    context = get_context("spawn")
    sys.path.insert(0, str(ROOT / "tests"))
    from hostile_plugins import HOSTILE

    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
        futures = [pool.submit(plugin_batch, name) for name in sorted(HOSTILE)[: args.plugins]]
        futures += [
            pool.submit(cli_batch, start, min(10, args.cli - start))
            for start in range(0, args.cli, 10)
        ]
        futures += [
            pool.submit(memory_batch, seed, start, min(20, args.memory - start))
            for start in range(0, args.memory, 20)
        ]
        futures += [
            pool.submit(
                run_batch, campaign, seed, start, min(BATCH, total - start), args.save_failures
            )
            for campaign, total in (("variants", args.variants), ("files", args.files))
            for start in range(0, total, BATCH)
        ]
        for future in as_completed(futures):
            batch = future.result()
            name = batch["campaign"]
            entry = results.setdefault(name, {"campaign": name, "trials": 0, "failures": []})
            entry["trials"] += batch["trials"]
            entry["failures"] += batch["failures"]
            if name == "plugins":
                entry["plugins"] = entry.get("plugins", 0) + 1
            done = {k: (v["trials"], len(v["failures"])) for k, v in sorted(results.items())}
            print(f"{time.monotonic() - started:6.0f} s  trials, failures: {done}", flush=True)
    elapsed = time.monotonic() - started
    total_failures = 0
    for name in ("variants", "plugins", "files", "cli", "memory"):
        if name in results:
            r = results[name]
            total_failures += len(r["failures"])
            extra = f" ({r['plugins']} plugins)" if name == "plugins" else ""
            print(f"{name:9} {r['trials']:6} trials{extra}, {len(r['failures'])} failures")
            for failure in r["failures"][:5]:
                print(f"   trial {failure['trial']}: {failure['problem'][:1500]}")
    print(f"total failures: {total_failures}; {elapsed:.0f} s; seed {seed}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "seed": seed,
                "seconds": round(elapsed),
                "python": platform.python_version(),
                "machine": platform.machine(),
                "results": results,
            },
            indent=1,
        )
        + "\n"
    )
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main())
