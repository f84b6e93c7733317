"""``solitaire variant show|new|package``: the variant workshop on the command line.

* ``solitaire variant show ID`` prints a variant's TOML (built-ins included), comments and
  all, so a player can copy it and change it;
* ``solitaire variant new NEW-ID --from ID`` writes that copy, with its new id and name,
  into the user variants folder, where it is loaded at the next start;
* ``solitaire variant package FILE.toml --name NAME`` writes a ready plugin project
  (:mod:`solitaire_core.packaging`).

Registered by :data:`solitaire_core.cli.EXTENSIONS`; only argparse is imported here. The
help, and what the commands tell the player, are in the player's language; the TOML
printed stays as it is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .cli import VARIANT_HELP, add_variant_arg
from .i18n import gettext as _


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``variant`` and its sub-commands to the ``solitaire`` command."""
    parser = subparsers.add_parser(
        "variant",
        help=_("print, copy or package a variant file"),
        description=_(
            "Write your own game: print a variant's file, copy it into your "
            "variants folder under a new id, or package a file as a plugin project."
        ),
    )
    sub = parser.add_subparsers(dest="variant_command", metavar=_("ACTION"), required=True)

    p = sub.add_parser(
        "show",
        help=_("print a variant's TOML file"),
        description=_(
            "Print a variant's TOML file, comments included (built-in variants too), "
            "to copy and change."
        ),
    )
    add_variant_arg(p)
    p.set_defaults(func=_cmd_show)

    p = sub.add_parser(
        "new",
        help=_("copy a variant into your variants folder under a new id"),
        description=_(
            "Write a copy of a variant, with a new id and name, as NEW-ID.toml in "
            "your variants folder (printed). It is listed as yours from the next start; edit "
            "it with any text editor and check it with 'solitaire check FILE'."
        ),
    )
    p.add_argument("new_id", metavar=_("NEW-ID"), help=_("the copy's id, e.g. my-seahaven"))
    p.add_argument("--from", dest="source", required=True, metavar="ID", help=_(VARIANT_HELP))
    p.add_argument("--name", metavar=_("TEXT"), help=_("display name (default: made from NEW-ID)"))
    p.set_defaults(func=_cmd_new)

    p = sub.add_parser(
        "package",
        help=_("write a plugin project (pyproject, the TOML, a conformance test, a README)"),
        description=_(
            "Write a ready plugin project for a variant file: pyproject.toml with "
            "the entry point, the TOML file as package data, a test running the conformance "
            "kit, and a README. 'pip install ./NAME' installs it; 'pytest' in it runs the kit."
        ),
    )
    p.add_argument("file", type=Path, metavar=_("file"), help=_("the variant's .toml file"))
    p.add_argument(
        "--name",
        required=True,
        metavar=_("NAME"),
        help=_(
            "the project (distribution) name, e.g. solitaire-my-seahaven; also the plugin's name"
        ),
    )
    p.add_argument(
        "--output", type=Path, metavar=_("DIR"), help=_("the project folder (default: ./NAME)")
    )
    p.set_defaults(func=_cmd_package)


def _cmd_show(args: argparse.Namespace) -> int:
    from .cli import printable
    from .plugins import get_variant
    from .uservariants import variant_text

    text = printable(variant_text(get_variant(args.variant)), keep="\n\t")
    print(text, end="" if text.endswith("\n") else "\n")
    return 0


def _cmd_new(args: argparse.Namespace) -> int:
    import re

    from .cli import UsageError, printable
    from .plugins import get_registry
    from .uservariants import new_user_variant

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", args.new_id):
        raise UsageError(
            _(
                "NEW-ID {new_id}: expected lowercase letters, digits and '-' (e.g. my-seahaven)"
            ).format(new_id=repr(args.new_id))
        )
    path = new_user_variant(get_registry(), args.new_id, args.source, name=args.name)
    print(printable(_("wrote {path}").format(path=path)))
    print(_("try it: solitaire show {id}   (or: solitaire play {id})").format(id=args.new_id))
    return 0


def _cmd_package(args: argparse.Namespace) -> int:
    from .packaging import package_variant
    from .plugins import get_registry

    folder = package_variant(get_registry(), args.file, args.name, args.output)
    print(_("wrote {path}").format(path=folder))
    print(
        _(
            "install it with its test extra: pip install '{folder}[test]'"
            "   then run its tests: cd {folder} && pytest"
        ).format(folder=folder)
    )
    return 0
