"""The ``solitaire stats`` sub-command: show or reset the recorded statistics.

``solitaire stats`` prints every variant and option set; ``solitaire stats VARIANT``
only that variant (``--option key=value`` narrows it to one option set);
``solitaire stats VARIANT --reset`` or ``solitaire stats --all --reset`` deletes the
recorded games without asking, so ``--reset`` insists on naming what to delete. The help
is in the player's language; the table printed stays English.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import SolitaireError
from ..i18n import gettext as _


class StatsCommandError(SolitaireError):
    """A statistics file that ``solitaire stats`` cannot use (exit status 1)."""


def register(subparsers: Any) -> None:
    """Add the ``stats`` sub-command to the ``solitaire`` parser.

    :param subparsers: the object ``ArgumentParser.add_subparsers()`` returned.
    """
    parser = subparsers.add_parser(
        "stats",
        help=_("show (or reset) the statistics of finished games"),
        description=_(
            "Show the statistics of finished games per variant and option set. "
            "Games won in the Cheat difficulty are counted apart, as cheat wins."
        ),
    )
    parser.add_argument(
        "variant",
        nargs="?",
        metavar=_("variant"),
        help=_("only this variant (its id, e.g. seahaven, or its .toml file)"),
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar=_("KEY=VALUE"),
        help=_("with VARIANT: only this option set, e.g. empty_columns=any (repeatable)"),
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help=_("every variant (needed with --reset without VARIANT)"),
    )
    parser.add_argument(
        "--reset",
        action="store_true",
        help=_(
            "delete the recorded games of VARIANT (or of every variant with --all); "
            "there is no question and no undo"
        ),
    )
    parser.set_defaults(func=_cmd_stats)


def _cmd_stats(args: argparse.Namespace) -> int:
    from ..cli import UsageError, parse_options, printable
    from . import PersistenceError, StatsStore, format_table

    if args.variant and args.all:
        raise UsageError(_("give either a VARIANT or --all, not both"))
    if args.reset and not (args.variant or args.all):
        raise UsageError(
            _(
                "--reset deletes recorded games without asking: name a VARIANT, or give "
                "--all to reset every variant"
            )
        )
    options = parse_options(args.option) if args.option else None
    if options is not None and not args.variant:
        raise UsageError(_("--option needs a VARIANT"))
    if args.variant:
        from ..plugins import get_registry
        from ..uservariants import is_variant_path, load_variant_path

        if is_variant_path(args.variant):  # a file's games are recorded under its id
            args.variant = load_variant_path(get_registry(), args.variant).id
    store = StatsStore()
    try:
        for warning in store.warnings:
            print(printable(f"solitaire: warning: {warning}"), file=sys.stderr)
        if args.reset:
            count = store.reset(args.variant, options)
            what = "every variant" if args.variant is None else args.variant
            if options:
                what += " (" + ", ".join(f"{k}={v}" for k, v in sorted(options.items())) + ")"
            games = f"{count} recorded game{'s' if count != 1 else ''}"
            print(printable(f"Deleted {games} of {what}."))
            return 0
        print(printable(format_table(store.summary(args.variant, options)), keep="\n"))
        return 0
    except PersistenceError as error:
        raise StatsCommandError(str(error)) from error
    finally:
        store.close()
