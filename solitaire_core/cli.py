# PYTHON_ARGCOMPLETE_OK  (argcomplete's marker: this command completes in the shell)
"""The ``solitaire`` command.

Bare ``solitaire`` opens the launcher (same as ``solitaire play``). Every sub-command has
``--help``; errors go to stderr. Text that comes from a user's file (a variant's name, a
file name, a message quoting them) is printed through :func:`printable`, with control
characters escaped. The exit status tells the outcome apart:

==  ===========================================================================
0   done (``solve``: the deal is winnable)
1   failure: the command was well formed but could not do its work (a file that
    cannot be read or is invalid, a plugin or store that fails, a failed check)
2   usage error: bad arguments, an unknown variant, option or value
3   ``solve``: the deal is unwinnable
4   ``solve``: undecided, the time, position or memory budget ran out, or the
    system refused the solver more memory (a ``MemoryError``: ``ulimit -v``)
130 interrupted (Ctrl+C)
==  ===========================================================================

Shell completion comes from argcomplete: ``eval "$(register-python-argcomplete
solitaire)"`` in ``~/.bashrc`` (README.md has the other shells).

The help and argparse's own words (``usage:``, ``options``, its error messages) speak the
player's language: the ``language`` of the settings file when it is not ``"system"``, else
the environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), chosen once at the
start of :func:`main` (not for ``--version``, which says nothing to translate). What
programs read stays English: option names and values, ``list``, ``show``, ``export`` and
``solve`` output.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from . import i18n
from .errors import SolitaireError, UnknownVariantError, UsageError
from .i18n import N_
from .i18n import gettext as _

if TYPE_CHECKING:
    from .variant import Rules

EXIT_OK = 0
"""Exit status: done (``solve``: winnable)."""
EXIT_FAILURE = 1
"""Exit status: a well-formed command that could not do its work."""
EXIT_USAGE = 2
"""Exit status: bad command-line input (argparse uses 2 too)."""
EXIT_UNWINNABLE = 3
"""Exit status of ``solve`` for an unwinnable deal."""
EXIT_UNDECIDED = 4
"""Exit status of ``solve`` when a budget ran out, or memory did, before a verdict."""
EXIT_INTERRUPTED = 130
"""Exit status after Ctrl+C (128 + SIGINT, as shells report it)."""

EXTENSIONS: tuple[str, ...] = (
    "solitaire_tk.shell.cli",
    "solitaire_core.solver_cli",
    "solitaire_core.persistence.cli",
    "solitaire_core.testing.cli",
    "solitaire_core.workshop_cli",
)
"""Modules that add sub-commands: each has ``register(subparsers)``. They must not import
anything heavy (tkinter included) at module level."""

CORE_COMMANDS: tuple[str, ...] = ("list", "show", "check", "export")
"""The sub-commands this module adds itself: running one needs none of :data:`EXTENSIONS`."""


def version() -> str:
    """The program's version, e.g. ``"0.1.0"``: :data:`solitaire_core.__version__`, which
    the installed distribution's metadata also gives (pyproject.toml reads it from there),
    without the metadata lookup's cost."""
    from . import __version__

    return __version__


class _VersionAction(argparse._VersionAction):
    """``--version``: argparse's action, with the version filled in only when the option
    is given."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        self.version = f"%(prog)s {version()}"
        super().__call__(parser, namespace, values, option_string)


ARGPARSE_MESSAGES: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("%(heading)s:"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("expected one argument"),
    N_("ignored explicit argument %r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)
"""argparse's own words a player of this command meets (the help's frame, the usage
errors its options can cause), marked so that the catalogs translate them: argparse asks
for them, in English, through the ``gettext`` it imported. Python 3.10 to 3.13 use these
texts (``"%(heading)s:"`` only from 3.13, ``"argument %(argument_name)s: %(message)s"``
from 3.11). Its words for programmers (a parser built wrongly) stay English."""


@contextmanager
def _argparse_words() -> Iterator[None]:
    """While inside, argparse takes its words from our catalogs in the language spoken
    (:mod:`solitaire_core.i18n`); nothing changes while that is English. argparse looks
    its ``_`` up in its module each time it needs a word, so that is swapped for the
    time of one call of our parser and put back after it."""
    if i18n.current_language() == "en":
        yield
        return
    saved = argparse._  # type: ignore[attr-defined]
    argparse._ = i18n.gettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = saved  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that speaks the player's language: its own
    words (the ``-h`` help, the group titles, ``usage:``, the errors) come from our
    catalogs (:data:`ARGPARSE_MESSAGES`) while it is built, parses or prints. Its
    sub-commands' parsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with _argparse_words():
            super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        """argparse's ``add_subparsers``, in the player's language."""
        with _argparse_words():
            return super().add_subparsers(**kwargs)

    def parse_args(self, *args: Any, **kwargs: Any) -> Any:
        """argparse's ``parse_args``, its help and errors in the player's language."""
        with _argparse_words():
            return super().parse_args(*args, **kwargs)

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        """argparse's ``parse_known_args``, its help and errors in the player's language."""
        with _argparse_words():
            return super().parse_known_args(*args, **kwargs)

    def format_usage(self) -> str:
        """The usage line, in the player's language."""
        with _argparse_words():
            return super().format_usage()

    def format_help(self) -> str:
        """The whole help, in the player's language."""
        with _argparse_words():
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        """Print the usage and ``message`` as a usage error; exit with status 2."""
        with _argparse_words():
            super().error(message)


def _saved_language() -> str | None:
    """The ``language`` of the player's settings file when it names one of
    :data:`solitaire_core.i18n.LANGUAGES`, else ``None`` (``"system"``, no file, a file
    that cannot be read: the window reports those). Only read, never written or moved
    aside, and without the settings module's imports (start-up stays fast)."""
    from .persistence.paths import HOME_ENV, app_dirs
    from .readfile import read_file_bytes

    home = os.environ.get(HOME_ENV, "")
    folder = Path(home).expanduser() / "config" if home else app_dirs().user_config_path
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        raw = read_file_bytes(folder / "settings.toml", 1024 * 1024)
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except Exception:  # missing, unreadable, not TOML: the window says why
        return None
    code = data.get("language")
    return code if isinstance(code, str) and code in i18n.LANGUAGES else None


def choose_language() -> str:
    """Speak the player's language from now on: the settings file's ``language`` unless
    it is ``"system"``, else the environment's, as the game window does.

    :return: the language chosen (a key of :data:`solitaire_core.i18n.LANGUAGES`).
    """
    return i18n.set_language(_saved_language())


_UNPRINTABLE = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
"""Unicode categories a terminal acts on or that break a line: control characters (ESC,
BEL, CR, LF, DEL, the C1 controls), format characters (the bidirectional overrides among
them), surrogates, and the line and paragraph separators."""


def printable(text: str, *, keep: str = "") -> str:
    """``text`` made safe to print on a terminal: every control, format or line-breaking
    character is written as its Python escape (``\\x1b``, ``\\n``, ``\\u202e``), so a name or a
    file name from a user's file cannot move the cursor, change colours, ring the bell or
    forge a line of output. Letters, accents, symbols and spaces of any script are kept.

    :param text: text that came from outside (a variant file, its file name, the
        statistics database, an error message quoting either).
    :param keep: characters printed as they are, e.g. ``"\\n\\t"`` for a whole file's text.
    :return: the text, with nothing else changed.
    """
    import unicodedata

    if text.isprintable():  # the usual case: nothing to escape
        return text
    return "".join(
        char
        if char in keep or unicodedata.category(char) not in _UNPRINTABLE
        else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """Turn ``["key=value", ...]`` into a dict.

    :raises UsageError: for an item without ``=``, or a name or value holding a ``,``
        (one ``--option`` per option; statistics key option sets by ``name=value,...``).
    """
    out: dict[str, str] = {}
    for item in pairs or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(_("--option expects key=value, got {item}").format(item=repr(item)))
        if "," in item:
            raise UsageError(
                _(
                    "--option takes one key=value without ',', got {item}; "
                    "repeat --option for each option"
                ).format(item=repr(item))
            )
        out[key.strip()] = value.strip()
    return out


def positive_int(text: str) -> int:
    """An argparse ``type=`` for a whole number >= 1 (a deal number, a count).

    :raises argparse.ArgumentTypeError: for anything else (argparse reports it as a
        usage error, exit status 2).
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a whole number, got {text}").format(text=repr(text))
        ) from None
    if value < 1:
        message = _("expected a number >= 1, got {value}").format(value=value)
        raise argparse.ArgumentTypeError(message)
    return value


def deal_number(text: str) -> int:
    """An argparse ``type=`` for a deal number, 1 to :data:`solitaire_core.deal.MAX_DEAL`.

    :raises argparse.ArgumentTypeError: for anything else (a usage error, exit status 2).
    """
    from .deal import MAX_DEAL

    value = positive_int(text)
    if value > MAX_DEAL:
        raise argparse.ArgumentTypeError(
            _("deal numbers go from 1 to {last}, got {value}").format(last=MAX_DEAL, value=value)
        )
    return value


def add_option_arg(parser: argparse.ArgumentParser) -> None:
    """Add ``--option key=value`` (repeatable; read it with :func:`parse_options`)."""
    parser.add_argument(
        "--option",
        action="append",
        metavar=_("KEY=VALUE"),
        help=_("a variant option, e.g. empty_columns=any (repeatable)"),
    )


VARIANT_HELP = N_("variant id (see 'solitaire list') or a .toml variant file")
"""The help of a sub-command's ``variant`` argument (translated when the parser is built)."""


def add_variant_arg(parser: argparse.ArgumentParser, **kwargs: Any) -> None:
    """Add the positional ``variant`` argument (an id or a ``.toml`` file), its name and
    help in the player's language; ``kwargs`` go to ``add_argument`` (``nargs="?"``)."""
    parser.add_argument("variant", metavar=_("variant"), help=_(VARIANT_HELP), **kwargs)


def add_variant_args(parser: argparse.ArgumentParser, *, deal_required: bool = False) -> None:
    """Add ``--deal N`` and ``--option key=value`` (repeatable) to a sub-command."""
    parser.add_argument(
        "--deal", type=deal_number, required=deal_required, metavar="N", help=_("deal number")
    )
    add_option_arg(parser)


def _cmd_list(args: argparse.Namespace) -> int:
    from .plugins import USER_PLUGIN, get_registry

    registry = get_registry()
    width = max((len(v) for v in registry.variants), default=10)
    for vid, definition in registry.variants.items():
        opts = ", ".join(
            f"{o.name}={'|'.join(c.value for c in o.choices)}" for o in definition.options
        )
        extra = f"  [options: {opts}]" if opts else ""
        origin = (
            f"yours: {definition.source}"
            if definition.plugin == USER_PLUGIN
            else f"plugin: {definition.plugin}"
        )
        line = f"{vid.ljust(width)}  {definition.name}  ({origin}){extra}"
        print(printable(line))
    for problem in registry.problems:
        print(printable(f"skipped: {problem}"), file=sys.stderr)
    return 0


def resolve_variant(variant_id: str, pairs: Sequence[str] | None) -> Rules:
    """The rules of an installed variant with the command line's ``--option`` pairs applied.

    :param variant_id: a variant id as typed, e.g. ``"sea-towers"``.
    :param pairs: the ``--option`` values, ``["key=value", ...]`` (or ``None``).
    :raises UsageError: for an unknown variant, a malformed pair, an unknown option or
        value (exit status 2): all of them are what the user typed.
    """
    from .errors import VariantError
    from .plugins import get_variant

    options = parse_options(pairs)
    try:
        return get_variant(variant_id).resolve(options)
    except (UnknownVariantError, VariantError) as exc:
        raise UsageError(str(exc)) from None


def _rules(args: argparse.Namespace) -> Rules:
    return resolve_variant(args.variant, args.option)


def _cmd_show(args: argparse.Namespace) -> int:
    from .deal import deal
    from .textview import format_layout

    rules = _rules(args)
    number = args.deal or 1
    state = deal(rules, number)
    opts = "".join(f", {k}={v}" for k, v in rules.options)
    print(format_layout(state, printable(f"{rules.name} #{number}{opts}")), end="")
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from .deal import deal
    from .textview import format_fcs, format_pysol

    rules = _rules(args)
    if args.format == "fcs" and rules.hidden_cards:
        raise UsageError(
            _(
                "{name} has a stock or face-down cards, which Freecell Solver's board "
                "format cannot hold: use --format pysol"
            ).format(name=rules.name)
        )
    state = deal(rules, args.deal)
    print((format_pysol if args.format == "pysol" else format_fcs)(state), end="")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from .plugins import get_registry
    from .variant import load_variant_file

    registry = get_registry()
    definition = load_variant_file(
        args.file, predicates=registry.predicates, deal_methods=registry.deal_methods
    )
    choices = sum(len(o.choices) for o in definition.options)
    print(
        printable(
            f"{args.file}: OK: variant {definition.id!r} ({definition.name}), "
            f"{definition.decks} deck(s), {len(definition.options)} option(s) with "
            f"{choices} choices"
        )
    )
    return 0


def build_parser(*, extensions: bool = True) -> argparse.ArgumentParser:
    """The full argument parser, with every extension's sub-commands.

    :param extensions: ``False`` leaves out the sub-commands of :data:`EXTENSIONS` (their
        modules are then not imported): enough to run one of :data:`CORE_COMMANDS`, or
        ``--version``, but its help and its errors would not name the others.
    """
    parser = Parser(
        prog="solitaire",
        description=_(
            "towers-solitaire: Seahaven Towers, Sea Towers, Double Sea Towers and more. "
            "Without a command, opens the launcher."
        ),
    )
    parser.add_argument(
        "--version", action=_VersionAction, help=_("show program's version number and exit")
    )
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    p = sub.add_parser("list", help=_("list installed variants and the plugin of each"))
    p.set_defaults(func=_cmd_list)
    p = sub.add_parser("show", help=_("print a deal's layout as text"))
    add_variant_arg(p)
    add_variant_args(p)
    p.set_defaults(func=_cmd_show)
    p = sub.add_parser("check", help=_("validate a variant file"))
    p.add_argument("file", metavar=_("file"), help=_("path of a variant .toml file"))
    p.set_defaults(func=_cmd_check)
    p = sub.add_parser("export", help=_("print a deal in another program's format"))
    p.add_argument("variant", metavar=_("variant"), help=_("variant id or a .toml variant file"))
    add_variant_args(p, deal_required=True)
    p.add_argument(
        "--format",
        choices=["fcs", "pysol"],
        default="fcs",
        help=_(
            "fcs: Freecell Solver's board format; pysol: the layout text the pysol_cards "
            "package prints (Talon: top card first, <XX> for a face-down card)"
        ),
    )
    p.set_defaults(func=_cmd_export)
    for name in EXTENSIONS if extensions else ():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a real missing dependency inside the module
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the module docstring lists them).

    The language is chosen first (:func:`choose_language`), so that the parser is built
    in it; ``--version`` alone skips that (reading the settings takes time)."""
    words = sys.argv[1:] if argv is None else argv
    if words[:1] != ["--version"]:
        choose_language()
    parser = build_parser(extensions=_needs_extensions(words))
    if "_ARGCOMPLETE" in os.environ:  # the shell asks for completions; this never returns
        _complete(parser)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        if not _has(parser, "play"):
            parser.print_help()
            return EXIT_OK
        args = parser.parse_args(["play", *(argv or [])])
    try:
        return int(args.func(args) or EXIT_OK)
    except (UsageError, UnknownVariantError) as exc:
        print(printable(_("solitaire: error: {message}").format(message=exc)), file=sys.stderr)
        return EXIT_USAGE
    except SolitaireError as exc:
        print(printable(_("solitaire: error: {message}").format(message=exc)), file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print(_("solitaire: interrupted"), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return _reader_went_away()


def _needs_extensions(argv: Sequence[str]) -> bool:
    """Whether running ``argv`` may need the sub-commands of :data:`EXTENSIONS`: always,
    except when its first word is a core command (its parser and its errors name no other)
    or ``--version`` (argparse prints the version and exits before it reads any further);
    a shell's completion request needs them all."""
    if "_ARGCOMPLETE" in os.environ:
        return True
    return not argv or argv[0] not in (*CORE_COMMANDS, "--version")


def _reader_went_away() -> int:
    """The program reading our output (``solitaire list | head``) closed the pipe: stop
    quietly, as command-line tools do, with the status a SIGPIPE death would give."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's final flush must not fail again
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return 128 + 13  # SIGPIPE


def _complete(parser: argparse.ArgumentParser) -> None:
    """Answer a shell's completion request through argcomplete (then exit).

    Every ``variant`` argument completes to the installed variant ids."""
    import argcomplete

    def variant_ids(**_: object) -> list[str]:
        from .plugins import get_registry

        return sorted(get_registry().variants)

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                for argument in subparser._actions:
                    if argument.dest == "variant":
                        argument.completer = variant_ids
    argcomplete.autocomplete(parser)


def _has(parser: argparse.ArgumentParser, command: str) -> bool:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return command in action.choices
    return False


if __name__ == "__main__":
    sys.exit(main())
