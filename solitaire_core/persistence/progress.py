"""A variant's progression over time, for the chart of the Statistics window: the games
played and won per day, week, month or year, the win rate and the fastest win so far.

The games are counted by calendar period, in the player's local time, as PySolFC's
Statistics > Progression counts them ("Last 7 days", "Last month", "Last year", "All
time"), not game by game: a player thinks of their play by the day and the week ("how did
I do this week?"), days without play show as gaps, and an evening of thirty quick games
does not look like a month of play.  Choosing "All time" picks the period from the time
the history spans (days for up to a month, weeks up to half a year, months up to three
years, years beyond), so the chart keeps a readable number of bars however long the
player has played.

The win rate and the fastest win are *so far*: each period's values count every game
up to its end, games before the chart's first period included, so the last period's
values are those of the statistics table (Win %, Fastest).  Cheat wins (won with
``cheated``) are left out of every figure, as in the table.

Pure computation: nothing here draws, and nothing reads the database (the games come
from :meth:`solitaire_core.persistence.StatsStore.games`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import TYPE_CHECKING

import attrs

from ..i18n import N_, ngettext, pgettext
from ..i18n import gettext as _

if TYPE_CHECKING:
    from .stats import GameRecord

__all__ = [
    "SPANS",
    "SPAN_LABELS",
    "UNITS",
    "Period",
    "Progression",
    "games_text",
    "month_name",
    "progression",
    "span_in_text",
    "span_label",
]

SPANS = ("week", "month", "year", "all")
"""The stretches of time a chart can show, shortest first."""

SPAN_LABELS = {
    "week": N_("Last 7 days"),
    "month": N_("Last 30 days"),
    "year": N_("Last 12 months"),
    "all": N_("All time"),
}
"""What the player reads for each of :data:`SPANS` (English: shown through ``gettext``)."""

_SPANS_IN_TEXT = {
    "week": N_("last 7 days"),
    "month": N_("last 30 days"),
    "year": N_("last 12 months"),
    "all": N_("all time"),
}
"""Each of :data:`SPANS` inside a sentence (``"Sea Towers, last 7 days: ..."``)."""

_NO_GAMES_IN_SPAN = {
    "week": N_("No games in the last 7 days; the last was on {date}. All time shows every game."),
    "month": N_("No games in the last 30 days; the last was on {date}. All time shows every game."),
    "year": N_(
        "No games in the last 12 months; the last was on {date}. All time shows every game."
    ),
    "all": N_("No games in all time; the last was on {date}. All time shows every game."),
}

UNITS = ("day", "week", "month", "year")
"""The periods games are counted by (a week starts on Monday)."""

_UNIT_TITLES = {"day": N_("Days"), "week": N_("Weeks"), "month": N_("Months"), "year": N_("Years")}
_DAILY_UP_TO = 31  # days of history "All time" shows day by day
_WEEKLY_UP_TO = 26 * 7  # ... and week by week
_MONTHLY_UP_TO = 36  # months of history "All time" shows month by month
_LEAST_DAYS = 7  # a chart by day shows at least this many days


def _clock(seconds: float) -> str:
    """``"2:05"``, ``"1:02:03"``: a play time as the statistics window writes it."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, whole = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{whole:02d}" if hours else f"{minutes}:{whole:02d}"


def span_label(span: str) -> str:
    """What the player reads for ``span`` (one of :data:`SPANS`), in the language spoken
    now: ``"Last 7 days"``, ..., ``"All time"``."""
    return _(SPAN_LABELS[span])


def span_in_text(span: str) -> str:
    """``span`` (one of :data:`SPANS`) as written inside a sentence, in the language
    spoken now: ``"last 7 days"``, ..., ``"all time"``."""
    return _(_SPANS_IN_TEXT[span])


def month_name(month: int) -> str:
    """The short name of ``month`` (1-12) in the language spoken now: ``"Jun"``
    (English), ``"Juni"``... (not the C locale's: the program's own language)."""
    names = (
        pgettext("short month", "Jan"), pgettext("short month", "Feb"),
        pgettext("short month", "Mar"), pgettext("short month", "Apr"),
        pgettext("short month", "May"), pgettext("short month", "Jun"),
        pgettext("short month", "Jul"), pgettext("short month", "Aug"),
        pgettext("short month", "Sep"), pgettext("short month", "Oct"),
        pgettext("short month", "Nov"), pgettext("short month", "Dec"),
    )  # fmt: skip
    return names[month - 1]


def _weekday_name(weekday: int) -> str:
    """The short name of ``weekday`` (0 Monday ... 6 Sunday) in the language spoken now."""
    names = (
        pgettext("short weekday", "Mon"), pgettext("short weekday", "Tue"),
        pgettext("short weekday", "Wed"), pgettext("short weekday", "Thu"),
        pgettext("short weekday", "Fri"), pgettext("short weekday", "Sat"),
        pgettext("short weekday", "Sun"),
    )  # fmt: skip
    return names[weekday]


def _day_text(day: date) -> str:
    """``"3 Jun 2024"`` in the language spoken now."""
    return pgettext("date", "{day} {month} {year}").format(
        day=day.day, month=month_name(day.month), year=day.year
    )


@attrs.frozen
class Period:
    """One bar of the chart: the games of a day, a week, a month or a year.

    Attributes:
        start: its first day.
        end: its last day (included).
        unit: one of :data:`UNITS`.
        played: games won or lost in it (cheat wins excluded).
        won: games won in it without Cheat.
        cheat_wins: games won with Cheat in it (counted nowhere else).
        win_rate: wins over played games from the first recorded game to the end of
            this period, in 0..1; ``None`` while no game was played yet.
        fastest_seconds: the fastest win from the first recorded game to the end of
            this period, in seconds; ``None`` while nothing was won yet.
        record: a win in this period set a new fastest time (the first win does).
    """

    start: date
    end: date
    unit: str
    played: int = 0
    won: int = 0
    cheat_wins: int = 0
    win_rate: float | None = None
    fastest_seconds: float | None = None
    record: bool = False

    @property
    def lost(self) -> int:
        """Games lost in this period."""
        return self.played - self.won

    @property
    def label(self) -> str:
        """A short name for the axis: ``"3 Jun"`` (a day, or the Monday of a week),
        ``"Jun 2024"``, ``"2024"``."""
        if self.unit in ("day", "week"):
            return pgettext("date", "{day} {month}").format(
                day=self.start.day, month=month_name(self.start.month)
            )
        if self.unit == "month":
            return pgettext("date", "{month} {year}").format(
                month=month_name(self.start.month), year=self.start.year
            )
        return str(self.start.year)

    @property
    def title(self) -> str:
        """The period in full: ``"Mon 3 Jun 2024"``, ``"Week of 3 Jun 2024"``,
        ``"Jun 2024"``, ``"2024"``."""
        if self.unit == "day":
            return pgettext("date", "{weekday} {date}").format(
                weekday=_weekday_name(self.start.weekday()), date=_day_text(self.start)
            )
        if self.unit == "week":
            return _("Week of {date}").format(date=_day_text(self.start))
        return self.label

    def summary(self, clock: Callable[[float], str] = _clock) -> str:
        """Its figures in a line: ``"Mon 3 Jun 2024: 5 played, 3 won; win rate so far
        60%; fastest win so far 2:05"`` (the last two only once known).

        Args:
            clock: writes a time given in seconds (default ``"2:05"``).
        """
        games = games_text(self.played, self.won)
        if self.cheat_wins:
            games = ngettext(
                "{games} (and {count} with Cheat)",
                "{games} (and {count} with Cheat)",
                self.cheat_wins,
            ).format(games=games, count=self.cheat_wins)
        if self.win_rate is None:
            return _("{period}: {games}").format(period=self.title, games=games)
        rate = f"{self.win_rate * 100:.0f}"
        if self.fastest_seconds is None:
            return _("{period}: {games}; win rate so far {rate}%").format(
                period=self.title, games=games, rate=rate
            )
        return _("{period}: {games}; win rate so far {rate}%; fastest win so far {time}").format(
            period=self.title, games=games, rate=rate, time=clock(self.fastest_seconds)
        )


@attrs.frozen
class Progression:
    """What the chart shows for one variant and option set.

    Attributes:
        span: one of :data:`SPANS`.
        unit: the period of each bar, one of :data:`UNITS`.
        periods: the periods, oldest first, every one of the span (those without games
            included); empty when there is no game to show.
        total_played: games played in the whole history (cheat wins excluded).
        total_won: games won in the whole history without Cheat.
        cheat_wins: games won with Cheat in the whole history.
        first_game: when the first game (of any kind) ended, in local time; ``None``
            without games.
        last_game: when the last game ended, in local time; ``None`` without games.
        first_win_seconds: the time of the only game when it is a win (for the note
            of a one-game history), else ``None``.
    """

    span: str
    unit: str
    periods: tuple[Period, ...] = ()
    total_played: int = 0
    total_won: int = 0
    cheat_wins: int = 0
    first_game: datetime | None = None
    last_game: datetime | None = None
    first_win_seconds: float | None = None

    @property
    def played(self) -> int:
        """Games played in the span shown."""
        return sum(period.played for period in self.periods)

    @property
    def won(self) -> int:
        """Games won (without Cheat) in the span shown."""
        return sum(period.won for period in self.periods)

    @property
    def unit_title(self) -> str:
        """The horizontal axis's name: ``"Days"``, ``"Weeks"`` (from Monday), ``"Months"``,
        ``"Years"``."""
        return _(_UNIT_TITLES[self.unit])

    @property
    def drawable(self) -> bool:
        """There is something to draw: two games or more in the whole history, at
        least one of them in the span shown (else :meth:`note` says why not)."""
        return self.total_played >= 2 and self.played > 0

    def note(self, clock: Callable[[float], str] = _clock) -> str:
        """Why nothing is drawn, in a sentence for the player (``""`` when
        :attr:`drawable`): no game yet, only cheat wins, a single game (with its
        result), or no game in the span shown (with the date of the last one).

        Args:
            clock: writes a time given in seconds (default ``"2:05"``).
        """
        if self.drawable:
            return ""
        if self.first_game is None or self.last_game is None:
            return _("No games recorded yet.")
        if self.total_played == 0:
            return _(
                "Only games won with Cheat are recorded: they are counted apart, and "
                "the chart leaves them out."
            )
        if self.total_played == 1:
            when = _day_text(self.last_game.date())
            if self.first_win_seconds is not None:
                return _(
                    "One game recorded so far (won in {time}, on {date}): the chart starts "
                    "with the second game."
                ).format(time=clock(self.first_win_seconds), date=when)
            return _(
                "One game recorded so far (lost, on {date}): the chart starts with the second game."
            ).format(date=when)
        return _(_NO_GAMES_IN_SPAN[self.span]).format(date=_day_text(self.last_game.date()))


def games_text(played: int, won: int) -> str:
    """``"5 played, 3 won"`` in the language spoken now."""
    return pgettext("progression", "{played}, {won}").format(
        played=ngettext("{count} played", "{count} played", played).format(count=played),
        won=ngettext("{count} won", "{count} won", won).format(count=won),
    )


def _period_start(day: date, unit: str) -> date:
    if unit == "day":
        return day
    if unit == "week":
        return day - timedelta(days=day.weekday())
    if unit == "month":
        return day.replace(day=1)
    return date(day.year, 1, 1)


def _next_start(start: date, unit: str) -> date:
    if unit == "day":
        return start + timedelta(days=1)
    if unit == "week":
        return start + timedelta(days=7)
    if unit == "month":
        return date(start.year + start.month // 12, start.month % 12 + 1, 1)
    return date(start.year + 1, 1, 1)


def _months_back(day: date, months: int) -> date:
    """The first day of the month ``months`` before ``day``'s month."""
    index = day.year * 12 + day.month - 1 - months
    return date(index // 12, index % 12 + 1, 1)


def _span_of(span: str, first: date, last: date) -> tuple[str, date]:
    """The unit and the first day of the chart of ``span`` ending on ``last``, for a
    history starting on ``first``."""
    if span == "week":
        return "day", last - timedelta(days=6)
    if span == "month":
        return "day", last - timedelta(days=29)
    if span == "year":
        return "month", _months_back(last, 11)
    days = (last - first).days + 1
    if days <= _DAILY_UP_TO:
        return "day", min(first, last - timedelta(days=_LEAST_DAYS - 1))
    if days <= _WEEKLY_UP_TO:
        return "week", _period_start(first, "week")
    months = (last.year - first.year) * 12 + last.month - first.month + 1
    if months <= _MONTHLY_UP_TO:
        return "month", _period_start(first, "month")
    return "year", _period_start(first, "year")


def progression(
    games: Sequence[GameRecord],
    span: str = "all",
    *,
    now: datetime | None = None,
    tz: tzinfo | None = None,
) -> Progression:
    """Count ``games`` by period over ``span`` for the progression chart.

    Args:
        games: the recorded games of one variant and option set (objects with
            ``finished_at``, an aware datetime or a naive one meaning UTC, ``won``,
            ``cheated`` and ``seconds``, as :meth:`StatsStore.games` returns them); in
            any order (they are sorted by finish time, keeping the given order of ties).
        span: one of :data:`SPANS`: ``"week"``, the last 7 days, and ``"month"``, the
            last 30, day by day; ``"year"``, the last 12 months, month by month;
            ``"all"``, from the first game, by the period its length calls for (see the
            module).  Each ends with today, or with the last game's day if that is later
            (a clock set back).
        now: the present (default the current time), aware or naive meaning UTC.
        tz: the time zone periods are counted in (default the computer's local zone).

    Returns:
        The :class:`Progression`: its periods cover the span even where no game was
        played; with no game (or only cheat wins) they are empty and
        :meth:`Progression.note` says why.

    Raises:
        ValueError: ``span`` is not one of :data:`SPANS`.
    """
    if span not in SPANS:
        raise ValueError(f"span must be one of {', '.join(SPANS)}, not {span!r}")

    def local(when: datetime) -> datetime:
        aware = when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)
        return aware.astimezone(tz)

    ordered = sorted(games, key=lambda game: local(game.finished_at))
    counted = [game for game in ordered if not (game.won and game.cheated)]
    total_won = sum(1 for game in counted if game.won)
    cheat_wins = len(ordered) - len(counted)
    first_game = local(ordered[0].finished_at) if ordered else None
    last_game = local(ordered[-1].finished_at) if ordered else None
    only_win = counted[0].seconds if len(counted) == 1 and counted[0].won else None
    today = local(now or datetime.now(timezone.utc)).date()
    if not counted:
        return Progression(
            span=span,
            unit="day" if span != "year" else "month",
            cheat_wins=cheat_wins,
            first_game=first_game,
            last_game=last_game,
        )
    assert first_game is not None and last_game is not None
    last_day = max(today, last_game.date())
    unit, start = _span_of(span, local(counted[0].finished_at).date(), last_day)
    start = _period_start(start, unit)
    starts = [start]
    while _next_start(starts[-1], unit) <= last_day:
        starts.append(_next_start(starts[-1], unit))

    played = won = 0
    fastest: float | None = None
    days = [local(game.finished_at).date() for game in ordered]
    position = 0

    def take(before: date) -> tuple[int, int, int]:
        """Count the games ending before the day ``before`` not counted yet into the
        totals so far; return those games' (played, won, cheat wins)."""
        nonlocal position, played, won, fastest
        here = [0, 0, 0]
        while position < len(ordered) and days[position] < before:
            game = ordered[position]
            position += 1
            if game.won and game.cheated:
                here[2] += 1
                continue
            played += 1
            won += game.won
            here[0] += 1
            here[1] += game.won
            if game.won:
                fastest = game.seconds if fastest is None else min(fastest, game.seconds)
        return here[0], here[1], here[2]

    take(starts[0])  # the games before the chart count in the figures so far
    periods: list[Period] = []
    for begin in starts:
        after = _next_start(begin, unit)
        best_before = fastest
        here_played, here_won, here_cheats = take(after)
        periods.append(
            Period(
                start=begin,
                end=after - timedelta(days=1),
                unit=unit,
                played=here_played,
                won=here_won,
                cheat_wins=here_cheats,
                win_rate=won / played if played else None,
                fastest_seconds=fastest,
                record=fastest is not None and (best_before is None or fastest < best_before),
            )
        )
    return Progression(
        span=span,
        unit=unit,
        periods=tuple(periods),
        total_played=len(counted),
        total_won=total_won,
        cheat_wins=cheat_wins,
        first_game=first_game,
        last_game=last_game,
        first_win_seconds=only_win,
    )
