"""Variant options as an immutable, hashable mapping with one canonical text form."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

__all__ = ["FrozenOptions", "options_from_key", "options_key", "to_options"]


def _check_pair(key: object, value: object) -> None:
    if not isinstance(key, str) or not isinstance(value, str):
        raise TypeError(
            f"option names and values must be strings, got {key!r}: {value!r} "
            f"({type(key).__name__}: {type(value).__name__})"
        )
    if not key or "=" in key or "," in key:
        raise ValueError(f"option name {key!r} must be non-empty and contain no '=' or ','")
    if "," in value:
        raise ValueError(f"option value {value!r} (of {key!r}) must not contain ','")


class FrozenOptions(Mapping[str, str]):
    """An immutable ``str -> str`` mapping of variant options, e.g. ``{"redeals": "2"}``.

    Compares equal to any mapping with the same items (including a plain ``dict``), is
    hashable, and iterates in sorted key order.  Names must be non-empty and contain no
    ``=`` or ``,``; values must contain no ``,`` -- this keeps the canonical key
    (:meth:`key`) unambiguous.

    Args:
        items: a mapping or an iterable of ``(name, value)`` pairs.

    Raises:
        TypeError: a name or value is not a ``str``.
        ValueError: a name is empty or contains ``=``/``,``, or a value contains ``,``.
    """

    __slots__ = ("_data", "_hash")

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        data = dict(items)
        for key, value in data.items():
            _check_pair(key, value)
        self._data: dict[str, str] = dict(sorted(data.items()))
        self._hash = hash(tuple(self._data.items()))

    def __getitem__(self, key: str) -> str:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenOptions({self._data!r})"

    def to_dict(self) -> dict[str, str]:
        """Return a new plain ``dict`` with the same items."""
        return dict(self._data)

    def key(self) -> str:
        """Return the canonical text form: sorted ``name=value`` joined by ``,``.

        ``{"b": "2", "a": "1"}`` gives ``"a=1,b=2"``; no options give ``""``.
        """
        return ",".join(f"{key}={value}" for key, value in self._data.items())


def to_options(value: Mapping[str, str] | Iterable[tuple[str, str]] | None) -> FrozenOptions:
    """Convert a dict, a mapping, pairs or ``None`` (no options) to :class:`FrozenOptions`.

    Raises:
        TypeError, ValueError: as for :class:`FrozenOptions`; also TypeError for a ``str``.
    """
    if isinstance(value, FrozenOptions):
        return value
    if value is None:
        return FrozenOptions()
    if isinstance(value, (str, bytes)):
        raise TypeError("options must be a mapping of names to values, not a string")
    return FrozenOptions(value)


def options_key(options: Mapping[str, str] | Iterable[tuple[str, str]] | None) -> str:
    """Return the canonical key of an option set (see :meth:`FrozenOptions.key`)."""
    return to_options(options).key()


def options_from_key(key: str) -> FrozenOptions:
    """Parse a canonical key made by :func:`options_key` back into options.

    Raises:
        ValueError: ``key`` is not in canonical form.
    """
    if not key:
        return FrozenOptions()
    pairs: list[tuple[str, str]] = []
    for part in key.split(","):
        name, sep, value = part.partition("=")
        if not sep:
            raise ValueError(f"{part!r} in option key {key!r} is not of the form name=value")
        pairs.append((name, value))
    result = FrozenOptions(pairs)
    if result.key() != key:
        raise ValueError(f"option key {key!r} is not canonical")
    return result
