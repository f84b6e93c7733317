"""Per-variant statistics in an SQLite database (``data_dir()/stats.sqlite3``).

One row is stored per finished game; the figures shown to the player are computed from
those rows, so they are always consistent.  The schema version is kept in
``PRAGMA user_version``.  Every write runs in a transaction with the default rollback
journal and ``synchronous=FULL``, so a crash or power cut loses at most the game being
recorded at that instant, never an earlier one.  A damaged file is moved aside and what
SQLite can still read of its games is carried over (see :class:`StatsStore`).

Cheat wins (a game won with ``cheated=True``) are shown apart: they count only in
``cheat_wins`` and are left out of played, won, win rate, streaks (they neither extend nor
break one) and records.  A game lost after using Cheat is an ordinary loss.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import math
import os
import re
import sqlite3
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any

import attrs

from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..scoring import SCHEMES, best_of, score_text
from .atomic import atomic_write_text, move_aside, quarantine
from .errors import PersistenceError
from .locks import locked
from .options import FrozenOptions, options_from_key, to_options
from .paths import stats_path

__all__ = [
    "STATS_SCHEMA_VERSION",
    "GameRecord",
    "StatsStore",
    "VariantStats",
    "figure_texts",
    "format_table",
]

STATS_SCHEMA_VERSION = 5
"""The schema this program creates and reads (stored in ``PRAGMA user_version``).

Version 5 (this one) lets ``scoring`` name Golf's ``"cards-left"`` and TriPeaks'
``"tri-peaks"`` (the CHECK constraint lists the schemes). Version 4 adds ``score`` and
``scoring``, a game's final score and the scheme it was scored by (one of
:data:`solitaire_core.scoring.SCHEMES`; both ``NULL`` for games recorded before: their
score is unknown). Version 3 adds ``hints``, the number of hints a game used (``NULL``
for games recorded before: their count is unknown). Version 2 stores deal numbers up to
10**20-1: those below 2**63 as integers, larger ones as their decimal text. An older
file is upgraded in place, in one transaction, the first time it is opened; no game is
lost."""

MAX_DEAL = 10**20 - 1
"""The largest deal number (:data:`solitaire_core.deal.MAX_DEAL`, PySolFC's 20 digits)."""

_COLUMNS = (
    "id",
    "variant",
    "options",
    "deal",
    "won",
    "moves",
    "seconds",
    "used_undo",
    "used_hint",
    "hints",
    "cheated",
    "score",
    "scoring",
    "finished_at",
)
_V3_COLUMNS = tuple(name for name in _COLUMNS if name not in ("score", "scoring"))
"""The columns of schema version 3."""
_OLD_COLUMNS = tuple(name for name in _V3_COLUMNS if name != "hints")
"""The columns of schema versions 1 and 2."""


def _columns_of(version: int) -> tuple[str, ...]:
    """The columns of the ``games`` table of schema ``version`` (1 and up)."""
    if version >= 4:  # version 5 changed a CHECK constraint, not the columns
        return _COLUMNS
    return _V3_COLUMNS if version == 3 else _OLD_COLUMNS


_TABLE_V1 = """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        variant     TEXT    NOT NULL CHECK (typeof(variant) = 'text' AND variant <> ''),
        options     TEXT    NOT NULL CHECK (typeof(options) = 'text'),
        deal        INTEGER NOT NULL CHECK (typeof(deal) = 'integer'),
        won         INTEGER NOT NULL CHECK (won IN (0, 1)),
        moves       INTEGER NOT NULL CHECK (typeof(moves) = 'integer' AND moves >= 0),
        seconds     REAL    NOT NULL CHECK (typeof(seconds) = 'real' AND seconds >= 0),
        used_undo   INTEGER NOT NULL CHECK (used_undo IN (0, 1)),
        used_hint   INTEGER NOT NULL CHECK (used_hint IN (0, 1)),
        cheated     INTEGER NOT NULL CHECK (cheated IN (0, 1)),
        finished_at TEXT    NOT NULL CHECK (typeof(finished_at) = 'text')
    )
    """

# The deal column has no declared type, hence no affinity: a 20-digit number kept as text
# stays text (an INTEGER column would turn it into an inexact REAL).
_TABLE_V2 = """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        variant     TEXT    NOT NULL CHECK (typeof(variant) = 'text' AND variant <> ''),
        options     TEXT    NOT NULL CHECK (typeof(options) = 'text'),
        deal                NOT NULL CHECK (
            (typeof(deal) = 'integer' AND deal >= 0)
            OR (typeof(deal) = 'text' AND length(deal) BETWEEN 19 AND 20
                AND deal NOT GLOB '*[^0-9]*')),
        won         INTEGER NOT NULL CHECK (won IN (0, 1)),
        moves       INTEGER NOT NULL CHECK (typeof(moves) = 'integer' AND moves >= 0),
        seconds     REAL    NOT NULL CHECK (typeof(seconds) = 'real' AND seconds >= 0),
        used_undo   INTEGER NOT NULL CHECK (used_undo IN (0, 1)),
        used_hint   INTEGER NOT NULL CHECK (used_hint IN (0, 1)),
        cheated     INTEGER NOT NULL CHECK (cheated IN (0, 1)),
        finished_at TEXT    NOT NULL CHECK (typeof(finished_at) = 'text')
    )
    """
_HINT_FLAG = "        used_hint   INTEGER NOT NULL CHECK (used_hint IN (0, 1)),\n"
_TABLE_V3 = _TABLE_V2.replace(
    _HINT_FLAG,
    _HINT_FLAG
    + "        hints       INTEGER CHECK (hints IS NULL OR "
    + "(typeof(hints) = 'integer' AND hints >= 0)),\n",
)
"""Version 3: version 2 with ``hints`` after ``used_hint`` (``NULL``: not known)."""
_CHEAT_FLAG = "        cheated     INTEGER NOT NULL CHECK (cheated IN (0, 1)),\n"


def _table_with_scores(schemes: tuple[str, ...]) -> str:
    """Version 3 with ``score`` and ``scoring`` after ``cheated``, ``scoring`` one of
    ``schemes``."""
    return _TABLE_V3.replace(
        _CHEAT_FLAG,
        _CHEAT_FLAG
        + "        score       INTEGER CHECK (score IS NULL OR typeof(score) = 'integer'),\n"
        + "        scoring     TEXT    CHECK ((scoring IS NULL) = (score IS NULL) AND (scoring "
        + "IS NULL OR scoring IN ("
        + ", ".join(f"'{name}'" for name in schemes)
        + "))),\n",
    )


_V4_SCHEMES = ("cards", "standard", "vegas", "vegas-cumulative", "spider")
"""The schemes version 4 accepts (fixed: the text of a version 4 file)."""
_TABLE_V4 = _table_with_scores(_V4_SCHEMES)
"""Version 4: version 3 with ``score`` and ``scoring`` after ``cheated`` (both ``NULL``:
not known)."""
_TABLE = _table_with_scores(SCHEMES)
"""Version 5: version 4 with every scheme of :data:`solitaire_core.scoring.SCHEMES` (Golf's
and TriPeaks' added)."""
_INDEX = "CREATE INDEX games_in_order ON games (variant, options, finished_at, id)"
_SCHEMA_TEXT = {
    1: (_TABLE_V1, _INDEX),
    2: (_TABLE_V2, _INDEX),
    3: (_TABLE_V3, _INDEX),
    4: (_TABLE_V4, _INDEX),
    5: (_TABLE, _INDEX),
}
"""The exact schema each version stores in ``sqlite_master`` (compared, blanks aside, on
every opening: one changed byte there means the file is damaged)."""

# SQLite result codes of a problem outside the file's content (busy, locked, no access,
# disk full, I/O): the file is then left alone and statistics are kept in memory for this
# session. Any other error met while opening an existing file means its content is
# damaged, and it is moved aside. (Python's sqlite3 raises MemoryError, not an
# sqlite3.Error, for SQLite's out-of-memory code: met while reading a file, it too means
# damage, see _READ_FAILURES.)
_SQLITE_TRANSIENT = {3, 5, 6, 7, 8, 9, 10, 13, 14, 15, 23}
_TRANSIENT_WORDS = (
    "locked",
    "busy",
    "unable to open",
    "disk i/o",
    "readonly",
    "read-only",
    "permission",
    "disk is full",
    "out of memory",
    "interrupted",
)
_SIDE_FILES = ("-journal", "-wal", "-shm")
_SQLITE_HEADER = b"SQLite format 3\x00"
_HEADER_SIZE = 100
_JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


@attrs.frozen
class VariantStats:
    """Statistics of one variant with one option set.

    Attributes:
        variant: variant id.
        options: the option set (a FrozenOptions, equal to a plain dict).
        played: games won or lost, cheat wins excluded (``played == won + lost``).
        won: wins without Cheat.
        lost: losses (including games lost after using Cheat, and abandoned games the
            caller recorded as lost).
        win_rate: ``won / played`` in 0..1; 0.0 when nothing was played.
        current_streak: the run at the end, in finish order: ``+n`` = the last n games
            were won, ``-n`` = lost, 0 = no games.  Cheat wins are skipped.
        longest_win_streak: longest run of wins (games).
        longest_loss_streak: longest run of losses (games).
        fewest_moves: fewest moves in a win, or ``None`` without wins.
        fastest_seconds: shortest time of a win in seconds, or ``None`` without wins.
        wins_with_undo: wins in which undo was used.
        wins_with_hints: wins in which a hint was used.
        cheat_wins: games won with Cheat (shown apart, counted nowhere else).
        hints_used: hints used in the played games whose count is known (games recorded
            before statistics schema 3 have none).
        hint_counted_games: played games whose hint count is known.
        scoring: the scoring scheme of the last game whose score is known (one of
            :data:`solitaire_core.scoring.SCHEMES`), or ``None`` when there is none.
        best_score: the best score of a played game scored by ``scoring`` (won or
            lost: a lost Vegas game may end ahead): the highest, or the lowest for a
            scheme where lower is better (Golf's ``"cards-left"``,
            :func:`solitaire_core.scoring.best_of`), or ``None``.
        bank: for ``"vegas-cumulative"`` scoring, the bank carried from game to game:
            the sum of the scores of every recorded game scored so (cheat wins
            included: the bank is what the games paid and earned); ``None`` otherwise.
    """

    variant: str
    options: FrozenOptions = attrs.field(converter=to_options)
    played: int = 0
    won: int = 0
    lost: int = 0
    win_rate: float = 0.0
    current_streak: int = 0
    longest_win_streak: int = 0
    longest_loss_streak: int = 0
    fewest_moves: int | None = None
    fastest_seconds: float | None = None
    wins_with_undo: int = 0
    wins_with_hints: int = 0
    cheat_wins: int = 0
    hints_used: int = 0
    hint_counted_games: int = 0
    scoring: str | None = None
    best_score: int | None = None
    bank: int | None = None

    @property
    def hints_per_game(self) -> float | None:
        """Hints per played game whose count is known, or ``None`` when there is none."""
        return self.hints_used / self.hint_counted_games if self.hint_counted_games else None

    @property
    def wins_without_hints(self) -> int:
        """Wins in which neither a hint nor the demo was used."""
        return self.won - self.wins_with_hints

    @property
    def options_key(self) -> str:
        """The canonical option key, e.g. ``"draw=3,redeals=2"`` (``""`` for none)."""
        return self.options.key()


@attrs.frozen
class GameRecord:
    """One recorded game, as :meth:`StatsStore.games` reads it back.

    Attributes:
        finished_at: when the game ended, an aware datetime in UTC (to the microsecond).
        won: the game was won.
        seconds: play time in seconds (``>= 0``).
        moves: moves made (``>= 0``).
        cheated: Cheat was used (a win with it is a cheat win, counted apart).
        deal: the deal number.
    """

    finished_at: datetime
    won: bool
    seconds: float = 0.0
    moves: int = 0
    cheated: bool = False
    deal: int = 0


def _summarise(variant: str, key: str, rows: Iterable[Sequence[Any]]) -> VariantStats:
    won = lost = cheat_wins = with_undo = with_hints = hints_used = hint_counted = 0
    streak = longest_win = longest_loss = 0
    fewest: int | None = None
    fastest: float | None = None
    scores: list[tuple[int, str, bool]] = []  # (score, scheme, counts in the records)
    for is_won, moves, seconds, used_undo, used_hint, hints, cheated, score, scheme in rows:
        if score is not None:
            scores.append((score, scheme, not (is_won and cheated)))
        if is_won and cheated:
            cheat_wins += 1
            continue
        if hints is not None:
            hints_used += hints
            hint_counted += 1
        if is_won:
            won += 1
            streak = streak + 1 if streak > 0 else 1
            longest_win = max(longest_win, streak)
            fewest = moves if fewest is None else min(fewest, moves)
            fastest = seconds if fastest is None else min(fastest, seconds)
            with_undo += bool(used_undo)
            with_hints += bool(used_hint)
        else:
            lost += 1
            streak = streak - 1 if streak < 0 else -1
            longest_loss = max(longest_loss, -streak)
    played = won + lost
    scoring = scores[-1][1] if scores else None
    kept = [score for score, scheme, counts in scores if scheme == scoring and counts]
    banked = [score for score, scheme, _ in scores if scheme == "vegas-cumulative"]
    return VariantStats(
        variant=variant,
        options=options_from_key(key),
        played=played,
        won=won,
        lost=lost,
        win_rate=won / played if played else 0.0,
        current_streak=streak,
        longest_win_streak=longest_win,
        longest_loss_streak=longest_loss,
        fewest_moves=fewest,
        fastest_seconds=fastest,
        wins_with_undo=with_undo,
        wins_with_hints=with_hints,
        cheat_wins=cheat_wins,
        hints_used=hints_used,
        hint_counted_games=hint_counted,
        scoring=scoring,
        best_score=best_of(kept, scoring) if scoring is not None else None,
        bank=sum(banked) if scoring == "vegas-cumulative" else None,
    )


class _Unusable(Exception):
    """The database file is damaged, foreign or too new: move it aside.

    Args:
        reason: why, as the end of a sentence starting with the file's name, in English
            (marked with ``N_``), with ``{fields}`` filled from ``fields``.
        salvageable: the file may hold games this program wrote (it is damaged, not
            foreign or newer): they are read from the file set aside and carried over.
        fields: the values of the fields of ``reason``.

    ``str(error)`` is the reason in English (what the salvage marker keeps); ``shown`` the
    reason in the language spoken now (for the player); ``template`` and ``fields``
    (as text) let a later start show it in its own language.
    """

    def __init__(self, reason: str, *, salvageable: bool = False, **fields: object) -> None:
        self.template = reason
        self.fields = {name: str(value) for name, value in fields.items()}
        super().__init__(reason.format(**self.fields))
        self.shown = _(reason).format(**self.fields)
        self.salvageable = salvageable


@attrs.frozen
class _Salvage:
    """What could be read of the games of a statistics file (:func:`_read_games`).

    Attributes:
        rows: the games that read whole and validate (:func:`_valid_row`), in id order,
            columns in :data:`_COLUMNS` order.
        problems: one plain sentence per damaged game or unreadable stretch (empty when
            all was well).
        lost: damaged games known not to be among ``rows``.
        uncounted: some games could not be read and, without a readable index, how many
            is not known.
    """

    rows: list[tuple[Any, ...]]
    problems: list[str]
    lost: int = 0
    uncounted: bool = False


_VARIANT_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
"""A variant id, as the variant schema allows it (``variant-schema.json``)."""
_TIME_TEXT = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
"""The shape of a finish time :func:`_utc_text` writes (as bytes; :data:`_SUSPECT_ROWS`
checks the same shape in SQL)."""
_TIME_GLOB = "-".join("[0-9]" * n for n in (4, 2, 2)) + "T"
_TIME_GLOB += ":".join("[0-9]" * 2 for _ in range(3)) + "." + "[0-9]" * 6 + "Z"
_SUSPECT_ROWS = f"""
    SELECT count(*) FROM games NOT INDEXED WHERE NOT (
        variant GLOB '[a-z0-9]*' AND variant NOT GLOB '*[^a-z0-9-]*'
        AND finished_at GLOB '{_TIME_GLOB}'
    )"""
"""Counts the rows whose variant id or finish time :func:`_valid_row` would reject (the
other columns are held by the table's CHECK constraints, which integrity_check verifies;
the option keys are checked per distinct key): a fast test of a whole file."""
_FLAGS = ("won", "used_undo", "used_hint", "cheated")


def _text(value: object) -> str:
    """A text column read as bytes, decoded strictly (ValueError if it is not UTF-8 text)."""
    if not isinstance(value, bytes):
        raise ValueError("it is not text")
    return value.decode("utf-8")


def _valid_row(raw: Sequence[Any]) -> tuple[Any, ...]:
    """One ``games`` row read with ``text_factory=bytes`` (columns in :data:`_COLUMNS`
    order), checked as :meth:`StatsStore.record_game` writes it and returned with its
    text decoded.

    Raises:
        ValueError: a column has a value record_game never writes (damage or a hand edit).
    """
    row_id, variant, key, deal, won, moves, seconds, undo, hint, hints, cheated = raw[:11]
    score, scheme, finished = raw[11:]
    if not isinstance(row_id, int):
        raise ValueError(f"its id {row_id!r} is not a whole number")
    variant, key = _checked_names(variant, key)
    if isinstance(deal, bytes):
        digits = deal.decode("ascii", "replace")
        if not (digits.isdigit() and digits.isascii() and 19 <= len(digits) <= 20):
            raise ValueError(f"its deal {digits!r} is not a deal number")
        deal = digits
    elif not isinstance(deal, int) or deal < 0:
        raise ValueError(f"its deal {deal!r} is not a deal number")
    for name, flag in zip(_FLAGS, (won, undo, hint, cheated)):
        if flag not in (0, 1) or not isinstance(flag, int):
            raise ValueError(f"its {name} flag is {flag!r}, not 0 or 1")
    if not isinstance(moves, int) or moves < 0:
        raise ValueError(f"its move count {moves!r} is not a whole number >= 0")
    if hints is not None and (not isinstance(hints, int) or hints < 0):
        raise ValueError(f"its hint count {hints!r} is not a whole number >= 0")
    if not isinstance(seconds, float) or not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"its time {seconds!r} is not a number of seconds")
    if score is not None and (isinstance(score, bool) or not isinstance(score, int)):
        raise ValueError(f"its score {score!r} is not a whole number")
    if scheme is not None:
        scheme = scheme.decode("utf-8", "replace") if isinstance(scheme, bytes) else scheme
        if scheme not in SCHEMES:
            raise ValueError(f"its scoring {scheme!r} is not a scoring scheme")
    if (score is None) != (scheme is None):
        raise ValueError("it has a score without a scoring scheme, or the other way round")
    if not isinstance(finished, bytes) or not _TIME_TEXT.fullmatch(finished):
        raise ValueError(f"its finish time {finished!r} is not one this program writes")
    text = finished.decode()
    return (
        row_id, variant, key, deal, won, moves, seconds, undo, hint, hints, cheated, score,
        scheme, text,
    )  # fmt: skip


@functools.lru_cache(maxsize=1024)
def _checked_names(variant: object, key: object) -> tuple[str, str]:
    """A row's variant id and option key (read as bytes), decoded and checked (cached:
    a file holds few distinct pairs).

    Raises:
        ValueError: either is not text, not UTF-8, or not one record_game writes."""
    text = _text(variant)
    if not _VARIANT_ID.fullmatch(text):
        raise ValueError(f"its variant id {text!r} is not one a variant can have")
    options = _text(key)
    options_from_key(options)  # raises ValueError unless canonical
    return text, options


_READ_FAILURES = (sqlite3.DatabaseError, MemoryError)
"""What reading a damaged file can raise: an SQLite error, or ``MemoryError`` (SQLite
reports a page whose sizes and offsets are garbage as out of memory, and Python raises
``MemoryError`` for it).  Anything but a transient error (:func:`_is_transient`) means
the content could not be read."""

_PROBES = 200_000
"""At most this many ids are looked up one by one past unreadable pages (about a second)."""
_PROBE_GAP = 10_000
"""When the last page of the table cannot be read and the index does not say which ids
exist, the search ends after this many ids in a row without a readable game (an
unreadable page holds at most a few thousand)."""


def _raise_if_transient(error: BaseException) -> None:
    """Re-raise ``error`` if it is an SQLite error of the surroundings (lock, access,
    space, I/O), which says nothing about the file's content."""
    if isinstance(error, sqlite3.Error) and _is_transient(error):
        raise error


def _read_games(conn: sqlite3.Connection, version: int, damaged: bool) -> _Salvage:
    """Read every game of an open database whose schema is ours, row by row.

    The table is read from its last row down and, if that stops at a page that cannot
    be read, from its first row up; past such a page, the ids that would be on it are
    looked up one at a time (a lookup goes to the one page that holds its id) and the
    reading goes on in bulk from the next readable page, so that an unreadable page
    loses only the games on it.  The ids listed in the index ``games_in_order`` are
    looked up too.  When ``damaged`` (integrity_check found a
    fault), each row is also compared with its entry in the index: a row that disagrees
    with a well-formed entry (a changed byte in the variant id, options or finish time
    that still reads as valid) cannot be told right from its index copy and counts as
    damaged; when the entry is malformed, the index is the damaged copy and the row is
    kept.  When the table could not be read whole, index entries without a readable row
    count as damaged games.

    Args:
        conn: the open database (text is read as bytes while this runs).
        version: its schema version (1 to :data:`STATS_SCHEMA_VERSION`).
        damaged: compare the rows with the index.

    Returns:
        The games that read whole and validate, and what was wrong (:class:`_Salvage`).

    Raises:
        sqlite3.Error: a transient error (:func:`_is_transient`) while reading.
    """
    problems: list[str] = []
    conn.text_factory = bytes
    try:
        index, index_whole = _read_index(conn) if damaged else ({}, False)
        found, whole = _read_rows(conn, version, sorted(index), index_whole)
    finally:
        conn.text_factory = str
    if not whole:
        problems.append("some of its pages could not be read")
    good = []
    lost = 0
    for row_id in sorted(found):
        raw = found[row_id]
        try:
            row = _valid_row(raw)
        except ValueError as error:
            problems.append(f"game {row_id!r} is damaged: {error}")
            lost += 1
            continue
        entry = index.get(row_id)
        key = (raw[_COLUMNS.index("variant")], raw[_COLUMNS.index("options")], raw[-1])
        if entry is not None and entry != key and _valid_key(entry):
            problems.append(f"game {row_id} does not match its index entry")
            lost += 1
            continue
        good.append(row)
    missing = [row_id for row_id in index if row_id not in found] if not whole else []
    if missing:
        problems.append(f"{len(missing)} indexed games have no readable row")
        lost += len(missing)
    # Without the whole index, the games on unreadable pages cannot be counted.
    uncounted = not whole and not index_whole
    return _Salvage(good, problems, lost, uncounted)


def _read_index(conn: sqlite3.Connection) -> tuple[dict[int, tuple[Any, ...]], bool]:
    """The entries of the index ``games_in_order`` that can be read: id -> (variant,
    options, finish time), as bytes; and whether the whole index was read.

    Raises:
        sqlite3.Error: a transient error (:func:`_is_transient`).
    """
    index: dict[int, tuple[Any, ...]] = {}
    try:
        for row in conn.execute(
            "SELECT id, variant, options, finished_at FROM games "
            "INDEXED BY games_in_order ORDER BY variant, options, finished_at, id"
        ):
            index[row[0]] = tuple(row[1:])
    except _READ_FAILURES as error:  # the index itself is damaged: keep what was read
        _raise_if_transient(error)
        return index, False
    return index, True


def _read_rows(
    conn: sqlite3.Connection, version: int, known: Sequence[int], all_known: bool
) -> tuple[dict[int, Sequence[Any]], bool]:
    """The rows of ``games`` that SQLite can read, by id (see :func:`_read_games`).

    Args:
        conn: the open database.
        version: its schema version.
        known: ids listed in the index, ascending (looked up if not met in the table).
        all_known: ``known`` is the whole index: no game has a larger id.

    Returns:
        The rows read (columns in :data:`_COLUMNS` order) by id, and whether the table
        was read to its end without a failure.

    Raises:
        sqlite3.Error: a transient error (:func:`_is_transient`).
    """
    columns = _select_list(version)
    found: dict[int, Sequence[Any]] = {}
    # From the last row down to the first unreadable page: everything from ``top`` up
    # is then read.
    try:
        for raw in conn.execute(f"SELECT {columns} FROM games NOT INDEXED ORDER BY id DESC"):
            found[raw[0]] = raw
    except _READ_FAILURES as error:
        _raise_if_transient(error)
    else:
        return found, True
    top = min(found) if found else (known[-1] + 1 if known and all_known else None)
    failed: set[int] = set()
    start: int | None = None  # read from here on; None: from the first row
    probes = gap = 0
    while True:
        try:
            where, params = (" WHERE id >= ?", (start,)) if start is not None else ("", ())
            query = f"SELECT {columns} FROM games NOT INDEXED{where} ORDER BY id"
            for raw in conn.execute(query, params):
                if top is not None and raw[0] >= top:
                    break
                found[raw[0]] = raw
                start, gap = raw[0] + 1, 0
            break  # up to the rows read from the end, or the end of the table
        except _READ_FAILURES as error:
            _raise_if_transient(error)
        # The page that holds ``start`` cannot be read: look its id up alone.
        if start is None:
            start = min(1, known[0]) if known else 1
        if top is None and gap >= _PROBE_GAP:
            break
        if (top is not None and start >= top) or probes >= _PROBES:
            break
        probes += 1
        gap += 1
        try:
            raw = conn.execute(f"SELECT {columns} FROM games WHERE id = ?", (start,)).fetchone()
        except _READ_FAILURES as error:
            _raise_if_transient(error)
            failed.add(start)
        else:
            if raw is not None:
                found[raw[0]] = raw
                gap = 0
        start += 1
    for row_id in known:  # listed in the index but not met (past the search's end)
        if row_id in found or row_id in failed:
            continue
        try:
            raw = conn.execute(f"SELECT {columns} FROM games WHERE id = ?", (row_id,)).fetchone()
        except _READ_FAILURES as error:
            _raise_if_transient(error)
            failed.add(row_id)
        else:
            if raw is not None:
                found[raw[0]] = raw
    return found, False


def _select_list(version: int) -> str:
    """The columns of :data:`_COLUMNS` as read from a file of schema ``version`` (what
    older files do not hold, the hint count or the score, is unknown: ``NULL``)."""
    present = _columns_of(version)
    return ", ".join(name if name in present else "NULL" for name in _COLUMNS)


def _suspect(conn: sqlite3.Connection) -> bool:
    """Might a row of this (integrity-checked) file fail :func:`_valid_row`?  Checked in
    SQL, without reading every row into Python."""
    if conn.execute(_SUSPECT_ROWS).fetchone()[0]:
        return True
    conn.text_factory = bytes
    try:
        keys = [row[0] for row in conn.execute("SELECT DISTINCT options FROM games NOT INDEXED")]
    finally:
        conn.text_factory = str
    try:
        for key in keys:
            options_from_key(_text(key))
    except ValueError:
        return True
    return False


def _valid_key(entry: tuple[Any, ...]) -> bool:
    """Is an index entry (variant, options, finished_at, read as bytes) one that
    :meth:`StatsStore.record_game` could have written?  (If not, the index is the
    damaged copy and the row is trusted.)"""
    try:
        _checked_names(entry[0], entry[1])
    except (ValueError, TypeError):
        return False
    return isinstance(entry[2], bytes) and _TIME_TEXT.fullmatch(entry[2]) is not None


def _is_transient(error: sqlite3.Error) -> bool:
    """Is this an error of the surroundings (lock, access, space, I/O) rather than of the
    file's content?"""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _SQLITE_TRANSIENT
    text = str(error).lower()  # Python 3.10 has no error codes
    return any(word in text for word in _TRANSIENT_WORDS)


def _missing_pages(head: bytes, size: int) -> tuple[int, int]:
    """How many pages a database file lacks at its end, and how many its header counts
    (both 0 when the header does not tell): the pages beyond the file's ``size`` in bytes.

    The page count in the header (bytes 28-31) is valid only when the "version valid
    for" number (bytes 92-95) equals the change counter (bytes 24-27)
    (https://www.sqlite.org/fileformat2.html#in_header_database_size)."""
    if len(head) < _HEADER_SIZE or head[92:96] != head[24:28]:
        return 0, 0
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return 0, 0
    counted = int.from_bytes(head[28:32], "big")
    return max(0, counted - size // page_size), counted


def _create_schema(conn: sqlite3.Connection) -> None:
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(_TABLE)
        conn.execute(_INDEX)
        conn.execute(f"PRAGMA user_version = {STATS_SCHEMA_VERSION}")


def _upgrade(conn: sqlite3.Connection, version: int) -> None:
    """Version 1 to 4 -> :data:`STATS_SCHEMA_VERSION` in one transaction (a crash
    leaves the old version whole): every game is copied, with what the old version did
    not hold unknown (``NULL``: ``hints`` before version 3, ``score`` and ``scoring``
    before version 4); version 5 only lets ``scoring`` name more schemes."""
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        if conn.execute("PRAGMA user_version").fetchone()[0] != version:
            return  # another instance upgraded it meanwhile
        old = ", ".join(_columns_of(version))
        # The new table is created under its own name (a renamed table's schema text
        # would be rewritten, quoted, and no longer match _SCHEMA_TEXT on the next
        # opening); the old one is renamed and dropped, its index with it.
        conn.execute("DROP INDEX games_in_order")
        conn.execute("ALTER TABLE games RENAME TO games_old")
        conn.execute(_TABLE)
        conn.execute(f"INSERT INTO games ({old}) SELECT {old} FROM games_old")
        conn.execute("DROP TABLE games_old")
        conn.execute(_INDEX)
        conn.execute(f"PRAGMA user_version = {STATS_SCHEMA_VERSION}")


def _blanks_normalised(sql: str) -> str:
    return " ".join(sql.replace("(", " ( ").replace(")", " ) ").replace(",", " , ").split())


def _schema_problem(conn: sqlite3.Connection, version: int) -> str | None:
    """Why the schema text stored in the file is not the one ``version`` writes, if so.

    Read as bytes: a damaged byte there must not surface as a UnicodeDecodeError."""
    conn.text_factory = bytes
    try:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
    finally:
        conn.text_factory = str
    found = []
    for kind, name, sql in rows:
        try:
            found.append((kind.decode(), name.decode(), sql.decode() if sql else ""))
        except (AttributeError, UnicodeDecodeError):
            return "its schema text is not readable"
    table, index = _SCHEMA_TEXT[version]
    wanted = [("index", "games_in_order", index), ("table", "games", table)]
    normal = [(k, n, _blanks_normalised(q)) for k, n, q in found]
    if normal != [(k, n, _blanks_normalised(q)) for k, n, q in wanted]:
        return "its schema is not the one towers-solitaire writes"
    return None


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file ``path`` names now (device and inode), or ``None`` if none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


_MARKER = ".salvage-"
"""Salvage markers are named ``stats.sqlite3.salvage-KEY`` (see :func:`_write_marker`)."""


def _identity_key(path: Path) -> tuple[int, int, int] | None:
    """What tells a file apart even after it is renamed: its inode number, size and
    modification time in ns (the inode alone where file systems have none), or ``None``
    if there is no such file."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _write_marker(path: Path, reason: str, problem: _Unusable | None = None) -> Path:
    """Note, before a damaged file is moved aside, that its games are to be carried over.

    The marker ``<name>.salvage-KEY`` beside it holds the file's identity
    (:func:`_identity_key`, kept by the rename) and why it is moved; it is removed once
    the games are in the new file.  A marker left by a start killed midway makes the next
    start finish the salvage.

    Args:
        path: the damaged statistics file, still in place.
        reason: why it is moved aside (the end of a sentence naming the file), in English.
        problem: the error that gave ``reason``: its message's English text and fields
            are kept too, so the start that finishes the salvage shows the reason in the
            player's language.

    Returns:
        The marker's path.

    Raises:
        OSError: the file is gone, or the marker could not be written.
    """
    key = _identity_key(path)
    if key is None:
        raise FileNotFoundError(f"{path} does not exist")
    inode, size, mtime = key
    marker = path.with_name(f"{path.name}{_MARKER}{inode or f'{size}-{mtime}'}")
    note: dict[str, Any] = {"file": list(key), "reason": reason}
    if problem is not None:
        note["message"], note["fields"] = problem.template, problem.fields
    atomic_write_text(marker, json.dumps(note) + "\n")
    return marker


def _shown_reason(note: Mapping[str, Any], reason: str) -> str:
    """A marker's reason in the language spoken now: its message translated with its
    fields, or ``reason`` (English) when the marker has none or they do not fit."""
    message, fields = note.get("message"), note.get("fields")
    if not isinstance(message, str) or not isinstance(fields, dict):
        return reason
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
        return reason
    try:
        if message.format(**fields) != reason:
            return reason
        return _(message).format(**fields)
    except (KeyError, IndexError, ValueError, AttributeError):
        return reason


def _read_marker(marker: Path) -> tuple[tuple[int, int, int], str] | None:
    """A salvage marker's file identity and reason (in the language spoken now), or
    ``None`` if it cannot be read."""
    try:
        note = json.loads(marker.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(note, dict):
        return None
    key, reason = note.get("file"), note.get("reason")
    if (
        not isinstance(key, list)
        or len(key) != 3
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in key)
        or not isinstance(reason, str)
    ):
        return None
    return (key[0], key[1], key[2]), _shown_reason(note, reason)


def _find_moved(path: Path, key: tuple[int, int, int]) -> Path | None:
    """The file set aside beside ``path`` (``<name>.corrupt-*``) whose identity is
    ``key``, or ``None``."""
    for candidate in sorted(path.parent.glob(f"{path.name}.corrupt-*")):
        if candidate.name.endswith(_SIDE_FILES) or not candidate.is_file():
            continue
        if _identity_key(candidate) == key:
            return candidate
    return None


def _salvage(path: Path) -> _Salvage | None:
    """Read what SQLite can still read of the games of a damaged statistics file.

    The file is opened as immutable (read only; nothing, not even a journal, is written
    or replayed) with ``writable_schema`` on, which lets SQLite read a file shorter than
    its header says (a copy cut at a page boundary) as far as it goes.  The games are
    then read row by row (:func:`_read_games`).

    Args:
        path: the file (set aside; it is not changed).

    Returns:
        The games read, or ``None`` when the file's schema cannot be read or is not one
        of this program's (a foreign file, one from a newer version).

    Raises:
        sqlite3.Error: a transient error (:func:`_is_transient`: the file could not be
            opened or read now).
    """
    uri = Path(os.path.abspath(path)).as_uri() + "?immutable=1"
    conn = sqlite3.connect(uri, uri=True)
    try:
        conn.execute("PRAGMA writable_schema = ON")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if not 1 <= version <= STATS_SCHEMA_VERSION or _schema_problem(conn, version):
            return None
        columns = tuple(row[1] for row in conn.execute("PRAGMA table_info(games)"))
        if columns != _columns_of(version):
            return None
        return _read_games(conn, version, damaged=True)
    except _READ_FAILURES as error:
        _raise_if_transient(error)
        return None
    except UnicodeDecodeError:  # SQLite's message quoted a damaged byte
        return None
    finally:
        conn.close()


def _outcome(found: _Salvage | None, carried: int) -> str:
    """What became of the games of a file moved aside, for the player: the end of a
    sentence (``carried`` of ``found.rows`` are in the new file)."""
    if found is None:
        return _("new statistics are started")
    if not found.rows:
        return _("new statistics are started (no recorded game could be read whole)")
    if not carried:
        return _("new statistics are started; the recorded games are in the file set aside")
    text = ngettext(
        "new statistics are started with the {count} recorded games that read back whole",
        "new statistics are started with the {count} recorded games that read back whole",
        carried,
    ).format(count=carried)
    lost = found.lost + len(found.rows) - carried
    if not found.uncounted and lost:
        return ngettext(
            "{outcome}; {count} damaged game is only in the file set aside",
            "{outcome}; {count} damaged games are only in the file set aside",
            lost,
        ).format(outcome=text, count=lost)
    if found.uncounted and lost:
        return ngettext(
            "{outcome}; at least {count} damaged games are only in the file set aside",
            "{outcome}; at least {count} damaged games are only in the file set aside",
            lost,
        ).format(outcome=text, count=lost)
    if found.uncounted:
        return _("{outcome}; some damaged games are only in the file set aside").format(
            outcome=text
        )
    return text


def _utc_text(when: datetime) -> str:
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class StatsStore:
    """The statistics database.  Opening it never fails.

    Args:
        path: the database file; default
            :func:`~solitaire_core.persistence.paths.stats_path`.

    Attributes:
        path: the database file.
        warnings: plain-language sentences for the player about problems met while
            opening (empty when all was well).  A file that is not an SQLite database, is
            damaged, holds foreign tables or has a newer schema version is moved aside
            (``stats.sqlite3.corrupt-YYYYmmdd-HHMMSS``, with its ``-journal``/``-wal``
            companions) and a fresh database is created.  "Damaged" is decided on every
            opening by ``PRAGMA integrity_check`` (pages, and the index against the rows)
            and by checking every row as :meth:`record_game` writes it; any error SQLite
            raises while verifying the file also means damage (``MemoryError`` included:
            SQLite reports some garbage in a page as out of memory; a file shorter than
            its header says, which SQLite refuses, is reported as cut short).  The games of a
            damaged file that SQLite can still read, row by row, and that read back
            whole are carried over into the fresh one (see :func:`_read_games` for the
            rule), the others stay in the file set aside; the warning says how many were
            carried over and how many were not.  A marker
            (``stats.sqlite3.salvage-KEY``) written before the move lets the next
            opening finish a salvage that a crash cut short, without copying a game
            twice.  When even that fails (folder not writable, ...), statistics are
            kept in memory for this session only and ``in_memory`` is true.
        in_memory: the store is not backed by a file.

    Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.warnings: list[str] = []
        self.in_memory = False
        self._identity: tuple[int, int] | None = None
        try:
            self.path = Path(path) if path is not None else stats_path()
        except OSError as error:  # the data folder cannot be created
            self.path = Path("stats.sqlite3")
            self._conn = self._memory(
                _("the data folder could not be created ({error})").format(error=error)
            )
            return
        self._conn = self._open()

    # --- opening ---------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        """Open, check, and if need be move aside, create or upgrade the database, under
        the lock ``stats.sqlite3.lock`` (another program may be doing the same)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return self._memory(_("its folder could not be created ({error})").format(error=error))
        with locked(self.path):
            conn = self._open_unlocked()
        self._identity = _identity(self.path)
        return conn

    def _open_unlocked(self) -> sqlite3.Connection:
        conn, handled = self._open_or_replace()
        if not self.in_memory:
            self._finish_interrupted(conn, handled)
        return conn

    def _open_or_replace(self) -> tuple[sqlite3.Connection, Path | None]:
        """Open the file; if it is unusable, move it aside, start a new one and carry over
        the games it still holds.

        Returns:
            The connection, and the salvage marker written for a file moved aside now
            (``None`` if none was).
        """
        try:
            return self._open_checked(), None
        except _Unusable as problem:
            reason, shown, salvageable = str(problem), problem.shown, problem.salvageable
            unusable = problem
        except (sqlite3.Error, OSError) as error:
            return self._memory(_("it could not be opened ({error})").format(error=error)), None
        marker = None
        try:
            if salvageable:
                # Written before the move: a start killed before the games are carried
                # over finishes the work (:meth:`_finish_interrupted`).
                marker = _write_marker(self.path, reason, unusable)
            moved = quarantine(self.path)
        except OSError as error:
            if marker is not None:
                with contextlib.suppress(OSError):
                    marker.unlink()
            why = _("{reason}, and it could not be moved aside ({error})")
            return self._memory(why.format(reason=shown, error=error)), None
        for suffix in _SIDE_FILES:
            side = Path(f"{self.path}{suffix}")
            if os.path.lexists(side):
                with contextlib.suppress(OSError):
                    move_aside(side, Path(f"{moved}{suffix}"))
        try:
            conn = self._open_checked()
        except (_Unusable, sqlite3.Error, OSError) as error:
            text = self._file_problem(shown) + " "
            text += _("It was moved aside to {name}.").format(name=moved.name)
            if marker:
                text += " " + _("Its games will be carried over at the next start.")
            self.warnings.append(text)
            why = _("a new one could not be created ({error})").format(error=error)
            return self._memory(why), marker
        if marker is None:
            self.warnings.append(
                self._file_problem(shown)
                + " "
                + _("It was moved aside to {name} and new statistics are started.").format(
                    name=moved.name
                )
            )
        else:
            self._salvage_into(conn, moved, marker, shown, interrupted=False)
        return conn, marker

    def _finish_interrupted(self, conn: sqlite3.Connection, handled: Path | None) -> None:
        """Carry over the games of files that a start killed midway moved aside (their
        salvage markers remain; see :func:`_write_marker`), except ``handled``, the one
        this opening wrote.  A marker whose file is still in place is dropped: the file
        was not moved, and is checked like any other."""
        for marker in sorted(self.path.parent.glob(f"{self.path.name}{_MARKER}*")):
            if marker == handled:
                continue
            note = _read_marker(marker)
            here = _identity_key(self.path)
            if note is not None and here is not None and here == note[0]:
                with contextlib.suppress(OSError):
                    marker.unlink()
                continue
            moved = _find_moved(self.path, note[0]) if note is not None else None
            if note is None or moved is None:
                with contextlib.suppress(OSError):
                    marker.unlink()
                self.warnings.append(
                    _(
                        "An earlier start of the program did not finish setting a damaged "
                        "statistics file aside; its games may be in a {name}.corrupt-* file "
                        "in {folder}."
                    ).format(name=self.path.name, folder=self.path.parent)
                )
                continue
            self._salvage_into(conn, moved, marker, note[1], interrupted=True)

    def _salvage_into(
        self,
        conn: sqlite3.Connection,
        moved: Path,
        marker: Path,
        reason: str,
        *,
        interrupted: bool,
    ) -> None:
        """Carry the readable games of ``moved`` (a damaged file set aside) into ``conn``,
        remove ``marker`` once they are in, and tell the player (:attr:`warnings`; ``reason``
        in the language spoken now).

        Carrying over twice adds nothing (games keep their ids), so a salvage cut short
        by a crash is finished by running it again."""
        lead = self._file_problem(reason) + " "
        try:
            found = _salvage(moved)
            carried = self._carry_over(conn, found.rows if found is not None else [])
        except (sqlite3.Error, OSError) as error:  # transient: the marker stays
            carried, problem = None, str(error)
        else:
            problem = _("the new file could not be written")
        if carried is None:
            if interrupted:
                text = _(
                    "An earlier start moved it aside to {name} but did not finish carrying its "
                    "games over; its games could not be carried over now ({problem}): they "
                    "will be at the next start."
                )
            else:
                text = _(
                    "It was moved aside to {name}; its games could not be carried over now "
                    "({problem}): they will be at the next start."
                )
            self.warnings.append(lead + text.format(name=moved.name, problem=problem))
            return
        with contextlib.suppress(OSError):
            marker.unlink()
        if interrupted:
            text = _(
                "An earlier start moved it aside to {name} but did not finish carrying its "
                "games over; now {outcome}."
            )
        else:
            text = _("It was moved aside to {name} and {outcome}.")
        self.warnings.append(lead + text.format(name=moved.name, outcome=_outcome(found, carried)))

    def _file_problem(self, reason: str) -> str:
        """``"The statistics file PATH REASON."`` in the language spoken now (``reason``
        already in it)."""
        return _("The statistics file {path} {reason}.").format(path=self.path, reason=reason)

    @staticmethod
    def _carry_over(conn: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> int | None:
        """Copy games read whole from a damaged file into the new one, in one transaction.

        A game already there under its id (carried over by a start that was then
        interrupted) is not copied again.

        Args:
            conn: the new database.
            rows: the games, columns in :data:`_COLUMNS` order.

        Returns:
            How many of ``rows`` are now in the new file; ``None`` if the copy failed
            (the games stay in the file set aside).
        """
        if not rows:
            return 0
        marks = ", ".join("?" * len(_COLUMNS))
        try:
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                present = {
                    row[0]: row for row in conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM games")
                }
                conn.executemany(
                    f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({marks})",
                    [row for row in rows if row[0] not in present],
                )
        except sqlite3.Error:
            return None
        return sum(1 for row in rows if present.get(row[0], row) == row)

    def _has_journal(self) -> bool:
        """Is there a rollback journal SQLite will replay on opening (a crashed write)?"""
        try:
            with open(f"{self.path}-journal", "rb") as handle:
                return handle.read(len(_JOURNAL_MAGIC)) == _JOURNAL_MAGIC
        except OSError:
            return False

    def _open_checked(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            mode = stat.S_IFREG
        if stat.S_ISDIR(mode):  # left alone: it may hold the user's files
            raise IsADirectoryError(f"{self.path} is a folder")
        if not stat.S_ISREG(mode):  # a FIFO would hang the header read below
            raise _Unusable(N_("is not a statistics database (it is not a regular file)"))
        if not self._has_journal():
            # Without a journal to roll back, a non-empty file must start with the SQLite
            # header; otherwise SQLite may take a short file for an empty database and
            # overwrite it, or discard a stray journal.  (With a real journal, SQLite
            # first restores the file itself.)
            try:
                with open(self.path, "rb") as handle:
                    head = handle.read(len(_SQLITE_HEADER))
            except FileNotFoundError:
                head = b""
            if head and head != _SQLITE_HEADER:
                raise _Unusable(N_("is not a statistics database (it is not an SQLite file)"))
        conn = sqlite3.connect(str(self.path), timeout=10.0)
        # Reading a damaged file is where SQLite's errors enter: any that is not of the
        # surroundings (lock, access, space, I/O), and MemoryError (SQLite's answer to a
        # page whose sizes are garbage), means damage.
        try:
            self._check(conn)
            self._check_size(conn)
        except BaseException as error:
            conn.close()
            if isinstance(error, sqlite3.Error) and not _is_transient(error):
                raise self._damage(error) from error
            if isinstance(error, MemoryError):
                raise _Unusable(
                    N_("is damaged (SQLite ran out of memory reading it)"), salvageable=True
                ) from None
            if isinstance(error, UnicodeDecodeError):  # SQLite's message quoted a bad byte
                raise _Unusable(
                    N_("is damaged (its schema text is not readable)"), salvageable=True
                ) from error
            raise
        return conn

    @staticmethod
    def _check(conn: sqlite3.Connection) -> None:
        conn.execute("PRAGMA synchronous = FULL")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        # integrity_check, unlike quick_check, also compares the index with the rows: a
        # changed byte in a variant id is found there.
        try:
            result = conn.execute("PRAGMA integrity_check").fetchall()
        except MemoryError:
            result = [("SQLite ran out of memory checking it",)]
        except sqlite3.Error as error:
            if _is_transient(error):
                raise
            result = [(str(error),)]
        damage = None if result == [("ok",)] else str(result[0][0]) if result else "no answer"
        try:
            StatsStore._check_schema(conn, version)
        except _Unusable:
            if damage is not None:
                raise _Unusable(
                    N_("is damaged ({damage})"), salvageable=True, damage=damage
                ) from None
            raise
        if version == 0:
            _create_schema(conn)
            return
        if damage is not None:  # the games are read from the file once it is set aside
            raise _Unusable(N_("is damaged ({damage})"), salvageable=True, damage=damage)
        if _suspect(conn):  # else every row would validate
            problems = _read_games(conn, version, damaged=False).problems
            if problems:
                raise _Unusable(N_("is damaged ({damage})"), salvageable=True, damage=problems[0])
        if version < STATS_SCHEMA_VERSION:
            _upgrade(conn, version)

    @staticmethod
    def _check_schema(conn: sqlite3.Connection, version: int) -> None:
        """Is this a towers-solitaire statistics file this program reads (or an empty
        one)?  Raises :class:`_Unusable` if not."""
        if version > STATS_SCHEMA_VERSION:
            raise _Unusable(
                N_(
                    "was written by a newer version (schema {version}); this program reads "
                    "schema {ours}"
                ),
                version=version,
                ours=STATS_SCHEMA_VERSION,
            )
        tables = {
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        if version == 0:
            if tables:
                raise _Unusable(N_("holds tables that are not towers-solitaire statistics"))
            return
        if version < 1:
            raise _Unusable(N_("has an unknown schema version ({version})"), version=version)
        problem = _schema_problem(conn, version)
        if problem is not None:
            raise _Unusable(N_("is damaged ({damage})"), salvageable=True, damage=problem)
        columns = tuple(row[1] for row in conn.execute("PRAGMA table_info(games)"))
        if columns != _columns_of(version):
            raise _Unusable(N_("does not have the layout of towers-solitaire statistics"))

    def _damage(self, error: sqlite3.Error) -> _Unusable:
        """Why SQLite could not read the file (a salvageable :class:`_Unusable`, its
        reason the end of a sentence naming the file): cut
        short if it lacks pages its header counts (SQLite then refuses to read it at
        all), else SQLite's own words.  (Asked only once SQLite has failed: a file being
        written by another program may for an instant be longer than its header says
        or the other way round.)"""
        try:
            with open(self.path, "rb") as handle:
                head = handle.read(_HEADER_SIZE)
                size = os.fstat(handle.fileno()).st_size
        except OSError:
            head, size = b"", 0
        missing, counted = _missing_pages(head, size)
        if missing:
            return _Unusable(
                N_(
                    "is damaged (it lacks {missing} of the {counted} pages its header counts: "
                    "it was probably cut short)"
                ),
                salvageable=True,
                missing=missing,
                counted=counted,
            )
        return _Unusable(
            N_("is damaged or not a statistics database ({error})"), salvageable=True, error=error
        )

    def _check_size(self, conn: sqlite3.Connection) -> None:
        """A database file is whole pages; anything else was cut short."""
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        size = os.path.getsize(self.path)
        if page_size > 0 and size % page_size:
            raise _Unusable(
                N_(
                    "is damaged (its size, {size} bytes, is not a whole number of "
                    "{page_size}-byte pages: it was probably cut short)"
                ),
                salvageable=True,
                size=size,
                page_size=page_size,
            )

    def _memory(self, reason: str) -> sqlite3.Connection:
        self.in_memory = True
        self.warnings.append(
            _(
                "The statistics file {path}: {reason}. Statistics of this session will not be kept."
            ).format(path=self.path, reason=reason)
        )
        conn = sqlite3.connect(":memory:")
        _create_schema(conn)
        return conn

    # --- use -------------------------------------------------------------------------------

    def close(self) -> None:
        """Close the database (further use raises ``sqlite3.ProgrammingError``)."""
        self._conn.close()

    def __enter__(self) -> StatsStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def record_game(
        self,
        variant: str,
        options: Mapping[str, str] | None,
        deal: int,
        won: bool,
        moves: int,
        seconds: float,
        used_undo: bool,
        used_hint: bool,
        cheated: bool,
        finished_at: datetime | None = None,
        *,
        hints: int | None = None,
        score: int | None = None,
        scoring: str | None = None,
    ) -> None:
        """Store one finished game, durably, in its own transaction.

        A game abandoned for a new deal should be recorded as lost; the caller decides.

        Args:
            variant: variant id (lowercase letters, digits and ``-``, as the variant
                schema allows).
            options: the variant's options (names and values are strings).
            deal: deal number, ``0 <= deal <= 10**20-1``.
            won: the game was won.
            moves: moves made, ``>= 0``.
            seconds: play time in seconds, finite and ``>= 0``.
            used_undo: undo was used.
            used_hint: a hint was used.
            cheated: Cheat was used (a cheated win is shown apart).
            finished_at: when the game ended (aware, or naive meaning UTC); default now.
                Games are ordered by this time for streaks.
            hints: how many hints the game used (``>= 0``; more than 0 only with
                ``used_hint``); ``None`` = not known (left out of hints per game).
            score: the game's final score (points, or dollars for the Vegas schemes;
                may be negative), given with ``scoring``; ``None`` = not known.
            scoring: the scheme ``score`` was counted by, one of
                :data:`solitaire_core.scoring.SCHEMES`; ``"vegas-cumulative"`` scores
                add up to the bank (:meth:`bank`).

        Raises:
            TypeError, ValueError: an argument has the wrong type or range.
            PersistenceError: the database could not be written (disk full, locked
                for too long, ...); the game is then not recorded.
        """
        if not isinstance(variant, str) or not variant:
            raise TypeError(f"variant must be a non-empty string, not {variant!r}")
        if not _VARIANT_ID.fullmatch(variant):
            raise ValueError(f"variant must be a variant id (a-z, 0-9, '-'), not {variant!r}")
        key = to_options(options).key()
        if not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal <= MAX_DEAL:
            raise ValueError(f"deal must be an int from 0 to 10**20-1, not {deal!r}")
        stored_deal: int | str = deal if deal < 2**63 else str(deal)
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
            raise ValueError(f"moves must be a whole number >= 0, not {moves!r}")
        if (
            not isinstance(seconds, (int, float))
            or isinstance(seconds, bool)
            or not math.isfinite(seconds)
            or seconds < 0
        ):
            raise ValueError(f"seconds must be a finite number >= 0, not {seconds!r}")
        flags = {"won": won, "used_undo": used_undo, "used_hint": used_hint, "cheated": cheated}
        for name, flag in flags.items():
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be True or False, not {flag!r}")
        if hints is not None and (not isinstance(hints, int) or isinstance(hints, bool)):
            raise TypeError(f"hints must be a whole number or None, not {hints!r}")
        if hints is not None and (hints < 0 or (hints and not used_hint)):
            raise ValueError(f"hints must be >= 0, and 0 unless used_hint, not {hints!r}")
        if score is not None and (not isinstance(score, int) or isinstance(score, bool)):
            raise TypeError(f"score must be a whole number or None, not {score!r}")
        if scoring is not None and scoring not in SCHEMES:
            raise ValueError(f"scoring must be one of {', '.join(SCHEMES)}, not {scoring!r}")
        if (score is None) != (scoring is None):
            raise ValueError("score and scoring go together: give both or neither")
        if finished_at is not None and not isinstance(finished_at, datetime):
            raise TypeError(f"finished_at must be a datetime, not {finished_at!r}")
        when = _utc_text(finished_at or datetime.now(timezone.utc))
        if not self.in_memory and _identity(self.path) != self._identity:
            # Another program moved a damaged file aside and started a new one since we
            # opened it: write to the file now in place, not to the one set aside.
            self._conn.close()
            self._conn = self._open()
        row = (
            variant,
            key,
            stored_deal,
            won,
            moves,
            float(seconds),
            used_undo,
            used_hint,
            hints,
            cheated,
            score,
            scoring,
            when,
        )
        try:
            with self._conn:
                self._conn.execute(
                    f"INSERT INTO games ({', '.join(_COLUMNS[1:])}) "
                    f"VALUES ({', '.join('?' * len(row))})",
                    row,
                )
        except sqlite3.Error as error:
            raise PersistenceError(
                _("The result could not be saved in the statistics file {path} ({error}).").format(
                    path=self.path, error=error
                ),
                self.path,
            ) from error

    def _read(self, query: str, params: Sequence[str]) -> list[Any]:
        """The rows of a ``SELECT``.

        Raises:
            PersistenceError: the database could not be read.
        """
        try:
            return self._conn.execute(query, params).fetchall()
        except sqlite3.Error as error:
            raise PersistenceError(
                _("The statistics file {path} could not be read ({error}).").format(
                    path=self.path, error=error
                ),
                self.path,
            ) from error

    def summary(
        self, variant: str | None = None, options: Mapping[str, str] | None = None
    ) -> list[VariantStats]:
        """Compute the statistics, one entry per variant and option set.

        Args:
            variant: only this variant; ``None`` = all.
            options: with ``variant``, only this option set; ``None`` = all of them.

        Returns:
            Entries sorted by variant id, then canonical option key.  Variants without
            recorded games do not appear.

        Raises:
            ValueError: ``options`` given without ``variant``.
            PersistenceError: the database could not be read.
        """
        where, params = _where(variant, options)
        query = (
            "SELECT variant, options, won, moves, seconds, used_undo, used_hint, hints, cheated, "
            "score, scoring "
        )
        query += f"FROM games{where} ORDER BY variant, options, finished_at, id"
        rows = self._read(query, params)
        result = []
        for (name, key), group in itertools.groupby(rows, key=lambda row: (row[0], row[1])):
            try:
                result.append(_summarise(name, key, (row[2:] for row in group)))
            except ValueError:  # an option key not written by us (hand-edited database)
                self.warnings.append(
                    _(
                        "The statistics file {path} holds games of {name} with unreadable "
                        "options {options}; they are not shown."
                    ).format(path=self.path, name=repr(name), options=repr(key))
                )
        return result

    def games(self, variant: str, options: Mapping[str, str] | None = None) -> list[GameRecord]:
        """The recorded games of ``variant`` with ``options``, in the order they were
        played (by finish time, then as recorded): what a progression chart is drawn
        from (:func:`solitaire_core.persistence.progress.progression`).

        Args:
            variant: variant id.
            options: the option set (``None`` or ``{}``: the games without options).

        Returns:
            One :class:`GameRecord` per game, cheat wins included; an empty list when
            none was recorded.

        Raises:
            PersistenceError: the database could not be read.
        """
        where, params = _where(variant, options or {})
        query = (
            f"SELECT finished_at, won, seconds, moves, cheated, deal FROM games{where} "
            "ORDER BY finished_at, id"
        )
        rows = self._read(query, params)
        return [
            GameRecord(
                finished_at=datetime.strptime(when, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
                    tzinfo=timezone.utc
                ),
                won=bool(won),
                seconds=float(seconds),
                moves=int(moves),
                cheated=bool(cheated),
                deal=int(deal),
            )
            for when, won, seconds, moves, cheated, deal in rows
        ]

    def bank(self, variant: str, options: Mapping[str, str] | None = None) -> int:
        """The bank carried from game to game of ``variant`` with ``options`` under
        ``"vegas-cumulative"`` scoring (Windows Solitaire's cumulative Vegas score): the
        sum of the recorded games' scores, in dollars; 0 before the first game.

        Raises:
            PersistenceError: the database could not be read.
        """
        where, params = _where(variant, options or {})
        query = f"SELECT sum(score) FROM games{where} AND scoring = 'vegas-cumulative'"
        total = self._read(query, params)[0][0]
        return int(total or 0)

    def reset(self, variant: str | None = None, options: Mapping[str, str] | None = None) -> int:
        """Delete recorded games: all, those of one variant, or one variant + option set.

        Args:
            variant: the variant to clear; ``None`` = everything.
            options: with ``variant``, clear only this option set.

        Returns:
            The number of games deleted.

        Raises:
            ValueError: ``options`` given without ``variant``.
            PersistenceError: the database could not be written.
        """
        where, params = _where(variant, options)
        try:
            with self._conn:
                return self._conn.execute(f"DELETE FROM games{where}", params).rowcount
        except sqlite3.Error as error:
            raise PersistenceError(
                _("The statistics file {path} could not be changed ({error}).").format(
                    path=self.path, error=error
                ),
                self.path,
            ) from error


def _where(variant: str | None, options: Mapping[str, str] | None) -> tuple[str, tuple[str, ...]]:
    """The SQL ``WHERE`` clause (with a leading space, or ``""``) and its parameters that
    select the games of ``variant`` (all when ``None``) with ``options`` (any when
    ``None``).

    Raises:
        ValueError: ``options`` given without ``variant``.
    """
    if variant is None:
        if options is not None:
            raise ValueError("options can only be given together with a variant")
        return "", ()
    if options is None:
        return " WHERE variant = ?", (variant,)
    return " WHERE variant = ? AND options = ?", (variant, to_options(options).key())


# --- text table ----------------------------------------------------------------------------

_HEADERS = (
    "Variant",
    "Options",
    "Played",
    "Won",
    "Lost",
    "Win %",
    "Streak",
    "Best streak",
    "Fewest moves",
    "Fastest (m:ss)",
    "Best score",
    "Bank",
    "Wins with undo",
    "Wins with hints",
    "Hints per game",
    "Cheat wins",
)
_LEFT = 2  # the first two columns are text, aligned left


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _streak(streak: int) -> str:
    if streak > 0:
        return f"{streak} won"
    if streak < 0:
        return f"{-streak} lost"
    return "-"


def figure_texts(entry: VariantStats, clock: Callable[[float], str] = _clock) -> tuple[str, ...]:
    """An entry's figures as a player reads them, in the order of the table's columns
    after Variant and Options: played, won, lost, win rate (``"70%"``), current streak
    (``"3 won"``, ``"2 lost"``), best streak, fewest moves, fastest time, best score
    (``"$103"`` for the Vegas schemes), bank (``"$-61"``, Vegas with a bank only), wins
    with undo, wins with hints, hints per game (``"0.4"``), cheat wins.  A figure without
    a value (no win yet, no game with a known hint count or score) is ``"-"``.

    Args:
        entry: one entry of :meth:`StatsStore.summary`.
        clock: writes the fastest time given in seconds (default minutes:seconds,
            rounded down).
    """
    return (
        str(entry.played),
        str(entry.won),
        str(entry.lost),
        f"{entry.win_rate * 100:.0f}%" if entry.played else "-",
        _streak(entry.current_streak),
        str(entry.longest_win_streak),
        "-" if entry.fewest_moves is None else str(entry.fewest_moves),
        "-" if entry.fastest_seconds is None else clock(entry.fastest_seconds),
        "-" if entry.best_score is None else score_text(entry.best_score, entry.scoring or ""),
        "-" if entry.bank is None else score_text(entry.bank, "vegas-cumulative"),
        str(entry.wins_with_undo),
        str(entry.wins_with_hints),
        "-" if entry.hints_per_game is None else f"{entry.hints_per_game:.1f}",
        str(entry.cheat_wins),
    )


def format_table(stats: Sequence[VariantStats]) -> str:
    """Render statistics as a fixed-width plain-ASCII table (for ``solitaire stats``).

    Columns: Variant, Options, then :func:`figure_texts` under the headings Played, Won,
    Lost, Win %, Streak, Best streak, Fewest moves, Fastest (m:ss), Best score, Bank
    (the variant's scoring scheme, :mod:`solitaire_core.scoring`), Wins with undo, Wins
    with hints (wins in which undo or a hint was used; both count in Won too), Hints per
    game (the average over played games whose hint count was recorded), Cheat wins.

    Args:
        stats: entries as returned by :meth:`StatsStore.summary`.

    Returns:
        The table, lines separated by ``\\n``, without a trailing newline; a one-line
        note when ``stats`` is empty.
    """
    if not stats:
        return "No games recorded yet."
    rows = [list(_HEADERS)]
    for entry in stats:
        rows.append([entry.variant, entry.options.key() or "-", *figure_texts(entry)])
    widths = [max(len(row[column]) for row in rows) for column in range(len(_HEADERS))]

    def line(cells: list[str]) -> str:
        parts = [
            cell.ljust(width) if column < _LEFT else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(cells, widths))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(rows[0]), rule, *(line(row) for row in rows[1:])])
