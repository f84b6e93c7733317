"""The conformance kit has teeth: each check fails on the kind of bug it is there to catch.

Faults are planted in the rules engine (or in a variant's wiring) with ``monkeypatch``;
the kit reaches the engine through its module, so it sees them as a variant author's
engine bug would look.
"""

from __future__ import annotations

import attrs
import pytest

from solitaire_core import deal as deals
from solitaire_core import rules as engine
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
from solitaire_core.state import GameState
from solitaire_core.testing import checks
from solitaire_core.testing.checks import KitContext, KitSettings
from solitaire_core.testing.reference import expected_move_limit, winnable

FIXED = KitSettings(max_examples=40, steps=30, derandomize=True)


def context(variant_id: str, **options: str) -> KitContext:
    definition = get_variant(variant_id)
    return KitContext(definition.resolve(options), definition, FIXED)


def fails(check, ctx: KitContext) -> str:
    """Run ``check`` and return its failure message (the test fails if it passes)."""
    with pytest.raises(AssertionError) as info:
        check(ctx)
    return str(info.value)


def test_move_limit_check_catches_an_off_by_one(monkeypatch):
    honest = engine.max_run_move
    monkeypatch.setattr(
        engine, "max_run_move", lambda s, empty, cheat=False: honest(s, empty, cheat=cheat) + 1
    )
    message = fails(checks.check_move_limit, context("seahaven"))
    assert "expected illegal" in message and "free-cells-plus-one" in message


def test_move_limit_check_catches_a_supermove_that_ignores_empty_columns(monkeypatch):
    def no_doubling(state, to_empty_column, *, cheat=False):
        return engine.UNLIMITED if cheat else state.free_cells + 1

    monkeypatch.setattr(engine, "max_run_move", no_doubling)
    assert "supermove" in fails(checks.check_move_limit, context("freecell"))


def test_random_play_catches_legal_moves_that_miss_some_moves(monkeypatch):
    honest = engine.legal_moves

    def without_cell_to_cell(state, *, cheat=False):
        return [
            m for m in honest(state, cheat=cheat)
            if not (m.source.kind.value == "c" and m.target.kind.value == "c")
        ]  # fmt: skip

    monkeypatch.setattr(engine, "legal_moves", without_cell_to_cell)
    assert "is_legal says True" in fails(checks.check_random_play, context("sea-towers"))


def test_random_play_catches_an_undo_that_goes_back_too_far(monkeypatch):
    honest = Session.undo

    def undo_two(self):
        turn = honest(self)
        if turn is not None and self.history:
            self.state = self.history[-1].before
        return turn

    monkeypatch.setattr(Session, "undo", undo_two)
    fails(checks.check_random_play, context("freecell"))


def test_illegal_moves_check_catches_a_refusal_without_a_reason(monkeypatch):
    honest = engine._check

    def mute(state, move, cheat, name=str):
        concrete, reason = honest(state, move, cheat, name)
        return concrete, (None if reason is None else " ")

    monkeypatch.setattr(engine, "_check", mute)
    assert "without a reason" in fails(checks.check_illegal_moves, context("double-sea-towers"))


def test_deal_check_catches_a_layout_that_ignores_the_recipe_order(monkeypatch):
    honest = deals.lay_out
    monkeypatch.setattr(deals, "lay_out", lambda rules, cards: honest(rules, cards[::-1]))
    assert "PySolFC's order" in fails(checks.check_deal, context("seahaven"))


def test_deal_check_follows_the_recipe_the_rules_carry():
    rules = get_variant("seahaven").resolve()
    wrong = attrs.evolve(rules, deal=attrs.evolve(rules.deal, cells=(0, 1)))
    ctx = KitContext(wrong, None, FIXED)
    real = deals.deal(rules, 5)
    moved = deals.deal(wrong, 5)
    assert real.cells != moved.cells  # the planted fault changes the layout
    # The recipe itself now says cells 1-2, so the check must still pass: it compares the
    # deal with the recipe the rules carry, not with Seahaven's.
    checks.check_deal(ctx)


def test_empty_column_check_catches_a_wrongly_wired_predicate():
    rules = get_variant("seahaven").resolve()
    miswired = attrs.evolve(rules, empty_accepts=lambda card: True)  # file still says "king"
    message = fails(checks.check_empty_columns, KitContext(miswired, None, FIXED))
    assert "tableau.empty = 'king'" in message


def test_won_check_catches_a_premature_win(monkeypatch):
    monkeypatch.setattr(
        GameState, "is_won", property(lambda s: s.foundation_cards >= s.rules.card_count - 1)
    )
    assert "King still" in fails(checks.check_won, context("eight-off"))


def test_notation_check_catches_a_move_that_prints_without_its_count(monkeypatch):
    monkeypatch.setattr(Move, "__str__", lambda m: f"{m.source}>{m.target}")
    fails(checks.check_notation, context("freecell"))


def test_options_check_catches_an_option_that_does_not_reach_the_rules(monkeypatch):
    definition = get_variant("sea-towers")
    honest = type(definition).resolve
    monkeypatch.setattr(type(definition), "resolve", lambda self, options=None: honest(self, None))
    fails(checks.check_options, KitContext(definition.resolve(), definition, FIXED))


def test_scenario_check_reports_a_failing_scenario(tmp_path):
    path = tmp_path / "wrong.toml"
    path.write_text(
        'variant = "seahaven"\n[[scenario]]\nname = "wrong on purpose"\n'
        'source = "test: a Queen cannot fill an empty column"\n'
        'position = "2H,QS - - - - - - - - - | - - - - | - - - -"\n'
        'move = "t1>t2"\nlegal = true\n',
        "utf-8",
    )
    ctx = attrs.evolve(context("seahaven"), scenario_files=(path,))
    assert "wrong on purpose" in fails(checks.check_scenarios, ctx)


# -- the reference statements the checks compare with ----------------------------------


@pytest.mark.parametrize(
    ("limit", "free", "empty", "to_empty", "expected"),
    [
        ("free-cells-plus-one", 2, 5, False, 3),
        ("free-cells-plus-one", 0, 0, False, 1),
        ("supermove", 1, 2, False, 8),
        ("supermove", 1, 2, True, 4),
        ("supermove", 0, 1, True, 1),
        ("one", 4, 3, False, 1),
    ],
)
def test_expected_move_limit_is_the_readme_formula(
    rules_of, limit, free, empty, to_empty, expected
):
    rules = attrs.evolve(rules_of("seahaven"), move_limit=limit)
    got = expected_move_limit(rules, free_cells=free, empty_columns=empty, to_empty=to_empty)
    assert got == expected


FREECELL_TRAP = (
    "KH,8S,9S,TS,JS,QS,KS - - | QH - | "
    "AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,KC AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD "
    "AH,2H,3H,4H,5H,6H,7H,8H,9H,TH,JH AS,2S,3S,4S,5S,6S,7S"
)


def test_sending_every_card_up_can_lose_a_freecell_game_and_safe_autoplay_does_not():
    # FreeCell's rules on a board of three columns and two cells: the Queen of hearts in a
    # cell is the only red card the black Jack can go on while the spades are dug out.
    board = attrs.evolve(get_variant("freecell").resolve(), columns=3, cells=2)
    position = GameState.from_text(board, FREECELL_TRAP)
    assert winnable(position) is True
    careless, moves = engine.autoplay_moves(position, "all")
    assert [str(m) for m in moves] == ["c1>f3"]
    assert winnable(careless) is False
    safe, moves = engine.autoplay_moves(position, "safe")
    assert moves == [] and winnable(safe) is True


def test_winnable_gives_up_undecided_when_the_budget_runs_out():
    board = attrs.evolve(get_variant("freecell").resolve(), columns=3, cells=2)
    position = GameState.from_text(board, FREECELL_TRAP)
    careless, _ = engine.autoplay_moves(position, "all")
    assert winnable(careless, budget=3) is None


@pytest.mark.slow
def test_solver_verdict_check_catches_a_search_that_tries_only_the_first_pile(monkeypatch):
    """A fault the solver once had, planted again: the Python engine puts a card only on
    the first foundation pile that takes it. On end games whose piles start from different
    dealt ranks (Stalactites) that calls winnable positions lost, and the check says so;
    the honest engines pass the same examples."""
    from solitaire_core.solver.engine import Engine

    ctx = attrs.evolve(
        context("stalactites"), settings=KitSettings(max_examples=300, derandomize=True)
    )
    checks.check_solver_verdicts(ctx)
    honest = Engine.pile_choices
    monkeypatch.setattr(Engine, "pile_choices", lambda self, found, k: honest(self, found, k)[:1])
    message = fails(checks.check_solver_verdicts, ctx)
    assert "the python solver calls a winnable position lost" in message
