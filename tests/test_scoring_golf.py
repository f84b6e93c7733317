"""Golf's and TriPeaks' scoring (solitaire_core/scoring.py, ``"cards-left"`` and
``"tri-peaks"``): the score a player sees after known moves of real deals, the run bonus
and its reset by a stock card, the statistics keeping the lowest Golf score as the best,
and a statistics file of schema 4 opened, kept and given the new schemes."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path

import attrs
import pytest

from solitaire_core.cards import Card
from solitaire_core.persistence import STATS_SCHEMA_VERSION, StatsStore, figure_texts
from solitaire_core.plugins import get_variant
from solitaire_core.scoring import SCHEMES, best_of, lower_is_better
from solitaire_core.session import Session
from solitaire_core.variant import VariantError, parse_variant


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("SOLITAIRE_HOME", str(home))
    return home


def record_golf(store: StatsStore, deal: int, won: bool, score: int, when: datetime) -> None:
    """Record a Golf game scored ``"cards-left"``."""
    store.record_game(
        variant="golf",
        options={},
        deal=deal,
        won=won,
        moves=30,
        seconds=60.0,
        used_undo=False,
        used_hint=False,
        cheated=False,
        finished_at=when,
        score=score,
        scoring="cards-left",
    )


def play(game: Session, moves: str) -> list[int]:
    """Play ``moves`` (space-separated), returning the score after each."""
    scores = []
    for move in moves.split():
        game.play(move)
        scores.append(game.score)
    return scores


@pytest.mark.parametrize(
    ("variant", "scheme"),
    [("golf", "cards-left"), ("dead-king-golf", "cards-left"), ("tri-peaks", "tri-peaks")],
)
def test_the_golf_games_score_by_their_scheme(variant: str, scheme: str) -> None:
    assert get_variant(variant).resolve().scoring == scheme


# Golf deal 4, won with two cards left in the stock (a solution the solver found).
GOLF_4 = (
    "t2>f1 t3>f1 s>f1 t1>f1 t3>f1 t3>f1 t7>f1 t7>f1 s>f1 t3>f1 t1>f1 t3>f1 t7>f1 t4>f1 "
    "s>f1 t2>f1 s>f1 t4>f1 t4>f1 s>f1 t6>f1 s>f1 t4>f1 s>f1 s>f1 t6>f1 s>f1 t7>f1 t5>f1 "
    "t4>f1 s>f1 t2>f1 t1>f1 t5>f1 t6>f1 t1>f1 t2>f1 t6>f1 s>f1 s>f1 t2>f1 t1>f1 t5>f1 "
    "t6>f1 s>f1 t5>f1 s>f1 t7>f1 t5>f1"
)


def test_golf_scores_the_cards_left_and_a_cleared_table_minus_the_stock() -> None:
    game = Session.new(get_variant("golf"), 4)
    assert game.score == 35  # seven columns of five
    assert play(game, "t2>f1 t3>f1 s>f1 t1>f1") == [34, 33, 33, 32]  # a stock card: no change
    game.undo()
    assert game.score == 33
    game.redo()
    moves = GOLF_4.split()
    assert play(game, " ".join(moves[4:-1]))[-1] == 1  # one card left on the table
    assert len(game.state.stock) == 2
    game.play(moves[-1])
    assert game.is_won and game.score == -2  # cleared with two stock cards unplayed


def test_a_lost_golf_game_scores_the_cards_left_on_the_table() -> None:
    game = Session.new(get_variant("golf"), 4)
    while game.state.stock:
        game.play("s>f1")
    assert game.score == 35 and not game.is_won


# TriPeaks deal 1, won (a solution the solver found); the scores PySolFC's Three Peaks
# (Scored) would show after each move (threepeaks.py, computeHandScore).
TRIPEAKS_1 = (
    "t24>f1 t25>f1 t26>f1 s>f1 t15>f1 t20>f1 t21>f1 t27>f1 t11>f1 s>f1 t16>f1 t17>f1 "
    "t22>f1 s>f1 s>f1 s>f1 t19>f1 s>f1 t8>f1 s>f1 s>f1 s>f1 t23>f1 t10>f1 t13>f1 s>f1 "
    "t14>f1 t4>f1 t28>f1 t18>f1 s>f1 s>f1 t12>f1 s>f1 t6>f1 s>f1 t7>f1 s>f1 t9>f1 s>f1 "
    "t5>f1 s>f1 t2>f1 s>f1 t3>f1 s>f1 t1>f1"
)


def test_tripeaks_run_bonus_grows_every_four_cards_and_a_stock_card_resets_it() -> None:
    game = Session.new(get_variant("tri-peaks"), 1)
    assert game.score == -52
    # A run of three, a stock card, then a run of five: its fifth card scores 2.
    assert play(game, "t24>f1 t25>f1 t26>f1") == [-51, -50, -49]
    assert play(game, "s>f1") == [-49]
    assert play(game, "t15>f1 t20>f1 t21>f1 t27>f1 t11>f1") == [-48, -47, -46, -45, -43]
    # The stock card ends the run: the next card scores 1 again.
    assert play(game, "s>f1 t16>f1") == [-43, -42]
    game.undo()
    game.undo()
    assert game.score == -43  # undo gives back what the moves scored
    game.redo()
    game.redo()
    assert game.score == -42
    # Two more make a run of three (1 each); the next stock card ends it.
    assert play(game, "t17>f1 t22>f1 s>f1 s>f1") == [-41, -40, -40, -40]


def test_tripeaks_peaks_double_the_bonus_and_a_whole_game_scores_50() -> None:
    game = Session.new(get_variant("tri-peaks"), 1)
    scores = play(game, TRIPEAKS_1)
    # t5 (the run's first card) -26; a stock card; t2 clears the middle peak: 5 * 2 and
    # the run's first card at 2; a stock card; t3 clears a second peak: 5 * 4 and 4; a
    # stock card; t1 wins right after a stock card: 5 * 8 for the last peak, no run, no
    # stock bonus.
    assert scores[-7:] == [-26, -26, -14, -14, 10, 10, 50]
    assert game.is_won and game.score == 50


def test_tripeaks_win_after_a_run_scores_the_stock_left_and_the_run_again() -> None:
    """PySolFC's ``isGameWon``: 10 per stock card and the run's bonus again at 8."""
    game = Session.new(get_variant("tri-peaks"), 4)
    moves = (
        "t24>f1 t28>f1 t25>f1 s>f1 t26>f1 t15>f1 t16>f1 t20>f1 s>f1 t21>f1 s>f1 t22>f1 "
        "t27>f1 t11>f1 t19>f1 s>f1 s>f1 s>f1 t12>f1 s>f1 s>f1 t17>f1 t5>f1 s>f1 t10>f1 "
        "s>f1 t18>f1 t4>f1 t23>f1 t1>f1 t13>f1 t9>f1 t8>f1 s>f1 t14>f1 s>f1 s>f1 s>f1 "
        "s>f1 t3>f1 s>f1 s>f1 s>f1 s>f1 s>f1 s>f1"
    )
    play(game, moves)
    state = game.state
    assert game.score == 17 and [col[-1] if col else None for col in state.columns[:7]] == [
        None,
        Card.parse("QC"),
        None,
        None,
        None,
        Card.parse("KD"),
        Card.parse("6S"),
    ]
    assert [str(card) for card in state.stock] == ["AD", "4S"]
    # The same position with KD and QC swapped for 5C and 4D from the foundation, so that
    # the last three cards play in one run with two cards left in the stock.
    pile = list(state.foundations[0])
    five, four = pile.index(Card.parse("5C")), pile.index(Card.parse("4D"))
    pile[five], pile[four] = Card.parse("KD"), Card.parse("QC")
    columns = list(state.columns)
    columns[1], columns[5] = (Card.parse("4D"),), (Card.parse("5C"),)
    position = attrs.evolve(state, columns=tuple(columns), foundations=(tuple(pile),))
    game = Session(game.rules, 4, state=position)
    assert game.score == -52
    # Two peaks are cleared: each card of the run scores 4; the winning card 5 * 8 for
    # the last peak, 10 for each of the two stock cards and the run's bonus at 8.
    assert play(game, "t7>f1 t6>f1 t2>f1") == [-48, -44, -44 + 40 + 10 * 2 + 8]
    assert game.is_won


def test_the_lowest_golf_score_is_the_best() -> None:
    assert lower_is_better("cards-left") and not lower_is_better("tri-peaks")
    assert best_of([12, -3, 5], "cards-left") == -3
    assert best_of([12, -3, 5], "tri-peaks") == 12
    assert best_of([], "cards") is None
    finished = datetime(2025, 1, 1, tzinfo=timezone.utc)
    with StatsStore() as store:
        for index, (score, won) in enumerate(((12, False), (-3, True), (5, False))):
            record_golf(store, index, won, score, finished + timedelta(minutes=index))
        (golf,) = store.summary("golf")
    assert (golf.scoring, golf.best_score) == ("cards-left", -3)
    assert figure_texts(golf)[8] == "-3"


SCHEMA_4_FILE = Path(__file__).parent / "data" / "stats-schema-4.sqlite3"
"""Written by the program before Golf and TriPeaks had their scoring (schema 4): Golf
twice, TriPeaks and Casino Klondike scored, Seahaven with a 20-digit deal unscored."""


def test_a_schema_4_file_keeps_its_games_and_takes_the_new_schemes(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(SCHEMA_4_FILE.read_bytes())
    with closing(sqlite3.connect(f"{SCHEMA_4_FILE.as_uri()}?mode=ro", uri=True)) as old:
        version, old_rows = (
            old.execute("PRAGMA user_version").fetchone()[0],
            old.execute("SELECT * FROM games ORDER BY id").fetchall(),
        )
    assert version == 4 and len(old_rows) == 5
    with StatsStore(path) as store:
        assert store.warnings == [] and list(tmp_path.glob("*.corrupt-*")) == []
        by_id = {entry.variant: entry for entry in store.summary()}
        assert (by_id["golf"].played, by_id["golf"].scoring, by_id["golf"].best_score) == (
            2,
            "cards",
            52,
        )
        assert store.bank("casino-klondike") == 103
        record_golf(store, 4, True, -2, datetime.now(timezone.utc))
        (golf,) = store.summary("golf")
        assert (golf.played, golf.won, golf.scoring, golf.best_score) == (3, 2, "cards-left", -2)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == STATS_SCHEMA_VERSION == 5
    rows = conn.execute("SELECT * FROM games ORDER BY id").fetchall()
    assert rows[:-1] == old_rows  # every game, unchanged, the 20-digit deal too
    assert rows[-1][11:13] == (-2, "cards-left")
    conn.close()
    with StatsStore(path) as store:  # opened again: no second upgrade, no warning
        assert store.warnings == [] and store.summary("golf")[0].best_score == -2


def test_an_unknown_scheme_in_a_variant_file_is_refused_by_name() -> None:
    text = (Path(__file__).parent.parent / "variants" / "golf.toml").read_text("utf-8")
    assert 'scoring = "cards-left"' in text
    with pytest.raises(VariantError) as caught:
        parse_variant(text.replace('"cards-left"', '"golf-strokes"'), "bad-golf.toml")
    message = str(caught.value)
    known = ", ".join(f"'{name}'" for name in SCHEMES)
    assert f"scoring: expected one of {known}, got 'golf-strokes'" in message
    assert "'cards-left'" in message and "'tri-peaks'" in message
