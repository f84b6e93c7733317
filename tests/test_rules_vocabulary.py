"""The rule vocabulary: tableau builds up and both ways, wrapping, runs apart from
the build, empty columns below the base, reserves, and foundations that differ from "up in
suit from the Ace" (build, base rank fixed or from the deal, wrap, cards per pile, complete
suits, groups).

The test variants in tests/data/variants/ each cite the PySolFC game whose rule they use.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from solitaire_core.cards import Card
from solitaire_core.deal import deal, pysolfc_order
from solitaire_core.errors import IllegalMoveError, VariantError
from solitaire_core.moves import Move
from solitaire_core.rules import (
    apply,
    autoplay_moves,
    explain,
    is_legal,
    is_safe_to_foundation,
    legal_moves,
    run_length,
)
from solitaire_core.session import Session
from solitaire_core.state import GameState
from solitaire_core.variant import (
    BASE_FROM_DEAL,
    FoundationPile,
    Rules,
    load_variant_file,
    parse_variant,
)

DATA = Path(__file__).resolve().parent / "data" / "variants"
TEST_VARIANTS = sorted(p.stem for p in DATA.glob("*.toml"))


def rules_of(name: str) -> Rules:
    """The Rules of a test variant in tests/data/variants/."""
    return load_variant_file(DATA / f"{name}.toml").resolve()


def dealt(rules: Rules, number: int) -> GameState:
    """Deal ``number``; where the base rank comes from the deal, the rank of the first
    card dealt (Penguin's rule), for the tests that need a whole position."""
    state = deal(rules, number)
    if rules.base_from_deal and not state.bases:
        first = pysolfc_order(rules.decks, number)[0].rank
        state = attrs.evolve(state, bases=(first,) * rules.foundations)
    return state


def position(rules: Rules, columns: list[str], cells: list[str] = (), founds: list[str] = (),
             bases: str = "") -> GameState:  # fmt: skip
    """A position from short texts (piles not given are empty)."""

    def pad(items: list[str] | tuple[str, ...], n: int) -> str:
        return " ".join([i or "-" for i in items] + ["-"] * (n - len(items)))

    text = " | ".join(
        (
            pad(columns, rules.columns),
            pad(list(cells), rules.cells),
            pad(list(founds), rules.foundations),
        )
    )
    if bases:
        text += " | " + bases
    return GameState.from_text(rules, text)


# -- the loader ---------------------------------------------------------------------------

BASE = """
format_version = 1
id = "x"
name = "X"
decks = 1
[tableau]
columns = 4
build = "down-in-suit"
empty = "any"
move_limit = "one"
[cells]
count = 2
[foundations]
count = 4
[deal]
columns = 13
"""


def variant(tail: str = "", **sections: str) -> str:
    """BASE with lines added after a section header: ``variant(tableau="wrap = true")``;
    ``tail`` goes at the end (``[[foundations.groups]]`` tables)."""
    text = BASE + tail
    for section, lines in sections.items():
        header = f"[{section}]\n"
        text = text.replace(header, header + lines + "\n", 1)
    return text


LOADER_ERRORS = [
    ("wrap-bad-type", variant(tableau='wrap = "yes"'), "tableau.wrap", "expected boolean"),
    (
        "wrap-none",
        variant(tableau="wrap = true").replace('build = "down-in-suit"', 'build = "none"'),
        "tableau.build",
        "'none' cannot wrap",
    ),
    ("run-unknown", variant(tableau='run = "sideways"'), "tableau.run", "unknown rule 'sideways'"),
    (
        "run-looser-than-build",
        variant(tableau='run = "down-any-suit"'),
        "tableau.run",
        "at least as strict as tableau.build",
    ),
    ("receive-bad-type", variant(cells="receive = 0"), "cells.receive", "expected boolean"),
    (
        "reserve-with-cell-limit",
        variant(cells="receive = false").replace('"one"', '"free-cells-plus-one"'),
        "tableau.move_limit",
        "a reserve has no free cells",
    ),
    (
        "foundation-build",
        variant(foundations='build = "sideways"'),
        "foundations.build",
        "expected one of",
    ),
    (
        "base-zero",
        variant(foundations="base_rank = 0"),
        "foundations.base_rank",
        "expected a rank from 1 to 13",
    ),
    ("base-word", variant(foundations='base_rank = "ace"'), "foundations.base_rank", '"deal"'),
    (
        "base-deal-without-wrap",
        variant(foundations='base_rank = "deal"'),
        "foundations.wrap",
        "expected true when base_rank = 'deal'",
    ),
    (
        "cards-without-wrap",
        variant(foundations="cards = 26"),
        "foundations.cards",
        "expected at most 13 unless the pile wraps",
    ),
    (
        "base-leaves-too-few-ranks",
        variant(foundations="base_rank = 5"),
        "foundations",
        "hold at most 36",
    ),
    (
        "too-few-piles-for-two-decks",
        variant(foundations="wrap = true")
        .replace("decks = 1", "decks = 2")
        .replace("columns = 13", "columns = 26"),
        "foundations",
        "can hold all 104 cards",
    ),
    (
        "in-suit-piles-fewer-than-suits",
        variant(foundations="wrap = true\ncards = 26").replace(
            "count = 4\n[deal]", "count = 2\n[deal]"
        ),
        "foundations.count",
        "at least 4 piles built in suit",
    ),
    (
        "groups-not-adding-up",
        variant("[[foundations.groups]]\ncount = 2\n[[foundations.groups]]\ncount = 1\n"),
        "foundations.groups",
        "adding up to foundations.count (4), got 2 + 1 = 3",
    ),
    (
        "group-unknown-key",
        variant("[[foundations.groups]]\ncount = 4\ncolour = 1\n"),
        "foundations.groups.0.colour",
        "unknown key",
    ),
    (
        "group-cards-without-wrap",
        variant("[[foundations.groups]]\ncount = 4\ncards = 14\n"),
        "foundations.groups.0.cards",
        "unless the pile wraps",
    ),
    (
        "complete-suits-on-colour-piles",
        variant(foundations='only_complete_suits = true\nbuild = "up-any-suit"'),
        "foundations.only_complete_suits",
        "built up in suit from the Ace",
    ),
    (
        "complete-suits-coming-back",
        variant(foundations="only_complete_suits = true\nreturn_to_play = true"),
        "foundations.only_complete_suits",
        "return_to_play false",
    ),
    (
        "below-base-with-two-bases",
        variant(
            "[[foundations.groups]]\ncount = 4\n[[foundations.groups]]\n"
            'count = 4\nbuild = "down-in-suit"\nbase_rank = 13\n'
        )
        .replace("count = 4\n[deal]", "count = 8\n[deal]")
        .replace('empty = "any"', 'empty = "below-base"'),
        "tableau.empty",
        "one base rank for every foundation",
    ),
]


@pytest.mark.parametrize(
    ("text", "key", "fragment"), [pytest.param(*c[1:], id=c[0]) for c in LOADER_ERRORS]
)
def test_bad_rule_keys_are_reported_with_their_key_path(text: str, key: str, fragment: str) -> None:
    with pytest.raises(VariantError) as info:
        parse_variant(text, "bad.toml")
    assert info.value.key_path == key, str(info.value)
    assert fragment in info.value.message
    assert str(info.value).startswith(f"bad.toml: {key}: ")


def test_new_keys_default_to_the_old_behaviour() -> None:
    rules = parse_variant(BASE, "x.toml").resolve()
    assert not rules.tableau_wrap and rules.cells_receive and not rules.complete_suits
    assert rules.run_rule == "down-in-suit"
    assert rules.foundation_piles == (FoundationPile(),) * 4
    assert rules.standard_foundations and not rules.base_from_deal


def test_groups_give_each_pile_its_rule() -> None:
    rules = rules_of("bisley-like")
    assert [p.build for p in rules.foundation_piles] == ["up-in-suit"] * 4 + ["down-in-suit"] * 4
    assert [p.base for p in rules.foundation_piles] == [1] * 4 + [13] * 4
    assert not rules.standard_foundations


# -- positions carry what the deal decides ---------------------------------------------------


def test_base_ranks_round_trip_through_text() -> None:
    rules = rules_of("penguin-like")
    state = position(rules, ["KH,QH"], founds=["5S", "5C"], bases="5 5 5 5")
    assert state.bases == (5, 5, 5, 5)
    assert state.to_text().endswith("| 5 5 5 5")
    assert GameState.from_text(rules, state.to_text()) == state
    assert position(rules, ["KH"], bases="5").bases == (5, 5, 5, 5)  # one rank for all
    assert rules.foundation_piles[0].base == BASE_FROM_DEAL
    with pytest.raises(ValueError, match="does not say it"):
        position(rules, ["KH"]).base_rank(0)
    with pytest.raises(ValueError, match="base ranks"):
        position(rules, ["KH"], bases="5 X")
    with pytest.raises(ValueError, match="one base rank or 4"):
        position(rules, ["KH"], bases="5 5")


def test_positions_with_other_bases_differ() -> None:
    rules = rules_of("penguin-like")
    assert position(rules, ["KH"], bases="5") != position(rules, ["KH"], bases="6")


# -- legality ---------------------------------------------------------------------------------


def candidates(state: GameState) -> Iterator[Move]:
    """Every move with numbered piles and counts up to 13 (legal or not)."""
    from solitaire_core.moves import PileKind, PileRef

    refs = (
        [PileRef(PileKind.TABLEAU, i) for i in range(state.rules.columns)]
        + [PileRef(PileKind.CELL, i) for i in range(state.rules.cells)]
        + [PileRef(PileKind.FOUNDATION, i) for i in range(state.rules.foundations)]
    )
    for src in refs:
        height = len(state.pile(src))
        for dst in refs:
            if src != dst:
                for count in range(1, max(1, min(height, 13)) + 1):
                    yield Move(src, dst, count)


@pytest.mark.slow
@pytest.mark.parametrize("name", TEST_VARIANTS)
def test_legal_moves_is_legal_explain_and_apply_agree_on_random_play(name: str) -> None:
    rules = rules_of(name)
    rng = random.Random(name)
    for number in (1,):
        state, _ = autoplay_moves(dealt(rules, number))
        for _ in range(30):
            legal = legal_moves(state)
            assert len(set(legal)) == len(legal)
            for move in candidates(state):
                reason = explain(state, move)
                assert (move in legal) == (reason is None) == is_legal(state, move), (move, reason)
                if reason is not None:
                    assert reason and "<" not in reason and "Card(" not in reason
                    with pytest.raises(IllegalMoveError):
                        apply(state, move)
            if not legal:
                break
            state, _ = autoplay_moves(apply(state, rng.choice(legal)))
            assert sorted(map(str, state.all_cards())) == sorted(
                map(str, dealt(rules, number).all_cards())
            )


def reason(state: GameState, text: str) -> str:
    why = explain(state, Move.parse(text))
    assert why is not None, f"{text} should be illegal"
    return why


def test_up_or_down_in_suit_builds_both_ways() -> None:
    rules = rules_of("fortress-like")
    state = position(rules, ["5H", "6H", "4H", "6S"])
    assert is_legal(state, Move.parse("t2>t1")) and is_legal(state, Move.parse("t3>t1"))
    assert "up or down in suit" in reason(state, "t4>t1")


@pytest.mark.parametrize(
    ("build", "card", "onto", "ok"),
    [
        ("up-in-suit", "6H", "5H", True),
        ("up-in-suit", "4H", "5H", False),
        ("up-alternate-colors", "6S", "5H", True),
        ("up-alternate-colors", "6D", "5H", False),
        ("up-or-down-any-suit", "4S", "5H", True),
        ("up-or-down-any-suit", "6D", "5H", True),
        ("up-or-down-any-suit", "7D", "5H", False),
        ("up-or-down-alternate-colors", "4S", "5H", True),
        ("up-or-down-alternate-colors", "6C", "5H", True),
        ("up-or-down-alternate-colors", "6D", "5H", False),
    ],
)
def test_each_new_build_rule(build: str, card: str, onto: str, ok: bool) -> None:
    rules = parse_variant(BASE.replace('"down-in-suit"', f'"{build}"'), "x.toml").resolve()
    state = position(rules, [onto, card])
    assert is_legal(state, Move.parse("t2>t1")) is ok
    if not ok:
        assert rules.build_description in reason(state, "t2>t1")


def test_wrapping_tableau_puts_a_king_on_an_ace() -> None:
    rules = rules_of("penguin-like")
    state = position(rules, ["AS", "KS", "KH"], bases="5")
    assert is_legal(state, Move.parse("t2>t1"))
    assert "wrapping from King to Ace" in reason(state, "t3>t1")
    plain = parse_variant(BASE, "x.toml").resolve()
    assert not is_legal(position(plain, ["AS", "KS"]), Move.parse("t2>t1"))


def test_simple_simon_builds_any_suit_but_moves_only_suit_runs() -> None:
    rules = rules_of("simple-simon-like")
    state = position(rules, ["8C", "8H,7S", "8D,7D", "9S"])
    assert is_legal(state, Move.parse("t2>t1"))  # any suit builds
    assert run_length(rules, state.columns[1]) == 1  # 7S lies on 8H but is no run
    assert run_length(rules, state.columns[2]) == 2
    assert "not a run (runs are built down in suit)" in reason(state, "t2>t4x2")
    assert is_legal(state, Move.parse("t3>t4x2"))  # the in-suit run onto any Nine


def test_empty_columns_below_base_and_none() -> None:
    rules = rules_of("penguin-like")
    state = position(rules, ["4H", "", "5S"], bases="5")
    assert is_legal(state, Move.parse("t1>t2"))
    assert "only a Four, the rank below the foundations' base" in reason(state, "t3>t2")
    ace_base = position(rules, ["KH", "", "5S"], bases="A")
    assert is_legal(ace_base, Move.parse("t1>t2"))  # a King below an Ace
    bisley = rules_of("bisley-like")
    state = position(bisley, ["5H,9C"])
    assert "nothing: empty columns stay empty" in reason(state, "t1>t2")


def test_a_reserve_gives_but_never_takes() -> None:
    rules = rules_of("king-albert-like")
    state = position(rules, ["9C", "5H"], cells=["8H", "", "3S"])
    assert is_legal(state, Move.parse("c1>t1"))
    assert "c2 is a reserve slot: cards are played from it, never put on it" in reason(
        state, "t2>c2"
    )
    assert "no free cell: the reserve never takes a card" in reason(state, "t2>c")
    assert state.free_cells == 0
    assert not any(m.target.kind.name == "CELL" for m in legal_moves(state))


def test_foundations_with_another_base_and_build() -> None:
    rules = rules_of("alternate-foundations")
    state = position(rules, ["5H", "AS", "6D", "6S"])
    assert "a foundation starts with a Five" in reason(state, "t2>f1")
    after = apply(state, Move.parse("t1>f1"))
    assert is_legal(after, Move.parse("t4>f1"))
    assert "foundations build up in alternate colours, wrapping from King to Ace" in reason(
        after, "t3>f1"
    )
    wrap = position(rules, ["AS"], founds=["5H,6S,7H,8S,9H,TS,JH,QS,KH"])
    assert is_legal(wrap, Move.parse("t1>f1"))  # King to Ace continues the pile


def test_a_suit_built_twice_on_one_pile() -> None:
    rules = rules_of("double-freecell-like")
    full = ",".join(f"{r}H" for r in "A23456789TJQK")
    state = position(rules, ["AH'", "AD", "AH"], founds=[full])
    assert is_legal(state, Move.parse("t1>f1"))  # the second Ace of hearts after the King
    assert "♥ already has its foundation" in reason(state, "t3>f2")
    assert is_legal(state, Move.parse("t2>f2"))
    whole = full + "," + full.replace("H", "H'")
    state = position(rules, ["AH'"], founds=[whole])
    assert "f1 is full: it holds 26 cards" in reason(state, "t1>f1")


def test_bisley_builds_down_from_the_king_on_the_second_row() -> None:
    rules = rules_of("bisley-like")
    state = position(rules, ["KH", "QH", "AH", "2H"])
    assert is_legal(state, Move.parse("t1>f5"))
    assert "a foundation starts with a King" in reason(state, "t3>f5")
    assert "a foundation starts with an Ace" in reason(state, "t1>f1")
    after = apply(state, Move.parse("t1>f5"))
    assert is_legal(after, Move.parse("t2>f5"))
    assert str(apply(state, Move.parse("t3>f")).to_text()).split("|")[2].split()[0] == "AH"


def test_base_rank_from_the_deal_starts_empty_piles() -> None:
    rules = rules_of("stalactites-like")
    state = position(rules, ["8C", "9D", "7H"], founds=["7S"], bases="7 7 7 7")
    assert is_legal(state, Move.parse("t1>f1"))  # up regardless of suit
    assert is_legal(state, Move.parse("t3>f2"))
    assert "a foundation starts with a Seven" in reason(state, "t2>f2")


def test_only_complete_suits_go_up() -> None:
    rules = rules_of("simple-simon-like")
    suit = ",".join(f"{r}S" for r in "KQJT98765432A")
    state = position(rules, ["5H," + suit, "AH"])
    assert is_legal(state, Move.parse("t1>fx13"))
    assert "only a complete suit, King to Ace" in reason(state, "t2>f")
    broken = position(rules, ["5H," + suit.replace("7S", "7C")])
    assert "not a complete suit" in reason(broken, "t1>fx13")
    after = apply(state, Move.parse("t1>fx13"))
    assert [str(c) for c in after.foundations[0]][:2] == ["AS", "2S"]
    assert after.columns[0] == (Card.parse("5H"),)


# -- autoplay ------------------------------------------------------------------------------


def test_safe_autoplay_waits_while_a_wrapped_or_upward_build_may_want_the_card() -> None:
    rules = rules_of("alternate-foundations")
    # The King of diamonds fits f1 (up in alternate colours from the Five); the Ace of
    # clubs could still be built on it by the tableau (up in alternate colours, wrapping).
    state = position(rules, ["KD", "AC,9H"], founds=["5H,6S,7H,8S,9D,TS,JH,QS"])
    assert not is_safe_to_foundation(state, Card.parse("KD"))
    assert autoplay_moves(state, "safe")[1] == []
    assert len(autoplay_moves(state, "all")[1]) == 1
    no_wrap = attrs.evolve(
        rules,
        build=parse_variant(BASE.replace('"down-in-suit"', '"up-alternate-colors"'), "x")
        .resolve()
        .build,
    )
    assert is_safe_to_foundation(attrs.evolve(state, rules=no_wrap), Card.parse("KD"))
    fortress = rules_of("fortress-like")
    state = position(fortress, ["2H", "3H,9C"], founds=["AH"])  # 3H may go back on 2H
    assert not is_safe_to_foundation(state, Card.parse("2H"))


def test_safe_autoplay_sends_nothing_to_piles_where_cards_compete() -> None:
    """Found by the kit's exhaustive check: sending the Queen and King of spades up (no
    card can be built on them) loses this game, which is won by parking the Queen of
    spades so the diamonds take those places on the piles built regardless of suit."""
    rules = attrs.evolve(rules_of("stalactites-like"), columns=2, cells=1)
    text = (
        "JD,KD,QD,KH,QS KS | - | AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,KC "
        "AD,2D,3D,4D,5D,6D,7D,8D,9D,TD AH,2H,3H,4H,5H,6H,7H,8H,9H,TH,JH,QH "
        "AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS | A"
    )
    state = GameState.from_text(rules, text)
    assert is_safe_to_foundation(state, Card.parse("QS"))  # by the tableau alone
    assert not is_safe_to_foundation(state, Card.parse("QS"), 3)
    assert autoplay_moves(state, "safe")[1] == []
    from solitaire_core.testing import reference

    assert reference.winnable(state) is True
    assert reference.winnable(autoplay_moves(state, "all")[0]) is False


def test_autoplay_sends_a_complete_suit_up() -> None:
    rules = rules_of("simple-simon-like")
    suit = ",".join(f"{r}S" for r in "KQJT98765432A")
    state = position(rules, [suit, "5H"])
    after, moves = autoplay_moves(state, "all")
    assert [str(m) for m in moves] == ["t1>f1x13"]
    # A Four of hearts could still be built on the Five of spades: not safe.
    state = position(rules, [suit, "4H"])
    assert autoplay_moves(state, "safe")[1] == []


def test_session_wins_when_every_card_is_up() -> None:
    rules = rules_of("bisley-like")
    piles = [",".join(f"{r}{s}" for r in "A23456789TJQK") for s in "HDC"]
    state = position(rules, ["KS"], founds=[*piles, "AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS"])
    session = Session(rules, 1, state=state)
    assert session.is_won and session.score == 52


# -- scenarios -------------------------------------------------------------------------------

SCENARIO_DIR = Path(__file__).resolve().parent / "data" / "scenarios"


def _scenarios() -> list:
    from solitaire_core.testing import load_scenario_file

    return [s for path in sorted(SCENARIO_DIR.glob("*.toml")) for s in load_scenario_file(path)]


@pytest.mark.parametrize("scenario", _scenarios(), ids=lambda s: s.label)
def test_scenarios_of_the_new_rules(scenario) -> None:
    from solitaire_core.testing import run_scenario

    definition = load_variant_file(DATA / f"{scenario.variant.removeprefix('test-')}.toml")
    run_scenario(scenario, definition)


def test_every_test_variant_has_scenarios() -> None:
    covered = {s.variant.removeprefix("test-") for s in _scenarios()}
    assert covered >= set(TEST_VARIANTS) - {"triple-freecell-like"}


@pytest.mark.parametrize("name", ["penguin-like", "stalactites-like"])
@pytest.mark.parametrize(
    "check", ["check_safe_autoplay", "check_won", "check_empty_columns", "check_move_limit"]
)
def test_kit_checks_that_need_no_deal_pass_with_a_base_from_the_deal(name: str, check: str) -> None:
    """The kit's checks on made-up positions (they carry base ranks); the checks that deal
    need the deal recipes of the built-in Penguin and Stalactites (their ``[deal]`` keys)."""
    from solitaire_core.testing import KitSettings
    from solitaire_core.testing import checks as kit

    context = kit.KitContext(rules_of(name), settings=KitSettings(max_examples=15, database=False))
    getattr(kit, check)(context)
