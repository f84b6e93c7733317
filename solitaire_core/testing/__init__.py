"""Rule-conformance kit for variant authors: checks that a variant obeys the framework's
contract (docs/plugins.md, "Testing your variant").

Three ways in, all running the same checks (:mod:`solitaire_core.testing.checks`):

* ``solitaire conformance VARIANT [--option k=v] [--examples N]`` on the command line;
* ``pytest --solitaire-variant VARIANT`` (this package's pytest plugin);
* a test class: subclass :class:`VariantConformance` and fill in the ``variant_definition``
  (or ``rules``) fixture.

Importing this package is cheap: Hypothesis and pytest are only imported when one of the
names below is first used.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "VariantConformance": "suite",
    "CHECKS": "checks",
    "KitContext": "checks",
    "KitSettings": "checks",
    "VariantConfiguration": "configs",
    "variant_configurations": "configs",
    "installed_configurations": "configs",
    "Scenario": "scenarios",
    "load_scenario_file": "scenarios",
    "run_scenario": "scenarios",
    "builtin_scenario_files": "scenarios",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        imported = importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as exc:
        if exc.name not in ("hypothesis", "pytest"):
            raise
        raise ModuleNotFoundError(
            f"the conformance kit needs {exc.name}, which the 'conformance' extra installs: "
            "pip install 'towers-solitaire[conformance]'",
            name=exc.name,
        ) from exc
    value = getattr(imported, name)
    globals()[name] = value
    return value
