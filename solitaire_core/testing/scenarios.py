"""Scenario files: small, named rule examples with the result the rules text demands.

A scenario file is TOML (the format is documented in docs/scenarios.md)::

    variant = "seahaven"

    [[scenario]]
    name = "a card builds down in suit"
    source = "seahaven-towers-program-help.txt: a card goes on the next higher card of its suit"
    position = "6S,5S - - - - - - - - - | - - - - | - - - -"
    move = "t1>t2"
    legal = true
    result = "6S - 5S - - - - - - - | - - - - | - - - -"

Built-in variants ship theirs in ``variants/scenarios/``; :func:`builtin_scenario_files`
lists them.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import IllegalMoveError, SolitaireError
from ..moves import Move
from ..readfile import read_file_bytes
from ..state import GameState
from ..variant import Rules, VariantDefinition

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

if TYPE_CHECKING:
    from typing import TypeAlias

    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:  # Python 3.10 has it in importlib.abc only
        from importlib.abc import Traversable

    ScenarioSource: TypeAlias = Path | Traversable

_FILE_KEYS = {"variant", "options", "scenario"}
_MOVE_KEYS = {"position", "move", "legal", "result", "after_autoplay", "won", "reason"}
_DEAL_KEYS = {"deal", "columns", "cells", "foundations", "face_down", "stock", "waste", "reserve"}
_COMMON_KEYS = {"name", "source", "options", "cheat"}


class ScenarioError(SolitaireError):
    """A scenario file is malformed; the message names the file, the scenario and the key."""


@attrs.frozen
class Scenario:
    """One scenario.

    :param file: the file it came from (for messages).
    :param variant: the variant id it is about.
    :param name: a short title, unique within the file.
    :param source: the rule it demonstrates, as ``"file: quoted sentence or paraphrase"``.
    :param options: option values (merged over the file's ``options``).
    :param cheat: play in the Cheat difficulty.
    :param position: a ``GameState.to_text`` position (move scenarios).
    :param move: the move, in move notation.
    :param legal: whether the move must be accepted.
    :param result: the position right after the move, before autoplay (optional).
    :param after_autoplay: the position after the move and the variant's autoplay, as a
        session plays (optional).
    :param won: whether the game must then be won (optional).
    :param reason: for an illegal move, a text the refusal's reason must contain (case is
        ignored).
    :param deal: a deal number (deal scenarios).
    :param columns: cards per column the deal must show.
    :param cells: 1-based numbers of the cells the deal must fill.
    :param foundations: the foundations the deal must show, in ``GameState.to_text`` form
        (``"AC AS AH AD"``); when not given, the deal must leave them empty.
    :param face_down: face-down cards per column the deal must show (when given).
    :param stock: cards the deal must leave in the stock (when given).
    :param waste: cards the deal must put on the waste (when given).
    :param reserve: cards the deal must put in the reserve (when given).
    """

    file: str
    variant: str
    name: str
    source: str
    options: tuple[tuple[str, str], ...] = ()
    cheat: bool = False
    position: str | None = None
    move: str | None = None
    legal: bool | None = None
    result: str | None = None
    after_autoplay: str | None = None
    won: bool | None = None
    reason: str | None = None
    deal: int | None = None
    columns: tuple[int, ...] | None = None
    cells: tuple[int, ...] | None = None
    foundations: str | None = None
    face_down: tuple[int, ...] | None = None
    stock: int | None = None
    waste: int | None = None
    reserve: int | None = None

    @property
    def kind(self) -> str:
        """``"move"`` or ``"deal"``."""
        return "deal" if self.deal is not None else "move"

    @property
    def label(self) -> str:
        """``file: name`` for messages and test ids."""
        return f"{self.file}: {self.name}"


def builtin_scenario_files() -> list[Traversable]:
    """The scenario files shipped with the built-in variants (``variants/scenarios``),
    sorted by name."""
    folder = resources.files("solitaire_variants").joinpath("scenarios")
    if not folder.is_dir():
        return []
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)


def load_scenario_file(path: str | ScenarioSource) -> list[Scenario]:
    """Read and check a scenario file.

    :param path: a file path or an ``importlib.resources`` traversable.
    :raises ScenarioError: naming the file, the scenario and the key, for TOML syntax
        errors, unknown or missing keys and wrongly typed values.
    """
    source = Path(path) if isinstance(path, str) else path
    name = getattr(source, "name", str(source))
    try:
        if isinstance(source, os.PathLike):  # a FIFO is refused, not waited on
            raw = read_file_bytes(source, MAX_SCENARIO_BYTES)
        else:
            raw = source.read_bytes()
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{name}: cannot read the file: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{name}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ScenarioError(f"{name}: not valid: arrays or tables nested too deeply") from None
    except ValueError as exc:  # the integer digit limit
        raise ScenarioError(f"{name}: not valid: a number is too long ({exc})") from None
    return parse_scenarios(data, name)


MAX_SCENARIO_BYTES = 16 * 1024 * 1024
"""Larger scenario files are refused unread."""


def parse_scenarios(data: Mapping[str, Any], file: str) -> list[Scenario]:
    """Check a parsed scenario table (see :func:`load_scenario_file`)."""
    unknown = set(data) - _FILE_KEYS
    if unknown:
        raise ScenarioError(
            f"{file}: unknown key {sorted(unknown)[0]!r} (expected {sorted(_FILE_KEYS)})"
        )
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant:
        raise ScenarioError(f'{file}: variant: expected the variant id, e.g. variant = "seahaven"')
    base = _options(data.get("options", {}), f"{file}: options")
    tables = data.get("scenario", [])
    if not isinstance(tables, list) or not tables:
        raise ScenarioError(f"{file}: expected at least one [[scenario]] table")
    out: list[Scenario] = []
    names: set[str] = set()
    for number, table in enumerate(tables, start=1):
        where = f"{file}: scenario {number}"
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            where += f" ({table['name']})"
        out.append(_scenario(table, file, variant, base, where))
        if out[-1].name in names:
            raise ScenarioError(f"{where}: name: {out[-1].name!r} is used twice in this file")
        names.add(out[-1].name)
    return out


def _options(value: object, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ScenarioError(f'{where}: expected a table of option = "value" strings')
    return dict(value)


def _scenario(table: object, file: str, variant: str, base: dict[str, str], where: str) -> Scenario:
    if not isinstance(table, dict):
        raise ScenarioError(f"{where}: expected a table")
    kind_keys = _DEAL_KEYS if "deal" in table else _MOVE_KEYS
    unknown = set(table) - _COMMON_KEYS - kind_keys
    if unknown:
        allowed = sorted(_COMMON_KEYS | kind_keys)
        raise ScenarioError(
            f"{where}: unknown key {sorted(unknown)[0]!r} (expected one of {allowed})"
        )
    required = {"name", "source"} | (
        {"deal", "columns"} if "deal" in table else {"position", "move", "legal"}
    )
    for key in sorted(required):
        if key not in table:
            raise ScenarioError(f"{where}: {key}: missing (this key is required)")

    def text(key: str) -> str | None:
        value = table.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ScenarioError(f"{where}: {key}: expected a non-empty string")
        return value

    def flag(key: str) -> bool | None:
        value = table.get(key)
        if value is not None and not isinstance(value, bool):
            raise ScenarioError(f"{where}: {key}: expected true or false")
        return value

    def numbers(key: str) -> tuple[int, ...] | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(n, int) and n >= 0 for n in value):
            raise ScenarioError(f"{where}: {key}: expected a list of whole numbers")
        return tuple(value)

    source = text("source") or ""
    if ":" not in source:
        raise ScenarioError(f'{where}: source: expected "file: quoted sentence or paraphrase"')
    options = {**base, **_options(table.get("options", {}), f"{where}: options")}
    legal = flag("legal")
    if legal is False and "reason" not in table:
        raise ScenarioError(f"{where}: reason: an illegal move needs the reason it is refused")
    if legal is True and "reason" in table:
        raise ScenarioError(f"{where}: reason: only an illegal move has a reason")
    if legal is False and ({"result", "after_autoplay", "won"} & set(table)):
        raise ScenarioError(f"{where}: an illegal move has no result")
    deal = table.get("deal")
    if deal is not None and (not isinstance(deal, int) or deal < 1):
        raise ScenarioError(f"{where}: deal: expected a deal number >= 1")
    for key in ("stock", "waste", "reserve"):
        value = table.get(key)
        if value is not None and (type(value) is not int or value < 0):
            raise ScenarioError(f"{where}: {key}: expected a whole number of cards")
    return Scenario(
        file=file,
        variant=variant,
        name=text("name") or "",
        source=source,
        options=tuple(sorted(options.items())),
        cheat=bool(flag("cheat")),
        position=text("position"),
        move=text("move"),
        legal=legal,
        result=text("result"),
        after_autoplay=text("after_autoplay"),
        won=flag("won"),
        reason=text("reason"),
        deal=deal,
        columns=numbers("columns"),
        cells=numbers("cells"),
        foundations=text("foundations"),
        face_down=numbers("face_down"),
        stock=table.get("stock"),
        waste=table.get("waste"),
        reserve=table.get("reserve"),
    )


def scenario_applies(
    scenario: Scenario, rules: Rules, definition: VariantDefinition | None = None
) -> bool:
    """Whether ``scenario`` is about ``rules``: same variant id and, once the variant's
    defaults fill in the options it does not name, the same option values.

    :param definition: the variant, for its defaults; when ``None`` the installed variant
        with the rules' id is used, and failing that a scenario must name every option the
        rules carry.
    """
    if scenario.variant != rules.id:
        return False
    if definition is None:
        from ..plugins import get_registry

        definition = get_registry().variants.get(rules.id)
    chosen = dict(definition.default_options()) if definition is not None else {}
    chosen.update(scenario.options)
    return chosen == rules.option_dict


def run_scenario(
    scenario: Scenario, definition: VariantDefinition | None, *, rules: Rules | None = None
) -> None:
    """Play ``scenario`` and check the result.

    :param definition: the variant (its options are resolved as the scenario says); may be
        ``None`` when ``rules`` is given and matches the scenario.
    :raises AssertionError: ``file: name: what differed`` when the engine disagrees.
    :raises ScenarioError: when a position text does not fit the variant.
    """
    if definition is not None:
        rules = definition.resolve(dict(scenario.options))
    if rules is None:
        raise ValueError("run_scenario needs a definition or rules")
    label = scenario.label
    if scenario.kind == "deal":
        _run_deal(scenario, rules, label)
        return
    state = _position(rules, scenario.position or "", label, "position")
    move_text = scenario.move or ""
    try:
        move = Move.parse(move_text)
    except IllegalMoveError as exc:
        if scenario.legal:
            raise AssertionError(f"{label}: {move_text!r} is not a move: {exc.reason}") from None
        _expect_reason(scenario, exc.reason, label)
        return
    from ..rules import apply, autoplay_moves, explain

    reason = explain(state, move, cheat=scenario.cheat)
    if not scenario.legal:
        if reason is None:
            raise AssertionError(f"{label}: {move} was accepted; expected it refused")
        _expect_reason(scenario, reason, label)
        return
    if reason is not None:
        raise AssertionError(f"{label}: {move} was refused ({reason}); expected it legal")
    after = apply(state, move, cheat=scenario.cheat)
    if scenario.result is not None:
        _expect_position(after, _position(rules, scenario.result, label, "result"), label, "result")
    final = after
    if scenario.after_autoplay is not None or scenario.won is not None:
        final, _ = autoplay_moves(after)
    if scenario.after_autoplay is not None:
        expected = _position(rules, scenario.after_autoplay, label, "after_autoplay")
        _expect_position(final, expected, label, "after_autoplay")
    if scenario.won is not None and final.is_won != scenario.won:
        raise AssertionError(f"{label}: won is {final.is_won}, expected {scenario.won}")


def _run_deal(scenario: Scenario, rules: Rules, label: str) -> None:
    from ..deal import deal
    from .reference import all_cards

    state = deal(rules, scenario.deal or 1)
    sizes = tuple(len(col) for col in state.columns)
    if scenario.columns is not None and sizes != scenario.columns:
        raise AssertionError(
            f"{label}: columns hold {list(sizes)} cards, expected {list(scenario.columns)}"
        )
    filled = tuple(i + 1 for i, c in enumerate(state.cells) if c is not None)
    if scenario.cells is not None and filled != tuple(sorted(scenario.cells)):
        raise AssertionError(
            f"{label}: cells {list(filled)} are filled, expected {sorted(scenario.cells)}"
        )
    down = tuple(state.hidden) or (0,) * len(state.columns)
    if scenario.face_down is not None and down != scenario.face_down:
        raise AssertionError(
            f"{label}: {list(down)} cards lie face down, expected {list(scenario.face_down)}"
        )
    for key, pile in (("stock", state.stock), ("waste", state.waste), ("reserve", state.reserve)):
        wanted = getattr(scenario, key)
        if wanted is not None and len(pile) != wanted:
            raise AssertionError(f"{label}: the {key} holds {len(pile)} cards, expected {wanted}")
    if Counter(state.all_cards()) != Counter(all_cards(rules)):
        raise AssertionError(f"{label}: the deal does not hold each card exactly once")
    founds = state.to_text().split("|")[2].strip()
    if scenario.foundations is not None:
        if founds != scenario.foundations.strip():
            raise AssertionError(
                f"{label}: the foundations are {founds!r} after the deal, "
                f"expected {scenario.foundations!r}"
            )
    elif any(state.foundations):
        raise AssertionError(f"{label}: a foundation is not empty after the deal")


def _position(rules: Rules, text: str, label: str, key: str) -> GameState:
    try:
        return GameState.from_text(rules, text)
    except ValueError as exc:
        raise ScenarioError(f"{label}: {key}: {exc}") from None


def _expect_position(got: GameState, expected: GameState, label: str, key: str) -> None:
    if got != expected:
        raise AssertionError(
            f"{label}: {key}:\n  expected {expected.to_text()}\n  got      {got.to_text()}"
        )


def _expect_reason(scenario: Scenario, reason: str, label: str) -> None:
    wanted = scenario.reason or ""
    if wanted.lower() not in reason.lower():
        raise AssertionError(
            f"{label}: refused because {reason!r}; expected a reason containing {wanted!r}"
        )


def scenarios_for(
    variant_id: str, files: Iterable[str | ScenarioSource] | None = None
) -> list[Scenario]:
    """Every scenario about ``variant_id`` in ``files`` (default: the built-in files)."""
    sources = builtin_scenario_files() if files is None else files
    out: list[Scenario] = []
    for path in sources:
        out += [s for s in load_scenario_file(path) if s.variant == variant_id]
    return out
