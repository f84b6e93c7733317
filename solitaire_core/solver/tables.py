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

The same goes for cards of one rank but different suits when nothing in the rules looks at
their suits (:attr:`Tables.classes`): in Stalactites (PySolFC game 77) the foundations build
regardless of suit and nothing builds on the columns, so the four Fives are one value; in
Scotch Patience (PySolFC game 87) the foundations build in alternate colours and the
columns regardless of suit, so the two red Fives are one value and the two black Fives
another. Such a value is the kind of the class's first suit (clubs, then diamonds), the
other kinds of the class stand for no card (*holes*: :attr:`Tables.present` is false), and
:attr:`Tables.copies` counts every card a value stands for. This needs the variant's own
foundation piles (the classic ones build in suit), and a solution still names piles, not
cards, so it replays in the session whichever card of a class lies where.
"""

from __future__ import annotations

import functools

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
    :param of_kind: kind -> the values cards of that kind are (one, or two when twins
        differ).
    :param copies: how many cards each value stands for (1; the decks, for twins; times
        2 or 4 when suits share values, :attr:`classes`). Holes stand for none.
    :param chain: one deck, and every build pair is "one rank down in the same suit":
        each card then has at most one place on the tableau and one card that may go on it,
        which makes the settled-column reduction sound (see docs/solver.md).
    :param king_only: every card that may fill an empty column has no parent (nothing it
        could be built on), as with Kings in Seahaven Towers.
    :param can_run: value -> bytes over values: 1 where ``rules.run(card, onto)``.
    :param bases: the foundations' base ranks the tables were compiled for (``()``: the
        rules' own); they decide ``empty_ok`` with ``tableau.empty = "below-base"``.
    :param classes: which suits share a value (see the module docstring): ``""`` (none),
        ``"color"`` (the two suits of a colour) or ``"any"`` (all four).
    :param present: value -> whether some card of the game is that value (``()``: every
        value is); false for the holes that ``classes`` leaves.
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
    classes: str = ""
    present: tuple[bool, ...] = ()

    def value(self, card: Card) -> int:
        """The value standing for ``card``."""
        kind = _CLASS_SUIT[self.classes][_SUIT_INDEX[card.suit.value]] * 13 + card.rank - 1
        return kind if self.twins else card.deck * 52 + kind

    @functools.cached_property
    def loose_pairs(self) -> bool:
        """Whether some card builds on another but does not run with it (the C core
        counts the ``loose`` score term only then)."""
        return bool(self.can_run) and any(
            b and not r
            for row_b, row_r in zip(self.can_build, self.can_run)
            for b, r in zip(row_b, row_r)
        )

    @property
    def present_mask(self) -> int:
        """The kinds some card's value has, as a bit mask over kinds 0..51: all of them
        but the holes that :attr:`classes` leaves."""
        if not self.present:
            return (1 << 52) - 1
        return sum(1 << v for v in range(52) if self.present[v])


_SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}

_CLASS_SUIT = {"": (0, 1, 2, 3), "color": (0, 1, 1, 0), "any": (0, 0, 0, 0)}
"""Suit index -> the suit index of its class's value, for each :attr:`Tables.classes`
(clubs and spades are black, diamonds and hearts red)."""


def _suit_classes(
    rules: Rules, twins: bool, relations: list[list[list[bool]]], empty: list[bool]
) -> str:
    """The coarsest :attr:`Tables.classes` that nothing in ``rules`` can tell apart: the
    foundation piles' builds allow it (none in suit, no complete suits) and each of the
    tableau ``relations`` (build, run, as card_code x card_code tables) and ``empty``
    give every card the answer its class's value gets. ``""`` when none does."""
    if rules.standard_foundations or rules.complete_suits or (rules.decks > 1 and not twins):
        return ""
    suits = {p.suits for p in rules.foundation_piles}
    n = 52 * rules.decks
    for classes in ("any", "color"):
        if not suits <= {"any", classes}:
            continue
        to = _CLASS_SUIT[classes]
        rep = [to[(x % 52) // 13] * 13 + x % 13 for x in range(n)]
        if any(empty[x] != empty[rep[x]] for x in range(n)):
            continue
        if all(rel[x][y] == rel[rep[x]][rep[y]] for rel in relations for x in range(n)
               for y in range(n)):  # fmt: skip
            return classes
    return ""


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
    classes = ""
    if merge_twins:
        classes = _suit_classes(rules, twins or rules.decks == 1, [table, runs], empty)
    to = _CLASS_SUIT[classes]
    # A hole (no card is that value) builds on nothing, takes nothing, fills nothing.
    present = [to[(v % 52) // 13] == (v % 52) // 13 for v in range(count)]
    relations = (table,) if runs is table else (table, runs)
    for rel in relations if classes else ():
        for x in range(count):
            for y in range(count):
                rel[x][y] = rel[x][y] and present[x] and present[y]
    if classes:
        empty = [e and present[x % 52] for x, e in enumerate(empty)]
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
        of_kind=tuple(
            tuple(v for v in range(count) if kind[v] == to[k // 13] * 13 + k % 13)
            for k in range(52)
        ),
        copies=(rules.decks if twins else 1) * (4 // len(set(to))),
        chain=chain,
        king_only=king_only,
        can_run=tuple(bytes(int(runs[x][y]) for y in range(count)) for x in range(count)),
        bases=bases,
        classes=classes,
        present=tuple(present) if classes else (),
    )
