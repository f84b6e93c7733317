"""``solitaire export --format fcs``: every game Freecell Solver has a preset for is written
in its board format, foundations line included, and Freecell Solver (``fc-solve -g NAME``,
the Debian package freecell-solver-bin that .ci/run installs) reads the boards back."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from solitaire_core import cli
from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.textview import format_fcs

FCS_GAMES = {
    "forecell": "forecell",
    "kings-only-bakers-game": "kings_only_bakers_game",
    "relaxed-freecell": "relaxed_freecell",
    "beleaguered-castle": "beleaguered_castle",
    "streets-and-alleys": "streets_and_alleys",
    "citadel": "citadel",
    "good-measure": "good_measure",
    "der-katzenschwanz": "der_katzenschwanz",
    "die-schlange": "die_schlange",
    "bakers-dozen": "bakers_dozen",
    "fan": "fan",
    "simple-simon": "simple_simon",
}
"""Our variant id -> Freecell Solver's preset name (``fc-solve -g``)."""

DEBIAN_BUILD_PLAYS = [
    "forecell",
    "kings-only-bakers-game",
    "relaxed-freecell",
    "beleaguered-castle",
    "streets-and-alleys",
    "citadel",
    "good-measure",
    "simple-simon",
]
"""The games the Debian build of fc-solve 5 takes: it is compiled for one deck and at most
ten columns, so it refuses Der Katzenschwanz and Die Schlange (two decks), Baker's Dozen
(13 columns) and Fan (18) with "missing card" or "exceeds the maximal number of stacks"."""


@pytest.mark.parametrize("variant_id", sorted(FCS_GAMES))
def test_export_writes_the_whole_layout(
    variant_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = get_variant(variant_id).resolve()
    state = deal(rules, 7)
    assert cli.main(["export", variant_id, "--deal", "7", "--format", "fcs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    heights = dict(token.split("-") for token in lines[0].removeprefix("Foundations: ").split())
    for suit in "HCDS":
        tops = [f[-1].rank for f in state.foundations if f and f[-1].suit.value == suit]
        expected = min(tops) if len(tops) == rules.decks else 0
        assert heights[suit] == ("0" if expected == 0 else "A23456789TJQK"[expected - 1])
    columns = lines[2:] if rules.cells else lines[1:]
    assert len(columns) == rules.columns
    assert [line.removeprefix(":").split() for line in columns] == [
        [str(c) for c in col] for col in state.columns
    ]


def test_foundations_line_shows_the_cards_dealt_up() -> None:
    assert format_fcs(deal(get_variant("beleaguered-castle").resolve(), 1)).startswith(
        "Foundations: H-A C-A D-A S-A\n"
    )
    assert format_fcs(deal(get_variant("die-schlange").resolve(), 1)).startswith(
        "Foundations: H-A C-A D-A S-A\n"
    )
    citadel = format_fcs(deal(get_variant("citadel").resolve(), 3)).splitlines()[0]
    assert citadel == "Foundations: H-2 C-2 D-3 S-5"


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed")
@pytest.mark.parametrize("variant_id", DEBIAN_BUILD_PLAYS)
def test_freecell_solver_reads_every_card_of_the_export(variant_id: str) -> None:
    for number in (1, 2, 32001):
        board = format_fcs(deal(get_variant(variant_id).resolve(), number))
        result = subprocess.run(
            ["fc-solve", "-g", FCS_GAMES[variant_id], "-mi", "20000", "-"],
            input=board,
            capture_output=True,
            text=True,
            timeout=60,
        )
        out = result.stdout + result.stderr
        # A board fc-solve cannot read (a card missing or twice: for instance a dropped
        # foundations line) is refused before the search starts.
        assert "missing card" not in out and "extra card" not in out, out
        assert (
            "This game is solveable." in out
            or "could not solve" in out.lower()
            or ("Iterations count exceeded" in out)
        ), out
