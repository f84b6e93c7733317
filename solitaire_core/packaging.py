"""``solitaire variant package``: turn one variant file into a ready plugin project.

The project written for ``--name solitaire-my-game`` and a file whose id is ``my-game``::

    solitaire-my-game/
      pyproject.toml                  # entry point solitaire-my-game = "solitaire_my_game"
      README.md                       # install, test, publish
      src/solitaire_my_game/
        __init__.py                   # the solitaire_variant_files hook
        my-game.toml                  # the file, unchanged (comments kept)
      tests/test_my_game.py           # the conformance kit, one fixture filled in

It installs with ``pip install ./solitaire-my-game`` and passes its tests as generated
(``tests/test_variant_package.py`` builds one, installs it into a fresh virtual environment and
runs them). See docs/plugins.md, "From a file to a published plugin".
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from .errors import SolitaireError
from .plugins import Registry
from .predicates import BUILTIN_PREDICATES
from .variant import VariantDefinition, load_variant_file

__all__ = ["foreign_names", "module_name", "package_variant"]

_DIST_RE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")


def module_name(name: str) -> str:
    """The import name of the project ``name``: lowercase, runs of ``-``, ``_`` and ``.``
    turned into one ``_`` (``solitaire-my-game`` -> ``solitaire_my_game``).

    :raises SolitaireError: ``name`` is not a valid project name (PEP 508: letters,
        digits, ``-``, ``_`` and ``.``, starting and ending with a letter or digit), or
        gives no valid module name (it starts with a digit, or is a Python keyword).
    """
    if not _DIST_RE.match(name):
        raise SolitaireError(
            f"--name {name!r}: expected letters, digits, '-', '_' and '.', starting and "
            "ending with a letter or digit (e.g. solitaire-my-game)"
        )
    module = re.sub(r"[-_.]+", "_", name).lower()
    if not module.isidentifier() or keyword.iskeyword(module):
        raise SolitaireError(
            f"--name {name!r}: {module!r} is not a Python module name; start it with a "
            "letter (e.g. solitaire-{name})"
        )
    return module


def foreign_names(definition: VariantDefinition) -> list[str]:
    """The rule predicates and deal methods ``definition`` uses (with every option choice)
    that towers-solitaire itself does not provide: another plugin must be installed for
    them, so the packaged project must depend on it."""
    data = definition.data
    used = {str(data["tableau"]["build"]), str(data["tableau"]["empty"])}
    for option in definition.options:
        for choice in option.choices:
            used.update(
                str(v) for k, v in choice.settings if k in ("tableau.build", "tableau.empty")
            )
    builtin = set(BUILTIN_PREDICATES) | {"none"}
    names = sorted(used - builtin)
    method = str(data["deal"].get("method", "pysolfc"))
    if method != "pysolfc":
        names.append(method)
    return names


def package_variant(registry: Registry, file: Path, name: str, output: Path | None = None) -> Path:
    """Write a plugin project for the variant file ``file``.

    :param registry: the installed variants (for the predicates and deal methods the file
        may name, and to refuse an id that an installed plugin already uses).
    :param file: the variant's ``.toml`` file; it is copied unchanged.
    :param name: the project's distribution name, also its plugin (entry-point) name.
    :param output: the project folder to create; default ``./NAME``. It must not exist,
        or be empty.
    :return: the project folder.
    :raises SolitaireError: the file is not a valid variant (``VariantError``), its
        rules need another plugin, the name is not a valid project name, or the folder
        is not empty. Nothing is written then.
    """
    module = module_name(name)
    definition = load_variant_file(
        file, plugin=name, predicates=registry.predicates, deal_methods=registry.deal_methods
    )
    foreign = foreign_names(definition)
    if foreign:
        raise SolitaireError(
            f"{file}: uses {', '.join(repr(n) for n in foreign)}, which another plugin "
            "provides: a plugin project for it must depend on that plugin and register "
            "nothing twice; write that project by hand (docs/plugins.md, 'Hooks')"
        )
    text = Path(file).read_text("utf-8")
    folder = Path(output) if output is not None else Path.cwd() / name
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise SolitaireError(f"{folder} already exists and is not empty: choose --output")
    vid = definition.id
    test_name = "test_" + vid.replace("-", "_")
    files = {
        "pyproject.toml": _PYPROJECT.format(
            name=name,
            module=module,
            title=_toml_text(f"{definition.name}: a towers-solitaire variant"),
        ),
        "README.md": _README.format(
            name=name, module=module, vid=vid, title=definition.name, summary=definition.summary
        ),
        f"src/{module}/__init__.py": _INIT.format(title=definition.name, vid=vid),
        f"src/{module}/{vid}.toml": text,
        f"tests/{test_name}.py": _TEST.format(
            title=definition.name, vid=vid, name=name, cls="Test" + _camel(vid)
        ),
    }
    for relative, content in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, "utf-8")
    return folder


def _camel(vid: str) -> str:
    return "".join(part.capitalize() for part in vid.split("-"))


def _toml_text(value: str) -> str:
    import json

    return json.dumps(value)  # a JSON string is a valid TOML basic string


_PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
description = {title}
readme = "README.md"
requires-python = ">=3.10"
dependencies = ["towers-solitaire"]

[project.optional-dependencies]
# The rule-conformance kit: pytest and Hypothesis.
test = ["towers-solitaire[conformance]"]

# The line that makes this a plugin: the module holding the hook, under the entry-point
# group "solitaire". The name on the left is the plugin's name in `solitaire list`.
[project.entry-points.solitaire]
{name} = "{module}"

[tool.setuptools.packages.find]
where = ["src"]

[tool.setuptools.package-data]
{module} = ["*.toml"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

_INIT = '''\
"""{title}: a towers-solitaire variant, written as the TOML file beside this module."""

from __future__ import annotations

from importlib.resources import files

from solitaire_core import hookimpl


@hookimpl
def solitaire_variant_files():
    """The variant file shipped in this package."""
    return [files(__name__) / "{vid}.toml"]
'''

_TEST = '''\
"""{title} passes the towers-solitaire rule-conformance kit.

Run ``pytest`` in this folder; the kit's options apply (``--solitaire-examples 500``).
"""

from __future__ import annotations

import pytest

from solitaire_core.plugins import get_variant
from solitaire_core.testing import VariantConformance


def test_the_plugin_provides_the_variant():
    assert get_variant("{vid}").plugin == "{name}"


class {cls}(VariantConformance):
    @pytest.fixture
    def variant_definition(self):
        return get_variant("{vid}")
'''

_README = """\
# {name}

{title}, a game for [towers-solitaire](https://pypi.org/project/towers-solitaire/),
written as one TOML file: `src/{module}/{vid}.toml`.

{summary}

## Install and play

```
pip install .                 # next to towers-solitaire
solitaire list                # {vid}  {title}  (plugin: {name})
solitaire play {vid}
```

If a copy of the file is also in your own variants folder, remove it there: the installed
plugin now provides the id `{vid}` (`solitaire list` reports the copy as skipped).

## Test

```
pip install '.[test]'         # pytest and Hypothesis (towers-solitaire[conformance])
pytest                        # the rule-conformance kit on {vid}
```

## Publish

Choose a licence, set the version in `pyproject.toml`, then build and upload:

```
python -m build
twine upload dist/*
```
"""
