"""The ``solitaire play`` sub-command (bare ``solitaire`` means ``solitaire play``).

Nothing heavy is imported here: tkinter is loaded only when the command runs
(tests/test_no_tkinter.py builds the whole parser and checks).
"""

from __future__ import annotations

import argparse
import sys

from solitaire_core.i18n import gettext as _

__all__ = ["no_tk_message", "register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``play [VARIANT] [--deal N] [--option KEY=VALUE]`` to the ``solitaire``
    command."""
    from solitaire_core.cli import add_variant_arg, add_variant_args

    parser = subparsers.add_parser(
        "play",
        help=_("open the game window (the launcher, or VARIANT's table at once)"),
        description=_(
            "Open the game window. Without VARIANT the launcher opens (and offers "
            "to resume the game in progress); with VARIANT its table opens at once, on deal N "
            "or a random deal."
        ),
    )
    add_variant_arg(parser, nargs="?")
    add_variant_args(parser)
    parser.set_defaults(func=_cmd_play)


def no_tk_message() -> str:
    """What to tell a player whose Python has no tkinter, in the player's language: the
    system package to install (tkinter is not on PyPI; each system packages it apart from
    Python)."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    return _(
        "the game window needs Tk, and this Python has no tkinter. Install it with the "
        "system's package manager: Debian/Ubuntu: sudo apt install python3-tk; "
        "Fedora: sudo dnf install python3-tkinter; Arch: sudo pacman -S tk; "
        "macOS with Homebrew: brew install python-tk@{version}. "
        "The other commands (list, show, solve, ...) work without it."
    ).format(version=version)


def _cmd_play(args: argparse.Namespace) -> int:
    from solitaire_core.cli import UsageError, parse_options, resolve_variant
    from solitaire_core.errors import SolitaireError

    options = parse_options(args.option)
    if args.variant is None:
        if args.deal is not None or options:
            raise UsageError(
                _("--deal and --option need a VARIANT, e.g. solitaire play seahaven --deal 1")
            )
    variant = None
    if args.variant is not None:  # unknown variant or option: exit 2; a file is loaded
        variant = resolve_variant(args.variant, args.option).id

    try:
        from .app import run
    except ModuleNotFoundError as exc:
        if exc.name not in ("tkinter", "_tkinter"):
            raise
        raise SolitaireError(no_tk_message()) from None

    status = run(variant, args.deal, options or None)
    _exit_now(status)
    return status  # not reached


def _exit_now(status: int) -> None:
    """End the process at once once the window is closed. Everything is written and
    closed by then (the game, the settings, the statistics); what is left, the
    interpreter tearing down Tcl/Tk, the fonts and some 300 modules, took 0.4-1.5 s
    (measured: benchmarks/bench_ui.py --quit), during which the closed window stayed on
    the screen."""
    import os
    import sys

    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
