"""Deals: deal numbers to layouts.

Deal ``N`` of a game PySolFC has is PySolFC's game number ``N``: the cards are created in
PySolFC's order, shuffled by the ``pysol_cards`` package (Microsoft FreeCell's generator for
numbers up to 32000, a Mersenne Twister above), and dealt from the top in the order the
variant's deal recipe gives. The generator is pure integer arithmetic (or CPython's seeded
Mersenne Twister), so a number gives the same layout on every platform and Python version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import KING, PYSOLFC_SUITS, Card, Suit, pack
from .errors import SolitaireError
from .moves import PileKind
from .state import GameState
from .variant import BASE_FROM_DEAL, DealRecipe, Rules

MAX_DEAL = 10**20 - 1
"""The largest deal number (PySolFC's 20-digit game numbers)."""


DealMethod = Callable[[Rules, int], Sequence[Card]]
"""A custom deal: ``(rules, deal_number) -> cards in dealing order``, one of each card of
``rules.decks`` decks; the variant's recipe then lays them out."""


def check_deal_number(number: int) -> int:
    """Return ``number`` if it is a valid deal number (1 .. 10**20 - 1).

    :raises SolitaireError: otherwise, saying which numbers are valid.
    """
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_DEAL:
        raise SolitaireError(
            f"deal number must be a whole number from 1 to {MAX_DEAL}, got {number!r}"
        )
    return number


def pysolfc_order(decks: int, number: int, suits: tuple[Suit, ...] = PYSOLFC_SUITS) -> list[Card]:
    """The cards of ``decks`` decks in PySolFC's dealing order for game ``number``.

    :param suits: the suit each of a deck's four suits is played as, in PySolFC's order
        (a variant's ``suits``): the shuffle moves PySolFC's card numbers, so Spider
        (1 Suit) deal ``n`` is Spider deal ``n`` with every card a club.
    :raises SolitaireError: for an invalid deal number.
    """
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    check_deal_number(number)
    cards = shuffle(createCards(decks), number, RandomBase.DEALS_PYSOLFC)
    cards.reverse()
    made = pack(decks, suits)  # in PySolFC's card-number order
    return [made[c.id] for c in cards]


def lay_out(rules: Rules, cards: Sequence[Card]) -> GameState:
    """Place ``cards`` (in dealing order) as the variant's deal recipe says.

    The steps, in order (each reproduces one of PySolFC's dealing hooks; see
    :class:`~solitaire_core.variant.DealRecipe` and docs/variant-format.md): ``reverse``,
    ``bottom_ranks``, ``first_ranks``, cards taken out for the foundations, the base card,
    the reserve (its first card at the bottom), the columns (with
    ``play_to_foundations``), the cells, ``foundations.last``.

    With a ``[stock]`` the cards left over form the stock (the next card to deal on top),
    the recipe's ``face_down`` counts turn the bottom cards of each column face down, and
    the stock is dealt ``stock_deals`` times.

    :raises SolitaireError: when the number of cards is not the variant's
        (``52 x decks``).
    """
    recipe = rules.deal
    if len(cards) != rules.card_count:
        raise SolitaireError(
            f"{rules.name}: the deal recipe places {rules.card_count} cards, got {len(cards)}"
        )
    pack = list(cards)
    if recipe.reverse:
        pack.reverse()
    if recipe.bottom_ranks:
        _move_ranks_to_column_bottoms(pack, set(recipe.bottom_ranks), rules.columns)
    if recipe.first_ranks:
        pack = _ranks_first(pack, recipe.first_ranks)
    if recipe.last_cards:
        # PySolFC's _shuffleHookMoveToBottom (Black Hole, All in a Row): dealt last.
        pack = [c for c in pack if c not in recipe.last_cards] + list(recipe.last_cards)
    foundations: list[list[Card]] = [[] for _ in range(rules.foundations)]
    to_foundations: list[Card] = []
    if recipe.foundation_ranks:
        pack, to_foundations = _take_ranks(pack, recipe)
    elif recipe.twins_of_first:
        pack, to_foundations = _take_twins_of_first(pack)
    for pile, card in zip(foundations, to_foundations):
        pile.append(card)
    if recipe.base_card:
        _deal_base_card(foundations, pack.pop(0), rules.decks)
    it = iter(pack)
    reserve = tuple(next(it) for _ in range(recipe.reserve))
    columns: list[list[Card]] = [[] for _ in range(rules.columns)]
    if recipe.order == "kings-start-columns":
        _deal_kings_start_columns(
            columns, pack[: len(pack) - len(recipe.cells) - recipe.foundation_last]
        )
        it = iter(pack[len(pack) - len(recipe.cells) - recipe.foundation_last :])
    elif recipe.order == "columns":
        for i, count in enumerate(recipe.columns):
            columns[i].extend(next(it) for _ in range(count))
    else:
        order = range(rules.columns - 1, -1, -1) if recipe.right_to_left else range(rules.columns)
        for counts in recipe.column_passes:
            for row in range(max(counts, default=0)):
                for i in order:
                    if row < counts[i]:
                        card = next(it)
                        if not (recipe.play_to_foundations and _play_up(rules, foundations, card)):
                            columns[i].append(card)
    cells: list[Card | None] = [None] * rules.cells
    for index in recipe.cells:
        cells[index] = next(it)
    # One card per pile (docs/variant-format.md, deal.foundations): the last cards go to
    # the piles after those the taken cards started.
    first = len(to_foundations)
    for pile in foundations[first : first + recipe.foundation_last]:
        pile.append(next(it))
    # The cards left over form the stock, the next one to deal on top (PySolFC deals
    # from talon.cards[-1], the order this pack is in).
    stock = tuple(reversed(list(it))) if recipe.stock else ()
    hidden: tuple[int, ...] = ()
    if recipe.face_down and rules.covered_by:
        # A layout's covered cards may lie face down whole (TriPeaks' peaks); the free
        # ones lie face up.
        from .rules import turn_up_uncovered

        hidden = turn_up_uncovered(
            rules,
            tuple(tuple(c) for c in columns),
            tuple(min(n, len(c)) for n, c in zip(recipe.face_down, columns)),
        )
    elif recipe.face_down:
        hidden = tuple(min(n, max(len(c) - 1, 0)) for n, c in zip(recipe.face_down, columns))
    state = GameState(
        rules=rules,
        columns=tuple(tuple(c) for c in columns),
        cells=tuple(cells),
        foundations=tuple(tuple(f) for f in foundations),
        bases=_bases(rules, foundations),
        stock=stock,
        hidden=hidden if any(hidden) else (),
        reserve=reserve,
    )
    if recipe.stock_deals:
        from .rules import _play, stock_moves

        for _ in range(recipe.stock_deals):
            deals = [m for m in stock_moves(state) if m.source.kind is PileKind.STOCK]
            if deals:
                state = _play(state, deals[0])
    return state


def _bases(rules: Rules, foundations: Sequence[Sequence[Card]]) -> tuple[int, ...]:
    """:attr:`GameState.bases` for a fresh deal: ``()`` when every pile's base rank is
    fixed; otherwise, per pile, its fixed base, or (``base_rank = "deal"``) the rank of the
    first card the deal put on it, and for a pile the deal left empty the rank of the
    first foundation card dealt (Penguin's fourth pile takes the rank of the three twins).

    :raises SolitaireError: when the base is left to the deal but the recipe puts no card
        on any foundation.
    """
    if not rules.base_from_deal:
        return ()
    firsts = [pile[0].rank for pile in foundations if pile]
    if not firsts:
        raise SolitaireError(
            f"{rules.name}: foundations.base_rank = 'deal', but the deal recipe puts no card "
            "on the foundations (deal.foundations)"
        )
    return tuple(
        spec.base if spec.base != BASE_FROM_DEAL else (pile[0].rank if pile else firsts[0])
        for spec, pile in zip(rules.foundation_piles, foundations)
    )


def _deal_base_card(foundations: list[list[Card]], card: Card, decks: int) -> None:
    """PySolFC's Canfield (game 105, ``startGame`` with ``ALIGN_FOUNDATIONS``): the base
    card goes to the first pile of its suit, ``suit * decks`` in PySolFC's suit order
    (clubs, spades, hearts, diamonds), or the next pile when that one holds a card."""
    index = _suit_order(card) * decks
    if foundations[index]:
        index += 1
    foundations[index].append(card)


def _move_ranks_to_column_bottoms(pack: list[Card], ranks: set[int], columns: int) -> None:
    """PySolFC's Baker's Dozen hook, in place: each card of ``ranks``, taken in pack order,
    swaps with the first card of another rank dealt earlier into its column (the pack
    dealt in rows of ``columns`` cards)."""
    for i in [i for i, c in enumerate(pack) if c.rank in ranks]:
        for j in range(i % columns, i, columns):
            if pack[j].rank not in ranks:
                pack[i], pack[j] = pack[j], pack[i]
                break


def _suit_order(card: Card) -> int:
    return PYSOLFC_SUITS.index(card.suit)


def _ranks_first(pack: list[Card], ranks: Sequence[int]) -> list[Card]:
    """PySolFC's "move to top" hook: cards of ``ranks`` first, in the listed rank order,
    then suit order, then pack order; the others after them in pack order."""
    chosen = [
        (ranks.index(c.rank), _suit_order(c), i) for i, c in enumerate(pack) if c.rank in ranks
    ]
    first = [pack[i] for *_, i in sorted(chosen)]
    return first + [c for c in pack if c.rank not in ranks]


def _take_ranks(pack: list[Card], recipe: DealRecipe) -> tuple[list[Card], list[Card]]:
    """Cards of the foundation ranks (of one deck, or the ``count`` dealt last) taken out of
    the pack; returns (the rest in pack order, the taken cards in suit then pack order)."""
    wanted = [
        i
        for i, c in enumerate(pack)
        if c.rank in recipe.foundation_ranks
        and (not recipe.foundation_deck or c.deck == recipe.foundation_deck - 1)
    ]
    if recipe.foundation_count:
        wanted = wanted[len(wanted) - recipe.foundation_count :]
    taken = set(wanted)
    chosen = sorted(wanted, key=lambda i: (_suit_order(pack[i]), i))
    return [c for i, c in enumerate(pack) if i not in taken], [pack[i] for i in chosen]


def _take_twins_of_first(pack: list[Card]) -> tuple[list[Card], list[Card]]:
    """PySolFC's Penguin: the first three cards of the first card's rank (the first card
    among them) go up, in suit order; the fourth is dealt first, and the rest follow in
    pack order, other cards of that rank included (with two decks or more, the fifth to
    the last copies stay where the pack has them).

    :return: (the pack to deal, the three cards for the first three foundations).
    """
    rank = pack[0].rank
    firsts = [i for i, c in enumerate(pack) if c.rank == rank][:4]
    taken = set(firsts)
    rest = [c for i, c in enumerate(pack) if i not in taken]
    return [pack[firsts[3]], *rest], sorted((pack[i] for i in firsts[:3]), key=_suit_order)


def _deal_kings_start_columns(columns: list[list[Card]], pack: Sequence[Card]) -> None:
    """PySolFC's Der Katzenschwanz: every card goes to the current column; a King moves on
    to the next column first, unless the current one is still empty."""
    current = 0
    for card in pack:
        if card.rank == KING and columns[current]:
            current += 1
        columns[current].append(card)


def _play_up(rules: Rules, foundations: list[list[Card]], card: Card) -> bool:
    """Put ``card`` on the first foundation that accepts it (by the variant's foundation
    rules, :func:`solitaire_core.rules.pile_accepts`); whether one did."""
    from .rules import pile_accepts

    piles = tuple(tuple(f) for f in foundations)
    probe = GameState(
        rules=rules,
        columns=((),) * rules.columns,
        cells=(None,) * rules.cells,
        foundations=piles,
        bases=_bases(rules, foundations),
    )
    for index, pile in enumerate(foundations):
        if pile and pile_accepts(probe, index, card):
            pile.append(card)
            return True
    return False


def deal(rules: Rules, number: int, methods: dict[str, DealMethod] | None = None) -> GameState:
    """The layout of deal ``number`` of the variant ``rules`` (before any autoplay).

    :param number: the deal number, 1 .. :data:`MAX_DEAL`.
    :param methods: custom deal methods by name (from plugins); ``"pysolfc"`` is built in.
        Defaults to the installed plugins' methods.
    :raises SolitaireError: for an invalid number or an unknown deal method.
    """
    check_deal_number(number)
    method = rules.deal.method
    if method == "pysolfc":
        cards: Sequence[Card] = pysolfc_order(rules.decks, number, rules.suits)
    else:
        if methods is None:
            from .plugins import get_registry

            methods = get_registry().deal_methods
        if method not in methods:
            raise SolitaireError(f"{rules.name}: unknown deal method {method!r}")
        cards = list(methods[method](rules, number))
        expected = sorted(map(str, rules.cards))
        if sorted(map(str, cards)) != expected or len(set(cards)) != len(cards):
            raise SolitaireError(
                f"{rules.name}: deal method {method!r} did not return each card exactly once"
            )
    return lay_out(rules, cards)
