"""What the table draws in empty piles: reserve slots, foundation base ranks other than the
Ace, the rank an empty column takes."""

from __future__ import annotations

from pathlib import Path

from solitaire_tk.table.marks import slot_look
from solitaire_tk.table.view import TableView

from solitaire_core.moves import PileKind, PileRef
from solitaire_core.plugins import get_variant
from solitaire_core.state import GameState
from solitaire_core.variant import load_variant_file

DATA = Path(__file__).resolve().parent / "data" / "variants"
T, C, F = PileKind.TABLEAU, PileKind.CELL, PileKind.FOUNDATION


def state_of(name: str, text: str) -> GameState:
    return GameState.from_text(load_variant_file(DATA / f"{name}.toml").resolve(), text)


def test_reserve_slots_are_labelled_and_free_cells_are_not() -> None:
    reserve = state_of("king-albert-like", "KS - - - - - - - - | - - - - - - - | - - - -")
    assert slot_look(reserve, PileRef(C, 0)) == ("reserve", "Reserve")
    freecell = get_variant("freecell").resolve()
    state = GameState.from_text(freecell, "- - - - - - - - | - - - - | - - - -")
    assert slot_look(state, PileRef(C, 0)) == ("cell", "")
    assert slot_look(state, PileRef(F, 0)) == ("foundation", "Ace")


def test_foundations_show_their_base_rank() -> None:
    bisley = state_of("bisley-like", " ".join(["-"] * 13) + " | | " + " ".join(["-"] * 8))
    assert slot_look(bisley, PileRef(F, 0)) == ("foundation", "Ace")
    assert slot_look(bisley, PileRef(F, 4)) == ("foundation", "King")
    penguin = state_of("penguin-like", "- - - - - - - | - - - - - - - | - - - - | T")
    assert slot_look(penguin, PileRef(F, 3)) == ("foundation", "Ten")
    assert slot_look(penguin, PileRef(T, 0)) == ("tableau", "Nine")  # the rank below the base
    unknown = state_of("penguin-like", "- - - - - - - | - - - - - - - | - - - -")
    assert slot_look(unknown, PileRef(F, 0)) == ("foundation", "")


def test_the_table_draws_a_reserve_game(root) -> None:
    state = state_of("king-albert-like", "KS QS - - - - - - - | 5H - - - - - - | - - - -")
    view = TableView(root, on_move=lambda move: None, animation=False)
    view.pack(fill="both", expand=True)
    root.update()
    view.set_game(state)
    view.show(state)
    root.update()
    assert len(view.find_withtag("slot")) == 9 + 7 + 4
    view.destroy()


def test_the_last_cards_of_flower_gardens_reserve_are_played_by_their_keys(root) -> None:
    from solitaire_core.deal import deal

    state = deal(get_variant("flower-garden").resolve(), 1)
    moves: list = []
    view = TableView(root, on_move=moves.append, animation=False)
    view.pack(fill="both", expand=True)
    root.update()
    view.set_game(state)
    view.show(state)
    root.update()
    labels = {view.itemcget(i, "text") for i in view.find_withtag("key")} - {""}
    assert {"K", "L", "M", "N", "O", "P"} <= {t.upper() for t in labels}
    assert state.cells[15] is not None and str(state.cells[15]) == "6H"
    assert view.press_key("p")  # reserve slot 16: 6H goes onto 7S, column B's top card
    assert [str(m) for m in moves] == ["c16>t2"]
    view.destroy()


def test_an_empty_column_that_nothing_fills_is_marked_none(root, tmp_path, board) -> None:
    # Baker's Dozen (and Bisley, Fan's cousins, Stalactites...): an emptied column stays
    # empty. Drawn blank, it looked like FreeCell's, where any card goes.
    from ui_helpers import open_app, put

    app = open_app(root, tmp_path, "bakers-dozen")
    put(app, board(get_variant("bakers-dozen").resolve(), ["KS,QS", "", "5H"]))
    view = app.view
    (item,) = view.find_withtag("slot:t2")
    assert view.itemcget(item, "image") == str(view._slot_image("tableau", "None"))
    freecell = GameState.from_text(
        get_variant("freecell").resolve(), "- - - - - - - - | - - - - | - - - -"
    )
    assert slot_look(freecell, PileRef(T, 0)) == ("tableau", "")
    app.close(save=False)
