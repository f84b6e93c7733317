"""The ``solitaire play`` sub-command (bare ``solitaire`` means ``solitaire play``).

Nothing heavy is imported here: tkinter is loaded only when the command runs
(tests/test_no_tkinter.py builds the whole parser and checks).
"""

from __future__ import annotations

import argparse

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``play [VARIANT] [--deal N] [--option KEY=VALUE]`` to the ``solitaire``
    command."""
    from solitaire_core.cli import add_variant_args

    parser = subparsers.add_parser(
        "play",
        help="open the game window (the launcher, or VARIANT's table at once)",
        description="Open the game window. Without VARIANT the launcher opens (and offers "
        "to resume the game in progress); with VARIANT its table opens at once, on deal N "
        "or a random deal.",
    )
    parser.add_argument(
        "variant", nargs="?", help="variant id (see 'solitaire list') or a .toml variant file"
    )
    add_variant_args(parser)
    parser.set_defaults(func=_cmd_play)


def _cmd_play(args: argparse.Namespace) -> int:
    from solitaire_core.cli import UsageError, parse_options
    from solitaire_core.plugins import get_variant

    options = parse_options(args.option)
    if args.variant is None:
        if args.deal is not None or options:
            raise UsageError(
                "--deal and --option need a VARIANT, e.g. solitaire play seahaven --deal 1"
            )
    variant = None
    if args.variant is not None:
        definition = get_variant(args.variant)  # a file is loaded into the registry
        definition.resolve(options)  # unknown variant or option: exit 2
        variant = definition.id

    from .app import run

    return run(variant, args.deal, options or None)
