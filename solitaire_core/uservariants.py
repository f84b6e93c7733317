"""A game is a file: the player's variants folder, and variant files named by path.

Two ways a variant file reaches the program without a Python package:

* the **user variants folder** (:func:`~solitaire_core.persistence.paths.user_variants_dir`,
  e.g. ``~/.local/share/towers-solitaire/variants`` on Linux): this module is registered as
  the plugin named ``yours`` after every installed plugin, and its one hook returns every
  ``*.toml`` file there, so a file dropped in the folder is listed by ``solitaire list`` and
  the launcher, and a bad one is reported by name and skipped like a bad plugin file;
* a **path** given wherever a variant id is expected (``solitaire show my-game.toml``):
  :func:`load_variant_path` validates the file with every installed rule predicate and
  deal method and adds it to the process's registry under its id, so the rest of the
  program (the table, the solver, the kit) finds it like an installed variant.

Also the text operations behind ``solitaire variant show`` and ``solitaire variant new``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from . import hookimpl
from .errors import SolitaireError, VariantError
from .persistence.paths import user_variants_dir
from .plugins import USER_PLUGIN, Registry, get_variant_from
from .variant import VariantDefinition, load_variant_file, parse_variant

__all__ = [
    "FILE_PLUGIN",
    "USER_PLUGIN",
    "copy_variant_text",
    "is_variant_path",
    "load_variant_path",
    "new_user_variant",
    "solitaire_variant_files",
    "variant_text",
]

FILE_PLUGIN = "file"
"""The plugin name of a variant file named by its path on the command line."""

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@hookimpl
def solitaire_variant_files() -> list[Path]:
    """Every ``*.toml`` file in the user variants folder, sorted by name (none when the
    folder does not exist)."""
    folder = user_variants_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == ".toml" and p.is_file())


def is_variant_path(spec: str) -> bool:
    """Whether ``spec`` names a file rather than a variant id: it ends in ``.toml`` or
    holds a path separator (variant ids are lowercase letters, digits and ``-`` only)."""
    return spec.endswith(".toml") or "/" in spec or os.sep in spec


def _same_file(source: str, path: Path) -> bool:
    try:
        return Path(source).resolve() == path
    except (OSError, ValueError):
        return False


def load_variant_path(registry: Registry, spec: str) -> VariantDefinition:
    """The variant in the file ``spec``, added to ``registry`` under its id.

    A file the registry already holds (one in the user variants folder) is returned as
    loaded. Otherwise it is validated like a plugin's file, with every rule predicate and
    deal method the registry knows, and registered with the plugin name ``file``.

    :param registry: the process's registry (:func:`solitaire_core.plugins.get_registry`).
    :param spec: a path, absolute or relative to the current folder; ``~`` is expanded.
    :raises VariantError: the file cannot be read, is not valid (``file: key.path: what
        was expected``), or its id is taken by another installed variant.
    """
    path = Path(spec).expanduser()
    try:
        resolved = path.resolve()
    except (OSError, ValueError) as exc:
        raise VariantError(spec, "", f"cannot read the file: {exc}") from None
    for definition in registry.variants.values():
        if _same_file(definition.source, resolved):
            return definition
    definition = load_variant_file(
        path,
        plugin=FILE_PLUGIN,
        predicates=registry.predicates,
        deal_methods=registry.deal_methods,
    )
    other = registry.variants.get(definition.id)
    if other is not None:
        raise VariantError(
            str(path),
            "id",
            f"{definition.id!r} is already the id of {other.name} (plugin {other.plugin!r}): "
            "give your file an id of its own",
        )
    registry.variants[definition.id] = definition
    return definition


def variant_text(definition: VariantDefinition) -> str:
    """The TOML text of a variant as its file holds it, comments included.

    A file that cannot be read any more (a plugin's resource inside a zip, a file deleted
    since) is written out from the validated data instead, without comments.
    """
    try:
        return Path(definition.source).read_text("utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        import tomli_w

        return tomli_w.dumps(dict(definition.data))


_TOP_KEY = r'^(?P<key>{})\s*=\s*(?P<q>["\']).*?(?P=q)\s*(?P<comment>#.*)?$'


def copy_variant_text(text: str, new_id: str, new_name: str) -> str:
    """``text`` (a variant file) with its top-level ``id`` and ``name`` replaced.

    The rest of the text, comments included, is kept as it is.

    :raises VariantError: ``new_id`` is not a valid id, or the text has no top-level
        ``id`` or ``name`` line written as a simple string.
    """
    if not _ID_RE.match(new_id):
        raise VariantError(
            new_id, "id", "expected lowercase letters, digits and '-' (e.g. my-seahaven)"
        )
    import json

    header_end = re.search(r"^\s*\[", text, flags=re.MULTILINE)
    split = header_end.start() if header_end else len(text)
    head, tail = text[:split], text[split:]
    for key, value in (("id", new_id), ("name", new_name)):
        pattern = re.compile(_TOP_KEY.format(key), flags=re.MULTILINE)
        if not pattern.search(head):
            raise VariantError("the source file", key, "no top-level line to replace")
        line = f"{key} = {json.dumps(value)}"  # a JSON string is a valid TOML basic string
        head = pattern.sub(line.replace("\\", "\\\\"), head, count=1)
    return head + tail


def default_name(variant_id: str) -> str:
    """A display name made from an id: ``my-seahaven`` -> ``My Seahaven``."""
    return " ".join(part.capitalize() for part in variant_id.split("-") if part)


def new_user_variant(
    registry: Registry,
    new_id: str,
    from_spec: str,
    *,
    name: str | None = None,
    folder: Path | None = None,
) -> Path:
    """Write a copy of a variant into the user variants folder, as ``NEW_ID.toml``.

    :param registry: the installed variants.
    :param new_id: the copy's id (lowercase letters, digits and ``-``), also its file name.
    :param from_spec: the id (or file path) of the variant to copy.
    :param name: the copy's display name; default made from the id (``My Seahaven``).
    :param folder: where to write; default the user variants folder (created if needed).
    :return: the path written.
    :raises SolitaireError: the id is taken, the file exists, or the copy would not be
        valid; nothing is written then.
    """
    source = get_variant_from(registry, from_spec)
    if new_id in registry.variants:
        other = registry.variants[new_id]
        raise SolitaireError(
            f"the id {new_id!r} is already taken by {other.name} (plugin {other.plugin!r})"
        )
    text = copy_variant_text(variant_text(source), new_id, name or default_name(new_id))
    folder = folder if folder is not None else user_variants_dir()
    target = folder / f"{new_id}.toml"
    parse_variant(
        text, str(target), predicates=registry.predicates, deal_methods=registry.deal_methods
    )
    if target.exists():
        raise SolitaireError(f"{target} already exists: choose another id, or edit that file")
    folder.mkdir(parents=True, exist_ok=True)
    with open(target, "x", encoding="utf-8") as handle:
        handle.write(text)
    return target
