"""The random-play state machine: a Hypothesis ``RuleBasedStateMachine`` that plays a
:class:`~solitaire_core.session.Session` of one variant and checks the framework's
contract after every step.

Steps (``@rule``): play a legal move; try an arbitrary move (legal or not); undo; redo;
undo then redo; restart then redo everything; switch the Cheat difficulty.

Checked after every step (``@invariant``): the cards are conserved; ``to_text`` /
``from_text`` round-trip; the game is won iff every card is on a foundation;
:func:`~solitaire_core.rules.legal_moves` and :func:`~solitaire_core.rules.is_legal` agree
on every move between two piles; move notation round-trips; tableau run moves obey the
move-limit formula the file declares; empty columns accept exactly what the file says.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from .. import rules as engine
from ..cards import Card
from ..errors import IllegalMoveError
from ..moves import Move, PileKind, PileRef
from ..session import Session
from ..state import GameState
from ..variant import Rules
from . import reference
from .strategies import any_moves, deal_numbers, small_positions


def _pile_moves(state: GameState) -> list[Move]:
    """Every numbered move between two piles, with counts up to one past the top run."""
    rules = state.rules
    refs = (
        [PileRef(PileKind.TABLEAU, i) for i in range(rules.columns)]
        + [PileRef(PileKind.CELL, i) for i in range(rules.cells)]
        + [PileRef(PileKind.FOUNDATION, i) for i in range(rules.foundations)]
    )
    if rules.has_stock:
        refs += [PileRef(PileKind.STOCK, 0), PileRef(PileKind.WASTE, 0)]
    if rules.has_reserve:
        refs.append(PileRef(PileKind.RESERVE, 0))
    out: list[Move] = []
    for src in refs:
        pile = state.pile(src)
        if not pile and src.kind is not PileKind.WASTE:
            continue
        if src.kind is PileKind.TABLEAU:
            top = reference.top_run(rules, pile, state.face_up(src.index or 0)) + 1
        else:
            top = 2
        for dst in refs:
            if dst != src:
                out.extend(Move(src, dst, k) for k in range(1, top + 1))
    if rules.has_stock:
        out.append(Move(PileRef(PileKind.STOCK, 0), PileRef(PileKind.TABLEAU, None)))
    return out


class VariantPlay(RuleBasedStateMachine):
    """Random play of one variant (set :attr:`variant_rules` in a subclass; see
    :func:`conformance_machine`)."""

    variant_rules: Rules

    def __init__(self) -> None:
        super().__init__()
        self.session: Session | None = None
        self.cards: Counter[Card] = Counter()
        self.states: list[GameState] = []
        self.undone: list[GameState] = []
        self.cheats = 0

    # -- start ------------------------------------------------------------------------

    @initialize(kind=st.sampled_from(["deal", "position"]), data=st.data())
    def start(self, kind: str, data: st.DataObject) -> None:
        """Start from a random deal, or from a small end-game position (so that some
        games are won)."""
        if kind == "deal":
            number = data.draw(deal_numbers(), label="deal")
            self.session = Session(self.variant_rules, number)
        else:
            position = data.draw(small_positions(self.variant_rules), label="position")
            self.session = Session(self.variant_rules, 1, state=position)
        self.cards = Counter(self.session.initial_state.all_cards())
        self.states = [self.session.state]

    @property
    def game(self) -> Session:
        assert self.session is not None
        return self.session

    # -- steps ------------------------------------------------------------------------

    def _has_moves(self) -> bool:
        return bool(engine.legal_moves(self.game.state, cheat=self.game.cheat))

    @precondition(_has_moves)
    @rule(data=st.data())
    def play_legal_move(self, data: st.DataObject) -> None:
        """Every generated move is legal and applies; the session then autoplays."""
        game = self.game
        before = game.state
        moves = engine.legal_moves(before, cheat=game.cheat)
        move = data.draw(st.sampled_from(moves), label="move")
        after = engine.apply(before, move, cheat=game.cheat)
        auto: list[Move]
        if move.source.kind is PileKind.FOUNDATION:
            # A card taken back from a foundation is not sent up again (Session.play).
            expected, auto = after, []
        else:
            expected, auto = engine.autoplay_moves(after, game.autoplay_policy)
        turn = game.play(move)
        assert turn.move == move, f"session played {turn.move}, not the legal move {move}"
        assert turn.before == before
        assert game.state == expected == turn.after, "the session's result differs from apply"
        assert list(turn.autoplay) == auto
        assert game.state != before, f"legal move {move} left the position unchanged"
        assert not game.can_redo, "a new move must clear the redo list"
        self.states.append(game.state)
        self.undone.clear()

    @rule(data=st.data())
    def try_move(self, data: st.DataObject) -> None:
        """An arbitrary move: if illegal it is refused with a reason and nothing changes;
        if legal the engine agrees with itself about it."""
        move = data.draw(any_moves(self.variant_rules), label="move")
        game = self.game
        before, history, cheats = game.state, list(game.history), game.cheats
        cheat = game.cheat
        reason = engine.explain(before, move, cheat=cheat)
        if reason is None:
            assert engine.is_legal(before, move, cheat=cheat)
            if move.target.index is not None:
                assert move in engine.legal_moves(before, cheat=cheat), (
                    f"{move} legal but not generated"
                )
            return
        assert reason.strip(), f"{move} refused without a reason"
        assert not engine.is_legal(before, move, cheat=cheat)
        assert move not in engine.legal_moves(before, cheat=cheat), f"{move} generated but refused"
        try:
            engine.apply(before, move, cheat=cheat)
        except IllegalMoveError as exc:
            assert exc.reason == reason, f"apply says {exc.reason!r}, explain says {reason!r}"
        else:
            raise AssertionError(f"apply accepted {move}, which explain refuses: {reason}")
        try:
            game.play(move)
        except IllegalMoveError as exc:
            assert exc.reason
        else:
            raise AssertionError(f"the session played {move}, which explain refuses: {reason}")
        assert game.state is before, f"refused move {move} changed the position"
        assert game.history == history and game.cheats == cheats

    @precondition(lambda self: self.game.can_undo)
    @rule()
    def undo(self) -> None:
        """Undo goes back exactly one player move (with the autoplay it caused)."""
        turn = self.game.undo()
        assert turn is not None
        self.undone.append(self.states.pop())
        assert self.game.state == self.states[-1] == turn.before

    @precondition(lambda self: self.game.can_redo)
    @rule()
    def redo(self) -> None:
        """Redo plays the undone move again, to the same position."""
        turn = self.game.redo()
        assert turn is not None
        self.states.append(self.undone.pop())
        assert self.game.state == self.states[-1] == turn.after

    @precondition(lambda self: self.game.can_undo)
    @rule()
    def undo_then_redo(self) -> None:
        """Undo then redo is a round trip."""
        before, moves = self.game.state, self.game.moves
        self.game.undo()
        self.game.redo()
        assert self.game.state == before and self.game.moves == moves

    @rule()
    def restart_then_redo_all(self) -> None:
        """Restart returns to the initial position; redoing every move comes back."""
        game = self.game
        before, moves = game.state, game.move_texts()
        game.restart()
        assert game.state == game.initial_state and game.moves == 0
        for _ in moves:
            game.redo()
        assert game.state == before and game.move_texts() == moves

    @rule()
    def switch_cheat(self) -> None:
        """The Cheat difficulty may be switched at any time (program help)."""
        self.game.set_cheat(not self.game.cheat)

    # -- invariants -------------------------------------------------------------------

    @invariant()
    def cards_are_conserved(self) -> None:
        if self.session is None:
            return
        state = self.game.state
        assert Counter(state.all_cards()) == self.cards, "cards appeared or vanished"
        assert len(state.columns) == self.variant_rules.columns
        assert len(state.cells) == self.variant_rules.cells
        assert len(state.foundations) == self.variant_rules.foundations

    @invariant()
    def cheats_never_decrease(self) -> None:
        if self.session is None:
            return
        assert self.game.cheats >= self.cheats, "the count of cheats went down"
        self.cheats = self.game.cheats

    @invariant()
    def text_round_trips(self) -> None:
        if self.session is None:
            return
        state = self.game.state
        assert GameState.from_text(self.variant_rules, state.to_text()) == state

    @invariant()
    def won_iff_every_card_on_a_foundation(self) -> None:
        if self.session is None:
            return
        state = self.game.state
        rules = self.variant_rules
        if rules.win_cards:
            # Won with cards left in play (Aces Up: PySolFC's AcesUp.isGameWon, 48 cards
            # discarded and, with win_single_cards, one card alone on each column).
            up = sum(len(pile) for pile in state.foundations)
            single = all(len(col) == 1 for col in state.columns)
            cleared = up >= rules.win_cards and (single or not rules.win_single_cards)
        else:
            cleared = not any(state.columns) and all(c is None for c in state.cells)
        assert state.is_won == cleared, f"is_won is {state.is_won} for {state.to_text()}"
        assert self.game.is_won == cleared

    @invariant()
    def legal_moves_agree_with_is_legal(self) -> None:
        if self.session is None:
            return
        state, cheat = self.game.state, self.game.cheat
        moves = engine.legal_moves(state, cheat=cheat)
        assert len(set(moves)) == len(moves), "legal_moves lists a move twice"
        generated = set(moves)
        for move in moves:
            assert Move.parse(str(move)) == move, f"notation does not round-trip: {move}"
            assert engine.explain(state, move, cheat=cheat) is None, f"{move} generated but refused"
        for move in _pile_moves(state):
            legal = engine.is_legal(state, move, cheat=cheat)
            assert legal == (move in generated), (
                f"{move}: is_legal says {legal}, legal_moves {'has' if not legal else 'lacks'} it"
            )

    @invariant()
    def discards_follow_the_declared_rule(self) -> None:
        """A discard pile takes a column's top card exactly when the re-stated rule
        (:func:`~solitaire_core.testing.reference.declared_discard`) says so, and room is
        left on it."""
        if self.session is None:
            return
        state, rules = self.game.state, self.variant_rules
        for j, spec in enumerate(rules.foundation_piles):
            if not spec.discards:
                continue
            room = len(state.foundations[j]) < spec.capacity
            for i, column in enumerate(state.columns):
                if not column:
                    continue
                expected = room and reference.declared_discard(state.columns, i, column[-1])
                move = Move(PileRef(PileKind.TABLEAU, i), PileRef(PileKind.FOUNDATION, j), 1)
                assert engine.is_legal(state, move) == expected, (
                    f"{move}: expected {'legal' if expected else 'illegal'} for {state.to_text()}"
                )

    @invariant()
    def run_moves_obey_the_move_limit(self) -> None:
        if self.session is None:
            return
        state, cheat, rules = self.game.state, self.game.cheat, self.variant_rules
        build = reference.declared_build_rule(rules)
        fills = reference.declared_empty_rule(rules, state.bases)
        free, empties = state.free_cells, state.empty_columns
        for i, column in enumerate(state.columns):
            run = reference.top_run(rules, column, state.face_up(i))
            for j, target in enumerate(state.columns):
                if i == j:
                    continue
                limit = reference.expected_move_limit(
                    rules, free_cells=free, empty_columns=empties, to_empty=not target, cheat=cheat
                )
                for k in range(1, run + 1):
                    fits = build(column[-k], target[-1]) if target else fills(column[-k])
                    move = Move(PileRef(PileKind.TABLEAU, i), PileRef(PileKind.TABLEAU, j), k)
                    expected = (
                        fits
                        and k <= limit
                        and reference.whole_column_rule(rules, k, len(column), cheat=cheat)
                    )
                    assert engine.is_legal(state, move, cheat=cheat) == expected, (
                        f"{move}: expected {'legal' if expected else 'illegal'} "
                        f"({rules.move_limit}, {free} free cells, {empties} empty columns, "
                        f"limit {limit})"
                    )


def conformance_machine(rules: Rules) -> type[VariantPlay]:
    """The :class:`VariantPlay` state machine bound to ``rules``.

    Run it with ``hypothesis.stateful.run_state_machine_as_test(machine, settings=...)``.
    """

    class Machine(VariantPlay):
        pass

    Machine.variant_rules = rules
    Machine.__name__ = Machine.__qualname__ = f"VariantPlay_{rules.id.replace('-', '_')}"
    return Machine
