"""Safe autoplay where copies of a card compete for the piles, and where cards come back
from the foundations.

Two end games the conformance kit's random search found, where autoplay "safe" turned a
won game into a lost one: in Double Klondike a Queen of clubs went up on the one clubs
pile at the Jack and left its twin no place; in Saratoga the King of clubs went up while
the Queen of hearts, already up, had to come back onto it to hold the Jack of spades.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest

from solitaire_core.cards import Card
from solitaire_core.moves import Move, PileKind, PileRef
from solitaire_core.plugins import get_variant
from solitaire_core.rules import autoplay_moves, is_safe_to_foundation
from solitaire_core.solver import Verdict, solve
from solitaire_core.solver.engine import Engine
from solitaire_core.solver.search import tables_for
from solitaire_core.state import GameState
from solitaire_core.testing import reference
from solitaire_core.variant import Rules


def suit_up(suit: str, ranks: int, deck: str = "") -> str:
    """A foundation pile holding ``suit`` from the Ace to the ``ranks``-th card."""
    return ",".join(f"{r}{suit}{deck}" for r in "A23456789TJQK"[:ranks])


def board(variant: str, columns: int = 2) -> Rules:
    """The rules of ``variant`` on a board of ``columns`` columns and no cells."""
    return attrs.evolve(get_variant(variant).resolve(), columns=columns, cells=0)


# Clubs stand at the Jack on one pile and the Ten on the other; the Jack of clubs' twin lies
# under the Queen's twin. Up first, the Queen of clubs would take the one place at the Jack.
TWINS = "KC,KS,KC',QC,QS',KS' JC',QC'"
TWIN_PILES = " ".join(
    (
        suit_up("C", 11),
        suit_up("C", 10, "'"),
        suit_up("D", 13),
        suit_up("D", 13, "'"),
        suit_up("H", 13),
        suit_up("H", 13, "'"),
        suit_up("S", 12),
        suit_up("S", 11, "'"),
    )
)


def twins_position(rules: Rules) -> GameState:
    text = f"{TWINS} | | {TWIN_PILES}"
    if rules.hidden_cards:
        text += " | stock - | waste -"
    return GameState.from_text(rules, text)


def test_double_klondike_leaves_the_queen_of_clubs_to_the_player() -> None:
    state = twins_position(board("double-klondike"))
    queen = Card.parse("QC")
    assert not is_safe_to_foundation(state, queen)
    after, _ = autoplay_moves(state, "safe")
    twin = Card.parse("QC", deck=1)
    up = {card for pile in after.foundations for card in pile}
    assert queen not in up and twin not in up
    assert reference.winnable(state, policy="off") is True
    assert reference.winnable(after) is True
    # Once both clubs piles stand at the Jack, the Queens go up again.
    even = attrs.evolve(
        state,
        columns=((queen,), (twin,)),
        foundations=(
            (*state.foundations[0],),
            (*state.foundations[1], Card.parse("JC", deck=1)),
            *state.foundations[2:],
        ),
    )
    assert is_safe_to_foundation(even, queen)
    assert autoplay_moves(even, "safe")[0].columns == ((), ())


@pytest.mark.parametrize("variant", ["die-schlange", "der-katzenschwanz"])
@pytest.mark.parametrize("engine", ["python", "c"])
def test_two_deck_open_games_are_not_lost_by_the_solvers_autoplay(
    variant: str, engine: str
) -> None:
    """The solver's engines send up what the session sends up: a won end game stays won
    (both once answered "unwinnable" at once, autoplay having lost it)."""
    rules = board(variant)
    state = twins_position(rules)
    core, moves = autoplay_moves(state, "safe")
    assert moves == []
    python = Engine(tables_for(rules), "safe")
    assert python.key(python.from_state(state)) == python.key(python.from_state(core))
    result = solve(state, autoplay="safe", engine=engine)
    assert result.engine == engine
    assert result.verdict is Verdict.WINNABLE
    assert reference.winnable(state, policy="safe") is True


def saratoga_position() -> GameState:
    rules = board("saratoga")
    piles = " ".join((suit_up("C", 12), suit_up("D", 12), suit_up("H", 12), suit_up("S", 8)))
    return GameState.from_text(rules, f"TS,KD,9S,JS KH,KS,QS,KC | | {piles} | stock - | waste -")


def test_saratoga_keeps_the_king_a_returning_queen_needs() -> None:
    state = saratoga_position()
    assert not is_safe_to_foundation(state, Card.parse("KC"))
    after, moves = autoplay_moves(state, "safe")
    assert moves == []
    assert reference.winnable(after) is True


def test_klondike_sends_a_card_up_once_no_card_could_come_back_for_it() -> None:
    """Where cards come back from the foundations, the Five of diamonds waits for the
    Three of hearts too (a Four of clubs up could come back onto it to hold the Three)."""
    rules = attrs.evolve(get_variant("klondike").resolve(), columns=3)
    piles = " ".join((suit_up("C", 4), suit_up("D", 4), suit_up("H", 2), suit_up("S", 4)))
    text = f"5D 3H KS,QH,QD,KD,KC,QS,QC,KH | | {piles} | stock - | waste -"
    waiting = GameState.from_text(rules, text)
    five = Card.parse("5D")
    assert not is_safe_to_foundation(waiting, five)
    three_up = GameState.from_text(
        rules,
        text.replace("5D 3H", "5D -").replace(suit_up("H", 2), suit_up("H", 3)),
    )
    assert is_safe_to_foundation(three_up, five)
    # Without cards coming back, the Fours of the black suits up are enough.
    one_way = attrs.evolve(waiting, rules=attrs.evolve(rules, foundation_return=False))
    assert is_safe_to_foundation(one_way, five)


def _random_positions(
    rules: Rules, *, seed: int, deals: range, moves: int
) -> Iterator[tuple[int, GameState]]:
    """``(deal number, position)`` along one random game of each deal (autoplay off),
    at most ``moves`` positions a game, the last one where no move is left."""
    import random

    from solitaire_core.deal import deal
    from solitaire_core.rules import legal_moves
    from solitaire_core.session import play_move

    rng = random.Random(seed)
    for number in deals:
        state, _ = autoplay_moves(deal(rules, number), "off")
        for _ in range(moves):
            yield number, state
            legal = legal_moves(state)
            if not legal:
                break
            _, _, state = play_move(state, rng.choice(legal), "off")


@pytest.mark.parametrize(
    "variant", ["freecell", "seahaven", "bakers-game", "penguin", "eight-off", "citadel"]
)
def test_autoplay_s_quick_safety_check_answers_as_the_rule_does(variant: str) -> None:
    """Autoplay over the classic foundations asks whether a card is safe on the piles it
    holds as lists (rules._classic_safe, quick for one deck); along random games its
    answer for every card a foundation takes equals is_safe_to_foundation's."""
    from solitaire_core.rules import _classic_safe

    rules = get_variant(variant).resolve()
    checked = 0
    for number, state in _random_positions(rules, seed=7, deals=range(1, 9), moves=60):
        founds = list(state.foundations)
        for card in [c[-1] for c in state.columns if c] + [c for c in state.cells if c]:
            for target, pile in enumerate(founds):
                fits = (not pile and card.rank == 1) or (
                    pile and pile[-1].suit == card.suit and pile[-1].rank + 1 == card.rank
                )
                if not fits:
                    continue
                quick = _classic_safe(
                    rules, state.bases, list(state.columns), list(state.cells), founds,
                    card, target,
                )  # fmt: skip
                assert quick == is_safe_to_foundation(state, card, target), (number, card)
                checked += 1
    assert checked > 50


def _reference_safe_autoplay(state: GameState) -> list[Move]:
    """Safe autoplay as the rules text words it, one card at a time: the columns' top
    cards from the first, then the cells, each to the first foundation that takes it
    when is_safe_to_foundation approves, and the sweep starting again after every card."""
    from solitaire_core.rules import _play, foundation_accepts

    made: list[Move] = []
    while True:
        sources = [(PileRef(PileKind.TABLEAU, i), c[-1]) for i, c in enumerate(state.columns) if c]
        sources += [(PileRef(PileKind.CELL, i), c) for i, c in enumerate(state.cells) if c]
        for source, card in sources:
            target = next(
                (j for j, f in enumerate(state.foundations) if foundation_accepts(f, card)), None
            )
            if target is not None and is_safe_to_foundation(state, card, target):
                move = Move(source, PileRef(PileKind.FOUNDATION, target), 1)
                state = _play(state, move)
                made.append(move)
                break
        else:
            return made


@pytest.mark.parametrize("variant", ["freecell", "seahaven", "bakers-game", "eight-off"])
def test_safe_autoplay_sends_up_what_the_rule_allows_along_random_games(variant: str) -> None:
    """Safe autoplay over the classic foundations with one deck (which looks up how far
    each suit's pile has come instead of the cards still in play) sends up the same cards
    in the same order as the rule asked card by card, all along random games."""
    rules = get_variant(variant).resolve()
    sent = 0
    for number, state in _random_positions(rules, seed=11, deals=range(1, 13), moves=80):
        _, made = autoplay_moves(state, "safe")
        assert made == _reference_safe_autoplay(state), (number, str(state))
        sent += len(made)
    assert sent > 20


def test_safe_autoplay_counts_cards_left_out_of_an_end_game_as_out_of_play() -> None:
    """An end game set up with some cards left out (the scenarios', the conformance
    kit's): a card they would want goes up, as the rule decides card by card. FreeCell's
    Three of hearts goes up while neither black Two is on the table."""
    import random

    from solitaire_core.deal import deal

    rules = get_variant("freecell").resolve()
    state = GameState.from_text(rules, "3H KS - - - - - - | 9D - - - | AH,2H AC - -")
    _, made = autoplay_moves(state, "safe")
    assert [str(m) for m in made] == [str(m) for m in _reference_safe_autoplay(state)]
    assert len(made) == 1
    rng = random.Random(5)
    for number in range(1, 30):
        full, _ = autoplay_moves(deal(rules, number), "off")
        # Leave out a few cards from the tops of the columns.
        columns = [list(c) for c in full.columns]
        for _ in range(rng.randrange(1, 6)):
            col = rng.choice([c for c in columns if c])
            col.pop()
        part = attrs.evolve(full, columns=tuple(tuple(c) for c in columns))
        assert autoplay_moves(part, "safe")[1] == _reference_safe_autoplay(part), number
