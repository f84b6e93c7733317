"""Surveys: solve a range of deals in parallel and count how many are winnable.

Deals are solved in worker processes (:class:`concurrent.futures.ProcessPoolExecutor`), or
on a Dask distributed cluster when one machine is not enough (``executor="dask"``; the
optional extra ``towers-solitaire[cluster]``). Each finished deal becomes one CSV row at
once, so an interrupted survey keeps what it did, and running it again with the same file
skips the deals already there.

The winnability rate comes with its 95% Wilson score interval (Wilson 1927), which stays
inside [0, 1] and behaves at rates near 0 or 1, unlike the normal approximation.
"""

from __future__ import annotations

import bisect
import contextlib
import csv
import importlib
import io
import itertools
import math
import multiprocessing
import os
import re
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, overload

import attrs

from ..errors import SolitaireError, UsageError
from ..readfile import read_file_bytes

if TYPE_CHECKING:
    from ..variant import Rules

FIELDS = (
    "variant",
    "options",
    "deal",
    "verdict",
    "positions",
    "seconds",
    "moves",
    "reason",
    "solution",
)
"""The CSV columns, in order."""


@attrs.frozen
class SurveyRow:
    """One solved deal.

    :param variant: variant id.
    :param options: the chosen options as ``key=value`` joined by ``;`` (empty for none).
    :param deal: the deal number.
    :param verdict: ``"winnable"``, ``"unwinnable"`` or ``"undecided"``.
    :param positions: positions the search stored.
    :param seconds: time the search took in the worker.
    :param moves: length of the solution (0 when there is none).
    :param reason: why an undecided deal stopped (``"time budget"`` ...), else empty.
    :param solution: the solution's moves in notation, separated by spaces.
    """

    variant: str
    options: str
    deal: int
    verdict: str
    positions: int
    seconds: float
    moves: int
    reason: str = ""
    solution: str = ""

    def as_csv(self) -> list[str]:
        """The row's fields as CSV text, in :data:`FIELDS` order."""
        return [
            self.variant,
            self.options,
            str(self.deal),
            self.verdict,
            str(self.positions),
            f"{self.seconds:.4f}",
            str(self.moves),
            self.reason,
            self.solution,
        ]

    @classmethod
    def from_csv(cls, record: dict[str, str]) -> SurveyRow:
        """Read a row written by :meth:`as_csv`.

        :raises ValueError: when a number does not parse.
        """
        return cls(
            variant=record["variant"],
            options=record["options"],
            deal=int(record["deal"]),
            verdict=record["verdict"],
            positions=int(record["positions"]),
            seconds=float(record["seconds"]),
            moves=int(record["moves"]),
            reason=record.get("reason", ""),
            solution=record.get("solution", ""),
        )


def options_text(options: dict[str, str] | Sequence[tuple[str, str]]) -> str:
    """Options as ``key=value;key=value``, sorted by key."""
    items = options.items() if isinstance(options, dict) else options
    return ";".join(f"{k}={v}" for k, v in sorted(items))


class DealRanges(Sequence[int]):
    """Deal numbers as sorted, disjoint ranges: the numbers of ``--deals 1-1000000000``
    without a list of a billion integers (length, membership and indexing are computed).

    :param ranges: ``range`` objects with step 1; they may overlap or touch (merged).
    """

    def __init__(self, ranges: Iterable[range]) -> None:
        merged: list[range] = []
        for r in sorted((r for r in ranges if len(r)), key=lambda r: r.start):
            if merged and r.start <= merged[-1].stop:
                last = merged[-1]
                merged[-1] = range(last.start, max(last.stop, r.stop))
            else:
                merged.append(r)
        self.ranges: tuple[range, ...] = tuple(merged)
        self._starts = [r.start for r in merged]
        self._offsets = list(itertools.accumulate((len(r) for r in merged), initial=0))

    def __len__(self) -> int:
        return self._offsets[-1]

    def __iter__(self) -> Iterator[int]:
        return itertools.chain.from_iterable(self.ranges)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int):
            return False
        i = bisect.bisect_right(self._starts, value) - 1
        return i >= 0 and value in self.ranges[i]

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        i = bisect.bisect_right(self._offsets, index) - 1
        return self.ranges[i][index - self._offsets[i]]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DealRanges):
            return self.ranges == other.ranges
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"DealRanges({list(self.ranges)!r})"


def parse_deals(text: str) -> DealRanges:
    """Deal numbers from ``"A-B"``, ``"N"`` or a comma-separated list of those, in
    increasing order without repeats (kept as ranges: no list is built).

    :raises UsageError: for anything else, a range that runs backwards, or a number
        outside 1 .. :data:`~solitaire_core.deal.MAX_DEAL` (it is what the user typed
        after ``--deals``).
    """
    from ..deal import MAX_DEAL

    ranges: list[range] = []
    for part in text.split(","):
        part = part.strip()
        first, dash, last = (p.strip() for p in part.partition("-"))
        if not _DIGITS.fullmatch(first) or (dash and not _DIGITS.fullmatch(last)):
            raise UsageError(f"--deals expects ranges like 1-1000 or 7 or 1-10,20-30, got {text!r}")
        a = int(first)
        b = int(last) if dash else a
        if a < 1 or b < a:
            raise UsageError(f"--deals: {part!r} is not a range of deal numbers from 1 up")
        if b > MAX_DEAL:
            raise UsageError(f"--deals: {part!r}: deal numbers go up to {MAX_DEAL}")
        ranges.append(range(a, b + 1))
    return DealRanges(ranges)


_DIGITS = re.compile(r"[0-9]{1,20}")
MAX_CSV_BYTES = 2**31
"""Largest survey CSV file read back (about 20 million rows)."""


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% for the default ``z``).

    :return: ``(low, high)`` within [0, 1]; ``(0.0, 1.0)`` when ``trials`` is 0.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


# -- the work one deal is ---------------------------------------------------------------

_CANCEL: Any = None


def _worker_init(cancel: Any) -> None:
    """Process-pool initialiser: keep the event that says "stop", and leave Ctrl+C to
    the parent (which then sets the event)."""
    global _CANCEL
    _CANCEL = cancel
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@lru_cache(maxsize=8)
def _rules(variant: str, options: tuple[tuple[str, str], ...]) -> Rules:
    from ..plugins import get_variant

    return get_variant(variant).resolve(dict(options))


def solve_one(
    variant: str,
    options: tuple[tuple[str, str], ...],
    deal: int,
    timeout: float | None,
    max_states: int | None,
    engine: str = "auto",
    solutions: bool = True,
) -> SurveyRow:
    """Solve one deal from its start (the function workers run; importable by name, so
    process pools and Dask workers can call it).

    :param variant: the variant id.
    :param options: option choices as ``(key, value)`` pairs.
    :param deal: the deal number.
    :param timeout: seconds for this deal, or ``None``.
    :param max_states: the most positions this deal may cost, every search counted
        (``None``: the solver's default,
        :func:`~solitaire_core.solver.default_max_states`).
    :param engine: the solver engine (``"auto"``, ``"c"`` or ``"python"``).
    :param solutions: give the solution's moves in the row (``False``: the row's
        ``solution`` is empty and only its length is kept, for surveys of many deals).
    """
    from .search import solve_deal

    rules = _rules(variant, tuple(sorted(options)))
    cancel = _CANCEL.is_set if _CANCEL is not None else None
    result = solve_deal(
        rules,
        deal,
        timeout=timeout,
        max_states=max_states,
        cancel=cancel,
        engine=engine,
    )
    return SurveyRow(
        variant=variant,
        options=options_text(options),
        deal=deal,
        verdict=result.verdict.value,
        positions=result.positions,
        seconds=result.seconds,
        moves=len(result.moves),
        reason=result.reason,
        solution=" ".join(result.move_texts()) if solutions else "",
    )


# -- the CSV file -------------------------------------------------------------------------


def read_rows(path: Path, variant: str, options: str) -> dict[int, SurveyRow]:
    """The rows already in ``path`` (none if it does not exist), by deal.

    :raises SolitaireError: when the file is not a survey CSV, or holds rows of another
        variant or other options (resuming would then mix two surveys).
    """
    if not path.exists():
        return {}
    rows: dict[int, SurveyRow] = {}
    try:
        data = read_file_bytes(path, MAX_CSV_BYTES)  # a FIFO is refused, not waited on
    except OSError as exc:
        raise SolitaireError(f"{path}: cannot read: {exc}") from None
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SolitaireError(f"{path}: not a survey file (it is not UTF-8 text)") from None
    if "\0" in content:
        raise SolitaireError(f"{path}: not a survey file (it holds NUL bytes)")
    with io.StringIO(content, newline="") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames is None:
            return {}
        if tuple(reader.fieldnames) != FIELDS:
            raise SolitaireError(
                f"{path}: not a survey file (expected the columns {', '.join(FIELDS)})"
            )
        for record in reader:
            if None in record.values():  # a line cut short by an interruption
                continue
            try:
                row = SurveyRow.from_csv(record)
            except (ValueError, KeyError):
                continue
            if (row.variant, row.options) != (variant, options):
                raise SolitaireError(
                    f"{path}: holds a survey of {row.variant} "
                    f"({row.options or 'default options'}), not of {variant} "
                    f"({options or 'default options'}); use another --csv file"
                )
            rows[row.deal] = row
    return rows


def write_sorted(path: Path, rows: Iterable[SurveyRow]) -> None:
    """Rewrite ``path`` with ``rows`` sorted by deal (through a temporary file, so the
    old file stays whole if this fails)."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(FIELDS)
        for row in sorted(rows, key=lambda r: r.deal):
            writer.writerow(row.as_csv())
    os.replace(tmp, path)


# -- running --------------------------------------------------------------------------


@attrs.define
class Tally:
    """Counts of verdicts over a set of rows."""

    winnable: int = 0
    unwinnable: int = 0
    undecided: int = 0
    seconds: float = 0.0

    def add(self, row: SurveyRow) -> None:
        """Count one row."""
        if row.verdict == "winnable":
            self.winnable += 1
        elif row.verdict == "unwinnable":
            self.unwinnable += 1
        else:
            self.undecided += 1
        self.seconds += row.seconds

    @property
    def total(self) -> int:
        """Rows counted."""
        return self.winnable + self.unwinnable + self.undecided

    def summary(self) -> str:
        """The winnability rate over decided deals, with its 95% Wilson interval."""
        decided = self.winnable + self.unwinnable
        parts = [f"{self.total} deals: {self.winnable} winnable, {self.unwinnable} unwinnable"]
        if self.undecided:
            parts.append(f", {self.undecided} undecided")
        if decided:
            low, high = wilson_interval(self.winnable, decided)
            rate = self.winnable / decided
            parts.append(
                f"\nwinnable: {100 * rate:.1f}% of {decided} decided deals, "
                f"95% confidence interval (Wilson) {100 * low:.1f}% to {100 * high:.1f}%"
            )
        parts.append(f"\nsolver time: {self.seconds:.1f} s in all")
        return "".join(parts)


class Progress:
    """The survey's progress bar on a stream (stderr), drawn by tqdm: deals done, the
    verdicts so far, the rate and the time left; redrawn in place on a terminal, and at
    most every few seconds otherwise (a log file gets a few lines, not thousands).

    :param total: deals to survey (:func:`run_survey` sets it to the real count).
    :param stream: where to draw (default: stderr).
    :param enabled: ``False`` draws nothing (``--quiet``).
    """

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and total > 0
        self.bar: Any = None

    def update(self, done: int, tally: Tally) -> None:
        """Show ``done`` of the total, with the verdicts so far."""
        if not self.enabled:
            return
        if self.bar is None:
            tty = self.stream.isatty()
            self.bar = _bar_class()(
                total=self.total,
                file=self.stream,
                unit="deal",
                dynamic_ncols=tty,
                ncols=None if tty else 100,
                mininterval=0.2 if tty else 5.0,
                miniters=1,
                ascii=not tty,
            )
        self.bar.set_postfix_str(
            f"{tally.winnable} winnable, {tally.unwinnable} not, {tally.undecided} undecided",
            refresh=False,
        )
        self.bar.update(done - self.bar.n)
        if done >= self.total:
            self.bar.close()


@lru_cache(maxsize=1)
def _bar_class() -> Any:
    """tqdm's bar without its monitor thread, which only redraws a bar whose ``miniters``
    grew above 1 after a long pause: :class:`Progress` keeps ``miniters=1`` (tqdm's advice
    for irregular updates, and a deal takes a millisecond or a minute), so the thread would
    never act. Without it the process keeps to one thread, and the survey's workers may be
    forked (:func:`process_context`)."""
    from tqdm import tqdm

    class Bar(tqdm):
        monitor_interval = 0

    return Bar


class SurveyInterrupted(SolitaireError):
    """Ctrl+C during a survey; the rows written so far are kept.

    :param kept: rows in the file.
    :param path: the CSV file.
    """

    def __init__(self, kept: int, path: Path | None) -> None:
        self.kept = kept
        self.path = path
        where = f" in {path}; run the same command again to resume" if path else ""
        super().__init__(f"interrupted: {kept} finished deals kept{where}")


def run_survey(
    variant: str,
    options: dict[str, str],
    deals: Sequence[int],
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    max_states: int | None = None,
    csv_path: Path | None = None,
    executor: str = "process",
    scheduler: str | None = None,
    progress: Progress | None = None,
    on_row: Callable[[SurveyRow], None] | None = None,
    engine: str = "auto",
    solutions: bool = True,
    retry_undecided: bool = False,
) -> list[SurveyRow]:
    """Solve ``deals`` of a variant in parallel.

    :param variant: variant id; ``options`` its option choices.
    :param deals: deal numbers; those already in ``csv_path`` are skipped (but see
        ``retry_undecided``).
    :param jobs: worker processes (default: the number of CPUs); ignored with Dask.
    :param timeout: seconds per deal (``None``: no limit).
    :param max_states: state budget per deal (default: the solver's).
    :param csv_path: where rows are appended as deals finish; at the end the file is
        rewritten sorted by deal.
    :param executor: ``"process"`` or ``"dask"`` (then ``scheduler`` is the address of a
        Dask distributed scheduler, e.g. ``tcp://10.0.0.5:8786``).
    :param progress: a :class:`Progress` to update, or ``None``.
    :param on_row: called with each new row as it arrives.
    :param engine: the solver engine (``"auto"``, ``"c"`` or ``"python"``).
    :param solutions: write each solution's moves (``False`` keeps a large survey's CSV
        small: about 45 bytes a row instead of 250).
    :param retry_undecided: solve again the deals of ``deals`` that ``csv_path`` holds
        as undecided (with this call's budgets, typically a larger ``max_states``); the
        new row replaces the old one in the file.
    :return: every row of the surveyed deals (from the file and new), sorted by deal.
    :raises SolitaireError: for a bad CSV file, a CSV another survey is writing (it holds
        ``<csv_path>.lock`` for its whole run), a missing Dask, an unreachable scheduler.
    :raises SurveyInterrupted: on Ctrl+C, after stopping the workers; rows are kept.
    """
    if csv_path is None:
        lock: contextlib.AbstractContextManager[bool] = contextlib.nullcontext(True)
    else:
        from ..persistence.locks import locked  # filelock: only a survey with a CSV

        # A path that is no file is refused before a lock file is made beside it (a
        # folder "." would leave "..lock" behind).
        if os.path.lexists(csv_path) and not os.path.isfile(csv_path):
            kind = "a folder" if os.path.isdir(csv_path) else "not a regular file"
            raise SolitaireError(f"{csv_path}: cannot write rows there: it is {kind}")
        lock = locked(csv_path, timeout=0, busy=_another_survey)
    with lock:
        opts = tuple(sorted(options.items()))
        text = options_text(options)
        wanted = deals if isinstance(deals, DealRanges) else set(deals)
        known = read_rows(csv_path, variant, text) if csv_path else {}
        retry = {
            d
            for d, r in known.items()
            if retry_undecided and r.verdict == "undecided" and d in wanted
        }
        for d in retry:
            del known[d]
        rows = dict(known)
        todo = (d for d in deals if d not in known)  # lazy: deals may be a billion numbers
        has_todo = bool(retry) or any(
            d not in known for d in itertools.islice(deals, len(known) + 1)
        )
        tally = Tally()
        for d, row in sorted(known.items()):
            if d in wanted:
                tally.add(row)
        if progress is not None:
            progress.total = len(deals)
            progress.enabled = progress.enabled and len(deals) > 0
            progress.update(tally.total, tally)
        budget = max_states  # None: each worker uses the solver's default
        args = (variant, opts)

        writer_file = None
        writer = None
        if csv_path is not None and has_todo:
            new_file = not csv_path.exists() or csv_path.stat().st_size == 0
            cut_short = not new_file and not _ends_with_newline(csv_path)
            try:
                writer_file = csv_path.open("a", newline="", encoding="utf-8")
            except OSError as exc:
                raise SolitaireError(f"{csv_path}: cannot write: {exc}") from None
            if cut_short:  # the last line of an interrupted run: start a fresh one
                writer_file.write("\r\n")
                writer_file.flush()
            writer = csv.writer(writer_file)
            if new_file:
                writer.writerow(FIELDS)
                writer_file.flush()

        def record(row: SurveyRow) -> None:
            if row.reason == "cancelled":
                return  # stopped by Ctrl+C: not a result, solve it again on resume
            rows[row.deal] = row
            tally.add(row)
            if writer is not None and writer_file is not None:
                writer.writerow(row.as_csv())
                writer_file.flush()
            if on_row is not None:
                on_row(row)
            if progress is not None:
                progress.update(tally.total, tally)

        try:
            if has_todo:
                if executor == "dask":
                    _run_dask(args, todo, timeout, (budget, engine, solutions), scheduler, record)
                elif executor == "process":
                    _run_processes(
                        args,
                        todo,
                        timeout,
                        (budget, engine, solutions),
                        jobs,
                        record,
                        len(deals) - sum(1 for d in known if d in wanted),
                    )
                else:
                    raise SolitaireError(f"unknown executor {executor!r} (choose process or dask)")
        except KeyboardInterrupt:
            raise SurveyInterrupted(len(rows), csv_path) from None
        finally:
            if writer_file is not None:
                writer_file.close()
        if csv_path is not None and has_todo:
            write_sorted(csv_path, rows.values())
        return sorted((r for d, r in rows.items() if d in wanted), key=lambda r: r.deal)


def _another_survey(csv_path: Path) -> SolitaireError:
    """The error for a CSV another survey holds: two surveys on one CSV would each rewrite
    it at the end from their own rows, and the second would drop the first one's new rows.
    A folder where the lock file cannot be made (read-only) gets no lock: the survey then
    fails on writing the CSV, with its own message."""
    return SolitaireError(
        f"{csv_path}: another survey is writing this file (it holds {csv_path}.lock);"
        " wait for it to finish or use another --csv file"
    )


def solve_chunk(
    variant: str,
    options: tuple[tuple[str, str], ...],
    deals: tuple[int, ...],
    timeout: float | None,
    max_states: int | None,
    engine: str = "auto",
    solutions: bool = True,
) -> list[SurveyRow]:
    """:func:`solve_one` for each of ``deals`` in turn, as one task of the process pool
    (a round trip between processes for several deals rather than each); the rows in
    order. A deal stopped by Ctrl+C (its row's reason ``"cancelled"``) ends the chunk."""
    rows = []
    for deal in deals:
        rows.append(solve_one(variant, options, deal, timeout, max_states, engine, solutions))
        if rows[-1].reason == "cancelled":
            break
    return rows


CHUNK = 16
"""The most deals one task of the process pool solves (:func:`solve_chunk`); fewer where
the survey is short, so that every worker gets several tasks."""


def _run_processes(
    args: tuple[str, tuple[tuple[str, str], ...]],
    todo: Iterator[int],
    timeout: float | None,
    budget: tuple[int | None, str, bool],
    jobs: int | None,
    record: Callable[[SurveyRow], None],
    total: int,
) -> None:
    """Solve ``todo`` (about ``total`` deals) in a pool of ``jobs`` worker processes,
    handing each row to ``record`` as its chunk of deals comes back."""
    workers = max(1, jobs or os.cpu_count() or 1)
    size = max(1, min(CHUNK, total // (workers * 16)))
    context = process_context()
    if context.get_start_method() == "fork":
        # What every worker needs, loaded once here: each worker, a fork, starts with it
        # (the solver, the registry, these rules) and loads nothing per deal.
        for name in PRELOAD:
            importlib.import_module(name)
        _rules(*args)
        context = process_context()  # a plugin loaded just now may have started a thread
    cancel = context.Event()
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_worker_init, initargs=(cancel,)
    )
    pending: set[Future[list[SurveyRow]]] = set()
    queue = iter(todo)
    max_states, engine, solutions = budget

    def submit(count: int) -> None:
        for _ in range(count):
            chunk = tuple(_take(queue, size))
            if not chunk:
                return
            pending.add(
                pool.submit(solve_chunk, *args, chunk, timeout, max_states, engine, solutions)
            )

    try:
        submit(workers * 4)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for row in future.result():
                    record(row)
            submit(len(done))
    except KeyboardInterrupt:
        cancel.set()
        for future in pending:
            future.cancel()
        for future in pending:  # running ones stop within a few hundred positions
            if not future.cancelled():
                try:
                    for row in future.result():
                        record(row)
                except Exception:  # noqa: BLE001 - a dying worker must not hide the interrupt
                    pass
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


PRELOAD = (__name__, f"{__package__}.search")
"""What a fork server imports before it forks a worker: this module and the solver."""


def process_context() -> multiprocessing.context.BaseContext:
    """How survey workers start: a ``fork`` of this process where that is safe, else from
    a ``forkserver`` where the platform has one (Linux, macOS), else ``spawn``.

    A fork is safe on Linux in a process that runs one thread: each worker then starts
    with everything this process loaded (the solver, the variants: ``solitaire survey``
    validated its variant, so the registry is built) and loads nothing itself. Forking a
    process that runs other threads (the game's solver thread, Tk, a thread a plugin
    started) can deadlock a child on a lock another thread held; Python 3.12 and newer
    warn about it (DeprecationWarning), and 3.14 stops forking by default. Other threads
    therefore mean a fork server: it starts once per process and imports this module and
    the solver (:data:`PRELOAD`), so a worker, a fork of it, starts warm but loads the
    variants itself. macOS does not fork (its system libraries are not fork-safe).
    """
    if sys.platform.startswith("linux") and _threads() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(PRELOAD))
        return context
    return multiprocessing.get_context("spawn")


def _threads() -> int:
    """The threads this process runs, as Linux counts them (those of C libraries too);
    0 when it cannot tell."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


def _run_dask(
    args: tuple[str, tuple[tuple[str, str], ...]],
    todo: Iterator[int],
    timeout: float | None,
    budget: tuple[int | None, str, bool],
    scheduler: str | None,
    record: Callable[[SurveyRow], None],
) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise SolitaireError(
            "the dask executor needs Dask: pip install 'towers-solitaire[cluster]'"
        ) from None
    if not scheduler:
        raise SolitaireError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    try:
        client = Client(scheduler, timeout=30)
    except (OSError, TimeoutError) as exc:
        raise SolitaireError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    futures = []
    try:
        futures = [
            client.submit(solve_one, *args, deal, timeout, *budget, pure=False) for deal in todo
        ]
        for future in as_completed(futures):
            record(future.result())
    except KeyboardInterrupt:
        client.cancel(futures)
        raise
    finally:
        client.close()


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) in (b"\n", b"\r")


def _take(it: Iterator[int], n: int) -> list[int]:
    out = []
    for _ in range(n):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out
