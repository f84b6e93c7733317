"""``solitaire stats``: show and reset the recorded statistics from the command line."""

from __future__ import annotations

import pytest

from solitaire_core.cli import main
from solitaire_core.persistence import StatsStore

pytestmark = pytest.mark.usefixtures("solitaire_home")


def record(variant, options, won):
    with StatsStore() as store:
        store.record_game(variant, options, 3, won, 80, 200.0, False, False, False)


def summary():
    with StatsStore() as store:
        return [(s.variant, s.options.key(), s.played) for s in store.summary()]


def test_without_games_it_says_so(capsys):
    assert main(["stats"]) == 0
    assert capsys.readouterr().out.strip() == "No games recorded yet."


def test_the_table_lists_each_variant_and_option_set(capsys):
    record("sea-towers", {"empty_columns": "any"}, True)
    record("seahaven", {}, False)
    assert main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["Variant", "Options", "Played"]
    assert lines[2].split()[:5] == ["sea-towers", "empty_columns=any", "1", "1", "0"]
    assert lines[3].split()[:5] == ["seahaven", "-", "1", "0", "1"]
    assert main(["stats", "seahaven"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()[2:]] == ["seahaven"]


def test_reset_needs_a_variant_or_all(capsys):
    record("seahaven", {}, True)
    assert main(["stats", "--reset"]) == 2
    assert "--all" in capsys.readouterr().err
    assert summary() == [("seahaven", "", 1)]


def test_reset_of_one_variant_or_option_set(capsys):
    record("seahaven", {}, True)
    record("sea-towers", {"empty_columns": "any"}, True)
    record("sea-towers", {"empty_columns": "king"}, True)
    assert main(["stats", "sea-towers", "--option", "empty_columns=any", "--reset"]) == 0
    assert "Deleted 1 recorded game of sea-towers (empty_columns=any)." in capsys.readouterr().out
    assert summary() == [("sea-towers", "empty_columns=king", 1), ("seahaven", "", 1)]
    assert main(["stats", "seahaven", "--reset"]) == 0
    assert summary() == [("sea-towers", "empty_columns=king", 1)]
    assert main(["stats", "--all", "--reset"]) == 0
    assert "Deleted 1 recorded game of every variant." in capsys.readouterr().out
    assert summary() == []


def test_a_variant_and_all_together_is_an_error(capsys):
    assert main(["stats", "seahaven", "--all"]) == 2
    assert "not both" in capsys.readouterr().err
