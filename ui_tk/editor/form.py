"""The variant editor's form, driven by the JSON Schema (no Tk here).

:func:`form_fields` walks ``solitaire_core/variant-schema.json`` and returns one
:class:`Field` per key a variant file may hold, with its group (layout, deal, building,
moves, foundations, autoplay, options, and "game" for the name and sources), its kind of
widget and its help text (the schema's ``description``). A key that another engineer adds
to the schema appears in the editor without a change here: its group follows from its
table (``deal.*`` under Deal, ``tableau.*`` under Building, ...).

:func:`to_texts` turns a variant table into the text of each field and :func:`from_texts`
turns the texts back into a table, keeping the keys in the order of the file that was
opened, so opening a file and saving it unchanged writes the same data (comments are lost:
a TOML library does not keep them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from solitaire_core.i18n import N_
from solitaire_core.i18n import gettext as _
from solitaire_core.variant import load_schema, tomllib

__all__ = [
    "GROUPS",
    "Field",
    "FormError",
    "form_fields",
    "from_texts",
    "inline_toml",
    "to_texts",
]

GROUPS: tuple[tuple[str, str], ...] = (
    ("game", N_("Game")),
    ("layout", N_("Layout")),
    ("deal", N_("Deal")),
    ("building", N_("Building")),
    ("moves", N_("Moves")),
    ("foundations", N_("Foundations")),
    ("autoplay", N_("Autoplay")),
    ("options", N_("Options")),
)
"""(key, tab title) of each group, in the order the editor shows them (the titles in
English: shown through ``gettext``)."""

_PLACES = {
    "decks": "layout",
    "suits": "layout",
    "tableau.columns": "layout",
    "tableau.layout": "layout",
    "cells": "layout",
    "foundations.count": "foundations",
    "tableau.move_limit": "moves",
    "tableau.run": "moves",
    "autoplay": "autoplay",
    "options": "options",
    "deal": "deal",
    "stock": "deal",
    "tableau": "building",
    "foundations": "foundations",
}
"""Dotted key (or table) -> group; the longest prefix wins, anything else is "game"."""

_HIDDEN = ("format_version",)  # fixed by the format: kept, not edited


class FormError(ValueError):
    """A field's text is not a value of the field's kind (``message`` says what is
    expected); the loader's own checks come after."""


@attrs.frozen
class Field:
    """One key of the variant file as the editor shows it.

    :param path: the dotted key, e.g. ``"tableau.build"``.
    :param kind: ``"enum"`` (a fixed list, ``choices``), ``"boolean"``, ``"integer"``,
        ``"string"``, ``"toml"`` (any TOML value written inline: ``[5, 5, 6]``) or
        ``"table"`` (a whole TOML table as text: ``options``).
    :param group: the key of its group in :data:`GROUPS`.
    :param help: the schema's description.
    :param required: whether the file must have it.
    :param choices: the values of an ``"enum"`` field, as the schema gives them.
    :param default: the schema's default, if any (shown in the help).
    """

    path: str
    kind: str
    group: str
    help: str
    required: bool
    choices: tuple[Any, ...] = ()
    default: Any = None

    @property
    def label(self) -> str:
        """The key's last part, as a label (``move_limit`` -> ``Move limit``)."""
        leaf = self.path.rsplit(".", 1)[-1]
        return leaf.replace("_", " ").capitalize()


def _group(path: str) -> str:
    best = ""
    for prefix in _PLACES:
        if (path == prefix or path.startswith(prefix + ".")) and len(prefix) > len(best):
            best = prefix
    return _PLACES[best] if best else "game"


def _kind(schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        return "enum"
    kind = schema.get("type")
    if kind in ("boolean", "integer", "string"):
        return str(kind)
    return "toml"


def form_fields(schema: Mapping[str, Any] | None = None) -> list[Field]:
    """Every field of the form, in the schema's order (tables flattened).

    :param schema: the variant JSON Schema; default the installed one.
    """
    schema = schema if schema is not None else load_schema()
    fields: list[Field] = []

    def walk(node: Mapping[str, Any], prefix: str) -> None:
        required = set(node.get("required", ()))
        for key, sub in node.get("properties", {}).items():
            path = f"{prefix}{key}"
            if path in _HIDDEN:
                continue
            if sub.get("type") == "object" and "properties" in sub:
                walk(sub, path + ".")
                continue
            kind = "table" if sub.get("type") == "object" else _kind(sub)
            fields.append(
                Field(
                    path=path,
                    kind=kind,
                    group=_group(path),
                    help=str(sub.get("description", "")),
                    required=key in required,
                    choices=tuple(sub.get("enum", ())),
                    default=sub.get("default"),
                )
            )

    walk(schema, "")
    return fields


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def inline_toml(value: Any) -> str:
    """``value`` written as an inline TOML value (``[5, 5, 6]``, ``"deal"``,
    ``{ count = 4, build = "up-in-suit" }``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, Mapping):
        items = ", ".join(f"{_key(k)} = {inline_toml(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(inline_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _get(data: Mapping[str, Any], path: str) -> tuple[bool, Any]:
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False, None
        node = node[part]
    return True, node


def field_text(field: Field, value: Any) -> str:
    """The text the field shows for ``value``."""
    if field.kind == "table":
        import tomli_w

        return tomli_w.dumps({field.path: value}) if value else ""
    if field.kind in ("string",) and isinstance(value, str):
        return value
    if field.kind == "enum" and isinstance(value, str):
        return value
    return inline_toml(value)


def to_texts(data: Mapping[str, Any], fields: Iterable[Field]) -> dict[str, str]:
    """The text of every field for the variant table ``data`` (``""`` for a key the file
    does not have)."""
    texts = {}
    for field in fields:
        present, value = _get(data, field.path)
        texts[field.path] = field_text(field, value) if present else ""
    return texts


def parse_text(field: Field, text: str) -> tuple[bool, Any]:
    """``(present, value)`` for a field's text; ``present`` is False for an empty text
    (the key is then left out).

    :raises FormError: the text is not a value of the field's kind.
    """
    if field.kind != "table":
        text = text.strip()
    if not text.strip():
        return False, None
    if field.kind == "string":
        return True, text
    if field.kind == "integer":
        if not re.fullmatch(r"[+-]?\d+", text):
            raise FormError(_("expected a whole number, got {text}").format(text=repr(text)))
        return True, int(text)
    if field.kind == "boolean":
        if text not in ("true", "false"):
            raise FormError(_("expected true or false, got {text}").format(text=repr(text)))
        return True, text == "true"
    if field.kind == "enum":
        for choice in field.choices:
            if field_text(field, choice) == text:
                return True, choice
        shown = ", ".join(field_text(field, c) for c in field.choices)
        raise FormError(
            _("expected one of {values}, got {text}").format(values=shown, text=repr(text))
        )
    if field.kind == "table":
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise FormError(_("not valid TOML: {error}").format(error=exc)) from None
        extra = sorted(set(table) - {field.path})
        if extra:
            raise FormError(
                _("expected only [{key}.NAME] tables, got {name}").format(
                    key=field.path, name=repr(extra[0])
                )
            )
        return (True, table[field.path]) if field.path in table else (False, None)
    try:
        return True, tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        raise FormError(
            _(
                'expected a TOML value (a number, "text" in quotes, a list [1, 2]), got {text}'
            ).format(text=repr(text))
        ) from None


def _leaf_paths(data: Mapping[str, Any], prefix: str = "") -> list[str]:
    paths = []
    for key, value in data.items():
        path = f"{prefix}{key}"
        paths.append(path)
        if isinstance(value, Mapping) and key != "options":
            paths.extend(_leaf_paths(value, path + "."))
    return paths


def from_texts(
    texts: Mapping[str, str], fields: Iterable[Field], original: Mapping[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """The variant table the form describes, and the fields whose text is not a value.

    :param texts: field path -> text (:func:`to_texts` gives them).
    :param fields: the form's fields.
    :param original: the table the form was opened with: its key order is kept, and its
        keys that are no field (``format_version``, keys the schema does not know) are
        kept as they were.
    :return: ``(data, errors)``; ``errors`` maps a field path to what is expected.
    """
    original = original or {}
    fields = list(fields)
    by_path = {f.path: f for f in fields}
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in fields:
        try:
            present, value = parse_text(field, texts.get(field.path, ""))
        except FormError as exc:
            errors[field.path] = str(exc)
            present, value = _get(original, field.path)  # keep the old value meanwhile
        if present:
            values[field.path] = value
    order = [p for p in _leaf_paths(original) if p in by_path or not _is_table(original, p)]
    order += [f.path for f in fields if f.path not in order]
    data: dict[str, Any] = {"format_version": original.get("format_version", 1)}
    for path in order:
        if path in by_path:
            if path not in values:
                continue
            value = values[path]
        else:
            present, value = _get(original, path)
            if not present or _has_field_below(path, by_path):
                continue
        node = data
        *parents, leaf = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return data, errors


def _is_table(data: Mapping[str, Any], path: str) -> bool:
    present, value = _get(data, path)
    return present and isinstance(value, Mapping)


def _has_field_below(path: str, by_path: Mapping[str, Field]) -> bool:
    return any(p.startswith(path + ".") for p in by_path)
