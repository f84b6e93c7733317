"""The thoughtful search of the stock games (solitaire_core/solver/stock.py) in its two
engines: the compiled one of _csolver.c, which ``solve`` runs for the Klondike, Yukon,
Canfield, Spider, Gypsy and Forty Thieves families, and the pure-Python reference. Both
store the same positions in the same order, so a player gets the same verdict and the
same position count from either; every compiled win replays in a session to a won game.
"""

from __future__ import annotations

import attrs
import pytest

import solitaire_core.solver.stock as stock
from solitaire_core.cards import Card
from solitaire_core.moves import Move, tableau
from solitaire_core.plugins import get_variant
from solitaire_core.rules import canonical_key
from solitaire_core.session import Session
from solitaire_core.solver import native, solve_deal
from solitaire_core.state import GameState

pytestmark = pytest.mark.skipif(native._csolver is None, reason="the C extension is not built")


def search(variant: str, number: int, engine: str, max_states: int, policy: str = "") -> tuple:
    rules = get_variant(variant).resolve()
    state = Session(rules, number, autoplay=policy or None).state
    return stock.search(
        state,
        policy=policy or rules.autoplay,
        max_states=max_states,
        deadline=None,
        cancel=None,
        progress=None,
        engine=engine,
    )


def assert_same_search(variant: str, number: int, budget: int, policy: str = "") -> None:
    """Both engines give the same verdict, line and count on the deal, and a compiled
    win wins in a session."""
    compiled = search(variant, number, "c", budget, policy)
    reference = search(variant, number, "python", budget, policy)
    assert compiled[0] == reference[0] and compiled[1:] == reference[1:]
    if compiled[0] == "winnable":
        assert wins_in_a_session(variant, number, compiled[1], policy)


def wins_in_a_session(variant: str, number: int, moves: tuple, policy: str = "") -> bool:
    session = Session(get_variant(variant).resolve(), number, autoplay=policy or None)
    for move in moves:
        session.play(move)
    return session.state.is_won


@pytest.mark.parametrize("variant", ["klondike", "klondike-draw-3"])
@pytest.mark.parametrize(
    "number",
    # Deals 6-30 with the slow tests: the Python reference takes most of the time.
    [*range(1, 6), *(pytest.param(n, marks=pytest.mark.slow) for n in range(6, 31))],
)
def test_both_engines_give_the_same_verdict_and_count(variant: str, number: int) -> None:
    compiled = search(variant, number, "c", 5000)
    reference = search(variant, number, "python", 5000)
    assert compiled[0] == reference[0]
    assert compiled[2:] == reference[2:]
    if compiled[0] == "winnable":
        assert wins_in_a_session(variant, number, compiled[1])


@pytest.mark.parametrize("variant", ["yukon", "russian-solitaire"])
@pytest.mark.parametrize(
    "number", [*range(1, 5), *(pytest.param(n, marks=pytest.mark.slow) for n in range(5, 11))]
)
def test_the_yukon_family_is_searched_compiled_with_the_same_result(
    variant: str, number: int
) -> None:
    """No stock, and any face-up card moves with the cards on it (PySolFC games 19 and
    20)."""
    assert stock.native_unsupported(get_variant(variant).resolve()) == ""
    compiled = search(variant, number, "c", 3000)
    reference = search(variant, number, "python", 3000)
    assert compiled[0] == reference[0] and compiled[2:] == reference[2:]
    if compiled[0] == "winnable":
        assert wins_in_a_session(variant, number, compiled[1])


@pytest.mark.parametrize(
    ("variant", "number"),
    [
        # Wins: twins go up to the foundations in both engines' order (Double Klondike,
        # PySolFC game 21), complete suits of one or two suits in eight slots (Spider,
        # PySolFC games 10, 11 and 12), and Small Harp's eight piles.
        ("double-klondike", 1),
        ("spider-1-suit", 2),
        ("spider-2-suits", 2),
        ("small-harp", 1),
        # Undecided within the budget: the same positions in the same order.
        ("gypsy", 1),
        ("forty-thieves", 1),
        ("spider", 1),
        ("double-yukon", 1),
        ("indian", 2),
        ("streets", 1),
        ("relaxed-spider", 1),
    ],
)
def test_two_deck_games_are_searched_compiled_with_the_same_result(
    variant: str, number: int
) -> None:
    """Two decks of 104 cards (the copies of a card told apart, as the rules tell
    them), eight foundations, and Forty Thieves' one card at a time (PySolFC game 13)."""
    assert stock.native_unsupported(get_variant(variant).resolve()) == ""
    assert_same_search(variant, number, 4000)


@pytest.mark.parametrize(
    ("variant", "number"),
    [("klondike", 7), ("klondike-draw-3", 6), ("klondike-draw-3", 29)],
)
@pytest.mark.slow
def test_both_engines_agree_at_a_larger_budget(variant: str, number: int) -> None:
    compiled = search(variant, number, "c", 20_000)
    reference = search(variant, number, "python", 20_000)
    assert compiled[0] == reference[0] and compiled[2:] == reference[2:]
    if compiled[0] == "winnable":
        assert wins_in_a_session(variant, number, compiled[1])


@pytest.mark.parametrize(
    ("variant", "policy"),
    [
        ("klondike", "all"),
        ("klondike", "off"),
        ("klondike-draw-3", "off"),
        ("vegas-klondike", ""),
        ("casino-klondike", ""),
    ],
)
@pytest.mark.parametrize("number", range(1, 5))
def test_other_policies_and_redeal_limits_agree(variant: str, policy: str, number: int) -> None:
    compiled = search(variant, number, "c", 3000, policy)
    reference = search(variant, number, "python", 3000, policy)
    assert compiled[0] == reference[0] and compiled[2:] == reference[2:]
    if compiled[0] == "winnable":
        assert wins_in_a_session(variant, number, compiled[1], policy)


@pytest.mark.parametrize(
    ("variant", "number"),
    # Each win passes through a card taken back from a foundation and then a deal, after
    # which the session sends the card straight up again (autoplay "all").
    [("klondike", 39), ("klondike-draw-3", 9), ("klondike-draw-3", 22)],
)
@pytest.mark.parametrize("engine", ["c", "python"])
def test_a_win_found_with_autoplay_all_wins_in_a_session(
    variant: str, number: int, engine: str
) -> None:
    verdict, moves, *_ = search(variant, number, engine, 5000, "all")
    assert verdict == "winnable"
    assert wins_in_a_session(variant, number, moves, "all")


@pytest.mark.parametrize("variant", ["busy-aces", "miss-milligan"])
def test_a_game_outside_the_family_names_a_reason_and_runs_in_python(variant: str) -> None:
    rules = get_variant(variant).resolve()
    assert stock.native_unsupported(rules, rules.autoplay)
    with pytest.raises(ValueError, match="cannot search"):
        search(variant, 1, "c", 200)
    result = solve_deal(rules, 1, max_states=200)
    assert result.engine == "python"
    assert search(variant, 1, "auto", 200) == search(variant, 1, "python", 200)


def test_solve_deal_runs_the_compiled_search_for_klondike() -> None:
    rules = get_variant("klondike-draw-3").resolve()
    compiled = solve_deal(rules, 1, max_states=5000)
    reference = solve_deal(rules, 1, max_states=5000, engine="python")
    assert compiled.engine == "c" and reference.engine == "python"
    assert compiled.verdict == reference.verdict
    assert compiled.positions == reference.positions


def test_the_budget_and_cancel_stop_the_compiled_search() -> None:
    assert search("klondike-draw-3", 2, "c", 1000)[2:] == (1000, "state budget")
    rules = get_variant("klondike-draw-3").resolve()
    state = Session(rules, 2).state
    result = stock.search(
        state,
        policy="safe",
        max_states=100_000,
        deadline=None,
        cancel=lambda: True,
        progress=None,
        engine="c",
    )
    assert result == ("undecided", (), 500, "cancelled")


@pytest.mark.slow
@pytest.mark.parametrize("redeals", [0, 1])
def test_draw_3_with_limited_redeals_agrees(redeals: int) -> None:
    """Draw 3 with a redeal left leaves the waste's card to the player; without, not."""
    rules = attrs.evolve(get_variant("klondike-draw-3").resolve(), redeals=redeals)
    for number in range(1, 6):
        state = Session(rules, number).state
        budget = {"max_states": 3000, "deadline": None, "cancel": None, "progress": None}
        compiled = stock.search(state, policy="safe", engine="c", **budget)  # type: ignore[arg-type]
        reference = stock.search(state, policy="safe", engine="python", **budget)  # type: ignore[arg-type]
        assert compiled == reference


@pytest.mark.parametrize(
    ("foundations", "kept"),
    [("- - - -", False), ("AH,2H,3H,4H,5H,6H,7H,8H - - -", True)],
)
def test_the_narrowed_search_splits_a_run_only_to_send_the_card_under_up(
    foundations: str, kept: bool
) -> None:
    """8C, 7D onto 9D leaves 9H uncovered: the searches that leave splits out (the
    narrowed one, and in Klondike the full one) try it only when 9H can then go up."""
    rules = get_variant("klondike").resolve()
    state = GameState.from_text(
        rules, f"#KS,9H,8C,7D 9D - - - - - |  | {foundations} | stock - | waste -"
    )
    split = (Move.parse("t1>t2x2"),)
    assert [line for line, _ in stock.expand(state, "off")] == [split]
    assert [line for line, _ in stock.expand(state, "off", True)] == ([split] if kept else [])


def test_the_narrowed_search_runs_first_where_runs_move_as_built() -> None:
    """Klondike is searched narrowed first, and so are Yukon and Double Yukon, whose
    alternate colours let the narrowed key treat alike cards as one; the games whose
    face-up cards move whatever they are and that build in suit are not (Alaska's full
    search wins at once what the narrowed one misses)."""
    for variant in ("klondike-draw-3", "yukon", "double-yukon"):
        assert stock.narrowed(get_variant(variant).resolve()), variant
    for variant in ("russian-solitaire", "alaska", "scorpion"):
        assert not stock.narrowed(get_variant(variant).resolve()), variant


@pytest.mark.parametrize("engine", ["c", pytest.param("python", marks=pytest.mark.slow)])
def test_yukon_deal_4_is_won_in_a_few_thousand_positions(engine: str) -> None:
    """Yukon #4 was left undecided at a million positions before Yukon was searched
    narrowed first; the narrowed search wins it within 12,000 (8,809 of them with both
    engines), and the win replays in a session."""
    verdict, moves, positions, _ = search("yukon", 4, engine, 12_000)
    assert verdict == "winnable" and positions < 12_000
    assert wins_in_a_session("yukon", 4, moves)


def test_the_narrowed_yukon_search_keeps_cards_off_the_cards_they_build_on() -> None:
    """In Yukon any face-up card moves with the cards on it. The narrowed search leaves
    out taking a card off one it builds on unless the card uncovered can go up, and
    keeps every move that takes a card off one it does not build on (that sorts the
    column)."""
    rules = get_variant("yukon").resolve()
    state = Session(rules, 1).state
    column = [Card.parse(c) for c in ("9C", "8H", "5S", "4D")]  # 8H builds on 9C; 5S not on 8H
    state = attrs.evolve(
        state,
        columns=(tuple(column), *state.columns[1:]),
        hidden=(0, *state.hidden[1:]),
    )
    off_its_parent = Move(tableau(0), tableau(1), 3)  # 8H 5S 4D off the 9C
    off_a_stranger = Move(tableau(0), tableau(1), 2)  # 5S 4D off the 8H
    assert stock._split_in_vain(state, off_its_parent)
    assert not stock._split_in_vain(state, off_a_stranger)
    assert not stock._split_in_vain(state, Move(tableau(0), tableau(1), 4))  # the whole column


@pytest.mark.parametrize("engine", ["c", pytest.param("python", marks=pytest.mark.slow)])
def test_the_progress_count_only_rises_through_the_narrowed_search(engine: str) -> None:
    # Klondike #6 is undecided at 9,000 positions: the narrowed search takes the first
    # 2,250, then the full search counts on from there, as a progress bar shows it.
    rules = get_variant("klondike").resolve()
    counts: list[int] = []
    verdict, _, positions, _ = stock.search(
        Session(rules, 6).state,
        policy="safe",
        max_states=9_000,
        deadline=None,
        cancel=None,
        progress=counts.append,
        engine=engine,
    )
    assert verdict == "undecided" and positions == 9_000
    assert len(counts) >= 4 and counts == sorted(set(counts)), counts
    assert counts[-1] <= positions


@pytest.mark.parametrize(("variant", "number"), [("klondike-draw-3", 2), ("yukon", 1)])
def test_where_no_win_is_found_both_engines_name_the_same_furthest_position(
    variant: str, number: int
) -> None:
    """An undecided search still says how far it got: the line to the first position it
    stored with the highest score, the same in both engines. The solver hands it out
    (``best_line``) only after replaying it in a session, and there it leaves more cards
    up or fewer face down than the deal's start."""
    rules = get_variant(variant).resolve()
    state = Session(rules, number).state
    found = {
        engine: stock.explore(state, policy="safe", max_states=3000, engine=engine)
        for engine in ("c", "python")
    }
    assert found["c"] == found["python"]
    verdict, _, _, _, best_score, best_line = found["c"]
    assert verdict == "undecided" and best_line
    result = solve_deal(rules, number, max_states=3000)
    assert result.best_line == best_line
    assert result.best_gain == best_score - stock.start_score(state) > 0
    session = Session(rules, number)
    for move in best_line:
        session.play(move)
    after = session.state
    assert (after.foundation_cards, -after.face_down_cards) > (
        state.foundation_cards,
        -state.face_down_cards,
    )
    won = solve_deal(get_variant("klondike").resolve(), 1, max_states=3000)
    assert won.verdict.value == "winnable" and won.best_line == () and won.best_gain == 0


@pytest.mark.parametrize("engine", ["c", pytest.param("python", marks=pytest.mark.slow)])
def test_a_card_just_taken_back_stays_where_the_player_put_it(engine: str) -> None:
    """The player took A♦ back from a foundation onto 2♠; the session does not send it up
    again. The search starts from that position as it is, so its line plays from it
    (searched from the position autoplayed, the line began with A♦ back down from a
    foundation that is empty here)."""
    from solitaire_core.session import play_move
    from solitaire_core.solver import solve

    rules = get_variant("klondike-draw-3").resolve()
    text = (
        "KS,QH,JC,TH,9S,8H,7S,6D,5C 4S TS,9H,8S #7H,#7D,KC,QD #6S,#QS,3S #5H,#KD,#QC,#2C,"
        "#JS,KH #4D,#3C,#6H,#AS,#2D,6C,5D,4C,3D,2S,AD |  | AC AH,2H,3H,4H - - | "
        "stock 9C,9D | waste TD,7C,JD,TC,8D,8C,5S,JH | round 11"
    )
    state = GameState.from_text(rules, text)
    result = solve(state, max_states=20_000, engine=engine)
    line = result.moves or result.best_line
    assert line
    current = state
    for move in line:
        _, _, current = play_move(current, move, "safe")
    assert current.is_won or not result.moves


@pytest.mark.parametrize(
    ("variant", "number"),
    # Canfield 1 and 4 are won through the reserve, which fills each emptied column at
    # once; Superior Canfield's reserve lies face up and fills nothing; Storehouse builds
    # in suit from the Two; Rainbow in any suit, one pass.
    [
        ("canfield", 1),
        ("canfield", 2),
        ("canfield", 4),
        ("superior-canfield", 2),
        ("storehouse", 1),
        ("storehouse", 2),
        ("rainbow", 1),
    ],
)
def test_the_canfield_family_is_searched_compiled_with_the_same_result(
    variant: str, number: int
) -> None:
    """A reserve whose top card plays, foundations from the deal's base rank wrapping
    from the King to the Ace, and moves of one card or a whole column (PySolFC games 105,
    101, 100 and 108)."""
    assert stock.native_unsupported(get_variant(variant).resolve()) == ""
    assert_same_search(variant, number, 3000)


def test_a_canfield_position_without_its_base_rank_runs_in_python() -> None:
    """A hand-made position of a game whose deal sets the base rank, made without the
    deal's base: the compiled search names why it cannot hold it, and the search runs in
    Python, which asks the position's base and says what is missing."""
    state = Session(get_variant("canfield").resolve(), 1).state
    bare = attrs.evolve(state, bases=())
    assert stock._position_unsupported(bare) == (
        "the foundations do not start from one known base rank"
    )
    with pytest.raises(ValueError, match="one known base rank"):
        stock.search(
            bare,
            policy="safe",
            max_states=200,
            deadline=None,
            cancel=None,
            progress=None,
            engine="c",
        )


@pytest.mark.parametrize(
    ("variant", "number", "policy", "budget"),
    # Scorpion 5 is won (its last three cards dealt as a row onto columns 1-3), 12 and 20
    # lost; Spiderette 1 deals rows only onto columns that all hold cards.
    [
        ("scorpion", 5, "", 5000),
        ("scorpion", 12, "", 3000),
        ("scorpion", 20, "safe", 3000),
        ("spiderette", 1, "", 2000),
    ],
)
def test_rows_and_complete_suits_are_searched_compiled_with_the_same_result(
    variant: str, number: int, policy: str, budget: int
) -> None:
    """A stock dealt in rows, one card on each column, and foundations that take only a
    complete suit, King down to the Ace (PySolFC games 29 and 24): the columns keep
    their order in the key while a row is still to come."""
    assert stock.native_unsupported(get_variant(variant).resolve()) == ""
    assert_same_search(variant, number, budget, policy)


@pytest.mark.parametrize(
    ("variant", "number", "budget"),
    [("spiderette", 4, 5000), ("spiderette", 14, 5000), ("will-o-the-wisp", 4, 12000)],
)
def test_the_spider_games_narrowed_search_wins_in_both_engines(
    variant: str, number: int, budget: int
) -> None:
    """Spiderette and Will o' the Wisp (PySolFC games 24 and 48) are searched narrowed
    first: no run split, positions keyed by rank alone (the columns build regardless of
    suit). Both engines store the same positions and find the same win, which a session
    plays to the end; the full search alone finds none of these at this budget."""
    assert stock.narrowed(get_variant(variant).resolve())
    compiled = search(variant, number, "c", budget)
    assert compiled[0] == "winnable"
    assert_same_search(variant, number, budget)


_SPIDER = "#JD,AH #2D,#7C,3C,{a} #9H,#5H,3D,{b} - - - - |  | - - - - | stock {stock} | waste -"


def test_the_blind_key_tells_the_suits_of_one_rank_apart_by_nothing() -> None:
    """Two Spiderette positions that differ only in which two lies on which three share
    the narrowed search's key, not the full one; the stock's order still counts."""
    rules = get_variant("spiderette").resolve()
    one, other, dealt_apart = (
        GameState.from_text(rules, _SPIDER.format(a=a, b=b, stock=rest))
        for a, b, rest in (("2H", "2S", "KH,QS"), ("2S", "2H", "KH,QS"), ("2S", "2H", "QS,KH"))
    )
    assert stock.blind_key(one) == stock.blind_key(other)
    assert canonical_key(one) != canonical_key(other)
    assert stock.blind_key(other) != stock.blind_key(dealt_apart)


@pytest.mark.parametrize(
    ("variant", "alike"),
    [
        ("spiderette", {"9H": True, "9S": True}),
        ("klondike", {"9H": True, "9S": False}),
        ("canfield", {"9H": True, "9S": False}),
        ("scorpion", {"9H": False, "9S": False}),
    ],
)
def test_the_build_rule_puts_together_the_cards_it_cannot_tell_apart(
    variant: str, alike: dict[str, bool]
) -> None:
    """The nine of diamonds shares its class with every nine where the columns build
    regardless of suit, with the nine of hearts in alternate colours, with none in
    suit; the narrowed search keys by class only where some cards share one."""
    rules = get_variant(variant).resolve()
    classes = stock.build_classes(rules)
    by_name = {str(card): n for card, n in classes.items()}
    assert {name: by_name[name] == by_name["9D"] for name in alike} == alike
    assert stock._keyed_blind(rules) is any(alike.values())


def test_the_spider_games_narrowed_search_never_splits_a_run() -> None:
    """With 9H, 8H, 7H on top of a column and a ten and an eight of spades elsewhere, the
    full search moves all three onto the ten or the 7H alone onto the eight; the
    narrowed one only the whole run."""
    rules = get_variant("spiderette").resolve()
    state = GameState.from_text(
        rules, "#KC,9H,8H,7H TS 8S - - - - |  | - - - - | stock - | waste -"
    )
    whole, part = Move.parse("t1>t2x3"), Move.parse("t1>t3")
    assert {line[0] for line, _ in stock.expand(state, "off")} >= {whole, part}
    narrowed = {line[0] for line, _ in stock.expand(state, "off", True)}
    assert whole in narrowed and part not in narrowed


def test_the_compiled_search_refuses_cards_outside_its_decks() -> None:
    """The compiled search checks what it is handed: a slot table that is not four or
    eight suits, or a card index past the decks' cards, is a ValueError, not a search."""
    rules = get_variant("gypsy").resolve()
    state = Session(rules, 1).state
    index, build, run, wanting, slot_suits = stock._tables(rules)
    cards = sorted(index, key=index.__getitem__)

    def call(**changes: object) -> object:
        args = dict(
            columns=tuple(bytes(index[c] for c in col) for col in state.columns),
            hidden=bytes(state.hidden),
            stock=bytes(index[c] for c in state.stock),
            waste=b"",
            foundations=(b"",) * 8,
            rounds=0,
            draw=1,
            redeals=0,
            build=build,
            run=run,
            empty_ok=bytes(1 for _ in cards),
            wanting=wanting,
            face_up_runs=False,
            foundation_runs=False,
            foundation_return=True,
            policy=1,
            max_states=50,
            timeout=-1.0,
            row_columns=bytes(range(8)),
            slot_suits=slot_suits,
        )
        args.update(changes)
        return native._csolver.stock_search(**args)

    assert call()[0] == "undecided"
    with pytest.raises(ValueError, match="bad arguments"):
        call(slot_suits=slot_suits[:5])
    with pytest.raises(ValueError, match="outside the decks"):
        call(stock=bytes([104]))
    with pytest.raises(ValueError, match="bad foundation"):
        call(foundations=(bytes([120]),) + (b"",) * 7)
