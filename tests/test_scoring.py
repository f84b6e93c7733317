"""Scoring schemes (solitaire_core/scoring.py): the score after each move of real games,
undo and redo giving it back, and which built-in game scores how."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from solitaire_core.cards import Card
from solitaire_core.plugins import get_registry, get_variant
from solitaire_core.scoring import SCHEMES, initial_score, score_text
from solitaire_core.session import Session
from solitaire_core.solver import solve_deal
from solitaire_core.state import GameState
from solitaire_core.variant import parse_variant


def session(variant: str, deal: int = 1, **options: str) -> Session:
    return Session.new(get_variant(variant), deal, options)


def test_the_schema_lists_the_schemes_the_engine_knows() -> None:
    schema = json.loads(
        resources.files("solitaire_core").joinpath("variant-schema.json").read_text("utf-8")
    )
    assert tuple(schema["properties"]["scoring"]["enum"]) == SCHEMES


@pytest.mark.parametrize(
    ("variant", "scheme"),
    [
        ("klondike", "standard"),
        ("klondike-draw-3", "standard"),
        ("vegas-klondike", "vegas"),
        ("casino-klondike", "vegas-cumulative"),
        ("spider", "spider"),
        ("spider-1-suit", "spider"),
        ("spider-2-suits", "spider"),
        ("relaxed-spider", "spider"),
        ("spiderette", "spider"),
        ("seahaven", "cards"),
        ("freecell", "cards"),
    ],
)
def test_the_built_in_games_score_by_their_scheme(variant: str, scheme: str) -> None:
    assert get_variant(variant).resolve().scoring == scheme


def test_every_built_in_game_without_a_scheme_counts_cards() -> None:
    for definition in get_registry().variants.values():
        rules = definition.resolve()
        if "scoring" not in definition.data:
            assert rules.scoring == "cards"
            game = Session(rules, 1)
            assert game.score == game.state.foundation_cards


KLONDIKE_1 = [
    # (move, score after it): Windows standard scoring on Klondike deal 1, the solver's
    # win. Autoplay put A♥ and A♠ up before the first move, each turning a card over:
    # 2 x (10 + 5) = 30.
    ("s>w", 40),  # the waste's 2♠ goes up by autoplay: +10
    *[("s>w", 40)] * 7,  # dealing scores nothing
    ("s>w", 50),  # autoplay: +10
    ("t5>f3", 65),  # to a foundation +10, a card turned over +5
    ("t6>t5", 100),  # column to column 0; autoplay sends two up (+20), 3 turned (+15)
    ("t4>f3", 115),
    ("t3>f3", 130),
    *[("s>w", 130)] * 12,
    ("s>w", 140),  # autoplay from the waste: +10
    ("s>w", 140),
    ("w>s", 40),  # the waste turned over, drawing one card at a time: -100
]


def test_standard_scoring_of_klondike_deal_1_move_by_move() -> None:
    game = session("klondike")
    assert game.score == 30
    for number, (move, score) in enumerate(KLONDIKE_1):
        game.play(move)
        assert (number, game.score) == (number, score)


def test_undo_gives_back_the_score_of_the_move_it_takes_back_and_redo_replays_it() -> None:
    game = session("klondike")
    scores = [game.score]
    for move, _ in KLONDIKE_1:
        game.play(move)
        scores.append(game.score)
    for expected in reversed(scores[:-1]):
        game.undo()
        assert game.score == expected
    game.redo()
    game.redo()
    assert game.score == scores[2]
    game.restart()
    assert game.score == 30


def test_a_won_klondike_game_scores_and_the_score_never_goes_below_zero() -> None:
    rules = get_variant("klondike").resolve()
    result = solve_deal(rules, 1, max_states=20_000)
    game = Session(rules, 1)
    lowest = game.score
    for move in result.moves:
        game.play(move)
        lowest = min(lowest, game.score)
    # The line turns the waste over early (-100 each time, draw 1): the score stops at 0,
    # then every card up (+10), turned over (+5) or played from the waste (+5) counts.
    assert game.is_won and lowest == 0
    assert game.score > 0 and game.score % 5 == 0
    # Scores follow from the moves alone: the same line played again scores the same.
    again = Session(rules, 1)
    for move in result.moves:
        again.play(move)
    assert again.score == game.score


SPADES_TO_JACK = "AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS"


def at(variant: str, text: str) -> Session:
    """A game of ``variant`` from the position ``text`` (GameState.from_text)."""
    rules = get_variant(variant).resolve()
    return Session(rules, 1, state=GameState.from_text(rules, text))


def test_a_card_back_from_a_foundation_costs_15() -> None:
    game = at(
        "klondike",
        f"KS,QD #9D,6H 7C #8D,5S 6D - - |  | {SPADES_TO_JACK} AC - - | stock 2C | waste - "
        "| round 0",
    )
    assert game.score == 0
    game.play("s>w")  # autoplay sends the 2♣ up: +10
    assert game.score == 10
    game.play("t2>t3")  # column to column 0, the 9♦ turned over +5
    game.play("t4>t5")
    assert game.score == 20
    game.play("f1>t1")  # the J♠ back into play: -15
    assert game.score == 5


def test_draw_three_turns_the_waste_over_twice_free_then_for_20() -> None:
    game = session("klondike-draw-3")
    turns = []
    while len(turns) < 4:
        before = game.score
        move = "w>s" if not game.state.stock else "s>w"
        game.play(move)
        if move == "w>s":
            turns.append((before, game.score))
    assert [after - before for before, after in turns[:2]] == [0, 0]
    assert turns[2][0] >= 20
    assert [after for _, after in turns[2:]] == [max(0, before - 20) for before, _ in turns[2:]]


def test_vegas_costs_52_and_pays_5_a_card() -> None:
    game = session("vegas-klondike")
    assert game.score == 2 * 5 - 52  # two Aces went up at once
    game.play("s>w")  # the 2♠ goes up by autoplay
    assert game.score == -37
    assert score_text(game.score, "vegas") == "$-37"
    game.undo()
    assert game.score == -42


def test_vegas_takes_back_5_for_a_card_back_from_a_foundation() -> None:
    game = at(
        "casino-klondike",
        f"KS,QD - - - - - - |  | {SPADES_TO_JACK} - - - | stock 2C | waste - | round 0",
    )
    assert game.score == 11 * 5 - 52
    game.play("f1>t1")
    assert game.score == 10 * 5 - 52


def test_a_complete_suit_scores_100_in_spider_and_undo_takes_it_back() -> None:
    rules = get_variant("spider").resolve()
    run = ",".join(f"{r}S" for r in "KQJT98765432")
    state = GameState.from_text(rules, f"#3H,{run} AS " + "KH " * 8 + "|  | - - - - - - - -")
    game = Session(rules, 1, state=state)
    turn = game.play("t2>t1")
    assert [str(m) for m in turn.autoplay] == ["t1>f1x13"]
    assert game.state.columns[0] == (Card.parse("3H"),)
    assert game.score == 500 - 1 + 100
    game.undo()
    assert game.score == 500


def test_a_spider_deal_from_the_stock_is_a_move() -> None:
    game = session("spider")
    game.play("s>t")
    assert game.score == 499


def test_an_option_may_choose_the_scheme() -> None:
    text = (
        resources.files("solitaire_variants").joinpath("sea-towers.toml").read_text("utf-8")
    ).replace(
        '"tableau.move_limit" = "supermove" }',
        '"tableau.move_limit" = "supermove", "scoring" = "vegas" }',
    )
    definition = parse_variant(text, "sea-towers.toml")
    assert definition.resolve().scoring == "cards"
    assert definition.resolve({"empty_columns": "any"}).scoring == "vegas"


def test_an_unknown_scheme_is_refused_by_the_functions() -> None:
    state = session("seahaven").state
    with pytest.raises(ValueError, match="unknown scoring scheme 'points'"):
        initial_score("points", state, (), state)
