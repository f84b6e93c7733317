"""Hostile plugins: real entry-point plugins that misbehave in every way a plugin can.

:func:`install` writes each as a module plus a ``*.dist-info`` folder declaring its entry
point in the group ``solitaire``; put the folder on ``sys.path`` (or ``PYTHONPATH`` for a
subprocess) and :func:`solitaire_core.plugins.get_plugin_manager` finds them exactly as it
finds an installed package. Used by tests/test_boundaries.py and benchmarks/fuzz.py.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

_HEAD = "import sys, time, itertools\nfrom solitaire_core import hookimpl\n"

HOSTILE: dict[str, str] = {
    # hook results of the wrong type
    "hostile_files_42": """
        @hookimpl
        def solitaire_variant_files():
            return 42
    """,
    "hostile_files_strings": """
        @hookimpl
        def solitaire_variant_files():
            return ["seahaven.toml", "mine.toml"]
    """,
    "hostile_predicates_7": """
        @hookimpl
        def solitaire_rule_predicates():
            return 7
    """,
    "hostile_predicate_answers_7": """
        from solitaire_core.predicates import RulePredicate
        @hookimpl
        def solitaire_rule_predicates():
            return [RulePredicate("hostile.seven", "build", lambda card, onto: 7, "sevens")]
    """,
    "hostile_deal_methods": """
        @hookimpl
        def solitaire_deal_methods():
            return {"hostile-deal": 42, 7: print}
    """,
    # plugin code that ends the program or never ends
    "hostile_exit_at_import": """
        sys.exit(0)
    """,
    "hostile_exit_in_hook": """
        @hookimpl
        def solitaire_variant_files():
            sys.exit(3)
    """,
    "hostile_base_exception": """
        class Escape(BaseException):
            pass
        @hookimpl
        def solitaire_rule_predicates():
            raise Escape("not an Exception")
    """,
    "hostile_endless_files": """
        @hookimpl
        def solitaire_variant_files():
            return itertools.repeat(42)
    """,
    "hostile_import_error": """
        import a_module_that_does_not_exist_anywhere
    """,
    "hostile_slow_import": """
        time.sleep(float(__import__("os").environ.get("HOSTILE_SLOW_SECONDS", "8")))
        @hookimpl
        def solitaire_variant_files():
            return []
    """,
}
"""Module name -> source (after a common header importing sys, time, itertools and
``hookimpl``). Eleven plugins, the fuzzing campaign's count."""


def install(folder: Path, names: list[str] | None = None) -> Path:
    """Write the hostile plugins ``names`` (default: all) into ``folder``.

    :return: ``folder``, to put on ``sys.path`` or ``PYTHONPATH``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for name in names if names is not None else list(HOSTILE):
        (folder / f"{name}.py").write_text(_HEAD + textwrap.dedent(HOSTILE[name]), "utf-8")
        info = folder / f"{name}-1.0.dist-info"
        info.mkdir(exist_ok=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", "utf-8"
        )
        (info / "entry_points.txt").write_text(f"[solitaire]\n{name} = {name}\n", "utf-8")
    return folder
