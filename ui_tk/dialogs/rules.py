"""The rules window (Help > Rules of this game): the rules as the variant's settings
make them, followed by the variant's page in docs/variants when it is installed."""

from __future__ import annotations

import sys
import tkinter as tk
import webbrowser
from collections.abc import Sequence
from importlib.resources import files
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from markdown_it.token import Token

from solitaire_core.i18n import N_, ngettext, pgettext
from solitaire_core.i18n import gettext as _
from solitaire_core.rules import rule_text
from solitaire_core.variant import BASE_FIRST_PLAYED, BASE_FROM_DEAL, FoundationPile

from ..table.marks import rank_mark
from ..widgets import Dialog, scaled_font, scrolled_text

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:  # Python 3.10 has it in importlib.abc only
        from importlib.abc import Traversable

    from solitaire_core.variant import Rules, VariantDefinition

__all__ = ["DOCS_DIR", "RulesDialog", "rules_text", "show_rules"]

DOCS_DIR: Traversable = files("solitaire_variants.pages")
"""The built-in variants' rules pages, ``<id>.md``: the repository's docs/variants/,
installed as the package ``solitaire_variants.pages`` (package data, so a wheel has them)."""


_MOVE_LIMITS = {
    "one": N_("One card moves at a time."),
    "free-cells-plus-one": N_(
        "A run of cards built in sequence moves in one go when it holds at most "
        "(free cells + 1) cards; empty columns do not count."
    ),
    "supermove": N_(
        "A run of cards built in sequence moves in one go when it holds at most "
        "(free cells + 1) \u00d7 2^(empty columns) cards, counting one empty column fewer when "
        "the run goes into an empty column."
    ),
    "unlimited": N_("A run of cards built in sequence moves in one go, however long."),
    "one-or-all": N_(
        "A column gives its top card, or all of its cards in one go when they form a run "
        "built in sequence; never part of a run."
    ),
}

_AUTOPLAY = {
    "off": N_("Cards go to the foundations only when you move them there."),
    "safe": N_(
        "A card goes to its foundation by itself when no card left in play can still "
        "need it; you move the others yourself."
    ),
    "all": N_("Every card that fits on a foundation goes there by itself."),
}

_DECKS = {
    2: N_("Two decks of 52 cards: {count} cards."),
    3: N_("Three decks of 52 cards: {count} cards."),
    4: N_("Four decks of 52 cards: {count} cards."),
}

_FROM_RANK = (
    N_("from an Ace"), N_("from a Two"), N_("from a Three"), N_("from a Four"),
    N_("from a Five"), N_("from a Six"), N_("from a Seven"), N_("from an Eight"),
    N_("from a Nine"), N_("from a Ten"), N_("from a Jack"), N_("from a Queen"),
    N_("from a King"),
)  # fmt: skip
"""Where a foundation starts, Ace to King (English; translated when shown)."""


def _join(items: Sequence[str]) -> str:
    """Items as a list in words: ``"a, b and c"``."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _numbers(items: Sequence[int]) -> str:
    return _join([str(i) for i in items])


def _cards_text(rules: Rules) -> str:
    if rules.decks == 1:
        return _("One deck of 52 cards.")
    if rules.decks in _DECKS:
        return _(_DECKS[rules.decks]).format(count=rules.card_count)
    return _("{decks} decks of 52 cards: {count} cards.").format(
        decks=rules.decks, count=rules.card_count
    )


def _layout_text(rules: Rules) -> str:
    """The Layout paragraph's first sentence: the piles of the table."""
    n = rules.columns
    if rules.covered_by:
        items = [
            ngettext(
                "A layout of {count} overlapping card", "A layout of {count} overlapping cards", n
            ).format(count=n)
        ]
    else:
        items = [ngettext("{count} tableau column", "{count} tableau columns", n).format(count=n)]
    items.append(_cells_text(rules))
    if rules.reserve_cards:
        items.append(
            ngettext(
                "a reserve of {count} card", "a reserve of {count} cards", rules.reserve_cards
            ).format(count=rules.reserve_cards)
        )
    elif rules.has_reserve:
        items.append(_("an empty reserve"))
    items.append(
        ngettext("{count} foundation", "{count} foundations", rules.foundations).format(
            count=rules.foundations
        )
    )
    return _join(items) + "."


def _deal_text(rules: Rules) -> str:
    recipe = rules.deal
    counts = list(recipe.columns)
    if counts and all(c == counts[0] for c in counts):
        columns = ngettext(
            "{count} card to each column", "{count} cards to each column", counts[0]
        ).format(count=counts[0])
    else:
        groups: list[tuple[int, int, int]] = []  # (first, last, count), 1-based
        for i, count in enumerate(counts, start=1):
            if groups and groups[-1][2] == count and groups[-1][1] == i - 1:
                groups[-1] = (groups[-1][0], i, count)
            else:
                groups.append((i, i, count))
        parts = [
            ngettext(
                "{count} card to column {column}", "{count} cards to column {column}", c
            ).format(count=c, column=a)
            if a == b
            else ngettext(
                "{count} card to columns {first} to {last}",
                "{count} cards to columns {first} to {last}",
                c,
            ).format(count=c, first=a, last=b)
            for a, b, c in groups
        ]
        columns = ", ".join(parts)
    order = _("row by row") if recipe.order == "rows" else _("one column after another")
    if rules.covered_by:
        down = sum(recipe.face_down)
        foundation = rules.stock_deal == "foundation"
        if down and foundation:
            text = _(
                "One card goes to each of the {count} places of the layout, from its top "
                "place on, {down} of them face down, then the stock's first card onto the "
                "foundation."
            )
        elif down:
            text = _(
                "One card goes to each of the {count} places of the layout, from its top "
                "place on, {down} of them face down, then the stock's first card onto the "
                "waste."
            )
        elif foundation:
            text = _(
                "One card goes to each of the {count} places of the layout, from its top "
                "place on, then the stock's first card onto the foundation."
            )
        else:
            text = _(
                "One card goes to each of the {count} places of the layout, from its top "
                "place on, then the stock's first card onto the waste."
            )
        return text.format(count=rules.columns, down=down)
    if rules.reserve_cards:
        text = _("The columns are dealt face up: {columns}, {order}")
    else:
        text = _("All cards are dealt face up: {columns}, {order}")
    text = text.format(columns=columns, order=order)
    if recipe.cells:
        cells = _numbers([i + 1 for i in recipe.cells])
        text += ngettext(
            "; then one card each into cell {cells}.",
            "; then one card each into cells {cells}.",
            len(recipe.cells),
        ).format(cells=cells)
    elif rules.cells and rules.cells_receive:
        text += _("; the cells start empty.")
    else:
        text += "."
    sentences = [text]
    if recipe.base_card:
        others = recipe.foundation_cards - 1
        sentences.append(
            ngettext(
                "The first card of the pack, the base card, goes to its suit's foundation, "
                "after {count} card taken out for them.",
                "The first card of the pack, the base card, goes to its suit's foundation, "
                "after {count} cards taken out for them.",
                others,
            ).format(count=others)
            if others
            else _("The first card of the pack, the base card, goes to its suit's foundation.")
        )
    elif recipe.foundation_cards:
        n = recipe.foundation_cards
        sentences.append(
            ngettext(
                "{count} card starts on the foundations.",
                "{count} cards start on the foundations.",
                n,
            ).format(count=n)
        )
    if rules.reserve_cards:
        n = rules.reserve_cards
        sentences.append(
            (
                ngettext(
                    "{count} card goes to the reserve, face down but for the top one.",
                    "{count} cards go to the reserve, face down but for the top one.",
                    n,
                )
                if rules.reserve_face_down
                else ngettext(
                    "{count} card goes to the reserve, face up and fanned, all in view.",
                    "{count} cards go to the reserve, face up and fanned, all in view.",
                    n,
                )
            ).format(count=n)
        )
    return " ".join(sentences)


def _building_text(rules: Rules) -> str:
    """The Building paragraph's first sentences: how cards build, which runs move."""
    if rules.covered_by:
        return _(
            "The tableau is a layout of overlapping cards. A card is free once the cards "
            "overlapping it have left; only free cards play, and nothing is ever put on the "
            "layout."
        )
    if rules.tableau_build == "none":
        return _("Cards are never built on the tableau: a column only gives its top card.")
    text = _(
        "On the tableau a card goes on the top card of a column when it builds {build}."
    ).format(build=rule_text(rules.build_description))
    if rules.run_description != rules.build_description:  # Simple Simon
        text += " " + _("Only cards built {run} move together as a run.").format(
            run=rule_text(rules.run_description)
        )
    return text


def _cells_text(rules: Rules) -> str:
    """The cells of the Layout paragraph: free cells, a reserve (King Albert) or none."""
    if not rules.cells:
        return _("no cells")
    if not rules.cells_receive:
        return ngettext(
            "a reserve of {count} card", "a reserve of {count} cards", rules.cells
        ).format(count=rules.cells)
    return ngettext(
        "{count} cell (each holds one card)", "{count} cells (each holds one card)", rules.cells
    ).format(count=rules.cells)


def _cell_moves_text(rules: Rules) -> str:
    """What the Building paragraph says about the cells (``""``: nothing)."""
    if not rules.cells:
        return ""
    if not rules.cells_receive:
        return _(
            "Any card of the reserve may be played to a column or a foundation; no card "
            "goes back to the reserve."
        )
    return _("Any top card, and the card in a cell, may go to a free cell.")


_FOUNDATION_BUILDS = {
    "up-in-suit": N_("up in suit"),
    "up-alternate-colors": N_("up in alternate colours"),
    "up-any-suit": N_("up regardless of suit"),
    "down-in-suit": N_("down in suit"),
    "up-or-down-any-suit": N_("up or down regardless of suit"),
}


def _pile_text(count: int, pile: FoundationPile, *, alone: bool = False) -> str:
    """How ``count`` foundations alike in ``pile`` build, as a clause (``alone``: the
    whole sentence but its full stop, "The 4 foundations build ...")."""
    how = _(_FOUNDATION_BUILDS[pile.build]) if pile.build in _FOUNDATION_BUILDS else pile.build
    if pile.base == BASE_FROM_DEAL:
        start = _("from the rank the deal puts on them")
    elif pile.base == BASE_FIRST_PLAYED:
        start = _(
            "from the rank of the first card played to a foundation, which becomes every "
            "foundation's base"
        )
    else:
        start = _(_FROM_RANK[pile.base - 1])
    if alone:
        text = ngettext(
            "The {count} foundations build {how} {start}",
            "The {count} foundations build {how} {start}",
            count,
        )
    else:
        text = ngettext("{count} build {how} {start}", "{count} build {how} {start}", count)
    text = text.format(count=count, how=how, start=start)
    if pile.wrap and pile.both_ways:
        text += _(", a King and an Ace next to each other")
    elif pile.wrap:
        text += (
            _(", turning the corner from King to Ace")
            if pile.up
            else _(", turning the corner from Ace to King")
        )
    if pile.nothing_on_king:
        text += _("; nothing from play goes on a King")
    if pile.cards != 13:
        text += ngettext(", {count} card each", ", {count} cards each", pile.cards).format(
            count=pile.cards
        )
    return text


def _winning_text(rules: Rules) -> str:
    """The Winning paragraph: every card up, or ``foundations.win_cards`` of them (with
    ``tableau.win_single_cards``, one card left alone on each column: Aces Up)."""
    if rules.stock_deal == "foundation":  # PySolFC's Golf.isGameWon, ThreePeaks.isGameWon
        if rules.covered_by:
            return _("The game is won when the layout is cleared, whatever is left in the stock.")
        return _("The game is won when every column is empty, whatever is left in the stock.")
    if not rules.win_cards:
        return _("The game is won when all {count} cards are on the foundations.").format(
            count=rules.card_count
        )
    if rules.win_single_cards:
        text = _(
            "The game is won when {count} cards are on the foundations, the others lying one "
            "to a column."
        )
    else:
        text = _("The game is won when {count} cards are on the foundations.")
    return text.format(count=rules.win_cards)


def _foundation_text(rules: Rules) -> str:
    """The Foundations paragraph."""
    if rules.pair_total:  # the loader allows a pairs pile alone
        text = _(
            "The foundation is a discard pile for pairs: two free cards whose ranks add up "
            "to {total} (Ace 1, Jack 11, Queen 12, King 13) go there together: drag one onto "
            "the other, or click one and then the other."
        ).format(total=rules.pair_total)
        if rules.pair_total <= 13:
            text += " " + _("A {rank} goes alone.").format(rank=rank_mark(rules.pair_total))
        return text
    if rules.foundation_piles[0].discards:  # the loader allows a discard pile alone
        return _(
            "The foundation is a discard pile: a column's top card goes there while a higher "
            "card of its suit tops another column, Aces ranking high; an Ace never goes."
        )
    if rules.standard_foundations:
        text = (
            _(
                "The {count} foundations build up in suit from Ace to King, one for each suit "
                "of each deck."
            )
            if rules.decks > 1
            else _("The {count} foundations build up in suit from Ace to King, one per suit.")
        ).format(count=rules.foundations)
    else:
        groups: list[list] = []  # [count, pile], piles alike in a row
        for pile in rules.foundation_piles:
            if groups and groups[-1][1] == pile:
                groups[-1][0] += 1
            else:
                groups.append([1, pile])
        if len(groups) == 1:
            text = _pile_text(rules.foundations, groups[0][1], alone=True) + "."
        else:
            clauses = [_pile_text(count, pile) for count, pile in groups]
            text = _("There are {count} foundations: {piles}.").format(
                count=rules.foundations, piles="; ".join(clauses)
            )
        if rules.complete_suits:
            text += " " + _("Only a complete suit goes up, in one move, from the King to the Ace.")
    return text


def _empty_text(rules: Rules) -> str:
    """What fills an empty column: the rules' description, without the run where one card
    moves at a time (Fan, PySolFC game 56: ``KingSS_RowStack`` with ``max_move=1``, so
    only a lone King fills an empty fan); in the language spoken."""
    if rules.move_limit == "one":
        alone = {"king": N_("a King"), "any": N_("any card")}.get(rules.empty_rule)
        if alone is not None:
            return _(alone)
    return rule_text(rules.empty_description)


def _reserve_text(rules: Rules) -> str:
    """The reserve in words (docs/variant-format.md, ``[reserve]``; PySolFC's Canfield,
    pysollib/games/canfield.py: ``INITIAL_RESERVE_FACEUP``, ``FILL_EMPTY_ROWS``)."""
    n = rules.reserve_cards
    if rules.reserve_takes_runs:
        return _(
            "The reserve starts empty. Once the stock is spent, it takes one card or run "
            "from a column (drag it there or press its key), and then nothing more until it "
            "is empty again; its cards play out as runs to the columns, and its top card to "
            "the foundations. (PySolFC calls this waiving.)"
        )
    if rules.reserve_face_down:
        text = ngettext(
            "The reserve holds {count} card, face down but for its top card. Only the top "
            "card plays, to a column or a foundation (click it, drag it or press its key); "
            "then the card under it turns face up.",
            "The reserve holds {count} cards, face down but for its top card. Only the top "
            "card plays, to a column or a foundation (click it, drag it or press its key); "
            "then the card under it turns face up.",
            n,
        )
    else:
        text = ngettext(
            "The reserve holds {count} card, all face up and fanned so you can plan "
            "ahead, but only its top card plays, to a column or a foundation.",
            "The reserve holds {count} cards, all face up and fanned so you can plan "
            "ahead, but only its top card plays, to a column or a foundation.",
            n,
        )
    sentences = [text.format(count=n), _("No card is ever put on the reserve.")]
    if rules.reserve_fills_empty:
        sentences.append(
            _(
                "A column that empties takes the reserve's top card at once, in the same move "
                "(one undo takes both back); once the reserve is empty, an empty column waits "
                "for any card you choose."
            )
        )
    else:
        sentences.append(
            _("An empty column is not filled from the reserve: it waits for any card you choose.")
        )
    return " ".join(sentences)


def _stock_text(rules: Rules) -> str:
    """The stock, the waste and the face-down cards in words (docs/variant-format.md,
    ``[stock]`` and ``deal.face_down``)."""
    parts = []
    down = rules.deal.face_down
    if any(down) and rules.covered_by:
        parts.append(
            ngettext(
                "{count} card of the layout is dealt face down; it turns face up as soon as "
                "the cards overlapping it have left.",
                "{count} cards of the layout are dealt face down; each turns face up as soon "
                "as the cards overlapping it have left.",
                sum(down),
            ).format(count=sum(down))
        )
    elif any(down):
        parts.append(
            _(
                "Of each column's cards, {counts} (from the first column on) are dealt face "
                "down. A face-down card turns face up as soon as the cards on it leave; it "
                "never moves or takes a card before."
            ).format(counts=", ".join(str(n) for n in down))
        )
    if rules.stock_deal == "waste":
        each = (
            _("one card")
            if rules.draw == 1
            else ngettext("{count} card", "{count} cards", rules.draw).format(count=rules.draw)
        )
        plays = (
            _("the stock's top card lies face up, and it and the waste's top card play")
            if rules.stock_top_plays
            else _("only the waste's top card plays")
        )
        parts.append(
            _(
                "The cards left over form the stock. A click on it (or its key) turns {cards} "
                "face up onto the waste; {plays}."
            ).format(cards=each, plays=plays)
        )
        if rules.redeals == 0:
            parts.append(
                _("When the stock is empty, the waste is turned over into a new stock never.")
            )
        else:
            redeals = (
                _("as often as you like")
                if rules.redeals < 0
                else ngettext("{count} time", "{count} times", rules.redeals).format(
                    count=rules.redeals
                )
            )
            parts.append(
                _(
                    "When the stock is empty, the waste is turned over into a new stock {redeals}."
                ).format(redeals=redeals)
            )
    elif rules.stock_deal == "foundation":
        parts.append(
            _(
                "The cards left over form the stock. A click on it (or its key) turns its top "
                "card onto the foundation, whatever its rank; the stock is dealt once, and the "
                "game is won as soon as the layout is cleared."
            )
            if rules.covered_by
            else _(
                "The cards left over form the stock. A click on it (or its key) turns its top "
                "card onto the foundation, whatever its rank; the stock is dealt once, and the "
                "game is won as soon as the columns are empty."
            )
        )
    elif rules.stock_deal == "row":
        parts.append(
            _(
                "The cards left over form the stock. A click on it (or its key) deals one "
                "card face up onto each column."
            )
            if rules.row_onto_empty
            else _(
                "The cards left over form the stock. A click on it (or its key) deals one "
                "card face up onto each column, but not while a column is empty."
            )
        )
    return " ".join(parts)


def rules_text(definition: VariantDefinition, rules: Rules) -> list[tuple[str, str]]:
    """The rules of a variant, made from its definition and resolved :class:`Rules`, in
    the language spoken (the variant's name, summary and options as it gives them).

    :return: ``(style, text)`` pieces in reading order; style is ``"title"``,
        ``"heading"`` or ``"body"`` (the rules window shows them with those tags).
    """
    out: list[tuple[str, str]] = [("title", rules.name)]
    if definition.summary:
        out.append(("body", definition.summary))
    chosen = dict(rules.options)
    if definition.options:
        lines = []
        for option in definition.options:
            value = chosen.get(option.name, option.default)
            try:
                label = option.choice(value).label
            except KeyError:
                label = value
            lines.append(_("{option}: {choice}.").format(option=option.label, choice=label))
        out += [("heading", pgettext("rules", "Options in this game")), ("body", "\n".join(lines))]
    moving = (
        _(
            "Any face-up card moves with all the cards on it, whether they form a run "
            "or not; only the card it lands on must fit."
        )
        if rules.face_up_runs
        else _(_MOVE_LIMITS[rules.move_limit])
        if rules.move_limit in _MOVE_LIMITS
        else rules.move_limit
    )
    cheat = _(
        "In the Cheat difficulty runs of any length move; every card moved that the normal "
        "rules would not allow counts as a cheat, and undo does not lower the count."
    )
    empty = (
        _(
            "An empty column takes the reserve's top card at once; once the reserve is "
            "empty, it takes {what}."
        )
        if rules.reserve_fills_empty
        else _("An empty column takes {what}.")
    ).format(what=_empty_text(rules))
    out += [
        ("heading", pgettext("rules", "Cards")),
        ("body", _cards_text(rules)),
        ("heading", pgettext("rules", "Layout")),
        ("body", _layout_text(rules) + " " + _deal_text(rules)),
        ("heading", pgettext("rules", "Building")),
        ("body", " ".join(t for t in (_building_text(rules), _cell_moves_text(rules)) if t)),
        ("heading", pgettext("rules", "Empty columns")),
        ("body", empty),
    ]
    if rules.has_reserve:
        out += [("heading", pgettext("rules", "Reserve")), ("body", _reserve_text(rules))]
    if rules.has_stock or any(rules.deal.face_down):
        out += [
            ("heading", pgettext("rules", "Stock and face-down cards")),
            ("body", _stock_text(rules)),
        ]
    out += [("heading", pgettext("rules", "Moving runs")), ("body", moving + " " + cheat)]
    foundation = [_foundation_text(rules)]
    foundation.append(
        _("A card on a foundation may come back into play.")
        if rules.foundation_return
        else _("Cards on the foundations are out of play.")
    )
    if rules.foundation_runs:
        foundation.append(_("A run in suit may go to a foundation in one move."))
    if rules.deal.base_card:
        foundation.append(
            _(
                "The base card's rank starts every foundation; the table writes it under the "
                'foundations ("{label}").'
            ).format(label=_("Base rank: {rank}").format(rank=rank_mark(11)))
        )
    autoplay = _(_AUTOPLAY[rules.autoplay]) if rules.autoplay in _AUTOPLAY else rules.autoplay
    out += [
        ("heading", pgettext("rules", "Foundations")),
        ("body", " ".join(foundation)),
        ("heading", pgettext("rules", "Autoplay")),
        ("body", autoplay),
        ("heading", pgettext("rules", "Winning")),
        ("body", _winning_text(rules)),
    ]
    if rules.deal.method == "pysolfc":
        note = _("Deal numbers are PySolFC's game numbers, so deal N here is PySolFC's deal N.")
    else:
        note = _("Deals come from the plugin deal method {method}.").format(
            method=repr(rules.deal.method)
        )
    out += [("heading", pgettext("rules", "Deal numbers")), ("body", note)]
    return out + [
        (style, "".join(text for _style, text in runs)) for style, runs in _page(definition, rules)
    ]


def rules_blocks(definition: VariantDefinition, rules: Rules) -> list[tuple[str, list[Run]]]:
    """:func:`rules_text` with the variant page's inline formatting kept: per block
    ``(style, runs)`` as :func:`markdown_blocks` gives them (the sentences made from
    the rules are one plain run each)."""
    made = rules_text(definition, rules)
    page = _page(definition, rules)
    return [(style, [("", text)]) for style, text in made[: len(made) - len(page)]] + page


def _page(definition: VariantDefinition, rules: Rules) -> list[tuple[str, list[Run]]]:
    """The variant's page (``docs/variants/<id>.md``) under a "More about" heading, as
    :func:`markdown_blocks`; nothing when there is no page or it cannot be read."""
    page = DOCS_DIR / f"{definition.id}.md"
    try:
        doc = page.read_text("utf-8") if page.is_file() else ""
    except (OSError, UnicodeDecodeError):
        doc = ""
    if not doc.strip():
        return []
    heading = _("More about {name}").format(name=rules.name)
    return [("heading", [("", heading)]), *markdown_blocks(doc, rules.name)]


Run = tuple[str, str]
"""A piece of inline text and how it is set: ``""`` (plain), ``"em"``, ``"strong"``,
``"code"`` or ``"link <url>"``."""

_MARKDOWN = MarkdownIt("commonmark").enable("table")


def markdown_blocks(text: str, title: str = "") -> list[tuple[str, list[Run]]]:
    """A variant page's Markdown as the Rules window sets it, parsed by markdown-it-py
    (CommonMark with tables).

    :param text: the page's Markdown.
    :param title: the variant's name: a first heading equal to it is dropped (the
        window's title says it already).
    :return: blocks in reading order, each ``(style, runs)``: style ``"heading"``,
        ``"body"`` (a paragraph), ``"item"`` (a list item, or a table row) or ``"code"``
        (a line of a code block); runs as :data:`Run`. A table row is one item, its cells
        joined by " — ", the header row set in bold; in a table whose last column is
        headed "source" (the pages' rules tables) each rule is followed by its source in
        brackets, in italics.
    """
    blocks: list[tuple[str, list[Run]]] = []
    tokens = _MARKDOWN.parse(text)
    list_depth = 0
    in_head = False
    header: list[str] = []
    row: list[list[Run]] = []
    pending: str | None = None  # the block style the next inline token belongs to
    new_item = False  # a list item opened and has no text yet
    for token in tokens:
        kind = token.type
        if kind == "heading_open":
            pending = "heading"
        elif kind == "paragraph_open":
            pending = "item" if list_depth else "body"
        elif kind in ("bullet_list_open", "ordered_list_open"):
            list_depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
        elif kind == "list_item_open":
            new_item = True
        elif kind in ("fence", "code_block"):
            blocks += [("code", [("", line)]) for line in token.content.rstrip("\n").split("\n")]
        elif kind == "table_open":
            header = []
        elif kind == "thead_open":
            in_head = True
        elif kind == "thead_close":
            in_head = False
        elif kind == "tr_open":
            row = []
        elif kind in ("th_open", "td_open"):
            pending = "cell"
        elif kind == "tr_close":
            if in_head:
                header = ["".join(t for _, t in cell).casefold() for cell in row]
            if not (in_head and header[-1:] == ["source"]):  # a rules table needs no header
                blocks.append(("item", _table_row(row, header, in_head)))
        elif kind == "inline" and pending is not None:
            runs = _runs(token.children or [])
            if pending == "cell":
                row.append(runs)
            elif pending == "heading" and not blocks and "".join(t for _, t in runs) == title:
                pass
            elif pending == "item" and not new_item:
                blocks[-1][1].extend([("", " "), *runs])  # a list item's next paragraph
            else:
                new_item = False
                bullet = [("", "\u2022 ")] if pending == "item" else []
                blocks.append((pending, bullet + runs))
            pending = None
    return blocks


def _table_row(row: list[list[Run]], header: list[str], in_head: bool) -> list[Run]:
    """One table row as the runs of an item (:func:`markdown_blocks`)."""
    if in_head:
        cells = [[("strong", "".join(t for _, t in cell))] for cell in row]
    elif len(row) > 1 and header[-1:] == ["source"]:
        rule = [run for cell in row[:-1] for run in cell]
        source = [("em" if not style else style, t) for style, t in row[-1]]
        return [("", "\u2022 "), *rule, ("", " ("), *source, ("", ")")]
    else:
        cells = row
    out: list[Run] = [("", "\u2022 ")]
    for n, cell in enumerate(c for c in cells if c):
        if n:
            out.append(("", " \u2014 "))
        out += cell
    return out


def _runs(children: Sequence[Token]) -> list[Run]:
    """The runs of an inline token's children: emphasis, code spans and links kept."""
    out: list[Run] = []
    styles: list[str] = []
    for child in children:
        kind = child.type
        if kind in ("em_open", "strong_open"):
            styles.append(kind[:-5])
        elif kind == "link_open":
            styles.append(f"link {child.attrGet('href') or ''}")
        elif kind in ("em_close", "strong_close", "link_close"):
            if styles:
                styles.pop()
        elif kind == "code_inline":
            out.append(("code", child.content))
        elif kind in ("softbreak", "hardbreak"):
            out.append((styles[-1] if styles else "", " "))
        elif kind in ("text", "html_inline"):
            out.append((styles[-1] if styles else "", child.content))
    return out


class RulesDialog(Dialog):
    """The rules of one variant in a scrollable read-only text."""

    def __init__(
        self, parent: tk.Misc, definition: VariantDefinition, rules: Rules, *, wait: bool
    ) -> None:
        super().__init__(parent, _("Rules of {name}").format(name=rules.name), wait=wait)
        self.body.columnconfigure(0, weight=1)
        self.body.rowconfigure(1, weight=1)
        self.text = scrolled_text(self.body, width=66, height=26)
        self.text.tag_configure(
            "title", font=scaled_font(self, "TkHeadingFont", 6, bold=True), spacing3=6
        )
        self.text.tag_configure(
            "heading",
            font=scaled_font(self, "TkDefaultFont", 1, bold=True),
            spacing1=10,
            spacing3=2,
        )
        body = scaled_font(self, "TkTextFont", 1)
        self.text.tag_configure("body", font=body, spacing2=2)
        self.text.tag_configure("item", font=body, spacing2=2, lmargin1=6, lmargin2=20)
        self.text.tag_configure(
            "code", font=scaled_font(self, "TkFixedFont", 1), lmargin1=20, lmargin2=20, spacing1=0
        )
        self.text.tag_configure("em", font=scaled_font(self, "TkTextFont", 1, italic=True))
        self.text.tag_configure("strong", font=scaled_font(self, "TkTextFont", 1, bold=True))
        self.text.tag_configure("icode", font=scaled_font(self, "TkFixedFont", 1))
        self.text.tag_configure("link", foreground="#1a55a8", underline=True)
        self.links: dict[str, str] = {}  # tag -> address
        for style, runs in rules_blocks(definition, rules):
            for inline, piece in runs:
                self.text.insert("end", piece, (style, *self._tags(inline)))
            self.text.insert("end", "\n", style)
        self.text.configure(state="disabled")
        self.resizable(True, True)
        self.buttons([("close", _("Close"))], default="close", row=2)
        self.show(self.text)

    def _tags(self, inline: str) -> tuple[str, ...]:
        """The Tk tags of a run's style (:data:`Run`); a link gets its own tag, which
        opens its address in the web browser when clicked."""
        if not inline:
            return ()
        if inline == "code":
            return ("icode",)
        if not inline.startswith("link "):
            return (inline,)
        address = inline[5:]
        tag = f"link{len(self.links)}"
        self.links[tag] = address
        self.text.tag_bind(tag, "<Button-1>", lambda _e, a=address: webbrowser.open(a))
        self.text.tag_bind(tag, "<Enter>", lambda _e: self.text.configure(cursor="hand2"))
        self.text.tag_bind(tag, "<Leave>", lambda _e: self.text.configure(cursor=""))
        return ("link", tag)


def show_rules(
    parent: tk.Misc, definition: VariantDefinition, rules: Rules, *, wait: bool = True
) -> RulesDialog | None:
    """Show the rules of the variant being played.

    :param definition: the installed variant (its summary, options and docs page).
    :param rules: the resolved rules in force (the chosen options).
    :return: the dialog when ``wait`` is false, else ``None`` after it was closed.
    """
    dialog = RulesDialog(parent, definition, rules, wait=wait)
    return None if wait else dialog
