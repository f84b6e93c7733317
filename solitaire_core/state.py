"""The immutable game state."""

from __future__ import annotations

import attrs

from .cards import RANK_TEXT, Card
from .moves import PileKind, PileRef
from .variant import BASE_FIRST_PLAYED, Rules


@attrs.frozen(cache_hash=True, repr=False)
class GameState:
    """One position of a game: every pile's cards, bottom card first.

    :param rules: the :class:`~solitaire_core.variant.Rules` in force (not compared:
        two states are equal when their piles hold the same cards).
    :param columns: one tuple per tableau column, bottom card first, top (playable) last.
    :param cells: one entry per cell, a :class:`Card` or ``None`` when free.
    :param foundations: one tuple per foundation, the first card placed first (the base).
    :param bases: what the deal decided about the foundations: ``()`` when the rules fix
        every pile's base rank (``foundations.base_rank`` a number), else one base rank
        1..13 per foundation pile, in pile order (Penguin: four times the rank of the
        first card dealt; Stalactites: each pile's own). The deal fills it
        (:mod:`solitaire_core.deal`); piles with a fixed base repeat that base.
    :param stock: the stock (talon), bottom card first: ``stock[-1]`` is the card the
        next deal turns. Empty when the variant has no stock or it is used up.
    :param waste: the waste, bottom card first; only ``waste[-1]`` plays.
    :param hidden: per column, how many of its cards (from the bottom) lie face down;
        ``()`` when every card in the columns is face up. A column's top card is always
        face up (:func:`solitaire_core.rules.apply` turns it when the cards on it leave).
    :param rounds: how often the waste was turned over into a new stock (redeals used).
    :param reserve: the reserve (``[reserve]``: Canfield's thirteen), bottom card first;
        only ``reserve[-1]`` plays, and with ``reserve.face_down`` every card under it
        lies face down (:meth:`is_reserve_face_down`). Empty without a reserve.

    The state knows every card, face down or not; what a player may see of it is
    :meth:`is_face_down` and the stock's size, never its order.

    States never change; :func:`solitaire_core.rules.apply` returns a new one.
    """

    rules: Rules = attrs.field(eq=False, hash=False)
    columns: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...]
    foundations: tuple[tuple[Card, ...], ...]
    bases: tuple[int, ...] = attrs.field(default=())
    stock: tuple[Card, ...] = ()
    waste: tuple[Card, ...] = ()
    hidden: tuple[int, ...] = attrs.field(default=())
    rounds: int = 0
    reserve: tuple[Card, ...] = ()

    @hidden.validator
    def _check_hidden(self, _attribute: object, value: tuple[int, ...]) -> None:
        # In a layout (TriPeaks) a covered column's one card may lie face down.
        whole = 1 if self.rules.covered_by else 0
        if value and (
            len(value) != len(self.columns)
            or any(not 0 <= n < max(len(col) + whole, 1) for n, col in zip(value, self.columns))
        ):
            raise ValueError(
                f"hidden: expected one count per column ({len(self.columns)}), each below "
                f"its column's length (the top card lies face up"
                + (", unless covered in the layout" if whole else "")
                + f"), got {value!r}"
            )

    def is_face_down(self, column: int, index: int) -> bool:
        """Whether card ``index`` (0-based from the bottom) of column ``column`` lies
        face down."""
        return bool(self.hidden) and index < self.hidden[column]

    def face_up(self, column: int) -> int:
        """How many cards at the top of column ``column`` lie face up."""
        n = len(self.columns[column])
        return n - self.hidden[column] if self.hidden else n

    def is_reserve_face_down(self, index: int) -> bool:
        """Whether card ``index`` (0-based from the bottom) of the reserve lies face down:
        every card under the top one when the rules deal the reserve face down
        (Canfield), none when it is face up (Superior Canfield)."""
        return self.rules.reserve_face_down and index < len(self.reserve) - 1

    @property
    def face_down_cards(self) -> int:
        """Face-down cards in the columns and the reserve."""
        down = sum(self.hidden)
        if self.rules.reserve_face_down and self.reserve:
            down += len(self.reserve) - 1
        return down

    @property
    def redeals_left(self) -> int | None:
        """How often the waste may still be turned over (``None``: without limit; 0 for a
        variant without a waste)."""
        redeals = self.rules.redeals
        if redeals < 0:
            return None
        return max(redeals - self.rounds, 0)

    @bases.validator
    def _check_bases(self, _attribute: object, value: tuple[int, ...]) -> None:
        if value and (len(value) != self.rules.foundations or not all(1 <= r <= 13 for r in value)):
            raise ValueError(
                f"bases: expected {self.rules.foundations} ranks from 1 to 13 (one per "
                f"foundation), got {value!r}"
            )

    def base_rank(self, index: int) -> int | None:
        """The rank that starts foundation ``index`` (0-based) when it is empty, or
        ``None`` when any rank may start it: with ``foundations.base_rank =
        "first-played"`` until a card is on a foundation, whose rank is then every
        pile's base (PySolFC's Chessboard, game 148: ``Chessboard_Foundation`` compares
        with the first card of a started pile).

        :raises ValueError: when the rules leave the base to the deal and this state does
            not carry it (a position made without the deal and without ``bases``).
        """
        if self.bases:
            return self.bases[index]
        base = self.rules.foundation_piles[index].base
        if base == BASE_FIRST_PLAYED:
            return next((pile[0].rank for pile in self.foundations if pile), None)
        if not base:
            raise ValueError(
                f"{self.rules.name} takes the foundations' base rank from the deal, and this "
                "position does not say it (GameState.bases)"
            )
        return base

    def __repr__(self) -> str:
        return f"<GameState {self.rules.id}: {self.to_text()!r}>"

    def pile(self, ref: PileRef) -> tuple[Card, ...]:
        """The cards of a numbered pile, bottom first (a cell gives 0 or 1 card).

        :raises IndexError: when the pile does not exist in this variant.
        :raises ValueError: for an unnumbered reference.
        """
        if ref.kind is PileKind.STOCK:
            return self.stock
        if ref.kind is PileKind.WASTE:
            return self.waste
        if ref.kind is PileKind.RESERVE:
            return self.reserve
        found = ref.select(self.columns, self.cells, self.foundations)
        if isinstance(found, tuple):
            return found
        return () if found is None else (found,)

    @property
    def free_cells(self) -> int:
        """Number of empty cells that can take a card: 0 when the cells are a reserve
        (``cells.receive = false``), whose empty slots never take one."""
        if not self.rules.cells_receive:
            return 0
        return sum(1 for c in self.cells if c is None)

    @property
    def empty_columns(self) -> int:
        """Number of empty tableau columns."""
        return sum(1 for col in self.columns if not col)

    @property
    def foundation_cards(self) -> int:
        """Cards on the foundations (the Aisleriot score: one point per card)."""
        return sum(len(f) for f in self.foundations)

    @property
    def cards_left(self) -> int:
        """Cards still to go to a foundation: those not yet on one, or where the game is
        won before every card is up (``foundations.win_cards``, Aces Up), those still to
        go before that."""
        return self.rules.cards_to_win - self.foundation_cards

    @property
    def is_won(self) -> bool:
        """True iff every card is on a foundation; where the stock deals onto the
        foundation (``stock.deal = "foundation"``), once no card is left in play outside
        the stock (PySolFC's ``Golf.isGameWon``: every column empty); where
        ``foundations.win_cards`` says how many cards win, once the foundations hold
        them, and with ``tableau.win_single_cards`` every column holds exactly one card
        (PySolFC's ``AcesUp.isGameWon``: 48 cards discarded, an Ace alone on each column)."""
        if self.rules.win_cards:
            if self.foundation_cards < self.rules.win_cards:
                return False
            return not self.rules.win_single_cards or all(len(c) == 1 for c in self.columns)
        if self.foundation_cards == self.rules.card_count:
            return True
        return (
            self.rules.stock_deal == "foundation"
            and not any(self.columns)
            and all(c is None for c in self.cells)
            and not self.waste
            and not self.reserve
        )

    def all_cards(self) -> list[Card]:
        """Every card in the position, in pile order (columns, cells, foundations, stock,
        waste, reserve)."""
        out = [c for col in self.columns for c in col]
        out += [c for c in self.cells if c is not None]
        out += [c for f in self.foundations for c in f]
        out += self.stock
        out += self.waste
        out += self.reserve
        return out

    def to_text(self) -> str:
        """A one-line text form: ``t1 t2 ... | cells | foundations``, readable by
        :meth:`from_text` with the same rules; a fourth part ``| 5 5 5 5`` gives the
        foundations' base ranks (rank letters ``A 2..9 T J Q K``) when the state carries
        them (:attr:`bases`). A face-down card is written with a ``#`` before it
        (``#KS``); a variant with a stock adds ``| stock ... | waste ... | round N``
        (bottom card first, ``-`` for an empty pile), and one with a reserve adds
        ``| reserve ...`` (bottom card first; its face-down cards are not marked, the
        rules say which lie face down)."""
        cols = " ".join(
            ",".join(
                ("#" if self.is_face_down(i, j) else "") + _card_text(c) for j, c in enumerate(col)
            )
            or "-"
            for i, col in enumerate(self.columns)
        )
        cells = " ".join(_card_text(c) if c else "-" for c in self.cells)
        founds = " ".join(",".join(_card_text(c) for c in f) or "-" for f in self.foundations)
        text = f"{cols} | {cells} | {founds}"
        if self.bases:
            text += " | " + " ".join(RANK_TEXT[r - 1] for r in self.bases)
        if self.rules.has_stock or self.stock or self.waste or self.rounds:
            stock = ",".join(map(_card_text, self.stock)) or "-"
            waste = ",".join(map(_card_text, self.waste)) or "-"
            text += f" | stock {stock} | waste {waste} | round {self.rounds}"
        if self.rules.has_reserve or self.reserve:
            text += " | reserve " + (",".join(map(_card_text, self.reserve)) or "-")
        return text

    @classmethod
    def from_text(cls, rules: Rules, text: str) -> GameState:
        """Build a position from :meth:`to_text` output (handy in tests and scenarios).

        Cards of the second deck are written with a ``'`` suffix (``AS'``).

        :raises ValueError: when the text does not fit the rules' pile counts or a card does
            not parse; card conservation is *not* checked (positions in tests may be partial).
        """
        parts = [p.strip() for p in text.split("|")]
        labelled: dict[str, str] = {}
        while len(parts) > 3 and parts[-1].split(" ", 1)[0] in _LABELS:
            label, _, value = parts.pop().partition(" ")
            if label in labelled:
                raise ValueError(f"the {label} part is given twice")
            labelled[label] = value.strip() or "-"
        if len(parts) not in (3, 4):
            raise ValueError(
                "expected three parts separated by '|': columns | cells | foundations "
                "(and a fourth, the foundations' base ranks, when the deal decides them; "
                "then 'stock ...', 'waste ...' and 'round N' for a variant with a stock, "
                "'reserve ...' for one with a reserve)"
            )

        def pile(token: str) -> tuple[Card, ...]:
            return () if token == "-" else tuple(_parse_text_card(t) for t in token.split(","))

        hidden: list[int] = []
        for token in parts[0].split():
            marks = [t.startswith("#") for t in token.split(",")] if token != "-" else []
            down = marks.index(False) if False in marks else len(marks)
            if any(marks[down:]):
                raise ValueError(f"{token!r}: face-down cards (#) lie under the face-up ones")
            hidden.append(down)
        cols = tuple(pile(t.replace("#", "")) for t in parts[0].split())
        cells = tuple(None if t == "-" else _parse_text_card(t) for t in parts[1].split())
        founds = tuple(pile(t) for t in parts[2].split())
        if len(cols) != rules.columns:
            raise ValueError(f"expected {rules.columns} columns, got {len(cols)}")
        if len(cells) != rules.cells:
            raise ValueError(f"expected {rules.cells} cells, got {len(cells)}")
        if len(founds) != rules.foundations:
            raise ValueError(f"expected {rules.foundations} foundations, got {len(founds)}")
        bases: tuple[int, ...] = ()
        if len(parts) == 4:
            ranks = parts[3].upper().split()
            if any(len(r) != 1 or r not in RANK_TEXT for r in ranks):
                raise ValueError(
                    f"base ranks: expected rank letters (A 2-9 T J Q K), got {parts[3]!r}"
                )
            bases = tuple(RANK_TEXT.index(r) + 1 for r in ranks)
            if len(bases) == 1:
                bases *= rules.foundations
            if len(bases) != rules.foundations:
                raise ValueError(f"expected one base rank or {rules.foundations}, got {len(bases)}")
        rounds_text = labelled.get("round", "0")
        if not rounds_text.isdigit() or len(rounds_text) > 3:
            raise ValueError(f"round: expected a whole number, got {rounds_text!r}")
        return cls(
            rules=rules,
            columns=cols,
            cells=cells,
            foundations=founds,
            bases=bases,
            stock=pile(labelled.get("stock", "-")),
            waste=pile(labelled.get("waste", "-")),
            hidden=tuple(hidden) if any(hidden) else (),
            rounds=int(rounds_text),
            reserve=pile(labelled.get("reserve", "-")),
        )


_LABELS = ("stock", "waste", "round", "reserve")


def _card_text(card: Card) -> str:
    return str(card) + "'" * card.deck


def _parse_text_card(token: str) -> Card:
    deck = len(token) - len(token.rstrip("'"))
    return Card.parse(token.rstrip("'"), deck=deck)
