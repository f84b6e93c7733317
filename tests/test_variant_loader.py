"""The variant file loader: every problem is reported as ``file: key.path: what was
expected``, never as a traceback, both from Python and from ``solitaire check``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from solitaire_core import cli
from solitaire_core.cards import Card
from solitaire_core.errors import VariantError
from solitaire_core.plugins import get_registry
from solitaire_core.predicates import BUILTIN_PREDICATES, RulePredicate
from solitaire_core.variant import load_schema, load_variant_file, parse_variant

SEA_TOWERS = files("solitaire_variants").joinpath("sea-towers.toml").read_text("utf-8")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "variant-format.md"


def edit(*pairs: str) -> str:
    """Sea Towers' file with texts replaced: ``edit(old, new, old2, new2, ...)`` (each
    replacement must apply)."""
    text = SEA_TOWERS
    for old, new in zip(pairs[::2], pairs[1::2]):
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


# (case id, file text, expected key path, fragment of the message)
MALFORMED = [
    ("missing-key", edit('name = "Sea Towers"\n', ""), "name", "missing"),
    ("missing-nested", edit('build = "down-in-suit"\n', ""), "tableau.build", "missing"),
    ("wrong-type", edit("decks = 1", 'decks = "one"'), "decks", "expected integer"),
    ("wrong-type-bool", edit("decks = 1", "decks = true"), "decks", "expected integer"),
    (
        "wrong-type-table",
        edit("[cells]\ncount = 4\n", "", "decks = 1", "decks = 1\ncells = 4"),
        "cells",
        "expected object",
    ),
    (
        "bad-family",
        edit('family = "seahaven"', 'family = "towers"'),
        "family",
        "expected one of 'freecell', 'seahaven'",
    ),
    ("unknown-key", edit("decks = 1", 'decks = 1\ncolour = "red"'), "colour", "unknown key"),
    (
        "unknown-nested",
        edit("count = 4\n\n[foundations]", "count = 4\nsize = 2\n\n[foundations]"),
        "cells.size",
        "unknown key",
    ),
    (
        "bad-enum",
        edit('autoplay = "all"', 'autoplay = "sometimes"'),
        "autoplay",
        "expected one of 'off', 'safe', 'all'",
    ),
    (
        "bad-scoring",
        edit('autoplay = "all"', 'autoplay = "all"\nscoring = "points"'),
        "scoring",
        "expected one of 'cards', 'standard', 'vegas', 'vegas-cumulative', 'spider', "
        "'cards-left', 'tri-peaks', got 'points'",
    ),
    (
        "bad-scoring-option",
        edit(
            '"tableau.move_limit" = "supermove" }',
            '"tableau.move_limit" = "supermove", "scoring" = "vegas-bank" }',
        ),
        "options.empty_columns.choices.any.set",
        "with this choice, scoring: expected one of 'cards'",
    ),
    (
        "bad-move-limit",
        edit('move_limit = "free-cells-plus-one"\n\n', 'move_limit = "two"\n\n'),
        "tableau.move_limit",
        "expected one of",
    ),
    ("bad-order", edit('order = "rows"', 'order = "diagonal"'), "deal.order", "expected one of"),
    (
        "too-few-cards",
        edit("columns = 5\n", "columns = 4\n"),
        "deal",
        "places 42 cards, but 1 deck(s) hold 52",
    ),
    ("too-many-cards", edit("cells = [2, 3]", "cells = [1, 2, 3]"), "deal", "places 53 cards"),
    (
        "column-list-length",
        edit("columns = 5\n", "columns = [5, 5, 5, 5, 5, 5, 5, 5, 10]\n"),
        "deal.columns",
        "lists 9 columns but tableau.columns is 10",
    ),
    (
        "column-list-type",
        edit("columns = 5\n", 'columns = [5, "five"]\n'),
        "deal.columns",
        "whole number or a list of whole numbers",
    ),
    (
        "cell-out-of-range",
        edit("cells = [2, 3]", "cells = [2, 5]"),
        "deal.cells",
        "cell 5 does not exist (cells.count is 4)",
    ),
    ("cell-zero", edit("cells = [2, 3]", "cells = [0, 3]"), "deal.cells.0", "at least 1"),
    ("cell-twice", edit("cells = [2, 3]", "cells = [2, 2]"), "deal.cells", "non-unique"),
    ("too-many-decks", edit("decks = 1", "decks = 5"), "decks", "at most 4"),
    (
        "foundation-count",
        edit("count = 4\nreturn", "count = 3\nreturn"),
        "foundations",
        "expected piles that can hold all 52 cards, but the 3 piles hold at most 39",
    ),
    (
        "unknown-build",
        edit('build = "down-in-suit"', 'build = "up-by-two"'),
        "tableau.build",
        "unknown rule 'up-by-two' (known build rules: down-alternate-colors",
    ),
    (
        "unknown-empty",
        edit('empty = "king"\nmove', 'empty = "queen"\nmove'),
        "tableau.empty",
        "unknown rule 'queen' (known empty rules: any, below-base, king, none)",
    ),
    (
        "build-rule-as-empty",
        edit('empty = "king"\nmove', 'empty = "down-in-suit"\nmove'),
        "tableau.empty",
        "unknown rule",
    ),
    (
        "bad-option-default",
        edit('default = "king"', 'default = "queen"'),
        "options.empty_columns.default",
        "'queen' is not one of the choices (king, any)",
    ),
    (
        "option-sets-unknown-rule",
        edit('"tableau.empty" = "any"', '"tableau.empty" = "queen"'),
        "options.empty_columns.choices.any.set",
        "tableau.empty: unknown rule 'queen'",
    ),
    (
        "option-sets-unknown-key",
        edit('"tableau.empty" = "any"', '"tableau.colour" = "red"'),
        "options.empty_columns.choices.any.set",
        "tableau.colour: unknown key",
    ),
    (
        "option-sets-inside-a-value",
        edit('"tableau.empty" = "any"', '"decks.count" = 2'),
        "options.empty_columns.choices.any.set",
        "decks is not a table",
    ),
    (
        "option-sets-id",
        edit('"tableau.empty" = "any"', 'id = "other"'),
        "options.empty_columns.choices.any.set",
        "an option cannot change 'id'",
    ),
    (
        "option-without-label",
        edit('label = "Empty columns take"\n', ""),
        "options.empty_columns.label",
        "missing",
    ),
    (
        "option-choice-bad-value",
        edit('"tableau.empty" = "any"', '"tableau.empty" = 1.5'),
        "options.empty_columns.choices.any.set.tableau.empty",
        "expected",
    ),
    (
        "format-version",
        edit("format_version = 1", "format_version = 2"),
        "format_version",
        "expected 1, got 2",
    ),
    (
        "deal-passes-sum",
        edit("columns = 5\ncells", "columns = 5\npasses = [4, 0]\ncells"),
        "deal.passes",
        "add up to [4, 4, 4, 4, 4, 4, 4, 4, 4, 4] cards per column, but deal.columns is [5,",
    ),
    (
        "deal-passes-length",
        edit("columns = 5\ncells", "columns = 5\npasses = [[5, 5], 0]\ncells"),
        "deal.passes.0",
        "lists 2 columns but tableau.columns is 10",
    ),
    (
        "deal-foundations-too-many",
        edit("columns = 5\ncells = [2, 3]", "columns = 4\nfoundations = { ranks = [1, 2, 3] }"),
        "deal.foundations",
        "puts 12 cards on the foundations, one per pile, but foundations.count is 4",
    ),
    (
        "deal-foundations-count-needs-ranks",
        edit("cells = [2, 3]", "cells = [2, 3]\nfoundations = { count = 2 }"),
        "deal.foundations.count",
        "needs deal.foundations.ranks",
    ),
    (
        "deal-foundations-bad-deck",
        edit("cells = [2, 3]", "cells = [2, 3]\nfoundations = { ranks = [1], deck = 2 }"),
        "deal.foundations.deck",
        "deck 2 does not exist (decks is 1)",
    ),
    (
        "deal-foundations-unknown-key",
        edit("cells = [2, 3]", "cells = [2, 3]\nfoundations = { rank = [1] }"),
        "deal.foundations.rank",
        "unknown key",
    ),
    (
        "deal-foundations-cards-count",
        edit("cells = [2, 3]", "cells = [2, 3]\nfoundations = { ranks = [1] }"),
        "deal",
        "places 56 cards, but 1 deck(s) hold 52",
    ),
    (
        "deal-kings-with-columns",
        edit('order = "rows"', 'order = "kings-start-columns"'),
        "deal.columns",
        "not used with order = 'kings-start-columns'",
    ),
    (
        "deal-columns-missing",
        edit("columns = 5\ncells", "cells"),
        "deal.columns",
        "missing",
    ),
    (
        "bad-rank",
        edit("cells = [2, 3]", "cells = [2, 3]\nfirst_ranks = [14]"),
        "deal.first_ranks.0",
        "at most 13",
    ),
    ("bad-id", edit('id = "sea-towers"', 'id = "Sea Towers"'), "id", "lowercase letters"),
    ("toml-syntax", edit("decks = 1", "decks = = 1"), "", "not valid TOML"),
    ("toml-duplicate-key", edit("decks = 1", "decks = 1\ndecks = 2"), "", "not valid TOML"),
]


@pytest.mark.parametrize(
    ("text", "key_path", "fragment"),
    [pytest.param(t, k, f, id=i) for i, t, k, f in MALFORMED],
)
def test_malformed_file_is_reported_with_its_key_path(
    text: str, key_path: str, fragment: str
) -> None:
    with pytest.raises(VariantError) as info:
        parse_variant(text, "bad.toml")
    error = info.value
    assert error.source == "bad.toml"
    assert error.key_path == key_path
    assert fragment in error.message
    expected_start = f"bad.toml: {key_path}: " if key_path else "bad.toml: "
    assert str(error).startswith(expected_start)


@pytest.mark.parametrize(
    ("text", "key_path", "fragment"),
    [pytest.param(t, k, f, id=i) for i, t, k, f in MALFORMED],
)
def test_solitaire_check_reports_malformed_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, key_path: str, fragment: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["check", str(path)]) == cli.EXIT_FAILURE  # a bad file, not a usage error
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"solitaire: error: {path}: ")
    assert fragment in err and "Traceback" not in err
    if key_path:
        assert f": {key_path}: " in err


def test_solitaire_check_accepts_every_builtin_file(capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted(Path(str(files("solitaire_variants"))).glob("*.toml")):
        assert cli.main(["check", str(path)]) == 0
        out, err = capsys.readouterr()
        assert out.startswith(f"{path}: OK: variant '{path.stem}'") and err == ""


def test_solitaire_check_knows_the_installed_deal_methods(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "custom-deal.toml"
    path.write_text(edit('order = "rows"', 'order = "rows"\nmethod = "no-such-deal"'), "utf-8")
    assert cli.main(["check", str(path)]) == cli.EXIT_FAILURE
    assert "deal.method: no installed plugin deals 'no-such-deal'" in capsys.readouterr().err


def test_check_in_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(edit("cells = [2, 3]", "cells = [2, 9]"), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "solitaire_core", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1  # a failure: the command line was right
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"solitaire: error: {path}: deal.cells: cell 9 does not exist (cells.count is 4)"
    )


@pytest.mark.parametrize("content", [b"\xff\xfe not utf-8", None])
def test_unreadable_files_are_reported(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "x.toml"
    if content is None:
        path.mkdir()  # a directory cannot be read as a file
    else:
        path.write_bytes(content)
    with pytest.raises(VariantError, match="cannot read the file"):
        load_variant_file(path)


def test_builtin_variants_load_without_problems() -> None:
    registry = get_registry()
    builtins = sorted(v for v, d in registry.variants.items() if d.plugin == "solitaire_variants")
    assert builtins == [
        "aces-up",
        "alaska",
        "all-in-a-row",
        "bakers-dozen",
        "bakers-game",
        "beleaguered-castle",
        "bisley",
        "black-hole",
        "busy-aces",
        "canfield",
        "casino-klondike",
        "challenge-freecell",
        "chessboard",
        "citadel",
        "dead-king-golf",
        "der-katzenschwanz",
        "die-schlange",
        "double-freecell",
        "double-klondike",
        "double-sea-towers",
        "double-seahaven",
        "double-yukon",
        "eight-off",
        "fan",
        "flower-garden",
        "forecell",
        "fortress",
        "forty-thieves",
        "freecell",
        "golf",
        "good-measure",
        "gypsy",
        "indian",
        "king-albert",
        "kings-only-bakers-game",
        "klondike",
        "klondike-draw-3",
        "lucas",
        "miss-milligan",
        "penguin",
        "pyramid",
        "raglan",
        "rainbow",
        "relaxed-freecell",
        "relaxed-seahaven",
        "relaxed-spider",
        "russian-solitaire",
        "saratoga",
        "scorpion",
        "scotch-patience",
        "sea-towers",
        "seahaven",
        "simple-simon",
        "small-harp",
        "spider",
        "spider-1-suit",
        "spider-2-suits",
        "spiderette",
        "stalactites",
        "storehouse",
        "streets",
        "streets-and-alleys",
        "super-challenge-freecell",
        "superior-canfield",
        "thumb-and-pouch",
        "tri-peaks",
        "triple-freecell",
        "vegas-klondike",
        "westcliff",
        "whitehead",
        "will-o-the-wisp",
        "yukon",
    ]
    assert not [p for p in registry.problems if p.plugin == "solitaire_variants"]


def test_family_groups_the_builtins_and_defaults_to_other() -> None:
    registry = get_registry()
    assert registry.get("freecell").family == "freecell"
    assert registry.get("seahaven").family == "seahaven"
    for definition in registry.variants.values():
        if definition.plugin == "solitaire_variants":
            assert "family" in definition.data, definition.id
    assert parse_variant(edit('family = "seahaven"\n', ""), "x.toml").family == "other"


def test_kings_start_columns_needs_a_column_more_than_the_kings() -> None:
    text = edit(
        "columns = 10",
        "columns = 5",
        'columns = 5\ncells = [2, 3]\norder = "rows"',
        'order = "kings-start-columns"',
    )
    with pytest.raises(VariantError, match=r"tableau.columns: .* needs 5 columns") as info:
        parse_variant(text.replace("columns = 5", "columns = 4", 1), "k.toml")
    assert info.value.key_path == "tableau.columns"
    rules = parse_variant(text, "k.toml").resolve()
    assert rules.deal.order == "kings-start-columns" and rules.deal.columns == ()


def test_a_plugin_predicate_can_be_named_by_a_file() -> None:
    def down_by_two(card: Card, onto: Card) -> bool:
        return card.suit is onto.suit and card.rank == onto.rank - 2

    predicates = dict(BUILTIN_PREDICATES)
    predicates["test.down-by-two"] = RulePredicate(
        "test.down-by-two", "build", down_by_two, "down by two in suit"
    )
    text = edit('build = "down-in-suit"', 'build = "test.down-by-two"')
    with pytest.raises(VariantError, match="unknown rule 'test.down-by-two'"):
        parse_variant(text, "x.toml")
    rules = parse_variant(text, "x.toml", predicates=predicates).resolve()
    assert rules.build(Card.parse("5S"), Card.parse("7S"))
    assert rules.build_description == "down by two in suit"


def test_options_resolve_and_unknown_choices_are_refused() -> None:
    definition = parse_variant(SEA_TOWERS, "sea-towers.toml")
    assert definition.default_options() == {"empty_columns": "king"}
    assert definition.resolve({"empty_columns": "any"}).move_limit == "supermove"
    assert definition.resolve().move_limit == "free-cells-plus-one"
    with pytest.raises(VariantError, match=r"options.empty_columns: 'all' is not a choice"):
        definition.resolve({"empty_columns": "all"})
    with pytest.raises(VariantError, match=r"options.colour: no such option"):
        definition.resolve({"colour": "red"})
    assert definition.data["tableau"]["empty"] == "king"  # resolving never edits the data


def _schema_keys(schema: dict, prefix: str = "") -> set[str]:
    keys = set()
    for name, sub in schema.get("properties", {}).items():
        dotted = f"{prefix}{name}"
        keys.add(dotted)
        keys |= _schema_keys(sub, dotted + ".")
    return keys


def test_every_schema_key_is_documented() -> None:
    text = DOCS.read_text("utf-8")
    documented = set(re.findall(r"`([a-z_]+(?:\.[a-z_]+)*)`", text))
    missing = sorted(_schema_keys(load_schema()) - documented)
    assert not missing, f"docs/variant-format.md does not document: {missing}"
    assert "variant-schema.json" in text


@pytest.mark.parametrize(
    "variant_id",
    sorted(v for v, d in get_registry().variants.items() if d.plugin == "solitaire_variants"),
)
def test_every_builtin_variant_has_a_rules_page(variant_id: str) -> None:
    page = DOCS.parent / "variants" / f"{variant_id}.md"
    text = page.read_text("utf-8")
    definition = get_registry().get(variant_id)
    assert text.startswith(f"# {definition.name}\n")
    assert f"`{variant_id}`" in text and "Source" in text


def test_schema_file_is_valid_json_schema() -> None:
    import jsonschema

    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert json.loads(json.dumps(schema)) == schema


def test_every_key_of_the_schema_has_a_description() -> None:
    """The variant editor shows each key's description as its help text."""
    from solitaire_core.variant import load_schema

    missing = []

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                if not (isinstance(sub, dict) and str(sub.get("description", "")).strip()):
                    missing.append(f"{path}{key}")
                walk(sub, f"{path}{key}.")
            for key in ("additionalProperties", "items"):
                if isinstance(node.get(key), dict):
                    walk(node[key], f"{path}*.")
            for key in ("oneOf", "anyOf", "allOf"):
                for sub in node.get(key, ()):
                    walk(sub, path)

    walk(load_schema(), "")
    assert missing == []


PENGUIN = files("solitaire_variants").joinpath("penguin.toml").read_text("utf-8")


def penguin(base: str, found: str, columns: str = "7", piles: int = 4) -> str:
    """Penguin's file with other foundations: ``base`` replaces its base rank line,
    ``found`` its ``deal.foundations`` table, ``columns`` its ``deal.columns``."""
    text = PENGUIN
    for old, new in (
        ('base_rank = "deal"', base),
        ("foundations = { twins_of_first = true }", f"foundations = {found}"),
        ('columns = 7\norder = "rows"', f'columns = {columns}\norder = "rows"'),
        ("[foundations]\ncount = 4", f"[foundations]\ncount = {piles}"),
    ):
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


SIX = "[7, 7, 7, 7, 7, 7, 6]"
"""Penguin's columns one card short (for one more card on the foundations)."""


@pytest.mark.parametrize(
    ("text", "key_path", "fragment"),
    [
        pytest.param(
            penguin("base_rank = 1", "{ twins_of_first = true }"),
            "deal.foundations.twins_of_first",
            "expected foundations.base_rank = 'deal' on the piles it deals to (the twins are "
            "of the first card's rank), but pile 1 starts with an Ace (its base_rank)",
            id="twins-on-ace-piles",
        ),
        pytest.param(
            penguin("base_rank = 1", "{ last = 4 }", SIX),
            "deal.foundations.last",
            "(the last cards are of any rank), but pile 1 starts with an Ace",
            id="last-on-ace-piles",
        ),
        pytest.param(
            penguin("base_rank = 1", "{ ranks = [5] }", SIX),
            "deal.foundations.ranks",
            "expected [1]: pile 1 starts with an Ace (its base_rank) and takes no other rank "
            "first (or foundations.base_rank = 'deal'), got [5]",
            id="fives-on-ace-piles",
        ),
        pytest.param(
            penguin("base_rank = 1", "{ ranks = [1, 13] }", "[7, 7, 7, 7, 7, 7, 2]", piles=8),
            "deal.foundations.ranks",
            "(cards of several ranks go up in suit order), but pile 1 starts with an Ace",
            id="aces-and-kings-on-ace-piles",
        ),
        pytest.param(
            penguin("base_rank = 1", "{ ranks = [1], last = 4 }", "[6, 6, 6, 6, 6, 6, 8]", 8),
            "deal.foundations.last",
            "but pile 5 starts with an Ace",
            id="last-after-aces-on-ace-piles",
        ),
    ],
)  # fmt: skip
def test_a_card_dealt_to_a_foundation_must_fit_its_base_rank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, key_path: str, fragment: str
) -> None:
    """The fuzzing report's Jacks on Ace piles: ``check`` accepted the file, ``solve`` and
    ``survey`` ended in a ValueError from the engine."""
    with pytest.raises(VariantError) as info:
        parse_variant(text, "bad.toml")
    assert (info.value.key_path, fragment in info.value.message) == (key_path, True)
    path = tmp_path / "bad.toml"
    path.write_text(text, "utf-8")
    assert cli.main(["check", str(path)]) == cli.EXIT_FAILURE
    assert capsys.readouterr().err.strip() == f"solitaire: error: {path}: {key_path}: " + (
        info.value.message
    )


@pytest.mark.parametrize(
    ("base", "found", "columns", "bases"),
    [
        ("base_rank = 1", "{ ranks = [1] }", SIX, [1] * 4),
        ('build = "down-in-suit"\nbase_rank = 13', "{ ranks = [13] }", SIX, [13] * 4),
        ('base_rank = "deal"', "{ ranks = [5] }", SIX, [0] * 4),
        ('base_rank = "deal"', "{ twins_of_first = true, last = 1 }", SIX, [0] * 4),
    ],
)
def test_cards_dealt_to_piles_of_their_base_are_accepted(
    base: str, found: str, columns: str, bases: list[int]
) -> None:
    """Beleaguered Castle's Aces on Ace piles, Kings on piles down from the King, any
    rank where the deal sets the base."""
    rules = parse_variant(penguin(base, found, columns), "ok.toml").resolve()
    assert [p.base for p in rules.foundation_piles] == bases


def test_the_documented_exit_status_of_check_is_the_commands() -> None:
    """docs/variant-format.md said a bad file exits 2 (a usage error); it exits 1, as
    README.md's table says: the command line was right, the file was not."""
    text = DOCS.read_text("utf-8")
    intro = text[: text.index("## A complete example")]
    assert f"(exit status {cli.EXIT_FAILURE})" in intro
    assert f"(exit status {cli.EXIT_USAGE})" not in intro
