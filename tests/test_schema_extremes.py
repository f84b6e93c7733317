"""The schema's extremes through the command line: whatever ``solitaire check`` accepts,
``show`` deals and ``solve`` decides (or runs out of budget on) without a traceback, and
what it refuses, ``show`` and ``solve`` refuse with the same one-line message.

The cases are read from ``solitaire_core/variant-schema.json`` itself: each numeric key at
its minimum and its maximum, each item of a list of numbers at its bounds, each
enumeration's choices, each boolean both ways, each built-in rule name a string key
takes. A case sets one key (with the few companion keys that make the value meaningful,
:func:`companions`) in a small one-deck FreeCell-like game, then lays the columns out
again so the deal places every card (:func:`repair_deal`), so that the value reaches the
deal and the engines instead of stopping at the card count.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from solitaire_core import cli
from solitaire_core.predicates import BUILTIN_PREDICATES
from solitaire_core.variant import load_schema

BASE: dict[str, Any] = {
    "format_version": 1,
    "id": "extreme",
    "name": "Extreme",
    "decks": 1,
    "autoplay": "safe",
    "tableau": {
        "columns": 8,
        "build": "down-alternate-colors",
        "empty": "any",
        "move_limit": "supermove",
    },
    "cells": {"count": 4},
    "foundations": {"count": 4},
    "deal": {"columns": 0},
}
"""FreeCell's rules; :func:`repair_deal` writes the column counts."""

SOLVE_STATUSES = {cli.EXIT_OK, cli.EXIT_UNWINNABLE, cli.EXIT_UNDECIDED}
"""``solitaire solve``'s documented exit statuses for a search that ran: winnable,
unwinnable, undecided."""

MAX_STATES = "300"


# -- the cases ---------------------------------------------------------------------------


def _resolve(node: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref:
        target: Any = schema
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        return {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _bounds(node: dict[str, Any]) -> list[int]:
    """The stated minimum and maximum of an integer node (the ones it states)."""
    return [node[k] for k in ("minimum", "maximum") if k in node]


def values_of(node: dict[str, Any], schema: dict[str, Any]) -> list[Any]:
    """The extreme values of one schema node: an integer's bounds, a list of integers
    holding one bound, each enumeration or constant, both booleans; ``oneOf`` branches
    each. Strings without an enumeration and tables give none here."""
    node = _resolve(node, schema)
    values: list[Any] = []
    if "enum" in node:
        values += node["enum"]
    if "const" in node:
        values.append(node["const"])
    for branch in node.get("oneOf", ()):
        values += values_of(branch, schema)
    kind = node.get("type")
    if kind == "integer":
        values += _bounds(node)
    elif kind == "boolean":
        values += [True, False]
    elif kind == "array" and isinstance(node.get("items"), dict):
        items = _resolve(node["items"], schema)
        if items.get("type") == "integer":
            values += [[v] for v in _bounds(items)]
    return values


STRING_RULES: dict[str, list[str]] = {
    "tableau.build": sorted(p.name for p in BUILTIN_PREDICATES.values() if p.kind == "build"),
    "tableau.run": ["build", "face-up", "down-in-suit"],
    "tableau.empty": ["king", "any", "none", "below-base"],
}
"""The built-in names a free-text key takes (docs/variant-format.md)."""

SKIPPED = {"id", "name", "summary", "aliases", "sources", "deal.method", "options"}
"""Texts with no bearing on play, and tables of their own (options are walked by the
loader's own tests)."""


def cases() -> Iterator[tuple[str, Any]]:
    """Every (dotted key, value) the schema's extremes give, the group keys as
    ``foundations.groups.0.KEY``."""
    schema = load_schema()

    def walk(node: dict[str, Any], prefix: str) -> Iterator[tuple[str, Any]]:
        for name, sub in node.get("properties", {}).items():
            key = f"{prefix}{name}"
            if key in SKIPPED:
                continue
            sub = _resolve(sub, schema)
            if key in STRING_RULES:
                yield from ((key, v) for v in STRING_RULES[key])
            elif "properties" in sub:
                yield from walk(sub, key + ".")
            elif sub.get("type") == "array" and "properties" in sub.get("items", {}):
                yield from walk(sub["items"], f"{key}.0.")
            else:
                seen: list[Any] = []
                for value in values_of(sub, schema):
                    if value not in seen:
                        seen.append(value)
                        yield key, value

    yield from walk(schema, "")


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    table: Any = data
    *parents, leaf = dotted.split(".")
    for part in parents:
        if part.isdigit():
            table = table[int(part)]
            continue
        if part == "groups" and part not in table:
            table[part] = [{}]
        table = table.setdefault(part, {})
    table[leaf] = value


def companions(key: str, value: Any) -> dict[str, Any]:
    """The other keys a value needs to mean something (and pass the loader's checks that
    relate keys): more foundation piles for more decks, wrap for a base the deal sets,
    a stock for keys of ``[stock]``. Applied before the case's own key."""
    extra: dict[str, Any] = {}
    decks = value if key == "decks" else 1
    if key == "deal.foundations.deck":
        decks = value
        extra["deal.foundations.ranks"] = [1]
    if decks > 1:
        extra["decks"] = decks
        extra["foundations.count"] = 4 * decks
    group = key.startswith("foundations.groups.")
    where = "foundations.groups.0." if group else "foundations."
    if group:
        extra["foundations.groups"] = [{"count": 4}]
        if key.endswith(".count"):
            extra["foundations.count"] = value
    if key.endswith(("foundations.count", ".count")) and key.startswith("foundations"):
        piles = value
        if piles < 4 * decks:
            extra[where + "build"] = "up-any-suit"
            extra[where + "wrap"] = True
            extra[where + "cards"] = -(-52 * decks // piles)
    if key.endswith(".cards") and key.startswith("foundations"):
        if value > 13:
            extra[where + "wrap"] = True
            extra[where + "build"] = "up-any-suit"
            extra["foundations.count"] = max(1, -(-52 * decks // value))
            if group:
                extra["foundations.groups"] = [{"count": extra["foundations.count"]}]
        elif value < 13:
            extra["foundations.count"] = 16
            extra[where + "build"] = "up-any-suit"
            extra[where + "wrap"] = True
            if group:
                extra["foundations.groups"] = [{"count": 1}, {"count": 15}]
    if key.endswith("base_rank"):
        if value in ("deal", "first-played"):
            extra[where + "wrap"] = True
        if value == "deal":
            extra["deal.foundations.last"] = 4
        if value == 13:
            extra[where + "build"] = "down-in-suit"
        if value == "first-played":
            extra["autoplay"] = "off"
    if key.endswith(".build") and value == "down-in-suit" and key.startswith("foundations"):
        extra[where + "base_rank"] = 13
    if key == "foundations.only_complete_suits" and value:
        extra["tableau.build"] = "down-in-suit"
    if key == "tableau.run" and value not in ("build", "face-up"):
        extra["tableau.build"] = "down-any-suit"  # a run rule must be at least as strict
    if key in ("deal.columns", "deal.face_down") and isinstance(value, list):
        extra["tableau.columns"] = len(value)  # one count per column
        extra["stock.deal"] = "waste"
    if key == "tableau.empty" and value == "below-base":
        extra["tableau.build"] = "down-in-suit"
    if key == "deal.foundations.ranks":
        if value != [1]:
            extra["foundations.build"] = "down-in-suit"
            extra["foundations.base_rank"] = value[0]
            if value[0] != 13:
                extra["foundations.wrap"] = True
    if key in ("deal.foundations.count",):
        extra["deal.foundations.ranks"] = [1]
    if key in ("deal.foundations.twins_of_first", "deal.foundations.last") and value:
        extra["foundations.base_rank"] = "deal"
        extra["foundations.wrap"] = True
    if key.startswith("stock.") or key == "deal.stock_deals" or key == "deal.face_down":
        extra["stock.deal"] = "waste"
        if key in ("stock.row", "stock.row_onto_empty") or value == "row":
            extra["stock.deal"] = "row"
    if key == "deal.columns" and value == 0:
        extra["stock.deal"] = "waste"
    if key == "deal.order" and value == "kings-start-columns":
        extra["tableau.columns"] = 5
    if key == "deal.cells":
        extra["cells.count"] = max(4, *value)
    if key == "tableau.columns" and value < 4:
        extra["cells.count"] = 16
    if key == "tableau.columns" and value > 20:  # more than 20 only as a layout (Pyramid)
        extra["tableau.layout"] = [[i % 10, i // 10] for i in range(value)]
        extra["tableau.build"] = extra["tableau.empty"] = "none"
    return extra


def repair_deal(data: dict[str, Any]) -> None:
    """Deal the columns so that every card is placed once (with a stock, about half of
    them): the cards left after the cells and the foundation cards, row by row. Left as
    written when the case set the columns, the passes or the order that needs none."""
    deal = data["deal"]
    if deal.get("order") == "kings-start-columns":
        deal.pop("columns", None)
        return
    if "passes" in deal:
        return
    decks = data["decks"]
    found = deal.get("foundations", {})
    ranks = found.get("ranks", [])
    taken = found.get("count") or 4 * len(ranks) * (1 if found.get("deck") else decks)
    taken += 3 * bool(found.get("twins_of_first")) + found.get("last", 0)
    left = 52 * decks - len(deal.get("cells", [])) - taken
    if "stock" in data:
        left //= 2
    columns = data["tableau"]["columns"]
    if left < 0:
        return
    deal["columns"] = [left // columns + (i < left % columns) for i in range(columns)]
    if "face_down" in deal:
        down = deal["face_down"]
        if isinstance(down, int) and down > 0:
            deal["face_down"] = [min(down, max(n - 1, 0)) for n in deal["columns"]]


def variant_text(key: str, value: Any, alone: bool = False) -> str:
    """The TOML text of the case ``key = value`` (with an id of its own: the command line
    adds each file it is given to the process's variants).

    :param alone: leave the companion keys out (the loader must then refuse what the
        value needs and the file lacks, or the engines play it as it is).
    """
    data = copy.deepcopy(BASE)
    slug = _id(key, value).lower().replace("[", "-list-") + ("-alone" if alone else "")
    data["id"] = "extreme-" + re.sub(r"[^a-z0-9]+", "-", slug).strip("-")
    for k, v in ({} if alone else companions(key, value)).items():
        _set(data, k, v)
    if key == "deal.columns" or key == "deal.passes":
        _set(data, key, value)
        if key == "deal.passes":
            repair_deal(data)
            data["deal"]["passes"] = [value[0] if value else 0, data["deal"]["columns"]]
            first = data["deal"]["passes"][0]
            if first:
                data["deal"]["columns"] = [n + first for n in data["deal"]["columns"]]
    else:
        _set(data, key, value)
        repair_deal(data)
    if "stock" in data:
        data["stock"].setdefault("deal", "waste")
    return tomli_w.dumps(data)


CASES = list(cases())
WALK = [(k, v, False) for k, v in CASES] + [(k, v, True) for k, v in CASES if companions(k, v)]
"""Each case with its companions, and alone where it has some."""


def _id(key: str, value: Any) -> str:
    return f"{key}={value}".replace(" ", "")


# -- the walk ----------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def through_the_command_line(capsys: pytest.CaptureFixture[str], path: Path) -> int:
    """Run ``check``, ``show`` and ``solve`` on the file at ``path`` and assert they agree:
    a file ``check`` refuses (exit status 1) ``show`` and ``solve`` refuse with the same
    line (status 2: a variant named on the command line is an argument); a file it
    accepts ``show`` deals (0) and ``solve`` searches (0, 3 or 4); never a traceback.

    :return: the exit status of ``check``.
    """
    checked, out, err = run(capsys, "check", str(path))
    assert checked in (cli.EXIT_OK, cli.EXIT_FAILURE), err
    assert "Traceback" not in err
    if checked == cli.EXIT_FAILURE:
        message = err.strip()
        assert message.startswith(f"solitaire: error: {path}: ") and "\n" not in message
        for command in (["show", str(path)], ["solve", str(path), "--deal", "1"]):
            status, _out, err = run(capsys, *command)
            assert (status, err.strip()) == (cli.EXIT_USAGE, message), command
        return checked
    status, out, err = run(capsys, "show", str(path), "--deal", "1")
    assert status == cli.EXIT_OK, err
    status, out, err = run(
        capsys, "solve", str(path), "--deal", "1", "--max-states", MAX_STATES, "--timeout", "5"
    )
    assert status in SOLVE_STATUSES, err
    assert "Traceback" not in err
    return checked


@pytest.mark.parametrize(
    ("key", "value", "alone"),
    [pytest.param(k, v, a, id=_id(k, v) + (",alone" if a else "")) for k, v, a in WALK],
)
def test_an_extreme_is_refused_by_check_or_deals_and_solves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: Any, alone: bool
) -> None:
    path = tmp_path / "extreme.toml"
    path.write_text(variant_text(key, value, alone), "utf-8")
    through_the_command_line(capsys, path)


PENGUIN_FOUNDATIONS = {
    "tableau.build": "down-in-suit",
    "tableau.wrap": True,
    "tableau.empty": "below-base",
    "foundations.base_rank": "deal",
    "foundations.wrap": True,
    "deal.foundations.twins_of_first": True,
}

REPORTED: list[tuple[str, dict[str, Any], int]] = [
    (
        "two-deck-twins",
        {**PENGUIN_FOUNDATIONS, "decks": 2, "foundations.count": 8, "tableau.columns": 14},
        cli.EXIT_OK,
    ),
    ("twins-on-ace-piles", {"deal.foundations.twins_of_first": True}, cli.EXIT_FAILURE),
    ("last-on-ace-piles", {"deal.foundations.last": 4}, cli.EXIT_FAILURE),
    (
        "pile-of-104",
        {"decks": 2, "foundations.count": 1, "foundations.build": "up-any-suit",
         "foundations.wrap": True, "foundations.cards": 104},
        cli.EXIT_OK,
    ),
]  # fmt: skip
"""The fuzzing report's files: two decks with twins_of_first (StopIteration in the deal),
twins and last cards on Ace piles (Jacks on Aces: ValueError in the solver), a pile of 104
cards (the C core's "a pile out of range"). Each setting over :data:`BASE`."""


@pytest.mark.parametrize(
    ("settings", "checked"), [pytest.param(s, c, id=i) for i, s, c in REPORTED]
)
def test_the_fuzzing_reports_files_are_refused_or_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], settings: dict[str, Any], checked: int
) -> None:
    data = copy.deepcopy(BASE)
    for key, value in settings.items():
        _set(data, key, value)
    repair_deal(data)
    data["id"] = "reported-" + "-".join(sorted(settings)).replace(".", "-").replace("_", "-")
    path = tmp_path / "reported.toml"
    path.write_text(tomli_w.dumps(data), "utf-8")
    assert through_the_command_line(capsys, path) == checked


ACCEPTED = [
    ("decks", 1),
    ("decks", 4),
    ("tableau.columns", 1),
    ("tableau.columns", 28),
    ("cells.count", 0),
    ("cells.count", 16),
    ("foundations.count", 1),
    ("foundations.count", 16),
    ("foundations.cards", 104),
    ("foundations.groups.0.count", 1),
    ("foundations.groups.0.count", 16),
    ("foundations.groups.0.cards", 1),
    ("foundations.groups.0.cards", 104),
    ("foundations.base_rank", 1),
    ("foundations.base_rank", 13),
    ("deal.columns", 0),
    ("deal.cells", [1]),
    ("deal.bottom_ranks", [1]),
    ("deal.bottom_ranks", [13]),
    ("deal.first_ranks", [1]),
    ("deal.first_ranks", [13]),
    ("deal.stock_deals", 0),
    ("deal.stock_deals", 8),
    ("deal.foundations.ranks", [1]),
    ("deal.foundations.ranks", [13]),
    ("deal.foundations.count", 1),
    ("deal.foundations.deck", 1),
    ("deal.foundations.deck", 4),
    ("deal.foundations.last", 1),
    ("stock.draw", 1),
    ("stock.draw", 52),
    ("stock.redeals", 0),
    ("stock.redeals", 100),
    ("stock.row", [1]),
    ("pysolfc_id", 1),
]
"""Every stated bound the loader accepts in some file: the schema's numbers are the
loader's (the rest of a file decides whether it is a game; these are)."""


@pytest.mark.parametrize(("key", "value"), [pytest.param(k, v, id=_id(k, v)) for k, v in ACCEPTED])
def test_the_schema_bounds_are_the_loaders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: Any
) -> None:
    assert (key, value) in CASES
    path = tmp_path / "extreme.toml"
    path.write_text(variant_text(key, value), "utf-8")
    status, _out, err = run(capsys, "check", str(path))
    assert status == cli.EXIT_OK, err
