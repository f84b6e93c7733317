"""Hypothesis strategies for solitaire values: deal numbers, moves, small positions.

Importing this module imports Hypothesis; the pytest plugin only does so when the kit runs.
"""

from __future__ import annotations

import attrs
from hypothesis import strategies as st

from ..cards import ACE, KING, SUITS, Card
from ..deal import MAX_DEAL
from ..moves import Move, PileKind, PileRef
from ..state import GameState
from ..variant import Rules

SMALL_POSITION_CARDS = 8
"""Default size of :func:`small_positions`: cards left off the foundations."""


def deal_numbers() -> st.SearchStrategy[int]:
    """Deal numbers from both of PySolFC's generators: Microsoft's (1..32000) and the
    Mersenne Twister (32001 .. 10**20 - 1)."""
    return st.one_of(st.integers(1, 32000), st.integers(32001, MAX_DEAL))


def pile_refs(rules: Rules, *, numbered: bool = True) -> st.SearchStrategy[PileRef]:
    """Any pile reference, including numbers one past the last pile (which the rules must
    refuse), the stock, the waste and the reserve (refused where the variant has none)
    and, unless ``numbered``, unnumbered cell and foundation references."""
    sizes = {PileKind.TABLEAU: rules.columns, PileKind.CELL: rules.cells,
             PileKind.FOUNDATION: rules.foundations}  # fmt: skip
    options = [
        st.builds(PileRef, st.just(kind), st.integers(0, size)) for kind, size in sizes.items()
    ]
    # The single piles, asked of every variant: those it lacks must be refused.
    options.append(st.sampled_from([PileRef(k, 0) for k in _SINGLE_KINDS]))
    if not numbered:
        options.append(st.sampled_from([PileRef(PileKind.CELL), PileRef(PileKind.FOUNDATION)]))
    return st.one_of(options)


_SINGLE_KINDS = (PileKind.STOCK, PileKind.WASTE, PileKind.RESERVE)


def any_moves(rules: Rules) -> st.SearchStrategy[Move]:
    """Moves between any two piles with any small card count: mostly illegal, sometimes
    legal, some naming piles that do not exist."""
    counts = st.one_of(st.integers(1, 3), st.integers(1, 20))
    return st.builds(Move, pile_refs(rules), pile_refs(rules, numbered=False), counts)


def foundation_pile(rules: Rules, index: int, height: int) -> tuple[Card, ...]:
    """Foundation ``index`` built Ace to ``height``: suit ``SUITS[index % 4]`` from deck
    ``index // 4`` (so the foundations of a full game hold every card once)."""
    suit, deck = SUITS[index % 4], index // 4
    return tuple(Card(rank, suit, deck) for rank in range(1, height + 1))


_FULL: dict[tuple[int, tuple[int, ...]], tuple[Rules, tuple[tuple[Card, ...], ...]]] = {}


def full_foundations(rules: Rules, bases: tuple[int, ...] = ()) -> tuple[tuple[Card, ...], ...]:
    """The foundations of a won game: every card on a pile, each pile built by the
    variant's foundation rules from its base (``bases``: the base ranks when the deal
    decides them, one per pile).

    Classic foundations are :func:`foundation_pile` to the King. Other piles are filled
    one card per pile in turn, each taking the first card (in deck order) the core's
    :func:`~solitaire_core.rules.pile_accepts` allows, so piles that meet (Bisley's up and
    down rows) share their suit.

    A discard pile (``"outranked-in-suit"``, Aces Up) holds the cards that win
    (``foundations.win_cards``): every card but the Aces, lowest ranks first; the cards
    left over stay in play (:func:`cards_in_play_when_won`).

    A pile that takes pairs (``"pairs"``, Pyramid) holds :func:`pair_units` one after
    another.

    :raises ValueError: when that way of filling leaves cards over.
    """
    if rules.foundations == 1 and rules.foundation_piles[0].discards:
        by_rank = sorted((c for c in rules.cards if c.rank != ACE), key=lambda c: c.rank)
        return (tuple(by_rank[: rules.cards_to_win]),)
    if rules.foundations == 1 and rules.foundation_piles[0].pairs:
        return (tuple(c for unit in pair_units(rules) for c in unit),)
    if rules.standard_foundations:
        return tuple(foundation_pile(rules, i, KING) for i in range(rules.foundations))
    if rules.foundations == 1 and rules.foundation_piles[0].both_ways:
        wraps = rules.foundation_piles[0].wrap
        return (_laps(rules, bases[0] if bases and wraps else 1),)
    hit = _FULL.get((id(rules), bases))
    if hit is not None and hit[0] is rules:
        return hit[1]
    from ..rules import pile_accepts

    cards = list(rules.cards)
    piles: list[list[Card]] = [[] for _ in range(rules.foundations)]
    columns = tuple(() for _ in range(rules.columns))
    cells = (None,) * rules.cells
    progress = True
    while cards and progress:
        progress = False
        for i in range(rules.foundations):
            state = GameState(rules, columns, cells, tuple(map(tuple, piles)), bases)
            card = next((c for c in cards if pile_accepts(state, i, c)), None)
            if card is not None:
                piles[i].append(card)
                cards.remove(card)
                progress = True
    if cards:
        raise ValueError(f"{rules.name}: the foundations could not be filled with every card")
    full = tuple(map(tuple, piles))
    if len(_FULL) > 64:
        _FULL.clear()
    _FULL[(id(rules), bases)] = (rules, full)
    return full


def pair_units(rules: Rules) -> list[tuple[Card, ...]]:
    """The discard pile of a won game whose one foundation takes pairs
    (``foundations.build = "pairs"``), unit by unit as they went up: a card whose rank is
    the pair total alone (a King in Pyramid), every other card with a partner whose rank
    adds up with its to the total (of its own suit where one is left), the source's
    card first; in deck order, but a unit of one card last where there is one, so that
    the last card up may go alone.

    :raises ValueError: when some card finds no partner (a total no deck can make up).
    """
    total = rules.foundation_piles[0].pair_total
    left = list(rules.cards)
    units: list[tuple[Card, ...]] = []
    while left:
        card = left.pop(0)
        if card.rank == total:
            units.append((card,))
            continue
        partners = [c for c in left if c.rank + card.rank == total]
        if not partners:
            raise ValueError(f"{rules.name}: {card.label} pairs with no card left over")
        partner = next((c for c in partners if c.suit is card.suit), partners[0])
        left.remove(partner)
        units.append((card, partner))
    alone = [u for u in units if len(u) == 1]
    if alone:
        units.remove(alone[-1])
        units.append(alone[-1])
    return units


def cards_in_play_when_won(rules: Rules, full: tuple[tuple[Card, ...], ...]) -> list[Card]:
    """The cards a won game leaves in play, in deck order: none, unless the game is won
    before every card is up (``foundations.win_cards``: Aces Up's four Aces), given the
    foundations ``full`` of :func:`full_foundations`."""
    up = {c for pile in full for c in pile}
    return [c for c in rules.cards if c not in up]


def won_columns(rules: Rules, rest: list[Card]) -> tuple[tuple[Card, ...], ...]:
    """The columns of a won game holding ``rest`` (:func:`cards_in_play_when_won`): one
    card to a column in turn, as ``tableau.win_single_cards`` wants them."""
    return tuple(tuple(rest[i :: rules.columns]) for i in range(rules.columns))


def _laps(rules: Rules, base: int) -> tuple[Card, ...]:
    """One pile built up or down holding every card: from ``base`` up to the King, on
    from the Ace to ``base - 1``, lap after lap, one suit per lap in deck order. Where the
    pile wraps every step is legal; where it does not (Golf) the step from King to Ace is
    one the stock made, so the laps start at the Ace, and a small position takes off
    fewer cards than a lap."""
    order = [(base - 1 + k) % KING + 1 for k in range(KING)]
    by_rank: dict[int, list[Card]] = {}
    for card in rules.cards:
        by_rank.setdefault(card.rank, []).append(card)
    laps = len(rules.cards) // KING
    return tuple(by_rank[rank][lap] for lap in range(laps) for rank in order)


def _capped(left: list[int], budget: int) -> list[int]:
    """``left`` (cards to take off each pile) with its total capped at ``budget``, front
    to back."""
    out = []
    for k in left:
        out.append(min(k, budget))
        budget -= out[-1]
    return out


@st.composite
def small_positions(
    draw: st.DrawFn, rules: Rules, max_cards: int = SMALL_POSITION_CARDS
) -> GameState:
    """A position near the end of a game: every foundation built up from the Ace, and the
    highest few cards of each suit (at most ``max_cards`` in all, Kings included) spread at
    random over the cells and some of the columns (often only a few, so space is short).

    Every card of the variant's decks is present exactly once, so such a position can be
    won, and its play space is small enough to search exhaustively.

    With foundations other than the classic ones the piles are those of
    :func:`full_foundations` with their last cards taken off (whole suits only, with
    ``only_complete_suits``). A base rank the first card played decides is drawn, one for
    every pile. A base rank the deal decides is drawn one for every pile (Penguin's deal);
    where the piles build regardless of suit (Stalactites, PySolFC game 77, whose deal
    starts each pile with its own card) also one per pile, or so that every pile has the
    same rank on top however many cards it lacks: then several piles take the next card
    yet end apart, and which one takes it matters.

    A pile that takes pairs (Pyramid) gives up whole units of :func:`pair_units`. Where
    the columns lie in a ``tableau.layout`` the cards go where play could have left them
    (:func:`_layout_position`), into the stock and the waste too.
    """
    n = rules.foundations
    if rules.complete_suits:
        counts = st.sampled_from([0, 0, 13])
    else:
        counts = st.one_of(st.integers(0, 3), st.integers(0, KING))
    budget = max(max_cards, 13) if rules.complete_suits else max_cards
    ranks = st.integers(1, KING)
    bases: tuple[int, ...] = ()
    left: list[int] | None = None
    if rules.base_from_deal:
        # Other builds cannot always fill piles from unlike bases with every card.
        how = "same"
        if all(p.suits == "any" for p in rules.foundation_piles):
            how = draw(st.sampled_from(["same", "apart", "tops agree"]), label="base ranks")
        if how == "same":
            bases = (draw(ranks),) * n
        elif how == "apart":
            bases = draw(st.tuples(*([ranks] * n)))
        else:
            left = _capped(draw(st.lists(counts, min_size=n, max_size=n)), budget)
            top = draw(ranks)
            # A pile of 13 built up from base b and lacking k cards has b - 1 - k on top.
            bases = tuple((top + k) % KING + 1 for k in left)
    fill = bases
    if rules.base_first_played:  # the piles start from a drawn rank; the state reads it
        fill = (draw(st.integers(1, KING), label="base rank"),) * n
    full = full_foundations(rules, fill)
    rest = cards_in_play_when_won(rules, full)
    budget = max(budget - len(rest), 0)
    loose: list[Card]
    if n == 1 and rules.foundation_piles[0].pairs:
        founds, loose = _pairs_left(draw, rules, budget)
    else:
        if left is None:
            left = draw(st.lists(counts, min_size=n, max_size=n))
        for i, k in enumerate(left):  # cap the total, front to back
            left[i] = min(k, budget, len(full[i]))
            if rules.complete_suits and left[i] < 13:
                left[i] = 0
            budget -= left[i]
        heights = [len(pile) - k for pile, k in zip(full, left)]
        founds = tuple(pile[:h] for pile, h in zip(full, heights))
        loose = [c for pile, h in zip(full, heights) for c in pile[h:]]
    loose = list(draw(st.permutations(loose + rest)))
    if rules.layout:
        return _layout_position(draw, rules, loose, founds, bases)
    # Often crowd the cards into a few columns, so that space is short and the order of
    # moves matters (with every column open almost any position is won).
    used = draw(st.one_of(st.integers(1, min(3, rules.columns)), st.integers(1, rules.columns)))
    slots = used + rules.cells
    columns: list[list[Card]] = [[] for _ in range(rules.columns)]
    cells: list[Card | None] = [None] * rules.cells
    for card in loose:
        slot = draw(st.integers(0, slots - 1))
        if slot >= used and cells[slot - used] is None:
            cells[slot - used] = card
        else:
            columns[slot % used].append(card)
    return GameState(
        rules=rules,
        columns=tuple(tuple(c) for c in columns),
        cells=tuple(cells),
        foundations=founds,
        bases=bases,
    )


def _pairs_left(
    draw: st.DrawFn, rules: Rules, budget: int
) -> tuple[tuple[tuple[Card, ...], ...], list[Card]]:
    """The discard pile of a pairs game with some of its units (:func:`pair_units`, at
    most ``budget`` cards in all) still in play: whole pairs and lone cards only, so that
    the pile holds what play could have put there. Returns the foundations and the cards
    in play."""
    units = pair_units(rules)
    picks = draw(
        st.lists(st.integers(0, len(units) - 1), unique=True, max_size=budget), label="units"
    )
    off: set[int] = set()
    for k in picks:
        if len(units[k]) <= budget:
            off.add(k)
            budget -= len(units[k])
    pile = tuple(c for k, unit in enumerate(units) if k not in off for c in unit)
    return (pile,), [c for k in sorted(off) for c in units[k]]


def _layout_position(
    draw: st.DrawFn,
    rules: Rules,
    loose: list[Card],
    foundations: tuple[tuple[Card, ...], ...],
    bases: tuple[int, ...],
) -> GameState:
    """A position of a game whose columns lie in a ``tableau.layout``, holding ``loose``
    in play: some of them in the layout where play could have left them, the others in
    the stock (and the waste, where the stock deals to one), none in the cells.

    A column holds a card only where every column its card lies on holds one too: a card
    leaves only once no card lies on it, so a column is emptied only after every column
    on it (:func:`~solitaire_core.testing.reference.declared_covering`). A column holds at
    most the cards the deal gives it (one at least). Its cards may lie face down where the
    deal lays some face down (``deal.face_down``), all of them only while a card lies on
    it; the redeals used are drawn too."""
    from .reference import declared_covering

    n = rules.columns
    on = declared_covering(tuple(rules.layout))
    under = [[i for i in range(n) if j in on[i]] for j in range(n)]  # what j lies on
    dealt = rules.deal.columns
    room = [max(1, dealt[i] if i < len(dealt) else 1) for i in range(n)]
    placed = len(loose)
    if rules.has_stock:
        placed = draw(st.integers(0, len(loose)), label="cards in the layout")
    columns: list[list[Card]] = [[] for _ in range(n)]
    cards = loose[:placed]
    while cards:
        places = [
            j for j in range(n) if len(columns[j]) < room[j] and all(columns[i] for i in under[j])
        ]
        if not places:
            break
        columns[draw(st.sampled_from(places))].append(cards.pop())
    rest = cards + loose[placed:]
    if rest and not rules.has_stock:
        raise ValueError(f"{rules.name}: the layout holds fewer than {len(loose)} cards")
    stock, waste = rest, []
    if rest and rules.stock_deal == "waste":
        k = draw(st.integers(0, len(rest)), label="cards in the stock")
        stock, waste = rest[:k], rest[k:]
    rounds = 0
    if rules.stock_deal == "waste" and rules.redeals:
        most = rules.redeals if rules.redeals > 0 else 2
        rounds = draw(st.integers(0, most), label="redeals used")
    hidden = [0] * n
    down = rules.deal.face_down
    for i, col in enumerate(columns):
        if col and i < len(down) and down[i]:
            covered = any(columns[j] for j in on[i])
            most = min(down[i], len(col) if covered else len(col) - 1)
            hidden[i] = draw(st.integers(0, most), label=f"face down in t{i + 1}")
    return GameState(
        rules=rules,
        columns=tuple(tuple(c) for c in columns),
        cells=(None,) * rules.cells,
        foundations=foundations,
        bases=bases,
        stock=tuple(stock),
        waste=tuple(waste),
        hidden=tuple(hidden) if any(hidden) else (),
        rounds=rounds,
    )


@st.composite
def reduced_board_positions(
    draw: st.DrawFn, rules: Rules, max_cards: int = SMALL_POSITION_CARDS
) -> GameState:
    """A :func:`small_positions` end game on a reduced board: the variant's rules (build,
    empty columns, move limit, foundations) with only 1 to 4 columns and 0 to 2 cells.

    Space is then short, so the order of moves matters and some positions are lost; the
    whole play space stays small enough to search exhaustively. A game whose columns lie
    in a ``tableau.layout`` (Pyramid) keeps every column: the layout says which card lies
    on which, and the position fills only a few of them.
    """
    columns = draw(st.integers(1, min(4, rules.columns)), label="columns")
    if rules.win_single_cards or rules.layout:
        # Won with one card on each of its columns; or a layout places every column (the
        # position then fills only a few, as in a game's late stages).
        columns = rules.columns
    cells = draw(st.integers(0, min(2, rules.cells)), label="cells")
    board = attrs.evolve(rules, columns=columns, cells=cells)
    return draw(small_positions(board, max_cards))
