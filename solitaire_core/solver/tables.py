"""The solver's compact view of a variant: :class:`Tables`, compiled once from the Rules.

The core's states are general and readable (attrs values of :class:`~solitaire_core.cards.Card`);
the search needs something a hundred times cheaper. Here every card becomes a small integer
(its *value*), and the variant's rules become lookup tables over values:

* ``can_build[x][y]`` -- may card ``x`` be placed on card ``y`` in a column
  (``rules.build``), and ``parents[x]`` / ``children[y]``, the same relation as lists;
* ``empty_ok[x]`` -- may a run led by ``x`` fill an empty column (``rules.empty_accepts``);
* ``can_run[x][y]`` -- may ``x`` lie on ``y`` within a run that moves as one unit
  (``rules.run``: the build rule unless ``tableau.run`` names a stricter one);
* ``kind[x]`` -- the card's deck-free identity ``suit * 13 + rank - 1``, which is all the
  foundations look at (the core's ``pile_accepts``).

Which Rules fields the solver reads (so that another engine can tell which variants it can
take over and leave the others to this one): ``columns``, ``cells``, ``decks``,
``move_limit``, ``autoplay``, ``build`` (with ``tableau_wrap`` folded in), ``run`` and
``run_rule``, ``empty_accepts_for(bases)``, ``cells_receive``, ``foundation_return``,
``foundation_piles`` (``build``, ``base``, ``wrap``, ``cards``), ``complete_suits``,
``standard_foundations``; and a state's ``bases``.

Only the Rules' declared fields and predicates are read, never a variant id, so a variant a
plugin adds gets the same solver.

Two copies of a card (two-deck games) are *twins*. When the predicates cannot tell twins
apart (they look at rank and suit only, as every built-in one does), a value is the card's
kind and twins are the same value: positions that differ only by which copy lies where are
one position to the search. Otherwise a value is the core's dense ``card_code``.
"""

from __future__ import annotations

import attrs

from ..cards import Card, full_deck
from ..variant import Rules

EMPTY = 255
"""Stands for "no card" in byte strings (values are below 104)."""


@attrs.frozen(eq=False)
class Tables:
    """The variant compiled into lookup tables over card values.

    :param rules: the Rules compiled.
    :param twins: whether twins share one value (see the module docstring).
    :param values: number of distinct card values (52, or 104 when twins differ).
    :param cards: one representative :class:`Card` per value.
    :param kind: value -> ``suit * 13 + rank - 1`` (0..51).
    :param rank: value -> rank 1..13.
    :param can_build: value -> bytes over values: 1 where ``rules.build(card, onto)``.
    :param parents: value -> the values it may be built on.
    :param children: value -> the values that may be built on it.
    :param empty_ok: value -> whether it may lead a run into an empty column.
    :param of_kind: kind -> the values of that kind (one, or two when twins differ).
    :param copies: how many cards of each value the game holds (1, or 2 for twins).
    :param chain: one deck, and every build pair is "one rank down in the same suit":
        each card then has at most one place on the tableau and one card that may go on it,
        which makes the settled-column reduction sound (see docs/solver.md).
    :param king_only: every card that may fill an empty column has no parent (nothing it
        could be built on), as with Kings in Seahaven Towers.
    :param can_run: value -> bytes over values: 1 where ``rules.run(card, onto)``.
    :param bases: the foundations' base ranks the tables were compiled for (``()``: the
        rules' own); they decide ``empty_ok`` with ``tableau.empty = "below-base"``.
    """

    rules: Rules
    twins: bool
    values: int
    cards: tuple[Card, ...]
    kind: tuple[int, ...]
    rank: tuple[int, ...]
    can_build: tuple[bytes, ...]
    parents: tuple[tuple[int, ...], ...]
    children: tuple[tuple[int, ...], ...]
    empty_ok: tuple[bool, ...]
    of_kind: tuple[tuple[int, ...], ...]
    copies: int
    chain: bool
    king_only: bool
    can_run: tuple[bytes, ...] = ()
    bases: tuple[int, ...] = ()

    def value(self, card: Card) -> int:
        """The value standing for ``card``."""
        kind = _SUIT_INDEX[card.suit.value] * 13 + card.rank - 1
        return kind if self.twins else card.deck * 52 + kind


_SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}


def compile_rules(rules: Rules, *, merge_twins: bool = True, bases: tuple[int, ...] = ()) -> Tables:
    """Compile ``rules`` into :class:`Tables` (about 11,000 predicate calls for two decks,
    a few milliseconds).

    :param merge_twins: merge twins when the predicates allow it (off only to measure
        what merging is worth).

    :param bases: the position's foundation base ranks (``GameState.bases``).

    Deck copies are merged into one value when, for every pair of cards, the predicates
    give the same answer whichever copies are asked about.
    """
    deck = full_deck(rules.decks)  # card_code order: deck * 52 + suit * 13 + rank - 1
    n = len(deck)
    build, run_fn = rules.build, rules.run
    table = [[bool(build(x, y)) for y in deck] for x in deck]
    runs = table if run_fn is build else [[bool(run_fn(x, y)) for y in deck] for x in deck]
    accepts = rules.empty_accepts_for(bases)
    empty = [bool(accepts(x)) for x in deck]
    twins = merge_twins and rules.decks > 1
    if twins:
        for a in range(n):
            if empty[a] != empty[a % 52]:
                twins = False
                break
            for rel in (table, runs):
                row, base = rel[a], rel[a % 52]
                if any(row[b] != base[b % 52] for b in range(n)):
                    twins = False
                    break
            if not twins:
                break
    count = 52 if twins else n
    cards = deck[:count]
    kind = tuple(v % 52 for v in range(count))
    can_build = tuple(bytes(int(table[x][y]) for y in range(count)) for x in range(count))
    parents = tuple(tuple(y for y in range(count) if table[x][y]) for x in range(count))
    children = tuple(tuple(x for x in range(count) if table[x][y]) for y in range(count))
    down_in_suit = all(
        kind[y] == kind[x] + 1 and kind[x] % 13 != 12 for x in range(count) for y in parents[x]
    )
    chain = rules.decks == 1 and down_in_suit and runs == table
    king_only = all(not parents[x] for x in range(count) if empty[x])
    return Tables(
        rules=rules,
        twins=twins,
        values=count,
        cards=cards,
        kind=kind,
        rank=tuple(c.rank for c in cards),
        can_build=can_build,
        parents=parents,
        children=children,
        empty_ok=tuple(empty[:count]),
        of_kind=tuple(tuple(v for v in range(count) if kind[v] == k) for k in range(52)),
        copies=rules.decks if twins else 1,
        chain=chain,
        king_only=king_only,
        can_run=tuple(bytes(int(runs[x][y]) for y in range(count)) for x in range(count)),
        bases=bases,
    )
