"""The solver's sub-commands: ``solitaire solve`` and ``solitaire survey``.

``solve`` decides one deal and prints the verdict, the solution in move notation, the
positions searched and the time. ``survey`` solves a range of deals in parallel, writes one
CSV row per deal as it finishes (so an interrupted survey resumes where it stopped) and ends
with the winnability rate and its 95% Wilson interval.

Only argparse is imported here; the solver loads when a command runs. The help is in the
player's language; what the commands print (a verdict, a tally, move notation) stays
English, for the scripts that read it.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable
from pathlib import Path

from .cli import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_UNWINNABLE,
    add_option_arg,
    add_variant_arg,
    add_variant_args,
    parse_options,
    positive_int,
    printable,
    resolve_variant,
)
from .errors import UsageError
from .i18n import N_
from .i18n import gettext as _


def _positive(unit: str, not_a_number: str, not_positive: str) -> Callable[[str], float]:
    """An argparse type: a positive number of ``unit`` (seconds, megabytes).

    :param not_a_number: the error for a text that is no number, English (marked with
        ``N_``), with the field ``{text}``; translated when shown.
    :param not_positive: the error for a number <= 0, likewise.
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_(not_a_number).format(text=repr(text))) from None
        if not value > 0:
            raise argparse.ArgumentTypeError(_(not_positive).format(text=text))
        return value

    parse.__name__ = unit  # argparse names the type in its messages
    return parse


_seconds = _positive(
    "seconds",
    N_("expected a number of seconds, got {text}"),
    N_("expected a positive number of seconds, got {text}"),
)
_megabytes = _positive(
    "megabytes",
    N_("expected a number of megabytes, got {text}"),
    N_("expected a positive number of megabytes, got {text}"),
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``solve`` and ``survey`` to the ``solitaire`` command."""
    p = subparsers.add_parser(
        "solve",
        help=_("decide whether a deal is winnable and print a solution"),
        description=_(
            "Search a deal: prints the verdict (winnable, unwinnable, or undecided "
            "when a budget ran out), the solution in move notation, the positions searched and "
            "the time. Exit status: 0 winnable, 3 unwinnable, 4 undecided: a budget ran out, or "
            "the system refused the solver more memory (1 failure, 2 usage error)."
        ),
    )
    add_variant_arg(p)
    add_variant_args(p, deal_required=True)
    p.add_argument("--timeout", type=_seconds, metavar="S", help=_("give up after S seconds"))
    p.add_argument(
        "--max-states",
        type=positive_int,
        metavar="N",
        help=_(
            "give up after storing N positions, every search counted (default 10000000; "
            "1000000 for a game searched in one search, such as one with a stock)"
        ),
    )
    p.add_argument(
        "--max-memory",
        type=_megabytes,
        metavar="MB",
        help=_("give up rather than hold more than MB megabytes of positions"),
    )
    _add_engine(p)
    p.set_defaults(func=_cmd_solve)

    p = subparsers.add_parser(
        "survey",
        help=_("solve a range of deals in parallel and report the winnability rate"),
        description=_(
            "Solve many deals in worker processes (or on a Dask cluster), one CSV "
            "row per deal. Interrupting keeps the rows written; running the same command again "
            "resumes."
        ),
    )
    add_variant_arg(p)
    p.add_argument("--deals", required=True, metavar="A-B", help=_("deal numbers, e.g. 1-1000"))
    add_option_arg(p)
    p.add_argument(
        "--jobs", type=positive_int, metavar="N", help=_("worker processes (default: CPUs)")
    )
    p.add_argument("--timeout", type=_seconds, metavar="S", help=_("seconds per deal"))
    p.add_argument("--max-states", type=positive_int, metavar="N", help=_("positions per deal"))
    p.add_argument("--csv", type=Path, metavar=_("FILE"), help=_("write (and resume) rows here"))
    p.add_argument(
        "--executor",
        choices=["process", "dask"],
        default="process",
        help=_(
            "process: worker processes on this machine; dask: a Dask distributed "
            "cluster (pip install 'towers-solitaire[cluster]')"
        ),
    )
    p.add_argument(
        "--scheduler", metavar=_("ADDRESS"), help=_("Dask scheduler, e.g. tcp://host:8786")
    )
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    p.add_argument(
        "--no-solutions",
        dest="solutions",
        action="store_false",
        help=_("leave the solution column empty (a row then takes about 45 bytes, not 250)"),
    )
    p.add_argument(
        "--retry-undecided",
        action="store_true",
        help=_(
            "solve again the deals --csv holds as undecided (e.g. with a larger "
            "--max-states); their new rows replace the old"
        ),
    )
    _add_engine(p)
    p.set_defaults(func=_cmd_survey)


def _add_engine(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--engine",
        choices=["auto", "c", "python"],
        default="auto",
        help=_(
            "c: the compiled solver; python: the pure-Python one; auto (default): C when "
            "it is built and knows the variant's rules, else Python"
        ),
    )


def _cmd_solve(args: argparse.Namespace) -> int:
    from .solver import Verdict, solve_deal

    rules = resolve_variant(args.variant, args.option)
    opts = "".join(f", {k}={v}" for k, v in rules.options)
    title = printable(f"{rules.name} #{args.deal}{opts}")
    try:
        result = solve_deal(
            rules,
            args.deal,
            timeout=args.timeout,
            max_states=args.max_states,
            max_memory=args.max_memory,
            engine=args.engine,
        )
    except MemoryError:
        result = None
    except SystemError as exc:
        if not _out_of_memory(exc):
            raise
        result = None
    if result is None:
        # Reported here, after the except clause: the search's positions, which the
        # traceback kept alive, are freed by now, so printing needs no memory it lacks.
        print(
            f"{title}: undecided, the system refused the solver more memory (try a "
            "smaller --max-states or --max-memory)"
        )
        return EXIT_UNDECIDED
    plural = "" if result.positions == 1 else "s"
    searched = f"{result.positions} position{plural} searched in {result.seconds:.2f} s"
    if result.engine == "c":
        engine = f"engine: C ({result.peak_bytes / 1e6:.1f} MB at most)"
    else:
        engine = f"engine: Python{f' ({result.note})' if result.note else ''}"
    if result.verdict is Verdict.WINNABLE:
        print(f"{title}: winnable ({searched})")
    elif result.verdict is Verdict.UNWINNABLE:
        why = result.reason or "every reachable position searched"
        print(f"{title}: unwinnable ({why}: {searched})")
    else:
        print(f"{title}: undecided, the {result.reason} ran out ({searched})")
    print(engine)
    if result.verdict is Verdict.WINNABLE:
        print(f"solution, {len(result.moves)} moves:")
        print(
            textwrap.fill(
                " ".join(result.move_texts()), 78, initial_indent="  ", subsequent_indent="  "
            )
        )
    if result.verdict is Verdict.WINNABLE:
        return EXIT_OK
    if result.verdict is Verdict.UNWINNABLE:
        return EXIT_UNWINNABLE
    return EXIT_UNDECIDED


def _out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` is a ``MemoryError`` or was raised because of one (CPython reports
    a built-in that failed for want of memory as a ``SystemError`` caused by it)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, MemoryError):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _cmd_survey(args: argparse.Namespace) -> int:
    from .solver.survey import Progress, SurveyInterrupted, Tally, parse_deals, run_survey

    options = parse_options(args.option)
    resolve_variant(args.variant, args.option)  # report a bad variant or option here
    deals = parse_deals(args.deals)
    if args.executor == "dask" and not args.scheduler:
        raise UsageError(_("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)"))
    progress = Progress(len(deals), enabled=not args.quiet)
    try:
        rows = run_survey(
            args.variant,
            options,
            deals,
            jobs=args.jobs,
            timeout=args.timeout,
            max_states=args.max_states,
            csv_path=args.csv,
            executor=args.executor,
            scheduler=args.scheduler,
            progress=progress,
            engine=args.engine,
            solutions=args.solutions,
            retry_undecided=args.retry_undecided,
        )
    except SurveyInterrupted as exc:
        print(printable(f"solitaire: {exc}"), file=__import__("sys").stderr)
        return EXIT_INTERRUPTED
    tally = Tally()
    for row in rows:
        tally.add(row)
    print(tally.summary())
    if args.csv:
        print(f"rows: {args.csv}")
    return 0
