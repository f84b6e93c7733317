"""A game is a file: the player's variants folder, and variant files named by path.

Two ways a variant file reaches the program without a Python package:

* the **user variants folder** (:func:`~solitaire_core.persistence.paths.user_variants_dir`,
  e.g. ``~/.local/share/towers-solitaire/variants`` on Linux): this module is registered as
  the plugin named ``yours`` after every installed plugin, and its one hook returns every
  ``*.toml`` entry there, so a file dropped in the folder is listed by ``solitaire list`` and
  the launcher, and a bad one is reported by name and skipped like a bad plugin file (so
  is an entry that is no file: a folder named ``x.toml``, a FIFO, a symbolic-link loop);
* a **path** given wherever a variant id is expected (``solitaire show my-game.toml``):
  :func:`load_variant_path` validates the file with every installed rule predicate and
  deal method and adds it to the process's registry under its id, so the rest of the
  program (the table, the solver, the kit) finds it like an installed variant.

Also the text operations behind ``solitaire variant show`` and ``solitaire variant new``.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from . import hookimpl
from .errors import SolitaireError, VariantError
from .persistence.paths import user_variants_dir
from .plugins import USER_PLUGIN, Registry, get_variant_from
from .variant import VariantDefinition, load_variant_file, parse_variant, tomllib

__all__ = [
    "FILE_PLUGIN",
    "USER_PLUGIN",
    "copy_variant_text",
    "folder_problem",
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
    """Every entry of the user variants folder whose name ends in ``.toml``, sorted by
    name; none when the folder does not exist.

    Entries that are no regular file (a folder named ``x.toml``, a FIFO, a symbolic-link
    loop, a file that cannot be read) are returned too: the loader refuses each with its
    reason (:func:`solitaire_core.plugins.build_registry`), so ``solitaire list`` and the
    launcher say which were skipped and why.

    :raises SolitaireError: the folder's path exists but is no folder (a file, a
        symbolic-link loop, a file where a parent folder should be), or it cannot be
        listed; the registry records it as a problem of the plugin ``yours``.
    """
    folder = user_variants_dir()
    problem = folder_problem(folder)
    if problem == "":
        return []
    if problem is not None:
        raise SolitaireError(f"{problem}: no variant of yours is loaded")
    try:
        entries = list(os.scandir(folder))
    except OSError as exc:
        raise SolitaireError(f"{folder} cannot be read: {exc.strerror or exc}") from None
    return sorted(Path(e.path) for e in entries if Path(e.name).suffix == ".toml")


def folder_problem(folder: Path) -> str | None:
    """What keeps ``folder`` from being used as a folder, in words.

    :param folder: a path that should name a folder (the user variants folder).
    :return: ``None`` when it is a folder (or a symbolic link to one); ``""`` when nothing
        is there (it can be created); else a sentence naming the path, e.g. ``"/p/variants
        is a file, not a folder"`` or ``"/p/data is a file, so /p/data/variants cannot be
        a folder"``.
    """
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        if os.path.lexists(folder):
            return f"{folder} is a symbolic link to nothing"
        return _parent_problem(folder) or ""
    except NotADirectoryError:
        return _parent_problem(folder) or f"{folder} cannot be a folder"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{folder} is a symbolic link that leads back to itself"
        return f"{folder} cannot be opened: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return None
    return f"{folder} is a file, not a folder"


def _parent_problem(folder: Path) -> str | None:
    """A sentence naming the first parent of ``folder`` that exists and is no folder."""
    for parent in reversed(folder.parents):
        if os.path.lexists(parent) and not parent.is_dir():
            return f"{parent} is a file, so {folder} cannot be a folder"
    return None


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
    """``text`` (a variant file) as a new game's file: its top-level ``id`` and ``name``
    replaced, without the keys that describe the original only (``pysolfc_id``,
    ``aliases``: the copy is not PySolFC's game nor known by those names, as the variant
    editor's copy is not), and with the opening comment lines (which describe the
    original) replaced by one line saying whose copy it is.

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
    for key in ("pysolfc_id", "aliases"):
        # One line, or an array over several lines up to its closing bracket.
        head = re.sub(rf"^{key}\s*=\s*(\[[^\]]*\]|[^\n]*)[^\n]*\n?", "", head, flags=re.MULTILINE)
    opening = re.match(r"(?:[ \t]*#[^\n]*\n)+", head)
    if opening:
        try:
            was = tomllib.loads(text).get("name")
        except tomllib.TOMLDecodeError:
            was = None
        original = was if isinstance(was, str) else "another game"
        # One comment line: TOML allows no control character in a comment.
        line = "".join(c for c in f"{new_name}: a copy of {original}." if c.isprintable())
        head = f"# {line}\n" + head[opening.end() :]
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
    :raises SolitaireError: the id is taken, the file exists, the copy would not be valid,
        or the folder cannot be made or written to (its path, or a parent's, is a file or
        a symbolic-link loop; permission is denied); nothing is written then.
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
    problem = folder_problem(folder)
    if problem:
        raise SolitaireError(f"cannot write {target.name}: {problem}")
    if os.path.lexists(target):
        raise SolitaireError(f"{target} already exists: choose another id, or edit that file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(target, "x", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise SolitaireError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
