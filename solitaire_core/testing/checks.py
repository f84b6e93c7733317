"""The conformance checks: plain functions that raise ``AssertionError`` when a variant
breaks the framework's contract.

Each check takes a :class:`KitContext` (the resolved rules, optionally the variant
definition, the Hypothesis budget, scenario files). :data:`CHECKS` lists them in the order
the ``solitaire conformance`` command runs them; the pytest base class
:class:`~solitaire_core.testing.suite.VariantConformance` has one test per check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

from .. import deal as deals
from .. import rules as engine
from ..cards import KING, Card
from ..errors import IllegalMoveError, VariantError
from ..moves import Move, PileKind, PileRef
from ..session import Session
from ..state import GameState
from ..variant import DealRecipe, Rules, VariantDefinition
from . import reference
from .machine import conformance_machine
from .strategies import (
    any_moves,
    cards_in_play_when_won,
    deal_numbers,
    full_foundations,
    pair_units,
    pile_refs,
    reduced_board_positions,
    won_columns,
)


@attrs.frozen
class KitSettings:
    """How hard the kit tries.

    :param max_examples: Hypothesis examples per property check (and random games played
        by the state machine).
    :param steps: steps per random game (``stateful_step_count``).
    :param search_cards: cards off the foundations in the positions searched exhaustively
        by the safe-autoplay check (the search grows fast with this).
    :param search_budget: most positions one exhaustive search visits before giving up on
        that example (an undecided example proves nothing and is skipped).
    :param database: keep Hypothesis' example database (``.hypothesis/`` in the working
        directory); the command line turns it off.
    :param shrink_games: shrink a failing random game to a short one. Off by default:
        with the invariants checked after every move, shrinking a long game can take
        Hypothesis minutes; the unshrunk game is reported step by step either way.
    :param derandomize: draw the same examples on every run (reproducible, explores less).
    :param solver_states: the positions the solver's largest search may store per deal
        in the solutions-replay check (:func:`~solitaire_core.solver.budget_for`; an
        undecided deal proves nothing and is passed over).
    """

    max_examples: int = 100
    steps: int = 50
    search_cards: int = 9
    search_budget: int = 20000
    database: bool = True
    shrink_games: bool = False
    derandomize: bool = False
    solver_states: int = 3000

    def hypothesis(self, *, shrink: bool = True) -> settings:
        """The matching :class:`hypothesis.settings` (``shrink=False``: no shrinking)."""
        keep = self.database and not self.derandomize
        extra: dict[str, Any] = {} if keep else {"database": None}
        if not shrink:
            extra["phases"] = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
        return settings(
            max_examples=self.max_examples,
            stateful_step_count=self.steps,
            deadline=None,
            derandomize=self.derandomize,
            suppress_health_check=[
                HealthCheck.too_slow,
                HealthCheck.data_too_large,
                HealthCheck.filter_too_much,
                HealthCheck.large_base_example,
            ],
            **extra,
        )


@attrs.frozen
class KitContext:
    """What a check needs.

    :param rules: the resolved variant under test.
    :param definition: its definition, when known (the options check needs it).
    :param settings: the :class:`KitSettings`.
    :param scenario_files: scenario files (docs/scenarios.md) to run; only those for
        ``rules.id`` with the same option values are used.
    """

    rules: Rules
    definition: VariantDefinition | None = None
    settings: KitSettings = KitSettings()
    scenario_files: tuple[Any, ...] = ()


def _run(ctx: KitContext, strategy: st.SearchStrategy[object], body: Callable[..., None]) -> None:
    """Run ``body(value)`` over ``strategy`` with the kit's Hypothesis settings."""
    test = ctx.settings.hypothesis()(given(strategy)(body))
    test()


# -- deals -------------------------------------------------------------------------------


def _dealing_order(state: GameState) -> list[Card]:
    """Read a fresh deal back into dealing order, as the recipe says it was dealt
    (docs/variant-format.md: ``rows`` one card per column in turn, pass after pass,
    ``columns`` one column after another; the dealt cells last)."""
    recipe = state.rules.deal
    out: list[Card] = []
    if recipe.order == "rows":
        taken = [0] * len(state.columns)
        order = list(range(len(state.columns)))
        if recipe.right_to_left:
            order.reverse()
        for counts in recipe.column_passes:
            for row in range(max(counts, default=0)):
                for i in order:
                    if row < counts[i]:
                        out.append(state.columns[i][taken[i]])
                        taken[i] += 1
    else:
        for col in state.columns:
            out += col
    for index in recipe.cells:
        card = state.cells[index]
        assert card is not None
        out.append(card)
    # The stock's first deals went to the waste (bottom first), or onto the foundation
    # where the stock deals there (Golf); the rest is dealt from the stock's top.
    out += state.waste
    if state.rules.stock_deal == "foundation":
        out += state.foundations[0]
    out += reversed(state.stock)
    return out


def _reorders(recipe: DealRecipe) -> bool:
    """Whether the recipe changes PySolFC's order or takes cards out of it, so that the
    layout can no longer be read back into that order card for card."""
    return bool(
        recipe.reverse
        or recipe.bottom_ranks
        or recipe.first_ranks
        or recipe.play_to_foundations
        or recipe.foundation_cards
        or recipe.order == "kings-start-columns"
        or bool(recipe.last_cards)
    )


def _check_recipe_steps(state: GameState, number: int) -> None:
    """What each reordering step of the recipe promises, on one deal."""
    recipe = state.rules.deal
    founds = [c for f in state.foundations for c in f]
    if recipe.play_to_foundations:
        assert len(founds) >= recipe.foundation_cards, f"deal {number}: too few cards went up"
        for pile in state.foundations:
            assert all(b.suit is a.suit and b.rank == a.rank + 1 for a, b in zip(pile, pile[1:])), (
                f"deal {number}: a foundation is not built up in suit"
            )
    else:
        assert len(founds) == recipe.foundation_cards, (
            f"deal {number}: {len(founds)} cards on the foundations, "
            f"recipe says {recipe.foundation_cards}"
        )
    starts = [f[0] for f in state.foundations if f]
    if recipe.foundation_ranks:
        assert all(c.rank in recipe.foundation_ranks for c in starts), (
            f"deal {number}: a foundation starts with a rank deal.foundations.ranks does not name"
        )
    if recipe.twins_of_first:
        first = state.columns[0][0]
        assert [c.rank for c in starts] == [first.rank] * 3, (
            f"deal {number}: the foundations do not start with three twins of {first}"
        )
    if recipe.first_ranks:
        order = _dealing_order(state)
        wanted = [r for r in recipe.first_ranks for _ in range(4 * state.rules.decks)]
        assert [c.rank for c in order[: len(wanted)]] == wanted, (
            f"deal {number}: the first cards dealt are not of ranks {list(recipe.first_ranks)}"
        )
    if recipe.last_cards:
        # Dealt after every other card: the last of the columns and cells, or the
        # foundation cards dealt last (Black Hole's Ace of Spades).
        placed = _dealing_order(state)
        went_up = recipe.foundation_cards - recipe.foundation_last
        placed += [f[0] for f in state.foundations[went_up:] if f]
        last = list(recipe.last_cards)
        assert placed[-len(last) :] == last, f"deal {number}: {last} are not the last cards dealt"
    if recipe.order == "kings-start-columns":
        for i, col in enumerate(state.columns):
            kings = [j for j, c in enumerate(col) if c.rank == KING]
            if kings or i:
                assert kings == [0] or not col, (
                    f"deal {number}: column {i + 1} does not hold one King, at its bottom"
                )
    elif not recipe.play_to_foundations:
        sizes = tuple(len(col) for col in state.columns)
        assert sizes == recipe.columns, (
            f"deal {number}: columns of {sizes}, recipe {recipe.columns}"
        )


def check_deal(ctx: KitContext) -> None:
    """The deal places every card of the declared decks exactly once, as the recipe says:
    so many cards per column, the named cells filled, the other cells empty; the cards in
    the order PySolFC (or the plugin's deal method) gives for that deal number, face down
    as ``deal.face_down`` says (in a layout, a column a card lies on wholly). Recipes
    that reorder the pack or put cards on the foundations (docs/variant-format.md) are
    checked step by step instead: the foundation cards, the ranks dealt first, a King at
    the bottom of each column it starts."""
    rules = ctx.rules
    recipe = rules.deal
    expected = Counter(reference.all_cards(rules))
    method = None
    if recipe.method != "pysolfc":
        from ..plugins import get_registry

        method = get_registry().deal_methods.get(recipe.method)

    def body(number: int) -> None:
        state = deals.deal(rules, number)
        cards = state.all_cards()
        assert Counter(cards) == expected, f"deal {number} does not hold each card once"
        filled = {i for i, c in enumerate(state.cells) if c is not None}
        assert filled == set(recipe.cells), (
            f"deal {number}: cells {sorted(i + 1 for i in filled)} filled, "
            f"recipe says {sorted(i + 1 for i in recipe.cells)}"
        )
        if _reorders(recipe):
            _check_recipe_steps(state, number)
            return
        sizes = tuple(len(col) for col in state.columns)
        assert sizes == recipe.columns, (
            f"deal {number}: columns of {sizes}, recipe {recipe.columns}"
        )
        stock_up = recipe.stock_deals if rules.stock_deal == "foundation" else 0
        assert sum(map(len, state.foundations)) == stock_up, (
            f"deal {number}: {sum(map(len, state.foundations))} cards on the foundations, "
            f"expected {stock_up}"
        )
        down = reference.dealt_face_down(rules, state.columns, recipe.face_down)
        assert (state.hidden or (0,) * rules.columns) == down, (
            f"deal {number}: face-down cards {state.hidden}, recipe {recipe.face_down}"
        )
        if recipe.method == "pysolfc":
            assert _dealing_order(state) == deals.pysolfc_order(rules.decks, number, rules.suits), (
                f"deal {number} is not laid out in PySolFC's order"
            )
        elif method is not None:
            assert _dealing_order(state) == list(method(rules, number)), (
                f"deal {number} is not laid out in the order deal method {recipe.method!r} gives"
            )

    _run(ctx, deal_numbers(), body)


def check_deal_repeatable(ctx: KitContext) -> None:
    """The same deal number gives the same layout (also from freshly resolved rules);
    different numbers give different layouts."""
    rules = ctx.rules
    again = ctx.definition.resolve(rules.option_dict) if ctx.definition else rules

    def body(number: int) -> None:
        first = deals.deal(rules, number)
        assert deals.deal(rules, number) == first, f"deal {number} changed between two calls"
        assert deals.deal(again, number).to_text() == first.to_text()

    _run(ctx, deal_numbers(), body)
    layouts = {deals.deal(rules, n).to_text() for n in (1, 2, 3, 32001)}
    assert len(layouts) > 1, "deals 1, 2, 3 and 32001 are all the same layout"


# -- play --------------------------------------------------------------------------------


def check_random_play(ctx: KitContext) -> None:
    """Random play through a session (the state machine in
    :mod:`solitaire_core.testing.machine`): generated moves are legal and apply, illegal
    moves are refused with a reason and change nothing, ``legal_moves`` and ``is_legal``
    agree, undo/redo round-trip, won iff every card is on a foundation."""
    machine = conformance_machine(ctx.rules)
    run_state_machine_as_test(
        machine, settings=ctx.settings.hypothesis(shrink=ctx.settings.shrink_games)
    )


def check_illegal_moves(ctx: KitContext) -> None:
    """Arbitrary moves on random deals: a refused move has a reason, ``apply`` raises
    :class:`~solitaire_core.errors.IllegalMoveError` with that reason and leaves the state
    as it was; an accepted one is among ``legal_moves`` (for numbered targets)."""
    rules = ctx.rules

    def body(args: tuple[int, Move]) -> None:
        number, move = args
        state = deals.deal(rules, number)
        snapshot = state.to_text()
        reason = engine.explain(state, move)
        if reason is None:
            assert engine.is_legal(state, move)
            if move.target.index is not None:
                assert move in engine.legal_moves(state)
            return
        assert reason.strip(), f"{move} refused without a reason"
        try:
            engine.apply(state, move)
        except IllegalMoveError as exc:
            assert exc.reason == reason
        else:
            raise AssertionError(f"{move} applied although refused: {reason}")
        assert state.to_text() == snapshot, "a refused move changed the position"

    _run(ctx, st.tuples(st.integers(1, 50), any_moves(rules)), body)


def _chain(rules: Rules, length: int, first_ok: Callable[[Card], bool]) -> list[Card] | None:
    """A run of ``length`` distinct cards, each lying on the previous one by the declared
    run rule (``tableau.run``, by default the build rule), whose first (lowest in the
    column) card satisfies ``first_ok``."""
    cards = reference.all_cards(rules)
    build = reference.declared_run_rule(rules)
    budget = [5000]

    def extend(chain: list[Card]) -> list[Card] | None:
        if len(chain) == length:
            return chain
        for card in cards:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if card not in chain and build(card, chain[-1]):
                found = extend([*chain, card])
                if found:
                    return found
        return None

    for card in cards:
        if first_ok(card):
            found = extend([card])
            if found:
                return found
    return None


@st.composite
def _run_move_positions(draw: st.DrawFn, rules: Rules) -> tuple[GameState, int, bool] | None:
    """A position with a run in column 1 and a target in column 2 (empty or not), a chosen
    number of free cells and of empty columns; returns (state, run length, target empty).

    The run length is often drawn next to the declared limit, where an off-by-one shows.
    """
    build = reference.declared_build_rule(rules)
    fills = reference.declared_empty_rule(rules, _bases(rules))
    deck = reference.all_cards(rules)
    spare_columns = rules.columns - 2
    if spare_columns < 0:
        return None
    to_empty = draw(st.booleans(), label="target empty")
    empties = draw(st.integers(0, spare_columns), label="other empty columns")
    free = draw(st.integers(0, rules.cells), label="free cells")
    limit = reference.expected_move_limit(
        rules, free_cells=free, empty_columns=empties + to_empty, to_empty=to_empty
    )
    near = st.integers(-1, 1).map(lambda d: max(1, min(13, limit + d)))
    length = draw(st.one_of(near, st.integers(1, 13)), label="run length")
    target: tuple[Card, ...] = ()
    if to_empty:
        chain = _chain(rules, length, fills)
    else:
        chain = _chain(rules, length, lambda c: any(build(c, t) for t in deck if t != c))
        if chain is not None:
            onto = [t for t in deck if t not in chain and build(chain[0], t)]
            if not onto:
                return None
            target = (onto[0],)
    if chain is None:
        return None
    fillers = [c for c in deck if c not in chain and c not in target]
    columns: list[tuple[Card, ...]] = [tuple(chain), target]
    columns += [()] * empties
    columns += [(fillers.pop(),) for _ in range(spare_columns - empties)]
    cells: list[Card | None] = [fillers.pop() for _ in range(rules.cells - free)]
    cells += [None] * free
    state = GameState(
        rules=rules,
        columns=tuple(columns),
        cells=tuple(cells),
        foundations=tuple(() for _ in range(rules.foundations)),
        bases=_bases(rules),
    )
    return state, length, to_empty


def _bases(rules: Rules) -> tuple[int, ...]:
    """Base ranks for made-up positions: a Five on every pile when the deal decides them
    (any rank would do), none otherwise."""
    return (5,) * rules.foundations if rules.base_from_deal else ()


def check_move_limit(ctx: KitContext) -> None:
    """Tableau run moves obey the declared move limit (``one``, ``free-cells-plus-one``,
    ``supermove``, ``unlimited``; formulas in shared/rules/README.md), for every number of
    free cells and empty columns, onto a card or into an empty column, in Normal and Cheat
    difficulty; an accepted run move carries exactly those cards."""
    rules = ctx.rules
    build = reference.declared_build_rule(rules)
    fills = reference.declared_empty_rule(rules, _bases(rules))

    def body(example: tuple[GameState, int, bool] | None) -> None:
        if example is None:
            return
        state, length, to_empty = example
        note(state.to_text())
        run, target = state.columns[0], state.columns[1]
        for cheat in (False, True):
            limit = reference.expected_move_limit(
                rules,
                free_cells=state.free_cells,
                empty_columns=state.empty_columns,
                to_empty=to_empty,
                cheat=cheat,
            )
            for k in range(1, length + 1):
                bottom = run[-k]
                fits = build(bottom, target[-1]) if target else fills(bottom)
                move = Move(PileRef(PileKind.TABLEAU, 0), PileRef(PileKind.TABLEAU, 1), k)
                expected = (
                    fits
                    and k <= limit
                    and reference.whole_column_rule(rules, k, len(run), cheat=cheat)
                )
                reason = engine.explain(state, move, cheat=cheat)
                assert (reason is None) == expected, (
                    f"{move} ({'cheat' if cheat else 'normal'}): expected "
                    f"{'legal' if expected else 'illegal'} with move_limit {rules.move_limit}, "
                    f"{state.free_cells} free cells, {state.empty_columns} empty columns "
                    f"(limit {limit}); engine says {reason or 'legal'}"
                )
                if not expected:
                    assert reason and reason.strip(), f"{move} refused without a reason"
                else:
                    after = engine.apply(state, move, cheat=cheat)
                    assert after.columns[1] == target + run[-k:]
                    assert after.columns[0] == run[:-k]

    _run(ctx, _run_move_positions(rules), body)


def check_empty_columns(ctx: KitContext) -> None:
    """An empty column accepts exactly the cards the file's ``tableau.empty`` rule names,
    from a column and from a cell; every other pile is full so nothing else is in play."""
    rules = ctx.rules
    fills = reference.declared_empty_rule(rules, _bases(rules))
    if rules.columns < 2:
        return
    deck = reference.all_cards(rules)
    for card in deck:
        others = [c for c in deck if c != card]
        rest = tuple((others.pop(),) for _ in range(rules.columns - 2))
        empty = tuple(() for _ in range(rules.foundations))
        from_column = GameState(
            rules=rules,
            columns=((card,), (), *rest),
            cells=tuple(others.pop() for _ in range(rules.cells)),
            foundations=empty,
            bases=_bases(rules),
        )
        move = Move.parse("t1>t2")
        legal = engine.is_legal(from_column, move)
        assert legal == fills(card), (
            f"{card.label} from a column into an empty column: engine says "
            f"{'legal' if legal else 'illegal'}, tableau.empty = {rules.empty_rule!r}"
        )
        if not legal:
            assert engine.explain(from_column, move)
        if rules.cells:
            from_cell = GameState(
                rules=rules,
                columns=((), *rest, (others.pop(),)),
                cells=(card, *(others.pop() for _ in range(rules.cells - 1))),
                foundations=empty,
                bases=_bases(rules),
            )
            legal = engine.is_legal(from_cell, Move.parse("c1>t1"))
            assert legal == fills(card), (
                f"{card.label} from a cell into an empty column: engine says "
                f"{'legal' if legal else 'illegal'}, tableau.empty = {rules.empty_rule!r}"
            )


def check_safe_autoplay(ctx: KitContext) -> None:
    """Autoplay "safe" never turns a winnable position unwinnable: on small end-game
    positions (every card present, the highest few of each suit still in play, on a board
    reduced to 1-4 columns and 0-2 cells so that space is short), an exhaustive search over
    ``legal_moves`` decides winnability before and after the safe autoplay step; the
    answers must agree, and every autoplay move must be legal, the "all" policy's too
    (none may take a card another lies on, in a layout).

    The "safe" policy is checked for every variant, whatever its own ``autoplay`` says
    (a session may choose it). A careless policy is usually caught within a few hundred
    examples (``"all"`` in FreeCell is: it sends up a red Queen a black Jack needs)."""
    rules = ctx.rules
    budget = ctx.settings.search_budget

    def replayed(raw: GameState, policy: str) -> tuple[GameState, list[Move]]:
        after, moves = engine.autoplay_moves(raw, policy)
        replay = raw
        for move in moves:
            assert move.target.kind is PileKind.FOUNDATION, f"autoplay made {move}"
            reason = engine.explain(replay, move)
            assert reason is None, (
                f"autoplay {policy!r} made {move}, which is illegal: {reason}; position "
                f"{replay.to_text()}"
            )
            replay = engine.apply(replay, move)
        assert replay == after, "the autoplay moves do not give the autoplayed position"
        return after, moves

    def body(raw: GameState) -> None:
        note(raw.to_text())
        replayed(raw, "all")
        after, moves = replayed(raw, "safe")
        if not moves:
            return
        before_ok = reference.winnable(raw, budget=budget)
        if before_ok is None:
            return
        after_ok = reference.winnable(after, budget=budget)
        if after_ok is None:
            return
        assert before_ok == after_ok, (
            f"safe autoplay ({', '.join(map(str, moves))}) changed winnability from "
            f"{before_ok} to {after_ok}; position {raw.to_text()}"
        )

    _run(ctx, reduced_board_positions(rules, ctx.settings.search_cards), body)


def check_won(ctx: KitContext) -> None:
    """A game is won iff every card is on a foundation: the last card's move wins it, a
    card left in a column or a cell does not (with ``only_complete_suits``, the last
    complete suit's move; where the foundation takes pairs, the last King's or the last
    pair's). Where ``foundations.win_cards`` wins with cards left in play (Aces Up: the
    four Aces), those lie one to a column, and with ``tableau.win_single_cards`` two of
    them on one column do not win. The last card left in the stock wins only where the
    stock deals onto the foundation (:func:`~solitaire_core.testing.reference.declared_won`:
    Golf, TriPeaks; not Pyramid)."""
    rules = ctx.rules
    bases = _bases(rules)
    full = list(full_foundations(rules, bases))
    no_columns = won_columns(rules, cards_in_play_when_won(rules, tuple(full)))
    free = tuple(None for _ in range(rules.cells))
    won = GameState(
        rules=rules, columns=no_columns, cells=free, foundations=tuple(full), bases=bases
    )
    assert won.is_won, "a position with every card that wins on the foundations is not won"
    if rules.win_single_cards and rules.columns > 1:
        doubled = ((*no_columns[0], *no_columns[1]), (), *no_columns[2:])
        stacked = attrs.evolve(won, columns=doubled)
        assert not stacked.is_won, "won with two cards on one column and another column empty"
    count = 13 if rules.complete_suits else 1
    if rules.foundations == 1 and rules.foundation_piles[0].pairs:
        count = len(pair_units(rules)[-1])  # the last pair up, or a King alone
    last = tuple(reversed(full[0][-count:]))
    short = tuple([full[0][:-count], *full[1:]])
    columns = [(*no_columns[0], *last), *no_columns[1:]]
    tail = f"x{count}" if count > 1 else ""
    finish, said = f"t1>f1{tail}", f"t1>f{tail}"  # applied, and played in a session
    if rules.foundations == 1 and rules.foundation_piles[0].pairs and count == 2:
        # The last pair up: one card in each of two columns, neither on the other.
        p, q = _apart_columns(rules)
        columns = list(no_columns)
        columns[p] += full[0][-2:-1]
        columns[q] += full[0][-1:]
        finish = said = f"t{p + 1}>t{q + 1}"
    in_column = GameState(
        rules=rules, columns=tuple(columns), cells=free, foundations=short, bases=bases
    )
    name = "a King" if last[-1].rank == 13 else last[-1].label
    assert not in_column.is_won, f"won with {name} still in a column"
    assert not Session(rules, 1, state=in_column, autoplay="off").is_won
    after = engine.apply(in_column, Move.parse(finish))
    assert after.is_won and after == won, "moving the last card up does not win"
    session = Session(rules, 1, state=in_column, autoplay="off")
    session.play(said)
    assert session.is_won
    if rules.has_stock:
        # The last cards left in the stock: won only where the stock deals onto the
        # foundation and the game ends with the columns empty (Golf, TriPeaks); an empty
        # pyramid with a card in the stock is not (Pyramid puts all 52 up).
        in_stock = GameState(
            rules=rules, columns=no_columns, cells=free, foundations=short, bases=bases,
            stock=last,
        )  # fmt: skip
        expected = reference.declared_won(in_stock)
        assert in_stock.is_won == expected, (
            f"{'not won' if expected else 'won'} with {name} left in the stock "
            f"(stock.deal = {rules.stock_deal!r})"
        )
    if rules.cells and count == 1:
        in_cell = GameState(
            rules=rules, columns=no_columns, cells=(last[0], *free[1:]), foundations=short,
            bases=bases,
        )  # fmt: skip
        assert not in_cell.is_won, f"won with {name} still in a cell"
        assert engine.apply(in_cell, Move.parse("c1>f1")).is_won


def _apart_columns(rules: Rules) -> tuple[int, int]:
    """Two columns (0-based) whose cards do not lie one on the other in the layout (the
    first two without one)."""
    on_first = reference.covering_columns(rules, 0)
    for q in range(1, rules.columns):
        if q not in on_first and 0 not in reference.covering_columns(rules, q):
            return 0, q
    raise AssertionError(f"{rules.name}: every column lies on the first one")


def check_solutions_replay(ctx: KitContext) -> None:
    """Every solution the solver finds on a small sample of deals (1 to 3, a budget of a
    few thousand positions each) wins when replayed move by move through a
    :class:`~solitaire_core.session.Session` with the variant's autoplay; the solver never
    reports a solution that failed its own check (that would be a solver fault for this
    variant's rules, as once found for several decks built in alternate colours)."""
    from ..solver import Verdict, budget_for, solve

    rules = ctx.rules
    for number in (1, 2, 3):
        state = deals.deal(rules, number)
        result = solve(state, max_states=budget_for(rules, ctx.settings.solver_states))
        assert result.reason != "solution failed its check", (
            f"deal {number}: the solver found a solution that does not win when played"
        )
        if result.verdict is not Verdict.WINNABLE:
            continue
        session = Session(rules, number, state=state)
        for i, move in enumerate(result.moves, 1):
            try:
                session.play(move)
            except IllegalMoveError as exc:
                raise AssertionError(
                    f"deal {number}: solution move {i} ({move}) is illegal: {exc.reason}"
                ) from None
        assert session.is_won, f"deal {number}: the solution's {len(result.moves)} moves do not win"


def check_solver_verdicts(ctx: KitContext) -> None:
    """The solver decides small end games as the exhaustive reference search does: on the
    positions of the safe-autoplay check (every card present, a few of each suit in play,
    1-4 columns and 0-2 cells; with the base rank from the deal, one rank for every pile or
    a rank per pile), :func:`~solitaire_core.testing.reference.winnable` searches every
    move of :func:`~solitaire_core.rules.legal_moves` without autoplay, and each solver
    engine that plays the variant (the Python reference engine, and the C one unless the
    variant falls back) must give the same verdict, without autoplay too, and a win that
    replays through a :class:`~solitaire_core.session.Session`.

    A search that leaves out a choice the rules allow calls some winnable positions lost:
    the solver once put a card only on the first foundation pile that takes it,
    and in Stalactites (PySolFC game 77), whose piles start from dealt ranks, a win can
    need another. Positions either search leaves undecided prove nothing and are passed
    over. Checks the generic search; the reductions that need autoplay are covered by the
    solver's own tests (docs/solver.md). Where the stock search's test of cards that can
    never move (:func:`~solitaire_core.solver.stock.frozen_cards`) calls a position lost
    as it lies, the exhaustive search must find no win either."""
    from ..solver import Verdict, budget_for, solve
    from ..solver.stock import frozen_cards

    rules = ctx.rules
    budget = ctx.settings.search_budget

    def body(raw: GameState) -> None:
        note(raw.to_text())
        expected = reference.winnable(raw, budget=budget)
        if expected is None:
            return
        frozen = frozen_cards(raw)
        assert not (frozen and expected), (
            f"{' '.join(sorted(map(str, frozen)))} can never move, says the stock search, "
            f"yet the exhaustive search wins; position {raw.to_text()}"
        )
        # A game with hidden cards has one (thoughtful) search for both engine names.
        for name in ("python",) if rules.core_positions_only else ("python", "c"):
            result = solve(
                raw, autoplay="off", max_states=budget_for(rules, 5 * budget), engine=name
            )
            assert result.reason != "solution failed its check", (
                f"the {name} solver found a win it could not replay; position {raw.to_text()}"
            )
            if result.engine != name or not result.decided:
                continue  # the C engine does not play it, or a budget ran out
            found = result.verdict is Verdict.WINNABLE
            assert found == expected, (
                f"the {name} solver calls a {'winnable' if expected else 'lost'} position "
                f"{'winnable' if found else 'lost'} (the reference search plays every legal "
                f"move); position {raw.to_text()}"
            )
            if found:
                session = Session(rules, 1, state=raw, autoplay="off")
                for move in result.moves:
                    session.play(move)
                assert session.is_won, f"the {name} solver's win does not win when played"

    _run(ctx, reduced_board_positions(rules, ctx.settings.search_cards), body)


def check_notation(ctx: KitContext) -> None:
    """Move notation round-trips: ``Move.parse(str(m)) == m`` for every move, and the text
    of every legal move of a deal parses back to it."""
    rules = ctx.rules

    def body(args: tuple[Move, PileRef]) -> None:
        move, ref = args
        assert Move.parse(str(move)) == move, f"{move!r} prints as {move} which parses differently"
        assert PileRef.parse(str(ref)) == ref
        assert str(Move.parse(str(move))) == str(move)

    _run(ctx, st.tuples(any_moves(rules), pile_refs(rules, numbered=False)), body)
    for move in engine.legal_moves(deals.deal(rules, 1)):
        assert Move.parse(str(move)) == move


# -- definition --------------------------------------------------------------------------

_SETTING_FIELDS = {
    "tableau.build": "tableau_build",
    "tableau.empty": "empty_rule",
    "tableau.move_limit": "move_limit",
    "tableau.columns": "columns",
    "cells.count": "cells",
    "foundations.return_to_play": "foundation_return",
    "foundations.accept_runs": "foundation_runs",
    "autoplay": "autoplay",
}


def check_options(ctx: KitContext) -> None:
    """Every option choice resolves, and the rules then hold what the choice sets; unknown
    options and values are refused with a :class:`~solitaire_core.errors.VariantError`."""
    definition = ctx.definition
    if definition is None:
        return
    for option in definition.options:
        assert option.default in [c.value for c in option.choices]
        for choice in option.choices:
            rules = definition.resolve({option.name: choice.value})
            assert rules.option_dict[option.name] == choice.value
            for dotted, value in choice.settings:
                field = _SETTING_FIELDS.get(dotted)
                if field is not None:
                    got = getattr(rules, field)
                    assert got == value, f"{option.name}={choice.value}: {dotted} is {got!r}"
        try:
            definition.resolve({option.name: "\x00no-such-choice"})
        except VariantError:
            pass
        else:
            raise AssertionError(f"option {option.name} accepted a value it does not have")
    try:
        definition.resolve({"\x00no-such-option": "x"})
    except VariantError:
        pass
    else:
        raise AssertionError("resolve accepted an unknown option")


def check_scenarios(ctx: KitContext) -> None:
    """Every scenario (docs/scenarios.md) for this variant and these option values passes."""
    from .scenarios import load_scenario_file, run_scenario, scenario_applies

    for path in ctx.scenario_files:
        for scenario in load_scenario_file(path):
            if scenario_applies(scenario, ctx.rules, ctx.definition):
                run_scenario(scenario, ctx.definition, rules=ctx.rules)


@attrs.frozen
class Check:
    """One named check: ``function(context)`` raises ``AssertionError`` on a failure.

    :param name: a short name (``solitaire conformance --check NAME``).
    :param summary: what it checks, in a few words.
    :param function: the check; its docstring has the details.
    """

    name: str
    summary: str
    function: Callable[[KitContext], None]


CHECKS: Sequence[Check] = (
    Check("deal", "every card dealt once, as the recipe says", check_deal),
    Check("deal-repeatable", "same deal number, same layout", check_deal_repeatable),
    Check("notation", "move notation round-trips", check_notation),
    Check(
        "illegal-moves", "illegal moves refused with a reason, state unchanged", check_illegal_moves
    ),
    Check("move-limit", "run moves obey the declared move limit", check_move_limit),
    Check("empty-columns", "empty columns accept what the file says", check_empty_columns),
    Check("won", "won iff every card is on a foundation", check_won),
    Check("safe-autoplay", "safe autoplay never loses a won game", check_safe_autoplay),
    Check("solutions-replay", "solver solutions win when played", check_solutions_replay),
    Check("solver-verdicts", "solver verdicts match an exhaustive search", check_solver_verdicts),
    Check("random-play", "random play: legality, undo/redo, invariants", check_random_play),
    Check("options", "every option choice resolves as declared", check_options),
    Check("scenarios", "the variant's scenario files pass", check_scenarios),
)
"""Every check, in the order ``solitaire conformance`` runs them."""
