"""Games with a stock and face-down cards: deals equal PySolFC's, and the rules a player
meets (turning cards, dealing, redeals, rows, Yukon moves, complete suits), the view that
never shows a hidden card, and the thoughtful solver.

Reference layouts come from the ``pysol_cards`` package's dealers (PySolFC's game
numbers); where it deals differently from PySolFC itself (Whitehead's face-down marks,
Small Harp's face-down order, read from pysollib/games/klondike.py) the test says so.
"""

from __future__ import annotations

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from solitaire_core.cards import Card
from solitaire_core.deal import deal
from solitaire_core.errors import IllegalMoveError
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.rules import apply, autoplay_moves, explain, legal_moves
from solitaire_core.session import Session
from solitaire_core.solver import Verdict, solve, solve_deal
from solitaire_core.state import GameState
from solitaire_core.textview import format_layout, format_pysol

NUMBERS = (1, 7, 23, 32000, 123456)
"""Deals on both sides of PySolFC's 32000 boundary (Microsoft FreeCell's generator up to
32000, a Mersenne Twister above: solitaire_core/deal.py)."""

SAME_AS_PYSOL_CARDS = {
    "klondike": "klondike",
    "klondike-draw-3": "klondike_by_threes",
    "vegas-klondike": "vegas_klondike",
    "casino-klondike": "casino_klondike",
    "thumb-and-pouch": "thumb_and_pouch",
    "yukon": "yukon",
    "gypsy": "gypsy",
}


def rules_of(variant: str):  # noqa: ANN201 - a Rules
    return get_variant(variant).resolve()


def pysol_cards_text(game: str, number: int) -> str:
    return Game(game, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("variant", sorted(SAME_AS_PYSOL_CARDS))
def test_layout_equals_pysol_cards(variant: str, number: int) -> None:
    """The whole layout: the stock's order, the waste (printed by pysol_cards as still on
    the talon, first), every column and which of its cards lie face down."""
    ours = format_pysol(deal(rules_of(variant), number))
    assert ours.split() == pysol_cards_text(SAME_AS_PYSOL_CARDS[variant], number).split()


@pytest.mark.parametrize("number", NUMBERS)
def test_whitehead_is_klondikes_layout_face_up(number: int) -> None:
    # PySolFC deals Whitehead with Klondike.startGame(flip=1): every card face up, though
    # pysol_cards marks the same cards as face down.
    ours = format_pysol(deal(rules_of("whitehead"), number))
    theirs = pysol_cards_text("whitehead", number).replace("<", "").replace(">", "")
    assert ours.split() == theirs.split()
    assert not deal(rules_of("whitehead"), number).hidden


@pytest.mark.parametrize("number", NUMBERS)
def test_small_harp_face_up_cards_and_stock_equal_pysol_cards(number: int) -> None:
    """pysol_cards prints Small Harp's columns in the other order and deals its face-down
    rows longest first; PySolFC deals rows of 1, 2, ... 6 cards from the first column
    (SmallHarp.startGame), which is what we deal: the face-up cards and the stock agree."""
    state = deal(rules_of("small-harp"), number)
    lines = pysol_cards_text("small_harp", number).splitlines()
    assert format_pysol(state).splitlines()[0] == lines[0]  # the talon
    columns = lines[1:]
    assert [col[-1] for col in state.columns] == [Card.parse(t.split()[-1]) for t in columns]
    assert [len(col) for col in state.columns] == [7, 6, 5, 4, 3, 2, 1]
    assert state.hidden == (6, 5, 4, 3, 2, 1) + (0,)
    # PySolFC's first face-down row is the first column's bottom card alone.
    from solitaire_core.deal import pysolfc_order

    order = pysolfc_order(1, number)
    assert state.columns[0][0] == order[0]
    assert (state.columns[0][1], state.columns[1][0]) == (order[1], order[2])


def test_spider_deal_follows_pysolfcs_order() -> None:
    """PySolFC's RelaxedSpider.startGame: four face-down rows onto all ten columns, one
    onto columns 1, 4, 7 and 10, then a face-up row; the stock keeps the other 50."""
    rules = rules_of("spider")
    state = deal(rules, 1)
    from solitaire_core.deal import pysolfc_order

    order = pysolfc_order(2, 1)
    assert [col[0] for col in state.columns] == order[:10]
    assert [state.columns[i][4] for i in (0, 3, 6, 9)] == order[40:44]
    assert [col[-1] for col in state.columns] == order[44:54]
    assert tuple(reversed(state.stock)) == tuple(order[54:])
    assert state.hidden == (5, 4, 4, 5, 4, 4, 5, 4, 4, 5)


@pytest.mark.parametrize(
    ("variant_id", "played_as"),
    [
        ("spider-1-suit", {"C": "C", "S": "C", "H": "C", "D": "C"}),
        ("spider-2-suits", {"C": "C", "S": "C", "H": "H", "D": "H"}),
    ],
)
@pytest.mark.parametrize("number", [1, 23, 40000])
def test_spider_with_fewer_suits_is_spiders_deal_with_suits_replaced(
    variant_id: str, played_as: dict[str, str], number: int
) -> None:
    """PySolFC's games 269 and 270 (GameInfo suits=(0, 0, 0, 0) and (0, 0, 2, 2)): the
    same shuffle of the same card numbers, each card made in the suit the game plays its
    deck's suit as; every card is there, and in one suit a run down in rank moves."""
    spider, fewer = deal(rules_of("spider"), number), deal(rules_of(variant_id), number)

    def text(cards):
        return [f"{c.rank}{played_as[c.suit.value]}" for c in cards]

    assert [text(c) for c in spider.columns] == [
        [f"{c.rank}{c.suit.value}" for c in col] for col in fewer.columns
    ]
    assert text(spider.stock) == [f"{c.rank}{c.suit.value}" for c in fewer.stock]
    assert fewer.hidden == spider.hidden
    cards = [c for col in fewer.columns for c in col] + list(fewer.stock)
    assert len(set(cards)) == 104  # distinct cards: each copy knows which it is
    suits = {c.suit.value for c in cards}
    assert suits == set(played_as.values())
    assert all(
        sum(1 for c in cards if c.suit.value == s and c.rank == 1) == 8 // len(suits) for s in suits
    )


def test_a_run_down_in_clubs_moves_in_spider_1_suit_but_not_in_spider() -> None:
    layout = "6C 9C,5C,4C - - - - - - - - |  | - - - - - - - - | stock - | waste - | round 0"
    move = Move.parse("t2>t1x2")
    assert explain(GameState.from_text(rules_of("spider-1-suit"), layout), move) is None
    spades = layout.replace("5C,4C", "5S,4C")
    assert explain(GameState.from_text(rules_of("spider"), spades), move) is not None


def test_export_pysol_names_a_face_down_card_and_the_talon() -> None:
    text = format_pysol(deal(rules_of("klondike"), 1))
    assert text.splitlines()[0].startswith("Talon: 4H AC 4D")
    assert text.splitlines()[2] == "<7H> TS"


def test_show_never_reveals_a_hidden_card_or_the_stock() -> None:
    state = deal(rules_of("klondike"), 1)
    shown = format_layout(state)
    assert "7H" not in shown  # face down in column 2
    assert "##" in shown
    assert "Stock: 23 cards, redeals without limit   Waste: 4H" in shown
    assert "AC" not in shown  # the stock's next card


def test_an_exposed_card_turns_face_up_and_undo_turns_it_back() -> None:
    rules = rules_of("klondike")
    state = GameState.from_text(
        rules, "KS #2H,#9C,QD #5C,6H - - - - |  | - - - - | stock 3C | waste - | round 0"
    )
    after = apply(state, Move.parse("t2>t1"))
    assert after.columns[1] == state.columns[1][:-1]
    assert after.hidden[1] == 1 and not after.is_face_down(1, 1)  # 9C turned up
    session = Session(rules, 1, state=state)
    session.play("t2>t1")
    assert session.state.hidden[1] == 1
    session.undo()
    assert session.state == state and session.state.is_face_down(1, 1)


def test_a_face_down_card_never_moves_and_never_takes_a_card() -> None:
    rules = rules_of("yukon")
    state = GameState.from_text(rules, "#8D,#7S,6H,5C KS - - - - - |  | - - - -")
    assert explain(state, Move.parse("t1>t2x3")) == (
        "face-down cards never move: turn them up by moving the cards on them"
    )
    assert all(m.count <= 2 for m in legal_moves(state) if m.source.index == 0)


def test_yukon_moves_any_face_up_group() -> None:
    """PySolFC's Yukon_AC_RowStack: any face-up card moves with everything on it; only the
    card it lands on is checked."""
    rules = rules_of("yukon")
    state = GameState.from_text(rules, "#2C,7H,3S,JD 8C - - - - - |  | - - - -")
    after = apply(state, Move.parse("t1>t2x3"))  # 7H (with 3S, JD on it) onto 8C
    assert after.columns[1] == (Card.parse("8C"), *state.columns[0][1:])
    assert not after.hidden  # 2C turned up
    assert "cannot go on" in explain(state, Move.parse("t1>t2x2"))  # 3S on 8C: no


def test_draw_three_turns_three_and_the_waste_shows_its_top() -> None:
    rules = rules_of("klondike-draw-3")
    state = deal(rules, 1)
    assert len(state.waste) == 3 and len(state.stock) == 21
    after = apply(state, Move.parse("s>w"))
    assert after.waste[-3:] == tuple(reversed(state.stock[-3:]))
    # Only the top card of the waste plays.
    waste_moves = [m for m in legal_moves(after) if m.source.kind.value == "w"]
    assert all(m.count == 1 for m in waste_moves)
    assert explain(after, Move.parse("w>t1x2")) == "only the waste's top card plays"


def test_redeals_are_counted_and_limited() -> None:
    vegas = rules_of("vegas-klondike")
    state = GameState.from_text(vegas, "KS - - - - - - |  | - - - - | stock - | waste 3C | round 0")
    assert explain(state, Move.parse("w>s")) == (
        "the waste is never turned over in Vegas Klondike: the stock is dealt once"
    )
    casino = rules_of("casino-klondike")
    state = GameState.from_text(
        casino, "KS - - - - - - |  | - - - - | stock - | waste 3C,4D | round 1"
    )
    again = apply(state, Move.parse("w>s"))
    assert again.stock == (Card.parse("4D"), Card.parse("3C")) and again.rounds == 2
    assert again.redeals_left == 0
    spent = GameState.from_text(
        casino, "KS - - - - - - |  | - - - - | stock - | waste 3C | round 2"
    )
    assert explain(spent, Move.parse("w>s")) == "no redeal is left"
    assert explain(apply(again, Move.parse("s>w")), Move.parse("s>w")) is None


def test_spider_deals_no_row_while_a_column_is_empty_relaxed_spider_does() -> None:
    layout = (
        "KS " * 9
        + "- |  | - - - - - - - - | stock "
        + ",".join(["2H"] * 10)
        + " | waste - | round 0"
    )
    spider = GameState.from_text(rules_of("spider"), layout)
    assert explain(spider, Move.parse("s>t")) == (
        "no row is dealt while a column is empty: fill every column first"
    )
    relaxed = GameState.from_text(rules_of("relaxed-spider"), layout)
    dealt = apply(relaxed, Move.parse("s>t"))
    assert all(col[-1] == Card.parse("2H") for col in dealt.columns) and not dealt.stock


def test_scorpion_deals_its_last_three_cards_onto_the_first_three_columns() -> None:
    rules = rules_of("scorpion")
    state = deal(rules, 1)
    assert len(state.stock) == 3
    dealt = apply(state, Move.parse("s>t"))
    assert [dealt.columns[i][-1] for i in range(3)] == list(reversed(state.stock))
    assert dealt.columns[3:] == state.columns[3:]


def test_a_complete_suit_leaves_for_the_foundations_in_spider() -> None:
    rules = rules_of("spider")
    run = ",".join(f"{r}S" for r in "KQJT98765432A")
    state = GameState.from_text(rules, f"#3H,{run} " + "KH " * 9 + "|  | - - - - - - - -")
    after, moves = autoplay_moves(state)
    assert [str(m) for m in moves] == ["t1>f1x13"]
    assert after.columns[0] == (Card.parse("3H"),) and not after.hidden


def test_safe_autoplay_goes_by_what_the_player_sees() -> None:
    """A red Three waits while a black Two is not up, even though every black Two is
    hidden (a view that knows nothing of the hidden cards cannot call the Three safe). A
    Two needs no such wait: an Ace never needs a place on it, as it can always go up."""
    rules = rules_of("klondike")
    state = GameState.from_text(
        rules, "#2C,KS 3H - - - - - |  | AH,2H AC AS - | stock 2S | waste - | round 0"
    )
    after, moves = autoplay_moves(state)
    assert moves == []
    state = GameState.from_text(
        rules, "#AC,KS 2H - - - - - |  | AH - - - | stock AS | waste - | round 0"
    )
    after, moves = autoplay_moves(state)
    assert moves == [Move.parse("t2>f1")]


def test_a_card_taken_back_from_a_foundation_stays_down() -> None:
    rules = rules_of("klondike")
    state = GameState.from_text(
        rules,
        "KS,QD - - - - - - |  | AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS - - - "
        "| stock 2C | waste - | round 0",
    )
    session = Session(rules, 1, state=state)
    turn = session.play("f1>t1")
    assert turn.autoplay == () and session.state.columns[0][-1] == Card.parse("JS")


def test_a_won_game_allows_no_move_even_where_foundations_give_back() -> None:
    rules = rules_of("klondike")
    piles = " ".join(",".join(f"{r}{s}" for r in "A23456789TJQK") for s in "CDHS")
    won = GameState.from_text(rules, f"- - - - - - - |  | {piles} | stock - | waste - | round 0")
    assert won.is_won and legal_moves(won) == []


def test_the_thoughtful_solver_wins_klondike_deal_1_by_session_moves() -> None:
    rules = rules_of("klondike")
    result = solve_deal(rules, 1, max_states=20_000)
    assert result.verdict is Verdict.WINNABLE
    assert "thoughtful" in result.note
    session = Session(rules, 1)
    for move in result.moves:
        session.play(move)
    assert session.is_won


def test_the_thoughtful_solver_proves_a_small_loss() -> None:
    rules = rules_of("vegas-klondike")
    # An end game with the Ace of spades face down under the 2S, the stock spent and no
    # redeal: the 2S can only go to an empty column, which would only take a King.
    state = GameState.from_text(
        rules, "#AS,2S KS - - - - - |  | - - - - | stock - | waste - | round 0"
    )
    result = solve(state, max_states=1000)
    assert result.verdict is Verdict.UNWINNABLE
    assert "thoughtful" in result.note


def test_illegal_stock_moves_say_why() -> None:
    klondike = rules_of("klondike")
    state = deal(klondike, 1)
    with pytest.raises(IllegalMoveError, match="the stock deals to the waste in this game"):
        apply(state, Move.parse("s>t"))
    with pytest.raises(IllegalMoveError, match="only once the stock is empty"):
        apply(state, Move.parse("w>s"))
    with pytest.raises(IllegalMoveError, match="has no stock"):
        apply(deal(rules_of("freecell"), 1), Move.parse("s>w"))


def test_a_klondike_game_is_saved_and_read_back_with_its_deals_and_redeals() -> None:
    """A saved game keeps the stock's moves (``s>w``, ``w>s``); replayed, it gives the
    same position, face-down cards and redeals used included."""
    from solitaire_core.persistence.saves import SavedGame, decode_save, encode_save

    rules = rules_of("klondike")
    session = Session(rules, 1)
    while session.state.rounds < 1:
        session.play("s>w" if session.state.stock else "w>s")
    session.play("s>w")
    assert session.state.rounds == 1
    moves = [str(turn.move) for turn in session.history]
    saved = decode_save(encode_save(SavedGame("klondike", {}, 1, moves)))
    again = Session(rules, 1)
    for move in saved.moves:
        again.play(move)
    assert again.state == session.state and again.state.rounds == 1


def test_the_launchers_preview_never_shows_a_hidden_card() -> None:
    """Two deals that differ only in which cards lie face down (and in the stock) give
    the same preview picture."""
    from solitaire_tk.table.preview import render_preview

    rules = rules_of("klondike")
    state = deal(rules, 1)
    col = state.columns[6]
    swapped = (col[1], col[0], *col[2:])  # two face-down cards trade places
    other = GameState(
        rules=rules,
        columns=(*state.columns[:6], swapped),
        cells=state.cells,
        foundations=state.foundations,
        stock=tuple(reversed(state.stock)),
        waste=state.waste,
        hidden=state.hidden,
    )
    assert render_preview(state, 200, 150).tobytes() == render_preview(other, 200, 150).tobytes()
    turned = GameState.from_text(rules, state.to_text().replace("#", "", 1))
    assert render_preview(state, 200, 150).tobytes() != render_preview(turned, 200, 150).tobytes()


def test_safe_autoplay_leaves_a_draw_3_waste_card_while_a_redeal_is_left() -> None:
    """Sending the waste's Ace up at once would shift the threes of the next pass through
    the stock (rules.waste_realigns); one card at a time, nothing shifts."""
    layout = "KS - - - - - - |  | - - - - | stock 2H,3H,4H,5H | waste 9C,AC | round 0"
    for variant, goes_up in (("klondike-draw-3", False), ("klondike", True)):
        state = GameState.from_text(rules_of(variant), layout)
        after, made = autoplay_moves(state, "safe")
        assert bool(made) is goes_up, variant
        assert (after.waste == state.waste) is not goes_up


def test_klondike_draw_3_deal_2_is_winnable_as_solvitaire_finds() -> None:
    """Solvitaire wins Klondike (Draw 3) deal 2 with an Ace left on the waste for one deal;
    the search, whose autoplay once sent that Ace up at once, called the deal lost."""
    rules = rules_of("klondike-draw-3")
    result = solve_deal(rules, 2, max_states=100_000)
    assert result.verdict is Verdict.WINNABLE
    session = Session(rules, 2)
    for move in result.moves:
        session.play(move)
    assert session.is_won
