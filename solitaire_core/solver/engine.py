"""The search's view of a game: positions as byte strings, moves as small tuples.

A position is a tuple ``(cols, cells, found, need)``:

* ``cols`` -- one ``bytes`` per tableau column, bottom card first, in the real column order;
* ``cells`` -- ``bytes`` with one entry per cell in the real cell order, ``EMPTY`` for a
  free cell;
* ``found`` -- one ``bytes`` per foundation *slot*, Ace first; slots are grouped by suit
  (``decks`` per suit), since which foundation a suit occupies never matters to play;
* ``need`` -- a bit mask over card kinds: bit ``k`` is set when a card of kind ``k`` fits
  a foundation now (derived from ``found``, kept because it changes rarely).

Keeping the real column and cell order lets every internal move name real piles, so a
solution translates to core moves one for one, and lets the search apply the variant's
autoplay as the session does (a card sent to a cell takes the first free cell, as the
core's ``c`` target does). The *key* a position is stored under in the transposition table
forgets that order: the columns sorted, the cells sorted.

An internal move is ``(what, source, target, count)`` with ``what`` one of the ``TT``...
constants below; sources and targets are 0-based column or cell indexes (a foundation
target is left to the session, which picks the foundation the card fits; a card taken back
from a foundation is named by its value).
"""

from __future__ import annotations

from ..state import GameState
from ..variant import BASE_FIRST_PLAYED, Rules
from .tables import _SUIT_INDEX, EMPTY, Tables

# What a move does (first item of an internal move).
TT, TC, CT, TF, CF, FT, FC = range(7)
"""Column to column, column to cell, cell to column, column to foundation, cell to
foundation, foundation to column, foundation to cell."""

_BIG = 10**9
_SEP = b"\xff"
_CELL_SEP = b"\xfe"

DEFAULT_IDEAS = {
    "go_home": True,
    "freeze": True,
    "canonical": True,
    "king_home": True,
    "send_up": True,
}
"""The reductions the solver uses unless told otherwise (see :meth:`Engine.set_ideas`)."""

Position = tuple[tuple[bytes, ...], bytes, tuple[bytes, ...], int]
IMove = tuple[int, int, int, int]


class Budget(Exception):
    """Raised inside a search when a budget ran out.

    :param reason: ``"time budget"``, ``"state budget"`` or ``"cancelled"``.
    :param positions: positions stored when it stopped.
    """

    def __init__(self, reason: str, positions: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.positions = positions


def freeze_ok(tables: Tables, rules: Rules) -> bool:
    """Whether only parentless cards fill empty columns and the move limit ignores empty
    columns (the freeze and King-home reductions need both)."""
    return tables.king_only and rules.move_limit != "supermove"


def _as_is(cols: tuple[bytes, ...], cells: bytes, found: tuple[bytes, ...], need: int) -> Position:
    return cols, cells, found, need


class Engine:
    """Move generation, autoplay and keys for one variant (from its :class:`Tables`).

    :param tables: the compiled variant.
    :param policy: the autoplay policy to mirror (``"off"``, ``"safe"``, ``"all"``), the
        same the session uses after every move.

    Foundations: with the classic ones (``rules.standard_foundations``) the foundation
    slots are grouped by suit as the module docstring says. Otherwise (*general*
    foundations: other builds, base ranks, wrapping, cards per pile, groups, complete
    suits) ``found`` holds one ``bytes`` per real pile in the table's order, autoplay puts
    a card on the first pile that takes it (as the core's autoplay does) and follows the
    session's order, a card the player sends up is tried on every pile that takes it
    (:meth:`pile_choices`; the move's target is then the pile), ``need`` is still the mask
    of kinds some pile takes now, the transposition key includes the piles (each run of
    neighbouring piles alike, :attr:`pile_classes`, sorted), autoplay runs after every
    move, and the reductions of :meth:`set_ideas` are off. Trying every pile matters in
    Stalactites (PySolFC game 77), whose piles start from dealt ranks: two piles with
    Sevens on top end at different ranks (docs/solver.md, "Limits").
    A reserve (``cells_receive`` false) counts as no free cell and takes no card.
    """

    def __init__(self, tables: Tables, policy: str, ideas: dict[str, bool] | None = None) -> None:
        rules = tables.rules
        self.tables = tables
        self.policy = policy
        self.ncols = rules.columns
        self.ncells = rules.cells
        self.total = rules.card_count
        self.limit = rules.move_limit
        self.returns = rules.foundation_return
        kind = tables.kind
        self.kind = kind
        self.can_build = tables.can_build
        self.parents = tables.parents
        self.children = tables.children
        # What safe autoplay asks: the cards that may still want to lie on a value, less
        # the Aces where they never need a place (Rules.aces_need_no_place).
        self.aces_need_no_place = rules.aces_need_no_place
        self.safe_children = (
            tuple(tuple(x for x in xs if kind[x] % 13) for xs in tables.children)
            if self.aces_need_no_place
            else tables.children
        )
        self.empty_ok = tables.empty_ok
        # Cards per value: the decks (twins merged), times the suits of a class when suits
        # share values (tables.classes; only with the variant's own foundation piles).
        self.copies = tables.copies if tables.classes else rules.decks
        self.receive = rules.cells_receive
        self.general = not rules.standard_foundations
        self.complete = rules.complete_suits
        self.can_run = tables.can_run or tables.can_build
        if self.general:
            self._init_piles(tables)
        # One card per value: the order cards go up in cannot matter. Not so with twins
        # merged into one value: when both copies are exposed (say one on a column, one in
        # a cell), which one goes up changes the layout, so autoplay must follow the
        # session's order (two- and three-deck games once failed their replay check).
        self.order_free = rules.decks == 1 and not self.general
        # The key must tell foundations apart only when they are not implied by the cards
        # in play: when two copies are distinct values and may come back from a foundation,
        # or when the piles differ from the classic ones.
        self.key_found = (self.returns and not tables.twins and rules.decks > 1) or self.general
        self.ideas: dict[str, bool] = {}
        # Chain builds: a card's only parent is the card under it in a run, so only whole
        # runs move onto columns; and when the cards that fill empty columns have no parent,
        # only whole runs move into empty columns too.
        self.whole_runs = tables.chain
        self.whole_runs_empty = tables.chain and tables.king_only
        # value -> its only parent, or -1 (chain variants: at most one parent each).
        # Indexed by any byte, EMPTY included (which has none).
        self.parent1 = tuple(p[0] if len(p) == 1 else -1 for p in tables.parents) + (-1,) * (
            256 - tables.values
        )
        if tables.chain and not self.general and self.receive:
            self.children_of = self._children_chain  # type: ignore[method-assign]
        self.go_home = False
        self.king_home = False
        self.send_up = False
        self.frozen = _BIG
        self.set_ideas(ideas or {})

    def _run_limits(self, free: int, empties: int) -> tuple[int, int]:
        """The most cards one tableau move may carry: (onto a card, into an empty
        column), by the variant's move limit (same formulas as rules.max_run_move)."""
        limit = self.limit
        if limit == "free-cells-plus-one":
            return free + 1, free + 1
        if limit == "one":
            return 1, 1
        if limit == "supermove":
            return (free + 1) << empties, ((free + 1) << (empties - 1) if empties else 0)
        return _BIG, _BIG

    def set_ideas(self, ideas: dict[str, bool]) -> None:
        """Switch reductions on or off (for measuring them); each is used only where the
        variant's rules make it sound.

        * ``"go_home"``: a card in a cell whose parent tops a column goes onto it; needs
          :attr:`Tables.chain`, a move limit other than ``"one"`` and no foundation return.
        * ``"canonical"``: store positions by a key that forgets the order of columns and
          cells (off: by their order as on the table).
        * ``"freeze"``: a settled column (a run from a card that only fills empty columns)
          longer than the number of cells never moves except to a foundation; needs
          :attr:`Tables.chain`, :attr:`Tables.king_only`, a limit that does not count empty
          columns and no foundation return.
        * ``"king_home"``: while a card that only empty columns take waits in a cell and a
          column is empty, only moves into that column are kept; same conditions.

        These four need an autoplay policy other than ``"off"`` (a conservative choice: the
        arguments in docs/solver.md are made for positions autoplay has settled).

        * ``"send_up"``: a card whose sending up loses nothing goes up as the only move
          (:meth:`sent_up_pile`); needs the variant's own foundation piles, single cards
          going up, no foundation return, and an autoplay that never moves a card: ``"off"``,
          or ``"safe"`` where no pile builds in suit (Scotch Patience, PySolFC game 87;
          Stalactites, game 77).
        """
        t, rules = self.tables, self.tables.rules
        want = {**DEFAULT_IDEAS, **ideas}
        self.ideas = want
        if not want["canonical"]:
            self.key = self.plain_key  # type: ignore[method-assign]
        base = (
            t.chain
            and not rules.foundation_return
            and self.policy != "off"
            and not self.general
            and self.receive
        )
        self.go_home = want["go_home"] and base and rules.move_limit != "one"
        freeze = want["freeze"] and base and freeze_ok(t, rules)
        self.king_home = want["king_home"] and base and freeze_ok(t, rules)
        self.frozen = rules.cells if freeze else _BIG
        self.send_up = (
            want["send_up"]
            and self.general
            and not self.returns
            and not self.complete
            and (self.policy == "off" or (self.policy == "safe" and not any(self.pile_in_suit)))
        )

    # -- general foundations --------------------------------------------------------------

    def _init_piles(self, tables: Tables) -> None:
        """Lookup tables for the variant's own foundation piles (see the class docstring).

        :raises ValueError: when a pile's base rank comes from the deal and the tables were
            compiled without the position's base ranks.
        """
        rules = tables.rules
        specs = rules.foundation_piles
        bases = tables.bases or tuple(p.base for p in specs)
        if not all(bases):
            raise ValueError(
                f"{rules.name} takes the foundations' base rank from the deal: solve a position "
                "that carries it (GameState.bases)"
            )
        suit_bits = [sum(1 << (s * 13 + r) for r in range(13)) for s in range(4)]
        rank_bits = [sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)]
        red = suit_bits[1] | suit_bits[2]  # diamonds and hearts (kind order C D H S)
        self.pile_cap = tuple(p.capacity for p in specs)
        # foundations.base_rank = "first-played" (every pile, the loader checks): an empty
        # pile takes any rank until a card is on some pile, then that card's rank.
        self.first_played = rules.base_first_played
        # Kinds that stand for no card (holes, Tables.classes) never fit a pile.
        present = tables.present_mask
        rank_bits = [m & present for m in rank_bits]
        self.rank_bits = rank_bits
        self.pile_start = tuple(
            present if b == BASE_FIRST_PLAYED else rank_bits[b - 1] for b in bases
        )
        self.pile_in_suit = tuple(p.suits == "suit" for p in specs)
        self.pile_group = tuple(tuple(j for j, q in enumerate(specs) if q == p) for p in specs)
        self.suit_bits = suit_bits
        self.suit_full = 13 * rules.decks
        nexts = []
        for p in specs:
            row = []
            for k in range(52):
                suit, rank = divmod(k, 13)  # rank 0..12
                step = rank + 1 if p.up else rank - 1
                if not 0 <= step <= 12:
                    if not p.wrap:
                        row.append(0)
                        continue
                    step %= 13
                mask = rank_bits[step]  # holes already left out
                if p.suits == "suit":
                    mask &= suit_bits[suit]
                elif p.suits == "color":
                    mask &= ~red if suit in (1, 2) else red
                row.append(mask)
            nexts.append(tuple(row))
        self.pile_next = tuple(nexts)
        # Runs of neighbouring piles that differ in nothing but their cards (same group,
        # capacity, start and next tables): the key lists each run's piles sorted, so the
        # order in which they were started is forgotten (as the C engine's pile_order).
        # Only neighbours: autoplay puts a card on the first pile that takes it, so the run
        # it goes to is the first run with a pile that takes it, whatever the order within
        # runs (a player's move tries every pile: pile_choices).
        alike = [(p, self.pile_cap[i], self.pile_start[i], nexts[i]) for i, p in enumerate(specs)]
        runs: list[tuple[int, ...]] = []
        for i in range(len(specs)):
            if runs and alike[runs[-1][0]] == alike[i]:
                runs[-1] += (i,)
            else:
                runs.append((i,))
        self.pile_classes = tuple(r for r in runs if len(r) > 1)
        # The piles pile_choices may take for one another: with autoplay, the run of
        # neighbouring piles alike it belongs to (autoplay's first-pile rule tells alike
        # piles apart when another pile lies between them: docs/solver.md, item 2);
        # without, every pile alike to it.
        if self.policy == "off":
            self.pile_alike = tuple(
                frozenset(j for j in range(len(specs)) if alike[j] == alike[i])
                for i in range(len(specs))
            )
        else:
            self.pile_alike = tuple(frozenset(r) for r in runs for _ in r)

    def pile_choices(self, found: tuple[bytes, ...], k: int) -> list[int]:
        """The general foundation piles a player may put a card of kind ``k`` (which fits)
        on, first to last (the core's numbered ``fN`` target lets them choose).

        A pile is left out when an earlier one is alike (:attr:`pile_alike`: in the same
        run of neighbouring piles alike, or with autoplay off anywhere), holds as many cards
        and takes the same cards now (and, where cards come back from the foundations, the
        same cards): whichever of the two takes the card, the piles then differ in nothing
        a later move sees.

        Piles that take the same card yet differ later are Stalactites' (PySolFC game 77):
        each starts from its own dealt rank and holds 13 cards, so two piles with Sevens on
        top end at different ranks.

        :param found: the piles, one ``bytes`` each, bottom card first.
        :param k: the card's kind (``Tables.kind`` of its value), which some pile takes.
        :return: pile indexes, ascending; at least one.
        """
        out: list[int] = []
        masks: list[int] = []
        for i in range(len(found)):
            m = self.pile_mask(i, found)
            masks.append(m)
            if not m >> k & 1:
                continue
            alike = self.pile_alike[i]
            if not any(
                j in alike
                and len(found[i]) == len(found[j])
                and masks[j] == m
                and (not self.returns or found[i] == found[j])
                for j in out
            ):
                out.append(i)
        return out

    def put_on(
        self, found: tuple[bytes, ...], i: int, cards: bytes
    ) -> tuple[tuple[bytes, ...], int]:
        """Put ``cards`` (first goes first) on general pile ``i``, which takes the first:
        the new piles and mask."""
        found = found[:i] + (found[i] + cards,) + found[i + 1 :]
        return found, self.need_of(found)

    def pile_mask(self, i: int, found: tuple[bytes, ...]) -> int:
        """The kinds general foundation pile ``i`` takes now, as a bit mask."""
        pile = found[i]
        if pile:
            if len(pile) >= self.pile_cap[i]:
                return 0
            return self.pile_next[i][self.kind[pile[-1]]]
        mask = self.pile_start[i]
        if self.first_played:
            first = next((p for p in found if p), b"")
            if first:
                mask = self.rank_bits[self.kind[first[0]] % 13]
        if self.pile_in_suit[i]:
            kind, cap = self.kind, self.pile_cap[i]
            for s in range(4):
                started = sum(
                    1 for j in self.pile_group[i] if found[j] and kind[found[j][0]] // 13 == s
                )
                if started * cap >= self.suit_full:
                    mask &= ~self.suit_bits[s]
        return mask

    def is_suit(self, run: bytes) -> bool:
        """Whether ``run`` (13 values, bottom first) is a complete suit from the King down."""
        kind = self.kind
        top = kind[run[0]]
        return top % 13 == 12 and all(kind[v] == top - j for j, v in enumerate(run))

    def safe_run(self, i: int, cols: tuple[bytes, ...] | list[bytes], cells: bytes) -> bool:
        """:meth:`safe` for the complete suit on top of column ``i``: no card in play
        outside it may be built on any of its cards (the core's ``_safe_run``)."""
        rest = [c for j, c in enumerate(cols) if j != i] + [cols[i][:-13], cells]
        for v in cols[i][-13:]:
            for x in self.safe_children[v]:
                for part in rest:
                    if x in part:
                        return False
        return True

    def put_run(self, found: tuple[bytes, ...], run: bytes) -> tuple[tuple[bytes, ...], int]:
        """Put a complete suit (bottom first, so its top card goes first) on the first pile
        that takes its top card (autoplay's choice): the new piles and mask."""
        return self.put_on(found, self.first_pile(found, self.kind[run[-1]]), run[::-1])

    def first_pile(self, found: tuple[bytes, ...], k: int) -> int:
        """The first general pile that takes a card of kind ``k`` (autoplay's choice, as
        the core's), which some pile does (callers check ``need``)."""
        return next(i for i in range(len(found)) if self.pile_mask(i, found) >> k & 1)

    def _autoplay_suits(
        self, cols: tuple[bytes, ...], cells: bytes, found: tuple[bytes, ...], need: int
    ) -> Position:
        """Autoplay with ``only_complete_suits``: complete suits at the top of columns go
        up, columns from the first, starting again after each (the core's order)."""
        kind = self.kind
        all_ = self.policy == "all"
        while True:
            for i, col in enumerate(cols):
                if (
                    len(col) >= 13
                    and need >> kind[col[-1]] & 1
                    and self.is_suit(col[-13:])
                    and (all_ or self.safe_run(i, cols, cells))
                ):
                    found, need = self.put_run(found, col[-13:])
                    cols = cols[:i] + (col[:-13],) + cols[i + 1 :]
                    break
            else:
                return cols, cells, found, need

    # -- positions ----------------------------------------------------------------------

    def need_of(self, found: tuple[bytes, ...]) -> int:
        """The kinds that fit a foundation now, as a bit mask over kinds."""
        if self.general:
            general = 0
            for i in range(len(found)):
                general |= self.pile_mask(i, found)
            return general
        need = 0
        copies = self.copies
        for i, pile in enumerate(found):
            h = len(pile)
            if h < 13:
                need |= 1 << ((i // copies) * 13 + h)
        return need

    def slot_for(self, found: tuple[bytes, ...], k: int) -> int:
        """The foundation slot a card of kind ``k`` goes to (the first of its suit with
        the rank below on top)."""
        copies = self.copies
        base = (k // 13) * copies
        h = k % 13
        for i in range(base, base + copies):
            if len(found[i]) == h:
                return i
        raise AssertionError("card does not fit")  # pragma: no cover - callers check need

    def put(self, found: tuple[bytes, ...], need: int, v: int) -> tuple[tuple[bytes, ...], int]:
        """Put card ``v`` (which fits) on its foundation slot: the new slots and mask."""
        k = self.kind[v]
        if self.general:
            return self.put_on(found, self.first_pile(found, k), bytes((v,)))
        if self.copies == 1:
            found = found[: k // 13] + (found[k // 13] + bytes((v,)),) + found[k // 13 + 1 :]
            return found, need ^ ((1 << k) | (1 << (k + 1)) if k % 13 != 12 else 1 << k)
        i = self.slot_for(found, k)
        found = found[:i] + (found[i] + bytes((v,)),) + found[i + 1 :]
        return found, self.need_of(found)

    def safe(
        self,
        v: int,
        cols: tuple[bytes, ...] | list[bytes],
        cells: bytes,
        found: tuple[bytes, ...] = (),
    ) -> bool:
        """The core's ``is_safe_to_foundation``: no card in play may be built on ``v``
        (an Ace never counts where ``Rules.aces_need_no_place``), and, with general
        foundations and ``found`` given, the pile it goes to builds in suit."""
        if found and self.copies > 1 and not self.copies_have_places(v, found):
            return False
        if self.general and found:
            k = self.kind[v]
            if not self.pile_in_suit[self.first_pile(found, k)]:
                return False
        if self.returns:
            return not self.wanted_back(v, cols, cells)
        for x in self.safe_children[v]:
            if x in cells:
                return False
            for col in cols:
                if x in col:
                    return False
        return True

    def copies_have_places(self, v: int, found: tuple[bytes, ...]) -> bool:
        """The core's ``_copies_have_places``: as many foundation piles take card ``v``
        now as copies of it are still to go up (with several decks the copies compete
        for the piles of their suit)."""
        k = self.kind[v]
        if self.general:
            kind = self.kind
            up = sum(kind[x] == k for pile in found for x in pile)
            taking = sum(self.pile_mask(i, found) >> k & 1 for i in range(len(found)))
            return taking >= self.copies - up
        # The classic foundations: a pile per copy of each suit; every one of the suit's
        # piles must stand at the rank below (or above it, holding a copy already).
        h = k % 13
        first = (k // 13) * self.copies
        return all(len(found[i]) >= h for i in range(first, first + self.copies))

    def wanted_back(self, v: int, cols: tuple[bytes, ...] | list[bytes], cells: bytes) -> bool:
        """The core's ``_wanted_back``: whether a card in play may want ``v`` to lie on,
        directly or through cards up that could come back from the foundations to hold
        it (``foundations.return_to_play``)."""

        def in_play(x: int) -> bool:
            return x in cells or any(x in col for col in cols)

        seen = {v}
        todo = [v]
        while todo:
            for x in self.safe_children[todo.pop()]:
                if x != v and in_play(x):
                    return True
                if x not in seen:
                    seen.add(x)
                    todo.append(x)
        return False

    def autoplay(
        self, cols: tuple[bytes, ...], cells: bytes, found: tuple[bytes, ...], need: int
    ) -> Position:
        """Send cards up as the session's autoplay does.

        When every card value stands for a single card (one deck), the result does not
        depend on the order cards go up in, so this sweeps the piles until nothing moves.
        Otherwise (several decks, merged twins included: two exposed copies of one value
        lie in different places) it follows :func:`solitaire_core.rules.autoplay_moves`
        step by step (columns from the first, then cells; after each card, start again),
        so the same copy of a card goes up as in the session.
        """
        policy = self.policy
        if policy == "off":
            return cols, cells, found, need
        if self.general and self.first_played and not any(found):
            # Autoplay never chooses the base rank (rules.autoplay_moves).
            return cols, cells, found, need
        if self.complete:
            return self._autoplay_suits(cols, cells, found, need)
        if not self.order_free:
            return self._autoplay_in_order(cols, cells, found, need)
        kind = self.kind
        all_ = policy == "all"
        lcols = list(cols)
        moved = True
        while moved:
            moved = False
            for i, col in enumerate(lcols):
                while (
                    col and need >> kind[col[-1]] & 1 and (all_ or self.safe(col[-1], lcols, cells))
                ):
                    found, need = self.put(found, need, col[-1])
                    col = col[:-1]
                    moved = True
                lcols[i] = col
            for i, v in enumerate(cells):
                if v != EMPTY and need >> kind[v] & 1 and (all_ or self.safe(v, lcols, cells)):
                    found, need = self.put(found, need, v)
                    cells = cells[:i] + bytes((EMPTY,)) + cells[i + 1 :]
                    moved = True
        return tuple(lcols), cells, found, need

    def _autoplay_in_order(
        self, cols: tuple[bytes, ...], cells: bytes, found: tuple[bytes, ...], need: int
    ) -> Position:
        kind = self.kind
        all_ = self.policy == "all"
        while True:
            for i, col in enumerate(cols):
                if col:
                    v = col[-1]
                    if need >> kind[v] & 1 and (all_ or self.safe(v, cols, cells, found)):
                        cols = cols[:i] + (col[:-1],) + cols[i + 1 :]
                        found, need = self.put(found, need, v)
                        break
            else:
                for i, v in enumerate(cells):
                    if (
                        v != EMPTY
                        and need >> kind[v] & 1
                        and (all_ or self.safe(v, cols, cells, found))
                    ):
                        cells = cells[:i] + bytes((EMPTY,)) + cells[i + 1 :]
                        found, need = self.put(found, need, v)
                        break
                else:
                    return cols, cells, found, need

    def from_state(self, state: GameState) -> Position:
        """The position of a core state, autoplay applied as the session would.

        :raises ValueError: when a foundation holds cards that are not an Ace-up run of
            one suit (positions the core's rules cannot produce).
        """
        value = self.tables.value
        cols = tuple(bytes(value(c) for c in col) for col in state.columns)
        cells = bytes(EMPTY if c is None else value(c) for c in state.cells)
        if self.general:
            piles = tuple(bytes(value(c) for c in pile) for pile in state.foundations)
            return self.autoplay(cols, cells, piles, self.need_of(piles))
        slots: list[list[bytes]] = [[] for _ in range(4)]
        for pile in state.foundations:
            if not pile:
                continue
            suit = pile[0].suit
            if any(c.suit is not suit or c.rank != r for r, c in enumerate(pile, 1)):
                raise ValueError(f"foundation {' '.join(map(str, pile))} is not built up in suit")
            slots[_SUIT_INDEX[suit.value]].append(bytes(value(c) for c in pile))
        found: list[bytes] = []
        for suit_slots in slots:
            if len(suit_slots) > self.copies:
                raise ValueError("more foundations of one suit than decks")
            found += sorted(suit_slots, key=len) + [b""] * (self.copies - len(suit_slots))
        tfound = tuple(found)
        return self.autoplay(cols, cells, tfound, self.need_of(tfound))

    def key(self, pos: Position) -> bytes:
        """The transposition-table key: columns and cells as multisets, and with the
        variant's own foundation piles, the piles of each class of interchangeable ones
        (:attr:`pile_classes`) as a multiset."""
        k = _SEP.join(sorted(pos[0])) + _CELL_SEP + bytes(sorted(pos[1]))
        if self.key_found:
            found = pos[2]
            if self.general and self.pile_classes:
                piles = list(found)
                for run in self.pile_classes:
                    a, b = run[0], run[-1] + 1
                    piles[a:b] = sorted(found[a:b])
                found = tuple(piles)
            k += _CELL_SEP + _SEP.join(found)
        return k

    def plain_key(self, pos: Position) -> bytes:
        """A key that keeps the order of columns and cells (idea ``canonical`` off)."""
        k = _SEP.join(pos[0]) + _CELL_SEP + pos[1]
        if self.key_found:
            k += _CELL_SEP + _SEP.join(pos[2])
        return k

    def remaining(self, pos: Position) -> int:
        """Cards not yet on a foundation."""
        return self.total - sum(len(f) for f in pos[2])

    # -- moves --------------------------------------------------------------------------

    def children_of(self, pos: Position) -> list[tuple[IMove, Position]]:
        """The moves worth trying in ``pos``, each with the position after it and its
        autoplay.

        Left out, because they lead to a position with the same key or a mirror image of
        one already generated: a whole column into an empty column, a card from one cell
        to another, any empty column but the first as a target, any free cell but the
        first. The reductions switched on in :attr:`ideas` leave out more (see
        docs/solver.md for why each is sound).
        """
        cols, cells, found, need = pos
        kind = self.kind
        can_run = self.can_run
        parents = self.parents
        empty_ok = self.empty_ok
        autoplay = self.autoplay
        auto = self.policy != "off"
        # General foundations: autoplay after every move (a move may complete a suit, and
        # the order the session sends cards up in matters there).
        always = self.general
        settle = autoplay if always and auto else _as_is
        out: list[tuple[IMove, Position]] = []
        free = cells.count(EMPTY) if self.receive else 0
        first_free = cells.find(EMPTY) if self.receive else -1
        first_empty = -1
        empties = 0
        tops: dict[int, list[int]] = {}
        for j, col in enumerate(cols):
            if col:
                t = tops.get(col[-1])
                if t is None:
                    tops[col[-1]] = [j]
                else:
                    t.append(j)
            else:
                empties += 1
                if first_empty < 0:
                    first_empty = j
        if self.go_home and free < self.ncells:
            forced = self._home(pos, tops, first_free)
            if forced is not None:
                return forced
        if self.send_up:
            forced = self._send_up(pos)
            if forced is not None:
                return forced
        lim, lim_e = self._run_limits(free, empties)
        frozen = self.frozen
        for i, col in enumerate(cols):
            n = len(col)
            if not n:
                continue
            top = col[-1]
            run = 1
            while run < n and can_run[col[-run]][col[-run - 1]]:
                run += 1
            if not (run == n and n > frozen and empty_ok[col[0]]):
                # Runs onto other columns. With a chain build only the whole run can move:
                # the card below each other card of the run is its only parent.
                if self.whole_runs:
                    ks: range | tuple[int, ...] = (run,) if run <= lim else ()
                else:
                    ks = range(1, (run if run < lim else lim) + 1)
                for k in ks:
                    x = col[-k]
                    for y in parents[x]:
                        js = tops.get(y)
                        if js:
                            rest = col[:-k]
                            moving = col[-k:]
                            for j in js:
                                ncols = list(cols)
                                ncols[i] = rest
                                ncols[j] = cols[j] + moving
                                tcols = tuple(ncols)
                                if auto and (always or (rest and need >> kind[rest[-1]] & 1)):
                                    child = autoplay(tcols, cells, found, need)
                                else:
                                    child = (tcols, cells, found, need)
                                out.append(((TT, i, j, k), child))
                # Runs into the first empty column (not the whole column: a no-op).
                if first_empty >= 0:
                    if self.whole_runs_empty:
                        ks = (run,) if run <= lim_e else ()
                    else:
                        ks = range(1, (run if run < lim_e else lim_e) + 1)
                    for k in ks:
                        if k < n and empty_ok[col[-k]]:
                            rest = col[:-k]
                            ncols = list(cols)
                            ncols[i] = rest
                            ncols[first_empty] = col[-k:]
                            tcols = tuple(ncols)
                            if auto and (always or need >> kind[rest[-1]] & 1):
                                child = autoplay(tcols, cells, found, need)
                            else:
                                child = (tcols, cells, found, need)
                            out.append(((TT, i, first_empty, k), child))
                # The top card to the first free cell.
                if free:
                    rest = col[:-1]
                    tcols = cols[:i] + (rest,) + cols[i + 1 :]
                    ncells = cells[:first_free] + bytes((top,)) + cells[first_free + 1 :]
                    if auto and (always or (rest and need >> kind[rest[-1]] & 1)):
                        child = autoplay(tcols, ncells, found, need)
                    else:
                        child = (tcols, ncells, found, need)
                    out.append(((TC, i, first_free, 1), child))
            # The top card to a foundation, when autoplay did not take it: the suit's slot
            # (target 0), or with the variant's own piles each the player may choose.
            if need >> kind[top] & 1 and not self.complete:
                rest_cols = cols[:i] + (col[:-1],) + cols[i + 1 :]
                if self.general:
                    for f in self.pile_choices(found, kind[top]):
                        nfound, nneed = self.put_on(found, f, bytes((top,)))
                        out.append(((TF, i, f, 1), autoplay(rest_cols, cells, nfound, nneed)))
                else:
                    nfound, nneed = self.put(found, need, top)
                    out.append(((TF, i, 0, 1), autoplay(rest_cols, cells, nfound, nneed)))
            # A complete suit up, when autoplay did not take it.
            if self.complete and n >= 13 and need >> kind[top] & 1 and self.is_suit(col[-13:]):
                rest_cols = cols[:i] + (col[:-13],) + cols[i + 1 :]
                for f in self.pile_choices(found, kind[top]):
                    nfound, nneed = self.put_on(found, f, col[-13:][::-1])
                    out.append(((TF, i, f, 13), autoplay(rest_cols, cells, nfound, nneed)))
        # Cards in cells.
        for c, v in enumerate(cells):
            if v == EMPTY:
                continue
            ncells = cells[:c] + bytes((EMPTY,)) + cells[c + 1 :]
            for y in parents[v]:
                js = tops.get(y)
                if js:
                    for j in js:
                        tcols = cols[:j] + (cols[j] + bytes((v,)),) + cols[j + 1 :]
                        out.append(((CT, c, j, 1), settle(tcols, ncells, found, need)))
            if first_empty >= 0 and empty_ok[v]:
                tcols = cols[:first_empty] + (bytes((v,)),) + cols[first_empty + 1 :]
                out.append(((CT, c, first_empty, 1), settle(tcols, ncells, found, need)))
            if need >> kind[v] & 1 and not self.complete:
                if self.general:
                    for f in self.pile_choices(found, kind[v]):
                        nfound, nneed = self.put_on(found, f, bytes((v,)))
                        out.append(((CF, c, f, 1), autoplay(cols, ncells, nfound, nneed)))
                else:
                    nfound, nneed = self.put(found, need, v)
                    out.append(((CF, c, 0, 1), autoplay(cols, ncells, nfound, nneed)))
        if self.returns:
            out.extend(self._returns(pos, tops, first_empty, first_free))
        return out

    def _children_chain(self, pos: Position) -> list[tuple[IMove, Position]]:
        """:meth:`children_of` for :attr:`Tables.chain` variants (one deck, building down
        in suit), where every card is unique and has at most one parent: the same moves,
        found with fewer look-ups (measured 1.4 times faster on Seahaven Towers)."""
        cols, cells, found, need = pos
        can_build = self.can_build
        parent = self.parent1
        empty_ok = self.empty_ok
        autoplay = self.autoplay
        auto = self.policy != "off"
        free = cells.count(EMPTY)
        first_free = cells.find(EMPTY)
        first_empty = -1
        empties = 0
        tops: dict[int, int] = {}
        for j, col in enumerate(cols):
            if col:
                tops[col[-1]] = j
            else:
                empties += 1
                if first_empty < 0:
                    first_empty = j
        if self.go_home and free < self.ncells:
            home = [(c, v, tops[parent[v]]) for c, v in enumerate(cells) if parent[v] in tops]
            if home:
                return self._go_home(pos, home, first_free)
        # King home: a card that only an empty column takes waits in a cell while one is
        # empty; only moves into that column are kept.
        king_home = (
            self.king_home
            and first_empty >= 0
            and free < self.ncells
            and any(empty_ok[v] for v in cells if v != EMPTY)
        )
        lim, lim_e = self._run_limits(free, empties)
        frozen = self.frozen
        whole_runs_empty = self.whole_runs_empty
        out: list[tuple[IMove, Position]] = []
        for i, col in enumerate(cols):
            n = len(col)
            if not n:
                continue
            top = col[-1]
            run = 1
            while run < n and can_build[col[-run]][col[-run - 1]]:
                run += 1
            if not (run == n and n > frozen and empty_ok[col[0]]):
                # The whole run onto its bottom card's parent (the only target there is).
                if run <= lim:
                    j = tops.get(parent[col[-run]], -1)
                    if j >= 0:
                        rest = col[:-run]
                        ncols = list(cols)
                        ncols[i] = rest
                        ncols[j] = cols[j] + col[-run:]
                        tcols = tuple(ncols)
                        if auto and rest and need >> rest[-1] & 1:
                            out.append(((TT, i, j, run), autoplay(tcols, cells, found, need)))
                        else:
                            out.append(((TT, i, j, run), (tcols, cells, found, need)))
                # Runs into the first empty column (never the whole column: a no-op).
                if first_empty >= 0:
                    if whole_runs_empty:
                        ks: range | tuple[int, ...] = (run,) if run <= lim_e else ()
                    else:
                        ks = range(1, (run if run < lim_e else lim_e) + 1)
                    for k in ks:
                        if k < n and empty_ok[col[-k]]:
                            rest = col[:-k]
                            ncols = list(cols)
                            ncols[i] = rest
                            ncols[first_empty] = col[-k:]
                            tcols = tuple(ncols)
                            if auto and need >> rest[-1] & 1:
                                child = autoplay(tcols, cells, found, need)
                            else:
                                child = (tcols, cells, found, need)
                            out.append(((TT, i, first_empty, k), child))
                # The top card to the first free cell.
                if free:
                    rest = col[:-1]
                    tcols = cols[:i] + (rest,) + cols[i + 1 :]
                    ncells = cells[:first_free] + bytes((top,)) + cells[first_free + 1 :]
                    if auto and rest and need >> rest[-1] & 1:
                        out.append(((TC, i, first_free, 1), autoplay(tcols, ncells, found, need)))
                    else:
                        out.append(((TC, i, first_free, 1), (tcols, ncells, found, need)))
            if need >> top & 1:  # autoplay did not take it: policy "off"
                nfound, nneed = self.put(found, need, top)
                child = autoplay(cols[:i] + (col[:-1],) + cols[i + 1 :], cells, nfound, nneed)
                out.append(((TF, i, 0, 1), child))
        for c, v in enumerate(cells):
            if v == EMPTY:
                continue
            ncells = cells[:c] + bytes((EMPTY,)) + cells[c + 1 :]
            j = tops.get(parent[v], -1)
            if j >= 0:
                tcols = cols[:j] + (cols[j] + bytes((v,)),) + cols[j + 1 :]
                out.append(((CT, c, j, 1), (tcols, ncells, found, need)))
            if first_empty >= 0 and empty_ok[v]:
                tcols = cols[:first_empty] + (bytes((v,)),) + cols[first_empty + 1 :]
                out.append(((CT, c, first_empty, 1), (tcols, ncells, found, need)))
            if need >> v & 1:
                nfound, nneed = self.put(found, need, v)
                out.append(((CF, c, 0, 1), autoplay(cols, ncells, nfound, nneed)))
        if king_home:
            return [e for e in out if e[0][2] == first_empty and e[0][0] in (TT, CT)]
        return out

    def _send_up(self, pos: Position) -> list[tuple[IMove, Position]] | None:
        """Send up (docs/solver.md, item 10): the one move kept when an exposed card can go
        up losing nothing, or ``None``. Of such cards the least value goes up, from a cell
        if one holds it, else from the column least by its cards (bottom first, as bytes
        compare): the same choice whatever the order of columns and cells, so both engines
        search the same positions."""
        cols, cells, found, need = pos
        kind = self.kind
        inplay = {v for col in cols for v in col} | {v for v in cells if v != EMPTY}
        exposed = sorted(
            [(v, 0, b"", c) for c, v in enumerate(cells) if v != EMPTY]
            + [(col[-1], 1, col, i) for i, col in enumerate(cols) if col]
        )
        for v, in_column, _col, at in exposed:
            if not need >> kind[v] & 1:
                continue
            pile = self.sent_up_pile(pos, v, inplay)
            if pile < 0:
                continue
            nfound, nneed = self.put_on(found, pile, bytes((v,)))
            if in_column:
                rest = cols[:at] + (cols[at][:-1],) + cols[at + 1 :]
                return [((TF, at, pile, 1), self.autoplay(rest, cells, nfound, nneed))]
            ncells = cells[:at] + bytes((EMPTY,)) + cells[at + 1 :]
            return [((CF, at, pile, 1), self.autoplay(cols, ncells, nfound, nneed))]
        return None

    def sent_up_pile(self, pos: Position, v: int, inplay: set[int]) -> int:
        """The pile to send exposed card ``v`` (which fits a pile) to as the only move, or
        -1 when sending it up may lose something.

        Where autoplay never moves a card (:attr:`send_up`), sending ``v`` to pile ``P``
        loses nothing when: no card in play may be built on ``v``; every card in play that
        ``P`` takes now is of ``v``'s value; no more copies of that value are in play than
        piles alike to ``P`` (:attr:`pile_alike`) as high as it and taking the same cards
        (``P`` among them); and no other pile could ever take the value (:meth:`ever_takes`).
        Then whatever a winning line does, the next card on each of those piles is a copy
        of ``v``, so the line can be replayed with ``v`` already up (docs/solver.md, item
        10, gives the argument). In Scotch Patience (PySolFC game 87) a red Five goes up
        once every Four is up, and both red-based piles are at Four or the other red Five
        is up.

        :param pos: the position, autoplay settled.
        :param v: a value exposed at a column top or in a cell.
        :param inplay: the values with a card in play (columns and cells).
        """
        if any(x in inplay for x in self.children[v]):
            return -1
        found = pos[2]
        kind = self.kind
        k = kind[v]
        copies_left = sum(col.count(v) for col in pos[0]) + pos[1].count(v)
        for p in self.pile_choices(found, k):
            m = self.pile_mask(p, found)
            if any(m >> kind[x] & 1 for x in inplay if x != v):
                continue
            like = [
                j
                for j in range(len(found))
                if (j == p or j in self.pile_alike[p])
                and len(found[j]) == len(found[p])
                and self.pile_mask(j, found) == m
            ]
            if copies_left > len(like):
                continue
            if not any(self.ever_takes(found, z, k) for z in range(len(found)) if z not in like):
                return p
        return -1

    def ever_takes(self, found: tuple[bytes, ...], z: int, k: int) -> bool:
        """Whether general pile ``z`` could ever take a card of kind ``k``: now, or after
        more cards within its capacity (the kinds reachable through its next-card table;
        an over-estimate, which only keeps more moves)."""
        room = self.pile_cap[z] - len(found[z])
        m = self.pile_mask(z, found)
        seen = 0
        nexts = self.pile_next[z]
        for _ in range(room):
            if m >> k & 1:
                return True
            if not m & ~seen:
                return False
            seen |= m
            nm = 0
            while m:
                low = m & -m
                nm |= nexts[low.bit_length() - 1]
                m ^= low
            m = nm
        return False

    def _go_home(
        self, pos: Position, home: list[tuple[int, int, int]], first_free: int
    ) -> list[tuple[IMove, Position]]:
        """The children the go-home reduction keeps: the first card in a cell that can go
        onto its parent goes there; the alternatives kept are moving any such parent
        (a column top) to the first free cell."""
        cols, cells, found, need = pos
        c, v, j = home[0]
        ncells = cells[:c] + bytes((EMPTY,)) + cells[c + 1 :]
        tcols = cols[:j] + (cols[j] + bytes((v,)),) + cols[j + 1 :]
        out: list[tuple[IMove, Position]] = [((CT, c, j, 1), (tcols, ncells, found, need))]
        if first_free >= 0:
            kind = self.kind
            for _, _, j in home:
                col = cols[j]
                rest = col[:-1]
                tcols = cols[:j] + (rest,) + cols[j + 1 :]
                ncells = cells[:first_free] + bytes((col[-1],)) + cells[first_free + 1 :]
                child = (tcols, ncells, found, need)
                if rest and need >> kind[rest[-1]] & 1:
                    child = self.autoplay(*child)
                out.append(((TC, j, first_free, 1), child))
        return out

    def _home(
        self, pos: Position, tops: dict[int, list[int]], first_free: int
    ) -> list[tuple[IMove, Position]] | None:
        """The go-home reduction for :meth:`children_of`: ``None`` when no card in a cell
        can go onto a column top, else the children :meth:`_go_home` keeps."""
        parents = self.parents
        home: list[tuple[int, int, int]] = []
        for c, v in enumerate(pos[1]):
            if v != EMPTY:
                for y in parents[v]:
                    js = tops.get(y)
                    if js:
                        home.append((c, v, js[0]))
        if not home:
            return None
        return self._go_home(pos, home, first_free)

    def _returns(
        self,
        pos: Position,
        tops: dict[int, list[int]],
        first_empty: int,
        first_free: int,
    ) -> list[tuple[IMove, Position]]:
        """Moves of a foundation's top card back into play (``foundations.return_to_play``)."""
        cols, cells, found, need = pos
        out: list[tuple[IMove, Position]] = []
        for f, pile in enumerate(found):
            if not pile:
                continue
            v = pile[-1]
            nfound = found[:f] + (pile[:-1],) + found[f + 1 :]
            nneed = self.need_of(nfound)
            targets = [j for y in self.parents[v] for j in tops.get(y, ())]
            if first_empty >= 0 and self.empty_ok[v]:
                targets.append(first_empty)
            for j in targets:
                tcols = cols[:j] + (cols[j] + bytes((v,)),) + cols[j + 1 :]
                # No autoplay after a card comes back (session.play_move).
                out.append(((FT, v, j, 1), (tcols, cells, nfound, nneed)))
            if first_free >= 0:
                ncells = cells[:first_free] + bytes((v,)) + cells[first_free + 1 :]
                out.append(((FC, v, first_free, 1), (cols, ncells, nfound, nneed)))
        return out
