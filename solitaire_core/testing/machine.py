"""The random-play state machine: a Hypothesis ``RuleBasedStateMachine`` that plays a
:class:`~solitaire_core.session.Session` of one variant and checks the framework's
contract after every step.

Steps (``@rule``): play a legal move; try an arbitrary move (legal or not); undo; redo;
undo then redo; restart then redo everything; switch the Cheat difficulty.

Checked after every step (``@invariant``): the cards are conserved; ``to_text`` /
``from_text`` round-trip; the game is won as the file declares it;
:func:`~solitaire_core.rules.legal_moves` and :func:`~solitaire_core.rules.is_legal` agree
on every move between two piles; move notation round-trips; tableau run moves obey the
move-limit formula the file declares; empty columns accept exactly what the file says; a
discard pile, one pile built up or down (Golf) and a pile of pairs (Pyramid) take what
the re-stated rules say; in a layout, covered and face-down cards do not play. After
every legal move: in a layout a covered card is not turned, and a pair leaves the
position the re-stated rule gives.
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


_LEFT_TO_OTHERS = (
    (PileKind.STOCK, PileKind.WASTE),  # the deal
    (PileKind.TABLEAU, PileKind.TABLEAU),  # the run-move invariant pairs these
)


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
        self._check_layout_move(before, move, after)
        self.states.append(game.state)
        self.undone.clear()

    def _check_layout_move(self, before: GameState, move: Move, after: GameState) -> None:
        """In a layout, a card on which another still lies neither turns face up nor down;
        where the foundation takes pairs, every legal move but the stock's own is a pair
        or a card alone, and leaves the position
        :func:`~solitaire_core.testing.reference.played_pair` gives."""
        rules = self.variant_rules
        if rules.layout:
            down_before = before.hidden or (0,) * rules.columns
            down_after = after.hidden or (0,) * rules.columns
            for i in range(rules.columns):
                if reference.is_covered(after, i):
                    assert down_after[i] == down_before[i], (
                        f"{move} turned t{i + 1} while a card still lies on it: {before.to_text()}"
                    )
        if not reference.declared_pair_total(rules):
            return
        src, dst = move.source.kind, move.target.kind
        if (src, dst) == (PileKind.STOCK, PileKind.WASTE) or (
            (src, dst) == (PileKind.WASTE, PileKind.STOCK) and not before.stock
        ):
            return  # the deal and the redeal
        alone = dst is PileKind.FOUNDATION and reference.declared_alone(before, move.source)
        assert alone or reference.declared_pair(before, move), (
            f"{move} is legal, but neither a pair nor a card alone: {before.to_text()}"
        )
        expected = reference.played_pair(before, move)
        assert after == expected, (
            f"{move} left {after.to_text()}, expected {expected.to_text()} (the source's "
            f"card, then the target's, onto the discard pile)"
        )

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
        # Won as the file declares: every card up, Aces Up's 48 with an Ace alone on each
        # column, or where the stock deals onto the foundation every column empty.
        cleared = reference.declared_won(state)
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
    def covered_cards_do_not_play(self) -> None:
        """In a layout (``tableau.layout``), a column on whose card another still lies, or
        whose card lies face down, takes part in no legal move; and a card no other lies on
        lies face up (it turned up when the last card on it left)."""
        if self.session is None or not self.variant_rules.layout:
            return
        state, cheat = self.game.state, self.game.cheat
        blocked = {
            i for i in range(len(state.columns))
            if state.columns[i] and not reference.column_free(state, i)
        }  # fmt: skip
        for i in blocked:
            assert reference.is_covered(state, i), (
                f"t{i + 1}'s card lies face down with no card on it: {state.to_text()}"
            )
        for move in engine.legal_moves(state, cheat=cheat):
            for ref in (move.source, move.target):
                assert not (ref.kind is PileKind.TABLEAU and ref.index in blocked), (
                    f"{move} is legal, but t{(ref.index or 0) + 1} is covered or face down: "
                    f"{state.to_text()}"
                )

    @invariant()
    def one_pile_takes_as_declared(self) -> None:
        """Where one foundation builds up or down regardless of suit (the Golf family,
        TriPeaks), a free column's card goes onto it exactly when the re-stated rule
        (:func:`~solitaire_core.testing.reference.declared_up_or_down`) says so."""
        if self.session is None:
            return
        state = self.game.state
        for i, column in enumerate(state.columns):
            if not reference.column_free(state, i):
                continue
            expected = reference.declared_up_or_down(state, column[-1])
            if expected is None:
                return
            move = Move(PileRef(PileKind.TABLEAU, i), PileRef(PileKind.FOUNDATION, 0), 1)
            assert engine.is_legal(state, move) == expected, (
                f"{move}: expected {'legal' if expected else 'illegal'} for {state.to_text()}"
            )

    @invariant()
    def pairs_follow_the_declared_rule(self) -> None:
        """Where the foundation takes pairs (Pyramid), two places pair exactly when the
        re-stated rule (:func:`~solitaire_core.testing.reference.declared_pair`: both
        cards free, ranks adding up to the total) says so, and a place's card goes up
        alone exactly when it is a King (:func:`~solitaire_core.testing.reference.declared_alone`).
        ``s>w`` (the deal) and ``w>s`` with the stock empty (the redeal) are left to the
        stock's checks, a column onto a column to :meth:`run_moves_obey_the_move_limit`."""
        if self.session is None or not reference.declared_pair_total(self.variant_rules):
            return
        state = self.game.state
        places = [PileRef(PileKind.TABLEAU, i) for i, col in enumerate(state.columns) if col]
        places += [PileRef(PileKind.WASTE, 0), PileRef(PileKind.STOCK, 0)]
        found = PileRef(PileKind.FOUNDATION, 0)
        for src in places:
            alone = Move(src, found, 1)
            expected = reference.declared_alone(state, src)
            assert engine.is_legal(state, alone) == expected, (
                f"{alone}: expected {'legal' if expected else 'illegal'} for {state.to_text()}"
            )
            for dst in places:
                kinds = (src.kind, dst.kind)
                if src == dst or kinds in _LEFT_TO_OTHERS:
                    continue
                if kinds == (PileKind.WASTE, PileKind.STOCK) and not state.stock:
                    continue
                move = Move(src, dst, 1)
                expected = reference.declared_pair(state, move)
                assert engine.is_legal(state, move) == expected, (
                    f"{move}: expected {'legal' if expected else 'illegal'} pair for "
                    f"{state.to_text()}"
                )

    @invariant()
    def run_moves_obey_the_move_limit(self) -> None:
        """A column's run goes onto another column exactly as the declared build rule,
        empty-column rule and move limit allow (and in a layout only from a free column);
        where the foundation takes pairs, a column's card onto another's exactly when the
        two pair (:func:`~solitaire_core.testing.reference.declared_pair`)."""
        if self.session is None:
            return
        state, cheat, rules = self.game.state, self.game.cheat, self.variant_rules
        build = reference.declared_build_rule(rules)
        fills = reference.declared_empty_rule(rules, state.bases)
        pairs = reference.declared_pair_total(rules)
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
                        and (not rules.layout or reference.column_free(state, i))
                    )
                    if pairs:  # a card onto a card: a pair, whatever the build (none)
                        expected = reference.declared_pair(state, move)
                    assert engine.is_legal(state, move, cheat=cheat) == expected, (
                        f"{move}: expected {'legal' if expected else 'illegal'} "
                        + (
                            f"pair for {state.to_text()}"
                            if pairs
                            else f"({rules.move_limit}, {free} free cells, {empties} empty "
                            f"columns, limit {limit})"
                        )
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
