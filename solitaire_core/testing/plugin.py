"""The conformance kit's pytest plugin (entry point ``solitaire`` in the ``pytest11`` group).

It only adds command-line options; nothing heavy is imported and no variant is loaded
unless ``--solitaire-variant`` is given. Then the kit's tests
(:mod:`solitaire_core.testing.conformance_suite`) run for that variant: alone when no test
paths were named, or beside the named ones::

    pytest --solitaire-variant my-variant
    pytest --solitaire-variant sea-towers --solitaire-option empty_columns=any
    pytest --solitaire-variant my-variant --solitaire-examples 500 --solitaire-steps 100
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .configs import VariantConfiguration

SUITE_FILE = Path(__file__).with_name("conformance_suite.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the ``--solitaire-*`` options."""
    group = parser.getgroup("solitaire", "towers-solitaire rule-conformance kit")
    group.addoption(
        "--solitaire-variant",
        metavar="ID",
        default=None,
        help="run the rule-conformance kit on this installed variant (an id) or variant "
        "file (a path to a .toml file)",
    )
    group.addoption(
        "--solitaire-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a variant option for --solitaire-variant (repeatable); "
        "default: every combination of the options' choices",
    )
    group.addoption(
        "--solitaire-examples",
        type=int,
        default=None,
        metavar="N",
        help="Hypothesis examples per conformance check (and random games played)",
    )
    group.addoption(
        "--solitaire-steps",
        type=int,
        default=None,
        metavar="N",
        help="moves per random game in the conformance state machine",
    )
    group.addoption(
        "--solitaire-scenarios",
        action="append",
        default=[],
        metavar="FILE",
        help="an extra scenario file (docs/scenarios.md) for the conformance kit (repeatable)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """With ``--solitaire-variant``: check the variant exists and add the kit's tests."""
    if not config.getoption("solitaire_variant", None):
        return
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise pytest.UsageError(
            "--solitaire-variant: the conformance kit needs Hypothesis, which the "
            "'conformance' extra installs: pip install 'towers-solitaire[conformance]'"
        ) from None
    selected_configurations(config)  # a usage error is reported before collection
    source = getattr(config, "args_source", None)
    if source is not None and source == pytest.Config.ArgsSource.ARGS:
        config.args.append(str(SUITE_FILE))
    else:
        config.args[:] = [str(SUITE_FILE)]


def selected_configurations(config: pytest.Config) -> list[VariantConfiguration]:
    """The configurations ``--solitaire-variant`` and ``--solitaire-option`` select.

    :raises pytest.UsageError: for an unknown variant, option or value, or a malformed
        ``--solitaire-option``.
    """
    from ..errors import SolitaireError
    from ..plugins import get_variant
    from .configs import variant_configurations

    variant = config.getoption("solitaire_variant")
    pairs = config.getoption("solitaire_option") or []
    options: dict[str, str] = {}
    for item in pairs:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise pytest.UsageError(f"--solitaire-option expects key=value, got {item!r}")
        options[key.strip()] = value.strip()
    try:
        definition = get_variant(variant)
        return variant_configurations(definition, options if pairs else None)
    except SolitaireError as exc:
        raise pytest.UsageError(f"--solitaire-variant: {exc}") from None
