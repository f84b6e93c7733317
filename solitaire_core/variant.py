"""Variant definitions: the TOML vocabulary, its loader, and the resolved :class:`Rules`.

Data flows one way: a TOML file is read and validated into a :class:`VariantDefinition`;
choosing option values resolves it into :class:`Rules`, the frozen value every game state
carries. See docs/variant-format.md for the vocabulary and docs/architecture.md for the flow.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from .cards import PYSOLFC_SUITS, Card, Suit, full_deck, pack
from .errors import VariantError
from .predicates import BUILTIN_PREDICATES, BuildFn, EmptyFn, RulePredicate
from .readfile import read_file_bytes

if TYPE_CHECKING:
    from .variant_cache import VariantCache

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

MOVE_LIMITS = ("one", "free-cells-plus-one", "supermove", "unlimited", "one-or-all")
AUTOPLAY_POLICIES = ("off", "safe", "all")
MAX_VARIANT_BYTES = 1024 * 1024
"""Larger variant files are refused unread (a real one is a few kilobytes)."""
UNLIMITED_REDEALS = -1
""":attr:`Rules.redeals` when the waste may be turned over without limit."""
FAMILIES = (
    "freecell",
    "seahaven",
    "beleaguered-castle",
    "fan",
    "klondike",
    "yukon",
    "spider",
    "gypsy",
    "forty-thieves",
    "canfield",
    "golf",
    "pairing",
    "other",
)
"""The values of the top-level ``family`` key: the groups the launcher shows games in."""


def load_schema() -> dict[str, Any]:
    """The JSON Schema every variant file must satisfy (``variant-schema.json``)."""
    text = resources.files("solitaire_core").joinpath("variant-schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@attrs.frozen
class DealRecipe:
    """How the shuffled cards are laid out (docs/variant-format.md, ``[deal]``).

    The pack is taken in dealing order (for ``method = "pysolfc"``, PySolFC's order for the
    deal number) and changed, in this order, by ``reverse``, ``bottom_ranks``,
    ``first_ranks`` and the foundation keys; then the columns, the cells and
    ``foundation_last`` are dealt from it. Each step is one of PySolFC's dealing hooks
    written as data, so that deal N is PySolFC's game N.

    :param columns: cards dealt to each tableau column, one entry per column (empty for
        ``order = "kings-start-columns"``, where the deal decides the lengths).
    :param cells: 0-based indexes of the cells that receive one card each, in dealing order.
    :param order: ``"rows"`` (one card to each column in turn, row after row, as PySolFC
        deals), ``"columns"`` (fill one column, then the next) or
        ``"kings-start-columns"`` (every card goes to the current column, and a King starts
        the next one unless the current one is empty: PySolFC's Der Katzenschwanz).
    :param method: ``"pysolfc"`` (PySolFC's deal numbers, via pysol_cards) or the name of a
        custom deal a plugin registered through ``solitaire_deal_methods``.
    :param passes: the column deal as passes, each a count per column dealt row by row;
        they add up to ``columns`` (one pass, ``columns`` itself, unless the file says).
    :param reverse: deal the pack from the other end (PySolFC's Baker's Dozen hook).
    :param bottom_ranks: ranks moved under the other cards of their column: each such card
        swaps with the first card of another rank dealt earlier into its column (PySolFC's
        Baker's Dozen hook, with rows of ``len(columns)`` cards).
    :param first_ranks: ranks dealt first, in this rank order, each rank's cards in
        PySolFC's suit order (clubs, spades, hearts, diamonds) then pack order (PySolFC's
        Challenge FreeCell hook).
    :param play_to_foundations: while the columns are dealt, a card a foundation accepts
        goes there instead, and its column gets no card in that pass (PySolFC's Citadel).
    :param foundation_ranks: cards of these ranks are taken out of the pack and start the
        foundations, one per pile, in suit order then pack order.
    :param foundation_count: take only this many of them, the ones dealt last (0: all).
    :param foundation_deck: take only cards of this deck, 1-based (0: any deck).
    :param twins_of_first: the first three cards of the first card's rank start three
        foundations and the fourth is dealt first (PySolFC's Penguin); with more decks
        the other copies of that rank stay in the pack, in pack order.
    :param base_card: the first card of the pack (after the taken cards) starts the
        foundation of its suit, pile ``suit * decks`` in PySolFC's suit order, or the next
        pile when that one is taken (PySolFC's Canfield ``startGame``, game 105).
    :param reserve: cards dealt to the reserve, one at a time, after the foundation cards
        and before the columns (PySolFC's Canfield: ``INITIAL_RESERVE_CARDS``).
    :param foundation_last: after the columns and cells, this many cards go one to each
        foundation in turn, from the first pile the taken cards left empty (PySolFC's
        Stalactites).
    :param foundation_cards: how many cards the recipe puts on the foundations.
    :param face_down: per column, how many of its cards (from the bottom) are dealt face
        down; empty when every card is dealt face up.
    :param stock: whether the cards the recipe leaves over form the stock (the variant
        has a ``[stock]`` table); otherwise the recipe places every card.
    :param stock_deals: how many times the stock is dealt once the layout is down
        (PySolFC's Klondike ``startGame`` ends with one ``talon.dealCards()``).
    :param right_to_left: with ``order = "rows"``, each row goes from the last column to
        the first (PySolFC's ``dealRow(reverse=1)`` in Klondike).
    :param last_cards: cards taken out of the pack and dealt after every other card, in
        this order (PySolFC's ``_shuffleHookMoveToBottom`` in Black Hole and All in a Row,
        which deal the Ace of Spades last).
    """

    columns: tuple[int, ...]
    cells: tuple[int, ...]
    order: str = "rows"
    method: str = "pysolfc"
    passes: tuple[tuple[int, ...], ...] = ()
    reverse: bool = False
    bottom_ranks: tuple[int, ...] = ()
    first_ranks: tuple[int, ...] = ()
    play_to_foundations: bool = False
    foundation_ranks: tuple[int, ...] = ()
    foundation_count: int = 0
    foundation_deck: int = 0
    twins_of_first: bool = False
    base_card: bool = False
    reserve: int = 0
    foundation_last: int = 0
    foundation_cards: int = 0
    face_down: tuple[int, ...] = ()
    stock: bool = False
    stock_deals: int = 0
    right_to_left: bool = False
    last_cards: tuple[Card, ...] = ()

    @property
    def card_count(self) -> int:
        """How many cards the recipe places (for ``kings-start-columns``: the cells and
        foundations only, the columns taking the rest)."""
        return sum(self.columns) + len(self.cells) + self.foundation_cards + self.reserve

    @property
    def column_passes(self) -> tuple[tuple[int, ...], ...]:
        """The passes of the column deal (``columns`` as one pass when none are given)."""
        return self.passes or (self.columns,)


def _same_as_build(card: Card, onto: Card) -> bool:  # pragma: no cover - a marker only
    """Marks :attr:`Rules.run` left out: runs then follow the build rule."""
    raise AssertionError("placeholder run rule called")


def _below(base: int) -> EmptyFn:
    """``tableau.empty = "below-base"``: the rank one below ``base``, a King below an Ace."""
    rank = base - 1 if base > 1 else 13

    def accepts(card: Card) -> bool:
        return card.rank == rank

    return accepts


FOUNDATION_BUILDS = (
    "up-in-suit",
    "up-alternate-colors",
    "up-any-suit",
    "down-in-suit",
    "up-or-down-any-suit",
    "outranked-in-suit",
    "pairs",
)
BASE_FROM_DEAL = 0
""":attr:`FoundationPile.base` when the deal decides the base rank (``base_rank = "deal"``)."""
BASE_FIRST_PLAYED = -1
""":attr:`FoundationPile.base` when the first card played to a foundation sets the base rank
of every pile (``base_rank = "first-played"``, PySolFC's Chessboard, game 148)."""


@attrs.frozen
class FoundationPile:
    """How one foundation pile is built (``[foundations]`` or one ``[[foundations.groups]]``).

    :param build: one of :data:`FOUNDATION_BUILDS`: up in suit, up in alternate colours,
        up regardless of suit, down in suit, or one rank up or down regardless of suit
        (PySolFC's ``Golf_Waste`` and ``BlackHole_Foundation``, pysollib/games/golf.py),
        or ``"outranked-in-suit"``: a discard pile that takes any card but an Ace while a
        higher card of its suit, Aces high, tops another column (PySolFC's
        ``AcesUp_Foundation``, pysollib/games/acesup.py, game 903).
    :param base: the rank 1..13 that starts the empty pile, or :data:`BASE_FROM_DEAL` (0):
        the deal decides it and the :class:`~solitaire_core.state.GameState` carries it,
        or :data:`BASE_FIRST_PLAYED` (-1): the first card played to any foundation sets
        it for every pile (:meth:`~solitaire_core.state.GameState.base_rank` reads it
        off the piles).
    :param wrap: whether King to Ace (Ace to King when building down) continues the pile.
    :param cards: the most cards the pile holds (26: a suit built twice, with ``wrap``).
    :param nothing_on_king: a King on top closes the pile to cards from play; the stock
        may still deal onto it (``foundations.nothing_on_king``: PySolFC's Dead King Golf,
        game 259, ``Golf_Waste.acceptsCards`` with strictness 1).
    :param pair_total: with ``build = "pairs"``, the rank total of a pair (13 in Pyramid:
        Ace 1, Jack 11, Queen 12, King 13); 0 for any other build.

    A ``"pairs"`` pile is a discard pile for the pairs: two free cards whose ranks add up
    to ``pair_total`` go onto it together, and a card of that rank alone (PySolFC's
    ``Pyramid_StackMethods``, pysollib/games/pyramid.py, Pyramid, game 38).
    """

    build: str = "up-in-suit"
    base: int = 1
    wrap: bool = False
    cards: int = 13
    nothing_on_king: bool = False
    pair_total: int = 0

    @property
    def up(self) -> bool:
        """Whether the pile builds upward (a pile built up or down counts as upward)."""
        return self.build != "down-in-suit"

    @property
    def both_ways(self) -> bool:
        """Whether the pile builds one rank up or down (``"up-or-down-any-suit"``): it
        needs no wrap to hold every card, the next card being any neighbour of its top."""
        return self.build == "up-or-down-any-suit"

    @property
    def discards(self) -> bool:
        """Whether the pile is a discard pile (``"outranked-in-suit"``, Aces Up): what it
        takes depends on the columns' top cards, not on its own top card, and it holds
        :attr:`cards` cards."""
        return self.build == "outranked-in-suit"

    @property
    def pairs(self) -> bool:
        """Whether the pile takes pairs of cards whose ranks add up to
        :attr:`pair_total` (``"pairs"``, Pyramid)."""
        return self.build == "pairs"

    @property
    def suits(self) -> str:
        """How consecutive cards' suits relate: ``"suit"``, ``"color"`` (alternate) or
        ``"any"``."""
        return {
            "up-alternate-colors": "color",
            "up-any-suit": "any",
            "up-or-down-any-suit": "any",
            "outranked-in-suit": "any",
            "pairs": "any",
        }.get(self.build, "suit")

    @property
    def capacity(self) -> int:
        """The most cards the pile can ever hold: :attr:`cards`, or fewer when it does not
        wrap and its base leaves fewer ranks (up from a Five: 9). A base from the deal
        or the first card played counts as wrapping (the loader requires ``wrap`` then);
        a pile built up or down, or a discard pile, holds :attr:`cards` whatever its base."""
        if self.wrap or self.base <= BASE_FROM_DEAL or self.both_ways or self.discards:
            return self.cards
        if self.pairs:
            return self.cards
        return min(self.cards, 14 - self.base if self.up else self.base)

    @property
    def standard(self) -> bool:
        """Up in suit from the Ace to the King (every rules text of the first variants)."""
        return self == FoundationPile()


@attrs.frozen(eq=False)
class Rules:
    """A variant with every option chosen: everything legality needs, as plain values.

    Built by :meth:`VariantDefinition.resolve`; never constructed from a dict directly.
    Compared by identity (each resolve gives a new object, which is fine: states compare
    only their cards).

    Fields for rules beyond the classic games' (each defaults to the classic rule):
    ``tableau_wrap``; ``run_rule``/``run``/``run_description`` (which stacked cards move as
    one unit; equal to the build rule unless ``tableau.run`` names another);
    ``cells_receive`` (False: the cells are a reserve); ``foundation_piles`` (one
    :class:`FoundationPile` per foundation: build, base rank, wrap, most cards);
    ``complete_suits`` (``foundations.only_complete_suits``). With ``tableau.empty = "below-base"``,
    ``empty_accepts`` is the rule for the rules' fixed base; when the deal decides the base,
    ask :meth:`empty_accepts_for` with the state's base ranks.

    The stock (``[stock]``, docs/variant-format.md): ``stock_deal`` is ``""`` (no stock),
    ``"waste"`` (each deal turns ``draw`` cards onto the waste; the waste may be turned
    over ``redeals`` times, :data:`UNLIMITED_REDEALS` for no limit: PySolFC's
    ``WasteTalonStack`` with ``max_rounds = redeals + 1``) or ``"row"`` (each deal puts a
    card on each column of ``row_columns``, 0-based, in that order; not while a column is
    empty unless ``row_onto_empty``: PySolFC's ``DealRowTalonStack`` and Spider's
    ``SpiderTalonStack``) or ``"foundation"`` (each deal turns one card onto the single
    foundation, whatever its rank: PySolFC's Golf, whose waste is its foundation).
    ``suits``: the suit each of a deck's four suits is played as,
    in PySolFC's order (:data:`~solitaire_core.cards.PYSOLFC_SUITS`; Spider (1 Suit) has
    four clubs); :attr:`cards` are the cards this makes. ``face_up_runs``
    (``tableau.run = "face-up"``): any face-up card moves with every card on it, however
    they lie (PySolFC's ``Yukon_AC_RowStack``). ``scoring``: the scoring scheme, one of
    :data:`~solitaire_core.scoring.SCHEMES` (``"cards"``: one point per card on a
    foundation).

    The reserve (``[reserve]``): ``reserve_cards`` dealt to it (0: no reserve);
    ``reserve_face_down``: every card under its top lies face down (Canfield; PySolFC's
    ``INITIAL_RESERVE_FACEUP = 0``); ``reserve_fills_empty``: a column that empties takes
    the reserve's top card within the same move (PySolFC's ``FILL_EMPTY_ROWS``,
    pysollib/games/canfield.py); ``reserve_receive``: ``""`` (no reserve), ``"never"``
    (nothing is put on it) or ``"when-stock-empty"`` (once the stock is empty, the empty
    reserve takes a card or a run, and its runs play out: PySolFC's
    ``MissMilligan_ReserveStack``, pysollib/games/gypsy.py). ``move_limit =
    "one-or-all"``: a column gives one card or all of its cards (PySolFC's
    ``Canfield_AC_RowStack``).

    Winning: ``win_cards`` (``foundations.win_cards``; 0: every card) is how many cards
    on the foundations win the game, and with ``win_single_cards``
    (``tableau.win_single_cards``) every column must besides hold exactly one card
    (PySolFC's ``AcesUp.isGameWon``, pysollib/games/acesup.py: 48 discarded, an Ace alone
    on each column; its Aces Up 5, game 353, asks only the 48).

    Covering (``tableau.layout``): ``layout`` gives each column's place on the table,
    ``(x, y)`` in card widths and card heights; ``covered_by[i]`` lists the columns whose
    cards overlap column ``i``'s from below (:func:`covering`). A column's cards play only
    once those columns are empty, and its face-down card turns up then (PySolFC's
    ``Pyramid_RowStack.blockmap`` and ``ThreePeaks_RowStack.basicIsBlocked``). Both are
    ``()`` without a layout. ``stock_top_plays`` (``stock.top_plays``): the stock's top
    card lies face up and plays as the waste's does (PySolFC's ``FaceUpWasteTalonStack``
    in Pyramid).
    """

    id: str
    name: str
    decks: int
    columns: int
    cells: int
    foundations: int
    tableau_build: str
    build: BuildFn
    build_description: str
    empty_rule: str
    empty_accepts: EmptyFn
    empty_description: str
    move_limit: str
    foundation_return: bool
    foundation_runs: bool
    autoplay: str
    deal: DealRecipe
    options: tuple[tuple[str, str], ...] = ()
    summary: str = ""
    tableau_wrap: bool = False
    run_rule: str = ""
    run: BuildFn = attrs.field(default=_same_as_build)
    run_description: str = ""
    cells_receive: bool = True
    foundation_piles: tuple[FoundationPile, ...] = ()
    complete_suits: bool = False
    stock_deal: str = ""
    draw: int = 1
    redeals: int = 0
    row_columns: tuple[int, ...] = ()
    row_onto_empty: bool = True
    face_up_runs: bool = False
    suits: tuple[Suit, ...] = PYSOLFC_SUITS
    reserve_cards: int = 0
    reserve_face_down: bool = False
    reserve_fills_empty: bool = False
    scoring: str = "cards"
    reserve_receive: str = ""
    win_cards: int = 0
    win_single_cards: bool = False
    layout: tuple[tuple[float, float], ...] = ()
    covered_by: tuple[tuple[int, ...], ...] = ()
    stock_top_plays: bool = False

    def __attrs_post_init__(self) -> None:
        # Rules made by hand (tests, plugins) may leave out the fields for rules beyond the
        # classic games': they then mean the classic rule (runs follow the build, standard
        # foundations).
        if self.run is _same_as_build:
            object.__setattr__(self, "run", self.build)
            object.__setattr__(self, "run_rule", self.run_rule or self.tableau_build)
            object.__setattr__(self, "run_description", self.build_description)
        if not self.foundation_piles:
            object.__setattr__(self, "foundation_piles", (FoundationPile(),) * self.foundations)

    @property
    def card_count(self) -> int:
        """Cards in play: 52 per deck."""
        return 52 * self.decks

    @property
    def cards_to_win(self) -> int:
        """How many cards on the foundations win the game: ``win_cards``, or every card."""
        return self.win_cards or self.card_count

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the game, in the order PySolFC makes them
        (:func:`~solitaire_core.cards.pack` of ``decks`` and ``suits``)."""
        return pack(self.decks, self.suits)

    @property
    def has_stock(self) -> bool:
        """Whether the variant has a stock (``[stock]``)."""
        return bool(self.stock_deal)

    @functools.cached_property
    def hidden_cards(self) -> bool:
        """Whether some cards are dealt where the player cannot see them: face down in
        the columns or the reserve, or in a stock. Then the state knows more than the
        player, and the solver's verdicts are thoughtful (it knows every card)."""
        return self.has_stock or any(self.deal.face_down) or self.reserve_face_down

    @functools.cached_property
    def pair_total(self) -> int:
        """The rank total of a pair when the one foundation takes pairs
        (``foundations.build = "pairs"``: 13 in Pyramid), else 0."""
        piles = self.foundation_piles
        return piles[0].pair_total if len(piles) == 1 and piles[0].pairs else 0

    @property
    def has_reserve(self) -> bool:
        """Whether the variant has a reserve pile (``[reserve]``)."""
        return bool(self.reserve_receive)

    @property
    def reserve_takes_runs(self) -> bool:
        """Whether the reserve takes cards (``reserve.receive = "when-stock-empty"``):
        then it holds a run, which plays out as runs do on the tableau."""
        return self.reserve_receive == "when-stock-empty"

    @property
    def core_positions_only(self) -> bool:
        """Whether the solver searches this game on the core's own positions
        (:mod:`solitaire_core.solver.stock`, or :mod:`solitaire_core.solver.golf` for
        the one-foundation games) rather than its compiled engines, which model neither
        hidden cards, a reserve, the ``"one-or-all"`` move limit, a deck that repeats a
        suit, foundations built up or down, a discard pile, pairs, covered cards nor a
        game won before every card is up (Aces Up)."""
        return (
            self.hidden_cards
            or self.has_reserve
            or any(
                p.both_ways or p.nothing_on_king or p.discards or p.pairs
                for p in self.foundation_piles
            )
            or bool(self.covered_by)
            or bool(self.win_cards)
            or self.move_limit == "one-or-all"
            or self.suits != PYSOLFC_SUITS
        )

    @property
    def base_from_deal(self) -> bool:
        """Whether some foundation pile takes its base rank from the deal."""
        return any(p.base == BASE_FROM_DEAL for p in self.foundation_piles)

    @functools.cached_property
    def base_first_played(self) -> bool:
        """Whether the first card played to a foundation sets every pile's base rank
        (``foundations.base_rank = "first-played"``)."""
        return any(p.base == BASE_FIRST_PLAYED for p in self.foundation_piles)

    @functools.cached_property
    def standard_foundations(self) -> bool:
        """Whether the foundations are the classic ones: one pile per suit and deck, each
        up in suit from the Ace to the King, cards going up one at a time or as runs."""
        return (
            self.foundations == 4 * self.decks
            and not self.complete_suits
            and all(p.standard for p in self.foundation_piles)
        )

    @property
    def aces_need_no_place(self) -> bool:
        """Whether an Ace in play never needs a place on the tableau, so that safe
        autoplay may send up a Two although an Ace could still be built on it: with the
        classic foundations an Ace can always go up (a pile waits for each), and without
        wrapping nothing is built on an Ace in the tableau. So Microsoft FreeCell sends
        every Two up once its Ace is (docs/playing.md). One deck only: with several, two
        exposed copies of a Two would compete for the pile one Ace started, so a Two still
        waits there until every copy of its Ace is up (and the solver keeps its positions
        sorted, docs/solver.md)."""
        return self.decks == 1 and self.standard_foundations and not self.tableau_wrap

    def empty_accepts_for(self, bases: tuple[int, ...]) -> EmptyFn:
        """What fills an empty column in a position whose foundation piles have the base
        ranks ``bases`` (one per pile; ``()`` when the rules fix every base).

        Only ``tableau.empty = "below-base"`` depends on them: the rank one below the
        (common) base, a King below an Ace (Penguin, PySolFC game 64).
        """
        if self.empty_rule != "below-base" or not bases:
            return self.empty_accepts
        return _below(bases[0])

    @property
    def option_dict(self) -> dict[str, str]:
        """The chosen options as a dict."""
        return dict(self.options)


@attrs.frozen
class OptionChoice:
    """One value of a player-visible option.

    :param value: the value's key in TOML (e.g. ``"any"``).
    :param label: the text the launcher shows.
    :param settings: dotted variant keys and the value each takes with this choice.
    """

    value: str
    label: str
    settings: tuple[tuple[str, Any], ...]


@attrs.frozen
class VariantOption:
    """A player-visible option, e.g. Sea Towers' ``empty_columns``."""

    name: str
    label: str
    default: str
    choices: tuple[OptionChoice, ...]
    help: str = ""

    def choice(self, value: str) -> OptionChoice:
        """The choice named ``value``; :raises KeyError: if there is none."""
        for c in self.choices:
            if c.value == value:
                return c
        raise KeyError(value)


@attrs.frozen(eq=False)
class VariantDefinition:
    """A validated variant file, before options are chosen.

    :param id: the variant id (``"seahaven"``).
    :param name: display name.
    :param source: where it was read from (a path or ``plugin:resource``), for messages.
    :param plugin: name of the plugin that registered it.
    :param data: the validated TOML table (a private copy; never mutated).
    :param options: player-visible options.
    """

    id: str
    name: str
    source: str
    plugin: str
    data: Mapping[str, Any] = attrs.field(repr=False)
    options: tuple[VariantOption, ...] = ()
    predicates: Mapping[str, RulePredicate] = attrs.field(repr=False, factory=dict)

    @property
    def summary(self) -> str:
        """The file's ``summary`` text, or an empty string."""
        return str(self.data.get("summary", ""))

    @property
    def decks(self) -> int:
        """Number of 52-card decks."""
        return int(self.data["decks"])

    @property
    def family(self) -> str:
        """The file's ``family`` (one of :data:`FAMILIES`; ``"other"`` when not given)."""
        return str(self.data.get("family", "other"))

    def default_options(self) -> dict[str, str]:
        """Every option at its default value."""
        return {o.name: o.default for o in self.options}

    def resolve(self, options: Mapping[str, str] | None = None) -> Rules:
        """Choose option values and return the :class:`Rules`.

        :param options: option name -> choice value; missing names take their default.
        :raises VariantError: for an unknown option or value, naming the valid ones.
        """
        return self._resolve(options, check=True)

    def _resolve(self, options: Mapping[str, str] | None, *, check: bool) -> Rules:
        """:meth:`resolve`; without ``check`` the options' table is not checked against
        the schema (it passed once already: :func:`parse_variant` with a cache). Nor is
        it when the chosen values change nothing in the file's table, which was checked
        when the file was read (a game without options, or options at values the file
        already has): so resolving them imports no schema checker."""
        chosen = self.default_options()
        for key, value in (options or {}).items():
            option = next((o for o in self.options if o.name == key), None)
            if option is None:
                known = ", ".join(o.name for o in self.options) or "none"
                raise VariantError(self.id, f"options.{key}", f"no such option (options: {known})")
            try:
                option.choice(value)
            except KeyError:
                valid = ", ".join(c.value for c in option.choices)
                raise VariantError(
                    self.id, f"options.{key}", f"{value!r} is not a choice (choose {valid})"
                ) from None
            chosen[key] = value
        # The options table was validated when the file was loaded and plays no part in
        # the rules: leave it out, so resolving each of n choices costs O(file), not O(n).
        data = {k: copy.deepcopy(v) for k, v in self.data.items() if k != "options"}
        for option in self.options:
            for dotted, setting in option.choice(chosen[option.name]).settings:
                table = data
                *parents, leaf = dotted.split(".")
                for depth, part in enumerate(parents):
                    table = table.setdefault(part, {})
                    if not isinstance(table, dict):
                        above = ".".join(parents[: depth + 1])
                        raise VariantError(
                            self.source, dotted, f"cannot be set: {above} is not a table"
                        )
                table[leaf] = setting
        where = f"{self.source} (options {chosen})" if chosen else self.source
        if check and data != {k: v for k, v in self.data.items() if k != "options"}:
            _validate(data, where)
        return _build_rules(data, where, self.predicates, tuple(sorted(chosen.items())))


def parse_variant(
    text: str,
    source: str,
    *,
    plugin: str = "",
    predicates: Mapping[str, RulePredicate] | None = None,
    deal_methods: Collection[str] | None = None,
    cache: VariantCache | None = None,
) -> VariantDefinition:
    """Parse and validate the TOML text of a variant file.

    :param text: the file's contents.
    :param source: the file name (or plugin resource) used in error messages.
    :param plugin: the registering plugin's name.
    :param predicates: rule predicates by name (built-ins plus those plugins registered);
        defaults to the built-ins.
    :param deal_methods: names of the custom deal methods plugins registered; when given,
        ``deal.method`` must be ``"pysolfc"`` or one of them (``None`` skips this check).
    :param cache: variant texts already read and checked against the schema
        (:class:`~solitaire_core.variant_cache.VariantCache`): a text it holds is
        neither read as TOML nor checked against the schema again (with each option's
        choices), and one that passes is added to it. Every other check runs.
    :raises VariantError: ``source: key.path: what was expected`` for the first problem
        found: TOML syntax (a leading UTF-8 byte order mark is allowed), nesting too deep
        or a number too long to read, the JSON Schema (docs/variant-format.md), an unknown predicate
        or deal method, a deal recipe that does not place every card exactly once or
        that puts a card on a foundation whose base rank refuses it, an option whose
        choices set unknown keys or bad values.
    """
    preds = dict(BUILTIN_PREDICATES if predicates is None else predicates)
    cached = cache.get(text) if cache is not None else None
    if cached is None:
        data = _parse_toml(text, source)
        _validate(data, source)
    else:
        data = cached
    options = []
    for name, table in data.get("options", {}).items():
        choices = tuple(
            OptionChoice(value, c["label"], tuple(c["set"].items()))
            for value, c in table["choices"].items()
        )
        option = VariantOption(
            name, table["label"], table["default"], choices, table.get("help", "")
        )
        if table["default"] not in table["choices"]:
            raise VariantError(
                source,
                f"options.{name}.default",
                f"{table['default']!r} is not one of the choices ({', '.join(table['choices'])})",
            )
        for choice in choices:
            for dotted, _value in choice.settings:
                if dotted.split(".")[0] in ("options", "id", "format_version"):
                    raise VariantError(
                        source,
                        f"options.{name}.choices.{choice.value}.set",
                        f"an option cannot change {dotted!r}",
                    )
        options.append(option)
    definition = VariantDefinition(
        id=data["id"],
        name=data["name"],
        source=source,
        plugin=plugin,
        data=data,
        options=tuple(options),
        predicates=preds,
    )
    # Resolve every choice once so a bad option value is reported at load time.
    _build_rules(data, source, preds, ())
    for option in definition.options:
        for choice in option.choices:
            try:
                definition._resolve({option.name: choice.value}, check=cached is None)
            except VariantError as exc:
                raise VariantError(
                    source,
                    f"options.{option.name}.choices.{choice.value}.set",
                    f"with this choice, {exc.key_path or 'the file'}: {exc.message}",
                ) from None
    method = str(data["deal"].get("method", "pysolfc"))
    if deal_methods is not None and method != "pysolfc" and method not in deal_methods:
        known = ", ".join(["pysolfc", *sorted(deal_methods)])
        raise VariantError(
            source, "deal.method", f"no installed plugin deals {method!r} (known: {known})"
        )
    if cache is not None and cached is None:
        cache.put(text, data)
    return definition


def load_variant_file(
    path: str | Path,
    *,
    plugin: str = "",
    predicates: Mapping[str, RulePredicate] | None = None,
    deal_methods: Collection[str] | None = None,
) -> VariantDefinition:
    """Read and validate a variant file from disk; see :func:`parse_variant`.

    :raises VariantError: also when the file cannot be read, is not a regular file (a
        FIFO is refused without waiting), is larger than :data:`MAX_VARIANT_BYTES` or is
        not UTF-8.
    """
    path = Path(path)
    try:
        data = read_file_bytes(path, MAX_VARIANT_BYTES)
    except OSError as exc:
        raise VariantError(str(path), "", f"cannot read the file: {exc}") from None
    text = decode_variant_text(data, str(path))
    return parse_variant(
        text, str(path), plugin=plugin, predicates=predicates, deal_methods=deal_methods
    )


def decode_variant_text(data: bytes, source: str) -> str:
    """The text of a variant file's bytes (UTF-8, with or without a byte order mark).

    :raises VariantError: when the bytes are not UTF-8.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise VariantError(
            source,
            "",
            f"cannot read the file: it is not UTF-8 text ({exc.reason} at byte {exc.start})",
        ) from None


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML table of ``text`` (a leading byte order mark is dropped).

    :raises VariantError: for a syntax error, and for the two inputs the parser cannot
        represent: arrays or tables nested too deeply for the interpreter's stack, and
        integers with more digits than Python converts (``sys.get_int_max_str_digits``).
    """
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(source, "", f"not valid TOML: {exc}") from None
    except RecursionError:
        raise VariantError(
            source, "", "not a variant file: arrays or tables nested too deeply"
        ) from None
    except ValueError as exc:  # the integer digit limit; TOMLDecodeError is handled above
        raise VariantError(
            source, "", f"not a variant file: a number is too long ({exc})"
        ) from None


_VALIDATOR: Any = None


def _is_whole_number(checker: Any, instance: object) -> bool:
    """JSON Schema's ``integer``, strictly: an int, never a float such as 10.0 or a bool."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _pattern(validator: Any, pattern: str, instance: object, schema: Any) -> Iterator[Any]:
    """JSON Schema's ``pattern`` with ECMA-262's ``$``: the end of the text only (Python's
    ``$`` also matches before a trailing newline, which let ``"seahaven\\n"`` through)."""
    import jsonschema

    if not isinstance(instance, str):
        return
    regex = (
        pattern[:-1] + r"\Z" if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
    )
    if re.search(regex, instance) is None:
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def _validator() -> Any:
    global _VALIDATOR
    if _VALIDATOR is None:
        import jsonschema

        base = jsonschema.Draft202012Validator
        strict = jsonschema.validators.extend(
            base,
            validators={"pattern": _pattern},
            type_checker=base.TYPE_CHECKER.redefine("integer", _is_whole_number),
        )
        _VALIDATOR = strict(load_schema())
    return _VALIDATOR


def _describe(error: Any) -> tuple[str, str]:
    """Turn a jsonschema error into (key path, plain message)."""
    path = ".".join(str(p) for p in error.absolute_path)
    kind = error.validator
    if kind == "required":
        missing = error.message.split("'")[1]
        return (f"{path}.{missing}" if path else missing), "missing (this key is required)"
    if kind == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        name = extra[0] if extra else "?"
        allowed = ", ".join(sorted(error.schema.get("properties", {})))
        return (f"{path}.{name}" if path else name), f"unknown key (expected one of: {allowed})"
    if kind == "enum":
        choices = ", ".join(repr(v) for v in error.validator_value)
        return path, f"expected one of {choices}, got {error.instance!r}"
    if kind == "const":
        return path, f"expected {error.validator_value!r}, got {error.instance!r}"
    if kind == "type":
        return path, f"expected {error.validator_value}, got {error.instance!r}"
    if kind in ("minimum", "maximum"):
        word = "at least" if kind == "minimum" else "at most"
        return path, f"expected a number {word} {error.validator_value}, got {error.instance!r}"
    if kind == "pattern" and "a-z" in error.validator_value:
        return path, f"expected lowercase letters, digits and '-', got {error.instance!r}"
    if kind == "oneOf" and path.endswith("base_rank"):
        return (
            path,
            f'expected a rank from 1 to 13, "deal" or "first-played", got {error.instance!r}',
        )
    if kind == "pattern":
        return path, f"{error.instance!r}: option names and values cannot hold ',' (or '=')"
    if kind == "oneOf":
        return path, f"expected a whole number or a list of whole numbers, got {error.instance!r}"
    return path, error.message


def _validate(data: Mapping[str, Any], source: str) -> None:
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        path, message = _describe(errors[0])
        raise VariantError(source, path, message)


def _predicate(
    preds: Mapping[str, RulePredicate], name: str, kind: str, source: str, key: str
) -> RulePredicate:
    lookup = "none-empty" if (kind == "empty" and name == "none") else name
    pred = preds.get(lookup)
    if pred is None or pred.kind != kind:
        known = sorted(
            ("none" if p.name == "none-empty" else p.name) for p in preds.values() if p.kind == kind
        ) + (["below-base"] if kind == "empty" else [])
        known.sort()
        raise VariantError(
            source, key, f"unknown rule {name!r} (known {kind} rules: {', '.join(known)})"
        )
    return pred


def _per_column(value: int | list[int], columns: int, source: str, key: str) -> tuple[int, ...]:
    counts = [value] * columns if isinstance(value, int) else list(value)
    if len(counts) != columns:
        raise VariantError(
            source, key, f"lists {len(counts)} columns but tableau.columns is {columns}"
        )
    return tuple(counts)


def _deal_recipe(data: Mapping[str, Any], source: str, columns: int, cells: int) -> DealRecipe:
    """Check the ``[deal]`` table against the rest of the file and build the recipe."""
    deal = data["deal"]
    decks = data["decks"]
    order = deal.get("order", "rows")
    dealt_cells = deal.get("cells", [])
    for number in dealt_cells:
        if number > cells:
            raise VariantError(
                source, "deal.cells", f"cell {number} does not exist (cells.count is {cells})"
            )
    if order == "kings-start-columns":
        for key in ("columns", "passes", "cells"):
            if key in deal:
                raise VariantError(
                    source, f"deal.{key}", "not used with order = 'kings-start-columns'"
                )
        if columns < 4 * decks + 1:
            raise VariantError(
                source,
                "tableau.columns",
                f"order = 'kings-start-columns' needs {4 * decks + 1} columns "
                f"(one more than the Kings of {decks} deck(s)), got {columns}",
            )
        per_column: tuple[int, ...] = ()
        passes: tuple[tuple[int, ...], ...] = ()
    else:
        per_column = _per_column(deal["columns"], columns, source, "deal.columns")
        passes = tuple(
            _per_column(p, columns, source, f"deal.passes.{i}")
            for i, p in enumerate(deal.get("passes", []))
        )
        if passes and tuple(map(sum, zip(*passes))) != per_column:
            raise VariantError(
                source,
                "deal.passes",
                f"add up to {list(map(sum, zip(*passes)))} cards per column, "
                f"but deal.columns is {list(per_column)}",
            )
    found = deal.get("foundations", {})
    ranks = tuple(found.get("ranks", ()))
    deck = found.get("deck", 0)
    if deck > decks:
        raise VariantError(
            source, "deal.foundations.deck", f"deck {deck} does not exist (decks is {decks})"
        )
    available = 4 * len(ranks) * (1 if deck else decks)
    count = found.get("count", 0)
    if count and not ranks:
        raise VariantError(source, "deal.foundations.count", "needs deal.foundations.ranks")
    if count > available:
        raise VariantError(
            source,
            "deal.foundations.count",
            f"asks for {count} cards, but the pack holds {available} of those ranks",
        )
    twins = bool(found.get("twins_of_first", False))
    if twins and ranks:
        raise VariantError(
            source, "deal.foundations", "give either ranks or twins_of_first, not both"
        )
    base_card = bool(found.get("base_card", False))
    if base_card and (ranks or twins or found.get("last", 0)):
        raise VariantError(
            source,
            "deal.foundations.base_card",
            "not with ranks, twins_of_first or last: the base card alone starts the foundations",
        )
    last = found.get("last", 0)
    on_foundations = (count or available) + 3 * twins + base_card + last
    piles = data["foundations"]["count"]
    if on_foundations > piles:
        raise VariantError(
            source,
            "deal.foundations",
            f"puts {on_foundations} cards on the foundations, one per pile, "
            f"but foundations.count is {piles}",
        )
    has_stock = "stock" in data
    face_down: tuple[int, ...] = ()
    if "face_down" in deal:
        if order == "kings-start-columns":
            raise VariantError(
                source, "deal.face_down", "not used with order = 'kings-start-columns'"
            )
        face_down = _per_column(deal["face_down"], columns, source, "deal.face_down")
        # In a layout a covered column may lie face down whole: it turns up once uncovered.
        whole = 1 if "layout" in data["tableau"] else 0
        for i, (down, dealt) in enumerate(zip(face_down, per_column)):
            if down and down >= dealt + whole:
                raise VariantError(
                    source,
                    "deal.face_down",
                    f"column {i + 1} gets {dealt} card(s), so at most {max(dealt - 1, 0)} can "
                    f"lie face down under its face-up top card, got {down}",
                )
        if not any(face_down):
            face_down = ()
    reserve = data.get("reserve", {}).get("cards", 0)
    fill = data.get("reserve", {}).get("fill_empty", False)
    if fill and data["tableau"]["empty"] == "none":
        raise VariantError(
            source,
            "reserve.fill_empty",
            "expected tableau.empty other than 'none': an emptied column takes the reserve's "
            "top card",
        )
    if reserve and order == "kings-start-columns":
        raise VariantError(source, "reserve", "not used with order = 'kings-start-columns'")
    stock_deals = deal.get("stock_deals", 0)
    if stock_deals and not has_stock:
        raise VariantError(source, "deal.stock_deals", "needs a [stock] table to deal from")
    last_cards = tuple(Card.parse(text) for text in deal.get("last_cards", ()))
    if last_cards and (decks != 1 or "suits" in data):
        raise VariantError(
            source,
            "deal.last_cards",
            "expected one deck of the four usual suits (a card named here must be one card)",
        )
    recipe = DealRecipe(
        columns=per_column,
        cells=tuple(n - 1 for n in dealt_cells),
        order=order,
        method=deal.get("method", "pysolfc"),
        passes=passes,
        reverse=bool(deal.get("reverse", False)),
        bottom_ranks=tuple(deal.get("bottom_ranks", ())),
        first_ranks=tuple(deal.get("first_ranks", ())),
        play_to_foundations=bool(deal.get("play_to_foundations", False)),
        foundation_ranks=ranks,
        foundation_count=count,
        foundation_deck=deck,
        twins_of_first=twins,
        base_card=base_card,
        reserve=reserve,
        foundation_last=last,
        foundation_cards=on_foundations,
        face_down=face_down,
        stock=has_stock,
        stock_deals=stock_deals,
        right_to_left=bool(deal.get("right_to_left", False)),
        last_cards=last_cards,
    )
    if has_stock:
        if order == "kings-start-columns":
            raise VariantError(source, "stock", "not used with order = 'kings-start-columns'")
        if recipe.card_count >= 52 * decks:
            raise VariantError(
                source,
                "stock",
                f"the deal places all {52 * decks} cards, so the stock would be empty: "
                "deal fewer cards or leave [stock] out",
            )
    elif order != "kings-start-columns" and recipe.card_count != 52 * decks:
        raise VariantError(
            source,
            "deal",
            f"places {recipe.card_count} cards, but {decks} deck(s) hold {52 * decks}: "
            "every card must be dealt exactly once",
        )
    return recipe


def _build_rules(
    data: Mapping[str, Any],
    source: str,
    preds: Mapping[str, RulePredicate],
    options: tuple[tuple[str, str], ...],
) -> Rules:
    tableau = data["tableau"]
    columns = tableau["columns"]
    cells = data["cells"]["count"]
    decks = data["decks"]
    build = _predicate(preds, tableau["build"], "build", source, "tableau.build")
    wrap = bool(tableau.get("wrap", False))
    build_fn = _wrapped(build, wrap, source, "tableau.build")
    run_name = tableau.get("run", "build")
    face_up_runs = run_name == "face-up"
    if face_up_runs:
        run_name = "build"
    if run_name == "build":
        run, run_fn = build, build_fn
    else:
        run = _predicate(preds, run_name, "build", source, "tableau.run")
        run_fn = _wrapped(run, wrap, source, "tableau.run")
        deck = full_deck(1)
        loose = next(
            ((a, b) for a in deck for b in deck if run_fn(a, b) and not build_fn(a, b)), None
        )
        if loose is not None:
            raise VariantError(
                source,
                "tableau.run",
                f"expected a rule at least as strict as tableau.build: {run_name!r} lets "
                f"{loose[0].label} lie on {loose[1].label} in a run, but the tableau does not "
                f"build {loose[0].label} on {loose[1].label}",
            )
    piles = _foundation_piles(data["foundations"], decks, source)
    if tableau["empty"] == "below-base":
        if any(p.base == BASE_FIRST_PLAYED for p in piles):
            raise VariantError(
                source,
                "tableau.empty",
                "expected a rule other than 'below-base' with foundations.base_rank = "
                "'first-played' (no base rank is known before the first card goes up)",
            )
        bases = {p.base for p in piles}
        if len(bases) != 1:
            raise VariantError(
                source,
                "tableau.empty",
                "expected one base rank for every foundation with 'below-base' "
                f"(the piles start with ranks {sorted(bases)})",
            )
        base = bases.pop()
        empty = RulePredicate(
            "below-base",
            "empty",
            _below(base) if base != BASE_FROM_DEAL else _below(1),
            "the rank one below the foundations' base rank"
            + ("" if base == BASE_FROM_DEAL else f" ({_RANK_NAMES[(base - 2) % 13]})"),
        )
    else:
        empty = _predicate(preds, tableau["empty"], "empty", source, "tableau.empty")
    if tableau["move_limit"] not in MOVE_LIMITS:
        raise VariantError(source, "tableau.move_limit", f"expected one of {MOVE_LIMITS}")
    recipe = _deal_recipe(data, source, columns, cells)
    if any(p.base == BASE_FROM_DEAL for p in piles) and not recipe.foundation_cards:
        raise VariantError(
            source,
            "deal.foundations",
            "expected cards dealt to the foundations: foundations.base_rank = 'deal' takes "
            "each pile's base rank from the first card the deal puts on it",
        )
    if any(p.base == BASE_FIRST_PLAYED for p in piles) and (
        recipe.foundation_cards or recipe.play_to_foundations
    ):
        raise VariantError(
            source,
            "deal.play_to_foundations" if recipe.play_to_foundations else "deal.foundations",
            "expected no card dealt to the foundations with foundations.base_rank = "
            "'first-played' (the player's first card sets the base; 'deal' lets the deal "
            "set it)",
        )
    _check_dealt_bases(piles, recipe, source)
    foundations = data["foundations"]
    if recipe.base_card and (
        foundations["count"] != 4 * decks or any(p.base != BASE_FROM_DEAL for p in piles)
    ):
        raise VariantError(
            source,
            "deal.foundations.base_card",
            f"expected {4 * decks} foundation piles (one per suit and deck) whose base_rank "
            "is 'deal' (the base card goes to its suit's pile and its rank starts them all), "
            f"got {foundations['count']} pile(s) with base ranks "
            f"{sorted({str(p.base) for p in piles})}",
        )
    receive = bool(data["cells"].get("receive", True))
    if not receive and tableau["move_limit"] == "free-cells-plus-one":
        raise VariantError(
            source,
            "tableau.move_limit",
            "expected a limit other than 'free-cells-plus-one' when cells.receive = false "
            "(a reserve has no free cells to count)",
        )
    layout, covered_by = _layout(tableau, source)
    win_cards = foundations.get("win_cards", 0)
    win_single = bool(tableau.get("win_single_cards", False))
    if win_single and (not win_cards or win_cards + columns > 52 * decks):
        raise VariantError(
            source,
            "tableau.win_single_cards",
            "expected foundations.win_cards leaving at least one card per column (the game "
            f"is won with one card on each of the {columns} columns), got "
            + (f"win_cards = {win_cards}" if win_cards else "no win_cards"),
        )
    stock = data.get("stock", {})
    stock_deal = stock.get("deal", "")
    redeals = stock.get("redeals", 0)
    row_numbers = stock.get("row", list(range(1, columns + 1)))
    if stock_deal == "row":
        for key in ("draw", "redeals"):
            if key in stock:
                raise VariantError(source, f"stock.{key}", "not used with deal = 'row'")
        for number in row_numbers:
            if number > columns:
                raise VariantError(
                    source,
                    "stock.row",
                    f"column {number} does not exist (tableau.columns is {columns})",
                )
    elif stock_deal == "waste":
        for key in ("row", "row_onto_empty"):
            if key in stock:
                raise VariantError(source, f"stock.{key}", "not used with deal = 'waste'")
    elif stock_deal == "foundation":
        for key in ("draw", "redeals", "row", "row_onto_empty"):
            if key in stock:
                raise VariantError(source, f"stock.{key}", "not used with deal = 'foundation'")
        if foundations["count"] != 1:
            raise VariantError(
                source,
                "stock.deal",
                "expected foundations.count = 1 with deal = 'foundation' (the stock turns "
                f"its cards onto the one foundation), got {foundations['count']} piles",
            )
    return Rules(
        id=data["id"],
        name=data["name"],
        decks=decks,
        columns=columns,
        cells=cells,
        foundations=foundations["count"],
        tableau_build=build.name,
        build=build_fn,
        build_description=build.description + (", wrapping from King to Ace" if wrap else ""),
        empty_rule=tableau["empty"],
        empty_accepts=empty.function,
        empty_description=empty.description,
        move_limit=tableau["move_limit"],
        foundation_return=bool(foundations.get("return_to_play", False)),
        foundation_runs=bool(foundations.get("accept_runs", False)),
        autoplay=data.get("autoplay", "safe"),
        deal=recipe,
        options=options,
        summary=str(data.get("summary", "")),
        tableau_wrap=wrap,
        run_rule=run.name,
        run=run_fn,
        run_description=run.description + (", wrapping from King to Ace" if wrap else ""),
        cells_receive=receive,
        foundation_piles=piles,
        complete_suits=bool(foundations.get("only_complete_suits", False)),
        stock_deal=stock_deal,
        draw=stock.get("draw", 1),
        redeals=UNLIMITED_REDEALS if redeals == "unlimited" else redeals,
        row_columns=tuple(n - 1 for n in row_numbers) if stock_deal == "row" else (),
        row_onto_empty=bool(stock.get("row_onto_empty", True)),
        face_up_runs=face_up_runs,
        suits=_suits(data, source),
        reserve_cards=recipe.reserve,
        reserve_face_down="reserve" in data
        and bool(data["reserve"].get("face_down", True))
        and data["reserve"].get("receive", "never") == "never",
        reserve_fills_empty=bool(data.get("reserve", {}).get("fill_empty", False)),
        reserve_receive=_reserve_receive(data, source),
        scoring=data.get("scoring", "cards"),
        win_cards=win_cards if win_cards != 52 * decks else 0,
        win_single_cards=win_single,
        layout=layout,
        covered_by=covered_by,
        stock_top_plays=_stock_top_plays(data, piles, source),
    )


MAX_COLUMNS = 20
"""The most tableau columns a variant has without ``tableau.layout`` (28 with one)."""


def covering(layout: Sequence[tuple[float, float]]) -> tuple[tuple[int, ...], ...]:
    """For each column of a ``tableau.layout``, the columns that cover it.

    :param layout: one ``(x, y)`` per column: where its card lies, in card widths and
        card heights from the layout's top left corner.
    :return: per column, ascending, the columns whose card overlaps it and lies on top of
        it: lower on the table (greater ``y``), or on the same line and later in the list.
        Two cards overlap when they are less than a card width apart across and less than
        a card height apart down. So in Pyramid's triangle (rows half a card height
        apart, each card half a card width left of the one below) each card is covered by
        the two cards of the next row that touch it, as PySolFC's
        ``Pyramid._createPyramid`` computes its ``blockmap``.
    """
    out = []
    for i, (x, y) in enumerate(layout):
        out.append(
            tuple(
                j
                for j, (u, v) in enumerate(layout)
                if j != i and abs(u - x) < 1 and abs(v - y) < 1 and (v > y or (v == y and j > i))
            )
        )
    return tuple(out)


def _layout(
    tableau: Mapping[str, Any], source: str
) -> tuple[tuple[tuple[float, float], ...], tuple[tuple[int, ...], ...]]:
    """``tableau.layout`` read and checked: the positions and :func:`covering`.

    :raises VariantError: when the layout does not give one position per column, two
        columns share a place, its columns would take cards, or more than
        :data:`MAX_COLUMNS` columns come without a layout.
    """
    columns = tableau["columns"]
    if "layout" not in tableau:
        if columns > MAX_COLUMNS:
            raise VariantError(
                source,
                "tableau.columns",
                f"expected at most {MAX_COLUMNS} columns, or a tableau.layout placing each "
                f"column (Pyramid's 28), got {columns}",
            )
        return (), ()
    for key in ("build", "empty"):
        if tableau[key] != "none":
            raise VariantError(
                source,
                f"tableau.{key}",
                "expected 'none' with a tableau.layout (its columns only give cards: a "
                f"card played onto a covered card would hide it again), got {tableau[key]!r}",
            )
    layout = tuple((float(x), float(y)) for x, y in tableau["layout"])  # the schema checked
    if len(layout) != columns:
        raise VariantError(
            source,
            "tableau.layout",
            f"expected one [x, y] place per column ({columns}), got {len(layout)}",
        )
    seen: dict[tuple[float, float], int] = {}
    for i, place in enumerate(layout):
        if place in seen:
            raise VariantError(
                source,
                f"tableau.layout.{i}",
                f"columns {seen[place] + 1} and {i + 1} both lie at {list(place)}",
            )
        seen[place] = i
    return layout, covering(layout)


def _stock_top_plays(
    data: Mapping[str, Any], piles: tuple[FoundationPile, ...], source: str
) -> bool:
    """``stock.top_plays``, checked: only where the one foundation takes pairs and the
    stock deals to a waste (PySolFC's Pyramid, whose talon shows its top card and pairs
    it with the waste's or a free card of the layout).

    :raises VariantError: when set in any other game.
    """
    stock = data.get("stock", {})
    if not stock.get("top_plays", False):
        return False
    if not (len(piles) == 1 and piles[0].pairs and stock["deal"] == "waste"):
        raise VariantError(
            source,
            "stock.top_plays",
            "expected foundations.build = 'pairs' and stock.deal = 'waste' (the stock's top "
            "card pairs with the waste's or a free card, as in Pyramid)",
        )
    return True


def _reserve_receive(data: Mapping[str, Any], source: str) -> str:
    """The ``[reserve]`` table's ``receive`` (``""`` without a reserve), checked against
    its other keys and the stock.

    :raises VariantError: for an empty reserve that never takes a card, or a reserve
        that takes cards once the stock is empty in a game without a stock, or whose
        dealt cards would lie face down under the cards put on it.
    """
    if "reserve" not in data:
        return ""
    table = data["reserve"]
    receive = str(table.get("receive", "never"))
    if receive == "never":
        if table["cards"] == 0:
            raise VariantError(
                source,
                "reserve.cards",
                "expected at least 1 card, or receive = 'when-stock-empty' (an empty reserve "
                "that never takes a card would never hold one)",
            )
        return receive
    if "stock" not in data:
        raise VariantError(
            source,
            "reserve.receive",
            "expected a [stock] table: 'when-stock-empty' waits for the stock to run out",
        )
    if table.get("face_down", True) and table["cards"]:
        raise VariantError(
            source,
            "reserve.face_down",
            "expected false with receive = 'when-stock-empty' (cards put on the reserve lie "
            "face up, so none can lie face down under them)",
        )
    return receive


def _suits(data: Mapping[str, Any], source: str) -> tuple[Suit, ...]:
    """The top-level ``suits`` key: four suit letters, PySolFC's ``GameInfo(suits=...)``
    in its suit order (clubs, spades, hearts, diamonds), the standard four if absent.

    :raises VariantError: when the list does not hold four suits (the schema, checked
        first, allows only the letters ``C``, ``D``, ``H`` and ``S``).
    """
    letters = data.get("suits")
    if letters is None:
        return PYSOLFC_SUITS
    suits = tuple(Suit(letter) for letter in letters)  # the schema checked the letters
    if len(suits) != 4:
        raise VariantError(source, "suits", f"expected four suits, got {len(suits)}")
    return suits


_RANK_NAMES = (
    "an Ace", "a Two", "a Three", "a Four", "a Five", "a Six", "a Seven", "an Eight",
    "a Nine", "a Ten", "a Jack", "a Queen", "a King",
)  # fmt: skip


def _check_dealt_bases(piles: tuple[FoundationPile, ...], recipe: DealRecipe, source: str) -> None:
    """Check that each pile ``deal.foundations`` puts a card on starts with that card's rank.

    The taken cards (``ranks``, ``twins_of_first``) go one per pile from the first pile
    on, then the ``last`` cards one per pile after them (docs/variant-format.md). A pile
    whose base rank the file fixes takes only a card of that rank, so a fixed base is
    right only under cards of one known rank: ``ranks`` with a single rank, equal to it.
    ``twins_of_first`` deals the first card's rank and ``last`` cards of any rank, so
    their piles need ``base_rank = "deal"`` (PySolFC's Penguin and Stalactites).

    :param piles: the foundation piles, in order (:func:`_foundation_piles`).
    :param recipe: the deal recipe (:func:`_deal_recipe`); ``foundation_cards`` counts the
        cards it puts on the foundations, ``foundation_last`` of them the last ones.
    :raises VariantError: naming the ``deal.foundations`` key, the pile (1-based) and its
        base rank, when a pile would start with a card its base rank refuses (the deal
        would put, say, a Jack on an Ace pile, where no card could ever follow it).
    """
    if recipe.base_card:
        return  # its pile depends on the card: every pile needs base_rank = "deal"
    ranks = recipe.foundation_ranks
    taken = recipe.foundation_cards - recipe.foundation_last
    for index, pile in enumerate(piles[: recipe.foundation_cards]):
        if pile.base == BASE_FROM_DEAL:
            continue
        start = f"pile {index + 1} starts with {_RANK_NAMES[pile.base - 1]} (its base_rank)"
        if index >= taken:
            key, why = "deal.foundations.last", "the last cards are of any rank"
        elif recipe.twins_of_first:
            key, why = "deal.foundations.twins_of_first", "the twins are of the first card's rank"
        elif len(ranks) == 1 and pile.base == ranks[0]:
            continue
        elif len(ranks) == 1:
            raise VariantError(
                source,
                "deal.foundations.ranks",
                f"expected [{pile.base}]: {start} and takes no other rank first (or "
                f"foundations.base_rank = 'deal'), got {list(ranks)}",
            )
        else:
            key, why = "deal.foundations.ranks", "cards of several ranks go up in suit order"
        raise VariantError(
            source,
            key,
            f"expected foundations.base_rank = 'deal' on the piles it deals to ({why}), but "
            f"{start}",
        )


def _wrapped(pred: RulePredicate, wrap: bool, source: str, key: str) -> BuildFn:
    """The build function of ``pred``, its wrapping form when ``tableau.wrap`` is set."""
    if not wrap:
        return pred.function
    if pred.wrapping is None:
        raise VariantError(
            source,
            key,
            f"{pred.name!r} cannot wrap: tableau.wrap = true needs a built-in rule that "
            "builds up or down",
        )
    return pred.wrapping


def _key_in(where: str, group: Mapping[str, Any], key: str) -> str:
    """The key path of ``key`` for a foundation group: in the group when it sets it."""
    return f"{where}.{key}" if key in group else f"foundations.{key}"


def _foundation_piles(
    table: Mapping[str, Any], decks: int, source: str
) -> tuple[FoundationPile, ...]:
    """The piles ``[foundations]`` (and its ``[[foundations.groups]]``) describe.

    :raises VariantError: for combinations that cannot work: group counts that do not
        add up to ``count``, more than 13 cards on a pile that does not wrap, a base from
        the deal without ``wrap``, piles that together cannot hold every card, in-suit
        piles too few for the four suits, complete suits on piles other than up in suit
        from the Ace.
    """
    count = table["count"]
    groups = table.get("groups") or [{"count": count}]
    total = sum(g["count"] for g in groups)
    if total != count:
        raise VariantError(
            source,
            "foundations.groups",
            f"expected group counts adding up to foundations.count ({count}), got "
            + " + ".join(str(g["count"]) for g in groups)
            + f" = {total}",
        )
    piles: list[FoundationPile] = []
    for n, group in enumerate(groups):
        where = "foundations" if "groups" not in table else f"foundations.groups.{n}"
        base = group.get("base_rank", table.get("base_rank", 1))
        pile = FoundationPile(
            build=group.get("build", table.get("build", "up-in-suit")),
            base={"deal": BASE_FROM_DEAL, "first-played": BASE_FIRST_PLAYED}.get(base, base),
            wrap=bool(group.get("wrap", table.get("wrap", False))),
            cards=group.get("cards", table.get("cards", 13)),
            nothing_on_king=bool(table.get("nothing_on_king", False)),
            pair_total=table.get("pair_total", 13)
            if group.get("build", table.get("build")) == "pairs"
            else 0,
        )
        if "pair_total" in table and not pile.pairs:
            raise VariantError(
                source,
                "foundations.pair_total",
                "not used unless build = 'pairs' (the rank total of a pair on the discard pile)",
            )
        if (pile.pairs or pile.discards) and (
            count != 1 or "base_rank" in table or "base_rank" in group
        ):
            what = "takes pairs" if pile.pairs else "any card may start"
            raise VariantError(
                source,
                _key_in(where, group, "build"),
                f"expected one pile and no base_rank with {pile.build!r} (a single discard "
                f"pile that {what}), got {count} pile(s)"
                + (" and a base_rank" if "base_rank" in table or "base_rank" in group else ""),
            )
        if (
            pile.cards > 13
            and not pile.wrap
            and not pile.both_ways
            and not pile.discards
            and not pile.pairs
        ):
            raise VariantError(
                source,
                _key_in(where, group, "cards"),
                "expected at most 13 unless the pile wraps (foundations.wrap = true), "
                "builds up or down (build = 'up-or-down-any-suit') or is a discard pile "
                f"(build = 'outranked-in-suit' or 'pairs'), got {pile.cards}",
            )
        if pile.base <= BASE_FROM_DEAL and not pile.wrap and not pile.both_ways:
            raise VariantError(
                source,
                _key_in(where, group, "wrap"),
                f"expected true when base_rank = {base!r} (a pile started by any rank must "
                "wrap from King to Ace to hold a whole suit)",
            )
        piles.extend([pile] * group["count"])
    first = [n for n, p in enumerate(piles) if p.base == BASE_FIRST_PLAYED]
    if first and len(first) != len(piles):
        where = "foundations" if "groups" not in table else "foundations.groups"
        raise VariantError(
            source,
            f"{where}.base_rank",
            "expected 'first-played' for every pile or for none (the first card played to "
            "a foundation sets the base rank of all the piles)",
        )
    win = table.get("win_cards", 52 * decks)
    if win > 52 * decks:
        raise VariantError(
            source,
            "foundations.win_cards",
            f"expected at most the {52 * decks} cards of {decks} deck(s), got {win}",
        )
    held = sum(p.capacity for p in piles)
    if held < win:
        wanted = f"all {win} cards" if win == 52 * decks else f"the {win} cards that win"
        raise VariantError(
            source,
            "foundations",
            f"expected piles that can hold {wanted}, but the {count} piles hold at most {held}",
        )
    if any(p.discards or p.pairs for p in piles) and table.get("accept_runs"):
        raise VariantError(
            source,
            "foundations.accept_runs",
            "expected false with a discard pile (build = 'outranked-in-suit' or 'pairs': "
            "cards are discarded one by one or as a pair)",
        )
    in_suit = [p for p in piles if p.suits == "suit"]
    if in_suit and len(in_suit) == len(piles) and len(piles) < 4:
        raise VariantError(
            source,
            "foundations.count",
            f"expected at least 4 piles built in suit (one suit each), got {len(piles)}",
        )
    if table.get("only_complete_suits", False):
        if (
            any(p != FoundationPile(cards=p.cards) for p in piles)
            or table.get("accept_runs")
            or table.get("return_to_play")
        ):
            raise VariantError(
                source,
                "foundations.only_complete_suits",
                "expected piles built up in suit from the Ace without wrap or groups, and "
                "accept_runs and return_to_play false (a complete suit goes up as one run, "
                "Ace first, and stays there)",
            )
    return tuple(piles)
