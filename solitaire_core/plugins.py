"""Finding and loading plugins, and the registry of installed variants.

How a variant arrives: :func:`get_plugin_manager` registers the built-in plugins from the
explicit tuple :data:`BUILTIN_PLUGINS`, then every entry point in the group ``solitaire``
(except those named in the environment variable ``SOLITAIRE_DISABLE_PLUGINS``, a comma
separated list); :func:`get_registry` calls the hooks plugin by plugin.

This module is the one boundary where plugin code and plugin-supplied files enter the
program: every call into a plugin is guarded (whatever it raises, ``SystemExit`` included,
is recorded by plugin name), every value a hook returns is checked by type before use, and
every variant file is read without blocking and validated strictly. A bad plugin, or a
variant file that fails validation, is reported by name and skipped while every other
variant still loads.
"""

from __future__ import annotations

import errno
import functools
import importlib
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

import attrs
import pluggy

from . import hookspecs
from .cards import Card, full_deck
from .deal import DealMethod
from .errors import SolitaireError, UnknownVariantError, VariantError
from .predicates import BUILTIN_PREDICATES, RulePredicate
from .readfile import NotARegularFileError, TooLargeError, read_file_bytes
from .variant import MAX_VARIANT_BYTES, VariantDefinition, decode_variant_text, parse_variant
from .variant_cache import VariantCache

ENTRY_POINT_GROUP = "solitaire"
BUILTIN_PLUGINS: tuple[str, ...] = ("solitaire_variants",)
"""Modules registered as plugins before any entry point, like any other plugin."""
DISABLE_ENV = "SOLITAIRE_DISABLE_PLUGINS"
USER_PLUGIN = "yours"
"""The plugin that loads the user variants folder (:mod:`solitaire_core.uservariants`)."""
T = TypeVar("T")


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


SLOW_PLUGIN_SECONDS = 5.0
"""A plugin whose import takes longer than this is named on stderr while it loads."""
MAX_HOOK_ITEMS = 10_000
"""Most items one hook call may return (a plugin returning an endless iterator is cut off
and reported)."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        code = _safe_repr(exc.code)
        return f"called sys.exit({code}) (ignored: a plugin cannot end the program)"
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - the exception's __str__ is plugin code too
        text = "?"
    if type(exc) is SolitaireError:  # the program's own sentence (the user folder's hook)
        return text
    return f"{type(exc).__name__}: {text}"


class _PluginFailed(Exception):
    """Plugin code raised (anything, SystemExit included); already recorded."""


def _guard(problems: list[PluginProblem], plugin: str, what: str, call: Callable[[], T]) -> T:
    """Run plugin code, turning anything it raises into a :class:`PluginProblem`.

    This is the one boundary between plugin code and the program: every exception,
    ``SystemExit`` and other ``BaseException`` included, is recorded with the plugin's name
    and then raised again as :class:`_PluginFailed` for the caller to skip the plugin's
    contribution. Only ``KeyboardInterrupt`` (the user's Ctrl+C) passes through.
    """
    try:
        return call()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        problems.append(PluginProblem(plugin, what, _reason(exc)))
        raise _PluginFailed from None


def _slow_notice(plugin: str, where: str) -> threading.Timer:
    """A timer that names a plugin still importing after :data:`SLOW_PLUGIN_SECONDS`."""

    def notice() -> None:
        print(
            f"solitaire: still loading plugin {plugin!r} ({where}) after "
            f"{SLOW_PLUGIN_SECONDS:g} s; to skip it, set {DISABLE_ENV}={plugin}",
            file=sys.stderr,
            flush=True,
        )

    timer = threading.Timer(SLOW_PLUGIN_SECONDS, notice)
    timer.daemon = True
    return timer


def _load_plugin(
    name: str, where: str, load: Callable[[], object], problems: list[PluginProblem]
) -> object:
    """Import one plugin, naming it on stderr when the import is slow.

    The timer's thread has ended when this returns, so loading the plugins leaves the
    process with the threads it had (a survey forks its workers only from a process that
    runs one thread, :func:`solitaire_core.solver.survey.process_context`). Where the
    system refuses the thread (no memory for its stack under ``ulimit -v``), the plugin
    loads without the notice.

    :raises _PluginFailed: it raised (recorded in ``problems``).
    """
    timer = _slow_notice(name, where)
    try:
        timer.start()
    except RuntimeError:  # "can't start new thread": no memory for its stack (ulimit -v)
        return _guard(problems, name, where, load)  # loaded all the same, without notice
    try:
        return _guard(problems, name, where, load)
    finally:
        timer.cancel()
        timer.join()


def get_plugin_manager(problems: list[PluginProblem] | None = None) -> pluggy.PluginManager:
    """A plugin manager with the hook specs, the built-ins and the entry-point plugins.

    :param problems: a list that receives a :class:`PluginProblem` for each plugin that
        failed to import or to register (whatever it raised, ``sys.exit()`` included); it
        is then skipped and the others still load. A plugin whose import takes more than
        :data:`SLOW_PLUGIN_SECONDS` is named on stderr while it loads.
    """
    problems = problems if problems is not None else []
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    blocked = disabled_plugins()
    candidates: list[tuple[str, str, Callable[[], object]]] = [
        (name, f"module {name}", functools.partial(importlib.import_module, name))
        for name in BUILTIN_PLUGINS
    ]
    candidates += [
        (ep.name, f"entry point {ep.value}", ep.load)
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)
    ]
    for name, where, load in candidates:
        if name in blocked or pm.get_plugin(name) is not None:
            continue
        try:
            plugin = _load_plugin(name, where, load, problems)
            _guard(problems, name, where, functools.partial(pm.register, plugin, name=name))
        except _PluginFailed:
            continue
    if USER_PLUGIN not in blocked:  # the user variants folder, after every package
        pm.register(importlib.import_module("solitaire_core.uservariants"), name=USER_PLUGIN)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        problems.append(PluginProblem(getattr(exc, "plugin_name", "?"), "hooks", str(exc)))
    return pm


def _call_each(
    pm: pluggy.PluginManager, hook_name: str, problems: list[PluginProblem]
) -> Iterator[tuple[str, Any]]:
    """Call one hook plugin by plugin, so one failure does not hide the others; a plugin
    that raises (anything) or returns ``None`` contributes nothing."""
    hook = getattr(pm.hook, hook_name)
    for impl in hook.get_hookimpls():  # registration order: built-ins first
        try:
            result = _guard(problems, impl.plugin_name, hook_name, impl.function)
        except _PluginFailed:
            continue
        if result is not None:
            yield impl.plugin_name, result


def _items(
    plugin: str, hook_name: str, result: object, problems: list[PluginProblem]
) -> list[object]:
    """The items of a hook's result, which must be an iterable (not a string or a mapping).

    Iterating runs plugin code (a generator), so it is guarded too; more than
    :data:`MAX_HOOK_ITEMS` items is refused.
    """
    if isinstance(result, (str, bytes, Mapping)) or not isinstance(result, Iterable):
        problems.append(
            PluginProblem(plugin, hook_name, f"returned {_shown(result)}, expected a list")
        )
        return []
    try:
        items = _guard(
            problems,
            plugin,
            hook_name,
            lambda: list(itertools.islice(result, MAX_HOOK_ITEMS + 1)),
        )
    except _PluginFailed:
        return []
    if len(items) > MAX_HOOK_ITEMS:
        problems.append(
            PluginProblem(plugin, hook_name, f"returned more than {MAX_HOOK_ITEMS} items")
        )
        return []
    return items


def _safe_repr(value: object) -> str:
    """``repr(value)``, at most 60 characters, or ``"?"`` if the ``__repr__`` fails."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 - a plugin's __repr__ is plugin code too
        text = "?"
    return text if len(text) <= 60 else text[:57] + "..."


def _shown(value: object) -> str:
    """A short description of a value a plugin returned, for messages."""
    return f"{_safe_repr(value)} ({type(value).__name__})"


def _probe_predicate(pred: RulePredicate) -> str | None:
    """Call a plugin's predicate on every card (``"empty"``) or pair of cards
    (``"build"``) of four decks, the most a variant may have.

    A predicate is pure by contract, so this covers every call the rules will make.

    :return: ``None`` when it answered ``True`` or ``False`` every time, else why not.
    :raises BaseException: whatever the predicate raised (the caller guards the call).
    """
    cards = full_deck(4)
    function = pred.function
    if pred.kind == "empty":
        for card in cards:
            answer = function(card)
            if not isinstance(answer, bool):
                return f"returned {_shown(answer)} for {card}; expected True or False"
        return None
    for card in cards:
        for onto in cards:
            answer = function(card, onto)
            if not isinstance(answer, bool):
                return f"returned {_shown(answer)} for {card} on {onto}; expected True or False"
    return None


def _check_predicate(plugin: str, pred: object, registry: Registry) -> RulePredicate | None:
    """``pred`` if it is a well-formed, new :class:`RulePredicate` whose function answers
    ``True`` or ``False`` for every card; otherwise ``None`` with the problem recorded."""
    hook = "solitaire_rule_predicates"
    problems = registry.problems
    if not isinstance(pred, RulePredicate):
        problems.append(PluginProblem(plugin, hook, f"{_shown(pred)} is not a RulePredicate"))
        return None
    if not isinstance(pred.name, str) or not pred.name:
        problems.append(PluginProblem(plugin, hook, f"name {_shown(pred.name)} is not a text"))
        return None
    what = f"{hook}: {pred.name!r}"
    if not callable(pred.function) or not isinstance(pred.description, str):
        problems.append(
            PluginProblem(plugin, what, "needs a callable function and a description text")
        )
        return None
    if pred.name in registry.predicates:
        problems.append(PluginProblem(plugin, hook, f"{pred.name!r} is already registered"))
        return None
    try:
        wrong = _guard(problems, plugin, what, lambda: _probe_predicate(pred))
    except _PluginFailed:
        return None
    if wrong is not None:
        problems.append(PluginProblem(plugin, what, wrong))
        return None
    return pred


class PluginDealError(SolitaireError):
    """A plugin's deal method raised or returned something other than a list of cards."""


def _guarded_deal(plugin: str, name: str, method: DealMethod) -> DealMethod:
    """``method`` wrapped so that whatever it raises (``sys.exit()`` included) or returns
    that is not a sequence of cards becomes a :class:`PluginDealError` naming the plugin.
    (:func:`~solitaire_core.deal.deal` then checks that each card comes exactly once.)"""

    def deal_cards(rules: Any, number: int) -> Sequence[Card]:
        try:
            cards = list(itertools.islice(method(rules, number), 52 * 16 + 1))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise PluginDealError(
                f"plugin {plugin!r}: deal method {name!r} failed: {_reason(exc)}"
            ) from None
        if not all(isinstance(card, Card) for card in cards):
            raise PluginDealError(
                f"plugin {plugin!r}: deal method {name!r} returned something other than cards"
            )
        return cards

    return deal_cards


def build_registry(pm: pluggy.PluginManager | None = None) -> Registry:
    """Load every plugin's predicates, deal methods and variants into a new
    :class:`Registry`.

    What each hook returns is checked by type before it is used, and every call into
    plugin code is guarded: a plugin that raises (anything, ``sys.exit()`` included) or
    returns the wrong kind of value is recorded in ``registry.problems`` by name and its
    contribution skipped; everything else still loads. Variant files whose text was read
    and checked in an earlier run come from the cache (:mod:`~solitaire_core.variant_cache`).
    """
    registry = Registry()
    if pm is None:
        pm = get_plugin_manager(registry.problems)
    registry.predicates.update(BUILTIN_PREDICATES)
    hook = "solitaire_rule_predicates"
    for plugin, result in _call_each(pm, hook, registry.problems):
        for item in _items(plugin, hook, result, registry.problems):
            pred = _check_predicate(plugin, item, registry)
            if pred is not None:
                registry.predicates[pred.name] = pred
    hook = "solitaire_deal_methods"
    for plugin, methods in _call_each(pm, hook, registry.problems):
        if not isinstance(methods, Mapping):
            registry.problems.append(
                PluginProblem(plugin, hook, f"returned {_shown(methods)}, expected a mapping")
            )
            continue
        try:
            pairs: list[tuple[object, object]] = _guard(
                registry.problems, plugin, hook, functools.partial(list, methods.items())
            )
        except _PluginFailed:
            continue
        for name, method in pairs:
            if not isinstance(name, str) or not name or not callable(method):
                registry.problems.append(
                    PluginProblem(plugin, hook, f"{_shown(name)}: expected a name and a function")
                )
            elif name == "pysolfc" or name in registry.deal_methods:
                registry.problems.append(
                    PluginProblem(plugin, hook, f"deal method {name!r} is already registered")
                )
            else:
                registry.deal_methods[name] = _guarded_deal(plugin, name, method)
    hook = "solitaire_variant_files"
    cache = VariantCache.default()
    for plugin, files in _call_each(pm, hook, registry.problems):
        for file in _items(plugin, hook, files, registry.problems):
            definition = _load_file(plugin, file, registry, cache)
            if definition is None:
                continue
            if definition.id in registry.variants:
                other = registry.variants[definition.id].plugin
                registry.problems.append(
                    PluginProblem(
                        plugin,
                        definition.source,
                        f"variant id {definition.id!r} is already taken by plugin {other!r}",
                    )
                )
                continue
            registry.variants[definition.id] = definition
    cache.save()
    return registry


def _load_file(
    plugin: str, file: object, registry: Registry, cache: VariantCache | None = None
) -> VariantDefinition | None:
    """Read and validate one variant file a plugin named; ``None`` (recorded) if it is
    not a path or ``importlib.resources`` traversable, cannot be read, or is invalid.
    ``cache`` holds the texts already read and checked (:func:`parse_variant`)."""
    hook = "solitaire_variant_files"
    if isinstance(file, (str, bytes)) or not (
        isinstance(file, os.PathLike) or callable(getattr(file, "read_bytes", None))
    ):
        registry.problems.append(
            PluginProblem(
                plugin, hook, f"{_shown(file)} is not a Path or an importlib.resources file"
            )
        )
        return None
    name = str(file) if isinstance(file, os.PathLike) else _guard_name(file)
    try:
        if isinstance(file, os.PathLike):
            data = read_file_bytes(file, MAX_VARIANT_BYTES)
        else:  # a Traversable inside a zip or similar: plugin-provided code reads it
            data = _guard(registry.problems, plugin, name, file.read_bytes)  # type: ignore[attr-defined]
            if not isinstance(data, bytes) or len(data) > MAX_VARIANT_BYTES:
                raise VariantError(name, "", "not readable as a variant file")
        text = decode_variant_text(data, name)
        definition = parse_variant(
            text, name, plugin=plugin, predicates=registry.predicates, cache=cache
        )
        method = definition.data["deal"].get("method", "pysolfc")
        if method != "pysolfc" and method not in registry.deal_methods:
            raise VariantError(
                name, "deal.method", f"no plugin registers the deal method {method!r}"
            )
    except _PluginFailed:
        return None
    except VariantError as exc:
        registry.problems.append(PluginProblem(plugin, Path(name).name, str(exc)))
        return None
    except OSError as exc:
        registry.problems.append(PluginProblem(plugin, Path(name).name, _unreadable(name, exc)))
        return None
    return definition


def _unreadable(name: str, exc: OSError) -> str:
    """Why the variant file ``name`` could not be read, in words: ``"/p/x.toml is a FIFO
    (named pipe), not a file"``, ``"/p/x.toml: cannot be read: Permission denied"``."""
    if isinstance(exc, (NotARegularFileError, TooLargeError)):
        return str(exc)  # it names the file and what it is
    if exc.errno == errno.ELOOP:
        return f"{name}: cannot be read: it is a symbolic link that leads back to itself"
    if isinstance(exc, FileNotFoundError):
        return f"{name}: cannot be read: it is a symbolic link to nothing, or was removed"
    return f"{name}: cannot be read: {exc.strerror or exc}"


def _guard_name(file: object) -> str:
    try:
        name = getattr(file, "name", None)
    except BaseException:  # noqa: BLE001 - plugin code
        name = None
    return name if isinstance(name, str) and name else "a plugin resource"


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
    "PluginDealError",
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
