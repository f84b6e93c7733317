"""The progression of the Statistics window computed from hand-made games: periods by
day, week, month and year, games played and won, the win rate and the fastest win so
far, cheat wins, time zones, and the histories too short to draw."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from solitaire_core.persistence import GameRecord, StatsStore, progression
from solitaire_core.persistence.progress import SPANS, Period

UTC = timezone.utc
NOW = datetime(2024, 6, 12, 15, 0, tzinfo=UTC)  # a Wednesday


def game(days_ago: float, won: bool, seconds: float = 300.0, cheated: bool = False) -> GameRecord:
    """A game that ended ``days_ago`` days before :data:`NOW`."""
    return GameRecord(
        finished_at=NOW - timedelta(days=days_ago), won=won, seconds=seconds, cheated=cheated
    )


def chart(games, span="all", **kwargs):
    return progression(games, span, now=NOW, tz=UTC, **kwargs)


# --- histories too short to draw -----------------------------------------------------------


def test_no_game_draws_nothing_and_says_so():
    shown = chart([])
    assert shown.periods == () and not shown.drawable
    assert shown.note() == "No games recorded yet."
    assert (shown.total_played, shown.played, shown.won) == (0, 0, 0)


def test_one_game_is_named_instead_of_drawn():
    won = chart([game(0, True, seconds=125.0)])
    assert not won.drawable
    assert won.note() == (
        "One game recorded so far (won in 2:05, on 12 Jun 2024): the chart starts with "
        "the second game."
    )
    lost = chart([game(3, False)])
    assert "(lost, on 9 Jun 2024)" in lost.note()
    assert "won in 1:02:03" in chart([game(0, True, 3723.0)]).note()  # hours shown


def test_only_cheat_wins_are_not_charted():
    shown = chart([game(1, True, cheated=True), game(0, True, cheated=True)])
    assert not shown.drawable and shown.cheat_wins == 2 and shown.total_played == 0
    assert "counted apart" in shown.note()


def test_a_span_without_games_names_the_last_one():
    games = [game(40, True), game(20, False)]
    week = chart(games, "week")
    assert len(week.periods) == 7 and week.played == 0 and not week.drawable
    assert week.note() == (
        "No games in the last 7 days; the last was on 23 May 2024. All time shows every game."
    )
    assert chart(games, "month").drawable and chart(games, "month").note() == ""


def test_an_unknown_span_is_refused():
    with pytest.raises(ValueError, match="span must be one of"):
        progression([], "fortnight")


# --- periods -------------------------------------------------------------------------------


def test_the_last_7_days_day_by_day_with_empty_days():
    games = [game(0, True), game(0.1, False), game(2, True), game(6, False), game(7, True)]
    shown = chart(games, "week")
    assert shown.unit == "day" and shown.drawable
    assert [p.start for p in shown.periods] == [date(2024, 6, d) for d in range(6, 13)]
    assert all(p.start == p.end for p in shown.periods)
    assert [p.played for p in shown.periods] == [1, 0, 0, 0, 1, 0, 2]
    assert [p.won for p in shown.periods] == [0, 0, 0, 0, 1, 0, 1]
    # The game of 8 days ago (won) is not in the span but counts in the rate so far.
    assert [p.win_rate for p in shown.periods] == [0.5, 0.5, 0.5, 0.5, 2 / 3, 2 / 3, 0.6]
    assert (shown.played, shown.won, shown.total_played, shown.total_won) == (4, 2, 5, 3)
    assert shown.periods[0].label == "6 Jun" and shown.periods[-1].title == "Wed 12 Jun 2024"


def test_the_last_30_days_and_the_last_12_months():
    games = [game(0, True), game(29, False), game(30, True), game(200, False)]
    month = chart(games, "month")
    assert month.unit == "day" and len(month.periods) == 30
    assert month.periods[0].start == date(2024, 5, 14)
    assert (month.periods[0].played, month.periods[-1].played) == (1, 1)
    year = chart(games, "year")
    assert year.unit == "month" and len(year.periods) == 12
    assert [p.label for p in year.periods[:2]] == ["Jul 2023", "Aug 2023"]
    assert year.periods[5].label == "Dec 2023" and year.periods[6].start == date(2024, 1, 1)
    assert year.periods[6].end == date(2024, 1, 31) and year.periods[7].end == date(2024, 2, 29)
    assert year.periods[-1].label == "Jun 2024"
    # 200 days ago is 25 Nov 2023; 30 days ago 13 May, 29 days ago 14 May.
    assert [p.played for p in year.periods] == [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 1]


@pytest.mark.parametrize(
    "first, unit, count, start",
    [
        (0, "day", 7, date(2024, 6, 6)),  # a short history still shows a week
        (3, "day", 7, date(2024, 6, 6)),
        (20, "day", 21, date(2024, 5, 23)),
        (30, "day", 31, date(2024, 5, 13)),
        (31, "week", 6, date(2024, 5, 6)),  # weeks start on Monday
        (181, "week", 27, date(2023, 12, 11)),
        (182, "month", 7, date(2023, 12, 1)),
        (1070, "month", 36, date(2021, 7, 1)),  # 36 months
        (1100, "year", 4, date(2021, 1, 1)),  # 37 months
        (5 * 365, "year", 6, date(2019, 1, 1)),
    ],
)
def test_all_time_picks_the_period_from_the_history_s_length(first, unit, count, start):
    shown = chart([game(first, True), game(0, False)])
    assert (shown.unit, len(shown.periods), shown.periods[0].start) == (unit, count, start)
    assert shown.periods[-1].start <= NOW.date() <= shown.periods[-1].end
    assert shown.played == 2 and shown.periods[-1].win_rate == 0.5
    for earlier, later in zip(shown.periods, shown.periods[1:]):
        assert later.start == earlier.end + timedelta(days=1)


def test_the_axis_names_each_unit():
    titles = {chart([game(days, True), game(0, True)]).unit_title for days in (1, 60, 400, 3000)}
    assert titles == {"Days", "Weeks", "Months", "Years"}
    week = Period(start=date(2024, 6, 10), end=date(2024, 6, 16), unit="week")
    assert (week.label, week.title) == ("10 Jun", "Week of 10 Jun 2024")
    assert Period(start=date(2021, 1, 1), end=date(2021, 12, 31), unit="year").title == "2021"


# --- figures so far ------------------------------------------------------------------------


def test_the_fastest_win_so_far_only_improves_and_marks_its_records():
    games = [
        game(6, False, 100.0),  # a loss's time is no record
        game(5, True, 400.0),
        game(4, True, 500.0),
        game(3, True, 400.0),  # as fast as the record: not a new one
        game(2, True, 250.0),
        game(1, True, 10.0, cheated=True),  # a cheat win is no record either
    ]
    shown = chart(games, "week")
    assert [p.fastest_seconds for p in shown.periods] == [
        None, 400.0, 400.0, 400.0, 250.0, 250.0, 250.0,
    ]  # fmt: skip
    assert [p.record for p in shown.periods] == [False, True, False, False, True, False, False]
    assert shown.periods[1].win_rate == 0.5 and shown.periods[0].win_rate == 0.0


def test_a_record_set_before_the_span_is_not_marked_in_it():
    shown = chart([game(20, True, 100.0), game(2, True, 200.0), game(1, True, 90.0)], "week")
    assert shown.periods[0].fastest_seconds == 100.0 and not shown.periods[0].record
    assert [p.record for p in shown.periods].count(True) == 1
    assert shown.periods[5].record and shown.periods[5].fastest_seconds == 90.0


def test_cheat_wins_are_counted_apart():
    games = [game(1, True, cheated=True), game(1, False, cheated=True), game(0, True)]
    shown = chart(games, "week")
    day = shown.periods[5]
    assert (day.played, day.won, day.lost, day.cheat_wins) == (1, 0, 1, 1)  # a cheated loss
    assert day.win_rate == 0.0 and shown.periods[-1].win_rate == 0.5
    assert shown.cheat_wins == 1 and shown.total_played == 2
    assert day.summary() == (
        "Tue 11 Jun 2024: 1 played, 0 won (and 1 with Cheat); win rate so far 0%"
    )
    assert (
        shown.periods[-1]
        .summary(clock=lambda s: f"{s:.0f} s")
        .endswith("win rate so far 50%; fastest win so far 300 s")
    )


def test_periods_are_days_of_the_chosen_time_zone_and_games_are_sorted():
    late = GameRecord(finished_at=datetime(2024, 6, 11, 23, 30, tzinfo=UTC), won=True)
    naive = GameRecord(finished_at=datetime(2024, 6, 12, 9, 0), won=False)  # naive: UTC
    east = timezone(timedelta(hours=2))
    in_utc = progression([naive, late], "week", now=NOW, tz=UTC)
    assert [p.played for p in in_utc.periods[-2:]] == [1, 1]
    assert in_utc.periods[-2].win_rate == 1.0  # sorted: the win came first
    in_east = progression([naive, late], "week", now=NOW, tz=east)
    assert [p.played for p in in_east.periods[-2:]] == [0, 2]
    assert in_east.first_game is not None and in_east.first_game.utcoffset() == timedelta(hours=2)


def test_a_game_after_now_extends_the_span_to_its_day():
    shown = chart([game(1, True), game(-2, False)], "week")  # the clock was set back
    assert shown.periods[-1].start == date(2024, 6, 14) and shown.played == 2


@hsettings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=-1, max_value=4000),
            st.booleans(),
            st.floats(min_value=0, max_value=10_000),
            st.booleans(),
        ),
        max_size=40,
    ),
    st.sampled_from(SPANS),
)
def test_the_last_period_agrees_with_the_whole_history(rows, span):
    games = [game(days, won, seconds, cheated) for days, won, seconds, cheated in rows]
    shown = chart(games, span)
    counted = [g for g in games if not (g.won and g.cheated)]
    assert shown.total_played == len(counted)
    if not counted:
        assert shown.periods == () and shown.note()
        return
    last = shown.periods[-1]
    wins = [g.seconds for g in counted if g.won]
    assert last.win_rate == pytest.approx(len(wins) / len(counted))
    assert last.fastest_seconds == (min(wins) if wins else None)
    if span == "all":
        assert shown.played == len(counted) and shown.won == len(wins)
    assert shown.played <= len(counted) and shown.drawable == (
        len(counted) >= 2 and shown.played > 0
    )


# --- the games read back from the store ----------------------------------------------------


def test_the_store_gives_a_variant_s_games_in_the_order_played(tmp_path: Path):
    with StatsStore(tmp_path / "stats.sqlite3") as store:
        t0 = datetime(2024, 1, 1, 12, tzinfo=UTC)
        for minutes, won, options in [(5, True, {}), (1, False, {}), (3, True, {"draw": "3"})]:
            store.record_game(
                "klondike", options, 10**19 + minutes, won=won, moves=50 + minutes,
                seconds=60.5 * minutes, used_undo=False, used_hint=False, cheated=False,
                finished_at=t0 + timedelta(minutes=minutes),
            )  # fmt: skip
        store.record_game(
            "seahaven", {}, 1, won=True, moves=9, seconds=1, used_undo=False,
            used_hint=False, cheated=True, finished_at=t0,
        )  # fmt: skip
        plain = store.games("klondike")
        assert [(g.won, g.moves, g.deal) for g in plain] == [
            (False, 51, 10**19 + 1), (True, 55, 10**19 + 5),
        ]  # fmt: skip
        assert plain[0].finished_at == t0 + timedelta(minutes=1)
        assert plain[0].finished_at.tzinfo is not None and plain[1].seconds == 302.5
        assert [g.seconds for g in store.games("klondike", {"draw": "3"})] == [181.5]
        (cheat,) = store.games("seahaven", {})
        assert cheat.cheated and cheat.won
        assert store.games("golf") == []
        summary = store.summary("klondike", {})[0]
        last = progression(plain, now=t0).periods[-1]
        assert (last.win_rate, last.fastest_seconds) == (
            summary.win_rate, summary.fastest_seconds,
        )  # fmt: skip
