"""``solitaire conformance VARIANT``: run the rule-conformance kit from the command line.

Registered by :data:`solitaire_core.cli.EXTENSIONS`; imports nothing heavy until the
command runs (Hypothesis is needed then: it is in the ``test`` extra). The help is in the
player's language; the report printed (check names, ``ok``/``FAIL``, the tally) stays
English.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from typing import Any

from ..cli import add_option_arg, add_variant_arg, positive_int, printable
from ..errors import SolitaireError
from ..i18n import gettext as _


def register(subparsers: Any) -> None:
    """Add the ``conformance`` sub-command to the ``solitaire`` parser."""
    p = subparsers.add_parser(
        "conformance",
        help=_("check that an installed variant obeys the framework's rules contract"),
        description=_(
            "Run the rule-conformance kit (deals, legality, move limits, empty "
            "columns, autoplay, undo/redo, winning, notation, options, scenarios) on an "
            "installed variant. Without --option every combination of its options is checked. "
            "Exit status 0 when every check passes, 1 when one fails, 2 on a usage error."
        ),
    )
    add_variant_arg(p)
    add_option_arg(p)
    p.add_argument(
        "--examples",
        type=positive_int,
        default=100,
        metavar="N",
        help=_("Hypothesis examples per check and random games played (default 100)"),
    )
    p.add_argument(
        "--steps",
        type=positive_int,
        default=50,
        metavar="N",
        help=_("moves per random game (default 50)"),
    )
    p.add_argument(
        "--scenarios",
        action="append",
        default=[],
        metavar=_("FILE"),
        help=_("an extra scenario file to run (docs/scenarios.md; repeatable)"),
    )
    p.add_argument(
        "--shrink",
        action="store_true",
        help=_("shrink a failing random game to a short one (can take minutes)"),
    )
    p.add_argument(
        "--check",
        action="append",
        metavar=_("NAME"),
        help=_("run only this check (repeatable); names are listed in the output"),
    )
    p.set_defaults(func=_cmd_conformance)


def _cmd_conformance(args: argparse.Namespace) -> int:
    from ..cli import UsageError, parse_options, resolve_variant
    from ..plugins import get_variant

    resolve_variant(args.variant, args.option)  # unknown variant, option or value: exit 2
    definition = get_variant(args.variant)
    options = parse_options(args.option)
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise SolitaireError(
            _(
                "the conformance kit needs Hypothesis, which the 'conformance' extra "
                "installs: {command}"
            ).format(command="pip install 'towers-solitaire[conformance]'")
        ) from None
    from pathlib import Path

    from .checks import CHECKS, KitContext, KitSettings
    from .configs import variant_configurations
    from .scenarios import builtin_scenario_files, load_scenario_file

    configurations = variant_configurations(definition, options if args.option else None)
    chosen = CHECKS
    if args.check:
        known = {c.name for c in CHECKS}
        unknown = [n for n in args.check if n not in known]
        if unknown:
            raise UsageError(
                _("unknown check {name} (checks: {checks})").format(
                    name=repr(unknown[0]), checks=", ".join(sorted(known))
                )
            )
        chosen = [c for c in CHECKS if c.name in args.check]
    extra = [Path(p) for p in args.scenarios]
    for path in extra:
        load_scenario_file(path)  # a missing or malformed file: a failure (exit 1)
    settings = KitSettings(
        max_examples=args.examples, steps=args.steps, database=False, shrink_games=args.shrink
    )
    files = (*builtin_scenario_files(), *extra)
    failed = 0
    ran = 0
    width = max(len(c.name) for c in chosen)
    for configuration in configurations:
        context = KitContext(configuration.rules, definition, settings, files)
        print(printable(f"{configuration.id} ({definition.name}, plugin {definition.plugin}):"))
        for check in chosen:
            started = time.perf_counter()
            problem = _run_check(check.function, context)
            took = time.perf_counter() - started
            ran += 1
            status = "ok" if problem is None else "FAIL"
            print(f"  {status:<4}  {check.name:<{width}}  {took:6.1f} s  {check.summary}")
            if problem is not None:
                failed += 1
                print(_indent(problem, "        "))
            sys.stdout.flush()
    print(f"{ran - failed} of {ran} checks passed" + (f", {failed} failed" if failed else ""))
    return 1 if failed else 0


def _run_check(function: Any, context: Any) -> str | None:
    """Run one check; ``None`` when it passes, else the failure as text."""
    try:
        function(context)
    except AssertionError as exc:
        notes = getattr(exc, "__notes__", [])
        return "\n".join([str(exc) or "assertion failed", *notes])
    except Exception as exc:  # a crash in the engine or the variant is a failure too
        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return None


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.rstrip().splitlines())
