"""Finding and loading plugins, and the registry of installed variants.

How a variant arrives: :func:`get_plugin_manager` registers the built-in plugins from the
explicit tuple :data:`BUILTIN_PLUGINS`, then every entry point in the group ``solitaire``
(except those named in the environment variable ``SOLITAIRE_DISABLE_PLUGINS``, a comma
separated list); :func:`get_registry` calls the hooks plugin by plugin, so a plugin that
raises, or a variant file that fails validation, is reported by name and skipped while every
other variant still loads.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs
import pluggy

from . import hookspecs
from .deal import DealMethod
from .errors import SolitaireError, UnknownVariantError, VariantError
from .predicates import BUILTIN_PREDICATES, RulePredicate
from .variant import VariantDefinition, parse_variant

ENTRY_POINT_GROUP = "solitaire"
BUILTIN_PLUGINS: tuple[str, ...] = ("solitaire_variants",)
"""Modules registered as plugins before any entry point, like any other plugin."""
DISABLE_ENV = "SOLITAIRE_DISABLE_PLUGINS"
USER_PLUGIN = "yours"
"""The plugin that loads the user variants folder (:mod:`solitaire_core.uservariants`)."""


@attrs.frozen
class PluginProblem:
    """A plugin or variant file that could not be loaded.

    :param plugin: the plugin's name (entry-point name or built-in module).
    :param what: the file or hook concerned.
    :param reason: why, in plain words.
    """

    plugin: str
    what: str
    reason: str

    def __str__(self) -> str:
        return f"plugin {self.plugin!r}: {self.what}: {self.reason}"


@attrs.define
class Registry:
    """The installed variants, predicates and deal methods, and the problems met loading
    them.

    :param variants: variant id -> definition, in load order.
    :param problems: everything skipped, with reasons.
    """

    variants: dict[str, VariantDefinition] = attrs.Factory(dict)
    predicates: dict[str, RulePredicate] = attrs.Factory(dict)
    deal_methods: dict[str, DealMethod] = attrs.Factory(dict)
    problems: list[PluginProblem] = attrs.Factory(list)

    def get(self, variant_id: str) -> VariantDefinition:
        """The variant with this id.

        :raises UnknownVariantError: listing the installed ids.
        """
        try:
            return self.variants[variant_id]
        except KeyError:
            raise UnknownVariantError(variant_id, sorted(self.variants)) from None


def disabled_plugins() -> set[str]:
    """Names listed in ``SOLITAIRE_DISABLE_PLUGINS``."""
    return {n.strip() for n in os.environ.get(DISABLE_ENV, "").split(",") if n.strip()}


def get_plugin_manager(problems: list[PluginProblem] | None = None) -> pluggy.PluginManager:
    """A plugin manager with the hook specs, the built-ins and the entry-point plugins.

    :param problems: a list that receives a :class:`PluginProblem` for each plugin that
        failed to import (it is then skipped).
    """
    problems = problems if problems is not None else []
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    blocked = disabled_plugins()
    for name in BUILTIN_PLUGINS:
        if name not in blocked:
            pm.register(importlib.import_module(name), name=name)
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in blocked or pm.get_plugin(ep.name) is not None:
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except Exception as exc:  # a broken plugin must not stop the others
            problems.append(PluginProblem(ep.name, f"entry point {ep.value}", _reason(exc)))
    if USER_PLUGIN not in blocked:  # the user variants folder, after every package
        pm.register(importlib.import_module("solitaire_core.uservariants"), name=USER_PLUGIN)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        problems.append(PluginProblem(getattr(exc, "plugin_name", "?"), "hooks", str(exc)))
    return pm


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _call_each(
    pm: pluggy.PluginManager, hook_name: str, problems: list[PluginProblem]
) -> Iterator[tuple[str, Any]]:
    """Call one hook plugin by plugin, so one failure does not hide the others."""
    hook = getattr(pm.hook, hook_name)
    for impl in hook.get_hookimpls():  # registration order: built-ins first
        try:
            result = impl.function()
        except Exception as exc:
            problems.append(PluginProblem(impl.plugin_name, hook_name, _reason(exc)))
            continue
        if result is not None:
            yield impl.plugin_name, result


def build_registry(pm: pluggy.PluginManager | None = None) -> Registry:
    """Load every plugin's predicates, deal methods and variants into a new
    :class:`Registry`."""
    registry = Registry()
    if pm is None:
        pm = get_plugin_manager(registry.problems)
    registry.predicates.update(BUILTIN_PREDICATES)
    for plugin, preds in _call_each(pm, "solitaire_rule_predicates", registry.problems):
        for pred in preds:
            if not isinstance(pred, RulePredicate):
                registry.problems.append(
                    PluginProblem(
                        plugin, "solitaire_rule_predicates", f"{pred!r} is not a RulePredicate"
                    )
                )
            elif pred.name in registry.predicates:
                registry.problems.append(
                    PluginProblem(
                        plugin, "solitaire_rule_predicates", f"{pred.name!r} is already registered"
                    )
                )
            else:
                registry.predicates[pred.name] = pred
    for plugin, methods in _call_each(pm, "solitaire_deal_methods", registry.problems):
        if not isinstance(methods, Mapping):
            registry.problems.append(
                PluginProblem(plugin, "solitaire_deal_methods", "did not return a mapping")
            )
            continue
        registry.deal_methods.update(methods)
    for plugin, files in _call_each(pm, "solitaire_variant_files", registry.problems):
        for file in files:
            name = str(file)
            try:
                text = file.read_text(encoding="utf-8")
                definition = parse_variant(
                    text, name, plugin=plugin, predicates=registry.predicates
                )
                method = definition.data["deal"].get("method", "pysolfc")
                if method != "pysolfc" and method not in registry.deal_methods:
                    raise VariantError(
                        name, "deal.method", f"no plugin registers the deal method {method!r}"
                    )
            except VariantError as exc:
                registry.problems.append(PluginProblem(plugin, Path(name).name, str(exc)))
                continue
            except (OSError, UnicodeDecodeError) as exc:
                registry.problems.append(PluginProblem(plugin, name, _reason(exc)))
                continue
            if definition.id in registry.variants:
                other = registry.variants[definition.id].plugin
                registry.problems.append(
                    PluginProblem(
                        plugin,
                        name,
                        f"variant id {definition.id!r} is already taken by plugin {other!r}",
                    )
                )
                continue
            registry.variants[definition.id] = definition
    return registry


_REGISTRY: Registry | None = None


def get_registry(*, reload: bool = False) -> Registry:
    """The process-wide registry, built on first use.

    :param reload: rebuild it (after installing a plugin or changing
        ``SOLITAIRE_DISABLE_PLUGINS``).
    """
    global _REGISTRY
    if _REGISTRY is None or reload:
        _REGISTRY = build_registry()
    return _REGISTRY


def get_variant(variant_id: str) -> VariantDefinition:
    """The installed variant ``variant_id``, or the variant file at that path.

    :param variant_id: a variant id, or a path to a ``.toml`` file (see
        :func:`get_variant_from`).
    :raises UnknownVariantError: when no variant has that id.
    :raises VariantError: when the file cannot be read or is not a valid variant.
    """
    return get_variant_from(get_registry(), variant_id)


def get_variant_from(registry: Registry, spec: str) -> VariantDefinition:
    """The variant ``spec`` names in ``registry``: an id, or a path to a ``.toml`` file
    (it ends in ``.toml`` or holds a ``/``), which is then loaded and added to the registry
    (:func:`solitaire_core.uservariants.load_variant_path`).

    :raises UnknownVariantError: when no variant has that id.
    :raises VariantError: when the file cannot be read, is not a valid variant, or its id
        is another variant's.
    """
    from .uservariants import is_variant_path, load_variant_path

    if is_variant_path(spec):
        return load_variant_path(registry, spec)
    return registry.get(spec)


__all__ = [
    "BUILTIN_PLUGINS",
    "ENTRY_POINT_GROUP",
    "USER_PLUGIN",
    "PluginProblem",
    "Registry",
    "SolitaireError",
    "build_registry",
    "get_plugin_manager",
    "get_registry",
    "get_variant",
    "get_variant_from",
]
