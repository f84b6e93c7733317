"""The table with a stock, a waste and face-down cards, driven by real X input (xdotool):
a Klondike game won by stock clicks and moves, a Spider row dealt that completes a suit,
the stock's key, the card backs and what the stock says of itself."""

from __future__ import annotations

import shutil

import pytest
from ui_helpers import card, key, open_app, wait_for, xdotool

from solitaire_core.moves import PileKind, PileRef
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
from solitaire_core.state import GameState

pytestmark = [
    pytest.mark.gui,
    pytest.mark.usefixtures("solitaire_home"),
    pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed"),
]

STOCK = PileRef(PileKind.STOCK, 0)
WASTE = PileRef(PileKind.WASTE, 0)


def real_click(root, view, x: int, y: int) -> None:
    """A real X click at canvas point ``(x, y)``."""
    root.lift()
    root.update()
    xdotool("mousemove", "--sync", str(view.winfo_rootx() + x), str(view.winfo_rooty() + y))
    xdotool("click", "1")


def begin(app, state: GameState, autoplay: str | None = None) -> Session:
    session = Session(state.rules, 7, state=state, autoplay=autoplay)
    app.begin(session)
    app.root.update()
    app.view.relayout()
    app.root.update()
    return session


def test_klondike_is_won_by_real_clicks_on_the_stock_the_waste_and_the_columns(root, tmp_path):
    rules = get_variant("klondike").resolve()
    piles = " ".join(
        ",".join(f"{r}{s}" for r in "A23456789TJQK"[:n])
        for s, n in (("C", 13), ("D", 13), ("H", 12), ("S", 11))
    )
    state = GameState.from_text(
        rules, f"#KH,QS - - - - - - |  | {piles} | stock KS | waste - | round 0"
    )
    app = open_app(root, tmp_path, "klondike")
    session = begin(app, state, autoplay="off")  # every card goes up by a click
    view = app.view
    assert view._down[card("KH")] and view._down[card("KS")]  # drawn as backs

    real_click(root, view, *view.card_center(card("QS")))
    assert wait_for(root, lambda: session.moves == 1)
    assert not session.state.hidden and not view._down[card("KH")]  # turned face up
    real_click(root, view, *view.card_center(card("KH")))
    assert wait_for(root, lambda: session.moves == 2)
    assert view.stock_label(session.state) == "1 · ∞"
    real_click(root, view, *view.pile_center(STOCK))  # deal
    assert wait_for(root, lambda: session.state.waste == (card("KS"),))
    assert not view._down[card("KS")]
    assert view.find_withtag("stockmark")  # the empty stock shows its redeal mark
    real_click(root, view, *view.pile_center(WASTE))
    assert wait_for(root, lambda: session.is_won)


def test_a_spider_row_deal_by_a_real_click_completes_a_suit(root, tmp_path):
    rules = get_variant("spider").resolve()
    run = ",".join(f"{r}S" for r in "KQJT98765432")
    others = " ".join(["#9D,KH"] * 9)
    # The stock's next card (last written) goes to column A: the Ace of spades.
    stock = ",".join(["5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AS"])
    state = GameState.from_text(
        rules, f"{run} {others} |  | - - - - - - - - | stock {stock} | waste - | round 0"
    )
    app = open_app(root, tmp_path, "spider")
    session = begin(app, state)
    view = app.view
    assert view.stock_label(session.state) == "10"
    real_click(root, view, *view.pile_center(STOCK))
    assert wait_for(root, lambda: not session.state.stock)
    state = session.state
    assert [col[-1] for col in state.columns[1:]] == [
        card(c) for c in ("KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D")
    ]
    # The Ace completed the spades, which went up by themselves.
    assert len(state.foundations[0]) == 13 and not state.columns[0]
    assert view.stock_label(state) == "0"


def test_spider_refuses_a_deal_while_a_column_is_empty_and_says_why(root, tmp_path):
    rules = get_variant("spider").resolve()
    state = GameState.from_text(
        rules,
        "- "
        + " ".join(["KH"] * 9)
        + " |  | - - - - - - - - | stock "
        + ",".join(["2C"] * 10)
        + " | waste - | round 0",
    )
    app = open_app(root, tmp_path, "spider")
    session = begin(app, state)
    messages: list[str] = []
    app.view.on_message = messages.append
    real_click(root, app.view, *app.view.pile_center(STOCK))
    assert wait_for(root, lambda: bool(messages))
    assert session.moves == 0
    assert messages[-1] == "No row is dealt while a column is empty: fill every column first."


def test_the_stocks_key_deals_and_redeals(root, tmp_path):
    app = open_app(root, tmp_path, "klondike-draw-3", deal=1)
    session = app.session
    assert len(session.state.waste) == 3
    assert app.view.key_of[STOCK] == "1" and app.view.key_of[WASTE] == "2"
    key(app.view, "1")
    assert wait_for(root, lambda: len(session.state.stock) == 18)
    for _ in range(6):
        key(app.view, "1")
    assert wait_for(root, lambda: not session.state.stock)
    key(app.view, "1")  # the empty stock: the waste turns over
    assert wait_for(root, lambda: session.state.rounds == 1)
    assert app.view.stock_label(session.state).endswith("∞")


def test_the_keyboard_focus_reaches_the_stock_and_the_waste(root, tmp_path):
    """Tab goes from the columns to the stock, then the waste; Space on the stock deals,
    and Space picks up the waste's top card and puts it on a column."""
    rules = get_variant("klondike").resolve()
    state = GameState.from_text(
        rules, "9S - - - - - - |  | - - - - | stock 2C,8H | waste - | round 0"
    )
    app = open_app(root, tmp_path, "klondike")
    session = begin(app, state, autoplay="off")
    view = app.view
    key(view, "Tab")
    assert view.cursor.pile == STOCK
    key(view, "space")
    assert wait_for(root, lambda: session.state.waste == (card("8H"),))
    key(view, "Tab")
    assert view.cursor.pile == WASTE
    key(view, "space")  # pick up the 8H
    key(view, "Tab")
    key(view, "Tab")  # past the (empty) cell area to the foundations, then round
    while view.cursor.pile.kind is not PileKind.TABLEAU:
        key(view, "Tab")
    key(view, "space")  # drop it on column A's 9S
    assert wait_for(root, lambda: session.state.columns[0][-1] == card("8H"))
