"""The conformance kit has teeth: each check fails on the kind of bug it is there to catch.

Faults are planted in the rules engine (or in a variant's wiring) with ``monkeypatch``;
the kit reaches the engine through its module, so it sees them as a variant author's
engine bug would look.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings

from solitaire_core import deal as deals
from solitaire_core import rules as engine
from solitaire_core.cards import Card
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
from solitaire_core.state import GameState
from solitaire_core.testing import checks
from solitaire_core.testing.checks import KitContext, KitSettings
from solitaire_core.testing.reference import declared_covering, expected_move_limit, winnable
from solitaire_core.testing.strategies import full_foundations, pair_units, reduced_board_positions

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


def test_solver_verdict_check_catches_a_card_called_frozen_that_moves(monkeypatch):
    """A careless test of cards that can never move (one that calls every column's
    bottom card frozen) would call winnable Klondike end games lost; the check compares
    it with the exhaustive search and says so."""
    import solitaire_core.solver.stock as stock

    ctx = attrs.evolve(context("klondike"), settings=KitSettings(max_examples=40, derandomize=True))
    careless = lambda state: frozenset(col[0] for col in state.columns if col)  # noqa: E731
    monkeypatch.setattr(stock, "frozen_cards", careless)
    # The first failing example is enough: shrinking it would search many end games more.
    unshrunk = lambda ctx, strategy, body: ctx.settings.hypothesis(shrink=False)(  # noqa: E731
        given(strategy)(body)
    )()
    monkeypatch.setattr(checks, "_run", unshrunk)
    assert "can never move, says the stock search, yet the exhaustive search wins" in fails(
        checks.check_solver_verdicts, ctx
    )


# -- layouts and pairs (Pyramid, TriPeaks) ----------------------------------------------


def pyramid_blockmap(size: int = 7) -> list[set[int]]:
    """PySolFC's ``Pyramid._createPyramid`` (pysollib/games/pyramid.py, game 38): row i of
    the triangle holds i + 1 cards, and card n of row i is blocked by cards n + i + 1 and
    n + i + 2 of the next row."""
    out: list[set[int]] = [set() for _ in range(size * (size + 1) // 2)]
    n = 0
    for i in range(size - 1):
        for _ in range(i + 1):
            k = n + i + 1
            out[n] = {k, k + 1}
            n += 1
    return out


def three_peaks_blockmap() -> list[set[int]]:
    """PySolFC's ``ThreePeaks_RowStack.basicIsBlocked`` (pysollib/games/threepeaks.py,
    game 22231): row i < 18 is blocked by rows i + STEP[i] and i + STEP[i] + 1 (the walk
    on down from there only meets cards that lie on those)."""
    step = (3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9)
    return [{i + step[i], i + step[i] + 1} if i < 18 else set() for i in range(28)]


@pytest.mark.parametrize(
    ("variant_id", "blockmap"),
    [("pyramid", pyramid_blockmap()), ("tri-peaks", three_peaks_blockmap())],
)
def test_the_kits_covering_is_pysolfcs_blockmap(rules_of, variant_id, blockmap):
    rules = rules_of(variant_id)
    assert [set(on) for on in declared_covering(tuple(rules.layout))] == blockmap


@pytest.mark.parametrize("variant_id", ["pyramid", "tri-peaks"])
def test_the_kits_positions_of_a_layout_are_ones_play_can_leave(variant_id):
    # A column is empty only once every card on it has left, and lies face down whole
    # only while a card lies on it.
    rules = get_variant(variant_id).resolve()

    @settings(max_examples=60, database=None, deadline=None)
    @given(reduced_board_positions(rules, 12))
    def check(state):
        for i, col in enumerate(state.columns):
            on = declared_covering(tuple(rules.layout))[i]
            if not col:
                assert not any(state.columns[j] for j in on), state.to_text()
            if state.hidden and state.hidden[i] >= len(col) > 0:
                assert any(state.columns[j] for j in on), state.to_text()

    check()


def test_the_pairs_pile_of_a_won_pyramid_is_pairs_and_kings():
    rules = get_variant("pyramid").resolve()
    units = pair_units(rules)
    assert len(units) == 28 and units[-1] == (Card.parse("KD"),)
    assert all(len(u) == 1 and u[0].rank == 13 or sum(c.rank for c in u) == 13 for u in units)
    assert full_foundations(rules) == (tuple(c for u in units for c in u),)


@pytest.mark.parametrize("variant_id", ["pyramid", "tri-peaks"])
def test_random_play_catches_rules_that_ignore_the_layout(rules_of, variant_id):
    # The file's layout still says which card lies on which; the engine, wired with no
    # covering, lets covered cards play (and in TriPeaks deals them face up).
    rules = rules_of(variant_id)
    flat = attrs.evolve(rules, covered_by=tuple(() for _ in range(rules.columns)))
    message = fails(checks.check_random_play, KitContext(flat, None, FIXED))
    assert "is covered or face down" in message or "expected illegal pair" in message, message


def test_random_play_catches_a_card_that_never_turns_up(monkeypatch):
    monkeypatch.setattr(engine, "turn_up_uncovered", lambda rules, columns, hidden: hidden)
    message = fails(checks.check_random_play, context("tri-peaks"))
    assert "face down with no card on it" in message


@pytest.mark.slow
def test_random_play_catches_a_pair_whose_cards_go_up_in_the_wrong_order(monkeypatch):
    honest = engine._play_pair

    def swapped(state, move):
        return honest(
            state, Move(move.target, move.source) if move.target.kind.value != "f" else move
        )

    monkeypatch.setattr(engine, "_play_pair", swapped)
    assert "the source's card, then the target's" in fails(
        checks.check_random_play, context("pyramid")
    )


def test_random_play_catches_a_stock_top_that_does_not_pair(monkeypatch):
    # Pyramid's stock shows its top card (stock.top_plays); an engine that forgets it.
    honest_card, honest_moves = engine._free_card, engine._pair_moves

    def face_down_stock(state, ref, name):
        if ref.kind.value == "s":
            return None, "the stock's top card lies face down"
        return honest_card(state, ref, name)

    monkeypatch.setattr(engine, "_free_card", face_down_stock)
    monkeypatch.setattr(
        engine, "_pair_moves", lambda state: [m for m in honest_moves(state) if "s" not in str(m)]
    )
    assert "expected legal" in fails(checks.check_random_play, context("pyramid"))


def test_won_check_catches_a_pyramid_won_with_cards_in_the_stock(monkeypatch):
    monkeypatch.setattr(GameState, "is_won", property(lambda s: not any(s.columns)))
    assert "left in the stock" in fails(checks.check_won, context("pyramid"))


def test_safe_autoplay_check_catches_autoplay_that_takes_a_covered_card(monkeypatch):
    monkeypatch.setattr(engine, "_top_to_play", lambda state, i: (state.columns[i] or (None,))[-1])
    message = fails(checks.check_safe_autoplay, context("pyramid"))
    assert "is illegal" in message and "covered" in message


def test_deal_check_catches_a_deal_that_leaves_covered_cards_face_up(rules_of):
    rules = rules_of("tri-peaks")
    flat = attrs.evolve(rules, covered_by=tuple(() for _ in range(rules.columns)))
    assert "face-down cards" in fails(checks.check_deal, KitContext(flat, None, FIXED))
